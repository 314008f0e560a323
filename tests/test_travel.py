"""What is special about the Travel app, through UI actions on a PhoneWorldDevice: a room
sold out on some nights, the two-step booking in the owner's name, the date pickers' checks,
the guests stepper, filters and sort, cancelling with its confirmation, the destination
search, and the fixtures' argument checks."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.tasks.kit import pick_date
from phoneworld_gym.tasks.travel.common import (
    find_hotel,
    is_free,
    open_booking,
    search,
    to_main,
    upcoming,
)
from phoneworld_gym.world import START

#: the test phone's date: it starts at the default clock, which these tests' dates are about
TODAY = START.date()


def play(device: PhoneWorldDevice, actions: Iterator[Action]) -> None:
    """Run UI actions, failing on the first one the phone refuses."""
    for a in actions:
        err = device.execute(a)
        assert not err, f"{a} -> {err}"


@pytest.fixture(scope="module")
def fresh() -> dict[str, Any]:
    d = PhoneWorldDevice()
    d.reset(3)
    return d.snapshot()


@pytest.fixture
def device(fresh: dict[str, Any]) -> PhoneWorldDevice:
    d = PhoneWorldDevice()
    d.reset(3)
    d.restore(fresh)
    return d


def rows(device: PhoneWorldDevice, table: str) -> list[dict[str, Any]]:
    return device.probe.query(table)


def sold_out_case(device: PhoneWorldDevice) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A hotel with a room sold out on a night (soon) while another of its rooms is free
    then: (hotel, sold-out room, the night)."""
    hotels = {h["_id"]: h for h in rows(device, "travel/hotels")}
    rooms = rows(device, "travel/rooms")
    for r in rooms:
        for night in filter(None, r["sold_out"].split(",")):
            if not 2 <= (dt.date.fromisoformat(night) - TODAY).days <= 15:
                continue
            nxt = (dt.date.fromisoformat(night) + dt.timedelta(days=1)).isoformat()
            others = [o for o in rooms if o["hotel_id"] == r["hotel_id"] and o is not r
                      and is_free(o, night, nxt)]
            if others:
                return hotels[r["hotel_id"]], r, night
    raise AssertionError("no sold-out case in this seed")


def test_a_room_sold_out_on_a_night_cannot_be_selected_but_is_on_other_nights(device):
    hotel, room, night = sold_out_case(device)
    nxt = (dt.date.fromisoformat(night) + dt.timedelta(days=1)).isoformat()
    play(device, find_hotel(device, hotel["city"], hotel["name"], night, nxt, 1))
    labels = [e.text for e in elements(device) if (e.resource_id or "").endswith("/room_name")]
    i = next(k for k, e in enumerate(elements(device))
             if (e.content_description or "") == room["name"]
             and (e.resource_id or "").endswith("/room_card"))
    assert room["name"] in labels
    assert find(device, desc=f"Select {room['name']}") is None
    assert find(device, text="Sold out on your dates", rid="room_sold_out") is not None
    assert i is not None
    # a night that is not sold out: the same room can be selected
    free = next(TODAY + dt.timedelta(days=k) for k in range(2, 80)
                if is_free(room, (TODAY + dt.timedelta(days=k)).isoformat(),
                           (TODAY + dt.timedelta(days=k + 1)).isoformat()))
    play(device, find_hotel(device, hotel["city"], hotel["name"], free.isoformat(),
                            (free + dt.timedelta(days=1)).isoformat(), 1))
    for _ in range(4):
        if find(device, desc=f"Select {room['name']}") is not None:
            break
        device.execute(Action("scroll", direction="down"))
    assert find(device, desc=f"Select {room['name']}") is not None


