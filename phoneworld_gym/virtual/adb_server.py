"""The virtual adb phone: a PhoneWorld phone served over the adb device protocol on TCP, the
way ``adb connect HOST:PORT`` talks to a phone with wireless debugging on.

    with VirtualPhone(seed=3) as phone:          # loopback, a free port
        os.system(f"adb connect {phone.serial}")
        os.system(f"adb -s {phone.serial} shell input tap 540 1200")

or from a terminal: ``phoneworld serve-adb --port 6520 --seed 3``.

Services: ``shell:CMD`` (legacy shell: :mod:`~phoneworld_gym.virtual.shell` parses the
line, :mod:`~phoneworld_gym.virtual.commands` runs it; an empty command is an
interactive prompt), ``exec:CMD`` (``adb exec-out``), ``sync:`` (push, pull, ls) and
``root:`` (refused politely, as production phones do). No real shell and no subprocess is
ever started. Authentication is off (the phone answers CNXN straight away), so bind to
loopback unless the network is trusted.

One asyncio loop on a background thread serves every connection; commands run on worker
threads with the phone locked (``PhoneWorldDevice`` is not thread-safe), so several clients
may talk at once. A malformed packet closes its own connection and nothing else.

No client can lock the others out: a connection without CNXN
:attr:`VirtualPhone.handshake_timeout` after connecting, or silent for
:attr:`VirtualPhone.idle_timeout` after it with no stream open (counted from the last
packet it sent), is closed (the adb server reconnects on its own when it next needs the
phone). Past :data:`MAX_CONNECTIONS` open, or :data:`MAX_CONNECTIONS_PER_PEER` from one
address, a newcomer is let in and the connections least worth keeping are closed instead (of
that address's own, when it is the one over its share): first one that sent packets no adb
host sends, then one still without CNXN, then one that never opened a stream, and last the
clients at work, the longest silent first in each group.

Two things keep a flood from burying a good client on a busy machine, where the loop falls
behind and finds dozens of connections waiting in the kernel's queue, most from clients
that already left, with a good client's CNXN unread among them. Nobody is judged before the
server has read what is already waiting on every connection accepted so far (judged on
arrival, that good client looked like one more connection without CNXN and was closed to
make room for the dead ones behind it; turning newcomers away at the cap, before that,
dropped it the same way). And connections are taken from the queue
:data:`ACCEPTS_PER_TURN` at a time, so each turn of the loop also serves the clients already
connected (taking the whole queue at once, each turn set up hundreds of connections before
reading anyone's next packet, and a good client's command outlasted its timeout).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import ipaddress
import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from phoneworld_gym.virtual.adb_protocol import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_STLS,
    A_VERSION,
    A_WRTE,
    HEADER_SIZE,
    MAX_PAYLOAD,
    Packet,
    ProtocolError,
    device_banner,
    parse_header,
    service_name,
)
from phoneworld_gym.virtual.adb_sync import SyncSession
from phoneworld_gym.virtual.commands import PhoneCommands
from phoneworld_gym.virtual.shell import MAX_SCRIPT, Env, Shell, Sink
from phoneworld_gym.virtual.storage import Storage, StorageError

log = logging.getLogger("phoneworld.adb")
T = TypeVar("T")

#: the port ``phoneworld serve-adb`` uses by default: outside 5555-5585, which the adb
#: server probes on start and would register as an emulator
DEFAULT_PORT = 6520
#: ports the adb server scans for emulators
EMULATOR_PORTS = range(5555, 5586)
#: connections served at once; past it the least useful are closed (see above)
MAX_CONNECTIONS = 64
#: connections from one address served at once (the same, among that address's own); with
#: every client on loopback this is the cap that applies
MAX_CONNECTIONS_PER_PEER = 48
#: the kernel's queue of connections not accepted yet
BACKLOG = 256
#: connections taken from that queue in one turn of the event loop (see ``_accept_loop``)
ACCEPTS_PER_TURN = 16
#: streams one connection may hold open
MAX_STREAMS = 64
#: host packets queued on one stream before it must have been read (the host waits for
#: OKAY after each WRTE, so a well-behaved one never has more than one)
MAX_QUEUED = 16
#: seconds a connection has, from connecting, to send its CNXN
HANDSHAKE_TIMEOUT = 10.0
#: seconds a connection with no stream open may stay silent after its CNXN
IDLE_TIMEOUT = 300.0
#: the smallest packet size a host may ask for
MIN_MAXDATA = 4096
PROMPT = "phoneworld:{cwd} $ "


def default_props(seed: int, serial: str) -> dict[str, str]:
    """The ``getprop`` properties of the virtual phone (a Pixel-class phone on Android 14)."""
    return {
        "ro.product.model": "PhoneWorld", "ro.product.name": "phoneworld",
        "ro.product.device": "phoneworld", "ro.product.brand": "phoneworld",
        "ro.product.manufacturer": "PhoneWorld", "ro.build.version.release": "14",
        "ro.build.version.sdk": "34", "ro.build.type": "user", "ro.build.tags": "release-keys",
        "ro.build.characteristics": "default", "ro.product.cpu.abi": "arm64-v8a",
        "ro.sf.lcd_density": "420", "ro.serialno": serial, "ro.boot.serialno": serial,
        "ro.debuggable": "0", "ro.secure": "1", "sys.boot_completed": "1",
        "persist.sys.timezone": "UTC", "ro.phoneworld.seed": str(seed),
        "ro.build.id": "UQ1A.240205.004", "ro.build.version.incremental": "11269751",
        "ro.build.fingerprint": "phoneworld/phoneworld/phoneworld:14/UQ1A.240205.004/"
                                "11269751:user/release-keys",
    }


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class VirtualPhone:
    """A phone served over adb (see the module docstring).

    ``device`` is the phone to serve (default: a new ``PhoneWorldDevice`` with full-size
    1080 x 2400 screenshots, reset with ``seed``; a device you pass is served as it is).
    ``port`` 0 picks a free one; :attr:`port` and :attr:`serial` tell which after
    :meth:`start`. Use as a context manager, or :meth:`start` and :meth:`stop`.

    ``profile`` is the kind of phone built when ``device`` is None: ``"clean"`` (the tidy
    PhoneWorld phone) or ``"field"`` (a :class:`~phoneworld_gym.virtual.field.FieldPhone`:
    seeded interstitial prompts, a stale first dump after each action, a per-seed colour
    theme; see ``docs/real-devices.md``). It is served as ``getprop ro.phoneworld.profile``.
    A device you pass keeps its own profile, so ``profile="field"`` with a device that is
    not a ``FieldPhone`` is an error.

    Each :meth:`start` is a boot: ``cat /proc/sys/kernel/random/boot_id`` reads a new random
    UUID (:attr:`boot_id`), which is how ``AdbDevice`` tells that the phone it reconnected
    to is not the one it was talking to (a stopped phone's world is lost to its clients).
    """

    def __init__(self, device: Any = None, host: str = "127.0.0.1", port: int = 0,
                 seed: int = 0, profile: str = "clean") -> None:
        from phoneworld_gym.virtual.field import PROFILES, FieldPhone, make_device

        if profile not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
        if device is None:
            device = make_device(profile)
            device.reset(seed)
        elif profile == "field" and not isinstance(device, FieldPhone):
            raise ValueError("profile='field' needs a FieldPhone device (or none, to build "
                             f"one); got {type(device).__name__}")
        elif isinstance(device, FieldPhone):
            profile = "field"
        if not 0 <= int(port) <= 65535:
            raise ValueError(f"port must be in 0..65535, got {port}")
        self.device = device
        # "localhost" may resolve to two addresses, each given its own free port
        self.host = "127.0.0.1" if host == "localhost" else host
        self.seed = int(seed)
        self.lock = threading.RLock()
        self.storage = Storage(device)
        #: the device's profile: "clean" or "field"
        self.profile = profile
        self.props = default_props(self.seed, "phoneworld")
        self.props["ro.phoneworld.profile"] = profile
        self.commands = PhoneCommands(device, self.storage, self.props)
        self._requested_port = int(port)
        self._port: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._conns: set[_Connection] = set()
        self._reaper: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._crowded: asyncio.Event | None = None
        self._closing = False
        #: seconds a connection has to send its CNXN after connecting, then may stay silent
        #: with no stream open
        self.handshake_timeout = HANDSHAKE_TIMEOUT
        self.idle_timeout = IDLE_TIMEOUT
        #: counters for the curious: connections accepted, closed for bad packets, closed
        #: for silence, closed to make room (see the module docstring); streams opened
        self.stats = {"connections": 0, "protocol_errors": 0, "timeouts": 0, "evicted": 0,
                      "streams": 0}
        if int(port) in EMULATOR_PORTS:
            log.info("port %d is in 5555-5585: the adb server will also list it as an "
                        "emulator", port)
        if not is_loopback(host):
            log.info("serving adb on %s: anyone who can reach it controls the phone", host)

    # -- lifecycle ---------------------------------------------------------------------
    @property
    def port(self) -> int:
        """The port listened on (after :meth:`start`)."""
        if self._port is None:
            raise RuntimeError("the phone is not started")
        return self._port

    @property
    def serial(self) -> str:
        """What ``adb connect`` and ``adb -s`` call this phone: ``HOST:PORT``."""
        host = self.host
        if host in ("", "0.0.0.0", "::"):
            host = "127.0.0.1"
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    @property
    def boot_id(self) -> str:
        """What ``/proc/sys/kernel/random/boot_id`` reads: a new UUID at each :meth:`start`."""
        return self.commands.boot_id

    @property
    def running(self) -> bool:
        """Whether the server thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> VirtualPhone:
        """Bind and start serving on a background thread (``OSError`` if the address is
        taken). Returns ``self``."""
        if self.running:
            return self
        ready = threading.Event()
        failure: list[BaseException] = []
        self._closing = False
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=4, thread_name_prefix="phoneworld-adb-cmd")

        def main() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                listener = _listen(self.host, self._requested_port)
                self._port = int(listener.getsockname()[1])
            except BaseException as e:  # the caller re-raises it
                failure.append(e)
                ready.set()
                loop.close()
                return
            serial = f"phoneworld-{self._port}"
            self.props["ro.serialno"] = self.props["ro.boot.serialno"] = serial
            # every start is a boot: a new boot id, so a client can tell a restarted phone
            self.commands.boot_id = str(uuid.uuid4())
            self._reaper = loop.create_task(self._reap())
            self._crowded = asyncio.Event()
            self._keeper = loop.create_task(self._keep_room(self._crowded))
            acceptor = loop.create_task(self._accept_loop(listener))
            ready.set()
            try:
                loop.run_forever()
            finally:
                acceptor.cancel()
                with contextlib.suppress(BaseException):
                    loop.run_until_complete(acceptor)
                listener.close()
                self._shutdown(loop)
                loop.close()

        self._thread = threading.Thread(target=main, name="phoneworld-adb", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            self._thread = None
            self._executor.shutdown(wait=False)
            raise failure[0]
        log.info("virtual adb phone on %s:%d", self.host, self._port)
        return self

    def _shutdown(self, loop: asyncio.AbstractEventLoop) -> None:
        """End every connection and stream task before the loop closes (connections are
        closed first, so that each ends its own way, then whatever is left is cancelled)."""
        self._closing = True
        for _ in range(3):  # let accepted connections start (they close themselves now)
            loop.run_until_complete(asyncio.sleep(0))
        for conn in list(self._conns):
            conn.shutdown()
            with contextlib.suppress(Exception):
                conn.writer.close()
        accepting = list(self._connections)
        if accepting:
            with contextlib.suppress(Exception):
                loop.run_until_complete(asyncio.wait(accepting, timeout=5))
        rest = list(asyncio.all_tasks(loop))  # every one has started by now: safe to cancel
        for task in rest:
            task.cancel()
        if rest:
            with contextlib.suppress(Exception):
                loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))

    def stop(self) -> None:
        """Close every connection and stop serving (the phone's state is kept)."""
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
        self._thread = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def __enter__(self) -> VirtualPhone:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def serve_forever(self) -> None:
        """Start (if needed) and block until interrupted (Ctrl-C), then stop."""
        self.start()
        try:
            while self.running:
                assert self._thread is not None
                self._thread.join(timeout=0.5)
        finally:
            self.stop()

    # -- running commands ------------------------------------------------------------------
    def new_shell(self) -> Shell:
        """A shell over this phone (its own variables and working folder)."""
        env = Env(vars={"HOME": "/", "PATH": "/system/bin:/system/xbin", "USER": "shell",
                        "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data",
                        "HOSTNAME": "localhost", "TMPDIR": "/data/local/tmp"})

        def read(path: str, env: Env) -> bytes:
            try:
                return self.commands.read_file(path, env)
            except StorageError as e:
                raise OSError(str(e)) from None

        def write(path: str, data: bytes, append: bool, env: Env) -> None:
            try:
                self.storage.write(self.storage.resolve(path, env.cwd), data, append)
            except StorageError as e:
                raise OSError(f"can't create {path}: {str(e).split(': ', 1)[-1]}") from None

        return Shell(self.commands, read, write, env)

    def shell(self, command: str, shell: Shell | None = None) -> tuple[bytes, int]:
        """Run a command line on the phone as ``adb shell`` would, without any network:
        (output, exit status). Thread-safe."""
        sh = shell if shell is not None else self.new_shell()
        with self.lock:
            return sh.run(command)

    async def _call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on a worker thread with the phone locked."""
        def locked() -> T:
            with self.lock:
                return fn()

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, locked)

    # -- connections -------------------------------------------------------------------
    async def _reap(self) -> None:
        """Close connections silent for too long (see the module docstring), every so often."""
        while True:
            period = min(1.0, self.handshake_timeout / 4, self.idle_timeout / 4)
            await asyncio.sleep(max(0.02, period))
            now = time.monotonic()
            for conn in list(self._conns):
                if conn.closing:
                    continue
                if not conn.online:  # CNXN is due within the handshake timeout of connecting
                    if now - conn.born > self.handshake_timeout:
                        self.stats["timeouts"] += 1
                        conn.close(f"no CNXN {now - conn.born:.1f} s after connecting")
                elif not conn.streams and now - conn.heard > self.idle_timeout:
                    self.stats["timeouts"] += 1
                    conn.close(f"silent for {now - conn.heard:.1f} s with no stream open")

    def _live(self) -> list[_Connection]:
        """The connections open and not being closed."""
        return [c for c in self._conns if not c.closing]

    def _over_cap(self) -> bool:
        """Whether more connections are open than a cap allows (in all, or from one address)."""
        live = self._live()
        per_peer: dict[str, int] = {}
        for c in live:
            per_peer[c.peer] = per_peer.get(c.peer, 0) + 1
        return len(live) > MAX_CONNECTIONS or \
            any(n > MAX_CONNECTIONS_PER_PEER for n in per_peer.values())

    async def _keep_room(self, crowded: asyncio.Event) -> None:
        """Whenever a newcomer takes the count past a cap: close the connections least worth
        keeping until it is back under (see the module docstring), once everything waiting
        on the connections accepted so far has been read."""
        while True:
            await crowded.wait()
            crowded.clear()
            had_a_chance = set(self._conns)
            # a timer, however short, is only due after the loop has polled the sockets once
            # more: every one of these connections has been read since it was accepted, and
            # the next turn lets each act on what came (a CNXN is taken; a client that left,
            # or sent garbage, ends its own connection)
            await asyncio.sleep(0.001)
            await asyncio.sleep(0)
            if self._make_room(had_a_chance):
                crowded.set()  # newcomers that had no chance yet still count past a cap

    def _make_room(self, had_a_chance: set[_Connection]) -> bool:
        """Close the least useful connections until no cap is exceeded, sparing those still
        without CNXN that were accepted too recently to have been read; whether some cap is
        still exceeded."""
        live = self._live()
        by_peer: dict[str, list[_Connection]] = {}
        for c in live:
            by_peer.setdefault(c.peer, []).append(c)
        victims: list[_Connection] = []
        # an address over its own share gives up its own connections first; those of its
        # excess not judged yet (CNXN perhaps unread) go in a later round, and are already
        # counted as gone here, so that other addresses do not pay for the total cap meanwhile
        owed = 0
        for conns in by_peer.values():
            extra = len(conns) - MAX_CONNECTIONS_PER_PEER
            if extra > 0:
                chosen = _least_worth(conns, extra, had_a_chance)
                victims += chosen
                owed += extra - len(chosen)
        rest = [c for c in live if c not in victims]
        extra = len(rest) - owed - MAX_CONNECTIONS
        if extra > 0:
            victims += _least_worth(rest, extra, had_a_chance)
        for victim in victims:
            self.stats["evicted"] += 1
            victim.close(f"{len(live)} connections open ({len(by_peer[victim.peer])} from "
                         f"{victim.peer}): the least useful, {victim.describe()}")
        return self._over_cap()

    async def _accept_loop(self, listener: socket.socket) -> None:
        """Take connections from the kernel's queue, at most :data:`ACCEPTS_PER_TURN` each
        turn of the loop (asyncio's own server takes up to its backlog at once: see the
        module docstring). Connections not taken yet wait in the kernel's queue."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, _ = await loop.sock_accept(listener)
            except OSError as e:  # out of file descriptors, say: try again in a while
                log.warning("accepting a connection failed: %s", e)
                await asyncio.sleep(0.1)
                continue
            batch = [sock]
            while len(batch) < ACCEPTS_PER_TURN:
                try:
                    sock, _ = listener.accept()
                except OSError:  # none waiting (BlockingIOError), or as above
                    break
                batch.append(sock)
            for sock in batch:
                task = loop.create_task(self._accept(sock))
                self._connections.add(task)
                task.add_done_callback(self._connections.discard)
            await asyncio.sleep(0)  # the connections already open get a turn

    async def _accept(self, sock: socket.socket) -> None:
        if self._closing:
            sock.close()
            return
        # small replies go out at once (no Nagle delay on round trips)
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            reader, writer = await asyncio.open_connection(
                sock=sock, limit=MAX_PAYLOAD + HEADER_SIZE)
        except OSError as e:
            log.debug("a connection ended before it was set up: %r", e)
            sock.close()
            return
        if self._closing:  # the phone stopped meanwhile
            writer.close()
            return
        self.stats["connections"] += 1
        conn = _Connection(self, reader, writer)
        self._conns.add(conn)
        if self._crowded is not None and self._over_cap():
            self._crowded.set()  # room is made once this one has been read (_keep_room)
        try:
            await conn.run()
        except ProtocolError as e:
            self.stats["protocol_errors"] += 1
            log.debug("closing the connection from %s: %s", conn.name, e)
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
            if conn.closing:
                log.debug("closed the connection from %s: %s", conn.name, conn.closing)
            else:
                log.debug("the connection from %s ended: %r", conn.name, e)
        except asyncio.CancelledError:
            pass
        except Exception:  # never let one connection take the server down
            log.exception("unexpected error on an adb connection")
        finally:
            conn.shutdown()
            self._conns.discard(conn)
            # dropped at once (nothing unsent matters now), and the transport's end taken
            # here: a write error left in it is otherwise reported when it is collected
            writer.transport.abort()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


