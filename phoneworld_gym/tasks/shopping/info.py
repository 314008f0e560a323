"""Shopping information-retrieval tasks: the agent answers from what it reads.

Expected answers come from the start state: ``self.before(...)`` of the shopper's tables, and
the ``shopping/products`` rows, which never change within an episode (the probe serves them
but the start snapshot leaves them out). Answers that hedge, negate or list several
candidates score 0 (see :mod:`phoneworld_gym.matchers`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import DateMatch, ListMatch, NumberMatch, StringMatch
from phoneworld_gym.oracle import OracleError, elements, find, scroll_to, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import (
    CART,
    ORDERS,
    SHOP,
    browse_to_product,
    open_order,
    open_orders,
    open_product,
    open_tab,
    orders_per_product,
    pick_product,
    products_by_id,
    seed_cart,
    seed_cart_params,
)

#: every status an order can have, as the app writes it
STATUSES = ("Processing", "Shipped", "Delivered", "Cancelled", "Return requested")
#: the statuses of an order that has not arrived yet
OPEN = ("Processing", "Shipped")


def money(x: float) -> str:
    """"$1,234.50", as the shop prints prices."""
    return f"${x:,.2f}"


def order_row(rows: list[Row], order_id: str) -> Row:
    """The ``shopping/orders`` row ``order_id`` (``KeyError`` when there is none)."""
    for o in rows:
        if o["_id"] == order_id:
            return o
    raise KeyError(f"no order {order_id!r}")


def _status_word(line: str) -> str:
    """The status at the start of an order's status line ("Delivered Mon, Mar 2")."""
    for s in sorted(STATUSES, key=len, reverse=True):
        if line.startswith(s):
            return s
    raise OracleError(f"no status in {line!r}")


