"""A :class:`~phoneworld_gym.device.Device` over `android_env
<https://github.com/google-deepmind/android_env>`_: PhoneWorld's tasks on an Android emulator
that android_env runs (or on PhoneWorld itself behind android_env, for testing)::

    from android_env.components import config_classes as cc
    from phoneworld_gym import PhoneEnv
    from phoneworld_gym.real_device.android_env_device import AndroidEnvDevice

    device = AndroidEnvDevice.from_config(cc.AndroidEnvConfig(
        task=cc.FilesystemTaskConfig(path="my_task.textproto"),
        simulator=cc.EmulatorConfig(...)))
    env = PhoneEnv(tasks="ContactsStar", device=device)

    # or the Gymnasium id (default: PhoneWorld behind android_env, Contacts tasks):
    env = gymnasium.make("PhoneWorld/AndroidEnv-v0", android_env=config_or_env)

How each verb travels:

- ``execute``: taps, double taps, long presses, swipes and scrolls are android_env TOUCH/LIFT
  steps at normalised positions (``(x + 0.5) / width`` of ``wm size``): a tap is TOUCH, LIFT; a
  long press ``long_press_touches`` TOUCH steps held at least ``long_press_sec``, then LIFT; a
  swipe ``swipe_touches`` TOUCH steps along half the screen (the finger moves as
  ``contract.SWIPE_FINGER`` says: a horizontal swipe goes against its name; ``scroll``
  swipes the other way: scrolling down moves the finger up). An element ``index`` is resolved
  on the current ``uiautomator dump``. Text, Enter, Home and Back go through android_env's adb
  (``input text``, ``input keyevent``); ``input_text`` taps the field, clears it (MOVE_END and
  DEL for each character), types, and presses Enter (AndroidWorld's ``input_text``; on
  PhoneWorld typing itself submits, so Enter is sent only when nothing was typed).
  ``open_app`` resolves the name to an installed package (PhoneWorld's apps by label, name,
  alias or package, and common Android apps) and sends ``monkey -p PKG``.
  Error sentences come back for what can be checked before acting (an index not on screen, a
  target that is not a text field, no focused field, an unknown app); a gesture that lands on
  nothing is not reported (a phone does not say so either).
- ``screenshot``: the ``pixels`` of android_env's latest observation (after adb-only actions a
  LIFT step, which touches nothing, fetches a fresh one), resized when ``screenshot_size``
  differs from the screen's.
- ``a11y_xml``: ``uiautomator dump /sdcard/window_dump.xml`` and ``cat`` over adb.
- ``probe``: ``contacts`` (``content query`` of ``content://com.android.contacts/contacts``;
  on an Android emulator the numbers, e-mails, addresses and companies come from the ``data``
  table), ``settings/<namespace>`` (``settings list``), ``setting`` (``settings get``) and
  ``foreground_app`` (``dumpsys window``'s focus, else android_env's
  ``get_current_activity``). Other tables raise :class:`~phoneworld_gym.device.Unsupported`.
- write verbs: ``insert``/``update``/``delete`` of ``contacts`` through ``content
  insert|update|delete`` (an Android emulator: a raw contact and its data rows; only
  ``starred`` can be updated there), ``put_setting`` through ``settings put``, ``push_file``
  through android_env's ``push``; other tables and ``fixture`` raise ``Unsupported``.
- ``reset(seed)``: ``env.reset()``, which runs the task proto's reset steps. On PhoneWorld the
  seed reaches the world first (``setprop phoneworld.seed``); an emulator keeps its state
  between episodes unless the task proto resets it.

An android_env episode that ends by itself (``max_episode_steps``, a log regexp) makes the
next action raise :class:`~phoneworld_gym.device.DeviceError` until ``reset``: use a task
proto without a step limit, or one larger than the PhoneWorld task's budget.
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Sequence
from typing import Any

import dm_env
import numpy as np
from android_env import environment, loader
from android_env.components import config_classes
from android_env.components import errors as android_env_errors
from android_env.proto import adb_pb2

from phoneworld_gym.contract import (
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Action,
    UIElement,
    parse_ui_elements,
    swipe_finger,
)
from phoneworld_gym.device import (
    COMMON_TABLES,
    SETTINGS_NAMESPACES,
    DeviceError,
    Row,
    Unsupported,
    parse_now,
)
from phoneworld_gym.env import PhoneEnv

TOUCH, LIFT = 0, 1
KEY_HOME, KEY_BACK, KEY_ENTER, KEY_DEL, KEY_MOVE_END = 3, 4, 66, 67, 123
CONTACTS_URI = "content://com.android.contacts/contacts"
DUMP_PATH = "/sdcard/window_dump.xml"
#: the contract's contact columns
CONTACT_COLUMNS = COMMON_TABLES["contacts"]
#: what an Android contacts provider keeps in its ``data`` table, by MIME type -> column
ANDROID_MIME: dict[str, str] = {
    "vnd.android.cursor.item/phone_v2": "number",
    "vnd.android.cursor.item/email_v2": "email",
    "vnd.android.cursor.item/postal-address_v2": "postal_address",
    "vnd.android.cursor.item/organization": "company",
}
#: common Android apps: name -> packages to try (the first installed wins)
ANDROID_APPS: dict[str, tuple[str, ...]] = {
    "contacts": ("com.google.android.contacts", "com.android.contacts"),
    "settings": ("com.android.settings",),
    "chrome": ("com.android.chrome",),
    "clock": ("com.google.android.deskclock", "com.android.deskclock"),
    "calendar": ("com.google.android.calendar", "com.android.calendar"),
    "messages": ("com.google.android.apps.messaging", "com.android.messaging"),
    "phone": ("com.google.android.dialer", "com.android.dialer"),
    "camera": ("com.android.camera2", "com.google.android.GoogleCamera"),
    "files": ("com.google.android.documentsui", "com.android.documentsui"),
    "gmail": ("com.google.android.gm",),
    "maps": ("com.google.android.apps.maps",),
    "youtube": ("com.google.android.youtube",),
    "play store": ("com.android.vending",),
}
#: how far (pixels) a finger may move and still tap (PhoneWorld's simulator: 21)
SWIPE_SLOP = 21
_ROW = re.compile(r"^Row: \d+ ", re.MULTILINE)
_INT_COLUMNS = frozenset({"_id", "starred", "contact_id", "raw_contact_id"})


class AndroidEnvDevice:
    """One phone run by android_env (see the module docs).

    Args:
        env: an ``android_env.AndroidEnv`` (an emulator's, or
            :func:`~phoneworld_gym.virtual.android_env_sim.make_android_env`'s).
        screenshot_size: (width, height) of screenshots; default: the screen's pixels.
        long_press_touches: TOUCH steps of a long press (PhoneWorld's simulator fires one at
            its ``long_press_touches``, 5 by default).
        long_press_sec: the least time a long press is held (default: 0 on PhoneWorld, whose
            time is counted in steps, else 0.7 s).
        swipe_touches: TOUCH steps of a swipe (start, ..., end).
        wait_sec: how long ``wait`` waits (default: 0 on PhoneWorld, else 1 s).
        close_env: whether :meth:`close` closes ``env`` too.
    """

    kind = "android_env"

    def __init__(self, env: environment.AndroidEnv, *,
                 screenshot_size: tuple[int, int] | None = None,
                 long_press_touches: int = 6, long_press_sec: float | None = None,
                 swipe_touches: int = 5, wait_sec: float | None = None,
                 close_env: bool = True):
        if long_press_touches < 2 or swipe_touches < 2:
            raise ValueError("long_press_touches and swipe_touches must be at least 2")
        self.env = env
        self.long_press_touches = int(long_press_touches)
        self.swipe_touches = int(swipe_touches)
        self.close_env = close_env
        self._template = self._action_template()
        self._pixels: np.ndarray | None = None
        self._stale = True
        self._ended = False
        self._xml: str | None = None
        self._packages: list[str] | None = None
        self._screen: tuple[int, int] | None = None
        self._phoneworld: bool | None = None
        self._long_press_sec = long_press_sec
        self._wait_sec = wait_sec
        #: android_env's latest timestep (its reward and step type, for android_env's tasks)
        self.last_timestep: dm_env.TimeStep | None = None
        pixels = env.observation_spec()["pixels"].shape  # (H, W, 3)
        native = (int(pixels[1]), int(pixels[0]))
        self.screenshot_size: tuple[int, int] = tuple(screenshot_size or native)  # type: ignore[assignment]
        self.probe = AndroidEnvProbe(self)

    @classmethod
    def from_config(cls, config: config_classes.AndroidEnvConfig,
                    **kwargs: Any) -> AndroidEnvDevice:
        """Load android_env from its config (``android_env.loader.load``: an emulator it
        launches, or one already running when the config gives its ports)."""
        return cls(loader.load(config), **kwargs)

    def close(self) -> None:
        """Close the android_env env (when ``close_env``)."""
        if self.close_env:
            self.env.close()

    # -- what the device is ----------------------------------------------------------------
    @property
    def phoneworld(self) -> bool:
        """Whether the phone behind android_env is PhoneWorld (``getprop
        ro.product.manufacturer``)."""
        if self._phoneworld is None:
            try:
                self._phoneworld = self.shell("getprop", "ro.product.manufacturer").strip() \
                    == "PhoneWorld"
            except DeviceError:
                self._phoneworld = False
        return self._phoneworld

    @property
    def screen_size(self) -> tuple[int, int]:
        """(width, height) of the screen in pixels (``wm size``), the space of ``x``/``y`` and
        of the dump's bounds."""
        if self._screen is None:
            out = self.shell("wm", "size")
            sizes = re.findall(r"(Physical|Override) size: (\d+)x(\d+)", out)
            if not sizes:
                raise DeviceError(f"wm size gave no size: {out!r}")
            kind = {k: (int(w), int(h)) for k, w, h in sizes}
            self._screen = kind.get("Override", kind.get("Physical"))
        assert self._screen is not None
        return self._screen

    # -- adb -------------------------------------------------------------------------------
    def adb(self, request: adb_pb2.AdbRequest) -> adb_pb2.AdbResponse:
        """One android_env adb call; DeviceError when it does not come back OK."""
        try:
            response = self.env.execute_adb_call(request)
        except android_env_errors.AdbControllerError as e:
            raise DeviceError(f"adb failed: {e}") from None
        if response.status != adb_pb2.AdbResponse.Status.OK:
            status = adb_pb2.AdbResponse.Status.Name(response.status)
            raise DeviceError(f"adb {request.WhichOneof('command')} failed ({status}): "
                              f"{response.error_message.strip()}")
        return response

    def shell(self, *argv: str, timeout_sec: float = 0.0) -> str:
        """``adb shell ARGV...`` (each word quoted for the device's shell); its output."""
        words = ["shell", *(shlex.quote(str(a)) for a in argv)]
        response = self.adb(adb_pb2.AdbRequest(
            generic=adb_pb2.AdbRequest.GenericRequest(args=words), timeout_sec=timeout_sec))
        return response.generic.output.decode("utf-8", "replace")

    # -- android_env steps -----------------------------------------------------------------
    def _action_template(self) -> dict[str, np.ndarray]:
        """Every finger lifted (extra fingers, if the env has them, stay lifted)."""
        spec = self.env.action_spec()
        action: dict[str, np.ndarray] = {}
        for key in spec:
            if key.startswith("action_type"):
                action[key] = np.array(LIFT, dtype=np.int32)
            elif key.startswith("touch_position"):
                action[key] = np.zeros(2, dtype=np.float32)
        return action

    def _take(self, timestep: dm_env.TimeStep) -> None:
        self.last_timestep = timestep
        obs = timestep.observation
        if obs is not None and "pixels" in obs:
            self._pixels = np.asarray(obs["pixels"], dtype=np.uint8)
            self._stale = False
        self._xml = None
        if timestep.last():
            self._ended = True

    def _step(self, action_type: int, point: tuple[int, int] | None = None) -> None:
        if self._ended:
            raise DeviceError("android_env ended its episode (max_episode_steps or the task "
                              "proto's episode end); reset the device to go on")
        action = dict(self._template)
        action["action_type"] = np.array(action_type, dtype=np.int32)
        if point is not None:
            w, h = self.screen_size
            action["touch_position"] = np.array(
                [min(1.0, max(0.0, (point[0] + 0.5) / w)),
                 min(1.0, max(0.0, (point[1] + 0.5) / h))], dtype=np.float32)
        self._take(self.env.step(action))

    def tap(self, x: int, y: int) -> None:
        """A tap at screen pixel (x, y): TOUCH, LIFT."""
        self._step(TOUCH, (x, y))
        self._step(LIFT)

    def long_press(self, x: int, y: int) -> None:
        """A still finger for ``long_press_touches`` steps and ``long_press_sec``, then up."""
        hold = self._long_press_sec
        if hold is None:
            hold = 0.0 if self.phoneworld else 0.7
        start = time.monotonic()
        touches = 0
        while touches < self.long_press_touches or time.monotonic() - start < hold:
            self._step(TOUCH, (x, y))
            touches += 1
            if touches >= self.long_press_touches:
                time.sleep(max(0.0, min(0.05, hold - (time.monotonic() - start))))
        self._step(LIFT)

    def drag(self, start: tuple[int, int], direction: str) -> bool:
        """A finger from ``start`` moving in ``direction`` (half the screen, kept on it);
        False, and nothing done, when the screen's edge leaves no room to move."""
        w, h = self.screen_size
        x, y = start
        dx = {"left": -1, "right": 1}.get(direction, 0) * w // 2
        dy = {"up": -1, "down": 1}.get(direction, 0) * h // 2
        end = (min(w - 1, max(0, x + dx)), min(h - 1, max(0, y + dy)))
        if max(abs(end[0] - x), abs(end[1] - y)) <= 2 * SWIPE_SLOP:
            return False  # no room: a finger that cannot move would be a tap or a long press
        n = self.swipe_touches
        for i in range(n):
            f = i / (n - 1)
            self._step(TOUCH, (round(x + (end[0] - x) * f), round(y + (end[1] - y) * f)))
        self._step(LIFT)
        return True

    def keys(self, *codes: int) -> None:
        """``input keyevent CODE...``."""
        if codes:
            self.shell("input", "keyevent", *(str(c) for c in codes))
            self._changed()

    def type_text(self, text: str) -> None:
        """``input text`` (spaces as ``%s``, as Android's ``input`` wants them)."""
        if text:
            self.shell("input", "text", text.replace(" ", "%s"))
            self._changed()

    def _changed(self) -> None:
        self._stale = True
        self._xml = None

    # -- Device: lifecycle and observations -------------------------------------------------
    def reset(self, seed: int) -> None:
        """``env.reset()`` (PhoneWorld: the world is reset from ``seed`` first)."""
        if self.phoneworld:
            self.shell("setprop", "phoneworld.seed", str(int(seed)))
        self._ended = False
        self._take(self.env.reset())
        self._ended = False
        self._packages = None

    def screenshot(self) -> np.ndarray:
        """The latest ``pixels`` (refreshed with a LIFT step after adb-only actions)."""
        if self._stale or self._pixels is None:
            self._step(LIFT)
        assert self._pixels is not None
        pixels = self._pixels
        w, h = self.screenshot_size
        if pixels.shape[:2] != (h, w):
            from PIL import Image

            pixels = np.asarray(Image.fromarray(pixels[..., :3]).resize(
                (w, h), Image.Resampling.BILINEAR), dtype=np.uint8)
        return pixels[..., :3]

    def a11y_xml(self) -> str:
        """``uiautomator dump`` of the current screen (cached until something changes)."""
        if self._xml is None:
            self.shell("uiautomator", "dump", DUMP_PATH)
            out = self.shell("cat", DUMP_PATH)
            start = out.find("<?xml")
            start = out.find("<hierarchy") if start < 0 else start
            end = out.rfind("</hierarchy>")
            if start < 0 or end < 0:
                raise DeviceError(f"uiautomator dump gave no hierarchy: {out[:200]!r}")
            self._xml = out[start:end + len("</hierarchy>")]
        return self._xml

    def ui_elements(self) -> list[UIElement]:
        """The indexed element list of the current dump (bounds in screen pixels)."""
        return parse_ui_elements(self.a11y_xml(), self.screen_size)

    # -- Device: actions ---------------------------------------------------------------------
    def execute(self, action: Action) -> str:
        """Carry out a contract action (see the module docs); an error sentence when it is
        meaningless, else ``""``."""
        handler = getattr(self, f"_do_{action.action_type}", None)
        if handler is None:
            return ""  # status and answer: nothing happens on the phone
        if self._ended:
            raise DeviceError("android_env ended its episode (max_episode_steps or the task "
                              "proto's episode end); reset the device to go on")
        err: str = handler(action)
        return err

    def _point(self, a: Action) -> tuple[int, int] | str:
        if a.index is not None:
            elements = self.ui_elements()
            if a.index >= len(elements):
                return (f"no element with index {a.index}; this screen has "
                        f"{len(elements)} elements (0..{len(elements) - 1})")
            box = elements[a.index].bbox_pixels
            assert box is not None
            return int(box.x_min + box.x_max) // 2, int(box.y_min + box.y_max) // 2
        assert a.x is not None and a.y is not None
        return int(a.x), int(a.y)

    def _start(self, a: Action) -> tuple[int, int] | str:
        if a.index is not None or a.x is not None:
            return self._point(a)
        w, h = self.screen_size
        return w // 2, h // 2

    def _do_click(self, a: Action) -> str:
        p = self._point(a)
        if isinstance(p, str):
            return p
        self.tap(*p)
        return ""

    def _do_double_tap(self, a: Action) -> str:
        p = self._point(a)
        if isinstance(p, str):
            return p
        self.tap(*p)
        self.tap(*p)
        return ""

    def _do_long_press(self, a: Action) -> str:
        p = self._point(a)
        if isinstance(p, str):
            return p
        self.long_press(*p)
        return ""

    def _do_swipe(self, a: Action) -> str:
        p = self._start(a)
        if isinstance(p, str):
            return p
        assert a.direction is not None
        if not self.drag(p, swipe_finger(a.direction)):  # AndroidWorld's swipe meaning
            return f"no room to swipe {a.direction} from {p}"
        return ""

    def _do_scroll(self, a: Action) -> str:
        p = self._start(a)
        if isinstance(p, str):
            return p
        assert a.direction is not None
        opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}
        if not self.drag(p, opposite[a.direction]):
            return f"no room to scroll {a.direction} from {p}"
        return ""

    def _do_input_text(self, a: Action) -> str:
        if a.index is not None or a.x is not None:
            p = self._point(a)
            if isinstance(p, str):
                return p
            if not self._editable_at(p):
                return f"the element at {p} is not a text field"
            self.tap(*p)
        text = focused_field_text(self.a11y_xml())
        if text is None:
            return "no text field has focus; tap one first or give its index"
        if a.clear_text and text:
            self.keys(KEY_MOVE_END, *([KEY_DEL] * len(text)))
        assert a.text is not None
        self.type_text(a.text)
        if not (self.phoneworld and a.text):
            self.keys(KEY_ENTER)
        return ""

    def _editable_at(self, p: tuple[int, int]) -> bool:
        """Whether the smallest element whose bounds hold ``p`` is a text field."""
        hits = [e for e in self.ui_elements() if e.bbox_pixels is not None
                and e.bbox_pixels.x_min <= p[0] < e.bbox_pixels.x_max
                and e.bbox_pixels.y_min <= p[1] < e.bbox_pixels.y_max]
        if not hits:
            return False
        smallest = min(hits, key=lambda e: e.bbox_pixels.width * e.bbox_pixels.height  # type: ignore[union-attr]
                       )
        return bool(smallest.is_editable)

    def _do_keyboard_enter(self, a: Action) -> str:
        if focused_field_text(self.a11y_xml()) is None:
            return "no text field has focus, so enter does nothing"
        self.keys(KEY_ENTER)
        return ""

    def _do_navigate_home(self, a: Action) -> str:
        self.keys(KEY_HOME)
        return ""

    def _do_navigate_back(self, a: Action) -> str:
        self.keys(KEY_BACK)
        return ""

    def _do_open_app(self, a: Action) -> str:
        assert a.app_name is not None
        candidates = app_packages(a.app_name)
        installed = set(self.installed_packages())
        package = next((p for p in candidates if p in installed), None)
        if package is None:
            return (f"no app named {a.app_name!r} is installed"
                    + (f" (looked for {', '.join(candidates)})" if candidates else ""))
        try:
            self.shell("monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1")
        except DeviceError as e:
            return f"could not open {package}: {e}"
        finally:
            self._changed()
        return ""

    def _do_wait(self, a: Action) -> str:
        wait = self._wait_sec
        time.sleep(wait if wait is not None else 0.0 if self.phoneworld else 1.0)
        self._changed()
        return ""

    def installed_packages(self) -> list[str]:
        """``pm list packages`` (cached until the next reset)."""
        if self._packages is None:
            out = self.shell("pm", "list", "packages")
            self._packages = [ln.split(":", 1)[1].strip() for ln in out.splitlines()
                              if ln.startswith("package:")]
        return self._packages

    # -- Device: write verbs -----------------------------------------------------------------
    def _contacts_schema(self) -> str:
        """``contract`` when the provider serves the contract's columns (PhoneWorld), else
        ``android`` (contacts + data rows)."""
        return "contract" if self.phoneworld else "android"

    def insert(self, table: str, row: Row) -> Any:
        """``content insert`` of a contact; returns its ``_id``."""
        _writable(table)
        unknown = set(row) - set(CONTACT_COLUMNS) | ({"_id"} & set(row))
        if unknown:
            raise ValueError(f"contacts has no columns {sorted(unknown)}; columns: "
                             f"{sorted(set(CONTACT_COLUMNS) - {'_id'})}")
        before = {r["_id"] for r in self.probe.contacts()}
        if self._contacts_schema() == "contract":
            self.shell("content", "insert", "--uri", CONTACTS_URI, *_binds(row))
        else:
            self._android_insert(row)
        self._changed()
        new = sorted({r["_id"] for r in self.probe.contacts()} - before)
        if not new:
            raise DeviceError(f"content insert of {row!r} added no contact")
        return new[-1]

    def _android_insert(self, row: Row) -> None:
        raw = "content://com.android.contacts/raw_contacts"
        self.shell("content", "insert", "--uri", raw, "--bind", "account_type:n:",
                   "--bind", "account_name:n:")
        ids = [int(r["_id"]) for r in self.query_rows(raw, ("_id",))]
        if not ids:
            raise DeviceError("content insert of a raw contact added nothing")
        raw_id = max(ids)
        fields = {"vnd.android.cursor.item/name": row.get("display_name")}
        fields.update({mime: row.get(col) for mime, col in ANDROID_MIME.items()})
        for mime, value in fields.items():
            if value:
                self.shell("content", "insert", "--uri", "content://com.android.contacts/data",
                           "--bind", f"raw_contact_id:i:{raw_id}", "--bind",
                           f"mimetype:s:{mime}", "--bind", f"data1:s:{value}")
        if row.get("starred"):
            self.shell("content", "update", "--uri", raw, "--bind", "starred:i:1",
                       "--where", f"_id={raw_id}")

    def update(self, table: str, row_id: Any, values: Row) -> None:
        """``content update`` of one contact (an Android provider: ``starred`` only)."""
        _writable(table)
        self._existing(row_id)
        if self._contacts_schema() == "android" and set(values) - {"starred"}:
            raise Unsupported("on an Android contacts provider only 'starred' is updated over "
                              f"adb (got {sorted(values)})")
        self.shell("content", "update", "--uri", CONTACTS_URI, "--where", f"_id={int(row_id)}",
                   *_binds(values))
        self._changed()

    def delete(self, table: str, row_id: Any) -> None:
        """``content delete`` of one contact."""
        _writable(table)
        self._existing(row_id)
        self.shell("content", "delete", "--uri", CONTACTS_URI, "--where", f"_id={int(row_id)}")
        self._changed()

    def _existing(self, row_id: Any) -> None:
        if not any(r["_id"] == row_id for r in self.probe.contacts()):
            raise ValueError(f"no contacts row with _id {row_id!r}")

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        """``settings put NAMESPACE KEY VALUE``."""
        if namespace not in SETTINGS_NAMESPACES:
            raise ValueError(f"settings namespace must be one of {SETTINGS_NAMESPACES}, "
                             f"got {namespace!r}")
        self.shell("settings", "put", namespace, key, str(value))
        self._changed()

    def push_file(self, path: str, data: bytes) -> None:
        """android_env's ``push`` (``adb push``)."""
        self.adb(adb_pb2.AdbRequest(push=adb_pb2.AdbRequest.Push(content=bytes(data),
                                                                 path=path)))
        self._changed()

    def fixture(self, app: str, name: str, /, **args: Any) -> Any:
        """Mock apps' fixtures exist only on PhoneWorld's own device."""
        raise Unsupported(f"fixture {app}.{name}: android_env serves no mock app fixtures")

    # -- content queries -------------------------------------------------------------------
    def query_rows(self, uri: str, projection: Sequence[str] | None = None,
                   where: str | None = None) -> list[Row]:
        """``content query`` rows (``_id``/``starred``-like columns as ints, ``NULL`` as
        None)."""
        argv = ["content", "query", "--uri", uri]
        if projection:
            argv += ["--projection", ":".join(projection)]
        if where:
            argv += ["--where", where]
        return parse_content_rows(self.shell(*argv), projection)


