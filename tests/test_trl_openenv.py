"""TRL's GRPOTrainer trains against a PhoneWorld OpenEnv server (``phoneworld serve-env``):
the rollout plays its episodes through ``PhoneWorldGymClient`` sessions, and the rewards TRL
logs are the ones an in-process env gives for the same actions."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("openenv")

from test_openenv import server  # noqa: E402,F401 (the serve-env process fixture)

TASK = "ContactsStar"


def test_grpo_trainer_trains_against_an_openenv_server(
        tmp_path: Path, server: str  # noqa: F811 (test_openenv's serve-env process)
) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus
    from phoneworld_gym.baselines.trl_grpo import (
        TRLGRPOSettings,
        replay_reward,
        train_trl_grpo,
    )
    from phoneworld_gym.env import PhoneEnv
    from phoneworld_gym.envserver import PhoneWorldGymClient

    torch.set_num_threads(1)
    base = build_tiny(tmp_path / "base", list(oracle_corpus([TASK], seeds=range(2))),
                      vocab=1000, init_std=0.1)
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForCausalLM.from_pretrained(base)
    keep: dict = {}
    settings = TRLGRPOSettings(updates=2, tasks_per_update=1, group_size=4,
                               temperature=1.0, max_episode_steps=3, lr=1e-3)
    seeds = [1000, 1001]
    with PhoneWorldGymClient(server) as served:
        history = train_trl_grpo(model, tok, [TASK], seeds, settings, tmp_path / "trl",
                                 keep=keep, instances=[("served", TASK, s) for s in seeds],
                                 envs={"served": served})
    trainer, rollout = keep["trainer"], keep["rollout"]
    assert trainer.state.global_step >= 2 and len(history) == 2
    assert len(rollout.episodes) == 8
    # every episode was played on the server: its actions replayed in process give the
    # reward TRL was handed
    env = PhoneEnv(TASK, split="train", obs_mode="a11y")
    try:
        for ep in rollout.episodes[:4]:
            assert ep.actions
            assert replay_reward(env, ep.task, ep.seed, ep.actions) == ep.env_reward
    finally:
        env.close()
