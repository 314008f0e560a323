"""Food screens for finding something to eat, like DoorDash's: the home feed (where it
delivers, search, cuisine tiles, the order on its way, every restaurant), search over
restaurants and dishes, and a restaurant's menu with the options sheet a dish opens (size,
extras, quantity, "Add to cart"; a cart from another restaurant asks before starting anew)."""

from __future__ import annotations

from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.food import store as fs
from phoneworld_gym.apps.food import widgets as fw
from phoneworld_gym.apps.food.catalogue import RESTAURANTS, SIZES, Dish
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import controls
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.sheets import bottom_sheet
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

CUISINES: tuple[tuple[str, str], ...] = tuple((r.cuisine, r.glyph) for r in RESTAURANTS)


# -- home ----------------------------------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """Home: the delivery address, a search bar, cuisine tiles (a tap filters, again clears),
    the live order's banner and the restaurants (open ones first)."""
    th = ctx.theme
    st = ctx.store
    cuisine = str(ctx.state.get("cuisine", ""))
    offset, on_scroll = ctx.scroll()
    head = Column([
        Text("Deliver now", size=13, color=th.on_surface_variant),
        Row([Icon("location_dot", size=16, box=20, color=th.primary, in_dump=False),
             Text(f"Home · {st['addresses']['Home'].split(',')[0]}", size=17, weight="bold",
                  color=th.on_surface, max_lines=1, flex=1, rid="deliver_to")], gap=dp(6)),
    ], gap=dp(2), padding=(w.MARGIN, dp(12), w.MARGIN, dp(4)), bg=fw.WHITE)
    search = Row([Icon("search", size=18, box=24, color=th.on_surface_variant, in_dump=False),
                  Text("Search restaurants or dishes", size=16, color=th.on_surface_variant,
                       flex=1, in_dump=False)],
                 gap=dp(12), height=dp(48), radius=dp(24), bg=th.surface_container,
                 padding=(dp(16), 0, dp(16), 0), on_click=lambda: ctx.reset_to("search"),
                 rid="search_bar", text="Search restaurants or dishes", flex=1,
                 cls="android.widget.EditText")
    rows: list[View] = [Row([search], padding=(w.MARGIN, dp(4), w.MARGIN, dp(8))),
                        _cuisine_tiles(ctx, cuisine)]
    live = [o for o in st["orders"] if o["status"] in ("Preparing", "On the way")]
    for o in live[-1:]:
        r = fs.restaurant(st, o["restaurant"])
        rows.append(Row([Row([
            Icon("motorcycle", size=20, box=40, radius=dp(20), color=fw.WHITE, bg=th.primary,
                 in_dump=False),
            Column([Text(f"{o['status']} · {r['name'] if r else ''}", size=15, weight="bold",
                         color=th.on_surface, max_lines=1),
                    Text(f"Arrives at {fw.eta_time(o)}", size=14,
                         color=th.on_surface_variant, rid="live_eta")], flex=1)],
            gap=dp(12), padding=(dp(12), dp(10), dp(12), dp(10)), radius=dp(12),
            bg=th.primary_container, on_click=ctx.go("order", order=o["id"]),
            rid="live_order", desc="Track order", cls="android.widget.LinearLayout", flex=1)],
            padding=(w.MARGIN, dp(4), w.MARGIN, dp(4))))
    shown = [r for r in st["restaurants"] if not cuisine or r["cuisine"] == cuisine]
    shown.sort(key=lambda r: not r["open"])
    rows.append(w.section(f"{cuisine} near you" if cuisine else "All restaurants", theme=th))
    rows += [fw.restaurant_card(ctx, r) for r in shown]
    rows.append(w.spacer(dp(16)))
    kids: list[View] = [head, Scroll(rows, offset=offset, on_scroll=on_scroll,
                                     rid="home_feed", bg=fw.WHITE)]
    cb = fw.cart_bar(ctx)
    if cb is not None:
        kids.append(cb)
    kids.append(fw.nav(ctx, "main"))
    return Page(Column(kids, bg=fw.WHITE))


def _cuisine_tiles(ctx: Ctx, chosen: str) -> Column:
    th = ctx.theme
    tiles: list[View] = []
    for name, glyph in CUISINES:
        on = name == chosen
        tiles.append(Column([
            Row([View(flex=1, in_dump=False),
                 Icon(glyph, size=22, box=52, radius=dp(26),
                      color=fw.WHITE if on else th.primary,
                      bg=th.primary if on else th.primary_container, in_dump=False),
                 View(flex=1, in_dump=False)], in_dump=False),
            Text(name, size=12, align="center", color=th.on_surface, max_lines=1,
                 weight="bold" if on else "regular", in_dump=False)],
            gap=dp(4), flex=1, on_click=ctx.setter("cuisine", "" if on else name),
            desc=name, selected=on, rid="cuisine_tile", cls="android.widget.Button"))
    return Column([Row(tiles[:4], gap=dp(4)), Row(tiles[4:], gap=dp(4))], gap=dp(8),
                  padding=(dp(8), dp(4), dp(8), dp(8)))