class AndroidEnvProbe:
    """The probe of an :class:`AndroidEnvDevice`: contacts, settings and the app in front."""

    def __init__(self, device: AndroidEnvDevice):
        self._device = device

    def contacts(self) -> list[Row]:
        d = self._device
        if d._contacts_schema() == "contract":
            rows = d.query_rows(CONTACTS_URI, CONTACT_COLUMNS)
            return [{c: (int(r[c]) if c in ("_id", "starred") else r[c] or "")
                     for c in CONTACT_COLUMNS} for r in rows]
        people = d.query_rows(CONTACTS_URI, ("_id", "display_name", "starred"))
        data = d.query_rows("content://com.android.contacts/data",
                            ("contact_id", "mimetype", "data1"))
        out: dict[int, Row] = {}
        for p in people:
            out[int(p["_id"])] = {"_id": int(p["_id"]), "display_name": p["display_name"] or "",
                                  "number": "", "email": "", "postal_address": "",
                                  "company": "", "starred": int(p["starred"] or 0)}
        for r in data:
            col = ANDROID_MIME.get(str(r.get("mimetype")))
            contact = out.get(int(r["contact_id"] or -1))
            if col is not None and contact is not None and not contact[col]:
                contact[col] = r["data1"] or ""
        return [out[k] for k in sorted(out)]

    def now(self) -> str:
        """The emulator's local time (``date +%Y-%m-%dT%H:%M:%S``)."""
        return parse_now(self._device.shell("date", "+%Y-%m-%dT%H:%M:%S"))

    def foreground_app(self) -> str:
        d = self._device
        out = d.shell("dumpsys", "window")
        m = re.search(r"mCurrentFocus=Window\{\S+ u\d+ ([^\s}]+)", out)
        if m is not None:
            token = m.group(1)
            if "/" in token:
                return token.split("/", 1)[0]
            if token in ("NotificationShade", "StatusBar"):
                return "com.android.systemui"
        response = d.adb(adb_pb2.AdbRequest(
            get_current_activity=adb_pb2.AdbRequest.GetCurrentActivity()))
        return str(response.get_current_activity.full_activity).split("/", 1)[0]

    def setting(self, namespace: str, key: str) -> str | None:
        if namespace not in SETTINGS_NAMESPACES:
            raise ValueError(f"settings namespace must be one of {SETTINGS_NAMESPACES}")
        value = self._device.shell("settings", "get", namespace, key).rstrip("\n")
        return None if value == "null" else value

    def query(self, table: str) -> list[Row]:
        if table == "contacts":
            return self.contacts()
        if table.startswith("settings/") and table.split("/", 1)[1] in SETTINGS_NAMESPACES:
            out = self._device.shell("settings", "list", table.split("/", 1)[1])
            rows = [ln.split("=", 1) for ln in out.splitlines() if "=" in ln]
            return [{"_id": k, "value": v} for k, v in sorted(rows)]
        raise Unsupported(f"{table!r} is not served over android_env's adb; served: "
                          f"{self.tables()}")

    def tables(self) -> list[str]:
        return ["contacts", *(f"settings/{ns}" for ns in sorted(SETTINGS_NAMESPACES))]

    def snapshot(self) -> dict[str, list[Row]]:
        return {t: self.query(t) for t in self.tables()}


