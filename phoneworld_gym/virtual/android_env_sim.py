"""PhoneWorld as an `android_env <https://github.com/google-deepmind/android_env>`_ simulator.

An android_env user steps PhoneWorld with android_env's own API and task protos::

    from phoneworld_gym.virtual.android_env_sim import make_android_env

    env = make_android_env("ContactsStar", seed=0)      # an android_env.AndroidEnv
    timestep = env.reset()                              # pixels, orientation, timedelta
    print(env.task_extras()["goal"])                    # "Add Aiko Olsen to my favorite ..."
    timestep = env.step({"action_type": np.array(0), "touch_position": np.array([.5, .5])})

:class:`PhoneWorldSimulator` is a :class:`~android_env.components.simulators.base_simulator.
BaseSimulator` over a :class:`~phoneworld_gym.phone.PhoneWorldDevice`:

- **screen**: ``get_screenshot`` is the device's screenshot at its ``screenshot_size``
  (1080 x 2400 by default, or smaller). android_env takes the screen size from the screenshot
  and turns a normalised ``touch_position`` into screenshot pixels; the simulator scales those
  back to PhoneWorld's 1080 x 2400 device pixels, so a normalised position means the same spot
  at every screenshot size. (``adb shell input tap X Y`` takes device pixels, as on a phone.)
- **touch** (``send_touch``, first finger only): a :class:`TouchTracker` follows down, move
  and up events. Down and up within :data:`TOUCH_SLOP` pixels is a tap; a finger held still
  for ``long_press_touches`` TOUCH events (android_env sends one per step; the default, 5,
  stands for Android's 500 ms at 100 ms a step) is a long press, fired while the finger is
  still down; a finger that moves further than the slop is a swipe in the direction from
  where it went down to where it was last seen (PhoneWorld's ``swipe``: a finger moving up
  scrolls the content down). The position of a LIFT is ignored (android_env documents it so).
  Time is counted in touch events, not seconds, so episodes are deterministic.
- **keys** (``send_key`` with Android key codes, on keydown or keypress): HOME 3, BACK 4
  (ESCAPE 111), ENTER 66 (NUMPAD_ENTER 160), DEL 67 (the focused field loses its last
  character), APP_SWITCH 187 (the Overview button), letters, digits and punctuation (typed into
  the focused field); other keys do nothing.
- **adb** (``create_adb_controller``): a :class:`PhoneWorldAdbController` that runs android_env's
  adb argument lists against PhoneWorld instead of an ``adb`` binary, so task protos' setup and
  reset steps (``start_activity``, ``force_stop``, ``tap``, ``press_button``, ``input_text``,
  ``settings``, ``get_current_activity``, ``get_orientation``, ``dumpsys``,
  ``package_manager list``, ``push``, ``pull`` of files it wrote, ``generic``) reach it. See
  :class:`PhoneWorldShell` for the commands served; anything else fails with android_env's
  ``ADB_ERROR`` status and a message saying what is served.
- **state**: ``save_state``/``load_state`` keep named in-memory snapshots of the world
  (``args={"snapshot_name": NAME}``).

:func:`make_android_env` builds a ready :class:`PhoneWorldAndroidEnv` (an
``android_env.AndroidEnv``) from android_env's own Coordinator, TaskManager and DeviceSettings.
Every episode starts from a fresh world. With a PhoneWorld ``task_id`` attached, a
:class:`PhoneWorldTaskManager` sets the task up at each reset (the episode is the one
``PhoneEnv(tasks=task_id).reset(seed=seed)`` gives first), puts its goal in
``env.task_extras()["goal"]``, and after every step asks the task's verifier whether the task
is done, as if the agent had said "complete": the step where it first scores 1 ends the episode
(``termination``) with reward 1; when android_env truncates the episode (``max_episode_steps``)
the reward of that last step is the verifier's score. Other steps have reward 0 (plus whatever
the task proto's log regexps give; PhoneWorld writes no logcat lines). android_env has no way to
say "infeasible" or to give an answer, so infeasible and information-retrieval tasks can never
score through it: use :class:`~phoneworld_gym.env.PhoneEnv` for those. Without a task the
rewards are 0 and only the task proto drives the episode.
"""

from __future__ import annotations

import collections
import dataclasses
import io
import math
import queue
import re
import shlex
import subprocess
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import dm_env
import numpy as np
from android_env import environment
from android_env.components import adb_controller, config_classes
from android_env.components import coordinator as coordinator_lib
from android_env.components import device_settings as device_settings_lib
from android_env.components import log_stream as log_stream_lib
from android_env.components import task_manager as task_manager_lib
from android_env.components.simulators import base_simulator
from android_env.proto import state_pb2, task_pb2
from google.protobuf import text_format

from phoneworld_gym.contract import (
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Action,
    AgentReport,
    swipe_finger,
)
from phoneworld_gym.device import SETTINGS_NAMESPACES, DeviceError, Row
from phoneworld_gym.env import PhoneEnv
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import chrome, launcher
from phoneworld_gym.task import Task, get_task
from phoneworld_gym.virtual.commands import Edit, date_output, key_action, sleep_seconds

#: a finger that moves less than this many device pixels taps (Android's slop is 8 dp)
TOUCH_SLOP = 21
#: ``input swipe`` held still at least this long is a long press
LONG_PRESS_MS = 500
LAUNCHER_ACTIVITY = f"{launcher.PACKAGE}.NexusLauncherActivity"
SYSTEMUI_PACKAGE = chrome.SHADE_PACKAGE
#: packages every phone has besides the launcher and the mock apps
SYSTEM_PACKAGES = ("android", "com.android.settings", "com.android.shell", SYSTEMUI_PACKAGE)
DENSITY_DPI = 420
#: ``setprop`` key that seeds the world of the next episode (what AndroidEnvDevice.reset sends)
SEED_PROPERTY = "phoneworld.seed"
PROPS: dict[str, str] = {
    "ro.product.manufacturer": "PhoneWorld", "ro.product.model": "PhoneWorld",
    "ro.product.brand": "phoneworld", "ro.product.name": "phoneworld",
    "ro.product.device": "phoneworld", "ro.build.version.release": "14",
    "ro.build.version.sdk": "34", "ro.build.type": "user", "sys.boot_completed": "1",
}

#: Android key codes the simulator acts on, by ``input keyevent`` name (without ``KEYCODE_``)
KEYCODES: dict[str, int] = {
    "HOME": 3, "BACK": 4, "STAR": 17, "POUND": 18, "COMMA": 55, "PERIOD": 56, "TAB": 61,
    "SPACE": 62, "ENTER": 66, "DEL": 67, "GRAVE": 68, "MINUS": 69, "EQUALS": 70,
    "LEFT_BRACKET": 71, "RIGHT_BRACKET": 72, "BACKSLASH": 73, "SEMICOLON": 74,
    "APOSTROPHE": 75, "SLASH": 76, "AT": 77, "PLUS": 81, "MENU": 82, "ESCAPE": 111,
    "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "NUMPAD_ENTER": 160,
    "APP_SWITCH": 187, "POWER": 26, "VOLUME_UP": 24, "VOLUME_DOWN": 25,
    **{str(d): 7 + d for d in range(10)},
    **{chr(c): 29 + c - ord("A") for c in range(ord("A"), ord("Z") + 1)},
}
#: content provider URIs the shell serves -> PhoneWorld table (rows carry the contract's
#: columns, as the project's virtual adb phone serves them)
PROVIDERS: dict[str, str] = {
    "content://com.android.contacts/contacts": "contacts",
    "content://com.android.contacts/raw_contacts": "contacts",
    "content://com.android.contacts/data": "contacts",
    "content://com.android.contacts/data/phones": "contacts",
    "content://contacts/people": "contacts",
    "content://sms": "sms",
    "content://com.android.calendar/events": "calendar",
    "content://com.android.deskclock/alarms": "alarms",
    "content://call_log/calls": "call_log",
    **{f"content://settings/{ns}": f"settings/{ns}" for ns in SETTINGS_NAMESPACES},
}
_BIND_TYPES: dict[str, Callable[[str], Any]] = {
    "s": str, "i": int, "l": int, "f": float, "d": float,
    "b": lambda v: v.lower() in ("true", "1"), "n": lambda v: None,
}
_WHERE = re.compile(r"""^\s*(\w+)\s*(==|=|!=|<>|<=|>=|<|>)\s*('(?:[^']|'')*'|"[^"]*"|\S+)\s*$""")


