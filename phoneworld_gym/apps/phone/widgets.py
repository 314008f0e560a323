"""A popup (long-press / overflow) menu for the Phone app, built here until the toolkit has
one (``ui/`` is shared): a floating list of items, each an ``android.widget.TextView`` with
the resource id ``title`` as Android's ``PopupMenu`` and ``ContextMenu`` rows have."""

from __future__ import annotations

from collections.abc import Sequence

from phoneworld_gym.system.chrome import STATUS_BAR_H
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Text, View, dp


def popup_menu(items: Sequence[tuple[str, Handler]], *, header: str = "",
               theme: w.Theme = w.DEFAULT_THEME, anchor: str = "center") -> Column:
    """A menu card (4 dp corners, 48 dp rows) shown as the screen's dialog. ``anchor``
    "top_right" places it under the overflow button, "center" floats it like a long-press
    context menu; ``header`` (the thing pressed, e.g. a number) heads a context menu."""
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
    if anchor != "top_right":
        return menu
    # under the status bar, at the right edge, where the overflow button is
    box = Column([menu], padding=(0, STATUS_BAR_H + dp(8), dp(8), 0), width=dp(248),
                 cls="android.widget.FrameLayout")
    box.align_in_stack = "top_right"  # type: ignore[attr-defined]
    return box
