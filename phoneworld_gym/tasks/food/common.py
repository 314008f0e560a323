"""Shared pieces of the Food tasks: the app's rows (read only through the probe) and the usual
UI paths: home, a restaurant, a dish's options sheet, the cart and checkout.

Tables (see :mod:`phoneworld_gym.apps.food`): ``food/restaurants`` (``_id``, ``name``,
``cuisine``, ``rating``, ``delivery_min``, ``delivery_max``, ``delivery_fee``, ``address``,
``is_open``, ``opens``), ``food/menu`` (``_id``, ``restaurant_id``, ``name``, ``price``,
``sold_out``, ``sizes`` and ``extras`` comma-separated), ``food/cart``, ``food/orders``
(``number``, ``restaurant_id``, ``subtotal``, ``delivery_fee``, ``tip``, ``total``,
``address_label``, ``payment``, ``status``, ``placed``, ``eta``, ``eta_text``),
``food/order_items`` and ``food/favorites``. A delivery app keeps its data private, so these
tasks run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import (
    OracleError,
    elements,
    find,
    scroll_to,
    tap,
    text_of,
    type_into,
)
from phoneworld_gym.tasks.kit import choice, open_root

#: the tips checkout offers, and the one it starts with
TIPS: tuple[float, ...] = (0.0, 2.0, 3.0, 5.0)
DEFAULT_TIP = 3.0
ADDRESSES: tuple[str, ...] = ("Home", "Work")
#: the sizes an options sheet offers, as it spells them (a request writes them in lower case)
SIZE_NAMES: tuple[str, ...] = ("Small", "Medium", "Large", "Regular", "Single", "Double",
                               "6 pieces", "12 pieces", "Family size")
#: how a request spells a count of dishes
COUNT_WORDS: dict[str, int] = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                               "six": 6}


def eta_shown(device: Device, after: dt.datetime) -> dt.datetime:
    """The arrival time on the open order page ("1:05 PM") as the first such time at or after
    ``after`` (the episode's start: an order on its way or placed since arrives after it,
    past midnight too)."""
    shown = text_of(device, rid="eta") or ""
    try:
        at = dt.datetime.strptime(shown, "%I:%M %p").time()
    except ValueError:
        raise OracleError(f"no arrival time on the order page: {shown!r}") from None
    start = after.replace(second=0, microsecond=0)
    eta = dt.datetime.combine(start.date(), at)
    return eta if eta >= start else eta + dt.timedelta(days=1)


def split(value: str) -> list[str]:
    """The names of a comma-separated column ("" -> [])."""
    return [v.strip() for v in str(value).split(",") if v.strip()]


def money(v: float) -> str:
    return f"${v:,.2f}"


def restaurants(probe: Probe) -> dict[int, Row]:
    return {int(r["_id"]): r for r in probe.query("food/restaurants")}


def orderable(probe: Probe, *, sized: bool = False, extras: bool = False) -> list[Row]:
    """Dishes that can be ordered now (their restaurant open, not sold out), optionally only
    those with sizes and/or extras to choose."""
    places = restaurants(probe)
    return [d for d in probe.query("food/menu")
            if places[int(d["restaurant_id"])]["is_open"] and not d["sold_out"]
            and (not sized or d["sizes"]) and (not extras or d["extras"])]


def pick_line(rng: np.random.Generator, probe: Probe, *, qty: tuple[int, int] = (1, 4),
              with_extra: bool = True) -> dict[str, Any]:
    """A dish to order with a size, maybe an extra, and a quantity: params of an order line
    (``restaurant``, ``dish``, ``dish_id``, ``size``, ``extra``, ``qty``)."""
    d = choice(rng, orderable(probe, sized=True, extras=with_extra))
    places = restaurants(probe)
    return {"restaurant": str(places[int(d["restaurant_id"])]["name"]), "dish": str(d["name"]),
            "dish_id": int(d["_id"]), "size": str(choice(rng, split(d["sizes"]))),
            "extra": str(choice(rng, split(d["extras"]))) if with_extra else "",
            "qty": int(rng.integers(qty[0], qty[1] + 1))}


def dish_price(probe: Probe, dish_id: int, size: str = "", extras: tuple[str, ...] = ()
               ) -> float:
    """A dish's price with a size and extras, from the static ``food/menu`` and
    ``food/options`` tables."""
    return price_of(probe.query("food/menu"), probe.query("food/options"), dish_id, size,
                    extras)


def price_of(menu: list[Row], options: list[Row], dish_id: int, size: str = "",
             extras: tuple[str, ...] = ()) -> float:
    """A dish's price with a size and extras, from rows of ``food/menu`` and
    ``food/options`` (a task's start state, say)."""
    base = next(float(d["price"]) for d in menu if d["_id"] == dish_id)
    adds = {(o["kind"], o["name"]): float(o["price"]) for o in options
            if o["dish_id"] == dish_id}
    return round(base + (adds[("size", size)] if size else 0.0)
                 + sum(adds[("extra", e)] for e in extras), 2)


def new_rows(before: list[Row], after: list[Row]) -> list[Row]:
    ids = {r["_id"] for r in before}
    return [r for r in after if r["_id"] not in ids]


def live_order(rows: list[Row]) -> Row:
    """The order on its way at the start of an episode (there is one in every seed)."""
    live = [r for r in rows if r["status"] == "On the way"]
    if len(live) != 1:
        raise RuntimeError(f"expected one order on its way, found {len(live)}")
    return live[0]


# -- UI paths ------------------------------------------------------------------------------------
def to_home(device: Device) -> Iterator[Action]:
    """Open Food on its home feed (from anywhere)."""
    yield from open_root(device, "Food", "home_feed", tries=6, tab="nav_home", tab_desc="Home",
                         package="com.phoneworld.food", fail="the Food home feed never showed")


def open_live_order(device: Device, from_shade: bool = False) -> Iterator[Action]:
    """The order on its way: Home's tracking card, or (``from_shade``, the second path) the
    delivery notification in the shade pulled down from the status bar."""
    if from_shade:
        yield Action("swipe", x=540, y=10, direction="down")
        yield from scroll_to(device, text="Your order is on the way", rid="title")
        yield tap(device, text="Your order is on the way", rid="title")
    else:
        yield from to_home(device)
        yield tap(device, rid="live_order")


def search(device: Device, query: str) -> Iterator[Action]:
    """From anywhere: Food's search with ``query`` typed."""
    yield from to_home(device)
    yield tap(device, rid="search_bar")
    yield type_into(device, query, rid="search_src_text")


def open_restaurant(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: the restaurant's page, found by searching its name."""
    yield from search(device, name)
    yield tap(device, desc=name, rid="restaurant_card")


def browse_to_restaurant(device: Device, name: str) -> Iterator[Action]:
    """The second path to a restaurant: down the home feed's "All restaurants" to its card
    (no search)."""
    yield from to_home(device)
    yield from scroll_to(device, desc=name, rid="restaurant_card")
    yield tap(device, desc=name, rid="restaurant_card")


def find_dish(device: Device, dish: str, restaurant: str) -> Iterator[Action]:
    """From anywhere: search the dish and open it (its restaurant's page with the dish's
    options sheet)."""
    yield from search(device, dish)
    yield tap(device, desc=f"{dish}, {restaurant}", rid="dish_result")


def option_index(device: Device, rid: str, name: str) -> int:
    """The index of a size or extra in the open options sheet ("Large (+$2.50)" is Large)."""
    for i, e in enumerate(elements(device)):
        text = e.text or ""
        if (e.resource_id or "").endswith(f"/{rid}") and \
                (text == name or text.startswith(f"{name} (+")):
            return i
    raise OracleError(f"no {rid} {name!r} in the options sheet")


def open_dish(device: Device, dish: str) -> Iterator[Action]:
    """On a restaurant's page: scroll to a dish and open its options sheet."""
    yield from scroll_to(device, text=dish, rid="dish_name")
    yield tap(device, text=dish, rid="dish_name")


def choose(device: Device, size: str = "", extras: tuple[str, ...] = (),
           qty: int = 1) -> Iterator[Action]:
    """In an open options sheet: tap the size (even when it is the one already chosen, to be
    sure), the extras, step the quantity up and add to the cart."""
    if size:
        yield Action("click", index=option_index(device, "size_option", size))
    for extra in extras:
        yield Action("click", index=option_index(device, "extra_option", extra))
    for _ in range(qty - 1):
        yield tap(device, desc="Increase quantity")
    yield tap(device, rid="add_to_cart")


def order_dish(device: Device, dish: str, restaurant: str, size: str = "",
               extras: tuple[str, ...] = (), qty: int = 1,
               browse: bool = False) -> Iterator[Action]:
    """From anywhere: find the dish by search (``browse``, the second path: its restaurant
    from the home feed, then down its menu), choose its options and add it to the cart."""
    if browse:
        yield from browse_to_restaurant(device, restaurant)
        yield from open_dish(device, dish)
    else:
        yield from find_dish(device, dish, restaurant)
    yield from choose(device, size, extras, qty)


def checkout(device: Device, *, address: str = "Home", tip: float = DEFAULT_TIP,
             card: str = "") -> Iterator[Action]:
    """From a screen with the "View cart" bar: the cart, checkout, then the address, tip and
    card (``card`` a word of its name, "Mastercard"; each tapped even when already chosen,
    as a careful person checks them), then Place order."""
    yield tap(device, rid="view_cart")
    yield tap(device, rid="checkout")
    yield tap(device, desc=address, rid="address_option")
    yield tap(device, text=money(tip) if tip else "No tip", rid="tip_option")
    if card:
        yield from scroll_to(device, desc=card, rid="card_option", contains=True)
        yield tap(device, desc=card, rid="card_option", contains=True)
    yield from place(device)


def place(device: Device) -> Iterator[Action]:
    """At checkout: Place order, and once more if a bad connection made the first attempt
    fail (the field profile's transient errors; the button is then still there)."""
    yield tap(device, rid="place_order")
    if find(device, rid="place_order") is not None:
        yield tap(device, rid="place_order")


def requested(text: str, tail: str) -> tuple[int, str, str, str]:
    """(count, size, dish, restaurant) of a request read in a message, "... order one large
    Margherita Pizza each from Luigi's on Food?" (``tail`` is what follows the restaurant,
    " on Food?"); ``OracleError`` when the message asks for no dish."""
    sizes = "|".join(re.escape(s.lower()) for s in SIZE_NAMES)
    m = re.search(rf"order (?:me )?(\w+) ({sizes}) (.+?)(?: each)? from (.+?){re.escape(tail)}",
                  text)
    if m is None or m.group(1) not in COUNT_WORDS:
        raise OracleError(f"no dish asked for in {text!r}")
    size = next(s for s in SIZE_NAMES if s.lower() == m.group(2))
    return COUNT_WORDS[m.group(1)], size, m.group(3), m.group(4)


def order_line(dish_id: int, size: str, extras: str, qty: int) -> dict[str, Any]:
    """The expected ``food/order_items`` (or ``food/cart``) row of one line."""
    return {"dish_id": dish_id, "size": size, "extras": extras, "quantity": qty}
