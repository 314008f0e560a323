"""The main job (`make demo`): oracle and random agents over every task (Shopping, Contacts,
Settings, Clock, Messages, Calendar and cross-app), a success table, and a picture of one
oracle episode.

    python examples/demo.py --episodes 3 --out out
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import phoneworld_gym
from phoneworld_gym.baselines.agents import OracleAgent, RandomAgent
from phoneworld_gym.baselines.evaluate import evaluate, run_episode, success_table
from phoneworld_gym.viz import filmstrip


def record_episode(env: gym.Env, task: str, seed: int) -> tuple[list[np.ndarray], list[str]]:
    """An oracle episode with the action taken from each frame."""
    obs, info = env.reset(seed=seed, options={"task": task})
    frames, labels = [obs["screenshot"]], ["start: " + obs["goal"]]
    agent = OracleAgent(env)
    agent.reset(obs["goal"])
    while True:
        action = agent.act(obs)
        obs, reward, term, trunc, info = env.step(action)
        desc = {k: v for k, v in action.to_json().items() if k != "action_type"}
        labels.append(f"{info['steps']}. {action.action_type} {desc}"[:120])
        frames.append(obs["screenshot"])
        if term or trunc:
            labels[-1] += f"  -> reward {reward:.0f}"
            return frames, labels


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--episodes", type=int, default=3, help="seeds per task and agent")
    p.add_argument("--out", default="out", help="folder for the table and the picture")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    tasks = [t.id for t in phoneworld_gym.list_tasks()]
    env = gym.make("PhoneWorld/All-v0", obs_mode="a11y")
    seeds = list(range(args.episodes))
    t0 = time.perf_counter()
    results = evaluate(env, OracleAgent, tasks, seeds)
    counter = itertools.count()
    results += evaluate(env, lambda e: RandomAgent(seed=next(counter)), tasks, seeds)
    elapsed = time.perf_counter() - t0
    steps = sum(r.steps for r in results)
    table = success_table(results)
    by_cat = success_table(results, by="category")
    print(table)
    print()
    print(by_cat)
    print(f"\n{len(results)} episodes, {steps} steps in {elapsed:.1f} s "
          f"({steps / elapsed:.0f} steps/s without screenshots)")
    (out / "results.md").write_text(f"{table}\n\n{by_cat}\n")

    shop = [t for t in tasks if t.startswith("Shopping")] or tasks
    pick = next((t for t in shop if "Cart" in t), shop[0])
    pic_env = gym.make("PhoneWorld/All-v0", screenshot_size=(270, 600))
    frames, labels = record_episode(pic_env, pick, seed=0)
    filmstrip(frames, labels).save(out / "episode.png")
    print(f"wrote {out / 'results.md'} and {out / 'episode.png'} ({pick}, {len(frames)} frames)")
    # one random-agent episode, to show what a floor looks like
    res = run_episode(pic_env, RandomAgent(seed=1), pick, seed=0)
    print(f"random agent on {pick}: reward {res.reward}, {res.steps} steps, "
          f"{res.errors} meaningless actions")


if __name__ == "__main__":
    main()
