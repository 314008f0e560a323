"""The PhoneWorld side of the device boundary: the probe that serves tables and the write
verbs and fixtures that tasks set up their start state with.

These are the only routes from a task to the simulated phone. Rows are fresh copies, so a
verifier can never change the world by accident; writes go through the app that owns the
table (its ``writers``) or, for the phone's own providers, into ``world.system``.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import functools
import inspect
import marshal
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from phoneworld_gym.device import (
    COMMON_TABLES,
    COMMON_VIEW_STATE,
    SETTINGS_NAMESPACES,
    Row,
    Unsupported,
)
from phoneworld_gym.system import chrome, intents, launcher, storage
from phoneworld_gym.world import LAUNCHER, RECENTS, copy_data

if TYPE_CHECKING:
    from phoneworld_gym.app import App
    from phoneworld_gym.world import World

#: the phone's own providers, kept in ``world.system`` unless an installed app serves the
#: table (a Messages app serving ``sms``, a Clock app serving ``alarms``): then it owns them
SYSTEM_TABLES = ("sms", "calendar", "alarms", "call_log", "files")
_SETTING_KEY = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
_FILE_PATH = re.compile(r"^/sdcard/[^\x00]{1,512}$")
MAX_FILE = 16 << 20


def _system_columns(table: str) -> tuple[str, ...]:
    return COMMON_TABLES[table]


class PhoneWorldProbe:
    """Verifier access to a PhoneWorld phone: every table, read-only copies."""

    def __init__(self, device: Any):
        self._device = device
        self._index_key: tuple[int, int] | None = None
        self._owners: dict[str, Any] = {}
        self._tables: list[str] = []
        self._static: list[str] = []
        self._view: dict[str, tuple[str, ...]] = {}

    @property
    def _world(self) -> World:
        w: World = self._device.world
        return w

    def _index(self) -> None:
        """Which app serves each table, and the table lists, computed once per set of
        installed apps (every snapshot and reset asks)."""
        apps = self._device.apps
        key = (id(apps), len(apps))
        if key == self._index_key:
            return
        owners: dict[str, Any] = {}
        names = set(COMMON_TABLES)
        static: set[str] = set()
        view = {t: set(cols) for t, cols in COMMON_VIEW_STATE.items()}
        for app in apps.values():
            for t, cols in app.view_state.items():
                view.setdefault(t, set()).update(cols)
            for t in app.providers:
                owners.setdefault(t, app)
                if t in app.static_tables:
                    static.add(t)
                elif t not in app.byproduct_tables:
                    names.add(t)
        self._owners, self._tables, self._static = owners, sorted(names), sorted(static)
        self._view = {t: tuple(sorted(c)) for t, c in sorted(view.items())}
        self._index_key = key

    def _owner(self, table: str) -> App | None:
        self._index()
        return self._owners.get(table)  # type: ignore[no-any-return]

    def query(self, table: str) -> list[Row]:
        w = self._world
        if table.startswith("settings/"):
            ns = table.split("/", 1)[1]
            if ns not in SETTINGS_NAMESPACES:
                raise Unsupported(f"no settings namespace {ns!r}; have {SETTINGS_NAMESPACES}")
            return [{"_id": k, "value": v} for k, v in sorted(w.settings.get(ns, {}).items())]
        app = self._owner(table)
        if table in SYSTEM_TABLES and app is None:
            rows = w.system.get(table, [])
            if table == "files":
                return [{k: r[k] for k in ("_id", "size", "sha256")} for r in rows]
            return copy_data(rows)  # type: ignore[no-any-return]
        if app is None:
            if table in COMMON_TABLES:
                return []  # the provider exists on every phone, empty without its app
            raise Unsupported(f"no table {table!r} on this phone; tables: {self.tables()}")
        if app.name not in w.stores:
            return []
        return copy_data(app.providers[table](w.open_store(app.name)))  # type: ignore[no-any-return]

    def tables(self) -> list[str]:
        self._index()
        return list(self._tables)

    def snapshot(self) -> Snapshot:
        return Snapshot(self, self.tables())

    def view_state(self) -> dict[str, tuple[str, ...]]:
        """Table -> its view-state columns (the common tables' and every installed app's
        ``view_state``): changes there are looking, not doing, for the damage check."""
        self._index()
        return dict(self._view)

    def static_tables(self) -> list[str]:
        """Tables that never change in an episode (a shop's catalogue): readable, left out of
        :meth:`tables` and so of damage checks."""
        self._index()
        return list(self._static)

    def source_of(self, table: str) -> str:
        """Where ``table``'s rows come from: ``"settings"``, ``"system"`` (the phone's own
        providers), ``"store/<app>"`` (an app's provider over its store) or ``"none"``."""
        if table.startswith("settings/"):
            return "settings"
        app = self._owner(table)
        if table in SYSTEM_TABLES and app is None:
            return "system"
        if app is None or app.name not in self._world.stores:
            return "none"
        return f"store/{app.name}"

    def source_data(self, source: str) -> Any:
        """The live data behind a source (see :meth:`source_of`); read it, never change it."""
        w = self._world
        if source == "settings":
            return w.settings
        if source == "system":
            return w.system
        if source.startswith("store/"):
            return w.stores[source[6:]]
        return None

    def source_dump(self, source: str) -> bytes:
        """The ``marshal`` dump of a source's live data: the one the device knows unchanged
        since its reset when it knows one (``known_dump``), else a fresh dump (ValueError or
        TypeError when the data is not plain)."""
        data = self.source_data(source)
        known = getattr(self._device, "known_dump", None)
        blob = known(source, data) if known is not None else None
        return blob if blob is not None else marshal.dumps(data, 2)

    def rows_from(self, table: str, source: str, data: Any) -> list[Row]:
        """``table``'s rows computed from a copy of its source's data (not copied again)."""
        if source == "settings":
            ns = table.split("/", 1)[1]
            if ns not in SETTINGS_NAMESPACES:
                raise Unsupported(f"no settings namespace {ns!r}; have {SETTINGS_NAMESPACES}")
            return [{"_id": k, "value": v} for k, v in sorted(data.get(ns, {}).items())]
        if source == "system":
            rows = data.get(table, [])
            if table == "files":
                return [{k: r[k] for k in ("_id", "size", "sha256")} for r in rows]
            return list(rows)
        if source.startswith("store/"):
            app = self._device.apps[source[6:]]
            return list(app.providers[table](data))
        return []

    def contacts(self) -> list[Row]:
        return self.query("contacts")

    def now(self) -> str:
        """The phone's clock (it runs with the actions)."""
        return self._world.clock

    def foreground_app(self) -> str:
        w = self._world
        if w.shade:
            return chrome.SHADE_PACKAGE
        if w.system_ui is not None:
            return intents.RESOLVER_PACKAGE
        if w.foreground in (LAUNCHER, RECENTS):
            return launcher.PACKAGE
        if self._device.compositor.pending_permission() is not None:
            return intents.PERMISSION_PACKAGE  # the runtime permission dialog is in front
        return str(self._device.apps[w.foreground].package)

    def setting(self, namespace: str, key: str) -> str | None:
        return self._world.settings.get(namespace, {}).get(key)

    def clipboard(self) -> str:
        """The clipboard text (PhoneWorld only)."""
        return self._world.clipboard


class SimWriteVerbs:
    """The write verbs of :class:`~phoneworld_gym.device.Device` over a PhoneWorld world.

    Mixed into ``PhoneWorldDevice``, which provides ``world``, ``apps`` and ``invalidate``."""

    world: World
    apps: dict[str, App]

    def invalidate(self) -> None:  # pragma: no cover - provided by the device
        raise NotImplementedError

    def _wrote(self, source: str) -> None:
        """A verb changed one data source (see :meth:`PhoneWorldProbe.source_of`); a device
        that tracks its sources narrows this (PhoneWorld's does), else it invalidates."""
        self.invalidate()

    def _forget(self, source: str) -> None:
        """A verb failed part way and may have changed a source: a device that tracks its
        sources stops trusting what it knew of it (the frame is left as it was)."""

    @contextlib.contextmanager
    def _writing(self, source: str) -> Iterator[None]:
        """Around a write into ``source``: :meth:`_wrote` when it succeeds, :meth:`_forget`
        when it raises (a writer may have changed something before refusing)."""
        try:
            yield
        except BaseException:
            self._forget(source)
            raise
        self._wrote(source)

    def _writer_of(self, table: str) -> tuple[App, Any]:
        for app in self.apps.values():
            if table in app.writers:
                return app, app.writers[table]
        raise Unsupported(f"no installed app serves {table!r} for writing")

    def _system_rows(self, table: str) -> list[Row]:
        if table not in SYSTEM_TABLES or table == "files":
            raise Unsupported(f"{table!r} is not writable with insert/update/delete; writable: "
                              f"contacts, {', '.join(t for t in SYSTEM_TABLES if t != 'files')}")
        return self.world.system.setdefault(table, [])

    def _check_row(self, table: str, row: Row) -> Row:
        if not isinstance(row, dict):
            raise ValueError(f"a {table} row must be a dict, got {type(row).__name__}")
        allowed = set(COMMON_TABLES[table]) - {"_id"}
        unknown = set(row) - allowed
        if unknown:
            raise ValueError(f"{table} has no columns {sorted(unknown)}; "
                             f"columns: {sorted(allowed)}")
        return {k: copy.deepcopy(v) for k, v in row.items()}

    def _served_by_system(self, table: str) -> bool:
        return table in SYSTEM_TABLES and not any(table in a.writers for a in self.apps.values())

    def insert(self, table: str, row: Row) -> Any:
        clean = self._check_row(table, row) if table in COMMON_TABLES else row
        stamp = STAMPED.get(table)
        if stamp is not None and stamp not in clean:
            # as Android's SMS and call-log providers do: a row inserted without a date is
            # dated by the phone's clock
            now = self.world.now().replace(tzinfo=dt.timezone.utc)
            clean = {**clean, stamp: int(round(now.timestamp() * 1000))}
        if self._served_by_system(table):
            rows = self._system_rows(table)
            rid = max((int(r["_id"]) for r in rows), default=0) + 1
            rows.append({"_id": rid, **clean})
            self._wrote("system")
            return rid
        app, writer = self._writer_of(table)
        with self._writing(f"store/{app.name}"):
            rid = writer.insert(self.world.stores[app.name], clean)
        return rid

    def update(self, table: str, row_id: Any, values: Row) -> None:
        clean = self._check_row(table, values) if table in COMMON_TABLES else values
        if self._served_by_system(table):
            rows = self._system_rows(table)
            row = next((r for r in rows if r["_id"] == row_id), None)
            if row is None:
                raise ValueError(f"no {table} row with _id {row_id!r}")
            row.update(clean)
            self._wrote("system")
        else:
            app, writer = self._writer_of(table)
            with self._writing(f"store/{app.name}"):
                writer.update(self.world.stores[app.name], row_id, clean)

    def delete(self, table: str, row_id: Any) -> None:
        if self._served_by_system(table):
            rows = self._system_rows(table)
            if not any(r["_id"] == row_id for r in rows):
                raise ValueError(f"no {table} row with _id {row_id!r}")
            self.world.system[table] = [r for r in rows if r["_id"] != row_id]
            self._wrote("system")
        else:
            app, writer = self._writer_of(table)
            with self._writing(f"store/{app.name}"):
                writer.delete(self.world.stores[app.name], row_id)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        if namespace not in SETTINGS_NAMESPACES:
            raise ValueError(f"settings namespace must be one of {SETTINGS_NAMESPACES}, "
                             f"got {namespace!r}")
        if not isinstance(key, str) or not _SETTING_KEY.match(key):
            raise ValueError(f"bad settings key {key!r} (letters, digits, _.:- only)")
        self.world.settings.setdefault(namespace, {})[key] = str(value)
        self._wrote("settings")

    def push_file(self, path: str, data: bytes) -> None:
        with self._writing("system"):
            storage.write(self.world, path, data)

    def fixture(self, app: str, name: str, /, **args: Any) -> Any:
        installed = self.apps.get(app)
        if installed is None:
            raise Unsupported(f"fixture {app}.{name}: {app!r} is not installed")
        fn = installed.fixtures.get(name)
        if fn is None:
            raise Unsupported(f"{app} has no fixture {name!r}; it has {sorted(installed.fixtures)}")
        if "now" not in args and _takes_now(fn):
            args = {**args, "now": self.world.clock}  # what the phone's clock says
        with self._writing(f"store/{app}"):
            result = fn(self.world.stores[app], **args)
        return copy_data(result)


#: common tables whose provider dates a row inserted without one: table -> column (ms)
STAMPED = {"sms": "date", "call_log": "date"}


@functools.cache
def _takes_now(fn: Any) -> bool:
    """Whether a fixture takes the phone's time (a ``now`` keyword: ``YYYY-MM-DDTHH:MM:SS``),
    which :meth:`fixture` then passes unless its caller did."""
    try:
        return "now" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


class Snapshot(Mapping[str, list[Row]]):
    """Every table of a PhoneWorld phone at one moment, read lazily.

    Taking one copies each data source the tables come from (each app's store, the phone's
    own providers, the settings) as one ``marshal`` dump, a few hundred microseconds for the
    whole phone; a table's rows are computed from that copy when first read. Two snapshots
    of one phone tell that a table did not change without computing it when its source is
    byte for byte the same (:meth:`same`), which is what damage checks ask of most tables."""

    def __init__(self, probe: PhoneWorldProbe, tables: list[str]):
        self._probe = probe
        self._tables = list(tables)
        self._source = {t: probe.source_of(t) for t in self._tables}
        self._parts: dict[str, bytes] = {}
        self._eager: dict[str, list[Row]] = {}
        for src in sorted(set(self._source.values())):
            try:
                self._parts[src] = probe.source_dump(src)
            except (ValueError, TypeError, RecursionError):  # not plain data: read it now
                for t, s in self._source.items():
                    if s == src:
                        self._eager[t] = probe.query(t)
        self._loaded: dict[str, Any] = {}
        self._rows: dict[str, list[Row]] = {}
        #: tables that never change in an episode: readable from a snapshot (their start is
        #: their rows at any time), but not listed, so damage checks leave them out
        self._static = frozenset(probe.static_tables())

    def __getitem__(self, table: str) -> list[Row]:
        rows = self._rows.get(table)
        if rows is not None:
            return rows
        if table in self._eager:
            return self._eager[table]
        if table in self._static and table not in self._source:
            rows = self._probe.query(table)
            self._rows[table] = rows
            return rows
        src = self._source[table]  # KeyError for a table the phone does not have
        if src not in self._loaded:
            self._loaded[src] = marshal.loads(self._parts[src])
        rows = self._probe.rows_from(table, src, self._loaded[src])
        self._rows[table] = rows
        return rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, table: object) -> bool:
        return table in self._source or table in self._static

    def same(self, other: object, table: str) -> bool:
        """True when ``table`` certainly has the same rows in ``other`` (its source's data is
        byte for byte the same); False means "compare the rows"."""
        if not isinstance(other, Snapshot) or table in self._eager or table in other._eager:
            return False
        src = self._source.get(table)
        if src is None or other._source.get(table) != src:
            return False
        mine = self._parts.get(src)
        return mine is not None and mine == other._parts.get(src)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Snapshot) and set(self._tables) == set(other._tables) \
                and all(self.same(other, t) for t in self._tables):
            return True
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Snapshot:
        return self  # immutable once taken: the rows come from its own copy of the data

    def __repr__(self) -> str:
        return f"<Snapshot of {len(self._tables)} tables>"
