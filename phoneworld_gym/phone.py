"""The simulated phone: a :class:`~phoneworld_gym.world.World`, its apps and the system UI,
behind the :class:`~phoneworld_gym.device.Device` verbs.

Every observation comes from one laid-out view tree: the screenshot is drawn from it, the
accessibility XML is dumped from it, and taps are hit-tested against it.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from phoneworld_gym.app import App, Ctx, Page, all_apps, post
from phoneworld_gym.contract import (
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Action,
    UIElement,
    parse_ui_elements,
)
from phoneworld_gym.system import chrome, launcher
from phoneworld_gym.ui.dump import dump_nodes, to_xml
from phoneworld_gym.ui.render import render
from phoneworld_gym.ui.view import (
    Column,
    Stack,
    TextField,
    View,
    compute_clips,
    find_scrollable,
    hit_test,
)
from phoneworld_gym.world import LAUNCHER, RECENTS, World

SCREEN_BOX = (0, 0, SCREEN_WIDTH, SCREEN_HEIGHT)


def app_seed(seed: int, app: str) -> int:
    """Per-app generator seed, stable across Python versions and processes."""
    digest = hashlib.sha256(f"{seed}_{app}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


class Screen:
    """One laid-out frame: the view tree, the foreground package and the indexed elements."""

    def __init__(self, root: View, package: str):
        self.root = root
        self.package = package
        self._xml: str | None = None
        self._elements: list[UIElement] | None = None
        self._element_views: list[View] | None = None

    @property
    def xml(self) -> str:
        if self._xml is None:
            self._xml = to_xml(self.root, self.package)
        return self._xml

    @property
    def elements(self) -> list[UIElement]:
        if self._elements is None:
            self._elements = parse_ui_elements(self.xml)
        return self._elements

    @property
    def element_views(self) -> list[View]:
        """The views behind :attr:`elements`, index for index (AndroidWorld's filter)."""
        if self._element_views is None:
            out = []
            for v in dump_nodes(self.root):
                kids = [c for c in v.children if c.in_dump and c.clip is not None]
                if not kids or v.desc or v.scrollable:
                    out.append(v)
            self._element_views = out
        return self._element_views


class PhoneWorldProbe:
    """Verifier access to a PhoneWorld phone."""

    def __init__(self, device: PhoneWorldDevice):
        self._device = device

    def _provider(self, authority: str) -> list[dict[str, Any]]:
        w = self._device.world
        for app in self._device.apps.values():
            fn = app.providers.get(authority)
            if fn is not None and app.name in w.stores:
                return fn(copy.deepcopy(w.stores[app.name]))
        return []

    def contacts(self) -> list[dict[str, Any]]:
        return self._provider("contacts")

    def foreground_app(self) -> str:
        w = self._device.world
        if w.shade:
            return chrome.SHADE_PACKAGE
        if w.foreground in (LAUNCHER, RECENTS):
            return launcher.PACKAGE
        return self._device.apps[w.foreground].package

    def setting(self, namespace: str, key: str) -> str | None:
        return self._device.world.settings.get(namespace, {}).get(key)

    def app_store(self, app: str) -> dict[str, Any]:
        w = self._device.world
        if app not in w.stores:
            raise KeyError(f"no store for app {app!r}; have {sorted(w.stores)}")
        return copy.deepcopy(w.stores[app])

    def clipboard(self) -> str:
        return self._device.world.clipboard


class PhoneWorldDevice:
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
        for name, app in self.apps.items():
            rng = np.random.default_rng(app_seed(int(seed), name))
            w.stores[name] = app.generate(rng)
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

    # -- building the frame ----------------------------------------------------------------
    def _ctx(self) -> Ctx | None:
        w = self.world
        top = w.top()
        if top is None:
            return None
        return Ctx(w, self.apps[w.foreground], top)

    def _page(self) -> tuple[Page, str]:
        w = self.world
        ctx = self._ctx()
        if w.shade:
            notes = [(self.apps[n["app"]].label if n["app"] in self.apps else n["app"],
                      n["title"], n["text"], self._glyph(n["app"]), self._tint(n["app"]))
                     for n in w.notifications]
            return Page(chrome.shade(w.clock, notes, self._note_opener,
                                     self._clear_notifications)), chrome.SHADE_PACKAGE
        if w.foreground == RECENTS:
            cards = [(a.label, a.icon, a.theme.primary[:3], self._thumbnail(a.name))
                     for a in (self.apps[n] for n in w.recents if w.stacks.get(n))]
            body = launcher.overview(cards, self._resumer, self._clear_all)
            return Page(body), launcher.PACKAGE
        if ctx is None:
            tiles = [(a.label, a.icon, a.theme.primary[:3]) for a in self.apps.values()
                     if a.kind != "system"]
            body = launcher.home_screen(w.clock, tiles, self._opener)  # type: ignore[arg-type]
            return Page(body), launcher.PACKAGE
        fn = ctx.app.screens[ctx.entry["screen"]]
        out = fn(ctx)
        page = out if isinstance(out, Page) else Page(out)
        return page, ctx.app.package

    def _opener(self, label: str) -> Any:
        return lambda: self.open_app(label)

    def _glyph(self, app: str) -> str:
        return self.apps[app].icon if app in self.apps else "bell"

    def _tint(self, app: str) -> tuple[int, int, int]:
        c = self.apps[app].theme.primary if app in self.apps else (96, 96, 96)
        return (c[0], c[1], c[2])

    def _note_opener(self, i: int) -> Any:
        def h() -> None:
            w = self.world
            note = w.notifications.pop(i)
            w.shade = False
            app = self.apps.get(note["app"])
            if app is None:
                return
            stack = w.stacks.setdefault(app.name, [])
            if note.get("screen") in app.screens:
                stack.append({"screen": note["screen"], "args": dict(note.get("args", {})),
                              "state": {}})
            elif not stack:
                stack.append({"screen": app.main_screen, "args": {}, "state": {}})
            w.bring_to_front(app.name)

        return h

    def _clear_notifications(self) -> None:
        self.world.notifications = []
        self.world.shade = False

    def _resumer(self, label: str) -> Any:
        return lambda: self.open_app(label)

    def _clear_all(self) -> None:
        """Overview's Clear all: every app's screens are closed."""
        self.world.stacks = {}
        self.world.recents = []
        self.world.foreground = LAUNCHER

    def _thumbnail(self, app: str) -> Any:
        """A small picture of an app's top screen, for its Overview card."""
        from PIL import Image as PILImage

        w = self.world
        stack = w.stacks[app]
        ctx = Ctx(w, self.apps[app], stack[-1])
        out = ctx.app.screens[ctx.entry["screen"]](ctx)
        body = out.body if isinstance(out, Page) else out
        body.flex = body.flex or 1.0
        frame = Column([chrome.status_bar(w.clock, len(w.notifications)), body],
                       cls="android.widget.LinearLayout", bg=(body.bg or (254, 247, 255))[:3])
        frame.layout(0, 0, SCREEN_WIDTH, SCREEN_HEIGHT - chrome.NAV_BAR_H)
        compute_clips(frame, SCREEN_BOX)
        size = (SCREEN_WIDTH // 3, (SCREEN_HEIGHT - chrome.NAV_BAR_H) // 3)
        img: PILImage.Image = render(frame, size)
        return img

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

    @property
    def screen(self) -> Screen:
        """The current frame, built and laid out on demand."""
        if self._screen is None:
            self._screen = self._build()
        return self._screen

    def _build(self) -> Screen:
        w = self.world
        page, package = self._page()
        body = page.body
        body.flex = body.flex or 1.0
        on_launcher = w.foreground in (LAUNCHER, RECENTS) and not w.shade
        glyphs = [self._glyph(n["app"]) for n in w.notifications]
        column: list[View] = [chrome.status_bar(w.clock, glyphs,
                                                dark=on_launcher or w.shade), body]
        # mark the focused field and show the keyboard under it
        fields = {v.key: v for v in body.walk() if isinstance(v, TextField)}
        if page.dialog is not None:
            fields.update({v.key: v for v in page.dialog.walk() if isinstance(v, TextField)})
        focused = fields.get(w.focus) if w.focus is not None else None
        if focused is not None:  # a focus whose field is gone shows no keyboard
            focused.focused = True
            column.append(chrome.keyboard(self._type_key, w.shift, w.keyboard_layer))
        column.append(chrome.nav_bar(self.back, self.home, self.overview,
                                     dark=on_launcher or w.shade))
        bg = launcher.WALLPAPER if on_launcher else (page.body.bg or (254, 247, 255))
        main = Column(column, cls="android.widget.LinearLayout", bg=bg[:3])
        layers: list[View] = [main]
        if page.dialog is not None:
            main.in_dump = False  # the dialog's window is the one dumped, as on a phone
            dlg = page.dialog
            dlg.height = dlg.height or dlg.measure(dlg.width or SCREEN_WIDTH)
            layers.append(chrome.scrim(self._dismiss_dialog))
            layers.append(Stack([dlg], cls="android.widget.FrameLayout"))
        if w.toast and w.toast.get("ttl", 0) > 0:
            nav = chrome.NAV_BAR_H + (chrome.KEYBOARD_H if focused is not None else 0)
            layers.append(chrome.overlay_stack([chrome.toast(w.toast["text"])], nav + 60))
        root = Stack(layers, cls="android.widget.FrameLayout")
        root.layout(0, 0, SCREEN_WIDTH, SCREEN_HEIGHT)
        compute_clips(root, SCREEN_BOX)
        return Screen(root, package)

    # -- observations --------------------------------------------------------------------
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
        ctx = self._ctx()
        if ctx is None:
            return
        if ctx.dialog is not None:
            ctx.close_dialog()
            return
        page, _ = self._page()
        if page.on_back is not None and page.on_back():
            return
        ctx.pop()

    def _dismiss_dialog(self) -> None:
        ctx = self._ctx()
        if ctx is not None:
            ctx.close_dialog()

    def _focused_field(self) -> TextField | None:
        if self.world.focus is None:
            return None
        for v in self.screen.root.walk():
            if isinstance(v, TextField) and v.key == self.world.focus:
                return v
        return None

    def _type_key(self, key: str) -> None:
        f = self._focused_field()
        if f is None:
            return
        w = self.world
        if key == "SHIFT":
            w.shift = not w.shift
        elif key == "DEL":
            f.on_text(f.text[:-1])
        elif key == "ENTER":
            if f.on_submit is not None:
                f.on_submit()
        elif key in ("SYM", "ABC"):
            w.keyboard_layer = "symbols" if key == "SYM" else "letters"
        else:
            ch = " " if key == "SPACE" else key.upper() if w.shift else key
            f.on_text(f.text + ch)
            w.shift = False

    # -- actions -------------------------------------------------------------------------
    def execute(self, action: Action) -> str:
        """Carry out one action. Returns an error sentence for a meaningless action (nothing
        changes then), else ``""``."""
        shown_toast = self.world.toast
        err = self._execute(action)
        if not err:
            self.invalidate()
            # focus does not outlive its field (the screen changed under it)
            if self.world.focus is not None and self._focused_field() is None:
                self.world.focus = None
            # a toast already showing ages by one step; one this action raised starts fresh
            if self.world.toast is not None and self.world.toast is shown_toast \
                    and action.action_type not in ("status", "answer"):
                self.world.toast["ttl"] -= 1
                if self.world.toast["ttl"] <= 0:
                    self.world.toast = None
            self.invalidate()
        return err

    def _point(self, action: Action) -> tuple[int, int] | str:
        if action.index is not None:
            views = self.screen.element_views
            if action.index >= len(views):
                return (f"no element with index {action.index}; this screen has "
                        f"{len(views)} elements (0..{len(views) - 1})")
            clip = views[action.index].clip
            assert clip is not None
            return (clip[0] + clip[2]) // 2, (clip[1] + clip[3]) // 2
        assert action.x is not None and action.y is not None
        return int(action.x), int(action.y)

    def tap(self, x: int, y: int) -> str:
        """A tap at device pixel (x, y)."""
        hit = hit_test(self.screen.root, x, y)
        if hit is None:
            return f"nothing to tap at ({x}, {y})"
        if isinstance(hit, TextField):
            self._focus(hit.key)
            return ""
        if hit.on_click is not None:
            hit.on_click()
        return ""

    def _focus(self, key: str) -> None:
        if self.world.focus != key:
            self.world.keyboard_layer = "letters"
            self.world.shift = False
        self.world.focus = key

    def long_press(self, x: int, y: int) -> str:
        root = self.screen.root
        hit = hit_test(root, x, y, long=True)
        if hit is not None and hit.on_long_click is not None:
            hit.on_long_click()
            return ""
        field = hit_test(root, x, y)
        if isinstance(field, TextField):
            # the paste menu is folded into the long press: focus and paste the clipboard
            self._focus(field.key)
            if self.world.clipboard:
                field.on_text(field.text + self.world.clipboard)
            return ""
        return f"nothing responds to a long press at ({x}, {y})"

    def scroll(self, direction: str, x: int | None = None, y: int | None = None,
               *, fraction: float = 0.6) -> str:
        """Scroll the container under (x, y) or the main one; ``down`` reveals content below."""
        if direction in ("left", "right"):
            return f"nothing scrolls {direction} on this screen"
        sc = find_scrollable(self.screen.root, x, y)
        if sc is None:
            return "nothing to scroll on this screen"
        vh = (sc.clip or sc.box)[3] - (sc.clip or sc.box)[1]
        dy = int(vh * fraction) * (1 if direction == "down" else -1)
        if not sc.scroll_by(dy):
            return f"already at the {'bottom' if direction == 'down' else 'top'}"
        return ""

    def _execute(self, a: Action) -> str:
        t = a.action_type
        if t in ("click", "double_tap", "long_press"):
            p = self._point(a)
            if isinstance(p, str):
                return p
            if t == "long_press":
                return self.long_press(*p)
            err = self.tap(*p)
            if t == "double_tap" and not err:
                self.invalidate()
                self.tap(*p)  # the first tap landed; a second that hits nothing is no error
            return err
        if t == "input_text":
            if a.index is not None or a.x is not None:
                p = self._point(a)
                if isinstance(p, str):
                    return p
                hit = hit_test(self.screen.root, *p)
                if not isinstance(hit, TextField):
                    return f"the element at {p} is not a text field"
                self._focus(hit.key)
                self.invalidate()
            f = self._focused_field()
            if f is None:
                return "no text field has focus; tap one first or give its index"
            assert a.text is not None
            f.on_text(a.text if a.clear_text else f.text + a.text)
            if f.on_submit is not None:
                f.on_submit()
            return ""
        if t == "keyboard_enter":
            f = self._focused_field()
            if f is None:
                return "no text field has focus, so enter does nothing"
            if f.on_submit is not None:
                f.on_submit()
            return ""
        if t == "scroll":
            assert a.direction is not None
            if a.index is not None or a.x is not None:
                p = self._point(a)
                if isinstance(p, str):
                    return p
                return self.scroll(a.direction, *p)
            return self.scroll(a.direction)
        if t == "swipe":
            assert a.direction is not None
            start = self._point(a) if (a.index is not None or a.x is not None) else None
            if isinstance(start, str):
                return start
            w = self.world
            if a.direction == "down" and start is not None \
                    and start[1] < chrome.STATUS_BAR_H and not w.shade:
                w.shade = True  # pulled down from the status bar
                w.focus = None
                return ""
            if a.direction == "up" and w.shade:
                w.shade = False
                return ""
            opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}
            if start is not None:
                return self.scroll(opposite[a.direction], *start)
            return self.scroll(opposite[a.direction])
        if t == "navigate_home":
            self.home()
            return ""
        if t == "navigate_back":
            self.back()
            return ""
        if t == "open_app":
            assert a.app_name is not None
            return self.open_app(a.app_name)
        return ""  # wait, status, answer: nothing happens on the phone
