"""Agents share one interface: ``reset(goal)`` then ``act(observation) -> Action``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import numpy as np

from phoneworld_gym.contract import Action, parse_ui_elements


class Agent(Protocol):
    """What every baseline implements."""

    name: str

    def reset(self, goal: str) -> None:
        """Start a new episode with this instruction."""
        ...

    def act(self, observation: dict[str, Any]) -> Action:
        """The next action for the current observation."""
        ...


class RandomAgent:
    """Taps, types and scrolls at random among what is on screen, and gives up (declares
    completion) with a small probability each step. Needs the ``a11y`` observation."""

    name = "random"

    def __init__(self, seed: int = 0, stop_prob: float = 0.05,
                 app_names: tuple[str, ...] = ("Shopping", "Contacts")):
        self.rng = np.random.default_rng(seed)
        self.stop_prob = stop_prob
        self.app_names = app_names
        self.words = ("hello", "test", "blue", "42", "Maple Street")

    def reset(self, goal: str) -> None:
        # borrow words from the goal: a random agent that types plausible text is a fairer floor
        self.words = tuple(w.strip(".,?") for w in goal.split() if len(w) > 2) or self.words

    def act(self, observation: dict[str, Any]) -> Action:
        r = self.rng.random()
        if r < self.stop_prob:
            return Action("status", goal_status="complete")
        elements = parse_ui_elements(observation["a11y"])
        clickable = [i for i, e in enumerate(elements) if e.is_clickable or e.is_editable]
        editable = [i for i, e in enumerate(elements) if e.is_editable]
        r = self.rng.random()
        if r < 0.55 and clickable:
            return Action("click", index=int(self.rng.choice(clickable)))
        if r < 0.7 and editable:
            text = str(self.rng.choice(self.words))
            return Action("input_text", index=int(self.rng.choice(editable)), text=text,
                          clear_text=bool(self.rng.random() < 0.5))
        if r < 0.85:
            return Action("scroll", direction=str(self.rng.choice(["up", "down"])))
        if r < 0.93:
            return Action("navigate_back")
        return Action("open_app", app_name=str(self.rng.choice(self.app_names)))


class OracleAgent:
    """Replays the task's oracle: the upper bound, and the source of SFT demonstrations.
    It reads the live device through the env, so it needs the env, not only observations."""

    name = "oracle"

    def __init__(self, env: Any):
        self.env = env
        self._plan: Iterator[Action] | None = None

    def reset(self, goal: str) -> None:
        self._plan = self.env.unwrapped.oracle()

    def act(self, observation: dict[str, Any]) -> Action:
        assert self._plan is not None, "call reset() first"
        return next(self._plan, Action("status", goal_status="complete"))
