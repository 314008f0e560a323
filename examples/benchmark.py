"""PhoneWorld's speed against android_env's FakeSimulator, in one run (`make bench`).

Every figure is measured in this one process group, PhoneWorld and its peer interleaved round
by round so that both see the same machine (2 shared cores are noisy: a figure is the best of
the rounds, with the spread of all rounds after it):

- **Steps**: the oracles of every task replayed through ``env.step`` (real screens, taps,
  typing, verifiers), tree only, 540 x 1200 and 1080 x 2400 screenshots (with the tree);
  against android_env 1.3.0's FakeSimulator (random frames, no apps: the framework's own
  overhead) stepped with alternating touch/lift at 640 x 320, 540 x 1200 and 1080 x 2400.
- **Resets**: ``env.reset`` to the next task of the replay (median).
- **A new env instance**: ``gymnasium.make`` plus its first ``reset``, and the resident
  memory it adds, in a fresh subprocess (after ``import phoneworld_gym``).
- **Vector envs**: ``gymnasium``'s async vector env with 1, 2 and 4 workers against one env
  (no vector env), all stepping the same scripted actions (540 x 1200 screenshots + tree),
  each measured in a fresh process after a warm-up.

It prints a table of medians, ratios and targets (each missed target says by how much) and
writes docs/benchmarks.md with the machine and a plot of throughput against workers
(docs/benchmark_workers.png). ``--profile`` adds the top functions of the 1080 x 2400 step.

    python examples/benchmark.py [--rounds 5] [--seeds 1] [--quick] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import json
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import gymnasium as gym
import numpy as np
from PIL import Image, ImageDraw

import phoneworld_gym
from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.contract import ACTION_TYPES, DIRECTIONS
from phoneworld_gym.ui.fonts import text_font
from phoneworld_gym.ui.render import cache_sizes

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: (name, PhoneEnv keyword arguments, FakeSimulator size (width, height), target ratio)
CONFIGS: list[tuple[str, dict[str, Any], tuple[int, int], float]] = [
    ("tree only", {"obs_mode": "a11y"}, (640, 320), 2.0),
    ("540x1200 + tree", {"screenshot_size": (540, 1200)}, (540, 1200), 3.0),
    ("1080x2400 + tree", {}, (1080, 2400), 5.0),
]
#: reset targets: median milliseconds, tree only and with a full screenshot
RESET_TARGETS = {"tree only": 1.0, "1080x2400 + tree": 5.0}
INSTANCE_TARGETS = {"ms": 50.0, "mb": 30.0}
VECTOR_TARGET = 1.7  # two async workers against one env
VECTOR_KW: dict[str, Any] = {"screenshot_size": (540, 1200), "max_steps": 25}
WORKERS = (1, 2, 4)
#: steps each env (or vector env) takes before it is timed: a fresh process first fills its
#: glyph, sprite and start-world caches
WARMUP = 4 * 12
#: the figures measured before the incremental renderer: this benchmark run on the same
#: machine with the renderer, frame and world code of commit 161ebc8 (and the tasks of the
#: day, 71), and the figures in the issue "Speed and scale"
BEFORE = ("Before the incremental renderer (this benchmark, 3 rounds, the same machine and 71 "
          "tasks, with the rendering, frame and world code of commit 161ebc8): tree only 454 "
          "steps/s against FakeSimulator 1193 at 640x320 (0.38); 540x1200 208 against 413 "
          "(0.50); 1080x2400 75 against 105 (0.71); resets 3.62 ms tree only, 5.30 ms at "
          "540x1200, 9.83 ms at 1080x2400; a new instance 78 ms and 55.8 MiB (another one 17.5 "
          "MiB). The issue's figures (another day, 39 tasks): tree only 217-269 against 509, "
          "540x1200 84 against 210, 1080x2400 35-44 against 44-51; resets 3.2-4.5 ms tree only, "
          "13-19 ms with a full screenshot.")

NOTES = ("Reading the figures: every PhoneWorld step rebuilds the screen the action led to "
         "(the app's screen function, layout, the accessibility dump), 0.7-0.9 ms of Python on "
         "this machine whatever the screenshot size (of a tree-only step: screen functions "
         "~31%, layout ~30%, the change check ~11%, the XML ~10%, verification ~6%); the "
         "peer's step only draws random pixels, so the tree-only and 540x1200 ratios are "
         "bounded by that build, while at 1080x2400 the incremental renderer's savings show. A "
         "reset to a task of a seed already seen reloads only the app stores that an action, a "
         "verb or app code reached; a seed never seen generates its world (every app's data "
         "and the Gallery's photos), which is most of a first instance's time as well. Most of "
         "a first instance's memory is gymnasium's Box for a 1080x2400 screenshot (its low and "
         "high bounds as full arrays); a second instance in the same process adds little. "
         "Async vector envs: two single envs in two processes at once reach about 2x one env "
         "here, so the CPUs are not what limits two workers. Gymnasium's async vector env "
         "steps its sub-envs in lockstep: each step waits for the slower of the two (the "
         "scripted actions differ in cost) and then for the main process to collect the "
         "results, copy the batch out of shared memory (`copy=False` saves that) and hand the "
         "next actions out, so each worker is on a CPU only about 70% of the time.")


# -- PhoneWorld ------------------------------------------------------------------------------
class Replay:
    """One PhoneWorld env that replays every task's oracle, timing resets and steps."""

    def __init__(self, kwargs: dict[str, Any], tasks: list[str], seeds: int):
        self.env = cast(PhoneEnv, gym.make("PhoneWorld/All-v0", disable_env_checker=True,
                                           **kwargs).unwrapped)
        self.tasks, self.seeds = tasks, seeds
        self.run(seed0=10_000, seeds=1)  # warm-up, untimed: fonts, glyph masks, start worlds

    def run(self, seed0: int = 0, seeds: int | None = None) -> tuple[float, list[float]]:
        """(steps per second, reset times in seconds) of one replay."""
        env = self.env
        step_t, steps, resets = 0.0, 0, []
        for seed in range(seed0, seed0 + (seeds or self.seeds)):
            for task in self.tasks:
                t = time.perf_counter()
                env.reset(seed=seed, options={"task": task})
                resets.append(time.perf_counter() - t)
                plan = env.oracle()
                while True:
                    action = next(plan, Action("status", goal_status="complete"))
                    t = time.perf_counter()
                    *_, term, trunc, _info = env.step(action)
                    step_t += time.perf_counter() - t
                    steps += 1
                    if term or trunc:
                        break
        return steps / step_t, resets

    def profile(self, top: int) -> str:
        """The top functions (by own time) of the steps of one replay."""
        prof = cProfile.Profile()
        env = self.env
        for task in self.tasks:
            env.reset(seed=0, options={"task": task})
            plan = env.oracle()
            while True:
                action = next(plan, Action("status", goal_status="complete"))
                prof.enable()
                *_, term, trunc, _info = env.step(action)
                prof.disable()
                if term or trunc:
                    break
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        stats.strip_dirs().sort_stats("tottime").print_stats(top)
        return out.getvalue()


