"""Baseline agents: the random agent acts on what the screen offers (and wastes far fewer
actions than raw space samples), the oracle solves tasks and refuses misuse."""

from __future__ import annotations

import re
from typing import Any

import gymnasium
import numpy as np
import pytest

import phoneworld_gym
from phoneworld_gym import Action, parse_ui_elements
from phoneworld_gym.baselines import agents
from phoneworld_gym.baselines.agents import (
    HumanAgent,
    OracleAgent,
    RandomAgent,
    SpaceSampleAgent,
    goal_words,
    meaningless_share,
    parse_command,
    reachable,
)

TASKS = [t.id for t in phoneworld_gym.list_tasks()]


@pytest.fixture(scope="module")
def env() -> Any:
    e = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y", disable_env_checker=True)
    yield e
    e.close()


def test_random_agent_acts_on_the_screen(env: Any) -> None:
    """Every targeted action aims at an element that takes it (a tap at something clickable,
    typing into an editable field, a scroll at a scrollable element), typed text comes from
    the goal, and open_app names an installed app."""
    apps = {a.label for a in phoneworld_gym.list_apps() if a.kind == "app"}
    kinds: set[str] = set()
    for i, task in enumerate(TASKS[::7]):
        obs, _ = env.reset(seed=i, options={"task": task})
        agent = RandomAgent(seed=i, stop_prob=0.02)
        agent.reset(obs["goal"])
        words = set(goal_words(obs["goal"]))
        while True:
            action = agent.act(obs)
            kinds.add(action.action_type)
            elements = parse_ui_elements(obs["a11y"])
            taps = reachable(obs["a11y"])
            if action.index is not None:
                e = elements[action.index]
                if action.action_type == "click":
                    assert taps[action.index] or e.is_editable, (action, e)
                elif action.action_type == "input_text":
                    assert e.is_editable and action.text in words, (action, e)
                elif action.action_type == "scroll":
                    assert e.is_scrollable, (action, e)
                elif action.action_type == "long_press":
                    assert reachable(obs["a11y"], "long-clickable")[action.index], (action, e)
            assert action.x is None and action.y is None
            if action.action_type == "open_app":
                assert action.app_name in apps
            obs, _, term, trunc, _ = env.step(action)
            if term or trunc:
                break
    assert {"click", "input_text", "scroll", "navigate_back", "open_app", "status"} <= kinds


def test_reachable() -> None:
    """A leaf inside a clickable row is reachable by a tap; a leaf outside any is not."""
    xml = ('<hierarchy rotation="0"><node clickable="false" bounds="[0,0][1080,2400]">'
           '<node clickable="true" bounds="[0,0][1080,200]"><node text="Ada" clickable="false" '
           'bounds="[0,0][500,200]"/><node text="Ada" clickable="false" bounds="[500,0]'
           '[1080,200]"/></node><node text="title" clickable="false" long-clickable="true" '
           'bounds="[0,300][1080,400]"/></node></hierarchy>')
    assert len(parse_ui_elements(xml)) == 3
    assert reachable(xml) == [True, True, False]
    assert reachable(xml, "long-clickable") == [False, False, True]
    with pytest.raises(ValueError, match="malformed"):
        reachable("<hierarchy")


def test_goal_words() -> None:
    assert goal_words("Add Ada Lovelace to my favorite contacts.") == (
        "Add", "Ada", "Lovelace", "favorite", "contacts", "Add Ada", "Ada Lovelace",
        "Lovelace favorite", "favorite contacts")


def test_random_agent_does_not_repeat_a_no_op() -> None:
    """Shown the same tree again (its action changed nothing), the agent does not try that
    action again on that screen; another screen is a fresh start."""
    env = gymnasium.make("PhoneWorld/Contacts-v0", obs_mode="a11y", disable_env_checker=True)
    obs, _ = env.reset(seed=0, options={"task": "ContactsStar"})
    env.step(Action("open_app", app_name="Contacts"))
    xml = env.unwrapped.device.a11y_xml()
    agent = RandomAgent(seed=3, stop_prob=0.0)
    agent.reset(obs["goal"])
    frozen = {"a11y": xml, "goal": obs["goal"]}
    tried = [agent.act(frozen).to_json_str() for _ in range(12)]
    assert len(set(tried)) == len(tried), tried
    # the dead actions belong to that screen only
    assert all(k[0] == agents._tree_key(xml) for k in agent._dead)
    agent.reset(obs["goal"])
    assert not agent._dead
    env.close()


def test_random_agent_is_reproducible_and_checks_input(env: Any) -> None:
    obs, _ = env.reset(seed=1, options={"task": "ShoppingAddToCartOptions"})

    def run(seed: int) -> list[str]:
        a = RandomAgent(seed=seed, stop_prob=0.0)
        a.reset(obs["goal"])
        return [a.act(obs).to_json_str() for _ in range(6)]

    assert run(7) == run(7)
    assert run(7) != run(8)
    with pytest.raises(ValueError, match="a11y"):
        RandomAgent().act({"goal": "x", "screenshot": np.zeros((2, 2, 3), np.uint8)})
    with pytest.raises(ValueError, match="stop_prob"):
        RandomAgent(stop_prob=1.5)
    with pytest.raises(ValueError, match="app_names"):
        RandomAgent(app_names=())


