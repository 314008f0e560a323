"""Collect trajectories of any agent on any env id into a Hugging Face ``datasets`` dataset.

    python -m phoneworld_gym.baselines.collect --env PhoneWorld/Shopping-v0 --agent oracle \\
        --seeds 0:10 --out data/shopping-oracle

    from phoneworld_gym.baselines.collect import collect
    from phoneworld_gym.baselines.data import load
    report = collect("PhoneWorld/Contacts-v0", "random", None, range(5), "data/c")
    ds = load("data/c")            # one row per step: goal, tree, elements, action, reward ...

The env id may be a PhoneWorld id or a device id (``PhoneWorld/Device-v0``: a phone over adb,
or its own virtual phone when no serial is given). Episodes are committed one at a time (see
:mod:`phoneworld_gym.baselines.data`), so an interrupted collection keeps every finished
episode, and running the same command again collects only what is missing.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import hashlib
import inspect
import io
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from phoneworld_gym.baselines.agents import (
    Agent,
    HumanAgent,
    OracleAgent,
    RandomAgent,
    SpaceSampleAgent,
)
from phoneworld_gym.baselines.data import SOURCES, EpisodeKey, EpisodeStore, load
from phoneworld_gym.contract import Action, parse_ui_elements
from phoneworld_gym.task import SELECTIONS, get_task
from phoneworld_gym.wrappers import describe_elements

#: an agent factory: ``(env, task, seed) -> Agent`` (or ``(env) -> Agent``)
AgentFactory = Callable[..., Agent]


def agent_seed(task: str, seed: int) -> int:
    """The seed of a random agent for one episode: from the episode, so that a resumed
    collection draws the same actions as an uninterrupted one."""
    return int.from_bytes(hashlib.sha256(f"agent/{task}/{seed}".encode()).digest()[:4], "little")


#: the agents the CLI and ``collect`` know by name
NAMED_AGENTS: dict[str, AgentFactory] = {
    "oracle": lambda env, task, seed: OracleAgent(env),
    "random": lambda env, task, seed: RandomAgent(seed=agent_seed(task, seed)),
    "space-sample": lambda env, task, seed: SpaceSampleAgent(env, agent_seed(task, seed)),
    "human": lambda env, task, seed: HumanAgent(),
}


def parse_seeds(spec: str | int | Iterable[int]) -> list[int]:
    """Seeds from ``"0:10"`` (a range, end excluded), ``"3,5,8"``, ``"7"``, an int or an
    iterable of ints; duplicates dropped, order kept. ``ValueError`` names a bad spec."""
    if isinstance(spec, bool):
        raise ValueError(f"seeds must be ints or a spec like '0:10', got {spec!r}")
    if isinstance(spec, (int, np.integer)):
        seeds = [int(spec)]
    elif isinstance(spec, str):
        seeds = _seed_spec(spec)
    else:
        try:
            seeds = list(spec)
        except TypeError:
            raise ValueError(f"seeds must be ints or a spec like '0:10', got {spec!r}") from None
        for s in seeds:
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
                raise ValueError(f"seeds must be ints, got {s!r} in {spec!r}")
        seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("no seeds given")
    negative = [s for s in seeds if s < 0]
    if negative:
        raise ValueError(f"seeds must be >= 0, got {negative}")
    return list(dict.fromkeys(seeds))


def _seed_spec(spec: str) -> list[int]:
    """``"0:10"``, ``"1,4,9"`` or ``"7"`` -> seeds."""
    bad = ValueError(f"bad seeds spec {spec!r}: expected 'start:stop' (e.g. '0:10'), a comma "
                     f"list ('1,4,9') or one int")
    parts = spec.strip().split(":")
    try:
        if len(parts) == 2:
            seeds = list(range(int(parts[0]), int(parts[1])))
            if not seeds:
                raise ValueError(f"seeds spec {spec!r} is an empty range (the end is excluded: "
                                 f"'0:10' is 0..9)")
            return seeds
        if len(parts) == 1:
            return [int(p) for p in spec.split(",")]
    except ValueError as e:
        if "empty range" in str(e):
            raise
        raise bad from None
    raise bad


def check_env_id(env_id: str) -> None:
    """``ValueError`` naming the close matches when ``env_id`` is not registered."""
    import phoneworld_gym  # noqa: F401 (registers the ids)

    if not isinstance(env_id, str) or env_id not in gym.registry:
        ids = [e for e in gym.registry if e.startswith("PhoneWorld/")]
        close = difflib.get_close_matches(str(env_id), ids, n=4, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else \
            "; e.g. PhoneWorld/All-v0, PhoneWorld/Shopping-v0, PhoneWorld/Device-v0"
        raise ValueError(f"unknown env id {env_id!r}{hint}")


def resolve_agent(agent: str | AgentFactory) -> tuple[AgentFactory, str | None]:
    """An agent given by name or factory -> a factory ``(env, task, seed) -> Agent`` and, when
    known without building one, the agent's name."""
    if isinstance(agent, str):
        if agent not in NAMED_AGENTS:
            raise ValueError(f"unknown agent {agent!r}; known: {sorted(NAMED_AGENTS)} (or pass "
                             f"a factory (env, task, seed) -> Agent)")
        return NAMED_AGENTS[agent], agent
    if not callable(agent):
        raise ValueError(f"agent must be a name or a callable factory, got {agent!r}")
    try:
        params = inspect.signature(agent).parameters.values()
    except (TypeError, ValueError):
        return agent, getattr(agent, "name", None)
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    star = any(p.kind == p.VAR_POSITIONAL for p in params)
    name = getattr(agent, "name", None)
    name = name if isinstance(name, str) else None
    if len(required) == 1 and len(positional) < 3 and not star:
        return (lambda env, task, seed: agent(env)), name
    if not (required or star) or len(required) > 3 or (len(positional) < 3 and not star):
        raise ValueError(f"an agent factory takes (env, task, seed) or (env); "
                         f"{getattr(agent, '__name__', agent)!r} takes "
                         f"{[p.name for p in positional]} (wrap it: lambda env, task, seed: "
                         f"...)")
    return agent, name


