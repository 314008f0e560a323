"""Rides information-retrieval tasks: what a past trip cost (its receipt) and when a
scheduled ride picks the rider up. The right answers come from the start state's
``rides/trips`` and ``rides/scheduled`` rows (reading changes nothing)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch, TimeMatch
from phoneworld_gym.oracle import OracleError, find, scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.rides.common import (
    clock,
    day_words,
    open_scheduled,
    short_day,
    to_activity,
)


def _by_id(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {int(r["_id"]): r for r in rows}


@register_task
class RidesReceiptTotal(Task):
    """Read what a past trip cost in all (fare, booking fee and tip) off its receipt."""

    id = "RidesReceiptTotal"
    apps = ("rides",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("receipt", "tabs")
    optimal_steps = 5
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"dropoff": str, "day": str, "id": int}
    template = "How much did I pay in total for my ride to {dropoff} on {day}?"
    paraphrases = {
        "train": ("What was the total on the receipt of my {day} trip to {dropoff}?",
                  "Check Rides: what did the ride to {dropoff} on {day} cost me?"),
        "test": ("I took a ride to {dropoff} on {day}. Find its receipt and tell me the "
                 "amount I was charged.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, [t for t in probe.query("rides/trips") if t["status"] == "completed"])
        day = dt.datetime.fromisoformat(r["start"]).date()
        return {"dropoff": r["dropoff"], "day": day_words(day), "id": int(r["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return float(_by_id(self.before("rides/trips"))[self.params["id"]]["total"])

    def oracle(self, device: Device) -> Iterator[Action]:
        r = _by_id(device.probe.query("rides/trips"))[self.params["id"]]
        desc = f"Trip to {r['dropoff']}, {short_day(dt.datetime.fromisoformat(r['start']))}"
        yield from to_activity(device, "Past")
        yield from scroll_to(device, desc=desc, rid="past_trip")
        yield tap(device, desc=desc, rid="past_trip")
        total = text_of(device, rid="receipt_total")
        if not total:
            raise OracleError("the receipt shows no total")
        yield Action("answer", text=total)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The fare without the booking fee and tip."""
        r = _by_id(self.before("rides/trips"))[self.params["id"]]
        yield Action("answer", text=f"${r['fare']:.2f}")


@register_task
class RidesScheduledPickup(Task):
    """Read the pickup time of a scheduled ride."""

    id = "RidesScheduledPickup"
    apps = ("rides",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("tabs",)
    optimal_steps = 4
    split = "test"
    answer_matcher = TimeMatch()
    params_schema = {"dropoff": str, "day": str, "id": int}
    template = "What time does my scheduled ride to {dropoff} on {day} pick me up?"
    paraphrases = {
        "test": ("I booked a ride to {dropoff} for {day}. When will the driver come for me?",
                 "Look up the pickup time of the {day} ride to {dropoff} I reserved."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, [s for s in probe.query("rides/scheduled")
                         if s["status"] == "scheduled"])
        day = dt.datetime.fromisoformat(r["pickup_at"]).date()
        return {"dropoff": r["dropoff"], "day": day_words(day), "id": int(r["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return dt.datetime.fromisoformat(
            _by_id(self.before("rides/scheduled"))[self.params["id"]]["pickup_at"]).time()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_scheduled(device, self.params["dropoff"])
        when = (text_of(device, rid="ride_time") or "").removeprefix("Pickup at ").strip()
        if not when:
            raise OracleError("the scheduled ride shows no pickup time")
        yield Action("answer", text=when)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Fifteen minutes late."""
        t = self.expected_answer(device)
        yield Action("answer", text=clock(dt.datetime.combine(self.start_day(), t)
                                          + dt.timedelta(minutes=15)))


@register_task
class RidesMonthSpend(Task):
    """Add up what the rider paid for the trips of one month (canceled ones cost nothing):
    every total on the Past list whose date is in that month.

    Fewer goals: the seeded history covers the four weeks before the phone's start day, so
    the month is that day's or the one before; the trips and their totals vary with the
    seed."""

    id = "RidesMonthSpend"
    apps = ("rides",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("scroll", "arithmetic", "tabs")
    optimal_steps = 4
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"month": str}
    template = "How much did I spend on rides in {month} in total?"
    paraphrases = {
        "train": ("Add up my ride costs for {month}: what's the total?",
                  "What did all my {month} trips in Rides cost together?"),
        "test": ("Go through my past rides and tell me the sum I paid for trips taken in "
                 "{month}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        months = sorted({dt.datetime.fromisoformat(t["start"]).strftime("%B")
                         for t in probe.query("rides/trips") if t["status"] == "completed"})
        return {"month": months[int(rng.integers(len(months)))]}

    def expected_answer(self, device: Device) -> Any:
        return round(sum(float(t["total"]) for t in self.before("rides/trips")
                         if t["status"] == "completed" and
                         dt.datetime.fromisoformat(t["start"]).strftime("%B")
                         == self.params["month"]), 2)

    def _sum(self, device: Device, month: str) -> Iterator[Action]:
        """Read the Past list top to bottom (scrolling), adding the totals of ``month``."""
        from phoneworld_gym.oracle import elements

        yield from to_activity(device, "Past")
        seen: dict[str, float] = {}
        for _ in range(10):
            current = ""
            for e in elements(device):
                rid = e.resource_id or ""
                if rid.endswith("/past_trip"):
                    current = e.content_description or ""
                elif rid.endswith("/trip_total") and current and current not in seen:
                    amount = (e.text or "").lstrip("$").replace(",", "")
                    day = current.rsplit(", ", 1)[-1]  # "Fri, Mar 13" -> "Mar 13"
                    in_month = day.startswith(month[:3])
                    seen[current] = float(amount) if in_month and amount[:1].isdigit() else 0.0
            if find(device, rid="activity_list") is None:
                break  # the whole list fits: nothing to scroll
            before = device.a11y_xml()
            yield Action("scroll", direction="down")
            if device.a11y_xml() == before:
                break
        yield Action("answer", text=f"${sum(seen.values()):.2f}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._sum(device, self.params["month"])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The month's fares added up, forgetting the booking fees and tips (every trip
        has a fee, so this is always short; summing every month instead can equal the
        answer when the history holds one month only)."""
        fares = sum(float(t["fare"]) for t in self.before("rides/trips")
                    if t["status"] == "completed" and
                    dt.datetime.fromisoformat(t["start"]).strftime("%B") == self.params["month"])
        yield Action("answer", text=f"${fares:.2f}")
