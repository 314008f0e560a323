"""Long-horizon tasks around the Travel app: three apps each, information carried from one
to the next (a hotel found in Travel goes to Calendar and Messages; a friend's text picks
the hotel and dates, and the booking's confirmation number goes back to them)."""

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
from phoneworld_gym.tasks.kit import choice, now_ms, today
from phoneworld_gym.tasks.messages.common import (
    SENT,
    last_received,
    open_thread,
    send_to,
    texters,
    type_and_send,
)
from phoneworld_gym.tasks.travel.common import (
    book_cheapest_here,
    by_id,
    cheapest,
    day_words,
    find_hotel,
    search,
    stay_dates,
)
from phoneworld_gym.tasks.travel.find import cheapest_four_star
from phoneworld_gym.validators import added, same_phone, same_text, states

CHECK_IN = dt.time(15, 0)


def _adults(n: int) -> str:
    return f"{n} adult{'s' if n != 1 else ''}"


def _event(title: str, day: str, address: str) -> dict[str, Any]:
    start = dt.datetime.combine(dt.date.fromisoformat(day), CHECK_IN)
    return {"title": same_text(title), "dtstart": epoch_ms(start),
            "dtend": epoch_ms(start + dt.timedelta(hours=1)),
            "eventLocation": address}


@register_task
class LongHorizonHotelTrip(Task):
    """Long-horizon, three apps (Travel, Calendar, Messages): book the cheapest 4-star hotel
    of a town for a stay (its cheapest free room), add its check-in to Calendar at the hotel's
    address, and text a contact that address. Exactly: one booking, one event, one sent
    message."""

    id = "LongHorizonHotelTrip"
    apps = ("travel", "calendar", "messages")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "filter", "sort", "multi-app")
    optimal_steps = 40
    max_steps = 80
    may_change = ("travel/bookings", "calendar", "sms")
    params_schema = {"city": str, "checkin": str, "checkout": str, "guests": int, "who": str,
                     "arrive": str, "leave": str, "name": str, "number": str}
    template = ("Book the cheapest 4-star hotel in {city} from {arrive} to {leave} for {who} "
                '(its cheapest available room), add "Hotel check-in" to my calendar from 3 PM '
                "to 4 PM on the arrival day with the hotel's address as location, and text "
                "{name} the hotel's address.")
    constraints = ("address",)
    paraphrases = {
        "train": ("Plan my {city} stay: reserve the lowest-priced four-star hotel for {who}, "
                  "{arrive} to {leave}, in its cheapest free room; put a 3-4 PM \"Hotel "
                  "check-in\" event at its address on the day I arrive; then send {name} the "
                  "address by SMS.",),
        "test": ("I'm going to {city} ({arrive} - {leave}, {who}). Get me the cheapest room at "
                 "the cheapest four-star hotel there, block 3 to 4 PM on arrival day in my "
                 'calendar as "Hotel check-in" at the hotel\'s address, and message {name} '
                 "that address.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hotels, rooms = probe.query("travel/hotels"), probe.query("travel/rooms")
        cities = sorted({h["city"] for h in hotels})
        c = choice(rng, texters(probe))
        start = today(probe)
        for _ in range(100):
            city = choice(rng, cities)
            ci, co = stay_dates(rng, start, lo=3, hi=14, nights=(1, 3))  # within two weeks
            guests = int(rng.integers(1, 3))
            ranked = cheapest_four_star(hotels, rooms, city, ci, co, guests)
            if ranked and (len(ranked) == 1 or ranked[0][0] < ranked[1][0]):
                return {"city": city, "checkin": ci, "checkout": co, "guests": guests,
                        "who": _adults(guests), "arrive": day_words(ci),
                        "leave": day_words(co), "name": c["display_name"],
                        "number": c["number"]}
        raise NoInstance("no stay has a single cheapest 4-star hotel")

    def _target(self, device: Device) -> tuple[Row, Row]:
        p = self.params
        hotels, rooms = device.probe.query("travel/hotels"), device.probe.query("travel/rooms")
        ranked = cheapest_four_star(hotels, rooms, p["city"], p["checkin"], p["checkout"],
                                    p["guests"])
        h = next(h for h in hotels if h["name"] == ranked[0][1])
        room = cheapest(rooms, int(h["_id"]), p["checkin"], p["checkout"], p["guests"])
        assert room is not None
        return h, room

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        h, room = self._target(device)
        return self.expect(
            added("travel/bookings", {"hotel_id": int(h["_id"]), "room_id": int(room["_id"]),
                                      "checkin": p["checkin"], "checkout": p["checkout"],
                                      "guests": p["guests"], "status": "confirmed"}),
            added("calendar", _event("Hotel check-in", p["checkin"], h["address"])),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": states((h["address"], h["address"].split(",")[0]))}))

    def _run(self, device: Device, shift: int) -> Iterator[Action]:
        p = self.params
        yield from search(device, p["city"], p["checkin"], p["checkout"], p["guests"])
        yield tap(device, rid="filter_button")
        yield tap(device, text="4 stars", rid="star_chip")
        yield tap(device, rid="show_results")
        yield tap(device, rid="sort_button")
        yield tap(device, text="Price (lowest first)", rid="sheet_item_title")
        yield tap(device, rid="hotel_card")
        yield from book_cheapest_here(device, p["checkin"], p["checkout"], p["guests"])
        address = text_of(device, rid="hotel_address") or ""
        if not address:
            raise OracleError("the booking shows no address")
        start = dt.datetime.combine(dt.date.fromisoformat(p["checkin"]), CHECK_IN) + \
            dt.timedelta(hours=shift)
        yield from create_event(device, "Hotel check-in", start.date(), start.time(),
                                (start + dt.timedelta(hours=1)).time(), location=address)
        yield from send_to(device, p["number"], f"My hotel: {address}", number=True)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the check-in event an hour late."""
        yield from self._run(device, 1)
        yield Action("status", goal_status="complete")


@register_task
class LongHorizonVisitFromText(Task):
    """Long-horizon, three apps (Messages, Travel, Calendar): a friend's text names a hotel
    and the dates of a visit; book that hotel's cheapest free room for the owner alone, add
    "Visit <first name>" to Calendar on the arrival day at the hotel's address, and reply
    with the booking's confirmation number. Exactly: one booking, one event, one sent
    message that states the new booking's number."""

    id = "LongHorizonVisitFromText"
    apps = ("messages", "travel", "calendar")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "multi-app")
    optimal_steps = 38
    max_steps = 80
    may_change = ("travel/bookings", "calendar", "sms")
    params_schema = {"name": str, "first": str, "number": str, "hotel": str, "city": str,
                     "checkin": str, "checkout": str}
    template = ("Read {name}'s latest text. Book the cheapest available room at the hotel they "
                'suggest for those dates, just for me; add "Visit {first}" to my calendar from '
                "3 PM to 4 PM on the day I arrive, at the hotel's address; then reply to "
                "{name} with the booking's confirmation number.")
    constraints = ("address", ("just for me", "one adult"))
    paraphrases = {
        "test": ("{name} texted me about a visit. Reserve the hotel and dates from that message "
                 "(one adult, cheapest free room), block 3-4 PM on arrival day in Calendar as "
                 '"Visit {first}" at the hotel\'s address, and text {name} back the '
                 "confirmation number.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hotels, rooms = probe.query("travel/hotels"), probe.query("travel/rooms")
        c = choice(rng, texters(probe))
        start = today(probe)
        for _ in range(100):
            h = choice(rng, hotels)
            ci, co = stay_dates(rng, start, lo=3, hi=45, nights=(1, 3))
            if cheapest(rooms, int(h["_id"]), ci, co, 1) is not None:
                return {"name": c["display_name"], "first": c["display_name"].split()[0],
                        "number": c["number"], "hotel": h["name"], "city": h["city"],
                        "checkin": ci, "checkout": co}
        raise NoInstance("no hotel has a free room for a stay")

    def setup(self, device: Device) -> None:
        p = self.params
        device.insert("sms", {
            "address": p["number"],
            "body": f"Can't wait for your visit! Stay at {p['hotel']} in {p['city']}, it's "
                    f"close to me. Come {day_words(p['checkin'])} and stay until "
                    f"{day_words(p['checkout'])}?",
            "date": now_ms(device.probe, minutes_ago=10), "type": 1,
            "read": 1})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        h = by_id(device.probe.query("travel/hotels"))
        hotel = next(x for x in h.values() if x["name"] == p["hotel"])
        room = cheapest(device.probe.query("travel/rooms"), int(hotel["_id"]), p["checkin"],
                        p["checkout"], 1)
        assert room is not None
        old = {b["_id"] for b in self.before("travel/bookings")}
        new = [b for b in device.probe.query("travel/bookings") if b["_id"] not in old]
        number = str(new[0]["confirmation"]) if len(new) == 1 else "-"
        return self.expect(
            added("travel/bookings", {"hotel_id": int(hotel["_id"]),
                                      "room_id": int(room["_id"]), "checkin": p["checkin"],
                                      "checkout": p["checkout"], "guests": 1,
                                      "status": "confirmed"}),
            added("calendar", _event(f"Visit {p['first']}", p["checkin"], hotel["address"])),
            added("sms", {"address": same_phone(p["number"]), "body": states(number),
                          "type": SENT}))

    def _run(self, device: Device, guests: int) -> Iterator[Action]:
        p = self.params
        yield from open_thread(device, p["name"])
        if p["hotel"] not in last_received(device):
            raise OracleError("the visit text is not the newest message")
        yield from find_hotel(device, p["city"], p["hotel"], p["checkin"], p["checkout"],
                              guests)
        yield from book_cheapest_here(device, p["checkin"], p["checkout"], guests)
        address = text_of(device, rid="hotel_address") or ""
        number = (text_of(device, rid="booking_confirmation") or "").rpartition(" ")[2]
        if not address or not number:
            raise OracleError("the booking shows no address or confirmation number")
        yield from create_event(device, f"Visit {p['first']}",
                                dt.date.fromisoformat(p["checkin"]), CHECK_IN,
                                dt.time(16, 0), location=address)
        yield from open_thread(device, p["name"])
        yield from type_and_send(device, f"Booked! Confirmation number {number}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 1)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the room booked for two adults."""
        yield from self._run(device, 2)
        yield Action("status", goal_status="complete")
