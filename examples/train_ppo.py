"""Train sb3-contrib's MaskablePPO on a short PhoneWorld task family and plot its learning curve.

The env is plain Gymnasium: ``PhoneEnv`` (tree only, no screenshot) behind
:class:`~phoneworld_gym.baselines.sb3.ElementActions`, which gives SB3 a ``Discrete`` action
space over the screen's elements, ``Box`` observations and ``action_masks()``. Success is
measured on held-out episode seeds (never used for training), every ``--eval-every`` steps,
with the greedy (deterministic, masked) policy; the curve goes to ``--plot``.

``--bc-episodes N`` first fits the policy (and value) to N oracle episodes per task played
through the same ``Discrete`` space (behaviour cloning with
:mod:`phoneworld_gym.baselines.bc`, demo seeds from ``bc.DEMO_SEED0``, apart from the
evaluation ones from ``bc.EVAL_SEED0``), then runs PPO from there; the curve then has two
points at step 0, before and after it.
Without it the run is pure RL from a random policy::

    python examples/train_ppo.py                       # the default family, 30k steps, pure RL
    python examples/train_ppo.py --bc-episodes 40 --steps 8192
    python examples/train_ppo.py --tasks MessagesLastFrom --steps 8000 --plot /tmp/c.png
"""

from __future__ import annotations

import argparse
import json
import resource
import textwrap
import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

import phoneworld_gym  # noqa: F401 (registers the PhoneWorld ids)
from phoneworld_gym.baselines.bc import EVAL_SEED0, behaviour_clone, collect_demos, make_model
from phoneworld_gym.baselines.sb3 import ElementActions

#: short look-ups (2-3 oracle steps: open the app, maybe open a row, answer), one per app
DEFAULT_TASKS = ("ClockEarliestAlarm", "MessagesLastFrom", "ShoppingCartCount")


def make_env(tasks: Sequence[str], **wrapper_kw: Any) -> ElementActions:
    """The wrapped env over ``tasks`` (tree observation only: nothing is drawn)."""
    return ElementActions(gym.make("PhoneWorld/All-v0", tasks=list(tasks), obs_mode="a11y"),
                          **wrapper_kw)


def evaluate(model: Any, env: ElementActions, tasks: Sequence[str], episodes: int,
             seed0: int = EVAL_SEED0) -> dict[str, float]:
    """Greedy masked success rate per task over ``episodes`` held-out seeds each (seeds
    ``seed0 + k``, the same for every call, so points on the curve compare)."""
    out: dict[str, float] = {}
    for tid in tasks:
        wins = 0
        for k in range(episodes):
            obs, _ = env.reset(seed=seed0 + k, options={"task": tid})
            done = False
            info: dict[str, Any] = {}
            while not done:
                action, _ = model.predict(obs, deterministic=True,
                                          action_masks=env.action_masks())
                obs, _, term, trunc, info = env.step(int(action))
                done = term or trunc
            wins += bool(info.get("success"))
        out[tid] = wins / episodes
    out["all"] = float(np.mean([out[t] for t in tasks]))
    return out


