"""Transient surfaces and gestures a phone's apps share: modal bottom sheets, popup
(overflow and long-press) menus, action menus with glyphs, modal navigation drawers, search
suggestion lists and swipe-to-dismiss rows.

Each is shown the way Android shows it and dumped with the attributes uiautomator gives it:
a sheet is the screen's dialog window (``design_bottom_sheet``), a menu a ``ListView`` of
``title`` rows, suggestions a ``ListView`` of clickable ``TextView`` rows. A screen returns a
sheet or menu as ``Page(body, dialog=...)``, so back and a tap outside close it.
"""

from __future__ import annotations

from collections.abc import Sequence

from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH
from phoneworld_gym.system.chrome import NAV_BAR_H, STATUS_BAR_H
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp


def _handle(theme: w.Theme) -> Row:
    return Row([View(flex=1, in_dump=False),
                View(width=dp(32), height=dp(4), bg=theme.outline, radius=dp(2), in_dump=False),
                View(flex=1, in_dump=False)], padding=(0, dp(12), 0, dp(8)), in_dump=False)


def sheet_item(glyph: str, label: str, on_click: Handler, *, theme: w.Theme = w.DEFAULT_THEME,
               rid: str = "sheet_item") -> Row:
    """One 56 dp action row of a bottom sheet: a glyph and its label."""
    return Row([Icon(glyph, size=20, box=24, color=theme.on_surface_variant, in_dump=False),
                Text(label, size=16, color=theme.on_surface, max_lines=1, flex=1,
                     rid="sheet_item_title")],
               gap=dp(20), height=dp(56), padding=(dp(24), 0, dp(24), 0), on_click=on_click,
               rid=rid, cls="android.widget.LinearLayout")


def bottom_sheet(title: str, items: Sequence[tuple[str, str, Handler] | View], *,
                 theme: w.Theme = w.DEFAULT_THEME, rid: str = "design_bottom_sheet") -> Column:
    """A modal bottom sheet: a drag handle, ``title``, then its rows: (glyph, label, handler)
    action rows or any views (a place's details, a sort choice). ``rid`` names the sheet
    (``design_bottom_sheet``, as Material's, unless a screen has several)."""
    rows: list[View] = [_handle(theme)]
    if title:
        rows.append(Text(title, size=14, weight="medium", color=theme.on_surface_variant,
                         max_lines=1, padding=(dp(24), dp(4), dp(24), dp(8)),
                         rid="sheet_title"))
    for item in items:
        rows.append(item if isinstance(item, View) else sheet_item(*item, theme=theme))
    sheet = Column(rows, bg=theme.surface_container, radius=dp(28),
                   padding=(0, 0, 0, NAV_BAR_H + dp(8)), cls="android.widget.FrameLayout",
                   rid=rid)
    sheet.align_in_stack = "bottom"  # type: ignore[attr-defined]
    return sheet


def action_menu(title: str, items: Sequence[tuple[str, str, Handler]], *,
                theme: w.Theme = w.DEFAULT_THEME) -> Column:
    """A long-press menu of actions with glyphs (Gmail's message menu): a title, then one 56 dp
    ``TextView`` row (``menu_item``) per (label, glyph, handler); shown as the page's dialog."""
    rows: list[View] = [Text(title, size=14, weight="medium", color=theme.on_surface_variant,
                             max_lines=1, rid="menu_title", padding=(dp(24), 0, dp(24), dp(8)))]
    for label, glyph, h in items:
        rows.append(Row([Icon(glyph, size=20, box=24, color=theme.on_surface_variant,
                              in_dump=False),
                         Text(label, size=16, color=theme.on_surface, flex=1, in_dump=False)],
                        gap=dp(16), height=dp(56), padding=(dp(24), 0, dp(24), 0),
                        on_click=h, text=label, cls="android.widget.TextView",
                        rid="menu_item"))
    return Column(rows, padding=(0, dp(16), 0, dp(8)), bg=theme.surface_high, radius=dp(16),
                  width=SCREEN_WIDTH - 2 * dp(40), cls="android.widget.ListView",
                  rid="popup_menu")


