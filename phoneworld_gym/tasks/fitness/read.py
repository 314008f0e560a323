"""Fitness information-retrieval tasks: the longest run this month, the distance ridden
last week and one activity's calories. The right answer comes from the start state's
``fitness/activities`` rows (reading changes nothing)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import OracleError, text_of
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.fitness.common import (
    activities,
    day_words,
    distinct,
    in_days,
    journal_figures,
    last_week,
    number_in,
    open_activity,
    start,
    this_month,
    to_journal,
)
from phoneworld_gym.tasks.kit import choice, today


@register_task
class FitnessLongestRunThisMonth(Task):
    """The longest run (by distance) since the first of this month, in kilometres, read off
    the journal's month view filtered to runs."""

    id = "FitnessLongestRunThisMonth"
    apps = ("fitness",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("tabs", "filter", "compare")
    optimal_steps = 6
    answer_matcher = NumberMatch(tol=0.006)
    template = "How far was my longest run this month, in kilometres?"
    constraints = (("km", "kilometre", "kilometer"),)
    paraphrases = {
        "train": ("What distance, in km, did my longest run this month cover?",
                  "Check Fitness: how many km was the longest run I did this month?"),
        "test": ("Of all the runs I've logged since the 1st, which went furthest? Tell me "
                 "its distance in km.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        if not in_days(activities(probe), *this_month(today(probe)), kind="run"):
            raise NoInstance("no run this month yet")  # the 1st, early: none has happened
        return {}

    def _runs(self) -> list[float]:
        rows = in_days(self.before("fitness/activities"), *this_month(self.start_day()),
                       kind="run")
        return sorted((float(r["distance_km"]) for r in rows), reverse=True)

    def expected_answer(self, device: Device) -> Any:
        return self._runs()[0]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_journal(device, month=True, kind="run")
        figures = yield from journal_figures(device)
        best = max(number_in(f) for f in figures)
        yield Action("answer", text=f"{best:.2f} km")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The second-longest run this month (or a kilometre more when there is one run)."""
        runs = self._runs()
        wrong = runs[1] if len(runs) > 1 and runs[0] - runs[1] > 0.01 else runs[0] + 1
        yield Action("answer", text=f"{wrong:.2f} km")


@register_task
class FitnessRideDistanceLastWeek(Task):
    """The total distance ridden last week (Monday to Sunday), read off the journal's
    previous week filtered to rides."""

    id = "FitnessRideDistanceLastWeek"
    apps = ("fitness",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("filter", "aggregate")
    split = "test"
    optimal_steps = 5
    answer_matcher = NumberMatch(tol=0.006)
    template = "How many kilometres did I ride in total last week (Monday to Sunday)?"
    constraints = (("km", "kilometre"), "Monday to Sunday")
    paraphrases = {
        "test": ("Add up every bike ride from last week (Monday to Sunday): what distance in "
                 "km do they come to?",
                 "Tell me last week's total cycling distance, Monday to Sunday, in kilometres "
                 "from my fitness app."),
    }

    def _total(self, kind: str) -> float:
        rows = in_days(self.before("fitness/activities"), *last_week(self.start_day()),
                       kind=kind)
        return round(sum(float(r["distance_km"]) for r in rows), 2)

    def expected_answer(self, device: Device) -> Any:
        return self._total("ride")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_journal(device, back=1, kind="ride")
        shown = text_of(device, rid="summary_distance")
        if not shown:
            raise OracleError("no summary distance on the journal")
        yield Action("answer", text=shown)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Every activity's distance last week, not only the rides'."""
        total, rides = self._total("all"), self._total("ride")
        wrong = total if abs(total - rides) > 0.01 else rides + 1
        yield Action("answer", text=f"{wrong:.2f} km")


@register_task
class FitnessActivityCalories(Task):
    """How many calories one activity burned, read off its page."""

    id = "FitnessActivityCalories"
    apps = ("fitness",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("navigation",)
    optimal_steps = 8
    answer_matcher = NumberMatch(tol=0.5)
    params_schema = {"id": int, "kind": str, "day": str}
    template = "How many calories did I burn on my {kind} on {day}?"
    paraphrases = {
        "train": ("What's the calorie count of the {kind} I did on {day}?",
                  "Look up my {kind} from {day} in Fitness: how many calories?"),
        "test": ("I went for a {kind} on {day}. How much energy, in calories, did that "
                 "take according to my tracker?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in distinct(activities(probe))
                if start(r).date() >= today(probe) - dt.timedelta(days=27)]
        r = choice(rng, rows)
        return {"id": int(r["_id"]), "kind": str(r["type"]), "day": day_words(start(r).date())}

    def _row(self) -> dict[str, Any]:
        return next(r for r in self.before("fitness/activities") if r["_id"] == self.params["id"])

    def expected_answer(self, device: Device) -> Any:
        return int(self._row()["calories"])

    def _read(self, device: Device, filtered: bool = True) -> Iterator[Action]:
        yield from open_activity(device, self._row(), filtered)
        shown = text_of(device, rid="stat_calories")
        if not shown:
            raise OracleError("no calories on the activity's page")
        yield Action("answer", text=shown)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the activity in the week's whole journal, without the type filter."""
        yield from self._read(device, filtered=False)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The calories of the activity before it."""
        rows = sorted(self.before("fitness/activities"), key=lambda r: str(r["start"]))
        i = next(k for k, r in enumerate(rows) if r["_id"] == self.params["id"])
        other = [r for r in rows if r["calories"] != self._row()["calories"]]
        wrong = rows[i - 1] if i > 0 and rows[i - 1] in other else other[0]
        yield Action("answer", text=f"{wrong['calories']} Cal")

