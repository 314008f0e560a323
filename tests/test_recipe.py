"""The recipe: the report's numbers equal its inputs, bad configs name the problem, and one
tiny run goes through every stage (demos, SFT, real-app RL, mixed RL, evaluations, report)."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
import yaml

os.environ.setdefault("HF_HUB_OFFLINE", "1")
pytest.importorskip("torch")
pytest.importorskip("trl")

from phoneworld_gym.baselines.recipe import RecipeConfig, load_config, main, run  # noqa: E402
from phoneworld_gym.baselines.report import (  # noqa: E402
    EvalRecord,
    aggregate,
    diff_interval,
    summarise,
    wilson,
    write_report,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """One torch thread: on a busy 2-core machine more threads only contend."""
    import torch

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


# -- the report ----------------------------------------------------------------------------
def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(10, 10)
    assert round(lo, 4) == 0.7225 and hi == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes"):
        wilson(3, 2)


def test_difference_interval_matches_newcombe() -> None:
    """Newcombe (1998), example (e): 56/70 vs 48/80 -> 0.2000 [0.0524, 0.3339]."""
    d, lo, hi = diff_interval(48, 80, 56, 70)
    assert (round(d, 4), round(lo, 4), round(hi, 4)) == (0.2, 0.0524, 0.3339)
    with pytest.raises(ValueError, match="need episodes"):
        diff_interval(0, 0, 1, 2)


def synthetic() -> list[EvalRecord]:
    """sft: app 2/4 (steps 3,5,7,9), IR 1/2; real_rl: app 3/4, IR 2/2; all on mock/train. One
    field/test row per stage."""
    out = []
    for stage, app_wins, ir_wins in (("sft", 2, 1), ("real_rl", 3, 2)):
        for i in range(4):
            out.append(EvalRecord(stage, "mock", "train", "ContactsStar", "app", i,
                                  i < app_wins, 3 + 2 * i, float(i < app_wins)))
        for i in range(2):
            out.append(EvalRecord(stage, "mock", "train", "ClockEarliestAlarm",
                                  "information-retrieval", i, i < ir_wins, 2))
        out.append(EvalRecord(stage, "field", "test", "ContactsUnstar", "app", 9,
                              stage == "real_rl", 6))
    return out


def test_summary_numbers_equal_the_inputs() -> None:
    s = summarise(synthetic(), ["sft", "real_rl"])
    assert list(s) == ["mock", "field"]
    app = s["mock"]["train"]["app"]
    assert app["sft"]["n"] == 4 and app["sft"]["successes"] == 2 and app["sft"]["rate"] == 0.5
    assert app["sft"]["mean_steps"] == 6.0  # (3 + 5 + 7 + 9) / 4
    assert (app["sft"]["ci_low"], app["sft"]["ci_high"]) == pytest.approx(wilson(2, 4))
    assert app["real_rl"]["successes"] == 3
    ir = s["mock"]["train"]["information-retrieval"]
    assert ir["sft"]["successes"] == 1 and ir["real_rl"]["rate"] == 1.0
    every = s["mock"]["train"]["all"]
    assert every["sft"]["n"] == 6 and every["sft"]["successes"] == 3
    assert every["real_rl"]["successes"] == 5
    assert every["sft"]["mean_steps"] == pytest.approx((24 + 4) / 6)
    assert list(s["mock"]["train"]) == ["app", "information-retrieval", "all"]  # paper order
    assert s["field"]["test"]["app"]["real_rl"]["successes"] == 1
    assert aggregate([]).n == 0


def test_report_files_hold_the_table(tmp_path: Path) -> None:
    from PIL import Image

    history = [{"update": 1, "reward": 0.25, "success": 0.125, "drawn": 6, "kept": 4,
                "clipped": 0.0312, "seconds": 19.6},
               {"update": 2, "reward": 0.5, "success": 0.5, "drawn": 5, "kept": 3}]
    doc = write_report(synthetic(), tmp_path, stages=["sft", "real_rl"],
                       meta={"note": "synthetic", "real_rl": {"history": history}},
                       curves={"rl_reward": {"real_rl": [0.1, 0.4, 0.5]}})
    md = (tmp_path / "report.md").read_text()
    # by task: ContactsStar 2/4 -> 3/4, ClockEarliestAlarm 1/2 -> 2/2, app rows first
    assert "| mock, train | ContactsStar | app | 2/4 | 3/4 |\n" \
           "| mock, train | ClockEarliestAlarm | information-retrieval | 1/2 | 2/2 |\n" \
           "| field, test | ContactsUnstar | app | 0/1 | 1/1 |" in md
    assert "| real_rl | 1 | 0.25 | 0.12 | 4/6 | 0.031 | 20 |" in md
    assert "| real_rl | 2 | 0.50 | 0.50 | 3/5 | - | - |" in md
    assert "| app | 50.0% [15.0, 85.0] (2/4), 6.0 steps | 75.0% [30.1, 95.4] (3/4), 6.0 " \
           "steps |" in md
    assert "| **all** | 50.0% [18.8, 81.2] (3/6), 4.7 steps | 83.3% [43.6, 97.0] (5/6)" in md
    assert "### field, test split" in md and '"note": "synthetic"' in md
    # gains: all categories, 3/6 -> 5/6 on mock/train; 0/1 -> 1/1 on field/test
    assert "| world, split | real_rl - sft |" in md
    assert "| mock, train | +33.3 pt [-17.2, +67.4] |" in md
    # paired by task and seed: seeds 2 (app) and 1 (IR) went up, none down; d = (0,0,1,0,0,1)
    assert ("| mock, train | **all** | +33.3 [-8.0, +74.7] (2 up, 0 down, p 0.500) |") in md
    assert "| mock, train | app | +25.0 [-24.0, +74.0] (1 up, 0 down, p 1.000) |" in md
    assert "| mock, train | information-retrieval | +50.0 [-48.0, +100.0] (1 up" in md
    assert "| field, test | **all** | +100.0 [-100.0, +100.0] (1 up, 0 down, p 1.000) |" in md
    saved = json.loads((tmp_path / "report.json").read_text())
    assert saved["summary"] == json.loads(json.dumps(doc["summary"]))
    assert saved["summary"]["mock"]["train"]["app"]["real_rl"]["successes"] == 3
    assert len(saved["episodes"]) == len(synthetic())
    assert saved["curves"]["rl_reward"]["real_rl"] == [0.1, 0.4, 0.5]
    assert saved["paired_gains"]["mock, train"]["all"]["real_rl - sft"]["up"] == 2
    assert sorted(saved["plots"]) == ["rl_reward.png", "success_field_test.png",
                                      "success_mock_train.png"]
    for name in saved["plots"]:
        img = Image.open(tmp_path / name).convert("RGB")
        colours = img.getcolors(maxcolors=1 << 16)
        assert img.width > 200 and (colours is None or len(colours) > 10), name
        assert f"![{name}]({name})" in md


def test_step_accuracy_table_lists_each_stage_by_row() -> None:
    from phoneworld_gym.baselines.report import step_accuracy_table

    stages = {"sft": {"all": {"correct": 3, "steps": 4}, "first step": {"correct": 1, "steps": 2},
                      "TaskB": {"correct": 2, "steps": 2}, "TaskA": {"correct": 1, "steps": 2}},
              "real_rl": {"all": {"correct": 1, "steps": 4}, "TaskA": {"correct": 1, "steps": 4}}}
    lines = step_accuracy_table(stages).splitlines()
    assert lines[0] == "| steps | sft | real_rl |"
    assert lines[2:] == ["| all | 3/4 (75.0%) | 1/4 (25.0%) |",
                         "| first step | 1/2 (50.0%) | - |",
                         "| TaskA | 1/2 (50.0%) | 1/4 (25.0%) |",
                         "| TaskB | 2/2 (100.0%) | - |"]
    with pytest.raises(ValueError, match="no stages"):
        step_accuracy_table({})


def test_report_rejects_bad_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no evaluation records"):
        write_report([], tmp_path)
    with pytest.raises(ValueError, match="stages"):
        write_report(synthetic(), tmp_path, stages=["sft"])


# -- configs --------------------------------------------------------------------------------
def small_config(**over: object) -> dict:
    cfg = {
        "model": "tiny",
        "tiny": {"layers": 1, "hidden": 32, "vocab": 400, "corpus_seeds": 1},
        "torch_threads": 1,
        "worlds": {"mock": {"env_id": "PhoneWorld/All-v0"},
                   "field": {"env_id": "PhoneWorld/Device-v0", "profile": "field",
                             "transport": "direct"}},
        "tasks": {"train": ["ClockEarliestAlarm"], "test": ["MessagesCountUnread"]},
        "demos": {"seeds": "0:2", "ratios": {"mock": 1, "field": 1}},
        "sft": {"max_steps": 4, "batch_size": 2, "lr": 0.003, "max_length": 3000},
        "rl": {"real": {"weights": {"field": 1}, "updates": 1, "tasks_per_update": 1,
                        "group_size": 2, "epochs": 1, "max_new_tokens": 10,
                        "max_episode_steps": 2},
               "mixed": {"weights": {"field": 1, "mock": 1}, "updates": 1,
                         "tasks_per_update": 1, "group_size": 2, "epochs": 1,
                         "max_new_tokens": 10, "max_episode_steps": 2, "kl_coef": 0.1}},
        "eval": {"seeds": "5000:5001", "max_episode_steps": 2, "max_new_tokens": 10},
    }
    cfg.update(over)
    return cfg


@pytest.mark.parametrize("change, message", [
    ({"modle": "tiny"}, r"unknown key\(s\) \['modle'\] in config \(top level\)"),
    ({"model": "/nowhere/model"}, "'/nowhere/model' is not a local model folder"),
    ({"tasks": {"train": ["NoSuchTask"]}}, r"unknown task ids \['NoSuchTask'\]"),
    ({"rl": {"reward": "judged"}}, "rl.judge is not set"),
    ({"rl": {"reward": "guessed"}}, "rl.reward must be one of"),
    ({"sft": {"epochs": 2, "learning_rate": 1}}, r"unknown SFT setting\(s\) \['learning_rate'\]"),
    ({"worlds": {"mock": {"env_id": "PhoneWorld/Nope-v0"}}}, "unknown env id"),
    ({"rl": {"real": {"weights": {"phone": 1}}, "mixed": {"weights": {"mock": 1}}}},
     r"rl.real.weights names worlds \['phone'\]"),
    ({"demos": {"seeds": "5:5"}}, "demos.seeds"),
    ({"decoding": "beam"}, "decoding must be one of"),
    ({"eval": {"step_check": -1}}, r"eval.step_check must be an int >= 0"),
    ({"eval": {"step_check": "6"}}, r"eval.step_check must be an int >= 0"),
    ({"worlds": {"mock": {"env_id": "PhoneWorld/All-v0", "tasks": ["NoSuchTask"]}}},
     r"config worlds.mock.tasks: unknown task ids \['NoSuchTask'\]"),
    ({"worlds": {"mock": {"env_id": "PhoneWorld/All-v0", "tasks": "ContactsStar"}}},
     r"config worlds.mock.tasks must be a list of task ids"),
    ({"worlds": {"mock": {"env_id": "PhoneWorld/All-v0",
                          "tasks": ["ContactsStar", "MessagesCountUnread"]}}},
     r"worlds.mock.tasks trains on held-out test tasks \['MessagesCountUnread'\]"),
    ({"rl": {"real": {"weights": {"field": 1}, "tasks_per_update": 3, "max_draws": 2},
             "mixed": {"weights": {"mock": 1}}}},
     r"config rl.real: max_draws \(2\) must be >= tasks_per_update \(3\)"),
])
def test_bad_configs_name_the_problem(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RecipeConfig.from_dict(small_config(**change))


def test_a_world_can_hold_its_own_train_tasks(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The mock world may hold many more tasks than the phones (as in the paper): its own
    list drives its demonstrations and its RL draws; the other worlds keep tasks.train."""
    from phoneworld_gym.baselines.recipe import collect_demos

    raw = small_config(
        worlds={"mock": {"env_id": "PhoneWorld/All-v0",
                         "tasks": ["ClockEarliestAlarm", "ContactsStar", "SettingsSwitch"]},
                "field": {"env_id": "PhoneWorld/Device-v0", "profile": "field",
                          "transport": "direct"}},
        demos={"seeds": "0:1", "ratios": {"mock": 1}})
    cfg = RecipeConfig.from_dict(raw)
    assert cfg.world_tasks("field") == ["ClockEarliestAlarm"]
    assert cfg.world_tasks("mock") == ["ClockEarliestAlarm", "ContactsStar", "SettingsSwitch"]
    assert cfg.all_train_tasks() == ["ClockEarliestAlarm", "ContactsStar", "SettingsSwitch"]
    data = collect_demos(cfg, tmp_path, log=lambda line: None)
    assert set(data) == {"mock"}  # the field world's ratio is 0: no demonstrations there
    assert sorted(set(data["mock"]["task"])) == ["ClockEarliestAlarm", "ContactsStar",
                                                 "SettingsSwitch"]
    # the RL stages' sources carry each world's own list
    from phoneworld_gym.baselines import recipe

    seen: dict[str, list[str] | None] = {}

    class Stop(Exception):
        pass

    class Sampler:
        def __init__(self, sources: list, **kw: object) -> None:
            seen.update({s.name: s.tasks for s in sources})
            raise Stop

    monkeypatch.setattr(recipe, "TaskSampler", Sampler)
    with pytest.raises(Stop):
        recipe.rl_stage("mixed_rl", None, None, None, cfg, {"field": 1, "mock": 1},
                        cfg.stages["mixed"][1], lambda ep: 0.0, 0, lambda line: None)
    assert seen == {"field": ["ClockEarliestAlarm"],
                    "mock": ["ClockEarliestAlarm", "ContactsStar", "SettingsSwitch"]}


