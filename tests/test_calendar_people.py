"""Calendar guests and notifications: the ``calendar/attendees`` and ``calendar/reminders``
tables (CalendarContract columns), the editor's "Add people" field (contact suggestions,
chips with remove, a typed address), its notification dialog, the event screen, the fixtures
and their errors."""

from __future__ import annotations

import pytest

from phoneworld_gym import Action
from phoneworld_gym.apps.calendar import store as cs
from phoneworld_gym.device import DeviceError
from phoneworld_gym.oracle import elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice


@pytest.fixture
def phone() -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=["calendar", "contacts"], screenshot_size=(108, 240))
    d.reset(2)
    return d


def _do(d: PhoneWorldDevice, actions) -> None:
    for a in actions if not isinstance(actions, Action) else [actions]:
        assert d.execute(a) == "", a


def _open(d: PhoneWorldDevice, eid: int) -> None:
    """Open an event's screen (as a notification would)."""
    _do(d, Action("open_app", app_name="Calendar"))
    d.world.stacks["calendar"].append({"screen": "detail", "args": {"id": eid}, "state": {}})
    d.invalidate()


def _texts(d: PhoneWorldDevice, rid: str) -> list[str]:
    return [e.text or "" for e in elements(d) if (e.resource_id or "").endswith("/" + rid)]


def _contact(d: PhoneWorldDevice, not_in: set[str]) -> dict:
    return next(c for c in d.probe.contacts() if c["email"] and c["email"] not in not_in)


def test_tables_use_calendar_contract_columns_and_seeded_guests_come_from_contacts(phone):
    att = phone.probe.query("calendar/attendees")
    rem = phone.probe.query("calendar/reminders")
    assert att and rem
    assert set(att[0]) == {"_id", "event_id", "attendeeName", "attendeeEmail", "attendeeStatus"}
    assert set(rem[0]) == {"_id", "event_id", "minutes", "method"}
    events = {e["_id"]: e for e in phone.probe.query("calendar")}
    book = {c["email"]: c["display_name"] for c in phone.probe.contacts()}
    for a in att:
        assert a["event_id"] in events
        assert book[a["attendeeEmail"]] == a["attendeeName"]  # a person of the life
        assert a["attendeeStatus"] in (1, 3, 4)
    for r in rem:
        assert r["event_id"] in events and r["method"] == 1
        assert r["minutes"] in (10, 30, 60, 1440)
    # a meal is with the person it is named after
    meal = next(e for e in events.values() if e["title"].startswith(("Lunch with", "Dinner with",
                                                                      "Coffee with",
                                                                      "Brunch with")))
    first = meal["title"].split()[-1]
    assert any(a["event_id"] == meal["_id"] and a["attendeeName"].split()[0] == first
               for a in att)


def test_event_screen_lists_guests_and_the_reminder(phone):
    att = phone.probe.query("calendar/attendees")
    eid = max({a["event_id"] for a in att}, key=lambda e: sum(a["event_id"] == e for a in att))
    guests = [a["attendeeName"] for a in att if a["event_id"] == eid]
    phone.world.stores["calendar"]["reminders"] = []
    cs.set_reminder(phone.world.stores["calendar"], eid, 60)
    _open(phone, eid)
    assert _texts(phone, "attendee_name") == guests
    n = len(guests)
    assert text_of(phone, rid="guest_count") == f"{n} guest{'s' if n != 1 else ''}"
    assert text_of(phone, rid="event_reminder") == "1 hour before"


def test_inviting_from_suggestions_removing_a_chip_and_typing_an_address(phone):
    eid = next(e["_id"] for e in phone.probe.query("calendar")
               if not any(a["event_id"] == e["_id"]
                          for a in phone.probe.query("calendar/attendees")))
    before = phone.probe.query("calendar/attendees")
    a = _contact(phone, set())
    b = _contact(phone, {a["email"]})
    _open(phone, eid)
    _do(phone, tap(phone, desc="Edit event"))
    # a part of the name suggests the contact; a tap makes a chip and clears the field
    _do(phone, type_into(phone, a["display_name"].split()[1][:4], rid="people_field"))
    assert a["display_name"] in _texts(phone, "suggestion") or \
        any(t.startswith(a["display_name"]) for t in _texts(phone, "suggestion"))
    _do(phone, type_into(phone, a["display_name"], rid="people_field"))
    _do(phone, tap(phone, text=a["display_name"], rid="suggestion"))
    assert _texts(phone, "chip_text") == [a["display_name"]]
    assert text_of(phone, rid="people_field") in ("", None, "Add people")
    # an added guest is no longer suggested
    _do(phone, type_into(phone, a["display_name"], rid="people_field"))
    assert a["display_name"] not in _texts(phone, "suggestion")
    # a second one, then remove the first with its chip's button
    _do(phone, type_into(phone, b["display_name"], rid="people_field"))
    _do(phone, tap(phone, text=b["display_name"], rid="suggestion"))
    _do(phone, tap(phone, desc=f"Remove {a['display_name']}"))
    assert _texts(phone, "chip_text") == [b["display_name"]]
    # a typed address that is no contact's is a guest without a name; a bare name is not
    _do(phone, type_into(phone, "Nobody Known", rid="people_field"))
    assert _texts(phone, "chip_text") == [b["display_name"]]
    _do(phone, type_into(phone, "guest@example.org", rid="people_field"))
    assert _texts(phone, "chip_text") == [b["display_name"], "guest@example.org"]
    assert phone.probe.query("calendar/attendees") == before  # nothing saved yet
    _do(phone, tap(phone, rid="save"))
    new = [r for r in phone.probe.query("calendar/attendees") if r not in before]
    assert [(r["event_id"], r["attendeeName"], r["attendeeEmail"], r["attendeeStatus"])
            for r in new] == [(eid, b["display_name"], b["email"], 3),
                              (eid, "", "guest@example.org", 3)]


