"""What is special about Rides, through UI actions on a PhoneWorld device: the data comes from
the seeded life, an unavailable ride type cannot be chosen, nothing is booked before the
confirmation step, scheduling refuses a time too soon, cancelling a scheduled ride asks first
and empties the Upcoming list, receipts add up, a ride's status is shared with its arrival
time, and the fixture rejects bad arguments without a trace."""

from __future__ import annotations

import datetime as dt

import pytest

from phoneworld_gym import life as lifemod
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import elements, find, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice


def _device(seed: int = 0) -> PhoneWorldDevice:
    d = PhoneWorldDevice(screenshot_size=(270, 600))
    d.reset(seed)
    return d


def do(d: PhoneWorldDevice, action: Action) -> None:
    err = d.execute(action)
    assert not err, err


def rows(d: PhoneWorldDevice, table: str) -> list[dict]:
    return d.probe.query(table)


def to_options(d: PhoneWorldDevice, dest: str) -> None:
    """Open Rides, Where to?, type ``dest`` and pick it (from Home)."""
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, rid="where_to"))
    do(d, type_into(d, dest, rid="dropoff_text"))
    do(d, tap(d, text=dest, rid="place_result_title"))
    assert find(d, rid="choose_button") is not None


def landmark(d: PhoneWorldDevice) -> str:
    return next(r["name"] for r in rows(d, "rides/places") if r["kind"] == "place")


def test_places_come_from_the_life_and_data_varies_with_the_seed():
    d = _device(3)
    life = lifemod.generate(3)
    places = {r["key"]: r for r in rows(d, "rides/places")}
    assert places["home"]["address"] == life.owner.home.one_line()
    assert places["work"]["address"] == life.work.one_line()
    homes = {p.home.one_line() for p in life.people if p.home is not None}
    assert homes <= {r["address"] for r in places.values() if r["kind"] == "address"}
    other = _device(4)
    assert rows(d, "rides/trips") != rows(other, "rides/trips")
    offs = {tuple(r["name"] for r in rows(_device(s), "rides/types") if not r["available"])
            for s in range(6)}
    assert all(len(o) == 1 and o[0] != "Economy" for o in offs) and len(offs) > 1


def test_an_unavailable_type_cannot_be_chosen_or_booked():
    d = _device(0)
    off = next(r["name"] for r in rows(d, "rides/types") if not r["available"])
    to_options(d, landmark(d))
    i = find(d, desc=off, rid="ride_option")
    assert i is not None and not elements(d)[i].is_enabled
    d.execute(Action("click", index=i))
    assert text_of(d, rid="choose_button") == "Choose Economy"
    prices = [e.text for e in elements(d) if (e.resource_id or "").endswith("/ride_price")]
    assert "Unavailable" in prices and sum(p.startswith("$") for p in prices) == 3
    assert rows(d, "rides/trips") == _device(0).probe.query("rides/trips")


def test_nothing_is_booked_before_confirming_and_confirm_books_the_price_shown():
    d = _device(1)
    start = rows(d, "rides/trips")
    dest = landmark(d)
    to_options(d, dest)
    kind = next(r["name"] for r in rows(d, "rides/types")
                if r["available"] and r["name"] != "Economy")
    do(d, tap(d, desc=kind, rid="ride_option"))
    assert text_of(d, rid="choose_button") == f"Choose {kind}"
    do(d, tap(d, rid="choose_button"))
    price = text_of(d, rid="confirm_fare")
    assert rows(d, "rides/trips") == start  # the confirmation step writes nothing
    do(d, Action("navigate_back"))
    do(d, tap(d, rid="choose_button"))
    do(d, tap(d, rid="confirm_button"))
    new = [r for r in rows(d, "rides/trips") if r["_id"] not in {s["_id"] for s in start}]
    assert len(new) == 1
    trip = new[0]
    assert (trip["dropoff"], trip["type"], trip["status"]) == (dest, kind, "active")
    assert price == f"${trip['total']:.2f}"
    assert text_of(d, rid="trip_eta") == trip["eta"]


