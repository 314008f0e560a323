"""Behaviour cloning of an SB3 policy on oracle demonstrations, and that policy as an agent.

The cheapest trained baseline PhoneWorld has: the task's oracle is played through
:class:`~phoneworld_gym.baselines.sb3.ElementActions`' ``Discrete`` space (each contract action
encoded into the index that does it on the current screen), and sb3-contrib's ``MaskablePPO``
with :class:`~phoneworld_gym.baselines.sb3.ElementPolicy` is fitted to those indices by masked
maximum likelihood (and its value head to the discounted returns), so that PPO can start from
it (``examples/train_ppo.py --bc-episodes``) or it can be evaluated as it is
(``examples/demo.py``)::

    from phoneworld_gym.baselines.bc import ElementAgent, train_bc
    from phoneworld_gym.baselines.evaluate import evaluate

    model, space, report = train_bc(["MessagesLastFrom"], episodes=40, epochs=30)
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    results = evaluate(env, lambda e: ElementAgent(model, e, space_config(space)),
                       ["MessagesLastFrom"], seeds=range(1_000_000, 1_000_020))

- :func:`collect_demos`: oracle episodes played through the space, on seeds of their own.
- :func:`behaviour_clone`: the supervised fit, with the model's own optimizer.
- :class:`ElementAgent`: a trained model behind the common agent interface (``reset(goal)``,
  ``act(observation) -> Action``), so :func:`~phoneworld_gym.baselines.evaluate.evaluate`
  runs it beside the oracle and random agents on a plain PhoneWorld env.
- :func:`train_bc`: the three together for a list of tasks.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from phoneworld_gym.baselines.sb3 import ElementActions, ElementPolicy
from phoneworld_gym.contract import Action

#: evaluation seeds start here (train_ppo.py's held-out seeds)
EVAL_SEED0 = 1_000_000
#: oracle demonstrations use seeds from here, apart from the evaluation seeds
DEMO_SEED0 = 2_000_000
#: MaskablePPO settings shared by ``examples/train_ppo.py`` and :func:`make_model`
PPO_KWARGS: dict[str, Any] = {"n_steps": 128, "batch_size": 128, "n_epochs": 8,
                              "learning_rate": 5e-4, "gamma": 0.95, "ent_coef": 0.01}


@dataclasses.dataclass
class Demos:
    """Oracle steps in :class:`ElementActions`' terms, one row per step.

    Attributes:
        obs: the wrapper's observation arrays, stacked (``{"elements": (N, ...), "goal": ...}``).
        actions: the encoded oracle action of each step, ``int64 (N,)``.
        masks: ``action_masks()`` at each step, ``bool (N, n_actions)``.
        returns: the discounted return from each step (``gamma ** steps_left``; reward 1 at
            the end of a successful episode), ``float32 (N,)``.
        episodes: how many oracle episodes were kept.
        dropped: ``(task, seed, why)`` for each episode left out.
    """

    obs: dict[str, np.ndarray]
    actions: np.ndarray
    masks: np.ndarray
    returns: np.ndarray
    episodes: int
    dropped: list[tuple[str, int, str]]

    def __len__(self) -> int:
        return len(self.actions)


def _check_tasks(env: ElementActions, tasks: Sequence[str]) -> list[str]:
    """``tasks`` as a list, each one of the env's tasks, else ``ValueError`` naming it."""
    if isinstance(tasks, str) or not tasks:
        raise ValueError(f"tasks must be a non-empty list of task ids, got {tasks!r}")
    known = list(getattr(env.unwrapped, "task_ids", ()) or ())
    for tid in tasks:
        if tid not in known:
            raise ValueError(f"unknown task {tid!r} for this env: its tasks are "
                             f"{', '.join(known[:8])}{' ...' if len(known) > 8 else ''}")
    return list(tasks)


def _positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)


