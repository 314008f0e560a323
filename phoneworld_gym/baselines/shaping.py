"""A shaped training reward for GRPO, from the task's own checks.

The verifier's reward is 0 or 1, so most GRPO groups (the same task instance played G times)
have no reward spread and teach nothing. :class:`ShapedReward` scores an episode in [0, 1]:

- a success (the verifier's verdict) scores 1.0;
- a failure scores partial credit, at most ``cap`` (0.5 by default), from two measures of how
  far the episode got along the task's oracle, played once per task instance (same env, same
  task, same seed) as the reference:

  * **screen progress**: the share of the oracle's screen path the episode walked, in order.
    A screen is reduced to a structural signature (:func:`screen_signature`: the app in
    front and the set of resource ids in the tree; texts, counts and bounds ignored), and
    two screens match when they are in the same app and their id sets overlap by at least
    ``similarity`` (Jaccard). The path is the oracle's screens after the start, consecutive
    repeats dropped; progress is the longest prefix of it that the episode's screens contain
    as a subsequence, over the path's length (:func:`screen_progress`).
  * **state progress**: the share of the oracle's state change (start snapshot to end, as
    :class:`~phoneworld_gym.validators.Diff` sees it, view state left out as the verifier
    leaves it out) that the episode's end state reproduces, cell by cell (a changed column of
    a row), row by row (a removed row; an added row credited by the share of its columns
    that match) and per reordered table (:func:`state_progress`). An episode that changed
    anything the oracle did not touch (another row, another column, another table, an extra
    row) has done damage and gets no state credit at all.

  The partial credit is ``cap * (screen_weight * screen + (1 - screen_weight) * state)``.
  State credit is 0 after damage, and 0 where the oracle changes nothing (information
  retrieval, infeasible tasks: the outcome there is the answer or status, which the verifier
  turned down), so a wrong answer after the right screens scores ``cap * screen_weight``.
  Where no state is known (the episode does not carry its end state, the device has no
  probe, or the oracle failed on this instance) state credit is 0 too: screen progress
  alone, never above ``cap * screen_weight``.

The success signal stays the verifier's: :class:`ShapedReward` never turns a failure into 1.0
and never scores a success below 1.0; report success from ``Episode.success``, not from the
shaped reward.

The loop must record each episode's end state right after the episode ends, before the env
is reset for the next one: :func:`final_state` reads it (``None`` where the device has no
state probe) and :func:`attach_final_state` stores it on an episode as ``final_state``, the
attribute :class:`ShapedReward` reads.
"""

from __future__ import annotations

import collections
import dataclasses
import xml.etree.ElementTree as ET
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from phoneworld_gym.contract import Action
from phoneworld_gym.device import DeviceError
from phoneworld_gym.matchers import normalize
from phoneworld_gym.oracle import OracleError
from phoneworld_gym.validators import Diff, new_row_declaration

#: the default cap on a failed episode's shaped reward
CAP = 0.5
#: the default weight of screen progress (the rest is state progress)
SCREEN_WEIGHT = 0.5
#: the default Jaccard overlap of resource-id sets at which two screens of one app match
SIMILARITY = 0.6


# -- screens ----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ScreenSig:
    """A screen's structure: the app in front (the package most nodes belong to) and the set
    of resource ids in its tree (without the ``package:id/`` prefix). Texts, descriptions,
    bounds and how many times an id occurs are left out, so the same screen with other
    content (another contact, another time on the clock) has the same signature."""

    package: str
    ids: frozenset[str]


def screen_signature(xml: str) -> ScreenSig | None:
    """The :class:`ScreenSig` of a ``uiautomator dump`` tree; None for a tree that does not
    parse (a failed dump) or has no nodes."""
    try:
        root = ET.fromstring(xml)
    except (ET.ParseError, TypeError, ValueError):
        return None
    packages: collections.Counter[str] = collections.Counter()
    ids: set[str] = set()
    for node in root.iter("node"):
        packages[node.get("package", "")] += 1
        rid = node.get("resource-id", "")
        if rid:
            ids.add(rid.rsplit("/", 1)[-1])
    if not packages:
        return None
    top = max(packages.values())
    package = min(p for p, n in packages.items() if n == top)  # ties: a fixed pick
    return ScreenSig(package, frozenset(ids))


