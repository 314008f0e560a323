"""Travel tasks that change bookings and favourites: book a given room for given dates,
cancel an upcoming booking, save a hotel."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.travel.common import (
    TODAY,
    book_room,
    by_id,
    choice,
    day_words,
    find_hotel,
    is_free,
    open_booking,
    to_main,
    upcoming,
)
from phoneworld_gym.validators import added, changed, same_text


def adults(n: int) -> str:
    return f"{n} adult{'s' if n != 1 else ''}"


@register_task
class TravelBook(Task):
    """Book a room type at a hotel for a stay: exactly one confirmed booking of that room,
    those nights and that many guests, in the traveller's own name, is added."""

    id = "TravelBook"
    apps = ("travel",)
    difficulty = "hard"
    tags = ("search", "date-picker", "stepper", "form")
    optimal_steps = 20
    may_change = ("travel/bookings",)
    params_schema = {"hotel": str, "hotel_id": int, "city": str, "room": str, "room_id": int,
                     "checkin": str, "checkout": str, "guests": int, "who": str,
                     "arrive": str, "leave": str, "guest_name": str}
    template = "Book a {room} at {hotel} in {city} for {who}, from {arrive} to {leave}."
    paraphrases = {
        "train": ("Reserve the {room} at {hotel} ({city}) for {who}: check-in {arrive}, "
                  "check-out {leave}.",
                  "Make a hotel booking: {hotel} in {city}, {room}, {who}, {arrive} until "
                  "{leave}."),
        "test": ("I'll be in {city} from {arrive} to {leave}. Get me a {room} at {hotel}; "
                 "we're {who}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hotels = by_id(probe.query("travel/hotels"))
        rooms = probe.query("travel/rooms")
        for _ in range(200):
            r = choice(rng, rooms)
            ci = TODAY + dt.timedelta(days=int(rng.integers(2, 60)))
            co = ci + dt.timedelta(days=int(rng.integers(2, 5)))
            if is_free(r, ci.isoformat(), co.isoformat()):
                break
        else:
            raise RuntimeError("no room is free for a stay")
        h = hotels[int(r["hotel_id"])]
        guests = int(rng.integers(1, min(int(r["sleeps"]), 3) + 1))
        return {"hotel": h["name"], "hotel_id": int(h["_id"]), "city": h["city"],
                "room": r["name"], "room_id": int(r["_id"]), "checkin": ci.isoformat(),
                "checkout": co.isoformat(), "guests": guests, "who": adults(guests),
                "arrive": day_words(ci.isoformat()), "leave": day_words(co.isoformat()),
                "guest_name": str(probe.query("travel/account")[0]["name"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("travel/bookings", {
            "hotel_id": p["hotel_id"], "room_id": p["room_id"], "checkin": p["checkin"],
            "checkout": p["checkout"], "guests": p["guests"], "status": "confirmed",
            "guest_name": same_text(p["guest_name"])}))

    def _book(self, device: Device, checkout: str) -> Iterator[Action]:
        p = self.params
        yield from find_hotel(device, p["city"], p["hotel"], p["checkin"], checkout,
                              p["guests"])
        yield from book_room(device, p["room"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._book(device, self.params["checkout"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right room, one night short."""
        short = dt.date.fromisoformat(self.params["checkout"]) - dt.timedelta(days=1)
        yield from self._book(device, short.isoformat())
        yield Action("status", goal_status="complete")


@register_task
class TravelCancel(Task):
    """Cancel an upcoming booking: its ``status`` becomes "cancelled" and nothing else
    changes."""

    id = "TravelCancel"
    apps = ("travel",)
    difficulty = "easy"
    tags = ("tabs", "dialog")
    optimal_steps = 6
    may_change = ("travel/bookings",)
    params_schema = {"hotel": str, "id": int, "arrive": str}
    template = "Cancel my booking at {hotel} (arriving {arrive})."
    paraphrases = {
        "train": ("My plans changed: call off the {hotel} reservation that starts {arrive}.",
                  "Cancel the hotel stay at {hotel} from {arrive}."),
        "test": ("I'm no longer going. Please cancel the {hotel} booking beginning {arrive} "
                 "in my travel app.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        b = choice(rng, upcoming(probe))
        return {"hotel": b["hotel"], "id": int(b["_id"]), "arrive": day_words(b["checkin"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("travel/bookings", self.params["id"], status="cancelled"))

    def _cancel(self, device: Device, confirm: bool) -> Iterator[Action]:
        yield from open_booking(device, self.params["hotel"])
        yield from scroll_to(device, text="Cancel booking", rid="cancel_booking")
        yield tap(device, text="Cancel booking", rid="cancel_booking")
        yield tap(device, rid="button2" if confirm else "button1")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._cancel(device, True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Opens the cancel dialog but taps "Keep booking"."""
        yield from self._cancel(device, False)
        yield Action("status", goal_status="complete")


@register_task
class TravelSave(Task):
    """Save a hotel to the favourites: exactly that hotel joins ``travel/saved``."""

    id = "TravelSave"
    apps = ("travel",)
    difficulty = "easy"
    split = "test"
    tags = ("search",)
    optimal_steps = 7
    may_change = ("travel/saved",)
    params_schema = {"hotel": str, "hotel_id": int, "city": str}
    template = "Save {hotel} in {city} to my saved hotels."
    paraphrases = {
        "test": ("Heart {hotel} ({city}) in the travel app so I can find it later.",
                 "Add the {city} hotel {hotel} to my favourites list."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = {int(r["_id"]) for r in probe.query("travel/saved")}
        h = choice(rng, [h for h in probe.query("travel/hotels") if int(h["_id"]) not in saved])
        return {"hotel": h["name"], "hotel_id": int(h["_id"]), "city": h["city"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("travel/saved", {"_id": self.params["hotel_id"]}))

    def _save(self, device: Device, name: str) -> Iterator[Action]:
        city = self.params["city"]
        yield from to_main(device)
        yield tap(device, rid="destination")
        yield type_into(device, name, rid="destination_input")
        yield tap(device, text=f"{name}, {city}", rid="suggestion")
        yield tap(device, text="Search", rid="search_button")
        yield tap(device, desc=f"Save {name}", rid="save_hotel")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._save(device, self.params["hotel"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves another hotel of the same town."""
        saved = {int(r["_id"]) for r in device.probe.query("travel/saved")}
        other = next(h["name"] for h in device.probe.query("travel/hotels")
                     if h["city"] == self.params["city"] and int(h["_id"]) not in saved
                     and h["_id"] != self.params["hotel_id"])
        yield from self._save(device, other)
        yield Action("status", goal_status="complete")

