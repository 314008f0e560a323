"""The device commands the virtual adb phone serves (``input``, ``screencap``, ``uiautomator``,
``am``, ``pm``, ``settings``, ``content``, ``ls`` ...), each a Python function over a
:class:`~phoneworld_gym.device.Device`.

Commands change the phone only through the contract: taps, swipes, typing and keys become
:class:`~phoneworld_gym.contract.Action` s for ``device.execute``; content and settings writes
use the device's write verbs. Three PhoneWorld-only extras reach the world directly, each
marked where it happens: reading a file's bytes, ``rm`` of a shared-storage file, and
``am force-stop`` / ``settings delete`` (the contract has no verb for them).

The caller serialises access (the server holds one lock per phone around a command line).
Output follows Android's tools closely enough for ``adbutils`` and scripts that parse it:
see ``docs/real-devices.md`` for the list and the differences.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import datetime as dt
import hashlib
import io as _io
import json
import math
import posixpath
import re
import struct
import uuid
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, Action, swipe_finger
from phoneworld_gym.device import SETTINGS_NAMESPACES, Row
from phoneworld_gym.system.settings import BATTERY_LEVEL
from phoneworld_gym.virtual.shell import IO, SH, Env
from phoneworld_gym.virtual.storage import SDCARD, Storage, StorageError
from phoneworld_gym.world import DEFAULT_CLOCK, World, clock_at

LAUNCHER_PACKAGE = "com.google.android.apps.nexuslauncher"
LAUNCHER_ACTIVITY = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
SYSTEMUI_PACKAGE = "com.android.systemui"
#: packages every phone has besides the launcher and the mock apps
SYSTEM_PACKAGES = ("android", "com.android.settings", "com.android.shell", SYSTEMUI_PACKAGE)
DENSITY_DPI = 420
#: the three navigation buttons' centres (the bar is not in the dump, as on a phone)
NAV_BAR_Y = SCREEN_HEIGHT - 63
OVERVIEW_BUTTON = (SCREEN_WIDTH * 5 // 6, NAV_BAR_Y)
#: a drag shorter than this many pixels is a tap (Android's touch slop is 8 dp)
TOUCH_SLOP = 21
#: a still press at least this long is a long press
LONG_PRESS_MS = 500
PNG_LEVEL = 1
#: ``setprop phoneworld.reset SEED`` resets the virtual phone to the world of SEED
RESET_PROP = "phoneworld.reset"

#: ``input keyevent`` names (without ``KEYCODE_``) -> codes
KEYCODES: dict[str, int] = {
    "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "STAR": 17, "POUND": 18, "DPAD_UP": 19,
    "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24,
    "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27, "CLEAR": 28, "COMMA": 55, "PERIOD": 56,
    "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "GRAVE": 68, "MINUS": 69, "EQUALS": 70,
    "LEFT_BRACKET": 71, "RIGHT_BRACKET": 72, "BACKSLASH": 73, "SEMICOLON": 74,
    "APOSTROPHE": 75, "SLASH": 76, "AT": 77, "PLUS": 81, "MENU": 82, "NOTIFICATION": 83,
    "SEARCH": 84, "ESCAPE": 111, "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123,
    "VOLUME_MUTE": 164, "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
    **{str(d): 7 + d for d in range(10)},
    **{chr(c): 29 + c - ord("A") for c in range(ord("A"), ord("Z") + 1)},
}
#: key codes that type a character
KEY_CHARS: dict[int, str] = {
    **{7 + d: str(d) for d in range(10)},
    **{29 + i: chr(ord("a") + i) for i in range(26)},
    17: "*", 18: "#", 55: ",", 56: ".", 62: " ", 68: "`", 69: "-", 70: "=", 71: "[", 72: "]",
    73: "\\", 74: ";", 75: "'", 76: "/", 77: "@", 81: "+",
}

#: the kernel's boot id: a new random UUID at every boot (a virtual phone boots when its
#: server starts); ``cat`` serves it, and ``AdbDevice`` reads it to notice a restarted phone
BOOT_ID_PATH = "/proc/sys/kernel/random/boot_id"


@dataclasses.dataclass(frozen=True)
class Process:
    """One row of ``ps``: sizes in KiB, ``state`` one of toybox's letters (S sleeping,
    R running)."""

    user: str
    pid: int
    ppid: int
    vsz: int
    rss: int
    wchan: str
    state: str
    name: str


ZYGOTE_PID = 612
ADBD_PID = 571
#: the system's own processes, as ``ps -A`` lists them on a Pixel on Android 14 (the app
#: processes, the adb shell and ``ps`` itself are added per call: see ``PhoneCommands.processes``)
SYSTEM_PROCESSES = (
    Process("root", 1, 0, 10904596, 12088, "do_epoll_wait", "S", "init"),
    Process("root", 2, 0, 0, 0, "kthreadd", "S", "[kthreadd]"),
    Process("root", 281, 1, 10780640, 3516, "do_epoll_wait", "S", "ueventd"),
    Process("logd", 312, 1, 10958156, 7220, "do_epoll_wait", "S", "logd"),
    Process("system", 340, 1, 10798104, 4820, "do_epoll_wait", "S", "servicemanager"),
    Process("shell", ADBD_PID, 1, 10897232, 6012, "do_epoll_wait", "S", "adbd"),
    Process("root", ZYGOTE_PID, 1, 15047876, 139044, "do_sys_poll", "S", "zygote64"),
    Process("system", 1021, ZYGOTE_PID, 19364752, 412332, "do_epoll_wait", "S",
            "system_server"),
)
#: app processes get pids in this range (a stable pid per package: see ``app_ids``)
APP_PIDS = range(1100, 4000)
#: the first app uid handed out (uids below 10000 are the system's)
FIRST_APP_UID = 10100
#: packages that run as the system uid
SYSTEM_UID_PACKAGES = frozenset({"android", "com.android.settings"})
#: ``ps`` columns: name -> (width, right-aligned); the last column is never padded
PS_COLUMNS: dict[str, tuple[int, bool]] = {
    "USER": (12, False), "PID": (5, True), "PPID": (5, True), "UID": (5, True),
    "VSZ": (7, True), "RSS": (6, True), "WCHAN": (16, False), "ADDR": (4, True),
    "S": (1, False), "NAME": (27, False), "CMD": (27, False), "ARGS": (27, False),
    "COMM": (15, False), "CMDLINE": (27, False),
}
PS_DEFAULT = ("USER", "PID", "PPID", "VSZ", "RSS", "WCHAN", "ADDR", "S", "NAME")


def format_columns(rows: list[list[str]], columns: list[tuple[int, bool]]) -> str:
    """Rows in toybox's fixed columns: each column ends where its width says (a right-aligned
    one) or starts there (a left-aligned one), at least one space from the one before; a
    value too long for its column pushes the rest of the line along and the next columns
    take the slack back, as toybox does."""
    out = []
    for row in rows:
        line = ""
        end = 0  # where the current column ends when nothing overflows
        for k, (text, (width, right)) in enumerate(zip(row, columns)):
            start = end + (1 if k else 0)
            end = start + width
            gap = 1 if k else 0
            if right:
                pad = max(gap, end - len(line) - len(text))
            else:
                pad = max(gap, start - len(line))
            line += " " * pad + text
        out.append(line.rstrip() + "\n")
    return "".join(out)


def _cut_list(spec: str) -> list[tuple[int, int]]:
    """``cut``'s LIST (``1,3-5,7-,-2``) as 0-based inclusive ranges (``UsageError`` when
    malformed)."""
    ranges = []
    for piece in spec.split(","):
        lo, dash, hi = piece.partition("-")
        try:
            a = int(lo) if lo else 1
            b = (int(hi) if hi else 1 << 30) if dash else a
        except ValueError:
            raise UsageError(f"cut: bad list '{spec}'") from None
        if a < 1 or b < a or (not lo and not hi):
            raise UsageError(f"cut: bad list '{spec}'")
        ranges.append((a - 1, b - 1))
    return ranges


def _cut_pick(items: list[Any], ranges: list[tuple[int, int]]) -> list[Any]:
    """The items whose 0-based index falls in a range, in input order, each once."""
    return [x for i, x in enumerate(items) if any(a <= i <= b for a, b in ranges)]


@dataclasses.dataclass(frozen=True)
class Edit:
    """A key that rewrites the focused field without submitting it (DEL)."""

    text: str


def key_action(code: int, focused_text: Callable[[], str | None]
               ) -> Action | Edit | str | None:
    """What Android key ``code`` does on PhoneWorld: a contract action, a text to type into the
    focused field, or None (power, volume, menu ... do nothing). ``focused_text`` reads the
    focused field (DEL rewrites it minus its last character: the contract has no delete key).
    Shared by the virtual adb phone and the android_env simulator."""
    if code == 3:
        return Action("navigate_home")
    if code in (4, 111):
        return Action("navigate_back")
    if code in (66, 160):
        return Action("keyboard_enter")
    if code == 67:
        text = focused_text()
        return Edit(text[:-1]) if text else None
    if code == 187:
        return Action("click", x=OVERVIEW_BUTTON[0], y=OVERVIEW_BUTTON[1])
    return KEY_CHARS.get(code)


#: content provider URIs -> (table, fixed column values that select and fill rows)
PROVIDERS: dict[str, tuple[str, dict[str, Any]]] = {
    "content://com.android.contacts/contacts": ("contacts", {}),
    "content://com.android.contacts/raw_contacts": ("contacts", {}),
    "content://com.android.contacts/data/phones": ("contacts", {}),
    "content://com.android.contacts/data": ("contacts", {}),
    "content://contacts/people": ("contacts", {}),
    "content://sms": ("sms", {}),
    "content://sms/inbox": ("sms", {"type": 1}),
    "content://sms/sent": ("sms", {"type": 2}),
    "content://sms/draft": ("sms", {"type": 3}),
    "content://sms/outbox": ("sms", {"type": 4}),
    "content://com.android.calendar/events": ("calendar", {}),
    "content://com.android.deskclock/alarms": ("alarms", {}),
    "content://call_log/calls": ("call_log", {}),
    **{f"content://settings/{ns}": (f"settings/{ns}", {}) for ns in SETTINGS_NAMESPACES},
}


#: ``content --bind`` types
_BIND_TYPES: dict[str, Callable[[str], Any]] = {
    "s": str, "i": int, "l": int, "f": float, "d": float,
    "b": lambda v: v.lower() in ("true", "1"), "n": lambda v: None,
}


class UsageError(Exception):
    """A command was given arguments it cannot take: the message is printed, exit 1
    (``code`` otherwise)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