def test_booking_takes_two_steps_in_the_owners_name_and_lists_the_trip(device):
    hotel = rows(device, "travel/hotels")[7]
    room = next(r for r in rows(device, "travel/rooms") if r["hotel_id"] == hotel["_id"]
                and is_free(r, "2026-03-24", "2026-03-27"))
    before = rows(device, "travel/bookings")
    play(device, find_hotel(device, hotel["city"], hotel["name"], "2026-03-24", "2026-03-27",
                            2))
    for _ in range(4):
        if find(device, desc=f"Select {room['name']}") is not None:
            break
        device.execute(Action("scroll", direction="down"))
    play(device, iter([tap(device, desc=f"Select {room['name']}")]))
    owner = rows(device, "travel/account")[0]["name"]
    assert text_of(device, rid="guest_name") == owner
    play(device, iter([tap(device, rid="next_step")]))
    assert text_of(device, rid="review_guest") == owner
    assert rows(device, "travel/bookings") == before  # nothing booked before Book now
    play(device, iter([tap(device, rid="book_now")]))
    after = rows(device, "travel/bookings")
    new = [b for b in after if b not in before]
    assert len(after) == len(before) + 1 and len(new) == 1
    b = new[0]
    assert (b["hotel"], b["room"], b["checkin"], b["checkout"], b["nights"], b["guests"],
            b["guest_name"], b["status"]) == (hotel["name"], room["name"], "2026-03-24",
                                              "2026-03-27", 3, 2, owner, "confirmed")
    assert b["total"] == 3 * room["price"]
    assert text_of(device, rid="booking_total") == f"${3 * room['price']:,}"
    assert f"Confirmation number: {b['confirmation']}" == \
        text_of(device, rid="booking_confirmation")
    play(device, iter([Action("navigate_back")]))
    assert hotel["name"] in [e.text for e in elements(device)
                             if (e.resource_id or "").endswith("/trip_hotel")]


def test_the_details_step_refuses_an_empty_name_and_books_nothing(device):
    hotel = rows(device, "travel/hotels")[0]
    room = next(r for r in rows(device, "travel/rooms") if r["hotel_id"] == hotel["_id"]
                and is_free(r, "2026-03-20", "2026-03-21"))
    before = rows(device, "travel/bookings")
    play(device, find_hotel(device, hotel["city"], hotel["name"], "2026-03-20", "2026-03-21",
                            1))
    for _ in range(4):
        if find(device, desc=f"Select {room['name']}") is not None:
            break
        device.execute(Action("scroll", direction="down"))
    play(device, iter([tap(device, desc=f"Select {room['name']}")]))
    play(device, iter([type_into(device, "", rid="guest_name")]))
    play(device, iter([tap(device, rid="next_step")]))
    assert text_of(device, rid="error_text") == "Enter the full name of the guest"
    assert find(device, rid="book_now") is None
    assert rows(device, "travel/bookings") == before


def test_check_out_must_come_after_check_in(device):
    play(device, to_main(device))
    before = text_of(device, rid="dates")
    play(device, iter([tap(device, rid="dates")]))
    play(device, pick_date(device, dt.date(2026, 3, 20)))
    assert text_of(device, rid="date_picker_header_title") == "Check-out date"
    # the same day as check-in: refused, the picker stays open and the form keeps its dates
    play(device, iter([tap(device, desc="Friday, March 20, 2026")]))
    play(device, iter([tap(device, text="OK", rid="button1")]))
    assert device.world.toast is not None
    assert device.world.toast["text"] == "Check-out must be after check-in"
    assert text_of(device, rid="date_picker_header_title") == "Check-out date"
    play(device, iter([tap(device, text="Cancel", rid="button2")]))
    assert text_of(device, rid="dates") == before
    # a check-in before today is refused too
    play(device, iter([tap(device, rid="dates")]))
    play(device, iter([tap(device, desc="Friday, March 13, 2026")]))
    play(device, iter([tap(device, text="OK", rid="button1")]))
    assert device.world.toast["text"] == "Choose a date from today on"
    assert text_of(device, rid="date_picker_header_title") == "Check-in date"


