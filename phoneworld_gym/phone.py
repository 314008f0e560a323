"""The simulated phone: a :class:`~phoneworld_gym.world.World`, its apps and the system UI,
behind the :class:`~phoneworld_gym.device.Device` verbs.

Every observation comes from one laid-out frame (:class:`~phoneworld_gym.screen.Screen`): the
screenshot is drawn from it, the accessibility XML is dumped from it, and taps are hit-tested
against it. The :class:`~phoneworld_gym.compositor.Compositor` builds the frames, the
:class:`~phoneworld_gym.input.InputDispatcher` carries out actions on them, and the device
holds the world and the system's navigation verbs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from phoneworld_gym.app import App, all_apps, post
from phoneworld_gym.compositor import Compositor
from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, Action, UIElement
from phoneworld_gym.input import InputDispatcher
from phoneworld_gym.life import generate as generate_life
from phoneworld_gym.screen import Screen
from phoneworld_gym.sim_access import PhoneWorldProbe, SimWriteVerbs
from phoneworld_gym.ui.render import render
from phoneworld_gym.world import LAUNCHER, RECENTS, World

__all__ = ["PhoneWorldDevice", "PhoneWorldProbe", "Screen", "app_seed"]


def app_seed(seed: int, app: str) -> int:
    """Per-app generator seed, stable across Python versions and processes."""
    digest = hashlib.sha256(f"{seed}_{app}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


class PhoneWorldDevice(SimWriteVerbs):
    """A simulated Pixel-class phone with mock apps.

    ``apps`` limits the installed apps (default: all registered). ``screenshot_size`` is the
    (width, height) of screenshots; bounds and actions stay in 1080 x 2400 device pixels.
    """

    kind = "phoneworld"

    def __init__(self, apps: Sequence[str] | None = None,
                 screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT)):
        registry = all_apps()
        names = list(apps) if apps is not None else sorted(registry)
        unknown = [n for n in names if n not in registry]
        if unknown:
            raise ValueError(f"unknown apps {unknown}; registered: {sorted(registry)}")
        self.apps: dict[str, App] = {n: registry[n] for n in names}
        w, h = screenshot_size
        if not (16 <= w <= 4 * SCREEN_WIDTH and 16 <= h <= 4 * SCREEN_HEIGHT):
            raise ValueError(f"screenshot_size {screenshot_size} is out of range")
        self.screenshot_size = (int(w), int(h))
        self.world = World()
        self._screen: Screen | None = None
        self._pixels: np.ndarray | None = None
        self.compositor = Compositor(self)
        self.dispatcher = InputDispatcher(self)
        self.probe = PhoneWorldProbe(self)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_screen"] = None  # views hold closures; the frame is rebuilt on demand
        state["_pixels"] = None
        state.pop("_page_cache", None)
        return state

    # -- lifecycle -----------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Fresh world: every app's store generated from the seed, home screen in front."""
        w = World(seed=int(seed))
        life = generate_life(int(seed))
        for name, app in self.apps.items():
            rng = np.random.default_rng(app_seed(int(seed), name))
            w.stores[name] = app.generate(rng, life)
        for name, app in self.apps.items():
            for note in app.notifications(w.stores[name]):
                post(w, app, note)
        self.world = w
        self.invalidate()

    def snapshot(self) -> dict[str, Any]:
        return self.world.snapshot()

    def restore(self, snap: dict[str, Any]) -> None:
        self.world.restore(snap)
        self.invalidate()

    def invalidate(self) -> None:
        """Forget the cached frame (after anything changes the world from outside)."""
        self._screen = None
        self._pixels = None

    # -- observations --------------------------------------------------------------------
    @property
    def screen(self) -> Screen:
        """The current frame, built and laid out on demand."""
        if self._screen is None:
            self._screen = self.compositor.build()
        return self._screen

    def screenshot(self) -> np.ndarray:
        if self._pixels is None:
            img = render(self.screen.root, self.screenshot_size)
            self._pixels = np.asarray(img, dtype=np.uint8)
            self._pixels.setflags(write=False)
        return self._pixels

    def a11y_xml(self) -> str:
        return self.screen.xml

    def ui_elements(self) -> list[UIElement]:
        return self.screen.elements

    # -- system verbs --------------------------------------------------------------------
    def open_app(self, name: str) -> str:
        """Bring an app to the front by label, name, alias or package (resuming its screens)."""
        key = name.strip().lower()
        for app in self.apps.values():
            names = {app.name.lower(), app.label.lower(), app.package.lower(),
                     *(a.lower() for a in app.aliases)}
            if key in names:
                stack = self.world.stacks.setdefault(app.name, [])
                if not stack:
                    stack.append({"screen": app.main_screen, "args": {}, "state": {}})
                self.world.shade = False
                self.world.bring_to_front(app.name)
                return ""
        labels = sorted(a.label for a in self.apps.values())
        return f"no app named {name!r} is installed; installed apps: {labels}"

    def home(self) -> None:
        self.world.shade = False
        self.world.foreground = LAUNCHER
        self.world.focus = None

    def back(self) -> None:
        """Back: hide the keyboard, else close a dialog, else the screen's own handling, else
        pop the screen (leaving the app from its root)."""
        w = self.world
        if w.shade:
            w.shade = False
            return
        if w.focus is not None:
            w.focus = None
            return
        if w.foreground == RECENTS:
            self.overview()
            return
        ctx = self.compositor.ctx()
        if ctx is None:
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
        w = self.world
        w.shade = False
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
        return self.dispatcher.tap(x, y)

    def long_press(self, x: int, y: int) -> str:
        """A long press at device pixel (x, y); on a text field it pastes the clipboard."""
        return self.dispatcher.long_press(x, y)

    def scroll(self, direction: str, x: int | None = None, y: int | None = None,
               *, fraction: float = 0.6) -> str:
        """Scroll the container under (x, y) or the main one; ``down`` reveals content below."""
        return self.dispatcher.scroll(direction, x, y, fraction=fraction)
