"""Cross-app tasks that carry information into and out of Rides.

- Contacts -> Rides: where a contact lives (their address in Contacts) is the drop-off of a
  ride booked now.
- Rides -> Messages: a ride booked now, its status (with the arrival time) shared into a
  text to a contact through the share sheet.
- Calendar -> Rides: an event's place and start time give a scheduled ride's drop-off and
  pickup time (a set number of minutes before the start).
- Rides -> Calendar: a scheduled ride's pickup day and time become a calendar event.

Rides' tables are PhoneWorld-only, so these run on PhoneWorld.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, tap, text_of, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.calendar.common import create_event, epoch_ms, open_event
from phoneworld_gym.tasks.contacts.common import browse_to_contact, open_contact
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.messages.common import SENT, texters
from phoneworld_gym.tasks.rides.common import (
    available,
    book,
    by_key,
    clock,
    day_words,
    open_scheduled,
    places,
)
from phoneworld_gym.validators import added, same_phone, same_text, states

#: events setup puts in the calendar (none is seeded), each at a landmark Rides knows
EVENTS: tuple[str, ...] = (
    "Job interview", "Concert", "Conference talk", "Doctor's appointment", "Art exhibition",
    "Wedding rehearsal", "Team dinner", "Book signing", "Charity gala", "Theater night",
)


def address_place(address: str) -> Row:
    """The place Rides finds for a street address typed in full (its name is the street)."""
    return {"key": "", "name": address.split(",")[0].strip(), "address": address,
            "kind": "address"}


def landmark(name: str) -> Row:
    return {"key": "", "name": name, "address": "", "kind": "place"}


def housed(probe: Probe) -> list[tuple[Row, Row]]:
    """(contact, Rides place) for the contacts whose address Rides knows as a house."""
    houses = {p["address"]: p for p in places(probe, "address")}
    return [(c, houses[c["postal_address"]]) for c in probe.contacts()
            if c["display_name"] and c.get("postal_address") in houses]


def new_rows(before: list[Row], now: list[Row]) -> list[Row]:
    ids = {r["_id"] for r in before}
    return [r for r in now if r["_id"] not in ids]


@register_task
class CrossAppRideToContact(Task):
    """Book a ride now from Home to where a contact lives: the address is only in Contacts.
    Exactly one active trip of that type to that house is added."""

    id = "CrossAppRideToContact"
    apps = ("contacts", "rides")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search", "confirmation")
    optimal_steps = 11
    may_change = ("rides/trips",)
    params_schema = {"name": str, "type": str, "dropoff_key": str}
    template = "Book a ride from Home to {name}'s place right now, ride type {type}."
    constraints = (("from home", "from my home"), "now")
    paraphrases = {
        "train": ("Get me a car ({type}) from home to {name}'s place now; their address is in "
                  "my contacts.",
                  "Order a ride of type {type} from my home to where {name} lives, leaving now."),
        "test": ("I'm visiting {name}. Look up their address and have a {type} car take me there "
                 "from home now.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        pairs = housed(probe)
        if not pairs:
            raise NoInstance("no contact's address is a house Rides knows")
        c, p = pairs[int(rng.integers(len(pairs)))]
        kinds = available(probe)
        return {"name": c["display_name"], "type": kinds[int(rng.integers(len(kinds)))],
                "dropoff_key": p["key"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("rides/trips", {"pickup_key": "home",
                                                 "dropoff_key": p["dropoff_key"],
                                                 "type": p["type"], "status": "active"}))

    def _ride(self, device: Device, name: str, alt: bool = False) -> Iterator[Action]:
        yield from (browse_to_contact if alt else open_contact)(device, name)
        address = text_of(device, rid="address_title") or ""
        if not address:
            raise OracleError(f"{name} shows no address")
        yield from book(device, by_key(device.probe, "home"), address_place(address),
                        self.params["type"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._ride(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._ride(device, self.params["name"], alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """A ride to another contact's house."""
        other = next(c for c, p in housed(device.probe)
                     if p["key"] != self.params["dropoff_key"])
        yield from self._ride(device, other["display_name"])
        yield Action("status", goal_status="complete")


