"""TRL's GRPOTrainer against the project's GRPO: the same task, start, budget and held-out seeds.

Both arms follow the learning check (``phoneworld_gym/baselines/learning_check.py``, its ``--quick``
configuration): ContactsStar, the tiny Llama built here from the same config and seed
(2 layers, width 128, 1,000-token BPE, init std 0.1), four disjoint seed ranges
(demonstrations 0-39, selection 3000-3015, RL 1000-1999, evaluation 5000-5029), SFT in
chunks of 10 steps (batch 8, lr 3e-3) until the selection seeds show at least a quarter
solved (at most 120 steps), then the RL budget, then greedy success on the evaluation seeds
before and after, paired (``baselines.report.paired_gain``: gain, 95% interval, McNemar p).

- **grpo**: ``learning_check.run`` itself: single-step prompts, SFT with ``train_sft`` on
  the oracle's step examples, ``train_grpo`` (adaptive p(1-p) instance sampler, 2 epochs,
  whole groups per 32-sample minibatch, episodes balanced by length, clip 0.2, no KL),
  evaluated by ``LMAgent`` (trie-constrained, greedy).
- **trl**: ``train_trl_grpo`` (TRL's ``GRPOTrainer`` through ``rollout_func``): an episode
  is one transcript, so the SFT start is made in that format (``sft_transcripts`` on
  ``transcript_examples`` of the oracle's episodes on the same demonstration seeds, the
  same chunked selection with ``evaluate_transcripts``), evaluated by the transcript
  decoder (trie-constrained, greedy). **The two SFT starts differ** (same base weights,
  same demonstrations, another prompt format and SFT loop), so each arm's gain is over
  its own start.

The same RL budget: ``updates`` updates, each ``tasks_per_update`` instances x
``group_size`` episodes at temperature 1 with the same 6-step cap, lr 2e-4 (AdamW,
constant), clip 0.2, no KL. What cannot match exactly:

- **passes and optimiser steps**: the project's GRPO makes 2 epochs over an update's step
  samples in minibatches of 32 (so several AdamW steps per update); TRL's integration
  makes one optimiser step per update on the whole batch (``num_iterations`` 1: the ratio
  is 1, the clip never acts). Same lr, far fewer steps: TRL's arm moves the weights less.
- **what a sample is**: a step (prompt -> action) there, a whole episode transcript here
  (TRL's ``dapo`` loss: token mean over the batch; the env's turns masked out).
- **instances**: the project's adaptive sampler prefers instances with a success spread;
  TRL draws dataset rows (the same RL seed range) in its own shuffled order.
- **scoring**: the project scores actions against the trie's allowed tokens only; TRL
  scores them against the whole vocabulary.

    python examples/trl_vs_grpo.py --out out/trl_vs_grpo                 # both arms, in turn
    python examples/trl_vs_grpo.py --out out/trl_vs_grpo --arms trl       # one arm
    python examples/trl_vs_grpo.py --out out/trl_vs_grpo --arms none      # the table again
    python examples/trl_vs_grpo.py --out out/trl_sft40 --arms trl --trl-min-sft 40

``--trl-min-sft N`` lets the selection stop the TRL arm's SFT only after N steps (to give
its start the SFT budget the GRPO arm's selection ended at).

Each arm writes ``OUT/<arm>.json``; the table (method, success before and after, gain
[interval], McNemar p, RL wall seconds, updates, episodes) is printed from whichever arms
are there and written to ``OUT/comparison.json``. The figures are in ``docs/results.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from phoneworld_gym.baselines.learning_check import CheckConfig, _range
from phoneworld_gym.baselines.learning_check import run as run_learning_check
from phoneworld_gym.baselines.report import paired_gain


def log(line: str) -> None:
    print(line, flush=True)


def grpo_arm(cfg: CheckConfig, out: Path) -> dict[str, Any]:
    """The project's GRPO: the learning check as it runs."""
    rec = run_learning_check(cfg, out / "grpo", log=lambda s: log(f"[grpo] {s}"))
    return {"method": "project GRPO (phoneworld_gym/baselines/grpo.py)",
            "sft_steps": rec["sft_selection"][-1]["sft_steps"],
            "select_success": rec["select_success"],
            "before": rec["curve"][0]["success"], "after": rec["curve"][-1]["success"],
            "gain": rec["gain"], "updates": len(rec["updates"]),
            "episodes": int(sum(u["drawn"] for u in rec["updates"]) * cfg.group_size),
            "rl_seconds": round(sum(u["seconds"] for u in rec["updates"]), 1),
            "history": [{k: u[k] for k in ("update", "reward", "success", "drawn", "kept",
                                           "seconds")} for u in rec["updates"]],
            "seconds": rec["seconds"]}


