"""Weather data: the saved cities, the units and a deterministic forecast.

The store is ``{"cities": [{id, name, region, home}], "temp_unit": "C"|"F",
"wind_unit": "km/h"|"mph", "next_id": int, "forecast_seed": int, "forecast_from": ISO
date}``; the home city (the life's owner's town) comes first and cannot be removed. The
forecast is not stored: it is a pure function of the episode's forecast seed, the city and
the day (a hash of the three seeds it), as a weather service would answer at the phone's
start clock: ten days from the start day, kept in the store as ``forecast_from`` (by default
Saturday 2026-03-14), with the hourly strip from the hour the running clock shows. Each
city's temperature level is drawn from the seed too, not taken from its real climate: a
model that knows Miami is warmer than Duluth must still read the forecast. Tables
(PhoneWorld-only):
``weather/cities`` (``_id``, ``name``, ``region``, ``home``; in the order shown),
``weather/settings`` (one row: ``_id``, ``temp_unit``, ``wind_unit``) and the static
``weather/forecast`` (``_id``, ``city``, ``date``, ``day``, ``high_c``, ``low_c``, ``high_f``,
``low_f``, ``condition``, ``precip``, ``humidity``, ``wind_kmh``, ``wind_mph``, ``uv``,
``sunrise``, ``sunset``), ten days for every city the search knows.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import math
from typing import Any

import numpy as np

from phoneworld_gym.life import Life
from phoneworld_gym.world import START

DAYS = 10
#: (city, region, March high in °C, sunrise minute, sunset minute in mid-March); the real
#: March high is kept for reference only: forecasts draw each city's level (see ``_level``),
#: and a day's sunrise and sunset move a minute a day from the forecast's first day
CATALOGUE: tuple[tuple[str, str, int, int, int], ...] = (
    ("Springfield", "Illinois", 12, 7 * 60 + 3, 18 * 60 + 59),
    ("Portland", "Oregon", 13, 7 * 60 + 20, 19 * 60 + 13),
    ("Austin", "Texas", 23, 7 * 60 + 40, 19 * 60 + 38),
    ("Madison", "Wisconsin", 7, 7 * 60 + 9, 19 * 60 + 3),
    ("Boulder", "Colorado", 13, 7 * 60 + 13, 19 * 60 + 6),
    ("Raleigh", "North Carolina", 17, 7 * 60 + 24, 19 * 60 + 23),
    ("Salem", "Massachusetts", 7, 6 * 60 + 57, 18 * 60 + 52),
    ("Tucson", "Arizona", 25, 6 * 60 + 52, 18 * 60 + 43),
    ("Albany", "New York", 7, 7 * 60 + 9, 19 * 60 + 2),
    ("Eugene", "Oregon", 14, 7 * 60 + 22, 19 * 60 + 14),
    ("Savannah", "Georgia", 21, 7 * 60 + 37, 19 * 60 + 32),
    ("Burlington", "Vermont", 4, 7 * 60 + 5, 18 * 60 + 59),
    ("Ann Arbor", "Michigan", 8, 7 * 60 + 49, 19 * 60 + 42),
    ("Santa Fe", "New Mexico", 14, 7 * 60 + 10, 19 * 60 + 4),
    ("Duluth", "Minnesota", 1, 7 * 60 + 29, 19 * 60 + 22),
    ("Asheville", "North Carolina", 15, 7 * 60 + 38, 19 * 60 + 36),
    ("Chicago", "Illinois", 9, 6 * 60 + 59, 18 * 60 + 55),
    ("Seattle", "Washington", 12, 7 * 60 + 18, 19 * 60 + 14),
    ("Miami", "Florida", 27, 7 * 60 + 31, 19 * 60 + 26),
    ("New York", "New York", 10, 7 * 60 + 8, 19 * 60 + 3),
    ("San Francisco", "California", 17, 7 * 60 + 17, 19 * 60 + 14),
    ("London", "United Kingdom", 11, 6 * 60 + 10, 18 * 60 + 6),
    ("Paris", "France", 13, 7 * 60 + 18, 19 * 60 + 10),
    ("Berlin", "Germany", 9, 6 * 60 + 14, 18 * 60 + 8),
    ("Tokyo", "Japan", 14, 5 * 60 + 53, 17 * 60 + 47),
    ("Sydney", "Australia", 25, 7 * 60 + 0, 19 * 60 + 12),
    ("Toronto", "Canada", 5, 7 * 60 + 30, 19 * 60 + 25),
    ("Mexico City", "Mexico", 26, 7 * 60 + 26, 19 * 60 + 28),
)
CONDITIONS: tuple[str, ...] = ("Sunny", "Mostly sunny", "Partly cloudy", "Cloudy", "Showers",
                               "Rain", "Thunderstorms")
#: chance of rain (%) range per condition
PRECIP: dict[str, tuple[int, int]] = {
    "Sunny": (0, 5), "Mostly sunny": (0, 10), "Partly cloudy": (5, 20), "Cloudy": (10, 30),
    "Showers": (40, 70), "Rain": (60, 90), "Thunderstorms": (60, 95)}


def city_info(name: str) -> tuple[str, str, int, int, int]:
    for c in CATALOGUE:
        if c[0] == name:
            return c
    raise KeyError(f"no city {name!r} in the weather catalogue")


def to_f(c: int) -> int:
    """°C to the °F the app shows (rounded half up)."""
    return int(math.floor(c * 9 / 5 + 32 + 0.5))


def kmh_to_mph(v: int) -> int:
    return int(math.floor(v / 1.609344 + 0.5))


def clock(minute: int) -> str:
    """"6:59 PM" from minutes after midnight."""
    h, m = divmod(int(minute), 60)
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


#: the range (°C) a city's drawn temperature level comes from (highs stay above freezing:
#: a text that states "-2°" is judged less reliably than "12°")
LEVELS = (8, 30)


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def _level(city: str, seed: int) -> int:
    """The city's temperature level this episode, drawn from the forecast seed: the
    forecasts must not follow real climate, which a model knows without opening the app."""
    lo, hi = LEVELS
    return lo + _hash(f"{seed}|{city}|level") % (hi - lo + 1)


def forecast_seed(st: dict[str, Any]) -> int:
    """The episode's forecast seed (0 for a store saved before it was drawn)."""
    return int(st.get("forecast_seed", 0))