# -- touches -------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Gesture:
    """What a finger did: ``tap``, ``long_press`` or ``swipe`` (with the finger's
    ``direction``), starting at device pixel (``x``, ``y``)."""

    kind: str
    x: int
    y: int
    direction: str | None = None

    def action(self) -> Action:
        """The contract action that carries it out on PhoneWorld."""
        if self.kind == "tap":
            return Action("click", x=self.x, y=self.y)
        if self.kind == "long_press":
            return Action("long_press", x=self.x, y=self.y)
        # ``direction`` is the finger's; a contract swipe names it AndroidWorld's way
        return Action("swipe", x=self.x, y=self.y, direction=swipe_finger(self.direction or ""))


def swipe_direction(dx: float, dy: float) -> str:
    """The finger's direction for a movement of (dx, dy) device pixels (the larger wins)."""
    if abs(dy) >= abs(dx):
        return "up" if dy < 0 else "down"
    return "left" if dx < 0 else "right"


class TouchTracker:
    """Turns one finger's stream of (x, y, down) samples into :class:`Gesture` s.

    ``long_press_touches``: how many TOUCH samples a still finger needs for a long press
    (counting the first). ``slop``: how far (device pixels) a finger may wander and still tap.
    """

    def __init__(self, long_press_touches: int = 5, slop: int = TOUCH_SLOP):
        if long_press_touches < 2:
            raise ValueError(f"long_press_touches must be at least 2, got {long_press_touches}")
        self.long_press_touches = int(long_press_touches)
        self.slop = int(slop)
        self.reset()

    def reset(self) -> None:
        """Forget any finger on the screen (no gesture comes of it)."""
        self.down = False
        self.start = (0, 0)
        self.last = (0, 0)
        self.touches = 0
        self.moved = False
        self.fired = False

    def feed(self, x: int, y: int, down: bool) -> Gesture | None:
        """One sample; returns the gesture it completes, if any."""
        if down and not self.down:
            self.down, self.start, self.last = True, (x, y), (x, y)
            self.touches, self.moved, self.fired = 1, False, False
            return None
        if down:
            self.last = (x, y)
            self.touches += 1
            if not self.moved and math.dist(self.start, self.last) > self.slop:
                self.moved = True
            if not self.moved and not self.fired and self.touches >= self.long_press_touches:
                self.fired = True
                return Gesture("long_press", *self.start)
            return None
        if not self.down:
            return None  # a lift with no finger down
        self.down = False
        if self.fired:
            return None  # the long press already happened while the finger was down
        dx, dy = self.last[0] - self.start[0], self.last[1] - self.start[1]
        if not self.moved:
            return Gesture("tap", *self.start)
        if math.hypot(dx, dy) <= self.slop:
            return None  # dragged away and back: nothing
        return Gesture("swipe", *self.start, direction=swipe_direction(dx, dy))


# -- the simulator ---------------------------------------------------------------------------
@dataclasses.dataclass
class PhoneWorldSimulatorConfig(config_classes.SimulatorConfig):
    """Settings for :class:`PhoneWorldSimulator` (and android_env's ``SimulatorConfig``:
    ``interaction_rate_sec`` > 0 fetches screenshots on a background thread)."""

    #: world seed at launch (each episode's seed comes from the task manager)
    seed: int = 0
    #: installed apps (default: every registered app)
    apps: tuple[str, ...] | None = None
    #: (width, height) of screenshots, hence of android_env's screen
    screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT)
    #: TOUCH events a still finger needs for a long press (see :class:`TouchTracker`)
    long_press_touches: int = 5
    #: how far (device pixels) a finger may move and still tap
    touch_slop: int = TOUCH_SLOP


class PhoneWorldLogStream(log_stream_lib.LogStream):
    """The simulator's logcat: quiet unless :meth:`emit` is called (PhoneWorld's apps do not
    log), and stops promptly when android_env stops it."""

    def __init__(self, verbose: bool = False):
        super().__init__(verbose=verbose)
        self._lines: queue.Queue[str] = queue.Queue()
        self._stopped = threading.Event()

    def emit(self, tag: str, message: str) -> None:
        """Queue one logcat line (``TIME PID TID PRIORITY TAG: MESSAGE``)."""
        self._lines.put(f"         0.000  1000  1000 I {tag}: {message}")

    def _get_stream_output(self) -> Iterator[str]:
        while not self._stopped.is_set():
            try:
                yield self._lines.get(timeout=0.05)
            except queue.Empty:
                continue

    def stop_stream(self) -> None:
        self._stopped.set()


