"""Maps data: the places of the owner's city, where every address lies, routes between two
points, saved lists and recent searches.

Geometry. Each city of :data:`phoneworld_gym.life.CITIES` is a 4 x 4 mile grid: the first
half of :data:`~phoneworld_gym.life.STREETS` run east-west, the second half north-south, each
at a fixed offset from the centre, and a house number places an address along its street
(number 1 at the west/south edge, 999 at the east/north edge). So any address of the life's
form ("12 Oak Avenue, Austin, TX 78701") has coordinates, in miles from the centre of its city
plus the city's offset from the owner's city. Routes in a city follow the grid (the distance is
``|dx| + |dy|``, the same both ways); between cities they follow the straight line times 1.2.

A place is a dict: ``key`` (a stable slug), ``name``, ``category``, ``address``, ``x``, ``y``,
``phone``, ``rating``, ``reviews``, ``price``, ``hours`` (seven ``[open, close]`` minute pairs
or ``None`` when closed, Monday first). Businesses are drawn from the seed; the homes of the
life's people are places too (their ``category`` is "Home of <name>"), as are the owner's
Home and Work.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

import numpy as np

from phoneworld_gym.life import CITIES, STREETS, Life, random_phone

#: miles per hour and the fixed minutes added, per travel mode
MODES: dict[str, tuple[str, str, float, float]] = {
    # key: (label, icon, mph in town, minutes added)
    "drive": ("Drive", "car", 24.0, 2.0),
    "transit": ("Transit", "bus", 12.0, 6.0),
    "walk": ("Walk", "person_walking", 3.0, 0.0),
    "bike": ("Bike", "bicycle", 10.0, 0.0),
}
#: speeds between cities (mph)
_INTERCITY_MPH = {"drive": 55.0, "transit": 35.0, "walk": 3.0, "bike": 10.0}
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
LISTS = ("Favorites", "Want to go")
HALF = 2.0  #: a city spans [-HALF, HALF] miles each way
_EW = STREETS[: len(STREETS) // 2]  # streets running east-west (a fixed y)
_NS = STREETS[len(STREETS) // 2:]  # streets running north-south (a fixed x)

#: rough (latitude, longitude) of each city, for the distance between cities
_LATLON: dict[str, tuple[float, float]] = {
    "Springfield": (39.80, -89.64), "Portland": (45.52, -122.68), "Austin": (30.27, -97.74),
    "Madison": (43.07, -89.40), "Boulder": (40.01, -105.27), "Raleigh": (35.78, -78.64),
    "Salem": (42.52, -70.90), "Tucson": (32.22, -110.97), "Albany": (42.65, -73.76),
    "Eugene": (44.05, -123.09), "Savannah": (32.08, -81.09), "Burlington": (44.48, -73.21),
    "Ann Arbor": (42.28, -83.74), "Santa Fe": (35.69, -105.94), "Duluth": (46.79, -92.10),
    "Asheville": (35.60, -82.55),
}
_CITY_STATE = {c: (s, z) for c, s, z in CITIES}

#: business name pools by category: (category, icon, names, opening hours range, closing range)
_BUSINESSES: tuple[tuple[str, str, tuple[str, ...], tuple[int, int], tuple[int, int], int], ...] = (
    ("Café", "mug_hot", ("Blue Door Café", "Bean & Leaf Coffee", "Morning Ritual Café",
                        "The Daily Grind", "Copper Kettle Café"), (6, 8), (15, 19), 3),
    ("Pharmacy", "pills", ("CityCare Pharmacy", "Main Street Pharmacy",
                           "Wellness Corner Pharmacy"), (8, 9), (19, 22), 2),
    ("Museum", "tower", ("Museum of Art", "Natural History Museum", "Science Discovery Museum"),
     (9, 10), (17, 18), 2),
    ("Restaurant", "utensils", ("Saffron Kitchen", "Trattoria Roma", "Golden Dragon",
                                "Taco Fiesta", "The Green Fork"), (11, 12), (21, 23), 3),
    ("Bookstore", "book", ("Harbor Books", "Chapter One Books"), (9, 10), (19, 21), 1),
    ("Grocery store", "basket_shopping", ("Green Leaf Market", "Fresh Fields Grocery"),
     (7, 8), (21, 23), 1),
    ("Hardware store", "hammer", ("Hardware Haven",), (7, 8), (18, 20), 1),
    ("Bakery", "bread", ("Sunrise Bakery", "Golden Crust Bakery"), (6, 7), (14, 17), 1),
    ("Bike shop", "bicycle", ("Pedal Power Bikes",), (10, 10), (18, 19), 1),
    ("Park", "leaf", ("Riverside Park", "Maple Grove Park"), (6, 6), (22, 22), 1),
    ("Library", "book", ("Public Library",), (9, 10), (18, 20), 1),
)


def fold(text: str) -> str:
    """Lower case without accents or commas: what search compares ("Café" ~ "cafe")."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).lower().replace(",", " ")


