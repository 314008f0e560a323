"""A tiny causal language model built here, for tests and CPU smoke runs of the LM baselines.

Nothing is downloaded: the tokenizer is a byte-level BPE trained with the ``tokenizers``
library on PhoneWorld prompts and action JSON (:func:`oracle_corpus` makes such a corpus from
oracle episodes), and the model is a small Llama built from a config with seeded random
weights. :func:`build_tiny` saves both with ``save_pretrained``, so
``AutoModelForCausalLM.from_pretrained(path)`` and ``AutoTokenizer.from_pretrained(path)``
load them offline like any local checkpoint. The model is untrained: it emits noise until SFT
teaches it the action format.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

#: The end-of-text token: also the model's BOS, and what ends every completion.
EOS = "<|endoftext|>"
PAD = "<|pad|>"
#: Positions the tiny model handles (RoPE: the length costs no parameters).
MAX_POSITIONS = 8192


def oracle_steps(tasks: str | Sequence[str] | None = None, *, seeds: Iterable[int] = (0,),
                 split: str | None = "train") -> Iterator[tuple[dict[str, Any], Any, tuple]]:
    """``(obs, action, history)`` at every step of each task's oracle episode per seed
    (``history``: the episode's earlier steps as ``Turn``), then ``(obs, None, history)``
    for the screen the episode ends on. ``split="train"`` (the default) keeps the held-out
    test tasks and wordings out."""
    from phoneworld_gym.baselines.prompt import Turn
    from phoneworld_gym.env import PhoneEnv

    env = PhoneEnv(tasks, split=split, obs_mode="a11y")
    try:
        for task in env.task_ids:
            for seed in seeds:
                obs, _ = env.reset(seed=seed, options={"task": task})
                history: list[Turn] = []
                for action in env.oracle():
                    yield obs, action, tuple(history)
                    obs, _, term, trunc, info = env.step(action)
                    history.append(Turn(action, info["action_error"]))
                    if term or trunc:
                        break
                yield obs, None, tuple(history)
    finally:
        env.close()


def oracle_corpus(tasks: str | Sequence[str] | None = None, *, seeds: Iterable[int] = (0,),
                  split: str | None = "train") -> Iterator[str]:
    """Prompt + completion texts, one per step of each task's oracle episode per seed: the
    text a tokenizer for PhoneWorld should compress well. ``split="train"`` (the default)
    keeps the held-out test tasks and wordings out of it."""
    from phoneworld_gym.baselines.prompt import build_prompt, format_action

    for obs, action, history in oracle_steps(tasks, seeds=seeds, split=split):
        if action is not None:
            yield build_prompt(obs["goal"], obs["a11y"], history) + format_action(action) + EOS


def train_tokenizer(corpus_texts: Iterable[str], vocab: int = 2000) -> object:
    """A byte-level BPE tokenizer (``PreTrainedTokenizerFast``) trained on ``corpus_texts``:
    any text encodes (every byte is in the alphabet), and ``EOS``/``PAD`` are special."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    if vocab < len(alphabet) + 2:
        raise ValueError(f"vocab must hold the {len(alphabet)} byte symbols and 2 special "
                         f"tokens (>= {len(alphabet) + 2}), got {vocab}")
    texts = list(corpus_texts)
    if not texts or not all(isinstance(t, str) for t in texts):
        raise ValueError("corpus_texts must be a non-empty iterable of str")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=[EOS, PAD],
                                  initial_alphabet=alphabet, show_progress=False)
    tok.train_from_iterator(texts, trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=EOS, bos_token=EOS,
                                   pad_token=PAD, model_max_length=MAX_POSITIONS)


