"""The write verbs and the probe of the simulated phone: what a task's setup and verifier see.

Rows come back as written (with the columns Android uses), every table shows in the snapshot,
bad input is a clear ValueError or Unsupported that changes nothing, and an installed app that
serves a common table (a Messages app serving ``sms``) owns it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from phoneworld_gym.app import _APPS, App, TableWriter
from phoneworld_gym.device import COMMON_TABLES, Unsupported
from phoneworld_gym.life import generate as generate_life
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.validators import Diff


@pytest.fixture
def phone() -> PhoneWorldDevice:
    d = PhoneWorldDevice(screenshot_size=(108, 240))
    d.reset(5)
    return d


def test_every_common_table_is_served(phone):
    assert set(COMMON_TABLES) <= set(phone.probe.tables())
    snap = phone.probe.snapshot()
    assert set(snap) == set(phone.probe.tables())
    assert "shopping/products" not in list(snap)  # static: readable, left out of damage checks
    assert phone.probe.query("shopping/products")[0]["_id"] == "P0001"
    assert len(snap["contacts"]) == 24


@pytest.mark.parametrize("table,row", [
    ("sms", {"address": "+1 415-555-0100", "body": "See you at 6 ;) $(reboot)", "date": 1,
             "type": 1, "read": 0}),
    ("calendar", {"title": "Dentist", "dtstart": 1773570600000, "dtend": 1773574200000,
                  "eventLocation": "12 Oak Avenue", "description": ""}),
    ("alarms", {"hour": 7, "minutes": 30, "label": "Gym", "enabled": 1, "days": "MO,WE"}),
])
def test_insert_update_delete_round_trip(phone, table, row):
    before = phone.probe.snapshot()
    rid = phone.insert(table, row)

    def mine() -> list[dict[str, Any]]:  # an app serving the table may have seeded rows
        return [r for r in phone.probe.query(table) if r["_id"] == rid]

    assert mine() == [{"_id": rid, **row}]
    diff = Diff(before, phone.probe.snapshot())
    assert diff.changed_tables() == [table] and len(diff.table(table).added) == 1
    first = next(iter(row))
    phone.update(table, rid, {first: row[first]})
    assert mine() == [{"_id": rid, **row}]
    phone.delete(table, rid)
    assert mine() == [] and phone.probe.snapshot() == before


def test_contacts_write_through_the_contacts_app(phone):
    rid = phone.insert("contacts", {"display_name": "Zed Quux", "number": "+1 555-555-0199",
                                    "starred": 1})
    row = next(r for r in phone.probe.contacts() if r["_id"] == rid)
    assert (row["display_name"], row["number"], row["starred"]) == \
        ("Zed Quux", "+1 555-555-0199", 1)
    phone.update("contacts", rid, {"starred": 0, "email": "zed@mail.com"})
    row = next(r for r in phone.probe.contacts() if r["_id"] == rid)
    assert (row["starred"], row["email"]) == (0, "zed@mail.com")
    phone.delete("contacts", rid)
    assert all(r["_id"] != rid for r in phone.probe.contacts())


def test_settings_and_files(phone):
    phone.put_setting("system", "screen_brightness", "128")
    assert phone.probe.setting("system", "screen_brightness") == "128"
    assert {"_id": "screen_brightness", "value": "128"} in phone.probe.query("settings/system")
    before = phone.probe.query("files")  # apps start with files of their own (photos, ...)
    phone.push_file("/sdcard/Download/note.txt", b"hello")
    after = phone.probe.query("files")
    (f,) = [r for r in after if r not in before]
    assert f["_id"] == "/sdcard/Download/note.txt" and f["size"] == 5 and len(f["sha256"]) == 64
    assert len(after) == len(before) + 1


@pytest.mark.parametrize("call,error", [
    (lambda p: p.insert("sms", {"adress": "typo"}), "no columns"),
    (lambda p: p.insert("sms", ["not", "a", "dict"]), "must be a dict"),
    (lambda p: p.update("sms", 99, {"body": "x"}), "no sms row"),
    (lambda p: p.delete("calendar", 99), "no calendar row"),
    (lambda p: p.insert("contacts", {"color": "red"}), "no columns"),
    (lambda p: p.update("contacts", 999, {"starred": 1}), "no contact"),
    (lambda p: p.put_setting("vendor", "x", "1"), "namespace"),
    (lambda p: p.put_setting("system", "bad key; rm", "1"), "bad settings key"),
    (lambda p: p.push_file("/etc/passwd", b"x"), "under /sdcard"),
    (lambda p: p.push_file("/sdcard/../etc/passwd", b"x"), "under /sdcard"),
    (lambda p: p.push_file("/sdcard/a.txt", "text, not bytes"), "bytes"),
    (lambda p: p.fixture("shopping", "add_to_cart", lines=[{"product_id": "P9999"}]),
     "P9999"),
])
def test_bad_writes_are_refused_and_change_nothing(phone, call, error):
    before = phone.world.state_hash()
    with pytest.raises(ValueError, match=error):
        call(phone)
    assert phone.world.state_hash() == before


@pytest.mark.parametrize("call", [
    lambda p: p.fixture("shopping", "no_such_fixture"),
    lambda p: p.fixture("notes", "anything"),
    lambda p: p.probe.query("notes/pages"),
    lambda p: p.probe.query("settings/vendor"),
    lambda p: p.insert("files", {"size": 1}),
])
def test_unknown_tables_and_fixtures_are_unsupported(phone, call):
    with pytest.raises(Unsupported):
        call(phone)


class _Sms(App):
    """A stand-in Messages app that serves the ``sms`` table from its own store."""

    name = "test_sms"
    label = "Test SMS"
    package = "com.phoneworld.testsms"
    screens = {"main": lambda ctx: None}  # type: ignore[dict-item]

    def generate(self, rng: np.random.Generator, life: Any) -> dict[str, Any]:
        return {"messages": [{"_id": 1, "address": life.people[0].phone, "body": "hi",
                              "date": 0, "type": 1, "read": 1}]}


def _insert(store: dict[str, Any], row: dict[str, Any]) -> int:
    rid = len(store["messages"]) + 1
    store["messages"].append({"_id": rid, **row})
    return rid


_Sms.providers = {"sms": lambda store: [dict(m) for m in store["messages"]]}
_Sms.writers = {"sms": TableWriter(insert=_insert, update=lambda *a: None,
                                   delete=lambda *a: None)}


def test_an_app_that_serves_a_common_table_owns_it():
    _APPS["test_sms"] = _Sms()
    try:
        phone = PhoneWorldDevice(apps=["contacts", "test_sms"], screenshot_size=(108, 240))
        phone.reset(2)
        (first,) = phone.probe.query("sms")
        assert first["body"] == "hi" and first["address"] == generate_life(2).people[0].phone
        rid = phone.insert("sms", {"address": "+1 555-555-0100", "body": "yo", "date": 2,
                                   "type": 2, "read": 1})
        assert rid == 2 and [r["body"] for r in phone.probe.query("sms")] == ["hi", "yo"]
        assert phone.world.system["sms"] == []  # the app's store holds them, not the system
    finally:
        _APPS.pop("test_sms", None)
