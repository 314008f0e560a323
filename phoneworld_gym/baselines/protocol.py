"""The real-phone protocol of the paper: tasks on third-party apps, played on a phone, judged
by people (and, reported apart, by a scripted judge).

Apps such as WhatsApp or Booking.com have no state probe, so these tasks have no verifier: an
episode is recorded and people decide from its screens whether it succeeded. A **task list**
says, per task, what a judge needs to decide and what the phone needs to start::

    # YAML (a list under ``tasks:``) or JSONL (one object a line)
    tasks:
      - id: settings-wifi-off            # letters, digits, '.', '_', '-': unique in the list
        app: Settings                    # the app's name, for people
        package: com.android.settings    # the Android package it starts in (or needs)
        app_version: "14"                # optional: the version the task was written for
        category: app                    # one of phoneworld_gym.task.CATEGORIES
        start: app                       # home (home screen) or app (the package opened)
        instruction: Turn Wi-Fi off.     # the agent's goal, word for word
        success: Wi-Fi is shown off in Settings.   # what counts as success, for judges
        max_steps: 15                    # the step budget, 1..200

:func:`load_task_list` reads and checks a list; every problem names the file, the entry and
the field. ``phoneworld eval --task-list FILE --env PhoneWorld/Device-v0 [--serial S]
--agent ...`` plays each entry (:func:`run_task_list`): the phone goes home through the
device's reset, the app is opened by package when ``start: app``, the instruction is the goal,
and every episode is recorded into the results folder with success *unknown*. Then:

- ``phoneworld judge OUT``: people judge the episodes (``OUT/judgments/<judge>.jsonl``);
- ``--judge-with package.module:function`` (or :func:`model_judge` over
  :class:`~phoneworld_gym.baselines.judge.Judge`): a scripted judge, whose verdicts go to
  ``OUT/scripted_judgments/<name>.jsonl`` and are never mixed with people's.

``report.md``/``report.json`` (rewritten by :func:`write_report`, and by every rerun of the
same command) are the paper's table: success by category with counts and 95% Wilson intervals
from people's judgments, with Cohen's kappa between judges, and the scripted judge's apart.
The starter list is ``phoneworld_gym/baselines/tasklists/realphone_tasks.yaml``
(:data:`STARTER_LIST`).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.report import CATEGORY_ORDER, ordered, wilson
from phoneworld_gym.task import CATEGORIES

#: the starter list of 150+ real-phone tasks shipped with the package
STARTER_LIST = Path(__file__).with_name("tasklists") / "realphone_tasks.yaml"
#: where a start state may be
STARTS = ("home", "app")
#: the fields of an entry: required, then optional
REQUIRED = ("id", "app", "package", "category", "start", "instruction", "success", "max_steps")
OPTIONAL = ("app_version", "notes")
MAX_STEPS = 200
#: what the results folder keeps of the list it played
LIST_COPY = "task_list.json"
#: the scripted judges' verdicts, apart from people's (``judgments/``)
SCRIPTED = "scripted_judgments"
#: in the report: what an episode's success is before anyone judges it
UNVERIFIED = "unverified: judge these episodes"

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}")
_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")


class TaskListError(ValueError):
    """A task list with problems; ``problems`` holds one line per problem, each naming the
    file, the entry and the field."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        shown = self.problems[:20]
        more = len(self.problems) - len(shown)
        super().__init__(f"{len(self.problems)} problem(s) in the task list:\n  "
                         + "\n  ".join(shown) + (f"\n  ... and {more} more" if more else ""))


@dataclasses.dataclass(frozen=True)
class ListedTask:
    """One task of a task list (see the module docstring for the fields)."""

    id: str
    app: str
    package: str
    category: str
    start: str
    instruction: str
    success: str
    max_steps: int
    app_version: str | None = None
    notes: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


