"""Settings > Date & time and Do Not Disturb schedules: Android's keys (``global auto_time``,
``global auto_time_zone``, ``system time_12_24``) written by the switches, the zone list only
while the zone is set by hand, and the "Sleeping" schedule's days and times, through the
checkbox dialog and both modes of the time picker, in ``settings_app/zen_schedules``."""

from __future__ import annotations

import pytest

from phoneworld_gym import Action
from phoneworld_gym.apps.settings import store as ss
from phoneworld_gym.oracle import elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.controls import TEXT_MODE_DESC

SLEEPING = {"_id": "sleeping", "name": "Sleeping", "enabled": 0, "days": "1,2,3,4,5,6,7",
            "startHour": 22, "startMinute": 0, "endHour": 7, "endMinute": 0}


@pytest.fixture
def phone() -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=["settings", "contacts"], screenshot_size=(108, 240))
    d.reset(1)
    return d


def _do(d: PhoneWorldDevice, actions) -> None:
    for a in actions if not isinstance(actions, Action) else [actions]:
        assert d.execute(a) == "", a


def _page(d: PhoneWorldDevice, page: str, entry: str) -> None:
    _do(d, Action("open_app", app_name="Settings"))
    _do(d, scroll_to(d, text=page, rid="dashboard_tile_title"))
    _do(d, tap(d, text=page, rid="dashboard_tile_title"))
    _do(d, scroll_to(d, text=entry, rid="title"))
    _do(d, tap(d, text=entry, rid="title"))


def _summary(d: PhoneWorldDevice, title: str) -> str:
    """The summary line under a preference's title."""
    els = elements(d)
    i = next(i for i, e in enumerate(els)
             if e.text == title and (e.resource_id or "").endswith("/title"))
    return next(e.text or "" for e in els[i + 1:] if (e.resource_id or "").endswith("/summary"))


def test_the_new_keys_have_android_defaults_and_the_tables_start_as_pixel_ships():
    assert ss.DEFAULTS[("global", "auto_time")] == "1"
    assert ss.DEFAULTS[("global", "auto_time_zone")] == "1"
    assert ss.DEFAULTS[("system", "time_12_24")] == "12"
    d = PhoneWorldDevice(apps=["settings"])
    d.reset(0)
    assert d.probe.query("settings_app/zen_schedules") == [SLEEPING]
    assert d.probe.query("settings_app/time_zone") == [{"_id": "persist.sys.timezone",
                                                        "value": "Etc/UTC"}]


def test_24_hour_switch_writes_time_12_24_and_changes_the_times_shown(phone):
    _page(phone, "System", "Date & time")
    assert _summary(phone, "Time") == "10:30 AM"
    assert _summary(phone, "Use 24-hour format") == "1:00 PM"
    _do(phone, tap(phone, text="Use 24-hour format", rid="title"))
    assert phone.probe.setting("system", "time_12_24") == "24"
    assert _summary(phone, "Use 24-hour format") == "13:00"
    _do(phone, tap(phone, text="Use 24-hour format", rid="title"))
    assert phone.probe.setting("system", "time_12_24") == "12"


def test_auto_time_switch_writes_auto_time(phone):
    _page(phone, "System", "Date & time")
    _do(phone, tap(phone, text="Set time automatically", rid="title"))
    assert phone.probe.setting("global", "auto_time") == "0"
    assert phone.probe.setting("global", "auto_time_zone") is None  # untouched


def test_time_zone_is_picked_only_by_hand_and_automatic_puts_the_network_zone_back(phone):
    _page(phone, "System", "Date & time")
    zone_row = find(phone, text="Time zone", rid="title")
    assert zone_row is not None
    # greyed out while automatic: the list opens but says why nothing can be picked
    _do(phone, tap(phone, text="Time zone", rid="title"))
    assert "Turn it off" in (text_of(phone, rid="auto_zone_note") or "")
    _do(phone, scroll_to(phone, text="Tokyo", rid="title"))
    assert phone.execute(tap(phone, text="Tokyo", rid="title")).startswith("nothing to tap")
    assert phone.probe.query("settings_app/time_zone")[0]["value"] == "Etc/UTC"
    _do(phone, Action("navigate_back"))
    _do(phone, tap(phone, text="Set time zone automatically", rid="title"))
    assert phone.probe.setting("global", "auto_time_zone") == "0"
    _do(phone, tap(phone, text="Time zone", rid="title"))
    assert find(phone, rid="auto_zone_note") is None
    _do(phone, scroll_to(phone, text="Tokyo", rid="title"))
    _do(phone, tap(phone, text="Tokyo", rid="title"))
    assert phone.probe.query("settings_app/time_zone")[0]["value"] == "Asia/Tokyo"
    assert _summary(phone, "Time zone") == "GMT+09:00 Japan Standard Time (Tokyo)"
    assert _summary(phone, "Time") == "7:30 PM"  # 10:30 UTC in Tokyo
    _do(phone, tap(phone, text="Set time zone automatically", rid="title"))
    assert phone.probe.query("settings_app/time_zone")[0]["value"] == ss.NETWORK_ZONE
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        ss.zone("Mars/Olympus")


