"""Shared pieces of the Shopping tasks: store access for setup, picking products, and the usual
UI paths (home, a tab, a product, an order)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device
from phoneworld_gym.oracle import OracleError, elements, find, scroll_to, tap, type_into

SHOP = "shopping"
TABS = ("home", "categories", "cart", "account")


# -- state -------------------------------------------------------------------------------
def live_store(device: Device) -> dict[str, Any]:
    """The Shopping store itself, for ``setup`` (PhoneWorld only)."""
    world = getattr(device, "world", None)
    if world is None:
        raise RuntimeError("Shopping tasks need a PhoneWorld device")
    store: dict[str, Any] = world.stores[SHOP]
    return store


def choice(rng: np.random.Generator, seq: list[Any] | tuple[Any, ...]) -> Any:
    if not seq:
        raise RuntimeError("nothing fits this task's needs")
    return seq[int(rng.integers(len(seq)))]


def pick_product(rng: np.random.Generator,
                 where: Callable[[cat.Product], bool] = lambda p: True) -> cat.Product:
    """A random in-stock product (optionally satisfying ``where``)."""
    return choice(rng, [p for p in cat.products() if p.in_stock and where(p)])  # type: ignore[no-any-return]


def seed_cart_params(rng: np.random.Generator, store: dict[str, Any],
                     want: int = 2) -> list[dict[str, Any]]:
    """Cart lines to add at setup so the cart holds at least ``want`` lines."""
    have = {it["product_id"] for it in store["cart"]}
    extra: list[dict[str, Any]] = []
    while len(store["cart"]) + len(extra) < want:
        p = pick_product(rng, lambda p: p.id not in have)
        have.add(p.id)
        extra.append({"product_id": p.id, "options": st.random_options(rng, p),
                      "qty": int(rng.integers(1, 3))})
    return extra


def apply_seed_cart(device: Device, lines: list[dict[str, Any]]) -> None:
    store = live_store(device)
    for it in lines:
        st.add_to_cart(store, it["product_id"], it["options"], it["qty"])


def cart_after_seed(store: dict[str, Any], lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cart as it will be after ``apply_seed_cart`` (for generate_params)."""
    s = {"cart": [dict(it, options=dict(it["options"])) for it in store["cart"]]}
    for it in lines:
        st.add_to_cart(s, it["product_id"], it["options"], it["qty"])
    return s["cart"]


def orders_same_except(before: list[dict[str, Any]], after: list[dict[str, Any]],
                       changed: str | None = None) -> bool:
    """The old orders are all still there, as they were (except the order ``changed``)."""
    a = {o["id"]: o for o in after}
    return all(a.get(o["id"]) == o for o in before if o["id"] != changed)


def orders_per_product(orders: list[dict[str, Any]]) -> dict[str, int]:
    """How many orders hold each product id (a line per order counts once per line)."""
    count: dict[str, int] = {}
    for o in orders:
        for it in o["items"]:
            count[it["product_id"]] = count.get(it["product_id"], 0) + 1
    return count


def priced(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cart lines as order items."""
    return [{"product_id": it["product_id"], "options": dict(it["options"]), "qty": it["qty"],
             "price": cat.product(it["product_id"]).price} for it in lines]


# -- UI paths ----------------------------------------------------------------------------
def open_tab(device: Device, tab: str) -> Iterator[Action]:
    """From anywhere: open Shopping and switch to a bottom-navigation tab (its root)."""
    assert tab in TABS, tab
    yield Action("open_app", app_name="Shopping")
    for _ in range(8):
        if tab == "home" and find(device, rid="home_feed") is not None \
                and find(device, rid="search_bar") is not None:
            return
        if find(device, rid=f"nav_{tab}") is not None:
            yield tap(device, rid=f"nav_{tab}")
            return
        if device.probe.foreground_app() != "com.phoneworld.shopping":
            yield Action("open_app", app_name="Shopping")
        else:
            yield Action("navigate_back")
    raise OracleError(f"could not reach the {tab} tab")


def open_product(device: Device, name: str) -> Iterator[Action]:
    """Search the product's name from Home and open its page."""
    yield from open_tab(device, "home")
    yield type_into(device, name, rid="search_bar")
    yield from scroll_to(device, text=name, rid="product_name")
    yield tap(device, text=name, rid="product_name")


def open_orders(device: Device) -> Iterator[Action]:
    yield from open_tab(device, "account")
    yield tap(device, rid="your_orders_title")


def open_order(device: Device, order_id: str) -> Iterator[Action]:
    yield from open_orders(device)
    yield from scroll_to(device, text=order_id, rid="order_id", contains=True)
    yield tap(device, text=order_id, rid="order_id", contains=True)


def open_wishlist(device: Device) -> Iterator[Action]:
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

