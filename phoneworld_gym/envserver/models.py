"""The wire types of the OpenEnv server: action, observation and state as OpenEnv's pydantic
models (``openenv.core.env_server.types``).

The action is PhoneWorld's AndroidWorld ``JSONAction``; it is checked by the contract's own
:meth:`phoneworld_gym.contract.Action.from_json`, so the server accepts exactly what an
in-process env accepts and refuses the rest with the contract's message. The screenshot
travels as base64 PNG (lossless: the client decodes the very pixels the env rendered).
"""

from __future__ import annotations

import base64
import io
from typing import Any

import numpy as np
from openenv.core.env_server.types import Action, Observation, State
from pydantic import ConfigDict, Field, PrivateAttr, model_validator
from pydantic_core import PydanticCustomError

from phoneworld_gym.contract import Action as ContractAction


class PhoneAction(Action):
    """One AndroidWorld ``JSONAction`` (``{"action_type": "click", "index": 3}``).

    The fields are declared for the schema (``GET /schema``); validation is the contract's
    (:meth:`ContractAction.from_json`), whose ``ValueError`` becomes a pydantic validation
    error of type ``invalid_action`` carrying the contract's sentence.
    """

    # the contract decides which fields exist (it also reads AndroidWorld's ``keycode``)
    model_config = ConfigDict(extra="allow", validate_assignment=True)

    action_type: Any = Field(description="click, double_tap, long_press, input_text, scroll, "
                             "swipe, navigate_home, navigate_back, keyboard_enter, open_app, "
                             "wait, status, answer")
    index: Any = Field(default=None, description="element index (AndroidWorld's filter)")
    x: Any = Field(default=None, description="x in 1080 x 2400 device pixels")
    y: Any = Field(default=None, description="y in 1080 x 2400 device pixels")
    text: Any = Field(default=None, description="text to type, or the answer")
    direction: Any = Field(default=None, description="up, down, left or right")
    app_name: Any = Field(default=None, description="app to open")
    goal_status: Any = Field(default=None, description="complete or infeasible")
    clear_text: Any = Field(default=None, description="input_text: clear the field first")

    _action: ContractAction | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check(self) -> PhoneAction:
        """Check the action as the contract does; keep the contract ``Action``."""
        data = self.model_dump(exclude={"metadata"})
        try:
            self._action = ContractAction.from_json(data)
        except ValueError as e:
            raise PydanticCustomError("invalid_action", "{reason}", {"reason": str(e)}) from None
        return self

    def to_action(self) -> ContractAction:
        """The contract :class:`~phoneworld_gym.contract.Action`."""
        assert self._action is not None
        return self._action

    @classmethod
    def of(cls, action: Any) -> PhoneAction:
        """From a contract ``Action``, an AndroidWorld dict or JSON text, or a space sample."""
        if isinstance(action, PhoneAction):
            return action
        return cls(**ContractAction.from_any(action).to_json())


class PhoneObservation(Observation):
    """What the env shows after a reset or a step; ``reward`` and ``done`` are OpenEnv's.

    ``info`` is the env's info dict (``task``, ``params``, ``success``, ``failure``,
    ``action_error``, ``steps`` ...) plus ``terminated`` and ``truncated``, since OpenEnv
    carries a single ``done``.
    """

    goal: str = Field(default="", description="the instruction")
    screenshot: str | None = Field(default=None, description="base64 PNG; None in a11y mode")
    screenshot_size: tuple[int, int] | None = Field(default=None, description="(width, height)")
    a11y: str | None = Field(default=None, description="uiautomator XML; None in pixels mode")
    info: dict[str, Any] = Field(default_factory=dict, description="the env's info dict")

    def pixels(self) -> np.ndarray | None:
        """The screenshot as a ``uint8`` ``(H, W, 3)`` array (None without one)."""
        return None if self.screenshot is None else decode_png(self.screenshot)


class PhoneState(State):
    """A session's episode: OpenEnv's ``episode_id`` and ``step_count``, plus which env, task
    and seed it plays."""

    env_id: str | None = None
    task: str | None = None
    goal: str = ""
    seed: int | None = None
    done: bool = False


def encode_png(pixels: np.ndarray) -> str:
    """A ``uint8`` ``(H, W, 3)`` array as base64 PNG (fast, lossless compression)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.asarray(pixels, dtype=np.uint8)).save(buf, format="PNG",
                                                              compress_level=1)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def decode_png(data: str) -> np.ndarray:
    """:func:`encode_png`'s text back to the ``uint8`` ``(H, W, 3)`` array."""
    from PIL import Image

    with Image.open(io.BytesIO(base64.b64decode(data))) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8)
