"""The phone's tables over adb: the :class:`~phoneworld_gym.device.Probe` and the write verbs of
:class:`~phoneworld_gym.real_device.adb_device.AdbDevice`, as shell commands.

=================  =====================================================================
table              read (and written) with
=================  =====================================================================
``contacts``       ``content query --uri content://com.android.contacts/contacts``; a phone
                   whose provider lacks the flat columns (Android's own) is read as
                   ``contacts`` joined with ``data`` rows (phone, email, address, company)
``sms``            ``content query --uri content://sms``
``calendar``       ``content query --uri content://com.android.calendar/events``
``alarms``         ``content query --uri content://com.android.deskclock/alarms``: the
                   virtual phone serves it; Android's clock app does not export its alarms,
                   so on a real phone ``alarms`` is not among :meth:`AdbProbe.tables` and
                   ``query("alarms")`` raises :class:`~phoneworld_gym.device.Unsupported`
``files``          the sync service's ``LIST`` walked from ``/sdcard`` (``/sdcard/Android``,
                   apps' private folders, left out) and ``sha256sum``
``settings/<ns>``  ``settings list <ns>``
=================  =====================================================================

``content query`` prints ``Row: N col=value, col=value, ...``. Values are not quoted, so rows
are split at ``, <known column>=`` only, and typed as PhoneWorld types them: the integer
columns (``_id``, ``starred``, ``date`` ...) become ints, ``NULL`` becomes ``None``, the rest
stay strings. A provider that refuses the shell user (some phones guard ``sms``) is left out
of :meth:`AdbProbe.tables`, with the reason in :attr:`AdbProbe.unserved`.

Writes: ``content insert|update|delete --uri URI --bind col:TYPE:value --where "_id=N"``, each
argument quoted with :func:`shlex.quote` (no value can reach the phone's shell as code);
``settings put``; ``push_file`` through the sync service. Columns, namespaces, keys and paths
are validated first, with PhoneWorld's messages (:mod:`phoneworld_gym.sim_access`).
"""

from __future__ import annotations

import copy
import json
import posixpath
import re
import shlex
import stat
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from phoneworld_gym.device import (
    COMMON_TABLES,
    NOW_COMMAND,
    SETTINGS_NAMESPACES,
    WRITABLE_TABLES,
    DeviceError,
    Row,
    Unsupported,
    is_common,
    parse_now,
)
from phoneworld_gym.sim_access import _FILE_PATH, _SETTING_KEY, MAX_FILE

#: content provider URI of each table read with ``content query``
URIS: dict[str, str] = {
    "contacts": "content://com.android.contacts/contacts",
    "sms": "content://sms",
    "calendar": "content://com.android.calendar/events",
    "alarms": "content://com.android.deskclock/alarms",
    "call_log": "content://call_log/calls",
}
#: columns that hold integers (PhoneWorld's rows hold ints there)
INT_COLUMNS: dict[str, frozenset[str]] = {
    "contacts": frozenset({"_id", "starred"}),
    "sms": frozenset({"_id", "date", "type", "read"}),
    "calendar": frozenset({"_id", "dtstart", "dtend"}),
    "alarms": frozenset({"_id", "hour", "minutes", "enabled"}),
    "call_log": frozenset({"_id", "date", "duration", "type", "new"}),
    "raw_contacts": frozenset({"_id", "contact_id"}),
    "data": frozenset({"_id", "contact_id", "raw_contact_id"}),
}
#: Android's contacts ``data`` rows: mimetype -> the flat column its ``data1`` fills
CONTACT_MIMETYPES: dict[str, str] = {
    "vnd.android.cursor.item/phone_v2": "number",
    "vnd.android.cursor.item/email_v2": "email",
    "vnd.android.cursor.item/postal-address_v2": "postal_address",
    "vnd.android.cursor.item/organization": "company",
}
FILES_ROOT = "/sdcard"
#: folders under the files root that are not the user's files
FILES_SKIP = ("/sdcard/Android",)
_ROW_START = re.compile(r"^Row: \d+ ", re.MULTILINE)
_NOT_SERVED = ("Unknown URI", "Could not find provider", "Unknown authority",
               "No content provider", "Permission Denial", "SecurityException",
               "not supported")
