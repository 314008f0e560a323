"""Widgets Email needs that the shared toolkit does not have yet: a navigation drawer and a
long-press menu (a popup list of actions). Built here first, with the uiautomator attributes a
phone gives (``DrawerLayout``'s ``NavigationView`` items are checkable ``CheckedTextView`` s;
a popup menu is a ``ListView`` of ``TextView`` rows); the lead may move them into ``ui/``."""

from __future__ import annotations

from collections.abc import Sequence

from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

SCREEN_H = 2400


def drawer_item(label: str, icon: str, selected: bool, on_click: Handler, *, count: str = "",
                theme: w.Theme = w.DEFAULT_THEME) -> Row:
    """One destination of a navigation drawer (56 dp, a pill when selected)."""
    kids: list[View] = [Icon(icon, size=20, box=24, color=theme.on_surface_variant,
                             in_dump=False),
                        Text(label, size=14, weight="medium", color=theme.on_surface, flex=1,
                             max_lines=1, in_dump=False)]
    if count:
        kids.append(Text(count, size=14, weight="medium", color=theme.on_surface_variant,
                         in_dump=False))
    return Row(kids, gap=dp(12), height=dp(56), padding=(dp(16), 0, dp(24), 0),
               bg=theme.primary_container if selected else None, radius=dp(28),
               on_click=on_click, text=label, desc=f"{label}, {count} unread" if count else "",
               selected=selected, checkable=True, checked=selected,
               cls="android.widget.CheckedTextView", rid="drawer_item")


def drawer(header: str, items: Sequence[View], on_close: Handler, *,
           theme: w.Theme = w.DEFAULT_THEME) -> Row:
    """A modal navigation drawer: a 300 dp sheet at the left over the scrim; a tap right of it
    closes it."""
    sheet = Column([Text(header, size=22, color=theme.primary, rid="drawer_title",
                         padding=(dp(28), dp(16), 0, dp(16))),
                    Scroll(list(items), gap=dp(2), rid="navigation_view",
                           padding=(dp(12), 0, dp(12), dp(16)))],
                   width=dp(300), height=SCREEN_H, bg=theme.surface, padding=(0, dp(40), 0, dp(48)),
                   cls="com.google.android.material.navigation.NavigationView",
                   rid="drawer")
    return Row([sheet, View(flex=1, on_click=on_close, desc="Close navigation drawer",
                            rid="drawer_scrim")],
               height=SCREEN_H, cls="androidx.drawerlayout.widget.DrawerLayout")


def menu(title: str, items: Sequence[tuple[str, str, Handler]], *,
         theme: w.Theme = w.DEFAULT_THEME) -> Column:
    """A long-press menu: a title and one row per (label, icon, handler)."""
    rows: list[View] = [Text(title, size=14, weight="medium", color=theme.on_surface_variant,
                             max_lines=1, rid="menu_title", padding=(dp(24), 0, dp(24), dp(8)))]
    for label, icon, h in items:
        rows.append(Row([Icon(icon, size=20, box=24, color=theme.on_surface_variant,
                              in_dump=False),
                         Text(label, size=16, color=theme.on_surface, flex=1, in_dump=False)],
                        gap=dp(16), height=dp(56), padding=(dp(24), 0, dp(24), 0),
                        on_click=h, text=label, cls="android.widget.TextView",
                        rid="menu_item"))
    return Column(rows, padding=(0, dp(16), 0, dp(8)), bg=theme.surface_high, radius=dp(16),
                  width=1080 - 2 * dp(40), cls="android.widget.ListView", rid="popup_menu")
