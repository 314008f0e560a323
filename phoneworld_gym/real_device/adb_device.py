"""``AdbDevice``: a real Android phone (or the virtual adb phone) behind the
:class:`~phoneworld_gym.device.Device` verbs, over ``adbutils`` and an adb server.

    from phoneworld_gym import PhoneEnv
    from phoneworld_gym.real_device.adb_device import AdbDevice

    env = PhoneEnv(tasks="ContactsStar", device=AdbDevice("R58M123ABC"))   # or "127.0.0.1:6520"

or ``gymnasium.make("PhoneWorld/Device-v0", serial=...)`` (:func:`make_device_env`), which
plays the phone-ready tasks. See ``docs/real-devices.md``.

How each verb is carried out:

- ``screenshot``: ``exec:screencap -p`` (binary safe), the PNG decoded and resized to
  ``screenshot_size`` when the phone's screen is another size.
- ``a11y_xml``: ``uiautomator dump /data/local/tmp/window_dump.xml`` and ``cat`` of it, in one
  command (``/data/local/tmp`` rather than ``/sdcard``, so the dump never shows up in the
  phone's ``files`` table and in a whole-phone diff). A dump taken mid-transition differs from
  the next one: it is dumped again until two consecutive dumps agree, at most
  ``dump_retries`` more times (then the last one is used; 3 on a real phone, none on the
  virtual phone, whose screen never transitions). A dump younger than
  ``dump_max_age`` seconds with no action since is reused. Bounds are rescaled from the
  phone's pixels to the contract's 1080 x 2400 frame (``wm size``), so that indices,
  ``x``/``y`` and bounds mean the same on every phone; a tap is scaled back.
- ``execute``: each contract action as ``input`` commands. An ``index`` is the element of the
  last dump (:func:`~phoneworld_gym.contract.parse_ui_elements`; a fresh dump when an action
  ran since); the finger goes to its bounds' centre. ``click`` is ``input tap``,
  ``double_tap`` two taps, ``long_press`` ``input swipe X Y X Y 600``. ``input_text`` taps the
  field when one is targeted, moves to its end (``KEYCODE_MOVE_END``), with ``clear_text``
  deletes what the dump shows in it (one ``KEYCODE_DEL`` a character), types, then presses
  ENTER (66) as the contract says. Typing: text of printable ASCII without ``%`` goes through
  ``input text`` (spaces as ``%s``, the argument quoted with :func:`shlex.quote`); anything
  else (emoji, Arabic, Hebrew, CJK, newlines, ``%``) through the ADBKeyboard IME's broadcast,
  ``am broadcast -a ADB_INPUT_B64 --es msg <base64 of the UTF-8>``, which the virtual phone
  serves too. A real phone needs ADBKeyboard installed and selected
  (``ime set com.android.adbkeyboard/.AdbIME``); without it such text is refused with an
  error sentence and nothing is typed. No text ever reaches the phone's shell unquoted.
  ``scroll`` swipes inside the scrolling container under the target (else the screen's
  largest one, else the screen): ``down`` reveals what is below, so the finger moves up;
  ``swipe`` moves the finger AndroidWorld's way (``contract.SWIPE_FINGER``: up/down as named,
  ``left`` rightwards, ``right`` leftwards). ``navigate_home``/``navigate_back``/
  ``keyboard_enter`` are key events 3, 4 and 66; ``open_app`` starts a name's package
  (:attr:`AdbDevice.apps`, ``am start -n PKG/ACT`` or ``monkey -p PKG -c
  android.intent.category.LAUNCHER 1``); ``wait`` sleeps ``wait_s``; ``status``/``answer`` do
  nothing. The :class:`~phoneworld_gym.real_device.guard.SafetyGuard` sees every action
  first; a refused one is not sent and its sentence is returned.
- ``reset(seed)``: force-stops the known apps and goes home. A real phone cannot be reset to a
  seeded state: its contacts, messages and settings stay what they are, and tasks draw their
  parameters from them. The virtual phone can: it is sent ``setprop phoneworld.reset SEED``,
  which rebuilds its world from the seed, as ``PhoneWorldDevice.reset`` does (a real phone is
  never sent it).
- ``probe`` and the write verbs: :mod:`phoneworld_gym.real_device.adb_probe`; ``fixture``
  raises :class:`~phoneworld_gym.device.Unsupported` (mock apps' setup routines exist only in
  PhoneWorld).

Commands and folder listings travel over the adb server's host protocol, spoken here (a
request per connection, as ``adbutils`` does, without its per-command version query and
closing delay); ``adbutils`` lists, connects and pushes. Every command has a timeout
(``command_timeout``). When the connection drops (an adb error, a socket error, a timeout)
the device reconnects once (``adb connect`` for a network serial, waiting up to
``reconnect_timeout`` for it to come back) and runs the command again; if that fails too it
raises :class:`DeviceLost`, whose message says what happened. ``PhoneEnv`` ends the episode
truncated then (``info["device_error"]``).

The phone's identity (:class:`PhoneIdentity`: ``ro.serialno``, ``ro.build.fingerprint`` and
the kernel's boot id, ``/proc/sys/kernel/random/boot_id``, new at every boot) is read when the
device connects, and read again at every reconnect and before the first command after
``identity_check_after`` seconds without one (the adb server reconnects a network phone by
itself, so a phone restarted between two steps may answer without any command failing). A
different identity raises :class:`PhoneChanged`: another phone answers on that serial, or the
same phone restarted, and either way the episode's state is gone, so ``PhoneEnv`` ends the
episode truncated. The new identity is kept: the next ``reset`` starts an episode on the phone
that is there now.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import io
import os
import re
import shlex
import shutil
import socket
import struct
import subprocess
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from phoneworld_gym.contract import (
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    WAIT_SECONDS,
    Action,
    UIElement,
    parse_ui_elements,
    swipe_finger,
)
from phoneworld_gym.device import DeviceError, Row, Unsupported
from phoneworld_gym.real_device.adb_probe import AdbProbe, q
from phoneworld_gym.real_device.guard import SafetyGuard

T = TypeVar("T")

#: where the accessibility dump is written (scratch space, not the user's files)
DUMP_PATH = "/data/local/tmp/window_dump.xml"
LAUNCHER_INTENT = "android.intent.category.LAUNCHER"
ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
#: a long press: a still finger for this many milliseconds
LONG_PRESS_MS = 600
#: a scroll or swipe: how long the finger moves (slow enough not to fling far)
SWIPE_MS = 400
#: the most ``KEYCODE_DEL`` s sent in one ``input keyevent``
DELS_PER_COMMAND = 200
KEY_HOME, KEY_BACK, KEY_ENTER, KEY_DEL, KEY_MOVE_END = 3, 4, 66, 67, 123

#: apps of a stock Android phone: name -> packages (or PKG/ACTIVITY), the first installed
#: one wins. PhoneWorld's own apps (for the virtual phone) come first; see :func:`default_apps`.
ANDROID_APPS: dict[str, tuple[str, ...]] = {
    "contacts": ("com.google.android.contacts", "com.android.contacts",
                 "com.samsung.android.app.contacts"),
    "phone": ("com.google.android.dialer", "com.android.dialer", "com.samsung.android.dialer"),
    "dialer": ("com.google.android.dialer", "com.android.dialer", "com.samsung.android.dialer"),
    "messages": ("com.google.android.apps.messaging", "com.android.mms",
                 "com.samsung.android.messaging"),
    "sms": ("com.google.android.apps.messaging", "com.android.mms",
            "com.samsung.android.messaging"),
    "settings": ("com.android.settings/.Settings",),
    "chrome": ("com.android.chrome",),
    "camera": ("com.google.android.GoogleCamera", "com.android.camera2",
               "com.sec.android.app.camera"),
    "clock": ("com.google.android.deskclock", "com.android.deskclock",
              "com.sec.android.app.clockpackage"),
    "calendar": ("com.google.android.calendar", "com.android.calendar",
                 "com.samsung.android.calendar"),
    "gmail": ("com.google.android.gm",),
    "maps": ("com.google.android.apps.maps",),
    "photos": ("com.google.android.apps.photos",),
    "files": ("com.google.android.apps.nbu.files", "com.google.android.documentsui",
              "com.android.documentsui"),
    "play store": ("com.android.vending",),
    "youtube": ("com.google.android.youtube",),
    "calculator": ("com.google.android.calculator", "com.android.calculator2"),
}
_PLAIN_TEXT = re.compile(r"[\x20-\x24\x26-\x7e]*")  # printable ASCII except '%'
_BOUNDS_ATTR = re.compile(r'bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"')
_WM_SIZE = re.compile(r"(Physical|Override) size: (\d+)x(\d+)")
#: the kernel's boot id: a random UUID drawn at each boot, readable by the adb shell
BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id"
#: one command that prints what :class:`PhoneIdentity` holds, a line each
IDENTITY_COMMAND = f"getprop ro.serialno; getprop ro.build.fingerprint; cat {BOOT_ID_PATH}"
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class DeviceLost(DeviceError):
    """The phone stopped answering and one reconnect did not bring it back."""


class PhoneChanged(DeviceError):
    """The phone that answers is not the one the device was talking to: another phone, or
    the same one restarted (a new boot id). Whatever an episode did on it is gone."""


@dataclasses.dataclass(frozen=True)
class PhoneIdentity:
    """Who a phone is: its serial number and build, and the boot id of its current boot
    (``""`` where a phone does not let the shell read it; then only the first two count)."""

    serialno: str
    fingerprint: str
    boot_id: str

    @classmethod
    def parse(cls, output: str) -> PhoneIdentity:
        """From the output of :data:`IDENTITY_COMMAND`."""
        lines = [ln.strip() for ln in output.splitlines()] + ["", ""]
        m = _UUID.search("\n".join(lines[2:]).lower())
        return cls(lines[0], lines[1], m.group(0) if m else "")

    def change(self, now: PhoneIdentity) -> str:
        """How ``now`` differs from this identity, in words; ``""`` when it is the same
        phone in the same boot."""
        if (self.serialno, self.fingerprint) != (now.serialno, now.fingerprint):
            return (f"another phone answers there now (serial number {now.serialno or '?'}, "
                    f"build {now.fingerprint or '?'}; it was {self.serialno or '?'}, build "
                    f"{self.fingerprint or '?'})")
        if self.boot_id and now.boot_id and self.boot_id != now.boot_id:
            return (f"it restarted (boot id {self.boot_id[:8]}... is now "
                    f"{now.boot_id[:8]}...), so its state is not the episode's")
        return ""


def default_apps() -> dict[str, tuple[str, ...]]:
    """The name -> packages map :class:`AdbDevice` starts from: PhoneWorld's apps (by name,
    label and alias, ``PKG/.MainActivity``), then :data:`ANDROID_APPS`."""
    from phoneworld_gym.app import all_apps

    out: dict[str, tuple[str, ...]] = {}

    def add(name: str, targets: Sequence[str]) -> None:
        key = name.strip().lower()
        out[key] = tuple(dict.fromkeys((*out.get(key, ()), *targets)))

    for app in all_apps().values():
        target = f"{app.package}/.MainActivity"
        for name in (app.name, app.label, *app.aliases):
            add(name, (target,))
    for name, targets in ANDROID_APPS.items():
        add(name, targets)
    return out


def is_plain_text(text: str) -> bool:
    """Whether ``input text`` can type ``text`` as it is: printable ASCII without ``%``
    (which ``input text`` reads as ``%s`` = space)."""
    return _PLAIN_TEXT.fullmatch(text) is not None


def input_text_command(text: str) -> str:
    """The ``input text`` command line for plain text (:func:`is_plain_text`): spaces become
    ``%s`` and the argument is quoted for the phone's shell."""
    if not is_plain_text(text):
        raise ValueError(f"{text!r} needs the IME route (see is_plain_text)")
    return f"input text {shlex.quote(text.replace(' ', '%s'))}"


