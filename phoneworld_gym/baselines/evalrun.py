"""``phoneworld eval``: an agent over a selection of tasks and seeds, with a progress bar,
resumable, into a folder holding every episode and a report.

    phoneworld eval --agent oracle --split test --seeds 0:3 --out out/eval
    phoneworld eval --agent random --app Shopping --seeds 0:20 --workers 2 --out out/shop
    phoneworld eval --agent checkpoint:out/recipe/checkpoints/sft --decoding constrained \\
        --tasks ContactsStar,ClockEarliestAlarm --seeds 5000:5030 --out out/sft
    phoneworld eval --agent openai:qwen2.5-vl-7b --base-url http://127.0.0.1:8000/v1 \\
        --split test --category app --seeds 0:5 --screenshots-to-model --out out/qwen
    phoneworld eval --agent random --attempts 4 --tasks ContactsStar --seeds 0:10 --out out/p4
    phoneworld eval --agent openai:UI-TARS-1.5-7B --format uitars --base-url URL ...

Agents: ``oracle``, ``random``, ``checkpoint:PATH`` (a local model folder, played by
:class:`~phoneworld_gym.baselines.lm_agent.LMAgent`; ``--decoding`` and ``--temperature``
apply) and ``openai:MODEL`` (an OpenAI-compatible endpoint at ``--base-url``; the key is read
from the variable ``--api-key-env`` names, ``OPENAI_API_KEY`` by default; ``--format`` is the
model's own action format: ``qwen`` ``mobile_use`` calls, ``uitars``, ``guiowl``, ...,
docs/formats.md).

Selection: ``--split`` (``train``, ``test``: held-out templates only, ``test_wordings``: train
templates in their held-out wordings), ``--category``, ``--app`` (played in that app alone)
or ``--tasks`` (ids), intersected with what ``--env`` plays (default ``PhoneWorld/All-v0``;
``PhoneWorld/Device-v0`` plays on a phone: the virtual adb phone, or ``--serial``).
``--seeds`` are reset seeds (``0:10``, ``1,4,9``); ``--attempts k`` plays each instance k
times (agents that sample draw differently each time) and the report gives pass@k.
``--task-list FILE`` plays a real-phone task list instead (tasks on apps with no verifier,
recorded for people to judge; ``--judge-with MODULE:FUNCTION`` adds a scripted judge,
reported apart; see :mod:`phoneworld_gym.baselines.protocol` and docs/evaluation.md).

Output (``--out``): the episodes as a trajectory dataset (``manifest.jsonl``, ``episodes/``;
the same format ``baselines.collect`` writes and SFT reads), ``report.md`` and
``report.json`` (what was evaluated; success by category and by task with 95% Wilson
intervals; mean steps; pass@k; every episode with its failure text and replay), and
``replays/<episode>.html`` (``phoneworld replay`` makes GIFs too). A rerun with the same
command skips the finished episodes: a killed run goes on where it stopped, and the report
is the same as an uninterrupted run's. ``--workers N`` plays in N processes (``--ray``: Ray
tasks on the local or connected cluster); the results are the same as with one worker.

Exit status: 0 done, 1 some episodes failed on the device (listed; a rerun tries them
again), 2 a usage error (one ``phoneworld: error:`` line), 130 interrupted (what finished is
kept).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phoneworld_gym.baselines.evalspec import (  # noqa: F401 (part of this module's API)
    AGENT_FORMS,
    DECODINGS,
    EvalSpec,
    check_agent,
    make_agent_factory,
)
from phoneworld_gym.baselines.report import CATEGORY_ORDER, ordered, wilson
from phoneworld_gym.task import SELECTION_TEXT, SELECTIONS, get_task

if TYPE_CHECKING:  # the dataset modules load pyarrow and datasets: only when a run starts
    from phoneworld_gym.baselines.data import EpisodeKey

def make_eval_env(spec: EvalSpec) -> Any:
    """The env an evaluation plays (with the screenshot when the episodes keep it, or when an
    endpoint model is shown it)."""
    import gymnasium as gym

    from phoneworld_gym.registration import DEVICE_ENV_IDS

    kwargs: dict[str, Any] = {}
    if spec.split is not None:
        kwargs["split"] = spec.split
    if spec.max_steps is not None:
        kwargs["max_steps"] = spec.max_steps
    if spec.env_id in DEVICE_ENV_IDS:
        kwargs["tasks"] = list(spec.tasks)  # skips the phone-ready scan over every task
        if spec.serial is not None:
            kwargs["serial"] = spec.serial
        if spec.adb_port is not None:
            kwargs["port"] = spec.adb_port
    screen = spec.screenshots or spec.screenshots_to_model or spec.action_format != \
        "androidworld"
    return gym.make(spec.env_id, obs_mode="all" if screen else "a11y",
                    disable_env_checker=True, **kwargs)


def close_eval_env(env: Any) -> None:
    """Close the env and the device it made (a virtual adb phone started for it)."""
    env.close()
    close = getattr(getattr(env.unwrapped, "device", None), "close", None)
    if callable(close):
        close()


# -- one worker -----------------------------------------------------------------------------
class Player:
    """Plays episodes of one spec with one env and one agent factory (one per process)."""

    def __init__(self, spec: EvalSpec):
        self.spec = spec
        self.env = make_eval_env(spec)
        self.factory = make_agent_factory(spec)

    def play(self, key: EpisodeKey) -> tuple[EpisodeKey, list[dict[str, Any]] | None,
                                             dict[str, Any]]:
        """``(key, rows, summary)``; rows None when the device failed (summary: error)."""
        from phoneworld_gym.baselines.collect import EpisodeFailed, run_episode

        agent = self.factory(self.env, key.task, key.seed, key.attempt)
        try:
            rows, summary = run_episode(self.env, agent, key, screenshots=self.spec.screenshots)
        except EpisodeFailed as e:
            return key, None, {"error": str(e)}
        return key, rows, summary

    def close(self) -> None:
        close_eval_env(self.env)


_PLAYER: Player | None = None


def _init_worker(spec: EvalSpec) -> None:
    global _PLAYER
    _PLAYER = Player(spec)


def _play_in_worker(key: EpisodeKey) -> tuple[EpisodeKey, list[dict[str, Any]] | None,
                                              dict[str, Any]]:
    assert _PLAYER is not None, "worker not initialised"
    return _PLAYER.play(key)


def _played(spec: EvalSpec, keys: Sequence[EpisodeKey], workers: int, use_ray: bool,
            ray_cpus: float = 1.0
            ) -> Iterator[tuple[EpisodeKey, list[dict[str, Any]] | None, dict[str, Any]]]:
    """The results of ``keys`` as they finish, played in this process (1 worker), in worker
    processes, or in Ray actors."""
    if not keys:
        return
    if workers <= 1 and not use_ray:
        player = Player(spec)
        try:
            for key in keys:
                yield player.play(key)
        finally:
            player.close()
        return
    if use_ray:
        import ray
        from ray.util.multiprocessing import Pool

        if not ray.is_initialized():
            ray.init(include_dashboard=False, log_to_driver=False,
                     num_cpus=max(workers, 1))
        ray_pool = Pool(processes=workers, initializer=_init_worker, initargs=(spec,),
                        ray_remote_args={"num_cpus": ray_cpus})
        try:
            yield from ray_pool.imap_unordered(_play_in_worker, keys)
        finally:
            ray_pool.terminate()
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                             initargs=(spec,)) as pool:
        pending: set[Future[Any]] = set()
        todo = list(keys)
        try:
            while todo or pending:
                while todo and len(pending) < 2 * workers:
                    pending.add(pool.submit(_play_in_worker, todo.pop(0)))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield fut.result()
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise


# -- the run --------------------------------------------------------------------------------
def run_eval(spec: EvalSpec, out_dir: str | Path, *, workers: int = 1, use_ray: bool = False,
             progress: bool = True, replays: bool = True, ray_cpus: float = 1.0
             ) -> dict[str, Any]:
    """Play every episode of ``spec`` not yet in ``out_dir``, then write the report; returns
    the report document (``failed``: the episodes whose device failed). With ``use_ray``,
    ``workers`` Ray actors of ``ray_cpus`` CPUs each play (on the cluster Ray is connected
    to, else a local one started here)."""
    from tqdm import tqdm

    from phoneworld_gym.baselines.data import EpisodeKey, EpisodeStore, manifest

    out = Path(out_dir)
    keys = spec.keys()
    failed: list[dict[str, Any]] = []
    with EpisodeStore(out, screenshots=spec.screenshots) as store:
        todo = [k for k in keys if not store.has(k)]
        done_before = len(keys) - len(todo)
        planned = set(keys)
        wins = sum(bool(e.get("success")) for e in manifest(out)
                   if EpisodeKey.from_dict(e["key"]) in planned)
        bar = tqdm(total=len(keys), initial=done_before, unit="ep", dynamic_ncols=True,
                   disable=not progress, file=sys.stderr, desc="eval")
        finished = done_before

        def show() -> None:
            if finished:
                bar.set_postfix_str(f"success {100 * wins / finished:.1f}% ({wins}/{finished})",
                                    refresh=False)
        show()
        try:
            for key, rows, summary in _played(spec, todo, workers, use_ray, ray_cpus):
                if rows is None:
                    failed.append({"task": key.task, "seed": key.seed, "attempt": key.attempt,
                                   "error": summary["error"]})
                    bar.write(f"device failed: {key.task} seed {key.seed}: {summary['error']}")
                else:
                    store.commit(key, rows, summary)
                    finished += 1
                    wins += bool(summary["success"])
                show()
                bar.update(1)
        finally:
            bar.close()
    doc = write_eval_report(spec, out, failed=failed)
    if replays and spec.screenshots:
        write_replays(out, keys)
    return doc


def write_replays(out: Path, keys: Sequence[EpisodeKey]) -> None:
    """An HTML replay per finished episode that has none yet."""
    from phoneworld_gym.baselines.data import SHARDS, manifest
    from phoneworld_gym.baselines.replay import read_episode, write_html

    wanted = {k.episode_id for k in keys}
    for entry in manifest(out):
        eid = str(entry["episode_id"])
        page = out / "replays" / f"{eid}.html"
        if eid in wanted and not page.exists():
            write_html(read_episode(out / SHARDS / str(entry["file"])), page, entry)


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of an instance tried ``n`` times with ``c`` successes:
    ``1 - C(n-c, k) / C(n, k)``."""
    if not 0 < k <= n or not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 < k <= n and 0 <= c <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _cell(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    k = sum(bool(r["success"]) for r in rows)
    lo, hi = wilson(k, n)
    return {"n": n, "successes": k, "rate": k / n if n else 0.0, "ci_low": lo, "ci_high": hi,
            "mean_steps": sum(int(r["steps"]) for r in rows) / n if n else 0.0}


def _md_cell(c: Mapping[str, Any]) -> str:
    return (f"{100 * c['rate']:.1f}% [{100 * c['ci_low']:.1f}, {100 * c['ci_high']:.1f}] "
            f"({c['successes']}/{c['n']})")


def write_eval_report(spec: EvalSpec, out_dir: str | Path,
                      failed: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """``report.json`` and ``report.md`` from the committed episodes of ``spec`` in
    ``out_dir`` (episodes of other runs in the folder are left out). Nothing in it depends
    on timing or on the order episodes finished, so a resumed run's report equals an
    uninterrupted one's."""
    from phoneworld_gym.baselines.data import EpisodeKey, manifest

    out = Path(out_dir)
    by_key = {EpisodeKey.from_dict(e["key"]): e for e in manifest(out)}
    rows = []
    for key in spec.keys():
        e = by_key.get(key)
        if e is None:
            continue
        rows.append({"task": key.task, "category": get_task(key.task).category,
                     "seed": key.seed, "attempt": key.attempt, "success": bool(e["success"]),
                     "reward": float(e["reward"]), "steps": int(e["steps"]),
                     "failure": str(e.get("failure", "")), "episode_id": key.episode_id,
                     "replay": f"replays/{key.episode_id}.html"})
    planned = len(spec.keys())
    cats = ordered((r["category"] for r in rows), CATEGORY_ORDER)
    by_cat = {c: _cell([r for r in rows if r["category"] == c]) for c in cats}
    by_task = {t: _cell([r for r in rows if r["task"] == t]) for t in spec.tasks
               if any(r["task"] == t for r in rows)}
    overall = _cell(rows)
    passk: dict[str, Any] = {}
    if spec.attempts > 1:
        inst: dict[tuple[str, int], list[bool]] = defaultdict(list)
        for r in rows:
            inst[(r["task"], r["seed"])].append(r["success"])
        full = [v for v in inst.values() if len(v) == spec.attempts]
        for k in sorted({1, spec.attempts} | ({2} if spec.attempts > 2 else set())):
            vals = [pass_at_k(len(v), sum(v), k) for v in full]
            passk[f"pass@{k}"] = {"value": sum(vals) / len(vals) if vals else 0.0,
                                  "instances": len(vals)}
    selection = dict(spec.selection)
    split_text = SELECTION_TEXT.get(str(spec.split), "each task's canonical wording") \
        if spec.split else "each task's canonical wording (no split)"
    doc = {"agent": spec.agent, "agent_key": spec.agent_name, "env_id": spec.env_id,
           "split": spec.split, "split_means": split_text, "selection": selection,
           "tasks": list(spec.tasks), "seeds": list(spec.seeds), "attempts": spec.attempts,
           "max_steps": spec.max_steps, "planned": planned, "finished": len(rows),
           "overall": overall, "by_category": by_cat, "by_task": by_task, "pass_at_k": passk,
           "failed": list(failed), "episodes": rows}
    (out / "report.json").write_text(json.dumps(doc, indent=1, sort_keys=False))
    seeds = _seed_text(spec.seeds)
    cap = spec.max_steps or "each task's own budget"
    lines = [f"# Evaluation: {spec.agent} on {spec.env_id}", "",
             f"- **Evaluated**: {len(spec.tasks)} tasks x {len(spec.seeds)} seeds ({seeds})"
             + (f" x {spec.attempts} attempts" if spec.attempts > 1 else "")
             + f" = {planned} episodes; {len(rows)} finished"
             + (f", {len(failed)} failed on the device" if failed else "") + ".",
             f"- **Split**: {spec.split or 'none'}: {split_text}.",
             "- **Selected by**: " + (", ".join(f"{k} {v}" for k, v in selection.items())
                                      or "every task the env plays") + ".",
             f"- **Step cap**: {cap}.",
             "", f"**Success: {_md_cell(overall)}**, mean {overall['mean_steps']:.1f} steps "
             "(95% Wilson interval).", ""]
    if passk:
        lines += ["| " + " | ".join(passk) + " |", "|" + "---:|" * len(passk),
                  "| " + " | ".join(f"{100 * v['value']:.1f}% ({v['instances']} instances)"
                                    for v in passk.values()) + " |", ""]
    lines += ["## By category", "", "| category | success | mean steps |", "|---|---:|---:|"]
    lines += [f"| {c} | {_md_cell(v)} | {v['mean_steps']:.1f} |" for c, v in by_cat.items()]
    lines += ["", "## By task", "", "| task | category | success | mean steps |",
              "|---|---|---:|---:|"]
    lines += [f"| {t} | {get_task(t).category} | {_md_cell(v)} | {v['mean_steps']:.1f} |"
              for t, v in by_task.items()]
    lines += ["", "## Episodes", "", "| task | seed | attempt | result | steps | failure | "
              "replay |", "|---|---:|---:|---|---:|---|---|"]
    for r in rows:
        why = " ".join(r["failure"].split()).replace("|", "\\|")
        why = why if len(why) <= 120 else why[:119] + "\u2026"
        lines.append(f"| {r['task']} | {r['seed']} | {r['attempt']} | "
                     f"{'success' if r['success'] else 'failure'} | {r['steps']} | {why} | "
                     f"[replay]({r['replay']}) |")
    if failed:
        lines += ["", "## Failed on the device (a rerun tries them again)", ""]
        lines += [f"- {f['task']} seed {f['seed']}: {f['error']}" for f in failed]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    return doc


def _seed_text(seeds: Sequence[int]) -> str:
    s = list(seeds)
    if len(s) > 2 and s == list(range(s[0], s[-1] + 1)):
        return f"{s[0]}..{s[-1]}"
    return ", ".join(map(str, s[:12])) + (" ..." if len(s) > 12 else "")


# -- command line ---------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``eval`` command's arguments."""
    p.add_argument("--agent", required=True, help="oracle, random, checkpoint:PATH or "
                                                  "openai:MODEL")
    p.add_argument("--env", default="PhoneWorld/All-v0",
                   help="env id (default PhoneWorld/All-v0; PhoneWorld/Device-v0: a phone)")
    p.add_argument("--split", choices=SELECTIONS, default=None,
                   help="; ".join(f"{k}: {v}" for k, v in SELECTION_TEXT.items()))
    p.add_argument("--category", default=None, help="a task category, e.g. app, cross-app")
    p.add_argument("--app", default=None, help="tasks played in this app alone (name or label)")
    p.add_argument("--tasks", default=None, help="comma-separated task ids")
    p.add_argument("--seeds", default="0:3", help="'0:10' (end excluded), '1,4,9' or one int")
    p.add_argument("--attempts", type=int, default=1, help="tries per instance (pass@k)")
    p.add_argument("--max-steps", type=int, default=None, help="step cap per episode")
    p.add_argument("--workers", type=int, default=1, help="processes playing at once")
    p.add_argument("--ray", action="store_true", help="play in Ray workers")
    p.add_argument("--out", default="out/eval", help="results folder (default out/eval)")
    p.add_argument("--no-screenshots", action="store_true",
                   help="keep only trees (smaller; no replays)")
    p.add_argument("--no-replays", action="store_true", help="skip the HTML replays")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--decoding", choices=DECODINGS, default="constrained",
                   help="checkpoint agents: constrained (default), named (each element named "
                        "before its index; a checkpoint trained so), whole or free")
    p.add_argument("--temperature", type=float, default=0.0,
                   help="checkpoint and openai agents: 0 is greedy")
    p.add_argument("--base-url", default=None, help="openai agents: the API root")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY",
                   help="openai agents: the variable holding the key")
    p.add_argument("--screenshots-to-model", action="store_true",
                   help="openai agents: send the screenshot too (vision models)")
    p.add_argument("--format", default="androidworld", dest="action_format",
                   help="openai and checkpoint agents: the model's own action format: "
                        "androidworld (default), qwen, qwen3vl, uitars, uitars1, guiowl "
                        "(docs/formats.md); all but androidworld see the screenshot (a "
                        "checkpoint then needs --decoding free and a vision model)")
    p.add_argument("--serial", default=None, help="device ids: the phone's adb serial")
    p.add_argument("--adb-port", type=int, default=None, help="device ids: the adb server port")
    p.add_argument("--task-list", default=None, metavar="FILE",
                   help="play a real-phone task list (YAML or JSONL; "
                        "phoneworld_gym/baselines/protocol.py) on "
                        "--env PhoneWorld/Device-v0: episodes recorded unverified, for judges; "
                        "each task once unless --seeds is given")
    p.add_argument("--judge-with", action="append", default=None, metavar="MODULE:FUNCTION",
                   help="with --task-list: a scripted judge of the episodes, reported apart "
                        "from people's judgments (repeatable)")


