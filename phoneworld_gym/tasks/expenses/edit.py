"""Expenses tasks that change something: log an expense on a given day, correct an entry's
amount, delete an entry, set a month's budget, and a recurring expense the app cannot make
(infeasible)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.expenses.common import (
    CATEGORIES,
    NEW_NOTES,
    about,
    add_entry,
    cents,
    day_words,
    month_label,
    next_month,
    open_entry,
    open_entry_by_category,
    this_month,
    to_tab,
    unique_entries,
)
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.validators import added, changed, removed, same_text


@register_task
class ExpensesLog(Task):
    """Log an expense on an earlier day (2 to 12 days ago): exactly one entry with that
    amount, category, note and date is added."""

    id = "ExpensesLog"
    apps = ("expenses",)
    difficulty = "medium"
    tags = ("form", "date-picker", "bottom-sheet")
    optimal_steps = 11
    may_change = ("expenses/entries",)
    params_schema = {"amount": str, "category": str, "note": str, "date": str, "day": str}
    template = 'Log a ${amount} {category} expense "{note}" on {day} in Expenses.'
    paraphrases = {
        "train": ('I spent ${amount} on {day}: "{note}", category {category}. Record it.',
                  'Add an expense: "{note}", ${amount}, {category}, dated {day}.'),
        "test": ('Back on {day} I paid ${amount} for "{note}". Put that in my expense '
                 "tracker under {category}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = today(probe) - dt.timedelta(days=int(rng.integers(2, 13)))
        taken = {r["note"].lower() for r in probe.query("expenses/entries")}
        return {"amount": cents(rng, 5, 150), "category": choice(rng, list(CATEGORIES)),
                "note": choice(rng, [n for n in NEW_NOTES if n.lower() not in taken]),
                "date": d.isoformat(), "day": day_words(d)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("expenses/entries", {
            "amount": about(float(p["amount"])), "category": p["category"],
            "note": same_text(p["note"]), "date": p["date"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from add_entry(device, p["amount"], p["category"], p["note"],
                             dt.date.fromisoformat(p["date"]))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right expense a day late."""
        p = self.params
        yield from add_entry(device, p["amount"], p["category"], p["note"],
                             dt.date.fromisoformat(p["date"]) + dt.timedelta(days=1))
        yield Action("status", goal_status="complete")


def _entry_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    r = choice(rng, unique_entries(probe, this_month(today(probe))))
    d = dt.date.fromisoformat(r["date"])
    return {"note": r["note"], "date": r["date"], "day": day_words(d), "id": int(r["_id"])}