# -- search --------------------------------------------------------------------------------------
def search(ctx: Ctx) -> View | Page:
    """Search restaurants (by name or cuisine) and dishes (a dish opens its restaurant with
    the dish's options sheet)."""
    th = ctx.theme
    query, on_query = ctx.field("q")
    q = query.strip().lower()
    offset, on_scroll = ctx.scroll()
    rows: list[View] = []
    if q:
        places = [r for r in ctx.store["restaurants"]
                  if q in r["name"].lower() or q in r["cuisine"].lower()]
        found = [(r, did, d) for r in ctx.store["restaurants"]
                 for did, d in fs.dishes(r["id"]) if q in d.name.lower()]
        if places:
            rows.append(w.section("Restaurants", theme=th))
            rows += [fw.restaurant_card(ctx, r) for r in places]
        if found:
            rows.append(w.section("Dishes", theme=th))
            for r, did, d in found:
                sold = did in r["sold_out"]
                rows.append(w.list_item(
                    d.name, subtitle=f"{r['name']} · " + ("Sold out" if sold
                                                         else fs.money(d.price)),
                    on_click=_to_dish(ctx, r, did, d), rid="dish_result",
                    theme=th, desc=f"{d.name}, {r['name']}",
                    leading=Icon(RESTAURANTS[r["id"] - 1].glyph, size=18, box=40,
                                 radius=dp(8), color=th.primary, bg=th.primary_container,
                                 in_dump=False)))
        if not places and not found:
            rows.append(Text(f'No results for "{query.strip()}"', size=16, align="center",
                             color=th.on_surface_variant, padding=(0, dp(48), 0, 0),
                             rid="empty_text"))
    else:
        rows.append(w.section("Top cuisines", theme=th))
        for name, glyph in CUISINES:
            rows.append(w.list_item(name, on_click=_set_query(on_query, name), theme=th,
                                    rid="cuisine_suggestion",
                                    leading=Icon(glyph, size=18, box=24, color=th.primary,
                                                 in_dump=False)))
    field = w.text_field("q", query, on_text=on_query, hint="Search restaurants or dishes",
                         rid="search_src_text", outlined=False, flex=1)
    body = Column([
        Row([Icon("search", size=18, box=48, color=th.on_surface_variant, in_dump=False),
             field], gap=dp(4), height=dp(64), padding=(dp(8), 0, w.MARGIN, 0),
            bg=th.surface_container),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_results", bg=fw.WHITE),
        fw.nav(ctx, "search"),
    ], bg=fw.WHITE)
    return Page(body)


def _to_dish(ctx: Ctx, r: dict[str, Any], did: int, d: Dish) -> Handler:
    """A dish found by search: its restaurant's page with the dish's options sheet open (just
    the page when the dish cannot be ordered now)."""
    def h() -> None:
        ctx.push("restaurant", id=r["id"], state=_sheet_state(did, d)
                 if r["open"] and did not in r["sold_out"] else None)
    return h


def _sheet_state(did: int, d: Dish) -> dict[str, Any]:
    """A restaurant screen's state with a dish's options sheet open, nothing chosen yet."""
    return {"_dialog": "options", "opt_dish": did, "opt_size": fs.default_size(d),
            "opt_extras": [], "opt_qty": 1}


def _set_query(on_query: Any, value: str) -> Handler:
    return lambda: on_query(value)


