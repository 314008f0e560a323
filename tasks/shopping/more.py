"""More Shopping tasks: reading a product's ratings count and an order's total, the default
address, paying with a chosen card, a colour the product does not come in, and the best-rated
product of a department in a typed price range."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.shopping.common import (
    SHOP,
    apply_seed_cart,
    choice,
    choose_options,
    index_after,
    live_store,
    open_order,
    open_product,
    open_tab,
    orders_per_product,
    orders_same_except,
    pick_product,
    priced,
    seed_cart_params,
    tap_after,
)


def the(name: str) -> str:
    """"the Voltra Pro Earbuds", but "The Silent Harbor" for a book whose title has one."""
    return name if name.startswith("The ") else f"the {name}"


def _new_orders(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    old = {o["id"] for o in before["orders"]}
    return [o for o in after["orders"] if o["id"] not in old]


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
        p = pick_product(rng, lambda p: p.review_count > len(p.reviews))
        return {"name": p.name, "the_name": the(p.name), "product_id": p.id}

    def expected_answer(self, device: Device) -> Any:
        return cat.product(self.params["product_id"]).review_count

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
        yield Action("answer", text=str(len(cat.product(self.params["product_id"]).reviews)))


@register_task
class ShoppingOrderTotalOfItem(Task):
    """Find the order that holds a product (usually not its first item, so it is hidden behind
    "and N more" in the list) and read that order's total."""

    id = "ShoppingOrderTotalOfItem"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "hard"
    tags = ("orders",)
    optimal_steps = 5
    answer_matcher = NumberMatch(tol=0.005)
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
        orders = probe.app_store(SHOP)["orders"]
        count = orders_per_product(orders)
        fits = [(o, i) for o in orders if o["status"] != "Cancelled"
                for i, it in enumerate(o["items"]) if count[it["product_id"]] == 1]
        hidden = [(o, i) for o, i in fits if i > 0]
        o, i = choice(rng, hidden or fits)
        pid = o["items"][i]["product_id"]
        name = cat.product(pid).name
        return {"name": name, "the_name": the(name), "product_id": pid, "order_id": o["id"]}

    def expected_answer(self, device: Device) -> Any:
        o = st.find_order(self.store_before(SHOP), self.params["order_id"])
        assert o is not None
        return o["total"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield from scroll_to(device, rid="order_total")
        yield Action("answer", text=text_of(device, rid="order_total") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The total of the next order in the list, one with a different total."""
        want = self.expected_answer(device)
        orders = st.orders_newest_first(self.store_before(SHOP))
        i = next(k for k, o in enumerate(orders) if o["id"] == self.params["order_id"])
        other = next((o["total"] for o in orders[i + 1:] + orders[:i]
                      if abs(o["total"] - want) > 0.01), want + 1)
        yield Action("answer", text=cat.money(other))


# -- account ---------------------------------------------------------------------------------
EXTRA_LABELS = ("Parents", "Cabin", "Studio", "Beach house", "Grandma")


@register_task
class ShoppingSetDefaultAddress(Task):
    """Make one of three saved addresses the default (setup saves a third one)."""

    id = "ShoppingSetDefaultAddress"
    apps = (SHOP,)
    difficulty = "easy"
    tags = ("settings",)
    split = "test"
    optimal_steps = 5
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
        store = probe.app_store(SHOP)
        taken = {a["street"] for a in store["addresses"]}
        while True:
            street = f"{int(rng.integers(10, 999))} {choice(rng, st.STREETS)}"
            if street not in taken:
                break
        city, state, zipc = choice(rng, st.CITIES)
        extra = {"id": store["next_address_id"], "label": choice(rng, EXTRA_LABELS),
                 "name": store["user"]["name"], "street": street, "city": city,
                 "state": state, "zip": zipc}
        others = [a for a in store["addresses"] + [extra]
                  if a["id"] != store["default_address"]]
        target = choice(rng, others)
        wrong = next(a for a in others if a["id"] != target["id"])
        return {"seed_address": extra, "address_id": target["id"], "label": target["label"],
                "street": target["street"], "lines": st.address_lines(target),
                "wrong_lines": st.address_lines(wrong)}

    def setup(self, device: Device) -> None:
        a = dict(self.params["seed_address"])
        store = live_store(device)
        made = st.add_address(store, a["name"], a["street"], a["city"], a["state"], a["zip"],
                              label=a["label"])
        assert made["id"] == a["id"], (made, a)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        after = device.probe.app_store(SHOP)
        ok = (after["default_address"] == self.params["address_id"]
              and self.unchanged(device, allow={SHOP: {"default_address"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._make_default(device, self.params["lines"])

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
    """Check out the whole cart, paying with a saved card that is not the default."""

    id = "ShoppingCheckoutWithCard"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("checkout",)
    optimal_steps = 6
    template = ("Check out everything in my cart with Standard delivery to my default address, "
                "and pay with my {card} ending in {last4}.")
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
        store = probe.app_store(SHOP)
        extra = seed_cart_params(rng, store, want=2)
        pm = choice(rng, [p for p in store["payments"] if p["id"] != store["default_payment"]])
        return {"seed_cart": extra, "payment_id": pm["id"], "payment_label": pm["label"],
                "card": pm["label"].split()[0], "last4": pm["label"][-4:]}

    def setup(self, device: Device) -> None:
        apply_seed_cart(device, self.params["seed_cart"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before, after = self.store_before(SHOP), device.probe.app_store(SHOP)
        new = _new_orders(before, after)
        if len(new) != 1:
            return 0.0
        o = new[0]
        home = st.find_address(before, before["default_address"])
        assert home is not None
        ok = (o["items"] == priced(before["cart"]) and o["delivery"] == "Standard"
              and o["payment"] == self.params["payment_label"] and o["status"] == "Processing"
              and o["address"] == {k: home[k] for k in st.ADDRESS_FIELDS}
              and after["cart"] == []
              and orders_same_except(before["orders"], after["orders"])
              and self.unchanged(device, allow={SHOP: {"orders", "next_order", "cart"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._checkout(device, self.params["payment_label"])

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
    """Infeasible by design: the product does not come in the colour asked for."""

    id = "ShoppingUnavailableColor"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("infeasible", "options")
    feasible = False
    optimal_steps = 4
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
        p = pick_product(rng, lambda p: list(p.options) == ["Color"])
        color = choice(rng, [c for c in cat.COLORS if c not in p.options["Color"]])
        return {"name": p.name, "the_name": the(p.name), "product_id": p.id, "color": color}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_product(device, self.params["name"])
        yield from scroll_to(device, rid="option_color")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds it in the first colour it does come in and claims success."""
        p = cat.product(self.params["product_id"])
        yield from open_product(device, p.name)
        yield from choose_options(device, {"Color": p.options["Color"][0]})
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")


# -- filters and sort ------------------------------------------------------------------------
WIDTHS = (15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300)


def _range_fits(category: str, lo: int, hi: int) -> tuple[cat.Product, cat.Product] | None:
    """The best-rated product of ``category`` priced in [lo, hi] and the runner-up, when the
    range makes a clear, addable answer; else None."""
    ps = cat.in_category(category)
    if any(p.price in (lo, hi) for p in ps):
        return None  # no argument about whether "between" includes the ends
    ranked = cat.search("", category=category, min_price=lo, max_price=hi, sort="rating")
    if len(ranked) < 3:
        return None
    top, runner = ranked[0], ranked[1]
    best = cat.search("", category=category, sort="rating")[0]
    if (top.in_stock and not top.options and top.rating > runner.rating
            and best.id != top.id and runner.in_stock):
        return top, runner
    return None


@functools.lru_cache(maxsize=1)
def _range_candidates() -> tuple[tuple[str, int, int, str, str], ...]:
    """Every (category, lo, hi, top id, runner-up id) that makes a clear task (the catalogue
    is static, so this is computed once)."""
    out = []
    for c in cat.CATEGORY_NAMES:
        if c == "Books":
            continue
        for lo in range(5, 600, 5):
            for wd in WIDTHS:
                if wd > max(lo, 20) * 1.5:
                    continue
                got = _range_fits(c, lo, lo + wd)
                if got is not None:
                    out.append((c, lo, lo + wd, got[0].id, got[1].id))
    return tuple(out)


@register_task
class ShoppingBestRatedInRange(Task):
    """Type a price range into the price filter of a department, sort by rating and add the
    top result."""

    id = "ShoppingBestRatedInRange"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("filter", "sort", "form")
    split = "test"
    optimal_steps = 10
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
        store = probe.app_store(SHOP)
        fits = [f for f in _range_candidates() if st.find_cart_item(store, f[3]) is None]
        c, lo, hi, top, runner = choice(rng, fits)
        return {"category": c, "lo": lo, "hi": hi, "product_id": top, "runner_id": runner}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = self.store_before(SHOP)
        st.add_to_cart(want, self.params["product_id"], {}, 1)
        after = device.probe.app_store(SHOP)
        ok = after["cart"] == want["cart"] and self.unchanged(device, allow={SHOP: {"cart"}})
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "home")
        yield tap(device, desc=self.params["category"], rid="category_tile")
        yield tap(device, rid="filter_price")
        yield type_into(device, str(self.params["lo"]), rid="min_price")
        yield type_into(device, str(self.params["hi"]), rid="max_price")  # enter applies
        yield tap(device, rid="sort")
        yield tap(device, desc=cat.SORT_LABELS["rating"], rid="sort_option")
        yield from scroll_to(device, rid="product_name")
        yield tap(device, rid="product_name")
        yield tap(device, rid="add_to_cart")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds the runner-up of the filtered, sorted list."""
        p = cat.product(self.params["runner_id"])
        yield from open_product(device, p.name)
        yield from choose_options(device, {k: v[0] for k, v in p.options.items()})
        yield tap(device, rid="add_to_cart")
        yield Action("status", goal_status="complete")