def plot(curve: list[dict[str, Any]], tasks: Sequence[str], path: str, title: str) -> None:
    """Success rate (held-out seeds) against training steps, per task and overall."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [p["steps"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for tid in tasks:
        ax.plot(steps, [p["success"][tid] for p in curve], lw=1, alpha=0.6, label=tid)
    ax.plot(steps, [p["success"]["all"] for p in curve], lw=2.5, color="black", label="all")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("success rate (held-out seeds)")
    ax.set_ylim(-0.03, 1.03)
    ax.grid(alpha=0.3)
    ax.set_title(textwrap.fill(title, 80), fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", default=",".join(DEFAULT_TASKS),
                   help="comma-separated task ids (default: %(default)s)")
    p.add_argument("--steps", type=int, default=30_000, help="training env steps")
    p.add_argument("--seed", type=int, default=0, help="training and model seed")
    p.add_argument("--n-envs", type=int, default=4, help="parallel envs")
    p.add_argument("--subproc", action=argparse.BooleanOptionalAction, default=False,
                   help="step the envs in worker processes (SubprocVecEnv) or in this one")
    p.add_argument("--eval-every", type=int, default=5_000, help="steps between evaluations")
    p.add_argument("--eval-episodes", type=int, default=25,
                   help="held-out episodes per task at each evaluation")
    p.add_argument("--plot", default="docs/ppo_curve.png", help="where the curve goes")
    p.add_argument("--save", default="", help="save the trained model here (a .zip)")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--bc-episodes", type=int, default=0,
                   help="oracle episodes per task to pretrain on before PPO (0: pure RL)")
    p.add_argument("--bc-epochs", type=int, default=20, help="passes over the oracle demos")
    args = p.parse_args(argv)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    if args.steps < 1 or args.n_envs < 1 or args.eval_every < 1 or args.eval_episodes < 1:
        p.error("--steps, --n-envs, --eval-every and --eval-episodes must be positive")

    import torch
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(args.threads)
    eval_env = make_env(tasks)
    venv = make_vec_env(make_env, n_envs=args.n_envs, seed=args.seed,
                        env_kwargs={"tasks": tasks},
                        vec_env_cls=SubprocVecEnv if args.subproc else DummyVecEnv)
    model = make_model(eval_env, seed=args.seed, venv=venv)
    curve: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    train_time = [0.0]

    def point(steps: int) -> None:
        t = time.perf_counter()
        success = evaluate(model, eval_env, tasks, args.eval_episodes)
        curve.append({"steps": steps, "success": success})
        print(f"steps {steps:>7}  success {success['all']:.3f}  "
              + "  ".join(f"{k} {v:.2f}" for k, v in success.items() if k != "all")
              + f"  (train {train_time[0]:.0f}s, eval {time.perf_counter() - t:.0f}s)",
              flush=True)

    class Curve(BaseCallback):
        """Evaluates on held-out seeds every ``--eval-every`` steps."""

        def __init__(self) -> None:
            super().__init__()
            self.next = args.eval_every
            self.tick = time.perf_counter()

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                train_time[0] += time.perf_counter() - self.tick
                point(self.num_timesteps)
                self.next += args.eval_every
                self.tick = time.perf_counter()
            return True

    point(0)
    bc: dict[str, Any] = {}
    if args.bc_episodes > 0:
        t = time.perf_counter()
        demos = collect_demos(eval_env, tasks, args.bc_episodes, model.gamma)
        bc = {"episodes_per_task": args.bc_episodes, "samples": len(demos),
              "loss": round(behaviour_clone(model, demos, args.bc_epochs)[-1], 4)}
        train_time[0] += time.perf_counter() - t
        print(f"behaviour cloning on {bc['samples']} oracle steps: loss {bc['loss']}")
        point(0)
        curve[-1]["after_bc"] = True
    callback = Curve()
    model.learn(args.steps, callback=callback)
    train_time[0] += time.perf_counter() - callback.tick
    if not curve or curve[-1]["steps"] != model.num_timesteps:
        point(model.num_timesteps)
    wall = time.perf_counter() - t0
    venv.close()  # the workers' CPU time counts once they are joined
    cpu = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF,
              resource.RUSAGE_CHILDREN) for f in ("ru_utime", "ru_stime"))
    result = {"tasks": tasks, "steps": int(model.num_timesteps), "seed": args.seed,
              "before": curve[0]["success"], "after": curve[-1]["success"],
              "train_seconds": round(train_time[0], 1), "wall_seconds": round(wall, 1),
              "cpu_seconds": round(cpu, 1),
              "eval_episodes_per_task": args.eval_episodes, "behaviour_cloning": bc,
              "after_bc": curve[1]["success"] if bc else None,
              "curve": [(p["steps"], round(p["success"]["all"], 3)) for p in curve]}
    title = (f"{'BC on oracle demos, then ' if bc else ''}MaskablePPO on {len(tasks)} "
             f"PhoneWorld tasks, seed {args.seed}: {result['before']['all']:.0%} -> "
             + (f"{result['after_bc']['all']:.0%} (BC) -> " if bc else "")
             + f"{result['after']['all']:.0%}")
    plot(curve, tasks, args.plot, title)
    if args.save:
        model.save(args.save)
    print(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
