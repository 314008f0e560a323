"""Text in observation spaces: :class:`UnicodeText`, a Gymnasium ``Text`` space that admits
any valid Unicode string (the accessibility XML, the goal), and its handlers for the shared
memory of async vector envs; :func:`is_valid_unicode` and :func:`short_repr` for the
contract's checks and messages."""

from __future__ import annotations

import collections.abc
import multiprocessing as mp
import re
import reprlib
from types import ModuleType
from typing import Any, overload

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

#: a lone surrogate code point (not valid Unicode)
SURROGATE = re.compile("[\ud800-\udfff]")


def is_valid_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode: it holds no lone surrogate (U+D800..U+DFFF), so it
    encodes to UTF-8 (the world's state hash and JSON depend on that)."""
    return text.isascii() or SURROGATE.search(text) is None


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 60
_REPR.maxlevel = 3


def short_repr(value: Any) -> str:
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
        raise ValueError(f"{short_repr(value)} is not in {space}")
    size = space.max_length + 1
    row = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * size:(index + 1) * size]
    codes = np.frombuffer(value.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    row[1:1 + codes.size] = codes
    row[0] = codes.size  # last: a reader never sees a length longer than what was written
