"""Registry-driven: every task is solvable by its oracle and refuses the wrong outcomes."""

from __future__ import annotations

import gymnasium
import pytest
from conftest import TASK_IDS, run_script

from phoneworld_gym import Action
from phoneworld_gym.audit import has_params
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.task import get_task
from phoneworld_gym.world import DEFAULT_CLOCK

SEEDS = range(5)
#: another day for the last seed: a Wednesday in July, where the default is Saturday 14 March
#: at 10:30. Apps generate their data around the phone's start clock and tasks read it through
#: ``probe.now()``, so nothing may depend on the written default.
OTHER_DAY = "2026-07-22T08:05:00"


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_solves_on_five_seeds(make_env, task_id):
    """Four seeds on the default clock, the fifth on another day."""
    env = make_env(obs_mode="a11y")
    other = make_env(obs_mode="a11y", device=PhoneWorldDevice(start_clock=OTHER_DAY))
    for seed in SEEDS:
        e = other if seed == SEEDS[-1] else env
        e.reset(seed=seed, options={"task": task_id})
        assert e.unwrapped.device.probe.now()[:10] == (
            OTHER_DAY[:10] if e is other else DEFAULT_CLOCK[:10])
        reward, info = run_script(e, e.unwrapped.oracle)
        assert reward == 1.0, f"{task_id} seed {seed} ({e.unwrapped.device.start_clock}): " \
            f"oracle scored {reward} ({info['goal']})"
        assert info["success"] is True
        assert info["steps"] <= get_task(task_id).step_budget()


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_doing_nothing_and_claiming_success_scores_zero(make_env, task_id):
    env = make_env(obs_mode="a11y")
    for seed in SEEDS:
        env.reset(seed=seed, options={"task": task_id})
        if get_task(task_id).answer_matcher is not None:
            action = Action("answer", text="")
        else:
            action = Action("status", goal_status="complete")
        _, reward, terminated, _, info = env.step(action)
        assert terminated and reward == 0.0, f"{task_id} seed {seed} ({info['goal']})"
        assert info["success"] is False


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_near_miss_scores_zero(make_env, task_id):
    env = make_env(obs_mode="a11y")
    for seed in SEEDS:
        env.reset(seed=seed, options={"task": task_id})
        task = env.unwrapped.task
        reward, info = run_script(env, lambda task=task: task.near_miss(env.unwrapped.device))
        assert reward == 0.0, f"{task_id} seed {seed}: near miss scored {reward}"


@pytest.mark.parametrize("task_id", [t for t in TASK_IDS if get_task(t).answer_matcher])
def test_wrong_answer_scores_zero(make_env, task_id):
    env = make_env(obs_mode="a11y")
    env.reset(seed=0, options={"task": task_id})
    _, reward, *_ = env.step(Action("answer", text="definitely not it 12345 xyz"))
    assert reward == 0.0


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_task_env_id_is_registered_and_plays_that_task(task_id):
    t = get_task(task_id)
    assert t.optimal_steps >= 1 and t.step_budget() >= t.optimal_steps
    assert t.template.strip() and t.__doc__, task_id
    assert t.env_id() in gymnasium.registry, f"{t.env_id()} is not registered"
    env = gymnasium.make(t.env_id(), obs_mode="a11y")
    _, info = env.reset(seed=0)
    assert info["task"] == task_id and info["goal"] == env.unwrapped.task.goal
    env.close()


def test_different_seeds_give_different_params(make_env):
    env = make_env(obs_mode="a11y")
    for task_id in TASK_IDS:
        if not has_params(get_task(task_id)):
            continue  # the task has no parameters
        seen = set()
        for seed in range(6):
            _, info = env.reset(seed=seed, options={"task": task_id})
            seen.add(repr(sorted(info["params"].items())))
        assert len(seen) > 1, f"{task_id}: six seeds gave the same params"


def _fields(template: str) -> set[str]:
    import string

    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_every_wording_uses_the_same_placeholders(task_id):
    t = get_task(task_id)
    wordings = {*t.templates("train"), *t.templates("test"), t.template}
    for w in wordings:
        assert _fields(w) == _fields(t.template), f"{task_id}: {w!r}"
    assert not set(t.templates("train")) & set(t.templates("test")), "a wording in both splits"


def test_split_picks_the_wordings(make_env):
    paraphrased = [t for t in TASK_IDS if get_task(t).paraphrases.get("test")
                   and get_task(t).split == "train"]
    if not paraphrased:
        pytest.skip("no task has test paraphrases yet")
    task_id = paraphrased[0]
    t = get_task(task_id)
    for split, allowed in (("test_wordings", set(t.templates("test"))),
                           ("train", set(t.templates("train"))),
                           (None, {t.template})):
        env = make_env(obs_mode="a11y", split=split)
        seen = {env.reset(seed=s, options={"task": task_id})[1]["template"] for s in range(8)}
        assert seen <= allowed, (split, seen - allowed)
        if split is not None and len(allowed) > 1:
            assert len(seen) > 1, f"split {split}: eight seeds used one wording"


def test_held_out_means_held_out() -> None:
    """``test`` selects the held-out templates only; the unseen wordings of train templates are
    a selection of their own; the three are named apart everywhere."""
    import phoneworld_gym
    from phoneworld_gym.env import PhoneEnv

    test = {c.id for c in phoneworld_gym.list_tasks(split="test")}
    train = {c.id for c in phoneworld_gym.list_tasks(split="train")}
    wordings = {c.id for c in phoneworld_gym.list_tasks(split="test_wordings")}
    assert test and train and wordings
    assert not test & train and test | train == set(TASK_IDS)
    assert wordings <= train
    assert all(get_task(t).split == "test" for t in test)
    env = PhoneEnv(split="test", obs_mode="a11y")
    drawn = {env.reset(seed=s)[1]["task"] for s in range(40)}
    assert drawn <= test and len(drawn) > 10
    env = PhoneEnv(split="test_wordings", obs_mode="a11y")
    for s in range(20):
        info = env.reset(seed=s)[1]
        cls = get_task(info["task"])
        assert cls.split == "train" and info["template"] in cls.paraphrases["test"]
    # apps by name or label, in any case; unknown filters are errors, not empty lists
    shop = phoneworld_gym.list_tasks(app="Shopping")
    assert shop and shop == phoneworld_gym.list_tasks(app="shopping")
    assert all(c.apps == ("shopping",) for c in shop)
    for bad in ({"app": "Shoping"}, {"split": "heldout"}, {"category": "apps"}):
        with pytest.raises(ValueError, match="unknown|must be one of"):
            phoneworld_gym.list_tasks(**bad)
