"""The home screen: a clock, the installed apps in a grid, a search pill."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from PIL import Image as PILImage

from phoneworld_gym.ui.view import Column, Icon, Picture, Row, Text, View, dp

PACKAGE = "com.google.android.apps.nexuslauncher"
WALLPAPER = (38, 50, 82)


def home_screen(clock: str, apps: Sequence[tuple[str, str, tuple[int, int, int]]],
                open_app: Callable[[str], Callable[[], None]]) -> Column:
    """``apps`` holds (label, glyph, colour) in launcher order."""
    t = dt.datetime.fromisoformat(clock)
    white = (255, 255, 255)
    header = Column([
        Text(t.strftime("%H:%M"), size=64, weight="regular", color=white, align="center",
             rid="clock"),
        Text(t.strftime("%A, %B ") + str(t.day), size=18, color=white, align="center",
             rid="date"),
    ], padding=(0, dp(48), 0, dp(48)), cls="android.widget.LinearLayout")
    cols = 4
    rows: list[View] = []
    for i in range(0, len(apps), cols):
        cells: list[View] = []
        for label, glyph, color in apps[i:i + cols]:
            cells.append(Column([
                Row([View(flex=1, in_dump=False),
                     Icon(glyph, size=28, box=60, color=white, bg=color, radius=dp(30),
                          in_dump=False),
                     View(flex=1, in_dump=False)], in_dump=False),
                Text(label, size=13, color=white, align="center", max_lines=1, in_dump=False),
            ], gap=dp(8), flex=1, on_click=open_app(label), desc=label, text=label,
                cls="android.widget.TextView", padding=(0, dp(8), 0, dp(8))))
        cells += [View(flex=1, in_dump=False) for _ in range(cols - len(cells))]
        rows.append(Row(cells, padding=(dp(12), 0, dp(12), 0)))
    grid = Column(rows, gap=dp(16), cls="android.view.ViewGroup", rid="workspace")
    return Column([header, grid, View(flex=1)], bg=WALLPAPER, flex=1,
                  cls="android.widget.FrameLayout")


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
