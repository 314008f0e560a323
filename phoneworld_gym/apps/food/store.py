"""Food delivery data: the restaurants of the owner's city (the fixed catalogue with a seeded
overlay), the cart, orders, favourites, the owner's two delivery addresses and payment cards.

The store is plain JSON::

    {"city", "owner", "addresses": {"Home": str, "Work": str}, "cards": [str],
     "restaurants": [{id, name, cuisine, rating, reviews, eta_min, eta_max, fee, address,
                      open, opens, sold_out: [dish ids]}],
     "cart": {"restaurant": id | None, "lines": [{id, dish, size, extras, qty}]},
     "orders": [{id, number, restaurant, lines: [{id, dish, name, size, extras, qty, unit}],
                 subtotal, fee, tip, total, address_label, address, payment, status,
                 placed, eta}],
     "favorites": [restaurant ids], "next_line", "next_order", "next_item"}

Statuses are ``Preparing`` (a new order stays so: nothing moves an order on),
``On the way``, ``Delivered`` and ``Cancelled``; ``placed`` and ``eta`` are ISO times. The
past orders and the one on its way are generated around the phone's start clock
(``life.now``, by default Saturday 2026-03-14 10:30); a new order is placed at the running
clock's time. The tables
(:func:`restaurant_rows` ... :func:`favorite_rows`) are PhoneWorld-only: a delivery app keeps
its data private.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.apps.food.catalogue import RESTAURANTS, SIZES, Dish, dish_id, restaurant_id
from phoneworld_gym.life import STREETS, Life

TIPS: tuple[float, ...] = (0.0, 2.0, 3.0, 5.0)
DEFAULT_TIP = 3.0
FEES: tuple[float, ...] = (0.0, 0.99, 1.49, 1.99, 2.49, 2.99, 3.99)
STATUSES: tuple[str, ...] = ("Preparing", "On the way", "Delivered", "Cancelled")
#: the tracking steps a live order goes through
STEPS: tuple[str, ...] = ("Order placed", "Preparing", "On the way", "Delivered")
MAX_QTY = 20


# -- catalogue lookups ---------------------------------------------------------------------------
def dish(did: int) -> tuple[int, Dish]:
    """(restaurant id, dish) of a dish id; ``KeyError`` for an unknown one."""
    r, j = divmod(int(did), 100)
    if not 1 <= r <= len(RESTAURANTS) or not 1 <= j <= len(RESTAURANTS[r - 1].menu):
        raise KeyError(f"no dish with id {did!r}")
    return r, RESTAURANTS[r - 1].menu[j - 1]


def restaurant(st: dict[str, Any], rid: Any) -> dict[str, Any] | None:
    return next((r for r in st["restaurants"] if r["id"] == rid), None)


def dishes(rid: int) -> list[tuple[int, Dish]]:
    """(dish id, dish) of a restaurant's menu, in menu order."""
    return [(dish_id(rid - 1, j), d) for j, d in enumerate(RESTAURANTS[rid - 1].menu)]


def extras_of(rid: int, d: Dish) -> tuple[tuple[str, float], ...]:
    """The extras that can be added to a dish (none for most sides and drinks)."""
    return RESTAURANTS[rid - 1].extras if d.extras else ()


def unit_price(did: int, size: str, extras: list[str]) -> float:
    """A dish's price with its size and extras; ``ValueError`` naming a choice it does not
    offer."""
    rid, d = dish(did)
    sizes = dict(SIZES[d.sizes])
    if sizes and size not in sizes:
        raise ValueError(f"size must be one of {list(sizes)} for {d.name}, got {size!r}")
    if not sizes and size:
        raise ValueError(f"{d.name} comes in one size, got size {size!r}")
    offered = dict(extras_of(rid, d))
    bad = [e for e in extras if e not in offered]
    if bad:
        raise ValueError(f"extras must be among {list(offered)} for {d.name}, got {bad}")
    return round(d.price + sizes.get(size, 0.0) + sum(offered[e] for e in extras), 2)


