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
        from phoneworld_gym.real_device.field import PROFILES

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
        from phoneworld_gym.real_device.field import make_device

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
    from phoneworld_gym.real_device.adb_server import VirtualPhone, free_port

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


class TaskSampler:
    """Draws task instances from weighted sources, reproducibly from ``seed``.

    A source is picked with probability proportional to its weight, then a task uniformly
    among the source's tasks, then an episode seed uniformly from ``seeds`` (keep them
    disjoint from evaluation seeds so evaluation measures unseen episodes). Envs are built
    lazily, one per source and split, and reused; :meth:`close` closes them."""

    def __init__(self, sources: Sequence[EnvSource], *, seed: int = 0,
                 seeds: Sequence[int] = tuple(range(1000)), split: str | None = "train",
                 obs_mode: str = "a11y", adb_port: int | None = None):
        if not sources:
            raise ValueError("a task sampler needs at least one source")
        names = [s.name for s in sources]
        if len(set(names)) != len(names):
            raise ValueError(f"source names must be distinct, got {names}")
        if not len(seeds):
            raise ValueError("seeds is empty")
        self.sources = {s.name: s for s in sources}
        self.split = split
        self.obs_mode = obs_mode
        self.adb_port = adb_port
        self.seeds = [int(s) for s in seeds]
        self.rng = np.random.default_rng(seed)
        weights = np.array([s.weight for s in sources], dtype=float)
        self.probs = weights / weights.sum()
        self._envs: dict[tuple[str, str | None], gym.Env] = {}
        self._tasks: dict[str, list[str]] = {}

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
        """The next task instance."""
        names = list(self.sources)
        name = names[int(self.rng.choice(len(names), p=self.probs))]
        tasks = self.tasks(name)
        task = tasks[int(self.rng.integers(len(tasks)))]
        seed = self.seeds[int(self.rng.integers(len(self.seeds)))]
        return TaskInstance(name, task, seed)

    def draw_batch(self, n: int) -> list[TaskInstance]:
        """``n`` draws."""
        return [self.draw() for _ in range(n)]

    def close(self) -> None:
        """Close every env built so far (and the virtual phones they own)."""
        for env in self._envs.values():
            close_env(env)
        self._envs.clear()
