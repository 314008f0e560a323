"""Travel tasks that change bookings and favourites: book a given room for given dates, book
the cheapest stay with free cancellation and breakfast, cancel an upcoming booking, save a
hotel."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.travel.common import (
    book_cheapest_here,
    book_room,
    by_id,
    cheapest,
    day_words,
    find_hotel,
    is_free,
    open_booking,
    search,
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
        start = today(probe)
        for _ in range(200):
            r = choice(rng, rooms)
            ci = start + dt.timedelta(days=int(rng.integers(2, 60)))
            co = ci + dt.timedelta(days=int(rng.integers(2, 5)))
            if is_free(r, ci.isoformat(), co.isoformat()):
                break
        else:
            raise NoInstance("no room is free for a stay")
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

    def _book(self, device: Device, checkout: str, by_city: bool = False) -> Iterator[Action]:
        p = self.params
        yield from find_hotel(device, p["city"], p["hotel"], p["checkin"], checkout,
                              p["guests"], by_city)
        yield from book_room(device, p["room"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._book(device, self.params["checkout"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the town, not the hotel's name, and open the hotel from the results."""
        yield from self._book(device, self.params["checkout"], by_city=True)
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


def perks_cheapest(hotels: list[Row], rooms: list[Row], city: str, checkin: str,
                   checkout: str, guests: int) -> list[tuple[int, int, int]]:
    """(price per night, hotel id, room id) of the town's hotels with free cancellation and
    breakfast, each at its cheapest free room, cheapest first."""
    out = []
    for h in hotels:
        if h["city"] == city and h["free_cancellation"] and h["breakfast"]:
            r = cheapest(rooms, int(h["_id"]), checkin, checkout, guests)
            if r is not None:
                out.append((int(r["price"]), int(h["_id"]), int(r["_id"])))
    return sorted(out)


@register_task
class TravelBookWithPerks(Task):
    """Book the cheapest stay in a town among hotels with free cancellation and breakfast
    included (their cheapest free room): exactly one confirmed booking of that room, those
    nights and that many guests is added."""

    id = "TravelBookWithPerks"
    apps = ("travel",)
    difficulty = "hard"
    tags = ("search", "date-picker", "filter", "switch", "sort")
    optimal_steps = 24
    may_change = ("travel/bookings",)
    params_schema = {"city": str, "checkin": str, "checkout": str, "guests": int, "who": str,
                     "arrive": str, "leave": str}
    template = ("Book the cheapest hotel room in {city} that has free cancellation and "
                "breakfast included, for {who} from {arrive} to {leave}.")
    paraphrases = {
        "train": ("In {city}, {arrive} to {leave}, {who}: reserve the lowest-priced room at a "
                  "hotel offering both breakfast and free cancellation.",),
        "test": ("I want breakfast included and the option to cancel for free. Book the "
                 "cheapest such room in {city} for {who}, checking in {arrive} and leaving "
                 "{leave}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hotels, rooms = probe.query("travel/hotels"), probe.query("travel/rooms")
        cities = sorted({h["city"] for h in hotels})
        start = today(probe)
        for _ in range(200):
            city = choice(rng, cities)
            ci = start + dt.timedelta(days=int(rng.integers(2, 12)))  # within two weeks
            co = ci + dt.timedelta(days=int(rng.integers(2, 4)))
            guests = int(rng.integers(1, 3))
            ranked = perks_cheapest(hotels, rooms, city, ci.isoformat(), co.isoformat(),
                                    guests)
            if ranked and (len(ranked) == 1 or ranked[0][0] < ranked[1][0]):
                return {"city": city, "checkin": ci.isoformat(), "checkout": co.isoformat(),
                        "guests": guests, "who": adults(guests),
                        "arrive": day_words(ci.isoformat()),
                        "leave": day_words(co.isoformat())}
        raise NoInstance("no town has a single cheapest stay with both perks")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        ranked = perks_cheapest(device.probe.query("travel/hotels"),
                                device.probe.query("travel/rooms"), p["city"], p["checkin"],
                                p["checkout"], p["guests"])
        _, hotel_id, room_id = ranked[0]
        return self.expect(added("travel/bookings", {
            "hotel_id": hotel_id, "room_id": room_id, "checkin": p["checkin"],
            "checkout": p["checkout"], "guests": p["guests"], "status": "confirmed"}))

    def _book(self, device: Device, checkout: str) -> Iterator[Action]:
        p = self.params
        yield from search(device, p["city"], p["checkin"], checkout, p["guests"])
        yield tap(device, rid="filter_button")
        yield tap(device, text="Free cancellation", rid="title")
        yield tap(device, text="Breakfast included", rid="title")
        yield tap(device, rid="show_results")
        yield tap(device, rid="sort_button")
        yield tap(device, text="Price (lowest first)", rid="sheet_item_title")
        yield tap(device, rid="hotel_card")
        yield from book_cheapest_here(device, p["checkin"], checkout, p["guests"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._book(device, self.params["checkout"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right room, one night short."""
        short = dt.date.fromisoformat(self.params["checkout"]) - dt.timedelta(days=1)
        yield from self._book(device, short.isoformat())
        yield Action("status", goal_status="complete")
