"""Contacts information-retrieval tasks: the agent answers from what it reads, and the
right answer comes from the start state's ``contacts`` rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, PhoneMatch, StringMatch
from phoneworld_gym.oracle import elements, scroll_to, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import (
    browse_to_contact,
    by_id,
    open_contact,
    other_contact,
    pick,
)


@register_task
class ContactsLookupPhone(Task):
    """Read a contact's phone number (answered as one number)."""

    id = "ContactsLookupPhone"
    apps = ("contacts",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    answer_matcher = PhoneMatch()
    params_schema = {"name": str, "id": int}
    template = "What is {name}'s phone number?"
    paraphrases = {
        "train": (
            "What's the phone number for {name}?",
            "Tell me {name}'s phone number.",
        ),
        "test": (
            "Could you look up {name} in my contacts and tell me their phone number?",
            "I need to call {name}. What phone number do I have for them?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe, where=lambda r: bool(r["number"]))
        return {"name": row["display_name"], "id": int(row["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return by_id(self.before("contacts"))[self.params["id"]]["number"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield Action("answer", text=text_of(device, rid="phone_title") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from browse_to_contact(device, self.params["name"])
        yield Action("answer", text=text_of(device, rid="phone_title") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the number of someone else with the same first name (or the first
        other person listed)."""
        other = other_contact(self.before("contacts"), self.params["id"],
                              where=lambda r: bool(r["number"]))
        yield Action("answer", text=other["number"])


@register_task
class ContactsCompanyOf(Task):
    """Read where a contact works. The answer may be the company alone or a sentence stating
    it; naming any other company in the address book fails."""

    id = "ContactsCompanyOf"
    apps = ("contacts",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    split = "test"
    answer_matcher = StringMatch(contains=True)
    params_schema = {"name": str, "id": int}
    template = "Which company does {name} work for?"
    paraphrases = {
        "test": (
            "Who is {name}'s employer? I just need the company name.",
            "Can you look up where {name} works and tell me the company?",
            "Tell me the name of the company {name} works at.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe, where=lambda r: bool(r["company"]))
        return {"name": row["display_name"], "id": int(row["_id"])}

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("contacts")
        return Expected(by_id(rows)[self.params["id"]]["company"],
                        candidates=sorted({r["company"] for r in rows if r["company"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield from scroll_to(device, rid="company_title")
        yield Action("answer", text=text_of(device, rid="company_title") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from browse_to_contact(device, self.params["name"])
        yield from scroll_to(device, rid="company_title")
        yield Action("answer", text=text_of(device, rid="company_title") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with a company someone else works for."""
        rows = self.before("contacts")
        mine = by_id(rows)[self.params["id"]]["company"]
        other = next(r["company"] for r in rows if r["company"] and r["company"] != mine)
        yield Action("answer", text=other)


@register_task
class ContactsCountFavorites(Task):
    """Count the favourites (starred contacts at the start)."""

    id = "ContactsCountFavorites"
    apps = ("contacts",)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 2
    answer_matcher = NumberMatch()
    template = "How many favorite contacts do I have?"
    paraphrases = {
        "train": (
            "How many contacts have I marked as favorites?",
            "Please count my favorite contacts and tell me the number.",
        ),
        "test": (
            "What's the number of starred contacts in my address book?",
            "I'd like to know how many people are in my favorites in Contacts.",
        ),
    }

    def expected_answer(self, device: Device) -> Any:
        return sum(1 for r in self.before("contacts") if r["starred"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield Action("open_app", app_name="Contacts")
        # favourites are listed first, under their own header, followed by the letter headers
        count = 0
        in_fav = False
        for e in elements(device):
            if e.text == "Favorites":
                in_fav = True
                continue
            if in_fav and (e.resource_id or "").endswith("/section_header"):
                break
            if in_fav and (e.resource_id or "").endswith("/contact_title"):
                count += 1
        yield Action("answer", text=str(count))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Off by one."""
        yield Action("answer", text=str(sum(1 for r in self.before("contacts")
                                            if r["starred"]) + 1))
