"""Shared pieces of the Browser tasks: what the mock sites say (``browser/pages``, a table
that never changes: stories with their ``rank``, recipes with ``counts`` of their counted
ingredients, the restaurant's and the bookshop's ``phone``, ``address``, ``hours_<day>``,
``close_<day>``), bookmarks (``browser/bookmarks``), submitted forms (``browser/forms``), and
the usual UI paths through Chrome."""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import find, scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import open_root

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
#: the two businesses with a website: name -> host
BUSINESSES = {"Olive & Thyme": "oliveandthyme.com",
              "Paper Lantern Books": "paperlanternbooks.com"}


def pages(probe: Probe) -> list[Row]:
    return probe.query("browser/pages")


def of_kind(probe: Probe, kind: str) -> list[Row]:
    return [r for r in pages(probe) if r["kind"] == kind]


def to_tab(device: Device) -> Iterator[Action]:
    """Open Chrome on its current tab (backing out of its other screens)."""
    yield from open_root(device, "Chrome", lambda d: find(d, rid="url_bar") is not None
                         and find(d, rid="home_button") is not None)


def open_url(device: Device, url: str, home: bool = False) -> Iterator[Action]:
    """Chrome, then ``url`` typed into the address bar (or, with ``home``, the second path,
    into the search box of the page the Home button opens)."""
    yield from to_tab(device)
    if home:
        yield tap(device, rid="home_button")
        yield type_into(device, url, rid="search_box")
    else:
        yield type_into(device, url, rid="url_bar")


def open_recipe(device: Device, dish: str, home: bool = False) -> Iterator[Action]:
    """Fork & Spoon's recipe list, then the dish."""
    yield from open_url(device, "forkandspoon.com", home)
    yield from scroll_to(device, text=dish, rid="recipe_title")
    yield tap(device, text=dish, rid="recipe_title")


def open_story(device: Device, headline: str, home: bool = False) -> Iterator[Action]:
    """The City Post's front page, then the story."""
    yield from open_url(device, "citypost.com", home)
    rid = "top_story" if find(device, text=headline, rid="top_story") is not None \
        else "headline"
    yield from scroll_to(device, text=headline, rid=rid)
    yield tap(device, text=headline, rid=rid)


def bookmark_here(device: Device) -> Iterator[Action]:
    """The three-dot menu's star."""
    yield tap(device, desc="More options")
    yield tap(device, desc="Bookmark")


def closing_text(row_text: str) -> str:
    """"Saturday: 9:00 AM – 6:30 PM" -> "6:30 PM"."""
    return row_text.split("–")[-1].strip()
