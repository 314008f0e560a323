"""Rides data: the places a ride can start or end, the ride types with their rate card, past
trips with receipts and rides scheduled for later.

Geometry. The service area is the owner's metro: every address gets fixed coordinates (miles
east and north of the centre, in [-5, 5], from a hash of the address text), so the same two
addresses are always the same distance apart. A route follows the street grid: its length is
``|dx| + |dy|`` miles (0.5 at least) and it takes ``4 + 2.5 * miles`` minutes.

Fares. Each ride type has a base fare, a rate per mile, a rate per minute and a minimum; the
day's demand multiplies them (``surge``, seeded). A quote is
``max(minimum, (base + per_mile * miles + per_minute * minutes) * surge)``, rounded to cents;
the price shown before booking adds the booking fee, and a trip's receipt adds the tip too.
One ride type has no drivers nearby in each episode (``available`` 0): it shows as
unavailable and cannot be booked.

The store is ``{"places", "types", "trips", "scheduled", "surge", "card", "rider",
"next_trip", "next_sched", "start_clock"}`` (``start_clock``: the phone's clock when the
data was generated, ISO minute; the history lies before it, the scheduled rides after it).
Tables (PhoneWorld-only: a real ride app keeps its data private): ``rides/places`` and
``rides/types`` (static), ``rides/trips`` (``_id``, ``pickup``, ``dropoff`` (place names),
``pickup_key``, ``dropoff_key``, ``type``, ``start`` (ISO minute), ``miles``, ``minutes``,
``fare``, ``fee``, ``tip``, ``total``, ``status`` ("completed", "canceled" or "active"),
``driver``, ``car``, ``plate``, ``eta`` ("10:52 AM", arrival) and ``rides/scheduled``
(``_id``, ``pickup``, ``dropoff``, ``pickup_key``, ``dropoff_key``, ``type``, ``pickup_at``
(ISO minute), ``estimate``, ``status`` ("scheduled" or "canceled"))."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from typing import Any

import numpy as np

from phoneworld_gym.life import FIRST_NAMES, LAST_NAMES, STREETS, Life

BOOKING_FEE = 2.25
#: the tip amounts a receipt offers (dollars)
TIPS: tuple[int, ...] = (1, 2, 3, 5)
#: name, seats, blurb, glyph, base, per mile, per minute, minimum
TYPES: tuple[tuple[str, int, str, str, float, float, float, float], ...] = (
    ("Economy", 4, "Affordable everyday rides", "car", 2.00, 1.20, 0.22, 7.00),
    ("Comfort", 4, "Newer cars with extra legroom", "car", 3.00, 1.65, 0.30, 9.50),
    ("XL", 6, "Rides for groups up to 6", "bus", 3.50, 2.10, 0.38, 11.00),
    ("Green", 4, "Electric and hybrid cars", "leaf", 2.30, 1.35, 0.24, 8.00),
)
TYPE_NAMES: tuple[str, ...] = tuple(t[0] for t in TYPES)
#: the places of the city a rider can search for (some of them each episode)
LANDMARKS: tuple[str, ...] = (
    "Central Station", "City Airport", "Riverside Mall", "General Hospital", "Public Library",
    "Convention Center", "Lakeside Stadium", "State University", "Museum of Art",
    "Farmers Market", "Union Square", "Grand Hotel", "Botanical Garden", "Ferry Terminal",
    "Greyhound Bus Depot", "Old Town Theater",
)
CARS: tuple[str, ...] = (
    "Toyota Camry", "Honda Civic", "Hyundai Sonata", "Ford Fusion", "Kia Optima",
    "Toyota Prius", "Tesla Model 3", "Chevrolet Bolt", "Honda Odyssey", "Chrysler Pacifica",
    "Toyota Sienna", "Nissan Altima",
)
COLORS: tuple[str, ...] = ("White", "Black", "Silver", "Grey", "Blue", "Red")


# -- text helpers --------------------------------------------------------------------------
def fold(text: str) -> str:
    """Lower case without accents or commas: what search compares."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).lower().replace(",", " ")