class PhoneWorldSimulator(base_simulator.BaseSimulator):
    """A PhoneWorld phone behind android_env's simulator interface (see the module docs).

    ``device``: the PhoneWorld phone to drive (default: a new one with ``config.apps`` and
    ``config.screenshot_size``). Every call that touches it holds :attr:`lock`.
    """

    def __init__(self, config: PhoneWorldSimulatorConfig | None = None, *,
                 device: PhoneWorldDevice | None = None):
        config = config or PhoneWorldSimulatorConfig()
        super().__init__(config)
        self.config = config
        if device is None:
            device = PhoneWorldDevice(apps=config.apps,
                                      screenshot_size=tuple(config.screenshot_size))  # type: ignore[arg-type]
        self.device: PhoneWorldDevice = device
        self.lock = threading.RLock()
        self.tracker = TouchTracker(config.long_press_touches, config.touch_slop)
        #: files the adb shell wrote (uiautomator dumps, screencaps, pushed files)
        self.files: dict[str, bytes] = {}
        #: the last actions the simulator carried out, with PhoneWorld's error sentence
        self.history: collections.deque[tuple[Action, str]] = collections.deque(maxlen=256)
        #: the seed the next world reset uses (``setprop phoneworld.seed N``), then None
        self.pending_seed: int | None = None
        self._states: dict[str, dict[str, Any]] = {}

    # -- BaseSimulator -------------------------------------------------------------------
    def adb_device_name(self) -> str:
        return "phoneworld"

    def create_adb_controller(self) -> PhoneWorldAdbController:
        return PhoneWorldAdbController(self)

    def create_log_stream(self) -> PhoneWorldLogStream:
        return PhoneWorldLogStream(verbose=self.config.verbose_logs)

    def get_logs(self) -> str:
        return "\n".join(f"{a.to_json_str()} -> {e or 'ok'}" for a, e in self.history)

    def _launch_impl(self) -> None:
        """Boot: a fresh world from the config's seed."""
        self.reset_world(self.config.seed)

    def send_touch(self, touches: list[tuple[int, int, bool, int]]) -> None:
        """Touch events in screenshot pixels; the first finger's become gestures."""
        w, h = self.device.screenshot_size
        for x, y, down, finger in touches:
            if int(finger) != 0:
                continue  # one finger: multi-touch gestures do not exist on PhoneWorld
            dx = min(SCREEN_WIDTH - 1, max(0, int((int(x) + 0.5) * SCREEN_WIDTH / w)))
            dy = min(SCREEN_HEIGHT - 1, max(0, int((int(y) + 0.5) * SCREEN_HEIGHT / h)))
            with self.lock:
                gesture = self.tracker.feed(dx, dy, bool(down))
                if gesture is not None:
                    self.perform(gesture.action())

    def send_key(self, keycode: np.int32, event_type: str) -> None:
        """An Android key code; acts on ``keydown`` and ``keypress`` (``keyup`` is ignored)."""
        if event_type == "keyup":
            return
        with self.lock:
            self.key(int(keycode))

    def _get_screenshot_impl(self) -> np.ndarray:
        with self.lock:
            return np.array(self.device.screenshot(), dtype=np.uint8)

    def save_state(self, request: state_pb2.SaveStateRequest) -> state_pb2.SaveStateResponse:
        """Keep the world in memory under ``args["snapshot_name"]`` (default ``default``)."""
        name = request.args.get("snapshot_name", "default")
        with self.lock:
            self._states[name] = {"world": self.device.snapshot(), "files": dict(self.files)}
        return state_pb2.SaveStateResponse(status=state_pb2.SaveStateResponse.Status.OK)

    def load_state(self, request: state_pb2.LoadStateRequest) -> state_pb2.LoadStateResponse:
        """Restore a world kept by :meth:`save_state`."""
        name = request.args.get("snapshot_name", "default")
        state = self._states.get(name)
        if state is None:
            return state_pb2.LoadStateResponse(
                status=state_pb2.LoadStateResponse.Status.NOT_FOUND,
                error_message=f"no saved state {name!r}; saved: {sorted(self._states)}")
        with self.lock:
            self.device.restore(state["world"])
            self.files = dict(state["files"])
            self.tracker.reset()
        return state_pb2.LoadStateResponse(status=state_pb2.LoadStateResponse.Status.OK)

    # -- PhoneWorld side -------------------------------------------------------------------
    def reset_world(self, seed: int) -> None:
        """A fresh world from ``seed``: home screen, no finger down, no files."""
        with self.lock:
            self.device.reset(int(seed))
            self.files = {}
            self.tracker.reset()

    def take_seed(self, default: int) -> int:
        """The seed for the next world: the pending one (``setprop``) if any, else
        ``default``."""
        seed, self.pending_seed = self.pending_seed, None
        return default if seed is None else seed

    def perform(self, action: Action) -> str:
        """Carry out a contract action on the device; returns PhoneWorld's error sentence."""
        with self.lock:
            err = self.device.execute(action)
            self.history.append((action, err))
            return err

    def focused_text(self) -> str | None:
        """The text of the focused editable field, ``None`` when no field has focus."""
        return focused_text(self.device.a11y_xml())

    def key(self, code: int) -> None:
        """One Android key code (see the module docs); unknown keys do nothing."""
        what = key_action(code, self.focused_text)
        if isinstance(what, Action):
            self.perform(what)
        elif isinstance(what, Edit):
            with self.lock:
                self.device.edit_text(what.text, replace=True)
        elif what is not None:
            self.type_text(what)

    def type_text(self, text: str) -> None:
        """Type into the focused field without pressing enter (as a keyboard does)."""
        with self.lock:
            self.device.edit_text(text)

    def gesture(self, x1: float, y1: float, x2: float, y2: float, ms: float) -> None:
        """``input swipe``: a finger from (x1, y1) to (x2, y2) in device pixels over ``ms``."""
        start = _clamp(x1, y1)
        dx, dy = x2 - x1, y2 - y1
        if math.hypot(dx, dy) <= self.tracker.slop:
            kind = "long_press" if ms >= LONG_PRESS_MS else "tap"
            self.perform(Gesture(kind, *start).action())
        else:
            self.perform(Gesture("swipe", *start, direction=swipe_direction(dx, dy)).action())

    def packages(self) -> dict[str, str]:
        """Installed mock apps: package -> app name."""
        return {str(a.package): name for name, a in self.device.apps.items()}

    def foreground(self) -> tuple[str, str]:
        """(package, full activity class name) of the window in front."""
        pkg = str(self.device.probe.foreground_app())
        if pkg == launcher.PACKAGE:
            return pkg, LAUNCHER_ACTIVITY
        if pkg == SYSTEMUI_PACKAGE:
            return pkg, f"{SYSTEMUI_PACKAGE}.NotificationShade"
        return pkg, f"{pkg}.MainActivity"

    def open_package(self, package: str) -> bool:
        """Bring ``package`` to the front (the launcher: go home); False if not installed."""
        if package == launcher.PACKAGE:
            self.perform(Action("navigate_home"))
            return True
        if package not in self.packages():
            return False
        return not self.perform(Action("open_app", app_name=package))

    def force_stop(self, package: str) -> None:
        """``am force-stop``: the app's screens are forgotten; home shows if it was in front.

        PhoneWorld only: the contract has no verb that closes an app, so this reaches the
        world's back stacks (as the project's virtual adb phone does)."""
        name = self.packages().get(package)
        if name is None:
            return
        with self.lock:
            world = self.device.world
            in_front = world.foreground == name
            world.stacks.pop(name, None)
            world.recents = [a for a in world.recents if a != name]
            if in_front:
                world.foreground = "launcher"
                world.focus = None
            self.device.invalidate()


def _clamp(x: float, y: float) -> tuple[int, int]:
    return (min(SCREEN_WIDTH - 1, max(0, int(x))), min(SCREEN_HEIGHT - 1, max(0, int(y))))


def focused_text(xml: str) -> str | None:
    """The text of the focused editable node of ``uiautomator dump`` XML, else ``None``."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return None
    for node in root.iter("node"):
        if node.get("focused") == "true" and (node.get("class") or "").endswith("EditText"):
            return node.get("text") or ""
    return None


# -- adb -------------------------------------------------------------------------------------
class ShellError(Exception):
    """A command failed: ``message`` is its output, ``status`` its exit status."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.message = message
        self.status = status