_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ u\d+ ([^\s}]+)\}")
_FOCUSED_APP = re.compile(r"mFocusedApp=\S*ActivityRecord\{\S+ u\d+ ([^\s/}]+)")
SYSTEMUI = "com.android.systemui"


class AdbShell(Protocol):
    """What the probe needs from the device: shell commands, folder listings and pushes (each
    raises :class:`~phoneworld_gym.device.DeviceError` when the phone is gone)."""

    def shell(self, command: str) -> str:
        """Run a command line on the phone; its output (stdout and stderr) as text."""
        ...

    def list_dir(self, path: str) -> list[tuple[str, int, int]]:
        """The entries of a folder: (name, mode, size), without ``.`` and ``..``."""
        ...

    def push(self, path: str, data: bytes) -> None:
        """Write a file on the phone."""
        ...


class ContentError(DeviceError):
    """``content`` printed an error instead of rows (the message is its output)."""


# -- parsing --------------------------------------------------------------------------------
def _typed(table: str, column: str, text: str) -> Any:
    """A printed value as PhoneWorld types it (see the module docstring)."""
    if text == "NULL":
        return None
    if column in INT_COLUMNS.get(table, ()):
        try:
            return int(text)
        except ValueError:
            return text
    if table == "alarms" and column == "days" and text[:1] == "[":
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def check_content_output(output: str, what: str) -> None:
    """Raise when ``content`` printed an error: :class:`Unsupported` for a provider the phone
    does not serve (or refuses to the shell user), else :class:`ContentError`."""
    text = output.strip()
    if not text or text == "No result found.":
        return
    if text.startswith("Row: "):
        # an error after some rows (a column one row lacks): the message comes last
        at = text.find("\nError while accessing provider")
        if at < 0:
            return
        text = text[at + 1:]
    first = text.splitlines()[0]
    if first.startswith(("Error", "Exception", "java.", "usage:", "Usage:")) or \
            "Exception" in text:
        if any(k in text for k in _NOT_SERVED):
            raise Unsupported(f"{what}: the phone does not serve it ({_short(text)})")
        raise ContentError(f"{what} failed: {_short(text)}")


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def parse_rows(output: str, columns: Sequence[str], table: str = "") -> list[Row]:
    """The rows ``content query`` printed (``Row: N col=value, ...``), split at ``, col=`` for
    the known ``columns`` only (a value may hold commas), typed for ``table``. Columns a row
    does not print are absent from it; ``No result found.`` is no rows."""
    check_content_output(output, f"content query of {table or 'a table'}")
    text = output.replace("\r\n", "\n")
    starts = [m.start() for m in _ROW_START.finditer(text)]
    if not starts:
        return []
    names = "|".join(re.escape(c) for c in sorted(columns, key=len, reverse=True))
    first = re.compile(rf"(?:{names})=")
    sep = re.compile(rf", (?=(?:{names})=)")
    rows: list[Row] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(text)
        body = text[start:end]
        body = body[body.index(" ", 5) + 1:]  # after "Row: N "
        if body.endswith("\n"):
            body = body[:-1]
        if not first.match(body):
            raise ContentError(f"cannot read a row of {table or 'a table'}: {_short(body)}")
        row: Row = {}
        for piece in sep.split(body):
            col, _, value = piece.partition("=")
            row[col] = _typed(table, col, value)
        rows.append(row)
    return rows


def parse_settings(output: str) -> list[Row]:
    """``settings list`` output (``key=value`` lines) as PhoneWorld's settings rows, sorted:
    ``{"_id": key, "value": value}``."""
    rows: dict[str, str] = {}
    for line in output.replace("\r\n", "\n").split("\n"):
        if "=" not in line:
            continue
        key, _, value = line.partition("=")
        if key and _SETTING_KEY.match(key):
            rows[key] = value
    return [{"_id": k, "value": v} for k, v in sorted(rows.items())]


