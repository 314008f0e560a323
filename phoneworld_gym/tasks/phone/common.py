"""Shared pieces of the Phone tasks: the ``call_log`` rows (Android's ``CallLog.Calls``
columns ``_id``, ``number``, ``name``, ``date`` in ms, ``duration`` in s, ``type`` 1 incoming /
2 outgoing / 3 missed / 5 rejected / 6 blocked, ``new``), the contacts they belong to, and the
usual UI paths through the dialer.

Everything reads the phone through the probe or the screen, so the tasks that use only
``call_log``, ``contacts`` and ``sms`` run on a real phone whose dialer looks alike.
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import find, tap, type_into
from phoneworld_gym.tasks.contacts.common import number_key as key
from phoneworld_gym.tasks.kit import open_root

INCOMING, OUTGOING, MISSED, REJECTED, BLOCKED = 1, 2, 3, 5, 6


def calls_with(rows: list[Row], number: str) -> list[Row]:
    """The calls with ``number``, newest first."""
    k = key(number)
    return sorted((r for r in rows if key(r["number"]) == k),
                  key=lambda r: (-int(r["date"]), -int(r["_id"])))


def named(probe: Probe) -> list[Row]:
    """Named contacts with a number, one per number (the dialer shows one name)."""
    seen: set[str] = set()
    out = []
    for c in sorted(probe.contacts(), key=lambda c: int(c["_id"])):
        if c["display_name"] and c["number"] and key(c["number"]) not in seen:
            seen.add(key(c["number"]))
            out.append(c)
    return out


def to_main(device: Device) -> Iterator[Action]:
    """Open Phone and back out to its tabs."""
    yield from open_root(device, "Phone", "search_box")


def open_contact(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: the Contacts tab, the name searched, their call details opened."""
    yield from to_main(device)
    yield tap(device, desc="Contacts")
    yield type_into(device, name, rid="search_box")
    yield tap(device, text=name, rid="contact_title")


def call_contact(device: Device, name: str) -> Iterator[Action]:
    """Call a contact from their details and hang up."""
    yield from open_contact(device, name)
    yield tap(device, rid="call_action")
    yield tap(device, desc="End call")


def dial(device: Device, number: str) -> Iterator[Action]:
    """Type a number on the keypad, call it and hang up."""
    yield from to_main(device)
    yield tap(device, desc="key pad")
    yield type_into(device, number, rid="digits")
    yield tap(device, desc="dial")
    yield tap(device, desc="End call")


def call_from_contacts(device: Device, name: str) -> Iterator[Action]:
    """The second path to a call: the Contacts app, the person searched and opened, their
    Call button (a tel: link the Phone app opens on its dial pad), dial, then hang up."""
    from phoneworld_gym.tasks.contacts.common import open_contact

    yield from open_contact(device, name)
    yield tap(device, rid="call")
    if find(device, desc="End call") is None:
        yield tap(device, desc="dial")
    yield tap(device, desc="End call")
