"""Shopping user data: the per-episode store (cart, wishlist, orders, addresses, payments).

The store is a JSON dict (see :func:`generate`); products are referred to by catalogue id and
priced by the store's own catalogue variant (:func:`catalogue_of`, ``store["catalogue"]``).
Every change the screens make goes through the pure functions here; tasks see the result as
the tables of :mod:`.tables` and set up states through its fixtures. Dates come from the world
clock passed in (``ctx.now``); nothing reads the wall clock.

- ``user``: ``{"name", "email"}``, the owner of the episode's life
- ``catalogue``: the catalogue variant (an int) that prices every product this episode
- cart item: ``{"product_id", "options": {name: value}, "qty"}``
- order: ``{"id": "ORD-10234", "date", "items": [{"product_id", "options", "qty", "price"}
  (+ ``"returned": True`` once a return is asked for)], "address": {name, street, city,
  state, zip}, "delivery", "payment", "status", "subtotal", "shipping", "total",
  "return_reason"}``
- address: ``{"id", "label", "name", "street", "city", "state", "zip"}``; the default one is
  ``store["default_address"]`` (an id)
- payment: ``{"id", "label"}`` (e.g. "Visa •••• 4242"); the default is
  ``store["default_payment"]``
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping.catalogue import catalogue_of
from phoneworld_gym.life import Address, Life

MAX_QTY = 10
STATUSES = ("Processing", "Shipped", "Delivered", "Cancelled", "Return requested")
#: delivery option -> (price, days to arrive, free above this subtotal or None)
DELIVERY: dict[str, tuple[float, tuple[int, int], float | None]] = {
    "Standard": (4.99, (3, 5), 35.0),
    "Express": (12.99, (1, 2), None),
}
RETURN_REASONS = ("Changed my mind", "Arrived damaged", "Wrong item sent", "Doesn't fit",
                  "Better price elsewhere")
CARDS = ["Visa", "Mastercard", "Amex"]
#: every seeded order history has orders with these statuses (the closed ones shuffled) ...
BASE_STATUSES = ("Processing", "Shipped", "Delivered", "Delivered", "Cancelled")
#: ... and up to three more orders, each with one of these statuses
EXTRA_STATUSES = ("Delivered", "Delivered", "Delivered", "Cancelled")
#: closed (Delivered, Cancelled) seeded orders were placed this many days ago (range)
CLOSED_DAYS_AGO = (6, 90)


# -- generation
def _pick(rng: np.random.Generator, seq: list[Any] | tuple[Any, ...]) -> Any:
    return seq[int(rng.integers(len(seq)))]


def _address(aid: int, label: str, name: str, a: Address) -> dict[str, Any]:
    return {"id": aid, "label": label, "name": name, "street": a.street, "city": a.city,
            "state": a.state, "zip": a.zip}


def random_options(rng: np.random.Generator, p: cat.Product) -> dict[str, str]:
    """One value for each of the product's options."""
    return {k: _pick(rng, v) for k, v in p.options.items()}


