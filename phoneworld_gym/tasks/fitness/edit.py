"""Fitness tasks that change data: log a swim done yesterday (date and time pickers), set
the daily step goal or the weekly active-minutes goal (slider), set the minutes goal from
last week's total (read, convert, round, slide), delete an activity (behind
a confirmation), and two that cannot be done: sync a watch that was never paired, and log a
run that has not happened yet."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.fitness.common import (
    GOALS,
    activities,
    clock,
    day_words,
    distinct,
    goal_target,
    log_activity,
    minutes_of,
    open_activity,
    set_goal,
    start,
    to_journal,
    to_main,
    week_start,
)
from phoneworld_gym.tasks.kit import choice, pick_date, today
from phoneworld_gym.validators import added, changed, removed


@register_task
class FitnessLogSwim(Task):
    """Log yesterday's swim by hand: exactly one manual swim row is added, starting yesterday
    at the given time, with the given minutes and kilometres."""

    id = "FitnessLogSwim"
    apps = ("fitness",)
    difficulty = "medium"
    tags = ("form", "date-picker", "time-picker")
    optimal_steps = 15
    may_change = ("fitness/activities",)
    params_schema = {"minutes": int, "time": str, "hour": int, "minute": int, "km": str}
    template = "Log a {minutes}-minute swim yesterday at {time}, {km} km."
    paraphrases = {
        "train": ("Add yesterday's swim to Fitness: started {time}, {minutes} minutes, "
                  "{km} km.",
                  "I swam {km} km yesterday starting at {time}; it took {minutes} minutes. "
                  "Record it."),
        "test": ("My watch was off for yesterday's {time} pool session. Enter it by hand: "
                 "{minutes} min swimming, {km} kilometres.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hour = int(rng.choice([6, 7, 8, 12, 17, 18, 19]))
        minute = int(rng.choice([0, 15, 30, 45]))
        minutes = int(rng.integers(4, 13)) * 5
        km = f"{rng.integers(16, 49) * 0.05:.2f}"
        return {"minutes": minutes, "time": clock(dt.time(hour, minute)), "hour": hour,
                "minute": minute, "km": km}

    def _when(self) -> dt.datetime:
        yesterday = self.start_day() - dt.timedelta(days=1)
        return dt.datetime.combine(yesterday, dt.time(self.params["hour"], self.params["minute"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("fitness/activities", {
            "type": "swim", "start": self._when().isoformat(timespec="minutes"),
            "duration_min": p["minutes"], "distance_km": float(p["km"]), "source": "Manual"}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from log_activity(device, "swim", self._when(), self.params["minutes"],
                                self.params["km"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right swim, an hour earlier."""
        yield from log_activity(device, "swim", self._when() - dt.timedelta(hours=1),
                                self.params["minutes"], self.params["km"])
        yield Action("status", goal_status="complete")