def test_cli_reports_a_bad_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(small_config(budget=3)))
    with pytest.raises(SystemExit):
        main(["--config", str(path), "--out", str(tmp_path / "out")])
    assert "unknown key(s) ['budget']" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing started


def test_set_overrides_one_key_and_the_run_records_it(tmp_path: Path) -> None:
    from phoneworld_gym.baselines.recipe import apply_overrides

    raw = small_config()
    changed = apply_overrides(raw, ["rl.real.updates=3", "rl.mixed.weights={mock: 2}",
                                    "eval.seeds='5000:5004'", "rl.compare_real_only=true"])
    assert changed["rl"]["real"]["updates"] == 3 and changed["rl"]["mixed"]["weights"] == {
        "mock": 2}
    assert changed["eval"]["seeds"] == "5000:5004" and changed["rl"]["compare_real_only"] is True
    assert raw["rl"]["real"]["updates"] == 1  # the loaded config is not touched
    cfg = RecipeConfig.from_dict(changed)
    assert cfg.stages["real"][1].updates == 3 and cfg.stages["mixed"][0] == {"mock": 2.0}
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(raw))
    assert load_config(path, ["rl.real.updates=7"]).stages["real"][1].updates == 7
    for bad, message in [("rl.real.updates", "takes KEY=VALUE"), ("rl..x=1", "takes KEY=VALUE"),
                         ("model.x=1", "config model is 'tiny', not a mapping"),
                         ("rl.real.updates=[1", "is not YAML"),
                         ("rl.real.updatez=3", r"unknown key\(s\) \[.updatez.\] in config rl")]:
        with pytest.raises(ValueError, match=message):
            load_config(path, [bad])


