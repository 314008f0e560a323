"""The task/device boundary, over the whole registry.

- No code under ``tasks/`` reaches behind the device (read from the source files).
- Tasks see the phone only through a ``TaskDevice``; which tasks run on a real phone is
  computed by running them as a phone would serve them.
- Damage anywhere on the phone is seen: a task's oracle followed by another task's changes
  scores 0, for every task.
- Oracles end with their status/answer and their length is ``optimal_steps``.
- Params follow each task's schema; every template with params yields many goals.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator

import pytest
from conftest import TASK_IDS

from phoneworld_gym import Action
from phoneworld_gym.audit import damage_pairs, damage_trial, distinct_goals, has_params
from phoneworld_gym.env import PhoneEnv
from phoneworld_gym.readiness import phone_ready
from phoneworld_gym.task import get_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TASKS_DIR = os.path.join(ROOT, "phoneworld_gym", "tasks")
#: engine modules a task may import (the contract, the device boundary and shared helpers)
ALLOWED = {"phoneworld_gym.contract", "phoneworld_gym.device", "phoneworld_gym.oracle",
           "phoneworld_gym.task", "phoneworld_gym.validators", "phoneworld_gym.matchers",
           "phoneworld_gym.life"}
#: attribute names that only exist behind the device
FORBIDDEN_ATTRS = {"world", "stores", "store", "apps", "invalidate", "restore", "snapshot_world",
                   "_device"}


def _task_files() -> list[str]:
    out = []
    for dirpath, _, files in os.walk(TASKS_DIR):
        out += [os.path.join(dirpath, f) for f in files if f.endswith(".py")]
    return sorted(out)


def boundary_violations(source: str, filename: str = "<task>") -> list[str]:
    """Every import of an engine module outside :data:`ALLOWED` and every use of an attribute
    in :data:`FORBIDDEN_ATTRS` (``getattr(x, "world")`` included) in a task source file."""
    bad = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for n in names:
            if n.startswith("phoneworld_gym.") and not n.startswith("phoneworld_gym.tasks") \
                    and not any(n == m or n.startswith(m + ".") for m in ALLOWED) \
                    and n.rsplit(".", 1)[0] not in ALLOWED:
                bad.append(f"{filename}:{node.lineno}: imports {n}")
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRS:
            bad.append(f"{filename}:{node.lineno}: uses .{node.attr}")
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("getattr", "setattr") \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in FORBIDDEN_ATTRS:
            bad.append(f"{filename}:{node.lineno}: getattr(..., {node.args[1].value!r})")
    return bad


def test_no_task_reaches_behind_the_device():
    bad = []
    for path in _task_files():
        with open(path, encoding="utf-8") as f:
            bad += boundary_violations(f.read(), os.path.relpath(path, ROOT))
    assert not bad, "tasks reach behind the device:\n" + "\n".join(bad)


@pytest.mark.parametrize("source", [
    "from phoneworld_gym.apps.shopping import store as st",
    "import phoneworld_gym.phone",
    "from phoneworld_gym.world import World",
    "def f(device):\n    return device.world.stores['shopping']",
    "def f(device):\n    return getattr(device, 'world', None)",
])
def test_the_boundary_check_catches_each_way_behind(source):
    assert boundary_violations(source)


def test_tasks_get_no_world(make_env):
    env = make_env("PhoneWorld/All-v0", obs_mode="a11y")
    env.reset(seed=0)
    seen = env.unwrapped.task_device
    assert not hasattr(seen, "world") and not hasattr(seen, "execute")
    assert not hasattr(seen.probe, "_device")


# -- runs on a phone, by construction ----------------------------------------------------------
def test_phone_readiness_is_computed_from_what_tasks_use():
    ready = [phone_ready(t) for t in TASK_IDS]
    phone = [r for r in ready if r.phone]
    for r in ready:
        assert r.uses, f"{r.task} used no probe at all"
    # every phone-ready task really runs with a phone's probes only
    for r in phone:
        env = PhoneEnv(tasks=r.task, obs_mode="a11y", common_only=True)
        env.reset(seed=7)
        reward = _play(env, env.oracle())
        assert reward == 1.0, f"{r.task} is phone-ready but scored {reward} on phone probes"
    assert len(phone) >= 10, f"only {len(phone)} tasks run on a phone: {[r.task for r in phone]}"


def _play(env: PhoneEnv, actions: Iterator[Action]) -> float:
    reward = 0.0
    for a in actions:
        _, reward, term, trunc, info = env.step(a)
        assert not info["action_error"], (a, info["action_error"])
        if term or trunc:
            return float(reward)
    return float(reward)


# -- oracle conventions --------------------------------------------------------------------
@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_ends_with_its_report_and_its_length_is_optimal_steps(task_id):
    cls = get_task(task_id)
    env = PhoneEnv(tasks=task_id, obs_mode="a11y")
    lengths = []
    for seed in range(4):
        env.reset(seed=seed)
        actions = []
        for a in env.oracle():
            actions.append(a)
            *_, term, trunc, _ = env.step(a)
            if term or trunc:
                break
        assert actions[-1].action_type in ("status", "answer"), \
            f"{task_id}: the oracle ends with {actions[-1]}, not its status/answer"
        assert all(a.action_type not in ("status", "answer") for a in actions[:-1])
        lengths.append(len(actions))
    assert max(lengths) == cls.optimal_steps, \
        f"{task_id}: optimal_steps is {cls.optimal_steps}, the oracle took {lengths}"
    if "multi-item" not in cls.tags:  # a drawn number of items makes the length vary
        assert max(lengths) - min(lengths) <= 3, f"{task_id}: oracle lengths {lengths}"
    assert cls.step_budget() >= 2 * cls.optimal_steps


# -- whole-phone damage ------------------------------------------------------------------------
PAIRS = damage_pairs()


@pytest.mark.parametrize("task_id,other_id", PAIRS)
def test_damage_elsewhere_scores_zero(task_id, other_id):
    """The task's oracle, then another task's changes (through the UI), then the task's own
    final report: the damage outside what the task may change must score 0."""
    trial = damage_trial(task_id, other_id)
    assert trial.reward == 0.0, f"{task_id} after {other_id}'s changes scored {trial.reward}"
    assert "changed outside the task" in trial.failure, trial.failure


def test_enough_damage_pairs_are_tried():
    assert len(PAIRS) >= 2 * len(TASK_IDS) - 4
    assert {t for t, _ in PAIRS} == set(TASK_IDS)


# -- params ------------------------------------------------------------------------------------
@pytest.mark.parametrize("task_id", TASK_IDS)
def test_generated_params_follow_the_schema_and_vary(task_id):
    """Over 100 seeds: params fit the schema, and a template with params gives at least 20
    distinct goals (or the task's docstring says why it cannot, after "Fewer goals:")."""
    cls = get_task(task_id)
    n = distinct_goals(task_id)
    if has_params(cls) and "Fewer goals:" not in (cls.__doc__ or ""):
        assert n >= 20, f"{task_id}: {n} distinct goals over 100 seeds"


@pytest.mark.parametrize("bad", [
    {"first": "A", "last": "B"},  # missing
    {"first": "A", "last": "B", "phone": "1", "extra": 1},  # unknown
    {"first": "A", "last": "B", "phone": 5551234},  # wrong type
    ["first", "last"],  # not a dict
])
def test_reset_rejects_params_off_schema(bad):
    env = PhoneEnv(tasks="ContactsAdd", obs_mode="a11y")
    with pytest.raises(ValueError, match="params for ContactsAdd"):
        env.reset(seed=0, options={"params": bad})


def test_reset_rejects_a_task_outside_the_env():
    env = PhoneEnv(app="contacts", obs_mode="a11y")
    shopping = next(t for t in TASK_IDS if t.startswith("Shopping"))
    with pytest.raises(ValueError, match="not one of this env's tasks"):
        env.reset(seed=0, options={"task": shopping})


@pytest.mark.parametrize("kw,match", [({"tasks": []}, "tasks is empty"),
                                      ({"max_steps": 0}, "max_steps"),
                                      ({"max_steps": -3}, "max_steps")])
def test_env_arguments_are_checked(kw, match):
    with pytest.raises(ValueError, match=match):
        PhoneEnv(**kw)


def test_a_task_folder_without_init_fails_loudly(tmp_path, monkeypatch):
    import phoneworld_gym.task as task_mod
    import phoneworld_gym.tasks as pkg

    (tmp_path / "stray").mkdir()
    (tmp_path / "stray" / "lost.py").write_text("X = 1\n")
    monkeypatch.setattr(pkg, "__path__", [*pkg.__path__, str(tmp_path)])
    with pytest.raises(ImportError, match="stray has no __init__.py"):
        task_mod._discover()


def test_app_filter_means_the_same_in_list_tasks_and_env_ids():
    import phoneworld_gym

    alone = {t.id for t in phoneworld_gym.list_tasks(app="contacts")}
    env = PhoneEnv(app="contacts", obs_mode="a11y")
    assert alone == set(env.task_ids)
    assert all(get_task(t).apps == ("contacts",) for t in alone)
    involving = {t.id for t in phoneworld_gym.list_tasks(involving="contacts")}
    assert alone < involving, "cross-app tasks that use Contacts are listed by involving="
    assert all("contacts" in get_task(t).apps for t in involving)
    with pytest.raises(ValueError, match="unknown app 'nope'"):
        phoneworld_gym.list_tasks(app="nope")