class PhoneWorldAdbController(adb_controller.AdbController):
    """android_env's adb controller, answered by PhoneWorld instead of an ``adb`` binary.

    ``execute_command(args)`` takes what android_env would append to ``adb -s SERIAL``:
    ``shell``/``exec-out`` command lines (run by :class:`PhoneWorldShell`), ``push``, ``pull``,
    ``devices``, ``get-state``, ``start-server``/``kill-server``. A failure raises
    ``subprocess.CalledProcessError`` with the message as its output, which android_env's
    ``AdbCallParser`` reports as ``ADB_ERROR`` with that ``error_message``.
    """

    def __init__(self, simulator: PhoneWorldSimulator):
        super().__init__(config_classes.AdbControllerConfig(
            device_name=simulator.adb_device_name(), use_adb_server_port_from_os_env=True))
        self.simulator = simulator
        self.shell = PhoneWorldShell(simulator)

    def init_server(self, timeout: float | None = None) -> None:
        """Nothing to start."""

    def _restart_server(self, timeout: float | None = None) -> None:
        """Nothing to restart."""

    def execute_command(self, args: list[str], timeout: float | None = None,
                        device_specific: bool = True) -> bytes:
        """Run one adb command (see the class docs); its output, or CalledProcessError."""
        del timeout, device_specific
        words = [str(a) for a in args]
        try:
            with self.simulator.lock:
                return self._run(words)
        except ShellError as e:
            raise subprocess.CalledProcessError(e.status, ["adb", *words],
                                                output=e.message.encode("utf-8")) from None

    def _run(self, args: list[str]) -> bytes:
        if not args:
            raise ShellError("adb: no command given")
        cmd, rest = args[0], args[1:]
        if cmd in ("shell", "exec-out"):
            status, out = self.shell.run(" ".join(rest))
            if status != 0:
                raise ShellError(out.decode("utf-8", "replace"), status)
            return out
        if cmd == "devices":
            name = self.simulator.adb_device_name()
            return f"List of devices attached\n{name}\tdevice\n".encode()
        if cmd == "get-state":
            return b"device\n"
        if cmd == "get-serialno":
            return f"{self.simulator.adb_device_name()}\n".encode()
        if cmd in ("start-server", "kill-server", "wait-for-device"):
            return b""
        if cmd == "push" and len(rest) == 2:
            with open(rest[0], "rb") as f:
                data = f.read()
            try:
                self.simulator.device.push_file(rest[1], data)
            except (ValueError, DeviceError) as e:
                raise ShellError(f"adb: error: failed to copy '{rest[0]}' to '{rest[1]}': {e}"
                                 ) from None
            self.simulator.files[rest[1]] = data
            return f"{rest[0]}: 1 file pushed.\n".encode()
        if cmd == "pull" and len(rest) == 2:
            pulled = self.simulator.files.get(rest[0])
            if pulled is None:
                raise ShellError(f"adb: error: remote object '{rest[0]}' does not exist "
                                 "(PhoneWorld pulls the files adb wrote: pushed files, "
                                 "uiautomator dumps, screencaps)")
            with open(rest[1], "wb") as f:
                f.write(pulled)
            return f"{rest[0]}: 1 file pulled.\n".encode()
        if cmd in ("install", "install-multiple", "uninstall"):
            raise ShellError(f"adb {cmd}: PhoneWorld's apps are built in; it cannot install or "
                             "uninstall packages")
        raise ShellError(f"adb {cmd}: not served by PhoneWorld (served: shell, exec-out, push, "
                         "pull, devices, get-state, get-serialno)")


