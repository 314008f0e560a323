"""PPO with invalid-action masking on one PhoneWorld task, in one file of plain PyTorch.

CleanRL's style: the settings in one dataclass, the algorithm top to bottom, nothing hidden in
a library. The env comes from the public API alone: ``gymnasium.make`` plus the
:class:`~phoneworld_gym.baselines.sb3.ElementActions` wrapper (``Discrete`` actions over the
screen's elements, ``Box`` observations, ``action_masks()``). Copy it and change what you like::

    python examples/cleanrl_ppo.py --env-id PhoneWorld/MessagesLastFrom-v0 --total-steps 20000

It prints the greedy success rate on held-out seeds before and after training.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from torch import nn

import phoneworld_gym  # noqa: F401 (registers the PhoneWorld ids)
from phoneworld_gym.baselines.sb3 import ElementActions


@dataclasses.dataclass
class Args:
    """Every setting of a run (each is also a ``--flag``)."""

    env_id: str = "PhoneWorld/MessagesLastFrom-v0"
    """the PhoneWorld id to train on"""
    total_steps: int = 20_000
    """environment steps to train for"""
    seed: int = 0
    """seeds torch, numpy and the training envs"""
    num_envs: int = 4
    """envs stepped in turn (one process)"""
    num_steps: int = 128
    """steps per env between updates (a rollout is num_envs * num_steps)"""
    learning_rate: float = 5e-4
    """Adam's step size"""
    gamma: float = 0.95
    """discount"""
    gae_lambda: float = 0.95
    """GAE's lambda"""
    minibatches: int = 4
    """minibatches per epoch"""
    epochs: int = 4
    """passes over each rollout"""
    clip: float = 0.2
    """PPO's ratio clip"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clip"""
    embed: int = 64
    """width of the element embedding"""
    eval_episodes: int = 50
    """held-out episodes (seeds 1,000,000 + k) for the before/after success rate"""
    threads: int = 1
    """torch CPU threads"""