def test_an_rl_seed_gives_another_run_and_seed_0_the_old_one() -> None:
    from phoneworld_gym.baselines.recipe import apply_overrides, rl_run_seed, stage_keys

    cfg = RecipeConfig.from_dict(small_config())
    assert cfg.stages["real"][1].seed == 0 and rl_run_seed(0, 1, cfg.stages["real"][1]) == 1
    other = RecipeConfig.from_dict(apply_overrides(small_config(), ["rl.real.seed=2"]))
    assert rl_run_seed(0, 1, other.stages["real"][1]) == 2001
    assert other.stages["mixed"][1].seed == 0
    # SFT is reused; the RL stage (and those after it) are redone
    before, after = stage_keys(cfg), stage_keys(other)
    assert before["sft"] == after["sft"] and before["random"] == after["random"]
    assert before["real_rl"] != after["real_rl"] and before["mixed_rl"] != after["mixed_rl"]


def test_shipped_configs_validate() -> None:
    cpu = load_config(ROOT / "configs" / "recipe_cpu.yaml")
    assert cpu.model == "tiny" and set(cpu.worlds) == {"mock", "field"}
    assert cpu.worlds["field"].profile == "field" and cpu.worlds["field"].is_device
    assert set(cpu.stages["real"][0]) == {"field"}
    assert set(cpu.stages["mixed"][0]) == {"field", "mock"}
    worlds = load_config(ROOT / "configs" / "recipe_cpu_worlds.yaml")
    assert worlds.world_tasks("field") == cpu.train_tasks
    from phoneworld_gym.task import get_task

    categories = {get_task(t).category for t in worlds.world_tasks("mock")}
    assert {"app", "information-retrieval", "mini-app", "cross-app"} <= categories
    raw = yaml.safe_load((ROOT / "configs" / "recipe_gpu.yaml").read_text())
    with pytest.raises(ValueError, match="not a local model folder"):
        RecipeConfig.from_dict(raw)  # it names a model folder this machine does not have
    raw["model"] = "tiny"
    assert RecipeConfig.from_dict(raw).sft.batch_size >= 1


