"""What is special about Phone and Notes, end to end through UI actions: the ``tel:`` intent
from Contacts and Messages lands on the keypad with the number; ending a call logs exactly
one outgoing call; blocking and unblocking numbers; the ``call_log`` writer's checks; Notes
shared into a Messages draft through the share sheet; text shared into Notes; checklists,
search suggestions, the options sheet, autosave and the empty-note discard.

The registry tests (crawl, screens, tasks, boundary, env) cover the rest for both apps."""

from __future__ import annotations

import datetime as dt

import pytest

from phoneworld_gym.app import Page, get_app
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, tap, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import intents

NOW_MS = int(dt.datetime(2026, 3, 14, 10, 30, tzinfo=dt.timezone.utc).timestamp() * 1000)


def _ms(clock: str) -> int:
    """Milliseconds since 1970 of a phone clock time (the phone's zone is UTC)."""
    return int(dt.datetime.fromisoformat(clock).replace(tzinfo=dt.timezone.utc).timestamp()
               * 1000)


def _device(*apps: str, seed: int = 0) -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=list(apps))
    d.reset(seed)
    return d


def _ok(d: PhoneWorldDevice, action: Action) -> None:
    assert d.execute(action) == ""


def _texts(d: PhoneWorldDevice, rid: str) -> list[str]:
    return [e.text or "" for e in d.ui_elements() if (e.resource_id or "").endswith(f"/{rid}")]


def _contact(d: PhoneWorldDevice) -> dict:
    """The first contact (by name) with a number."""
    return next(c for c in sorted(d.probe.contacts(), key=lambda c: c["display_name"])
                if c["number"])


# -- Phone: intents and calls --------------------------------------------------------------
def test_tel_from_contacts_opens_the_keypad_with_the_number_and_the_call_logs_one_row():
    d = _device("contacts", "phone", "messages")
    c = _contact(d)
    before = d.probe.snapshot()
    _ok(d, Action("open_app", app_name="Contacts"))
    _ok(d, tap(d, text=c["display_name"]))
    _ok(d, tap(d, rid="call"))  # Contacts' Call button: a tel: intent
    assert d.probe.foreground_app() == get_app("phone").package
    top = d.world.stacks["phone"][-1]
    assert top["screen"] == "dial" and intents.uri_payload(top["args"]["uri"]) == c["number"]
    assert _texts(d, "digits") == [c["number"]]
    assert _texts(d, "digits_contact_name") == [c["display_name"]]
    assert d.probe.snapshot() == before  # opening the keypad changes nothing
    _ok(d, tap(d, desc="dial"))
    placed = d.probe.now()
    assert d.world.stacks["phone"][-1]["screen"] == "call"
    assert _texts(d, "contactgrid_contact_name") == [c["display_name"]]
    # back does not hang up, and the toggles change nothing in the tables
    _ok(d, Action("navigate_back"))
    _ok(d, tap(d, desc="Mute"))
    _ok(d, tap(d, desc="Speaker"))
    assert next(e for e in d.ui_elements() if e.content_description == "Mute").is_checked
    assert d.probe.snapshot() == before
    _ok(d, tap(d, desc="End call"))
    ended = d.probe.now()
    after = d.probe.query("call_log")
    new = [r for r in after if r not in before["call_log"]]
    # dated when it was placed, as long as the back, two toggles and end took (4 taps: 8 s)
    assert new == [{"_id": max(r["_id"] for r in before["call_log"]) + 1,
                    "number": c["number"], "name": c["display_name"], "date": _ms(placed),
                    "duration": 8, "type": 2, "new": 0}]
    assert _ms(ended) - _ms(placed) == 8000
    assert len(after) == len(before["call_log"]) + 1
    # back on the keypad the call came from; every other table as it was
    assert d.world.stacks["phone"][-1]["screen"] == "dial"
    snap = d.probe.snapshot()
    assert {t: rows for t, rows in snap.items() if t != "call_log"} == \
        {t: rows for t, rows in before.items() if t != "call_log"}


def test_call_icon_in_a_messages_thread_opens_the_keypad():
    d = _device("contacts", "phone", "messages", seed=2)
    _ok(d, Action("open_app", app_name="Messages"))
    i = find(d, rid="conversation")
    assert i is not None
    _ok(d, Action("click", index=i))
    address = d.world.stacks["messages"][-1]["args"]["address"]
    _ok(d, tap(d, desc="Call"))
    top = d.world.stacks["phone"][-1]
    assert top["screen"] == "dial" and intents.uri_payload(top["args"]["uri"]) == address