class PhoneWorldShell:
    """The device commands PhoneWorld's adb serves, parsed like ``sh`` would (quotes; ``;``,
    ``&&`` and ``|`` into ``grep``/``head``/``tail``; no redirections or substitutions).

    Served: ``input tap|swipe|draganddrop|text|keyevent|press``; ``am start [-S] -n PKG/ACT``,
    ``am force-stop|kill PKG``, ``am stack list``, ``am broadcast`` (nothing listens);
    ``monkey -p PKG``; ``pm list packages``, ``pm path``, ``pm grant`` (PhoneWorld has no
    runtime permissions: always granted); ``settings get|put|list``; ``content
    query|insert|update|delete`` of the common tables (:data:`PROVIDERS`, rows with the
    contract's columns); ``uiautomator dump [FILE|/dev/tty]``, ``cat``, ``rm`` of the files it
    wrote; ``screencap [-p] [FILE]`` (at the screenshot size); ``dumpsys input|window|activity``;
    ``wm size|density``; ``getprop``; ``setprop phoneworld.seed N`` (the next episode's world
    seed); ``service check``; ``echo``, ``date [+FORMAT]`` and ``sleep N`` (returns at once,
    the phone's clock moved on by N seconds), ``true``, ``false``.
    Not served (exit status 1 with a message): ``am task lock`` (screen pinning), ``pm clear``,
    ``settings delete|reset``, installs, and any other command (127, "not found").
    """

    def __init__(self, simulator: PhoneWorldSimulator):
        self.sim = simulator
        self.handlers: dict[str, Callable[[list[str]], bytes]] = {
            "input": self.input, "am": self.am, "monkey": self.monkey, "pm": self.pm,
            "settings": self.settings, "content": self.content, "uiautomator": self.uiautomator,
            "cat": self.cat, "rm": self.rm, "screencap": self.screencap,
            "dumpsys": self.dumpsys, "wm": self.wm, "getprop": self.getprop,
            "setprop": self.setprop, "service": self.service, "echo": self.echo,
            "sleep": self.sleep, "date": self.date, "true": self.nothing,
            "false": self.false,
        }

    @property
    def device(self) -> PhoneWorldDevice:
        return self.sim.device

    # -- parsing -------------------------------------------------------------------------
    def run(self, line: str) -> tuple[int, bytes]:
        """Run a command line; (exit status of the last command, output)."""
        try:
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            tokens = list(lexer)
        except ValueError as e:
            return 2, f"/system/bin/sh: syntax error: {e}\n".encode()
        out = b""
        status = 0
        for joiner, pipeline in _split_lists(tokens):
            if joiner == "&&" and status != 0:
                continue
            try:
                data = self._pipeline(pipeline)
                status = 0
            except ShellError as e:
                data, status = e.message.encode("utf-8"), e.status
            out += data
        return status, out

    def _pipeline(self, tokens: list[str]) -> bytes:
        stages: list[list[str]] = [[]]
        for t in tokens:
            if t == "|":
                stages.append([])
            elif t and set(t) <= set("();<>&|"):
                raise ShellError(f"/system/bin/sh: {t!r}: not served by PhoneWorld's shell", 2)
            else:
                stages[-1].append(t)
        if not stages[0]:
            return b""
        out = self.command(stages[0])
        for stage in stages[1:]:
            out = _filter(stage, out)
        return out

    def command(self, argv: list[str]) -> bytes:
        """Run one simple command; its output, or ShellError."""
        name = argv[0].rsplit("/", 1)[-1]
        handler = self.handlers.get(name)
        if handler is None:
            raise ShellError(f"/system/bin/sh: {argv[0]}: not found\n", 127)
        return handler(argv[1:])

    # -- commands ------------------------------------------------------------------------
    def nothing(self, args: list[str]) -> bytes:
        return b""

    def false(self, args: list[str]) -> bytes:
        raise ShellError("", 1)

    def date(self, args: list[str]) -> bytes:
        try:
            return date_output(self.device.world.now(), args).encode()
        except ValueError as e:
            raise ShellError(f"{e}\n", 1) from None

    def sleep(self, args: list[str]) -> bytes:
        try:
            self.device.world.advance(sleep_seconds(args))
        except ValueError as e:
            raise ShellError(f"{e}\n", 1) from None
        return b""

    def echo(self, args: list[str]) -> bytes:
        return (" ".join(args) + "\n").encode()

    def input(self, args: list[str]) -> bytes:
        """``input [SOURCE] tap X Y | swipe X1 Y1 X2 Y2 [MS] | text T | keyevent K...``."""
        sources = {"keyboard", "mouse", "touchpad", "touchscreen", "stylus", "trackball",
                   "dpad", "gamepad", "joystick", "touchnavigation", "keypad"}
        while args and args[0] in sources:
            args = args[1:]
        if not args:
            raise ShellError("Usage: input [<source>] <command> [<arg>...]\n")
        cmd, rest = args[0], args[1:]
        try:
            if cmd == "tap" and len(rest) == 2:
                x, y = float(rest[0]), float(rest[1])
                self.sim.perform(Gesture("tap", *_clamp(x, y)).action())
                return b""
            if cmd in ("swipe", "draganddrop") and len(rest) in (4, 5):
                x1, y1, x2, y2 = (float(v) for v in rest[:4])
                ms = float(rest[4]) if len(rest) == 5 else 300.0
                self.sim.gesture(x1, y1, x2, y2, ms)
                return b""
        except ValueError:
            raise ShellError(f"Error: Invalid arguments for command: {cmd}\n") from None
        if cmd == "text" and rest:
            self.sim.type_text(" ".join(rest).replace("%s", " "))
            return b""
        if cmd == "keyevent" and rest:
            codes = [keycode(a) for a in rest if not a.startswith("--")]
            for code in codes:
                self.sim.key(code)
            return b""
        if cmd in ("press", "roll"):
            return b""
        raise ShellError(f"Error: Invalid arguments for command: {cmd}\n")

    def am(self, args: list[str]) -> bytes:
        """``am start|force-stop|kill|stack list|broadcast``."""
        sub, rest = (args[0], args[1:]) if args else ("", [])
        if sub in ("force-stop", "kill"):
            pkgs = [a for a in rest if not a.startswith("-")]
            if not pkgs:
                raise ShellError(f"Error: am {sub} needs a package\n")
            self.sim.force_stop(pkgs[-1])
            return b""
        if sub in ("start", "start-activity"):
            return self._start(rest)
        if sub == "stack" and rest[:1] == ["list"]:
            pkg, act = self.sim.foreground()
            return (f"RootTask id=1 bounds=[0,0][{SCREEN_WIDTH},{SCREEN_HEIGHT}] "
                    f"displayId=0 userId=0\n"
                    f"  taskId=1: {pkg}/{act} bounds=[0,0][{SCREEN_WIDTH},{SCREEN_HEIGHT}] "
                    f"userId=0 visible=true topActivity=ComponentInfo{{{pkg}/{act}}}\n").encode()
        if sub == "broadcast":
            action = rest[rest.index("-a") + 1] if "-a" in rest[:-1] else ""
            return (f"Broadcasting: Intent {{ act={action} }}\n"
                    "Broadcast completed: result=0\n").encode()
        raise ShellError(f"Error: am {sub} is not served by PhoneWorld (start, force-stop, "
                         "kill, stack list, broadcast)\n")

    def _start(self, rest: list[str]) -> bytes:
        takes_value = {"-a", "-c", "-d", "-t", "-f", "-n", "--user", "--display", "-p",
                       "--windowingMode", "--activityType", "-e", "--es", "--ei", "--el",
                       "--ez", "--ef", "--eu", "--esa", "--eia", "--ecn"}
        component, stop = None, False
        it = iter(rest)
        for a in it:
            if a == "-n":
                component = next(it, None)
            elif a == "-S":
                stop = True
            elif a in takes_value:
                next(it, None)
                if a.startswith("-e") and a != "--ecn":
                    next(it, None)  # an extra: key and value
            elif not a.startswith("-") and "/" in a:
                component = a
        if component is None or "/" not in component:
            raise ShellError("Error: Activity not started, unable to resolve Intent\n")
        pkg, _, act = component.partition("/")
        full = pkg + act if act.startswith(".") else act
        if stop:
            self.sim.force_stop(pkg)
        if not self.sim.open_package(pkg):
            raise ShellError(f"Starting: Intent {{ cmp={component} }}\nError type 3\n"
                             f"Error: Activity class {{{pkg}/{full}}} does not exist.\n")
        return (f"Starting: Intent {{ cmp={component} }}\nStatus: ok\n"
                f"Activity: {pkg}/{full}\nComplete\n").encode()

    def monkey(self, args: list[str]) -> bytes:
        """``monkey -p PKG [-c CATEGORY] N``: open the app."""
        pkg = args[args.index("-p") + 1] if "-p" in args[:-1] else None
        if pkg is None or not self.sim.open_package(pkg):
            raise ShellError("** No activities found to run, monkey aborted.\n", 252)
        return b"Events injected: 1\n"

    def pm(self, args: list[str]) -> bytes:
        """``pm list packages [-3|-s] [FILTER]``, ``pm path PKG``, ``pm grant PKG PERM``."""
        apps = sorted(self.sim.packages())
        system = sorted({*SYSTEM_PACKAGES, launcher.PACKAGE})
        if args[:2] == ["list", "packages"]:
            flags = [a for a in args[2:] if a.startswith("-")]
            words = [a for a in args[2:] if not a.startswith("-")]
            pkgs = apps if "-3" in flags else system if "-s" in flags else sorted(apps + system)
            if words:
                pkgs = [p for p in pkgs if words[0] in p]
            return "".join(f"package:{p}\n" for p in pkgs).encode()
        if args[:1] == ["path"] and len(args) == 2 and args[1] in apps + system:
            return f"package:/data/app/{args[1]}-1/base.apk\n".encode()
        if args[:1] == ["grant"] and len(args) >= 3:
            return b""
        raise ShellError(f"Error: pm {' '.join(args[:1])} is not served by PhoneWorld "
                         "(list packages, path, grant)\n")

    def settings(self, args: list[str]) -> bytes:
        """``settings [--user N] get|put|list NAMESPACE [KEY [VALUE]]``."""
        while args[:1] == ["--user"]:
            args = args[2:]
        usage = "usage: settings [--user N] get|put|list NAMESPACE [KEY [VALUE]]\n"
        if len(args) < 2:
            raise ShellError(usage)
        verb, ns, rest = args[0], args[1], args[2:]
        if ns not in SETTINGS_NAMESPACES:
            raise ShellError(f"Invalid namespace '{ns}'\n{usage}")
        if verb == "get" and len(rest) == 1:
            v = self.device.probe.setting(ns, rest[0])
            return f"{'null' if v is None else v}\n".encode()
        if verb == "put" and len(rest) >= 2:
            try:
                self.device.put_setting(ns, rest[0], rest[1])
            except ValueError as e:
                raise ShellError(f"Error: {e}\n") from None
            return b""
        if verb == "list" and not rest:
            rows = self.device.probe.query(f"settings/{ns}")
            return "".join(f"{r['_id']}={r['value']}\n" for r in rows).encode()
        if verb in ("delete", "reset"):
            raise ShellError(f"settings {verb}: not served by PhoneWorld (get, put, list)\n")
        raise ShellError(usage)

    def content(self, args: list[str]) -> bytes:
        """``content query|insert|update|delete --uri URI [--projection a:b] [--where W]
        [--sort S] [--bind col:TYPE:value ...]`` over :data:`PROVIDERS`."""
        if not args:
            raise ShellError("usage: content query|insert|update|delete --uri URI ...\n")
        verb, opts = args[0], args[1:]
        uri, projection, where, sort = None, None, "", ""
        binds: Row = {}
        it = iter(opts)
        for a in it:
            value = next(it, None)
            if value is None:
                raise ShellError(f"Error: {a} needs a value\n")
            if a == "--uri":
                uri = value
            elif a == "--projection":
                projection = [c for c in value.replace(",", ":").split(":") if c]
            elif a == "--where":
                where = value
            elif a == "--sort":
                sort = value
            elif a == "--bind":
                binds.update(_bind(value))
            elif a != "--user":
                raise ShellError(f"Error: unknown option {a}\n")
        if uri is None:
            raise ShellError("Error: --uri is required\n")
        table, row_id = _provider(uri)
        try:
            if verb == "query":
                return self._query(table, row_id, where, projection, sort)
            if verb == "insert":
                if table.startswith("settings/"):
                    self.device.put_setting(table.split("/", 1)[1], str(binds.get("name")),
                                            str(binds.get("value", "")))
                else:
                    self.device.insert(table, binds)
                return b""
            if verb in ("update", "delete"):
                if table.startswith("settings/"):
                    raise ShellError(f"content {verb} of settings: not served by PhoneWorld "
                                     "(use settings put)\n")
                if verb == "update" and not binds:
                    raise ShellError("Error: content update needs --bind\n")
                for row in self._rows(table, row_id, where):
                    if verb == "delete":
                        self.device.delete(table, row["_id"])
                    else:
                        self.device.update(table, row["_id"], binds)
                return b""
        except (ValueError, TypeError, DeviceError) as e:
            raise ShellError(f"Error while accessing provider: {e}\n") from None
        raise ShellError(f"Error: content {verb} is not served (query, insert, update, "
                         "delete)\n")

    def _rows(self, table: str, row_id: str | None, where: str) -> list[Row]:
        rows = self.device.probe.query(table)
        if table.startswith("settings/"):
            rows = [{"_id": i + 1, "name": r["_id"], "value": r["value"]}
                    for i, r in enumerate(rows)]
        conds = parse_where(where)
        if row_id is not None:
            conds.append(("_id", "=", row_id))
        return [r for r in rows if all(_holds(r, c) for c in conds)]

    def _query(self, table: str, row_id: str | None, where: str,
               projection: list[str] | None, sort: str) -> bytes:
        rows = self._rows(table, row_id, where)
        if sort:
            col, _, order = sort.strip().partition(" ")
            rows.sort(key=lambda r: (r.get(col) is None, str(r.get(col))),
                      reverse=order.strip().upper() == "DESC")
        if not rows:
            return b"No result found.\n"
        lines = []
        for n, row in enumerate(rows):
            cols = projection or list(row)
            missing = [c for c in cols if c not in row]
            if missing:
                raise ShellError(f"Error while accessing provider: no such column: "
                                 f"{missing[0]}\n")
            lines.append(f"Row: {n} " + ", ".join(f"{c}={_shown(row[c])}" for c in cols))
        return ("\n".join(lines) + "\n").encode()

    def uiautomator(self, args: list[str]) -> bytes:
        """``uiautomator dump [--compressed] [FILE]`` (default ``/sdcard/window_dump.xml``;
        ``/dev/tty`` prints the XML)."""
        if args[:1] != ["dump"]:
            raise ShellError("Usage: uiautomator dump [--compressed] [FILE]\n")
        paths = [a for a in args[1:] if not a.startswith("-")]
        path = paths[0] if paths else "/sdcard/window_dump.xml"
        xml = self.device.a11y_xml()
        if path in ("/dev/tty", "/dev/stdout"):
            return f"{xml}\nUI hierchary dumped to: {path}\n".encode()
        self.sim.files[path] = xml.encode("utf-8")
        return f"UI hierchary dumped to: {path}\n".encode()

    def cat(self, args: list[str]) -> bytes:
        out = b""
        for path in args:
            data = self.sim.files.get(path)
            if data is None:
                raise ShellError(f"cat: {path}: No such file or directory\n")
            out += data
        return out

    def rm(self, args: list[str]) -> bytes:
        for path in (a for a in args if not a.startswith("-")):
            self.sim.files.pop(path, None)
        return b""

    def screencap(self, args: list[str]) -> bytes:
        """``screencap [-p] [FILE]``: PNG with ``-p`` or a ``.png`` name, else raw RGBA after
        a 12-byte header; at the screenshot size."""
        from PIL import Image

        paths = [a for a in args if not a.startswith("-")]
        png = "-p" in args or (bool(paths) and paths[0].endswith(".png"))
        pixels = np.asarray(self.device.screenshot(), dtype=np.uint8)
        if png:
            buf = io.BytesIO()
            Image.fromarray(pixels).save(buf, format="PNG", compress_level=1)
            data = buf.getvalue()
        else:
            h, w = pixels.shape[:2]
            rgba = np.concatenate([pixels, np.full((h, w, 1), 255, np.uint8)], axis=2)
            data = np.array([w, h, 1], dtype="<u4").tobytes() + rgba.tobytes()
        if paths:
            self.sim.files[paths[0]] = data
            return b""
        return data

    def dumpsys(self, args: list[str]) -> bytes:
        """``dumpsys input`` (orientation 0), ``window``, ``activity [PKG ...]`` (with the
        view hierarchy from the accessibility tree)."""
        service = args[0] if args else ""
        pkg, act = self.sim.foreground()
        if service == "input":
            return (f"INPUT MANAGER (dumpsys input)\n\n  Display: 0\n"
                    f"    PhysicalWidth: {SCREEN_WIDTH}px\n"
                    f"    PhysicalHeight: {SCREEN_HEIGHT}px\n"
                    f"    SurfaceOrientation: 0\n").encode()
        if service == "window":
            return (f"WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
                    f"  mCurrentFocus=Window{{1 u0 {pkg}/{act}}}\n"
                    f"  mFocusedApp=ActivityRecord{{2 u0 {pkg}/{act} t1}}\n").encode()
        if service == "activity":
            return self._activity().encode()
        if not service:
            return b"Currently running services:\n  activity\n  input\n  window\n"
        return f"Can't find service: {service}\n".encode()

    def _activity(self) -> str:
        pkg, act = self.sim.foreground()
        lines = [f"TASK {pkg} id=1 userId=0", f"  ACTIVITY {pkg}/{act} 1 pid=1000",
                 "    View Hierarchy:"]
        try:
            root = ET.fromstring(self.device.a11y_xml())
        except ET.ParseError:
            root = ET.Element("hierarchy")

        def walk(node: ET.Element, depth: int) -> None:
            for i, child in enumerate(node.findall("node")):
                bounds = re.findall(r"-?\d+", child.get("bounds", ""))
                box = f"{bounds[0]},{bounds[1]}-{bounds[2]},{bounds[3]}" if len(bounds) == 4 \
                    else "0,0-0,0"
                rid = child.get("resource-id") or ""
                lines.append("  " * depth + f"{child.get('class')}{{{i:x} V.E...... ........ "
                             f"{box}{' ' + rid if rid else ''}}}")
                walk(child, depth + 1)

        walk(root, 3)
        return "\n".join(lines) + "\n"

    def wm(self, args: list[str]) -> bytes:
        if args == ["size"]:
            return f"Physical size: {SCREEN_WIDTH}x{SCREEN_HEIGHT}\n".encode()
        if args == ["density"]:
            return f"Physical density: {DENSITY_DPI}\n".encode()
        raise ShellError("wm: PhoneWorld serves wm size and wm density (reading only)\n")

    def getprop(self, args: list[str]) -> bytes:
        if not args:
            return "".join(f"[{k}]: [{v}]\n" for k, v in sorted(PROPS.items())).encode()
        return (PROPS.get(args[0], args[1] if len(args) > 1 else "") + "\n").encode()

    def setprop(self, args: list[str]) -> bytes:
        if len(args) == 2 and args[0] == SEED_PROPERTY:
            try:
                self.sim.pending_seed = int(args[1])
            except ValueError:
                raise ShellError(f"setprop {SEED_PROPERTY}: the seed must be an int\n") from None
            return b""
        raise ShellError(f"Failed to set property '{args[0] if args else ''}' (PhoneWorld sets "
                         f"only {SEED_PROPERTY})\n")

    def service(self, args: list[str]) -> bytes:
        if args[:1] == ["check"] and len(args) == 2:
            return f"Service {args[1]}: found\n".encode()
        raise ShellError("usage: service check SERVICE\n")


