"""Language-model agents over local ``transformers`` models: causal LMs and VLMs.

:class:`LocalModel` holds a loaded model with its tokenizer (or, for a VLM, its processor) and
turns chat messages into a completion; :class:`LMAgent` is the baseline agent on top of it:
at each step it builds the prompt (:mod:`phoneworld_gym.baselines.prompt`) from the goal, its
own previous actions and the screen's element list, generates, and parses the reply into an
:class:`~phoneworld_gym.contract.Action`. A reply without a valid action becomes a ``wait``
(a no-op step) and is counted in ``agent.stats["unparsable"]``; the raw reply is kept.

What RL and SFT need is exposed: :meth:`LMAgent.policy_inputs` is the exact prompt text of a
step, and ``agent.last`` holds the prompt, its token ids, the completion text and the
completion's token ids of the last step.

A causal LM without a chat template (the tiny model of :mod:`~phoneworld_gym.baselines.tiny`)
reads :func:`~phoneworld_gym.baselines.prompt.build_prompt`'s flat text; one with a chat
template reads the messages through it. A VLM (a config with a ``vision_config``) is loaded
with ``AutoProcessor`` and ``AutoModelForImageTextToText`` and gets the screenshot as an
image (``screenshots=True``). The VLM path is tested with a tiny LLaVA built from configs
(:func:`~phoneworld_gym.baselines.tiny.build_tiny_vlm`); real VLM checkpoints (Qwen2-VL,
LLaVA, ...) go through the same calls but have not been run here (none is available
offline), so their chat templates' image handling is untested.

LoRA goes through ``peft``: ``lora={"r": 8, ...}`` wraps the model with a new adapter (a
``peft.LoraConfig``'s fields), ``lora="path/to/adapter"`` loads a saved one;
:meth:`LMAgent.save_adapter` saves it.
"""

from __future__ import annotations

import base64
import collections
import dataclasses
import hashlib
import io
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.prompt import (
    MAX_HISTORY,
    Turn,
    build_messages,
    candidate_actions,
    format_reply,
    messages_to_prompt,
    parse_action,
)
from phoneworld_gym.contract import Action, UIElement, parse_ui_elements

#: What an unparsable reply becomes: a step that changes nothing.
NO_OP = Action("wait")


def _need_tree(obs: Mapping[str, Any]) -> Any:
    """The observation's accessibility tree (a ValueError naming it when it is missing)."""
    if "a11y" not in obs:
        raise ValueError("LMAgent reads the element list: it needs the a11y observation "
                         "(obs_mode 'all' or 'a11y')")
    return obs["a11y"]


def _remember(owner: Any, name: str, key: Any, make: Any, size: int = 64) -> Any:
    """``make()``, remembered on ``owner`` under ``key`` among its ``size`` most recent
    (``name``: which memo). A GRPO group plays one task instance many times, so its episodes
    meet the same screens and prompts again: their candidates, tries and token ids are
    computed once. What is remembered is shared: callers read it, never change it."""
    memo: collections.OrderedDict[Any, Any] = owner.__dict__.setdefault(
        name, collections.OrderedDict())
    if key in memo:
        memo.move_to_end(key)
        return memo[key]
    value = make()
    memo[key] = value
    while len(memo) > size:
        memo.popitem(last=False)
    return value


@dataclasses.dataclass
class Completion:
    """One generation: the prompt text and ids, the completion text and ids (the ids the
    model sampled, its end-of-text token included when it stopped on it)."""

    prompt: str
    prompt_ids: list[int]
    text: str
    token_ids: list[int]
    #: prompt tokens cut from the middle to fit the model's context (0 almost always)
    truncated: int = 0
    #: trie decoding only: for each completion token, the tokens the trie allowed at its
    #: place (the chosen one among them); the RL update renormalises over these
    allowed_ids: list[list[int]] | None = None
    #: whole-candidate decoding only: every candidate's token ids (end token included), the
    #: index of the one picked (``token_ids`` is that one) and each candidate's
    #: ``log p(candidate | prompt)``
    candidates: list[list[int]] | None = None
    choice: int = -1
    scores: list[float] | None = None
    #: trie decoding by sampling: each completion token's log-probability under the
    #: distribution it was drawn from (renormalised over the allowed tokens, at
    #: ``temperature``; 0 for a forced token): the RL update's old log-probabilities
    logprobs: list[float] | None = None
    temperature: float = 0.0


