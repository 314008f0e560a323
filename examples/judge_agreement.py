"""How often does a language-model judge agree with the verifiers?

Runs episodes on the held-out test-split tasks (the oracle's: successes; near misses and the
random agent's: mostly failures), asks the judge about each one from what a real-phone judge
sees (goal, actions, last screens), and compares its verdicts with the verifiers' outcomes:
precision and recall of "success" per task category. Writes a Markdown section.

    python examples/judge_agreement.py                       # the untrained tiny model
    python examples/judge_agreement.py --model PATH          # a local model folder
    python examples/judge_agreement.py --base-url http://127.0.0.1:8000/v1 --model-name NAME
    python examples/judge_agreement.py --train-seeds 2      # fine-tune the tiny judge first

``--train-seeds`` fine-tunes the local judge on episodes of the train-split tasks labelled by
their verifiers (what simulation offers that a real phone does not), then measures it on the
test-split tasks as above: the judge still reads only goal, actions and screens.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.agents import OracleAgent, RandomAgent
from phoneworld_gym.baselines.judge import EpisodeRecord, Judge, judge_example, record_episode
from phoneworld_gym.contract import Action
from phoneworld_gym.env import PhoneEnv
from phoneworld_gym.oracle import OracleError
from phoneworld_gym.task import all_tasks

KINDS = ("oracle", "near_miss", "random")


@dataclasses.dataclass
class Settings:
    """One measurement.

    Attributes:
        model: a local model folder for the judge (None: build the untrained tiny model).
        base_url, model_name: an OpenAI-compatible endpoint instead of a local model.
        seeds: episodes per task and kind.
        kinds: which episode makers to run (oracle, near_miss, random).
        max_new_tokens: the longest judge reply.
        screenshots: send the final screenshot too (vision judges).
        out: where the Markdown section goes (None: print only).
        train_seeds: if > 0, first fine-tune the local judge on this many seeds of episodes
            per train-split task and kind, labelled by the verifiers (tasks disjoint from
            the test tasks it is measured on).
        train_steps: optimizer steps of that fine-tuning (one episode per step, the two
            labels drawn equally often).
        lr: its learning rate (AdamW).
        eval_split: the tasks measured on: "test" (held out) or "train" (the tasks a
            fine-tuned judge saw, on other seeds: how well it fits what it was taught).
    """

    model: str | None = None
    base_url: str | None = None
    model_name: str | None = None
    seeds: int = 2
    kinds: tuple[str, ...] = KINDS
    max_new_tokens: int = 48
    screenshots: bool = False
    out: str | None = "out/judge_agreement.md"
    train_seeds: int = 0
    train_steps: int = 600
    lr: float = 1e-3
    eval_split: str = "test"


class NearMissAgent:
    """Replays the task's near miss: almost right, then claims success (scores 0)."""

    name = "near_miss"

    def __init__(self, env: PhoneEnv):
        self.env = env
        self._plan: Iterator[Action] | None = None

    def reset(self, goal: str) -> None:
        task = self.env.task
        assert task is not None
        self._plan = task.near_miss(self.env.task_device)  # type: ignore[arg-type]

    def act(self, observation: dict[str, Any]) -> Action:
        assert self._plan is not None
        return next(self._plan, Action("status", goal_status="complete"))


def make_judge(s: Settings) -> tuple[Judge, str]:
    """The judge (fine-tuned first if ``s.train_seeds``) and a line saying what it runs on."""
    if s.base_url:
        from phoneworld_gym.baselines.openai_agent import OpenAIChat

        if not s.model_name:
            raise SystemExit("--base-url needs --model-name")
        if s.train_seeds:
            raise SystemExit("--train-seeds fine-tunes a local model; not with --base-url")
        chat = OpenAIChat(s.base_url, s.model_name, max_tokens=s.max_new_tokens)
        return Judge(chat, screenshots=s.screenshots), f"`{s.model_name}` at {s.base_url}"
    from phoneworld_gym.baselines.lm_agent import LocalModel

    path = s.model
    what = f"local model `{path}`"
    if path is None:
        from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

        path = tempfile.mkdtemp(prefix="tiny_judge_")
        build_tiny(path, oracle_corpus(seeds=range(1)))
        what = ("the tiny model of `phoneworld_gym/baselines/tiny.py` (2 layers, width 128, "
                "tokenizer trained on train-task oracle prompts)")
    lm = LocalModel.load(path)
    if s.train_seeds:
        what += finetune(lm, s)
    elif s.model is None:
        what += ", **untrained**"
    return Judge(lm, screenshots=s.screenshots, max_new_tokens=s.max_new_tokens), what


