"""What is special about Messages and Calendar (the registry-driven tests cover the rest):
seeded from the life, contact names from the contacts provider, read on open, thread delete,
the writers' checks, and the date picker's accessibility attributes and month stepping."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest

from phoneworld_gym.apps.calendar.screens import parse_time
from phoneworld_gym.contract import Action
from phoneworld_gym.life import generate as generate_life
from phoneworld_gym.oracle import elements, find, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice

NOW_MS = int(dt.datetime(2026, 3, 14, 10, 30, tzinfo=dt.timezone.utc).timestamp() * 1000)


@pytest.fixture
def phone() -> PhoneWorldDevice:
    d = PhoneWorldDevice(screenshot_size=(108, 240))
    d.reset(3)
    return d


def test_seeded_from_the_life(phone):
    life = generate_life(3)
    numbers = {p.phone for p in life.people}
    sms = phone.probe.query("sms")
    assert {r["address"] for r in sms} <= numbers
    assert 5 <= len({r["address"] for r in sms}) <= 7
    assert any(r["read"] == 0 for r in sms) and all(r["date"] < NOW_MS for r in sms)
    events = phone.probe.query("calendar")
    assert len({e["title"] for e in events}) == len(events) >= 10
    day = 24 * 3600_000
    assert all(NOW_MS - 21 * day < e["dtstart"] < e["dtend"] < NOW_MS + 40 * day
               for e in events)


def test_names_from_contacts_and_read_on_open(phone):
    phone.execute(Action("open_app", app_name="Messages"))
    unread = [e for e in elements(phone) if ", unread, " in (e.content_description or "")]
    assert unread
    name = unread[0].content_description.split(",")[0]
    assert name in {c["display_name"] for c in phone.probe.contacts()}
    number = next(c["number"] for c in phone.probe.contacts() if c["display_name"] == name)
    phone.execute(tap(phone, text=name, rid="conversation_name"))
    assert all(r["read"] == 1 for r in phone.probe.query("sms") if r["address"] == number)
    # a reply is a sent, read row at the phone's clock
    phone.execute(type_into(phone, "On my way", rid="compose_message_text"))
    phone.execute(tap(phone, desc="Send SMS"))
    sent = int(dt.datetime.fromisoformat(phone.probe.now()).replace(
        tzinfo=dt.timezone.utc).timestamp() * 1000)  # the clock as the send tap ended
    last = phone.probe.query("sms")[-1]
    assert (last["address"], last["body"], last["type"], last["read"], last["date"]) == \
        (number, "On my way", 2, 1, sent)
    assert sent > NOW_MS  # the clock ran while the reply was written


def test_search_by_name_number_and_text(phone):
    phone.execute(Action("open_app", app_name="Messages"))
    names = [e.text for e in elements(phone)
             if (e.resource_id or "").endswith("/conversation_name")]
    sms = phone.probe.query("sms")
    who = {c["display_name"]: c["number"] for c in phone.probe.contacts()}
    target = names[1]
    body = next(r["body"] for r in sms if r["address"] == who[target])
    for q in (target.split()[1], who[target][-8:], body):
        phone.execute(type_into(phone, q, rid="search_bar"))
        shown = [e.text for e in elements(phone)
                 if (e.resource_id or "").endswith("/conversation_name")]
        assert target in shown, q
    phone.execute(type_into(phone, "zzqx", rid="search_bar"))
    assert text_of(phone, rid="empty_text") == "No results"


def test_long_press_deletes_a_whole_thread(phone):
    phone.execute(Action("open_app", app_name="Messages"))
    before = phone.probe.query("sms")
    name = text_of(phone, rid="conversation_name")
    number = next(c["number"] for c in phone.probe.contacts() if c["display_name"] == name)
    phone.execute(Action("long_press", index=find(phone, text=name, rid="conversation_name")))
    phone.execute(tap(phone, text="Cancel", cls="Button"))
    assert phone.probe.query("sms") == before
    phone.execute(Action("long_press", index=find(phone, text=name, rid="conversation_name")))
    phone.execute(tap(phone, text="Delete", cls="Button"))
    assert phone.probe.query("sms") == [r for r in before if r["address"] != number]


@pytest.mark.parametrize("table,row,error", [
    ("sms", {"body": "no address"}, "needs an address"),
    ("sms", {"address": "+1 555-555-0100", "type": 3}, "type must be"),
    ("sms", {"address": "+1 555-555-0100", "read": "yes"}, "must be an integer"),
    ("calendar", {"dtstart": NOW_MS}, "needs a title"),
    ("calendar", {"title": "X"}, "needs a dtstart"),
    ("calendar", {"title": "X", "dtstart": NOW_MS, "dtend": NOW_MS - 1}, "before dtstart"),
])
def test_writers_refuse_bad_rows_and_change_nothing(phone, table, row, error):
    before = phone.probe.snapshot()
    with pytest.raises(ValueError, match=error):
        phone.insert(table, row)
    assert phone.probe.snapshot() == before


def test_date_picker_attributes_and_month_stepping(phone):
    phone.execute(Action("open_app", app_name="Calendar"))
    phone.execute(tap(phone, desc="Create new event"))
    phone.execute(type_into(phone, "Haircut", rid="title_field"))
    phone.execute(tap(phone, rid="start_date"))
    root = ET.fromstring(phone.a11y_xml())
    today = next(n for n in root.iter("node")
                 if n.get("content-desc") == "Saturday, March 14, 2026")
    assert (today.get("text"), today.get("checkable"), today.get("checked"),
            today.get("clickable")) == ("14", "true", "true", "true")
    assert text_of(phone, rid="month_title") == "March 2026"
    phone.execute(tap(phone, desc="Next month"))
    phone.execute(tap(phone, desc="Next month"))
    assert text_of(phone, rid="month_title") == "May 2026"
    phone.execute(tap(phone, desc="Previous month"))
    phone.execute(tap(phone, desc="Thursday, April 2, 2026"))
    assert text_of(phone, rid="date_picker_header_date") == "Thu, Apr 2"
    phone.execute(tap(phone, text="OK", rid="button1"))
    phone.execute(type_into(phone, "7:30 pm", rid="start_time"))
    phone.execute(type_into(phone, "20:15", rid="end_time"))
    phone.execute(tap(phone, rid="save"))
    new = phone.probe.query("calendar")[-1]
    start = dt.datetime(2026, 4, 2, 19, 30, tzinfo=dt.timezone.utc)
    assert (new["title"], new["dtstart"], new["dtend"] - new["dtstart"]) == \
        ("Haircut", int(start.timestamp() * 1000), 45 * 60_000)


def test_time_picker_fills_a_time_field(phone):
    phone.execute(Action("open_app", app_name="Calendar"))
    phone.execute(tap(phone, desc="Create new event"))
    phone.execute(tap(phone, desc="Pick end time"))
    phone.execute(type_into(phone, "13", rid="material_hour_text_input"))
    phone.execute(tap(phone, rid="material_timepicker_ok_button"))
    assert text_of(phone, rid="error") == "Enter a valid time"
    phone.execute(type_into(phone, "8", rid="material_hour_text_input"))
    phone.execute(type_into(phone, "45", rid="material_minute_text_input"))
    phone.execute(tap(phone, rid="material_clock_period_pm_button"))
    phone.execute(tap(phone, rid="material_timepicker_ok_button"))
    assert text_of(phone, rid="end_time") == "8:45 PM"
    assert find(phone, rid="material_timepicker_container") is None


def test_calendar_tabs_are_selected_tabs(phone):
    phone.execute(Action("open_app", app_name="Calendar"))
    root = ET.fromstring(phone.a11y_xml())
    tabs = {n.get("content-desc"): n.get("selected") for n in root.iter("node")
            if (n.get("resource-id") or "").split("/")[-1].startswith("tab_")}
    assert tabs == {"Month": "true", "Week": "false", "Schedule": "false"}


@pytest.mark.parametrize("text,want", [
    ("7:30 PM", (19, 30)), ("7:30pm", (19, 30)), ("12 am", (0, 0)), ("12:05 p.m.", (12, 5)),
    ("19:30", (19, 30)), ("0:00", (0, 0)), ("7", None), ("13:00 pm", None), ("25:00", None),
    ("noon", None),
])
def test_parse_time(text, want):
    assert parse_time(text) == want