def _writable(table: str) -> None:
    if table != "contacts":
        raise Unsupported(f"writing {table!r} is not served over android_env's adb (contacts "
                          "and settings are)")


def _binds(row: Row) -> list[str]:
    """``--bind col:TYPE:value`` words for ``content insert|update``."""
    out = []
    for col, v in row.items():
        if v is None:
            out += ["--bind", f"{col}:n:"]
        elif isinstance(v, (bool, int, np.integer)):
            out += ["--bind", f"{col}:i:{int(v)}"]
        elif isinstance(v, float):
            out += ["--bind", f"{col}:d:{v}"]
        else:
            out += ["--bind", f"{col}:s:{v}"]
    return out


def parse_content_rows(text: str, columns: Sequence[str] | None = None) -> list[Row]:
    """Rows of ``content query`` output (``Row: N col=value, col=value``). With ``columns``
    (the projection) a value may hold ``, ``; ``NULL`` is None; id-like columns are ints."""
    if "No result found" in text and not _ROW.search(text):
        return []
    if "Error" in text[:200] and not _ROW.search(text):
        raise DeviceError(f"content query failed: {text.strip()[:300]}")
    chunks = _ROW.split(text)[1:]
    rows = []
    for chunk in chunks:
        chunk = chunk.rstrip("\n")
        if columns:
            names = "|".join(re.escape(c) for c in columns)
            parts = re.split(rf"(?:^|, )({names})=", chunk)[1:]
            pairs = list(zip(parts[0::2], parts[1::2]))
        else:
            pairs = [tuple(p.split("=", 1)) for p in chunk.split(", ")  # type: ignore[misc]
                     if "=" in p]
        row: Row = {}
        for col, raw in pairs:
            value: Any = None if raw == "NULL" else raw
            if col in _INT_COLUMNS and value is not None and re.fullmatch(r"-?\d+", value):
                value = int(value)
            row[col] = value
        rows.append(row)
    return rows


