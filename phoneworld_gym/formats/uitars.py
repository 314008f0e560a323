"""UI-TARS's ``Thought:``/``Action:`` replies (UI-TARS-1.0 and UI-TARS-1.5, mobile actions).

A reply is a thought and one call in Python syntax::

    Thought: The send button is at the bottom right.
    Action: click(start_box='(1002,2215)')

Mobile actions: ``click``, ``long_press`` (``start_box``), ``type(content='...')`` (a trailing
``\\n`` submits), ``scroll(start_box=..., direction='down')``, ``drag(start_box=...,
end_box=...)``, ``press_home()``, ``press_back()``, ``open_app(app_name='...')``, ``wait()``,
``finished(content='...')``; also read: ``left_double`` (double tap), ``call_user()``
(infeasible), ``hotkey(key='enter')``, ``swipe`` like ``drag``. Points are written
``'(x,y)'``, ``'<|box_start|>(x,y)<|box_end|>'``, ``'<point>x y</point>'`` (UI-TARS-1.5's
newer prompt; ``point=``, ``start_point=``, ``end_point=``) or as a box ``(x1,y1,x2,y2)``,
read as its centre. Strings use Python escapes (``\\'``, ``\\n``, ``\\\\``).

**Coordinates** (the ``version`` parameter):

* ``"1.5"`` (``uitars``): absolute pixels of the image as resized by
  :func:`~phoneworld_gym.formats.base.smart_resize` with UI-TARS's parameters: factor 28,
  ``min_pixels = 100 x 28 x 28``, ``max_pixels = 16384 x 28 x 28``; mapped back by truncation,
  ``int(x / resized_w * W)``, as the project's coordinate guide does.
* ``"1.0"`` (``uitars1``): a relative 0..1000 grid, ``round(W * x / 1000)`` as its README's
  worked example does.

A point past the model's space raises ``ValueError``; one on the edge that scales to ``W`` is
clamped to ``W - 1``.

**Directions.** ``scroll``'s direction is the side where more content shows ("down" reveals
what is below), the same as PhoneWorld's ``scroll``, so it maps one to one. ``drag`` is the
finger's path, so it maps to PhoneWorld's ``swipe`` (the dominant axis of its vector, vertical
on a tie, named AndroidWorld's way: a finger moving left is ``swipe right``). UI-TARS-1.0's
mobile prompt wrote a finger path as ``scroll(start_box, end_box)``; that is read as a swipe
too.

**Ending.** ``finished(content='')`` is ``status complete``; ``finished`` with content is an
``answer`` (which ends a PhoneWorld episode as complete); ``call_user()`` is
``status infeasible``. ``type`` has no target, so an ``input_text`` at an element is a click
then a type (:meth:`UITarsFormat.steps`), and it appends, so clearing a field that holds text
cannot be said. PhoneWorld's ``input_text`` always presses enter; ``type`` without a trailing
``\\n`` is read as ``input_text`` all the same, and ``type(content='\\n')`` is
``keyboard_enter``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from phoneworld_gym.contract import Action, swipe_finger
from phoneworld_gym.formats.base import (
    CoordinateFormat,
    CoordinateSpace,
    Relative,
    ResizedPixels,
    Screen,
    _show,
    check_direction,
    require_text,
    swipe_of,
)

_CALL = re.compile(r"\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$", re.DOTALL)
_CONTENT = re.compile(r"""\bcontent\s*=\s*(['"])(.*)\1\s*$""", re.DOTALL)
_ARG = re.compile(r"""(\w+)\s*=\s*(['"])(.*?)(?<!\\)\2""", re.DOTALL)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}

CLICKS = {"click": "click", "left_single": "click", "tap": "click",
          "left_double": "double_tap", "double_click": "double_tap",
          "long_press": "long_press"}


def unescape(text: str) -> str:
    """Python-style escapes in a UI-TARS string (``\\n``, ``\\'``, ``\\\\`` ...)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), text,
                  flags=re.DOTALL)


def escape(text: str) -> str:
    """``text`` as it goes between single quotes: backslashes, quotes and newlines escaped."""
    return text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")


class UITarsFormat(CoordinateFormat):
    """UI-TARS mobile actions (see the module docstring).

    Args:
        version: ``"1.5"`` (absolute pixels of the smart-resized image) or ``"1.0"``
            (relative 0..1000).
        syntax: how :meth:`format` writes points: ``"box"`` (``start_box='(x,y)'``) or
            ``"point"`` (``point='<point>x y</point>'``). Both are read.
        factor, min_pixels, max_pixels: UI-TARS-1.5's resize rule.
    """

    name: ClassVar[str] = "uitars"
    convention: ClassVar[str] = "1.5: pixels of the smart-resized image; 1.0: 0..1000 grid"

    def __init__(self, version: str = "1.5", *, syntax: str = "box", factor: int = 28,
                 min_pixels: int = 100 * 28 * 28, max_pixels: int = 16384 * 28 * 28):
        self.space: CoordinateSpace
        if version == "1.5":
            self.space = ResizedPixels(factor, min_pixels, max_pixels, "int")
        elif version == "1.0":
            self.space = Relative(1000, "round")
        else:
            raise ValueError(f"version must be '1.5' or '1.0', got {_show(version)}")
        if syntax not in ("box", "point"):
            raise ValueError(f"syntax must be 'box' or 'point', got {_show(syntax)}")
        self.version = version
        self.syntax = syntax

    def __repr__(self) -> str:
        return f"UITarsFormat(version={self.version!r}, syntax={self.syntax!r})"

    # -- reading ------------------------------------------------------------------------------
    def call(self, text: str) -> tuple[str, dict[str, str]]:
        """The first call after the reply's last ``Action:``: its name and its keyword
        arguments (strings, unescaped)."""
        reply = require_text(text)
        at = reply.rfind("Action:")
        if at < 0:
            raise ValueError(f"no 'Action:' in the reply {reply[:80]!r}")
        body = reply[at + len("Action:"):].strip()
        body = body.split(")\n\n")[0].strip()  # several actions: the first one
        if not body.endswith(")"):
            body += ")"
        m = _CALL.match(body)
        if not m:
            raise ValueError(f"the action is not a call like click(start_box='(x,y)'): "
                             f"{body[:80]!r}")
        name, inner = m.group(1), m.group(2)
        args: dict[str, str] = {}
        content = _CONTENT.search(inner)
        if content:  # content runs to the last quote: it may hold quotes the model left bare
            args["content"] = unescape(content.group(2))
            inner = inner[:content.start()]
        for a in _ARG.finditer(inner):
            args.setdefault(a.group(1), unescape(a.group(3)))
        for old, new in (("point", "start_box"), ("start_point", "start_box"),
                         ("end_point", "end_box")):
            if old in args:
                args.setdefault(new, args.pop(old))
        return name, args

    def box(self, value: str, screen: Screen, what: str) -> tuple[float, float, int, int]:
        """A point argument: model (x, y) and the device pixel it maps to."""
        numbers = [float(n) for n in _NUMBER.findall(value.replace("<|box_start|>", "")
                                                     .replace("<|box_end|>", ""))]
        if len(numbers) == 4:
            numbers = [(numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2]
        if len(numbers) != 2:
            raise ValueError(f"{what} must hold a point (x,y) or a box (x1,y1,x2,y2), got "
                             f"{_show(value)}")
        mx, my = (int(n) if n.is_integer() else n for n in numbers)
        x, y = self.space.to_device(mx, my, screen)
        return mx, my, x, y

    def parse(self, text: str, screen: Screen | None = None) -> Action:
        """The reply's action as a contract action."""
        screen = screen or Screen()
        name, args = self.call(text)

        def point(key: str = "start_box") -> tuple[float, float, int, int]:
            if key not in args:
                raise ValueError(f"{name} needs {key}")
            return self.box(args[key], screen, key)

        def swipe() -> Action:
            mx0, my0, x, y = point()
            mx1, my1, _, _ = point("end_box")
            ew, eh = self.space.extent(screen)
            return Action("swipe", x=x, y=y,
                          direction=swipe_of((mx1 - mx0) * screen.width / ew,
                                             (my1 - my0) * screen.height / eh))

        if name in CLICKS:
            _, _, x, y = point()
            return Action(CLICKS[name], x=x, y=y)
        if name == "type":
            content = args.get("content")
            if not content:
                raise ValueError("type needs content='...' (non-empty)")
            if content == "\n":
                return Action("keyboard_enter")
            return Action("input_text", text=content[:-1] if content.endswith("\n") else content)
        if name == "scroll":
            if "end_box" in args:
                return swipe()
            direction = check_direction(args.get("direction"))
            if "start_box" not in args:
                return Action("scroll", direction=direction)
            _, _, x, y = point()
            return Action("scroll", x=x, y=y, direction=direction)
        if name in ("drag", "swipe", "select"):
            if "end_box" not in args and "direction" in args:
                _, _, x, y = point()
                finger = check_direction(args["direction"])  # a drag names the finger's way
                return Action("swipe", x=x, y=y, direction=swipe_finger(finger))
            return swipe()
        if name == "press_home":
            return Action("navigate_home")
        if name == "press_back":
            return Action("navigate_back")
        if name in ("press_enter",) or (name in ("hotkey", "press")
                                        and args.get("key", "").strip().lower() == "enter"):
            return Action("keyboard_enter")
        if name == "open_app":
            app = args.get("app_name", "")
            if not app.strip():
                raise ValueError("open_app needs app_name='...'")
            return Action("open_app", app_name=app)
        if name == "wait":
            return Action("wait")
        if name == "finished":
            content = args.get("content", "")
            return (Action("answer", text=content) if content.strip()
                    else Action("status", goal_status="complete"))
        if name == "call_user":
            return Action("status", goal_status="infeasible")
        raise ValueError(f"unknown UI-TARS action {name!r}; expected click, long_press, type, "
                         "scroll, drag, press_home, press_back, open_app, wait, finished, "
                         "call_user")

    # -- writing ------------------------------------------------------------------------------
    def steps(self, action: Action, screen: Screen | None = None) -> list[Action]:
        """``action`` as UI-TARS actions: points for indices, ``input_text`` at an element
        as click + type; a swipe gets an explicit start (the screen's centre)."""
        screen = screen or Screen()
        if not isinstance(action, Action):
            raise ValueError(f"steps takes an Action, got {type(action).__name__}")
        t = action.action_type
        if t in ("click", "long_press", "double_tap", "scroll"):
            p = self.point(action, screen)
            if p is None:
                return [action]
            return [Action(t, x=p[0], y=p[1], direction=action.direction)]
        if t == "swipe":
            x, y = self.point(action, screen) or (screen.width // 2, screen.height // 2)
            return [Action("swipe", x=x, y=y, direction=action.direction)]
        if t == "input_text":
            out = self.input_steps(action, screen)
            if action.text == "":
                out[-1] = Action("keyboard_enter")
            return out
        return [action]

    def pt(self, x: int, y: int, screen: Screen) -> str:
        mx, my = self.to_model(x, y, screen)
        return f"<point>{mx} {my}</point>" if self.syntax == "point" else f"({mx},{my})"

    def write(self, action: Action, screen: Screen) -> str:
        t = action.action_type
        key = "point" if self.syntax == "point" else "start_box"
        end = "end_point" if self.syntax == "point" else "end_box"
        start = "start_point" if self.syntax == "point" else "start_box"
        names = {"click": "click", "double_tap": "left_double", "long_press": "long_press"}
        if t in names and action.x is not None and action.y is not None:
            call = f"{names[t]}({key}='{self.pt(action.x, action.y, screen)}')"
        elif t == "scroll" and action.index is None:
            where = ("" if action.x is None or action.y is None
                     else f"{key}='{self.pt(action.x, action.y, screen)}', ")
            call = f"scroll({where}direction='{action.direction}')"
        elif t == "swipe" and action.x is not None:
            x0, y0, x1, y1 = self.swipe_vector(action, screen)
            call = (f"drag({start}='{self.pt(x0, y0, screen)}', "
                    f"{end}='{self.pt(x1, y1, screen)}')")
        elif t == "input_text" and action.x is None and action.index is None:
            assert action.text is not None
            call = f"type(content='{escape(action.text + chr(10))}')"
        elif t == "keyboard_enter":
            call = "type(content='\\n')"
        elif t == "navigate_home":
            call = "press_home()"
        elif t == "navigate_back":
            call = "press_back()"
        elif t == "open_app":
            assert action.app_name is not None
            call = f"open_app(app_name='{escape(action.app_name)}')"
        elif t == "wait":
            call = "wait()"
        elif t == "answer":
            assert action.text is not None
            call = f"finished(content='{escape(action.text)}')"
        elif t == "status":
            call = "finished(content='')" if action.goal_status == "complete" else "call_user()"
        else:
            raise ValueError(f"{self.name} cannot write {action.to_json_str()} in one action; "
                             "format each of steps(action, screen)")
        return f"Thought: {t.replace('_', ' ')}.\nAction: {call}"

    # -- the prompt ---------------------------------------------------------------------------
    def system_prompt(self, screen: Screen | None = None) -> str:
        w, h = self.space.extent(screen or Screen())
        p = "<point>x y</point>" if self.syntax == "point" else "(x,y)"
        key = "point" if self.syntax == "point" else "start_box"
        end = "end_point" if self.syntax == "point" else "end_box"
        start = "start_point" if self.syntax == "point" else "start_box"
        where = (f"pixels of the {w}x{h} screenshot" if self.version == "1.5"
                 else "thousandths of the screen's width and height (0 to 1000)")
        return (
            "You are a GUI agent working an Android phone for the user. You see the task, "
            "your earlier actions and a screenshot, and you choose the next single action.\n\n"
            "## Reply format\n```\nThought: ...\nAction: ...\n```\n\n"
            "## Actions\n"
            f"click({key}='{p}')\n"
            f"long_press({key}='{p}')\n"
            "type(content='') # end the content with \\n to submit it\n"
            f"scroll({key}='{p}', direction='down or up or right or left') "
            "# the side where more content should come into view\n"
            f"drag({start}='{p}', {end}='{p}') # a finger swipe\n"
            "open_app(app_name='')\n"
            "press_home()\n"
            "press_back()\n"
            "wait()\n"
            "finished(content='') # the task is done; put the answer to a question in content\n"
            "call_user() # the task cannot be done\n\n"
            "## Notes\n"
            f"- Points are {where}.\n"
            "- In content, escape quotes and newlines as in a Python string (\\', \\n).\n"
            "- In Thought, plan briefly and name the element the action targets."
        )


class UITars1Format(UITarsFormat):
    """UI-TARS-1.0: the same actions on a relative 0..1000 grid."""

    name: ClassVar[str] = "uitars1"
    convention: ClassVar[str] = "a 0..1000 grid over the screen, round()"

    def __init__(self, version: str = "1.0", *, syntax: str = "box", **kw: Any):
        super().__init__(version, syntax=syntax, **kw)
