"""How fast does a tiny model learn to read a goal? Grounding accuracy against training steps.

The learning check found the tiny model (2 layers, width 128) taps the demonstrations'
commonest element whatever the goal says, and that 300 steps of grounding examples ("Tap
Wi-Fi." on the suite's screens, the click on that element as the reply; see
``phoneworld_gym.baselines.grounding``) lift it to about 10 in 100 unseen goals. This asks
what more of the same buys: a model of ``--layers`` x ``--hidden`` (built here, its tokenizer
trained like the learning check's on ``--corpus-task``'s oracle prompts) trained on fresh
grounding examples only, in chunks of ``--chunk`` steps; after each chunk, greedy
trie-constrained decoding on ``--probe`` grounding goals on screens of seed 7000 (the
examples come from seeds 0-1, or 0-39 with ``--screens-task``: a world of another seed, so
other contacts, messages and files, though a settings page may look the same in both),
counted right when the click lands on the named element. Prints and writes (``--json``)
the curve: steps, training loss, accuracy, seconds.

    python examples/grounding_probe.py --steps 2000 --chunk 250 --json out/grounding_probe.json
    python examples/grounding_probe.py --screens-task SettingsSwitch --steps 600 --chunk 100
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path


def probe_goals(n: int, seed: int = 7000, tasks: list[str] | None = None,
                named: bool = False) -> list[tuple[list, int, list[str]]]:
    """``n`` grounding goals on the oracle's screens of ``seed`` (``tasks``' screens, every
    train task's by default): (messages, the named element's index, the screen's candidate
    replies)."""
    from phoneworld_gym.baselines.grounding import WORDINGS, _name, oracle_screens, targets
    from phoneworld_gym.baselines.lm_agent import launcher_apps
    from phoneworld_gym.baselines.prompt import build_messages, candidate_actions, format_reply
    from phoneworld_gym.contract import parse_ui_elements

    rng = random.Random(seed)
    pool = []
    for tree in oracle_screens(tasks, seeds=[seed]):
        elements = parse_ui_elements(tree)
        pool += [(elements, i) for i in targets(elements)]
    apps = launcher_apps()
    out = []
    for _ in range(n):
        elements, i = pool[rng.randrange(len(pool))]
        goal = rng.choice(WORDINGS).format(_name(elements[i]))
        replies = [format_reply(a, elements, named=named)
                   for a in candidate_actions(goal, elements, apps=apps)]
        out.append((build_messages(goal, elements, []), i, replies))
    return out


def accuracy(lm, goals) -> int:
    """How many goals the model's greedy constrained reply clicks the named element on."""
    from phoneworld_gym.baselines.prompt import parse_action

    right = 0
    for msgs, index, replies in goals:
        action = parse_action(lm.generate(msgs, allowed=replies, max_new_tokens=40).text)
        right += bool(action is not None and action.action_type == "click"
                      and action.index == index)
    return right


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=1000)
    ap.add_argument("--corpus-task", default="SettingsSwitch")
    ap.add_argument("--screens-task", default="", help="train and probe on this task's "
                    "screens only (its oracle's, seeds 0-39; probe: seed 7000); default: every "
                    "train task's screens at seeds 0-1")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--chunk", type=int, default=250)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--probe", type=int, default=100)
    ap.add_argument("--named", action="store_true", help="replies name the element before "
                    "its index (decoding: named): choosing is copying the goal's name")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    if args.steps < 1 or args.chunk < 1:
        raise SystemExit("--steps and --chunk must be >= 1")
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym.baselines.grounding import grounding_examples, oracle_screens
    from phoneworld_gym.baselines.lm_agent import LocalModel
    from phoneworld_gym.baselines.sft import SFTSettings, train_sft
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    torch.set_num_threads(args.threads)
    t_start = time.time()
    only = [args.screens_task] if args.screens_task else None
    goals = probe_goals(args.probe, tasks=only, named=args.named)
    screens = oracle_screens(only, seeds=range(40) if only else [0, 1])
    curve = []
    with tempfile.TemporaryDirectory() as tmp:
        base = build_tiny(Path(tmp) / "base",
                          list(oracle_corpus([args.corpus_task], seeds=range(2))),
                          layers=args.layers, hidden=args.hidden, vocab=args.vocab,
                          seed=args.seed, init_std=0.1)
        tok = AutoTokenizer.from_pretrained(base)
        model = AutoModelForCausalLM.from_pretrained(base)
        lm = LocalModel(model, tok)
        n_params = sum(p.numel() for p in model.parameters())
        right = accuracy(lm, goals)
        curve.append({"steps": 0, "loss": None, "right": right, "seconds": 0.0})
        print(f"{args.layers} layers x {args.hidden}, {n_params / 1e6:.2f}M parameters; "
              f"{len(screens)} training screens; step 0: {right}/{len(goals)}", flush=True)
        done = 0
        while done < args.steps:
            steps = min(args.chunk, args.steps - done)
            # fresh examples each chunk: a pass over new goals, never the same one twice
            examples = grounding_examples(screens, steps * args.batch, eos=tok.eos_token,
                                          seed=args.seed * 1_000_003 + done,
                                          named=args.named)
            t0 = time.time()
            rec = train_sft(model, tok, examples, Path(tmp) / "sft",
                            SFTSettings(max_steps=steps, batch_size=args.batch, lr=args.lr,
                                        seed=args.seed + done, max_length=4096,
                                        warmup_ratio=0.0))
            done += steps
            right = accuracy(lm, goals)
            loss = float(sum(rec["loss"][-5:]) / len(rec["loss"][-5:]))
            curve.append({"steps": done, "loss": round(loss, 4), "right": right,
                          "seconds": round(time.time() - t0, 1)})
            print(f"step {done}: loss {loss:.3f}, {right}/{len(goals)} probe goals right "
                  f"({time.time() - t0:.0f} s)", flush=True)
    record = {"args": vars(args), "parameters": n_params, "screens": len(screens),
              "probe": len(goals), "curve": curve, "seconds": round(time.time() - t_start, 1)}
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
