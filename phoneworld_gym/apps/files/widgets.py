"""A modal bottom sheet for Files (its sort options and a file's actions). The shared toolkit
has none yet; built here with the attributes a phone gives (a ``FrameLayout`` with
``design_bottom_sheet``'s id holding ``TextView`` rows) so the lead can move it into ``ui/``."""

from __future__ import annotations

from collections.abc import Sequence

from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Text, View, dp

#: room left under a sheet for the navigation bar it is drawn over
NAV_H = dp(48)


def sheet_item(label: str, icon: str, on_click: Handler, *, rid: str = "sheet_item",
               theme: w.Theme = w.DEFAULT_THEME) -> Row:
    """One action row of a bottom sheet (56 dp)."""
    return Row([Icon(icon, size=20, box=24, color=theme.on_surface_variant, in_dump=False),
                Text(label, size=16, color=theme.on_surface, flex=1, in_dump=False)],
               gap=dp(20), height=dp(56), padding=(dp(24), 0, dp(24), 0), on_click=on_click,
               text=label, cls="android.widget.TextView", rid=rid)


def bottom_sheet(title: str, rows: Sequence[View], *, theme: w.Theme = w.DEFAULT_THEME
                 ) -> Column:
    """A modal bottom sheet: drag handle, title, rows; aligned to the bottom of the screen."""
    handle = Row([View(flex=1, in_dump=False),
                  View(width=dp(32), height=dp(4), bg=theme.outline, radius=dp(2),
                       in_dump=False),
                  View(flex=1, in_dump=False)], padding=(0, dp(12), 0, dp(12)), in_dump=False)
    kids: list[View] = [handle]
    if title:
        kids.append(Text(title, size=16, weight="medium", color=theme.on_surface, max_lines=1,
                         rid="sheet_title", padding=(dp(24), 0, dp(24), dp(8))))
    kids += list(rows)
    sheet = Column(kids, bg=theme.surface_container, radius=dp(28), width=1080,
                   padding=(0, 0, 0, NAV_H + dp(8)), cls="android.widget.FrameLayout",
                   rid="design_bottom_sheet")
    sheet.align_in_stack = "bottom"  # type: ignore[attr-defined]
    return sheet
