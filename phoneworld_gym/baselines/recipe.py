"""The three-stage recipe from one YAML config: demonstrations, SFT, real-app RL, mixed RL,
with an evaluation after each stage and a per-category report.

    python -m phoneworld_gym.baselines.recipe --config configs/recipe_cpu.yaml --out out/recipe

``--set KEY=VALUE`` (repeatable) overrides one key of the config for this run, e.g.
``--set rl.real.updates=30``; ``OUT/config.json`` records the config as run.

Stages (each checkpointed under ``OUT/checkpoints/<stage>``):

0. **demos**: the oracle plays the train tasks on unseen-by-evaluation seeds in every world
   (the clean PhoneWorld phone, ``mock``, and the device world, e.g. the virtual adb phone
   with the ``field`` profile standing in for real apps), collected as trajectory datasets.
1. **sft**: the model (a local path, or ``tiny``: one built here) fine-tuned with TRL on the
   demonstrations mixed by world at the configured ratio.
2. **real_rl**: GRPO (:mod:`phoneworld_gym.baselines.grpo`) with tasks drawn from the device
   world(s) only, rewards verified by the task's checks or judged (config ``rl.reward``).
3. **mixed_rl**: GRPO from the real-RL checkpoint with tasks drawn from devices and PhoneWorld
   by the configured weights. Optionally (``rl.compare_real_only``) a control stage
   ``real_rl_more`` continues real-only RL from the same checkpoint with the same budget, so
   mixed and real-only can be compared at equal cost.

After each stage (and for a ``random`` agent as the floor) the policy is evaluated greedily on
the train split (train tasks, train wordings, evaluation seeds never trained on), the test
split (held-out tasks) and the test_wordings split (train tasks in their held-out wordings)
of every world; ``report.md``, ``report.json`` and
PNG plots are written by :mod:`phoneworld_gym.baselines.report`.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.evalspec import DECODINGS, decoding_kwargs
from phoneworld_gym.baselines.grpo import Episode, GRPOSettings, play, train_grpo, verified_reward
from phoneworld_gym.baselines.report import EvalRecord, write_report
from phoneworld_gym.baselines.sampler import (
    EnvSource,
    TaskSampler,
    close_env,
    make_source_env,
)
from phoneworld_gym.baselines.sft import SFTSettings

#: top-level config keys and what each holds (the error for an unknown key lists them)
CONFIG_KEYS = {
    "model": "a local model folder, or 'tiny' to build a tiny Llama + tokenizer here",
    "tiny": "for model: tiny: layers, hidden, vocab, corpus_seeds, init_std",
    "torch_threads": "torch CPU threads (1 is fastest on a busy 2-core machine)",
    "device": "where the model runs and trains: cpu (default) or cuda",
    "decoding": "free (default: the reply is parsed), constrained (the model writes one of "
                "the screen's candidate actions, token by token through their trie), named "
                "(the same, each element named before its index, and SFT on such replies) or "
                "whole (each candidate scored as a whole), in evaluation and RL rollouts",
    "seed": "the run's seed",
    "worlds": "name -> env source (env_id, profile, transport, kwargs)",
    "tasks": "train: [...] and test: [...] task ids",
    "demos": "seeds (per train task and world), ratios (world -> weight in the SFT mix)",
    "sft": "SFT settings (epochs, max_steps, batch_size, lr, max_length, ...)",
    "rl": "reward (verified|judged), judge, train_seeds, adaptive (draw task instances by "
          "their recent success spread), engine (grpo: the project's GRPO, the default; trl: "
          "TRL's GRPOTrainer, each episode one transcript, "
          "phoneworld_gym/baselines/trl_grpo.py), real/mixed stage settings",
    "eval": "seeds, max_episode_steps, max_new_tokens, random (bool), step_check (int)",
}
TINY_KEYS = {"layers", "hidden", "vocab", "corpus_seeds", "init_std"}
DEMO_KEYS = {"seeds", "ratios"}
RL_KEYS = {"reward", "judge", "train_seeds", "adaptive", "engine", "real", "mixed",
           "compare_real_only"}
STAGE_KEYS = {"weights"}  # plus GRPOSettings' fields
EVAL_KEYS = {"seeds", "max_episode_steps", "max_new_tokens", "random", "step_check"}
REWARDS = ("verified", "judged")
ENGINES = ("grpo", "trl")
#: GRPOSettings a stage may not set under ``rl.engine: trl``, and why (TRL's integration has
#: no counterpart); the others map (see :func:`trl_settings`)
TRL_REFUSED = {
    "minibatch": "TRL's integration makes each optimiser step on the whole generation batch",
    "max_draws": "TRL plays the rows it is given: no dynamic sampling",
    "balance_episodes": "an episode is one transcript in TRL's loss (token mean, 'dapo')",
    "allowed_tokens_only": "TRL scores the action tokens against the whole vocabulary",
    "max_grad_norm": "TRL's integration keeps GRPOConfig's max_grad_norm (1.0)",
}


# -- config ---------------------------------------------------------------------------------
def _check_keys(section: str, given: Mapping[str, Any], known: set[str] | Mapping[str, Any]
                ) -> None:
    if not isinstance(given, Mapping):
        raise ValueError(f"config {section} must be a mapping, got {type(given).__name__}")
    extra = sorted(set(given) - set(known))
    if extra:
        raise ValueError(f"unknown key(s) {extra} in config {section}; known: {sorted(known)}")


def seeds_of(spec: Any, what: str) -> list[int]:
    """Seeds from ``"a:b"`` (b excluded) or a list of ints."""
    from phoneworld_gym.baselines.collect import parse_seeds

    try:
        return parse_seeds(spec)
    except ValueError as e:
        raise ValueError(f"config {what}: {e}") from None


@dataclasses.dataclass
class RecipeConfig:
    """A validated recipe config (see ``configs/recipe_cpu.yaml`` for a commented one)."""

    model: str
    tiny: dict[str, float]
    torch_threads: int | None
    device: str
    seed: int
    decoding: str
    worlds: dict[str, EnvSource]
    train_tasks: list[str]
    test_tasks: list[str]
    demo_seeds: list[int]
    demo_ratios: dict[str, float]
    sft: SFTSettings
    reward: str
    judge: str | dict[str, Any] | None
    rl_seeds: list[int]
    #: draw RL task instances by their recent success spread p(1-p) (TaskSampler's adaptive)
    rl_adaptive: bool
    #: the RL stages' trainer: "grpo" (:mod:`phoneworld_gym.baselines.grpo`) or "trl"
    #: (:mod:`phoneworld_gym.baselines.trl_grpo`)
    rl_engine: str
    stages: dict[str, tuple[dict[str, float], GRPOSettings]]
    compare_real_only: bool
    eval_seeds: list[int]
    eval_max_steps: int | None
    eval_max_new_tokens: int
    eval_random: bool
    #: the step-accuracy check's oracle episodes: the first N evaluation seeds per train task
    step_check: int
    raw: dict[str, Any]

    def world_tasks(self, world: str) -> list[str]:
        """The train tasks played in ``world`` (demonstrations, RL, train-split evaluation):
        the world's own ``tasks`` list where it has one (a mock world holding many more apps
        and tasks than the phones, as in the paper), else ``tasks.train``."""
        own = self.worlds[world].tasks
        return list(own) if own else list(self.train_tasks)

    def all_train_tasks(self) -> list[str]:
        """Every world's train tasks, ``tasks.train`` first, each once."""
        seen = dict.fromkeys(self.train_tasks)
        for world in self.worlds:
            seen.update(dict.fromkeys(self.world_tasks(world)))
        return list(seen)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], base_dir: Path | None = None) -> RecipeConfig:
        """Validate a parsed config; every problem is a ``ValueError`` naming the key."""
        _check_keys("(top level)", raw, CONFIG_KEYS)
        for key in ("model", "worlds", "tasks"):
            if key not in raw:
                raise ValueError(f"config needs {key!r}: {CONFIG_KEYS[key]}")
        model = raw["model"]
        if not isinstance(model, str) or not model:
            raise ValueError(f"config model must be 'tiny' or a local model folder, got {model!r}")
        if model != "tiny":
            path = Path(model)
            if not path.is_absolute() and base_dir is not None and not path.exists():
                path = base_dir / path
            if not (path / "config.json").is_file():
                raise ValueError(f"config model: {model!r} is not a local model folder (no "
                                 f"config.json there); give a path or 'tiny'")
            model = str(path)
        tiny = dict(raw.get("tiny") or {})
        _check_keys("tiny", tiny, TINY_KEYS)
        threads = raw.get("torch_threads")
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise ValueError(f"config torch_threads must be a positive int, got {threads!r}")
        device = raw.get("device", "cpu")
        if not isinstance(device, str) or device.split(":")[0] not in ("cpu", "cuda"):
            raise ValueError(f"config device must be 'cpu' or 'cuda' (or 'cuda:N'), got "
                             f"{device!r}")
        decoding = raw.get("decoding", "free")
        if decoding not in DECODINGS:
            raise ValueError(f"config decoding must be one of {DECODINGS}, got {decoding!r}")
        worlds_raw = raw["worlds"]
        if not isinstance(worlds_raw, Mapping) or not worlds_raw:
            raise ValueError("config worlds must map world names to env sources")
        worlds = {}
        for name, spec in worlds_raw.items():
            if not isinstance(spec, Mapping):
                raise ValueError(f"config worlds.{name} must be a mapping")
            if "tasks" in spec:
                _task_list(spec["tasks"], f"of worlds.{name}", key=f"worlds.{name}.tasks")
            worlds[name] = EnvSource.from_dict({"name": name, **spec})
        tasks = raw["tasks"]
        _check_keys("tasks", tasks, {"train", "test"})
        train_tasks, test_tasks = _task_list(tasks.get("train"), "train"), \
            _task_list(tasks.get("test") or [], "test", allow_empty=True)
        for name, source in worlds.items():
            leak = sorted(set(source.tasks or ()) & set(test_tasks))
            if leak:
                raise ValueError(f"config worlds.{name}.tasks trains on held-out test tasks "
                                 f"{leak} (tasks.test); remove them from the world's list")
        demos = dict(raw.get("demos") or {})
        _check_keys("demos", demos, DEMO_KEYS)
        ratios = dict(demos.get("ratios") or {w: 1.0 for w in worlds})
        unknown = sorted(set(ratios) - set(worlds))
        if unknown:
            raise ValueError(f"config demos.ratios names worlds {unknown} not in worlds "
                             f"{sorted(worlds)}")
        sft = SFTSettings.from_dict(raw.get("sft") or {})
        rl = dict(raw.get("rl") or {})
        _check_keys("rl", rl, RL_KEYS)
        reward = rl.get("reward", "verified")
        if reward not in REWARDS:
            raise ValueError(f"config rl.reward must be one of {REWARDS}, got {reward!r}")
        judge = rl.get("judge")
        if reward == "judged":
            judge = check_judge(judge, base_dir)
        adaptive = rl.get("adaptive", False)
        if not isinstance(adaptive, bool):
            raise ValueError(f"config rl.adaptive must be true or false, got {adaptive!r}")
        engine = rl.get("engine", "grpo")
        if engine not in ENGINES:
            raise ValueError(f"config rl.engine must be one of {ENGINES} (the project's GRPO "
                             f"or TRL's GRPOTrainer), got {engine!r}")
        stages = {}
        for stage in ("real", "mixed"):
            spec = dict(rl.get(stage) or {})
            if engine == "trl":
                check_trl_stage(stage, spec)
            _check_keys(f"rl.{stage}", spec, STAGE_KEYS | {
                f.name for f in dataclasses.fields(GRPOSettings)})
            weights = dict(spec.pop("weights", None) or {})
            if not weights:
                raise ValueError(f"config rl.{stage}.weights must map worlds to weights")
            bad = sorted(set(weights) - set(worlds))
            if bad:
                raise ValueError(f"config rl.{stage}.weights names worlds {bad} not in worlds "
                                 f"{sorted(worlds)}")
            try:
                stages[stage] = (weights, GRPOSettings.from_dict(spec))
            except ValueError as e:
                raise ValueError(f"config rl.{stage}: {e}") from None
        if engine == "trl":
            check_trl_engine(decoding=decoding, reward=reward, adaptive=adaptive,
                             device=device)
        ev = dict(raw.get("eval") or {})
        _check_keys("eval", ev, EVAL_KEYS)
        step_check = ev.get("step_check", 0)
        if not isinstance(step_check, int) or isinstance(step_check, bool) or step_check < 0:
            raise ValueError(f"config eval.step_check must be an int >= 0 (evaluation seeds "
                             f"per train task; 0: no step check), got {step_check!r}")
        return cls(
            model=model, tiny=tiny, torch_threads=threads, device=device,
            seed=int(raw.get("seed", 0)), decoding=decoding,
            worlds=worlds, train_tasks=train_tasks, test_tasks=test_tasks,
            demo_seeds=seeds_of(demos.get("seeds", "0:4"), "demos.seeds"), demo_ratios=ratios,
            sft=sft, reward=reward, judge=judge,
            rl_seeds=seeds_of(rl.get("train_seeds", "1000:2000"), "rl.train_seeds"),
            rl_adaptive=adaptive, rl_engine=engine,
            stages=stages, compare_real_only=bool(rl.get("compare_real_only", False)),
            eval_seeds=seeds_of(ev.get("seeds", "5000:5003"), "eval.seeds"),
            eval_max_steps=ev.get("max_episode_steps"),
            eval_max_new_tokens=int(ev.get("max_new_tokens", 48)),
            eval_random=bool(ev.get("random", True)), step_check=step_check, raw=dict(raw))


