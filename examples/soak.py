"""Memory soak: the element-aware random agent (``baselines.agents.RandomAgent``, the agent of
the project's random baseline) plays ``PhoneWorld/All-v0`` for many steps in one process,
and the resident memory (RSS) is followed to check that it stays bounded.

    python examples/soak.py --steps 1000000 --state out/soak/state.json
    python examples/soak.py --state out/soak/state.json --resume      # after an interruption

Episode ``e`` resets the env and seeds the agent from ``(--seed, e)``, so a run is the same
step for step on every machine. The run goes in chunks (``--chunk`` steps, rounded up to the
end of an episode); after each, the progress (steps, next episode, the RSS curve, a digest of
every action taken) is written to the JSON state file, so ``--resume`` continues where the
last saved chunk ended and takes exactly the same actions an uninterrupted run would have
(``--budget SECONDS`` stops after the chunk that passes the budget, to fit a session).
``--cycle N`` replays the first N episodes over and over instead: once their worlds and texts
are cached, memory that still grows grows with steps (tests/test_soak.py runs it that way).

RSS is printed every ``--every`` steps (50,000) and sampled into the curve every ``--sample``
steps; the curve also goes to a CSV (``step,rss_mib,segment,elapsed_s``). A resumed run starts
a new process, whose memory starts afresh: each process is a *segment* of the curve, and the
verdict judges the longest segment (the last one, among equals). It compares RSS once
``--warmup`` steps (100,000) into the segment with RSS at its end: memory may grow by at most
``--bound`` percent (10) after the warm-up, when every cache has had time to fill to its bound.
The exit status is 1 when that check fails, 0 otherwise (also when the run is too short to
judge, which the verdict line says).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import psutil

import phoneworld_gym  # noqa: F401 (registers the envs)
from phoneworld_gym.baselines.agents import RandomAgent

ENV_ID = "PhoneWorld/All-v0"
STATE_VERSION = 1
MIB = 1 << 20


def rss_mib() -> float:
    """This process's resident memory in MiB."""
    return psutil.Process().memory_info().rss / MIB


def episode_seed(seed: int, episode: int) -> int:
    """The reset seed (and agent seed) of episode ``episode`` of a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, episode]).generate_state(1)[0] >> 1)


def slope(samples: Sequence[Sequence[float]]) -> float:
    """Least-squares slope of ``(step, MiB)`` samples, in MiB per 10,000 steps (0 for fewer
    than two distinct steps)."""
    if len(samples) < 2:
        return 0.0
    x = np.array([s[0] for s in samples], dtype=np.float64)
    y = np.array([s[1] for s in samples], dtype=np.float64)
    dx = x - x.mean()
    den = float((dx * dx).sum())
    return 0.0 if den == 0 else float((dx * (y - y.mean())).sum() / den) * 10_000


def second_half_slope(samples: Sequence[Sequence[float]]) -> float:
    """:func:`slope` over the samples of the second half of the run (by step): the first half
    is when caches fill; growth that goes on after it is what a leak looks like."""
    if not samples:
        return 0.0
    lo, hi = samples[0][0], samples[-1][0]
    mid = lo + (hi - lo) / 2
    return slope([s for s in samples if s[0] >= mid])


def segments(curve: Sequence[Sequence[float]]) -> dict[int, list[list[float]]]:
    """The curve's samples by segment (one segment per process of a resumed run)."""
    out: dict[int, list[list[float]]] = {}
    for step, mib, seg, *_ in curve:
        out.setdefault(int(seg), []).append([step, mib])
    return out


