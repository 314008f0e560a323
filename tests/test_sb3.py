"""ElementActions: PhoneWorld as Stable-Baselines3 (and sb3-contrib) take it."""

from __future__ import annotations

import re
import warnings

import gymnasium
import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env

from phoneworld_gym import Action
from phoneworld_gym.baselines.sb3 import (
    FIXED_ACTIONS,
    ElementActions,
    ElementPolicy,
    goal_values,
)


def wrapped(env_id: str, **kw: object) -> ElementActions:
    """The wrapper over ``env_id``; with a screenshot the phone draws it at the small size."""
    shot = kw.get("screenshot")
    base = gymnasium.make(env_id, obs_mode="all" if shot else "a11y",
                          **({"screenshot_size": (54, 120)} if shot else {}))
    return ElementActions(base, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("env_id, shot", [
    ("PhoneWorld/ShoppingCartCount-v0", None),
    ("PhoneWorld/Contacts-v0", None),
    ("PhoneWorld/SettingsSwitch-v0", "rgb"),
    ("PhoneWorld/MessagesLastFrom-v0", "gray"),
])
def test_check_env_passes_without_a_warning(env_id, shot):
    env = wrapped(env_id, screenshot=shot)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, warn=True)
    spaces = env.observation_space.spaces
    assert all(isinstance(s, gymnasium.spaces.Box) for s in spaces.values())
    assert ("screenshot" in spaces) == (shot is not None)
    if shot:
        assert spaces["screenshot"].shape == (120, 54, 3 if shot == "rgb" else 1)


def test_layout_of_the_action_space():
    env = wrapped("PhoneWorld/All-v0", max_elements=10, max_values=2, apps=["Contacts", "Clock"])
    assert env.action_space.n == 10 * 4 + len(FIXED_ACTIONS) + 2
    names = [env.describe_action(a) for a in range(env.action_space.n)]
    assert names[0] == "click 0" and names[9] == "click 9"
    assert names[10] == "type value 0 into 0" and names[29] == "type value 1 into 9"
    assert names[30] == "answer with the text of 0" and names[39] == "answer with the text of 9"
    assert names[40:46] == list(FIXED_ACTIONS)
    assert names[46:] == ["open Contacts", "open Clock"]


def _tap_target_or_ancestor_clickable(xml: str, index: int) -> bool:
    """Independent of the wrapper: walk up from the index-th element of the dump."""
    import xml.etree.ElementTree as ET

    from phoneworld_gym.ui.dump import indexed_nodes

    root = ET.fromstring(xml)
    parent = {c: p for p in root.iter() for c in p}
    node = indexed_nodes(root)[index][0]
    while node is not None and node.tag == "node":
        if node.get("clickable") == "true":
            return True
        node = parent.get(node)
    return False


@pytest.mark.parametrize("env_id", ["PhoneWorld/MessagesLastFrom-v0",
                                    "PhoneWorld/ContactsLookupPhone-v0"])
def test_masks_offer_exactly_what_means_something(env_id):
    env = wrapped(env_id)
    rng = np.random.default_rng(0)
    m, v = env.max_elements, env.max_values
    obs, info = env.reset(seed=3)
    assert info["values"] == env.values and env.values  # the name to search for
    reset_keys = set(info)
    checked = 0
    for _ in range(25):
        mask = env.action_masks()
        xml = env.unwrapped.device.a11y_xml()
        els = env.elements
        n = min(len(els), m)
        assert not mask[n:m].any() and not mask[m + v * m + n: m + v * m + m].any()
        for i in range(n):
            assert mask[i] == _tap_target_or_ancestor_clickable(xml, i), (i, els[i])
            for k in range(v):
                assert mask[m + k * m + i] == bool(els[i].is_editable and k < len(env.values))
            assert mask[m + v * m + i] == bool(els[i].text)
        scrolls = any(e.is_scrollable for e in els)
        assert mask[(2 + v) * m] == mask[(2 + v) * m + 1] == scrolls
        # an unmasked click is always a real tap; an answer carries the element's text
        clicks = np.flatnonzero(mask[:m])
        answers = np.flatnonzero(mask[m + v * m: m + v * m + m])
        if len(answers) and rng.random() < 0.2:
            i = int(rng.choice(answers))
            _, _, term, _, info = env.step(m + v * m + i)
            assert term and info["action"] == {"action_type": "answer", "text": els[i].text}
            env.reset(seed=int(rng.integers(100)))
            continue
        if len(clicks):
            i = int(rng.choice(clicks))
            _, _, term, trunc, info = env.step(i)
            assert info["action_error"] == "" and info["invalid_action"] == ""
            assert info["action"] == {"action_type": "click", "index": i}
            assert set(info) == reset_keys  # one info schema for reset and step
            checked += 1
            if term or trunc:
                env.reset(seed=int(rng.integers(100)))
    assert checked >= 10


@pytest.mark.parametrize("task", ["MessagesLastFrom", "ContactsLookupPhone", "SettingsSwitch",
                                  "ShoppingCartCount", "ClockDisableAlarm"])
def test_the_oracle_path_through_the_discrete_space_solves_the_task(task):
    env = wrapped(f"PhoneWorld/{task}-v0")
    for seed in (0, 1):
        env.reset(seed=seed)
        info: dict = {}
        for act in env.unwrapped.oracle():
            a = env.encode(act)
            assert a is not None, f"{task}: the space cannot say {act}"
            assert env.action_masks()[a], f"{task}: {env.describe_action(a)} is masked"
            assert env.decode(a) == act or act.action_type == "answer"
            _, reward, term, trunc, info = env.step(a)
            assert info["invalid_action"] == ""
        assert term and reward == 1.0 and info["success"], info["failure"]


