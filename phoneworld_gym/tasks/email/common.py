"""Shared pieces of the Email tasks: reading the ``email/messages`` rows (``_id``, ``folder``,
``from``, ``to``, ``cc``, ``subject``, ``body``, ``date`` in ms, ``read``, ``starred``,
``attachments`` as ``[{name, size, sha256}]``) and the usual UI paths through the app.

The mailbox is the app's own table (Gmail's store is private on a real phone), so these tasks
are PhoneWorld-only; the people come from the contacts provider.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import find, scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import open_root

MAIL = "email/messages"
#: folders a received message can be in (not Sent, Drafts or Trash)
RECEIVED = ("inbox", "archive", "Work", "Receipts", "Travel")

SUBJECTS: tuple[str, ...] = (
    "Lunch next week", "Weekend plans", "Quick favour", "Photos from the trip",
    "Meeting agenda", "Book club", "Birthday party", "Recipe you asked for", "Carpool on Monday",
    "Concert tickets", "Garden tools", "Moving boxes",
)
BODIES: tuple[str, ...] = (
    "Are you free on Tuesday around noon?", "Let me know what works for you.",
    "Thanks so much for your help!", "I'll bring the snacks.", "See you there at 7.",
    "Can you send me the details?", "Sounds good to me.", "Happy to help anytime.",
    "Talk soon!", "Looking forward to it.",
)


def mail(probe: Probe) -> list[Row]:
    return probe.query(MAIL)


def newest(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (-int(r["date"]), -int(r["_id"])))


def received_from(rows: list[Row], address: str) -> list[Row]:
    """Messages received from ``address``, newest first."""
    return newest([r for r in rows if r["from"] == address and r["folder"] in RECEIVED])


def correspondents(probe: Probe) -> list[tuple[Row, Row]]:
    """(contact, their newest received message) for every named contact who has written to
    the owner (sorted by name)."""
    rows = mail(probe)
    out = []
    for c in sorted(probe.contacts(), key=lambda c: c["display_name"]):
        got = received_from(rows, c["email"]) if c["email"] and c["display_name"] else []
        if got:
            out.append((c, got[0]))
    return out


def day_of(ms: int) -> dt.date:
    return dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.timezone.utc).date()


def to_inbox(device: Device) -> Iterator[Action]:
    """Open Email and back out to the mail list."""
    yield from open_root(device, "Email", lambda d: find(d, rid="open_search") is not None
                         and find(d, rid="drawer") is None and find(d, rid="popup_menu") is None)


def search(device: Device, query: str) -> Iterator[Action]:
    """From anywhere: search the mail for ``query`` (results newest first)."""
    yield from to_inbox(device)
    yield tap(device, rid="open_search")
    yield type_into(device, query, rid="search_bar")


def open_result(device: Device, subject: str, nth: int = 0) -> Iterator[Action]:
    """Open the ``nth`` result with this subject from a list on screen."""
    yield from scroll_to(device, text=subject, rid="subject")
    yield tap(device, text=subject, rid="subject", nth=nth)


def compose(device: Device, name: str, subject: str, body: str) -> Iterator[Action]:
    """From the open compose screen: pick ``name`` from the suggestions, fill subject and body
    (taps Send)."""
    yield type_into(device, name, rid="to")
    yield tap(device, rid="contact_suggestion_title")
    yield type_into(device, subject, rid="subject")
    yield type_into(device, body, rid="body")
    yield tap(device, desc="Send")


def first_from(device: Device, name: str) -> str:
    """The subject of the first listed message whose sender is ``name`` (rows show the
    sender, then the date, subject and snippet)."""
    from phoneworld_gym.oracle import OracleError, elements

    sender = None
    for e in elements(device):
        rid = (e.resource_id or "").rsplit("/", 1)[-1]
        if rid == "sender":
            sender = e.text
        elif rid == "subject" and sender == name:
            return e.text or ""
    raise OracleError(f"no message from {name!r} listed")
