"""A world that cannot pose a task: ``reset`` draws the seed's next world, deterministically,
and gives up with a clear error only when none of its draws can."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import phoneworld_gym  # noqa: F401
from phoneworld_gym.env import WORLD_DRAWS
from phoneworld_gym.task import NoInstance, get_task
from tests.conftest import run_script

TASK = "CrossAppTextHomeForecast"


def test_seed_whose_first_world_cannot_pose_the_task_resets_and_is_solvable() -> None:
    # seed 1116's first world has no contact living in a saved weather city (CI hit one such
    # world through check_env's unseeded reset)
    env = gymnasium.make(f"PhoneWorld/{TASK}-v0", obs_mode="a11y")
    obs, _ = env.reset(seed=1116)
    probe = env.unwrapped.task_device.probe
    params = env.unwrapped.task.params
    saved = {r["name"] for r in probe.query("weather/cities")}
    assert params["city"] in saved
    home = [c for c in probe.contacts() if c["display_name"] == params["name"]]
    assert home and params["city"] in home[0]["postal_address"]
    goal = obs["goal"]
    reward, info = run_script(env, env.unwrapped.oracle)
    assert reward == 1.0 and info["success"]
    assert env.reset(seed=1116)[0]["goal"] == goal  # the redraw is part of the seed
    env.close()


def test_redraws_are_counted_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    cls = get_task(TASK)
    real = cls.generate_params.__func__  # type: ignore[attr-defined]
    calls: list[int] = []

    def first_fails(c: Any, rng: np.random.Generator, probe: Any) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            raise NoInstance("not in this world")
        return real(c, rng, probe)  # type: ignore[no-any-return]

    monkeypatch.setattr(cls, "generate_params", classmethod(first_fails))
    env = gymnasium.make(f"PhoneWorld/{TASK}-v0", obs_mode="a11y")
    env.reset(seed=3)
    assert len(calls) == 2

    def never(c: Any, rng: np.random.Generator, probe: Any) -> dict[str, Any]:
        calls.append(1)
        raise NoInstance("no contact lives in a saved weather city")

    calls.clear()
    monkeypatch.setattr(cls, "generate_params", classmethod(never))
    with pytest.raises(NoInstance, match=rf"none of the {WORLD_DRAWS} worlds .*saved weather"):
        env.reset(seed=3)
    assert len(calls) == WORLD_DRAWS
    env.close()


def _direct_raises(source: str) -> list[tuple[int, str]]:
    """(line, exception) of each RuntimeError/ValueError raised directly in a task's
    ``generate_params``: a world that cannot pose the task must say so with NoInstance."""
    import ast

    found = []
    for fn in ast.walk(ast.parse(source)):
        if isinstance(fn, ast.FunctionDef) and fn.name == "generate_params":
            for node in ast.walk(fn):
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                        getattr(node.exc.func, "id", None) in ("RuntimeError", "ValueError"):
                    found.append((node.lineno, node.exc.func.id))  # type: ignore[attr-defined]
    return found


def test_no_task_refuses_a_world_with_another_error() -> None:
    from pathlib import Path

    assert _direct_raises("class T:\n    @classmethod\n    def generate_params(cls, rng, p):\n"
                          "        raise RuntimeError('no alarm is on')\n") == [
        (4, "RuntimeError")]  # the check catches the form it looks for
    root = Path(__file__).resolve().parent.parent / "phoneworld_gym" / "tasks"
    offenders = {str(p.relative_to(root)): hits for p in sorted(root.rglob("*.py"))
                 if (hits := _direct_raises(p.read_text()))}
    assert not offenders, offenders
