"""The contract every backend shares: screen, observation, action and UI elements.

Coordinates are always logical device pixels of a 1080 x 2400 portrait screen. The observation
is a screenshot, the accessibility tree as ``uiautomator dump`` XML, and the goal text. Actions
use AndroidWorld's ``JSONAction`` vocabulary so that agents and datasets transfer.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import multiprocessing as mp
import re
import reprlib
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any, overload

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

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

_SURROGATE = re.compile("[\ud800-\udfff]")


def is_valid_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode: it holds no lone surrogate (U+D800..U+DFFF), so it
    encodes to UTF-8 (the world's state hash and JSON depend on that)."""
    return text.isascii() or _SURROGATE.search(text) is None


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 60
_REPR.maxlevel = 3


def _show(value: Any) -> str:
    """A short ``repr`` of ``value`` for error messages: long, big or deep values are cut."""
    try:
        return _REPR.repr(value)
    except Exception:  # a failing __repr__, or an int too long to print, must not hide the error
        return f"<{type(value).__name__}>"


class _CodePoints:
    """Stands in for a character set that holds every Unicode code point, so that Gymnasium's
    flattening encodes a character as ``ord(char)`` (padding is ``0x110000``)."""

    def __len__(self) -> int:
        return 0x110000

    def __getitem__(self, i: int) -> str:
        return chr(int(i))

    def __contains__(self, ch: object) -> bool:
        return isinstance(ch, str) and len(ch) == 1


