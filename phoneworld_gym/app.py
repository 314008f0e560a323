"""What an app is: a store (data model + seeded generator), screens, and content providers.

An app lives in one folder under ``phoneworld_gym/apps/`` and registers itself with
:func:`register_app`. Screens are functions of a :class:`Ctx` that return a view tree (or a
:class:`Page` with a dialog); handlers change the world through the context. Apps never import
each other: they reach other apps through intents (:meth:`Ctx.start_app`) and the clipboard.

A **mini-app** (``kind = "mini-app"``, ``host = "<super-app>"``) is declared like any app (its
own folder, store, screens, tables) but is not on the launcher: it opens only from its host
(:meth:`Ctx.open_mini_app`), as an activity on the *host's* back stack whose screen is named
``"@<mini>/<screen>"``. Its screens get a :class:`Ctx` whose ``store`` is the mini-app's and
whose navigation verbs work on the host's stack; the dump shows the host's package, as
uiautomator shows a WeChat mini program. It hands a result back with
:meth:`Ctx.share_to_host`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib
import pkgutil
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.device import NewRow
from phoneworld_gym.life import Life
from phoneworld_gym.system import intents, realism, storage
from phoneworld_gym.ui.view import Handler, View
from phoneworld_gym.ui.widgets import DEFAULT_THEME, Theme
from phoneworld_gym.world import LAUNCHER, World, copy_data


@dataclasses.dataclass
class Page:
    """What a screen returns when it needs more than a body: a modal dialog, a floating button
    or its own back handling (``on_back`` returns True when it consumed the press)."""

    body: View
    dialog: View | None = None
    on_back: Callable[[], bool] | None = None
    #: a runtime permission this screen needs (``"camera"``, see
    #: :data:`phoneworld_gym.system.intents.PERMISSIONS`): until the app has an answer, the
    #: system's permission dialog covers the screen; read the answer with
    #: :meth:`Ctx.permission`
    permission: str | None = None


ScreenFn = Callable[["Ctx"], "View | Page"]


@dataclasses.dataclass(frozen=True)
class TableWriter:
    """How an app carries out ``content insert/update/delete`` on a common table it serves.
    Each function takes the app's store first; ``insert`` returns the new row's ``_id``. They
    raise ``ValueError`` for a bad row or id."""

    insert: Callable[[dict[str, Any], dict[str, Any]], Any]
    update: Callable[[dict[str, Any], Any, dict[str, Any]], None]
    delete: Callable[[dict[str, Any], Any], None]


class App:
    """Base class of every app. Subclasses set the class attributes and ``screens``."""

    name: ClassVar[str]  #: short id: "shopping"
    label: ClassVar[str]  #: launcher label: "Shopping"
    package: ClassVar[str]  #: Android package: "com.phoneworld.shopping"
    kind: ClassVar[str] = "app"  #: "system", "app" or "mini-app"
    #: for a mini-app: the name of the super-app it opens inside (None for other apps)
    host: ClassVar[str | None] = None
    #: whether a screen shows the clock's seconds (a running timer): its frames are rebuilt
    #: after every step, not only when the minute changes
    shows_seconds: ClassVar[bool] = False
    icon: ClassVar[str] = "box"  #: glyph name from ``ui.fonts.ICONS``
    theme: ClassVar[Theme] = DEFAULT_THEME
    main_screen: ClassVar[str] = "main"
    screens: ClassVar[dict[str, ScreenFn]] = {}
    #: the tables the app serves, like content providers: table -> function(store) -> rows,
    #: each row with an ``_id``. A common table ("contacts") a real phone serves too; the app's
    #: own tables are named "<app>/<name>" ("shopping/cart"). Together they must show every
    #: change a user can make, because damage checks compare them.
    providers: ClassVar[dict[str, Callable[[dict[str, Any]], list[dict[str, Any]]]]] = {}
    #: what a row a user creates in one of those tables holds (see
    #: :class:`~phoneworld_gym.device.NewRow`): the settable columns with their defaults, the
    #: free ones, the typed text; a check of a new row compares all of them. Common tables
    #: are declared in :data:`~phoneworld_gym.device.COMMON_NEW_ROWS` instead.
    new_rows: ClassVar[dict[str, NewRow]] = {}
    #: tables that never change in an episode (a shop's catalogue): readable, but left out of
    #: the whole-phone snapshot
    static_tables: ClassVar[frozenset[str]] = frozenset()
    #: tables that record looking rather than doing (a browser's history and open tabs, a
    #: map's recent searches): readable, but left out of the snapshot, so an information
    #: task that browses is not "damage"; tasks verify them only by reading them directly
    byproduct_tables: ClassVar[frozenset[str]] = frozenset()
    #: view state: table -> the columns that change when the user only looks (a message's
    #: ``read`` flag, a chat's ``unread`` count derived from it, the player's song and
    #: position). Unlike a byproduct table the rows stay in the snapshot, but the damage
    #: check ignores changes to these columns unless a task declares it is about them
    #: (``Task.checks_view``), so opening an unread thread or playing a song on the way is
    #: not damage. The common tables' view state is ``device.COMMON_VIEW_STATE``.
    view_state: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: write access to the common tables it serves (``content insert/update/delete``)
    writers: ClassVar[dict[str, TableWriter]] = {}
    #: setup routines for the app's own state that tasks may ask for through
    #: ``device.fixture(app, name, **args)``: name -> function(store, **args) -> result
    fixtures: ClassVar[dict[str, Callable[..., Any]]] = {}
    aliases: ClassVar[tuple[str, ...]] = ()
    #: URI scheme -> screen that opens it (``{"tel": "dial"}``); the screen gets
    #: ``args["uri"]`` (see :mod:`phoneworld_gym.system.intents`)
    intent_filters: ClassVar[dict[str, str]] = {}
    #: MIME pattern -> screen that receives a share (``{"text/*": "compose"}``); the screen
    #: gets ``args["shared"]``: ``text``, ``subject``, ``path``, ``mime``
    share_targets: ClassVar[dict[str, str]] = {}
    #: realism switches (off on the clean phone, on in the ``field`` profile; see
    #: :mod:`phoneworld_gym.system.realism`): screens whose content comes from a server, so
    #: they first show a loading placeholder until the next action (a ``wait`` will do)
    network_screens: ClassVar[tuple[str, ...]] = ()
    #: promotional pop-ups the app shows on its main screen on a seeded schedule, each a dict
    #: with ``title`` and ``text`` (dismissed by "No thanks", the close button or Back)
    promos: ClassVar[tuple[dict[str, str], ...]] = ()

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        """The app's store at the start of an episode (plain JSON data), drawn from the app's
        own generator and the episode's shared :class:`~phoneworld_gym.life.Life`."""
        return {}

    def files(self, rng: np.random.Generator, life: Life) -> dict[str, bytes]:
        """Files the app's data starts with in shared storage (``/sdcard/...`` path -> bytes):
        a gallery's photos, downloads. Written into the phone's ``files`` table at reset."""
        return {}

    def notifications(self, store: dict[str, Any]) -> list[dict[str, Any]]:
        """Notifications the app has posted at the start of an episode: dicts with ``title``,
        ``text`` and optionally the ``screen`` (and ``args``) a tap opens."""
        return []

    def __repr__(self) -> str:
        return f"<App {self.name} ({self.package})>"


