"""Shopping seen from outside, as tasks see it: its tables, its fixtures and its screens.

The catalogue is priced anew every episode (a seeded variant); the shopper is the owner of the
episode's life; every change, through a fixture or the UI, shows in the tables."""

from __future__ import annotations

import json

import pytest

from phoneworld_gym import life as life_mod
from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, tap, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.world import DEFAULT_CLOCK

COLUMNS = {
    "shopping/products": {"_id", "name", "brand", "category", "price", "list_price", "rating",
                          "review_count", "in_stock", "options", "description", "reviews"},
    "shopping/cart": {"_id", "product_id", "name", "options", "qty", "price", "position"},
    "shopping/wishlist": {"_id", "name", "position"},
    "shopping/orders": {"_id", "date", "status", "items", "address", "delivery", "payment",
                        "subtotal", "shipping", "total", "return_reason"},
    "shopping/addresses": {"_id", "label", "name", "street", "city", "state", "zip",
                           "is_default"},
    "shopping/payments": {"_id", "label", "is_default"},
    "shopping/account": {"_id", "name", "email"},
}
ORDER_ITEM = {"product_id", "name", "options", "qty", "price", "returned"}
ADDRESS = {"name", "street", "city", "state", "zip"}
CENTS = {0.99, 0.49, 0.95, 0.0}
ADDR = {"name": "Dana Fox", "street": "7 Quarry Lane", "city": "Duluth", "state": "mn",
        "zip": "55802"}


def make(seed: int = 0) -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=["shopping", "contacts"])
    d.reset(seed)
    return d


@pytest.fixture
def device() -> PhoneWorldDevice:
    return make(0)


def products(d: PhoneWorldDevice) -> dict[str, dict]:
    return {r["_id"]: r for r in d.probe.query("shopping/products")}


def is_flag(v: object) -> bool:
    return type(v) is int and v in (0, 1)


# -- tables
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tables_have_the_documented_columns(seed):
    d = make(seed)
    p = next(p for p in d.probe.query("shopping/products") if p["in_stock"])
    d.fixture("shopping", "add_to_cart", lines=[{"product_id": p["_id"], "options": {
        k: v[0] for k, v in p["options"].items()}}])
    assert set(COLUMNS) - {"shopping/products"} <= set(d.probe.tables())
    assert "shopping/products" not in list(d.probe.snapshot())  # static: not in damage checks
    for table, cols in COLUMNS.items():
        rows = d.probe.query(table)
        assert rows, table
        json.dumps(rows)  # JSON data
        ids = [r["_id"] for r in rows]
        assert len(set(ids)) == len(ids), table
        for r in rows:
            assert set(r) == cols, (table, r)
        assert d.probe.query(table) == rows  # stable order
    ps = d.probe.query("shopping/products")
    assert [p["_id"] for p in ps] == [f"P{i:04d}" for i in range(1, 221)]
    for p in ps:
        assert is_flag(p["in_stock"])
        assert p["list_price"] is None or p["list_price"] > p["price"]
        assert isinstance(p["options"], dict) and p["reviews"]
        assert all(set(rv) == {"author", "stars", "text"} for rv in p["reviews"])
    for r in d.probe.query("shopping/cart"):
        p = products(d)[r["product_id"]]
        assert r["price"] == p["price"] and r["name"] == p["name"]
        assert r["_id"].split("|")[0] == r["product_id"]
    assert [r["position"] for r in d.probe.query("shopping/cart")] == \
        list(range(len(d.probe.query("shopping/cart"))))
    for o in d.probe.query("shopping/orders"):
        assert set(o["address"]) == ADDRESS
        assert all(set(it) == ORDER_ITEM and is_flag(it["returned"]) for it in o["items"])
        assert o["total"] == round(o["subtotal"] + o["shipping"], 2)
    for table in ("shopping/addresses", "shopping/payments"):
        flags = [r["is_default"] for r in d.probe.query(table)]
        assert all(is_flag(f) for f in flags) and sum(flags) == 1, table
    assert d.probe.query("shopping/account")[0]["_id"] == "me"


