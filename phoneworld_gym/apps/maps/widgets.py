"""Widget kinds Maps needs that the shared toolkit lacks yet (candidates for ``ui/``): a bottom
sheet, search suggestions under a field, a floating round button over the map, and the
star rating line. Each carries the uiautomator attributes a real phone gives."""

from __future__ import annotations

from collections.abc import Sequence

from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Text, View, dp


def bottom_sheet(children: Sequence[View], *, theme: w.Theme, rid: str = "bottom_sheet",
                 flex: float = 1.0) -> Column:
    """A standard (non-modal) bottom sheet: rounded top corners, a drag handle, then
    ``children`` (``android.widget.FrameLayout`` with the rid ``bottom_sheet``, as Material
    Components name it)."""
    handle = Row([View(flex=1, in_dump=False),
                  View(width=dp(32), height=dp(4), bg=theme.outline_variant, radius=dp(2),
                       in_dump=False),
                  View(flex=1, in_dump=False)], padding=(0, dp(10), 0, dp(6)), in_dump=False,
                 rid="drag_handle")
    return Column([handle, *children], bg=theme.surface, radius=dp(28), flex=flex,
                  cls="android.widget.FrameLayout", rid=rid)


def suggestion_row(title: str, subtitle: str, icon: str, on_click: Handler, *,
                   theme: w.Theme, rid: str = "suggestion") -> Row:
    """One search suggestion: a leading glyph, the suggested text, where it is."""
    return w.list_item(title, subtitle=subtitle,
                       leading=Icon(icon, size=20, box=40, color=theme.on_surface_variant,
                                    in_dump=False),
                       on_click=on_click, rid=rid, theme=theme)


def map_button(icon: str, desc: str, on_click: Handler, *, theme: w.Theme, rid: str,
               primary: bool = False) -> Icon:
    """A round floating button over the map (56 dp, white or in the primary colour)."""
    return Icon(icon, size=22, box=56, desc=desc, rid=rid, on_click=on_click,
                cls="android.widget.ImageButton",
                color=theme.on_primary if primary else theme.primary,
                bg=theme.primary if primary else (255, 255, 255), radius=dp(18))


def stars(rating: float, reviews: int, *, theme: w.Theme) -> Row:
    """"4.5 ★★★★½ (1,234)" as Maps shows it (one TextView with the rating's words as its
    content description)."""
    full = int(rating)
    half = rating - full >= 0.5
    glyphs: list[View] = [Icon("star", size=14, box=18, color=(251, 188, 4), in_dump=False)
                          for _ in range(full)]
    if half:
        glyphs.append(Icon("star_half", size=14, box=18, color=(251, 188, 4), in_dump=False))
    return Row([Text(f"{rating:.1f}", size=14, color=theme.on_surface, in_dump=False),
                Row(glyphs, in_dump=False),
                Text(f"({reviews:,})", size=14, color=theme.on_surface_variant, in_dump=False)],
               gap=dp(6), rid="rating", text=f"{rating:.1f} stars, {reviews:,} reviews",
               cls="android.widget.TextView")
