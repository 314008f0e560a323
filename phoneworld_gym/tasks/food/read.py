"""Food information-retrieval tasks: when the order on its way arrives, what a dish costs in a
size, and what the last order from a restaurant came to. Answers come from the start state's
rows; reading changes nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch, TimeMatch
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.food.common import (
    dish_price,
    find_dish,
    live_order,
    open_live_order,
    option_index,
    orderable,
    price_of,
    restaurants,
    split,
    to_home,
)
from phoneworld_gym.tasks.kit import choice


@register_task
class FoodOrderEta(Task):
    """Read when the order on its way arrives (its estimated arrival)."""

    id = "FoodOrderEta"
    apps = ("food",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("tracking",)
    optimal_steps = 3
    answer_matcher = TimeMatch()
    template = "When will the food I ordered arrive?"
    paraphrases = {
        "train": ("What time is my food delivery expected?",
                  "Check the Food app: when does my current order get here?"),
        "test": ("I'm hungry. Look up the estimated arrival of the delivery that's on its "
                 "way and tell me the time.",),
    }

    def expected_answer(self, device: Device) -> Any:
        return dt.datetime.fromisoformat(live_order(self.before("food/orders"))["eta"]).time()

    def _read(self, device: Device, from_shade: bool = False) -> Iterator[Action]:
        yield from open_live_order(device, from_shade)
        eta = text_of(device, rid="eta")
        if not eta:
            raise OracleError("the order shows no arrival time")
        yield Action("answer", text=eta)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the order from its delivery notification in the shade, not Food's Home."""
        yield from self._read(device, from_shade=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Ten minutes off (the restaurant's shortest time instead of its longest)."""
        eta = self.expected_answer(device)
        t = dt.datetime.combine(self.start_day(), eta) - dt.timedelta(minutes=10)
        yield Action("answer", text=f"{t.hour % 12 or 12}:{t.minute:02d} "
                                    f"{'PM' if t.hour >= 12 else 'AM'}")


@register_task
class FoodDishPrice(Task):
    """Read a dish's price in one size without extras (the options sheet shows it on its Add
    button)."""

    id = "FoodDishPrice"
    apps = ("food",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("options",)
    optimal_steps = 6
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"restaurant": str, "dish": str, "dish_id": int, "size": str}
    template = "How much is one {size} {dish} at {restaurant} on Food, without extras?"
    constraints = (("extras", "add nothing"),)
    paraphrases = {
        "train": ("What does a {size} {dish} cost at {restaurant}? No extras.",
                  "Look up the price of the {dish} in size {size} from {restaurant}, with no "
                  "extras."),
        "test": ("Before I order: tell me what {restaurant} charges for their {dish} when I "
                 "pick {size} and add nothing.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = choice(rng, orderable(probe, sized=True))
        return {"restaurant": str(restaurants(probe)[int(d["restaurant_id"])]["name"]),
                "dish": str(d["name"]), "dish_id": int(d["_id"]),
                "size": str(choice(rng, split(d["sizes"])))}

    def expected_answer(self, device: Device) -> Any:
        p = self.params
        return price_of(self.before("food/menu"), self.before("food/options"), p["dish_id"],
                        p["size"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from find_dish(device, self.params["dish"], self.params["restaurant"])
        yield from _pick_size(device, self.params["size"])
        label = text_of(device, rid="add_to_cart") or ""
        if "$" not in label:
            raise OracleError(f"no price on the Add button: {label!r}")
        yield Action("answer", text=label.rsplit("$", 1)[1])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The price of the dish's first size (a different size, so a different price)."""
        p = self.params
        sizes = [o for o in device.probe.query("food/options")
                 if o["dish_id"] == p["dish_id"] and o["kind"] == "size"]
        other = next(o["name"] for o in sizes if o["name"] != p["size"])
        yield Action("answer", text=f"${dish_price(device.probe, p['dish_id'], other):.2f}")


def _pick_size(device: Device, size: str) -> Iterator[Action]:
    i = option_index(device, "size_option", size)
    if not elements(device)[i].is_checked:
        yield Action("click", index=i)


@register_task
class FoodLastOrderTotal(Task):
    """Read what the last (delivered) order from a restaurant came to.

    Fewer goals: there are eight restaurants, and a goal names one of those the owner has
    ordered from."""

    id = "FoodLastOrderTotal"
    apps = ("food",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("history",)
    split = "test"
    optimal_steps = 4
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"restaurant": str, "order_id": int}
    template = "How much did my last Food order from {restaurant} cost in total?"
    paraphrases = {
        "test": ("Find my most recent delivery from {restaurant} in the order history and "
                 "tell me its total.",
                 "What was the bill, all fees and tip included, the last time I ordered "
                 "{restaurant}?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        past = [o for o in probe.query("food/orders") if o["status"] == "Delivered"]
        o = choice(rng, past)
        last = max((x for x in past if x["restaurant_id"] == o["restaurant_id"]),
                   key=lambda x: x["placed"])
        return {"restaurant": str(o["restaurant"]), "order_id": int(last["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return float(next(o["total"] for o in self.before("food/orders")
                          if o["_id"] == self.params["order_id"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_home(device)
        yield tap(device, desc="Orders", rid="nav_orders")
        name = self.params["restaurant"]
        yield from scroll_to(device, desc=f"{name}, ", rid="order_row", contains=True)
        yield tap(device, desc=f"{name}, ", rid="order_row", contains=True)
        yield from scroll_to(device, rid="order_total")
        total = text_of(device, rid="order_total")
        if not total:
            raise OracleError("the order shows no total")
        yield Action("answer", text=total)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The subtotal (before fees and tip)."""
        sub = next(o["subtotal"] for o in self.before("food/orders")
                   if o["_id"] == self.params["order_id"])
        yield Action("answer", text=f"${float(sub):.2f}")
