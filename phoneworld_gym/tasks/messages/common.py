"""Shared pieces of the Messages tasks: threads of the ``sms`` provider rows (Android columns
``_id``, ``address``, ``body``, ``date`` in ms, ``type`` 1 received / 2 sent, ``read``), the
contacts they belong to, and the usual UI paths.

Everything reads the phone through the probe or the screen, so these tasks run on a real
phone whose messaging app shows conversations the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import elements, scroll_to, tap, type_into
from phoneworld_gym.tasks.contacts.common import number_key as key
from phoneworld_gym.tasks.kit import open_root

INBOX, SENT = 1, 2

#: short texts a task asks to send
BODIES: tuple[str, ...] = (
    "Running 10 minutes late", "See you at the cafe at noon", "Can you call me back?",
    "Happy birthday! Hope you have a great day", "Thanks for dinner last night",
    "I'll bring the charger tomorrow", "Are you free on Sunday afternoon?",
    "The meeting moved to 3 pm", "Don't forget your umbrella", "Just got home, talk soon",
    "Congrats on the new job!", "Can we reschedule to Friday?", "Leaving now, see you soon",
    "Please pick up some bread", "Good luck with the exam today",
)


def thread(rows: list[Row], number: str) -> list[Row]:
    """The messages exchanged with ``number``, oldest first."""
    k = key(number)
    return sorted((r for r in rows if key(r["address"]) == k),
                  key=lambda r: (int(r["date"]), int(r["_id"])))


def has_unread(rows: list[Row], number: str) -> bool:
    return any(r["type"] == INBOX and not r["read"] for r in thread(rows, number))


def texters(probe: Probe, *, unread: bool | None = False, with_thread: bool | None = None,
            received: bool = False) -> list[Row]:
    """Named contacts with a number, filtered by their conversation: ``unread`` False keeps
    those with nothing unread (opening a thread marks it read, which would be a change);
    ``with_thread`` True/False keeps those with / without a conversation; ``received`` keeps
    those who have texted the owner."""
    sms = probe.query("sms")
    out = []
    for c in probe.contacts():
        if not (c["display_name"] and c["number"]):
            continue
        t = thread(sms, c["number"])
        if unread is not None and has_unread(sms, c["number"]) != unread:
            continue
        if with_thread is not None and bool(t) != with_thread:
            continue
        if received and not any(r["type"] == INBOX for r in t):
            continue
        out.append(c)
    # one contact per number: the thread shows one name
    seen: set[str] = set()
    uniq = []
    for c in out:
        if key(c["number"]) not in seen:
            seen.add(key(c["number"]))
            uniq.append(c)
    return uniq


def to_list(device: Device) -> Iterator[Action]:
    """Open Messages and back out to the conversation list."""
    yield from open_root(device, "Messages", "search_bar")


def open_thread(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: the conversation list, then the conversation with ``name``."""
    yield from to_list(device)
    yield from scroll_to(device, text=name, rid="conversation_name")
    yield tap(device, text=name, rid="conversation_name")


def send_to(device: Device, who: str, body: str, *, number: bool = False) -> Iterator[Action]:
    """Start a chat with a contact picked by name (or a number typed in), then send
    ``body``."""
    yield from to_list(device)
    yield tap(device, desc="Start chat")
    yield type_into(device, who, rid="recipient_text_view")
    if number:
        yield tap(device, rid="send_to_number_title")
    else:
        yield from scroll_to(device, text=who, rid="contact_title")
        yield tap(device, text=who, rid="contact_title")
    yield from type_and_send(device, body)


def thread_from_contacts(device: Device, name: str) -> Iterator[Action]:
    """The second path to a conversation: Contacts, the person searched and opened, then
    their Text button (an sms: link Messages opens on the thread)."""
    from phoneworld_gym.tasks.contacts.common import open_contact

    yield from open_contact(device, name)
    yield tap(device, rid="text")


def type_and_send(device: Device, body: str) -> Iterator[Action]:
    yield type_into(device, body, rid="compose_message_text")
    yield tap(device, desc="Send SMS")


def last_received(device: Device) -> str:
    """The newest received bubble of the conversation on screen ("" if none)."""
    texts = [e.text or "" for e in elements(device)
             if (e.resource_id or "").endswith("/message_text")
             and not (e.content_description or "").startswith("You said")]
    return texts[-1] if texts else ""
