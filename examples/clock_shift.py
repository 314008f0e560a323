"""Every task's oracle on a phone whose clock starts on another day.

Apps generate their data around the phone's start clock and tasks read the date from
``probe.now()``, so a task must pose, solve and verify the same way on any day. This plays
each task's oracle (and, with ``--near-miss``, its near miss) on a PhoneWorld phone started at
``--clock`` and lists the tasks whose oracle did not score 1.0 (or whose near miss scored).

    python examples/clock_shift.py --clock 2026-07-22T09:10:00 --seeds 0:2
"""

from __future__ import annotations

import argparse
import sys
import traceback

import gymnasium

import phoneworld_gym  # noqa: F401  (registers the envs)
from phoneworld_gym.contract import Action
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.task import all_tasks


def play(env, script) -> tuple[float, str]:
    """Step a script's actions; claim completion if it stops without ending."""
    info: dict = {}
    for action in script():
        _, reward, term, trunc, info = env.step(action)
        if info.get("action_error"):
            return 0.0, f"action {action} refused: {info['action_error']}"
        if term or trunc:
            return float(reward), ""
    _, reward, *_ = env.step(Action("status", goal_status="complete"))
    return float(reward), ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clock", default="2026-07-22T09:10:00")
    ap.add_argument("--seeds", default="0:2", help="START:STOP")
    ap.add_argument("--tasks", nargs="*", help="task ids (default: all)")
    ap.add_argument("--near-miss", action="store_true")
    args = ap.parse_args(argv)
    lo, hi = (int(x) for x in args.seeds.split(":"))
    ids = args.tasks or sorted(all_tasks())
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y",
                         device=PhoneWorldDevice(start_clock=args.clock))
    bad = []
    for tid in ids:
        for seed in range(lo, hi):
            try:
                env.reset(seed=seed, options={"task": tid})
                reward, why = play(env, env.unwrapped.oracle)
                if reward != 1.0:
                    bad.append((tid, seed, f"oracle scored {reward} {why}".strip()))
                    continue
                if args.near_miss:
                    env.reset(seed=seed, options={"task": tid})
                    task = env.unwrapped.task
                    reward, _ = play(env, lambda t=task: t.near_miss(env.unwrapped.device))
                    if reward != 0.0:
                        bad.append((tid, seed, f"near miss scored {reward}"))
            except Exception as e:  # noqa: BLE001 (listed, not raised: the report is the point)
                bad.append((tid, seed, f"{type(e).__name__}: {e}"))
                traceback.print_exc(limit=2, file=sys.stderr)
    env.close()
    for tid, seed, why in bad:
        print(f"{tid} seed {seed}: {why}")
    print(f"{len(ids)} tasks x {hi - lo} seeds at {args.clock}: {len(bad)} failures, "
          f"{len({b[0] for b in bad})} tasks")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
