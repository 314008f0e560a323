"""AndroidWorld both ways, against a stand-in for its documented interfaces.

The stand-in (below) has the names and fields of ``android_world/env/json_action.py``
(``JSONAction`` and its validation), ``env/representation_utils.py`` (``BoundingBox``,
``UIElement``), ``env/interface.py`` (``State``) and ``agents/base_agent.py``
(``EnvironmentInteractingAgent``, ``AgentInteractionResult``), written from their docs; it is
installed as ``android_world`` so the adapters' lazy imports find it.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from typing import Any

import gymnasium
import numpy as np
import pytest

import phoneworld_gym  # noqa: F401 (registers the envs)
from phoneworld_gym.androidworld import (
    PhoneWorldAsyncEnv,
    as_androidworld_agent,
    elements_to_xml,
    from_androidworld_element,
)
from phoneworld_gym.androidworld.env import json_action_to_action
from phoneworld_gym.contract import Action, UIElement, parse_ui_elements
from phoneworld_gym.phone import PhoneWorldDevice

# -- the stand-in ------------------------------------------------------------------------------
_TYPES = ("click", "double_tap", "scroll", "swipe", "input_text", "navigate_home",
          "navigate_back", "keyboard_enter", "open_app", "status", "wait", "long_press",
          "answer", "unknown")


@dataclasses.dataclass
class JSONAction:
    action_type: str | None = None
    index: str | int | None = None
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: str | None = None
    goal_status: str | None = None
    app_name: str | None = None
    keycode: str | None = None
    clear_text: bool | None = None

    def __post_init__(self) -> None:
        if self.action_type not in _TYPES:
            raise ValueError(f"Invalid action type: {self.action_type}")
        if self.index is not None:
            self.index = int(self.index)
            if self.x is not None or self.y is not None:
                raise ValueError("Either an index or a <x, y> should be provided.")
        if self.direction and self.direction not in ("left", "right", "down", "up"):
            raise ValueError(f"Invalid scroll direction: {self.direction}")
        if self.text is not None and not isinstance(self.text, str):
            self.text = str(self.text)

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def json_str(self) -> str:
        import json
        return json.dumps(self.as_dict(), separators=(",", ":"))


@dataclasses.dataclass
class BoundingBox:
    x_min: float
    x_max: float
    y_min: float
    y_max: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x_min + self.x_max) / 2.0, (self.y_min + self.y_max) / 2.0


@dataclasses.dataclass
class AWUIElement:
    text: str | None = None
    content_description: str | None = None
    class_name: str | None = None
    bbox: BoundingBox | None = None
    bbox_pixels: BoundingBox | None = None
    hint_text: str | None = None
    is_checked: bool | None = None
    is_checkable: bool | None = None
    is_clickable: bool | None = None
    is_editable: bool | None = None
    is_enabled: bool | None = None
    is_focused: bool | None = None
    is_focusable: bool | None = None
    is_long_clickable: bool | None = None
    is_scrollable: bool | None = None
    is_selected: bool | None = None
    is_visible: bool | None = None
    package_name: str | None = None
    resource_name: str | None = None
    tooltip: str | None = None
    resource_id: str | None = None
    metadata: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True)
class State:
    pixels: np.ndarray
    forest: Any
    ui_elements: list[Any]
    auxiliaries: dict[str, Any] | None = None


@dataclasses.dataclass
class AgentInteractionResult:
    done: bool
    data: dict[str, Any]


class EnvironmentInteractingAgent:
    def __init__(self, env: Any, name: str = "", transition_pause: float | None = 1.0):
        self._env, self._name, self._transition_pause = env, name, transition_pause

    @property
    def env(self) -> Any:
        return self._env

    def reset(self, go_home: bool = False) -> None:
        self.env.reset(go_home=go_home)

    def get_post_transition_state(self) -> Any:
        return self.env.get_state(wait_to_stabilize=self._transition_pause is None)

    def step(self, goal: str) -> AgentInteractionResult:
        raise NotImplementedError


@pytest.fixture(autouse=True)
def android_world(monkeypatch):
    """Install the stand-in as the ``android_world`` package."""
    names = {"android_world": {}, "android_world.env": {}, "android_world.agents": {},
             "android_world.env.json_action": {"JSONAction": JSONAction},
             "android_world.env.representation_utils": {"BoundingBox": BoundingBox,
                                                        "UIElement": AWUIElement},
             "android_world.env.interface": {"State": State},
             "android_world.agents.base_agent": {
                 "EnvironmentInteractingAgent": EnvironmentInteractingAgent,
                 "AgentInteractionResult": AgentInteractionResult}}
    for name, attrs in names.items():
        mod = types.ModuleType(name)
        mod.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, mod)
    for name in names:
        if "." in name:
            parent, child = name.rsplit(".", 1)
            monkeypatch.setattr(sys.modules[parent], child, sys.modules[name], raising=False)


def run_episode(env: PhoneWorldAsyncEnv, agent: Any, goal: str, max_steps: int = 30) -> bool:
    """AndroidWorld's episode loop (``episode_runner.run_episode``): reset, step until done."""
    agent.reset(go_home=False)
    for _ in range(max_steps):
        if agent.step(goal).done:
            return True
    return False


