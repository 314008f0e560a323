"""What is special about the Fitness app: an activity logged through the date and time
pickers is saved as shown; Save refuses bad or future entries with a message and writes
nothing; delete asks first; the goal editor's stepper and slider move on the goal's scale and
only Save writes; the journal's week and month totals are the sums of the rows it lists, per
type; records name the real longest sessions; pairing a watch finds none; the week's summary
reaches Messages through the share sheet; fixtures refuse bad input; data follows the seed
and the life."""

from __future__ import annotations

import copy
import datetime as dt
import re

import pytest

from phoneworld_gym.apps.fitness import store as fs
from phoneworld_gym.contract import Action
from phoneworld_gym.life import generate as generate_life
from phoneworld_gym.oracle import elements, find, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.world import START


def _open(seed: int = 1, apps: tuple[str, ...] = ("fitness",)) -> PhoneWorldDevice:
    d = PhoneWorldDevice(list(apps))
    d.reset(seed=seed)
    assert d.execute(Action("open_app", app_name="Fitness")) == ""
    return d


def _do(d: PhoneWorldDevice, a: Action) -> None:
    assert d.execute(a) == "", a


def _texts(d: PhoneWorldDevice, rid: str) -> list[str]:
    return [e.text or "" for e in elements(d) if (e.resource_id or "").endswith(f"/{rid}")]


def _km(text: str) -> float:
    return float(text.replace(",", "").split()[0])


def _slider_tap(d: PhoneWorldDevice, desc: str, index: int, bins: int) -> Action:
    """A tap where the slider named ``desc`` takes its ``index``-th value (of ``bins``)."""
    i = find(d, desc=desc, cls="SeekBar")
    assert i is not None
    b = elements(d)[i].bbox_pixels
    assert b is not None
    seg = (int(b.x_max) - int(b.x_min)) // bins
    return Action("click", x=int(b.x_min) + index * seg + seg // 2,
                  y=int((b.y_min + b.y_max) / 2))


# -- logging -----------------------------------------------------------------------------------
def test_swim_logged_with_the_pickers_is_saved_as_shown() -> None:
    d = _open()
    before = d.probe.query("fitness/activities")
    _do(d, tap(d, desc="Add activity"))
    _do(d, tap(d, text="Swim", rid="type_chip"))
    _do(d, tap(d, rid="start_date"))
    _do(d, tap(d, desc="Thursday, March 12, 2026"))
    _do(d, tap(d, text="OK", rid="button1"))
    assert text_of(d, rid="start_date") == "Thu, Mar 12, 2026"
    _do(d, tap(d, rid="start_time"))
    _do(d, type_into(d, "6", rid="material_hour_text_input"))
    _do(d, type_into(d, "45", rid="material_minute_text_input"))
    _do(d, tap(d, rid="material_clock_period_pm_button"))
    _do(d, tap(d, rid="material_timepicker_ok_button"))
    assert text_of(d, rid="start_time") == "6:45 PM"
    _do(d, type_into(d, "40", rid="duration"))
    _do(d, type_into(d, "1,6 km", rid="distance"))
    _do(d, tap(d, text="Save", rid="save"))
    after = d.probe.query("fitness/activities")
    new = [r for r in after if r not in before]
    assert len(after) == len(before) + 1 and len(new) == 1
    row = new[0]
    weight = d.world.stores["fitness"]["profile"]["weight"]
    assert (row["type"], row["start"], row["duration_min"], row["distance_km"], row["source"]) \
        == ("swim", "2026-03-12T18:45", 40, 1.6, "Manual")
    assert row["calories"] == round(7.0 * weight * 40 / 60)
    # back on Home; the journal's week lists it
    assert find(d, rid="add_activity") is not None
    _do(d, tap(d, desc="Journal"))
    assert find(d, desc="Evening swim, Thu, Mar 12", rid="activity_row") is not None