def test_meaningless_share_random_vs_raw_samples(env: Any, capsys: pytest.CaptureFixture[str]
                                                 ) -> None:
    """The figure docs/results_data.md reports: the share of actions the env calls
    meaningless (``info["action_error"]``), acting on elements vs raw space samples, over every
    task. Acting on elements wastes a few percent; raw samples most of their actions."""
    agents.main(["--seeds", "1", "--stride", "3"])
    out = capsys.readouterr().out
    shares = {m.group(1): (int(m.group(2)), int(m.group(3)))
              for m in re.finditer(r"^(random agent|raw)[^:]*: (\d+)/(\d+)", out, re.M)}
    print(out)
    bad, total = shares["random agent"]
    assert total > 120 and bad / total < 0.05, out
    bad, total = shares["raw"]
    assert total > 80 and bad / total > 0.4, out
    # the counting itself: an agent that only taps index 511 is always meaningless
    tap_nothing = type("TapNothing", (), {"name": "t", "reset": lambda self, g: None,
                                          "act": lambda self, o: Action("click", index=511)})
    bad, total = meaningless_share(env, lambda e, i: tap_nothing(), ["ContactsStar"], [0])
    assert bad == total > 0


def test_space_sample_agent(env: Any) -> None:
    obs, _ = env.reset(seed=0, options={"task": "ContactsStar"})
    a = SpaceSampleAgent(env, seed=5)
    b = SpaceSampleAgent(env, seed=5)
    first = [a.act(obs) for _ in range(5)]
    assert all(isinstance(x, Action) for x in first)
    assert first == [b.act(obs) for _ in range(5)]


@pytest.mark.parametrize("task", ["ContactsStar", "ShoppingAddToCartOptions", "ClockAddAlarm"])
def test_oracle_agent_solves(env: Any, task: str) -> None:
    if task not in TASKS:
        pytest.fail(f"{task} is not registered")
    obs, _ = env.reset(seed=2, options={"task": task})
    agent = OracleAgent(env)
    agent.reset(obs["goal"])
    while True:
        obs, reward, term, trunc, info = env.step(agent.act(obs))
        assert not info["action_error"], info["action_error"]
        if term or trunc:
            break
    assert reward == 1.0 and info["success"] and term


def test_oracle_agent_refuses_misuse(env: Any) -> None:
    agent = OracleAgent(env)
    with pytest.raises(RuntimeError, match="reset"):
        agent.act({})
    obs, _ = env.reset(seed=0, options={"task": "ContactsStar"})
    with pytest.raises(ValueError, match="reset the env first"):
        agent.reset("Some other goal.")
    agent.reset(obs["goal"])
    with pytest.raises(ValueError, match="PhoneWorld env"):
        OracleAgent(gymnasium.make("CartPole-v1"))


def test_human_commands() -> None:
    cases = {
        "click 3": Action("click", index=3), "long 4": Action("long_press", index=4),
        "double 0": Action("double_tap", index=0),
        "type 2 Maple Street": Action("input_text", index=2, text="Maple Street",
                                      clear_text=False),
        "clear 2 x": Action("input_text", index=2, text="x", clear_text=True),
        "scroll down": Action("scroll", direction="down"),
        "scroll 5 up": Action("scroll", index=5, direction="up"),
        "swipe left": Action("swipe", direction="left"), "back": Action("navigate_back"),
        "home": Action("navigate_home"), "enter": Action("keyboard_enter"),
        "wait": Action("wait"), "open Contacts": Action("open_app", app_name="Contacts"),
        "done": Action("status", goal_status="complete"),
        "infeasible": Action("status", goal_status="infeasible"),
        "answer 42 items": Action("answer", text="42 items"),
        '{"action_type": "click", "index": 7}': Action("click", index=7),
    }
    for line, action in cases.items():
        assert parse_command(line) == action, line
    for bad in ("", "click", "click x", "scroll sideways", "type 3", "fly 2", "back 2",
                '{"action_type": "fly"}'):
        with pytest.raises(ValueError):
            parse_command(bad)


def test_human_agent_reads_until_an_action_parses(env: Any) -> None:
    obs, _ = env.reset(seed=0, options={"task": "ContactsStar"})
    lines = iter(["click", "open Contacts"])
    shown: list[str] = []
    agent = HumanAgent(read=lambda prompt: next(lines), write=shown.append)
    agent.reset(obs["goal"])
    assert agent.act(obs) == Action("open_app", app_name="Contacts")
    assert shown[0].startswith("goal: " + obs["goal"])
    assert "[0]" in shown[1] and shown[2].startswith("not an action: 'click'")
