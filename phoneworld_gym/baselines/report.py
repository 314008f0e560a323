"""The recipe's report: success by task category per stage, with Wilson intervals and mean
episode lengths, as Markdown (``report.md``), JSON (``report.json``) and PNG plots.

The input is a flat list of evaluated episodes (:class:`EvalRecord`), each tagged with the
stage that produced the policy (``sft``, ``real_rl``, ...), the world it ran in (``mock``,
``field``) and the split (``train``: train tasks on unseen seeds; ``test``: held-out tasks;
``test_wordings``: train tasks in their held-out wordings; ``phoneworld_gym.task.SELECTIONS``).
Everything in the report is computed from those records, so a table cell can be checked
against the episodes it counts.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.task import SELECTION_TEXT

#: the paper's categories, in its order; the report shows those that occur in the records
CATEGORY_ORDER = ("app", "mini-app", "cross-app", "long-horizon", "information-retrieval")


@dataclasses.dataclass(frozen=True)
class EvalRecord:
    """One evaluated episode."""

    stage: str
    world: str
    split: str
    task: str
    category: str
    seed: int
    success: bool
    steps: int
    reward: float = 0.0


@dataclasses.dataclass(frozen=True)
class Cell:
    """Aggregate over a group of episodes: successes of n, the rate, its 95% Wilson interval
    and the mean episode length."""

    n: int
    successes: int
    rate: float
    ci_low: float
    ci_high: float
    mean_steps: float

    def markdown(self) -> str:
        """``45.0% [23.1, 68.5] (9/20), 6.2 steps``."""
        if self.n == 0:
            return "-"
        return (f"{100 * self.rate:.1f}% [{100 * self.ci_low:.1f}, {100 * self.ci_high:.1f}] "
                f"({self.successes}/{self.n}), {self.mean_steps:.1f} steps")


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Chosen over the normal approximation because it stays inside [0, 1] and is sensible at
    0/n and n/n, which small per-category samples hit often."""
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at 0/n and n/n the bound is exactly 0 or 1 (rounding would leave 1e-17 off)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def diff_interval(k1: int, n1: int, k2: int, n2: int, z: float = 1.959964
                  ) -> tuple[float, float, float]:
    """The difference of two success rates ``k2/n2 - k1/n1`` and its 95% interval by
    Newcombe's hybrid score method (from the two Wilson intervals). It treats the samples as
    independent; for stages evaluated on the same episodes it is on the conservative side."""
    if n1 == 0 or n2 == 0:
        raise ValueError(f"both groups need episodes, got n1={n1}, n2={n2}")
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    return (d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
            d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


#: stage comparisons the report states when both stages are present: (from, to)
GAINS = (("random", "sft"), ("sft", "real_rl"), ("real_rl", "mixed_rl"), ("sft", "mixed_rl"),
         ("real_rl_more", "mixed_rl"))


def gains_table(summary: Mapping[str, Any], stages: Sequence[str]) -> str:
    """Success differences between stages (all categories together) with 95% intervals."""
    pairs = [(a, b) for a, b in GAINS if a in stages and b in stages]
    if not pairs:
        return ""
    lines = ["| world, split | " + " | ".join(f"{b} - {a}" for a, b in pairs) + " |",
             "|---|" + "---:|" * len(pairs)]
    for world, splits in summary.items():
        for split, cats in splits.items():
            cells = []
            for a, b in pairs:
                ca, cb = cats["all"].get(a), cats["all"].get(b)
                if ca is None or cb is None:
                    cells.append("-")
                    continue
                d, lo, hi = diff_interval(ca["successes"], ca["n"], cb["successes"], cb["n"])
                cells.append(f"{100 * d:+.1f} pt [{100 * lo:+.1f}, {100 * hi:+.1f}]")
            lines.append(f"| {world}, {split} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def paired_gain(before: Sequence[bool], after: Sequence[bool]) -> dict[str, float]:
    """The gain ``mean(after) - mean(before)`` over paired episodes (same task and seed), its
    95% interval (normal approximation on the per-pair differences, kept within [-1, 1]) and
    McNemar's exact
    two-sided p-value (from the discordant pairs: ``up`` failed before and succeeds after,
    ``down`` the reverse)."""
    if len(before) != len(after) or not before:
        raise ValueError("before and after must be non-empty and paired (same length)")
    b = [float(bool(x)) for x in before]
    a = [float(bool(x)) for x in after]
    d = [y - x for x, y in zip(b, a)]
    n = len(d)
    mean = sum(d) / n
    if n > 1:
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        half = 1.959964 * math.sqrt(var / n)
    else:
        half = float("inf")
    up = sum(1 for x, y in zip(b, a) if y == 1 and x == 0)
    down = sum(1 for x, y in zip(b, a) if y == 0 and x == 1)
    k, m = min(up, down), up + down
    p = 1.0 if m == 0 else min(1.0, 2 * sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m)
    return {"gain": mean, "low": max(-1.0, mean - half), "high": min(1.0, mean + half), "n": n,
            "up": up, "down": down, "p_mcnemar": p}


def paired_gains(records: Sequence[EvalRecord], stages: Sequence[str]
                 ) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
    """``[world, split][category or "all"]["b - a"]`` -> :func:`paired_gain` for each pair of
    :data:`GAINS` present, over the episodes both stages played (same world, split, task and
    seed)."""
    pairs = [(a, b) for a, b in GAINS if a in stages and b in stages]
    by_key: dict[tuple[str, str, str, int], dict[str, bool]] = defaultdict(dict)
    cats: dict[tuple[str, str, str, int], str] = {}
    for r in records:
        key = (r.world, r.split, r.task, r.seed)
        by_key[key][r.stage] = bool(r.success)
        cats[key] = r.category
    out: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for a, b in pairs:
        groups: dict[tuple[str, str], list[tuple[bool, bool]]] = defaultdict(list)
        for key, got in by_key.items():
            if a in got and b in got:
                world, split = key[0], key[1]
                groups[(f"{world}, {split}", cats[key])].append((got[a], got[b]))
                groups[(f"{world}, {split}", "all")].append((got[a], got[b]))
        for (ws, cat), rows in groups.items():
            out.setdefault(ws, {}).setdefault(cat, {})[f"{b} - {a}"] = paired_gain(
                [x for x, _ in rows], [y for _, y in rows])
    return out


def paired_table(gains: Mapping[str, Mapping[str, Mapping[str, Mapping[str, float]]]]) -> str:
    """Markdown of :func:`paired_gains`: rows world, split and category; a column per pair."""
    columns = list(dict.fromkeys(c for cats in gains.values() for by in cats.values()
                                 for c in by))
    if not columns:
        return ""
    lines = ["| world, split | category | " + " | ".join(columns) + " |",
             "|---|---|" + "---:|" * len(columns)]
    for ws, cats in gains.items():
        names = ordered([c for c in cats if c != "all"], CATEGORY_ORDER) + ["all"]
        for cat in names:
            if cat not in cats:
                continue
            cells = []
            for c in columns:
                g = cats[cat].get(c)
                cells.append("-" if g is None else
                             f"{100 * g['gain']:+.1f} [{100 * g['low']:+.1f}, "
                             f"{100 * g['high']:+.1f}] ({g['up']:.0f} up, {g['down']:.0f} down, "
                             f"p {g['p_mcnemar']:.3f})")
            name = "**all**" if cat == "all" else cat
            lines.append(f"| {ws} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def aggregate(records: Sequence[EvalRecord]) -> Cell:
    """The :class:`Cell` of a group of episodes."""
    n = len(records)
    k = sum(bool(r.success) for r in records)
    lo, hi = wilson(k, n)
    steps = sum(r.steps for r in records) / n if n else 0.0
    return Cell(n, k, k / n if n else 0.0, lo, hi, steps)


def ordered(values: Iterable[str], order: Sequence[str]) -> list[str]:
    """``values`` deduplicated, in ``order`` first and then alphabetically."""
    seen = set(values)
    return [v for v in order if v in seen] + sorted(seen - set(order))


def summarise(records: Sequence[EvalRecord], stages: Sequence[str] | None = None
              ) -> dict[str, Any]:
    """Nested aggregates: ``[world][split][category or "all"][stage] -> Cell`` as dicts.

    ``stages`` fixes the column order (default: the order stages first appear)."""
    if stages is None:
        stages = list(dict.fromkeys(r.stage for r in records))
    groups: dict[tuple[str, str, str, str], list[EvalRecord]] = defaultdict(list)
    for r in records:
        groups[(r.world, r.split, r.category, r.stage)].append(r)
        groups[(r.world, r.split, "all", r.stage)].append(r)
    out: dict[str, Any] = {}
    for world in ordered((r.world for r in records), ("mock", "field")):
        out[world] = {}
        for split in ordered((r.split for r in records if r.world == world),
                             ("train", "test", "test_wordings")):
            rows = [r for r in records if r.world == world and r.split == split]
            cats = ordered((r.category for r in rows), CATEGORY_ORDER) + ["all"]
            out[world][split] = {
                cat: {stage: dataclasses.asdict(aggregate(groups[(world, split, cat, stage)]))
                      for stage in stages if groups.get((world, split, cat, stage))}
                for cat in cats}
    return out


def markdown_tables(summary: Mapping[str, Any], stages: Sequence[str]) -> str:
    """One table per world and split: rows are categories (and all), columns stages."""
    parts = []
    for world, splits in summary.items():
        for split, cats in splits.items():
            what = SELECTION_TEXT.get(split)
            parts.append(f"### {world}, {split} split" + (f" ({what})" if what else "") + "\n")
            parts.append("| category | " + " | ".join(stages) + " |")
            parts.append("|---|" + "---:|" * len(stages))
            for cat, by_stage in cats.items():
                cells = [Cell(**by_stage[s]).markdown() if s in by_stage else "-"
                         for s in stages]
                name = "**all**" if cat == "all" else cat
                parts.append(f"| {name} | " + " | ".join(cells) + " |")
            parts.append("")
    return "\n".join(parts)


def plot_success(summary: Mapping[str, Any], stages: Sequence[str], out_dir: Path
                 ) -> list[Path]:
    """A grouped bar chart per world and split (bars: stages; groups: categories) with the
    Wilson intervals as error bars. Returns the PNG paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    for world, splits in summary.items():
        for split, cats in splits.items():
            names = list(cats)
            fig, ax = plt.subplots(figsize=(1.6 + 1.4 * len(names), 3.6))
            width = 0.8 / max(1, len(stages))
            for j, stage in enumerate(stages):
                xs, ys, lo, hi = [], [], [], []
                for i, cat in enumerate(names):
                    cell = cats[cat].get(stage)
                    if cell is None:
                        continue
                    xs.append(i + (j - (len(stages) - 1) / 2) * width)
                    ys.append(100 * cell["rate"])
                    lo.append(100 * (cell["rate"] - cell["ci_low"]))
                    hi.append(100 * (cell["ci_high"] - cell["rate"]))
                ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=stage)
            ax.set_xticks(range(len(names)), names, rotation=15)
            ax.set_ylim(0, 100)
            ax.set_ylabel("success % (95% Wilson CI)")
            ax.set_title(f"{world}, {split} split")
            ax.legend(fontsize=8)
            fig.tight_layout()
            path = out_dir / f"success_{world}_{split}.png"
            fig.savefig(path, dpi=100)
            plt.close(fig)
            paths.append(path)
    return paths


def plot_curves(curves: Mapping[str, Sequence[float]], out_dir: Path, name: str,
                ylabel: str) -> Path | None:
    """Training curves (one line per stage, x = update number); None when all are empty."""
    curves = {k: list(v) for k, v in curves.items() if len(v)}
    if not curves:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.2))
    for stage, ys in curves.items():
        ax.plot(range(1, len(ys) + 1), ys, label=stage)
    ax.set_xlabel("update")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / f"{name}.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def step_accuracy_table(stages: Mapping[str, Mapping[str, Mapping[str, int]]]) -> str:
    """Per-stage step accuracy (:func:`~phoneworld_gym.baselines.stepacc.summarize` of each
    stage) as one Markdown table: the overall rows first, then the tasks by name."""
    from phoneworld_gym.baselines.stepacc import row_order

    if not stages:
        raise ValueError("no stages to tabulate")
    names = list(stages)
    rows = ["| steps | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for key in row_order(k for summary in stages.values() for k in summary):
        cells = []
        for name in names:
            cell = stages[name].get(key)
            if cell is None or not cell["steps"]:
                cells.append("-")
            else:
                c, n = cell["correct"], cell["steps"]
                cells.append(f"{c}/{n} ({100 * c / n:.1f}%)")
        rows.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def task_table(records: Sequence[EvalRecord], stages: Sequence[str]) -> str:
    """Successes by task: one row per (world, split, task), its category, then ``k/n`` per
    stage (``-`` where a stage did not play it): which tasks a stage moved, and which stayed
    at 0 (no reward spread for RL to use)."""
    counts: dict[tuple[str, str, str], dict[str, list[int]]] = defaultdict(dict)
    category: dict[str, str] = {}
    for r in records:
        cell = counts[(r.world, r.split, r.task)].setdefault(r.stage, [0, 0])
        cell[0] += bool(r.success)
        cell[1] += 1
        category[r.task] = r.category
    worlds = ordered((w for w, _, _ in counts), ("mock", "field"))
    splits = ordered((s for _, s, _ in counts), ("train", "test", "test_wordings"))
    cats = list(CATEGORY_ORDER)
    rows = ["| world, split | task | category | " + " | ".join(stages) + " |",
            "|---|---|---|" + "---:|" * len(stages)]
    for key in sorted(counts, key=lambda k: (worlds.index(k[0]), splits.index(k[1]),
                                            cats.index(category[k[2]])
                                            if category[k[2]] in cats else len(cats), k[2])):
        world, split, task = key
        cells = [f"{c[0]}/{c[1]}" if (c := counts[key].get(stage)) else "-" for stage in stages]
        rows.append(f"| {world}, {split} | {task} | {category[task]} | " + " | ".join(cells)
                    + " |")
    return "\n".join(rows)


def _num(row: Mapping[str, Any], key: str, fmt: str) -> str:
    """``row[key]`` formatted with ``fmt``, or ``-`` where it is not a number."""
    value = row.get(key)
    return format(value, fmt) if isinstance(value, (int, float)) else "-"


def rl_updates_table(meta: Mapping[str, Any], stages: Sequence[str]) -> str:
    """Each RL stage's updates (``meta[stage]["history"]``): sampled reward and success, the
    groups kept for their reward spread of those drawn, the clipped fraction and seconds.
    Empty when no stage has a history."""
    rows = ["| stage | update | reward | success | groups with spread | clipped | seconds |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for stage in stages:
        history = (meta.get(stage) or {}).get("history") if isinstance(meta.get(stage),
                                                                       Mapping) else None
        for h in history or ():
            kept, drawn = h.get("kept"), h.get("drawn")
            spread = f"{kept}/{drawn}" if kept is not None and drawn is not None else "-"
            rows.append(f"| {stage} | {h.get('update', '-')} | {_num(h, 'reward', '.2f')} | "
                        f"{_num(h, 'success', '.2f')} | {spread} | "
                        f"{_num(h, 'clipped', '.3f')} | {_num(h, 'seconds', '.0f')} |")
    return "\n".join(rows) if len(rows) > 2 else ""


def write_report(records: Sequence[EvalRecord], out_dir: str | Path, *,
                 stages: Sequence[str] | None = None, title: str = "Recipe report",
                 meta: Mapping[str, Any] | None = None,
                 curves: Mapping[str, Mapping[str, Sequence[float]]] | None = None
                 ) -> dict[str, Any]:
    """Write ``report.md``, ``report.json`` and the PNG plots into ``out_dir``.

    ``meta`` (config, wall times, ...) goes into both files as given; ``curves`` maps a curve
    name (``sft_loss``, ``rl_reward``) to per-stage series. Returns the JSON document."""
    if not records:
        raise ValueError("no evaluation records to report")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stages = list(stages) if stages is not None else list(dict.fromkeys(r.stage for r in records))
    unknown = sorted({r.stage for r in records} - set(stages))
    if unknown:
        raise ValueError(f"records have stages {unknown} not in stages={stages}")
    summary = summarise(records, stages)
    plots = [p.name for p in plot_success(summary, stages, out)]
    for name, series in (curves or {}).items():
        path = plot_curves(series, out, name, name.replace("_", " "))
        if path is not None:
            plots.append(path.name)
    doc = {"title": title, "stages": stages, "summary": summary, "plots": plots,
           "meta": dict(meta or {}), "curves": {k: {s: list(v) for s, v in c.items()}
                                                for k, c in (curves or {}).items()},
           "episodes": [dataclasses.asdict(r) for r in records]}
    (out / "report.json").write_text(json.dumps(doc, indent=1, default=str))
    lines = [f"# {title}", "",
             "Success by task category after each stage: rate, 95% Wilson interval, "
             "successes/episodes, mean episode length (steps).", "",
             markdown_tables(summary, stages)]
    paired = paired_gains(records, stages)
    doc["paired_gains"] = paired
    (out / "report.json").write_text(json.dumps(doc, indent=1, default=str))
    table = paired_table(paired)
    if table:
        lines += ["## Paired gains between stages", "",
                  "Every stage plays the same tasks on the same seeds greedily, so stages are "
                  "compared episode by episode: the gain in percentage points with a 95% "
                  "interval on the per-episode differences, the episodes that went from failure "
                  "to success (up) and back (down), and McNemar's exact two-sided p-value.",
                  "", table, ""]
    gains = gains_table(summary, stages)
    if gains:
        lines += ["## Gains between stages, unpaired", "",
                  "Difference in success (all categories), percentage points, with a 95% "
                  "interval (Newcombe's hybrid score method), treating the stages' episodes "
                  "as independent samples (wider than the paired interval).", "", gains, ""]
    lines += ["## By task", "",
              "Successes of the evaluation episodes by task (greedy, the same seeds for every "
              "stage).", "", task_table(records, stages), ""]
    updates = rl_updates_table(meta or {}, stages)
    if updates:
        lines += ["## RL updates", "",
                  "Per update of each RL stage: the sampled episodes' mean reward and success, "
                  "the groups with a reward spread (kept) of those drawn, the fraction of "
                  "action tokens whose ratio was clipped, and the update's wall time.", "",
                  updates, ""]
    steps = (meta or {}).get("step_accuracy")
    if steps:
        lines += ["## Step accuracy", "",
                  f"Each stage's greedy action against the oracle's on every step of "
                  f"{steps['episodes']} oracle episodes (train tasks, clean mock world, "
                  f"evaluation seeds {steps['seeds']}), each prompt with the oracle's own "
                  f"history: {steps['steps']} steps. A first step only opens the goal's app.",
                  "", step_accuracy_table(steps["stages"]), ""]
    if meta:
        lines += ["## Run", "", "```json", json.dumps(dict(meta), indent=1, default=str), "```",
                  ""]
    lines += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    (out / "report.md").write_text("\n".join(lines))
    return doc