# -- a restaurant ----------------------------------------------------------------------------------
def restaurant(ctx: Ctx) -> View | Page:
    """A restaurant: picture, rating, address (a tap opens it in a maps app), delivery fee and
    time, save to favourites, and its menu by category; sold-out dishes are greyed out, and a
    closed restaurant shows when it opens. A dish opens the options sheet."""
    th = ctx.theme
    st = ctx.store
    r = fs.restaurant(st, ctx.args.get("id"))
    if r is None:
        return Page(Column([fw.bar(ctx, "Restaurant"),
                            Text("This restaurant is not available.", size=16,
                                 padding=(w.MARGIN,) * 4, rid="empty_text")], bg=fw.WHITE))
    fav = r["id"] in st["favorites"]

    def toggle_fav() -> None:
        if fav:
            st["favorites"].remove(r["id"])
            ctx.toast("Removed from saved stores")
        else:
            st["favorites"].append(r["id"])
            st["favorites"].sort()
            ctx.toast("Saved")

    actions: list[View] = [
        w.icon_button("heart", "Remove from saved stores" if fav else "Save store", toggle_fav,
                      rid="favorite", theme=th, selected=fav,
                      color=th.primary if fav else None),
        w.icon_button("share", "Share", ctx.share(text=f"{r['name']}, {r['address']}",
                                                  subject=r["name"]), rid="share", theme=th),
    ]
    info: list[View] = [
        fw.picture(r, width=None, height=dp(140), radius=dp(16)),
        Text(r["name"], size=26, weight="bold", color=th.on_surface, rid="restaurant_title"),
        fw.rating_row(ctx, f"{fw.rating(r)} ratings · {r['cuisine']}", "restaurant_rating"),
        Row([Icon("location_dot", size=16, box=24, color=th.primary, in_dump=False),
             Text(r["address"], size=14, color=th.on_surface, flex=1, max_lines=2,
                  rid="restaurant_address")], gap=dp(6),
            on_click=ctx.open_uri(intents.uri_for("geo", r["address"])),
            desc=f"Address: {r['address']}", rid="address_row",
            cls="android.widget.LinearLayout"),
        Row([_stat(ctx, "$0" if r["fee"] == 0 else fs.money(r["fee"]), "delivery fee",
                   "delivery_fee"),
             _stat(ctx, f"{r['eta_min']}–{r['eta_max']}", "min", "delivery_time")], gap=dp(12)),
    ]
    if not r["open"]:
        info.append(Row([Icon("clock", size=18, box=24, color=th.error, in_dump=False),
                         Text(f"Closed now · Opens at {r['opens']}", size=15, weight="bold",
                              color=th.error, flex=1, rid="closed_banner")],
                        gap=dp(8), radius=dp(12), bg=(253, 236, 234),
                        padding=(dp(12), dp(10), dp(12), dp(10))))
    rows: list[View] = [Column(info, gap=dp(8), padding=(w.MARGIN, dp(4), w.MARGIN, dp(4)))]
    category = ""
    for did, d in fs.dishes(r["id"]):
        if d.category != category:
            category = d.category
            rows.append(w.section(category, theme=th))
        rows.append(_dish_row(ctx, r, did, d))
    rows.append(w.spacer(dp(24)))
    offset, on_scroll = ctx.scroll()
    kids: list[View] = [fw.bar(ctx, r["name"], actions=actions),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="menu_list",
                               bg=fw.WHITE)]
    cb = fw.cart_bar(ctx)
    if cb is not None:
        kids.append(cb)
    dlg = None
    if ctx.dialog == "options":
        dlg = options_sheet(ctx, r)
    elif ctx.dialog == "new_cart":
        dlg = _new_cart_dialog(ctx, r)
    return Page(Column(kids, bg=fw.WHITE), dialog=dlg)


def _stat(ctx: Ctx, value: str, label: str, rid: str) -> Column:
    th = ctx.theme
    return Column([Text(value, size=16, weight="bold", color=th.on_surface, align="center",
                        rid=rid),
                   Text(label, size=12, color=th.on_surface_variant, align="center")],
                  flex=1, radius=dp(12), border=th.outline_variant, border_width=3,
                  padding=(dp(8), dp(8), dp(8), dp(8)))


def _dish_row(ctx: Ctx, r: dict[str, Any], did: int, d: Dish) -> View:
    """A dish of the menu: name, description, price; "Sold out" and no tap when it is."""
    th = ctx.theme
    sold = did in r["sold_out"]
    price: View = (Text("Sold out", size=14, weight="bold", color=th.error, rid="sold_out")
                   if sold else Text(fs.money(d.price), size=15, weight="medium",
                                     color=th.on_surface, rid="dish_price"))
    lines: list[View] = [Text(d.name, size=16, weight="medium", max_lines=1, rid="dish_name",
                              color=fw.GREY if sold else th.on_surface),
                         Text(d.about, size=14, color=fw.GREY if sold else th.on_surface_variant,
                              max_lines=1),
                         price]

    def tapped() -> None:
        if not r["open"]:
            ctx.toast(f"{r['name']} is closed. Opens at {r['opens']}")
            return
        ctx.state.update(_sheet_state(did, d))

    glyph = RESTAURANTS[r["id"] - 1].glyph
    return fw.spaced(Row(
        [Column(lines, flex=1, gap=dp(2)),
         Icon(glyph, size=26, box=72, radius=dp(12),
              color=fw.WHITE if not sold else (230, 230, 230),
              bg=RESTAURANTS[r["id"] - 1].tint if not sold else (200, 200, 200),
              in_dump=False)],
        gap=dp(12), padding=(w.MARGIN, 0, w.MARGIN, 0), height=dp(72),
        on_click=None if sold else tapped, enabled=not sold, rid="dish_row",
        desc=f"{d.name}, sold out" if sold else f"{d.name}, {fs.money(d.price)}",
        cls="android.widget.LinearLayout"))


