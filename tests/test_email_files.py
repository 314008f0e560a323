"""What is special about Email and Files, end to end through UI actions: the mailto: intent
from Contacts' Email button, a file shared from Files into Email's compose, attachments picked
from shared storage and saved back into it, and Files' operations changing exactly the right
rows of the common ``files`` table (plus the pending-folder table, drafts and bad input)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest

from phoneworld_gym.apps.email import store as es
from phoneworld_gym.apps.files import store as fs
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.view import Text

DL = "/sdcard/Download"


@pytest.fixture
def device() -> Iterator[PhoneWorldDevice]:
    d = PhoneWorldDevice()
    d.reset(0)
    yield d


def act(d: PhoneWorldDevice, a: Action | Iterator[Action]) -> None:
    """Run one action (or every action of a generator), failing on any action error."""
    for x in ([a] if isinstance(a, Action) else a):
        err = d.execute(x)
        assert not err, f"{x}: {err}"


def files(d: PhoneWorldDevice) -> dict[str, str]:
    """The ``files`` table as path -> sha256."""
    return {r["_id"]: r["sha256"] for r in d.probe.query("files")}


def mail(d: PhoneWorldDevice) -> dict[int, dict]:
    return {r["_id"]: r for r in d.probe.query("email/messages")}


def screen_of(d: PhoneWorldDevice, app: str) -> str:
    assert d.world.foreground == app
    return d.world.stacks[app][-1]["screen"]


def open_downloads(d: PhoneWorldDevice) -> None:
    act(d, Action("open_app", app_name="Files"))
    act(d, tap(d, text="Downloads", rid="category"))


def item_action(d: PhoneWorldDevice, name: str, label: str) -> None:
    act(d, scroll_to(d, desc=f"More options for {name}"))
    act(d, tap(d, desc=f"More options for {name}"))
    act(d, tap(d, text=label, rid="sheet_item_title"))


# -- plumbing: intents and the share sheet ---------------------------------------------------------
def test_contacts_email_button_opens_compose_with_the_address(device):
    d = device
    person = next(c for c in d.probe.contacts() if c["email"])
    act(d, Action("open_app", app_name="Contacts"))
    act(d, type_into(d, person["display_name"], rid="search_bar"))
    act(d, tap(d, text=person["display_name"], rid="contact_title"))
    act(d, tap(d, rid="email_action"))
    if find(d, rid="resolver_item") is not None:  # another mailto: handler: pick Email
        act(d, tap(d, desc="Email", rid="resolver_item"))
    assert screen_of(d, "email") == "compose"
    assert text_of(d, rid="to") == person["email"] + ", "
    before = mail(d)
    act(d, type_into(d, "Hello there", rid="subject"))
    act(d, tap(d, desc="Send"))
    new = [r for i, r in mail(d).items() if i not in before]
    assert len(new) == 1 and new[0]["to"] == person["email"] and new[0]["folder"] == "sent"
    assert new[0]["subject"] == "Hello there"


def test_a_file_shared_from_files_becomes_an_email_attachment(device):
    d = device
    data = b"quarterly numbers\n1,2,3\n"
    d.push_file(f"{DL}/numbers.csv", data)
    start_files = files(d)
    open_downloads(d)
    item_action(d, "numbers.csv", "Share")
    assert find(d, rid="sharesheet") is not None or find(d, rid="sharesheet_title") is not None
    act(d, tap(d, desc="Email", rid="sharesheet_target"))
    assert screen_of(d, "email") == "compose"
    assert text_of(d, rid="attachment_name") == "numbers.csv"
    assert text_of(d, rid="subject") == "numbers.csv"  # the share's subject
    person = next(c for c in d.probe.contacts() if c["email"])
    act(d, type_into(d, person["email"], rid="to"))
    before = mail(d)
    act(d, tap(d, desc="Send"))
    (sent,) = [r for i, r in mail(d).items() if i not in before]
    assert sent["attachments"] == [{"name": "numbers.csv", "size": len(data),
                                    "sha256": hashlib.sha256(data).hexdigest()}]
    assert sent["to"] == person["email"]
    assert files(d) == start_files  # sharing copies nothing into storage


def test_shared_text_becomes_the_body_and_the_subject(device):
    """What another app's Share button posts (here set as the pending share, as Notes or
    Maps post it) reaches compose through the share sheet's Email cell."""
    d = device
    act(d, Action("open_app", app_name="Files"))
    d.world.system_ui = {"kind": "share", "from": "files", "mime": "text/plain",
                         "text": "Meet at 5 by the fountain", "subject": "Plan", "path": None}
    d.invalidate()
    act(d, tap(d, desc="Email", rid="sharesheet_target"))
    assert screen_of(d, "email") == "compose"
    assert text_of(d, rid="body") == "Meet at 5 by the fountain"
    assert text_of(d, rid="subject") == "Plan"
    assert find(d, rid="attachment_name") is None


