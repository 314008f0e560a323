"""The contract every backend shares: screen, observation, action and UI elements.

The screen's size is in :mod:`phoneworld_gym.display`, the Unicode text space in
:mod:`phoneworld_gym.text_space` and the UI elements' parsing in :mod:`phoneworld_gym.elements`;
this module holds the action (:class:`Action`, its checks and its numeric space), the
observation space and the clock's rates, and names the rest again, so that
``phoneworld_gym.contract`` stays the one place to import the contract from.

Coordinates are always logical device pixels of a 1080 x 2400 portrait screen. The observation
is a screenshot, the accessibility tree as ``uiautomator dump`` XML, and the goal text. Actions
use AndroidWorld's ``JSONAction`` vocabulary so that agents and datasets transfer.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import json
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

# the contract's parts, each in its own module, and re-exported here as the contract
from phoneworld_gym.display import DENSITY, SCREEN_HEIGHT, SCREEN_WIDTH  # noqa: F401
from phoneworld_gym.elements import (  # noqa: F401
    ELEMENT_MODES,
    BoundingBox,
    UIElement,
    parse_bounds,
    parse_ui_elements,
)
from phoneworld_gym.text_space import (  # noqa: F401
    SURROGATE,
    SharedTexts,
    UnicodeText,
    is_valid_unicode,
    short_repr,
)

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
#: Every ``action_type`` AndroidWorld's ``JSONAction`` accepts: :data:`ACTION_TYPES` and
#: ``unknown`` (what its agents emit when they cannot say; executing it does nothing). The
#: numeric action space encodes :data:`ACTION_TYPES` only.
JSON_ACTION_TYPES: tuple[str, ...] = (*ACTION_TYPES, "unknown")
DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")
#: The way the finger moves for each ``swipe`` direction, as AndroidWorld's actuation drives
#: it: ``up``/``down`` move the finger up/down (screen edge to screen edge), but ``left`` moves
#: it from the left edge to the right one and ``right`` from the right edge to the left one
#: (the horizontal ones name the way the view turns, as ``scroll left`` does). The mapping is
#: its own inverse: it also turns a finger's direction into the ``swipe`` direction.
SWIPE_FINGER: dict[str, str] = {"up": "up", "down": "down", "left": "right", "right": "left"}


def swipe_finger(direction: str) -> str:
    """The direction the finger moves for a ``swipe`` of ``direction`` (AndroidWorld's
    meaning), or the ``swipe`` direction of a finger moving ``direction``."""
    try:
        return SWIPE_FINGER[direction]
    except KeyError:
        raise ValueError(f"swipe direction must be one of {list(DIRECTIONS)}, "
                         f"got {direction!r}") from None


GOAL_STATUSES: tuple[str, ...] = ("complete", "infeasible")
TARGETED = frozenset({"click", "double_tap", "long_press"})
OPTIONALLY_TARGETED = frozenset({"input_text", "scroll", "swipe"})
#: The largest element index the numeric action space can address.
MAX_ELEMENTS = 512
#: The most characters of ``text`` an action may carry.
MAX_TEXT = 1024
#: The most characters of an ``open_app`` action's ``app_name``.
MAX_APP_NAME = 128
MAX_XML = 1 << 20

class IntScalar(spaces.Box):
    """A scalar ``int64`` Box over ``[low, high]`` that admits integers only.

    ``Box.contains`` casts what it is given, so ``5.5``, ``"5"`` and ``True`` pass it; this
    takes what ``Discrete.contains`` takes: a Python int, or a NumPy integer scalar or 0-d
    array that casts safely to int64. Samples are 0-d int64 arrays, as for a ``Box``.
    """

    def __init__(self, low: int, high: int, *, seed: Any = None):
        super().__init__(low, high, shape=(), dtype=np.int64, seed=seed)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is an integer (as ``Discrete`` counts them) in ``[low, high]``."""
        if isinstance(x, int):
            value = int(x)
        elif (isinstance(x, (np.generic, np.ndarray)) and x.shape == ()
              and np.issubdtype(x.dtype, np.integer) and np.can_cast(x.dtype, np.int64)):
            value = int(x)
        else:
            return False
        return int(self.low) <= value <= int(self.high)