def check_trl_stage(stage: str, spec: Mapping[str, Any]) -> None:
    """Under ``rl.engine: trl``: refuse a stage setting TRL's integration cannot honour."""
    refused = sorted(set(spec) & set(TRL_REFUSED))
    if refused:
        key = refused[0]
        raise ValueError(f"config rl.{stage}.{key} ({spec[key]!r}) cannot be honoured with "
                         f"rl.engine 'trl': {TRL_REFUSED[key]}; remove it, or use rl.engine "
                         f"'grpo'")
    kl = spec.get("kl_coef", 0)
    if isinstance(kl, (int, float)) and kl > 0:
        raise ValueError(f"config rl.{stage}.kl_coef ({kl!r}) cannot be honoured with "
                         f"rl.engine 'trl': TRL's reference would be the stage's starting "
                         f"model, not the SFT checkpoint the recipe's KL is to; set it to 0, "
                         f"or use rl.engine 'grpo'")


def check_trl_engine(*, decoding: str, reward: str, adaptive: bool, device: str) -> None:
    """Under ``rl.engine: trl``: refuse the run settings TRL's integration does not support."""
    if decoding != "constrained":
        raise ValueError(f"config decoding {decoding!r} cannot be used with rl.engine 'trl': "
                         f"its rollouts draw each action token by token through the screen's "
                         f"candidate trie, so set decoding: constrained (or use rl.engine "
                         f"'grpo')")
    if reward != "verified":
        raise ValueError(f"config rl.reward {reward!r} cannot be used with rl.engine 'trl': "
                         f"its reward is the verifier's (set rl.reward: verified, or use "
                         f"rl.engine 'grpo')")
    if adaptive:
        raise ValueError("config rl.adaptive cannot be used with rl.engine 'trl': its "
                         "instances are drawn before training (TRL's dataset), so they cannot "
                         "follow the success rates; set rl.adaptive: false, or use rl.engine "
                         "'grpo'")
    if device.split(":")[0] != "cpu":
        raise ValueError(f"config device {device!r} cannot be used with rl.engine 'trl': "
                         "phoneworld_gym/baselines/trl_grpo.py trains on CPU (GRPOConfig "
                         "use_cpu); set device: cpu, or use rl.engine 'grpo'")