def test_shopper_is_the_owner_of_the_life():
    for seed in range(8):
        d = make(seed)
        life = life_mod.generate(seed)
        owner = life.owner
        assert owner.home is not None
        assert d.probe.query("shopping/account") == [
            {"_id": "me", "name": owner.name, "email": owner.email}]
        addrs = {a["label"]: a for a in d.probe.query("shopping/addresses")}
        for label, where in (("Home", owner.home), ("Work", life.work)):
            a = addrs[label]
            assert a["name"] == owner.name
            assert (a["street"], a["city"], a["state"], a["zip"]) == \
                (where.street, where.city, where.state, where.zip)
        assert addrs["Home"]["is_default"] == 1


def test_order_history_varies_and_keeps_its_shape():
    counts, firsts = set(), set()
    for seed in range(30):
        orders = make(seed).probe.query("shopping/orders")
        counts.add(len(orders))
        firsts.add(tuple(it["product_id"] for it in orders[0]["items"]))
        statuses = [o["status"] for o in orders]
        assert 5 <= len(orders) <= 8
        assert statuses.count("Processing") >= 1 and statuses.count("Shipped") >= 1
        assert statuses.count("Delivered") >= 2 and statuses.count("Cancelled") >= 1
        dates = [o["date"] for o in orders]
        assert dates == sorted(dates) and len(set(dates)) == len(dates)
        assert all(dt <= DEFAULT_CLOCK for dt in dates)
    assert len(counts) >= 3 and len(firsts) >= 25


# -- the seeded catalogue
def test_catalogue_differs_between_seeds():
    tables = [products(make(seed)) for seed in range(10)]
    varies = {k: 0 for k in ("price", "in_stock", "rating", "review_count")}
    for pid in tables[0]:
        for k in varies:
            varies[k] += len({t[pid][k] for t in tables}) > 1
        # what a product is does not change
        assert len({(t[pid]["name"], t[pid]["category"], json.dumps(t[pid]["options"]),
                     t[pid]["description"], json.dumps(t[pid]["reviews"]))
                    for t in tables}) == 1
    assert varies["price"] >= 200 and varies["rating"] >= 150
    assert varies["review_count"] >= 200 and varies["in_stock"] >= 50
    for t in tables:
        for p in t.values():
            assert round(p["price"] % 1, 2) in CENTS and p["price"] >= 1
            assert 1.5 <= p["rating"] <= 4.9 and round(p["rating"], 1) == p["rating"]
        deals = sum(p["list_price"] is not None for p in t.values())
        out = sum(not p["in_stock"] for p in t.values())
        assert 30 <= deals <= 80 and 3 <= out <= 30


def test_cheapest_in_a_category_changes_with_the_seed():
    """The answer to "the cheapest X in stock" (which product, at what price) is not a
    constant a model could learn: prices move by a factor of about 0.75..1.3 per episode."""
    answers: dict[str, set[tuple[str, float]]] = {c: set() for c in cat.CATEGORY_NAMES}
    d = PhoneWorldDevice(apps=["shopping"])
    for seed in range(100):
        d.reset(seed)
        ps = d.probe.query("shopping/products")
        for c in cat.CATEGORY_NAMES:
            best = min((p for p in ps if p["category"] == c and p["in_stock"]),
                       key=lambda p: (p["price"], p["_id"]))
            answers[c].add((best["_id"], best["price"]))
    # distinct (product, price) answers, and more than one product that wins
    assert max(len(a) for a in answers.values()) >= 20
    assert max(len({pid for pid, _ in a}) for a in answers.values()) >= 3


def test_same_seed_same_catalogue_in_two_devices():
    a, b = make(7), make(7)
    assert a.probe.query("shopping/products") == b.probe.query("shopping/products")
    assert a.probe.snapshot() == b.probe.snapshot()
    assert make(8).probe.query("shopping/products") != a.probe.query("shopping/products")