def parse_focus(dumpsys: str) -> str | None:
    """The package in front, from ``dumpsys window`` (``mCurrentFocus``, else
    ``mFocusedApp``); a system window without a package (``NotificationShade``,
    ``StatusBar``) is System UI's. ``None`` when neither line is there."""
    m = _FOCUS.search(dumpsys)
    if m:
        token = m.group(1)
        return token.split("/", 1)[0] if "/" in token else SYSTEMUI
    m = _FOCUSED_APP.search(dumpsys)
    return m.group(1) if m else None


def bind(column: str, value: Any) -> str:
    """One ``--bind`` argument, ``column:TYPE:value`` (quote it before it reaches a shell)."""
    if value is None:
        return f"{column}:n:"
    if isinstance(value, bool):
        return f"{column}:b:{'true' if value else 'false'}"
    if isinstance(value, int):
        return f"{column}:{'i' if -2**31 <= value < 2**31 else 'l'}:{value}"
    if isinstance(value, float):
        return f"{column}:d:{value!r}"
    if isinstance(value, (list, dict)):
        return f"{column}:s:{json.dumps(value, ensure_ascii=False)}"
    return f"{column}:s:{value}"


def q(*words: Any) -> str:
    """A command line of ``words``, each quoted for the phone's shell."""
    return " ".join(shlex.quote(str(w)) for w in words)