def _split_lists(tokens: list[str]) -> Iterator[tuple[str, list[str]]]:
    """(what joins it to the previous one: ";" or "&&", the pipeline's tokens)."""
    joiner, current = ";", list[str]()
    for t in tokens:
        if t in (";", "&&"):
            yield joiner, current
            joiner, current = t, []
        else:
            current.append(t)
    yield joiner, current


def _filter(argv: list[str], data: bytes) -> bytes:
    """``grep [-E|-F|-i|-v] PATTERN``, ``head -n N``, ``tail -n N`` over ``data``."""
    lines = data.decode("utf-8", "replace").splitlines(keepends=True)
    name, args = (argv[0], argv[1:]) if argv else ("", [])
    if name == "grep":
        flags = {a for a in args if a.startswith("-")}
        words = [a for a in args if not a.startswith("-")]
        if not words:
            raise ShellError("usage: grep [-E|-F|-i|-v] PATTERN\n", 2)
        pattern = re.escape(words[0]) if "-F" in flags else words[0]
        rx = re.compile(pattern, re.IGNORECASE if "-i" in flags else 0)
        keep = [ln for ln in lines if bool(rx.search(ln)) != ("-v" in flags)]
        if not keep:
            raise ShellError("", 1)
        return "".join(keep).encode()
    if name in ("head", "tail"):
        n = 10
        if len(args) == 2 and args[0] == "-n" and args[1].isdigit():
            n = int(args[1])
        return "".join(lines[:n] if name == "head" else lines[-n:] if n else []).encode()
    raise ShellError(f"/system/bin/sh: {name}: not served after a pipe (grep, head, tail)\n",
                     127)


