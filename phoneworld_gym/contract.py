"""The contract every backend shares: screen, observation, action and UI elements.

Coordinates are always logical device pixels of a 1080 x 2400 portrait screen. The observation
is a screenshot, the accessibility tree as ``uiautomator dump`` XML, and the goal text. Actions
use AndroidWorld's ``JSONAction`` vocabulary so that agents and datasets transfer.
"""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

SCREEN_WIDTH = 1080
SCREEN_HEIGHT = 2400
DENSITY = 2.625  # px per dp on a Pixel 6 class phone

#: AndroidWorld's action types, in the order used by the numeric action space.
ACTION_TYPES: tuple[str, ...] = (
    "click",
    "double_tap",
    "long_press",
    "input_text",
    "scroll",
    "swipe",
    "navigate_home",
    "navigate_back",
    "keyboard_enter",
    "open_app",
    "wait",
    "status",
    "answer",
)
DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")
GOAL_STATUSES: tuple[str, ...] = ("complete", "infeasible")
TARGETED = frozenset({"click", "double_tap", "long_press"})
OPTIONALLY_TARGETED = frozenset({"input_text", "scroll", "swipe"})
#: The largest element index the numeric action space can address.
MAX_ELEMENTS = 512
MAX_TEXT = 1024
MAX_XML = 1 << 20


class _CodePoints:
    """Stands in for a character set that holds every Unicode code point, so that Gymnasium's
    flattening and shared memory (async vector envs) encode a character as ``ord(char)``."""

    def __len__(self) -> int:
        return 0x110000

    def __getitem__(self, i: int) -> str:
        return chr(int(i))

    def __contains__(self, ch: object) -> bool:
        return isinstance(ch, str) and len(ch) == 1