def collect_demos(env: ElementActions, tasks: Sequence[str], episodes: int,
                  gamma: float = 0.95, seed0: int = DEMO_SEED0) -> Demos:
    """The tasks' oracles played through ``env``'s ``Discrete`` space, ``episodes`` per task on
    seeds ``seed0 .. seed0 + episodes - 1`` (keep them apart from evaluation seeds).

    An episode is left out (and named in :attr:`Demos.dropped`) when an oracle action has no
    index in the space (e.g. an answer no element shows) or is masked out, or when the episode
    does not succeed. ``ValueError`` for an env that is not an :class:`ElementActions`, a task
    the env does not hold, ``episodes`` < 1, ``gamma`` outside (0, 1], or when no episode at
    all could be played."""
    if not isinstance(env, ElementActions):
        raise ValueError(f"collect_demos needs an ElementActions env, got {type(env).__name__}")
    tasks = _check_tasks(env, tasks)
    episodes = _positive_int("episodes", episodes)
    if not 0.0 < float(gamma) <= 1.0:
        raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
    rows: list[tuple[dict[str, np.ndarray], int, np.ndarray, float]] = []
    dropped: list[tuple[str, int, str]] = []
    kept = 0
    for tid in tasks:
        for seed in range(seed0, seed0 + episodes):
            steps, why = _oracle_episode(env, tid, seed)
            if why:
                dropped.append((tid, seed, why))
                continue
            kept += 1
            rows += [(o, a, m, float(gamma) ** (len(steps) - 1 - t))
                     for t, (o, a, m) in enumerate(steps)]
    if not rows:
        raise ValueError(f"no oracle episode of {tasks} can be played in the space; first "
                         f"reason: {dropped[0][2] if dropped else 'none'}")
    return Demos(obs={k: np.stack([r[0][k] for r in rows]) for k in rows[0][0]},
                 actions=np.array([r[1] for r in rows], dtype=np.int64),
                 masks=np.stack([r[2] for r in rows]),
                 returns=np.array([r[3] for r in rows], dtype=np.float32),
                 episodes=kept, dropped=dropped)


def _oracle_episode(env: ElementActions, task: str, seed: int
                    ) -> tuple[list[tuple[dict[str, np.ndarray], int, np.ndarray]], str]:
    """One oracle episode's (observation, index, mask) steps, and why it cannot be a demo
    (``""`` when it can)."""
    obs, _ = env.reset(seed=seed, options={"task": task})
    steps: list[tuple[dict[str, np.ndarray], int, np.ndarray]] = []
    info: dict[str, Any] = {}
    for act in env.unwrapped.oracle():  # type: ignore[attr-defined]
        a = env.encode(act)
        mask = env.action_masks()
        if a is None or not mask[a]:
            return steps, f"the space cannot do the oracle's {act.to_json()}"
        steps.append((obs, a, mask))
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            break
    if not info.get("success"):
        return steps, f"the oracle's episode did not succeed ({info.get('failure', '')!s:.80})"
    return steps, ""


def make_model(space: ElementActions, seed: int = 0, venv: Any = None, **overrides: Any) -> Any:
    """A fresh ``MaskablePPO`` with :class:`ElementPolicy` for ``space`` (stepping ``venv``
    when given, a vectorised env of copies of ``space``; else ``space`` itself), with
    :data:`PPO_KWARGS` updated by ``overrides``."""
    from sb3_contrib import MaskablePPO

    kw = {**PPO_KWARGS, **overrides}
    return MaskablePPO(ElementPolicy, venv if venv is not None else space, seed=seed,
                       policy_kwargs=space.policy_kwargs(), verbose=0, **kw)


