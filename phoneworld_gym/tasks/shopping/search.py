"""Shopping tasks that need the result filters and sort: find the cheapest well-rated product
of a department and add it to the cart.

The catalogue is seeded (prices and ratings differ per episode), so the department, the
rating threshold and the answer are worked out from the episode's ``shopping/products`` rows.
"""

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
    choose_options,
    open_product,
    open_tab,
    products,
    products_by_id,
)
from phoneworld_gym.validators import added

#: the price limits a goal names: one of the first :data:`LIMIT_CHOICES` above the answer's price
LIMITS = (10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 1000, 2000, 5000)
LIMIT_CHOICES = 3
#: the rating filters of the results screen the goals use
STARS = (4, 3, 2)


def _by_price(rows: list[Row]) -> list[Row]:
    """Rows as the results list sorts them by "Price: low to high" (ties by id)."""
    return sorted(rows, key=lambda r: (r["price"], r["_id"]))


@register_task
class ShoppingCheapestRated(Task):
    """Filter a department by rating, sort by price and add the top result.

    Drawn among the (department, stars) pairs of the episode's catalogue where the top result
    is in stock, has no options and is not in the cart yet, costs strictly less than the
    runner-up, and differs from the department's cheapest product overall (so the rating
    filter matters; in the rare catalogue where no pair does, that last condition is
    dropped). The price limit is one of the first :data:`LIMIT_CHOICES` of :data:`LIMITS`
    above the answer's price, so it never changes the answer."""

    id = "ShoppingCheapestRated"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("filter", "sort")
    optimal_steps = 9
    may_change = (CART,)
    params_schema = {"category": str, "stars": int, "limit": int, "product_id": str,
                     "spare_id": str}
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
        rows = products(probe)
        in_cart = {r["product_id"] for r in probe.query(CART)}
        categories = sorted({r["category"] for r in rows})
        fits: list[tuple[str, int, Row, Row]] = []
        relaxed: list[tuple[str, int, Row, Row]] = []
        for c in categories:
            dept = _by_price([r for r in rows if r["category"] == c])
            for stars in STARS:
                ranked = [r for r in dept if r["rating"] >= stars]
                if len(ranked) < 2:
                    continue
                top, runner = ranked[0], ranked[1]
                # the top result can be added as is, beats the next one clearly, and the
                # rating filter changes the answer (a cheaper, worse-rated product exists)
                spare = next((r for r in ranked[1:] if r["in_stock"] == 1), None)
                if (top["in_stock"] == 1 and not top["options"] and runner["price"] > top["price"]
                        and spare is not None and top["_id"] not in in_cart):
                    (fits if dept[0]["_id"] != top["_id"] else relaxed).append(
                        (c, stars, top, spare))
        c, stars, top, spare = choice(rng, fits or relaxed)
        above = [x for x in LIMITS if x > top["price"]]
        limit = int(choice(rng, above[:LIMIT_CHOICES]))
        return {"category": c, "stars": stars, "limit": limit, "product_id": top["_id"],
                "spare_id": spare["_id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added(CART, {"product_id": self.params["product_id"],
                                        "options": {}}))

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
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds the runner-up (the next in-stock product of the filtered, sorted list)."""
        p = products_by_id(device.probe)[self.params["spare_id"]]
        yield from open_product(device, p["name"])
        yield from choose_options(device, {k: v[0] for k, v in p["options"].items()})
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")
