"""The plumbing between apps, owned by the system and never by an app: intents, the share
sheet, the "Open with" chooser and runtime permission dialogs.

Apps never import each other. They declare what they can receive:

- ``App.intent_filters``: URI scheme -> the screen that handles it (``{"tel": "dial"}``); the
  screen gets ``args["uri"]``. :meth:`~phoneworld_gym.app.Ctx.open_uri` resolves a URI to the
  apps that handle its scheme: none gives a toast, one opens it, several show the chooser.
- ``App.share_targets``: MIME pattern -> the screen that receives a share
  (``{"image/*": "compose"}``); the screen gets ``args["shared"]`` (``text``, ``subject``,
  ``path``, ``mime``). :meth:`~phoneworld_gym.app.Ctx.share` opens the share sheet listing every
  app whose pattern matches.
- ``Page.permission``: a screen that needs a runtime permission names it; while the app has
  neither granted nor denied it, the system's permission dialog covers the screen.

What is pending lives in ``world.system_ui`` (plain JSON: the share sheet's payload or the
chooser's targets); decisions live in ``world.permissions``. The views built here are pure
functions of those values; their handlers are bound by the compositor.
"""

from __future__ import annotations

import fnmatch
import re
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from phoneworld_gym.ui.view import Column, Icon, Row, Text, View, dp


class Receiver(Protocol):
    """What intents read of an app (:class:`phoneworld_gym.app.App` has it): its name and
    the URI schemes and MIME patterns it takes, each with the screen that takes it."""

    @property
    def name(self) -> str: ...

    @property
    def intent_filters(self) -> Mapping[str, str]: ...

    @property
    def share_targets(self) -> Mapping[str, str]: ...


R = TypeVar("R", bound=Receiver)
#: the package a phone's share sheet and chooser belong to (Android 14's intent resolver)
RESOLVER_PACKAGE = "com.android.intentresolver"
#: the package of the runtime permission dialog
PERMISSION_PACKAGE = "com.google.android.permissioncontroller"

#: what each runtime permission's dialog asks, as Android words it
PERMISSIONS: dict[str, str] = {
    "camera": "take pictures and record video",
    "location": "access this device's location",
    "contacts": "access your contacts",
    "microphone": "record audio",
    "photos": "access photos and videos on this device",
    "notifications": "send you notifications",
    "phone": "make and manage phone calls",
    "sms": "send and view SMS messages",
    "calendar": "access your calendar",
}
#: the answers a permission dialog offers: button text -> the decision stored
PERMISSION_CHOICES: tuple[tuple[str, str], ...] = (
    ("While using the app", "granted"),
    ("Only this time", "once"),
    ("Don't allow", "denied"),
)
SCHEMES = ("tel", "sms", "smsto", "mailto", "geo", "http", "https")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.IGNORECASE)


def uri_scheme(uri: str) -> str:
    """The lower-case scheme of ``uri``; ``ValueError`` when it has none."""
    m = _SCHEME.match(uri.strip()) if isinstance(uri, str) else None
    if m is None:
        raise ValueError(f"not a URI with a scheme: {uri!r}")
    return m.group(1).lower()


def uri_payload(uri: str) -> str:
    """What a URI carries after its scheme, decoded: the number of ``tel:+1 555``, the address
    of ``mailto:a@b.c``, the query of ``geo:0,0?q=Blue+Bottle`` (or the coordinates), the
    whole URL of ``https://...``."""
    scheme = uri_scheme(uri)
    rest = uri.strip()[len(scheme) + 1:]
    if scheme in ("http", "https"):
        return uri.strip()
    if scheme == "geo":
        coords, _, query = rest.partition("?")
        q = urllib.parse.parse_qs(query).get("q")
        return q[0] if q else coords
    if scheme in ("mailto", "sms", "smsto"):
        rest = rest.partition("?")[0]
    return urllib.parse.unquote(rest.lstrip("/"))