def _entries(path: Path) -> list[tuple[str, Any]]:
    """``(where, entry)`` for each entry of the file (YAML or JSONL), or TaskListError."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append((f"line {n}", json.loads(line)))
            except json.JSONDecodeError as e:
                raise TaskListError([f"{path}: line {n}: not JSON ({e.msg})"]) from None
        return out
    if path.suffix not in (".yaml", ".yml"):
        raise TaskListError([f"{path}: a task list is .yaml, .yml or .jsonl, got "
                             f"{path.suffix or 'no suffix'!r}"])
    import yaml

    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise TaskListError([f"{path}: not YAML ({' '.join(str(e).split())})"]) from None
    tasks = doc.get("tasks") if isinstance(doc, dict) else doc
    if not isinstance(tasks, list):
        raise TaskListError([f"{path}: expected a list of tasks under 'tasks:', got "
                             f"{type(tasks).__name__}"])
    return [(f"entry {i + 1}", e) for i, e in enumerate(tasks)]


def check_entry(entry: Any) -> list[tuple[str, str]]:
    """``(field, problem)`` for each thing wrong with one entry (empty when it is valid)."""
    if not isinstance(entry, dict):
        return [("", f"an entry is a mapping of fields, got {type(entry).__name__}")]
    out: list[tuple[str, str]] = []
    for f in REQUIRED:
        if f not in entry or entry[f] is None or entry[f] == "":
            out.append((f, "missing"))
    for f in sorted(set(entry) - set(REQUIRED) - set(OPTIONAL), key=str):
        out.append((str(f), f"unknown field; fields: {', '.join(REQUIRED + OPTIONAL)}"))
    for f in ("id", "app", "package", "category", "start", "instruction", "success", "notes"):
        v = entry.get(f)
        if v not in (None, "") and not isinstance(v, str):
            out.append((f, f"must be text, got {v!r}"))
    v = entry.get("app_version")
    if v is not None and (isinstance(v, bool) or not isinstance(v, (str, int, float))):
        out.append(("app_version", f"must be text such as \"14.2\", got {v!r}"))
    if isinstance(entry.get("id"), str) and entry["id"] and not _ID.fullmatch(entry["id"]):
        out.append(("id", f"{entry['id']!r}: use 1-80 letters, digits, '.', '_' or '-' "
                          f"(it names files), starting with a letter or digit"))
    pkg = entry.get("package")
    if isinstance(pkg, str) and pkg and not _PACKAGE.fullmatch(pkg):
        out.append(("package", f"{pkg!r} is not an Android package name (e.g. "
                               f"com.android.settings)"))
    cat = entry.get("category")
    if isinstance(cat, str) and cat and cat not in CATEGORIES:
        out.append(("category", f"unknown category {cat!r}; categories: "
                                f"{', '.join(CATEGORIES)}"))
    start = entry.get("start")
    if isinstance(start, str) and start and start not in STARTS:
        out.append(("start", f"{start!r}: use 'home' (the home screen) or 'app' (the "
                             f"package opened at its start page)"))
    for f in ("instruction", "success"):
        v = entry.get(f)
        if isinstance(v, str) and v and not v.strip():
            out.append((f, "is blank"))
    steps = entry.get("max_steps")
    if steps not in (None, "") and (isinstance(steps, bool) or not isinstance(steps, int)
                                    or not 1 <= steps <= MAX_STEPS):
        out.append(("max_steps", f"must be an int from 1 to {MAX_STEPS}, got {steps!r}"))
    return out


def load_task_list(path: str | Path) -> list[ListedTask]:
    """The tasks of a task list file (YAML or JSONL), checked: a :class:`TaskListError`
    lists every problem (unknown category, duplicate id, missing instruction, ...) as
    ``FILE: entry N (id X): field F: problem``."""
    p = Path(path)
    if not p.is_file():
        raise TaskListError([f"{p}: no such file"])
    problems: list[str] = []
    tasks: list[ListedTask] = []
    first: dict[str, str] = {}
    entries = _entries(p)
    if not entries:
        raise TaskListError([f"{p}: the list has no tasks"])
    for where, entry in entries:
        tid = entry.get("id") if isinstance(entry, dict) else None
        name = f"{p}: {where}" + (f" (id {tid!r})" if isinstance(tid, str) and tid else "")
        found = check_entry(entry)
        if isinstance(tid, str) and tid:
            if tid in first:
                found.append(("id", f"duplicate id {tid!r} (first at {first[tid]})"))
            else:
                first[tid] = where
        problems += [f"{name}: " + (f"field '{f}': " if f else "") + why for f, why in found]
        if not found:
            e = dict(entry)
            if e.get("app_version") is not None:
                e["app_version"] = str(e["app_version"])
            e = {k: v.strip() if isinstance(v, str) else v for k, v in e.items()}
            tasks.append(ListedTask(**e))
    if problems:
        raise TaskListError(problems)
    return tasks


# -- playing a list on a phone ---------------------------------------------------------------
@dataclasses.dataclass
class ListedEpisode:
    """What a scripted judge gets: the task (with its success statement), the episode id and
    what a judge of a real phone sees (:class:`~phoneworld_gym.baselines.judge.EpisodeRecord`:
    goal, actions with the errors the phone reported, each screen's tree; the final
    screenshot when recorded), and the agent's final status and answer."""

    task: ListedTask
    episode_id: str
    record: Any
    status: str | None = None
    answer: str | None = None


