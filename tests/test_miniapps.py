"""Mini-apps inside the Chat super-app: they open only from their host, live on the host's
back stack (back, home and resume behave as on a phone), show the host's package, keep their
own tables, and hand results back into a chat through UI actions."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from phoneworld_gym.app import get_app
from phoneworld_gym.contract import Action
from phoneworld_gym.ctx import Ctx, activity_ctx
from phoneworld_gym.oracle import find, tap, type_into
from phoneworld_gym.phone import PhoneWorldDevice

CHAT_PACKAGE = "com.phoneworld.chat"


@pytest.fixture()
def d() -> PhoneWorldDevice:
    dev = PhoneWorldDevice(apps=["chat", "coffee", "bike", "splitbill", "contacts"])
    dev.reset(3)
    return dev


def top(d: PhoneWorldDevice) -> str:
    return d.world.stacks["chat"][-1]["screen"]


def run(d: PhoneWorldDevice, action: Action) -> None:
    assert d.execute(action) == "", action


def open_mini(d: PhoneWorldDevice, label: str) -> None:
    run(d, Action("open_app", app_name="Chat"))
    run(d, tap(d, desc="Discover"))
    run(d, tap(d, desc=label))


def test_a_mini_app_is_not_on_the_launcher_and_open_app_refuses_it(d):
    before = d.world.state_hash()
    err = d.execute(Action("open_app", app_name="Bean There"))
    assert "opens inside Chat" in err and "mini-app" in err
    assert d.world.state_hash() == before  # nothing happened
    home = d.a11y_xml()
    assert 'content-desc="Chat"' in home
    for label in ("Bean There", "CityBike", "Split"):
        assert f'content-desc="{label}"' not in home, label
    ctx = Ctx(d.world, get_app("chat"), {"screen": "main", "args": {}, "state": {}})
    with pytest.raises(ValueError, match="opens inside chat"):
        ctx.start_app("coffee")


def test_installing_a_mini_app_installs_its_host():
    dev = PhoneWorldDevice(apps=["bike"])
    assert set(dev.apps) == {"bike", "chat"}


def test_discover_lists_only_the_installed_mini_apps():
    dev = PhoneWorldDevice(apps=["chat", "bike"])
    dev.reset(0)
    open_mini(dev, "CityBike")
    run(dev, Action("navigate_back"))
    assert find(dev, desc="CityBike") is not None and find(dev, desc="Bean There") is None


def test_back_returns_to_the_host_screen_that_opened_it_and_home_resumes_inside(d):
    open_mini(d, "Bean There")
    assert d.world.stacks["chat"][0] == {"screen": "main", "args": {"tab": "Discover"},
                                        "state": {}}
    assert top(d) == "@coffee/menu"
    run(d, tap(d, rid="drink_title", text="Latte"))
    assert top(d) == "@coffee/drink"
    run(d, Action("navigate_home"))
    assert d.probe.foreground_app() != CHAT_PACKAGE
    run(d, Action("open_app", app_name="Chat"))  # resumes inside the mini-app
    assert top(d) == "@coffee/drink" and find(d, rid="drink_name") is not None
    run(d, Action("navigate_back"))
    assert top(d) == "@coffee/menu"
    run(d, Action("navigate_back"))  # back from its first screen: the Discover tab
    assert top(d) == "main" and d.world.foreground == "chat"
    assert find(d, desc="Bean There") is not None
    run(d, Action("navigate_back"))  # and out of Chat
    assert d.world.foreground == "launcher"


def test_the_close_button_leaves_the_mini_app_from_any_depth(d):
    open_mini(d, "CityBike")
    run(d, tap(d, rid="station_title", nth=0))
    assert top(d) == "@bike/station"
    run(d, tap(d, desc="Close mini program"))
    assert [e["screen"] for e in d.world.stacks["chat"]] == ["main"]


def test_the_dump_shows_the_host_package_and_the_mini_apps_own_look(d):
    open_mini(d, "Split")
    root = ET.fromstring(d.a11y_xml())
    packages = {n.get("package") for n in root.iter("node")}
    assert packages == {CHAT_PACKAGE}
    assert d.probe.foreground_app() == CHAT_PACKAGE
    ctx = activity_ctx(d.world, d.apps, "chat", d.world.stacks["chat"][-1])
    assert ctx.app.name == "splitbill" and ctx.host.name == "chat" and ctx.hosted
    assert ctx.store is d.world.stores["splitbill"] and ctx.theme == get_app("splitbill").theme
    assert ctx.screen_name == "home"


def test_mini_app_tables_are_probed_and_a_paid_order_is_a_visible_change(d):
    tables = d.probe.tables()
    assert {"coffee/orders", "bike/rides", "bike/stations", "splitbill/splits"} <= set(tables)
    assert "coffee/menu" not in tables  # static: readable, not snapshotted
    assert [r["name"] for r in d.probe.query("coffee/menu")][:2] == ["Latte", "Cappuccino"]
    start = d.probe.snapshot()
    open_mini(d, "Bean There")
    run(d, tap(d, rid="drink_title", text="Mocha"))
    run(d, tap(d, desc="Small"))
    run(d, tap(d, desc="Almond milk"))
    run(d, tap(d, text="Checkout"))
    run(d, tap(d, rid="pay"))
    run(d, tap(d, text="Pay", rid="button2"))
    end = d.probe.snapshot()
    changed = sorted(t for t in end if end[t] != start[t])
    assert changed == ["coffee/orders"]
    new = [r for r in end["coffee/orders"] if r not in start["coffee/orders"]]
    assert len(new) == 1 and new[0]["drink"] == "Mocha" and new[0]["size"] == "Small"
    assert new[0]["milk"] == "Almond milk" and new[0]["status"] == "Preparing"
    assert top(d) == "@coffee/order"
    assert find(d, rid="order_number", text=new[0]["number"]) is not None


def test_share_to_chat_posts_the_result_into_the_chosen_chat_and_returns(d):
    open_mini(d, "CityBike")
    stations = d.probe.query("bike/stations")
    start = next(s for s in stations if s["bikes"] > 0)
    run(d, tap(d, rid="station_title", text=start["name"]))
    run(d, tap(d, text="Unlock", nth=0))
    assert top(d) == "@bike/ride"
    run(d, tap(d, text="End ride"))
    dock = "Museum Hill" if start["name"] != "Museum Hill" else "Central Station"
    run(d, tap(d, rid="dock_station_title", text=dock))
    ride = d.probe.query("bike/rides")[-1]
    assert ride["status"] == "done" and ride["end"] == dock and ride["fare"] > 1
    before = d.probe.query("chat/messages")
    run(d, tap(d, text="Share to chat"))
    assert top(d) == "share"  # the host's own "Send to" screen, over the mini-app
    group = next(c for c in d.probe.query("chat/chats") if c["kind"] == "group")
    run(d, tap(d, rid="target_chat_title", text=group["title"]))
    run(d, tap(d, text="Send", rid="button2"))
    assert top(d) == "@bike/receipt"  # back where the share started
    after = d.probe.query("chat/messages")
    new = [r for r in after if r not in before]
    assert len(new) == 1 and new[0]["type"] == "card" and new[0]["chat"] == group["title"]
    assert ride["bike"] in new[0]["body"] and f"${ride['fare']:.2f}" in new[0]["body"]
    assert new[0]["address"] == "CityBike" and new[0]["sender"] == "me"
    # and it shows in the chat as a mini-program card
    run(d, tap(d, desc="Close mini program"))
    run(d, tap(d, desc="Chats"))
    run(d, tap(d, rid="chat_title", text=group["title"]))
    assert find(d, rid="mini_card", desc=f"You shared from CityBike: {new[0]['body']}") \
        is not None


def test_split_with_a_group_uses_its_members_and_bad_amounts_are_refused(d):
    open_mini(d, "Split")
    run(d, tap(d, text="New split"))
    run(d, type_into(d, "Pizza", rid="split_title"))
    run(d, type_into(d, "12,3x", rid="split_amount"))
    group = next(c for c in d.probe.query("chat/chats") if c["kind"] == "group")
    run(d, tap(d, desc=group["title"]))
    before = d.probe.query("splitbill/splits")
    run(d, tap(d, rid="do_split"))
    assert d.probe.query("splitbill/splits") == before
    assert find(d, rid="split_error", text="Enter an amount like 84.50") is not None
    run(d, type_into(d, "100", rid="split_amount"))
    run(d, tap(d, rid="do_split"))
    people = len(group["members"].split(", ")) + 1
    new = d.probe.query("splitbill/splits")[-1]
    assert new["people"] == people and new["title"] == "Pizza" and new["total"] == 100.0
    assert new["each"] * people >= 100 > (new["each"] - 0.01) * people


def test_mini_app_verbs_refuse_misuse_with_clear_errors(d):
    chat = Ctx(d.world, get_app("chat"), {"screen": "main", "args": {}, "state": {}})
    with pytest.raises(ValueError, match="not a mini-app of chat"):
        chat.open_mini_app("contacts")
    with pytest.raises(ValueError, match="not a mini-app"):
        chat.share_to_host(text="x")
    with pytest.raises(ValueError, match="not a mini-app"):
        chat.close_mini_app()
    with pytest.raises(KeyError, match="no screen"):
        chat.open_mini_app("coffee", "nowhere")
    small = PhoneWorldDevice(apps=["chat"])
    small.reset(0)
    ctx = Ctx(small.world, get_app("chat"), {"screen": "main", "args": {}, "state": {}})
    with pytest.raises(ValueError, match="not installed"):
        ctx.open_mini_app("coffee")


def test_a_mini_app_notification_opens_inside_its_host(d):
    open_mini(d, "Bean There")
    ctx = activity_ctx(d.world, d.apps, "chat", d.world.stacks["chat"][-1])
    ctx.notify("Order ready", "Your latte is ready", "orders")
    note = d.world.notifications[-1]
    assert note["app"] == "chat" and note["screen"] == "@coffee/orders"
    run(d, Action("navigate_home"))
    d.invalidate()
    run(d, Action("swipe", direction="down", x=540, y=20))
    run(d, tap(d, text="Order ready", contains=True))
    assert d.world.foreground == "chat" and top(d) == "@coffee/orders"


def test_chat_sends_a_photo_a_location_and_text_through_the_ui(d):
    run(d, Action("open_app", app_name="Chat"))
    chat = d.probe.query("chat/chats")[0]
    run(d, tap(d, rid="chat_title", text=chat["title"]))
    before = d.probe.query("chat/messages")
    run(d, tap(d, desc="More options"))
    run(d, tap(d, desc="Location"))
    run(d, tap(d, rid="place_title", text="City Library"))
    run(d, type_into(d, "Here at 7", rid="chat_input"))
    run(d, tap(d, text="Send"))
    new = [r for r in d.probe.query("chat/messages") if r not in before]
    assert [(r["type"], r["body"]) for r in new] == [("location", "City Library"),
                                                      ("text", "Here at 7")]
    assert new[0]["address"].startswith("200 Park Avenue, ")
    assert all(r["chat_id"] == chat["_id"] and r["sender"] == "me" for r in new)
    d.push_file("/sdcard/DCIM/Camera/PXL_20260314_101500.jpg", _jpeg())
    run(d, tap(d, desc="More options"))
    run(d, tap(d, desc="Photos"))
    run(d, tap(d, desc="PXL_20260314_101500.jpg"))
    last = d.probe.query("chat/messages")[-1]
    assert last["type"] == "photo" and last["body"].endswith("PXL_20260314_101500.jpg")


def _jpeg() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 80, 40)).save(buf, "JPEG")
    return buf.getvalue()


def test_movie_seat_map_sells_only_free_seats_and_the_booking_is_a_table_row():
    from phoneworld_gym.apps.movies import store as mv

    dev = PhoneWorldDevice(apps=["chat", "movies"])
    dev.reset(2)
    open_mini(dev, "CinemaGo")
    show = dev.probe.query("movies/showtimes")[0]
    run(dev, tap(dev, text=show["film"], rid="film_title"))
    run(dev, tap(dev, desc=f"{show['day']} {show['time']}", contains=True))
    taken = str(show["taken"]).split(", ")
    sold = find(dev, desc=f"Seat {taken[0]}, sold")
    assert sold is not None and not dev.ui_elements()[sold].is_clickable
    free = [s for s in mv.seat_names() if s not in taken][:2]
    for seat in free:
        run(dev, tap(dev, desc=f"Seat {seat}, available"))
    assert find(dev, rid="selected_seats", text=f"Selected: {free[0]}, {free[1]}") is not None
    run(dev, tap(dev, rid="buy"))
    run(dev, tap(dev, text="Buy", rid="button2"))
    row = dev.probe.query("movies/bookings")[-1]
    assert row["seats"] == ", ".join(free) and row["count"] == 2
    assert row["total"] == round(2 * show["price"], 2)
    store = dev.world.stores["movies"]
    with pytest.raises(ValueError, match="already sold"):
        mv.book(store, show["_id"], [free[0]])
    with pytest.raises(ValueError, match="no seats"):
        mv.book(store, show["_id"], ["Z9"])
    with pytest.raises(ValueError, match="at least one"):
        mv.book(store, show["_id"], [])


def test_parcel_redirect_through_the_ui_and_bad_redirects_are_refused():
    from phoneworld_gym.apps.parcel import store as pc

    dev = PhoneWorldDevice(apps=["chat", "parcel"])
    dev.reset(4)
    open_mini(dev, "Parcel")
    rows = dev.probe.query("parcel/parcels")
    moving = next(r for r in rows if r["status"] == "In transit")
    run(dev, tap(dev, text=f"{moving['item']} from {moving['sender']}"))
    run(dev, tap(dev, text="Change delivery"))
    run(dev, tap(dev, text="Harbor Market locker"))
    run(dev, tap(dev, text="Confirm", rid="button2"))
    after = {r["_id"]: r for r in dev.probe.query("parcel/parcels")}
    assert after[moving["_id"]]["delivery"] == "Locker: Harbor Market locker"
    assert [r for r in rows if r["_id"] != moving["_id"]] == \
        [r for i, r in after.items() if i != moving["_id"]]
    assert top(dev) == "@parcel/parcel"
    store = dev.world.stores["parcel"]
    done = next(r for r in rows if r["status"] == "Delivered")
    with pytest.raises(ValueError, match="delivered"):
        pc.redirect(store, done["_id"], "Home, 9 AM - 12 PM")
    with pytest.raises(ValueError, match="no delivery option"):
        pc.redirect(store, moving["_id"], "Moon base")


def test_paying_a_bill_marks_only_it_paid_and_a_paid_bill_cannot_be_paid_again():
    from phoneworld_gym.apps.bills import store as bl

    dev = PhoneWorldDevice(apps=["chat", "bills"])
    dev.reset(5)
    open_mini(dev, "Pay Bills")
    rows = dev.probe.query("bills/bills")
    bill = next(r for r in rows if r["status"] == "Due")
    run(dev, tap(dev, text=f"{bill['kind']} · {bill['biller']}"))
    run(dev, tap(dev, rid="pay_bill"))
    run(dev, tap(dev, text="Pay", rid="button2"))
    after = {r["_id"]: r for r in dev.probe.query("bills/bills")}
    assert after[bill["_id"]]["status"] == "Paid" and after[bill["_id"]]["paid_on"] == \
        "2026-03-14"
    assert all(after[r["_id"]] == r for r in rows if r["_id"] != bill["_id"])
    assert find(dev, rid="receipt_text", text=f"Paid the {bill['kind'].lower()} bill "
                f"({bill['biller']}): ${bill['amount']:.2f}") is not None
    with pytest.raises(ValueError, match="already paid"):
        bl.pay(dev.world.stores["bills"], bill["_id"], "2026-03-14T10:30:00")
