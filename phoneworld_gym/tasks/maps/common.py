"""Shared pieces of the Maps tasks: the places the Maps app serves (``maps/places``: ``_id``
(a stable key), ``name``, ``category``, ``kind``, ``address``, ``x``/``y`` in miles,
``phone``, ``hours_<day>``, ``close_<day>`` in minutes), saved places (``maps/saved``), the
travel figures a task expects, and the usual UI paths.

The figures are computed here from the coordinates by Maps' published rules (routes in town
follow the street grid, so a route is ``|dx| + |dy|`` miles; walking is 3 mph), not with the
app's code, so a bug in the app's router fails its tasks instead of passing them.
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import find, scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import open_root

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WALK_MPH = 3.0
PACKAGE = "com.phoneworld.maps"


def places(probe: Probe) -> list[Row]:
    """Every place Maps knows (a table that never changes in an episode)."""
    return probe.query("maps/places")


def businesses(probe: Probe) -> list[Row]:
    return [r for r in places(probe) if r["kind"] == "business"]


def by_key(rows: list[Row], key: str) -> Row:
    return next(r for r in rows if r["_id"] == key)


def home(rows: list[Row]) -> Row:
    return by_key(rows, "home")


def grid_miles(a: Row, b: Row) -> float:
    """The route length in town: along the street grid, to a tenth of a mile."""
    return round(abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]), 1)


def walk_minutes(a: Row, b: Row) -> int:
    return max(1, int(round(grid_miles(a, b) / WALK_MPH * 60)))


def to_explore(device: Device) -> Iterator[Action]:
    """Open Maps and get back to the Explore map (its tab in the bottom bar, or back)."""
    yield from open_root(device, "Maps", "search_bar", tries=6, tab="nav_explore",
                         tab_desc="Explore", package=PACKAGE)


def open_place(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: Maps, search the name, open it from the results."""
    yield from to_explore(device)
    yield tap(device, rid="search_bar")
    yield type_into(device, name, rid="search_field")
    yield from scroll_to(device, text=name, rid="result_title")
    yield tap(device, text=name, rid="result_title")


def browse_to_place(device: Device, name: str) -> Iterator[Action]:
    """The second path to a place: tap its pin on the Explore map when it shows one, else
    search its category ("Pharmacy") and pick it among the results (not its name)."""
    yield from to_explore(device)
    if find(device, desc=name, rid="map_pin") is not None:
        yield tap(device, desc=name, rid="map_pin")
        return
    category = next(r["category"] for r in places(device.probe) if r["name"] == name)
    yield tap(device, rid="search_bar")
    yield type_into(device, category, rid="search_field")
    yield from scroll_to(device, text=name, rid="result_title")
    yield tap(device, text=name, rid="result_title")


def closing_text(row_text: str) -> str:
    """"Saturday 9 AM–6:30 PM" -> "6:30 PM"."""
    return row_text.split("–")[-1].strip()