# -- the probe ------------------------------------------------------------------------------
class AdbProbe:
    """Tables, settings and the app in front of an adb phone (see the module docstring).

    ``files_root`` is where the ``files`` table starts (``/sdcard``)."""

    def __init__(self, shell: AdbShell, *, files_root: str = FILES_ROOT,
                 on_write: Callable[[], None] | None = None):
        self._sh = shell
        self.files_root = files_root.rstrip("/") or "/"
        self._on_write = on_write
        self._served: list[str] | None = None
        #: common tables this phone does not serve -> why
        self.unserved: dict[str, str] = {}
        #: whether the contacts provider serves the flat columns (None: not known yet)
        self._flat_contacts: bool | None = None

    def forget(self) -> None:
        """Forget what was learnt about the phone (after a reconnect to another one)."""
        self._served = None
        self.unserved = {}
        self._flat_contacts = None

    # -- reading -------------------------------------------------------------------------
    def _content_rows(self, table: str, uri: str, columns: Sequence[str]) -> list[Row]:
        """A query with the columns as projection; when the provider lacks some of them for
        some rows (the virtual phone keeps the columns each row was given) it is asked
        again without a projection and rows keep the known columns they print."""
        out = self._sh.shell(q("content", "query", "--uri", uri,
                               "--projection", ":".join(columns)))
        try:
            return parse_rows(out, columns, table)
        except ContentError as e:
            if "column" not in str(e).lower():
                raise
        out = self._sh.shell(q("content", "query", "--uri", uri))
        rows = parse_rows(out, columns, table)
        return [{k: v for k, v in r.items() if k in columns} for r in rows]

    def contacts(self) -> list[Row]:
        """Contacts with the common columns (see the module docstring)."""
        cols = COMMON_TABLES["contacts"]
        if self._flat_contacts is not False:
            try:
                out = self._sh.shell(q("content", "query", "--uri", URIS["contacts"],
                                       "--projection", ":".join(cols)))
                rows = parse_rows(out, cols, "contacts")
                self._flat_contacts = True
                return rows
            except ContentError as e:
                if self._flat_contacts or "column" not in str(e).lower():
                    raise
                self._flat_contacts = False
        return self._joined_contacts()

    def _joined_contacts(self) -> list[Row]:
        """Android's own provider: ``contacts`` rows joined with their ``data`` rows."""
        base = ("_id", "display_name", "starred")
        out = self._sh.shell(q("content", "query", "--uri", URIS["contacts"],
                               "--projection", ":".join(base)))
        people = parse_rows(out, base, "contacts")
        data_cols = ("contact_id", "mimetype", "data1")
        out = self._sh.shell(q("content", "query", "--uri", "content://com.android.contacts/data",
                               "--projection", ":".join(data_cols)))
        extra: dict[int, dict[str, str]] = {}
        for d in parse_rows(out, data_cols, "data"):
            col = CONTACT_MIMETYPES.get(str(d.get("mimetype")))
            cid = d.get("contact_id")
            if col is not None and isinstance(cid, int) and d.get("data1") is not None:
                extra.setdefault(cid, {}).setdefault(col, str(d["data1"]))
        rows = []
        for p in people:
            more = extra.get(int(p["_id"]), {})
            rows.append({"_id": p["_id"], "display_name": p.get("display_name") or "",
                         **{c: more.get(c, "") for c in ("number", "email", "postal_address",
                                                         "company")},
                         "starred": p.get("starred") or 0})
        return rows

    def now(self) -> str:
        """The phone's local time (``date +%Y-%m-%dT%H:%M:%S``)."""
        return parse_now(self._sh.shell(NOW_COMMAND))

    def foreground_app(self) -> str:
        """The package in front, from ``dumpsys window windows``."""
        out = self._sh.shell("dumpsys window windows | grep -i focus")
        pkg = parse_focus(out)
        if pkg is None:
            out = self._sh.shell("dumpsys window")
            pkg = parse_focus(out)
        if pkg is None:
            raise DeviceError("dumpsys window shows no focused window (is the screen on?)")
        return pkg

    def setting(self, namespace: str, key: str) -> str | None:
        """``settings get NAMESPACE KEY``; ``None`` when unset (``null``)."""
        _check_setting(namespace, key)
        out = self._sh.shell(q("settings", "get", namespace, key))
        value = out[:-1] if out.endswith("\n") else out
        return None if value == "null" else value

    def query(self, table: str) -> list[Row]:
        """Every row of a common table; :class:`Unsupported` for an app table or a provider
        the phone does not serve."""
        if not is_common(table):
            raise Unsupported(f"{table!r} is a PhoneWorld app's table; a real phone serves "
                              f"only {sorted(COMMON_TABLES)}")
        if table in self.unserved:
            raise Unsupported(f"{table}: {self.unserved[table]}")
        if table.startswith("settings/"):
            return parse_settings(self._sh.shell(q("settings", "list", table.split("/")[1])))
        if table == "files":
            return self._files()
        if table == "contacts":
            return self.contacts()
        return self._content_rows(table, URIS[table], COMMON_TABLES[table])

    def tables(self) -> list[str]:
        """The common tables this phone serves (asked once per connection)."""
        if self._served is None:
            served = []
            for t in COMMON_TABLES:
                try:
                    self.query(t)
                    served.append(t)
                except Unsupported as e:
                    self.unserved[t] = str(e)
            self._served = served
        return list(self._served)

    def snapshot(self) -> dict[str, list[Row]]:
        """Every served table's rows."""
        return {t: self.query(t) for t in self.tables()}

    # -- files ---------------------------------------------------------------------------
    def _walk(self) -> list[tuple[str, int]]:
        """Every file under the files root: (path, size), sorted."""
        found: list[tuple[str, int]] = []
        todo = [self.files_root]
        seen: set[str] = set()
        while todo:
            folder = todo.pop()
            if folder in seen or len(seen) > 10_000:
                continue
            seen.add(folder)
            for name, mode, size in self._sh.list_dir(folder + "/"):
                path = posixpath.join(folder, name)
                if stat.S_ISDIR(mode):
                    if path not in FILES_SKIP:
                        todo.append(path)
                elif stat.S_ISREG(mode):
                    found.append((path, size))
        return sorted(found)

    def _files(self) -> list[Row]:
        files = self._walk()
        hashes: dict[str, str] = {}
        batch: list[str] = []

        def flush() -> None:
            if not batch:
                return
            out = self._sh.shell(q("sha256sum", *batch))
            for line in out.splitlines():
                digest, _, path = line.partition("  ")
                if re.fullmatch(r"[0-9a-f]{64}", digest):
                    hashes[path] = digest
            batch.clear()

        for path, _ in files:
            batch.append(path)
            if sum(len(p) + 3 for p in batch) > 3000:
                flush()
        flush()
        return [{"_id": p, "size": size, "sha256": hashes.get(p, "")} for p, size in files]

    # -- writing -------------------------------------------------------------------------
    def _wrote(self) -> None:
        if self._on_write is not None:
            self._on_write()

    def _ids(self, table: str) -> set[Any]:
        return {r["_id"] for r in self.query(table)}

    def _writable(self, table: str) -> str:
        if not is_common(table):
            raise Unsupported(f"{table!r} is a PhoneWorld app's table; a real phone has no "
                              "provider for it")
        if table not in WRITABLE_TABLES:
            raise Unsupported(f"{table!r} is not writable with insert/update/delete; writable: "
                              f"{', '.join(WRITABLE_TABLES)}")
        if table in self.unserved:
            raise Unsupported(f"{table}: {self.unserved[table]}")
        return URIS[table]

    def _run_content(self, command: str, what: str) -> None:
        """A write through ``content``: a provider that refuses the values raises
        ``ValueError`` (as PhoneWorld's verbs do), one the phone does not serve
        :class:`Unsupported`."""
        out = self._sh.shell(command)
        try:
            check_content_output(out, what)
        except ContentError as e:
            raise ValueError(str(e)) from None
        self._wrote()

    def insert(self, table: str, row: Row) -> Any:
        """``content insert``; the new row's ``_id`` (the one id that was not there before)."""
        uri = self._writable(table)
        clean = check_row(table, row)
        before = self._ids(table)
        if table == "contacts" and self._flat_contacts is False:
            return self._insert_android_contact(clean, before)
        binds = [a for k, v in clean.items() for a in ("--bind", bind(k, v))]
        self._run_content(q("content", "insert", "--uri", uri, *binds), f"insert into {table}")
        new = self._ids(table) - before
        if len(new) != 1:
            raise DeviceError(f"insert into {table}: expected one new row, found "
                              f"{sorted(new, key=str) or 'none'}")
        return new.pop()

    def update(self, table: str, row_id: Any, values: Row) -> None:
        """``content update --where "_id=N"`` (``ValueError`` for an unknown id)."""
        uri = self._writable(table)
        clean = check_row(table, values)
        rid = self._existing(table, row_id)
        if not clean:
            return
        if table == "contacts" and self._flat_contacts is False:
            self._update_android_contact(rid, clean)
            return
        binds = [a for k, v in clean.items() for a in ("--bind", bind(k, v))]
        self._run_content(q("content", "update", "--uri", uri, *binds, "--where", f"_id={rid}"),
                          f"update of {table} row {rid}")

    def delete(self, table: str, row_id: Any) -> None:
        """``content delete --where "_id=N"`` (``ValueError`` for an unknown id)."""
        uri = self._writable(table)
        rid = self._existing(table, row_id)
        self._run_content(q("content", "delete", "--uri", uri, "--where", f"_id={rid}"),
                          f"delete of {table} row {rid}")

    def _existing(self, table: str, row_id: Any) -> int:
        if isinstance(row_id, bool) or not isinstance(row_id, int):
            try:
                rid = int(str(row_id))
            except ValueError:
                raise ValueError(f"no {table} row with _id {row_id!r}") from None
        else:
            rid = int(row_id)
        if rid not in self._ids(table):
            raise ValueError(f"no {table} row with _id {row_id!r}")
        return rid

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        """``settings put NAMESPACE KEY VALUE``."""
        _check_setting(namespace, key)
        out = self._sh.shell(q("settings", "put", namespace, key, str(value)))
        if out.strip():
            raise DeviceError(f"settings put {namespace} {key} failed: {_short(out)}")
        self._wrote()

    def push_file(self, path: str, data: bytes) -> None:
        """``adb push`` of ``data`` to ``path`` (under ``/sdcard/``)."""
        if not isinstance(path, str) or not _FILE_PATH.match(path) or "/../" in path + "/":
            raise ValueError(f"files go under /sdcard/ (no '..'), got {path!r}")
        if not isinstance(data, (bytes, bytearray)) or len(data) > MAX_FILE:
            raise ValueError(f"file data must be bytes of at most {MAX_FILE} bytes")
        self._sh.push(path, bytes(data))
        self._wrote()

    # -- Android's own contacts provider ----------------------------------------------------
    def _insert_android_contact(self, row: Row, before: set[Any]) -> Any:
        """A contact on Android's provider: a raw contact, then one data row per column."""
        raws = "content://com.android.contacts/raw_contacts"
        raw_before = {r["_id"] for r in self._raw_contacts()}
        self._run_content(q("content", "insert", "--uri", raws, "--bind", "account_type:n:",
                            "--bind", "account_name:n:"), "insert of a raw contact")
        new_raw = [r for r in self._raw_contacts() if r["_id"] not in raw_before]
        if len(new_raw) != 1:
            raise DeviceError("insert into contacts: the new raw contact was not found")
        raw_id = int(new_raw[0]["_id"])
        self._android_data(raw_id, row)
        cid = new_raw[0].get("contact_id")
        if cid is None:
            new = self._ids("contacts") - before
            cid = new.pop() if len(new) == 1 else None
        if cid is None:
            raise DeviceError("insert into contacts: the new contact was not found")
        if row.get("starred"):
            self._update_android_contact(int(cid), {"starred": row["starred"]})
        return int(cid)

    def _raw_contacts(self) -> list[Row]:
        cols = ("_id", "contact_id")
        out = self._sh.shell(q("content", "query", "--uri",
                               "content://com.android.contacts/raw_contacts",
                               "--projection", ":".join(cols)))
        return parse_rows(out, cols, "raw_contacts")

    def _android_data(self, raw_id: int, values: Row, existing: dict[str, int] | None = None
                      ) -> None:
        """Insert (or, with ``existing`` mimetype -> data ``_id``, update) data rows."""
        mimes = {v: k for k, v in CONTACT_MIMETYPES.items()}
        mimes["display_name"] = "vnd.android.cursor.item/name"
        for col, value in values.items():
            if col == "starred":
                continue
            mime = mimes[col]
            if existing and mime in existing:
                self._run_content(q("content", "update", "--uri",
                                    "content://com.android.contacts/data",
                                    "--bind", bind("data1", str(value)),
                                    "--where", f"_id={int(existing[mime])}"),
                                  f"update of contact {col}")
                continue
            binds = ["--bind", f"raw_contact_id:i:{raw_id}", "--bind", f"mimetype:s:{mime}",
                     "--bind", bind("data1", str(value))]
            if col == "number":
                binds += ["--bind", "data2:i:2"]  # TYPE_MOBILE
            self._run_content(q("content", "insert", "--uri",
                                "content://com.android.contacts/data", *binds),
                              f"insert of contact {col}")

    def _update_android_contact(self, cid: int, values: Row) -> None:
        if "starred" in values:
            self._run_content(q("content", "update", "--uri", URIS["contacts"],
                                "--bind", bind("starred", int(bool(int(values["starred"])))),
                                "--where", f"_id={cid}"), f"update of contact {cid}")
        rest = {k: v for k, v in values.items() if k != "starred"}
        if not rest:
            return
        cols = ("_id", "raw_contact_id", "contact_id", "mimetype")
        out = self._sh.shell(q("content", "query", "--uri", "content://com.android.contacts/data",
                               "--projection", ":".join(cols)))
        mine = [r for r in parse_rows(out, cols, "data") if r.get("contact_id") == cid]
        if not mine:
            raise DeviceError(f"update of contact {cid}: it has no data rows")
        existing = {str(r["mimetype"]): int(r["_id"]) for r in mine}
        self._android_data(int(mine[0]["raw_contact_id"]), rest, existing)


def check_row(table: str, row: Row) -> Row:
    """PhoneWorld's column check (:meth:`SimWriteVerbs._check_row`): a dict of the table's
    columns, ``_id`` excluded."""
    if not isinstance(row, dict):
        raise ValueError(f"a {table} row must be a dict, got {type(row).__name__}")
    allowed = set(COMMON_TABLES[table]) - {"_id"}
    unknown = set(row) - allowed
    if unknown:
        raise ValueError(f"{table} has no columns {sorted(unknown)}; columns: {sorted(allowed)}")
    return {k: copy.deepcopy(v) for k, v in row.items()}


def _check_setting(namespace: str, key: str) -> None:
    if namespace not in SETTINGS_NAMESPACES:
        raise ValueError(f"settings namespace must be one of {SETTINGS_NAMESPACES}, "
                         f"got {namespace!r}")
    if not isinstance(key, str) or not _SETTING_KEY.match(key):
        raise ValueError(f"bad settings key {key!r} (letters, digits, _.:- only)")