def trl_arm(cfg: CheckConfig, out: Path, min_sft: int = 0) -> dict[str, Any]:
    """TRL's GRPOTrainer from a transcript-format SFT start of the same base model (the
    selection may stop SFT only once ``min_sft`` steps are done)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus
    from phoneworld_gym.baselines.trl_grpo import (
        TRLGRPOSettings,
        evaluate_transcripts,
        oracle_transcripts,
        sft_transcripts,
        train_trl_grpo,
        transcript_examples,
    )

    torch.set_num_threads(cfg.threads)
    t_start = time.time()
    out = out / "trl"
    # the learning check's model: the same corpus, config and seed
    base = build_tiny(out / "base", list(oracle_corpus([cfg.task], seeds=range(2))),
                      layers=cfg.layers, hidden=cfg.hidden, vocab=cfg.vocab, seed=cfg.seed,
                      init_std=cfg.init_std)
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForCausalLM.from_pretrained(base)
    examples = transcript_examples(oracle_transcripts(cfg.task, _range(cfg.demo_seeds)),
                                   tok.eos_token)
    select_seeds = _range(cfg.select_seeds)
    done, select, trace = 0, [False], []
    while done < cfg.sft_steps:
        steps = min(cfg.sft_chunk, cfg.sft_steps - done)
        losses = sft_transcripts(model, tok, examples, steps=steps, batch_size=cfg.sft_batch,
                                 lr=cfg.sft_lr, seed=cfg.seed + done)
        done += steps
        select = evaluate_transcripts(model, tok, cfg.task, select_seeds, cfg.max_steps)
        trace.append({"sft_steps": done, "loss": losses[-1],
                      "select_success": float(np.mean(select))})
        log(f"[trl] SFT {done} steps: loss {losses[-1]:.3f}, selection seeds "
            f"{sum(select)}/{len(select)}")
        if np.mean(select) >= cfg.select_low and done >= min_sft:
            break
    eval_seeds = _range(cfg.eval_seeds)
    before = evaluate_transcripts(model, tok, cfg.task, eval_seeds, cfg.max_steps)
    log(f"[trl] update 0: held-out success {np.mean(before):.3f}")
    settings = TRLGRPOSettings(updates=cfg.updates, tasks_per_update=cfg.tasks_per_update,
                               group_size=cfg.group_size, lr=cfg.lr, epsilon=cfg.clip_eps,
                               beta=0.0, num_iterations=1, temperature=cfg.temperature,
                               max_episode_steps=cfg.max_steps, seed=cfg.seed)
    history = train_trl_grpo(
        model, tok, [cfg.task], _range(cfg.rl_seeds), settings, out / "trainer",
        log=lambda r: log(f"[trl] update {r['update']}: reward {r['reward']:.3f} success "
                          f"{r['success']:.3f} zero-spread groups {r['zero_std_groups']} "
                          f"({r['seconds']:.0f} s)"))
    after = evaluate_transcripts(model, tok, cfg.task, eval_seeds, cfg.max_steps)
    gain = paired_gain(before, after)
    log(f"[trl] update {len(history)}: held-out success {np.mean(after):.3f}")
    method = "TRL GRPOTrainer (phoneworld_gym/baselines/trl_grpo.py)" + (
        f", SFT >= {min_sft} steps" if min_sft else "")
    return {"method": method, "sft_steps": done, "min_sft": min_sft,
            "sft_selection": trace, "select_success": float(np.mean(select)),
            "before": float(np.mean(before)), "after": float(np.mean(after)), "gain": gain,
            "updates": len(history), "episodes": int(sum(h["episodes"] for h in history)),
            "rl_seconds": round(sum(h["seconds"] for h in history), 1),
            "history": [{k: h[k] for k in ("update", "reward", "success", "zero_std_groups",
                                           "seconds")} for h in history],
            "seconds": round(time.time() - t_start, 1)}


def table(arms: dict[str, dict[str, Any]]) -> str:
    """The comparison as a markdown table."""
    rows = ["| method | SFT start (selection) | success before | after | gain [95% interval] "
            "(up/down) | McNemar p | RL wall s | updates | episodes |",
            "|---|---|---:|---:|---|---:|---:|---:|---:|"]
    for r in arms.values():
        g = r["gain"]
        p = f"{g['p_mcnemar']:.4f}" if g["p_mcnemar"] >= 1e-4 else f"{g['p_mcnemar']:.1e}"
        rows.append(f"| {r['method']} | {r['sft_steps']} steps, {r['select_success']:.0%} | "
                    f"{r['before']:.1%} | {r['after']:.1%} | {100 * g['gain']:+.1f} "
                    f"[{100 * g['low']:+.1f}, {100 * g['high']:+.1f}] ({g['up']}/{g['down']}) "
                    f"| {p} | {r['rl_seconds']:.0f} | {r['updates']} | {r['episodes']} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="out/trl_vs_grpo")
    ap.add_argument("--arms", default="grpo,trl", help="grpo, trl, both (grpo,trl) or none")
    ap.add_argument("--updates", type=int, default=6)
    ap.add_argument("--tasks-per-update", type=int, default=3)
    ap.add_argument("--group-size", type=int, default=8)
    ap.add_argument("--eval-seeds", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--trl-min-sft", type=int, default=0,
                    help="TRL arm: SFT steps before the selection may stop it (e.g. the "
                         "GRPO arm's, to match the starts' SFT budget)")
    a = ap.parse_args()
    cfg = CheckConfig.quick(updates=a.updates, tasks_per_update=a.tasks_per_update,
                            group_size=a.group_size, eval_every=a.updates,
                            eval_seeds=(5000, 5000 + a.eval_seeds), seed=a.seed,
                            threads=a.threads)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for arm in [x for x in a.arms.split(",") if x and x != "none"]:
        if arm not in ("grpo", "trl"):
            raise SystemExit(f"--arms takes grpo, trl or none, comma-separated; got {arm!r}")
        rec = grpo_arm(cfg, out) if arm == "grpo" else trl_arm(cfg, out, a.trl_min_sft)
        rec["config"] = dataclasses.asdict(cfg)
        (out / f"{arm}.json").write_text(json.dumps(rec, indent=1, default=str))
    arms = {arm: json.loads((out / f"{arm}.json").read_text()) for arm in ("grpo", "trl")
            if (out / f"{arm}.json").is_file()}
    (out / "comparison.json").write_text(json.dumps(arms, indent=1, default=str))
    print(table(arms))


if __name__ == "__main__":
    main()
