"""Shopping building blocks shared by the screens: product cards and rows, stars, prices,
option chips, radio rows, the quantity stepper and the tab scaffold with bottom navigation."""

from __future__ import annotations

from collections.abc import Sequence

from phoneworld_gym.app import Page
from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import Column, Handler, Icon, Image, Row, Stack, Text, View, dp
from phoneworld_gym.ui.widgets import Theme

THEME = Theme(primary=(200, 80, 0), on_primary=(255, 255, 255),
              primary_container=(255, 220, 194), on_primary_container=(58, 22, 0),
              surface=(255, 255, 255), surface_container=(247, 243, 240),
              surface_high=(241, 236, 232), on_surface=(32, 26, 23),
              on_surface_variant=(83, 68, 59), outline=(133, 115, 105),
              outline_variant=(216, 194, 183))
DEAL_RED = (186, 26, 26)
STAR = (240, 160, 0)
STAR_OFF = (222, 216, 212)
GREEN = (27, 110, 50)
TABS = (("home", "Home", "home"), ("grid", "Categories", "categories"),
        ("cart", "Cart", "cart"), ("user", "Account", "account"))
M = w.MARGIN


def shop(ctx: Ctx) -> cat.Catalogue:
    """The catalogue this episode's store is priced by: every screen reads products from it."""
    return cat.catalogue_of(ctx.store)


def stars(rating: float, size: float = 14) -> Row:
    """Five stars, filled to the rating (half stars shown), outside the dump."""
    icons: list[View] = []
    for i in range(5):
        full = rating >= i + 0.75
        half = not full and rating >= i + 0.25
        icons.append(Icon("star_half" if half else "star", size=size, box=size + 2,
                          color=STAR if (full or half) else STAR_OFF, in_dump=False))
    return Row(icons, in_dump=False)


def rating_row(p: cat.Product, size: float = 14) -> Row:
    """Stars, the average and the review count: "4.3 (1,234)"."""
    return Row([stars(p.rating, size - 1),
                Text(f"{p.rating:.1f} ({p.review_count:,})", size=size,
                     color=THEME.on_surface_variant, max_lines=1, rid="rating")], gap=dp(6))


def price_row(p: cat.Product, size: float = 18, badge: bool = True) -> Row:
    """The price, with the struck-through list price and a "-20%" tag on deals."""
    kids: list[View] = [Text(cat.money(p.price), size=size, weight="medium",
                             color=THEME.on_surface, rid="price", max_lines=1)]
    if p.on_deal and p.list_price is not None:
        kids.append(Text(cat.money(p.list_price), size=size * 0.72, strike=True,
                         color=THEME.on_surface_variant, max_lines=1, rid="list_price"))
        if badge:
            kids.append(Text(f"-{p.discount_pct}%", size=12, weight="medium",
                             color=(255, 255, 255), bg=DEAL_RED, radius=dp(4),
                             padding=(dp(6), dp(2), dp(6), dp(2)), max_lines=1,
                             rid="discount"))
    return Row(kids, gap=dp(8))


def thumb(p: cat.Product, side: float, *, radius: float = 12) -> Image:
    """The product picture placeholder (a tinted panel with the product's glyph)."""
    return Image(tint=p.tint, glyph=p.glyph, width=dp(side), height=dp(side),
                 radius=dp(radius), desc=p.name, rid="product_image")


def product_card(ctx: Ctx, p: cat.Product) -> Column:
    """A grid card (picture, name, rating, price) that opens the product."""
    name_px = int(dp(14) * 1.3) * 2
    pic = Image(tint=p.tint, glyph=p.glyph, height=dp(132), radius=dp(12), in_dump=False)
    kids: list[View] = [pic,
                        Text(p.name, size=14, max_lines=2, height=name_px,
                             color=THEME.on_surface, rid="product_name"),
                        rating_row(p, 12), price_row(p, 16, badge=False)]
    if p.on_deal:
        kids.insert(1, Text(f"{p.discount_pct}% off  ·  Deal", size=12, weight="medium",
                            color=DEAL_RED, max_lines=1))
    return Column(kids, gap=dp(6), padding=(dp(8), dp(8), dp(8), dp(12)), radius=dp(12),
                  bg=THEME.surface, border=THEME.outline_variant, border_width=3, flex=1,
                  on_click=ctx.go("product", id=p.id), rid="product_card",
                  cls="android.widget.FrameLayout")


def card_grid(ctx: Ctx, ps: Sequence[cat.Product], cols: int = 2) -> Column:
    """Product cards in rows of ``cols``."""
    rows: list[View] = []
    for i in range(0, len(ps), cols):
        cells: list[View] = [product_card(ctx, p) for p in ps[i:i + cols]]
        cells += [View(flex=1, in_dump=False) for _ in range(cols - len(cells))]
        rows.append(Row(cells, gap=dp(12)))
    return Column(rows, gap=dp(12), padding=(M, 0, M, 0))


