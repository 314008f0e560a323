"""Reconstruction: explore a PhoneWorld app through the real adb client and the virtual
phone, rebuild it as a PhoneWorld app, and measure it against the original.

Budgets are small (a few hundred steps per app), so the floors below are for a partial
exploration; ``examples/reconstruct.py`` prints the figures of larger runs.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import phoneworld_gym
from phoneworld_gym.contract import Action
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.reconstruct import Budget, Explorer, install, uninstall
from phoneworld_gym.reconstruct.explore import to_action
from phoneworld_gym.reconstruct.fidelity import measure, original_app, table
from phoneworld_gym.reconstruct.rebuild import NEVER_OBSERVED, RecordedApp
from phoneworld_gym.reconstruct.tasks import steps_of
from phoneworld_gym.reconstruct.tree import informative, signature

APPS = ("Clock", "Contacts", "Settings")
BUDGET = Budget(steps=160, seconds=40)
#: floors for the budget above (measured: see docs/reconstruction.md)
FLOORS = {"screens": 0.95, "transitions": 0.95, "declared_screens": 0.25, "walks": 0.25,
          "tasks_solved": 1.0}


@pytest.fixture(scope="module")
def rebuilt(adb_port: int, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[dict[str, RecordedApp]]:
    """Each app explored over adb on the virtual phone and rebuilt (uninstalled at the end,
    so the rest of the suite sees the usual registry)."""
    from phoneworld_gym.real_device.adb_device import AdbDevice
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    out: dict[str, RecordedApp] = {}
    with VirtualPhone(PhoneWorldDevice(screenshot_size=(270, 600)), port=free_port(),
                      seed=0) as phone:
        device = AdbDevice(phone.serial, port=adb_port, guard=False)
        for label in APPS:
            folder = tmp_path_factory.mktemp(f"rec-{label}")
            Explorer(device, label, folder, seed=0).run(BUDGET)
            out[label] = install(folder)
        device.close()
    try:
        yield out
    finally:
        for app in out.values():
            uninstall(app.name)


def test_fidelity_over_adb_is_above_the_floors(rebuilt: dict[str, RecordedApp]) -> None:
    rows = [measure(original_app(label), app, walks=8, max_oracle_tasks=6)
            for label, app in rebuilt.items()]
    print("\n" + table(rows))
    for row in rows:
        assert row.recorded_screens >= 5, row
        for name, floor in FLOORS.items():
            assert getattr(row, name) >= floor, (row.app, name, getattr(row, name), floor)
        assert row.oracle_tasks >= 1 and row.oracle_steps > 0, row


def test_a_generated_task_is_solved_by_its_oracle_and_not_by_doing_nothing(
        rebuilt: dict[str, RecordedApp]) -> None:
    app = rebuilt["Contacts"]
    tasks = phoneworld_gym.list_tasks(app=app.name)
    kinds = {"Reach" if "Reach" in t.id else "Fill" for t in tasks}
    assert "Reach" in kinds, [t.id for t in tasks]
    for t in tasks[:3]:
        env = gymnasium.make(t.env_id(), obs_mode="a11y")
        env.reset(seed=3)
        reward = 0.0
        for action in env.unwrapped.oracle():
            _, r, term, trunc, info = env.step(action)
            assert not info["action_error"], (t.id, action, info["action_error"])
            reward = float(r)
            if term or trunc:
                break
        assert reward == 1.0, (t.id, info["failure"])
        env.reset(seed=3)
        _, r, *_ = env.step(Action("status", goal_status="complete"))
        assert r == 0.0, t.id
        env.close()


def test_a_rebuilt_app_passes_the_env_checks(rebuilt: dict[str, RecordedApp]) -> None:
    app = rebuilt["Clock"]
    t = phoneworld_gym.list_tasks(app=app.name)[0]
    env = gymnasium.make(t.env_id(), screenshot_size=(108, 240)).unwrapped
    check_env(env, skip_render_check=True)
    env.reset(seed=1)
    env.step(Action("open_app", app_name=app.label))
    twin = pickle.loads(pickle.dumps(env))
    assert twin.device.a11y_xml() == env.device.a11y_xml()


def test_an_unobserved_tap_stays_and_says_so(rebuilt: dict[str, RecordedApp]) -> None:
    """A clickable node whose tap was never explored: the rebuild stays on the screen and
    the step's action_error says the transition was never observed."""
    app = next(iter(rebuilt.values()))
    rec = app.recording
    for sid in rec.screen_ids:
        keys = [k for k, n in enumerate(informative(rec.xml(sid))) if n.flag("clickable")
                and not n.editable and rec.next(sid, f"click:{k}") is None]
        if keys and sid in rec.paths():
            break
    else:
        pytest.skip("every tap was explored")
    env = phoneworld_gym.PhoneEnv(tasks=phoneworld_gym.list_tasks(app=app.name)[0].id,
                                  obs_mode="a11y")
    env.reset(seed=0)
    env.step(Action("open_app", app_name=app.label))
    for src, a in steps_of(rec, rec.paths()[sid]):
        env.step(to_action(rec.actions[(src, a)]))
    before = env.device.a11y_xml()
    assert signature(before) == rec.sigs[sid]
    x, y = informative(rec.xml(sid))[keys[0]].centre
    _, _, _, _, info = env.step(Action("click", x=x, y=y))
    assert NEVER_OBSERVED in info["action_error"], info["action_error"]
    assert env.device.a11y_xml() == before


