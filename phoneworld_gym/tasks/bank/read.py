"""Bank information-retrieval tasks: an account's balance, what was spent at a merchant in a
month, and the last amount sent to someone. The right answer comes from the start state's
rows (reading changes nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import OracleError, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.bank.common import (
    by_id,
    money_on_screen,
    past_months,
    search_activity,
    spent_at,
    to_home,
)
from phoneworld_gym.tasks.kit import choice, today


@register_task
class BankBalanceLookup(Task):
    """Read one account's balance (what is owed, for the credit card).

    Fewer goals: the phone has three accounts, so the goal names one of three; the answer
    varies with the seed."""

    id = "BankBalanceLookup"
    apps = ("bank",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("read",)
    optimal_steps = 3
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"account": str, "id": int}
    template = "What's the balance of my {account} account?"
    paraphrases = {
        "train": ("How much is in my {account} right now?",
                  "Check my bank app: what does {account} show as its balance?"),
        "test": ("Open my banking app and tell me the current balance on {account}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        a = choice(rng, probe.query("bank/accounts"))
        return {"account": a["name"], "id": int(a["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return float(by_id(self.before("bank/accounts"))[self.params["id"]]["balance"])

    def _read(self, device: Device, name: str) -> Iterator[Action]:
        yield from to_home(device)
        yield tap(device, desc=name, rid="account_card", contains=True)
        yield Action("answer", text=text_of(device, rid="account_balance") or "")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device, self.params["account"])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Reads another account's balance."""
        other = next(a for a in self.before("bank/accounts") if a["_id"] != self.params["id"])
        yield from self._read(device, str(other["name"]))


@register_task
class BankSpentAtMerchant(Task):
    """How much was spent at a merchant in one past month: the sum of that month's purchases
    there, read off Activity with the search and the date filter."""

    id = "BankSpentAtMerchant"
    apps = ("bank",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("search", "filter", "bottom-sheet")
    optimal_steps = 6
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"merchant": str, "month": str, "month_name": str}
    template = "How much did I spend at {merchant} in {month_name}?"
    paraphrases = {
        "train": ("What was my total at {merchant} during {month_name}?",
                  "Add up my {merchant} purchases for {month_name}. What's the total?"),
        "test": ("In {month_name}, how much money went to {merchant}? Check my bank "
                 "activity.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = probe.query("bank/transactions")
        months = past_months(today(probe))
        pairs = sorted({(str(t["merchant"]), str(t["date"])[:7]) for t in rows
                        if t["kind"] == "purchase" and str(t["date"])[:7] in months})
        # a merchant visited at least twice that month (a sum, not one row)
        pairs = [(m, mo) for m, mo in pairs
                 if sum(1 for t in rows if t["merchant"] == m and str(t["date"])[:7] == mo) > 1]
        merchant, month = choice(rng, pairs)
        return {"merchant": merchant, "month": month, "month_name": months[month]}

    def expected_answer(self, device: Device) -> Any:
        return spent_at(self.before("bank/transactions"), self.params["merchant"],
                        self.params["month"])

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from search_activity(device, p["merchant"], p["month_name"])
        yield Action("answer", text=text_of(device, rid="total_spent") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Reads the total of another month there (a dollar more when every month's total
        is the same)."""
        p = self.params
        rows = self.before("bank/transactions")
        want = self.expected_answer(device)
        months = past_months(self.start_day())
        other = next((m for m in months if spent_at(rows, p["merchant"], m) != want), None)
        if other is None:
            yield Action("answer", text=f"${want + 1:,.2f}")
            return
        yield from search_activity(device, p["merchant"], months[other])
        yield Action("answer", text=text_of(device, rid="total_spent") or "")


@register_task
class BankLastSentLookup(Task):
    """The amount of the most recent payment sent to a person."""

    id = "BankLastSentLookup"
    apps = ("bank",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("search",)
    split = "test"
    optimal_steps = 4
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"name": str}
    template = "How much did I send {name} the last time I paid them?"
    paraphrases = {
        "test": ("Look at my bank activity: what was my most recent payment to {name}?",
                 "The last money I sent to {name} - how much was it?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        names = sorted({str(t["counterparty"]) for t in probe.query("bank/transactions")
                        if t["kind"] == "sent"})
        return {"name": choice(rng, names)}

    def _sent(self) -> list[Any]:
        rows = [t for t in self.before("bank/transactions")
                if t["kind"] == "sent" and t["counterparty"] == self.params["name"]]
        return sorted(rows, key=lambda t: (t["date"], t["_id"]), reverse=True)

    def expected_answer(self, device: Device) -> Any:
        return -float(self._sent()[0]["amount"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search_activity(device, f"Sent to {self.params['name']}")
        amount = text_of(device, rid="txn_amount")
        if amount is None:
            raise OracleError("no payment to them listed")
        yield Action("answer", text=f"${money_on_screen(amount):,.2f}")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers the total ever sent to them (or, with one payment, a dollar more)."""
        total = -sum(float(t["amount"]) for t in self._sent())
        if len(self._sent()) == 1:
            total += 1
        yield Action("answer", text=f"${total:,.2f}")
