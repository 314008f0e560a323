"""Shared pieces of the Shopping tasks: reading the seeded catalogue and the shopper's tables
through the probe, picking products, seeding the cart at setup, and the usual UI paths (home,
a tab, a product, an order).

Tasks never see Shopping's store or catalogue code. Everything they know comes from the
tables the probe serves (see :data:`PRODUCTS` and friends) and every change they make at
setup goes through the app's fixtures (:func:`seed_cart`). The catalogue is seeded: prices,
stock and ratings differ from episode to episode, so params are drawn from
:func:`products` of the episode's own phone, never from a fixed list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, elements, find, scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import choice, open_root

SHOP = "shopping"
TABS = ("home", "categories", "cart", "account")

#: the Shopping tables (see ``probe.query``); products is static within an episode
PRODUCTS = "shopping/products"
CART = "shopping/cart"
WISHLIST = "shopping/wishlist"
ORDERS = "shopping/orders"
ADDRESSES = "shopping/addresses"
PAYMENTS = "shopping/payments"
ACCOUNT = "shopping/account"


# -- state (read through the probe) ----------------------------------------------------------
def products(probe: Probe) -> list[Row]:
    """Every product of this episode's catalogue (``shopping/products`` rows, in id order):
    ``_id`` ("P0001"), ``name``, ``brand``, ``category``, ``price``, ``list_price``,
    ``rating``, ``review_count``, ``in_stock`` (0/1), ``options`` ({name: [values]}),
    ``description``, ``reviews``."""
    return probe.query(PRODUCTS)


def products_by_id(probe: Probe) -> dict[str, Row]:
    """:func:`products` keyed by product id."""
    return {row["_id"]: row for row in products(probe)}


def pick_product(rng: np.random.Generator, probe: Probe,
                 where: Callable[[Row], bool] = lambda row: True) -> Row:
    """A random in-stock product row (``row["in_stock"] == 1``) of this episode's catalogue,
    optionally one that satisfies ``where(row)``."""
    return choice(rng, [row for row in products(probe)  # type: ignore[no-any-return]
                        if row["in_stock"] == 1 and where(row)])


def random_options(rng: np.random.Generator, row: Row) -> dict[str, str]:
    """One value for each of a product row's options (``{}`` for a product without)."""
    return {name: str(choice(rng, list(values))) for name, values in row["options"].items()}


def seed_cart_params(rng: np.random.Generator, probe: Probe,
                     want: int = 2) -> list[dict[str, Any]]:
    """Cart lines to add at setup (with :func:`seed_cart`) so that the cart holds at least
    ``want`` lines: each ``{"product_id", "options", "qty"}`` for an in-stock product that is
    in the cart on no line yet (so each adds a line of its own, at the end of the cart), with
    random options and a quantity of 1 or 2. Empty when the cart is already full enough."""
    cart = probe.query(CART)
    have = {row["product_id"] for row in cart}
    extra: list[dict[str, Any]] = []
    while len(cart) + len(extra) < want:
        row = pick_product(rng, probe, lambda r: r["_id"] not in have)
        have.add(row["_id"])
        extra.append({"product_id": row["_id"], "options": random_options(rng, row),
                      "qty": int(rng.integers(1, 3))})
    return extra


def seed_cart(device: Device, lines: list[dict[str, Any]]) -> None:
    """Put ``lines`` (from :func:`seed_cart_params`) in the cart through the app's
    ``add_to_cart`` fixture; nothing happens for no lines."""
    if lines:
        device.fixture(SHOP, "add_to_cart", lines=[dict(line) for line in lines])


