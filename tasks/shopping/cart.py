"""Shopping tasks on the cart: add a product with options, remove a line, change a quantity."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.shopping.common import (
    SHOP,
    apply_seed_cart,
    cart_after_seed,
    choice,
    choose_options,
    open_product,
    open_tab,
    pick_product,
    seed_cart_params,
    set_page_qty,
    tap_after,
)


def _cart_line_anchor(name: str) -> dict[str, Any]:
    return {"text": name, "rid": "cart_item_name"}


@register_task
class ShoppingAddToCartOptions(Task):
    """Add a named apparel or shoe product in a given size and colour, in a given quantity."""

    id = "ShoppingAddToCartOptions"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("search", "options")
    optimal_steps = 9
    template = "Add {qty} of the {name} in size {size}, color {color}, to my cart."
    paraphrases = {
        "train": (
            "Put {qty} of the {name} in my cart, size {size} and color {color}.",
            "My cart needs {qty} of the {name} (size {size}, color {color}). Please add them.",
        ),
        "test": (
            ("I need {qty} of the {name}, size {size} in {color}. Can you add them to my shopping "
             "cart?"),
            "Could you put the {name} in my basket? Size {size}, color {color}, quantity {qty}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        store = probe.app_store(SHOP)
        while True:
            p = pick_product(rng, lambda p: p.category in ("Clothing", "Shoes"))
            opts = {"Size": choice(rng, p.options["Size"]),
                    "Color": choice(rng, p.options["Color"])}
            if st.find_cart_item(store, p.id, opts) is None:
                break
        return {"name": p.name, "product_id": p.id, "size": opts["Size"],
                "color": opts["Color"], "qty": int(rng.integers(2, 4))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = self.store_before(SHOP)
        st.add_to_cart(want, self.params["product_id"],
                       {"Size": self.params["size"], "Color": self.params["color"]},
                       self.params["qty"])
        after = device.probe.app_store(SHOP)
        ok = after["cart"] == want["cart"] and self.unchanged(device, allow={SHOP: {"cart"}})
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_product(device, self.params["name"])
        yield from choose_options(device, {"Size": self.params["size"],
                                           "Color": self.params["color"]})
        yield from set_page_qty(device, self.params["qty"])
        yield tap(device, rid="add_to_cart")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right product, colour and quantity, in the neighbouring size."""
        sizes = cat.product(self.params["product_id"]).options["Size"]
        i = sizes.index(self.params["size"])
        wrong = dict(self.params, size=sizes[i - 1] if i else sizes[1])
        yield from type(self)(wrong).oracle(device)
        yield Action("status", goal_status="complete")


class _CartLineTask(Task):
    """A task about one line of a cart that setup makes sure holds at least two lines."""

    apps = (SHOP,)

    @classmethod
    def _pick_line(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        store = probe.app_store(SHOP)
        extra = seed_cart_params(rng, store, want=2)
        lines = cart_after_seed(store, extra)
        # a product that appears on one line only, so its name identifies the line
        ids = [it["product_id"] for it in lines]
        unique = [i for i, pid in enumerate(ids) if ids.count(pid) == 1]
        i = int(choice(rng, unique))
        return {"seed_cart": extra, "index": i, "product_id": lines[i]["product_id"],
                "name": cat.product(lines[i]["product_id"]).name, "old_qty": lines[i]["qty"]}

    def setup(self, device: Device) -> None:
        apply_seed_cart(device, self.params["seed_cart"])


@register_task
class ShoppingRemoveFromCart(_CartLineTask):
    """Delete one line from the cart."""

    id = "ShoppingRemoveFromCart"
    difficulty = "easy"
    optimal_steps = 4
    template = "Remove {name} from my shopping cart."
    paraphrases = {
        "train": (
            "Please delete {name} from my cart.",
            "Take {name} out of my shopping cart.",
        ),
        "test": (
            "I don't want {name} anymore. Could you remove it from my cart?",
            "{name} shouldn't be in my basket at all. Please remove it.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return cls._pick_line(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = self.store_before(SHOP)["cart"]
        want = [it for it in want if it["product_id"] != self.params["product_id"]]
        ok = (device.probe.app_store(SHOP)["cart"] == want
              and self.unchanged(device, allow={SHOP: {"cart"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "cart")
        yield from tap_after(device, _cart_line_anchor(self.params["name"]), "remove_item")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Lowers the quantity to one instead of removing the line (or removes another)."""
        yield from open_tab(device, "cart")
        anchor = _cart_line_anchor(self.params["name"])
        if self.params["old_qty"] > 1:
            for _ in range(self.params["old_qty"] - 1):
                yield from tap_after(device, anchor, "qty_minus")
        else:
            other = next(it for it in self.store_before(SHOP)["cart"]
                         if it["product_id"] != self.params["product_id"])
            yield from tap_after(device, _cart_line_anchor(cat.product(other["product_id"]).name),
                                 "remove_item")
        yield Action("status", goal_status="complete")


@register_task
class ShoppingChangeCartQty(_CartLineTask):
    """Set the quantity of one cart line."""

    id = "ShoppingChangeCartQty"
    difficulty = "medium"
    optimal_steps = 5
    template = "I need {qty} of {name} in my cart, please update the quantity."
    paraphrases = {
        "train": (
            "Change the quantity of {name} in my cart to {qty}, please.",
            "Set the quantity of {name} in my cart to {qty}.",
        ),
        "test": (
            "Can you fix my cart? The quantity of {name} should be {qty}.",
            "Could you adjust my cart so the line for {name} has a quantity of {qty}?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        params = cls._pick_line(rng, probe)
        old = params["old_qty"]
        params["qty"] = int(choice(rng, [q for q in range(1, 6) if q != old]))
        return params

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = self.store_before(SHOP)["cart"]
        for it in want:
            if it["product_id"] == self.params["product_id"]:
                it["qty"] = self.params["qty"]
        ok = (device.probe.app_store(SHOP)["cart"] == want
              and self.unchanged(device, allow={SHOP: {"cart"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "cart")
        yield from self._step_to(device, self.params["qty"])

    def _step_to(self, device: Device, qty: int) -> Iterator[Action]:
        anchor = _cart_line_anchor(self.params["name"])
        old = self.params["old_qty"]
        rid = "qty_plus" if qty > old else "qty_minus"
        for _ in range(abs(qty - old)):
            yield from tap_after(device, anchor, rid)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Off by one."""
        yield from open_tab(device, "cart")
        q, old = self.params["qty"], self.params["old_qty"]
        yield from self._step_to(device, q + 1 if q + 1 != old else q + 2)
        yield Action("status", goal_status="complete")
