"""All state of the simulated phone as plain, JSON-serialisable data.

Each app keeps its data in ``stores[app]``; what the user interface remembers (which screens
are open, scroll positions, drafts, focus) lives in ``stacks`` and ``ui``, so verifiers that
compare stores are not disturbed by browsing. Snapshot and restore are a deep copy, made with
:func:`copy_data` (a ``marshal`` round trip: a structural copy in C, about five times faster
than ``copy.deepcopy`` on a world).
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import hashlib
import json
import marshal
from typing import Any

from phoneworld_gym.contract import (  # noqa: F401 (the clock's rates, re-exported)
    ACTION_SECONDS,
    CHARS_PER_SECOND,
    WAIT_SECONDS,
    action_seconds,
)

#: marshal format 2 writes every occurrence of an object out in full (no back-references),
#: so a copy shares nothing, like ``dataclasses.asdict`` followed by ``copy.deepcopy``
_MARSHAL_VERSION = 2


def copy_data(obj: Any) -> Any:
    """A deep copy of plain data: dicts, lists, tuples, sets, str, bytes, int, float, bool and
    None, with nothing shared between the copy and ``obj`` (nor within the copy). Anything
    else (a subclass, a numpy scalar, a cycle) falls back to :func:`copy.deepcopy`."""
    try:
        return marshal.loads(marshal.dumps(obj, _MARSHAL_VERSION))
    except (ValueError, TypeError, RecursionError):
        return copy.deepcopy(obj)

LAUNCHER = "launcher"
#: the Overview (recent apps) screen, part of the launcher
RECENTS = "recents"
#: The clock every episode starts from unless the device is told another
#: (``PhoneWorldDevice(start_clock=...)``): local time, no time zone games. Apps generate
#: their data around the start they are given (:attr:`phoneworld_gym.life.Life.now`) and
#: read the running clock through ``ctx.time()``; tasks read it through ``probe.now()``. This
#: is the one place the date is written.
DEFAULT_CLOCK = "2026-03-14T10:30:00"


# the seconds each action moves the clock on: phoneworld_gym.contract.ACTION_SECONDS
def clock_at(clock: str | None) -> dt.datetime:
    """The local time a world's ``clock`` string (``YYYY-MM-DDTHH:MM:SS``) names
    (``ValueError`` for anything else, ``None`` included)."""
    try:
        t = dt.datetime.fromisoformat(clock)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"a clock is YYYY-MM-DDTHH:MM:SS local time, got {clock!r}") from None
    if t.tzinfo is not None:
        raise ValueError(f"a clock is local time without a zone, got {clock!r}")
    return t


#: :data:`DEFAULT_CLOCK` as a datetime
START = clock_at(DEFAULT_CLOCK)


@dataclasses.dataclass
class World:
    """The phone's state. Every field is JSON data."""

    seed: int = 0
    clock: str = DEFAULT_CLOCK
    stores: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    #: per app, its back stack of activities: {"screen", "args", "state"}
    stacks: dict[str, list[dict[str, Any]]] = dataclasses.field(default_factory=dict)
    foreground: str = LAUNCHER
    #: apps by last use, most recent first (what the Overview screen lists)
    recents: list[str] = dataclasses.field(default_factory=list)
    #: keyboard focus: the key of a text field on the foreground activity, or None
    focus: str | None = None
    shift: bool = False
    #: the soft keyboard's page: "letters" or "symbols"
    keyboard_layer: str = "letters"
    clipboard: str = ""
    toast: dict[str, Any] | None = None
    notifications: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    #: whether the notification shade is pulled down
    shade: bool = False
    settings: dict[str, dict[str, str]] = dataclasses.field(
        default_factory=lambda: {"system": {}, "secure": {}, "global": {}}
    )
    #: the phone's own providers that no app owns: "sms", "calendar", "alarms" (rows with an
    #: ``_id``) and "files" (rows keyed by path, with the content base64-encoded in ``data``)
    system: dict[str, list[dict[str, Any]]] = dataclasses.field(
        default_factory=lambda: {"sms": [], "calendar": [], "alarms": [], "call_log": [],
                          "files": []}
    )

    #: a system window over the apps, waiting for the user: the share sheet
    #: (``{"kind": "share", "from", "mime", "text", "subject", "path"}``) or the "Open with"
    #: chooser (``{"kind": "chooser", "uri", "from", "targets"}``); see
    #: :mod:`phoneworld_gym.system.intents`
    system_ui: dict[str, Any] | None = None
    #: the launcher's own state: whether the all-apps drawer is open (``drawer``), its search
    #: text (``query``) and scroll offset (``scroll``); empty on the home screen
    launcher: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: the realism switches' episode state (:mod:`phoneworld_gym.system.realism`): empty on
    #: the clean phone; ``{"on", "seed", "dismissed", "failed"}`` in the field profile
    realism: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: runtime permission answers: app -> permission -> "granted" | "once" | "denied"
    permissions: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        #: not state (no field): the apps whose store object app code was handed
        #: (:meth:`open_store`) since this world was made; a reset trusts the stores of the
        #: others without reading them (see
        #: :meth:`PhoneWorldDevice.reset <phoneworld_gym.phone.PhoneWorldDevice.reset>`)
        self.opened: set[str] = set()

    def open_store(self, app: str) -> dict[str, Any]:
        """``app``'s live store, for app code (screens, handlers, providers): the way app code
        gets it, so the world knows which stores code may have changed."""
        self.opened.add(app)
        return self.stores[app]

    # -- activities --------------------------------------------------------------------------
    def top(self) -> dict[str, Any] | None:
        """The foreground activity, or None on the home or Overview screen."""
        if self.foreground in (LAUNCHER, RECENTS):
            return None
        stack = self.stacks.get(self.foreground) or []
        return stack[-1] if stack else None

    # -- time ------------------------------------------------------------------------------
    def now(self) -> dt.datetime:
        """The phone's local time (see :data:`phoneworld_gym.contract.ACTION_SECONDS` for how
        it runs)."""
        return clock_at(self.clock)

    def advance(self, seconds: int) -> None:
        """Move the clock on by ``seconds`` (0 or more)."""
        if seconds < 0:
            raise ValueError(f"the clock does not go back ({seconds} s)")
        if seconds:
            self.clock = (self.now() + dt.timedelta(seconds=seconds)).isoformat(
                timespec="seconds")

    def bring_to_front(self, app: str) -> None:
        """Make ``app`` the foreground app (its back stack must exist) and the most recent."""
        self.foreground = app
        self.recents = [app] + [a for a in self.recents if a != app]
        self.focus = None

    # -- serialisation -----------------------------------------------------------------------
    def field_values(self) -> dict[str, Any]:
        """Every field by name, *not* copied (read it, do not keep or change it)."""
        return {name: getattr(self, name) for name in _FIELDS}

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of every field (the form :meth:`snapshot` returns)."""
        return copy_data(self.field_values())  # type: ignore[no-any-return]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> World:
        unknown = set(data) - set(_FIELDS)
        if unknown:
            raise ValueError(f"unknown world fields {sorted(unknown)}")
        return cls(**copy_data(data))

    def to_json(self) -> str:
        return json.dumps(self.field_values(), sort_keys=True, ensure_ascii=False,
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> World:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"world JSON is malformed: {e}") from None
        if not isinstance(data, dict):
            raise ValueError("world JSON must be an object")
        return cls.from_dict(data)

    def snapshot(self) -> dict[str, Any]:
        return self.to_dict()

    def restore(self, snap: dict[str, Any]) -> None:
        other = World.from_dict(snap)
        for name in _FIELDS:
            setattr(self, name, getattr(other, name))

    def state_hash(self) -> str:
        """sha256 of the canonical JSON form."""
        return hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()


#: the names of the world's fields, in declaration order
_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(World))