def _task_list(value: Any, what: str, allow_empty: bool = False,
               key: str | None = None) -> list[str]:
    from phoneworld_gym.task import all_tasks

    key = key or f"tasks.{what}"
    if value is None or (not value and not allow_empty):
        raise ValueError(f"config {key} must list task ids")
    if isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"config {key} must be a list of task ids, got {value!r}")
    unknown = [t for t in value if t not in all_tasks()]
    if unknown:
        raise ValueError(f"config {key}: unknown task ids {unknown}")
    return list(value)


def apply_overrides(raw: Mapping[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """A copy of config ``raw`` with each ``KEY=VALUE`` of ``overrides`` set: KEY a dotted
    path (``rl.real.updates``; missing mappings on the way are made), VALUE read as YAML
    (``30``, ``0.5``, ``[a, b]``, ``{field: 1}``). The result is validated like the file."""
    import copy

    import yaml

    out = copy.deepcopy(dict(raw))
    for item in overrides:
        key, sep, text = item.partition("=")
        parts = key.strip().split(".")
        if not sep or not all(parts):
            raise ValueError(f"--set takes KEY=VALUE with a dotted KEY (rl.real.updates=30), "
                             f"got {item!r}")
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise ValueError(f"--set {key}: the value {text!r} is not YAML ({e})") from None
        node: Any = out
        for depth, part in enumerate(parts[:-1]):
            child = node.get(part)
            if child is None:
                child = node[part] = {}
            elif not isinstance(child, Mapping):
                where = ".".join(parts[: depth + 1])
                raise ValueError(f"--set {key}: config {where} is {child!r}, not a mapping")
            else:
                child = node[part] = dict(child)
            node = child
        node[parts[-1]] = value
    return out


def load_config(path: str | Path, overrides: Sequence[str] = ()) -> RecipeConfig:
    """Read and validate a YAML config, with ``overrides`` (``KEY=VALUE``, see
    :func:`apply_overrides`) set on it first."""
    import yaml

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"no config file at {str(path)!r}")
    try:
        raw = yaml.safe_load(p.read_text())
    except yaml.YAMLError as e:
        raise ValueError(f"{str(path)!r} is not valid YAML: {e}") from None
    if not isinstance(raw, Mapping):
        raise ValueError(f"{str(path)!r} must hold a YAML mapping")
    return RecipeConfig.from_dict(apply_overrides(raw, overrides), base_dir=p.parent.parent)


JUDGE_KEYS = {"model", "base_url", "api_key_env", "max_screens", "max_new_tokens"}


def check_judge(judge: Any, base_dir: Path | None) -> str | dict[str, Any]:
    """Validate ``rl.judge``: ``package.module:function`` (an episode -> a score), or a
    mapping: ``model`` (a local model folder, or the served model's name with ``base_url``),
    ``base_url`` (an OpenAI-compatible endpoint), ``api_key_env``, ``max_screens``,
    ``max_new_tokens``."""
    if not judge:
        raise ValueError("config rl.reward is 'judged' but rl.judge is not set: give a "
                         "mapping {model: <local folder>} or {base_url: ..., model: ...}, or "
                         "'package.module:function' (an episode -> a score)")
    if isinstance(judge, str):
        if ":" not in judge:
            raise ValueError(f"config rl.judge must look like 'package.module:function', got "
                             f"{judge!r}")
        return judge
    _check_keys("rl.judge", judge, JUDGE_KEYS)
    spec = dict(judge)
    if not isinstance(spec.get("model"), str) or not spec["model"]:
        raise ValueError("config rl.judge needs model: a local model folder (or, with "
                         "base_url, the served model's name)")
    if "base_url" not in spec:
        path = Path(spec["model"])
        if not path.is_absolute() and base_dir is not None and not path.exists():
            path = base_dir / path
        if not (path / "config.json").is_file():
            raise ValueError(f"config rl.judge.model: {spec['model']!r} is not a local model "
                             "folder (no config.json there)")
        spec["model"] = str(path)
    return spec


def make_reward(cfg: RecipeConfig) -> Callable[[Episode], float]:
    """The RL reward: the verifier's score, or a judge's verdict (1.0 success, 0.0 not)."""
    if cfg.reward == "verified":
        return verified_reward
    if isinstance(cfg.judge, str):
        return load_judge(cfg.judge)
    from phoneworld_gym.baselines.judge import Judge

    spec = dict(cfg.judge or {})
    tokens = int(spec.get("max_new_tokens", 96))
    backend: Any
    if "base_url" in spec:
        from phoneworld_gym.baselines.openai_agent import OpenAIChat

        key = os.environ.get(str(spec.get("api_key_env", "OPENAI_API_KEY")))
        backend = OpenAIChat(spec["base_url"], spec["model"], key, max_tokens=tokens)
    else:
        from phoneworld_gym.baselines.lm_agent import LocalChat

        backend = LocalChat(spec["model"], max_new_tokens=tokens)
    judge = Judge(backend, max_screens=int(spec.get("max_screens", 2)), max_new_tokens=tokens)

    def judged(episode: Episode) -> float:
        return 1.0 if judge.judge(episode.goal, episode.turns, episode.screens).success else 0.0

    return judged


# -- pieces ---------------------------------------------------------------------------------
def load_judge(spec: str) -> Callable[[Episode], float]:
    """``package.module:function`` -> the callable (an episode -> a score in [0, 1])."""
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(f"rl.judge must look like 'package.module:function', got {spec!r}")
    try:
        fn = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"rl.judge {spec!r} cannot be loaded: {e}") from None
    if not callable(fn):
        raise ValueError(f"rl.judge {spec!r} is not callable")
    return fn  # type: ignore[no-any-return]


