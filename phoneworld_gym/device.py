"""The verbs every backend implements (PhoneWorld, adb phones, android_env emulators).

A :class:`Device` resets, shows its screen (pixels and accessibility XML), executes
:class:`~phoneworld_gym.contract.Action` s, answers a :class:`Probe` for verifiers, and takes
the write verbs that tasks use to set up their start state. Tasks reach the phone through
these alone: never through the world, an app's store or an app's own functions.

State is read and written as *tables* of rows, each row a dict with an ``_id`` column, the way
Android's content providers serve it:

- **common tables**, which a real phone serves too (``content query``, ``settings list``,
  ``ls``): ``contacts``, ``sms``, ``calendar``, ``alarms``, ``files``, ``settings/system``,
  ``settings/secure``, ``settings/global``;
- **app tables**, ``<app>/<name>`` (``shopping/cart``), which only PhoneWorld's mock apps serve.

The write side mirrors it: common verbs (:meth:`Device.insert`, :meth:`Device.update`,
:meth:`Device.delete`, :meth:`Device.put_setting`, :meth:`Device.push_file`) that adb can also
carry out, and :meth:`Device.fixture`, which runs a setup routine that a mock app declares for
its own state ("seed the cart with these lines"). A task that uses only common verbs and
probes runs on a real phone; :mod:`phoneworld_gym.access` works that out from what it calls.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from phoneworld_gym.contract import Action

#: Android's settings namespaces, each readable as the table ``settings/<namespace>``.
SETTINGS_NAMESPACES: tuple[str, ...] = ("system", "secure", "global")
#: Tables a real phone serves too, with the Android columns each row carries.
COMMON_TABLES: dict[str, tuple[str, ...]] = {
    "contacts": ("_id", "display_name", "number", "email", "postal_address", "company",
                 "starred"),
    "sms": ("_id", "address", "body", "date", "type", "read"),
    "calendar": ("_id", "title", "dtstart", "dtend", "eventLocation", "description"),
    "alarms": ("_id", "hour", "minutes", "label", "enabled", "days"),
    # Android's CallLog.Calls: type 1 incoming, 2 outgoing, 3 missed, 5 rejected, 6 blocked;
    # date in ms since the epoch, duration in seconds
    "call_log": ("_id", "number", "name", "date", "duration", "type", "new"),
    "files": ("_id", "size", "sha256"),
    **{f"settings/{ns}": ("_id", "value") for ns in SETTINGS_NAMESPACES},
}
#: The common tables' *view state*: columns that change when the user only looks (a thread
#: opened marks its texts read, the call log opened clears its missed calls' ``new``). The
#: damage check leaves them out unless a task says it is about them (``Task.checks_view``),
#: so a real phone's probe and PhoneWorld's judge looking by one rule. Apps add their own
#: tables' view state with ``App.view_state``.
COMMON_VIEW_STATE: dict[str, tuple[str, ...]] = {"sms": ("read",), "call_log": ("new",)}
#: The common tables a task may write with :meth:`Device.insert` / ``update`` / ``delete``.
WRITABLE_TABLES: tuple[str, ...] = ("contacts", "sms", "calendar", "alarms", "call_log")

Row = dict[str, Any]


class _Given:
    """The marker of a settable column without a default (see :data:`GIVEN`)."""

    def __repr__(self) -> str:
        return "GIVEN"


#: the default of a column a new row has no sensible value for until the user sets it (an
#: event's title, an alarm's hour): a check of a new row must name it
GIVEN: Any = _Given()


@dataclasses.dataclass(frozen=True)
class NewRow:
    """What a row a user creates in a table holds, so a check of a new row compares every
    column a user can set, not only those the task thought of (an alarm the goal does not say
    repeats must not repeat).

    Every column of the table is either settable, with the value it takes when the user sets
    nothing (``defaults``; :data:`GIVEN` when there is none), or ``free``: filled in by the
    phone (ids, timestamps, numbers derived from other columns or from the catalogue), or a
    choice the goals leave to the user; a free column is compared only when a check names it.
    ``text`` columns hold what a person typed (titles, labels, names, notes) and ``address``
    columns a postal address: a plain string expected there is compared ignoring case, spacing
    and punctuation (and, for an address, how street types are abbreviated).
    """

    defaults: Mapping[str, Any]
    free: frozenset[str] = frozenset({"_id"})
    text: frozenset[str] = frozenset()
    address: frozenset[str] = frozenset()

    @property
    def columns(self) -> frozenset[str]:
        """Every column a row of the table has."""
        return frozenset(self.defaults) | self.free


def new_row(defaults: Mapping[str, Any], *, free: str = "_id", text: str = "",
            address: str = "") -> NewRow:
    """A :class:`NewRow` with the column sets written as space-separated names."""
    return NewRow(dict(defaults), frozenset(free.split()), frozenset(text.split()),
                  frozenset(address.split()))


#: What a new row of each common table holds (see :class:`NewRow`): the same rule on a real
#: phone as on PhoneWorld.
COMMON_NEW_ROWS: dict[str, NewRow] = {
    "contacts": new_row({"display_name": GIVEN, "number": "", "email": "", "postal_address": "",
                         "company": "", "starred": 0},
                        text="display_name company", address="postal_address"),
    # a message the user sends (type 2, sent; read); its date is the clock's
    "sms": new_row({"address": GIVEN, "body": GIVEN, "type": 2, "read": 1}, free="_id date"),
    # an event's end has no fixed default (the app's default length from its start)
    "calendar": new_row({"title": GIVEN, "dtstart": GIVEN, "dtend": GIVEN, "eventLocation": "",
                         "description": ""}, text="title description", address="eventLocation"),
    "alarms": new_row({"hour": GIVEN, "minutes": GIVEN, "label": "", "enabled": 1, "days": ""},
                      text="label"),
    # a call the user places: outgoing, seen; its date and length are the clock's, its name
    # the contact's the number belongs to
    "call_log": new_row({"number": GIVEN, "type": 2, "new": 0},
                        free="_id name date duration"),
    # a file's path is what the user chose; its bytes come from what was saved
    "files": new_row({"_id": GIVEN}, free="size sha256"),
}


class DeviceError(RuntimeError):
    """A device verb could not be carried out (the message says why)."""


class Unsupported(DeviceError):
    """The backend does not have this verb, probe or table (a mock app's table on a real
    phone, a fixture of an app that is not installed)."""


#: the shell command whose output :func:`parse_now` reads: the phone's local time
NOW_COMMAND = "date +%Y-%m-%dT%H:%M:%S"
#: a time of the phone's clock, ``YYYY-MM-DDTHH:MM:SS``
CLOCK_PATTERN = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}")


def parse_now(out: str) -> str:
    """The ``YYYY-MM-DDTHH:MM:SS`` time in the output of :data:`NOW_COMMAND`
    (:class:`DeviceError` when it holds none)."""
    m = CLOCK_PATTERN.search(out or "")
    if m is None:
        raise DeviceError(f"{NOW_COMMAND!r} printed no time: {(out or '')[:200]!r}")
    return m.group(0)


def is_common(table: str) -> bool:
    """True for the tables a real phone serves too."""
    return table in COMMON_TABLES


def view_state(probe: Any) -> dict[str, tuple[str, ...]]:
    """Table -> its view-state columns on the phone ``probe`` reads: what the probe declares
    (PhoneWorld's adds each installed app's ``view_state``), else the common tables' own
    (:data:`COMMON_VIEW_STATE`), which is all a real phone's probe knows of."""
    own = getattr(probe, "view_state", None)
    return dict(own()) if callable(own) else dict(COMMON_VIEW_STATE)