def uri_for(kind: str, value: str) -> str:
    """The URI a person's tap on a phone number, email address, street address or link makes:
    ``uri_for("tel", "+1 555 0100")`` -> ``tel:+1%20555%200100``."""
    if kind == "geo":
        return "geo:0,0?q=" + urllib.parse.quote_plus(value)
    if kind in ("http", "https", "url"):
        return value if _SCHEME.match(value) else "https://" + value
    if kind not in SCHEMES:
        raise ValueError(f"unknown URI kind {kind!r}; kinds: {SCHEMES + ('url',)}")
    return f"{kind}:" + urllib.parse.quote(value, safe="@+.,-_")


def handlers_for(uri: str, apps: Sequence[R]) -> list[tuple[R, str]]:
    """The apps (with their screen) whose intent filters take ``uri``'s scheme, in install
    order."""
    scheme = uri_scheme(uri)
    return [(a, a.intent_filters[scheme]) for a in apps if scheme in a.intent_filters]


def share_targets(mime: str, apps: Sequence[R], exclude: str | None = None
                  ) -> list[tuple[R, str]]:
    """The apps (with their receiving screen) that accept a share of type ``mime``."""
    out = []
    for a in apps:
        if a.name == exclude:
            continue
        for pattern, screen in a.share_targets.items():
            if fnmatch.fnmatch(mime, pattern):
                out.append((a, screen))
                break
    return out


# -- views ---------------------------------------------------------------------------------
_SHEET_BG = (243, 237, 247)
_INK = (29, 27, 32)
_DIM = (73, 69, 79)


def _target_cell(label: str, glyph: str, color: tuple[int, int, int], on_click: Callable[[], None]
                 ) -> View:
    return Column([
        Row([View(flex=1, in_dump=False),
             Icon(glyph, size=24, box=56, color=(255, 255, 255), bg=color, radius=dp(28),
                  in_dump=False),
             View(flex=1, in_dump=False)], in_dump=False),
        Text(label, size=12, color=_INK, align="center", max_lines=1, in_dump=False),
    ], gap=dp(6), flex=1, on_click=on_click, desc=label, text=label,
        cls="android.widget.TextView", rid="sharesheet_target", padding=(0, dp(8), 0, dp(8)))


def _grid(cells: list[View], cols: int = 4) -> Column:
    rows: list[View] = []
    for i in range(0, len(cells), cols):
        chunk = cells[i:i + cols]
        chunk += [View(flex=1, in_dump=False) for _ in range(cols - len(chunk))]
        rows.append(Row(chunk, padding=(dp(8), 0, dp(8), 0)))
    return Column(rows, gap=dp(4), cls="androidx.recyclerview.widget.RecyclerView",
                  rid="sharesheet_targets")


def _sheet(kids: list[View], rid: str) -> Column:
    """A bottom sheet: rounded top, a drag handle, then ``kids``."""
    handle = Row([View(flex=1, in_dump=False),
                  View(width=dp(32), height=dp(4), bg=(121, 116, 126), radius=dp(2),
                       in_dump=False),
                  View(flex=1, in_dump=False)], padding=(0, dp(12), 0, dp(8)), in_dump=False)
    sheet = Column([handle, *kids], bg=_SHEET_BG, radius=dp(28),
                   padding=(0, 0, 0, dp(24)), cls="android.widget.FrameLayout", rid=rid)
    sheet.align_in_stack = "bottom"  # type: ignore[attr-defined]
    return sheet


