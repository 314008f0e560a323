"""Training pieces: GRPO's math (advantages, masks, clipping, KL) and updates on a fixed batch,
the task sampler, SFT on a fixed batch and checkpoints that act identically after reloading."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from phoneworld_gym.baselines.grpo import (  # noqa: E402
    GRPOSettings,
    StepSample,
    group_advantages,
    grpo_loss,
    pack,
    token_logprobs,
    update_policy,
)
from phoneworld_gym.baselines.sampler import EnvSource, TaskSampler  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """One torch thread: on a busy 2-core machine more threads only contend."""
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def toy_model(vocab: int = 16, seed: int = 0):
    """A two-layer GPT-2 from a config (nothing downloaded)."""
    torch.manual_seed(seed)
    cfg = transformers.GPT2Config(vocab_size=vocab, n_positions=32, n_embd=32, n_layer=2,
                                  n_head=2, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    return transformers.GPT2LMHeadModel(cfg).eval()


# -- advantages -----------------------------------------------------------------------------
def test_group_advantages_normalise_within_the_group() -> None:
    adv = group_advantages([1.0, 0.0, 0.0, 1.0], eps=0.0)
    assert adv == pytest.approx([1.0, -1.0, -1.0, 1.0])
    adv = group_advantages([1.0, 0.0, 0.0, 0.0], eps=0.0)
    # mean 0.25, population std sqrt(3)/4
    s = math.sqrt(3) / 4
    assert adv == pytest.approx([0.75 / s, -0.25 / s, -0.25 / s, -0.25 / s])
    assert sum(adv) == pytest.approx(0.0, abs=1e-9)
    assert group_advantages([1.0, 1.0, 1.0]) == [0.0, 0.0, 0.0]
    assert group_advantages([0.0, 0.0]) == [0.0, 0.0]


def test_group_advantages_reject_bad_rewards() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        group_advantages([])
    with pytest.raises(ValueError, match="finite"):
        group_advantages([1.0, float("nan")])


# -- masks and the loss ---------------------------------------------------------------------
def test_pack_masks_only_completion_tokens() -> None:
    samples = [StepSample([5, 6, 7], [8, 9], 1.0), StepSample([5], [3, 4, 2], -1.0)]
    ids, attn, comp = pack(samples, pad_id=0)
    assert ids.tolist() == [[5, 6, 7, 8, 9], [5, 3, 4, 2, 0]]
    assert attn.tolist() == [[1, 1, 1, 1, 1], [1, 1, 1, 1, 0]]
    assert comp.tolist() == [[0, 0, 0, 1, 1], [0, 1, 1, 1, 0]]
    with pytest.raises(ValueError, match="empty completion"):
        pack([StepSample([1], [], 1.0)], 0)


def test_token_logprobs_are_the_models_next_token_logprobs() -> None:
    model = toy_model()
    ids = torch.tensor([[1, 2, 3, 4]])
    with torch.no_grad():
        lp = token_logprobs(model, ids, torch.ones_like(ids))
        logits = model(input_ids=ids).logits[0]
    want = [0.0] + [float(torch.log_softmax(logits[t - 1], -1)[ids[0, t]]) for t in range(1, 4)]
    assert lp[0].tolist() == pytest.approx(want, abs=1e-5)
    with torch.no_grad():
        hot = token_logprobs(model, ids, torch.ones_like(ids), temperature=0.5)
    want2 = float(torch.log_softmax(logits[0] / 0.5, -1)[2])
    assert float(hot[0, 1]) == pytest.approx(want2, abs=1e-5)


def test_token_logprobs_over_allowed_tokens_renormalise_among_them() -> None:
    """With allowed sets recorded, a completion token's log-probability is normalised over
    its allowed tokens only (at the temperature); a forced token scores 0, the prompt and
    unconstrained samples keep the full softmax, and the gradient reaches only allowed
    logits."""
    model = toy_model()
    ids = torch.tensor([[1, 2, 5, 6, 3], [1, 4, 7, 3, 0]])
    attn = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 1, 0]])
    comp = torch.tensor([[0, 0, 1, 1, 1], [0, 0, 1, 1, 0]])
    allowed = [[[5, 9, 10], [6], [3, 11]], None]
    with torch.no_grad():
        full = token_logprobs(model, ids, attn, 0.7)
        got = token_logprobs(model, ids, attn, 0.7, allowed, comp)
        logits = model(input_ids=ids, attention_mask=attn).logits / 0.7
    want = float(logits[0, 1, 5] - torch.logsumexp(logits[0, 1, [5, 9, 10]], 0))
    assert float(got[0, 2]) == pytest.approx(want, abs=1e-5)
    assert float(got[0, 3]) == pytest.approx(0.0, abs=1e-6)  # the only token allowed there
    want = float(logits[0, 3, 3] - torch.logsumexp(logits[0, 3, [3, 11]], 0))
    assert float(got[0, 4]) == pytest.approx(want, abs=1e-5)
    assert float(got[0, 2]) > float(full[0, 2])  # fewer rivals, more probability
    assert torch.equal(got[0, :2], full[0, :2]) and torch.equal(got[1], full[1])
    # the gradient of a constrained token's log-probability touches allowed logits only
    seen: dict[str, torch.Tensor] = {}

    def keep(module, inputs, out) -> None:
        out.retain_grad()
        seen["logits"] = out

    head = model.lm_head.register_forward_hook(keep)
    try:
        token_logprobs(model, ids[:1], attn[:1], 0.7, allowed[:1], comp[:1])[0, 2].backward()
    finally:
        head.remove()
    grad = seen["logits"].grad[0, 1]
    assert set(torch.nonzero(grad).squeeze(-1).tolist()) == {5, 9, 10}


def test_token_logprobs_of_some_tokens_only_equal_the_full_ones_and_their_gradient() -> None:
    """``only``: the completion tokens' log-probabilities (allowed sets included) and their
    gradients are those of the full pass; every other place is 0; the vocabulary projection
    runs at the predicting positions only (the union over the batch), not at every one."""
    model = toy_model()
    ids = torch.tensor([[1, 2, 5, 6, 3, 8, 9], [1, 4, 7, 3, 0, 0, 0]])
    attn = torch.tensor([[1] * 7, [1, 1, 1, 1, 0, 0, 0]])
    comp = torch.tensor([[0, 0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 0, 0, 0]])
    allowed = [[[3, 11], [8], [9, 2, 4]], [[7, 5], [3, 1]]]
    rows: list[int] = []

    def count(module, inputs, out) -> None:
        rows.append(int(inputs[0].shape[1]))

    hook = model.lm_head.register_forward_hook(count)
    try:
        full = token_logprobs(model, ids, attn, 0.7, allowed, comp)
        part = token_logprobs(model, ids, attn, 0.7, allowed, comp, only=comp)
    finally:
        hook.remove()
    assert rows == [7, 5]  # every position, then positions 1, 2, 3, 4, 5 only
    assert torch.allclose(part[comp.bool()], full[comp.bool()], atol=1e-6)
    assert torch.all(part[~comp.bool()] == 0)
    assert float(full[0, 2].detach()) != 0  # a prompt token the full pass scores
    g_full = torch.autograd.grad((full * comp).sum(), list(model.parameters()))
    g_part = torch.autograd.grad(part.sum(), list(model.parameters()))
    for a, b in zip(g_full, g_part):
        assert torch.allclose(a, b, atol=1e-6)
    none = token_logprobs(model, ids, attn, only=torch.zeros_like(comp))
    assert torch.all(none == 0)
    with pytest.raises(ValueError, match="leaves out"):
        token_logprobs(model, ids, attn, 0.7, allowed, comp, only=comp * 0 + (comp.cumsum(1) == 1))


def test_token_logprobs_reject_sets_that_do_not_fit() -> None:
    model = toy_model()
    ids = torch.tensor([[1, 2, 5, 3]])
    attn = torch.ones_like(ids)
    comp = torch.tensor([[0, 0, 1, 1]])
    with pytest.raises(ValueError, match="2 completion tokens but 1 allowed"):
        token_logprobs(model, ids, attn, 1.0, [[[5]]], comp)
    with pytest.raises(ValueError, match="not among the tokens allowed"):
        token_logprobs(model, ids, attn, 1.0, [[[5], [4]]], comp)
    with pytest.raises(ValueError, match="completion_mask"):
        token_logprobs(model, ids, attn, 1.0, [[[5], [3]]])


def test_updates_on_allowed_tokens_score_what_the_decoder_sampled() -> None:
    """One prompt whose decoder allows two actions (tokens 7 and 8, each then the end token
    3): the update's old log-probabilities are those of the constrained sampler (the forced
    end token scores 0), and a negative advantage on 7 makes 8 likelier among the two."""
    def share_of_8(model) -> float:
        with torch.no_grad():
            logits = model(input_ids=torch.tensor([[1, 2]])).logits[0, -1]
        return float(torch.softmax(logits[[7, 8]], 0)[1])

    for only in (True, False):
        model = toy_model(seed=3)
        start = share_of_8(model)
        settings = GRPOSettings(updates=1, epochs=2, minibatch=2, lr=5e-3,
                                allowed_tokens_only=only)
        opt = torch.optim.AdamW(model.parameters(), lr=settings.lr)
        sample = StepSample([1, 2], [7, 3], -1.0, allowed=[[7, 8], [3]])
        update_policy(model, opt, [sample], settings, 0)
        assert sample.old_logprobs is not None
        if only:
            assert sample.old_logprobs[1] == pytest.approx(0.0, abs=1e-6)
            assert math.exp(sample.old_logprobs[0]) == pytest.approx(1 - start, abs=1e-5)
        else:
            assert sample.old_logprobs[1] < -0.5  # the end token among all 16
        for _ in range(3):
            update_policy(model, opt, [StepSample([1, 2], [7, 3], -1.0,
                                                  allowed=[[7, 8], [3]])], settings, 0)
        assert share_of_8(model) > start + 0.2


def test_grpo_loss_clips_the_ratio_and_ignores_masked_tokens() -> None:
    mask = torch.tensor([[0, 1, 1], [0, 1, 0]])
    old = torch.zeros(2, 3)
    # sample 0: ratio e^0.5 (1.65) on both tokens, A=+1 -> clipped to 1.2
    # sample 1: ratio e^-0.5 (0.61), A=-1 -> min(-0.61, -0.8) = -0.8 (clipped side)
    logp = torch.tensor([[9.0, 0.5, 0.5], [9.0, -0.5, 7.0]])
    adv = torch.tensor([1.0, -1.0])
    loss, stats = grpo_loss(logp, old, adv, mask, clip_eps=0.2)
    assert float(loss) == pytest.approx(-(1.2 + 1.2 - 0.8) / 3, abs=1e-6)
    assert stats["clipped"] == pytest.approx(1.0)
    # inside the clip range the surrogate is ratio * A, and its gradient is ratio * A
    logp2 = torch.tensor([[0.0, 0.1, -0.1]], requires_grad=True)
    loss2, stats2 = grpo_loss(logp2, torch.zeros(1, 3), torch.tensor([2.0]),
                              torch.tensor([[0, 1, 1]]), clip_eps=0.2)
    assert loss2.item() == pytest.approx(-2 * (math.exp(0.1) + math.exp(-0.1)) / 2, abs=1e-6)
    assert stats2["clipped"] == 0.0
    loss2.backward()
    assert logp2.grad is not None
    assert logp2.grad[0].tolist() == pytest.approx(
        [0.0, -math.exp(0.1), -math.exp(-0.1)], abs=1e-6)
    # clipped tokens pass no gradient
    logp3 = torch.tensor([[0.0, 0.5]], requires_grad=True)
    grpo_loss(logp3, torch.zeros(1, 2), torch.tensor([1.0]), torch.tensor([[0, 1]]))[0].backward()
    assert logp3.grad is not None and logp3.grad.abs().sum() == 0


def test_grpo_loss_kl_penalty_is_k3_and_zero_at_the_reference() -> None:
    mask = torch.tensor([[1, 1]])
    logp = torch.tensor([[-1.0, -2.0]])
    adv = torch.tensor([0.0])
    loss0, stats0 = grpo_loss(logp, logp, adv, mask, kl_coef=0.5, ref_logp=logp.clone())
    assert float(loss0) == pytest.approx(0.0) and stats0["kl"] == pytest.approx(0.0)
    ref = torch.tensor([[-1.5, -1.0]])
    loss, stats = grpo_loss(logp, logp, adv, mask, kl_coef=0.5, ref_logp=ref)
    d = np.array([-0.5, 1.0])
    kl = np.exp(d) - d - 1
    assert stats["kl"] == pytest.approx(kl.mean(), abs=1e-6)
    assert float(loss) == pytest.approx(0.5 * kl.mean(), abs=1e-6)


def test_grpo_loss_rejects_mismatched_shapes() -> None:
    with pytest.raises(ValueError, match="one shape"):
        grpo_loss(torch.zeros(2, 3), torch.zeros(2, 4), torch.zeros(2), torch.ones(2, 3))
    with pytest.raises(ValueError, match="advantages"):
        grpo_loss(torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(3), torch.ones(2, 3))


def completion_prob(model, prompt: list[int], completion: list[int]) -> float:
    ids = torch.tensor([prompt + completion])
    with torch.no_grad():
        lp = token_logprobs(model, ids, torch.ones_like(ids))
    return float(lp[0, len(prompt):].sum().exp())


def test_a_few_updates_raise_the_probability_of_rewarded_completions() -> None:
    """Two prompts, four sampled completions each, one rewarded per group: after six
    updates the rewarded completions are much likelier and the unrewarded ones less likely."""
    model = toy_model()
    groups = {(1, 2): ([7, 8, 3], [[9, 9, 3], [10, 3], [11, 12, 3]]),
              (1, 4): ([12, 3], [[7, 3], [8, 9, 3], [13, 3]])}
    before = {(p, tuple(c)): completion_prob(model, list(p), c)
              for p, (good, bad) in groups.items() for c in [good, *bad]}
    settings = GRPOSettings(updates=1, epochs=3, minibatch=4, lr=1e-2, group_size=4)
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr)
    for _ in range(6):
        samples = []
        for p, (good, bad) in groups.items():
            adv = group_advantages([1.0, 0.0, 0.0, 0.0])
            samples += [StepSample(list(p), c, a) for c, a in zip([good, *bad], adv)]
        stats = update_policy(model, opt, samples, settings, pad_id=0)
        assert stats["samples"] == 8 and math.isfinite(stats["loss"])
    for p, (good, bad) in groups.items():
        assert completion_prob(model, list(p), good) > 5 * before[(p, tuple(good))]
        for c in bad:
            assert completion_prob(model, list(p), c) < before[(p, tuple(c))]


def test_update_skips_samples_without_signal() -> None:
    model = toy_model()
    params = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    stats = update_policy(model, opt, [StepSample([1], [2, 3], 0.0)] * 4, GRPOSettings(), 0)
    assert stats["samples"] == 0
    assert all(torch.equal(a, b) for a, b in zip(params, model.parameters()))


def test_grpo_settings_name_bad_values() -> None:
    with pytest.raises(ValueError, match="group_size"):
        GRPOSettings(group_size=1)
    with pytest.raises(ValueError, match="unknown RL setting"):
        GRPOSettings.from_dict({"updates": 2, "learning_rate": 0.1})
    with pytest.raises(ValueError, match="updates"):
        GRPOSettings(updates=0)
    with pytest.raises(ValueError, match="allowed_tokens_only must be true or false"):
        GRPOSettings.from_dict({"allowed_tokens_only": "yes"})


def test_max_draws_is_checked_by_name() -> None:
    """max_draws: None or 0 keep the old behaviour, fewer than tasks_per_update, negatives and
    non-ints are errors naming the setting."""
    assert GRPOSettings(max_draws=0).max_draws is None
    assert GRPOSettings(tasks_per_update=3, max_draws=3).max_draws == 3
    with pytest.raises(ValueError, match=r"max_draws \(2\) must be >= tasks_per_update \(3\)"):
        GRPOSettings(tasks_per_update=3, max_draws=2)
    for bad in (-1, 2.5, True, "8"):
        with pytest.raises(ValueError, match="max_draws must be"):
            GRPOSettings(max_draws=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_draws"):
        GRPOSettings.from_dict({"tasks_per_update": 4, "max_draws": 1})


def test_balanced_episodes_weigh_each_episode_equally() -> None:
    """A 2-step success against three 8-step failures: per step, the failures outweigh the
    success four to one; balanced, each episode's steps sum to its advantage x the group's
    mean length (6.5), so the group's total is zero."""
    from phoneworld_gym.baselines.grpo import Episode, group_samples

    group = [Episode("m", "t", 0, [([1], [2, 3])] * n, n == 2, 0.0) for n in (2, 8, 8, 8)]
    rewards = [1.0, 0.0, 0.0, 0.0]
    plain = group_samples(group, rewards, balance=False)
    assert [round(s.advantage, 3) for s in plain] == [1.732] * 2 + [-0.577] * 24
    assert sum(s.advantage for s in plain) == pytest.approx(2 * 3**0.5 - 24 / 3**0.5, abs=1e-2)
    balanced = group_samples(group, rewards, balance=True)
    assert [round(s.advantage, 2) for s in balanced[:3]] == [5.63, 5.63, -0.47]
    assert sum(s.advantage for s in balanced[:2]) == pytest.approx(3**0.5 * 6.5, abs=1e-2)
    assert sum(s.advantage for s in balanced) == pytest.approx(0.0, abs=1e-6)
    with pytest.raises(ValueError, match="balance_episodes must be true or false"):
        GRPOSettings(balance_episodes="yes")  # type: ignore[arg-type]


