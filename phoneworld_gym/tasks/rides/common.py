"""Shared pieces of the Rides tasks: the rows of ``rides/places`` (``key``, ``name``,
``address``, ``kind``: home, work, place (a landmark) or address (a home of someone in the
life)), ``rides/types`` (``name``, ``available``), ``rides/trips`` and ``rides/scheduled``,
and the usual UI paths (plan a ride, pick a type, schedule it with the date and time
pickers, confirm).

A real phone's ride app keeps its data private, so these tasks run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, find, scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import clock, day_words, open_root, pick_date, short_day  # noqa: F401 (day_words, clock: re-exported)

TYPES: tuple[str, ...] = ("Economy", "Comfort", "XL", "Green")


def places(probe: Probe, *kinds: str) -> list[Row]:
    """The places of ``rides/places`` of the given kinds (all when none is given)."""
    return [r for r in probe.query("rides/places") if not kinds or r["kind"] in kinds]


def by_key(probe: Probe, key: str) -> Row:
    return next(r for r in probe.query("rides/places") if r["key"] == key)


def available(probe: Probe) -> list[str]:
    return [r["name"] for r in probe.query("rides/types") if r["available"]]


def unavailable(probe: Probe) -> list[str]:
    return [r["name"] for r in probe.query("rides/types") if not r["available"]]





def future_time(rng: np.random.Generator, start: dt.date,
                days: tuple[int, int] = (1, 14)) -> dt.datetime:
    """A pickup time on a day ``days`` after ``start`` (the phone's date), between 6:00 and
    21:45 in 15-minute steps."""
    day = start + dt.timedelta(days=int(rng.integers(*days)))
    return dt.datetime.combine(day, dt.time(int(rng.integers(6, 22)),
                                            int(rng.integers(0, 4)) * 15))


# -- UI paths --------------------------------------------------------------------------------
def to_home(device: Device) -> Iterator[Action]:
    """Open Rides and back out to its home screen ("Where to?")."""
    yield from open_root(device, "Rides", "where_to", tries=6,
                         fail="the Rides home screen never showed")


def to_activity(device: Device, tab: str = "Upcoming") -> Iterator[Action]:
    """Rides' Activity tab, on ``tab`` (Upcoming or Past)."""
    yield from to_home(device)
    yield tap(device, desc="Activity", rid="nav_activity")
    if tab != "Upcoming":
        yield tap(device, desc=tab)


def _pick_place(device: Device, field: str, name: str, query: str) -> Iterator[Action]:
    yield type_into(device, query, rid=field)
    yield from scroll_to(device, text=name, rid="place_result_title")
    yield tap(device, text=name, rid="place_result_title")


def plan(device: Device, pickup: Row, dropoff: Row) -> Iterator[Action]:
    """From anywhere: Where to?, the pickup when it is not Home, then the destination typed
    (a landmark by name, an address in full) and picked: the ride options show."""
    yield from to_home(device)
    yield tap(device, rid="where_to")
    if pickup["key"] != "home":
        yield from _pick_place(device, "pickup_text", pickup["name"], query_for(pickup))
    yield from _pick_place(device, "dropoff_text", dropoff["name"], query_for(dropoff))
    if find(device, rid="choose_button") is None:
        raise OracleError("the ride options did not open")


def query_for(place: Row) -> str:
    """What a person types to find a place: its name, or the whole address of a house."""
    return str(place["address"] if place["kind"] == "address" else place["name"])


def schedule(device: Device, at: dt.datetime) -> Iterator[Action]:
    """On the ride options: the pickup time chip, the date, the time (typed), OK."""
    yield tap(device, desc="Pickup time", rid="when_chip")
    yield from pick_date(device, at.date())
    yield type_into(device, str(at.hour % 12 or 12), rid="material_hour_text_input")
    yield type_into(device, f"{at.minute:02d}", rid="material_minute_text_input")
    period = "pm" if at.hour >= 12 else "am"
    yield tap(device, rid=f"material_clock_period_{period}_button")
    yield tap(device, rid="material_timepicker_ok_button")


def book(device: Device, pickup: Row, dropoff: Row, kind: str,
         at: dt.datetime | None = None) -> Iterator[Action]:
    """Plan the ride, choose its type (and pickup time), then confirm it."""
    yield from plan(device, pickup, dropoff)
    if at is not None:
        yield from schedule(device, at)
    yield tap(device, desc=kind, rid="ride_option")
    yield tap(device, rid="choose_button")
    yield tap(device, rid="confirm_button")


def open_scheduled(device: Device, dropoff: str) -> Iterator[Action]:
    """Activity, then the scheduled ride to ``dropoff``."""
    yield from to_activity(device)
    desc = f"Scheduled ride to {dropoff}"
    yield from scroll_to(device, desc=desc, rid="scheduled_ride")
    yield tap(device, desc=desc, rid="scheduled_ride")
