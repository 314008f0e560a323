"""Shopping tasks that place orders: Buy now with Express delivery to a saved address, and
checking out the cart to a new address typed into the form.

Both check the one new ``shopping/orders`` row (its items, delivery and shipping address)
against the start state's rows; the cart checkout also checks that the cart was emptied and
that the new address was saved."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.life import CITIES, STREETS
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import (
    ACCOUNT,
    ADDRESSES,
    CART,
    ORDERS,
    SHOP,
    browse_to_product,
    choose_options,
    open_product,
    open_tab,
    pick_product,
    products_by_id,
    random_options,
    seed_cart,
    seed_cart_params,
)
from phoneworld_gym.validators import added, removed

#: the columns of an address as an order carries it
ADDRESS_FIELDS = ("name", "street", "city", "state", "zip")


def options_phrase(options: dict[str, str]) -> str:
    """" (size M, color Red)" or ""."""
    if not options:
        return ""
    return " (" + ", ".join(f"{k.lower()} {v}" for k, v in options.items()) + ")"


class _ItemsFit:
    """A predicate for an order row's ``items``: exactly ``len(want)`` items, in order, each
    with the columns of its ``want`` entry (product_id, options, qty, price) and nothing
    returned. Its ``repr`` lists ``want``, so a failed check says what was expected."""

    def __init__(self, want: list[dict[str, Any]]):
        self.want = want

    def __call__(self, items: Any) -> bool:
        return (isinstance(items, list) and len(items) == len(self.want)
                and all(isinstance(it, dict) and not it.get("returned")
                        and all(it.get(k) == v for k, v in w.items())
                        for it, w in zip(items, self.want)))

    def __repr__(self) -> str:
        return f"items {self.want!r}"


def items_fit(want: list[dict[str, Any]]) -> Callable[[Any], bool]:
    """A predicate (like the validators' ``same_text``) for an order row's ``items``: see
    :class:`_ItemsFit`."""
    return _ItemsFit(want)


def address_of(row: Row) -> dict[str, Any]:
    """The shipping address an order to a ``shopping/addresses`` row carries."""
    return {k: row[k] for k in ADDRESS_FIELDS}


@register_task
class ShoppingBuyExpress(Task):
    """Buy one product with Express delivery to a saved, non-default address.

    The product and its options come from the episode's catalogue; the check is one new
    Processing order of exactly that item at its catalogue price, Express, shipped to that
    address (the cart untouched)."""

    id = "ShoppingBuyExpress"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("checkout", "options")
    optimal_steps = 8
    may_change = (ORDERS,)
    params_schema = {"name": str, "product_id": str, "options": dict, "options_phrase": str,
                     "label": str, "street": str}
    template = ("Buy one {name}{options_phrase} with Express delivery and ship it to my "
                "{label} address.")
    constraints = ("Express delivery", ("one {name}", "a single {name}"))
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
        # "Buy one The ..." reads badly: titles starting with "The" are left out
        p = pick_product(rng, probe, lambda r: len(r["options"]) <= 2
                         and not r["name"].startswith("The "))
        opts = random_options(rng, p)
        addr = choice(rng, [a for a in probe.query(ADDRESSES) if not a["is_default"]])
        return {"name": p["name"], "product_id": p["_id"], "options": opts,
                "options_phrase": options_phrase(opts), "label": addr["label"],
                "street": addr["street"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        addr = next(a for a in self.before(ADDRESSES) if a["street"] == p["street"])
        price = products_by_id(device.probe)[p["product_id"]]["price"]
        return self.expect(added(ORDERS, {
            "items": items_fit([{"product_id": p["product_id"], "options": p["options"],
                                 "qty": 1, "price": price}]),
            "delivery": "Express",
            "status": "Processing",
            "address": address_of(addr),
        }))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._checkout(device, "Express")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the product through the Categories tab instead of searching."""
        yield from self._checkout(device, "Express", browse=True)
        yield Action("status", goal_status="complete")

    def _checkout(self, device: Device, delivery: str,
                  browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_product if browse else open_product)(device, self.params["name"])
        yield from choose_options(device, self.params["options"])
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
    """Check out the whole cart to an address typed into the new-address form.

    Setup makes sure the cart holds a line (``add_to_cart`` fixture). The check: one new
    Standard order holding the start cart's lines at their prices, shipped to the new address
    under the shopper's name; every cart line gone; that address saved (and nothing else
    about the saved addresses changed)."""

    id = "ShoppingCheckoutNewAddress"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("checkout", "form")
    split = "test"
    optimal_steps = 11
    may_change = (ORDERS, CART, ADDRESSES)
    params_schema = {"seed_cart": list, "street": str, "city": str, "state": str, "zip": str}
    template = ("Order everything in my cart with Standard delivery, shipped to my new "
                "address: {street}, {city}, {state} {zip}.")
    constraints = ("Standard delivery", "new address")
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
        extra = seed_cart_params(rng, probe, want=1)
        taken = {a["street"] for a in probe.query(ADDRESSES)}
        while True:
            street = f"{int(rng.integers(10, 999))} {choice(rng, STREETS)}"
            if street not in taken:
                break
        city, state, zipc = choice(rng, CITIES)
        return {"seed_cart": extra, "street": street, "city": city, "state": state,
                "zip": zipc}

    def setup(self, device: Device) -> None:
        seed_cart(device, self.params["seed_cart"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        cart = self.before(CART)
        owner = self.before(ACCOUNT)[0]["name"]
        where = {"name": owner, "street": p["street"], "city": p["city"], "state": p["state"],
                 "zip": p["zip"]}
        return self.expect(
            added(ORDERS, {
                "items": items_fit([{"product_id": r["product_id"], "options": r["options"],
                                     "qty": r["qty"], "price": r["price"]} for r in cart]),
                "delivery": "Standard",
                "status": "Processing",
                "address": where,
            }),
            removed(CART, *[r["_id"] for r in cart]),
            added(ADDRESSES, {**where, "is_default": 0}),
        )

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._checkout(device, self.params["zip"])
        yield Action("status", goal_status="complete")

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