# -- dynamic sampling, on a scripted world ----------------------------------------------------
TASK_TOKEN = {"always": 4, "never": 5, "mixed": 6}


class OneStepEnv:
    """An episode is one step; the goal is the task's name (the agent puts it in its prompt)."""

    def reset(self, seed=None, options=None):
        self.task = options["task"]
        return {"goal": self.task, "a11y": "[]"}, {}

    def step(self, action):
        return ({"goal": self.task, "a11y": "[]"}, 0.0, True, False,
                {"action_error": "", "success": False})


class TaskAgent:
    """Writes completion [7, 3] after a prompt [task token, 1], so a sample tells its task."""

    def __init__(self):
        self.last: dict = {}
        self.goal = ""

    def reset(self, goal):
        self.goal = goal

    def act(self, obs):
        self.last = {"prompt_ids": [TASK_TOKEN[self.goal], 1], "completion_ids": [7, 3],
                     "completion": "wait"}
        return "wait"


class ScriptedSampler:
    """Hands out a fixed list of task instances in order (seed = its position)."""

    def __init__(self, tasks):
        from phoneworld_gym.baselines.sampler import TaskInstance

        self.queue = [TaskInstance("fake", t, i) for i, t in enumerate(tasks)]
        self.drawn: list = []

    def draw(self):
        self.drawn.append(self.queue.pop(0))
        return self.drawn[-1]

    def env(self, source):
        return OneStepEnv()