def keycode(text: str) -> int:
    """``66``, ``ENTER`` or ``KEYCODE_ENTER`` -> 66 (ShellError when unknown)."""
    if text.isdigit():
        return int(text)
    code = KEYCODES.get(text.upper().removeprefix("KEYCODE_"))
    if code is None:
        raise ShellError(f"Error: Unknown keycode {text!r}\n")
    return code


def _provider(uri: str) -> tuple[str, str | None]:
    """(table, row id or None) for a content URI (ShellError when not served)."""
    base = uri.rstrip("/")
    if base in PROVIDERS:
        return PROVIDERS[base], None
    head, _, tail = base.rpartition("/")
    if head in PROVIDERS and tail:
        return PROVIDERS[head], tail
    authority = uri.removeprefix("content://").split("/", 1)[0]
    raise ShellError(f"Error while accessing provider:{authority}\n"
                     f"java.lang.IllegalArgumentException: Unknown URI {uri} (PhoneWorld "
                     f"serves {', '.join(sorted(PROVIDERS))})\n")


def _bind(text: str) -> Row:
    col, _, rest = text.partition(":")
    kind, sep, raw = rest.partition(":")
    if not col or (not sep and kind != "n") or kind not in _BIND_TYPES:
        raise ShellError(f"Error: bad --bind {text!r}; expected COLUMN:TYPE:VALUE with TYPE one "
                         "of s i l f d b n\n")
    try:
        return {col: _BIND_TYPES[kind](raw)}
    except ValueError:
        raise ShellError(f"Error: bad --bind value in {text!r}\n") from None


def parse_where(where: str) -> list[tuple[str, str, str]]:
    """``col=value AND col2!='x'`` -> [(col, op, value)] (ShellError when not understood)."""
    conds = []
    for part in re.split(r"\s+AND\s+", where.strip(), flags=re.IGNORECASE) if where.strip() \
            else []:
        m = _WHERE.match(part)
        if m is None:
            raise ShellError(f"Error while accessing provider: --where {where!r}: PhoneWorld "
                             "takes conditions col OP value joined by AND\n")
        col, op, value = m.groups()
        if value[:1] in "'\"" and value[-1:] == value[:1] and len(value) >= 2:
            value = value[1:-1].replace("''", "'")
        conds.append((col, op, value))
    return conds


def _holds(row: Row, cond: tuple[str, str, str]) -> bool:
    """Whether ``row`` meets one ``--where`` condition (numbers compare as numbers)."""
    col, op, want = cond
    if col not in row:
        raise ShellError(f"Error while accessing provider: no such column: {col}\n")
    have = "" if row[col] is None else row[col]
    left: Any
    right: Any
    try:
        left, right = float(have), float(want)
    except (TypeError, ValueError):
        left, right = str(have), want
    if op in ("=", "=="):
        return bool(left == right)
    if op in ("!=", "<>"):
        return bool(left != right)
    return bool({"<": left < right, ">": left > right, "<=": left <= right,
                 ">=": left >= right}[op])