def test_keypad_keys_backspace_and_an_empty_call():
    d = _device("phone")
    before = d.probe.query("call_log")
    _ok(d, Action("open_app", app_name="Phone"))
    _ok(d, tap(d, desc="key pad"))
    _ok(d, tap(d, desc="dial"))  # nothing typed: a toast, no call
    assert d.world.toast["text"] == "Enter a number to call"
    assert d.world.stacks["phone"][-1]["screen"] == "dial"
    for k in "5550199":
        _ok(d, tap(d, desc=k))
    _ok(d, tap(d, desc="#"))
    _ok(d, tap(d, desc="backspace"))
    assert _texts(d, "digits") == ["5550199"]
    _ok(d, tap(d, desc="dial"))
    _ok(d, tap(d, desc="End call"))
    added = [r for r in d.probe.query("call_log") if r not in before]
    assert [(r["number"], r["name"], r["type"]) for r in added] == [("5550199", "", 2)]


def test_recents_shows_missed_calls_in_red_order_and_a_search_filters_them():
    d = _device("contacts", "phone", seed=3)
    _ok(d, Action("open_app", app_name="Phone"))
    rows = [e.content_description or "" for e in d.ui_elements()
            if (e.resource_id or "").endswith("/call_log_row")]
    log = sorted(d.probe.query("call_log"), key=lambda r: -r["date"])
    kinds = {1: "Incoming call", 2: "Outgoing call", 3: "Missed call", 6: "Blocked call"}
    # newest first, each row saying what kind of call it was
    assert [r.split(", ")[0] for r in rows] == [kinds[r["type"]] for r in log[:len(rows)]]
    missed = next(r for r in log if r["type"] == 3 and r["name"])
    _ok(d, type_into(d, missed["name"], rid="search_box"))
    shown = [e.content_description or "" for e in d.ui_elements()
             if (e.resource_id or "").endswith("/call_log_row")]
    assert shown and all(f", {missed['name']}, " in s for s in shown)
    assert sum(s.startswith("Missed call") for s in shown) == \
        sum(1 for r in log if r["number"] == missed["number"] and r["type"] == 3)


def test_block_from_a_call_row_then_unblock_and_add_by_hand():
    d = _device("contacts", "phone", seed=1)
    known = {c["number"] for c in d.probe.contacts()}
    blocked = [r["number"] for r in d.probe.query("phone/blocked")]
    stranger = next(r for r in d.probe.query("call_log")
                    if r["number"] not in known and r["number"] not in blocked)
    log = d.probe.query("call_log")
    _ok(d, Action("open_app", app_name="Phone"))
    _ok(d, type_into(d, stranger["number"][-4:], rid="search_box"))
    i = find(d, rid="call_log_row")
    assert i is not None
    _ok(d, Action("long_press", index=i))
    assert _texts(d, "menu_header") == [stranger["number"]]
    _ok(d, tap(d, text="Block number"))
    rows = d.probe.query("phone/blocked")
    assert [r["number"] for r in rows] == blocked + [stranger["number"]]
    assert d.probe.query("call_log") == log  # blocking leaves the log alone
    # the same menu now offers to unblock; the details show it too
    _ok(d, Action("long_press", index=find(d, rid="call_log_row")))
    assert find(d, text="Unblock number") is not None
    _ok(d, Action("navigate_back"))  # the keyboard of the search field
    _ok(d, Action("navigate_back"))  # the menu
    assert find(d, text="Unblock number") is None
    _ok(d, Action("click", index=find(d, rid="call_log_row")))
    assert _texts(d, "blocked_label") == ["Blocked"]
    # Blocked numbers (overflow menu): unblock with the X, add one by hand, bad input
    _ok(d, Action("navigate_back"))
    _ok(d, tap(d, desc="More options"))
    _ok(d, tap(d, text="Blocked numbers"))
    _ok(d, tap(d, desc=f"Unblock {stranger['number']}"))
    assert [r["number"] for r in d.probe.query("phone/blocked")] == blocked
    _ok(d, tap(d, text="Add a number"))
    _ok(d, type_into(d, "call me", rid="blocked_number_field"))
    _ok(d, tap(d, text="Block", cls="Button"))
    assert d.world.toast["text"] == "Enter a phone number"
    assert [r["number"] for r in d.probe.query("phone/blocked")] == blocked
    _ok(d, type_into(d, "+1 415-555-0100", rid="blocked_number_field"))
    _ok(d, tap(d, text="Block", cls="Button"))
    _ok(d, tap(d, text="Add a number"))
    _ok(d, type_into(d, "4155550100", rid="blocked_number_field"))  # the same number
    _ok(d, tap(d, text="Block", cls="Button"))
    assert d.world.toast["text"] == "4155550100 is already blocked"
    assert [r["number"] for r in d.probe.query("phone/blocked")] == blocked + ["+1 415-555-0100"]


