"""Tasks: a goal, parameters drawn from a seeded generator, a start state, a verifier that reads
state (never pixels), and an oracle that solves it through the UI.

Write a task in one file under ``phoneworld_gym/tasks/<app>/`` and decorate it with
:func:`register_task`; its Gymnasium id ``PhoneWorld/<id>-v<version>`` and every
registry-driven test come for free::

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

import datetime as dt
import importlib
import os
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row, Unsupported, is_common, view_state
from phoneworld_gym.matchers import Matcher
from phoneworld_gym.validators import Check, Diff
from phoneworld_gym.world import copy_data

CATEGORIES = ("app", "mini-app", "cross-app", "long-horizon", "information-retrieval")
DIFFICULTIES = ("easy", "medium", "hard")
#: a task class's own split: "train" templates are trained on, "test" templates are held out
SPLITS = ("train", "test")
#: what an env, ``list_tasks``, ``eval`` and every report can select, named so that no one
#: mistakes one for another:
#:
#: - ``train``: the train templates with their train wordings;
#: - ``test``: the held-out templates (never trained on), every wording of each;
#: - ``test_wordings``: the train templates with their held-out wordings (paraphrases never
#:   trained on): unseen words for goals a model did learn, not unseen tasks.
SELECTIONS = ("train", "test", "test_wordings")
SELECTION_TEXT = {
    "train": "train templates, train wordings",
    "test": "held-out templates (never trained on), all their wordings",
    "test_wordings": "train templates with held-out wordings (unseen words, not unseen tasks)",
}


def check_selection(selection: str | None) -> None:
    """``ValueError`` naming the selections when ``selection`` is not one (None passes)."""
    if selection is not None and selection not in SELECTIONS:
        raise ValueError(f"split must be one of {SELECTIONS} or None, got {selection!r}: "
                         + "; ".join(f"{k}: {v}" for k, v in SELECTION_TEXT.items()))


class NoInstance(RuntimeError):
    """Raised by ``generate_params`` when the phone's world cannot pose the task (e.g. no
    contact lives in a saved weather city). ``PhoneEnv.reset`` then draws another world from
    its seed, a bounded number of times, so a seeded reset stays deterministic."""


class Task:
    """Base class of every task. Subclasses set the class attributes and implement
    ``generate_params``, ``evaluate`` (or ``expected_answer`` for information retrieval) and
    ``oracle``.

    The rules (``docs/GUIDE.md`` works an example of each):

    - ``generate_params`` reads the fresh phone through the probe only; ``setup`` changes it
      through the device's write verbs and app fixtures only. No task touches the world, an
      app's store or an app's functions (a test reads every file under ``phoneworld_gym/tasks/``).
    - ``verify`` compares every table of the phone with the start state: whatever changed
      outside ``may_change`` scores 0, for every task, information retrieval and infeasible
      ones included; view state (a read flag, the player's song) is looking, not damage,
      unless the task names it in ``checks_view``. ``evaluate`` states the expected change
      with the shared validators (:meth:`expect`), never by recomputing it with the app's
      code.
    - The oracle acts through the UI like a careful person, ends with its ``status`` or
      ``answer`` action, and its length is ``optimal_steps`` (tested over seeds).
    """

    id: ClassVar[str]
    apps: ClassVar[tuple[str, ...]]
    category: ClassVar[str] = "app"
    difficulty: ClassVar[str] = "easy"
    tags: ClassVar[tuple[str, ...]] = ()
    #: the oracle's length in actions, its final status/answer included
    optimal_steps: ClassVar[int] = 1
    #: step budget; 0 means ``max(10, 2 * optimal_steps)``
    max_steps: ClassVar[int] = 0
    template: ClassVar[str]
    #: "train" or "test": a test task (all its templates) is held out of training
    split: ClassVar[str] = "train"
    #: more wordings of the goal, same placeholders: {"train": (...), "test": (...)}. Test
    #: wordings of a train task measure generalisation to unseen phrasing of a seen task.
    paraphrases: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: what every wording (the template and each paraphrase) must state because the verifier
    #: checks it: each entry a phrase, or a tuple of accepted phrasings, that every wording
    #: contains (case-insensitive), e.g. ``(("from checking", "out of checking"),
    #: "Express delivery")``. ``tests/test_wordings.py`` checks every task's wordings.
    constraints: ClassVar[tuple[str | tuple[str, ...], ...]] = ()
    #: False for tasks whose right move is ``status: infeasible``
    feasible: ClassVar[bool] = True
    #: for information-retrieval tasks: how an answer is compared
    answer_matcher: ClassVar[Matcher | None] = None
    #: bump when the verifier changes meaning (the env id's -vN)
    version: ClassVar[int] = 0
    #: the tables the task may change (``"contacts"``, ``"shopping/cart"``); every other
    #: table of the phone must end as it started
    may_change: ClassVar[tuple[str, ...]] = ()
    #: the view state this task is about, kept exact for it: a whole table's view columns
    #: (``"music/player"`` for "Play X") or one column (``"email/messages.read"`` for "mark
    #: as read"). Every other view-state change (a thread opened on the way, a song played)
    #: is looking, not damage (see ``App.view_state``)
    checks_view: ClassVar[tuple[str, ...]] = ()
    #: the params' names and types (a type or a tuple of types), checked at every reset
    params_schema: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, params: dict[str, Any], template: str | None = None):
        self.params = dict(params)
        #: every table at the start (after setup), as the probe read it
        self.baseline: Mapping[str, list[Row]] = {}
        #: the difference at the last verify, and why it failed ("" when it did not)
        self.diff: Diff | None = None
        self.failure = ""
        #: the tables whose start rows the task read (:meth:`before`)
        self.read_tables: set[str] = set()
        #: the wording of this episode's goal (one of :meth:`templates`)
        self.wording = template if template is not None else self.template

    # -- metadata ------------------------------------------------------------------------
    @classmethod
    def env_id(cls) -> str:
        return f"PhoneWorld/{cls.id}-v{cls.version}"

    @classmethod
    def step_budget(cls) -> int:
        return cls.max_steps or max(10, 2 * cls.optimal_steps)

    @classmethod
    def templates(cls, split: str | None = None) -> tuple[str, ...]:
        """The goal wordings of a split: ``None`` -> the canonical template only; "train" ->
        the train wordings of a train task; "test" -> every wording of a test task, or the
        test paraphrases of a train task; "test_wordings" -> the test paraphrases of a train
        task only (none for a test task)."""
        if split is None:
            return (cls.template,)
        check_selection(split)
        extra_train = tuple(cls.paraphrases.get("train", ()))
        extra_test = tuple(cls.paraphrases.get("test", ()))
        if cls.split == "test":
            return (cls.template, *extra_train, *extra_test) if split == "test" else ()
        return (cls.template, *extra_train) if split == "train" else extra_test

    @classmethod
    def in_selection(cls, selection: str | None) -> bool:
        """Whether the task belongs to a selection (:data:`SELECTIONS`; None: every task):
        ``train`` and ``test`` by the task's own split, ``test_wordings`` when it is a train
        task with held-out wordings."""
        if selection is None:
            return True
        check_selection(selection)
        if selection == "test_wordings":
            return cls.split == "train" and bool(cls.paraphrases.get("test"))
        return cls.split == selection

    @classmethod
    def check_params(cls, params: Any) -> dict[str, Any]:
        """``params`` checked against :attr:`params_schema`: a ``ValueError`` names the
        missing, unknown or mistyped field."""
        if not isinstance(params, Mapping):
            raise ValueError(f"params for {cls.id} must be a dict, got {type(params).__name__}")
        schema = cls.params_schema
        missing = sorted(set(schema) - set(params))
        unknown = sorted(set(params) - set(schema))
        if missing or unknown:
            raise ValueError(f"params for {cls.id}: missing {missing}, unknown {unknown}; "
                             f"the schema is {_schema_text(schema)}")
        for k, want in schema.items():
            v = params[k]
            types = want if isinstance(want, tuple) else (want,)
            if isinstance(v, bool) and bool not in types:
                ok = False
            else:
                ok = isinstance(v, types)
            if not ok:
                raise ValueError(f"params for {cls.id}: {k}={v!r:.80} is a "
                                 f"{type(v).__name__}, expected {_type_names(want)}")
        return dict(params)

    @property
    def goal(self) -> str:
        return self.wording.format(**self.params)

    # -- lifecycle -----------------------------------------------------------------------
    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        """Parameters for one episode, from the seeded generator and the fresh device state
        (read through ``probe`` only)."""
        return {}

    def setup(self, device: Device) -> None:
        """Put the device in the task's start state through its write verbs and app fixtures
        (default: as reset left it)."""

    def start(self, device: Device) -> None:
        """Setup, then :meth:`mark_start`. The env calls this at reset."""
        self.setup(device)
        self.mark_start(device)

    def mark_start(self, device: Device) -> None:
        """Remember every table and the phone's clock as the episode's start: what the
        verifier compares the end with, and what :meth:`start_day` reads."""
        self.baseline = device.probe.snapshot()
        self.started_at = device.probe.now()

    def start_day(self) -> dt.date:
        """The phone's date when the episode started (:meth:`start`): "today" and
        "tomorrow" in a goal count from it, wherever the phone's clock has run since."""
        return dt.date.fromisoformat(self.started_at[:10])

    def start_time(self) -> dt.datetime:
        """The phone's local time when the episode started (:meth:`start`)."""
        return dt.datetime.fromisoformat(self.started_at)

    def before(self, table: str) -> list[Row]:
        """A copy of a table's rows at the start (after setup)."""
        self.read_tables.add(table)
        if table not in self.baseline:
            if not is_common(table):  # a real phone's start state has no mock app tables
                raise Unsupported(f"{type(self).__name__} reads the start of {table!r}, "
                                  "which only PhoneWorld serves")
            raise KeyError(f"{type(self).__name__}: the start state has no table {table!r}; "
                           f"it has {sorted(self.baseline)}")
        return copy_data(self.baseline[table])  # type: ignore[no-any-return]

    def verify(self, device: Device, report: AgentReport) -> float:
        """Score in [0, 1] from state and the agent's final report: 0 whenever anything
        changed outside :attr:`may_change` (view state aside: :meth:`ignored_view`);
        :attr:`failure` says why a score is 0."""
        self.diff = Diff(self.baseline, device.probe.snapshot(), self.ignored_view(device))
        self.failure = ""
        allowed = () if (not self.feasible or self.answer_matcher is not None) \
            else self.may_change
        damage = self.diff.unchanged_except(allowed)
        if damage:
            return self._fail(damage)
        if not self.feasible:
            return 1.0 if report.status == "infeasible" else \
                self._fail(f"the task is infeasible; the agent said {report.status!r}")
        if report.status == "infeasible":
            return self._fail("the agent gave up on a feasible task")
        if self.answer_matcher is not None:
            if report.answer is None:
                return self._fail("no answer")
            want = self.expected_answer(device)
            if not self.answer_matcher.match(report.answer, want, self.goal):
                return self._fail(f"answer {report.answer!r:.80} does not match {want!r}")
            return 1.0
        return float(max(0.0, min(1.0, self.evaluate(device, report))))

    def ignored_view(self, device: Device) -> dict[str, tuple[str, ...]]:
        """The view-state columns whose changes this task's diff leaves out: the device's
        (:func:`~phoneworld_gym.device.view_state`) less what :attr:`checks_view` names."""
        view = view_state(device.probe)
        for entry in self.checks_view:
            table, _, col = entry.rpartition(".") if "." in entry else (entry, "", "")
            if table in view:
                view[table] = tuple(c for c in view[table] if col and c != col)
        return {t: cols for t, cols in view.items() if cols}

    def _fail(self, why: str) -> float:
        self.failure = why
        return 0.0

    def expect(self, *checks: Check) -> float:
        """1.0 when every check holds over the start-to-now difference, and every table in
        :attr:`may_change` that no check names is unchanged; else 0.0 (``failure`` says why).
        """
        assert self.diff is not None, "expect() is for evaluate(), after verify() diffed"
        named = {getattr(c, "table", None) for c in checks}
        for table in self.may_change:
            if table not in named and not self.diff.table(table).empty:
                return self._fail(f"{self.diff.table(table).summary()} (no check allows it)")
        for c in checks:
            why = c(self.diff)
            if why is not None:
                return self._fail(why)
        return 1.0

    def evaluate(self, device: Device, report: AgentReport) -> float:
        """Feasible, non-answer tasks: the score from state (usually ``self.expect(...)``)."""
        raise NotImplementedError(f"{type(self).__name__} must implement evaluate()")

    def expected_answer(self, device: Device) -> Any:
        """Information-retrieval tasks: the right answer, read from the start state."""
        raise NotImplementedError(f"{type(self).__name__} must implement expected_answer()")

    def oracle(self, device: Device) -> Iterator[Action]:
        """Actions that solve the task through the UI, reading the live screen between steps,
        ending with the final ``status`` or ``answer``."""
        raise NotImplementedError(f"{type(self).__name__} has no oracle")
        yield  # pragma: no cover

    #: True for a task whose oracle has a second, different path (:meth:`oracle_alt`)
    has_alt_oracle: ClassVar[bool] = False

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """A second way a careful person solves the task through the UI, different from
        :meth:`oracle` (search instead of browsing, another entry screen, the share sheet, a
        notification), ending with the same final report. The reward audit plays it and
        expects 1.0, so a verifier that only accepts the oracle's own path is caught. Tasks
        that have one set :attr:`has_alt_oracle`."""
        raise NotImplementedError(f"{type(self).__name__} has no second oracle path")
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


def _type_names(want: Any) -> str:
    types = want if isinstance(want, tuple) else (want,)
    return " or ".join(t.__name__ for t in types)


def _schema_text(schema: Mapping[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {_type_names(v)}" for k, v in schema.items()) + "}"


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
    """Import every module under ``phoneworld_gym.tasks``. A folder of task files without an
    ``__init__.py`` would silently drop its tasks, so it is an error."""
    import phoneworld_gym.tasks as pkg

    for base in pkg.__path__:
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
            if any(f.endswith(".py") for f in filenames) and "__init__.py" not in filenames:
                raise ImportError(f"task folder {dirpath} has no __init__.py, so its tasks "
                                  "would not be found; add an empty one")
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
    """The registered task ``task_id`` (a lookup in the registry, without the sorted copy
    :func:`all_tasks` makes: every reset asks)."""
    if not _discovered:
        all_tasks()
    cls = _TASKS.get(task_id)
    if cls is None:
        raise KeyError(f"no task {task_id!r}; see phoneworld_gym.list_tasks()")
    return cls
