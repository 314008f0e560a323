"""Shared pieces of the Expenses tasks: the rows of ``expenses/entries`` (``_id``,
``amount``, ``category``, ``note``, ``date`` as an ISO date) and ``expenses/budgets``
(``_id``, ``month`` as "YYYY-MM", ``amount``), and the UI paths (the bottom tabs, the month
switcher, an entry's row, the editor with its category sheet and date picker).

A real phone's money app keeps its data private, so these tasks run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import (
    OracleError,
    elements,
    find,
    fully_visible,
    scroll_to,
    tap,
    text_of,
    type_into,
)
from phoneworld_gym.tasks.kit import day_words, open_root, pick_date, today  # noqa: F401 (day_words, clock: re-exported)

LABEL = "Expenses"
CATEGORIES: tuple[str, ...] = ("Groceries", "Dining", "Transport", "Shopping", "Bills",
                               "Entertainment", "Health", "Other")
#: notes a task asks to log (none is seeded)
NEW_NOTES: tuple[str, ...] = (
    "Farmers market flowers", "Bike repair", "Haircut", "Yoga class", "Car wash",
    "Museum tickets", "Dog food", "Birthday cake", "Paint supplies", "Printer paper",
    "Laundromat", "Parking meter", "Bakery", "Umbrella", "Board game", "Ferry ticket",
    "Sunscreen", "Ice cream", "Plant pots", "Cinema snacks", "Key copy", "Batteries",
)


def money(v: float) -> str:
    """"$1,234.50", as the app shows amounts."""
    return f"${v:,.2f}"


def cents(rng: np.random.Generator, lo: int, hi: int) -> str:
    """A random amount "23.45" between ``lo`` and ``hi`` dollars."""
    return f"{int(rng.integers(lo, hi))}.{int(rng.integers(0, 100)):02d}"


def about(want: float) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, (int, float)) and abs(float(v) - want) < 0.005


def this_month(day: dt.date) -> str:
    """``day``'s month, "YYYY-MM"."""
    return day.isoformat()[:7]


def next_month(month: str) -> str:
    """The month after ``month`` ("YYYY-MM")."""
    y, m = int(month[:4]), int(month[5:7])
    return f"{y + m // 12:04d}-{m % 12 + 1:02d}"


def month_label(month: str) -> str:
    d = dt.date.fromisoformat(month + "-01")
    return f"{d.strftime('%B')} {d.year}"


def day_label(d: dt.date) -> str:
    """"Sat, Mar 14": a day's heading in the list."""
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"



def unique_entries(probe: Probe, month: str = "") -> list[Row]:
    """Entries that no other entry shares a note and a date with (a goal names one by
    both), of ``month`` when given."""
    rows = probe.query("expenses/entries")
    count: dict[tuple[str, str], int] = {}
    for r in rows:
        count[(r["note"], r["date"])] = count.get((r["note"], r["date"]), 0) + 1
    return [r for r in rows if r["note"] and count[(r["note"], r["date"])] == 1
            and (not month or r["date"][:7] == month)]


def to_tab(device: Device, tab: str) -> Iterator[Action]:
    """Open Expenses and its bottom tab ``tab`` (Entries, Summary, Budgets)."""
    rid = "nav_" + tab.lower()
    yield from open_root(device, LABEL, lambda d: find(d, desc=tab, rid=rid) is not None,
                         tries=6, fail=f"the {tab} tab never showed")
    i = find(device, desc=tab, rid=rid)
    if i is not None and not elements(device)[i].is_selected:
        yield Action("click", index=i)


def to_month(device: Device, month: str) -> Iterator[Action]:
    """On Entries or Summary: step the month switcher to ``month`` ("YYYY-MM")."""
    want = month_label(month)
    for _ in range(14):
        shown = text_of(device, rid="month_title") or ""
        if shown == want:
            return
        have = dt.datetime.strptime(shown, "%B %Y").date().isoformat()[:7]
        yield tap(device, desc="Next month" if month > have else "Previous month")
    raise OracleError(f"could not reach {want}")


def _row_index(device: Device, note: str, day: dt.date) -> int | None:
    for i, e in enumerate(elements(device)):
        d = e.content_description or ""
        if (e.resource_id or "").endswith("/entry_row") and d.startswith(note + ", ") \
                and d.endswith(", " + day_label(day)):
            return i
    return None


def open_entry(device: Device, note: str, day: dt.date) -> Iterator[Action]:
    """From anywhere: Entries, the entry's month, scrolled to its row, and its editor."""
    yield from to_tab(device, "Entries")
    yield from to_month(device, day.isoformat()[:7])
    for _ in range(15):
        i = _row_index(device, note, day)
        if i is not None:
            yield Action("click", index=i)
            return
        yield Action("scroll", direction="down")
    raise OracleError(f"no entry {note!r} on {day}")


def open_entry_by_category(device: Device, note: str, day: dt.date) -> Iterator[Action]:
    """The second path to an entry: Summary, its month, the entry's category row, then the
    entry in that category's list (not the Entries tab)."""
    category = next(r["category"] for r in device.probe.query("expenses/entries")
                    if r["note"] == note and r["date"] == day.isoformat())
    yield from to_tab(device, "Summary")
    yield from to_month(device, day.isoformat()[:7])
    yield from scroll_to(device, desc=f"{category}, ", rid="summary_row", contains=True)
    yield tap(device, desc=f"{category}, ", rid="summary_row", contains=True)
    for _ in range(15):
        i = _row_index(device, note, day)
        if i is not None and fully_visible(device, i):
            yield Action("click", index=i)
            return
        yield Action("scroll", direction="down")
    raise OracleError(f"no entry {note!r} on {day} under {category}")


def fill_entry(device: Device, amount: str, category: str, note: str,
               day: dt.date | None) -> Iterator[Action]:
    """In the editor: the amount, the category from the sheet, the note, the date (when
    ``day`` is given), then Save."""
    yield type_into(device, amount, rid="amount")
    yield tap(device, rid="category")
    yield tap(device, text=category, rid="sheet_item_title")
    yield type_into(device, note, rid="note")
    if day is not None:
        yield from pick_date(device, day, "date")
    yield tap(device, text="Save", rid="save")


def add_entry(device: Device, amount: str, category: str, note: str,
              day: dt.date | None) -> Iterator[Action]:
    """From anywhere: Entries of this month (the phone's, where a new entry is dated today),
    "Add expense", the fields, Save."""
    yield from to_tab(device, "Entries")
    yield from to_month(device, this_month(today(device.probe)))
    yield tap(device, desc="Add expense")
    yield from fill_entry(device, amount, category, note, day)
