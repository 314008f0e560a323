"""Account screens: the account hub, orders and an order (cancel, return), the return form,
the wishlist, saved addresses and payment methods."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.apps.shopping.screens_cart import short_date
from phoneworld_gym.apps.shopping.screens_common import (
    DEAL_RED,
    GREEN,
    THEME,
    M,
    check_row,
    empty_state,
    header_card,
    labelled,
    option_chip,
    price_row,
    rating_row,
    shop,
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

STATUS_COLORS = {"Processing": (0, 99, 155), "Shipped": (120, 80, 0), "Delivered": GREEN,
                 "Cancelled": DEAL_RED, "Return requested": (110, 60, 140)}


def long_date(iso: str) -> str:
    """"March 12, 2026"."""
    d = dt.date.fromisoformat(iso[:10])
    return d.strftime("%B ") + f"{d.day}, {d.year}"


def status_line(o: dict[str, Any]) -> str:
    """What the order list says about an order's progress."""
    first, last = st.arrival(o["date"], o["delivery"])
    if o["status"] in ("Processing", "Shipped"):
        return f"{o['status']} · Arriving {short_date(first)} – {short_date(last)}"
    if o["status"] == "Delivered":
        return f"Delivered {short_date(last)}"
    return str(o["status"])


# -- account
def account(ctx: Ctx) -> Page:
    """The account hub: greeting, orders, wishlist, addresses, payment methods."""
    user = ctx.store["user"]
    n_orders = len(ctx.store["orders"])
    n_wish = len(ctx.store["wishlist"])
    header = Row([w.avatar(user["name"], THEME.primary, size=56),
                  Column([Text(f"Hello, {user['name'].split()[0]}", size=22,
                               color=THEME.on_surface, rid="greeting"),
                          Text(user["email"], size=14, color=THEME.on_surface_variant)],
                         flex=1, gap=dp(2))],
                 gap=M, padding=(M, dp(16), M, dp(16)))

    def entry(icon: str, title: str, sub: str, screen: str, rid: str) -> View:
        return w.list_item(title, subtitle=sub, rid=rid, on_click=ctx.go(screen), theme=THEME,
                           leading=Icon(icon, size=20, box=40, color=THEME.primary,
                                        in_dump=False),
                           trailing=Icon("chevron_right", size=14, box=24, in_dump=False))

    rows: list[View] = [
        header, Divider(),
        entry("box", "Your orders", f"{n_orders} orders · track, cancel or return",
              "orders", "your_orders"),
        entry("heart", "Your wishlist", f"{n_wish} saved item{'s' if n_wish != 1 else ''}",
              "wishlist", "your_wishlist"),
        entry("location", "Your addresses", f"{len(ctx.store['addresses'])} saved addresses",
              "addresses", "your_addresses"),
        entry("card", "Payment methods", f"{len(ctx.store['payments'])} cards", "payments",
              "payment_methods"),
    ]
    offset, on_scroll = ctx.scroll()
    return tab_page(ctx, "account", [top_bar(ctx, "Account", back=False),
                                     Scroll(rows, offset=offset, on_scroll=on_scroll)])


# -- orders
def order_row(ctx: Ctx, o: dict[str, Any]) -> View:
    """An order in the list: first item's picture, number, date, status, total."""
    p = st.product_of(ctx.store, o["items"][0])
    more = len(o["items"]) - 1
    what = p.name + (f" and {more} more item{'s' if more > 1 else ''}" if more else "")
    col = Column([
        Text(status_line(o), size=14, weight="medium",
             color=STATUS_COLORS.get(o["status"], THEME.on_surface), rid="order_status"),
        Text(what, size=15, max_lines=2, color=THEME.on_surface, rid="order_items"),
        Text(f"{o['id']} · {long_date(o['date'])} · {cat.money(o['total'])}", size=13,
             color=THEME.on_surface_variant, rid="order_id"),
    ], gap=dp(2), flex=1)
    return Row([Image(tint=p.tint, glyph=p.glyph, width=dp(64), height=dp(64),
                      radius=dp(10), in_dump=False), col,
                Icon("chevron_right", size=14, box=24, in_dump=False)],
               gap=M, padding=(M, dp(12), dp(8), dp(12)), on_click=ctx.go("order", id=o["id"]),
               rid="order_row", cls="android.widget.LinearLayout")


