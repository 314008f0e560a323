"""What the outside sees of Shopping: the tables it serves and the fixtures tasks may run.

Tasks never reach the store or the catalogue: they read these tables through the device's
probe (``device.probe.query("shopping/cart")``) and change Shopping's state at setup only
through the fixtures (``device.fixture("shopping", "add_to_cart", lines=[...])``).

Tables (every row has an ``_id``; booleans are 0/1 ints, as Android's providers serve them):

- ``shopping/products`` (static within an episode): ``_id`` ("P0001"), ``name``, ``brand``,
  ``category``, ``price``, ``list_price`` (None unless on a deal), ``rating``,
  ``review_count``, ``in_stock``, ``options`` ({option: [values]}), ``description``,
  ``reviews`` ([{author, stars, text}]), in id order
- ``shopping/cart``: ``_id`` (:func:`~.store.line_key`: "P0007|Color=Black;Size=M"),
  ``product_id``, ``name``, ``options`` ({option: value}), ``qty``, ``price`` (unit price),
  ``position`` (0-based), in cart order
- ``shopping/wishlist``: ``_id`` (product id), ``name``, ``position``, in wishlist order
- ``shopping/orders``: ``_id`` ("ORD-10234"), ``date``, ``status``, ``items`` ([{product_id,
  name, options, qty, price, returned}]), ``address`` ({name, street, city, state, zip}),
  ``delivery``, ``payment``, ``subtotal``, ``shipping``, ``total``, ``return_reason``, oldest
  first
- ``shopping/addresses``: ``_id`` (int), ``label``, ``name``, ``street``, ``city``, ``state``,
  ``zip``, ``is_default``, in the order they were saved
- ``shopping/payments``: ``_id`` (int), ``label``, ``is_default``
- ``shopping/account``: one row, ``_id`` "me", ``name``, ``email``

Together the tables show every change a user can make in the app (damage checks compare
them); only internal counters (the next order number and address id) stay hidden.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.apps.shopping.catalogue import Catalogue, Product, catalogue_of

Row = dict[str, Any]
Store = dict[str, Any]

PRODUCTS = "shopping/products"
CART = "shopping/cart"
WISHLIST = "shopping/wishlist"
ORDERS = "shopping/orders"
ADDRESSES = "shopping/addresses"
PAYMENTS = "shopping/payments"
ACCOUNT = "shopping/account"


# -- providers
def product_row(p: Product) -> Row:
    """A ``shopping/products`` row."""
    return {
        "_id": p.id, "name": p.name, "brand": p.brand, "category": p.category,
        "price": p.price, "list_price": p.list_price if p.on_deal else None,
        "rating": p.rating, "review_count": p.review_count, "in_stock": int(p.in_stock),
        "options": {k: list(v) for k, v in p.options.items()},
        "description": p.description, "reviews": [dict(r) for r in p.reviews],
    }


def products_rows(store: Store) -> list[Row]:
    """Every product of the store's catalogue, in id order."""
    return [product_row(p) for p in catalogue_of(store).products()]


def cart_rows(store: Store) -> list[Row]:
    """The cart's lines, in cart order, priced by the store's catalogue."""
    shop = catalogue_of(store)
    out = []
    for i, it in enumerate(store["cart"]):
        p = shop.product(it["product_id"])
        out.append({"_id": st.line_key(p.id, it["options"]), "product_id": p.id,
                    "name": p.name, "options": dict(it["options"]), "qty": int(it["qty"]),
                    "price": p.price, "position": i})
    return out


def wishlist_rows(store: Store) -> list[Row]:
    """The wishlist, in the order products were saved."""
    shop = catalogue_of(store)
    return [{"_id": pid, "name": shop.product(pid).name, "position": i}
            for i, pid in enumerate(store["wishlist"])]


