"""More Contacts + Shopping tasks: who a gift order went to (favourite them, look up their
number), and a contact's address saved as a Shopping shipping address.

The gift tasks start from a delivered order that setup ships to a contact with Shopping's
``ship_order_to`` fixture; the agent reads the recipient on the order's page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import PhoneMatch
from phoneworld_gym.oracle import OracleError, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import (
    browse_to_contact,
    by_id,
    open_contact,
    other_contact,
    same_name,
)
from phoneworld_gym.tasks.cross_app.common import (
    ADDRESS_FIELDS,
    contact_address,
    gift_params,
    make_gift,
    owner_name,
    read_recipient,
    recipient_on_screen,
    same_address,
    split_address,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import open_tab
from phoneworld_gym.validators import changed, expect, same_text


@register_task
class CrossAppFavoriteGiftRecipient(Task):
    """Read who an order was shipped to in Shopping, then star that person in Contacts: that
    contact's ``starred`` goes from 0 to 1 and nothing else changes. The goal names only
    the order; who received it is what the agent must find out."""

    id = "CrossAppFavoriteGiftRecipient"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search")
    optimal_steps = 10
    max_steps = 30
    may_change = ("contacts",)
    params_schema = {"order_id": str, "contact_id": int, "recipient": str}
    template = ("I sent my order {order_id} as a gift to someone in my contacts. Add that "
                "person to my favorite contacts.")
    paraphrases = {
        "train": (
            ("My order {order_id} was a gift to one of my contacts. Please add that person to my "
             "favorite contacts."),
            ("Add whoever received my gift order {order_id} to my favorite contacts. They're in "
             "my contacts."),
        ),
        "test": (
            ("Could you check who my order {order_id} was shipped to as a gift and star that "
             "person in my contacts?"),
            ("The recipient of my gift order {order_id} is one of my contacts. I want them in my "
             "favorites in Contacts."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return gift_params(rng, probe, where=lambda r: not r["starred"])

    def setup(self, device: Device) -> None:
        make_gift(device, self.params)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("contacts", self.params["contact_id"], starred=1))

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_contact,
              ) -> Iterator[Action]:
        yield from read_recipient(device, self.params["order_id"])
        name = recipient_on_screen(device)
        yield from via(device, name)
        yield tap(device, desc="Add to favorites")
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipient by scrolling the list in Contacts instead of searching."""
        yield from self._play(device, browse_to_contact)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Stars someone else with the same first name (or the next person listed)."""
        other = other_contact(self.before("contacts"), self.params["contact_id"],
                              where=lambda r: not r["starred"])
        yield from read_recipient(device, self.params["order_id"])
        yield from open_contact(device, other["display_name"])
        yield tap(device, desc="Add to favorites")
        yield Action("status", goal_status="complete")


@register_task
class CrossAppGiftRecipientPhone(Task):
    """Read who an order was shipped to in Shopping, then their number in Contacts (answered
    as one phone number). The goal names only the order; who received it is what the
    agent must find out."""

    id = "CrossAppGiftRecipientPhone"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-read", "search")
    optimal_steps = 9
    max_steps = 30
    answer_matcher = PhoneMatch()
    params_schema = {"order_id": str, "contact_id": int, "recipient": str}
    template = ("My order {order_id} was a gift that I had shipped to one of my contacts. "
                "What is that person's phone number?")
    paraphrases = {
        "test": (
            ("I shipped order {order_id} as a gift to someone in my contacts. What's their phone "
             "number?"),
            ("Find out who received my gift order {order_id} and give me their phone number from "
             "my contacts."),
            ("Can you tell me the phone number of the contact I had my order {order_id} shipped "
             "to as a gift?"),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return gift_params(rng, probe, where=lambda r: bool(r["number"]))

    def setup(self, device: Device) -> None:
        make_gift(device, self.params)

    def expected_answer(self, device: Device) -> Any:
        return by_id(self.before("contacts"))[self.params["contact_id"]]["number"]

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_contact,
              ) -> Iterator[Action]:
        yield from read_recipient(device, self.params["order_id"])
        name = recipient_on_screen(device)
        yield from via(device, name)
        yield Action("answer", text=text_of(device, rid="phone_title") or "")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipient by scrolling the list in Contacts instead of searching."""
        yield from self._play(device, browse_to_contact)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the number of someone else with the same first name."""
        other = other_contact(self.before("contacts"), self.params["contact_id"],
                              where=lambda r: bool(r["number"]))
        yield Action("answer", text=other["number"])


@register_task
class CrossAppSaveContactAddress(Task):
    """Copy a contact's postal address into Shopping's address book, field by field: exactly
    one ``shopping/addresses`` row is added, under the contact's name at their address, and
    it is the default exactly when the goal asks (then the old default row, and only it,
    loses its flag)."""

    id = "CrossAppSaveContactAddress"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "hard"
    tags = ("form", "read-then-write")
    optimal_steps = 16
    max_steps = 45
    may_change = ("shopping/addresses",)
    params_schema = {"name": str, "contact_id": int, "make_default": bool,
                     "default_clause": str}
    template = ("Save {name}'s home address from my contacts as a new shipping address in the "
                "Shopping app, under their name{default_clause}.")
    constraints = ("their name",)
    paraphrases = {
        "train": (
            ("In the Shopping app, add {name}'s home address from my contacts as a new shipping "
             "address under their name{default_clause}."),
            ("Take {name}'s home address from my contacts and save it as a new shipping address "
             "in the Shopping app, with their name on it{default_clause}."),
        ),
        "test": (
            ("Could you copy {name}'s home address from Contacts into the Shopping app as a new "
             "shipping address in their name{default_clause}?"),
            ("I want to ship things to {name}. Please add their home address from my contacts to "
             "my Shopping app addresses as a new one under their name{default_clause}."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        me = owner_name(probe)
        saved = probe.query("shopping/addresses")

        def fits(r: Row) -> bool:
            a = split_address(r["postal_address"])
            return (bool(r["display_name"]) and a is not None
                    and not same_name(r["display_name"], me)
                    and not any(same_address(a, x) for x in saved))

        row = choice(rng, [r for r in probe.contacts() if fits(r)])
        make_default = bool(rng.random() < 0.5)
        return {"name": row["display_name"], "contact_id": int(row["_id"]),
                "make_default": make_default,
                "default_clause": " and make it my default address" if make_default else ""}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = contact_address(self.before("contacts"), self.params["contact_id"])
        new = {"name": same_text(self.params["name"]),
               **{k: want[k] for k in ADDRESS_FIELDS},
               "is_default": 1 if self.params["make_default"] else 0}
        old_default = {} if not self.params["make_default"] else {
            a["_id"]: {"is_default": 0} for a in self.before("shopping/addresses")
            if a["is_default"]}
        return self.expect(expect("shopping/addresses", added=[new], changed=old_default))

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_contact,
              ) -> Iterator[Action]:
        yield from via(device, self.params["name"])
        yield from scroll_to(device, rid="address_title")
        address = split_address(text_of(device, rid="address_title") or "")
        if address is None:
            raise OracleError("the contact shows no postal address")
        yield from self._fill_form(device, self.params["name"], address)
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._play(device, browse_to_contact)

    def _fill_form(self, device: Device, name: str, address: dict[str, str]) -> Iterator[Action]:
        yield from open_tab(device, "account")
        yield tap(device, rid="your_addresses_title")
        yield from scroll_to(device, rid="add_address")
        yield tap(device, rid="add_address")
        yield type_into(device, name, rid="field_name")
        for key in ADDRESS_FIELDS:
            yield from scroll_to(device, rid=f"field_{key}")
            yield type_into(device, address[key], rid=f"field_{key}")
        yield Action("navigate_back")  # hide the keyboard
        if self.params["make_default"]:
            yield from scroll_to(device, rid="make_default")
            yield tap(device, rid="make_default")
        yield from scroll_to(device, rid="save_address")
        yield tap(device, rid="save_address")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves the right address but under my own name (the form's pre-filled name)."""
        address = contact_address(self.before("contacts"), self.params["contact_id"])
        me = str(self.before("shopping/account")[0]["name"])
        yield from self._fill_form(device, me, address)
        yield Action("status", goal_status="complete")