def stock_text(p: cat.Product) -> Text:
    if not p.in_stock:
        return Text("Currently unavailable", size=13, color=DEAL_RED, rid="stock")
    free = p.price >= 35
    return Text("FREE delivery" if free else "In stock", size=13, color=GREEN, rid="stock")


def product_row(ctx: Ctx, p: cat.Product) -> Row:
    """A search result row: picture, name, rating, price, stock; opens the product."""
    col = Column([Text(p.name, size=16, max_lines=2, color=THEME.on_surface,
                       rid="product_name"),
                  Text(p.brand if p.category != "Books" else f"by {p.brand}", size=13,
                       color=THEME.on_surface_variant, max_lines=1),
                  rating_row(p, 13), price_row(p, 18), stock_text(p)],
                 gap=dp(4), flex=1)
    return Row([Image(tint=p.tint, glyph=p.glyph, width=dp(104), height=dp(104),
                      radius=dp(12), in_dump=False), col],
               gap=dp(16), padding=(M, dp(12), M, dp(12)), on_click=ctx.go("product", id=p.id),
               rid="product_row", cls="android.widget.LinearLayout")


def option_chip(label: str, selected: bool, on_click: Handler | None, *, rid: str,
                enabled: bool = True) -> Text:
    """A choice box for a product option (size, colour): outlined, filled when chosen. The
    text is the bare value, so it reads the same chosen or not."""
    h = dp(40)
    line = int(dp(14) * 1.3)
    pv = (h - line) // 2
    return Text(label, size=14, weight="medium",
                color=THEME.on_primary_container if selected else
                (THEME.on_surface if enabled else (170, 166, 172)),
                bg=THEME.primary_container if selected else None,
                border=THEME.primary if selected else THEME.outline_variant,
                border_width=5 if selected else 3, radius=dp(8), height=h,
                padding=(dp(16), pv, dp(16), pv), on_click=on_click, rid=rid,
                selected=selected, checkable=True, checked=selected, enabled=enabled,
                cls="android.widget.RadioButton", max_lines=1, align="center")


def radio_dot(checked: bool) -> View:
    """A radio button drawn from views: a ring, with a dot when checked."""
    ring = View(width=dp(20), height=dp(20), radius=dp(10), in_dump=False,
                border=THEME.primary if checked else THEME.outline, border_width=dp(2))
    kids: list[View] = [ring]
    if checked:
        kids.append(View(width=dp(10), height=dp(10), radius=dp(5), bg=THEME.primary,
                         in_dump=False))
    return Stack(kids, width=dp(24), height=dp(24), in_dump=False)


def radio_row(title: str, checked: bool, on_click: Handler, *, subtitle: str = "",
              rid: str = "", trailing: View | None = None, title_lines: int = 1) -> Row:
    """A selectable row: radio, title (and subtitle), optional trailing text."""
    lines: list[View] = [Text(title, size=16, color=THEME.on_surface, max_lines=title_lines)]
    if subtitle:
        lines.append(Text(subtitle, size=14, color=THEME.on_surface_variant, max_lines=2))
    kids: list[View] = [radio_dot(checked), Column(lines, flex=1, gap=dp(2))]
    if trailing is not None:
        kids.append(trailing)
    # the content-desc makes the row itself an element (with its checked state)
    return Row(kids, gap=M, padding=(M, dp(12), M, dp(12)), on_click=on_click, rid=rid,
               checkable=True, checked=checked, selected=checked, desc=title,
               cls="android.widget.RadioButton")


def check_row(title: str, checked: bool, on_click: Handler, *, subtitle: str = "",
              rid: str = "", leading: View | None = None) -> Row:
    """A row with a checkbox at the right."""
    box = Icon("check", size=14, box=22, color=(255, 255, 255) if checked else THEME.surface,
               bg=THEME.primary if checked else None, radius=dp(3),
               border=None if checked else THEME.outline, border_width=dp(2), in_dump=False)
    lines: list[View] = [Text(title, size=16, color=THEME.on_surface, max_lines=2)]
    if subtitle:
        lines.append(Text(subtitle, size=13, color=THEME.on_surface_variant, max_lines=1))
    kids = [k for k in (leading, Column(lines, flex=1, gap=dp(2)), box) if k is not None]
    return Row(kids, gap=M, padding=(M, dp(10), M, dp(10)), on_click=on_click, rid=rid,
               checkable=True, checked=checked, desc=title, cls="android.widget.CheckBox")


