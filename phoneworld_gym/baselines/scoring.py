"""Whole-candidate scoring: the log-probability a causal LM gives each of a set of completions
of one prompt, computed with one forward pass over the prompt and one batched pass over the
candidates (the prompt's key/value cache shared among them).

This is a constrained decoder of :class:`~phoneworld_gym.baselines.lm_agent.LMAgent`
(``constrained="whole"``): the screen's candidate actions are scored as whole sequences
(``log p(candidate | prompt)``, the sum of its tokens' log-probabilities, end token included)
and one is picked from ``softmax(score / temperature)``, or the best one when greedy. Decoding
token by token through a trie instead (``constrained="trie"``) has a trap: once the model's
first token is a digit, the trie may only allow it to continue as a bare number ("5" of the
answers 0-30) even when the model meant a time ("5:30 AM") that is not on this screen, so a
reply the model would never choose as a whole is forced on it. Scored as wholes, "5"
followed by the end of the answer is as unlikely as the model makes it.

The same function gives the RL update its gradient: the policy over one step's candidates is
``log_softmax(scores / temperature)``, exact and normalised over exactly the actions the
decoder could pick, so the ratio, the clip and the KL are over the decision the agent made,
with no forced tokens in them.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
from collections.abc import Mapping, Sequence
from typing import Any

import torch


def takes_argument(model: Any, name: str) -> bool:
    """Whether ``model``'s forward names the argument ``name`` (``logits_to_keep``,
    ``cache``: what differs between transformers versions and wrappers)."""
    try:
        return name in inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        return False


def _cache_kw(model: Any) -> str:
    """The name the model's forward takes its key/value cache under (``cache`` in newer
    transformers, ``past_key_values`` before)."""
    return "cache" if takes_argument(model, "cache") else "past_key_values"


def _cache_of(out: Any) -> Any:
    cache = getattr(out, "cache", None)
    return cache if cache is not None else getattr(out, "past_key_values", None)


def _layers(past: Any) -> list[Any] | None:
    """The cache's per-layer objects with ``keys``/``values`` tensors (transformers' dynamic
    cache), or None when the cache is of another kind."""
    layers = getattr(past, "layers", None)
    if not layers or not all(hasattr(lay, "keys") and hasattr(lay, "values")
                             for lay in layers):
        return None
    if not all(isinstance(lay.keys, torch.Tensor) for lay in layers):
        return None
    return list(layers)


def cache_snapshot(cache: Any) -> Any:
    """A key/value cache as it is now, to start later passes from (:func:`cache_restore`)
    however the cache grows meanwhile. Transformers' dynamic layers grow by concatenation
    (new tensors, the old ones untouched), so a snapshot of such a cache keeps its layers'
    tensors, not copies of them; any other kind is deep-copied."""
    layers = getattr(cache, "layers", None)
    if layers and all(type(lay).__name__ == "DynamicLayer" for lay in layers):
        return _Snapshot(cache, [copy.copy(lay) for lay in layers])
    return _Snapshot(copy.deepcopy(cache), None)


def cache_restore(snap: Any) -> Any:
    """A fresh cache holding what ``snap`` (:func:`cache_snapshot`) held: passes on it leave
    the snapshot as it is."""
    if snap.layers is None:
        return copy.deepcopy(snap.cache)
    fresh = copy.copy(snap.cache)
    fresh.layers = [copy.copy(lay) for lay in snap.layers]
    return fresh


def snapshot_bytes(snap: Any) -> int:
    """How many bytes of key/value tensors a :func:`cache_snapshot` holds (0 when it cannot
    tell)."""
    layers = snap.layers if snap.layers is not None else _layers(snap.cache)
    total = 0
    for lay in layers or []:
        for t in (getattr(lay, "keys", None), getattr(lay, "values", None)):
            if isinstance(t, torch.Tensor):
                total += t.numel() * t.element_size()
    return total


@dataclasses.dataclass
class _Snapshot:
    cache: Any
    layers: list[Any] | None


#: how a candidate's score is formed from its tokens' log-probabilities
MODES = ("whole", "branch", "trie")


def _allowed_table(candidates: Sequence[Sequence[int]]
                   ) -> tuple[dict[tuple[int, ...], list[int]], int]:
    """The candidates' token trie: prefix -> the tokens that follow it in some candidate,
    and the largest such set."""
    children: dict[tuple[int, ...], list[int]] = {}
    for c in candidates:
        for k in range(len(c)):
            nxt = children.setdefault(tuple(c[:k]), [])
            if c[k] not in nxt:
                nxt.append(int(c[k]))
    return children, max(len(v) for v in children.values())


def candidate_logprobs(model: Any, prompt_ids: Sequence[int] | torch.Tensor,
                       candidates: Sequence[Sequence[int]], *, chunk: int = 64,
                       inputs: Mapping[str, Any] | None = None,
                       mode: str = "whole") -> torch.Tensor:
    """``out[i] = log p(candidates[i] | prompt)`` (natural log, temperature 1), a ``[N]``
    float tensor on the model's device, with gradients when autograd is on.

    ``prompt_ids`` is the prompt's token ids (1-d); each candidate is a non-empty list of
    token ids (its end token included when it should end there). ``inputs`` adds model
    inputs for the prompt pass (a VLM's ``pixel_values``). Candidates are scored ``chunk`` at
    a time against the prompt's key/value cache; a model whose cache is not transformers'
    dynamic kind is scored by full passes over prompt + candidate instead (same numbers,
    slower).

    ``mode`` says how a candidate's tokens make its score:

    - ``"whole"``: ``log p(candidate | prompt)``, each token over the whole vocabulary;
    - ``"trie"``: each token's probability renormalised over the tokens that continue some
      candidate at that place (the candidates' trie), so forced tokens cost nothing: the
      softmax of these scores at temperature 1 is exactly the distribution of token-by-token
      decoding through the trie, computed in one batched pass (with its prefix trap);
    - ``"branch"``: renormalised where candidates branch (two or more tokens may follow),
      over the whole vocabulary where one token is forced: choosing among the candidates is
      judged at the branch, but a forced continuation the model would not write (the end of
      a bare "5" when it meant "5:30 AM") still costs what the model says it costs."""
    if not candidates:
        raise ValueError("no candidates to score")
    if any(len(c) == 0 for c in candidates):
        raise ValueError("a candidate has no tokens")
    if chunk < 1:
        raise ValueError(f"chunk must be >= 1, got {chunk}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    children, widest = _allowed_table(candidates) if mode != "whole" else ({}, 0)
    dev = next(model.parameters()).device
    prompt = torch.as_tensor(prompt_ids, dtype=torch.long, device=dev).reshape(1, -1)
    if prompt.shape[1] == 0:
        raise ValueError("the prompt has no tokens")
    extra = dict(inputs or {})
    out = model(input_ids=prompt, attention_mask=torch.ones_like(prompt), use_cache=True,
                **extra)
    first = torch.log_softmax(out.logits[0, -1].float(), dim=-1)  # predicts token 0
    past = _cache_of(out)
    layers = _layers(past)
    saved = [(lay.keys, lay.values) for lay in layers] if layers is not None else None
    width = max(len(c) for c in candidates)
    scores: list[torch.Tensor] = []
    for start in range(0, len(candidates), chunk):
        group = candidates[start:start + chunk]
        n = len(group)
        ids = torch.zeros((n, width), dtype=torch.long, device=dev)
        mask = torch.zeros((n, width), dtype=torch.bool, device=dev)
        for i, c in enumerate(group):
            ids[i, :len(c)] = torch.as_tensor(list(c), dtype=torch.long)
            mask[i, :len(c)] = True
        total = first.gather(0, ids[:, 0])  # [n]
        if mode != "whole":  # the first token's normaliser: the same set for every row
            root = children[()]
            if mode == "trie" or len(root) > 1:
                total = total - torch.logsumexp(
                    first[torch.as_tensor(root, dtype=torch.long, device=dev)], dim=0)
        if width > 1:
            rest = ids[:, :-1]
            if layers is not None and saved is not None:
                for lay, (k, v) in zip(layers, saved):
                    lay.keys = k.expand(n, *k.shape[1:])
                    lay.values = v.expand(n, *v.shape[1:])
                attn = torch.ones((n, prompt.shape[1] + rest.shape[1]), dtype=torch.long,
                                  device=dev)
                logits = model(input_ids=rest, attention_mask=attn, use_cache=True,
                               **{_cache_kw(model): past}).logits
            else:  # no reusable cache: whole sequences (the prompt repeated per candidate)
                full = torch.cat([prompt.expand(n, -1), rest], dim=1)
                logits = model(input_ids=full, attention_mask=torch.ones_like(full),
                               **extra).logits[:, prompt.shape[1]:]
            logp = torch.log_softmax(logits.float(), dim=-1)
            picked = logp.gather(-1, ids[:, 1:, None]).squeeze(-1)  # [n, width - 1]
            if mode != "whole":
                picked = picked - _normalisers(logp, group, children, widest, mode, dev)
            total = total + (picked * mask[:, 1:]).sum(dim=1)
        scores.append(total)
    if layers is not None and saved is not None:
        for lay, (k, v) in zip(layers, saved):
            lay.keys, lay.values = k, v
    return torch.cat(scores)


def _normalisers(logp: torch.Tensor, group: Sequence[Sequence[int]],
                 children: Mapping[tuple[int, ...], list[int]], widest: int, mode: str,
                 dev: Any) -> torch.Tensor:
    """Per row and place (tokens 1..), ``logsumexp`` of ``logp`` over the tokens the trie
    allows there (0 where nothing is renormalised: padding, or a forced token in
    ``"branch"`` mode)."""
    n, places = logp.shape[0], logp.shape[1]
    allowed = torch.zeros((n, places, widest), dtype=torch.long, device=dev)
    use = torch.zeros((n, places, widest), dtype=torch.bool, device=dev)
    for i, c in enumerate(group):
        for k in range(1, len(c)):
            nxt = children[tuple(c[:k])]
            if mode == "branch" and len(nxt) == 1:
                continue
            allowed[i, k - 1, :len(nxt)] = torch.as_tensor(nxt, dtype=torch.long)
            use[i, k - 1, :len(nxt)] = True
    vals = logp.gather(-1, allowed).masked_fill(~use, float("-inf"))
    norm = torch.logsumexp(vals, dim=-1)
    return torch.where(use.any(-1), norm, torch.zeros_like(norm))


def candidate_policy(scores: torch.Tensor, temperature: float) -> torch.Tensor:
    """The log-probabilities of picking each candidate: ``log_softmax(scores / temperature)``
    (temperature > 0; greedy decoding takes the argmax of ``scores`` instead)."""
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0 for a distribution, got {temperature}")
    return torch.log_softmax(scores.float() / temperature, dim=0)
