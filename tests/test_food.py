"""What is special about the Food delivery app, through its UI: the seeded city (restaurants
in the owner's city, one closed, sold-out dishes), the options sheet pricing what it adds,
one restaurant per cart (the "Start a new cart?" question), checkout writing the address, tip
and card it shows, tracking with cancel while preparing, reorder skipping what is sold out,
the plumbing (address to Maps, share an order), and bad fixture input refused without
losing anything."""

from __future__ import annotations

import copy
import datetime as dt

import pytest

from phoneworld_gym.apps.food import store as fs
from phoneworld_gym.contract import Action
from phoneworld_gym.life import generate as make_life
from phoneworld_gym.oracle import elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import intents


def _open(seed: int = 1, apps: tuple[str, ...] = ("food",)) -> PhoneWorldDevice:
    d = PhoneWorldDevice(list(apps))
    d.reset(seed=seed)
    assert d.execute(Action("open_app", app_name="Food")) == ""
    return d


def _do(d: PhoneWorldDevice, a: Action) -> None:
    assert d.execute(a) == "", a


def _store(d: PhoneWorldDevice) -> dict:
    return d.world.stores["food"]


def _open_restaurant(d: PhoneWorldDevice, name: str) -> None:
    for a in scroll_to(d, desc=name, rid="restaurant_card"):
        _do(d, a)
    _do(d, tap(d, desc=name, rid="restaurant_card"))


def _orderable(d: PhoneWorldDevice, *, sized: bool, extras: bool,
               avoid: int = 0) -> tuple[dict, dict]:
    """(restaurant row, menu row) of a dish that can be ordered, with sizes/extras."""
    places = {r["_id"]: r for r in d.probe.query("food/restaurants")}
    for m in d.probe.query("food/menu"):
        r = places[m["restaurant_id"]]
        if r["is_open"] and not m["sold_out"] and r["_id"] != avoid \
                and bool(m["sizes"]) == sized \
                and bool(m["extras"]) == extras:
            return r, m
    raise AssertionError("no such dish")


def _option(d: PhoneWorldDevice, rid: str, name: str) -> int:
    for i, e in enumerate(elements(d)):
        if (e.resource_id or "").endswith(f"/{rid}") and \
                ((e.text or "") == name or (e.text or "").startswith(f"{name} (+")):
            return i
    raise AssertionError(f"no {rid} {name}")


# -- the seeded city -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 3])
def test_restaurants_are_in_the_owners_city_one_closed_some_dishes_sold_out(seed: int) -> None:
    d = _open(seed)
    life = make_life(seed)
    city = life.owner.home.city if life.owner.home else life.work.city
    rows = d.probe.query("food/restaurants")
    assert len(rows) == 8 and all(f", {city}, " in r["address"] for r in rows)
    closed = [r for r in rows if not r["is_open"]]
    assert len(closed) == 1 and closed[0]["opens"] == "5:00 PM"
    sold = [m for m in d.probe.query("food/menu") if m["sold_out"]]
    assert len(sold) == 3
    assert all(next(r for r in rows if r["_id"] == m["restaurant_id"])["is_open"] for m in sold)
    orders = d.probe.query("food/orders")
    assert [o["status"] for o in orders].count("On the way") == 1
    assert d.probe.query("food/cart") == []
    # the home feed lists open restaurants first and says when the closed one opens
    cards = [e.content_description for e in elements(d)
             if (e.resource_id or "").endswith("/restaurant_card")]
    assert cards[0] != closed[0]["name"]
    for a in scroll_to(d, text="Closed · Opens at 5:00 PM", rid="restaurant_closed"):
        _do(d, a)


def test_seeds_differ_in_ratings_fees_and_what_is_unavailable() -> None:
    a, b = _open(0), _open(5)
    ra, rb = a.probe.query("food/restaurants"), b.probe.query("food/restaurants")
    assert [r["name"] for r in ra] == [r["name"] for r in rb]
    assert [(r["rating"], r["delivery_fee"], r["is_open"]) for r in ra] != \
        [(r["rating"], r["delivery_fee"], r["is_open"]) for r in rb]


