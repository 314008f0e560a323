"""Adaptive instance sampling (TaskSampler(adaptive=True)): tasks drawn by their recent
success spread p (1 - p) plus a floor, from the groups the loop records."""

from __future__ import annotations

import collections
from types import SimpleNamespace
from typing import Any

import pytest

from phoneworld_gym.baselines.sampler import EnvSource, TaskInstance, TaskSampler

TASKS = ["ContactsStar", "ClockDisableAlarm", "SettingsSwitch", "ClockEarliestAlarm"]
ALWAYS, NEVER, HALF, UNSEEN = TASKS


def sampler(**kw: Any) -> TaskSampler:
    return TaskSampler([EnvSource("mock", "PhoneWorld/All-v0", tasks=TASKS)],
                       seeds=range(1000, 1010), **{"seed": 3, "adaptive": True, **kw})


def train(s: TaskSampler, groups: int = 10, size: int = 8) -> None:
    """Record ``groups`` groups of each of three tasks: always, never, half solved."""
    for g in range(groups):
        s.record(TaskInstance("mock", ALWAYS, 1000 + g), [True] * size)
        s.record(TaskInstance("mock", NEVER, 1000 + g), [False] * size)
        s.record(TaskInstance("mock", HALF, 1000 + g), [True, False] * (size // 2))


def counts(s: TaskSampler, n: int) -> collections.Counter[str]:
    return collections.Counter(inst.task for inst in s.draw_batch(n))


def test_half_solved_drawn_much_more_than_always_or_never() -> None:
    s = sampler()
    train(s)
    c = counts(s, 4000)
    assert c[HALF] > 3 * c[ALWAYS] and c[HALF] > 3 * c[NEVER], c
    # unseen tasks keep the prior's top weight: drawn as often as the half-solved one
    assert c[UNSEEN] > 3 * c[ALWAYS] and abs(c[UNSEEN] - c[HALF]) < 0.15 * c[HALF], c
    # the floor keeps the solved and the hopeless tasks in the draw
    assert c[ALWAYS] > 100 and c[NEVER] > 100, c


def test_before_any_record_every_task_is_drawn_alike() -> None:
    c = counts(sampler(), 4000)
    assert set(c) == set(TASKS)
    assert max(c.values()) < 1.2 * min(c.values()), c


def test_weights_and_estimates() -> None:
    s = sampler(floor=0.05, decay=0.8)
    assert s.estimate("mock", HALF) == 0.5
    assert s.weights("mock")[HALF] == pytest.approx(0.25 + 0.05)
    s.record(TaskInstance("mock", ALWAYS, 1000), [True] * 4)
    assert s.estimate("mock", ALWAYS) == pytest.approx(5 / 6)  # Beta(1, 1) + 4 of 4
    s.record(TaskInstance("mock", ALWAYS, 1001), [False] * 4)
    # the first record weighs 0.8 now: successes 3.2, failures 4
    assert s.estimate("mock", ALWAYS) == pytest.approx(4.2 / 9.2)
    assert s.estimate("mock", ALWAYS, 1000) == pytest.approx(5 / 6)  # per instance
    assert s.estimate("mock", ALWAYS, 1001) == pytest.approx(1 / 6)
    assert s.estimate("mock", ALWAYS, 1002) == 0.5  # an instance not played yet
    p = 4.2 / 9.2
    assert s.weights("mock")[ALWAYS] == pytest.approx(p * (1 - p) + 0.05)
    stats = s.stats()
    assert list(stats) == [f"mock/{ALWAYS}"]
    assert stats[f"mock/{ALWAYS}"]["records"] == 2
    assert stats[f"mock/{ALWAYS}"]["p"] == pytest.approx(p)
    assert sum(s.weights("mock")[t] for t in TASKS) * stats[f"mock/{ALWAYS}"]["share"] == \
        pytest.approx(s.weights("mock")[ALWAYS])


def test_recent_records_count_most() -> None:
    """A task solved at first and failed lately is estimated from the recent failures, so
    a policy that forgets a task gets it drawn again."""
    s = sampler(decay=0.5)
    for g in range(6):
        s.record(TaskInstance("mock", ALWAYS, 1000 + g), [True] * 4)
    high = s.estimate("mock", ALWAYS)
    for g in range(6):
        s.record(TaskInstance("mock", ALWAYS, 1000 + g), [False] * 4)
    assert high > 0.85 and s.estimate("mock", ALWAYS) < 0.15


def test_deterministic_given_seed_and_records() -> None:
    a, b = sampler(), sampler()
    train(a)
    train(b)
    assert a.draw_batch(300) == b.draw_batch(300)
    c = sampler(seed=4)
    train(c)
    assert c.draw_batch(300) != sampler().draw_batch(300)


def test_source_mix_and_seeds_stay_as_configured() -> None:
    s = TaskSampler([EnvSource("a", "PhoneWorld/All-v0", weight=3.0, tasks=TASKS),
                     EnvSource("b", "PhoneWorld/All-v0", weight=1.0, tasks=TASKS[:2])],
                    seed=0, seeds=[7, 8, 9], adaptive=True)
    for _ in range(10):
        s.record(TaskInstance("a", ALWAYS, 7), [True] * 8)
        s.record(TaskInstance("b", NEVER, 7), [False] * 8)
    draws = s.draw_batch(4000)
    share_a = sum(d.source == "a" for d in draws) / len(draws)
    assert 0.72 < share_a < 0.78
    assert {d.seed for d in draws} == {7, 8, 9}
    # the estimates are per source: "b"'s ALWAYS is unseen there, so it outdraws b's NEVER
    b = collections.Counter(d.task for d in draws if d.source == "b")
    assert b[ALWAYS] > 3 * b[NEVER]


def test_not_adaptive_draws_as_before() -> None:
    """Without ``adaptive`` the draws are those of the uniform sampler, records or not."""
    plain = TaskSampler([EnvSource("mock", "PhoneWorld/All-v0", tasks=TASKS)], seed=3,
                        seeds=range(1000, 1010))
    recorded = TaskSampler([EnvSource("mock", "PhoneWorld/All-v0", tasks=TASKS)], seed=3,
                           seeds=range(1000, 1010))
    train(recorded)
    assert plain.draw_batch(200) == recorded.draw_batch(200)
    assert recorded.estimate("mock", ALWAYS) > 0.9  # records are kept all the same


def test_record_episodes_groups_by_instance() -> None:
    s = sampler()
    ep = SimpleNamespace
    s.record_episodes([ep(source="mock", task=HALF, seed=1000, success=True),
                       ep(source="mock", task=HALF, seed=1000, success=False),
                       ep(source="mock", task=NEVER, seed=1001, success=False),
                       ep(source="mock", task=HALF, seed=1000, success=True)])
    assert s.estimate("mock", HALF) == pytest.approx(3 / 5)
    assert s.estimate("mock", NEVER) == pytest.approx(1 / 3)
    assert s.stats()[f"mock/{HALF}"]["records"] == 1


@pytest.mark.parametrize("instance,successes,match", [
    (TaskInstance("nowhere", ALWAYS, 1000), [True], r"unknown source 'nowhere'.*\['mock'\]"),
    (TaskInstance("mock", "MusicPlaySong", 1000), [True], "does not serve"),
    (TaskInstance("mock", ALWAYS, "1000"), [True], "seed must be an int"),
    (("mock", ALWAYS, 1000), [True], "expected a TaskInstance"),
    (TaskInstance("mock", ALWAYS, 1000), [], "non-empty list of bools"),
    (TaskInstance("mock", ALWAYS, 1000), True, "non-empty list of bools"),
    (TaskInstance("mock", ALWAYS, 1000), "TF", "non-empty list of bools"),
    (TaskInstance("mock", ALWAYS, 1000), [1.0, 0.0], "must be bools"),
    (TaskInstance("mock", ALWAYS, 1000), [True, None], "must be bools"),
])
def test_bad_records(instance: Any, successes: Any, match: str) -> None:
    s = sampler()
    with pytest.raises(ValueError, match=match):
        s.record(instance, successes)
    assert s.stats() == {}  # nothing half-recorded


def test_bad_queries() -> None:
    s = sampler()
    with pytest.raises(ValueError, match="unknown source"):
        s.weights("nowhere")
    with pytest.raises(ValueError, match="unknown source"):
        s.estimate("nowhere", ALWAYS)


@pytest.mark.parametrize("kw,match", [({"floor": 0.0}, "floor"), ({"floor": -1}, "floor"),
                                      ({"floor": True}, "floor"),
                                      ({"decay": 0.0}, "decay"), ({"decay": 1.5}, "decay"),
                                      ({"prior": (0.0, 1.0)}, "prior"),
                                      ({"prior": (1.0,)}, "prior"),
                                      ({"adaptive": "yes"}, "adaptive")])
def test_bad_settings(kw: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        sampler(**kw)