def forecast_from(st: dict[str, Any]) -> dt.date:
    """The forecast's first day: the phone's start day (a store saved before the day was
    kept started at the default clock, :data:`phoneworld_gym.world.START`)."""
    return dt.date.fromisoformat(str(st.get("forecast_from", START.date().isoformat())))


# bound: 1,024 days, ~1 KiB each: a world (forecast seed) reads at most 28 cities x 10 days,
# and a seed rarely comes back after its episode (8,192 kept ~300 worlds' forecasts, ~8 MiB)
@functools.lru_cache(maxsize=1024)
def _day(city: str, day: str, seed: int, first: str) -> dict[str, Any]:
    """``city``'s forecast on ``day`` (ISO) in a forecast whose first day is ``first``."""
    name, _region, _march_high, rise, sset = city_info(city)
    base = _level(city, seed)
    rng = np.random.default_rng(_hash(f"{seed}|{city}|{day}"))
    offset = (dt.date.fromisoformat(day) - dt.date.fromisoformat(first)).days
    cond = CONDITIONS[int(rng.choice(len(CONDITIONS),
                                     p=[0.2, 0.2, 0.2, 0.14, 0.12, 0.09, 0.05]))]
    high = base + int(rng.integers(-4, 5)) - (2 if cond in ("Rain", "Showers") else 0)
    low = high - int(rng.integers(5, 12))
    lo_p, hi_p = PRECIP[cond]
    wind = int(rng.integers(4, 33))
    return {"city": name, "date": day, "day": dt.date.fromisoformat(day).strftime("%A"),
            "high_c": high, "low_c": low, "high_f": to_f(high), "low_f": to_f(low),
            "condition": cond, "precip": int(rng.integers(lo_p, hi_p + 1)),
            "humidity": int(rng.integers(30, 60) + (25 if lo_p >= 40 else 0)),
            "wind_kmh": wind, "wind_mph": kmh_to_mph(wind), "uv": int(rng.integers(1, 9)),
            "sunrise": clock(rise - offset), "sunset": clock(sset + offset)}


def forecast(city: str, days: int = DAYS, seed: int = 0,
             first: dt.date = START.date()) -> list[dict[str, Any]]:
    """The ``days``-day forecast of ``city`` from ``first`` (the store's
    :func:`forecast_from`), for the forecast seed ``seed``."""
    return [dict(_day(city, (first + dt.timedelta(days=i)).isoformat(), seed,
                      first.isoformat())) for i in range(days)]


def hourly(city: str, hours: int = 8, seed: int = 0, *, now: dt.datetime,
           first: dt.date | None = None) -> list[tuple[int, int]]:
    """(hour of day, °C) from the hour of ``now`` on: a curve from the low at 5 AM to the
    high at 3 PM of the forecast's first day ``first`` (``now``'s day when not given)."""
    start = first if first is not None else now.date()
    today = _day(city, start.isoformat(), seed, start.isoformat())
    lo, hi = today["low_c"], today["high_c"]
    out = []
    for k in range(hours):
        h = (now.hour + k) % 24
        phase = math.cos((h - 15) / 24 * 2 * math.pi)
        out.append((h, int(round(lo + (hi - lo) * (phase + 1) / 2))))
    return out


