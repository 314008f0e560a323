"""One ``info`` schema (``phoneworld_gym.env.INFO_SCHEMA``) for ``reset`` and every kind of
``step``: a valid action, an invalid one (``invalid="noop"``), a meaningless one, the step that
truncates, the one that terminates, a device failure; through ``gymnasium.make`` ids and a
vector env's autoreset. Keys are equal everywhere and values are of the documented types."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import gymnasium
import pytest

import phoneworld_gym  # noqa: F401 (registers the PhoneWorld ids)
from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.device import DeviceError
from phoneworld_gym.env import INFO_SCHEMA
from phoneworld_gym.phone import PhoneWorldDevice

#: the whole catalogue, an app, a category and one task
ENV_IDS = ["PhoneWorld/All-v0", "PhoneWorld/Contacts-v0", "PhoneWorld/MiniApp-v0",
           "PhoneWorld/ContactsStar-v0"]
CONTACTS = "com.phoneworld.contacts"


def check(info: dict[str, Any], where: str) -> None:
    """``info`` has exactly the schema's keys, each value of its documented type."""
    assert set(info) == set(INFO_SCHEMA), (where, set(info) ^ set(INFO_SCHEMA))
    for key, (kind, _) in INFO_SCHEMA.items():
        value = info[key]
        assert isinstance(value, kind), (where, key, value)
        if kind is int:
            assert not isinstance(value, bool), (where, key, value)


def test_the_schema_is_documented_key_by_key():
    for key, (kind, meaning) in INFO_SCHEMA.items():
        assert kind in (str, int, bool, dict) and len(meaning) > 10, key
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    start = readme.index("- **Info**: `info` has one schema")
    para = readme[start:readme.index("\n- **", start)]
    named = set(re.findall(r"`(\w+)` \((?:str|int|bool|dict)\b", para))
    assert named == set(INFO_SCHEMA), named ^ set(INFO_SCHEMA)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reset_and_every_step_give_the_same_keys(env_id):
    env = gymnasium.make(env_id, obs_mode="a11y", invalid="noop", max_steps=4)
    probe = env.unwrapped.device.probe
    try:
        _, info = env.reset(seed=1)
        check(info, "reset")
        assert info["steps"] == 0 and info["action"] == {} and info["invalid_action"] == ""
        assert info["action_error"] == info["failure"] == info["device_error"] == ""
        assert info["success"] is False and info["task"] in env.unwrapped.task_ids

        _, _, _, _, info = env.step('{"action_type": "open_app", "app_name": "Contacts"}')
        check(info, "valid step")
        assert probe.foreground_app() == CONTACTS
        assert info["action"] == {"action_type": "open_app", "app_name": "Contacts"}
        assert info["invalid_action"] == "" and info["action_error"] == ""
        assert info["steps"] == 1

        _, _, _, _, info = env.step({"action_type": "fly"})
        check(info, "invalid step")
        assert "unknown action_type 'fly'" in info["invalid_action"]
        assert info["action_error"] == "invalid action: " + info["invalid_action"]
        assert info["action"] == {} and info["steps"] == 2
        assert probe.foreground_app() == CONTACTS  # nothing was done

        _, _, _, _, info = env.step(Action("open_app", app_name="NoSuchApp"))
        check(info, "meaningless step")
        assert info["invalid_action"] == "" and "NoSuchApp" in info["action_error"]
        assert info["action"] == {"action_type": "open_app", "app_name": "NoSuchApp"}

        _, reward, term, trunc, info = env.step(Action("wait"))
        check(info, "truncating step")
        assert trunc and not term and info["steps"] == 4 and info["action_error"] == ""

        env.reset(seed=2)
        _, reward, term, trunc, info = env.step(Action("status", goal_status="complete"))
        check(info, "terminating step")
        assert term and info["action"] == {"action_type": "status", "goal_status": "complete"}
        assert (reward == 1.0) == info["success"]
        assert info["success"] or info["failure"]  # doing nothing either passes or says why
    finally:
        env.close()


def test_an_invalid_action_that_uses_up_the_budget_truncates_with_the_schema():
    env = gymnasium.make("PhoneWorld/ContactsStar-v0", obs_mode="a11y", invalid="noop",
                         max_steps=1)
    env.reset(seed=0)
    _, reward, term, trunc, info = env.step("not json")
    check(info, "invalid last step")
    assert trunc and not term and reward == 0.0 and "not valid JSON" in info["invalid_action"]
    assert info["failure"]  # the verifier ran and said why the task is not done


def test_by_default_an_invalid_action_raises_and_changes_nothing():
    env = gymnasium.make("PhoneWorld/ContactsStar-v0", obs_mode="a11y")
    _, before = env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown action_type 'fly'"):
        env.step({"action_type": "fly"})
    _, _, _, _, info = env.step(Action("wait"))
    check(info, "after a refused action")
    assert info["steps"] == 1 and info["invalid_action"] == ""
    with pytest.raises(ValueError, match="invalid must be"):
        gymnasium.make("PhoneWorld/ContactsStar-v0", invalid="ignore")


class FailingDevice(PhoneWorldDevice):
    """A PhoneWorld phone whose ``execute`` raises a ``DeviceError`` once ``fail`` is set."""

    fail = False

    def execute(self, action: Action) -> str:
        if self.fail:
            raise DeviceError("cable pulled")
        return super().execute(action)


def test_a_device_failure_gives_the_same_keys():
    dev = FailingDevice()
    env = PhoneEnv(tasks="ContactsStar", device=dev, obs_mode="a11y")
    _, info = env.reset(seed=0)
    check(info, "reset")
    dev.fail = True
    _, reward, term, trunc, info = env.step(Action("navigate_back"))
    check(info, "device failure")
    assert trunc and not term and info["device_error"] == "cable pulled"
    assert info["action"] == {"action_type": "navigate_back"} and info["invalid_action"] == ""
    dev.fail = False
    _, info = env.reset(seed=0)
    check(info, "reset after the failure")
    assert info["device_error"] == "" and info["action"] == {}


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_vector_envs_info_has_the_same_keys_after_autoreset(mode):
    """Gymnasium batches ``info`` per key; the autoreset step (NEXT_STEP: the step after an
    episode ends resets that sub-env) brings reset's info, with the same keys."""
    envs = gymnasium.make_vec("PhoneWorld/ContactsStar-v0", num_envs=2, vectorization_mode=mode,
                              obs_mode="a11y", max_steps=1)
    try:
        _, info = envs.reset(seed=0)
        keys = {k for k in info if not k.startswith("_")}
        assert keys == set(INFO_SCHEMA)
        _, _, _, trunc, info = envs.step([Action("wait")] * 2)
        assert trunc.tolist() == [True, True]
        assert {k for k in info if not k.startswith("_")} == set(INFO_SCHEMA)
        assert list(info["action"]["action_type"]) == ["wait", "wait"]
        _, _, _, trunc, info = envs.step([Action("wait")] * 2)  # the autoreset step
        assert trunc.tolist() == [False, False] and info["steps"].tolist() == [0, 0]
        assert {k for k in info if not k.startswith("_")} == set(INFO_SCHEMA)
        assert info["action"] == {} and list(info["invalid_action"]) == ["", ""]
        assert info["_action"].tolist() == [True, True]
    finally:
        envs.close()
