"""To-do tasks that change tasks: add one (plain, or with a due date and a priority), tick
one off, delete one with a swipe, push every overdue task to tomorrow, and a location
reminder the app does not have (infeasible)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import find, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice, pick_date, today
from phoneworld_gym.tasks.todo.common import (
    PRIORITIES,
    day_words,
    lists_by_id,
    my_tasks,
    open_list,
    open_task,
    row_index,
    titled,
    unused_title,
)
from phoneworld_gym.validators import added, changed, expect, removed, same_text


@register_task
class TodoAdd(Task):
    """Add a task to a list: exactly one open task with that title joins that list."""

    id = "TodoAdd"
    apps = ("todo",)
    difficulty = "easy"
    tags = ("form", "tabs")
    optimal_steps = 6
    may_change = ("todo/tasks",)
    params_schema = {"title": str, "list": str, "list_id": int}
    template = 'Add "{title}" to my {list} list in Tasks.'
    paraphrases = {
        "train": ('Create a to-do "{title}" in the {list} list.',
                  'Put "{title}" on my {list} to-do list.'),
        "test": ('Don\'t let me forget "{title}": it belongs on the {list} list of my '
                 'to-do app.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        lists = probe.query("todo/lists")
        lst = lists[int(rng.integers(len(lists)))]
        return {"title": unused_title(rng, probe), "list": lst["name"],
                "list_id": int(lst["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("todo/tasks", {"title": same_text(self.params["title"]),
                                                "list_id": self.params["list_id"], "done": 0}))

    def _add(self, device: Device, list_name: str) -> Iterator[Action]:
        yield from open_list(device, list_name)
        yield tap(device, desc="Create new task")
        yield type_into(device, self.params["title"], rid="task_title_edit")
        yield tap(device, text="Save", rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, self.params["list"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds it to another list."""
        names = lists_by_id(device.probe)
        wrong = next(n for i, n in names.items() if i != self.params["list_id"])
        yield from self._add(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class TodoAddDue(Task):
    """Add a task to My Tasks due on a given day with a given priority (the date through the
    date picker)."""

    id = "TodoAddDue"
    apps = ("todo",)
    difficulty = "medium"
    tags = ("form", "date-picker", "radio")
    optimal_steps = 10
    may_change = ("todo/tasks",)
    params_schema = {"title": str, "date": str, "day": str, "priority": str, "list_id": int}
    template = 'Add a task "{title}" due {day} with {priority} priority.'
    paraphrases = {
        "train": ('New to-do: "{title}", due on {day}, priority {priority}.',
                  'Remind me in Tasks to "{title}" by {day}; mark it {priority} priority.'),
        "test": ('By {day} I have to "{title}". Track that in my to-do app, {priority} '
                 'priority, with the right due date.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = today(probe) + dt.timedelta(days=int(rng.integers(2, 40)))
        return {"title": unused_title(rng, probe), "date": d.isoformat(), "day": day_words(d),
                "priority": PRIORITIES[int(rng.integers(1, 4))].lower(),
                "list_id": my_tasks(probe)}

    def _mine(self) -> int:
        return int(self.params["list_id"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("todo/tasks", {
            "title": same_text(p["title"]), "list_id": self._mine(), "due": p["date"],
            "priority": PRIORITIES.index(p["priority"].capitalize()), "done": 0}))

    def _add(self, device: Device, day: dt.date) -> Iterator[Action]:
        p = self.params
        yield from open_list(device, lists_by_id(device.probe)[self._mine()])
        yield tap(device, desc="Create new task")
        yield type_into(device, p["title"], rid="task_title_edit")
        yield from pick_date(device, day, "due_date")
        yield tap(device, text=p["priority"].capitalize(), rid="priority_option")
        yield tap(device, text="Save", rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, dt.date.fromisoformat(self.params["date"]))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right task due a day late."""
        yield from self._add(device, dt.date.fromisoformat(self.params["date"]) +
                             dt.timedelta(days=1))
        yield Action("status", goal_status="complete")


@register_task
class TodoComplete(Task):
    """Tick a task off: its ``done`` becomes 1 and nothing else changes."""

    id = "TodoComplete"
    apps = ("todo",)
    difficulty = "easy"
    tags = ("checkbox", "tabs")
    optimal_steps = 4
    may_change = ("todo/tasks",)
    params_schema = {"title": str, "list": str, "id": int}
    template = 'Mark "{title}" as done in my Tasks.'
    paraphrases = {
        "train": ('Check off "{title}" on my to-do list.', 'Mark the task "{title}" as finished.'),
        "test": ("I've finished \"{title}\"; tick it off.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, titled(probe))
        return {"title": r["title"], "list": lists_by_id(probe)[int(r["list_id"])],
                "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("todo/tasks", self.params["id"], done=1))

    def _tick(self, device: Device, title: str, list_name: str) -> Iterator[Action]:
        yield from open_list(device, list_name)
        yield from row_index(device, title)
        yield tap(device, desc=f"Mark complete: {title}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._tick(device, self.params["title"], self.params["list"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the task, open its editor, tick Completed and save (not the row's box)."""
        yield from open_task(device, self.params["title"])
        yield tap(device, rid="done_box")
        yield tap(device, rid="save")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Ticks off another open task of the same list (or of any list)."""
        rows = [r for r in titled(device.probe) if r["_id"] != self.params["id"]]
        same = [r for r in rows if lists_by_id(device.probe)[int(r["list_id"])] ==
                self.params["list"]]
        r = (same or rows)[0]
        yield from self._tick(device, r["title"], lists_by_id(device.probe)[int(r["list_id"])])
        yield Action("status", goal_status="complete")


@register_task
class TodoSwipeDelete(Task):
    """Delete a task: exactly that row of ``todo/tasks`` goes (a sideways swipe on its row
    does it; the editor's Delete too)."""

    id = "TodoSwipeDelete"
    apps = ("todo",)
    difficulty = "easy"
    tags = ("swipe", "tabs")
    optimal_steps = 4
    may_change = ("todo/tasks",)
    params_schema = {"title": str, "list": str, "id": int}
    template = 'Delete the task "{title}".'
    paraphrases = {
        "train": ('Remove "{title}" from my to-do list.', 'Get rid of the to-do "{title}".'),
        "test": ('"{title}" is no longer needed. Throw that task away.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, titled(probe))
        return {"title": r["title"], "list": lists_by_id(probe)[int(r["list_id"])],
                "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("todo/tasks", self.params["id"]))

    def _swipe(self, device: Device, title: str, list_name: str) -> Iterator[Action]:
        yield from open_list(device, list_name)
        yield from row_index(device, title)
        i = find(device, desc=title, rid="task_row")
        yield Action("swipe", index=i, direction="right")  # the finger moves left

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._swipe(device, self.params["title"], self.params["list"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the task and delete it from its editor instead of swiping the row."""
        yield from open_task(device, self.params["title"])
        yield tap(device, desc="Delete task", rid="delete")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Swipes away the task next to it."""
        rows = [r for r in titled(device.probe) if r["_id"] != self.params["id"]]
        same = [r for r in rows if lists_by_id(device.probe)[int(r["list_id"])] ==
                self.params["list"]]
        r = (same or rows)[0]
        yield from self._swipe(device, r["title"], lists_by_id(device.probe)[int(r["list_id"])])
        yield Action("status", goal_status="complete")


@register_task
class TodoRescheduleOverdue(Task):
    """Push every overdue open task of a list to a later day: exactly those tasks' ``due``
    becomes that date (done ones, the rest of the list and other lists stay). Setup adds two
    overdue tasks to the list, so there are always some."""

    id = "TodoRescheduleOverdue"
    apps = ("todo",)
    difficulty = "hard"
    tags = ("date-picker", "multi-row", "search")
    optimal_steps = 18
    max_steps = 45
    may_change = ("todo/tasks",)
    params_schema = {"list": str, "list_id": int, "date": str, "day": str, "a": str,
                     "b": str, "late": str}
    split = "test"
    template = "Move every overdue task in my {list} list to {day}."
    paraphrases = {
        "test": ("Everything on {list} that is past due should be due on {day} instead.",
                 "I fell behind. Take each task in {list} whose due date has passed and set "
                 "it to {day}."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        day = today(probe)
        rows = probe.query("todo/tasks")
        lists = [x for x in probe.query("todo/lists")  # none overdue yet: the setup's two
                 if not any(r["list_id"] == x["_id"] and not r["done"] and r["due"]
                            and dt.date.fromisoformat(r["due"]) < day for r in rows)]
        lst = choice(rng, lists)
        target = day + dt.timedelta(days=int(rng.integers(1, 12)))
        late = day - dt.timedelta(days=int(rng.integers(2, 9)))
        a = unused_title(rng, probe)
        b = a
        while b == a:
            b = unused_title(rng, probe)
        return {"list": lst["name"], "list_id": int(lst["_id"]), "date": target.isoformat(),
                "day": day_words(target), "a": a, "b": b, "late": late.isoformat()}

    def setup(self, device: Device) -> None:
        p = self.params
        for title in (p["a"], p["b"]):
            device.fixture("todo", "add_task", title=title, list=p["list"], due=p["late"])

    def _overdue(self, rows: list[dict[str, Any]]) -> list[Any]:
        """The list's open tasks due before the start day."""
        return [r for r in rows if r["list_id"] == self.params["list_id"] and not r["done"]
                and r["due"] and dt.date.fromisoformat(r["due"]) < self.start_day()]

    def evaluate(self, device: Device, report: AgentReport) -> float:
        late = self._overdue(self.before("todo/tasks"))
        return self.expect(expect("todo/tasks", changed={r["_id"]: {"due": self.params["date"]}
                                                         for r in late}))

    def _move(self, device: Device, skip_last: bool) -> Iterator[Action]:
        late = self._overdue(device.probe.query("todo/tasks"))
        if skip_last:
            late = late[:-1]
        for r in late:
            yield from open_task(device, r["title"])
            yield from pick_date(device, dt.date.fromisoformat(self.params["date"]), "due_date")
            yield tap(device, text="Save", rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._move(device, False)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open each overdue task from its list's tab instead of searching its title."""
        yield from open_list(device, self.params["list"])
        for r in self._overdue(device.probe.query("todo/tasks")):
            yield from row_index(device, r["title"])
            yield tap(device, desc=r["title"], rid="task_row")
            yield from pick_date(device, dt.date.fromisoformat(self.params["date"]), "due_date")
            yield tap(device, text="Save", rid="save")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Moves all but the last overdue task (one that setup added)."""
        yield from self._move(device, True)
        yield Action("status", goal_status="complete")


@register_task
class TodoRemindAtPlace(Task):
    """Infeasible by design: the Tasks app has due dates but no location-based reminders;
    the right move is to look and say so."""

    id = "TodoRemindAtPlace"
    apps = ("todo",)
    difficulty = "medium"
    tags = ("infeasible",)
    optimal_steps = 5
    feasible = False
    params_schema = {"title": str, "place": str}
    template = 'Make "{title}" remind me when I arrive at {place}.'
    paraphrases = {
        "train": ('Set a location reminder on the task "{title}" for when I get to {place}.',),
        "test": ('When my phone sees I\'m at {place}, it should ping me about "{title}". '
                 'Set that up in Tasks.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, titled(probe))
        places = ("the office", "the supermarket", "home", "the gym", "the station")
        return {"title": r["title"], "place": places[int(rng.integers(len(places)))]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_task(device, self.params["title"])
        yield Action("status", goal_status="infeasible")