@pytest.mark.parametrize("kind,when,duration,distance,error", [
    ("Run", None, "", "5", "Enter a duration in minutes"),
    ("Run", None, "0", "5", "Enter a duration in minutes"),
    ("Walk", None, "30", "five", "Enter the distance in kilometres"),
    ("Ride", None, "30", "900", "Enter a distance from 0 to 500 km"),
    ("Run", "Thursday, March 19, 2026", "30", "5", "hasn't happened yet"),
    ("Run", None, "120", "10", "can't end after now"),  # 9:30 AM + 2 h is past 10:30
])
def test_save_refuses_a_bad_entry_with_a_message_and_writes_nothing(
        kind: str, when: str | None, duration: str, distance: str, error: str) -> None:
    d = _open(seed=2)
    before = d.probe.query("fitness/activities")
    _do(d, tap(d, desc="Add activity"))
    _do(d, tap(d, text=kind, rid="type_chip"))
    if when is not None:
        _do(d, tap(d, rid="start_date"))
        _do(d, tap(d, desc=when))
        _do(d, tap(d, text="OK", rid="button1"))
    if duration:
        _do(d, type_into(d, duration, rid="duration"))
    _do(d, type_into(d, distance, rid="distance"))
    _do(d, tap(d, text="Save", rid="save"))
    assert error in (text_of(d, rid="error_text") or "")
    assert d.probe.query("fitness/activities") == before
    # the form kept what was typed
    assert text_of(d, rid="distance") == distance
    assert find(d, text=kind, rid="type_chip") is not None


def test_leaving_the_form_without_saving_adds_nothing() -> None:
    d = _open()
    before = d.probe.query("fitness/activities")
    _do(d, tap(d, desc="Add activity"))
    _do(d, type_into(d, "30", rid="duration"))
    _do(d, Action("navigate_back"))  # the keyboard
    _do(d, Action("navigate_back"))
    assert d.probe.query("fitness/activities") == before
    assert find(d, rid="add_activity") is not None


# -- delete ------------------------------------------------------------------------------------
def test_delete_asks_first_and_removes_exactly_that_activity() -> None:
    d = _open(seed=3)
    _do(d, tap(d, desc="Journal"))
    before = d.probe.query("fitness/activities")
    desc = next(e.content_description for e in elements(d)
                if (e.resource_id or "").endswith("/activity_row"))
    _do(d, tap(d, desc=desc, rid="activity_row"))
    distance = text_of(d, rid="stat_distance")
    _do(d, tap(d, desc="Delete activity"))
    assert text_of(d, rid="alertTitle") == "Delete this activity?"
    _do(d, tap(d, text="Cancel", rid="button1"))
    assert d.probe.query("fitness/activities") == before
    _do(d, tap(d, desc="Delete activity"))
    _do(d, tap(d, text="Delete", rid="button2"))
    after = d.probe.query("fitness/activities")
    gone = [r for r in before if r not in after]
    assert len(gone) == 1 and len(after) == len(before) - 1
    assert fs.km_text(gone[0]["distance_km"]) == distance
    assert find(d, desc=desc, rid="activity_row") is None  # back on the journal, row gone


# -- goals -------------------------------------------------------------------------------------
def test_goal_editor_steps_and_slides_on_its_scale_and_only_save_writes() -> None:
    d = _open(seed=5)
    goals = d.probe.query("fitness/goals")
    steps = next(r["target"] for r in goals if r["goal"] == "daily_steps")
    _do(d, tap(d, desc="Profile"))
    _do(d, tap(d, desc="Daily steps goal"))
    assert text_of(d, rid="goal_value") == f"{steps:,}"
    _do(d, tap(d, desc="Increase"))
    _do(d, tap(d, desc="Increase"))
    assert text_of(d, rid="goal_value") == f"{steps + 1000:,}"
    _do(d, Action("navigate_back"))  # discards
    assert d.probe.query("fitness/goals") == goals
    _do(d, tap(d, desc="Daily steps goal"))
    # 2,000..20,000 by 500: 37 values; the 17th (index 16) is 10,000
    _do(d, _slider_tap(d, "Daily steps goal", 16, 37))
    assert text_of(d, rid="goal_value") == "10,000"
    _do(d, tap(d, desc="Decrease"))
    _do(d, tap(d, text="Save", rid="save"))
    after = d.probe.query("fitness/goals")
    assert [r["target"] for r in after if r["goal"] == "daily_steps"] == [9500]
    assert [r for r in after if r["goal"] != "daily_steps"] == \
        [r for r in goals if r["goal"] != "daily_steps"]
    # Home measures today's steps against the new goal
    _do(d, tap(d, desc="Home"))
    assert text_of(d, rid="steps_goal") == "/ 9,500"