def _image_from_url(url: str) -> Any:
    """A PIL image from a ``data:image/...;base64,`` URL (the only kind read here: nothing is
    fetched over the network)."""
    from PIL import Image

    if not (isinstance(url, str) and url.startswith("data:image/") and ";base64," in url):
        raise ValueError(f"only data:image/...;base64 URLs are read, got {str(url)[:60]!r}")
    try:
        raw = base64.b64decode(url.split(",", 1)[1], validate=True)
        image = Image.open(io.BytesIO(raw))
        return image.convert("RGB")
    except Exception as e:  # binascii.Error, PIL's UnidentifiedImageError, ...
        raise ValueError(f"the image data URL does not hold a readable image: {e}") from None


def split_images(messages: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[Any]]:
    """OpenAI-style messages -> (messages with ``{"type": "image"}`` parts, the PIL images in
    order), the form ``transformers`` processors' chat templates read."""
    out: list[dict[str, Any]] = []
    images: list[Any] = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, list):
            parts: list[dict[str, Any]] = []
            for p in content:
                if isinstance(p, Mapping) and p.get("type") == "image_url":
                    images.append(_image_from_url((p.get("image_url") or {}).get("url", "")))
                    parts.append({"type": "image"})
                else:
                    parts.append(dict(p))
            out.append({**m, "content": parts})
        else:
            out.append({**m, "content": [{"type": "text", "text": content}]})
    return out, images


def _has_images(messages: Sequence[Mapping[str, Any]]) -> bool:
    return any(isinstance(m.get("content"), list)
               and any(isinstance(p, Mapping) and p.get("type") == "image_url"
                       for p in m["content"]) for m in messages)


