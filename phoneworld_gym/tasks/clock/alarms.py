"""Clock tasks over the ``alarms`` table: add one (with a label, or repeating), turn one off,
delete one, say when the earliest one rings, and an alarm the app cannot make."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import TimeMatch
from phoneworld_gym.oracle import elements, find, scroll_to, tap, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.clock.common import (
    DAY_NAMES,
    LABELS,
    add_alarm,
    time_text,
    to_alarms,
    unique_times,
)
from phoneworld_gym.validators import added, changed, removed, same_text


def _time_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    """A time no alarm is set for yet (minutes a multiple of five)."""
    taken = {(r["hour"], r["minutes"]) for r in probe.query("alarms")}
    while True:
        hour, minute = int(rng.integers(0, 24)), int(rng.integers(0, 12)) * 5
        if (hour, minute) not in taken:
            return {"hour": hour, "minute": minute, "time": time_text(hour, minute)}


@register_task
class ClockAddAlarm(Task):
    """Add an alarm at a time with a label: one ``alarms`` row is added, on, at that hour and
    minute, with that label."""

    id = "ClockAddAlarm"
    apps = ("clock",)
    difficulty = "medium"
    tags = ("form", "picker")
    optimal_steps = 8
    may_change = ("alarms",)
    params_schema = {"hour": int, "minute": int, "time": str, "label": str}
    template = 'Set an alarm for {time} labeled "{label}".'
    paraphrases = {
        "train": (
            'Create a {time} alarm called "{label}".',
            'Add an alarm at {time} and name it "{label}".',
        ),
        "test": (
            'Wake me at {time} with an alarm that says "{label}".',
            'I need an alarm named "{label}" that goes off at {time}.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {**_time_params(rng, probe), "label": LABELS[int(rng.integers(len(LABELS)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("alarms", {"hour": p["hour"], "minutes": p["minute"],
                                            "label": same_text(p["label"]), "enabled": 1}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fill(device, self.params["hour"])
        yield Action("status", goal_status="complete")

    def _fill(self, device: Device, hour: int) -> Iterator[Action]:
        yield from add_alarm(device, hour, self.params["minute"])
        yield from scroll_to(device, rid="edit_label")
        yield type_into(device, self.params["label"], rid="edit_label")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """AM and PM mixed up."""
        yield from self._fill(device, (self.params["hour"] + 12) % 24)
        yield Action("status", goal_status="complete")


#: repeat patterns a goal may ask for: words -> day codes
REPEATS: dict[str, tuple[str, ...]] = {
    "on weekends": ("SA", "SU"),
    "on Mondays and Thursdays": ("MO", "TH"),
    "on Tuesdays and Fridays": ("TU", "FR"),
    "on Tuesdays and Thursdays": ("TU", "TH"),
    "on Wednesdays and Saturdays": ("WE", "SA"),
    "on Mondays, Wednesdays and Fridays": ("MO", "WE", "FR"),
}


@register_task
class ClockAddRepeatingAlarm(Task):
    """Add an alarm that repeats on some days: one ``alarms`` row is added, on, at that time,
    with exactly those ``days``."""

    id = "ClockAddRepeatingAlarm"
    apps = ("clock",)
    difficulty = "hard"
    split = "test"
    tags = ("form", "picker", "chips")
    optimal_steps = 10
    may_change = ("alarms",)
    params_schema = {"hour": int, "minute": int, "time": str, "repeat": str}
    template = "Set an alarm for {time} that repeats {repeat}."
    paraphrases = {
        "train": (
            "Create a repeating alarm at {time}, {repeat}.",
            "Add an alarm at {time} and have it repeat {repeat}.",
        ),
        "test": (
            "I need to be woken at {time} {repeat}; set that up as one alarm.",
            "Schedule a recurring {time} alarm {repeat}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        repeats = sorted(REPEATS)
        return {**_time_params(rng, probe), "repeat": repeats[int(rng.integers(len(repeats)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("alarms", {"hour": p["hour"], "minutes": p["minute"],
                                            "enabled": 1,
                                            "days": ",".join(REPEATS[p["repeat"]])}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fill(device, REPEATS[self.params["repeat"]])
        yield Action("status", goal_status="complete")

    def _fill(self, device: Device, days: tuple[str, ...]) -> Iterator[Action]:
        yield from add_alarm(device, self.params["hour"], self.params["minute"])
        yield from scroll_to(device, rid="repeat_days")
        for d in days:
            yield tap(device, desc=DAY_NAMES[d], cls="CheckBox")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One day short."""
        yield from self._fill(device, REPEATS[self.params["repeat"]][:-1])
        yield Action("status", goal_status="complete")