def test_attach_from_the_picker_and_remove_again(device):
    d = device
    d.push_file("/sdcard/Documents/plan.txt", b"the plan")
    act(d, Action("open_app", app_name="Email"))
    act(d, tap(d, desc="Compose"))
    act(d, tap(d, desc="Attach file"))
    assert screen_of(d, "email") == "pick_file"
    act(d, scroll_to(d, text="plan.txt", rid="file_title"))
    act(d, tap(d, text="plan.txt", rid="file_title"))
    assert screen_of(d, "email") == "compose"
    assert text_of(d, rid="attachment_name") == "plan.txt"
    act(d, tap(d, desc="Remove plan.txt"))
    assert find(d, rid="attachment_name") is None


def test_saving_an_attachment_writes_it_into_downloads_without_overwriting(device):
    d = device
    row = d.fixture("email", "receive", sender="ana@example.com", sender_name="Ana",
                    subject="Slides", body="here", read=1,
                    attachments=[{"name": "slides.txt", "text": "slide 1"}])
    d.push_file(f"{DL}/slides.txt", b"an older file")
    act(d, Action("open_app", app_name="Email"))
    act(d, tap(d, text="Slides", rid="subject"))
    before = files(d)
    act(d, tap(d, desc="Download slides.txt"))
    after = files(d)
    assert set(after) - set(before) == {f"{DL}/slides (1).txt"}
    assert after[f"{DL}/slides (1).txt"] == row["attachments"][0]["sha256"] == \
        hashlib.sha256(b"slide 1").hexdigest()
    assert after[f"{DL}/slides.txt"] == before[f"{DL}/slides.txt"]


# -- Files' operations change exactly the right rows -----------------------------------------------
def test_rename_changes_exactly_one_path_and_keeps_the_bytes(device):
    d = device
    d.push_file(f"{DL}/a.txt", b"alpha")
    before = files(d)
    open_downloads(d)
    item_action(d, "a.txt", "Rename")
    act(d, type_into(d, "b.txt", rid="rename_field"))
    after = files(d)
    assert set(before) - set(after) == {f"{DL}/a.txt"}
    assert set(after) - set(before) == {f"{DL}/b.txt"}
    assert after[f"{DL}/b.txt"] == before[f"{DL}/a.txt"]
    assert {k: v for k, v in after.items() if k != f"{DL}/b.txt"} == \
        {k: v for k, v in before.items() if k != f"{DL}/a.txt"}


def test_rename_to_a_taken_or_bad_name_changes_nothing(device):
    d = device
    d.push_file(f"{DL}/a.txt", b"alpha")
    d.push_file(f"{DL}/b.txt", b"beta")
    before = files(d)
    open_downloads(d)
    for bad in ("b.txt", "x/y.txt", "   "):
        item_action(d, "a.txt", "Rename")
        act(d, type_into(d, bad, rid="rename_field"))
        assert files(d) == before
        assert find(d, rid="rename_field") is not None  # the dialog stays, with a toast
        act(d, tap(d, text="Cancel", rid="button1"))