def slug(text: str) -> str:
    """"Central Station" -> "central-station"."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")


def money(v: float) -> str:
    """"$12.40"."""
    return f"${v:,.2f}"


def clock(t: dt.datetime) -> str:
    """"7:05 AM"."""
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def day_label(t: dt.datetime) -> str:
    """"Wed, Mar 18"."""
    return f"{t.strftime('%a')}, {t.strftime('%b')} {t.day}"


def when_label(t: dt.datetime) -> str:
    """"Wed, Mar 18 · 7:45 AM"."""
    return f"{day_label(t)} · {clock(t)}"


# -- geometry and fares ----------------------------------------------------------------------
def coords(address: str) -> tuple[float, float]:
    """Fixed (x, y) miles of an address in the service area (see the module docstring)."""
    h = hashlib.sha256(fold(address).encode()).digest()
    x = (int.from_bytes(h[:4], "little") % 101) / 10 - 5
    y = (int.from_bytes(h[4:8], "little") % 101) / 10 - 5
    return round(x, 1), round(y, 1)


def route(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, int]:
    """(miles, minutes) from place ``a`` to place ``b``."""
    miles = max(0.5, round(abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]), 1))
    return miles, int(round(4 + 2.5 * miles))


def ride_type(st: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((t for t in st["types"] if t["name"] == name), None)


def upfront(st: dict[str, Any], kind: str, miles: float, minutes: int) -> float:
    """The price a rider is shown before booking: today's fare plus the booking fee."""
    return round(quote(st, kind, miles, minutes) + BOOKING_FEE, 2)


def quote(st: dict[str, Any], kind: str, miles: float, minutes: int,
          surge: float | None = None) -> float:
    """The fare of a ride of type ``kind`` (today's surge unless one is given), before the
    booking fee."""
    t = ride_type(st, kind)
    if t is None:
        raise ValueError(f"no ride type {kind!r}")
    s = st["surge"] if surge is None else surge
    raw = (t["base"] + t["per_mile"] * miles + t["per_minute"] * minutes) * s
    return round(max(t["minimum"], raw), 2)


# -- generation ----------------------------------------------------------------------------
def _place(key: str, name: str, address: str, kind: str) -> dict[str, Any]:
    x, y = coords(address)
    return {"key": key, "name": name, "address": address, "kind": kind, "x": x, "y": y}


def _pick(rng: np.random.Generator, seq: Any) -> Any:
    return seq[int(rng.integers(len(seq)))]