#: ``episode -> bool``, ``(bool, reason)`` or a ``Verdict``-like object (``success``,
#: ``reason``)
ScriptedJudge = Callable[[ListedEpisode], Any]


def open_phone(serial: str | None = None, port: int | None = None) -> Any:
    """An :class:`~phoneworld_gym.real_device.adb_device.AdbDevice` on the phone ``serial``
    (else ``$ANDROID_SERIAL``), or on a virtual adb phone started for it when neither is set;
    ``close()`` it (which stops a virtual phone)."""
    import os

    from phoneworld_gym.real_device.adb_device import AdbDevice

    serial = serial or os.environ.get("ANDROID_SERIAL") or None
    kw: dict[str, Any] = {} if port is None else {"port": port}
    if serial is not None:
        return AdbDevice(serial, **kw)
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    phone = VirtualPhone(port=free_port()).start()
    try:
        device = AdbDevice(phone.serial, **kw)
    except BaseException:
        phone.stop()
        raise
    device.own(phone)
    return device


def play_listed(device: Any, agent: Any, task: ListedTask, key: Any, *, screenshots: bool,
                max_steps: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play one listed task on ``device`` and return its rows (the trajectory dataset's
    columns, as ``baselines.collect.run_episode`` writes them) and a summary whose ``success``
    and ``reward`` are None: nothing verifies it. ``EpisodeFailed`` when the phone fails or
    the start app does not open."""
    from phoneworld_gym.baselines.collect import EpisodeFailed, png
    from phoneworld_gym.contract import Action, parse_ui_elements
    from phoneworld_gym.device import DeviceError
    from phoneworld_gym.wrappers import describe_elements

    budget = max_steps or task.max_steps
    try:
        device.reset(key.seed)
        if task.start == "app":
            err = device.execute(Action(action_type="open_app", app_name=task.package))
            if err:
                raise EpisodeFailed(f"the start app {task.package} did not open: {err}")
    except DeviceError as e:
        raise EpisodeFailed(f"the phone failed at the start: {e}") from e

    def observe() -> dict[str, Any]:
        obs = {"a11y": device.a11y_xml(), "goal": task.instruction}
        if screenshots or getattr(agent, "wants_screenshot", True):
            obs["screenshot"] = device.screenshot()
        return obs

    info = {"app": task.app, "package": task.package, "app_version": task.app_version,
            "start": task.start, "success": task.success}
    base = {"episode_id": key.episode_id, "source": key.source, "agent": key.agent,
            "env_id": key.env_id, "task": task.id, "category": task.category,
            "task_split": "test", "template": task.instruction,
            "params": json.dumps(info, sort_keys=True, ensure_ascii=False), "seed": key.seed}
    rows: list[dict[str, Any]] = []
    status = answer = None
    start = time.perf_counter()
    try:
        obs = observe()
        agent.reset(task.instruction)
        while True:
            action = Action.from_any(agent.act(obs))
            row = {**base, "step": len(rows), "goal": task.instruction, "tree": obs["a11y"],
                   "elements": describe_elements(parse_ui_elements(obs["a11y"])),
                   "action": action.to_json_str(), "action_type": action.action_type}
            if screenshots:
                row["screenshot"] = png(obs["screenshot"])
            terminated = action.action_type in ("status", "answer")
            error = "" if terminated else device.execute(action)
            truncated = not terminated and len(rows) + 1 >= budget
            row.update(reward=0.0, done=terminated or truncated, terminated=terminated,
                       truncated=truncated, success=False, action_error=error)
            rows.append(row)
            if terminated:
                status = action.goal_status if action.action_type == "status" else "complete"
                answer = action.text if action.action_type == "answer" else None
            if terminated or truncated:
                break
            obs = observe()
    except DeviceError as e:
        raise EpisodeFailed(f"the phone failed at step {len(rows)}: {e}") from e
    summary = {"reward": None, "success": None, "steps": len(rows), "failure": "",
               "status": status, "answer": answer,
               "seconds": round(time.perf_counter() - start, 4)}
    return rows, summary


def run_task_list(tasks: Sequence[ListedTask], out_dir: str | Path, spec: Any, *,
                  agent_factory: Callable[[Any, str, int, int], Any] | None = None,
                  judges: Mapping[str, ScriptedJudge] | None = None, device: Any = None,
                  list_path: str | Path | None = None, progress: bool = True
                  ) -> dict[str, Any]:
    """Play every episode of ``tasks`` x ``spec.seeds`` x ``spec.attempts`` not yet in
    ``out_dir`` on a phone (``device``, else :func:`open_phone` with ``spec.serial``), judge
    the episodes with each scripted judge that has not yet, and write the report; returns it.

    ``spec`` is an :class:`~phoneworld_gym.baselines.evalspec.EvalSpec` whose ``tasks`` are
    the listed ids; ``agent_factory`` defaults to its agent (``(env, task, seed, attempt) ->
    Agent``; env is None here)."""
    from tqdm import tqdm

    from phoneworld_gym.baselines.collect import EpisodeFailed
    from phoneworld_gym.baselines.data import EpisodeStore
    from phoneworld_gym.baselines.evalspec import make_agent_factory

    out = Path(out_dir)
    by_id = {t.id: t for t in tasks}
    factory = agent_factory or make_agent_factory(spec)
    keys = spec.keys()
    failed: list[dict[str, Any]] = []
    own = device is None
    with EpisodeStore(out, screenshots=spec.screenshots) as store:
        _write_list(out, tasks, list_path, spec)
        todo = [k for k in keys if not store.has(k)]
        bar = tqdm(total=len(keys), initial=len(keys) - len(todo), unit="ep",
                   dynamic_ncols=True, disable=not progress, file=sys.stderr, desc="eval")
        try:
            if todo and device is None:
                device = open_phone(spec.serial, spec.adb_port)
            for key in todo:
                agent = factory(None, key.task, key.seed, key.attempt)
                try:
                    rows, summary = play_listed(device, agent, by_id[key.task], key,
                                                screenshots=spec.screenshots,
                                                max_steps=spec.max_steps)
                except EpisodeFailed as e:
                    failed.append({"task": key.task, "seed": key.seed, "attempt": key.attempt,
                                   "error": str(e)})
                else:
                    store.commit(key, rows, summary)
                bar.update(1)
        finally:
            bar.close()
            if own and device is not None:
                device.close()
    for name, judge in (judges or {}).items():
        judge_folder(out, judge, name=name)
    return write_report(out, failed=failed)


def _write_list(out: Path, tasks: Sequence[ListedTask], list_path: str | Path | None,
                spec: Any) -> None:
    doc = {"list": str(list_path) if list_path else None, "agent": spec.agent,
           "agent_key": spec.agent_name, "env_id": spec.env_id, "serial": spec.serial,
           "seeds": list(spec.seeds), "attempts": spec.attempts, "max_steps": spec.max_steps,
           "tasks": [t.as_dict() for t in tasks]}
    (out / LIST_COPY).write_text(json.dumps(doc, indent=1, ensure_ascii=False))


def _read_list(out: Path) -> dict[str, Any]:
    path = out / LIST_COPY
    if not path.exists():
        raise ValueError(f"{str(out)!r} holds no played task list (no {LIST_COPY}); make one "
                         f"with phoneworld eval --task-list FILE --env PhoneWorld/Device-v0")
    return dict(json.loads(path.read_text()))


# -- scripted judges -------------------------------------------------------------------------
def load_judge(spec: str) -> tuple[str, ScriptedJudge]:
    """``(name, function)`` from ``package.module:function`` (``ValueError`` saying what is
    wrong). The name, which names its verdict file, is ``module.function``."""
    mod_name, _, fn_name = spec.partition(":")
    if not mod_name or not fn_name:
        raise ValueError(f"--judge-with wants package.module:function, got {spec!r}")
    try:
        fn = getattr(importlib.import_module(mod_name), fn_name)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"--judge-with {spec}: {e}") from None
    if not callable(fn):
        raise ValueError(f"--judge-with {spec}: {fn_name} is not callable")
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{mod_name}.{fn_name}")[:64]
    return name, fn


def model_judge(judge: Any) -> ScriptedJudge:
    """A scripted judge from a :class:`~phoneworld_gym.baselines.judge.Judge`: it reads the
    instruction with the task's success statement, the actions and the last screens."""
    def by_model(ep: ListedEpisode) -> Any:
        goal = f"{ep.task.instruction}\nWhat counts as success: {ep.task.success}"
        return judge.judge(goal, ep.record.turns, ep.record.screens,
                           screenshot=ep.record.final_screenshot)
    return by_model


def listed_episodes(out_dir: str | Path) -> list[ListedEpisode]:
    """The recorded episodes of a played list, as scripted judges see them."""
    import pyarrow.parquet as pq

    from phoneworld_gym.baselines.data import SHARDS, manifest
    from phoneworld_gym.baselines.prompt import Turn
    from phoneworld_gym.contract import Action

    out = Path(out_dir)
    tasks = {t["id"]: ListedTask(**t) for t in _read_list(out)["tasks"]}
    episodes = []
    for e in manifest(out):
        task = tasks.get(e["key"]["task"])
        if task is None:
            continue
        t = pq.read_table(out / SHARDS / e["file"]).to_pylist()
        from phoneworld_gym.baselines.judge import EpisodeRecord

        record = EpisodeRecord(task.instruction)
        for row in t:
            record.screens.append(row["tree"])
            record.turns.append(Turn(Action.from_json(row["action"]), row["action_error"]))
        shot = t[-1].get("screenshot") if t else None
        if isinstance(shot, dict) and shot.get("bytes"):  # the last screen the agent saw
            import io

            from PIL import Image

            record.final_screenshot = Image.open(io.BytesIO(shot["bytes"])).convert("RGB")
        episodes.append(ListedEpisode(task, e["episode_id"], record, e.get("status"),
                                      e.get("answer")))
    return episodes


def _verdict(result: Any) -> tuple[bool, str]:
    if isinstance(result, bool):
        return result, ""
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], bool):
        return result[0], str(result[1])
    success = getattr(result, "success", None)
    if isinstance(success, bool):
        return success, str(getattr(result, "reason", ""))
    raise ValueError(f"a scripted judge returns a bool, (bool, reason) or a verdict with "
                     f".success, got {result!r}")