def default_size(d: Dish) -> str:
    return SIZES[d.sizes][0][0] if SIZES[d.sizes] else ""


def money(v: float) -> str:
    return f"${v:,.2f}"


def clock(t: dt.datetime) -> str:
    """"11:05 AM"."""
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'PM' if t.hour >= 12 else 'AM'}"


def line_options(size: str, extras: list[str]) -> str:
    """"Large, Extra cheese, Olives": what a cart or order line shows under its name."""
    return ", ".join([s for s in [size] if s] + list(extras))


# -- generation ----------------------------------------------------------------------------------
def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Eight restaurants in the owner's city with seeded ratings, delivery times, fees and
    addresses; one of them closed until the evening and three dishes sold out elsewhere; one
    or two favourites; four to six delivered orders over the past weeks and one order on its
    way now; an empty cart."""
    home = life.owner.home if life.owner.home is not None else life.work
    st: dict[str, Any] = {
        "city": home.city, "owner": life.owner.name,
        "addresses": {"Home": home.one_line(), "Work": life.work.one_line()},
        "cards": [f"Visa •••• {int(rng.integers(1000, 9999))}",
                  f"Mastercard •••• {int(rng.integers(1000, 9999))}"],
        "restaurants": [], "cart": {"restaurant": None, "lines": []}, "orders": [],
        "favorites": [], "next_line": 1, "next_order": 1, "next_item": 1,
    }
    streets = rng.permutation(len(STREETS))
    closed = int(rng.integers(len(RESTAURANTS)))
    for i, r in enumerate(RESTAURANTS):
        lo = int(rng.choice([15, 20, 25, 30, 35]))
        st["restaurants"].append({
            "id": restaurant_id(i), "name": r.name, "cuisine": r.cuisine,
            "rating": round(float(rng.uniform(3.8, 4.9)), 1),
            "reviews": int(rng.integers(40, 2400)), "eta_min": lo, "eta_max": lo + 10,
            "fee": float(FEES[int(rng.integers(len(FEES)))]),
            "address": f"{int(rng.integers(2, 480))} {STREETS[int(streets[i])]}, {home.city}, "
                       f"{home.state} {home.zip}",
            "open": i != closed, "opens": "5:00 PM" if i == closed else "",
            "sold_out": []})
    open_ids = [r["id"] for r in st["restaurants"] if r["open"]]
    for k in rng.choice(len(open_ids), size=3, replace=False):
        rid = open_ids[int(k)]
        menu = dishes(rid)
        st["restaurants"][rid - 1]["sold_out"].append(menu[int(rng.integers(len(menu)))][0])
    st["favorites"] = sorted(int(open_ids[int(k)]) for k in
                             rng.choice(len(open_ids), size=int(rng.integers(1, 3)),
                                        replace=False))
    _seed_orders(rng, st, life.now)
    return st


def _random_line(rng: np.random.Generator, rid: int, avoid: list[int]) -> dict[str, Any]:
    menu = [(did, d) for did, d in dishes(rid) if did not in avoid]
    did, d = menu[int(rng.integers(len(menu)))]
    sizes = SIZES[d.sizes]
    size = sizes[int(rng.integers(len(sizes)))][0] if sizes else ""
    offered = extras_of(rid, d)
    extras = [offered[int(rng.integers(len(offered)))][0]] \
        if offered and rng.random() < 0.4 else []
    return {"dish": did, "size": size, "extras": extras, "qty": int(rng.integers(1, 3))}


def _seed_orders(rng: np.random.Generator, st: dict[str, Any], now: dt.datetime) -> None:
    """Delivered orders from the past weeks before ``now`` (at most one per restaurant, so "my
    last order from X" is one order) and one from another restaurant on its way ``now``."""
    open_ids = [r["id"] for r in st["restaurants"] if r["open"]]
    picks = [int(open_ids[int(k)]) for k in rng.permutation(len(open_ids))]
    n_past = int(rng.integers(4, 7))
    days = sorted((int(d) for d in rng.choice(np.arange(2, 40), size=n_past, replace=False)),
                  reverse=True)
    numbers = [int(x) for x in rng.choice(np.arange(1000, 9999), size=n_past + 1,
                                          replace=False)]
    for k, day in enumerate(days):
        rid = picks[k]
        placed = (now - dt.timedelta(days=day)).replace(hour=int(rng.integers(11, 21)),
                                                        minute=int(rng.choice([5, 20, 35, 50])))
        lines = [_random_line(rng, rid, [])]
        if rng.random() < 0.6:
            lines.append(_random_line(rng, rid, [lines[0]["dish"]]))
        _add_order(st, rid, lines, address_label=("Home", "Work")[int(rng.random() < 0.3)],
                   payment=st["cards"][int(rng.integers(2))], tip=TIPS[int(rng.integers(1, 4))],
                   placed=placed, status="Delivered", number=str(numbers[k]))
    live = picks[n_past]
    placed = now - dt.timedelta(minutes=int(rng.integers(12, 22)))
    _add_order(st, live, [_random_line(rng, live, [])], address_label="Home",
               payment=st["cards"][0], tip=DEFAULT_TIP, placed=placed, status="On the way",
               number=str(numbers[-1]))


def _add_order(st: dict[str, Any], rid: int, lines: list[dict[str, Any]], *, address_label: str,
               payment: str, tip: float, placed: dt.datetime, status: str,
               number: str) -> dict[str, Any]:
    r = restaurant(st, rid)
    assert r is not None
    items = []
    for ln in lines:
        _, d = dish(ln["dish"])
        items.append({"id": st["next_item"], "dish": ln["dish"], "name": d.name,
                      "size": ln["size"], "extras": list(ln["extras"]), "qty": int(ln["qty"]),
                      "unit": unit_price(ln["dish"], ln["size"], ln["extras"])})
        st["next_item"] += 1
    subtotal = round(sum(i["unit"] * i["qty"] for i in items), 2)
    o = {"id": st["next_order"], "number": number, "restaurant": rid, "lines": items,
         "subtotal": subtotal, "fee": r["fee"], "tip": float(tip),
         "total": round(subtotal + r["fee"] + tip, 2), "address_label": address_label,
         "address": st["addresses"][address_label], "payment": payment, "status": status,
         "placed": placed.isoformat(timespec="minutes"),
         "eta": (placed + dt.timedelta(minutes=r["eta_max"])).isoformat(timespec="minutes")}
    st["next_order"] += 1
    st["orders"].append(o)
    return o


# -- the cart ------------------------------------------------------------------------------------
def cart_count(st: dict[str, Any]) -> int:
    return sum(ln["qty"] for ln in st["cart"]["lines"])


def cart_subtotal(st: dict[str, Any]) -> float:
    return round(sum(unit_price(ln["dish"], ln["size"], ln["extras"]) * ln["qty"]
                     for ln in st["cart"]["lines"]), 2)


def add_line(st: dict[str, Any], did: int, size: str, extras: list[str], qty: int) -> None:
    """Add a dish to the cart (the same dish with the same choices adds up on one line).
    ``ValueError`` when the cart holds another restaurant's dishes, the restaurant is closed,
    the dish is sold out, a choice is not offered or the quantity is not 1..20; nothing
    changes then."""
    rid, d = dish(did)
    r = restaurant(st, rid)
    assert r is not None
    unit_price(did, size, extras)  # checks the choices
    if not isinstance(qty, int) or isinstance(qty, bool) or not 1 <= qty <= MAX_QTY:
        raise ValueError(f"qty must be 1..{MAX_QTY}, got {qty!r}")
    if not r["open"]:
        raise ValueError(f"{r['name']} is closed until {r['opens']}")
    if did in r["sold_out"]:
        raise ValueError(f"{d.name} is sold out")
    cart = st["cart"]
    if cart["restaurant"] not in (None, rid):
        raise ValueError("the cart holds another restaurant's dishes")
    ordered = [e for e, _ in extras_of(rid, d) if e in extras]
    for ln in cart["lines"]:
        if ln["dish"] == did and ln["size"] == size and ln["extras"] == ordered:
            ln["qty"] = min(MAX_QTY, ln["qty"] + qty)
            return
    cart["restaurant"] = rid
    cart["lines"].append({"id": st["next_line"], "dish": did, "size": size, "extras": ordered,
                          "qty": qty})
    st["next_line"] += 1


def set_qty(st: dict[str, Any], line_id: int, qty: int) -> None:
    """Change a cart line's quantity; 0 removes it (and an empty cart forgets its
    restaurant)."""
    cart = st["cart"]
    if qty <= 0:
        cart["lines"] = [ln for ln in cart["lines"] if ln["id"] != line_id]
    else:
        for ln in cart["lines"]:
            if ln["id"] == line_id:
                ln["qty"] = min(MAX_QTY, qty)
    if not cart["lines"]:
        cart["restaurant"] = None


def clear_cart(st: dict[str, Any]) -> None:
    st["cart"] = {"restaurant": None, "lines": []}


def place_order(st: dict[str, Any], address_label: str, payment: str, tip: float,
                now: str) -> dict[str, Any]:
    """Turn the cart into an order (status Preparing, due at now + the restaurant's longest
    delivery time) and empty the cart. ``ValueError`` for an empty cart, an unknown address,
    card or tip."""
    cart = st["cart"]
    if not cart["lines"] or cart["restaurant"] is None:
        raise ValueError("the cart is empty")
    if address_label not in st["addresses"]:
        raise ValueError(f"address must be one of {list(st['addresses'])}, got "
                         f"{address_label!r}")
    if payment not in st["cards"]:
        raise ValueError(f"payment must be one of {st['cards']}, got {payment!r}")
    if tip not in TIPS:
        raise ValueError(f"tip must be one of {TIPS}, got {tip!r}")
    taken = {o["number"] for o in st["orders"]}
    number = next(str(n) for n in range(2000 + 37 * st["next_order"], 99999)
                  if str(n) not in taken)
    o = _add_order(st, cart["restaurant"], cart["lines"], address_label=address_label,
                   payment=payment, tip=tip, placed=dt.datetime.fromisoformat(now),
                   status="Preparing", number=number)
    clear_cart(st)
    return o


def order(st: dict[str, Any], oid: Any) -> dict[str, Any] | None:
    return next((o for o in st["orders"] if o["id"] == oid), None)


def reorder(st: dict[str, Any], oid: int) -> None:
    """Put a past order's dishes (with their choices) into an emptied cart; dishes sold out
    today are left out. ``ValueError`` when the restaurant is closed or every dish is sold
    out."""
    o = order(st, oid)
    if o is None:
        raise ValueError(f"no order with id {oid!r}")
    r = restaurant(st, o["restaurant"])
    assert r is not None
    if not r["open"]:
        raise ValueError(f"{r['name']} is closed until {r['opens']}")
    lines = [ln for ln in o["lines"] if ln["dish"] not in r["sold_out"]]
    if not lines:
        raise ValueError("every dish of this order is sold out today")
    clear_cart(st)
    for ln in lines:
        add_line(st, ln["dish"], ln["size"], list(ln["extras"]), ln["qty"])


# -- tables --------------------------------------------------------------------------------------
def restaurant_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``food/restaurants`` (static): one row per restaurant."""
    return [{"_id": r["id"], "name": r["name"], "cuisine": r["cuisine"], "rating": r["rating"],
             "reviews": r["reviews"], "delivery_min": r["eta_min"],
             "delivery_max": r["eta_max"], "delivery_fee": r["fee"], "address": r["address"],
             "is_open": int(r["open"]), "opens": r["opens"]} for r in st["restaurants"]]


def menu_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``food/menu`` (static): every dish with its base price, whether it is sold out today,
    and its sizes and extras (comma-separated)."""
    out = []
    for r in st["restaurants"]:
        for did, d in dishes(r["id"]):
            out.append({"_id": did, "restaurant_id": r["id"], "name": d.name,
                        "category": d.category, "price": d.price,
                        "sold_out": int(did in r["sold_out"]),
                        "sizes": ", ".join(s for s, _ in SIZES[d.sizes]),
                        "extras": ", ".join(e for e, _ in extras_of(r["id"], d))})
    return out


def option_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``food/options`` (static): every size and extra a dish offers, with what it adds to
    the dish's price (``kind`` "size" or "extra"; ``_id`` is the dish's id times 100 plus
    the option's place)."""
    out = []
    for r in st["restaurants"]:
        for did, d in dishes(r["id"]):
            opts = [("size", n, p) for n, p in SIZES[d.sizes]] + \
                   [("extra", n, p) for n, p in extras_of(r["id"], d)]
            out += [{"_id": did * 100 + k + 1, "dish_id": did, "kind": kind, "name": n,
                     "price": p} for k, (kind, n, p) in enumerate(opts)]
    return out


def cart_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``food/cart``: one row per cart line."""
    out = []
    for ln in st["cart"]["lines"]:
        rid, d = dish(ln["dish"])
        out.append({"_id": ln["id"], "restaurant_id": rid, "dish_id": ln["dish"],
                    "name": d.name, "size": ln["size"], "extras": ", ".join(ln["extras"]),
                    "quantity": ln["qty"],
                    "unit_price": unit_price(ln["dish"], ln["size"], ln["extras"])})
    return out


def order_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``food/orders``: one row per order (``placed``/``eta`` ISO times, ``eta_text`` as the
    app shows it: "11:05 AM")."""
    out = []
    for o in st["orders"]:
        r = restaurant(st, o["restaurant"])
        out.append({"_id": o["id"], "number": o["number"], "restaurant_id": o["restaurant"],
                    "restaurant": r["name"] if r else "", "subtotal": o["subtotal"],
                    "delivery_fee": o["fee"], "tip": o["tip"], "total": o["total"],
                    "address_label": o["address_label"], "address": o["address"],
                    "payment": o["payment"], "status": o["status"], "placed": o["placed"],
                    "eta": o["eta"],
                    "eta_text": clock(dt.datetime.fromisoformat(o["eta"]))})
    return out


def order_item_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``food/order_items``: the lines of every order."""
    return [{"_id": ln["id"], "order_id": o["id"], "dish_id": ln["dish"], "name": ln["name"],
             "size": ln["size"], "extras": ", ".join(ln["extras"]), "quantity": ln["qty"],
             "unit_price": ln["unit"]} for o in st["orders"] for ln in o["lines"]]


def favorite_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``food/favorites``: the saved restaurants (``_id`` is the restaurant's)."""
    return [{"_id": rid, "name": RESTAURANTS[rid - 1].name} for rid in st["favorites"]]


# -- fixtures ------------------------------------------------------------------------------------
def add_to_cart_fixture(st: dict[str, Any], name: Any = None, size: Any = "",
                        extras: Any = (), qty: Any = 1) -> dict[str, Any]:
    """Setup routine: put ``qty`` of the dish called ``name`` (with ``size``, the dish's
    first size when empty, and ``extras``) in the cart. Returns its cart line (``_id``,
    ``name``); a bad argument raises ``ValueError`` naming it and changes nothing."""
    hits = [did for r in st["restaurants"] for did, d in dishes(r["id"]) if d.name == name]
    if not isinstance(name, str) or len(hits) != 1:
        raise ValueError(f"add_to_cart: name must name one dish on a menu, got {name!r}")
    if not isinstance(size, str):
        raise ValueError(f"add_to_cart: size must be a string, got {size!r}")
    if not isinstance(extras, (list, tuple)) or not all(isinstance(e, str) for e in extras):
        raise ValueError(f"add_to_cart: extras must be a list of names, got {extras!r}")
    _, d = dish(hits[0])
    try:
        add_line(st, hits[0], size or default_size(d), list(extras), qty)
    except ValueError as e:
        raise ValueError(f"add_to_cart: {e}") from None
    line = next(ln for ln in st["cart"]["lines"] if ln["dish"] == hits[0])
    return {"_id": line["id"], "name": d.name}