def build_model(cfg: RecipeConfig, out: Path) -> Path:
    """The starting checkpoint: the configured folder, or a tiny model built from oracle
    prompts of the train tasks (train wordings) into ``OUT/checkpoints/base``."""
    if cfg.model != "tiny":
        return Path(cfg.model)
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    path = out / "checkpoints" / "base"
    if (path / "config.json").is_file():
        return path
    corpus = list(oracle_corpus(cfg.all_train_tasks(), seeds=range(int(cfg.tiny.get(
        "corpus_seeds", 1))), split="train"))
    return build_tiny(path, corpus, layers=int(cfg.tiny.get("layers", 2)),
                      hidden=int(cfg.tiny.get("hidden", 128)),
                      vocab=int(cfg.tiny.get("vocab", 2000)), seed=cfg.seed,
                      init_std=float(cfg.tiny.get("init_std", 0.02)))


def collect_demos(cfg: RecipeConfig, out: Path, log: Callable[[str], None],
                  new: list[int] | None = None) -> dict[str, Any]:
    """Oracle demonstrations of the train tasks in every world, one collection each (episodes
    already in a world's folder are kept; ``new``, if given, gets each world's count of
    episodes collected now)."""
    from phoneworld_gym.baselines.collect import collect
    from phoneworld_gym.baselines.data import load

    data = {}
    for name, source in cfg.worlds.items():
        if cfg.demo_ratios.get(name, 0) <= 0:
            continue
        env = make_source_env(dataclasses.replace(source, tasks=cfg.world_tasks(name)),
                              "train")
        try:
            report = collect_into(env, source, cfg, out / "demos" / name, collect)
        finally:
            close_env(env)
        log(str(report))
        if new is not None:
            new.append(report.new)
        data[name] = successful_episodes(load(out / "demos" / name))
    return data


def successful_episodes(ds: Any) -> Any:
    """The rows of the episodes that ended in success (the oracle can fail on a field phone,
    e.g. answering from an interstitial prompt; a failed demonstration teaches the failure)."""
    from phoneworld_gym.baselines.data import episodes_of

    success = list(ds["success"])
    keep = [i for rows in episodes_of(ds).values() if success[rows[-1]] for i in rows]
    if not keep:
        raise ValueError("no demonstration succeeded; SFT would have nothing to learn from")
    return ds.select(keep)


def collect_into(env: Any, source: EnvSource, cfg: RecipeConfig, folder: Path,
                 collect: Callable[..., Any]) -> Any:
    """Collect with ``collect`` through an env built here: a device world over adb is
    handed to ``collect`` by serial (the virtual phone this env owns stays up meanwhile)."""
    device = env.unwrapped.device
    kind = "device" if source.is_device else "mock"
    tasks = cfg.world_tasks(source.name)
    if source.is_device and source.transport == "adb":
        kwargs = {"serial": device.serial, "port": device.port,
                  "device_options": {"dump_retries": 3} if source.profile == "field" else {}}
        return collect(source.env_id, "oracle", tasks, cfg.demo_seeds, folder,
                       source=kind, split="train", **kwargs)
    # a PhoneWorld id, or a device played in process: PhoneEnv takes the device itself
    return collect("PhoneWorld/All-v0", "oracle", tasks, cfg.demo_seeds, folder,
                   source=kind, split="train",
                   **({"device": device} if source.is_device else {}))


