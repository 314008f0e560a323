"""Cross-app tasks that carry information into and out of the Recipes and Expenses apps.

- Recipes -> Notes (share sheet): a recipe's ingredient list for a number of servings
  becomes a note.
- Shopping -> Expenses: an order's total and the day it was placed become an expense.
- Chat's Split mini-program -> Expenses: the owner's share of a split becomes an expense.

All read or write PhoneWorld-only tables, so they run on PhoneWorld.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import open_mini
from phoneworld_gym.tasks.expenses.common import about, add_entry, this_month
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.recipes.common import (
    browse_to_recipe,
    by_id,
    open_recipe,
    other_servings,
    recipes,
    set_servings,
)
from phoneworld_gym.tasks.shopping.common import open_order
from phoneworld_gym.validators import added, same_text


def _lists(recipe: dict[str, Any], servings: int) -> Callable[[Any], bool]:
    """True for a note body that says the servings and names every ingredient."""
    items = [i["item"] for i in recipe["ingredients"]]

    def ok(v: Any) -> bool:
        text = str(v).lower()
        return f"{servings} serving" in text and all(i.lower() in text for i in items)

    return ok


@register_task
class CrossAppRecipeToNote(Task):
    """Share a recipe's ingredients for a number of servings into a new note (Recipes'
    Share, the share sheet, Notes): one note titled with the recipe whose text gives the
    servings and every ingredient is added."""

    id = "CrossAppRecipeToNote"
    apps = ("recipes", "notes")
    category = "cross-app"
    difficulty = "medium"
    tags = ("share-sheet", "stepper")
    optimal_steps = 11
    may_change = ("notes/notes",)
    params_schema = {"recipe": str, "id": int, "servings": int}
    template = ("Share the ingredient list of {recipe} for {servings} servings from Recipes "
                "into a new note.")
    constraints = ("share",)
    paraphrases = {
        "train": ("Share {recipe}'s ingredients, scaled to {servings} servings, from Recipes "
                  "as a note in Notes.",),
        "test": ("I'll shop from my notes: share what {recipe} needs for {servings} servings "
                 "there as a note.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, recipes(probe))
        return {"recipe": r["name"], "id": int(r["_id"]),
                "servings": other_servings(rng, int(r["servings"]))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        r = by_id(self.before("recipes/recipes"))[self.params["id"]]
        return self.expect(added("notes/notes", {"title": same_text(self.params["recipe"]),
                                                 "body": _lists(r, self.params["servings"])}))

    def _share(self, device: Device, servings: int, alt: bool = False) -> Iterator[Action]:
        # Notes first, so that Back from the shared note returns to its list: the share
        # sheet starts the note editor as Notes' only screen when Notes has none open
        yield Action("open_app", app_name="Notes")
        yield from (browse_to_recipe if alt else open_recipe)(device, self.params["recipe"])
        yield from set_servings(device, servings)
        yield tap(device, desc="Share ingredients")
        yield tap(device, text="Notes", rid="sharesheet_target")
        yield Action("navigate_back")  # close the new note: Notes keeps it

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._share(device, self.params["servings"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipe through its cuisine chip on Discover instead of searching."""
        yield from self._share(device, self.params["servings"], alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares it for the recipe's own servings."""
        r = by_id(recipes(device.probe))[self.params["id"]]
        yield from self._share(device, int(r["servings"]))
        yield Action("status", goal_status="complete")


def _placed(text: str) -> dt.date:
    """"Placed on <Month> <day>, <year>" -> that date."""
    try:
        return dt.datetime.strptime(text.removeprefix("Placed on "), "%B %d, %Y").date()
    except ValueError:
        raise OracleError(f"cannot read an order date from {text!r}") from None


@register_task
class CrossAppOrderToExpense(Task):
    """Log a Shopping order as an expense: one Shopping entry with the order's total, dated
    the day it was placed, noted with the order number, is added."""

    id = "CrossAppOrderToExpense"
    apps = ("shopping", "expenses")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker")
    optimal_steps = 15
    may_change = ("expenses/entries",)
    params_schema = {"order": str}
    template = ('Log my Shopping order {order} in Expenses: its total, category Shopping, '
                'note "Order {order}", dated the day I placed it.')
    paraphrases = {
        "train": ('Record what order {order} cost me as a Shopping expense on the day I '
                  'ordered it, with the note "Order {order}".',),
        "test": ('Find order {order} in the Shopping app and copy its total into my expense '
                 'tracker (Shopping, note "Order {order}", the order\'s date).',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        day = today(probe)
        orders = probe.query("shopping/orders")
        rows: list[Row] = []
        # this month's orders; early in a month, when it has none yet, last month's
        for month in (this_month(day), this_month(day.replace(day=1) - dt.timedelta(days=1))):
            rows = [r for r in orders if r["status"] != "Cancelled" and r["date"][:7] == month]
            if not rows:
                rows = [r for r in orders if r["date"][:7] == month]
            if rows:
                break
        return {"order": str(choice(rng, rows)["_id"])}

    def _order(self) -> dict[str, Any]:
        return next(r for r in self.before("shopping/orders") if r["_id"] == self.params["order"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        o = self._order()
        return self.expect(added("expenses/entries", {
            "amount": about(float(o["total"])), "category": "Shopping",
            "note": same_text(f"Order {self.params['order']}"), "date": o["date"][:10]}))

    def _log(self, device: Device, shift: int) -> Iterator[Action]:
        yield from open_order(device, self.params["order"])
        day = _placed(text_of(device, rid="order_date") or "")
        total = (text_of(device, rid="order_total") or "").replace("$", "").replace(",", "")
        if not total:
            raise OracleError("the order shows no total")
        yield from add_entry(device, total, "Shopping", f"Order {self.params['order']}",
                             day + dt.timedelta(days=shift))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._log(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Dated the day after it was placed."""
        yield from self._log(device, 1)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppSplitShareToExpense(Task):
    """Log the owner's share of the last split in Chat's Split mini-program as an expense
    dated today: one entry with that share (to the cent), the category and the split's title
    as its note is added.

    Fewer goals: Split starts with one past split (four titles); the category varies."""

    id = "CrossAppSplitShareToExpense"
    apps = ("chat", "splitbill", "expenses")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "mini-app")
    split = "test"
    optimal_steps = 11
    may_change = ("expenses/entries",)
    params_schema = {"title": str, "category": str}
    template = ('Log my share of the "{title}" split from Split (in Chat) as a {category} '
                'expense today, with the note "{title}".')
    constraints = ("today",)
    paraphrases = {
        "test": ('How much do I owe for "{title}" in the Split mini program? Record that '
                 'amount in Expenses under {category}, note "{title}", dated today.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        s = choice(rng, probe.query("splitbill/splits"))
        return {"title": s["title"], "category": choice(rng, ["Dining", "Groceries", "Other",
                                                              "Entertainment"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        s = next(r for r in self.before("splitbill/splits") if r["title"] == self.params["title"])
        return self.expect(added("expenses/entries", {
            "amount": about(float(s["each"])), "category": self.params["category"],
            "note": same_text(self.params["title"]),
            "date": self.start_day().isoformat()}))

    def _log(self, device: Device, key: str) -> Iterator[Action]:
        from phoneworld_gym.oracle import elements

        yield from open_mini(device, "Split")
        line = next((e.text or "" for e in elements(device)
                     if (e.text or "").startswith("$") and "each" in (e.text or "")), "")
        parts = [p.strip() for p in line.split("·")]
        if len(parts) != 3:
            raise OracleError(f"cannot read the split from {line!r}")
        amount = (parts[2] if key == "each" else parts[0]).split(" ")[0].lstrip("$")
        yield from add_entry(device, amount, self.params["category"], self.params["title"],
                             None)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._log(device, "each")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Logs the whole bill instead of the share."""
        yield from self._log(device, "total")
        yield Action("status", goal_status="complete")
