"""How faithful a rebuilt app is to the PhoneWorld app it was explored from.

Both run on PhoneWorld devices pinned to the exploration's seed (the rebuild recorded that
world). Figures (:class:`Fidelity`):

- ``declared_screens``: share of the original's declared screens (``App.screens``) that the
  recording reached *and* the rebuild shows with the same signature;
- ``screens``: share of recorded screens the rebuild shows, with the recorded signature,
  when reached by its shortest path in the graph through the rebuild's own UI;
- ``transitions``: share of recorded transitions the rebuild reproduces (same action on the
  source screen gives the recorded destination);
- ``walks``: random walks (taps, typing and Back, drawn on the original's screen) played on
  both: the share of steps whose signatures agree before the first disagreement;
- ``oracle_steps`` / ``oracle_final``: every task of the original app (``list_tasks(app=)``),
  its oracle played on the original and the same actions replayed on the rebuild: the share
  of steps that agree before the first disagreement, and the share of tasks whose final
  screen matches;
- ``tasks_solved``: share of the rebuild's generated tasks that their oracle solves;
- ``learning`` (when measured, :mod:`~phoneworld_gym.reconstruct.retention`): a policy
  trained by behaviour cloning on the rebuild alone, its success on the rebuild and on the
  original over a device, and ``retention`` = original / rebuild.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

import phoneworld_gym
from phoneworld_gym.app import App, get_app
from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.reconstruct.explore import screen_actions, to_action
from phoneworld_gym.reconstruct.rebuild import RecordedApp
from phoneworld_gym.reconstruct.tasks import steps_of
from phoneworld_gym.reconstruct.tree import OUTSIDE, package, signature

if TYPE_CHECKING:
    from phoneworld_gym.reconstruct.retention import Retention


class PinnedDevice(PhoneWorldDevice):
    """A PhoneWorld device whose every reset goes to one seed (the world a recording saw)."""

    def __init__(self, seed: int, apps: list[str] | None = None):
        super().__init__(apps=apps, screenshot_size=(108, 240))
        self.pinned = seed

    def reset(self, seed: int) -> None:
        super().reset(self.pinned)


@dataclasses.dataclass
class Fidelity:
    """One rebuilt app against its original (see the module docstring)."""

    app: str
    recorded_screens: int
    recorded_transitions: int
    declared_screens: float
    screens: float
    transitions: float
    walks: float
    oracle_tasks: int
    oracle_steps: float
    oracle_final: float
    tasks_solved: float
    #: retention for learning, when measured (see the module docstring)
    learning: Retention | None = None

    def row(self, learning: bool = False) -> str:
        """This app as a Markdown table row (see :func:`table`; ``learning``: with the
        retention columns)."""
        pct = "{:.0%}".format
        out = (f"| {self.app} | {self.recorded_screens} | {self.recorded_transitions} | "
               f"{pct(self.declared_screens)} | {pct(self.screens)} | {pct(self.transitions)} "
               f"| {pct(self.walks)} | {self.oracle_tasks} | {pct(self.oracle_steps)} | "
               f"{pct(self.oracle_final)} | {pct(self.tasks_solved)} |")
        if learning:
            r = self.learning
            if r is None:
                out += " - | - | - |"
            else:
                n = len(r.rebuild)
                ret = "n/a" if r.retention is None else pct(r.retention)
                out += (f" {pct(r.rebuild_success)} ({sum(e.success for e in r.rebuild)}/{n}) "
                        f"| {pct(r.original_success)} "
                        f"({sum(e.success for e in r.original)}/{n}) | {ret} |")
        return out


def table(rows: list[Fidelity]) -> str:
    """A Markdown table of fidelity figures, one row per app; with the retention columns
    (BC success on the rebuild, on the original, retention) when any row has them."""
    learning = any(r.learning is not None for r in rows)
    head = ("| app | screens rec. | transitions rec. | declared screens | screens | "
            "transitions | walk agreement | oracle tasks | oracle steps | oracle final | "
            "generated tasks solved |")
    cols = 11
    if learning:
        head += " BC success rebuild | BC success original | retention |"
        cols += 3
    head += "\n|" + "---|" * cols
    return "\n".join([head, *(r.row(learning) for r in rows)])


def _sig(device: Device, pkg: str) -> str:
    xml = device.a11y_xml()
    return signature(xml) if package(xml) == pkg else OUTSIDE


def _open(device: PhoneWorldDevice, label: str) -> None:
    device.reset(0)
    err = device.execute(Action("open_app", app_name=label))
    if err:
        raise RuntimeError(err)


def _reach(device: PhoneWorldDevice, app: RecordedApp, path: list[str]) -> None:
    """Open the rebuild and follow a path of action ids through its UI."""
    _open(device, app.label)
    for src, a in steps_of(app.recording, path):
        device.execute(to_action(app.recording.actions[(src, a)]))
        if a.startswith("input:") and device.world.focus is not None:
            device.execute(Action("navigate_back"))  # as the explorer hid the keyboard


def measure(original: App, rebuilt: RecordedApp, *, walks: int = 20, walk_len: int = 8,
            seed: int = 0, max_oracle_tasks: int = 12) -> Fidelity:
    """Measure ``rebuilt`` against ``original`` (see the module docstring)."""
    rec = rebuilt.recording
    seed = int(rec.state.get("seed", 0))
    orig_dev = PinnedDevice(seed)
    new_dev = PinnedDevice(seed)
    opkg, npkg = original.package, rebuilt.package
    paths = rec.paths()

    # screens and transitions, through the rebuild's UI
    shown: dict[str, bool] = {}
    snaps: dict[str, dict[str, Any]] = {}
    for sid in rec.screen_ids:
        if sid not in paths:
            shown[sid] = False
            continue
        _reach(new_dev, rebuilt, paths[sid])
        shown[sid] = _sig(new_dev, npkg) == rec.sigs[sid]
        if shown[sid]:
            snaps[sid] = new_dev.snapshot()
    good = 0
    for (src, a), dst in rec.edges.items():
        if src not in snaps:
            continue
        new_dev.restore(snaps[src])
        new_dev.execute(to_action(rec.actions[(src, a)]))
        got = _sig(new_dev, npkg)
        good += got == (OUTSIDE if dst == OUTSIDE else rec.sigs[dst])

    # the original's declared screens that the rebuild shows
    reached: set[str] = set()
    for sid in rec.screen_ids:
        if not shown[sid]:
            continue
        _open(orig_dev, original.label)
        for a in rec.state["screens"][rec.sigs[sid]]["path"]:
            orig_dev.execute(to_action(a))
        top = orig_dev.world.top()
        if orig_dev.world.foreground == original.name and top is not None:
            reached.add(str(top["screen"]))
    declared = len(reached & set(original.screens)) / max(1, len(original.screens))

    # random walks on both
    rng = np.random.default_rng(seed)
    agree = total = 0
    for _ in range(walks):
        _open(orig_dev, original.label)
        _open(new_dev, rebuilt.label)
        ok = True
        for _ in range(walk_len):
            xml = orig_dev.a11y_xml()
            if package(xml) != opkg:
                break
            choices = screen_actions(xml)
            action = to_action(choices[int(rng.integers(len(choices)))])
            orig_dev.execute(action)
            new_dev.execute(action)
            total += 1
            ok = ok and _sig(orig_dev, opkg) == _sig(new_dev, npkg)
            agree += ok

    # the original's oracles replayed on the rebuild
    steps_ok = steps_all = finals = ntasks = 0
    for t in phoneworld_gym.list_tasks(app=original.name)[:max_oracle_tasks]:
        env = phoneworld_gym.PhoneEnv(tasks=t.id, device=PinnedDevice(seed), obs_mode="a11y")
        try:
            env.reset(seed=seed)
            played: list[tuple[Action, str]] = []
            dev = env.device
            for action in env.oracle():
                if action.action_type in ("status", "answer"):
                    break
                _, _, term, trunc, _ = env.step(action)
                played.append((action, _sig(dev, opkg)))
                if term or trunc:
                    break
        except Exception:  # noqa: BLE001 - a task this world cannot pose is skipped
            continue
        finally:
            env.close()
        if not played:
            continue
        ntasks += 1
        new_dev.reset(seed)
        ok = True
        last = ""
        for action, want in played:
            if action.action_type == "open_app":
                action = Action("open_app", app_name=rebuilt.label)
            new_dev.execute(action)
            last = _sig(new_dev, npkg)
            ok = ok and last == want
            steps_ok += ok
            steps_all += 1
        finals += last == played[-1][1]

    # the rebuild's own generated tasks
    solved = gen = 0
    for t in phoneworld_gym.list_tasks(app=rebuilt.name):
        env = phoneworld_gym.PhoneEnv(tasks=t.id, obs_mode="a11y")
        env.reset(seed=seed)
        reward = 0.0
        for action in env.oracle():
            _, reward_f, term, trunc, _ = env.step(action)
            reward = float(reward_f)
            if term or trunc:
                break
        env.close()
        gen += 1
        solved += reward == 1.0

    return Fidelity(
        app=original.name, recorded_screens=len(rec.screen_ids),
        recorded_transitions=len(rec.edges), declared_screens=declared,
        screens=sum(shown.values()) / max(1, len(shown)),
        transitions=good / max(1, len(rec.edges)), walks=agree / max(1, total),
        oracle_tasks=ntasks, oracle_steps=steps_ok / max(1, steps_all),
        oracle_final=finals / max(1, ntasks), tasks_solved=solved / max(1, gen))


def original_app(label_or_name: str) -> App:
    """The PhoneWorld app a label or name names."""
    for app in phoneworld_gym.app.all_apps().values():
        if label_or_name in (app.name, app.label):
            return app
    return get_app(label_or_name)
