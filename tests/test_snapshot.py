"""The probe's lazy snapshot: what it reads is the phone at the moment it was taken, table by
table equal to eager queries, and damage checks skip tables whose source did not change."""

from __future__ import annotations

import copy

from phoneworld_gym.contract import Action
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.sim_access import Snapshot
from phoneworld_gym.validators import Diff


def _eager(d: PhoneWorldDevice) -> dict:
    return {t: d.probe.query(t) for t in d.probe.tables()}


def test_a_snapshot_is_the_phone_when_taken_not_later() -> None:
    d = PhoneWorldDevice()
    d.reset(2)
    snap, eager = d.probe.snapshot(), _eager(d)
    assert isinstance(snap, Snapshot) and list(snap) == list(eager)
    d.insert("contacts", {"display_name": "Later Person", "number": "+1 415-555-0177"})
    d.put_setting("system", "screen_brightness", "12")
    assert dict(snap.items()) == eager  # read after the changes: still the start
    assert snap != d.probe.snapshot()
    assert copy.deepcopy(snap) == snap


def test_same_tells_which_sources_changed_and_diff_names_only_those() -> None:
    d = PhoneWorldDevice()
    d.reset(2)
    before = d.probe.snapshot()
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(Action("scroll", direction="down"))
    d.execute(Action("navigate_home"))
    after = d.probe.snapshot()
    assert all(before.same(after, t) for t in before)  # looking changes nothing
    assert Diff(before, after).changed_tables() == []
    d.insert("contacts", {"display_name": "New Person", "number": "+1 415-555-0178"})
    d.insert("alarms", {"hour": 6, "minutes": 5, "label": "Run", "enabled": 1, "days": ""})
    after = d.probe.snapshot()
    changed = {t for t in before if not before.same(after, t)}
    assert "contacts" in changed and "alarms" in changed and "sms" not in changed
    assert Diff(before, after).changed_tables() == ["alarms", "contacts"]
    added = Diff(before, after).table("contacts").added
    assert [r["display_name"] for r in added] == ["New Person"]


def test_unknown_tables_fail_as_a_mapping_does() -> None:
    d = PhoneWorldDevice()
    d.reset(0)
    snap = d.probe.snapshot()
    assert "no/such" not in snap and snap.get("no/such") is None


def test_a_static_table_is_readable_from_a_snapshot_but_not_listed() -> None:
    """A catalogue never changes in an episode: a task may read its start from the
    snapshot, and damage checks, which iterate the snapshot, leave it out."""
    d = PhoneWorldDevice()
    d.reset(0)
    snap = d.probe.snapshot()
    static = d.probe.static_tables()
    assert "shopping/products" in static and "shopping/products" not in list(snap)
    assert "shopping/products" in snap
    assert snap["shopping/products"] == d.probe.query("shopping/products")
