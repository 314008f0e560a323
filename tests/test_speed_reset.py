"""The reset's shortcuts never show: kept stores, start bytes reused by the probe.

A reset keeps the parts of the last world that no action or verb could reach (a store that app
code was handed only when it is byte for byte its start blob), and a snapshot right after a
reset reuses the start blobs of the sources nothing wrote to (see ``phoneworld_gym.phone``).
These tests check content: what a reset after a mutating episode gives (world, rows, XML)
against a fresh device, and every source a snapshot took from the start blobs against a fresh
dump of the live data.
"""

from __future__ import annotations

import marshal

import numpy as np
import pytest

from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.task import all_tasks


def _phone(env: PhoneEnv) -> PhoneWorldDevice:
    device = env.device
    assert isinstance(device, PhoneWorldDevice)
    return device


def _state(device: PhoneWorldDevice) -> tuple[str, dict[str, list[dict]], str]:
    snap = device.probe.snapshot()
    return device.world.to_json(), {t: snap[t] for t in snap}, device.a11y_xml()


def _fresh_dumps(device: PhoneWorldDevice, snap) -> dict[str, bytes]:
    probe = device.probe
    return {src: marshal.dumps(probe.source_data(src), 2) for src in set(snap._source.values())}


def test_every_tasks_snapshots_match_fresh_dumps_of_the_world() -> None:
    """The start blobs the snapshots reuse are what dumping the world gives, after every
    task's setup (setups write through verbs and fixtures) and after its oracle (actions
    write the stores of their scope only)."""
    env = PhoneEnv(obs_mode="a11y")
    reused = 0
    for task in all_tasks():
        env.reset(seed=3, options={"task": task})
        snap = env.task.baseline  # type: ignore[union-attr]
        device = _phone(env)
        assert snap._parts == _fresh_dumps(device, snap), task
        reused += sum(device.known_dump(src, device.probe.source_data(src)) is not None
                      for src in snap._parts)
        done = False
        for action in env.oracle():
            *_, term, trunc, _ = env.step(action)
            if done := term or trunc:
                break
        if not done:
            env.step(Action("status", goal_status="complete"))
        end = env.task.diff.after  # type: ignore[union-attr]
        assert end._parts == _fresh_dumps(device, end), task
    assert reused > 20 * len(all_tasks())  # most sources come from the start blobs


@pytest.mark.parametrize("task", ["ContactsStar", "ShoppingAddToCartOptions", "NotesCreate"])
def test_a_reset_after_a_mutating_episode_equals_a_fresh_devices(task: str) -> None:
    env = PhoneEnv(tasks=task, obs_mode="a11y")
    env.reset(seed=7)
    before = _state(_phone(env))
    for action in env.oracle():
        env.step(action)
    assert _state(_phone(env))[0] != before[0]  # the episode changed the world
    env.reset(seed=7)
    again = _state(_phone(env))
    fresh = PhoneEnv(tasks=task, obs_mode="a11y")
    fresh.reset(seed=7)
    assert again == _state(_phone(fresh)) == before


def test_kept_stores_are_only_those_no_action_or_verb_reached(
        monkeypatch: pytest.MonkeyPatch) -> None:
    device = PhoneWorldDevice()
    device.reset(2)
    stores = dict(device.world.stores)
    system = device.world.system
    device.execute(Action("open_app", app_name="Contacts"))
    device.insert("sms", {"address": "+1 415-555-0100", "body": "hi", "date": 1, "type": 1,
                          "read": 0})
    # app code that changes its store while drawing (no action in its scope): the content
    # check of the stores code was handed catches it at the reset
    notes = device.apps["notes"]
    draw = notes.screens["main"]

    def buggy_main(ctx):  # type: ignore[no-untyped-def]
        ctx.store["notes"].clear()
        return draw(ctx)

    monkeypatch.setitem(notes.screens, "main", buggy_main)
    device.open_app("Notes")
    assert "android.widget" in device.a11y_xml()  # drawn: the screen ran
    assert device.world.stores["notes"]["notes"] == []
    opened = set(device.world.opened)
    device.reset(2)
    new = device.world.stores
    writer = next(a.name for a in device.apps.values() if "sms" in a.writers)
    assert new["contacts"] is not stores["contacts"]  # in the action's scope
    assert new[writer] is not stores[writer]  # written by a verb
    assert "notes" in opened and "bank" not in opened
    assert new["notes"] is not stores["notes"] and new["notes"]["notes"]  # changed: reloaded
    assert new["bank"] is stores["bank"]  # no code was handed it: kept unread
    assert device.world.system is not system  # every field is reachable by an action
    fresh = PhoneWorldDevice()
    fresh.reset(2)
    assert device.world.to_json() == fresh.world.to_json()
    assert fresh.world.stores["bank"] is not device.world.stores["bank"]  # never shared


def test_invalidate_and_restore_keep_nothing_and_another_seed_loads_its_own() -> None:
    device = PhoneWorldDevice()
    device.reset(2)
    bank = device.world.stores["bank"]
    device.invalidate()
    device.reset(2)
    assert device.world.stores["bank"] is not bank
    bank = device.world.stores["bank"]
    device.restore(device.snapshot())
    device.reset(2)
    assert device.world.stores["bank"] is not bank
    device.reset(3)
    other = PhoneWorldDevice()
    other.reset(3)
    assert device.world.to_json() == other.world.to_json()