def episodes(env: PhoneEnv, tasks: Sequence[str], kinds: Sequence[str], seeds: range,
             skipped: list[str]) -> Iterator[tuple[str, int, EpisodeRecord, dict[str, Any]]]:
    """``(kind, seed, record, final info)`` of every task x kind x seed. An episode whose
    oracle or near miss fails (a bug in that task, reported) is listed in ``skipped``."""
    for task in tasks:
        for kind in kinds:
            for seed in seeds:
                agent: Any = {"oracle": OracleAgent, "near_miss": NearMissAgent}[kind](env) \
                    if kind != "random" else RandomAgent(seed=seed)
                try:
                    record, info = record_episode(env, agent, seed=seed, task=task)
                except OracleError as e:
                    skipped.append(f"{task} {kind} seed {seed}: {e}")
                    continue
                yield kind, seed, record, info


def finetune(lm: Any, s: Settings) -> str:
    """Fine-tune ``lm`` in place on verifier-labelled train-split episodes; says how."""
    import numpy as np
    import torch

    tasks = [t for t, cls in all_tasks().items() if cls.split == "train"]
    env = PhoneEnv(tasks, split="train", obs_mode="all" if s.screenshots else "a11y")
    skipped: list[str] = []
    by_label: dict[bool, list[tuple[list[int], list[int]]]] = {True: [], False: []}
    tok = lm.tokenizer
    for _, _, record, info in episodes(env, tasks, s.kinds, range(100, 100 + s.train_seeds),
                                       skipped):
        messages, target = judge_example(record, bool(info["success"]))
        prompt = tok(lm.prompt_text(messages), add_special_tokens=False).input_ids
        completion = tok(target, add_special_tokens=False).input_ids + [tok.eos_token_id]
        by_label[bool(info["success"])].append((prompt, completion))
    env.close()
    if not by_label[True] or not by_label[False]:
        raise SystemExit("fine-tuning needs episodes of both outcomes; add kinds or seeds")
    # the one token that carries the decision: the first where the two verdicts differ
    yes, no = (tok(judge_example(EpisodeRecord("", screens=["<hierarchy/>"]), v)[1],
                   add_special_tokens=False).input_ids for v in (True, False))
    decisive = next(i for i, (a, b) in enumerate(zip(yes, no)) if a != b)
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    model = lm.model
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=s.lr)
    losses, decision = [], []
    for _ in range(s.train_steps):
        pool = by_label[bool(rng.integers(2))]
        prompt, completion = pool[int(rng.integers(len(pool)))]
        ids = torch.tensor([prompt + completion], device=lm.device)
        logits = model(input_ids=ids).logits[0, len(prompt) - 1:-1]
        per_token = torch.nn.functional.cross_entropy(
            logits.float(), torch.tensor(completion, device=lm.device), reduction="none")
        loss = per_token.mean()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss.item())
        decision.append(per_token[decisive].item())
        if len(losses) % 100 == 0:
            print(f"judge fine-tuning: step {len(losses)}/{s.train_steps}, mean loss over "
                  f"the last 100 {sum(losses[-100:]) / 100:.3f}, on the true/false token "
                  f"{sum(decision[-100:]) / 100:.3f}", file=sys.stderr, flush=True)
    model.eval()
    k = min(100, len(losses))
    n = len(by_label[True]) + len(by_label[False])
    return (f", fine-tuned here for {s.train_steps} steps (AdamW, lr {s.lr}, one episode a "
            f"step, both labels equally often) on {n} verifier-labelled episodes of the "
            f"{len(tasks)} train-split tasks ({len(by_label[True])} successes; seeds 100.."
            f"{99 + s.train_seeds}; {len(skipped)} skipped). Over the last {k} steps the "
            f"mean loss per verdict token was {sum(losses[-k:]) / k:.3f} and on the one "
            f"true/false token {sum(decision[-k:]) / k:.3f} nats (a coin toss: ln 2 = 0.693)")


def measure(s: Settings) -> tuple[list[dict[str, Any]], str, float, list[str]]:
    """Every test task x kind x seed: the verifier's outcome and the judge's verdict."""
    judge, what = make_judge(s)
    tasks = [t for t, cls in all_tasks().items() if cls.split == s.eval_split]
    env = PhoneEnv(tasks, split=s.eval_split, obs_mode="all" if s.screenshots else "a11y")
    rows = []
    skipped: list[str] = []
    start = time.perf_counter()
    for kind, seed, record, info in episodes(env, tasks, s.kinds, range(s.seeds), skipped):
        verdict = judge.judge_episode(record)
        rows.append({"task": info["task"], "category": info["category"], "kind": kind,
                     "seed": seed, "verified": bool(info["success"]),
                     "judged": verdict.success,
                     "unparsable": verdict.reason.startswith("unparsable"),
                     "reason": verdict.reason})
    env.close()
    return rows, what, time.perf_counter() - start, skipped


def _rate(num: int, den: int) -> str:
    return f"{100.0 * num / den:.0f}% ({num}/{den})" if den else "n/a (0/0)"