class UnicodeText(spaces.Text):
    """A Gymnasium ``Text`` space that admits any valid Unicode string up to ``max_length``.

    Gymnasium's default charset is alphanumeric only; goals, typed text and XML are not.
    "Valid" excludes only lone surrogates (``"\\ud800"``), which cannot be encoded.
    Sampling draws from a small mixed-script alphabet. In an async vector env the strings
    travel through shared memory as code points (see :class:`SharedTexts`).
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
        """A ``str`` of ``min_length`` to ``max_length`` characters without lone surrogates."""
        return (isinstance(x, str) and self.min_length <= len(x) <= self.max_length
                and is_valid_unicode(x))

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return (
            isinstance(other, UnicodeText)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
        )


# -- UnicodeText through shared memory (async vector envs) -----------------------------------
# Gymnasium's AsyncVectorEnv (shared_memory=True, the default) calls read_from_shared_memory
# once, in __init__, and after every reset and step hands out (a deep copy of) that same object:
# it relies on the reader returning views (np.frombuffer) that see what the workers write later.
# Its reader for Text instead decodes the buffer into immutable str objects there and then, when
# the buffer is still all zeros, so every observation was a max_length string of "\x00" (zero
# is chr(0) in UnicodeText's all-code-point charset). The handlers below give UnicodeText a live
# view instead, and encode and decode whole strings at once rather than a character at a time.
# Each row is the string's length, then its code points: reading and writing a string costs its
# own length, not the space's max_length (a million code points for the accessibility XML).


def _decode_codes(row: np.ndarray) -> str:
    """The string in one shared-memory row: ``row[0]`` code points from ``row[1]`` on."""
    n = int(row[0])
    if not 0 <= n < row.shape[0]:
        raise ValueError(f"a shared-memory text row claims {n} code points; it holds at most "
                         f"{row.shape[0] - 1}")
    return row[1:1 + n].astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


class SharedTexts(collections.abc.Sequence[str]):
    """The strings of one :class:`UnicodeText` field across an async vector env's sub-envs, read
    live from the shared memory their workers write (what ``read_from_shared_memory`` returns).

    Like the NumPy view Gymnasium keeps for a ``Box``, each item is decoded when it is read, so
    it is always the latest observation. ``copy.copy``, ``copy.deepcopy`` and pickling give a
    plain tuple of str, which is what ``AsyncVectorEnv(copy=True)`` (the default) returns, as
    ``SyncVectorEnv`` does; with ``copy=False`` the env returns the live view itself. It
    compares equal to the tuple of its items.
    """

    __slots__ = ("_codes",)

    def __init__(self, codes: np.ndarray) -> None:
        self._codes = codes  # (num_envs, 1 + max_length) int32: the length, the code points

    def __len__(self) -> int:
        return int(self._codes.shape[0])

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[str, ...]: ...

    def __getitem__(self, i: int | slice) -> str | tuple[str, ...]:
        if isinstance(i, slice):
            return tuple(_decode_codes(row) for row in self._codes[i])
        return _decode_codes(self._codes[i])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, SharedTexts)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"

    def __copy__(self) -> tuple[str, ...]:
        return tuple(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (tuple(self),))


@create_shared_memory.register(UnicodeText)
def _create_unicode_shared_memory(space: UnicodeText, n: int = 1, ctx: ModuleType = mp) -> Any:
    """``n`` rows of a length and ``max_length`` int32 code points (zeroed: empty strings)."""
    return ctx.Array(np.dtype(np.int32).char, n * (space.max_length + 1))  # type: ignore[attr-defined]


@read_from_shared_memory.register(UnicodeText)
def _read_unicode_from_shared_memory(space: UnicodeText, shared_memory: Any,
                                     n: int = 1) -> SharedTexts:
    """A live view of the ``n`` strings (decoded on access, not now)."""
    codes = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    return SharedTexts(codes.reshape(n, space.max_length + 1))


@write_to_shared_memory.register(UnicodeText)
def _write_unicode_to_shared_memory(space: UnicodeText, index: int, value: str,
                                    shared_memory: Any) -> None:
    """Write ``value`` into row ``index``: its length, then its code points."""
    if not isinstance(value, str) or len(value) > space.max_length:
        raise ValueError(f"{_show(value)} is not in {space}")
    size = space.max_length + 1
    row = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * size:(index + 1) * size]
    codes = np.frombuffer(value.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    row[1:1 + codes.size] = codes
    row[0] = codes.size  # last: a reader never sees a length longer than what was written


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
                             f"sub-env) or a batched numeric dict, got {_show(actions)}")
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
        raise ValueError(f"{t}: {name} must be an int{unit}, got {_show(value)}")
    if not 0 <= int(value) < hi:
        if name == "index":
            raise ValueError(f"{t}: index {_show(value)} outside [0, {hi})")
        raise ValueError(f"{t}: {name}={_show(value)} is off the screen [0, {hi})")


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
                         f"{_show(value)}") from None


def _check_text(t: str, name: str, value: Any, limit: int) -> None:
    """``value`` as a str of valid Unicode of at most ``limit`` characters, else ValueError."""
    if not isinstance(value, str):
        raise ValueError(f"{t}: {name} must be a str, got {_show(value)}")
    if len(value) > limit:
        raise ValueError(f"{t}: {name} longer than {limit} characters ({len(value)}): "
                         f"{_show(value)}")
    bad = None if value.isascii() else _SURROGATE.search(value)
    if bad is not None:
        raise ValueError(f"{t}: {name} is not valid Unicode (a lone surrogate, "
                         f"U+{ord(bad.group()):04X}, at {bad.start()}): {_show(value)}")


def _check_choice(t: str, name: str, value: Any, choices: tuple[str, ...]) -> None:
    """``ValueError`` unless ``value`` is one of the strings ``choices``."""
    if value is None:
        raise ValueError(f"{t} needs {name} in {list(choices)}, got None")
    if not (isinstance(value, str) and value in choices):
        raise ValueError(f"{t}: {name} must be one of {list(choices)}, got {_show(value)}")


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
                f"unknown action_type {_show(t)}; expected one of {list(JSON_ACTION_TYPES)}")
        has_index = self.index is not None
        has_point = self.x is not None or self.y is not None
        if has_index and has_point:
            raise ValueError(f"{t}: give either index or x, y, never both (got index="
                             f"{_show(self.index)}, x={_show(self.x)}, y={_show(self.y)})")
        if has_point and (self.x is None or self.y is None):
            raise ValueError(f"{t}: x and y must be given together "
                             f"(got x={_show(self.x)}, y={_show(self.y)})")
        if has_index:
            _check_int(t, "index", self.index, MAX_ELEMENTS, "")
        if has_point:
            _check_int(t, "x", self.x, SCREEN_WIDTH, " pixel")
            _check_int(t, "y", self.y, SCREEN_HEIGHT, " pixel")
        if t in TARGETED and not (has_index or has_point):
            raise ValueError(f"{t} needs a target: index or x, y")
        if (t not in TARGETED and t not in OPTIONALLY_TARGETED and t != "unknown"
                and (has_index or has_point)):
            raise ValueError(f"{t} takes no target (got index={_show(self.index)}, "
                             f"x={_show(self.x)}, y={_show(self.y)})")
        if self.text is not None:
            _check_text(t, "text", self.text, MAX_TEXT)
        elif t in ("input_text", "answer"):
            raise ValueError(f"{t} needs text (a str), got None")
        if self.app_name is not None:
            _check_text(t, "app_name", self.app_name, MAX_APP_NAME)
        if t == "open_app" and not (self.app_name and self.app_name.strip()):
            raise ValueError(f"open_app needs app_name (a non-blank str), "
                             f"got {_show(self.app_name)}")
        if t in ("scroll", "swipe") or self.direction is not None:
            _check_choice(t, "direction", self.direction, DIRECTIONS)
        if t == "status" or self.goal_status is not None:
            _check_choice(t, "goal_status", self.goal_status, GOAL_STATUSES)
        if self.clear_text is not None and not isinstance(self.clear_text, (bool, np.bool_)):
            raise ValueError(f"{t}: clear_text must be a bool, got {_show(self.clear_text)}")

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
            raise ValueError(f"unknown action fields {sorted(map(_show, extra))}; "
                             f"known: {sorted(known)}")
        if data.get("action_type") is None:
            raise ValueError("action has no action_type (missing or None)")
        keycode = data.get("keycode")
        if keycode is not None and not (isinstance(keycode, str)
                                        and keycode.startswith("KEYCODE_")):
            raise ValueError(f"Invalid keycode: {_show(keycode)} (must start with KEYCODE_)")
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
            raise ValueError(f"unknown numeric action fields {sorted(map(_show, extra))}; "
                             f"known: {list(fields)}")
        for key, value in sample.items():
            if not _in_space(fields[key], value):
                raise ValueError(f"numeric action field {key}={_show(value)} is outside the "
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
    """One element of the screen, with AndroidWorld's ``representation_utils.UIElement``
    fields, in its order. From a dump, ``resource_name`` and ``resource_id`` both hold the
    node's ``resource-id`` (AndroidWorld's a11y forest fills the first, its XML reader the
    second); ``tooltip`` and ``metadata`` are never filled by a dump, as in AndroidWorld."""

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
    is_visible: bool | None = None
    package_name: str | None = None
    resource_name: str | None = None
    tooltip: str | None = None
    resource_id: str | None = None
    metadata: dict[str, Any] | None = None

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


#: The element lists AndroidWorld builds: ``forest`` (its default, ``forest_to_ui_elements``
#: over the accessibility forest: leaves, nodes with a content description and scrollable
#: nodes) and ``xml_dump`` (``xml_dump_to_ui_elements``: every node but the root).
ELEMENT_MODES = ("forest", "xml_dump")


def parse_ui_elements(
    xml: str, screen_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
    mode: str = "forest",
) -> list[UIElement]:
    """Parse ``uiautomator dump`` XML into the indexed element list.

    ``mode="forest"`` (the default, and what every PhoneWorld index means) keeps
    AndroidWorld's default filter: leaves, nodes with a content description, and scrollable
    nodes, in document order, with its field values (empty strings are ``None``, ``bbox`` is
    normalised by ``screen_size``, ``is_visible`` is true unless the node says
    ``visible-to-user="false"``). ``mode="xml_dump"`` gives the list AndroidWorld's
    ``xml_dump_to_ui_elements`` gives for the same XML: every node but the root, ``bbox`` in
    pixels, strings as written, ``is_editable`` and ``hint_text`` unset. Works the same on real
    phones and on PhoneWorld.
    """
    from phoneworld_gym.ui.dump import indexed_nodes  # the one element filter

    if mode not in ELEMENT_MODES:
        raise ValueError(f"mode must be one of {ELEMENT_MODES}, got {mode!r}")
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as e:
        raise ValueError(f"accessibility XML is malformed: {e}") from None
    if mode == "xml_dump":
        return _xml_dump_elements(root)
    w, h = screen_size
    out: list[UIElement] = []

    def flag(n: ET.Element, k: str) -> bool:
        return n.get(k) == "true"

    for node, _ in indexed_nodes(root):
        desc = node.get("content-desc") or None
        x1, y1, x2, y2 = parse_bounds(node.get("bounds", "[0,0][0,0]"))
        cls = node.get("class") or None
        rid = node.get("resource-id") or None
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
                is_visible=node.get("visible-to-user") != "false",
                package_name=node.get("package") or None,
                resource_name=rid,
                resource_id=rid,
            )
        )
    return out


def _xml_dump_elements(root: ET.Element) -> list[UIElement]:
    """AndroidWorld's ``xml_dump_to_ui_elements``: every node below the root, as written."""
    out: list[UIElement] = []
    for node in root.iter("node"):
        if node is root:
            continue
        bounds = node.get("bounds")
        box = None
        if bounds:
            x1, y1, x2, y2 = parse_bounds(bounds)
            box = BoundingBox(x1, x2, y1, y2)
        out.append(UIElement(
            text=node.get("text"), content_description=node.get("content-desc"),
            class_name=node.get("class"), bbox=box, bbox_pixels=box,
            is_checked=node.get("checked") == "true",
            is_checkable=node.get("checkable") == "true",
            is_clickable=node.get("clickable") == "true",
            is_enabled=node.get("enabled") == "true",
            is_focused=node.get("focused") == "true",
            is_focusable=node.get("focusable") == "true",
            is_long_clickable=node.get("long-clickable") == "true",
            is_scrollable=node.get("scrollable") == "true",
            is_selected=node.get("selected") == "true",
            package_name=node.get("package"), resource_id=node.get("resource-id"),
            is_visible=True,
        ))
    return out


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