def scripted_reward():
    """always: 1, never: 0, mixed: 1 for the first episode of each group, then 0."""
    played: dict = {}

    def reward(ep) -> float:
        n = played[ep.seed] = played.get(ep.seed, 0) + 1
        return {"always": 1.0, "never": 0.0}.get(ep.task, float(n == 1))

    return reward


def run_scripted(tasks, settings, monkeypatch):
    """train_grpo on the scripted world; returns the history, the sampler and, per update,
    the samples handed to the policy update."""
    from types import SimpleNamespace

    import phoneworld_gym.baselines.grpo as grpo

    trained: list = []
    real_update = grpo.update_policy

    def spy(model, opt, samples, *args, **kwargs):
        trained.append(list(samples))
        return real_update(model, opt, samples, *args, **kwargs)

    monkeypatch.setattr(grpo, "update_policy", spy)
    sampler = ScriptedSampler(tasks)
    history = grpo.train_grpo(toy_model(), SimpleNamespace(pad_token_id=0), sampler, settings,
                              make_agent=lambda m, t: TaskAgent(), reward_fn=scripted_reward())
    return history, sampler, trained


def test_dynamic_sampling_trains_only_on_groups_with_spread(monkeypatch) -> None:
    """Update 1 draws until two mixed groups are found (always/never groups are played but
    not trained on); update 2 finds none and stops at the cap of 6 draws, leaving the rest."""
    tasks = (["always", "never", "mixed", "always", "mixed"]
             + ["never", "always"] * 3 + ["mixed"])
    settings = GRPOSettings(updates=2, tasks_per_update=2, group_size=4, epochs=1,
                            minibatch=4, lr=1e-3, max_draws=6)
    history, sampler, trained = run_scripted(tasks, settings, monkeypatch)
    assert [(h["drawn"], h["kept"]) for h in history] == [(5, 2), (6, 0)]
    assert len(sampler.drawn) == 11 and [i.task for i in sampler.queue] == ["mixed"]
    # update 1: the two mixed groups' 8 steps, advantages +sqrt(3) once and -1/sqrt(3) x3 each
    assert {s.prompt_ids[0] for s in trained[0]} == {TASK_TOKEN["mixed"]}
    assert len(trained[0]) == 8 and history[0]["samples"] == 8
    assert sorted(round(s.advantage, 3) for s in trained[0]) == [-0.577] * 6 + [1.732] * 2
    assert trained[1] == [] and history[1]["samples"] == 0 and history[1]["loss"] == 0.0
    # reward and success are over every episode played: 5 groups, 2 always + 2 mixed wins
    assert history[0]["reward"] == pytest.approx((2 * 4 + 2 * 1) / 20)
    assert history[1]["reward"] == pytest.approx(3 * 4 / 24)