# -- the options sheet -----------------------------------------------------------------------------
def test_options_sheet_adds_the_size_extras_and_quantity_it_prices() -> None:
    d = _open(2)
    r, m = _orderable(d, sized=True, extras=True)
    opts = [o for o in d.probe.query("food/options") if o["dish_id"] == m["_id"]]
    size = [o for o in opts if o["kind"] == "size"][-1]
    extra = [o for o in opts if o["kind"] == "extra"][0]
    _open_restaurant(d, r["name"])
    for a in scroll_to(d, text=m["name"], rid="dish_name"):
        _do(d, a)
    _do(d, tap(d, text=m["name"], rid="dish_name"))
    assert text_of(d, rid="sheet_dish") == m["name"]
    _do(d, Action("click", index=_option(d, "size_option", size["name"])))
    _do(d, Action("click", index=_option(d, "extra_option", extra["name"])))
    _do(d, tap(d, desc="Increase quantity"))
    _do(d, tap(d, desc="Increase quantity"))
    _do(d, tap(d, desc="Decrease quantity"))
    unit = round(m["price"] + size["price"] + extra["price"], 2)
    assert text_of(d, rid="add_to_cart") == f"Add to cart · ${unit * 2:,.2f}"
    _do(d, tap(d, rid="add_to_cart"))
    cart = d.probe.query("food/cart")
    assert [(c["dish_id"], c["size"], c["extras"], c["quantity"], c["unit_price"])
            for c in cart] == [(m["_id"], size["name"], extra["name"], 2, unit)]
    i = find(d, rid="view_cart")
    assert i is not None and elements(d)[i].content_description == "View cart · 2 items"


def test_sold_out_dish_cannot_be_tapped_and_a_closed_restaurant_adds_nothing() -> None:
    d = _open(1)
    sold = next(m for m in d.probe.query("food/menu") if m["sold_out"])
    places = {r["_id"]: r for r in d.probe.query("food/restaurants")}
    _open_restaurant(d, places[sold["restaurant_id"]]["name"])
    for a in scroll_to(d, desc=f"{sold['name']}, sold out", rid="dish_row"):
        _do(d, a)
    i = find(d, desc=f"{sold['name']}, sold out", rid="dish_row")
    assert i is not None and not elements(d)[i].is_clickable
    assert d.execute(Action("click", index=i)) != ""  # nothing there to tap
    closed = next(r for r in places.values() if not r["is_open"])
    _do(d, Action("navigate_back"))
    _open_restaurant(d, closed["name"])
    assert text_of(d, rid="closed_banner") == "Closed now · Opens at 5:00 PM"
    _do(d, tap(d, rid="dish_name"))
    assert d.world.toast is not None and "closed" in d.world.toast["text"]
    assert d.world.stacks["food"][-1]["state"].get("_dialog") is None
    assert d.probe.query("food/cart") == []


def test_a_dish_from_another_restaurant_asks_before_starting_a_new_cart() -> None:
    d = _open(4)
    ra, ma = _orderable(d, sized=False, extras=False)
    rb, mb = _orderable(d, sized=True, extras=True, avoid=ra["_id"])
    d.fixture("food", "add_to_cart", name=ma["name"], qty=2)
    before = d.probe.query("food/cart")
    _open_restaurant(d, rb["name"])
    for a in scroll_to(d, text=mb["name"], rid="dish_name"):
        _do(d, a)
    _do(d, tap(d, text=mb["name"], rid="dish_name"))
    _do(d, tap(d, rid="add_to_cart"))
    assert text_of(d, rid="alertTitle") == "Start a new cart?"
    assert ra["name"] in (text_of(d, rid="message") or "")
    _do(d, tap(d, text="Cancel", rid="button1"))
    assert d.probe.query("food/cart") == before  # kept, and the sheet is back
    assert text_of(d, rid="sheet_dish") == mb["name"]
    _do(d, tap(d, rid="add_to_cart"))
    _do(d, tap(d, text="New cart", rid="button2"))
    cart = d.probe.query("food/cart")
    assert [(c["restaurant_id"], c["dish_id"], c["quantity"]) for c in cart] == \
        [(rb["_id"], mb["_id"], 1)]