def cart_lines_after_seed(probe: Probe, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What :func:`generate_params <phoneworld_gym.task.Task.generate_params>` can know of the
    cart once :func:`seed_cart` has added ``lines`` (from :func:`seed_cart_params`, so each is
    a new line at the end): ``{"product_id", "name", "options", "qty"}`` per line, in cart
    order."""
    names = {row["_id"]: row["name"] for row in products(probe)}
    out = [{"product_id": r["product_id"], "name": r["name"], "options": dict(r["options"]),
            "qty": int(r["qty"])} for r in probe.query(CART)]
    out += [{"product_id": line["product_id"], "name": names[line["product_id"]],
             "options": dict(line["options"]), "qty": int(line["qty"])} for line in lines]
    return out


def shifted_positions(rows: Iterable[Row], gone: Iterable[Any]) -> dict[Any, dict[str, int]]:
    """For a table whose rows carry a 0-based ``position`` (``shopping/cart``,
    ``shopping/wishlist``): how the rows left move up once the rows ``gone`` (ids) are
    removed, as ``{row_id: {"position": new}}`` for each row whose position changes; ready for
    ``expect(table, removed=gone, changed=...)``."""
    drop = set(gone)
    out: dict[Any, dict[str, int]] = {}
    new = 0
    for row in sorted(rows, key=lambda r: r["position"]):
        if row["_id"] in drop:
            continue
        if row["position"] != new:
            out[row["_id"]] = {"position": new}
        new += 1
    return out


def orders_per_product(orders: list[dict[str, Any]]) -> dict[str, int]:
    """How many orders hold each product id (a line per order counts once per line); takes
    ``shopping/orders`` rows."""
    count: dict[str, int] = {}
    for o in orders:
        for it in o["items"]:
            count[it["product_id"]] = count.get(it["product_id"], 0) + 1
    return count


# -- UI paths ----------------------------------------------------------------------------
def open_tab(device: Device, tab: str) -> Iterator[Action]:
    """From anywhere: open Shopping and switch to a bottom-navigation tab (its root)."""
    assert tab in TABS, tab
    yield from open_root(device, "Shopping", lambda d: tab == "home" and find(
        d, rid="home_feed") is not None and find(d, rid="search_bar") is not None, tries=8,
        tab=f"nav_{tab}", package="com.phoneworld.shopping",
        fail=f"could not reach the {tab} tab")


def open_product(device: Device, name: str) -> Iterator[Action]:
    """Search the product's name from Home and open its page."""
    yield from open_tab(device, "home")
    yield type_into(device, name, rid="search_bar")
    yield from scroll_to(device, text=name, rid="product_name")
    yield tap(device, text=name, rid="product_name")


def open_cart_from_bar(device: Device) -> Iterator[Action]:
    """The second path to the cart: Home's app-bar cart icon, not the bottom navigation."""
    yield from open_tab(device, "home")
    yield tap(device, rid="action_cart")


def browse_to_product(device: Device, name: str) -> Iterator[Action]:
    """The second path to a product page: the Categories tab, the product's department, then
    down its listing to the product (no search)."""
    department = next(r["category"] for r in products(device.probe) if r["name"] == name)
    yield from open_tab(device, "categories")
    yield from scroll_to(device, text=department, rid="category_row_title")
    yield tap(device, text=department, rid="category_row_title")
    yield from scroll_to(device, text=name, rid="product_name")
    yield tap(device, text=name, rid="product_name")


def open_orders(device: Device) -> Iterator[Action]:
    """From anywhere: the Your orders list (Account tab)."""
    yield from open_tab(device, "account")
    yield tap(device, rid="your_orders_title")


def open_order(device: Device, order_id: str) -> Iterator[Action]:
    """From anywhere: the page of one order (by its id, "ORD-10234")."""
    yield from open_orders(device)
    yield from scroll_to(device, text=order_id, rid="order_id", contains=True)
    yield tap(device, text=order_id, rid="order_id", contains=True)


def open_wishlist(device: Device) -> Iterator[Action]:
    """From anywhere: the wishlist (Account tab)."""
    yield from open_tab(device, "account")
    yield tap(device, rid="your_wishlist_title")


def choose_options(device: Device, options: dict[str, str]) -> Iterator[Action]:
    """Tap the option chips on a product page."""
    for name, value in options.items():
        rid = f"option_{name.lower()}"
        yield from scroll_to(device, text=value, rid=rid)
        yield tap(device, text=value, rid=rid)


def set_page_qty(device: Device, qty: int) -> Iterator[Action]:
    """Raise the quantity stepper on a product page from 1 to ``qty``."""
    if qty > 1:
        yield from scroll_to(device, rid="qty_plus")
    for _ in range(qty - 1):
        yield tap(device, rid="qty_plus")


def index_after(device: Device, anchor: dict[str, Any], rid: str) -> int:
    """Index of the first element with ``rid`` after the element matching ``anchor`` (the
    buttons of a list row follow its title)."""
    start = find(device, **anchor)
    if start is None:
        raise OracleError(f"no {anchor} on screen")
    for i, e in enumerate(elements(device)):
        if i > start and (e.resource_id or "").endswith(f"/{rid}"):
            return i
    raise OracleError(f"no {rid} after {anchor}")


def tap_after(device: Device, anchor: dict[str, Any], rid: str) -> Iterator[Action]:
    """Scroll until the row's button (``rid`` after ``anchor``) is on screen, then tap it."""
    yield from scroll_to(device, **anchor)
    for _ in range(3):
        try:
            i = index_after(device, anchor, rid)
        except OracleError:
            i = -1
        b = elements(device)[i].bbox_pixels if i >= 0 else None
        if b is not None and b.height >= 100:
            yield Action("click", index=i)
            return
        before = device.a11y_xml()
        yield Action("scroll", direction="down")
        if device.a11y_xml() == before:
            break
    raise OracleError(f"could not show {rid} after {anchor}")

