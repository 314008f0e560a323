"""Messages tasks that change the ``sms`` table: text a contact, text a number, delete a
conversation, reply to an unread one, and text someone who is not in the contacts
(infeasible)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import FIRST_NAMES, LAST_NAMES, random_phone
from phoneworld_gym.matchers import normalize
from phoneworld_gym.oracle import OracleError, find, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import other_person
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.messages.common import (
    BODIES,
    SENT,
    key,
    open_thread,
    send_to,
    texters,
    thread,
    thread_from_contacts,
    to_list,
    type_and_send,
)
from phoneworld_gym.validators import added, removed, same_phone, same_text


@register_task
class MessagesSendText(Task):
    """Text a contact: exactly one sent message (type 2) to their number with that text is
    added; nothing else in ``sms`` changes (the contact has nothing unread, so opening the
    conversation changes nothing)."""

    id = "MessagesSendText"
    apps = ("messages",)
    difficulty = "easy"
    tags = ("form", "search")
    optimal_steps = 7
    may_change = ("sms",)
    params_schema = {"name": str, "number": str, "body": str}
    template = 'Send a text message to {name} saying "{body}".'
    paraphrases = {
        "train": (
            'Text {name}: "{body}".',
            'Please message {name} the words "{body}".',
        ),
        "test": (
            'I need {name} to get this text from me: "{body}". Can you send it?',
            'Could you shoot {name} an SMS that says "{body}"?',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe))
        return {"name": c["display_name"], "number": c["number"],
                "body": BODIES[int(rng.integers(len(BODIES)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("sms", {"address": same_phone(p["number"]),
                                         "body": same_text(p["body"]), "type": SENT}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from send_to(device, self.params["name"], self.params["body"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Start from the person's Text button in Contacts instead of Messages' new chat."""
        yield from thread_from_contacts(device, self.params["name"])
        yield from type_and_send(device, self.params["body"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends the text to someone else (the same first name when there is one)."""
        pool = [c for c in device.probe.contacts()
                if key(c["number"]) in {key(t["number"]) for t in texters(device.probe)}]
        yield from send_to(device, other_person(pool, self.params["name"])["display_name"],
                           self.params["body"])
        yield Action("status", goal_status="complete")


@register_task
class MessagesSendToNumber(Task):
    """Text a number nobody in the contacts has: one sent message to it is added."""

    id = "MessagesSendToNumber"
    apps = ("messages",)
    difficulty = "medium"
    tags = ("form",)
    optimal_steps = 7
    split = "test"
    may_change = ("sms",)
    params_schema = {"number": str, "body": str}
    template = 'Text {number} "{body}".'
    paraphrases = {
        "test": (
            'Send an SMS with the text "{body}" to the number {number}.',
            'The number {number} isn\'t in my contacts, but please text it: "{body}".',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {key(c["number"]) for c in probe.contacts()} | \
            {key(r["address"]) for r in probe.query("sms")}
        while True:
            number = random_phone(rng)
            if key(number) not in taken:
                break
        return {"number": number, "body": BODIES[int(rng.integers(len(BODIES)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("sms", {"address": same_phone(p["number"]),
                                         "body": same_text(p["body"]), "type": SENT}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from send_to(device, self.params["number"], self.params["body"], number=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One digit off."""
        n = self.params["number"]
        wrong = n[:-1] + ("0" if n[-1] == "9" else str(int(n[-1]) + 1))
        yield from send_to(device, wrong, self.params["body"], number=True)
        yield Action("status", goal_status="complete")


@register_task
class MessagesDeleteThread(Task):
    """Delete the whole conversation with one contact: exactly its messages are removed."""

    id = "MessagesDeleteThread"
    apps = ("messages",)
    difficulty = "easy"
    tags = ("dialog", "long-press")
    optimal_steps = 4
    may_change = ("sms",)
    params_schema = {"name": str, "number": str}
    template = "Delete my conversation with {name}."
    paraphrases = {
        "train": (
            "Remove the text thread with {name} from Messages.",
            "Please delete all my messages with {name}.",
        ),
        "test": (
            "I don't want my chat with {name} anymore; get rid of the whole conversation.",
            "Clear out the message thread I have with {name}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe, unread=None, with_thread=True))
        return {"name": c["display_name"], "number": c["number"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        ids = [r["_id"] for r in thread(self.before("sms"), self.params["number"])]
        return self.expect(removed("sms", *ids))

    def _delete(self, device: Device, name: str) -> Iterator[Action]:
        yield from to_list(device)
        i = find(device, text=name, rid="conversation_name")
        if i is None:
            raise OracleError(f"no conversation with {name}")
        yield Action("long_press", index=i)
        yield tap(device, text="Delete", cls="Button")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the conversation and use its Delete conversation button, not a long press."""
        yield from open_thread(device, self.params["name"])
        yield tap(device, desc="Delete conversation", rid="delete")
        yield tap(device, text="Delete", cls="Button")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the conversation listed right above or below it."""
        names = [c["display_name"] for c in texters(device.probe, unread=None,
                                                   with_thread=True)]
        wrong = next(n for n in names if n != self.params["name"])
        yield from self._delete(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class MessagesTextMissing(Task):
    """Infeasible by design: nobody of that name is in the contacts and no number is given,
    so there is no one to text; the right move is to look, find nobody, and say so."""

    id = "MessagesTextMissing"
    apps = ("messages",)
    difficulty = "medium"
    tags = ("infeasible", "search")
    optimal_steps = 4
    feasible = False
    params_schema = {"name": str, "body": str}
    template = 'Text {name} "{body}".'
    paraphrases = {
        "train": (
            'Send {name} a message saying "{body}".',
            'Message {name}: "{body}".',
        ),
        "test": (
            'Can you let {name} know by text: "{body}"?',
            'Please SMS {name} the following: "{body}".',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {normalize(c["display_name"]) for c in probe.contacts()}
        firsts = {normalize(c["display_name"]).split(" ")[0] for c in probe.contacts()
                  if c["display_name"]}
        while True:
            first = FIRST_NAMES[int(rng.integers(len(FIRST_NAMES)))]
            last = LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]
            if normalize(f"{first} {last}") not in taken and normalize(first) not in firsts:
                break
        return {"name": f"{first} {last}", "body": BODIES[int(rng.integers(len(BODIES)))]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_list(device)
        yield tap(device, desc="Start chat")
        yield type_into(device, self.params["name"], rid="recipient_text_view")
        yield Action("status", goal_status="infeasible")


@register_task
class MessagesReplyUnread(Task):
    """Answer a conversation that has unread messages: one sent message to that number is
    added; opening the conversation marks its unread messages read, as on a phone, which is
    view state (``sms.read``) and so not checked; nothing else changes."""

    id = "MessagesReplyUnread"
    apps = ("messages",)
    difficulty = "easy"
    tags = ("form",)
    optimal_steps = 5
    may_change = ("sms",)
    params_schema = {"name": str, "number": str, "body": str}
    template = 'Reply to {name}\'s new message with "{body}".'
    paraphrases = {
        "train": (
            '{name} just texted me. Reply "{body}".',
            'Write back to {name}: "{body}".',
        ),
        "test": (
            'There\'s an unread text from {name}; respond with "{body}".',
            'Open my new message from {name} and reply "{body}".',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe, unread=True))
        return {"name": c["display_name"], "number": c["number"],
                "body": BODIES[int(rng.integers(len(BODIES)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        # opening the thread marks the new message read: view state, left out of the diff
        return self.expect(added("sms", {"address": same_phone(p["number"]),
                                         "body": same_text(p["body"]), "type": SENT}))

    def _reply(self, device: Device, name: str, from_contacts: bool = False
               ) -> Iterator[Action]:
        yield from (thread_from_contacts if from_contacts else open_thread)(device, name)
        yield from type_and_send(device, self.params["body"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._reply(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the conversation from the person's Text button in Contacts."""
        yield from self._reply(device, self.params["name"], from_contacts=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Replies in the conversation above or below it."""
        names = [c["display_name"] for c in texters(device.probe, unread=None,
                                                   with_thread=True)]
        yield from self._reply(device, next(n for n in names if n != self.params["name"]))
        yield Action("status", goal_status="complete")