def verdict(curve: Sequence[Sequence[float]], warmup: int, bound_pct: float
            ) -> tuple[bool | None, str]:
    """(passed, line): RSS ``warmup`` steps into the longest segment against RSS at its end;
    ``passed`` is None when no segment ran past the warm-up."""
    segs = segments(curve)
    if not segs:
        return None, "verdict: no samples yet"
    seg, samples = max(segs.items(), key=lambda kv: (kv[1][-1][0] - kv[1][0][0], kv[0]))
    start = samples[0][0] - 1  # a process's first sample is at its first step
    after = [s for s in samples if s[0] >= start + warmup]
    if len(after) < 2:
        return None, (f"verdict: none yet: the longest process ran {samples[-1][0] - start:,.0f} "
                      f"steps (segment {seg}); RSS is judged from {warmup:,} steps into a "
                      f"process on (resuming starts a new process, with fresh memory)")
    (s0, m0), (s1, m1) = after[0], after[-1]
    growth = (m1 - m0) / m0 * 100
    ok = growth <= bound_pct
    return ok, (f"verdict: {'PASS' if ok else 'FAIL'}: RSS {m0:.1f} MiB at step {s0:,.0f} "
                f"-> {m1:.1f} MiB at step {s1:,.0f} ({growth:+.1f}%, bound +{bound_pct:g}% after "
                f"the first {warmup:,} steps of a process); slope over the second half "
                f"{second_half_slope(after):+.2f} MiB per 10k steps")


def new_state(args: argparse.Namespace) -> dict[str, Any]:
    return {"version": STATE_VERSION, "env_id": ENV_ID, "seed": args.seed,
            "obs_mode": args.obs_mode, "cycle": args.cycle, "target": args.steps, "steps": 0,
            "episode": 0,
            "digest": "", "tasks_seen": [], "curve": [], "segments": [], "elapsed_s": 0.0,
            "cpu_s": 0.0}


def save(state: dict[str, Any], path: Path, csv_path: Path | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(state, indent=1))
    os.replace(tmp, path)  # a kill while saving leaves the previous state whole
    if csv_path is not None:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        with open(csv_path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["step", "rss_mib", "segment", "elapsed_s"])
            w.writerows(state["curve"])


