"""An agent over any OpenAI-compatible chat endpoint (OpenAI, vLLM, a local
:mod:`~phoneworld_gym.baselines.serve`).

It sends :func:`~phoneworld_gym.baselines.prompt.build_messages` (with the screenshot as a PNG
data-URL image part when ``screenshots=True``) and parses the reply with
:func:`~phoneworld_gym.baselines.prompt.parse_action`; like
:class:`~phoneworld_gym.baselines.lm_agent.LMAgent`, a reply without a valid action becomes a
``wait`` counted in ``stats["unparsable"]``, and ``last`` keeps the messages and the raw reply.

``format=`` speaks a published agent's own action format instead (one of
:data:`phoneworld_gym.formats.FORMATS`: ``qwen``, ``qwen3vl``, ``uitars``, ``guiowl`` ...): the
system prompt is that format's, the user message carries the goal, the previous actions in
that format and the screenshot, and the reply is read with the format's ``parse`` (its
coordinates mapped from the model's image to device pixels). The default, ``androidworld``,
is the prompt above, unchanged.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from phoneworld_gym import formats
from phoneworld_gym.baselines.prompt import (
    MAX_HISTORY,
    Turn,
    build_messages,
    image_data_url,
    parse_action,
)
from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, Action
from phoneworld_gym.formats.androidworld import AndroidWorldFormat

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
        screenshots: send the screenshot too (for vision models). Default: only for formats
            that point at the screen (every format but ``androidworld``), which need it.
        max_tokens, temperature, seed: generation settings passed to the endpoint
            (``max_tokens`` defaults to 96 for ``androidworld``'s one-line JSON and to 512 for
            the other formats, whose replies think before they act).
        max_history: how many previous actions the prompt shows.
        format: the action format the model speaks (a name of
            :data:`phoneworld_gym.formats.FORMATS`, or a built format).
        chat: any object with ``complete(messages) -> str`` to use instead of an endpoint
            (then ``base_url`` and ``model`` are not needed): a stub in tests, another client.
        screen_size: the device's logical size, which actions address.
    """

    name = "openai"

    def __init__(self, base_url: str | None = None, model: str | None = None,
                 api_key: str | None = None, *, screenshots: bool | None = None,
                 max_tokens: int | None = None, temperature: float = 0.0, seed: int | None = None,
                 max_history: int = MAX_HISTORY, timeout: float = 120.0,
                 format: str | formats.ActionFormat = "androidworld", chat: Any = None,
                 screen_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT)):
        self.format = formats.get(format)
        self.native = isinstance(self.format, AndroidWorldFormat)
        if screenshots is None:
            screenshots = not self.native
        if not screenshots and not self.native:
            raise ValueError(f"format {self.format.name!r} points at the screenshot: it needs "
                             "screenshots=True")
        if chat is None:
            if not base_url or not model:
                raise ValueError("OpenAIAgent needs base_url and model (or a chat object)")
            if max_tokens is None:
                max_tokens = 96 if self.native else 512
            chat = OpenAIChat(base_url, model, api_key, max_tokens=max_tokens,
                              temperature=temperature, seed=seed, timeout=timeout)
        if not callable(getattr(chat, "complete", None)):
            raise ValueError(f"chat must have complete(messages) -> str, got "
                             f"{type(chat).__name__}")
        self.chat = chat
        self.screenshots = screenshots
        self.max_history = max_history
        self.screen_size = screen_size
        self.goal = ""
        self.history: list[Turn] = []
        #: the last step: messages, completion, action, parsed (and the parse error, if any)
        self.last: dict[str, Any] = {}
        self.stats: dict[str, int] = {"steps": 0, "unparsable": 0}

    def reset(self, goal: str) -> None:
        """Start an episode: forget the history."""
        self.goal = goal
        self.history = []
        self.last = {}

    def screen(self, obs: Mapping[str, Any]) -> formats.Screen:
        """The screen an observation's reply is read against (device size, image size and
        elements)."""
        return formats.Screen.from_obs(obs, self.screen_size)

    def messages(self, obs: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The chat messages of this step."""
        if self.native:
            if "a11y" not in obs:
                raise ValueError("OpenAIAgent reads the element list: it needs the a11y "
                                 "observation (obs_mode 'all' or 'a11y')")
            shot = obs.get("screenshot") if self.screenshots else None
            if self.screenshots and shot is None:
                raise ValueError("screenshots=True needs the screenshot observation")
            return build_messages(self.goal or str(obs.get("goal", "")), obs["a11y"],
                                  self.history, screenshot=shot, max_history=self.max_history)
        return self.format_messages(obs)

    def format_messages(self, obs: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Messages in the model's own format: its system prompt, then the goal, the previous
        actions as that format writes them (with the errors they met) and the screenshot."""
        shot = obs.get("screenshot")
        if shot is None:
            raise ValueError(f"format {self.format.name!r} needs the screenshot observation "
                             "(obs_mode 'all' or 'pixels')")
        screen = self.screen(obs)
        turns = self.history[-self.max_history:] if self.max_history > 0 else []
        first = len(self.history) - len(turns) + 1
        lines = []
        for i, t in enumerate(turns, first):
            said = "(a reply with no valid action)"
            if t.action is not None:
                try:
                    said = self.format.format(t.action, screen)
                except ValueError:
                    said = t.action.to_json_str()
            lines.append(f"Step {i}: {said}" + (f" -> error: {t.error}" if t.error else ""))
        text = (f"Task: {self.goal or obs.get('goal', '')}\n\n"
                f"Your previous actions:\n{chr(10).join(lines) or '(none)'}\n\n"
                "The screenshot shows the phone now. Give the next action.")
        content = [{"type": "image_url", "image_url": {"url": image_data_url(shot)}},
                   {"type": "text", "text": text}]
        return [{"role": "system", "content": self.format.system_prompt(screen)},
                {"role": "user", "content": content}]

    def act(self, obs: Mapping[str, Any]) -> Action:
        """Ask the endpoint, parse, remember; an unparsable reply is a ``wait``."""
        messages = self.messages(obs)
        reply = self.chat.complete(messages)
        error = ""
        if self.native:
            action = parse_action(reply)
        else:
            try:
                action = self.format.parse(reply, self.screen(obs))
            except ValueError as e:
                action, error = None, str(e)
        self.stats["steps"] += 1
        self.stats["unparsable"] += action is None
        self.last = {"messages": messages, "completion": reply,
                     "action": action or NO_OP, "parsed": action is not None}
        if error:
            self.last["parse_error"] = error
        self.history.append(Turn(action, "", reply))
        return action or NO_OP

    def observe(self, info: Mapping[str, Any]) -> None:
        """Tell the agent the env's ``info`` after its action: the ``action_error`` shows in
        the next prompt's history."""
        error = str(info.get("action_error") or "")
        if self.history and error:
            self.history[-1] = dataclasses.replace(self.history[-1], error=error)
