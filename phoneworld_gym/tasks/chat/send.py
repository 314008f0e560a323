"""Chat tasks that change ``chat/messages``: text a chat, send a place as a location, send a
photo from the camera roll, forward a message, and message someone who is not there
(infeasible)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import FIRST_NAMES, LAST_NAMES
from phoneworld_gym.oracle import find, scroll_to, tap
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.chat.common import (
    BODIES,
    PLACES,
    chats,
    in_chat,
    open_chat,
    opened,
    send_text,
    to_list,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import added, same_text


@register_task
class ChatSendText(Task):
    """Text a one-to-one chat: exactly one message from the owner with that text is added to
    it (the chat has nothing unread, so opening it changes nothing else)."""

    id = "ChatSendText"
    apps = ("chat",)
    difficulty = "easy"
    tags = ("form",)
    optimal_steps = 5
    may_change = ("chat/messages",)
    params_schema = {"name": str, "chat_id": int, "body": str}
    template = 'In Chat, send {name} the message "{body}".'
    paraphrases = {
        "train": ('Open Chat and tell {name}: "{body}".',
                  'Message {name} on Chat saying "{body}".'),
        "test": ('Could you write "{body}" to {name} in my chat app?',
                 'I want {name} to read "{body}" from me on Chat. Send it.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        return {"name": c["title"], "chat_id": int(c["_id"]),
                "body": BODIES[int(rng.integers(len(BODIES)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("chat/messages", {"chat_id": p["chat_id"], "sender": "me",
                                                   "type": "text",
                                                   "body": same_text(p["body"])}))

    def _send(self, device: Device, name: str) -> Iterator[Action]:
        yield from open_chat(device, name)
        yield from send_text(device, self.params["body"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._send(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends it to another one-to-one chat."""
        other = next(c["title"] for c in chats(device.probe, kind="direct")
                     if c["title"] != self.params["name"])
        yield from self._send(device, other)
        yield Action("status", goal_status="complete")


