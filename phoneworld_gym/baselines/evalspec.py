"""What an evaluation plays (:class:`EvalSpec`) and the agents it can play: the part of
``phoneworld eval`` that its ``--task-list`` protocol (:mod:`phoneworld_gym.baselines.protocol`)
shares with the plain run (:mod:`phoneworld_gym.baselines.evalrun`), so neither imports the
other's module for it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the dataset modules load pyarrow and datasets: only when a run starts
    from phoneworld_gym.baselines.data import EpisodeKey

AGENT_FORMS = ("oracle", "random", "checkpoint:PATH", "openai:MODEL")
DECODINGS = ("free", "constrained", "named", "whole")


def decoding_kwargs(decoding: str) -> dict[str, Any]:
    """The :class:`~phoneworld_gym.baselines.lm_agent.LMAgent` keywords of a decoding of
    :data:`DECODINGS`; ``ValueError`` for another."""
    if decoding not in DECODINGS:
        raise ValueError(f"decoding must be one of {DECODINGS}, got {decoding!r}")
    constrained: bool | str = {"free": False, "constrained": True, "named": True,
                               "whole": "whole"}[decoding]
    return {"constrained": constrained, "named": decoding == "named"}


@dataclasses.dataclass(frozen=True)
class EvalSpec:
    """What an evaluation plays: everything a worker needs to rebuild its env and agent."""

    agent: str
    env_id: str = "PhoneWorld/All-v0"
    tasks: tuple[str, ...] = ()
    seeds: tuple[int, ...] = (0,)
    attempts: int = 1
    split: str | None = None
    max_steps: int | None = None
    screenshots: bool = True
    #: for ``checkpoint:``: the constrained decoder or free text; sampling temperature
    decoding: str = "constrained"
    temperature: float = 0.0
    #: for ``openai:``
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    screenshots_to_model: bool = False
    #: the endpoint model's action format (``phoneworld_gym.formats``: androidworld, qwen,
    #: qwen3vl, uitars, uitars1, guiowl); formats other than androidworld see the screenshot
    action_format: str = "androidworld"
    #: device ids: the phone's adb serial and the adb server's port
    serial: str | None = None
    adb_port: int | None = None
    #: how the selection was made, for the report
    selection: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def agent_name(self) -> str:
        """The name stored in every episode's key: the agent as given, plus the settings that
        change what it does (so a rerun with other settings is not taken for this one)."""
        name = self.agent
        if self.agent.startswith("checkpoint:"):
            name += f"|{self.decoding}"
            if self.action_format != "androidworld":
                name += f"|{self.action_format}"
            if self.temperature:
                name += f"|T{self.temperature:g}"
        if self.agent.startswith("openai:"):
            if self.action_format != "androidworld":
                name += f"|{self.action_format}"
            elif self.screenshots_to_model:
                name += "|screenshots"
        return name

    @property
    def source(self) -> str:
        from phoneworld_gym.registration import DEVICE_ENV_IDS

        return "device" if self.env_id in DEVICE_ENV_IDS else "mock"

    def keys(self) -> list[EpisodeKey]:
        """Every episode of the evaluation, in report order: task, seed, attempt."""
        from phoneworld_gym.baselines.data import EpisodeKey

        return [EpisodeKey(self.source, self.agent_name, self.env_id, task, seed, self.split,
                           self.max_steps, attempt)
                for task in self.tasks for seed in self.seeds
                for attempt in range(self.attempts)]


def check_agent(agent: str) -> None:
    """``ValueError`` for an agent spec that is not one of :data:`AGENT_FORMS` (a checkpoint
    folder must exist)."""
    if agent in ("oracle", "random"):
        return
    kind, _, rest = agent.partition(":")
    if kind == "checkpoint" and rest:
        if not Path(rest).is_dir():
            raise ValueError(f"--agent {agent}: no model folder at {rest!r}")
        return
    if kind == "openai" and rest:
        return
    raise ValueError(f"unknown agent {agent!r}; give one of {', '.join(AGENT_FORMS)}")


def make_agent_factory(spec: EvalSpec) -> Callable[[Any, str, int, int], Any]:
    """``(env, task, seed, attempt) -> Agent`` for the spec's agent. A checkpoint is loaded
    once per process; agents that sample are seeded from the episode and the attempt, so a
    resumed or parallel run draws what an uninterrupted one does."""
    from phoneworld_gym.baselines.collect import NAMED_AGENTS, agent_seed

    agent = spec.agent
    if agent in ("oracle", "random"):
        named = NAMED_AGENTS[agent]

        def by_name(env: Any, task: str, seed: int, attempt: int) -> Any:
            if agent == "random" and attempt:
                from phoneworld_gym.baselines.agents import RandomAgent

                return RandomAgent(seed=agent_seed(f"{task}#{attempt}", seed))
            return named(env, task, seed)
        return by_name
    kind, _, rest = agent.partition(":")
    if kind == "checkpoint":
        from phoneworld_gym.baselines.lm_agent import LMAgent, LocalModel

        lm = LocalModel.load(rest)
        decoding = decoding_kwargs(spec.decoding)

        if spec.action_format != "androidworld":
            # a checkpoint of a published agent speaks its own format: the format's prompt
            # and parser around the local model (a vision model: these formats point at
            # the screenshot)
            from phoneworld_gym.baselines.lm_agent import LocalChat
            from phoneworld_gym.baselines.openai_agent import OpenAIAgent

            def native(env: Any, task: str, seed: int, attempt: int) -> Any:
                chat = LocalChat(lm, max_new_tokens=512, temperature=spec.temperature,
                                 seed=agent_seed(f"{task}#{attempt}", seed))
                return OpenAIAgent(format=spec.action_format, chat=chat, screenshots=True)
            return native

        def checkpoint(env: Any, task: str, seed: int, attempt: int) -> Any:
            return LMAgent(lm, temperature=spec.temperature, **decoding,
                           seed=agent_seed(f"{task}#{attempt}", seed))
        return checkpoint
    if kind == "openai":
        from phoneworld_gym.baselines.openai_agent import OpenAIAgent

        if not spec.base_url:
            raise ValueError("--agent openai:MODEL needs --base-url (e.g. "
                             "http://127.0.0.1:8000/v1)")

        def openai(env: Any, task: str, seed: int, attempt: int) -> Any:
            native = spec.action_format == "androidworld"
            return OpenAIAgent(str(spec.base_url), rest, os.environ.get(spec.api_key_env),
                               screenshots=spec.screenshots_to_model or not native,
                               format=spec.action_format, temperature=spec.temperature,
                               seed=agent_seed(f"{task}#{attempt}", seed))
        return openai
    raise ValueError(f"unknown agent {agent!r}")
