"""``RayVectorEnv``: a Gymnasium vector env whose sub-envs live in Ray actors.

Each actor owns one env made with ``gymnasium.make(env_id, **kwargs)`` (any registered id, a
PhoneWorld id or a device id) or with a factory. The driver batches what the actors return
exactly as :class:`gymnasium.vector.SyncVectorEnv` does (same spaces, same ``NEXT_STEP``
autoreset, same info dicts with ``_key`` masks), so for the same seeds and actions it gives the
same trajectories; the actors step in parallel, on one machine or across a cluster.

A worker that dies (its process is killed, its node goes away, it stops answering within
``step_timeout``, or its env raises one of ``worker_errors`` such as a
:class:`~phoneworld_gym.device.DeviceError`) ends its slot's episode as truncated:
``truncated=True``, reward 0, the slot's last observation, and the last info plus
``info["worker_error"]``, a line saying why. A replacement actor is started for the slot and
the next step autoresets it there, as for any ended episode; the other slots carry on.
"""

from __future__ import annotations

import copy as copy_module
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate
from gymnasium.vector.vector_env import AutoresetMode, VectorEnv

from phoneworld_gym.device import DeviceError
from phoneworld_gym.scale._ray import RayError, describe_failure, ray, task_cause

EnvSource = str | Callable[..., gym.Env]
Wrapper = Callable[[gym.Env], gym.Env]