def test_no_module_level_catalogue_to_use_by_accident():
    for name in ("products", "product", "search", "deals", "recommended", "in_category",
                 "by_name"):
        assert not hasattr(cat, name), name


# -- fixtures
def changed(before: dict, after: dict) -> set[str]:
    return {t for t in before if before[t] != after[t]}


def in_stock(d: PhoneWorldDevice, with_options: bool, nth: int = 0) -> dict:
    cart = {r["product_id"] for r in d.probe.query("shopping/cart")}
    wish = {r["_id"] for r in d.probe.query("shopping/wishlist")}
    ps = [p for p in products(d).values() if p["in_stock"] and bool(p["options"]) ==
          with_options and p["_id"] not in cart | wish]
    return ps[nth]


def test_add_to_cart_fixture_changes_only_the_cart(device):
    d = device
    plain, fancy = in_stock(d, False), in_stock(d, True)
    opts = {k: v[-1] for k, v in fancy["options"].items()}
    before = d.probe.snapshot()
    rows = d.fixture("shopping", "add_to_cart", lines=[
        {"product_id": plain["_id"], "options": {}, "qty": 2},
        {"product_id": fancy["_id"], "options": opts, "qty": 1}])
    after = d.probe.snapshot()
    assert changed(before, after) == {"shopping/cart"}
    assert rows == after["shopping/cart"]
    new = {r["product_id"]: r for r in rows}
    assert new[plain["_id"]]["qty"] == 2 and new[plain["_id"]]["price"] == plain["price"]
    assert new[plain["_id"]]["_id"] == plain["_id"]
    assert new[fancy["_id"]]["options"] == opts
    assert new[fancy["_id"]]["_id"] == fancy["_id"] + "|" + ";".join(
        f"{k}={opts[k]}" for k in sorted(opts))
    # the same line again merges
    rows = d.fixture("shopping", "add_to_cart", lines=[{"product_id": plain["_id"]}])
    assert {r["product_id"]: r["qty"] for r in rows}[plain["_id"]] == 3
    assert len(rows) == len(new) + len(before["shopping/cart"])


def test_add_to_wishlist_fixture_changes_only_the_wishlist(device):
    d = device
    p = in_stock(d, True)
    before = d.probe.snapshot()
    rows = d.fixture("shopping", "add_to_wishlist", product_ids=[p["_id"]])
    after = d.probe.snapshot()
    assert changed(before, after) == {"shopping/wishlist"}
    assert rows == after["shopping/wishlist"]
    assert rows[-1] == {"_id": p["_id"], "name": p["name"], "position": len(rows) - 1}


@pytest.mark.parametrize("make_default", [False, True])
def test_add_address_fixture_changes_only_the_addresses(device, make_default):
    d = device
    before = d.probe.snapshot()
    row = d.fixture("shopping", "add_address", **ADDR, label="Gift",
                    make_default=make_default)
    after = d.probe.snapshot()
    assert changed(before, after) == {"shopping/addresses"}
    assert row == after["shopping/addresses"][-1]
    assert row == {"_id": 3, "label": "Gift", **ADDR, "state": "MN",
                   "is_default": int(make_default)}
    assert sum(a["is_default"] for a in after["shopping/addresses"]) == 1


def test_ship_order_to_fixture_changes_only_that_order(device):
    d = device
    delivered = next(o for o in d.probe.query("shopping/orders") if o["status"] == "Delivered")
    before = d.probe.snapshot()
    row = d.fixture("shopping", "ship_order_to", order_id=delivered["_id"], **ADDR)
    after = d.probe.snapshot()
    assert changed(before, after) == {"shopping/orders"}
    assert row["address"] == {**ADDR, "state": "MN"}
    assert row == next(o for o in after["shopping/orders"] if o["_id"] == delivered["_id"])
    others = [o for o in after["shopping/orders"] if o["_id"] != delivered["_id"]]
    assert others == [o for o in before["shopping/orders"] if o["_id"] != delivered["_id"]]