def orders(ctx: Ctx) -> Page:
    """Every order, newest first."""
    rows: list[View] = []
    for i, o in enumerate(st.orders_newest_first(ctx.store)):
        if i:
            rows.append(Divider(inset=M))
        rows.append(order_row(ctx, o))
    if not rows:
        rows.append(empty_state("box", "No orders yet", "Orders you place show up here."))
    offset, on_scroll = ctx.scroll()
    return Page(Column([top_bar(ctx, "Your orders"),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="order_list")],
                       bg=THEME.surface))


def order(ctx: Ctx) -> Page:
    """One order: status, items (tap to open), address, payment, summary, and Cancel order
    (Processing, with a confirmation dialog) or Return items (Delivered)."""
    o = st.find_order(ctx.store, ctx.args["id"])
    if o is None:
        return Page(Column([top_bar(ctx, "Order"), Text("This order no longer exists.",
                                                        padding=(M, M, M, M))]))

    def do_cancel() -> None:
        st.cancel_order(ctx.store, o["id"])
        ctx.close_dialog()
        ctx.toast("Order cancelled")

    color = STATUS_COLORS.get(o["status"], THEME.on_surface)
    head = header_card([
        Text(f"Order {o['id']}", size=18, weight="medium", color=THEME.on_surface,
             rid="order_number"),
        Text(f"Placed on {long_date(o['date'])}", size=14, color=THEME.on_surface_variant,
             rid="order_date"),
        Text(status_line(o), size=16, weight="medium", color=color, rid="order_status"),
    ] + ([Text(f"Return reason: {o['return_reason']}", size=14,
               color=THEME.on_surface_variant)] if o.get("return_reason") else []))
    items: list[View] = [Text("Items", size=18, weight="medium", color=THEME.on_surface)]
    for it in o["items"]:
        p = st.product_of(ctx.store, it)
        lines: list[View] = [Text(p.name, size=15, max_lines=2, color=THEME.on_surface,
                                  rid="order_item_name")]
        if it["options"]:
            lines.append(Text(st.options_text(it["options"]), size=13,
                              color=THEME.on_surface_variant))
        lines.append(Text(f"Qty {it['qty']} · {cat.money(it['price'])}", size=13,
                          color=THEME.on_surface_variant))
        if it.get("returned"):
            lines.append(Text("Return requested", size=13, color=STATUS_COLORS[
                "Return requested"]))
        items.append(Row([Image(tint=p.tint, glyph=p.glyph, width=dp(56), height=dp(56),
                                radius=dp(10), in_dump=False), Column(lines, flex=1)],
                         gap=M, padding=(0, dp(6), 0, dp(6)),
                         on_click=ctx.go("product", id=p.id), rid="order_item",
                         cls="android.widget.LinearLayout"))
    a = o["address"]
    ship = header_card([Text("Shipping address", size=18, weight="medium",
                             color=THEME.on_surface),
                        Text(a["name"], size=15, color=THEME.on_surface),
                        Text(st.address_lines(a), size=15, color=THEME.on_surface,
                             rid="order_address"),
                        Text(f"{o['delivery']} delivery", size=14,
                             color=THEME.on_surface_variant, rid="order_delivery")])
    pay = header_card([Text("Payment", size=18, weight="medium", color=THEME.on_surface),
                       Text(o["payment"], size=15, color=THEME.on_surface, rid="order_payment"),
                       Divider(),
                       labelled("Items", cat.money(o["subtotal"])),
                       labelled("Delivery", "FREE" if not o["shipping"]
                                else cat.money(o["shipping"])),
                       labelled("Order total", cat.money(o["total"]), bold=True,
                                rid="order_total")])
    actions: list[View] = []
    if st.can_cancel(o):
        actions.append(w.button("Cancel order", ctx.show_dialog("cancel"), style="outlined",
                                rid="cancel_order", theme=THEME, height=dp(48)))
    if st.can_return(o):
        actions.append(w.button("Return items", ctx.go("return_items", id=o["id"]),
                                style="outlined", rid="return_items", theme=THEME,
                                height=dp(48)))
    offset, on_scroll = ctx.scroll()
    content = Column([head, header_card(items, rid="order_items"), ship, pay, *actions],
                     gap=dp(12), padding=(M, dp(8), M, dp(24)))
    dlg = None
    if ctx.dialog == "cancel":
        dlg = w.dialog("Cancel this order?",
                       f"Order {o['id']} will be cancelled and you won't be charged.",
                       [("Keep order", ctx.close_dialog), ("Cancel order", do_cancel)],
                       theme=THEME)
    return Page(Column([top_bar(ctx, "Order details"),
                        Scroll([content], offset=offset, on_scroll=on_scroll,
                               cls="android.widget.ScrollView")],
                       bg=THEME.surface_container), dialog=dlg)