def step_check(cfg: RecipeConfig, out: Path, checkpoints: Mapping[str, Path],
               log: Callable[[str], None]) -> dict[str, Any]:
    """Next-action accuracy of each stage's checkpoint (:mod:`~phoneworld_gym.baselines.
    stepacc`) on oracle episodes of the train tasks in the clean mock world, on the first
    ``eval.step_check`` evaluation seeds (never trained on): where a stage's episodes fail,
    this shows which steps it gets wrong. Returns ``{"episodes", "steps", "stages": {stage:
    summary}}``; the demonstrations are kept in ``OUT/heldout``."""
    from phoneworld_gym.baselines.collect import collect
    from phoneworld_gym.baselines.data import load
    from phoneworld_gym.baselines.lm_agent import LocalModel
    from phoneworld_gym.baselines.stepacc import step_accuracy, summarize

    folder = out / "heldout"
    seeds = cfg.eval_seeds[:cfg.step_check]
    collect("PhoneWorld/All-v0", "oracle", cfg.train_tasks, seeds, folder, split="train")
    ds = load(folder)
    keep = {(t, s) for t in cfg.train_tasks for s in seeds}  # the folder may hold more
    ds = ds.select([i for i, (t, s) in enumerate(zip(ds["task"], ds["seed"])) if (t, s) in keep])
    stages: dict[str, Any] = {}
    for stage, path in checkpoints.items():
        agent = make_lm_agent(LocalModel.load(path, device=cfg.device), temperature=0.0,
                              max_new_tokens=cfg.eval_max_new_tokens, seed=cfg.seed,
                              device=cfg.device, decoding=cfg.decoding)
        stages[stage] = summarize(step_accuracy(agent, ds))
        c, n = stages[stage]["all"]["correct"], stages[stage]["all"]["steps"]
        log(f"[step_check] {stage}: {c}/{n} steps right")
    return {"episodes": len(keep), "steps": len(ds), "seeds": seeds, "stages": stages}


def make_lm_agent(path_or_objects: Any, *, temperature: float, max_new_tokens: int,
                  seed: int, device: str = "cpu", decoding: str = "free") -> Any:
    """An :class:`~phoneworld_gym.baselines.lm_agent.LMAgent` (``decoding="constrained"``:
    it writes only the screen's candidate actions)."""
    from phoneworld_gym.baselines.lm_agent import LMAgent

    return LMAgent(path_or_objects, temperature=temperature, max_new_tokens=max_new_tokens,
                   seed=seed, device=device, **decoding_kwargs(decoding))


def evaluate_policy(stage: str, make_agent: Callable[[], Any], cfg: RecipeConfig,
                    log: Callable[[str], None]) -> list[EvalRecord]:
    """Every world x split x task x evaluation seed, one greedy episode each."""
    from phoneworld_gym.task import get_task

    records = []
    for world, source in cfg.worlds.items():
        own = cfg.world_tasks(world)
        for split, tasks in (("train", own), ("test", cfg.test_tasks + own)):
            env = make_source_env(dataclasses.replace(source, tasks=tasks), split)
            try:
                for task in tasks:
                    if split == "test" and not get_task(task).templates("test"):
                        continue
                    # held-out templates are "test"; train templates in their held-out
                    # wordings are "test_wordings" (unseen words, not unseen tasks)
                    label = split if split == "train" or get_task(task).split == "test" \
                        else "test_wordings"
                    for seed in cfg.eval_seeds:
                        agent = make_agent()
                        ep = play(env, agent, world, task, seed, cfg.eval_max_steps)
                        records.append(EvalRecord(stage, world, label, task,
                                                  get_task(task).category, seed, ep.success,
                                                  len(ep.steps), ep.env_reward))
            finally:
                close_env(env)
        done = [r for r in records if r.world == world]
        log(f"eval {stage} {world}: " + ", ".join(
            f"{s} {sum(r.success for r in done if r.split == s)}/"
            f"{sum(r.split == s for r in done)}" for s in ("train", "test", "test_wordings")))
    return records


class RandomLM:
    """The random floor with the ``last`` record :func:`play` reads (no tokens).

    ``candidates=False``: :class:`~phoneworld_gym.baselines.agents.RandomAgent` (taps,
    typing and scrolls; it never answers). ``candidates=True`` (the recipe's floor when its
    decoding is constrained): a uniform pick among the same candidate actions the
    constrained decoder chooses from (:func:`~phoneworld_gym.baselines.prompt.
    candidate_actions`), answers and statuses included, so an information-retrieval task
    scores what guessing among the screen's values scores, not 0 by construction."""

    name = "random"

    def __init__(self, seed: int, candidates: bool = False):
        import numpy as np

        from phoneworld_gym.baselines.agents import RandomAgent
        from phoneworld_gym.baselines.lm_agent import launcher_apps

        self.inner = RandomAgent(seed=seed)
        self.candidates = candidates
        self.rng = np.random.default_rng(seed)
        self.apps = launcher_apps() if candidates else []
        self.goal = ""
        self.last: dict[str, Any] = {}

    def reset(self, goal: str) -> None:
        self.goal = goal
        self.inner.reset(goal)

    def act(self, obs: Mapping[str, Any]) -> Any:
        if self.candidates:
            from phoneworld_gym.baselines.prompt import candidate_actions, format_action

            options = candidate_actions(self.goal or str(obs.get("goal", "")),
                                        str(obs["a11y"]), apps=self.apps)
            action = options[int(self.rng.integers(len(options)))]
            text = format_action(action)
        else:
            action = self.inner.act(dict(obs))
            text = str(action)
        self.last = {"prompt_ids": [], "completion_ids": [], "completion": text}
        return action


def rl_run_seed(seed: int, number: int, settings: GRPOSettings) -> int:
    """The seed of RL stage ``number`` (its instance draws and sampling): the config's seed
    plus the stage's number, and 1000 x ``rl.<stage>.seed``, so that a seed other than 0
    gives another RL run from the same SFT checkpoint (RL's own spread, apart from SFT's)."""
    return seed + number + 1000 * settings.seed


def rl_stage(stage: str, model: Any, tokenizer: Any, ref: Any, cfg: RecipeConfig,
             weights: Mapping[str, float], settings: GRPOSettings,
             reward_fn: Callable[[Episode], float], seed: int, log: Callable[[str], None]
             ) -> list[dict[str, Any]]:
    """One RL stage on the train tasks of the weighted worlds, by ``cfg.rl_engine``; returns
    its history (one record per update, ``reward`` and ``success`` in each)."""
    sources = [dataclasses.replace(cfg.worlds[w], weight=float(wt), tasks=cfg.world_tasks(w))
               for w, wt in weights.items() if wt > 0]
    if cfg.rl_engine == "trl":
        return trl_stage(stage, model, tokenizer, cfg, sources, settings, seed, log)
    sampler = TaskSampler(sources, seed=seed, seeds=cfg.rl_seeds, split="train",
                          adaptive=cfg.rl_adaptive)
    counter = iter(range(10**9))

    def agent(m: Any, t: Any) -> Any:
        return make_lm_agent((m, t), temperature=settings.temperature,
                             max_new_tokens=settings.max_new_tokens,
                             seed=seed * 1000 + next(counter), device=cfg.device,
                             decoding=cfg.decoding)

    def show(r: dict[str, Any]) -> None:
        log(f"{stage} update {r['update']}: reward {r['reward']:.2f} success "
            f"{r['success']:.2f} groups kept {r['kept']}/{r['drawn']} loss {r['loss']:.3f} "
            f"samples {r['samples']:.0f} {r['seconds']:.0f} s")

    try:
        return train_grpo(model, tokenizer, sampler, settings, ref_model=ref,
                          reward_fn=reward_fn, make_agent=agent, log=show)
    finally:
        sampler.close()


