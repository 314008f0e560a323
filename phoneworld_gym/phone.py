"""The simulated phone: a :class:`~phoneworld_gym.world.World`, its apps and the system UI,
behind the :class:`~phoneworld_gym.device.Device` verbs.

Every observation comes from one laid-out frame (:class:`~phoneworld_gym.screen.Screen`): the
screenshot is drawn from it, the accessibility XML is dumped from it, and taps are hit-tested
against it. The :class:`~phoneworld_gym.compositor.Compositor` builds the frames, the
:class:`~phoneworld_gym.input.InputDispatcher` carries out actions on them, and the device
holds the world and the system's navigation verbs.

What is cached, and why it is never stale:

- **The frame.** After an action, :meth:`PhoneWorldDevice.touched` only marks the frame as
  doubtful. The next read compares a fingerprint of what an action can change with the one
  the frame was built from: the world's fields other than the app stores, plus the stores of
  the foreground app and the mini-apps it hosts (apps never write another app's store), as
  content (a ``marshal`` dump) and as the identity of every dict and list in them (handlers
  close over those objects, so a frame built from an equal but different dict would write
  into the wrong one). The frame is rebuilt only when either differs, and the fingerprint
  the check computed serves the new frame. Anything else that changes the world (the write
  verbs, fixtures, adb commands) calls :meth:`PhoneWorldDevice.invalidate`, which drops the
  frame; so do :meth:`~PhoneWorldDevice.reset` and :meth:`~PhoneWorldDevice.restore`.
- **The pixels.** A :class:`~phoneworld_gym.ui.render.FrameRenderer` repaints only what
  changed since the last screenshot; :meth:`~PhoneWorldDevice.screenshot` returns a
  read-only array that is never written again (see the renderer for the ownership rule).
- **Start worlds.** The world :meth:`~PhoneWorldDevice.reset` generates for a seed is kept
  (a bounded LRU shared by the devices of a process, keyed by the seed and the installed app
  classes) as ``marshal`` bytes, one blob per world field and per app store; a second reset
  to the same seed loads those instead of generating it again. A store or field of the world
  being left behind is kept instead of loaded when no action or device verb could have
  reached it in the episode (its app was never in an action's scope, no verb wrote to it,
  :meth:`~PhoneWorldDevice.invalidate` was not called) and, for a store that app code was
  handed (:meth:`World.open_store <phoneworld_gym.world.World.open_store>`: a screen, a
  handler or a provider ran on it), its dump is byte for byte its start blob. The reach
  check means nothing else can hold one of its dicts or lists (handlers close over them), the
  content check catches app code that changed its store while drawing or answering a query;
  a store no code was handed is kept unread (most of them: an episode opens one or two
  apps), which is why code that changes the world in place must call
  :meth:`~PhoneWorldDevice.invalidate`.
- **Start bytes for the probe.** After a reset the device knows each data source's
  ``marshal`` dump (its start blob), and a snapshot of the probe uses it instead of dumping
  the source again, for as long as nothing may have changed it: a write verb or fixture
  forgets the source it wrote, an action the settings, the system providers and the stores
  of its scope (:meth:`~PhoneWorldDevice.reaching`, :meth:`~PhoneWorldDevice.touched`; apps
  write only their own store, as for the frame), :meth:`~PhoneWorldDevice.invalidate` and
  :meth:`~PhoneWorldDevice.restore` all of them. So code that changes the world in place,
  outside actions and verbs, must call :meth:`~PhoneWorldDevice.invalidate` before the next
  snapshot, as it must for the frame.
- **The home screen's pixels.** The compositor keeps the plain home frame, and the device
  keeps the pixels it was drawn with; a reset that lands on that same frame object shows a
  copy of them instead of repainting the screen (the renderer adopts it as its last frame).
- **System views.** The compositor lays out the status bar, navigation bar and keyboard once
  per variant and keeps the plain home frame (see
  :class:`~phoneworld_gym.compositor.Compositor`): their handlers reach the world only
  through the device, so they are right for any world that shows the same values.
"""

from __future__ import annotations