def qty_stepper(qty: int, on_minus: Handler, on_plus: Handler, *, low: int = 1,
                high: int = st.MAX_QTY) -> Row:
    """[ - ] qty [ + ] with 48 dp touch targets (rids qty_minus, qty, qty_plus)."""
    def btn(icon: str, desc: str, rid: str, h: Handler, ok: bool) -> Icon:
        return Icon(icon, size=16, box=44, desc=desc, rid=rid, on_click=h, enabled=ok,
                    cls="android.widget.ImageButton",
                    color=THEME.on_surface if ok else (190, 186, 190))

    return Row([btn("minus", "Decrease quantity", "qty_minus", on_minus, qty > low),
                Text(str(qty), size=16, weight="medium", align="center", width=dp(36),
                     rid="qty", desc=f"Quantity {qty}"),
                btn("plus", "Increase quantity", "qty_plus", on_plus, qty < high)],
               radius=dp(22), border=THEME.outline_variant, border_width=3,
               width=2 * dp(44) + dp(36),  # natural_width() ignores a Text's fixed width
               cls="android.widget.LinearLayout", rid="qty_stepper")


def labelled(label: str, value: str, *, bold: bool = False, rid: str = "",
             color: tuple[int, int, int] | None = None) -> Row:
    """A summary line: label at the left, amount at the right."""
    weight = "medium" if bold else "regular"
    size = 16 if bold else 14
    return Row([Text(label, size=size, weight=weight, color=THEME.on_surface, flex=1),
                Text(value, size=size, weight=weight, color=color or THEME.on_surface,
                     rid=rid)], padding=(0, dp(4), 0, dp(4)))


def empty_state(icon: str, title: str, message: str, action: View | None = None) -> Column:
    """A centred illustration with a message (empty cart, no results...)."""
    kids: list[View] = [
        Row([View(flex=1, in_dump=False),
             Icon(icon, size=48, box=104, color=THEME.primary, bg=THEME.primary_container,
                  radius=dp(52), in_dump=False), View(flex=1, in_dump=False)], in_dump=False),
        Text(title, size=22, align="center", color=THEME.on_surface, rid="empty_title"),
        Text(message, size=14, align="center", color=THEME.on_surface_variant),
    ]
    if action is not None:
        kids.append(Row([View(flex=1, in_dump=False), action, View(flex=1, in_dump=False)],
                        in_dump=False))
    return Column(kids, gap=dp(16), padding=(dp(32), dp(64), dp(32), dp(32)))


def header_card(children: Sequence[View], *, rid: str = "", gap: int = dp(8)) -> Column:
    """A section card with the shop's outline style."""
    return Column(children, gap=gap, padding=(M, dp(12), M, dp(12)), radius=dp(12),
                  bg=THEME.surface, border=THEME.outline_variant, border_width=3, rid=rid,
                  cls="android.widget.FrameLayout")


def go_tab(ctx: Ctx, tab: str) -> Handler:
    """A handler that switches to a bottom-navigation destination (clearing the stack)."""
    return lambda: ctx.reset_to(tab)


def nav_bar(ctx: Ctx, current: str) -> Row:
    """The bottom navigation, with the cart count on the Cart destination."""
    n = st.cart_count(ctx.store)
    return tab_nav(ctx, TABS, current, badges={"Cart": str(n)} if n else None, theme=THEME)


def tab_page(ctx: Ctx, tab: str, content: Sequence[View], dialog: View | None = None) -> Page:
    """A top-level screen: its content above the bottom navigation. Back from another tab's
    root goes Home, as in most shopping apps."""
    def on_back() -> bool:
        if ctx.depth > 1 or tab == "home":
            return False
        ctx.reset_to("home")
        return True

    body = Column([*content, nav_bar(ctx, tab)], bg=THEME.surface)
    return Page(body, dialog=dialog, on_back=on_back)


def top_bar(ctx: Ctx, title: str, *, actions: Sequence[View] = (), back: bool = True,
            subtitle: str = "") -> Row:
    """The small app bar in the shop's colours."""
    return w.app_bar(title, on_back=ctx.pop if back else None, actions=actions, theme=THEME,
                     subtitle=subtitle)


def cart_button(ctx: Ctx) -> View:
    """The app-bar cart icon with its count badge (content-desc "Cart, 3 items")."""
    n = st.cart_count(ctx.store)
    ic = w.icon_button("cart", f"Cart, {n} item{'s' if n != 1 else ''}",
                       ctx.go("cart"), rid="action_cart", theme=THEME)
    if not n:
        return ic
    badge = Text(str(n), size=11, weight="medium", color=(255, 255, 255), bg=DEAL_RED,
                 radius=dp(9), width=dp(18), height=dp(18), align="center", in_dump=False,
                 line_height=1.6)
    badge.align_in_stack = "top_right"  # type: ignore[attr-defined]
    return Stack([ic, badge], width=dp(48), height=dp(48))