def spec_from_args(a: argparse.Namespace) -> EvalSpec:
    """An :class:`EvalSpec` from parsed arguments (``ValueError`` for a bad one)."""
    from phoneworld_gym.baselines.collect import check_env_id, parse_seeds
    from phoneworld_gym.env import select_tasks

    check_agent(a.agent)
    check_env_id(a.env)
    if a.attempts < 1:
        raise ValueError(f"--attempts must be >= 1, got {a.attempts}")
    if a.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {a.workers}")
    if a.max_steps is not None and a.max_steps < 1:
        raise ValueError(f"--max-steps must be >= 1, got {a.max_steps}")
    if a.temperature < 0:
        raise ValueError(f"--temperature must be >= 0, got {a.temperature}")
    if a.serial is not None and a.workers > 1:
        raise ValueError("--serial names one phone; several workers cannot share it "
                         "(use --workers 1)")
    if a.agent.startswith("openai:") and not a.base_url:
        raise ValueError("--agent openai:MODEL needs --base-url")
    from phoneworld_gym import formats

    formats.get(a.action_format)  # a ValueError naming the formats for an unknown one
    if a.action_format != "androidworld" and not a.agent.startswith(("openai:",
                                                                     "checkpoint:")):
        raise ValueError(f"--format {a.action_format} is for openai:MODEL and "
                         f"checkpoint:PATH agents")
    if a.action_format != "androidworld" and a.agent.startswith("checkpoint:") \
            and a.decoding != "free":
        raise ValueError(f"--format {a.action_format} reads the model's free text: add "
                         f"--decoding free (constrained decoding writes AndroidWorld JSON)")
    tasks = [t.strip() for t in a.tasks.split(",") if t.strip()] if a.tasks else None
    try:
        ids = select_tasks(tasks, app=a.app, category=a.category, split=a.split)
    except KeyError as e:  # an unknown task id
        raise ValueError(str(e.args[0])) from None
    if tasks is not None and (a.app or a.category):
        from phoneworld_gym.env import resolve_app_name

        app = resolve_app_name(a.app) if a.app else None
        ids = [t for t in ids if (app is None or tuple(get_task(t).apps) == (app,))
               and (a.category is None or get_task(t).category == a.category)]
    if tasks is not None and a.split is not None:
        ids = [t for t in ids if get_task(t).in_selection(a.split)]
    if not ids:
        raise ValueError("no task matches the selection")
    ids = _playable(a.env, ids)
    selection = {k: v for k, v in (("split", a.split), ("category", a.category),
                                   ("app", a.app), ("tasks", a.tasks)) if v is not None}
    return EvalSpec(agent=a.agent, env_id=a.env, tasks=tuple(ids),
                    seeds=tuple(parse_seeds(a.seeds)), attempts=a.attempts, split=a.split,
                    max_steps=a.max_steps, screenshots=not a.no_screenshots,
                    decoding=a.decoding, temperature=a.temperature, base_url=a.base_url,
                    api_key_env=a.api_key_env, screenshots_to_model=a.screenshots_to_model,
                    action_format=a.action_format,
                    serial=a.serial, adb_port=a.adb_port, selection=selection)


