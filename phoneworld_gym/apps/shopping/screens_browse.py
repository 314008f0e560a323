"""Browsing screens: the home feed, categories, search results with filters, a product."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from phoneworld_gym.app import Page
from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.apps.shopping.screens_common import (
    DEAL_RED,
    GREEN,
    THEME,
    M,
    card_grid,
    cart_button,
    option_chip,
    price_row,
    product_row,
    qty_stepper,
    radio_row,
    rating_row,
    shop,
    stars,
    tab_page,
    top_bar,
)
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import (
    Column,
    Divider,
    Handler,
    Icon,
    Image,
    Row,
    Scroll,
    Text,
    View,
    dp,
)

POPULAR = ("earbuds", "running shoes", "hoodie", "coffee", "yoga mat", "board game",
           "dog bed", "face serum", "laptop", "frying pan")
PRICE_RANGES: tuple[tuple[str, float | None, float | None], ...] = (
    ("Any price", None, None), ("Under $25", None, 25.0), ("$25 to $50", 25.0, 50.0),
    ("$50 to $100", 50.0, 100.0), ("$100 to $200", 100.0, 200.0),
    ("$200 & above", 200.0, None))
RATINGS: tuple[tuple[str, float | None], ...] = (
    ("Any rating", None), ("4 stars & up", 4.0), ("3 stars & up", 3.0), ("2 stars & up", 2.0))


# -- search field
def search_field(ctx: Ctx, *, key: str = "search",
                 on_submit_query: Callable[[str], None] | None = None,
                 default: str = "") -> View:
    """The pill-shaped search field (rid ``search_bar``); enter opens the results."""
    value, on_text = ctx.field(key, default)

    def submit() -> None:
        q = " ".join(value.split())
        if not q:
            ctx.toast("Type something to search")
            return
        if on_submit_query is not None:
            on_submit_query(q)
        else:
            on_text("")
            ctx.push("search", query=q)

    return w.text_field(key, value, on_text=on_text, on_submit=submit, hint="Search products",
                        rid="search_bar", outlined=False, flex=1)


def search_header(ctx: Ctx) -> Row:
    return Row([search_field(ctx)], padding=(M, dp(4), M, dp(8)), bg=THEME.surface)


# -- home
def category_tile(ctx: Ctx, c: cat.Category) -> View:
    """A round category icon with its name; opens the category."""
    bubble = Icon(c.glyph, size=24, box=56, radius=dp(28), bg=c.tint,
                  color=THEME.on_primary_container, in_dump=False)
    return Column([Row([View(flex=1, in_dump=False), bubble, View(flex=1, in_dump=False)],
                       in_dump=False),
                   Text(c.name, size=12, align="center", max_lines=2, color=THEME.on_surface,
                        in_dump=False, height=int(dp(12) * 1.3) * 2)],
                  gap=dp(6), flex=1, on_click=ctx.go("category", name=c.name), desc=c.name,
                  text=c.name, rid="category_tile", padding=(0, dp(6), 0, dp(6)),
                  cls="android.widget.TextView")


def home(ctx: Ctx) -> Page:
    """The home feed: search, category shortcuts, a promo, deals and recommendations."""
    offset, on_scroll = ctx.scroll()
    name = ctx.store["user"]["name"].split()[0]
    title = Row([Icon("bag_shopping", size=22, box=40, color=THEME.primary, in_dump=False),
                 Text("Shopping", size=22, weight="medium", color=THEME.primary, flex=1,
                      rid="title"),
                 cart_button(ctx)],
                gap=dp(8), height=dp(64), padding=(M, 0, dp(4), 0), rid="toolbar",
                cls="android.widget.LinearLayout")
    cats = list(cat.CATEGORIES)
    grid = Column([Row([category_tile(ctx, c) for c in cats[i:i + 5]])
                   for i in range(0, len(cats), 5)], gap=dp(4), padding=(dp(8), 0, dp(8), 0))
    promo = Row([Column([Text("Spring Sale", size=22, weight="medium",
                              color=THEME.on_primary),
                         Text(f"Hi {name}, up to 40% off top brands", size=14,
                              color=THEME.on_primary, max_lines=2),
                         w.button("Shop deals", ctx.go("search", deals=True), rid="shop_deals",
                                  theme=w.Theme(primary=(255, 255, 255),
                                                on_primary=THEME.primary))],
                        gap=dp(8), flex=1),
                 Icon("tags", size=56, box=96, color=(255, 200, 160), in_dump=False)],
                bg=THEME.primary, radius=dp(16), padding=(dp(20), dp(16), dp(12), dp(16)),
                rid="promo_banner")
    see_all = w.button("See all", ctx.go("search", deals=True), style="text",
                       rid="see_all_deals", theme=THEME)
    content: list[View] = [
        grid,
        Column([promo], padding=(M, dp(8), M, dp(4))),
        w.section("Today's deals", theme=THEME, action=see_all),
        card_grid(ctx, shop(ctx).deals(6)),
        w.section("Recommended for you", theme=THEME),
        card_grid(ctx, shop(ctx).recommended(8)),
        w.spacer(dp(16)),
    ]
    return tab_page(ctx, "home", [title, search_header(ctx),
                                  Scroll(content, offset=offset, on_scroll=on_scroll,
                                         gap=dp(8), rid="home_feed")])


def categories(ctx: Ctx) -> Page:
    """All departments as a list; each opens its product listing."""
    offset, on_scroll = ctx.scroll()
    rows: list[View] = []
    for c in cat.CATEGORIES:
        ps = shop(ctx).in_category(c.name)
        low = min(p.price for p in ps)
        lead = Icon(c.glyph, size=20, box=48, radius=dp(24), bg=c.tint,
                    color=THEME.on_primary_container, in_dump=False)
        rows.append(w.list_item(c.name, subtitle=f"{len(ps)} products · from {cat.money(low)}",
                                leading=lead, trailing=Icon("chevron_right", size=16, box=24,
                                                            in_dump=False),
                                on_click=ctx.go("category", name=c.name), rid="category_row",
                                theme=THEME))
    return tab_page(ctx, "categories", [
        top_bar(ctx, "Categories", back=False), search_header(ctx),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="category_list")])


# -- results
def filter_chip(label: str, active: bool, on_click: Handler, rid: str) -> Row:
    """A dropdown chip: label and a chevron; tinted when the filter is set."""
    # the chip is one leaf in the tree (its text on the row), like a Material chip
    t = Text(label, size=14, weight="medium", max_lines=1, in_dump=False,
             color=THEME.on_primary_container if active else THEME.on_surface)
    width = t.natural_width() + dp(6) + dp(16) + dp(12) + dp(10)  # for wrap_row
    return Row([t,
                Icon("chevron_down", size=11, box=16, in_dump=False,
                     color=THEME.on_primary_container if active else THEME.on_surface_variant)],
               gap=dp(6), height=dp(32), padding=(dp(12), 0, dp(10), 0), radius=dp(8),
               bg=THEME.primary_container if active else None,
               border=None if active else THEME.outline_variant, border_width=3,
               on_click=on_click, rid=rid, selected=active, text=label, width=width,
               cls="android.widget.Button")


def _price_label(lo: float | None, hi: float | None) -> str:
    for label, a, b in PRICE_RANGES:
        if (a, b) == (lo, hi):
            return label if (lo, hi) != (None, None) else "Price"
    if lo is None:
        return f"Under {cat.money(hi or 0)}"
    if hi is None:
        return f"{cat.money(lo)} & above"
    return f"{cat.money(lo)} to {cat.money(hi)}"


def results(ctx: Ctx) -> Page:
    """Search results (screen "search": args ``query``, ``category`` preset, ``deals`` for
    discounted products only) and a department's listing (screen "category": arg ``name``).
    Sort and filters live in the screen state and open as dialogs from the chips."""
    s = ctx.state
    fixed_cat = ctx.args.get("name") if ctx.entry["screen"] == "category" else None
    deals_only = bool(ctx.args.get("deals"))
    query = s.get("query", ctx.args.get("query", ""))
    sort = s.get("sort", "relevance")
    # "" in the state means the user picked "All categories"
    category = fixed_cat or (s["category"] if "category" in s else ctx.args.get("category"))
    category = category or None
    lo, hi = s.get("min_price"), s.get("max_price")
    min_rating = s.get("min_rating")

    def new_query(q: str) -> None:
        s["query"] = q
        s.setdefault("_scroll", {})["main"] = 0
        ctx.clear_focus()

    if fixed_cat:
        head: list[View] = [top_bar(ctx, fixed_cat, actions=[
            w.icon_button("search", "Search", ctx.go("search", category=fixed_cat),
                          rid="action_search", theme=THEME), cart_button(ctx)])]
    else:
        head = [Row([w.icon_button("back", "Navigate up", ctx.pop, theme=THEME,
                                   color=THEME.on_surface),
                     search_field(ctx, key="q", default=ctx.args.get("query", ""),
                                  on_submit_query=new_query), cart_button(ctx)],
                    gap=dp(4), height=dp(64), padding=(dp(4), 0, dp(4), 0),
                    rid="toolbar", cls="android.widget.LinearLayout")]
    chips: list[View] = [filter_chip("Sort" if sort == "relevance" else cat.SORT_LABELS[sort],
                                     sort != "relevance",
                                     ctx.show_dialog("sort"), "sort")]
    if not fixed_cat:
        chips.append(filter_chip(category or "Category", bool(category),
                                 ctx.show_dialog("category"), "filter_category"))
    chips.append(filter_chip(_price_label(lo, hi), (lo, hi) != (None, None),
                             ctx.show_dialog("price"), "filter_price"))
    chips.append(filter_chip(next(lb for lb, v in RATINGS if v == min_rating)
                             if min_rating else "Rating", min_rating is not None,
                             ctx.show_dialog("rating"), "filter_rating"))
    chip_rows = Column([w.wrap_row(chips, 1080 - 2 * M)], padding=(M, 0, M, dp(8)))

    offset, on_scroll = ctx.scroll()
    rows: list[View] = []
    if not query and not category and not deals_only:
        rows.append(w.section("Popular searches", theme=THEME))
        pop = [w.chip(q, on_click=_bind(new_query, q), rid="popular_search", theme=THEME)
               for q in POPULAR]
        rows.append(Column([w.wrap_row(pop, 1080 - 2 * M)], padding=(M, dp(4), M, 0)))
    else:
        hits = shop(ctx).search(query, category=category, min_price=lo, max_price=hi,
                                min_rating=min_rating, sort=sort)
        if deals_only:
            hits = [p for p in hits if p.on_deal]
        what = f" for “{query}”" if query else (" on deals" if deals_only else "")
        rows.append(Text(f"{len(hits)} result{'s' if len(hits) != 1 else ''}{what}", size=14,
                         color=THEME.on_surface_variant, rid="results_count",
                         padding=(M, dp(4), M, dp(4))))
        for p in hits:
            rows.append(product_row(ctx, p))
            rows.append(Divider(inset=M))
        if not hits:
            rows.append(Text("No products match. Try other words or clear the filters.",
                             size=16, color=THEME.on_surface, padding=(M, dp(24), M, 0)))
    body = [*head, chip_rows, Divider(),
            Scroll(rows, offset=offset, on_scroll=on_scroll, rid="results_list")]
    page = Page(Column(body, bg=THEME.surface), dialog=_results_dialog(ctx))
    return page


def _results_dialog(ctx: Ctx) -> View | None:
    s = ctx.state

    def choose(**kv: object) -> Handler:
        def h() -> None:
            for k, v in kv.items():
                if v is None:
                    s.pop(k, None)
                else:
                    s[k] = v
            s.setdefault("_scroll", {})["main"] = 0
            ctx.close_dialog()
        return h

    d = ctx.dialog
    if d is None:
        return None
    if d == "sort":
        cur = s.get("sort", "relevance")
        body: list[View] = [radio_row(cat.SORT_LABELS[k], cur == k, choose(sort=k),
                                      rid="sort_option") for k in cat.SORTS]
        return _dialog("Sort by", body, ctx.close_dialog)
    if d == "category":
        cur_c = (s["category"] if "category" in s else ctx.args.get("category")) or None
        body = [radio_row("All categories", cur_c is None, choose(category=""),
                          rid="category_option")]
        body += [radio_row(n, cur_c == n, choose(category=n), rid="category_option")
                 for n in cat.CATEGORY_NAMES]
        return _dialog("Category", body, ctx.close_dialog, compact=True)
    if d == "price":
        cur = (s.get("min_price"), s.get("max_price"))
        body = [radio_row(label, cur == (a, b), choose(min_price=a, max_price=b),
                          rid="price_option") for label, a, b in PRICE_RANGES]
        lo_v, lo_set = ctx.field("min_price")
        hi_v, hi_set = ctx.field("max_price")

        def apply() -> None:
            lo, hi = lo_v.strip().lstrip("$"), hi_v.strip().lstrip("$")
            try:
                a = float(lo) if lo else None
                b = float(hi) if hi else None
            except ValueError:
                ctx.toast("Enter a valid price")
                return
            if a is not None and b is not None and a > b:
                ctx.toast("Min price is above max price")
                return
            choose(min_price=a, max_price=b)()

        body.append(Row([w.text_field("min_price", lo_v, on_text=lo_set, label="Min $",
                                      rid="min_price", flex=1),
                         w.text_field("max_price", hi_v, on_text=hi_set, label="Max $",
                                      rid="max_price", flex=1, on_submit=apply),
                         w.button("Go", apply, rid="apply_price", theme=THEME)],
                        gap=dp(8), padding=(0, dp(8), 0, 0)))
        return _dialog("Price", body, ctx.close_dialog, compact=True)
    if d == "rating":
        cur_r = s.get("min_rating")
        body = [radio_row(label, cur_r == v, choose(min_rating=v), rid="rating_option")
                for label, v in RATINGS]
        return _dialog("Customer rating", body, ctx.close_dialog)
    return None


def _dialog(title: str, body: list[View], close: Handler, compact: bool = False) -> View:
    """A choice dialog whose rows sit flush with the dialog's edges."""
    if compact:
        for r in body:
            if isinstance(r, Row) and r.rid.endswith("_option"):
                r.padding = (M, dp(8), M, dp(8))
    dlg = w.dialog(title, "", [("Cancel", close)], theme=THEME, body=[Column(body)])
    dlg.padding = (dp(8), dp(24), dp(8), dp(8))
    dlg.children[0].padding = (M, 0, M, 0)
    return dlg


