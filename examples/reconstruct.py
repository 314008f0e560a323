"""Explore PhoneWorld apps over adb on the virtual phone, rebuild each as a PhoneWorld app and
print how faithful the rebuild is (see docs/reconstruction.md).

    python examples/reconstruct.py --apps Clock Contacts Settings --steps 600

By default it also measures retention for learning: a behaviour-cloning policy trained on
each rebuild's generated tasks alone is played on the rebuild and on the original over adb
(``phoneworld_gym.reconstruct.retention``); ``--no-retention`` skips it (no torch needed).

With ``--serial`` it explores an app on a real phone (or emulator) instead and only records
and rebuilds it (there is no original to measure against): ``--out`` keeps the recording.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path


@dataclasses.dataclass
class Settings:
    """What to explore and how long."""

    #: launcher labels of the apps to explore
    apps: tuple[str, ...] = ("Clock", "Contacts", "Settings")
    #: device actions per app
    steps: int = 600
    #: seconds per app
    seconds: float = 300.0
    #: random walks per app for the walk agreement
    walks: int = 20
    #: a real phone's serial (explore and rebuild only); None: the virtual adb phone
    serial: str | None = None
    #: where recordings go (default: a temporary folder)
    out: str | None = None
    #: measure retention for learning (BC on the rebuild, played on the original over adb)
    retention: bool = True
    #: oracle demonstrations per generated task, and BC epochs
    bc_episodes: int = 2
    bc_epochs: int = 300
    #: evaluation seeds per task (the same on the rebuild and on the original)
    eval_seeds: int = 2


def main(s: Settings) -> None:
    from phoneworld_gym.phone import PhoneWorldDevice
    from phoneworld_gym.real_device.adb_device import AdbDevice
    from phoneworld_gym.reconstruct import Budget, explore, install
    from phoneworld_gym.reconstruct.fidelity import measure, original_app, table
    from phoneworld_gym.reconstruct.retention import EVAL_SEED0, measure_retention
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    out = Path(s.out or tempfile.mkdtemp(prefix="phoneworld-rec-"))
    budget = Budget(steps=s.steps, seconds=s.seconds)
    if s.serial is not None:
        device = AdbDevice(s.serial, guard=False)
        for label in s.apps:
            st = explore(device, label, out / label, budget=budget)
            app = install(out / label)
            print(f"{label}: {len(st['screens'])} screens, {len(st['transitions'])} "
                  f"transitions -> installed as {app.label!r} ({app.name}) from {out / label}")
        return
    rows = []
    with VirtualPhone(PhoneWorldDevice(screenshot_size=(270, 600)), port=free_port()) as phone:
        device = AdbDevice(phone.serial, guard=False)
        for label in s.apps:
            start = time.monotonic()
            explore(device, label, out / label, budget=budget)
            took = time.monotonic() - start
            rebuilt = install(out / label)
            row = measure(original_app(label), rebuilt, walks=s.walks)
            print(f"{label}: explored over adb in {took:.0f} s into {out / label}")
            if s.retention:
                start = time.monotonic()
                row.learning = measure_retention(
                    rebuilt, device, label, episodes=s.bc_episodes, epochs=s.bc_epochs,
                    seeds=range(EVAL_SEED0, EVAL_SEED0 + s.eval_seeds))
                print(f"{row.learning.summary()} ({time.monotonic() - start:.0f} s)")
                for a, b in zip(row.learning.rebuild, row.learning.original):
                    if a.success != b.success:
                        print(f"  {a.task} seed {a.seed}: rebuild {a.success} ({a.why:.80}), "
                              f"original {b.success} ({b.why:.120})")
            rows.append(row)
        device.close()
    print(table(rows))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--apps", nargs="+", default=list(Settings.apps))
    p.add_argument("--steps", type=int, default=Settings.steps)
    p.add_argument("--seconds", type=float, default=Settings.seconds)
    p.add_argument("--walks", type=int, default=Settings.walks)
    p.add_argument("--serial", default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--retention", action=argparse.BooleanOptionalAction,
                   default=Settings.retention,
                   help="BC on each rebuild, played on the original over adb (default: on)")
    p.add_argument("--bc-episodes", type=int, default=Settings.bc_episodes)
    p.add_argument("--bc-epochs", type=int, default=Settings.bc_epochs)
    p.add_argument("--eval-seeds", type=int, default=Settings.eval_seeds)
    a = p.parse_args()
    main(Settings(tuple(a.apps), a.steps, a.seconds, a.walks, a.serial, a.out, a.retention,
                  a.bc_episodes, a.bc_epochs, a.eval_seeds))
