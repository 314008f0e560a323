"""The CleanRL-style example (examples/cleanrl_ppo.py) runs through the public API alone: a
tiny training run finishes and reports, and its masked distribution weighs each kind of row
action as one choice."""

from __future__ import annotations

import gymnasium as gym
import pytest

torch = pytest.importorskip("torch")

from conftest import load_example  # noqa: E402

from phoneworld_gym.baselines.sb3 import ElementActions  # noqa: E402


@pytest.fixture(scope="module")
def cleanrl():
    return load_example("cleanrl_ppo")


def test_masked_policy_weighs_each_kind_of_row_action_once(cleanrl):
    env = ElementActions(gym.make("PhoneWorld/MessagesLastFrom-v0", obs_mode="a11y"))
    obs, _ = env.reset(seed=3)
    agent = cleanrl.Agent(env, 16)
    mask = torch.as_tensor(env.action_masks())[None]
    logits = torch.zeros(1, mask.shape[1])  # an untrained policy, exactly
    probs = cleanrl.masked(logits, mask, agent).probs[0]
    assert float(probs[~mask[0]].sum()) == 0.0
    m, k = agent.m, agent.per_row
    per_kind = probs[: k * m].reshape(k, m).sum(-1)
    offered = mask[0, : k * m].reshape(k, m).any(-1)
    fixed = probs[k * m:][mask[0, k * m:]]
    # every offered row kind carries the weight of one fixed action, however many rows offer it
    assert int(offered.sum()) >= 2
    assert int(mask[0, : k * m].reshape(k, m).sum(-1).max()) > 1  # else nothing to weigh
    for kind in range(k):
        if offered[kind]:
            assert float(per_kind[kind]) == pytest.approx(float(fixed[0]), rel=1e-5)
    env.close()


def test_a_tiny_run_trains_and_reports(cleanrl):
    args = cleanrl.parse(["--total-steps", "64", "--num-envs", "2", "--num-steps", "16",
                          "--eval-episodes", "2", "--embed", "16"])
    result = cleanrl.train(args)
    assert result["steps"] == 64
    assert result["env_id"] == "PhoneWorld/MessagesLastFrom-v0"
    assert 0.0 <= result["success_after"] <= 1.0
