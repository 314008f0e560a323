"""The launcher: the home screen (a clock, a grid of apps, the handle of the app drawer), the
all-apps drawer with its search, and the Overview of recent apps."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from PIL import Image as PILImage

from phoneworld_gym.ui.view import Column, Icon, Picture, Row, Scroll, Text, TextField, View, dp

PACKAGE = "com.google.android.apps.nexuslauncher"
WALLPAPER = (38, 50, 82)


#: apps the home screen shows first, in this order (a phone as it comes, then the apps its
#: owner put there); the others follow alphabetically, and all of them are in the drawer
HOME_ORDER = ("Phone", "Messages", "Chrome", "Camera", "Gallery", "Maps", "Email", "Calendar",
              "Clock", "Contacts", "Settings", "Files", "Notes", "Chat", "Shopping", "Tasks")
#: icons the home screen's workspace holds: four rows of four
HOME_SLOTS = 16
#: the key of the drawer's search field
SEARCH_KEY = "launcher:search"

AppTile = tuple[str, str, tuple[int, int, int]]


def home_order(apps: Sequence[AppTile]) -> list[AppTile]:
    """``apps`` in the order the home screen lays them out (see :data:`HOME_ORDER`)."""
    rank = {label: i for i, label in enumerate(HOME_ORDER)}
    return sorted(apps, key=lambda a: (rank.get(a[0], len(rank)), a[0].lower()))


def _tile(label: str, glyph: str, color: tuple[int, int, int], on_click: Callable[[], None],
          text_color: tuple[int, int, int]) -> Column:
    """One app icon with its label under it; the dump shows it as a TextView, as Launcher3's
    BubbleTextView is."""
    return Column([
        Row([View(flex=1, in_dump=False),
             Icon(glyph, size=28, box=60, color=(255, 255, 255), bg=color, radius=dp(30),
                  in_dump=False),
             View(flex=1, in_dump=False)], in_dump=False),
        Text(label, size=13, color=text_color, align="center", max_lines=1, in_dump=False),
    ], gap=dp(8), flex=1, on_click=on_click, desc=label, text=label,
        cls="android.widget.TextView", padding=(0, dp(8), 0, dp(8)))


def _grid(apps: Sequence[AppTile], open_app: Callable[[str], Callable[[], None]],
          text_color: tuple[int, int, int], rid: str) -> Column:
    cols = 4
    rows: list[View] = []
    for i in range(0, len(apps), cols):
        cells: list[View] = [_tile(label, glyph, color, open_app(label), text_color)
                             for label, glyph, color in apps[i:i + cols]]
        cells += [View(flex=1, in_dump=False) for _ in range(cols - len(cells))]
        rows.append(Row(cells, padding=(dp(12), 0, dp(12), 0)))
    return Column(rows, gap=dp(16), cls="android.view.ViewGroup", rid=rid)


def home_screen(clock: str, apps: Sequence[AppTile],
                open_app: Callable[[str], Callable[[], None]],
                open_drawer: Callable[[], None]) -> Column:
    """The home screen: the clock, the first :data:`HOME_SLOTS` apps in :func:`home_order`,
    and the handle that opens the app drawer (a swipe up anywhere does too)."""
    t = dt.datetime.fromisoformat(clock)
    white = (255, 255, 255)
    header = Column([
        Text(t.strftime("%H:%M"), size=64, weight="regular", color=white, align="center",
             rid="clock"),
        Text(t.strftime("%A, %B ") + str(t.day), size=18, color=white, align="center",
             rid="date"),
    ], padding=(0, dp(48), 0, dp(48)), cls="android.widget.LinearLayout")
    grid = _grid(home_order(apps)[:HOME_SLOTS], open_app, white, "workspace")
    handle = Column([
        Row([View(flex=1, in_dump=False), Icon("chevron_up", size=18, box=24, color=white,
                                               in_dump=False),
             View(flex=1, in_dump=False)], in_dump=False),
        Text("All apps", size=12, color=(200, 208, 228), align="center", in_dump=False),
    ], gap=dp(2), on_click=open_drawer, desc="All apps", rid="all_apps_handle",
        padding=(dp(120), dp(6), dp(120), dp(10)), cls="android.widget.ImageView")
    return Column([header, grid, View(flex=1, in_dump=False), handle], bg=WALLPAPER, flex=1,
                  cls="android.widget.FrameLayout")


#: the drawer's surface (Pixel's light all-apps panel)
DRAWER_BG = (244, 241, 248)


def drawer(apps: Sequence[AppTile], query: str, on_query: Callable[[str], None],
           offset: int, on_scroll: Callable[[int], None],
           open_app: Callable[[str], Callable[[], None]]) -> Column:
    """The all-apps drawer: a search field over every app in alphabetical order; typing
    keeps the apps whose label contains the text. Back or Home closes it."""
    ink = (29, 27, 32)
    q = query.strip().lower()
    shown = sorted((a for a in apps if q in a[0].lower()), key=lambda a: a[0].lower())
    search = TextField(SEARCH_KEY, query, on_text=on_query, hint="Search apps",
                       rid="search_box", outlined=False)
    body: View
    if shown:
        body = _grid(shown, open_app, ink, "apps_list_view")
        body.padding = (0, dp(8), 0, dp(24))  # icons clear the scroll's edges
    else:
        body = Text(f"No apps found for \u201c{query.strip()}\u201d", size=16,
                    color=(73, 69, 79), align="center", rid="empty",
                    padding=(dp(24), dp(48), dp(24), 0))
    return Column([
        Row([search], padding=(dp(16), dp(16), dp(16), dp(16))),
        Scroll([body], offset=offset, on_scroll=on_scroll, flex=1, rid="apps_scroll"),
    ], bg=DRAWER_BG, flex=1, cls="android.widget.FrameLayout", rid="apps_view")


def overview(cards: Sequence[tuple[str, str, tuple[int, int, int], PILImage.Image]],
             resume: Callable[[str], Callable[[], None]],
             clear_all: Callable[[], None]) -> Column:
    """Recent apps, most recent first: (label, glyph, colour, thumbnail) per card; a tap
    resumes the app; Clear all closes them."""
    white = (255, 255, 255)
    shown = list(cards)[:3]
    tiles: list[View] = []
    for label, glyph, color, thumb in shown:
        tiles.append(Column([
            Row([Icon(glyph, size=14, box=28, color=white, bg=color, radius=dp(14),
                      in_dump=False),
                 Text(label, size=14, weight="medium", color=white, max_lines=1,
                      in_dump=False)], gap=dp(8), in_dump=False),
            Picture(thumb, width=320, height=(2400 - 126) // 3, in_dump=False,
                    border=(90, 96, 120), border_width=2),
        ], gap=dp(8), width=320, on_click=resume(label), desc=label,
            cls="android.widget.FrameLayout", rid="snapshot"))
    if not tiles:
        body: View = Text("No recent items", size=16, color=white, align="center",
                          rid="empty_recents", padding=(0, dp(160), 0, 0))
    else:
        body = Row(tiles, gap=dp(12), padding=(dp(16), dp(24), dp(16), 0),
                   cls="androidx.recyclerview.widget.RecyclerView", rid="overview_panel")
    clear = Text("Clear all", size=14, weight="medium", color=white, align="center",
                 bg=(70, 80, 110), radius=dp(20), height=dp(40), width=dp(120),
                 padding=(0, dp(10), 0, 0), on_click=clear_all,
                 cls="android.widget.Button", rid="clear_all")
    kids: list[View] = [body, View(flex=1, in_dump=False)]
    if tiles:
        kids.append(Row([View(flex=1, in_dump=False), clear, View(flex=1, in_dump=False)],
                        padding=(0, 0, 0, dp(24))))
    return Column(kids, flex=1, cls="android.widget.FrameLayout",
                  rid="overview")