def test_scheduling_refuses_a_time_too_soon_then_reserves_the_one_picked():
    d = _device(2)
    start = rows(d, "rides/scheduled")
    to_options(d, landmark(d))
    do(d, tap(d, desc="Pickup time"))
    do(d, tap(d, text="OK", rid="button1"))  # today
    do(d, type_into(d, "10", rid="material_hour_text_input"))
    do(d, type_into(d, "35", rid="material_minute_text_input"))
    do(d, tap(d, rid="material_clock_period_am_button"))
    do(d, tap(d, rid="material_timepicker_ok_button"))
    assert "15 minutes" in (text_of(d, rid="error") or "")
    do(d, tap(d, rid="material_timepicker_cancel_button"))
    assert text_of(d, rid="choose_button") == "Choose Economy"
    day = dt.date(2026, 3, 19)
    do(d, tap(d, desc="Pickup time"))
    do(d, tap(d, desc="Thursday, March 19, 2026"))
    do(d, tap(d, text="OK", rid="button1"))
    do(d, type_into(d, "7", rid="material_hour_text_input"))
    do(d, type_into(d, "45", rid="material_minute_text_input"))
    do(d, tap(d, rid="material_clock_period_pm_button"))
    do(d, tap(d, rid="material_timepicker_ok_button"))
    assert text_of(d, rid="choose_button") == "Schedule Economy"
    do(d, tap(d, rid="choose_button"))
    estimate = text_of(d, rid="confirm_fare")
    assert rows(d, "rides/scheduled") == start
    do(d, tap(d, rid="confirm_button"))
    new = [r for r in rows(d, "rides/scheduled") if r["_id"] not in {s["_id"] for s in start}]
    assert len(new) == 1
    assert new[0]["pickup_at"] == f"{day.isoformat()}T19:45"
    assert estimate == f"${new[0]['estimate']:.2f}"
    assert text_of(d, rid="ride_time") == "Pickup at 7:45 PM"


def test_cancel_asks_first_and_the_last_cancel_leaves_an_empty_upcoming_list():
    d = _device(5)
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, desc="Activity"))
    do(d, tap(d, rid="scheduled_ride"))
    do(d, tap(d, rid="cancel_ride"))
    do(d, tap(d, text="Keep ride"))
    assert all(r["status"] == "scheduled" for r in rows(d, "rides/scheduled"))
    n = len(rows(d, "rides/scheduled"))
    for k in range(n):
        if k:
            do(d, tap(d, rid="scheduled_ride"))
        do(d, tap(d, rid="cancel_ride"))
        do(d, tap(d, text="Cancel ride", rid="button2"))
        assert sum(r["status"] == "canceled" for r in rows(d, "rides/scheduled")) == k + 1
    assert find(d, rid="scheduled_ride") is None
    assert text_of(d, rid="empty_title") == "No upcoming rides"


def test_a_receipt_adds_up_and_matches_its_trip():
    d = _device(6)
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, desc="Activity"))
    do(d, tap(d, desc="Past"))
    trip = next(r for r in sorted(rows(d, "rides/trips"), key=lambda r: r["start"],
                                  reverse=True))
    do(d, tap(d, rid="past_trip"))

    def amount(rid: str) -> float:
        return float((text_of(d, rid=rid) or "").lstrip("$").replace(",", ""))

    total = amount("receipt_total")
    assert total == pytest.approx(trip["total"])
    assert total == pytest.approx(amount("receipt_fare") + amount("receipt_fee")
                                  + amount("receipt_tip"))
    assert trip["driver"] in (text_of(d, rid="receipt_driver") or "")


def test_sharing_a_ride_opens_the_share_sheet_with_its_arrival_time():
    d = _device(7)
    to_options(d, landmark(d))
    do(d, tap(d, rid="choose_button"))
    do(d, tap(d, rid="confirm_button"))
    trip = max(rows(d, "rides/trips"), key=lambda r: r["_id"])
    do(d, tap(d, rid="share_trip"))
    sheet = d.world.system_ui
    assert sheet is not None and sheet["kind"] == "share"
    assert f"ETA {trip['eta']}" in sheet["text"] and trip["plate"] in sheet["text"]
    assert find(d, text="Messages", rid="sharesheet_target") is not None


