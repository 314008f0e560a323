"""Cross-app tasks that carry money between Bank and the apps where people ask for it:

- Messages -> Bank: a contact texts how much I owe them; pay exactly that.
- Chat -> Bank: a friend posts a bill's total and how many shared it; send my share.
- Bank -> Messages: text someone the amount of my last payment to them.

Bank's tables are PhoneWorld-only, so these run on PhoneWorld; the SMS side is the common
``sms`` table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.bank.common import (
    CHECKING,
    MEMOS,
    contacts_to_pay,
    dollars,
    money_on_screen,
    search_activity,
    send_money,
)
from phoneworld_gym.tasks.bank.edit import sent_checks
from phoneworld_gym.tasks.chat.common import chats, last_text, open_chat
from phoneworld_gym.tasks.kit import choice, now_ms
from phoneworld_gym.tasks.messages.common import (
    SENT,
    last_received,
    open_thread,
    send_to,
    thread_from_contacts,
)
from phoneworld_gym.validators import added, same_phone, states

_AMOUNT = re.compile(r"\$([\d,]+(?:\.\d{2})?)")


def asked_amount(text: str) -> float:
    """The first dollar amount in a message ("$42.50" -> 42.5)."""
    m = _AMOUNT.search(text)
    if m is None:
        raise OracleError(f"no dollar amount in {text!r}")
    return float(m.group(1).replace(",", ""))


def _cents_amount(rng: np.random.Generator, lo: int, hi: int) -> float:
    """An amount with cents (so a rounded one is a different amount)."""
    return int(rng.integers(lo, hi)) + int(rng.integers(1, 20)) * 5 / 100


@register_task
class CrossAppBankPayBackText(Task):
    """A contact texts how much I owe them and for what; pay exactly that amount from
    checking: one payment to them, checking down by it (and they become a payee when they
    were not one)."""

    id = "CrossAppBankPayBackText"
    apps = ("messages", "bank")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "form", "confirm")
    optimal_steps = 12
    may_change = ("bank/transactions", "bank/accounts", "bank/payees")
    params_schema = {"name": str, "number": str, "amount": str, "memo": str}
    template = "{name} texted me how much I owe them. Pay them back from checking in my bank app."
    constraints = ("checking",)
    paraphrases = {
        "train": ("Read {name}'s latest text and send them the money they asked for from "
                  "checking.",
                  "Settle my debt with {name} out of my checking account: the amount is in their "
                  "message."),
        "test": ("Check what {name} asked for in Messages, then use the bank to pay that "
                 "exact amount out of checking.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, contacts_to_pay(probe))
        return {"name": c["display_name"], "number": c["number"],
                "amount": dollars(_cents_amount(rng, 12, 160)),
                "memo": MEMOS[int(rng.integers(len(MEMOS)))]}

    def setup(self, device: Device) -> None:
        p = self.params
        device.insert("sms", {
            "address": p["number"],
            "body": f"Hey! Could you send me the ${p['amount']} for the "
                    f"{p['memo'].lower()} when you get a chance?",
            "date": now_ms(device.probe, 18), "type": 1, "read": 1})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(*sent_checks(self, p["name"], float(p["amount"].replace(",", "")),
                                        "", CHECKING, p["number"]))

    def _pay(self, device: Device, rounded: bool, alt: bool = False) -> Iterator[Action]:
        p = self.params
        yield from (thread_from_contacts if alt else open_thread)(device, p["name"])
        amount = asked_amount(last_received(device))
        if rounded:
            amount = float(round(amount))
        yield from send_money(device, p["name"], dollars(amount), account="Everyday Checking")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._pay(device, False)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Read their request in the conversation reached from their Text button in Contacts."""
        yield from self._pay(device, False, alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Pays the amount rounded to whole dollars."""
        yield from self._pay(device, True)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppBankChatShare(Task):
    """A friend posts in Chat what a shared bill came to and how many of us shared it; send
    them my share (the total divided evenly) from checking."""

    id = "CrossAppBankChatShare"
    apps = ("chat", "bank")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "arithmetic", "form", "confirm")
    optimal_steps = 12
    may_change = ("bank/transactions", "bank/accounts", "bank/payees")
    params_schema = {"name": str, "number": str, "total": str, "people": int, "what": str}
    template = ("{name} asked me in Chat for my share of a bill. Send it to them from checking "
                "with my bank app.")
    constraints = ("checking",)
    paraphrases = {
        "train": ("Pay {name} my part of the bill they posted in our chat, from checking.",
                  "Look at {name}'s message in Chat, work out my even share and send it via "
                  "the bank from checking."),
        "test": ("{name} split a bill and wants my part. The numbers are in our Chat "
                 "conversation; pay them from checking.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        phones = {c["display_name"]: c["number"] for c in contacts_to_pay(probe)}
        c = choice(rng, [c for c in chats(probe, kind="direct") if c["title"] in phones])
        people = int(rng.integers(2, 6))
        share = _cents_amount(rng, 9, 70)
        what = ("dinner", "groceries", "the taxi", "the cabin", "concert tickets",
                "the birthday gift")[int(rng.integers(6))]
        return {"name": c["title"], "number": phones[c["title"]],
                "total": dollars(round(share * people, 2)), "people": people, "what": what}

    def _share(self) -> float:
        return round(float(self.params["total"].replace(",", "")) / self.params["people"], 2)

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("chat", "receive", chat=p["name"], sender=p["name"], read=1,
                       minutes_ago=4,
                       body=f"{p['what'].capitalize()} came to ${p['total']} for the "
                            f"{p['people']} of us. Can you send me your share?")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(*sent_checks(self, p["name"], self._share(), "", CHECKING,
                                        p["number"]))

    def _pay(self, device: Device, whole: bool) -> Iterator[Action]:
        p = self.params
        yield from open_chat(device, p["name"])
        text = last_text(device)
        total = asked_amount(text)
        m = re.search(r"for the (\d+) of us", text)
        if m is None:
            raise OracleError(f"no head count in {text!r}")
        amount = total if whole else round(total / int(m.group(1)), 2)
        yield from send_money(device, p["name"], dollars(amount), account="Everyday Checking")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._pay(device, False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends the whole bill instead of the share."""
        yield from self._pay(device, True)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppBankTextLastPayment(Task):
    """Text someone the amount of my most recent payment to them: one sent SMS to their
    number stating that amount; Bank is only read."""

    id = "CrossAppBankTextLastPayment"
    apps = ("bank", "messages")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search")
    split = "test"
    optimal_steps = 10
    may_change = ("sms",)
    params_schema = {"name": str, "number": str}
    template = "Text {name} how much I sent them the last time I paid them through my bank."
    paraphrases = {
        "test": ("{name} asked what my last bank payment to them was. Look it up and text "
                 "them the amount.",
                 "Find my latest transfer to {name} in the bank app and message them its "
                 "amount."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        phones = {c["display_name"]: c["number"] for c in contacts_to_pay(probe)}
        paid = sorted({str(t["counterparty"]) for t in probe.query("bank/transactions")
                       if t["kind"] == "sent" and t["counterparty"] in phones})
        name = choice(rng, paid)
        return {"name": name, "number": phones[name]}

    def _payments(self) -> list[Any]:
        rows = [t for t in self.before("bank/transactions")
                if t["kind"] == "sent" and t["counterparty"] == self.params["name"]]
        return sorted(rows, key=lambda t: (t["date"], t["_id"]), reverse=True)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        paid = [-float(t["amount"]) for t in self._payments()]
        return self.expect(added("sms", {"address": same_phone(self.params["number"]),
                                         "body": states(paid[0], kind="money",
                                                        others=paid[1:]),
                                         "type": SENT}))

    def _text(self, device: Device, plus: float) -> Iterator[Action]:
        p = self.params
        yield from search_activity(device, f"Sent to {p['name']}")
        amount = money_on_screen(text_of(device, rid="txn_amount")) + plus
        yield from send_to(device, p["name"], f"My last payment to you was ${amount:,.2f}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._text(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts an amount a dollar off."""
        yield from self._text(device, 1)
        yield Action("status", goal_status="complete")
