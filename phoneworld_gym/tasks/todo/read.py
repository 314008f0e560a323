"""To-do information-retrieval tasks: when a task is due, and how important it is. The right
answer comes from the start state's ``todo/tasks`` rows (reading changes nothing)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import DateMatch, Expected, StringMatch
from phoneworld_gym.oracle import OracleError, elements, find, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.todo.common import PRIORITIES, open_task, titled


def _by_id(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {int(r["_id"]): r for r in rows}


@register_task
class TodoDueLookup(Task):
    """Read a task's due date (one full date)."""

    id = "TodoDueLookup"
    apps = ("todo",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 5
    answer_matcher = DateMatch()
    params_schema = {"title": str, "id": int}
    template = 'When is "{title}" due?'
    paraphrases = {
        "train": ('What is the due date of my task "{title}"?',
                  'By which date do I have to "{title}"? Check my to-do list.'),
        "test": ('Look up "{title}" in my Tasks app and tell me the date it is due.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, [r for r in titled(probe, done=None) if r["due"]])
        return {"title": r["title"], "id": int(r["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return dt.date.fromisoformat(_by_id(self.before("todo/tasks"))[self.params["id"]]["due"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_task(device, self.params["title"])
        when = text_of(device, rid="due_date")
        if not when:
            raise OracleError("the editor shows no due date")
        yield Action("answer", text=when)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """A day off."""
        d = self.expected_answer(device) + dt.timedelta(days=1)
        yield Action("answer", text=f"{d.strftime('%B')} {d.day}, {d.year}")


@register_task
class TodoPriorityLookup(Task):
    """Read a task's priority (None, Low, Medium or High). The priority is drawn first (among
    those the open tasks have), then a task with it: most tasks have none, so "none" won
    blind when the task was drawn directly."""

    id = "TodoPriorityLookup"
    apps = ("todo",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("search", "radio")
    optimal_steps = 5
    split = "test"
    answer_matcher = StringMatch(contains=True, candidates=("none", "low", "medium", "high"))
    params_schema = {"title": str, "id": int}
    template = 'What priority does my task "{title}" have?'
    paraphrases = {
        "test": ('How urgent did I mark "{title}" in Tasks: none, low, medium or high?',
                 'Tell me the priority level set on the to-do "{title}".'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = titled(probe, done=False)
        level = choice(rng, sorted({int(r["priority"]) for r in rows}))
        r = choice(rng, [r for r in rows if int(r["priority"]) == level])
        return {"title": r["title"], "id": int(r["_id"])}

    def expected_answer(self, device: Device) -> Any:
        p = _by_id(self.before("todo/tasks"))[self.params["id"]]["priority"]
        return Expected(PRIORITIES[int(p)].lower(), candidates=[x.lower() for x in PRIORITIES])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_task(device, self.params["title"])
        for label in PRIORITIES:
            i = find(device, text=label, rid="priority_option")
            if i is not None and elements(device)[i].is_checked:
                yield Action("answer", text=label)
                return
        raise OracleError("no priority is checked")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The next priority up (or down from High)."""
        p = int(_by_id(self.before("todo/tasks"))[self.params["id"]]["priority"])
        yield Action("answer", text=PRIORITIES[p + 1 if p < 3 else 2])