def test_deleting_a_call_and_a_whole_history():
    d = _device("contacts", "phone", seed=4)
    log = d.probe.query("call_log")
    newest = max(log, key=lambda r: (r["date"], r["_id"]))
    _ok(d, Action("open_app", app_name="Phone"))
    _ok(d, Action("long_press", index=find(d, rid="call_log_row")))
    _ok(d, tap(d, text="Delete", rid="title"))
    assert d.probe.query("call_log") == [r for r in log if r["_id"] != newest["_id"]]
    # the details of a contact's calls: the bin removes exactly their rows
    log = d.probe.query("call_log")
    named = next(r for r in log if r["name"])
    _ok(d, Action("click", index=find(d, desc=named["name"], contains=True,
                                      rid="call_log_row")))
    _ok(d, tap(d, desc="Delete call history"))
    _ok(d, tap(d, text="Delete", cls="Button"))
    assert d.probe.query("call_log") == [r for r in log if r["number"] != named["number"]]


def test_call_log_writer_inserts_updates_deletes_and_names_bad_input():
    d = _device("phone")
    rows = d.probe.query("call_log")
    rid = d.insert("call_log", {"number": "+1 202-555-0147", "type": 3, "date": NOW_MS - 1000})
    row = next(r for r in d.probe.query("call_log") if r["_id"] == rid)
    assert row == {"_id": rid, "number": "+1 202-555-0147", "name": "", "date": NOW_MS - 1000,
                   "duration": 0, "type": 3, "new": 1}  # a missed call starts new
    d.update("call_log", rid, {"new": 0, "name": "Ann"})
    row = next(r for r in d.probe.query("call_log") if r["_id"] == rid)
    assert (row["new"], row["name"]) == (0, "Ann")
    for bad, words in (({"number": "1", "type": 4}, "type"), ({"number": "1", "new": 2}, "new"),
                       ({"number": "1", "date": "soon"}, "date"), ({"type": 1}, "number"),
                       ({"number": "1", "duration": -3}, "duration")):
        with pytest.raises(ValueError, match=words):
            d.insert("call_log", bad)
    with pytest.raises(ValueError, match="no call_log row"):
        d.update("call_log", 10 ** 6, {"new": 0})
    with pytest.raises(ValueError, match="column"):
        d.update("call_log", rid, {"cached_name": "x"})
    d.delete("call_log", rid)
    assert d.probe.query("call_log") == rows
    with pytest.raises(ValueError, match="no call_log row"):
        d.delete("call_log", rid)
    with pytest.raises(ValueError, match="number"):
        d.fixture("phone", "block", number=5)


def test_the_log_is_seeded_from_the_life():
    """Calls with people of the life (their names cached), strangers, some missed, one
    blocked spam number; all before the clock, ids in date order; different per seed."""
    logs = []
    for seed in (0, 1):
        d = _device("contacts", "phone", seed=seed)
        people = {c["number"]: c["display_name"] for c in d.probe.contacts()}
        log = d.probe.query("call_log")
        assert all(r["date"] < NOW_MS for r in log)
        assert [r["_id"] for r in sorted(log, key=lambda r: r["date"])] == \
            sorted(r["_id"] for r in log)
        assert all(people[r["number"]] == r["name"] for r in log if r["name"])
        assert any(not r["name"] for r in log) and any(r["type"] == 3 and r["name"]
                                                       for r in log)
        spam = d.probe.query("phone/blocked")[0]["number"]
        assert any(r["number"] == spam and r["type"] == 6 for r in log)
        logs.append(log)
    assert logs[0] != logs[1]