def judge_folder(out_dir: str | Path, judge: ScriptedJudge, *, name: str) -> int:
    """Judge every episode of ``out_dir`` that ``name`` has not judged yet; the verdicts go
    to ``OUT/scripted_judgments/<name>.jsonl`` (never to people's ``judgments/``). Returns
    how many were judged now."""
    from phoneworld_gym.web.judging import check_judge

    check_judge(name)
    path = Path(out_dir) / SCRIPTED / f"{name}.jsonl"
    done = set(_read_verdicts(path))
    path.parent.mkdir(exist_ok=True)
    n = 0
    with open(path, "a", encoding="utf-8") as f:
        for ep in listed_episodes(out_dir):
            if ep.episode_id in done:
                continue
            success, reason = _verdict(judge(ep))
            f.write(json.dumps({"episode_id": ep.episode_id, "judge": name,
                                "success": success, "reason": reason}, ensure_ascii=False)
                    + "\n")
            n += 1
    return n


def _read_verdicts(path: Path) -> dict[str, bool]:
    out: dict[str, bool] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                d = json.loads(line)
                out[str(d["episode_id"])] = bool(d["success"])
            except (ValueError, KeyError, TypeError):
                continue  # a torn line
    return out


# -- the report ------------------------------------------------------------------------------
def _cell(labels: Sequence[bool]) -> dict[str, Any]:
    n, k = len(labels), sum(labels)
    lo, hi = wilson(k, n)
    return {"n": n, "successes": k, "rate": k / n if n else None, "ci_low": lo, "ci_high": hi}


