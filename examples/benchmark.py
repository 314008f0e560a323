"""Reset and step rates of PhoneWorld, with and without screenshots (`make bench`).

Replays the oracles of every task (real screens, real taps, real typing) and times env.reset
and env.step separately, for each observation mode. Prints a table; numbers depend on the
machine, so compare ratios.

    python examples/benchmark.py [--seeds 3]
"""

from __future__ import annotations

import argparse
import resource
import time

import gymnasium as gym

import phoneworld_gym
from phoneworld_gym import Action

MODES = [
    ("a11y only", {"obs_mode": "a11y"}),
    ("screenshot 540x1200 + a11y", {"screenshot_size": (540, 1200)}),
    ("screenshot 1080x2400 + a11y", {}),
]


def measure(kwargs: dict, tasks: list[str], seeds: int) -> tuple[float, float, int, int]:
    env = gym.make("PhoneWorld/All-v0", disable_env_checker=True, **kwargs).unwrapped
    reset_t = step_t = 0.0
    resets = steps = 0
    for task in tasks:
        for seed in range(seeds):
            t = time.perf_counter()
            env.reset(seed=seed, options={"task": task})
            reset_t += time.perf_counter() - t
            resets += 1
            plan = env.oracle()
            while True:
                action = next(plan, Action("status", goal_status="complete"))
                t = time.perf_counter()
                *_, term, trunc, _info = env.step(action)
                step_t += time.perf_counter() - t
                steps += 1
                if term or trunc:
                    break
    return resets / reset_t, steps / step_t, resets, steps


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seeds", type=int, default=3)
    args = p.parse_args()
    tasks = [t.id for t in phoneworld_gym.list_tasks()]
    print(f"{len(tasks)} tasks x {args.seeds} seeds, oracle actions\n")
    print("| observation | resets/s | steps/s | resets | steps |")
    print("|---|---:|---:|---:|---:|")
    for name, kw in MODES:
        r, s, nr, ns = measure(kw, tasks, args.seeds)
        print(f"| {name} | {r:.0f} | {s:.0f} | {nr} | {ns} |")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of this process: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