class EnvWorker:
    """The actor body: one env, made in the worker process.

    ``source`` is an env id (PhoneWorld ids are registered by importing ``phoneworld_gym``
    here), made with ``gymnasium.make(source, **kwargs)``, or a factory called as
    ``source(**kwargs)``; ``wrappers`` are applied in order inside the worker."""

    def __init__(self, source: EnvSource, kwargs: Mapping[str, Any],
                 wrappers: Sequence[Wrapper] = ()) -> None:
        import phoneworld_gym  # noqa: F401 (registers the PhoneWorld ids in this process)

        env = gym.make(source, **kwargs) if isinstance(source, str) else source(**kwargs)
        for wrap in wrappers:
            env = wrap(env)
        self.env = env

    def describe(self) -> dict[str, Any]:
        """The env's spaces, metadata and render mode, and the worker's process id."""
        return {"observation_space": self.env.observation_space,
                "action_space": self.env.action_space,
                "metadata": dict(self.env.metadata), "render_mode": self.env.render_mode,
                "pid": os.getpid()}

    def reset(self, seed: int | None, options: dict[str, Any] | None) -> tuple[Any, dict]:
        """``env.reset(seed=seed, options=options)``."""
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        """``env.step(action)``."""
        return self.env.step(action)

    def call(self, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        """Call the env's (or a wrapper's) method ``name``, or read the attribute."""
        attr = self.env.get_wrapper_attr(name)
        return attr(*args, **kwargs) if callable(attr) else attr

    def set_attr(self, name: str, value: Any) -> None:
        """Set an attribute on the env (the innermost one that has it)."""
        self.env.set_wrapper_attr(name, value)

    def render(self) -> Any:
        """``env.render()``."""
        return self.env.render()

    def close(self) -> None:
        """``env.close()``."""
        self.env.close()


_RemoteEnvWorker = ray.remote(EnvWorker)


class RayVectorEnv(VectorEnv):
    """A vector env of ``num_envs`` sub-envs, each in its own Ray actor.

    Args:
        env_id: a registered id (``"PhoneWorld/Contacts-v0"``, a device id) or a factory
            called in the worker with the kwargs (``lambda **kw: PhoneEnv(device=..., **kw)``).
        num_envs: how many sub-envs (actors).
        per_env_kwargs: kwargs for each sub-env alone, merged over ``env_kwargs`` (for example
            one device serial per slot).
        wrappers: Gymnasium wrappers applied inside each worker, in order (as ``make_vec``'s
            ``wrappers``); use them to turn observations into arrays for a learner.
        copy: return copies of the batched observation (as ``SyncVectorEnv``).
        num_cpus: CPUs Ray reserves for each actor (0.5 lets two share a core; a phone
            reached over adb needs little).
        actor_options: more ``ActorClass.options`` (``resources``, ``runtime_env``, ...).
        max_restarts: replacements allowed per slot over the env's life; one more failure
            raises ``RuntimeError``.
        step_timeout: seconds a step (or reset) may take before its worker counts as dead
            (None: wait forever).
        start_timeout: seconds to wait for actors to start (the first ones, and a replacement
            on top of ``step_timeout``).
        worker_errors: exception types that, raised by a sub-env, count as its worker dying
            (default: :class:`~phoneworld_gym.device.DeviceError`); any other exception from a
            sub-env propagates, as in ``SyncVectorEnv``.
        **env_kwargs: kwargs for every sub-env (``obs_mode="a11y"``, ``max_steps=20``, ...).

    Only ``AutoresetMode.NEXT_STEP`` (Gymnasium's default) is implemented. Besides a batch as
    ``action_space`` has it, ``step`` takes a sequence of ``num_envs`` per-slot actions (an
    ``Action``, its JSON, or a numeric sample each). Ray must be initialised (``ray.init()``)
    before the env is made, or Ray starts a local instance.
    """

    def __init__(
        self,
        env_id: EnvSource,
        num_envs: int,
        *,
        per_env_kwargs: Sequence[Mapping[str, Any]] | None = None,
        wrappers: Sequence[Wrapper] = (),
        copy: bool = True,
        num_cpus: float = 1.0,
        actor_options: Mapping[str, Any] | None = None,
        max_restarts: int = 8,
        step_timeout: float | None = None,
        start_timeout: float | None = 300.0,
        worker_errors: tuple[type[BaseException], ...] = (DeviceError,),
        **env_kwargs: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if per_env_kwargs is not None and len(per_env_kwargs) != num_envs:
            raise ValueError(f"per_env_kwargs has {len(per_env_kwargs)} entries for "
                             f"num_envs={num_envs}")
        self.env_id = env_id
        self.num_envs = num_envs
        self.copy = copy
        self.max_restarts = max_restarts
        self.step_timeout = step_timeout
        self.start_timeout = start_timeout
        self.worker_errors = tuple(worker_errors)
        self.autoreset_mode = AutoresetMode.NEXT_STEP
        self._wrappers = tuple(wrappers)
        self._kwargs = [dict(env_kwargs, **(per_env_kwargs[i] if per_env_kwargs else {}))
                        for i in range(num_envs)]
        self._actor_options = {"num_cpus": num_cpus, "max_restarts": 0,
                               **dict(actor_options or {})}
        #: the actor of each slot (a new handle after a replacement)
        self.workers: list[Any] = [self._spawn(i) for i in range(num_envs)]
        #: how many times each slot's worker was replaced
        self.restarts = [0] * num_envs
        #: why each slot's worker was last replaced ("" if never)
        self.last_worker_error = [""] * num_envs

        try:
            described = ray.get([w.describe.remote() for w in self.workers],
                                timeout=start_timeout)
        except BaseException:
            self._kill_all()
            raise
        first = described[0]
        self.single_observation_space = first["observation_space"]
        self.single_action_space = first["action_space"]
        for i, d in enumerate(described[1:], 1):
            if d["observation_space"] != self.single_observation_space:
                self._kill_all()
                raise RuntimeError(f"sub-env {i} has the observation space "
                                   f"{d['observation_space']}, sub-env 0 has "
                                   f"{self.single_observation_space}")
            if d["action_space"] != self.single_action_space:
                self._kill_all()
                raise RuntimeError(f"sub-env {i} has another action space than sub-env 0")
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = dict(first["metadata"])
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = first["render_mode"]

        self._env_obs: list[Any] = [None] * num_envs
        self._last_info: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._observations: Any = create_empty_array(self.single_observation_space,
                                                     n=num_envs, fn=np.zeros)
        self._rewards = np.zeros((num_envs,), dtype=np.float64)
        self._terminations = np.zeros((num_envs,), dtype=np.bool_)
        self._truncations = np.zeros((num_envs,), dtype=np.bool_)
        self._autoreset_envs = np.zeros((num_envs,), dtype=np.bool_)
        self._slot_seeds: list[int | None] = [None] * num_envs
        self._fresh = [False] * num_envs  # replaced, not reset since
        self._was_reset = False

    # -- workers --------------------------------------------------------------------------
    def _spawn(self, i: int) -> Any:
        return _RemoteEnvWorker.options(**self._actor_options).remote(
            self.env_id, self._kwargs[i], self._wrappers)

    def _kill_all(self) -> None:
        for w in self.workers:
            try:
                ray.kill(w)
            except Exception:  # noqa: BLE001 - already gone
                pass

    def _replace(self, i: int, reason: str) -> None:
        """Start a new actor for slot ``i`` (the old one is killed if it still runs)."""
        if self.restarts[i] >= self.max_restarts:
            raise RuntimeError(f"sub-env {i}'s worker failed again after {self.restarts[i]} "
                               f"replacements (max_restarts={self.max_restarts}): {reason}")
        try:
            ray.kill(self.workers[i])
        except Exception:  # noqa: BLE001 - already dead
            pass
        self.restarts[i] += 1
        self.last_worker_error[i] = reason
        self.workers[i] = self._spawn(i)
        self._fresh[i] = True

    def _replacement_seed(self, i: int) -> int | None:
        """The seed of a replacement's first reset: derived from the slot's seed and restart
        count, so that a seeded run stays reproducible (None if the slot was never seeded)."""
        seed = self._slot_seeds[i]
        if seed is None:
            return None
        state = np.random.SeedSequence([seed, self.restarts[i]]).generate_state(1)[0]
        return int(state) % (2**31 - 1)

    def _gather(self, refs: dict[int, Any]) -> dict[int, tuple[bool, Any]]:
        """Wait for each slot's call; ``(True, result)`` or ``(False, why it failed)``.
        An exception from a sub-env that is not a worker error is raised (after every call
        has been waited for)."""
        pending = list(refs.values())
        if self.step_timeout is None:
            try:  # the common case in one round trip
                return dict(zip(refs, ((True, v) for v in ray.get(pending))))
            except RayError:
                pass  # find out which failed, below
        timeout = self.step_timeout
        if timeout is not None and any(self._fresh[i] for i in refs):
            # a replacement may still be starting: give it start_timeout on top
            timeout = None if self.start_timeout is None else timeout + self.start_timeout
        _, not_ready = ray.wait(pending, num_returns=len(pending), timeout=timeout)
        late = set(not_ready)
        out: dict[int, tuple[bool, Any]] = {}
        raised: BaseException | None = None
        for i, ref in refs.items():
            if ref in late:
                try:
                    ray.kill(self.workers[i])
                except Exception:  # noqa: BLE001 - already gone
                    pass
                out[i] = (False, f"TimeoutError: no answer within {timeout} s")
                continue
            try:
                out[i] = (True, ray.get(ref))
            except RayError as e:
                cause = task_cause(e)
                if cause is not None and not isinstance(cause, self.worker_errors):
                    raised = raised or cause
                    out[i] = (False, describe_failure(e))
                else:
                    out[i] = (False, describe_failure(e))
        if raised is not None:
            raise raised
        return out

    def _reset_slots(self, seeds: dict[int, int | None],
                     options: dict[str, Any] | None) -> dict[int, tuple[Any, dict]]:
        """Reset the given slots; a slot whose worker fails is replaced and reset again with
        the same seed (no episode had started, so there is nothing to truncate)."""
        results: dict[int, tuple[Any, dict]] = {}
        todo = dict(seeds)
        while todo:
            refs = {i: self.workers[i].reset.remote(seed, options) for i, seed in todo.items()}
            gathered = self._gather(refs)
            retry: dict[int, int | None] = {}
            for i, (ok, value) in gathered.items():
                if ok:
                    results[i] = value
                    self._fresh[i] = False
                else:
                    self._replace(i, value)
                    retry[i] = todo[i]
            todo = retry
        return results

    # -- the vector env API ---------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every sub-env (or those in ``options["reset_mask"]``), as ``SyncVectorEnv``:
        an int seed gives sub-env ``i`` the seed ``seed + i``."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"If seeds are passed as a list the length must match "
                             f"num_envs={self.num_envs} but got length={len(seeds)}.")
        options = dict(options) if options is not None else None
        mask = np.ones((self.num_envs,), dtype=np.bool_)
        if options is not None and "reset_mask" in options:
            mask = options.pop("reset_mask")
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ \
                    or mask.shape != (self.num_envs,) or not mask.any():
                raise ValueError(f"options['reset_mask'] must be a bool numpy array of shape "
                                 f"({self.num_envs},) with at least one True, got {mask!r}")
        selected = {i: seeds[i] for i in range(self.num_envs) if mask[i]}
        for i, s in selected.items():
            if s is not None or self._slot_seeds[i] is None:
                self._slot_seeds[i] = s
            elif self._fresh[i]:  # an unseeded reset of a replacement: keep it reproducible
                selected[i] = self._replacement_seed(i)
        results = self._reset_slots(selected, options)
        self._terminations[mask] = False
        self._truncations[mask] = False
        self._autoreset_envs[mask] = False
        infos: dict[str, Any] = {}
        for i in sorted(results):
            self._env_obs[i], info = results[i]
            self._last_info[i] = info
            infos = self._add_info(infos, info, i)
        self._was_reset = True
        self._observations = concatenate(self.single_observation_space, self._env_obs,
                                         self._observations)
        return (copy_module.deepcopy(self._observations) if self.copy
                else self._observations), infos

    def _split_actions(self, actions: Any) -> list[Any]:
        if (isinstance(actions, (list, tuple)) and len(actions) == self.num_envs
                and not isinstance(self.action_space, gym.spaces.Tuple)):
            return list(actions)
        return list(iterate(self.action_space, actions))

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Step every sub-env in parallel; a sub-env whose episode ended at the previous step
        is reset instead (its action is ignored), as in ``SyncVectorEnv``."""
        if not self._was_reset:
            raise RuntimeError("call reset() before step()")
        per_env = self._split_actions(actions)
        resetting = {i for i in range(self.num_envs) if self._autoreset_envs[i]}
        refs = {i: (self.workers[i].reset.remote(
                        self._replacement_seed(i) if self._fresh[i] else None, None)
                    if i in resetting else self.workers[i].step.remote(per_env[i]))
                for i in range(self.num_envs)}
        gathered = self._gather(refs)
        # a worker that fails while resetting is replaced and reset again at once
        failed_resets = {i for i in resetting if not gathered[i][0]}
        for i in failed_resets:
            self._replace(i, gathered[i][1])
        if failed_resets:
            again = self._reset_slots({i: self._replacement_seed(i) for i in failed_resets},
                                      None)
            gathered.update({i: (True, v) for i, v in again.items()})
        infos: dict[str, Any] = {}
        for i in range(self.num_envs):
            ok, value = gathered[i]
            if i in resetting:
                self._env_obs[i], info = value
                self._fresh[i] = False
                self._rewards[i] = 0.0
                self._terminations[i] = False
                self._truncations[i] = False
            elif ok:
                (self._env_obs[i], reward, terminated, truncated, info) = value
                self._rewards[i] = reward
                self._terminations[i] = terminated
                self._truncations[i] = truncated
            else:  # the worker died mid-episode: the episode ends truncated
                self._replace(i, value)
                info = dict(self._last_info[i], worker_error=value)
                self._rewards[i] = 0.0
                self._terminations[i] = False
                self._truncations[i] = True
            self._last_info[i] = info
            infos = self._add_info(infos, info, i)
        self._observations = concatenate(self.single_observation_space, self._env_obs,
                                         self._observations)
        self._autoreset_envs = np.logical_or(self._terminations, self._truncations)
        return ((copy_module.deepcopy(self._observations) if self.copy
                 else self._observations), np.copy(self._rewards),
                np.copy(self._terminations), np.copy(self._truncations), infos)

    def render(self) -> tuple[Any, ...]:
        """Each sub-env's ``render()``."""
        return tuple(ray.get([w.render.remote() for w in self.workers]))

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute) of every sub-env; results must pickle."""
        return tuple(ray.get([w.call.remote(name, args, kwargs) for w in self.workers]))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """An attribute of every sub-env."""
        return self.call(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Set an attribute on every sub-env: one value each from a list or tuple, else the
        same value for all."""
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"values has {len(values)} entries for num_envs={self.num_envs}")
        ray.get([w.set_attr.remote(name, v) for w, v in zip(self.workers, values)])

    def close_extras(self, **kwargs: Any) -> None:
        """Close every sub-env (ignoring workers that are gone) and end the actors."""
        if not ray.is_initialized():  # Ray was shut down: the actors went with it
            return
        refs = [w.close.remote() for w in self.workers]
        try:
            ray.wait(refs, num_returns=len(refs), timeout=30)
        except Exception:  # noqa: BLE001 - Ray may already be shut down
            pass
        self._kill_all()

    def __repr__(self) -> str:
        name = self.env_id if isinstance(self.env_id, str) else getattr(
            self.env_id, "__name__", "factory")
        return f"RayVectorEnv({name}, num_envs={self.num_envs})"
