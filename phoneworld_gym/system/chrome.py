"""System UI around the apps: status bar, navigation bar, soft keyboard, toast, dialog scrim.

These belong to ``com.android.systemui`` / the keyboard, so they are drawn and can be tapped but
do not appear in the app's accessibility dump, as on a real phone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from phoneworld_gym.system import settings as system_settings
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Stack, Text, View, dp

STATUS_BAR_H = dp(24)
NAV_BAR_H = dp(48)
KEYBOARD_H = dp(268)

_KB_BG = (232, 234, 237)
_KEY_BG = (255, 255, 255)
_KEY_FN = (199, 203, 209)


@dataclass(frozen=True)
class StatusIcons:
    """What the status bar's system icons show, as Android derives them from the phone's
    settings (hashable: the compositor keys its retained status bar on it).

    Bluetooth is not shown: the icon font has no Bluetooth glyph (it is a brand icon)."""

    airplane: bool = False  #: the plane replaces the signal bars
    wifi: bool = True  #: Wi-Fi on and not cut off by airplane mode
    dnd: bool = False  #: Do Not Disturb (``zen_mode`` other than 0)
    saver: bool = False  #: Battery Saver tints the battery
    battery: int = system_settings.BATTERY_LEVEL

    @classmethod
    def from_settings(cls, settings: dict[str, dict[str, str]]) -> StatusIcons:
        """Read ``world.settings`` with Android's defaults for keys the phone never wrote.
        Wi-Fi counts as off while airplane mode is on, as the Settings app's own Network
        screen says."""
        def get(key: str) -> str:
            return system_settings.get(settings, "global", key)

        airplane = get("airplane_mode_on") == "1"
        return cls(airplane=airplane, wifi=get("wifi_on") == "1" and not airplane,
                   dnd=get("zen_mode") not in ("0", ""), saver=get("low_power") == "1")


#: the battery's tint while Battery Saver is on, on a light and on a dark bar
_SAVER_LIGHT = (196, 110, 0)
_SAVER_DARK = (255, 183, 77)


def status_bar(clock: str, notifications: int | Sequence[str], *, dark: bool = False,
               icons: StatusIcons = StatusIcons()) -> Row:
    """Time on the left, the icons of apps with notifications, then the system icons on the
    right: Do Not Disturb, signal (or the plane in airplane mode), Wi-Fi when connected, the
    battery and its level. ``notifications`` is a count or the glyphs to show (at most four).
    The bar belongs to ``com.android.systemui``, so none of it is in the app's dump."""
    t = dt.datetime.fromisoformat(clock)
    fg = (255, 255, 255) if dark else (29, 27, 32)
    kids: list[View] = [Text(t.strftime("%H:%M"), size=14, weight="medium", color=fg)]
    glyphs = ["bell"] * min(1, notifications) if isinstance(notifications, int) \
        else list(dict.fromkeys(notifications))[:4]
    kids += [Icon(g, size=13, box=20, color=fg) for g in glyphs]
    kids.append(View(flex=1))
    if icons.dnd:
        kids.append(Icon("bell_slash", size=13, box=20, color=fg))
    kids.append(Icon("plane" if icons.airplane else "signal", size=13, box=20, color=fg))
    if icons.wifi:
        kids.append(Icon("wifi", size=13, box=20, color=fg))
    battery = (_SAVER_DARK if dark else _SAVER_LIGHT) if icons.saver else fg
    kids += [Icon("battery", size=14, box=24, color=battery),
             Text(f"{icons.battery}%", size=13, color=fg)]
    return Row(kids, height=STATUS_BAR_H, padding=(dp(20), 0, dp(16), 0), gap=dp(4),
               in_dump=False)


def nav_bar(on_back: Handler, on_home: Handler, on_recents: Handler | None,
            *, dark: bool = False) -> Row:
    """Three-button navigation: back, home, recents."""
    fg = (255, 255, 255) if dark else (60, 60, 67)
    bg = (0, 0, 0) if dark else (243, 237, 247)

    def btn(glyph: str, desc: str, h: Handler | None) -> View:
        ic = Icon(glyph, size=18, box=48, color=fg)
        # the whole third of the bar is the touch target, as on a phone
        return Row([View(flex=1), ic, View(flex=1)], flex=1, desc=desc, on_click=h)

    return Row([btn("chevron_left", "Back", on_back), btn("circle", "Home", on_home),
                btn("square", "Overview", on_recents)], height=NAV_BAR_H, bg=bg, in_dump=False)


LETTERS = (tuple("qwertyuiop"), tuple("asdfghjkl"),
           ("SHIFT", *"zxcvbnm", "DEL"), ("SYM", ",", "SPACE", ".", "ENTER"))
SYMBOLS = (tuple("1234567890"), tuple("@#$_&-+()/"),
           ("*", '"', "'", ":", ";", "!", "?", "DEL"), ("ABC", ",", "SPACE", ".", "ENTER"))
_GLYPHS = {"SHIFT": "arrow_up", "DEL": "backspace", "ENTER": "turn_down_left"}
_LABELS = {"SYM": "?123", "ABC": "ABC", "SPACE": ""}
_WIDE = {"SHIFT": 1.5, "DEL": 1.5, "SYM": 1.5, "ABC": 1.5, "ENTER": 1.5, "SPACE": 5.0}