class LocalModel:
    """A local causal LM (with its tokenizer) or VLM (with its processor) that completes chat
    messages. Shared by :class:`LMAgent`, the judge and the OpenAI-compatible server."""

    def __init__(self, model: Any, tokenizer: Any = None, *, processor: Any = None,
                 device: str = "cpu"):
        if tokenizer is None and processor is None:
            raise ValueError("LocalModel needs a tokenizer (causal LM) or a processor (VLM)")
        self.model = model.to(device)
        self.model.eval()
        self.processor = processor
        self.tokenizer = tokenizer if tokenizer is not None else processor.tokenizer
        self.device = device

    @property
    def is_vlm(self) -> bool:
        """Whether the model reads images (it was given a processor)."""
        return self.processor is not None

    @classmethod
    def load(cls, path: str | Path, *, device: str = "cpu", lora: Any = None,
             dtype: Any = None) -> LocalModel:
        """Load a local checkpoint (never the hub: the path must be a folder). A config with a
        ``vision_config`` loads as a VLM. ``lora`` is applied as :func:`apply_lora` does."""
        import transformers

        folder = Path(path)
        if not (folder / "config.json").is_file():
            raise ValueError(f"{str(path)!r} is not a local model folder (no config.json); "
                             "models are loaded from local paths only")
        config = transformers.AutoConfig.from_pretrained(folder, local_files_only=True)
        kw: dict[str, Any] = {"local_files_only": True}
        if dtype is not None:
            kw["dtype"] = dtype
        if getattr(config, "vision_config", None) is not None:
            processor = transformers.AutoProcessor.from_pretrained(folder, local_files_only=True)
            model = transformers.AutoModelForImageTextToText.from_pretrained(folder, **kw)
            return cls(apply_lora(model, lora), processor=processor, device=device)
        tokenizer = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
        model = transformers.AutoModelForCausalLM.from_pretrained(folder, **kw)
        return cls(apply_lora(model, lora), tokenizer, device=device)

    # -- prompts ------------------------------------------------------------------------
    @property
    def max_positions(self) -> int | None:
        """The model's context length, if its config says."""
        config = getattr(self.model, "config", None)
        config = getattr(config, "text_config", None) or config
        n = getattr(config, "max_position_embeddings", None)
        return int(n) if isinstance(n, int) else None

    def prompt_text(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """The text the model reads: its chat template applied (generation prompt added) if
        it has one, else :func:`~phoneworld_gym.baselines.prompt.messages_to_prompt`."""
        owner = self.processor if self.is_vlm else self.tokenizer
        if getattr(owner, "chat_template", None):
            msgs = split_images(messages)[0] if self.is_vlm else [
                {"role": m["role"], "content": _text_only(m)} for m in messages]
            return str(owner.apply_chat_template(msgs, tokenize=False,
                                                 add_generation_prompt=True))
        return messages_to_prompt(messages)

    def _encode(self, messages: Sequence[Mapping[str, Any]] | str, room: int
                ) -> tuple[str, dict[str, Any], int, list[Any]]:
        """The prompt text of ``messages`` (or a ready prompt string), its model inputs, how
        many tokens were cut, and its images. A text prompt that leaves fewer than ``room``
        positions of the model's context loses tokens from its middle: the head (a quarter
        of what is left) holds the instructions and the goal, the tail the screen and the cue
        the completion follows."""
        images: list[Any] = []
        if isinstance(messages, str):
            prompt = messages
        else:
            if _has_images(messages) and not self.is_vlm:
                raise ValueError("this model reads text only; the messages hold an image")
            prompt = self.prompt_text(messages)
            if self.is_vlm:
                images = split_images(messages)[1]
        if not self.is_vlm:  # text: the same prompt gives the same ids
            return _remember(self, "_encoded", (prompt, room),
                             lambda: self._encode_text(prompt, room))
        return self._encode_text(prompt, room, images)

    def _encode_text(self, prompt: str, room: int, images: list[Any] | None = None
                     ) -> tuple[str, dict[str, Any], int, list[Any]]:
        import torch

        images = images or []
        if self.is_vlm:
            inputs = dict(self.processor(text=[prompt], images=images or None,
                                         return_tensors="pt"))
        else:
            inputs = dict(self.tokenizer([prompt], return_tensors="pt",
                                         add_special_tokens=False))
        truncated = 0
        limit = self.max_positions
        n = int(inputs["input_ids"].shape[1])
        if limit is not None and not images and n + room > limit:
            truncated = n + room - limit
            head = max(0, limit - room) // 4
            inputs = {k: torch.cat([v[:, :head], v[:, head + truncated:]], dim=1)
                      for k, v in inputs.items()}
        return prompt, inputs, truncated, images

    # -- generation ---------------------------------------------------------------------
    def generate(self, messages: Sequence[Mapping[str, Any]] | str, *,
                 max_new_tokens: int = 96, temperature: float = 0.0,
                 seed: int | None = None, allowed: Sequence[str] | None = None
                 ) -> Completion:
        """Complete ``messages`` (or a ready prompt string). ``temperature`` 0 is greedy;
        otherwise sampling, seeded by ``seed`` when given. Images in the messages need a VLM
        (``ValueError`` otherwise). A prompt too long for the model's context loses tokens
        from its middle (the first quarter of the room is kept, then the end); ``truncated``
        says how many.

        ``allowed`` constrains the completion to one of these texts followed by the end
        token (a token trie masks every other token at each step); the model still picks
        which, token by token, greedily or by sampling."""
        import torch

        if max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {max_new_tokens}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        prompt, inputs, truncated, images = self._encode(messages, max_new_tokens)
        inputs = {k: v.to(self.device) for k, v in inputs.items()}
        kw: dict[str, Any] = {"max_new_tokens": max_new_tokens,
                              "pad_token_id": self.tokenizer.pad_token_id
                              if self.tokenizer.pad_token_id is not None
                              else self.tokenizer.eos_token_id}
        if temperature > 0:
            kw.update(do_sample=True, temperature=float(temperature), top_k=0, top_p=1.0)
        else:
            kw.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        if allowed is not None and not self.is_vlm and self.fast_trie:  # draws from its
            # own generator seeded by ``seed``: torch's global seed is left alone
            trie = self.token_trie(allowed)
            prompt_ids = inputs["input_ids"][0].tolist()
            logprobs: list[float] = []
            ids = self._trie_decode(inputs, trie, temperature, seed, logprobs)
            text = self.tokenizer.decode(ids, skip_special_tokens=True)
            allowed_ids = [trie[tuple(ids[:k])] for k in range(len(ids))]
            return Completion(prompt, prompt_ids, text, ids, truncated, allowed_ids,
                              logprobs=logprobs if temperature > 0 else None,
                              temperature=float(temperature))
        if allowed is not None:
            trie = self.token_trie(allowed)
            start = int(inputs["input_ids"].shape[1])
            eos_id = self.tokenizer.eos_token_id

            def allowed_tokens(batch_id: int, ids: Any) -> list[int]:
                return trie.get(tuple(ids[start:].tolist()), [eos_id])

            kw["prefix_allowed_tokens_fn"] = allowed_tokens
            kw["max_new_tokens"] = max(max_new_tokens, max(len(k) for k in trie) + 1)
        if temperature > 0 and seed is not None:  # generate samples from torch's global RNG
            torch.manual_seed(seed)
        with torch.no_grad():
            out = self.model.generate(**inputs, **kw)
        prompt_ids = inputs["input_ids"][0].tolist()
        ids = out[0, len(prompt_ids):].tolist()
        eos = self.tokenizer.eos_token_id
        if eos in ids:
            ids = ids[:ids.index(eos) + 1]
        text = self.tokenizer.decode(ids, skip_special_tokens=True)
        allowed_ids = None
        if allowed is not None:
            allowed_ids = [trie.get(tuple(ids[:k]), [eos_id]) for k in range(len(ids))]
        return Completion(prompt, prompt_ids, text, ids, truncated, allowed_ids)


    def _trie_decode(self, inputs: Mapping[str, Any], trie: Mapping[tuple[int, ...], list[int]],
                     temperature: float, seed: int | None,
                     logprobs: list[float] | None = None) -> list[int]:
        """Token-by-token decoding through ``trie`` with a key/value cache, where a run of
        forced tokens (one allowed token at each place: the JSON around a choice, the rest
        of a name) is appended in one forward pass instead of being generated one by one.
        At a branch the model's next-token distribution, renormalised over the allowed
        tokens (at ``temperature``), gives the token: the argmax when greedy, else a draw
        seeded by ``seed``. The distribution is that of ``generate`` with the trie as
        ``prefix_allowed_tokens_fn``; the forward passes are one per branch. ``logprobs``,
        when given, receives each token's log-probability under that distribution (0 for a
        forced token; at temperature 0, of the renormalised softmax at temperature 1)."""
        import torch

        from phoneworld_gym.baselines.scoring import (
            _cache_kw,
            _cache_of,
            cache_restore,
            cache_snapshot,
        )

        eos = self.tokenizer.eos_token_id
        gen = torch.Generator().manual_seed(int(seed)) if (
            seed is not None and temperature > 0) else None
        with torch.no_grad():
            out, past = self._prompt_pass(inputs)
            logits = out.logits[0, -1]
            done: list[int] = []
            width = int(inputs["input_ids"].shape[1])
            key = _cache_kw(self.model)
            # a branch's pass is remembered like the prompt's: a group's episodes that meet
            # one screen often take its first branches alike ("click", then the same row)
            memo = self.__dict__.get("_memo") if self.prompt_cache and \
                inputs["input_ids"].shape[0] == 1 and len(inputs) <= 2 else None
            row = tuple(inputs["input_ids"][0].tolist()) if memo is not None else ()
            while True:
                options = trie.get(tuple(done), [eos])
                if len(options) == 1:
                    tok = options[0]
                    if logprobs is not None:
                        logprobs.append(0.0)
                else:
                    sub = logits[torch.as_tensor(options, device=logits.device)].float()
                    if temperature > 0:
                        probs = torch.softmax(sub / temperature, dim=0).cpu()
                        k = int(torch.multinomial(probs, 1, generator=gen))
                    else:
                        k = int(torch.argmax(sub))
                    tok = options[k]
                    if logprobs is not None:
                        logprobs.append(float(torch.log_softmax(
                            sub / (temperature or 1.0), dim=0)[k]))
                run = [tok]
                while tok != eos:  # the forced tokens after it go in with it
                    nxt = trie.get(tuple(done + run), [eos])
                    if len(nxt) != 1:
                        break
                    tok = nxt[0]
                    run.append(tok)
                    if logprobs is not None:
                        logprobs.append(0.0)
                done += run
                if done[-1] == eos:
                    return done
                feed = torch.as_tensor([run], dtype=torch.long, device=self.device)
                width += len(run)
                branch = (row, tuple(done))
                if memo is not None and branch in memo:
                    memo.move_to_end(branch)
                    logits, kept, _ = memo[branch]
                    past = cache_restore(kept)
                    continue
                out = self.model(input_ids=feed, use_cache=True, **self._last_only(),
                                 attention_mask=torch.ones((1, width), dtype=torch.long,
                                                           device=self.device),
                                 **{key: past})
                past = _cache_of(out)
                logits = out.logits[0, -1]
                if memo is not None:
                    self._keep(memo, branch, logits, cache_snapshot(past))

    #: token-by-token trie decoding appends forced runs in one pass (False: through
    #: ``model.generate``, one pass per token, as before; kept for the rollout benchmark)
    fast_trie = True
    #: the prompt's head every step shares (the system message) is run once and its
    #: key/value cache reused (False: every prompt from its first token)
    prefix_cache = True
    #: how many recent passes of trie decoding (a prompt's, or a branch's after it) keep
    #: their output and key/value cache: a GRPO group plays one task instance G times, so
    #: its episodes often meet the same prompt (always at the first step) and take its
    #: first branches alike. Each entry holds a prompt's whole cache (layers x 2 x tokens x
    #: width values): lower it, or 0, for a large model
    prompt_cache = 48
    #: ... and at most this many bytes of key/value cache in all (the oldest go first):
    #: 48 passes of a 1.5B model's 1,000-token prompts would hold about 1.4 GB
    prompt_cache_bytes = 512 * 2 ** 20

    def _prompt_pass(self, inputs: Mapping[str, Any]) -> tuple[Any, Any]:
        """The forward pass over a prompt with its key/value cache: ``(output, cache)``.
        With ``prefix_cache``, the longest head the prompt shares with the first prompt seen
        (cut at a line end: the system message) is run once per model and its cache copied
        for each prompt; only the rest is run here."""
        from phoneworld_gym.baselines.scoring import _cache_of, cache_restore, cache_snapshot

        ids = inputs["input_ids"]
        extra = {k: v for k, v in inputs.items() if k not in ("input_ids", "attention_mask")}
        if extra or ids.shape[0] != 1:
            out = self.model(**inputs, use_cache=True, **self._last_only())
            return out, _cache_of(out)
        row = ids[0].tolist()
        version = self._weights_version()
        if self.__dict__.get("_version") != version:  # trained since: nothing cached holds
            self._version = version
            self.__dict__.pop("_head", None)
            self.__dict__.pop("_memo", None)
        memo: collections.OrderedDict[tuple[int, ...], tuple[Any, Any]] = \
            self.__dict__.setdefault("_memo", collections.OrderedDict())
        key = tuple(row)
        if self.prompt_cache and key in memo:  # a group's episodes often see one screen
            memo.move_to_end(key)
            out, cache, _ = memo[key]
            return out, cache_restore(cache)
        out, cache = self._prompt_pass_uncached(inputs, row)
        out = types.SimpleNamespace(logits=out.logits[:, -1:])  # all decoding reads
        if self.prompt_cache:
            self._keep(memo, key, out, cache_snapshot(cache))
        return out, cache

    def _keep(self, memo: collections.OrderedDict[Any, Any], key: Any, out: Any,
              snap: Any) -> None:
        """Remember a pass (its output and cache snapshot) in ``memo``, forgetting the
        oldest beyond ``prompt_cache`` passes or ``prompt_cache_bytes`` of cache."""
        from phoneworld_gym.baselines.scoring import snapshot_bytes

        memo[key] = (out, snap, snapshot_bytes(snap))
        total = sum(v[2] for v in memo.values())
        while memo and (len(memo) > self.prompt_cache or total > self.prompt_cache_bytes):
            total -= memo.popitem(last=False)[1][2]

    def _last_only(self) -> dict[str, int]:
        """``{"logits_to_keep": 1}`` where the model's forward takes it (transformers' causal
        LMs do): trie decoding reads only the last position's logits, and the vocabulary
        projection of every prompt position is a fifth to a third of a small model's pass."""
        from phoneworld_gym.baselines.scoring import takes_argument

        return {"logits_to_keep": 1} if takes_argument(self.model, "logits_to_keep") else {}

    def _weights_version(self) -> tuple[int, ...]:
        """Changes whenever the weights are changed in place (an optimiser step): torch's
        version counters of the first and last parameters."""
        params = list(self.model.parameters())
        return (id(self.model), params[0]._version, params[-1]._version) if params else ()

    def _prompt_pass_uncached(self, inputs: Mapping[str, Any], row: list[int]
                              ) -> tuple[Any, Any]:

        import torch

        from phoneworld_gym.baselines.scoring import (
            _cache_kw,
            _cache_of,
            cache_restore,
            cache_snapshot,
        )

        ids = inputs["input_ids"]
        if not self.prefix_cache:
            out = self.model(**inputs, use_cache=True, **self._last_only())
            return out, _cache_of(out)
        head = self.__dict__.get("_head")
        if head is None:
            marker = self.tokenizer("<|user|>", add_special_tokens=False)["input_ids"]
            cut = _find(row, marker)
            if cut <= 0:  # no system message before the user's: nothing shared to keep
                out = self.model(**inputs, use_cache=True, **self._last_only())
                return out, _cache_of(out)
            with torch.no_grad():
                first = self.model(input_ids=ids[:, :cut], use_cache=True, **self._last_only())
            head = self._head = (row[:cut], cache_snapshot(_cache_of(first)))
        head_ids, head_cache = head
        n = len(head_ids)
        if len(row) <= n or row[:n] != head_ids:
            out = self.model(**inputs, use_cache=True, **self._last_only())
            return out, _cache_of(out)
        past = cache_restore(head_cache)
        out = self.model(input_ids=ids[:, n:], use_cache=True, **self._last_only(),
                         attention_mask=torch.ones_like(ids), **{_cache_kw(self.model): past})
        return out, _cache_of(out)

    def candidate_ids(self, text: str) -> list[int]:
        """A candidate completion's token ids with the end token (remembered per text)."""
        cache: dict[str, list[int]] = self.__dict__.setdefault("_candidate_ids", {})
        ids = cache.get(text)
        if ids is None:
            ids = list(self.tokenizer(text, add_special_tokens=False)["input_ids"])
            ids.append(self.tokenizer.eos_token_id)
            if len(cache) < 200_000:
                cache[text] = ids
        return ids

    def choose(self, messages: Sequence[Mapping[str, Any]] | str, candidates: Sequence[str],
               *, temperature: float = 0.0, seed: int | None = None,
               scoring: str = "whole") -> Completion:
        """Pick one of ``candidates`` as the completion of ``messages``, each scored as a
        whole (:func:`~phoneworld_gym.baselines.scoring.candidate_logprobs`: one pass over
        the prompt, one batched pass over the candidates): the best one when
        ``temperature`` is 0, else a draw from ``softmax(score / temperature)`` (seeded by
        ``seed``). ``scoring`` is :func:`~phoneworld_gym.baselines.scoring.
        candidate_logprobs`'s ``mode``. The prompt is cut from the middle like
        :meth:`generate`'s when it does not leave room for the longest candidate."""
        import torch

        from phoneworld_gym.baselines.scoring import candidate_logprobs

        if not candidates:
            raise ValueError("choose needs at least one candidate")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        cand_ids = [self.candidate_ids(c) for c in candidates]
        prompt, inputs, truncated, _ = self._encode(messages, max(len(c) for c in cand_ids))
        prompt_ids = inputs["input_ids"][0].tolist()
        extra = {k: v.to(self.device) for k, v in inputs.items()
                 if k not in ("input_ids", "attention_mask")}
        with torch.no_grad():
            scores = candidate_logprobs(self.model, prompt_ids, cand_ids,
                                        inputs=extra, mode=scoring).cpu()
        if temperature == 0:
            pick = int(torch.argmax(scores))
        else:
            gen = torch.Generator().manual_seed(int(seed)) if seed is not None else None
            probs = torch.softmax(scores.double() / temperature, dim=0)
            pick = int(torch.multinomial(probs, 1, generator=gen))
        return Completion(prompt, prompt_ids, str(candidates[pick]), list(cand_ids[pick]),
                          truncated, None, cand_ids, pick, scores.tolist())

    def token_trie(self, texts: Sequence[str]) -> dict[tuple[int, ...], list[int]]:
        """For constrained decoding: each token prefix of ``texts`` (each followed by the end
        token) -> the tokens that may follow it."""
        if not texts:
            raise ValueError("allowed must hold at least one completion text")
        return _remember(self, "_tries", tuple(texts), lambda: self._build_trie(texts))

    def _build_trie(self, texts: Sequence[str]) -> dict[tuple[int, ...], list[int]]:
        nexts: dict[tuple[int, ...], set[int]] = {}
        for text in texts:
            ids = self.candidate_ids(text)  # remembered per text: screens repeat actions
            for k in range(len(ids)):
                nexts.setdefault(tuple(ids[:k]), set()).add(ids[k])
        return {k: sorted(v) for k, v in nexts.items()}


def _find(row: Sequence[int], marker: Sequence[int]) -> int:
    """The index where ``marker`` first occurs in ``row`` (-1: nowhere)."""
    m = len(marker)
    if not m:
        return -1
    for i in range(len(row) - m + 1):
        if list(row[i:i + m]) == list(marker):
            return i
    return -1


def _text_only(message: Mapping[str, Any]) -> str:
    from phoneworld_gym.baselines.prompt import message_text

    return message_text(message)


def apply_lora(model: Any, lora: Any) -> Any:
    """``lora`` None: the model as is; a mapping: the model wrapped with a new LoRA adapter
    (``peft.LoraConfig(task_type="CAUSAL_LM", **lora)``); a path: a saved adapter loaded on
    it (trainable, so training can go on)."""
    if lora is None:
        return model
    import peft

    if isinstance(lora, Mapping):
        try:
            config = peft.LoraConfig(task_type="CAUSAL_LM", **dict(lora))
        except TypeError as e:
            raise ValueError(f"lora holds a field LoraConfig does not take: {e}") from None
        return peft.get_peft_model(model, config)
    if isinstance(lora, (str, Path)):
        if not (Path(lora) / "adapter_config.json").is_file():
            raise ValueError(f"{str(lora)!r} is not a saved LoRA adapter "
                             "(no adapter_config.json)")
        return peft.PeftModel.from_pretrained(model, str(lora), is_trainable=True)
    raise ValueError(f"lora must be None, a dict of LoraConfig fields or an adapter path, "
                     f"got {type(lora).__name__}")


def launcher_apps() -> list[str]:
    """The labels of PhoneWorld's launcher apps (what ``open_app`` names)."""
    import phoneworld_gym

    return [a.label for a in phoneworld_gym.list_apps() if a.kind == "app"]


class LMAgent:
    """A language-model agent: prompt from goal, history and screen; generate; parse.

    Args:
        model_path_or_objects: a local model folder, a :class:`LocalModel`, or a tuple
            ``(model, tokenizer)``.
        max_new_tokens: the longest reply.
        temperature: 0 for greedy decoding, else sampling at this temperature.
        device: where the model runs (``"cpu"``, ``"cuda"``).
        lora: None, a dict of ``peft.LoraConfig`` fields (a new adapter), or an adapter path.
        screenshots: give the model the screenshot too (VLMs only).
        max_history: how many previous actions the prompt shows.
        seed: seeds sampling (each step draws from ``seed`` and the step's number).
        constrained: let the model write only one of the screen's candidate actions
            (:func:`~phoneworld_gym.baselines.prompt.candidate_actions`), so every reply is
            a valid action; off (False), the reply is free text parsed afterwards. True (or
            ``"trie"``) decodes token by token through a trie of the candidates, a forward
            pass per branch (forced runs appended at once); ``"whole"`` scores every
            candidate as a whole (:meth:`LocalModel.choose`, by ``scoring``) and picks by
            those scores. The trie lets a model that copies a name imperfectly still type
            it (the name's later tokens are forced, so they cost nothing), but has a prefix
            trap (a first digit may leave only a bare number); whole scores have no trap
            but price every token (see :mod:`~phoneworld_gym.baselines.scoring`; measured
            in docs/results.md, Learning check).
        scoring: with ``constrained="whole"``, how a candidate's tokens make its score:
            ``"whole"``, ``"branch"`` or ``"trie"``
            (:func:`~phoneworld_gym.baselines.scoring.candidate_logprobs`).
        apps: the app names a constrained ``open_app`` may name (default: PhoneWorld's
            launcher apps).
        named: write an element's name before its index (:func:`~phoneworld_gym.baselines.
            prompt.format_reply`): under the trie, choosing an element becomes copying its
            name from the goal or the screen. Constrained decoding only; the model must have
            been trained on named replies (``sft_examples(..., named=True)``).
    """

    name = "lm"

    def __init__(self, model_path_or_objects: str | Path | LocalModel | tuple[Any, Any], *,
                 max_new_tokens: int = 96, temperature: float = 0.0, device: str = "cpu",
                 lora: Any = None, screenshots: bool = False,
                 max_history: int = MAX_HISTORY, seed: int | None = 0,
                 constrained: bool | str = False, apps: Sequence[str] | None = None,
                 scoring: str = "whole", named: bool = False):
        src = model_path_or_objects
        if isinstance(src, LocalModel):
            if lora is not None:
                src.model = apply_lora(src.model, lora)
            self.lm = src
        elif isinstance(src, (str, Path)):
            self.lm = LocalModel.load(src, device=device, lora=lora)
        elif isinstance(src, tuple) and len(src) == 2:
            self.lm = LocalModel(apply_lora(src[0], lora), src[1], device=device)
        else:
            raise ValueError("model_path_or_objects must be a local path, a LocalModel or a "
                             f"(model, tokenizer) tuple, got {type(src).__name__}")
        if screenshots and not self.lm.is_vlm:
            raise ValueError("screenshots=True needs a VLM; this model reads text only")
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.screenshots = screenshots
        self.max_history = max_history
        self.seed = seed
        if constrained not in (False, True, "whole", "trie"):
            raise ValueError(f"constrained must be False, True, 'trie' or 'whole', got "
                             f"{constrained!r}")
        #: "" (free replies), "trie" (token by token through the candidates' trie) or
        #: "whole" (each candidate scored as a whole)
        self.decoding = "" if constrained is False else (
            "trie" if constrained is True else str(constrained))
        self.constrained = bool(self.decoding)
        if named and not self.constrained:
            raise ValueError("named=True names elements in the constrained decoder's "
                             "candidates: it needs constrained=True (or 'whole')")
        #: whether replies name their element before its index
        self.named = bool(named)
        from phoneworld_gym.baselines.scoring import MODES

        if scoring not in MODES:
            raise ValueError(f"scoring must be one of {MODES}, got {scoring!r}")
        #: how whole-candidate decoding scores a candidate (see ``candidate_logprobs``)
        self.scoring = scoring
        self.apps = list(apps) if apps is not None else launcher_apps()
        self.goal = ""
        self.history: list[Turn] = []
        #: the last step: prompt, prompt_ids, completion, completion_ids, action, parsed
        self.last: dict[str, Any] = {}
        #: counts over the agent's life: steps, unparsable replies, truncated prompts
        self.stats: dict[str, int] = {"steps": 0, "unparsable": 0, "truncated": 0}

    @property
    def model(self) -> Any:
        return self.lm.model

    @property
    def tokenizer(self) -> Any:
        return self.lm.tokenizer

    def reset(self, goal: str) -> None:
        """Start an episode: forget the history."""
        self.goal = goal
        self.history = []
        self.last = {}

    def messages(self, obs: Mapping[str, Any], elements: Sequence[UIElement] | None = None
                 ) -> list[dict[str, Any]]:
        """The chat messages of this step (``elements``: the observation's tree, already
        parsed)."""
        _need_tree(obs)
        shot = obs.get("screenshot") if self.screenshots else None
        if self.screenshots and shot is None:
            raise ValueError("screenshots=True needs the screenshot observation")
        goal = self.goal or str(obs.get("goal", ""))
        tree = obs["a11y"] if elements is None else elements
        return build_messages(goal, tree, self.history, screenshot=shot,
                              max_history=self.max_history)

    def policy_inputs(self, obs: Mapping[str, Any]) -> str:
        """The exact prompt text the model reads at this step (for SFT and RL)."""
        return self.lm.prompt_text(self.messages(obs))

    def _step_seed(self) -> int | None:
        if self.seed is None or self.temperature == 0:
            return None
        key = f"{self.seed}/{self.stats['steps']}".encode()
        return int.from_bytes(hashlib.sha256(key).digest()[:4], "little")

    def act(self, obs: Mapping[str, Any]) -> Action:
        """Generate, parse, and remember the step; an unparsable reply is a ``wait``."""
        allowed = None
        elements = None
        if self.constrained:  # the tree is parsed once, for the candidates and the prompt
            tree = _need_tree(obs)
            goal = self.goal or str(obs.get("goal", ""))

            def screen() -> tuple[list[UIElement], list[str]]:
                parsed = parse_ui_elements(tree)
                return parsed, [format_reply(a, parsed, named=self.named) for a in
                                candidate_actions(goal, parsed, apps=self.apps)]

            if isinstance(tree, str):  # a screen met again: its elements and candidates
                elements, allowed = _remember(
                    self, "_screens", (goal, tree, self.named, tuple(self.apps)), screen)
            else:
                elements, allowed = screen()
        if self.decoding == "whole" and allowed is not None:
            done = self.lm.choose(self.messages(obs, elements), allowed,
                                  temperature=self.temperature, seed=self._step_seed(),
                                  scoring=self.scoring)
        else:
            done = self.lm.generate(self.messages(obs, elements),
                                    max_new_tokens=self.max_new_tokens,
                                    temperature=self.temperature, seed=self._step_seed(),
                                    allowed=allowed)
        action = parse_action(done.text)
        parsed = action is not None
        self.stats["steps"] += 1
        self.stats["unparsable"] += not parsed
        self.stats["truncated"] += bool(done.truncated)
        self.last = {"prompt": done.prompt, "prompt_ids": done.prompt_ids,
                     "completion": done.text, "completion_ids": done.token_ids,
                     "allowed_ids": done.allowed_ids, "candidates": done.candidates,
                     "choice": done.choice,
                     "completion_logprobs": done.logprobs, "temperature": done.temperature,
                     "scoring": self.scoring if done.candidates else "",
                     "action": action if parsed else NO_OP, "parsed": parsed}
        self.history.append(Turn(action, "", done.text))
        return action if action is not None else NO_OP

    def observe(self, info: Mapping[str, Any]) -> None:
        """Tell the agent what the env said about its last action (``info`` of ``step``): its
        ``action_error`` shows in the next prompt's history."""
        error = str(info.get("action_error") or "")
        if self.history and error:
            self.history[-1] = dataclasses.replace(self.history[-1], error=error)

    def save_adapter(self, path: str | Path) -> Path:
        """Save the LoRA adapter (``ValueError`` if the model has none)."""
        if not hasattr(self.model, "peft_config"):
            raise ValueError("this agent's model has no LoRA adapter to save")
        self.model.save_pretrained(str(path))
        return Path(path)


class LocalChat:
    """A local model as a chat backend: ``complete(messages) -> reply text`` (what the judge
    and the OpenAI-compatible server call)."""

    def __init__(self, lm: LocalModel | LMAgent | str | Path, *, max_new_tokens: int = 96,
                 temperature: float = 0.0, seed: int | None = 0):
        if isinstance(lm, LMAgent):
            lm = lm.lm
        elif isinstance(lm, (str, Path)):
            lm = LocalModel.load(lm)
        if not isinstance(lm, LocalModel):
            raise ValueError(f"LocalChat needs a LocalModel, an LMAgent or a model path, got "
                             f"{type(lm).__name__}")
        self.lm = lm
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.seed = seed
        #: the last generation (prompt and completion, text and ids)
        self.last: Completion | None = None

    def complete(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """The model's reply to ``messages``."""
        self.last = self.lm.generate(messages, max_new_tokens=self.max_new_tokens,
                                     temperature=self.temperature, seed=self.seed)
        return self.last.text