Handler = Callable[[list[str], IO, Env], int]


def encode_png(pixels: np.ndarray, level: int = PNG_LEVEL) -> bytes:
    """PNG bytes of an (H, W, 3) uint8 image (lossless: decoding gives ``pixels`` back)."""
    from PIL import Image

    buf = _io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGB").save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def date_output(t: dt.datetime, args: list[str]) -> str:
    """What toybox ``date [+FORMAT]`` prints for the phone's local time ``t`` (the phone's
    zone is UTC; ``%s`` is seconds since 1970); ``ValueError`` with the usage line for other
    arguments. The clock moves with the actions (:data:`phoneworld_gym.contract.ACTION_SECONDS`)."""
    if len(args) > 1 or (args and not args[0].startswith("+")):
        raise ValueError("usage: date [+FORMAT]")
    fmt = args[0][1:] if args else "%a %b %d %H:%M:%S UTC %Y"
    stamp = str(int(t.replace(tzinfo=dt.timezone.utc).timestamp()))
    out = re.sub(r"%(.)", lambda m: stamp if m.group(1) == "s" else "%" + m.group(1), fmt)
    try:
        return t.strftime(out) + "\n"
    except ValueError as e:
        raise ValueError(f"date: bad format {fmt!r}: {e}") from None


def sleep_seconds(args: list[str]) -> int:
    """The whole seconds of ``sleep N`` (0 to a day on a simulated phone, whose clock it moves
    on at once); ``ValueError`` with the message otherwise."""
    if len(args) != 1:
        raise ValueError("usage: sleep SECONDS")
    try:
        n = float(args[0])
    except ValueError:
        n = math.nan
    if not 0 <= n <= 86_400:
        raise ValueError(f"sleep: invalid number '{args[0]}' (0 to 86400 seconds on the "
                         "simulated phone)")
    return int(n)


def _num(text: str, what: str) -> float:
    """A finite number from ``text`` (``UsageError`` naming ``what``)."""
    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"Error: Invalid arguments for command: {what}") from None
    if not math.isfinite(v):
        raise UsageError(f"Error: Invalid arguments for command: {what}")
    return v


def _clamp_point(x: float, y: float) -> tuple[int, int]:
    return (min(max(int(x), 0), SCREEN_WIDTH - 1), min(max(int(y), 0), SCREEN_HEIGHT - 1))


def _on_screen(x: float, y: float) -> bool:
    """Whether a touch at (x, y) lands on the screen (its far edges included: scripts swipe
    up "from y=2400")."""
    return 0 <= x <= SCREEN_WIDTH and 0 <= y <= SCREEN_HEIGHT


