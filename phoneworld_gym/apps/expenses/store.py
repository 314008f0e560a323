"""Expense tracker data: entries (amount, category, note, date) and a budget per month.

The store is ``{"entries": [{id, amount, category, note, date}], "budgets": [{id, month,
amount}], "next_id": int, "next_budget": int}`` with ``date`` an ISO date, ``month``
"YYYY-MM" and amounts in dollars with cents. The entries are generated around the phone's
start clock (``life.today``, by default Saturday 2026-03-14): the two months before it in full
and its month up to that day. Categories are fixed (:data:`CATEGORIES`, each
with an icon). Tables (PhoneWorld-only): ``expenses/entries`` (``_id``, ``amount``,
``category``, ``note``, ``date``) and ``expenses/budgets`` (``_id``, ``month``, ``amount``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

#: (name, icon, colour) of every category, in the order the app lists them
CATEGORIES: tuple[tuple[str, str, tuple[int, int, int]], ...] = (
    ("Groceries", "basket_shopping", (67, 160, 71)),
    ("Dining", "utensils", (239, 108, 0)),
    ("Transport", "bus", (30, 136, 229)),
    ("Shopping", "bag_shopping", (142, 36, 170)),
    ("Bills", "bolt", (229, 57, 53)),
    ("Entertainment", "film", (0, 137, 123)),
    ("Health", "pills", (216, 27, 96)),
    ("Other", "tag", (117, 117, 117)),
)
NAMES: tuple[str, ...] = tuple(c[0] for c in CATEGORIES)
ICONS: dict[str, str] = {c[0]: c[1] for c in CATEGORIES}
COLORS: dict[str, tuple[int, int, int]] = {c[0]: c[2] for c in CATEGORIES}
#: how many months before the current one the app keeps (the first month with data), and
#: how many after it the month switcher goes on to (budgets can be planned ahead)
MONTHS_BACK, MONTHS_AHEAD = 2, 9
MAX_AMOUNT = 100000.0

#: (category, notes, low, high) that the generator draws ordinary entries from
_KINDS: tuple[tuple[str, tuple[str, ...], float, float], ...] = (
    ("Groceries", ("Whole Foods", "Trader Joe's", "Farmers market", "Costco run",
                   "Corner store"), 18, 140),
    ("Dining", ("Lunch at work", "Sushi takeout", "Pizza night", "Coffee and bagel",
                "Thai delivery", "Brunch"), 9, 85),
    ("Transport", ("Gas", "Uber to airport", "Parking downtown", "Train ticket",
                   "Bus pass top-up"), 3, 60),
    ("Shopping", ("Running shoes", "Books", "Phone case", "Kitchen towels", "Winter jacket"),
     15, 180),
    ("Entertainment", ("Movie tickets", "Concert", "Streaming subscription", "Bowling"), 9, 75),
    ("Health", ("Pharmacy", "Gym drop-in", "Vitamins", "Dentist copay"), 8, 90),
)


def month_of(date: str) -> str:
    return date[:7]


def month_label(month: str) -> str:
    """"YYYY-MM" -> "<Month> YYYY" (e.g. "2026-03" -> "March 2026")."""
    d = dt.date.fromisoformat(month + "-01")
    return f"{d.strftime('%B')} {d.year}"


def shift_month(month: str, delta: int) -> str:
    y, m = int(month[:4]), int(month[5:7])
    k = y * 12 + (m - 1) + delta
    return f"{k // 12:04d}-{k % 12 + 1:02d}"


def first_month(today: dt.date) -> str:
    """The first month the app keeps ("YYYY-MM"): :data:`MONTHS_BACK` before ``today``'s."""
    return shift_month(today.isoformat()[:7], -MONTHS_BACK)


def last_month(today: dt.date) -> str:
    """The last month the month switcher reaches: :data:`MONTHS_AHEAD` after ``today``'s."""
    return shift_month(today.isoformat()[:7], MONTHS_AHEAD)


def _days_in(month: str) -> int:
    return (dt.date.fromisoformat(shift_month(month, 1) + "-01") - dt.timedelta(days=1)).day


