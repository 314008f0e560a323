"""What is special about Settings and Clock: settings keys written by the screens and read
back with ``probe.setting``, the slider's tap-to-value mapping, the time picker, and the
``alarms`` rows Clock serves."""

from __future__ import annotations

import pytest

from phoneworld_gym import Action
from phoneworld_gym.apps.settings.store import DEFAULTS
from phoneworld_gym.device import COMMON_TABLES
from phoneworld_gym.oracle import elements, find
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.controls import parse_time, slider_value, slider_x, time_text


@pytest.fixture
def phone() -> PhoneWorldDevice:
    d = PhoneWorldDevice(screenshot_size=(108, 240))
    d.reset(3)
    return d


def _tap(d: PhoneWorldDevice, **kw) -> None:
    i = find(d, **kw)
    assert i is not None, kw
    assert d.execute(Action("click", index=i)) == ""


def _page(d: PhoneWorldDevice, title: str) -> None:
    assert d.execute(Action("open_app", app_name="Settings")) == ""
    _tap(d, text=title, rid="dashboard_tile_title")


def test_every_key_of_the_brief_has_an_android_default():
    keys = {("global", k) for k in ("airplane_mode_on", "wifi_on", "bluetooth_on", "mobile_data",
                                    "zen_mode", "low_power", "auto_time", "auto_time_zone")}
    keys |= {("system", k) for k in ("screen_brightness", "screen_off_timeout", "volume_music",
                                     "volume_ring", "volume_alarm", "time_12_24")}
    keys.add(("secure", "ui_night_mode"))
    assert keys == set(DEFAULTS)


@pytest.mark.parametrize("title,ns,key,on,off", [
    ("Wi-Fi", "global", "wifi_on", "1", "0"),
    ("Airplane mode", "global", "airplane_mode_on", "1", "0"),
    ("Mobile data", "global", "mobile_data", "1", "0"),
])
def test_a_switch_reads_put_setting_and_writes_the_key(phone, title, ns, key, on, off):
    phone.put_setting(ns, key, off)
    _page(phone, "Network & internet")
    row = next(e for e in elements(phone) if e.class_name == "android.widget.Switch"
               and e.is_checked is False)
    assert row is not None
    _tap(phone, text=title, rid="title")
    assert phone.probe.setting(ns, key) == on
    _tap(phone, text=title, rid="title")
    assert phone.probe.setting(ns, key) == off
    assert {r["_id"] for r in phone.probe.query(f"settings/{ns}")} == {key}


def test_a_missing_key_reads_as_the_default_and_is_written_only_on_change(phone):
    _page(phone, "Display")
    assert phone.probe.query("settings/secure") == []
    _tap(phone, text="Dark theme", rid="title")
    assert phone.probe.setting("secure", "ui_night_mode") == "2"


def test_dark_theme_and_the_timeout_dialog(phone):
    phone.put_setting("system", "screen_off_timeout", "600000")
    _page(phone, "Display")
    assert any(e.text == "After 10 minutes of inactivity" for e in elements(phone))
    _tap(phone, text="Screen timeout", rid="title")
    checked = [e.text for e in elements(phone) if e.class_name == "android.widget.RadioButton"
               and e.is_checked]
    assert checked == ["10 minutes"]
    _tap(phone, text="2 minutes", cls="RadioButton")
    assert phone.probe.setting("system", "screen_off_timeout") == "120000"
    assert find(phone, cls="RadioButton") is None  # the dialog closed


@pytest.mark.parametrize("lo,hi", [(0, 15), (0, 100), (3, 7)])
def test_slider_x_and_slider_value_are_inverse(lo, hi):
    for x1, x2 in ((42, 1038), (0, 1080), (100, 400)):
        for v in range(lo, hi + 1):
            assert slider_value(slider_x(v, x1, x2, lo, hi), x1, x2, lo, hi) == v
        assert slider_value(x2 - 1, x1, x2, lo, hi) == hi  # the rounding tail is the top


def test_a_tap_on_a_slider_sets_the_value_under_the_finger(phone):
    phone.put_setting("system", "volume_ring", "2")
    _page(phone, "Sound & vibration")
    i = find(phone, desc="Ring & notification volume", cls="SeekBar")
    assert i is not None
    el = elements(phone)[i]
    assert not el.is_clickable and el.text in ("", None)
    b = el.bbox_pixels
    y = int((b.y_min + b.y_max) / 2)
    for v in (0, 9, 15):
        x = slider_x(v, int(b.x_min), int(b.x_max), 0, 15)
        assert phone.execute(Action("click", x=x, y=y)) == ""
        assert phone.probe.setting("system", "volume_ring") == str(v)
    assert phone.execute(Action("click", index=i)) == ""  # the centre: the middle value
    assert phone.probe.setting("system", "volume_ring") == "8"  # bin 8 of 0..15


