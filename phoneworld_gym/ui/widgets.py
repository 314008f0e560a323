"""Material 3 building blocks made of views: app bars, buttons, list items, cards, chips,
fields, switches, bottom navigation, dialogs. Sizes are Material 3 guidance at a Pixel 6
density (1 dp = 2.625 px).
Apps compose these; none of them knows about any app."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from phoneworld_gym.ui.view import (
    Color,
    Column,
    Handler,
    Icon,
    Image,
    Row,
    Stack,
    Text,
    TextField,
    View,
    dp,
    natural_width,
)


@dataclasses.dataclass(frozen=True)
class Theme:
    """An app's colours (Material 3 roles)."""

    primary: Color = (103, 80, 164)
    on_primary: Color = (255, 255, 255)
    primary_container: Color = (234, 221, 255)
    on_primary_container: Color = (33, 0, 93)
    surface: Color = (254, 247, 255)
    surface_container: Color = (243, 237, 247)
    surface_high: Color = (236, 230, 240)
    on_surface: Color = (29, 27, 32)
    on_surface_variant: Color = (73, 69, 79)
    outline: Color = (121, 116, 126)
    outline_variant: Color = (202, 196, 208)
    error: Color = (179, 38, 30)
    success: Color = (27, 110, 50)


DEFAULT_THEME = Theme()
MARGIN = dp(16)


def text(s: str, *, size: float = 16, weight: str = "regular", color: Color | None = None,
         theme: Theme = DEFAULT_THEME, **kw: object) -> Text:
    """Body text (16 sp by default)."""
    return Text(s, size=size, weight=weight, color=color or theme.on_surface, **kw)  # type: ignore[arg-type]


def icon_button(icon: str, desc: str, on_click: Handler | None, *, rid: str = "",
                color: Color | None = None, theme: Theme = DEFAULT_THEME, size: float = 22,
                selected: bool = False) -> Icon:
    """A 48 dp touch target holding a 24 dp icon (``ImageButton`` with a content-desc)."""
    return Icon(icon, size=size, box=48, desc=desc, rid=rid, on_click=on_click,
                cls="android.widget.ImageButton", color=color or theme.on_surface_variant,
                selected=selected)


def app_bar(title: str, *, on_back: Handler | None = None, actions: Sequence[View] = (),
            theme: Theme = DEFAULT_THEME, subtitle: str = "", bg: Color | None = None) -> Row:
    """Small top app bar (64 dp): navigation button, title, action buttons."""
    lead: list[View] = []
    if on_back is not None:
        lead.append(icon_button("back", "Navigate up", on_back, theme=theme,
                                color=theme.on_surface))
    title_col: View
    if subtitle:
        title_col = Column([Text(title, size=20, color=theme.on_surface, max_lines=1, rid="title"),
                            Text(subtitle, size=13, color=theme.on_surface_variant, max_lines=1)],
                           flex=1)
    else:
        title_col = Text(title, size=22, color=theme.on_surface, max_lines=1, flex=1,
                         rid="title")
    return Row([*lead, title_col, *actions], gap=dp(4), height=dp(64),
               padding=(dp(4) if lead else MARGIN, 0, dp(4), 0), bg=bg or theme.surface,
               cls="android.widget.LinearLayout", rid="toolbar")


