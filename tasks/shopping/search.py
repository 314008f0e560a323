"""Shopping tasks that need the result filters and sort: find the cheapest well-rated product
of a department and add it to the cart."""

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
    choose_options,
    open_product,
    open_tab,
)

LIMITS = (25, 50, 100, 200, 500, 2000)


def _ranked(category: str, min_rating: float) -> list[cat.Product]:
    return cat.search("", category=category, min_rating=min_rating, sort="price_asc")


@register_task
class ShoppingCheapestRated(Task):
    """Filter a department by rating, sort by price and add the top result."""

    id = "ShoppingCheapestRated"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("filter", "sort")
    optimal_steps = 9
    template = ("Add the cheapest item in {category} that is rated {stars} stars or higher and "
                "costs under ${limit} to my cart.")
    paraphrases = {
        "train": (
            ("Find the cheapest {category} item rated {stars} stars or higher that costs under "
             "${limit}, and add it to my cart."),
            ("Please add to my cart the lowest-priced item in {category} with a rating of {stars} "
             "stars or more and a price under ${limit}."),
        ),
        "test": (
            ("In {category}, what's the cheapest item with at least {stars} stars that's under "
             "${limit}? Put it in my cart."),
            ("I want the least expensive {category} product rated at least {stars} stars and "
             "priced below ${limit}. Could you add it to my basket?"),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        store = probe.app_store(SHOP)
        fits = []
        for c in cat.CATEGORY_NAMES:
            for stars in (4, 3):
                ranked = _ranked(c, float(stars))
                if len(ranked) < 2:
                    continue
                top, runner = ranked[0], ranked[1]
                # the top result can be added as is, beats the next one clearly, and the
                # rating filter changes the answer (a cheaper, worse-rated product exists)
                cheapest = cat.search("", category=c, sort="price_asc")[0]
                spare = next((p for p in ranked[1:] if p.in_stock), None)
                if (top.in_stock and not top.options and runner.price > top.price
                        and cheapest.id != top.id and spare is not None
                        and st.find_cart_item(store, top.id) is None):
                    fits.append((c, stars, top, spare))
        c, stars, top, spare = fits[int(rng.integers(len(fits)))]
        limit = next(x for x in LIMITS if x > top.price)
        return {"category": c, "stars": stars, "limit": limit, "product_id": top.id,
                "spare_id": spare.id}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before = self.store_before(SHOP)["cart"]
        after = device.probe.app_store(SHOP)["cart"]
        pid = self.params["product_id"]
        new = [it for it in after if it not in before]
        ok = (len(new) == 1 and new[0]["product_id"] == pid and new[0]["options"] == {}
              and len(after) == len(before) + 1
              and self.unchanged(device, allow={SHOP: {"cart"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "home")
        yield tap(device, desc=self.params["category"], rid="category_tile")
        yield tap(device, rid="filter_rating")
        yield tap(device, desc=f"{self.params['stars']} stars & up", rid="rating_option")
        yield tap(device, rid="sort")
        yield tap(device, desc="Price: low to high", rid="sort_option")
        yield from scroll_to(device, rid="product_name")
        yield tap(device, rid="product_name")
        yield tap(device, rid="add_to_cart")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds the runner-up (the next in-stock product of the filtered, sorted list)."""
        p = cat.product(self.params["spare_id"])
        yield from open_product(device, p.name)
        yield from choose_options(device, {k: v[0] for k, v in p.options.items()})
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")
