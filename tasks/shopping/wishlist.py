"""Shopping wishlist tasks: save a product, move a saved product to the cart."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.shopping.common import (
    SHOP,
    choice,
    live_store,
    open_product,
    open_wishlist,
    pick_product,
    tap_after,
)


@register_task
class ShoppingWishlistAdd(Task):
    """Save a product to the wishlist."""

    id = "ShoppingWishlistAdd"
    apps = (SHOP,)
    difficulty = "easy"
    split = "test"
    optimal_steps = 5
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
        saved = set(probe.app_store(SHOP)["wishlist"])
        p = pick_product(rng, lambda p: p.id not in saved)
        # a product of the same kind, for the near miss
        other = next((q for q in cat.products() if q.noun == p.noun and q.id != p.id
                      and q.id not in saved), None)
        if other is None:
            other = pick_product(rng, lambda q: q.id not in saved and q.id != p.id)
        return {"name": p.name, "product_id": p.id, "other": other.name}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = self.store_before(SHOP)["wishlist"] + [self.params["product_id"]]
        ok = (device.probe.app_store(SHOP)["wishlist"] == want
              and self.unchanged(device, allow={SHOP: {"wishlist"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_product(device, self.params["name"])
        yield tap(device, desc="Add to wishlist", rid="wishlist_button")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves a similar product instead."""
        yield from open_product(device, self.params["other"])
        yield tap(device, desc="Add to wishlist", rid="wishlist_button")
        yield Action("status", goal_status="complete")


@register_task
class ShoppingWishlistToCart(Task):
    """Move a saved product (one without options) from the wishlist to the cart."""

    id = "ShoppingWishlistToCart"
    apps = (SHOP,)
    difficulty = "medium"
    optimal_steps = 5
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
        store = probe.app_store(SHOP)
        plain = [pid for pid in store["wishlist"]
                 if not cat.product(pid).options and cat.product(pid).in_stock]
        if plain:
            pid, seed = str(choice(rng, plain)), None
        else:
            pid = pick_product(rng, lambda p: not p.options
                               and p.id not in store["wishlist"]).id
            seed = pid
        return {"name": cat.product(pid).name, "product_id": pid, "seed_wishlist": seed}

    def setup(self, device: Device) -> None:
        if self.params["seed_wishlist"]:
            live_store(device)["wishlist"].append(self.params["seed_wishlist"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = self.store_before(SHOP)
        st.move_to_cart(want, self.params["product_id"])
        after = device.probe.app_store(SHOP)
        ok = (after["cart"] == want["cart"] and after["wishlist"] == want["wishlist"]
              and self.unchanged(device, allow={SHOP: {"cart", "wishlist"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_wishlist(device)
        yield from tap_after(device, {"text": self.params["name"], "rid": "wishlist_item_name"},
                             "move_to_cart")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds it to the cart from its page but leaves it in the wishlist."""
        yield from open_wishlist(device)
        yield from scroll_to(device, text=self.params["name"], rid="wishlist_item_name")
        yield tap(device, text=self.params["name"], rid="wishlist_item_name")
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")