@register_task
class ChatSendLocation(Task):
    """Share a place as a location card in a group: one location message with that place's
    name is added to the group (opening a group with unread messages marks them read, which
    is expected too)."""

    id = "ChatSendLocation"
    apps = ("chat",)
    difficulty = "medium"
    tags = ("attach",)
    optimal_steps = 7
    may_change = ("chat/messages", "chat/chats")
    params_schema = {"group": str, "chat_id": int, "place": str}
    template = "Send the location of {place} to the {group} group in Chat."
    constraints = ("location",)
    paraphrases = {
        "train": ("Share {place} as a location in my {group} chat.",
                  "In the {group} group on Chat, drop a location pin for {place}."),
        "test": ("Let everyone in {group} know where {place} is by sending its location "
                 "card there.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="group", unread=None))
        return {"group": c["title"], "chat_id": int(c["_id"]),
                "place": PLACES[int(rng.integers(len(PLACES)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(*opened(  # type: ignore[arg-type]
            self.before("chat/messages"), self.before("chat/chats"), p["chat_id"],
            [{"chat_id": p["chat_id"], "sender": "me", "type": "location",
              "body": p["place"]}]))

    def _send(self, device: Device, place: str) -> Iterator[Action]:
        yield from open_chat(device, self.params["group"])
        yield tap(device, desc="More options")
        yield tap(device, desc="Location")
        yield from scroll_to(device, text=place, rid="place_title")
        yield tap(device, text=place, rid="place_title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._send(device, self.params["place"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends the place listed next to it."""
        i = PLACES.index(self.params["place"])
        yield from self._send(device, PLACES[(i + 1) % len(PLACES)])
        yield Action("status", goal_status="complete")


@register_task
class ChatSendPhoto(Task):
    """Send a named picture from the phone's camera roll to a one-to-one chat: one photo
    message whose path ends with that file name is added."""

    id = "ChatSendPhoto"
    apps = ("chat",)
    difficulty = "medium"
    tags = ("attach", "files")
    optimal_steps = 6
    may_change = ("chat/messages",)
    params_schema = {"name": str, "chat_id": int, "file": str}
    template = "Send the photo {file} to {name} in Chat."
    paraphrases = {
        "train": ("In Chat, share my picture {file} with {name}.",
                  "Pick {file} from my photos and send it to {name} on Chat."),
        "test": ("{name} wants to see {file}. Send it over Chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        pics = [r["_id"] for r in probe.query("files")
                if str(r["_id"]).startswith("/sdcard/DCIM/")
                and str(r["_id"]).lower().endswith((".jpg", ".jpeg", ".png"))]
        if not pics:
            raise NoInstance("no pictures under /sdcard/DCIM")
        path = sorted(pics)[int(rng.integers(len(pics)))]
        return {"name": c["title"], "chat_id": int(c["_id"]),
                "file": str(path).rsplit("/", 1)[-1]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("chat/messages", {
            "chat_id": p["chat_id"], "sender": "me", "type": "photo",
            "body": lambda v: str(v).rsplit("/", 1)[-1] == p["file"]}))

    def _send(self, device: Device, file: str) -> Iterator[Action]:
        yield from open_chat(device, self.params["name"])
        yield tap(device, desc="More options")
        yield tap(device, desc="Photos")
        yield from scroll_to(device, desc=file, rid="photo")
        yield tap(device, desc=file, rid="photo")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._send(device, self.params["file"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends another photo."""
        pics = sorted(str(r["_id"]).rsplit("/", 1)[-1] for r in device.probe.query("files")
                      if str(r["_id"]).startswith("/sdcard/DCIM/"))
        other = next(f for f in pics if f != self.params["file"])
        yield from self._send(device, other)
        yield Action("status", goal_status="complete")


@register_task
class ChatForward(Task):
    """Forward the newest message of one chat to another: one message with the same body
    and type is added to the target chat, from the owner."""

    id = "ChatForward"
    apps = ("chat",)
    difficulty = "hard"
    tags = ("long-press", "read-then-write")
    split = "test"
    optimal_steps = 7
    may_change = ("chat/messages",)
    params_schema = {"source": str, "target": str, "target_id": int, "body": str}
    template = "Forward the last message in my Chat conversation with {source} to {target}."
    paraphrases = {
        "test": ("Pass on {source}'s chat's newest message to {target} using Forward.",
                 "Take the most recent message in the {source} chat and forward it to "
                 "{target} on Chat."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        pool = chats(probe, kind="direct")
        src = choice(rng, pool)
        dst = choice(rng, [c for c in pool if c["_id"] != src["_id"]])
        last = in_chat(probe.query("chat/messages"), src["_id"])[-1]
        return {"source": src["title"], "target": dst["title"], "target_id": int(dst["_id"]),
                "body": str(last["body"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("chat/messages", {"chat_id": p["target_id"], "sender": "me",
                                                   "type": "text", "body": p["body"]}))

    def _forward(self, device: Device, nth_from_last: int) -> Iterator[Action]:
        p = self.params
        yield from open_chat(device, p["source"])
        hits = [i for i in range(40) if find(device, rid="message_text", nth=i) is not None]
        if len(hits) <= nth_from_last:
            raise RuntimeError("not enough messages on screen")
        yield Action("long_press", index=find(device, rid="message_text",
                                              nth=hits[-1 - nth_from_last]))
        yield tap(device, text="Forward", rid="menu_forward_title")
        yield from scroll_to(device, text=p["target"], rid="target_chat_title")
        yield tap(device, text=p["target"], rid="target_chat_title")
        yield tap(device, text="Send", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._forward(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Forwards the message before the last one."""
        yield from self._forward(device, 1)
        yield Action("status", goal_status="complete")


@register_task
class ChatMessageStranger(Task):
    """Infeasible by design: nobody of that name is among the contacts or the chats, so
    there is no one to message; the right move is to look and say so."""

    id = "ChatMessageStranger"
    apps = ("chat",)
    difficulty = "medium"
    tags = ("infeasible", "search")
    optimal_steps = 3
    feasible = False
    params_schema = {"name": str, "body": str}
    template = 'Send {name} "{body}" on Chat.'
    paraphrases = {
        "train": ('Open my chat with {name} and write "{body}".',
                  'Tell {name} "{body}" in Chat.'),
        "test": ('Ping {name} on Chat with "{body}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {c["display_name"] for c in probe.contacts()} | \
            {c["title"] for c in probe.query("chat/chats")}
        while True:
            name = f"{FIRST_NAMES[int(rng.integers(len(FIRST_NAMES)))]} " \
                   f"{LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]}"
            if name not in taken:
                return {"name": name, "body": BODIES[int(rng.integers(len(BODIES)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_list(device)
        yield tap(device, desc="Contacts")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends the text to the first chat instead and claims success."""
        first = device.probe.query("chat/chats")[0]
        if first["unread"]:
            first = chats(device.probe, kind="direct")[0]
        yield from open_chat(device, first["title"])
        yield from send_text(device, self.params["body"])
        yield Action("status", goal_status="complete")