# -- product
def _arrival_text(ctx: Ctx, p: cat.Product) -> str:
    first, _ = st.arrival(ctx.now, "Standard")
    day = dt.date.fromisoformat(first)
    when = day.strftime("%a, %b ") + str(day.day)
    return f"{'FREE delivery' if p.price >= 35 else 'Delivery $4.99'} by {when}"


def product(ctx: Ctx) -> Page:
    """A product: picture, title, rating, price, option chips, quantity, Add to cart and
    Buy now, description and reviews."""
    p = shop(ctx).product(ctx.args["id"])
    s = ctx.state
    opts: dict[str, str] = s.get("opts", {})  # rendering reads; handlers write
    qty = int(s.get("qty", 1))
    liked = st.in_wishlist(ctx.store, p.id)

    def toggle_like() -> None:
        now_in = st.toggle_wishlist(ctx.store, p.id)
        ctx.toast("Added to wishlist" if now_in else "Removed from wishlist")

    def chosen() -> dict[str, str] | None:
        for name in p.options:
            if name not in opts:
                ctx.toast(f"Select a {name.lower()}")
                return None
        return {k: opts[k] for k in p.options}

    def add() -> None:
        o = chosen()
        if o is None:
            return
        st.add_to_cart(ctx.store, p.id, o, qty)
        ctx.toast("Added to cart")

    def buy_now() -> None:
        o = chosen()
        if o is None:
            return
        ctx.push("checkout", buy_now={"product_id": p.id, "options": o, "qty": qty})

    def set_opt(name: str, value: str) -> Handler:
        def h() -> None:
            s["opts"] = {**s.get("opts", {}), name: value}

        return h

    def set_qty(n: int) -> Handler:
        return lambda: s.__setitem__("qty", max(1, min(st.MAX_QTY, n)))

    heart = w.icon_button("heart", "Remove from wishlist" if liked else "Add to wishlist",
                          toggle_like, rid="wishlist_button", theme=THEME,
                          color=DEAL_RED if liked else THEME.outline, selected=liked)
    info: list[View] = [
        Text(f"Brand: {p.brand}" if p.category != "Books" else f"by {p.brand}", size=14,
             color=THEME.primary, rid="brand"),
        Text(p.name, size=22, color=THEME.on_surface, rid="product_title"),
        rating_row(p, 14),
        Divider(),
    ]
    if p.on_deal:
        info.append(Text("Limited time deal", size=12, weight="medium", color=(255, 255, 255),
                         bg=DEAL_RED, radius=dp(4), padding=(dp(8), dp(3), dp(8), dp(3)),
                         max_lines=1, width=None, rid="deal_badge"))
    info.append(price_row(p, 28))
    info.append(Text(_arrival_text(ctx, p) if p.in_stock else "Currently unavailable. "
                     "We don't know when or if this item will be back in stock.",
                     size=14, color=GREEN if p.in_stock else DEAL_RED, rid="stock"))
    for name, values in p.options.items():
        pick = opts.get(name)
        info.append(Text(f"{name}: {pick or 'Select'}", size=16, weight="medium",
                         color=THEME.on_surface, rid=f"option_label_{name.lower()}"))
        info.append(w.wrap_row([option_chip(v, v == pick, set_opt(name, v),
                                            rid=f"option_{name.lower()}",
                                            enabled=p.in_stock) for v in values],
                               1080 - 2 * M))
    info.append(Row([Text("Quantity", size=16, weight="medium", flex=1,
                          color=THEME.on_surface),
                     qty_stepper(qty, set_qty(qty - 1), set_qty(qty + 1))],
                    padding=(0, dp(4), 0, dp(4))))
    info += [Divider(), Text("About this item", size=18, weight="medium",
                             color=THEME.on_surface),
             Text(p.description, size=15, color=THEME.on_surface_variant, rid="description"),
             Divider(), *_reviews(p)]
    offset, on_scroll = ctx.scroll()
    pic = Image(tint=p.tint, glyph=p.glyph, height=dp(300), radius=dp(16), desc=p.name,
                rid="product_image")
    actions = Row([w.button("Add to cart", add, style="tonal", rid="add_to_cart", flex=1,
                            theme=THEME, enabled=p.in_stock, height=dp(48)),
                   w.button("Buy now", buy_now, rid="buy_now", flex=1, theme=THEME,
                            enabled=p.in_stock, height=dp(48))],
                  gap=dp(12), padding=(M, dp(12), M, dp(12)), bg=THEME.surface_container)
    body = Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=THEME, color=THEME.on_surface),
             View(flex=1, in_dump=False), heart, cart_button(ctx)],
            gap=dp(4), height=dp(64), padding=(dp(4), 0, dp(4), 0), rid="toolbar",
            cls="android.widget.LinearLayout"),
        Scroll([Column([pic], padding=(M, 0, M, 0)),
                Column(info, gap=dp(12), padding=(M, dp(8), M, dp(24)))],
               offset=offset, on_scroll=on_scroll, cls="android.widget.ScrollView",
               rid="product_scroll"),
        actions,
    ], bg=THEME.surface)
    return Page(body)


def _reviews(p: cat.Product) -> list[View]:
    kids: list[View] = [
        Text("Customer reviews", size=18, weight="medium", color=THEME.on_surface),
        Row([Text(f"{p.rating:.1f}", size=36, color=THEME.on_surface, rid="average_rating"),
             Column([stars(p.rating, 16),
                     Text(f"{p.review_count:,} global ratings", size=13,
                          color=THEME.on_surface_variant)], gap=dp(4))], gap=dp(16)),
    ]
    for r in p.reviews:
        kids.append(Column([
            Row([Icon("circle_user", size=22, box=28, color=THEME.outline, in_dump=False),
                 Text(r["author"], size=14, weight="medium", color=THEME.on_surface)],
                gap=dp(8)),
            Row([stars(r["stars"], 12), Text(f"{r['stars']} out of 5", size=12,
                                             color=THEME.on_surface_variant)], gap=dp(8)),
            Text(r["text"], size=14, color=THEME.on_surface, rid="review_text"),
        ], gap=dp(4), padding=(0, dp(8), 0, dp(8)), rid="review"))
    return kids


def _bind(fn: Callable[[str], None], value: str) -> Callable[[], None]:
    return lambda: fn(value)
