"""Shared pieces of the Travel (hotel booking) tasks: the app's tables and the usual UI paths.

Tables: ``travel/hotels`` (``_id``, ``name``, ``city``, ``address``, ``stars``, ``rating``,
``distance``, ``free_cancellation``, ``breakfast``), ``travel/rooms`` (``_id``,
``hotel_id``, ``name``, ``sleeps``, ``price`` per night, ``sold_out``: comma-separated ISO
nights with no room left), ``travel/bookings`` (``_id``, ``hotel_id``, ``hotel``, ``city``,
``room_id``, ``room``, ``checkin``, ``checkout``, ``nights``, ``guests``, ``guest_name``,
``total``, ``status`` "confirmed"/"cancelled", ``confirmation``) and ``travel/saved``
(``_id`` = the hotel's id). A room is free for a stay when none of its nights (check-in up
to the night before check-out) is sold out; that rule is written here from the table's
meaning, not taken from the app.

A real phone's booking app keeps its data private, so these tasks run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import (
    OracleError,
    elements,
    find,
    scroll_to,
    tap,
    text_of,
    type_into,
)
from phoneworld_gym.tasks import kit
from phoneworld_gym.tasks.kit import open_root, pick_date, today

#: towns a goal may ask for that the app has no stays in
UNSERVED: tuple[str, ...] = ("Honolulu", "Anchorage", "Key West", "Juneau", "Bar Harbor",
                             "Sedona", "Nantucket", "Aspen", "Moab", "Jackson Hole")


def nights_of(checkin: str, checkout: str) -> list[str]:
    a, b = dt.date.fromisoformat(checkin), dt.date.fromisoformat(checkout)
    return [(a + dt.timedelta(days=i)).isoformat() for i in range((b - a).days)]


def is_free(room: Row, checkin: str, checkout: str) -> bool:
    """No night of the stay is among the room's sold-out nights."""
    sold = set(filter(None, str(room["sold_out"]).split(",")))
    return not sold & set(nights_of(checkin, checkout))


def free_rooms(rooms: list[Row], hotel_id: int, checkin: str, checkout: str,
               guests: int) -> list[Row]:
    return [r for r in rooms if r["hotel_id"] == hotel_id and r["sleeps"] >= guests
            and is_free(r, checkin, checkout)]


def cheapest(rooms: list[Row], hotel_id: int, checkin: str, checkout: str,
             guests: int) -> Row | None:
    """The hotel's cheapest free room for the stay (lowest id on a tie), or None."""
    free = free_rooms(rooms, hotel_id, checkin, checkout, guests)
    return min(free, key=lambda r: (r["price"], r["_id"])) if free else None


def stay_dates(rng: np.random.Generator, start: dt.date, *, lo: int = 2, hi: int = 60,
               nights: tuple[int, int] = (1, 4)) -> tuple[str, str]:
    """(check-in, check-out) ISO dates of a stay arriving ``lo`` to ``hi`` - 1 days after
    ``start`` (the phone's date), for ``nights`` nights."""
    ci = start + dt.timedelta(days=int(rng.integers(lo, hi)))
    co = ci + dt.timedelta(days=int(rng.integers(nights[0], nights[1] + 1)))
    return ci.isoformat(), co.isoformat()


def day_words(iso: str) -> str:
    """"Saturday, March 21" for an ISO date (the kit's :func:`~phoneworld_gym.tasks.kit.
    day_words` of it)."""
    return kit.day_words(dt.date.fromisoformat(iso))


def upcoming(probe: Probe) -> list[Row]:
    """Confirmed bookings not yet checked out of (on the phone's date), whose hotel no other
    such booking shares."""
    day = today(probe)
    rows = [b for b in probe.query("travel/bookings") if b["status"] == "confirmed"
            and dt.date.fromisoformat(b["checkout"]) > day]
    names = [b["hotel"] for b in rows]
    return [b for b in rows if names.count(b["hotel"]) == 1]


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {int(r["_id"]): r for r in rows}


# -- UI paths ----------------------------------------------------------------------------------
def to_main(device: Device, tab: str = "Search") -> Iterator[Action]:
    """Open Travel, back out to its bottom navigation, and open ``tab`` (Search, Saved or
    Bookings) unless it shows."""
    yield from open_root(device, "Travel", lambda d: find(d, rid="nav_search") is not None
                         and d.probe.foreground_app() == "com.phoneworld.travel", tries=8,
                         fail="the Travel tabs never showed")
    yield from select(device, tab, f"nav_{tab.lower()}")


