"""Travel data: the owner's hotel bookings and saved hotels, the search form and recent
searches, over the static hotel catalogue (:mod:`phoneworld_gym.apps.travel.catalogue`).

The store is ``{"catalogue": variant, "first_night": ISO date, "guest": {name, email},
"form": {city, hotel, checkin, checkout, guests}, "filters": {...}, "sort": str,
"bookings": [...], "saved": [hotel ids], "searches": [...], "next_id": int}``:
``first_night`` is the phone's date when the data was generated (its start clock), the
first night the catalogue sells and the day the owner's plans count from. A booking is
``{id, hotel_id, room_id, checkin, checkout, guests, guest_name, total, status,
confirmation}`` with ``status`` "confirmed" or "cancelled"; it is upcoming while its
check-out is after today (the phone's running clock), past otherwise.

Tables (PhoneWorld-only: a real phone's booking app keeps its data private):
``travel/hotels``, ``travel/rooms`` and ``travel/account`` (static), ``travel/bookings``,
``travel/saved`` and ``travel/searches`` (a byproduct: looking, not doing).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.apps.travel.catalogue import Catalogue, Hotel, Room, catalogue
from phoneworld_gym.life import Life

SORTS: tuple[str, ...] = ("Top picks", "Price (lowest first)", "Rating (highest first)",
                          "Distance from downtown")
#: the price filter's buckets: label -> (low, high) per night
PRICE_BUCKETS: dict[str, tuple[int, int]] = {"Under $100": (0, 99), "$100 - $200": (100, 200),
                                             "Over $200": (201, 10**6)}
MAX_GUESTS = 8
MAX_NIGHTS = 30


def no_filters() -> dict[str, Any]:
    return {"price": "", "stars": [], "free_cancellation": False, "breakfast": False}


def cat(st: dict[str, Any]) -> Catalogue:
    return catalogue(int(st["catalogue"]), day(st["first_night"]))


def day(iso: str) -> dt.date:
    return dt.date.fromisoformat(iso)


def nights(checkin: str, checkout: str) -> int:
    return (day(checkout) - day(checkin)).days


# -- generation --------------------------------------------------------------------------------
def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """The owner's travel: one or two past stays, one or two upcoming, sometimes a cancelled
    one, two or three saved hotels (never in the owner's home town) and a few recent
    searches; the form starts empty (:func:`new_form`). Dates count from ``life.today``,
    the phone's start date."""
    today = life.today
    variant = int(rng.integers(1, 2**31 - 1))
    shop = catalogue(variant, today)
    home = life.owner.home.city if life.owner.home is not None else ""
    away = [h for h in shop.hotels if h.city != home]
    st: dict[str, Any] = {"catalogue": variant, "first_night": today.isoformat(),
                          "guest": {"name": life.owner.name, "email": life.owner.email},
                          "filters": no_filters(), "sort": SORTS[0], "bookings": [],
                          "saved": [], "searches": [], "next_id": 1,
                          "next_confirmation": int(rng.integers(3_100_000, 3_900_000))}
    picks: list[Hotel] = []  # six hotels in six different towns
    for i in rng.permutation(len(away)):
        if all(p.city != away[int(i)].city for p in picks):
            picks.append(away[int(i)])
        if len(picks) == 6:
            break
    plans = [(-int(rng.integers(40, 120)), "confirmed"), (int(rng.integers(6, 20)), "confirmed")]
    if rng.random() < 0.6:
        plans.append((-int(rng.integers(8, 30)), "confirmed"))
    if rng.random() < 0.6:
        plans.append((int(rng.integers(25, 60)), "confirmed"))
    if rng.random() < 0.5:
        plans.append((int(rng.integers(10, 50)), "cancelled"))
    for (offset, status), h in zip(plans, picks):
        checkin = today + dt.timedelta(days=offset)
        checkout = checkin + dt.timedelta(days=int(rng.integers(1, 5)))
        room = h.rooms[int(rng.integers(len(h.rooms)))]
        guests = int(rng.integers(1, room.sleeps + 1))
        add_booking(st, h, room, checkin.isoformat(), checkout.isoformat(), guests,
                    life.owner.name, status=status)
    st["saved"] = [h.id for h in picks[len(plans):len(plans) + int(rng.integers(2, 4))]]
    if len(st["saved"]) < 2:
        st["saved"] = [h.id for h in away[-2:]]
    for _ in range(int(rng.integers(1, 4))):
        h = away[int(rng.integers(len(away)))]
        ci = today + dt.timedelta(days=int(rng.integers(3, 40)))
        co = ci + dt.timedelta(days=int(rng.integers(1, 4)))
        record_search(st, h.city, ci.isoformat(), co.isoformat(), int(rng.integers(1, 4)))
    st["form"] = new_form(today)
    return st


def new_form(today: dt.date) -> dict[str, Any]:
    """The search form as the app opens on ``today``: no destination, tonight only, two
    adults."""
    return {"city": "", "hotel": 0, "checkin": today.isoformat(),
            "checkout": (today + dt.timedelta(days=1)).isoformat(), "guests": 2}


def record_search(st: dict[str, Any], city: str, checkin: str, checkout: str,
                  guests: int) -> None:
    """Put a search first in the recent searches (once; at most five kept)."""
    entry = {"city": city, "checkin": checkin, "checkout": checkout, "guests": guests}
    st["searches"] = [entry] + [s for s in st["searches"] if s != entry][:4]


# -- availability ------------------------------------------------------------------------------
def free_rooms(h: Hotel, checkin: str, checkout: str, guests: int) -> list[Room]:
    """The rooms of ``h`` that sleep ``guests`` and have every night of the stay free."""
    return [r for r in h.rooms if r.sleeps >= guests and r.free(day(checkin), day(checkout))]


def fits(h: Hotel, guests: int) -> list[Room]:
    return [r for r in h.rooms if r.sleeps >= guests]


def from_price(h: Hotel, checkin: str, checkout: str, guests: int) -> int | None:
    """The cheapest free room's price per night (None: sold out for the stay)."""
    rooms = free_rooms(h, checkin, checkout, guests)
    return min(r.price for r in rooms) if rooms else None


def results(st: dict[str, Any], city: str, checkin: str, checkout: str,
            guests: int) -> list[Hotel]:
    """The hotels of a search after the store's filters, in its sort order (those sold out
    for the stay, or without a room for that many guests, last; a price filter leaves them
    out)."""
    f = st["filters"]
    out = []
    for h in cat(st).in_city(city):
        price = from_price(h, checkin, checkout, guests)
        if f["price"]:
            lo, hi = PRICE_BUCKETS[f["price"]]
            if price is None or not lo <= price <= hi:
                continue
        if f["stars"] and h.stars not in f["stars"]:
            continue
        if f["free_cancellation"] and not h.free_cancellation:
            continue
        if f["breakfast"] and not h.breakfast:
            continue
        out.append(h)

    def key(h: Hotel) -> tuple[Any, ...]:
        price = from_price(h, checkin, checkout, guests)
        sold = price is None
        if st["sort"] == SORTS[1]:
            return (sold, price or 0, h.id)
        if st["sort"] == SORTS[2]:
            return (sold, -h.rating, h.id)
        if st["sort"] == SORTS[3]:
            return (sold, h.distance, h.id)
        return (sold, -(h.rating * 10 + h.stars * 3), h.id)

    return sorted(out, key=key)


def active_filters(st: dict[str, Any]) -> int:
    f = st["filters"]
    return (bool(f["price"]) + len(f["stars"]) + bool(f["free_cancellation"])
            + bool(f["breakfast"]))


# -- bookings ----------------------------------------------------------------------------------
def add_booking(st: dict[str, Any], h: Hotel, room: Room, checkin: str, checkout: str,
                guests: int, guest_name: str, *, status: str = "confirmed") -> dict[str, Any]:
    """A new booking (the total is the room's price times the nights)."""
    b = {"id": st["next_id"], "hotel_id": h.id, "room_id": room.id, "checkin": checkin,
         "checkout": checkout, "guests": int(guests), "guest_name": guest_name,
         "total": room.price * nights(checkin, checkout), "status": status,
         "confirmation": f"{st['next_confirmation']}"}
    st["next_id"] += 1
    st["next_confirmation"] += int(7 + b["id"] * 13)
    st["bookings"].append(b)
    return b


def find_booking(st: dict[str, Any], bid: Any) -> dict[str, Any] | None:
    return next((b for b in st["bookings"] if b["id"] == bid), None)


def is_upcoming(b: dict[str, Any], today: dt.date) -> bool:
    """True while the booking's check-out is after ``today`` (the phone's date)."""
    return day(b["checkout"]) > today


def trips(st: dict[str, Any], kind: str, today: dt.date) -> list[dict[str, Any]]:
    """Bookings of a Trips tab on ``today`` (the phone's date): "upcoming" (confirmed,
    soonest first), "past" (confirmed, newest first) or "cancelled"."""
    if kind == "cancelled":
        return sorted((b for b in st["bookings"] if b["status"] == "cancelled"),
                      key=lambda b: b["checkin"])
    rows = [b for b in st["bookings"] if b["status"] == "confirmed"
            and is_upcoming(b, today) == (kind == "upcoming")]
    return sorted(rows, key=lambda b: b["checkin"], reverse=kind == "past")


def toggle_saved(st: dict[str, Any], hid: int) -> bool:
    """Save or unsave a hotel; True when it is saved afterwards."""
    if hid in st["saved"]:
        st["saved"] = [x for x in st["saved"] if x != hid]
        return False
    st["saved"].append(hid)
    return True


# -- tables ------------------------------------------------------------------------------------
def hotel_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The static ``travel/hotels`` table."""
    return [{"_id": h.id, "name": h.name, "city": h.city, "address": h.address,
             "stars": h.stars, "rating": h.rating, "reviews": h.reviews,
             "distance": h.distance, "free_cancellation": int(h.free_cancellation),
             "breakfast": int(h.breakfast), "facilities": ", ".join(h.facilities)}
            for h in cat(st).hotels]


def room_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The static ``travel/rooms`` table (``sold_out``: the comma-separated sold-out nights)."""
    return [{"_id": r.id, "hotel_id": r.hotel_id, "name": r.name, "sleeps": r.sleeps,
             "price": r.price, "sold_out": ",".join(r.sold_out)}
            for h in cat(st).hotels for r in h.rooms]


def booking_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``travel/bookings`` table, by ``_id``."""
    c = cat(st)
    rows = []
    for b in sorted(st["bookings"], key=lambda b: b["id"]):
        h, r = c.hotel(b["hotel_id"]), c.room(b["room_id"])
        rows.append({"_id": b["id"], "hotel_id": b["hotel_id"], "hotel": h.name if h else "",
                     "city": h.city if h else "", "room_id": b["room_id"],
                     "room": r.name if r else "", "checkin": b["checkin"],
                     "checkout": b["checkout"], "nights": nights(b["checkin"], b["checkout"]),
                     "guests": b["guests"], "guest_name": b["guest_name"],
                     "total": b["total"], "status": b["status"],
                     "confirmation": b["confirmation"]})
    return rows


def saved_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``travel/saved`` table: one row per saved hotel, ``_id`` the hotel's id."""
    c = cat(st)
    out = []
    for hid in sorted(st["saved"]):
        h = c.hotel(hid)
        out.append({"_id": hid, "hotel": h.name if h else "", "city": h.city if h else ""})
    return out


def account_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The static ``travel/account`` table: the signed-in traveller (the booking form's
    default guest)."""
    return [{"_id": 1, "name": st["guest"]["name"], "email": st["guest"]["email"]}]


def search_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``travel/searches`` byproduct table, newest first."""
    return [{"_id": i + 1, **s} for i, s in enumerate(st["searches"])]


# -- fixtures ----------------------------------------------------------------------------------
def _hotel_arg(st: dict[str, Any], who: str, hotel: Any) -> Hotel:
    h = next((h for h in cat(st).hotels if isinstance(hotel, str) and h.name == hotel), None)
    if h is None:
        raise ValueError(f"{who}: hotel must name a hotel of the catalogue, got {hotel!r}")
    return h


def _date_arg(who: str, name: str, v: Any) -> dt.date:
    try:
        return dt.date.fromisoformat(v) if isinstance(v, str) else dt.date.fromisoformat("")
    except ValueError:
        raise ValueError(f"{who}: {name} must be an ISO date (YYYY-MM-DD), got {v!r}") from None


def book_fixture(st: dict[str, Any], hotel: Any = None, room: Any = None, checkin: Any = None,
                 checkout: Any = None, guests: Any = 1, guest_name: Any = None) -> dict[str, Any]:
    """Setup routine: a confirmed booking of ``room`` (a room type's name) at ``hotel`` (a
    hotel's name). Returns its ``_id`` and ``confirmation``; a bad argument raises
    ``ValueError`` naming it and changes nothing. Sold-out nights are not checked (a task
    may need a booking made before they sold out)."""
    who = "book"
    h = _hotel_arg(st, who, hotel)
    r = next((r for r in h.rooms if r.name == room), None)
    if r is None:
        raise ValueError(f"{who}: room must be one of {[x.name for x in h.rooms]}, got {room!r}")
    ci, co = _date_arg(who, "checkin", checkin), _date_arg(who, "checkout", checkout)
    if not 1 <= (co - ci).days <= MAX_NIGHTS:
        raise ValueError(f"{who}: checkout must be 1 to {MAX_NIGHTS} nights after checkin, "
                         f"got {checkin!r} -> {checkout!r}")
    if not isinstance(guests, int) or isinstance(guests, bool) or not 1 <= guests <= r.sleeps:
        raise ValueError(f"{who}: guests must be 1..{r.sleeps} for {r.name}, got {guests!r}")
    name = st["guest"]["name"] if guest_name is None else guest_name
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{who}: guest_name must be a non-empty string, got {guest_name!r}")
    b = add_booking(st, h, r, ci.isoformat(), co.isoformat(), guests, name.strip())
    return {"_id": b["id"], "confirmation": b["confirmation"]}


def save_fixture(st: dict[str, Any], hotel: Any = None) -> dict[str, Any]:
    """Setup routine: save ``hotel`` (a hotel's name) to the favourites. Returns its
    ``_id``; an unknown hotel raises ``ValueError``."""
    h = _hotel_arg(st, "save", hotel)
    if h.id not in st["saved"]:
        st["saved"].append(h.id)
    return {"_id": h.id}