def build_tiny(out_dir: str | Path, corpus_texts: Iterable[str], *, layers: int = 2,
               hidden: int = 128, vocab: int = 2000, seed: int = 0,
               init_std: float = 0.02) -> Path:
    """Train a tokenizer on ``corpus_texts``, build a ``layers``-layer Llama of width
    ``hidden`` with weights drawn from ``seed`` (normal, standard deviation ``init_std``:
    Llama's usual 0.02, or larger for attention that is less uniform at the start), and save
    both to ``out_dir``.

    Returns ``out_dir`` as a ``Path``. The same corpus and seed give the same files.
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from transformers.utils import logging as hf_logging

    if layers < 1 or hidden < 8 or hidden % 4:
        raise ValueError(f"layers must be >= 1 and hidden a multiple of 4 >= 8, "
                         f"got layers={layers}, hidden={hidden}")
    if not 0 < init_std <= 1:
        raise ValueError(f"init_std must be in (0, 1], got {init_std}")
    tokenizer = train_tokenizer(corpus_texts, vocab)
    config = LlamaConfig(
        vocab_size=len(tokenizer),  # type: ignore[arg-type]
        hidden_size=hidden, intermediate_size=4 * hidden, num_hidden_layers=layers,
        num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=MAX_POSITIONS,
        bos_token_id=tokenizer.bos_token_id,  # type: ignore[attr-defined]
        eos_token_id=tokenizer.eos_token_id,  # type: ignore[attr-defined]
        pad_token_id=tokenizer.pad_token_id,  # type: ignore[attr-defined]
        tie_word_embeddings=False,  # tied, an untrained model only echoes its last token
        initializer_range=init_std,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    hf_logging.disable_progress_bar()
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)  # type: ignore[attr-defined]
    return out


#: The tiny VLM's chat template: the flat format of ``messages_to_prompt``, with the image
#: token where an image part is.
VLM_CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ '\\n' }}"
    "{% if m['content'] is string %}{{ m['content'] }}{% else %}"
    "{% for p in m['content'] %}{% if p['type'] == 'image' %}<image>{% else %}{{ p['text'] }}"
    "{% endif %}{% endfor %}{% endif %}{{ '\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{{ '\\n' }}{% endif %}"
)
IMAGE_TOKEN = "<image>"


def build_tiny_vlm(out_dir: str | Path, corpus_texts: Iterable[str], *, image_size: int = 32,
                   patch: int = 8, hidden: int = 64, vocab: int = 2000, seed: int = 0) -> Path:
    """A tiny LLaVA-style VLM (a one-layer CLIP vision tower, a one-layer Llama) with its
    processor, from configs and a tokenizer trained here, saved to ``out_dir``.

    Screenshots are resized to ``image_size`` pixels square, so an image costs
    ``(image_size // patch) ** 2`` tokens. For testing the VLM path offline; untrained.
    """
    import torch
    from transformers import (
        CLIPVisionConfig,
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
    )
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil
    from transformers.utils import logging as hf_logging

    if image_size % patch:
        raise ValueError(f"image_size must be a multiple of patch, got {image_size}, {patch}")
    tokenizer: Any = train_tokenizer(corpus_texts, vocab)
    tokenizer.add_special_tokens({"additional_special_tokens": [IMAGE_TOKEN]})
    images = CLIPImageProcessorPil(size={"shortest_edge": image_size},
                                   crop_size={"height": image_size, "width": image_size})
    processor = LlavaProcessor(image_processor=images, tokenizer=tokenizer, patch_size=patch,
                               vision_feature_select_strategy="default",
                               chat_template=VLM_CHAT_TEMPLATE, image_token=IMAGE_TOKEN,
                               num_additional_image_tokens=1)
    vision = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                              num_attention_heads=2, image_size=image_size, patch_size=patch,
                              projection_dim=32)
    text = LlamaConfig(vocab_size=len(tokenizer), hidden_size=hidden,
                       intermediate_size=2 * hidden, num_hidden_layers=1, num_attention_heads=2,
                       num_key_value_heads=2, max_position_embeddings=MAX_POSITIONS,
                       bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                       pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False)
    config = LlavaConfig(vision_config=vision, text_config=text,
                         image_token_index=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN),
                         vision_feature_layer=-1, vision_feature_select_strategy="default")
    torch.manual_seed(seed)
    model = LlavaForConditionalGeneration(config)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    hf_logging.disable_progress_bar()
    model.save_pretrained(out)
    processor.save_pretrained(out)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m phoneworld_gym.baselines.tiny OUT_DIR``: build the tiny model from the
    oracle episodes of every train task."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out_dir")
    p.add_argument("--seeds", type=int, default=1, help="oracle episodes per task")
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--vocab", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--init-std", type=float, default=0.02,
                   help="standard deviation of the initial weights")
    a = p.parse_args(argv)
    corpus = list(oracle_corpus(seeds=range(a.seeds)))
    path = build_tiny(a.out_dir, corpus, layers=a.layers, hidden=a.hidden, vocab=a.vocab,
                      seed=a.seed, init_std=a.init_std)
    print(f"{path}: tokenizer and model from {len(corpus)} oracle steps")


if __name__ == "__main__":
    main()