# -- our agent as an AndroidWorld agent -----------------------------------------------------------
class _OracleFromState:
    """A PhoneWorld agent (reset/act) that replays the task's oracle."""

    name = "oracle"

    def __init__(self, env: Any):
        self.env = env

    def reset(self, goal: str) -> None:
        self.plan = self.env.unwrapped.oracle()

    def act(self, observation: dict[str, Any]) -> Action:
        assert observation["a11y"].startswith("<?xml")
        return next(self.plan, Action("status", goal_status="complete"))


@pytest.mark.parametrize("task", ["FilesMoveToSdCard", "ContactsCountFavorites"])
def test_our_agent_runs_a_full_androidworld_episode_and_succeeds(task):
    gym_env = gymnasium.make("PhoneWorld/All-v0")
    env = PhoneWorldAsyncEnv(gym_env)
    goal = env.start(seed=0, options={"task": task})
    agent = as_androidworld_agent(_OracleFromState(gym_env), env, transition_pause=0.0)
    assert isinstance(agent, EnvironmentInteractingAgent)
    assert run_episode(env, agent, goal)
    assert env.done and env.success and env.reward == 1.0


def test_state_has_androidworld_elements_index_for_index():
    env = PhoneWorldAsyncEnv(gymnasium.make("PhoneWorld/All-v0"))
    env.start(seed=1)
    state = env.get_state()
    ours = parse_ui_elements(state.forest)
    assert len(state.ui_elements) == len(ours) > 0
    assert all(isinstance(e, AWUIElement) and e.is_visible for e in state.ui_elements)
    assert [from_androidworld_element(e) for e in state.ui_elements] == ours
    # the XML our agents see on an AndroidWorld screen keeps every index
    back = parse_ui_elements(elements_to_xml(state.ui_elements))
    assert [(e.text, e.content_description, e.bbox_pixels) for e in back] == \
        [(e.text, e.content_description, e.bbox_pixels) for e in ours]
    assert env.logical_screen_size == (1080, 2400) and env.orientation == 0
    assert env.physical_frame_boundary == (0, 0, 1080, 2400)


def test_element_fields_are_androidworlds():
    names = [f.name for f in dataclasses.fields(UIElement)]
    assert names == [f.name for f in dataclasses.fields(AWUIElement)]


# -- AndroidWorld's agents on PhoneWorld ---------------------------------------------------
class T3AStyleAgent(EnvironmentInteractingAgent):
    """Scripted the way T3A acts: reads ``state.ui_elements``, emits index-based JSONActions
    (open the app, type the address into the field found by its hint, give up)."""

    def __init__(self, env: Any, site: str):
        super().__init__(env, "t3a-style", None)
        self.site, self.step_no = site, 0

    def step(self, goal: str) -> AgentInteractionResult:
        state = self.get_post_transition_state()
        self.step_no += 1
        if self.step_no == 1:
            action = JSONAction(action_type="open_app", app_name="Chrome")
        elif self.step_no == 2:
            index = next(i for i, e in enumerate(state.ui_elements)
                         if e.hint_text and "URL" in e.hint_text)
            action = JSONAction(action_type="input_text", text=self.site, index=str(index),
                                clear_text=True)
        else:  # the site has no reservations: T3A would say it cannot be done
            action = JSONAction(action_type="status", goal_status="infeasible")
        self.env.execute_action(action)
        return AgentInteractionResult(action.action_type == "status", {"action": action})