@register_task
class ClockDisableAlarm(Task):
    """Turn off one alarm named by its time: that row's ``enabled`` goes from 1 to 0 and
    nothing else changes."""

    id = "ClockDisableAlarm"
    apps = ("clock",)
    difficulty = "easy"
    tags = ("toggle",)
    optimal_steps = 4
    may_change = ("alarms",)
    params_schema = {"time": str, "id": int}
    template = "Turn off my {time} alarm."
    paraphrases = {
        "train": ("Disable the alarm set for {time}.", "Switch off my {time} alarm, please."),
        "test": ("I don't need to be woken at {time}; turn that alarm off but keep it.",
                 "Deactivate the {time} alarm in the Clock app."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in unique_times(probe.query("alarms")) if r["enabled"]]
        if not rows:
            raise NoInstance("no alarm is on")
        r = rows[int(rng.integers(len(rows)))]
        return {"time": time_text(r["hour"], r["minutes"]), "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("alarms", self.params["id"], enabled=0))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._switch(device, self.params["time"])
        yield Action("status", goal_status="complete")

    def _switch(self, device: Device, time: str) -> Iterator[Action]:
        yield from to_alarms(device)
        yield from scroll_to(device, desc=f"{time} alarm")
        yield tap(device, desc=f"{time} alarm")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Turns off another alarm that is on (or, with none, flips the right one twice)."""
        rows = [r for r in self.before("alarms") if r["enabled"]
                and r["_id"] != self.params["id"]]
        if rows:
            yield from self._switch(device, time_text(rows[0]["hour"], rows[0]["minutes"]))
        else:
            yield from self._switch(device, self.params["time"])
            yield tap(device, desc=f"{self.params['time']} alarm")
        yield Action("status", goal_status="complete")


@register_task
class ClockDeleteAlarm(Task):
    """Delete the alarm with a given label: exactly its row is removed."""

    id = "ClockDeleteAlarm"
    apps = ("clock",)
    difficulty = "medium"
    tags = ("expand",)
    optimal_steps = 6
    split = "test"
    may_change = ("alarms",)
    params_schema = {"label": str, "id": int}
    template = 'Delete my alarm labeled "{label}".'
    paraphrases = {
        "test": ('Remove the "{label}" alarm from the Clock app.',
                 'Get rid of the alarm called "{label}" completely.',
                 'I no longer need the "{label}" alarm. Delete it, don\'t just turn it off.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = probe.query("alarms")
        labels = [r["label"] for r in rows]
        mine = [r for r in rows if r["label"] and labels.count(r["label"]) == 1]
        if not mine:
            raise NoInstance("no labeled alarm")
        r = mine[int(rng.integers(len(mine)))]
        return {"label": r["label"], "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("alarms", self.params["id"]))

    def _open(self, device: Device) -> Iterator[Action]:
        yield from to_alarms(device)
        yield from scroll_to(device, text=self.params["label"], rid="summary", contains=True)
        yield tap(device, text=self.params["label"], rid="summary", contains=True)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._open(device)
        yield from scroll_to(device, rid="delete")
        yield tap(device, rid="delete")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Turns the alarm off instead of deleting it (or on, when it was off)."""
        yield from self._open(device)
        row = next(r for r in self.before("alarms") if r["_id"] == self.params["id"])
        yield from scroll_to(device, desc=f"{time_text(row['hour'], row['minutes'])} alarm")
        yield tap(device, desc=f"{time_text(row['hour'], row['minutes'])} alarm")
        yield Action("status", goal_status="complete")


@register_task
class ClockEarliestAlarm(Task):
    """Say when the earliest alarm that is on rings (by time of day), read from the start's
    ``alarms`` rows."""

    id = "ClockEarliestAlarm"
    apps = ("clock",)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 2
    answer_matcher = TimeMatch()
    template = "What time is my earliest alarm that is turned on?"
    paraphrases = {
        "train": ("When does my earliest active alarm go off?",),
        "test": ("Of the alarms that are switched on, which rings first in the day? Tell me "
                 "its time.",),
    }

    def setup(self, device: Device) -> None:
        """A phone (or a seed) with no alarm on gets one, so the question has an answer."""
        if not any(r["enabled"] for r in device.probe.query("alarms")):
            device.insert("alarms", {"hour": 6, "minutes": 45, "label": "Wake up",
                                     "enabled": 1, "days": "MO,TU,WE,TH,FR"})

    def expected_answer(self, device: Device) -> Any:
        on = sorted((r["hour"], r["minutes"]) for r in self.before("alarms") if r["enabled"])
        return f"{on[0][0]:02d}:{on[0][1]:02d}"

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_alarms(device)
        for _ in range(6):
            hit = next((e for e in elements(device) if e.is_checked
                        and (e.resource_id or "").endswith("/onoff")), None)
            if hit is not None:
                yield Action("answer", text=(hit.content_description or "").replace(" alarm", ""))
                return
            yield Action("scroll", direction="down")
        raise RuntimeError("no alarm is on")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The earliest alarm, whether on or not, when that differs; else the next one on."""
        rows = self.before("alarms")
        first = min((r["hour"], r["minutes"]) for r in rows)
        on = sorted((r["hour"], r["minutes"]) for r in rows if r["enabled"])
        h, m = first if first != on[0] else (on[1] if len(on) > 1 else ((on[0][0] + 1) % 24,
                                                                       on[0][1]))
        yield Action("answer", text=time_text(h, m))


@register_task
class ClockMonthlyAlarm(Task):
    """An alarm on a day of the month: the Clock app repeats alarms by weekday only, so the
    right move is to report it infeasible, changing nothing."""

    id = "ClockMonthlyAlarm"
    apps = ("clock",)
    difficulty = "medium"
    feasible = False
    optimal_steps = 3
    params_schema = {"hour": int, "minute": int, "time": str, "day": str}
    template = "Set an alarm for {time} that repeats on the {day} of every month."
    paraphrases = {
        "train": ("Create a monthly alarm at {time} on the {day} of each month.",),
        "test": ("I pay rent on the {day}; add a {time} alarm that rings on that day every "
                 "month.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        days = ("1st", "5th", "10th", "15th", "20th", "28th")
        return {**_time_params(rng, probe), "day": days[int(rng.integers(len(days)))]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_alarms(device)
        if find(device, rid="summary") is not None:
            yield tap(device, rid="summary")  # a card's repeat options: weekdays only
        yield Action("status", goal_status="infeasible")
