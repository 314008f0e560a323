"""Shopping user data: the per-episode store (cart, wishlist, orders, addresses, payments).

The store is a JSON dict (see :func:`generate`); products are referred to by catalogue id.
Every change the screens make goes through the pure functions here, so tasks can set up
states and verify outcomes with the same code. Dates come from the world clock passed in
(``ctx.now``); nothing reads the wall clock.

- cart item: ``{"product_id", "options": {name: value}, "qty"}``
- order: ``{"id": "ORD-10234", "date", "items": [{"product_id", "options", "qty", "price"}],
  "address": {name, street, city, state, zip}, "delivery", "payment", "status",
  "subtotal", "shipping", "total", "return_reason"}``
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
from phoneworld_gym.world import DEFAULT_CLOCK

MAX_QTY = 10
STATUSES = ("Processing", "Shipped", "Delivered", "Cancelled", "Return requested")
#: delivery option -> (price, days to arrive, free above this subtotal or None)
DELIVERY: dict[str, tuple[float, tuple[int, int], float | None]] = {
    "Standard": (4.99, (3, 5), 35.0),
    "Express": (12.99, (1, 2), None),
}
RETURN_REASONS = ("Changed my mind", "Arrived damaged", "Wrong item sent", "Doesn't fit",
                  "Better price elsewhere")

FIRST = ["Ava", "Ben", "Chloe", "Daniel", "Emma", "Felix", "Grace", "Hugo", "Isla", "Jack",
         "Maya", "Noah", "Olivia", "Priya", "Sam", "Zoe"]
LAST = ["Anderson", "Brooks", "Chen", "Diaz", "Evans", "Garcia", "Kim", "Lopez", "Nguyen",
        "Patel", "Rossi", "Walker"]
STREETS = ["Maple Street", "Oak Avenue", "Pine Road", "Cedar Lane", "Elm Street", "Harbor Drive",
           "Park Avenue", "River Road", "Willow Court", "King Street"]
CITIES = [("Springfield", "IL", "62701"), ("Portland", "OR", "97205"), ("Austin", "TX", "78701"),
          ("Madison", "WI", "53703"), ("Boulder", "CO", "80302"), ("Raleigh", "NC", "27601"),
          ("Salem", "MA", "01970"), ("Tucson", "AZ", "85701")]
CARDS = ["Visa", "Mastercard", "Amex"]


# -- generation
def _pick(rng: np.random.Generator, seq: list[Any] | tuple[Any, ...]) -> Any:
    return seq[int(rng.integers(len(seq)))]


def _address(rng: np.random.Generator, aid: int, label: str, name: str) -> dict[str, Any]:
    city, state, zipc = _pick(rng, CITIES)
    return {"id": aid, "label": label, "name": name,
            "street": f"{int(rng.integers(1, 999))} {_pick(rng, STREETS)}",
            "city": city, "state": state, "zip": zipc}


def random_options(rng: np.random.Generator, p: cat.Product) -> dict[str, str]:
    """One value for each of the product's options."""
    return {k: _pick(rng, v) for k, v in p.options.items()}


def generate(rng: np.random.Generator) -> dict[str, Any]:
    """A seeded shopper: a name, two addresses, two or three cards, a small cart and wishlist,
    and five past orders (one Processing, one Shipped, at least two Delivered)."""
    name = f"{_pick(rng, FIRST)} {_pick(rng, LAST)}"
    addresses = [_address(rng, 1, "Home", name), _address(rng, 2, "Work", name)]
    n_cards = int(rng.integers(2, 4))
    kinds = rng.choice(len(CARDS), size=n_cards, replace=False).tolist()
    payments = [{"id": i + 1, "label": f"{CARDS[k]} •••• {int(rng.integers(1000, 9999))}"}
                for i, k in enumerate(kinds)]
    stock = [p for p in cat.products() if p.in_stock]
    picks = rng.choice(len(stock), size=6, replace=False).tolist()
    chosen = [stock[i] for i in picks]
    store: dict[str, Any] = {
        "user": {"name": name, "email": f"{name.lower().replace(' ', '.')}@mail.com"},
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
    now = dt.datetime.fromisoformat(DEFAULT_CLOCK)
    statuses = ["Delivered", "Delivered", "Cancelled", "Delivered", "Shipped", "Processing"]
    days_ago = [58, 41, 30, 17, 2, 0]
    for status, ago in zip(statuses, days_ago):
        k = int(rng.integers(1, 4))
        items = []
        for i in rng.choice(len(stock), size=k, replace=False).tolist():
            p = stock[i]
            items.append({"product_id": p.id, "options": random_options(rng, p),
                          "qty": int(rng.integers(1, 3)), "price": p.price})
        when = now - dt.timedelta(days=ago, hours=int(rng.integers(1, 9)),
                                  minutes=int(rng.integers(0, 60)))
        addr = addresses[0] if rng.random() < 0.75 else addresses[1]
        # open orders go Standard so that they are still on their way at the episode clock
        delivery = "Standard" if status in ("Shipped", "Processing") else \
            _pick(rng, list(DELIVERY))
        order = _make_order(store, items, addr, delivery,
                            _pick(rng, payments)["label"], when.isoformat(timespec="seconds"))
        order["status"] = status
    return store


# -- lookups
def product_of(item: dict[str, Any]) -> cat.Product:
    """The catalogue product of a cart or order item."""
    return cat.product(item["product_id"])


def options_text(options: dict[str, str]) -> str:
    """"Size: M · Color: Black" (empty for no options)."""
    return " · ".join(f"{k}: {v}" for k, v in options.items())


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
    p = cat.product(product_id)
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


def items_subtotal(items: list[dict[str, Any]]) -> float:
    """Sum of price x qty (cart lines use catalogue prices, order lines their own)."""
    return round(sum(it.get("price", product_of(it).price) * it["qty"] for it in items), 2)


def cart_total(store: dict[str, Any]) -> float:
    """The cart's subtotal (before delivery)."""
    return items_subtotal(store["cart"])


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


def add_address(store: dict[str, Any], name: str, street: str, city: str, state: str,
                zip: str, *, label: str = "", make_default: bool = False) -> dict[str, Any]:
    """Save a shipping address (``ValueError`` when a field is missing)."""
    fields = {"name": name, "street": street, "city": city, "state": state, "zip": zip}
    clean = {k: " ".join(v.split()) for k, v in fields.items()}
    err = validate_address(clean)
    if err:
        raise ValueError(err)
    clean["state"] = clean["state"].upper() if len(clean["state"]) == 2 else clean["state"]
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


# -- orders
def _make_order(store: dict[str, Any], items: list[dict[str, Any]], address: dict[str, Any],
                delivery: str, payment: str, date: str) -> dict[str, Any]:
    subtotal = items_subtotal(items)
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
               "qty": int(it["qty"]), "price": product_of(it).price} for it in lines]
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
