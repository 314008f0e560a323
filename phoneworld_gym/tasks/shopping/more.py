"""More Shopping tasks: reading a product's ratings count and an order's total, the default
address, paying with a chosen card, a colour the product does not come in, and the best-rated
product of a department in a typed price range.

Everything is read through the probe: the episode's seeded catalogue (``shopping/products``,
static within an episode, so read live) and the shopper's tables (``self.before(...)`` for the
start state); setup changes state only through Shopping's fixtures."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from heapq import nsmallest
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.life import CITIES, STREETS
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import (
    ACCOUNT,
    ADDRESSES,
    CART,
    ORDERS,
    PAYMENTS,
    SHOP,
    browse_to_product,
    choose_options,
    index_after,
    open_order,
    open_product,
    open_tab,
    orders_per_product,
    pick_product,
    products,
    products_by_id,
    seed_cart,
    seed_cart_params,
    tap_after,
)
from phoneworld_gym.validators import added
from phoneworld_gym.validators import expect as table_expect

#: the fields of a postal address, on address rows and on an order's ``address``
ADDRESS_FIELDS = ("name", "street", "city", "state", "zip")


def the(name: str) -> str:
    """"the Voltra Pro Earbuds", but "The Silent Harbor" for a book whose title has one."""
    return name if name.startswith("The ") else f"the {name}"


def money(x: float) -> str:
    """"$1,234.50", as the shop prints prices."""
    return f"${x:,.2f}"


def address_lines(a: Row) -> str:
    """An address on one line, as an address card prints it: "12 Oak Avenue, Austin, TX
    78701"."""
    return f"{a['street']}, {a['city']}, {a['state']} {a['zip']}"


