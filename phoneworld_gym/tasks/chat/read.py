"""Chat information-retrieval tasks: the unread total and what someone wrote last."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import chats, in_chat, last_text, open_chat, to_list
from phoneworld_gym.tasks.kit import choice

#: what the messages that arrive at setup (ChatCountUnread) say
ARRIVALS = ("Are you free later?", "Call me when you can", "Running 10 min late",
            "Did you see this?", "Thanks again!", "See you soon")


@register_task
class ChatCountUnread(Task):
    """Count the unread messages over all chats (the title and the Chats tab show it).

    Zero to eight more messages (a drawn number) arrive unread in direct chats at setup: the
    seeded worlds alone left three unread on over half the seeds, so "3" won blind.

    Fewer goals: the template has no params to fill; the count varies with the seed."""

    id = "ChatCountUnread"
    apps = ("chat",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 2
    answer_matcher = NumberMatch()
    #: the answer is the unread state: opening a chat to count destroys it, so it counts
    checks_view = ("chat/messages.read", "chat/chats.unread")
    #: [chat title, body] of each message that arrives unread at setup
    params_schema = {"arrivals": list}
    template = ("How many unread messages do I have in Chat? Don't open any conversation to "
                "count them.")
    constraints = (("without opening", "don't open", "unopened"),)
    paraphrases = {
        "train": ("Count my unread Chat messages without opening any chat.",
                  "Without opening a conversation, what's my unread message count in the Chat "
                  "app?"),
        "test": ("Tell me how many Chat messages I haven't read yet, leaving every conversation "
                 "unopened.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        direct = [r["title"] for r in probe.query("chat/chats") if r["kind"] == "direct"]
        n = int(rng.integers(0, 9)) if direct else 0
        return {"arrivals": [[direct[int(rng.integers(len(direct)))],
                              ARRIVALS[int(rng.integers(len(ARRIVALS)))]] for _ in range(n)]}

    def setup(self, device: Device) -> None:
        for k, (title, body) in enumerate(self.params["arrivals"]):
            device.fixture("chat", "receive", chat=title, sender=title, body=body,
                           minutes_ago=2 + k, now=device.probe.now())

    def expected_answer(self, device: Device) -> Any:
        return sum(int(c["unread"]) for c in self.before("chat/chats"))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_list(device)
        title = text_of(device, rid="title") or ""
        n = title.partition("(")[2].rstrip(")") or "0"
        yield Action("answer", text=n)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Counts the chats with unread messages instead of the messages (off by at least
        one whenever a chat has two, else answers one more)."""
        rows = self.before("chat/chats")
        n_chats = sum(1 for c in rows if c["unread"])
        total = sum(int(c["unread"]) for c in rows)
        yield Action("answer", text=str(n_chats if n_chats != total else total + 1))


@register_task
class ChatLastFrom(Task):
    """Read the newest message someone wrote in a one-to-one chat with nothing unread."""

    id = "ChatLastFrom"
    apps = ("chat",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 3
    answer_matcher = StringMatch(contains=True)
    params_schema = {"name": str, "chat_id": int}
    template = "What did {name} last write to me in Chat?"
    paraphrases = {
        "test": ("Check Chat: what's the most recent thing {name} said to me?",
                 "I forgot {name}'s latest Chat message. What was it?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        return {"name": c["title"], "chat_id": int(c["_id"])}

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("chat/messages")
        theirs = [r for r in in_chat(rows, self.params["chat_id"]) if r["sender"] != "me"]
        return Expected(theirs[-1]["body"], candidates=sorted({r["body"] for r in rows}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_chat(device, self.params["name"])
        from phoneworld_gym.oracle import elements

        theirs = [e.text for e in elements(device)
                  if (e.resource_id or "").endswith("/message_text")
                  and not (e.content_description or "").startswith("You said")]
        yield Action("answer", text=str(theirs[-1] if theirs else last_text(device)))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Quotes the owner's own newest message in that chat, or their older one."""
        rows = in_chat(self.before("chat/messages"), self.params["chat_id"])
        theirs = [r for r in rows if r["sender"] != "me"]
        wrong = next(r["body"] for r in reversed(rows) if r["body"] != theirs[-1]["body"])
        yield Action("answer", text=wrong)
