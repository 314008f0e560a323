"""What every action format shares: the screen a reply is read against, coordinate spaces, and
the base class with ``parse``/``format``/``steps``/``system_prompt``.

A format turns the text a published phone agent writes into a PhoneWorld
:class:`~phoneworld_gym.contract.Action` and back. Coordinate formats speak in their model's own
space (the pixels of the image as the model's processor resized it, or a fixed 0..999 grid);
:class:`Screen` holds what the mapping needs: the device's logical size, which every contract
action addresses, and the size of the screenshot the model was shown.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from phoneworld_gym.contract import (
    DIRECTIONS,
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Action,
    UIElement,
    parse_ui_elements,
    swipe_finger,
)

#: The most characters of a reply a format reads (longer replies are cut there, so a runaway
#: or hostile reply costs bounded time).
MAX_REPLY = 20_000

OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
#: The unit vector a finger moves along for each swipe direction (screen y grows downwards).
_VECTOR = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def _show(value: Any, limit: int = 60) -> str:
    """A short repr of ``value`` for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


@dataclasses.dataclass(frozen=True)
class Screen:
    """The screen a reply is read against.

    ``width`` x ``height`` are the device's logical pixels, the space of every contract action
    (1080 x 2400 on PhoneWorld). ``image_width`` x ``image_height`` are the pixels of the
    screenshot the model was shown (PhoneWorld may render a smaller ``screenshot_size``); they
    default to the device size. ``elements`` is the screen's indexed element list, which
    coordinate formats need to turn an ``index`` target into a point.
    """

    width: int = SCREEN_WIDTH
    height: int = SCREEN_HEIGHT
    image_width: int | None = None
    image_height: int | None = None
    elements: tuple[UIElement, ...] = ()

    def __post_init__(self) -> None:
        for name in ("width", "height", "image_width", "image_height"):
            v = getattr(self, name)
            if v is None and name.startswith("image"):
                continue
            if not (isinstance(v, int) and not isinstance(v, bool) and v > 0):
                raise ValueError(f"Screen.{name} must be a positive int, got {_show(v)}")
        object.__setattr__(self, "elements", tuple(self.elements))

    @property
    def image_size(self) -> tuple[int, int]:
        """(width, height) of the image the model sees."""
        return (self.image_width or self.width, self.image_height or self.height)

    @classmethod
    def from_obs(cls, obs: Mapping[str, Any],
                 size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT)) -> Screen:
        """The screen of an observation: the device size ``size``, the image size from
        ``obs["screenshot"]`` (if there is one) and the elements from ``obs["a11y"]``."""
        shot = obs.get("screenshot")
        iw = ih = None
        if shot is not None:
            ih, iw = int(shot.shape[0]), int(shot.shape[1])
        xml = obs.get("a11y")
        elements = parse_ui_elements(xml, size) if xml else []
        return cls(size[0], size[1], iw, ih, tuple(elements))

    def centre(self, index: int) -> tuple[int, int]:
        """The device pixel an ``index`` target hits: its element's box centre, rounded down as
        PhoneWorld's input dispatch does."""
        if not 0 <= index < len(self.elements):
            raise ValueError(f"no element with index {index}; this screen has "
                             f"{len(self.elements)} elements (give Screen the a11y elements)")
        b = self.elements[index].bbox_pixels
        if b is None:
            raise ValueError(f"element {index} has no pixel bounds")
        return int(b.x_min + b.x_max) // 2, int(b.y_min + b.y_max) // 2

    def clamp(self, x: int, y: int) -> tuple[int, int]:
        """(x, y) moved onto the screen, ``0 <= x < width`` and ``0 <= y < height``."""
        return min(max(x, 0), self.width - 1), min(max(y, 0), self.height - 1)


# -- the coordinate arithmetic of the published models ----------------------------------------
def _round_by(number: float, factor: int) -> int:
    return round(number / factor) * factor