def test_androidworld_style_agent_solves_a_phoneworld_task():
    env = PhoneWorldAsyncEnv(gymnasium.make("PhoneWorld/All-v0"))
    goal = env.start(seed=0, options={"task": "BrowserReserveTable"})
    assert run_episode(env, T3AStyleAgent(env, "oliveandthyme.com"), goal)
    assert env.success and env.reward == 1.0


def test_answer_then_status_reaches_the_verifier_as_the_answer():
    gym_env = gymnasium.make("PhoneWorld/All-v0")
    env = PhoneWorldAsyncEnv(gym_env)
    env.start(seed=0, options={"task": "ContactsCountFavorites"})
    for a in gym_env.unwrapped.oracle():  # it reads the live screen: one action at a time
        if a.action_type == "answer":
            answer = a
            break
        env.execute_action(JSONAction(**a.to_json()))
    env.execute_action(JSONAction(action_type="answer", text=answer.text))
    assert not env.done and env.interaction_cache == answer.text  # as AndroidWorld: stored
    env.execute_action(JSONAction(action_type="status", goal_status="complete"))
    assert env.done and env.success


def test_actuation_rules_follow_androidworld():
    # swipe ignores its target; scroll ignores x/y and index 0; no-ops become unknown
    assert json_action_to_action(JSONAction(action_type="swipe", direction="left", index=3)) \
        == Action("swipe", direction="left")
    assert json_action_to_action(JSONAction(action_type="scroll", direction="down", index=0)) \
        == Action("scroll", direction="down")
    assert json_action_to_action(JSONAction(action_type="scroll", direction="up", index=2)) \
        == Action("scroll", direction="up", index=2)
    assert json_action_to_action(JSONAction(action_type="input_text", text="")) \
        == Action("unknown")
    assert json_action_to_action(JSONAction(action_type="unknown")) == Action("unknown")
    assert json_action_to_action(JSONAction(action_type="click", x=5, y=7)) \
        == Action("click", x=5, y=7)


# -- directions, on a real PhoneWorld screen ------------------------------------------------
def _texts(device: PhoneWorldDevice) -> list[str]:
    return [e.text for e in device.ui_elements() if e.text]


@pytest.fixture
def list_screen():
    """Contacts' long list, at its top."""
    env = gymnasium.make("PhoneWorld/All-v0")
    env.reset(seed=0, options={"task": "ContactsCountFavorites"})
    device = env.unwrapped.device
    assert device.execute(Action("open_app", app_name="Contacts")) == ""
    return device


def test_scroll_down_and_swipe_up_reveal_what_is_below(list_screen):
    d = list_screen
    top = _texts(d)
    assert d.execute(Action("scroll", direction="down")) == ""
    below = _texts(d)
    assert below != top  # content moved up: rows further down came into view
    assert d.execute(Action("scroll", direction="up")) == ""
    assert _texts(d) == top
    # AndroidWorld's swipe up moves the finger up: the content follows, as scroll down
    assert d.execute(Action("swipe", direction="up")) == ""
    assert _texts(d) == below
    assert d.execute(Action("swipe", direction="down")) == ""
    assert _texts(d) == top


def test_horizontal_swipe_moves_the_finger_against_its_name():
    """AndroidWorld's actuation: swipe ``left`` drags from x=0 to the right edge. A row that
    is dismissed by a finger moving left is dismissed by ``swipe right``, not ``swipe left``."""
    from phoneworld_gym.contract import SWIPE_FINGER, swipe_finger

    assert SWIPE_FINGER == {"up": "up", "down": "down", "left": "right", "right": "left"}
    assert all(swipe_finger(swipe_finger(d)) == d for d in SWIPE_FINGER)
