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
``--task``, optionally with a trained ``--model``), before and after, where the recent-prompt
cache also counts: a group's episodes share their first screen and often more.

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
    ap.add_argument("--task", default="ContactsStar")
    ap.add_argument("--groups", type=int, default=3)
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


def group_rollouts(lm, args) -> dict[str, dict[str, float]]:
    """GRPO-style rollouts: ``--groups`` instances of ``--task`` x 8 episodes at temperature
    1, before (generate, no caches) and after (forced runs, the system message's cache and
    the recent-prompt cache, which a group's episodes share wherever they meet one screen);
    env-steps per second of whole episodes, env steps included."""
    from phoneworld_gym.baselines.grpo import play
    from phoneworld_gym.baselines.lm_agent import LMAgent
    from phoneworld_gym.env import PhoneEnv

    env = PhoneEnv(args.task, split="train", obs_mode="a11y")
    out: dict[str, dict[str, float]] = {}
    try:
        for name in ("before", "after"):
            lm.fast_trie = lm.prefix_cache = name == "after"
            lm.prompt_cache = 16 if name == "after" else 0
            agent = LMAgent(lm, temperature=1.0, constrained=True, seed=0, max_new_tokens=40)
            steps, t0 = 0, time.perf_counter()
            played = []
            for k in range(args.groups):
                group = [play(env, agent, "mock", args.task, 1000 + k, 6) for _ in range(8)]
                steps += sum(len(ep.steps) for ep in group)
                played.append(group)
            sec = time.perf_counter() - t0
            out[name] = {"env_steps": steps, "seconds": round(sec, 2),
                         "steps_per_s": round(steps / sec, 2)}
    finally:
        env.close()
    out.update(update_speed(lm, played))
    b, a = out["before"], out["after"]
    print(f"\ngroup rollouts ({args.task}, {args.groups} groups x 8 episodes, T=1"
          f"{', model ' + args.model if args.model else ', untrained model'}):")
    for name in ("before", "after"):
        r = out[name]
        print(f"{name:8} {r['env_steps']:>5} env steps in {r['seconds']:>6.1f} s: "
              f"{r['steps_per_s']:>6.2f} steps/s")
    print(f"speed-up {a['steps_per_s'] / b['steps_per_s']:.2f}x")
    um, uu = out["update_merged"], out["update_unmerged"]
    ua = out["update_merged_all_logits"]
    print(f"policy update on those groups' samples (2 epochs, minibatch 32): "
          f"{uu['seconds']:.1f} s unmerged ({uu['passes']:.0f} passes) -> {ua['seconds']:.1f} s "
          f"merged ({ua['passes']:.0f} passes) -> {um['seconds']:.1f} s with logits at "
          f"completion tokens only: {uu['seconds'] / um['seconds']:.2f}x")
    before = b["seconds"] + uu["seconds"]
    after = a["seconds"] + um["seconds"]
    print(f"rollouts + update: {before:.1f} s -> {after:.1f} s: {before / after:.2f}x")
    return out


def update_speed(lm, groups) -> dict[str, dict[str, float]]:
    """One policy update on the groups' samples (rewards: the verifier's, a stand-in spread
    where a group has none), with identical samples merged and not (group ids dropped)."""
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
    out = {}
    unmerged = [dataclasses_replace(s, group=-1) for s in samples]
    # before: every sample its own pass, logits at every position; then identical samples
    # merged; then the vocabulary projection at completion positions only (the update now)
    for name, smps, only in (("update_unmerged", unmerged, False),
                             ("update_merged_all_logits", samples, False),
                             ("update_merged", samples, True)):
        model = copy.deepcopy(lm.model)
        opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
        grpo.COMPLETION_LOGITS_ONLY = only
        t0 = time.perf_counter()
        try:
            st = update_policy(model, opt, smps, settings, lm.tokenizer.pad_token_id or 0,
                               rng=np.random.default_rng(0))
        finally:
            grpo.COMPLETION_LOGITS_ONLY = True
        out[name] = {"seconds": round(time.perf_counter() - t0, 2), "passes": st["passes"],
                     "samples": st["samples"]}
    return out


def dataclasses_replace(obj, **kw):
    import dataclasses

    return dataclasses.replace(obj, **kw)


if __name__ == "__main__":
    main()
