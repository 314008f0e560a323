"""Reset and step rates of PhoneWorld, with and without screenshots (`make bench`).

Replays the oracles of every task (real screens, real taps, real typing) and times env.reset
and env.step separately, for each observation mode. When ``android_env`` is installed
(``pip install -e .[real]``), its FakeSimulator (random frames, no apps: the framework's own
overhead) runs side by side at the same screen sizes and the ratio is printed. Numbers depend
on the machine, so compare ratios.

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
    for task in tasks:  # warm-up, untimed: first-use caches (catalogue, fonts, glyph masks)
        env.reset(seed=10_000, options={"task": task})
        for action in env.oracle():
            *_, term, trunc, _info = env.step(action)
            if term or trunc:
                break
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


def peer_android_env(size: tuple[int, int], steps: int = 200) -> tuple[float, float] | None:
    """android_env's FakeSimulator: (resets/s, steps/s) with alternating touch/lift, or None
    when android_env is not installed."""
    try:
        import os
        import tempfile

        import numpy as np
        from android_env import loader
        from android_env.components import config_classes as cc
        from android_env.proto import task_pb2
        from google.protobuf import text_format
    except ImportError:
        return None
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "task.textproto")
    with open(path, "w") as f:
        f.write(text_format.MessageToString(task_pb2.Task(id="fake", name="fake")))
    w, h = size
    env = loader.load(cc.AndroidEnvConfig(task=cc.FilesystemTaskConfig(path=path),
                                          simulator=cc.FakeSimulatorConfig(
                                              screen_dimensions=(h, w))))
    try:
        env.reset()
        t = time.perf_counter()
        for i in range(steps):
            env.step({"action_type": np.array(i % 2, dtype=np.int32),
                      "touch_position": np.array([0.5, 0.5], dtype=np.float32)})
        step_rate = steps / (time.perf_counter() - t)
        t = time.perf_counter()
        for _ in range(20):
            env.reset()
        return 20 / (time.perf_counter() - t), step_rate
    finally:
        env.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seeds", type=int, default=3)
    args = p.parse_args()
    tasks = [t.id for t in phoneworld_gym.list_tasks()]
    print(f"{len(tasks)} tasks x {args.seeds} seeds, oracle actions\n")
    print("| observation | resets/s | steps/s | resets | steps |")
    print("|---|---:|---:|---:|---:|")
    rates = {}
    for name, kw in MODES:
        r, s, nr, ns = measure(kw, tasks, args.seeds)
        rates[name] = s
        print(f"| {name} | {r:.0f} | {s:.0f} | {nr} | {ns} |")
    print("\nPeer: android_env 1.3.0 FakeSimulator (random pixels, no apps, no tree)\n")
    for name, size in (("screenshot 540x1200 + a11y", (540, 1200)),
                       ("screenshot 1080x2400 + a11y", (1080, 2400))):
        peer = peer_android_env(size)
        if peer is None:
            print("android_env is not installed (pip install -e '.[real]'): no peer run")
            break
        pr, ps = peer
        print(f"| {size[0]}x{size[1]} | peer resets/s {pr:.0f} | peer steps/s {ps:.0f} | "
              f"PhoneWorld / peer steps: {rates[name] / ps:.2f} |")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of this process: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