def table(rows: Sequence[dict[str, Any]], by: str) -> str:
    """Counts, precision and recall of the judge's "success" against the verifier."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r[by]].append(r)
    groups["**all**"] = list(rows)
    lines = [f"| {by} | episodes | verified successes | judged successes | precision | recall "
             "| agreement | unparsable replies |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for key, rs in groups.items():
        tp = sum(r["verified"] and r["judged"] for r in rs)
        judged = sum(r["judged"] for r in rs)
        verified = sum(r["verified"] for r in rs)
        agree = sum(r["verified"] == r["judged"] for r in rs)
        unparsable = sum(r["unparsable"] for r in rs)
        lines.append(f"| {key} | {len(rs)} | {verified} | {judged} | {_rate(tp, judged)} | "
                     f"{_rate(tp, verified)} | {_rate(agree, len(rs))} | "
                     f"{_rate(unparsable, len(rs))} |")
    return "\n".join(lines)


def reading(rows: Sequence[dict[str, Any]]) -> str:
    """What the figures say, from the figures: the floor a judge that always says "failure"
    would reach, and how many replies held no verdict."""
    n = len(rows)
    failures = sum(not r["verified"] for r in rows)
    unparsable = sum(r["unparsable"] for r in rows)
    agree = sum(r["verified"] == r["judged"] for r in rows)
    text = (f"A judge that always says \"failure\" agrees on {_rate(failures, n)} of these "
            f"episodes; this one agrees on {_rate(agree, n)}.")
    if unparsable == n:
        text += (" It never wrote a verdict (every reply was unparsable), so every episode "
                 "counted as a failure: the figures measure the pipeline (episodes, prompt, "
                 "strict parse, tally), not a judge. Run it with a real model "
                 "(`--model PATH` or `--base-url URL --model-name NAME`) for a judge's figures.")
    elif unparsable:
        text += f" {_rate(unparsable, n)} of its replies held no verdict (counted as failure)."
    return text


def report(rows: Sequence[dict[str, Any]], what: str, seconds: float, command: str,
           skipped: Sequence[str] = (), split: str = "test") -> str:
    """The Markdown section for docs/results.md."""
    n_tasks = len({r["task"] for r in rows})
    which = ("held-out test-split tasks with their test wordings" if split == "test" else
             "train-split tasks with their train wordings (seeds 0.., not the fine-tuning "
             "seeds 100..)")
    skips = "".join(f"\n- skipped (the episode maker failed): {x}" for x in skipped)
    return f"""## The judge against the verifiers

A judge reads only what a judge of a real phone could: the goal, the agent's actions (with
the phone's errors and the final answer) and the element lists of the last two screens
(`phoneworld_gym/baselines/judge.py`). It never reads the verifier, the probes or app state.
Its reply must be exactly `{{"success": true|false, "reason": "..."}}`; anything else counts as
a failure verdict. Episodes: the {n_tasks} {which}; per task and seed, the oracle's episode
(a success), the near miss (almost right, then a claim of success: a failure) and the random
agent's (a failure unless it stumbles on the goal).
Precision: of the episodes the judge passed, the share the verifier passed; recall: of the
episodes the verifier passed, the share the judge passed.

Judge: {what}. {len(rows)} {split}-split episodes judged in {seconds:.0f} s.

```
{command}
```

By task category:

{table(rows, "category")}

By episode maker:

{table(rows, "kind")}

{reading(rows)}
{skips}"""


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", help="a local model folder (default: the untrained tiny model)")
    p.add_argument("--base-url", help="an OpenAI-compatible endpoint instead")
    p.add_argument("--model-name", help="the endpoint's model id")
    p.add_argument("--seeds", type=int, default=2)
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--max-new-tokens", type=int, default=48)
    p.add_argument("--screenshots", action="store_true")
    p.add_argument("--out", default="out/judge_agreement.md", help="'' to print only")
    p.add_argument("--train-seeds", type=int, default=0,
                   help="fine-tune the local judge on this many seeds of train-task episodes")
    p.add_argument("--train-steps", type=int, default=600)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--eval-split", choices=("test", "train"), default="test",
                   help="measure on the held-out tasks (default) or on the train tasks")
    a = p.parse_args(argv)
    kinds = tuple(k for k in a.kinds.split(",") if k)
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        raise SystemExit(f"--kinds: unknown {bad}; known: {list(KINDS)}")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    s = Settings(a.model, a.base_url, a.model_name, a.seeds, kinds, a.max_new_tokens,
                 a.screenshots, a.out or None, a.train_seeds, a.train_steps, a.lr,
                 a.eval_split)
    rows, what, seconds, skipped = measure(s)
    command = "python examples/judge_agreement.py " + shlex.join(
        argv if argv is not None else sys.argv[1:])
    text = report(rows, what, seconds, command.strip(), skipped, s.eval_split)
    print(text)
    if s.out:
        Path(s.out).parent.mkdir(parents=True, exist_ok=True)
        Path(s.out).write_text(text)


if __name__ == "__main__":
    main()