def cell_text(c: Mapping[str, Any]) -> str:
    """``45.3% [37.6, 53.3] (68/150)``, or ``-`` for no episodes."""
    if not c["n"]:
        return "-"
    return (f"{100 * c['rate']:.1f}% [{100 * c['ci_low']:.1f}, {100 * c['ci_high']:.1f}] "
            f"({c['successes']}/{c['n']})")


def _table(labels: Mapping[str, bool], category: Mapping[str, str]) -> dict[str, Any]:
    cats = ordered(category.values(), CATEGORY_ORDER)
    return {"by_category": {c: _cell([v for e, v in labels.items() if category[e] == c])
                            for c in cats},
            "overall": _cell(list(labels.values()))}


def realphone_results(out_dir: str | Path) -> dict[str, Any]:
    """The judged numbers of a played list, as JSON-ready data:

    - ``people``: judged success by category and overall, where an episode succeeded when
      more than half of the people who judged it say so (a tie is a failure), over the
      episodes at least one person judged; ``judges``: each person's own table;
      ``agreement``: raw agreement and Cohen's kappa for each pair of people;
    - ``scripted``: each scripted judge's table, apart.
    """
    from phoneworld_gym.baselines.data import manifest
    from phoneworld_gym.web.judging import judges, judgments_report, read_judgments

    out = Path(out_dir)
    listed = _read_list(out)
    cats = {t["id"]: t["category"] for t in listed["tasks"]}
    category = {e["episode_id"]: cats[e["key"]["task"]] for e in manifest(out)
                if e["key"]["task"] in cats}
    people = {name: {k: j.success for k, j in read_judgments(out, name).items()
                     if k in category} for name in judges(out)}
    votes: dict[str, list[bool]] = {}
    for labels in people.values():
        for e, v in labels.items():
            votes.setdefault(e, []).append(v)
    consensus = {e: sum(v) * 2 > len(v) for e, v in votes.items()}
    pairs = judgments_report(out)["pairs"] if len(people) > 1 else []
    scripted = {}
    folder = out / SCRIPTED
    if folder.is_dir():
        for path in sorted(folder.glob("*.jsonl")):
            verdicts = {e: v for e, v in _read_verdicts(path).items() if e in category}
            scripted[path.stem] = _table(verdicts, category)
    return {"episodes": len(category), "judged_by_people": len(consensus),
            "people": _table(consensus, {e: category[e] for e in consensus}),
            "judges": {n: _table(v, {e: category[e] for e in v}) for n, v in people.items()},
            "agreement": pairs, "scripted": scripted, "agent": listed.get("agent"),
            "list": listed.get("list"), "tasks": len(listed["tasks"])}