def share_sheet(data: dict[str, Any], targets: Sequence[tuple[str, str, tuple[int, int, int]]],
                on_target: Callable[[int], Callable[[], None]],
                on_copy: Callable[[], None] | None) -> Column:
    """The share sheet: what is shared, Copy (for text), then one cell per target app
    ((label, glyph, colour) each)."""
    path = data.get("path")
    what = str(path).rsplit("/", 1)[-1] if path else str(data.get("text", ""))
    subject = str(data.get("subject") or "")
    preview: list[View] = []
    if subject:
        preview.append(Text(subject, size=15, weight="medium", color=_INK, max_lines=1,
                            rid="content_preview_title"))
    preview.append(Text(what, size=14, color=_DIM, max_lines=2, rid="content_preview_text"))
    head: list[View] = [
        Text("Share", size=16, weight="medium", color=_INK, align="center",
             rid="sharesheet_title", padding=(0, 0, 0, dp(12))),
        Row([Icon("file" if path else "copy", size=20, box=40, color=_DIM, in_dump=False),
             Column(preview, gap=dp(2), flex=1)],
            gap=dp(12), padding=(dp(24), dp(8), dp(24), dp(16)),
            rid="content_preview_container"),
    ]
    if on_copy is not None:
        head.append(Row([Text("Copy", size=14, weight="medium", color=(103, 80, 164),
                              bg=(232, 222, 248), radius=dp(18), height=dp(36),
                              padding=(dp(16), dp(9), dp(16), 0), on_click=on_copy,
                              cls="android.widget.Button", rid="copy"),
                         View(flex=1, in_dump=False)], padding=(dp(24), 0, dp(24), dp(12))))
    cells = [_target_cell(lbl, glyph, color, on_target(i))
             for i, (lbl, glyph, color) in enumerate(targets)]
    body: View = _grid(cells) if cells else Text(
        "No apps can share this", size=14, color=_DIM, align="center", rid="empty",
        padding=(0, dp(16), 0, dp(16)))
    return _sheet([*head, body], "sharesheet")


def chooser(uri: str, targets: Sequence[tuple[str, str, tuple[int, int, int]]],
            on_target: Callable[[int], Callable[[], None]]) -> Column:
    """"Open with": one row per app that can open ``uri``."""
    rows: list[View] = []
    for i, (label, glyph, color) in enumerate(targets):
        rows.append(Row([Icon(glyph, size=20, box=44, color=(255, 255, 255), bg=color,
                              radius=dp(22), in_dump=False),
                         Text(label, size=16, color=_INK, flex=1, max_lines=1, in_dump=False)],
                        gap=dp(16), padding=(dp(24), dp(10), dp(24), dp(10)),
                        on_click=on_target(i), desc=label, text=label,
                        cls="android.widget.LinearLayout", rid="resolver_item"))
    return _sheet([Text("Open with", size=16, weight="medium", color=_INK, align="center",
                        rid="title", padding=(0, 0, 0, dp(4))),
                   Text(_readable(uri), size=13, color=_DIM, align="center", max_lines=1,
                        rid="subtitle",
                        padding=(dp(24), 0, dp(24), dp(12))),
                   Column(rows, cls="android.widget.ListView", rid="resolver_list")],
                  "resolver")


def _readable(uri: str) -> str:
    """A URI as a person reads it: ``tel:+1 555 0100`` rather than its escaped form."""
    try:
        scheme = uri_scheme(uri)
    except ValueError:
        return uri
    return uri if scheme in ("http", "https") else f"{scheme}:{uri_payload(uri)}"


def permission_dialog(app_label: str, permission: str,
                      on_choice: Callable[[str], Callable[[], None]]) -> Column:
    """Android's runtime permission dialog: "Allow <App> to ...?" and three answers."""
    what = PERMISSIONS[permission]
    buttons: list[View] = [
        Text(label, size=15, weight="medium", color=(33, 29, 40), align="center",
             bg=(232, 222, 248), radius=dp(20), height=dp(48),
             padding=(0, dp(14), 0, 0), on_click=on_choice(decision),
             cls="android.widget.Button",
             rid={"granted": "permission_allow_foreground_only_button",
                  "once": "permission_allow_one_time_button",
                  "denied": "permission_deny_button"}[decision])
        for label, decision in PERMISSION_CHOICES]
    box = Column([
        Row([View(flex=1, in_dump=False),
             Icon({"camera": "camera", "location": "location_dot", "contacts": "user",
                   "microphone": "microphone", "photos": "image"}.get(permission, "lock"),
                  size=24, box=40, color=(103, 80, 164), in_dump=False),
             View(flex=1, in_dump=False)], in_dump=False),
        Text(f"Allow {app_label} to {what}?", size=20, color=_INK, align="center",
             rid="permission_message", padding=(0, dp(8), 0, dp(16))),
        Column(buttons, gap=dp(8)),
    ], gap=dp(8), bg=_SHEET_BG, radius=dp(28), padding=(dp(24), dp(24), dp(24), dp(24)),
        cls="android.widget.LinearLayout", rid="grant_dialog", width=1080 - dp(96))
    box.align_in_stack = "center"  # type: ignore[attr-defined]
    return box