class ScreenshotBox(spaces.Box):
    """``Box(0, 255, (h, w, 3), uint8)`` whose bounds take no memory.

    Gymnasium's ``Box`` keeps ``low``, ``high`` and two boolean masks as full arrays: four
    copies of the screen size, 30 MiB for a 1080x2400 screenshot, allocated by every env
    instance. Here they are read-only broadcast views of one value, so the space costs a few
    hundred bytes and behaves as the ``Box`` it equals (``contains``, ``sample``, equality,
    pickling)."""

    def __init__(self, shape: tuple[int, int, int], *, seed: Any = None):
        super().__init__(0, 255, shape=(1,), dtype=np.uint8, seed=seed)
        self._set_shape(tuple(int(n) for n in shape))

    def _set_shape(self, shape: tuple[int, ...]) -> None:
        self._shape = shape
        self.low = np.broadcast_to(np.uint8(0), shape)
        self.high = np.broadcast_to(np.uint8(255), shape)
        self.bounded_below = np.broadcast_to(np.True_, shape)
        self.bounded_above = np.broadcast_to(np.True_, shape)

    def contains(self, x: Any) -> bool:
        """An ``uint8`` array of this shape (every ``uint8`` value is in bounds)."""
        if not isinstance(x, np.ndarray):
            return False
        return bool(x.shape == self.shape and x.dtype == np.uint8)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for k in ("low", "high", "bounded_below", "bounded_above"):
            state.pop(k, None)  # rebuilt on unpickling: never ship 30 MiB of bounds
        return state

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        fields = dict(state)
        self.__dict__.update(fields)
        self._set_shape(tuple(fields["_shape"]))


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
        fields["screenshot"] = ScreenshotBox((h, w, 3))
    if obs_mode in ("all", "a11y"):
        fields["a11y"] = UnicodeText(MAX_XML)
    fields["goal"] = UnicodeText(MAX_TEXT)
    return spaces.Dict(fields)


OBS_MODES = ("all", "pixels", "a11y")


class PhoneActionSpace(spaces.Dict):
    """The action space: a ``Dict`` whose ``sample()`` is the numeric form (see
    :func:`action_space`), and whose ``contains(x)`` is true exactly when ``PhoneEnv.step``
    accepts ``x`` (:meth:`Action.from_any` reads it without a ``ValueError``): an
    :class:`Action`, an AndroidWorld ``JSONAction`` dict or its JSON text, or the numeric form.

    Batched (``gymnasium.vector.utils.batch_space``, which every vector env calls) it is an
    :class:`ActionBatch`, so a vector env takes one action per sub-env in any of those forms.
    Everything else (flattening, shared memory, equality with the plain ``Dict``) is the
    ``Dict``'s.
    """

    def __init__(self, seed: Any = None):
        super().__init__(
            {
                "action_type": spaces.Discrete(len(ACTION_TYPES)),
                "target": spaces.Discrete(3),
                "index": spaces.Discrete(MAX_ELEMENTS),
                "x": IntScalar(0, SCREEN_WIDTH - 1),
                "y": IntScalar(0, SCREEN_HEIGHT - 1),
                "text": UnicodeText(MAX_TEXT),
                "direction": spaces.Discrete(len(DIRECTIONS)),
                "app_name": UnicodeText(MAX_APP_NAME),
                "goal_status": spaces.Discrete(len(GOAL_STATUSES)),
                "clear_text": spaces.Discrete(2),
            },
            seed=seed,
        )

    def contains(self, x: Any) -> bool:
        """Whether ``step`` accepts ``x``: an ``Action``, JSON dict or text, or numeric form."""
        try:
            Action.from_any(x)
        except Exception:  # from_any raises ValueError only; anything else is a "no" too
            return False
        return True

    def __repr__(self) -> str:
        return "PhoneActionSpace(" + super().__repr__() + ")"