class _SetGoal(Task):
    """Set one goal (``which``) to ``target`` with the editor's slider."""

    which = "daily_steps"
    apps = ("fitness",)
    difficulty = "easy"
    tags = ("slider",)
    optimal_steps = 6
    may_change = ("fitness/goals",)
    params_schema = {"target": int}

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        _, _, lo, hi, step = GOALS[cls.which]
        now = goal_target(probe.query("fitness/goals"), cls.which)
        options = [v for v in range(lo + 2 * step, hi - step, step) if v != now]
        return {"target": int(options[int(rng.integers(len(options)))])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("fitness/goals", GOALS[self.which][0],
                                   target=self.params["target"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from set_goal(device, self.which, self.params["target"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One step of the scale too high."""
        yield from set_goal(device, self.which, self.params["target"] + GOALS[self.which][4])
        yield Action("status", goal_status="complete")


@register_task
class FitnessSetStepGoal(_SetGoal):
    """Set the daily step goal: the ``daily_steps`` row of ``fitness/goals`` takes the new
    target."""

    id = "FitnessSetStepGoal"
    which = "daily_steps"
    template = "Set my daily step goal to {target:,} steps."
    paraphrases = {
        "train": ("Change the steps goal in Fitness to {target:,} a day.",
                  "I want to walk {target:,} steps every day. Update my goal."),
        "test": ("Make {target:,} my new target for steps per day in the fitness app.",),
    }


@register_task
class FitnessSetMinutesGoal(_SetGoal):
    """Set the weekly active-minutes goal: the ``weekly_active_minutes`` row of
    ``fitness/goals`` takes the new target."""

    id = "FitnessSetMinutesGoal"
    which = "weekly_active_minutes"
    split = "test"
    template = "Set my weekly active minutes goal to {target} minutes."
    paraphrases = {
        "test": ("I'd like to be active {target} minutes a week from now on; set that goal.",
                 "Change Fitness's weekly target for active time to {target} min."),
    }


def _round10(minutes: int) -> tuple[int, ...]:
    """``minutes`` to the nearest 10 (both neighbours when it ends in 5)."""
    low = minutes // 10 * 10
    if minutes % 10 == 5:
        return (low, low + 10)
    return (low + 10,) if minutes % 10 > 5 else (low,)


@register_task
class FitnessMinutesGoalFromLastWeek(Task):
    """Set the weekly active-minutes goal to last week's (Monday to Sunday) total active time,
    rounded to the nearest 10 minutes: the ``weekly_active_minutes`` row takes that value.
    The total is shown as hours and minutes in the journal, so it has to be converted. Setup
    moves the goal away from that value when it already holds it."""

    id = "FitnessMinutesGoalFromLastWeek"
    apps = ("fitness",)
    difficulty = "hard"
    tags = ("slider", "read-then-write", "arithmetic")
    optimal_steps = 10
    may_change = ("fitness/goals",)
    template = ("Set my weekly active minutes goal to the active time I actually logged last "
                "week (Monday to Sunday), rounded to the nearest 10 minutes.")
    constraints = (("Monday to Sunday", "Monday through Sunday"),)
    paraphrases = {
        "train": ("Make last week's total active minutes (Monday to Sunday, to the nearest "
                  "ten) my new weekly goal in Fitness.",),
        "test": ("Whatever I did last week, Monday through Sunday, in active time: round it to "
                 "a multiple of 10 minutes and use it as my weekly target.",),
    }

    @staticmethod
    def _last_week(rows: list[dict[str, Any]], now: dt.date) -> int:
        """The active minutes of ``rows`` in the week before ``now``'s."""
        first = week_start(now) - dt.timedelta(days=7)
        return sum(int(r["duration_min"]) for r in rows
                   if first <= start(r).date() <= first + dt.timedelta(days=6))

    def setup(self, device: Device) -> None:
        want = _round10(self._last_week(activities(device.probe), today(device.probe)))
        if goal_target(device.probe.query("fitness/goals"), "weekly_active_minutes") in want:
            device.fixture("fitness", "set_goal", goal="weekly_active_minutes",
                           target=150 if want[0] != 150 else 180)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = _round10(self._last_week(self.before("fitness/activities"), self.start_day()))
        return self.expect(changed("fitness/goals", GOALS["weekly_active_minutes"][0],
                                   target=lambda v: v in want))

    def _set(self, device: Device, week_back: int) -> Iterator[Action]:
        yield from to_journal(device, back=week_back)
        total = minutes_of(text_of(device, rid="summary_time") or "")
        _, _, lo, hi, _ = GOALS["weekly_active_minutes"]
        value = max(lo, min(hi, (total + 5) // 10 * 10))  # a Monday's week may hold nothing yet
        if week_back != 1 and value in _round10(self._last_week(activities(device.probe),
                                                                self.start_day())):
            value += 10  # the near miss must miss
        yield from set_goal(device, "weekly_active_minutes", value)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, 1)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """This week's total so far instead of last week's."""
        yield from self._set(device, 0)
        yield Action("status", goal_status="complete")


@register_task
class FitnessDeleteActivity(Task):
    """Delete one activity (named by type and day): exactly that row of
    ``fitness/activities`` goes."""

    id = "FitnessDeleteActivity"
    apps = ("fitness",)
    difficulty = "medium"
    tags = ("confirm-dialog", "filter")
    optimal_steps = 9
    may_change = ("fitness/activities",)
    params_schema = {"id": int, "kind": str, "day": str}
    template = "Delete the {kind} from {day} in Fitness."
    paraphrases = {
        "train": ("Remove my {kind} on {day} from the fitness journal.",
                  "That {kind} on {day} was logged by mistake. Delete it."),
        "test": ("Get rid of the {kind} entry dated {day} in my activity tracker.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in distinct(activities(probe))
                if start(r).date() >= today(probe) - dt.timedelta(days=20)]
        r = choice(rng, rows)
        return {"id": int(r["_id"]), "kind": str(r["type"]), "day": day_words(start(r).date())}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("fitness/activities", self.params["id"]))

    def _delete(self, device: Device, aid: int, filtered: bool = True) -> Iterator[Action]:
        row = next(r for r in activities(device.probe) if r["_id"] == aid)
        yield from open_activity(device, row, filtered)
        yield tap(device, desc="Delete activity")
        yield tap(device, text="Delete", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["id"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the activity in the week's whole journal, without the type filter."""
        yield from self._delete(device, self.params["id"], filtered=False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the activity of the same type just before it (of any type when it is
        the only one of its type)."""
        rows = sorted((r for r in activities(device.probe) if r["type"] == self.params["kind"]),
                      key=lambda r: str(r["start"]))
        if len(rows) < 2:
            rows = sorted(activities(device.probe), key=lambda r: str(r["start"]))
        i = next(k for k, r in enumerate(rows) if r["_id"] == self.params["id"])
        yield from self._delete(device, int(rows[i - 1 if i > 0 else i + 1]["_id"]))
        yield Action("status", goal_status="complete")


WATCHES: tuple[str, ...] = ("Pixel Watch", "Galaxy Watch", "Garmin Forerunner",
                            "Fitbit Charge", "Amazfit Balance")


@register_task
class FitnessSyncWatch(Task):
    """Infeasible by design: no watch is paired, and pairing finds none, so there is nothing
    to sync; the right move is to look and say so. Fewer goals: the watch brands the goal
    names (five) and the two periods."""

    id = "FitnessSyncWatch"
    apps = ("fitness",)
    difficulty = "medium"
    tags = ("infeasible",)
    optimal_steps = 5
    feasible = False
    params_schema = {"watch": str, "period": str}
    template = "Sync {period}'s workouts from my {watch} into Fitness."
    paraphrases = {
        "train": ("Import the workouts my {watch} recorded {period} into the fitness app.",),
        "test": ("Pull {period}'s training sessions off my {watch} so they show up in "
                 "Fitness.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"watch": WATCHES[int(rng.integers(len(WATCHES)))],
                "period": ("today", "yesterday")[int(rng.integers(2))]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, desc="Profile", rid="nav_profile")
        yield tap(device, desc="Connected apps & devices")
        yield tap(device, text="Pair a watch", rid="pair_watch")
        if not text_of(device, rid="pair_result"):
            raise RuntimeError("pairing did not report its result")
        yield Action("status", goal_status="infeasible")


@register_task
class FitnessLogNextWeek(Task):
    """Infeasible by design: an activity can only be logged once it has happened; Save
    refuses a start in the future. The right move is to say it cannot be done."""

    id = "FitnessLogNextWeek"
    apps = ("fitness",)
    difficulty = "easy"
    tags = ("infeasible", "date-picker")
    optimal_steps = 9
    feasible = False
    params_schema = {"minutes": int, "day": str, "date": str}
    template = "Log a {minutes}-minute run for next {day} in Fitness."
    paraphrases = {
        "train": ("Add next {day}'s {minutes}-minute run to my fitness journal now.",),
        "test": ("I'm going to run for {minutes} minutes next {day}. Put it in my activity "
                 "log already.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = today(probe) + dt.timedelta(days=int(rng.integers(2, 9)))
        return {"minutes": int(rng.integers(4, 19)) * 5, "day": d.strftime("%A"),
                "date": d.isoformat()}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, desc="Add activity", rid="add_activity")
        yield tap(device, text="Run", rid="type_chip")
        yield from pick_date(device, dt.date.fromisoformat(self.params["date"]), "start_date")
        yield type_into(device, str(self.params["minutes"]), rid="duration")
        yield tap(device, text="Save", rid="save")
        if not text_of(device, rid="error_text"):
            raise RuntimeError("Save accepted a future activity")
        yield Action("status", goal_status="infeasible")