# -- Notes: sharing both ways ---------------------------------------------------------------
def test_share_a_note_into_a_messages_draft_through_the_share_sheet():
    d = _device("contacts", "messages", "notes")
    note = next(r for r in d.probe.query("notes/notes") if not r["checklist"])
    person = _contact(d)
    before = d.probe.snapshot()
    _ok(d, Action("open_app", app_name="Notes"))
    _ok(d, tap(d, rid="open_search_bar"))
    _ok(d, type_into(d, note["title"], rid="search_src_text"))
    _ok(d, tap(d, desc=note["title"], rid="browse_note_interior_content", contains=True))
    _ok(d, tap(d, desc="Send"))
    assert d.probe.foreground_app() == intents.RESOLVER_PACKAGE
    assert _texts(d, "content_preview_title") == [note["title"]]
    assert _texts(d, "content_preview_text") == [note["body"]]
    assert "Notes" not in [e.text for e in d.ui_elements()
                           if (e.resource_id or "").endswith("sharesheet_target")]
    _ok(d, tap(d, text="Messages", rid="sharesheet_target"))
    assert d.world.stacks["messages"][-1]["args"]["shared"]["text"] == note["body"]
    _ok(d, type_into(d, person["display_name"], rid="recipient_text_view"))
    _ok(d, tap(d, text=person["display_name"], rid="contact_title"))
    assert d.world.stacks["messages"][-1]["args"]["draft"] == note["body"]
    assert any(e.is_editable and e.text == note["body"] for e in d.ui_elements())
    assert d.probe.query("sms") == before["sms"]  # a draft, nothing sent
    _ok(d, tap(d, desc="Send SMS"))
    sent = [r for r in d.probe.query("sms") if r not in before["sms"]]
    assert [(r["address"], r["body"], r["type"]) for r in sent] == \
        [(person["number"], note["body"], 2)]
    assert d.probe.query("notes/notes") == before["notes/notes"]


def test_a_checklist_shares_one_line_per_item():
    d = _device("messages", "notes", seed=1)
    note = next(r for r in d.probe.query("notes/notes") if r["checklist"])
    items = [r for r in d.probe.query("notes/items") if r["note_id"] == note["_id"]]
    _ok(d, Action("open_app", app_name="Notes"))
    _ok(d, Action("long_press", index=find(d, desc=note["title"], contains=True)))
    _ok(d, tap(d, text="Send", rid="sheet_item_title"))
    assert d.world.system_ui["text"] == "\n".join(
        f"[{'x' if r['checked'] else ' '}] {r['text']}" for r in items)
    assert d.world.system_ui["subject"] == note["title"]


def test_text_shared_from_another_app_becomes_a_new_note(monkeypatch):
    contacts = type(get_app("contacts"))
    screens = dict(contacts.screens)
    inner = screens["main"]

    def main_with_share(ctx):  # a Share action on the contacts list, for this test only
        out = inner(ctx)
        body = out.body if isinstance(out, Page) else out
        from phoneworld_gym.ui import widgets as w
        body.children.append(w.button("Share", ctx.share(text="Gate code 4412",
                                                        subject="Visiting Ann"),
                                      rid="share_test", theme=ctx.theme))
        return out

    screens["main"] = main_with_share
    monkeypatch.setattr(contacts, "screens", screens)
    d = _device("contacts", "notes")
    before = d.probe.query("notes/notes")
    _ok(d, Action("open_app", app_name="Contacts"))
    _ok(d, tap(d, rid="share_test"))
    _ok(d, tap(d, text="Notes", rid="sharesheet_target"))
    assert d.world.stacks["notes"][-1]["screen"] == "edit"
    assert _texts(d, "editable_title") == ["Visiting Ann"]
    assert _texts(d, "edit_note_text") == ["Gate code 4412"]
    assert d.probe.query("notes/notes") == before  # not saved until it is closed or edited
    _ok(d, Action("navigate_back"))  # closing keeps it, as Keep does
    new = [r for r in d.probe.query("notes/notes") if r not in before]
    assert [(r["title"], r["body"], r["checklist"], r["pinned"]) for r in new] == \
        [("Visiting Ann", "Gate code 4412", 0, 0)]


# -- Notes: editing -------------------------------------------------------------------------
def test_checklist_items_are_added_ticked_and_removed_and_empty_notes_are_discarded():
    d = _device("notes", seed=2)
    notes0, items0 = d.probe.query("notes/notes"), d.probe.query("notes/items")
    _ok(d, Action("open_app", app_name="Notes"))
    _ok(d, tap(d, desc="New list"))
    _ok(d, type_into(d, "Camping", rid="editable_title"))
    for item in ("Tent", "Stove", "Lantern"):
        _ok(d, type_into(d, item, rid="add_item_text_view"))
    _ok(d, type_into(d, "   ", rid="add_item_text_view"))  # a blank item is not added
    _ok(d, tap(d, text="Stove", rid="list_item_checkbox"))
    _ok(d, tap(d, desc="Delete Lantern"))
    new = [r for r in d.probe.query("notes/notes") if r not in notes0]
    assert [(r["title"], r["checklist"]) for r in new] == [("Camping", 1)]
    items = [r for r in d.probe.query("notes/items") if r not in items0]
    assert [(r["note_id"], r["text"], r["checked"]) for r in items] == \
        [(new[0]["_id"], "Tent", 0), (new[0]["_id"], "Stove", 1)]
    # a new note left empty is discarded when closed; nothing else changed
    _ok(d, Action("navigate_back"))
    _ok(d, Action("navigate_back"))
    _ok(d, tap(d, desc="New note"))
    _ok(d, type_into(d, "x", rid="editable_title"))
    _ok(d, type_into(d, "", rid="editable_title"))
    _ok(d, Action("navigate_back"))
    _ok(d, Action("navigate_back"))
    assert d.world.toast["text"] == "Empty note discarded"
    assert [r for r in d.probe.query("notes/notes") if r not in notes0] == new


