"""Shared pieces of the Weather tasks: the rows of ``weather/cities`` (``_id``, ``name``,
``region``, ``home``), ``weather/settings`` (``_id``, ``temp_unit``, ``wind_unit``) and the
static ``weather/forecast`` (ten days per known city: ``city``, ``date``, ``high_c``,
``high_f``, ``low_c``, ``low_f``, ``sunrise``, ``sunset``, ...), and the UI paths (a saved
city, one day of its forecast, the city search).

A real phone's weather app keeps its data private, so these tasks run on PhoneWorld only.
The forecast never changes in an episode (it is a function of the city and the day, ten days
from the phone's start day), so a task may read it from the probe at any time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import open_root

#: every city the Weather app's search knows, with its region (as the suggestions show it)
KNOWN: tuple[tuple[str, str], ...] = (
    ("Springfield", "Illinois"), ("Portland", "Oregon"), ("Austin", "Texas"),
    ("Madison", "Wisconsin"), ("Boulder", "Colorado"), ("Raleigh", "North Carolina"),
    ("Salem", "Massachusetts"), ("Tucson", "Arizona"), ("Albany", "New York"),
    ("Eugene", "Oregon"), ("Savannah", "Georgia"), ("Burlington", "Vermont"),
    ("Ann Arbor", "Michigan"), ("Santa Fe", "New Mexico"), ("Duluth", "Minnesota"),
    ("Asheville", "North Carolina"), ("Chicago", "Illinois"), ("Seattle", "Washington"),
    ("Miami", "Florida"), ("New York", "New York"), ("San Francisco", "California"),
    ("London", "United Kingdom"), ("Paris", "France"), ("Berlin", "Germany"),
    ("Tokyo", "Japan"), ("Sydney", "Australia"), ("Toronto", "Canada"),
    ("Mexico City", "Mexico"),
)


def unit(rows: list[Row]) -> str:
    """"C" or "F": the temperature unit of a ``weather/settings`` table."""
    return str(rows[0]["temp_unit"])


def day_of(probe: Probe, city: str, date: str) -> Row:
    """The forecast of ``city`` on ``date`` (ISO)."""
    for r in probe.query("weather/forecast"):
        if r["city"] == city and r["date"] == date:
            return r
    raise KeyError(f"no forecast for {city} on {date}")


def long_day(d: dt.date) -> str:
    """"Tuesday, March 17": how a forecast row names its day (content-desc)."""
    return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}"


def to_main(device: Device) -> Iterator[Action]:
    """Open Weather and back out to a city's forecast."""
    yield from open_root(device, "Weather", "manage_cities",
                         fail="the Weather forecast never showed")


def to_cities(device: Device) -> Iterator[Action]:
    yield from to_main(device)
    yield tap(device, desc="Manage cities")


def open_city(device: Device, city: str) -> Iterator[Action]:
    """From anywhere: the saved cities, then ``city``'s forecast."""
    yield from to_cities(device)
    yield from scroll_to(device, desc=city, rid="saved_city")
    yield tap(device, desc=city, rid="saved_city")


def open_day(device: Device, city: str, day: dt.date) -> Iterator[Action]:
    """``city``'s forecast, scrolled to ``day``'s row, opened."""
    yield from open_city(device, city)
    yield from scroll_to(device, desc=long_day(day), rid="daily_row", contains=True)
    yield tap(device, desc=long_day(day), rid="daily_row", contains=True)


def add_city(device: Device, city: str, region: str) -> Iterator[Action]:
    """Saved cities, the first letters of ``city`` typed, its suggestion tapped."""
    yield from to_cities(device)
    yield type_into(device, city[:4], rid="city_search")
    yield tap(device, text=f"{city}, {region}", rid="suggestion")
