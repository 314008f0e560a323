"""Online RL for the language-model agent: group-relative policy gradient over multi-turn
episodes, from verifiable (or judged) episode rewards.

The loop, for each update:

1. draw task instances (source, task, seed) from a :class:`~phoneworld_gym.baselines.sampler.
   TaskSampler`;
2. play ``group_size`` episodes of each instance with the sampling policy (same task, same
   seed, so the group differs only by the policy's choices);
3. score each episode (the env's verifier, or a judge), and normalise the scores within the
   group: ``A = (r - mean) / (std + eps)`` (all equal -> all zero: no signal, dropped).
   With ``max_draws`` set (dynamic sampling, as in DAPO), steps 1-3 repeat, one instance at a
   time, until ``tasks_per_update`` groups have a reward spread or ``max_draws`` instances
   have been played: a group the policy always (or never) solves teaches nothing, so the
   update's budget goes to the instances it sometimes solves;
4. every step of an episode is one sample, prompt -> completion, sharing the episode's
   advantage; the loss is PPO's clipped surrogate on the completion (action) tokens only,
   with an optional KL penalty to a frozen reference (the SFT model), averaged over tokens.

Why not TRL's ``GRPOTrainer``: in trl 1.16 its multi-turn path (``environment_factory``)
turns an environment's methods into *tools* called inside one growing chat completion, which
needs a tool-calling chat template and appends every observation to one context; and
``rollout_func`` returns one completion per prompt. Here each step has its own fresh prompt
(goal, history, current screen) and an episode is many prompt -> completion pairs sharing one
reward, which neither fits, so this is a compact loop of our own in torch.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import torch

from phoneworld_gym.baselines.scoring import takes_argument


# -- the math -------------------------------------------------------------------------------
def group_advantages(rewards: Sequence[float], eps: float = 1e-4) -> list[float]:
    """Rewards normalised within one group: ``(r - mean) / (std + eps)``, with the population
    standard deviation. A group whose rewards are all equal gets all zeros (nothing to prefer).
    """
    r = np.asarray(rewards, dtype=np.float64)
    if r.ndim != 1 or r.size == 0:
        raise ValueError(f"rewards must be a non-empty 1-d sequence, got shape {r.shape}")
    if not np.isfinite(r).all():
        raise ValueError(f"rewards must be finite, got {list(rewards)}")
    std = r.std()
    if std < 1e-12:
        return [0.0] * r.size
    return [float(x) for x in (r - r.mean()) / (std + eps)]


@dataclasses.dataclass
class StepSample:
    """One step of an episode as a training sample: the prompt's and the completion's token
    ids (the completion is what the policy generated, the action text plus end token), and the
    advantage of the episode it belongs to."""

    prompt_ids: list[int]
    completion_ids: list[int]
    advantage: float
    old_logprobs: list[float] | None = None
    ref_logprobs: list[float] | None = None
    #: per completion token, the tokens trie decoding allowed there (None: any token)
    allowed: list[list[int]] | None = None
    #: whole-candidate decoding: every candidate of the step (token ids, end token
    #: included) and the index of the one taken (``completion_ids`` is that one); the
    #: update's policy is then the softmax over these candidates' scores
    candidates: list[list[int]] | None = None
    choice: int = -1
    #: the group (task instance) the sample's episode belongs to: minibatches hold whole
    #: groups, so a group's advantages (which sum to zero) meet in one optimiser step
    group: int = -1
    #: whole-candidate decoding with a KL penalty: the reference's log-policy over the
    #: candidates (the KL is then exact, summed over them, not estimated from one sample)
    ref_policy: list[float] | None = None
    #: how the sampler scored the candidates (``candidate_logprobs``' mode)
    scoring: str = "whole"
    #: how many identical samples this one stands for (:func:`merge_identical`)
    weight: float = 1.0
    #: trie decoding by sampling: each completion token's log-probability as the sampler
    #: drew it (over the allowed tokens, at ``sampled_temperature``); the update takes these
    #: as the old log-probabilities instead of a pass of its own when the temperatures match
    sampled_logprobs: list[float] | None = None
    sampled_temperature: float = 0.0


def pack(samples: Sequence[StepSample], pad_id: int
         ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Right-padded ``input_ids``, ``attention_mask`` and ``completion_mask`` ``[B, T]``.

    ``completion_mask[b, t]`` is 1 where token ``t`` belongs to sample ``b``'s completion:
    the loss counts only those tokens (never the prompt, never padding)."""
    if not samples:
        raise ValueError("no samples to pack")
    for s in samples:
        if not s.completion_ids:
            raise ValueError("a sample has an empty completion; nothing to train on")
    width = max(len(s.prompt_ids) + len(s.completion_ids) for s in samples)
    ids = torch.full((len(samples), width), pad_id, dtype=torch.long)
    attn = torch.zeros((len(samples), width), dtype=torch.long)
    comp = torch.zeros((len(samples), width), dtype=torch.long)
    for b, s in enumerate(samples):
        p, c = len(s.prompt_ids), len(s.completion_ids)
        ids[b, :p + c] = torch.tensor(s.prompt_ids + s.completion_ids)
        attn[b, :p + c] = 1
        comp[b, p:p + c] = 1
    return ids, attn, comp


#: the update and the old/reference log-probabilities score completion tokens only
#: (``token_logprobs(only=...)``); False: at every position, as before (for the benchmark)
COMPLETION_LOGITS_ONLY = True
#: ... and run the prompts' shared parts once per minibatch (``token_logprobs(share=True)``:
#: the common head once, each distinct prompt once, then the completions); False: every
#: sample's prompt in full (for the benchmark)
SHARED_PREFIX = True
#: the update's old log-probabilities are the ones the sampler recorded where it did
#: (False: a no-gradient pass over the samples computes them, as before; for the benchmark)
SAMPLER_LOGPROBS = True


