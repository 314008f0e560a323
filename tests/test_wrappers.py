"""Observation wrappers for LM and VLM agents."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from phoneworld_gym import Action
from phoneworld_gym.contract import parse_ui_elements
from phoneworld_gym.wrappers import ElementList, SetOfMarks


def test_element_list_numbers_match_the_contract_indices():
    env = ElementList(gymnasium.make("PhoneWorld/ContactsStar-v0", obs_mode="a11y"))
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(Action("open_app", app_name="Contacts"))
    lines = obs["elements"].splitlines()
    elements = parse_ui_elements(obs["a11y"])
    assert len(lines) == len(elements)
    i = next(i for i, e in enumerate(elements) if e.content_description == "Create contact")
    assert lines[i].startswith(f"[{i}] ImageButton 'Create contact' clickable")
    assert env.observation_space.contains(obs)


def test_set_of_marks_draws_on_the_screenshot_only():
    base = gymnasium.make("PhoneWorld/ContactsStar-v0", screenshot_size=(540, 1200))
    env = SetOfMarks(base, clickable_only=True)
    obs, _ = env.reset(seed=0)
    plain = base.unwrapped.device.screenshot()
    assert obs["screenshot"].shape == plain.shape and obs["screenshot"].dtype == np.uint8
    assert not np.array_equal(obs["screenshot"], plain)  # the marks are there
    red = (obs["screenshot"][..., 0] > 200) & (obs["screenshot"][..., 1] < 80)
    assert red.sum() > 500
    for _ in range(3):
        obs, *_ = env.step(Action("scroll", direction="down"))
        assert env.observation_space.contains(obs)


def test_wrappers_refuse_observations_they_cannot_read():
    with pytest.raises(ValueError, match="a11y"):
        ElementList(gymnasium.make("PhoneWorld/ContactsStar-v0", obs_mode="pixels"))
    with pytest.raises(ValueError, match="all"):
        SetOfMarks(gymnasium.make("PhoneWorld/ContactsStar-v0", obs_mode="a11y"))
