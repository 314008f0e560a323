"""Next-action accuracy on demonstrations: does a checkpoint pick the demonstrated action?

Episodes take minutes and say only whether the whole run succeeded. This check takes seconds
and says where a model goes wrong: every step of a trajectory dataset (oracle or human
demonstrations, :mod:`phoneworld_gym.baselines.collect`) is shown to an
:class:`~phoneworld_gym.baselines.lm_agent.LMAgent` with the demonstration's own history
(teacher forcing), and its greedy action is compared with the demonstrated one. Results
are counted by task and by step position (the first step, which only opens the right app,
and the later ones), so a model that ignores the goal shows as a first-step accuracy near
the share of the most common app.

    python -m phoneworld_gym.baselines.stepacc --model out/recipe/checkpoints/sft \\
        --data data/heldout --constrained

Prompts are the agent's own (the same history, candidates and chat template as in an
episode), so a step counts as right exactly when the agent would take that action there.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.prompt import Turn, format_action
from phoneworld_gym.contract import Action

#: The dataset columns the check reads.
COLUMNS = ("episode_id", "step", "goal", "tree", "action", "action_error", "task")


@dataclasses.dataclass(frozen=True)
class StepResult:
    """One demonstrated step: the action shown, the action the model chose."""

    episode_id: str
    task: str
    step: int
    expected: str
    predicted: str

    @property
    def correct(self) -> bool:
        return self.expected == self.predicted


def step_accuracy(agent: Any, ds: Any, *, limit: int | None = None) -> list[StepResult]:
    """Every step of ``ds`` (a trajectory dataset) through ``agent`` with the demonstrated
    history; ``limit`` caps the number of episodes (the first ones, in dataset order).

    ``agent`` is an :class:`~phoneworld_gym.baselines.lm_agent.LMAgent` (or anything with
    its ``reset``/``act``/``history``); its history is replaced after each step by the
    demonstrated action and its error, so each prompt is the one the demonstration saw."""
    missing = [c for c in COLUMNS if c not in ds.column_names]
    if missing:
        raise ValueError(f"a trajectory dataset needs the columns {missing}; got "
                         f"{ds.column_names}")
    shots = getattr(agent, "screenshots", False)
    if shots and "screenshot" not in ds.column_names:
        raise ValueError("the agent reads screenshots; this dataset was collected without them")
    from phoneworld_gym.baselines.data import episodes_of

    cols = ds.select_columns(list(COLUMNS)).to_dict()
    results: list[StepResult] = []
    for episode, rows in list(episodes_of(ds).items())[:limit]:
        agent.reset(cols["goal"][rows[0]])
        for i in rows:
            try:
                shown = Action.from_json(json.loads(cols["action"][i]))
            except (ValueError, TypeError) as e:
                raise ValueError(f"row {i} (episode {episode}, step {cols['step'][i]}): the "
                                 f"action is not AndroidWorld JSON: {e}") from e
            obs: dict[str, Any] = {"a11y": cols["tree"][i], "goal": cols["goal"][i]}
            if shots:
                obs["screenshot"] = _array(ds[i]["screenshot"])
            chosen = agent.act(obs)
            results.append(StepResult(str(episode), str(cols["task"][i]), int(cols["step"][i]),
                                      format_action(shown), format_action(chosen)))
            # teacher forcing: the next prompt shows what the demonstration did, not the model
            agent.history[-1] = Turn(shown, cols["action_error"][i] or "")
    return results


def _array(image: Any) -> Any:
    import numpy as np

    return np.asarray(image.convert("RGB"))


def summarize(results: Sequence[StepResult]) -> dict[str, dict[str, int]]:
    """``{group: {"correct": n, "steps": m}}`` for ``all``, ``first step``, ``later steps``
    and each task."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"correct": 0, "steps": 0})
    for r in results:
        for key in ("all", "first step" if r.step == 0 else "later steps", r.task):
            out[key]["correct"] += r.correct
            out[key]["steps"] += 1
    return dict(out)


def row_order(keys: Iterable[str]) -> list[str]:
    """Summary keys in table order: the overall rows first, then the tasks by name."""
    keys = list(dict.fromkeys(keys))
    head = [k for k in ("all", "first step", "later steps") if k in keys]
    return head + sorted(k for k in keys if k not in head)


def table(summary: Mapping[str, Mapping[str, int]]) -> str:
    """The summary as a Markdown table (the overall rows first, then tasks by name)."""
    rows = ["| steps | right | accuracy |", "|---|---:|---:|"]
    for key in row_order(summary):
        c, n = summary[key]["correct"], summary[key]["steps"]
        rows.append(f"| {key} | {c}/{n} | {100 * c / n:.1f}% |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(prog="python -m phoneworld_gym.baselines.stepacc",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--model", required=True, help="a local model folder")
    p.add_argument("--data", required=True, help="a trajectory dataset folder (collect)")
    p.add_argument("--constrained", action="store_true",
                   help="the model writes one of the screen's candidate actions")
    p.add_argument("--episodes", type=int, default=None, help="at most this many episodes")
    p.add_argument("--device", default="cpu")
    p.add_argument("--json", default=None, help="also write every step's result here")
    a = p.parse_args(argv)
    from phoneworld_gym.baselines.data import load
    from phoneworld_gym.baselines.lm_agent import LMAgent

    try:
        ds = load(a.data)
        agent = LMAgent(a.model, temperature=0.0, max_new_tokens=40, device=a.device,
                        constrained=a.constrained)
        results = step_accuracy(agent, ds, limit=a.episodes)
    except (OSError, ValueError) as e:
        p.exit(2, f"error: {e}\n")
    summary = summarize(results)
    print(table(summary))
    if a.json:
        Path(a.json).write_text(json.dumps(
            {"summary": summary, "steps": [dataclasses.asdict(r) for r in results]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
