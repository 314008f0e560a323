"""More Contacts tasks: edit an email or an address, leave the favourites, read an email.

Each change is stated over the ``contacts`` provider rows (one row, one column); the email
answer comes from the start state's rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import EMAIL_DOMAINS, random_address
from phoneworld_gym.matchers import Expected, StringMatch, normalize
from phoneworld_gym.oracle import scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import (
    browse_to_contact,
    by_id,
    delete_contact,
    edit_field,
    open_contact,
    other_contact,
    pick,
)
from phoneworld_gym.validators import changed


def _same_email(want: str) -> Any:
    """A predicate: the same email address, ignoring case and surrounding spaces."""
    return lambda v: isinstance(v, str) and v.strip().lower() == want.strip().lower()


@register_task
class ContactsEditEmail(Task):
    """Replace one contact's email address: that row's ``email`` becomes the new address
    (case aside) and nothing else changes. The new address is made from the contact's name
    and a domain of the life's word lists."""

    id = "ContactsEditEmail"
    apps = ("contacts",)
    difficulty = "easy"
    tags = ("form", "search")
    optimal_steps = 7
    may_change = ("contacts",)
    params_schema = {"name": str, "id": int, "email": str}
    template = "Change the email address of {name} to {email}."
    paraphrases = {
        "train": (
            "Update {name}'s email address to {email}.",
            "Please change {name}'s email to {email}.",
        ),
        "test": (
            ("{name} has a new email address, {email}. Can you put it in their contact instead of "
             "the old one?"),
            "Replace the email on {name}'s contact with {email}, please.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe)
        first, last = (row["display_name"].split() + [""])[:2]
        while True:
            user = [f"{first}.{last}", f"{first[:1]}{last}", f"{first}{last[:1]}",
                    f"{first}{int(rng.integers(10, 99))}"][int(rng.integers(4))].lower()
            email = f"{user}@{EMAIL_DOMAINS[int(rng.integers(len(EMAIL_DOMAINS)))]}"
            if email != row["email"].lower():
                break
        return {"name": row["display_name"], "id": int(row["_id"]), "email": email}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("contacts", self.params["id"],
                                   email=_same_email(self.params["email"])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from edit_field(device, self.params["name"], "email", self.params["email"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from edit_field(device, self.params["name"], "email", self.params["email"],
                              browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds the new address after the old one instead of replacing it."""
        yield from edit_field(device, self.params["name"], "email", " " + self.params["email"],
                              clear=False)
        yield Action("status", goal_status="complete")


@register_task
class ContactsEditAddress(Task):
    """Someone moved: replace their postal address (a new one drawn from the life's streets
    and cities). That row's ``postal_address`` must read the same as the new address, case
    and punctuation aside; nothing else changes."""

    id = "ContactsEditAddress"
    apps = ("contacts",)
    difficulty = "medium"
    tags = ("form", "search")
    optimal_steps = 7
    may_change = ("contacts",)
    params_schema = {"name": str, "id": int, "address": str}
    template = "{name} has moved. Update their address in my contacts to {address}."
    paraphrases = {
        "train": (
            "Update {name}'s address in my contacts to {address}; they've moved.",
            "{name} moved to {address}. Please change their address in my contacts.",
        ),
        "test": (
            "Could you change the address on {name}'s contact card to {address}? They moved.",
            ("New address for {name}: {address}. Please put it in their contact in place of the "
             "old one."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe, where=lambda r: bool(r["postal_address"]))
        while True:
            address = random_address(rng).one_line()
            if normalize(address) != normalize(row["postal_address"]):
                break
        return {"name": row["display_name"], "id": int(row["_id"]), "address": address}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("contacts", self.params["id"],
                                   postal_address=self.params["address"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from edit_field(device, self.params["name"], "address", self.params["address"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from edit_field(device, self.params["name"], "address", self.params["address"],
                              browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Types the new street and city but leaves out the state and ZIP code."""
        partial = self.params["address"].rsplit(",", 1)[0]
        yield from edit_field(device, self.params["name"], "address", partial)
        yield Action("status", goal_status="complete")


@register_task
class ContactsUnstar(Task):
    """Take a contact off the favourites (and keep the contact): setup stars the contact
    (``update`` of its ``starred`` column, a no-op for someone already starred), and the
    task is done when that row's ``starred`` is 0 again with nothing else changed."""

    id = "ContactsUnstar"
    apps = ("contacts",)
    difficulty = "easy"
    optimal_steps = 5
    split = "test"
    may_change = ("contacts",)
    params_schema = {"name": str, "id": int}
    template = "Remove {name} from my favorite contacts."
    paraphrases = {
        "test": (
            "Unstar {name} in my contacts.",
            "Could you take {name} off my favorites? Don't delete the contact, though.",
            "{name} shouldn't be a favorite anymore. Please take them out of my favorite contacts.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe)
        return {"name": row["display_name"], "id": int(row["_id"])}

    def setup(self, device: Device) -> None:
        device.update("contacts", self.params["id"], {"starred": 1})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("contacts", self.params["id"], starred=0))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Remove from favorites")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the contact from the Favorites section at the top of the list, not a search."""
        yield from browse_to_contact(device, self.params["name"])
        yield tap(device, desc="Remove from favorites")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Reads "remove" as delete: the contact is gone altogether."""
        yield from delete_contact(device, self.params["name"])
        yield Action("status", goal_status="complete")


@register_task
class ContactsEmailOf(Task):
    """Read a contact's email address. The answer may be the address alone or a sentence
    stating it; naming any other email in the address book fails."""

    id = "ContactsEmailOf"
    apps = ("contacts",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    answer_matcher = StringMatch(contains=True)
    params_schema = {"name": str, "id": int}
    template = "What is {name}'s email address?"
    paraphrases = {
        "test": (
            "Can you tell me {name}'s email address?",
            "I need the email address of {name}. What is it?",
            "Look up {name} in my contacts and tell me their email address.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe, where=lambda r: bool(r["email"]))
        return {"name": row["display_name"], "id": int(row["_id"])}

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("contacts")
        return Expected(by_id(rows)[self.params["id"]]["email"],
                        candidates=sorted({r["email"] for r in rows if r["email"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield from scroll_to(device, rid="email_title")
        yield Action("answer", text=text_of(device, rid="email_title") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from browse_to_contact(device, self.params["name"])
        yield from scroll_to(device, rid="email_title")
        yield Action("answer", text=text_of(device, rid="email_title") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the email of someone else with the same first name."""
        other = other_contact(self.before("contacts"), self.params["id"],
                              where=lambda r: bool(r["email"]))
        yield Action("answer", text=other["email"])
