"""Supervised fine-tuning of the language-model agent on trajectories, with TRL.

Each step of a trajectory dataset (:mod:`phoneworld_gym.baselines.data`) becomes one
prompt -> completion example: the prompt is exactly what :class:`~phoneworld_gym.baselines.
lm_agent.LMAgent` reads at that step (goal, the episode's previous actions with their errors,
the screen's element list), the completion is the action's JSON followed by the end-of-text
token. TRL's ``SFTTrainer`` trains on the completion tokens only (``completion_only_loss``).
Sources are mixed by episode with :func:`phoneworld_gym.baselines.data.mix` at a configured
ratio (``{"mock": 1, "device": 1}``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import datasets

from phoneworld_gym.baselines.prompt import Turn, build_messages, format_reply, messages_to_prompt
from phoneworld_gym.contract import Action

log = logging.getLogger(__name__)

#: turns chat messages into the model's prompt text (``LocalModel.prompt_text`` for a model
#: with a chat template; the flat format otherwise)
PromptText = Callable[[Sequence[Mapping[str, Any]]], str]


def sft_examples(ds: datasets.Dataset, eos: str, *,
                 prompt_text: PromptText = messages_to_prompt,
                 max_history: int | None = None, named: bool = False) -> datasets.Dataset:
    """``prompt``/``completion`` examples from a trajectory dataset, one per step.

    The history of a step is rebuilt from the episode's earlier rows (its actions and their
    ``action_error``), so the prompt equals the agent's at inference. ``eos`` ends each
    completion (the model learns to stop). ``named``: completions name the element before
    its index (:func:`~phoneworld_gym.baselines.prompt.format_reply`), as an
    ``LMAgent(named=True)`` writes them."""
    for col in ("episode_id", "step", "goal", "tree", "action", "action_error"):
        if col not in ds.column_names:
            raise ValueError(f"a trajectory dataset needs the column {col!r}; got "
                             f"{ds.column_names}")
    if not eos:
        raise ValueError("eos must be the tokenizer's end-of-text token, got an empty string")
    cols = ds.select_columns(["episode_id", "step", "goal", "tree", "action",
                              "action_error", "source", "task"]).to_dict()
    prompts, completions, sources, tasks = [], [], [], []
    history: list[Turn] = []
    current = None
    for i in range(len(cols["episode_id"])):
        if cols["episode_id"][i] != current or cols["step"][i] == 0:
            current, history = cols["episode_id"][i], []
        action = Action.from_json(json.loads(cols["action"][i]))
        kw = {} if max_history is None else {"max_history": max_history}
        prompts.append(prompt_text(build_messages(cols["goal"][i], cols["tree"][i], history,
                                                  **kw)))
        completions.append(format_reply(action, cols["tree"][i] if named else None,
                                        named=named) + eos)
        sources.append(cols["source"][i])
        tasks.append(cols["task"][i])
        history.append(Turn(action, cols["action_error"][i] or ""))
    return datasets.Dataset.from_dict({"prompt": prompts, "completion": completions,
                                       "source": sources, "task": tasks})


@dataclasses.dataclass
class SFTSettings:
    """What one SFT run does.

    Attributes:
        epochs: passes over the mixture (ignored when ``max_steps`` is set).
        max_steps: optimizer steps (None: ``epochs`` passes).
        batch_size: examples per optimizer step.
        lr: peak learning rate (linear decay after ``warmup_ratio``).
        warmup_ratio: fraction of steps spent warming up.
        max_length: tokens per example; longer ones are cut from the right by TRL, so keep it
            above the longest prompt + completion (examples that would lose completion tokens
            are dropped beforehand and counted).
        seed: data order and initialisation of anything random.
        weight_decay: AdamW's.
    """

    epochs: float = 3.0
    max_steps: int | None = None
    batch_size: int = 8
    lr: float = 1e-3
    warmup_ratio: float = 0.05
    max_length: int = 2048
    seed: int = 0
    weight_decay: float = 0.0

    def __post_init__(self) -> None:
        if not (self.epochs > 0 and math.isfinite(self.epochs)):
            raise ValueError(f"epochs must be > 0, got {self.epochs!r}")
        if self.max_steps is not None and (not isinstance(self.max_steps, int)
                                           or self.max_steps < 1):
            raise ValueError(f"max_steps must be a positive int or None, got {self.max_steps!r}")
        if not isinstance(self.batch_size, int) or self.batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {self.batch_size!r}")
        if not self.lr > 0:
            raise ValueError(f"lr must be > 0, got {self.lr!r}")
        if not isinstance(self.max_length, int) or self.max_length < 16:
            raise ValueError(f"max_length must be an int >= 16, got {self.max_length!r}")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SFTSettings:
        """From a config mapping; unknown keys are an error naming them."""
        known = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(d) - known)
        if extra:
            raise ValueError(f"unknown SFT setting(s) {extra}; known: {sorted(known)}")
        return cls(**dict(d))


def fits(examples: datasets.Dataset, tokenizer: Any, max_length: int) -> datasets.Dataset:
    """The examples whose prompt + completion fit ``max_length`` tokens (a cut completion
    would teach the model to stop mid-action)."""
    keep = [i for i, (p, c) in enumerate(zip(examples["prompt"], examples["completion"]))
            if len(tokenizer(p + c, add_special_tokens=False)["input_ids"]) <= max_length]
    dropped = len(examples) - len(keep)
    if dropped:
        log.warning("SFT: %d of %d examples are longer than max_length=%d tokens and are left "
                    "out", dropped, len(examples), max_length)
    if not keep:
        raise ValueError(f"no example fits max_length={max_length} tokens; raise max_length")
    return examples.select(keep)


def train_sft(model: Any, tokenizer: Any, examples: datasets.Dataset, out_dir: str | Path,
              settings: SFTSettings, log: Callable[[str], None] | None = None
              ) -> dict[str, Any]:
    """Fine-tune ``model`` in place on ``examples`` (``prompt``/``completion``) with TRL's
    ``SFTTrainer`` (loss on completion tokens only), save it with its tokenizer to
    ``out_dir``, and return the run's record: losses per logging step, steps, seconds.
    ``log`` gets a progress line about every tenth of the run."""
    from transformers import PrinterCallback, TrainerCallback
    from transformers.utils import logging as hf_logging
    from trl import SFTConfig, SFTTrainer

    if len(examples) == 0:
        raise ValueError("no SFT examples")
    for col in ("prompt", "completion"):
        if col not in examples.column_names:
            raise ValueError(f"SFT examples need a {col!r} column; got {examples.column_names}")
    hf_logging.disable_progress_bar()
    datasets.disable_progress_bars()
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    data = fits(examples.select_columns(["prompt", "completion"]), tokenizer,
                settings.max_length)
    out = Path(out_dir)
    with warnings.catch_warnings():
        # trl 1.16's SFTConfig sets transformers' renamed `gradient_checkpointing` itself
        warnings.filterwarnings("ignore", message="`gradient_checkpointing` is deprecated",
                                category=FutureWarning)
        args = SFTConfig(
            output_dir=str(out / "trainer"), completion_only_loss=True,
            max_length=settings.max_length, per_device_train_batch_size=settings.batch_size,
            num_train_epochs=settings.epochs, max_steps=settings.max_steps or -1,
            learning_rate=settings.lr, warmup_steps=float(settings.warmup_ratio),
            weight_decay=settings.weight_decay, lr_scheduler_type="linear", logging_steps=1,
            save_strategy="no", report_to=[], seed=settings.seed, data_seed=settings.seed,
            use_cpu=not _has_accelerator(), dataloader_num_workers=0, disable_tqdm=True,
            dataset_num_proc=None, bf16=False, fp16=False)
    start = time.time()
    trainer = SFTTrainer(model=model, args=args, train_dataset=data, processing_class=tokenizer)
    trainer.remove_callback(PrinterCallback)  # the record below keeps the losses
    if log is not None:
        report: Callable[[str], None] = log

        class Progress(TrainerCallback):  # type: ignore[misc]
            def on_log(self, args: Any, state: Any, control: Any, logs: Any = None,
                       **kw: Any) -> None:
                every = max(1, state.max_steps // 10)
                if logs and "loss" in logs and (state.global_step % every == 0
                                                or state.global_step == state.max_steps):
                    report(f"sft step {state.global_step}/{state.max_steps}: loss "
                        f"{float(logs['loss']):.3f} ({time.time() - start:.0f} s)")

        trainer.add_callback(Progress())
    trainer.train()
    seconds = time.time() - start
    model.eval()
    save(model, tokenizer, out)
    losses = [float(h["loss"]) for h in trainer.state.log_history if "loss" in h]
    return {"examples": len(data), "dropped": len(examples) - len(data),
            "steps": int(trainer.state.global_step), "loss": losses,
            "seconds": round(seconds, 2)}


def save(model: Any, tokenizer: Any, out_dir: str | Path) -> Path:
    """Save a checkpoint (model + tokenizer) that ``LMAgent(path)`` loads offline."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def _has_accelerator() -> bool:
    import torch

    return bool(torch.cuda.is_available())