def smart_resize(height: int, width: int, *, factor: int = 28, min_pixels: int = 56 * 56,
                 max_pixels: int = 16384 * 28 * 28, max_ratio: float = 200) -> tuple[int, int]:
    """The size (height, width) Qwen2-VL-family processors resize an image to.

    The published rule (``qwen_vl_utils.smart_resize``, shared by Qwen2.5-VL, UI-TARS-1.5 and
    GUI-Owl): each side is rounded to the nearest multiple of ``factor`` (at least one
    ``factor``); if that holds more than ``max_pixels`` pixels, both sides are scaled by
    ``sqrt(h * w / max_pixels)`` and rounded *down* to a multiple of ``factor``; if fewer than
    ``min_pixels``, scaled up by ``sqrt(min_pixels / (h * w))`` and rounded *up*. Python's
    ``round`` (ties to even) is the rounding of the first step, as in the original.
    ``ValueError`` for an aspect ratio over ``max_ratio`` or a non-positive size.
    """
    if height <= 0 or width <= 0:
        raise ValueError(f"an image size must be positive, got {width}x{height}")
    if max(height, width) / min(height, width) > max_ratio:
        raise ValueError(f"aspect ratio of {width}x{height} is over {max_ratio}")
    h_bar = max(factor, _round_by(height, factor))
    w_bar = max(factor, _round_by(width, factor))
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = math.floor(height / beta / factor) * factor
        w_bar = math.floor(width / beta / factor) * factor
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


ROUNDINGS: dict[str, Callable[[float], int]] = {
    "int": int,  # truncation toward zero, as ``int(x / w * W)`` in the published parsers
    "round": round,  # Python's round: to nearest, ties to even
}


