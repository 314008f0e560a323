"""How often does a language-model judge agree with the verifiers?

Runs episodes on the held-out test-split tasks (the oracle's: successes; near misses and the
random agent's: mostly failures), asks the judge about each one from what a real-phone judge
sees (goal, actions, last screens), and compares its verdicts with the verifiers' outcomes:
precision and recall of "success" per task category. Writes a Markdown section.

    python examples/judge_agreement.py                       # the untrained tiny model
    python examples/judge_agreement.py --model PATH          # a local model folder
    python examples/judge_agreement.py --base-url http://127.0.0.1:8000/v1 --model-name NAME
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.agents import OracleAgent, RandomAgent
from phoneworld_gym.baselines.judge import Judge, record_episode
from phoneworld_gym.contract import Action
from phoneworld_gym.env import PhoneEnv
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
    """

    model: str | None = None
    base_url: str | None = None
    model_name: str | None = None
    seeds: int = 2
    kinds: tuple[str, ...] = KINDS
    max_new_tokens: int = 48
    screenshots: bool = False
    out: str | None = "docs/results_judge.md"


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
    """The judge and a line saying what it runs on."""
    if s.base_url:
        from phoneworld_gym.baselines.openai_agent import OpenAIChat

        if not s.model_name:
            raise SystemExit("--base-url needs --model-name")
        chat = OpenAIChat(s.base_url, s.model_name, max_tokens=s.max_new_tokens)
        return Judge(chat, screenshots=s.screenshots), f"`{s.model_name}` at {s.base_url}"
    from phoneworld_gym.baselines.lm_agent import LocalModel

    path = s.model
    what = f"local model `{path}`"
    if path is None:
        from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

        path = tempfile.mkdtemp(prefix="tiny_judge_")
        build_tiny(path, oracle_corpus(seeds=range(1)))
        what = ("the tiny model of `baselines/tiny.py` (2 layers, width 128, tokenizer trained "
                "on train-task oracle prompts), **untrained**")
    judge = Judge(LocalModel.load(path), screenshots=s.screenshots,
                  max_new_tokens=s.max_new_tokens)
    return judge, what


def measure(s: Settings) -> tuple[list[dict[str, Any]], str, float]:
    """Every test task x kind x seed: the verifier's outcome and the judge's verdict."""
    judge, what = make_judge(s)
    tasks = [t for t, cls in all_tasks().items() if cls.split == "test"]
    env = PhoneEnv(tasks, split="test", obs_mode="all" if s.screenshots else "a11y")
    rows = []
    start = time.perf_counter()
    for task in tasks:
        for kind in s.kinds:
            for seed in range(s.seeds):
                agent: Any = {"oracle": OracleAgent, "near_miss": NearMissAgent}[kind](env) \
                    if kind != "random" else RandomAgent(seed=seed)
                record, info = record_episode(env, agent, seed=seed, task=task)
                verdict = judge.judge_episode(record)
                rows.append({"task": task, "category": info["category"], "kind": kind,
                             "seed": seed, "verified": bool(info["success"]),
                             "judged": verdict.success,
                             "unparsable": verdict.reason.startswith("unparsable"),
                             "reason": verdict.reason})
    env.close()
    return rows, what, time.perf_counter() - start


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


def report(rows: Sequence[dict[str, Any]], what: str, seconds: float, command: str) -> str:
    """The Markdown section for docs/results.md."""
    n_tasks = len({r["task"] for r in rows})
    return f"""## The judge against the verifiers

A judge reads only what a judge of a real phone could: the goal, the agent's actions (with
the phone's errors and the final answer) and the element lists of the last two screens
(`baselines/judge.py`). It never reads the verifier, the probes or app state. Its reply must
be exactly `{{"success": true|false, "reason": "..."}}`; anything else counts as a failure
verdict. Episodes: the {n_tasks} held-out test-split tasks with their test wordings; per task
and seed, the oracle's episode (a success), the near miss (almost right, then a claim of
success: a failure) and the random agent's (a failure unless it stumbles on the goal).
Precision: of the episodes the judge passed, the share the verifier passed; recall: of the
episodes the verifier passed, the share the judge passed.

Judge: {what}. {len(rows)} episodes judged in {seconds:.0f} s.

```
{command}
```

By task category:

{table(rows, "category")}

By episode maker:

{table(rows, "kind")}

{reading(rows)}
"""


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", help="a local model folder (default: the untrained tiny model)")
    p.add_argument("--base-url", help="an OpenAI-compatible endpoint instead")
    p.add_argument("--model-name", help="the endpoint's model id")
    p.add_argument("--seeds", type=int, default=2)
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--max-new-tokens", type=int, default=48)
    p.add_argument("--screenshots", action="store_true")
    p.add_argument("--out", default="docs/results_judge.md", help="'' to print only")
    a = p.parse_args(argv)
    kinds = tuple(k for k in a.kinds.split(",") if k)
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        raise SystemExit(f"--kinds: unknown {bad}; known: {list(KINDS)}")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    s = Settings(a.model, a.base_url, a.model_name, a.seeds, kinds, a.max_new_tokens,
                 a.screenshots, a.out or None)
    rows, what, seconds = measure(s)
    command = "python examples/judge_agreement.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    text = report(rows, what, seconds, command.strip())
    print(text)
    if s.out:
        Path(s.out).write_text(text)


if __name__ == "__main__":
    main()