def test_without_max_draws_each_update_plays_exactly_its_instances(monkeypatch) -> None:
    """The old behaviour: tasks_per_update instances per update, whatever their rewards; only
    the group with a spread gives samples."""
    settings = GRPOSettings(updates=1, tasks_per_update=3, group_size=4, epochs=1, minibatch=4)
    history, sampler, trained = run_scripted(["always", "mixed", "never", "mixed"], settings,
                                             monkeypatch)
    assert (history[0]["drawn"], history[0]["kept"]) == (3, 1)
    assert len(sampler.queue) == 1
    assert [s.prompt_ids[0] for s in trained[0]] == [TASK_TOKEN["mixed"]] * 4


# -- the task sampler -----------------------------------------------------------------------
def test_sampler_draws_by_weight_reproducibly() -> None:
    sources = [EnvSource("mock", "PhoneWorld/All-v0", 3.0, tasks=["ContactsStar",
                                                                   "SettingsSwitch"]),
               EnvSource("field", "PhoneWorld/Device-v0", 1.0, tasks=["ClockDisableAlarm"],
                         profile="field", transport="direct")]
    a = TaskSampler(sources, seed=5, seeds=range(100, 110)).draw_batch(400)
    b = TaskSampler(sources, seed=5, seeds=range(100, 110)).draw_batch(400)
    assert a == b
    share = sum(d.source == "mock" for d in a) / len(a)
    assert 0.68 < share < 0.82
    assert {d.task for d in a if d.source == "field"} == {"ClockDisableAlarm"}
    assert {d.task for d in a if d.source == "mock"} == {"ContactsStar", "SettingsSwitch"}
    assert {d.seed for d in a} <= set(range(100, 110))
    assert TaskSampler(sources, seed=6, seeds=range(100, 110)).draw_batch(40) != a[:40]