def _playable(env_id: str, ids: Sequence[str]) -> list[str]:
    """``ids`` that ``env_id`` plays (``ValueError`` naming those it does not). A device id
    plays any task whose verbs and probes the phone has; that is found when it is played."""
    from phoneworld_gym.registration import DEVICE_ENV_IDS

    if env_id in DEVICE_ENV_IDS:
        return list(ids)
    import gymnasium as gym

    env = gym.make(env_id, obs_mode="a11y", disable_env_checker=True)
    try:
        available = set(env.unwrapped.task_ids)  # type: ignore[attr-defined]
    finally:
        env.close()
    kept = [t for t in ids if t in available]
    if not kept:
        raise ValueError(f"{env_id} plays none of the selected tasks ({', '.join(ids[:6])}"
                         f"{' ...' if len(ids) > 6 else ''})")
    if len(kept) < len(ids) and len(ids) <= 50 and env_id != "PhoneWorld/All-v0":
        missing = [t for t in ids if t not in available]
        raise ValueError(f"{env_id} does not play {', '.join(missing)}; leave them out or "
                         f"use PhoneWorld/All-v0")
    return kept


def run_cli(a: argparse.Namespace) -> int:
    """Carry out a parsed ``eval`` command (see the module docstring for exit codes)."""
    if getattr(a, "task_list", None):
        from phoneworld_gym.baselines import protocol

        return protocol.run_cli(a)
    if getattr(a, "judge_with", None):
        print("phoneworld: error: --judge-with goes with --task-list", file=sys.stderr)
        return 2
    try:
        spec = spec_from_args(a)
    except ValueError as e:
        print(f"phoneworld: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    start = time.time()
    try:
        doc = run_eval(spec, a.out, workers=a.workers, use_ray=a.ray,
                       progress=not a.no_progress, replays=not a.no_replays)
    except KeyboardInterrupt:
        from phoneworld_gym.baselines.data import manifest

        kept = len(manifest(a.out)) if Path(a.out, "dataset.json").exists() else 0
        print(f"interrupted; {a.out} keeps its {kept} finished episodes; the same command "
              f"goes on from there", file=sys.stderr)
        return 130
    except ValueError as e:
        print(f"phoneworld: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    o = doc["overall"]
    print(f"success {100 * o['rate']:.1f}% [{100 * o['ci_low']:.1f}, {100 * o['ci_high']:.1f}]"
          f" ({o['successes']}/{o['n']}), mean {o['mean_steps']:.1f} steps; "
          f"{time.time() - start:.0f} s; report: {Path(a.out) / 'report.md'}")
    return 1 if doc["failed"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m phoneworld_gym.baselines.evalrun``: the same as ``phoneworld eval``."""
    p = argparse.ArgumentParser(prog="phoneworld eval", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return run_cli(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