@dataclasses.dataclass(eq=False)
class _Stream:
    """One open stream: our id, the host's id, and what flows between them."""

    conn: _Connection
    local: int
    remote: int
    service: str
    inbox: asyncio.Queue[bytes | None] = dataclasses.field(default_factory=asyncio.Queue)
    acked: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    closed: bool = False
    task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.acked.set()

    async def read(self) -> bytes | None:
        """The next bytes the host wrote (acknowledged now), or ``None`` once it closed."""
        data = await self.inbox.get()
        if data is not None and not self.closed:
            await self.conn.send(Packet(A_OKAY, self.local, self.remote))
        return data

    async def write(self, data: bytes) -> None:
        """Send ``data`` to the host in packets it accepts, one WRTE per OKAY."""
        step = self.conn.max_data
        for k in range(0, len(data), step):
            await self.acked.wait()
            if self.closed:
                raise ConnectionResetError("the host closed the stream")
            self.acked.clear()
            await self.conn.send(Packet(A_WRTE, self.local, self.remote, data[k:k + step]))

    async def close(self) -> None:
        """Wait for the last OKAY, then CLSE (unless the host closed first)."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.acked.wait(), 30)
        if not self.closed:
            self.closed = True
            await self.conn.send(Packet(A_CLSE, self.local, self.remote))
        self.conn.streams.pop(self.local, None)


class _Connection:
    """One TCP connection from an adb server (or anything else that connects)."""

    def __init__(self, phone: VirtualPhone, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.phone = phone
        self.reader = reader
        self.writer = writer
        self.streams: dict[int, _Stream] = {}
        self.next_id = 1
        self.max_data = MAX_PAYLOAD
        self.online = False
        self._send_lock = asyncio.Lock()
        peer = writer.get_extra_info("peername")
        #: the address the connection came from (the per-address cap counts these)
        self.peer = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        #: the address and port, for the log
        self.name = f"{self.peer}:{peer[1]}" if isinstance(peer, tuple) and len(peer) > 1 \
            else self.peer
        #: when the connection was accepted, and when the host last sent a whole packet (or
        #: connected), on the monotonic clock
        self.born = self.heard = time.monotonic()
        #: streams this connection has opened (a client that did work is worth keeping)
        self.opened = 0
        #: packets no adb host sends (before CNXN, AUTH and STLS we never asked for, OPEN
        #: with no id to answer to): the first connections to go when room is needed
        self.junk = 0
        #: why the server closed the connection ("" while it has not)
        self.closing = ""

    def worth(self) -> tuple[int, float]:
        """How much the connection is worth keeping when room is needed (least first): one
        that sent packets no host sends, one without CNXN, one that never opened a stream,
        then a client at work (CNXN done and a stream opened); in each, the one silent
        longest first. A client at work is thus never closed while any connection of the
        other kinds is open."""
        rank = 0 if self.junk else 1 if not self.online else 2 if not self.opened else 3
        return rank, self.heard

    def describe(self) -> str:
        """The state the room-making judged, for the log."""
        kind = ("sent packets no host sends" if self.junk else "no CNXN" if not self.online
                else "never opened a stream" if not self.opened
                else f"{self.opened} streams opened")
        return (f"{self.name}, {kind}, silent for {time.monotonic() - self.heard:.2f} s")

    def close(self, why: str = "closed by the server") -> None:
        """Close the connection from the server's side, at once (its reader then ends;
        anything not sent yet is dropped, so a peer that reads nothing cannot hold it)."""
        if not self.closing:
            log.debug("closing the connection from %s: %s", self.name, why)
        self.closing = why or "closed by the server"
        self.writer.transport.abort()

    async def send(self, packet: Packet) -> None:
        """Write one packet."""
        async with self._send_lock:
            self.writer.write(packet.encode())
            await self.writer.drain()

    async def run(self) -> None:
        """Read packets until the peer goes or sends something malformed (or the server
        closes the connection: the reaper, for silence, or to make room). Bytes already
        received are taken without yielding to the loop (no ``wait_for`` task per read), so
        one loop turn after data arrives it has been acted on (see ``_keep_room``)."""
        while True:
            header = await self.reader.readexactly(HEADER_SIZE)
            command, arg0, arg1, length = parse_header(header, MAX_PAYLOAD)
            payload = await self.reader.readexactly(length) if length else b""
            self.heard = time.monotonic()
            await self.dispatch(Packet(command, arg0, arg1, payload))

    def shutdown(self) -> None:
        """Forget every stream and stop its service."""
        for stream in list(self.streams.values()):
            stream.closed = True
            stream.acked.set()
            stream.inbox.put_nowait(None)
            if stream.task is not None:
                stream.task.cancel()
        self.streams.clear()

    async def dispatch(self, p: Packet) -> None:
        """Act on one packet from the host."""
        if p.command == A_CNXN:
            self.shutdown()  # every CNXN resets the transport
            self.max_data = max(MIN_MAXDATA, min(p.arg1, MAX_PAYLOAD))
            banner = device_banner(self.phone.props)
            self.online = True  # before the reply goes: room may be made meanwhile
            await self.send(Packet(A_CNXN, A_VERSION, MAX_PAYLOAD, banner))
            return
        if not self.online or p.command in (A_AUTH, A_STLS):
            self.junk += 1  # before CNXN, and AUTH or STLS we never asked for: ignored
            return
        if p.command == A_OPEN:
            if p.arg0 == 0:
                self.junk += 1  # no stream id for the answer: refused below
            await self.open(p.arg0, service_name(p.data))
            return
        stream = self.streams.get(p.arg1)
        if stream is None or stream.remote != p.arg0:
            return  # packets for unknown streams are ignored
        if p.command == A_OKAY:
            stream.acked.set()
        elif p.command == A_WRTE:
            if stream.inbox.qsize() >= MAX_QUEUED:
                raise ProtocolError("the host wrote without waiting for OKAY")
            stream.inbox.put_nowait(p.data)
        elif p.command == A_CLSE:
            # the host closed the stream: stop its service and answer CLSE, as adbd does
            # (clients such as adb-shell wait for it); a stream we closed first is gone
            # already, and a host's CLSE in answer to ours needs no reply
            stream.closed = True
            stream.acked.set()
            stream.inbox.put_nowait(None)
            self.streams.pop(stream.local, None)
            await self.send(Packet(A_CLSE, stream.local, stream.remote))

    async def open(self, remote: int, service: str) -> None:
        """OPEN: start a service, or refuse it with CLSE(0, remote)."""
        runner = self.service(service)
        if remote == 0 or runner is None or len(self.streams) >= MAX_STREAMS:
            await self.send(Packet(A_CLSE, 0, remote))
            return
        local = self.next_id
        self.next_id = self.next_id % 0x7FFFFFFF + 1
        stream = _Stream(self, local, remote, service)
        self.streams[local] = stream
        self.opened += 1
        self.phone.stats["streams"] += 1
        await self.send(Packet(A_OKAY, local, remote))
        stream.task = asyncio.create_task(self._serve(stream, runner))

    async def _serve(self, stream: _Stream,
                     runner: Callable[[_Stream], Any]) -> None:
        try:
            await runner(stream)
            await stream.close()
        except (ConnectionError, asyncio.CancelledError, OSError):
            pass
        except Exception:
            log.exception("service %r failed", stream.service)
            with contextlib.suppress(Exception):
                await stream.close()

    def service(self, name: str) -> Callable[[_Stream], Any] | None:
        """The coroutine function serving ``name``, or ``None`` to refuse it."""
        kind, colon, arg = name.partition(":")
        if not colon:
            return None
        if kind == "shell" or (kind.startswith("shell,") and "v2" not in kind.split(",")):
            # as adbd: only an empty command is interactive; white space runs `sh -c` and ends
            return self._interactive if not arg else self._command(arg)
        if kind == "exec" and arg.strip():
            return self._command(arg)
        if kind == "sync" and not arg:
            return self._sync
        if kind == "root":
            return self._message("adbd cannot run as root in production builds\n")
        if kind == "unroot":
            return self._message("adbd not running as root\n")
        return None

    def _message(self, text: str) -> Callable[[_Stream], Any]:
        async def run(stream: _Stream) -> None:
            await stream.write(text.encode())
        return run

    def _command(self, line: str) -> Callable[[_Stream], Any]:
        async def run(stream: _Stream) -> None:
            sh = self.phone.new_shell()
            # host input (legacy shells forward stdin) is read and dropped
            drain = asyncio.create_task(_drain(stream))
            try:
                out, _code = await self.phone._call(lambda: sh.run(line))
                await stream.write(out)
            finally:
                drain.cancel()
        return run

    async def _sync(self, stream: _Stream) -> None:
        async def call(fn: Callable[[], Any]) -> Any:
            return await self.phone._call(fn)
        await SyncSession(self.phone.storage, stream.read, stream.write, call).run()

    async def _interactive(self, stream: _Stream) -> None:
        """``adb shell`` with no command: a prompt, line editing and echo, as a pty would."""
        sh = self.phone.new_shell()
        line = bytearray()
        await stream.write(PROMPT.format(cwd=sh.env.cwd).encode())
        while True:
            data = await stream.read()
            if data is None:
                return
            echo = bytearray()
            for byte in data:
                if byte in (13, 10):
                    echo += b"\r\n"
                    await stream.write(bytes(echo))
                    echo.clear()
                    text = line.decode("utf-8", "replace")
                    line.clear()
                    term = Sink()

                    def run_line(text: str = text, term: Sink = term) -> int:
                        return sh.run_into(text, term, term)

                    await self.phone._call(run_line)
                    out = bytes(term.data).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
                    if out:
                        await stream.write(out)
                    if sh.exited:
                        return
                    echo += PROMPT.format(cwd=sh.env.cwd).encode()
                elif byte in (8, 127):
                    if line:
                        del line[-1]
                        echo += b"\b \b"
                elif byte == 3:  # Ctrl-C: drop the line
                    line.clear()
                    echo += b"^C\r\n" + PROMPT.format(cwd=sh.env.cwd).encode()
                elif byte == 4 and not line:  # Ctrl-D on an empty line
                    return
                elif byte >= 32 or byte == 9:
                    if len(line) < MAX_SCRIPT:
                        line.append(byte)
                        echo.append(byte)
            if echo:
                await stream.write(bytes(echo))


def _least_worth(conns: list[_Connection], n: int,
                 had_a_chance: set[_Connection]) -> list[_Connection]:
    """The ``n`` connections least worth keeping (:meth:`_Connection.worth`), or fewer: one
    still without CNXN is only judged once the server has read what it sent (it is in
    ``had_a_chance``), as its CNXN may be waiting unread; while such a one is left unjudged,
    no connection past its CNXN is closed (the newcomer may be worth less)."""
    judged = [c for c in conns if c.online or c.junk or c in had_a_chance]
    if len(judged) < len(conns):
        judged = [c for c in judged if c.junk or not c.online]
    return sorted(judged, key=_Connection.worth)[:n]


async def _drain(stream: _Stream) -> None:
    """Read and drop whatever the host writes on a stream."""
    while await stream.read() is not None:
        pass


def _listen(host: str, port: int) -> socket.socket:
    """A non-blocking socket listening on ``host:port`` (``OSError`` if the address is
    taken or cannot be resolved)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and not host:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now (outside 5555-5585)."""
    while True:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.bind((host, 0))
            port = int(s.getsockname()[1])
        if port not in EMULATOR_PORTS:
            return port