def _order_row(shop: Catalogue, o: dict[str, Any]) -> Row:
    return {
        "_id": o["id"], "date": o["date"], "status": o["status"],
        "items": [{"product_id": it["product_id"], "name": shop.product(it["product_id"]).name,
                   "options": dict(it["options"]), "qty": int(it["qty"]),
                   "price": it["price"], "returned": int(bool(it.get("returned")))}
                  for it in o["items"]],
        "address": {k: o["address"][k] for k in st.ADDRESS_FIELDS},
        "delivery": o["delivery"], "payment": o["payment"], "subtotal": o["subtotal"],
        "shipping": o["shipping"], "total": o["total"], "return_reason": o["return_reason"],
    }


def orders_rows(store: Store) -> list[Row]:
    """Every order, oldest first (by date, then id)."""
    shop = catalogue_of(store)
    ordered = sorted(store["orders"], key=lambda o: (o["date"], o["id"]))
    return [_order_row(shop, o) for o in ordered]


def addresses_rows(store: Store) -> list[Row]:
    """The saved addresses, in the order they were saved, the default one flagged."""
    return [{"_id": a["id"], "label": a["label"],
             **{k: a[k] for k in st.ADDRESS_FIELDS},
             "is_default": int(a["id"] == store["default_address"])}
            for a in store["addresses"]]


def payments_rows(store: Store) -> list[Row]:
    """The saved cards, the default one flagged."""
    return [{"_id": pm["id"], "label": pm["label"],
             "is_default": int(pm["id"] == store["default_payment"])}
            for pm in store["payments"]]


def account_rows(store: Store) -> list[Row]:
    """The shopper: one row."""
    return [{"_id": "me", "name": store["user"]["name"], "email": store["user"]["email"]}]


PROVIDERS: dict[str, Callable[[Store], list[Row]]] = {
    PRODUCTS: products_rows,
    CART: cart_rows,
    WISHLIST: wishlist_rows,
    ORDERS: orders_rows,
    ADDRESSES: addresses_rows,
    PAYMENTS: payments_rows,
    ACCOUNT: account_rows,
}
STATIC_TABLES = frozenset({PRODUCTS})


