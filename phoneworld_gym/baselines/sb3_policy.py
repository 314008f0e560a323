"""The policy half of :mod:`phoneworld_gym.baselines.sb3`: a pointer-network policy for
sb3-contrib's ``MaskablePPO`` over :class:`~phoneworld_gym.baselines.sb3.ElementActions`.

It needs torch, Stable-Baselines3 and sb3-contrib; the wrapper does not, so it lives here and
``phoneworld_gym.baselines.sb3`` loads it only when one of its names is asked for.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from phoneworld_gym.baselines.sb3_layout import ELEMENT_FEATURES, FIXED_ACTIONS

# -- a policy that scores each element with shared weights ----------------------------------
# SB3's MultiInputPolicy flattens the element rows into one vector, so it must learn each slot
# apart: "click the contact named in the goal" is a different weight for every row the contact
# may land in. ElementPolicy embeds each row with the same small network (given the goal),
# pools the rows into a screen summary, and scores click/type/answer on row i from row i's
# embedding and the summary: a pointer network inside sb3-contrib's MaskablePPO.



class ElementsExtractor(BaseFeaturesExtractor):
    """Features for :class:`ElementPolicy`: each element row embedded (with the goal) by one
    shared MLP, then a screen summary from the mean and max of the rows, the goal and, when
    observed, a small CNN over the screenshot. Output: ``[rows (M * embed), summary (embed),
    per-row availability (M * (2 + V))]``; the last part (tappable, editable per value, has
    text) lets :class:`PointerHead` weigh each kind of action as one choice.
    """

    def __init__(self, observation_space: gym.spaces.Dict, max_elements: int,
                 max_values: int = 0, embed: int = 64):
        spaces = observation_space.spaces
        flat = int(spaces["elements"].shape[0])  # type: ignore[index]
        if flat % max_elements:
            raise ValueError(f"elements has {flat} values, not a multiple of max_elements="
                             f"{max_elements}; pass the wrapper's policy_kwargs()")
        self.m, self.f, self.v, self.embed = max_elements, flat // max_elements, max_values, embed
        super().__init__(observation_space,
                         features_dim=(max_elements + 1) * embed + max_elements * (2 + max_values))
        goal_dim = int(spaces["goal"].shape[0])  # type: ignore[index]
        self.rows = nn.Sequential(nn.Linear(self.f + goal_dim, embed), nn.ReLU(),
                                  nn.Linear(embed, embed), nn.ReLU())
        self.cnn: nn.Module | None = None
        extra = 0
        if "screenshot" in spaces:
            channels = int(spaces["screenshot"].shape[-1])  # type: ignore[index]
            self.cnn = nn.Sequential(
                nn.Conv2d(channels, 16, 5, stride=3), nn.ReLU(),
                nn.Conv2d(16, 32, 3, stride=2), nn.ReLU(),
                nn.AdaptiveAvgPool2d((4, 2)), nn.Flatten(), nn.Linear(32 * 8, embed), nn.ReLU())
            extra = embed
        self.summary = nn.Sequential(nn.Linear(2 * embed + goal_dim + extra, embed), nn.ReLU())
        self._flags = [ELEMENT_FEATURES.index(k) for k in ("tappable", "editable", "has_text")]

    def forward(self, obs: dict[str, th.Tensor]) -> th.Tensor:
        x = obs["elements"].view(-1, self.m, self.f)
        goal = obs["goal"]
        present = x[..., :1]
        h = self.rows(th.cat([x, goal[:, None, :].expand(-1, self.m, -1)], dim=-1)) * present
        mean = h.sum(1) / present.sum(1).clamp(min=1.0)
        parts = [mean, h.max(1).values, goal]
        if self.cnn is not None:
            # SB3 hands images over channels-first and scaled to [0, 1]
            parts.append(self.cnn(obs["screenshot"]))
        tap, edit, text = (x[..., k] for k in self._flags)
        avail = th.stack([tap, *([edit] * self.v), text], dim=-1)  # (B, M, 2 + V)
        return th.cat([h.flatten(1), self.summary(th.cat(parts, dim=-1)), avail.flatten(1)],
                      dim=-1)


class PointerHead(nn.Module):
    """Logits in :class:`ElementActions`' layout. Row ``i``'s click, type-value-``v`` and
    answer logits come from row ``i``'s embedding and the summary (weights shared over rows),
    plus a per-kind logit from the summary, minus the log of how many rows offer that kind:
    an untrained policy then picks "click something", "answer with something" or "scroll down"
    about equally often, rather than answering (ending the episode) whenever many rows have
    text. The fixed and open-app actions are scored from the summary."""

    def __init__(self, max_elements: int, max_values: int, embed: int, n_actions: int):
        super().__init__()
        self.m, self.k, self.embed = max_elements, 2 + max_values, embed
        n_fixed = n_actions - self.k * max_elements
        if n_fixed < len(FIXED_ACTIONS):
            raise ValueError(f"{n_actions} actions cannot hold {max_elements} elements x "
                             f"{self.k} and the fixed actions; pass policy_kwargs()")
        self.row = nn.Sequential(nn.Linear(2 * embed, embed), nn.ReLU(),
                                 nn.Linear(embed, self.k))
        self.kind = nn.Linear(embed, self.k)
        self.fixed = nn.Linear(embed, n_fixed)
        for last in (self.row[-1], self.kind, self.fixed):
            nn.init.orthogonal_(last.weight, gain=0.01)  # type: ignore[arg-type]
            nn.init.zeros_(last.bias)  # type: ignore[arg-type]

    def forward(self, latent: th.Tensor) -> th.Tensor:
        m, e = self.m, self.embed
        rows = latent[:, : m * e].view(-1, m, e)
        summary = latent[:, m * e: (m + 1) * e]
        avail = latent[:, (m + 1) * e:].view(-1, m, self.k)
        both = th.cat([rows, summary[:, None, :].expand(-1, m, -1)], dim=-1)
        per_row = (self.row(both) + self.kind(summary)[:, None, :]
                   - avail.sum(1, keepdim=True).clamp(min=1.0).log())  # (B, M, kinds)
        blocks = per_row.permute(0, 2, 1).reshape(latent.shape[0], -1)  # block-major layout
        return th.cat([blocks, self.fixed(summary)], dim=-1)


class ElementPolicy(MaskableActorCriticPolicy):
    """sb3-contrib's masked actor-critic with :class:`ElementsExtractor` features and a
    :class:`PointerHead` in place of the linear action layer (the value net stays an MLP).
    Build it with the wrapper's :meth:`ElementActions.policy_kwargs`::

        MaskablePPO(ElementPolicy, env, policy_kwargs=env.policy_kwargs())
    """

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("features_extractor_class", ElementsExtractor)
        kwargs.setdefault("net_arch", {"pi": [], "vf": [128]})
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        kw = self.features_extractor_kwargs
        n_actions = int(self.action_space.n)  # type: ignore[attr-defined]
        self.action_net = PointerHead(kw["max_elements"], kw["max_values"], kw.get("embed", 64),
                                      n_actions)
        self.optimizer = self.optimizer_class(  # type: ignore[call-arg]
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
