"""Pieces every Food screen shares: the white top bar, the bottom navigation, the red "View
cart" bar, a restaurant's picture and card, and the order tracking steps."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from phoneworld_gym.apps.food import store as fs
from phoneworld_gym.apps.food.catalogue import RESTAURANTS
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import Column, Icon, Image, Row, Text, View, dp

WHITE = (255, 255, 255)
GREY = (117, 117, 117)
GREEN = (0, 131, 80)
STAR = (230, 160, 0)
TABS: tuple[tuple[str, str, str], ...] = (("home", "Home", "main"), ("search", "Search", "search"),
                                          ("receipt", "Orders", "orders"),
                                          ("user", "Account", "account"))


def bar(ctx: Ctx, title: str, *, back: bool = True, actions: Sequence[View] = (),
        subtitle: str = "") -> Row:
    """A white top app bar with the back arrow."""
    return w.app_bar(title, on_back=ctx.pop if back else None, actions=actions,
                     theme=ctx.theme, subtitle=subtitle, bg=WHITE)


def nav(ctx: Ctx, current: str) -> Row:
    """The bottom navigation (Home, Search, Orders, Account); a tab resets the back stack."""
    live = sum(1 for o in ctx.store["orders"] if o["status"] in ("Preparing", "On the way"))
    return tab_nav(ctx, TABS, current, badges={"Orders": str(live)} if live else None)


def cart_bar(ctx: Ctx) -> View | None:
    """The red "View cart" bar shown while the cart has something (None otherwise)."""
    n = fs.cart_count(ctx.store)
    if not n:
        return None
    r = fs.restaurant(ctx.store, ctx.store["cart"]["restaurant"])
    label = f"View cart · {n} item{'s' if n != 1 else ''}"
    return Row([Row([
        Column([Text(label, size=16, weight="bold", color=WHITE, max_lines=1),
                Text(r["name"] if r else "", size=13, color=WHITE, max_lines=1)], flex=1),
        Text(fs.money(fs.cart_subtotal(ctx.store)), size=16, weight="bold", color=WHITE)],
        height=dp(56), radius=dp(28), bg=ctx.theme.primary, padding=(dp(24), 0, dp(24), 0),
        on_click=ctx.go("cart"), rid="view_cart", desc=label, flex=1,
        cls="android.widget.Button")], padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)), bg=WHITE)


def picture(r: dict[str, Any], *, width: int | None, height: int, radius: int = dp(12)) -> View:
    """A restaurant's picture (its cuisine's glyph on its tint), greyed when it is closed."""
    cat = RESTAURANTS[r["id"] - 1]
    tint = cat.tint if r["open"] else (170, 170, 170)
    return Image(tint=tint, glyph=cat.glyph, width=width, height=height, radius=radius,
                 in_dump=False)


def rating(r: dict[str, Any]) -> str:
    """"4.6 (1,240)": the stars and how many rated."""
    return f"{r['rating']:.1f} ({r['reviews']:,})"


def rating_row(ctx: Ctx, text: str, rid: str) -> Row:
    """A star glyph before a rating line."""
    return Row([Icon("star", size=13, box=18, color=STAR, in_dump=False),
                Text(text, size=14, color=ctx.theme.on_surface_variant, max_lines=1, flex=1,
                     rid=rid)], gap=dp(4))


def eta_words(r: dict[str, Any]) -> str:
    """"25–35 min · $1.99 delivery fee" (or "$0 delivery fee")."""
    fee = "$0 delivery fee" if r["fee"] == 0 else f"{fs.money(r['fee'])} delivery fee"
    return f"{r['eta_min']}–{r['eta_max']} min · {fee}"


def spaced(row: View, gap: int = dp(10)) -> Column:
    """``row`` with space above and below that is not part of it: a tappable row then has
    its picture from edge to edge, so no sliver of it scrolled into view is blank."""
    return Column([row], padding=(0, gap, 0, gap))


def restaurant_card(ctx: Ctx, r: dict[str, Any]) -> Column:
    """A restaurant in a list: picture, name, rating and cuisine, delivery time and fee, or
    when it is closed when it opens. A tap opens its menu."""
    th = ctx.theme
    fav = r["id"] in ctx.store["favorites"]
    name_row: list[View] = [Text(r["name"], size=17, weight="bold", color=th.on_surface,
                                 max_lines=1, flex=1, rid="restaurant_name")]
    if fav:
        name_row.append(Icon("heart", size=16, box=24, color=th.primary, desc="Saved",
                             rid="saved_mark"))
    lines: list[View] = [
        Row(name_row, gap=dp(4)),
        rating_row(ctx, f"{rating(r)} · {r['cuisine']}", "restaurant_rating"),
    ]
    if r["open"]:
        lines.append(Text(eta_words(r), size=14, color=th.on_surface_variant, max_lines=1,
                          rid="restaurant_eta"))
    else:
        lines.append(Text(f"Closed · Opens at {r['opens']}", size=14, weight="medium",
                          color=th.error, max_lines=1, rid="restaurant_closed"))
    return spaced(Row([picture(r, width=dp(96), height=dp(80)),
                       Column(lines, flex=1, gap=dp(2))],
                      gap=dp(16), padding=(w.MARGIN, 0, w.MARGIN, 0), height=dp(80),
                      on_click=ctx.go("restaurant", id=r["id"]), rid="restaurant_card",
                      desc=r["name"], cls="android.widget.LinearLayout"))


def status_steps(ctx: Ctx, o: dict[str, Any]) -> Column:
    """The tracking steps: done ones ticked in the brand colour, the current one in bold."""
    th = ctx.theme
    at = fs.STEPS.index("Order placed") if o["status"] == "Cancelled" else \
        fs.STEPS.index(o["status"])
    rows: list[View] = []
    for i, step in enumerate(fs.STEPS):
        done = i <= at and o["status"] != "Cancelled" or i == 0
        mark: View = (Icon("check", size=12, box=24, radius=dp(12), color=WHITE, bg=th.primary,
                           in_dump=False) if done else
                      View(width=dp(24), height=dp(24), radius=dp(12), border=th.outline_variant,
                           border_width=5, in_dump=False))
        rows.append(Row([mark, Text(step, size=16, weight="bold" if i == at else "regular",
                                    color=th.on_surface if done else GREY, flex=1,
                                    rid="status_step")],
                        gap=dp(16), height=dp(40), checkable=True, checked=done,
                        selected=i == at, cls="android.widget.CheckedTextView", text=step))
    return Column(rows, rid="status_steps")


def eta_time(o: dict[str, Any]) -> str:
    return fs.clock(dt.datetime.fromisoformat(o["eta"]))


def placed_words(o: dict[str, Any]) -> str:
    """"Mar 2, 7:20 PM"."""
    t = dt.datetime.fromisoformat(o["placed"])
    return f"{t.strftime('%b')} {t.day}, {fs.clock(t)}"
