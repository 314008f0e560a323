"""Cross-app tasks that carry information into and out of the Travel (hotel booking) app.

- Travel -> Calendar: a booking's check-in day and the hotel's address become an event.
- Travel -> Messages: the address of the hotel of a stay is texted to a contact.
- Contacts -> Travel: where a contact lives picks the town of a one-night booking (the
  best-rated hotel there, its cheapest free room).

Each reads the Travel app's tables, which only PhoneWorld serves, so they run on PhoneWorld.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, tap, text_of
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.calendar.common import create_event, epoch_ms
from phoneworld_gym.tasks.contacts.common import browse_to_contact, open_contact
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.messages.common import SENT, send_to, texters
from phoneworld_gym.tasks.travel.common import (
    book_room,
    by_id,
    cheapest,
    day_words,
    open_booking,
    search,
    upcoming,
)
from phoneworld_gym.validators import added, same_phone, same_text, states

CHECK_IN = dt.time(15, 0)


def shown_day(device: Device, rid: str) -> dt.date:
    """A booking screen's day, written in full with weekday and year, as a date."""
    text = text_of(device, rid=rid) or ""
    try:
        return dt.datetime.strptime(text, "%A, %B %d, %Y").date()
    except ValueError:
        raise OracleError(f"no date under {rid}: {text!r}") from None


def one_per_city(probe: Probe) -> list[Row]:
    """Upcoming bookings that are the only upcoming one in their town."""
    rows = upcoming(probe)
    cities = [b["city"] for b in rows]
    return [b for b in rows if cities.count(b["city"]) == 1]


def city_of(address: str) -> str:
    """"963 Sunset Boulevard, Asheville, NC 28801" -> "Asheville"."""
    parts = [p.strip() for p in address.split(",")]
    return parts[1] if len(parts) >= 3 else ""


