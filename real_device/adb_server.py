"""The virtual adb phone: a PhoneWorld phone served over the adb device protocol on TCP, the
way ``adb connect HOST:PORT`` talks to a phone with wireless debugging on.

    with VirtualPhone(seed=3) as phone:          # loopback, a free port
        os.system(f"adb connect {phone.serial}")
        os.system(f"adb -s {phone.serial} shell input tap 540 1200")

or from a terminal: ``phoneworld serve-adb --port 6520 --seed 3``.

Services: ``shell:CMD`` (legacy shell: :mod:`~phoneworld_gym.real_device.shell` parses the
line, :mod:`~phoneworld_gym.real_device.commands` runs it; an empty command is an
interactive prompt), ``exec:CMD`` (``adb exec-out``), ``sync:`` (push, pull, ls) and
``root:`` (refused politely, as production phones do). No real shell and no subprocess is
ever started. Authentication is off (the phone answers CNXN straight away), so bind to
loopback unless the network is trusted.

One asyncio loop on a background thread serves every connection; commands run on worker
threads with the phone locked (``PhoneWorldDevice`` is not thread-safe), so several clients
may talk at once. A malformed packet closes its own connection and nothing else.

No client can lock the others out: a connection silent for
:attr:`VirtualPhone.handshake_timeout` before its CNXN, or for
:attr:`VirtualPhone.idle_timeout` with no stream open, is closed (the adb server reconnects
on its own when it next needs the phone); and when :data:`MAX_CONNECTIONS` are open, a new
one is let in by closing the connection least worth keeping (one still without CNXN, then
one that never opened a stream, then the one that did least; the longest silent first),
never by turning the newcomer away. Under load the kernel's accept queue can hold dozens of
connections whose clients already left; turning newcomers away at the cap then dropped a
good client queued behind them.
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

from phoneworld_gym.real_device.adb_protocol import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
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
from phoneworld_gym.real_device.adb_sync import SyncSession
from phoneworld_gym.real_device.commands import PhoneCommands
from phoneworld_gym.real_device.shell import MAX_SCRIPT, Env, Shell, Sink
from phoneworld_gym.real_device.storage import Storage, StorageError

log = logging.getLogger("phoneworld.adb")
T = TypeVar("T")

#: the port ``phoneworld serve-adb`` uses by default: outside 5555-5585, which the adb
#: server probes on start and would register as an emulator
DEFAULT_PORT = 6520
#: ports the adb server scans for emulators
EMULATOR_PORTS = range(5555, 5586)
#: connections served at once; a newcomer past it closes the least useful one (see above)
MAX_CONNECTIONS = 64
#: streams one connection may hold open
MAX_STREAMS = 64
#: host packets queued on one stream before it must have been read (the host waits for
#: OKAY after each WRTE, so a well-behaved one never has more than one)
MAX_QUEUED = 16
#: seconds a connection may stay silent before its CNXN
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
    PhoneWorld phone) or ``"field"`` (a :class:`~phoneworld_gym.real_device.field.FieldPhone`:
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
        from phoneworld_gym.real_device.field import PROFILES, FieldPhone, make_device

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
        self._server: asyncio.base_events.Server | None = None
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._conns: set[_Connection] = set()
        self._reaper: asyncio.Task[None] | None = None
        self._closing = False
        #: seconds a connection may stay silent before its CNXN, then with no stream open
        self.handshake_timeout = HANDSHAKE_TIMEOUT
        self.idle_timeout = IDLE_TIMEOUT
        #: counters for the curious: connections accepted, closed for bad packets, closed
        #: for silence, closed to let a newcomer in; streams opened
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
                self._server = loop.run_until_complete(asyncio.start_server(
                    self._accept, self.host, self._requested_port, reuse_address=True,
                    limit=MAX_PAYLOAD + HEADER_SIZE, backlog=256))
                sock = self._server.sockets[0]
                self._port = int(sock.getsockname()[1])
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
            ready.set()
            try:
                loop.run_forever()
            finally:
                self._server.close()
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
        closed, not cancelled: asyncio's stream callback trips over a task cancelled before
        it started)."""
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
                if conn.closing or conn.streams:
                    continue
                limit = self.idle_timeout if conn.online else self.handshake_timeout
                if now - conn.heard > limit:
                    self.stats["timeouts"] += 1
                    conn.close()

    def _make_room(self) -> None:
        """At :data:`MAX_CONNECTIONS`, close the open connection least worth keeping."""
        live = [c for c in self._conns if not c.closing]
        if len(live) >= MAX_CONNECTIONS:
            victim = min(live, key=_Connection.worth)
            self.stats["evicted"] += 1
            log.debug("%d connections open: closing the least useful", len(live))
            victim.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        if self._closing:
            writer.close()
            return
        self._make_room()
        self._connections.add(task)
        self.stats["connections"] += 1
        sock = writer.get_extra_info("socket")
        if sock is not None:  # small replies go out at once (no Nagle delay on round trips)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = _Connection(self, reader, writer)
        self._conns.add(conn)
        try:
            await conn.run()
        except ProtocolError as e:
            self.stats["protocol_errors"] += 1
            log.debug("closing a connection: %s", e)
        except TimeoutError:
            self.stats["timeouts"] += 1
            log.debug("closing a connection silent before its CNXN")
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
            log.debug("connection ended: %r", e)
        except asyncio.CancelledError:
            pass
        except Exception:  # never let one connection take the server down
            log.exception("unexpected error on an adb connection")
        finally:
            conn.shutdown()
            with contextlib.suppress(Exception):
                writer.close()
            self._connections.discard(task)
            self._conns.discard(conn)


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
        #: when the host last sent a whole packet (or connected), on the monotonic clock
        self.heard = time.monotonic()
        #: streams this connection has opened (a client that did work is worth keeping)
        self.opened = 0
        #: closed by the server (silent too long, or to make room)
        self.closing = False

    def worth(self) -> tuple[int, int, bool, float]:
        """How much the connection is worth keeping when room is needed (least first): one
        without CNXN, then one that never opened a stream, then the one that opened fewest
        (a client at work opens one per command; a stream left open proves nothing), with
        no stream open before one with, the one silent longest first."""
        rank = 0 if not self.online else 1 if not self.opened else 2
        return rank, min(self.opened, 16), bool(self.streams), self.heard

    def close(self) -> None:
        """Close the connection from the server's side (its reader then ends)."""
        self.closing = True
        with contextlib.suppress(Exception):
            self.writer.close()

    async def send(self, packet: Packet) -> None:
        """Write one packet."""
        async with self._send_lock:
            self.writer.write(packet.encode())
            await self.writer.drain()

    async def run(self) -> None:
        """Read packets until the peer goes or sends something malformed."""
        while True:
            timeout = None if self.online else self.phone.handshake_timeout
            header = await asyncio.wait_for(self.reader.readexactly(HEADER_SIZE), timeout)
            command, arg0, arg1, length = parse_header(header, MAX_PAYLOAD)
            payload = await asyncio.wait_for(self.reader.readexactly(length), timeout) \
                if length else b""
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
            await self.send(Packet(A_CNXN, A_VERSION, MAX_PAYLOAD, banner))
            self.online = True
            return
        if not self.online or p.command == A_AUTH:
            return  # before CNXN, and AUTH we never asked for: ignored
        if p.command == A_OPEN:
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
            return self._interactive if not arg.strip() else self._command(arg)
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


async def _drain(stream: _Stream) -> None:
    """Read and drop whatever the host writes on a stream."""
    while await stream.read() is not None:
        pass


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now (outside 5555-5585)."""
    while True:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.bind((host, 0))
            port = int(s.getsockname()[1])
        if port not in EMULATOR_PORTS:
            return port
