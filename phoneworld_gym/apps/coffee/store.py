"""Coffee data: the menu (static per episode), the pickup shop, and the orders.

An order is ``{"id", "number", "drink", "size", "milk", "syrup", "price", "status",
"date"}``; the ``number`` ("A-417") is what the counter calls out. Some drinks of the menu
take a syrup (``syrups`` true: which ones varies with the seed), the others none. Tasks read
the orders as ``coffee/orders`` and the menu as ``coffee/menu``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

#: (name, medium price, description)
DRINKS: tuple[tuple[str, float, str], ...] = (
    ("Latte", 4.50, "Espresso with steamed milk"),
    ("Cappuccino", 4.25, "Espresso, steamed milk and foam"),
    ("Flat White", 4.40, "Ristretto with velvety milk"),
    ("Americano", 3.25, "Espresso topped with hot water"),
    ("Mocha", 4.90, "Espresso, chocolate and milk"),
    ("Chai Latte", 4.60, "Spiced black tea with milk"),
    ("Matcha Latte", 5.10, "Green tea whisked with milk"),
    ("Cold Brew", 4.00, "Slow-steeped for 18 hours"),
)
SIZES: tuple[tuple[str, float], ...] = (("Small", -0.50), ("Medium", 0.0), ("Large", 0.70))
MILKS: tuple[tuple[str, float], ...] = (("Whole milk", 0.0), ("Oat milk", 0.60),
                                        ("Almond milk", 0.60), ("No milk", 0.0))
#: the syrups a drink with ``syrups`` offers ("No syrup" the default)
SYRUPS: tuple[tuple[str, float], ...] = (("No syrup", 0.0), ("Caramel", 0.50),
                                         ("Vanilla", 0.50), ("Hazelnut", 0.50))
SHOPS: tuple[str, ...] = ("Market Square", "Station Road", "Riverside", "Old Town")


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """The menu's prices (a seeded few cents on the base), the nearest shop, one or two past
    orders (days before ``life.today``), the next order number and the three to five drinks
    that take a syrup."""
    city = life.owner.home.city if life.owner.home else life.work.city
    menu: list[dict[str, Any]] = [
        {"id": i + 1, "name": n, "price": round(p + 0.05 * int(rng.integers(0, 4)), 2),
         "about": about, "syrups": False} for i, (n, p, about) in enumerate(DRINKS)]
    shop = f"Bean There {SHOPS[int(rng.integers(len(SHOPS)))]}, {city}"
    store: dict[str, Any] = {"menu": menu, "shop": shop, "orders": [], "next_id": 1,
                             "next_number": int(rng.integers(100, 800))}
    # past orders were picked up at 8:10 on a morning 2 to 19 days before the phone's start
    morning = dt.datetime.combine(life.today, dt.time(8, 10))
    for days in sorted(rng.choice(np.arange(2, 20), size=int(rng.integers(1, 3)),
                                  replace=False), reverse=True):
        d = menu[int(rng.integers(len(menu)))]
        when = morning - dt.timedelta(days=int(days))
        place(store, d["id"], SIZES[int(rng.integers(3))][0], MILKS[int(rng.integers(4))][0],
              when.isoformat(),
              status="Picked up")
    for i in rng.choice(len(menu), size=int(rng.integers(3, 6)), replace=False):
        menu[int(i)]["syrups"] = True
    return store


def drink(store: dict[str, Any], drink_id: int) -> dict[str, Any]:
    d = next((d for d in store["menu"] if d["id"] == drink_id), None)
    if d is None:
        raise ValueError(f"no drink with id {drink_id!r}")
    return d


def price(store: dict[str, Any], drink_id: int, size: str, milk: str,
          syrup: str = "No syrup") -> float:
    """The price of a drink in a size with a milk and a syrup (``ValueError`` naming a bad
    option, or a syrup on a drink that takes none)."""
    sizes, milks, syrups = dict(SIZES), dict(MILKS), dict(SYRUPS)
    if size not in sizes:
        raise ValueError(f"size must be one of {sorted(sizes)}, got {size!r}")
    if milk not in milks:
        raise ValueError(f"milk must be one of {sorted(milks)}, got {milk!r}")
    d = drink(store, drink_id)
    if syrup not in syrups or (syrup != "No syrup" and not d["syrups"]):
        raise ValueError(f"no syrup {syrup!r} for {d['name']}")
    return round(d["price"] + sizes[size] + milks[milk] + syrups[syrup], 2)


def place(store: dict[str, Any], drink_id: int, size: str, milk: str, when: str,
          status: str = "Preparing", syrup: str = "No syrup") -> dict[str, Any]:
    """Pay for one drink: a new order with the next number."""
    order = {"id": store["next_id"], "number": f"A-{store['next_number']}",
             "drink": drink(store, drink_id)["name"], "size": size, "milk": milk,
             "syrup": syrup, "price": price(store, drink_id, size, milk, syrup),
             "status": status, "date": when}
    store["orders"].append(order)
    store["next_id"] += 1
    store["next_number"] += 1
    return order


def order(store: dict[str, Any], order_id: int) -> dict[str, Any] | None:
    return next((o for o in store["orders"] if o["id"] == order_id), None)


def summary(o: dict[str, Any], shop: str) -> str:
    """What "Share to chat" sends: "Order A-417: Large Latte, Oat milk ($5.80), pickup at ..."
    (", Vanilla syrup" after the milk when it has one)."""
    syrup = f", {o['syrup']} syrup" if o["syrup"] != "No syrup" else ""
    return (f"Order {o['number']}: {o['size']} {o['drink']}, {o['milk']}{syrup} "
            f"(${o['price']:.2f}), pickup at {shop}")


def order_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": o["id"], **{k: o[k] for k in ("number", "drink", "size", "milk", "syrup",
                                                   "price", "status", "date")}}
            for o in store["orders"]]


def menu_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": d["id"], "name": d["name"], "price": d["price"], "syrups": d["syrups"]}
            for d in store["menu"]]
