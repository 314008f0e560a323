"""The system plumbing between apps, through UI actions: intents (one handler, several, none),
the share sheet, runtime permission dialogs and shared storage.

Apps that use a path test it end to end in their own files; this file tests the system side
with the apps that exist everywhere (Contacts, Messages), and with class attributes patched
for the duration of a test where a second handler is needed."""

from __future__ import annotations

import pytest

from phoneworld_gym.app import Page, get_app
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import intents, storage


def _contacts_detail(d: PhoneWorldDevice) -> str:
    """Open the first contact with a phone number and return its display name."""
    d.execute(Action("open_app", app_name="Contacts"))
    first = next(c for c in sorted(d.probe.contacts(), key=lambda c: c["display_name"])
                 if c["number"])
    assert d.execute(tap(d, text=first["display_name"])) == ""
    return str(first["display_name"])


def test_uri_helpers_round_trip_and_reject_garbage():
    assert intents.uri_scheme("TEL:+1 555") == "tel"
    assert intents.uri_payload(intents.uri_for("tel", "+1 (555) 010-0200")) == "+1 (555) 010-0200"
    assert intents.uri_payload(intents.uri_for("mailto", "ann.lee@example.com")) \
        == "ann.lee@example.com"
    assert intents.uri_payload(intents.uri_for("geo", "12 Oak St, Springfield")) \
        == "12 Oak St, Springfield"
    assert intents.uri_for("url", "example.com/a") == "https://example.com/a"
    for bad in ("", "no scheme here", "://x", None):
        with pytest.raises(ValueError):
            intents.uri_scheme(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        intents.uri_for("ftp", "x")


def test_sms_intent_from_contacts_opens_the_thread_with_that_number():
    d = PhoneWorldDevice(apps=["contacts", "messages"])
    d.reset(1)
    name = _contacts_detail(d)
    number = next(c["number"] for c in d.probe.contacts() if c["display_name"] == name)
    assert d.execute(tap(d, rid="text")) == ""
    assert d.probe.foreground_app() == get_app("messages").package
    top = d.world.stacks["messages"][-1]
    assert top["screen"] == "thread"
    assert intents.uri_payload(top["args"]["uri"]) == number
    # the thread shows the contact's name in its app bar: the number resolved to the person
    assert any(e.text == name for e in d.ui_elements())


def test_intent_with_no_handler_shows_a_toast_and_changes_nothing_else():
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    _contacts_detail(d)
    before = d.probe.snapshot()
    assert d.execute(tap(d, rid="call")) == ""
    assert d.world.toast is not None and d.world.toast["text"] == "No app can open this link"
    assert d.probe.foreground_app() == get_app("contacts").package
    assert d.probe.snapshot() == before


def test_two_handlers_show_the_chooser_and_the_choice_opens_that_app(monkeypatch):
    contacts = type(get_app("contacts"))
    monkeypatch.setattr(contacts, "intent_filters", {"sms": "main"})
    d = PhoneWorldDevice(apps=["contacts", "messages"])
    d.reset(2)
    _contacts_detail(d)
    assert d.execute(tap(d, rid="text")) == ""
    assert d.world.system_ui is not None and d.world.system_ui["kind"] == "chooser"
    assert d.probe.foreground_app() == intents.RESOLVER_PACKAGE
    labels = [e.text for e in d.ui_elements() if e.resource_id.endswith("resolver_item")]
    assert labels == ["Contacts", "Messages"]
    # back closes the chooser and nothing opens
    d.execute(Action("navigate_back"))
    assert d.world.system_ui is None
    assert d.probe.foreground_app() == get_app("contacts").package
    d.execute(tap(d, rid="text"))
    assert d.execute(tap(d, text="Messages")) == ""
    assert d.world.system_ui is None
    assert d.world.stacks["messages"][-1]["screen"] == "thread"
    assert d.probe.foreground_app() == get_app("messages").package


def test_share_sheet_lists_targets_copies_and_delivers_text(monkeypatch):
    contacts = type(get_app("contacts"))
    screens = dict(contacts.screens)
    inner = screens["main"]

    def main_with_share(ctx):  # a Share action on the contacts list, for this test only
        out = inner(ctx)
        body = out.body if isinstance(out, Page) else out
        from phoneworld_gym.ui import widgets as w
        body.children.append(w.button("Share list", ctx.share(text="Ann 555-0100",
                                                             subject="Numbers"),
                                      rid="share_test", theme=ctx.theme))
        return out

    screens["main"] = main_with_share
    monkeypatch.setattr(contacts, "screens", screens)
    d = PhoneWorldDevice(apps=["contacts", "messages"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    assert d.execute(tap(d, rid="share_test")) == ""
    assert d.probe.foreground_app() == intents.RESOLVER_PACKAGE
    els = d.ui_elements()
    assert [e.text for e in els if e.resource_id.endswith("sharesheet_target")] == ["Messages"]
    assert any(e.text == "Ann 555-0100" for e in els)
    assert any(e.text == "Numbers" for e in els)
    # Copy puts the text on the clipboard and closes the sheet
    assert d.execute(tap(d, rid="copy")) == ""
    assert d.world.clipboard == "Ann 555-0100" and d.world.system_ui is None
    # Share to Messages: its compose screen gets the text, and picking a person makes it
    # that thread's draft (nothing is sent)
    d.execute(tap(d, rid="share_test"))
    sms_before = d.probe.query("sms")
    assert d.execute(tap(d, text="Messages")) == ""
    top = d.world.stacks["messages"][-1]
    assert top["screen"] == "compose" and top["args"]["shared"]["text"] == "Ann 555-0100"
    i = find(d, rid="contact_title")
    assert i is not None
    assert d.execute(Action("click", index=i)) == ""
    thread = d.world.stacks["messages"][-1]
    assert thread["screen"] == "thread" and thread["args"]["draft"] == "Ann 555-0100"
    assert any(e.is_editable and e.text == "Ann 555-0100" for e in d.ui_elements())
    assert d.probe.query("sms") == sms_before


def test_home_and_open_app_dismiss_system_windows(monkeypatch):
    contacts = type(get_app("contacts"))
    monkeypatch.setattr(contacts, "intent_filters", {"sms": "main"})
    d = PhoneWorldDevice(apps=["contacts", "messages"])
    d.reset(0)
    _contacts_detail(d)
    d.execute(tap(d, rid="text"))
    assert d.world.system_ui is not None
    d.execute(Action("navigate_home"))
    assert d.world.system_ui is None
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, rid="text"))
    assert d.world.system_ui is not None
    d.execute(Action("open_app", app_name="Messages"))
    assert d.world.system_ui is None


def test_permission_dialog_covers_the_screen_until_answered(monkeypatch):
    contacts = type(get_app("contacts"))
    screens = dict(contacts.screens)
    inner = screens["main"]

    def main_needing_location(ctx):
        out = inner(ctx)
        body = out.body if isinstance(out, Page) else out
        return Page(body, permission="location")

    screens["main"] = main_needing_location
    monkeypatch.setattr(contacts, "screens", screens)
    for choice, stored in (("While using the app", "granted"), ("Only this time", "once"),
                           ("Don't allow", "denied")):
        d = PhoneWorldDevice(apps=["contacts"])
        d.reset(0)
        d.execute(Action("open_app", app_name="Contacts"))
        els = d.ui_elements()
        assert d.screen.package == intents.PERMISSION_PACKAGE
        assert d.probe.foreground_app() == intents.PERMISSION_PACKAGE
        assert any(e.text == "Allow Contacts to access this device's location?" for e in els)
        # the app below is not in the dump and cannot be tapped through the scrim
        assert find(d, rid="search_bar") is None
        assert d.execute(tap(d, text=choice)) == ""
        assert d.world.permissions == {"contacts": {"location": stored}}
        assert d.screen.package == get_app("contacts").package
        assert d.probe.foreground_app() == get_app("contacts").package
        assert find(d, rid="search_bar") is not None
    # back on the dialog is "Don't allow"
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(Action("navigate_back"))
    assert d.world.permissions == {"contacts": {"location": "denied"}}
    # an unknown permission name is the app's bug, said plainly
    screens["main"] = lambda ctx: Page(inner(ctx) if not isinstance(inner(ctx), Page)
                                       else inner(ctx).body, permission="telepathy")
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    with pytest.raises(ValueError, match="telepathy"):
        d.execute(Action("open_app", app_name="Contacts"))
        d.ui_elements()


def test_storage_moves_copies_and_deletes_folders_and_refuses_bad_paths():
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    w = d.world
    storage.write(w, "/sdcard/Download/a.txt", b"alpha")
    storage.write(w, "/sdcard/Download/sub/b.txt", b"beta")
    storage.move(w, "/sdcard/Download", "/sdcard/Documents/old", keep=True)
    paths = [r["_id"] for r in d.probe.query("files")]
    assert paths == ["/sdcard/Documents/old/a.txt", "/sdcard/Documents/old/sub/b.txt",
                     "/sdcard/Download/a.txt", "/sdcard/Download/sub/b.txt"]
    assert storage.read(w, "/sdcard/Documents/old/sub/b.txt") == b"beta"
    storage.move(w, "/sdcard/Download/a.txt", "/sdcard/Download/sub/a.txt")
    storage.delete(w, "/sdcard/Documents")
    assert [r["_id"] for r in d.probe.query("files")] == ["/sdcard/Download/sub/a.txt",
                                                          "/sdcard/Download/sub/b.txt"]
    sizes = {r["_id"]: r["size"] for r in d.probe.query("files")}
    assert sizes == {"/sdcard/Download/sub/a.txt": 5, "/sdcard/Download/sub/b.txt": 4}
    for bad in ("/etc/passwd", "/sdcard/../x", "/sdcard/a/", "/sdcard//a", "relative.txt"):
        with pytest.raises(ValueError):
            storage.write(w, bad, b"x")
    with pytest.raises(ValueError, match="into itself"):
        storage.move(w, "/sdcard/Download", "/sdcard/Download/sub/inner")
    with pytest.raises(ValueError, match="is a folder"):
        storage.write(w, "/sdcard/Download/sub", b"x")
    with pytest.raises(KeyError):
        storage.delete(w, "/sdcard/nothing")
    # nothing was lost by the refused calls
    assert len(d.probe.query("files")) == 2


def test_back_from_a_shared_screen_returns_to_the_app_that_shared() -> None:
    """A share target runs in the sender's task, as on Android: back from it (even into an
    app with no screens open) returns to the sender, and the receiving app opens at its own
    main screen afterwards."""
    from phoneworld_gym.oracle import tap as tap_el

    d = PhoneWorldDevice()
    d.reset(0)
    assert d.execute(Action("open_app", app_name="Gallery")) == ""
    assert "notes" not in d.world.stacks or not d.world.stacks["notes"]
    d.world.system_ui = {"kind": "share", "from": "gallery", "mime": "text/plain",
                         "text": "Sunset at the pier", "subject": "", "path": ""}
    d.invalidate()
    assert d.execute(tap_el(d, text="Notes")) == ""
    assert d.world.foreground == "notes"
    assert d.world.stacks["notes"][-1].get("caller") == "gallery"
    d.execute(Action("navigate_back"))
    if d.world.foreground == "notes":  # a draft's own back handling, then the screen
        d.execute(Action("navigate_back"))
    assert d.world.foreground == "gallery"
    d.execute(Action("open_app", app_name="Notes"))
    main = d.apps["notes"].main_screen
    assert d.world.stacks["notes"][-1]["screen"] == main