def _order_plan(rng: np.random.Generator) -> list[tuple[str, int]]:
    """(status, days ago) of the seeded orders, oldest first: five to eight orders, at least
    one Processing (today), one Shipped (a day or two ago), two Delivered and one Cancelled
    (weeks ago, on distinct days)."""
    n = int(rng.integers(5, 9))
    closed = [s for s in BASE_STATUSES if s not in ("Processing", "Shipped")]
    closed += [_pick(rng, EXTRA_STATUSES) for _ in range(n - len(BASE_STATUSES))]
    closed = [closed[i] for i in rng.permutation(len(closed)).tolist()]
    lo, hi = CLOSED_DAYS_AGO
    days = sorted(rng.choice(np.arange(lo, hi + 1), size=len(closed), replace=False).tolist(),
                  reverse=True)
    return [*zip(closed, (int(d) for d in days)), ("Shipped", int(rng.integers(1, 3))),
            ("Processing", 0)]


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """The shopper of the episode's life: the owner's name and email, a Home address (the
    owner's) and a Work address, two or three cards, a catalogue variant, a small cart and
    wishlist, and five to eight past orders (see :func:`_order_plan`)."""
    variant = int(rng.integers(1, 2**31 - 1))
    shop = cat.catalogue(variant)
    owner = life.owner
    home = owner.home if owner.home is not None else life.work
    addresses = [_address(1, "Home", owner.name, home),
                 _address(2, "Work", owner.name, life.work)]
    n_cards = int(rng.integers(2, 4))
    kinds = rng.choice(len(CARDS), size=n_cards, replace=False).tolist()
    payments = [{"id": i + 1, "label": f"{CARDS[k]} •••• {int(rng.integers(1000, 9999))}"}
                for i, k in enumerate(kinds)]
    stock = [p for p in shop.products() if p.in_stock]
    picks = rng.choice(len(stock), size=6, replace=False).tolist()
    chosen = [stock[i] for i in picks]
    store: dict[str, Any] = {
        "user": {"name": owner.name, "email": owner.email},
        "catalogue": variant,
        "cart": [],
        "wishlist": [p.id for p in chosen[:4]],
        "orders": [],
        "addresses": addresses,
        "default_address": 1,
        "payments": payments,
        "default_payment": 1,
        "next_order": 10230 + int(rng.integers(0, 60)),
        "next_address_id": 3,
    }
    for p in chosen[4:4 + int(rng.integers(0, 3))]:
        add_to_cart(store, p.id, random_options(rng, p), int(rng.integers(1, 3)))
    now = life.now  # the phone's start clock: orders are dated before it
    for status, ago in _order_plan(rng):
        k = int(rng.integers(1, 4))
        items = []
        for i in rng.choice(len(stock), size=k, replace=False).tolist():
            p = stock[i]
            items.append({"product_id": p.id, "options": random_options(rng, p),
                          "qty": int(rng.integers(1, 3)), "price": p.price})
        # today's order was placed earlier this morning
        hours = int(rng.integers(1, 9)) if ago else int(rng.integers(0, 2))
        when = now - dt.timedelta(days=ago, hours=hours, minutes=int(rng.integers(0, 60)))
        addr = addresses[0] if rng.random() < 0.75 else addresses[1]
        # open orders go Standard so that they are still on their way at the episode clock
        delivery = "Standard" if status in ("Shipped", "Processing") else \
            _pick(rng, list(DELIVERY))
        order = _make_order(store, items, addr, delivery,
                            _pick(rng, payments)["label"], when.isoformat(timespec="seconds"))
        order["status"] = status
    return store


# -- lookups
def product_of(store: dict[str, Any], item: dict[str, Any]) -> cat.Product:
    """The product of a cart or order item, from the store's catalogue."""
    return catalogue_of(store).product(item["product_id"])


def options_text(options: dict[str, str]) -> str:
    """"Size: M · Color: Black" (empty for no options)."""
    return " · ".join(f"{k}: {v}" for k, v in options.items())


def line_key(product_id: str, options: dict[str, str]) -> str:
    """A cart line's stable key: the product id, then its options sorted by name
    ("P0007|Color=Black;Size=M"); just the id ("P0012") for a product without options."""
    if not options:
        return product_id
    return product_id + "|" + ";".join(f"{k}={options[k]}" for k in sorted(options))


def find_order(store: dict[str, Any], order_id: str) -> dict[str, Any] | None:
    """The order with this id ("ORD-10234"), or None."""
    return next((o for o in store["orders"] if o["id"] == order_id), None)


