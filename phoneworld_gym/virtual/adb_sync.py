"""The ``sync:`` service: ``adb push``, ``adb pull`` and ``adb ls`` (STAT, LIST, RECV, SEND,
QUIT), over the phone's :class:`~phoneworld_gym.virtual.storage.Storage`.

The stream is a byte stream: requests may be split or merged across packets, so the session
reads exactly the bytes it needs through ``read`` (``None`` when the host closed the
stream) and answers through ``write``. Storage is touched only through ``call``, which runs a
function with the phone locked, off the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from phoneworld_gym.virtual.adb_protocol import (
    SYNC_ID,
    SYNC_MAX_DATA,
    SYNC_MAX_PATH,
    sync_dent,
    sync_fail,
    sync_message,
    sync_stat,
)
from phoneworld_gym.virtual.storage import DIR_MODE, MAX_FILE, Storage, StorageError

Reader = Callable[[], Awaitable[bytes | None]]
Writer = Callable[[bytes], Awaitable[None]]
Caller = Callable[[Callable[[], Any]], Awaitable[Any]]


class SyncEnd(Exception):
    """The session is over (QUIT, the host closed the stream, or a request we refuse)."""


class SyncSession:
    """One ``sync:`` stream (see the module docstring)."""

    def __init__(self, storage: Storage, read: Reader, write: Writer, call: Caller) -> None:
        self.storage = storage
        self._read = read
        self._write = write
        self._call = call
        self._buf = bytearray()

    async def _need(self, n: int) -> bytes:
        while len(self._buf) < n:
            data = await self._read()
            if data is None:
                raise SyncEnd("the host closed the stream")
            self._buf += data
        out = bytes(self._buf[:n])
        del self._buf[:n]
        return out

    async def _fail(self, message: str) -> None:
        await self._write(sync_fail(message))
        raise SyncEnd(message)

    async def run(self) -> None:
        """Serve requests until QUIT, the host's close, or a malformed request (which gets a
        FAIL first)."""
        try:
            while True:
                ident, length = SYNC_ID.unpack(await self._need(8))
                if ident == b"QUIT":
                    return
                if ident not in (b"STAT", b"LIST", b"RECV", b"SEND"):
                    await self._fail(f"unknown sync request {ident!r}")
                if length > SYNC_MAX_PATH:
                    await self._fail(f"path too long ({length} > {SYNC_MAX_PATH})")
                path = (await self._need(length)).decode("utf-8", "replace")
                if ident == b"STAT":
                    await self._stat(path)
                elif ident == b"LIST":
                    await self._list(path)
                elif ident == b"RECV":
                    await self._recv(path)
                else:
                    await self._send(path)
        except SyncEnd:
            return

    def _resolve(self, path: str) -> str:
        return self.storage.resolve(path or "/")

    async def _stat(self, path: str) -> None:
        def look() -> tuple[int, int, int]:
            try:
                st = self.storage.stat(self._resolve(path))
            except StorageError:
                st = None
            return st or (0, 0, 0)

        mode, size, mtime = await self._call(look)
        await self._write(sync_stat(mode, size, mtime))

    async def _list(self, path: str) -> None:
        def entries() -> list[tuple[str, int, int, int]]:
            try:
                full = self._resolve(path)
                listing = self.storage.listdir(full)
                st = self.storage.stat(full)
            except StorageError:
                return []
            mtime = st[2] if st else 0
            out = [(".", DIR_MODE, 4096, mtime), ("..", DIR_MODE, 4096, mtime)]
            for name, is_dir, size in listing:
                mode = DIR_MODE if is_dir else 0o100660
                out.append((name, mode, size, mtime))
            return out

        reply = [sync_dent(mode, size, mtime, name.encode("utf-8", "replace"))
                 for name, mode, size, mtime in await self._call(entries)]
        # one write for the whole reply: the host's adb server passes each packet on as a
        # separate write, and small trailing writes wait out a delayed ACK on its side
        await self._write(b"".join(reply) + b"DONE" + bytes(16))

    async def _recv(self, path: str) -> None:
        def read() -> bytes | str:
            try:
                return self.storage.read(self._resolve(path))
            except StorageError as e:
                return str(e).split(": ", 1)[-1]

        data = await self._call(read)
        if isinstance(data, str):
            await self._write(sync_fail(data))
            return
        reply = [sync_message(b"DATA", len(data[k:k + SYNC_MAX_DATA]), data[k:k + SYNC_MAX_DATA])
                 for k in range(0, len(data), SYNC_MAX_DATA)]
        await self._write(b"".join(reply) + sync_message(b"DONE", 0))  # one write: see _list

    async def _send(self, spec: str) -> None:
        path, comma, _mode = spec.rpartition(",")
        if not comma:
            path = spec

        def room() -> int:
            try:
                return self.storage.room(self._resolve(path))
            except StorageError:
                return MAX_FILE  # a bad path: storing it fails below, with its own message

        # what the file may hold is known before any byte arrives: a push past it fails at
        # the chunk that crosses it, so the server never holds more than that
        limit = await self._call(room)
        data = bytearray()
        while True:
            ident, length = SYNC_ID.unpack(await self._need(8))
            if ident == b"DONE":
                break
            if ident != b"DATA":
                await self._fail(f"expected DATA or DONE during SEND, got {ident!r}")
            if length > SYNC_MAX_DATA:
                await self._fail(f"DATA chunk too large ({length} > {SYNC_MAX_DATA})")
            if len(data) + length > MAX_FILE:
                await self._fail(f"file too large (over {MAX_FILE} bytes)")
            if len(data) + length > limit:
                await self._fail(f"write failed: No space left on device ({limit} bytes free)")
            data += await self._need(length)

        def store() -> str | None:
            try:
                self.storage.write(self._resolve(path), bytes(data))
            except StorageError as e:
                return f"couldn't create file: {str(e).split(': ', 1)[-1]}"
            return None

        error = await self._call(store)
        if error is not None:
            await self._write(sync_fail(error))
            return
        await self._write(sync_message(b"OKAY", 0))