def _shown(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


# -- the task and the env --------------------------------------------------------------------
class PhoneWorldTaskManager(task_manager_lib.TaskManager):
    """android_env's TaskManager, plus a fresh PhoneWorld world and (optionally) a PhoneWorld
    task at every episode (see the module docs).

    ``tasks``: PhoneWorld task id(s) to sample from, or None (no task: reward 0). ``seed``:
    the first episode is ``PhoneEnv(tasks).reset(seed=seed)``'s, later ones continue its
    generator; without a task, episode ``k`` has world seed ``seed + k``. A pending
    ``setprop phoneworld.seed N`` overrides the seed of the next episode.
    """

    def __init__(self, task: task_pb2.Task, simulator: PhoneWorldSimulator, *,
                 tasks: str | Sequence[str] | None = None, seed: int = 0,
                 split: str | None = None,
                 config: config_classes.TaskManagerConfig | None = None):
        super().__init__(task, config=config)
        self.simulator = simulator
        self.seed = int(seed)
        self.episodes = 0
        self.phone_env: PhoneEnv | None = None
        if tasks is not None:
            self.phone_env = PhoneEnv(tasks, split=split, device=simulator.device,
                                      obs_mode="a11y")
        self._over = False

    @property
    def phoneworld_task(self) -> Task | None:
        """The PhoneWorld task of this episode (None without one)."""
        return self.phone_env.task if self.phone_env is not None else None

    def reset_task(self) -> None:
        """A fresh world (and the task set up in it), then the proto's reset steps."""
        with self.simulator.lock:
            if self.phone_env is not None:
                default = self.seed if self.episodes == 0 else None
                pending = self.simulator.pending_seed
                self.simulator.pending_seed = None
                self.phone_env.reset(seed=pending if pending is not None else default)
                self.simulator.files = {}
                self.simulator.tracker.reset()
            else:
                self.simulator.reset_world(self.simulator.take_seed(self.seed + self.episodes))
        self.episodes += 1
        self._over = False
        super().reset_task()
        task = self.phoneworld_task
        if task is not None:
            self._process_extra("task", type(task).id)
            self._process_extra("goal", task.goal)

    def rl_step(self, observation: dict[str, Any]) -> dm_env.TimeStep:
        """android_env's step, then the verifier: reward 1 and the end of the episode as soon
        as the task is done; at truncation the verifier's score."""
        timestep = super().rl_step(observation)
        task = self.phoneworld_task
        if task is None or self._over or self.phone_env is None or timestep.observation is None:
            return timestep
        with self.simulator.lock:
            score = float(task.verify(self.phone_env.task_device,  # type: ignore[arg-type]
                                      AgentReport(status="complete")))
        if score < 1.0 and not timestep.last():
            return timestep
        self._over = True
        extras = timestep.observation["extras"]
        extras["score"] = np.array([score], dtype=np.float32)
        extras["failure"] = np.array([task.failure])
        reward = float(timestep.reward or 0.0) + score
        if score >= 1.0 and not timestep.last():
            return dm_env.termination(reward=reward, observation=timestep.observation)
        return timestep._replace(reward=reward)


class PhoneWorldAndroidEnv(environment.AndroidEnv):
    """``android_env.AndroidEnv`` over a :class:`PhoneWorldSimulator`, with the PhoneWorld
    side in reach: :attr:`simulator`, :attr:`device`, :attr:`task` and :attr:`goal`."""

    def __init__(self, simulator: PhoneWorldSimulator,
                 coordinator: coordinator_lib.Coordinator,
                 task_manager: PhoneWorldTaskManager):
        super().__init__(simulator=simulator, coordinator=coordinator,
                         task_manager=task_manager)
        self.simulator = simulator
        self.phoneworld_task_manager = task_manager

    @property
    def device(self) -> PhoneWorldDevice:
        """The PhoneWorld phone behind the simulator."""
        return self.simulator.device

    @property
    def task(self) -> Task | None:
        """This episode's PhoneWorld task (None without one)."""
        return self.phoneworld_task_manager.phoneworld_task

    @property
    def goal(self) -> str:
        """This episode's goal ("" without a task)."""
        task = self.task
        return task.goal if task is not None else ""


def load_task_proto(task_proto: task_pb2.Task | str) -> task_pb2.Task:
    """A task proto, or one read from a ``.textproto``/``.pbtxt`` (text) or binary file."""
    if isinstance(task_proto, task_pb2.Task):
        return task_proto
    task = task_pb2.Task()
    if str(task_proto).endswith((".textproto", ".pbtxt", ".txt")):
        with open(task_proto, encoding="utf-8") as f:
            text_format.Parse(f.read(), task)
    else:
        with open(task_proto, "rb") as f:
            task.ParseFromString(f.read())
    return task


def default_task_proto(tasks: str | Sequence[str] | None,
                       max_steps: int | None = None) -> task_pb2.Task:
    """The task proto :func:`make_android_env` uses when none is given: no setup or reset
    steps, ``max_episode_steps`` = ``max_steps`` (default: 4 raw steps per step of the
    PhoneWorld task's budget, since a tap is a TOUCH and a LIFT and a swipe several; 0,
    unlimited, without a task), and the extras it reports declared."""
    ids = [] if tasks is None else [tasks] if isinstance(tasks, str) else list(tasks)
    if max_steps is None:
        max_steps = 4 * max((get_task(t).step_budget() for t in ids), default=0)
    name = ", ".join(ids) if ids else "free play"
    strings = task_pb2.ArraySpec.DataType.STRING
    return task_pb2.Task(
        id=f"phoneworld/{ids[0] if len(ids) == 1 else 'phoneworld'}",
        name=f"PhoneWorld: {name}",
        description=("PhoneWorld behind android_env. The goal of each episode is in "
                     "task_extras()['goal']; the reward is the PhoneWorld verifier's."
                     if ids else "PhoneWorld behind android_env, with no task (reward 0)."),
        max_episode_steps=int(max_steps),
        extras_spec=[task_pb2.ArraySpec(name="task", shape=[1], dtype=strings),
                     task_pb2.ArraySpec(name="goal", shape=[1], dtype=strings),
                     task_pb2.ArraySpec(name="score", shape=[1],
                                        dtype=task_pb2.ArraySpec.DataType.FLOAT),
                     task_pb2.ArraySpec(name="failure", shape=[1], dtype=strings)],
    )


def make_android_env(
    task_id: str | Sequence[str] | None = None,
    seed: int = 0,
    task_proto: task_pb2.Task | str | None = None,
    *,
    apps: Sequence[str] | None = None,
    screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
    split: str | None = None,
    max_steps: int | None = None,
    enable_key_events: bool = True,
    simulator_config: PhoneWorldSimulatorConfig | None = None,
    coordinator_config: config_classes.CoordinatorConfig | None = None,
    task_manager_config: config_classes.TaskManagerConfig | None = None,
) -> PhoneWorldAndroidEnv:
    """A ready ``android_env.AndroidEnv`` over PhoneWorld, built as android_env's loader
    builds one (TaskManager, DeviceSettings, Coordinator), with :class:`PhoneWorldSimulator`
    as the simulator and :class:`PhoneWorldTaskManager` as the task manager.

    Args:
        task_id: PhoneWorld task id(s) whose goal and verifier drive each episode (see the
            module docs), or None for rewards of 0.
        seed: seed of the first episode (see :class:`PhoneWorldTaskManager`).
        task_proto: an android_env ``Task`` proto or a path to one (its setup and reset steps
            run through PhoneWorld's adb; reset steps run after the PhoneWorld task's setup).
            Default: :func:`default_task_proto`.
        apps, screenshot_size: the phone's apps and screenshot (width, height); ignored when
            ``simulator_config`` is given.
        split: which goal wordings episodes use (as ``PhoneEnv``'s ``split``).
        max_steps: ``max_episode_steps`` of the default task proto.
        enable_key_events: android_env's KEYDOWN/KEYUP/KEYPRESS action types (Android key
            codes); ignored when ``coordinator_config`` is given.
        simulator_config, coordinator_config, task_manager_config: android_env configs.
    """
    config = simulator_config or PhoneWorldSimulatorConfig(
        seed=int(seed), apps=tuple(apps) if apps is not None else None,
        screenshot_size=(int(screenshot_size[0]), int(screenshot_size[1])))
    proto = load_task_proto(task_proto) if task_proto is not None else \
        default_task_proto(task_id, max_steps)
    simulator = PhoneWorldSimulator(config)
    task_manager = PhoneWorldTaskManager(proto, simulator, tasks=task_id, seed=seed,
                                         split=split, config=task_manager_config)
    coordinator = coordinator_lib.Coordinator(
        simulator, task_manager,
        device_settings=device_settings_lib.DeviceSettings(simulator),
        config=coordinator_config or config_classes.CoordinatorConfig(
            enable_key_events=enable_key_events,
            device_settings=config_classes.DeviceSettingsConfig(
                show_touches=False, show_pointer_location=False, show_status_bar=True,
                show_navigation_bar=True)))
    return PhoneWorldAndroidEnv(simulator, coordinator, task_manager)
