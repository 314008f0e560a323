"""PhoneWorld behind AndroidWorld's ``AsyncEnv`` interface (``android_world/env/interface.py``).

AndroidWorld's agents (T3A, M3A, ...) read ``get_state()`` (pixels, forest, UI elements),
``logical_screen_size``, ``orientation`` and ``physical_frame_boundary``, call
``execute_action(JSONAction)`` and ``reset(go_home)``, and T3A asks ``adb_utils`` about the
``controller`` for its screenshot marks. :class:`PhoneWorldAsyncEnv` answers all of that
from a PhoneWorld env, so they run on any PhoneWorld task; PhoneWorld's verifier scores the
episode when the agent says ``status`` (with the ``answer`` it gave, if any).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.androidworld.elements import to_androidworld_element
from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, Action, parse_ui_elements


def json_action_to_action(action: Any) -> Action:
    """A contract :class:`Action` doing what AndroidWorld's actuation does for ``action`` (a
    ``JSONAction`` or anything with its fields): a ``swipe`` ignores its target (AndroidWorld
    swipes edge to edge), a ``scroll`` ignores ``x``/``y`` and an ``index`` of 0 (its
    ``if action.index:``), and what it does nothing for (``unknown``, ``input_text`` without
    text, a ``scroll``/``swipe`` without direction) is ``unknown``."""
    fields = ("action_type", "index", "x", "y", "text", "direction", "app_name",
              "goal_status", "clear_text")
    data = {k: getattr(action, k, None) for k in fields}
    data = {k: v for k, v in data.items() if v is not None}
    t = data.get("action_type")
    if t in ("scroll", "swipe"):
        if not data.get("direction"):
            return Action("unknown")
        data.pop("x", None)
        data.pop("y", None)
        if t == "swipe" or not data.get("index"):
            data.pop("index", None)
    if t == "input_text" and not data.get("text"):
        return Action("unknown")
    if t == "input_text" and "x" in data and "y" not in data:
        data.pop("x")  # AndroidWorld clicks only with both; it types into the focus
    return Action.from_json(data)


class _Controller:
    """Answers the few adb requests AndroidWorld's agents send through ``env.controller``
    (``dumpsys input``/``dumpsys window`` for frame and rotation; anything else succeeds
    with no output). Builds ``android_env`` ``AdbResponse`` protos (imported when asked)."""

    def __init__(self, size: tuple[int, int]):
        self._size = size

    def execute_adb_call(self, request: Any) -> Any:
        from android_env.proto import adb_pb2

        args = " ".join(request.generic.args)
        w, h = self._size
        out = ""
        if "dumpsys input" in args:
            out = (f"logicalFrame=[0, 0, {w}, {h}]\nphysicalFrame=[0, 0, {w}, {h}]\n")
        elif "dumpsys window" in args:
            out = "mCurrentRotation=ROTATION_0\n"
        return adb_pb2.AdbResponse(status=adb_pb2.AdbResponse.Status.OK,
                                   generic=adb_pb2.AdbResponse.GenericResponse(
                                       output=out.encode()))


class PhoneWorldAsyncEnv:
    """AndroidWorld's ``AsyncEnv`` over a PhoneWorld env (``gymnasium.make("PhoneWorld/...")``).

    Call :meth:`start` to begin a PhoneWorld episode (it returns the goal), then hand this
    object to an AndroidWorld agent as its ``env``. ``execute_action`` steps the PhoneWorld
    env with the same action (AndroidWorld semantics, see :func:`json_action_to_action`);
    ``answer`` only fills ``interaction_cache`` as in AndroidWorld, and ``status`` ends the
    episode, handing PhoneWorld the cached answer. After it, :attr:`reward`, :attr:`success`
    and :attr:`done` hold the verdict; actions after the end do nothing.

    ``forest`` in a state is the ``uiautomator`` XML (PhoneWorld has no accessibility-forest
    proto); ``ui_elements`` are AndroidWorld ``UIElement`` objects, index for index what
    ``parse_ui_elements`` gives (its default, forest mode).
    """

    interaction_cache: str = ""

    def __init__(self, env: Any):
        self.env = env
        self.interaction_cache = ""
        self.obs: dict[str, Any] | None = None
        self.info: dict[str, Any] = {}
        self.reward = 0.0
        self.done = False
        self.last_action: Action | None = None
        self._controller = _Controller(self.logical_screen_size)

    # -- the PhoneWorld episode ---------------------------------------------------------------
    def start(self, seed: int | None = None, options: dict[str, Any] | None = None) -> str:
        """Reset the PhoneWorld env (a new task episode); returns its goal."""
        self.obs, self.info = self.env.reset(seed=seed, options=options)
        self.interaction_cache = ""
        self.reward, self.done = 0.0, False
        return str(self.obs["goal"])

    @property
    def success(self) -> bool:
        """Whether PhoneWorld's verifier accepted the episode."""
        return bool(self.info.get("success"))

    @property
    def goal(self) -> str:
        return "" if self.obs is None else str(self.obs["goal"])

    def _step(self, action: Action) -> None:
        if self.done:
            return
        self.last_action = action
        self.obs, reward, terminated, truncated, self.info = self.env.step(action)
        self.reward = float(reward)
        self.done = bool(terminated or truncated)

    # -- AsyncEnv ---------------------------------------------------------------------------
    @property
    def controller(self) -> Any:
        """A stand-in for AndroidWorld's controller, for ``adb_utils`` frame queries."""
        return self._controller

    def reset(self, go_home: bool = False) -> Any:
        """AndroidWorld's reset: optionally press home (not a PhoneWorld step), clear
        ``interaction_cache``, return the state. It does not start a new task: see
        :meth:`start`."""
        if self.obs is None:
            self.start()
        if go_home:
            self.env.unwrapped.device.execute(Action("navigate_home"))
            self.obs = self.env.unwrapped._obs()
        self.interaction_cache = ""
        return self.get_state()

    def get_state(self, wait_to_stabilize: bool = False) -> Any:
        """``State(pixels, forest, ui_elements, auxiliaries)`` of the current screen
        (PhoneWorld is settled after every step, so ``wait_to_stabilize`` changes nothing)."""
        from android_world.env import interface

        if self.obs is None:
            raise RuntimeError("call start() (or reset()) before get_state()")
        obs = self.obs
        xml = obs.get("a11y")
        if xml is None:
            xml = self.env.unwrapped.device.a11y_xml()
        shot = obs.get("screenshot")
        if shot is None:
            shot = np.array(self.env.unwrapped.device.screenshot())
        elements = [to_androidworld_element(e)
                    for e in parse_ui_elements(xml, self.logical_screen_size)]
        aux = {"goal": self.goal, "action_error": self.info.get("action_error", ""),
               "reward": self.reward, "done": self.done}
        return interface.State(pixels=np.array(shot), forest=xml, ui_elements=elements,
                               auxiliaries=aux)

    def execute_action(self, action: Any) -> None:
        """Carry out a ``JSONAction`` as AndroidWorld does (see the class docs)."""
        t = getattr(action, "action_type", None)
        if t == "answer":
            self.interaction_cache = getattr(action, "text", None) or ""
            return
        if t == "status":
            status = getattr(action, "goal_status", None) or "complete"
            if status != "infeasible" and self.interaction_cache:
                self._step(Action("answer", text=self.interaction_cache))
            else:
                self._step(Action("status", goal_status=status if status in (
                    "complete", "infeasible") else "complete"))
            return
        self._step(json_action_to_action(action))

    def display_message(self, message: str, header: str = "") -> None:
        """Nothing to show on a simulated phone."""

    def ask_question(self, question: str, timeout_seconds: float = -1.0) -> str | None:
        raise NotImplementedError("ask_question is not implemented.")  # as AsyncAndroidEnv

    def hide_automation_ui(self) -> None:
        """PhoneWorld draws no pointer location: nothing to hide."""

    @property
    def foreground_activity_name(self) -> str:
        try:
            return str(self.env.unwrapped.device.probe.foreground())
        except Exception:  # a device without that probe: AndroidWorld's "unknown" is ""
            return ""

    @property
    def device_screen_size(self) -> tuple[int, int]:
        return SCREEN_WIDTH, SCREEN_HEIGHT

    @property
    def logical_screen_size(self) -> tuple[int, int]:
        return SCREEN_WIDTH, SCREEN_HEIGHT

    @property
    def orientation(self) -> int:
        return 0  # portrait, always

    @property
    def physical_frame_boundary(self) -> tuple[int, int, int, int]:
        return 0, 0, SCREEN_WIDTH, SCREEN_HEIGHT

    def close(self) -> None:
        self.env.close()