def select(device: Device, desc: str, rid: str) -> Iterator[Action]:
    """Tap a tab unless it is the selected one already."""
    i = find(device, desc=desc, rid=rid)
    if i is None:
        raise OracleError(f"no tab {desc!r}")
    if not elements(device)[i].is_selected:
        yield tap(device, desc=desc, rid=rid)


def fill_search(device: Device, place: str, checkin: str, checkout: str, guests: int, *,
                hotel: str = "") -> Iterator[Action]:
    """On the Search tab: the destination (the town ``place``, or with ``hotel`` that
    property in it), the dates through both date pickers, the adults through the stepper
    sheet, then Search."""
    yield tap(device, rid="destination")
    yield type_into(device, hotel or place, rid="destination_input")
    if hotel:
        yield tap(device, text=f"{hotel}, {place}", rid="suggestion")
    else:
        yield tap(device, text=place, contains=True, rid="suggestion")
    yield tap(device, rid="dates")
    yield from pick_date(device, dt.date.fromisoformat(checkin))
    yield from pick_date(device, dt.date.fromisoformat(checkout))
    have = int((text_of(device, rid="guests") or "0").split()[0])
    yield tap(device, rid="guests")
    for _ in range(abs(guests - have)):
        yield tap(device, desc="Increase adults" if guests > have else "Decrease adults")
    yield tap(device, text="Apply", rid="apply_guests")
    yield tap(device, text="Search", rid="search_button")


def search(device: Device, city: str, checkin: str, checkout: str, guests: int, *,
           hotel: str = "") -> Iterator[Action]:
    """From anywhere: the results of a search (``hotel`` first when given)."""
    yield from to_main(device)
    yield from fill_search(device, city, checkin, checkout, guests, hotel=hotel)


def open_hotel(device: Device, name: str) -> Iterator[Action]:
    """On the results: scroll to the hotel's card and open it."""
    yield from scroll_to(device, desc=name, rid="hotel_card")
    yield tap(device, desc=name, rid="hotel_card")


def find_hotel(device: Device, city: str, hotel: str, checkin: str, checkout: str,
               guests: int, by_city: bool = False) -> Iterator[Action]:
    """From anywhere: search the property by name for the stay and open it (it is listed
    first); ``by_city`` (the second path) searches the town and scrolls the results to it."""
    if by_city:
        yield from search(device, city, checkin, checkout, guests)
        yield from open_hotel(device, hotel)
        return
    yield from search(device, city, checkin, checkout, guests, hotel=hotel)
    yield tap(device, desc=hotel, rid="hotel_card")


def book_room(device: Device, room: str, guest_name: str | None = None) -> Iterator[Action]:
    """On a hotel: Select the room, (change the guest's name), Next, Book now."""
    yield from scroll_to(device, desc=f"Select {room}", rid="select_room")
    yield tap(device, desc=f"Select {room}", rid="select_room")
    if guest_name is not None:
        yield type_into(device, guest_name, rid="guest_name")
    yield tap(device, text="Next: Final step", rid="next_step")
    yield tap(device, text="Book now", rid="book_now")


def open_booking(device: Device, hotel: str, tab: str = "Upcoming") -> Iterator[Action]:
    """From anywhere: Bookings, the tab, the booking at ``hotel``."""
    yield from to_main(device, "Bookings")
    yield from select(device, tab, f"tab_{tab.lower()}")
    yield from scroll_to(device, desc=hotel, contains=True, rid="trip_card")
    yield tap(device, desc=hotel, contains=True, rid="trip_card")


def book_cheapest_here(device: Device, checkin: str, checkout: str,
                       guests: int) -> Iterator[Action]:
    """On a hotel's page: book its cheapest room free for the stay (read from the static
    rooms table, as a person compares the prices listed)."""
    name = text_of(device, rid="hotel_title") or ""
    h = next((h for h in device.probe.query("travel/hotels") if h["name"] == name), None)
    room = None if h is None else cheapest(device.probe.query("travel/rooms"), int(h["_id"]),
                                           checkin, checkout, guests)
    if room is None:
        raise OracleError(f"no free room at {name!r}")
    yield from book_room(device, str(room["name"]))