def same_screen(a: ScreenSig | None, b: ScreenSig | None, similarity: float = SIMILARITY
                ) -> bool:
    """Whether two signatures are the same screen: one app, and id sets whose Jaccard overlap
    is at least ``similarity`` (two screens without ids match when their app does)."""
    if a is None or b is None or a.package != b.package:
        return False
    union = a.ids | b.ids
    if not union:
        return True
    return len(a.ids & b.ids) / len(union) >= similarity


def screen_path(screens: Sequence[str]) -> list[ScreenSig]:
    """The path of an oracle's screens: the signatures after the start screen, consecutive
    repeats dropped and leading screens identical to the start dropped (a field phone's
    stale first dump after an action repeats the screen before it)."""
    sigs = [screen_signature(x) for x in screens]
    if not sigs:
        return []
    start = sigs[0]
    path: list[ScreenSig] = []
    for s in sigs[1:]:
        if s is None or (path and s == path[-1]) or (not path and s == start):
            continue
        path.append(s)
    return path


def screen_progress(screens: Sequence[str], path: Sequence[ScreenSig],
                    similarity: float = SIMILARITY) -> float:
    """The share of ``path`` (an oracle's :func:`screen_path`) that ``screens`` (an episode's
    trees, the start screen first) walked, in order: the longest prefix of the path that the
    episode's screens after the start contain as a subsequence, over the path's length.
    Consecutive identical screens of the episode count once, so staying on a screen does not
    walk through the similar screens of the path. 0.0 for an empty path."""
    if not path:
        return 0.0
    done = 0
    last: ScreenSig | None = None
    for xml in screens[1:]:
        sig = screen_signature(xml)
        if sig is None or sig == last:
            continue
        last = sig
        if same_screen(sig, path[done], similarity):
            done += 1
            if done == len(path):
                break
    return done / len(path)


# -- state ------------------------------------------------------------------------------------
def _key(row: Mapping[str, Any]) -> Hashable:
    k = row.get("_id")
    return repr(k) if isinstance(k, (list, dict, set)) else k


def _same(a: Any, b: Any) -> bool:
    """Values equal, strings compared as a person reads them (case, accents, punctuation)."""
    if isinstance(a, str) and isinstance(b, str):
        return a == b or normalize(a) == normalize(b)
    return bool(a == b)


@dataclasses.dataclass
class Changes:
    """What an episode changed on the phone, from its start snapshot to its end, in units the
    shaped reward compares: changed cells, removed rows, added rows and reordered tables.

    Attributes:
        cells: ``(table, row key, column) -> value after`` for each column of a row that was
            there at the start and changed (view state left out, as the verifier does).
        removed: ``(table, row key)`` of each row gone.
        added: ``table -> the rows added`` (whole rows).
        reordered: ``table -> the order of the row keys after`` for each table whose rows
            kept are in another order.
    """

    cells: dict[tuple[str, Hashable, str], Any] = dataclasses.field(default_factory=dict)
    removed: set[tuple[str, Hashable]] = dataclasses.field(default_factory=set)
    added: dict[str, list[dict[str, Any]]] = dataclasses.field(default_factory=dict)
    reordered: dict[str, tuple[Hashable, ...]] = dataclasses.field(default_factory=dict)

    @classmethod
    def from_diff(cls, diff: Diff) -> Changes:
        """The units of a :class:`~phoneworld_gym.validators.Diff` (every changed table)."""
        out = cls()
        for name in diff.changed_tables():
            t = diff.table(name)
            for old, new in t.changed:
                key = _key(new)
                for col in sorted(set(old) | set(new)):
                    if old.get(col) != new.get(col):
                        out.cells[(name, key, col)] = new.get(col)
            out.removed.update((name, _key(r)) for r in t.removed)
            if t.added:
                out.added[name] = [dict(r) for r in t.added]
            if t.reordered:
                kept = {_key(r) for r in t.before}
                out.reordered[name] = tuple(_key(r) for r in t.after if _key(r) in kept)
        return out

    @classmethod
    def between(cls, before: Mapping[str, list[dict[str, Any]]],
                after: Mapping[str, list[dict[str, Any]]],
                view: Mapping[str, Iterable[str]] | None = None) -> Changes:
        """The units between two snapshots (``view``: each table's view-state columns)."""
        return cls.from_diff(Diff(before, after, view))

    @property
    def units(self) -> int:
        """How many units the change has (an added row is one unit)."""
        return (len(self.cells) + len(self.removed) + sum(len(r) for r in self.added.values())
                + len(self.reordered))

    @property
    def empty(self) -> bool:
        return self.units == 0


