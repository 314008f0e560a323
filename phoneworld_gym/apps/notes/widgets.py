"""Two widget kinds the toolkit lacks, built here until ``ui/`` has them (it is shared):

- :func:`bottom_sheet`: a modal bottom sheet of actions (rounded top, drag handle), shown
  as the screen's dialog; each row a clickable ``LinearLayout`` holding its label's
  ``TextView`` (rid ``sheet_item`` / ``sheet_item_title``).
- :func:`search_suggestions`: the list under a search field (``ListView`` rid
  ``search_suggestions``), each row a clickable suggestion with its text (rid
  ``suggestion``), as a ``SearchView``'s suggestion rows are.
"""

from __future__ import annotations

from collections.abc import Sequence

from phoneworld_gym.system.chrome import NAV_BAR_H
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Text, View, dp


def bottom_sheet(title: str, items: Sequence[tuple[str, str, Handler]], *,
                 theme: w.Theme = w.DEFAULT_THEME) -> Column:
    """A modal bottom sheet: ``title`` then one 56 dp row per (glyph, label, handler)."""
    handle = Row([View(flex=1, in_dump=False),
                  View(width=dp(32), height=dp(4), bg=theme.outline, radius=dp(2),
                       in_dump=False),
                  View(flex=1, in_dump=False)], padding=(0, dp(12), 0, dp(8)), in_dump=False)
    rows: list[View] = [handle]
    if title:
        rows.append(Text(title, size=14, weight="medium", color=theme.on_surface_variant,
                         max_lines=1, padding=(dp(24), dp(4), dp(24), dp(8)),
                         rid="sheet_title"))
    for glyph, label, handler in items:
        rows.append(Row([Icon(glyph, size=20, box=24, color=theme.on_surface_variant,
                              in_dump=False),
                         Text(label, size=16, color=theme.on_surface, max_lines=1, flex=1,
                              rid="sheet_item_title")],
                        gap=dp(20), height=dp(56), padding=(dp(24), 0, dp(24), 0),
                        on_click=handler, rid="sheet_item",
                        cls="android.widget.LinearLayout"))
    sheet = Column(rows, bg=theme.surface_container, radius=dp(28),
                   padding=(0, 0, 0, NAV_BAR_H + dp(8)), cls="android.widget.FrameLayout",
                   rid="design_bottom_sheet")
    sheet.align_in_stack = "bottom"  # type: ignore[attr-defined]
    return sheet


def search_suggestions(items: Sequence[tuple[str, Handler]], *,
                       theme: w.Theme = w.DEFAULT_THEME) -> Column:
    """Suggestion rows (a search glyph, the suggested text) under a search field."""
    rows: list[View] = []
    for label, handler in items:
        rows.append(Row([Icon("search", size=18, box=24, color=theme.on_surface_variant,
                              in_dump=False),
                         Text(label, size=16, color=theme.on_surface, max_lines=1, flex=1,
                              in_dump=False)],
                        gap=dp(20), height=dp(56), padding=(dp(24), 0, dp(24), 0),
                        on_click=handler, text=label, rid="suggestion",
                        cls="android.widget.TextView"))
    return Column(rows, cls="android.widget.ListView", rid="search_suggestions")
