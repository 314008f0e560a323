"""Tasks: a goal, parameters drawn from a seeded generator, a start state, a verifier that reads
state (never pixels), and an oracle that solves it through the UI.

Write a task in one file under ``tasks/<app>/`` and decorate it with :func:`register_task`;
its Gymnasium id ``PhoneWorld/<id>-v<version>`` and every registry-driven test come for free::

    @register_task
    class ContactsStar(Task):
        id = "ContactsStar"
        apps = ("contacts",)
        difficulty = "easy"
        optimal_steps = 4
        template = "Add {name} to my favorite contacts."

        @classmethod
        def generate_params(cls, rng, probe):
            ...
        def evaluate(self, device, report):
            ...
        def oracle(self, device):
            yield ...
"""

from __future__ import annotations

import copy
import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Matcher

CATEGORIES = ("app", "mini-app", "cross-app", "information-retrieval")
DIFFICULTIES = ("easy", "medium", "hard")
SPLITS = ("train", "test")
#: baseline key of the contacts-provider rows (app stores are keyed by app name)
CONTACTS = "provider.contacts"


class Task:
    """Base class of every task. Subclasses set the class attributes and implement
    ``generate_params``, ``evaluate`` (or ``expected_answer`` for information retrieval) and
    ``oracle``."""

    id: ClassVar[str]
    apps: ClassVar[tuple[str, ...]]
    category: ClassVar[str] = "app"
    difficulty: ClassVar[str] = "easy"
    tags: ClassVar[tuple[str, ...]] = ()
    optimal_steps: ClassVar[int] = 1
    #: step budget; 0 means ``max(10, 3 * optimal_steps)``
    max_steps: ClassVar[int] = 0
    template: ClassVar[str]
    #: "train" or "test": a test task (all its templates) is held out of training
    split: ClassVar[str] = "train"
    #: more wordings of the goal, same placeholders: {"train": (...), "test": (...)}. Test
    #: wordings of a train task measure generalisation to unseen phrasing of a seen task.
    paraphrases: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: False for tasks whose right move is ``status: infeasible``
    feasible: ClassVar[bool] = True
    #: for information-retrieval tasks: how an answer is compared
    answer_matcher: ClassVar[Matcher | None] = None
    #: bump when the verifier changes meaning (the env id's -vN)
    version: ClassVar[int] = 0
    #: True when setup and verify need only the common probes (runs on real devices too)
    common_probes_only: ClassVar[bool] = False

    def __init__(self, params: dict[str, Any], template: str | None = None):
        self.params = dict(params)
        self.baseline: dict[str, Any] = {}
        #: the wording of this episode's goal (one of :meth:`templates`)
        self.wording = template if template is not None else self.template

    # -- metadata ------------------------------------------------------------------------
    @classmethod
    def env_id(cls) -> str:
        return f"PhoneWorld/{cls.id}-v{cls.version}"

    @classmethod
    def step_budget(cls) -> int:
        return cls.max_steps or max(10, 3 * cls.optimal_steps)

    @classmethod
    def templates(cls, split: str | None = None) -> tuple[str, ...]:
        """The goal wordings of a split: ``None`` -> the canonical template only; "train" ->
        the train wordings of a train task; "test" -> every wording of a test task, or the
        test paraphrases of a train task."""
        if split is None:
            return (cls.template,)
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS} or None, got {split!r}")
        extra_train = tuple(cls.paraphrases.get("train", ()))
        extra_test = tuple(cls.paraphrases.get("test", ()))
        if cls.split == "test":
            return (cls.template, *extra_train, *extra_test) if split == "test" else ()
        return (cls.template, *extra_train) if split == "train" else extra_test

    @property
    def goal(self) -> str:
        return self.wording.format(**self.params)

    # -- lifecycle -----------------------------------------------------------------------
    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        """Parameters for one episode, from the seeded generator and the fresh device state."""
        return {}

    def setup(self, device: Device) -> None:
        """Put the device in the task's start state (default: as reset left it)."""

    def capture(self, device: Device) -> dict[str, Any]:
        """The state the collateral-damage check compares against (after setup)."""
        probe = device.probe
        snap: dict[str, Any] = {CONTACTS: probe.contacts()}
        for app in self.apps:
            try:
                snap[app] = probe.app_store(app)
            except KeyError:
                pass
        return snap

    def start(self, device: Device) -> None:
        """Setup, then remember the start state. The env calls this at reset."""
        self.setup(device)
        self.baseline = self.capture(device)

    def verify(self, device: Device, report: AgentReport) -> float:
        """Score in [0, 1] from state and the agent's final report."""
        if not self.feasible:
            ok = report.status == "infeasible" and self.unchanged(device)
            return 1.0 if ok else 0.0
        if report.status == "infeasible":
            return 0.0
        if self.answer_matcher is not None:
            if report.answer is None:
                return 0.0
            right = self.answer_matcher.match(report.answer, self.expected_answer(device))
            return 1.0 if right and self.unchanged(device) else 0.0
        return float(max(0.0, min(1.0, self.evaluate(device, report))))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        """Feasible, non-answer tasks: the score from state."""
        raise NotImplementedError(f"{type(self).__name__} must implement evaluate()")

    def expected_answer(self, device: Device) -> Any:
        """Information-retrieval tasks: the right answer, read from the start state."""
        raise NotImplementedError(f"{type(self).__name__} must implement expected_answer()")

    def oracle(self, device: Device) -> Iterator[Action]:
        """Actions that solve the task through the UI, reading the live screen between steps."""
        raise NotImplementedError(f"{type(self).__name__} has no oracle")
        yield  # pragma: no cover

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Actions that almost solve the task but not quite (the right product in the wrong
        size, a wrong number) and then claim success. The tests check it scores 0. Tasks
        without one inherit this default: a plausible wrong answer or a premature claim."""
        if self.answer_matcher is not None:
            yield Action("answer", text="I could not find it")
        elif not self.feasible:
            yield Action("status", goal_status="complete")
        else:
            yield Action("status", goal_status="infeasible")

    # -- verifier helpers ----------------------------------------------------------------
    def now(self, device: Device) -> dict[str, Any]:
        """The current state in the same shape as ``baseline``."""
        return self.capture(device)

    def unchanged(self, device: Device, allow: dict[str, set[str]] | None = None) -> bool:
        """True when nothing changed since the start, except the top-level store keys named in
        ``allow`` (``{"shopping": {"cart"}}``; ``{"contacts": {"*"}}`` allows any change)."""
        allow = allow or {}
        cur = self.capture(device)
        for name, before in self.baseline.items():
            after = cur.get(name)
            keys = allow.get(name, set())
            if "*" in keys:
                continue
            if isinstance(before, dict) and isinstance(after, dict):
                for k in set(before) | set(after):
                    if k not in keys and before.get(k) != after.get(k):
                        return False
            elif before != after:
                return False
        return True

    def store_before(self, app: str) -> dict[str, Any]:
        """A copy of an app's store as it was at the start."""
        return copy.deepcopy(self.baseline[app])

    @property
    def contacts_before(self) -> list[dict[str, Any]]:
        """The contacts-provider rows as they were at the start."""
        return copy.deepcopy(self.baseline[CONTACTS])