def test_goal_stepper_stops_at_the_ends_of_the_scale() -> None:
    d = _open()
    _do(d, tap(d, desc="Profile"))
    _do(d, tap(d, desc="Weekly active minutes goal"))
    _do(d, _slider_tap(d, "Weekly active minutes goal", 0, 85))
    assert text_of(d, rid="goal_value") == "60"
    i = find(d, desc="Decrease")
    assert i is not None and not elements(d)[i].is_clickable
    _do(d, _slider_tap(d, "Weekly active minutes goal", 84, 85))
    assert text_of(d, rid="goal_value") == "900"
    i = find(d, desc="Increase")
    assert i is not None and not elements(d)[i].is_clickable


# -- journal and records -----------------------------------------------------------------------
def test_journal_totals_are_the_sums_of_the_rows_per_period_and_type() -> None:
    d = _open(seed=4)
    _do(d, tap(d, desc="Journal"))
    assert text_of(d, rid="period_title") == "Mar 9 – 15"
    i = find(d, desc="Next week")
    assert i is not None and not elements(d)[i].is_clickable  # never past this week
    _do(d, tap(d, desc="Previous week"))
    assert text_of(d, rid="period_title") == "Mar 2 – 8"
    rows = d.probe.query("fitness/activities")
    for kind in ("all", "walk", "run", "ride", "swim"):
        if kind != "all":
            _do(d, tap(d, text=kind.capitalize(), rid="filter_chip"))
        want = [r for r in rows if "2026-03-02" <= r["start"][:10] <= "2026-03-08"
                and kind in ("all", r["type"])]
        shown = _texts(d, "activity_distance")
        assert len(shown) == len(want)
        assert sorted(_km(s) for s in shown) == sorted(r["distance_km"] for r in want)
        total = round(sum(r["distance_km"] for r in want), 2)
        assert text_of(d, rid="summary_distance") == f"{total:.2f} km"
        assert text_of(d, rid="summary_calories") == f"{sum(r['calories'] for r in want):,}"
        if not want:
            assert text_of(d, rid="empty_text") == f"No {kind}s this week"
    _do(d, tap(d, desc="Month", rid="tab_month"))
    assert text_of(d, rid="period_title") == "March 2026"
    march = [r for r in rows if r["start"][:7] == "2026-03" and r["type"] == "swim"]
    count = text_of(d, rid="summary_count") or ""
    assert int(count.split()[0]) == len(march)


def test_records_name_the_longest_sessions_and_open_them() -> None:
    d = _open(seed=6)
    rows = d.probe.query("fitness/activities")
    _do(d, tap(d, desc="Personal records"))
    values = dict(zip(_texts(d, "record_label"), _texts(d, "record_value")))
    for kind in ("walk", "run", "ride", "swim"):
        best = max(r["distance_km"] for r in rows if r["type"] == kind)
        assert values[f"Longest {kind}"] == f"{best:.2f} km"
    longest = max(rows, key=lambda r: r["duration_min"])
    assert values["Longest session"] == fs.duration_text(longest["duration_min"])
    _do(d, tap(d, desc="Longest run"))
    best_run = max((r for r in rows if r["type"] == "run"), key=lambda r: r["distance_km"])
    assert text_of(d, rid="stat_distance") == f"{best_run['distance_km']:.2f} km"
    assert (text_of(d, rid="detail_route") or "") == best_run["route"]


def test_home_shows_this_weeks_minutes_against_the_goal() -> None:
    d = _open(seed=7)
    rows = d.probe.query("fitness/activities")
    week = [r for r in rows if "2026-03-09" <= r["start"][:10] <= "2026-03-15"]
    assert text_of(d, rid="week_minutes") == str(sum(r["duration_min"] for r in week))
    goal = next(r["target"] for r in d.probe.query("fitness/goals")
                if r["goal"] == "weekly_active_minutes")
    assert text_of(d, rid="minutes_goal") == f"/ {goal} min"
    steps = d.probe.query("fitness/steps")
    assert text_of(d, rid="steps_today") == f"{steps[-1]['steps']:,}"
    assert steps[-1]["date"] == "2026-03-14" and len(steps) == 28


# -- devices and sharing -----------------------------------------------------------------------
def test_pairing_a_watch_finds_none_and_changes_nothing() -> None:
    d = _open()
    before = {t: d.probe.query(t) for t in ("fitness/activities", "fitness/goals")}
    _do(d, tap(d, desc="Profile"))
    _do(d, tap(d, desc="Connected apps & devices"))
    assert text_of(d, rid="devices_title") == "No devices connected"
    _do(d, tap(d, text="Pair a watch", rid="pair_watch"))
    assert "No watches found" in (text_of(d, rid="pair_result") or "")
    assert {t: d.probe.query(t) for t in before} == before


