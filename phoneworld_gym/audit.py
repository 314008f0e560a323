"""Adversarial audits of the task registry: damage done elsewhere on the phone, and how varied
each template's goals are. The tests assert on them; ``examples/audit.py`` prints the counts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, cast

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.task import Task, all_tasks, get_task


def _env(tasks: Any) -> Any:
    from phoneworld_gym.env import PhoneEnv

    return PhoneEnv(tasks=tasks, obs_mode="a11y", max_steps=500)  # room for two oracles


def writer_tasks() -> list[type[Task]]:
    """Tasks whose oracle changes the phone and that need no setup of their own: their
    changes are the damage done inside another task's episode."""
    return [t for t in all_tasks().values() if t.may_change and t.setup is Task.setup]


def damage_pairs(per_task: int = 2) -> list[tuple[str, str]]:
    """For every task, ``per_task`` other tasks whose changes lie outside what it may change
    (chosen deterministically, spread over the registry)."""
    writers = writer_tasks()
    out = []
    for i, (tid, cls) in enumerate(all_tasks().items()):
        mine = set(cls.may_change) if cls.feasible and cls.answer_matcher is None else set()
        others = [w for w in writers if w.id != tid and not set(w.may_change) & mine]
        for k in range(min(per_task, len(others))):
            out.append((tid, others[(i + 5 * k) % len(others)].id))
    return out


@dataclasses.dataclass(frozen=True)
class DamageTrial:
    """One pair: the task's oracle, the other task's UI changes, the task's final report."""

    task: str
    other: str
    reward: float
    failure: str


def damage_trial(task_id: str, other_id: str, seed: int = 11) -> DamageTrial:
    """Play ``task_id``'s oracle up to its final report, then ``other_id``'s oracle (params
    drawn from the phone as it is then, through the UI only, without its final report), then
    the task's final report; return the reward, which must be 0."""
    env = _env([task_id, other_id])
    try:
        env.reset(seed=seed, options={"task": task_id})
        final = None
        for a in env.oracle():
            if a.action_type in ("status", "answer"):
                final = a
                break
            env.step(a)
        if final is None:
            raise RuntimeError(f"{task_id}: the oracle gave no final status/answer")
        other_cls = get_task(other_id)
        from phoneworld_gym.env import task_seed

        rng = np.random.default_rng(task_seed(seed + 1, other_id))
        probe = cast(Probe, env.task_device.probe)
        other = other_cls(other_cls.generate_params(rng, probe))
        other.mark_start(cast(Device, env.task_device))  # its oracle may read its start
        for a in other.oracle(cast(Device, env.task_device)):
            if a.action_type in ("status", "answer"):
                break
            env.step(a)
        _, reward, _, _, info = env.step(final)
        return DamageTrial(task_id, other_id, float(reward), info["failure"])
    finally:
        env.close()


def distinct_goals(task_id: str, seeds: int = 100) -> int:
    """How many distinct goals the task's canonical template yields over ``seeds`` seeds."""
    from phoneworld_gym.access import TaskDevice
    from phoneworld_gym.env import task_seed
    from phoneworld_gym.phone import PhoneWorldDevice

    cls = get_task(task_id)
    device = PhoneWorldDevice()
    goals = set()
    for seed in range(seeds):
        device.reset(seed)
        rng = np.random.default_rng(task_seed(seed, task_id))
        params = cls.check_params(cls.generate_params(rng, cast(Probe, TaskDevice(device).probe)))
        goals.add(cls(params).goal)
    return len(goals)


def has_params(cls: type[Task]) -> bool:
    """True when the task draws parameters (it declares their schema; a task without may
    still override ``generate_params`` to say ``NoInstance`` when it cannot be posed)."""
    return bool(cls.params_schema)


def final_report(env: Any) -> Action:
    """Play the current task's oracle up to its final report and return that action."""
    for a in env.oracle():
        if a.action_type in ("status", "answer"):
            return cast(Action, a)
        env.step(a)
    raise RuntimeError("the oracle gave no final status/answer")


#: hand-written malformed actions: each must raise ``ValueError`` (never another exception)
MALFORMED: tuple[Any, ...] = (
    {"action_type": None}, {"action_type": 7}, {"action_type": "fly"}, {},
    {"action_type": "click"}, {"action_type": "click", "x": float("inf"), "y": 5},
    {"action_type": "click", "x": float("nan"), "y": 5},
    {"action_type": "click", "x": 1e300, "y": 1},
    {"action_type": "click", "index": -1}, {"action_type": "click", "index": 3, "x": 1, "y": 1},
    {"action_type": "input_text", "text": None}, {"action_type": "input_text", "text": b"abc"},
    {"action_type": "input_text", "text": "\ud800"},
    {"action_type": "input_text", "text": "x" * 5000},
    {"action_type": "input_text", "text": "a", "clear_text": "false"},
    {"action_type": "open_app", "app_name": "x" * (1 << 20)}, {"action_type": "open_app"},
    {"action_type": "scroll", "direction": "sideways"}, {"action_type": "status"},
    {"action_type": "status", "goal_status": "done"}, {"action_type": "answer", "text": 42},
    "[" * 100000 + "]" * 100000, "{not json", "[]", "null", 42, None, b"{}",
    {"action_type": -1, "index": 0, "x": 0, "y": 0, "text": "", "direction": 0, "app_name": "",
     "goal_status": 0, "clear_text": 0, "target": 0},
)