def test_guests_stepper_stops_at_one_and_big_groups_find_no_small_rooms(device):
    play(device, to_main(device))
    play(device, iter([tap(device, rid="guests")]))
    play(device, iter([tap(device, desc="Decrease adults")]))
    assert text_of(device, rid="adults_count") == "1"
    minus = elements(device)[find(device, desc="Decrease adults")]
    assert not minus.is_clickable
    for _ in range(3):
        play(device, iter([tap(device, desc="Increase adults")]))
    play(device, iter([tap(device, rid="apply_guests")]))
    assert text_of(device, rid="guests") == "4 adults · 1 room"
    hotels, rooms = rows(device, "travel/hotels"), rows(device, "travel/rooms")
    small = [h for h in hotels
             if max(r["sleeps"] for r in rooms if r["hotel_id"] == h["_id"]) < 4]
    city = small[0]["city"]
    play(device, search(device, city, "2026-03-18", "2026-03-19", 4))
    # hotels without a room for four are listed last, saying so
    play(device, scroll_to(device, text="No rooms for 4 adults", rid="sold_out"))
    for _ in range(6):
        device.execute(Action("scroll", direction="down"))
    names = [e.text for e in elements(device) if (e.resource_id or "").endswith("/hotel_name")]
    assert names[-1] in {h["name"] for h in small if h["city"] == city}


def test_four_star_filter_and_price_sort(device):
    city = rows(device, "travel/hotels")[12]["city"]
    play(device, search(device, city, "2026-03-22", "2026-03-23", 1))
    play(device, iter([tap(device, rid="filter_button")]))
    play(device, iter([tap(device, text="4 stars", rid="star_chip")]))
    four = [h["name"] for h in rows(device, "travel/hotels")
            if h["city"] == city and h["stars"] == 4]
    assert text_of(device, rid="show_results") == f"Show {len(four)} properties"
    play(device, iter([tap(device, rid="show_results")]))
    play(device, iter([tap(device, rid="sort_button")]))
    play(device, iter([tap(device, text="Price (lowest first)", rid="sheet_item_title")]))
    names = [e.text for e in elements(device) if (e.resource_id or "").endswith("/hotel_name")]
    assert sorted(names) == sorted(four)
    prices = [int((e.text or "").split()[0].lstrip("$")) for e in elements(device)
              if (e.resource_id or "").endswith("/night_price")]
    assert prices == sorted(prices)
    assert text_of(device, rid="filter_button") == "Filter (1)"


def test_cancel_asks_first_and_keep_changes_nothing(device):
    b = upcoming(device.probe)[0]
    before = rows(device, "travel/bookings")
    play(device, open_booking(device, b["hotel"]))
    for _ in range(3):
        if find(device, rid="cancel_booking") is not None:
            break
        device.execute(Action("scroll", direction="down"))
    play(device, iter([tap(device, rid="cancel_booking")]))
    assert text_of(device, rid="alertTitle") == "Cancel this booking?"
    play(device, iter([tap(device, text="Keep booking")]))
    assert rows(device, "travel/bookings") == before
    play(device, iter([tap(device, rid="cancel_booking")]))
    play(device, iter([tap(device, rid="button2")]))
    after = {r["_id"]: r for r in rows(device, "travel/bookings")}
    assert after[b["_id"]]["status"] == "cancelled"
    assert [r for r in after.values() if r["_id"] != b["_id"]] == \
        [r for r in before if r["_id"] != b["_id"]]
    assert text_of(device, rid="booking_status") == "Cancelled"
    assert find(device, rid="cancel_booking") is None