def test_sampler_envs_play_the_drawn_world() -> None:
    """A direct field source plays on a FieldPhone, the mock source on the clean phone."""
    from phoneworld_gym.phone import PhoneWorldDevice
    from phoneworld_gym.virtual.field import FieldPhone

    sampler = TaskSampler([
        EnvSource("mock", "PhoneWorld/All-v0", tasks=["ContactsStar"]),
        EnvSource("field", "PhoneWorld/Device-v0", tasks=["ContactsStar"], profile="field",
                  transport="direct")], seed=0)
    try:
        assert isinstance(sampler.env("field").unwrapped.device, FieldPhone)
        dev = sampler.env("mock").unwrapped.device
        assert isinstance(dev, PhoneWorldDevice) and not isinstance(dev, FieldPhone)
        obs, info = sampler.env("field").reset(seed=3, options={"task": "ContactsStar"})
        assert info["task"] == "ContactsStar" and "screenshot" not in obs
    finally:
        sampler.close()


def test_sources_name_bad_config() -> None:
    with pytest.raises(ValueError, match="unknown env id"):
        EnvSource("x", "PhoneWorld/Nope-v0")
    with pytest.raises(ValueError, match="weight"):
        EnvSource("x", "PhoneWorld/All-v0", weight=0)
    with pytest.raises(ValueError, match="profile"):
        EnvSource("x", "PhoneWorld/Device-v0", profile="dusty")
    with pytest.raises(ValueError, match="transport"):
        EnvSource("x", "PhoneWorld/Device-v0", transport="usb")
    with pytest.raises(ValueError, match="NoSuchTask"):
        EnvSource("x", "PhoneWorld/All-v0", tasks=["NoSuchTask"])
    with pytest.raises(ValueError, match="unknown key"):
        EnvSource.from_dict({"name": "x", "env_id": "PhoneWorld/All-v0", "wieght": 2})
    with pytest.raises(ValueError, match="distinct"):
        TaskSampler([EnvSource("x", "PhoneWorld/All-v0")] * 2)


