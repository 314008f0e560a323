"""Grounding examples: goals that name an element, replies that click it."""

from __future__ import annotations

import json

import pytest

from phoneworld_gym.baselines.grounding import (
    WORDINGS,
    grounding_examples,
    oracle_screens,
    targets,
)
from phoneworld_gym.baselines.prompt import build_prompt, element_name, parse_action
from phoneworld_gym.contract import BoundingBox, UIElement, parse_ui_elements


@pytest.fixture(scope="module")
def screens() -> list[str]:
    return oracle_screens(["SettingsSwitch", "ContactsStar"], seeds=[0])


def test_oracle_screens_are_the_distinct_screens_of_the_oracles_episodes(screens) -> None:
    assert len(screens) == len(set(screens)) >= 6  # home, Settings, its page; Contacts ...
    texts = {e.text for tree in screens for e in parse_ui_elements(tree)}
    assert {"Settings", "Contacts", "Network & internet"} <= texts


def test_each_example_names_one_element_and_clicks_that_element(screens) -> None:
    ds = grounding_examples(screens, 60, eos="<eos>", seed=3)
    assert len(ds) == 60 and set(ds["source"]) == {"grounding"}
    for row in ds:
        goal = row["prompt"].split("Goal: ", 1)[1].split("\n", 1)[0]
        tree = next(t for t in screens if build_prompt(goal, t, []) == row["prompt"])
        els = parse_ui_elements(tree)
        action = parse_action(row["completion"])
        assert action is not None and action.action_type == "click"
        name = " ".join((els[action.index].text or els[action.index].content_description
                         or "").split())
        assert any(goal == w.format(name) for w in WORDINGS), (goal, name)
        # no other element on that screen has the name: the goal picks one element
        assert sum(" ".join((e.text or e.content_description or "").split()) == name
                   for e in els) == 1
    assert len(set(ds["prompt"])) > 40  # screens, elements and wordings vary
    again = grounding_examples(screens, 60, eos="<eos>", seed=3)
    assert again["prompt"] == ds["prompt"]
    other = grounding_examples(screens, 60, eos="<eos>", seed=4)
    assert other["prompt"] != ds["prompt"]


def test_named_examples_name_the_element_in_the_reply(screens) -> None:
    ds = grounding_examples(screens, 10, eos="", seed=0, named=True)
    for row in ds:
        reply = json.loads(row["completion"])
        goal = row["prompt"].split("Goal: ", 1)[1].split("\n", 1)[0]
        assert reply["element"] in goal


def test_targets_skip_shared_empty_numeric_and_long_names() -> None:
    def el(**kw: object) -> UIElement:
        return UIElement(bbox_pixels=BoundingBox(0, 0, 10, 10), **kw)  # type: ignore[arg-type]

    els = [el(text="Wi-Fi"), el(text="Off"), el(text="Off"), el(text="12"), el(text=""),
           el(content_description="Navigate up"), el(text="x" * 41)]
    assert targets(els) == [0, 5]
    assert element_name(els[5]) == "Navigate up"
    with pytest.raises(ValueError, match="no screen"):
        grounding_examples([], 1, eos="")
    with pytest.raises(ValueError, match="n must be"):
        grounding_examples([], -1, eos="")
    assert len(grounding_examples([], 0, eos="")) == 0