def button(label: str, on_click: Handler | None, *, style: str = "filled", rid: str = "",
           theme: Theme = DEFAULT_THEME, enabled: bool = True, icon: str = "",
           width: int | None = None, flex: float = 0.0, height: int | None = None) -> View:
    """Common button (40 dp tall, pill shaped): ``filled``, ``tonal``, ``outlined`` or ``text``."""
    h = height or dp(40)
    fg: Color
    bg: Color | None
    if style == "filled":
        bg, fg = theme.primary, theme.on_primary
    elif style == "tonal":
        bg, fg = theme.primary_container, theme.on_primary_container
    else:
        bg, fg = None, theme.primary
    if not enabled:
        bg, fg = ((230, 225, 229) if bg is not None else None), (160, 156, 164)
    line_px = int(dp(14) * 1.3)
    pad_v = max(0, (h - line_px) // 2)
    t = Text(label, size=14, weight="medium", color=fg, align="center", max_lines=1,
             cls="android.widget.Button", rid=rid, on_click=on_click, enabled=enabled,
             bg=bg, radius=h // 2, height=h, width=width, flex=flex,
             border=theme.outline if style == "outlined" else None, border_width=3,
             padding=(dp(24) if not icon else dp(16), pad_v, dp(24), pad_v))
    return t


def fab(icon: str, desc: str, on_click: Handler, *, theme: Theme = DEFAULT_THEME,
        rid: str = "fab") -> Icon:
    """Floating action button (56 dp)."""
    ic = Icon(icon, size=24, box=56, desc=desc, rid=rid, on_click=on_click,
              cls="android.widget.ImageButton", color=theme.on_primary_container,
              bg=theme.primary_container, radius=dp(16))
    ic.align_in_stack = "bottom_right"  # type: ignore[attr-defined]
    return ic


def list_item(title: str, *, subtitle: str = "", overline: str = "",
              leading: View | None = None, trailing: View | None = None,
              on_click: Handler | None = None, on_long_click: Handler | None = None,
              rid: str = "", theme: Theme = DEFAULT_THEME, desc: str = "",
              title_lines: int = 1, subtitle_lines: int = 1) -> Row:
    """A list row: one line 56 dp, two lines 72 dp, three lines 88 dp."""
    lines: list[View] = []
    if overline:
        lines.append(Text(overline, size=12, color=theme.on_surface_variant, max_lines=1))
    lines.append(Text(title, size=16, color=theme.on_surface, max_lines=title_lines,
                      rid=f"{rid}_title" if rid else ""))
    if subtitle:
        lines.append(Text(subtitle, size=14, color=theme.on_surface_variant,
                          max_lines=subtitle_lines))
    n = len(lines)
    min_h = dp(56 if n == 1 else 72 if n == 2 else 88)
    body = Column(lines, flex=1, cls="android.widget.LinearLayout")
    kids: list[View] = [c for c in (leading, body, trailing) if c is not None]
    inner = Row(kids, gap=MARGIN, padding=(MARGIN, dp(8), dp(16) if trailing is None else dp(8),
                                           dp(8)))
    h = max(min_h, inner.measure(1080))
    inner.height = h
    inner.on_click = on_click
    inner.on_long_click = on_long_click
    inner.rid = rid
    inner.desc = desc
    inner.cls = "android.widget.LinearLayout"
    return inner


def card(children: Sequence[View], *, on_click: Handler | None = None, rid: str = "",
         theme: Theme = DEFAULT_THEME, padding: int = MARGIN, gap: int = dp(8),
         desc: str = "", elevated: bool = False, width: int | None = None,
         flex: float = 0.0) -> Column:
    """A filled card (12 dp corners)."""
    return Column(children, gap=gap, padding=(padding, padding, padding, padding),
                  bg=theme.surface_container if not elevated else (255, 255, 255),
                  border=theme.outline_variant if elevated else None, border_width=3,
                  radius=dp(12), on_click=on_click, rid=rid, desc=desc,
                  cls="android.widget.FrameLayout", width=width, flex=flex)


def chip(label: str, *, selected: bool = False, on_click: Handler | None = None,
         rid: str = "", theme: Theme = DEFAULT_THEME, enabled: bool = True) -> Text:
    """Filter chip (32 dp): outlined, filled when selected."""
    h = dp(32)
    line_px = int(dp(14) * 1.3)
    pad_v = (h - line_px) // 2
    return Text(label, size=14, weight="medium",
                color=theme.on_surface if enabled else (170, 166, 172),
                bg=theme.primary_container if selected else None,
                border=None if selected else theme.outline_variant, border_width=3,
                radius=dp(8), height=h, padding=(dp(16), pad_v, dp(16), pad_v),
                on_click=on_click, rid=rid, selected=selected, checkable=True, checked=selected,
                cls="android.widget.CompoundButton", max_lines=1, enabled=enabled)


def wrap_row(items: Sequence[View], width: int, *, gap: int = dp(8)) -> Column:
    """Lay items out in rows that wrap at ``width`` (chips, option buttons)."""
    rows: list[View] = []
    cur: list[View] = []
    used = 0
    for it in items:
        w = natural_width(it) or dp(100)
        if cur and used + gap + w > width:
            rows.append(Row(cur, gap=gap))
            cur, used = [], 0
        cur.append(it)
        used += w + (gap if used else 0)
    if cur:
        rows.append(Row(cur, gap=gap))
    return Column(rows, gap=gap)


def text_field(key: str, value: str, *, on_text: Callable[[str], None], label: str = "",
               hint: str = "", on_submit: Handler | None = None, rid: str = "",
               password: bool = False, outlined: bool = True, desc: str = "",
               flex: float = 0.0) -> TextField:
    """Outlined text field, 56 dp."""
    return TextField(key, value, on_text=on_text, on_submit=on_submit, label=label,
                     hint=hint or label, rid=rid, password=password, outlined=outlined,
                     desc=desc, flex=flex)


def bottom_nav(items: Sequence[tuple[str, str, bool, Handler]], *,
               theme: Theme = DEFAULT_THEME, badges: dict[str, str] | None = None) -> Row:
    """Navigation bar (80 dp): (icon, label, selected, handler) per destination. ``badges``
    maps a label to a short count drawn on its icon (a TextView with rid ``badge``)."""
    cells: list[View] = []
    for icon, label, selected, handler in items:
        pill: View = Icon(icon, size=22, width=dp(64), height=dp(32), radius=dp(16),
                          bg=theme.primary_container if selected else None,
                          color=theme.on_primary_container if selected
                          else theme.on_surface_variant, in_dump=False)
        badge = (badges or {}).get(label, "")
        if badge:
            b = Text(badge, size=11, weight="medium", color=(255, 255, 255), bg=theme.error,
                     radius=dp(8), width=max(dp(16), dp(7) * len(badge) + dp(8)),
                     height=dp(16), align="center", line_height=1.45, rid="badge")
            b.align_in_stack = "top_right"  # type: ignore[attr-defined]
            pill = Stack([pill, b], width=dp(64), height=dp(32))
        cells.append(Column([Row([View(flex=1, in_dump=False), pill,
                                  View(flex=1, in_dump=False)], in_dump=bool(badge)),
                             Text(label, size=12, weight="medium" if selected else "regular",
                                  align="center", color=theme.on_surface)],
                            gap=dp(4), flex=1, on_click=handler, desc=label, selected=selected,
                            padding=(0, dp(12), 0, dp(12)), cls="android.widget.FrameLayout",
                            rid=f"nav_{label.lower().replace(' ', '_')}"))
    return Row(cells, height=dp(80), bg=theme.surface_container, rid="bottom_navigation",
               cls="android.widget.LinearLayout")


def section(title: str, *, theme: Theme = DEFAULT_THEME, action: View | None = None) -> Row:
    """A section header (title medium)."""
    kids: list[View] = [Text(title, size=16, weight="medium", color=theme.on_surface, flex=1)]
    if action is not None:
        kids.append(action)
    return Row(kids, padding=(MARGIN, dp(12), MARGIN, dp(4)))


def spacer(h: int) -> View:
    return View(height=h, in_dump=False)


def dialog(title: str, message: str, buttons: Sequence[tuple[str, Handler]], *,
           theme: Theme = DEFAULT_THEME, body: Sequence[View] = ()) -> Column:
    """A basic dialog (28 dp corners): title, message or body, buttons at the right."""
    kids: list[View] = [Text(title, size=24, color=theme.on_surface, rid="alertTitle")]
    if message:
        kids.append(Text(message, size=14, color=theme.on_surface_variant, rid="message"))
    kids.extend(body)
    btns: list[View] = [View(flex=1, in_dump=False)]
    for i, (label, h) in enumerate(buttons):
        btns.append(button(label, h, style="text", theme=theme, rid=f"button{i + 1}"))
    kids.append(Row(btns, gap=dp(8)))
    return Column(kids, gap=dp(16), padding=(dp(24), dp(24), dp(24), dp(16)),
                  bg=theme.surface_high, radius=dp(28), width=1080 - 2 * dp(40),
                  cls="android.widget.FrameLayout", rid="parentPanel")


def avatar(name: str, tint: Color, *, size: float = 40) -> Image:
    """A round avatar with initials."""
    initials = "".join(p[0] for p in name.split()[:2] if p).upper() or "?"
    return Image(tint=tint, initials=initials, circle=True, width=dp(size), height=dp(size),
                 in_dump=False)
