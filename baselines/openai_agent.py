"""An agent over any OpenAI-compatible chat endpoint (OpenAI, vLLM, a local
:mod:`~phoneworld_gym.baselines.serve`).

It sends :func:`~phoneworld_gym.baselines.prompt.build_messages` (with the screenshot as a PNG
data-URL image part when ``screenshots=True``) and parses the reply with
:func:`~phoneworld_gym.baselines.prompt.parse_action`; like
:class:`~phoneworld_gym.baselines.lm_agent.LMAgent`, a reply without a valid action becomes a
``wait`` counted in ``stats["unparsable"]``, and ``last`` keeps the messages and the raw reply.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from phoneworld_gym.baselines.prompt import MAX_HISTORY, Turn, build_messages, parse_action
from phoneworld_gym.contract import Action

#: What an unparsable reply becomes: a step that changes nothing.
NO_OP = Action("wait")


class OpenAIChat:
    """A chat backend over the ``openai`` client: ``complete(messages) -> reply text``.

    ``api_key`` defaults to ``$OPENAI_API_KEY``, or a placeholder for local servers that
    check none. ``seed`` is passed on (servers that honour it sample reproducibly).
    """

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 max_tokens: int = 96, temperature: float = 0.0, seed: int | None = None,
                 timeout: float = 120.0, max_retries: int = 2):
        import openai

        if not isinstance(model, str) or not model:
            raise ValueError(f"model must be a non-empty str, got {model!r}")
        self.client = openai.OpenAI(base_url=base_url,
                                    api_key=api_key or os.environ.get("OPENAI_API_KEY")
                                    or "not-needed", timeout=timeout, max_retries=max_retries)
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed
        #: the last response object (usage, finish_reason, ...)
        self.last_response: Any = None

    def complete(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """The endpoint's reply to ``messages`` ("" when it sent no text)."""
        kw: dict[str, Any] = {"model": self.model, "messages": list(messages),
                              "max_tokens": self.max_tokens, "temperature": self.temperature}
        if self.seed is not None:
            kw["seed"] = self.seed
        self.last_response = self.client.chat.completions.create(**kw)
        return self.last_response.choices[0].message.content or ""


class OpenAIAgent:
    """A phone agent over an OpenAI-compatible endpoint.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8000/v1``.
        model: the model id the endpoint serves.
        api_key: defaults to ``$OPENAI_API_KEY`` (a placeholder if unset).
        screenshots: send the screenshot too (for vision models).
        max_tokens, temperature, seed: generation settings passed to the endpoint.
        max_history: how many previous actions the prompt shows.
    """

    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 screenshots: bool = False, max_tokens: int = 96, temperature: float = 0.0,
                 seed: int | None = None, max_history: int = MAX_HISTORY,
                 timeout: float = 120.0):
        self.chat = OpenAIChat(base_url, model, api_key, max_tokens=max_tokens,
                               temperature=temperature, seed=seed, timeout=timeout)
        self.screenshots = screenshots
        self.max_history = max_history
        self.goal = ""
        self.history: list[Turn] = []
        #: the last step: messages, completion, action, parsed
        self.last: dict[str, Any] = {}
        self.stats: dict[str, int] = {"steps": 0, "unparsable": 0}

    def reset(self, goal: str) -> None:
        """Start an episode: forget the history."""
        self.goal = goal
        self.history = []
        self.last = {}

    def messages(self, obs: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The chat messages of this step."""
        if "a11y" not in obs:
            raise ValueError("OpenAIAgent reads the element list: it needs the a11y "
                             "observation (obs_mode 'all' or 'a11y')")
        shot = obs.get("screenshot") if self.screenshots else None
        if self.screenshots and shot is None:
            raise ValueError("screenshots=True needs the screenshot observation")
        return build_messages(self.goal or str(obs.get("goal", "")), obs["a11y"],
                              self.history, screenshot=shot, max_history=self.max_history)

    def act(self, obs: Mapping[str, Any]) -> Action:
        """Ask the endpoint, parse, remember; an unparsable reply is a ``wait``."""
        messages = self.messages(obs)
        reply = self.chat.complete(messages)
        action = parse_action(reply)
        self.stats["steps"] += 1
        self.stats["unparsable"] += action is None
        self.last = {"messages": messages, "completion": reply,
                     "action": action or NO_OP, "parsed": action is not None}
        self.history.append(Turn(action, "", reply))
        return action or NO_OP

    def observe(self, info: Mapping[str, Any]) -> None:
        """Tell the agent the env's ``info`` after its action: the ``action_error`` shows in
        the next prompt's history."""
        error = str(info.get("action_error") or "")
        if self.history and error:
            self.history[-1] = dataclasses.replace(self.history[-1], error=error)
