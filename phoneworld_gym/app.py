"""What an app is: a store (data model + seeded generator), screens, and content providers.

An app lives in one folder under ``phoneworld_gym/apps/`` and registers itself with
:func:`register_app`. Screens are functions of a :class:`~phoneworld_gym.ctx.Ctx` (the
context an activity runs in, :mod:`phoneworld_gym.ctx`) that return a view tree (or a
:class:`Page` with a dialog); handlers change the world through the context. Apps never
import each other: they reach other apps through intents (``Ctx.start_app``) and the
clipboard.

A **mini-app** (``kind = "mini-app"``, ``host = "<super-app>"``) is declared like any app
(its own folder, store, screens, tables) but is not on the launcher: it opens only from its
host (``Ctx.open_mini_app``), as an activity on the *host's* back stack whose screen is named
``"@<mini>/<screen>"``. Its screens get a context whose ``store`` is the mini-app's and whose
navigation verbs work on the host's stack; the dump shows the host's package, as uiautomator
shows a WeChat mini program. It hands a result back with ``Ctx.share_to_host``.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.device import NewRow
from phoneworld_gym.life import Life
from phoneworld_gym.ui.view import View
from phoneworld_gym.ui.widgets import DEFAULT_THEME, Theme
from phoneworld_gym.world import World


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
    #: :meth:`~phoneworld_gym.ctx.Ctx.permission`
    permission: str | None = None


#: a screen: a function of its context (:class:`phoneworld_gym.ctx.Ctx`) that returns a view
#: tree or a :class:`Page`
ScreenFn = Callable[[Any], "View | Page"]


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
