"""Whole-candidate scoring (the constrained decoder and the RL update's policy): exact
against plain forward passes, differentiable, and used by the agent and the update."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from phoneworld_gym.baselines.grpo import (  # noqa: E402
    GRPOSettings,
    StepSample,
    candidate_logpolicy,
    update_policy,
    whole_group_batches,
)
from phoneworld_gym.baselines.scoring import candidate_logprobs, candidate_policy  # noqa: E402


def _llama(seed: int = 0, vocab: int = 97) -> object:
    torch.manual_seed(seed)
    cfg = transformers.LlamaConfig(vocab_size=vocab, hidden_size=32, intermediate_size=64,
                                   num_hidden_layers=2, num_attention_heads=4,
                                   num_key_value_heads=2, max_position_embeddings=256)
    model = transformers.LlamaForCausalLM(cfg)
    for p in model.parameters():  # larger weights than the default: sharper distributions
        p.data.normal_(0, 0.2)
    return model.eval()


def _naive(model: object, prompt: list[int], cand: list[int]) -> float:
    ids = torch.tensor([prompt + cand])
    with torch.no_grad():
        logp = torch.log_softmax(model(input_ids=ids).logits[0].float(), dim=-1)
    return float(sum(logp[len(prompt) - 1 + i, t] for i, t in enumerate(cand)))


CANDS = [[5], [5, 7, 9], [5, 7], [11, 3, 3, 3, 2], [2], [40, 41, 42, 43, 44, 45, 46]]


def test_scores_equal_full_passes_in_any_chunking() -> None:
    """Each score is log p(candidate | prompt) as a full forward pass over prompt + candidate
    gives it, whether candidates go in one batch or one at a time (the prompt's cache is
    shared and restored between chunks)."""
    model = _llama()
    prompt = list(np.random.default_rng(0).integers(1, 97, size=30))
    want = [_naive(model, prompt, c) for c in CANDS]
    for chunk in (64, 1, 4):
        with torch.no_grad():
            got = candidate_logprobs(model, prompt, CANDS, chunk=chunk)
        assert got.shape == (len(CANDS),)
        assert np.allclose(got.numpy(), want, atol=1e-4), (chunk, got, want)
    # a prefix and its extension are different candidates with different scores:
    # "5" then the end is not the same decision as "5 7 9"
    assert abs(float(got[0]) - float(got[1])) > 1e-3


def test_scores_carry_gradients_and_bad_input_is_refused() -> None:
    model = _llama()
    scores = candidate_logprobs(model, [1, 2, 3, 4], CANDS)
    candidate_policy(scores, 1.0)[2].backward()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    assert grads and any(float(g.abs().sum()) > 0 for g in grads)
    with pytest.raises(ValueError, match="no candidates"):
        candidate_logprobs(model, [1, 2], [])
    with pytest.raises(ValueError, match="no tokens"):
        candidate_logprobs(model, [1, 2], [[3], []])
    with pytest.raises(ValueError, match="prompt has no tokens"):
        candidate_logprobs(model, [], [[3]])
    with pytest.raises(ValueError, match="temperature"):
        candidate_policy(scores.detach(), 0.0)


def test_policy_is_a_distribution_over_the_candidates() -> None:
    scores = torch.tensor([-3.0, -1.0, -2.0])
    for t in (0.5, 1.0, 2.0):
        lp = candidate_policy(scores, t)
        assert torch.isclose(lp.exp().sum(), torch.tensor(1.0))
        assert int(lp.argmax()) == 1
    # higher temperature: flatter
    assert float(candidate_policy(scores, 2.0).max()) < float(candidate_policy(scores, 0.5).max())


def _sample(model: object, group: int, adv: float, choice: int) -> StepSample:
    prompt = [1, 2, 3, 4, 5, 6]
    return StepSample(prompt, list(CANDS[choice]), adv, candidates=[list(c) for c in CANDS],
                      choice=choice, group=group)


def test_whole_group_batches_keep_groups_together() -> None:
    samples = [StepSample([1], [2], 1.0, group=g) for g in (0, 0, 0, 1, 1, 2, 3, 3, 3, 3)]
    samples.append(StepSample([1], [2], 1.0))  # no group: alone
    batches = whole_group_batches(samples, 4, np.random.default_rng(0))
    assert sorted(id(s) for b in batches for s in b) == sorted(id(s) for s in samples)
    for b in batches:
        for g in {s.group for s in b if s.group >= 0}:
            assert sum(s.group == g for s in b) == sum(s.group == g for s in samples)
    assert all(len(b) >= 4 for b in batches[:-1])


def test_update_raises_the_rewarded_candidate_and_the_clip_bites() -> None:
    """Scored samples: an update moves probability to the candidate whose episodes were
    rewarded, away from the one whose were not, with the ratio clipped on later epochs."""
    model = _llama(1)
    good, bad = 0, 4  # p 0.35 and 0.64 at the start
    samples = [_sample(model, 0, +1.0, good), _sample(model, 0, -1.0, bad),
               _sample(model, 1, +1.0, good), _sample(model, 1, -1.0, bad)]
    before = candidate_logpolicy(model, samples[0], 1.0).detach().exp()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.0)
    stats = update_policy(model, opt, samples,
                          GRPOSettings(epochs=6, minibatch=4, lr=3e-3, clip_eps=0.2,
                                       temperature=1.0), pad_id=0)
    after = candidate_logpolicy(model, samples[0], 1.0).detach().exp()
    assert float(after[good]) > float(before[good]) + 0.03, (before, after)
    assert float(after[bad]) < float(before[bad])
    assert stats["samples"] == 4 and stats["minibatches"] == 6  # one batch per epoch
    assert stats["clipped"] > 0  # later epochs pushed past 1 +- eps
    assert stats["kl"] == 0.0


def test_exact_kl_to_the_reference_is_zero_at_the_reference_and_bounded() -> None:
    model, ref = _llama(2), _llama(2)
    samples = [_sample(model, 0, +1.0, 0), _sample(model, 0, -1.0, 4)]
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
    stats = update_policy(model, opt, samples,
                          GRPOSettings(epochs=1, minibatch=2, lr=1e-3, kl_coef=0.1,
                                       temperature=1.0), pad_id=0, ref_model=ref)
    assert abs(stats["kl"]) < 1e-6  # the first step is taken at the reference
    assert samples[0].ref_policy is not None and len(samples[0].ref_policy) == len(CANDS)
    stats = update_policy(model, opt, samples,
                          GRPOSettings(epochs=4, minibatch=2, lr=1e-2, kl_coef=0.1,
                                       temperature=1.0), pad_id=0, ref_model=ref)
    assert 0 < stats["kl"] < np.log(len(CANDS)) * 4  # exact KL over candidates: bounded


# -- the agent ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    root = tmp_path_factory.mktemp("tiny_scoring")
    return build_tiny(root / "model", list(oracle_corpus(["ContactsStar"], seeds=[0])),
                      layers=1, hidden=32, vocab=500)


def test_whole_candidate_agent_picks_one_of_the_screens_actions_by_its_scores(tiny: Path) -> None:
    import gymnasium

    from phoneworld_gym.baselines.lm_agent import LMAgent
    from phoneworld_gym.baselines.prompt import candidate_actions, format_action

    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        obs, _ = env.reset(seed=0, options={"task": "ContactsStar"})
        greedy = LMAgent(tiny, constrained="whole", temperature=0.0)
        assert greedy.decoding == "whole"
        assert LMAgent(tiny, constrained=True).decoding == "trie"
        greedy.reset(obs["goal"])
        action = greedy.act(obs)
        last = greedy.last
        allowed = [format_action(a) for a in candidate_actions(obs["goal"], obs["a11y"],
                                                               apps=greedy.apps)]
        assert format_action(action) == last["completion"] == allowed[last["choice"]]
        assert len(last["candidates"]) == len(allowed)
        assert last["completion_ids"] == last["candidates"][last["choice"]]
        assert last["completion_ids"][-1] == greedy.tokenizer.eos_token_id
        # greedy is the argmax of the candidates' scores, each computed as a whole
        done = greedy.lm.choose(greedy.messages(obs, obs["a11y"]), allowed)
        assert done.choice == int(np.argmax(done.scores)) == last["choice"]
        # sampling is seeded: the same seed draws the same candidates
        picks = []
        for _ in range(2):
            agent = LMAgent(tiny, constrained="whole", temperature=1.0, seed=5)
            agent.reset(obs["goal"])
            picks.append(format_action(agent.act(obs)))
        assert picks[0] == picks[1] and picks[0] in allowed
        with pytest.raises(ValueError, match="constrained must be"):
            LMAgent(tiny, constrained="beam")
    finally:
        env.close()


def _trie_naive(model: object, prompt: list[int], cands: list[list[int]], mode: str
                ) -> list[float]:
    """Each candidate's score with every token renormalised over the trie's allowed tokens
    at its place ("trie"), or only where two or more are allowed ("branch"): full passes."""
    from phoneworld_gym.baselines.scoring import _allowed_table

    children, _ = _allowed_table(cands)
    out = []
    for c in cands:
        ids = torch.tensor([prompt + c])
        with torch.no_grad():
            logp = torch.log_softmax(model(input_ids=ids).logits[0].float(), dim=-1)
        total = 0.0
        for k, t in enumerate(c):
            row = logp[len(prompt) - 1 + k]
            ok = children[tuple(c[:k])]
            total += float(row[t])
            if mode == "trie" or len(ok) > 1:
                total -= float(torch.logsumexp(row[ok], dim=0))
        out.append(total)
    return out


@pytest.mark.parametrize("mode", ["trie", "branch"])
def test_renormalised_modes_equal_their_definition(mode: str) -> None:
    """"trie" scores are the trie decoder's distribution (forced tokens free, so the
    softmax sums to one over the candidates at T=1); "branch" renormalises only where
    candidates branch."""
    model = _llama(3)
    prompt = [7, 8, 9, 10, 11]
    cands = [c + [96] for c in CANDS]  # each ends with the end token, as the agent's do
    want = _trie_naive(model, prompt, cands, mode)
    with torch.no_grad():
        got = candidate_logprobs(model, prompt, cands, mode=mode, chunk=4)
    assert np.allclose(got.numpy(), want, atol=1e-4), (got, want)
    if mode == "trie":  # a distribution over the candidates, like the trie's sampler
        assert abs(float(got.exp().sum()) - 1.0) < 1e-4
    with pytest.raises(ValueError, match="mode must be"):
        candidate_logprobs(model, prompt, CANDS, mode="mean")


def test_fast_trie_decoding_equals_generate_and_runs_fewer_passes(tiny: Path) -> None:
    """The trie decoder that appends forced runs in one pass (and reuses the system
    message's cache) writes exactly what ``model.generate`` with the trie writes when greedy,
    with fewer forward passes; sampled replies are candidates, seeded."""
    import gymnasium

    from phoneworld_gym.baselines.lm_agent import LocalModel
    from phoneworld_gym.baselines.prompt import candidate_actions, format_action

    lm = LocalModel.load(tiny)
    calls = [0]
    hook = lm.model.register_forward_pre_hook(lambda *_: calls.__setitem__(0, calls[0] + 1))
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        obs, _ = env.reset(seed=1, options={"task": "ContactsStar"})
        allowed = [format_action(a) for a in candidate_actions(obs["goal"], obs["a11y"])]
        msgs = [{"role": "user", "content": "Goal: " + obs["goal"] + "\n" + obs["a11y"][:400]}]
        runs = {}
        for fast in (False, True):
            lm.fast_trie = lm.prefix_cache = fast
            calls[0] = 0
            done = lm.generate(msgs, temperature=0.0, allowed=allowed, max_new_tokens=8)
            runs[fast] = (done.token_ids, done.allowed_ids, calls[0])
        assert runs[True][0] == runs[False][0] and runs[True][1] == runs[False][1]
        assert runs[True][2] < runs[False][2]
        picks = {lm.generate(msgs, temperature=1.0, seed=9, allowed=allowed).text
                 for _ in range(2)}
        assert len(picks) == 1 and picks <= set(allowed)
    finally:
        hook.remove()
        env.close()


def test_prompt_cache_replays_a_seen_prompt_and_forgets_after_training(tiny: Path) -> None:
    """A prompt seen again (a group's episodes at their first step) reuses its pass and
    decodes exactly as a fresh pass would; an optimiser step on the weights empties every
    cache, so decoding then follows the new weights."""
    from phoneworld_gym.baselines.lm_agent import LocalModel

    lm = LocalModel.load(tiny)
    calls = [0]
    hook = lm.model.register_forward_pre_hook(lambda *_: calls.__setitem__(0, calls[0] + 1))
    allowed = ['{"action_type": "wait"}', '{"action_type": "navigate_back"}',
               '{"action_type": "open_app", "app_name": "Contacts"}']
    msgs = [{"role": "user", "content": "Goal: open Contacts\nScreen elements:\n[0] Home"}]
    try:
        first = lm.generate(msgs, temperature=1.0, seed=4, allowed=allowed)
        n = calls[0]
        again = lm.generate(msgs, temperature=1.0, seed=4, allowed=allowed)
        assert again.token_ids == first.token_ids
        assert calls[0] - n < n  # the prompt's pass was not run again
        fresh = LocalModel(lm.model, lm.tokenizer)
        fresh.prompt_cache = 0
        assert fresh.generate(msgs, temperature=1.0, seed=4, allowed=allowed).token_ids \
            == first.token_ids
        opt = torch.optim.SGD(lm.model.parameters(), lr=10.0)
        loss = sum(p.float().pow(2).sum() for p in lm.model.parameters())
        loss.backward()  # type: ignore[union-attr]
        opt.step()
        n = calls[0]
        lm.generate(msgs, temperature=1.0, seed=4, allowed=allowed)
        assert calls[0] - n >= 2  # the head and the prompt were run again
    finally:
        hook.remove()


@pytest.mark.parametrize("kind", ["tokens", "candidates"])
def test_merging_identical_samples_leaves_the_update_unchanged(kind: str) -> None:
    """A group's identical (prompt, action) samples go through the model once, weighted by
    their count: one SGD step moves the weights exactly as the unmerged samples do."""
    from phoneworld_gym.baselines.grpo import merge_identical

    def samples(group: int) -> list[StepSample]:
        out = []
        for choice, adv in ((0, 1.5), (0, 1.5), (0, 0.5), (4, -1.0), (4, -1.0), (0, -0.7)):
            smp = _sample(None, group, adv, choice)
            if kind == "tokens":
                smp.candidates, smp.choice = None, -1
            out.append(smp)
        return out

    merged = merge_identical(samples(0))
    assert [m.weight for m in merged] == [3.0, 2.0, 1.0]  # same sign merges, not across
    assert merged[0].advantage == pytest.approx((1.5 + 1.5 + 0.5) / 3)
    assert len(merge_identical(samples(-1))) == 6  # no group: never merged
    after = []
    for group in (0, -1):
        model = _llama(5)
        opt = torch.optim.SGD(model.parameters(), lr=0.5)
        stats = update_policy(model, opt, samples(group),
                              GRPOSettings(epochs=1, minibatch=64, lr=0.5, temperature=1.0,
                                           max_grad_norm=1e9), pad_id=0)
        assert stats["samples"] == 6 and stats["passes"] == (3 if group == 0 else 6)
        after.append([p.detach().clone() for p in model.parameters()])
    for a, b in zip(*after):
        assert torch.allclose(a, b, atol=1e-6)
    assert any(not torch.equal(a, p) for a, p in zip(after[0], _llama(5).parameters()))


# -- the update's shared prompt parts, the sampler's log-probabilities, cache snapshots ------
def _shared_batch() -> tuple[list[StepSample], list[list[list[int]] | None]]:
    """Samples as a group gives them: one head (system message and goal), two screens seen
    by several episodes with different actions, one screen seen once; prompts and
    completions of several lengths."""
    head = [1, 2, 3, 4, 5]
    a, b, c = head + [6, 7, 8, 9], head + [10, 11], head + [6, 7, 12, 13, 14, 15]
    rows = [(a, [20, 21, 22, 2]), (a, [20, 23, 2]), (b, [30, 2]), (a, [24, 2]),
            (c, [20, 21, 22, 25, 26, 2]), (b, [31, 32, 2])]
    samples = [StepSample(p, comp, 1.0 - 0.4 * i) for i, (p, comp) in enumerate(rows)]
    allowed: list[list[list[int]] | None] = [
        [[20, 24], [21, 23], [22], [2, 9]], [[20, 24], [21, 23], [2]], None, [[20, 24], [2]],
        None, [[30, 31], [32], [2]]]
    return samples, allowed


@pytest.mark.parametrize("head", [True, False])
def test_shared_prompt_parts_give_the_plain_passes_logprobs_and_gradients(head: bool) -> None:
    """``token_logprobs(share=True)``: the batch's common head once, then for each chunk of
    distinct prompts of similar length their rest once and their rows' completions (here
    three chunks: prompts of 2, 4 and 6 tokens after the head): the completion tokens'
    log-probabilities (allowed sets included) and their gradients are the plain pass's;
    with no common head (rows differ from their first token) no head pass."""
    from phoneworld_gym.baselines.grpo import _length_chunks, pack, token_logprobs

    assert _length_chunks([4, 2, 6, 5, 2]) == [[1, 4], [0, 3], [2]]
    assert _length_chunks([100, 120, 125, 126]) == [[0, 1, 2], [3]]

    samples, allowed = _shared_batch()
    if not head:
        samples[2].prompt_ids = [40] + samples[2].prompt_ids[1:]
    ids, attn, comp = pack(samples, pad_id=0)
    got = {}
    for share in (False, True):
        model = _llama(3)
        calls = [0]
        model.register_forward_pre_hook(lambda *_, c=calls: c.__setitem__(0, c[0] + 1))
        lp = token_logprobs(model, ids, attn, 0.7, allowed, comp, only=comp, share=share)
        grads = torch.autograd.grad((lp * torch.linspace(1, 2, lp.shape[1])).sum(),
                                    list(model.parameters()))
        got[share] = (lp.detach(), grads, calls[0])
    (plain, g_plain, n_plain), (shared, g_shared, n_shared) = got[False], got[True]
    # no head: whole prompts of 7, 7, 9 and 11 tokens, in two chunks (7; 9 and 11)
    assert n_plain == 1 and n_shared == (1 + 2 * 3 if head else 2 * 2)
    assert torch.allclose(shared, plain, atol=1e-5)
    assert torch.all(shared[~comp.bool()] == 0) and float(plain[comp.bool()].abs().sum()) > 1
    for a, b in zip(g_plain, g_shared):
        assert torch.allclose(a, b, atol=1e-5)


def test_shared_prompt_parts_refuse_what_they_cannot_share() -> None:
    """Wanted tokens that do not end their row, or a left-padded row: no shared pass (None),
    and ``token_logprobs(share=True)`` gives the plain pass's values."""
    from phoneworld_gym.baselines.grpo import pack, shared_prefix_logits, token_logprobs

    samples, _ = _shared_batch()
    ids, attn, comp = pack(samples, pad_id=0)
    model = _llama(3)
    first_only = comp * (comp.cumsum(1) == 1)
    keep = torch.tensor([3])
    assert shared_prefix_logits(model, ids, attn, first_only, keep) is None
    left = attn.flip(1)
    assert shared_prefix_logits(model, ids, left, comp, keep) is None
    with torch.no_grad():
        a = token_logprobs(model, ids, attn, 1.0, only=first_only, share=True)
        b = token_logprobs(model, ids, attn, 1.0, only=first_only)
    assert torch.equal(a, b)


def test_sampled_trie_replies_record_the_logprobs_the_update_would_compute(tiny: Path) -> None:
    """A sampled trie reply records each token's log-probability as drawn (0 where the trie
    forced it): the update's own pass over the sample gives the same numbers; a greedy reply
    records none. Decoding the prompt again replays its passes (the prompt's and each
    branch's) from the cache: no forward pass at all, the same reply."""
    from phoneworld_gym.baselines.grpo import compute_logprobs
    from phoneworld_gym.baselines.lm_agent import LocalModel

    lm = LocalModel.load(tiny)
    allowed = ['{"action_type": "wait"}', '{"action_type": "navigate_back"}',
               '{"action_type": "open_app", "app_name": "Contacts"}',
               '{"action_type": "open_app", "app_name": "Clock"}']
    msgs = [{"role": "user", "content": "Goal: open Contacts\nScreen elements:\n[0] Home"}]
    calls = [0]
    hook = lm.model.register_forward_pre_hook(lambda *_: calls.__setitem__(0, calls[0] + 1))
    try:
        seen = set()
        for seed in range(8):
            done = lm.generate(msgs, temperature=0.8, seed=seed, allowed=allowed)
            assert done.logprobs is not None and len(done.logprobs) == len(done.token_ids)
            forced = [len(ok) == 1 for ok in done.allowed_ids or []]
            assert [lp == 0.0 for lp in done.logprobs] == forced
            smp = StepSample(done.prompt_ids, done.token_ids, 1.0, allowed=done.allowed_ids)
            again = compute_logprobs(lm.model, [smp], 0, 0.8)[0]
            assert again == pytest.approx(done.logprobs, abs=1e-5)
            seen.add(done.text)
            n = calls[0]
            replay = lm.generate(msgs, temperature=0.8, seed=seed, allowed=allowed)
            assert calls[0] == n and replay.token_ids == done.token_ids
        assert len(seen) > 1  # sampled, and every draw's numbers checked
        assert lm.generate(msgs, temperature=0.0, allowed=allowed).logprobs is None
        # the memory budget: the passes kept hold at most prompt_cache_bytes of cache
        from phoneworld_gym.baselines.scoring import snapshot_bytes

        held = sum(snapshot_bytes(v[1]) for v in lm._memo.values())
        assert 0 < held <= lm.prompt_cache_bytes and len(lm._memo) <= lm.prompt_cache
        lm.prompt_cache_bytes = held // 2
        other = [{"role": "user", "content": "Goal: open Clock\nScreen elements:\n[0] Home"}]
        lm.generate(other, temperature=0.8, seed=0, allowed=allowed)  # new passes kept ...
        assert sum(snapshot_bytes(v[1]) for v in lm._memo.values()) <= held // 2
        n = calls[0]
        lm.generate(msgs, temperature=0.8, seed=0, allowed=allowed)
        assert calls[0] > n  # ... the oldest forgotten, so they are run again
    finally:
        hook.remove()


def test_cache_snapshots_survive_the_passes_run_on_them() -> None:
    """A restored snapshot holds the cache as it was when taken, however far the cache it
    was taken from has grown since, and passes on it give a fresh pass's logits."""
    from phoneworld_gym.baselines.scoring import (
        _cache_kw,
        _cache_of,
        cache_restore,
        cache_snapshot,
    )

    model = _llama(2)
    prompt = torch.tensor([[1, 2, 3, 4, 5, 6]])
    with torch.no_grad():
        past = _cache_of(model(input_ids=prompt, use_cache=True))
        snap = cache_snapshot(past)
        for tok in (7, 8, 9):  # grow the original
            past = _cache_of(model(input_ids=torch.tensor([[tok]]), **{_cache_kw(model): past},
                                   use_cache=True))
        assert past.get_seq_length() == 9
        for _ in range(2):
            fresh = cache_restore(snap)
            assert fresh.get_seq_length() == 6
            got = model(input_ids=torch.tensor([[11, 12]]), **{_cache_kw(model): fresh},
                        use_cache=True).logits
            want = model(input_ids=torch.tensor([[1, 2, 3, 4, 5, 6, 11, 12]])).logits[:, 6:]
            assert torch.allclose(got, want, atol=1e-5)
        assert past.get_seq_length() == 9