class CoordinateSpace:
    """How a model's coordinates relate to device pixels.

    Subclasses give :meth:`extent` (the size, in model units, the model's coordinates span for
    a screen) and :meth:`limit` (the largest value a model may write on each axis).
    ``to_device`` scales by ``device / extent`` and applies the format's own ``rounding``
    (``"int"``: truncation, or ``"round"``), then clamps onto the screen (a model may write
    the image's very edge, which scales to ``width``, one past the last pixel). ``to_model`` is
    its inverse: the model coordinate that ``to_device`` maps closest to the given pixel, so a
    device point survives format-then-parse as well as the space's resolution allows (exactly
    when the model space is at least as fine as the device's).
    """

    rounding: str = "int"

    def extent(self, screen: Screen) -> tuple[int, int]:
        raise NotImplementedError

    def limit(self, screen: Screen) -> tuple[int, int]:
        return self.extent(screen)

    def describe(self, screen: Screen) -> str:
        raise NotImplementedError

    def _axis_to_device(self, value: float, extent: int, device: int) -> int:
        d = ROUNDINGS[self.rounding](value / extent * device)
        return min(max(d, 0), device - 1)

    def to_device(self, mx: Any, my: Any, screen: Screen) -> tuple[int, int]:
        """Device pixel of model coordinates; ``ValueError`` for values that are not finite
        numbers or lie outside ``[0, limit]``."""
        ew, eh = self.extent(screen)
        lw, lh = self.limit(screen)
        for name, v, lim in (("x", mx, lw), ("y", my, lh)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError(f"coordinate {name} must be a number, got {_show(v)}")
            if (isinstance(v, float) and not math.isfinite(v)) or not 0 <= v <= lim:
                raise ValueError(f"coordinate {name}={_show(v)} is outside the model's space "
                                 f"0..{lim} ({self.describe(screen)})")
        return (self._axis_to_device(mx, ew, screen.width),
                self._axis_to_device(my, eh, screen.height))

    def _axis_to_model(self, value: int, extent: int, limit: int, device: int) -> int:
        guess = value * extent / device
        candidates = {min(max(c, 0), limit)
                      for c in range(math.floor(guess) - 1, math.ceil(guess) + 2)}
        return min(sorted(candidates),
                   key=lambda c: abs(self._axis_to_device(c, extent, device) - value))

    def to_model(self, x: int, y: int, screen: Screen) -> tuple[int, int]:
        """Model coordinates for device pixel (x, y)."""
        ew, eh = self.extent(screen)
        lw, lh = self.limit(screen)
        return (self._axis_to_model(x, ew, lw, screen.width),
                self._axis_to_model(y, eh, lh, screen.height))

    def tolerance(self, screen: Screen) -> int:
        """The most device pixels a point may move through format-then-parse: 0 when the
        model space is at least as fine as the screen, else about one model unit."""
        ew, eh = self.extent(screen)
        step = max(screen.width / ew, screen.height / eh)
        return 0 if step <= 1 else math.ceil(step)


@dataclasses.dataclass(frozen=True)
class ResizedPixels(CoordinateSpace):
    """Absolute pixels of the screenshot as the model's processor resized it
    (:func:`smart_resize` of the image size with ``factor``, ``min_pixels``, ``max_pixels``)."""

    factor: int = 28
    min_pixels: int = 56 * 56
    max_pixels: int = 16384 * 28 * 28
    rounding: str = "int"

    def extent(self, screen: Screen) -> tuple[int, int]:
        iw, ih = screen.image_size
        h, w = smart_resize(ih, iw, factor=self.factor, min_pixels=self.min_pixels,
                            max_pixels=self.max_pixels)
        return w, h

    def describe(self, screen: Screen) -> str:
        w, h = self.extent(screen)
        return f"pixels of the {w}x{h} image the model sees"


@dataclasses.dataclass(frozen=True)
class Relative(CoordinateSpace):
    """A fixed grid over the screen whatever its size: ``scale`` units per side (``999`` for
    Qwen3-VL, ``1000`` for UI-TARS-1.0)."""

    scale: int = 1000
    rounding: str = "round"

    def extent(self, screen: Screen) -> tuple[int, int]:
        return self.scale, self.scale

    def describe(self, screen: Screen) -> str:
        return f"a 0..{self.scale} grid over the screen"


# -- shared helpers for formats ------------------------------------------------------------------
def direction_of(dx: float, dy: float) -> str:
    """The direction of a finger moving by (dx, dy): the dominant axis (vertical on a tie);
    ``ValueError`` when it does not move. (The contract's ``swipe`` names a horizontal finger
    motion the other way: use :func:`swipe_of`.)"""
    if dx == 0 and dy == 0:
        raise ValueError("a swipe needs an end point different from its start")
    if abs(dx) > abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def swipe_of(dx: float, dy: float) -> str:
    """The contract ``swipe`` direction (AndroidWorld's) of a finger moving by (dx, dy)."""
    return swipe_finger(direction_of(dx, dy))


def swipe_end(x: int, y: int, direction: str, screen: Screen,
              fraction: float = 0.3) -> tuple[int, int]:
    """Where a finger starting at (x, y) ends when it swipes ``direction``: ``fraction`` of the
    screen along that axis, stopped at the screen's edge."""
    vx, vy = _VECTOR[direction]
    dist = round(fraction * (screen.width if vx else screen.height))
    return screen.clamp(x + vx * dist, y + vy * dist)


def scroll_anchor(screen: Screen) -> tuple[int, int]:
    """Where a scroll without a target starts: the centre of the largest scrollable element
    (the container PhoneWorld scrolls then), else the screen's centre."""
    best: tuple[float, tuple[int, int]] | None = None
    for i, e in enumerate(screen.elements):
        b = e.bbox_pixels
        if e.is_scrollable and b is not None and b.width > 0 and b.height > 0:
            area = b.width * b.height
            if best is None or area > best[0]:
                best = (area, screen.centre(i))
    return best[1] if best is not None else (screen.width // 2, screen.height // 2)


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    """Every JSON object that starts at a ``{`` of ``text``, in order (nested ones too)."""
    decoder = json.JSONDecoder()
    for m in re.finditer(r"\{", text):
        try:
            obj, _ = decoder.raw_decode(text, m.start())
        except (ValueError, RecursionError):
            continue
        if isinstance(obj, dict):
            yield obj


def require_text(text: Any) -> str:
    """The reply as a str cut to :data:`MAX_REPLY`; ``ValueError`` for a non-str."""
    if not isinstance(text, str):
        raise ValueError(f"a reply must be a str, got {type(text).__name__}")
    return text[:MAX_REPLY]


class ActionFormat:
    """One published agent's action format.

    * :meth:`parse` reads a model's reply into one contract :class:`Action`; any problem with
      the reply (no action, a missing field, an unknown action, a point off the model's image)
      raises ``ValueError`` saying what was wrong, never another exception.
    * :meth:`format` writes an action as the model would. An action the format says in several
      steps (an ``input_text`` at an element in a format whose ``type`` has no target, a
      ``double_tap`` in a format without one) raises ``ValueError``: :meth:`steps` splits it.
    * :meth:`steps` is an action as this format can say it: a list of actions, each of which
      ``format`` writes and ``parse`` reads back (points within :meth:`tolerance`).
    * :meth:`system_prompt` describes the format to the model.
    """

    name: ClassVar[str] = ""
    #: What the format's coordinates are, in one line (for docs and error messages).
    convention: ClassVar[str] = ""

    def parse(self, text: str, screen: Screen | None = None) -> Action:
        raise NotImplementedError

    def format(self, action: Action, screen: Screen | None = None) -> str:
        screen = screen or Screen()
        parts = self.steps(action, screen)
        if len(parts) != 1:
            raise ValueError(f"{self.name} says {action.to_json_str()} in {len(parts)} steps "
                             f"({', '.join(p.action_type for p in parts)}); format each of "
                             f"steps(action, screen)")
        return self.write(parts[0], screen)

    def write(self, action: Action, screen: Screen) -> str:
        """The text of one action that :meth:`steps` returned."""
        raise NotImplementedError

    def steps(self, action: Action, screen: Screen | None = None) -> list[Action]:
        raise NotImplementedError

    def system_prompt(self, screen: Screen | None = None) -> str:
        raise NotImplementedError

    def tolerance(self, screen: Screen | None = None) -> int:
        """The most device pixels a point moves through format-then-parse."""
        return 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class CoordinateFormat(ActionFormat):
    """A format that addresses the screen by points in a :class:`CoordinateSpace`.

    Its :meth:`steps` turn ``index`` targets into the element's centre and express what the
    format lacks through what it has (see each subclass).
    """

    space: CoordinateSpace

    def tolerance(self, screen: Screen | None = None) -> int:
        return self.space.tolerance(screen or Screen())

    def point(self, action: Action, screen: Screen) -> tuple[int, int] | None:
        """The device point an action aims at (an index resolved through ``screen``)."""
        if action.index is not None:
            return screen.centre(action.index)
        if action.x is not None and action.y is not None:
            return int(action.x), int(action.y)
        return None

    def to_model(self, x: int, y: int, screen: Screen) -> list[int]:
        mx, my = self.space.to_model(x, y, screen)
        return [mx, my]

    def to_device(self, point: Any, screen: Screen, what: str = "coordinate") -> tuple[int, int]:
        """Device pixel of a model point ``[x, y]``; ``ValueError`` if malformed."""
        if not isinstance(point, Sequence) or isinstance(point, str) or len(point) != 2:
            raise ValueError(f"{what} must be a list [x, y] of two numbers, got {_show(point)}")
        return self.space.to_device(point[0], point[1], screen)

    def swipe_vector(self, action: Action, screen: Screen) -> tuple[int, int, int, int]:
        """Start and end device points of a ``swipe`` (from its point, else the screen's
        centre) whose direction survives the trip through model coordinates."""
        assert action.direction is not None
        finger = swipe_finger(action.direction)  # AndroidWorld's swipe: "left" moves right
        start = self.point(action, screen) or (screen.width // 2, screen.height // 2)
        end = swipe_end(*start, finger, screen)
        m0, m1 = self.space.to_model(*start, screen), self.space.to_model(*end, screen)
        try:
            same = direction_of(m1[0] - m0[0], m1[1] - m0[1]) == finger
        except ValueError:
            same = False
        if not same:
            raise ValueError(f"a swipe {action.direction} from {start} has no room on a "
                             f"{screen.width}x{screen.height} screen")
        return (*start, *end)

    def as_swipes(self, action: Action, screen: Screen) -> Action:
        """A ``scroll`` as the swipe that does it: the finger moves opposite to the scroll
        direction (scroll down reveals content below: the finger moves up), from the target's
        centre or the main scrollable container's."""
        assert action.direction is not None
        x, y = self.point(action, screen) or scroll_anchor(screen)
        return Action("swipe", x=x, y=y, direction=swipe_finger(OPPOSITE[action.direction]))

    def input_steps(self, action: Action, screen: Screen) -> list[Action]:
        """``input_text`` for a format whose typing has no target: tap the field, then type.
        Typing appends, so clearing a field that holds text cannot be said."""
        assert action.text is not None
        out: list[Action] = []
        p = self.point(action, screen)
        if action.clear_text and action.index is not None:
            e = screen.elements[action.index]
            if e.text and e.text != e.hint_text:
                raise ValueError(f"{self.name} types by appending: it cannot clear the field "
                                 f"{action.index} that holds {_show(e.text)}")
        if p is not None:
            out.append(Action("click", x=p[0], y=p[1]))
        out.append(Action("input_text", text=action.text))
        return out


def check_direction(value: Any) -> str:
    """A direction name, case-insensitive; ``ValueError`` otherwise."""
    if isinstance(value, str) and value.strip().lower() in DIRECTIONS:
        return value.strip().lower()
    raise ValueError(f"direction must be one of {list(DIRECTIONS)}, got {_show(value)}")