# -- checkout, tracking, cancel, reorder -----------------------------------------------------------
def test_checkout_writes_the_address_tip_and_card_shown_and_tracks_the_order() -> None:
    d = _open(3)
    r, m = _orderable(d, sized=False, extras=False)
    d.fixture("food", "add_to_cart", name=m["name"], qty=3)
    st = _store(d)
    _do(d, tap(d, rid="view_cart"))
    assert text_of(d, rid="cart_subtotal") == f"${m['price'] * 3:,.2f}"
    _do(d, tap(d, rid="checkout"))
    _do(d, tap(d, desc="Work", rid="address_option"))
    _do(d, tap(d, text="$5.00", rid="tip_option"))
    _do(d, tap(d, desc=st["cards"][1], rid="card_option"))
    total = round(m["price"] * 3 + r["delivery_fee"] + 5.0, 2)
    assert text_of(d, rid="summary_total") == f"${total:,.2f}"
    _do(d, tap(d, rid="place_order"))
    new = [o for o in d.probe.query("food/orders") if o["status"] == "Preparing"]
    assert len(new) == 1
    o = new[0]
    eta = dt.datetime(2026, 3, 14, 10, 30) + dt.timedelta(minutes=r["delivery_max"])
    assert (o["restaurant_id"], o["address_label"], o["address"], o["tip"], o["payment"],
            o["total"], o["eta"]) == (r["_id"], "Work", st["addresses"]["Work"], 5.0,
                                      st["cards"][1], total, eta.isoformat(timespec="minutes"))
    items = [i for i in d.probe.query("food/order_items") if i["order_id"] == o["_id"]]
    assert [(i["dish_id"], i["quantity"]) for i in items] == [(m["_id"], 3)]
    assert d.probe.query("food/cart") == []
    # the tracking page shows the arrival time and the current step
    assert text_of(d, rid="eta") == o["eta_text"]
    steps = [e for e in elements(d) if (e.resource_id or "").endswith("/status_step")]
    assert [e.text for e in steps] == list(fs.STEPS)


def test_cancel_only_while_preparing_and_only_after_confirming() -> None:
    d = _open(2)
    r, m = _orderable(d, sized=False, extras=False)
    d.fixture("food", "add_to_cart", name=m["name"])
    _do(d, tap(d, rid="view_cart"))
    _do(d, tap(d, rid="checkout"))
    _do(d, tap(d, rid="place_order"))
    oid = next(o["_id"] for o in d.probe.query("food/orders") if o["status"] == "Preparing")
    for a in scroll_to(d, rid="cancel_order"):
        _do(d, a)
    _do(d, tap(d, rid="cancel_order"))
    _do(d, tap(d, text="Keep order", rid="button1"))
    assert next(o for o in d.probe.query("food/orders") if o["_id"] == oid)["status"] == \
        "Preparing"
    _do(d, tap(d, rid="cancel_order"))
    _do(d, tap(d, text="Cancel order", rid="button2"))
    assert next(o for o in d.probe.query("food/orders") if o["_id"] == oid)["status"] == \
        "Cancelled"
    assert find(d, rid="cancel_order") is None
    # the order already on its way offers no cancel
    _do(d, Action("navigate_back"))
    _do(d, tap(d, rid="live_order"))
    assert text_of(d, rid="order_status") == "Your order is on the way"
    assert find(d, rid="cancel_order") is None


def test_reorder_fills_the_cart_with_the_past_lines_and_skips_sold_out_ones() -> None:
    d = _open(6)
    st = _store(d)
    past = next(o for o in st["orders"] if o["status"] == "Delivered")
    r = fs.restaurant(st, past["restaurant"])
    assert r is not None
    want = [(ln["dish"], ln["size"], ", ".join(ln["extras"]), ln["qty"]) for ln in past["lines"]]
    _do(d, tap(d, desc="Orders", rid="nav_orders"))
    for a in scroll_to(d, desc=f"{r['name']}, ", rid="order_row", contains=True):
        _do(d, a)
    _do(d, tap(d, desc=f"{r['name']}, ", rid="order_row", contains=True))
    for a in scroll_to(d, rid="reorder"):
        _do(d, a)
    _do(d, tap(d, rid="reorder"))
    assert text_of(d, rid="cart_restaurant") == r["name"]
    assert sorted((c["dish_id"], c["size"], c["extras"], c["quantity"])
                  for c in d.probe.query("food/cart")) == sorted(want)
    # the same order with its first dish sold out today leaves that dish out
    st2 = copy.deepcopy(st)
    fs.restaurant(st2, past["restaurant"])["sold_out"].append(past["lines"][0]["dish"])
    fs.clear_cart(st2)
    if len(past["lines"]) > 1:
        fs.reorder(st2, past["id"])
        assert past["lines"][0]["dish"] not in [ln["dish"] for ln in st2["cart"]["lines"]]
    else:
        with pytest.raises(ValueError, match="sold out"):
            fs.reorder(st2, past["id"])


