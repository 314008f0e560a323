"""Shared pieces of the To-do (Tasks app) tasks: the rows of ``todo/tasks`` (``_id``,
``list_id``, ``title``, ``notes``, ``due``, ``priority``, ``starred``, ``done``) and
``todo/lists`` (``_id``, ``name``, ``sort``), and the usual UI paths (a list's tab, search,
the editor's date picker).

A real phone's to-do app keeps its data private, so these tasks run on PhoneWorld only.
Due dates count from the phone's date (``probe.now()`` before the start,
``Task.start_day()`` after it).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import scroll_to, tap, text_of, type_into
from phoneworld_gym.tasks.kit import day_words, open_root  # noqa: F401 (day_words, clock: re-exported)

PRIORITIES: tuple[str, ...] = ("None", "Low", "Medium", "High")
#: titles a task asks to add (none is seeded)
NEW_TASKS: tuple[str, ...] = (
    "Pick up dry cleaning", "Renew passport", "Call the plumber", "Buy stamps",
    "Cancel the gym trial", "Book flights for the summer", "Send thank-you cards",
    "Back up the laptop", "Get the bike serviced", "Sign up for the 10k", "Refill prescription",
    "Pay the parking ticket", "Clean out the garage", "Order new contact lenses",
    "Print boarding passes", "Return the rental car", "Update my resume", "Repot the cactus",
    "Replace the smoke alarm battery", "Plan the picnic", "Buy a birthday card",
    "Donate old clothes", "Schedule the car wash", "Check the tire pressure",
)


def lists_by_id(probe_or_rows: Probe | list[Row]) -> dict[int, str]:
    rows = probe_or_rows if isinstance(probe_or_rows, list) else \
        probe_or_rows.query("todo/lists")
    return {int(r["_id"]): str(r["name"]) for r in rows}


def my_tasks(probe: Probe) -> int:
    """The id of the "My Tasks" list (the default one)."""
    return next(int(r["_id"]) for r in probe.query("todo/lists") if r["name"] == "My Tasks")


def titled(probe: Probe, *, done: bool | None = False) -> list[Row]:
    """Tasks whose title no other task shares (a goal names a task by its title); ``done``
    False / True keeps the open / completed ones, None both."""
    rows = probe.query("todo/tasks")
    count: dict[str, int] = {}
    for r in rows:
        count[r["title"].lower()] = count.get(r["title"].lower(), 0) + 1
    return [r for r in rows if count[r["title"].lower()] == 1
            and (done is None or bool(r["done"]) == done)]


def unused_title(rng: np.random.Generator, probe: Probe) -> str:
    taken = {r["title"].lower() for r in probe.query("todo/tasks")}
    free = [t for t in NEW_TASKS if t.lower() not in taken]
    return free[int(rng.integers(len(free)))]



def to_main(device: Device) -> Iterator[Action]:
    """Open Tasks and back out to the lists."""
    yield from open_root(device, "Tasks", "new_task_button",
                         fail="the Tasks lists never showed")


def open_list(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: the lists, then the tab of ``name`` (when it is not chosen yet)."""
    yield from to_main(device)
    if text_of(device, rid="list_title") != name:
        yield tap(device, desc=name, rid=f"tab_{name.lower().replace(' ', '_')}")


def search(device: Device, title: str) -> Iterator[Action]:
    """From anywhere: search, with ``title`` typed (its row shows)."""
    yield from to_main(device)
    yield tap(device, desc="Search tasks")
    yield type_into(device, title, rid="search_src_text")


def open_task(device: Device, title: str) -> Iterator[Action]:
    """Search a task by title and open its editor."""
    yield from search(device, title)
    yield tap(device, desc=title, rid="task_row")


def row_index(device: Device, title: str) -> Iterator[Action]:
    """Scroll the open list until the row of ``title`` is in full view."""
    yield from scroll_to(device, desc=title, rid="task_row")
