"""Phone information-retrieval tasks: the answer is read off the call log; the right one
comes from the start state's ``call_log`` rows (looking at calls changes nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import OracleError, elements
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.phone.common import (
    INCOMING,
    MISSED,
    calls_with,
    key,
    named,
    open_contact,
    to_main,
)


@register_task
class PhoneCountMissed(Task):
    """Count the missed calls from one contact (who called at least once).

    Zero to four more missed calls from them (a drawn number) are logged at setup: the seeded
    logs alone held none on half the seeds, so "0" won blind."""

    id = "PhoneCountMissed"
    apps = ("phone",)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 5
    answer_matcher = NumberMatch()
    params_schema = {"name": str, "number": str, "extra": int}
    template = "How many missed calls did I get from {name}?"
    paraphrases = {
        "train": ("Count the calls from {name} that I missed.",
                  "How many times did {name} call me without me picking up?"),
        "test": ("Check my call log: how many of {name}'s calls went unanswered?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        log = probe.query("call_log")
        callers = [c for c in named(probe)
                   if any(r["type"] in (INCOMING, MISSED) for r in calls_with(log,
                                                                             c["number"]))]
        c = choice(rng, callers)
        return {"name": c["display_name"], "number": c["number"],
                "extra": int(rng.integers(0, 5))}

    def setup(self, device: Device) -> None:
        """``extra`` missed calls from the contact, a day and a half apart, before the newest
        call of the log (so they sit among the others, not on top)."""
        newest = max(int(r["date"]) for r in device.probe.query("call_log"))
        for k in range(self.params["extra"]):
            device.insert("call_log", {"number": self.params["number"],
                                       "name": self.params["name"], "type": MISSED,
                                       "duration": 0, "new": 0,
                                       "date": newest - (k + 1) * 36 * 3600 * 1000 - 7 * 60000})

    def expected_answer(self, device: Device) -> Any:
        return sum(1 for r in calls_with(self.before("call_log"), self.params["number"])
                   if r["type"] == MISSED)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        n = sum(1 for e in elements(device) if (e.resource_id or "").endswith("/call_detail")
                and (e.content_description or "").startswith("Missed call,"))
        yield Action("answer", text=str(n))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Counts every call with them instead (or one too many when that is the same)."""
        rows = calls_with(self.before("call_log"), self.params["number"])
        right = sum(1 for r in rows if r["type"] == MISSED)
        yield Action("answer", text=str(len(rows) if len(rows) != right else right + 1))


@register_task
class PhoneLastCaller(Task):
    """Say who called last (answered or missed): the contact's name, or the number when it
    is a stranger.

    Fewer goals: the template has no params; the caller varies with the seed."""

    id = "PhoneLastCaller"
    apps = ("phone",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 2
    split = "test"
    answer_matcher = StringMatch(contains=True)
    template = "Who was the last person to call me?"
    paraphrases = {
        "test": ("Who rang me most recently?",
                 "Look at my calls: whose call came in last, whether I picked up or not?"),
    }

    def _callers(self) -> list[dict[str, Any]]:
        """Incoming and missed calls at the start, newest first."""
        rows = [r for r in self.before("call_log") if r["type"] in (INCOMING, MISSED)]
        return sorted(rows, key=lambda r: (-int(r["date"]), -int(r["_id"])))

    def _name(self, number: str) -> str:
        names = {key(c["number"]): c["display_name"] for c in self.before("contacts")
                 if c["display_name"] and c["number"]}
        return names.get(key(number), number)

    def expected_answer(self, device: Device) -> Any:
        calls = self._callers()
        every = {self._name(r["number"]) for r in self.before("call_log")}
        return Expected(self._name(calls[0]["number"]), candidates=sorted(every))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_main(device)
        for _ in range(10):
            for e in elements(device):
                desc = e.content_description or ""
                if (e.resource_id or "").endswith("/call_log_row") and \
                        desc.startswith(("Incoming call,", "Missed call,")):
                    yield Action("answer", text=desc.split(", ")[1])
                    return
            yield Action("scroll", direction="down")
        raise OracleError("no incoming or missed call in Recents")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Names the second newest caller (someone else)."""
        first = self._name(self._callers()[0]["number"])
        wrong = next(self._name(r["number"]) for r in self._callers()
                     if self._name(r["number"]) != first)
        yield Action("answer", text=wrong)