def keyboard(on_key: Callable[[str], None], shift: bool, layer: str = "letters") -> Column:
    """A soft keyboard (letters, or digits and symbols) whose keys type into the focused
    field. ``on_key`` gets a character or one of SHIFT, DEL, SYM, ABC, SPACE, ENTER."""
    rows: list[View] = []
    for r, keys in enumerate(LETTERS if layer == "letters" else SYMBOLS):
        cells: list[View] = []
        inset = r == 1 and len(keys) < 10
        if inset:
            cells.append(View(flex=0.5))
        for k in keys:
            flex = _WIDE.get(k, 1.0)
            handler = _presser(on_key, k)
            glyph = _GLYPHS.get(k)
            if glyph is not None:
                cells.append(Icon(glyph, size=18, width=None, height=dp(46), flex=flex,
                                  bg=_KEY_FN, radius=dp(6), color=(60, 64, 67),
                                  on_click=handler,
                                  selected=k == "SHIFT" and shift))
                continue
            fn = k in _LABELS and k != "SPACE"
            shown = _LABELS.get(k, k.upper() if shift and k.isalpha() else k)
            cells.append(Text(shown, size=16 if fn else 20, align="center",
                              bg=_KEY_FN if fn else _KEY_BG, radius=dp(6), flex=flex,
                              height=dp(46), padding=(0, dp(12), 0, 0),
                              on_click=handler, max_lines=1))
        if inset:
            cells.append(View(flex=0.5))
        rows.append(Row(cells, gap=dp(6), height=dp(52)))
    return Column(rows, gap=dp(8), height=KEYBOARD_H, bg=_KB_BG,
                  padding=(dp(4), dp(12), dp(4), dp(8)), in_dump=False)


def toast(text: str) -> Text:
    """A toast: a dark pill above the navigation bar."""
    t = Text(text, size=14, color=(255, 255, 255), bg=(50, 50, 54), radius=dp(24),
             padding=(dp(18), dp(12), dp(18), dp(12)), align="center", max_lines=2,
             in_dump=False)
    w = min(1080 - dp(64), t.natural_width() + 4)
    t.width = w
    t.height = t.measure(w)
    t.align_in_stack = "bottom"  # type: ignore[attr-defined]
    return t


def scrim(on_click: Handler) -> View:
    """The dim layer behind a dialog; tapping it dismisses the dialog."""
    return View(bg=(0, 0, 0, 115), on_click=on_click, in_dump=False)


def overlay_stack(children: list[View], bottom_pad: int) -> Stack:
    """A full-screen layer whose bottom-aligned children sit ``bottom_pad`` above the edge."""
    return Stack(children, padding=(0, STATUS_BAR_H, 0, bottom_pad), in_dump=False)


def _presser(on_key: Callable[[str], None], key: str) -> Handler:
    return lambda: on_key(key)


SHADE_PACKAGE = "com.android.systemui"


def shade(clock: str, notes: Sequence[tuple[str, str, str, str, tuple[int, int, int]]],
          on_open: Callable[[int], Handler], on_clear: Handler) -> Column:
    """The notification shade: date, then one card per notification (app glyph, app label,
    title, text; a tap opens it), and Clear all. ``notes`` holds (app label, title, text,
    glyph, colour) in posting order, newest first on screen."""
    t = dt.datetime.fromisoformat(clock)
    white, dim = (236, 238, 244), (170, 176, 190)
    cards: list[View] = []
    for i in reversed(range(len(notes))):
        label, title, text, glyph, color = notes[i]
        cards.append(Column([
            Row([Icon(glyph, size=11, box=22, color=(255, 255, 255), bg=color, radius=dp(11),
                      in_dump=False),
                 Text(label, size=12, color=dim, rid="app_name_text")], gap=dp(8)),
            Text(title, size=15, weight="medium", color=white, max_lines=2, rid="title"),
            Text(text, size=14, color=dim, max_lines=3, rid="text"),
        ], gap=dp(4), padding=(dp(16), dp(12), dp(16), dp(14)), bg=(52, 56, 70),
            radius=dp(20), on_click=on_open(i), cls="android.widget.FrameLayout",
            rid="expandableNotificationRow"))
    if not cards:
        cards.append(Text("No notifications", size=16, color=dim, align="center",
                          padding=(0, dp(48), 0, 0), rid="no_notifications"))
    kids: list[View] = [
        Text(t.strftime("%a, %b ") + str(t.day), size=16, color=white,
             padding=(dp(24), dp(16), 0, dp(8)), rid="date"),
        Column(cards, gap=dp(8), padding=(dp(12), 0, dp(12), 0),
               cls="android.widget.LinearLayout", rid="notification_stack_scroller"),
    ]
    if notes:
        kids.append(Row([View(flex=1, in_dump=False),
                         Text("Clear all", size=14, weight="medium", color=white,
                              bg=(70, 76, 96), radius=dp(18), height=dp(36),
                              padding=(dp(16), dp(9), dp(16), 0), on_click=on_clear,
                              cls="android.widget.Button", rid="dismiss_text")],
                        padding=(0, dp(12), dp(16), 0)))
    kids.append(View(flex=1, in_dump=False))
    return Column(kids, bg=(28, 30, 40), flex=1, cls="android.widget.FrameLayout",
                  rid="notification_panel")
