"""More Contacts + Shopping tasks: who a gift order went to (favourite them, look up their
number), and a contact's address saved as a Shopping shipping address."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import store as shop
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import PhoneMatch
from phoneworld_gym.oracle import OracleError, elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import CONTACTS, Task, register_task
from phoneworld_gym.tasks.contacts.common import (
    by_id,
    open_contact,
    other_contact,
    others_unchanged,
    same_name,
)
from phoneworld_gym.tasks.cross_app.contacts_shopping import same_address, split_address
from phoneworld_gym.tasks.shopping.common import choice, live_store, open_order, open_tab


def _gift_params(rng: np.random.Generator, probe: Probe,
                 where: Any = None) -> dict[str, Any]:
    """A delivered order and a contact (with a full postal address, not the shopper) that
    setup makes the order's recipient."""
    s = probe.app_store("shopping")
    me = s["user"]["name"]
    people = [r for r in probe.contacts()
              if r["display_name"] and split_address(r["postal_address"]) is not None
              and not same_name(r["display_name"], me) and (where is None or where(r))]
    row = choice(rng, people)
    order = choice(rng, [o for o in s["orders"] if o["status"] == "Delivered"])
    return {"order_id": order["id"], "contact_id": int(row["_id"]),
            "recipient": row["display_name"]}


def _make_gift(device: Device, params: dict[str, Any]) -> None:
    """Setup: the order went to the contact's home address, under their name."""
    store = live_store(device)
    order = shop.find_order(store, params["order_id"])
    c = next(r for r in device.probe.contacts() if r["_id"] == params["contact_id"])
    address = split_address(c["postal_address"])
    assert order is not None and address is not None
    order["address"] = {"name": c["display_name"], **address}


def _read_recipient(device: Device, order_id: str) -> Iterator[Action]:
    """Open the order and scroll its shipping address into view (the name is the line above
    the address)."""
    yield from open_order(device, order_id)
    yield from scroll_to(device, rid="order_address")


def _recipient_on_screen(device: Device) -> str:
    i = find(device, rid="order_address")
    if i is None or i == 0:
        raise OracleError("no shipping address on screen")
    return elements(device)[i - 1].text or ""


@register_task
class CrossAppFavoriteGiftRecipient(Task):
    """Read who an order was shipped to in Shopping, then star that person in Contacts."""

    id = "CrossAppFavoriteGiftRecipient"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search")
    optimal_steps = 9
    max_steps = 30
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
        return _gift_params(rng, probe, where=lambda r: not r["starred"])

    def setup(self, device: Device) -> None:
        _make_gift(device, self.params)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        cid = self.params["contact_id"]
        before, after = by_id(self.contacts_before), by_id(device.probe.contacts())
        ok = (cid in after and after[cid]["starred"] == 1
              and after[cid] == dict(before[cid], starred=1)
              and others_unchanged(self.contacts_before, device.probe.contacts(), {cid})
              and self.unchanged(device, allow={"contacts": {"contacts"}, CONTACTS: {"*"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from _read_recipient(device, self.params["order_id"])
        name = _recipient_on_screen(device)
        yield from open_contact(device, name)
        yield tap(device, desc="Add to favorites")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Stars someone else with the same first name (or the next person listed)."""
        other = other_contact(self.contacts_before, self.params["contact_id"],
                               where=lambda r: not r["starred"])
        yield from _read_recipient(device, self.params["order_id"])
        yield from open_contact(device, other["display_name"])
        yield tap(device, desc="Add to favorites")
        yield Action("status", goal_status="complete")


@register_task
class CrossAppGiftRecipientPhone(Task):
    """Read who an order was shipped to in Shopping, then their number in Contacts."""

    id = "CrossAppGiftRecipientPhone"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-read", "search")
    optimal_steps = 8
    max_steps = 30
    split = "test"
    answer_matcher = PhoneMatch()
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
        return _gift_params(rng, probe, where=lambda r: bool(r["number"]))

    def setup(self, device: Device) -> None:
        _make_gift(device, self.params)

    def expected_answer(self, device: Device) -> Any:
        return by_id(self.contacts_before)[self.params["contact_id"]]["number"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from _read_recipient(device, self.params["order_id"])
        name = _recipient_on_screen(device)
        yield from open_contact(device, name)
        yield Action("answer", text=text_of(device, rid="phone_title") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the number of someone else with the same first name."""
        other = other_contact(self.contacts_before, self.params["contact_id"],
                               where=lambda r: bool(r["number"]))
        yield Action("answer", text=other["number"])


@register_task
class CrossAppSaveContactAddress(Task):
    """Copy a contact's postal address into Shopping's address book, field by field."""

    id = "CrossAppSaveContactAddress"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "hard"
    tags = ("form", "read-then-write")
    optimal_steps = 16
    max_steps = 45
    template = ("Save {name}'s home address from my contacts as a new shipping address in the "
                "Shopping app, under their name{default_clause}.")
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
        s = probe.app_store("shopping")
        me = s["user"]["name"]

        def fits(r: dict[str, Any]) -> bool:
            a = split_address(r["postal_address"])
            return (bool(r["display_name"]) and a is not None
                    and not same_name(r["display_name"], me)
                    and not any(same_address(a, x) for x in s["addresses"]))

        row = choice(rng, [r for r in probe.contacts() if fits(r)])
        make_default = bool(rng.random() < 0.5)
        return {"name": row["display_name"], "contact_id": int(row["_id"]),
                "make_default": make_default,
                "default_clause": " and make it my default address" if make_default else ""}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before = self.store_before("shopping")
        after = device.probe.app_store("shopping")
        old = {a["id"]: a for a in before["addresses"]}
        new = [a for a in after["addresses"] if a["id"] not in old]
        if len(new) != 1:
            return 0.0
        a = new[0]
        contact = by_id(self.contacts_before)[self.params["contact_id"]]
        want = split_address(contact["postal_address"])
        default = a["id"] if self.params["make_default"] else before["default_address"]
        ok = (want is not None and same_address(a, want)
              and same_name(a["name"], self.params["name"])
              and [x for x in after["addresses"] if x["id"] in old] == before["addresses"]
              and after["default_address"] == default
              and self.unchanged(device, allow={"shopping": {"addresses", "next_address_id",
                                                             "default_address"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield from scroll_to(device, rid="address_title")
        address = split_address(text_of(device, rid="address_title") or "")
        if address is None:
            raise OracleError("the contact shows no postal address")
        yield from self._fill_form(device, self.params["name"], address)

    def _fill_form(self, device: Device, name: str, address: dict[str, str]) -> Iterator[Action]:
        yield from open_tab(device, "account")
        yield tap(device, rid="your_addresses_title")
        yield from scroll_to(device, rid="add_address")
        yield tap(device, rid="add_address")
        yield type_into(device, name, rid="field_name")
        for key in ("street", "city", "state", "zip"):
            yield from scroll_to(device, rid=f"field_{key}")
            yield type_into(device, address[key], rid=f"field_{key}")
        yield Action("navigate_back")  # hide the keyboard
        if self.params["make_default"]:
            yield from scroll_to(device, rid="make_default")
            yield tap(device, rid="make_default")
        yield from scroll_to(device, rid="save_address")
        yield tap(device, rid="save_address")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves the right address but under my own name (the form's pre-filled name)."""
        contact = by_id(self.contacts_before)[self.params["contact_id"]]
        address = split_address(contact["postal_address"])
        assert address is not None
        me = self.store_before("shopping")["user"]["name"]
        yield from self._fill_form(device, me, address)