def _compared_columns(table: str, row: Mapping[str, Any]) -> list[str]:
    """The columns of an added row that say what was added: every one but ``_id`` and the
    columns the phone fills in (a declared new row's free columns: ids, timestamps)."""
    decl = new_row_declaration(table)
    free = set(decl.free) if decl is not None else set()
    return sorted(c for c in row if c != "_id" and c not in free)


def _row_credit(table: str, want: Mapping[str, Any], got: Mapping[str, Any]) -> float:
    cols = _compared_columns(table, want)
    if not cols:
        return 1.0
    return sum(1 for c in cols if c in got and _same(got[c], want[c])) / len(cols)


@dataclasses.dataclass(frozen=True)
class StateScore:
    """How much of a reference change an episode's change reproduces.

    ``progress`` is the share of the reference's units reproduced (an added row counts the
    share of its columns that match; 1.0 when the reference has no units and the episode
    none either); ``damage`` says what the episode changed that the reference did not touch
    (empty: nothing). With damage, the shaped reward gives no state credit."""

    progress: float
    damage: tuple[str, ...] = ()


def state_progress(got: Changes, want: Changes) -> StateScore:
    """Compare an episode's change (``got``) with the oracle's (``want``).

    A cell the oracle changed counts when the episode left it at the oracle's value (a wrong
    value earns nothing but is not damage: the episode touched what the task is about); a
    removed row counts when the episode removed it too; each added row of the oracle is
    paired with the episode's added row that fits it best (greedily, best pair first) and
    counts the share of its columns that match; a reordered table counts when the episode
    left its rows in the oracle's order. Damage is any change outside the oracle's: a cell of
    another row or column, a row removed that the oracle kept, more rows added to a table
    than the oracle added, a table reordered that the oracle did not reorder."""
    damage: list[str] = []
    credit = 0.0
    for key, value in want.cells.items():
        if key in got.cells and _same(got.cells[key], value):
            credit += 1.0
    damage += [f"{t}: row {k!r} column {c!r} changed" for (t, k, c) in got.cells
               if (t, k, c) not in want.cells]
    credit += sum(1.0 for r in want.removed if r in got.removed)
    damage += [f"{t}: row {k!r} removed" for (t, k) in sorted(got.removed - want.removed,
                                                            key=repr)]
    for table in sorted(set(want.added) | set(got.added)):
        rows_want = want.added.get(table, [])
        rows_got = got.added.get(table, [])
        if len(rows_got) > len(rows_want):
            damage.append(f"{table}: {len(rows_got)} rows added, the oracle added "
                          f"{len(rows_want)}")
        pairs = sorted(((_row_credit(table, w, g), i, j) for i, w in enumerate(rows_want)
                        for j, g in enumerate(rows_got)), key=lambda p: (-p[0], p[1], p[2]))
        used_w: set[int] = set()
        used_g: set[int] = set()
        for c, i, j in pairs:
            if i in used_w or j in used_g:
                continue
            used_w.add(i)
            used_g.add(j)
            credit += c
    for table, order in want.reordered.items():
        if got.reordered.get(table) == order:
            credit += 1.0
    damage += [f"{t}: rows reordered" for t in sorted(set(got.reordered) - set(want.reordered))]
    units = want.units
    if units == 0:
        progress = 0.0 if got.units else 1.0
    else:
        progress = credit / units
    return StateScore(float(min(1.0, progress)), tuple(damage))


def final_state(env: Any) -> Changes | None:
    """What the current (just ended) episode of ``env`` changed on the phone since its start:
    the :class:`Changes` between the task's start snapshot and the phone now, with the view
    state the task's verifier leaves out left out. Call it right after the episode ends
    (the next ``reset`` starts another phone). None when the env has no task, or the device
    cannot be read (no state probe, a phone gone)."""
    base = getattr(env, "unwrapped", env)
    task = getattr(base, "task", None)
    device = getattr(base, "task_device", None)
    if task is None or device is None:
        return None
    try:
        diff = task.diff if getattr(base, "done", False) and task.diff is not None else \
            Diff(task.baseline, device.probe.snapshot(), task.ignored_view(device))
        return Changes.from_diff(diff)
    except (DeviceError, NotImplementedError, OSError, KeyError, ValueError):
        return None


