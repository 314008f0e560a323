"""The PhoneWorld side of the device boundary: the probe that serves tables and the write
verbs and fixtures that tasks set up their start state with.

These are the only routes from a task to the simulated phone. Rows are fresh copies, so a
verifier can never change the world by accident; writes go through the app that owns the
table (its ``writers``) or, for the phone's own providers, into ``world.system``.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

from phoneworld_gym.device import COMMON_TABLES, SETTINGS_NAMESPACES, Row, Unsupported
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

    @property
    def _world(self) -> World:
        w: World = self._device.world
        return w

    def _owner(self, table: str) -> App | None:
        for app in self._device.apps.values():
            if table in app.providers:
                return app  # type: ignore[no-any-return]
        return None

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
        store = w.stores.get(app.name)
        if store is None:
            return []
        return copy_data(app.providers[table](store))  # type: ignore[no-any-return]

    def tables(self) -> list[str]:
        names = {t for t in COMMON_TABLES}
        for app in self._device.apps.values():
            names.update(t for t in app.providers
                         if t not in app.static_tables and t not in app.byproduct_tables)
        return sorted(names)

    def snapshot(self) -> dict[str, list[Row]]:
        return {t: self.query(t) for t in self.tables()}

    def contacts(self) -> list[Row]:
        return self.query("contacts")

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
        if self._served_by_system(table):
            rows = self._system_rows(table)
            rid = max((int(r["_id"]) for r in rows), default=0) + 1
            rows.append({"_id": rid, **clean})
            self.invalidate()
            return rid
        app, writer = self._writer_of(table)
        rid = writer.insert(self.world.stores[app.name], clean)
        self.invalidate()
        return rid

    def update(self, table: str, row_id: Any, values: Row) -> None:
        clean = self._check_row(table, values) if table in COMMON_TABLES else values
        if self._served_by_system(table):
            rows = self._system_rows(table)
            row = next((r for r in rows if r["_id"] == row_id), None)
            if row is None:
                raise ValueError(f"no {table} row with _id {row_id!r}")
            row.update(clean)
        else:
            app, writer = self._writer_of(table)
            writer.update(self.world.stores[app.name], row_id, clean)
        self.invalidate()

    def delete(self, table: str, row_id: Any) -> None:
        if self._served_by_system(table):
            rows = self._system_rows(table)
            if not any(r["_id"] == row_id for r in rows):
                raise ValueError(f"no {table} row with _id {row_id!r}")
            self.world.system[table] = [r for r in rows if r["_id"] != row_id]
        else:
            app, writer = self._writer_of(table)
            writer.delete(self.world.stores[app.name], row_id)
        self.invalidate()

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        if namespace not in SETTINGS_NAMESPACES:
            raise ValueError(f"settings namespace must be one of {SETTINGS_NAMESPACES}, "
                             f"got {namespace!r}")
        if not isinstance(key, str) or not _SETTING_KEY.match(key):
            raise ValueError(f"bad settings key {key!r} (letters, digits, _.:- only)")
        self.world.settings.setdefault(namespace, {})[key] = str(value)
        self.invalidate()

    def push_file(self, path: str, data: bytes) -> None:
        storage.write(self.world, path, data)
        self.invalidate()

    def fixture(self, app: str, name: str, /, **args: Any) -> Any:
        installed = self.apps.get(app)
        if installed is None:
            raise Unsupported(f"fixture {app}.{name}: {app!r} is not installed")
        fn = installed.fixtures.get(name)
        if fn is None:
            raise Unsupported(f"{app} has no fixture {name!r}; it has {sorted(installed.fixtures)}")
        result = fn(self.world.stores[app], **args)
        self.invalidate()
        return copy_data(result)
