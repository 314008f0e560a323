"""The context a screen runs in: :class:`Ctx`, an app's activity with the verbs it may use
on the phone (its store, its back stack and focus, the clock, settings, intents, sharing,
notifications, permissions, files). Apps change the world only through it
(:mod:`phoneworld_gym.app` says what an app is)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from phoneworld_gym.app import (
    App,
    Page,
    all_apps,
    get_app,
    mini_screen,
    post,
    split_screen,
)
from phoneworld_gym.system import intents, realism, storage
from phoneworld_gym.ui.view import Handler, View
from phoneworld_gym.world import LAUNCHER, World, copy_data


def activity_ctx(world: World, apps: dict[str, App], app: str, entry: dict[str, Any]) -> Ctx:
    """The context of ``entry`` on ``app``'s back stack: a mini-app's activity gets the
    mini-app's context, hosted by ``app``."""
    mini, _ = split_screen(entry["screen"])
    host = apps[app]
    if mini is None:
        return Ctx(world, host, entry)
    guest = apps.get(mini)
    if guest is None or guest.host != host.name:
        raise KeyError(f"{host.name}'s back stack holds {entry['screen']!r}, but {mini!r} is "
                       f"not a mini-app installed in {host.name}")
    return Ctx(world, guest, entry, host=host)