def _md_table(title: str, columns: Mapping[str, Mapping[str, Any]]) -> list[str]:
    cats = ordered((c for t in columns.values() for c in t["by_category"]), CATEGORY_ORDER)
    lines = [title, "", "| category | " + " | ".join(columns) + " |",
             "|---|" + "---:|" * len(columns)]
    for c in [*cats, "all"]:
        cells = [cell_text(t["overall"] if c == "all" else
                           t["by_category"].get(c, {"n": 0})) for t in columns.values()]
        lines.append(f"| {'**all**' if c == 'all' else c} | " + " | ".join(cells) + " |")
    return lines + [""]


def write_report(out_dir: str | Path, failed: Sequence[Mapping[str, Any]] = ()
                 ) -> dict[str, Any]:
    """``report.json`` and ``report.md`` of a played list from what is in ``out_dir`` now
    (episodes, people's judgments, scripted verdicts); the report document."""
    from phoneworld_gym.baselines.data import manifest

    out = Path(out_dir)
    res = realphone_results(out)
    listed = _read_list(out)
    tasks = {t["id"]: t for t in listed["tasks"]}
    eps = [e for e in manifest(out) if e["key"]["task"] in tasks]
    res["failed"] = list(failed)
    res["episodes_list"] = [{"episode_id": e["episode_id"], "task": e["key"]["task"],
                             "category": tasks[e["key"]["task"]]["category"],
                             "seed": e["key"]["seed"], "steps": e["rows"],
                             "status": e.get("status"), "answer": e.get("answer"),
                             "result": UNVERIFIED,
                             "success_means": tasks[e["key"]["task"]]["success"]}
                            for e in eps]
    (out / "report.json").write_text(json.dumps(res, indent=1, ensure_ascii=False))
    lines = [f"# Real-phone evaluation: {listed.get('agent')} on {listed.get('env_id')}", "",
             f"- **Task list**: {listed.get('list') or '(given in Python)'}: "
             f"{len(tasks)} tasks; {len(eps)} episodes recorded"
             + (f", {len(failed)} failed on the phone" if failed else "") + ".",
             f"- **Success**: {UNVERIFIED} (`phoneworld judge {out}`); these apps have no "
             "verifier.",
             f"- **Judged by people**: {res['judged_by_people']} of {len(eps)} episodes, by "
             f"{len(res['judges'])} judge(s). An episode succeeded when more than half of "
             "its judges say so (95% Wilson intervals).", ""]
    if res["judges"]:
        lines += _md_table("## People's judgments", {"judged success": res["people"],
                                                     **res["judges"]})
        for p in res["agreement"]:
            a, b = p["judges"]
            kappa = "undefined" if p["kappa"] is None else f"{p['kappa']:.3f}"
            agree = "-" if p["agreement"] is None else f"{100 * p['agreement']:.1f}%"
            lines.append(f"- {a} and {b}: {p['n']} episodes judged by both, agreement "
                         f"{agree}, Cohen's kappa {kappa}.")
        lines.append("")
    else:
        lines += ["## People's judgments", "", "None yet: `phoneworld judge "
                  f"{out} --judge NAME` (two judges give the agreement).", ""]
    if res["scripted"]:
        lines += _md_table("## Scripted judges (not people; reported apart)", res["scripted"])
    lines += ["## Episodes", "", f"Watch them step by step on the judging page (`phoneworld "
              f"judge {out}`); judge each against its task's success statement.", "",
              "| task | category | seed | steps | ended | result | success means |",
              "|---|---|---:|---:|---|---|---|"]
    for r in res["episodes_list"]:
        ended = r["status"] or "step budget"
        if r["answer"] is not None:
            ended = "answer: " + " ".join(str(r["answer"]).split())[:60].replace("|", "\\|")
        lines.append(f"| {r['task']} | {r['category']} | {r['seed']} | {r['steps']} | "
                     f"{ended} | {r['result']} | "
                     f"{' '.join(r['success_means'].split()).replace('|', '/')} |")
    if failed:
        lines += ["", "## Failed on the phone (a rerun tries them again)", ""]
        lines += [f"- {f['task']} seed {f['seed']}: {f['error']}" for f in failed]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return res


