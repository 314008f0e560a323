"""Shopping tasks that place orders: Buy now with Express delivery to a saved address, and
checking out the cart to a new address typed into the form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.shopping.common import (
    SHOP,
    apply_seed_cart,
    choice,
    choose_options,
    open_product,
    open_tab,
    orders_same_except,
    pick_product,
    priced,
    seed_cart_params,
)


def new_orders(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    old = {o["id"] for o in before["orders"]}
    return [o for o in after["orders"] if o["id"] not in old]


def options_phrase(options: dict[str, str]) -> str:
    """" (size M, color Red)" or ""."""
    if not options:
        return ""
    return " (" + ", ".join(f"{k.lower()} {v}" for k, v in options.items()) + ")"


@register_task
class ShoppingBuyExpress(Task):
    """Buy one product with Express delivery to a saved, non-default address."""

    id = "ShoppingBuyExpress"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("checkout", "options")
    optimal_steps = 9
    template = ("Buy one {name}{options_phrase} with Express delivery and ship it to my "
                "{label} address.")
    paraphrases = {
        "train": (
            "Order one {name}{options_phrase} with Express delivery to my {label} address.",
            ("Please buy one {name}{options_phrase}, ship it to my {label} address, and use "
             "Express delivery."),
        ),
        "test": (
            ("I need one {name}{options_phrase} sent to my {label} address. Can you buy it with "
             "Express delivery?"),
            ("Could you purchase a single {name}{options_phrase} for me? Express delivery, to my "
             "{label} address."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        store = probe.app_store(SHOP)
        # "Buy one The ..." reads badly: titles starting with "The" are left out
        p = pick_product(rng, lambda p: len(p.options) <= 2 and not p.name.startswith("The "))
        opts = st.random_options(rng, p)
        addr = choice(rng, [a for a in store["addresses"]
                            if a["id"] != store["default_address"]])
        # options as [name, value] pairs: flat params (the env copies params shallowly)
        return {"name": p.name, "product_id": p.id, "options": [[k, v] for k, v in opts.items()],
                "options_phrase": options_phrase(opts), "label": addr["label"],
                "address_id": addr["id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before, after = self.store_before(SHOP), device.probe.app_store(SHOP)
        new = new_orders(before, after)
        if len(new) != 1:
            return 0.0
        o = new[0]
        p = cat.product(self.params["product_id"])
        addr = st.find_address(before, self.params["address_id"])
        assert addr is not None
        opts = dict(self.params["options"])
        ok = (o["items"] == [{"product_id": p.id, "options": opts, "qty": 1,
                              "price": p.price}]
              and o["delivery"] == "Express" and o["status"] == "Processing"
              and o["address"] == {k: addr[k] for k in st.ADDRESS_FIELDS}
              and orders_same_except(before["orders"], after["orders"])
              and after["cart"] == before["cart"]
              and self.unchanged(device, allow={SHOP: {"orders", "next_order"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._checkout(device, "Express")

    def _checkout(self, device: Device, delivery: str) -> Iterator[Action]:
        yield from open_product(device, self.params["name"])
        yield from choose_options(device, dict(self.params["options"]))
        yield tap(device, rid="buy_now")
        desc = f"· {self.params['label']}"
        yield from scroll_to(device, desc=desc, rid="address_option", contains=True)
        yield tap(device, desc=desc, rid="address_option", contains=True)
        yield from scroll_to(device, desc=delivery, rid="delivery_option")
        yield tap(device, desc=delivery, rid="delivery_option")
        yield tap(device, rid="place_order")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but Standard delivery."""
        yield from self._checkout(device, "Standard")
        yield Action("status", goal_status="complete")


@register_task
class ShoppingCheckoutNewAddress(Task):
    """Check out the whole cart to an address typed into the new-address form."""

    id = "ShoppingCheckoutNewAddress"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("checkout", "form")
    split = "test"
    optimal_steps = 11
    template = ("Order everything in my cart with Standard delivery, shipped to my new "
                "address: {street}, {city}, {state} {zip}.")
    paraphrases = {
        "test": (
            ("Check out my whole cart with Standard delivery and ship it to my new address, "
             "{street}, {city}, {state} {zip}."),
            ("I've moved to {street}, {city}, {state} {zip}. Please order everything in my cart "
             "to that new address, using Standard delivery."),
            ("Could you place an order for all the items in my cart? Send it by Standard delivery "
             "to my new address: {street}, {city}, {state} {zip}."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        store = probe.app_store(SHOP)
        extra = seed_cart_params(rng, store, want=1)
        taken = {a["street"] for a in store["addresses"]}
        while True:
            street = f"{int(rng.integers(10, 999))} {choice(rng, st.STREETS)}"
            if street not in taken:
                break
        city, state, zipc = choice(rng, st.CITIES)
        return {"seed_cart": extra, "street": street, "city": city, "state": state,
                "zip": zipc}

    def setup(self, device: Device) -> None:
        apply_seed_cart(device, self.params["seed_cart"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before, after = self.store_before(SHOP), device.probe.app_store(SHOP)
        new = new_orders(before, after)
        if len(new) != 1:
            return 0.0
        o = new[0]
        want_addr = {"name": before["user"]["name"], "street": self.params["street"],
                     "city": self.params["city"], "state": self.params["state"],
                     "zip": self.params["zip"]}
        added = after["addresses"][len(before["addresses"]):]
        ok = (o["items"] == priced(before["cart"]) and o["delivery"] == "Standard"
              and o["address"] == want_addr and after["cart"] == []
              and after["addresses"][:len(before["addresses"])] == before["addresses"]
              and len(added) == 1
              and {k: added[0][k] for k in st.ADDRESS_FIELDS} == want_addr
              and orders_same_except(before["orders"], after["orders"])
              and self.unchanged(device, allow={SHOP: {"orders", "next_order", "cart",
                                                       "addresses", "next_address_id"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._checkout(device, self.params["zip"])

    def _checkout(self, device: Device, zipc: str) -> Iterator[Action]:
        yield from open_tab(device, "cart")
        yield tap(device, rid="checkout")
        yield from scroll_to(device, rid="add_address")
        yield tap(device, rid="add_address")
        yield type_into(device, self.params["street"], rid="field_street")
        yield type_into(device, self.params["city"], rid="field_city")
        yield type_into(device, self.params["state"], rid="field_state")
        yield type_into(device, zipc, rid="field_zip")
        yield from scroll_to(device, rid="save_address")
        yield tap(device, rid="save_address")
        yield tap(device, rid="place_order")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """A typo in the ZIP code."""
        z = self.params["zip"]
        yield from self._checkout(device, z[:-1] + ("0" if z[-1] != "0" else "1"))
        yield Action("status", goal_status="complete")
