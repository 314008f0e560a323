"""The recipe's ``rl.engine: trl``: an RL stage trains through TRL's GRPOTrainer in the
stage's weighted worlds, with the history the report reads; what TRL's integration cannot
honour is refused when the config is read, naming the key."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
torch = pytest.importorskip("torch")
pytest.importorskip("trl")

from test_recipe import small_config  # noqa: E402

from phoneworld_gym.baselines.recipe import RecipeConfig, rl_stage, stage_keys  # noqa: E402


def trl_config(**over: object) -> dict:
    """The recipe test's tiny config with ``rl.engine: trl`` and the settings TRL takes."""
    cfg = small_config(decoding="constrained")
    for stage in ("real", "mixed"):
        cfg["rl"][stage].pop("kl_coef", None)
        cfg["rl"][stage].update(updates=2, max_episode_steps=2)
    cfg["rl"]["engine"] = "trl"
    cfg.update(over)
    return cfg


def test_an_rl_stage_trains_through_trl(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from transformers import AutoModelForCausalLM, AutoTokenizer

    import phoneworld_gym.baselines.trl_grpo as trl_grpo
    from phoneworld_gym.baselines.grpo import verified_reward
    from phoneworld_gym.baselines.sampler import TaskSampler
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    played: list[tuple[str, str, int]] = []  # (the env's device, task, seed) per episode
    play = trl_grpo.play_transcript

    def spy(lm, env, task, seed, **kw):  # type: ignore[no-untyped-def]
        played.append((type(env.unwrapped.device).__name__, task, int(seed)))
        return play(lm, env, task, seed, **kw)

    monkeypatch.setattr(trl_grpo, "play_transcript", spy)

    torch.set_num_threads(1)
    cfg = RecipeConfig.from_dict(trl_config())
    assert cfg.rl_engine == "trl"
    base = build_tiny(tmp_path / "base", list(oracle_corpus(cfg.train_tasks, seeds=range(1))),
                      layers=1, hidden=32, vocab=400)
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForCausalLM.from_pretrained(base)
    weights, settings = cfg.stages["mixed"]
    lines: list[str] = []
    history = rl_stage("mixed_rl", model, tok, None, cfg, weights, settings, verified_reward,
                       3, lines.append)
    assert [h["update"] for h in history] == [1, 2]
    for h in history:  # what the report reads, as the GRPO engine writes it
        assert h["engine"] == "trl" and 0.0 <= h["success"] <= h["reward"] + 1e-9 <= 1.0
        assert h["episodes"] == settings.tasks_per_update * settings.group_size
        assert h["drawn"] == 1 and h["kept"] in (0, 1)
    assert [line.split(":")[0] for line in lines] == ["mixed_rl update 1 (trl)",
                                                     "mixed_rl update 2 (trl)"]
    # each instance the stage's weighted sampler drew was played group_size times, in its
    # world's env (the field phone or the clean PhoneWorld one)
    sources = [dataclasses.replace(cfg.worlds[w], weight=float(x), tasks=cfg.train_tasks)
               for w, x in weights.items()]
    drawn = TaskSampler(sources, seed=3, seeds=cfg.rl_seeds, split="train").draw_batch(2)
    device = {"field": "FieldPhone", "mock": "PhoneWorldDevice"}
    assert sorted(played) == sorted((device[i.source], i.task, i.seed) for i in drawn
                                    for _ in range(settings.group_size))
    assert {i.source for i in drawn} == {"field", "mock"}  # (seed 3 draws one of each)
    # the engine is part of an RL stage's cache key, and only there; a grpo config's keys
    # are what they were before the option existed
    grpo_raw = trl_config()
    del grpo_raw["rl"]["engine"]
    grpo = stage_keys(RecipeConfig.from_dict(grpo_raw))
    trl = stage_keys(cfg)
    assert grpo["sft"] == trl["sft"] and grpo["random"] == trl["random"]
    for stage in ("real_rl", "mixed_rl", "real_rl_more"):
        assert '"engine": "trl"' in trl[stage] and "engine" not in grpo[stage]
    grpo_raw["rl"]["engine"] = "grpo"
    assert stage_keys(RecipeConfig.from_dict(grpo_raw)) == grpo


def _rl_with(**over: object) -> dict:
    rl = trl_config()["rl"]
    rl.update(over)
    return rl


def _stage_with(**over: object) -> dict:
    rl = trl_config()["rl"]
    rl["real"] = {**rl["real"], **over}
    return rl


@pytest.mark.parametrize("change, message", [
    ({"rl": _rl_with(engine="verl")},
     r"rl.engine must be one of \('grpo', 'trl'\).*got 'verl'"),
    ({"decoding": "free"}, r"decoding 'free' cannot be used with rl.engine 'trl'"),
    ({"decoding": "whole"}, r"decoding 'whole' cannot be used with rl.engine 'trl'"),
    ({"rl": _rl_with(adaptive=True)}, "rl.adaptive cannot be used with rl.engine 'trl'"),
    ({"device": "cuda"}, r"device 'cuda' cannot be used with rl.engine 'trl'"),
    ({"rl": _stage_with(minibatch=4)},
     r"rl.real.minibatch \(4\) cannot be honoured with rl.engine 'trl'"),
    ({"rl": _stage_with(balance_episodes=True)},
     r"rl.real.balance_episodes \(True\) cannot be honoured"),
    ({"rl": _stage_with(kl_coef=0.1)}, r"rl.real.kl_coef \(0.1\) cannot be honoured"),
])
def test_what_trl_cannot_honour_is_refused_by_name(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RecipeConfig.from_dict(trl_config(**change))


def test_judged_rewards_are_refused_with_trl() -> None:
    rl = _rl_with(reward="judged", judge="test_recipe:judge_by_last_reply")
    with pytest.raises(ValueError, match="rl.reward 'judged' cannot be used with rl.engine"):
        RecipeConfig.from_dict(trl_config(rl=rl))
