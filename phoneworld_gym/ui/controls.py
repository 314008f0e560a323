"""Form controls the Material 3 widgets lack: switches, sliders, checkboxes, radio groups and a
time picker, each dumped with the class and attributes a real phone's ``uiautomator dump``
gives (``android.widget.Switch`` checkable/checked, ``android.widget.SeekBar``,
``android.widget.CheckBox``, ``android.widget.RadioButton`` in a ``RadioGroup``, the Material
time picker: its clock face (:func:`time_picker_dial`, numbers with content-desc ``7 o'clock``
and ``35 minutes``) and its keyboard mode (:func:`time_picker`, hour and minute
``EditText`` s)).

Like :mod:`phoneworld_gym.ui.widgets`, none of them knows about any app: they take values and
handlers. Any app may use them.

**The slider and tap positions.** A tap handler gets no coordinates, so a slider is a
``SeekBar`` leaf laid over ``n = hi - lo + 1`` equal, invisible, clickable bins (left out of
the dump). A tap at x inside a slider whose bounds are ``[x1, x2)`` sets the value
``lo + (x - x1) // ((x2 - x1) // n)`` (clamped to ``hi``), the way a real SeekBar jumps to the
touched position; a tap at the centre of the element sets the middle value.
:func:`slider_x` is the inverse (where to tap for a value); oracles that cannot import this
module use the same two lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from phoneworld_gym.ui.fonts import ICONS
from phoneworld_gym.ui.view import (
    Color,
    Column,
    Handler,
    Icon,
    Row,
    Stack,
    Text,
    TextField,
    View,
    dp,
)
from phoneworld_gym.ui.widgets import DEFAULT_THEME, Theme, button

#: Font Awesome 6 (solid) glyphs these controls and the system apps use, added to the shared
#: icon table when missing (``setdefault``: an entry someone else defined wins)
EXTRA_ICONS = {
    "moon": "\uf186", "sun": "\uf185", "volume": "\uf028", "plane": "\uf072",
    "stopwatch": "\uf2f2", "hourglass": "\uf252", "earth": "\uf57d", "language": "\uf1ab",
    "mobile_screen": "\uf3cf", "battery_half": "\uf242", "bell_slash": "\uf1f6",
    "play": "\uf04b", "pause": "\uf04c", "flag": "\uf024", "rotate_left": "\uf2ea",
    "grip": "\uf58d", "circle_half": "\uf042", "lock": "\uf023", "keyboard": "\uf11c",
    "alarm": "\uf0f3", "display": "\ue163", "shield": "\uf3ed", "universal_access": "\uf29a",
}
for _k, _v in EXTRA_ICONS.items():
    ICONS.setdefault(_k, _v)

SWITCH_W, SWITCH_H = dp(52), dp(32)


# -- switch ---------------------------------------------------------------------------------
def switch(checked: bool, *, on_toggle: Handler | None = None, desc: str = "",
           rid: str = "android:id/switch_widget", enabled: bool = True,
           theme: Theme = DEFAULT_THEME) -> View:
    """A Material 3 switch (``android.widget.Switch``, checkable, checked when on).

    Without ``on_toggle`` it is not clickable itself: the row it sits in toggles it (the
    Settings pattern, see :func:`switch_row`), as on a phone."""
    if checked:
        thumb = View(width=dp(24), height=dp(24), radius=dp(12),
                     bg=theme.on_primary if enabled else (250, 250, 250), in_dump=False)
        kids: list[View] = [View(flex=1, in_dump=False), thumb]
        track: Color = theme.primary if enabled else (200, 196, 204)
        border: Color | None = None
    else:
        thumb = View(width=dp(16), height=dp(16), radius=dp(8),
                     bg=theme.outline if enabled else (190, 186, 194), in_dump=False)
        kids = [thumb, View(flex=1, in_dump=False)]
        track = theme.surface_high
        border = theme.outline if enabled else (200, 196, 204)
    pad = dp(4) if checked else dp(8)
    return Row(kids, width=SWITCH_W, height=SWITCH_H, radius=SWITCH_H // 2, bg=track,
               border=border, border_width=5 if border else 0, padding=(pad, 0, pad, 0),
               cls="android.widget.Switch", checkable=True, checked=checked, desc=desc,
               rid=rid, on_click=on_toggle, enabled=enabled, focusable=on_toggle is not None)


def switch_row(title: str, checked: bool, on_toggle: Handler, *, summary: str = "",
               icon: str = "", rid: str = "", enabled: bool = True,
               theme: Theme = DEFAULT_THEME) -> Row:
    """A preference row with a switch at its end (``SwitchPreference``): the whole row is
    clickable and toggles; the title is ``android:id/title``, the summary
    ``android:id/summary`` and the switch ``android:id/switch_widget``."""
    lines: list[View] = [Text(title, size=18, color=theme.on_surface if enabled
                              else (160, 156, 164), max_lines=2, rid="android:id/title")]
    if summary:
        lines.append(Text(summary, size=14, color=theme.on_surface_variant, max_lines=2,
                          rid="android:id/summary"))
    kids: list[View] = []
    if icon:
        kids.append(Icon(icon, size=22, box=40, color=theme.on_surface_variant,
                         rid="android:id/icon"))
    kids += [Column(lines, flex=1, gap=dp(2), cls="android.widget.RelativeLayout"),
             switch(checked, enabled=enabled, theme=theme)]
    return Row(kids, gap=dp(16), padding=(dp(16) if not icon else dp(12), dp(16), dp(20), dp(16)),
               on_click=on_toggle if enabled else None, rid=rid, enabled=enabled,
               cls="android.widget.LinearLayout")


# -- slider ---------------------------------------------------------------------------------
def slider_value(x: int, x1: int, x2: int, lo: int, hi: int) -> int:
    """The value a tap at ``x`` sets on a slider with bounds ``[x1, x2)`` (see the module
    docstring)."""
    n = hi - lo + 1
    seg = max(1, (x2 - x1) // n)
    return max(lo, min(hi, lo + (x - x1) // seg))


def slider_x(value: int, x1: int, x2: int, lo: int, hi: int) -> int:
    """Where to tap on a slider with bounds ``[x1, x2)`` to set ``value``."""
    n = hi - lo + 1
    seg = max(1, (x2 - x1) // n)
    return x1 + (value - lo) * seg + seg // 2


def slider(value: int, lo: int, hi: int, on_change: Callable[[int], None], *, desc: str,
           rid: str = "seekbar", enabled: bool = True, theme: Theme = DEFAULT_THEME) -> View:
    """A Material 3 slider (``android.widget.SeekBar``, 48 dp tall, filling its width) over
    ``lo..hi``; a tap sets the value under the finger (see the module docstring). ``desc``
    names it (content-desc), as Settings does for its volume and brightness bars."""
    n = hi - lo + 1
    k = max(0, min(n - 1, value - lo))
    active = theme.primary if enabled else (170, 166, 172)
    inactive = theme.primary_container if enabled else (226, 222, 230)
    thumb = dp(20)
    visual = Row([
        View(flex=k + 0.5, height=dp(6), radius=dp(3), bg=active, in_dump=False),
        View(width=thumb, height=thumb, radius=thumb // 2, bg=active, in_dump=False),
        View(flex=n - k - 0.5, height=dp(6), radius=dp(3), bg=inactive, in_dump=False),
    ], in_dump=False)

    def setter(v: int) -> Handler:
        return lambda: on_change(v)

    bins = Row([View(flex=1, height=dp(48), in_dump=False,
                     on_click=setter(lo + i) if enabled else None)
                for i in range(n)], in_dump=False)
    return Stack([visual, bins], height=dp(48), cls="android.widget.SeekBar", desc=desc,
                  rid=rid, focusable=True, enabled=enabled)


# -- checkbox and radio buttons --------------------------------------------------------------
def checkbox(label: str, checked: bool, on_toggle: Handler, *, rid: str = "",
             enabled: bool = True, theme: Theme = DEFAULT_THEME) -> Row:
    """A Material checkbox with its label (``android.widget.CheckBox``: the text is the
    label, checkable, checked)."""
    box: View
    if checked:
        box = Icon("check", size=14, box=18, color=theme.on_primary, bg=theme.primary,
                   radius=dp(2), in_dump=False)
    else:
        box = View(width=dp(18), height=dp(18), radius=dp(2), border=theme.on_surface_variant,
                   border_width=5, in_dump=False)
    return Row([Row([box], width=dp(40), height=dp(40), padding=(dp(11), 0, 0, 0),
                    in_dump=False),
                Text(label, size=16, color=theme.on_surface, in_dump=False, max_lines=2,
                     flex=1)],
               gap=dp(8), height=dp(48), text=label, checkable=True, checked=checked,
               on_click=on_toggle if enabled else None, enabled=enabled, rid=rid,
               cls="android.widget.CheckBox", padding=(0, 0, dp(8), 0))


def radio_button(label: str, checked: bool, on_select: Handler, *, rid: str = "",
                 theme: Theme = DEFAULT_THEME) -> Row:
    """One ``android.widget.RadioButton`` with its label (checkable, checked)."""
    ring_color = theme.primary if checked else theme.on_surface_variant
    ring_kids: list[View] = []
    if checked:
        ring_kids.append(View(width=dp(10), height=dp(10), radius=dp(5), bg=theme.primary,
                              in_dump=False))
    ring = Stack(ring_kids, width=dp(20), height=dp(20), radius=dp(10), border=ring_color,
                 border_width=5, in_dump=False)
    return Row([Row([ring], width=dp(44), height=dp(48), padding=(dp(12), 0, 0, 0),
                    in_dump=False),
                Text(label, size=16, color=theme.on_surface, in_dump=False, flex=1)],
               gap=dp(12), height=dp(56), text=label, checkable=True, checked=checked,
               on_click=on_select, rid=rid, cls="android.widget.RadioButton",
               padding=(dp(8), 0, dp(8), 0))


def radio_group(options: Sequence[str], selected: str | None,
                on_select: Callable[[str], Handler], *, rid: str = "radio_group",
                theme: Theme = DEFAULT_THEME) -> Column:
    """A ``RadioGroup`` of ``RadioButton`` s, one per option; ``on_select(option)`` gives the
    handler of each."""
    return Column([radio_button(o, o == selected, on_select(o), theme=theme,
                                rid=f"{rid}_option") for o in options],
                  cls="android.widget.RadioGroup", rid=rid)


# -- time picker ------------------------------------------------------------------------------
def parse_time(hour: str, minute: str, pm: bool) -> tuple[int, int] | None:
    """(hour 0..23, minute) from a 12-hour picker's fields, or None when they are not a time."""
    h, m = hour.strip(), minute.strip()
    if not (h.isdigit() and m.isdigit()) or len(h) > 2 or len(m) > 2:
        return None
    hh, mm = int(h), int(m)
    if not (1 <= hh <= 12 and 0 <= mm <= 59):
        return None
    return (hh % 12 + (12 if pm else 0), mm)