def test_unreadable_stage_times_are_ignored_and_said(tmp_path: Path) -> None:
    from phoneworld_gym.baselines.recipe import read_walls

    lines: list[str] = []
    path = tmp_path / "walls.json"
    assert read_walls(path, lines.append) == {} and not lines  # none yet
    path.write_text('{"sft": 814.7, "demos": 25}')
    assert read_walls(path, lines.append) == {"sft": 814.7, "demos": 25.0}
    for bad in ('{"sft": 81', '["sft"]', '{"sft": "long"}'):
        path.write_text(bad)
        assert read_walls(path, lines.append) == {}
        assert lines[-1].startswith(f"[walls] ignoring {path}")
    assert len(lines) == 3


def test_sft_keeps_only_successful_demonstrations() -> None:
    import datasets

    from phoneworld_gym.baselines.recipe import successful_episodes

    ds = datasets.Dataset.from_dict({
        "episode_id": ["a", "a", "b", "b", "b", "c"], "step": [0, 1, 0, 1, 2, 0],
        "success": [False, True, False, False, False, True]})
    kept = successful_episodes(ds)
    assert list(zip(kept["episode_id"], kept["step"])) == [("a", 0), ("a", 1), ("c", 0)]
    with pytest.raises(ValueError, match="no demonstration succeeded"):
        successful_episodes(ds.select([2, 3, 4]))


