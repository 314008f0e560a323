"""People's judgments of recorded episodes: stored beside the episodes, and what they add up
to (each judge's success rate by category, agreement between judges as Cohen's kappa).

Layout, inside a results folder (any trajectory dataset folder, e.g. what ``phoneworld
eval`` or ``python -m phoneworld_gym.baselines.collect --screenshots`` writes)::

    RESULTS_DIR/judgments/<judge>.jsonl   one line per judgment, appended, never rewritten

A line is ``{"episode_id", "judge", "success", "reason", "time"}``, written with a single
``write`` on a file opened for appending, so that lines never interleave. The last line for
an episode is the judge's judgment of it (a judge may change their mind); a torn last line
(a crash mid-write) is skipped.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

JUDGMENTS = "judgments"
#: a judge's name: it names their file
JUDGE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
#: the longest reason kept
MAX_REASON = 2000


@dataclasses.dataclass(frozen=True)
class Judgment:
    """One judge's verdict on one episode."""

    episode_id: str
    judge: str
    success: bool
    reason: str = ""
    time: str = ""


def check_judge(name: str) -> str:
    """``name`` if it can name a judge (letters, digits, ``_.-``, up to 64), else
    ``ValueError`` saying what would do."""
    if not isinstance(name, str) or not JUDGE_NAME.fullmatch(name):
        raise ValueError(f"a judge's name is 1 to 64 letters, digits, '_', '.' or '-' (not "
                         f"starting with a symbol), got {name!r}")
    return name


def judgment_file(results_dir: str | os.PathLike[str], judge: str) -> Path:
    """Where ``judge``'s judgments of ``results_dir`` are kept."""
    return Path(results_dir) / JUDGMENTS / f"{check_judge(judge)}.jsonl"


def record_judgment(results_dir: str | os.PathLike[str], judge: str, episode_id: str,
                    success: bool, reason: str = "") -> Judgment:
    """Append one judgment (atomically: one ``write`` of one line); the judgment."""
    if not isinstance(success, bool):
        raise ValueError(f"success must be true or false, got {success!r}")
    if not isinstance(reason, str):
        raise ValueError(f"reason must be text, got {type(reason).__name__}")
    reason = reason.strip()
    if len(reason) > MAX_REASON:
        raise ValueError(f"a reason has at most {MAX_REASON} characters, got {len(reason)}")
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    j = Judgment(episode_id, check_judge(judge), success, reason, now)
    path = judgment_file(results_dir, judge)
    path.parent.mkdir(exist_ok=True)
    line = (json.dumps(dataclasses.asdict(j), ensure_ascii=False, sort_keys=True) + "\n")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        data = line.encode("utf-8")
        if os.fstat(fd).st_size and not _ends_with_newline(path):
            data = b"\n" + data  # a torn line before: do not join it
        os.write(fd, data)
    finally:
        os.close(fd)
    return j


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def read_judgments(results_dir: str | os.PathLike[str], judge: str) -> dict[str, Judgment]:
    """``judge``'s judgments by episode id (the last one of each episode wins)."""
    path = judgment_file(results_dir, judge)
    out: dict[str, Judgment] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            j = Judgment(str(d["episode_id"]), str(d["judge"]), d["success"],
                         str(d.get("reason", "")), str(d.get("time", "")))
            if not isinstance(j.success, bool):
                raise ValueError(f"success is {j.success!r}")
        except (ValueError, KeyError, TypeError) as e:
            log.warning("%s line %d is unreadable (%s); skipped", path, n, e)
            continue
        out[j.episode_id] = j
    return out


def judges(results_dir: str | os.PathLike[str]) -> list[str]:
    """The judges who have judged episodes of ``results_dir``, by name."""
    folder = Path(results_dir) / JUDGMENTS
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.jsonl") if JUDGE_NAME.fullmatch(p.stem))


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float:
    """Cohen's kappa of two judges' success/failure labels of the same episodes:
    ``(p_o - p_e) / (1 - p_e)``, the agreement beyond what chance gives. NaN when it is
    undefined (both judges gave every episode one and the same label)."""
    if len(a) != len(b):
        raise ValueError(f"the two judges must label the same episodes: {len(a)} vs {len(b)}")
    n = len(a)
    if n == 0:
        return math.nan
    p_o = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(map(bool, a)) / n, sum(map(bool, b)) / n
    p_e = pa * pb + (1 - pa) * (1 - pb)
    if p_e >= 1.0:
        return math.nan
    return (p_o - p_e) / (1 - p_e)


def _rate(k: int, n: int) -> dict[str, Any]:
    from phoneworld_gym.baselines.report import wilson

    lo, hi = wilson(k, n)
    return {"n": n, "success": k, "rate": k / n if n else None, "ci": [lo, hi]}