def trl_settings(settings: GRPOSettings, seed: int) -> Any:
    """A stage's GRPOSettings as TRL's (:class:`~phoneworld_gym.baselines.trl_grpo.
    TRLGRPOSettings`): updates, instances and group size, lr, clip, temperature, the
    episode cap map one to one; ``epochs`` become ``num_iterations`` (optimiser steps per
    generation batch); ``max_new_tokens`` does not apply (actions come from the trie).
    :data:`TRL_REFUSED` and a KL are refused when the config is read."""
    from phoneworld_gym.baselines.trl_grpo import TRLGRPOSettings

    return TRLGRPOSettings(
        updates=settings.updates, tasks_per_update=settings.tasks_per_update,
        group_size=settings.group_size, lr=settings.lr, beta=0.0, epsilon=settings.clip_eps,
        num_iterations=settings.epochs, temperature=settings.temperature,
        # None is the task's own budget: the env truncates there, far below this cap
        max_episode_steps=settings.max_episode_steps or 10_000, seed=seed)


def trl_stage(stage: str, model: Any, tokenizer: Any, cfg: RecipeConfig,
              sources: Sequence[EnvSource], settings: GRPOSettings, seed: int,
              log: Callable[[str], None]) -> list[dict[str, Any]]:
    """One RL stage through TRL's GRPOTrainer: the stage's instances drawn up front by the
    weighted sampler (``updates x tasks_per_update``), each played in its world's env as a
    transcript; per update the record of :func:`~phoneworld_gym.baselines.trl_grpo.
    train_trl_grpo` with ``drawn``/``kept`` (groups with a reward spread) added."""
    import tempfile

    from phoneworld_gym.baselines.trl_grpo import train_trl_grpo

    sampler = TaskSampler(list(sources), seed=seed, seeds=cfg.rl_seeds, split="train")

    def show(r: dict[str, Any]) -> None:
        log(f"{stage} update {r['update']} (trl): reward {r['reward']:.2f} success "
            f"{r['success']:.2f} zero-spread groups {r['zero_std_groups']} {r['seconds']:.0f} s")

    try:
        drawn = sampler.draw_batch(settings.updates * settings.tasks_per_update)
        instances = [(i.source, i.task, i.seed) for i in drawn]
        envs = {w: sampler.env(w) for w in sorted({w for w, _, _ in instances})}
        with tempfile.TemporaryDirectory(prefix=f"trl_{stage}_") as tmp:
            history = train_trl_grpo(model, tokenizer, [], [], trl_settings(settings, seed),
                                     tmp, log=show, instances=instances, envs=envs)
    finally:
        sampler.close()
    for r in history:
        r["engine"] = "trl"
        r["drawn"] = settings.tasks_per_update
        r["kept"] = round(settings.tasks_per_update * (1 - (r["zero_std_groups"] or 0.0)))
    return history


# -- resuming -------------------------------------------------------------------------------
def stage_keys(cfg: RecipeConfig) -> dict[str, str]:
    """For each stage, the config it depends on (its own part and every earlier stage's), as
    text: a stage whose key is unchanged is reused from its checkpoint on a rerun."""
    raw = cfg.raw
    rl = dict(raw.get("rl") or {})
    base = {k: raw.get(k) for k in ("model", "tiny", "seed", "worlds", "tasks", "demos")}
    sft = {**base, "sft": raw.get("sft")}
    if raw.get("decoding") == "named":  # its SFT completions name their elements
        sft["named"] = True
    common: dict[str, Any] = {k: rl.get(k) for k in ("reward", "judge", "train_seeds")}
    if raw.get("decoding", "free") != "free":  # (absent from older runs' keys)
        common["decoding"] = raw["decoding"]
    if cfg.rl_adaptive:
        common["adaptive"] = True
    if cfg.rl_engine != "grpo":  # (absent from the keys of runs before the option)
        common["engine"] = cfg.rl_engine
    # an RL stage's part is its resolved settings, defaults included: a default that changes
    # (the update's rule, say) redoes the stage even where the config's text did not change
    resolved = {stage: {"weights": weights, **dataclasses.asdict(settings)}
                for stage, (weights, settings) in cfg.stages.items()}
    real = {**sft, "rl": common, "real": resolved["real"]}
    floor = {k: raw.get(k) for k in ("seed", "worlds", "tasks")}
    if raw.get("decoding", "free") != "free":  # the floor picks among the candidates
        floor["candidates"] = True
    parts = {"random": floor, "sft": sft,
             "real_rl": real, "mixed_rl": {**real, "mixed": resolved["mixed"]},
             "real_rl_more": {**real, "control": resolved["mixed"]}}
    world = world_fingerprint()
    return {k: json.dumps({**v, "phone": world}, sort_keys=True, default=str)
            for k, v in parts.items()}


