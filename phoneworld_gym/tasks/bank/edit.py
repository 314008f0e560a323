"""Bank tasks that move money or change a card: send money to a contact, move money into
savings, pay the credit card in full, freeze a card. Each states the whole difference: the
transactions added, the balances changed (to the cent), a payee added for someone new."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.bank.common import (
    CHECKING,
    CREDIT,
    MEMOS,
    SAVINGS,
    by_id,
    confirm,
    contacts_to_pay,
    daily_left,
    dollars,
    fill_amount,
    money_on_screen,
    send_money,
    to_home,
    transfer,
)
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.validators import Check, expect, same_text


def near(v: float) -> Callable[[Any], bool]:
    """Equal to ``v`` dollars to the cent."""
    return lambda x: isinstance(x, (int, float)) and abs(float(x) - v) < 0.005


def balance_change(before: list[Row], aid: int, delta: float) -> dict[str, Any]:
    """The columns of account ``aid`` after ``delta`` dollars reach it (a credit card's
    balance is what is owed: a payment lowers it and raises what is available)."""
    a = by_id(before)[aid]
    bal = float(a["balance"]) + delta
    avail = float(a["available"]) + (-delta if a["kind"] == "credit" else delta)
    return {"balance": near(round(bal, 2)), "available": near(round(avail, 2))}


def sent_checks(task: Task, name: str, amount: float, memo: str, account: int,
                phone: str) -> list[Check]:
    """One payment of ``amount`` to ``name`` from ``account`` today (the day the episode
    started), that account's balance down by it, and ``name`` added as a payee when they were
    not one."""
    txn: dict[str, Any] = {"kind": "sent", "counterparty": name, "amount": near(-amount),
                           "account_id": account, "date": task.start_day().isoformat()}
    if memo:
        txn["memo"] = same_text(memo)
    checks = [expect("bank/transactions", added=[txn]),
              expect("bank/accounts", changed={account: balance_change(
                  task.before("bank/accounts"), account, -amount)})]
    if not any(p["name"] == name for p in task.before("bank/payees")):
        checks.append(expect("bank/payees", added=[{"name": name, "phone": phone}]))
    return checks


@register_task
class BankSendMoney(Task):
    """Send a contact an amount with a memo: one payment from checking is recorded, the
    balance drops by it, and a first-time recipient becomes a payee."""

    id = "BankSendMoney"
    apps = ("bank",)
    difficulty = "medium"
    tags = ("form", "search", "confirm")
    optimal_steps = 11
    may_change = ("bank/transactions", "bank/accounts", "bank/payees")
    params_schema = {"name": str, "phone": str, "amount": str, "memo": str}
    template = 'Send ${amount} to {name} from my checking account with the memo "{memo}".'
    constraints = ("checking",)
    paraphrases = {
        "train": ('Pay {name} ${amount} for "{memo}" out of checking.',
                  'Transfer ${amount} to {name} from checking in my bank app; note: "{memo}".'),
        "test": ('I owe {name} ${amount}. Use the bank app to pay them from checking and put '
                 '"{memo}" as the note.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, contacts_to_pay(probe))
        have = float(by_id(probe.query("bank/accounts"))[CHECKING]["balance"])
        left = min(daily_left(probe, today(probe)), have)
        amount = min(int(rng.integers(5, 250)) + float(rng.choice([0, 0, 0.5, 0.25])),
                     left - 1)
        return {"name": c["display_name"], "phone": c["number"], "amount": dollars(amount),
                "memo": MEMOS[int(rng.integers(len(MEMOS)))]}

    def _amount(self) -> float:
        return float(self.params["amount"].replace(",", ""))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(*sent_checks(self, p["name"], self._amount(), p["memo"], CHECKING,
                                        p["phone"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from send_money(device, p["name"], p["amount"], p["memo"], "Everyday Checking")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Start from the Pay tab's "Send money" instead of Home's quick action."""
        p = self.params
        yield from send_money(device, p["name"], p["amount"], p["memo"], "Everyday Checking",
                              via_pay=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right person and memo, a dollar too much."""
        p = self.params
        yield from send_money(device, p["name"], dollars(self._amount() + 1), p["memo"],
                              "Everyday Checking")
        yield Action("status", goal_status="complete")


@register_task
class BankMoveToSavings(Task):
    """Move an amount from checking into savings: both balances change by it and each account
    records its side of the transfer."""

    id = "BankMoveToSavings"
    apps = ("bank",)
    difficulty = "medium"
    tags = ("form", "chips", "confirm")
    optimal_steps = 9
    may_change = ("bank/transactions", "bank/accounts")
    params_schema = {"amount": str}
    template = "Move ${amount} from checking into my savings account."
    constraints = ("checking", "savings")
    paraphrases = {
        "train": ("Transfer ${amount} from Everyday Checking to High-Yield Savings.",
                  "Put ${amount} of my checking money into savings."),
        "test": ("I want ${amount} more in savings; take it out of checking.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        have = float(by_id(probe.query("bank/accounts"))[CHECKING]["balance"])
        amount = min(int(rng.integers(2, 60)) * 25, int(have) - 1)
        return {"amount": dollars(amount)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        v = float(self.params["amount"].replace(",", ""))
        accts = self.before("bank/accounts")
        day = self.start_day().isoformat()
        return self.expect(
            expect("bank/accounts", changed={CHECKING: balance_change(accts, CHECKING, -v),
                                             SAVINGS: balance_change(accts, SAVINGS, v)}),
            expect("bank/transactions", added=[
                {"account_id": CHECKING, "amount": near(-v), "kind": "transfer", "date": day},
                {"account_id": SAVINGS, "amount": near(v), "kind": "transfer", "date": day}]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from transfer(device, "Everyday Checking", "High-Yield Savings",
                            self.params["amount"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Start from the checking account's own page and its Transfer button."""
        yield from transfer(device, "Everyday Checking", "High-Yield Savings",
                            self.params["amount"], from_account=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right amount the wrong way: from savings into checking."""
        yield from transfer(device, "High-Yield Savings", "Everyday Checking",
                            self.params["amount"])
        yield Action("status", goal_status="complete")


@register_task
class BankPayCardInFull(Task):
    """Pay the credit card's whole balance from checking or savings: the card owes nothing
    afterwards, that account is down by what it owed, and both sides are recorded. The amount
    is only on the screen (the card's balance).

    Fewer goals: the phone has one credit card, which the goal names, and two accounts to pay
    from; what it owes (the amount to pay) varies with the seed."""

    id = "BankPayCardInFull"
    apps = ("bank",)
    difficulty = "hard"
    tags = ("read-then-write", "form", "confirm")
    optimal_steps = 9
    may_change = ("bank/transactions", "bank/accounts")
    params_schema = {"card": str, "source": str, "source_id": int}
    template = "Pay off the full balance of my {card} credit card from my {source} account."
    paraphrases = {
        "train": ("Clear what I owe on the {card} card, paying from {source}.",
                  "Pay my whole {card} statement balance out of {source}."),
        "test": ("My {card} card should owe nothing. Make a payment from {source} that brings "
                 "it to zero.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        accts = by_id(probe.query("bank/accounts"))
        owed = float(accts[CREDIT]["balance"])
        # an account that holds enough to pay it all
        src = choice(rng, [i for i in (CHECKING, SAVINGS) if float(accts[i]["balance"]) >= owed])
        return {"card": str(accts[CREDIT]["name"]), "source": str(accts[src]["kind"]),
                "source_id": src}

    def _owed(self) -> float:
        return float(by_id(self.before("bank/accounts"))[CREDIT]["balance"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        v = self._owed()
        src = self.params["source_id"]
        accts = self.before("bank/accounts")
        return self.expect(
            expect("bank/accounts", changed={src: balance_change(accts, src, -v),
                                             CREDIT: balance_change(accts, CREDIT, -v)}),
            expect("bank/transactions", added=[
                {"account_id": src, "amount": near(-v), "kind": "payment"},
                {"account_id": CREDIT, "amount": near(v), "kind": "payment"}]))

    def _pay(self, device: Device, less: float, via_pay: bool = False) -> Iterator[Action]:
        src = str(by_id(device.probe.query("bank/accounts"))[self.params["source_id"]]["name"])
        yield from to_home(device)
        yield tap(device, desc=self.params["card"], rid="account_card", contains=True)
        owed = money_on_screen(text_of(device, rid="account_balance"))
        if via_pay:  # back to Home, then the Pay tab's "Pay credit card"
            yield Action("navigate_back")
            yield tap(device, desc="Pay", rid="nav_pay")
            yield tap(device, desc="Pay credit card", rid="pay_credit_card")
        else:
            yield tap(device, rid="pay_card")
        yield from fill_amount(device, dollars(owed - less), account=src)
        yield from confirm(device)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._pay(device, 0)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Read what is owed on the card's page, then pay from the Pay tab's "Pay credit
        card" instead of the card page's button."""
        yield from self._pay(device, 0, via_pay=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Pays a dollar short from the right account."""
        yield from self._pay(device, 1)
        yield Action("status", goal_status="complete")


@register_task
class BankFreezeCard(Task):
    """Freeze one card with its switch: only that card's ``frozen`` becomes 1."""

    id = "BankFreezeCard"
    apps = ("bank",)
    difficulty = "easy"
    tags = ("switch",)
    optimal_steps = 5
    may_change = ("bank/cards",)
    params_schema = {"card": str, "last4": str, "id": int}
    template = "Freeze my {card} ending in {last4}."
    paraphrases = {
        "train": ("Temporarily block the {card} that ends with {last4}.",
                  "Lock my {card} (the one ending {last4}) so no one can use it."),
        "test": ("I can't find my {card} ending {last4}. Freeze it in the bank app for now.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, [c for c in probe.query("bank/cards") if not c["frozen"]])
        return {"card": str(c["name"]).lower().replace("rewards visa card", "Rewards Visa card"),
                "last4": c["last4"], "id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(expect("bank/cards", changed={self.params["id"]: {"frozen": 1}}))

    def _freeze(self, device: Device, last4: str) -> Iterator[Action]:
        yield from to_home(device)
        yield tap(device, desc="Cards", rid="nav_cards")
        yield from scroll_to(device, desc=f"ending in {last4}", rid="card_face", contains=True)
        yield tap(device, desc=f"ending in {last4}", rid="card_face", contains=True)
        yield tap(device, text="Freeze card", rid="title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._freeze(device, self.params["last4"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Freezes another card that is not frozen yet."""
        other = next((c for c in self.before("bank/cards")
                      if c["_id"] != self.params["id"] and not c["frozen"]), None)
        if other is None:  # every other card is frozen: unfreeze one instead
            other = next(c for c in self.before("bank/cards") if c["_id"] != self.params["id"])
        yield from self._freeze(device, str(other["last4"]))
        yield Action("status", goal_status="complete")