def test_move_and_copy_and_delete_change_exactly_the_right_rows(device):
    d = device
    d.push_file(f"{DL}/m.pdf", b"%PDF-1.4 m")
    d.push_file(f"{DL}/c.pdf", b"%PDF-1.4 c")
    d.push_file(f"{DL}/x.pdf", b"%PDF-1.4 x")
    start = files(d)
    open_downloads(d)
    item_action(d, "m.pdf", "Move to")
    assert screen_of(d, "files") == "pick_folder"
    act(d, tap(d, rid="up_title"))
    act(d, tap(d, text="Documents", rid="folder_title"))
    act(d, tap(d, rid="confirm"))
    moved = files(d)
    assert set(start) - set(moved) == {f"{DL}/m.pdf"}
    assert set(moved) - set(start) == {"/sdcard/Documents/m.pdf"}
    item_action(d, "c.pdf", "Copy to")
    act(d, tap(d, rid="up_title"))
    act(d, tap(d, text="Documents", rid="folder_title"))
    act(d, tap(d, rid="confirm"))
    copied = files(d)
    assert set(copied) - set(moved) == {"/sdcard/Documents/c.pdf"} and set(moved) <= set(copied)
    item_action(d, "x.pdf", "Delete")
    assert files(d) == copied  # nothing until confirmed
    act(d, tap(d, text="Delete", rid="button2"))
    assert set(copied) - set(files(d)) == {f"{DL}/x.pdf"} and set(files(d)) < set(copied)


def select_in_downloads(d: PhoneWorldDevice, names: tuple[str, ...],
                        picked: tuple[str, ...]) -> dict[str, str]:
    """Put ``names`` into Downloads, open it and select ``picked`` (a long press on the first,
    taps on the rest); the ``files`` table before."""
    for n in names:
        d.push_file(f"{DL}/{n}", n.encode())
    before = files(d)
    open_downloads(d)
    act(d, scroll_to(d, text=picked[0], rid="file_title"))
    act(d, Action("long_press", index=find(d, text=picked[0], rid="file_title")))
    for n in picked[1:]:
        act(d, tap(d, text=n, rid="file_title"))
    return before


def test_select_mode_deletes_several_files(device):
    d = device
    before = select_in_downloads(d, ("s1.txt", "s2.txt", "s3.txt"), ("s1.txt", "s3.txt"))
    assert text_of(d, rid="title") == "2 selected"
    act(d, tap(d, desc="Delete"))
    act(d, tap(d, text="Delete", rid="button2"))
    assert set(before) - set(files(d)) == {f"{DL}/s1.txt", f"{DL}/s3.txt"}


def test_select_mode_moves_exactly_the_selected_files(device):
    """The selection's "More options" sheet moves the selected files (it once had no paths
    to move and raised IndexError)."""
    d = device
    before = select_in_downloads(d, ("v1.txt", "v2.txt", "v3.txt"), ("v1.txt", "v2.txt"))
    act(d, tap(d, desc="More options", rid="selection_more"))
    act(d, tap(d, text="Move to", rid="sheet_item_title"))
    assert screen_of(d, "files") == "pick_folder"
    assert d.world.stacks["files"][-1]["args"]["paths"] == [f"{DL}/v1.txt", f"{DL}/v2.txt"]
    act(d, tap(d, rid="up_title"))
    act(d, tap(d, text="Documents", rid="folder_title"))
    act(d, tap(d, rid="confirm"))
    after = files(d)
    assert set(before) - set(after) == {f"{DL}/v1.txt", f"{DL}/v2.txt"}
    assert set(after) - set(before) == {"/sdcard/Documents/v1.txt", "/sdcard/Documents/v2.txt"}
    assert after["/sdcard/Documents/v1.txt"] == before[f"{DL}/v1.txt"]