def test_search_suggests_titles_while_typing_and_the_options_sheet_pins_and_deletes():
    d = _device("notes", seed=0)
    notes = d.probe.query("notes/notes")
    target = next(r for r in notes if not r["pinned"] and r["title"].lower().startswith("b"))
    _ok(d, Action("open_app", app_name="Notes"))
    _ok(d, tap(d, rid="open_search_bar"))
    _ok(d, tap(d, rid="search_src_text"))
    d.dispatcher.type_key("b")  # typing on the keyboard (no enter yet): suggestions
    d.invalidate()
    titles = [e.text for e in d.ui_elements() if (e.resource_id or "").endswith("/suggestion")]
    assert target["title"] in titles and all("b" in t.lower() for t in titles)
    d.dispatcher.type_key("ENTER")  # submitted: the results stay, the suggestions go
    d.invalidate()
    assert find(d, rid="suggestion") is None and find(d, rid="results_header") is not None
    _ok(d, Action("long_press", index=find(d, desc=target["title"], rid=(
        "browse_note_interior_content"))))
    _ok(d, tap(d, text="Pin", rid="sheet_item_title"))
    after = d.probe.query("notes/notes")
    assert [r for r in after if r not in notes] == [dict(target, pinned=1)]
    _ok(d, Action("navigate_back"))
    _ok(d, Action("navigate_back"))
    # pinned notes come first in the grid
    cards = [e.content_description for e in d.ui_elements()
             if (e.resource_id or "").endswith("/browse_note_interior_content")]
    pins = [c for c in cards if c.endswith(", pinned")]
    assert f"{target['title']}, pinned" in pins and cards[:len(pins)] == pins
    _ok(d, Action("long_press", index=find(d, desc=f"{target['title']}, pinned")))
    _ok(d, tap(d, text="Delete", rid="sheet_item_title"))
    assert [r["_id"] for r in d.probe.query("notes/notes")] == \
        [r["_id"] for r in notes if r["_id"] != target["_id"]]


def test_add_note_fixture_checks_its_arguments():
    d = _device("notes")
    made = d.fixture("notes", "add_note", title="Trip", items=["Map", ["Snacks", True]])
    items = [r for r in d.probe.query("notes/items") if r["note_id"] == made["_id"]]
    assert [(r["text"], r["checked"]) for r in items] == [("Map", 0), ("Snacks", 1)]
    for kw, words in (({"title": ""}, "title"), ({"title": "A", "body": 3}, "body"),
                      ({"title": "A", "items": "x"}, "items"),
                      ({"title": "A", "items": [["x", "yes"]]}, "item"),
                      ({"title": "A", "pinned": 1}, "pinned")):
        with pytest.raises(ValueError, match=words):
            d.fixture("notes", "add_note", **kw)


def test_a_sideways_swipe_on_a_card_deletes_that_note_only():
    d = _device("notes", seed=3)
    notes, items = d.probe.query("notes/notes"), d.probe.query("notes/items")
    _ok(d, Action("open_app", app_name="Notes"))
    i = find(d, rid="browse_note_interior_content")
    assert i is not None
    title = (d.ui_elements()[i].content_description or "").removesuffix(", pinned")
    gone = next(r for r in notes if r["title"] == title)
    d.execute(Action("swipe", direction="up", index=i))  # a vertical swipe only scrolls
    assert d.probe.query("notes/notes") == notes
    _ok(d, Action("swipe", direction="right", index=find(d, desc=title, contains=True)))
    assert d.world.toast["text"] == "Note deleted"
    assert d.probe.query("notes/notes") == [r for r in notes if r["_id"] != gone["_id"]]
    assert d.probe.query("notes/items") == [r for r in items if r["note_id"] != gone["_id"]]
