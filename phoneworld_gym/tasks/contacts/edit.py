"""Contacts tasks that change the address book: add, edit a number, favourite, delete, and
delete someone who is not there (infeasible).

Each one states its expected change over the ``contacts`` provider rows with the shared
validators, so it runs on a real phone as well as on PhoneWorld.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import random_phone
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import (
    browse_to_contact,
    delete_contact,
    edit_field,
    new_name,
    open_contact,
    other_contact,
    pick,
    to_list,
)
from phoneworld_gym.validators import added, changed, removed, same_phone, same_text


@register_task
class ContactsAdd(Task):
    """Create a contact with a name and a phone number: exactly one ``contacts`` row is
    added, with that name and number."""

    id = "ContactsAdd"
    apps = ("contacts",)
    difficulty = "easy"
    tags = ("form",)
    optimal_steps = 7
    may_change = ("contacts",)
    params_schema = {"first": str, "last": str, "phone": str}
    template = "Add a new contact named {first} {last} with the phone number {phone}."
    paraphrases = {
        "train": (
            "Please create a contact for {first} {last}, phone number {phone}.",
            "Save {first} {last} as a new contact with the number {phone}.",
        ),
        "test": (
            "Could you add {first} {last} to my contacts? Their phone number is {phone}.",
            "I need a new contact: {first} {last}, phone {phone}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        first, last = new_name(rng, probe)
        return {"first": first, "last": last, "phone": random_phone(rng)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("contacts", {
            "display_name": same_text(f"{p['first']} {p['last']}"),
            "number": same_phone(p["phone"]),
        }))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fill(device, self.params)
        yield Action("status", goal_status="complete")

    def _fill(self, device: Device, params: dict[str, Any]) -> Iterator[Action]:
        yield from to_list(device)
        yield tap(device, desc="Create contact")
        yield type_into(device, params["first"], rid="field_first")
        yield type_into(device, params["last"], rid="field_last")
        yield from scroll_to(device, rid="field_phone")
        yield type_into(device, params["phone"], rid="field_phone")
        yield tap(device, rid="save")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right name with a number one digit off."""
        yield from self._fill(device, dict(self.params, phone=_off_by_one(self.params["phone"])))
        yield Action("status", goal_status="complete")


@register_task
class ContactsEditPhone(Task):
    """Replace one contact's phone number: that row's ``number`` changes to the new one and
    nothing else does."""

    id = "ContactsEditPhone"
    apps = ("contacts",)
    difficulty = "medium"
    tags = ("form", "search")
    optimal_steps = 7
    may_change = ("contacts",)
    params_schema = {"name": str, "id": int, "phone": str}
    template = "Change the phone number of {name} to {phone}."
    paraphrases = {
        "train": (
            "Update {name}'s phone number to {phone}.",
            "Please change the number for {name} to {phone}.",
        ),
        "test": (
            "{name} has a new phone number, {phone}. Could you replace the old one in my contacts?",
            "I need {name}'s number in my contacts changed to {phone}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe)
        return {"name": row["display_name"], "id": int(row["_id"]), "phone": random_phone(rng)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("contacts", self.params["id"],
                                   number=same_phone(self.params["phone"])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from edit_field(device, self.params["name"], "phone", self.params["phone"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from edit_field(device, self.params["name"], "phone", self.params["phone"],
                              browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Types the new number after the old one instead of replacing it."""
        yield from edit_field(device, self.params["name"], "phone", self.params["phone"],
                              clear=False)
        yield Action("status", goal_status="complete")


@register_task
class ContactsStar(Task):
    """Mark a contact as a favourite: that row's ``starred`` goes from 0 to 1, nothing else
    changes."""

    id = "ContactsStar"
    apps = ("contacts",)
    difficulty = "easy"
    optimal_steps = 5
    may_change = ("contacts",)
    params_schema = {"name": str, "id": int}
    template = "Add {name} to my favorite contacts."
    paraphrases = {
        "train": (
            "Please mark {name} as a favorite in my contacts.",
            "Add {name} to my favorites in Contacts.",
        ),
        "test": (
            "Star {name} in contacts.",
            "Could you make {name} one of my favorite contacts?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe, where=lambda r: not r["starred"])
        return {"name": row["display_name"], "id": int(row["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("contacts", self.params["id"], starred=1))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Add to favorites")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from browse_to_contact(device, self.params["name"])
        yield tap(device, desc="Add to favorites")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Stars someone else with the same first name, or the first other person listed."""
        other = other_contact(self.before("contacts"), self.params["id"],
                              where=lambda r: not r["starred"])["display_name"]
        yield from open_contact(device, other)
        yield tap(device, desc="Add to favorites")
        yield Action("status", goal_status="complete")


@register_task
class ContactsDelete(Task):
    """Delete one contact (and only that one): exactly its row is removed."""

    id = "ContactsDelete"
    apps = ("contacts",)
    difficulty = "easy"
    tags = ("dialog",)
    optimal_steps = 6
    split = "test"
    may_change = ("contacts",)
    params_schema = {"name": str, "id": int}
    template = "Remove {name} from my contacts."
    paraphrases = {
        "test": (
            "Please delete the contact {name}.",
            "Could you delete {name} from my address book?",
            "I don't need {name} in my contacts anymore, so please delete that contact.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe)
        return {"name": row["display_name"], "id": int(row["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("contacts", self.params["id"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from delete_contact(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list instead of searching."""
        yield from delete_contact(device, self.params["name"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the wrong person."""
        other = other_contact(self.before("contacts"), self.params["id"])["display_name"]
        yield from delete_contact(device, other)
        yield Action("status", goal_status="complete")


@register_task
class ContactsDeleteMissing(Task):
    """Infeasible by design: the person is not in the address book, so the right move is to
    search, find nobody, and say so (changing nothing)."""

    id = "ContactsDeleteMissing"
    apps = ("contacts",)
    difficulty = "medium"
    tags = ("infeasible", "search")
    optimal_steps = 3
    feasible = False
    params_schema = {"name": str}
    template = "Delete {name} from my contacts."
    paraphrases = {
        "train": (
            "Please remove {name} from my contacts.",
            "Delete the contact {name}.",
        ),
        "test": (
            "Could you get rid of {name} in my address book?",
            "{name} shouldn't be in my contacts anymore. Please delete that contact.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        first, last = new_name(rng, probe)
        return {"name": f"{first} {last}"}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_list(device)
        yield type_into(device, self.params["name"], rid="search_bar")
        yield Action("status", goal_status="infeasible")


def _off_by_one(phone: str) -> str:
    """The number with its last digit one higher (9 wraps to 0)."""
    last = phone[-1]
    return phone[:-1] + ("0" if last == "9" else str(int(last) + 1))
