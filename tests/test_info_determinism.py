"""``info`` text is the same in every process: no ``<function ... at 0x...>`` or other object
address in ``info["failure"]`` (or anywhere in ``info``), whatever the task and the way the
episode failed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import gymnasium
import pytest

import phoneworld_gym
from phoneworld_gym import Action
from phoneworld_gym.validators import describe, exact, new_row_id, same_text

ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")


def _failures(task_ids: list[str], seeds: range) -> dict[str, Any]:
    """The ``info`` that ends each episode, per ``task/seed/how``: stopping at once, and
    answering wrongly."""
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y", disable_env_checker=True)
    out: dict[str, Any] = {}
    for task in task_ids:
        for seed in seeds:
            for how, action in (("nothing", Action("status", goal_status="complete")),
                                ("wrong answer", Action("answer", text="forty-two, maybe"))):
                env.reset(seed=seed, options={"task": task})
                _, _, term, trunc, info = env.step(action)
                if not (term or trunc):
                    _, _, term, trunc, info = env.step(Action("status", goal_status="complete"))
                assert term or trunc
                out[f"{task}/{seed}/{how}"] = info
    env.close()
    return out


def _texts(value: Any) -> list[str]:
    """Every string in ``value`` (nested dicts and lists), and the repr of anything else."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _texts(k) + _texts(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _texts(v)]
    return [repr(value)]


def test_no_info_of_a_failed_episode_holds_an_address():
    tasks = [t.id for t in phoneworld_gym.list_tasks()]
    infos = _failures(tasks, range(1))
    failures = [k for k, info in infos.items() if info["failure"]]
    assert len(failures) >= len(tasks)  # doing nothing fails every task
    leaks = {k: t for k, info in infos.items() for t in _texts(info) if ADDRESS.search(t)}
    assert not leaks, f"{len(leaks)} episodes leak an address, e.g. {next(iter(leaks.items()))}"


# tasks whose checks hold functions (a lambda, a named predicate) or the id of a new row
FUNCTION_CHECKS = ["BankSendMoney", "BikeRideEbike", "CameraTakePhoto", "MusicMakePlaylist"]

_CHILD = """
import json, sys
sys.path[:0] = {path!r}
from tests.test_info_determinism import _failures
print(json.dumps(_failures({tasks!r}, range(2)), sort_keys=True, default=repr))
"""


def test_two_processes_give_the_same_info():
    tasks = [t for t in FUNCTION_CHECKS if t in {s.id for s in phoneworld_gym.list_tasks()}]
    assert len(tasks) >= 3
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = _CHILD.format(path=[root], tasks=tasks)
    runs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, cwd=root, timeout=600, check=True)
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    assert runs[0] == runs[1]
    assert all(info["failure"] for info in runs[0].values())


def near(v: float):
    return lambda x: abs(x - v) < 0.01


def is_shot(row_id: object) -> bool:
    return True


def test_describe_names_functions_without_their_address():
    pattern = {"amount": near(3.0), "_id": is_shot, "title": same_text("Lunch"),
               "code": exact("A1"), "n": 3, "tags": ["a", (1,)]}
    assert describe(pattern) == ("{'amount': near.<lambda>, '_id': is_shot, "
                                 "'title': ~'Lunch', 'code': ='A1', 'n': 3, "
                                 "'tags': ['a', (1,)]}")
    # plain values read exactly as Python writes them
    plain = {"a": [1, "x", None], "b": (2,), "c": {"d": 1.5}}
    assert describe(plain) == repr(plain)


@pytest.mark.parametrize("added", [0, 2])
def test_a_new_row_id_that_does_not_exist_says_why(added):
    before = [{"_id": 1}]
    after = before + [{"_id": 10 + k} for k in range(added)]
    pred = new_row_id(before, after)
    assert not pred(10) and not pred(None)
    assert repr(pred) == f"the new row's id (there is none: {added} rows were added, not 1)"
    assert repr(new_row_id(before, before + [{"_id": 7}])) == "the new row's id 7"