def _driver(rng: np.random.Generator) -> dict[str, str]:
    letters = "ABCDEFGHJKLMNPRSTUVWXYZ"
    plate = "".join(_pick(rng, letters) for _ in range(3)) + f"-{int(rng.integers(1000, 9999))}"
    car = _pick(rng, CARS)
    return {"driver": f"{_pick(rng, FIRST_NAMES)} {_pick(rng, LAST_NAMES)[0]}.",
            "car": f"{_pick(rng, COLORS)} {car}", "plate": plate,
            "stars": f"{4.6 + int(rng.integers(0, 5)) / 10:.1f}"}


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Places (Home, Work, ten landmarks, the homes of the life's people), the four ride
    types with one unavailable, six to nine past trips and one to three scheduled rides
    around ``life.now`` (the phone's start clock)."""
    assert life.owner.home is not None
    city = life.owner.home
    places = [_place("home", "Home", city.one_line(), "home"),
              _place("work", "Work", life.work.one_line(), "work")]
    for i in sorted(int(i) for i in rng.choice(len(LANDMARKS), size=10, replace=False)):
        street = f"{int(rng.integers(1, 999))} {_pick(rng, STREETS)}"
        address = f"{street}, {city.city}, {city.state} {city.zip}"
        places.append(_place(slug(LANDMARKS[i]), LANDMARKS[i], address, "place"))
    seen = {p["address"] for p in places}
    for person in life.people:
        if person.home is not None and person.home.one_line() not in seen:
            seen.add(person.home.one_line())
            places.append(_place("addr-" + slug(person.home.one_line()), person.home.street,
                                 person.home.one_line(), "address"))
    surge = round(1.0 + int(rng.integers(0, 5)) * 0.1, 1)
    off = TYPE_NAMES[1 + int(rng.integers(0, 3))]  # Economy always runs
    types = [{"name": n, "seats": seats, "blurb": blurb, "glyph": glyph, "base": base,
              "per_mile": pm, "per_minute": pmin, "minimum": mn, "available": n != off,
              "pickup_min": int(rng.integers(2, 10))}
             for n, seats, blurb, glyph, base, pm, pmin, mn in TYPES]
    st: dict[str, Any] = {"places": places, "types": types, "trips": [], "scheduled": [],
                          "surge": surge, "next_trip": 1, "next_sched": 1,
                          "card": f"Visa •••• {int(rng.integers(1000, 9999))}",
                          "rider": life.owner.first,
                          "start_clock": life.now.isoformat(timespec="minutes")}
    _history(rng, st, life.today)
    _schedule(rng, st, life.today)
    return st


def _history(rng: np.random.Generator, st: dict[str, Any], today: dt.date) -> None:
    """Six to nine past trips over the four weeks before ``today`` (one of them canceled),
    oldest first."""
    by_key = {p["key"]: p for p in st["places"]}
    others = [p["key"] for p in st["places"] if p["kind"] in ("place", "address")]
    n = int(rng.integers(6, 10))
    days = sorted((int(d) for d in rng.choice(np.arange(1, 29), size=n, replace=False)),
                  reverse=True)
    canceled = int(rng.integers(n))
    for i, back in enumerate(days):
        r = rng.random()
        if r < 0.3:
            a, b = ("home", "work") if rng.random() < 0.5 else ("work", "home")
        else:
            a = "home" if r < 0.8 else "work"
            b = _pick(rng, others)
        start = dt.datetime.combine(today - dt.timedelta(days=back),
                                    dt.time(int(rng.integers(6, 22)),
                                            int(rng.integers(0, 12)) * 5))
        kind = _pick(rng, TYPE_NAMES)
        surge = round(1.0 + int(rng.integers(0, 4)) * 0.1, 1)
        # the latest two trips are not tipped yet (a rider tips some time after a ride)
        tip = float(_pick(rng, (0.0, 0.0, 1.0, 2.0, 3.0))) if i < n - 2 else 0.0
        _add_trip(st, by_key[a], by_key[b], kind, start, rng, surge=surge, tip=tip,
                  status="canceled" if i == canceled else "completed")


def _schedule(rng: np.random.Generator, st: dict[str, Any], today: dt.date) -> None:
    """One to three rides scheduled for the two weeks after ``today``, each to another
    place."""
    by_key = {p["key"]: p for p in st["places"]}
    pool = [p["key"] for p in st["places"] if p["kind"] == "place"] + ["work"]
    dests = [pool[int(i)] for i in rng.choice(len(pool), size=int(rng.integers(1, 4)),
                                              replace=False)]
    kinds = [t["name"] for t in st["types"] if t["available"]]
    for d in dests:
        day = today + dt.timedelta(days=int(rng.integers(1, 15)))
        at = dt.datetime.combine(day, dt.time(int(rng.integers(5, 21)),
                                              int(rng.integers(0, 4)) * 15))
        add_scheduled(st, by_key["home"], by_key[d], _pick(rng, kinds), at)


def _add_trip(st: dict[str, Any], a: dict[str, Any], b: dict[str, Any], kind: str,
              start: dt.datetime, rng: np.random.Generator, *, surge: float | None = None,
              tip: float = 0.0, status: str = "completed") -> dict[str, Any]:
    miles, minutes = route(a, b)
    fare = 0.0 if status == "canceled" else quote(st, kind, miles, minutes, surge)
    fee = 0.0 if status == "canceled" else BOOKING_FEE
    tip = 0.0 if status == "canceled" else tip
    t_type = ride_type(st, kind)
    wait = int(t_type["pickup_min"]) if t_type else 5
    trip = {"id": st["next_trip"], "pickup": a["name"], "dropoff": b["name"],
            "pickup_key": a["key"], "dropoff_key": b["key"], "type": kind,
            "start": start.isoformat(timespec="minutes"), "miles": miles, "minutes": minutes,
            "fare": fare, "fee": fee, "tip": tip, "total": round(fare + fee + tip, 2),
            "status": status,
            "eta": clock(start + dt.timedelta(minutes=wait + minutes)), **_driver(rng)}
    st["next_trip"] += 1
    st["trips"].append(trip)
    return trip


def book_now(st: dict[str, Any], a: dict[str, Any], b: dict[str, Any], kind: str,
             now: dt.datetime) -> dict[str, Any]:
    """Request a ride now: an ``active`` trip with a driver on the way (the driver comes from
    a generator seeded by the trip's number, so a replay gets the same one)."""
    rng = np.random.default_rng(1000 + int(st["next_trip"]))
    return _add_trip(st, a, b, kind, now, rng, status="active")


def add_scheduled(st: dict[str, Any], a: dict[str, Any], b: dict[str, Any], kind: str,
                  at: dt.datetime) -> dict[str, Any]:
    """Reserve a ride for ``at``."""
    miles, minutes = route(a, b)
    ride = {"id": st["next_sched"], "pickup": a["name"], "dropoff": b["name"],
            "pickup_key": a["key"], "dropoff_key": b["key"], "type": kind,
            "pickup_at": at.isoformat(timespec="minutes"),
            "estimate": upfront(st, kind, miles, minutes), "status": "scheduled"}
    st["next_sched"] += 1
    st["scheduled"].append(ride)
    return ride


def place(st: dict[str, Any], key: Any) -> dict[str, Any] | None:
    return next((p for p in st["places"] if p["key"] == key), None)


def trip(st: dict[str, Any], tid: Any) -> dict[str, Any] | None:
    return next((t for t in st["trips"] if t["id"] == tid), None)


def scheduled(st: dict[str, Any], sid: Any) -> dict[str, Any] | None:
    return next((s for s in st["scheduled"] if s["id"] == sid), None)


def upcoming(st: dict[str, Any]) -> list[dict[str, Any]]:
    """Scheduled rides not canceled, soonest first."""
    return sorted((s for s in st["scheduled"] if s["status"] == "scheduled"),
                  key=lambda s: (s["pickup_at"], s["id"]))


def past(st: dict[str, Any]) -> list[dict[str, Any]]:
    """Trips, newest first."""
    return sorted(st["trips"], key=lambda t: (t["start"], t["id"]), reverse=True)


def search(st: dict[str, Any], query: str) -> list[dict[str, Any]]:
    """Places whose name or address contains every word of ``query``."""
    words = fold(query).split()
    if not words:
        return []
    return [p for p in st["places"]
            if all(w in fold(p["name"] + " " + p["address"]) for w in words)]


# -- tables --------------------------------------------------------------------------------
def place_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": i + 1, "key": p["key"], "name": p["name"], "address": p["address"],
             "kind": p["kind"], "x": p["x"], "y": p["y"]} for i, p in enumerate(st["places"])]


