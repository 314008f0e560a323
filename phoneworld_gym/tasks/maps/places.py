"""Maps tasks: travel time and distance, opening hours and phone numbers (information
retrieval), saving and unsaving places, and ferry directions that Maps does not offer."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch, PhoneMatch, TimeMatch
from phoneworld_gym.oracle import scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.maps.common import (
    DAYS,
    browse_to_place,
    businesses,
    by_key,
    closing_text,
    grid_miles,
    home,
    open_place,
    places,
    to_explore,
    walk_minutes,
)
from phoneworld_gym.validators import added, removed


@register_task
class MapsWalkTime(Task):
    """How long the walk from home to a place takes (minutes, as Maps shows it for Walk).
    Places more than an hour's walk away are not asked about, so the answer is one number of
    minutes."""

    id = "MapsWalkTime"
    apps = ("maps",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("directions",)
    optimal_steps = 7
    answer_matcher = NumberMatch()
    params_schema = {"place": str, "key": str}
    template = "How many minutes does it take to walk from home to {place}?"
    constraints = ("minutes",)
    paraphrases = {
        "train": ("I want to walk to {place} from my home. How long will it take, in minutes?",
                  "Check Maps: how many minutes is the walk from home to {place}?"),
        "test": ("If I leave home on foot now, how many minutes until I reach {place}?",
                 "Tell me the walking time in minutes between my house and {place}."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = places(probe)
        me = home(rows)
        near = [r for r in businesses(probe) if walk_minutes(me, r) < 60]
        row = choice(rng, near)
        return {"place": row["name"], "key": row["_id"]}

    def expected_answer(self, device: Device) -> Any:
        rows = places(device.probe)
        return walk_minutes(home(rows), by_key(rows, self.params["key"]))

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        yield from via(device, self.params["place"])
        yield tap(device, rid="directions")
        yield tap(device, rid="mode_walk")
        yield Action("answer", text=text_of(device, rid="route_time") or "")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its pin on the map or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the driving time instead."""
        rows = places(device.probe)
        miles = grid_miles(home(rows), by_key(rows, self.params["key"]))
        drive = max(1, int(round(miles / 24 * 60 + 2)))
        walk = self.expected_answer(device)
        yield Action("answer", text=f"{drive if drive != walk else walk + 1} min")