def _rows_fit_sharing(input_ids: torch.Tensor, attention_mask: torch.Tensor,
                      only: torch.Tensor) -> tuple[list[int], list[int]] | None:
    """Each row's (first wanted token, length) when the batch is right-padded and each row's
    wanted tokens are one run that ends the row after at least one other token; None
    otherwise (the shared pass does not apply)."""
    starts: list[int] = []
    ends: list[int] = []
    for b in range(input_ids.shape[0]):
        n = int(attention_mask[b].sum())
        if n == 0 or not bool(attention_mask[b, :n].all()):
            return None
        where = only[b].nonzero().squeeze(-1)
        if where.numel() == 0:
            return None
        c = int(where[0])
        if c < 1 or int(where[-1]) != n - 1 or where.numel() != n - c:
            return None
        starts.append(c)
        ends.append(n)
    return starts, ends


def _length_chunks(lengths: Sequence[int], slack: float = 1.25) -> list[list[int]]:
    """Indices of ``lengths`` in chunks of similar length (shortest first): a chunk's
    longest is at most ``slack`` times its shortest, so padding a chunk to its longest
    wastes little (one long screen among short ones would otherwise set every row's
    width)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    chunks: list[list[int]] = []
    for i in order:
        if chunks and lengths[i] <= slack * lengths[chunks[-1][0]]:
            chunks[-1].append(i)
        else:
            chunks.append([i])
    return chunks


def shared_prefix_logits(model: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                         only: torch.Tensor, keep: torch.Tensor) -> torch.Tensor | None:
    """The logits ``[B, len(keep), V]`` at positions ``keep`` (the union over rows of the
    positions predicting a wanted token; what the plain pass with ``logits_to_keep=keep``
    gives there, with gradients), computed in passes that share work: the batch's common
    head (the system message, the goal) once, each distinct prompt's rest once on the
    head's key/value cache (prompts of similar length together), then every row's
    completion on its prompt's cache. A group's samples share their prompts (every
    episode's first screen, and more when they take the same path), and all samples share
    the system message, so this runs a third to a half of the tokens of the plain pass.
    Entries a row does not need are 0.

    None where it does not apply: a batch not right-padded, wanted tokens that are not one
    run ending each row, a model whose forward takes no position ids or key/value cache,
    or whose cache is not transformers' dynamic kind (the caller then runs the plain
    pass)."""
    from phoneworld_gym.baselines.scoring import (
        _cache_kw,
        _cache_of,
        _layers,
        cache_restore,
        cache_snapshot,
    )

    fits = _rows_fit_sharing(input_ids, attention_mask, only)
    if fits is None or takes_argument(model, "pixel_values") or not (
            takes_argument(model, "position_ids") and
            takes_argument(model, _cache_kw(model))):
        return None
    starts, ends = fits
    dev = input_ids.device
    rows, width = input_ids.shape
    first = min(starts)
    same = (input_ids[:, :first - 1] == input_ids[:1, :first - 1]).all(dim=0)
    head = int(same.long().cumprod(0).sum())  # every row keeps >= 1 prompt token after it
    cut = takes_argument(model, "logits_to_keep")
    key = _cache_kw(model)
    head_snap = None
    if head:
        out = model(input_ids=input_ids[:1, :head], use_cache=True,
                    **({"logits_to_keep": 1} if cut else {}))
        if _layers(_cache_of(out)) is None:
            return None
        head_snap = cache_snapshot(_cache_of(out))
    # each distinct prompt's rest, once
    distinct: dict[tuple[int, ...], int] = {}
    which = [distinct.setdefault(tuple(input_ids[b, head:starts[b]].tolist()), len(distinct))
             for b in range(rows)]
    mids = list(distinct)
    slot = torch.full((width,), -1, dtype=torch.long, device=dev)
    slot[keep] = torch.arange(keep.numel(), device=dev)
    out_logits: torch.Tensor | None = None
    for chunk in _length_chunks([len(m) for m in mids]):
        n_mid = len(chunk)
        mid_w = max(len(mids[u]) for u in chunk)
        mid = torch.zeros((n_mid, mid_w), dtype=torch.long, device=dev)
        mid_mask = torch.zeros((n_mid, mid_w), dtype=torch.long, device=dev)
        last = torch.zeros(n_mid, dtype=torch.long, device=dev)
        for j, u in enumerate(chunk):
            mid[j, :len(mids[u])] = torch.tensor(mids[u], dtype=torch.long)
            mid_mask[j, :len(mids[u])] = 1
            last[j] = len(mids[u]) - 1
        at = torch.unique(last)
        kw: dict[str, Any] = {"logits_to_keep": at} if cut else {}
        if head_snap is not None:
            past = cache_restore(head_snap)
            for lay in _layers(past) or []:
                lay.keys = lay.keys.expand(n_mid, *lay.keys.shape[1:])
                lay.values = lay.values.expand(n_mid, *lay.values.shape[1:])
            kw[key] = past
        ones = torch.ones((n_mid, head), dtype=torch.long, device=dev)
        out = model(input_ids=mid, attention_mask=torch.cat([ones, mid_mask], dim=1),
                    use_cache=True, **kw)
        mid_logits = out.logits if cut else out.logits[:, at]
        mid_last = mid_logits[torch.arange(n_mid, device=dev), torch.searchsorted(at, last)]
        past = _cache_of(out)
        layers = _layers(past)
        if layers is None:
            return None
        # the completions of the rows whose prompt is in this chunk, on its cache
        local = {u: j for j, u in enumerate(chunk)}
        mine = [b for b in range(rows) if which[b] in local]
        pick = torch.tensor([local[which[b]] for b in mine], dtype=torch.long, device=dev)
        for lay in layers:
            lay.keys = lay.keys[pick]
            lay.values = lay.values[pick]
        c_start = [starts[b] for b in mine]
        c_end = [ends[b] for b in mine]
        comp_w = max(e - c for c, e in zip(c_start, c_end))
        comp = torch.zeros((len(mine), comp_w), dtype=torch.long, device=dev)
        comp_mask = torch.zeros((len(mine), comp_w), dtype=torch.long, device=dev)
        for i, (b, c, e) in enumerate(zip(mine, c_start, c_end)):
            comp[i, :e - c] = input_ids[b, c:e]
            comp_mask[i, :e - c] = 1
        start_t = torch.tensor(c_start, dtype=torch.long, device=dev)
        position = start_t[:, None] + torch.arange(comp_w, device=dev)[None]
        mask = torch.cat([torch.ones((len(mine), head), dtype=torch.long, device=dev),
                          mid_mask[pick], comp_mask], dim=1)
        comp_logits = model(input_ids=comp, attention_mask=mask, position_ids=position,
                            use_cache=True, **{key: past}).logits  # [i, j]: c + j + 1
        # laid out as the plain pass with logits_to_keep=keep would give them
        if out_logits is None:
            out_logits = torch.zeros((rows, keep.numel(), comp_logits.shape[-1]),
                                     dtype=comp_logits.dtype, device=dev)
        rows_t = torch.tensor(mine, dtype=torch.long, device=dev)
        out_logits = out_logits.index_put((rows_t, slot[start_t - 1]), mid_last[pick])
        r_idx = [i for i, (c, e) in enumerate(zip(c_start, c_end)) for _ in range(c, e - 1)]
        j_idx = [j for c, e in zip(c_start, c_end) for j in range(e - 1 - c)]
        if r_idx:
            r = torch.tensor(r_idx, dtype=torch.long, device=dev)
            j = torch.tensor(j_idx, dtype=torch.long, device=dev)
            out_logits = out_logits.index_put((rows_t[r], slot[start_t[r] + j]),
                                              comp_logits[r, j])
    return out_logits


def token_logprobs(model: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                   temperature: float = 1.0, allowed: Sequence[list[list[int]] | None] = (),
                   completion_mask: torch.Tensor | None = None, *,
                   only: torch.Tensor | None = None, share: bool = False) -> torch.Tensor:
    """``out[b, t] = log p(input_ids[b, t] | input_ids[b, :t])`` under ``model`` with its
    logits divided by ``temperature`` (the distribution the tokens were sampled from);
    ``out[:, 0]`` is 0 (the first token has no context).

    ``allowed[b]`` (with ``completion_mask``), when not None, lists for each completion token
    of sample ``b`` the tokens constrained decoding allowed at its place: that token's
    probability is then normalised over those tokens only, as it was sampled.

    ``only`` (``[B, T]``, nonzero where wanted): compute the log-probabilities of those
    tokens only, 0 elsewhere. The vocabulary projection and softmax then run at the
    positions that predict them (the completions', a few dozen of a prompt's ~1,000), not
    at every position: the same values, a fraction of the work and memory.

    ``share`` (with ``only``): compute those logits with :func:`shared_prefix_logits`, each
    shared part of the prompts once (the same values and gradients, to float rounding),
    where it applies; the plain pass where it does not."""
    if only is not None:
        # position t - 1 predicts token t: the union over the batch of those positions
        want = only.bool().clone()
        want[:, 0] = False
        keep = want.any(dim=0).nonzero().squeeze(-1) - 1
        if keep.numel() == 0:
            return torch.zeros(input_ids.shape, dtype=torch.float32, device=input_ids.device)
        shared = shared_prefix_logits(model, input_ids, attention_mask, only, keep) \
            if share else None
        if shared is not None:
            logits = shared
        elif takes_argument(model, "logits_to_keep"):
            logits = model(input_ids=input_ids, attention_mask=attention_mask,
                           logits_to_keep=keep).logits
        else:
            logits = model(input_ids=input_ids, attention_mask=attention_mask).logits[:, keep]
        scaled_kept = logits.float() / temperature
        logp_kept = torch.log_softmax(scaled_kept, dim=-1)
        nxt = input_ids[:, keep + 1]
        picked_kept = logp_kept.gather(-1, nxt[:, :, None]).squeeze(-1)
        picked = torch.zeros((input_ids.shape[0], input_ids.shape[1] - 1),
                             dtype=picked_kept.dtype, device=input_ids.device)
        picked = picked.index_copy(1, keep, picked_kept)
        # where is each position among the kept ones (for the allowed-token renormalising)
        slot = torch.full((input_ids.shape[1] - 1,), -1, dtype=torch.long,
                          device=input_ids.device)
        slot[keep] = torch.arange(keep.numel(), device=input_ids.device)
    else:
        logits = model(input_ids=input_ids, attention_mask=attention_mask).logits[:, :-1]
        scaled_kept = logits.float() / temperature
        logp = torch.log_softmax(scaled_kept, dim=-1)
        picked = logp.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
        slot = torch.arange(input_ids.shape[1] - 1, device=input_ids.device)
    rows: list[int] = []
    cols: list[int] = []
    sets: list[list[int]] = []
    for b, per_token in enumerate(allowed):
        if per_token is None:
            continue
        if completion_mask is None:
            raise ValueError("allowed token sets need the completion_mask that places them")
        places = completion_mask[b].nonzero().squeeze(-1).tolist()
        if len(places) != len(per_token):
            raise ValueError(f"sample {b} has {len(places)} completion tokens but "
                             f"{len(per_token)} allowed sets")
        for t, ok in zip(places, per_token):
            if int(input_ids[b, t]) not in ok:
                raise ValueError(f"sample {b}'s token {int(input_ids[b, t])} at {t} is not "
                                 f"among the tokens allowed there")
            rows.append(b)
            cols.append(t - 1)  # the logits at t - 1 predict the token at t
            sets.append(ok)
    if rows:
        width = max(len(ok) for ok in sets)
        idx = torch.zeros((len(sets), width), dtype=torch.long, device=input_ids.device)
        valid = torch.zeros((len(sets), width), dtype=torch.bool, device=input_ids.device)
        for i, ok in enumerate(sets):
            idx[i, :len(ok)] = torch.tensor(ok, dtype=torch.long)
            valid[i, :len(ok)] = True
        r = torch.tensor(rows, device=input_ids.device)
        c = torch.tensor(cols, device=input_ids.device)
        if bool((slot[c] < 0).any()):
            raise ValueError("allowed token sets sit at completion tokens that `only` leaves "
                             "out")
        at = scaled_kept[r, slot[c]]  # (N, V)
        norm = torch.logsumexp(at.gather(1, idx).masked_fill(~valid, float("-inf")), dim=1)
        chosen = at.gather(1, input_ids[r, c + 1][:, None]).squeeze(1)
        picked = picked.index_put((r, c), chosen - norm)
    out = torch.cat([torch.zeros_like(picked[:, :1]), picked], dim=1)
    return torch.where(only.bool(), out, 0.0) if only is not None else out


def grpo_loss(logp: torch.Tensor, old_logp: torch.Tensor, advantages: torch.Tensor,
              mask: torch.Tensor, *, clip_eps: float = 0.2, kl_coef: float = 0.0,
              ref_logp: torch.Tensor | None = None) -> tuple[torch.Tensor, dict[str, float]]:
    """The clipped surrogate on completion tokens, minus ``kl_coef`` x KL to the reference.

    Per token: ``ratio = exp(logp - old_logp)``, surrogate ``min(ratio * A, clip(ratio,
    1 - eps, 1 + eps) * A)``; KL by the k3 estimator ``exp(ref - logp) - (ref - logp) - 1``
    (non-negative, unbiased). The loss is the negative mean over all masked tokens of the
    batch. Returns the loss and stats (mean ratio, clipped fraction, KL)."""
    if logp.shape != old_logp.shape or logp.shape != mask.shape:
        raise ValueError(f"logp {tuple(logp.shape)}, old_logp {tuple(old_logp.shape)} and mask "
                         f"{tuple(mask.shape)} must have one shape")
    if advantages.shape != logp.shape[:1]:
        raise ValueError(f"advantages must be [batch]={logp.shape[0]}, got "
                         f"{tuple(advantages.shape)}")
    m = mask.to(logp.dtype)
    n = m.sum().clamp(min=1.0)
    ratio = torch.exp(logp - old_logp)
    adv = advantages[:, None].to(logp.dtype)
    clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    surrogate = torch.minimum(ratio * adv, clipped * adv)
    per_token = -surrogate
    kl_mean = 0.0
    if kl_coef and ref_logp is not None:
        d = ref_logp - logp
        kl = torch.exp(d) - d - 1
        per_token = per_token + kl_coef * kl
        kl_mean = float(((kl * m).sum() / n).detach())
    loss = (per_token * m).sum() / n
    was_clipped = ((ratio * adv) > (clipped * adv)).to(logp.dtype)
    stats = {"ratio": float((ratio.detach() * m).sum() / n),
             "clipped": float((was_clipped * m).sum() / n), "kl": kl_mean}
    return loss, stats


# -- settings -------------------------------------------------------------------------------
@dataclasses.dataclass
class GRPOSettings:
    """What one RL stage does.

    Attributes:
        updates: policy updates (each: rollouts, then ``epochs`` passes over them).
        tasks_per_update: task instances drawn per update.
        group_size: episodes per task instance (G); advantages are normalised among them.
        epochs: passes over one update's samples (>1 makes the ratio and its clip matter).
        minibatch: samples per gradient step.
        lr: AdamW learning rate.
        clip_eps: the ratio's clip range.
        kl_coef: weight of the KL penalty to the reference model (0: none, no reference kept).
        temperature: sampling temperature for rollouts (also used for the log-probabilities).
        max_new_tokens: the longest completion sampled per step.
        max_episode_steps: cap on steps per episode (None: the task's own budget).
        max_grad_norm: gradient clipping.
        seed: torch's seed for sampling; in the recipe (``rl.<stage>.seed``) it also picks
            the RL run: its instance draws and agents' sampling (``recipe.rl_run_seed``).
        balance_episodes: give every episode of a group the same total weight whatever its
            length: each step's advantage is divided by its episode's step count and
            multiplied by the group's mean step count. Without it every step counts once, so
            a long failing episode (eight steps of wandering) pushes down its actions eight
            times while a short success pushes up twice: a bias toward ending episodes early.
        max_draws: dynamic sampling: per update, keep drawing and playing task instances until
            ``tasks_per_update`` groups have a reward spread (not all equal), at most
            ``max_draws`` instances (>= ``tasks_per_update``). None or 0: draw exactly
            ``tasks_per_update`` instances and train on whichever have a spread (the
            behaviour before this setting existed).
        allowed_tokens_only: where rollouts used constrained decoding (the episode records
            the tokens allowed at each place), score every completion token against the
            allowed tokens only, the distribution it was sampled from, in the ratio, the KL
            and the gradient. False: against the whole vocabulary (then an update that lowers
            a bad action's probability may move it to tokens the decoder never lets through).
    """

    updates: int = 4
    tasks_per_update: int = 2
    group_size: int = 4
    epochs: int = 2
    minibatch: int = 8
    lr: float = 5e-4
    clip_eps: float = 0.2
    kl_coef: float = 0.0
    temperature: float = 1.0
    max_new_tokens: int = 48
    max_episode_steps: int | None = None
    max_grad_norm: float = 1.0
    seed: int = 0
    max_draws: int | None = None
    balance_episodes: bool = False
    allowed_tokens_only: bool = True

    def __post_init__(self) -> None:
        for name in ("updates", "tasks_per_update", "group_size", "epochs", "minibatch",
                     "max_new_tokens"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if self.group_size < 2:
            raise ValueError(f"group_size must be >= 2 (advantages are relative to the group), "
                             f"got {self.group_size}")
        if not (self.lr > 0 and self.clip_eps > 0 and self.temperature > 0):
            raise ValueError(f"lr, clip_eps and temperature must be > 0, got lr={self.lr}, "
                             f"clip_eps={self.clip_eps}, temperature={self.temperature}")
        if self.kl_coef < 0:
            raise ValueError(f"kl_coef must be >= 0, got {self.kl_coef}")
        if self.max_episode_steps is not None and self.max_episode_steps < 1:
            raise ValueError(f"max_episode_steps must be >= 1 or None, got "
                             f"{self.max_episode_steps}")
        for flag in ("balance_episodes", "allowed_tokens_only"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false, got {getattr(self, flag)!r}")
        if self.max_draws is not None:
            if isinstance(self.max_draws, bool) or not isinstance(self.max_draws, int) \
                    or self.max_draws < 0:
                raise ValueError(f"max_draws must be None, 0 or an int >= tasks_per_update "
                                 f"({self.tasks_per_update}), got {self.max_draws!r}")
            if self.max_draws == 0:
                self.max_draws = None
            elif self.max_draws < self.tasks_per_update:
                raise ValueError(f"max_draws ({self.max_draws}) must be >= tasks_per_update "
                                 f"({self.tasks_per_update}): it caps the instances drawn "
                                 f"to find that many groups with a reward spread")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GRPOSettings:
        """From a config mapping; unknown keys are an error naming them."""
        known = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(d) - known)
        if extra:
            raise ValueError(f"unknown RL setting(s) {extra}; known: {sorted(known)}")
        return cls(**dict(d))


# -- the update -----------------------------------------------------------------------------
def compute_logprobs(model: Any, samples: Sequence[StepSample], pad_id: int,
                     temperature: float, batch: int = 8, allowed_only: bool = True
                     ) -> list[list[float]]:
    """Each sample's completion-token log-probabilities under ``model``, without gradients
    (over the allowed tokens only, where a sample records them and ``allowed_only``)."""
    out: list[list[float]] = []
    with torch.no_grad():
        for i in range(0, len(samples), batch):
            chunk = samples[i:i + batch]
            ids, attn, comp = pack(chunk, pad_id)
            dev = model_device(model)
            sets = [s.allowed for s in chunk] if allowed_only else []
            lp = token_logprobs(model, ids.to(dev), attn.to(dev), temperature, sets,
                                comp.to(dev),
                                only=comp.to(dev) if COMPLETION_LOGITS_ONLY else None,
                                share=SHARED_PREFIX).cpu()
            for b, _s in enumerate(chunk):
                out.append(lp[b][comp[b].bool()].tolist())
    return out


def model_device(model: Any) -> torch.device:
    """Where the model's parameters live."""
    return next(model.parameters()).device


def spread(values: Sequence[Sequence[float]], comp: torch.Tensor) -> torch.Tensor:
    """Per-sample completion values laid out in the ``[B, T]`` grid of ``comp``."""
    grid = torch.zeros(comp.shape, dtype=torch.float32)
    for b, v in enumerate(values):
        grid[b][comp[b].bool()] = torch.tensor(v, dtype=torch.float32)
    return grid


def whole_group_batches(samples: Sequence[StepSample], size: int,
                        rng: np.random.Generator) -> list[list[StepSample]]:
    """``samples`` in minibatches of whole groups, in a random order of groups: groups are
    added to a batch until it holds at least ``size`` samples (a group larger than ``size``
    is a batch of its own; samples without a group are each a group). A group's advantages
    sum to zero, so the step that raises its good episodes lowers its bad ones at once,
    rather than pushing the policy one way in one step and back in the next."""
    groups: dict[Any, list[StepSample]] = {}
    for i, smp in enumerate(samples):
        groups.setdefault(smp.group if smp.group >= 0 else ("alone", i), []).append(smp)
    keys = list(groups)
    batches: list[list[StepSample]] = []
    batch: list[StepSample] = []
    for j in rng.permutation(len(keys)):
        batch += groups[keys[j]]
        if len(batch) >= size:
            batches.append(batch)
            batch = []
    if batch:
        batches.append(batch)
    return batches


def candidate_logpolicy(model: Any, sample: StepSample, temperature: float) -> torch.Tensor:
    """The log-policy ``[N]`` over a whole-candidate sample's candidates under ``model``."""
    from phoneworld_gym.baselines.scoring import candidate_logprobs, candidate_policy

    if not sample.candidates:
        raise ValueError("the sample has no candidates (it was not decoded by whole "
                         "candidates)")
    if not 0 <= sample.choice < len(sample.candidates):
        raise ValueError(f"the sample's choice {sample.choice} is not one of its "
                         f"{len(sample.candidates)} candidates")
    return candidate_policy(candidate_logprobs(model, sample.prompt_ids, sample.candidates,
                                               mode=sample.scoring), temperature)


def chosen_mask(samples: Sequence[StepSample], comp: torch.Tensor) -> torch.Tensor:
    """``comp`` without the completion tokens trie decoding forced (an allowed set of one
    token: the JSON around the choice): the loss averages over the tokens the model chose."""
    mask = comp.clone()
    for b, smp in enumerate(samples):
        if smp.allowed is None:
            continue
        places = comp[b].nonzero().squeeze(-1).tolist()
        for t, ok in zip(places, smp.allowed):
            if len(ok) <= 1:
                mask[b, t] = 0
    return mask


def merge_identical(samples: Sequence[StepSample]) -> list[StepSample]:
    """One sample per (group, prompt, completion, sign of the advantage), standing for the
    samples it replaces (``weight``, their count; ``advantage``, their mean). A group's
    episodes often take the same action on the same screen (always at the first step); the
    clipped surrogate of such samples is ``min(r A_i, clip(r) A_i)`` summed over them, and for
    advantages of one sign that is ``min(r, clip(r))`` (or ``max``) times their sum, so the
    weighted sample gives the same loss and gradient with one forward pass instead of
    several. Samples keep their first appearance's order."""
    def key(smp: StepSample) -> Any:
        return (smp.group, tuple(smp.prompt_ids), tuple(smp.completion_ids),
                smp.advantage > 0, smp.choice, smp.scoring)

    counts: dict[Any, int] = {}
    for smp in samples:
        if smp.group >= 0:
            counts[key(smp)] = counts.get(key(smp), 0) + 1
    merged: dict[Any, StepSample] = {}
    out: list[StepSample] = []
    for smp in samples:
        k = key(smp) if smp.group >= 0 else None
        if k is None or counts[k] == 1:  # alone: the sample itself (the update fills it in)
            out.append(smp)
        elif k not in merged:
            merged[k] = dataclasses.replace(smp)
            out.append(merged[k])
        else:
            into = merged[k]
            total = into.weight + smp.weight
            into.advantage = (into.advantage * into.weight + smp.advantage * smp.weight) / total
            into.weight = total
    return out


def update_policy(model: Any, optimizer: torch.optim.Optimizer, samples: Sequence[StepSample],
                  settings: GRPOSettings, pad_id: int, ref_model: Any = None,
                  rng: np.random.Generator | None = None) -> dict[str, float]:
    """``settings.epochs`` passes of clipped-surrogate updates over ``samples``, in
    minibatches of whole groups (:func:`whole_group_batches`).

    A whole-candidate sample (``candidates`` set) is one decision: its ratio is
    ``pi(choice) / pi_old(choice)`` under the softmax over its candidates, its KL to the
    reference the exact KL of the two candidate distributions. A token sample's loss is
    averaged over the completion tokens the model chose (trie decoding's forced tokens
    left out). The minibatch's loss is the mean over its samples of these per-decision
    losses. Old log-probabilities are taken once, before the first step (the policy that
    sampled): a trie-decoded sample's are those its sampler recorded (at the update's
    temperature, over the allowed tokens), others' come from a pass over the samples
    (``samples`` must come from ``model`` as it is now: on-policy). Reference ones likewise
    when ``kl_coef`` > 0 and a reference is given."""
    samples = [s for s in samples if s.advantage != 0.0]
    if not samples:  # nothing to learn from: no step taken
        return {"loss": 0.0, "samples": 0.0, "minibatches": 0.0, "ratio": 1.0, "clipped": 0.0,
                "kl": 0.0, "passes": 0.0}
    n_samples = float(sum(s.weight for s in samples))
    samples = merge_identical(samples)
    model.eval()  # no dropout: the ratio compares the same function
    only = settings.allowed_tokens_only
    temp = settings.temperature
    scored = [s for s in samples if s.candidates]
    tokens = [s for s in samples if not s.candidates]
    with torch.no_grad():
        for smp in scored:
            lp = candidate_logpolicy(model, smp, temp)
            smp.old_logprobs = [float(lp[smp.choice])]
            if settings.kl_coef and ref_model is not None:
                smp.ref_policy = candidate_logpolicy(ref_model, smp, temp).tolist()
    if tokens:
        chunk = max(8, settings.minibatch)
        # on-policy: the sampler's own log-probabilities are the old ones, where it recorded
        # them as this update scores them (over the allowed tokens, at its temperature)
        rest = []
        for smp in tokens:
            if (SAMPLER_LOGPROBS and only and smp.sampled_logprobs is not None and
                    smp.allowed is not None and abs(smp.sampled_temperature - temp) < 1e-9):
                smp.old_logprobs = list(smp.sampled_logprobs)
            else:
                rest.append(smp)
        for smp, lp in zip(rest, compute_logprobs(model, rest, pad_id, temp, chunk,
                                                  allowed_only=only) if rest else []):
            smp.old_logprobs = lp
        if settings.kl_coef and ref_model is not None:
            for smp, lp in zip(tokens, compute_logprobs(ref_model, tokens, pad_id, temp,
                                                        chunk, allowed_only=only)):
                smp.ref_logprobs = lp
    rng = rng or np.random.default_rng(settings.seed)
    dev = model_device(model)
    losses: list[float] = []
    sums = {"ratio": 0.0, "clipped": 0.0, "kl": 0.0}
    decisions = 0
    for _ in range(settings.epochs):
        for batch in whole_group_batches(samples, settings.minibatch, rng):
            optimizer.zero_grad()
            total = 0.0
            size = float(sum(s.weight for s in batch))
            for smp in batch:
                if not smp.candidates:
                    continue
                lp = candidate_logpolicy(model, smp, temp)
                new = lp[smp.choice]
                ratio = torch.exp(new - float((smp.old_logprobs or [0.0])[0]))
                adv = float(smp.advantage)
                clipped = torch.clamp(ratio, 1 - settings.clip_eps, 1 + settings.clip_eps)
                term = -torch.minimum(ratio * adv, clipped * adv)
                kl = 0.0
                if settings.kl_coef and smp.ref_policy is not None:
                    ref = torch.tensor(smp.ref_policy, dtype=lp.dtype, device=lp.device)
                    kl_t = (lp.exp() * (lp - ref)).sum()
                    term = term + settings.kl_coef * kl_t
                    kl = float(kl_t.detach())
                w = smp.weight
                (term * w / size).backward()  # one graph at a time: memory of one step
                total += float(term.detach()) * w
                sums["ratio"] += float(ratio.detach()) * w
                sums["clipped"] += float(ratio.detach() * adv > clipped.detach() * adv) * w
                sums["kl"] += kl * w
                decisions += w
            toks = [s for s in batch if not s.candidates]
            if toks:
                ids, attn, comp = pack(toks, pad_id)
                logp = token_logprobs(model, ids.to(dev), attn.to(dev), temp,
                                      [s.allowed for s in toks] if only else [],
                                      comp.to(dev),
                                      only=comp.to(dev) if COMPLETION_LOGITS_ONLY else None,
                                      share=SHARED_PREFIX)
                old = spread([s.old_logprobs or [] for s in toks], comp).to(dev)
                ref_lp = (spread([s.ref_logprobs or [] for s in toks], comp).to(dev)
                          if toks[0].ref_logprobs is not None else None)
                adv_t = torch.tensor([s.advantage for s in toks], dtype=torch.float32,
                                     device=dev)
                weights = torch.tensor([s.weight for s in toks], dtype=comp.dtype)
                mask = chosen_mask(toks, comp) * weights[:, None]  # a merged row counts w times
                loss_t, st = grpo_loss(logp, old, adv_t, mask.to(dev),
                                       clip_eps=settings.clip_eps, kl_coef=settings.kl_coef,
                                       ref_logp=ref_lp)
                w_toks = float(weights.sum())
                (loss_t * w_toks / size).backward()
                total += float(loss_t.detach()) * w_toks
                for k in sums:
                    sums[k] += st[k] * w_toks
                decisions += w_toks
            torch.nn.utils.clip_grad_norm_(model.parameters(), settings.max_grad_norm)
            optimizer.step()
            losses.append(total / size)
    return {"loss": float(np.mean(losses)), "samples": n_samples,
            "passes": float(len(samples)), "minibatches": float(len(losses)),
            **{k: v / max(decisions, 1) for k, v in sums.items()}}


# -- rollouts -------------------------------------------------------------------------------
@dataclasses.dataclass
class Episode:
    """One played episode: its steps as (prompt ids, completion ids), the env's verdict and
    the reward used for training (verified or judged)."""

    source: str
    task: str
    seed: int
    steps: list[tuple[list[int], list[int]]]
    success: bool
    env_reward: float
    reward: float = 0.0
    goal: str = ""
    #: the raw replies, one per step
    actions: list[str] = dataclasses.field(default_factory=list)
    #: what a judge may see: each step's action (None: unparsable) with the phone's error ...
    turns: list[Any] = dataclasses.field(default_factory=list, repr=False)
    #: ... and the tree of every screen seen, the one after the last action included
    screens: list[str] = dataclasses.field(default_factory=list, repr=False)
    #: per step, the tokens constrained decoding allowed at each completion token (None:
    #: unconstrained); see ``GRPOSettings.allowed_tokens_only``
    allowed: list[list[list[int]] | None] = dataclasses.field(default_factory=list,
                                                              repr=False)
    #: per step, whole-candidate decoding's candidates (token ids) and the index taken
    #: (None and -1: the step was decoded otherwise)
    candidates: list[list[list[int]] | None] = dataclasses.field(default_factory=list,
                                                                 repr=False)
    choices: list[int] = dataclasses.field(default_factory=list, repr=False)
    #: per step, the sampler's log-probability of each completion token and its
    #: temperature (None, 0: not recorded; see ``StepSample.sampled_logprobs``)
    logprobs: list[list[float] | None] = dataclasses.field(default_factory=list, repr=False)
    temperatures: list[float] = dataclasses.field(default_factory=list, repr=False)
    #: True when the episode ran out of ``max_steps`` before the env ended it
    capped: bool = False
    #: how whole-candidate decoding scored its candidates ("" where it was not used)
    scoring: str = ""
    #: the phone's state when the episode ended, for a shaped reward (set by
    #: :func:`collect_groups` when the reward function has ``needs_final_state``)
    final_state: Any = dataclasses.field(default=None, repr=False)


RewardFn = Callable[[Episode], float]


def verified_reward(episode: Episode) -> float:
    """The env's verifier score (the reward the env returned when the episode ended)."""
    return float(episode.env_reward)


def play(env: Any, agent: Any, source: str, task: str, seed: int,
         max_steps: int | None = None) -> Episode:
    """One episode of ``agent`` (an ``LMAgent`` that samples and records ``agent.last``)."""
    from phoneworld_gym.baselines.prompt import Turn

    obs, info = env.reset(seed=seed, options={"task": task})
    agent.reset(obs["goal"])
    goal = str(obs["goal"])
    steps: list[tuple[list[int], list[int]]] = []
    actions: list[str] = []
    turns: list[Turn] = []
    screens = [str(obs["a11y"])]
    allowed: list[list[list[int]] | None] = []
    cands: list[list[list[int]] | None] = []
    choices: list[int] = []
    logprobs: list[list[float] | None] = []
    temps: list[float] = []
    reward, success, n, capped, scoring = 0.0, False, 0, False, ""
    while True:
        action = agent.act(obs)
        last = agent.last
        steps.append((list(last["prompt_ids"]), list(last["completion_ids"])))
        allowed.append(last.get("allowed_ids"))
        cands.append(last.get("candidates"))
        choices.append(int(last.get("choice", -1)) if last.get("candidates") else -1)
        logprobs.append(last.get("completion_logprobs"))
        temps.append(float(last.get("temperature") or 0.0))
        scoring = str(last.get("scoring") or scoring)
        actions.append(str(last.get("completion", "")))
        obs, reward, term, trunc, info = env.step(action)
        turns.append(Turn(action if last.get("parsed", True) else None,
                          str(info["action_error"] or ""), actions[-1]))
        screens.append(str(obs["a11y"]))
        observe = getattr(agent, "observe", None)
        if observe is not None:  # the action's error shows in the next prompt's history
            observe(info)
        n += 1
        if term or trunc:
            success = bool(info["success"])
            break
        if max_steps is not None and n >= max_steps:
            reward, success, capped = 0.0, False, True
            break
    return Episode(source, task, seed, steps, success, float(reward), goal=goal,
                   actions=actions, turns=turns, screens=screens, allowed=allowed,
                   candidates=cands, choices=choices, capped=capped, scoring=scoring,
                   logprobs=logprobs, temperatures=temps)


def has_spread(rewards: Sequence[float]) -> bool:
    """Whether a group's rewards differ (else its advantages are all zero: no signal)."""
    return len(rewards) > 1 and float(np.ptp(np.asarray(rewards, dtype=np.float64))) > 1e-12


@dataclasses.dataclass
class Rollouts:
    """What one update played: every episode, the samples of the groups kept for training,
    and how many task instances were drawn and kept."""

    episodes: list[Episode]
    samples: list[StepSample]
    drawn: int
    kept: int


def collect_groups(sampler: Any, agent: Any, settings: GRPOSettings,
                   reward_fn: RewardFn) -> Rollouts:
    """Play one update's groups.

    Without ``max_draws``: ``tasks_per_update`` instances, each group scored and normalised
    (a group without spread contributes zero-advantage samples, which the update drops).
    With it: instances are drawn one by one until ``tasks_per_update`` groups have a reward
    spread or ``max_draws`` were played; only the groups with a spread give samples."""
    limit = settings.max_draws or settings.tasks_per_update
    out = Rollouts([], [], 0, 0)
    while out.drawn < limit and out.kept < settings.tasks_per_update:
        inst = sampler.draw()
        env = sampler.env(inst.source)
        group = []
        for _ in range(settings.group_size):
            group.append(play(env, agent, inst.source, inst.task, inst.seed,
                              settings.max_episode_steps))
            if getattr(reward_fn, "needs_final_state", False):
                from phoneworld_gym.baselines.shaping import attach_final_state

                attach_final_state(group[-1], env)
        for ep in group:
            ep.reward = float(reward_fn(ep))
        out.drawn += 1
        out.episodes += group
        rewards = [ep.reward for ep in group]
        record = getattr(sampler, "record", None)
        if record is not None:  # an adaptive sampler learns each instance's success rate
            record(inst, [ep.success for ep in group])
        if not has_spread(rewards):
            continue
        out.kept += 1
        out.samples += group_samples(group, rewards, settings.balance_episodes,
                                     group_id=out.drawn)
    return out


def group_samples(group: Sequence[Episode], rewards: Sequence[float], balance: bool,
                  group_id: int = -1) -> list[StepSample]:
    """One group's step samples with their episodes' advantages; with ``balance`` each
    advantage is scaled by ``mean steps / the episode's steps`` (see ``balance_episodes``).
    Every sample carries ``group_id`` (minibatches keep a group together) and, for steps
    decoded by whole candidates, the step's candidates and choice."""
    mean_steps = float(np.mean([max(len(ep.steps), 1) for ep in group]))
    samples = []
    for ep, a in zip(group, group_advantages(rewards)):
        scale = mean_steps / max(len(ep.steps), 1) if balance else 1.0
        n = len(ep.steps)
        sets = ep.allowed if len(ep.allowed) == n else [None] * n
        cands = ep.candidates if len(ep.candidates) == n else [None] * n
        picks = ep.choices if len(ep.choices) == n else [-1] * n
        drawn = ep.logprobs if len(ep.logprobs) == n else [None] * n
        temps = ep.temperatures if len(ep.temperatures) == n else [0.0] * n
        samples += [StepSample(p, c, a * scale, allowed=ok, candidates=cs, choice=k,
                               group=group_id, scoring=ep.scoring or "whole",
                               sampled_logprobs=lp if lp is not None and len(lp) == len(c)
                               else None, sampled_temperature=t)
                    for (p, c), ok, cs, k, lp, t in zip(ep.steps, sets, cands, picks, drawn,
                                                        temps) if c]
    return samples


def train_grpo(model: Any, tokenizer: Any, sampler: Any, settings: GRPOSettings, *,
               make_agent: Callable[[Any, Any], Any], ref_model: Any = None,
               reward_fn: RewardFn = verified_reward,
               log: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Run ``settings.updates`` GRPO updates of ``model`` in place; returns one record per
    update: mean reward and success over every episode played, ``drawn`` (task instances
    played) and ``kept`` (groups with a reward spread, the ones trained on), samples, loss,
    ratio, clipped fraction, KL, seconds.

    ``make_agent(model, tokenizer)`` builds the sampling agent; ``reward_fn`` scores an
    episode (default: the verifier's reward); ``sampler`` has ``draw()`` (a task instance
    with ``source``, ``task``, ``seed``) and ``env(source)``."""
    torch.manual_seed(settings.seed)
    rng = np.random.default_rng(settings.seed)
    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    optimizer = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=0.0)
    history = []
    for update in range(settings.updates):
        t0 = time.time()
        model.eval()
        agent = make_agent(model, tokenizer)
        got = collect_groups(sampler, agent, settings, reward_fn)
        episodes = got.episodes
        stats = update_policy(model, optimizer, got.samples, settings, pad_id, ref_model, rng)
        record = {"update": update + 1,
                  "reward": float(np.mean([e.reward for e in episodes])),
                  "success": float(np.mean([e.success for e in episodes])),
                  "episode_steps": float(np.mean([len(e.steps) for e in episodes])),
                  "sources": sorted({e.source for e in episodes}),
                  "drawn": got.drawn, "kept": got.kept,
                  "spread": round(got.kept / max(got.drawn, 1), 4),
                  **stats, "seconds": round(time.time() - t0, 2)}
        history.append(record)
        if log is not None:
            log(record)
    model.eval()
    return history
