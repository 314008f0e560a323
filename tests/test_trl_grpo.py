"""TRL's GRPOTrainer on PhoneWorld through
phoneworld_gym.baselines.trl_grpo: it steps, it changes the
model, and the rewards it logs are the verifier's for the episodes it played."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")

from phoneworld_gym.baselines.trl_grpo import (  # noqa: E402
    TRLGRPOSettings,
    instance_dataset,
    instance_key,
    oracle_transcripts,
    parse_key,
    replay_reward,
    sft_transcripts,
    train_trl_grpo,
    transcript_examples,
)

TASK = "ContactsStar"


def test_instance_keys_round_trip_and_bad_ones_are_named() -> None:
    assert parse_key(instance_key(TASK, 1003)) == (TASK, 1003)
    ds = instance_dataset([TASK], [5, 6])
    assert ds["prompt"] == [f"{TASK}#5", f"{TASK}#6"] and ds["seed"] == [5, 6]
    with pytest.raises(ValueError, match="Task#seed"):
        parse_key("ContactsStar")
    with pytest.raises(ValueError, match="group_size"):
        TRLGRPOSettings(group_size=1)


def test_grpo_trainer_steps_on_phoneworld_with_verified_rewards(tmp_path: Path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus
    from phoneworld_gym.env import PhoneEnv

    torch.set_num_threads(1)
    base = build_tiny(tmp_path / "base", list(oracle_corpus([TASK], seeds=range(2))),
                      vocab=1000, init_std=0.1)
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForCausalLM.from_pretrained(base)
    # one SFT step on oracle transcripts (the path the example takes; a start that solves
    # some episodes costs ~40 SFT steps, minutes on this machine: examples/trl_grpo.py)
    examples = transcript_examples(oracle_transcripts(TASK, range(2)), tok.eos_token)
    assert len(sft_transcripts(model, tok, examples, steps=1, batch_size=2)) == 1
    before = {k: v.detach().clone() for k, v in model.state_dict().items()}
    keep: dict = {}
    settings = TRLGRPOSettings(updates=2, tasks_per_update=1, group_size=4,
                               temperature=1.0, max_episode_steps=3, lr=1e-3)
    history = train_trl_grpo(model, tok, [TASK], range(1000, 1004), settings,
                             tmp_path / "trl", keep=keep)
    trainer, rollout = keep["trainer"], keep["rollout"]
    assert trainer.state.global_step >= 2 and len(history) == 2
    episodes = rollout.episodes
    assert len(episodes) == 2 * 4
    # what TRL trained on: the action tokens only (env turns masked), one sequence each
    for ep in episodes:
        assert len(ep.env_mask) == len(ep.completion_ids) == len(ep.logprobs)
        assert sum(ep.env_mask) > 0 and ep.env_mask[0] == 1
        assert (0 in ep.env_mask) == (len(ep.actions) > 1)
    # the rewards TRL logged for its last update are the verifier's, in the order played ...
    a, b = rollout.calls[-1]
    logged = list(trainer._logs["rewards"]["verified_reward"])
    assert logged == [ep.env_reward for ep in episodes[a:b]]
    assert [h["reward"] for h in history] == pytest.approx(
        [sum(e.env_reward for e in episodes[i * 4:(i + 1) * 4]) / 4 for i in range(2)])
    # ... and replaying an episode's actions on a fresh env gives its logged reward
    env = PhoneEnv(TASK, split="train", obs_mode="a11y")
    try:
        best = max(range(b - a), key=lambda i: logged[i])
        for i in {0, best}:
            ep = episodes[a + i]
            assert replay_reward(env, ep.task, ep.seed, ep.actions) == logged[i]
    finally:
        env.close()
    # GRPO moves the weights exactly when a group had a reward spread (a group the policy
    # always or never solves has zero advantages: no gradient, and AdamW without weight
    # decay leaves the weights as they were)
    after = model.state_dict()
    moved = any(not torch.equal(before[k], after[k]) for k in before)
    spread = any(h["zero_std_groups"] < 1 for h in history)
    assert moved == spread, history
