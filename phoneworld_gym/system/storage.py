"""Shared storage (``/sdcard``): the phone's ``files`` table, which every app reads and writes
through :class:`~phoneworld_gym.app.Ctx` and tasks through ``push_file`` and the probe.

An SD card, where a phone has one, is mounted as Android mounts it, at
``/storage/XXXX-XXXX/`` (its volume id): its files are rows of the same table.

Rows live in ``world.system["files"]``, sorted by path: ``_id`` (the path), ``size``,
``sha256`` and ``data`` (the bytes, base64). Folders are implied by the files under them, as
``adb``'s sync service lists them; a folder with nothing in it does not exist here.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phoneworld_gym.world import World

ROOT = "/sdcard/"
MAX_FILE = 16 << 20
_PATH = re.compile(r"^(/sdcard|/storage/[0-9A-F]{4}-[0-9A-F]{4})/[^\x00]{1,512}$")


def check_path(path: str) -> str:
    """``path`` when it is a file path under ``/sdcard/`` (or an SD card's
    ``/storage/XXXX-XXXX/``) with no ``..``; else ``ValueError``."""
    if not isinstance(path, str) or not _PATH.match(path) or "/../" in path + "/" \
            or path.endswith("/") or "//" in path:
        raise ValueError(f"files go under /sdcard/ or an SD card's /storage/XXXX-XXXX/ (no "
                         f"'..', no trailing '/'), got {path!r}")
    return path


def _rows(world: World) -> list[dict[str, Any]]:
    return world.system.setdefault("files", [])


def row_for(path: str, data: bytes) -> dict[str, Any]:
    """The table row of a file."""
    if not isinstance(data, (bytes, bytearray)) or len(data) > MAX_FILE:
        raise ValueError(f"file data must be bytes of at most {MAX_FILE} bytes")
    return {"_id": check_path(path), "size": len(data),
            "sha256": hashlib.sha256(bytes(data)).hexdigest(),
            "data": base64.b64encode(bytes(data)).decode("ascii")}


def list_files(world: World, folder: str = ROOT) -> list[dict[str, Any]]:
    """Files under ``folder`` (recursively), without their bytes."""
    prefix = folder if folder.endswith("/") else folder + "/"
    return [{"path": r["_id"], "size": r["size"], "sha256": r["sha256"]}
            for r in _rows(world) if str(r["_id"]).startswith(prefix)]


def read(world: World, path: str) -> bytes:
    for r in _rows(world):
        if r["_id"] == path:
            return base64.b64decode(r["data"])
    raise KeyError(f"no file {path!r}")


def write(world: World, path: str, data: bytes) -> None:
    """Create or replace one file."""
    new = row_for(path, data)
    if any(str(r["_id"]).startswith(path + "/") for r in _rows(world)):
        raise ValueError(f"{path!r} is a folder")
    rows = [r for r in _rows(world) if r["_id"] != path]
    rows.append(new)
    world.system["files"] = sorted(rows, key=lambda r: str(r["_id"]))


def _under(path: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The row at ``path`` or the rows under the folder ``path``."""
    folder = path.rstrip("/") + "/"
    return [r for r in rows if r["_id"] == path or str(r["_id"]).startswith(folder)]


def delete(world: World, path: str) -> None:
    """Delete a file or a folder with everything under it (``KeyError`` when neither)."""
    rows = _rows(world)
    gone = _under(path, rows)
    if not gone:
        raise KeyError(f"no file or folder {path!r}")
    ids = {id(r) for r in gone}
    world.system["files"] = [r for r in rows if id(r) not in ids]


def move(world: World, src: str, dst: str, *, keep: bool = False) -> None:
    """Move (``keep``: copy) a file or folder to ``dst``; an existing file there is replaced,
    moving a folder into itself is refused."""
    check_path(dst)
    rows = _rows(world)
    moving = _under(src, rows)
    if not moving:
        raise KeyError(f"no file or folder {src!r}")
    if dst == src or dst.startswith(src.rstrip("/") + "/"):
        raise ValueError(f"cannot move {src!r} into itself")
    renamed = []
    for r in moving:
        new_id = dst + str(r["_id"])[len(src):]
        renamed.append({**r, "_id": check_path(new_id)})
    ids = {id(r) for r in moving} if not keep else set()
    new_ids = {r["_id"] for r in renamed}
    kept = [r for r in rows if id(r) not in ids and r["_id"] not in new_ids]
    world.system["files"] = sorted(kept + renamed, key=lambda r: str(r["_id"]))