# -- the peer --------------------------------------------------------------------------------
class Peer:
    """android_env's FakeSimulator at one screen size: touch/lift steps and resets."""

    def __init__(self, size: tuple[int, int]):
        from android_env import loader
        from android_env.components import config_classes as cc
        from android_env.proto import task_pb2
        from google.protobuf import text_format

        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "task.textproto")
        with open(path, "w") as f:
            f.write(text_format.MessageToString(task_pb2.Task(id="fake", name="fake")))
        w, h = size
        self.env = loader.load(cc.AndroidEnvConfig(
            task=cc.FilesystemTaskConfig(path=path),
            simulator=cc.FakeSimulatorConfig(screen_dimensions=(h, w))))
        self.env.reset()
        self.steps = max(60, min(400, int(4e8 / (w * h * 3))))  # about the same time each

    def run(self) -> tuple[float, float]:
        """(steps per second, median reset seconds)."""
        env = self.env
        t = time.perf_counter()
        for i in range(self.steps):
            env.step({"action_type": np.array(i % 2, dtype=np.int32),
                      "touch_position": np.array([0.5, 0.5], dtype=np.float32)})
        rate = self.steps / (time.perf_counter() - t)
        resets = []
        for _ in range(5):
            t = time.perf_counter()
            env.reset()
            resets.append(time.perf_counter() - t)
        return rate, statistics.median(resets)

    def close(self) -> None:
        self.env.close()


def have_peer() -> bool:
    try:
        import android_env  # noqa: F401
    except ImportError:
        return False
    return True


