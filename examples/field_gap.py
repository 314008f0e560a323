"""Measure the gap between the clean phone and the field profile.

Two agents play the phone-ready tasks (those that run on a real phone) over a few seeds, on
the clean PhoneWorld phone and on a :class:`~phoneworld_gym.virtual.field.FieldPhone`
(directly, no adb, for speed):

- ``oracle``: :class:`~phoneworld_gym.baselines.agents.OracleAgent`, which replays the task's
  plan and knows nothing about interstitial prompts;
- ``careful``: the same oracle that first closes any prompt it sees ("Not now", "Got it",
  "Don't allow"), reading the live screen as the oracle does.

- ``replay``: the actions the oracle took on the clean phone in the same episode (task and
  seed), replayed blind: a stand-in for a policy that learned the clean phone by heart and
  does not read the screen the way the oracle does.

An episode whose plan raises (the oracle could not find what it looked for, because a prompt
covered it) counts as a failure. Prints success rates per agent and phone, and the episodes
that met a prompt.

    python examples/field_gap.py                 # every phone-ready task, seeds 0..4
    python examples/field_gap.py --seeds 3 --tasks ContactsStar SettingsVolume
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.baselines.agents import OracleAgent
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.virtual.field import FieldPhone, dismiss_index


class CarefulAgent(OracleAgent):
    """The oracle, but it closes a field prompt before each step of the plan."""

    name = "careful"

    def act(self, observation: dict[str, Any]) -> Action:
        """Close a prompt if the live screen shows one, else the plan's next action."""
        i = dismiss_index(self.env.unwrapped.device.a11y_xml())
        if i is not None:
            return Action("click", index=i)
        return super().act(observation)


class ReplayAgent:
    """Replays a fixed list of actions (then claims completion), whatever the screen shows."""

    name = "replay"

    def __init__(self, actions: Sequence[Action]):
        self.actions = list(actions)
        self._i = 0

    def reset(self, goal: str) -> None:
        """Start from the first action again."""
        self._i = 0

    def act(self, observation: dict[str, Any]) -> Action:
        """The next recorded action."""
        self._i += 1
        if self._i > len(self.actions):
            return Action("status", goal_status="complete")
        return self.actions[self._i - 1]


def play(env: PhoneEnv, agent: Any, task: str, seed: int,
         record: list[Action] | None = None) -> tuple[bool, str]:
    """One episode: (success, why it failed or ""); the actions taken go to ``record``."""
    obs, _ = env.reset(seed=seed, options={"task": task})
    agent.reset(obs["goal"])
    while True:
        try:
            action = agent.act(obs)
        except Exception as e:  # the plan broke on an unexpected screen
            return False, f"{type(e).__name__}: {e}"
        if record is not None:
            record.append(action)
        obs, _, term, trunc, info = env.step(action)
        if term or trunc:
            return bool(info["success"]), str(info["failure"])


def measure(tasks: Sequence[str], seeds: Sequence[int]) -> dict[str, Any]:
    """Success counts per (phone, agent), and the field episodes that met a prompt."""
    phones: dict[str, Callable[[], PhoneWorldDevice]] = {
        "clean": PhoneWorldDevice, "field": FieldPhone}
    recorded: dict[tuple[str, int], list[Action]] = {}
    agents: dict[str, Callable[[PhoneEnv, str, int], Any]] = {
        "oracle": lambda env, task, seed: OracleAgent(env),
        "careful": lambda env, task, seed: CarefulAgent(env),
        "replay": lambda env, task, seed: ReplayAgent(recorded[task, seed]),
    }
    wins: dict[tuple[str, str], int] = defaultdict(int)
    met: dict[str, int] = defaultdict(int)
    prompted = 0
    failures: list[str] = []
    total = 0
    for phone_name, make in phones.items():
        device = make()
        env = PhoneEnv(tasks=list(tasks), device=device, obs_mode="a11y")
        for task in tasks:
            for seed in seeds:
                if phone_name == "clean":
                    total += 1
                for agent_name, make_agent in agents.items():
                    record: list[Action] | None = None
                    if phone_name == "clean" and agent_name == "oracle":
                        record = recorded[task, seed] = []
                    ok, why = play(env, make_agent(env, task, seed), task, seed, record)
                    wins[phone_name, agent_name] += ok
                    shown = list(getattr(device, "shown", []))
                    if agent_name == "oracle" and shown:
                        prompted += 1
                        met["success" if ok else "failure"] += 1
                        if not ok:
                            failures.append(f"{task} seed {seed} ({shown[0][1]} in "
                                            f"{shown[0][0]}): {why[:90]}")
        env.close()
    return {"wins": dict(wins), "total": total, "prompted": prompted, "met": dict(met),
            "failures": failures}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 per task (default 5)")
    p.add_argument("--tasks", nargs="*", help="task ids (default: every phone-ready task)")
    p.add_argument("--show", type=int, default=8, help="failures to list (default 8)")
    a = p.parse_args(argv)
    if a.tasks:
        tasks = list(a.tasks)
    else:
        from phoneworld_gym.real_device.adb_device import phone_tasks

        tasks = phone_tasks()
    seeds = list(range(a.seeds))
    t0 = time.perf_counter()
    r = measure(tasks, seeds)
    n = r["total"]
    print(f"{len(tasks)} phone-ready tasks x {len(seeds)} seeds = {n} episodes per cell "
          f"({time.perf_counter() - t0:.0f} s)\n")
    print("| agent | clean | field | gap |")
    print("|---|---:|---:|---:|")
    for agent in ("oracle", "careful", "replay"):
        c, f = r["wins"].get(("clean", agent), 0), r["wins"].get(("field", agent), 0)
        print(f"| {agent} | {100 * c / n:.1f}% ({c}/{n}) | {100 * f / n:.1f}% ({f}/{n}) | "
              f"{100 * (c - f) / n:+.1f} pt |")
    met = r["met"]
    print(f"\nfield episodes in which a prompt showed (oracle runs): {r['prompted']} of {n}; "
          f"the oracle failed {met.get('failure', 0)} of them and still solved "
          f"{met.get('success', 0)} (its plan backed out of the prompt or never needed the "
          "screen under it)")
    for line in r["failures"][:a.show]:
        print("  -", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