# -- one tiny run ---------------------------------------------------------------------------
def test_the_recipe_runs_end_to_end(tmp_path: Path) -> None:
    """Every stage on one task with tiny budgets: checkpoints, datasets, report; and a stage's
    checkpoint reloaded acts as the evaluation recorded it did."""
    from phoneworld_gym.baselines.data import load
    from phoneworld_gym.baselines.grpo import play
    from phoneworld_gym.baselines.lm_agent import LMAgent
    from phoneworld_gym.baselines.sampler import close_env, make_source_env

    cfg = RecipeConfig.from_dict(small_config())
    doc = run(cfg, tmp_path, log=lambda line: None)
    for stage in ("base", "sft", "real_rl", "mixed_rl"):
        assert (tmp_path / "checkpoints" / stage / "config.json").is_file(), stage
    demos = {w: load(tmp_path / "demos" / w) for w in ("mock", "field")}
    assert set(demos["mock"]["source"]) == {"mock"} and set(demos["field"]["source"]) == {
        "device"}
    assert set(demos["field"]["task"]) == {"ClockEarliestAlarm"}
    assert doc["stages"] == ["random", "sft", "real_rl", "mixed_rl"]
    assert doc["meta"]["sft"]["examples"] > 0 and len(doc["meta"]["sft"]["loss"]) == 4
    assert {"real_rl", "mixed_rl"} <= set(doc["meta"])
    assert doc["meta"]["real_rl"]["history"][0]["sources"] == ["field"]
    episodes = doc["episodes"]
    # 4 stages x 2 worlds x (train: 1 task + test: 1 held-out + 1 train task's test wording)
    assert len(episodes) == 4 * 2 * 3
    md = (tmp_path / "report.md").read_text()
    assert "### field, test split" in md and "| information-retrieval |" in md
    # the mixed-RL checkpoint, reloaded, replays the evaluation's episode
    rec = next(e for e in episodes if e["stage"] == "mixed_rl" and e["world"] == "mock"
               and e["split"] == "train")
    env = make_source_env(cfg.worlds["mock"], "train")
    try:
        agent = LMAgent(str(tmp_path / "checkpoints" / "mixed_rl"), max_new_tokens=10)
        ep = play(env, agent, "mock", rec["task"], rec["seed"], 2)
    finally:
        close_env(env)
    assert (ep.success, len(ep.steps)) == (rec["success"], rec["steps"])
    assert "step_accuracy" not in doc["meta"] and "## Step accuracy" not in md
    # a rerun reuses every stage whose config is unchanged, and redoes from the first change;
    # the step check is no part of any stage's key
    lines: list[str] = []
    checked = small_config()
    checked["eval"]["step_check"] = 1
    again = run(RecipeConfig.from_dict(checked), tmp_path, log=lines.append)
    assert again["summary"] == doc["summary"]
    assert sum("reused" in line for line in lines) == 7, lines  # 3 trainings + 4 evaluations
    # a reused stage reports the time it took when it ran
    for name in ("demos", "sft", "real_rl", "eval_random", "eval_mixed_rl"):
        assert again["meta"]["wall_seconds"][name] == doc["meta"]["wall_seconds"][name] > 0
    assert set(again["meta"]["reused"]) == {"eval_random", "demos", "sft", "eval_sft",
                                            "real_rl", "eval_real_rl", "mixed_rl",
                                            "eval_mixed_rl"}
    assert "reused" not in doc["meta"]
    # the step check: each checkpoint's action on each oracle step of seed 5000
    from phoneworld_gym.baselines.stepacc import step_accuracy, summarize

    steps = again["meta"]["step_accuracy"]
    heldout = load(tmp_path / "heldout")
    assert list(heldout["task"]) == ["ClockEarliestAlarm"] * 2  # open Clock, answer
    assert list(heldout["seed"]) == [5000, 5000] and steps["steps"] == 2
    assert list(steps["stages"]) == ["sft", "real_rl", "mixed_rl"]
    for stage, summary in steps["stages"].items():
        agent = LMAgent(str(tmp_path / "checkpoints" / stage), max_new_tokens=10)
        assert summary == summarize(step_accuracy(agent, heldout)), stage
    sft = steps["stages"]["sft"]
    c, n = sft["all"]["correct"], sft["all"]["steps"]
    md = (tmp_path / "report.md").read_text()
    assert "## Step accuracy" in md and f"| all | {c}/{n} ({100 * c / n:.1f}%) |" in md
    raw = small_config()
    raw["rl"]["mixed"].update(lr=0.01, max_draws=3)  # dynamic sampling: up to 3 instances
    lines.clear()
    redone = run(RecipeConfig.from_dict(raw), tmp_path, log=lines.append)
    assert any(line.startswith("[real_rl] reused") for line in lines)
    assert any(line.startswith("mixed_rl update 1") and "groups kept" in line
               for line in lines)
    assert not any(line.startswith("[mixed_rl] reused") for line in lines)
    h = redone["meta"]["mixed_rl"]["history"][0]
    assert 1 <= h["drawn"] <= 3 and h["kept"] in (0, 1)
    assert h["kept"] == 1 or h["drawn"] == 3  # it stops at the first group with a spread
    # constrained decoding keeps the demonstrations and SFT, and redoes RL and evaluations
    raw["decoding"] = "constrained"
    lines.clear()
    constrained = run(RecipeConfig.from_dict(raw), tmp_path, log=lines.append)
    assert any(line.startswith("[sft] reused") for line in lines)
    assert not any(line.startswith(("[real_rl] reused", "[eval_sft] reused"))
                   for line in lines)
    assert constrained["meta"]["config"]["decoding"] == "constrained"


