"""A PhoneWorld agent as an AndroidWorld ``EnvironmentInteractingAgent``
(``android_world/agents/base_agent.py``): ``step(goal)`` reads the ``AsyncEnv``'s state,
shows the agent a PhoneWorld observation (screenshot, the UI elements written as
``uiautomator`` XML index for index, goal), and executes its action as a ``JSONAction``."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.androidworld.elements import elements_to_xml
from phoneworld_gym.contract import Action


def observation_from_state(state: Any, goal: str) -> dict[str, Any]:
    """The PhoneWorld observation for an AndroidWorld ``State``: its pixels, its
    ``ui_elements`` as XML (index ``i`` is element ``i``) and ``goal``."""
    return {"screenshot": np.asarray(state.pixels, dtype=np.uint8),
            "a11y": elements_to_xml(list(state.ui_elements)), "goal": goal}


def _agent_class() -> type:
    from android_world.agents import base_agent
    from android_world.env import json_action

    class PhoneWorldAgent(base_agent.EnvironmentInteractingAgent):  # type: ignore[misc]
        """A PhoneWorld agent (``reset(goal)``, ``act(observation) -> Action``) acting through
        AndroidWorld's ``AsyncEnv``."""

        def __init__(self, env: Any, agent: Any, name: str = "",
                     transition_pause: float | None = 1.0):
            super().__init__(env, name or getattr(agent, "name", "phoneworld"),
                             transition_pause)
            self.agent = agent
            self._goal: str | None = None

        def reset(self, go_home: bool = False) -> None:
            super().reset(go_home)
            self._goal = None

        def step(self, goal: str) -> Any:
            if goal != self._goal:
                self.agent.reset(goal)
                self._goal = goal
            state = self.get_post_transition_state()
            action: Action = self.agent.act(observation_from_state(state, goal))
            converted = json_action.JSONAction(**action.to_json())
            self.env.execute_action(converted)
            done = action.action_type in ("status", "answer")
            if action.action_type == "answer":  # AndroidWorld ends an episode on status
                self.env.execute_action(json_action.JSONAction(action_type="status",
                                                               goal_status="complete"))
            return base_agent.AgentInteractionResult(done, {
                "before_screenshot": state.pixels, "before_element_list": state.ui_elements,
                "action_output": converted.json_str(), "action": converted})

    return PhoneWorldAgent


def as_androidworld_agent(agent: Any, env: Any, name: str = "",
                          transition_pause: float | None = 1.0) -> Any:
    """Wrap a PhoneWorld agent as an AndroidWorld ``EnvironmentInteractingAgent`` on the
    ``AsyncEnv`` ``env`` (imports ``android_world``). An ``answer`` is executed and followed by
    ``status complete``, since AndroidWorld ends an episode on ``status`` alone."""
    cls = _agent_class()
    return cls(env, agent, name=name, transition_pause=transition_pause)
