"""Rides tasks that change rides: book one now, schedule one for later (date and time
pickers), cancel a scheduled ride, and a ride type with no drivers nearby (infeasible)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.rides.common import (
    available,
    book,
    by_key,
    clock,
    day_words,
    future_time,
    open_scheduled,
    places,
    short_day,
    to_activity,
    unavailable,
)
from phoneworld_gym.validators import added, changed


def _route(rng: np.random.Generator, probe: Probe) -> tuple[dict[str, Any], dict[str, Any]]:
    """From Home or Work to a landmark (or to the other one)."""
    pickup = choice(rng, places(probe, "home", "work"))
    dropoff = choice(rng, [p for p in places(probe, "home", "work", "place")
                           if p["key"] != pickup["key"]])
    return pickup, dropoff


@register_task
class RidesBookNow(Task):
    """Request a ride now of a given type between two places: exactly one active trip of
    that type from that pickup to that drop-off is added."""

    id = "RidesBookNow"
    apps = ("rides",)
    difficulty = "medium"
    tags = ("search", "confirmation")
    optimal_steps = 10
    may_change = ("rides/trips",)
    params_schema = {"type": str, "pickup": str, "pickup_key": str, "dropoff": str,
                     "dropoff_key": str}
    template = "Get me a ride from {pickup} to {dropoff} right now, ride type {type}."
    constraints = (("now", "immediately"),)
    paraphrases = {
        "train": ("Book a ride from {pickup} to {dropoff} leaving now; choose {type}.",
                  "Request a car now ({type}): pickup at {pickup}, drop-off at {dropoff}."),
        "test": ("I need to get from {pickup} to {dropoff} immediately. Order the {type} "
                 "option in my ride app.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        a, b = _route(rng, probe)
        kinds = available(probe)
        return {"type": kinds[int(rng.integers(len(kinds)))], "pickup": a["name"],
                "pickup_key": a["key"], "dropoff": b["name"], "dropoff_key": b["key"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("rides/trips", {
            "pickup_key": p["pickup_key"], "dropoff_key": p["dropoff_key"], "type": p["type"],
            "status": "active"}))

    def _book(self, device: Device, kind: str) -> Iterator[Action]:
        p = self.params
        yield from book(device, by_key(device.probe, p["pickup_key"]),
                        by_key(device.probe, p["dropoff_key"]), kind)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._book(device, self.params["type"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Books another available ride type."""
        wrong = next(k for k in available(device.probe) if k != self.params["type"])
        yield from self._book(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class RidesSchedule(Task):
    """Schedule a ride from Home for a later day and time (date picker, then time picker):
    exactly one scheduled ride with that type, route and pickup time is added."""

    id = "RidesSchedule"
    apps = ("rides",)
    difficulty = "hard"
    tags = ("date-picker", "time-picker", "search", "confirmation")
    optimal_steps = 16
    may_change = ("rides/scheduled",)
    params_schema = {"type": str, "dropoff": str, "dropoff_key": str, "at": str, "day": str,
                     "time": str}
    template = "Schedule a ride from Home to {dropoff} for {day} at {time}, ride type {type}."
    constraints = (("from home", "at home", "home to"),)
    paraphrases = {
        "train": ("Reserve a car ({type}) to {dropoff} picking me up at home on {day}, {time}.",
                  "Book a ride for later: {type}, Home to {dropoff}, pickup {day} at {time}."),
        "test": ("On {day} I have to be picked up at home at {time} and driven to {dropoff}. "
                 "Set that up in advance, with {type} as the ride type.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        b = choice(rng, places(probe, "work", "place"))
        kinds = available(probe)
        at = future_time(rng, today(probe), (1, 20))
        return {"type": kinds[int(rng.integers(len(kinds)))], "dropoff": b["name"],
                "dropoff_key": b["key"], "at": at.isoformat(timespec="minutes"),
                "day": day_words(at.date()), "time": clock(at)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("rides/scheduled", {
            "pickup_key": "home", "dropoff_key": p["dropoff_key"], "type": p["type"],
            "pickup_at": p["at"], "status": "scheduled"}))

    def _book(self, device: Device, at: dt.datetime) -> Iterator[Action]:
        p = self.params
        yield from book(device, by_key(device.probe, "home"),
                        by_key(device.probe, p["dropoff_key"]), p["type"], at)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._book(device, dt.datetime.fromisoformat(self.params["at"]))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right ride half an hour late."""
        yield from self._book(device, dt.datetime.fromisoformat(self.params["at"])
                              + dt.timedelta(minutes=30))
        yield Action("status", goal_status="complete")


@register_task
class RidesCancelScheduled(Task):
    """Cancel a scheduled ride (confirming in the dialog): its status becomes canceled and
    nothing else changes."""

    id = "RidesCancelScheduled"
    apps = ("rides",)
    difficulty = "easy"
    tags = ("dialog",)
    optimal_steps = 6
    may_change = ("rides/scheduled",)
    params_schema = {"dropoff": str, "day": str, "id": int}
    template = "Cancel my scheduled ride to {dropoff} on {day}."
    paraphrases = {
        "train": ("I no longer need the {day} ride to {dropoff}; cancel it.",
                  "Call off the ride to {dropoff} I reserved for {day}."),
        "test": ("Plans changed: the car booked to take me to {dropoff} on {day} should be "
                 "canceled.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, [s for s in probe.query("rides/scheduled")
                         if s["status"] == "scheduled"])
        return {"dropoff": r["dropoff"],
                "day": day_words(dt.datetime.fromisoformat(r["pickup_at"]).date()),
                "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("rides/scheduled", self.params["id"], status="canceled"))

    def _open(self, device: Device) -> Iterator[Action]:
        yield from open_scheduled(device, self.params["dropoff"])
        yield tap(device, text="Cancel ride", rid="cancel_ride")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._open(device)
        yield tap(device, text="Cancel ride", rid="button2")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Opens the cancel dialog but keeps the ride."""
        yield from self._open(device)
        yield tap(device, text="Keep ride", rid="button1")
        yield Action("status", goal_status="complete")


@register_task
class RidesUnavailableType(Task):
    """Infeasible by design: book a ride type that has no drivers nearby today (the app shows
    it as unavailable and will not book it). The right end is ``infeasible`` with nothing
    booked; booking another type instead is a change the rider did not ask for."""

    id = "RidesUnavailableType"
    apps = ("rides",)
    difficulty = "medium"
    feasible = False
    tags = ("unavailable",)
    optimal_steps = 5
    params_schema = {"type": str, "dropoff": str, "dropoff_key": str}
    template = "Book a ride from Home to {dropoff} now, ride type {type}. Only {type} will do."
    paraphrases = {
        "train": ("Order a car of the {type} type to take me from home to {dropoff} right "
                  "away, and no other kind of ride.",),
        "test": ("It has to be {type}: get me that kind of ride now from my home to "
                 "{dropoff}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        b = choice(rng, places(probe, "work", "place"))
        off = unavailable(probe)
        return {"type": off[int(rng.integers(len(off)))], "dropoff": b["name"],
                "dropoff_key": b["key"]}

    def oracle(self, device: Device) -> Iterator[Action]:
        from phoneworld_gym.tasks.rides.common import plan

        yield from plan(device, by_key(device.probe, "home"),
                        by_key(device.probe, self.params["dropoff_key"]))
        yield Action("status", goal_status="infeasible")


@register_task
class RidesBookOnlyType(RidesBookNow):
    """The feasible twin of :class:`RidesUnavailableType`: its very wordings ("Only {type}
    will do"), for a ride type that has drivers today, so the ride is booked. Without a twin,
    "only" and "kind" were words no feasible goal used, and ``status infeasible`` on sight of
    them won the infeasible task blind; which one it is shows only in the app."""

    id = "RidesBookOnlyType"
    template = RidesUnavailableType.template
    paraphrases = RidesUnavailableType.paraphrases
    constraints = (("now", "right away"),)
    optimal_steps = 8  # Home is the default pickup: no pickup to choose

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        b = choice(rng, places(probe, "work", "place"))
        kinds = available(probe)
        return {"type": kinds[int(rng.integers(len(kinds)))], "pickup": "Home",
                "pickup_key": "home", "dropoff": b["name"], "dropoff_key": b["key"]}


@register_task
class RidesTipDriver(Task):
    """Tip the driver of a past trip from its receipt: that trip's tip becomes the amount
    and its total grows by it; nothing else changes."""

    id = "RidesTipDriver"
    apps = ("rides",)
    difficulty = "medium"
    tags = ("receipt", "chips", "tabs")
    optimal_steps = 7
    may_change = ("rides/trips",)
    params_schema = {"dropoff": str, "day": str, "id": int, "amount": int}
    template = "Give the driver of my {day} ride to {dropoff} a ${amount} tip."
    paraphrases = {
        "train": ("Add a ${amount} tip to the trip to {dropoff} I took on {day}.",
                  "Tip ${amount} for my ride to {dropoff} on {day}."),
        "test": ("The driver who took me to {dropoff} on {day} was great. Send them "
                 "${amount} as a tip through the receipt.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, [t for t in probe.query("rides/trips")
                         if t["status"] == "completed" and not t["tip"]])
        return {"dropoff": r["dropoff"],
                "day": day_words(dt.datetime.fromisoformat(r["start"]).date()),
                "id": int(r["_id"]), "amount": int(rng.choice([1, 2, 3, 5]))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        before = next(t for t in self.before("rides/trips") if t["_id"] == p["id"])
        want = float(before["total"]) + p["amount"]
        return self.expect(changed("rides/trips", p["id"], tip=float(p["amount"]),
                                   total=lambda v: abs(float(v) - want) < 0.005))

    def _tip(self, device: Device, amount: int) -> Iterator[Action]:
        r = next(t for t in device.probe.query("rides/trips") if t["_id"] == self.params["id"])
        desc = f"Trip to {r['dropoff']}, {short_day(dt.datetime.fromisoformat(r['start']))}"
        yield from to_activity(device, "Past")
        yield from scroll_to(device, desc=desc, rid="past_trip")
        yield tap(device, desc=desc, rid="past_trip")
        yield from scroll_to(device, text=f"${amount}", rid="tip_amount")
        yield tap(device, text=f"${amount}", rid="tip_amount")
        yield tap(device, rid="add_tip")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._tip(device, self.params["amount"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The next amount up (or down from $5)."""
        amounts = [1, 2, 3, 5]
        i = amounts.index(self.params["amount"])
        yield from self._tip(device, amounts[i + 1] if i + 1 < len(amounts) else amounts[i - 1])
        yield Action("status", goal_status="complete")