def slug(name: str) -> str:
    """"Blue Door Café" -> "blue-door-cafe"."""
    plain = name.lower().replace("é", "e").replace("&", "and")
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")


# -- geometry ------------------------------------------------------------------------------
def _street_offset(street: str) -> tuple[str, float]:
    """("ew" | "ns", the fixed coordinate) of a street name."""
    if street in _EW:
        i, axis = _EW.index(street), "ew"
    else:
        i, axis = _NS.index(street), "ns"
    n = len(_EW)
    return axis, -HALF + (i + 0.5) * (2 * HALF / n)


def city_offset(city: str, home_city: str) -> tuple[float, float]:
    """Miles east and north of ``home_city``'s centre to ``city``'s centre."""
    (la, lo), (hla, hlo) = _LATLON[city], _LATLON[home_city]
    return (lo - hlo) * 69.0 * math.cos(math.radians((la + hla) / 2)), (la - hla) * 69.0


_ADDRESS = re.compile(r"^\s*(\d+)\s+([^,]+?),\s*([^,]+?),\s*([A-Z]{2})\s+(\d{5})\s*$")


def locate(address: str, home_city: str) -> tuple[float, float] | None:
    """(x, y) in miles from the centre of ``home_city`` of an address of the form
    "12 Oak Avenue, Austin, TX 78701"; None for an address this map does not know."""
    m = _ADDRESS.match(address or "")
    if m is None:
        return None
    number, street, city = int(m.group(1)), m.group(2).strip(), m.group(3).strip()
    if street not in STREETS or city not in _LATLON:
        return None
    axis, fixed = _street_offset(street)
    along = -HALF + (min(max(number, 1), 999) / 1000) * 2 * HALF
    x, y = (along, fixed) if axis == "ew" else (fixed, along)
    ox, oy = city_offset(city, home_city)
    return round(x + ox, 4), round(y + oy, 4)


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Route length in miles: along the grid in town, 1.2 x the straight line between towns."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if max(dx, dy) > 3 * HALF:
        return round(1.2 * math.hypot(dx, dy), 1)
    return round(dx + dy, 1)


def minutes(miles: float, mode: str) -> int:
    """Travel time in whole minutes (at least 1) for a route of ``miles`` by ``mode``."""
    if mode not in MODES:
        raise ValueError(f"unknown travel mode {mode!r}; modes: {sorted(MODES)}")
    _, _, mph, extra = MODES[mode]
    if miles > 6 * HALF:
        mph = _INTERCITY_MPH[mode]
    return max(1, int(round(miles / mph * 60 + extra)))


def duration_text(mins: int) -> str:
    """"45 min", "1 hr 5 min", "2 hr"."""
    if mins < 60:
        return f"{mins} min"
    h, m = divmod(mins, 60)
    return f"{h} hr {m} min" if m else f"{h} hr"


def clock_text(minute_of_day: int) -> str:
    """540 -> "9 AM", 1110 -> "6:30 PM"."""
    h, m = divmod(minute_of_day % (24 * 60), 60)
    suffix = "AM" if h < 12 else "PM"
    h12 = h % 12 or 12
    return f"{h12} {suffix}" if m == 0 else f"{h12}:{m:02d} {suffix}"


def hours_text(span: list[int] | None) -> str:
    """"9 AM–6 PM" or "Closed"."""
    if span is None:
        return "Closed"
    return f"{clock_text(span[0])}–{clock_text(span[1])}"


# -- generation ----------------------------------------------------------------------------
def _address(rng: np.random.Generator, city: str) -> str:
    state, zipc = _CITY_STATE[city]
    street = STREETS[int(rng.integers(len(STREETS)))]
    return f"{int(rng.integers(10, 990))} {street}, {city}, {state} {zipc}"


def _hours(rng: np.random.Generator, opens: tuple[int, int], closes: tuple[int, int],
           category: str) -> list[list[int] | None]:
    o = int(rng.integers(opens[0], opens[1] + 1)) * 60
    c = int(rng.integers(closes[0], closes[1] + 1)) * 60 + (30 if rng.random() < 0.3 else 0)
    week: list[list[int] | None] = []
    closed_day = int(rng.integers(0, 7)) if category in ("Museum", "Restaurant", "Bookstore") \
        and rng.random() < 0.6 else -1
    for d in range(7):
        if d == closed_day:
            week.append(None)
        elif d >= 5:  # weekends: later start, earlier close for most
            week.append([o + 60 if category != "Park" else o, c - 60 if category not in
                         ("Restaurant", "Park") else c])
        else:
            week.append([o, c])
    return week