def judgments_report(results_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """What the judgments of ``results_dir`` say, as JSON-ready data:

    - ``judges``: for each judge, the episodes judged, the judged success rate with its 95%
      Wilson interval overall and by category, and how often they agree with the verifier
      (where the episode has the verifier's result);
    - ``pairs``: for each two judges, the episodes both judged, their raw agreement and
      Cohen's kappa (None when undefined);
    - ``verifier``, ``verifier_all``: the verifier's success by category and over all
      episodes that have its result, for comparison.
    """
    from phoneworld_gym.web.episodes import EpisodeFolder

    folder = EpisodeFolder(results_dir)
    eps = {e["episode_id"]: e for e in folder.episodes()}
    cats = sorted({str(e["category"]) for e in eps.values()})
    by_judge = {name: {k: j for k, j in read_judgments(results_dir, name).items() if k in eps}
                for name in judges(results_dir)}
    out: dict[str, Any] = {"results_dir": str(results_dir), "episodes": len(eps),
                           "judges": {}, "pairs": [], "verifier": {}}
    for name, js in by_judge.items():
        k = sum(j.success for j in js.values())
        row = {**_rate(k, len(js)), "by_category": {}}
        for c in cats:
            in_c = [j for e, j in js.items() if eps[e]["category"] == c]
            if in_c:
                row["by_category"][c] = _rate(sum(j.success for j in in_c), len(in_c))
        checked = [(j.success, eps[e]["verifier_success"]) for e, j in js.items()
                   if eps[e]["verifier_success"] is not None]
        agree = sum(x == y for x, y in checked)
        row["agrees_with_verifier"] = {"n": len(checked), "agree": agree,
                                       "rate": agree / len(checked) if checked else None}
        out["judges"][name] = row
    names = sorted(by_judge)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            common = sorted(set(by_judge[a]) & set(by_judge[b]))
            la = [by_judge[a][e].success for e in common]
            lb = [by_judge[b][e].success for e in common]
            kappa = cohen_kappa(la, lb)
            out["pairs"].append({
                "judges": [a, b], "n": len(common),
                "agreement": sum(x == y for x, y in zip(la, lb)) / len(common) if common
                else None,
                "kappa": None if math.isnan(kappa) else kappa})
    verified = [e for e in eps.values() if e["verifier_success"] is not None]
    out["verifier_all"] = _rate(sum(bool(e["verifier_success"]) for e in verified),
                                len(verified))
    for c in cats:
        ver_c = [e for e in verified if e["category"] == c]
        if ver_c:
            out["verifier"][c] = _rate(sum(bool(e["verifier_success"]) for e in ver_c),
                                       len(ver_c))
    return out


def judgments_markdown(report: dict[str, Any]) -> str:
    """A report of :func:`judgments_report` as a Markdown section (``## Human judgments``),
    for a results folder's ``report.md``."""
    def pct(r: dict[str, Any]) -> str:
        if not r["n"]:
            return "-"
        lo, hi = r["ci"]
        return f"{r['success']}/{r['n']} = {100 * r['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"

    lines = ["## Human judgments", "",
             f"{report['episodes']} episodes in `{report['results_dir']}`; "
             f"{len(report['judges'])} judges.", ""]
    if not report["judges"]:
        return "\n".join(lines + ["No judgments yet (`phoneworld judge RESULTS_DIR`).", ""])
    cats = sorted({c for r in report["judges"].values() for c in r["by_category"]})
    names = sorted(report["judges"])
    lines += ["Judged success (95% Wilson interval):", "",
              "| category | " + " | ".join(names) + " | verifier |",
              "|---|" + "---|" * (len(names) + 1)]
    for c in cats + ["all"]:
        cells = [pct(report["judges"][n] if c == "all" else
                     report["judges"][n]["by_category"].get(c, {"n": 0})) for n in names]
        ver = report["verifier_all"] if c == "all" else report["verifier"].get(c, {"n": 0})
        lines.append(f"| {c} | " + " | ".join(cells) + f" | {pct(ver)} |")
    lines.append("")
    for n in names:
        a = report["judges"][n]["agrees_with_verifier"]
        if a["n"]:
            lines.append(f"- {n} agrees with the verifier on {a['agree']}/{a['n']} episodes.")
    for p in report["pairs"]:
        a, b = p["judges"]
        if not p["n"]:
            lines.append(f"- {a} and {b} have judged no episode in common.")
            continue
        kappa = "undefined (one label for everything)" if p["kappa"] is None \
            else f"{p['kappa']:.3f}"
        lines.append(f"- {a} and {b}: {p['n']} episodes judged by both, agreement "
                     f"{100 * p['agreement']:.1f}%, Cohen's kappa {kappa}.")
    return "\n".join(lines) + "\n"
