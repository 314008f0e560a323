"""Clock tasks on the running clock: start a timer of a given length, and time a span with
the stopwatch (the app's own ``clock/timers`` table, PhoneWorld only).

The phone's clock moves with every action (:data:`phoneworld_gym.contract.ACTION_SECONDS`), so
the stopwatch shows the time the steps took: the oracle reads it after each ``wait``, as a
person watches the digits, and stops it once it has reached the span."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import ACTION_SECONDS, WAIT_SECONDS, Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import find, tap, text_of
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.clock.common import to_tab
from phoneworld_gym.validators import CLOCK_TIME, between, changed

#: the timer's length when the app is new (5:00); its buttons step by one minute
TIMER_START = 300
#: the lengths a goal names: three or four minutes from 5:00, so that every goal takes a few
#: taps of +1:00 or −1:00 and the oracle's length hardly varies
MINUTES = (1, 2, 8, 9)
SPANS = (15, 20, 25, 30)
#: how far past the span the stopwatch may be stopped (a person reads it, then taps)
SLACK = 10


def _timer(probe: Probe) -> dict[str, Any]:
    return next(r for r in probe.query("clock/timers") if r["_id"] == "timer")


def shown_seconds(text: str | None) -> int | None:
    """Seconds in a time the Clock shows (``1:05:09``, ``5:09``, ``0:22.00``), None when the
    text is not one."""
    m = re.fullmatch(r"\s*(?:(\d+):)?(\d+):(\d{2})(?:\.\d+)?\s*", text or "")
    if m is None:
        return None
    h, mi, s = (int(g) if g else 0 for g in m.groups())
    return h * 3600 + mi * 60 + s


def _set_timer(device: Device, minutes: int) -> Iterator[Action]:
    """On the Timer tab: reset it if it was started, then step its length to ``minutes``."""
    if find(device, rid="reset") is not None:
        yield tap(device, rid="reset")
    shown = shown_seconds(text_of(device, rid="timer_time_text")) or TIMER_START
    step = 1 if minutes * 60 > shown else -1
    for _ in range(abs(minutes * 60 - shown) // 60):
        yield tap(device, rid="timer_plus_one" if step > 0 else "timer_minus_one")


@register_task
class ClockStartTimer(Task):
    """Start a timer of N minutes: the ``timer`` row of ``clock/timers`` has that length and
    is running; the stopwatch is left alone. Fewer goals: the app opens its timer at 5:00
    and steps it by one minute, and the goals name four lengths three or four taps away."""

    id = "ClockStartTimer"
    apps = ("clock",)
    difficulty = "easy"
    tags = ("form", "time")
    optimal_steps = 8
    may_change = ("clock/timers",)
    params_schema = {"minutes": int}
    template = "Start a {minutes}-minute timer."
    paraphrases = {
        "train": ("Set a timer for {minutes} minutes and start it.",
                  "Count down {minutes} minutes with the Clock's timer."),
        "test": ("I need a {minutes} minute countdown running, please.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        timer = _timer(probe)
        free = [m for m in MINUTES if m * 60 != int(timer["seconds"])]
        if not free:
            raise NoInstance("the timer already has every length a goal names")
        return {"minutes": free[int(rng.integers(len(free)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        secs = self.params["minutes"] * 60
        return self.expect(changed("clock/timers", "timer", seconds=secs, state="running",
                                   left=between(1, secs), since=CLOCK_TIME))

    def _start(self, device: Device, minutes: int, start: bool = True) -> Iterator[Action]:
        yield from to_tab(device, "timer")
        yield from _set_timer(device, minutes)
        if start:
            yield tap(device, desc="Start")
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._start(device, self.params["minutes"])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sets the length right but never presses Start."""
        yield from self._start(device, self.params["minutes"], start=False)


@register_task
class ClockStopwatchSpan(Task):
    """Time a span with the stopwatch: the ``stopwatch`` row of ``clock/timers`` is stopped
    (paused) at a total of at least N seconds and at most :data:`SLACK` more, with no laps;
    the timer is left alone. Nothing but the clock moving shows the span, so starting and
    stopping at once, or stopping far too late, fails. Fewer goals: four spans, multiples of
    five seconds, so the oracle's waits stay within three of each other."""

    id = "ClockStopwatchSpan"
    apps = ("clock",)
    difficulty = "medium"
    tags = ("time", "wait")
    optimal_steps = 3 + math.ceil((max(SPANS) - ACTION_SECONDS) / WAIT_SECONDS) + 2
    may_change = ("clock/timers",)
    params_schema = {"seconds": int}
    template = ("Time {seconds} seconds with the stopwatch: start it, and stop it as soon as it "
                "shows {seconds} seconds.")
    paraphrases = {
        "train": ("Use the stopwatch to measure {seconds} seconds, then stop it.",
                  "Run the stopwatch for {seconds} seconds and pause it right there."),
        "test": ("Let the stopwatch count up to {seconds} seconds and stop it when it gets "
                 "there.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        watch = next(r for r in probe.query("clock/timers") if r["_id"] == "stopwatch")
        if watch["state"] != "reset":
            raise NoInstance("the stopwatch is already in use")
        return {"seconds": int(SPANS[int(rng.integers(len(SPANS)))])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        n = self.params["seconds"]
        return self.expect(changed("clock/timers", "stopwatch", state="paused",
                                   seconds=between(n, n + SLACK)))

    def _time(self, device: Device, until: int) -> Iterator[Action]:
        """Start it, wait while the digits are short of ``until`` (a tap takes a moment
        too), then stop it."""
        yield from to_tab(device, "stopwatch")
        yield tap(device, desc="Start")
        while (shown_seconds(text_of(device, rid="stopwatch_time_text")) or 0) \
                + ACTION_SECONDS < until:
            yield Action("wait")
        yield tap(device, desc="Pause")
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._time(device, self.params["seconds"])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Stops it one wait too early."""
        yield from self._time(device, self.params["seconds"] - WAIT_SECONDS)
