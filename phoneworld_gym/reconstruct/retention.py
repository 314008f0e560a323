"""Retention for learning: a policy trained only on a rebuilt app, played on the original.

The policy is behaviour cloning (``phoneworld_gym.baselines.bc.train_bc``: oracle
demonstrations of the rebuild's generated tasks through ``ElementActions``, an
``ElementPolicy`` fitted to them), played as an ``ElementAgent``. It never sees the original
while it learns. Each generated task is then played on the same evaluation seeds on both
sides, with the same step cap (the task's step budget):

- **on the rebuild**: a ``PhoneEnv`` of the rebuilt app; success is the rebuilt env's own
  verifier (``info["success"]``: the ``<name>/screen`` and ``<name>/entered`` tables);
- **on the original** (any :class:`~phoneworld_gym.device.Device`: the virtual adb phone
  through ``AdbDevice`` in ``examples/reconstruct.py`` and the tests, or a real phone): the
  device is reset to the world the recording saw (the exploration's seed; a real phone keeps
  its data), the agent gets the *same goal text* the rebuilt env gave on that seed (it names
  the rebuilt app: ``open_app`` of the rebuilt label is sent as ``open_app`` of the original
  label, nothing else is changed), and the episode ends as a ``PhoneEnv`` episode does (the
  agent's ``status`` or ``answer``, else the step cap). Success is judged on the device's
  tree by :class:`OriginalCheck`: the original app's package in front and the tree's
  structural signature (:func:`~phoneworld_gym.reconstruct.tree.signature`, the screen
  identity the explorer used) equal to the recorded signature of the task's target screen;
  for a fill task also the value in the field, read from the trees: the last tree that showed
  the recorded field (an editable node of its class, resource id and hint) showed the task's
  value in it. An agent that says ``infeasible`` fails on both sides.

What the check on the original does not see: state the agent changed on the way (the
rebuild's verifier would flag it only in its own two tables, so neither side scores damage).

``retention = original success / rebuild success`` (None when nothing succeeded on the
rebuild). :func:`measure_retention` returns the episode lists it is computed from.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

import phoneworld_gym
from phoneworld_gym.app import get_app
from phoneworld_gym.contract import Action, parse_ui_elements
from phoneworld_gym.device import Device
from phoneworld_gym.reconstruct.rebuild import RecordedApp
from phoneworld_gym.reconstruct.tasks import GeneratedFillTask, GeneratedTask
from phoneworld_gym.reconstruct.tree import OUTSIDE, Node, informative, package, signature

#: evaluation seeds start here (``baselines.bc.EVAL_SEED0``; demos use ``DEMO_SEED0``)
EVAL_SEED0 = 1_000_000


@dataclasses.dataclass(frozen=True)
class Episode:
    """One evaluation episode: which task, on which seed, whether it succeeded, how many
    steps it took, where it ended and why it failed (``""`` on success)."""

    task: str
    seed: int
    success: bool
    steps: int
    #: the signature of the last screen (``tree.OUTSIDE`` when another app was in front)
    final: str
    why: str = ""


def _share(episodes: Sequence[Episode]) -> float:
    return sum(e.success for e in episodes) / max(1, len(episodes))


@dataclasses.dataclass
class Retention:
    """A rebuild-trained policy's episodes on the rebuild and on the original (paired: the
    same tasks and seeds in the same order) and its training report."""

    app: str
    rebuild: list[Episode]
    original: list[Episode]
    train: dict[str, Any]

    @property
    def rebuild_success(self) -> float:
        """Share of the episodes on the rebuild its verifier scored 1."""
        return _share(self.rebuild)

    @property
    def original_success(self) -> float:
        """Share of the episodes on the original that :class:`OriginalCheck` accepted."""
        return _share(self.original)

    @property
    def retention(self) -> float | None:
        """``original_success / rebuild_success``; None when nothing succeeded on the
        rebuild."""
        return self.original_success / self.rebuild_success if self.rebuild_success else None

    def by_kind(self) -> dict[str, tuple[int, int, int]]:
        """``{"Reach" | "Fill": (episodes, successes on the rebuild, on the original)}``."""
        out: dict[str, tuple[int, int, int]] = {}
        for a, b in zip(self.rebuild, self.original):
            kind = "Fill" if "Fill" in a.task else "Reach"
            n, r, o = out.get(kind, (0, 0, 0))
            out[kind] = (n + 1, r + a.success, o + b.success)
        return out

    def summary(self) -> str:
        """One line: the training and both success counts (by task kind too)."""
        n = len(self.rebuild)
        ret = "n/a" if self.retention is None else f"{self.retention:.0%}"
        kinds = "; ".join(f"{k}: {r}/{m} rebuild, {o}/{m} original"
                          for k, (m, r, o) in sorted(self.by_kind().items(), reverse=True))
        return (f"{self.app}: BC ({self.train.get('samples')} demo steps, loss "
                f"{self.train.get('loss_first')} -> {self.train.get('loss_last')}) succeeds in "
                f"{sum(e.success for e in self.rebuild)}/{n} episodes on the rebuild, "
                f"{sum(e.success for e in self.original)}/{n} on the original: retention {ret} "
                f"({kinds})")


class OriginalCheck:
    """Whether a generated task is done on the *original* app, from the device's trees (see
    the module docstring). Feed it every tree the episode shows (:meth:`observe`), then ask
    :meth:`verdict` on the last one."""

    def __init__(self, task: GeneratedTask, original_package: str):
        app = get_app(task.app_name)
        assert isinstance(app, RecordedApp)
        rec = app.recording
        self.package = original_package
        self.target = task.target
        self.want = rec.sigs[task.target]
        self.names = {sig: sid for sid, sig in rec.sigs.items()}
        self.fill = isinstance(task, GeneratedFillTask)
        self.field_key = task.field_key if isinstance(task, GeneratedFillTask) else -1
        #: the recorded field's class, resource id and hint (None for a reach task)
        self.field = self._field_id(informative(rec.xml(task.form))[task.field_key]) \
            if isinstance(task, GeneratedFillTask) else None
        self.value = str(task.params.get("value", "")) if self.fill else ""
        #: the field's text on the last tree that showed it (None: never seen)
        self.field_text: str | None = None

    def observe(self, xml: str) -> None:
        """Note the fill field's text when ``xml`` (the original app in front) shows the
        recorded field: an editable node of the same class, resource id and hint (the
        screen around it may differ from the recorded form: a search list filters as you
        type)."""
        if self.field is None or package(xml) != self.package:
            return
        same = [(k, n) for k, n in enumerate(informative(xml))
                if n.editable and self._field_id(n) == self.field]
        if same:
            k, n = min(same, key=lambda kn: abs(kn[0] - self.field_key))
            self.field_text = n.attrs.get("text", "")

    @staticmethod
    def _field_id(n: Node) -> tuple[str, str, str]:
        return n.cls, n.attrs.get("resource-id", ""), n.attrs.get("hint", "")

    def verdict(self, xml: str, status: str | None = "complete") -> str:
        """Why the task is not done on the screen ``xml`` (``""`` when it is); ``status`` is
        the agent's last report (None when the step cap ended the episode)."""
        if status == "infeasible":
            return "the agent gave up on a feasible task"
        pkg = package(xml)
        if pkg != self.package:
            return f"{self.package} is not in front ({pkg or 'nothing'} is)"
        sig = signature(xml)
        if sig != self.want:
            seen = self.names.get(sig)
            what = f"recorded screen {seen}" if seen else "a screen never recorded"
            return f"the original shows {what} (signature {sig}), not {self.target} ({self.want})"
        if self.fill and self.field_text != self.value:
            return f"the field held {self.field_text!r}, not {self.value!r}"
        return ""