def make_env(env_id: str, *, screenshots: bool, **env_kwargs: Any) -> gym.Env:
    """The env for a collection: the tree always, the screenshot when asked for."""
    check_env_id(env_id)
    obs_mode = "all" if screenshots else "a11y"
    asked = env_kwargs.pop("obs_mode", obs_mode)
    if asked != obs_mode:
        raise ValueError(f"obs_mode={asked!r} does not fit screenshots={screenshots}: a dataset "
                         f"row holds the tree (and the screenshot when screenshots=True); "
                         f"leave obs_mode out")
    return gym.make(env_id, obs_mode=obs_mode, disable_env_checker=True, **env_kwargs)


def png(frame: np.ndarray) -> dict[str, Any]:
    """A screenshot as a ``datasets.Image`` cell (PNG bytes)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.asarray(frame, dtype=np.uint8)).save(buf, format="PNG", compress_level=1)
    return {"bytes": buf.getvalue(), "path": None}


class EpisodeFailed(RuntimeError):
    """The device failed during the episode: it is not committed (a rerun retries it)."""


@dataclasses.dataclass
class CollectReport:
    """What one call of :func:`collect` did."""

    out_dir: str
    #: episodes collected now, and already there (skipped)
    new: int = 0
    skipped: int = 0
    #: (task, seed, why) of episodes whose device failed (not committed)
    failed: list[tuple[str, int, str]] = dataclasses.field(default_factory=list)
    steps: int = 0
    successes: int = 0
    #: wall-clock and CPU time of the new episodes (CPU time is steadier on a busy machine)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    bytes: int = 0
    #: what recovery found and removed
    messages: list[str] = dataclasses.field(default_factory=list)

    @property
    def steps_per_s(self) -> float:
        """Steps per wall-clock second."""
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def steps_per_cpu_s(self) -> float:
        """Steps per second of this process's CPU time."""
        return self.steps / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def __str__(self) -> str:
        lines = [f"{self.out_dir}: {self.new} new episodes ({self.successes} successful, "
                 f"{self.steps} steps, {self.seconds:.1f} s, {self.steps_per_s:.0f} steps/s; "
                 f"{self.steps_per_cpu_s:.0f} steps per CPU-second, "
                 f"{self.bytes / 1e6:.2f} MB), {self.skipped} already there, "
                 f"{len(self.failed)} failed"]
        lines += [f"  failed: {t} seed {s}: {why}" for t, s, why in self.failed]
        lines += [f"  recovered: {m}" for m in self.messages]
        return "\n".join(lines)


