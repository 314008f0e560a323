"""Cross-app tasks that carry information between Contacts and Shopping.

The agent has to read something in one app and use it in the other: a contact's postal address
becomes a shipping address, an order's shipping address becomes a contact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import (
    browse_to_contact,
    new_name,
    open_contact,
    pick,
    to_list,
)
from phoneworld_gym.tasks.cross_app.common import (
    ADDRESS_FIELDS,
    address_line,
    contact_address,
    same_address,
    ships_to,
    simple_products,
    split_address,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import open_order, open_product
from phoneworld_gym.validators import added, expect, same_text


@register_task
class CrossAppShipToContact(Task):
    """Buy a product for someone: their address lives only in Contacts.

    Done when exactly one order was placed, holding just one of the product, shipped by
    Standard delivery to the contact's name and postal address, and exactly one shipping
    address was saved on the way (that one, not made the default). Deleting or editing the
    saved addresses (the user's Home among them) or changing the default fails, and so does
    touching the cart or anything else."""

    id = "CrossAppShipToContact"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "hard"
    tags = ("checkout", "form", "read-then-write")
    optimal_steps = 18
    max_steps = 50
    may_change = ("shopping/orders", "shopping/addresses")
    params_schema = {"name": str, "contact_id": int, "product": str, "product_id": str}
    template = ("Buy one {product} and ship it to {name}. Their address is in my contacts. "
                "Use standard delivery.")
    constraints = ("standard delivery", "one {product}")
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
        p = choice(rng, simple_products(probe))
        return {"name": row["display_name"], "contact_id": int(row["_id"]),
                "product": p["name"], "product_id": p["_id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        name, pid = self.params["name"], self.params["product_id"]
        want = contact_address(self.before("contacts"), self.params["contact_id"])
        return self.expect(
            expect("shopping/orders", added=[{
                "items": lambda items: [(i["product_id"], i["qty"]) for i in items] == [(pid, 1)],
                "address": ships_to(name, want),
                "delivery": "Standard",
            }]),
            expect("shopping/addresses", added=[{
                "name": same_text(name), **{k: want[k] for k in ADDRESS_FIELDS},
                "is_default": 0,
            }]),
        )

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_contact,
              ) -> Iterator[Action]:
        yield from via(device, self.params["name"])
        yield from scroll_to(device, rid="address_title")
        address = split_address(text_of(device, rid="address_title") or "")
        assert address is not None, "the contact shows no postal address"
        yield from self._buy_now(device)
        yield from scroll_to(device, rid="add_address")
        yield tap(device, rid="add_address")
        yield type_into(device, self.params["name"], rid="field_name")
        for key in ADDRESS_FIELDS:
            yield from scroll_to(device, rid=f"field_{key}")
            yield type_into(device, address[key], rid=f"field_{key}")
        yield Action("navigate_back")  # hide the keyboard
        yield from scroll_to(device, rid="save_address")
        yield tap(device, rid="save_address")
        yield from self._place_standard(device)
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._play(device, browse_to_contact)

    def _buy_now(self, device: Device) -> Iterator[Action]:
        yield from open_product(device, self.params["product"])
        yield from scroll_to(device, rid="buy_now")
        yield tap(device, rid="buy_now")

    def _place_standard(self, device: Device) -> Iterator[Action]:
        yield from scroll_to(device, desc="Standard", rid="delivery_option")
        yield tap(device, desc="Standard", rid="delivery_option")
        yield from scroll_to(device, rid="place_order")
        yield tap(device, rid="place_order")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Ships the right product to my own default address instead."""
        yield from self._buy_now(device)
        yield from self._place_standard(device)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppOrderAddressToContact(Task):
    """Save where an order went as a new contact: exactly one ``contacts`` row is added, with
    that name and the order's shipping address (street, city, state and ZIP as Contacts
    writes them on one line)."""

    id = "CrossAppOrderAddressToContact"
    apps = ("contacts", "shopping")
    category = "cross-app"
    difficulty = "hard"
    tags = ("form", "read-then-write")
    split = "test"
    optimal_steps = 12
    max_steps = 40
    may_change = ("contacts",)
    params_schema = {"first": str, "last": str, "order_id": str}
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
        o = choice(rng, probe.query("shopping/orders"))
        first, last = new_name(rng, probe)
        return {"first": first, "last": last, "order_id": o["_id"]}

    def _order_address(self) -> dict[str, Any]:
        return dict(next(o["address"] for o in self.before("shopping/orders")
                         if o["_id"] == self.params["order_id"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = self._order_address()

        def right_address(v: Any) -> bool:
            got = split_address(v) if isinstance(v, str) else None
            return got is not None and same_address(got, want)

        return self.expect(added("contacts", {
            "display_name": same_text(f"{self.params['first']} {self.params['last']}"),
            "postal_address": right_address,
        }))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield from scroll_to(device, rid="order_address")
        address = text_of(device, rid="order_address") or ""
        yield from self._create_contact(device, address)
        yield Action("status", goal_status="complete")

    def _create_contact(self, device: Device, address: str) -> Iterator[Action]:
        yield from to_list(device)
        yield tap(device, desc="Create contact")
        yield type_into(device, self.params["first"], rid="field_first")
        yield type_into(device, self.params["last"], rid="field_last")
        yield from scroll_to(device, rid="field_address")
        yield type_into(device, address, rid="field_address")
        yield tap(device, rid="save")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Uses the address of a different order that went elsewhere (or my Work address)."""
        mine = self._order_address()
        others = [o["address"] for o in self.before("shopping/orders")
                  if not same_address(o["address"], mine)]
        others += [a for a in self.before("shopping/addresses") if not same_address(a, mine)]
        yield from self._create_contact(device, address_line(others[0]))
        yield Action("status", goal_status="complete")
