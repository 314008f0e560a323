"""The task kit (``phoneworld_gym/tasks/kit.py``): the helpers every app's tasks share."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import gymnasium
import numpy as np
import pytest

from phoneworld_gym import Action
from phoneworld_gym.oracle import OracleError, find, tap
from phoneworld_gym.task import NoInstance
from phoneworld_gym.tasks.kit import choice, full_date, open_root

OPEN = Action("open_app", app_name="Messages")
BACK = Action("navigate_back")


def test_choice_draws_with_the_rng() -> None:
    rows = ["a", "b", "c", "d"]
    assert choice(np.random.default_rng(5), rows) \
        == rows[int(np.random.default_rng(5).integers(len(rows)))]


def test_choice_of_nothing_is_no_instance_with_a_message() -> None:
    with pytest.raises(NoInstance, match="no contact in this world fits"):
        choice(np.random.default_rng(0), [], "contact")
    with pytest.raises(NoInstance, match="no row"):
        choice(np.random.default_rng(0), ())


def test_full_date_is_a_picker_cells_description() -> None:
    assert full_date(dt.date(2026, 3, 19)) == "Thursday, March 19, 2026"


def _steps(env: gymnasium.Env, actions: Iterator[Action]) -> list[Action]:
    done = []
    for a in actions:
        _, _, _, _, info = env.step(a)
        assert not info["action_error"], (a, info["action_error"])
        done.append(a)
    return done


def test_open_root_opens_the_app_and_backs_out_to_its_root(make_env):
    env = make_env(obs_mode="a11y")
    env.reset(seed=0, options={"task": "MessagesSendText"})
    device = env.unwrapped.task_device
    # already at the conversation list: opening the app is all it takes
    assert _steps(env, open_root(device, "Messages", "search_bar")) == [OPEN]
    # left inside a conversation: Messages resumes there, one back reaches the list
    _steps(env, iter([tap(device, rid="conversation_name"), Action("navigate_home")]))
    assert _steps(env, open_root(device, "Messages", "search_bar")) == [OPEN, BACK]
    assert find(device, rid="search_bar") is not None


def test_open_root_that_never_shows(make_env):
    env = make_env(obs_mode="a11y")
    env.reset(seed=0, options={"task": "MessagesSendText"})
    device = env.unwrapped.task_device
    # without ``fail`` the walk just ends after its tries; with it, it raises
    assert _steps(env, open_root(device, "Messages", "no_such_screen", tries=2)) \
        == [OPEN, BACK, BACK]
    with pytest.raises(OracleError, match="never showed"):
        _steps(env, open_root(device, "Messages", lambda d: False, tries=1,
                              fail="the list never showed"))