def run(state: dict[str, Any], *, chunk: int, sample: int, every: int,
        budget: float | None = None, on_chunk: Callable[[dict[str, Any]], None] | None = None,
        log: Callable[[str], None] = print) -> dict[str, Any]:
    """Play from ``state`` (updated in place) until its target, or until a chunk ends past
    ``budget`` seconds; ``on_chunk(state)`` after each chunk (saving). One new segment."""
    env = gym.make(state["env_id"], obs_mode=state["obs_mode"], disable_env_checker=True)
    seg = len(state["segments"])
    t0, c0 = time.monotonic(), time.process_time()
    elapsed0, cpu0 = state["elapsed_s"], state.get("cpu_s", 0.0)
    state["segments"].append({"start_step": state["steps"], "pid": os.getpid(),
                              "started": time.strftime("%Y-%m-%d %H:%M:%S")})
    seen = set(state["tasks_seen"])
    first = state["steps"] + 1
    steps, target = state["steps"], state["target"]
    chunk_end = steps + chunk

    def record(step: int) -> None:
        mib = rss_mib()
        el = elapsed0 + time.monotonic() - t0
        state["curve"].append([step, round(mib, 2), seg, round(el, 1)])
        if step % every == 0 or step == target:
            log(f"step {step:>9,}  RSS {mib:7.1f} MiB  tasks seen {len(seen):3d}  "
                f"{el:8.0f} s")

    try:
        while steps < target:
            ep = state["episode"]
            s = episode_seed(state["seed"], ep % state["cycle"] if state.get("cycle") else ep)
            agent = RandomAgent(seed=s)
            obs, _ = env.reset(seed=s)
            seen.add(type(env.unwrapped.task).__name__)  # type: ignore[attr-defined]
            agent.reset(obs["goal"])
            # chained per episode, so a resumed run's digest is an uninterrupted run's
            digest = hashlib.blake2b(state["digest"].encode(), digest_size=16)
            while steps < target:
                action = agent.act(obs)
                digest.update(action.to_json_str().encode())
                obs, _, term, trunc, _ = env.step(action)
                steps += 1
                if steps % sample == 0 or steps % every == 0 or steps == target \
                        or steps == first:
                    record(steps)
                if term or trunc:
                    break
            state.update(steps=steps, episode=ep + 1, digest=digest.hexdigest(),
                         tasks_seen=sorted(seen),
                         elapsed_s=round(elapsed0 + time.monotonic() - t0, 1),
                         cpu_s=round(cpu0 + time.process_time() - c0, 1))
            if steps >= chunk_end or steps >= target:
                chunk_end = steps + chunk
                if on_chunk is not None:
                    on_chunk(state)
                if budget is not None and time.monotonic() - t0 >= budget and steps < target:
                    log(f"budget of {budget:g} s spent at step {steps:,}: --resume continues")
                    break
    finally:
        env.close()
    return state


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=1_000_000, help="total steps of the run")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--obs-mode", default="a11y", choices=("a11y", "all"),
                   help="a11y (the tree, what the agent reads) or all (also screenshots)")
    p.add_argument("--cycle", type=int, default=0,
                   help="replay the first N episodes over and over (0: every episode new). "
                        "Once a cycle's worlds and texts are cached, memory that still grows "
                        "grows with steps, not with new content")
    p.add_argument("--state", type=Path, default=Path("out/soak/state.json"))
    p.add_argument("--csv", type=Path, default=None,
                   help="the RSS curve as CSV (default: the state file with .csv)")
    p.add_argument("--resume", action="store_true", help="continue the run in --state")
    p.add_argument("--chunk", type=int, default=10_000, help="steps between saves")
    p.add_argument("--budget", type=float, default=None,
                   help="seconds: stop (resumably) after the chunk that passes them")
    p.add_argument("--every", type=int, default=50_000, help="print RSS every N steps")
    p.add_argument("--sample", type=int, default=5_000, help="add RSS to the curve every N")
    p.add_argument("--warmup", type=int, default=100_000,
                   help="steps into a process before RSS is judged")
    p.add_argument("--bound", type=float, default=10.0,
                   help="largest growth allowed after the warm-up, percent")
    a = p.parse_args(argv)
    for name in ("steps", "chunk", "every", "sample"):
        if getattr(a, name) < 1:
            p.error(f"--{name} must be at least 1")
    csv_path = a.csv or a.state.with_suffix(".csv")
    if a.resume:
        if not a.state.is_file():
            p.error(f"--resume: no state file {a.state}")
        state = json.loads(a.state.read_text())
        if state.get("version") != STATE_VERSION:
            p.error(f"{a.state}: state version {state.get('version')}, this script writes "
                    f"{STATE_VERSION}")
        if "--steps" in (argv if argv is not None else sys.argv[1:]):
            state["target"] = a.steps  # extend (or shorten) a run
        print(f"resuming {a.state} at step {state['steps']:,} of {state['target']:,} "
              f"(seed {state['seed']}, obs_mode {state['obs_mode']})", flush=True)
    else:
        if a.state.exists():
            p.error(f"{a.state} exists: --resume to continue it, or remove it")
        state = new_state(a)
        print(f"soak: {a.steps:,} random-agent steps over {ENV_ID} (seed {a.seed}, "
              f"obs_mode {a.obs_mode}); state {a.state}, curve {csv_path}", flush=True)

    def log(line: str) -> None:
        print(line, flush=True)

    if state["steps"] < state["target"]:
        run(state, chunk=a.chunk, sample=a.sample, every=a.every, budget=a.budget,
            on_chunk=lambda s: save(s, a.state, csv_path), log=log)
    save(state, a.state, csv_path)
    done = state["steps"] >= state["target"]
    el, cpu = state["elapsed_s"], state.get("cpu_s", 0.0)
    print(f"{'done' if done else 'paused'}: {state['steps']:,} steps, "
          f"{len(state['tasks_seen'])} tasks seen, {el:.0f} s "
          f"({state['steps'] / el if el else 0:.0f} steps/s; {cpu:.0f} s of CPU, "
          f"{state['steps'] / cpu if cpu else 0:.0f} steps per CPU second), "
          f"digest {state['digest']}")
    ok, line = verdict(state["curve"], a.warmup, a.bound)
    print(line, flush=True)
    return 1 if ok is False else 0


if __name__ == "__main__":
    raise SystemExit(main())
