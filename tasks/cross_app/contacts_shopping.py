"""Cross-app tasks that carry information between Contacts and Shopping.

The agent has to read something in one app and use it in the other: a contact's postal address
becomes a shipping address, an order's shipping address becomes a contact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as shop
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import normalize
from phoneworld_gym.oracle import find, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import CONTACTS, Task, register_task
from phoneworld_gym.tasks.contacts.common import by_id, new_name, open_contact, pick, same_name
from phoneworld_gym.tasks.shopping.common import open_order, open_product

_ADDRESS = re.compile(r"^\s*(?P<street>[^,]+),\s*(?P<city>[^,]+),\s*(?P<state>[A-Za-z]{2})\s+"
                      r"(?P<zip>\d{5})\s*$")


def split_address(text: str) -> dict[str, str] | None:
    """"12 Oak Avenue, Austin, TX 78701" -> street, city, state, zip (None if not that form)."""
    m = _ADDRESS.match(text)
    return {k: v.strip() for k, v in m.groupdict().items()} if m else None


def same_address(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(normalize(str(a.get(k, ""))) == normalize(str(b.get(k, "")))
               for k in ("street", "city", "state", "zip"))


@register_task
class CrossAppShipToContact(Task):
    """Buy a product for someone: their address lives only in Contacts."""

    id = "CrossAppShipToContact"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "hard"
    tags = ("checkout", "form", "read-then-write")
    optimal_steps = 19
    max_steps = 50
    template = ("Buy one {product} and ship it to {name}. Their address is in my contacts. "
                "Use standard delivery.")
    paraphrases = {
        "train": (
            ("Please order one {product} for {name} with standard delivery. You'll find their "
             "address in my contacts."),
            ("Buy one {product} for {name} and ship it with standard delivery to their address "
             "from my contacts."),
        ),
        "test": (
            ("I'd like to send {name} a gift: one {product}. Could you buy it, ship it to the "
             "address I have for them in my contacts, and choose standard delivery?"),
            ("Get one {product} delivered to {name} with standard delivery. Their address is "
             "saved in my contacts."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        row = pick(rng, probe, where=lambda r: split_address(r["postal_address"]) is not None)
        goods = [p for p in cat.products()  # "one The ..." reads badly: no such titles
                 if p.in_stock and not p.options and not p.name.startswith("The ")]
        p = goods[int(rng.integers(len(goods)))]
        return {"name": row["display_name"], "contact_id": int(row["_id"]),
                "product": p.name, "product_id": p.id}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before = self.store_before("shopping")
        after = device.probe.app_store("shopping")
        old_ids = {o["id"] for o in before["orders"]}
        new = [o for o in after["orders"] if o["id"] not in old_ids]
        if len(new) != 1:
            return 0.0
        o = new[0]
        contact = by_id(self.contacts_before)[self.params["contact_id"]]
        want = split_address(contact["postal_address"])
        items = [(i["product_id"], i["qty"]) for i in o["items"]]
        ok = (items == [(self.params["product_id"], 1)]
              and want is not None and same_address(o["address"], want)
              and same_name(o["address"]["name"], self.params["name"])
              and o["delivery"] == "Standard"
              and [x for x in after["orders"] if x["id"] in old_ids] == before["orders"]
              and after["cart"] == before["cart"]
              and self.unchanged(device, allow={"shopping": {"orders", "next_order", "addresses",
                                                             "next_address_id",
                                                             "default_address"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield from scroll_to(device, rid="address_title")
        address = split_address(text_of(device, rid="address_title") or "")
        assert address is not None, "the contact shows no postal address"
        yield from open_product(device, self.params["product"])
        yield from scroll_to(device, rid="buy_now")
        yield tap(device, rid="buy_now")
        yield from scroll_to(device, rid="add_address")
        yield tap(device, rid="add_address")
        yield type_into(device, self.params["name"], rid="field_name")
        for key in ("street", "city", "state", "zip"):
            yield from scroll_to(device, rid=f"field_{key}")
            yield type_into(device, address[key], rid=f"field_{key}")
        yield Action("navigate_back")  # hide the keyboard
        yield from scroll_to(device, rid="save_address")
        yield tap(device, rid="save_address")
        yield from scroll_to(device, desc="Standard", rid="delivery_option")
        yield tap(device, desc="Standard", rid="delivery_option")
        yield from scroll_to(device, rid="place_order")
        yield tap(device, rid="place_order")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Ships the right product to my own default address instead."""
        yield from open_product(device, self.params["product"])
        yield from scroll_to(device, rid="buy_now")
        yield tap(device, rid="buy_now")
        yield from scroll_to(device, desc="Standard", rid="delivery_option")
        yield tap(device, desc="Standard", rid="delivery_option")
        yield from scroll_to(device, rid="place_order")
        yield tap(device, rid="place_order")
        yield Action("status", goal_status="complete")


@register_task
class CrossAppOrderAddressToContact(Task):
    """Save where an order went as a new contact."""

    id = "CrossAppOrderAddressToContact"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "hard"
    tags = ("form", "read-then-write")
    split = "test"
    optimal_steps = 12
    max_steps = 40
    template = ("Create a contact named {first} {last} and give it the shipping address of my "
                "order {order_id}.")
    paraphrases = {
        "test": (
            ("Add {first} {last} as a new contact, using the shipping address from my order "
             "{order_id} as their address."),
            ("Could you save a new contact, {first} {last}, with the address my order {order_id} "
             "was shipped to?"),
            ("I need a new contact named {first} {last} whose address is the shipping address on "
             "my order {order_id}."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        orders = probe.app_store("shopping")["orders"]
        o = orders[int(rng.integers(len(orders)))]
        first, last = new_name(rng, probe)
        return {"first": first, "last": last, "order_id": o["id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before, after = self.contacts_before, device.probe.contacts()
        new = [r for i, r in by_id(after).items() if i not in by_id(before)]
        if len(new) != 1:
            return 0.0
        r = new[0]
        order = shop.find_order(self.store_before("shopping"), self.params["order_id"])
        got = split_address(r["postal_address"])
        ok = (order is not None and got is not None and same_address(got, order["address"])
              and same_name(r["display_name"], f"{self.params['first']} {self.params['last']}")
              and all(by_id(after).get(i) == row for i, row in by_id(before).items())
              and self.unchanged(device, allow={"contacts": {"*"}, CONTACTS: {"*"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield from scroll_to(device, rid="order_address")
        address = text_of(device, rid="order_address") or ""
        yield from self._create_contact(device, address)

    def _create_contact(self, device: Device, address: str) -> Iterator[Action]:
        yield Action("open_app", app_name="Contacts")
        for _ in range(5):
            if find(device, rid="search_bar") is not None:
                break
            yield Action("navigate_back")
        yield tap(device, desc="Create contact")
        yield type_into(device, self.params["first"], rid="field_first")
        yield type_into(device, self.params["last"], rid="field_last")
        yield from scroll_to(device, rid="field_address")
        yield type_into(device, address, rid="field_address")
        yield tap(device, rid="save")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Uses the address of a different order that went elsewhere (or my Work address)."""
        s = self.store_before("shopping")
        mine = shop.find_order(s, self.params["order_id"])
        assert mine is not None
        others = [shop.address_lines(o["address"]) for o in s["orders"]
                  if not same_address(o["address"], mine["address"])]
        others += [shop.address_lines(a) for a in s["addresses"]
                   if not same_address(a, mine["address"])]
        yield from self._create_contact(device, others[0])
        yield Action("status", goal_status="complete")