def run_episode(env: gym.Env, agent: Agent, key: EpisodeKey, *, screenshots: bool
                ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play one episode and return its rows and a summary (``EpisodeFailed`` if the device
    failed). Each row is the observation before the action, the action, and its result."""
    obs, info = env.reset(seed=key.seed, options={"task": key.task})
    agent.reset(obs["goal"])
    base = {"episode_id": key.episode_id, "source": key.source, "agent": key.agent,
            "env_id": key.env_id, "task": key.task, "category": info["category"],
            "task_split": get_task(key.task).split, "template": info["template"],
            "params": json.dumps(info["params"], sort_keys=True, ensure_ascii=False,
                                 default=str),
            "seed": key.seed}
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    while True:
        action = Action.from_any(agent.act(obs))
        tree = obs["a11y"]
        row = {**base, "step": len(rows), "goal": obs["goal"], "tree": tree,
               "elements": describe_elements(parse_ui_elements(tree)),
               "action": action.to_json_str(), "action_type": action.action_type}
        if screenshots:
            row["screenshot"] = png(obs["screenshot"])
        obs, reward, terminated, truncated, info = env.step(action)
        row.update(reward=float(reward), done=bool(terminated or truncated),
                   terminated=bool(terminated), truncated=bool(truncated),
                   success=bool(info["success"]), action_error=str(info["action_error"]))
        rows.append(row)
        if terminated or truncated:
            break
    if info.get("device_error"):
        raise EpisodeFailed(str(info["device_error"]))
    summary = {"reward": float(reward), "success": bool(info["success"]), "steps": len(rows),
               "failure": str(info.get("failure", "")),
               "seconds": round(time.perf_counter() - start, 4)}
    return rows, summary


def collect(env_id: str, agent_factory: str | AgentFactory, tasks: str | Sequence[str] | None,
            seeds: str | int | Iterable[int], out_dir: str | Path, *, source: str | None = None,
            screenshots: bool = False, agent_name: str | None = None,
            progress: Callable[[str], None] | None = None, **env_kwargs: Any) -> CollectReport:
    """Run an agent over every task x seed of ``env_id`` and commit each finished episode to
    the dataset in ``out_dir`` (created if needed).

    Args:
        env_id: a registered id (``PhoneWorld/Shopping-v0``, ``PhoneWorld/Device-v0``, ...).
        agent_factory: ``"oracle"``, ``"random"``, ``"space-sample"``, or a callable
            ``(env, task, seed) -> Agent`` (one with a single parameter, like
            ``OracleAgent``, gets the env alone). A fresh agent plays each episode.
        tasks: task ids (None: every task of the env), checked against the env's tasks.
        seeds: reset seeds: ints or a spec (``"0:10"``, ``"1,5"``; see :func:`parse_seeds`).
        out_dir: the collection folder; episodes already committed there are skipped.
        source: ``"mock"``, ``"device"`` or ``"human"``: where the trajectories come from
            (default: ``"device"`` for device ids such as ``PhoneWorld/Device-v0``, else
            ``"mock"``; pass ``"human"`` for a person's episodes).
        screenshots: also store each step's screenshot (PNG); fixed per folder.
        agent_name: the name stored with the rows (default: the agent's ``name``).
        progress: called with a line per episode (e.g. ``print``).
        env_kwargs: passed to ``gymnasium.make`` (``split``, ``max_steps``,
            ``screenshot_size``, ``serial``, ``port`` for device ids, ...).

    A device id without ``tasks`` plays the phone-ready tasks, which it finds by playing every
    task first (about half a minute); naming the tasks skips that.

    An episode's key is (source, agent, env id, task, seed, split, max_steps). An exception in
    the agent or the env stops the collection; what was committed stays. An episode whose
    device failed (``info["device_error"]``) is not committed and is listed in the report's
    ``failed``; a rerun tries it again.
    """
    from phoneworld_gym.registration import DEVICE_ENV_IDS

    if source is None:
        source = "device" if env_id in DEVICE_ENV_IDS else "mock"
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    seed_list = parse_seeds(seeds)
    factory, name = resolve_agent(agent_factory)
    name = agent_name or name
    split, max_steps = env_kwargs.get("split"), env_kwargs.get("max_steps")
    report = CollectReport(out_dir=str(out_dir))
    make_kwargs = dict(env_kwargs)
    if env_id in DEVICE_ENV_IDS and tasks is not None and "tasks" not in make_kwargs:
        # a device env finds its phone-ready tasks by playing every task (seconds): skip that
        make_kwargs["tasks"] = [tasks] if isinstance(tasks, str) else list(tasks)
    env = make_env(env_id, screenshots=screenshots, **make_kwargs)
    try:
        available = list(env.unwrapped.task_ids)  # type: ignore[attr-defined]
        task_list = _check_tasks(tasks, available, env_id)
        with EpisodeStore(out_dir, screenshots=screenshots) as store:
            report.messages = store.messages
            for task in task_list:
                for seed in seed_list:
                    _collect_one(env, factory, name, store, report, progress,
                                 EpisodeKey(source, name or "?", env_id, task, seed, split,
                                            max_steps), screenshots)
    finally:
        close_env(env, own_device="device" not in env_kwargs)
    return report


def close_env(env: gym.Env, *, own_device: bool) -> None:
    """Close the env and, when this module made its device (no ``device=`` was passed), the
    device too: that stops a virtual adb phone ``PhoneWorld/Device-v0`` started for itself."""
    env.close()
    close = getattr(getattr(env.unwrapped, "device", None), "close", None)
    if own_device and callable(close):
        close()


def _check_tasks(tasks: str | Sequence[str] | None, available: Sequence[str],
                 env_id: str) -> list[str]:
    if tasks is None:
        return list(available)
    wanted = [tasks] if isinstance(tasks, str) else list(tasks)
    if not wanted:
        raise ValueError("tasks is empty; give task ids or None for every task of the env")
    missing = [t for t in wanted if t not in available]
    if missing:
        raise ValueError(f"tasks {missing} are not played by {env_id} ({len(available)} tasks: "
                         f"{', '.join(available[:10])}{' ...' if len(available) > 10 else ''})")
    return list(dict.fromkeys(wanted))


def _collect_one(env: gym.Env, factory: AgentFactory, name: str | None, store: EpisodeStore,
                 report: CollectReport, progress: Callable[[str], None] | None,
                 key: EpisodeKey, screenshots: bool) -> None:
    """Skip, or play and commit, one episode."""
    if name is not None and store.has(key):
        report.skipped += 1
        return
    start, cpu = time.perf_counter(), time.process_time()
    agent = factory(env, key.task, key.seed)
    if name is None:  # the first agent tells its name; the key needs it
        name = str(getattr(agent, "name", "") or type(agent).__name__)
        key = dataclasses.replace(key, agent=name)
        if store.has(key):
            report.skipped += 1
            return
    try:
        rows, summary = run_episode(env, agent, key, screenshots=screenshots)
    except EpisodeFailed as e:
        report.failed.append((key.task, key.seed, str(e)))
        return
    entry = store.commit(key, rows, summary)
    report.seconds += time.perf_counter() - start
    report.cpu_seconds += time.process_time() - cpu
    report.new += 1
    report.steps += len(rows)
    report.successes += bool(summary["success"])
    report.bytes += int(entry["bytes"])
    if progress is not None:
        progress(f"{key.task} seed {key.seed}: reward {summary['reward']:.2f}, "
                 f"{len(rows)} steps -> {entry['file']}")


# -- CLI -------------------------------------------------------------------------------------
def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT (e.g. 540x1200), got "
                                         f"{text!r}") from None
    return w, h


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(prog="python -m phoneworld_gym.baselines.collect",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--env", required=True, help="env id, e.g. PhoneWorld/Shopping-v0")
    p.add_argument("--agent", default="oracle", help=f"one of {sorted(NAMED_AGENTS)}")
    p.add_argument("--seeds", default="0:10", help="'0:10', '1,4,9' or one int")
    p.add_argument("--out", required=True, help="the collection folder")
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    p.add_argument("--source", default=None, choices=SOURCES,
                   help="default: human for --agent human, device for device ids, else mock")
    p.add_argument("--screenshots", action="store_true", help="store PNG screenshots")
    p.add_argument("--screenshot-size", type=_size, default=None, help="e.g. 540x1200")
    p.add_argument("--split", choices=SELECTIONS, default=None)
    p.add_argument("--max-steps", type=int, default=None)
    p.add_argument("--serial", default=None, help="device ids: the phone's adb serial")
    p.add_argument("--adb-port", type=int, default=None, help="device ids: the adb server port")
    p.add_argument("--quiet", action="store_true")
    a = p.parse_args(argv)
    kwargs: dict[str, Any] = {}
    for k, v in (("screenshot_size", a.screenshot_size), ("split", a.split),
                 ("max_steps", a.max_steps), ("serial", a.serial), ("port", a.adb_port)):
        if v is not None:
            kwargs[k] = v
    source = a.source or ("human" if a.agent == "human" else None)
    tasks = [t.strip() for t in a.tasks.split(",") if t.strip()] if a.tasks else None
    try:
        report = collect(a.env, a.agent, tasks, a.seeds, a.out, source=source,
                         screenshots=a.screenshots, progress=None if a.quiet else print,
                         **kwargs)
    except ValueError as e:
        p.error(str(e))
    except (EOFError, KeyboardInterrupt) as e:
        from phoneworld_gym.baselines.data import manifest

        why = "end of input" if isinstance(e, EOFError) else "interrupted"
        kept = len(manifest(a.out)) if Path(a.out, "dataset.json").exists() else 0
        print(f"stopped ({why}); {a.out} keeps its {kept} finished episodes; the same command "
              f"goes on from there", file=sys.stderr)
        return 130
    print(report)
    if report.new or report.skipped:
        ds = load(a.out, verify=False)
        print(f"{a.out}: {ds.num_rows} rows in all; columns: {', '.join(ds.column_names)}")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