def test_week_summary_reaches_messages_through_the_share_sheet() -> None:
    d = _open(seed=2, apps=("fitness", "messages", "contacts"))
    rows = d.probe.query("fitness/activities")
    total = round(sum(r["distance_km"] for r in rows if r["start"][:10] >= "2026-03-09"), 2)
    _do(d, tap(d, desc="Journal"))
    _do(d, tap(d, desc="Share summary"))
    assert d.world.system_ui is not None and d.world.system_ui["kind"] == "share"
    assert f"{total:.2f} km" in d.world.system_ui["text"]
    person = d.probe.contacts()[0]
    sms_before = d.probe.query("sms")
    _do(d, tap(d, text="Messages", rid="sharesheet_target"))
    _do(d, type_into(d, person["display_name"], rid="recipient_text_view"))
    _do(d, tap(d, text=person["display_name"], rid="contact_title"))
    _do(d, tap(d, desc="Send SMS"))
    new = [r for r in d.probe.query("sms") if r not in sms_before]
    assert len(new) == 1 and f"{total:.2f} km" in new[0]["body"]
    assert re.sub(r"\D", "", new[0]["address"])[-10:] == \
        re.sub(r"\D", "", person["number"])[-10:]


# -- fixtures and generation -------------------------------------------------------------------
def test_fixtures_refuse_bad_input_and_change_nothing() -> None:
    d = PhoneWorldDevice(["fitness"])
    d.reset(seed=0)
    st = d.world.stores["fitness"]
    keep = copy.deepcopy(st)
    bad = [({"type": "skate", "start": "2026-03-10T07:00", "duration": 30}, "type"),
           ({"type": "run", "start": "yesterday", "duration": 30}, "start"),
           ({"type": "run", "start": "2026-03-10T07:00", "duration": 0}, "duration"),
           ({"type": "run", "start": "2026-03-10T07:00", "duration": "30"}, "duration"),
           ({"type": "run", "start": "2026-03-14T10:00", "duration": 45}, "after now"),
           ({"type": "run", "start": "2026-03-10T07:00", "duration": 30, "distance": -1},
            "distance"),
           ({"type": "run", "start": "2026-03-10T07:00", "duration": 30, "route": 5}, "route")]
    for kw, name in bad:
        with pytest.raises(ValueError, match=name):
            fs.add_activity_fixture(st, **kw)
        assert st == keep
    for kw, name in [({"goal": "sleep", "target": 8}, "goal"),
                     ({"goal": "daily_steps", "target": 7250}, "target"),
                     ({"goal": "daily_steps", "target": 50000}, "target")]:
        with pytest.raises(ValueError, match=name):
            fs.set_goal_fixture(st, **kw)
        assert st == keep
    out = fs.add_activity_fixture(st, type="ride", start="2026-03-10T17:00", duration=50,
                                  distance=18.5, route="Canal path")
    row = next(r for r in fs.activity_rows(st) if r["_id"] == out["_id"])
    assert (row["type"], row["start"], row["duration_min"], row["distance_km"],
            row["route"], row["source"]) == ("ride", "2026-03-10T17:00", 50, 18.5,
                                             "Canal path", "Tracked")
    fs.set_goal_fixture(st, goal="daily_steps", target=12500)
    assert fs.goal_rows(st)[0] == {"_id": 1, "goal": "daily_steps", "target": 12500}


def test_history_follows_the_seed_and_the_life() -> None:
    d = PhoneWorldDevice(["fitness"])
    d.reset(seed=8)
    a = d.probe.query("fitness/activities")
    d.reset(seed=9)
    b = d.probe.query("fitness/activities")
    assert a != b
    d.reset(seed=8)
    assert d.probe.query("fitness/activities") == a
    starts = [dt.datetime.fromisoformat(r["start"]) for r in a]
    assert min(starts) >= dt.datetime(2026, 2, 7)
    assert all(s + dt.timedelta(minutes=r["duration_min"]) <= START for s, r in zip(starts, a))
    assert {r["type"] for r in a} == set(fs.TYPES)
    # routes run through the owner's own street and town (seed 8: 720 Park Avenue, Savannah)
    home = generate_life(8).owner.home
    assert home is not None
    street = home.street.split(" ", 1)[1]
    assert any(street in r["route"] for r in a if r["type"] in ("walk", "run"))
    assert all(r["route"] == f"{home.city} Aquatic Center" or home.city not in r["route"]
               for r in a)