def test_a_killed_exploration_resumes_to_the_same_graph(tmp_path: Path) -> None:
    """An exploration killed part way and resumed on the same folder records the graph one
    uninterrupted run records."""

    class Killed(Exception):
        pass

    class Dying(PhoneWorldDevice):
        left = 40

        def execute(self, action: Action) -> str:
            self.left -= 1
            if self.left < 0:
                raise Killed
            return super().execute(action)

    budget = Budget(steps=10_000, seconds=60, transitions=45)
    whole = Explorer(PhoneWorldDevice(screenshot_size=(108, 240)), "Clock", tmp_path / "a")
    one = whole.run(budget)
    with pytest.raises(Killed):
        Explorer(Dying(screenshot_size=(108, 240)), "Clock", tmp_path / "b").run(budget)
    resumed = Explorer(PhoneWorldDevice(screenshot_size=(108, 240)), "Clock",
                       tmp_path / "b").run(budget)

    def graph(st: dict[str, Any]) -> tuple[Any, ...]:
        ids = {sig: s["id"] for sig, s in st["screens"].items()}
        return (sorted(ids.items()),
                [(t["src"], t["action"], t["dst"]) for t in st["transitions"]])

    assert len(one["transitions"]) == 45
    assert graph(resumed) == graph(one)


def test_retention_is_original_over_rebuild_success_judged_by_signature_over_adb(
        rebuilt: dict[str, RecordedApp], adb_port: int) -> None:
    """A BC policy trained on two generated tasks of the rebuilt Contacts is played on the
    rebuild and on the original over adb (the virtual phone); the check on the original
    accepts the target screen and rejects another, and the retention figure is
    original / rebuild success over the two paired episode lists."""
    pytest.importorskip("sb3_contrib")
    from phoneworld_gym.real_device.adb_device import AdbDevice
    from phoneworld_gym.reconstruct.retention import (
        EVAL_SEED0,
        OriginalCheck,
        measure_retention,
    )
    from phoneworld_gym.reconstruct.tasks import GeneratedFillTask, GeneratedTask
    from phoneworld_gym.reconstruct.tree import package
    from phoneworld_gym.task import get_task
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    app = rebuilt["Contacts"]
    rec = app.recording
    ids = [t.id for t in phoneworld_gym.list_tasks(app=app.name)]
    reach = next(t for t in ids if "Reach" in t)
    fills = [t for t in ids if "Fill" in t]
    chosen = [reach, *fills[:1]]
    seeds = [EVAL_SEED0, EVAL_SEED0 + 1]
    with VirtualPhone(PhoneWorldDevice(screenshot_size=(270, 600)), port=free_port(),
                      seed=0) as phone:
        device = AdbDevice(phone.serial, port=adb_port, guard=False)
        # the check on the original, over adb: the reach task's recorded path reaches its
        # target (accepted); the app's first screen, another app in front, or an agent that
        # gives up there are rejected
        env = phoneworld_gym.PhoneEnv(tasks=chosen, obs_mode="a11y")
        env.reset(seed=EVAL_SEED0, options={"task": reach})
        task = env.task
        assert isinstance(task, GeneratedTask)
        device.reset(0)
        device.execute(Action("open_app", app_name="Contacts"))
        check = OriginalCheck(task, rec.package)
        first = device.a11y_xml()
        assert package(first) == rec.package
        assert f"not {task.target} " in check.verdict(first), check.verdict(first)
        for a in task.path:
            device.execute(to_action(a))
        there = device.a11y_xml()
        assert check.verdict(there) == "", check.verdict(there)
        assert check.verdict(there, "infeasible") != ""
        device.execute(Action("navigate_home"))
        assert "is not in front" in check.verdict(device.a11y_xml())
        if fills:  # a fill task's value is read from the field in the original's tree
            env.reset(seed=EVAL_SEED0, options={"task": fills[0]})
            task = env.task
            assert isinstance(task, GeneratedFillTask)
            check = OriginalCheck(task, rec.package)
            device.reset(0)
            device.execute(Action("open_app", app_name="Contacts"))
            for a in task.path:
                device.execute(to_action(a))
            x, y = task.field_point
            device.execute(Action("input_text", x=x, y=y, text=task.params["value"],
                                  clear_text=True))
            device.execute(Action("navigate_back"))
            check.observe(device.a11y_xml())
            assert check.field_text == task.params["value"]
        env.close()

        r = measure_retention(app, device, "Contacts", tasks=chosen, seeds=seeds,
                              episodes=1, epochs=150, batch=4)
        device.close()
    print("\n" + r.summary())
    pairs = [(e.task, e.seed) for e in r.rebuild]
    assert pairs == [(e.task, e.seed) for e in r.original] == \
        [(t, s) for t in chosen for s in seeds]
    for e in r.original:  # judged by the signature check on the original's last tree
        want = rec.sigs[get_task(e.task).target]  # type: ignore[attr-defined]
        assert e.success == (e.why == ""), e
        if e.success:
            assert e.final == want, e
        elif "Reach" in e.task:
            assert e.final != want or "gave up" in e.why, e
    assert r.rebuild_success > 0, r.rebuild
    assert r.rebuild_success == sum(e.success for e in r.rebuild) / len(r.rebuild)
    assert r.original_success == sum(e.success for e in r.original) / len(r.original)
    assert r.retention == pytest.approx(r.original_success / r.rebuild_success)
    kinds = r.by_kind()
    assert sum(n for n, _, _ in kinds.values()) == len(r.rebuild)
    assert sum(o for _, _, o in kinds.values()) == sum(e.success for e in r.original)
