"""Train the tiny CPU model on ContactsStar with TRL's GRPOTrainer, through PhoneWorld.

1. build the tiny Llama and its tokenizer here (nothing downloaded);
2. SFT it briefly on oracle episodes written as transcripts (the format the TRL rollouts
   use: one growing sequence per episode, see phoneworld_gym/baselines/trl_grpo.py);
3. measure greedy success on held-out seeds; run a few GRPOTrainer updates (rollout_func
   plays whole episodes, the verifier's 0/1 is the reward); measure again.

    python examples/trl_grpo.py --out /tmp/trl_grpo            # a few minutes on CPU
"""

from __future__ import annotations

import argparse
import time

import numpy as np
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="/tmp/trl_grpo")
    ap.add_argument("--task", default="ContactsStar")
    ap.add_argument("--sft-steps", type=int, default=30)
    ap.add_argument("--updates", type=int, default=3)
    ap.add_argument("--eval-seeds", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    t0 = time.time()
    base = build_tiny(f"{a.out}/base", list(oracle_corpus([a.task], seeds=range(2))),
                      vocab=1000, init_std=0.1)
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForCausalLM.from_pretrained(base)
    examples = transcript_examples(oracle_transcripts(a.task, range(12)), tok.eos_token)
    losses = sft_transcripts(model, tok, examples, steps=a.sft_steps, batch_size=4)
    print(f"SFT: {a.sft_steps} steps on {len(examples)} transcript steps, loss "
          f"{losses[0]:.3f} -> {losses[-1]:.3f} ({time.time() - t0:.0f} s)", flush=True)
    eval_seeds = range(5000, 5000 + a.eval_seeds)
    before = evaluate_transcripts(model, tok, a.task, eval_seeds, 6)
    print(f"before: greedy success {np.mean(before):.3f} on {len(before)} held-out seeds",
          flush=True)
    settings = TRLGRPOSettings(updates=a.updates, tasks_per_update=2, group_size=4,
                               temperature=1.0, max_episode_steps=6, lr=5e-4)
    train_trl_grpo(model, tok, [a.task], range(1000, 2000), settings, f"{a.out}/trl",
                   log=lambda r: print(
                       f"update {r['update']}: reward {r['reward']:.3f} success "
                       f"{r['success']:.3f} zero-spread groups {r['zero_std_groups']:.2f} "
                       f"clip {r['clip_ratio']} grad norm {r['grad_norm']} "
                       f"({r['seconds']:.0f} s)", flush=True))
    after = evaluate_transcripts(model, tok, a.task, eval_seeds, 6)
    print(f"after:  greedy success {np.mean(after):.3f} on {len(after)} held-out seeds "
          f"({time.time() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()