def test_a_new_folder_is_pending_until_a_file_moves_in(device):
    d = device
    d.push_file(f"{DL}/n.txt", b"note")
    act(d, Action("open_app", app_name="Files"))
    act(d, tap(d, rid="internal_storage_title"))
    act(d, scroll_to(d, text="Documents", rid="folder_title"))
    act(d, tap(d, text="Documents", rid="folder_title"))
    before = files(d)
    act(d, tap(d, desc="New folder"))
    act(d, type_into(d, "Taxes", rid="folder_name"))
    assert d.probe.query("files/folders") == [{"_id": "/sdcard/Documents/Taxes"}]
    assert files(d) == before  # shared storage has no empty folders
    assert find(d, text="Taxes", rid="folder_title") is not None
    act(d, Action("navigate_back"))
    act(d, Action("navigate_back"))
    act(d, tap(d, text="Downloads", rid="category"))
    item_action(d, "n.txt", "Move to")
    act(d, tap(d, rid="up_title"))
    act(d, tap(d, text="Documents", rid="folder_title"))
    act(d, tap(d, text="Taxes", rid="folder_title"))
    act(d, tap(d, rid="confirm"))
    assert set(files(d)) - set(before) == {"/sdcard/Documents/Taxes/n.txt"}
    assert d.probe.query("files/folders") == []  # the file now implies the folder


def test_empty_folders_follow_a_renamed_parent(device):
    d = device
    act(d, Action("open_app", app_name="Files"))
    act(d, tap(d, rid="internal_storage_title"))
    act(d, scroll_to(d, text="Documents", rid="folder_title"))
    act(d, tap(d, text="Documents", rid="folder_title"))
    act(d, tap(d, desc="New folder"))
    act(d, type_into(d, "Trips", rid="folder_name"))
    act(d, tap(d, text="Trips", rid="folder_title"))
    act(d, tap(d, desc="New folder"))
    act(d, type_into(d, "Rome", rid="folder_name"))
    act(d, Action("navigate_back"))
    before = files(d)
    item_action(d, "Trips", "Rename")
    act(d, type_into(d, "Travel", rid="rename_field"))
    assert d.probe.query("files/folders") == [{"_id": "/sdcard/Documents/Travel"},
                                              {"_id": "/sdcard/Documents/Travel/Rome"}]
    assert files(d) == before


def test_search_finds_files_anywhere_and_its_results_act_like_a_list(device):
    d = device
    d.push_file("/sdcard/Documents/deep/inside/needle.txt", b"found")
    d.push_file(f"{DL}/hay.txt", b"hay")
    before = files(d)
    act(d, Action("open_app", app_name="Files"))
    act(d, tap(d, desc="Search files"))
    act(d, type_into(d, "NEEDLE", rid="search_bar"))
    names = [e.text for e in d.ui_elements() if (e.resource_id or "").endswith("/file_title")]
    assert names == ["needle.txt"]
    item_action(d, "needle.txt", "Delete")
    act(d, tap(d, text="Delete", rid="button2"))
    assert set(before) - set(files(d)) == {"/sdcard/Documents/deep/inside/needle.txt"}


def test_sort_by_size_puts_the_largest_first(device):
    d = device
    d.push_file(f"{DL}/aaa_small.txt", b"x")
    d.push_file(f"{DL}/zzz_big.txt", b"x" * 500_000)  # larger than any seeded file
    open_downloads(d)
    act(d, tap(d, desc="Sort"))
    act(d, tap(d, text="Largest first", rid="sort_option"))
    names = [e.text for e in d.ui_elements() if (e.resource_id or "").endswith("/file_title")]
    assert names[0] == "zzz_big.txt" and names.index("aaa_small.txt") > 0


# -- Email's own behaviour -------------------------------------------------------------------------
def test_back_from_compose_keeps_a_draft_that_sends_later_under_its_id(device):
    d = device
    act(d, Action("open_app", app_name="Email"))
    act(d, tap(d, desc="Compose"))
    act(d, type_into(d, "friend@example.com", rid="to"))
    act(d, type_into(d, "Later", rid="subject"))
    before = mail(d)
    act(d, Action("navigate_back"))  # the first back closes the keyboard
    assert mail(d) == before
    act(d, Action("navigate_back"))
    (draft,) = [r for i, r in mail(d).items() if i not in before]
    assert draft["folder"] == "drafts" and draft["subject"] == "Later"
    act(d, tap(d, desc="Open navigation drawer"))
    act(d, tap(d, text="Drafts", rid="drawer_item"))
    act(d, tap(d, text="Later", rid="subject"))
    assert screen_of(d, "email") == "compose"
    act(d, tap(d, desc="Send"))
    assert mail(d)[draft["_id"]]["folder"] == "sent"


