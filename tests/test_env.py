"""The Gymnasium contract, for every registered id."""

from __future__ import annotations

import json
import pickle
import re
import warnings

import gymnasium
import numpy as np
import pytest
from conftest import ENV_IDS, TASK_IDS
from gymnasium.utils.env_checker import check_env

import phoneworld_gym
from phoneworld_gym import Action
from phoneworld_gym.contract import ACTION_TYPES


def test_ids_are_generated_from_the_registry():
    assert "PhoneWorld/Shopping-v0" in ENV_IDS
    assert "PhoneWorld/Contacts-v0" in ENV_IDS
    for t in TASK_IDS:
        assert phoneworld_gym.list_tasks() and f"PhoneWorld/{t}-v0" in ENV_IDS


#: Device-v0 with no ``tasks`` first finds the phone-ready ones by playing every task's oracle
#: six times (a minute; tests/test_adb_device.py checks that default): two phone-ready tasks
#: give the checker the same env over its own virtual phone and the adb path
MAKE_KWARGS = {"PhoneWorld/Device-v0": {"tasks": ["ContactsStar", "ClockDisableAlarm"]}}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_check_env_passes_without_warnings(env_id):
    env = gymnasium.make(env_id, screenshot_size=(270, 600), **MAKE_KWARGS.get(env_id, {}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        check_env(env.unwrapped, skip_render_check=False)  # raises on any violation
    assert env.unwrapped.task is not None  # the checker reset and stepped a real task
    env.close()


def test_reset_selects_task_and_params(make_env):
    env = make_env("PhoneWorld/Contacts-v0", obs_mode="a11y")
    obs, info = env.reset(seed=3, options={"task": "ContactsAdd",
                                           "params": {"first": "Zed", "last": "Quux",
                                                      "phone": "+1 555-555-0000"}})
    assert info["task"] == "ContactsAdd"
    assert "Zed Quux" in obs["goal"] and info["params"]["first"] == "Zed"
    assert info["steps"] == 0 and info["success"] is False and info["action_error"] == ""


def test_app_env_samples_only_that_apps_tasks(make_env):
    env = make_env("PhoneWorld/Contacts-v0", obs_mode="a11y")
    seen = {env.reset(seed=s)[1]["task"] for s in range(12)}
    assert seen and all(t.startswith("Contacts") for t in seen)
    assert len(seen) > 1


def test_meaningless_action_is_a_noop_with_error(make_env):
    env = make_env("PhoneWorld/ContactsAdd-v0", obs_mode="a11y")
    obs, _ = env.reset(seed=0)
    dev = env.unwrapped.device
    before = dev.world.state_hash()
    for action in (Action("click", index=500), Action("open_app", app_name="Nope"),
                   Action("keyboard_enter"), Action("input_text", text="hi"),
                   Action("click", x=540, y=1800)):
        obs2, reward, term, trunc, info = env.step(action)
        assert info["action_error"], action
        assert reward == 0.0 and not term
        assert dev.world.state_hash() == before, f"{action} changed the world"


@pytest.mark.parametrize("bad", [
    {"action_type": "fly"},
    {"action_type": "click"},
    {"action_type": "click", "index": 1, "x": 3, "y": 4},
    {"action_type": "click", "x": 5000, "y": 10},
    {"action_type": "scroll", "direction": "diagonal"},
    {"action_type": "status", "goal_status": "maybe"},
    {"action_type": "input_text"},
    {"action_type": "click", "index": 1, "colour": "red"},
    "not json",
    42,
])
def test_action_outside_the_space_raises_value_error(make_env, bad):
    env = make_env("PhoneWorld/ContactsAdd-v0", obs_mode="a11y")
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(bad)


def test_step_accepts_action_json_and_space_samples(make_env):
    env = make_env("PhoneWorld/ContactsAdd-v0", obs_mode="a11y")
    env.reset(seed=0)
    probe = env.unwrapped.device.probe
    env.step(Action("open_app", app_name="Contacts"))
    assert probe.foreground_app() == "com.phoneworld.contacts"
    obs, *_, info = env.step({"action_type": "scroll", "direction": "down"})
    assert info["action_error"] == "" and "contact_list" in obs["a11y"]
    env.step('{"action_type": "navigate_home"}')
    assert probe.foreground_app() == "com.google.android.apps.nexuslauncher"
    space = env.action_space
    space.seed(1)
    steps = 0
    for _ in range(10):
        obs, reward, term, trunc, info = env.step(space.sample())
        steps += 1
        assert env.observation_space.contains(obs) and 0.0 <= reward <= 1.0
        if env.unwrapped.done:
            env.reset(seed=0)
    assert steps == 10


def test_step_budget_truncates_with_verifier_reward(make_env):
    env = make_env("PhoneWorld/ContactsStar-v0", obs_mode="a11y", max_steps=3)
    env.reset(seed=0)
    results = [env.step(Action("wait")) for _ in range(3)]
    _, reward, term, trunc, info = results[-1]
    assert trunc and not term and reward == 0.0 and info["steps"] == 3
    with pytest.raises(RuntimeError):
        env.step(Action("wait"))


def test_env_pickles_and_keeps_working(make_env):
    env = make_env("PhoneWorld/ContactsAdd-v0", screenshot_size=(270, 600))
    env.reset(seed=5)
    env.step(Action("open_app", app_name="Contacts"))
    clone = pickle.loads(pickle.dumps(env))
    a = env.step(Action("scroll", direction="down"))[0]
    b = clone.step(Action("scroll", direction="down"))[0]
    assert a["a11y"] == b["a11y"]
    assert np.array_equal(a["screenshot"], b["screenshot"])


def test_async_vector_env_runs():
    envs = gymnasium.make_vec("PhoneWorld/Contacts-v0", num_envs=2,
                              vectorization_mode="async",
                              screenshot_size=(108, 240))
    try:
        obs, info = envs.reset(seed=[1, 2])
        assert obs["screenshot"].shape == (2, 240, 108, 3)
        actions = {k: np.array([v, v]) for k, v in
                   {"action_type": 8, "target": 0, "index": 0, "x": 0, "y": 0, "text": "",
                    "direction": 0, "app_name": "", "goal_status": 0,
                    "clear_text": 0}.items()}
        actions["text"] = ("", "")
        actions["app_name"] = ("", "")
        obs, rew, term, trunc, info = envs.step(actions)
        assert rew.shape == (2,)
    finally:
        envs.close()


def test_render_rgb_array(make_env):
    env = make_env("PhoneWorld/ContactsAdd-v0", render_mode="rgb_array",
                   screenshot_size=(540, 1200))
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (1200, 540, 3) and frame.dtype == np.uint8 and frame.std() > 5


def test_reset_with_params_missing_a_template_field_names_it(make_env):
    env = make_env("PhoneWorld/ContactsAdd-v0", obs_mode="a11y")
    with pytest.raises(ValueError, match="phone"):
        env.reset(seed=0, options={"task": "ContactsAdd",
                                   "params": {"first": "A", "last": "B"}})


def test_sync_vector_env_runs_with_space_samples():
    envs = gymnasium.make_vec("PhoneWorld/Shopping-v0", num_envs=2,
                              vectorization_mode="sync", obs_mode="a11y")
    try:
        obs, info = envs.reset(seed=[3, 4])
        assert len(obs["a11y"]) == 2 and all(x.startswith("<?xml") for x in obs["a11y"])
        envs.action_space.seed(0)
        for _ in range(5):
            obs, rew, term, trunc, info = envs.step(envs.action_space.sample())
        assert rew.shape == (2,) and len(info["task"]) == 2
    finally:
        envs.close()


LAUNCHER = "com.google.android.apps.nexuslauncher"


def _index_of(obs, text):
    """The element index of the (first) element whose text is ``text``."""
    return next(i for i, e in enumerate(phoneworld_gym.parse_ui_elements(obs["a11y"]))
                if e.text == text)


def test_every_form_step_accepts_is_in_the_space_and_does_what_it_says(make_env):
    """An Action, JSON as a dict or text, the numeric form, an element index (as an int or,
    as AndroidWorld's JSONAction converts it, a numeric str): ``contains`` is True, the step
    reports no invalid action, and the screen changes as the action says."""
    env = make_env("PhoneWorld/ContactsStar-v0", obs_mode="a11y", invalid="noop")
    space, probe = env.action_space, env.unwrapped.device.probe
    home = {"action_type": ACTION_TYPES.index("navigate_home"), "target": 0, "index": 0,
            "x": 0, "y": 0, "text": "", "direction": 0, "app_name": "", "goal_status": 0,
            "clear_text": 0}
    obs, _ = env.reset(seed=0)
    forms = [
        (Action("open_app", app_name="Contacts"), "com.phoneworld.contacts"),
        (home, LAUNCHER),
        ({"action_type": "open_app", "app_name": "Clock"}, "com.google.android.deskclock"),
        ('{"action_type": "navigate_home"}', LAUNCHER),
        (lambda o: {"action_type": "click", "index": _index_of(o, "Contacts")},
         "com.phoneworld.contacts"),
        (Action("navigate_home"), LAUNCHER),
        (lambda o: json.dumps({"action_type": "click", "index": str(_index_of(o, "Clock"))}),
         "com.google.android.deskclock"),
    ]
    for form, app in forms:
        action = form(obs) if callable(form) else form
        assert space.contains(action), action
        obs, _, term, trunc, info = env.step(action)
        assert info["invalid_action"] == "" and info["action_error"] == "", (action, info)
        assert info["action"] == Action.from_any(action).to_json()
        assert probe.foreground_app() == app, action
        assert f'package="{app}"' in obs["a11y"]
        assert not (term or trunc)


@pytest.mark.parametrize("bad, words", [
    ({"action_type": "fly"}, "unknown action_type 'fly'"),
    ('{"action_type": "click", "index": 3, "x": 4, "y": 5}', "either index or x, y"),
    ({"action_type": "click", "index": -1}, "index -1 outside"),
    ("click the button", "not valid JSON"),
    (42, "an action must be an Action, a dict or JSON text"),
])
def test_a_malformed_action_is_outside_the_space_and_reported(make_env, bad, words):
    """``contains`` is False; by default ``step`` raises the ValueError naming the problem;
    with ``invalid="noop"`` the step is spent doing nothing and ``info`` says why."""
    env = make_env("PhoneWorld/ContactsStar-v0", obs_mode="a11y", invalid="noop")
    assert not env.action_space.contains(bad)
    obs, _ = env.reset(seed=0)
    before = env.unwrapped.device.world.state_hash()
    obs2, reward, term, trunc, info = env.step(bad)
    assert words in info["invalid_action"] and info["action_error"].startswith(
        "invalid action: ") and words in info["action_error"]
    assert info["action"] == {} and info["steps"] == 1 and reward == 0.0 and not term
    assert obs2["a11y"] == obs["a11y"]
    assert env.unwrapped.device.world.state_hash() == before
    strict = make_env("PhoneWorld/ContactsStar-v0", obs_mode="a11y")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match=re.escape(words)):
        strict.step(bad)
