"""Long-horizon tasks around Recipes and Expenses, three apps each, the information carried
from one app to the next:

- a friend's potluck invitation by SMS (the dish, the number of guests, the day and time)
  becomes a saved recipe whose ingredients for everyone go on the shopping list, an event in
  Calendar and a reply;
- a roommate's SMS about shared groceries (the bill, the day, when to pay back) becomes an
  expense for the owner's half, a to-do to pay them back by that day and a reply.

Recipes', Expenses' and Tasks' tables are their own, so these run in PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, scroll_to, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import create_event, epoch_ms
from phoneworld_gym.tasks.expenses.common import about, add_entry, day_words
from phoneworld_gym.tasks.kit import choice, now_ms, pick_date, today
from phoneworld_gym.tasks.messages.common import (
    INBOX,
    SENT,
    last_received,
    open_thread,
    texters,
    type_and_send,
)
from phoneworld_gym.tasks.recipes.common import (
    browse_to_recipe,
    by_id,
    list_rows,
    open_recipe,
    recipes,
    set_servings,
)
from phoneworld_gym.tasks.todo.common import my_tasks, open_list
from phoneworld_gym.validators import added, same_phone, same_text

#: how many minutes before the episode's start the texts arrive
TEXTED_AGO = 18


def _clock(hour: int) -> str:
    return f"{hour % 12 or 12} {'PM' if hour >= 12 else 'AM'}"


_POTLUCK = re.compile(r"on (\w+, \w+ \d+) at (\d{1,2} [AP]M)! Could you bring (.+)\? "
                      r"We'll be (\d+) people")
_GROCERIES = re.compile(r"run on (\w+, \w+ \d+), \$([\d,]+\.\d\d) in total\. Your half is "
                        r"\$([\d,]+\.\d\d), could you pay me back by (\w+, \w+ \d+)\?")


def _day(words: str, near: dt.date) -> dt.date:
    """"Saturday, March 21" as a date: the one of that weekday nearest ``near`` (the year
    is not written, and the day may be in the next or the last year)."""
    days = []
    for year in (near.year - 1, near.year, near.year + 1):
        try:
            d = dt.datetime.strptime(f"{words} {year}", "%A, %B %d %Y").date()
        except ValueError:  # February 29 of a year without it
            continue
        if d.strftime("%A") == words.split(",")[0]:
            days.append(d)
    if not days:
        raise OracleError(f"no day {words!r} near {near}")
    return min(days, key=lambda d: abs((d - near).days))


@register_task
class LongHorizonPotluck(Task):
    """Long-horizon, three apps (Messages, Recipes, Calendar): a friend texts a potluck
    invitation naming the dish to bring, the number of guests, the day and the time. Save the
    recipe, put its ingredients for that many servings on the shopping list, add "Potluck at
    <first name>'s" to Calendar (three hours from the time), and reply "Count me in".
    Exactly: one favourite, the scaled ingredient rows, one event and one sent text."""

    id = "LongHorizonPotluck"
    apps = ("messages", "recipes", "calendar")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "stepper", "date-picker", "multi-app")
    optimal_steps = 26
    max_steps = 70
    may_change = ("recipes/favorites", "recipes/shopping_list", "calendar", "sms")
    params_schema = {"name": str, "first": str, "number": str, "recipe": str, "id": int,
                     "guests": int, "date": str, "hour": int}
    template = ("{name} texted me about a potluck. Save the dish they want me to bring in "
                "Recipes and put its ingredients for everyone coming on my shopping list, add "
                "\"Potluck at {first}'s\" to my calendar at that day and time for 3 hours, "
                'then text {first} "Count me in".')
    paraphrases = {
        "train": ("Sort out {name}'s potluck invitation from my messages: favourite the recipe "
                  "they asked for, shop its ingredients scaled to the number of guests, put "
                  "\"Potluck at {first}'s\" (3 hours) in Calendar and reply \"Count me in\".",),
        "test": ("Read the potluck text from {name}. I'll cook what they asked: keep that "
                 "recipe in my saved ones, list its ingredients for all the guests, block 3 "
                 "hours in Calendar called \"Potluck at {first}'s\" and reply \"Count me "
                 'in".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe, unread=False))
        saved = {int(r["_id"]) for r in probe.query("recipes/favorites")}
        listed = {int(r["recipe_id"]) for r in probe.query("recipes/shopping_list")}
        r = choice(rng, [r for r in recipes(probe)
                         if int(r["_id"]) not in saved | listed])
        day = today(probe) + dt.timedelta(days=int(rng.integers(3, 15)))
        return {"name": str(c["display_name"]), "first": str(c["display_name"]).split()[0],
                "number": str(c["number"]), "recipe": r["name"], "id": int(r["_id"]),
                "guests": int(r["servings"]) + int(rng.integers(2, 4)),
                "date": day.isoformat(), "hour": int(rng.integers(17, 21))}

    def setup(self, device: Device) -> None:
        p = self.params
        day = dt.date.fromisoformat(p["date"])
        device.insert("sms", {
            "address": p["number"], "type": INBOX, "read": 1,
            "date": now_ms(device.probe, TEXTED_AGO),
            "body": f"Potluck at my place on {day_words(day)} at {_clock(p['hour'])}! Could "
                    f"you bring {p['recipe']}? We'll be {p['guests']} people."})

    def _start(self) -> dt.datetime:
        return dt.datetime.combine(dt.date.fromisoformat(self.params["date"]),
                                   dt.time(self.params["hour"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        r = by_id(self.before("recipes/recipes"))[p["id"]]
        s = self._start()
        return self.expect(
            added("recipes/favorites", {"_id": p["id"]}),
            added("recipes/shopping_list", *list_rows(r, p["guests"])),
            added("calendar", {"title": same_text(f"Potluck at {p['first']}'s"),
                               "dtstart": epoch_ms(s),
                               "dtend": epoch_ms(s + dt.timedelta(hours=3))}),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": same_text("Count me in")}))

    def _run(self, device: Device, servings: int | None,
             browse: bool = False) -> Iterator[Action]:
        """The whole errand, with the dish, guests, day and hour read off the invitation
        (``servings`` overrides the number of guests; ``browse`` finds the recipe by its
        cuisine chip)."""
        p = self.params
        yield from open_thread(device, p["name"])
        m = _POTLUCK.search(last_received(device))
        if m is None:
            raise OracleError("the invitation is not the newest text")
        day, hour, recipe, guests = m.group(1), m.group(2), m.group(3), int(m.group(4))
        yield from (browse_to_recipe if browse else open_recipe)(device, recipe)
        yield tap(device, desc="Save to favourites")
        yield from set_servings(device, guests if servings is None else servings)
        yield from scroll_to(device, rid="add_to_list")
        yield tap(device, rid="add_to_list")
        s = dt.datetime.combine(_day(day, self.start_day()),
                                dt.datetime.strptime(hour, "%I %p").time())
        yield from create_event(device, f"Potluck at {p['first']}'s", s.date(), s.time(),
                                (s + dt.timedelta(hours=3)).time())
        yield from open_thread(device, p["name"])
        yield from type_and_send(device, "Count me in")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, None)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipe through its cuisine chip on Discover instead of searching."""
        yield from self._run(device, None, browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the ingredients for the recipe's own servings."""
        r = by_id(recipes(device.probe))[self.params["id"]]
        yield from self._run(device, int(r["servings"]))
        yield Action("status", goal_status="complete")


@register_task
class LongHorizonGroceryHalf(Task):
    """Long-horizon, three apps (Messages, Expenses, Tasks): a roommate texts that they paid
    for shared groceries on a day and asks to be paid back by another. Log the owner's half as
    a Groceries expense on the shopping day, add a high-priority to-do "Pay <first> back" due
    that day, and reply "Logged it, thanks!". Exactly: one entry, one task and one sent
    text."""

    id = "LongHorizonGroceryHalf"
    apps = ("messages", "expenses", "todo")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "bottom-sheet", "multi-app")
    split = "test"
    optimal_steps = 26
    max_steps = 70
    may_change = ("expenses/entries", "todo/tasks", "sms")
    params_schema = {"name": str, "first": str, "number": str, "total": str, "half": str,
                     "date": str, "due": str, "list_id": int}
    template = ("{name} texted me about the groceries we split. Log my half in Expenses as "
                'Groceries on the day they shopped, with the note "Groceries with {first}", add '
                'a high-priority to-do "Pay {first} back" due when they asked, then reply '
                '"Logged it, thanks!".')
    paraphrases = {
        "test": ("Deal with {name}'s grocery text: my half goes into Expenses (Groceries, "
                 'note "Groceries with {first}", dated the shopping day), a to-do "Pay '
                 '{first} back" with high priority due on the day they want the money, and '
                 'reply "Logged it, thanks!".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe, unread=False))
        half = int(rng.integers(18, 90)) + int(rng.integers(0, 100)) / 100
        shop = today(probe) - dt.timedelta(days=int(rng.integers(2, 9)))
        due = today(probe) + dt.timedelta(days=int(rng.integers(2, 10)))
        return {"name": str(c["display_name"]), "first": str(c["display_name"]).split()[0],
                "number": str(c["number"]), "total": f"{2 * half:.2f}", "half": f"{half:.2f}",
                "date": shop.isoformat(), "due": due.isoformat(), "list_id": my_tasks(probe)}

    def setup(self, device: Device) -> None:
        p = self.params
        shop, due = dt.date.fromisoformat(p["date"]), dt.date.fromisoformat(p["due"])
        device.insert("sms", {
            "address": p["number"], "type": INBOX, "read": 1,
            "date": now_ms(device.probe, TEXTED_AGO),
            "body": f"I did our grocery run on {day_words(shop)}, ${p['total']} in total. Your "
                    f"half is ${p['half']}, could you pay me back by {day_words(due)}?"})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("expenses/entries", {"amount": about(float(p["half"])),
                                       "category": "Groceries",
                                       "note": same_text(f"Groceries with {p['first']}"),
                                       "date": p["date"]}),
            added("todo/tasks", {"title": same_text(f"Pay {p['first']} back"),
                                 "list_id": p["list_id"], "due": p["due"], "priority": 3,
                                 "done": 0}),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": same_text("Logged it, thanks!")}))

    def _run(self, device: Device, whole: bool) -> Iterator[Action]:
        """The whole errand, with the day, the amounts and the due day read off the text
        (``whole`` logs the total instead of the half)."""
        p = self.params
        yield from open_thread(device, p["name"])
        m = _GROCERIES.search(last_received(device))
        if m is None:
            raise OracleError("the grocery text is not the newest")
        shop, total, half, due = m.group(1), m.group(2), m.group(3), m.group(4)
        yield from add_entry(device, (total if whole else half).replace(",", ""), "Groceries",
                             f"Groceries with {p['first']}", _day(shop, self.start_day()))
        yield from open_list(device, "My Tasks")
        yield tap(device, desc="Create new task")
        yield type_into(device, f"Pay {p['first']} back", rid="task_title_edit")
        yield from pick_date(device, _day(due, self.start_day()), "due_date")
        yield tap(device, text="High", rid="priority_option")
        yield tap(device, text="Save", rid="save")
        yield from open_thread(device, p["name"])
        yield from type_and_send(device, "Logged it, thanks!")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the whole bill logged instead of the half."""
        yield from self._run(device, True)
        yield Action("status", goal_status="complete")
