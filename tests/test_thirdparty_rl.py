"""torchrl and tianshou over :class:`ElementActions` with masks and no glue: the wrapper's
``mask_key`` puts the mask in the observation under the name each library reads
(docs/thirdparty_rl.md). Each test skips when its library is not installed."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import phoneworld_gym  # noqa: F401  (registers the envs)
from phoneworld_gym.baselines.sb3 import ElementActions

ENV_ID = "PhoneWorld/MessagesCountUnread-v0"


def element_env(mask_key: str | None, max_steps: int = 6) -> ElementActions:
    """The wrapper over a short-budget ``ENV_ID``, the mask observed under ``mask_key``."""
    base = gymnasium.make(ENV_ID, obs_mode="a11y", max_steps=max_steps)
    return ElementActions(base, max_elements=24, mask_key=mask_key)  # type: ignore[arg-type]


def test_the_mask_in_the_observation_is_action_masks_and_declared() -> None:
    env = element_env("action_mask")
    space = env.observation_space["action_mask"]
    assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.bool_
    assert space.shape == (env.action_space.n,)
    obs, _ = env.reset(seed=0)
    for _ in range(4):
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(obs["action_mask"], env.action_masks())
        obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[-1]))  # an open-app action
    plain = element_env(None)
    assert sorted(plain.observation_space.spaces) == ["elements", "goal"]
    with pytest.raises(ValueError, match="mask_key"):
        element_env("goal")


def test_torchrl_gym_wrapper_rolls_out_masked_and_matches_the_env() -> None:
    pytest.importorskip("torchrl")
    import torch
    from tensordict.nn import TensorDictModule
    from torchrl.envs import GymWrapper, TransformedEnv
    from torchrl.envs.transforms import ActionMask
    from torchrl.modules import MaskedCategorical, ProbabilisticActor

    env = element_env("action_mask")
    seeds: list[Any] = []  # every reset torchrl makes, to replay them on a twin env
    reset = env.reset  # (a spy for the test, not something a user writes)
    env.reset = lambda **kw: (seeds.append(kw.get("seed")), reset(**kw))[1]  # type: ignore
    tenv = TransformedEnv(GymWrapper(env, categorical_action_encoding=True), ActionMask())
    tenv.set_seed(0)
    n = tenv.action_spec.space.n

    # torchrl's own pieces only: uniform logits, sampled through MaskedCategorical
    logits = TensorDictModule(lambda goal: torch.zeros(*goal.shape[:-1], n),
                              in_keys=["goal"], out_keys=["logits"])
    actor = ProbabilisticActor(logits, in_keys={"logits": "logits", "mask": "action_mask"},
                               distribution_class=MaskedCategorical, return_log_prob=True)
    torch.manual_seed(0)
    start = tenv.reset()
    before = len(seeds)  # the resets up to the rollout's first step
    td = tenv.rollout(25, actor, auto_reset=False, tensordict=start, break_when_any_done=False)
    assert td.batch_size == (25,)
    # torchrl's random policy (rand_action through ActionMask) is masked too
    rand = tenv.rollout(10, break_when_any_done=False)
    for r in (td, rand):
        masks, acts = r["action_mask"].numpy(), r["action"].numpy()
        assert all(masks[i, a] for i, a in enumerate(acts)), "an action outside the mask"

    twin = element_env(None)
    replay = iter(seeds)
    for _ in range(before):
        twin.reset(seed=next(replay))
    steps: list[tuple[float, bool, bool]] = []
    for i, a in enumerate(td["action"].tolist()):
        mask = twin.action_masks()
        assert mask[a], f"step {i}: action {a} ({twin.describe_action(a)}) is masked out"
        np.testing.assert_array_equal(td["action_mask"][i].numpy(), mask)
        _, reward, term, trunc, info = twin.step(a)
        assert info["invalid_action"] == ""
        steps.append((reward, term, trunc))
        if term or trunc:
            twin.reset(seed=next(replay))
    nxt = td["next"]
    got = list(zip(nxt["reward"].view(-1).tolist(), nxt["terminated"].view(-1).tolist(),
                   nxt["truncated"].view(-1).tolist(), strict=True))
    assert got == steps
    assert any(t or u for _, t, u in steps), "the rollout should cross an episode end"


def test_tianshou_collector_collects_masked_episodes() -> None:
    pytest.importorskip("tianshou")
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    envs = DummyVectorEnv([lambda: element_env("mask")] * 2)
    # tianshou's own masked random policy: it reads batch.obs.mask
    policy = MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(element_env("mask").action_space)
    buffer = VectorReplayBuffer(100, buffer_num=2)
    collector: Any = Collector(policy, envs, buffer)
    collector.reset(gym_reset_kwargs={"seed": 0})
    np.random.seed(0)
    stats = collector.collect(n_episode=4)
    assert stats.n_collected_episodes >= 4
    batch: Any = buffer.sample(0)[0]
    assert len(batch) == stats.n_collected_steps
    masks, acts = np.asarray(batch.obs.mask), np.asarray(batch.act)
    assert masks.dtype == np.bool_ and all(masks[i, a] for i, a in enumerate(acts))
    assert all(info == "" for info in batch.info.invalid_action)


def test_tianshou_collector_runs_past_many_auto_resets_without_glue() -> None:
    """Episodes of at most two steps in two envs: the collector resets each env whenever
    its episode ends and keeps going; reset and step infos carry the env's whole schema, so
    tianshou's info batches (which mix the two after every auto-reset) need no glue."""
    pytest.importorskip("tianshou")
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    from phoneworld_gym.env import INFO_SCHEMA

    envs = DummyVectorEnv([lambda: element_env("mask", max_steps=2)] * 2)
    policy = MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(element_env("mask").action_space)
    buffer = VectorReplayBuffer(200, buffer_num=2)
    collector: Any = Collector(policy, envs, buffer)
    _, reset_infos = collector.reset(gym_reset_kwargs={"seed": 0})
    assert all(set(INFO_SCHEMA) <= set(info) for info in reset_infos)
    assert all(info["steps"] == 0 and info["action"] == {} for info in reset_infos)
    np.random.seed(0)
    stats = collector.collect(n_episode=6)
    assert stats.n_collected_episodes >= 6
    batch: Any = buffer.sample(0)[0]
    assert len(batch) == stats.n_collected_steps
    assert set(INFO_SCHEMA) <= set(batch.info.keys())
    for env_id in (0, 1):  # each env's episodes count steps from 1 again after every reset
        rows = np.asarray(batch.info.env_id) == env_id
        steps = np.asarray(batch.info.steps)[rows].tolist()
        term = np.asarray(batch.terminated)[rows].tolist()
        trunc = np.asarray(batch.truncated)[rows].tolist()
        assert sum(term) + sum(trunc) >= 2, "each env should cross episode ends"
        for i, n in enumerate(steps):
            assert n == (1 if i == 0 or term[i - 1] or trunc[i - 1] else steps[i - 1] + 1)
            assert trunc[i] == (n == 2 and not term[i])
    assert all(info == "" for info in batch.info.invalid_action)
    assert set(batch.info.task) == {"MessagesCountUnread"}
