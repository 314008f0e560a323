"""To-do data: lists of tasks with notes, a due date, a priority, a star and a done mark.

The store is ``{"lists": [...], "tasks": [...], "next_id": int, "next_list": int}``. A list is
``{id, name, sort}`` (``sort``: "my order", "date" or "priority", as the list was last
sorted); a task is ``{id, list_id, title, notes, due, priority, starred, done}`` with ``due``
an ISO date or "" and ``priority`` 0 (none), 1 (low), 2 (medium) or 3 (high). The app serves
two tables of its own (PhoneWorld-only: a real phone's to-do app keeps its data private):
``todo/lists`` (``_id``, ``name``, ``sort``) and ``todo/tasks`` (``_id``, ``list_id``,
``title``, ``notes``, ``due``, ``priority``, ``starred``, ``done``).

Due dates are generated around the phone's start day (``life.today``; by default Saturday
2026-03-14); the screens label them ("Today", "Tomorrow") from the running clock.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

PRIORITIES: tuple[str, ...] = ("None", "Low", "Medium", "High")
SORTS: tuple[str, ...] = ("my order", "date", "priority")

CHORES: tuple[str, ...] = (
    "Pay the electricity bill", "Book a dentist appointment", "Return library books",
    "Renew car insurance", "Fix the bathroom tap", "Take out the recycling",
    "Order printer ink", "Water the plants", "Schedule a haircut", "Clean the gutters",
)
GROCERIES: tuple[str, ...] = (
    "Milk", "Eggs", "Bread", "Bananas", "Coffee beans", "Spinach", "Tomatoes", "Greek yogurt",
    "Olive oil", "Rice", "Cheddar", "Apples", "Pasta", "Garlic",
)
WORK: tuple[str, ...] = (
    "Prepare slides for the team meeting", "Submit the expense report",
    "Update the project timeline", "Book a meeting room for Thursday",
    "Draft the quarterly goals", "Reply to the client survey",
)


def _due(today: dt.date, days: int) -> str:
    return (today + dt.timedelta(days=days)).isoformat()


def next_birthday(iso: str, today: dt.date) -> dt.date:
    """The next birthday on or after ``today`` of someone born on ``iso``."""
    born = dt.date.fromisoformat(iso)
    for year in (today.year, today.year + 1):
        try:
            d = born.replace(year=year)
        except ValueError:  # 29 February
            d = dt.date(year, 3, 1)
        if d >= today:
            return d
    raise AssertionError("unreachable")


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Three lists: My Tasks (calls and gifts for people of the life, chores, some done),
    Groceries (no dates) and Work (with a colleague's name, due this week or next)."""
    today = life.today
    st: dict[str, Any] = {"lists": [], "tasks": [], "next_id": 1, "next_list": 1}
    mine = add_list(st, "My Tasks")["id"]
    groceries = add_list(st, "Groceries")["id"]
    work = add_list(st, "Work")["id"]
    people = list(life.people)
    order = [int(i) for i in rng.permutation(len(people))]
    called = people[order[0]]
    add_task(st, mine, f"Call {called.first}", notes=f"{called.phone}",
             due=_due(today, int(rng.integers(0, 6))), priority=int(rng.integers(0, 3)))
    # a gift for the person whose birthday comes next (among a few)
    soon = sorted((people[i] for i in order[1:8]), key=lambda p: next_birthday(p.birthday, today))
    giftee = soon[0]
    bday = next_birthday(giftee.birthday, today)
    gift_due = max(today, bday - dt.timedelta(days=int(rng.integers(1, 4))))
    add_task(st, mine, f"Buy gift for {giftee.first}'s birthday",
             notes=f"Birthday on {bday.strftime('%B')} {bday.day}", due=gift_due.isoformat(),
             priority=3, starred=True)
    for i in rng.choice(len(CHORES), size=int(rng.integers(3, 6)), replace=False):
        add_task(st, mine, CHORES[int(i)],
                 due=_due(today, int(rng.integers(-2, 20))) if rng.random() < 0.7 else "",
                 priority=int(rng.integers(0, 4)), starred=bool(rng.random() < 0.2),
                 done=bool(rng.random() < 0.25))
    for i in rng.choice(len(GROCERIES), size=int(rng.integers(4, 7)), replace=False):
        add_task(st, groceries, GROCERIES[int(i)], done=bool(rng.random() < 0.2))
    colleague = people[order[8]]
    add_task(st, work, f"Send the weekly report to {colleague.first}",
             due=_due(today, int(rng.integers(1, 7))), priority=2)
    for i in rng.choice(len(WORK), size=int(rng.integers(2, 4)), replace=False):
        add_task(st, work, WORK[int(i)], due=_due(today, int(rng.integers(0, 14))),
                 priority=int(rng.integers(0, 4)), done=bool(rng.random() < 0.2))
    return st


def add_list(st: dict[str, Any], name: str) -> dict[str, Any]:
    lst = {"id": st["next_list"], "name": name, "sort": "my order"}
    st["next_list"] += 1
    st["lists"].append(lst)
    return lst