def drawer_item(label: str, glyph: str, selected: bool, on_click: Handler, *, count: str = "",
                theme: w.Theme = w.DEFAULT_THEME) -> Row:
    """One destination of a navigation drawer (56 dp, a pill when selected): a checkable
    ``CheckedTextView``, as ``NavigationView`` items are; ``count`` is its unread badge."""
    kids: list[View] = [Icon(glyph, size=20, box=24, color=theme.on_surface_variant,
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


def navigation_drawer(header: str, items: Sequence[View], on_close: Handler, *,
                      theme: w.Theme = w.DEFAULT_THEME) -> Row:
    """A modal navigation drawer (``DrawerLayout`` with a ``NavigationView``): a 300 dp sheet
    at the left holding :func:`drawer_item` rows; a tap right of it closes it. Show it as the
    page's dialog."""
    sheet = Column([Text(header, size=22, color=theme.primary, rid="drawer_title",
                         padding=(dp(28), dp(16), 0, dp(16))),
                    Scroll(list(items), gap=dp(2), rid="navigation_view",
                           padding=(dp(12), 0, dp(12), dp(16)))],
                   width=dp(300), height=SCREEN_HEIGHT, bg=theme.surface,
                   padding=(0, dp(40), 0, dp(48)),
                   cls="com.google.android.material.navigation.NavigationView", rid="drawer")
    return Row([sheet, View(flex=1, on_click=on_close, desc="Close navigation drawer",
                            rid="drawer_scrim")],
               height=SCREEN_HEIGHT, cls="androidx.drawerlayout.widget.DrawerLayout")


def popup_menu(items: Sequence[tuple[str, Handler]], *, header: str = "",
               theme: w.Theme = w.DEFAULT_THEME, anchor: str = "center") -> Column:
    """A menu card (4 dp corners, 48 dp ``title`` rows) shown as the screen's dialog.
    ``anchor="top_right"`` drops it from the overflow button; ``"center"`` floats it as a
    long-press context menu headed by what was pressed (``header``)."""
    if anchor not in ("center", "top_right"):
        raise ValueError(f"anchor must be 'center' or 'top_right', got {anchor!r}")
    rows: list[View] = []
    if header:
        rows.append(Text(header, size=14, weight="medium", color=theme.on_surface_variant,
                         max_lines=1, padding=(dp(16), dp(12), dp(16), dp(8)),
                         rid="menu_header"))
    for label, handler in items:
        rows.append(Text(label, size=16, color=theme.on_surface, max_lines=1, height=dp(48),
                         padding=(dp(16), dp(14), dp(16), 0), on_click=handler, rid="title"))
    menu = Column(rows, padding=(0, dp(8), 0, dp(8)), bg=theme.surface_container,
                  radius=dp(4), width=dp(240) if anchor == "top_right" else dp(280),
                  cls="android.widget.ListView", rid="popup_menu")
    if anchor == "center":
        return menu
    box = Column([menu], padding=(0, STATUS_BAR_H + dp(8), dp(8), 0), width=dp(248),
                 cls="android.widget.FrameLayout")
    box.align_in_stack = "top_right"  # type: ignore[attr-defined]
    return box


def search_suggestions(items: Sequence[tuple[str, Handler]], *, glyph: str = "search",
                       theme: w.Theme = w.DEFAULT_THEME) -> Column:
    """Suggestion rows under a search field (a glyph, the suggested text); a tap searches
    for it. ``glyph="history"`` for recent searches."""
    rows: list[View] = []
    for label, handler in items:
        rows.append(Row([Icon(glyph, size=18, box=24, color=theme.on_surface_variant,
                              in_dump=False),
                         Text(label, size=16, color=theme.on_surface, max_lines=1, flex=1,
                              in_dump=False)],
                        gap=dp(20), height=dp(56), padding=(dp(24), 0, dp(24), 0),
                        on_click=handler, text=label, rid="suggestion",
                        cls="android.widget.TextView"))
    return Column(rows, cls="android.widget.ListView", rid="search_suggestions")


def swipe_to_dismiss(row: View, on_dismiss: Handler,
                     directions: tuple[str, ...] = ("left", "right")) -> View:
    """Make ``row`` dismissable by a horizontal swipe that starts on it (a ``swipe`` action
    with a start point and direction left or right), as Gmail's and Keep's lists are."""
    def on_swipe(direction: str) -> None:
        if direction in directions:
            on_dismiss()

    row.on_swipe = on_swipe
    return row


__all__ = ["action_menu", "bottom_sheet", "drawer_item", "navigation_drawer", "popup_menu",
           "search_suggestions", "sheet_item", "swipe_to_dismiss"]
