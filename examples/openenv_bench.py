"""Throughput of the PhoneWorld OpenEnv server with many concurrent sessions.

Starts ``phoneworld serve-env`` in its own process, opens N sessions from one asyncio client
process (OpenEnv's ``EnvClient``: one WebSocket each), resets them all, then steps every
session as fast as the server answers for a fixed time, with a seeded mix of actions (taps,
scrolls, back, home, opening apps, waits; now and then ``status``, which ends the episode and
runs the verifier; an ended episode is reset). Prints, per session count: steps/s, p50/p99
step latency, the time to reset them all, and memory per session (server RSS growth / N,
right after the resets and again after stepping, when each session holds drawn screens).

    python examples/openenv_bench.py                      # 32 and 256 sessions, a11y + 270x600
    python examples/openenv_bench.py --sessions 32 --seconds 10 --obs-mode a11y

Client and server share the machine: on a small one the numbers are a floor. The table says
the load average, since other work on the machine moves them.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import numpy as np

from phoneworld_gym.envserver import PhoneWorldClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = ("Contacts", "Shopping", "Messages", "Calendar", "Settings", "Clock", "Notes")


@dataclasses.dataclass
class Settings:
    """What one benchmark run does."""

    sessions: tuple[int, ...] = (32, 256)
    """concurrent sessions, one run per count"""
    seconds: float = 20.0
    """how long each run steps"""
    obs_mode: str = "all"
    """all (screenshot + tree), pixels or a11y"""
    screenshot_size: tuple[int, int] = (270, 600)
    """screenshot (width, height) when the observation has one"""
    seed: int = 0
    """seeds the episodes and the action mix"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _action(rng: np.random.Generator) -> dict[str, object]:
    r = rng.random()
    if r < 0.45:
        return {"action_type": "click", "x": int(rng.integers(0, 1080)),
                "y": int(rng.integers(0, 2400))}
    if r < 0.65:
        return {"action_type": "scroll", "direction": str(rng.choice(["up", "down"]))}
    if r < 0.75:
        return {"action_type": "navigate_back"}
    if r < 0.82:
        return {"action_type": "navigate_home"}
    if r < 0.92:
        return {"action_type": "open_app", "app_name": str(rng.choice(APPS))}
    if r < 0.98:
        return {"action_type": "wait"}
    return {"action_type": "status", "goal_status": "complete"}


async def _run(url: str, pid: int, n: int, s: Settings) -> dict[str, float]:
    """Open ``n`` sessions, reset them, step them for ``s.seconds``; the figures."""
    base = _rss_mib(pid)
    clients = [PhoneWorldClient(url, message_timeout_s=300) for _ in range(n)]
    t0 = time.perf_counter()
    await asyncio.gather(*(c.connect() for c in clients))
    await asyncio.gather(*(c.reset(seed=s.seed + k) for k, c in enumerate(clients)))
    reset_s = time.perf_counter() - t0
    grown = _rss_mib(pid) - base
    latencies: list[float] = []
    resets = 0
    stop = time.perf_counter() + s.seconds

    async def drive(k: int, c: PhoneWorldClient) -> None:
        nonlocal resets
        rng = np.random.default_rng([s.seed, k])
        while time.perf_counter() < stop:
            t = time.perf_counter()
            result = await c.step(_action(rng))
            latencies.append(time.perf_counter() - t)
            if result.done:
                await c.reset(seed=int(rng.integers(1 << 30)))
                resets += 1

    t1 = time.perf_counter()
    await asyncio.gather(*(drive(k, c) for k, c in enumerate(clients)))
    elapsed = time.perf_counter() - t1
    stepped = _rss_mib(pid) - base  # the sessions now hold drawn screens and caches
    await asyncio.gather(*(c.close() for c in clients))
    lat = np.array(latencies) * 1000
    return {"sessions": n, "steps": len(lat), "steps_per_s": len(lat) / elapsed,
            "p50_ms": float(np.percentile(lat, 50)), "p99_ms": float(np.percentile(lat, 99)),
            "resets": resets, "reset_all_s": reset_s, "mib_after_reset": grown / n,
            "mib_after_steps": stepped / n, "server_rss_mib": base + stepped}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print a Markdown table and the command line."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sessions", type=int, nargs="+", default=list(Settings.sessions))
    p.add_argument("--seconds", type=float, default=Settings.seconds)
    p.add_argument("--obs-mode", choices=("all", "pixels", "a11y"), default=Settings.obs_mode)
    p.add_argument("--screenshot-size", default="x".join(map(str, Settings.screenshot_size)))
    a = p.parse_args(argv)
    w, h = (int(v) for v in a.screenshot_size.split("x"))
    s = Settings(tuple(a.sessions), a.seconds, a.obs_mode, (w, h))
    load_before = os.getloadavg()
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "phoneworld_gym", "serve-env", "--port", str(port),
         "--max-sessions", str(max(s.sessions)), "--obs-mode", s.obs_mode,
         "--screenshot-size", f"{w}x{h}", "--idle-timeout", "0"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=5) as r:
                    if json.loads(r.read())["status"] == "healthy":
                        break
            except OSError:
                time.sleep(0.2)
        asyncio.run(_run(url, server.pid, 1, dataclasses.replace(s, seconds=1.0)))  # warm up
        rows = [asyncio.run(_run(url, server.pid, n, s)) for n in s.sessions]
    finally:
        server.terminate()
        server.wait(30)
    obs = s.obs_mode + ("" if s.obs_mode == "a11y" else f", screenshot {w}x{h} PNG")
    load = " / ".join(", ".join(f"{v:.1f}" for v in avg)
                      for avg in (load_before, os.getloadavg()))
    print(f"\nPhoneWorld OpenEnv server, {os.cpu_count()} CPUs (client and server on the same "
          f"machine), observation: {obs}; load average before/after: {load}\n")
    print("| sessions | steps/s | p50 step (ms) | p99 step (ms) | reset all (s) | "
          "MiB/session after reset | MiB/session after steps | server RSS (MiB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['sessions']} | {r['steps_per_s']:.0f} | {r['p50_ms']:.0f} | "
              f"{r['p99_ms']:.0f} | {r['reset_all_s']:.1f} | {r['mib_after_reset']:.1f} | "
              f"{r['mib_after_steps']:.1f} | {r['server_rss_mib']:.0f} |")
    print(f"\ncommand: python examples/openenv_bench.py {' '.join(argv or sys.argv[1:])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