class UnicodeText(spaces.Text):
    """A Gymnasium ``Text`` space that admits any Unicode string up to ``max_length``.

    Gymnasium's default charset is alphanumeric only; goals, typed text and XML are not.
    Sampling draws from a small mixed-script alphabet.
    """

    _SAMPLE_CHARSET = "abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.,-@éüñ中文😀"
    _ALL = _CodePoints()

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None):
        super().__init__(
            max_length=max_length, min_length=min_length, charset=self._SAMPLE_CHARSET, seed=seed
        )

    @property
    def character_set(self) -> Any:  # type: ignore[override]
        return self._ALL

    @property
    def character_list(self) -> Any:  # type: ignore[override]
        return self._ALL

    def character_index(self, char: str) -> np.int32:
        return np.int32(ord(char))

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random string of up to 32 characters from a mixed-script alphabet."""
        hi = min(self.max_length, 32)
        length = int(self.np_random.integers(self.min_length, max(self.min_length, hi) + 1))
        alphabet = list(self._SAMPLE_CHARSET)
        return "".join(alphabet[int(i)] for i in self.np_random.integers(len(alphabet),
                                                                          size=length))

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return (
            isinstance(other, UnicodeText)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
        )


def observation_space(
    screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT), obs_mode: str = "all"
) -> spaces.Dict:
    """The observation space. ``screenshot_size`` is (width, height); ``obs_mode`` is one of
    ``all`` (screenshot + a11y + goal), ``pixels`` (screenshot + goal), ``a11y`` (a11y + goal)."""
    if obs_mode not in OBS_MODES:
        raise ValueError(f"obs_mode must be one of {OBS_MODES}, got {obs_mode!r}")
    w, h = screenshot_size
    fields: dict[str, spaces.Space[Any]] = {}
    if obs_mode in ("all", "pixels"):
        fields["screenshot"] = spaces.Box(0, 255, shape=(h, w, 3), dtype=np.uint8)
    if obs_mode in ("all", "a11y"):
        fields["a11y"] = UnicodeText(MAX_XML)
    fields["goal"] = UnicodeText(MAX_TEXT)
    return spaces.Dict(fields)


OBS_MODES = ("all", "pixels", "a11y")


def action_space() -> spaces.Dict:
    """The numeric form of the action space (what ``action_space.sample()`` returns).

    ``target`` says which of the target fields count: 1 ``index``, 2 ``x``/``y``, 0 none (for
    ``click``, ``double_tap`` and ``long_press``, which need a target, 0 means ``index``), so
    every sample is a valid action.
    Fields that the action type does not use are ignored. ``Action.from_any`` decodes it.
    """
    return spaces.Dict(
        {
            "action_type": spaces.Discrete(len(ACTION_TYPES)),
            "target": spaces.Discrete(3),
            "index": spaces.Discrete(MAX_ELEMENTS),
            "x": spaces.Box(0, SCREEN_WIDTH - 1, shape=(), dtype=np.int64),
            "y": spaces.Box(0, SCREEN_HEIGHT - 1, shape=(), dtype=np.int64),
            "text": UnicodeText(MAX_TEXT),
            "direction": spaces.Discrete(len(DIRECTIONS)),
            "app_name": UnicodeText(128),
            "goal_status": spaces.Discrete(len(GOAL_STATUSES)),
            "clear_text": spaces.Discrete(2),
        }
    )


@dataclasses.dataclass(frozen=True)
class Action:
    """One agent action, in AndroidWorld's vocabulary.

    ``index`` addresses an element of the current screen's element list (see
    :func:`parse_ui_elements`); ``x``/``y`` address a point in device pixels. Never both.
    """

    action_type: str
    index: int | None = None
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: str | None = None
    app_name: str | None = None
    goal_status: str | None = None
    clear_text: bool | None = None

    def __post_init__(self) -> None:
        self.validate()

    # -- validation ---------------------------------------------------------------------
    def validate(self) -> None:
        """Raise ``ValueError`` naming the problem if this action is outside the space."""
        t = self.action_type
        if t not in ACTION_TYPES:
            raise ValueError(f"unknown action_type {t!r}; expected one of {list(ACTION_TYPES)}")
        has_index = self.index is not None
        has_point = self.x is not None or self.y is not None
        if has_index and has_point:
            raise ValueError(f"{t}: give either index or x, y, never both (got {self})")
        if has_point and (self.x is None or self.y is None):
            raise ValueError(f"{t}: x and y must be given together (got x={self.x}, y={self.y})")
        if has_index:
            if not isinstance(self.index, (int, np.integer)) or isinstance(self.index, bool):
                raise ValueError(f"{t}: index must be an int, got {self.index!r}")
            if not 0 <= int(self.index) < MAX_ELEMENTS:
                raise ValueError(f"{t}: index {self.index} outside [0, {MAX_ELEMENTS})")
        if has_point:
            for name, v, hi in (("x", self.x, SCREEN_WIDTH), ("y", self.y, SCREEN_HEIGHT)):
                if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
                    raise ValueError(f"{t}: {name} must be an int pixel, got {v!r}")
                if not 0 <= int(v) < hi:
                    raise ValueError(f"{t}: {name}={v} is off the screen [0, {hi})")
        if t in TARGETED and not (has_index or has_point):
            raise ValueError(f"{t} needs a target: index or x, y")
        if t not in TARGETED and t not in OPTIONALLY_TARGETED and (has_index or has_point):
            raise ValueError(f"{t} takes no target (got index={self.index}, x={self.x})")
        if t in ("input_text", "answer"):
            if not isinstance(self.text, str):
                raise ValueError(f"{t} needs text (a string), got {self.text!r}")
            if len(self.text) > MAX_TEXT:
                raise ValueError(f"{t}: text longer than {MAX_TEXT} characters")
        if t in ("scroll", "swipe") and self.direction not in DIRECTIONS:
            raise ValueError(f"{t} needs direction in {list(DIRECTIONS)}, got {self.direction!r}")
        if t == "open_app" and not (isinstance(self.app_name, str) and self.app_name.strip()):
            raise ValueError(f"open_app needs app_name, got {self.app_name!r}")
        if t == "status" and self.goal_status not in GOAL_STATUSES:
            raise ValueError(
                f"status needs goal_status in {list(GOAL_STATUSES)}, got {self.goal_status!r}"
            )

    # -- conversions --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """AndroidWorld ``JSONAction`` dict (only the fields that are set)."""
        out: dict[str, Any] = {"action_type": self.action_type}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name != "action_type" and v is not None:
                out[f.name] = int(v) if isinstance(v, np.integer) else v
        return out

    def to_json_str(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Action:
        """Build from an AndroidWorld ``JSONAction`` dict or its JSON text."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise ValueError(f"action is not valid JSON: {e}") from None
        if not isinstance(data, Mapping):
            raise ValueError(f"action must be a mapping, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        extra = set(data) - known - {"keycode"}
        if extra:
            raise ValueError(f"unknown action fields {sorted(extra)}; known: {sorted(known)}")
        if "action_type" not in data:
            raise ValueError("action has no action_type")
        kwargs = {k: v for k, v in data.items() if k in known and v is not None}
        for k in ("index", "x", "y"):
            if k in kwargs and isinstance(kwargs[k], float) and kwargs[k].is_integer():
                kwargs[k] = int(kwargs[k])
        return cls(**kwargs)

    @classmethod
    def from_space(cls, sample: Mapping[str, Any]) -> Action:
        """Decode the numeric form produced by :func:`action_space`."""
        try:
            t = ACTION_TYPES[int(sample["action_type"])]
        except (KeyError, IndexError, TypeError, ValueError):
            raise ValueError(f"bad action_type in {dict(sample)!r}") from None
        target = int(sample.get("target", 0))
        kw: dict[str, Any] = {"action_type": t}
        if t in TARGETED or t in OPTIONALLY_TARGETED:
            if target == 1:
                kw["index"] = int(sample["index"])
            elif target == 2:
                kw["x"], kw["y"] = int(sample["x"]), int(sample["y"])
            elif t in TARGETED:
                kw["index"] = int(sample["index"])  # target 0 on a tap means "by index"
        if t in ("input_text", "answer"):
            kw["text"] = str(sample.get("text", ""))
        if t == "input_text":
            kw["clear_text"] = bool(int(sample.get("clear_text", 0)))
        if t in ("scroll", "swipe"):
            kw["direction"] = DIRECTIONS[int(sample["direction"])]
        if t == "open_app":
            kw["app_name"] = str(sample.get("app_name", "")) or "?"
        if t == "status":
            kw["goal_status"] = GOAL_STATUSES[int(sample["goal_status"])]
        return cls(**kw)

    @classmethod
    def from_any(cls, action: Any) -> Action:
        """Accept an ``Action``, an AndroidWorld JSON dict or text, or a space sample."""
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return cls.from_json(action)
        if isinstance(action, Mapping):
            at = action.get("action_type")
            if isinstance(at, (int, np.integer)) and not isinstance(at, bool):
                return cls.from_space(action)
            return cls.from_json(action)
        raise ValueError(
            f"an action must be an Action, a dict or JSON text, got {type(action).__name__}"
        )


# -- UI elements ----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class BoundingBox:
    """A box; pixels for ``bbox_pixels``, fractions of the screen for ``bbox``."""

    x_min: float
    x_max: float
    y_min: float
    y_max: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x_min + self.x_max) / 2.0, (self.y_min + self.y_max) / 2.0

    @property
    def width(self) -> float:
        return self.x_max - self.x_min

    @property
    def height(self) -> float:
        return self.y_max - self.y_min


