"""Email information-retrieval tasks: the answer comes from the start state's
``email/messages`` rows; reading must change nothing (the messages opened are already read)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import DateMatch, Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import elements, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.email.common import (
    MAIL,
    correspondents,
    day_of,
    first_from,
    open_result,
    received_from,
    search,
    to_inbox,
)
from phoneworld_gym.tasks.kit import choice


@register_task
class EmailLatestSubject(Task):
    """Read the subject of the newest message a contact sent (from the search results, without
    opening it). Naming another subject in the mailbox fails."""

    id = "EmailLatestSubject"
    apps = ("email",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 4
    answer_matcher = StringMatch()
    params_schema = {"name": str, "email": str}
    template = "What's the subject of the latest email from {name}?"
    paraphrases = {
        "train": ("Tell me the subject line of {name}'s most recent email.",
                  "Which subject did {name}'s last email to me have?"),
        "test": ("I got something from {name} recently. What was that email about, going by "
                 "its subject?",
                 "Check my mail: the newest message {name} sent me has what subject?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c, _ = choice(rng, correspondents(probe))
        return {"name": c["display_name"], "email": c["email"]}

    def expected_answer(self, device: Device) -> Any:
        rows = self.before(MAIL)
        return Expected(received_from(rows, self.params["email"])[0]["subject"],
                        candidates=sorted({r["subject"] for r in rows if r["subject"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["name"])
        yield Action("answer", text=first_from(device, self.params["name"]))

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the contact's address instead of their name."""
        yield from search(device, self.params["email"])
        yield Action("answer", text=first_from(device, self.params["name"]))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the subject of their previous message, or someone else's newest."""
        rows = self.before(MAIL)
        mine = received_from(rows, self.params["email"])
        if len(mine) > 1 and mine[1]["subject"] != mine[0]["subject"]:
            yield Action("answer", text=mine[1]["subject"])
            return
        other = next(r for r in rows if r["subject"] and r["subject"] != mine[0]["subject"])
        yield Action("answer", text=other["subject"])


@register_task
class EmailWhenLast(Task):
    """Say on which day a contact's newest message arrived (read off the opened message; only
    contacts whose newest message is already read are asked about, so opening it changes
    nothing)."""

    id = "EmailWhenLast"
    apps = ("email",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("search",)
    optimal_steps = 5
    answer_matcher = DateMatch()
    params_schema = {"name": str, "email": str}
    template = "When did {name}'s last email arrive? Give me the date."
    paraphrases = {
        "test": ("On what date did I get the most recent email from {name}?",
                 "Look up the newest message {name} sent me and tell me which day it came in.",
                 "What day was {name}'s latest email to me sent?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c, _ = choice(rng, [(c, m) for c, m in correspondents(probe)
                          if m["read"]])
        return {"name": c["display_name"], "email": c["email"]}

    def expected_answer(self, device: Device) -> Any:
        return day_of(received_from(self.before(MAIL), self.params["email"])[0]["date"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["name"])
        yield from open_result(device, first_from(device, self.params["name"]))
        yield Action("answer", text=text_of(device, rid="date") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the contact's address instead of their name."""
        yield from search(device, self.params["email"])
        yield from open_result(device, first_from(device, self.params["name"]))
        yield Action("answer", text=text_of(device, rid="date") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """A day off."""
        d = day_of(received_from(self.before(MAIL), self.params["email"])[0]["date"])
        yield Action("answer", text=(d - dt.timedelta(days=1)).isoformat())

#: (sender, name, subject) of mail that arrives unread at setup (EmailCountUnread)
NEWSLETTERS: tuple[tuple[str, str, str], ...] = (
    ("news@citypaper.example", "City Paper", "This week in the city"),
    ("deals@shopping.example", "Shopping", "Your weekend deals"),
    ("hello@fitclub.example", "Fit Club", "New classes this month"),
    ("updates@bankapp.example", "Bank", "Your statement is ready"),
    ("team@recipes.example", "Recipes", "Five quick dinners"),
    ("info@library.example", "City Library", "Holds ready for pickup"))


@register_task
class EmailCountUnread(Task):
    """Count the unread messages in the inbox (the drawer shows the count next to Inbox).
    Zero to four more (a drawn number) arrive unread at setup: the seeded inboxes alone made
    one count right on over a quarter of the seeds.

    Fewer goals: the template has no params to fill; the count varies with the seed."""

    id = "EmailCountUnread"
    apps = ("email",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 3
    answer_matcher = NumberMatch()
    #: the answer is the unread state: opening a message to count destroys it, so it counts
    checks_view = ("email/messages.read",)
    template = "How many unread emails are in my inbox? Don't open any of them to count."
    constraints = (("without opening", "don't open", "unopened"),)
    paraphrases = {
        "train": ("Count the unread messages in my email inbox without opening any.",
                  "Without opening anything, how many emails in my inbox haven't I read yet?"),
        "test": ("What's my unread email count in the inbox right now? Leave them unopened.",
                 "Tell me the number of inbox emails still marked unread, without opening any "
                 "of them."),
    }

    params_schema = {"arrivals": list}

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        n = int(rng.integers(0, 5))
        return {"arrivals": [list(NEWSLETTERS[int(i)]) for i in
                             rng.choice(len(NEWSLETTERS), size=n, replace=False)]}

    def setup(self, device: Device) -> None:
        for k, (sender, name, subject) in enumerate(self.params["arrivals"]):
            device.fixture("email", "receive", sender=sender, sender_name=name,
                           subject=subject, body=f"{subject}. Read more in the app.",
                           minutes_ago=3 + 7 * k, now=device.probe.now())

    def expected_answer(self, device: Device) -> Any:
        return sum(1 for r in self.before(MAIL) if r["folder"] == "inbox" and not r["read"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_inbox(device)
        yield tap(device, desc="Open navigation drawer")
        inbox = next(e for e in elements(device) if e.text == "Inbox")
        desc = inbox.content_description or ""
        yield Action("answer", text=desc.split(",")[1].split()[0] if "," in desc else "0")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Off by one."""
        n = sum(1 for r in self.before(MAIL) if r["folder"] == "inbox" and not r["read"])
        yield Action("answer", text=str(n + 1))