class Ctx:
    """What a screen and its handlers see: the world, the app's store, this activity's
    arguments and UI state, and the navigation verbs.

    For a mini-app's screen, ``app`` is the mini-app (its store, theme and screen names) and
    ``host`` the super-app whose back stack the activity is on; otherwise both are the app."""

    def __init__(self, world: World, app: App, entry: dict[str, Any], host: App | None = None):
        self.world = world
        self.app = app
        self.host = host if host is not None else app
        self.entry = entry
        self.theme = app.theme

    @property
    def hosted(self) -> bool:
        """True on a mini-app's screen (shown inside its host)."""
        return self.host is not self.app

    @property
    def screen_name(self) -> str:
        """This activity's screen, as the app names it (``"menu"``, not ``"@coffee/menu"``)."""
        return split_screen(self.entry["screen"])[1]

    def render(self) -> View | Page:
        """Build this activity's screen."""
        return self.app.screens[self.screen_name](self)

    # -- data ----------------------------------------------------------------------------
    @property
    def store(self) -> dict[str, Any]:
        return self.world.open_store(self.app.name)

    @property
    def args(self) -> dict[str, Any]:
        return self.entry["args"]

    @property
    def state(self) -> dict[str, Any]:
        return self.entry["state"]

    @property
    def now(self) -> str:
        """The phone's clock, ``YYYY-MM-DDTHH:MM:SS`` local time; it runs with the actions
        (see :data:`phoneworld_gym.contract.ACTION_SECONDS`)."""
        return self.world.clock

    def time(self) -> dt.datetime:
        """The phone's clock as a datetime (:attr:`now` parsed)."""
        return self.world.now()

    @property
    def settings(self) -> dict[str, dict[str, str]]:
        """The phone's settings provider (namespace -> key -> value, strings), read with
        :func:`phoneworld_gym.system.settings.get` (Android's defaults for keys never
        written); the Settings app writes it with :func:`~phoneworld_gym.system.settings.put`."""
        return self.world.settings

    def installed(self) -> list[str]:
        """The names of the installed apps (mini-apps included), in install order."""
        return list(self.world.stores)

    # -- navigation ----------------------------------------------------------------------
    # Every verb works on the back stack this activity lives on (the host's, for a mini-app)
    # and puts the keyboard away, as switching screens does on a phone. Apps change the back
    # stack and the keyboard focus only through these verbs.
    def _stack(self) -> list[dict[str, Any]]:
        return self.world.stacks.setdefault(self.host.name, [])

    def _entry_name(self, screen: str) -> str:
        """How ``screen`` of this app is named on the back stack it lives on."""
        return mini_screen(self.app.name, screen) if self.hosted else screen

    def _activity(self, screen: str, args: dict[str, Any],
                  state: dict[str, Any] | None) -> dict[str, Any]:
        """A new back-stack entry for ``screen`` of this app."""
        self._check_screen(screen)
        return {"screen": self._entry_name(screen), "args": args,
                "state": dict(state) if state else {}}

    def _ctx_of(self, entry: dict[str, Any]) -> Ctx:
        """The context of another entry on this back stack."""
        mini, _ = split_screen(entry["screen"])
        if mini is None:
            return Ctx(self.world, self.host, entry)
        return Ctx(self.world, get_app(mini), entry, host=self.host)

    @property
    def depth(self) -> int:
        """How many activities the back stack this activity lives on holds (1 on a root
        screen: Back leaves the app)."""
        return len(self.world.stacks.get(self.host.name, []))

    def activities(self) -> list[Ctx]:
        """The contexts of every activity on this back stack, the root first (read them; to
        change one, use its :meth:`reload`)."""
        return [self._ctx_of(e) for e in self.world.stacks.get(self.host.name, [])]

    @property
    def below(self) -> Ctx | None:
        """The activity under this one on its back stack (the screen Back returns to), or
        None on a root screen. A handler that hands something back reads it here; see also
        :meth:`pop`'s ``result``."""
        stack = self.world.stacks.get(self.host.name, [])
        i = next((i for i, e in enumerate(stack) if e is self.entry), len(stack) - 1)
        return self._ctx_of(stack[i - 1]) if i >= 1 else None

    def previous_app(self) -> str | None:
        """The app used just before this one (second in Overview), if it is still open
        (has a back stack): where closing a screen another app opened returns to."""
        return next((a for a in self.world.recents[1:2] if a != self.host.name
                     and self.world.stacks.get(a)), None)

    def push(self, screen: str, *, state: dict[str, Any] | None = None, **args: Any) -> None:
        """Open a new screen on top of this one, with ``args``; ``state`` (not an argument)
        is the UI state it opens in (a sheet already open, a draft)."""
        entry = self._activity(screen, args, state)
        self._stack().append(entry)
        self.clear_focus()

    def pop(self, result: dict[str, Any] | None = None, *,
            args: dict[str, Any] | None = None) -> None:
        """Close this screen (leaving the app from its root screen). A screen another app
        shared into runs in that app's task, as on Android: closing it returns to the app
        that shared (the entry's ``caller``).

        An activity result: ``result`` is merged into the state of the screen below (the
        one Back returns to), ``args`` into its arguments, before this one closes (nothing
        is handed back from a root screen)."""
        stack = self._stack()
        if len(stack) > 1:
            if result:
                stack[-2]["state"].update(result)
            if args:
                stack[-2]["args"].update(args)
        caller = stack[-1].get("caller") if stack else None
        if caller is not None and caller != self.host.name and self.world.stacks.get(caller):
            stack.pop()
            self.world.bring_to_front(caller)
        elif len(stack) > 1:
            stack.pop()
        else:
            self.world.foreground = LAUNCHER
        self.clear_focus()

    def replace(self, screen: str, *, state: dict[str, Any] | None = None,
                **args: Any) -> None:
        """Swap this screen for another (``state``: the UI state it opens in, as for
        :meth:`push`)."""
        entry = self._activity(screen, args, state)
        stack = self._stack()
        if "caller" in stack[-1]:
            entry["caller"] = stack[-1]["caller"]  # still in the sharing app's task
        stack[-1] = entry
        self.clear_focus()

    def reset_to(self, screen: str, **args: Any) -> None:
        """Clear the app's back stack down to one screen (a mini-app: its own activities on
        the host's stack, down to the first one it opened with)."""
        entry = self._activity(screen, args, None)
        if not self.hosted:
            self.world.stacks[self.app.name] = [entry]
        else:
            stack = self._stack()
            first = len(stack) - 1
            while first > 0 and split_screen(stack[first - 1]["screen"])[0] == self.app.name:
                first -= 1
            stack[first:] = [entry]
        self.clear_focus()

    def reset_to_root(self, **args: Any) -> None:
        """Clear the app's back stack down to its main screen (a tab app's Back from another
        tab, a Done that returns home)."""
        self.reset_to(self.app.main_screen, **args)

    def reload(self, **args: Any) -> None:
        """Open this activity afresh where it is on the back stack: new arguments, an empty
        state (a browser tab loading another page)."""
        self.entry["state"] = {}
        self.entry["args"] = args

    # -- keyboard focus --------------------------------------------------------------------
    @property
    def focus(self) -> str | None:
        """The key of the text field with keyboard focus, or None."""
        return self.world.focus

    def set_focus(self, key: str) -> None:
        """Give keyboard focus to this screen's text field ``key`` (the keyboard opens on
        letters, unshifted, as a tap on the field does)."""
        if self.world.focus != key:
            self.world.keyboard_layer = "letters"
            self.world.shift = False
        self.world.focus = key

    def clear_focus(self) -> None:
        """Put the keyboard away (a submitted search, a picked suggestion)."""
        self.world.focus = None

    def start_app(self, app: str, screen: str | None = None, **args: Any) -> None:
        """An intent: bring another app to the front, optionally on a given screen."""
        target = get_app(app)
        if target.kind == "mini-app":
            raise ValueError(f"{target.label} opens inside {target.host}: use open_mini_app "
                             "from there")
        stack = self.world.stacks.setdefault(app, [])
        if screen is not None:
            if screen not in target.screens:
                raise KeyError(f"{app} has no screen {screen!r}")
            stack.append({"screen": screen, "args": args, "state": {}})
        elif not stack:
            stack.append({"screen": target.main_screen, "args": {}, "state": {}})
        self.world.bring_to_front(app)

    def _check_screen(self, screen: str) -> None:
        if screen not in self.app.screens:
            raise KeyError(f"{self.app.name} has no screen {screen!r}")

    # -- mini-apps -----------------------------------------------------------------------
    def mini_apps(self) -> list[App]:
        """The installed mini-apps this (host) app can open, by label."""
        return sorted((a for a in all_apps().values() if a.host == self.host.name
                       and a.kind == "mini-app" and a.name in self.world.stores),
                      key=lambda a: a.label)

    def open_mini_app(self, name: str, screen: str | None = None, **args: Any) -> None:
        """Open a mini-app inside this host: its screen goes on top of the host's back stack,
        so back from its first screen returns here."""
        mini = get_app(name)
        if mini.kind != "mini-app" or mini.host != self.host.name:
            raise ValueError(f"{name!r} is not a mini-app of {self.host.name}")
        if name not in self.world.stores:
            raise ValueError(f"mini-app {name!r} is not installed")
        screen = screen or mini.main_screen
        if screen not in mini.screens:
            raise KeyError(f"{name} has no screen {screen!r}")
        self._stack().append({"screen": mini_screen(name, screen), "args": args, "state": {}})
        self.clear_focus()

    def close_mini_app(self) -> None:
        """Leave this mini-app (its close button): every activity it has on top of the host's
        back stack is closed, back to the host screen that opened it."""
        if not self.hosted:
            raise ValueError(f"{self.app.name} is not a mini-app")
        stack = self._stack()
        while len(stack) > 1 and split_screen(stack[-1]["screen"])[0] == self.app.name:
            stack.pop()
        self.clear_focus()

    def share_to_host(self, *, text: str, subject: str = "") -> Handler:
        """A mini-app's "Share to chat": a handler that opens the host's receiving screen for
        text (its ``share_targets``) on top, with ``args["shared"]`` = ``text``, ``subject``,
        ``path`` (None), ``mime``, ``mini`` and ``mini_label`` (this mini-app's name and
        label). Back returns here."""
        if not self.hosted:
            raise ValueError(f"{self.app.name} is not a mini-app: use share() instead")
        targets = intents.share_targets("text/plain", [self.host])
        if not targets:
            raise ValueError(f"{self.host.name} receives no text shares (share_targets)")
        screen = targets[0][1]
        shared = {"text": text, "subject": subject, "path": None, "mime": "text/plain",
                  "mini": self.app.name, "mini_label": self.app.label}

        def h() -> None:
            self._stack().append({"screen": screen, "args": {"shared": dict(shared)},
                                  "state": {}})
            self.clear_focus()

        return h

    # -- system services -----------------------------------------------------------------
    def query(self, table: str) -> list[dict[str, Any]]:
        """Rows of a common table served by another app or the phone (``contacts``, ``sms``,
        ...), as a ContentResolver gives them: how a Messages app shows contact names without
        importing Contacts. Read-only copies; ``[]`` when nothing installed serves it."""

        for app in all_apps().values():
            fn = app.providers.get(table)
            if fn is not None and app.name in self.world.stores:
                return copy_data(fn(self.world.open_store(app.name)))  # type: ignore[no-any-return]
        return copy_data(self.world.system.get(table, []))  # type: ignore[no-any-return]

    # -- shared storage (the phone's ``files`` table, /sdcard) ----------------------------------
    def files(self, folder: str = "/sdcard/") -> list[dict[str, Any]]:
        """Every file under ``folder`` (recursively): ``path``, ``size``, ``sha256``, sorted
        by path."""
        return storage.list_files(self.world, folder)

    def read_file(self, path: str) -> bytes:
        """A file's bytes (``KeyError`` when there is none)."""
        return storage.read(self.world, path)

    def write_file(self, path: str, data: bytes) -> None:
        """Create or replace a file under ``/sdcard/``."""
        storage.write(self.world, path, data)

    def delete_file(self, path: str) -> None:
        """Delete a file, or a folder with everything under it."""
        storage.delete(self.world, path)

    def move_file(self, src: str, dst: str, *, keep: bool = False) -> None:
        """Move (or with ``keep``, copy) a file or folder to a new path."""
        storage.move(self.world, src, dst, keep=keep)

    # -- intents, sharing, permissions (system UI: see phoneworld_gym.system.intents) -----------
    def open_uri(self, uri: str) -> Handler:
        """A handler that views ``uri`` (``tel:``, ``mailto:``, ``geo:``, ``https:``, ...): the
        one app that handles its scheme opens on its screen with ``args["uri"]``; several
        show the "Open with" chooser; none shows a toast."""

        intents.uri_scheme(uri)  # a malformed URI is the app's bug: fail where it is built

        def h() -> None:
            targets = intents.handlers_for(uri, list(all_apps().values()))
            targets = [(a, s) for a, s in targets if a.name in self.world.stores]
            if not targets:
                self.toast("No app can open this link")
            elif len(targets) == 1:
                self.start_app(targets[0][0].name, targets[0][1], uri=uri)
            else:
                self.world.system_ui = {"kind": "chooser", "uri": uri, "from": self.app.name,
                                        "targets": [a.name for a, _ in targets]}

        return h

    def share(self, *, text: str = "", subject: str = "", path: str | None = None,
              mime: str = "text/plain") -> Handler:
        """A handler that opens the share sheet for ``text`` (or the file at ``path``)."""

        def h() -> None:
            self.world.system_ui = {"kind": "share", "from": self.app.name, "mime": mime,
                                    "text": text, "subject": subject, "path": path}

        return h

    def permission(self, name: str) -> str | None:
        """This app's answer for a runtime permission: ``"granted"``, ``"once"``,
        ``"denied"``, or None when it was never asked (a mini-app asks as its host)."""
        return self.world.permissions.get(self.host.name, {}).get(name)

    def notify(self, title: str, text: str, screen: str | None = None, **args: Any) -> None:
        """Post a notification; tapping it in the shade opens ``screen`` with ``args``."""
        post(self.world, self.host, {"title": title, "text": text,
                                     "screen": None if screen is None
                                     else self._entry_name(screen), "args": args})

    def flaky(self, op: str) -> bool:
        """Realism: whether this attempt at ``op`` fails as a request on a bad connection does
        (only in the field profile, on a seeded schedule, once per operation and episode);
        on failure the error toast is shown, so the handler just returns. Handlers only."""
        if realism.fails(self.world, self.app.name, op):
            self.toast(realism.ERROR_TOAST)
            return True
        return False

    def toast(self, text: str) -> None:
        """Show a short message near the bottom for the next two observations."""
        self.world.toast = {"text": text, "ttl": 2}

    def copy(self, text: str) -> None:
        """Put text on the clipboard (with the usual toast)."""
        self.world.clipboard = text
        self.toast("Copied to clipboard")

    # -- UI state helpers ----------------------------------------------------------------
    def setter(self, key: str, value: Any) -> Handler:
        """A handler that stores ``value`` under ``key`` in this screen's state."""

        def h() -> None:
            self.state[key] = value

        return h

    def field(self, key: str, default: str = "") -> tuple[str, Callable[[str], None]]:
        """A text draft kept in this screen's state: (value, on_text)."""
        state = self.state

        def on_text(v: str) -> None:
            state.setdefault("_fields", {})[key] = v

        return state.get("_fields", {}).get(key, default), on_text

    def scroll(self, key: str = "main") -> tuple[int, Callable[[int], None]]:
        """A scroll offset kept in this screen's state: (offset, on_scroll)."""
        state = self.state

        def on_scroll(v: int) -> None:
            state.setdefault("_scroll", {})[key] = v

        return int(state.get("_scroll", {}).get(key, 0)), on_scroll

    @property
    def dialog(self) -> str | None:
        """The name of the dialog this screen shows, if any."""
        return self.state.get("_dialog")

    def show_dialog(self, name: str, **data: Any) -> Handler:
        def h() -> None:
            self.state["_dialog"] = name
            self.state["_dialog_data"] = data

        return h

    def close_dialog(self) -> None:
        self.state.pop("_dialog", None)
        self.state.pop("_dialog_data", None)

    def go(self, screen: str, *, state: dict[str, Any] | None = None, **args: Any) -> Handler:
        """A handler that pushes ``screen`` (with ``args``, opening in ``state``)."""
        return lambda: self.push(screen, state=state, **args)
