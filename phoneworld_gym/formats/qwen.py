"""Qwen-VL's ``mobile_use`` function calls (Qwen2.5-VL and Qwen3-VL), as the Qwen cookbooks'
mobile agent defines them.

A reply holds one call, after any thought text::

    <tool_call>
    {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 1204]}}
    </tool_call>

Actions: ``click``, ``long_press`` (``coordinate``), ``swipe`` (``coordinate`` to
``coordinate2``: the finger's path), ``type`` (``text``, into the focused field), ``key``
(``text``: an adb key event), ``system_button`` (``button``: Back, Home, Menu, Enter), ``open``
(``text``: an app), ``wait``, ``terminate`` (``status``: success or failure) and ``answer``
(``text``).

**Coordinates.**

* Qwen2.5-VL (``qwen``, ``qwen2.5vl``): absolute pixels of the screenshot *as the processor
  resized it*: :func:`~phoneworld_gym.formats.base.smart_resize` with factor 28
  (patch 14 x merge 2) and the released processor's bounds, ``min_pixels=3136``
  (56 x 56), ``max_pixels=12845056`` (16384 x 28 x 28); the cookbook writes that resized size
  into the tool's description, and so does :meth:`QwenFormat.system_prompt`. A 1080 x 2400
  screenshot becomes 1092 x 2408; a 540 x 1200 one 532 x 1204. The cookbook only draws the
  point, so it fixes no rounding back to the screen; this module truncates
  (``int(x / resized_w * W)``), as the Qwen2.5-VL-based GUI-Owl and UI-TARS-1.5 parsers do.
* Qwen3-VL (``qwen3vl``): the Qwen3-VL cookbook's mobile agent tells the model the screen is
  999 x 999 and maps a point back with ``round(x / 999 * W)``: a relative grid, whatever the
  image size. (Its processor resizes images with factor 32, patch 16 x merge 2, but the
  agent's coordinates do not depend on it.) ``QwenFormat(coordinates="resized", factor=32)``
  reads models fine-tuned to Qwen2.5-VL's absolute convention on Qwen3-VL instead.

Out of the screen's range (negative, or past the resized image or 999) is a ``ValueError``; a
point on the very edge that scales to ``W`` is clamped to ``W - 1``.

**Directions.** ``swipe`` is a finger path: its direction is the dominant axis of
``coordinate2 - coordinate`` (vertical on a tie), its start the contract's point; the
contract's ``swipe`` is AndroidWorld's, which names a horizontal finger path the other way
(``contract.SWIPE_FINGER``: a finger moving left is ``swipe right``). A PhoneWorld
``scroll`` (``down`` shows content below) is written as the swipe that does it: the finger
moves the other way (up), from the target's centre or the main scrollable container's.

**What the format cannot say in one call** (see :meth:`QwenFormat.steps`): ``input_text`` at
an element is a ``click`` then a ``type``; ``type`` appends, so clearing a field that holds
text cannot be said; ``double_tap`` is two clicks. PhoneWorld's ``input_text`` presses enter
after typing (AndroidWorld's semantics), where Qwen's ``type`` does not. ``terminate`` with
``failure`` is read as ``status infeasible``. ``system_button`` Menu and keys other than
back, home and enter have no PhoneWorld action and raise ``ValueError``.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from phoneworld_gym.contract import Action
from phoneworld_gym.formats.base import (
    CoordinateFormat,
    CoordinateSpace,
    Relative,
    ResizedPixels,
    Screen,
    _show,
    json_objects,
    require_text,
    swipe_of,
)

TOOL = "mobile_use"
ACTIONS = ("click", "long_press", "swipe", "type", "key", "system_button", "open", "wait",
           "terminate", "answer")
#: adb key event names (with or without ``KEYCODE_``, any case, or the key code) that
#: PhoneWorld has an action for.
KEYS = {"enter": "keyboard_enter", "66": "keyboard_enter", "back": "navigate_back",
        "4": "navigate_back", "home": "navigate_home", "3": "navigate_home"}
BUTTONS = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter"}
#: Seconds written for ``wait`` and ``long_press`` (PhoneWorld's actions have no duration).
SECONDS = 2

_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)


def _text_arg(args: dict[str, Any], action: str, *keys: str) -> str:
    for k in keys:
        v = args.get(k)
        if v is not None:
            if not isinstance(v, str):
                raise ValueError(f"{action}: {k} must be a string, got {_show(v)}")
            return v
    raise ValueError(f"{action} needs {' or '.join(keys)} (a string)")


class QwenFormat(CoordinateFormat):
    """Qwen-VL ``mobile_use`` calls over a coordinate space (see the module docstring).

    Args:
        coordinates: ``"resized"`` (absolute pixels of the smart-resized image) or
            ``"relative"`` (a 0..``scale`` grid).
        factor, min_pixels, max_pixels: the resize rule's parameters (``"resized"``).
        scale: the grid's size (``"relative"``).
        rounding: ``"int"`` (truncate) or ``"round"`` when mapping back to device pixels.
    """

    name: ClassVar[str] = "qwen"
    convention: ClassVar[str] = "pixels of the smart-resized image (factor 28)"

    def __init__(self, coordinates: str = "resized", *, factor: int = 28,
                 min_pixels: int = 56 * 56, max_pixels: int = 16384 * 28 * 28,
                 scale: int = 999, rounding: str | None = None):
        self.space: CoordinateSpace
        if coordinates == "resized":
            self.space = ResizedPixels(factor, min_pixels, max_pixels, rounding or "int")
        elif coordinates == "relative":
            self.space = Relative(scale, rounding or "round")
        else:
            raise ValueError(f"coordinates must be 'resized' or 'relative', got "
                             f"{_show(coordinates)}")
        if self.space.rounding not in ("int", "round"):
            raise ValueError(f"rounding must be 'int' or 'round', got {_show(rounding)}")
        self.coordinates = coordinates

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.space!r})"

    # -- reading ------------------------------------------------------------------------------
    def call(self, text: str) -> dict[str, Any]:
        """The ``arguments`` of the reply's first ``mobile_use`` call (inside ``<tool_call>``,
        or a bare ``{"name": "mobile_use", ...}`` object)."""
        reply = require_text(text)
        m = _CALL.search(reply)
        region = m.group(1) if m else reply
        for obj in json_objects(region):
            if "name" in obj or "arguments" in obj:
                break
        else:
            where = "inside <tool_call>" if m else "(no <tool_call> tag either)"
            raise ValueError(f"no function call JSON {where} in the reply {reply[:80]!r}")
        if obj.get("name") != TOOL:
            raise ValueError(f"the call names {_show(obj.get('name'))}; only {TOOL!r} exists")
        args = obj.get("arguments")
        if isinstance(args, str):  # some servers send the arguments as a JSON string
            try:
                args = json.loads(args)
            except (ValueError, RecursionError):
                raise ValueError(f"the call's arguments are not JSON: {args[:80]!r}") from None
        if not isinstance(args, dict):
            raise ValueError(f"the call's arguments must be an object, got {_show(args)}")
        return args

    def parse(self, text: str, screen: Screen | None = None) -> Action:
        """The reply's ``mobile_use`` call as a contract action."""
        screen = screen or Screen()
        args = self.call(text)
        action = args.get("action")
        if action == "tap":
            action = "click"
        if action == "open_app":
            action = "open"
        if action not in ACTIONS:
            raise ValueError(f"unknown mobile_use action {_show(action)}; expected one of "
                             f"{list(ACTIONS)}")
        if action in ("click", "long_press"):
            x, y = self.to_device(args.get("coordinate"), screen)
            return Action(action, x=x, y=y)
        if action == "swipe":
            x, y = self.to_device(args.get("coordinate"), screen)
            self.to_device(args.get("coordinate2"), screen, "coordinate2")  # validates it
            (x0, y0), (x1, y1) = args["coordinate"], args["coordinate2"]
            ew, eh = self.space.extent(screen)
            direction = swipe_of((x1 - x0) * screen.width / ew,
                                 (y1 - y0) * screen.height / eh)
            return Action("swipe", x=x, y=y, direction=direction)
        if action == "type":
            return Action("input_text", text=_text_arg(args, action, "text"))
        if action == "answer":
            return Action("answer", text=_text_arg(args, action, "text"))
        if action == "open":
            return Action("open_app", app_name=_text_arg(args, action, "text", "app_name"))
        if action == "key":
            key = _text_arg(args, action, "text", "key").strip().lower()
            key = key.removeprefix("keycode_")
            if key not in KEYS:
                raise ValueError(f"key {_show(key)} has no PhoneWorld action; known: "
                                 "back, home, enter")
            return Action(KEYS[key])
        if action == "system_button":
            button = _text_arg(args, action, "button").strip().lower()
            if button not in BUTTONS:
                raise ValueError(f"system_button {_show(button)} has no PhoneWorld action; "
                                 "known: Back, Home, Enter")
            return Action(BUTTONS[button])
        if action == "terminate":
            status = args.get("status")
            if status not in ("success", "failure"):
                raise ValueError(f"terminate needs status 'success' or 'failure', got "
                                 f"{_show(status)}")
            return Action("status",
                          goal_status="complete" if status == "success" else "infeasible")
        return Action("wait")

    # -- writing ------------------------------------------------------------------------------
    def steps(self, action: Action, screen: Screen | None = None) -> list[Action]:
        """``action`` as calls this format has: points for indices, a scroll as its swipe, an
        ``input_text`` at an element as click + type, a ``double_tap`` as two clicks."""
        screen = screen or Screen()
        if not isinstance(action, Action):
            raise ValueError(f"steps takes an Action, got {type(action).__name__}")
        t = action.action_type
        if t in ("click", "long_press", "double_tap"):
            p = self.point(action, screen)
            assert p is not None
            one = Action("long_press" if t == "long_press" else "click", x=p[0], y=p[1])
            return [one, one] if t == "double_tap" else [one]
        if t == "input_text":
            return self.input_steps(action, screen)
        if t == "scroll":
            return [self.as_swipes(action, screen)]
        if t == "swipe":
            x, y = self.point(action, screen) or (screen.width // 2, screen.height // 2)
            return [Action("swipe", x=x, y=y, direction=action.direction)]
        return [action]

    def arguments(self, action: Action, screen: Screen) -> dict[str, Any]:
        """The call's arguments for one action of :meth:`steps`."""
        t = action.action_type
        if t in ("click", "long_press") and action.x is not None and action.y is not None:
            args: dict[str, Any] = {"action": t,
                                    "coordinate": self.to_model(action.x, action.y, screen)}
            if t == "long_press":
                args["time"] = SECONDS
            return args
        if t == "swipe" and action.x is not None:
            x0, y0, x1, y1 = self.swipe_vector(action, screen)
            return {"action": "swipe", "coordinate": self.to_model(x0, y0, screen),
                    "coordinate2": self.to_model(x1, y1, screen)}
        if t == "input_text" and action.x is None and action.index is None:
            return {"action": "type", "text": action.text}
        simple: dict[str, dict[str, Any]] = {
            "navigate_back": {"action": "system_button", "button": "Back"},
            "navigate_home": {"action": "system_button", "button": "Home"},
            "keyboard_enter": {"action": "system_button", "button": "Enter"},
            "wait": {"action": "wait", "time": SECONDS},
        }
        if t in simple:
            return simple[t]
        if t == "open_app":
            return {"action": "open", "text": action.app_name}
        if t == "answer":
            return {"action": "answer", "text": action.text}
        if t == "status":
            return {"action": "terminate",
                    "status": "success" if action.goal_status == "complete" else "failure"}
        raise ValueError(f"{self.name} cannot write {action.to_json_str()} in one call; "
                         "format each of steps(action, screen)")

    def write(self, action: Action, screen: Screen) -> str:
        call = {"name": TOOL, "arguments": self.arguments(action, screen)}
        return f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"

    # -- the prompt ---------------------------------------------------------------------------
    def tool_schema(self, screen: Screen | None = None) -> dict[str, Any]:
        """The ``mobile_use`` function's JSON schema, with the display size the model's
        coordinates refer to."""
        w, h = self.space.extent(screen or Screen())
        point = ("[x, y]: x pixels from the left edge, y pixels from the top edge, of a "
                 f"{w}x{h} display")
        return {"type": "function", "function": {
            "name": TOOL,
            "description": (f"Operate an Android phone through its touchscreen. The display "
                            f"is {w}x{h} pixels. Aim taps at the middle of the element. Apps "
                            "may need a moment to respond: wait, then look again."),
            "parameters": {"type": "object", "required": ["action"], "properties": {
                "action": {"type": "string", "enum": list(ACTIONS), "description": (
                    "click / long_press: touch coordinate (long_press holds it for time "
                    "seconds); swipe: drag a finger from coordinate to coordinate2; type: "
                    "enter text into the focused field; key: send an adb key event (text); "
                    "system_button: press button; open: launch the app named text; wait: "
                    "pause time seconds; terminate: stop with status; answer: reply to "
                    "the user's question with text.")},
                "coordinate": {"type": "array", "description": point},
                "coordinate2": {"type": "array", "description": "swipe's end point; " + point},
                "text": {"type": "string",
                         "description": "for type, key, open and answer"},
                "time": {"type": "number", "description": "seconds, for long_press and wait"},
                "button": {"type": "string", "enum": ["Back", "Home", "Menu", "Enter"],
                           "description": "for system_button"},
                "status": {"type": "string", "enum": ["success", "failure"],
                           "description": "for terminate: whether the task was done"},
            }},
        }}

    def system_prompt(self, screen: Screen | None = None) -> str:
        schema = json.dumps(self.tool_schema(screen), ensure_ascii=False)
        return (
            "You are an agent that works an Android phone on the user's behalf, one step at "
            "a time. You have a single function, whose JSON schema is:\n"
            f"<tools>\n{schema}\n</tools>\n\n"
            "Each turn, think in one or two sentences about what to do next, then make "
            "exactly one call, written as a JSON object inside tags:\n"
            "<tool_call>\n"
            '{"name": "mobile_use", "arguments": {"action": ..., ...}}\n'
            "</tool_call>\n"
            "When the task is done, call terminate; when it asks a question, give the answer "
            "with answer."
        )


class Qwen3Format(QwenFormat):
    """Qwen3-VL's ``mobile_use``: the same calls on a relative 0..999 grid, mapped back with
    ``round(x / 999 * W)`` (the Qwen3-VL cookbook's mobile agent)."""

    name: ClassVar[str] = "qwen3vl"
    convention: ClassVar[str] = "a 0..999 grid over the screen, round()"

    def __init__(self, coordinates: str = "relative", *, factor: int = 32,
                 min_pixels: int = 4 * 32 * 32, max_pixels: int = 16384 * 32 * 32,
                 scale: int = 999, rounding: str | None = None):
        super().__init__(coordinates, factor=factor, min_pixels=min_pixels,
                         max_pixels=max_pixels, scale=scale, rounding=rounding)


