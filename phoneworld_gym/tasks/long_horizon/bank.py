"""Long-horizon tasks around Bank, each over three apps with information carried from one to
the next:

- Chat -> Bank -> Chat -> Tasks: a friend's share request is paid with a memo, checking is
  topped up from savings by the same amount, the payment's reference goes back to the
  friend, and the to-do to pay them back is ticked off.
- Messages -> Bank -> Calendar -> Messages: a roommate texts a bill's total and due day; half
  is paid, a calendar event marks the due day, and the roommate gets the reference.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.bank.common import (
    CHECKING,
    SAVINGS,
    contacts_to_pay,
    dollars,
    fill_amount,
    send_form,
    transfer,
)
from phoneworld_gym.tasks.bank.edit import balance_change, near, sent_checks
from phoneworld_gym.tasks.calendar.common import create_event, day_words, epoch_ms
from phoneworld_gym.tasks.chat.common import chats, last_text, open_chat, send_text
from phoneworld_gym.tasks.kit import choice, now_ms, today
from phoneworld_gym.tasks.messages.common import (
    SENT,
    last_received,
    open_thread,
    thread_from_contacts,
    type_and_send,
)
from phoneworld_gym.tasks.todo.common import open_list
from phoneworld_gym.validators import added, expect, same_phone, same_text, states

_AMOUNT = re.compile(r"\$([\d,]+\.\d{2})")


def _amount_in(text: str) -> float:
    m = _AMOUNT.search(text)
    if m is None:
        raise OracleError(f"no dollar amount in {text!r}")
    return float(m.group(1).replace(",", ""))


def _new_ref(task: Task, device: Device) -> str:
    """The reference of the one payment added during the episode ("\\x00" when there is not
    exactly one, so no message can state it)."""
    old = {r["_id"] for r in task.before("bank/transactions")}
    new = [r for r in device.probe.query("bank/transactions")
           if r["_id"] not in old and r["kind"] == "sent"]
    return str(new[0]["ref"]) if len(new) == 1 else "\x00"


def _pay_and_read_ref(device: Device, name: str, amount: float,
                      memo: str) -> Iterator[Action]:
    """Send ``amount`` to ``name`` with ``memo``; stops on the confirmation (its reference on
    screen)."""
    yield from send_form(device, name)
    yield from fill_amount(device, dollars(amount), memo, "Everyday Checking")
    yield tap(device, rid="confirm_button")


def _ref_on_screen(device: Device) -> str:
    ref = (text_of(device, rid="done_ref") or "").removeprefix("Reference ").strip()
    if not ref:
        raise OracleError("no reference on the confirmation")
    return ref


@register_task
class LongHorizonBankSettleUp(Task):
    """Long-horizon, three apps (Chat, Bank, Tasks): a friend posts in Chat what a bill came
    to and how many shared it; send them my share from checking with the memo they name, move
    the same amount from savings into checking, reply in the chat with the payment's reference,
    and tick off the to-do "Pay back <first name>". Exactly: one payment and one transfer
    (checking back where it was, savings down by the share, a payee added if new), one message
    from me in their chat stating the reference, and that to-do done."""

    id = "LongHorizonBankSettleUp"
    apps = ("chat", "bank", "todo")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "arithmetic", "confirm", "multi-app")
    optimal_steps = 28
    max_steps = 70
    may_change = ("bank/transactions", "bank/accounts", "bank/payees", "chat/messages",
                  "todo/tasks")
    params_schema = {"name": str, "number": str, "chat_id": int, "total": str, "people": int,
                     "what": str, "todo": str}
    template = ("Settle up with {name}: send them my share of the bill they posted in Chat from "
                'checking, with the memo "{what}", then move the same amount from savings into '
                "checking, reply in our chat with the payment's reference number, and tick off "
                '"{todo}" in my Tasks.')
    constraints = ("checking", "savings")
    paraphrases = {
        "train": ("{name} wants my part of the {what} bill (see our Chat). Pay it from checking "
                  'with memo "{what}", refill checking from savings by that amount, send them '
                  'the bank reference in Chat, and mark "{todo}" done in Tasks.',),
        "test": ('Pay back {name}: work out my even share from their Chat message, send it via '
                 'the bank from checking (memo "{what}") and cover it with a transfer of the '
                 'same amount from savings, tell them the reference in the chat and tick off '
                 'the to-do "{todo}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        phones = {c["display_name"]: c["number"] for c in contacts_to_pay(probe)}
        c = choice(rng, [c for c in chats(probe, kind="direct") if c["title"] in phones])
        people = int(rng.integers(2, 6))
        share = int(rng.integers(9, 70)) + int(rng.integers(1, 20)) * 5 / 100
        what = ("Dinner", "Groceries", "Taxi", "Cabin", "Concert tickets",
                "Birthday gift")[int(rng.integers(6))]
        return {"name": c["title"], "number": phones[c["title"]], "chat_id": int(c["_id"]),
                "total": dollars(round(share * people, 2)), "people": people, "what": what,
                "todo": f"Pay back {c['title'].split()[0]}"}

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("chat", "receive", chat=p["name"], sender=p["name"], read=1,
                       minutes_ago=6,
                       body=f"{p['what']} came to ${p['total']} for the {p['people']} of us. "
                            "Send me your share when you can!")
        device.fixture("todo", "add_task", title=p["todo"], list="My Tasks")

    def _share(self) -> float:
        return round(float(self.params["total"].replace(",", "")) / self.params["people"], 2)

    def _todo(self) -> Row:
        return next(r for r in self.before("todo/tasks") if r["title"] == self.params["todo"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        ref = _new_ref(self, device)
        share = self._share()
        sent = sent_checks(self, p["name"], share, p["what"], CHECKING, p["number"])
        # the top-up brings checking back: only savings (down by the share) changes
        savings = balance_change(self.before("bank/accounts"), SAVINGS, -share)
        return self.expect(
            expect("bank/transactions", added=[
                {"kind": "sent", "counterparty": p["name"], "amount": near(-share),
                 "account_id": CHECKING, "memo": same_text(p["what"])},
                {"kind": "transfer", "account_id": SAVINGS, "amount": near(-share)},
                {"kind": "transfer", "account_id": CHECKING, "amount": near(share)}]),
            expect("bank/accounts", changed={SAVINGS: savings}),
            *sent[2:],
            added("chat/messages", {"chat_id": p["chat_id"], "sender": "me", "type": "text",
                                    "body": states(ref)}),
            expect("todo/tasks", changed={int(self._todo()["_id"]): {"done": 1}}))

    def _run(self, device: Device, whole: bool) -> Iterator[Action]:
        p = self.params
        yield from open_chat(device, p["name"])
        text = last_text(device)
        m = re.search(r"for the (\d+) of us", text)
        if m is None:
            raise OracleError(f"no head count in {text!r}")
        total = _amount_in(text)
        amount = total if whole else round(total / int(m.group(1)), 2)
        yield from _pay_and_read_ref(device, p["name"], amount, p["what"])
        ref = _ref_on_screen(device)
        yield tap(device, rid="done_button")
        yield from transfer(device, "High-Yield Savings", "Everyday Checking", dollars(amount))
        yield from open_chat(device, p["name"])
        yield from send_text(device, f"Sent! Reference {ref}")
        yield from open_list(device, "My Tasks")
        yield from scroll_to(device, desc=p["todo"], rid="task_row")
        yield tap(device, desc=f"Mark complete: {p['todo']}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything else right, but pays the whole bill instead of the share."""
        yield from self._run(device, True)
        yield Action("status", goal_status="complete")