# -- fixtures
def _checked(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a call with missing or unknown arguments into a ``ValueError`` naming them."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(store: Store, **args: Any) -> Any:
        try:
            sig.bind(store, **args)
        except TypeError as e:
            raise ValueError(f"{fn.__name__}: {e}") from None
        return fn(store, **args)

    return wrapper


def _text(fixture: str, field: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{fixture}: {field} must be a string, got {value!r}")
    return value


def _address_fields(fixture: str, **fields: Any) -> dict[str, str]:
    """Checked, tidied address fields; the error names the bad one."""
    clean = {k: _text(fixture, k, v) for k, v in fields.items()}
    for k in st.ADDRESS_FIELDS:
        if not clean[k].strip():
            raise ValueError(f"{fixture}: {k} is empty")
    try:
        return st.clean_address(clean)
    except ValueError as e:
        raise ValueError(f"{fixture}: zip: {e}") from None


def _product_id(shop: Catalogue, fixture: str, field: str, pid: Any) -> str:
    if not shop.has(pid):
        raise ValueError(f"{fixture}: {field} {pid!r} is not a product id "
                         f"(P0001..P{len(shop.products()):04d})")
    return str(pid)


@_checked
def add_to_cart(store: Store, *, lines: list[dict[str, Any]]) -> list[Row]:
    """Put ``lines`` (each ``{"product_id", "options", "qty"}``; ``options`` may be left out
    for a product without options, ``qty`` defaults to 1) in the cart, merging with a line of
    the same product and options as the Add to cart button does (a line holds at most
    :data:`~.store.MAX_QTY`). Every line is checked before any is added; an out-of-stock
    product is refused. Returns the cart rows after."""
    name = "add_to_cart"
    if not isinstance(lines, list) or not lines:
        raise ValueError(f"{name}: lines must be a non-empty list of "
                         f"{{product_id, options, qty}}, got {lines!r}")
    shop = catalogue_of(store)
    checked: list[tuple[str, dict[str, str], int]] = []
    for i, line in enumerate(lines):
        where = f"{name}: lines[{i}]"
        if not isinstance(line, dict):
            raise ValueError(f"{where} must be a dict, got {line!r}")
        unknown = sorted(set(line) - {"product_id", "options", "qty"})
        if unknown:
            raise ValueError(f"{where} has unknown fields {unknown}; "
                             "use product_id, options, qty")
        if "product_id" not in line:
            raise ValueError(f"{where}.product_id is missing")
        p = shop.product(_product_id(shop, where, "product_id", line["product_id"]))
        options = line.get("options", {})
        if not isinstance(options, dict):
            raise ValueError(f"{where}.options must be a dict, got {options!r}")
        missing = [k for k in p.options if k not in options]
        if missing:
            raise ValueError(f"{where}.options: {p.name} needs a value for {missing} "
                             f"(choices {p.options})")
        for k, v in options.items():
            if v not in p.options.get(k, []):
                raise ValueError(f"{where}.options: {k}={v!r} is not a choice of {p.name} "
                                 f"(choices {p.options})")
        qty = line.get("qty", 1)
        if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= st.MAX_QTY:
            raise ValueError(f"{where}.qty must be an int from 1 to {st.MAX_QTY}, got {qty!r}")
        if not p.in_stock:
            raise ValueError(f"{where}.product_id: {p.name} ({p.id}) is out of stock")
        checked.append((p.id, dict(options), qty))
    for pid, options, qty in checked:
        st.add_to_cart(store, pid, options, qty)
    return cart_rows(store)


@_checked
def add_to_wishlist(store: Store, *, product_ids: list[str]) -> list[Row]:
    """Save products to the wishlist (ones already there stay where they are). Returns the
    wishlist rows after."""
    name = "add_to_wishlist"
    if not isinstance(product_ids, list) or not product_ids:
        raise ValueError(f"{name}: product_ids must be a non-empty list of product ids, "
                         f"got {product_ids!r}")
    shop = catalogue_of(store)
    ids = [_product_id(shop, name, f"product_ids[{i}]", pid)
           for i, pid in enumerate(product_ids)]
    for pid in ids:
        if not st.in_wishlist(store, pid):
            store["wishlist"].append(pid)
    return wishlist_rows(store)


@_checked
def add_address(store: Store, *, name: str, street: str, city: str, state: str, zip: str,
                label: str = "Other", make_default: bool = False) -> Row:
    """Save a shipping address (optionally the new default). Returns its
    ``shopping/addresses`` row, with the new ``_id``."""
    fixture = "add_address"
    clean = _address_fields(fixture, name=name, street=street, city=city, state=state, zip=zip)
    label = _text(fixture, "label", label).strip()
    if not label:
        raise ValueError(f"{fixture}: label is empty")
    if not isinstance(make_default, bool):
        raise ValueError(f"{fixture}: make_default must be True or False, "
                         f"got {make_default!r}")
    a = st.add_address(store, **clean, label=label, make_default=make_default)
    return next(r for r in addresses_rows(store) if r["_id"] == a["id"])


@_checked
def ship_order_to(store: Store, *, order_id: str, name: str, street: str, city: str,
                  state: str, zip: str) -> Row:
    """Change where a past order ships (or shipped) to, e.g. to make a delivered order a gift
    to a contact. Returns the order's ``shopping/orders`` row."""
    fixture = "ship_order_to"
    if not isinstance(order_id, str) or st.find_order(store, order_id) is None:
        have = [o["id"] for o in store["orders"]]
        raise ValueError(f"{fixture}: order_id {order_id!r} is not an order; have {have}")
    clean = _address_fields(fixture, name=name, street=street, city=city, state=state, zip=zip)
    o = st.ship_order_to(store, order_id, clean)
    return _order_row(catalogue_of(store), o)


FIXTURES: dict[str, Callable[..., Any]] = {
    "add_to_cart": add_to_cart,
    "add_to_wishlist": add_to_wishlist,
    "add_address": add_address,
    "ship_order_to": ship_order_to,
}
