"""Pickers and tabs with the accessibility attributes a real phone gives them.

- :func:`date_picker` is Material's calendar-grid date picker dialog (the one
  ``DatePickerDialog`` shows): a header with the chosen date, a month row with "Previous month"
  / "Next month" buttons, the weekday initials and one checkable cell per day whose text is the
  day number and whose content-desc is the full date ("Saturday, March 14, 2026"), as
  Android's ``SimpleMonthView`` exposes its virtual day views; Cancel/OK are ``button2`` /
  ``button1``.
- :func:`tabs` is a ``TabLayout``: one ``LinearLayout`` per tab with the tab's label as
  content-desc and ``selected`` on the current one, its text in a ``TextView`` inside.

None of them knows about any app; the caller keeps the state (shown month, chosen day).
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Callable, Sequence

from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Row, Text, View, dp

WEEKDAY_INITIALS = ("S", "M", "T", "W", "T", "F", "S")


def full_date(d: dt.date) -> str:
    """"Saturday, March 14, 2026" (a day cell's content-desc)."""
    return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}, {d.year}"


def short_date(d: dt.date) -> str:
    """"Sat, Mar 14" (the picker's headline)."""
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"


def shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    """(year, month) ``delta`` months away."""
    m = year * 12 + (month - 1) + delta
    return m // 12, m % 12 + 1


def date_picker(*, year: int, month: int, selected: dt.date | None,
                on_pick: Callable[[dt.date], Handler], on_month: Callable[[int, int], Handler],
                on_ok: Handler, on_cancel: Handler, today: dt.date | None = None,
                title: str = "Select date", theme: w.Theme = w.DEFAULT_THEME) -> Column:
    """The calendar-grid date picker dialog showing ``year``/``month``.

    ``on_pick(day)`` and ``on_month(year, month)`` return the handlers for a day cell and for
    the month arrows; ``on_ok`` / ``on_cancel`` close it."""
    width = 1080 - 2 * dp(24)
    pad = dp(12)
    cell = (width - 2 * pad) // 7
    head = Column([
        Text(title, size=14, color=theme.on_surface_variant, rid="date_picker_header_title"),
        Text(short_date(selected) if selected else "Select date", size=32,
             color=theme.on_surface, rid="date_picker_header_date"),
    ], gap=dp(12), padding=(dp(12), dp(16), dp(12), dp(12)))
    py, pm = shift_month(year, month, -1)
    ny, nm = shift_month(year, month, 1)
    month_row = Row([
        Text(f"{calendar.month_name[month]} {year}", size=14, weight="medium",
             color=theme.on_surface_variant, flex=1, rid="month_title",
             padding=(dp(12), 0, 0, 0)),
        w.icon_button("chevron_left", "Previous month", on_month(py, pm), rid="prev",
                      theme=theme),
        w.icon_button("chevron_right", "Next month", on_month(ny, nm), rid="next",
                      theme=theme),
    ], height=dp(48))
    week = Row([Text(d, size=13, align="center", color=theme.on_surface_variant, width=cell,
                     in_dump=False) for d in WEEKDAY_INITIALS])
    rows: list[View] = [week]
    line = int(dp(14) * 1.3)
    pv = (cell - line) // 2
    for days in calendar.Calendar(firstweekday=6).monthdatescalendar(year, month):
        kids: list[View] = []
        for d in days:
            if d.month != month:
                kids.append(View(width=cell, height=cell, in_dump=False))
                continue
            chosen = d == selected
            is_today = d == today and not chosen
            kids.append(Text(
                str(d.day), size=14, align="center", width=cell, height=cell,
                padding=(0, pv, 0, pv), radius=cell // 2,
                color=theme.on_primary if chosen else (theme.primary if is_today
                                                       else theme.on_surface),
                bg=theme.primary if chosen else None,
                border=theme.primary if is_today else None, border_width=3,
                desc=full_date(d), on_click=on_pick(d), checkable=True, checked=chosen,
                selected=chosen, cls="android.view.View"))
        rows.append(Row(kids))
    grid = Column(rows, rid="month_view", cls="android.view.View")
    buttons = Row([View(flex=1, in_dump=False),
                   w.button("Cancel", on_cancel, style="text", rid="button2", theme=theme),
                   w.button("OK", on_ok, style="text", rid="button1", theme=theme,
                            enabled=selected is not None)], gap=dp(8))
    return Column([head, month_row, grid, buttons], gap=dp(4),
                  padding=(pad, dp(8), pad, dp(12)), bg=theme.surface_high, radius=dp(28),
                  width=width, cls="android.widget.FrameLayout", rid="datePicker")


def tabs(items: Sequence[tuple[str, bool, Handler]], *,
         theme: w.Theme = w.DEFAULT_THEME, rid: str = "tabs") -> Row:
    """A fixed ``TabLayout``: (label, selected, handler) per tab, the current one underlined
    in the primary colour."""
    cells: list[View] = []
    for label, selected, handler in items:
        ink = theme.primary if selected else theme.on_surface_variant
        bar = View(height=dp(3), radius=dp(2), bg=theme.primary if selected else None,
                   in_dump=False, padding=(0, 0, 0, 0))
        cells.append(Column([
            Text(label, size=14, weight="medium", color=ink, align="center", max_lines=1,
                 padding=(0, dp(14), 0, dp(11))),
            Row([View(flex=1, in_dump=False), View(width=dp(56), height=dp(3), radius=dp(2),
                                                   bg=theme.primary if selected else None,
                                                   in_dump=False),
                 View(flex=1, in_dump=False)], in_dump=False) if selected else bar,
        ], flex=1, on_click=handler, desc=label, selected=selected,
            cls="android.widget.LinearLayout", rid=f"tab_{label.lower().replace(' ', '_')}"))
    return Row(cells, height=dp(48), bg=theme.surface, rid=rid,
               cls="android.widget.HorizontalScrollView")