def test_sampler_field_world_over_adb(adb_port: int) -> None:
    """The device world as the recipe plays it: a field virtual phone over a private adb
    server, read with dump retries; the oracle solves a task through it."""
    from phoneworld_gym.baselines.agents import OracleAgent
    from phoneworld_gym.baselines.grpo import play
    from phoneworld_gym.real_device.adb_device import AdbDevice

    sampler = TaskSampler([EnvSource("field", "PhoneWorld/Device-v0", tasks=["ContactsStar"],
                                     profile="field", kwargs={"port": adb_port})], seed=0)
    try:
        env = sampler.env("field")
        device = env.unwrapped.device
        assert isinstance(device, AdbDevice) and device.port == adb_port
        assert device.virtual and not device.facts["tidy"]  # the field profile, seen over adb
        assert device.dump_retries >= 2
        oracle = OracleAgent(env)
        oracle.last = {"prompt_ids": [], "completion_ids": []}  # play() reads it
        ep = play(env, oracle, "field", "ContactsStar", 3)
        assert ep.success and ep.env_reward == 1.0 and len(ep.screens) == len(ep.steps) + 1
    finally:
        sampler.close()


# -- the tiny model: SFT, checkpoints, a GRPO run -------------------------------------------
@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory):
    """A tiny Llama and tokenizer built here, and oracle demonstrations of one task."""
    from phoneworld_gym.baselines.collect import collect
    from phoneworld_gym.baselines.data import load
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    root = tmp_path_factory.mktemp("tiny")
    path = build_tiny(root / "model", list(oracle_corpus(["ClockEarliestAlarm"], seeds=[0])),
                      layers=1, hidden=32, vocab=600)
    collect("PhoneWorld/All-v0", "oracle", ["ClockEarliestAlarm"], range(3), root / "demos",
            split="train")
    return path, load(root / "demos")