def money(v: float) -> str:
    """"$1,234.50"."""
    return f"${v:,.2f}"


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """The two months before ``life.today``'s in full and its month up to today: monthly
    bills, ordinary spending drawn from :data:`_KINDS`, a dinner and a gift with people of the
    life; budgets for the two past months and, on most seeds, one for this month (sometimes
    already exceeded)."""
    st: dict[str, Any] = {"entries": [], "budgets": [], "next_id": 1, "next_budget": 1}
    people = list(life.people)
    today = life.today
    this = today.isoformat()[:7]
    months = [shift_month(this, -k) for k in range(MONTHS_BACK, 0, -1)]
    for month, last_day in [(m, _days_in(m)) for m in months] + [(this, today.day)]:
        made: list[dict[str, Any]] = []
        # bills on fixed days
        for day, note, lo, hi in ((3, "Rent share", 650, 650), (8, "Electricity", 48, 130),
                                  (12, "Internet", 59.99, 59.99), (20, "Phone plan", 45, 45)):
            if day <= last_day:
                made.append({"date": f"{month}-{day:02d}", "category": "Bills", "note": note,
                             "amount": round(float(rng.uniform(lo, hi)), 2)})
        for _ in range(int(rng.integers(8, 12)) * last_day // 31 + 2):
            cat, notes, lo, hi = _KINDS[int(rng.integers(len(_KINDS)))]
            made.append({"date": f"{month}-{int(rng.integers(1, last_day + 1)):02d}",
                         "category": cat, "note": notes[int(rng.integers(len(notes)))],
                         "amount": round(float(rng.uniform(lo, hi)), 2)})
        friend = people[int(rng.integers(len(people)))]
        made.append({"date": f"{month}-{int(rng.integers(1, last_day + 1)):02d}",
                     "category": "Dining", "note": f"Dinner with {friend.first}",
                     "amount": round(float(rng.uniform(30, 120)), 2)})
        if rng.random() < 0.6:
            other = people[int(rng.integers(len(people)))]
            made.append({"date": f"{month}-{int(rng.integers(1, last_day + 1)):02d}",
                         "category": "Other", "note": f"Gift for {other.first}",
                         "amount": round(float(rng.uniform(15, 80)), 2)})
        for e in sorted(made, key=lambda e: e["date"]):
            add_entry(st, e["amount"], e["category"], e["note"], e["date"])
    for month in months:
        set_budget(st, month, float(rng.choice([1500, 1800, 2000])))
    if rng.random() < 0.8:
        set_budget(st, this, float(rng.choice([1000, 1200, 1500, 1800, 2000])))
    return st


# -- entries ---------------------------------------------------------------------------------
def parse_amount(text: str) -> float:
    """"$1,234.5" -> 1234.5; ``ValueError`` saying what is wrong when the text is not an
    amount of dollars and cents above zero."""
    clean = text.strip().replace("$", "").replace(",", "")
    try:
        value = float(clean)
    except ValueError:
        raise ValueError(f"Enter an amount like 12.50 (got {text.strip()!r})") from None
    if value != value or value <= 0:
        raise ValueError("The amount must be more than $0")
    if value >= MAX_AMOUNT:
        raise ValueError(f"The amount must be under {money(MAX_AMOUNT)}")
    if round(value, 2) != value:
        raise ValueError("Use at most two decimals (cents)")
    return value


def check_entry(amount: Any, category: Any, note: Any, date: Any) -> None:
    """``ValueError`` naming the first bad field of an entry."""
    if not isinstance(amount, (int, float)) or isinstance(amount, bool) \
            or not 0 < amount < MAX_AMOUNT or round(float(amount), 2) != float(amount):
        raise ValueError(f"amount must be dollars and cents above 0, got {amount!r}")
    if category not in NAMES:
        raise ValueError(f"category must be one of {list(NAMES)}, got {category!r}")
    if not isinstance(note, str):
        raise ValueError(f"note must be a string, got {note!r}")
    try:
        dt.date.fromisoformat(date)
    except (TypeError, ValueError):
        raise ValueError(f"date must be an ISO date (YYYY-MM-DD), got {date!r}") from None


def add_entry(st: dict[str, Any], amount: float, category: str, note: str,
              date: str) -> dict[str, Any]:
    check_entry(amount, category, note, date)
    e = {"id": st["next_id"], "amount": round(float(amount), 2), "category": category,
         "note": note.strip(), "date": date}
    st["next_id"] += 1
    st["entries"].append(e)
    return e


def find(st: dict[str, Any], eid: Any) -> dict[str, Any] | None:
    return next((e for e in st["entries"] if e["id"] == eid), None)


def delete(st: dict[str, Any], eid: int) -> None:
    st["entries"] = [e for e in st["entries"] if e["id"] != eid]


def in_month(st: dict[str, Any], month: str, category: str = "") -> list[dict[str, Any]]:
    """A month's entries, newest first (a category's only, when given)."""
    rows = [e for e in st["entries"] if month_of(e["date"]) == month
            and (not category or e["category"] == category)]
    return sorted(rows, key=lambda e: (e["date"], e["id"]), reverse=True)


def total(entries: list[dict[str, Any]]) -> float:
    return round(sum(e["amount"] for e in entries), 2)


def by_category(st: dict[str, Any], month: str) -> list[tuple[str, float]]:
    """(category, total) of a month, largest first, categories without spending left out."""
    sums = {c: total(in_month(st, month, c)) for c in NAMES}
    return sorted(((c, v) for c, v in sums.items() if v > 0), key=lambda cv: (-cv[1],
                                                                            NAMES.index(cv[0])))


# -- budgets ---------------------------------------------------------------------------------
def budget_of(st: dict[str, Any], month: str) -> float | None:
    b = next((b for b in st["budgets"] if b["month"] == month), None)
    return None if b is None else float(b["amount"])


def set_budget(st: dict[str, Any], month: str, amount: float) -> dict[str, Any]:
    """Set (or change) a month's budget."""
    if len(month) != 7 or month[4] != "-":
        raise ValueError(f"month must be YYYY-MM, got {month!r}")
    b = next((b for b in st["budgets"] if b["month"] == month), None)
    if b is None:
        b = {"id": st["next_budget"], "month": month, "amount": 0.0}
        st["next_budget"] += 1
        st["budgets"].append(b)
    b["amount"] = round(float(amount), 2)
    return b


def remove_budget(st: dict[str, Any], month: str) -> None:
    st["budgets"] = [b for b in st["budgets"] if b["month"] != month]


def over_by(st: dict[str, Any], month: str) -> float:
    """How far a month's spending is over its budget (0 when within it or without one)."""
    b = budget_of(st, month)
    if b is None:
        return 0.0
    return max(0.0, round(total(in_month(st, month)) - b, 2))


# -- tables ----------------------------------------------------------------------------------
def entry_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``expenses/entries``, by ``_id``."""
    return [{"_id": e["id"], "amount": e["amount"], "category": e["category"],
             "note": e["note"], "date": e["date"]}
            for e in sorted(st["entries"], key=lambda e: e["id"])]


def budget_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``expenses/budgets``, by ``_id``."""
    return [{"_id": b["id"], "month": b["month"], "amount": b["amount"]}
            for b in sorted(st["budgets"], key=lambda b: b["id"])]


# -- fixtures --------------------------------------------------------------------------------
def add_entry_fixture(st: dict[str, Any], amount: Any = None, category: Any = None,
                      note: Any = "", date: Any = None) -> dict[str, Any]:
    """Setup routine: add an entry. Returns its ``_id``; a bad argument raises ``ValueError``
    naming it and changes nothing."""
    try:
        check_entry(amount, category, note, date)
    except ValueError as e:
        raise ValueError(f"add_entry: {e}") from None
    return {"_id": add_entry(st, amount, category, note, date)["id"]}


def set_budget_fixture(st: dict[str, Any], month: Any = None,
                       amount: Any = None) -> dict[str, Any]:
    """Setup routine: set a month's budget (``amount`` None removes it). Returns the
    month."""
    if not isinstance(month, str) or len(month) != 7:
        raise ValueError(f"set_budget: month must be 'YYYY-MM', got {month!r}")
    try:
        dt.date.fromisoformat(month + "-01")
    except ValueError:
        raise ValueError(f"set_budget: month must be 'YYYY-MM', got {month!r}") from None
    if amount is None:
        remove_budget(st, month)
        return {"month": month}
    if not isinstance(amount, (int, float)) or isinstance(amount, bool) \
            or not 0 < amount < MAX_AMOUNT:
        raise ValueError(f"set_budget: amount must be above 0, got {amount!r}")
    set_budget(st, month, float(amount))
    return {"month": month}