BAD = [
    ("add_to_cart", {}),
    ("add_to_cart", {"lines": []}),
    ("add_to_cart", {"lines": "P0001"}),
    ("add_to_cart", {"lines": [{"product_id": "P9999"}]}),
    ("add_to_cart", {"lines": [{"product_id": "<plain>", "qty": 0}]}),
    ("add_to_cart", {"lines": [{"product_id": "<plain>", "qty": "2"}]}),
    ("add_to_cart", {"lines": [{"product_id": "<plain>", "colour": "Red"}]}),
    ("add_to_cart", {"lines": [{"product_id": "<fancy>", "options": {}}]}),
    ("add_to_cart", {"lines": [{"product_id": "<fancy>", "options": {"Flavour": "x"}}]}),
    ("add_to_cart", {"lines": [{"product_id": "<plain>"}, {"product_id": "<gone>"}]}),
    ("add_to_cart", {"lines": [{"product_id": "<plain>"}], "extra": 1}),
    ("add_to_wishlist", {"product_ids": ["P0000"]}),
    ("add_to_wishlist", {"product_ids": "P0001"}),
    ("add_to_wishlist", {"ids": ["P0001"]}),
    ("add_address", {**ADDR, "zip": "5580"}),
    ("add_address", {**ADDR, "name": "  "}),
    ("add_address", {**ADDR, "city": 12}),
    ("add_address", {**ADDR, "make_default": "yes"}),
    ("add_address", {k: v for k, v in ADDR.items() if k != "street"}),
    ("ship_order_to", {"order_id": "ORD-1", **ADDR}),
    ("ship_order_to", {"order_id": "<order>", **ADDR, "zip": "ABCDE"}),
    ("ship_order_to", {"order_id": "<order>", **ADDR, "country": "US"}),
]


@pytest.mark.parametrize("name,args", BAD, ids=[f"{n}-{i}" for i, (n, _) in enumerate(BAD)])
def test_fixtures_reject_bad_args_and_change_nothing(device, name, args):
    d = device
    gone = next(p for p in products(d).values() if not p["in_stock"])
    subst = {"<plain>": in_stock(d, False)["_id"], "<fancy>": in_stock(d, True)["_id"],
             "<gone>": gone["_id"], "<order>": d.probe.query("shopping/orders")[0]["_id"]}
    text = json.dumps(args)
    for k, v in subst.items():
        text = text.replace(f'"{k}"', json.dumps(v))
    before = d.probe.snapshot()
    with pytest.raises(ValueError) as err:
        d.fixture("shopping", name, **json.loads(text))
    assert name in str(err.value)
    assert d.probe.snapshot() == before


# -- screens
def open_shopping(d: PhoneWorldDevice) -> None:
    assert d.execute(Action("open_app", app_name="Shopping")) == ""


def search(d: PhoneWorldDevice, query: str) -> None:
    assert d.execute(type_into(d, query, rid="search_bar")) == ""


def test_screens_show_the_store_catalogues_prices():
    shown = 0
    for seed in (0, 1, 2):
        d = make(seed)
        base = {p.id: p for p in cat.catalogue(0).products()}
        moved = [p for p in products(d).values()
                 if p["price"] != base[p["_id"]].price and p["category"] != "Books"]
        p = moved[seed * 7]
        open_shopping(d)
        search(d, p["name"])
        xml = d.a11y_xml()
        assert f'text="{p["name"]}"' in xml
        # the product's row, then its page, show this episode's price
        assert cat.money(p["price"]) in xml
        d.execute(tap(d, text=p["name"], rid="product_name"))
        assert find(d, rid="product_title", text=p["name"]) is not None
        assert find(d, rid="price", text=cat.money(p["price"])) is not None
        shown += 1
    assert shown == 3