def test_the_same_place_twice_is_refused():
    d = _device(8)
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, rid="where_to"))
    do(d, type_into(d, "Home", rid="dropoff_text"))
    do(d, tap(d, text="Home", rid="place_result_title"))
    assert d.world.stacks["rides"][-1]["screen"] == "search"
    assert d.world.toast is not None and "different" in d.world.toast["text"]


@pytest.mark.parametrize("args,bad", [
    ({"dropoff": "nowhere", "pickup_at": "2026-03-20T09:00"}, "dropoff"),
    ({"pickup": "moon", "dropoff": "work", "pickup_at": "2026-03-20T09:00"}, "pickup"),
    ({"dropoff": "work", "pickup_at": "2026-03-01T09:00"}, "pickup_at"),
    ({"dropoff": "work", "pickup_at": "soon"}, "pickup_at"),
    ({"dropoff": "work", "type": "Helicopter", "pickup_at": "2026-03-20T09:00"}, "type"),
])
def test_the_schedule_fixture_names_a_bad_argument_and_changes_nothing(args, bad):
    d = _device(9)
    before = rows(d, "rides/scheduled")
    with pytest.raises(ValueError, match=bad):
        d.fixture("rides", "schedule_ride", **args)
    assert rows(d, "rides/scheduled") == before


def test_the_schedule_fixture_adds_a_ride_the_activity_lists():
    d = _device(9)
    made = d.fixture("rides", "schedule_ride", dropoff="work", pickup_at="2026-03-21T08:15")
    row = next(r for r in rows(d, "rides/scheduled") if r["_id"] == made["_id"])
    assert (row["dropoff"], row["pickup_at"], row["status"]) == \
        ("Work", "2026-03-21T08:15", "scheduled")
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, desc="Activity"))
    assert find(d, desc="Scheduled ride to Work", rid="scheduled_ride") is not None


def test_search_picks_the_pickup_then_the_destination_and_says_when_nothing_matches():
    d = _device(10)
    dest = landmark(d)
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, rid="where_to"))
    do(d, type_into(d, "zzzz", rid="dropoff_text"))
    assert text_of(d, rid="no_results") == "No results for \u201czzzz\u201d"
    do(d, type_into(d, "Work", rid="pickup_text"))
    do(d, tap(d, text="Work", rid="place_result_title"))
    assert d.world.stacks["rides"][-1]["screen"] == "search"  # no destination yet
    do(d, type_into(d, dest, rid="dropoff_text"))
    do(d, tap(d, text=dest, rid="place_result_title"))
    assert (text_of(d, rid="pickup_name"), text_of(d, rid="dropoff_name")) == ("Work", dest)


def test_a_tip_is_added_once_and_the_total_follows():
    d = _device(11)
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, desc="Activity"))
    do(d, tap(d, desc="Past"))
    trip = max((r for r in rows(d, "rides/trips") if r["status"] != "active"),
               key=lambda r: r["start"])
    assert trip["tip"] == 0 and trip["status"] == "completed"
    do(d, tap(d, rid="past_trip"))
    assert text_of(d, rid="add_tip") == "Choose an amount"
    do(d, tap(d, text="$5", rid="tip_amount"))
    assert rows(d, "rides/trips") == _device(11).probe.query("rides/trips")  # not yet
    do(d, tap(d, text="Add $5 tip", rid="add_tip"))
    after = next(r for r in rows(d, "rides/trips") if r["_id"] == trip["_id"])
    assert after["tip"] == 5.0
    assert after["total"] == pytest.approx(trip["total"] + 5)
    assert text_of(d, rid="receipt_total") == f"${after['total']:.2f}"
    assert find(d, rid="add_tip") is None  # one tip per trip


def test_back_from_a_tab_returns_home_before_leaving_the_app():
    d = _device(12)
    do(d, Action("open_app", app_name="Rides"))
    do(d, tap(d, desc="Account"))
    assert text_of(d, rid="rider_name") == lifemod.generate(12).owner.first
    do(d, Action("navigate_back"))
    assert d.world.foreground == "rides" and find(d, rid="where_to") is not None
    do(d, Action("navigate_back"))
    assert d.world.foreground != "rides"