def test_brightness_percent_round_trips(phone):
    _page(phone, "Display")
    i = find(phone, rid="brightness_slider")
    assert i is not None
    b = elements(phone)[i].bbox_pixels
    for pct in (0, 37, 100):
        x = slider_x(pct, int(b.x_min), int(b.x_max), 0, 100)
        assert phone.execute(Action("click", x=x, y=int((b.y_min + b.y_max) / 2))) == ""
        assert phone.probe.setting("system", "screen_brightness") == str(round(pct * 2.55))
        assert any(e.text == f"{pct}%" for e in elements(phone))


@pytest.mark.parametrize("h,m,pm,want", [("12", "00", False, (0, 0)), ("12", "5", True, (12, 5)),
                                         ("7", "30", True, (19, 30)), ("13", "00", False, None),
                                         ("7", "60", False, None), ("", "10", False, None),
                                         ("x", "1", True, None)])
def test_parse_time(h, m, pm, want):
    assert parse_time(h, m, pm) == want


def test_time_text():
    assert [time_text(h, 5) for h in (0, 11, 12, 23)] == ["12:05 AM", "11:05 AM", "12:05 PM",
                                                          "11:05 PM"]


def test_alarm_rows_have_androids_columns_and_keep_their_order(phone):
    rows = phone.probe.query("alarms")
    assert rows and all(tuple(r) == COMMON_TABLES["alarms"] for r in rows)
    assert [r["_id"] for r in rows] == sorted(r["_id"] for r in rows)
    first = rows[0]["_id"]
    phone.update("alarms", first, {"hour": 23, "minutes": 59})
    assert [r["_id"] for r in phone.probe.query("alarms")] == [r["_id"] for r in rows]


def test_alarm_writes_normalise_days_and_refuse_bad_rows(phone):
    rid = phone.insert("alarms", {"hour": 6, "minutes": 0, "days": ["fr", "MO"], "enabled": 1})
    row = next(r for r in phone.probe.query("alarms") if r["_id"] == rid)
    assert row["days"] == "MO,FR" and row["label"] == "" and row["enabled"] == 1
    for bad in ({"hour": 24, "minutes": 0}, {"hour": 6}, {"hour": 6, "minutes": 0, "days": "XX"},
                {"hour": 6, "minutes": 0, "vibrate": 1}):
        before = phone.probe.query("alarms")
        with pytest.raises(ValueError):
            phone.insert("alarms", bad)
        assert phone.probe.query("alarms") == before


def test_adding_an_alarm_through_the_picker(phone):
    assert phone.execute(Action("open_app", app_name="Clock")) == ""
    before = phone.probe.query("alarms")
    _tap(phone, desc="Add alarm")
    _tap(phone, desc="Switch to text input mode for the time input.")
    for rid, text in (("material_hour_text_input", "13"), ("material_minute_text_input", "5")):
        assert phone.execute(Action("input_text", index=find(phone, rid=rid), text=text,
                                     clear_text=True)) == ""
    _tap(phone, rid="material_timepicker_ok_button")
    assert find(phone, rid="error") is not None  # 13 is no 12-hour hour: nothing added
    assert phone.probe.query("alarms") == before
    i = find(phone, rid="material_hour_text_input")
    assert phone.execute(Action("input_text", index=i, text="9", clear_text=True)) == ""
    _tap(phone, rid="material_clock_period_pm_button")
    _tap(phone, rid="material_timepicker_ok_button")
    (new,) = [r for r in phone.probe.query("alarms") if r not in before]
    assert (new["hour"], new["minutes"], new["enabled"], new["days"]) == (21, 5, 1, "")


def test_stopwatch_start_and_pause_change_state(phone):
    assert phone.execute(Action("open_app", app_name="Clock")) == ""
    _tap(phone, rid="nav_stopwatch")
    _tap(phone, desc="Start")
    assert find(phone, desc="Pause") is not None and find(phone, text="Lap") is not None
    state = {r["_id"]: r for r in phone.probe.query("clock/timers")}["stopwatch"]["state"]
    assert state == "running"
    _tap(phone, desc="Pause")
    assert find(phone, desc="Start") is not None and find(phone, text="Reset") is not None


def test_the_clock_face_sets_hour_then_minute(phone):
    assert phone.execute(Action("open_app", app_name="Clock")) == ""
    before = phone.probe.query("alarms")
    _tap(phone, desc="Add alarm")
    hours = [e for e in elements(phone) if (e.content_description or "").endswith("o'clock")]
    assert len(hours) == 12
    _tap(phone, desc="4 o'clock")
    assert find(phone, desc="4 o'clock") is None  # the face shows the minutes now
    _tap(phone, desc="55 minutes")
    _tap(phone, rid="material_clock_period_pm_button")
    texts = {e.resource_id.rsplit("/", 1)[-1]: e.text for e in elements(phone)
             if e.resource_id and e.resource_id.endswith(("hour_tv", "minute_tv"))}
    assert texts == {"material_hour_tv": "4", "material_minute_tv": "55"}
    _tap(phone, rid="material_timepicker_ok_button")
    (new,) = [r for r in phone.probe.query("alarms") if r not in before]
    assert (new["hour"], new["minutes"]) == (16, 55)
