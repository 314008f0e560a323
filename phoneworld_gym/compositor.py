"""The compositor: builds each frame of the simulated phone.

A frame is the foreground app's page, or a system surface in its place (the home screen, the
Overview of recent apps, the notification shade), framed by the status bar, the soft keyboard
under a focused field and the navigation bar, with a dialog (over a scrim) and a toast
layered on top. The handlers of the system surfaces live here too; building a frame never
changes the world.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from PIL import Image as PILImage

from phoneworld_gym.app import Page, resolve_screen
from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH
from phoneworld_gym.ctx import Ctx, activity_ctx
from phoneworld_gym.host import FrameHost
from phoneworld_gym.screen import Screen
from phoneworld_gym.system import chrome, intents, launcher, realism
from phoneworld_gym.ui.render import display_list, paint
from phoneworld_gym.ui.view import (
    Column,
    Handler,
    Stack,
    TextField,
    View,
    compute_clips,
    retain,
)
from phoneworld_gym.world import LAUNCHER, RECENTS, World

SCREEN_BOX = (0, 0, SCREEN_WIDTH, SCREEN_HEIGHT)
#: the window background behind an app page that sets none (Material 3 surface)
DEFAULT_BG = (254, 247, 255)
_NO_APP_TINT = (96, 96, 96)


#: how many variants of the system bars the compositor keeps laid out (bound of
#: ``_retained``, emptied when full; a frame's bars vary by clock, icons, theme and keyboard
#: page, a few at a time), and half the bound of ``_thumbs`` (Overview cards, ~0.8 MiB each, so
#: up to ~26 MiB; the Overview shows a card per recent app, a few dozen at most)
_RETAINED_MAX = 16


def _is_dark(c: Any) -> bool:
    """Whether a background colour is a dark theme's (relative luminance under 0.2)."""
    r, g, b = (float(x) / 255 for x in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.2


class Compositor:
    """Lays out the current frame of a :class:`~phoneworld_gym.phone.PhoneWorldDevice`.

    The system bars and the keyboard are functions of a few values (the clock, the
    notification glyphs, dark or light, shift and the keyboard page) and of handlers bound to
    the device, so each variant is built and laid out once and reused by every frame that
    shows it (:func:`~phoneworld_gym.ui.view.retain`)."""

    def __init__(self, device: FrameHost):
        self._device = device
        #: bound: _RETAINED_MAX views (emptied when full)
        self._retained: dict[tuple[Any, ...], View] = {}
        #: Overview thumbnails by the ops that draw them (the same picture object for the
        #: same content, so an unchanged card is not repainted); bound: 2 * _RETAINED_MAX
        self._thumbs: dict[tuple[Any, ...], PILImage.Image] = {}
        #: the last plain home frame and its :meth:`home_key`
        self._home_frame: tuple[tuple[Any, ...], Screen] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_retained"] = {}  # views hold closures; they are rebuilt on demand
        state["_thumbs"] = {}
        state["_home_frame"] = None
        return state

    def _bar(self, key: tuple[Any, ...], make: Any) -> View:
        """The retained system view for ``key``, built by ``make()`` the first time."""
        view = self._retained.get(key)
        if view is None:
            if len(self._retained) >= _RETAINED_MAX:
                self._retained.clear()
            view = self._retained[key] = retain(make())
        return view

    def _status_icons(self) -> chrome.StatusIcons:
        """The status bar's system icons as the phone's settings make them (part of every key
        a frame holding the bar is retained under)."""
        return chrome.StatusIcons.from_settings(self.world.settings)

    @property
    def world(self) -> World:
        return self._device.world

    # -- the foreground page ---------------------------------------------------------------
    def ctx(self) -> Ctx | None:
        """The foreground activity's context, or None on a launcher surface."""
        top = self.world.top()
        if top is None:
            return None
        return activity_ctx(self.world, self._device.apps, self.world.foreground, top)

    def page(self) -> tuple[Page, str]:
        """What fills the screen between the bars, and the package it belongs to."""
        w = self.world
        if w.shade:
            return Page(self._shade()), chrome.SHADE_PACKAGE
        if w.foreground == RECENTS:
            return Page(self._overview()), launcher.PACKAGE
        ctx = self.ctx()
        if ctx is None:
            if w.launcher.get("drawer"):
                return Page(self._drawer()), launcher.PACKAGE
            return Page(self._home()), launcher.PACKAGE
        if realism.loading(w, ctx.app, ctx.screen_name, ctx.entry):
            page = Page(realism.placeholder(ctx.theme, ctx.app.label))
        else:
            out = ctx.render()
            page = out if isinstance(out, Page) else Page(out)
            promo = realism.promo_due(w, ctx.app, ctx.screen_name)
            if promo is not None and page.dialog is None:
                dismiss = realism.dismiss_promo(w, ctx.app.name)

                def back() -> bool:
                    dismiss()
                    return True

                page = dataclasses.replace(
                    page, dialog=realism.promo_dialog(promo, ctx.theme, dismiss), on_back=back)
        if w.system_ui is not None:
            return page, intents.RESOLVER_PACKAGE
        if page.permission is not None and ctx.permission(page.permission) is None:
            return page, intents.PERMISSION_PACKAGE
        return page, ctx.host.package  # a mini-app is views inside its host's package

    # -- the frame -------------------------------------------------------------------------
    def home_key(self) -> tuple[Any, ...] | None:
        """What the plain home screen shows (the clock and the notification glyphs), or None
        when the frame is anything else (an app, Overview, the shade, a toast, focus).

        The home screen's handlers reach the world only through the device, so one home
        frame serves every world with the same key: :meth:`build` keeps it and resets land on
        it without a rebuild."""
        w = self.world
        if w.foreground != LAUNCHER or w.shade or w.focus is not None or w.toast \
                or w.launcher:
            return None
        return (w.clock[:16], tuple(self._glyph(n["app"]) for n in w.notifications),
                self._status_icons())

    def is_home_frame(self, screen: Screen) -> bool:
        """Whether ``screen`` is the plain home frame this compositor keeps (see
        :meth:`home_key`)."""
        home = self._home_frame
        return home is not None and home[1] is screen

    def build(self) -> Screen:
        """Lay out the current frame (read-only: the world is not changed)."""
        key = self.home_key()
        if key is not None:
            home = self._home_frame
            if home is not None and home[0] == key:
                return home[1]
            screen = self._build()
            self._home_frame = (key, screen)
            return screen
        return self._build()

    def _build(self) -> Screen:
        w = self.world
        page, package = self.page()
        body = page.body
        body.flex = body.flex or 1.0
        # white bars on a dark screen (the drawer is a light panel; an app may be dark itself)
        app_dark = body.bg is not None and _is_dark(body.bg)
        dark = w.shade or app_dark or (w.foreground in (LAUNCHER, RECENTS)
                                       and not self.drawer_open())
        glyphs = tuple(self._glyph(n["app"]) for n in w.notifications)
        d = self._device
        icons = self._status_icons()
        column: list[View] = [
            self._bar(("status", w.clock[:16], glyphs, dark, icons),
                      lambda: chrome.status_bar(w.clock, glyphs, dark=dark, icons=icons)),
            body]
        focused = self._focused_field(page)
        if focused is not None:  # a focus whose field is gone shows no keyboard
            focused.focused = True
            shift, layer = w.shift, w.keyboard_layer
            column.append(self._bar(("keyboard", shift, layer),
                                    lambda: chrome.keyboard(d.dispatcher.type_key, shift, layer)))
        column.append(self._bar(("nav", dark),
                                lambda: chrome.nav_bar(d.back, d.home, d.overview, dark=dark)))
        bg = launcher.WALLPAPER if dark and not w.shade and not app_dark \
            else (body.bg or DEFAULT_BG)
        main = Column(column, cls="android.widget.LinearLayout", bg=bg[:3])
        layers: list[View] = [main]
        system = self._system_window(page)
        if page.dialog is not None and system is None:
            main.in_dump = False  # the dialog's window is the one dumped, as on a phone
            dlg = page.dialog
            dlg.height = dlg.height or dlg.measure(dlg.width or SCREEN_WIDTH)
            layers.append(chrome.scrim(self.dismiss_dialog))
            layers.append(Stack([dlg], cls="android.widget.FrameLayout"))
        if system is not None:  # a system window over the app: only it is dumped
            main.in_dump = False
            win, package, on_scrim = system
            win.height = win.height or win.measure(win.width or SCREEN_WIDTH)
            layers.append(chrome.scrim(on_scrim))
            layers.append(Stack([win], cls="android.widget.FrameLayout",
                                padding=(0, 0, 0, chrome.NAV_BAR_H)))
        if w.toast and w.toast.get("ttl", 0) > 0:
            nav = chrome.NAV_BAR_H + (chrome.KEYBOARD_H if focused is not None else 0)
            layers.append(chrome.overlay_stack([chrome.toast(w.toast["text"])], nav + 60))
        root = Stack(layers, cls="android.widget.FrameLayout")
        root.layout(0, 0, SCREEN_WIDTH, SCREEN_HEIGHT)
        compute_clips(root, SCREEN_BOX)
        return Screen(root, package, dark=app_dark)

    # -- system windows over apps (see phoneworld_gym.system.intents) ----------------------
    def pending_permission(self, page: Page | None = None) -> tuple[str, str] | None:
        """(app, permission) when the foreground screen needs a permission never answered."""
        if self.world.shade or self.world.system_ui is not None:
            return None
        ctx = self.ctx()
        if ctx is None:
            return None
        if page is None:
            page = self.page()[0]
        perm = page.permission
        if perm is None or ctx.permission(perm) is not None:
            return None
        if perm not in intents.PERMISSIONS:
            raise ValueError(f"{ctx.app.name}: unknown permission {perm!r}; "
                             f"known: {sorted(intents.PERMISSIONS)}")
        return ctx.host.name, perm

    def answer_permission(self, decision: str) -> Handler:
        """A permission dialog button: store the answer for the foreground app."""

        def h() -> None:
            pending = self.pending_permission()
            if pending is not None:
                app, perm = pending
                self.world.permissions.setdefault(app, {})[perm] = decision

        return h

    def _system_window(self, page: Page) -> tuple[View, str, Handler] | None:
        """The share sheet, chooser or permission dialog over the page: (view, package,
        what a tap on the scrim does)."""
        w = self.world
        ui = w.system_ui
        apps = self._device.apps
        if ui is not None and ui.get("kind") == "share":
            targets = intents.share_targets(str(ui.get("mime", "text/plain")),
                                            list(apps.values()), exclude=ui.get("from"))
            cells = [(a.label, a.icon, self._tint(a.name)) for a, _ in targets]
            copy = self._share_copy if not ui.get("path") and ui.get("text") else None
            view = intents.share_sheet(ui, cells, self._share_to(targets), copy)
            return view, intents.RESOLVER_PACKAGE, self._close_system_ui
        if ui is not None and ui.get("kind") == "chooser":
            names = [n for n in ui.get("targets", []) if n in apps]
            cells = [(apps[n].label, apps[n].icon, self._tint(n)) for n in names]
            return (intents.chooser(str(ui.get("uri", "")), cells, self._open_with(names)),
                    intents.RESOLVER_PACKAGE, self._close_system_ui)
        pending = self.pending_permission(page)
        if pending is not None:
            app, perm = pending
            view = intents.permission_dialog(apps[app].label, perm, self.answer_permission)
            return view, intents.PERMISSION_PACKAGE, self._nothing
        return None

    def _nothing(self) -> None:
        """A tap outside the permission dialog does nothing, as on Android 11 and later."""

    def _close_system_ui(self) -> None:
        self.world.system_ui = None

    def _share_copy(self) -> None:
        """The share sheet's Copy: the shared text onto the clipboard."""
        ui = self.world.system_ui or {}
        self.world.clipboard = str(ui.get("text", ""))
        self.world.system_ui = None
        self.world.toast = {"text": "Copied", "ttl": 2}

    def _share_to(self, targets: list[tuple[Any, str]]) -> Any:
        def make(i: int) -> Handler:
            def h() -> None:
                ui = self.world.system_ui or {}
                app, screen = targets[i]
                shared = {k: ui.get(k) for k in ("text", "subject", "path", "mime")}
                self.world.system_ui = None
                # the receiving screen runs in the sender's task (a mini-app's is its
                # host's): back returns to the sender
                sender = self._device.apps.get(str(ui.get("from")))
                caller = None if sender is None else (sender.host or sender.name)
                self._start(app.name, screen, _caller=caller, shared=shared)

            return h

        return make

    def _open_with(self, names: list[str]) -> Any:
        def make(i: int) -> Handler:
            def h() -> None:
                ui = self.world.system_ui or {}
                app = self._device.apps[names[i]]
                self.world.system_ui = None
                self._start(app.name, app.intent_filters[intents.uri_scheme(ui["uri"])],
                            uri=ui["uri"])

            return h

        return make

    def _start(self, app: str, screen: str, _caller: str | None = None, **args: Any) -> None:
        """Open ``screen`` of ``app`` on top of its back stack and bring it to the front;
        ``_caller`` names the app whose task it runs in (back from it returns there)."""
        w = self.world
        stack = w.stacks.setdefault(app, [])
        entry: dict[str, Any] = {"screen": screen, "args": args, "state": {}}
        if _caller is not None and _caller != app:
            entry["caller"] = _caller
        stack.append(entry)
        w.focus = None
        w.bring_to_front(app)

    def _focused_field(self, page: Page) -> TextField | None:
        """The page's text field (in the body or the dialog) that has keyboard focus."""
        if self.world.focus is None:
            return None
        trees = [page.body] if page.dialog is None else [page.body, page.dialog]
        hits = [v for t in trees for v in t.walk()
                if isinstance(v, TextField) and v.key == self.world.focus]
        return hits[-1] if hits else None  # a dialog's field wins over the body's

    # -- system surfaces -------------------------------------------------------------------
    def _home(self) -> View:
        return launcher.home_screen(self.world.clock, self._tiles(), self._opener,
                                    self.open_drawer)

    def _tiles(self) -> list[tuple[str, str, tuple[int, int, int]]]:
        """(label, glyph, colour) of every app the launcher shows (not system or mini-apps)."""
        apps = [a for a in self._device.apps.values() if a.kind not in ("system", "mini-app")]
        return [(a.label, a.icon, self._tint(a.name)) for a in apps]

    def drawer_open(self) -> bool:
        """Whether the all-apps drawer is showing."""
        w = self.world
        return bool(w.launcher.get("drawer")) and w.top() is None and w.foreground == LAUNCHER

    def home_showing(self) -> bool:
        """Whether the plain home screen is in front (no drawer, shade or system window)."""
        w = self.world
        return w.foreground == LAUNCHER and not w.shade and w.system_ui is None \
            and not w.launcher.get("drawer")

    def open_drawer(self) -> None:
        """Swipe up on the home screen, or its "All apps" handle: open the app drawer."""
        self.world.launcher = {"drawer": True, "query": "", "scroll": 0}

    def _drawer(self) -> View:
        w = self.world

        def on_query(text: str) -> None:
            w.launcher = {**w.launcher, "query": text, "scroll": 0}

        def on_scroll(offset: int) -> None:
            w.launcher = {**w.launcher, "scroll": offset}

        return launcher.drawer(self._tiles(), str(w.launcher.get("query", "")), on_query,
                               int(w.launcher.get("scroll", 0)), on_scroll, self._opener)

    def _overview(self) -> View:
        w = self.world
        apps = [self._device.apps[n] for n in w.recents if w.stacks.get(n)]
        cards = [(a.label, a.icon, self._tint(a.name), self.thumbnail(a.name)) for a in apps]
        return launcher.overview(cards, self._opener, self._clear_all)

    def _shade(self) -> View:
        apps = self._device.apps
        notes = [(apps[n["app"]].label if n["app"] in apps else n["app"], n["title"],
                  n["text"], self._glyph(n["app"]), self._tint(n["app"]))
                 for n in self.world.notifications]
        return chrome.shade(self.world.clock, notes, self._note_opener,
                            self._clear_notifications)

    def thumbnail(self, app: str) -> PILImage.Image:
        """A small picture of an app's top screen, for its Overview card."""
        w = self.world
        ctx = activity_ctx(w, self._device.apps, app, w.stacks[app][-1])
        out = ctx.render()
        body = out.body if isinstance(out, Page) else out
        body.flex = body.flex or 1.0
        bar = chrome.status_bar(w.clock, len(w.notifications), icons=self._status_icons())
        frame = Column([bar, body],
                       cls="android.widget.LinearLayout", bg=(body.bg or DEFAULT_BG)[:3])
        frame.layout(0, 0, SCREEN_WIDTH, SCREEN_HEIGHT - chrome.NAV_BAR_H)
        compute_clips(frame, SCREEN_BOX)
        size = (SCREEN_WIDTH // 3, (SCREEN_HEIGHT - chrome.NAV_BAR_H) // 3)
        dl = display_list(frame, size)
        key = (size, tuple(dl.ops))
        img = self._thumbs.get(key)
        if img is None:
            if len(self._thumbs) >= 2 * _RETAINED_MAX:
                self._thumbs.clear()
            img = self._thumbs[key] = PILImage.fromarray(paint(dl))
        return img

    def _glyph(self, app: str) -> str:
        apps = self._device.apps
        return apps[app].icon if app in apps else "bell"

    def _tint(self, app: str) -> tuple[int, int, int]:
        apps = self._device.apps
        c = apps[app].theme.primary if app in apps else _NO_APP_TINT
        return (c[0], c[1], c[2])

    # -- handlers of the system surfaces ---------------------------------------------------
    def _opener(self, label: str) -> Handler:
        """A launcher icon or an Overview card: open (resume) the app."""

        def h() -> None:
            self._device.open_app(label)

        return h

    def _note_opener(self, i: int) -> Handler:
        """A notification card: open the screen it names and dismiss it."""

        def h() -> None:
            w = self.world
            note = w.notifications.pop(i)
            w.shade = False
            app = self._device.apps.get(note["app"])
            if app is None:
                return
            stack = w.stacks.setdefault(app.name, [])
            if self._opens(app, note.get("screen")):
                if not stack and note["screen"] != app.main_screen:
                    # a synthesized back stack, as TaskStackBuilder gives a notification's
                    # activity: back returns to the app's main screen, not home
                    stack.append({"screen": app.main_screen, "args": {}, "state": {}})
                stack.append({"screen": note["screen"], "args": dict(note.get("args", {})),
                              "state": {}})
            elif not stack:
                stack.append({"screen": app.main_screen, "args": {}, "state": {}})
            w.bring_to_front(app.name)

        return h

    @staticmethod
    def _opens(app: Any, screen: Any) -> bool:
        """Whether ``screen`` can go on ``app``'s back stack (its own or a mini-app's)."""
        if not isinstance(screen, str):
            return False
        try:
            resolve_screen(app, screen)
        except KeyError:
            return False
        return True

    def _clear_notifications(self) -> None:
        """The shade's Clear all."""
        self.world.notifications = []
        self.world.shade = False

    def _clear_all(self) -> None:
        """Overview's Clear all: every app's screens are closed."""
        self.world.stacks = {}
        self.world.recents = []
        self.world.foreground = LAUNCHER

    def dismiss_dialog(self) -> None:
        """A tap on the scrim closes the foreground screen's dialog."""
        ctx = self.ctx()
        if ctx is not None:
            ctx.close_dialog()