_APPS: dict[str, App] = {}
_discovered = False


def register_app(cls: type[App]) -> type[App]:
    """Class decorator: make an app installable on the phone."""
    if cls.name in _APPS and type(_APPS[cls.name]) is not cls:
        raise ValueError(f"two apps are named {cls.name!r}")
    _APPS[cls.name] = cls()
    return cls


def _discover() -> None:
    """Import every app under ``phoneworld_gym/apps/`` (each registers itself).

    A folder there without ``__init__.py`` is an error naming it, not skipped: it would be an
    app that silently goes missing. ``__pycache__`` and hidden folders are ignored."""
    from pathlib import Path

    import phoneworld_gym.apps as pkg

    global _discovered
    for base in pkg.__path__:
        for entry in sorted(Path(base).iterdir()):
            if entry.is_dir() and entry.name != "__pycache__" \
                    and not entry.name.startswith(".") and not (entry / "__init__.py").is_file():
                _discovered = False  # fail again on the next call, not with no apps
                raise ImportError(f"app folder {entry.name!r} in {base} has no __init__.py; "
                                  "every folder there must be an app package")
    for m in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(m.name)


def all_apps() -> dict[str, App]:
    """Every registered app by name (discovers the ``apps`` package on first use)."""
    global _discovered
    if not _discovered:
        _discovered = True
        _discover()
    return dict(_APPS)


def get_app(name: str) -> App:
    apps = all_apps()
    if name not in apps:
        raise KeyError(f"no app named {name!r}; installed: {sorted(apps)}")
    return apps[name]


#: the prefix of a mini-app's screen on its host's back stack: ``"@coffee/menu"``
MINI_PREFIX = "@"


def split_screen(screen: str) -> tuple[str | None, str]:
    """``("coffee", "menu")`` for a mini-app's activity ``"@coffee/menu"``; ``(None, screen)``
    for a screen of the app itself."""
    if screen.startswith(MINI_PREFIX) and "/" in screen:
        mini, local = screen[len(MINI_PREFIX):].split("/", 1)
        return mini, local
    return None, screen


def mini_screen(mini: str, screen: str) -> str:
    """The name of a mini-app's screen on its host's back stack."""
    return f"{MINI_PREFIX}{mini}/{screen}"


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


def resolve_screen(host: App, screen: str) -> tuple[App, str]:
    """(the app that draws it, its own screen name) for a screen on ``host``'s back stack;
    ``KeyError`` when there is no such screen."""
    mini, local = split_screen(screen)
    app = host if mini is None else get_app(mini)
    if mini is not None and app.host != host.name:
        raise KeyError(f"{mini!r} is not a mini-app of {host.name}")
    if local not in app.screens:
        raise KeyError(f"{app.name} has no screen {local!r}")
    return app, local


def post(world: World, app: App, note: dict[str, Any]) -> None:
    """Add one notification from ``app`` to the world (ids count up from 1)."""
    nid = max((n["id"] for n in world.notifications), default=0) + 1
    world.notifications.append({"id": nid, "app": app.name, "title": str(note["title"]),
                                "text": str(note.get("text", "")),
                                "screen": note.get("screen"), "args": dict(note.get("args", {}))})


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
        return sorted((a for a in _APPS.values() if a.host == self.host.name
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

        for app in _APPS.values():
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
