"""Shared pieces of the Contacts tasks: picking provider rows, names nobody has yet, the
near misses' likely mix-up, and the usual UI paths.

Everything here reads the phone through the probe (Android contacts-provider columns:
``_id``, ``display_name``, ``number``, ``email``, ``postal_address``, ``company``,
``starred``) or the screen, so the Contacts tasks run on a real phone too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.life import FIRST_NAMES, LAST_NAMES
from phoneworld_gym.matchers import normalize
from phoneworld_gym.oracle import scroll_to, tap, text_of, type_into
from phoneworld_gym.tasks.kit import choice, open_root

Where = Callable[[Row], bool]


def by_id(rows: list[Row]) -> dict[int, Row]:
    """Contact rows keyed by their ``_id``."""
    return {int(r["_id"]): r for r in rows}


def pick(rng: np.random.Generator, probe: Probe, *, where: Where | None = None) -> Row:
    """A random named contact row (optionally satisfying ``where(row)``)."""
    rows = [r for r in probe.contacts() if r["display_name"] and (where is None or where(r))]
    return choice(rng, rows, "contact")


def new_name(rng: np.random.Generator, probe: Probe) -> tuple[str, str]:
    """A (first, last) name, from the life's word lists, that nobody in the address book has
    yet."""
    taken = {normalize(r["display_name"]) for r in probe.contacts()}
    while True:
        first = FIRST_NAMES[int(rng.integers(len(FIRST_NAMES)))]
        last = LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]
        if normalize(f"{first} {last}") not in taken:
            return first, last


def same_name(a: str, b: str) -> bool:
    """The same name, ignoring case, accents, punctuation and spacing."""
    return normalize(a) == normalize(b)


def number_key(number: str) -> str:
    """The last ten digits: one person's number however it is written (a number without
    digits: itself, folded)."""
    d = re.sub(r"\D", "", str(number))
    return d[-10:] if d else str(number).strip().lower()


def other_person(rows: list[Row], name: str) -> Row:
    """Someone else than ``name``, preferably with the same first name (the likely mix-up)."""
    first = name.split()[0]
    pool = [r for r in rows if r["display_name"] != name]
    same = [r for r in pool if r["display_name"].split()[0] == first]
    return (same or pool)[0]


def other_contact(rows: list[Row], cid: int, where: Where | None = None) -> Row:
    """Someone else than contact ``cid``, preferably with the same first name (the likely
    mix-up), optionally satisfying ``where(row)``: near misses use it."""
    me = next(r for r in rows if r["_id"] == cid)
    first = me["display_name"].split()[0]
    pool = [r for r in rows if r["_id"] != cid and r["display_name"]
            and (where is None or where(r))]
    same_first = [r for r in pool if r["display_name"].split()[0] == first]
    return (same_first or pool)[0]


def to_list(device: Device) -> Iterator[Action]:
    """Open Contacts and back out to the contact list."""
    yield from open_root(device, "Contacts", "search_bar")


def open_contact(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: open Contacts, search the name, open the contact."""
    yield from to_list(device)
    yield type_into(device, name, rid="search_bar")
    yield from scroll_to(device, text=name, rid="contact_title")
    yield tap(device, text=name, rid="contact_title")


def browse_to_contact(device: Device, name: str) -> Iterator[Action]:
    """The second path: open Contacts and scroll the whole list (favourites, then everyone
    under letter headers) down to the name, without searching, then open the contact."""
    yield from to_list(device)
    if text_of(device, rid="search_bar"):
        yield type_into(device, "", rid="search_bar")
    yield from scroll_to(device, text=name, rid="contact_title")
    yield tap(device, text=name, rid="contact_title")


def edit_field(device: Device, name: str, field: str, value: str,
               clear: bool = True, browse: bool = False) -> Iterator[Action]:
    """Open a contact's editor, type ``value`` into ``field_<field>`` (replacing the old text
    unless ``clear`` is False) and save; ``browse`` finds the contact by scrolling the list."""
    yield from (browse_to_contact if browse else open_contact)(device, name)
    yield tap(device, desc="Edit contact")
    yield from scroll_to(device, rid=f"field_{field}")
    yield type_into(device, value, rid=f"field_{field}", clear=clear)
    yield tap(device, rid="save")


def delete_contact(device: Device, name: str, browse: bool = False) -> Iterator[Action]:
    """Open a contact and delete it (confirming the dialog); ``browse`` finds the contact by
    scrolling the list."""
    yield from (browse_to_contact if browse else open_contact)(device, name)
    yield tap(device, desc="Delete")
    yield tap(device, text="Delete", cls="Button")