import gc
import hashlib
import marshal
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from phoneworld_gym.app import App, all_apps, post
from phoneworld_gym.compositor import Compositor
from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, Action, UIElement, action_seconds
from phoneworld_gym.input import InputDispatcher
from phoneworld_gym.life import generate as generate_life
from phoneworld_gym.screen import Screen
from phoneworld_gym.sim_access import PhoneWorldProbe, SimWriteVerbs
from phoneworld_gym.system import storage
from phoneworld_gym.ui.render import FrameRenderer
from phoneworld_gym.world import DEFAULT_CLOCK, LAUNCHER, RECENTS, World, clock_at

__all__ = ["PhoneWorldDevice", "PhoneWorldProbe", "Screen", "app_seed"]

#: how many generated start worlds (one per seed and app set) a process keeps
START_WORLDS_MAX = 128


class StartWorld:
    """A generated start world as ``marshal`` bytes: one blob per world field other than the
    stores (``fields``) and one per app store (``stores``). Bytes cannot be changed, so the
    kept world stays what generation gave whatever an episode does to its copy. A world that
    ``marshal`` cannot dump (not plain data) is kept as a deep copy in ``data`` instead."""

    __slots__ = ("fields", "stores", "data")

    def __init__(self, world: World):
        self.fields: dict[str, bytes] = {}
        self.stores: dict[str, bytes] = {}
        self.data: dict[str, Any] | None = None
        try:
            for name, value in world.field_values().items():
                if name != "stores":
                    self.fields[name] = marshal.dumps(value, 2)
            for name, store in world.stores.items():
                self.stores[name] = marshal.dumps(store, 2)
        except (ValueError, TypeError, RecursionError):
            self.fields, self.stores, self.data = {}, {}, world.to_dict()

    def source(self, source: str) -> bytes | None:
        """The blob of a probe data source (``settings``, ``system``, ``store/<app>``)."""
        if source.startswith("store/"):
            return self.stores.get(source[6:])
        return self.fields.get(source) if source in ("settings", "system") else None


_START_WORLDS: OrderedDict[tuple[Any, ...], StartWorld] = OrderedDict()


def clear_start_worlds() -> None:
    """Forget the start worlds kept for :meth:`PhoneWorldDevice.reset` (needed only when an
    app's generator changes while the process runs)."""
    _START_WORLDS.clear()


#: a frame's fingerprint: the world object, the scope (apps whose stores are included), the
#: content and the container identities
_Key = tuple[World, tuple[str, ...], bytes, list[int]]


_CONTAINERS = frozenset((dict, list, tuple, set))


def _container_ids(values: Sequence[Any]) -> list[int]:
    """The ``id`` of every dict, list, tuple and set inside ``values``, in a fixed walk order
    (breadth first, one level at a time through ``gc.get_referents``, which lists a dict's
    keys and values and a list's items in their order, in C)."""
    containers = _CONTAINERS
    out: list[int] = []
    level = [v for v in values if type(v) in containers]
    while level:
        out += map(id, level)
        level = [o for o in gc.get_referents(*level) if type(o) in containers]
    return out


def _kept_or_loaded(old: Any, blob: bytes) -> Any:
    """``old`` when it is a dict or list whose dump is ``blob`` byte for byte, else a fresh
    load of ``blob``."""
    if type(old) is dict or type(old) is list:
        try:
            if marshal.dumps(old, 2) == blob:
                return old
        except (ValueError, TypeError, RecursionError):
            pass
    return marshal.loads(blob)


