"""``phoneworld table``: one model's numbers side by side, from its result folders.

    phoneworld table --phoneworld out/eval_test [--androidworld out/aw] [--realphone out/phone]

- ``--phoneworld``: a ``phoneworld eval`` folder (its ``report.json``); the row says which
  split it is (the paper-style number is ``--split test``).
- ``--androidworld``: a folder holding :data:`ANDROIDWORLD_FILE` (or that file itself), the
  small JSON this command reads from an AndroidWorld run::

      {"model": "my-model",                      # optional, shown in the notes
       "episodes": [{"task": "ContactsAddContact", "success": 1.0},
                    {"task": "SimpleSmsSend", "success": false}, ...]}

  ``success`` is AndroidWorld's ``is_successful`` (a number in [0, 1], or true/false); an
  episode counts as a success when it is 1 (true). One entry per episode played (a task
  played three times has three entries). docs/evaluation.md shows how to write it from
  AndroidWorld's results.
- ``--realphone``: a folder of ``phoneworld eval --task-list`` (:mod:`.protocol`): people's
  judged success (with Cohen's kappa between judges), and each scripted judge on its own row.

Every row has the successes, the episodes and a 95% Wilson interval; ``--json`` prints the
rows as JSON instead of a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.report import wilson

#: the file an AndroidWorld results folder holds
ANDROIDWORLD_FILE = "androidworld_results.json"


def _row(benchmark: str, k: int, n: int, notes: str = "") -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"benchmark": benchmark, "successes": k, "n": n, "rate": k / n if n else None,
            "ci_low": lo, "ci_high": hi, "notes": notes}


def phoneworld_row(folder: str | Path) -> dict[str, Any]:
    """The row of a ``phoneworld eval`` folder (``ValueError`` when it has no report)."""
    path = Path(folder) / "report.json"
    if not path.is_file():
        raise ValueError(f"--phoneworld {folder}: no report.json (make it with phoneworld eval "
                         f"--split test --out {folder})")
    doc = json.loads(path.read_text())
    if "overall" not in doc or "split" not in doc:
        raise ValueError(f"{path} is not a phoneworld eval report (no overall/split)")
    o = doc["overall"]
    split = doc.get("split")
    name = "PhoneWorld (test split)" if split == "test" else f"PhoneWorld ({split or 'no'} split)"
    notes = f"agent {doc.get('agent')}" + ("" if split == "test" else
                                           "; not the test split: rerun with --split test")
    return _row(name, int(o["successes"]), int(o["n"]), notes)


def androidworld_row(folder: str | Path) -> dict[str, Any]:
    """The row of an AndroidWorld results folder (or file); ``ValueError`` naming what is
    wrong with it."""
    path = Path(folder)
    if path.is_dir():
        path = path / ANDROIDWORLD_FILE
    if not path.is_file():
        raise ValueError(f"--androidworld {folder}: no {ANDROIDWORLD_FILE} (see "
                         f"docs/evaluation.md for its shape)")
    try:
        doc = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err})") from None
    eps = doc.get("episodes") if isinstance(doc, dict) else None
    if not isinstance(eps, list):
        raise ValueError(f"{path}: expected {{\"episodes\": [{{\"task\": ..., \"success\": "
                         f"...}}, ...]}}")
    k = 0
    for i, e in enumerate(eps):
        s = e.get("success") if isinstance(e, dict) else None
        if isinstance(s, bool):
            s = float(s)
        if not isinstance(e, dict) or not isinstance(e.get("task"), str) \
                or not isinstance(s, (int, float)) or not 0 <= s <= 1:
            raise ValueError(f"{path}: episode {i}: wants a task name and a success in [0, 1] "
                             f"(or true/false), got {e!r}")
        k += s >= 1.0
    model = doc.get("model")
    tasks = len({e["task"] for e in eps})
    return _row("AndroidWorld", k, len(eps), f"{tasks} tasks" + (f"; model {model}"
                                                                 if model else ""))


def realphone_rows(folder: str | Path) -> list[dict[str, Any]]:
    """People's judged success of a played task list, then each scripted judge's."""
    from phoneworld_gym.baselines.protocol import realphone_results

    res = realphone_results(folder)
    o = res["people"]["overall"]
    kappas = ", ".join(f"{p['judges'][0]}/{p['judges'][1]} "
                       + ("undefined" if p["kappa"] is None else f"{p['kappa']:.2f}")
                       for p in res["agreement"])
    notes = f"{res['judged_by_people']}/{res['episodes']} episodes judged" + (
        f"; Cohen's kappa {kappas}" if kappas else "")
    rows = [_row(f"Real phone (people, {len(res['judges'])} judges)", o["successes"], o["n"],
                 notes)]
    for name, t in res["scripted"].items():
        rows.append(_row(f"Real phone (scripted judge {name})", t["overall"]["successes"],
                         t["overall"]["n"], "not people: reported apart"))
    return rows


def model_table(*, phoneworld: str | Path | None = None,
                androidworld: str | Path | None = None,
                realphone: str | Path | None = None) -> list[dict[str, Any]]:
    """The rows for the folders given (at least one)."""
    if phoneworld is None and androidworld is None and realphone is None:
        raise ValueError("give at least one of --phoneworld, --androidworld, --realphone")
    rows = []
    if phoneworld is not None:
        rows.append(phoneworld_row(phoneworld))
    if androidworld is not None:
        rows.append(androidworld_row(androidworld))
    if realphone is not None:
        rows += realphone_rows(realphone)
    return rows


def markdown(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as a Markdown table."""
    lines = ["| benchmark | success | 95% CI | successes/episodes | notes |",
             "|---|---:|---:|---:|---|"]
    for r in rows:
        rate = "-" if r["rate"] is None else f"{100 * r['rate']:.1f}%"
        ci = "-" if not r["n"] else f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
        lines.append(f"| {r['benchmark']} | {rate} | {ci} | {r['successes']}/{r['n']} | "
                     f"{r['notes']} |")
    return "\n".join(lines) + "\n"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``table`` command's arguments."""
    p.add_argument("--phoneworld", default=None, metavar="DIR",
                   help="a phoneworld eval folder (use --split test)")
    p.add_argument("--androidworld", default=None, metavar="DIR",
                   help=f"a folder with {ANDROIDWORLD_FILE} (or the file)")
    p.add_argument("--realphone", default=None, metavar="DIR",
                   help="a phoneworld eval --task-list folder, judged")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")


def run_cli(a: argparse.Namespace) -> int:
    """Print the table (exit 2 with one ``phoneworld: error:`` line for a bad folder)."""
    try:
        rows = model_table(phoneworld=a.phoneworld, androidworld=a.androidworld,
                           realphone=a.realphone)
    except ValueError as e:
        print(f"phoneworld: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    print(json.dumps(rows, indent=1) if a.json else markdown(rows), end="")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m phoneworld_gym.baselines.table``: the same as ``phoneworld table``."""
    p = argparse.ArgumentParser(prog="phoneworld table", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return run_cli(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