def test_sft_loss_falls_and_checkpoint_acts_identically(tiny, tmp_path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym import Action, PhoneEnv
    from phoneworld_gym.baselines.grpo import play
    from phoneworld_gym.baselines.lm_agent import LMAgent
    from phoneworld_gym.baselines.prompt import build_prompt, format_action
    from phoneworld_gym.baselines.sft import SFTSettings, sft_examples, train_sft

    path, demos = tiny
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path)
    examples = sft_examples(demos, tok.eos_token)
    assert len(examples) == demos.num_rows
    first = demos[0]
    assert examples[0]["prompt"] == build_prompt(first["goal"], first["tree"], [])
    assert examples[0]["completion"] == format_action(
        Action.from_json(json.loads(first["action"]))) + tok.eos_token
    assert '"action_type": "answer"' in examples[len(examples) - 1]["completion"]
    fixed = examples.select([0, 1])  # one batch, seen at every step
    lines: list[str] = []
    record = train_sft(model, tok, fixed, tmp_path / "sft",
                       SFTSettings(max_steps=12, batch_size=2, lr=1e-2, warmup_ratio=0.0,
                                   max_length=4096), log=lines.append)
    losses = record["loss"]
    assert len(losses) == 12 and record["steps"] == 12 and record["examples"] == 2
    assert losses[-1] < 0.7 * losses[0], losses  # measured: 6.39 -> 3.63
    assert max(losses[-3:]) < min(losses[:3]), losses
    assert lines[-1].startswith(f"sft step 12/12: loss {losses[-1]:.3f}")
    # the saved checkpoint, reloaded, replies exactly as the model in memory does
    env = PhoneEnv(tasks="ClockEarliestAlarm", split="train", obs_mode="a11y")
    live = play(env, LMAgent((model, tok), max_new_tokens=16), "mock", "ClockEarliestAlarm",
                7, max_steps=3)
    loaded = play(env, LMAgent(str(tmp_path / "sft"), max_new_tokens=16), "mock",
                  "ClockEarliestAlarm", 7, max_steps=3)
    assert live.actions == loaded.actions and live.steps == loaded.steps
    assert live.success == loaded.success


def test_train_grpo_updates_from_episode_rewards(tiny) -> None:
    """A short GRPO run on the env: each update's reward is the mean of the reward function
    over its episodes, samples are the steps of groups with a signal, and the weights move."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from phoneworld_gym.baselines.grpo import Episode, train_grpo
    from phoneworld_gym.baselines.lm_agent import LMAgent

    path, _ = tiny
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path)
    before = [p.detach().clone() for p in model.parameters()]
    seen: list[Episode] = []

    def reward(ep: Episode) -> float:  # a stand-in verifier: the first of each group wins
        seen.append(ep)
        return float(len(seen) % 4 == 1)

    sampler = TaskSampler([EnvSource("mock", "PhoneWorld/All-v0", tasks=["ClockEarliestAlarm"])],
                          seed=0, seeds=[11, 12])
    counter = iter(range(100))
    try:
        history = train_grpo(
            model, tok, sampler, GRPOSettings(updates=2, tasks_per_update=1, group_size=4,
                                              epochs=1, max_new_tokens=8, max_episode_steps=1),
            make_agent=lambda m, t: LMAgent((m, t), temperature=1.0, max_new_tokens=8,
                                            seed=next(counter)),
            reward_fn=reward)
    finally:
        sampler.close()
    assert len(history) == 2 and len(seen) == 8
    for h, group in zip(history, (seen[:4], seen[4:])):
        assert h["reward"] == 0.25 and [e.reward for e in group] == [1.0, 0.0, 0.0, 0.0]
        assert h["samples"] == 4  # one step per episode (max_episode_steps=1), all with signal
        assert {e.task for e in group} == {"ClockEarliestAlarm"}
        assert len({e.seed for e in group}) == 1  # a group is one task instance
        assert all(len(e.steps) == 1 and e.steps[0][1] for e in group)
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters()))


def test_trie_episodes_carry_their_allowed_tokens_into_the_samples(tiny) -> None:
    """A constrained agent's episode records, per step, the allowed tokens of each completion
    token, and its group's samples carry them to the update."""
    import gymnasium

    from phoneworld_gym.baselines.grpo import group_samples, play
    from phoneworld_gym.baselines.lm_agent import LMAgent

    path, _ = tiny
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        group = [play(env, LMAgent(path, temperature=1.0, max_new_tokens=8, seed=k,
                                   constrained="trie"), "mock", "ClockEarliestAlarm", 5,
                      max_steps=2) for k in range(2)]
    finally:
        env.close()
    for ep in group:
        assert len(ep.allowed) == len(ep.steps) > 0
        for (_, completion), sets in zip(ep.steps, ep.allowed):
            assert sets is not None and len(sets) == len(completion)
            assert all(t in ok for t, ok in zip(completion, sets))
    samples = group_samples(group, [1.0, 0.0], balance=False)
    assert [s.allowed for s in samples] == [ok for ep in group for ok in ep.allowed]