def app_seed(seed: int, app: str) -> int:
    """Per-app generator seed, stable across Python versions and processes."""
    digest = hashlib.sha256(f"{seed}_{app}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


class PhoneWorldDevice(SimWriteVerbs):
    """A simulated Pixel-class phone with mock apps.

    ``apps`` limits the installed apps (default: all registered). ``screenshot_size`` is the
    (width, height) of screenshots; bounds and actions stay in 1080 x 2400 device pixels.
    ``start_clock`` is the phone's clock at every reset (``YYYY-MM-DDTHH:MM:SS`` local time,
    :data:`~phoneworld_gym.world.DEFAULT_CLOCK` by default): the apps' data is generated
    around it, so a task sees the same life on another day.
    """

    kind = "phoneworld"

    def __init__(self, apps: Sequence[str] | None = None,
                 screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
                 start_clock: str = DEFAULT_CLOCK):
        #: the clock every reset starts from
        self.start_clock = clock_at(start_clock).isoformat(timespec="seconds")
        registry = all_apps()
        names = list(apps) if apps is not None else sorted(registry)
        unknown = [n for n in names if n not in registry]
        if unknown:
            raise ValueError(f"unknown apps {unknown}; registered: {sorted(registry)}")
        # a mini-app opens only inside its host: installing one installs the host too
        for n in list(names):
            host = registry[n].host
            if host is not None and host not in names:
                if host not in registry:
                    raise ValueError(f"mini-app {n!r} is hosted by {host!r}, which is not "
                                     "registered")
                names.append(host)
        self.apps: dict[str, App] = {n: registry[n] for n in names}
        w, h = screenshot_size
        if not (16 <= w <= 4 * SCREEN_WIDTH and 16 <= h <= 4 * SCREEN_HEIGHT):
            raise ValueError(f"screenshot_size {screenshot_size} is out of range")
        self.screenshot_size = (int(w), int(h))
        self.world = World()
        self._screen: Screen | None = None
        #: (world, scope, content, container ids) the frame was built from
        self._screen_key: _Key | None = None
        self._doubtful = False
        self._stale = False
        self._pixels: np.ndarray | None = None
        #: the world this device's last reset made (only its parts may be kept at a reset)
        self._own: World | None = None
        #: the start world it was made from
        self._own_start: StartWorld | None = None
        #: the world's parts an action or a verb may have reached since that reset: store
        #: sources (``store/<app>``) and field names; None for all of them
        self._reached: set[str] | None = None
        #: data source -> (its object, its dump) while nothing may have changed it since the
        #: reset (see the module docstring); None when nothing is known
        self._known: dict[str, tuple[Any, bytes]] | None = None
        self._renderer = FrameRenderer(self.screenshot_size)
        #: the plain home frame's pixels (the compositor keeps that frame, and every reset
        #: lands on it): (its Screen, night, display list, pixels)
        self._home_shot: tuple[Screen, bool, Any, np.ndarray] | None = None
        self.compositor = Compositor(self)
        self.dispatcher = InputDispatcher(self)
        self.probe = PhoneWorldProbe(self)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_screen"] = None  # views hold closures; the frame is rebuilt on demand
        state["_screen_key"] = None
        state["_pixels"] = None
        state["_own"] = state["_reached"] = state["_known"] = state["_home_shot"] = None
        state["_own_start"] = None
        state.pop("_page_cache", None)
        return state

    # -- lifecycle -----------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Fresh world: every app's store generated from the seed, home screen in front.

        The generated world is kept per seed as bytes (see the module docstring), so
        resetting to a seed seen before loads it, keeping the parts of the last world that are
        still byte for byte what they were at the start."""
        start = self._start_world(int(seed))
        if start.data is not None:
            world = World.from_dict(start.data)
            known = None
        else:
            old = self.world if self.world is self._own else None
            reached = self._reached
            values: dict[str, Any] = {}
            for name, blob in start.fields.items():
                keep = old is not None and reached is not None and name not in reached
                values[name] = _kept_or_loaded(getattr(old, name) if keep else None, blob)
            keepable = old.stores if old is not None and reached is not None else {}
            # a store no code was handed is still its start blob, if it is the same start's
            same = old is not None and self._own_start is start
            opened = old.opened if old is not None else set()
            stores = {}
            for name, blob in start.stores.items():
                kept = None if reached is None or f"store/{name}" in reached \
                    else keepable.get(name)
                if kept is not None and same and name not in opened:
                    stores[name] = kept  # no code was handed it: nothing changed it
                else:
                    stores[name] = _kept_or_loaded(kept, blob)
            values["stores"] = stores
            world = World(**values)
            known = {"settings": (world.settings, start.fields["settings"]),
                     "system": (world.system, start.fields["system"])}
            for name, blob in start.stores.items():
                known[f"store/{name}"] = (world.stores[name], blob)
        self.world = world
        self._drop_frame()
        self._own = world
        self._own_start = start
        self._reached = set()
        self._known = known

    def _start_world(self, seed: int) -> StartWorld:
        """The kept start world of ``seed`` for the installed apps, generated on first use."""
        key = (seed, self.start_clock,
               tuple((name, type(app)) for name, app in self.apps.items()))
        start = _START_WORLDS.get(key)
        if start is None:
            start = StartWorld(self._generate(seed))
            _START_WORLDS[key] = start
            while len(_START_WORLDS) > START_WORLDS_MAX:
                _START_WORLDS.popitem(last=False)
        else:
            _START_WORLDS.move_to_end(key)
        return start

    def _generate(self, seed: int) -> World:
        """The start world of ``seed``: every app's store and its notifications."""
        w = World(seed=seed, clock=self.start_clock)
        life = generate_life(seed, now=clock_at(self.start_clock))
        for name, app in self.apps.items():
            rng = np.random.default_rng(app_seed(seed, name))
            w.stores[name] = app.generate(rng, life)
            files = app.files(np.random.default_rng(app_seed(seed, name + "/files")), life)
            for path, data in sorted(files.items()):
                storage.write(w, path, data)
        for name, app in self.apps.items():
            for note in app.notifications(w.stores[name]):
                post(w, app, note)
        return w

    def snapshot(self) -> dict[str, Any]:
        return self.world.snapshot()

    def restore(self, snap: dict[str, Any]) -> None:
        self.world.restore(snap)
        self._drop_frame()
        self._reached = None
        self._known = None

    def invalidate(self) -> None:
        """Something may have changed anything in the world (an adb command, a profile's own
        screen, code that changed it in place): the frame is rebuilt on the next read, and
        nothing known since the reset is trusted any more (see the module docstring)."""
        self._stale = True
        self._reached = None
        self._known = None

    def _wrote(self, source: str) -> None:
        """A write verb or fixture changed one data source (``settings``, ``system``,
        ``store/<app>``): the frame is rebuilt on the next read, and that source is no
        longer known nor kept at the next reset."""
        self._stale = True
        self._forget(source)

    def _forget(self, source: str) -> None:
        """A verb failed part way into one data source: it is no longer known nor kept."""
        self._reach((source,))

    def _reach(self, sources: Iterable[str]) -> None:
        """``sources`` (store sources and field names) may have changed since the reset: they
        are no longer known to the probe nor kept at the next reset."""
        reached, known = self._reached, self._known
        if reached is None:
            return
        for source in sources:
            reached.add(source)
            if known is not None:
                known.pop(source, None)

    def _scope_sources(self, scope: tuple[str, ...]) -> list[str]:
        return [f"store/{name}" for name in scope]

    def touched(self) -> None:
        """An action ran on the current frame: the next read checks the fingerprint of what
        an action can change and rebuilds the frame only if it differs (see the module
        docstring). What the action could reach (the world's fields, the stores of the
        frame's scope and of the current one) is no longer known nor kept at the next
        reset."""
        self._doubtful = True
        key = self._screen_key
        if key is not None and key[0] is self.world:
            self._reach(self._scope_sources(key[1]))
        self.reaching()

    def reaching(self) -> None:
        """An action is about to run: the world's fields and the stores of the current scope
        may change (apps write only their own store), so they are no longer known nor kept
        at the next reset (the input dispatcher and the device's own action verbs call this
        before acting, :meth:`touched` after)."""
        self._reach(_WORLD_FIELDS)
        self._reach(self._scope_sources(self._scope()))

    def known_dump(self, source: str, data: Any) -> bytes | None:
        """The ``marshal`` dump of a probe data source whose live object is ``data``, when it
        is known unchanged since the reset (see the module docstring), else None."""
        known = self._known
        if known is None or self.world is not self._own:
            return None
        entry = known.get(source)
        return entry[1] if entry is not None and entry[0] is data else None

    def _drop_frame(self) -> None:
        """Forget the frame outright (the world object or its containers were replaced)."""
        self._screen = None
        self._screen_key = None
        self._pixels = None
        self._doubtful = False
        self._stale = False

    def _scope(self) -> tuple[str, ...]:
        """The apps whose stores an action on the current frame can change: the foreground
        app and the mini-apps it hosts (they live on its back stack). Apps never write another
        app's store; only the device's verbs do, and they call :meth:`invalidate`."""
        fg = self.world.foreground
        return (fg, *(n for n, a in self.apps.items() if a.host == fg))

    def _fingerprint(self, scope: tuple[str, ...]) -> tuple[bytes, list[int]] | None:
        """The world's fields other than the stores, plus the stores of ``scope``: their
        content (a marshal dump) and the identity of every container in them; None when they
        hold something marshal cannot dump. The clock counts to the minute (what the status
        bar and dates show) unless an app of ``scope`` shows seconds (the Clock's timer and
        stopwatch): a step that moved it a few seconds does not rebuild other frames."""
        w = self.world
        stores = w.stores
        values = [getattr(w, name) for name in _SMALL_FIELDS]
        apps = self.apps
        if not any(n in apps and apps[n].shows_seconds for n in scope):
            values[_CLOCK_AT] = w.clock[:16]
        values += [stores.get(name) for name in scope]
        try:
            content = marshal.dumps(values, 2)
        except (ValueError, TypeError, RecursionError):
            return None
        return content, _container_ids(values)

    def _world_key(self) -> _Key | None:
        scope = self._scope()
        fp = self._fingerprint(scope)
        return None if fp is None else (self.world, scope, *fp)

    def _check_frame(self) -> tuple[bool, _Key | None]:
        """Whether the frame still shows the world after actions (see :meth:`touched`), and
        when it does not, the new fingerprint if the frame built next has the same scope."""
        key = self._screen_key
        if key is None or key[0] is not self.world:
            return False, None
        fp = self._fingerprint(key[1])
        if fp is None:
            return False, None
        if fp[0] == key[2] and fp[1] == key[3]:
            return True, None
        return False, ((self.world, key[1], *fp) if self._scope() == key[1] else None)

    # -- observations --------------------------------------------------------------------
    @property
    def screen(self) -> Screen:
        """The current frame, built and laid out on demand."""
        next_key: _Key | None = None
        if self._stale:
            self._drop_frame()
        elif self._doubtful:
            self._doubtful = False
            if self._screen is not None:
                current, next_key = self._check_frame()
                if not current:
                    self._screen = None
                    self._pixels = None
        if self._screen is None:
            self._screen = self.compositor.build()  # read-only: the world is not changed
            self._screen_key = next_key if next_key is not None else self._world_key()
            self._pixels = None
        return self._screen

    def screenshot(self) -> np.ndarray:
        """The frame's pixels: a read-only ``uint8`` array (height, width, 3) that the device
        never writes to again (the next changed frame is a new array), so it can be kept or
        passed on without a copy; copy it to change it."""
        screen = self.screen
        if self._pixels is None:
            # Settings > Dark theme darkens apps, except those already drawn dark
            night = self.world.settings.get("secure", {}).get("ui_night_mode") == "2" \
                and not screen.dark
            home = self._home_shot
            if home is not None and home[0] is screen and home[1] == night:
                self._pixels = self._renderer.adopt(home[2], home[3])
            else:
                self._pixels = self._renderer.frame(screen.root, night=night)
                current = self._renderer.current()
                if current is not None and self.compositor.is_home_frame(screen):
                    self._home_shot = (screen, night, *current)
        return self._pixels

    def a11y_xml(self) -> str:
        return self.screen.xml

    def ui_elements(self) -> list[UIElement]:
        return self.screen.elements

    # -- system verbs --------------------------------------------------------------------
    def open_app(self, name: str) -> str:
        """Bring an app to the front by label, name, alias or package (resuming its screens)."""
        self.reaching()
        key = name.strip().lower()
        for app in self.apps.values():
            names = {app.name.lower(), app.label.lower(), app.package.lower(),
                     *(a.lower() for a in app.aliases)}
            if key in names:
                if app.kind == "mini-app":
                    host = self.apps.get(app.host or "")
                    where = host.label if host is not None else app.host
                    return (f"{app.label} is a mini-app: it opens inside {where}, not from "
                            f"the launcher; open {where} and start it from there")
                stack = self.world.stacks.setdefault(app.name, [])
                if not stack:
                    stack.append({"screen": app.main_screen, "args": {}, "state": {}})
                self.world.shade = False
                self.world.system_ui = None
                self.world.launcher = {}  # opening an app from the drawer closes it
                self.world.bring_to_front(app.name)
                return ""
        labels = sorted(a.label for a in self.apps.values())
        return f"no app named {name!r} is installed; installed apps: {labels}"

    def home(self) -> None:
        self.reaching()
        self.world.shade = False
        self.world.system_ui = None
        self.world.foreground = LAUNCHER
        self.world.focus = None
        self.world.launcher = {}  # Home from the app drawer goes back to the home screen

    def back(self) -> None:
        """Back: hide the keyboard, else close a dialog, else the screen's own handling, else
        pop the screen (leaving the app from its root)."""
        self.reaching()
        w = self.world
        if w.shade:
            w.shade = False
            return
        if w.system_ui is not None:
            w.system_ui = None
            return
        if self.compositor.pending_permission() is not None:
            self.compositor.answer_permission("denied")()
            return
        if w.focus is not None:
            w.focus = None
            return
        if w.foreground == RECENTS:
            self.overview()
            return
        ctx = self.compositor.ctx()
        if ctx is None:
            w.launcher = {}  # back from the app drawer closes it
            return
        if ctx.dialog is not None:
            ctx.close_dialog()
            return
        page, _ = self.compositor.page()
        if page.on_back is not None and page.on_back():
            return
        ctx.pop()

    def overview(self) -> None:
        """The Overview button: show recent apps, or go back to the last app from there."""
        self.reaching()
        w = self.world
        w.shade = False
        w.system_ui = None
        if w.foreground == RECENTS:
            last = next((a for a in w.recents if w.stacks.get(a)), None)
            if last is not None:
                w.bring_to_front(last)
            else:
                w.foreground = LAUNCHER
            return
        w.foreground = RECENTS
        w.focus = None

    # -- actions (carried out by the input dispatcher) ------------------------------------
    def execute(self, action: Action) -> str:
        """Carry out one action. Returns an error sentence for a meaningless action (nothing
        changes then), else ``""``."""
        return self.dispatcher.execute(action)

    def tap(self, x: int, y: int) -> str:
        """A tap at device pixel (x, y)."""
        self.reaching()
        err = self.dispatcher.tap(x, y)
        self.touched()
        return err

    def edit_text(self, text: str, *, replace: bool = False) -> str:
        """Type ``text`` into the focused field (or with ``replace`` set its text) without
        pressing enter, as a real keyboard's keys do; an error sentence when no field has
        focus. Used by the virtual adb phone and the android_env simulator; the clock moves
        on as for an ``input_text`` action."""
        clock = self.world.clock
        self.world.advance(action_seconds("input_text", text))
        err = self.dispatcher.edit(text, replace=replace)
        if err:
            self.world.clock = clock  # refused: nothing changes, the clock included
        return err

    def long_press(self, x: int, y: int) -> str:
        """A long press at device pixel (x, y); on a text field it pastes the clipboard."""
        self.reaching()
        err = self.dispatcher.long_press(x, y)
        self.touched()
        return err

    def scroll(self, direction: str, x: int | None = None, y: int | None = None,
               *, fraction: float = 0.6) -> str:
        """Scroll the container under (x, y) or the main one; ``down`` reveals content below."""
        self.reaching()
        err = self.dispatcher.scroll(direction, x, y, fraction=fraction)
        self.touched()
        return err


_WORLD_FIELDS: tuple[str, ...] = tuple(World().field_values())
#: the fields fingerprinted whole after an action (the stores only for the apps in scope)
_SMALL_FIELDS: tuple[str, ...] = tuple(n for n in _WORLD_FIELDS if n != "stores")
_CLOCK_AT = _SMALL_FIELDS.index("clock")