def test_a_malformed_address_is_refused_and_nothing_is_sent(device):
    d = device
    act(d, Action("open_app", app_name="Email"))
    act(d, tap(d, desc="Compose"))
    act(d, type_into(d, "not-an-address", rid="to"))
    before = mail(d)
    act(d, tap(d, desc="Send"))
    assert mail(d) == before
    assert screen_of(d, "email") == "compose"
    assert "not an email address" in (d.world.toast or {}).get("text", "").lower()


def test_long_press_menu_and_drawer_move_a_message_to_archive(device):
    d = device
    act(d, Action("open_app", app_name="Email"))
    first = d.ui_elements()
    i = next(k for k, e in enumerate(first) if (e.resource_id or "").endswith("/conversation"))
    mid = es.in_folder(d.world.stores["email"], "inbox")[0]["id"]
    act(d, Action("long_press", index=i))
    act(d, tap(d, text="Archive", rid="menu_item"))
    assert mail(d)[mid]["folder"] == "archive"
    act(d, tap(d, desc="Open navigation drawer"))
    act(d, tap(d, text="Archive", rid="drawer_item"))
    assert text_of(d, rid="folder_title") == "Archive"
    assert find(d, text=mail(d)[mid]["subject"], rid="subject") is not None


def press_keys(d: PhoneWorldDevice, text: str) -> None:
    """Type on the soft keyboard, key by key (no enter): tap each key where it is drawn."""
    for ch in text.lower():
        key = next(v for v in d.screen.root.walk()
                   if isinstance(v, Text) and v.text == ch and v.on_click is not None)
        x1, y1, x2, y2 = key.box
        act(d, Action("click", x=(x1 + x2) // 2, y=(y1 + y2) // 2))


def test_search_suggests_senders_while_typing_and_a_suggestion_searches(device):
    d = device
    act(d, Action("open_app", app_name="Email"))
    sender = es.in_folder(d.world.stores["email"], "inbox")[0]
    act(d, tap(d, rid="open_search"))
    act(d, tap(d, rid="search_bar"))
    press_keys(d, sender["from_name"][:3])
    assert find(d, rid="conversation") is None  # not searched yet: suggestions only
    act(d, tap(d, text=sender["from_name"], rid="suggestion_title"))
    assert text_of(d, rid="search_bar") == sender["from_name"]
    assert find(d, text=sender["subject"], rid="subject") is not None


# -- bad input names the problem -------------------------------------------------------------------
@pytest.mark.parametrize("kw, match", [
    ({"sender": "nobody"}, "sender"),
    ({"minutes_ago": -1}, "minutes_ago"),
    ({"folder": "Spam"}, "folder"),
    ({"attachments": [{"name": "a.txt"}]}, "attachment"),
])
def test_receive_fixture_rejects_bad_arguments(device, kw, match):
    args = {"sender": "a@b.c", "sender_name": "A", "subject": "s", "body": "b", **kw}
    before = mail(device)
    with pytest.raises(ValueError, match=match):
        device.fixture("email", "receive", **args)
    assert mail(device) == before


def test_names_and_addresses_are_checked():
    for bad in ("", "a/b", "..", "x:y"):
        with pytest.raises(ValueError, match="name"):
            fs.check_name(bad)
    assert fs.check_name("  My   notes.txt ") == "My notes.txt"
    with pytest.raises(ValueError, match="not an email address: 'bob'"):
        es._addresses("a@b.c, bob")
    assert es._addresses("a@b.c; d@e.f,") == "a@b.c, d@e.f"