def add_task(st: dict[str, Any], list_id: int, title: str, *, notes: str = "", due: str = "",
             priority: int = 0, starred: bool = False, done: bool = False) -> dict[str, Any]:
    """A new task at the end of its list."""
    t = {"id": st["next_id"], "list_id": list_id, "title": title, "notes": notes, "due": due,
         "priority": int(priority), "starred": bool(starred), "done": bool(done)}
    st["next_id"] += 1
    st["tasks"].append(t)
    return t


def find(st: dict[str, Any], tid: Any) -> dict[str, Any] | None:
    return next((t for t in st["tasks"] if t["id"] == tid), None)


def find_list(st: dict[str, Any], lid: Any) -> dict[str, Any] | None:
    return next((x for x in st["lists"] if x["id"] == lid), None)


def delete(st: dict[str, Any], tid: int) -> None:
    st["tasks"] = [t for t in st["tasks"] if t["id"] != tid]


def in_list(st: dict[str, Any], lid: int) -> list[dict[str, Any]]:
    """The open tasks of a list, in the list's sort order (my order: as added; date: the
    earliest due first, undated last; priority: the highest first)."""
    lst = find_list(st, lid)
    tasks = [t for t in st["tasks"] if t["list_id"] == lid and not t["done"]]
    sort = lst["sort"] if lst is not None else "my order"
    if sort == "date":
        return sorted(tasks, key=lambda t: (t["due"] == "", t["due"], t["id"]))
    if sort == "priority":
        return sorted(tasks, key=lambda t: (-t["priority"], t["id"]))
    return tasks


def completed(st: dict[str, Any], lid: int) -> list[dict[str, Any]]:
    return [t for t in st["tasks"] if t["list_id"] == lid and t["done"]]


def due_label(due: str, today: dt.date) -> str:
    """"Today", "Tomorrow", "Yesterday", "Mon, Mar 16" ("" when undated), seen on
    ``today`` (the year is added when it is not ``today``'s)."""
    if not due:
        return ""
    d = dt.date.fromisoformat(due)
    delta = (d - today).days
    if delta == 0:
        return "Today"
    if delta == 1:
        return "Tomorrow"
    if delta == -1:
        return "Yesterday"
    label = f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"
    return label if d.year == today.year else f"{label}, {d.year}"


def full_label(due: str) -> str:
    """"Wed, Mar 18, 2026": the editor's due date."""
    d = dt.date.fromisoformat(due)
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}, {d.year}"


def matches(t: dict[str, Any], q: str) -> bool:
    return q in t["title"].lower() or q in t["notes"].lower()


def task_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``todo/tasks`` table, by ``_id``."""
    return [{"_id": t["id"], "list_id": t["list_id"], "title": t["title"], "notes": t["notes"],
             "due": t["due"], "priority": t["priority"], "starred": int(t["starred"]),
             "done": int(t["done"])} for t in sorted(st["tasks"], key=lambda t: t["id"])]


def list_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``todo/lists`` table, by ``_id``."""
    return [{"_id": x["id"], "name": x["name"], "sort": x["sort"]}
            for x in sorted(st["lists"], key=lambda x: x["id"])]


def add_task_fixture(st: dict[str, Any], title: Any = None, list: Any = "My Tasks",  # noqa: A002
                     due: Any = "", priority: Any = 0, starred: Any = False,
                     done: Any = False, notes: Any = "") -> dict[str, Any]:
    """Setup routine: add a task to the list named ``list``. Returns its ``title`` and
    ``_id``; a bad argument raises ``ValueError`` naming it and changes nothing."""
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"add_task: title must be a non-empty string, got {title!r}")
    lst = next((x for x in st["lists"] if isinstance(list, str) and x["name"] == list), None)
    if lst is None:
        raise ValueError(f"add_task: list must name an existing list "
                         f"({[x['name'] for x in st['lists']]}), got {list!r}")
    if not isinstance(due, str):
        raise ValueError(f"add_task: due must be an ISO date string or '', got {due!r}")
    if due:
        try:
            dt.date.fromisoformat(due)
        except ValueError:
            raise ValueError(f"add_task: due must be an ISO date (YYYY-MM-DD), got {due!r}") \
                from None
    if not isinstance(priority, int) or isinstance(priority, bool) or not 0 <= priority <= 3:
        raise ValueError(f"add_task: priority must be 0..3, got {priority!r}")
    for name, v in (("starred", starred), ("done", done)):
        if not isinstance(v, bool):
            raise ValueError(f"add_task: {name} must be true or false, got {v!r}")
    if not isinstance(notes, str):
        raise ValueError(f"add_task: notes must be a string, got {notes!r}")
    t = add_task(st, lst["id"], title.strip(), notes=notes, due=due, priority=priority,
                 starred=starred, done=done)
    return {"title": t["title"], "_id": t["id"]}