def time_picker(hour: str, on_hour: Callable[[str], None], minute: str,
                on_minute: Callable[[str], None], pm: bool,
                on_period: Callable[[bool], Handler], on_ok: Handler, on_cancel: Handler, *,
                key: str = "time", title: str = "Enter time", error: str = "",
                on_clock_mode: Handler | None = None, theme: Theme = DEFAULT_THEME) -> Column:
    """The Material 3 time picker in its keyboard-input mode, as a dialog: hour and minute
    fields (``EditText`` s with rids ``material_hour_text_input`` and
    ``material_minute_text_input``, two characters at most), an AM/PM toggle
    (``material_clock_period_am_button`` / ``_pm_button``, checkable), Cancel and OK.
    ``key`` prefixes the fields' focus keys."""
    def field(k: str, value: str, on_text: Callable[[str], None], rid: str, hint: str) -> View:
        def two(v: str) -> None:  # maxLength 2, as the picker's fields have
            on_text(v[:2])

        f = TextField(f"{key}_{k}", value, on_text=two, rid=rid, hint=hint, size=40,
                      outlined=False, width=dp(96), height=dp(80), bg=theme.surface_high,
                      radius=dp(8), desc=hint)
        return Column([f, Text(hint, size=12, color=theme.on_surface_variant, in_dump=False)],
                      gap=dp(6), width=dp(96))

    def period(label: str, on: bool, rid: str) -> Text:
        return Text(label, size=14, weight="medium", align="center",
                    color=theme.on_primary_container if on else theme.on_surface_variant,
                    bg=theme.primary_container if on else None, height=dp(40), width=dp(52),
                    padding=(0, dp(11), 0, 0), on_click=on_period(label == "PM"), rid=rid,
                    cls="android.widget.Button", checkable=True, checked=on, selected=on)

    toggle = Column([period("AM", not pm, "material_clock_period_am_button"),
                     period("PM", pm, "material_clock_period_pm_button")],
                    border=theme.outline, border_width=3, radius=dp(8), width=dp(52),
                    rid="material_clock_period_toggle", cls="android.widget.LinearLayout")
    colon = Text(":", size=44, color=theme.on_surface, in_dump=False, padding=(0, 0, 0, dp(22)))
    row = Row([field("hour", hour, on_hour, "material_hour_text_input", "Hour"), colon,
               field("minute", minute, on_minute, "material_minute_text_input", "Minute"),
               toggle], gap=dp(10))
    kids: list[View] = [Text(title, size=12, weight="medium", color=theme.on_surface_variant,
                             rid="header_title"), row]
    if error:
        kids.append(Text(error, size=13, color=theme.error, rid="error"))
    mode: list[View] = []
    if on_clock_mode is not None:
        mode.append(Icon("clock", size=22, box=48, desc=CLOCK_MODE_DESC, on_click=on_clock_mode,
                         rid="material_timepicker_mode_button",
                         cls="android.widget.ImageButton", color=theme.on_surface_variant))
    kids.append(Row([*mode, View(flex=1, in_dump=False),
                     button("Cancel", on_cancel, style="text", theme=theme,
                            rid="material_timepicker_cancel_button"),
                     button("OK", on_ok, style="text", theme=theme,
                            rid="material_timepicker_ok_button")], gap=dp(8)))
    return Column(kids, gap=dp(20), padding=(dp(24), dp(24), dp(24), dp(16)),
                  bg=theme.surface_high, radius=dp(28), width=1080 - 2 * dp(40),
                  cls="android.widget.FrameLayout", rid="material_timepicker_container")