@contextlib.contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """Torch on ``n`` threads for a while (None: as it is). One thread is much faster for a
    model this small on a busy machine."""
    if n is None:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def elements_needed(app: RecordedApp, floor: int = 48) -> int:
    """``ElementActions.max_elements`` that addresses every element of every recorded screen
    (at least ``floor``)."""
    rec = app.recording
    return max([floor, *(len(parse_ui_elements(rec.xml(sid))) for sid in rec.screen_ids)])


def _final(xml: str, pkg: str) -> str:
    return signature(xml) if package(xml) == pkg else OUTSIDE


def train_on_rebuild(app: RecordedApp, *, tasks: Sequence[str] | None = None,
                     episodes: int = 2, epochs: int = 300, batch: int = 16, seed: int = 0
                     ) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Behaviour cloning on the generated tasks of ``app`` (all, or ``tasks``) with
    ``baselines.bc.train_bc``: ``episodes`` oracle demonstrations per task, ``epochs``
    passes in batches of ``batch``. Returns the model, its space config (``space_config``,
    for ``ElementAgent``) and the training report."""
    from phoneworld_gym.baselines.bc import space_config, train_bc
    from phoneworld_gym.task import get_task

    if tasks is None:
        tasks = [t.id for t in phoneworld_gym.list_tasks(app=app.name)]
    # every text a task types is a goal value the space can type
    values = max([2, *(len(get_task(t).params_schema) for t in tasks)])
    model, space, report = train_bc(tasks, episodes=episodes, epochs=epochs, seed=seed,
                                    batch=batch, max_elements=elements_needed(app),
                                    max_values=values)
    return model, space_config(space), report


def play_original(device: Device, agent: Any, task: GeneratedTask, goal: str, *,
                  original_label: str, original_package: str, world_seed: int,
                  max_steps: int, seed: int = 0) -> Episode:
    """One episode of ``agent`` on the original app on ``device`` (see the module
    docstring): ``goal`` is the rebuilt env's goal for ``task``, ``max_steps`` its step
    cap."""
    rebuilt_label = get_app(task.app_name).label
    device.reset(world_seed)
    agent.reset(goal)
    check = OriginalCheck(task, original_package)
    xml = device.a11y_xml()
    check.observe(xml)
    steps = 0
    status: str | None = None
    while steps < max_steps:
        act: Action = agent.act({"a11y": xml, "goal": goal})
        steps += 1
        if act.action_type in ("status", "answer"):
            status = str(act.goal_status) if act.action_type == "status" else "complete"
            break
        if act.action_type == "open_app" and act.app_name == rebuilt_label:
            act = Action("open_app", app_name=original_label)
        device.execute(act)
        xml = device.a11y_xml()
        check.observe(xml)
    why = check.verdict(xml, status)
    return Episode(type(task).id, seed, not why, steps, _final(xml, original_package), why)


def measure_retention(rebuilt: RecordedApp, device: Device, original_label: str, *,
                      episodes: int = 2, epochs: int = 300, batch: int = 16,
                      seeds: Sequence[int] = (EVAL_SEED0, EVAL_SEED0 + 1),
                      tasks: Sequence[str] | None = None, seed: int = 0,
                      threads: int | None = 1) -> Retention:
    """Train on ``rebuilt``'s generated tasks (all, or ``tasks``: :func:`train_on_rebuild`),
    then play each of them on each of ``seeds`` on the rebuild and on the original app
    ``original_label`` on ``device`` (see the module docstring)."""
    from phoneworld_gym.baselines.bc import ElementAgent

    rec = rebuilt.recording
    world_seed = int(rec.state.get("seed", 0))
    ids = list(tasks) if tasks is not None else \
        [t.id for t in phoneworld_gym.list_tasks(app=rebuilt.name)]
    with torch_threads(threads):
        model, config, report = train_on_rebuild(rebuilt, tasks=ids, episodes=episodes,
                                                 epochs=epochs, batch=batch, seed=seed)
        env = phoneworld_gym.PhoneEnv(tasks=ids, obs_mode="a11y", split="train")
        agent = ElementAgent(model, env, config)
        on_rebuild: list[Episode] = []
        on_original: list[Episode] = []
        try:
            for tid in ids:
                for s in seeds:
                    obs, _ = env.reset(seed=s, options={"task": tid})
                    goal = str(obs["goal"])
                    agent.reset(goal)
                    info: dict[str, Any] = {}
                    steps = 0
                    while True:
                        obs, _, term, trunc, info = env.step(agent.act(obs))
                        steps += 1
                        if term or trunc:
                            break
                    on_rebuild.append(Episode(
                        tid, s, bool(info["success"]), steps,
                        _final(env.device.a11y_xml(), rebuilt.package),
                        "" if info["success"] else str(info["failure"])))
                    task = env.task
                    assert isinstance(task, GeneratedTask)
                    on_original.append(play_original(
                        device, agent, task, goal, original_label=original_label,
                        original_package=rec.package, world_seed=world_seed,
                        max_steps=env.step_budget, seed=s))
        finally:
            env.close()
    return Retention(rebuilt.name, on_rebuild, on_original, report)