def ime_text_command(text: str) -> str:
    """ADBKeyboard's broadcast typing ``text`` (any Unicode) into the focused field."""
    b64 = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"am broadcast -a ADB_INPUT_B64 --es msg {shlex.quote(b64)}"


def _connection_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean the connection (not the command) failed."""
    import adbutils

    return (adbutils.AdbError, ConnectionError, OSError, EOFError, socket.timeout)


def _server_up(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1.0):
        return True
    return False


class AdbDevice:
    """An adb phone as a :class:`~phoneworld_gym.device.Device` (see the module docstring).

    Args:
        serial: the phone's serial (``adb devices``), or ``HOST:PORT`` of a phone with
            wireless debugging or the virtual phone (connected with ``adb connect``). None:
            the only phone attached.
        host, port: the adb server (one is started with ``adb -P PORT start-server`` when
            none listens on loopback).
        apps: extra ``name -> "PKG"``, ``"PKG/ACTIVITY"`` or a list of them, for
            ``open_app``; merged over :func:`default_apps` (yours are tried first).
        guard: the :class:`SafetyGuard` (default: ``True``, the default policy; ``False`` or
            ``None``: no guard).
        dump_retries: the most extra dumps while consecutive dumps differ (None: 3 on a real
            phone, 0 on the virtual phone, which is never caught mid-transition).
        dump_max_age: seconds a dump may be reused when no action ran since.
        screenshot_size: (width, height) of screenshots.
        command_timeout: seconds one adb command may take.
        reconnect_timeout: seconds to wait for a dropped phone to come back.
        identity_check_after: seconds without a command after which the phone's identity
            is checked before the next one (see the module docstring; 0: before every
            command).
        settle: seconds to wait after an action before the screen is read (None: 0.5 on a
            real phone, 0 on the virtual phone, whose screen changes at once).
        wait_s: how long the ``wait`` action sleeps (None: 1 s on a real phone, 0 on the
            virtual phone, where nothing happens by itself).
    """

    kind = "adb"

    def __init__(self, serial: str | None = None, *, host: str = "127.0.0.1",
                 port: int = 5037, apps: Mapping[str, str | Sequence[str]] | None = None,
                 guard: SafetyGuard | bool | None = True, dump_retries: int | None = None,
                 dump_max_age: float = 1.0,
                 screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
                 command_timeout: float = 30.0, reconnect_timeout: float = 10.0,
                 settle: float | None = None, wait_s: float | None = None,
                 identity_check_after: float = 0.5) -> None:
        try:
            import adbutils
        except ImportError:
            raise ImportError("AdbDevice needs adbutils: pip install 'phoneworld[real]' "
                              "(or pip install adbutils)") from None
        w, h = screenshot_size
        if not (16 <= int(w) <= 4 * SCREEN_WIDTH and 16 <= int(h) <= 4 * SCREEN_HEIGHT):
            raise ValueError(f"screenshot_size {screenshot_size} is out of range")
        if dump_retries is not None and int(dump_retries) < 0:
            raise ValueError(f"dump_retries must be >= 0, got {dump_retries}")
        self.screenshot_size = (int(w), int(h))
        self.host, self.port = host, int(port)
        self._dump_retries = dump_retries
        self.dump_max_age = float(dump_max_age)
        self.command_timeout = float(command_timeout)
        self.reconnect_timeout = float(reconnect_timeout)
        self.identity_check_after = float(identity_check_after)
        #: who the phone is (read at connect; see :class:`PhoneIdentity`)
        self.identity: PhoneIdentity | None = None
        #: when the last command succeeded (monotonic clock)
        self._last_ok = 0.0
        self._wait_s = wait_s
        self._settle = settle
        self._release: weakref.finalize | None = None
        if guard is True:
            guard = SafetyGuard()
        self.guard: SafetyGuard | None = guard or None
        #: name -> packages (or PKG/ACTIVITY) that ``open_app`` tries, lower-case names
        self.apps = default_apps()
        for name, targets in (apps or {}).items():
            extra = (targets,) if isinstance(targets, str) else tuple(targets)
            key = name.strip().lower()
            self.apps[key] = tuple(dict.fromkeys((*extra, *self.apps.get(key, ()))))
        self._errors = _connection_errors()
        self._ensure_server()
        self._client = adbutils.AdbClient(host=host, port=self.port)
        self.serial = self._pick_serial(serial)
        self._dev: Any = None
        self._server_version: int | None = None
        self._xml: str | None = None
        self._xml_time = 0.0
        self._dirty = True
        self._packages: set[str] | None = None
        self._facts: dict[str, Any] | None = None
        self._probe = AdbProbe(self, on_write=self._changed)
        self._call(self._attach, "connecting")

    # -- the connection ----------------------------------------------------------------
    def _ensure_server(self) -> None:
        """Start an adb server on ``port`` when none listens (loopback only)."""
        if _server_up(self.host, self.port):
            return
        if self.host not in ("127.0.0.1", "localhost", "::1"):
            raise DeviceError(f"no adb server answers on {self.host}:{self.port}")
        adb = shutil.which("adb")
        if adb is None:
            from adbutils import adb_path

            adb = adb_path()
        try:
            subprocess.run([adb, "-P", str(self.port), "start-server"], capture_output=True,
                           timeout=30, check=False)
        except (OSError, subprocess.SubprocessError) as e:
            raise DeviceError(f"could not start an adb server on port {self.port}: {e}") \
                from None
        if not _server_up(self.host, self.port):
            raise DeviceError(f"no adb server answers on {self.host}:{self.port} after "
                              "adb start-server")

    def _states(self) -> dict[str, str]:
        return {d.serial: d.state for d in self._client.list()}

    def _pick_serial(self, serial: str | None) -> str:
        if serial:
            return str(serial)
        states = self._call(self._states, "listing phones")
        ready = [s for s, st in states.items() if st == "device"]
        if len(ready) == 1:
            return ready[0]
        if not ready:
            shown = ", ".join(f"{s} ({st})" for s, st in states.items()) or "none"
            raise DeviceError(f"no phone is ready on the adb server {self.host}:{self.port} "
                              f"(attached: {shown}); plug one in with USB debugging on, or "
                              "give serial='HOST:PORT' of a phone to adb connect to")
        raise DeviceError(f"several phones are attached ({', '.join(ready)}); give serial=")

    def _attach(self) -> None:
        """Connect (``adb connect`` for HOST:PORT), check the phone is ready, learn about it."""
        states = self._states()
        if states.get(self.serial) != "device" and ":" in self.serial:
            with contextlib.suppress(*self._errors):
                self._client.disconnect(self.serial)
            out = self._client.connect(self.serial, timeout=self.reconnect_timeout)
            if "connected" not in out or "failed" in out or "unable" in out:
                raise ConnectionError(out.strip() or f"adb connect {self.serial} failed")
        deadline = time.monotonic() + self.reconnect_timeout
        state = None
        while True:
            state = self._states().get(self.serial)
            if state == "device" or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if state != "device":
            hint = {"unauthorized": ": accept the USB debugging prompt on the phone",
                    "offline": ": the phone does not answer", None: ": not attached"}
            raise ConnectionError(f"the phone {self.serial} is {state or 'gone'}"
                                  f"{hint.get(state, '')}")
        self._dev = self._client.device(self.serial)
        self._server_version = None
        self._forget()
        self._verify(self._read_identity())

    def _read_identity(self) -> PhoneIdentity:
        """The phone's identity, read now (one command, without reconnecting)."""
        return PhoneIdentity.parse(self._read(IDENTITY_COMMAND).decode("utf-8", "replace"))

    def _forget(self) -> None:
        """Drop what is known about the phone (it may be another one now)."""
        self._facts = None
        self._packages = None
        self._xml = None
        self._probe.forget()
        self._dirty = True

    def _verify(self, now: PhoneIdentity) -> None:
        """Keep ``now`` as the phone's identity; :class:`PhoneChanged` when it is not the
        one the device had."""
        before, self.identity = self.identity, now
        self._last_ok = time.monotonic()
        why = before.change(now) if before is not None else ""
        if why:
            self._forget()
            raise PhoneChanged(f"the phone {self.serial} changed: {why}")

    def _check_identity(self) -> None:
        """Read the identity again when no command ran for ``identity_check_after``
        seconds (the adb server may have reconnected a restarted phone meanwhile)."""
        if self.identity is None or self._dev is None or \
                time.monotonic() - self._last_ok < self.identity_check_after:
            return
        self._verify(self._read_identity())

    def check_identity(self) -> PhoneIdentity:
        """Read the phone's identity now (reconnecting once if needed); the identity, or
        :class:`PhoneChanged` when the phone is not the one the device was talking to."""
        def run() -> PhoneIdentity:
            self._verify(self._read_identity())
            assert self.identity is not None
            return self.identity

        return self._call(run, "checking who the phone is")

    def _call(self, fn: Callable[[], T], what: str) -> T:
        """Run ``fn``; on a dropped connection reconnect once and run it again, else raise
        :class:`DeviceLost`. The phone's identity is checked first after a pause, and at
        the reconnect: :class:`PhoneChanged` when it is another phone (or restarted)."""
        try:
            self._check_identity()
            out = fn()
        except self._errors as e:
            first = e
        else:
            self._last_ok = time.monotonic()
            return out
        retry_errors: tuple[type[BaseException], ...] = (*self._errors, DeviceError)
        try:
            self._attach()
            out = fn()
        except PhoneChanged:
            raise
        except retry_errors as e:
            if self._dev is None and what == "connecting":
                raise DeviceLost(f"cannot connect to the phone {self.serial}: {_why(first)}; "
                                 f"again: {_why(e)}") from e
            raise DeviceLost(f"lost the phone {self.serial} while {what}: "
                             f"{_why(first)}; reconnecting failed: {_why(e)}") from e
        self._last_ok = time.monotonic()
        return out

    def shell(self, command: str) -> str:
        """Run a command line on the phone (``shell:``); its output as text."""
        return self._raw(command).decode("utf-8", "replace")

    def _open(self, service: str) -> socket.socket:
        """A socket to the adb server carrying ``service`` on this phone.

        The host protocol is spoken here rather than through ``adbutils``' ``open_transport``,
        which asks the server's version on a second connection for every command and sleeps
        10 ms closing each one: that was most of a command's time."""
        if self._dev is None:
            raise ConnectionError("not connected")
        if self._server_version is None:
            self._server_version = int(self._client.server_version())
        sock = socket.create_connection((self.host, self.port), timeout=self.command_timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self._server_version >= 41:
                _request(sock, f"host:tport:serial:{self.serial}")
                _read_exact(sock, 8)  # the transport id
            else:
                _request(sock, f"host:transport:{self.serial}")
            _request(sock, service)
        except BaseException:
            sock.close()
            raise
        return sock

    def _read(self, command: str, service: str = "shell") -> bytes:
        """Run one command and read its whole output, without reconnecting."""
        sock = self._open(f"{service}:{command}")
        try:
            out = bytearray()
            while True:
                chunk = sock.recv(1 << 16)
                if not chunk:
                    return bytes(out)
                out += chunk
        finally:
            sock.close()

    def _raw(self, command: str, service: str = "shell") -> bytes:
        return self._call(lambda: self._read(command, service), f"running {command[:60]!r}")

    def list_dir(self, path: str) -> list[tuple[str, int, int]]:
        """A folder's entries over the sync service (``LIST``): (name, mode, size), without
        ``.`` and ``..``."""
        def run() -> list[tuple[str, int, int]]:
            sock = self._open("sync:")
            try:
                name = path.encode("utf-8")
                sock.sendall(b"LIST" + struct.pack("<I", len(name)) + name)
                out: list[tuple[str, int, int]] = []
                while True:
                    head = _read_exact(sock, 20)
                    if head[:4] == b"DONE":
                        return out
                    if head[:4] != b"DENT":
                        raise ConnectionError(f"sync LIST {path}: unexpected reply "
                                              f"{head[:4]!r}")
                    mode, size, _mtime, n = struct.unpack("<4I", head[4:])
                    entry = _read_exact(sock, n).decode("utf-8", "replace")
                    if entry not in (".", ".."):
                        out.append((entry, mode, size))
            finally:
                sock.close()

        return self._call(run, f"listing {path}")

    def push(self, path: str, data: bytes) -> None:
        """``adb push`` of ``data`` to ``path``."""
        self._call(lambda: self._dev.sync.push(data, path, 0o660), f"pushing {path}")

    def own(self, phone: Any) -> None:
        """Take charge of a virtual phone this device talks to: it is disconnected and stopped
        with :meth:`close`, or when the device is garbage-collected."""
        self._release = weakref.finalize(self, _release_phone, phone, self._client, self.serial)

    def close(self) -> None:
        """Forget the connection (a phone and an adb server stay as they are; a virtual phone
        the device owns is stopped)."""
        self._dev = None
        if self._release is not None:
            self._release()

    # -- facts about the phone ------------------------------------------------------------
    @property
    def facts(self) -> dict[str, Any]:
        """``virtual`` (a PhoneWorld virtual phone), ``tidy`` (a virtual phone whose screen
        changes at once: not the ``field`` profile), ``size`` (physical (w, h))."""
        if self._facts is None:
            out = self.shell("getprop ro.phoneworld.seed; getprop ro.phoneworld.profile; "
                             "wm size")
            lines = out.splitlines()
            virtual = bool(lines and lines[0].strip())
            # the field profile's first dump after an action is stale, as on a real phone
            tidy = not (len(lines) > 1 and lines[1].strip() == "field")
            sizes = {m.group(1): (int(m.group(2)), int(m.group(3)))
                     for m in _WM_SIZE.finditer(out)}
            size = sizes.get("Override") or sizes.get("Physical") or (SCREEN_WIDTH,
                                                                       SCREEN_HEIGHT)
            self._facts = {"virtual": virtual, "tidy": virtual and tidy, "size": size}
        return self._facts

    @property
    def virtual(self) -> bool:
        """Whether the phone is PhoneWorld's virtual adb phone."""
        return bool(self.facts["virtual"])

    @property
    def dump_retries(self) -> int:
        """The most extra dumps while consecutive dumps differ (see the constructor)."""
        if self._dump_retries is not None:
            return int(self._dump_retries)
        return 0 if self.facts["tidy"] else 3

    @property
    def wait_s(self) -> float:
        """Seconds the ``wait`` action sleeps (see the constructor)."""
        if self._wait_s is not None:
            return float(self._wait_s)
        return 0.0 if self.virtual else 1.0

    @property
    def settle(self) -> float:
        """Seconds waited after an action (see the constructor)."""
        if self._settle is not None:
            return self._settle
        return 0.0 if self.virtual else 0.5

    def _to_phone(self, x: float, y: float) -> tuple[int, int]:
        """Contract pixels -> the phone's pixels."""
        return to_phone(x, y, self.facts["size"])

    def installed(self, refresh: bool = False) -> set[str]:
        """Installed packages (``pm list packages``), cached per connection."""
        if self._packages is None or refresh:
            out = self.shell("pm list packages")
            self._packages = {ln.split(":", 1)[1].strip() for ln in out.splitlines()
                              if ln.startswith("package:")}
        return set(self._packages)

    # -- Device: lifecycle ----------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Force-stop the known apps and go home; the virtual phone also rebuilds its world
        from ``seed`` (a real phone keeps its data: see the module docstring). A phone that
        changed since the last episode (:class:`PhoneChanged`) is taken as it is now: a new
        episode starts on it."""
        try:
            self._reset(seed)
        except PhoneChanged:
            self._reset(seed)  # the new identity is kept: this is the phone from now on

    def _reset(self, seed: int) -> None:
        installed = self.installed(refresh=True)
        pkgs = sorted({t.split("/", 1)[0] for targets in self.apps.values() for t in targets}
                      & installed)
        cmds = [f"am force-stop {shlex.quote(p)}" for p in pkgs]
        cmds.append(f"input keyevent {KEY_HOME}")
        if self.virtual:  # last: the new world starts on the home screen at its start clock
            cmds.append(f"setprop phoneworld.reset {int(seed)}")
        out = self.shell("; ".join(cmds))
        if self.virtual and "phoneworld.reset" in out:
            raise DeviceError(f"the virtual phone refused the reset: {out.strip()[:200]}")
        self._changed()

    def _changed(self) -> None:
        """Something may have changed the screen: the next read dumps again."""
        self._dirty = True

    # -- Device: observations -------------------------------------------------------------
    def screenshot(self) -> np.ndarray:
        """``screencap -p``, as a (H, W, 3) uint8 array of ``screenshot_size``."""
        from PIL import Image, UnidentifiedImageError

        data = self._raw("screencap -p", service="exec")
        try:
            with Image.open(io.BytesIO(data)) as png:
                img = png.convert("RGB")
        except (UnidentifiedImageError, OSError) as e:
            raise DeviceError(f"screencap -p returned no PNG ({len(data)} bytes: "
                              f"{data[:80]!r}): {e}") from None
        if img.size != self.screenshot_size:
            img = img.resize(self.screenshot_size, Image.Resampling.BILINEAR)
        return np.asarray(img, dtype=np.uint8)

    def _dump_once(self) -> str | None:
        out = self.shell(f"rm -f {DUMP_PATH}; uiautomator dump {DUMP_PATH} >/dev/null "
                         f"&& cat {DUMP_PATH}")
        start = out.find("<?xml")
        if start < 0:
            start = out.find("<hierarchy")
        end = out.rfind("</hierarchy>")
        if start < 0 or end < 0:
            return None
        return out[start:end + len("</hierarchy>")]

    def a11y_xml(self) -> str:
        """The accessibility tree (see the module docstring: stable dumps, contract frame)."""
        now = time.monotonic()
        if not self._dirty and self._xml is not None and now - self._xml_time <= \
                self.dump_max_age:
            return self._xml
        prev = self._dump_once()
        xml = prev
        tries = self.dump_retries if prev is not None else max(self.dump_retries, 1)
        for _ in range(tries):
            again = self._dump_once()
            xml = again if again is not None else xml
            if again is not None and again == prev:
                break
            prev = again
        if xml is None:
            raise DeviceError(f"uiautomator dump gave no hierarchy after "
                              f"{self.dump_retries + 1} tries (is the screen on and "
                              "unlocked?)")
        self._xml = to_contract(xml, self.facts["size"])
        self._xml_time = time.monotonic()
        self._dirty = False
        return self._xml

    def _screen_xml(self) -> str:
        """The dump an action's index refers to: the last one, or a fresh one when an
        action ran since."""
        if self._dirty or self._xml is None:
            return self.a11y_xml()
        return self._xml

    @property
    def probe(self) -> AdbProbe:
        """Tables, settings and the app in front, over adb."""
        return self._probe

    # -- Device: write verbs ----------------------------------------------------------------
    def insert(self, table: str, row: Row) -> Any:
        """``content insert`` (see :mod:`~phoneworld_gym.real_device.adb_probe`)."""
        return self._probe.insert(table, row)

    def update(self, table: str, row_id: Any, values: Row) -> None:
        """``content update``."""
        self._probe.update(table, row_id, values)

    def delete(self, table: str, row_id: Any) -> None:
        """``content delete``."""
        self._probe.delete(table, row_id)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        """``settings put``."""
        self._probe.put_setting(namespace, key, value)

    def push_file(self, path: str, data: bytes) -> None:
        """``adb push`` to ``/sdcard/...``."""
        self._probe.push_file(path, data)

    def fixture(self, app: str, name: str, /, **args: Any) -> Any:
        """Mock apps' setup routines exist only in PhoneWorld."""
        raise Unsupported(f"fixture {app}.{name} is PhoneWorld-only (a real phone has no "
                          "mock app to set up)")

    # -- Device: actions ------------------------------------------------------------------
    def execute(self, action: Action) -> str:
        """Carry out one action (see the module docstring); the error sentence of a
        meaningless or refused action (nothing is sent then), else ``""``."""
        t = action.action_type
        if t in ("status", "answer"):
            return ""
        xml = None
        if t not in ("navigate_home", "navigate_back", "keyboard_enter", "wait", "open_app"):
            xml = self._screen_xml()
        if self.guard is not None:
            package = self._resolve_app(action.app_name or "")[0] if t == "open_app" else None
            refusal = self.guard.check(action, xml, package=package)
            if refusal:
                return refusal
        err = self._perform(action, xml)
        if t != "wait":
            self._changed()
            if not err and self.settle > 0:
                time.sleep(self.settle)
        return err

    def _elements(self, xml: str | None) -> list[UIElement]:
        return parse_ui_elements(xml or self._screen_xml())

    def _point(self, a: Action, xml: str | None) -> tuple[int, int] | str:
        """Contract pixel of the action's target, or an error sentence."""
        if a.index is not None:
            els = self._elements(xml)
            if a.index >= len(els):
                return (f"no element with index {a.index}; this screen has {len(els)} "
                        f"elements (0..{len(els) - 1})")
            box = els[a.index].bbox_pixels
            assert box is not None
            cx, cy = box.center
            return int(cx), int(cy)
        assert a.x is not None and a.y is not None
        return int(a.x), int(a.y)

    def _tap(self, x: int, y: int) -> str:
        px, py = self._to_phone(x, y)
        return f"input tap {px} {py}"

    def _perform(self, a: Action, xml: str | None) -> str:
        t = a.action_type
        if t in ("click", "double_tap", "long_press"):
            p = self._point(a, xml)
            if isinstance(p, str):
                return p
            if t == "long_press":
                px, py = self._to_phone(*p)
                self.shell(f"input swipe {px} {py} {px} {py} {LONG_PRESS_MS}")
            elif t == "double_tap":
                self.shell(f"{self._tap(*p)} && {self._tap(*p)}")
            else:
                self.shell(self._tap(*p))
            return ""
        if t == "input_text":
            return self._input_text(a, xml)
        if t in ("scroll", "swipe"):
            return self._swipe(a, xml)
        if t == "navigate_home":
            self.shell(f"input keyevent {KEY_HOME}")
        elif t == "navigate_back":
            self.shell(f"input keyevent {KEY_BACK}")
        elif t == "keyboard_enter":
            self.shell(f"input keyevent {KEY_ENTER}")
        elif t == "open_app":
            return self._open_app(a.app_name or "")
        elif t == "wait":
            if self.virtual:  # its clock runs with the actions: ``sleep`` moves it on
                self.shell(f"sleep {WAIT_SECONDS}")
            time.sleep(max(0.0, min(self.wait_s, 60.0)))
        return ""

    # -- typing ---------------------------------------------------------------------------
    def can_type(self, text: str) -> bool:
        """Whether ``text`` can be typed: plain ASCII always; anything else needs the
        ADBKeyboard IME (selected on a real phone, always there on the virtual phone)."""
        if is_plain_text(text) or self.virtual:
            return True
        ime = self.shell("settings get secure default_input_method").strip()
        return "adbkeyboard" in ime.lower()

    def _input_text(self, a: Action, xml: str | None) -> str:
        assert a.text is not None
        els = self._elements(xml)
        cmds: list[str] = []
        field: UIElement | None
        if a.index is not None or a.x is not None:
            p = self._point(a, xml)
            if isinstance(p, str):
                return p
            field = _editable_at(els, p)
            if field is None:
                return f"the element at {p} is not a text field"
            cmds.append(self._tap(*p))
            if self.settle > 0:
                cmds.append(f"sleep {self.settle}")
        else:
            field = next((e for e in els if e.is_focused and e.is_editable), None)
            if field is None:
                return "no text field has focus; tap one first or give its index"
        if not self.can_type(a.text):
            return (f"cannot type {a.text!r}: text beyond plain ASCII needs the ADBKeyboard "
                    f"IME on the phone (install it, then: adb shell ime enable "
                    f"{ADB_KEYBOARD}; adb shell ime set {ADB_KEYBOARD})")
        cmds.append(f"input keyevent {KEY_MOVE_END}")
        if a.clear_text:
            n = len(_field_text(field))
            for k in range(0, n, DELS_PER_COMMAND):
                cmds.append("input keyevent " + " ".join([str(KEY_DEL)] *
                                                         min(DELS_PER_COMMAND, n - k)))
        if a.text:
            cmds.append(input_text_command(a.text) if is_plain_text(a.text)
                        else ime_text_command(a.text))
        cmds.append(f"input keyevent {KEY_ENTER}")
        out = self.shell("; ".join(cmds))
        if "Error:" in out or "Exception" in out:
            return f"typing failed on the phone: {out.strip()[:200]}"
        return ""

    # -- scrolling and swiping ----------------------------------------------------------------
    def _swipe(self, a: Action, xml: str | None) -> str:
        assert a.direction is not None
        els = self._elements(xml)
        start: tuple[int, int] | None = None
        if a.index is not None or a.x is not None:
            p = self._point(a, xml)
            if isinstance(p, str):
                return p
            start = p
        if a.action_type == "scroll":
            region = _region(els, start, a.index)
            finger = {"down": "up", "up": "down", "left": "right", "right": "left"}[a.direction]
            x1, y1, x2, y2 = _stroke(region, finger)
        else:
            x0, y0 = start if start is not None else (SCREEN_WIDTH // 2, SCREEN_HEIGHT // 2)
            finger = swipe_finger(a.direction)  # AndroidWorld's meaning: "left" moves right
            dx = {"left": -1, "right": 1}.get(finger, 0) * SCREEN_WIDTH * 2 // 5
            dy = {"up": -1, "down": 1}.get(finger, 0) * SCREEN_HEIGHT * 2 // 5
            x1, y1 = x0, y0
            x2 = min(max(x0 + dx, 0), SCREEN_WIDTH - 1)
            y2 = min(max(y0 + dy, 0), SCREEN_HEIGHT - 1)
        p1, p2 = self._to_phone(x1, y1), self._to_phone(x2, y2)
        self.shell(f"input swipe {p1[0]} {p1[1]} {p2[0]} {p2[1]} {SWIPE_MS}")
        return ""

    # -- apps -----------------------------------------------------------------------------
    def _resolve_app(self, name: str) -> tuple[str | None, str | None]:
        """(package, activity or None) of the first installed target of ``name``."""
        key = name.strip().lower()
        targets = list(self.apps.get(key, ()))
        if re.fullmatch(r"[A-Za-z][\w]*(\.[A-Za-z]\w*)+(/[\w.$]+)?", name.strip()):
            targets.append(name.strip())
        if not targets:
            return None, None
        for refresh in (False, True):
            installed = self.installed(refresh=refresh)
            for target in targets:
                pkg, _, act = target.partition("/")
                if pkg in installed:
                    return pkg, act or None
        return None, None

    def _open_app(self, name: str) -> str:
        pkg, act = self._resolve_app(name)
        if pkg is None:
            known = sorted({k for k, ts in self.apps.items()
                            if any(t.split("/", 1)[0] in self.installed() for t in ts)})
            return f"no app named {name!r} is installed; installed apps: {known}"
        if act:
            out = self.shell(q("am", "start", "-n", f"{pkg}/{act}"))
            if "Error" not in out:
                return ""
        out = self.shell(q("monkey", "-p", pkg, "-c", LAUNCHER_INTENT, "1"))
        if "No activities found" in out or "monkey aborted" in out:
            return f"could not open {name!r} ({pkg}): {out.strip()[:160]}"
        return ""


# -- helpers --------------------------------------------------------------------------------
def _read_exact(sock: socket.socket, n: int) -> bytes:
    """Exactly ``n`` bytes (``ConnectionError`` if the other side closes first)."""
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise ConnectionError(f"the adb server closed the connection ({len(out)} of {n} "
                                  "bytes)")
        out += chunk
    return bytes(out)


def _request(sock: socket.socket, request: str) -> None:
    """One adb host request (4 hex digits of length, then the text) and its OKAY; a FAIL
    raises ``ConnectionError`` with the server's message (``device offline`` ...)."""
    data = request.encode("utf-8")
    sock.sendall(f"{len(data):04x}".encode() + data)
    status = _read_exact(sock, 4)
    if status == b"OKAY":
        return
    if status == b"FAIL":
        n = int(_read_exact(sock, 4), 16)
        raise ConnectionError(_read_exact(sock, n).decode("utf-8", "replace"))
    raise ConnectionError(f"the adb server answered {status!r} to {request[:40]!r}")


def _release_phone(phone: Any, client: Any, serial: str) -> None:
    """Disconnect and stop an owned virtual phone (a finalizer: it must not hold the device)."""
    with contextlib.suppress(Exception):
        client.disconnect(serial)
    with contextlib.suppress(Exception):
        phone.stop()


def to_phone(x: float, y: float, size: tuple[int, int]) -> tuple[int, int]:
    """A point of the contract's 1080 x 2400 frame on a phone of ``size`` (w, h) pixels."""
    w, h = size
    px = round(x * w / SCREEN_WIDTH)
    py = round(y * h / SCREEN_HEIGHT)
    return min(max(px, 0), w - 1), min(max(py, 0), h - 1)


def to_contract(xml: str, size: tuple[int, int]) -> str:
    """A dump's bounds from a phone of ``size`` (w, h) pixels to the contract's frame (each
    axis scaled on its own, so the whole screen maps onto 1080 x 2400)."""
    w, h = size
    if (w, h) == (SCREEN_WIDTH, SCREEN_HEIGHT):
        return xml
    sx, sy = w / SCREEN_WIDTH, h / SCREEN_HEIGHT

    def fix(m: re.Match[str]) -> str:
        x1, y1, x2, y2 = (int(g) for g in m.groups())
        return (f'bounds="[{round(x1 / sx)},{round(y1 / sy)}]'
                f'[{round(x2 / sx)},{round(y2 / sy)}]"')

    return _BOUNDS_ATTR.sub(fix, xml)


def _why(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return " ".join(text.split())[:300]


def _field_text(field: UIElement) -> str:
    """What a text field holds (a phone that shows the hint as the text holds nothing)."""
    text = field.text or ""
    return "" if field.hint_text and text == field.hint_text else text


def _contains(e: UIElement, p: tuple[int, int]) -> bool:
    b = e.bbox_pixels
    return b is not None and b.x_min <= p[0] < b.x_max and b.y_min <= p[1] < b.y_max


def _editable_at(els: list[UIElement], p: tuple[int, int]) -> UIElement | None:
    """The innermost editable element under ``p``."""
    hits = [e for e in els if e.is_editable and _contains(e, p)]
    return hits[-1] if hits else None


def _area(e: UIElement) -> float:
    b = e.bbox_pixels
    return 0.0 if b is None else max(0.0, b.width) * max(0.0, b.height)


def _region(els: list[UIElement], start: tuple[int, int] | None,
            index: int | None) -> tuple[int, int, int, int]:
    """Where a scroll happens: the innermost scrolling element under the target, else the
    target element itself, else the largest scrolling element, else the screen."""
    scrollers = [e for e in els if e.is_scrollable and e.bbox_pixels is not None]
    pick: UIElement | None = None
    if start is not None:
        under = [e for e in scrollers if _contains(e, start)]
        pick = min(under, key=_area) if under else None
        if pick is None and index is not None and index < len(els):
            pick = els[index]
    elif scrollers:
        pick = max(scrollers, key=_area)
    if pick is not None and pick.bbox_pixels is not None and _area(pick) > 0:
        b = pick.bbox_pixels
        return int(b.x_min), int(b.y_min), int(b.x_max), int(b.y_max)
    return 0, SCREEN_HEIGHT // 8, SCREEN_WIDTH, SCREEN_HEIGHT * 7 // 8


def _stroke(region: tuple[int, int, int, int], finger: str) -> tuple[int, int, int, int]:
    """A finger stroke across 60% of ``region`` in direction ``finger``."""
    x1, y1, x2, y2 = region
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    w, h = x2 - x1, y2 - y1
    if finger in ("up", "down"):
        a, b = y1 + h * 4 // 5, y1 + h // 5
        return (cx, a, cx, b) if finger == "up" else (cx, b, cx, a)
    a, b = x1 + w * 4 // 5, x1 + w // 5
    return (a, cy, b, cy) if finger == "left" else (b, cy, a, cy)


def phone_tasks() -> list[str]:
    """The tasks that run on a phone (:func:`phoneworld_gym.readiness.phone_ready`), sorted."""
    from phoneworld_gym.readiness import phone_ready
    from phoneworld_gym.task import all_tasks

    return sorted(t for t in all_tasks() if phone_ready(t).phone)


def make_device_env(serial: str | None = None, *, host: str = "127.0.0.1", port: int = 5037,
                    guard: SafetyGuard | bool | None = True,
                    apps: Mapping[str, str | Sequence[str]] | None = None,
                    tasks: str | Sequence[str] | None = None, app: str | None = None,
                    category: str | None = None, split: str | None = None,
                    screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
                    device_options: Mapping[str, Any] | None = None,
                    **env_kwargs: Any) -> Any:
    """``PhoneWorld/Device-v0``: a :class:`~phoneworld_gym.env.PhoneEnv` over an
    :class:`AdbDevice`.

    ``serial`` (else ``$ANDROID_SERIAL``), ``host``, ``port``, ``guard``, ``apps`` and
    ``device_options`` (any other ``AdbDevice`` argument) build the device; the rest are
    ``PhoneEnv``'s. Without ``tasks`` the env plays the phone-ready tasks
    (:func:`phone_tasks`), filtered by ``app``, ``category`` and ``split`` when given.

    With neither ``serial`` nor ``$ANDROID_SERIAL`` the env never picks a phone by chance:
    it serves its own virtual phone (:class:`~phoneworld_gym.virtual.adb_server.
    VirtualPhone`, on a free loopback port) and drives it through the adb server like any
    phone, which is the whole adb path with no phone at hand. The phone stops with the
    device (``env.unwrapped.device.close()``, or when it is collected)."""
    from phoneworld_gym.env import PhoneEnv, select_tasks

    serial = serial or os.environ.get("ANDROID_SERIAL") or None

    if tasks is None:
        ready = set(phone_tasks())
        if app is None and category is None and split is None:
            picked = sorted(ready)
        else:
            picked = [t for t in select_tasks(None, app=app, category=category, split=split)
                      if t in ready]
        if not picked:
            raise ValueError(f"no phone-ready task matches app={app!r} category={category!r} "
                             f"split={split!r}; phone-ready tasks: {sorted(ready)}")
        tasks = picked
    phone = None
    if serial is None:
        from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

        phone = VirtualPhone(port=free_port()).start()
        serial = phone.serial
    try:
        device = AdbDevice(serial, host=host, port=port, guard=guard, apps=apps,
                           screenshot_size=screenshot_size, **dict(device_options or {}))
    except BaseException:
        if phone is not None:
            phone.stop()
        raise
    if phone is not None:
        device.own(phone)
    return PhoneEnv(tasks=tasks, split=split, device=device, screenshot_size=screenshot_size,
                    **env_kwargs)