@register_task
class CrossAppStayToCalendar(Task):
    """Put a hotel stay's check-in into Calendar: exactly one event "Hotel check-in" from
    3 PM to 4 PM on the check-in day, located at the hotel's address, is added."""

    id = "CrossAppStayToCalendar"
    apps = ("travel", "calendar")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "date-picker")
    optimal_steps = 15
    may_change = ("calendar",)
    params_schema = {"city": str, "hotel": str, "id": int}
    template = ('Add the check-in of my upcoming stay at {hotel} in {city} to my calendar: an '
                'event "Hotel check-in" from 3 PM to 4 PM on the check-in day, with the '
                "hotel's address as the location.")
    constraints = ("address",)
    paraphrases = {
        "train": ('Create a calendar event "Hotel check-in", 3-4 PM on the day I arrive at '
                  "{hotel} ({city}), located at that hotel's address.",),
        "test": ("When do I check in at {hotel} on my trip to {city}? Block 3 PM to 4 PM that "
                 'day in Calendar as "Hotel check-in" and use the hotel\'s address as '
                 "location.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        b = choice(rng, one_per_city(probe))
        return {"city": b["city"], "hotel": b["hotel"], "id": int(b["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        b = by_id(self.before("travel/bookings"))[self.params["id"]]
        address = by_id(device.probe.query("travel/hotels"))[int(b["hotel_id"])]["address"]
        start = dt.datetime.combine(dt.date.fromisoformat(b["checkin"]), CHECK_IN)
        return self.expect(added("calendar", {
            "title": same_text("Hotel check-in"), "dtstart": epoch_ms(start),
            "dtend": epoch_ms(start + dt.timedelta(hours=1)),
            "eventLocation": address}))

    def _add(self, device: Device, rid: str) -> Iterator[Action]:
        yield from open_booking(device, self.params["hotel"])
        day = shown_day(device, rid)
        address = text_of(device, rid="hotel_address") or ""
        yield from create_event(device, "Hotel check-in", day, CHECK_IN, dt.time(16, 0),
                                location=address)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, "booking_checkin")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The event on the check-out day."""
        yield from self._add(device, "booking_checkout")
        yield Action("status", goal_status="complete")


@register_task
class CrossAppTextHotelAddress(Task):
    """Text a contact the address of the hotel of an upcoming stay: exactly one sent message
    to their number, containing the hotel's full address, is added."""

    id = "CrossAppTextHotelAddress"
    apps = ("travel", "messages")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write",)
    optimal_steps = 10
    may_change = ("sms",)
    params_schema = {"city": str, "hotel": str, "id": int, "name": str, "number": str}
    template = "Text {name} the address of the hotel I'm staying at in {city}."
    constraints = ("address",)
    paraphrases = {
        "train": ("Send {name} a message with my {city} hotel's street address.",
                  "{name} asked where I'm staying in {city}. Text them the hotel's address."),
        "test": ("Let {name} know by SMS at which address my {city} hotel is, copied from my "
                 "booking.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        b = choice(rng, one_per_city(probe))
        c = choice(rng, texters(probe))
        return {"city": b["city"], "hotel": b["hotel"], "id": int(b["_id"]),
                "name": c["display_name"], "number": c["number"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        b = by_id(self.before("travel/bookings"))[self.params["id"]]
        hotels = device.probe.query("travel/hotels")
        address = by_id(hotels)[int(b["hotel_id"])]["address"]
        others = [h["address"] for h in hotels if int(h["_id"]) != int(b["hotel_id"])]
        return self.expect(added("sms", {
            "address": same_phone(self.params["number"]), "type": SENT,
            "body": states((address, address.split(",")[0]), others=others)}))

    def _text(self, device: Device, with_address: bool) -> Iterator[Action]:
        yield from open_booking(device, self.params["hotel"])
        address = text_of(device, rid="hotel_address") or ""
        if not address:
            raise OracleError("the booking shows no address")
        name = text_of(device, rid="booking_hotel") or ""
        body = f"I'm staying at {name}, {address}" if with_address else \
            f"I'm staying at {name} in {self.params['city']}"
        yield from send_to(device, self.params["name"], body)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._text(device, True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts the hotel's name and town but not its address."""
        yield from self._text(device, False)
        yield Action("status", goal_status="complete")


def best_rated(hotels: list[Row], rooms: list[Row], city: str, checkin: str,
               checkout: str) -> tuple[Row, Row] | None:
    """The town's best-rated hotel with a free room for one (None when two share the top
    score or it is sold out), with its cheapest free room."""
    ranked = sorted((h for h in hotels if h["city"] == city), key=lambda h: -h["rating"])
    if len(ranked) > 1 and ranked[0]["rating"] == ranked[1]["rating"]:
        return None
    room = cheapest(rooms, int(ranked[0]["_id"]), checkin, checkout, 1)
    return (ranked[0], room) if room is not None else None


@register_task
class CrossAppStayNearContact(Task):
    """Book one night near a contact: the town is only in their Contacts address; the
    best-rated hotel there, its cheapest room free that night, for one adult. Exactly one
    confirmed booking of that room and night is added."""

    id = "CrossAppStayNearContact"
    apps = ("contacts", "travel")
    category = "cross-app"
    difficulty = "hard"
    split = "test"
    tags = ("read-then-write", "date-picker", "sort")
    optimal_steps = 24
    may_change = ("travel/bookings",)
    params_schema = {"name": str, "city": str, "checkin": str, "checkout": str,
                     "arrive": str}
    template = ("Book me one night from {arrive} at the best-rated hotel in the town where "
                "{name} lives, in its cheapest available room, for one adult.")
    constraints = (("one adult", "just me"),)
    paraphrases = {
        "test": ("I'm visiting {name} on {arrive} for a night. Look up their town in Contacts "
                 "and reserve the cheapest free room at the top-rated hotel there, just me.",
                 "Find where {name} lives, then book the highest-rated hotel in that town "
                 "for the night of {arrive} (one adult, cheapest room that's available)."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hotels, rooms = probe.query("travel/hotels"), probe.query("travel/rooms")
        served = {h["city"] for h in hotels}
        people = [c for c in probe.contacts()
                  if city_of(c.get("postal_address") or "") in served]
        names = [c["display_name"] for c in people]
        people = [c for c in people if names.count(c["display_name"]) == 1]
        start = today(probe)
        for _ in range(100):
            c = choice(rng, people)
            ci = start + dt.timedelta(days=int(rng.integers(3, 40)))
            co = ci + dt.timedelta(days=1)
            city = city_of(c["postal_address"])
            if best_rated(hotels, rooms, city, ci.isoformat(), co.isoformat()) is not None:
                return {"name": c["display_name"], "city": city, "checkin": ci.isoformat(),
                        "checkout": co.isoformat(), "arrive": day_words(ci.isoformat())}
        raise NoInstance("no contact's town has a single best-rated hotel with a room")

    def _target(self, device: Device) -> tuple[Row, Row]:
        p = self.params
        hit = best_rated(device.probe.query("travel/hotels"), device.probe.query("travel/rooms"),
                         p["city"], p["checkin"], p["checkout"])
        if hit is None:
            raise OracleError("no single best-rated hotel with a free room")
        return hit

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        hotel, room = self._target(device)
        return self.expect(added("travel/bookings", {
            "hotel_id": int(hotel["_id"]), "room_id": int(room["_id"]),
            "checkin": p["checkin"], "checkout": p["checkout"], "guests": 1,
            "status": "confirmed"}))

    def _book(self, device: Device, guests: int, alt: bool = False) -> Iterator[Action]:
        p = self.params
        yield from (browse_to_contact if alt else open_contact)(device, p["name"])
        city = city_of(text_of(device, rid="address_title") or "")
        if not city:
            raise OracleError("the contact shows no address")
        yield from search(device, city, p["checkin"], p["checkout"], guests)
        yield tap(device, rid="sort_button")
        yield tap(device, text="Rating (highest first)", rid="sheet_item_title")
        yield tap(device, rid="hotel_card")
        name = text_of(device, rid="hotel_title") or ""
        hotel = next((h for h in device.probe.query("travel/hotels") if h["name"] == name),
                     None)
        room = None if hotel is None else cheapest(
            device.probe.query("travel/rooms"), int(hotel["_id"]), p["checkin"],
            p["checkout"], guests)
        if room is None:
            raise OracleError(f"no free room at {name!r}")
        yield from book_room(device, str(room["name"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._book(device, 1)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._book(device, 1, alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right stay booked for two adults."""
        yield from self._book(device, 2)
        yield Action("status", goal_status="complete")