class ActionBatch(spaces.Dict):
    """The batched :class:`PhoneActionSpace` of a vector env with ``n`` sub-envs.

    ``sample()`` gives the numeric form batched as a ``Dict`` batches it (a dict of arrays,
    one row per sub-env). A batch of actions is either that (any mapping), or a sequence of
    ``n`` actions (list, tuple or 1-d object array), one per sub-env, each in any form
    ``step`` accepts: ``[Action("wait"), '{"action_type": "navigate_home"}',
    {"action_type": "open_app", "app_name": "Contacts"}]``. ``contains`` checks every action
    as the sub-env's ``step`` would.
    """

    def __init__(self, single: PhoneActionSpace, n: int, seed: Any = None):
        from gymnasium.vector.utils import batch_space

        super().__init__({k: batch_space(s, n) for k, s in single.spaces.items()}, seed=seed)
        self.single = single
        self.n = int(n)

    def split(self, actions: Any) -> list[Any]:
        """The ``n`` per-sub-env actions of the batch ``actions`` (not checked one by one:
        each sub-env's ``step`` does that). ``ValueError`` unless ``actions`` is a mapping of
        batched numeric fields or a sequence of ``n`` actions."""
        from gymnasium.vector.utils import iterate

        if isinstance(actions, Mapping):
            return list(iterate.dispatch(spaces.Dict)(self, actions))
        if isinstance(actions, np.ndarray) and actions.ndim != 1:
            raise ValueError(f"a batch of actions is a 1-d array of {self.n} actions, got shape "
                             f"{actions.shape}")
        if isinstance(actions, (str, bytes, Action)) or not isinstance(
                actions, (collections.abc.Sequence, np.ndarray)):
            raise ValueError(f"a batch of actions is a sequence of {self.n} actions (one per "
                             f"sub-env) or a batched numeric dict, got {short_repr(actions)}")
        items = list(actions)
        if len(items) != self.n:
            raise ValueError(f"a batch of actions has one per sub-env: {self.n}, got "
                             f"{len(items)}")
        return items

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a batch whose every action its sub-env's ``step`` accepts."""
        try:
            items = self.split(x)
        except Exception:
            return False
        return all(self.single.contains(a) for a in items)

    def __repr__(self) -> str:
        return f"ActionBatch({self.n}, " + super().__repr__() + ")"


def _register_batching() -> None:
    """Teach Gymnasium's vector utilities the action space: batching gives an
    :class:`ActionBatch`, iterating one splits it as :meth:`ActionBatch.split` does."""
    from gymnasium.vector.utils import batch_space, iterate

    def _batch(space: PhoneActionSpace, n: int = 1) -> ActionBatch:
        return ActionBatch(space, n)

    def _iterate(space: ActionBatch, items: Any) -> Any:
        return iter(space.split(items))

    batch_space.register(PhoneActionSpace, _batch)
    iterate.register(ActionBatch, _iterate)


_register_batching()


def action_space() -> PhoneActionSpace:
    """The action space (a :class:`PhoneActionSpace`, a ``gymnasium.spaces.Dict``).

    ``sample()`` returns the numeric form: ``target`` says which of the target fields count:
    1 ``index``, 2 ``x``/``y``, 0 none (for ``click``, ``double_tap`` and ``long_press``,
    which need a target, 0 means ``index``), so every sample is a valid action. Fields that
    the action type does not use are ignored, but like every field they must be there and in
    their subspace. ``contains(x)`` is true exactly when ``PhoneEnv.step`` accepts ``x`` in
    any of its forms (an ``Action``, AndroidWorld JSON as a dict or text, the numeric form);
    the plain ``Dict`` check of the numeric form alone is ``spaces.Dict.contains(space, x)``.
    """
    return PhoneActionSpace()


#: One instance for checking numeric actions (never sampled).
_NUMERIC = action_space()


def _expected(space: spaces.Space[Any]) -> str:
    """What a numeric field's subspace admits, in words."""
    if isinstance(space, spaces.Discrete):
        return f"an int in [0, {int(space.n)})"
    if isinstance(space, IntScalar):
        return f"an int in [{int(space.low)}, {int(space.high)}]"
    if isinstance(space, UnicodeText):
        return f"a str of at most {space.max_length} characters of valid Unicode"
    return repr(space)


def _in_space(space: spaces.Space[Any], value: Any) -> bool:
    """``space.contains(value)``, with anything it raises counting as 'no'."""
    try:
        return bool(space.contains(value))
    except Exception:
        return False


def _check_int(t: str, name: str, value: Any, hi: int, unit: str) -> None:
    """``value`` as an int in ``[0, hi)``; ``ValueError`` naming ``name`` otherwise."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{t}: {name} must be an int{unit}, got {short_repr(value)}")
    if not 0 <= int(value) < hi:
        if name == "index":
            raise ValueError(f"{t}: index {short_repr(value)} outside [0, {hi})")
        raise ValueError(f"{t}: {name}={short_repr(value)} is off the screen [0, {hi})")


def _json_int(t: str, name: str, value: Any) -> Any:
    """``int(value)`` for an ``index``/``x``/``y`` read from JSON, as AndroidWorld converts
    them (a numeric str, a finite float truncated); anything else is left for
    :meth:`Action.validate` to refuse with its own message."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, float, np.floating)):
        return value
    try:
        return int(value)
    except (ValueError, OverflowError):
        raise ValueError(f"{t}: {name} must be an int (or a str or float int() takes), got "
                         f"{short_repr(value)}") from None