# -- the eval command's --task-list ----------------------------------------------------------
def run_cli(a: Any) -> int:
    """``phoneworld eval --task-list FILE ...`` (exit codes as ``eval``'s)."""
    from phoneworld_gym.baselines.collect import check_env_id, parse_seeds
    from phoneworld_gym.baselines.evalspec import EvalSpec, check_agent
    from phoneworld_gym.registration import DEVICE_ENV_IDS

    def error(msg: str) -> int:
        print(f"phoneworld: error: {msg}", file=sys.stderr)
        return 2

    try:
        tasks = load_task_list(a.task_list)
        check_agent(a.agent)
        check_env_id(a.env)
        if a.env not in DEVICE_ENV_IDS:
            raise ValueError(f"a task list plays on a phone: --env {next(iter(DEVICE_ENV_IDS))}"
                             f" (the virtual adb phone, or --serial), not {a.env}")
        if a.agent == "oracle":
            raise ValueError("listed tasks have no oracle; give random, checkpoint:PATH or "
                             "openai:MODEL")
        if a.tasks or a.category or a.app or a.split:
            raise ValueError("--task-list plays the whole list; leave out --tasks, "
                             "--category, --app and --split (edit the list instead)")
        if a.workers != 1 or a.ray:
            raise ValueError("--task-list plays on one phone: leave out --workers and --ray")
        if a.max_steps is not None and a.max_steps < 1:
            raise ValueError(f"--max-steps must be >= 1, got {a.max_steps}")
        judges = dict(load_judge(j) for j in (a.judge_with or []))
        seeds = (0,) if a.seeds == "0:3" else tuple(parse_seeds(a.seeds))
        spec = EvalSpec(agent=a.agent, env_id=a.env, tasks=tuple(t.id for t in tasks),
                        seeds=seeds, attempts=a.attempts, max_steps=a.max_steps,
                        screenshots=not a.no_screenshots, decoding=a.decoding,
                        temperature=a.temperature, base_url=a.base_url,
                        api_key_env=a.api_key_env,
                        screenshots_to_model=a.screenshots_to_model,
                        action_format=a.action_format, serial=a.serial, adb_port=a.adb_port,
                        selection={"task_list": a.task_list})
    except ValueError as e:
        return error(str(e) if isinstance(e, TaskListError) else " ".join(str(e).split()))
    try:
        doc = run_task_list(tasks, a.out, spec, judges=judges, list_path=a.task_list,
                            progress=not a.no_progress)
    except KeyboardInterrupt:
        print(f"interrupted; {a.out} keeps its finished episodes; the same command goes on "
              f"from there", file=sys.stderr)
        return 130
    print(f"{doc['episodes']} episodes recorded ({UNVERIFIED}: phoneworld judge {a.out}); "
          f"report: {Path(a.out) / 'report.md'}")
    return 1 if doc["failed"] else 0