def test_add_to_cart_through_the_ui_shows_in_the_cart_table(device):
    d = device
    p = in_stock(d, True, nth=3)
    before = d.probe.snapshot()
    open_shopping(d)
    search(d, p["name"])
    d.execute(tap(d, text=p["name"], rid="product_name"))
    chosen = {}
    for option, values in p["options"].items():
        d.execute(tap(d, text=values[0], rid=f"option_{option.lower()}"))
        chosen[option] = values[0]
    assert d.execute(tap(d, rid="add_to_cart")) == ""
    after = d.probe.snapshot()
    assert changed(before, after) == {"shopping/cart"}
    line = after["shopping/cart"][-1]
    assert (line["product_id"], line["options"], line["qty"], line["price"]) == \
        (p["_id"], chosen, 1, p["price"])
    # the cart screen totals the store catalogue's prices
    d.execute(tap(d, rid="action_cart"))
    total = round(sum(r["price"] * r["qty"] for r in after["shopping/cart"]), 2)
    assert find(d, rid="subtotal", text=cat.money(total)) is not None


def test_wishlist_heart_and_default_card_through_the_ui_show_in_tables(device):
    d = device
    p = in_stock(d, False)
    open_shopping(d)
    search(d, p["name"])
    d.execute(tap(d, text=p["name"], rid="product_name"))
    before = d.probe.snapshot()
    d.execute(tap(d, rid="wishlist_button"))
    after = d.probe.snapshot()
    assert changed(before, after) == {"shopping/wishlist"}
    assert after["shopping/wishlist"][-1]["_id"] == p["_id"]
    # back to Home, then Account > Payment methods > tap the second card
    for _ in range(4):
        if find(d, rid="nav_account") is None:
            d.execute(Action("navigate_back"))
    d.execute(tap(d, rid="nav_account"))
    d.execute(tap(d, text="Payment methods"))
    second = after["shopping/payments"][1]
    d.execute(tap(d, text=second["label"]))
    final = d.probe.snapshot()
    assert changed(after, final) == {"shopping/payments"}
    assert [r["is_default"] for r in final["shopping/payments"]][:2] == [0, 1]


def _range_candidates_by_scan(rows: list, in_cart: set) -> list:
    """The definition of ``range_candidates`` written as the plain scan it replaced: every
    range filters the department's rating order afresh."""
    from phoneworld_gym.tasks.shopping.more import LOWS, WIDTHS, rated_departments
    out = []
    for c, ranked_all in rated_departments(rows):
        prices = {r["price"] for r in ranked_all}
        for lo in LOWS:
            for wd in WIDTHS:
                hi = lo + wd
                if wd > max(lo, 20) * 1.5 or lo in prices or hi in prices:
                    continue
                ranked = [r for r in ranked_all if lo <= r["price"] <= hi]
                if len(ranked) < 3:
                    continue
                top, runner = ranked[0], ranked[1]
                if (top["in_stock"] and not top["options"] and top["_id"] not in in_cart
                        and top["rating"] > runner["rating"] and runner["in_stock"]
                        and top["_id"] != ranked_all[0]["_id"]):
                    out.append((c, lo, hi, top["_id"], runner["_id"]))
    return out


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_best_rated_in_range_candidates_match_the_plain_scan(seed):
    """The bisecting candidate search of ShoppingBestRatedInRange lists exactly what scanning
    every range lists, in the same order, with and without products already in the cart."""
    from phoneworld_gym.tasks.shopping.more import range_candidates
    d = make(seed)
    rows = d.probe.query("shopping/products")
    for in_cart in (set(), {r["_id"] for r in rows[::3]}):
        fast = range_candidates(rows, in_cart)
        assert fast, "no candidate ranges at all: the comparison would prove nothing"
        assert fast == _range_candidates_by_scan(rows, in_cart)