@register_task
class CrossAppShareRideEta(Task):
    """Book a ride now, then share its status with a contact as a text (Rides' share button,
    the share sheet, Messages): one active trip is added, and one sent text to that contact
    that states the trip's arrival time."""

    id = "CrossAppShareRideEta"
    apps = ("rides", "messages")
    category = "cross-app"
    difficulty = "hard"
    tags = ("share", "confirmation", "search")
    optimal_steps = 13
    may_change = ("rides/trips", "sms")
    params_schema = {"name": str, "number": str, "dropoff": str, "dropoff_key": str}
    template = ("Book an Economy ride from Home to {dropoff} now and text {name} when I'll "
                "get there.")
    constraints = ("Economy", ("from home", "home-to"), "now")
    paraphrases = {
        "train": ("Order an Economy car home-to-{dropoff} for now and share the ride's arrival "
                  "time with {name} by text message.",),
        "test": ("{name} is expecting me at {dropoff}. Call an Economy ride there from "
                 "home right now and send them my ETA over SMS.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe))
        b = choice(rng, places(probe, "place"))
        return {"name": c["display_name"], "number": c["number"], "dropoff": b["name"],
                "dropoff_key": b["key"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        new = new_rows(self.before("rides/trips"), device.probe.query("rides/trips"))
        eta = str(new[0]["eta"]) if len(new) == 1 else "00:00"
        return self.expect(
            added("rides/trips", {"pickup_key": "home", "dropoff_key": p["dropoff_key"],
                                  "type": "Economy", "status": "active"}),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": states(eta, kind="time")}))

    def _run(self, device: Device, name: str) -> Iterator[Action]:
        yield from book(device, by_key(device.probe, "home"),
                        by_key(device.probe, self.params["dropoff_key"]), "Economy")
        yield tap(device, text="Share trip status", rid="share_trip")
        yield tap(device, text="Messages", rid="sharesheet_target")
        yield type_into(device, name, rid="recipient_text_view")
        yield tap(device, text=name, rid="contact_title")
        yield tap(device, desc="Send SMS")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares it with someone else."""
        other = next(c["display_name"] for c in texters(device.probe)
                     if c["display_name"] != self.params["name"]
                     and c["number"] != self.params["number"])
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")


# -- Calendar -> Rides -------------------------------------------------------------------------
def event_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    """An event (a title not in the calendar yet) at a landmark, two to twelve days ahead,
    and how many minutes before its start the ride should pick the owner up."""
    taken = {r["title"].lower() for r in probe.query("calendar")}
    title = choice(rng, [{"t": t} for t in EVENTS if t.lower() not in taken])["t"]
    spot = choice(rng, places(probe, "place"))
    day = today(probe) + dt.timedelta(days=int(rng.integers(2, 13)))
    start = dt.datetime.combine(day, dt.time(int(rng.integers(9, 21)),
                                             int(rng.integers(0, 4)) * 15))
    return {"event": title, "place": spot["name"], "dropoff_key": spot["key"],
            "start": start.isoformat(timespec="minutes"),
            "lead": int(rng.choice([30, 45, 60]))}


def add_event(device: Device, p: dict[str, Any]) -> None:
    """Setup: the event, an hour and a half long, at the landmark."""
    start = dt.datetime.fromisoformat(p["start"])
    device.insert("calendar", {"title": p["event"], "dtstart": epoch_ms(start),
                               "dtend": epoch_ms(start + dt.timedelta(minutes=90)),
                               "eventLocation": p["place"], "description": ""})


_WHEN = re.compile(r"(\w+, \w+ \d+, \d{4})\s+(\d{1,2}:\d{2}\s*[AP]M)")


def read_event(device: Device, title: str) -> Iterator[Action]:
    """Open the event; its start and place are then :func:`event_on_screen`."""
    yield from open_event(device, title)


def event_on_screen(device: Device) -> tuple[dt.datetime, str]:
    """(start, location) of the event open in Calendar."""
    when = text_of(device, rid="event_when") or ""
    m = _WHEN.search(when.replace("\n", " "))
    where = text_of(device, rid="event_location") or ""
    if m is None or not where:
        raise OracleError(f"cannot read the event's start and place from {when!r}")
    start = dt.datetime.strptime(f"{m.group(1)} {m.group(2)}", "%A, %B %d, %Y %I:%M %p")
    return start, where


def scheduled_ride(p: dict[str, Any], kind: str) -> dict[str, Any]:
    """The scheduled ride the event asks for."""
    at = dt.datetime.fromisoformat(p["start"]) - dt.timedelta(minutes=int(p["lead"]))
    return {"pickup_key": "home", "dropoff_key": p["dropoff_key"], "type": kind,
            "pickup_at": at.isoformat(timespec="minutes"), "status": "scheduled"}


@register_task
class CrossAppRideForEvent(Task):
    """Schedule an Economy ride from Home to a calendar event's place, picking up a given
    number of minutes before it starts: the place and the start are only in Calendar.
    Exactly one scheduled ride with that drop-off and pickup time is added."""

    id = "CrossAppRideForEvent"
    apps = ("calendar", "rides")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "time-picker")
    split = "test"
    optimal_steps = 19
    may_change = ("rides/scheduled",)
    params_schema = {"event": str, "place": str, "dropoff_key": str, "start": str,
                     "lead": int}
    template = ('Schedule an Economy ride from Home to my "{event}" event so that I am '
                "picked up {lead} minutes before it starts.")
    constraints = ("Economy", ("from home", "from my home"))
    paraphrases = {
        "test": ('Check where and when "{event}" is in my calendar, and reserve an Economy '
                 "ride from home there with the pickup {lead} minutes ahead of the start.",
                 'Book a car in advance for "{event}": Economy, from my home, pickup {lead} '
                 "minutes before the event begins."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return event_params(rng, probe)

    def setup(self, device: Device) -> None:
        add_event(device, self.params)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("rides/scheduled", scheduled_ride(self.params, "Economy")))

    def _run(self, device: Device, lead: int) -> Iterator[Action]:
        yield from read_event(device, self.params["event"])
        start, where = event_on_screen(device)
        yield from book(device, by_key(device.probe, "home"), landmark(where), "Economy",
                        start - dt.timedelta(minutes=lead))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, int(self.params["lead"]))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Picked up when the event starts."""
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppScheduledRideToCalendar(Task):
    """Put a scheduled ride into the calendar: one event titled "Ride to <place>" from the
    pickup time, half an hour long, on the pickup day (both only in Rides)."""

    id = "CrossAppScheduledRideToCalendar"
    apps = ("rides", "calendar")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "date-picker")
    optimal_steps = 14
    may_change = ("calendar",)
    params_schema = {"dropoff": str, "day": str, "id": int, "title": str}
    template = ('Add my scheduled ride to {dropoff} on {day} to my calendar as "{title}", '
                "starting at the pickup time and lasting 30 minutes.")
    paraphrases = {
        "train": ('Block 30 minutes in Calendar called "{title}" at the pickup time of the '
                  "ride to {dropoff} I reserved for {day}.",),
        "test": ("I keep forgetting my reserved rides. Check when the {day} ride to {dropoff} "
                 'picks me up and create a half-hour event "{title}" at that time.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, [s for s in probe.query("rides/scheduled")
                         if s["status"] == "scheduled"])
        at = dt.datetime.fromisoformat(r["pickup_at"])
        return {"dropoff": r["dropoff"], "day": day_words(at.date()), "id": int(r["_id"]),
                "title": f"Ride to {r['dropoff']}"}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        ride = next(r for r in self.before("rides/scheduled") if r["_id"] == self.params["id"])
        start = dt.datetime.fromisoformat(ride["pickup_at"])
        return self.expect(added("calendar", {
            "title": same_text(self.params["title"]),
            "dtstart": epoch_ms(start), "dtend": epoch_ms(start + dt.timedelta(minutes=30))}))

    def _run(self, device: Device, shift: int) -> Iterator[Action]:
        yield from open_scheduled(device, self.params["dropoff"])
        day = text_of(device, rid="ride_date") or ""
        at = (text_of(device, rid="ride_time") or "").removeprefix("Pickup at ")
        try:
            start = dt.datetime.strptime(f"{day} {at}", "%a, %b %d, %Y %I:%M %p")
        except ValueError:
            raise OracleError(f"cannot read the pickup from {day!r} and {at!r}") from None
        start += dt.timedelta(minutes=shift)
        yield from create_event(device, self.params["title"], start.date(), start.time(),
                                (start + dt.timedelta(minutes=30)).time())

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The event an hour after the pickup."""
        yield from self._run(device, 60)
        yield Action("status", goal_status="complete")


__all__ = ["EVENTS", "add_event", "address_place", "clock", "day_words", "event_on_screen",
           "event_params", "housed", "landmark", "read_event", "scheduled_ride"]