def options_sheet(ctx: Ctx, r: dict[str, Any]) -> View:
    """The options sheet of a dish: its size (radio buttons), extras (checkboxes), the
    quantity stepper and "Add to cart" with the line's price."""
    th = ctx.theme
    st = ctx.state
    did = int(st["opt_dish"])
    _, d = fs.dish(did)
    size = str(st.get("opt_size", ""))
    extras: list[str] = list(st.get("opt_extras", []))
    qty = int(st.get("opt_qty", 1))
    unit = fs.unit_price(did, size, extras)
    kids: list[View] = [Column([
        Text(d.name, size=22, weight="bold", color=th.on_surface, rid="sheet_dish"),
        Text(d.about, size=14, color=th.on_surface_variant)], gap=dp(2),
        padding=(dp(24), 0, dp(24), dp(8)))]
    sizes = SIZES[d.sizes]
    if sizes:
        kids.append(_group_title(ctx, "Size", "Required"))
        kids.append(Column([controls.radio_button(
            label + (f" (+{fs.money(extra)})" if extra else ""), label == size,
            ctx.setter("opt_size", label), rid="size_option", theme=th)
            for label, extra in sizes], cls="android.widget.RadioGroup", rid="size_group",
            padding=(dp(16), 0, dp(16), 0)))
    offered = fs.extras_of(r["id"], d)
    if offered:
        kids.append(_group_title(ctx, "Extras", "Optional"))

        def flip(name: str) -> Handler:
            def h() -> None:
                now = list(ctx.state.get("opt_extras", []))
                ctx.state["opt_extras"] = [e for e in now if e != name] if name in now \
                    else now + [name]
            return h

        kids.append(Column([controls.checkbox(
            name + (f" (+{fs.money(price)})" if price else ""), name in extras, flip(name),
            rid="extra_option", theme=th) for name, price in offered],
            padding=(dp(24), 0, dp(24), 0)))

    def add() -> None:
        cart = ctx.store["cart"]
        if cart["restaurant"] not in (None, r["id"]):
            ctx.state["_dialog"] = "new_cart"
            return
        _add(ctx, did, size, extras, qty)

    total = fs.money(unit * qty)
    kids.append(Row([
        w.icon_button("minus", "Decrease quantity", ctx.setter("opt_qty", max(1, qty - 1)),
                      rid="qty_minus", theme=th),
        Text(str(qty), size=18, weight="bold", align="center", width=dp(32),
             color=th.on_surface, rid="qty"),
        w.icon_button("plus", "Increase quantity",
                      ctx.setter("opt_qty", min(fs.MAX_QTY, qty + 1)), rid="qty_plus",
                      theme=th),
        w.button(f"Add to cart · {total}", add, rid="add_to_cart", theme=th, flex=1,
                 height=dp(48)),
    ], gap=dp(8), padding=(dp(16), dp(12), dp(24), 0)))
    return bottom_sheet("", kids, theme=th)


def _group_title(ctx: Ctx, title: str, note: str) -> Row:
    th = ctx.theme
    return Row([Text(title, size=17, weight="bold", color=th.on_surface, flex=1),
                Text(note, size=12, weight="medium", color=th.on_surface_variant,
                     radius=dp(8), bg=th.surface_high, padding=(dp(8), dp(2), dp(8), dp(2)))],
               padding=(dp(24), dp(8), dp(24), dp(2)))


def _add(ctx: Ctx, did: int, size: str, extras: list[str], qty: int) -> None:
    fs.add_line(ctx.store, did, size, extras, qty)
    for k in ("opt_dish", "opt_size", "opt_extras", "opt_qty"):
        ctx.state.pop(k, None)
    ctx.close_dialog()
    ctx.toast(f"Added {qty} to cart")


def _new_cart_dialog(ctx: Ctx, r: dict[str, Any]) -> View:
    """Asked when the cart holds another restaurant's dishes: start a new cart or keep it."""
    other = fs.restaurant(ctx.store, ctx.store["cart"]["restaurant"])
    st = ctx.state

    def new_cart() -> None:
        fs.clear_cart(ctx.store)
        _add(ctx, int(st["opt_dish"]), str(st.get("opt_size", "")),
             list(st.get("opt_extras", [])), int(st.get("opt_qty", 1)))

    def keep() -> None:
        st["_dialog"] = "options"

    return w.dialog("Start a new cart?",
                    f"Your cart has items from {other['name'] if other else 'another store'}. "
                    f"Clear it to add items from {r['name']}.",
                    [("Cancel", keep), ("New cart", new_cart)], theme=ctx.theme)