def return_items(ctx: Ctx) -> Page:
    """Choose which items of a Delivered order to return, and why."""
    o = st.find_order(ctx.store, ctx.args["id"])
    assert o is not None
    s = ctx.state
    chosen: list[int] = s.get("chosen", [])  # rendering reads; handlers write
    reason = s.get("reason", "")

    def toggle(i: int) -> Handler:
        def h() -> None:
            s["chosen"] = [j for j in chosen if j != i] if i in chosen else [*chosen, i]
        return h

    def submit() -> None:
        if not chosen:
            ctx.toast("Select the items to return")
            return
        if not reason:
            ctx.toast("Select a reason")
            return
        st.request_return(ctx.store, o["id"], sorted(chosen), reason)
        ctx.pop()
        ctx.toast("Return requested")

    rows: list[View] = [Text("Which items are you returning?", size=18, weight="medium",
                             color=THEME.on_surface, padding=(M, dp(8), M, 0))]
    for i, it in enumerate(o["items"]):
        p = st.product_of(ctx.store, it)
        sub = st.options_text(it["options"]) or f"Qty {it['qty']}"
        rows.append(check_row(p.name, i in chosen, toggle(i), subtitle=sub, rid="return_item",
                              leading=Image(tint=p.tint, glyph=p.glyph, width=dp(48),
                                            height=dp(48), radius=dp(8), in_dump=False)))
    rows.append(Text("Reason for return", size=18, weight="medium", color=THEME.on_surface,
                     padding=(M, dp(16), M, 0)))
    chips = [option_chip(r, r == reason, ctx.setter("reason", r), rid="return_reason")
             for r in st.RETURN_REASONS]
    rows.append(Column([w.wrap_row(chips, 1080 - 2 * M)], padding=(M, 0, M, 0)))
    rows.append(Column([w.button("Submit return request", submit, rid="submit_return",
                                 theme=THEME, height=dp(48))], padding=(M, dp(16), M, 0)))
    offset, on_scroll = ctx.scroll()
    return Page(Column([top_bar(ctx, "Return items", subtitle=f"Order {o['id']}"),
                        Scroll(rows, gap=dp(8), offset=offset, on_scroll=on_scroll,
                               cls="android.widget.ScrollView")], bg=THEME.surface))


