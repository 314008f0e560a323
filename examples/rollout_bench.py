"""Rollout and update speed of the recipe's RL stage, before and after whole-candidate decoding.

Both runs use the recipe's CPU model shape (a tiny Llama, 2 layers, width 128, built here from
a config; untrained weights: speed does not depend on what the model learned, and constrained
decoding keeps every reply a valid action), the recipe's six train tasks in the mock world,
the same seeds and the same number of episodes:

- **before**: token-by-token decoding through a trie of the screen's candidate actions with
  ``model.generate`` (one forward pass per token, every forced JSON token generated), every
  prompt run from its first token;
- **after**: the same distribution, decoded with one forward pass per branch (a run of
  forced tokens is appended in one pass) and the system message's key/value cache computed
  once per model;
- **whole candidates**: every candidate scored as a whole (``constrained="whole"``: one pass
  over the prompt, one batched pass over all candidates), for comparison.

GRPO samples are token sequences with their allowed sets in the first two rows and one
decision each in the third; the update is timed the same way in each.

It prints env-steps/s of rollouts, seconds per update (rollouts + the policy update) and the
ratios, and writes them as JSON (``--json``).

    python examples/rollout_bench.py [--episodes 32] [--json out/rollout_bench.json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

TASKS = ["SettingsSwitch", "ClockDisableAlarm", "MessagesDeleteThread", "ContactsStar",
         "ContactsCountFavorites", "ClockEarliestAlarm"]


def measure(decoding: str | bool, model, tok, episodes: int, group: int, max_steps: int,
            temperature: float, fast: bool) -> dict[str, float]:
    from phoneworld_gym.baselines.grpo import (
        GRPOSettings,
        collect_groups,
        update_policy,
        verified_reward,
    )
    from phoneworld_gym.baselines.lm_agent import LMAgent
    from phoneworld_gym.baselines.sampler import EnvSource, TaskSampler

    sampler = TaskSampler([EnvSource("mock", "PhoneWorld/All-v0", tasks=TASKS)], seed=0,
                          seeds=list(range(1000, 2000)))
    settings = GRPOSettings(tasks_per_update=max(1, episodes // group), group_size=group,
                            epochs=1, minibatch=16, lr=1e-4, temperature=temperature,
                            max_new_tokens=40, max_episode_steps=max_steps)
    agent = LMAgent((model, tok), temperature=temperature, max_new_tokens=40, seed=0,
                    constrained=decoding)
    agent.lm.fast_trie = agent.lm.prefix_cache = fast
    counter = [0]

    def reward(ep) -> float:  # a stand-in with spread in every group: every other episode
        counter[0] += 1
        return float(counter[0] % 2) + verified_reward(ep)

    try:
        sampler.env("mock")  # built before the clock starts
        t0 = time.perf_counter()
        got = collect_groups(sampler, agent, settings, reward)
        t_roll = time.perf_counter() - t0
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        state = {k: v.clone() for k, v in model.state_dict().items()}
        t0 = time.perf_counter()
        update_policy(model, opt, got.samples, settings, tok.pad_token_id or 0,
                      rng=np.random.default_rng(0))
        t_upd = time.perf_counter() - t0
        model.load_state_dict(state)  # the next run starts from the same weights
    finally:
        sampler.close()
    steps = sum(len(e.steps) for e in got.episodes)
    return {"episodes": len(got.episodes), "env_steps": steps,
            "rollout_s": round(t_roll, 2), "steps_per_s": round(steps / t_roll, 2),
            "update_s": round(t_upd, 2), "samples": len(got.samples),
            "seconds_per_update": round(t_roll + t_upd, 2),
            "candidates_per_step": round(float(np.mean(
                [len(c) for e in got.episodes for c in e.candidates if c] or [0])), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=32)
    ap.add_argument("--group", type=int, default=8)
    ap.add_argument("--max-steps", type=int, default=8)
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    torch.set_num_threads(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        path = build_tiny(Path(tmp) / "m", list(oracle_corpus(TASKS, seeds=[0])), layers=2,
                          hidden=128, vocab=2000, init_std=0.1)
        tok = AutoTokenizer.from_pretrained(path)
        model = AutoModelForCausalLM.from_pretrained(path).eval()
    rows = {}
    for name, decoding, fast in (("before (generate)", "trie", False),
                                 ("after (trie runs)", "trie", True),
                                 ("whole candidates", "whole", True)):
        rows[name] = measure(decoding, model, tok, args.episodes, args.group, args.max_steps,
                             args.temperature, fast)
    b, a = rows["before (generate)"], rows["after (trie runs)"]
    print(f"{'':18} {'episodes':>8} {'steps':>6} {'steps/s':>8} {'rollout s':>9} "
          f"{'update s':>8} {'s/update':>8}")
    for name, r in rows.items():
        print(f"{name:18} {r['episodes']:>8} {r['env_steps']:>6} {r['steps_per_s']:>8} "
              f"{r['rollout_s']:>9} {r['update_s']:>8} {r['seconds_per_update']:>8}")
    ratio = {"steps_per_s": round(a["steps_per_s"] / b["steps_per_s"], 2),
             "seconds_per_update": round(b["seconds_per_update"] / a["seconds_per_update"], 2)}
    print(f"speed-up: rollouts x{ratio['steps_per_s']} (env-steps/s), "
          f"updates x{ratio['seconds_per_update']} (seconds per update); "
          f"{rows['whole candidates']['candidates_per_step']} candidates per step")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"rows": rows, "speedup": ratio,
                                               "args": vars(args)}, indent=1))


if __name__ == "__main__":
    main()
