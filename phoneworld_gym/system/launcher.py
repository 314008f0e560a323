"""The home screen: a clock, the installed apps in a grid, a search pill."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from phoneworld_gym.ui.view import Column, Icon, Row, Text, View, dp

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