_TASKS: dict[str, type[Task]] = {}
_discovered = False


def register_task(cls: type[Task]) -> type[Task]:
    """Class decorator: add a task to the registry (checks its metadata)."""
    name = cls.__name__
    for attr in ("id", "apps", "template"):
        if not hasattr(cls, attr):
            raise TypeError(f"task {name} must define {attr!r}")
    if cls.category not in CATEGORIES:
        raise ValueError(f"task {cls.id}: category {cls.category!r} not in {CATEGORIES}")
    if cls.difficulty not in DIFFICULTIES:
        raise ValueError(f"task {cls.id}: difficulty {cls.difficulty!r} not in {DIFFICULTIES}")
    if cls.split not in SPLITS:
        raise ValueError(f"task {cls.id}: split {cls.split!r} not in {SPLITS}")
    if not cls.id.isidentifier():
        raise ValueError(f"task id {cls.id!r} must be an identifier (it names an env id)")
    unknown = set(cls.paraphrases) - set(SPLITS)
    if unknown:
        raise ValueError(f"task {cls.id}: paraphrases keys {sorted(unknown)} not in {SPLITS}")
    if cls.category == "information-retrieval" and cls.answer_matcher is None:
        raise ValueError(f"task {cls.id}: information-retrieval tasks need an answer_matcher")
    prev = _TASKS.get(cls.id)
    if prev is not None and (prev.__module__, prev.__qualname__) != (cls.__module__,
                                                                     cls.__qualname__):
        raise ValueError(f"two tasks have id {cls.id!r}: {prev.__module__} and {cls.__module__}")
    _TASKS[cls.id] = cls
    return cls


def _discover() -> None:
    import phoneworld_gym.tasks as pkg

    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(m.name)


def all_tasks() -> dict[str, type[Task]]:
    """Every registered task by id (discovers ``phoneworld_gym.tasks`` on first use)."""
    global _discovered
    if not _discovered:
        _discovered = True
        _discover()
    return dict(sorted(_TASKS.items()))


def get_task(task_id: str) -> type[Task]:
    tasks = all_tasks()
    if task_id not in tasks:
        raise KeyError(f"no task {task_id!r}; see phoneworld_gym.list_tasks()")
    return tasks[task_id]