def _place(key: str, name: str, category: str, icon: str, address: str,
           xy: tuple[float, float], **kw: Any) -> dict[str, Any]:
    p = {"key": key, "name": name, "category": category, "icon": icon, "address": address,
         "x": xy[0], "y": xy[1], "phone": "", "rating": 0.0, "reviews": 0, "price": "",
         "hours": None, "kind": "business"}
    p.update(kw)
    return p


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """The owner's city's businesses (a seeded pick of :data:`_BUSINESSES`), the homes of the
    life's people, Home and Work; two or three saved places and a few recent searches."""
    home = life.owner.home
    assert home is not None
    city = home.city
    places: list[dict[str, Any]] = []
    taken: set[str] = set()
    for category, icon, names, opens, closes, count in _BUSINESSES:
        order = rng.permutation(len(names))[:count]
        for i in order:
            name = names[int(i)]
            if category == "Museum" and name == "Museum of Art":
                name = f"{city} Museum of Art"
            address = _address(rng, city)
            while address in taken:
                address = _address(rng, city)
            taken.add(address)
            xy = locate(address, city)
            assert xy is not None
            places.append(_place(
                slug(name), name, category, icon, address, xy,
                phone=random_phone(rng), rating=round(float(3.4 + 1.5 * rng.random()), 1),
                reviews=int(rng.integers(12, 2400)),
                price="" if category in ("Park", "Museum", "Library", "Pharmacy") else
                "$" * int(rng.integers(1, 4)),
                hours=_hours(rng, opens, closes, category)))
    for label, addr, icon in (("Home", home, "home"), ("Work", life.work, "store")):
        xy = locate(addr.one_line(), city)
        assert xy is not None
        places.append(_place(label.lower(), label, label, icon, addr.one_line(), xy,
                             kind="label"))
    for p in life.people:
        if p.home is None:
            continue
        xy = locate(p.home.one_line(), city)
        assert xy is not None
        places.append(_place(f"home-of-{slug(p.name)}", p.home.street, f"Home of {p.name}",
                             "home", p.home.one_line(), xy, kind="home", person=p.name))
    businesses = [p for p in places if p["kind"] == "business"]
    picks = rng.permutation(len(businesses))[:4]
    saved = []
    for n, i in enumerate(picks[: 2 + int(rng.integers(0, 2))]):
        saved.append({"id": n + 1, "list": LISTS[0] if n < 2 else LISTS[1],
                      "place": businesses[int(i)]["key"]})
    recent = [{"id": n + 1, "query": businesses[int(i)]["name"], "place": businesses[int(i)]["key"]}
              for n, i in enumerate(rng.permutation(len(businesses))[:3])]
    return {"city": city, "places": places, "saved": saved, "next_saved": len(saved) + 1,
            "recent": recent, "next_recent": len(recent) + 1}