def test_removing_a_seeded_guest_and_changing_the_reminder_in_place(phone):
    att = phone.probe.query("calendar/attendees")
    rem = phone.probe.query("calendar/reminders")
    r0 = rem[0]
    eid = r0["event_id"]
    cs.invite(phone.world.stores["calendar"], eid, "Test Guest", "test.guest@example.org")
    att = phone.probe.query("calendar/attendees")
    mine = [a for a in att if a["event_id"] == eid]
    _open(phone, eid)
    _do(phone, tap(phone, desc="Edit event"))
    _do(phone, tap(phone, desc=f"Remove {mine[-1]['attendeeName']}"))
    _do(phone, scroll_to(phone, rid="reminder"))
    _do(phone, tap(phone, rid="reminder"))
    want = 0 if r0["minutes"] != 0 else 10
    label = "At time of event" if want == 0 else "10 minutes before"
    _do(phone, tap(phone, text=label, cls="RadioButton"))
    assert find(phone, desc=f"Notification, {label}", rid="reminder") is not None
    _do(phone, tap(phone, rid="save"))
    after = phone.probe.query("calendar/attendees")
    assert after == [a for a in att if a["_id"] != mine[-1]["_id"]]
    rem2 = phone.probe.query("calendar/reminders")
    assert [r for r in rem2 if r["_id"] == r0["_id"]] == [{**r0, "minutes": want}]
    assert len(rem2) == len(rem)
    # "No notification" removes the row
    _do(phone, tap(phone, desc="Edit event"))
    _do(phone, scroll_to(phone, rid="reminder"))
    _do(phone, tap(phone, rid="reminder"))
    _do(phone, tap(phone, text="No notification", cls="RadioButton"))
    _do(phone, tap(phone, rid="save"))
    assert [r["_id"] for r in phone.probe.query("calendar/reminders")] == \
        [r["_id"] for r in rem if r["_id"] != r0["_id"]]


def test_saving_an_edit_that_leaves_guests_alone_changes_neither_table(phone):
    att, rem = phone.probe.query("calendar/attendees"), phone.probe.query("calendar/reminders")
    eid = att[0]["event_id"]
    _open(phone, eid)
    _do(phone, tap(phone, desc="Edit event"))
    _do(phone, type_into(phone, "Somewhere else", rid="location_field"))
    _do(phone, tap(phone, rid="save"))
    assert phone.probe.query("calendar/attendees") == att
    assert phone.probe.query("calendar/reminders") == rem
    # a new event starts without guests or a notification
    _do(phone, Action("navigate_back"))
    ids = {e["_id"] for e in phone.probe.query("calendar")}
    _do(phone, tap(phone, desc="Create new event"))
    assert find(phone, desc="Notification, Add notification", rid="reminder") is not None
    _do(phone, type_into(phone, "Quiet evening", rid="title_field"))
    _do(phone, tap(phone, rid="save"))
    assert len({e["_id"] for e in phone.probe.query("calendar")} - ids) == 1
    assert phone.probe.query("calendar/attendees") == att
    assert phone.probe.query("calendar/reminders") == rem


def test_deleting_an_event_keeps_its_guest_rows_as_androids_provider_does(phone):
    att = phone.probe.query("calendar/attendees")
    eid = att[0]["event_id"]
    phone.delete("calendar", eid)
    assert all(e["_id"] != eid for e in phone.probe.query("calendar"))
    assert phone.probe.query("calendar/attendees") == att


@pytest.mark.parametrize("kw,error", [
    ({"event_id": 999, "name": "A B", "email": "a@b.com"}, "no calendar event with id 999"),
    ({"event_id": 1, "name": "A B", "email": "not-an-address"}, "email address"),
    ({"event_id": 1, "name": "A B", "email": "a@b.com", "status": 9}, "attendee status"),
])
def test_invite_fixture_refuses_bad_arguments_and_changes_nothing(phone, kw, error):
    before = phone.probe.query("calendar/attendees")
    with pytest.raises((ValueError, DeviceError), match=error):
        phone.fixture("calendar", "invite", **kw)
    assert phone.probe.query("calendar/attendees") == before


def test_invite_fixture_refuses_a_guest_twice(phone):
    a = phone.probe.query("calendar/attendees")[0]
    with pytest.raises((ValueError, DeviceError), match="already a guest"):
        phone.fixture("calendar", "invite", event_id=a["event_id"], name="X",
                      email=a["attendeeEmail"].upper())


@pytest.mark.parametrize("minutes", [-5, 50000, "10", 1.5])
def test_remind_fixture_refuses_bad_minutes(phone, minutes):
    before = phone.probe.query("calendar/reminders")
    with pytest.raises((ValueError, DeviceError), match="reminder minutes"):
        phone.fixture("calendar", "remind", event_id=1, minutes=minutes)
    assert phone.probe.query("calendar/reminders") == before


def test_remind_fixture_sets_and_clears(phone):
    eid = next(e["_id"] for e in phone.probe.query("calendar")
               if not any(r["event_id"] == e["_id"]
                          for r in phone.probe.query("calendar/reminders")))
    rid = phone.fixture("calendar", "remind", event_id=eid, minutes=45)
    assert {"_id": rid, "event_id": eid, "minutes": 45, "method": 1} in \
        phone.probe.query("calendar/reminders")
    assert cs.reminder_label(45) == "45 minutes before"
    assert cs.reminder_label(2880) == "2 days before"
    assert phone.fixture("calendar", "remind", event_id=eid, minutes=None) is None
    assert all(r["event_id"] != eid for r in phone.probe.query("calendar/reminders"))