@dataclasses.dataclass(frozen=True)
class UIElement:
    """One element of the screen, with AndroidWorld's fields."""

    text: str | None = None
    content_description: str | None = None
    class_name: str | None = None
    bbox: BoundingBox | None = None
    bbox_pixels: BoundingBox | None = None
    hint_text: str | None = None
    is_checked: bool | None = None
    is_checkable: bool | None = None
    is_clickable: bool | None = None
    is_editable: bool | None = None
    is_enabled: bool | None = None
    is_focused: bool | None = None
    is_focusable: bool | None = None
    is_long_clickable: bool | None = None
    is_scrollable: bool | None = None
    is_selected: bool | None = None
    package_name: str | None = None
    resource_id: str | None = None

    def describe(self) -> str:
        """A short label: text, hint, description, or the resource name."""
        for v in (self.text, self.hint_text, self.content_description):
            if v:
                return v
        if self.resource_id:
            return self.resource_id.rsplit("/", 1)[-1]
        return self.class_name or ""


_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_EDITABLE = ("EditText", "AutoCompleteTextView")


def parse_bounds(text: str) -> tuple[int, int, int, int]:
    """``"[x1,y1][x2,y2]"`` -> (x1, y1, x2, y2); ``ValueError`` if malformed."""
    m = _BOUNDS.fullmatch(text.strip())
    if not m:
        raise ValueError(f"malformed bounds {text!r}; expected '[x1,y1][x2,y2]'")
    x1, y1, x2, y2 = (int(g) for g in m.groups())
    return x1, y1, x2, y2


def parse_ui_elements(
    xml: str, screen_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT)
) -> list[UIElement]:
    """Parse ``uiautomator dump`` XML into the indexed element list.

    Keeps AndroidWorld's filter: leaves, nodes with a content description, and scrollable
    nodes, in document order. Works the same on real phones and on PhoneWorld.
    """
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as e:
        raise ValueError(f"accessibility XML is malformed: {e}") from None
    w, h = screen_size
    out: list[UIElement] = []

    def flag(n: ET.Element, k: str) -> bool:
        return n.get(k) == "true"

    for node in root.iter("node"):
        children = node.findall("node")
        desc = node.get("content-desc") or None
        if children and not desc and not flag(node, "scrollable"):
            continue
        x1, y1, x2, y2 = parse_bounds(node.get("bounds", "[0,0][0,0]"))
        cls = node.get("class") or None
        out.append(
            UIElement(
                text=node.get("text") or None,
                content_description=desc,
                class_name=cls,
                bbox=BoundingBox(x1 / w, x2 / w, y1 / h, y2 / h),
                bbox_pixels=BoundingBox(x1, x2, y1, y2),
                hint_text=node.get("hint") or None,
                is_checked=flag(node, "checked"),
                is_checkable=flag(node, "checkable"),
                is_clickable=flag(node, "clickable"),
                is_editable=bool(cls and cls.endswith(_EDITABLE)),
                is_enabled=flag(node, "enabled"),
                is_focused=flag(node, "focused"),
                is_focusable=flag(node, "focusable"),
                is_long_clickable=flag(node, "long-clickable"),
                is_scrollable=flag(node, "scrollable"),
                is_selected=flag(node, "selected"),
                package_name=node.get("package") or None,
                resource_id=node.get("resource-id") or None,
            )
        )
    return out


@dataclasses.dataclass(frozen=True)
class AgentReport:
    """What the agent said when it ended the episode (for verifiers)."""

    status: str | None = None  # "complete", "infeasible" or None (ran out of steps)
    answer: str | None = None