# -- a new instance, in a fresh process --------------------------------------------------------
_INSTANCE = r"""
import json, os, time
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
t = time.perf_counter(); m = rss()
import gymnasium as gym, phoneworld_gym
from phoneworld_gym.contract import observation_space
out = {"import_s": time.perf_counter() - t, "import_mb": rss() - m}
for i in range(2):
    m = rss(); t = time.perf_counter()
    env = gym.make("PhoneWorld/All-v0", disable_env_checker=True)
    made = time.perf_counter() - t
    env.reset(seed=i)
    out[f"env{i}"] = {"make_ms": made * 1e3, "ms": (time.perf_counter() - t) * 1e3,
                      "mb": rss() - m}
m = rss(); t = time.perf_counter()
space = observation_space((1080, 2400), "all")
out["obs_space"] = {"ms": (time.perf_counter() - t) * 1e3, "mb": rss() - m}
print(json.dumps(out))
"""


def new_instance(tries: int) -> list[dict[str, Any]]:
    """Fresh-process measurements of a new env instance (one dict per try).

    The processes may write bytecode (into a private cache folder) and one untimed process
    runs first, as after an install: with ``PYTHONDONTWRITEBYTECODE`` set, every lazily
    imported module would be compiled inside the timed ``make`` and ``reset``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = []
    with tempfile.TemporaryDirectory(prefix="pw-pycache-") as cache:
        env["PYTHONPYCACHEPREFIX"] = cache
        for k in range(tries + 1):
            out = subprocess.run([sys.executable, "-c", _INSTANCE], capture_output=True,
                                 text=True, check=True, cwd=ROOT, env=env)
            if k:
                runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return runs


# -- vector envs -----------------------------------------------------------------------------
def _numeric(action_type: str, **fields: Any) -> dict[str, Any]:
    action: dict[str, Any] = {
        "action_type": ACTION_TYPES.index(action_type), "target": 0, "index": 0, "x": 0,
        "y": 0, "text": "", "direction": 0, "app_name": "", "goal_status": 0, "clear_text": 0}
    action.update(fields)
    return action


#: a scripted walk over both apps: taps by point and by index, scrolls, back and home
SCRIPT = [
    _numeric("open_app", app_name="Shopping"),
    _numeric("click", target=2, x=540, y=700),
    _numeric("scroll", direction=DIRECTIONS.index("down")),
    _numeric("click", target=2, x=300, y=1300),
    _numeric("navigate_back"),
    _numeric("click", target=1, index=4),
    _numeric("navigate_home"),
    _numeric("open_app", app_name="Contacts"),
    _numeric("click", target=2, x=540, y=900),
    _numeric("navigate_back"),
    _numeric("scroll", direction=DIRECTIONS.index("down")),
    _numeric("click", target=1, index=6),
]


def single_env_rate(steps: int) -> float:
    """Steps per second of one env (no vector env), stepping :data:`SCRIPT`."""
    env = gym.make("PhoneWorld/All-v0", disable_env_checker=True, **VECTOR_KW)
    env.reset(seed=0)
    for i in range(WARMUP):  # warm-up: glyph masks, sprites and start worlds of this process
        *_, term, trunc, _info = env.step(SCRIPT[i % len(SCRIPT)])
        if term or trunc:
            env.reset()
    t = time.perf_counter()
    for i in range(steps):
        *_, term, trunc, _info = env.step(SCRIPT[i % len(SCRIPT)])
        if term or trunc:
            env.reset()
    rate = steps / (time.perf_counter() - t)
    env.close()
    return rate


def _child(workers: int, steps: int, copy: bool = True) -> list[str]:
    return [sys.executable, __file__, "--child-vector", str(workers), "--child-steps",
            str(steps), *([] if copy else ["--child-no-copy"])]


def _child_result(stdout: str) -> dict[str, Any]:
    """What a ``--child-vector`` process printed last: ``{"rate": ..., "busy": [...]}``."""
    return cast(dict[str, Any], json.loads(stdout.strip().splitlines()[-1]))


def vector_in_child(workers: int, steps: int, copy: bool = True) -> dict[str, Any]:
    """:func:`single_env_rate` (``workers`` 0) or :func:`vector_rate` in a fresh process, so
    that neither the sub-envs (forked from the parent) nor the baseline inherit this
    process's memory and caches: ``{"rate": env steps/s, "busy": each worker's CPU share}``."""
    out = subprocess.run(_child(workers, steps, copy), capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return _child_result(out.stdout)


def independent_in_children(n: int, steps: int) -> float:
    """The summed steps per second of ``n`` single envs in ``n`` processes run at once, no
    vector env between them: what the machine allows, the ceiling of an ``n``-worker vector
    env."""
    procs = [subprocess.Popen(_child(0, steps), stdout=subprocess.PIPE, text=True, cwd=ROOT)
             for _ in range(n)]
    rates = []
    for proc in procs:
        stdout, _ = proc.communicate()
        if proc.returncode:
            raise RuntimeError(f"a benchmark child exited with {proc.returncode}")
        rates.append(float(_child_result(stdout)["rate"]))
    return sum(rates)


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux ``/proc``; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def vector_rate(workers: int, steps: int, copy: bool = True) -> tuple[float, list[float]]:
    """Env steps per second of an async vector env of ``workers`` sub-envs (``copy``:
    Gymnasium's default, each batch of observations copied out of shared memory), and the
    share of the time each worker process was on a CPU (empty where unknown)."""
    from gymnasium.vector.utils import concatenate, create_empty_array

    envs = gym.make_vec("PhoneWorld/All-v0", num_envs=workers, vectorization_mode="async",
                        vector_kwargs={"copy": copy}, **VECTOR_KW)
    try:
        space = envs.single_action_space
        batches = [concatenate(space, [SCRIPT[(i + k) % len(SCRIPT)] for k in range(workers)],
                               cast(dict, create_empty_array(space, workers)))
                   for i in range(len(SCRIPT))]
        envs.reset(seed=0)
        for i in range(WARMUP):  # warm-up, as for the single env
            envs.step(batches[i % len(batches)])
        pids = [p.pid for p in getattr(envs.unwrapped, "processes", [])]
        before = [_cpu_seconds(pid) for pid in pids]
        t = time.perf_counter()
        for i in range(steps):
            envs.step(batches[i % len(batches)])
        wall = time.perf_counter() - t
        after = [_cpu_seconds(pid) for pid in pids]
        busy = [(b - a) / wall for a, b in zip(before, after) if a is not None and b is not None]
        return workers * steps / wall, busy
    finally:
        envs.close()


# -- report ----------------------------------------------------------------------------------
def spread(values: list[float], fmt: str = "{:.0f}") -> str:
    """The median of the rounds and their range: ``med 380, 266-448``."""
    return (f"med {fmt.format(statistics.median(values))}, "
            f"{fmt.format(min(values))}-{fmt.format(max(values))}")


def verdict(value: float, target: float, higher_is_better: bool = True) -> str:
    """'met' or how far the value is from the target."""
    if (value >= target) if higher_is_better else (value <= target):
        return "met"
    if higher_is_better:
        return f"missed by {100 * (1 - value / target):.0f}% (x{target / value:.2f} to go)"
    return f"missed by {100 * (value / target - 1):.0f}% ({value - target:.2f} over)"


def machine() -> str:
    model, cores = platform.processor() or "unknown CPU", os.cpu_count()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
        model = fields.get("Model name", model).strip()
        cores = int(fields.get("CPU(s)", cores or 0))
    except (OSError, subprocess.CalledProcessError, ValueError):
        pass
    return f"{model}, {cores} CPUs"


def plot(points: dict[int, list[float]], single: list[float], no_copy: list[float],
         path: Path) -> None:
    """Throughput against async workers (best of rounds, a bar for the range of rounds), the
    single env as a baseline, ideal scaling from it (capped at the CPU count) and two workers
    with ``copy=False``, drawn with Pillow."""
    w, h, left, bottom, top, right = 900, 540, 90, 70, 70, 30
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    font, small = text_font(18), text_font(15)
    purple, orange, grey, ink = (103, 80, 164), (200, 80, 0), (150, 150, 150), (29, 27, 32)
    best_single = max(single)
    cpus = os.cpu_count() or 1
    xs = list(points)
    ideal = [best_single * min(n, cpus) for n in xs]
    ymax = max([max(v) for v in points.values()] + ideal + [max(no_copy)]) * 1.15

    def at(i: float, v: float) -> tuple[float, float]:
        x = left + (w - left - right) * (i + 0.5) / len(xs)
        return x, h - bottom - (h - bottom - top) * v / ymax

    d.line([(left, top), (left, h - bottom), (w - right, h - bottom)], fill=(60, 60, 60), width=2)
    for k in range(6):
        v = ymax * k / 5
        y = at(0, v)[1]
        d.line([(left - 6, y), (w - right, y)], fill=(228, 228, 228))
        d.text((left - 10, y), f"{v:.0f}", font=small, fill=(60, 60, 60), anchor="rm")
    y = at(0, best_single)[1]
    d.line([(left, y), (w - right, y)], fill=orange, width=2)
    d.text((w - right - 4, y - 6), f"one env, no vector env: {best_single:.0f} steps/s",
           font=small, fill=orange, anchor="rb")
    pts = [at(i, v) for i, v in enumerate(ideal)]
    for a, b in zip(pts, pts[1:]):
        d.line([a, b], fill=grey, width=1)
    d.text((pts[-1][0] + 10, pts[-1][1]), f"ideal on {cpus} CPUs", font=small, fill=grey,
           anchor="lb")
    prev = None
    for i, n in enumerate(xs):
        x, y = at(i, max(points[n]))
        d.line([(x, at(i, min(points[n]))[1]), (x, y)], fill=purple, width=3)
        d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=purple)
        if prev is not None:
            d.line([prev, (x, y)], fill=purple, width=3)
        prev = (x, y)
        d.text((x + 12, y + 6), f"{max(points[n]):.0f}", font=font, fill=ink, anchor="lt")
        d.text((x, h - bottom + 12), f"{n} worker{'s' if n > 1 else ''}", font=font, fill=ink,
               anchor="mt")
    if 2 in xs and no_copy:
        x, y = at(xs.index(2), max(no_copy))
        d.ellipse((x - 7, y - 7, x + 7, y + 7), outline=purple, width=3)
        d.text((x + 12, y), f"{max(no_copy):.0f} with copy=False", font=small, fill=purple,
               anchor="lm")
    d.text((w // 2, 12), "Async vector env throughput, env steps/s (540x1200 + tree)",
           font=font, fill=ink, anchor="mt")
    d.text((w // 2, 38), "best of rounds; bar: range of rounds; grey: ideal scaling", font=small,
           fill=(90, 90, 90), anchor="mt")
    d.text((left, top - 8), "steps/s", font=small, fill=ink, anchor="lb")
    img.save(path)


def rounds_of(n: int) -> Iterator[int]:
    for r in range(n):
        print(f"  round {r + 1}/{n}", flush=True)
        yield r


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    p.add_argument("--seeds", type=int, default=1, help="seeds per task and round (default 1)")
    p.add_argument("--quick", action="store_true", help="2 rounds, fewer vector steps")
    p.add_argument("--profile", action="store_true", help="print the 1080x2400 step profile")
    p.add_argument("--out", type=Path, default=DOCS / "benchmarks.md")
    p.add_argument("--child-vector", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--child-steps", type=int, default=100, help=argparse.SUPPRESS)
    p.add_argument("--child-no-copy", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child_vector is not None:  # one vector measurement, for the parent to read
        n = args.child_vector
        rate, shares = ((single_env_rate(args.child_steps), []) if n == 0
                        else vector_rate(n, args.child_steps, copy=not args.child_no_copy))
        print(json.dumps({"rate": rate, "busy": shares}))
        return
    rounds = 2 if args.quick else args.rounds
    started = time.time()
    tasks = [t.id for t in phoneworld_gym.list_tasks()]
    peer_ok = have_peer()
    print(f"{len(tasks)} tasks x {args.seeds} seed(s) per round, {rounds} interleaved rounds; "
          f"peer: {'android_env FakeSimulator' if peer_ok else 'none (pip install .[real])'}")

    replays = {name: Replay(kw, tasks, args.seeds) for name, kw, _, _ in CONFIGS}
    peers = {name: Peer(size) for name, _, size, _ in CONFIGS} if peer_ok else {}
    steps: dict[str, list[float]] = {name: [] for name in replays}
    peer_steps: dict[str, list[float]] = {name: [] for name in replays}
    peer_resets: dict[str, list[float]] = {name: [] for name in replays}
    resets: dict[str, list[float]] = {name: [] for name in replays}
    print("steps and resets, PhoneWorld and FakeSimulator interleaved:")
    for r in rounds_of(rounds):
        for name, replay in replays.items():
            rate, times = replay.run(seed0=r * args.seeds)
            steps[name].append(rate)
            resets[name].append(statistics.median(times) * 1e3)
            if name in peers:
                prate, preset = peers[name].run()
                peer_steps[name].append(prate)
                peer_resets[name].append(preset * 1e3)
    for peer in peers.values():
        peer.close()
    print("resets to new seeds (each world generated):")
    fresh_env = gym.make("PhoneWorld/All-v0", disable_env_checker=True, obs_mode="a11y")
    fresh: list[float] = []
    for r in rounds_of(rounds):
        times = []
        for k in range(10):  # seeds no round has seen
            t = time.perf_counter()
            fresh_env.reset(seed=1_000_000 + 100 * r + k)
            times.append(time.perf_counter() - t)
        fresh.append(statistics.median(times) * 1e3)
    fresh_env.close()

    print("a new env instance (fresh subprocesses):")
    inst = new_instance(2 if args.quick else 3)
    print("async vector envs:")
    vec_steps = 60 if args.quick else 160
    single: list[float] = []
    vec: dict[int, list[float]] = {n: [] for n in WORKERS}
    busy: dict[int, list[float]] = {n: [] for n in WORKERS}
    no_copy: list[float] = []
    apart: list[float] = []
    for _ in rounds_of(2 if args.quick else 3):
        single.append(vector_in_child(0, vec_steps)["rate"])
        for n in WORKERS:
            got = vector_in_child(n, vec_steps)
            vec[n].append(got["rate"])
            busy[n] += got["busy"]
        no_copy.append(vector_in_child(2, vec_steps, copy=False)["rate"])
        apart.append(independent_in_children(2, vec_steps))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    caches = {k: v / 2**20 for k, v in cache_sizes().items()}

    # -- the tables
    lines: list[str] = []
    out = lines.append
    out("| configuration | PhoneWorld steps/s, best (median, range) | FakeSimulator steps/s "
        "(size) | ratio of bests | target | |")
    out("|---|---:|---:|---:|---:|---|")
    for name, _, size, target in CONFIGS:
        pw = steps[name]
        if peer_ok:
            ps = peer_steps[name]
            ratio = max(pw) / max(ps)
            out(f"| {name} | {max(pw):.0f} ({spread(pw)}) | {max(ps):.0f} ({spread(ps)}) at "
                f"{size[0]}x{size[1]} | {ratio:.2f} | >= {target:g}x | {verdict(ratio, target)} |")
        else:
            out(f"| {name} | {max(pw):.0f} ({spread(pw)}) | (no peer) | | >= {target:g}x | |")
    out("")
    out("| reset to the next task | ms: best round's median (median of rounds, range) | "
        "FakeSimulator reset ms | target | |")
    out("|---|---:|---:|---:|---|")
    for name, _, _size, _ in CONFIGS:
        rs = resets[name]
        reset_goal = RESET_TARGETS.get(name)
        peer_ms = f"{min(peer_resets[name]):.2f}" if peer_ok else ""
        goal = f"< {reset_goal:g} ms" if reset_goal else ""
        ok = verdict(min(rs), reset_goal, higher_is_better=False) if reset_goal else ""
        out(f"| {name} | {min(rs):.2f} ({spread(rs, '{:.2f}')}) | {peer_ms} | {goal} | {ok} |")
    out(f"| tree only, to a seed never seen (its world generated: 31 apps' data, photos) | "
        f"{min(fresh):.2f} ({spread(fresh, '{:.2f}')}) | | | |")
    out("")
    first = [r["env0"] for r in inst]
    second = [r["env1"] for r in inst]
    space = [r["obs_space"] for r in inst]
    out("| a new env instance (fresh process) | ms, best (median, range) | added RSS MiB, best "
        "(median, range) | target | |")
    out("|---|---:|---:|---:|---|")
    for label, runs in (("first in the process (make + reset)", first),
                        ("another one (make + reset)", second),
                        ("of which the observation space (gymnasium Box)", space)):
        ms, mb = [x["ms"] for x in runs], [x["mb"] for x in runs]
        goal = f"< {INSTANCE_TARGETS['ms']:g} ms, < {INSTANCE_TARGETS['mb']:g} MiB" \
            if runs is first else ""
        ok = ""
        if runs is first:
            ok = "; ".join(f"{what} {verdict(v, INSTANCE_TARGETS[key], False)}"
                           for what, v, key in (("time", min(ms), "ms"), ("memory", min(mb), "mb")))
        out(f"| {label} | {min(ms):.0f} ({spread(ms)}) | {min(mb):.1f} ({spread(mb, '{:.1f}')}) "
            f"| {goal} | {ok} |")
    imports = [r["import_s"] for r in inst]
    out(f"\n`import phoneworld_gym` (with gymnasium): {min(imports):.2f} s, "
        f"{min(r['import_mb'] for r in inst):.0f} MiB.")
    out("")
    out("| async vector env (540x1200 + tree) | env steps/s, best (median, range) | "
        "vs one env |")
    out("|---|---:|---:|")
    out(f"| one env (no vector env) | {max(single):.0f} ({spread(single)}) | 1.00 |")
    for n in WORKERS:
        ratio = max(vec[n]) / max(single)
        note = f" (target >= {VECTOR_TARGET:g}: {verdict(ratio, VECTOR_TARGET)})" if n == 2 else ""
        out(f"| {n} async worker{'s' if n > 1 else ''} | {max(vec[n]):.0f} ({spread(vec[n])}) | "
            f"{ratio:.2f}{note} |")
    out(f"| 2 async workers, `copy=False` | {max(no_copy):.0f} ({spread(no_copy)}) | "
        f"{max(no_copy) / max(single):.2f} |")
    out(f"| 2 single envs in 2 processes at once, no vector env (the machine's ceiling) | "
        f"{max(apart):.0f} ({spread(apart)}) | {max(apart) / max(single):.2f} |")
    if busy[2]:
        out("")
        out("Share of the time each async worker process was on a CPU (all rounds): "
            + "; ".join(f"{n} worker{'s' if n > 1 else ''} {min(busy[n]):.0%}-"
                        f"{max(busy[n]):.0%}" for n in WORKERS if busy[n])
            + ". A vector env steps its sub-envs in lockstep: each step waits for the slowest "
            "sub-env and for the main process to hand the next actions out.")
    out("")
    out(f"Peak RSS of the benchmark process: {rss:.0f} MiB; renderer caches: "
        + ", ".join(f"{k} {v:.1f} MiB" for k, v in caches.items()) + ".")
    table = "\n".join(lines)
    print()
    print(table)

    DOCS.mkdir(exist_ok=True)
    png = DOCS / "benchmark_workers.png"
    plot(vec, single, no_copy, png)
    prof = ""
    if args.profile:
        prof = replays["1080x2400 + tree"].profile(25)
        print(prof)
    took = time.time() - started
    md = [
        "# Benchmarks",
        "",
        f"The latest `make bench` (`python examples/benchmark.py`), "
        f"{dt.datetime.now().strftime('%Y-%m-%d %H:%M')}: {machine()}; Python "
        f"{platform.python_version()}, numpy {np.__version__}, "
        f"Pillow {Image.__version__}, gymnasium {gym.__version__}; {rounds} interleaved rounds "
        f"of {len(tasks)} tasks x {args.seeds} seed(s), {took:.0f} s in all.",
        "",
        "Each figure is the best of the rounds, with the median and range of all rounds in "
        "brackets; "
        "PhoneWorld and android_env's FakeSimulator (its own overhead: random frames, no apps) "
        "run interleaved in the same process, so ratios compare like with like on a noisy "
        "machine. Steps replay every task's oracle (real screens, taps, typing and the "
        "verifier at the end); resets go to the next task of the replay.",
        "",
        table,
        "",
        f"![Async vector env throughput against workers]({png.name})",
        "",
        BEFORE,
        "",
        NOTES,
        "",
        "How the frame is made is described in `phoneworld_gym/ui/render.py` (display "
        "lists, damage, ownership of the returned arrays) and `phoneworld_gym/phone.py` (which "
        "caches are kept and why they are never stale).",
    ]
    if prof:
        md += ["", "Top functions of the 1080x2400 step (cProfile, own time):", "", "```",
               prof.strip(), "```"]
    args.out.write_text("\n".join(md) + "\n")
    print(f"\nwrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out} "
          f"and {png.relative_to(ROOT)} ({took:.0f} s)")


if __name__ == "__main__":
    main()