@runtime_checkable
class Probe(Protocol):
    """Typed read access to the state a verifier needs.

    ``contacts``, ``foreground_app``, ``setting`` and ``query`` of a common table can be
    answered by a real phone over adb; ``query`` of an app table (``shopping/orders``) only by
    PhoneWorld."""

    def contacts(self) -> list[Row]:
        """Rows with Android contacts-provider columns: ``_id``, ``display_name``, ``number``,
        ``email``, ``postal_address``, ``company``, ``starred`` (0/1)."""
        ...

    def foreground_app(self) -> str:
        """The package of the app in front (``com.android.launcher`` on the home screen)."""
        ...

    def setting(self, namespace: str, key: str) -> str | None:
        """``settings get NAMESPACE KEY`` (``None`` when unset)."""
        ...

    def now(self) -> str:
        """The phone's local date and time, ``YYYY-MM-DDTHH:MM:SS`` (:data:`NOW_COMMAND` on
        a real phone, as android_world reads the device's clock; PhoneWorld's clock runs with
        the actions, see :data:`phoneworld_gym.contract.ACTION_SECONDS`). Tasks read dates and
        times from here, never from a literal."""
        ...

    def query(self, table: str) -> list[Row]:
        """Every row of a table (see the module docstring), in a stable order. Raises
        :class:`Unsupported` for a table this device does not serve."""
        ...

    def tables(self) -> list[str]:
        """Every table this device serves, whose rows together are the phone's state."""
        ...

    def snapshot(self) -> Mapping[str, list[Row]]:
        """Every table's rows: the whole phone, for the start state and damage checks."""
        ...


@runtime_checkable
class Device(Protocol):
    """One phone: simulated, over adb, or an emulator."""

    #: "phoneworld", "adb" or "android_env"
    kind: str

    def reset(self, seed: int) -> None:
        """Return to a clean start state, deterministic from ``seed`` where the backend can."""
        ...

    def screenshot(self) -> np.ndarray:
        """``uint8`` array (H, W, 3) at the device's screenshot size."""
        ...

    def a11y_xml(self) -> str:
        """The accessibility tree as ``uiautomator dump`` XML."""
        ...

    def execute(self, action: Action) -> str:
        """Perform an action; return an error sentence when it was meaningless, else ``""``."""
        ...

    @property
    def probe(self) -> Probe:
        """Read access for verifiers."""
        ...

    # -- write verbs (task setup) ---------------------------------------------------------
    def insert(self, table: str, row: Row) -> Any:
        """``content insert``: add a row to a writable common table; returns its ``_id``."""
        ...

    def update(self, table: str, row_id: Any, values: Row) -> None:
        """``content update``: change some columns of one row."""
        ...

    def delete(self, table: str, row_id: Any) -> None:
        """``content delete``: remove one row."""
        ...

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        """``settings put NAMESPACE KEY VALUE``."""
        ...

    def push_file(self, path: str, data: bytes) -> None:
        """``adb push``: write a file on the phone's shared storage (``/sdcard/...``)."""
        ...

    def fixture(self, app: str, name: str, /, **args: Any) -> Any:
        """Run a setup routine a mock app declares for its own state (PhoneWorld only). A
        routine with a ``now`` keyword is given the phone's clock (``YYYY-MM-DDTHH:MM:SS``)
        unless ``args`` has one."""
        ...
