"""Notifications the phone's own apps post at the start of an episode, and where a tap on each
in the shade leads: Calendar's reminder of the day's next event opens that event, Email's
newest unread message opens that message."""

from __future__ import annotations

import datetime as dt

import pytest

from phoneworld_gym import Action
from phoneworld_gym.oracle import find, tap, text_of
from phoneworld_gym.phone import PhoneWorldDevice

NOW_MS = int(dt.datetime(2026, 3, 14, 10, 30, tzinfo=dt.timezone.utc).timestamp() * 1000)
DAY_END_MS = int(dt.datetime(2026, 3, 15, tzinfo=dt.timezone.utc).timestamp() * 1000)


def _phone(seed: int) -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=["calendar", "contacts", "email"], screenshot_size=(108, 240))
    d.reset(seed)
    return d


def _note(d: PhoneWorldDevice, app: str) -> dict:
    notes = [n for n in d.world.notifications if n["app"] == app]
    assert len(notes) == 1, notes
    return notes[0]


def _open_from_shade(d: PhoneWorldDevice, title: str) -> None:
    assert d.execute(Action("swipe", direction="down", x=540, y=20)) == ""
    assert d.probe.foreground_app() == "com.android.systemui"
    assert d.execute(tap(d, text=title)) == ""


def _next_reminded_event(d: PhoneWorldDevice) -> dict:
    """Today's first event from now on that has a reminder, from the tables alone."""
    reminded = {r["event_id"] for r in d.probe.query("calendar/reminders")}
    today = [e for e in d.probe.query("calendar")
             if NOW_MS <= e["dtstart"] < DAY_END_MS and e["_id"] in reminded]
    return min(today, key=lambda e: (e["dtstart"], e["_id"]))


@pytest.mark.parametrize("seed", [0, 3])
def test_calendar_reminder_opens_the_event(seed):
    d = _phone(seed)
    event = _next_reminded_event(d)
    note = _note(d, "calendar")
    assert note["title"] == event["title"]
    assert "4:00 PM" in note["text"]  # the seeded call on the clock's day is at 4 PM
    _open_from_shade(d, event["title"])
    assert d.probe.foreground_app() == "com.phoneworld.calendar"
    assert text_of(d, rid="event_title") == event["title"]
    assert text_of(d, rid="event_reminder") == "10 minutes before"
    assert not [n for n in d.world.notifications if n["app"] == "calendar"]
    # back goes to the app's main screen underneath (a synthesized back stack), not home
    d.execute(Action("navigate_back"))
    assert d.probe.foreground_app() == "com.phoneworld.calendar"
    assert d.world.stacks["calendar"][-1]["screen"] == d.apps["calendar"].main_screen


def test_calendar_posts_nothing_without_an_upcoming_reminder():
    """With the reminder of the day's event removed, Calendar posts no notification."""
    from phoneworld_gym.app import get_app
    from phoneworld_gym.apps.calendar import store as cs

    d = _phone(0)
    s = d.world.stores["calendar"]
    for e in cs.on_day(s, dt.date(2026, 3, 14)):
        cs.set_reminder(s, e["id"], None)
    assert get_app("calendar").notifications(s) == []
    # a reminder on an event that already began this morning does not count either
    early = cs.add(s, title="Standup", dtstart=NOW_MS - 3600_000, dtend=NOW_MS - 1800_000)
    cs.set_reminder(s, early["id"], 10)
    assert get_app("calendar").notifications(s) == []


@pytest.mark.parametrize("seed", [0, 1])
def test_email_notification_opens_the_newest_unread_message(seed):
    d = _phone(seed)
    inbox = [m for m in d.probe.query("email/messages")
             if m.get("folder") == "inbox" and not m.get("read")]
    note = _note(d, "email")
    assert inbox, "the seeded inbox has unread mail"
    message = max(inbox, key=lambda m: m["date"])  # the newest unread one
    assert note["args"]["id"] == message["_id"]
    assert note["text"] == message["subject"]
    _open_from_shade(d, note["title"])
    assert d.probe.foreground_app() == "com.phoneworld.email"
    assert find(d, text=message["subject"]) is not None
    assert not [n for n in d.world.notifications if n["app"] == "email"]
