"""TRL's ``GRPOTrainer`` on PhoneWorld: multi-turn episodes through its ``rollout_func``.

trl 1.16 offers two ways to put an environment in the loop: ``environment_factory`` (the
env's methods become *tools* the model calls inside one chat completion, which needs a
tool-calling chat template) and ``rollout_func`` (our function plays the rollouts and
returns token ids; TRL scores, normalises within groups and updates). This module uses
``rollout_func``: the tiny model has no tool template, and it lets every turn be one
PhoneWorld action chosen by the same constrained decoder :class:`~phoneworld_gym.baselines.
lm_agent.LMAgent` uses.

**How an episode becomes what TRL trains on: the whole episode is one sequence.**
The first turn's prompt is the project's single-step prompt (:func:`~phoneworld_gym.
baselines.prompt.build_prompt`: system message, goal, no history, the screen's element
list). The model's action (its JSON, then the end token) follows; then the env's reply is
appended as the next user turn (``<|user|>`` goal, previous actions with their errors, the
new screen, ``<|assistant|>``, the same text as a single-step prompt's user message), then
the next action, and so on until the env ends the episode or ``max_episode_steps``. Every
action is sampled with the model reading the whole transcript so far, so the sequence TRL
re-scores is exactly the context each action was drawn from. ``rollout_func`` returns
``prompt_ids`` (the first prompt), ``completion_ids`` (everything after it) and
``env_mask`` (1 on the model's action tokens, 0 on the env's user turns), which trl 1.16
takes as its tool mask: the loss counts only the action tokens, each carrying the
episode's advantage. One dataset row is one task instance (task, seed); TRL repeats it
``num_generations`` times, so a GRPO group is ``group_size`` episodes of one instance.

**Rewards.** The reward function reads the verifier's score of each episode (the reward
the env returned when it ended: 1 for success, 0 otherwise; 0 for an episode cut at
``max_episode_steps``), passed from ``rollout_func`` as the extra field ``env_reward``.

**What differs from the project's GRPO** (:mod:`~phoneworld_gym.baselines.grpo`): there
each step is its own prompt -> completion sample; here the episode is one transcript, so
the model must have been trained on transcripts (:func:`transcript_examples` makes SFT
examples in this format). Actions are sampled through the candidates' token trie (the
distribution renormalised over the allowed tokens at each branch; ``logprobs`` returned
to TRL are these), but TRL scores the tokens under the whole vocabulary in its loss, so
forced tokens (the JSON around a choice) get gradient too. With ``num_iterations`` 1 (the
default here) the ratio is 1 and the clip inactive; the clip statistics TRL logs are
those of its loss.

    from phoneworld_gym.baselines.trl_grpo import TRLGRPOSettings, train_trl_grpo
    history = train_trl_grpo(model, tokenizer, ["ContactsStar"], range(1000, 1100),
                             TRLGRPOSettings(updates=4), "out/trl")
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.prompt import (
    Turn,
    build_prompt,
    candidate_actions,
    format_action,
    messages_to_prompt,
    parse_action,
    user_text,
)
from phoneworld_gym.contract import Action, parse_ui_elements


@dataclasses.dataclass
class TRLGRPOSettings:
    """What one TRL GRPO run does.

    Attributes:
        updates: generation batches played, each followed by ``num_iterations`` optimiser
            steps on it (TRL's ``max_steps`` is ``updates * num_iterations``).
        tasks_per_update: task instances per update (dataset rows per batch).
        group_size: episodes per instance (TRL's ``num_generations``): the GRPO group.
        lr: learning rate (AdamW, constant).
        beta: KL weight to the reference (TRL's ``beta``; 0: no reference model kept).
        epsilon: the ratio's clip range.
        num_iterations: passes over each generation batch (>1 makes the ratio and clip act).
        temperature: sampling temperature of the constrained decoder.
        max_episode_steps: turns per episode at most (an episode cut there scores 0).
        loss_type: TRL's ``loss_type`` (``"dapo"``: token mean over the batch).
        seed: seeds TRL (data order) and the decoder's draws.
    """

    updates: int = 4
    tasks_per_update: int = 2
    group_size: int = 4
    lr: float = 5e-4
    beta: float = 0.0
    epsilon: float = 0.2
    num_iterations: int = 1
    temperature: float = 1.0
    max_episode_steps: int = 6
    loss_type: str = "dapo"
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("updates", "tasks_per_update", "group_size", "num_iterations",
                     "max_episode_steps"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if self.group_size < 2:
            raise ValueError(f"group_size must be >= 2 (advantages are relative to the "
                             f"group), got {self.group_size}")
        if not (self.lr > 0 and self.epsilon > 0 and self.temperature > 0):
            raise ValueError(f"lr, epsilon and temperature must be > 0, got lr={self.lr}, "
                             f"epsilon={self.epsilon}, temperature={self.temperature}")
        if self.beta < 0:
            raise ValueError(f"beta must be >= 0, got {self.beta}")


# -- the transcript ---------------------------------------------------------------------------
def turn_text(goal: str, tree: Any, history: Sequence[Turn]) -> str:
    """The env's reply after an action: the next user turn of the transcript, ending with
    the assistant marker the next action follows."""
    return messages_to_prompt([{"role": "user", "content": user_text(goal, tree, history)}])


def instance_key(task: str, seed: int, world: str | None = None) -> str:
    """A dataset row's ``prompt``: the task instance it names (``rollout_func`` resets the
    env to it and builds the real first prompt); ``world/Task#seed`` when the rollout holds
    one env per world (the recipe's weighted worlds)."""
    return f"{world}/{task}#{int(seed)}" if world else f"{task}#{int(seed)}"


def split_world(key: str) -> tuple[str | None, str]:
    """``world/Task#seed`` -> ``(world, "Task#seed")``; a key without a world -> ``(None,
    key)`` (task ids never hold a ``/``)."""
    world, sep, rest = str(key).partition("/")
    return (world, rest) if sep else (None, str(key))


def parse_key(key: str) -> tuple[str, int]:
    """``instance_key``'s inverse; ``ValueError`` naming a malformed key."""
    task, sep, seed = str(key).rpartition("#")
    if not sep or not task or not seed.lstrip("-").isdigit():
        raise ValueError(f"a PhoneWorld instance key is 'Task#seed', got {key!r}")
    return task, int(seed)


def instance_dataset(tasks: Sequence[str], seeds: Sequence[int],
                     instances: Sequence[tuple[str, str, int]] | None = None) -> Any:
    """The training dataset: one row per (task, seed), ``prompt`` its :func:`instance_key`
    (TRL repeats each row ``num_generations`` times: a group plays one instance). With
    ``instances`` ((world, task, seed) triples, e.g. drawn by the recipe's weighted
    sampler), one row per triple instead, keyed ``world/Task#seed``."""
    import datasets

    if instances is not None:
        rows = [(str(w), str(t), int(s)) for w, t, s in instances]
    else:
        rows = [("", t, int(s)) for t in tasks for s in seeds]
    if not rows:
        raise ValueError("instance_dataset needs at least one task and one seed")
    data = {"prompt": [instance_key(t, s, w or None) for w, t, s in rows],
            "task": [t for _, t, _ in rows], "seed": [s for _, _, s in rows]}
    if instances is not None:
        data["world"] = [w for w, _, _ in rows]
    return datasets.Dataset.from_dict(data)


def transcript_examples(episodes: Sequence[Mapping[str, Any]], eos: str) -> Any:
    """SFT examples in the transcript format, from oracle-style episodes (each a mapping with
    ``goal``, ``trees`` (the screen before each action) and ``actions``, plus optional
    ``errors``): one example per step, the prompt the whole transcript up to that screen,
    the completion the action's JSON and ``eos``."""
    import datasets

    prompts, completions = [], []
    for ep in episodes:
        goal, trees, actions = str(ep["goal"]), list(ep["trees"]), list(ep["actions"])
        errors = list(ep.get("errors") or [""] * len(actions))
        text = build_prompt(goal, trees[0], [])
        history: list[Turn] = []
        for k, action in enumerate(actions):
            if k:
                text += turn_text(goal, trees[k], history)
            reply = format_action(action)
            prompts.append(text)
            completions.append(reply + eos)
            text += reply + eos
            history.append(Turn(action, errors[k], reply))
    return datasets.Dataset.from_dict({"prompt": prompts, "completion": completions})


def oracle_transcripts(task: str, seeds: Sequence[int], max_steps: int = 20
                       ) -> list[dict[str, Any]]:
    """The oracle's episodes of ``task`` on ``seeds`` as :func:`transcript_examples` reads
    them."""
    from phoneworld_gym.env import PhoneEnv

    env = PhoneEnv(task, split="train", obs_mode="a11y")
    out = []
    try:
        for seed in seeds:
            obs, _ = env.reset(seed=int(seed), options={"task": task})
            ep: dict[str, Any] = {"goal": str(obs["goal"]), "trees": [], "actions": [],
                                  "errors": []}
            for action in env.oracle():
                ep["trees"].append(obs["a11y"])
                ep["actions"].append(action)
                obs, _, term, trunc, info = env.step(action)
                ep["errors"].append(str(info["action_error"] or ""))
                if term or trunc or len(ep["actions"]) >= max_steps:
                    break
            out.append(ep)
    finally:
        env.close()
    return out


def sft_transcripts(model: Any, tokenizer: Any, examples: Any, *, steps: int,
                    batch_size: int = 4, lr: float = 3e-3, seed: int = 0) -> list[float]:
    """A short SFT of ``model`` in place on :func:`transcript_examples` (loss on the
    completion tokens only, AdamW, random batches drawn by ``seed``); returns the losses.
    A plain loop: for a few steps on CPU it costs less than a ``SFTTrainer`` set-up."""
    import numpy as np
    import torch

    rng = np.random.default_rng(seed)
    rows = [(list(tokenizer(p, add_special_tokens=False)["input_ids"]),
             list(tokenizer(c, add_special_tokens=False)["input_ids"]))
            for p, c in zip(examples["prompt"], examples["completion"])]
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    model.train()
    losses = []
    for _ in range(steps):
        pick = [rows[i] for i in rng.choice(len(rows), size=min(batch_size, len(rows)),
                                            replace=False)]
        width = max(len(p) + len(c) for p, c in pick)
        ids = torch.full((len(pick), width), pad, dtype=torch.long)
        labels = torch.full((len(pick), width), -100, dtype=torch.long)
        attn = torch.zeros((len(pick), width), dtype=torch.long)
        for b, (p, c) in enumerate(pick):
            ids[b, :len(p) + len(c)] = torch.tensor(p + c)
            labels[b, len(p):len(p) + len(c)] = torch.tensor(c)
            attn[b, :len(p) + len(c)] = 1
        loss = model(input_ids=ids, attention_mask=attn, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(float(loss.detach()))
    model.eval()
    return losses


# -- episodes ---------------------------------------------------------------------------------
@dataclasses.dataclass
class TranscriptEpisode:
    """One episode played as a transcript: its token ids (first prompt, then everything
    after it with the model's tokens marked), the sampler's log-probabilities of the model's
    tokens (0 on env tokens), the actions taken and the verifier's verdict."""

    task: str
    seed: int
    prompt_ids: list[int]
    completion_ids: list[int]
    env_mask: list[int]
    logprobs: list[float]
    actions: list[Action]
    success: bool
    env_reward: float
    capped: bool


def play_transcript(lm: Any, env: Any, task: str, seed: int, *, temperature: float,
                    max_steps: int, draw_seed: int | None = None,
                    apps: Sequence[str] | None = None) -> TranscriptEpisode:
    """Play one episode of ``task``/``seed`` with ``lm`` (a :class:`~phoneworld_gym.
    baselines.lm_agent.LocalModel`), one constrained action per turn, each drawn with the
    model reading the whole transcript so far (greedy when ``temperature`` is 0)."""
    import torch

    from phoneworld_gym.baselines.grpo import token_logprobs
    from phoneworld_gym.baselines.lm_agent import launcher_apps

    tok = lm.tokenizer
    apps = list(apps) if apps is not None else launcher_apps()

    def encode(text: str) -> list[int]:
        return list(tok(text, add_special_tokens=False)["input_ids"])

    obs, _ = env.reset(seed=int(seed), options={"task": task})
    goal = str(obs["goal"])
    prompt_ids = encode(build_prompt(goal, obs["a11y"], []))
    completion: list[int] = []
    mask: list[int] = []
    allowed: list[list[int]] = []
    actions: list[Action] = []
    history: list[Turn] = []
    reward, success, capped = 0.0, False, False
    while True:
        elements = parse_ui_elements(obs["a11y"])
        trie = lm.token_trie([format_action(a) for a in
                              candidate_actions(goal, elements, apps=apps)])
        ids = torch.tensor([prompt_ids + completion], dtype=torch.long, device=lm.device)
        step_seed = None if draw_seed is None else draw_seed * 1009 + len(actions)
        out = lm._trie_decode({"input_ids": ids, "attention_mask": torch.ones_like(ids)},
                              trie, temperature, step_seed)
        allowed += [trie[tuple(out[:k])] for k in range(len(out))]
        completion += out
        mask += [1] * len(out)
        text = tok.decode(out, skip_special_tokens=True)
        action = parse_action(text)
        if action is None:  # cannot happen through the trie; a guard, not a path
            raise RuntimeError(f"the constrained decoder produced no action: {text!r}")
        actions.append(action)
        obs, reward, term, trunc, info = env.step(action)
        history.append(Turn(action, str(info["action_error"] or ""), text))
        if term or trunc:
            success = bool(info["success"])
            break
        if len(actions) >= max_steps:
            reward, capped = 0.0, True
            break
        seg = encode(turn_text(goal, obs["a11y"], history))
        completion += seg
        mask += [0] * len(seg)
    # the sampler's log-probabilities of the action tokens (renormalised over the trie's
    # allowed tokens at each place, at the temperature drawn with), in one pass
    full = torch.tensor([prompt_ids + completion], dtype=torch.long, device=lm.device)
    comp = torch.zeros_like(full)
    places = [len(prompt_ids) + i for i, m in enumerate(mask) if m]
    comp[0, places] = 1
    with torch.no_grad():
        lp = token_logprobs(lm.model, full, torch.ones_like(full), max(temperature, 1e-6),
                            [allowed], comp)[0, len(prompt_ids):].tolist()
    logprobs = [float(x) if m else 0.0 for x, m in zip(lp, mask)]
    return TranscriptEpisode(task, int(seed), prompt_ids, completion, mask, logprobs,
                             actions, success, float(reward), capped)


def replay_reward(env: Any, task: str, seed: int, actions: Sequence[Action]) -> float:
    """The verifier's reward for playing ``actions`` on ``task``/``seed`` from a fresh reset
    (0 when the actions do not end the episode): a check that a logged reward is the env's."""
    env.reset(seed=int(seed), options={"task": task})
    for action in actions:
        _, reward, term, trunc, _ = env.step(action)
        if term or trunc:
            return float(reward)
    return 0.0


class PhoneWorldRollout:
    """TRL's ``rollout_func``: for each prompt (an :func:`instance_key`), one transcript
    episode with the trainer's current model. Keeps every episode played (``episodes``, in
    the order TRL received them) and each call's slice (``calls``).

    A ``world/Task#seed`` key plays in ``envs[world]`` (the caller's envs: not closed
    here); a plain key in ``env`` (a train-split PhoneWorld env by default)."""

    def __init__(self, tokenizer: Any, settings: TRLGRPOSettings, env: Any = None,
                 envs: Mapping[str, Any] | None = None):
        from phoneworld_gym.env import PhoneEnv

        self.tokenizer = tokenizer
        self.settings = settings
        self.envs = dict(envs or {})
        self.env = env if env is not None or self.envs else PhoneEnv(
            None, split="train", obs_mode="a11y")
        self.episodes: list[TranscriptEpisode] = []
        self.calls: list[tuple[int, int]] = []

    def env_of(self, world: str | None) -> Any:
        """The env a key's world plays in; ``ValueError`` naming an unknown world."""
        env = self.env if world is None else self.envs.get(world)
        if env is None:
            raise ValueError(f"no env for world {world!r} in this rollout; it has "
                             f"{sorted(self.envs)}" + (" and a default env" if self.env else ""))
        return env

    def __call__(self, prompts: Sequence[Any], trainer: Any) -> dict[str, Any]:
        from phoneworld_gym.baselines.lm_agent import LocalModel

        model = trainer.accelerator.unwrap_model(trainer.model)
        was_training = model.training
        lm = LocalModel(model, self.tokenizer, device=str(trainer.accelerator.device))
        start = len(self.episodes)
        try:
            for key in prompts:
                world, rest = split_world(key if isinstance(key, str) else str(key))
                task, seed = parse_key(rest)
                self.episodes.append(play_transcript(
                    lm, self.env_of(world), task, seed, temperature=self.settings.temperature,
                    max_steps=self.settings.max_episode_steps,
                    draw_seed=self.settings.seed * 1_000_003 + len(self.episodes)))
        finally:
            model.train(was_training)
        eps = self.episodes[start:]
        self.calls.append((start, len(self.episodes)))
        return {"prompt_ids": [e.prompt_ids for e in eps],
                "completion_ids": [e.completion_ids for e in eps],
                "logprobs": [e.logprobs for e in eps],
                "env_mask": [e.env_mask for e in eps],
                "env_reward": [e.env_reward for e in eps],
                "success": [float(e.success) for e in eps],
                "turns": [len(e.actions) for e in eps]}

    def close(self) -> None:
        """Close the default env (the ``envs`` are the caller's to close)."""
        if self.env is not None:
            self.env.close()


def verified_reward(completions: Sequence[Any], env_reward: Sequence[float],
                    **_: Any) -> list[float]:
    """TRL reward function: the verifier's score of each episode (from ``rollout_func``)."""
    return [float(r) for r in env_reward]


# -- training ---------------------------------------------------------------------------------
def _pick(logs: Mapping[str, Any], *names: str) -> float | None:
    for n in names:
        if n in logs:
            return float(logs[n])
    return None


def train_trl_grpo(model: Any, tokenizer: Any, tasks: Sequence[str], seeds: Sequence[int],
                   settings: TRLGRPOSettings, out_dir: str | Path, *,
                   log: Callable[[dict[str, Any]], None] | None = None,
                   keep: dict[str, Any] | None = None,
                   instances: Sequence[tuple[str, str, int]] | None = None,
                   envs: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Train ``model`` in place with TRL's ``GRPOTrainer`` for ``settings.updates`` updates on
    instances of ``tasks`` x ``seeds``; returns one record per update: reward mean and std,
    success rate and mean turns of its episodes, the share of groups with no reward spread,
    loss, KL (when ``beta`` > 0), clip ratios, grad norm, seconds. ``keep``, when given,
    receives the ``trainer`` and the ``rollout`` (its episodes) for inspection.

    ``instances`` ((world, task, seed) triples) with ``envs`` (world -> env, closed by the
    caller) replace ``tasks`` x ``seeds``: each row plays in its world's env (the recipe's
    RL stage over weighted worlds). An update is one generation batch followed by
    ``num_iterations`` optimiser steps on it (TRL's ``max_steps`` is their product); its
    record is made at the first of them."""
    import numpy as np
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    batch = settings.tasks_per_update * settings.group_size
    config = GRPOConfig(
        output_dir=str(out), max_steps=settings.updates * settings.num_iterations,
        per_device_train_batch_size=batch,
        gradient_accumulation_steps=1, steps_per_generation=1,
        num_generations=settings.group_size, num_iterations=settings.num_iterations,
        learning_rate=settings.lr, lr_scheduler_type="constant", warmup_steps=0,
        weight_decay=0.0, beta=settings.beta, epsilon=settings.epsilon,
        loss_type=settings.loss_type, temperature=settings.temperature,
        logging_steps=1, save_strategy="no", report_to="none", use_cpu=True,
        seed=settings.seed, data_seed=settings.seed, disable_tqdm=True,
        dataloader_num_workers=0, remove_unused_columns=False, bf16=False, fp16=False)
    rollout = PhoneWorldRollout(tokenizer, settings, envs=envs)
    history: list[dict[str, Any]] = []
    t0 = [time.time()]

    class _History(TrainerCallback):  # type: ignore[misc]
        def on_log(self, args: Any, state: Any, control: Any, logs: Any = None,
                   **kw: Any) -> None:
            if not logs or "reward" not in logs or len(rollout.calls) <= len(history):
                return
            a, b = rollout.calls[len(history)]
            eps = rollout.episodes[a:b]
            rec = {"update": len(history) + 1,
                   "reward": float(logs["reward"]),
                   "reward_std": _pick(logs, "reward_std"),
                   "success": float(np.mean([e.success for e in eps])),
                   "turns": float(np.mean([len(e.actions) for e in eps])),
                   "episodes": len(eps),
                   "zero_std_groups": _pick(logs, "frac_reward_zero_std"),
                   "loss": _pick(logs, "loss"),
                   "kl": _pick(logs, "kl"),
                   "clip_ratio": _pick(logs, "clip_ratio/region_mean"),
                   "grad_norm": _pick(logs, "grad_norm"),
                   "seconds": round(time.time() - t0[0], 2)}
            t0[0] = time.time()
            history.append(rec)
            if log is not None:
                log(rec)

    trainer = GRPOTrainer(model=model, reward_funcs=[verified_reward], args=config,
                          train_dataset=instance_dataset(tasks, seeds, instances),
                          processing_class=tokenizer, rollout_func=rollout,
                          callbacks=[_History()])
    if keep is not None:
        keep.update(trainer=trainer, rollout=rollout)
    try:
        trainer.train()
    finally:
        rollout.close()
    model.eval()
    return history


def evaluate_transcripts(model: Any, tokenizer: Any, task: str, seeds: Sequence[int],
                         max_steps: int) -> list[bool]:
    """Greedy transcript episodes of ``task`` on ``seeds``: the verifier's success each."""
    from phoneworld_gym.baselines.lm_agent import LocalModel
    from phoneworld_gym.env import PhoneEnv

    lm = LocalModel(model, tokenizer)
    env = PhoneEnv(task, split="train", obs_mode="a11y")
    try:
        return [play_transcript(lm, env, task, s, temperature=0.0, max_steps=max_steps).success
                for s in seeds]
    finally:
        env.close()