def focused_field_text(xml: str) -> str | None:
    """The text of the focused editable node of a dump, ``None`` when none has focus."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return None
    for node in root.iter("node"):
        if node.get("focused") == "true" and (node.get("class") or "").endswith(
                ("EditText", "AutoCompleteTextView")):
            return node.get("text") or ""
    return None


def app_packages(name: str) -> list[str]:
    """Packages an ``open_app`` name may mean, most likely first: a package name itself,
    PhoneWorld's apps (label, name, alias or package) and common Android apps."""
    from phoneworld_gym.app import all_apps

    key = name.strip().lower()
    out: list[str] = []
    if "." in key and " " not in key:
        out.append(name.strip())
    for app in all_apps().values():
        names = {app.name.lower(), app.label.lower(), app.package.lower(),
                 *(a.lower() for a in app.aliases)}
        if key in names:
            out.append(app.package)
    out += ANDROID_APPS.get(key, ())
    return list(dict.fromkeys(out))


class AndroidEnvPhoneEnv(PhoneEnv):
    """:class:`~phoneworld_gym.env.PhoneEnv` over an :class:`AndroidEnvDevice`; ``close``
    closes android_env too."""

    def close(self) -> None:
        device = self.device
        if isinstance(device, AndroidEnvDevice):
            device.close()
        super().close()