def test_unknown_destination_says_so_and_a_property_name_finds_the_hotel(device):
    play(device, to_main(device))
    play(device, iter([tap(device, rid="destination")]))
    play(device, iter([type_into(device, "Honolulu", rid="destination_input")]))
    assert "couldn't find \"Honolulu\"" in (text_of(device, rid="no_destination") or "")
    hotel = rows(device, "travel/hotels")[30]
    play(device, iter([type_into(device, hotel["name"], rid="destination_input")]))
    play(device, iter([tap(device, text=f"{hotel['name']}, {hotel['city']}",
                           rid="suggestion")]))
    assert text_of(device, rid="destination") == hotel["name"]
    play(device, iter([tap(device, rid="search_button")]))
    assert text_of(device, rid="hotel_name") == hotel["name"]
    assert text_of(device, rid="results_city") == hotel["city"]


def test_save_heart_adds_and_removes_a_saved_row(device):
    saved = {r["_id"] for r in rows(device, "travel/saved")}
    hotel = next(h for h in rows(device, "travel/hotels") if h["_id"] not in saved)
    play(device, to_main(device))
    play(device, iter([tap(device, rid="destination")]))
    play(device, iter([type_into(device, hotel["name"], rid="destination_input")]))
    play(device, iter([tap(device, text=f"{hotel['name']}, {hotel['city']}",
                           rid="suggestion")]))
    play(device, iter([tap(device, rid="search_button")]))
    play(device, iter([tap(device, desc=f"Save {hotel['name']}")]))
    assert {r["_id"] for r in rows(device, "travel/saved")} == saved | {hotel["_id"]}
    play(device, iter([tap(device, desc=f"Remove {hotel['name']} from saved")]))
    assert {r["_id"] for r in rows(device, "travel/saved")} == saved


@pytest.mark.parametrize("args,match", [
    ({"hotel": "Nowhere Inn", "room": "Family Suite"}, "hotel must name"),
    ({"room": "Penthouse"}, "room must be one of"),
    ({"checkin": "2026-13-01"}, "checkin must be an ISO date"),
    ({"checkout": "2026-03-20"}, "checkout must be 1 to 30 nights"),
    ({"guests": 9}, "guests must be 1"),
    ({"guest_name": "  "}, "guest_name must be a non-empty string"),
])
def test_book_fixture_names_the_bad_argument_and_changes_nothing(device, args, match):
    hotel = rows(device, "travel/hotels")[0]
    room = next(r for r in rows(device, "travel/rooms") if r["hotel_id"] == hotel["_id"])
    good = {"hotel": hotel["name"], "room": room["name"], "checkin": "2026-03-20",
            "checkout": "2026-03-22", "guests": 1}
    before = rows(device, "travel/bookings")
    with pytest.raises(ValueError, match=match):
        device.fixture("travel", "book", **{**good, **args})
    assert rows(device, "travel/bookings") == before
    made = device.fixture("travel", "book", **good)
    added = [b for b in rows(device, "travel/bookings") if b not in before]
    assert [b["_id"] for b in added] == [made["_id"]]
    assert added[0]["total"] == 2 * room["price"]


def test_save_fixture_rejects_an_unknown_hotel(device):
    before = rows(device, "travel/saved")
    with pytest.raises(ValueError, match="hotel must name a hotel"):
        device.fixture("travel", "save", hotel="Hotel California")
    assert rows(device, "travel/saved") == before


def test_directions_open_maps_and_share_opens_the_share_sheet(device):
    from phoneworld_gym.system import intents

    b = upcoming(device.probe)[0]
    address = next(h["address"] for h in rows(device, "travel/hotels")
                   if h["_id"] == b["hotel_id"])
    play(device, open_booking(device, b["hotel"]))
    play(device, iter([tap(device, text="Share", rid="share_booking")]))
    ui = device.world.system_ui
    assert ui is not None and ui["kind"] == "share" and address in ui["text"]
    play(device, iter([Action("navigate_back")]))
    play(device, iter([tap(device, text="Directions", rid="directions")]))
    assert device.probe.foreground_app() == "com.phoneworld.maps"
    top = device.world.stacks["maps"][-1]
    assert intents.uri_payload(top["args"]["uri"]) == address