# -- wishlist
def wishlist(ctx: Ctx) -> Page:
    """Saved products: open one, remove it, or move it to the cart."""
    rows: list[View] = []
    for pid in list(ctx.store["wishlist"]):
        p = shop(ctx).product(pid)

        def remove(pid: str = pid) -> None:
            st.remove_from_wishlist(ctx.store, pid)
            ctx.toast("Removed from wishlist")

        def move(p: cat.Product = p) -> None:
            if not p.in_stock:
                ctx.toast("This item is currently unavailable")
            elif p.options:
                ctx.push("product", id=p.id)
                ctx.toast(f"Select a {next(iter(p.options)).lower()}")
            else:
                st.move_to_cart(ctx.store, p.id)
                ctx.toast("Moved to cart")

        summary = Row([Image(tint=p.tint, glyph=p.glyph, width=dp(88), height=dp(88),
                             radius=dp(12), in_dump=False),
                       Column([Text(p.name, size=16, max_lines=2, color=THEME.on_surface,
                                    rid="wishlist_item_name"),
                               rating_row(p, 13), price_row(p, 18),
                               Text("In stock" if p.in_stock else "Currently unavailable",
                                    size=13, color=GREEN if p.in_stock else DEAL_RED)],
                              gap=dp(2), flex=1)],
                      gap=M, on_click=ctx.go("product", id=p.id), rid="wishlist_item",
                      cls="android.widget.LinearLayout")
        buttons = Row([w.button("Move to cart", move, style="tonal", rid="move_to_cart",
                                theme=THEME, enabled=p.in_stock),
                       w.button("Remove", remove, style="outlined", rid="remove_wishlist",
                                theme=THEME)], gap=dp(8))
        if rows:
            rows.append(Divider(inset=M))
        rows.append(Column([summary, buttons], gap=dp(12), padding=(M, dp(12), M, dp(12))))
    if not rows:
        rows.append(empty_state("heart", "Your wishlist is empty",
                                "Tap the heart on a product to save it for later."))
    offset, on_scroll = ctx.scroll()
    return Page(Column([top_bar(ctx, "Your wishlist"),
                        Scroll(rows, offset=offset, on_scroll=on_scroll,
                               rid="wishlist_list")], bg=THEME.surface))


# -- addresses and payments
def addresses(ctx: Ctx) -> Page:
    """Saved addresses: set the default, delete, or add a new one."""
    rows: list[View] = []
    for a in ctx.store["addresses"]:
        is_default = a["id"] == ctx.store["default_address"]

        def make_default(aid: int = a["id"]) -> None:
            st.set_default_address(ctx.store, aid)
            ctx.toast("Default address updated")

        def delete(aid: int = a["id"]) -> None:
            st.delete_address(ctx.store, aid)
            ctx.toast("Address removed")

        btns: list[View] = []
        if not is_default:
            btns.append(w.button("Set as default", make_default, style="tonal",
                                 rid="set_default", theme=THEME))
        btns.append(w.button("Remove", delete, style="outlined", rid="remove_address",
                             theme=THEME))
        rows.append(header_card([
            Text(f"{a['label']}{' · Default' if is_default else ''}", size=13,
                 weight="medium", color=THEME.primary),
            Text(a["name"], size=16, weight="medium", color=THEME.on_surface,
                 rid="address_name"),
            Text(st.address_lines(a), size=15, color=THEME.on_surface, rid="address_lines"),
            Row(btns, gap=dp(8)),
        ], rid="address_card"))
    rows.append(w.button("+ Add a new address", ctx.go("address_form"), style="text",
                         rid="add_address", theme=THEME))
    offset, on_scroll = ctx.scroll()
    return Page(Column([top_bar(ctx, "Your addresses"),
                        Scroll(rows, gap=dp(12), offset=offset, on_scroll=on_scroll,
                               padding=(M, dp(8), M, dp(16)))], bg=THEME.surface))


def payments(ctx: Ctx) -> Page:
    """Saved cards; tap one to make it the default."""
    rows: list[View] = []
    for pm in ctx.store["payments"]:
        is_default = pm["id"] == ctx.store["default_payment"]

        def choose(pid: int = pm["id"]) -> None:
            st.set_default_payment(ctx.store, pid)
            ctx.toast("Default payment method updated")

        rows.append(w.list_item(pm["label"], subtitle="Default" if is_default else
                                "Tap to make default",
                                leading=Icon("card", size=20, box=40, color=THEME.primary,
                                             in_dump=False),
                                on_click=choose, rid="payment_method", theme=THEME))
    offset, on_scroll = ctx.scroll()
    return Page(Column([top_bar(ctx, "Payment methods"),
                        Scroll(rows, offset=offset, on_scroll=on_scroll)],
                       bg=THEME.surface))
