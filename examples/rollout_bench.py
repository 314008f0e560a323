"""Decoding speed of the RL stage's rollouts, before and after: milliseconds per agent step.

The model is the recipe's CPU shape (a tiny Llama, 2 layers, width 128, built here from a
config; untrained weights: speed does not depend on what the model learned). The screens are
the oracle's on the recipe's six train tasks (seeds 0-1), each with the agent's real prompt
(goal, history, screen) and the screen's candidate actions. Every variant decodes every
screen greedily (the same replies for the two trie variants: they are the same
distribution), in rounds that rotate the variants' order so a busy machine slows each alike;
a figure is the median over rounds.

- **before**: token-by-token decoding through the trie of candidates with
  ``model.generate`` (one forward pass per token, every forced JSON token generated), every
  prompt run from its first token;
- **after**: the same decoder appending each run of forced tokens in one forward pass (one
  pass per branch) and reusing the system message's key/value cache;
- **whole**: every candidate scored as a whole (``constrained="whole"``), for comparison.

Then GRPO-style group rollouts (``--groups`` instances x 8 episodes at temperature 1 on
``--task``, optionally with a trained ``--model``), before and after, where the recent-pass
cache also counts: a group's episodes share their first screen and often more (the seconds
spent in the env's reset and step are printed apart). Then one policy update on the "after"
rollouts' samples, before (every sample its own pass, logits everywhere, old
log-probabilities from a pass of their own) and after each step that made it faster
(identical samples merged, logits at completion tokens only, shared prompt parts run once,
the sampler's log-probabilities as the old ones). ``--rounds`` rounds of each, medians.

Also printed: one env step (the oracle's actions through ``env.step``), so the share of an
agent step spent deciding is visible, and agent steps per second (decoding + env step).

    python examples/rollout_bench.py [--rounds 3] [--json out/rollout_bench.json]
        [--model out/learning_check/sft --task ContactsStar --groups 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import torch

TASKS = ["SettingsSwitch", "ClockDisableAlarm", "MessagesDeleteThread", "ContactsStar",
         "ContactsCountFavorites", "ClockEarliestAlarm"]


def screens(seeds: range) -> tuple[list[tuple[list, list[str]]], float]:
    """(messages, candidate texts) of every oracle step, and seconds per env step."""
    from phoneworld_gym.baselines.lm_agent import launcher_apps
    from phoneworld_gym.baselines.prompt import (
        Turn,
        build_messages,
        candidate_actions,
        format_action,
    )
    from phoneworld_gym.env import PhoneEnv

    env = PhoneEnv(TASKS, split="train", obs_mode="a11y")
    apps = launcher_apps()
    out: list[tuple[list, list[str]]] = []
    step_s: list[float] = []
    try:
        for task in TASKS:
            for seed in seeds:
                obs, _ = env.reset(seed=seed, options={"task": task})
                history: list[Turn] = []
                for action in env.oracle():
                    msgs = build_messages(obs["goal"], obs["a11y"], history)
                    out.append((msgs, [format_action(a) for a in candidate_actions(
                        obs["goal"], obs["a11y"], apps=apps)]))
                    t0 = time.perf_counter()
                    obs, _, term, trunc, info = env.step(action)
                    step_s.append(time.perf_counter() - t0)
                    history.append(Turn(action, str(info["action_error"] or "")))
                    if term or trunc:
                        break
    finally:
        env.close()
    return out, statistics.median(step_s)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", default="")
    ap.add_argument("--model", default="", help="a checkpoint for the group rollouts "
                    "(default: the untrained tiny model)")
    ap.add_argument("--task", default="ContactsStar", help="a task, or several separated by "
                    "commas: the groups take them in turn (the recipe's six: its RL mix)")
    ap.add_argument("--groups", type=int, default=3)
    ap.add_argument("--max-steps", type=int, default=6, help="each episode's step cap (the "
                    "learning check's 6; the recipe's 10)")
    args = ap.parse_args()
    from phoneworld_gym.baselines.lm_agent import LocalModel
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    torch.set_num_threads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        path = build_tiny(Path(tmp) / "m", list(oracle_corpus(TASKS, seeds=[0])), layers=2,
                          hidden=128, vocab=2000, init_std=0.1)
        lm = LocalModel.load(path)
    data, env_step = screens(range(args.seeds))
    variants = ["before", "after", "whole"]

    def run(name: str) -> tuple[float, list[str]]:
        lm.fast_trie = lm.prefix_cache = name != "before"
        lm.prompt_cache = 0  # distinct screens: the group-level cache is measured below
        if name == "after":
            lm.__dict__.pop("_head", None)  # the prefix cache is built inside the clock
        replies = []
        t0 = time.perf_counter()
        for msgs, allowed in data:
            if name == "whole":
                replies.append(lm.choose(msgs, allowed).text)
            else:
                replies.append(lm.generate(msgs, allowed=allowed, max_new_tokens=40).text)
        return (time.perf_counter() - t0) / len(data), replies

    times: dict[str, list[float]] = {v: [] for v in variants}
    replies: dict[str, list[str]] = {}
    for r in range(args.rounds):
        order = variants[r % 3:] + variants[:r % 3]
        for name in order:
            sec, replies[name] = run(name)
            times[name].append(sec)
            print(f"round {r + 1} {name}: {1000 * sec:.1f} ms per step", flush=True)
    med = {v: statistics.median(times[v]) for v in variants}
    same = replies["before"] == replies["after"]
    print(f"\n{len(data)} screens ({statistics.mean(len(a) for _, a in data):.0f} candidates "
          f"each on average), env step {1000 * env_step:.1f} ms (median)")
    print(f"{'decoder':8} {'ms/step':>8} {'agent steps/s':>14} {'vs before':>10}")
    for v in variants:
        print(f"{v:8} {1000 * med[v]:>8.1f} {1 / (med[v] + env_step):>14.2f} "
              f"{med['before'] / med[v]:>9.2f}x")
    print(f"before and after wrote the same replies: {same}")
    groups = group_rollouts(LocalModel.load(args.model) if args.model else lm, args)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({
            "screens": len(data), "env_step_s": env_step, "median_s": med, "rounds": times,
            "same_replies": same, "groups": groups, "args": vars(args)}, indent=1))


MEMOS = ("_memo", "_head", "_encoded", "_tries", "_candidate_ids")


class Timed:
    """An env whose ``reset`` and ``step`` add their seconds to ``seconds`` (the share of a
    rollout the agent cannot speed up)."""

    def __init__(self, env) -> None:
        self.env = env
        self.seconds = 0.0

    def _timed(self, fn, *a, **kw):
        t0 = time.perf_counter()
        try:
            return fn(*a, **kw)
        finally:
            self.seconds += time.perf_counter() - t0

    def reset(self, *a, **kw):
        return self._timed(self.env.reset, *a, **kw)

    def step(self, *a, **kw):
        return self._timed(self.env.step, *a, **kw)

    def close(self) -> None:
        self.env.close()


def group_rollouts(lm, args) -> dict[str, dict[str, float]]:
    """GRPO-style rollouts: ``--groups`` instances of ``--task`` x 8 episodes at temperature
    1, before (generate, no caches) and after (forced runs, the system message's cache, the
    recent-pass cache a group's episodes share wherever they meet one screen or branch, and
    each screen's candidates and trie kept); env-steps per second of whole episodes, env
    steps included. ``--rounds`` rounds in alternating order, every cache emptied before
    each; the median round counts."""
    from phoneworld_gym.baselines.grpo import play
    from phoneworld_gym.baselines.lm_agent import LMAgent
    from phoneworld_gym.env import PhoneEnv

    tasks = [t.strip() for t in args.task.split(",") if t.strip()]
    env = Timed(PhoneEnv(tasks, split="train", obs_mode="a11y"))
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    played = []
    try:
        for r in range(args.rounds):
            for name in (("before", "after") if r % 2 == 0 else ("after", "before")):
                lm.fast_trie = lm.prefix_cache = name == "after"
                lm.prompt_cache = type(lm).prompt_cache if name == "after" else 0
                for memo in MEMOS:
                    lm.__dict__.pop(memo, None)
                agent = LMAgent(lm, temperature=1.0, constrained=True, seed=0,
                                max_new_tokens=40)
                steps, t0 = 0, time.perf_counter()
                env.seconds = 0.0
                groups = []
                for k in range(args.groups):
                    task = tasks[k % len(tasks)]
                    group = [play(env, agent, "mock", task, 1000 + k, args.max_steps)
                             for _ in range(8)]
                    steps += sum(len(ep.steps) for ep in group)
                    groups.append(group)
                sec = time.perf_counter() - t0
                runs[name].append({"env_steps": steps, "seconds": round(sec, 2),
                                   "steps_per_s": round(steps / sec, 2),
                                   "env_seconds": round(env.seconds, 2)})
                print(f"round {r + 1} rollouts {name}: {steps} env steps in {sec:.2f} s",
                      flush=True)
                if name == "after":
                    played = groups  # the update's samples: the sampler's log-probs recorded
    finally:
        env.close()
    out: dict[str, dict[str, float]] = {
        name: {k: statistics.median(run[k] for run in rs) for k in rs[0]}
        for name, rs in runs.items()}
    out.update(update_speed(lm, played, args.rounds))
    b, a = out["before"], out["after"]
    print(f"\ngroup rollouts ({args.task}, {args.groups} groups x 8 episodes, T=1"
          f"{', model ' + args.model if args.model else ', untrained model'}; median of "
          f"{args.rounds} rounds):")
    for name in ("before", "after"):
        r = out[name]
        print(f"{name:8} {r['env_steps']:>5.0f} env steps in {r['seconds']:>6.2f} s: "
              f"{r['steps_per_s']:>6.2f} steps/s ({r['env_seconds']:.2f} s of it in the "
              f"env's reset and step)")
    print(f"speed-up {a['steps_per_s'] / b['steps_per_s']:.2f}x")
    um, uu = out["update_merged"], out["update_unmerged"]
    ua, uc = out["update_merged_all_logits"], out["update_completion_logits"]
    us = out["update_shared"]
    print(f"policy update on those groups' samples (2 epochs, minibatch 32; median): "
          f"{uu['seconds']:.2f} s unmerged ({uu['passes']:.0f} samples) -> "
          f"{ua['seconds']:.2f} s merged ({ua['passes']:.0f} samples) -> {uc['seconds']:.2f} s "
          f"with logits at completion tokens only -> {us['seconds']:.2f} s with shared prompt "
          f"parts run once -> {um['seconds']:.2f} s with the sampler's log-probabilities as "
          f"the old ones: {uu['seconds'] / um['seconds']:.2f}x")
    before = b["seconds"] + uu["seconds"]
    after = a["seconds"] + um["seconds"]
    print(f"rollouts + update: {before:.2f} s -> {after:.2f} s: {before / after:.2f}x")
    return out


def update_speed(lm, groups, rounds: int = 1) -> dict[str, dict[str, float]]:
    """One policy update on the groups' samples (rewards: the verifier's, a stand-in spread
    where a group has none), each variant from the same weights, ``rounds`` times in
    rotating order (median seconds): every sample its own pass with logits everywhere
    (before); identical samples merged; logits at completion tokens only; each distinct
    prompt and the shared head run once; the sampler's log-probabilities as the old ones
    (now)."""
    import copy

    import numpy as np

    from phoneworld_gym.baselines import grpo
    from phoneworld_gym.baselines.grpo import GRPOSettings, group_samples, update_policy

    samples = []
    for gid, group in enumerate(groups):
        rewards = [float(ep.success) for ep in group]
        if len(set(rewards)) < 2:
            rewards = [float(i % 2) for i in range(len(group))]
        samples += group_samples(group, rewards, balance=True, group_id=gid)
    settings = GRPOSettings(epochs=2, minibatch=32, lr=2e-4, temperature=1.0)
    unmerged = [dataclasses_replace(s, group=-1) for s in samples]
    variants = [("update_unmerged", unmerged, False, False, False),
                ("update_merged_all_logits", samples, False, False, False),
                ("update_completion_logits", samples, True, False, False),
                ("update_shared", samples, True, True, False),
                ("update_merged", samples, True, True, True)]
    times: dict[str, list[float]] = {v[0]: [] for v in variants}
    stats: dict[str, dict[str, float]] = {}
    for r in range(rounds):
        for name, smps, only, share, drawn in variants[r % 5:] + variants[:r % 5]:
            model = copy.deepcopy(lm.model)
            opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
            grpo.COMPLETION_LOGITS_ONLY = only
            grpo.SHARED_PREFIX = share
            grpo.SAMPLER_LOGPROBS = drawn
            t0 = time.perf_counter()
            try:
                st = update_policy(model, opt, [copy.copy(s) for s in smps], settings,
                                   lm.tokenizer.pad_token_id or 0, rng=np.random.default_rng(0))
            finally:
                grpo.COMPLETION_LOGITS_ONLY = grpo.SHARED_PREFIX = True
                grpo.SAMPLER_LOGPROBS = True
            times[name].append(time.perf_counter() - t0)
            stats[name] = {"passes": st["passes"], "samples": st["samples"],
                           "ratio": st["ratio"], "loss": st["loss"]}
            print(f"round {r + 1} {name}: {times[name][-1]:.2f} s", flush=True)
    return {name: {"seconds": round(statistics.median(times[name]), 3), "rounds": times[name],
                   **stats[name]} for name in times}


def dataclasses_replace(obj, **kw):
    import dataclasses

    return dataclasses.replace(obj, **kw)


if __name__ == "__main__":
    main()