# -- plumbing --------------------------------------------------------------------------------------
def test_address_opens_maps_and_an_order_is_shared_with_its_arrival_time() -> None:
    d = _open(1, ("food", "maps", "messages"))
    r = next(x for x in d.probe.query("food/restaurants") if x["is_open"])
    _open_restaurant(d, r["name"])
    _do(d, tap(d, rid="address_row"))
    assert d.world.foreground == "maps"
    assert intents.uri_payload(d.world.stacks["maps"][-1]["args"]["uri"]) == r["address"]
    _do(d, Action("open_app", app_name="Food"))
    _do(d, Action("navigate_back"))
    _do(d, tap(d, rid="live_order"))
    eta = text_of(d, rid="eta")
    _do(d, tap(d, rid="share_order"))
    ui = d.world.system_ui
    assert ui is not None and ui["kind"] == "share" and f"arriving at {eta}" in ui["text"]


def test_the_order_on_its_way_is_a_notification_that_opens_it() -> None:
    d = _open(2)
    live = next(o for o in d.probe.query("food/orders") if o["status"] == "On the way")
    notes = [n for n in d.world.notifications if n["app"] == "food"]
    assert len(notes) == 1 and live["eta_text"] in notes[0]["text"]
    assert notes[0]["args"] == {"order": live["_id"]}


def test_search_finds_dishes_and_opens_the_options_sheet() -> None:
    d = _open(5)
    r, m = _orderable(d, sized=True, extras=False)
    _do(d, tap(d, rid="search_bar"))
    _do(d, type_into(d, m["name"], rid="search_src_text"))
    _do(d, tap(d, desc=f"{m['name']}, {r['name']}", rid="dish_result"))
    assert text_of(d, rid="sheet_dish") == m["name"]
    _do(d, Action("navigate_back"))
    assert text_of(d, rid="sheet_dish") is None  # back closes the sheet first
    assert text_of(d, rid="restaurant_title") == r["name"]
    _do(d, Action("navigate_back"))
    _do(d, type_into(d, "zzz", rid="search_src_text"))
    assert text_of(d, rid="empty_text") == 'No results for "zzz"'


# -- bad input -------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, word", [
    ({"name": "Unicorn Stew"}, "name"),
    ({"name": "Garlic Knots", "size": "Huge"}, "size"),
    ({"name": "Garlic Knots", "qty": 0}, "qty"),
    ({"name": "Garlic Knots", "qty": "2"}, "qty"),
    ({"name": "Garlic Knots", "extras": "Olives"}, "extras"),
])
def test_bad_fixture_input_is_refused_naming_it_and_changes_nothing(kwargs: dict,
                                                                    word: str) -> None:
    d = _open(1)
    st = _store(d)
    st["restaurants"][0]["open"] = True  # Tony's, so only the bad argument can fail
    st["restaurants"][0]["sold_out"] = []
    before = copy.deepcopy(st)
    with pytest.raises(ValueError, match=word):
        d.fixture("food", "add_to_cart", **kwargs)
    assert st == before


def test_store_refuses_unavailable_dishes_and_bad_checkouts() -> None:
    d = _open(0)
    st = _store(d)
    closed = next(r for r in st["restaurants"] if not r["open"])
    before = copy.deepcopy(st)
    with pytest.raises(ValueError, match="closed"):
        did, dish = fs.dishes(closed["id"])[0]
        fs.add_line(st, did, fs.default_size(dish), [], 1)
    sold_rest = next(r for r in st["restaurants"] if r["sold_out"])
    did = sold_rest["sold_out"][0]
    with pytest.raises(ValueError, match="sold out"):
        fs.add_line(st, did, fs.default_size(fs.dish(did)[1]), [], 1)
    with pytest.raises(ValueError, match="cart is empty"):
        fs.place_order(st, "Home", st["cards"][0], 3.0, "2026-03-14T10:30")
    assert st == before
    r, m = _orderable(d, sized=False, extras=False)
    fs.add_line(st, m["_id"], "", [], 1)
    for args, word in ((("Office", st["cards"][0], 3.0), "address"),
                       (("Home", "Amex 0000", 3.0), "payment"),
                       (("Home", st["cards"][0], 4.0), "tip")):
        snapshot = copy.deepcopy(st)
        with pytest.raises(ValueError, match=word):
            fs.place_order(st, *args, "2026-03-14T10:30")
        assert st == snapshot