def _value(v: Any) -> str:
    """A column value as ``content query`` prints it."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


# -- content --where -----------------------------------------------------------------------
_COND = re.compile(
    r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(==|=|!=|<>|<=|>=|<|>|\s+LIKE\s+|\s+IS\s+NOT\s+|\s+IS\s+)"
    r"\s*('(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|[^\s'\"]+)\s*", re.IGNORECASE)
_AND = re.compile(r"\s+AND\s+", re.IGNORECASE)


def parse_where(where: str) -> list[tuple[str, str, Any]]:
    """``col=val AND col2 LIKE 'a%' ...`` -> conditions (``ValueError`` when malformed).

    Operators: ``= == != <> < > <= >= LIKE IS [NOT] NULL``; values are numbers, ``'quoted'``
    or ``"quoted"`` strings (a doubled quote is one quote) or bare words. Only ``AND``
    joins conditions."""
    out: list[tuple[str, str, Any]] = []
    if not where.strip():
        return out
    # split on AND outside quotes
    pieces, cur, quote = [], [], ""
    i = 0
    while i < len(where):
        c = where[i]
        if quote:
            cur.append(c)
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
            cur.append(c)
        else:
            m = _AND.match(where, i)
            if m:
                pieces.append("".join(cur))
                cur = []
                i = m.end()
                continue
            cur.append(c)
        i += 1
    pieces.append("".join(cur))
    for piece in pieces:
        m = _COND.fullmatch(piece)
        if not m:
            raise ValueError(f"cannot read the condition {piece.strip()!r}")
        col, op, raw = m.group(1), " ".join(m.group(2).split()).upper(), m.group(3)
        value: Any
        if raw[0] in "'\"" and raw[-1] == raw[0] and len(raw) >= 2:
            value = raw[1:-1].replace(raw[0] * 2, raw[0])
        elif raw.upper() == "NULL":
            value = None
        else:
            value = raw
        if op in ("IS", "IS NOT") and value is not None:
            raise ValueError(f"{col} {op} takes NULL, got {raw!r}")
        out.append((col, op, value))
    return out


def _like(pattern: str, text: str) -> bool:
    """SQL LIKE (``%`` any run, ``_`` one character), case-insensitive for ASCII."""
    rx = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)
    return re.fullmatch(rx, text, re.IGNORECASE | re.DOTALL) is not None


def _compare(left: Any, op: str, right: Any) -> bool:
    if op == "IS":
        return left is None
    if op == "IS NOT":
        return left is not None
    if left is None or right is None:
        return False
    if op == "LIKE":
        return _like(str(right), _value(left))
    a: Any = _value(left)
    b: Any = str(right)
    try:
        a, b = float(a), float(b)
    except ValueError:
        pass
    if op in ("=", "=="):
        return bool(a == b)
    if op in ("!=", "<>"):
        return bool(a != b)
    try:
        return bool({"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op])
    except TypeError:
        return False


def matches(row: Row, conditions: list[tuple[str, str, Any]]) -> bool:
    """Whether a row meets every condition (``KeyError`` naming an unknown column)."""
    for col, op, value in conditions:
        if col not in row:
            raise KeyError(col)
        if not _compare(row[col], op, value):
            return False
    return True


class PhoneCommands:
    """Runs device commands against one phone: ``commands(argv, io, env) -> exit status``.

    ``props`` are the ``getprop`` properties; ``storage`` the phone's files; ``boot_id``
    what ``/proc/sys/kernel/random/boot_id`` reads (default: a new random UUID; the server
    draws a new one at each start, as a phone does at each boot)."""

    def __init__(self, device: Any, storage: Storage, props: dict[str, str],
                 boot_id: str | None = None) -> None:
        self.device = device
        self.storage = storage
        self.props = props
        self.boot_id = boot_id or str(uuid.uuid4())
        self._png: tuple[np.ndarray, bytes] | None = None
        self.handlers: dict[str, Handler] = {
            "input": self.input, "screencap": self.screencap, "uiautomator": self.uiautomator,
            "wm": self.wm, "dumpsys": self.dumpsys, "am": self.am, "monkey": self.monkey,
            "pm": self.pm, "cmd": self.cmd, "getprop": self.getprop, "setprop": self.setprop,
            "settings": self.settings, "content": self.content, "ls": self.ls,
            "cat": self.cat, "rm": self.rm, "mkdir": self.mkdir, "touch": self.touch,
            "cp": self.cp, "mv": self.mv, "cd": self.cd, "pwd": self.pwd, "grep": self.grep,
            "head": self.head, "tail": self.tail, "wc": self.wc, "id": self.id,
            "whoami": self.whoami, "uname": self.uname, "date": self.date, "sleep": self.sleep,
            "printf": self.printf, "cut": self.cut, "ps": self.ps, "pidof": self.pidof,
        }
        for algo in ("md5", "sha1", "sha256"):  # md5sum, sha1sum, sha256sum FILE...
            self.handlers[f"{algo}sum"] = _hash_handler(self, algo)

    # -- dispatch ------------------------------------------------------------------------
    def __call__(self, argv: list[str], io: IO, env: Env) -> int:
        """Run one command (the shell's :data:`~phoneworld_gym.virtual.shell.CommandRunner`)."""
        name = argv[0]
        if "/" in name and posixpath.dirname(name) in ("/system/bin", "/system/xbin", "/bin"):
            name = posixpath.basename(name)
        handler = self.handlers.get(name)
        if handler is None:
            io.err(f"{SH}: {argv[0]}: not found\n")
            return 127
        try:
            return handler(argv[1:], io, env)
        except UsageError as e:
            io.err(f"{e}\n")
            return e.code
        except StorageError as e:
            io.err(f"{name}: {e}\n")
            return 1

    def names(self) -> list[str]:
        """Every command served (builtins of the shell excluded)."""
        return sorted(self.handlers)

    # -- the screen ------------------------------------------------------------------------
    def _execute(self, action: Action) -> str:
        return str(self.device.execute(action))

    def _focused_text(self) -> str | None:
        """The text of the focused editable field in the dump, ``None`` when none has focus."""
        try:
            root = ET.fromstring(self.device.a11y_xml())
        except ET.ParseError:
            return None
        for node in root.iter("node"):
            if node.get("focused") == "true" and "EditText" in (node.get("class") or ""):
                return node.get("text") or ""
        return None

    def _advance(self, seconds: int) -> None:
        """Move the phone's clock on (see :data:`phoneworld_gym.contract.ACTION_SECONDS`): actions
        and typing move it in the device; ``sleep`` here."""
        world = getattr(self.device, "world", None)
        if isinstance(world, World):
            world.advance(seconds)

    def _type(self, text: str) -> None:
        """``input text``: characters into the focused field, no enter (as on a phone)."""
        self.device.edit_text(text)

    def _key(self, code: int) -> None:
        what = key_action(code, self._focused_text)
        if isinstance(what, Action):
            self._execute(what)
        elif isinstance(what, Edit):
            self.device.edit_text(what.text, replace=True)
        elif what is not None:
            self._type(what)

    def _gesture(self, x1: float, y1: float, x2: float, y2: float, ms: float) -> None:
        """A finger down at (x1, y1), moved to (x2, y2) over ``ms``: a tap, a long press or
        a swipe in the finger's direction."""
        if not _on_screen(x1, y1):
            return  # a touch that starts off the screen reaches nothing
        dx, dy = x2 - x1, y2 - y1
        start = _clamp_point(x1, y1)
        if math.hypot(dx, dy) < TOUCH_SLOP:
            kind = "long_press" if ms >= LONG_PRESS_MS else "click"
            self._execute(Action(kind, x=start[0], y=start[1]))
            return
        if abs(dy) >= abs(dx):
            direction = "up" if dy < 0 else "down"
        else:
            direction = "left" if dx < 0 else "right"
        # the contract's swipe names a horizontal finger motion the other way (AndroidWorld's)
        self._execute(Action("swipe", direction=swipe_finger(direction), x=start[0], y=start[1]))

    def input(self, args: list[str], io: IO, env: Env) -> int:
        """``input [SOURCE] [-d DISPLAY] tap|swipe|draganddrop|text|keyevent|press ...``."""
        sources = {"keyboard", "mouse", "touchpad", "touchscreen", "stylus", "trackball",
                   "dpad", "gamepad", "joystick", "touchnavigation", "keypad"}
        while args and (args[0] in sources or args[0] == "-d"):
            args = args[2:] if args[0] == "-d" else args[1:]
        if not args:
            raise UsageError("Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n"
                             "commands: text, keyevent, tap, swipe, draganddrop, press")
        cmd, rest = args[0], args[1:]
        if cmd == "tap":
            if len(rest) != 2:
                raise UsageError("Error: Invalid arguments for command: tap")
            x, y = _num(rest[0], "tap"), _num(rest[1], "tap")
            if _on_screen(x, y):
                cx, cy = _clamp_point(x, y)
                self._execute(Action("click", x=cx, y=cy))
            return 0
        if cmd in ("swipe", "draganddrop"):
            if len(rest) not in (4, 5):
                raise UsageError(f"Error: Invalid arguments for command: {cmd}")
            x1, y1, x2, y2 = (_num(v, cmd) for v in rest[:4])
            ms = _num(rest[4], cmd) if len(rest) == 5 else 300.0
            self._gesture(x1, y1, x2, y2, ms)
            return 0
        if cmd == "press":
            return 0  # the trackball press: nothing on a touch phone
        if cmd == "text":
            if not rest:
                raise UsageError("Error: Invalid arguments for command: text")
            self._type(android_text(" ".join(rest)))
            return 0
        if cmd == "keyevent":
            codes = [a for a in rest if not a.startswith("--")]
            if not codes:
                raise UsageError("Error: Invalid arguments for command: keyevent")
            parsed = [keycode(c) for c in codes]
            for code in parsed:
                self._key(code)
            return 0
        raise UsageError(f"Error: Unknown command: {cmd}")

    def _png_bytes(self) -> bytes:
        pixels = self.device.screenshot()
        if self._png is None or self._png[0] is not pixels:
            self._png = (pixels, encode_png(pixels))
        return self._png[1]

    def screencap(self, args: list[str], io: IO, env: Env) -> int:
        """``screencap [-p] [-d ID] [FILE]``: PNG with ``-p`` or a ``.png`` file name, else
        raw RGBA after a 16-byte header (width, height, format 1, colour space 0)."""
        png, path = False, None
        it = iter(args)
        for a in it:
            if a == "-p":
                png = True
            elif a == "-d":
                next(it, None)
            elif a in ("-h", "--help"):
                io.out("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
                return 0
            elif a.startswith("-"):
                raise UsageError(f"screencap: invalid option -- '{a.lstrip('-')[:1]}'")
            else:
                path = a
        if path is not None and path.endswith(".png"):
            png = True
        if png:
            data = self._png_bytes()
        else:
            pixels = np.asarray(self.device.screenshot(), dtype=np.uint8)
            h, w = pixels.shape[:2]
            rgba = np.concatenate([pixels, np.full((h, w, 1), 255, np.uint8)], axis=2)
            data = struct.pack("<4I", w, h, 1, 0) + rgba.tobytes()
        if path is None:
            io.out(data)
        else:
            self.storage.write(self.storage.resolve(path, env.cwd), data)
        return 0

    def uiautomator(self, args: list[str], io: IO, env: Env) -> int:
        """``uiautomator dump [--compressed] [FILE]`` (default ``/sdcard/window_dump.xml``;
        ``/dev/tty`` prints the XML)."""
        if not args or args[0] != "dump":
            raise UsageError("Usage: uiautomator <subcommand> [options]\n"
                             "Available subcommands: dump")
        path = f"{SDCARD}/window_dump.xml"
        for a in args[1:]:
            if not a.startswith("-"):
                path = a
        xml = self.device.a11y_xml()
        if path in ("/dev/tty", "/dev/stdout"):
            io.out(xml)
        else:
            try:
                self.storage.write(self.storage.resolve(path, env.cwd), xml.encode("utf-8"))
            except StorageError as e:
                io.out(f"ERROR: could not write {path}: {e}\n")
                return 1
        io.out(f"UI hierchary dumped to: {path}\n")
        return 0

    def wm(self, args: list[str], io: IO, env: Env) -> int:
        """``wm size`` and ``wm density`` (reading only)."""
        if args == ["size"]:
            io.out(f"Physical size: {SCREEN_WIDTH}x{SCREEN_HEIGHT}\n")
            return 0
        if args == ["density"]:
            io.out(f"Physical density: {DENSITY_DPI}\n")
            return 0
        if args and args[0] in ("size", "density"):
            raise UsageError(f"Error: changing the {args[0]} is not supported on the virtual "
                             "phone")
        raise UsageError("usage: wm size | wm density")

    # -- apps --------------------------------------------------------------------------
    def _packages(self) -> dict[str, str]:
        """Installed mock apps: package -> app name."""
        return {str(a.package): name for name, a in getattr(self.device, "apps", {}).items()}

    def _foreground(self) -> tuple[str, str]:
        """(package, activity class) of the window in front."""
        pkg = str(self.device.probe.foreground_app())
        if pkg == LAUNCHER_PACKAGE:
            return pkg, LAUNCHER_ACTIVITY
        if pkg == SYSTEMUI_PACKAGE:
            return pkg, f"{SYSTEMUI_PACKAGE}.NotificationShade"
        return pkg, f"{pkg}.MainActivity"

    def dumpsys(self, args: list[str], io: IO, env: Env) -> int:
        """``dumpsys window [windows]``, ``activity [activities|top]``, ``display``,
        ``power``, ``battery``; other services print a short notice."""
        service = args[0] if args else ""
        if service == "battery":
            return self._battery(args[1:], io)
        pkg, act = self._foreground()
        short = act[len(pkg):] if act.startswith(pkg + ".") else act
        uid, pid = self.app_ids().get(pkg, (FIRST_APP_UID - 1, APP_PIDS.stop))
        if service == "window":
            io.out(f"WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
                   f"  Window #0 Window{{e5c5b7e u0 {pkg}/{act}}}:\n"
                   f"    mDisplayId=0 rootTaskId=12 mSession=Session{{pw u0a0}} "
                   f"mClient=android.os.BinderProxy\n"
                   f"    mOwnerUid={uid} showForAllUsers=false package={pkg}\n\n"
                   f"  mCurrentFocus=Window{{e5c5b7e u0 {pkg}/{act}}}\n"
                   f"  mFocusedApp=ActivityRecord{{4f1d2a0 u0 {pkg}/{short} t12}}\n")
            return 0
        if service == "activity":
            sub = args[1] if len(args) > 1 else "activities"
            if sub == "top":
                io.out(f"TASK {uid}:{pkg} id=12 userId=0\n"
                       f"  ACTIVITY {pkg}/{short} 4f1d2a0 pid={pid}\n")
                return 0
            io.out(f"ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
                   f"Display #0 (activities from top to bottom):\n"
                   f"  * Task{{9c1e t12 type=standard A={uid}:{pkg} U=0 visible=true "
                   f"mode=fullscreen}}\n"
                   f"    * Hist  #0: ActivityRecord{{4f1d2a0 u0 {pkg}/{short} t12}}\n\n"
                   f"  ResumedActivity: ActivityRecord{{4f1d2a0 u0 {pkg}/{short} t12}}\n"
                   f"  mResumedActivity: ActivityRecord{{4f1d2a0 u0 {pkg}/{short} t12}}\n"
                   f"  mFocusedApp=ActivityRecord{{4f1d2a0 u0 {pkg}/{short} t12}}\n")
            return 0
        if service == "display":
            io.out(f"DISPLAY MANAGER (dumpsys display)\n"
                   f"  mDefaultDisplayId=0\n"
                   f"  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"local:0\", "
                   f"{SCREEN_WIDTH} x {SCREEN_HEIGHT}, density {DENSITY_DPI}, rotation 0}}\n"
                   f"  mCurrentOrientation=0\n"
                   f"  mOverrideDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, "
                   f"real {SCREEN_WIDTH} x {SCREEN_HEIGHT}, rotation 0, orientation=0}}\n")
            return 0
        if service == "power":
            io.out("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n"
                   "  mHoldingDisplaySuspendBlocker=true\n  Display Power: state=ON\n")
            return 0
        if not service:
            io.out("Currently running services:\n  activity\n  battery\n  display\n  power\n"
                   "  window\n")
            return 0
        io.out(f"Can't find service: {service}\n")
        return 0

    def _open(self, package: str) -> bool:
        """Bring ``package`` to the front (the launcher: go home); False if not installed."""
        if package == LAUNCHER_PACKAGE:
            self._execute(Action("navigate_home"))
            return True
        if package not in self._packages():
            return False
        return not self._execute(Action("open_app", app_name=package))

    def _force_stop(self, package: str) -> None:
        """Close an app: its screens are forgotten and, if it was in front, home shows.

        PhoneWorld only reaches the world's back stacks (no contract verb closes an app);
        another device just goes home when the app is in front."""
        name = self._packages().get(package)
        if name is None:
            return
        world = getattr(self.device, "world", None)
        if world is None or not hasattr(world, "stacks"):
            if self.device.probe.foreground_app() == package:
                self._execute(Action("navigate_home"))
            return
        in_front = world.foreground == name
        world.stacks.pop(name, None)
        world.recents = [a for a in world.recents if a != name]
        if in_front:
            world.foreground = "launcher"
            world.focus = None
        self.device.invalidate()

    def am(self, args: list[str], io: IO, env: Env) -> int:
        """``am start [-W] [-S] [-a ACTION] ... -n PKG/.Activity``, ``am force-stop PKG``,
        ``am broadcast -a ADB_INPUT_B64 --es msg B64`` (the ADBKeyboard IME)."""
        if not args:
            raise UsageError("usage: am start -n PKG/.Activity | am force-stop PKG")
        sub, rest = args[0], args[1:]
        if sub in ("force-stop", "kill"):
            pkgs = [a for a in rest if not a.startswith("-")]
            if not pkgs:
                raise UsageError(f"Error: am {sub} needs a package")
            self._force_stop(pkgs[-1])
            return 0
        if sub in ("start", "start-activity"):
            takes_value = {"-a", "-c", "-d", "-t", "-f", "-n", "--user", "--display", "-p",
                           "--windowingMode", "--activityType", "--es", "--ei", "--el",
                           "--ez", "--ef", "--eu", "--ecn", "--esa", "--eia"}
            component = None
            it = iter(rest)
            for a in it:
                if a == "-n":
                    component = next(it, None)
                elif a in takes_value:
                    next(it, None)
                    if a.startswith("--e") and a not in ("--ecn",):
                        next(it, None)  # extras: key and value
                elif not a.startswith("-") and "/" in a:
                    component = a
            if component is None or "/" not in component:
                io.out("Error: Activity not started, unable to resolve Intent\n")
                return 1
            pkg, _, act = component.partition("/")
            io.out(f"Starting: Intent {{ cmp={component} }}\n")
            if not self._open(pkg):
                full = act if not act.startswith(".") else pkg + act
                io.out(f"Error type 3\nError: Activity class {{{pkg}/{full}}} does not "
                       "exist.\n")
                return 1
            return 0
        if sub == "broadcast":
            return self._broadcast(rest, io)
        raise UsageError(f"Error: am {sub} is not supported on the virtual phone")

    def _broadcast(self, args: list[str], io: IO) -> int:
        """``am broadcast -a ADB_INPUT_B64 --es msg BASE64`` (or ``ADB_INPUT_TEXT --es msg
        TEXT``): what the ADBKeyboard IME receives, typing the text (any Unicode) into the
        focused field, as ``input text`` does (nothing when no field has focus). Other
        broadcasts reach no receiver."""
        action, extras = None, {}
        it = iter(args)
        for a in it:
            if a == "-a":
                action = next(it, None)
            elif a == "--es":
                key, value = next(it, None), next(it, None)
                if key is None or value is None:
                    raise UsageError("Error: --es needs a key and a value")
                extras[key] = value
            elif a in ("-n", "-p", "--user", "-f", "-c", "-d", "-t"):
                next(it, None)
            elif a in ("--ei", "--el", "--ez", "--ef", "--eu", "--eia"):
                next(it, None)
                next(it, None)
        io.out(f"Broadcasting: Intent {{ act={action} flg=0x400000"
               f"{' (has extras)' if extras else ''} }}\n")
        if action in ("ADB_INPUT_B64", "ADB_INPUT_TEXT") and "msg" in extras:
            if action == "ADB_INPUT_B64":
                try:
                    text = base64.b64decode(extras["msg"], validate=True).decode("utf-8")
                except (binascii.Error, ValueError):
                    io.out("Broadcast completed: result=0\n")
                    io.err("ADB_INPUT_B64: msg is not base64 of UTF-8 text\n")
                    return 1
            else:
                text = extras["msg"]
            if text:
                self._type(text)
        io.out("Broadcast completed: result=0\n")
        return 0

    def monkey(self, args: list[str], io: IO, env: Env) -> int:
        """``monkey -p PKG [-c CATEGORY] 1``: open the app (what ``adbutils.app_start``
        sends)."""
        pkg = None
        it = iter(args)
        for a in it:
            if a == "-p":
                pkg = next(it, None)
            elif a in ("-c", "--throttle", "-s"):
                next(it, None)
        if pkg is None or not self._open(pkg):
            io.out("** No activities found to run, monkey aborted.\n")
            return 252
        io.out("Events injected: 1\n## Network stats: elapsed time=5ms (0ms mobile, 0ms wifi, "
               "5ms not connected)\n")
        return 0

    def pm(self, args: list[str], io: IO, env: Env) -> int:
        """``pm list packages [-f] [-3] [-s] [FILTER]``, ``pm path PKG``."""
        apps = sorted(self._packages())
        system = sorted({*SYSTEM_PACKAGES, LAUNCHER_PACKAGE})
        if args[:2] == ["list", "packages"]:
            flags = [a for a in args[2:] if a.startswith("-")]
            words = [a for a in args[2:] if not a.startswith("-")]
            pkgs = apps if "-3" in flags else system if "-s" in flags else sorted(apps + system)
            if words:
                pkgs = [p for p in pkgs if words[0] in p]
            for p in pkgs:
                prefix = f"/data/app/{p}-1/base.apk=" if "-f" in flags else ""
                io.out(f"package:{prefix}{p}\n")
            return 0
        if args[:1] == ["path"] and len(args) == 2:
            if args[1] in apps or args[1] in system:
                io.out(f"package:/data/app/{args[1]}-1/base.apk\n")
                return 0
            return 1
        raise UsageError(f"Error: pm {' '.join(args[:1])} is not supported on the virtual "
                         "phone (pm list packages, pm path)")

    def cmd(self, args: list[str], io: IO, env: Env) -> int:
        """``cmd package ...`` is ``pm ...``; ``cmd window size``/``density`` is ``wm``."""
        if args[:1] == ["package"]:
            return self.pm(args[1:], io, env)
        if args[:1] == ["window"]:
            return self.wm(args[1:], io, env)
        if args[:1] == ["activity"]:
            return self.am(args[1:], io, env)
        raise UsageError(f"cmd: Can't find service: {args[0] if args else ''}", 20)

    # -- properties and settings -----------------------------------------------------------
    def getprop(self, args: list[str], io: IO, env: Env) -> int:
        """``getprop`` (every property) or ``getprop NAME [DEFAULT]``."""
        if not args:
            for k, v in sorted(self.props.items()):
                io.out(f"[{k}]: [{v}]\n")
            return 0
        io.out(self.props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
        return 0

    def setprop(self, args: list[str], io: IO, env: Env) -> int:
        """Properties are read-only on the virtual phone, but for one vendor property:
        ``setprop phoneworld.reset SEED`` resets the phone to the world of ``SEED`` (what
        ``AdbDevice.reset`` sends so that an episode over adb starts where the same episode
        on PhoneWorld does; a real phone refuses it). ``ro.phoneworld.seed`` then reads
        ``SEED``."""
        if len(args) == 2 and args[0] == RESET_PROP:
            if not args[1].isdigit() or int(args[1]) >= 2**63:
                raise UsageError(f"Failed to set property '{RESET_PROP}' to '{args[1]}': "
                                 "the seed is an integer in [0, 2**63)")
            seed = int(args[1])
            self.device.reset(seed)
            self.storage.scratch.clear()
            self.storage.made_dirs.clear()
            self._png = None
            self.props["ro.phoneworld.seed"] = str(seed)
            return 0
        raise UsageError(f"Failed to set property '{args[0] if args else ''}': not permitted")

    def _delete_setting(self, ns: str, key: str) -> int:
        """Remove a setting; returns how many were removed (PhoneWorld: the world's settings,
        since the contract has no delete verb for settings)."""
        world = getattr(self.device, "world", None)
        settings = getattr(world, "settings", None)
        if not isinstance(settings, dict) or key not in settings.get(ns, {}):
            return 0
        del settings[ns][key]
        self.device.invalidate()
        return 1

    def settings(self, args: list[str], io: IO, env: Env) -> int:
        """``settings [--user N] get|put|delete|list NAMESPACE [KEY [VALUE]]``."""
        while args and args[0] in ("--user", "--lineage"):
            args = args[2:] if args[0] == "--user" else args[1:]
        usage = "usage: settings [--user N] get|put|delete|list NAMESPACE [KEY [VALUE]]"
        if len(args) < 2:
            raise UsageError(usage)
        verb, ns, rest = args[0], args[1], args[2:]
        if ns not in SETTINGS_NAMESPACES:
            raise UsageError(f"Invalid namespace '{ns}'\n{usage}")
        if verb == "get" and len(rest) == 1:
            v = self.device.probe.setting(ns, rest[0])
            io.out(f"{'null' if v is None else v}\n")
            return 0
        if verb == "put" and len(rest) >= 2:
            try:
                self.device.put_setting(ns, rest[0], rest[1])
            except ValueError as e:
                raise UsageError(f"Error: {e}") from None
            return 0
        if verb == "delete" and len(rest) == 1:
            io.out(f"Deleted {self._delete_setting(ns, rest[0])} rows\n")
            return 0
        if verb == "list" and not rest:
            for row in self.device.probe.query(f"settings/{ns}"):
                io.out(f"{row['_id']}={row['value']}\n")
            return 0
        raise UsageError(usage)

    # -- content providers -----------------------------------------------------------------
    def _provider(self, uri: str) -> tuple[str, dict[str, Any], Any]:
        """(table, fixed values, row id or None) for a URI (``UsageError`` when unknown)."""
        base, row_id = uri.rstrip("/"), None
        if base not in PROVIDERS:
            head, _, tail = base.rpartition("/")
            if head in PROVIDERS and tail:
                base, row_id = head, tail
        if base not in PROVIDERS:
            authority = uri.removeprefix("content://").split("/", 1)[0]
            known = ", ".join(sorted(PROVIDERS))
            raise UsageError(f"Error while accessing provider:{authority}\n"
                             f"java.lang.IllegalArgumentException: Unknown URI {uri} "
                             f"(the virtual phone serves {known})")
        table, fixed = PROVIDERS[base]
        return table, fixed, row_id

    def _rows(self, table: str, fixed: dict[str, Any], row_id: Any,
              where: str | None) -> list[Row]:
        rows = self.device.probe.query(table)
        if table.startswith("settings/"):
            rows = [{"_id": i + 1, "name": r["_id"], "value": r["value"]}
                    for i, r in enumerate(rows)]
        conds = [(k, "=", v) for k, v in fixed.items()]
        if row_id is not None:
            conds.append(("_id", "=", row_id))
        try:
            conds += parse_where(where or "")
            return [r for r in rows if matches(r, conds)]
        except ValueError as e:
            raise UsageError(f"Error while accessing provider: bad --where: {e}") from None
        except KeyError as e:
            raise UsageError(f"Error while accessing provider: no such column: {e.args[0]}"
                             ) from None

    @staticmethod
    def _binds(values: Iterable[str]) -> Row:
        """``--bind col:TYPE:value`` values (types ``s i l f d b n``)."""
        out: Row = {}
        for b in values:
            col, _, rest = b.partition(":")
            kind, sep, raw = rest.partition(":")
            if not col or not sep and kind != "n":
                raise UsageError(f"Error: bad --bind {b!r}; expected COLUMN:TYPE:VALUE")
            try:
                out[col] = _BIND_TYPES[kind](raw)
            except KeyError:
                raise UsageError(f"Error: bad --bind type {kind!r} in {b!r} "
                                 "(s, i, l, f, d, b or n)") from None
            except ValueError:
                raise UsageError(f"Error: bad --bind value in {b!r}") from None
        return out

    def content(self, args: list[str], io: IO, env: Env) -> int:
        """``content query|insert|update|delete --uri URI [--projection a:b] [--where W]
        [--sort S] [--bind col:s:v ...]``."""
        if not args:
            raise UsageError("usage: content query|insert|update|delete --uri URI ...")
        verb, opts = args[0], args[1:]
        uri, projection, where, sort = None, None, None, None
        binds: list[str] = []
        it = iter(opts)
        for a in it:
            value = next(it, None)
            if value is None:
                raise UsageError(f"Error: {a} needs a value")
            if a == "--uri":
                uri = value
            elif a == "--projection":
                projection = [c for c in value.replace(",", ":").split(":") if c]
            elif a == "--where":
                where = value
            elif a == "--sort":
                sort = value
            elif a == "--bind":
                binds.append(value)
            elif a == "--user":
                pass
            else:
                raise UsageError(f"Error: unknown option {a}")
        if uri is None:
            raise UsageError("Error: --uri is required")
        table, fixed, row_id = self._provider(uri)
        if verb == "query":
            rows = self._rows(table, fixed, row_id, where)
            if sort:
                col, _, order = sort.strip().partition(" ")
                if rows and col not in rows[0]:
                    raise UsageError(f"Error while accessing provider: no such column: {col}")
                rows.sort(key=lambda r: (r.get(col) is None, _sort_key(r.get(col))),
                          reverse=order.strip().upper() == "DESC")
            if not rows:
                io.out("No result found.\n")
                return 0
            for n, row in enumerate(rows):
                cols = projection or list(row)
                missing = [c for c in cols if c not in row]
                if missing:
                    raise UsageError("Error while accessing provider: no such column: "
                                     f"{missing[0]}")
                io.out(f"Row: {n} " + ", ".join(f"{c}={_value(row[c])}" for c in cols) + "\n")
            return 0
        if verb == "insert":
            values = {**fixed, **self._binds(binds)}
            try:
                if table.startswith("settings/"):
                    self.device.put_setting(table.split("/", 1)[1], str(values.get("name")),
                                            str(values.get("value", "")))
                else:
                    self.device.insert(table, values)
            except (ValueError, TypeError) as e:
                raise UsageError(f"Error while accessing provider: {e}") from None
            return 0
        if verb in ("update", "delete"):
            rows = self._rows(table, fixed, row_id, where)
            values = self._binds(binds)
            if verb == "update" and not values:
                raise UsageError("Error: content update needs --bind")
            try:
                for row in rows:
                    if table.startswith("settings/"):
                        ns = table.split("/", 1)[1]
                        if verb == "delete":
                            self._delete_setting(ns, row["name"])
                        else:
                            self.device.put_setting(ns, row["name"],
                                                    str(values.get("value", row["value"])))
                    elif verb == "delete":
                        self.device.delete(table, row["_id"])
                    else:
                        self.device.update(table, row["_id"], values)
            except (ValueError, TypeError) as e:
                raise UsageError(f"Error while accessing provider: {e}") from None
            return 0
        raise UsageError(f"Error: content {verb} is not supported (query, insert, update, "
                         "delete)")

    # -- files ---------------------------------------------------------------------------
    def _path(self, path: str, env: Env) -> str:
        return self.storage.resolve(path, env.cwd)

    def proc_files(self) -> dict[str, bytes]:
        """The kernel's files the phone serves, read-only and outside its storage."""
        return {BOOT_ID_PATH: (self.boot_id + "\n").encode()}

    def read_file(self, path: str, env: Env) -> bytes:
        """A file's bytes as a command reads them: a kernel file (:meth:`proc_files`) or the
        phone's storage (:class:`StorageError` when there is no such file)."""
        full = self._path(path, env)
        proc = self.proc_files().get(full)
        return proc if proc is not None else self.storage.read(full)

    def ls(self, args: list[str], io: IO, env: Env) -> int:
        """``ls [-l] [-a] [-1] [PATH...]``."""
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        paths = [a for a in args if not a.startswith("-") or a == "-"] or [env.cwd]
        long = "l" in flags
        code = 0
        stamp = dt.datetime.fromtimestamp(self.storage.stat("/")[2],  # type: ignore[index]
                                          dt.timezone.utc).strftime("%Y-%m-%d %H:%M")

        def line(name: str, is_dir: bool, size: int) -> str:
            if not long:
                return name + "\n"
            mode = "drwxrwx--x" if is_dir else "-rw-rw----"
            return f"{mode} 2 root sdcard_rw {size:>8} {stamp} {name}\n"

        for k, p in enumerate(paths):
            full = self._path(p, env)
            if self.storage.is_file(full):
                st = self.storage.stat(full)
                io.out(line(p, False, st[1] if st else 0))
                continue
            if not self.storage.is_dir(full):
                io.err(f"ls: {p}: No such file or directory\n")
                code = 1
                continue
            entries = self.storage.listdir(full)
            if len(paths) > 1:
                io.out(("\n" if k else "") + f"{p}:\n")
            if long:
                io.out(f"total {len(entries) * 8}\n")
            for name, is_dir, size in entries:
                io.out(line(name, is_dir, size))
        return code

    def cat(self, args: list[str], io: IO, env: Env) -> int:
        """``cat [FILE...]`` (no file or ``-``: the input)."""
        code = 0
        for p in args or ["-"]:
            if p == "-":
                io.out(io.stdin)
                continue
            try:
                io.out(self.read_file(p, env))
            except StorageError as e:
                io.err(f"cat: {p}: {str(e).split(': ', 1)[-1]}\n")
                code = 1
        return code

    def rm(self, args: list[str], io: IO, env: Env) -> int:
        """``rm [-f] [-r] PATH...``."""
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        paths = [a for a in args if not (a.startswith("-") and len(a) > 1)]
        force, recursive = "f" in flags, "r" in flags or "R" in flags
        if not paths and not force:
            raise UsageError("rm: Needs 1 argument")
        code = 0
        for p in paths:
            full = self._path(p, env)
            try:
                if recursive and self.storage.is_dir(full):
                    self.storage.remove_tree(full)
                elif force and not self.storage.exists(full):
                    continue
                else:
                    self.storage.remove(full)
            except StorageError as e:
                io.err(f"rm: {p}: {str(e).split(': ', 1)[-1]}\n")
                code = 1
        return code

    def mkdir(self, args: list[str], io: IO, env: Env) -> int:
        """``mkdir [-p] DIR...``."""
        parents = "-p" in args
        code = 0
        for p in (a for a in args if not a.startswith("-")):
            try:
                self.storage.mkdir(self._path(p, env), parents)
            except StorageError as e:
                io.err(f"mkdir: {p}: {str(e).split(': ', 1)[-1]}\n")
                code = 1
        return code

    def touch(self, args: list[str], io: IO, env: Env) -> int:
        """``touch FILE...``: make empty files that do not exist."""
        for p in (a for a in args if not a.startswith("-")):
            full = self._path(p, env)
            if not self.storage.exists(full):
                self.storage.write(full, b"")
        return 0

    def cp(self, args: list[str], io: IO, env: Env) -> int:
        """``cp SRC DST`` (one file; DST may be a folder)."""
        files = [a for a in args if not a.startswith("-")]
        if len(files) != 2:
            raise UsageError("usage: cp SRC DST")
        src, dst = self._path(files[0], env), self._path(files[1], env)
        if self.storage.is_dir(dst):
            dst = posixpath.join(dst, posixpath.basename(src))
        self.storage.write(dst, self.storage.read(src))
        return 0

    def mv(self, args: list[str], io: IO, env: Env) -> int:
        """``mv SRC DST`` (one file)."""
        code = self.cp(args, io, env)
        self.storage.remove(self._path([a for a in args if not a.startswith("-")][0], env))
        return code

    def cd(self, args: list[str], io: IO, env: Env) -> int:
        """``cd [DIR]`` (default ``/``)."""
        target = self._path(args[0] if args else "/", env)
        if not self.storage.is_dir(target):
            io.err(f"{SH}: cd: {args[0]}: No such file or directory\n")
            return 2
        env.cwd = target
        return 0

    def pwd(self, args: list[str], io: IO, env: Env) -> int:
        """``pwd``."""
        io.out(env.cwd + "\n")
        return 0

    # -- text filters (for pipelines) -----------------------------------------------------
    def _inputs(self, files: list[str], io: IO, env: Env) -> bytes:
        if not files:
            return io.stdin
        return b"".join(io.stdin if f == "-" else self.read_file(f, env) for f in files)

    def grep(self, args: list[str], io: IO, env: Env) -> int:
        """``grep [-i] [-v] [-c] [-F|-E] PATTERN [FILE...]``: fixed-string matching only
        (no regular expressions, so no pattern can be slow)."""
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        words = [a for a in args if not (a.startswith("-") and len(a) > 1)]
        if not words:
            raise UsageError("usage: grep [-icv] PATTERN [FILE...]", 2)
        pattern, files = words[0], words[1:]
        text = self._inputs(files, io, env).decode("utf-8", "replace")
        ignore, invert = "i" in flags, "v" in flags
        needle = pattern.lower() if ignore else pattern
        hits = [ln for ln in text.splitlines()
                if ((needle in (ln.lower() if ignore else ln)) != invert)]
        if "c" in flags:
            io.out(f"{len(hits)}\n")
        else:
            io.out("".join(h + "\n" for h in hits))
        return 0 if hits else 1

    @staticmethod
    def _count(args: list[str]) -> tuple[int, list[str]]:
        n, files = 10, []
        it = iter(args)
        for a in it:
            if a == "-n":
                a = next(it, "10")
                n = int(a) if a.lstrip("-").isdigit() else 10
            elif a.startswith("-n") and a[2:].isdigit():
                n = int(a[2:])
            elif a.startswith("-") and a[1:].isdigit():
                n = int(a[1:])
            else:
                files.append(a)
        return n, files

    def head(self, args: list[str], io: IO, env: Env) -> int:
        """``head [-n N] [FILE...]``."""
        n, files = self._count(args)
        lines = self._inputs(files, io, env).splitlines(keepends=True)
        io.out(b"".join(lines[:n]))
        return 0

    def tail(self, args: list[str], io: IO, env: Env) -> int:
        """``tail [-n N] [FILE...]``."""
        n, files = self._count(args)
        lines = self._inputs(files, io, env).splitlines(keepends=True)
        io.out(b"".join(lines[-n:] if n else []))
        return 0

    def wc(self, args: list[str], io: IO, env: Env) -> int:
        """``wc [-l|-w|-c] [FILE...]``."""
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        data = self._inputs([a for a in args if not a.startswith("-") or a == "-"], io, env)
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        shown = [str(counts[k]) for k in "lwc" if k in flags] or \
            [str(counts[k]) for k in "lwc"]
        io.out(" ".join(shown) + "\n")
        return 0

    def cut(self, args: list[str], io: IO, env: Env) -> int:
        """``cut -f LIST [-d DELIM] [-s] [-O OUTDELIM] | -c LIST | -b LIST [FILE...]``: the
        fields (split at DELIM, default tab), characters or bytes of each line that LIST
        names (``1,3-5,7-,-2``, counted from 1), in input order. A line without the
        delimiter is printed whole (``-s``: left out)."""
        mode, spec, delim, outdelim, only_delimited = "", "", "\t", None, False
        files: list[str] = []
        it = iter(args)
        for a in it:
            if a.startswith("--output-delimiter="):
                outdelim = a.split("=", 1)[1]
                continue
            if not a.startswith("-") or a == "-":
                files.append(a)
                continue
            for k, c in enumerate(a[1:], 1):
                if c == "s":
                    only_delimited = True
                elif c in ("n", "D"):
                    pass  # -n (do not split characters), -D (LIST's order): ignored
                elif c in "bcfdO":
                    value = a[k + 1:] or next(it, None)
                    if value is None:
                        raise UsageError(f"cut: option -{c} needs a value")
                    if c == "d":
                        delim = value
                    elif c == "O":
                        outdelim = value
                    else:
                        if mode and mode != c:
                            raise UsageError("cut: -b, -c and -f exclude each other")
                        mode, spec = c, value
                    break
                else:
                    raise UsageError(f"cut: Unknown option '{c}'")
        if not mode:
            raise UsageError("cut: Needs -b, -c or -f")
        if len(delim) != 1:
            raise UsageError("cut: the delimiter must be a single character")
        ranges = _cut_list(spec)
        data = self._inputs(files, io, env)
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        out = bytearray()
        for raw in lines:
            if mode == "b":
                out += bytes(_cut_pick(list(raw), ranges)) + b"\n"
                continue
            line = raw.decode("utf-8", "surrogateescape")
            if mode == "c":
                picked = "".join(_cut_pick(list(line), ranges))
            elif delim not in line:
                if only_delimited:
                    continue
                picked = line
            else:
                sep = delim if outdelim is None else outdelim
                picked = sep.join(_cut_pick(line.split(delim), ranges))
            out += picked.encode("utf-8", "surrogateescape") + b"\n"
        io.out(bytes(out))
        return 0

    # -- small system commands ---------------------------------------------------------------
    def id(self, args: list[str], io: IO, env: Env) -> int:
        """``id``: the shell user."""
        io.out("uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n")
        return 0

    def whoami(self, args: list[str], io: IO, env: Env) -> int:
        """``whoami``."""
        io.out("shell\n")
        return 0

    def uname(self, args: list[str], io: IO, env: Env) -> int:
        """``uname [-a]``."""
        io.out("Linux localhost 6.1.0-phoneworld #1 SMP PREEMPT aarch64 Toybox\n"
               if "-a" in args else "Linux\n")
        return 0

    def date(self, args: list[str], io: IO, env: Env) -> int:
        """``date [+FORMAT]``: the phone's clock (see :func:`date_output`)."""
        world = getattr(self.device, "world", None)
        t = world.now() if isinstance(world, World) else clock_at(DEFAULT_CLOCK)
        try:
            io.out(date_output(t, args))
        except ValueError as e:
            raise UsageError(str(e)) from None
        return 0

    def sleep(self, args: list[str], io: IO, env: Env) -> int:
        """``sleep N``: returns at once, with the phone's clock moved on by N seconds
        (nothing on the phone happens by itself in between)."""
        try:
            self._advance(sleep_seconds(args))
        except ValueError as e:
            raise UsageError(str(e)) from None
        return 0

    def printf(self, args: list[str], io: IO, env: Env) -> int:
        """``printf FORMAT [ARG...]``: ``%s``, ``%d``, ``%%`` and ``\\n``/``\\t`` escapes."""
        if not args:
            raise UsageError("usage: printf FORMAT [ARG...]")
        fmt = args[0].replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
        values = iter(args[1:])
        out = re.sub(r"%([sd%])", lambda m: "%" if m.group(1) == "%"
                     else str(next(values, "" if m.group(1) == "s" else "0")), fmt)
        io.out(out)
        return 0

    # -- processes -------------------------------------------------------------------------
    def app_ids(self) -> dict[str, tuple[int, int]]:
        """package -> (uid, pid) of every app that can run: the installed ones, the launcher
        and the system's. Stable: a package keeps its uid and pid whatever else runs (uids by
        name order; pids from a hash of the name, the next free one on a clash)."""
        from phoneworld_gym.system import chrome, intents

        pkgs = sorted({*self._packages(), *SYSTEM_PACKAGES, LAUNCHER_PACKAGE,
                       chrome.SHADE_PACKAGE, intents.RESOLVER_PACKAGE,
                       intents.PERMISSION_PACKAGE} - {"android"})
        out: dict[str, tuple[int, int]] = {}
        taken: set[int] = set()
        for k, pkg in enumerate(pkgs):
            pid = APP_PIDS.start + zlib.crc32(pkg.encode()) % len(APP_PIDS)
            while pid in taken:
                pid = APP_PIDS.start + (pid - APP_PIDS.start + 1) % len(APP_PIDS)
            taken.add(pid)
            uid = 1000 if pkg in SYSTEM_UID_PACKAGES else 2000 if pkg == "com.android.shell" \
                else FIRST_APP_UID + k
            out[pkg] = (uid, pid)
        return out

    def running_packages(self) -> list[str]:
        """The app packages with a process: System UI, the launcher, every app with open
        screens (PhoneWorld's back stacks; another device: the app in front) and the
        package in front."""
        running = {SYSTEMUI_PACKAGE, LAUNCHER_PACKAGE, self._foreground()[0]}
        world = getattr(self.device, "world", None)
        stacks = getattr(world, "stacks", None)
        apps = getattr(self.device, "apps", {})
        if isinstance(stacks, dict):
            running |= {str(apps[name].package) for name, stack in stacks.items()
                        if stack and name in apps}
        return sorted(running)

    def processes(self, env: Env, command: str | None = None) -> list[Process]:
        """Every process, by pid: the system's, the running apps (children of zygote64), the
        adb shell (``$$``, a child of adbd) and ``command`` when given (the ``ps`` running,
        a child of the shell)."""
        ids = self.app_ids()
        procs = list(SYSTEM_PROCESSES)
        for pkg in self.running_packages():
            uid, pid = ids.get(pkg, (FIRST_APP_UID - 1, APP_PIDS.stop))
            user = "system" if uid == 1000 else "shell" if uid == 2000 else \
                f"u0_a{uid - 10000}"
            h = zlib.crc32(pkg.encode())
            procs.append(Process(user, pid, ZYGOTE_PID, 15300000 + h % 400000,
                                 90000 + h % 120000, "do_epoll_wait", "S", pkg))
        procs.append(Process("shell", env.pid, ADBD_PID, 10787100, 3772, "do_wait", "S", "sh"))
        if command is not None:
            procs.append(Process("shell", env.pid + 1, env.pid, 10803496, 4088, "0", "R",
                                 command))
        return sorted(procs, key=lambda p: p.pid)

    def ps(self, args: list[str], io: IO, env: Env) -> int:
        """toybox ``ps [-A|-e] [-p PID,...] [-o FIELD,...] [NAME...]``: without ``-A`` only
        this shell's processes (``sh`` and ``ps``), as toybox shows to an adb shell; with it
        every process. Columns ``USER PID PPID VSZ RSS WCHAN ADDR S NAME`` (``-o``: any of
        those and ``UID``, ``CMD``, ``ARGS``, ``COMM``, ``CMDLINE``; ``FIELD=`` names it
        nothing). NAME words keep the processes of that name, as Android's older ``ps``
        did."""
        every, pids, fields, names = False, set(), list(PS_DEFAULT), []
        headers: list[str] | None = None
        it = iter(args)
        for a in it:
            if not a.startswith("-") or a == "-":
                names.append(a)
                continue
            for k, c in enumerate(a[1:], 1):
                if c in "Ae":
                    every = True
                elif c in "wlfZ":
                    pass  # wide, long, full, security context: the same columns here
                elif c in "po":
                    value = a[k + 1:] or next(it, None)
                    if value is None:
                        raise UsageError(f"ps: option -{c} needs a value")
                    if c == "p":
                        try:
                            pids |= {int(v) for v in value.replace(",", " ").split()}
                        except ValueError:
                            raise UsageError(f"ps: bad -p '{value}'") from None
                    else:
                        specs = [f for f in value.replace(" ", ",").split(",") if f]
                        fields = [f.partition("=")[0].upper() for f in specs]
                        headers = [f.partition("=")[2] if "=" in f else f.upper()
                                   for f in specs]
                        bad = [f for f in fields if f not in PS_COLUMNS]
                        if bad or not fields:
                            raise UsageError(f"ps: bad -o {bad[0] if bad else value}")
                    break
                else:
                    raise UsageError(f"ps: Unknown option '{c}' (see \"ps --help\")")
        procs = self.processes(env, "ps")
        if pids:
            procs = [p for p in procs if p.pid in pids]
        elif not every:
            procs = [p for p in procs if p.pid in (env.pid, env.pid + 1)]
        if names:
            procs = [p for p in procs if p.name in names]
        values = {
            "USER": lambda p: p.user, "PID": lambda p: str(p.pid),
            "PPID": lambda p: str(p.ppid), "VSZ": lambda p: str(p.vsz),
            "RSS": lambda p: str(p.rss), "WCHAN": lambda p: p.wchan, "ADDR": lambda p: "0",
            "S": lambda p: p.state, "NAME": lambda p: p.name, "CMD": lambda p: p.name,
            "ARGS": lambda p: p.name, "CMDLINE": lambda p: p.name,
            "COMM": lambda p: p.name.strip("[]"),
            "UID": lambda p: str(self._uid_of(p.user)),
        }
        columns = [PS_COLUMNS[f] for f in fields]
        rows = [[values[f](p) for f in fields] for p in procs]
        head = headers if headers is not None else fields
        if any(head):
            rows.insert(0, head)
        io.out(format_columns(rows, columns))
        return 0

    @staticmethod
    def _uid_of(user: str) -> int:
        """The uid of a ``ps`` user name."""
        if user.startswith("u0_a"):
            return 10000 + int(user[4:])
        return {"root": 0, "system": 1000, "shell": 2000, "logd": 1036}.get(user, 9999)

    def pidof(self, args: list[str], io: IO, env: Env) -> int:
        """``pidof [-s] [-o PID,...] NAME...``: the pids of the processes of those names, on
        one line (exit status 1 and no output when there is none)."""
        single, omit, names = False, set(), []
        it = iter(args)
        for a in it:
            if a == "-s":
                single = True
            elif a.startswith("-o"):
                value = a[2:] or next(it, "")
                omit |= {v for v in value.split(",") if v}
            elif a.startswith("-") and a != "-":
                raise UsageError(f"pidof: Unknown option '{a[1:2]}'")
            else:
                names.append(a)
        if not names:
            raise UsageError("pidof: Need 1 argument")
        omit = {str(env.pid) if o == "%PPID" else o for o in omit}
        procs = self.processes(env)
        found = [p.pid for name in names for p in procs
                 if (p.name == name or p.name == f"[{name}]") and str(p.pid) not in omit]
        if single:
            found = found[:1]
        if not found:
            return 1
        io.out(" ".join(map(str, found)) + "\n")
        return 0

    def _battery(self, args: list[str], io: IO) -> int:
        """``dumpsys battery``: Android 14's report of a phone on battery at the level the
        status bar shows. ``set``/``unplug``/``reset`` are refused (the battery is fixed)."""
        if args:
            raise UsageError(f"Error: dumpsys battery {args[0]} is not supported on the "
                             "virtual phone (the battery state is fixed)")
        io.out("Current Battery Service state:\n"
               "  AC powered: false\n"
               "  USB powered: false\n"
               "  Wireless powered: false\n"
               "  Dock powered: false\n"
               "  Max charging current: 0\n"
               "  Max charging voltage: 0\n"
               "  Charging counter: 3894000\n"
               "  status: 3\n"
               "  health: 2\n"
               "  present: true\n"
               f"  level: {BATTERY_LEVEL}\n"
               "  scale: 100\n"
               "  voltage: 4172\n"
               "  temperature: 280\n"
               "  technology: Li-ion\n"
               "  Charging state: 1\n"
               "  Charging policy: 1\n"
               "  Capacity level: 3\n")
        return 0


def _hash_handler(commands: PhoneCommands, algo: str) -> Handler:
    def run(args: list[str], io: IO, env: Env) -> int:
        code = 0
        for p in args or ["-"]:
            try:
                data = io.stdin if p == "-" else commands.read_file(p, env)
            except StorageError as e:
                io.err(f"{algo}sum: {p}: {str(e).split(': ', 1)[-1]}\n")
                code = 1
                continue
            io.out(f"{hashlib.new(algo, data).hexdigest()}  {p}\n")
        return code

    return run


def _sort_key(v: Any) -> tuple[int, Any]:
    try:
        return (0, float(v))
    except (TypeError, ValueError):
        return (1, str(v))


def android_text(text: str) -> str:
    """What ``input text`` types for its argument: every ``%s`` becomes a space (as Android's
    ``Input.sendText`` does); everything else is typed as given."""
    return text.replace("%s", " ")


def keycode(text: str) -> int:
    """A key code from ``66``, ``KEYCODE_ENTER`` or ``ENTER`` (``UsageError`` otherwise)."""
    if text.isdigit():
        return int(text)
    name = text.upper().removeprefix("KEYCODE_")
    if name in KEYCODES:
        return KEYCODES[name]
    raise UsageError(f"Error: Unknown keycode: {text}")
