"""The main job (`make demo`): oracle and random agents over every task (Shopping, Contacts,
Settings, Clock, Messages, Calendar and cross-app), a success table, then a trained baseline
beside them, and a picture of one oracle episode.

The trained baseline is behaviour cloning (:mod:`phoneworld_gym.baselines.bc`): sb3-contrib's
MaskablePPO policy over :class:`~phoneworld_gym.baselines.sb3.ElementActions` fitted to oracle
episodes of a few short train-split look-ups (demo seeds from ``bc.DEMO_SEED0``, train
wordings), optionally followed by ``--ppo-steps`` of MaskablePPO. Oracle, random and the
trained agent are then compared on held-out seeds (from ``bc.EVAL_SEED0``) in three sets,
reported apart: the trained tasks with their train wordings, the same tasks with their
test-split wordings (phrasing never trained on), and the test-split tasks of the same apps
(tasks never trained on). Every table is also written to ``<out>/results.md``.

    python examples/demo.py --episodes 3 --out out
    python examples/demo.py --no-train            # oracle and random only
"""

from __future__ import annotations

import argparse
import itertools
import resource
import time
from collections.abc import Sequence
from pathlib import Path

import gymnasium as gym
import numpy as np

import phoneworld_gym
from phoneworld_gym.baselines.agents import OracleAgent, RandomAgent
from phoneworld_gym.baselines.evaluate import EpisodeResult, evaluate, run_episode, success_table
from phoneworld_gym.task import all_tasks, get_task
from phoneworld_gym.viz import filmstrip

#: the trained baseline's family: short look-ups of the train split (2-4 oracle steps: open
#: the app, maybe open a row or search, answer), one per app
BC_TASKS = ("ClockEarliestAlarm", "MessagesLastFrom", "ContactsLookupPhone")


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


def held_out_sets(tasks: Sequence[str]) -> list[tuple[str, str, list[str]]]:
    """(title, split, task ids) of the evaluation sets for a family trained on ``tasks``'
    train wordings: the same tasks and wordings, the same tasks' test wordings, and the
    test-split tasks played in the family's apps alone (empty sets are left out)."""
    apps = {a for t in tasks for a in get_task(t).apps}
    test_wordings = [t for t in tasks if get_task(t).templates("test")]
    test_tasks = sorted(tid for tid, cls in all_tasks().items()
                        if cls.split == "test" and set(cls.apps) <= apps)
    sets = [("trained tasks, train wordings", "train", list(tasks)),
            ("trained tasks, test wordings (phrasing not trained on)", "test", test_wordings),
            (f"test tasks of the same apps ({', '.join(sorted(apps))}; tasks not trained on)",
             "test", test_tasks)]
    return [s for s in sets if s[2]]


def cpu_seconds() -> float:
    """User + system CPU time of this process so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def trained_baseline(args: argparse.Namespace) -> str:
    """Train the baseline on :data:`BC_TASKS`, evaluate it beside oracle and random on the
    held-out sets, print the tables and return them as Markdown."""
    import torch

    from phoneworld_gym.baselines.bc import (
        DEMO_SEED0,
        EVAL_SEED0,
        ElementAgent,
        space_config,
        train_bc,
    )

    torch.set_num_threads(args.threads)
    wall0, cpu0 = time.perf_counter(), cpu_seconds()
    model, space, report = train_bc(BC_TASKS, episodes=args.bc_episodes, epochs=args.bc_epochs,
                                    seed=args.seed)
    if args.ppo_steps > 0:
        model.learn(args.ppo_steps)
    train_wall, train_cpu = time.perf_counter() - wall0, cpu_seconds() - cpu0
    method = (f"behaviour cloning ({report['episodes']} oracle episodes, {report['samples']} "
              f"steps, {args.bc_epochs} epochs, loss {report['loss_first']} -> "
              f"{report['loss_last']})"
              + (f", then {model.num_timesteps} MaskablePPO steps" if args.ppo_steps > 0 else ""))
    name = "bc+ppo" if args.ppo_steps > 0 else "bc"
    print(f"\ntrained baseline {name!r} on {', '.join(BC_TASKS)}: {method}; "
          f"{train_wall:.0f} s wall, {train_cpu:.0f} s CPU")
    config = space_config(space)
    seeds = list(range(EVAL_SEED0, EVAL_SEED0 + args.eval_episodes))
    counter = itertools.count(10_000)
    parts = [f"## Trained baseline\n\n`{name}`: {method}, on {', '.join(BC_TASKS)} "
             f"(train wordings, demo seeds from {DEMO_SEED0:,}; {train_wall:.0f} s wall, "
             f"{train_cpu:.0f} s CPU). Evaluated greedily beside oracle and random on "
             f"{len(seeds)} held-out seeds per task ({seeds[0]:,} ..). The tasks' parameter "
             "pools are small, so a held-out episode can share a name with a demo; the test "
             "wordings and test tasks are what was never trained on."]
    for title, split, tasks in held_out_sets(BC_TASKS):
        t = time.perf_counter()
        env = gym.make("PhoneWorld/All-v0", obs_mode="a11y", split=split)
        results: list[EpisodeResult] = evaluate(env, OracleAgent, tasks, seeds)
        results += evaluate(env, lambda e: RandomAgent(seed=next(counter)), tasks, seeds)
        results += evaluate(env, lambda e: ElementAgent(model, e, config, name=name), tasks,
                            seeds)
        table = success_table(results)
        print(f"\n{title} (split {split!r}, {time.perf_counter() - t:.0f} s)\n{table}")
        parts.append(f"### {title}\n\n{table}")
    return "\n\n".join(parts) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--episodes", type=int, default=3, help="seeds per task and agent")
    p.add_argument("--out", default="out", help="folder for the table and the picture")
    p.add_argument("--no-train", action="store_true", help="skip the trained baseline")
    p.add_argument("--bc-episodes", type=int, default=100,
                   help="oracle demo episodes per task for behaviour cloning")
    p.add_argument("--bc-epochs", type=int, default=30, help="passes over the demos")
    p.add_argument("--ppo-steps", type=int, default=0,
                   help="MaskablePPO steps (one env) after behaviour cloning (0: none)")
    p.add_argument("--eval-episodes", type=int, default=20,
                   help="held-out seeds per task for the trained baseline's comparison")
    p.add_argument("--seed", type=int, default=0, help="model and shuffling seed")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    args = p.parse_args()
    for name in ("episodes", "bc_episodes", "bc_epochs", "eval_episodes", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be positive")
    if args.ppo_steps < 0:
        p.error("--ppo-steps must be >= 0")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    start = time.perf_counter()
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
    markdown = f"{table}\n\n{by_cat}\n"
    (out / "results.md").write_text(markdown)
    if not args.no_train:
        markdown += "\n" + trained_baseline(args)
        (out / "results.md").write_text(markdown)

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
    print(f"demo done in {time.perf_counter() - start:.0f} s wall, {cpu_seconds():.0f} s CPU")


if __name__ == "__main__":
    main()
