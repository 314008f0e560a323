"""More Contacts tasks: edit an email or an address, leave the favourites, read an email."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.contacts import store as cs
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import StringMatch, normalize
from phoneworld_gym.oracle import scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import (
    by_id,
    open_contact,
    other_contact,
    others_unchanged,
    pick,
)

EMAIL_DOMAINS = ("gmail.com", "outlook.com", "proton.me", "icloud.com", "fastmail.com")


def _only_field_changed(task: Task, device: Device, cid: int, field: str) -> dict[str, Any] | None:
    """The contact's row now, when only ``field`` of contact ``cid`` may have changed (and
    nobody else did); None otherwise."""
    before, after = by_id(task.contacts_before), by_id(device.probe.contacts())
    if cid not in after:
        return None
    row = after[cid]
    if row != dict(before[cid], **{field: row[field]}):
        return None
    if not others_unchanged(task.contacts_before, device.probe.contacts(), {cid}):
        return None
    return row


@register_task
class ContactsEditEmail(Task):
    """Replace one contact's email address."""

    id = "ContactsEditEmail"
    apps = ("contacts",)
    difficulty = "easy"
    tags = ("form", "search")
    optimal_steps = 7
    common_probes_only = True
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
            if email != row["email"]:
                break
        return {"name": row["display_name"], "id": int(row["_id"]), "email": email}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        row = _only_field_changed(self, device, self.params["id"], "email")
        ok = row is not None and row["email"].strip().lower() == self.params["email"].lower()
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Edit contact")
        yield from scroll_to(device, rid="field_email")
        yield type_into(device, self.params["email"], rid="field_email", clear=True)
        yield tap(device, rid="save")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds the new address after the old one instead of replacing it."""
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Edit contact")
        yield from scroll_to(device, rid="field_email")
        yield type_into(device, " " + self.params["email"], rid="field_email", clear=False)
        yield tap(device, rid="save")
        yield Action("status", goal_status="complete")


@register_task
class ContactsEditAddress(Task):
    """Someone moved: replace their postal address."""

    id = "ContactsEditAddress"
    apps = ("contacts",)
    difficulty = "medium"
    tags = ("form", "search")
    optimal_steps = 7
    common_probes_only = True
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
            address = cs.random_address(rng)
            if normalize(address) != normalize(row["postal_address"]):
                break
        return {"name": row["display_name"], "id": int(row["_id"]), "address": address}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        row = _only_field_changed(self, device, self.params["id"], "postal_address")
        ok = row is not None and \
            normalize(row["postal_address"]) == normalize(self.params["address"])
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Edit contact")
        yield from scroll_to(device, rid="field_address")
        yield type_into(device, self.params["address"], rid="field_address", clear=True)
        yield tap(device, rid="save")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Types the new street and city but leaves out the state and ZIP code."""
        partial = self.params["address"].rsplit(",", 1)[0]
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Edit contact")
        yield from scroll_to(device, rid="field_address")
        yield type_into(device, partial, rid="field_address", clear=True)
        yield tap(device, rid="save")
        yield Action("status", goal_status="complete")


@register_task
class ContactsUnstar(Task):
    """Take a contact off the favourites (and keep the contact)."""

    id = "ContactsUnstar"
    apps = ("contacts",)
    difficulty = "easy"
    optimal_steps = 5
    split = "test"
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
        starred = [r for r in probe.contacts() if r["starred"] and r["display_name"]]
        if starred:
            row = starred[int(rng.integers(len(starred)))]
        else:  # nobody is a favourite yet: setup stars one
            row = pick(rng, probe)
        return {"name": row["display_name"], "id": int(row["_id"]),
                "star_at_setup": not row["starred"]}

    def setup(self, device: Device) -> None:
        if self.params.get("star_at_setup"):
            world = getattr(device, "world", None)
            if world is None:
                raise RuntimeError("ContactsUnstar needs a favourite contact to start from")
            c = cs.find(world.stores["contacts"], self.params["id"])
            assert c is not None
            c["starred"] = True

    def evaluate(self, device: Device, report: AgentReport) -> float:
        row = _only_field_changed(self, device, self.params["id"], "starred")
        return 1.0 if row is not None and row["starred"] == 0 else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Remove from favorites")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Reads "remove" as delete: the contact is gone altogether."""
        yield from open_contact(device, self.params["name"])
        yield tap(device, desc="Delete")
        yield tap(device, text="Delete", cls="Button")
        yield Action("status", goal_status="complete")


@register_task
class ContactsEmailOf(Task):
    """Read a contact's email address."""

    id = "ContactsEmailOf"
    apps = ("contacts",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    split = "test"
    common_probes_only = True
    answer_matcher = StringMatch()
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
        return by_id(self.contacts_before)[self.params["id"]]["email"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield from scroll_to(device, rid="email_title")
        yield Action("answer", text=text_of(device, rid="email_title") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the email of someone else with the same first name."""
        other = other_contact(self.contacts_before, self.params["id"],
                               where=lambda r: bool(r["email"]))
        yield Action("answer", text=other["email"])
