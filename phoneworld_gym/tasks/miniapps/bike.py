"""CityBike (bike-rental mini-program in Chat) tasks: ride from one station to another,
ride and share the receipt, count the bikes at a station (information retrieval), ride an
e-bike, and reserve an e-bike (infeasible: no reservations, and no e-bike at that station)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import ShareResultTask, chats, open_mini, share_to
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import added, expect

LABEL = "CityBike"


def route(rng: np.random.Generator, probe: Probe) -> tuple[Row, Row]:
    """A station with a bike and another with a free dock."""
    stations = probe.query("bike/stations")
    start = choice(rng, [s for s in stations if s["bikes"] > 0])
    end = choice(rng, [s for s in stations if s["free_docks"] > 0 and s["_id"] != start["_id"]])
    return start, end


def ride(device: Device, start: str, end: str) -> Iterator[Action]:
    """From anywhere: CityBike, the start station, unlock its first bike, end at ``end``."""
    yield from open_mini(device, LABEL)
    yield from scroll_to(device, text=start, rid="station_title")
    yield tap(device, text=start, rid="station_title")
    yield tap(device, text="Unlock", rid="unlock")
    yield tap(device, text="End ride", rid="end_ride")
    yield from scroll_to(device, text=end, rid="dock_station_title")
    yield tap(device, text=end, rid="dock_station_title")


def docked(before: list[Row], start: int, end: int,
           ebike: bool | None = None) -> dict[int, dict[str, Any]]:
    """The expected ``bike/stations`` changes: one bike fewer at ``start``, one more at
    ``end``; the bike an e-bike (``ebike`` true), a classic one (false) or either (None)."""
    by = {r["_id"]: r for r in before}
    e0, e1 = by[start]["ebikes"], by[end]["ebikes"]
    took = (0, 1) if ebike is None else (int(ebike),)
    return {start: {"bikes": by[start]["bikes"] - 1, "free_docks": by[start]["free_docks"] + 1,
                    "ebikes": lambda v: e0 - v in took},
            end: {"bikes": by[end]["bikes"] + 1, "free_docks": by[end]["free_docks"] - 1,
                  "ebikes": lambda v: v - e1 in took}}


@register_task
class BikeRide(Task):
    """Rent a bike at one station and dock it at another: one finished ride between them is
    added, and the two stations' bike counts move by one."""

    id = "BikeRide"
    apps = ("chat", "bike")
    category = "mini-app"
    difficulty = "medium"
    tags = ("dialog",)
    optimal_steps = 8
    may_change = ("bike/rides", "bike/stations")
    params_schema = {"start": str, "start_id": int, "end": str, "end_id": int}
    template = "In Chat's CityBike, rent a bike at {start} and end the ride at {end}."
    paraphrases = {
        "train": ("Take a CityBike from {start} to {end} (unlock it there, dock it at {end}).",
                  "Use the bike mini program in Chat: pick up at {start}, return at {end}."),
        "test": ("I'm riding from {start} over to {end}. Unlock a CityBike at the first and "
                 "end the ride at the second.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        start, end = route(rng, probe)
        return {"start": start["name"], "start_id": int(start["_id"]), "end": end["name"],
                "end_id": int(end["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("bike/rides", {"start": p["start"], "end": p["end"], "status": "done"}),
            expect("bike/stations", changed=docked(self.before("bike/stations"),
                                                    p["start_id"], p["end_id"])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from ride(device, self.params["start"], self.params["end"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Docks at a station other than the one asked for."""
        p = self.params
        other = next(s["name"] for s in device.probe.query("bike/stations")
                     if s["name"] not in (p["start"], p["end"]) and s["free_docks"] > 0)
        yield from ride(device, p["start"], other)
        yield Action("status", goal_status="complete")


@register_task
class BikeRideShare(ShareResultTask):
    """Ride between two stations and share the receipt to a chat: the ride and station
    changes of :class:`BikeRide`, plus one mini-program card in that chat naming both
    stations."""

    id = "BikeRideShare"
    apps = ("chat", "bike")
    category = "mini-app"
    difficulty = "hard"
    tags = ("dialog", "share")
    split = "test"
    optimal_steps = 11
    may_change = ("bike/rides", "bike/stations", "chat/messages")
    params_schema = {"start": str, "start_id": int, "end": str, "end_id": int, "chat": str,
                     "chat_id": int}
    template = ("Ride a CityBike from {start} to {end} using Chat, then share the ride receipt "
                "with {chat}.")
    paraphrases = {
        "test": ("Borrow a bike at {start}, return it at {end}, and post the receipt into my "
                 "{chat} chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        start, end = route(rng, probe)
        c = choice(rng, chats(probe, unread=None))
        return {"start": start["name"], "start_id": int(start["_id"]), "end": end["name"],
                "end_id": int(end["_id"]), "chat": c["title"], "chat_id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("bike/rides", {"start": p["start"], "end": p["end"], "status": "done"}),
            expect("bike/stations", changed=docked(self.before("bike/stations"),
                                                    p["start_id"], p["end_id"])),
            added("chat/messages", {"chat_id": p["chat_id"], "type": "card", "sender": "me",
                                    "body": lambda v: f"{p['start']} to {p['end']}" in str(v)}))

    def _run(self, device: Device, chat: str) -> Iterator[Action]:
        yield from ride(device, self.params["start"], self.params["end"])
        yield from share_to(device, chat)


@register_task
class BikeCountAtStation(Task):
    """Read how many bikes a station has (the station list shows it).

    Fewer goals: the town has seven stations, so the question has seven wordings (the
    answers vary with the seed)."""

    id = "BikeCountAtStation"
    apps = ("chat", "bike")
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    answer_matcher = NumberMatch()
    params_schema = {"station": str, "station_id": int}
    template = "How many bikes are available at the {station} station in CityBike?"
    paraphrases = {
        "train": ("Check Chat's CityBike: how many bikes are docked at {station}?",),
        "test": ("Are there bikes at {station} right now? Tell me how many, per CityBike.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        s = choice(rng, probe.query("bike/stations"))
        return {"station": s["name"], "station_id": int(s["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return next(s["bikes"] for s in self.before("bike/stations")
                    if s["_id"] == self.params["station_id"])

    def _count(self, device: Device) -> str:
        want = f"{self.params['station']}, "
        for e in elements(device):
            if (e.resource_id or "").endswith("/station") and \
                    (e.content_description or "").startswith(want):
                return (e.content_description or "")[len(want):].split(" ")[0]
        raise RuntimeError(f"no station {self.params['station']} on screen")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield from scroll_to(device, text=self.params["station"], rid="station_title")
        yield Action("answer", text=self._count(device))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers the free docks instead of the bikes (or one more when they are equal)."""
        row = next(s for s in self.before("bike/stations")
                   if s["_id"] == self.params["station_id"])
        wrong = row["free_docks"] if row["free_docks"] != row["bikes"] else row["bikes"] + 1
        yield Action("answer", text=str(wrong))


@register_task
class BikeReserveInfeasible(Task):
    """Infeasible by design: CityBike rents bikes on the spot, it takes no reservations, and
    the station has no e-bike. :class:`BikeRideEbike` is its feasible twin."""

    id = "BikeReserveInfeasible"
    apps = ("chat", "bike")
    category = "mini-app"
    difficulty = "medium"
    tags = ("infeasible",)
    feasible = False
    optimal_steps = 5
    params_schema = {"station": str, "time": str}
    template = "Reserve an e-bike at {station} for tomorrow at {time} in CityBike."
    paraphrases = {
        "train": ("Book an electric bike at {station} for {time} tomorrow with CityBike.",),
        "test": ("Hold a CityBike e-bike for me at {station}, pickup tomorrow {time}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        none = [s for s in probe.query("bike/stations") if not s["ebikes"]]
        return {"station": str(choice(rng, none)["name"]),
                "time": ("7 AM", "8 AM", "9 AM", "5 PM", "6 PM")[int(rng.integers(5))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield from scroll_to(device, text=self.params["station"], rid="station_title")
        yield tap(device, text=self.params["station"], rid="station_title")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Unlocks a bike there now (when there is one) and claims success."""
        yield from open_mini(device, LABEL)
        st = next(s for s in device.probe.query("bike/stations") if s["bikes"] > 0)
        yield from scroll_to(device, text=st["name"], rid="station_title")
        yield tap(device, text=st["name"], rid="station_title")
        yield tap(device, text="Unlock", rid="unlock")
        yield Action("status", goal_status="complete")


def unlock_ebike(device: Device) -> Iterator[Action]:
    """On a station's page: Unlock its e-bike (read off the list)."""
    bike = next((e.text for e in elements(device)
                 if (e.resource_id or "").endswith("/bike_title")
                 and (e.text or "").startswith("E-")), None)
    if bike is None:
        raise OracleError("no e-bike at this station")
    yield tap(device, desc=f"Unlock {bike}", rid="unlock")


@register_task
class BikeRideEbike(Task):
    """The feasible twin of :class:`BikeReserveInfeasible`: its word "e-bike" for a ride on
    one now, from a station that has one. One finished ride on an e-bike between the two
    stations is added, and the e-bike moves from one station to the other. Without a twin
    "e-bike" was a word no feasible goal used, and ``status infeasible`` on sight of it won
    the infeasible task blind; which stations have e-bikes shows only in the app."""

    id = "BikeRideEbike"
    apps = ("chat", "bike")
    category = "mini-app"
    difficulty = "medium"
    tags = ("dialog",)
    optimal_steps = 8
    may_change = ("bike/rides", "bike/stations")
    params_schema = {"start": str, "start_id": int, "end": str, "end_id": int}
    template = "Ride a CityBike e-bike from {start} to {end}: unlock it now and dock it at {end}."
    paraphrases = {
        "train": ("In Chat's CityBike, take an electric bike at {start} and end the ride at "
                  "{end}.",),
        "test": ("I'd like an e-bike, not a classic one: pick one up at {start} with CityBike "
                 "and return it at {end}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        stations = probe.query("bike/stations")
        start = choice(rng, [s for s in stations if s["ebikes"] > 0])
        end = choice(rng, [s for s in stations
                           if s["free_docks"] > 0 and s["_id"] != start["_id"]])
        return {"start": start["name"], "start_id": int(start["_id"]), "end": end["name"],
                "end_id": int(end["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("bike/rides", {"start": p["start"], "end": p["end"], "status": "done",
                                 "bike": lambda v: str(v).startswith("E-")}),
            expect("bike/stations", changed=docked(self.before("bike/stations"),
                                                    p["start_id"], p["end_id"], ebike=True)))

    def _ride(self, device: Device, ebike: bool) -> Iterator[Action]:
        p = self.params
        yield from open_mini(device, LABEL)
        yield from scroll_to(device, text=p["start"], rid="station_title")
        yield tap(device, text=p["start"], rid="station_title")
        if ebike:
            yield from unlock_ebike(device)
        else:
            yield tap(device, text="Unlock", rid="unlock")
        yield tap(device, text="End ride", rid="end_ride")
        yield from scroll_to(device, text=p["end"], rid="dock_station_title")
        yield tap(device, text=p["end"], rid="dock_station_title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._ride(device, True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """A classic bike (the first in the list) over the same route."""
        yield from self._ride(device, False)
        yield Action("status", goal_status="complete")


@register_task
class BikeRoundTrip(Task):
    """Ride from one station to another and back: two finished rides are added (there and
    back); each station ends with as many bikes as it started with (an e-bike one way and a
    classic bike the other may swap the two stations' e-bikes)."""

    id = "BikeRoundTrip"
    apps = ("chat", "bike")
    category = "mini-app"
    difficulty = "hard"
    tags = ("dialog", "multi-step")
    optimal_steps = 13
    may_change = ("bike/rides", "bike/stations")
    params_schema = {"start": str, "start_id": int, "end": str, "end_id": int}
    template = ("With CityBike in Chat, ride from {start} to {end}, then take a bike from {end} "
                "back to {start}.")
    paraphrases = {
        "train": ("Do a CityBike round trip: {start} to {end} and back again.",),
        "test": ("I need to pop over to {end} from {start} and return. Use CityBike both "
                 "ways.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        start, end = route(rng, probe)
        return {"start": start["name"], "start_id": int(start["_id"]), "end": end["name"],
                "end_id": int(end["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        rides = expect("bike/rides", added=[
            {"start": p["start"], "end": p["end"], "status": "done"},
            {"start": p["end"], "end": p["start"], "status": "done"}])
        # the bikes may be swapped: an e-bike there and a classic one back, or the other way
        e = {r["_id"]: r["ebikes"] for r in self.before("bike/stations")}
        a, b = p["start_id"], p["end_id"]
        swaps = [{a: {"ebikes": e[a] + d}, b: {"ebikes": e[b] - d}} for d in (-1, 1)
                 if e[a] + d >= 0 and e[b] - d >= 0]
        return max(self.expect(rides, expect("bike/stations", changed=c))
                   for c in [None, *swaps])

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from ride(device, p["start"], p["end"])
        yield tap(device, text="Done", rid="done")
        yield from scroll_to(device, text=p["end"], rid="station_title")
        yield tap(device, text=p["end"], rid="station_title")
        yield tap(device, text="Unlock", rid="unlock")
        yield tap(device, text="End ride", rid="end_ride")
        yield from scroll_to(device, text=p["start"], rid="dock_station_title")
        yield tap(device, text=p["start"], rid="dock_station_title")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Only the way there."""
        yield from ride(device, self.params["start"], self.params["end"])
        yield Action("status", goal_status="complete")