@register_task
class LongHorizonBankSplitUtility(Task):
    """Long-horizon, three apps (Messages, Bank, Calendar): a roommate texts a bill's total
    and the day it is due; pay them half from checking with the bill as memo, add a 30-minute
    "<bill> due" event at 9 AM that day, and text the roommate the payment's reference.
    Exactly: one payment, one event, one sent text stating the reference."""

    id = "LongHorizonBankSplitUtility"
    apps = ("messages", "bank", "calendar")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "arithmetic", "date-picker", "multi-app")
    split = "test"
    optimal_steps = 29
    max_steps = 70
    may_change = ("bank/transactions", "bank/accounts", "bank/payees", "calendar", "sms")
    params_schema = {"name": str, "number": str, "bill": str, "total": str, "due": str}
    template = ("My roommate {name} texted me about the {bill} bill. Pay them half of it from "
                'checking with the memo "{bill}", add a 30-minute event "{bill} due" at 9 AM '
                "on its due date to my calendar, and text {name} the payment's reference "
                "number.")
    constraints = ("checking",)
    paraphrases = {
        "test": ('Split the {bill} bill {name} told me about by text: half to them from '
                 'checking (memo "{bill}"), a 30-minute calendar event "{bill} due" at 9 AM '
                 "on the due day, and a text back with the bank reference.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, contacts_to_pay(probe))
        bill = ("Electricity", "Internet", "Water", "Gas", "Trash pickup")[int(rng.integers(5))]
        half = int(rng.integers(20, 90)) + int(rng.integers(1, 20)) * 5 / 100
        due = today(probe) + dt.timedelta(days=int(rng.integers(3, 25)))
        return {"name": c["display_name"], "number": c["number"], "bill": bill,
                "total": dollars(round(half * 2, 2)), "due": due.isoformat()}

    def setup(self, device: Device) -> None:
        p = self.params
        due = dt.date.fromisoformat(p["due"])
        device.insert("sms", {
            "address": p["number"],
            "body": f"The {p['bill'].lower()} bill is ${p['total']} this month, due "
                    f"{day_words(due)}. Can you pay me your half?",
            "date": now_ms(device.probe, 42), "type": 1, "read": 1})

    def _start(self) -> dt.datetime:
        return dt.datetime.combine(dt.date.fromisoformat(self.params["due"]), dt.time(9, 0))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        half = round(float(p["total"].replace(",", "")) / 2, 2)
        ref = _new_ref(self, device)
        s = self._start()
        return self.expect(
            *sent_checks(self, p["name"], half, p["bill"], CHECKING, p["number"]),
            added("calendar", {"title": same_text(f"{p['bill']} due"), "dtstart": epoch_ms(s),
                               "dtend": epoch_ms(s + dt.timedelta(minutes=30))}),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": states(ref)}))

    def _run(self, device: Device, shift: int, alt: bool = False) -> Iterator[Action]:
        p = self.params
        yield from (thread_from_contacts if alt else open_thread)(device, p["name"])
        text = last_received(device)
        if p["bill"].lower() not in text:
            raise OracleError("the bill's text is not the newest")
        half = round(_amount_in(text) / 2, 2)
        yield from _pay_and_read_ref(device, p["name"], half, p["bill"])
        ref = _ref_on_screen(device)
        yield tap(device, rid="done_button")
        s = self._start() + dt.timedelta(days=shift)
        yield from create_event(device, f"{p['bill']} due", s.date(), s.time(),
                                (s + dt.timedelta(minutes=30)).time())
        yield from (thread_from_contacts if alt else open_thread)(device, p["name"])
        yield from type_and_send(device, f"Paid my half, reference {ref}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the conversation (to read the bill, then to reply) from their Text button in
        Contacts."""
        yield from self._run(device, 0, alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the event a day late."""
        yield from self._run(device, 1)
        yield Action("status", goal_status="complete")
