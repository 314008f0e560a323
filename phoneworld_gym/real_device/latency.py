"""Step latency through adb against the direct PhoneWorld step, side by side.

    python -m phoneworld_gym.real_device.latency                 # virtual phone, a11y obs
    python -m phoneworld_gym.real_device.latency --obs-mode all  # with full-size screenshots
    python -m phoneworld_gym.real_device.latency --serial R58M123ABC --port 5037  # a phone

Every phone-ready task's oracle is played for each seed twice: on PhoneWorld directly and
through :class:`~phoneworld_gym.real_device.adb_device.AdbDevice` (by default against a
:class:`~phoneworld_gym.virtual.adb_server.VirtualPhone` on a private adb server, which is
killed at the end), without the safety guard (it would refuse the texts some oracles send).
``env.step`` and ``env.reset`` are timed; the oracle's own reads of the screen between steps
are not. Prints one Markdown table per task and the totals.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from phoneworld_gym.env import PhoneEnv


def episode(env: PhoneEnv, seed: int) -> dict[str, Any]:
    """Play the oracle once; the reset time, every step's time (s) and the reward."""
    t0 = time.perf_counter()
    env.reset(seed=seed)
    reset_s = time.perf_counter() - t0
    steps: list[float] = []
    reward = 0.0
    for action in env.oracle():
        t0 = time.perf_counter()
        _, reward, term, trunc, _ = env.step(action)
        steps.append(time.perf_counter() - t0)
        if term or trunc:
            break
    return {"reset": reset_s, "steps": steps, "reward": float(reward)}


@contextmanager
def virtual_phone() -> Iterator[tuple[str, int]]:
    """A virtual phone and a private adb server: (serial, server port)."""
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    port = free_port()
    home = tempfile.mkdtemp(prefix="adb-home-")
    env = {**os.environ, "HOME": home, "ANDROID_ADB_SERVER_PORT": str(port)}
    subprocess.run(["adb", "-P", str(port), "start-server"], env=env, capture_output=True,
                   timeout=60, check=True)
    try:
        with VirtualPhone(port=free_port(), seed=0) as phone:
            yield phone.serial, port
    finally:
        subprocess.run(["adb", "-P", str(port), "kill-server"], env=env, capture_output=True,
                       timeout=60, check=False)


def measure(serial: str, port: int, tasks: list[str], seeds: list[int],
            obs_mode: str) -> list[dict[str, Any]]:
    """Per task and backend: mean ms per step, mean reset ms, rewards."""
    from phoneworld_gym.real_device.adb_device import AdbDevice

    device = AdbDevice(serial, port=port, guard=False)  # adb's cost, not the policy's
    rows = []
    for task_id in tasks:
        for name in ("direct", "adb"):
            env = PhoneEnv(tasks=task_id, obs_mode=obs_mode,
                           device=device if name == "adb" else None)
            runs = [episode(env, s) for s in seeds]
            env.close()
            steps = [t for r in runs for t in r["steps"]]
            rows.append({"task": task_id, "backend": name, "steps": len(steps),
                         "step_ms": 1000 * statistics.mean(steps),
                         "reset_ms": 1000 * statistics.mean(r["reset"] for r in runs),
                         "rewards": [r["reward"] for r in runs], "all_steps": steps})
    return rows


def report(rows: list[dict[str, Any]], obs_mode: str) -> str:
    """The side-by-side table (Markdown)."""
    lines = [f"obs_mode={obs_mode}", "",
             "| task | steps | direct ms/step | adb ms/step | direct reset ms | adb reset ms | "
             "rewards direct / adb |", "|---|---:|---:|---:|---:|---:|---|"]
    by_task: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        by_task.setdefault(r["task"], {})[r["backend"]] = r
    for task, b in by_task.items():
        d, a = b["direct"], b["adb"]
        lines.append(f"| {task} | {a['steps']} | {d['step_ms']:.1f} | {a['step_ms']:.1f} | "
                     f"{d['reset_ms']:.1f} | {a['reset_ms']:.1f} | {d['rewards']} / "
                     f"{a['rewards']} |")
    for name in ("direct", "adb"):
        steps = [t for r in rows if r["backend"] == name for t in r["all_steps"]]
        resets = [r["reset_ms"] for r in rows if r["backend"] == name]
        solved = sum(x == 1.0 for r in rows if r["backend"] == name for x in r["rewards"])
        total = sum(len(r["rewards"]) for r in rows if r["backend"] == name)
        lines.append("")
        lines.append(f"{name}: {len(steps)} steps, mean {1000 * statistics.mean(steps):.1f} "
                     f"ms/step, median {1000 * statistics.median(steps):.1f} ms, mean reset "
                     f"{statistics.mean(resets):.1f} ms, solved {solved}/{total}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    from phoneworld_gym.real_device.adb_device import phone_tasks

    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--serial", help="a phone (default: a virtual phone of its own)")
    p.add_argument("--port", type=int, default=5037, help="adb server port (with --serial)")
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    p.add_argument("--obs-mode", default="a11y", choices=["a11y", "all", "pixels"])
    p.add_argument("--tasks", nargs="+", help="default: every phone-ready task")
    a = p.parse_args(argv)
    tasks = a.tasks or phone_tasks()
    if a.serial:
        rows = measure(a.serial, a.port, tasks, a.seeds, a.obs_mode)
    else:
        with virtual_phone() as (serial, port):
            rows = measure(serial, port, tasks, a.seeds, a.obs_mode)
    print(report(rows, a.obs_mode))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