# -- judged rewards -------------------------------------------------------------------------
def judge_by_last_reply(episode) -> float:
    """A custom judge for the config hook: success when the last reply is an answer."""
    return float('"answer"' in (episode.actions[-1] if episode.actions else ""))


def test_judged_rewards_come_from_the_configured_judge(tmp_path: Path) -> None:
    from phoneworld_gym import Action
    from phoneworld_gym.baselines.grpo import Episode
    from phoneworld_gym.baselines.prompt import Turn
    from phoneworld_gym.baselines.recipe import make_reward
    from phoneworld_gym.baselines.tiny import build_tiny

    ep = Episode("field", "ClockEarliestAlarm", 1, [([1], [2])], success=True, env_reward=1.0,
                 goal="What time is my earliest alarm that is turned on?",
                 actions=['{"action_type": "answer", "text": "7:00 AM"}'],
                 turns=[Turn(Action("answer", text="7:00 AM"))], screens=["<hierarchy/>"] * 2)
    verified = make_reward(RecipeConfig.from_dict(small_config()))
    assert verified(ep) == 1.0
    custom = make_reward(RecipeConfig.from_dict(small_config(rl={
        **small_config()["rl"], "reward": "judged",
        "judge": "test_recipe:judge_by_last_reply"})))
    assert custom(ep) == 1.0
    assert custom(dataclasses.replace(ep, actions=['{"action_type": "wait"}'])) == 0.0
    # a local model as the judge: an untrained one never replies with a valid verdict, and
    # an invalid verdict is a failure whatever the verifier said
    path = build_tiny(tmp_path / "judge", ["Goal: x {\"success\": true}"] * 3, layers=1,
                      hidden=16, vocab=300)
    local = make_reward(RecipeConfig.from_dict(small_config(rl={
        **small_config()["rl"], "reward": "judged",
        "judge": {"model": str(path), "max_new_tokens": 8}})))
    assert local(ep) == 0.0