def test_what_the_start_blobs_cannot_know_is_dumped_afresh() -> None:
    """Each way the world can change after a reset shows in the next snapshot."""
    device = PhoneWorldDevice()

    def rows(table: str) -> list[dict]:
        return device.probe.snapshot()[table]

    device.reset(4)
    device.put_setting("system", "screen_brightness", "17")
    assert {"_id": "screen_brightness", "value": "17"} in rows("settings/system")
    device.reset(4)
    device.push_file("/sdcard/Download/x.txt", b"hello")
    assert any(r["_id"] == "/sdcard/Download/x.txt" for r in rows("files"))
    device.reset(4)
    n = len(rows("contacts"))
    device.insert("contacts", {"display_name": "Zed Newman", "number": "+1 415-555-0142"})
    assert len(rows("contacts")) == n + 1
    device.reset(4)
    device.world.stores["contacts"]["contacts"].clear()
    device.invalidate()  # code that changes the world in place says so
    assert rows("contacts") == []
    device.reset(4)
    with pytest.raises(ValueError):
        device.update("contacts", "no such id", {"display_name": "X"})
    assert device.known_dump("store/contacts", device.world.stores["contacts"]) is None
    device.reset(4)
    device.execute(Action("open_app", app_name="Contacts"))
    stores = device.world.stores
    assert device.known_dump("store/contacts", stores["contacts"]) is None  # in scope
    assert device.known_dump("system", device.world.system) is None  # any action's reach
    assert device.known_dump("store/bank", stores["bank"]) is not None  # another app's
    device.restore(device.snapshot())
    assert device.known_dump("store/bank", device.world.stores["bank"]) is None
    device.reset(4)
    device.back()
    assert device.known_dump("settings", device.world.settings) is None


def test_a_snapshot_after_an_action_reflects_it() -> None:
    env = PhoneEnv(tasks="ContactsStar", obs_mode="a11y")
    env.reset(seed=1)
    device = _phone(env)
    for action in env.oracle():
        env.step(action)
    snap = device.probe.snapshot()
    assert snap._parts == _fresh_dumps(device, snap)
    assert snap["contacts"] != env.task.baseline["contacts"]  # type: ignore[union-attr]


def test_a_reset_shows_the_kept_home_pixels_as_a_fresh_read_only_copy() -> None:
    """Resets land on the compositor's kept home frame, whose pixels the device keeps: the
    frame shown is a new read-only array equal to a full paint, and the frames after it are
    what a fresh phone paints."""
    env = PhoneEnv(tasks="ContactsStar", screenshot_size=(540, 1200))
    obs, _ = env.reset(seed=1)
    first = obs["screenshot"]
    for action in env.oracle():
        obs, *_ = env.step(action)
    again, _ = env.reset(seed=1)
    device = _phone(env)
    assert device._renderer.last["repaint"] == "copy"
    shot = again["screenshot"]
    assert shot is not first and not shot.flags.writeable
    assert np.array_equal(shot, first)
    fresh = PhoneWorldDevice(screenshot_size=(540, 1200))
    fresh.reset(1)
    assert np.array_equal(shot, fresh.screenshot())
    # the adopted frame is the renderer's last: the next frame repaints from it exactly
    env.step(Action("open_app", app_name="Contacts"))
    assert device._renderer.last["repaint"] == "partial"
    painted = PhoneWorldDevice(screenshot_size=(540, 1200))
    painted.restore(device.snapshot())  # a fresh renderer paints it in full
    assert np.array_equal(device.screenshot(), painted.screenshot())
    # back home after a verb and in the dark theme: still what a full paint gives
    device.put_setting("secure", "ui_night_mode", "2")
    device.home()
    painted = PhoneWorldDevice(screenshot_size=(540, 1200))
    painted.restore(device.snapshot())
    assert np.array_equal(device.screenshot(), painted.screenshot())


def test_after_every_tasks_oracle_a_device_reset_gives_the_start_world_again() -> None:
    """A reset keeps unread the stores no app code was handed: after every task's setup and
    oracle (verbs, fixtures, actions, the screens of several apps), the device's reset to the
    episode's seed gives that seed's start world, byte for byte."""
    env = PhoneEnv(obs_mode="a11y")
    start: bytes | None = None
    kept = 0
    for task in all_tasks():
        env.reset(seed=11, options={"task": task})
        device = _phone(env)
        seed = device.world.seed
        if start is None:
            other = PhoneWorldDevice()
            other.reset(seed)
            start = marshal.dumps(other.world.field_values(), 2)
        for action in env.oracle():
            *_, term, trunc, _ = env.step(action)
            if term or trunc:
                break
        before, opened = dict(device.world.stores), set(device.world.opened)
        device.reset(seed)
        assert marshal.dumps(device.world.field_values(), 2) == start, task
        kept += sum(device.world.stores[n] is before[n] for n in before if n not in opened)
    assert kept > 10 * len(all_tasks())  # most stores were kept unread
