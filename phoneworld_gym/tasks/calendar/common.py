"""Shared pieces of the Calendar tasks: the ``calendar`` provider rows (CalendarContract
columns ``_id``, ``title``, ``dtstart``/``dtend`` in ms since the epoch, ``eventLocation``,
``description``), the phone's day, and the usual UI paths (the Schedule tab, the editor and
its date picker).

The phone's time zone is UTC, so a ``dtstart`` is the wall time the app shows; days count
from the phone's clock (``today(probe)``, ``self.start_day()``), never from a written date.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, elements, find, scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import clock, day_words, full_date, open_root, pick_date, today  # noqa: F401 (day_words, clock: re-exported)

#: titles of events a task asks to create (none of them is seeded)
NEW_TITLES: tuple[str, ...] = (
    "Piano lesson", "Haircut", "Book club", "Car service", "Parent-teacher meeting",
    "Vet appointment", "Farmers market", "Tennis with the club", "Passport renewal",
    "Movie night", "Volunteer shift", "Guitar practice", "Bike repair", "Tax advisor",
    "Language exchange", "Team offsite prep", "Swimming lesson", "Eye exam",
    "Apartment viewing", "Choir rehearsal", "Pottery class", "Flu shot", "Garden club",
    "Photography walk",
)
NEW_PLACES: tuple[str, ...] = (
    "Central Library", "Community Center", "Riverside Park", "Main Street Studio",
    "Town Hall", "Hilltop Cafe", "Union Station", "West End Clinic",
)


def epoch_ms(t: dt.datetime) -> int:
    return int(round(t.replace(tzinfo=dt.timezone.utc).timestamp() * 1000))


def from_ms(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.timezone.utc).replace(tzinfo=None)




def upcoming(probe: Probe, *, where: str = "") -> list[Row]:
    """Events from the phone's day on whose title only one event has (so the goal names one
    event); ``where="location"`` keeps those with a location."""
    rows = probe.query("calendar")
    day = today(probe)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["title"].lower()] = counts.get(r["title"].lower(), 0) + 1
    return [r for r in rows if from_ms(r["dtstart"]).date() >= day
            and counts[r["title"].lower()] == 1 and (not where or r.get(where))]


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {int(r["_id"]): r for r in rows}


def other_event(rows: list[Row], eid: int, key: str = "") -> Row:
    """Another event (the next one in time, with a ``key`` value of its own if asked)."""
    me = by_id(rows)[eid]
    pool = sorted((r for r in rows if r["_id"] != eid and (not key or r.get(key)
                                                            and r[key] != me[key])),
                  key=lambda r: abs(int(r["dtstart"]) - int(me["dtstart"])))
    return pool[0]


def to_schedule(device: Device) -> Iterator[Action]:
    """Open Calendar on its Schedule tab."""
    yield from open_root(device, "Calendar",
                         lambda d: find(d, desc="Schedule", rid="tab_schedule") is not None,
                         fail="no Schedule tab")
    if find(device, rid="schedule_list") is None:
        yield tap(device, desc="Schedule", rid="tab_schedule")


def open_event(device: Device, title: str) -> Iterator[Action]:
    """From anywhere: the schedule, scrolled to the event, opened."""
    yield from to_schedule(device)
    yield from scroll_to(device, text=title, rid="event_title")
    yield tap(device, text=title, rid="event_title")


def open_event_by_day(device: Device, title: str) -> Iterator[Action]:
    """The second path to an event: the Month tab, paged to the event's month, its day's
    cell, then the event in that day's agenda (not the Schedule list)."""
    day = next(from_ms(r["dtstart"]).date() for r in device.probe.query("calendar")
               if r["title"] == title)
    yield from to_schedule(device)
    yield tap(device, desc="Month", rid="tab_month")
    for _ in range(24):
        shown = next((dt.datetime.strptime(e.text, "%B %Y").date() for e in elements(device)
                      if e.text and re.fullmatch(r"[A-Z][a-z]+ \d{4}", e.text)), None)
        if shown is None:
            raise OracleError("the month grid shows no month")
        if (shown.year, shown.month) == (day.year, day.month):
            break
        later = (shown.year, shown.month) < (day.year, day.month)
        yield tap(device, rid="next_month" if later else "prev_month")
    yield tap(device, desc=full_date(day), rid="day_cell", contains=True)
    yield from scroll_to(device, text=title, rid="event_title")
    yield tap(device, text=title, rid="event_title")


def fill_times(device: Device, start: dt.time, end: dt.time) -> Iterator[Action]:
    yield type_into(device, clock(start), rid="start_time")
    yield type_into(device, clock(end), rid="end_time")


def create_event(device: Device, title: str, day: dt.date, start: dt.time, end: dt.time,
                 location: str = "") -> Iterator[Action]:
    """Create an event from the Schedule tab's "Create new event" button."""
    yield from to_schedule(device)
    yield tap(device, desc="Create new event")
    yield type_into(device, title, rid="title_field")
    yield from pick_date(device, day, "start_date")
    yield from fill_times(device, start, end)
    if location:
        yield type_into(device, location, rid="location_field")
    yield tap(device, rid="save")