# -- information retrieval -------------------------------------------------------------------
@register_task
class ShoppingRatingsCount(Task):
    """Read how many ratings a product has (the number in brackets next to its stars)."""

    id = "ShoppingRatingsCount"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 3
    answer_matcher = NumberMatch()
    params_schema = {"name": str, "the_name": str, "product_id": str}
    template = "How many customer ratings does {the_name} have?"
    paraphrases = {
        "train": (
            "What's the number of customer ratings for {the_name}?",
            "Tell me how many customer ratings {the_name} has.",
        ),
        "test": (
            "Could you check how many customer ratings there are for {the_name}?",
            ("I'm curious how many ratings {the_name} has received from customers. What's the "
             "count?"),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        # more ratings than written reviews on the page, so counting the reviews is wrong
        p = pick_product(rng, probe, lambda r: r["review_count"] > len(r["reviews"]))
        return {"name": p["name"], "the_name": the(p["name"]), "product_id": p["_id"]}

    def expected_answer(self, device: Device) -> Any:
        return products_by_id(device.probe)[self.params["product_id"]]["review_count"]

    def oracle(self, device: Device) -> Iterator[Action]:
        name = self.params["name"]
        yield from open_tab(device, "home")
        yield type_into(device, name, rid="search_bar")
        anchor = {"text": name, "rid": "product_name"}
        yield from scroll_to(device, **anchor)
        line = elements(device)[index_after(device, anchor, "rating")].text or ""
        m = re.search(r"\(([\d,]+)\)", line)
        if m is None:
            raise OracleError(f"no ratings count in {line!r}")
        yield Action("answer", text=m.group(1))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Counts the written reviews shown on the product page instead."""
        p = products_by_id(device.probe)[self.params["product_id"]]
        yield Action("answer", text=str(len(p["reviews"])))


@register_task
class ShoppingOrderTotalOfItem(Task):
    """Find the order that holds a product (usually not its first item, so it is hidden behind
    "and N more" in the list) and read that order's total."""

    id = "ShoppingOrderTotalOfItem"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "hard"
    tags = ("orders",)
    optimal_steps = 6
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"name": str, "the_name": str, "product_id": str, "order_id": str}
    template = "What was the total of the order I bought {the_name} in?"
    paraphrases = {
        "train": (
            "How much was the total of the order that included {the_name}?",
            "What did the order containing {the_name} come to in total?",
        ),
        "test": (
            "I bought {the_name} as part of an order. What was that order's total?",
            "Could you find the order with {the_name} in it and tell me the order total?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        orders = probe.query(ORDERS)
        count = orders_per_product(orders)
        fits = [(o, i) for o in orders if o["status"] != "Cancelled"
                for i, it in enumerate(o["items"]) if count[it["product_id"]] == 1]
        hidden = [(o, i) for o, i in fits if i > 0]
        o, i = choice(rng, hidden or fits)
        item = o["items"][i]
        return {"name": item["name"], "the_name": the(item["name"]),
                "product_id": item["product_id"], "order_id": o["_id"]}

    def expected_answer(self, device: Device) -> Any:
        return next(o["total"] for o in self.before(ORDERS)
                    if o["_id"] == self.params["order_id"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield from scroll_to(device, rid="order_total")
        yield Action("answer", text=text_of(device, rid="order_total") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The total of the next older order in the list, one with a different total."""
        want = self.expected_answer(device)
        orders = self.before(ORDERS)[::-1]  # newest first, as the list shows them
        i = next(k for k, o in enumerate(orders) if o["_id"] == self.params["order_id"])
        other = next((o["total"] for o in orders[i + 1:] + orders[:i]
                      if abs(o["total"] - want) > 0.01), want + 1)
        yield Action("answer", text=money(other))


# -- account ---------------------------------------------------------------------------------
EXTRA_LABELS = ("Parents", "Cabin", "Studio", "Beach house", "Grandma")


@register_task
class ShoppingSetDefaultAddress(Task):
    """Make one of three saved addresses the default: setup saves a third one (the
    ``add_address`` fixture) and the task names its target by label and street; the target
    row's ``is_default`` becomes 1, the old default's 0, and nothing else changes."""

    id = "ShoppingSetDefaultAddress"
    apps = (SHOP,)
    difficulty = "easy"
    tags = ("settings",)
    split = "test"
    optimal_steps = 5
    may_change = (ADDRESSES,)
    params_schema = {"new_address": dict, "label": str, "street": str, "lines": str,
                     "wrong_lines": str}
    template = "Make my {label} address ({street}) my default shipping address."
    paraphrases = {
        "test": (
            "Set my {label} address at {street} as my default shipping address.",
            "Could you change my default shipping address to the {label} one at {street}?",
            ("I want my packages to go to my {label} address, {street}, by default. Please make "
             "it my default shipping address."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = probe.query(ADDRESSES)
        taken = [a["street"] for a in saved]
        while True:
            street = f"{int(rng.integers(10, 999))} {choice(rng, STREETS)}"
            if not any(street in t or t in street for t in taken):
                break
        city, state, zipc = choice(rng, CITIES)
        labels = [x for x in EXTRA_LABELS if x not in {a["label"] for a in saved}]
        new = {"label": choice(rng, labels), "name": probe.query(ACCOUNT)[0]["name"],
               "street": street, "city": city, "state": state, "zip": zipc}
        every = [*saved, new]
        others = [a for a in every if not a.get("is_default")]
        # the street names the target: it must be the only address on that street
        target = choice(rng, [a for a in others
                              if sum(b["street"] == a["street"] for b in every) == 1])
        wrong = next(a for a in others if a is not target)
        return {"new_address": new, "label": target["label"], "street": target["street"],
                "lines": address_lines(target), "wrong_lines": address_lines(wrong)}

    def setup(self, device: Device) -> None:
        device.fixture(SHOP, "add_address", **self.params["new_address"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        rows = self.before(ADDRESSES)
        target = next(a for a in rows if a["street"] == self.params["street"])
        old = next(a for a in rows if a["is_default"])
        return self.expect(table_expect(ADDRESSES, changed={target["_id"]: {"is_default": 1},
                                                            old["_id"]: {"is_default": 0}}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._make_default(device, self.params["lines"])
        yield Action("status", goal_status="complete")

    def _make_default(self, device: Device, lines: str) -> Iterator[Action]:
        yield from open_tab(device, "account")
        yield tap(device, rid="your_addresses_title")
        yield from tap_after(device, {"text": lines, "rid": "address_lines"}, "set_default")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Makes the other non-default address the default."""
        yield from self._make_default(device, self.params["wrong_lines"])
        yield Action("status", goal_status="complete")


# -- checkout --------------------------------------------------------------------------------
@register_task
class ShoppingCheckoutWithCard(Task):
    """Check out the whole cart, paying with a saved card that is not the default: one new
    Processing order holds the cart's lines at their prices, ships Standard to the default
    address and is paid with that card; the cart is empty."""

    id = "ShoppingCheckoutWithCard"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("checkout",)
    optimal_steps = 6
    may_change = (ORDERS, CART)
    params_schema = {"seed_cart": list, "payment_label": str, "card": str, "last4": str}
    template = ("Check out everything in my cart with Standard delivery to my default address, "
                "and pay with my {card} ending in {last4}.")
    constraints = ("Standard delivery", "default address")
    paraphrases = {
        "train": (
            ("Order everything in my cart using Standard delivery to my default address, paying "
             "with my {card} ending in {last4}."),
            ("Please check out my cart: Standard delivery, my default address, and my {card} "
             "ending in {last4} as the payment."),
        ),
        "test": (
            ("Could you buy all the items in my cart? Pay with the {card} that ends in {last4}, "
             "ship to my default address, and pick Standard delivery."),
            ("I want to place an order for my entire cart with my {card} ending in {last4}. Send "
             "it to my default address with Standard delivery."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        lines = seed_cart_params(rng, probe, want=2)
        pm = choice(rng, [p for p in probe.query(PAYMENTS) if not p["is_default"]])
        return {"seed_cart": lines, "payment_label": pm["label"],
                "card": pm["label"].split()[0], "last4": pm["label"][-4:]}

    def setup(self, device: Device) -> None:
        seed_cart(device, self.params["seed_cart"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        cart = self.before(CART)
        home = next(a for a in self.before(ADDRESSES) if a["is_default"])
        order = {
            "status": "Processing", "delivery": "Standard",
            "payment": self.params["payment_label"],
            "address": {k: home[k] for k in ADDRESS_FIELDS},
            "items": [{"product_id": line["product_id"], "name": line["name"],
                       "options": line["options"], "qty": line["qty"], "price": line["price"],
                       "returned": 0} for line in cart],
        }
        return self.expect(added(ORDERS, order),
                           table_expect(CART, removed=[line["_id"] for line in cart]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._checkout(device, self.params["payment_label"])
        yield Action("status", goal_status="complete")

    def _checkout(self, device: Device, label: str | None) -> Iterator[Action]:
        yield from open_tab(device, "cart")
        yield tap(device, rid="checkout")
        if label is not None:
            yield from scroll_to(device, desc=label, rid="payment_option")
            yield tap(device, desc=label, rid="payment_option")
        yield tap(device, rid="place_order")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Places the order with the default card."""
        yield from self._checkout(device, None)
        yield Action("status", goal_status="complete")


# -- infeasible ------------------------------------------------------------------------------
@register_task
class ShoppingUnavailableColor(Task):
    """Infeasible by design: the product does not come in the colour asked for (a colour other
    products of the shop do come in)."""

    id = "ShoppingUnavailableColor"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("infeasible", "options")
    feasible = False
    optimal_steps = 4
    params_schema = {"name": str, "the_name": str, "product_id": str, "color": str}
    template = "Add {the_name} in {color} to my cart."
    paraphrases = {
        "train": (
            "Put {the_name} in my cart; I want it in {color}.",
            "Please add {the_name} to my cart, in the color {color}.",
        ),
        "test": (
            "I'd like {the_name} in {color}. Could you add it to my shopping cart?",
            "Could you add the {color} version of {the_name} to my basket?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        colors = sorted({c for r in products(probe) for c in r["options"].get("Color", [])})
        p = pick_product(rng, probe, lambda r: list(r["options"]) == ["Color"])
        color = choice(rng, [c for c in colors if c not in p["options"]["Color"]])
        return {"name": p["name"], "the_name": the(p["name"]), "product_id": p["_id"],
                "color": color}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_product(device, self.params["name"])
        yield from scroll_to(device, rid="option_color")
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the product through the Categories tab instead of searching."""
        yield from browse_to_product(device, self.params["name"])
        yield from scroll_to(device, rid="option_color")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds it in the first colour it does come in and claims success."""
        p = products_by_id(device.probe)[self.params["product_id"]]
        yield from open_product(device, p["name"])
        yield from choose_options(device, {"Color": p["options"]["Color"][0]})
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")


# -- filters and sort ------------------------------------------------------------------------
#: the widths of the price ranges a goal may name, in dollars
WIDTHS = (15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300)
#: the lowest ends a range may start at
LOWS = range(5, 600, 5)


def _by_rating(rows: list[Row]) -> list[Row]:
    """Best rated first, as the shop's "Avg. rating" sort lists them (ties: more reviews,
    then id)."""
    return sorted(rows, key=lambda r: (-r["rating"], -r["review_count"], r["_id"]))


def rated_departments(rows: list[Row]) -> list[tuple[str, list[Row]]]:
    """Each department but Books, by name, with its products best rated first."""
    by_cat: dict[str, list[Row]] = {}
    for r in rows:
        if r["category"] != "Books":
            by_cat.setdefault(r["category"], []).append(r)
    return [(c, _by_rating(ps)) for c, ps in sorted(by_cat.items())]


def range_candidates(rows: list[Row], in_cart: set[str]) -> list[tuple[str, int, int, str, str]]:
    """Every (category, lo, hi, top id, runner-up id) of this episode's catalogue ``rows``
    where the best-rated product priced in [lo, hi] makes a clear task: no product costs
    exactly lo or hi (no argument about whether "between" includes the ends), at least three
    products are in range, the top one is in stock, has no options, is not in the cart yet
    and is rated strictly higher than the in-stock runner-up, and it is not the department's
    best-rated product overall (so the filter matters). Books are left out."""
    out = []
    for c, ranked_all in rated_departments(rows):
        best = ranked_all[0]["_id"]
        # the products by price, each as its place in the rating order: the products in a
        # price range are a slice of it, and its two smallest places are the top two
        by_price = sorted(range(len(ranked_all)), key=lambda k: ranked_all[k]["price"])
        price_list = [ranked_all[k]["price"] for k in by_price]
        prices = set(price_list)
        for lo in LOWS:
            if lo in prices:
                continue
            i = bisect_left(price_list, lo)
            for wd in WIDTHS:
                hi = lo + wd
                if wd > max(lo, 20) * 1.5:
                    break  # WIDTHS ascend
                if hi in prices:
                    continue
                j = bisect_right(price_list, hi)
                if j - i < 3:
                    continue
                first, second = nsmallest(2, by_price[i:j])
                top, runner = ranked_all[first], ranked_all[second]
                if (top["in_stock"] and not top["options"] and top["_id"] not in in_cart
                        and top["rating"] > runner["rating"] and runner["in_stock"]
                        and top["_id"] != best):
                    out.append((c, lo, hi, top["_id"], runner["_id"]))
    return out


@register_task
class ShoppingBestRatedInRange(Task):
    """Type a price range into the price filter of a department, sort by rating and add the
    top result: the cart gains exactly one line, that product (no options) at quantity 1."""

    id = "ShoppingBestRatedInRange"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("filter", "sort", "form")
    split = "test"
    optimal_steps = 10
    may_change = (CART,)
    params_schema = {"category": str, "lo": int, "hi": int, "product_id": str,
                     "runner_id": str}
    template = ("Add the best-rated product in {category} that costs between ${lo} and ${hi} "
                "to my cart.")
    paraphrases = {
        "test": (
            ("In {category}, find the highest-rated product priced between ${lo} and ${hi} and "
             "put it in my cart."),
            ("Could you add the top-rated {category} item costing between ${lo} and ${hi} to my "
             "shopping cart?"),
            ("I want the best-rated thing in the {category} department that's between ${lo} and "
             "${hi}. Please add it to my cart."),
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        in_cart = {line["product_id"] for line in probe.query(CART)}
        c, lo, hi, top, runner = choice(rng, range_candidates(products(probe), in_cart))
        return {"category": c, "lo": lo, "hi": hi, "product_id": top, "runner_id": runner}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added(CART, {"product_id": self.params["product_id"],
                                        "options": {}, "qty": 1}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "home")
        yield tap(device, desc=self.params["category"], rid="category_tile")
        yield tap(device, rid="filter_price")
        yield type_into(device, str(self.params["lo"]), rid="min_price")
        yield type_into(device, str(self.params["hi"]), rid="max_price")  # enter applies
        yield tap(device, rid="sort")
        yield tap(device, desc="Avg. rating", rid="sort_option")
        yield from scroll_to(device, rid="product_name")
        yield tap(device, rid="product_name")
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds the runner-up of the filtered, sorted list."""
        p = products_by_id(device.probe)[self.params["runner_id"]]
        yield from open_product(device, p["name"])
        yield from choose_options(device, {k: v[0] for k, v in p["options"].items()})
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")
