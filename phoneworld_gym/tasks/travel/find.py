"""Travel tasks that read or that cannot be done: the cheapest 4-star hotel for a stay, the
total of a booking, a past stay's check-out date, and two infeasible ones (a room sold out
on the asked nights; a town the app has no stays in). Answers come from the start state's
tables; nothing may change."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import DateMatch, Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import OracleError, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.travel.common import (
    UNSERVED,
    by_id,
    cheapest,
    day_words,
    find_hotel,
    is_free,
    open_booking,
    search,
    stay_dates,
    to_main,
    upcoming,
)


def cheapest_four_star(hotels: list[Row], rooms: list[Row], city: str, checkin: str,
                       checkout: str, guests: int) -> list[tuple[int, str]]:
    """(price per night, name) of the city's 4-star hotels with a free room, cheapest
    first."""
    out = []
    for h in hotels:
        if h["city"] == city and h["stars"] == 4:
            r = cheapest(rooms, int(h["_id"]), checkin, checkout, guests)
            if r is not None:
                out.append((int(r["price"]), str(h["name"])))
    return sorted(out)


@register_task
class TravelCheapestFourStar(Task):
    """Name the cheapest 4-star hotel in a town for a stay (hotels sold out for those nights,
    or without a room for that many guests, do not count)."""

    id = "TravelCheapestFourStar"
    apps = ("travel",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("search", "date-picker", "filter", "sort")
    optimal_steps = 20
    answer_matcher = StringMatch(contains=True)
    params_schema = {"city": str, "checkin": str, "checkout": str, "guests": int,
                     "who": str, "arrive": str, "leave": str}
    template = ("Which is the cheapest 4-star hotel in {city} with a room for {who} from "
                "{arrive} to {leave}?")
    paraphrases = {
        "train": ("Find the lowest-priced four-star hotel in {city} for {who}, checking in "
                  "{arrive} and out {leave}. What's it called?",
                  "I need a 4-star place in {city} from {arrive} to {leave} for {who}. "
                  "Which one costs least?"),
        "test": ("Among {city}'s four-star hotels that still have a room for {who} between "
                 "{arrive} and {leave}, tell me the name of the cheapest.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hotels, rooms = probe.query("travel/hotels"), probe.query("travel/rooms")
        cities = sorted({h["city"] for h in hotels})
        start = today(probe)
        for _ in range(100):
            city = choice(rng, cities)
            ci, co = stay_dates(rng, start, nights=(1, 3))
            guests = int(rng.integers(1, 3))
            ranked = cheapest_four_star(hotels, rooms, city, ci, co, guests)
            if ranked and (len(ranked) == 1 or ranked[0][0] < ranked[1][0]):
                return {"city": city, "checkin": ci, "checkout": co, "guests": guests,
                        "who": f"{guests} adult{'s' if guests != 1 else ''}",
                        "arrive": day_words(ci), "leave": day_words(co)}
        raise NoInstance("no stay has a single cheapest 4-star hotel")

    def expected_answer(self, device: Device) -> Any:
        p = self.params
        # the catalogue is static (never changes in an episode): read it as it is
        hotels = device.probe.query("travel/hotels")
        rooms = device.probe.query("travel/rooms")
        ranked = cheapest_four_star(hotels, rooms, p["city"], p["checkin"], p["checkout"],
                                    p["guests"])
        return Expected(ranked[0][1], candidates=[h["name"] for h in hotels
                                                  if h["city"] == p["city"]])

    def _ranked(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from search(device, p["city"], p["checkin"], p["checkout"], p["guests"])
        yield tap(device, rid="filter_button")
        yield tap(device, text="4 stars", rid="star_chip")
        yield tap(device, rid="show_results")
        yield tap(device, rid="sort_button")
        yield tap(device, text="Price (lowest first)", rid="sheet_item_title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._ranked(device)
        if find(device, rid="sold_out") is not None and \
                find(device, rid="stay_price") is None:
            raise OracleError("every 4-star hotel is sold out")
        name = text_of(device, rid="hotel_name")
        if not name:
            raise OracleError("no hotel listed")
        yield Action("answer", text=name)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another hotel of the town (the cheapest 3-star, or any other)."""
        p = self.params
        want = self.expected_answer(device).value
        others = sorted((h["stars"] != 3, h["name"]) for h in device.probe.query("travel/hotels")
                        if h["city"] == p["city"] and h["name"] != want)
        yield Action("answer", text=others[0][1])


