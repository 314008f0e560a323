"""Scaffolds: the frames apps share, built from widgets and a screen's :class:`Ctx`.

- :func:`tab_nav`: the bottom navigation of an app with top-level tabs (Maps, Rides, Bank,
  Shopping, ...). The tabs are passed in; by default each tab is a root screen, so a tap
  clears the back stack down to it (``ctx.reset_to``).
- :func:`mini_app_bar`: the top bar of a mini-app (inside its host), with the close button
  every mini program carries ("Close mini program", ``close_mini``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Color, Handler, Icon, Row, Text, View
from phoneworld_gym.ui.widgets import Theme

if TYPE_CHECKING:  # the app framework builds on the UI toolkit, not the other way round
    from phoneworld_gym.ctx import Ctx

#: one bottom-navigation destination: (icon glyph, label, destination). The destination is a
#: screen name, or whatever the ``to`` of :func:`tab_nav` takes (a tab argument, a state key)
Tab = tuple[str, str, str]


def tab_nav(ctx: Ctx, tabs: Sequence[Tab], current: str, *,
            to: Callable[[str], Handler] | None = None, badges: dict[str, str] | None = None,
            theme: Theme | None = None) -> Row:
    """The bottom navigation bar (``bottom_navigation``) for ``tabs``, ``current`` selected.

    A tab's tap runs ``to(destination)``; by default the destination is a screen and the tab
    a root screen: the back stack is cleared down to it (``ctx.reset_to(destination)``).
    ``badges`` maps a tab's label to the count drawn on its icon; ``theme`` defaults to the
    app's."""
    def reset(dest: str) -> Handler:
        return lambda: ctx.reset_to(dest)

    go = to or reset
    return w.bottom_nav([(icon, label, dest == current, go(dest)) for icon, label, dest in tabs],
                        theme=theme or ctx.theme, badges=badges)


def mini_app_bar(ctx: Ctx, title: str, *, back: bool = True, actions: Sequence[View] = (),
                 bg: Color | None = None, fg: Color = (255, 255, 255)) -> Row:
    """A mini-app's top bar in its brand colour (``bg``, the theme's primary by default) with
    every text and icon in ``fg``: Navigate up (``ctx.pop``) unless ``back`` is False, the
    ``actions``, then the close button that leaves the mini-app at once
    (``ctx.close_mini_app``)."""
    close = w.icon_button("circle_xmark", "Close mini program", ctx.close_mini_app,
                          rid="close_mini", theme=ctx.theme)
    bar = w.app_bar(title, on_back=ctx.pop if back else None, actions=[*actions, close],
                    theme=ctx.theme, bg=ctx.theme.primary if bg is None else bg)
    for v in bar.walk():
        if isinstance(v, (Text, Icon)):
            v.color = fg
    return bar