def test_sleeping_schedule_days_times_and_switch(phone):
    _page(phone, "Sound & vibration", "Do Not Disturb schedules")
    assert text_of(phone, rid="summary") is not None
    _do(phone, tap(phone, text="Sleeping", rid="title"))
    # days: uncheck Sunday and Saturday; Cancel keeps the old days, Done saves
    _do(phone, tap(phone, text="Days", rid="title"))
    _do(phone, tap(phone, text="Sunday", cls="CheckBox"))
    _do(phone, tap(phone, text="Cancel"))
    assert phone.probe.query("settings_app/zen_schedules") == [SLEEPING]
    _do(phone, tap(phone, text="Days", rid="title"))
    _do(phone, tap(phone, text="Sunday", cls="CheckBox"))
    _do(phone, tap(phone, text="Saturday", cls="CheckBox"))
    _do(phone, tap(phone, text="Done"))
    assert _summary(phone, "Days") == "Mon, Tue, Wed, Thu, Fri"
    # start on the clock face: 10:30 PM
    _do(phone, tap(phone, text="Start time", rid="title"))
    _do(phone, tap(phone, desc="10 o'clock"))
    _do(phone, tap(phone, desc="30 minutes"))
    _do(phone, tap(phone, text="OK"))
    # end by typing, in the keyboard mode: 6:45 AM
    _do(phone, tap(phone, text="End time", rid="title"))
    _do(phone, tap(phone, desc=TEXT_MODE_DESC))
    _do(phone, type_into(phone, "6", rid="material_hour_text_input"))
    _do(phone, type_into(phone, "45", rid="material_minute_text_input"))
    _do(phone, tap(phone, text="OK"))
    assert _summary(phone, "End time") == "6:45 AM next day"
    _do(phone, tap(phone, text="Use schedule", rid="title"))
    assert phone.probe.query("settings_app/zen_schedules") == [
        {**SLEEPING, "enabled": 1, "days": "2,3,4,5,6", "startHour": 22, "startMinute": 30,
         "endHour": 6, "endMinute": 45}]
    # the list's switch turns it off again without opening it
    _do(phone, Action("navigate_back"))
    assert "22" not in _summary(phone, "Sleeping")  # a 12-hour phone
    assert _summary(phone, "Sleeping") == "Mon, Tue, Wed, Thu, Fri, 10:30 PM – 6:45 AM next day"
    _do(phone, tap(phone, desc="Sleeping schedule"))
    assert phone.probe.query("settings_app/zen_schedules")[0]["enabled"] == 0
    assert find(phone, text="Use schedule") is None  # still on the list


def test_schedule_refuses_no_days_and_a_bad_time(phone):
    _page(phone, "Sound & vibration", "Do Not Disturb schedules")
    _do(phone, tap(phone, text="Sleeping", rid="title"))
    _do(phone, tap(phone, text="Days", rid="title"))
    for day in ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"):
        _do(phone, tap(phone, text=day, cls="CheckBox"))
    _do(phone, tap(phone, text="Done"))
    assert phone.world.toast is not None and phone.world.toast["text"] == "Choose at least one day"
    _do(phone, tap(phone, text="Cancel"))
    _do(phone, tap(phone, text="Start time", rid="title"))
    _do(phone, tap(phone, desc=TEXT_MODE_DESC))
    _do(phone, type_into(phone, "13", rid="material_hour_text_input"))
    _do(phone, tap(phone, text="OK"))
    assert text_of(phone, rid="error") == "Enter a valid time"
    assert phone.probe.query("settings_app/zen_schedules") == [SLEEPING]


def test_a_24_hour_phone_shows_schedule_times_in_24_hours(phone):
    phone.put_setting("system", "time_12_24", "24")
    _page(phone, "Sound & vibration", "Do Not Disturb schedules")
    assert _summary(phone, "Sleeping") == "Off · Every day, 22:00 – 07:00 next day"