class Dial(View):
    """A round clock face: children of fixed size on a circle of radius ``ring`` px around
    the centre, the first at 12 o'clock, then clockwise. Square: as tall as it is wide."""

    def __init__(self, children: Sequence[View], *, ring: int, **kw: object):
        super().__init__(children=list(children), **kw)  # type: ignore[arg-type]
        self.ring = ring

    def content_height(self, inner_width: int) -> int:
        return inner_width

    def layout_children(self) -> None:
        x1, y1, x2, y2 = self.inner_box()
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        n = max(1, len(self.children))
        for i, ch in enumerate(self.children):
            a = 2 * math.pi * i / n
            w, h = ch.width or dp(48), ch.height or dp(48)
            ch.layout(int(round(cx + self.ring * math.sin(a) - w / 2)),
                      int(round(cy - self.ring * math.cos(a) - h / 2)), w, h)


TEXT_MODE_DESC = "Switch to text input mode for the time input."
CLOCK_MODE_DESC = "Switch to clock mode for the time input."


def time_picker_dial(hour: str, minute: str, pm: bool, selecting: str,
                     on_hour: Callable[[int], Handler], on_minute: Callable[[int], Handler],
                     on_select: Callable[[str], Handler], on_period: Callable[[bool], Handler],
                     on_text_mode: Handler, on_ok: Handler, on_cancel: Handler, *,
                     title: str = "Select time", theme: Theme = DEFAULT_THEME) -> Column:
    """The Material 3 time picker in its clock mode, as a dialog: the hour and minute chips
    (``material_hour_tv`` / ``material_minute_tv``, the one being set is selected), the AM/PM
    toggle, a clock face whose numbers (content-desc ``7 o'clock`` / ``35 minutes``) set the
    hour (then the face shows minutes) or the minute, a button to the keyboard mode
    (:data:`TEXT_MODE_DESC`), Cancel and OK. ``hour``/``minute`` are the current texts."""
    def chip(text: str, which: str, rid: str) -> Text:
        on = selecting == which
        return Text(text, size=48, align="center", width=dp(96), height=dp(80),
                    padding=(0, dp(8), 0, 0), radius=dp(8), rid=rid, selected=on,
                    color=theme.on_primary_container if on else theme.on_surface,
                    bg=theme.primary_container if on else theme.surface_high,
                    on_click=on_select(which))

    def period(label: str, on: bool, rid: str) -> Text:
        return Text(label, size=14, weight="medium", align="center",
                    color=theme.on_primary_container if on else theme.on_surface_variant,
                    bg=theme.primary_container if on else None, height=dp(40), width=dp(52),
                    padding=(0, dp(11), 0, 0), on_click=on_period(label == "PM"), rid=rid,
                    cls="android.widget.Button", checkable=True, checked=on, selected=on)

    toggle = Column([period("AM", not pm, "material_clock_period_am_button"),
                     period("PM", pm, "material_clock_period_pm_button")],
                    border=theme.outline, border_width=3, radius=dp(8), width=dp(52),
                    rid="material_clock_period_toggle", cls="android.widget.LinearLayout")
    header = Row([chip(hour, "hour", "material_hour_tv"),
                  Text(":", size=44, color=theme.on_surface, in_dump=False),
                  chip(minute, "minute", "material_minute_tv"), toggle], gap=dp(10))
    numbers: list[View] = []
    if selecting == "hour":
        values = [12, *range(1, 12)]
        cur = int(hour) if hour.isdigit() else -1
        for v in values:
            on = v == cur
            numbers.append(Text(str(v), size=16, align="center", width=dp(48), height=dp(48),
                                padding=(0, dp(14), 0, 0), radius=dp(24),
                                bg=theme.primary if on else None,
                                color=theme.on_primary if on else theme.on_surface,
                                desc=f"{v} o'clock", selected=on, on_click=on_hour(v),
                                rid="material_clock_face_number"))
    else:
        cur = int(minute) if minute.isdigit() else -1
        for v in range(0, 60, 5):
            on = v == cur
            numbers.append(Text(f"{v:02d}", size=16, align="center", width=dp(48),
                                height=dp(48), padding=(0, dp(14), 0, 0), radius=dp(24),
                                bg=theme.primary if on else None,
                                color=theme.on_primary if on else theme.on_surface,
                                desc=f"{v} minutes", selected=on, on_click=on_minute(v),
                                rid="material_clock_face_number"))
    face = Dial(numbers, ring=dp(100), width=dp(256), height=dp(256), radius=dp(128),
                bg=tuple(max(0, v - 16) for v in theme.surface_high[:3]),  # type: ignore[arg-type]
                rid="material_clock_face",
                cls="android.view.ViewGroup")
    face_row = Row([View(flex=1, in_dump=False), face, View(flex=1, in_dump=False)])
    buttons = Row([Icon("keyboard", size=22, box=48, desc=TEXT_MODE_DESC, on_click=on_text_mode,
                        rid="material_timepicker_mode_button",
                        cls="android.widget.ImageButton", color=theme.on_surface_variant),
                   View(flex=1, in_dump=False),
                   button("Cancel", on_cancel, style="text", theme=theme,
                          rid="material_timepicker_cancel_button"),
                   button("OK", on_ok, style="text", theme=theme,
                          rid="material_timepicker_ok_button")], gap=dp(8))
    return Column([Text(title, size=12, weight="medium", color=theme.on_surface_variant,
                        rid="header_title"), header, face_row, buttons],
                  gap=dp(20), padding=(dp(24), dp(24), dp(24), dp(16)),
                  bg=theme.surface_high, radius=dp(28), width=1080 - 2 * dp(40),
                  cls="android.widget.FrameLayout", rid="material_timepicker_container")


def time_text(hour: int, minute: int) -> str:
    """12-hour clock text, as the Clock app shows it: ``7:05 AM``."""
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"