def attach_final_state(episode: Any, env: Any) -> Any:
    """Store :func:`final_state` of ``env`` on ``episode`` as ``episode.final_state`` (call
    right after the episode ends); returns the episode."""
    episode.final_state = final_state(env)
    return episode


# -- the reference ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Reference:
    """One task instance's oracle, played once: its screen paths (the oracle's, and its
    second path's where the task has one), its change of state (None where the device could
    not be read), and whether the verifier accepted it (a failed oracle's state is not used;
    ``error`` says what went wrong)."""

    paths: tuple[tuple[ScreenSig, ...], ...]
    changes: Changes | None
    success: bool
    error: str = ""

    @property
    def state_known(self) -> bool:
        return self.success and self.changes is not None


def _step_all(env: Any, start: Mapping[str, Any], actions: Iterable[Action]
              ) -> tuple[list[str], float]:
    """Play ``actions`` in ``env`` from its reset observation ``start``, then ``status:
    complete`` if they did not end the episode; the trees of the screens seen (the start one
    first) and the verifier's reward."""
    screens = [str(start.get("a11y", ""))]
    reward = 0.0
    for action in actions:
        obs, reward, term, trunc, _ = env.step(action)
        screens.append(str(obs.get("a11y", "")))
        if term or trunc:
            return screens, float(reward)
    obs, reward, _, _, _ = env.step(Action("status", goal_status="complete"))
    screens.append(str(obs.get("a11y", "")))
    return screens, float(reward)


def build_reference(env: Any, task: str, seed: int, *, alt: bool = True) -> Reference:
    """Play the oracle of ``task`` at ``seed`` in ``env`` (the env the episodes are played in:
    ``env.reset(seed=seed, options={"task": task})`` gives the same instance) and record its
    screen path and change of state; with ``alt``, the task's second oracle path too where it
    has one (an episode is credited along whichever path it follows further)."""
    base = env.unwrapped
    changes: Changes | None = None
    success = False
    error = ""
    obs, _ = env.reset(seed=seed, options={"task": task})
    try:
        screens, reward = _step_all(env, obs, base.oracle())
    except (OracleError, DeviceError) as e:
        screens, error = [], f"the oracle could not play: {e}"
    else:
        success = reward >= 1.0
        if not success:
            error = f"the oracle failed: {base.task.failure or f'reward {reward}'}"
        changes = final_state(env)
    paths = [tuple(screen_path(screens))]
    if alt and getattr(type(base.task), "has_alt_oracle", False):
        obs, _ = env.reset(seed=seed, options={"task": task})
        try:
            alt_screens, _ = _step_all(env, obs, base.task.oracle_alt(base.task_device))
            paths.append(tuple(screen_path(alt_screens)))
        except (OracleError, DeviceError, NotImplementedError):
            pass
    return Reference(tuple(p for p in paths if p) or ((),), changes, success, error)


# -- the reward -------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Shaped:
    """One episode's shaped reward and what it is made of: ``screen`` and ``state`` progress
    in [0, 1] (``state`` None where it was not used), ``damage`` (what the episode changed
    outside the oracle's change), and ``reference`` (the oracle's run)."""

    reward: float
    success: bool
    screen: float
    state: float | None
    damage: tuple[str, ...]
    reference: Reference | None


