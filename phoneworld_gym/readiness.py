"""Which tasks run on a real phone: :func:`phone_ready` plays a task's whole episode on
PhoneWorld as a phone would serve it (:class:`~phoneworld_gym.access.TaskDevice` with
``common_only``) and reports the verbs and probes it used, and those only PhoneWorld has.

Computed, not declared: a task is phone-ready when its episodes succeed with a phone's
verbs and probes alone.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Any

from phoneworld_gym.device import Unsupported, is_common
from phoneworld_gym.env import PhoneEnv


@dataclasses.dataclass(frozen=True)
class Readiness:
    """Whether a task runs on a real phone, and the verbs and probes it uses."""

    task: str
    phone: bool
    uses: tuple[str, ...]
    #: the PhoneWorld-only verbs and probes that keep it off phones
    blockers: tuple[str, ...]


@functools.cache
def phone_ready(task_id: str, seeds: tuple[int, ...] = (0, 1, 2)) -> Readiness:
    """Run the task's whole episode (params, setup, oracle, verify) on PhoneWorld as a phone
    would serve it, over ``seeds``: it is phone-ready when every episode succeeded without
    asking for anything a phone lacks. The uses come from a second, unrestricted run."""
    uses: dict[str, bool] = {}
    refusals: set[str] = set()
    ready = True
    for seed in seeds:
        for common_only in (False, True):
            env = PhoneEnv(tasks=task_id, obs_mode="a11y", common_only=common_only)
            try:
                env.reset(seed=seed)
                reward = _play_oracle(env)
                if not common_only:
                    uses.update(env.task_device.uses)
                    task = env.task
                    assert task is not None
                    uses.update({f"before({t})": is_common(t) for t in task.read_tables})
                    # the verdict reads the tables the task may change (their difference)
                    # and checks that nothing else on the phone changed
                    uses.update({f"diff({t})": is_common(t) for t in task.may_change})
                    uses["snapshot"] = True
                elif reward < 1.0:
                    ready = False
            except Unsupported as e:
                if not common_only:
                    raise
                refusals.add(str(e).split(" (")[0])
                ready = False
            finally:
                env.close()
    blockers = tuple(sorted(k for k, common in uses.items() if not common)) or \
        tuple(sorted(refusals))
    return Readiness(task_id, ready and not blockers, tuple(sorted(uses)), blockers)


def _play_oracle(env: Any) -> float:
    reward = 0.0
    for action in env.oracle():
        _, reward, term, trunc, _ = env.step(action)
        if term or trunc:
            return float(reward)
    return float(reward)


def readiness(task_ids: Iterable[str]) -> list[Readiness]:
    """:func:`phone_ready` for several tasks."""
    return [phone_ready(t) for t in task_ids]
