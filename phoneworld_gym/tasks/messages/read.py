"""Messages information-retrieval tasks: the answer is read off the conversations, the right
one comes from the start state's ``sms`` rows (opening a conversation with nothing unread
changes nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import elements
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.messages.common import (
    INBOX,
    key,
    last_received,
    open_thread,
    texters,
    thread,
    thread_from_contacts,
    to_list,
)


@register_task
class MessagesLastFrom(Task):
    """Read the newest message a contact sent (the conversation has nothing unread). The
    answer may quote it or say it in a sentence; quoting another message fails."""

    id = "MessagesLastFrom"
    apps = ("messages",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 3
    answer_matcher = StringMatch(contains=True)
    params_schema = {"name": str, "number": str}
    template = "What did {name} text me last?"
    paraphrases = {
        "train": (
            "What was the last message {name} sent me?",
            "Tell me what {name}'s most recent text says.",
        ),
        "test": (
            "I forgot what {name} wrote in their latest text to me. What was it?",
            "Check my messages: what's the newest thing {name} said to me?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe, received=True))
        return {"name": c["display_name"], "number": c["number"]}

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("sms")
        got = [r for r in thread(rows, self.params["number"]) if r["type"] == INBOX]
        return Expected(got[-1]["body"], candidates=sorted({r["body"] for r in rows}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_thread(device, self.params["name"])
        yield Action("answer", text=last_received(device))

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the conversation from the person's Text button in Contacts."""
        yield from thread_from_contacts(device, self.params["name"])
        yield Action("answer", text=last_received(device))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Quotes the conversation's newest message from anyone but them (the owner's own
        last text, or an older one of theirs)."""
        rows = thread(self.before("sms"), self.params["number"])
        got = [r for r in rows if r["type"] == INBOX]
        wrong = next(r["body"] for r in reversed(rows) if r["body"] != got[-1]["body"])
        yield Action("answer", text=wrong)


@register_task
class MessagesCountUnread(Task):
    """Count the conversations that have unread messages (shown in bold in the list).

    The count is drawn (0 to 5, as far as the phone has conversations) and set up by marking
    messages read or unread, so no fixed guess wins often: the seeded worlds alone left two
    unread conversations on half the seeds.

    Fewer goals: the template has no params to fill; the count varies with the seed."""

    id = "MessagesCountUnread"
    apps = ("messages",)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 2
    split = "test"
    answer_matcher = NumberMatch()
    #: the answer is the unread state: opening a thread to count destroys it, so it counts
    checks_view = ("sms.read",)
    template = ("How many of my text conversations have unread messages? Don't open any of "
                "them to count.")
    constraints = (("without opening", "don't open", "unopened"),)
    params_schema = {"unread": int}
    paraphrases = {
        "test": (
            "How many unread conversations do I have in Messages? Count them without opening "
            "any.",
            "Count the message threads I haven't read yet, without opening them.",
            "In my texts, how many chats are still unread? Leave them unopened.",
            "Tell me the number of conversations with new messages I haven't opened, and don't "
            "open any.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        threads = {key(r["address"]) for r in probe.query("sms") if r["type"] == INBOX}
        return {"unread": int(rng.integers(0, min(5, len(threads)) + 1))}

    def setup(self, device: Device) -> None:
        """The newest ``unread`` conversations that hold a received message get one unread
        (their newest received message), the others none."""
        inbox = sorted((r for r in device.probe.query("sms") if r["type"] == INBOX),
                       key=lambda r: (-int(r["date"]), int(r["_id"])))
        threads: dict[str, list[dict[str, Any]]] = {}
        for r in inbox:
            threads.setdefault(key(r["address"]), []).append(r)
        for i, rows in enumerate(threads.values()):
            if i < self.params["unread"]:
                if all(r["read"] for r in rows):
                    device.update("sms", rows[0]["_id"], {"read": 0})
            else:
                for r in rows:
                    if not r["read"]:
                        device.update("sms", r["_id"], {"read": 1})

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("sms")
        return len({key(r["address"]) for r in rows if r["type"] == INBOX and not r["read"]})

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_list(device)
        n = sum(1 for e in elements(device) if (e.resource_id or "").endswith("/conversation")
                and ", unread, " in (e.content_description or ""))
        yield Action("answer", text=str(n))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Counts the unread messages instead of the conversations (or one too many)."""
        rows = self.before("sms")
        unread = [r for r in rows if r["type"] == INBOX and not r["read"]]
        n = len(unread)
        right = len({key(r["address"]) for r in unread})
        yield Action("answer", text=str(n if n != right else right + 1))
