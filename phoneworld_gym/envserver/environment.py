"""``PhoneWorldEnvironment``: one session's PhoneWorld env behind OpenEnv's ``Environment``.

The Gymnasium env is made lazily, at the first ``reset``, from the env id the reset names
(or the server's default), and made again only when a reset asks for another env id, obs mode
or screenshot size. The server makes one ``PhoneWorldEnvironment`` per WebSocket session and
closes it when the session ends (disconnect, ``close`` message, idle timeout).
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

import gymnasium as gym
import numpy as np
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata

import phoneworld_gym  # noqa: F401  (registers the PhoneWorld ids)
from phoneworld_gym.envserver.models import (
    PhoneAction,
    PhoneObservation,
    PhoneState,
    encode_png,
)
from phoneworld_gym.task import all_tasks

OBS_MODES = ("all", "pixels", "a11y")


@dataclasses.dataclass(frozen=True)
class ServerConfig:
    """What every session starts with; a reset may ask for another env id, obs mode or size.

    Attributes:
        env_id: the env a reset plays when it names none (any ``PhoneWorld/...`` id).
        screenshot_size: (width, height) of screenshots; actions stay in 1080 x 2400.
        obs_mode: ``all``, ``pixels`` (no tree) or ``a11y`` (no screenshot).
        env_kwargs: passed to ``gym.make`` (server side only, e.g. ``serial`` for a phone).
    """

    env_id: str = "PhoneWorld/All-v0"
    screenshot_size: tuple[int, int] = (540, 1200)
    obs_mode: str = "all"
    env_kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)


def check_env_id(env_id: Any) -> str:
    """``env_id`` if it is a registered PhoneWorld id, else ``ValueError`` saying so."""
    if not isinstance(env_id, str) or not env_id.startswith("PhoneWorld/"):
        raise ValueError(f"env_id must be a PhoneWorld id such as 'PhoneWorld/All-v0', "
                         f"got {env_id!r}")
    if env_id not in gym.registry:
        raise ValueError(f"unknown env_id {env_id!r}; see `phoneworld list` for the ids")
    return env_id


def _size(value: Any) -> tuple[int, int]:
    """A reset's ``screenshot_size`` ([w, h]) as a tuple of two positive ints."""
    ok = (isinstance(value, (list, tuple)) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 4096
                  for v in value))
    if not ok:
        raise ValueError(f"screenshot_size must be [width, height] in 1..4096, got {value!r}")
    return int(value[0]), int(value[1])


