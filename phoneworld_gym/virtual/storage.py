"""The virtual phone's file system, as ``adb push``/``pull``, ``ls``, ``cat`` and ``rm`` see it.

- ``/sdcard/...`` (also reached as ``/storage/emulated/0/...`` and ``/storage/self/primary``)
  is the phone's shared storage: the device's ``files`` table. Writes go through
  :meth:`Device.push_file`; reads come from PhoneWorld's ``files`` rows, which keep each
  file's bytes (``world.system["files"]``, base64 in ``data``).
- ``/data/local/tmp/...`` is scratch space kept in memory by the server (``uiautomator dump``
  to ``/data/local/tmp/uidump.xml`` lands here, as ``adbutils`` expects).
- ``/dev/null`` reads empty and swallows writes. Every other path is read-only; a few system
  folders exist so that ``ls /`` looks like a phone.

Not thread-safe by itself: the server calls it with the device lock held.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import posixpath
import stat
from typing import Any

#: the largest file (matches PhoneWorld's ``push_file`` limit)
MAX_FILE = 16 << 20
#: the most bytes the in-memory scratch space holds in all
MAX_SCRATCH = 64 << 20
#: the most bytes the shared storage holds in all (the phone's files, kept in its world as
#: base64 and copied with it, cost about twice that in memory): past it, a write fails with
#: "No space left on device", as on a full phone
SDCARD_QUOTA = 64 << 20
SDCARD = "/sdcard"
SCRATCH = "/data/local/tmp"
_ALIASES = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard")
#: folders that always exist (the read-only rest of the phone)
SYSTEM_DIRS = frozenset({
    "/", "/sdcard", "/data", "/data/local", "/data/local/tmp", "/storage", "/storage/emulated",
    "/storage/emulated/0", "/storage/self", "/system", "/system/bin", "/dev", "/proc", "/mnt",
    "/sdcard/Download", "/sdcard/Pictures", "/sdcard/DCIM", "/sdcard/Documents",
    "/sdcard/Music", "/sdcard/Movies",
})
DIR_MODE = stat.S_IFDIR | 0o771
FILE_MODE = stat.S_IFREG | 0o660


class StorageError(OSError):
    """A file operation failed; the message reads like toybox's (``X: No such file or
    directory``)."""


def _epoch(device: Any) -> int:
    """The phone clock as seconds since 1970 (files' mtime), 0 if the device has none."""
    world = getattr(device, "world", None)
    try:
        return int(dt.datetime.fromisoformat(world.clock).replace(  # type: ignore[union-attr]
            tzinfo=dt.timezone.utc).timestamp())
    except (AttributeError, TypeError, ValueError):
        return 0


class Storage:
    """Files of one virtual phone (see the module docstring)."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.scratch: dict[str, bytes] = {}
        #: folders made with ``mkdir`` (or implied by pushes) that hold no file yet
        self.made_dirs: set[str] = set()

    # -- paths -------------------------------------------------------------------------
    @staticmethod
    def resolve(path: str, cwd: str = "/") -> str:
        """An absolute, normalised path with the shared-storage aliases mapped to
        ``/sdcard`` (``/storage/emulated/0/a/../b`` -> ``/sdcard/b``)."""
        if "\0" in path:
            raise StorageError(f"{path!r}: Invalid argument")
        full = posixpath.normpath(posixpath.join(cwd or "/", path))
        if full.startswith("//"):
            full = "/" + full.lstrip("/")
        for alias in _ALIASES:
            if full == alias or full.startswith(alias + "/"):
                full = SDCARD + full[len(alias):]
        return full

    # -- the shared storage (device files table) ------------------------------------------
    def _sdcard_rows(self) -> list[dict[str, Any]]:
        world = getattr(self.device, "world", None)
        system = getattr(world, "system", None)
        if not isinstance(system, dict):
            return []
        rows = system.get("files", [])
        return rows if isinstance(rows, list) else []

    def _sdcard_files(self) -> dict[str, dict[str, Any]]:
        return {str(r["_id"]): r for r in self._sdcard_rows() if "_id" in r}

    def _all_files(self) -> dict[str, int]:
        """Every file path with its size."""
        out = {p: int(r.get("size", 0)) for p, r in self._sdcard_files().items()}
        out.update({p: len(d) for p, d in self.scratch.items()})
        return out

    # -- queries ------------------------------------------------------------------------
    def is_file(self, path: str) -> bool:
        """Whether ``path`` (resolved) is a file."""
        return path == "/dev/null" or path in self.scratch or path in self._sdcard_files()

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` (resolved) is a folder: a system folder, one made with ``mkdir``
        or a parent of some file."""
        if path in SYSTEM_DIRS or path in self.made_dirs:
            return True
        prefix = path.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self._all_files()) or \
            any(d.startswith(prefix) for d in self.made_dirs)

    def exists(self, path: str) -> bool:
        """Whether ``path`` is a file or a folder."""
        return self.is_file(path) or self.is_dir(path)

    def stat(self, path: str) -> tuple[int, int, int] | None:
        """``(mode, size, mtime)`` of a file or folder, ``None`` when there is none."""
        mtime = _epoch(self.device)
        if path == "/dev/null":
            return stat.S_IFCHR | 0o666, 0, mtime
        if self.is_file(path):
            return FILE_MODE, len(self.read(path)), mtime
        if self.is_dir(path):
            return DIR_MODE, 4096, mtime
        return None

    def read(self, path: str) -> bytes:
        """A file's bytes (:class:`StorageError` when there is no such file)."""
        if path == "/dev/null":
            return b""
        if path in self.scratch:
            return self.scratch[path]
        row = self._sdcard_files().get(path)
        if row is not None:
            try:
                return base64.b64decode(str(row.get("data", "")), validate=True)
            except (binascii.Error, ValueError):
                raise StorageError(f"{path}: I/O error") from None
        if self.is_dir(path):
            raise StorageError(f"{path}: Is a directory")
        raise StorageError(f"{path}: No such file or directory")

    def listdir(self, path: str) -> list[tuple[str, bool, int]]:
        """The entries of a folder, sorted: ``(name, is_folder, size)``."""
        if self.is_file(path):
            raise StorageError(f"{path}: Not a directory")
        if not self.is_dir(path):
            raise StorageError(f"{path}: No such file or directory")
        prefix = "/" if path == "/" else path + "/"
        entries: dict[str, tuple[bool, int]] = {}
        for p, size in self._all_files().items():
            if p.startswith(prefix):
                rest = p[len(prefix):]
                name, sep, _ = rest.partition("/")
                if name:
                    entries[name] = (True, 4096) if sep else entries.get(name, (False, size))
        for d in SYSTEM_DIRS | self.made_dirs:
            if d.startswith(prefix) and d != path:
                name = d[len(prefix):].split("/", 1)[0]
                if name:
                    entries[name] = (True, 4096)
        return [(n, is_dir, size) for n, (is_dir, size) in sorted(entries.items())]

    def room(self, path: str) -> int:
        """The most bytes a write may put at ``path`` (resolved): the file size limit, or less
        where the space ``path`` is on is nearly full (the file it replaces counts as free)."""
        if path.startswith(SDCARD + "/"):
            files = self._sdcard_files()
            used = sum(int(r.get("size", 0)) for p, r in files.items() if p != path)
            return max(0, min(MAX_FILE, SDCARD_QUOTA - used))
        if path.startswith(SCRATCH + "/"):
            used = sum(len(d) for p, d in self.scratch.items() if p != path)
            return max(0, min(MAX_FILE, MAX_SCRATCH - used))
        return MAX_FILE

    # -- changes ------------------------------------------------------------------------
    def _check_writable(self, path: str) -> None:
        if path == "/dev/null":
            return
        if not (path.startswith(SDCARD + "/") or path.startswith(SCRATCH + "/")):
            raise StorageError(f"{path}: Read-only file system")
        if self.is_dir(path):
            raise StorageError(f"{path}: Is a directory")
        parent = posixpath.dirname(path)
        if self.is_file(parent):
            raise StorageError(f"{path}: Not a directory")

    def write(self, path: str, data: bytes, append: bool = False) -> None:
        """Create or replace a file (``append`` adds to its end); missing parent folders are
        made, as adbd does for ``adb push``."""
        self._check_writable(path)
        if path == "/dev/null":
            return
        if append and self.is_file(path):
            data = self.read(path) + data
        if len(data) > MAX_FILE:
            raise StorageError(f"{path}: File too large (over {MAX_FILE} bytes)")
        if len(data) > self.room(path):
            raise StorageError(f"{path}: No space left on device")
        if path.startswith(SDCARD + "/"):
            try:
                self.device.push_file(path, bytes(data))
            except ValueError as e:
                raise StorageError(f"{path}: {e}") from None
            return
        self.scratch[path] = bytes(data)

    def remove(self, path: str) -> None:
        """Delete one file (:class:`StorageError` if it is missing, a folder or read-only)."""
        if not self.is_file(path) or path == "/dev/null":
            if self.is_dir(path):
                raise StorageError(f"{path}: Is a directory")
            raise StorageError(f"{path}: No such file or directory")
        if path in self.scratch:
            del self.scratch[path]
            return
        world = getattr(self.device, "world", None)
        if world is None or not isinstance(getattr(world, "system", None), dict):
            raise StorageError(f"{path}: Read-only file system")
        world.system["files"] = [r for r in self._sdcard_rows() if str(r.get("_id")) != path]
        invalidate = getattr(self.device, "invalidate", None)
        if callable(invalidate):
            invalidate()

    def remove_tree(self, path: str) -> None:
        """Delete a folder and everything under it (``rm -r``)."""
        if path in SYSTEM_DIRS and not (path.startswith(SDCARD + "/") or
                                        path.startswith(SCRATCH + "/")):
            raise StorageError(f"{path}: Read-only file system")
        if not (path.startswith(SDCARD + "/") or path.startswith(SCRATCH + "/")):
            raise StorageError(f"{path}: Read-only file system")
        prefix = path + "/"
        for p in [p for p in self._all_files() if p.startswith(prefix)]:
            self.remove(p)
        self.made_dirs = {d for d in self.made_dirs if d != path and not d.startswith(prefix)}

    def mkdir(self, path: str, parents: bool = False) -> None:
        """Make a folder (``parents``: and its missing parents, no error if it exists)."""
        if self.is_dir(path):
            if parents:
                return
            raise StorageError(f"{path}: File exists")
        if self.is_file(path):
            raise StorageError(f"{path}: File exists")
        if not (path.startswith(SDCARD + "/") or path.startswith(SCRATCH + "/")):
            raise StorageError(f"{path}: Read-only file system")
        parent = posixpath.dirname(path)
        if not self.is_dir(parent):
            if not parents:
                raise StorageError(f"{path}: No such file or directory")
            self.mkdir(parent, parents=True)
        self.made_dirs.add(path)
