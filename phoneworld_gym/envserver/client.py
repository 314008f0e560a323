"""Clients of the PhoneWorld OpenEnv server.

:class:`PhoneWorldClient` is an OpenEnv ``EnvClient`` (async, one WebSocket session; ``.sync()``
gives OpenEnv's synchronous wrapper). :class:`PhoneWorldGymClient` is the Gymnasium-shaped
convenience on top: ``reset(seed=, options=) -> (obs, info)`` and ``step(action) -> (obs,
reward, terminated, truncated, info)`` with the screenshot decoded to a ``uint8`` array, as an
in-process ``gym.make("PhoneWorld/...")`` env returns them::

    with PhoneWorldGymClient("http://127.0.0.1:8000") as env:
        obs, info = env.reset(seed=0, options={"task": "ContactsStar"})
        obs, reward, terminated, truncated, info = env.step({"action_type": "click", "index": 3})
"""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from phoneworld_gym.envserver.models import PhoneAction, PhoneObservation, PhoneState


class ServerError(RuntimeError):
    """The server refused a message: ``code`` is OpenEnv's (``VALIDATION_ERROR``,
    ``EXECUTION_ERROR``, ``CAPACITY_REACHED`` ...), the text says what was wrong."""

    def __init__(self, message: str, code: str):
        super().__init__(f"{message} ({code})")
        self.code = code


class PhoneWorldClient(EnvClient[PhoneAction, PhoneObservation, PhoneState]):
    """One session on a PhoneWorld OpenEnv server (``base_url`` ``http://`` or ``ws://``).

    ``await reset(seed=, env_id=, task=, params=, obs_mode=, screenshot_size=)``,
    ``await step(action)`` (a contract ``Action``, an AndroidWorld dict or JSON text, or a
    :class:`PhoneAction`), ``await state()``, ``await close()``. A refused message raises
    :class:`ServerError`; the session stays usable.
    """

    def _step_payload(self, action: Any) -> dict[str, Any]:
        act = action.to_action() if isinstance(action, PhoneAction) else PhoneAction.of(
            action).to_action()
        return act.to_json()

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[PhoneObservation]:
        obs = PhoneObservation(**payload.get("observation", {}),
                               reward=payload.get("reward"), done=payload.get("done", False))
        return StepResult(observation=obs, reward=payload.get("reward"),
                          done=bool(payload.get("done", False)))

    def _parse_state(self, payload: dict[str, Any]) -> PhoneState:
        return PhoneState(**payload)

    async def _send_and_receive(self, message: dict[str, Any]) -> dict[str, Any]:
        await self._send(message)
        response = await self._receive()
        if response.get("type") == "error":
            data = response.get("data", {})
            text = str(data.get("message", "unknown error"))
            reasons = [str(e.get("msg", e)) for e in data.get("errors", []) or []
                       if isinstance(e, dict)]
            if reasons:
                text = f"{text}: {'; '.join(reasons)}"
            raise ServerError(text, str(data.get("code", "UNKNOWN")))
        return response


def to_gym(result: StepResult[PhoneObservation]) -> tuple[dict[str, Any], float, bool, bool,
                                                           dict[str, Any]]:
    """An OpenEnv step result as Gymnasium's ``(obs, reward, terminated, truncated, info)``,
    the screenshot decoded (what an in-process env's observation holds)."""
    o = result.observation
    obs: dict[str, Any] = {}
    if o.screenshot is not None:
        obs["screenshot"] = o.pixels()
    if o.a11y is not None:
        obs["a11y"] = o.a11y
    obs["goal"] = o.goal
    info = dict(o.info)
    return (obs, float(result.reward or 0.0), bool(info.get("terminated", result.done)),
            bool(info.get("truncated", False)), info)


class PhoneWorldGymClient:
    """A Gymnasium-like, synchronous session on a PhoneWorld OpenEnv server.

    ``reset(seed=None, options=None)``: ``options`` takes ``task`` and ``params`` as
    ``PhoneEnv.reset`` does, and ``env_id``, ``obs_mode``, ``screenshot_size`` as the server
    does. ``state()`` is the server's :class:`PhoneState`; ``close()`` ends the session.
    """

    def __init__(self, base_url: str, **client_kwargs: Any):
        self.client = PhoneWorldClient(base_url, **client_kwargs).sync()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode: ``(obs, info)``."""
        kwargs = dict(options or {})
        if seed is not None:
            kwargs["seed"] = seed
        obs, _, _, _, info = to_gym(self.client.reset(**kwargs))
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """One action: ``(obs, reward, terminated, truncated, info)``."""
        return to_gym(self.client.step(action))

    def state(self) -> PhoneState:
        """The session's episode (env id, task, seed, step count)."""
        return self.client.state()

    def close(self) -> None:
        """End the session; the server frees its env."""
        self.client.close()

    def __enter__(self) -> PhoneWorldGymClient:
        self.client.connect()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
