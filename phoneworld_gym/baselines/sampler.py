"""A seeded task sampler over several environment sources with weights.

A *source* is one world an agent can be trained or evaluated in: a PhoneWorld id
(``PhoneWorld/All-v0``, ``PhoneWorld/Contacts-v0`` ...) or a device
(``PhoneWorld/Device-v0``: a real phone by serial, or, with no phone, the virtual adb phone
with the ``clean`` or ``field`` profile). "Real-app RL" points the sampler at devices only;
"mixed RL" at devices plus PhoneWorld ids. Each draw is a task instance (source, task id,
seed): the unit over which GRPO groups its rollouts.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import shutil
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

DEVICE_ID = "PhoneWorld/Device-v0"
TRANSPORTS = ("adb", "direct")


@dataclasses.dataclass
class EnvSource:
    """One world to draw tasks from.

    Attributes:
        name: a short label used in reports and datasets (``mock``, ``field``).
        env_id: a registered id; ``PhoneWorld/Device-v0`` means a phone.
        weight: relative probability of drawing from this source (> 0).
        tasks: the task ids played here (None: every task the env id serves).
        profile: for a device with no ``serial``: the virtual phone's profile (``clean`` or
            ``field``); ignored for PhoneWorld ids.
        transport: for a device: ``adb`` (through the adb server, as a phone is driven) or
            ``direct`` (the same phone in process, faster; no adb needed).
        kwargs: further keyword arguments for the env (``serial``, ``max_steps`` ...).
    """

    name: str
    env_id: str
    weight: float = 1.0
    tasks: list[str] | None = None
    profile: str = "clean"
    transport: str = "adb"
    kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("an env source needs a name")
        if self.env_id not in gym.registry:
            raise ValueError(f"source {self.name!r}: unknown env id {self.env_id!r}")
        if not (isinstance(self.weight, (int, float)) and self.weight > 0):
            raise ValueError(f"source {self.name!r}: weight must be > 0, got {self.weight!r}")
        if self.transport not in TRANSPORTS:
            raise ValueError(f"source {self.name!r}: transport must be one of {TRANSPORTS}, "
                             f"got {self.transport!r}")
        from phoneworld_gym.virtual.field import PROFILES

        if self.profile not in PROFILES:
            raise ValueError(f"source {self.name!r}: profile must be one of {PROFILES}, "
                             f"got {self.profile!r}")
        if self.tasks is not None:
            from phoneworld_gym.env import select_tasks

            try:
                self.tasks = select_tasks(self.tasks)
            except KeyError as e:  # the registry names the unknown id
                raise ValueError(f"source {self.name!r}: {e.args[0]}") from None

    @property
    def is_device(self) -> bool:
        """Whether this source is a phone (real or virtual) rather than a PhoneWorld id."""
        return self.env_id == DEVICE_ID

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> EnvSource:
        """From a config mapping; unknown keys are an error naming them."""
        known = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(d) - known)
        if extra:
            raise ValueError(f"unknown key(s) {extra} in env source {dict(d)!r}; "
                             f"known: {sorted(known)}")
        return cls(**dict(d))


def make_source_env(source: EnvSource, split: str | None = None, *, obs_mode: str = "a11y",
                    adb_port: int | None = None) -> gym.Env:
    """An env for ``source`` serving its tasks with ``split``'s goal wordings.

    A device with no ``serial`` gets its own virtual adb phone of the source's profile, owned
    by (and stopped with) the env's device; a field phone is read with ``dump_retries=3`` as
    a real phone is, so the stale first dump after an action is seen through."""
    kwargs: dict[str, Any] = {"obs_mode": obs_mode, **source.kwargs}
    if source.tasks is not None:
        kwargs["tasks"] = list(source.tasks)
    if split is not None:
        kwargs["split"] = split
    if not source.is_device:
        return gym.make(source.env_id, **kwargs)
    if source.transport == "direct":
        from phoneworld_gym.env import PhoneEnv, select_tasks
        from phoneworld_gym.real_device.adb_device import phone_tasks
        from phoneworld_gym.virtual.field import make_device

        if "tasks" not in kwargs:
            kwargs["tasks"] = sorted(phone_tasks())
        kwargs["tasks"] = select_tasks(kwargs["tasks"])
        kwargs.pop("serial", None)
        return PhoneEnv(device=make_device(source.profile), **kwargs)
    if shutil.which("adb") is None or importlib.util.find_spec("adbutils") is None:
        raise ValueError(f"source {source.name!r} uses transport 'adb', which needs the adb "
                         "client (apt-get install adb) and adbutils (pip install adbutils); "
                         "or set transport: direct")
    if adb_port is not None:
        kwargs["port"] = adb_port
    if kwargs.get("serial"):
        return gym.make(DEVICE_ID, **kwargs)
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    phone = VirtualPhone(port=free_port(), profile=source.profile).start()
    options = dict(kwargs.pop("device_options", {}) or {})
    if source.profile == "field":
        options.setdefault("dump_retries", 3)
    try:
        env = gym.make(DEVICE_ID, serial=phone.serial, device_options=options, **kwargs)
    except BaseException:
        phone.stop()
        raise
    env.unwrapped.device.own(phone)  # type: ignore[attr-defined]
    return env


def close_env(env: gym.Env) -> None:
    """Close an env and its device (a device env's virtual phone stops with its device)."""
    env.close()
    close = getattr(getattr(env.unwrapped, "device", None), "close", None)
    if callable(close):
        close()


@dataclasses.dataclass(frozen=True)
class TaskInstance:
    """One task instance: the source it is played in, the task id and the episode seed."""

    source: str
    task: str
    seed: int


#: adaptive sampling defaults: the weight every task keeps whatever its estimate, how much
#: of a task's past one new record keeps (per record of that task), and the Beta prior of a
#: task's success probability (Beta(1, 1): an unseen task is estimated at 1/2, the most
#: informative, so it is drawn first)
FLOOR = 0.05
DECAY = 0.8
PRIOR = (1.0, 1.0)


class TaskSampler:
    """Draws task instances from weighted sources, reproducibly from ``seed``.

    A source is picked with probability proportional to its weight, then a task among the
    source's tasks, then an episode seed uniformly from ``seeds`` (keep them disjoint from
    evaluation seeds so evaluation measures unseen episodes). Envs are built lazily, one per
    source and split, and reused; :meth:`close` closes them.

    **Adaptive sampling** (``adaptive=True``). A GRPO group teaches only when its rewards
    differ, which is likeliest for a task the policy solves about half the time: its success
    spread ``p (1 - p)`` is largest there and vanishes for tasks always or never solved. The
    loop reports each played group with :meth:`record` (the verifier's successes); each
    (source, task) keeps a recent success estimate, the mean of a Beta(``prior``) posterior
    over its records, each earlier record's counts multiplied by ``decay`` when a new one
    comes (so the estimate follows the policy as it learns). A draw still picks the source by
    its weight (the mix of worlds stays as configured), then the task with probability
    proportional to ``p (1 - p) + floor`` (an unseen task has ``p = 1/2``, the top weight;
    ``floor`` keeps every task drawn now and then, so a task mastered or forgotten is seen
    again), then the seed uniformly as before. Estimates per instance (source, task, seed)
    are kept too (:meth:`estimate`), for reports. Draws are deterministic given ``seed`` and
    the records made; without ``adaptive`` the tasks are drawn uniformly, exactly as before
    (records are still kept)."""

    def __init__(self, sources: Sequence[EnvSource], *, seed: int = 0,
                 seeds: Sequence[int] = tuple(range(1000)), split: str | None = "train",
                 obs_mode: str = "a11y", adb_port: int | None = None,
                 adaptive: bool = False, floor: float = FLOOR, decay: float = DECAY,
                 prior: tuple[float, float] = PRIOR):
        if not sources:
            raise ValueError("a task sampler needs at least one source")
        names = [s.name for s in sources]
        if len(set(names)) != len(names):
            raise ValueError(f"source names must be distinct, got {names}")
        if not len(seeds):
            raise ValueError("seeds is empty")
        if not isinstance(adaptive, bool):
            raise ValueError(f"adaptive must be true or false, got {adaptive!r}")
        if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not floor > 0:
            raise ValueError(f"floor must be a number > 0 (every task keeps that weight), got "
                             f"{floor!r}")
        if isinstance(decay, bool) or not isinstance(decay, (int, float)) \
                or not 0 < decay <= 1:
            raise ValueError(f"decay must be in (0, 1] (1: every record counts alike), got "
                             f"{decay!r}")
        if (not isinstance(prior, (tuple, list)) or len(prior) != 2
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0
                           for x in prior)):
            raise ValueError(f"prior must be two numbers > 0 (Beta(a, b) pseudo-counts of "
                             f"successes and failures), got {prior!r}")
        self.sources = {s.name: s for s in sources}
        self.split = split
        self.obs_mode = obs_mode
        self.adb_port = adb_port
        self.seeds = [int(s) for s in seeds]
        self.rng = np.random.default_rng(seed)
        weights = np.array([s.weight for s in sources], dtype=float)
        self.probs = weights / weights.sum()
        self.adaptive = adaptive
        self.floor = float(floor)
        self.decay = float(decay)
        self.prior = (float(prior[0]), float(prior[1]))
        self._envs: dict[tuple[str, str | None], gym.Env] = {}
        self._tasks: dict[str, list[str]] = {}
        #: (source, task) -> [decayed successes, decayed failures, records]
        self._task_stats: dict[tuple[str, str], list[float]] = {}
        #: (source, task, seed) -> [decayed successes, decayed failures, records]
        self._instance_stats: dict[tuple[str, str, int], list[float]] = {}

    def env(self, source: str, split: str | None = None) -> gym.Env:
        """The (cached) env of a source, for ``split`` (default: the sampler's)."""
        split = self.split if split is None else split
        key = (source, split)
        if key not in self._envs:
            self._envs[key] = make_source_env(self.sources[source], split,
                                              obs_mode=self.obs_mode, adb_port=self.adb_port)
        return self._envs[key]

    def tasks(self, source: str) -> list[str]:
        """The task ids a source serves."""
        if source not in self._tasks:
            given = self.sources[source].tasks
            self._tasks[source] = list(given) if given else list(
                self.env(source).unwrapped.task_ids)  # type: ignore[attr-defined]
        return self._tasks[source]

    def draw(self) -> TaskInstance:
        """The next task instance (adaptive: the task drawn by :meth:`weights`)."""
        names = list(self.sources)
        name = names[int(self.rng.choice(len(names), p=self.probs))]
        tasks = self.tasks(name)
        if self.adaptive:
            w = np.array([self._weight(name, t) for t in tasks], dtype=float)
            task = tasks[int(self.rng.choice(len(tasks), p=w / w.sum()))]
        else:
            task = tasks[int(self.rng.integers(len(tasks)))]
        seed = self.seeds[int(self.rng.integers(len(self.seeds)))]
        return TaskInstance(name, task, seed)

    # -- adaptive sampling ---------------------------------------------------------------
    def _check_instance(self, instance: Any) -> tuple[str, str, int]:
        try:
            source, task, seed = instance.source, instance.task, instance.seed
        except AttributeError:
            raise ValueError(f"expected a TaskInstance (source, task, seed), got "
                             f"{instance!r}") from None
        if source not in self.sources:
            raise ValueError(f"record for unknown source {source!r}; this sampler's sources "
                             f"are {sorted(self.sources)}")
        if task not in self.tasks(source):
            raise ValueError(f"record for task {task!r}, which source {source!r} does not "
                             f"serve ({len(self.tasks(source))} tasks: "
                             f"{', '.join(self.tasks(source)[:8])}"
                             f"{' ...' if len(self.tasks(source)) > 8 else ''})")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ValueError(f"record's seed must be an int, got {seed!r}")
        return source, task, int(seed)

    def record(self, instance: TaskInstance, successes: Sequence[bool]) -> None:
        """Report one played group of ``instance``: the verifier's success of each episode
        (bools). Updates the (source, task) and instance estimates (see the class
        docstring). ``ValueError`` for an instance of an unknown source or task, or
        successes that are not a non-empty list of bools."""
        source, task, seed = self._check_instance(instance)
        if isinstance(successes, (str, bytes)) or not isinstance(successes, Sequence) \
                or not len(successes):
            raise ValueError(f"successes must be a non-empty list of bools (one per episode "
                             f"of the group), got {successes!r}")
        bad = [x for x in successes if not isinstance(x, (bool, np.bool_))]
        if bad:
            raise ValueError(f"successes must be bools (the verifier's success per episode), "
                             f"got {bad[0]!r} in {list(successes)!r}")
        wins = float(sum(bool(x) for x in successes))
        losses = float(len(successes)) - wins
        for st in (self._task_stats.setdefault((source, task), [0.0, 0.0, 0.0]),
                   self._instance_stats.setdefault((source, task, seed), [0.0, 0.0, 0.0])):
            st[0] = self.decay * st[0] + wins
            st[1] = self.decay * st[1] + losses
            st[2] += 1

    def record_episodes(self, episodes: Sequence[Any]) -> None:
        """:meth:`record` every group among ``episodes`` (anything with ``source``, ``task``,
        ``seed`` and ``success``, e.g. GRPO episodes), grouped by instance, in order of first
        appearance."""
        groups: dict[TaskInstance, list[bool]] = {}
        for ep in episodes:
            groups.setdefault(TaskInstance(ep.source, ep.task, ep.seed), []).append(
                bool(ep.success))
        for inst, wins in groups.items():
            self.record(inst, wins)

    def estimate(self, source: str, task: str, seed: int | None = None) -> float:
        """The recent success estimate of a (source, task), or of one instance with ``seed``:
        the posterior mean ``(a + s) / (a + b + s + f)`` of the decayed success and failure
        counts ``s``, ``f`` under the Beta(a, b) prior (unseen: ``a / (a + b)``)."""
        if seed is None:
            source, task, _ = self._check_instance(TaskInstance(source, task, 0))
            st = self._task_stats.get((source, task))
        else:
            source, task, seed = self._check_instance(TaskInstance(source, task, seed))
            st = self._instance_stats.get((source, task, seed))
        a, b = self.prior
        s, f = (st[0], st[1]) if st else (0.0, 0.0)
        return (a + s) / (a + b + s + f)

    def _weight(self, source: str, task: str) -> float:
        p = self.estimate(source, task)
        return p * (1.0 - p) + self.floor

    def weights(self, source: str) -> dict[str, float]:
        """Each task of ``source`` -> its adaptive draw weight ``p (1 - p) + floor``
        (unnormalised; used by :meth:`draw` when ``adaptive``)."""
        if source not in self.sources:
            raise ValueError(f"unknown source {source!r}; this sampler's sources are "
                             f"{sorted(self.sources)}")
        return {t: self._weight(source, t) for t in self.tasks(source)}

    def stats(self) -> dict[str, dict[str, float]]:
        """For logs: ``"source/task"`` -> its estimate ``p``, draw ``weight``, ``records``
        (groups recorded) and draw probability within its source (``share``), for every
        task recorded so far."""
        out: dict[str, dict[str, float]] = {}
        for (source, task), st in sorted(self._task_stats.items()):
            w = self.weights(source)
            out[f"{source}/{task}"] = {"p": self.estimate(source, task), "weight": w[task],
                                       "share": w[task] / sum(w.values()),
                                       "records": st[2]}
        return out

    def draw_batch(self, n: int) -> list[TaskInstance]:
        """``n`` draws."""
        return [self.draw() for _ in range(n)]

    def close(self) -> None:
        """Close every env built so far (and the virtual phones they own)."""
        for env in self._envs.values():
            close_env(env)
        self._envs.clear()
