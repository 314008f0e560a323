"""Whole episodes out of a vector env, for trainers that learn from episodes rather than steps.

:func:`collect_episodes` drives any Gymnasium vector env with ``NEXT_STEP`` autoreset
(``RayVectorEnv``, ``SyncVectorEnv``, ``AsyncVectorEnv``) and cuts its stream of steps into
:class:`Episode` s, one per finished episode of any slot. It needs no Ray.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import concatenate, create_empty_array, iterate

#: ``policy(observations, infos) -> actions``, one of each per slot
Policy = Callable[[list[Any], list[dict[str, Any]]], Sequence[Any]]


@dataclasses.dataclass
class Episode:
    """One finished episode of one slot of a vector env."""

    slot: int
    actions: list[Any]
    #: the reward of each step
    rewards: list[float]
    terminated: bool
    truncated: bool
    #: the info of the first observation and of the last step
    first_info: dict[str, Any]
    final_info: dict[str, Any]
    #: the observations, first to last (kept only with ``keep_observations``)
    observations: list[Any] = dataclasses.field(default_factory=list, repr=False)

    @property
    def reward(self) -> float:
        """The sum of the step rewards (PhoneWorld: the verifier's score)."""
        return float(sum(self.rewards))

    @property
    def worker_error(self) -> str:
        """Why the episode was cut short by a worker failure ("" if it was not)."""
        return str(self.final_info.get("worker_error", ""))


def unbatch_info(infos: dict[str, Any], i: int) -> dict[str, Any]:
    """Slot ``i``'s info out of a vector env's batched info dict (the ``_key`` masks say which
    slots have which keys)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get(f"_{key}")
        if mask is not None and not mask[i]:
            continue
        if isinstance(value, dict):
            out[key] = unbatch_info(value, i)
        else:
            item = value[i]
            out[key] = item.item() if isinstance(item, np.generic) else item
    return out


def collect_episodes(envs: VectorEnv, policy: Policy, num_episodes: int, *,
                     seed: int | None = None, options: dict[str, Any] | None = None,
                     keep_observations: bool = False,
                     max_steps: int = 1_000_000) -> list[Episode]:
    """Reset ``envs`` and step it with ``policy`` until ``num_episodes`` episodes have ended
    (in any slots); those episodes, in the order they ended.

    ``policy`` gets every slot's observation and info (unbatched) and returns an action per
    slot; a slot whose episode ended at the previous step is being reset, and its action is
    ignored. Actions go to a ``RayVectorEnv`` as they are (an ``Action``, JSON or a numeric
    sample each); for other vector envs they must be numeric samples, which are batched.
    Episodes still running when the count is reached are dropped. ``max_steps`` bounds the
    vector steps taken."""
    per_slot_actions = hasattr(envs, "workers")  # RayVectorEnv takes a list of actions
    obs, infos = envs.reset(seed=seed, options=options)
    n = envs.num_envs
    observations = list(iterate(envs.observation_space, obs))
    slot_infos = [unbatch_info(infos, i) for i in range(n)]
    open_eps = [_start(i, observations[i], slot_infos[i], keep_observations) for i in range(n)]
    resetting = [False] * n
    done: list[Episode] = []
    for _ in range(max_steps):
        if len(done) >= num_episodes:
            break
        actions = list(policy(observations, slot_infos))
        if len(actions) != n:
            raise ValueError(f"the policy gave {len(actions)} actions for {n} slots")
        batched = actions if per_slot_actions else concatenate(
            envs.single_action_space, actions,
            create_empty_array(envs.single_action_space, n))  # type: ignore[arg-type]
        obs, rewards, terms, truncs, infos = envs.step(batched)
        observations = list(iterate(envs.observation_space, obs))
        for i in range(n):
            slot_infos[i] = unbatch_info(infos, i)
            if resetting[i]:  # this step reset the slot: a new episode starts
                open_eps[i] = _start(i, observations[i], slot_infos[i], keep_observations)
                resetting[i] = False
                continue
            ep = open_eps[i]
            ep.actions.append(actions[i])
            ep.rewards.append(float(rewards[i]))
            if keep_observations:
                ep.observations.append(observations[i])
            if terms[i] or truncs[i]:
                ep.terminated, ep.truncated = bool(terms[i]), bool(truncs[i])
                ep.final_info = slot_infos[i]
                done.append(ep)
                resetting[i] = True
    return done[:num_episodes]


def _start(slot: int, obs: Any, info: dict[str, Any], keep: bool) -> Episode:
    return Episode(slot, [], [], False, False, info, {}, [obs] if keep else [])
