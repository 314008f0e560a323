"""Shopping tasks on the cart: add a product with options, remove a line, change a quantity.

Params are drawn from the episode's own seeded catalogue and cart (``shopping/products`` and
``shopping/cart`` through the probe); the cart-line tasks first make sure the cart holds two
lines, adding the missing ones at setup with the ``add_to_cart`` fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import (
    CART,
    SHOP,
    browse_to_product,
    cart_lines_after_seed,
    choose_options,
    open_cart_from_bar,
    open_product,
    open_tab,
    pick_product,
    products_by_id,
    seed_cart,
    seed_cart_params,
    set_page_qty,
    shifted_positions,
    tap_after,
)
from phoneworld_gym.validators import added, changed, expect


def _cart_line_anchor(name: str) -> dict[str, Any]:
    return {"text": name, "rid": "cart_item_name"}


@register_task
class ShoppingAddToCartOptions(Task):
    """Add a named apparel or shoe product in a given size and colour, in a given quantity.

    The product, size and colour come from the episode's catalogue (a combination not in the
    cart yet); the check is one new cart line of that product, options and quantity."""

    id = "ShoppingAddToCartOptions"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("search", "options")
    optimal_steps = 10
    may_change = (CART,)
    params_schema = {"name": str, "product_id": str, "size": str, "color": str, "qty": int}
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
        in_cart = [(r["product_id"], r["options"]) for r in probe.query(CART)]
        while True:
            p = pick_product(rng, probe, lambda r: r["category"] in ("Clothing", "Shoes"))
            opts = {"Size": str(choice(rng, p["options"]["Size"])),
                    "Color": str(choice(rng, p["options"]["Color"]))}
            if (p["_id"], opts) not in in_cart:
                break
        return {"name": p["name"], "product_id": p["_id"], "size": opts["Size"],
                "color": opts["Color"], "qty": int(rng.integers(2, 4))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added(CART, {
            "product_id": p["product_id"],
            "options": {"Size": p["size"], "Color": p["color"]},
            "qty": p["qty"],
        }))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, self.params)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the product through the Categories tab instead of searching."""
        yield from self._add(device, self.params, browse=True)
        yield Action("status", goal_status="complete")

    def _add(self, device: Device, params: dict[str, Any],
             browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_product if browse else open_product)(device, params["name"])
        yield from choose_options(device, {"Size": params["size"], "Color": params["color"]})
        yield from set_page_qty(device, params["qty"])
        yield tap(device, rid="add_to_cart")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right product, colour and quantity, in the neighbouring size."""
        sizes = products_by_id(device.probe)[self.params["product_id"]]["options"]["Size"]
        i = sizes.index(self.params["size"])
        yield from self._add(device, dict(self.params, size=sizes[i - 1] if i else sizes[1]))
        yield Action("status", goal_status="complete")


class _CartLineTask(Task):
    """A task about one line of a cart that setup makes sure holds at least two lines (the
    missing ones added with the ``add_to_cart`` fixture, from ``seed_cart``). The line is one
    whose product is on no other line, so its name identifies it."""

    apps = (SHOP,)
    may_change = (CART,)

    @classmethod
    def _pick_line(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        extra = seed_cart_params(rng, probe, want=2)
        lines = cart_lines_after_seed(probe, extra)
        ids = [line["product_id"] for line in lines]
        line = choice(rng, [line for line in lines if ids.count(line["product_id"]) == 1])
        return {"seed_cart": extra, "product_id": line["product_id"], "name": line["name"],
                "old_qty": line["qty"]}

    def setup(self, device: Device) -> None:
        seed_cart(device, self.params["seed_cart"])

    def _line(self) -> Row:
        """The task's cart line at the start (after setup)."""
        return next(r for r in self.before(CART) if r["product_id"] == self.params["product_id"])


@register_task
class ShoppingRemoveFromCart(_CartLineTask):
    """Delete one line from the cart (the lines after it move up one position)."""

    id = "ShoppingRemoveFromCart"
    difficulty = "easy"
    optimal_steps = 4
    params_schema = {"seed_cart": list, "product_id": str, "name": str, "old_qty": int}
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
        gone = self._line()["_id"]
        return self.expect(expect(CART, removed=[gone],
                                  changed=shifted_positions(self.before(CART), [gone])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "cart")
        yield from tap_after(device, _cart_line_anchor(self.params["name"]), "remove_item")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the cart from Home's app-bar cart icon instead of the bottom navigation."""
        yield from open_cart_from_bar(device)
        yield from tap_after(device, _cart_line_anchor(self.params["name"]), "remove_item")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Lowers the quantity to one instead of removing the line (or removes another)."""
        yield from open_tab(device, "cart")
        anchor = _cart_line_anchor(self.params["name"])
        if self.params["old_qty"] > 1:
            for _ in range(self.params["old_qty"] - 1):
                yield from tap_after(device, anchor, "qty_minus")
        else:
            other = next(r for r in self.before(CART)
                         if r["product_id"] != self.params["product_id"])
            yield from tap_after(device, _cart_line_anchor(other["name"]), "remove_item")
        yield Action("status", goal_status="complete")


@register_task
class ShoppingChangeCartQty(_CartLineTask):
    """Set the quantity of one cart line."""

    id = "ShoppingChangeCartQty"
    difficulty = "medium"
    optimal_steps = 5
    params_schema = {"seed_cart": list, "product_id": str, "name": str, "old_qty": int,
                     "qty": int}
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
        return self.expect(changed(CART, self._line()["_id"], qty=self.params["qty"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "cart")
        yield from self._step_to(device, self.params["qty"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the cart from Home's app-bar cart icon instead of the bottom navigation."""
        yield from open_cart_from_bar(device)
        yield from self._step_to(device, self.params["qty"])
        yield Action("status", goal_status="complete")

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