def type_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": i + 1, "name": t["name"], "seats": t["seats"], "base": t["base"],
             "per_mile": t["per_mile"], "per_minute": t["per_minute"], "minimum": t["minimum"],
             "surge": st["surge"], "available": int(t["available"]),
             "pickup_min": t["pickup_min"]} for i, t in enumerate(st["types"])]


def trip_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    cols = ("pickup", "dropoff", "pickup_key", "dropoff_key", "type", "start", "miles",
            "minutes", "fare", "fee", "tip", "total", "status", "driver", "car", "plate",
            "eta")
    return [{"_id": t["id"], **{c: t[c] for c in cols}}
            for t in sorted(st["trips"], key=lambda t: t["id"])]


def scheduled_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    cols = ("pickup", "dropoff", "pickup_key", "dropoff_key", "type", "pickup_at", "estimate",
            "status")
    return [{"_id": s["id"], **{c: s[c] for c in cols}}
            for s in sorted(st["scheduled"], key=lambda s: s["id"])]


# -- fixtures ------------------------------------------------------------------------------
def schedule_fixture(st: dict[str, Any], pickup: Any = "home", dropoff: Any = None,
                     type: Any = "Economy", pickup_at: Any = None) -> dict[str, Any]:  # noqa: A002
    """Setup routine: reserve a ride from place ``pickup`` to place ``dropoff`` (place keys)
    of an available ``type`` at ``pickup_at`` (ISO minute, after the phone's clock when the
    data was generated: a fixture sets an episode up before it runs). Returns its ``_id``;
    a bad argument raises ``ValueError`` naming it and changes nothing."""
    a, b = place(st, pickup), place(st, dropoff)
    if a is None:
        raise ValueError(f"schedule_ride: pickup must be a place key, got {pickup!r}")
    if b is None or b is a:
        raise ValueError(f"schedule_ride: dropoff must be another place key, got {dropoff!r}")
    t = ride_type(st, type) if isinstance(type, str) else None
    if t is None or not t["available"]:
        raise ValueError(f"schedule_ride: type must be an available ride type "
                         f"{[x['name'] for x in st['types'] if x['available']]}, got {type!r}")
    try:
        at = dt.datetime.fromisoformat(pickup_at) if isinstance(pickup_at, str) else None
    except ValueError:
        at = None
    start = dt.datetime.fromisoformat(st["start_clock"])
    if at is None or at <= start:
        raise ValueError(f"schedule_ride: pickup_at must be an ISO date-time after "
                         f"{start.isoformat(timespec='minutes')}, got {pickup_at!r}")
    ride = add_scheduled(st, a, b, type, at)
    return {"_id": ride["id"], "estimate": ride["estimate"]}