@register_task
class TravelBookingTotal(Task):
    """Read the total price of an upcoming booking."""

    id = "TravelBookingTotal"
    apps = ("travel",)
    category = "information-retrieval"
    difficulty = "easy"
    split = "test"
    tags = ("tabs",)
    optimal_steps = 4
    answer_matcher = NumberMatch()
    params_schema = {"hotel": str, "id": int}
    template = "How much does my upcoming stay at {hotel} cost in total?"
    paraphrases = {
        "test": ("Look up my {hotel} reservation in the travel app: what's the total price?",
                 "What will I pay altogether for the booking I have at {hotel}?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        b = choice(rng, upcoming(probe))
        return {"hotel": b["hotel"], "id": int(b["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return int(by_id(self.before("travel/bookings"))[self.params["id"]]["total"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_booking(device, self.params["hotel"])
        total = text_of(device, rid="booking_total")
        if not total:
            raise OracleError("no total on the booking")
        yield Action("answer", text=total)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The price of one night instead of the whole stay (or a wrong total)."""
        b = by_id(self.before("travel/bookings"))[self.params["id"]]
        n = int(b["nights"])
        yield Action("answer", text=f"${b['total'] // n if n > 1 else b['total'] + 25}")


@register_task
class TravelBookSoldOut(Task):
    """Infeasible by design: the asked room is sold out on a night of the asked stay (the
    hotel's page says "Sold out on your dates"); booking another room or other dates would be
    wrong, so the right end is to report it infeasible with nothing booked."""

    id = "TravelBookSoldOut"
    apps = ("travel",)
    difficulty = "medium"
    tags = ("infeasible", "search", "date-picker")
    optimal_steps = 16
    feasible = False
    params_schema = {"hotel": str, "city": str, "room": str, "checkin": str, "checkout": str,
                     "arrive": str, "leave": str}
    template = "Book the {room} at {hotel} in {city} from {arrive} to {leave} for one adult."
    paraphrases = {
        "train": ("Reserve {hotel}'s {room} in {city}, checking in {arrive} and out {leave}, "
                  "one guest.",),
        "test": ("I want exactly the {room} at {hotel} ({city}) for myself, arriving {arrive} "
                 "and leaving {leave}. Please book it.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        hotels = by_id(probe.query("travel/hotels"))
        rows = []
        start = today(probe)
        for r in probe.query("travel/rooms"):
            for night in filter(None, str(r["sold_out"]).split(",")):
                # nights of the next two weeks: a near stay, a page or two of date picker
                if 2 <= (dt.date.fromisoformat(night) - start).days <= 14:
                    rows.append((r, night))
        r, night = choice(rng, rows)
        before = int(rng.integers(0, 2))
        ci = dt.date.fromisoformat(night) - dt.timedelta(days=before)
        co = ci + dt.timedelta(days=before + 1 + int(rng.integers(0, 2)))
        h = hotels[int(r["hotel_id"])]
        return {"hotel": h["name"], "city": h["city"], "room": r["name"],
                "checkin": ci.isoformat(), "checkout": co.isoformat(),
                "arrive": day_words(ci.isoformat()), "leave": day_words(co.isoformat())}

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        room = next(r for r in device.probe.query("travel/rooms") if r["name"] == p["room"]
                    and by_id(device.probe.query("travel/hotels"))[int(r["hotel_id"])]["name"]
                    == p["hotel"])
        if is_free(room, p["checkin"], p["checkout"]):
            raise OracleError("the room is free after all")
        yield from find_hotel(device, p["city"], p["hotel"], p["checkin"], p["checkout"], 1)
        yield from scroll_to(device, desc=p["room"], rid="room_card")
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the town, not the hotel's name, and open the hotel from the results."""
        p = self.params
        yield from find_hotel(device, p["city"], p["hotel"], p["checkin"], p["checkout"], 1,
                              by_city=True)
        yield from scroll_to(device, desc=p["room"], rid="room_card")
        yield Action("status", goal_status="infeasible")


@register_task
class TravelUnservedCity(Task):
    """Infeasible by design: the app has no stays in the asked town (the destination search
    finds nothing)."""

    id = "TravelUnservedCity"
    apps = ("travel",)
    difficulty = "easy"
    tags = ("infeasible", "search")
    optimal_steps = 4
    feasible = False
    params_schema = {"city": str, "arrive": str, "leave": str}
    template = "Book me the cheapest hotel in {city} from {arrive} to {leave}."
    paraphrases = {
        "train": ("Find a place to stay in {city}, {arrive} to {leave}, the cheapest one, and "
                  "book it.",),
        "test": ("I'm off to {city} on {arrive} until {leave}. Get me the least expensive "
                 "room there.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        served = {h["city"].lower() for h in probe.query("travel/hotels")}
        city = choice(rng, [c for c in UNSERVED if c.lower() not in served])
        ci, co = stay_dates(rng, today(probe))
        return {"city": city, "arrive": day_words(ci), "leave": day_words(co)}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, rid="destination")
        yield type_into(device, self.params["city"], rid="destination_input")
        if find(device, rid="no_destination") is None:
            raise OracleError(f"{self.params['city']} has stays after all")
        yield Action("status", goal_status="infeasible")


@register_task
class TravelLastCheckout(Task):
    """Read the check-out date of a past stay (Bookings, Past tab)."""

    id = "TravelLastCheckout"
    apps = ("travel",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("tabs",)
    optimal_steps = 5
    answer_matcher = DateMatch()
    params_schema = {"hotel": str, "id": int}
    template = "On what date did I check out of {hotel}?"
    paraphrases = {
        "train": ("When did my past stay at {hotel} end?",
                  "Check my travel app: which day did I leave {hotel}?"),
        "test": ("I stayed at {hotel} a while ago. Tell me the check-out date of that trip.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [b for b in probe.query("travel/bookings") if b["status"] == "confirmed"
                and dt.date.fromisoformat(b["checkout"]) <= today(probe)]
        names = [b["hotel"] for b in rows]
        b = choice(rng, [b for b in rows if names.count(b["hotel"]) == 1])
        return {"hotel": b["hotel"], "id": int(b["_id"])}

    def expected_answer(self, device: Device) -> Any:
        b = by_id(self.before("travel/bookings"))[self.params["id"]]
        return dt.date.fromisoformat(b["checkout"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_booking(device, self.params["hotel"], tab="Past")
        day = text_of(device, rid="booking_checkout")
        if not day:
            raise OracleError("the booking shows no check-out")
        yield Action("answer", text=day)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The check-in date instead."""
        b = by_id(self.before("travel/bookings"))[self.params["id"]]
        d = dt.date.fromisoformat(b["checkin"])
        yield Action("answer", text=f"{d.strftime('%B')} {d.day}, {d.year}")
