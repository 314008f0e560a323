"""Pieces the Travel screens share: the dark-blue header bar, star rows, the rating badge,
date and guest labels, and the stay a screen was opened for."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from phoneworld_gym.apps.travel import store as ts
from phoneworld_gym.apps.travel.catalogue import Hotel, rating_word
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Color, Column, Icon, Row, Text, View, dp

#: Booking-style dark blue for the header, yellow for the search box, green for perks
HEADER: Color = (0, 53, 128)
YELLOW: Color = (255, 183, 0)
GREEN: Color = (0, 128, 9)
RED: Color = (204, 0, 0)
WHITE: Color = (255, 255, 255)


def header(ctx: Ctx, title: str, *, back: bool = True, actions: Sequence[View] = (),
           subtitle: str = "") -> Row:
    """The 64 dp dark-blue top bar with white title and icons."""
    kids: list[View] = []
    if back:
        kids.append(w.icon_button("back", "Navigate up", ctx.pop, color=WHITE))
    if subtitle:
        kids.append(Column([Text(title, size=18, weight="medium", color=WHITE, max_lines=1,
                                 rid="title"),
                            Text(subtitle, size=13, color=(204, 220, 240), max_lines=1,
                                 rid="subtitle")], flex=1))
    else:
        kids.append(Text(title, size=20, weight="medium", color=WHITE, max_lines=1, flex=1,
                         rid="title"))
    kids.extend(actions)
    return Row(kids, gap=dp(4), height=dp(64), bg=HEADER,
               padding=(dp(4) if back else w.MARGIN, 0, dp(4), 0),
               cls="android.widget.LinearLayout", rid="toolbar")


def stars(n: int) -> Row:
    """``n`` yellow stars, read out as "n-star hotel"."""
    return Row([Icon("star", size=12, box=16, color=YELLOW, in_dump=False) for _ in range(n)],
               desc=f"{n}-star hotel", rid="hotel_stars", cls="android.widget.LinearLayout")


def rating_badge(h: Hotel) -> Row:
    """The score square and its word: "8.7 Excellent · 1,204 reviews"."""
    return Row([Text(f"{h.rating:.1f}", size=13, weight="bold", color=WHITE, bg=HEADER,
                     radius=dp(6), padding=(dp(6), dp(3), dp(6), dp(3)), rid="hotel_rating"),
                Text(f"{rating_word(h.rating)} · {h.reviews:,} reviews", size=13,
                     color=(60, 60, 60), max_lines=1, flex=1)], gap=dp(6))


def short_day(iso: str) -> str:
    """"Sat, Mar 21"."""
    d = dt.date.fromisoformat(iso)
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"


def long_day(iso: str) -> str:
    """The day in full, with its year: "Saturday, March 21, 2026"."""
    d = dt.date.fromisoformat(iso)
    return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}, {d.year}"


def stay_label(checkin: str, checkout: str) -> str:
    return f"{short_day(checkin)} - {short_day(checkout)}"


def guests_label(n: int) -> str:
    return f"{n} adult{'s' if n != 1 else ''}"


def nights_label(n: int) -> str:
    return f"{n} night{'s' if n != 1 else ''}"


def stay(ctx: Ctx) -> tuple[str, str, int]:
    """(check-in, check-out, guests) a screen was opened with (the search form's otherwise)."""
    form = ctx.store["form"]
    return (str(ctx.args.get("checkin", form["checkin"])),
            str(ctx.args.get("checkout", form["checkout"])),
            int(ctx.args.get("guests", form["guests"])))


def stay_args(ctx: Ctx) -> dict[str, Any]:
    ci, co, g = stay(ctx)
    return {"checkin": ci, "checkout": co, "guests": g}


def perk(text: str, rid: str, glyph: str = "check") -> Row:
    return Row([Icon(glyph, size=12, box=16, color=GREEN, in_dump=False),
                Text(text, size=13, weight="medium", color=GREEN, rid=rid)], gap=dp(4))


def save_button(ctx: Ctx, h: Hotel, *, color: Color | None = None) -> Icon:
    """The heart: saves or unsaves the hotel (a toast says which)."""
    saved = h.id in ctx.store["saved"]

    def toggle() -> None:
        now = ts.toggle_saved(ctx.store, h.id)
        ctx.toast(f"Saved {h.name}" if now else f"Removed {h.name} from saved")

    btn = w.icon_button("heart", f"Remove {h.name} from saved" if saved else f"Save {h.name}",
                        toggle, rid="save_hotel", selected=saved,
                        color=RED if saved else (color or (90, 90, 90)))
    if color is None:  # on a list: a light round backdrop, as the heart over a photo has
        btn.bg, btn.radius = (242, 242, 242), dp(24)
    return btn


def photo(h: Hotel, width: int, height: int) -> View:
    """A tinted placeholder photo of the hotel."""
    from phoneworld_gym.ui.view import Image

    tints: tuple[Color, ...] = ((176, 196, 222), (204, 190, 170), (170, 200, 180),
                                (210, 180, 190), (190, 190, 215))
    return Image(tint=tints[h.id % len(tints)], glyph="hotel", width=width, height=height,
                 radius=dp(8), in_dump=False)