def test_out_of_range_and_non_int_actions_are_refused_and_change_nothing():
    env = wrapped("PhoneWorld/ContactsLookupPhone-v0")
    env.reset(seed=0)
    n = env.action_space.n
    before = env.unwrapped.device.a11y_xml()
    for bad, words in ((n, re.escape(f"outside Discrete({n})")), (-1, "outside"),
                       (1.5, "is an int"), (True, "is an int"), ("3", "is an int"),
                       (np.array([1, 2]), "is an int")):
        with pytest.raises(ValueError, match=words):
            env.step(bad)
    assert env.unwrapped.steps == 0 and env.unwrapped.device.a11y_xml() == before
    env.step(np.int64(env.encode(Action("open_app", app_name="Contacts"))))  # numpy ints work
    assert env.unwrapped.steps == 1


def test_a_masked_action_is_a_recorded_no_op_or_an_error():
    env = wrapped("PhoneWorld/ContactsLookupPhone-v0")
    env.reset(seed=0)
    m, v = env.max_elements, env.max_values
    masked = [a for a in range(env.action_space.n) if not env.action_masks()[a]]
    assert m - 1 in masked  # the home screen has fewer than 48 elements
    before = env.unwrapped.device.a11y_xml()
    _, reward, term, trunc, info = env.step(m - 1)
    assert "no element 47" in info["invalid_action"] and info["action"] == {
        "action_type": "wait"}
    assert env.unwrapped.steps == 1 and not (term or trunc) and reward == 0.0
    assert env.unwrapped.device.a11y_xml() == before
    typing = next(a for a in masked if m <= a < m + v * m)
    _, _, _, _, info = env.step(typing)
    assert "not editable" in info["invalid_action"] or "no element" in info["invalid_action"]

    strict = wrapped("PhoneWorld/ContactsLookupPhone-v0", invalid="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="masked out now: no element 47"):
        strict.step(m - 1)
    assert strict.unwrapped.steps == 0


def test_bad_wrapper_arguments_name_the_problem():
    with pytest.raises(ValueError, match="a11y"):
        ElementActions(gymnasium.make("PhoneWorld/ShoppingCartCount-v0", obs_mode="pixels"))
    base = gymnasium.make("PhoneWorld/ShoppingCartCount-v0", obs_mode="a11y")
    with pytest.raises(ValueError, match="screenshot"):
        ElementActions(base, screenshot="rgb")
    with pytest.raises(ValueError, match="screenshot must be"):
        ElementActions(base, screenshot="color")
    with pytest.raises(ValueError, match="max_elements"):
        ElementActions(base, max_elements=0)
    with pytest.raises(ValueError, match="invalid must be"):
        ElementActions(base, invalid="ignore")


def test_goal_values():
    assert goal_values("What is Mateo Dawson's phone number?",
                       {"name": "Mateo Dawson", "id": 15}) == ["Mateo Dawson"]
    # a value that holds another gives way to it; order follows the goal
    assert goal_values("How many ratings does the Tea & Co Green Tea have?",
                       {"name": "Tea & Co Green Tea", "the_name": "the Tea & Co Green Tea"}
                       ) == ["Tea & Co Green Tea"]
    assert goal_values('Text Kara Ito "On my way".', {"body": "On my way", "name": "Kara Ito"}
                       ) == ["Kara Ito", "On my way"]
    # without params: quoted spans, then capitalised spans (not a sentence's first word)
    assert goal_values("Turn off Do Not Disturb.") == ["Do Not Disturb"]
    assert goal_values('Reply to Kara Ito with "See you". Then stop.', max_values=3) == [
        "Kara Ito", "See you"]
    assert goal_values("How many items are in my cart?") == []


def test_maskable_ppo_learns_a_little_and_a_saved_model_acts_the_same(tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = wrapped("PhoneWorld/MessagesLastFrom-v0", max_elements=32)
    model = MaskablePPO(ElementPolicy, env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs=env.policy_kwargs(embed=16))
    model.learn(256)
    assert model.num_timesteps == 256
    model.save(tmp_path / "ppo.zip")
    loaded = MaskablePPO.load(tmp_path / "ppo.zip")
    obs, _ = env.reset(seed=5)
    for _ in range(6):
        mask = env.action_masks()
        a, _ = model.predict(obs, deterministic=True, action_masks=mask)
        b, _ = loaded.predict(obs, deterministic=True, action_masks=mask)
        assert int(a) == int(b) and mask[int(a)]
        t = model.policy.obs_to_tensor(obs)[0]
        p = model.policy.get_distribution(t, action_masks=mask).distribution.probs
        q = loaded.policy.get_distribution(t, action_masks=mask).distribution.probs
        assert torch.allclose(p, q)
        # masked-out actions are never drawn
        assert float(p.detach()[0, ~torch.as_tensor(mask)].sum()) == 0.0
        obs, _, term, trunc, _ = env.step(int(a))
        if term or trunc:
            obs, _ = env.reset(seed=6)


def test_plain_sb3_algorithms_take_it_too():
    from stable_baselines3 import A2C

    env = wrapped("PhoneWorld/MessagesLastFrom-v0", max_elements=16)
    model = A2C("MultiInputPolicy", env, n_steps=16, seed=0)
    model.learn(32)  # masked-out picks are recorded no-ops, so nothing crashes
    assert model.num_timesteps == 32
