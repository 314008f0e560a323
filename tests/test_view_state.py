"""Looking is not damage: view state (read flags, the player) is left out of the damage check
unless a task is about it, and tasks still score 1 after a person looked around on the way."""

from __future__ import annotations

import pytest
from conftest import TASK_IDS

from phoneworld_gym import Action
from phoneworld_gym.audit import _env, look_around, view_apps, view_trial
from phoneworld_gym.device import COMMON_VIEW_STATE, view_state
from phoneworld_gym.oracle import find
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.task import all_tasks, get_task
from phoneworld_gym.validators import Diff, TableDiff, changed

BEFORE = [{"_id": 1, "body": "hi", "folder": "inbox", "read": 0},
          {"_id": 2, "body": "yo", "folder": "inbox", "read": 0}]


def test_a_change_confined_to_view_columns_is_not_a_change():
    after = [{**BEFORE[0], "read": 1}, BEFORE[1]]
    assert not TableDiff("m", BEFORE, after).empty  # every column counts without a view
    t = TableDiff("m", BEFORE, after, frozenset({"read"}))
    assert t.empty and t.changed == []
    assert t.viewed == [(BEFORE[0], after[0])]
    assert Diff({"m": BEFORE}, {"m": after}, {"m": ("read",)}).unchanged_except() is None
    assert "m: 1 changed (1: read)" in str(Diff({"m": BEFORE}, {"m": after}).unchanged_except())


def test_a_real_change_shows_its_view_columns_as_they_were():
    after = [{**BEFORE[0], "read": 1, "folder": "work"}, BEFORE[1]]
    diff = Diff({"m": BEFORE}, {"m": after}, {"m": ("read",)})
    assert diff.table("m").changed == [(BEFORE[0], {**BEFORE[0], "folder": "work"})]
    assert changed("m", 1, folder="work")(diff) is None  # the read flag is not "changed too"
    assert changed("m", 1, folder="work", read=1)(diff) is not None  # nor checkable here
    assert changed("m", 1, folder="work")(Diff({"m": BEFORE}, {"m": after})) is not None


def test_added_and_removed_rows_stay_whole():
    after = [BEFORE[0], {"_id": 3, "body": "new", "folder": "sent", "read": 1}]
    t = Diff({"m": BEFORE}, {"m": after}, {"m": ("read",)}).table("m")
    assert t.added == [after[1]] and t.removed == [BEFORE[1]]


def test_checks_view_keeps_what_the_task_is_about():
    device = PhoneWorldDevice()
    device.reset(0)
    view = device.probe.view_state()
    assert view["sms"] == ("read",) and view["call_log"] == ("new",)
    assert view["chat/messages"] == ("read",) and view["chat/chats"] == ("unread",)
    assert view["email/messages"] == ("read",)
    assert {"song_id", "playing", "position"} <= set(view["music/player"])
    assert "shuffle" not in view["music/player"] and "music/queue" not in view

    assert get_task("ContactsStar")({}).ignored_view(device) == view
    ignored = get_task("ChatCountUnread")({}).ignored_view(device)
    assert "chat/messages" not in ignored and "chat/chats" not in ignored
    assert ignored["sms"] == ("read",)
    assert "music/player" not in get_task("MusicPlayUnavailable")({}).ignored_view(device)
    assert "sms" not in get_task("MessagesCountUnread")({}).ignored_view(device)

    class Probe:  # a real phone's probe declares nothing: the common tables' rule
        pass

    assert view_state(Probe()) == COMMON_VIEW_STATE


def test_every_checks_view_names_declared_view_state():
    device = PhoneWorldDevice()
    device.reset(0)
    view = device.probe.view_state()
    for cls in all_tasks().values():
        for entry in cls.checks_view:
            table, _, col = entry.rpartition(".") if "." in entry else (entry, "", "")
            assert table in view, f"{cls.id}: checks_view names {table!r}, not view state"
            assert not col or col in view[table], f"{cls.id}: {entry!r} is not a view column"


def test_looking_around_changes_view_state_only():
    """The looking is real (read flags and the player change) and the view-aware diff sees
    none of it."""
    env = _env("ContactsStar")
    try:
        env.reset(seed=0)
        start = env.task_device.probe.snapshot()
        assert look_around(env) >= 3
        end = env.task_device.probe.snapshot()
        raw = set(Diff(start, end).changed_tables())
        assert {"sms", "chat/messages", "chat/chats", "email/messages", "music/player"} <= raw
        view = env.task_device.probe.view_state()
        assert Diff(start, end, view).changed_tables() == []
    finally:
        env.close()


#: a spread of the registry that fits CI time (every 12th task: ~30 tasks, ~10 s);
#: ``examples/view_sweep.py`` runs every task
SAMPLE = TASK_IDS[::12]


@pytest.mark.parametrize("task_id", SAMPLE)
def test_oracle_still_solves_after_looking_around(task_id):
    r = view_trial(task_id, seed=1)
    assert r.reward == 1.0, f"{task_id}: {r.failure}"
    if not view_apps(get_task(task_id)) & {"messages", "chat", "email"}:
        assert r.opened > 0


def test_playing_another_song_still_fails_a_play_task():
    env = _env("MusicPlayUnavailable")
    try:
        env.reset(seed=0)
        look_around(env, skip=("messages", "chat", "email"))  # plays a song
        _, reward, *_, info = env.step(Action("status", goal_status="infeasible"))
        assert reward == 0.0 and "music/player" in info["failure"]
    finally:
        env.close()


def test_reading_the_unread_chats_fails_the_unread_count():
    """Opening a chat to count its messages destroys the answer: the right count still
    scores 0, as damage to the view state the task is about."""
    env = _env("ChatCountUnread")
    try:
        env.reset(seed=0)
        want = sum(int(c["unread"]) for c in env.task.before("chat/chats"))
        env.step(Action("open_app", app_name="chat"))
        env.step(Action("click", index=find(env.task_device, rid="chat_row", desc=" unread, ",
                                            contains=True)))
        _, reward, *_, info = env.step(Action("answer", text=str(want)))
        assert reward == 0.0 and "chat/messages" in info["failure"]
        env.reset(seed=0)  # the same answer without opening a chat is right
        _, reward, *_ = env.step(Action("answer", text=str(want)))
        assert reward == 1.0
    finally:
        env.close()