def current(city: str, seed: int = 0, *, now: dt.datetime,
            first: dt.date | None = None) -> int:
    """The temperature at ``now`` (°C)."""
    return hourly(city, 1, seed, now=now, first=first)[0][1]


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """The owner's home town first, then one to three other towns: where people of the life
    live, or a big city; the forecast starts on the phone's start day."""
    st: dict[str, Any] = {"cities": [], "temp_unit": "F" if rng.random() < 0.5 else "C",
                          "wind_unit": "mph", "next_id": 1}
    home = life.owner.home.city if life.owner.home is not None else "Springfield"
    add_city(st, home, home=True)
    st["wind_unit"] = "mph" if st["temp_unit"] == "F" else "km/h"
    towns = [p.home.city for p in life.people if p.home is not None and p.home.city != home]
    extra = list(dict.fromkeys(towns))[:int(rng.integers(1, 3))]
    big = [c[0] for c in CATALOGUE[16:]]
    extra.append(big[int(rng.integers(len(big)))])
    for name in extra:
        if all(c["name"] != name for c in st["cities"]):
            add_city(st, name)
    st["forecast_seed"] = int(rng.integers(2**31 - 1))  # last: the draws above stay as they were
    st["forecast_from"] = life.today.isoformat()
    return st


def add_city(st: dict[str, Any], name: str, *, home: bool = False) -> dict[str, Any]:
    _, region, *_ = city_info(name)
    c = {"id": st["next_id"], "name": name, "region": region, "home": bool(home)}
    st["next_id"] += 1
    st["cities"].append(c)
    return c


def find(st: dict[str, Any], cid: Any) -> dict[str, Any] | None:
    return next((c for c in st["cities"] if c["id"] == cid), None)


def temp(st: dict[str, Any], c: int) -> str:
    """A temperature in the chosen unit: "57°"."""
    return f"{to_f(c) if st['temp_unit'] == 'F' else c}°"


def wind(st: dict[str, Any], kmh: int) -> str:
    return f"{kmh_to_mph(kmh)} mph" if st["wind_unit"] == "mph" else f"{kmh} km/h"


def suggestions(st: dict[str, Any], q: str) -> list[tuple[str, str, int, int, int]]:
    """Catalogue cities whose name starts with (or contains) ``q`` and are not saved."""
    q = q.strip().lower()
    if not q:
        return []
    saved = {c["name"] for c in st["cities"]}
    hits = [c for c in CATALOGUE if c[0] not in saved and q in c[0].lower()]
    return sorted(hits, key=lambda c: (not c[0].lower().startswith(q), c[0]))[:5]


def city_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": c["id"], "name": c["name"], "region": c["region"], "home": int(c["home"])}
            for c in st["cities"]]


def settings_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": 1, "temp_unit": st["temp_unit"], "wind_unit": st["wind_unit"]}]


def forecast_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """Ten days of every catalogue city (static: the same whatever the user does)."""
    rows: list[dict[str, Any]] = []
    for c in CATALOGUE:
        for d in forecast(c[0], seed=forecast_seed(st), first=forecast_from(st)):
            rows.append({"_id": len(rows) + 1, **d})
    return rows


def add_city_fixture(st: dict[str, Any], name: Any = None) -> dict[str, Any]:
    """Setup routine: save a city of the catalogue. Returns its ``name`` and ``_id``."""
    if not isinstance(name, str) or name not in {c[0] for c in CATALOGUE}:
        raise ValueError(f"add_city: name must be a city the app knows "
                         f"({', '.join(c[0] for c in CATALOGUE)}), got {name!r}")
    if any(c["name"] == name for c in st["cities"]):
        raise ValueError(f"add_city: {name!r} is already saved")
    c = add_city(st, name)
    return {"name": c["name"], "_id": c["id"]}


def set_units_fixture(st: dict[str, Any], temp_unit: Any = None,
                      wind_unit: Any = None) -> dict[str, Any]:
    """Setup routine: choose the units ("C"/"F", "km/h"/"mph"; None keeps one)."""
    if temp_unit is not None and temp_unit not in ("C", "F"):
        raise ValueError(f"set_units: temp_unit must be 'C' or 'F', got {temp_unit!r}")
    if wind_unit is not None and wind_unit not in ("km/h", "mph"):
        raise ValueError(f"set_units: wind_unit must be 'km/h' or 'mph', got {wind_unit!r}")
    if temp_unit is not None:
        st["temp_unit"] = temp_unit
    if wind_unit is not None:
        st["wind_unit"] = wind_unit
    return {"temp_unit": st["temp_unit"], "wind_unit": st["wind_unit"]}