def test_named_sft_examples_name_the_element_each_demonstrated_step_acts_on(tmp_path) -> None:
    """``sft_examples(named=True)``: the same prompts, completions naming the element of the
    step's own screen before its index (what ``LMAgent(named=True)`` writes)."""
    from phoneworld_gym.baselines.collect import collect
    from phoneworld_gym.baselines.data import load
    from phoneworld_gym.baselines.prompt import element_name
    from phoneworld_gym.baselines.sft import sft_examples
    from phoneworld_gym.contract import parse_ui_elements

    collect("PhoneWorld/All-v0", "oracle", ["SettingsSwitch"], range(2), tmp_path / "demos",
            split="train")
    demos = load(tmp_path / "demos")
    plain = sft_examples(demos, "<eos>")
    named = sft_examples(demos, "<eos>", named=True)
    assert plain["prompt"] == named["prompt"]
    names = []
    for row, p, n in zip(demos, plain["completion"], named["completion"]):
        action = json.loads(row["action"])
        if action.get("index") is None:
            assert n == p
            continue
        reply = json.loads(n.removesuffix("<eos>"))
        name = element_name(parse_ui_elements(row["tree"])[action["index"]])
        assert reply == {"action_type": action["action_type"], "element": name, **action}
        assert list(reply)[:3] == ["action_type", "element", "index"]
        names.append(name)
    # the oracle taps the Settings section, then the goal's own row: its name is in the goal
    assert len(names) == 4
    for goal, name in zip(demos.filter(lambda r: r["step"] == 0)["goal"], names[1::2]):
        assert name.lower() in goal.lower(), (goal, name)


def test_the_update_takes_the_samplers_logprobs_as_the_old_ones(tiny) -> None:
    """Episodes of a sampling trie agent carry each step's log-probabilities as drawn; the
    update takes them as the old ones (no pass of its own before the first step) and moves
    the weights as when it computes them; at another temperature it computes them."""
    import copy

    import gymnasium

    from phoneworld_gym.baselines import grpo
    from phoneworld_gym.baselines.grpo import group_samples, play
    from phoneworld_gym.baselines.lm_agent import LMAgent

    path, _ = tiny
    agent = LMAgent(path, temperature=1.0, max_new_tokens=8, seed=3, constrained="trie")
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        group = [play(env, agent, "mock", "ClockEarliestAlarm", 5, max_steps=3)
                 for _ in range(4)]
    finally:
        env.close()
    samples = group_samples(group, [1.0, 0.0, 1.0, 0.0], balance=False, group_id=0)
    assert all(s.sampled_logprobs is not None and s.sampled_temperature == 1.0
               and len(s.sampled_logprobs) == len(s.completion_ids) for s in samples)
    assert any(lp < 0 for s in samples for lp in s.sampled_logprobs or [])
    after, passes = {}, {}
    for name, drawn, temp in (("computed", False, 1.0), ("drawn", True, 1.0),
                              ("other_temp", True, 0.5)):
        model = copy.deepcopy(agent.model)
        calls = [0]
        model.register_forward_pre_hook(lambda *_, c=calls: c.__setitem__(0, c[0] + 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.5)
        grpo.SAMPLER_LOGPROBS = drawn
        try:
            update_policy(model, opt, copy.deepcopy(samples),
                          GRPOSettings(epochs=1, minibatch=64, lr=0.5, temperature=temp), 0)
        finally:
            grpo.SAMPLER_LOGPROBS = True
        after[name] = [p.detach().clone() for p in model.parameters()]
        passes[name] = calls[0]
    assert passes["drawn"] < passes["computed"] == passes["other_temp"]
    for a, b in zip(after["computed"], after["drawn"]):
        assert torch.allclose(a, b, atol=1e-5)
    assert any(not torch.equal(a, p) for a, p in zip(after["drawn"], agent.model.parameters()))