class ShapedReward:
    """The shaped reward (see the module docstring): ``reward(episode) -> float`` in [0, 1],
    a ``RewardFn`` for :func:`~phoneworld_gym.baselines.grpo.train_grpo`.

    Args:
        envs: where to play the reference oracle of an episode's (source, task, seed): a
            :class:`~phoneworld_gym.baselines.sampler.TaskSampler` (its ``env(source)``, the
            env the episodes were played in), a callable ``source -> env``, or a mapping of
            source name -> :class:`~phoneworld_gym.baselines.sampler.EnvSource` (envs are
            then made here, and :meth:`close` closes them).
        cap: the most a failed episode scores (< 1).
        screen_weight: the share of screen progress in a failure's credit where state
            progress is known (the rest is state progress).
        similarity: the Jaccard overlap of resource-id sets at which two screens match.
        alt: also record the task's second oracle path where it has one.
        cache_size: how many task instances' references are kept (least recently used go).

    The episode must carry ``source``, ``task``, ``seed``, ``success``, ``screens`` (the tree
    of every screen seen, the start one first) and, for state progress, ``final_state``
    (:func:`attach_final_state`); without it, screen progress alone is used. References are
    cached per (source, task, seed), so a group costs one oracle run. Building a reference
    resets the env: call the reward after the group's episodes were played and their end
    states recorded (as ``collect_groups`` does).
    """

    #: :func:`~phoneworld_gym.baselines.grpo.collect_groups` stores each episode's end state
    needs_final_state = True

    def __init__(self, envs: Any, *, cap: float = CAP, screen_weight: float = SCREEN_WEIGHT,
                 similarity: float = SIMILARITY, alt: bool = True, cache_size: int = 4096):
        if not 0.0 <= cap < 1.0:
            raise ValueError(f"cap must be in [0, 1) (a failure must score below a success), "
                             f"got {cap!r}")
        if not 0.0 <= screen_weight <= 1.0:
            raise ValueError(f"screen_weight must be in [0, 1], got {screen_weight!r}")
        if not 0.0 < similarity <= 1.0:
            raise ValueError(f"similarity must be in (0, 1], got {similarity!r}")
        if not isinstance(cache_size, int) or cache_size < 1:
            raise ValueError(f"cache_size must be a positive int, got {cache_size!r}")
        self._own: dict[str, Any] = {}
        self._sources: Mapping[str, Any] | None = None
        if isinstance(envs, Mapping):
            self._sources = dict(envs)
            self._env_for: Callable[[str], Any] = self._own_env
        elif callable(getattr(envs, "env", None)):
            self._env_for = envs.env
        elif callable(envs):
            self._env_for = envs
        else:
            raise ValueError("envs must be a TaskSampler, a callable source -> env, or a "
                             f"mapping of source name -> EnvSource; got {type(envs).__name__}")
        self.cap = float(cap)
        self.screen_weight = float(screen_weight)
        self.similarity = float(similarity)
        self.alt = bool(alt)
        self.cache_size = cache_size
        self._cache: collections.OrderedDict[tuple[str, str, int], Reference] = \
            collections.OrderedDict()
        #: how many references were built (oracle runs), for logs and tests
        self.builds = 0

    def _own_env(self, source: str) -> Any:
        assert self._sources is not None
        if source not in self._sources:
            raise ValueError(f"no env source {source!r}; known: {sorted(self._sources)}")
        if source not in self._own:
            from phoneworld_gym.baselines.sampler import make_source_env

            self._own[source] = make_source_env(self._sources[source], obs_mode="a11y")
        return self._own[source]

    def reference(self, source: str, task: str, seed: int) -> Reference:
        """The (cached) oracle reference of one task instance."""
        key = (str(source), str(task), int(seed))
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        ref = build_reference(self._env_for(source), task, int(seed), alt=self.alt)
        self.builds += 1
        self._cache[key] = ref
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return ref

    def score(self, episode: Any) -> Shaped:
        """The shaped reward of ``episode`` with its parts."""
        if bool(episode.success):
            return Shaped(1.0, True, 1.0, 1.0, (), None)
        ref = self.reference(episode.source, episode.task, episode.seed)
        screens = list(getattr(episode, "screens", []) or [])
        screen = max(screen_progress(screens, p, self.similarity) for p in ref.paths)
        got = getattr(episode, "final_state", None)
        w = self.screen_weight
        if got is None or not ref.state_known:
            return Shaped(self.cap * w * screen, False, screen, None, (), ref)
        assert ref.changes is not None
        st = state_progress(got, ref.changes)
        # where the oracle changes nothing, the task's outcome is its answer or status, which
        # the verifier turned down: no state credit, as after damage
        state = 0.0 if st.damage or ref.changes.empty else st.progress
        return Shaped(self.cap * (w * screen + (1.0 - w) * state), False, screen, state,
                      st.damage, ref)

    def __call__(self, episode: Any) -> float:
        """The shaped reward of ``episode`` in [0, 1]."""
        return float(self.score(episode).reward)

    def close(self) -> None:
        """Close the envs this reward made itself (a TaskSampler's stay open)."""
        from phoneworld_gym.baselines.sampler import close_env

        for env in self._own.values():
            close_env(env)
        self._own.clear()