class Agent(nn.Module):
    """Embeds every element row with one shared MLP (given the goal), pools them into a screen
    summary, and scores each element's click / type / answer actions from its own embedding
    and the summary (the action layout of ``ElementActions``); the value reads the summary."""

    def __init__(self, env: ElementActions, embed: int):
        super().__init__()
        self.m, self.f = env.max_elements, env.n_features
        self.per_row = 2 + env.max_values
        n_fixed = int(env.action_space.n) - self.per_row * self.m
        goal = env.goal_dim
        self.rows = nn.Sequential(nn.Linear(self.f + goal, embed), nn.ReLU(),
                                  nn.Linear(embed, embed), nn.ReLU())
        self.summary = nn.Sequential(nn.Linear(2 * embed + goal, embed), nn.ReLU())
        self.row_logits = nn.Sequential(nn.Linear(2 * embed, embed), nn.ReLU(),
                                        nn.Linear(embed, self.per_row))
        self.fixed_logits = nn.Linear(embed, n_fixed)
        self.value = nn.Sequential(nn.Linear(embed, embed), nn.ReLU(), nn.Linear(embed, 1))
        for last in (self.row_logits[-1], self.fixed_logits):
            nn.init.orthogonal_(last.weight, 0.01)
            nn.init.zeros_(last.bias)

    def forward(self, elements: torch.Tensor, goal: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (B, n_actions) and values (B,)."""
        x = elements.view(-1, self.m, self.f)
        present = x[..., :1]
        h = self.rows(torch.cat([x, goal[:, None].expand(-1, self.m, -1)], -1)) * present
        mean = h.sum(1) / present.sum(1).clamp(min=1.0)
        s = self.summary(torch.cat([mean, h.max(1).values, goal], -1))
        rows = self.row_logits(torch.cat([h, s[:, None].expand(-1, self.m, -1)], -1))
        logits = torch.cat([rows.permute(0, 2, 1).reshape(len(x), -1), self.fixed_logits(s)], -1)
        return logits, self.value(s).squeeze(-1)


def masked(logits: torch.Tensor, mask: torch.Tensor, agent: Agent
           ) -> torch.distributions.Categorical:
    """A categorical that never picks a masked-out action, with each kind of row action
    (click row i, type value v into row i, answer with row i's text) weighed as one choice:
    its logits lose the log of how many rows the mask allows for it. Without that, an
    untrained policy answers (ending the episode) whenever many rows have text."""
    m, k = agent.m, agent.per_row
    allowed = mask[:, : k * m].reshape(-1, k, m).sum(-1).clamp(min=1).float().log()
    shift = torch.cat([allowed.repeat_interleave(m, dim=1),
                       torch.zeros(len(mask), mask.shape[1] - k * m)], dim=-1)
    return torch.distributions.Categorical(logits=(logits - shift).masked_fill(~mask, -1e9))


def batch(obs: list[dict[str, np.ndarray]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Stack observations into the agent's two inputs."""
    return (torch.as_tensor(np.stack([o["elements"] for o in obs])),
            torch.as_tensor(np.stack([o["goal"] for o in obs])))


def evaluate(agent: Agent, env: ElementActions, episodes: int) -> float:
    """Greedy masked success rate over seeds 1,000,000 + k (never trained on)."""
    wins = 0
    for k in range(episodes):
        obs, _ = env.reset(seed=1_000_000 + k)
        done, info = False, {}
        while not done:
            with torch.no_grad():
                logits, _ = agent(*batch([obs]))
            mask = torch.as_tensor(env.action_masks())[None]
            action = int(masked(logits, mask, agent).logits.argmax())
            obs, _, term, trunc, info = env.step(action)
            done = term or trunc
        wins += bool(info["success"])
    return wins / episodes


def train(args: Args) -> dict[str, Any]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    envs = [ElementActions(gym.make(args.env_id, obs_mode="a11y")) for _ in range(args.num_envs)]
    eval_env = ElementActions(gym.make(args.env_id, obs_mode="a11y"))
    agent = Agent(envs[0], args.embed)
    optim = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    before = evaluate(agent, eval_env, args.eval_episodes)
    print(f"before training: success {before:.2f} on {args.eval_episodes} held-out seeds")

    n, t_len = args.num_envs, args.num_steps
    obs = [e.reset(seed=args.seed + i)[0] for i, e in enumerate(envs)]
    buf_el = torch.zeros(t_len, n, envs[0].observation_space["elements"].shape[0])
    buf_goal = torch.zeros(t_len, n, envs[0].goal_dim)
    buf_mask = torch.zeros(t_len, n, int(envs[0].action_space.n), dtype=torch.bool)
    buf_act = torch.zeros(t_len, n, dtype=torch.long)
    buf_logp, buf_rew, buf_done, buf_val = (torch.zeros(t_len, n) for _ in range(4))
    steps, episodes, wins = 0, 0, 0
    start = time.perf_counter()
    while steps < args.total_steps:
        # -- collect a rollout --------------------------------------------------------------
        for t in range(t_len):
            el, goal = batch(obs)
            mask = torch.as_tensor(np.stack([e.action_masks() for e in envs]))
            with torch.no_grad():
                logits, value = agent(el, goal)
            dist = masked(logits, mask, agent)
            action = dist.sample()
            buf_el[t], buf_goal[t], buf_mask[t] = el, goal, mask
            buf_act[t], buf_logp[t], buf_val[t] = action, dist.log_prob(action), value
            for i, e in enumerate(envs):
                o, r, term, trunc, info = e.step(int(action[i]))
                buf_rew[t, i], buf_done[t, i] = r, float(term or trunc)
                if term or trunc:
                    episodes += 1
                    wins += bool(info["success"])
                    o, _ = e.reset()
                obs[i] = o
            steps += n
        # -- advantages (GAE); an episode's end cuts the bootstrap -----------------------
        with torch.no_grad():
            _, next_value = agent(*batch(obs))
        adv = torch.zeros(t_len, n)
        last = torch.zeros(n)
        for t in reversed(range(t_len)):
            nxt = next_value if t == t_len - 1 else buf_val[t + 1]
            live = 1.0 - buf_done[t]
            delta = buf_rew[t] + args.gamma * nxt * live - buf_val[t]
            last = delta + args.gamma * args.gae_lambda * live * last
            adv[t] = last
        ret = adv + buf_val
        # -- PPO update ------------------------------------------------------------------
        flat = t_len * n
        b_el, b_goal = buf_el.view(flat, -1), buf_goal.view(flat, -1)
        b_mask, b_act = buf_mask.view(flat, -1), buf_act.view(flat)
        b_logp, b_adv, b_ret = buf_logp.view(flat), adv.view(flat), ret.view(flat)
        size = flat // args.minibatches
        for _ in range(args.epochs):
            for idx in torch.randperm(flat).split(size):
                logits, value = agent(b_el[idx], b_goal[idx])
                dist = masked(logits, b_mask[idx], agent)
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                loss = (pg + args.vf_coef * (value - b_ret[idx]).pow(2).mean()
                        - args.ent_coef * dist.entropy().mean())
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optim.step()
        rate = wins / episodes if episodes else 0.0
        print(f"steps {steps:>6}  training success {rate:.2f} over {episodes} episodes  "
              f"({time.perf_counter() - start:.0f}s)", flush=True)
        episodes = wins = 0
    train_seconds = time.perf_counter() - start
    after = evaluate(agent, eval_env, args.eval_episodes)
    result = {"env_id": args.env_id, "steps": steps, "seed": args.seed,
              "success_before": before, "success_after": after,
              "eval_episodes": args.eval_episodes, "train_seconds": round(train_seconds, 1),
              "cpu_seconds": round(time.process_time(), 1)}
    print(json.dumps(result))
    return result


def parse(argv: list[str] | None = None) -> Args:
    """``Args`` from the command line (``--total-steps 5000``)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for f in dataclasses.fields(Args):
        p.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    return Args(**vars(p.parse_args(argv)))


if __name__ == "__main__":
    train(parse())