@pytest.mark.parametrize("judge, message", [
    (None, "rl.judge is not set"),
    ("no_colon_here", "package.module:function"),
    ({"model": "/nowhere"}, "rl.judge.model: '/nowhere' is not a local model folder"),
    ({"model": "m", "base_url": "http://127.0.0.1:1/v1", "temperature": 1},
     r"unknown key\(s\) \['temperature'\] in config rl.judge"),
])
def test_bad_judges_name_the_problem(judge: object, message: str) -> None:
    rl = {**small_config()["rl"], "reward": "judged", "judge": judge}
    with pytest.raises(ValueError, match=message):
        RecipeConfig.from_dict(small_config(rl=rl))


def test_stages_are_not_reused_across_versions_of_the_phone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage cached for one config and phone is reused for the same ones only."""
    import phoneworld_gym.baselines.recipe as recipe

    cfg = RecipeConfig.from_dict(small_config())
    recipe.StageCache(tmp_path, cfg).save("sft", record={"loss": [1.0]})
    assert recipe.StageCache(tmp_path, cfg).record("sft", None) == {"loss": [1.0]}
    other = RecipeConfig.from_dict(small_config(sft={"max_steps": 5}))
    assert recipe.StageCache(tmp_path, other).record("sft", None) is None
    monkeypatch.setattr(recipe, "world_fingerprint", lambda: "another phone")
    assert recipe.StageCache(tmp_path, cfg).record("sft", None) is None


def test_an_rl_stage_is_redone_when_a_grpo_default_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """RL stages are keyed by their resolved settings: the same config text under another
    default of GRPOSettings (a change in the update's rule) does not reuse the stage, while
    stages before RL are still reused."""
    import dataclasses

    import phoneworld_gym.baselines.recipe as recipe
    from phoneworld_gym.baselines.grpo import GRPOSettings

    before = recipe.stage_keys(RecipeConfig.from_dict(small_config()))
    monkeypatch.setattr(GRPOSettings.__init__, "__defaults__", tuple(
        False if f.name == "allowed_tokens_only" else f.default
        for f in dataclasses.fields(GRPOSettings)))
    after = recipe.stage_keys(RecipeConfig.from_dict(small_config()))
    assert after["sft"] == before["sft"] and after["random"] == before["random"]
    for stage in ("real_rl", "mixed_rl", "real_rl_more"):
        assert after[stage] != before[stage]
        assert '"allowed_tokens_only": false' in after[stage]


def test_the_candidate_floor_picks_uniformly_among_the_decoders_actions() -> None:
    """With constrained decoding the random floor picks among the screen's candidate
    actions (answers included), so it answers information-retrieval questions and sometimes
    right; the old floor never answers."""
    import collections

    import gymnasium

    from phoneworld_gym.baselines.grpo import play
    from phoneworld_gym.baselines.prompt import candidate_actions, format_action
    from phoneworld_gym.baselines.recipe import RandomLM

    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        floor = RandomLM(3, candidates=True)
        obs, _ = env.reset(seed=2, options={"task": "ContactsCountFavorites"})
        floor.reset(obs["goal"])
        picks = collections.Counter()
        allowed = {format_action(a) for a in candidate_actions(obs["goal"], obs["a11y"],
                                                               apps=floor.apps)}
        for _ in range(400):
            action = floor.act(obs)
            assert format_action(action) in allowed
            picks[format_action(action)] += 1
        assert len(picks) > len(allowed) // 2  # spread over the candidates, not stuck
        answered = wins = 0
        for seed in range(200):  # measured: 88 answers, 3 right
            ep = play(env, RandomLM(seed, candidates=True), "mock", "ContactsCountFavorites",
                      seed, max_steps=1)
            answered += '"answer"' in ep.actions[0]
            wins += ep.success
        assert answered > 40 and 0 < wins < answered / 10  # it answers, rarely right
        old = [play(env, RandomLM(seed), "mock", "ContactsCountFavorites", seed, max_steps=3)
               for seed in range(5)]
        assert not any('"answer"' in a for ep in old for a in ep.actions)
    finally:
        env.close()