def make_phone_env(android_env: environment.AndroidEnv | config_classes.AndroidEnvConfig
                   | None = None, *, tasks: str | Sequence[str] | None = None,
                   app: str | None = None, category: str | None = None,
                   screenshot_size: tuple[int, int] | None = None,
                   device_kwargs: dict[str, Any] | None = None,
                   **kwargs: Any) -> AndroidEnvPhoneEnv:
    """``PhoneWorld/AndroidEnv-v0``: a :class:`~phoneworld_gym.env.PhoneEnv` whose phone is run
    by android_env.

    Args:
        android_env: an ``AndroidEnv``, an ``AndroidEnvConfig`` to load, or None for PhoneWorld
            itself behind android_env (:func:`~phoneworld_gym.virtual.android_env_sim.
            make_android_env`, no task: the PhoneEnv's task rules).
        tasks, app, category: as PhoneEnv's; default ``app="contacts"``, the tasks that run on
            a phone.
        screenshot_size: (width, height) of screenshots (default: the screen's size; 1080 x
            2400 for PhoneWorld).
        device_kwargs: more :class:`AndroidEnvDevice` arguments.
        kwargs: more PhoneEnv arguments (``obs_mode``, ``max_steps``, ``split`` ...).
    """
    if tasks is None and app is None and category is None:
        app = "contacts"
    if android_env is None:
        from phoneworld_gym.virtual.android_env_sim import make_android_env

        size = screenshot_size or (SCREEN_WIDTH, SCREEN_HEIGHT)
        env = make_android_env(screenshot_size=(int(size[0]), int(size[1])))
    elif isinstance(android_env, config_classes.AndroidEnvConfig):
        env = loader.load(android_env)
    else:
        env = android_env
    device = AndroidEnvDevice(env, screenshot_size=screenshot_size, **(device_kwargs or {}))
    if screenshot_size is not None:
        kwargs["screenshot_size"] = tuple(screenshot_size)
    return AndroidEnvPhoneEnv(tasks, app=app, category=category, device=device, **kwargs)