@register_task
class ShoppingPriceOf(Task):
    """Read a product's price (its current price, not the struck-through "was" price of a
    deal)."""

    id = "ShoppingPriceOf"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    answer_matcher = NumberMatch(tol=0.005)
    params_schema = {"name": str, "product_id": str}
    template = "How much does {name} cost right now?"
    paraphrases = {
        "train": (
            "What's the current price of {name}?",
            "How much is {name} right now?",
        ),
        "test": (
            "Can you look up what {name} costs at the moment?",
            "I'm thinking of buying {name}. What does it cost right now?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = pick_product(rng, probe)
        return {"name": p["name"], "product_id": p["_id"]}

    def expected_answer(self, device: Device) -> Any:
        return products_by_id(device.probe)[self.params["product_id"]]["price"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_product(device, self.params["name"])
        yield Action("answer", text=text_of(device, rid="price") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the product through the Categories tab instead of searching."""
        yield from browse_to_product(device, self.params["name"])
        yield Action("answer", text=text_of(device, rid="price") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The list price on deals, else a dollar more."""
        p = products_by_id(device.probe)[self.params["product_id"]]
        wrong = p["list_price"] if p["list_price"] else round(p["price"] + 1, 2)
        yield Action("answer", text=money(wrong))


@register_task
class ShoppingOrderStatus(Task):
    """Read an order's status; an answer naming any other status as well scores 0. The
    status is drawn first (among those the orders have), then an order with it: most orders
    are delivered, so "Delivered" won blind when the order was drawn directly."""

    id = "ShoppingOrderStatus"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "easy"
    split = "test"
    optimal_steps = 5
    answer_matcher = StringMatch(contains=True, candidates=STATUSES)
    params_schema = {"order_id": str}
    template = "What state is my order {order_id} in?"
    paraphrases = {
        "test": (
            "Can you check on my order {order_id} and tell me where it stands?",
            "What stage is my order {order_id} at right now?",
            "Tell me the current state of order {order_id}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        orders = probe.query(ORDERS)
        status = choice(rng, sorted({o["status"] for o in orders}))
        return {"order_id": choice(rng, [o for o in orders if o["status"] == status])["_id"]}

    def expected_answer(self, device: Device) -> Any:
        return order_row(self.before(ORDERS), self.params["order_id"])["status"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield Action("answer", text=_status_word(text_of(device, rid="order_status") or ""))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another status."""
        right = self.expected_answer(device)
        yield Action("answer", text=next(s for s in ("Shipped", "Delivered") if s != right))


@register_task
class ShoppingCartCount(Task):
    """Count the items in the cart (quantities included). Setup adds zero to three new
    lines (a drawn number, one or two of each): the seeded carts alone held two items on
    40% of the seeds.

    Fewer goals: the template has no params to fill; the count varies with the seed."""

    id = "ShoppingCartCount"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 3
    answer_matcher = NumberMatch()
    template = "How many items are in my shopping cart?"
    paraphrases = {
        "train": (
            "How many items do I have in my cart?",
            "Tell me how many items are in my shopping cart.",
        ),
        "test": (
            "Could you check my shopping cart and tell me how many items are in it?",
            "What's the total number of items in my basket right now?",
        ),
    }
    params_schema = {"seed_cart": list}

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        want = len(probe.query(CART)) + int(rng.integers(0, 4))
        return {"seed_cart": seed_cart_params(rng, probe, want=want)}

    def setup(self, device: Device) -> None:
        seed_cart(device, self.params["seed_cart"])

    def expected_answer(self, device: Device) -> Any:
        return sum(int(line["qty"]) for line in self.before(CART))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_tab(device, "cart")
        n = 0
        for e in elements(device):
            m = re.fullmatch(r"Subtotal \((\d+) items?\)", e.text or "")
            if m:
                n = int(m.group(1))
        yield Action("answer", text=str(n))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Off by one."""
        yield Action("answer", text=str(self.expected_answer(device) + 1))


@register_task
class ShoppingOrderDate(Task):
    """Find when a product was ordered (it is the first item of its order, and in no other
    order)."""

    id = "ShoppingOrderDate"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 4
    answer_matcher = DateMatch()
    params_schema = {"name": str, "product_id": str, "order_id": str}
    template = "On what date did I order {name}?"
    paraphrases = {
        "train": (
            "What date did I order {name} on?",
            "When did I place the order for {name}? I need the date.",
        ),
        "test": (
            "Could you check my past orders and tell me the date I bought {name}?",
            "I'm trying to remember when I purchased {name}. What was the order date?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        orders = probe.query(ORDERS)
        count = orders_per_product(orders)
        o = choice(rng, [o for o in orders if count[o["items"][0]["product_id"]] == 1])
        first = o["items"][0]
        return {"name": first["name"], "product_id": first["product_id"], "order_id": o["_id"]}

    def expected_answer(self, device: Device) -> Any:
        o = order_row(self.before(ORDERS), self.params["order_id"])
        return dt.date.fromisoformat(o["date"][:10])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_orders(device)
        name = self.params["name"]
        yield from scroll_to(device, text=name, rid="order_items", contains=True)
        i = find(device, text=name, rid="order_items", contains=True)
        if i is None:
            raise OracleError(f"no order of {name!r} on screen")
        els = elements(device)
        line = next(e.text for e in els[i:] if (e.resource_id or "").endswith("/order_id"))
        yield Action("answer", text=(line or "").split(" · ")[1])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The day before."""
        yield Action("answer", text=(self.expected_answer(device)
                                     - dt.timedelta(days=1)).isoformat())


@register_task
class ShoppingOpenOrders(Task):
    """List the orders that have not arrived yet (Processing or Shipped); a missing or an
    extra order number scores 0."""

    id = "ShoppingOpenOrders"
    apps = (SHOP,)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 4
    answer_matcher = ListMatch()
    template = ("Which of my orders are still on their way (not delivered or cancelled yet)? "
                "Give me the order numbers.")
    paraphrases = {
        "train": (
            ("Give me the order numbers of all my orders that are still on their way (not yet "
             "delivered or cancelled)."),
            ("Which orders of mine haven't been delivered or cancelled yet? Tell me their order "
             "numbers."),
        ),
        "test": (
            ("I'm expecting some packages. What are the order numbers of all my orders that have "
             "been neither delivered nor cancelled yet?"),
            ("Could you list every order I'm still expecting (anything not delivered or "
             "cancelled)? Just the order numbers, please."),
        ),
    }

    def expected_answer(self, device: Device) -> Any:
        return [o["_id"] for o in self.before(ORDERS) if o["status"] in OPEN]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_orders(device)
        ids: list[str] = []
        status = ""
        for e in elements(device):
            rid = (e.resource_id or "").rsplit("/", 1)[-1]
            if rid == "order_status":
                status = _status_word(e.text or "")
            elif rid == "order_id" and status in OPEN:
                ids.append((e.text or "").split(" · ")[0])
        yield Action("answer", text=", ".join(ids))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Only the Processing one."""
        yield Action("answer", text=next(o["_id"] for o in self.before(ORDERS)
                                         if o["status"] == "Processing"))
