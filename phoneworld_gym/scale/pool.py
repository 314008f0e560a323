"""``DevicePool``: phones (simulated or real) behind Ray actors, serving episode requests.

Each actor owns one device, built in the actor's process from a *device spec*: a zero-argument
factory (``lambda: AdbDevice(serial)``, ``PhoneWorldDevice``) or a string
(:func:`device_from_spec`: ``"phoneworld"`` for a simulated phone, ``"adb:SERIAL"`` or a bare
serial for a phone over adb). The actor wraps the device in a
:class:`~phoneworld_gym.env.PhoneEnv`. :meth:`DevicePool.run` queues (task, seed) requests;
each free device takes the next one, plays it with an agent (``"oracle"`` or a factory of
``baselines`` agents) and hands back an :class:`EpisodeRecord`.

A device whose actor dies (or overruns ``episode_timeout``) ends its episode as truncated with
the reason; the pool drops that device and goes on with the others. The interrupted request
is not run again unless ``requeue=True``. An exception inside an episode (a
:class:`~phoneworld_gym.device.DeviceError`, an agent's bug) ends that episode the same way
but keeps the device: the next episode resets it.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from phoneworld_gym.device import Device
from phoneworld_gym.scale._ray import RayError, describe_failure, ray

DeviceSpec = str | Callable[[], Device]
#: builds an agent for an env: ``agent.reset(goal)`` then ``agent.act(observation)``
AgentFactory = Callable[[Any], Any]


def device_from_spec(spec: DeviceSpec) -> Device:
    """Build a device: call a factory, or read a string.

    Strings: ``"phoneworld"`` (a simulated phone; ``"phoneworld:540x1200"`` sets the screenshot
    size), ``"adb:SERIAL"`` or a bare adb serial (``"emulator-5554"``, ``"127.0.0.1:5555"``),
    which needs :mod:`phoneworld_gym.real_device.adb_device`."""
    if callable(spec):
        return spec()
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a device spec is a factory or a non-empty string, got {spec!r}")
    if spec == "phoneworld" or spec.startswith("phoneworld:"):
        from phoneworld_gym.phone import PhoneWorldDevice

        if spec == "phoneworld":
            return PhoneWorldDevice()
        size = spec.split(":", 1)[1]
        try:
            w, h = (int(v) for v in size.lower().split("x"))
        except ValueError:
            raise ValueError(f"bad screenshot size in {spec!r}; expected phoneworld:WxH") from None
        return PhoneWorldDevice(screenshot_size=(w, h))
    serial = spec.split(":", 1)[1] if spec.startswith("adb:") else spec
    try:
        from phoneworld_gym.real_device.adb_device import AdbDevice  # type: ignore[import-not-found]
    except ImportError as e:
        raise ValueError(f"device spec {spec!r} names an adb serial, but AdbDevice is not "
                         f"available ({e}); pass a factory instead") from None
    return AdbDevice(serial)  # type: ignore[no-any-return]


@dataclasses.dataclass
class EpisodeRecord:
    """One episode served by the pool (or a request it could not serve)."""

    #: position of the request in ``run``'s arguments
    index: int
    task: str
    seed: int
    #: the device that played it ("" if none could)
    device: str
    reward: float = 0.0
    success: bool = False
    steps: int = 0
    terminated: bool = False
    truncated: bool = False
    #: why the verifier scored 0, or why the episode was cut short
    failure: str = ""
    #: set when the worker or device failed: the reason ("" otherwise)
    worker_error: str = ""
    goal: str = ""
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: the actions taken, as AndroidWorld JSON
    actions: list[dict[str, Any]] = dataclasses.field(default_factory=list, repr=False)
    seconds: float = 0.0
    #: how many times the request was started (more than 1 only with ``requeue``)
    attempts: int = 1


class DeviceWorker:
    """The actor body: one device, one ``PhoneEnv`` over it, episodes on request."""

    def __init__(self, spec: DeviceSpec, env_kwargs: Mapping[str, Any]) -> None:
        from phoneworld_gym.env import PhoneEnv

        self.device = device_from_spec(spec)
        self.env = PhoneEnv(device=self.device, **dict(env_kwargs))

    def describe(self) -> dict[str, Any]:
        """The device's kind, its serial if it has one, and the worker's process id."""
        return {"kind": getattr(self.device, "kind", "?"),
                "serial": getattr(self.device, "serial", None), "pid": os.getpid()}

    def run_episode(self, task: str, seed: int, agent: str | AgentFactory,
                    max_steps: int | None) -> dict[str, Any]:
        """Reset to ``task`` at ``seed`` and let the agent play until the episode ends; the
        record's fields as a dict. An exception ends the episode (truncated, ``worker_error``)
        and the device stays usable."""
        from phoneworld_gym.baselines.agents import OracleAgent

        start = time.monotonic()
        out: dict[str, Any] = {"task": task, "seed": seed, "actions": []}
        try:
            self.env.max_steps_override = max_steps
            obs, info = self.env.reset(seed=seed, options={"task": task})
            out.update(goal=info["goal"], params=info["params"])
            player = OracleAgent(self.env) if agent == "oracle" else agent(self.env)  # type: ignore[operator]
            player.reset(obs["goal"])
            while True:
                action = player.act(obs)
                obs, reward, terminated, truncated, info = self.env.step(action)
                out["actions"].append(_action_json(action))
                if terminated or truncated:
                    break
            out.update(reward=float(reward), success=bool(info["success"]),
                       steps=int(info["steps"]), terminated=bool(terminated),
                       truncated=bool(truncated), failure=info["failure"])
        except Exception as e:  # noqa: BLE001 - the episode ends; the pool goes on
            reason = describe_failure(e)
            out.update(truncated=True, terminated=False, steps=self.env.steps,
                       failure=reason, worker_error=reason)
        out["seconds"] = time.monotonic() - start
        return out


def _action_json(action: Any) -> dict[str, Any]:
    from phoneworld_gym.contract import Action

    return Action.from_any(action).to_json()


_RemoteDeviceWorker = ray.remote(DeviceWorker)


class DevicePool:
    """A pool of devices, one Ray actor each, serving episode requests.

    Args:
        devices: device specs: factories (``lambda: AdbDevice(serial)``) or strings
            (:func:`device_from_spec`).
        names: a name per device for the records (default: the string spec where it is
            unique, else ``"device<i>"``).
        env_kwargs: ``PhoneEnv`` kwargs for every device (``obs_mode="a11y"``, ``split``; the
            env serves every registered task unless ``tasks`` is given). The screenshot size
            is the device's: ``"phoneworld:540x1200"``.
        num_cpus: CPUs Ray reserves for each actor (a phone over adb needs little: 0.25).
        actor_options: more ``ActorClass.options`` (``resources``, ``runtime_env``, ...).
        requeue: run a request again on another device when its device dies (default: report
            it truncated and move on).
        episode_timeout: seconds an episode may take before its device counts as dead.
        start_timeout: seconds to wait for the devices to come up; a device that fails to
            start is left out (see :attr:`dead`).
    """

    def __init__(
        self,
        devices: Sequence[DeviceSpec],
        *,
        names: Sequence[str] | None = None,
        env_kwargs: Mapping[str, Any] | None = None,
        num_cpus: float = 1.0,
        actor_options: Mapping[str, Any] | None = None,
        requeue: bool = False,
        episode_timeout: float | None = None,
        start_timeout: float | None = 300.0,
    ) -> None:
        specs = list(devices)
        if not specs:
            raise ValueError("a DevicePool needs at least one device")
        if names is None:
            strings = [s for s in specs if isinstance(s, str)]
            names = [s if isinstance(s, str) and strings.count(s) == 1 else f"device{i}"
                     for i, s in enumerate(specs)]
        names = list(names)
        if len(names) != len(specs) or len(set(names)) != len(names):
            raise ValueError(f"names must be {len(specs)} distinct strings, got {names!r}")
        self.requeue = requeue
        self.episode_timeout = episode_timeout
        options = {"num_cpus": num_cpus, "max_restarts": 0, **dict(actor_options or {})}
        self._actors: dict[str, Any] = {
            name: _RemoteDeviceWorker.options(**options).remote(spec, dict(env_kwargs or {}))
            for name, spec in zip(names, specs)}
        #: devices that died or failed to start, with the reason
        self.dead: dict[str, str] = {}
        #: device -> (request index, task) of the episodes in progress
        self.running: dict[str, tuple[int, str]] = {}
        refs = {name: a.describe.remote() for name, a in self._actors.items()}
        ready, _ = ray.wait(list(refs.values()), num_returns=len(refs), timeout=start_timeout)
        #: what each live device said about itself (kind, serial, pid)
        self.info: dict[str, dict[str, Any]] = {}
        for name, ref in refs.items():
            if ref not in ready:
                self._drop(name, f"TimeoutError: not up within {start_timeout} s")
                continue
            try:
                self.info[name] = ray.get(ref)
            except RayError as e:
                self._drop(name, describe_failure(e))

    @property
    def devices(self) -> list[str]:
        """The names of the devices still in the pool."""
        return list(self._actors)

    def actor(self, name: str) -> Any:
        """The Ray actor that owns device ``name`` (for monitoring, or ``ray.kill``)."""
        return self._actors[name]

    def _drop(self, name: str, reason: str) -> None:
        actor = self._actors.pop(name, None)
        self.dead[name] = reason
        if actor is not None:
            try:
                ray.kill(actor)
            except Exception:  # noqa: BLE001 - already gone
                pass

    def run(self, tasks: Sequence[str], seeds: int | Iterable[int] = 0,
            agent: str | AgentFactory = "oracle", *,
            max_steps: int | None = None) -> list[EpisodeRecord]:
        """Play one episode per request, ``tasks[i]`` at ``seeds[i]`` (an int: that seed for
        every request), on whichever device is free; the records in request order."""
        records = sorted(self.imap_unordered(tasks, seeds, agent, max_steps=max_steps),
                         key=lambda r: r.index)
        return records

    def imap_unordered(self, tasks: Sequence[str], seeds: int | Iterable[int] = 0,
                       agent: str | AgentFactory = "oracle", *,
                       max_steps: int | None = None) -> Iterator[EpisodeRecord]:
        """As :meth:`run`, yielding each record as soon as its episode ends."""
        from phoneworld_gym.task import get_task

        tasks = list(tasks)
        for task in tasks:
            get_task(task)  # an unknown id is the caller's error, not an episode's
        seed_list = ([int(seeds)] * len(tasks) if isinstance(seeds, (int, np.integer))
                     else [int(s) for s in seeds])
        if len(seed_list) != len(tasks):
            raise ValueError(f"{len(seed_list)} seeds for {len(tasks)} tasks")
        if agent != "oracle" and not callable(agent):
            raise ValueError(f"agent must be 'oracle' or a factory env -> agent, got {agent!r}")
        queue = deque((i, t, s, 1) for i, (t, s) in enumerate(zip(tasks, seed_list)))
        busy: dict[Any, tuple[str, int, str, int, int, float]] = {}
        free = [name for name in self._actors]
        self.running.clear()
        while queue or busy:
            while queue and free:
                name = free.pop(0)
                i, task, seed, attempt = queue.popleft()
                ref = self._actors[name].run_episode.remote(task, seed, agent, max_steps)
                busy[ref] = (name, i, task, seed, attempt, time.monotonic())
                self.running[name] = (i, task)
            if not busy:  # requests left and no device to play them
                reason = "no live device: " + "; ".join(f"{n}: {r}"
                                                        for n, r in self.dead.items())
                while queue:
                    i, task, seed, attempt = queue.popleft()
                    yield EpisodeRecord(i, task, seed, "", truncated=True, failure=reason,
                                        worker_error=reason, attempts=attempt - 1)
                return
            timeout = None
            if self.episode_timeout is not None:
                now = time.monotonic()
                timeout = max(0.0, min(started + self.episode_timeout - now
                                       for *_, started in busy.values()))
            ready, _ = ray.wait(list(busy), num_returns=1, timeout=timeout)
            now = time.monotonic()
            overdue = [] if self.episode_timeout is None else [
                r for r, b in busy.items() if r not in ready and now - b[5] >= self.episode_timeout]
            for ref in ready + overdue:
                name, i, task, seed, attempt, started = busy.pop(ref)
                self.running.pop(name, None)
                elapsed = time.monotonic() - started
                try:
                    if ref in overdue:
                        raise TimeoutError(f"episode not over within {self.episode_timeout} s")
                    fields = ray.get(ref)
                except (RayError, TimeoutError) as e:
                    reason = describe_failure(e)
                    self._drop(name, reason)
                    if self.requeue:
                        queue.append((i, task, seed, attempt + 1))
                        continue
                    yield EpisodeRecord(i, task, seed, name, truncated=True, failure=reason,
                                        worker_error=reason, seconds=elapsed, attempts=attempt)
                    continue
                free.append(name)
                yield EpisodeRecord(index=i, device=name, attempts=attempt, **fields)

    def close(self) -> None:
        """End every actor (and with it its device connection)."""
        for name in list(self._actors):
            actor = self._actors.pop(name)
            if not ray.is_initialized():  # Ray was shut down: the actors went with it
                continue
            try:
                ray.kill(actor)
            except Exception:  # noqa: BLE001 - already gone
                pass

    def __enter__(self) -> DevicePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"DevicePool({len(self._actors)} devices, {len(self.dead)} dead)"
