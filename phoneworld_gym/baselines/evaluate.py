"""Run agents over tasks and report success per task and per category."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from phoneworld_gym.baselines.agents import Agent


@dataclasses.dataclass
class EpisodeResult:
    agent: str
    task: str
    category: str
    seed: int
    reward: float
    success: bool
    steps: int
    errors: int
    frames: list[np.ndarray] = dataclasses.field(default_factory=list, repr=False)


def run_episode(env: gym.Env, agent: Agent, task: str, seed: int, *,
                keep_frames: bool = False) -> EpisodeResult:
    """One episode of ``agent`` on ``task`` from ``seed``."""
    obs, info = env.reset(seed=seed, options={"task": task})
    agent.reset(obs["goal"])
    frames = [obs["screenshot"]] if keep_frames and "screenshot" in obs else []
    reward, errors = 0.0, 0
    while True:
        obs, reward, term, trunc, info = env.step(agent.act(obs))
        observe = getattr(agent, "observe", None)
        if observe is not None:  # an LM agent puts the env's action error in its history
            observe(info)
        errors += bool(info["action_error"])
        if keep_frames and "screenshot" in obs:
            frames.append(obs["screenshot"])
        if term or trunc:
            break
    return EpisodeResult(agent.name, task, info["category"], seed, float(reward),
                         bool(info["success"]), int(info["steps"]), errors, frames)


def evaluate(env: gym.Env, make_agent: Callable[[gym.Env], Agent], tasks: Sequence[str],
             seeds: Sequence[int]) -> list[EpisodeResult]:
    """Every task x seed with a fresh agent per episode."""
    out = []
    for task in tasks:
        for seed in seeds:
            out.append(run_episode(env, make_agent(env), task, seed))
    return out


def success_table(results: Sequence[EpisodeResult], by: str = "task") -> str:
    """A Markdown table: rows are tasks (or categories), columns are agents' success rates."""
    agents = sorted({r.agent for r in results}, key=lambda a: (a != "oracle", a))
    groups: dict[str, dict[str, list[EpisodeResult]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        groups[getattr(r, by)][r.agent].append(r)
    head = f"| {by} | " + " | ".join(f"{a} success | {a} steps" for a in agents) + " |"
    sep = "|---|" + "---:|---:|" * len(agents)
    lines = [head, sep]

    def cell(rs: list[EpisodeResult]) -> str:
        if not rs:
            return " - | - "
        rate = 100.0 * sum(r.success for r in rs) / len(rs)
        steps = sum(r.steps for r in rs) / len(rs)
        return f" {rate:5.1f}% ({sum(r.success for r in rs)}/{len(rs)}) | {steps:.1f} "

    for key in sorted(groups):
        lines.append(f"| {key} |" + "|".join(cell(groups[key][a]) for a in agents) + "|")
    total: dict[str, list[EpisodeResult]] = defaultdict(list)
    for r in results:
        total[r.agent].append(r)
    lines.append("| **all** |" + "|".join(cell(total[a]) for a in agents) + "|")
    return "\n".join(lines)


def summary(results: Sequence[EpisodeResult]) -> dict[str, Any]:
    """Success rate per agent (for scripts and tests)."""
    out: dict[str, Any] = {}
    for a in {r.agent for r in results}:
        rs = [r for r in results if r.agent == a]
        out[a] = sum(r.success for r in rs) / len(rs)
    return out