def world_fingerprint() -> str:
    """What the phone looks like to a model, in short: the apps and tasks registered and the
    home screen's tree. A stage trained on another version of the phone is not reused."""
    import hashlib

    from phoneworld_gym.app import all_apps
    from phoneworld_gym.env import PhoneEnv
    from phoneworld_gym.task import all_tasks

    env = PhoneEnv(tasks=sorted(all_tasks())[0], obs_mode="a11y")
    home = env.reset(seed=0)[0]["a11y"]
    text = json.dumps([sorted(all_apps()), sorted(all_tasks()), home])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class StageCache:
    """``OUT/stages/<stage>.json``: a finished stage's config key, its training record and its
    evaluation (with the evaluation config's key)."""

    def __init__(self, out: Path, cfg: RecipeConfig):
        self.dir = out / "stages"
        self.keys = stage_keys(cfg)
        # the step check reads the checkpoints after the episodes: it is no part of their key
        ev: Any = {k: v for k, v in (cfg.raw.get("eval") or {}).items() if k != "step_check"}
        if cfg.decoding != "free":
            ev = {"eval": ev, "decoding": cfg.decoding}
        self.eval_key = json.dumps(ev, sort_keys=True, default=str)

    def _read(self, stage: str) -> dict[str, Any] | None:
        path = self.dir / f"{stage}.json"
        if not path.is_file():
            return None
        doc = json.loads(path.read_text())
        return doc if doc.get("key") == self.keys[stage] else None

    def record(self, stage: str, checkpoint: Path | None) -> dict[str, Any] | None:
        """The stage's training record if it finished with this config (and its checkpoint
        is there), else None."""
        doc = self._read(stage)
        if doc is None or "record" not in doc:
            return None
        if checkpoint is not None and not (checkpoint / "config.json").is_file():
            return None
        return dict(doc["record"])

    def evals(self, stage: str) -> list[EvalRecord] | None:
        """The stage's evaluation if it was made with this config and evaluation config."""
        doc = self._read(stage)
        if doc is None or doc.get("eval_key") != self.eval_key or "evals" not in doc:
            return None
        return [EvalRecord(**r) for r in doc["evals"]]

    def save(self, stage: str, *, record: dict[str, Any] | None = None,
             evals: Sequence[EvalRecord] | None = None) -> None:
        """Store a stage's record or evaluation (keeping what is already stored)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        doc = self._read(stage) or {"key": self.keys[stage]}
        if record is not None:
            doc["record"] = record
        if evals is not None:
            doc["eval_key"] = self.eval_key
            doc["evals"] = [dataclasses.asdict(r) for r in evals]
        tmp = self.dir / f"{stage}.json.tmp"
        tmp.write_text(json.dumps(doc, indent=1, default=str))
        tmp.replace(self.dir / f"{stage}.json")


def read_walls(path: Path, log: Callable[[str], None]) -> dict[str, float]:
    """The stage times an earlier run into this folder stored (empty if none, or if the
    file is unreadable: that is said in the log, and only the times are lost)."""
    if not path.is_file():
        return {}
    try:
        walls = json.loads(path.read_text())
        if not isinstance(walls, dict) or not all(
                isinstance(k, str) and isinstance(v, (int, float)) for k, v in walls.items()):
            raise ValueError("not an object of stage -> seconds")
    except (OSError, ValueError) as e:
        log(f"[walls] ignoring {path}: {e}")
        return {}
    return {k: float(v) for k, v in walls.items()}


# -- the run --------------------------------------------------------------------------------
class RecipeRun:
    """One run of the recipe into ``out``: each stage a method, in the order :meth:`run` calls
    them, sharing the stage cache, the wall-clock book and what the report collects."""

    def __init__(self, cfg: RecipeConfig, out: Path, log: Callable[[str], None]):
        self.cfg, self.out, self.log = cfg, out, log
        self.cache = StageCache(out, cfg)
        self.walls: dict[str, float] = {}
        # a reused stage keeps the time it took when it ran (listed under "reused")
        self.walls_file = out / "stages" / "walls.json"
        self.earlier = read_walls(self.walls_file, log)
        self.reused: list[str] = []
        self.records: list[EvalRecord] = []
        self.meta: dict[str, Any] = {"config": cfg.raw, "wall_seconds": self.walls}
        self.curves: dict[str, dict[str, list[float]]] = {"sft_loss": {}, "rl_reward": {},
                                                          "rl_success": {}}
        self.start = time.time()

    # -- bookkeeping -------------------------------------------------------------------------
    def timed(self, name: str, t0: float) -> None:
        """Stage ``name`` ran since ``t0``: log and keep its time."""
        self.walls[name] = round(time.time() - t0, 1)
        self.log(f"[{name}] {self.walls[name]:.0f} s (total {time.time() - self.start:.0f} s)")
        self.walls_file.parent.mkdir(parents=True, exist_ok=True)
        self.walls_file.write_text(json.dumps({**self.earlier, **self.walls}, indent=1))

    def kept(self, name: str) -> None:
        """Stage ``name`` was reused: it keeps the time it took when it ran."""
        if name in self.earlier:
            self.walls[name] = self.earlier[name]
            self.reused.append(name)

    # -- stages ------------------------------------------------------------------------------
    def evaluate(self, stage: str, path: Path) -> None:
        """The evaluation of checkpoint ``path`` (reused when its config is unchanged)."""
        from phoneworld_gym.baselines.lm_agent import LocalModel

        cfg = self.cfg
        cached = self.cache.evals(stage)
        if cached is not None:
            self.log(f"[eval_{stage}] reused ({len(cached)} episodes, same config)")
            self.kept(f"eval_{stage}")
            self.records.extend(cached)
            return
        t0 = time.time()
        lm = LocalModel.load(path, device=cfg.device)  # loaded once, a fresh agent per episode
        done = evaluate_policy(stage, lambda: make_lm_agent(
            lm, temperature=0.0, max_new_tokens=cfg.eval_max_new_tokens,
            seed=cfg.seed, device=cfg.device, decoding=cfg.decoding), cfg, self.log)
        self.cache.save(stage, evals=done)
        self.records.extend(done)
        self.timed(f"eval_{stage}", t0)

    def evaluate_random(self) -> None:
        """The random baseline's evaluation (``eval_random``)."""
        cfg = self.cfg
        cached = self.cache.evals("random")
        if cached is None:
            t0 = time.time()
            counter = iter(range(10**9))
            cached = evaluate_policy(
                "random", lambda: RandomLM(cfg.seed + next(counter),
                                           candidates=cfg.decoding != "free"), cfg, self.log)
            self.cache.save("random", evals=cached)
            self.timed("eval_random", t0)
        else:
            self.log(f"[eval_random] reused ({len(cached)} episodes, same config)")
            self.kept("eval_random")
        self.records.extend(cached)

    def demos(self) -> tuple[Path, dict[str, Any]]:
        """Stage 0: the base model and the demonstrations (their datasets by world)."""
        t0 = time.time()
        base = build_model(self.cfg, self.out)
        collected: list[int] = []
        data = collect_demos(self.cfg, self.out, self.log, collected)
        if any(collected) or "demos" not in self.earlier:
            self.timed("demos", t0)
        else:
            self.kept("demos")
        return base, data

    def sft(self, base: Path, data: dict[str, Any], tokenizer: Any) -> Path:
        """Stage 1: SFT on the mixed demonstrations; its checkpoint folder."""
        from transformers import AutoModelForCausalLM

        from phoneworld_gym.baselines.data import mix
        from phoneworld_gym.baselines.sft import sft_examples, train_sft

        cfg = self.cfg
        t0 = time.time()
        sft_dir = self.out / "checkpoints" / "sft"
        sft_record = self.cache.record("sft", sft_dir)
        if sft_record is None:
            model = AutoModelForCausalLM.from_pretrained(base, local_files_only=True)
            ratios = {k: v for k, v in cfg.demo_ratios.items() if k in data}
            mixture = mix(data, ratios, seed=cfg.seed)
            examples = sft_examples(mixture, tokenizer.eos_token, prompt_text=make_lm_agent(
                (model, tokenizer), temperature=0.0, max_new_tokens=1, seed=0).lm.prompt_text,
                named=cfg.decoding == "named")
            sft_record = train_sft(model, tokenizer, examples, sft_dir, cfg.sft, log=self.log)
            by_source = list(examples["source"])
            sft_record["by_source"] = {s: by_source.count(s) for s in set(by_source)}
            self.cache.save("sft", record=sft_record)
            self.timed("sft", t0)
        else:
            self.log(f"[sft] reused {sft_dir} (same config)")
            self.kept("sft")
        self.meta["sft"] = sft_record
        self.curves["sft_loss"]["sft"] = sft_record["loss"]
        self.evaluate("sft", sft_dir)
        return sft_dir

    def plan(self) -> list[tuple[str, str]]:
        """The RL stages (name, kind): real, mixed, and the real-only control if asked for."""
        plan = [("real_rl", "real"), ("mixed_rl", "mixed")]
        if self.cfg.compare_real_only:
            plan.append(("real_rl_more", "control"))
        return plan

    def rl_stages(self, sft_dir: Path, tokenizer: Any, reward_fn: Any) -> None:
        """Stages 2 and 3 (and the control): RL, each from the previous checkpoint."""
        from transformers import AutoModelForCausalLM

        from phoneworld_gym.baselines.sft import save

        cfg, out = self.cfg, self.out
        previous = sft_dir
        ref = None
        for number, (stage, kind) in enumerate(self.plan(), 1):
            t0 = time.time()
            weights, settings = cfg.stages["real" if kind == "control" else kind]
            if kind == "control":  # real-only from the real-RL checkpoint, the mixed budget
                weights = cfg.stages["real"][0]
                settings = dataclasses.replace(cfg.stages["mixed"][1])
                start_from = out / "checkpoints" / "real_rl"
            else:
                start_from = previous
            path = out / "checkpoints" / stage
            done = self.cache.record(stage, path)
            if done is None:
                if settings.kl_coef > 0 and ref is None:
                    ref = AutoModelForCausalLM.from_pretrained(sft_dir, local_files_only=True)
                    ref = ref.to(cfg.device).eval()  # type: ignore[arg-type]
                model = AutoModelForCausalLM.from_pretrained(start_from, local_files_only=True)
                model = model.to(cfg.device)  # type: ignore[arg-type]
                history = rl_stage(stage, model, tokenizer, ref, cfg, weights, settings,
                                   reward_fn, rl_run_seed(cfg.seed, number, settings),
                                   self.log)
                save(model, tokenizer, path)
                done = {"weights": weights, "settings": dataclasses.asdict(settings),
                        "history": history}
                self.cache.save(stage, record=done)
                self.timed(stage, t0)
            else:
                self.log(f"[{stage}] reused {path} (same config)")
                self.kept(stage)
            history = done["history"]
            self.meta[stage] = done
            self.curves["rl_reward"][stage] = [h["reward"] for h in history]
            self.curves["rl_success"][stage] = [h["success"] for h in history]
            self.evaluate(stage, path)
            if kind != "control":
                previous = path

    def step_accuracy(self, sft_dir: Path) -> None:
        """Each stage's step accuracy on held-out oracle demonstrations."""
        t0 = time.time()
        checkpoints = {"sft": sft_dir} | {s: self.out / "checkpoints" / s for s, _ in self.plan()}
        self.meta["step_accuracy"] = step_check(self.cfg, self.out, checkpoints, self.log)
        self.timed("step_check", t0)

    def report(self) -> dict[str, Any]:
        """Write the report; returns its document."""
        self.walls["total"] = round(time.time() - self.start, 1)  # this run's, reused not counted
        if self.reused:
            self.meta["reused"] = self.reused
        stages = (["random"] if self.cfg.eval_random else []) + ["sft"] + \
            [s for s, _ in self.plan()]
        doc = write_report(self.records, self.out, stages=stages,
                           title="PhoneWorld recipe report", meta=self.meta, curves=self.curves)
        self.log(f"report: {self.out / 'report.md'} ({self.walls['total']:.0f} s in all)")
        return doc

    def run(self) -> dict[str, Any]:
        """Every stage in order, then the report."""
        from transformers import AutoTokenizer

        reward_fn = make_reward(self.cfg)  # first: a reward that cannot be made fails at once
        if self.cfg.eval_random:
            self.evaluate_random()
        base, data = self.demos()
        tokenizer = AutoTokenizer.from_pretrained(base, local_files_only=True)
        sft_dir = self.sft(base, data, tokenizer)
        self.rl_stages(sft_dir, tokenizer, reward_fn)
        if self.cfg.step_check:
            self.step_accuracy(sft_dir)
        return self.report()


def run(cfg: RecipeConfig, out_dir: str | Path, log: Callable[[str], None] = print
        ) -> dict[str, Any]:
    """Run every stage and write the report; returns the report document.

    A rerun into the same ``out_dir`` reuses every stage (checkpoint, record, evaluation)
    whose config is unchanged, and redoes the first changed stage and everything after it."""
    import torch

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if cfg.torch_threads:
        torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(cfg.raw, indent=1, default=str))
    return RecipeRun(cfg, out, log).run()


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(prog="python -m phoneworld_gym.baselines.recipe",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True, help="a YAML config (configs/recipe_cpu.yaml)")
    p.add_argument("--out", required=True, help="the output folder")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config key (dotted, the value read as YAML), e.g. "
                        "--set rl.real.updates=30; may be repeated")
    a = p.parse_args(argv)
    try:
        cfg = load_config(a.config, a.set)
    except ValueError as e:
        p.error(str(e))
    run(cfg, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