@register_task
class MapsClosingTime(Task):
    """When a business closes on a given day (read from its place sheet). Days it is closed
    are not asked about."""

    id = "MapsClosingTime"
    apps = ("maps",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("search", "hours")
    optimal_steps = 5
    answer_matcher = TimeMatch()
    params_schema = {"place": str, "key": str, "day": str}
    template = "What time does {place} close on {day}?"
    paraphrases = {
        "train": ("Look up {place} in Maps. When does it close on {day}?",
                  "Until what time is {place} open on {day}?"),
        "test": ("I'm planning to stop by {place} on {day}. What's the latest I can get there "
                 "before it closes?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = choice(rng, businesses(probe))
        open_days = [d for d in DAYS if row[f"close_{d.lower()}"] >= 0]
        day = open_days[int(rng.integers(len(open_days)))]
        return {"place": row["name"], "key": row["_id"], "day": day}

    def expected_answer(self, device: Device) -> Any:
        row = by_key(places(device.probe), self.params["key"])
        minutes = int(row[f"close_{self.params['day'].lower()}"])
        return dt.time(minutes // 60 % 24, minutes % 60)

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        rid = f"hours_{self.params['day'].lower()}"
        yield from via(device, self.params["place"])
        yield from scroll_to(device, rid=rid)
        yield Action("answer", text=closing_text(text_of(device, rid=rid) or ""))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its pin on the map or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the opening time of that day."""
        row = by_key(places(device.probe), self.params["key"])
        opening = row[f"hours_{self.params['day'].lower()}"].split("–")[0].strip()
        yield Action("answer", text=opening)


@register_task
class MapsPlacePhone(Task):
    """A business's phone number, from its place sheet."""

    id = "MapsPlacePhone"
    apps = ("maps",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 5
    answer_matcher = PhoneMatch()
    params_schema = {"place": str, "key": str}
    template = "What is the phone number of {place}?"
    paraphrases = {
        "test": ("Find {place} on the map and tell me their phone number.",
                 "I need to call {place}. Which number should I dial?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = choice(rng, businesses(probe))
        return {"place": row["name"], "key": row["_id"]}

    def expected_answer(self, device: Device) -> Any:
        return by_key(places(device.probe), self.params["key"])["phone"]

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        yield from via(device, self.params["place"])
        yield from scroll_to(device, rid="phone_title")
        yield Action("answer", text=text_of(device, rid="phone_title") or "")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its pin on the map or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the number of another business of the same kind."""
        rows = businesses(device.probe)
        me = by_key(rows, self.params["key"])
        same = [r for r in rows if r["_id"] != me["_id"] and r["category"] == me["category"]]
        other = (same or [r for r in rows if r["_id"] != me["_id"]])[0]
        yield Action("answer", text=other["phone"])


@register_task
class MapsDriveDistance(Task):
    """The driving distance between two businesses (miles, to a tenth): the agent has to set
    both ends of the route, not just the destination."""

    id = "MapsDriveDistance"
    apps = ("maps",)
    category = "information-retrieval"
    difficulty = "hard"
    split = "test"
    tags = ("directions",)
    optimal_steps = 9
    answer_matcher = NumberMatch(tol=0.051)
    params_schema = {"start": str, "start_key": str, "end": str, "end_key": str}
    template = "How many miles is the drive from {start} to {end}?"
    constraints = ("miles",)
    paraphrases = {
        "test": ("Using Maps, find the driving distance in miles between {start} and {end}.",
                 "I'm at {start} and need to drive to {end}. How far is that in miles?",
                 "Get driving directions from {start} to {end} in Maps: how many miles is the "
                 "route?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = businesses(probe)
        a = choice(rng, rows)
        b = choice(rng, [r for r in rows if r["_id"] != a["_id"] and grid_miles(a, r) > 0.2])
        return {"start": a["name"], "start_key": a["_id"], "end": b["name"], "end_key": b["_id"]}

    def expected_answer(self, device: Device) -> Any:
        rows = places(device.probe)
        return grid_miles(by_key(rows, self.params["start_key"]),
                          by_key(rows, self.params["end_key"]))

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        yield from via(device, self.params["end"])
        yield tap(device, rid="directions")
        yield tap(device, rid="frm_field")
        yield type_into(device, self.params["start"], rid="search_field")
        yield tap(device, text=self.params["start"], rid="result_title")
        text = (text_of(device, rid="route_distance") or "").strip("()")
        yield Action("answer", text=text)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the destination from its map pin or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the distance from home instead (or off by a mile if that is the
        same)."""
        rows = places(device.probe)
        wrong = grid_miles(home(rows), by_key(rows, self.params["end_key"]))
        if abs(wrong - self.expected_answer(device)) < 0.1:
            wrong += 1.0
        yield Action("answer", text=f"{wrong:.1f} mi")


def _saved(probe: Probe) -> list[dict[str, Any]]:
    return probe.query("maps/saved")


@register_task
class MapsSaveWantToGo(Task):
    """Save a business to the "Want to go" list: one ``maps/saved`` row is added."""

    id = "MapsSaveWantToGo"
    apps = ("maps",)
    difficulty = "easy"
    tags = ("search", "save")
    optimal_steps = 8
    may_change = ("maps/saved",)
    params_schema = {"place": str, "key": str}
    template = "Save {place} to my Want to go list in Maps."
    paraphrases = {
        "train": ("Add {place} to the Want to go list in Maps.",
                  "In Maps, put {place} on my Want to go list."),
        "test": ("I'd like to visit {place} some day. Save it in Maps under Want to go.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {s["place"] for s in _saved(probe) if s["list"] == "Want to go"}
        row = choice(rng, [r for r in businesses(probe) if r["_id"] not in taken])
        return {"place": row["name"], "key": row["_id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("maps/saved", {"list": "Want to go",
                                               "place": self.params["key"]}))

    def _save_to(self, device: Device, name: str, rid: str,
                 browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_place if browse else open_place)(device, name)
        yield tap(device, rid="save")
        yield tap(device, rid=rid)
        yield tap(device, text="Done")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._save_to(device, self.params["place"], "list_want_to_go")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its pin on the map or a search of its category, not its name."""
        yield from self._save_to(device, self.params["place"], "list_want_to_go", browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves it to Favorites instead (or, when it is there already, takes it off)."""
        yield from self._save_to(device, self.params["place"], "list_favorites")
        yield Action("status", goal_status="complete")


@register_task
class MapsRemoveFavorite(Task):
    """Take a place off the Favorites list (setup saves it there first): its ``maps/saved``
    row is removed and nothing else changes."""

    id = "MapsRemoveFavorite"
    apps = ("maps",)
    difficulty = "easy"
    tags = ("save", "delete")
    optimal_steps = 5
    may_change = ("maps/saved",)
    params_schema = {"place": str, "key": str}
    template = "Remove {place} from my Favorites in Maps."
    paraphrases = {
        "train": ("Take {place} off my Favorites list in Maps.",
                  "In Maps, {place} shouldn't be a favorite anymore. Remove it."),
        "test": ("Unsave {place} from the Favorites list in my Maps app.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {s["place"] for s in _saved(probe)}
        row = choice(rng, [r for r in businesses(probe) if r["_id"] not in taken])
        return {"place": row["name"], "key": row["_id"]}

    def setup(self, device: Device) -> None:
        device.fixture("maps", "save_place", place=self.params["key"], list="Favorites")

    def _row_id(self) -> Any:
        return next(r["_id"] for r in self.before("maps/saved")
                    if r["place"] == self.params["key"] and r["list"] == "Favorites")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("maps/saved", self._row_id()))

    def _remove(self, device: Device, name: str) -> Iterator[Action]:
        yield from to_explore(device)
        yield tap(device, desc="Saved")
        yield tap(device, text="Favorites")
        yield from scroll_to(device, desc=f"Remove {name}")
        yield tap(device, desc=f"Remove {name}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._remove(device, self.params["place"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Removes another favorite instead."""
        other = next(r["name"] for r in self.before("maps/saved")
                     if r["list"] == "Favorites" and r["place"] != self.params["key"])
        yield from self._remove(device, other)
        yield Action("status", goal_status="complete")


@register_task
class MapsFerryDirections(Task):
    """Infeasible by design: Maps offers driving, transit, walking and cycling routes, no
    ferry. The right end is ``status: infeasible`` with nothing changed."""

    id = "MapsFerryDirections"
    apps = ("maps",)
    difficulty = "medium"
    feasible = False
    tags = ("directions",)
    optimal_steps = 6
    params_schema = {"place": str, "key": str}
    template = "Show me the ferry route from home to {place} in Maps."
    paraphrases = {
        "train": ("Get ferry directions from my home to {place}.",
                  "In Maps, find how to get from home to {place} by ferry."),
        "test": ("I want to take the ferry from home to {place}. Pull up the ferry directions.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = choice(rng, businesses(probe))
        return {"place": row["name"], "key": row["_id"]}

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        yield from via(device, self.params["place"])
        yield tap(device, rid="directions")  # drive, transit, walk, bike: no ferry
        yield Action("status", goal_status="infeasible")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its pin on the map or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shows the transit route and calls it done."""
        yield from open_place(device, self.params["place"])
        yield tap(device, rid="directions")
        yield tap(device, rid="mode_transit")
        yield Action("status", goal_status="complete")