@register_task
class ExpensesFixAmount(Task):
    """Correct an entry's amount: only that entry's ``amount`` changes."""

    id = "ExpensesFixAmount"
    apps = ("expenses",)
    difficulty = "easy"
    tags = ("form",)
    optimal_steps = 7
    may_change = ("expenses/entries",)
    params_schema = {"note": str, "date": str, "day": str, "id": int, "amount": str}
    template = 'The "{note}" expense on {day} was actually ${amount}. Fix it in Expenses.'
    paraphrases = {
        "train": ('Change the amount of my "{note}" expense from {day} to ${amount}.',),
        "test": ('I mistyped what "{note}" cost on {day}; the receipt says ${amount}. Update '
                 "the entry.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {**_entry_params(rng, probe), "amount": cents(rng, 5, 200)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("expenses/entries", self.params["id"],
                                   amount=about(float(self.params["amount"]))))

    def _fix(self, device: Device, amount: str, by_category: bool = False) -> Iterator[Action]:
        p = self.params
        yield from (open_entry_by_category if by_category else open_entry)(
            device, p["note"], dt.date.fromisoformat(p["date"]))
        yield type_into(device, amount, rid="amount")
        yield tap(device, text="Save", rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fix(device, self.params["amount"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the entry from its category on the Summary tab instead of the Entries list."""
        yield from self._fix(device, self.params["amount"], by_category=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Ten dollars off."""
        yield from self._fix(device, f"{float(self.params['amount']) + 10:.2f}")
        yield Action("status", goal_status="complete")


@register_task
class ExpensesDelete(Task):
    """Delete an entry (the editor's Delete, confirmed): exactly that row goes."""

    id = "ExpensesDelete"
    apps = ("expenses",)
    difficulty = "easy"
    tags = ("dialog",)
    optimal_steps = 6
    may_change = ("expenses/entries",)
    params_schema = {"note": str, "date": str, "day": str, "id": int}
    template = 'Delete the "{note}" expense from {day}.'
    paraphrases = {
        "train": ('Remove my {day} entry "{note}" from Expenses.',),
        "test": ('"{note}" on {day} was refunded, so it should not be in my expenses any more.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return _entry_params(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("expenses/entries", self.params["id"]))

    def _delete(self, device: Device, note: str, date: str,
                by_category: bool = False) -> Iterator[Action]:
        yield from (open_entry_by_category if by_category else open_entry)(
            device, note, dt.date.fromisoformat(date))
        yield tap(device, desc="Delete expense")
        yield tap(device, text="Delete", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["note"], self.params["date"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the entry from its category on the Summary tab instead of the Entries list."""
        yield from self._delete(device, self.params["note"], self.params["date"],
                                by_category=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes another entry of the month."""
        month = this_month(self.start_day())
        r = next(r for r in unique_entries(device.probe, month) if r["_id"] != self.params["id"])
        yield from self._delete(device, r["note"], r["date"])
        yield Action("status", goal_status="complete")


@register_task
class ExpensesSetBudget(Task):
    """Set a month's budget: its ``expenses/budgets`` row is added (or changed) to that
    amount."""

    id = "ExpensesSetBudget"
    apps = ("expenses",)
    difficulty = "easy"
    tags = ("dialog", "form")
    split = "test"
    optimal_steps = 6
    may_change = ("expenses/budgets",)
    # amount as text, like the other Expenses templates' (vector envs merge infos by key)
    params_schema = {"month": str, "label": str, "amount": str}
    template = "Set my {label} budget to ${amount} in Expenses."
    paraphrases = {
        "test": ("I want to spend at most ${amount} in {label}. Make that the month's budget.",
                 "Budget for {label}: ${amount}.",
                 "Make my monthly budget for {label} ${amount} in Expenses."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        now = this_month(today(probe))
        month = choice(rng, [now, next_month(now)])
        have = {r["month"]: float(r["amount"]) for r in probe.query("expenses/budgets")}
        amount = choice(rng, [a for a in range(800, 3050, 50) if a != have.get(month)])
        return {"month": month, "label": month_label(month), "amount": str(amount)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        row = next((r for r in self.before("expenses/budgets") if r["month"] == p["month"]),
                   None)
        if row is not None:
            return self.expect(changed("expenses/budgets", row["_id"],
                                       amount=about(float(p["amount"]))))
        return self.expect(added("expenses/budgets", {"month": p["month"],
                                                      "amount": about(float(p["amount"]))}))

    def _set(self, device: Device, label: str) -> Iterator[Action]:
        yield from to_tab(device, "Budgets")
        yield tap(device, desc=f"Budget for {label}")
        yield type_into(device, str(self.params["amount"]), rid="budget_input")
        yield tap(device, text="Save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, self.params["label"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sets it for the other month."""
        now = this_month(self.start_day())
        other = next_month(now) if self.params["month"] == now else now
        yield from self._set(device, month_label(other))
        yield Action("status", goal_status="complete")


@register_task
class ExpensesRecurring(Task):
    """Infeasible by design: the app has no recurring expenses (an entry has one date and
    no repeat option); the right end is ``status: infeasible`` with nothing changed."""

    id = "ExpensesRecurring"
    apps = ("expenses",)
    difficulty = "medium"
    tags = ("infeasible",)
    feasible = False
    optimal_steps = 3
    params_schema = {"amount": str, "category": str}
    template = "Set up a ${amount} {category} expense that repeats automatically every month."
    paraphrases = {
        "train": ("Make Expenses log ${amount} under {category} on its own each month.",),
        "test": ("Create a monthly recurring {category} entry of ${amount} in my expense "
                 "tracker.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"amount": cents(rng, 10, 300), "category": choice(rng, list(CATEGORIES))}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_tab(device, "Entries")
        yield tap(device, desc="Add expense")  # amount, category, note, date: no repeat
        yield Action("status", goal_status="infeasible")
