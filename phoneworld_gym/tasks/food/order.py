"""Food tasks that change something: save a store, add a dish with options to the cart, take
one out, place a whole order (address, tip, card), reorder a past order; and, infeasible by
design, ordering a dish that is sold out today or one from the restaurant closed until the
evening."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.food.common import (
    ADDRESSES,
    DEFAULT_TIP,
    TIPS,
    browse_to_restaurant,
    checkout,
    open_dish,
    open_restaurant,
    order_dish,
    order_line,
    orderable,
    pick_line,
    place,
    restaurants,
    to_home,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import ANY, added, expect, removed


@register_task
class FoodSaveStore(Task):
    """Save a restaurant (the heart on its page): one ``food/favorites`` row is added.

    Fewer goals: the app lists eight restaurants, some already saved."""

    id = "FoodSaveStore"
    apps = ("food",)
    difficulty = "easy"
    tags = ("favorite",)
    optimal_steps = 6
    may_change = ("food/favorites",)
    params_schema = {"restaurant": str, "id": int}
    template = "Save {restaurant} to my saved stores in the Food app."
    paraphrases = {
        "train": ("Heart {restaurant} on Food so I can find it again.",
                  "Add {restaurant} to my favorite restaurants."),
        "test": ("I liked {restaurant}; keep it among the stores I've saved for delivery.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = {int(r["_id"]) for r in probe.query("food/favorites")}
        r = choice(rng, [r for r in probe.query("food/restaurants")
                         if int(r["_id"]) not in saved])
        return {"restaurant": str(r["name"]), "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("food/favorites", {"_id": self.params["id"]}))

    def _run(self, device: Device, name: str, browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_restaurant if browse else open_restaurant)(device, name)
        yield tap(device, desc="Save store", rid="favorite")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["restaurant"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the restaurant from the home feed's list instead of searching."""
        yield from self._run(device, self.params["restaurant"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves the restaurant listed next to it."""
        saved = {int(r["_id"]) for r in device.probe.query("food/favorites")}
        other = next(r["name"] for r in device.probe.query("food/restaurants")
                     if int(r["_id"]) not in saved and r["_id"] != self.params["id"])
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")


@register_task
class FoodAddToCart(Task):
    """Add a dish in a size with one extra, a given number of times: one ``food/cart`` line
    with exactly those choices."""

    id = "FoodAddToCart"
    apps = ("food",)
    difficulty = "medium"
    tags = ("options", "stepper")
    optimal_steps = 11
    may_change = ("food/cart",)
    params_schema = {"restaurant": str, "dish": str, "dish_id": int, "size": str, "extra": str,
                     "qty": int}
    template = "Add {qty} {size} {dish} with {extra} from {restaurant} to my Food cart."
    paraphrases = {
        "train": ("Put {qty} of the {dish} ({size}, add {extra}) from {restaurant} in my "
                  "delivery cart.",
                  "In Food, open {restaurant} and add the {dish}: size {size}, extra "
                  "{extra}, quantity {qty}."),
        "test": ("I want {qty} {dish} from {restaurant}, {size}, each with {extra}. Get them "
                 "into the cart, don't check out yet.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = pick_line(rng, probe, qty=(1, 4))
        return p

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("food/cart", order_line(p["dish_id"], p["size"], p["extra"],
                                                         p["qty"])))

    def _run(self, device: Device, qty: int, browse: bool = False) -> Iterator[Action]:
        p = self.params
        yield from order_dish(device, p["dish"], p["restaurant"], p["size"], (p["extra"],), qty,
                              browse)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["qty"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the restaurant from the home feed and pick the dish off its menu, instead of
        searching the dish."""
        yield from self._run(device, self.params["qty"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One too many."""
        yield from self._run(device, self.params["qty"] + 1)
        yield Action("status", goal_status="complete")


@register_task
class FoodRemoveFromCart(Task):
    """Take one dish out of a cart that setup filled with two: its ``food/cart`` line is
    removed, the other stays."""

    id = "FoodRemoveFromCart"
    apps = ("food",)
    difficulty = "easy"
    tags = ("cart", "fixture")
    optimal_steps = 4
    may_change = ("food/cart",)
    params_schema = {"restaurant": str, "dish": str, "other": str}
    template = "Remove the {dish} from my Food cart."
    paraphrases = {
        "train": ("Take the {dish} out of my delivery cart.",),
        "test": ("I changed my mind about the {dish}; drop it from what's in my Food cart.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = choice(rng, orderable(probe))
        rid = int(d["restaurant_id"])
        other = choice(rng, [x for x in orderable(probe)
                             if int(x["restaurant_id"]) == rid and x["_id"] != d["_id"]])
        return {"restaurant": str(restaurants(probe)[rid]["name"]), "dish": str(d["name"]),
                "other": str(other["name"])}

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("food", "add_to_cart", name=p["dish"], qty=1)
        device.fixture("food", "add_to_cart", name=p["other"], qty=2)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        line = next(r["_id"] for r in self.before("food/cart") if r["name"] == self.params["dish"])
        return self.expect(removed("food/cart", line))

    def _run(self, device: Device, dish: str) -> Iterator[Action]:
        yield from to_home(device)
        yield tap(device, rid="view_cart")
        yield tap(device, desc=f"Remove {dish}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["dish"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Lowers the other dish's quantity instead."""
        yield from to_home(device)
        yield tap(device, rid="view_cart")
        yield tap(device, desc=f"Decrease {self.params['other']}")
        yield Action("status", goal_status="complete")


@register_task
class FoodPlaceOrder(Task):
    """Order a dish in a size and quantity for delivery to home or work with a tip and a
    card: one ``food/orders`` row (that restaurant, address, tip, card, status Preparing)
    and its one ``food/order_items`` line; the cart ends empty as it began."""

    id = "FoodPlaceOrder"
    apps = ("food",)
    difficulty = "hard"
    tags = ("options", "checkout", "payment")
    optimal_steps = 14
    may_change = ("food/orders", "food/order_items")
    params_schema = {"restaurant": str, "dish": str, "dish_id": int, "size": str, "extra": str,
                     "qty": int, "address": str, "tip": float, "card": str}
    template = ("Order {qty} {size} {dish} from {restaurant} on Food, delivered to {address}, "
                "with a ${tip:.0f} tip, paid with my {card}.")
    paraphrases = {
        "train": ("Get {qty} {dish} ({size}) delivered from {restaurant} to my {address} "
                  "address. Tip ${tip:.0f} and pay by {card}.",
                  "Food delivery: {restaurant}, {qty}x {dish} in {size}, to {address}; "
                  "${tip:.0f} Dasher tip; {card}."),
        "test": ("I'd like {qty} {size} {dish} from {restaurant} sent to my {address}. Leave "
                 "the driver ${tip:.0f} and charge my {card}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = pick_line(rng, probe, qty=(1, 3), with_extra=False)
        return {**p, "address": ADDRESSES[int(rng.integers(2))],
                "tip": float(TIPS[int(rng.integers(len(TIPS)))]),
                "card": ("Visa", "Mastercard")[int(rng.integers(2))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        rid = next(int(r["_id"]) for r in self.before("food/restaurants")
                   if r["name"] == p["restaurant"])
        return self.expect(
            added("food/orders", {"restaurant_id": rid, "address_label": p["address"],
                                  "tip": p["tip"], "status": "Preparing",
                                  "payment": lambda v: str(v).startswith(p["card"])}),
            added("food/order_items", order_line(p["dish_id"], p["size"], "", p["qty"])))

    def _run(self, device: Device, address: str, browse: bool = False) -> Iterator[Action]:
        p = self.params
        yield from order_dish(device, p["dish"], p["restaurant"], p["size"], (), p["qty"], browse)
        yield from checkout(device, address=address, tip=p["tip"], card=p["card"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["address"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the restaurant from the home feed and pick the dish off its menu, instead of
        searching the dish."""
        yield from self._run(device, self.params["address"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Delivered to the other address."""
        yield from self._run(device, "Work" if self.params["address"] == "Home" else "Home")
        yield Action("status", goal_status="complete")


@register_task
class FoodReorder(Task):
    """Reorder the last order from a restaurant, delivered to work: one new order from that
    restaurant (default tip) whose lines repeat the old one's dishes, sizes, extras and
    quantities.

    Fewer goals: a goal names one of the restaurants the owner has ordered from (of eight),
    none of whose dishes is sold out today."""

    id = "FoodReorder"
    apps = ("food",)
    difficulty = "medium"
    tags = ("history", "checkout")
    split = "test"
    optimal_steps = 8
    may_change = ("food/orders", "food/order_items")
    params_schema = {"restaurant": str, "order_id": int}
    template = "Reorder my last {restaurant} order on Food and have it delivered to work."
    constraints = (("work", "office"),)
    paraphrases = {
        "test": ("Same again from {restaurant}, please: repeat my previous order there, "
                 "sent to my office.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        sold = {int(d["_id"]) for d in probe.query("food/menu") if d["sold_out"]}
        items = probe.query("food/order_items")
        ok = [o for o in probe.query("food/orders") if o["status"] == "Delivered"
              and not any(int(i["dish_id"]) in sold for i in items
                          if i["order_id"] == o["_id"])]
        o = choice(rng, ok)
        return {"restaurant": str(o["restaurant"]), "order_id": int(o["_id"])}

    def _lines(self) -> list[dict[str, Any]]:
        return [order_line(int(i["dish_id"]), i["size"], i["extras"], int(i["quantity"]))
                for i in self.before("food/order_items")
                if i["order_id"] == self.params["order_id"]]

    def evaluate(self, device: Device, report: AgentReport) -> float:
        rid = next(int(o["restaurant_id"]) for o in self.before("food/orders")
                   if o["_id"] == self.params["order_id"])
        return self.expect(
            added("food/orders", {"restaurant_id": rid, "address_label": "Work",
                                  "tip": DEFAULT_TIP, "status": "Preparing"}),
            expect("food/order_items", added=self._lines()))

    def _run(self, device: Device, address: str) -> Iterator[Action]:
        name = self.params["restaurant"]
        yield from to_home(device)
        yield tap(device, desc="Orders", rid="nav_orders")
        yield from scroll_to(device, desc=f"{name}, ", rid="order_row", contains=True)
        yield tap(device, desc=f"{name}, ", rid="order_row", contains=True)
        yield from scroll_to(device, rid="reorder")
        yield tap(device, rid="reorder")
        yield tap(device, rid="checkout")
        if address != "Home":
            yield tap(device, desc=address, rid="address_option")
        yield from place(device)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, "Work")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Reorders to the default address, home."""
        yield from self._run(device, "Home")
        yield Action("status", goal_status="complete")


@register_task
class FoodSoldOut(Task):
    """Infeasible by design: the dish is sold out today at its restaurant (the menu greys
    it out and it cannot be added); the right move is to look and say so."""

    id = "FoodSoldOut"
    apps = ("food",)
    difficulty = "medium"
    tags = ("infeasible", "sold-out")
    optimal_steps = 6
    feasible = False
    params_schema = {"restaurant": str, "dish": str}
    template = "Order one {dish} from {restaurant} on Food, delivered to my home."
    paraphrases = {
        "train": ("Get me a {dish} from {restaurant} delivered home.",),
        "test": ("Craving the {dish} at {restaurant}; have one brought to my place.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = choice(rng, [d for d in probe.query("food/menu") if d["sold_out"]])
        return {"restaurant": str(restaurants(probe)[int(d["restaurant_id"])]["name"]),
                "dish": str(d["name"])}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_restaurant(device, self.params["restaurant"])
        yield from scroll_to(device, desc=f"{self.params['dish']}, sold out", rid="dish_row")
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the restaurant from the home feed's list instead of searching."""
        yield from browse_to_restaurant(device, self.params["restaurant"])
        yield from scroll_to(device, desc=f"{self.params['dish']}, sold out", rid="dish_row")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Orders another dish of the restaurant instead and claims success."""
        p = self.params
        other = next(d["name"] for d in orderable(device.probe)
                     if restaurants(device.probe)[int(d["restaurant_id"])]["name"]
                     == p["restaurant"])
        yield from open_restaurant(device, p["restaurant"])
        yield from open_dish(device, other)
        yield tap(device, rid="add_to_cart")
        yield from checkout(device)
        yield Action("status", goal_status="complete")


@register_task
class FoodClosedNow(Task):
    """Infeasible by design: the restaurant is closed until the evening and the app has no
    way to order ahead, so nothing can be delivered from it now; the right move is to look
    and say so."""

    id = "FoodClosedNow"
    apps = ("food",)
    difficulty = "easy"
    tags = ("infeasible", "closed")
    optimal_steps = 7
    feasible = False
    params_schema = {"restaurant": str, "dish": str}
    template = "Order a {dish} from {restaurant} on Food for delivery right now."
    paraphrases = {
        "train": ("I want {restaurant}'s {dish} delivered as soon as possible.",),
        "test": ("Right now I could go for the {dish} from {restaurant}. Have it brought "
                 "over straight away.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        closed = next(r for r in probe.query("food/restaurants") if not r["is_open"])
        d = choice(rng, [d for d in probe.query("food/menu")
                         if d["restaurant_id"] == closed["_id"]])
        return {"restaurant": str(closed["name"]), "dish": str(d["name"])}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_restaurant(device, self.params["restaurant"])
        yield from open_dish(device, self.params["dish"])  # "... is closed. Opens at 5:00 PM"
        yield Action("status", goal_status="infeasible")


@register_task
class FoodOrderNow(Task):
    """The feasible twin of :class:`FoodClosedNow`: its very wordings ("for delivery right
    now", "as soon as possible", "brought over straight away") for a restaurant that is
    open, so one of the dish is ordered (any size, address, tip and card: the goal names
    none). Without a twin those words were in no feasible goal, and ``status infeasible``
    on sight of them won the closed restaurant blind; which one it is shows only in the
    app."""

    id = "FoodOrderNow"
    apps = ("food",)
    difficulty = "medium"
    tags = ("checkout",)
    optimal_steps = 12
    may_change = ("food/orders", "food/order_items")
    params_schema = {"restaurant": str, "dish": str, "dish_id": int, "size": str}
    template = FoodClosedNow.template
    paraphrases = FoodClosedNow.paraphrases

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = pick_line(rng, probe, qty=(1, 1), with_extra=False)
        return {k: p[k] for k in cls.params_schema}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        rid = next(int(r["_id"]) for r in self.before("food/restaurants")
                   if r["name"] == p["restaurant"])
        return self.expect(
            added("food/orders", {"restaurant_id": rid, "address_label": ANY, "tip": ANY,
                                  "status": "Preparing"}),
            added("food/order_items", {"dish_id": p["dish_id"], "size": ANY, "extras": "",
                                       "quantity": 1}))

    def _run(self, device: Device, qty: int) -> Iterator[Action]:
        p = self.params
        yield from order_dish(device, p["dish"], p["restaurant"], p["size"], (), qty)
        yield from checkout(device)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 1)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Two of the dish, not one."""
        yield from self._run(device, 2)
        yield Action("status", goal_status="complete")