def _check_text(t: str, name: str, value: Any, limit: int) -> None:
    """``value`` as a str of valid Unicode of at most ``limit`` characters, else ValueError."""
    if not isinstance(value, str):
        raise ValueError(f"{t}: {name} must be a str, got {short_repr(value)}")
    if len(value) > limit:
        raise ValueError(f"{t}: {name} longer than {limit} characters ({len(value)}): "
                         f"{short_repr(value)}")
    bad = None if value.isascii() else SURROGATE.search(value)
    if bad is not None:
        raise ValueError(f"{t}: {name} is not valid Unicode (a lone surrogate, "
                         f"U+{ord(bad.group()):04X}, at {bad.start()}): {short_repr(value)}")


def _check_choice(t: str, name: str, value: Any, choices: tuple[str, ...]) -> None:
    """``ValueError`` unless ``value`` is one of the strings ``choices``."""
    if value is None:
        raise ValueError(f"{t} needs {name} in {list(choices)}, got None")
    if not (isinstance(value, str) and value in choices):
        raise ValueError(f"{t}: {name} must be one of {list(choices)}, got {short_repr(value)}")


@dataclasses.dataclass(frozen=True)
class Action:
    """One agent action, in AndroidWorld's vocabulary.

    ``index`` addresses an element of the current screen's element list (see
    :func:`parse_ui_elements`); ``x``/``y`` address a point in device pixels. Never both.
    Construction validates (see :meth:`validate`): a malformed action raises ``ValueError``.
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
        """Raise ``ValueError`` naming the field and its (shortened) value if this action is
        outside the space; no other exception escapes.

        * ``action_type`` is one of :data:`JSON_ACTION_TYPES` (``unknown`` does nothing).
        * ``index`` is an int (not a bool) in ``[0, MAX_ELEMENTS)``.
        * ``x``/``y`` are ints on the screen, ``0 <= x < SCREEN_WIDTH`` and
          ``0 <= y < SCREEN_HEIGHT``, as the numeric space's bounds are: off-screen, negative,
          non-integral and non-finite coordinates (``inf``, ``nan``) are rejected.
        * ``text`` is a ``str`` of at most :data:`MAX_TEXT` characters and ``app_name`` one of
          at most :data:`MAX_APP_NAME`; both must be valid Unicode: a lone surrogate such as
          ``"\\ud800"`` raises ``ValueError`` (it could not be encoded or hashed).
        * ``direction`` and ``goal_status`` are among :data:`DIRECTIONS` and
          :data:`GOAL_STATUSES`; ``clear_text`` is a real bool (not ``"false"``, not ``0``).

        A field the action type does not use may be given, but must be well formed too.
        """
        t = self.action_type
        if not (isinstance(t, str) and t in JSON_ACTION_TYPES):
            raise ValueError(
                f"unknown action_type {short_repr(t)}; expected one of {list(JSON_ACTION_TYPES)}")
        has_index = self.index is not None
        has_point = self.x is not None or self.y is not None
        if has_index and has_point:
            raise ValueError(f"{t}: give either index or x, y, never both (got index="
                             f"{short_repr(self.index)}, x={short_repr(self.x)}, "
                             f"y={short_repr(self.y)})")
        if has_point and (self.x is None or self.y is None):
            raise ValueError(f"{t}: x and y must be given together "
                             f"(got x={short_repr(self.x)}, y={short_repr(self.y)})")
        if has_index:
            _check_int(t, "index", self.index, MAX_ELEMENTS, "")
        if has_point:
            _check_int(t, "x", self.x, SCREEN_WIDTH, " pixel")
            _check_int(t, "y", self.y, SCREEN_HEIGHT, " pixel")
        if t in TARGETED and not (has_index or has_point):
            raise ValueError(f"{t} needs a target: index or x, y")
        if (t not in TARGETED and t not in OPTIONALLY_TARGETED and t != "unknown"
                and (has_index or has_point)):
            raise ValueError(f"{t} takes no target (got index={short_repr(self.index)}, "
                             f"x={short_repr(self.x)}, y={short_repr(self.y)})")
        if self.text is not None:
            _check_text(t, "text", self.text, MAX_TEXT)
        elif t in ("input_text", "answer"):
            raise ValueError(f"{t} needs text (a str), got None")
        if self.app_name is not None:
            _check_text(t, "app_name", self.app_name, MAX_APP_NAME)
        if t == "open_app" and not (self.app_name and self.app_name.strip()):
            raise ValueError(f"open_app needs app_name (a non-blank str), "
                             f"got {short_repr(self.app_name)}")
        if t in ("scroll", "swipe") or self.direction is not None:
            _check_choice(t, "direction", self.direction, DIRECTIONS)
        if t == "status" or self.goal_status is not None:
            _check_choice(t, "goal_status", self.goal_status, GOAL_STATUSES)
        if self.clear_text is not None and not isinstance(self.clear_text, (bool, np.bool_)):
            raise ValueError(f"{t}: clear_text must be a bool, got {short_repr(self.clear_text)}")

    # -- conversions --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """AndroidWorld ``JSONAction`` dict (only the fields that are set)."""
        out: dict[str, Any] = {"action_type": self.action_type}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name != "action_type" and v is not None:
                out[f.name] = v.item() if isinstance(v, (np.integer, np.bool_)) else v
        return out

    def to_json_str(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Action:
        """Build from an AndroidWorld ``JSONAction`` dict or its JSON text.

        Values are read as AndroidWorld reads them: fields set to ``None`` count as absent;
        ``index`` goes through ``int()`` (``"3"`` and ``3.7`` are 3, as ``JSONAction`` makes
        them) and so do ``x``/``y`` (a float is truncated, as its actuation does); a number
        as ``text`` becomes ``str(text)`` (other non-str text is refused, where AndroidWorld
        would ``str()`` a list or bytes); an empty ``direction`` counts as absent;
        ``keycode`` must start with ``KEYCODE_`` and is otherwise ignored (no action type
        uses it). ``ValueError`` for text that is not JSON (malformed or nested too deeply),
        JSON that is not an object, unknown fields, no ``action_type``, or a field that
        :meth:`validate` refuses.
        """
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except RecursionError:
                raise ValueError("action is not valid JSON: nested too deeply") from None
            except ValueError as e:  # JSONDecodeError, or an int too long to convert
                raise ValueError(f"action is not valid JSON: {e}") from None
        if not isinstance(data, Mapping):
            raise ValueError(
                f"action must be a mapping (a JSON object), got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        extra = [k for k in data if k not in known and k != "keycode"]
        if extra:
            raise ValueError(f"unknown action fields {sorted(map(short_repr, extra))}; "
                             f"known: {sorted(known)}")
        if data.get("action_type") is None:
            raise ValueError("action has no action_type (missing or None)")
        keycode = data.get("keycode")
        if keycode is not None and not (isinstance(keycode, str)
                                        and keycode.startswith("KEYCODE_")):
            raise ValueError(f"Invalid keycode: {short_repr(keycode)} (must start with KEYCODE_)")
        kwargs = {k: v for k, v in data.items() if k in known and v is not None}
        for k in ("index", "x", "y"):
            if k in kwargs:
                kwargs[k] = _json_int(str(data.get("action_type")), k, kwargs[k])
        if isinstance(kwargs.get("text"), (int, float)):  # JSONAction's str(text); a model
            kwargs["text"] = str(kwargs["text"])          # answering 7 means "7"
        if kwargs.get("direction") == "":
            del kwargs["direction"]
        return cls(**kwargs)

    @classmethod
    def from_space(cls, sample: Mapping[str, Any]) -> Action:
        """Decode the numeric form produced by :func:`action_space`.

        The numeric form is exactly the space: every key of :func:`action_space` must be there
        and in its subspace, as the plain ``spaces.Dict.contains`` checks (ints are not
        wrapped, so ``-1`` is refused, as are floats, strings for ints, and lone surrogates),
        so a dict decodes exactly when that ``Dict`` contains it. (The JSON form takes only
        the fields an action uses.) A blank ``app_name`` is in the space but names nothing:
        it decodes to ``open_app`` of ``"?"``, an app that does not exist, so the step is a
        no-op that reports ``action_error``. Otherwise ``ValueError`` names the field and value.
        """
        if not isinstance(sample, Mapping):
            raise ValueError(f"a numeric action must be a mapping, got {type(sample).__name__}")
        fields = _NUMERIC.spaces
        extra = [k for k in sample if k not in fields]
        if extra:
            raise ValueError(f"unknown numeric action fields {sorted(map(short_repr, extra))}; "
                             f"known: {list(fields)}")
        for key, value in sample.items():
            if not _in_space(fields[key], value):
                raise ValueError(f"numeric action field {key}={short_repr(value)} is outside the "
                                 f"action space: expected {_expected(fields[key])}")
        missing = [k for k in fields if k not in sample]
        if missing:
            raise ValueError(f"numeric action lacks the fields {missing}: the numeric form has "
                             "every key of action_space() (the JSON form, e.g. "
                             "{'action_type': 'wait'}, takes only the fields an action uses)")
        t = ACTION_TYPES[int(sample["action_type"])]
        target = int(sample["target"])
        kw: dict[str, Any] = {"action_type": t}
        if t in TARGETED or t in OPTIONALLY_TARGETED:
            if target == 1 or (target == 0 and t in TARGETED):  # 0 on a tap means "by index"
                kw["index"] = int(sample["index"])
            elif target == 2:
                kw["x"], kw["y"] = int(sample["x"]), int(sample["y"])
        if t in ("input_text", "answer"):
            kw["text"] = sample["text"]
        if t == "input_text":
            kw["clear_text"] = bool(int(sample["clear_text"]))
        if t in ("scroll", "swipe"):
            kw["direction"] = DIRECTIONS[int(sample["direction"])]
        if t == "open_app":
            name = sample["app_name"]
            kw["app_name"] = name if name.strip() else "?"
        if t == "status":
            kw["goal_status"] = GOAL_STATUSES[int(sample["goal_status"])]
        return cls(**kw)

    @classmethod
    def from_any(cls, action: Any) -> Action:
        """Accept an ``Action``, an AndroidWorld JSON dict or text, or a space sample.

        A mapping whose ``action_type`` is a str (or missing, or None) is read as JSON
        (:meth:`from_json`), any other as the numeric form (:meth:`from_space`). Whatever is
        wrong with it, the only exception is a ``ValueError`` naming the field.
        """
        if isinstance(action, Action):
            # checked again: a frozen Action can still be changed behind its back
            # (object.__setattr__, an edited pickle); one that left the space is refused
            action.validate()
            return action
        if isinstance(action, str):
            return cls.from_json(action)
        if isinstance(action, Mapping):
            at = action.get("action_type")
            if at is None or isinstance(at, str):
                return cls.from_json(action)
            return cls.from_space(action)
        raise ValueError(
            f"an action must be an Action, a dict or JSON text, got {type(action).__name__}"
        )


@dataclasses.dataclass(frozen=True)
class AgentReport:
    """What the agent said when it ended the episode (for verifiers)."""

    status: str | None = None  # "complete", "infeasible" or None (ran out of steps)
    answer: str | None = None


# -- time ----------------------------------------------------------------------------------
#: The phone's clock runs with the actions, not with the host's time: each action moves it on
#: by the seconds below, so a seed and a list of actions give the same clock (and the same
#: frames) on every run. A tap, press, scroll, swipe, key or app switch takes
#: :data:`ACTION_SECONDS` (2 s, about what a person or an agent on a real phone spends per
#: step); ``wait`` takes :data:`WAIT_SECONDS` (5 s); typing adds a second per
#: :data:`CHARS_PER_SECOND` characters; ``status``, ``answer`` and ``unknown`` do not touch
#: the phone and take no time, and neither does an action the phone refuses (an error
#: sentence: nothing changes then, the clock included). The virtual adb phone moves it by the
#: same rates for its ``input`` commands and by N seconds for ``sleep N``; a real phone keeps
#: its own time.
ACTION_SECONDS = 2
WAIT_SECONDS = 5
CHARS_PER_SECOND = 5
_NO_TIME = frozenset({"status", "answer", "unknown"})


def action_seconds(action_type: str, text: str | None = None) -> int:
    """The seconds one action of ``action_type`` (typing ``text``) moves the clock on."""
    if action_type in _NO_TIME:
        return 0
    if action_type == "wait":
        return WAIT_SECONDS
    return ACTION_SECONDS + (len(text) // CHARS_PER_SECOND if text else 0)