class PhoneWorldEnvironment(Environment[PhoneAction, PhoneObservation, PhoneState]):
    """A PhoneWorld env (any id, any device) as an OpenEnv environment.

    ``reset(seed=, episode_id=, env_id=, task=, params=, obs_mode=, screenshot_size=)``;
    ``step(PhoneAction)``. An action the contract accepts but the screen cannot carry out is
    a no-op with ``info["action_error"]`` (as in-process); one the contract refuses never
    reaches here (the server answers a validation error).
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, config: ServerConfig | None = None):
        super().__init__()
        self.config = config or ServerConfig()
        self._env: gym.Env[Any, Any] | None = None
        self._made: tuple[str, str, tuple[int, int]] | None = None
        self._state = PhoneState()
        self._closed = False
        #: the last screenshot sent and its PNG
        self._last_png: tuple[np.ndarray, str] | None = None

    def reset(self, seed: int | None = None, episode_id: str | None = None,
              env_id: str | None = None, task: str | None = None,
              params: dict[str, Any] | None = None, obs_mode: str | None = None,
              screenshot_size: Any = None, **kwargs: Any) -> PhoneObservation:
        """Start an episode; every argument is optional (see the class docstring)."""
        self._check_open()
        if kwargs:
            raise ValueError(f"unknown reset options {sorted(kwargs)}; known: seed, "
                             "episode_id, env_id, task, params, obs_mode, screenshot_size")
        if task is not None and (not isinstance(task, str) or task not in all_tasks()):
            raise ValueError(f"unknown task {task!r}; `phoneworld list` shows the task ids")
        want = (check_env_id(env_id if env_id is not None else self.config.env_id),
                obs_mode if obs_mode is not None else self.config.obs_mode,
                _size(screenshot_size) if screenshot_size is not None
                else tuple(self.config.screenshot_size))
        if want[1] not in OBS_MODES:
            raise ValueError(f"obs_mode must be one of {OBS_MODES}, got {want[1]!r}")
        if self._env is None or self._made != want:
            if self._env is not None:
                self._env.close()
                self._env = None
            self._env = gym.make(want[0], obs_mode=want[1], screenshot_size=want[2],
                                 **self.config.env_kwargs)
            self._made = want  # type: ignore[assignment]
        options: dict[str, Any] = {}
        if task is not None:
            options["task"] = task
        if params is not None:
            options["params"] = params
        # until this reset succeeds there is no episode to step (a bad option before here
        # leaves the running episode as it was)
        self._state = PhoneState(done=True)
        try:
            obs, info = self._env.reset(seed=seed, options=options or None)
        except BaseException:
            # a failed reset can leave the env's wrappers half-set (Gymnasium's passive
            # checker then fails the next step): the next reset makes a fresh env
            self._env.close()
            self._env = None
            raise
        self._state = PhoneState(episode_id=episode_id or str(uuid.uuid4()), step_count=0,
                                 env_id=want[0], task=info.get("task"), goal=obs["goal"],
                                 seed=seed, done=False)
        return self._observation(obs, 0.0, False, False, info)

    def step(self, action: PhoneAction, timeout_s: float | None = None,
             **kwargs: Any) -> PhoneObservation:
        """One action; ``done`` when the agent says status/answer or the budget runs out."""
        self._check_open()
        if self._env is None or self._state.episode_id is None:
            raise RuntimeError("no episode: reset the session first (a failed reset leaves "
                               "none)")
        if self._state.done:
            raise RuntimeError("the episode is over; reset to start a new one")
        act = action.to_action() if isinstance(action, PhoneAction) else PhoneAction.of(
            action).to_action()
        obs, reward, terminated, truncated, info = self._env.step(act)
        self._state.step_count += 1
        self._state.done = bool(terminated or truncated)
        return self._observation(obs, float(reward), bool(terminated), bool(truncated), info)

    @property
    def state(self) -> PhoneState:
        """The session's episode."""
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        """Name and description for OpenEnv's ``/metadata``."""
        return EnvironmentMetadata(
            name="PhoneWorld",
            description="A simulated phone full of mock apps (or a real one over adb); "
                        "AndroidWorld JSONAction in, screenshot + uiautomator XML out.",
            version="0.1.0")

    def close(self) -> None:
        """Free the env; later calls say the session is closed."""
        self._closed = True
        if self._env is not None:
            self._env.close()
            self._env = None

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this session was closed (idle past the server's timeout?); "
                               "connect again")

    def _observation(self, obs: dict[str, Any], reward: float, terminated: bool,
                     truncated: bool, info: dict[str, Any]) -> PhoneObservation:
        shot = obs.get("screenshot")
        png = None
        if shot is not None:
            # many actions leave the screen as it was (a tap on nothing, a wait): the PNG of
            # the last frame is reused, since encoding costs about as much as the step
            last = self._last_png
            if last is not None and last[0].shape == shot.shape and np.array_equal(last[0], shot):
                png = last[1]
            else:
                png = encode_png(shot)
                self._last_png = (shot, png)
        info = dict(info, terminated=terminated, truncated=truncated)
        return PhoneObservation(
            done=terminated or truncated, reward=reward, goal=obs["goal"],
            screenshot=png,
            screenshot_size=None if shot is None else (int(shot.shape[1]), int(shot.shape[0])),
            a11y=obs.get("a11y"), info=_jsonable(info))


def _jsonable(value: Any) -> Any:
    """``value`` with numpy scalars and tuples turned into JSON types."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    return value
