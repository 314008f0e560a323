"""Shared pieces of the Chat tasks: the ``chat/chats`` and ``chat/messages`` rows (see
:mod:`phoneworld_gym.apps.chat`, read here only through the probe) and the usual UI paths:
to the chat list, into a chat, typing and sending, and into a mini-program from Discover.

Chat is a PhoneWorld app (its tables are its own), so these tasks run in PhoneWorld only.
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import find, scroll_to, tap, type_into
from phoneworld_gym.task import Task
from phoneworld_gym.tasks.kit import open_root

#: texts a task asks to send
BODIES: tuple[str, ...] = (
    "On my way", "Running 10 minutes late", "See you at noon", "Can you call me later?",
    "Happy birthday!", "Thanks for yesterday", "Let's do Sunday instead",
    "I'll bring the snacks", "Good luck today!", "Just landed", "Dinner at 8 works for me",
    "Don't forget the tickets", "Sounds great, count me in", "I'm outside",
    "Miss you all", "Sent you the address",
)
#: the places the location picker lists (name, street), in the owner's city
PLACES: tuple[str, ...] = ("Central Station", "City Library", "Riverside Park", "Harbor Market",
                           "Luigi's Trattoria", "Green Leaf Cafe")


def chats(probe: Probe, *, kind: str | None = None, unread: bool | None = False) -> list[Row]:
    """Chat rows, filtered by kind ("direct"/"group") and by whether they have unread
    messages (opening one marks them read, which is a change)."""
    out = []
    for c in probe.query("chat/chats"):
        if kind is not None and c["kind"] != kind:
            continue
        if unread is not None and bool(c["unread"]) != unread:
            continue
        out.append(c)
    return out


def in_chat(rows: list[Row], chat_id: int) -> list[Row]:
    """The messages of one chat, oldest first."""
    return sorted((r for r in rows if r["chat_id"] == chat_id),
                  key=lambda r: (int(r["date"]), int(r["_id"])))


def to_list(device: Device) -> Iterator[Action]:
    """Open Chat on its Chats tab (from anywhere)."""
    yield from open_root(device, "Chat", "nav_chats", tries=6, package="com.phoneworld.chat")
    if find(device, rid="chat_row") is None:
        yield tap(device, desc="Chats")


def open_chat(device: Device, title: str) -> Iterator[Action]:
    """From anywhere: the chat titled ``title``, opened."""
    yield from to_list(device)
    yield from scroll_to(device, text=title, rid="chat_title")
    yield tap(device, text=title, rid="chat_title")


def send_text(device: Device, body: str) -> Iterator[Action]:
    """In a chat: type ``body`` and send it."""
    yield type_into(device, body, rid="chat_input")
    yield tap(device, rid="send")


def open_mini(device: Device, label: str) -> Iterator[Action]:
    """From anywhere: Chat's Discover tab, then the mini-program called ``label``."""
    yield from to_list(device)
    yield tap(device, desc="Discover")
    yield tap(device, desc=label)


def share_to(device: Device, title: str) -> Iterator[Action]:
    """On a mini-program's result: Share to chat, pick ``title``, Send."""
    yield from scroll_to(device, text="Share to chat")
    yield tap(device, text="Share to chat")
    yield from scroll_to(device, text=title, rid="target_chat_title")
    yield tap(device, text=title, rid="target_chat_title")
    yield tap(device, text="Send", rid="button2")


def last_text(device: Device) -> str:
    """The newest text bubble on the open chat's screen."""
    from phoneworld_gym.oracle import elements

    texts = [e.text for e in elements(device)
             if (e.resource_id or "").endswith("/message_text") and e.text]
    if not texts:
        raise RuntimeError("no text message on screen")
    return str(texts[-1])


def opened(before: list[Row], chats_before: list[Row], chat_id: int,
           added: list[dict[str, object]] | None = None) -> list[object]:
    """Checks for a chat the task opens: exactly the messages ``added`` to ``chat/messages``.
    Opening it marks its messages read (and its unread count 0), but that is view state
    (``ChatApp.view_state``), which the diff leaves out, so no check names it; the
    arguments the check no longer needs stay so callers read the same."""
    from phoneworld_gym.validators import expect

    return [expect("chat/messages", added=added or [])]


class ShareResultTask(Task):
    """A mini-app task whose result is shared into a named chat (``params["chat"]``):
    subclasses give ``_run(device, chat)``, the UI path ending in the share; the oracle shares
    into the right chat and the near miss into another one."""

    def _run(self, device: Device, chat: str) -> Iterator[Action]:
        raise NotImplementedError
        yield  # pragma: no cover

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["chat"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares the result into another chat."""
        other = next(c["title"] for c in device.probe.query("chat/chats")
                     if c["title"] != self.params["chat"])
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")