@dataclasses.dataclass(frozen=True)
class MalformedReport:
    """How malformed actions fared: all must be ``ValueError``."""

    tried: int
    value_errors: int
    other: tuple[str, ...]  #: descriptions of any other outcome (accepted or another error)


def malformed_action_trials(random_mutations: int = 20000, seed: int = 0) -> MalformedReport:
    """Feed :data:`MALFORMED` and ``random_mutations`` corrupted space samples (a field set to
    a wrong type or an out-of-range value) to ``Action.from_any``."""
    from phoneworld_gym.contract import action_space

    space = action_space()
    space.seed(seed)
    rng = np.random.default_rng(seed)
    bad_values: list[Any] = [None, -1, -(2**40), 2**40, float("inf"), float("nan"), "x", b"x",
                             [], {}, "\udfff", 1.5, True]
    cases: list[Any] = list(MALFORMED)
    for _ in range(random_mutations):
        sample = dict(space.sample())
        key = sorted(sample)[int(rng.integers(len(sample)))]
        sample[key] = bad_values[int(rng.integers(len(bad_values)))]
        if space.contains(sample):
            continue  # still a valid action (a mutation that happens to fit)
        cases.append(sample)
    value_errors, other = 0, []
    for case in cases:
        try:
            Action.from_any(case)
            other.append(f"accepted {str(case)[:80]}")
        except ValueError:
            value_errors += 1
        except Exception as e:  # noqa: BLE001 - any other type is the finding
            other.append(f"{type(e).__name__} for {str(case)[:80]}")
    return MalformedReport(len(cases), value_errors, tuple(other))


# -- looking is not damage ---------------------------------------------------------------------
#: where a person reads what is new: the app, the resource id of its rows and the words its
#: content-desc gives an unread row (each row is opened, then left with Back)
UNREAD_ROWS: dict[str, tuple[str, str]] = {
    "messages": ("conversation", ", unread, "),
    "chat": ("chat_row", " unread, "),
    "email": ("conversation", "Unread, "),
}
#: the app that serves each common table with view state (an app's own tables say theirs)
_VIEW_APPS = {"sms": "messages", "call_log": "phone"}


def _act(env: Any, action: Action) -> None:
    info = env.step(action)[-1]
    if info.get("action_error"):
        raise RuntimeError(f"looking around: {action} -> {info['action_error']}")


def _leave(env: Any, package: str) -> None:
    """Back until the app is left (so its next opening starts at its main screen), then
    Home."""
    probe = env.task_device.probe
    for _ in range(8):
        if probe.foreground_app() != package:
            break
        _act(env, Action("navigate_back"))
    _act(env, Action("navigate_home"))


def look_around(env: Any, skip: Iterable[str] = ()) -> int:
    """Do what a person does on the way to anything: open every unread thread, chat and
    email (through the UI, scrolling each list to its end), start a song in Music, then go
    Home. Apps in ``skip`` (and apps not installed) are left alone. Returns how many unread
    items were opened."""
    from phoneworld_gym.oracle import find, fully_visible

    device = env.task_device
    skipped = set(skip)
    installed = set(env.device.apps)
    opened = 0
    for app, (rid, mark) in UNREAD_ROWS.items():
        if app in skipped or app not in installed:
            continue
        _act(env, Action("open_app", app_name=app))
        package = device.probe.foreground_app()
        for _ in range(40):
            i = find(device, rid=rid, desc=mark, contains=True)
            if i is not None and fully_visible(device, i):
                _act(env, Action("click", index=i))
                _act(env, Action("navigate_back"))
                opened += 1
                continue
            before = device.a11y_xml()
            info = env.step(Action("scroll", direction="down"))[-1]
            if info.get("action_error") or device.a11y_xml() == before:
                break  # a short list, or its end
        _leave(env, package)
    if "music" not in skipped and "music" in installed:
        _act(env, Action("open_app", app_name="music"))
        package = device.probe.foreground_app()
        _act(env, Action("click", index=find(device, rid="album_card")))
        _act(env, Action("click", index=find(device, rid="song_row", nth=1)))
        _leave(env, package)
    return opened


def view_apps(cls: type[Task]) -> set[str]:
    """The apps whose view state the task is about (:attr:`Task.checks_view`): looking
    there is part of its goal, so :func:`view_trial` leaves them alone."""
    out = set()
    for entry in cls.checks_view:
        table = entry.rpartition(".")[0] if "." in entry else entry
        out.add(_VIEW_APPS.get(table, table.split("/")[0]))
    return out


@dataclasses.dataclass(frozen=True)
class ViewTrial:
    """One task after looking around: unread items opened, the oracle's reward and why."""

    task: str
    seed: int
    opened: int
    reward: float
    failure: str


def view_trial(task_id: str, seed: int = 0) -> ViewTrial:
    """Reset, :func:`look_around` (leaving the apps whose view state the task is about),
    then play the task's oracle to its end: the reward must still be 1."""
    env = _env(task_id)
    try:
        env.reset(seed=seed)
        opened = look_around(env, skip=view_apps(get_task(task_id)))
        reward, info = 0.0, {"failure": "the oracle gave no final status/answer"}
        for a in env.oracle():
            _, reward, term, trunc, info = env.step(a)
            if term or trunc:
                break
        return ViewTrial(task_id, seed, opened, float(reward), str(info.get("failure", "")))
    finally:
        env.close()
