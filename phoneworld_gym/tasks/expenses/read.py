"""Expenses information-retrieval tasks: a category's total in a month (the summary) and
what was spent on one day (the day's heading in the list). The answers come from the start
state's ``expenses/entries`` rows; reading changes nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.expenses.common import (
    day_label,
    day_words,
    month_label,
    this_month,
    to_month,
    to_tab,
)
from phoneworld_gym.tasks.kit import choice, today


def _spent(rows: list[dict[str, Any]], *, month: str = "", category: str = "",
           date: str = "") -> float:
    return round(sum(float(r["amount"]) for r in rows
                     if (not month or r["date"][:7] == month)
                     and (not category or r["category"] == category)
                     and (not date or r["date"] == date)), 2)


@register_task
class ExpensesCategoryTotal(Task):
    """How much was spent on a category in a month (this one or the two before it): the sum of
    its entries, to the cent."""

    id = "ExpensesCategoryTotal"
    apps = ("expenses",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("summary",)
    optimal_steps = 5
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"category": str, "month": str, "label": str}
    template = "How much did I spend on {category} in {label}?"
    paraphrases = {
        "train": ("What was my {category} total for {label} in Expenses?",),
        "test": ("Add up my {category} spending for {label} using the expense app and tell "
                 "me the figure.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = probe.query("expenses/entries")
        pairs = sorted({(r["date"][:7], r["category"]) for r in rows
                        if r["date"][:7] <= this_month(today(probe))})
        month, cat = choice(rng, pairs)
        return {"category": cat, "month": month, "label": month_label(month)}

    def expected_answer(self, device: Device) -> Any:
        return _spent(self.before("expenses/entries"), month=self.params["month"],
                      category=self.params["category"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_tab(device, "Summary")
        yield from to_month(device, self.params["month"])
        for _ in range(4):
            for e in elements(device):
                d = e.content_description or ""
                if (e.resource_id or "").endswith("/summary_row") and \
                        d.startswith(self.params["category"] + ", "):
                    yield Action("answer", text=d.split(", ")[1])
                    return
            yield Action("scroll", direction="down")
        raise OracleError(f"{self.params['category']} is not in the summary")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the category from the summary and read the total on its own page."""
        yield from to_tab(device, "Summary")
        yield from to_month(device, self.params["month"])
        row = f"{self.params['category']}, "
        yield from scroll_to(device, desc=row, rid="summary_row", contains=True)
        yield tap(device, desc=row, rid="summary_row", contains=True)
        yield Action("answer", text=text_of(device, rid="category_total") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The whole month's spending instead of the category's."""
        yield Action("answer", text=f"${_spent(self.before('expenses/entries'), month=self.params['month']):,.2f}")  # noqa: E501


@register_task
class ExpensesDayTotal(Task):
    """How much was spent on one day of this month (every entry of that day together).
    Fewer goals: only the days of this month up to today that have expenses (at most 14 at
    the default clock, the 14th)."""

    id = "ExpensesDayTotal"
    apps = ("expenses",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("scroll",)
    split = "test"
    optimal_steps = 3
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"date": str, "day": str}
    template = "How much did I spend altogether on {day}?"
    paraphrases = {
        "test": ("Check my expenses: what did {day} cost me in total?",
                 "Tell me the sum of everything I logged on {day}."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        month = this_month(today(probe))
        dates = sorted({r["date"] for r in probe.query("expenses/entries")
                        if r["date"][:7] == month})
        d = choice(rng, dates)
        return {"date": d, "day": day_words(dt.date.fromisoformat(d))}

    def expected_answer(self, device: Device) -> Any:
        return _spent(self.before("expenses/entries"), date=self.params["date"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_tab(device, "Entries")
        yield from to_month(device, self.params["date"][:7])
        label = day_label(dt.date.fromisoformat(self.params["date"]))
        for _ in range(12):
            els = elements(device)
            for i, e in enumerate(els):
                if (e.resource_id or "").endswith("/day_header") and e.text == label \
                        and i + 1 < len(els) and (els[i + 1].text or "").startswith("$"):
                    yield Action("answer", text=str(els[i + 1].text))
                    return
            yield Action("scroll", direction="down")
        raise OracleError(f"no heading for {label}")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another day's total (the nearest earlier day with a different one)."""
        rows = self.before("expenses/entries")
        want = _spent(rows, date=self.params["date"])
        days = sorted({r["date"] for r in rows if r["date"] < self.params["date"]},
                      reverse=True)
        other = next(v for v in (_spent(rows, date=d) for d in days) if abs(v - want) > 0.01)
        yield Action("answer", text=f"${other:,.2f}")