def orders_newest_first(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Orders sorted by date, newest first."""
    return sorted(store["orders"], key=lambda o: (o["date"], o["id"]), reverse=True)


def find_address(store: dict[str, Any], aid: int) -> dict[str, Any] | None:
    return next((a for a in store["addresses"] if a["id"] == aid), None)


def find_payment(store: dict[str, Any], pid: int) -> dict[str, Any] | None:
    return next((p for p in store["payments"] if p["id"] == pid), None)


def address_lines(a: dict[str, Any]) -> str:
    """"12 Oak Avenue, Austin, TX 78701"."""
    return f"{a['street']}, {a['city']}, {a['state']} {a['zip']}"


# -- cart
def find_cart_item(store: dict[str, Any], product_id: str,
                   options: dict[str, str] | None = None) -> int | None:
    """Index of the cart line with this product and options (any options if None)."""
    for i, it in enumerate(store["cart"]):
        if it["product_id"] == product_id and (options is None or it["options"] == options):
            return i
    return None


def add_to_cart(store: dict[str, Any], product_id: str, options: dict[str, str] | None = None,
                qty: int = 1) -> dict[str, Any]:
    """Add ``qty`` of a product; a line with the same product and options is merged (capped at
    :data:`MAX_QTY`). Raises ``ValueError`` for a missing option or an out-of-stock product."""
    p = catalogue_of(store).product(product_id)
    opts = dict(options or {})
    missing = [k for k in p.options if k not in opts]
    bad = [k for k, v in opts.items() if v not in p.options.get(k, [])]
    if missing or bad:
        raise ValueError(f"{p.name}: choose {missing or bad} from {p.options}")
    if not p.in_stock:
        raise ValueError(f"{p.name} is out of stock")
    opts = {k: opts[k] for k in p.options}  # canonical order
    i = find_cart_item(store, product_id, opts)
    if i is not None:
        line = store["cart"][i]
        line["qty"] = min(MAX_QTY, line["qty"] + qty)
        return line
    line = {"product_id": product_id, "options": opts, "qty": max(1, min(MAX_QTY, qty))}
    store["cart"].append(line)
    return line


def set_qty(store: dict[str, Any], index: int, qty: int) -> None:
    """Set a cart line's quantity (0 or less removes it; capped at :data:`MAX_QTY`)."""
    if qty <= 0:
        remove(store, index)
    else:
        store["cart"][index]["qty"] = min(MAX_QTY, qty)


def remove(store: dict[str, Any], index: int) -> dict[str, Any]:
    """Remove and return cart line ``index``."""
    line: dict[str, Any] = store["cart"].pop(index)
    return line


def cart_count(store: dict[str, Any]) -> int:
    """Number of items in the cart (quantities summed)."""
    return sum(int(it["qty"]) for it in store["cart"])


def items_subtotal(store: dict[str, Any], items: list[dict[str, Any]]) -> float:
    """Sum of price x qty (cart lines use the store catalogue's prices, order lines their
    own)."""
    shop = catalogue_of(store)
    return round(sum((it["price"] if "price" in it else shop.product(it["product_id"]).price)
                     * it["qty"] for it in items), 2)


def cart_total(store: dict[str, Any]) -> float:
    """The cart's subtotal (before delivery)."""
    return items_subtotal(store, store["cart"])


def shipping_cost(subtotal: float, delivery: str) -> float:
    """Delivery price for this subtotal (Standard is free above $35)."""
    price, _, free_above = DELIVERY[delivery]
    return 0.0 if free_above is not None and subtotal >= free_above else price


def arrival(date_iso: str, delivery: str) -> tuple[str, str]:
    """Earliest and latest arrival dates (ISO dates) for an order placed at ``date_iso``."""
    d = dt.datetime.fromisoformat(date_iso).date()
    lo, hi = DELIVERY[delivery][1]
    return (d + dt.timedelta(days=lo)).isoformat(), (d + dt.timedelta(days=hi)).isoformat()


# -- wishlist
def in_wishlist(store: dict[str, Any], product_id: str) -> bool:
    return product_id in store["wishlist"]


def toggle_wishlist(store: dict[str, Any], product_id: str) -> bool:
    """Add or remove a product; True when it is now in the wishlist."""
    if product_id in store["wishlist"]:
        store["wishlist"].remove(product_id)
        return False
    store["wishlist"].append(product_id)
    return True


def remove_from_wishlist(store: dict[str, Any], product_id: str) -> None:
    if product_id in store["wishlist"]:
        store["wishlist"].remove(product_id)


def move_to_cart(store: dict[str, Any], product_id: str) -> dict[str, Any]:
    """Move a wishlist product without options into the cart (``ValueError`` if it has
    options or is out of stock; the wishlist is unchanged then)."""
    line = add_to_cart(store, product_id, {}, 1)
    remove_from_wishlist(store, product_id)
    return line


# -- addresses and payments
ADDRESS_FIELDS = ("name", "street", "city", "state", "zip")


def validate_address(fields: dict[str, str]) -> str:
    """An error sentence for an incomplete address, or "" when it is fine."""
    for k in ADDRESS_FIELDS:
        if not fields.get(k, "").strip():
            return f"Enter a {'ZIP code' if k == 'zip' else k}"
    z = fields["zip"].strip()
    if not (z.isdigit() and len(z) == 5):
        return "ZIP code must be 5 digits"
    return ""


def clean_address(fields: dict[str, str]) -> dict[str, str]:
    """The address fields (:data:`ADDRESS_FIELDS`) with spacing tidied and a two-letter state
    in capitals; ``ValueError`` says what is missing or wrong."""
    clean = {k: " ".join(str(fields.get(k, "")).split()) for k in ADDRESS_FIELDS}
    err = validate_address(clean)
    if err:
        raise ValueError(err)
    clean["state"] = clean["state"].upper() if len(clean["state"]) == 2 else clean["state"]
    return clean


def add_address(store: dict[str, Any], name: str, street: str, city: str, state: str,
                zip: str, *, label: str = "", make_default: bool = False) -> dict[str, Any]:
    """Save a shipping address (``ValueError`` when a field is missing)."""
    clean = clean_address({"name": name, "street": street, "city": city, "state": state,
                           "zip": zip})
    a = {"id": store["next_address_id"], "label": label or "Other", **clean}
    store["next_address_id"] += 1
    store["addresses"].append(a)
    if make_default:
        store["default_address"] = a["id"]
    return a


def delete_address(store: dict[str, Any], aid: int) -> None:
    """Forget an address; the default moves to the first one left."""
    store["addresses"] = [a for a in store["addresses"] if a["id"] != aid]
    if store["default_address"] == aid:
        store["default_address"] = store["addresses"][0]["id"] if store["addresses"] else 0


def set_default_address(store: dict[str, Any], aid: int) -> None:
    """Make a saved address the default (``ValueError`` for an unknown id)."""
    if find_address(store, aid) is None:
        raise ValueError(f"no address with id {aid!r}")
    store["default_address"] = aid


def set_default_payment(store: dict[str, Any], pid: int) -> None:
    """Make a saved card the default (``ValueError`` for an unknown id)."""
    if find_payment(store, pid) is None:
        raise ValueError(f"no payment method with id {pid!r}")
    store["default_payment"] = pid


# -- orders
def _make_order(store: dict[str, Any], items: list[dict[str, Any]], address: dict[str, Any],
                delivery: str, payment: str, date: str) -> dict[str, Any]:
    subtotal = items_subtotal(store, items)
    ship = shipping_cost(subtotal, delivery)
    order = {
        "id": f"ORD-{store['next_order']}",
        "date": date,
        "items": items,
        "address": {k: address[k] for k in ADDRESS_FIELDS},
        "delivery": delivery,
        "payment": payment,
        "status": "Processing",
        "subtotal": subtotal,
        "shipping": ship,
        "total": round(subtotal + ship, 2),
        "return_reason": "",
    }
    store["next_order"] += 1
    store["orders"].append(order)
    return order


def place_order(store: dict[str, Any], *, address_id: int, delivery: str, payment_id: int,
                now: str, items: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Turn the cart (or ``items``, for Buy now) into a Processing order dated ``now``.
    The cart is cleared only when it was ordered. Returns the order."""
    lines = copy.deepcopy(store["cart"] if items is None else items)
    if not lines:
        raise ValueError("the cart is empty")
    address = find_address(store, address_id)
    payment = find_payment(store, payment_id)
    if address is None or payment is None or delivery not in DELIVERY:
        raise ValueError(f"bad checkout choice: address {address_id}, payment {payment_id}, "
                         f"delivery {delivery!r}")
    priced = [{"product_id": it["product_id"], "options": dict(it["options"]),
               "qty": int(it["qty"]), "price": product_of(store, it).price} for it in lines]
    order = _make_order(store, priced, address, delivery, payment["label"], now)
    if items is None:
        store["cart"] = []
    return order


def can_cancel(order: dict[str, Any]) -> bool:
    return bool(order["status"] == "Processing")


def can_return(order: dict[str, Any]) -> bool:
    return bool(order["status"] == "Delivered")


def cancel_order(store: dict[str, Any], order_id: str) -> bool:
    """Cancel a Processing order; False (nothing changes) for any other status."""
    o = find_order(store, order_id)
    if o is None or not can_cancel(o):
        return False
    o["status"] = "Cancelled"
    return True


def request_return(store: dict[str, Any], order_id: str, indices: list[int] | None = None,
                   reason: str = "") -> bool:
    """Ask to return items ``indices`` (all if None) of a Delivered order; marks those items
    ``returned`` and the order "Return requested". False when not allowed."""
    o = find_order(store, order_id)
    if o is None or not can_return(o):
        return False
    chosen = range(len(o["items"])) if indices is None else indices
    if not chosen:
        return False
    for i in chosen:
        o["items"][i]["returned"] = True
    o["status"] = "Return requested"
    o["return_reason"] = reason
    return True


def ship_order_to(store: dict[str, Any], order_id: str,
                  address: dict[str, str]) -> dict[str, Any]:
    """Change where an order ships (or shipped) to; ``ValueError`` for an unknown order or a
    bad address. Returns the order."""
    o = find_order(store, order_id)
    if o is None:
        raise ValueError(f"no order {order_id!r}")
    o["address"] = clean_address(address)
    return o