def behaviour_clone(model: Any, demos: Demos, epochs: int, batch: int = 64,
                    seed: int = 0) -> list[float]:
    """Fit ``model``'s policy to the demos' actions (masked log-likelihood) and its value to
    their returns, with the model's own optimizer, for ``epochs`` shuffled passes. Returns
    each epoch's mean loss (the first and last say whether the fit moved)."""
    import torch

    epochs = _positive_int("epochs", epochs)
    batch = _positive_int("batch", batch)
    policy = model.policy
    policy.set_training_mode(True)
    n = len(demos)
    rng = np.random.default_rng(seed)
    losses: list[float] = []
    for _ in range(epochs):
        total = 0.0
        parts = np.array_split(rng.permutation(n), max(1, n // batch))
        for idx in parts:
            obs = policy.obs_to_tensor({k: v[idx] for k, v in demos.obs.items()})[0]
            actions = torch.as_tensor(demos.actions[idx])
            values, log_prob, _ = policy.evaluate_actions(obs, actions,
                                                          action_masks=demos.masks[idx])
            target = torch.as_tensor(demos.returns[idx])
            loss = -log_prob.mean() + 0.5 * (values.flatten() - target).pow(2).mean()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
            total += float(loss.detach())
        losses.append(total / len(parts))
    policy.set_training_mode(False)
    return losses


def space_config(space: ElementActions) -> dict[str, Any]:
    """The :class:`ElementActions` arguments that rebuild ``space``'s spaces on another env
    (what :class:`ElementAgent` needs beside the model; the app list is explicit, as the
    default depends on the env's tasks)."""
    return {"max_elements": space.max_elements, "max_values": space.max_values,
            "apps": list(space.apps), "screenshot": space.screenshot,
            "screenshot_size": list(space.screenshot_size), "text_dim": space.text_dim,
            "id_dim": space.id_dim, "goal_dim": space.goal_dim}


class ElementAgent:
    """A trained SB3 model over :class:`ElementActions` as a common agent: ``reset(goal)``
    then ``act(observation) -> Action`` on a plain PhoneWorld env's observations, so
    :func:`~phoneworld_gym.baselines.evaluate.evaluate` runs it beside the other agents.

    Each observation is turned into the wrapper's arrays and mask, the model picks an index
    (greedy by default, masked), and the index is decoded into the contract action it means
    on that screen. A wrapper is built around ``env`` only to compute these; it never steps.

    The typeable goal values are spans of the goal text. As during training (where the
    wrapper reads them from the reset's ``info["params"]``), the env's current task params
    choose which spans when ``env`` is a PhoneWorld env whose goal is the one given to
    :meth:`reset`; otherwise the goal's quoted and capitalised spans are used.

    Args:
        model: a MaskablePPO (or any SB3 model whose ``predict`` takes ``action_masks``)
            trained on an :class:`ElementActions` built with ``config``.
        env: the env the agent will play (its observations need ``a11y`` and ``goal``).
        config: :func:`space_config` of the training wrapper.
        name: the agent's name in result tables.
        deterministic: greedy (True) or sampled actions.
    """

    def __init__(self, model: Any, env: gym.Env[Any, Any], config: dict[str, Any],
                 name: str = "bc", deterministic: bool = True):
        kw = dict(config)
        if "screenshot_size" in kw:
            kw["screenshot_size"] = tuple(kw["screenshot_size"])
        self.space = ElementActions(env, **kw)
        _check_model(model, self.space)
        self.model = model
        self.env = env
        self.config = dict(config)
        self.name = name
        self.deterministic = deterministic
        self._goal: str | None = None

    def reset(self, goal: str) -> None:
        """Start an episode with this instruction."""
        if not isinstance(goal, str):
            raise ValueError(f"goal must be a string, got {type(goal).__name__}")
        task = getattr(getattr(self.env, "unwrapped", None), "task", None)
        params = task.params if task is not None and getattr(task, "goal", None) == goal \
            else None
        # the wrapper reads the goal as its reset would; the caller steps the env
        self.space.set_goal(goal, params)
        self._goal = goal

    def act(self, observation: dict[str, Any]) -> Action:
        """The model's action on this observation, as a contract ``Action``."""
        if self._goal is None:
            raise RuntimeError("call reset() before act()")
        if "a11y" not in observation:
            raise ValueError("ElementAgent needs the a11y observation (obs_mode 'a11y' or "
                             f"'all'); got {sorted(observation)}")
        obs, mask = self.space.encode_observation(observation)
        a, _ = self.model.predict(obs, deterministic=self.deterministic, action_masks=mask)
        return self.space.decode(int(a))

    def save(self, path: str | Path) -> None:
        """The model at ``path`` (SB3's zip) and the space config beside it (``path.json``)."""
        path = Path(path)
        self.model.save(path)
        Path(f"{path}.json").write_text(json.dumps(self.config, indent=1))

    @classmethod
    def load(cls, path: str | Path, env: gym.Env[Any, Any], name: str = "bc",
             deterministic: bool = True) -> ElementAgent:
        """An agent from :meth:`save`'s files, playing ``env`` (CPU)."""
        from sb3_contrib import MaskablePPO

        path = Path(path)
        zip_path = path if path.suffix == ".zip" else Path(f"{path}.zip")
        meta = Path(f"{path}.json")
        if not zip_path.is_file() or not meta.is_file():
            raise ValueError(f"no saved agent at {path}: need {zip_path} and {meta}")
        model = MaskablePPO.load(zip_path, device="cpu")
        return cls(model, env, json.loads(meta.read_text()), name=name,
                   deterministic=deterministic)


def _check_model(model: Any, space: ElementActions) -> None:
    """``ValueError`` when the model's spaces are not the wrapper's."""
    n = getattr(model.action_space, "n", None)
    if n != space.action_space.n:  # type: ignore[attr-defined]
        raise ValueError(f"the model has {n} actions but the space {space.n_actions}: build "
                         "the agent with the training wrapper's space_config()")
    ours = {k: s.shape for k, s in space.observation_space.spaces.items()}  # type: ignore[attr-defined]
    theirs = {k: s.shape for k, s in getattr(model.observation_space, "spaces", {}).items()}
    if ours != theirs:
        raise ValueError(f"the model observes {theirs} but the space gives {ours}: build the "
                         "agent with the training wrapper's space_config()")


def train_bc(tasks: Sequence[str], episodes: int, epochs: int, seed: int = 0,
             split: str | None = "train", seed0: int = DEMO_SEED0, batch: int = 64,
             **space_kw: Any) -> tuple[Any, ElementActions, dict[str, Any]]:
    """Behaviour cloning on ``tasks``: oracle demos (``episodes`` per task, seeds from
    ``seed0``, goal wordings of ``split``), a fresh :func:`make_model` and
    :func:`behaviour_clone` (``epochs`` passes in minibatches of ``batch``; ``space_kw`` go
    to :class:`ElementActions`). Returns the model, the training wrapper (its
    :func:`space_config` rebuilds the agent's space) and a report (samples, kept and dropped
    episodes, first and last epoch loss)."""
    from phoneworld_gym.task import all_tasks

    if isinstance(tasks, str) or not tasks:
        raise ValueError(f"tasks must be a non-empty list of task ids, got {tasks!r}")
    unknown = [t for t in tasks if t not in all_tasks()]
    if unknown:
        raise ValueError(f"unknown task ids {unknown}; see phoneworld_gym.list_tasks()")
    base = gym.make("PhoneWorld/All-v0", tasks=list(tasks), obs_mode="a11y", split=split)
    space = ElementActions(base, **space_kw)  # type: ignore[arg-type]
    model = make_model(space, seed=seed)
    demos = collect_demos(space, tasks, episodes, gamma=model.gamma, seed0=seed0)
    losses = behaviour_clone(model, demos, epochs, batch=batch, seed=seed)
    report = {"tasks": list(tasks), "samples": len(demos), "episodes": demos.episodes,
              "dropped": len(demos.dropped), "loss_first": round(losses[0], 4),
              "loss_last": round(losses[-1], 4)}
    return model, space, report