# -- queries and changes ---------------------------------------------------------------------
def place(store: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The place with this key; an address key (``addr:<one line>``) makes a dropped pin."""
    if key.startswith("addr:"):
        address = key[5:]
        xy = locate(address, store["city"])
        if xy is None:
            return None
        known = next((p for p in store["places"] if p["address"] == address), None)
        if known is not None:
            return known
        street, _, rest = address.partition(", ")
        return _place(key, street, "Address", "location_dot", address, xy, kind="pin")
    return next((p for p in store["places"] if p["key"] == key), None)


def search(store: dict[str, Any], query: str) -> list[dict[str, Any]]:
    """Places whose name, category, address or person match every word of ``query``
    (best first: name matches before the rest, then by name); an address of the map's form
    that no place has gives a dropped pin."""
    words = fold(query).split()
    if not words:
        return []
    hits = []
    for p in store["places"]:
        hay = fold(" ".join((p["name"], p["category"], p["address"], p.get("person", ""))))
        if all(w in hay.split() or any(t.startswith(w) for t in hay.split()) for w in words):
            in_name = all(any(t.startswith(w) for t in fold(p["name"]).split())
                          for w in words)
            hits.append((0 if in_name else 1, p["name"], p))
    hits.sort(key=lambda h: (h[0], h[1]))
    out = [h[2] for h in hits]
    if not out:
        pin = place(store, "addr:" + " ".join(query.split()))
        if pin is not None:
            out = [pin]
    return out


def suggestions(store: dict[str, Any], query: str, limit: int = 5) -> list[dict[str, Any]]:
    """Places for the search suggestions: names starting with what is typed (or containing
    it), businesses first."""
    q = " ".join(fold(query).split())
    if not q:
        return []
    starts = [p for p in store["places"] if fold(p["name"]).startswith(q)]
    contains = [p for p in store["places"] if q in fold(p["name"]) and p not in starts]
    return (starts + contains)[:limit]


def saved_in(store: dict[str, Any], list_name: str) -> list[dict[str, Any]]:
    return [s for s in store["saved"] if s["list"] == list_name]


def is_saved(store: dict[str, Any], key: str, list_name: str) -> bool:
    return any(s["place"] == key and s["list"] == list_name for s in store["saved"])


def toggle_saved(store: dict[str, Any], key: str, list_name: str) -> bool:
    """Add the place to a list, or take it off when it is there; True when it is now saved."""
    if list_name not in LISTS:
        raise ValueError(f"no saved list {list_name!r}; lists: {LISTS}")
    if is_saved(store, key, list_name):
        store["saved"] = [s for s in store["saved"]
                          if not (s["place"] == key and s["list"] == list_name)]
        return False
    store["saved"].append({"id": store["next_saved"], "list": list_name, "place": key})
    store["next_saved"] += 1
    return True


def remember(store: dict[str, Any], query: str, key: str = "") -> None:
    """Put a search (and the place it led to) at the top of the recents, once."""
    store["recent"] = [r for r in store["recent"] if r["query"].lower() != query.lower()]
    store["recent"].insert(0, {"id": store["next_recent"], "query": query, "place": key})
    store["next_recent"] += 1
    del store["recent"][8:]


def open_now(p: dict[str, Any], now: str) -> str:
    """"Open · Closes 6 PM", "Closed · Opens 9 AM Mon" or "" for places without hours, at
    the ISO time ``now`` (the phone's frozen clock)."""
    if not p.get("hours"):
        return ""
    import datetime as dt

    t = dt.datetime.fromisoformat(now)
    day, minute = t.weekday(), t.hour * 60 + t.minute
    span = p["hours"][day]
    if span is not None and span[0] <= minute < span[1]:
        return f"Open · Closes {clock_text(span[1])}"
    for k in range(0, 8):
        d = (day + k) % 7
        s = p["hours"][d]
        if s is not None and (k > 0 or minute < s[0]):
            when = "" if k == 0 else " " + DAYS[d][:3]
            return f"Closed · Opens {clock_text(s[0])}{when}"
    return "Closed"


# -- provider rows and fixtures ----------------------------------------------------------------
def place_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``maps/places`` (static): every place with its coordinates, phone, rating and hours
    (``hours_<day>`` columns as the app prints them, "Closed" when closed)."""
    rows = []
    for p in store["places"]:
        row = {"_id": p["key"], "name": p["name"], "category": p["category"],
               "kind": p["kind"], "address": p["address"], "x": p["x"], "y": p["y"],
               "phone": p["phone"], "rating": p["rating"], "person": p.get("person", "")}
        for d, day in enumerate(DAYS):
            row[f"hours_{day.lower()}"] = hours_text(p["hours"][d]) if p["hours"] else ""
            row[f"open_{day.lower()}"] = p["hours"][d][0] if p["hours"] and p["hours"][d] else -1
            row[f"close_{day.lower()}"] = p["hours"][d][1] if p["hours"] and p["hours"][d] \
                else -1
        rows.append(row)
    return rows


def saved_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``maps/saved``: one row per place in a list."""
    names = {p["key"]: p["name"] for p in store["places"]}
    return [{"_id": s["id"], "list": s["list"], "place": s["place"],
             "name": names.get(s["place"], s["place"])} for s in store["saved"]]


def recent_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``maps/recent``: recent searches, newest first (a by-product of searching)."""
    return [{"_id": r["id"], "query": r["query"], "place": r["place"]} for r in store["recent"]]


def fixture_save(store: dict[str, Any], place: str, list: str) -> int:  # noqa: A002
    """Setup: put place ``place`` (a key) in saved list ``list``; returns the row id."""
    if not any(p["key"] == place for p in store["places"]):
        raise ValueError(f"save: no place with key {place!r}")
    if list not in LISTS:
        raise ValueError(f"save: list must be one of {LISTS}, got {list!r}")
    if is_saved(store, place, list):
        raise ValueError(f"save: {place!r} is already in {list!r}")
    toggle_saved(store, place, list)
    return int(store["next_saved"] - 1)

