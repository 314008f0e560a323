"""Clock's world clock: add a city (the app's own ``clock/cities`` table, PhoneWorld only)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.clock.common import to_alarms
from phoneworld_gym.validators import added

CITIES = ("Auckland", "Berlin", "Cairo", "Chicago", "Dubai", "Hong Kong", "Honolulu", "London",
          "Los Angeles", "Mexico City", "Moscow", "Mumbai", "New York", "Paris", "Seoul",
          "Singapore", "Sydney", "Tokyo", "Toronto")


@register_task
class ClockAddCity(Task):
    """Add a city to the world clock: one ``clock/cities`` row with that name is added.
    Fewer goals: the app knows twenty cities, one or two already shown."""

    id = "ClockAddCity"
    apps = ("clock",)
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 6
    may_change = ("clock/cities",)
    params_schema = {"city": str}
    template = "Add {city} to my world clock."
    paraphrases = {
        "train": ("Show the time in {city} in the Clock app.",
                  "Put {city} on my list of world clocks."),
        "test": ("I want to keep track of what time it is in {city}; add it to the Clock.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        have = {r["_id"] for r in probe.query("clock/cities")}
        free = [c for c in CITIES if c not in have]
        return {"city": free[int(rng.integers(len(free)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("clock/cities", {"_id": self.params["city"]}))

    def _add(self, device: Device, city: str, browse: bool = False) -> Iterator[Action]:
        yield from to_alarms(device)
        yield tap(device, rid="nav_clock")
        yield tap(device, desc="Add city")
        if browse:  # down the whole list instead of searching
            yield from scroll_to(device, text=city, cls="CheckBox")
        else:
            yield type_into(device, city, rid="search_src_text")
        yield tap(device, text=city, cls="CheckBox")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, self.params["city"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Scroll the list of cities to it instead of searching."""
        yield from self._add(device, self.params["city"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds the city listed after it that is not shown yet."""
        have = {r["_id"] for r in self.before("clock/cities")} | {self.params["city"]}
        i = CITIES.index(self.params["city"])
        other = next(c for c in CITIES[i + 1:] + CITIES[:i] if c not in have)
        yield from self._add(device, other)
        yield Action("status", goal_status="complete")
