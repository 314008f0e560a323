"""Shopping wishlist tasks: save a product, move a saved product to the cart.

Products come from the episode's ``shopping/products`` and ``shopping/wishlist`` rows; a
product the task needs on the wishlist is saved at setup with the ``add_to_wishlist``
fixture."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import (
    CART,
    SHOP,
    WISHLIST,
    open_product,
    open_wishlist,
    pick_product,
    products,
    shifted_positions,
    tap_after,
)
from phoneworld_gym.validators import added, expect


def _kind(row: Row) -> str:
    """What a product is, from its name's last word ("Earbuds", "Hoodie", "Harbor")."""
    return str(row["name"]).split()[-1]


@register_task
class ShoppingWishlistAdd(Task):
    """Save a product to the wishlist (an in-stock product not saved yet)."""

    id = "ShoppingWishlistAdd"
    apps = (SHOP,)
    difficulty = "easy"
    split = "test"
    optimal_steps = 5
    may_change = (WISHLIST,)
    params_schema = {"name": str, "product_id": str, "other": str}
    template = "Save {name} to my wishlist so I can buy it later."
    paraphrases = {
        "test": (
            "Add {name} to my wishlist.",
            "Could you put {name} on my wishlist? I might buy it later.",
            "I'm not ready to buy {name} yet, so please save it to my wishlist.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = {r["_id"] for r in probe.query(WISHLIST)}
        p = pick_product(rng, probe, lambda r: r["_id"] not in saved)
        # a product of the same kind (same department, same last word), for the near miss
        others = [r for r in products(probe) if r["_id"] != p["_id"] and r["_id"] not in saved]
        same = [r for r in others if r["category"] == p["category"] and _kind(r) == _kind(p)]
        other = (same or others)[0]
        return {"name": p["name"], "product_id": p["_id"], "other": other["name"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added(WISHLIST, {"_id": self.params["product_id"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._save(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def _save(self, device: Device, name: str) -> Iterator[Action]:
        yield from open_product(device, name)
        yield tap(device, desc="Add to wishlist", rid="wishlist_button")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves a similar product instead."""
        yield from self._save(device, self.params["other"])
        yield Action("status", goal_status="complete")


@register_task
class ShoppingWishlistToCart(Task):
    """Move a saved product (one without options, in stock, not in the cart yet) from the
    wishlist to the cart: a new cart line of one, and the wishlist row gone (the rows after it
    move up). When no saved product fits, setup saves one (``seed_wishlist``)."""

    id = "ShoppingWishlistToCart"
    apps = (SHOP,)
    difficulty = "medium"
    optimal_steps = 5
    may_change = (CART, WISHLIST)
    params_schema = {"name": str, "product_id": str, "seed_wishlist": list}
    template = "Move {name} from my wishlist to my cart."
    paraphrases = {
        "train": (
            "Please move {name} from my wishlist into my shopping cart.",
            "Take {name} off my wishlist and put it in my cart.",
        ),
        "test": (
            "I'm ready to buy {name} from my wishlist. Could you move it to my cart?",
            "{name} is on my wishlist; please move it over to my basket.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = [r["_id"] for r in probe.query(WISHLIST)]
        in_cart = {r["product_id"] for r in probe.query(CART)}
        fits = [r for r in products(probe)
                if not r["options"] and r["in_stock"] == 1 and r["_id"] not in in_cart]
        plain = [r for r in fits if r["_id"] in saved]
        if plain:
            p, seed = choice(rng, plain), []
        else:
            p = choice(rng, [r for r in fits if r["_id"] not in saved])
            seed = [p["_id"]]
        return {"name": p["name"], "product_id": p["_id"], "seed_wishlist": seed}

    def setup(self, device: Device) -> None:
        if self.params["seed_wishlist"]:
            device.fixture(SHOP, "add_to_wishlist", product_ids=list(self.params["seed_wishlist"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        pid = self.params["product_id"]
        return self.expect(
            added(CART, {"product_id": pid, "options": {}, "qty": 1}),
            expect(WISHLIST, removed=[pid],
                   changed=shifted_positions(self.before(WISHLIST), [pid])),
        )

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_wishlist(device)
        yield from tap_after(device, {"text": self.params["name"], "rid": "wishlist_item_name"},
                             "move_to_cart")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds it to the cart from its page but leaves it in the wishlist."""
        yield from open_wishlist(device)
        yield from scroll_to(device, text=self.params["name"], rid="wishlist_item_name")
        yield tap(device, text=self.params["name"], rid="wishlist_item_name")
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")
