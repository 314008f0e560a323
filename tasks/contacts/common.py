"""Shared pieces of the Contacts tasks: reading the provider rows, the usual UI paths."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import FIRST_NAMES, LAST_NAMES
from phoneworld_gym.matchers import digits, normalize
from phoneworld_gym.oracle import scroll_to, tap, type_into


def by_id(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {int(r["_id"]): r for r in rows}


def pick(rng: np.random.Generator, probe: Probe, *, where: Any = None) -> dict[str, Any]:
    """A random contact row (optionally satisfying ``where(row)``)."""
    rows = [r for r in probe.contacts() if r["display_name"] and (where is None or where(r))]
    if not rows:
        raise RuntimeError("no contact fits this task's needs")
    return rows[int(rng.integers(len(rows)))]


def new_name(rng: np.random.Generator, probe: Probe) -> tuple[str, str]:
    """A (first, last) name that nobody in the address book has yet."""
    taken = {r["display_name"] for r in probe.contacts()}
    while True:
        first = FIRST_NAMES[int(rng.integers(len(FIRST_NAMES)))]
        last = LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]
        if f"{first} {last}" not in taken:
            return first, last


def same_name(a: str, b: str) -> bool:
    return normalize(a) == normalize(b)


def same_number(a: str, b: str) -> bool:
    return digits(a) == digits(b) and bool(digits(a))


def others_unchanged(before: list[dict[str, Any]], after: list[dict[str, Any]],
                     changed: set[int]) -> bool:
    """Every contact except the ids in ``changed`` is still there, as it was."""
    b, a = by_id(before), by_id(after)
    return all(a.get(i) == row for i, row in b.items() if i not in changed) and \
        set(a) - set(b) <= changed


def other_contact(rows: list[dict[str, Any]], cid: int, where: Any = None) -> dict[str, Any]:
    """Someone else than contact ``cid``, preferably with the same first name (the likely
    mix-up), optionally satisfying ``where(row)``: near misses use it."""
    me = next(r for r in rows if r["_id"] == cid)
    first = me["display_name"].split()[0]
    pool = [r for r in rows if r["_id"] != cid and (where is None or where(r))]
    same_first = [r for r in pool if r["display_name"].split()[0] == first]
    return (same_first or pool)[0]


def open_contact(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: open Contacts, search the name, open the contact."""
    yield Action("open_app", app_name="Contacts")
    for _ in range(5):
        if tap_if(device, rid="search_bar"):
            break
        yield Action("navigate_back")
    yield type_into(device, name, rid="search_bar")
    yield from scroll_to(device, text=name, rid="contact_title")
    yield tap(device, text=name, rid="contact_title")


def tap_if(device: Device, **kw: Any) -> bool:
    from phoneworld_gym.oracle import find

    return find(device, **kw) is not None
