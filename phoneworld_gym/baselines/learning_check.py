"""The learning check: does GRPO, as the recipe runs it, raise held-out success on one task?

One task, one small model, three disjoint seed ranges:

1. **SFT** a tiny Llama (built here from a config and a tokenizer trained on oracle prompts;
   nothing is downloaded) on oracle demonstrations of the task (``demo_seeds``), for a budget
   of steps that leaves it solving some instances and failing others;
2. **select**: measure it greedily on ``select_seeds`` (the only seeds any choice in this
   check was made on: the task, the SFT budget, the RL settings);
3. **RL**: ``updates`` GRPO updates on ``rl_seeds`` (groups of ``group_size`` episodes at
   ``temperature``, whole-candidate decoding, whole groups per minibatch), measuring greedy
   success on ``eval_seeds`` (never used for anything else) before the first update and
   every ``eval_every`` updates: the curve.

The report gives the curve, the final gain over the SFT start with a paired 95% interval and
McNemar's exact test (the same seeds, greedy, before and after), the held-out goals (eval
goals that appear in no demonstration), and per update the reward, the share of groups with
a reward spread, the clipped fraction and the seconds.

    python -m phoneworld_gym.baselines.learning_check --out out/learning_check
    python -m phoneworld_gym.baselines.learning_check --quick --out /tmp/lc   # ~2 minutes

The figures are in ``docs/results.md`` (Learning check).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from phoneworld_gym.baselines.report import paired_gain


@dataclasses.dataclass
class CheckConfig:
    """What the check runs (the defaults are the documented run; ``quick()`` shrinks it)."""

    task: str = "ContactsStar"
    layers: int = 2
    hidden: int = 128
    vocab: int = 1000
    init_std: float = 0.1
    demo_seeds: tuple[int, int] = (0, 60)
    #: SFT runs in chunks of ``sft_chunk`` steps until the selection seeds' success reaches
    #: ``select_low`` (or ``sft_steps`` in all)
    sft_steps: int = 120
    sft_chunk: int = 10
    select_low: float = 0.25
    sft_batch: int = 8
    sft_lr: float = 3e-3
    select_seeds: tuple[int, int] = (3000, 3040)
    eval_seeds: tuple[int, int] = (5000, 5080)
    rl_seeds: tuple[int, int] = (1000, 2000)
    updates: int = 10
    tasks_per_update: int = 3
    group_size: int = 8
    epochs: int = 2
    minibatch: int = 32
    lr: float = 2e-4
    clip_eps: float = 0.2
    temperature: float = 1.0
    max_steps: int = 6
    eval_every: int = 2
    reward: str = "verified"
    #: the constrained decoder: "trie" (token by token through the candidates' trie),
    #: "named" (the trie over replies that name their element before its index, and SFT on
    #: such replies) or "whole" (each candidate scored as a whole)
    decoding: str = "trie"
    #: grounding examples mixed into SFT ("tap the element called X" on the oracle screens
    #: of every train task at seeds 0-1, :mod:`~phoneworld_gym.baselines.grounding`); 0: none
    grounding: int = 0
    #: with ``grounding``: 0 mixes the grounding examples into SFT's data; N > 0 trains on
    #: them alone for N steps first (pretraining on the suite's screens), then SFT on the
    #: demonstrations alone as without them
    grounding_steps: int = 0
    #: whose screens the grounding examples are made on: "all" (every train task's oracle
    #: screens at the first two demonstration seeds) or "task" (the check's own task's, at
    #: every demonstration seed)
    grounding_screens: str = "all"
    seed: int = 0
    threads: int = 2

    @classmethod
    def quick(cls, **kw: Any) -> CheckConfig:
        """A shrunken run for CI: fewer seeds and updates, the same path."""
        base = dict(demo_seeds=(0, 40), select_seeds=(3000, 3016), eval_seeds=(5000, 5030),
                    updates=6, eval_every=3)
        base.update(kw)
        return cls(**base)  # type: ignore[arg-type]


def _range(r: Sequence[int]) -> list[int]:
    return list(range(int(r[0]), int(r[1])))


def _log_default(line: str) -> None:
    print(line, flush=True)


def _constrained(decoding: str) -> dict[str, Any]:
    """``LMAgent`` keywords of a decoding ("trie" is the recipe's "constrained")."""
    from phoneworld_gym.baselines.evalspec import decoding_kwargs

    if decoding not in ("trie", "whole", "named"):
        raise ValueError(f"decoding must be 'trie', 'named' or 'whole', got {decoding!r}")
    return decoding_kwargs("constrained" if decoding == "trie" else decoding)


def evaluate(model: Any, tokenizer: Any, env: Any, task: str, seeds: Sequence[int],
             max_steps: int, decoding: str = "trie") -> list[bool]:
    """Greedy constrained episodes of ``task`` on ``seeds``: the verifier's success each."""
    from phoneworld_gym.baselines.grpo import play
    from phoneworld_gym.baselines.lm_agent import LMAgent

    model.eval()
    agent = LMAgent((model, tokenizer), temperature=0.0, **_constrained(decoding))
    return [play(env, agent, "mock", task, s, max_steps).success for s in seeds]


def _check_grounding_screens(cfg: CheckConfig) -> None:
    if cfg.grounding_screens not in ("all", "task"):
        raise ValueError(f"grounding_screens must be 'all' or 'task', got "
                         f"{cfg.grounding_screens!r}")


def grounding_screens(cfg: CheckConfig) -> list[str]:
    """The accessibility trees the grounding examples are made on (see
    :attr:`CheckConfig.grounding_screens`)."""
    from phoneworld_gym.baselines.grounding import oracle_screens

    _check_grounding_screens(cfg)
    demo_seeds = _range(cfg.demo_seeds)
    if cfg.grounding_screens == "all":
        return oracle_screens(None, seeds=demo_seeds[:2])
    return oracle_screens([cfg.task], seeds=demo_seeds)


def run(cfg: CheckConfig, out: str | Path, log: Callable[[str], None] = _log_default
        ) -> dict[str, Any]:
    """Run the check; writes ``OUT/learning_check.json`` and returns the same record."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym.baselines.collect import collect
    from phoneworld_gym.baselines.data import load
    from phoneworld_gym.baselines.grpo import GRPOSettings, train_grpo, verified_reward
    from phoneworld_gym.baselines.lm_agent import LMAgent
    from phoneworld_gym.baselines.sampler import EnvSource, TaskSampler
    from phoneworld_gym.baselines.sft import SFTSettings, sft_examples, train_sft
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus
    from phoneworld_gym.env import PhoneEnv

    _check_grounding_screens(cfg)  # before anything long runs
    torch.set_num_threads(cfg.threads)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.time()
    demo_seeds = _range(cfg.demo_seeds)
    sets = {"demo": set(demo_seeds), "select": set(_range(cfg.select_seeds)),
            "eval": set(_range(cfg.eval_seeds)), "rl": set(_range(cfg.rl_seeds))}
    names = list(sets)
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            if sets[x] & sets[y]:
                raise ValueError(f"the {x} and {y} seed ranges overlap: every range must be "
                                 f"disjoint")
    # 1. the model and its SFT start
    base = build_tiny(out / "base", list(oracle_corpus([cfg.task], seeds=range(2))),
                      layers=cfg.layers, hidden=cfg.hidden, vocab=cfg.vocab, seed=cfg.seed,
                      init_std=cfg.init_std)
    collect("PhoneWorld/All-v0", "oracle", [cfg.task], demo_seeds, out / "demos",
            split="train")
    demos = load(out / "demos")
    wanted = set(demo_seeds)  # a reused folder may hold other seeds' episodes: not those
    demos = demos.select([i for i, s in enumerate(demos["seed"]) if int(s) in wanted])
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForCausalLM.from_pretrained(base)
    env = PhoneEnv(cfg.task, split="train", obs_mode="a11y")
    examples = sft_examples(demos, tok.eos_token, named=cfg.decoding == "named")
    if cfg.grounding:
        import datasets

        from phoneworld_gym.baselines.grounding import grounding_examples

        screens = grounding_screens(cfg)
        extra = grounding_examples(screens, cfg.grounding, eos=tok.eos_token, seed=cfg.seed,
                                   named=cfg.decoding == "named")
        if cfg.grounding_steps:
            rec = train_sft(model, tok, extra, out / "grounding",
                            SFTSettings(max_steps=cfg.grounding_steps, batch_size=cfg.sft_batch,
                                        lr=cfg.sft_lr, seed=cfg.seed, max_length=4096,
                                        warmup_ratio=0.0))
            log(f"grounding: {cfg.grounding_steps} steps on {len(extra)} examples from "
                f"{len(screens)} screens, loss {rec['loss'][0]:.3f} -> {rec['loss'][-1]:.3f}")
        else:
            examples = datasets.concatenate_datasets([examples, extra])
            log(f"SFT data: {len(examples) - len(extra)} demonstration steps + {len(extra)} "
                f"grounding examples from {len(screens)} screens")
    select_seeds = _range(cfg.select_seeds)
    # SFT in chunks of sft_chunk steps, each measured on the selection seeds; the first
    # checkpoint that solves at least select_low of them (at most sft_steps in all) is the
    # start: one that solves some instances and fails others
    t0 = time.time()
    trace: list[dict[str, Any]] = []
    losses: list[float] = []
    select: list[bool] = []
    done_steps = 0
    while done_steps < cfg.sft_steps:
        steps = min(cfg.sft_chunk, cfg.sft_steps - done_steps)
        rec = train_sft(model, tok, examples, out / "sft",
                        SFTSettings(max_steps=steps, batch_size=cfg.sft_batch, lr=cfg.sft_lr,
                                    seed=cfg.seed + done_steps, max_length=4096,
                                    warmup_ratio=0.0))
        done_steps += steps
        losses += list(rec["loss"])
        select = evaluate(model, tok, env, cfg.task, select_seeds, cfg.max_steps,
                          cfg.decoding)
        trace.append({"sft_steps": done_steps, "loss": float(rec["loss"][-1]),
                      "select_success": float(np.mean(select))})
        log(f"SFT {done_steps} steps: loss {rec['loss'][-1]:.3f}, selection seeds "
            f"{sum(select)}/{len(select)}")
        if np.mean(select) >= cfg.select_low:
            break
    sft = {"loss": losses}
    sft_seconds = time.time() - t0
    demo_goals = set(demos["goal"])
    eval_seeds = _range(cfg.eval_seeds)
    eval_goals = []
    for s in eval_seeds:
        obs, _ = env.reset(seed=s, options={"task": cfg.task})
        eval_goals.append(str(obs["goal"]))
    heldout = [g not in demo_goals for g in eval_goals]
    start = evaluate(model, tok, env, cfg.task, eval_seeds, cfg.max_steps, cfg.decoding)
    curve = [{"update": 0, "success": float(np.mean(start))}]
    log(f"update 0: held-out success {np.mean(start):.3f}")
    # 2. RL
    sampler = TaskSampler([EnvSource("mock", "PhoneWorld/All-v0", tasks=[cfg.task])],
                          seed=cfg.seed, seeds=_range(cfg.rl_seeds), adaptive=True)
    reward_fn: Callable[[Any], float] = verified_reward
    shaped = None
    if cfg.reward == "shaped":
        from phoneworld_gym.baselines.shaping import ShapedReward

        shaped = ShapedReward(sampler)
        reward_fn = shaped
    elif cfg.reward != "verified":
        raise ValueError(f"reward must be 'verified' or 'shaped', got {cfg.reward!r}")
    settings = GRPOSettings(updates=cfg.updates, tasks_per_update=cfg.tasks_per_update,
                            group_size=cfg.group_size, epochs=cfg.epochs,
                            minibatch=cfg.minibatch, lr=cfg.lr, clip_eps=cfg.clip_eps,
                            temperature=cfg.temperature, max_episode_steps=cfg.max_steps,
                            seed=cfg.seed, balance_episodes=True)
    counter = iter(range(10 ** 9))
    updates: list[dict[str, Any]] = []
    last = [start]

    def after_update(rec: dict[str, Any]) -> None:
        u = int(rec["update"])
        updates.append(rec)
        log(f"update {u}: reward {rec['reward']:.3f} success {rec['success']:.3f} "
            f"spread {rec['kept']}/{rec['drawn']} clipped {rec.get('clipped', 0.0):.3f} "
            f"ratio {rec.get('ratio', 1.0):.3f} ({rec['seconds']:.0f} s)")
        if u % cfg.eval_every == 0 or u == cfg.updates:
            last[0] = evaluate(model, tok, env, cfg.task, eval_seeds, cfg.max_steps,
                               cfg.decoding)
            curve.append({"update": u, "success": float(np.mean(last[0]))})
            log(f"update {u}: held-out success {np.mean(last[0]):.3f}")

    try:
        train_grpo(model, tok, sampler, settings,
                   make_agent=lambda m, t: LMAgent((m, t), temperature=cfg.temperature,
                                                   **_constrained(cfg.decoding),
                                                   seed=cfg.seed * 100_003 + next(counter)),
                   reward_fn=reward_fn, log=after_update)
    finally:
        sampler.close()
        if shaped is not None:
            shaped.close()
        env.close()
    last = last[0]
    gain = paired_gain(start, last)
    record = {"config": dataclasses.asdict(cfg), "sft_loss": [sft["loss"][0], sft["loss"][-1]],
              "sft_selection": trace,
              "sft_seconds": round(sft_seconds, 1),
              "select_success": float(np.mean(select)), "curve": curve, "updates": updates,
              "gain": gain, "heldout_goals": int(sum(heldout)), "eval_episodes": len(start),
              "heldout_gain": paired_gain([s for s, h in zip(start, heldout) if h],
                                          [s for s, h in zip(last, heldout) if h])
              if sum(heldout) > 1 else None,
              "seconds": round(time.time() - t_start, 1)}
    (out / "learning_check.json").write_text(json.dumps(record, indent=1, default=str))
    log(f"gain {gain['gain']:+.3f} [{gain['low']:+.3f}, {gain['high']:+.3f}] "
        f"McNemar p={gain['p_mcnemar']:.4f}; {sum(heldout)}/{len(heldout)} eval goals unseen "
        f"in demonstrations; {record['seconds']:.0f} s")
    return record


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="out/learning_check")
    ap.add_argument("--quick", action="store_true", help="the shrunken run the test plays")
    for f in dataclasses.fields(CheckConfig):
        if f.type in ("int", "float", "str"):
            ap.add_argument("--" + f.name.replace("_", "-"), dest=f.name, default=None,
                            type={"int": int, "float": float, "str": str}[str(f.type)])
    args = ap.parse_args(argv)
    kw = {f.name: getattr(args, f.name) for f in dataclasses.fields(CheckConfig)
          if getattr(args, f.name, None) is not None}
    cfg = CheckConfig.quick(**kw) if args.quick else CheckConfig(**kw)
    run(cfg, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
