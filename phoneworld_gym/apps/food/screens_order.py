"""Food screens from the cart on: the cart (quantities, remove), checkout (delivery address
from the owner's home or work, Dasher tip, payment card, the totals, Place order), an order's
tracking page (status steps, estimated arrival, details, cancel while it is being prepared,
reorder, share), the order history and the account (addresses, cards, saved stores)."""

from __future__ import annotations

from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.food import store as fs
from phoneworld_gym.apps.food import widgets as fw
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp


def _line_row(ctx: Ctx, ln: dict[str, Any], *, editable: bool) -> Row:
    """A cart or order line: quantity, name, options, price; in the cart, a stepper."""
    th = ctx.theme
    _, d = fs.dish(ln["dish"])
    unit = ln.get("unit", fs.unit_price(ln["dish"], ln["size"], ln["extras"]))
    opts = fs.line_options(ln["size"], ln["extras"])
    lines: list[View] = [Text(d.name, size=16, weight="medium", color=th.on_surface,
                              max_lines=1, rid="line_name")]
    if opts:
        lines.append(Text(opts, size=14, color=th.on_surface_variant, max_lines=2,
                          rid="line_options"))
    lines.append(Text(fs.money(unit * ln["qty"]), size=14, color=th.on_surface,
                      rid="line_price"))
    kids: list[View] = []
    if not editable:
        kids.append(Text(f"{ln['qty']}×", size=16, weight="bold", color=th.primary,
                         width=dp(36), rid="line_qty"))
    kids.append(Column(lines, flex=1, gap=dp(2)))
    if editable:
        lid = ln["id"]

        def down() -> None:
            fs.set_qty(ctx.store, lid, ln["qty"] - 1)

        kids.append(Row([
            w.icon_button("trash" if ln["qty"] == 1 else "minus",
                          f"Remove {d.name}" if ln["qty"] == 1 else f"Decrease {d.name}",
                          down, rid="line_minus", theme=th, size=18),
            Text(str(ln["qty"]), size=16, weight="bold", align="center", width=dp(24),
                 color=th.on_surface, rid="line_qty"),
            w.icon_button("plus", f"Increase {d.name}",
                          lambda: fs.set_qty(ctx.store, lid, ln["qty"] + 1), rid="line_plus",
                          theme=th, size=18),
        ], radius=dp(24), border=th.outline_variant, border_width=3))
    return Row(kids, gap=dp(8), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)),
               rid="cart_line" if editable else "order_line")


def _sum_row(ctx: Ctx, label: str, value: str, rid: str, *, bold: bool = False) -> Row:
    th = ctx.theme
    weight = "bold" if bold else "regular"
    return Row([Text(label, size=17 if bold else 15, weight=weight, color=th.on_surface,
                     flex=1),
                Text(value, size=17 if bold else 15, weight=weight, color=th.on_surface,
                     rid=rid)], padding=(w.MARGIN, dp(4), w.MARGIN, dp(4)))


# -- cart ----------------------------------------------------------------------------------------
def cart(ctx: Ctx) -> View | Page:
    """The cart: its restaurant, lines with steppers (minus at one removes), the subtotal and
    "Go to checkout"; an empty cart says so."""
    th = ctx.theme
    st = ctx.store
    r = fs.restaurant(st, st["cart"]["restaurant"])
    if r is None or not st["cart"]["lines"]:
        body = Column([
            Icon("basket_shopping", size=56, box=120, color=th.primary, in_dump=False),
            Text("Your cart is empty", size=20, weight="bold", align="center",
                 color=th.on_surface, rid="empty_text"),
            Text("Add dishes from a restaurant to start an order.", size=14, align="center",
                 color=th.on_surface_variant),
            w.button("Browse restaurants", lambda: ctx.reset_to("main"), rid="browse",
                     theme=th),
        ], gap=dp(12), padding=(dp(32), dp(64), dp(32), 0), flex=1)
        return Page(Column([fw.bar(ctx, "Cart"), body], bg=fw.WHITE))
    rows: list[View] = [
        Row([Text(r["name"], size=20, weight="bold", color=th.on_surface, flex=1,
                  rid="cart_restaurant"),
             w.button("Add items", ctx.go("restaurant", id=r["id"]), style="text",
                      rid="add_items", theme=th)], padding=(w.MARGIN, dp(8), dp(4), dp(4))),
    ]
    rows += [_line_row(ctx, ln, editable=True) for ln in st["cart"]["lines"]]
    rows.append(_sum_row(ctx, "Subtotal", fs.money(fs.cart_subtotal(st)), "cart_subtotal",
                         bold=True))
    offset, on_scroll = ctx.scroll()
    bottom = Row([w.button("Go to checkout", ctx.go("checkout"), rid="checkout", theme=th,
                           flex=1, height=dp(52))],
                 padding=(w.MARGIN, dp(8), w.MARGIN, dp(12)), bg=fw.WHITE)
    return Page(Column([fw.bar(ctx, "Cart"),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="cart_list",
                               bg=fw.WHITE), bottom], bg=fw.WHITE))


# -- checkout ------------------------------------------------------------------------------------
def checkout(ctx: Ctx) -> View | Page:
    """Checkout: where to deliver (Home or Work), the Dasher tip ($3 to start), the card, the
    summary with fees and total, and "Place order" (which opens the new order's tracking)."""
    th = ctx.theme
    st = ctx.store
    r = fs.restaurant(st, st["cart"]["restaurant"])
    if r is None or not st["cart"]["lines"]:
        return Page(Column([fw.bar(ctx, "Checkout"),
                            Text("Your cart is empty", size=16, padding=(w.MARGIN,) * 4,
                                 rid="empty_text", color=th.on_surface)], bg=fw.WHITE))
    where = str(ctx.state.get("address", "Home"))
    tip = float(ctx.state.get("tip", fs.DEFAULT_TIP))
    card = str(ctx.state.get("card", st["cards"][0]))
    subtotal = fs.cart_subtotal(st)
    total = round(subtotal + r["fee"] + tip, 2)
    rows: list[View] = [w.section("Delivery address", theme=th)]
    for label, glyph in (("Home", "home"), ("Work", "building")):
        rows.append(_choice_row(ctx, glyph, label, st["addresses"][label], where == label,
                                ctx.setter("address", label), "address_option"))
    rows.append(Row([Icon("clock", size=18, box=24, color=th.on_surface_variant,
                          in_dump=False),
                     Text(f"Standard · {r['eta_min']}–{r['eta_max']} min", size=15,
                          color=th.on_surface, flex=1, rid="delivery_time")],
                    gap=dp(12), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))))
    rows.append(w.section("Dasher tip", theme=th))
    rows.append(Text("100% of the tip goes to your Dasher.", size=13,
                     color=th.on_surface_variant, padding=(w.MARGIN, 0, w.MARGIN, dp(4))))
    chips: list[View] = []
    for t in fs.TIPS:
        c = w.chip(fs.money(t) if t else "No tip", selected=t == tip,
                   on_click=ctx.setter("tip", t), rid="tip_option", theme=th)
        chips.append(c)
    rows.append(Row(chips, gap=dp(8), padding=(w.MARGIN, dp(4), w.MARGIN, dp(8))))
    rows.append(w.section("Payment", theme=th))
    for c in st["cards"]:
        rows.append(_choice_row(ctx, "credit_card", c, "", card == c, ctx.setter("card", c),
                                "card_option"))
    rows.append(w.section("Summary", theme=th))
    rows += [_sum_row(ctx, "Subtotal", fs.money(subtotal), "summary_subtotal"),
             _sum_row(ctx, "Delivery fee", fs.money(r["fee"]), "summary_fee"),
             _sum_row(ctx, "Dasher tip", fs.money(tip), "summary_tip"),
             _sum_row(ctx, "Total", fs.money(total), "summary_total", bold=True),
             w.spacer(dp(16))]

    def place() -> None:
        if ctx.flaky("place_order"):  # field profile: the first attempt may time out
            return
        o = fs.place_order(st, where, card, tip, ctx.now)
        ctx.reset_to("main")
        ctx.push("order", order=o["id"])
        ctx.toast("Order placed")

    offset, on_scroll = ctx.scroll()
    bottom = Row([w.button(f"Place order · {fs.money(total)}", place, rid="place_order",
                           theme=th, flex=1, height=dp(52))],
                 padding=(w.MARGIN, dp(8), w.MARGIN, dp(12)), bg=fw.WHITE)
    return Page(Column([fw.bar(ctx, "Checkout", subtitle=r["name"]),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="checkout_form",
                               bg=fw.WHITE), bottom], bg=fw.WHITE))


def _choice_row(ctx: Ctx, glyph: str, title: str, subtitle: str, on: bool, pick: Handler,
                rid: str) -> Row:
    """A radio row with a glyph, a title and an optional second line (an address)."""
    th = ctx.theme
    ring: View = Row([View(width=dp(10), height=dp(10), radius=dp(5), bg=th.primary,
                           in_dump=False)] if on else [],
                     width=dp(20), height=dp(20), radius=dp(10), border_width=5,
                     border=th.primary if on else th.on_surface_variant,
                     padding=(dp(5), dp(5), 0, 0), in_dump=False)
    lines: list[View] = [Text(title, size=16, weight="medium", color=th.on_surface,
                              max_lines=1, in_dump=False)]
    if subtitle:
        lines.append(Text(subtitle, size=14, color=th.on_surface_variant, max_lines=2,
                          rid=f"{rid}_detail"))
    return Row([Icon(glyph, size=18, box=24, color=th.on_surface_variant, in_dump=False),
                Column(lines, flex=1), ring],
               gap=dp(16), padding=(w.MARGIN, dp(10), dp(24), dp(10)), on_click=pick,
               text=title, desc=title, checkable=True, checked=on, rid=rid,
               cls="android.widget.RadioButton")


# -- an order --------------------------------------------------------------------------------------
def order(ctx: Ctx) -> View | Page:
    """An order's page: its status and estimated arrival, the tracking steps, what was
    ordered, where it goes, how it was paid; Cancel order while it is being prepared (asks
    first), Reorder once it is over, Share."""
    th = ctx.theme
    st = ctx.store
    o = fs.order(st, ctx.args.get("order"))
    if o is None:
        return Page(Column([fw.bar(ctx, "Order"),
                            Text("Order not found", size=16, padding=(w.MARGIN,) * 4,
                                 rid="empty_text", color=th.on_surface)], bg=fw.WHITE))
    r = fs.restaurant(st, o["restaurant"])
    name = r["name"] if r else ""
    eta = fw.eta_time(o)
    live = o["status"] in ("Preparing", "On the way")
    headline = {"Preparing": "Preparing your order", "On the way": "Your order is on the way",
                "Delivered": "Delivered", "Cancelled": "Order cancelled"}[o["status"]]
    head: list[View] = [Text(headline, size=24, weight="bold", color=th.on_surface,
                             rid="order_status")]
    if live:
        head.append(Row([Text("Estimated arrival", size=15, color=th.on_surface_variant,
                              flex=1),
                         Text(eta, size=22, weight="bold", color=th.primary, rid="eta")]))
    else:
        head.append(Text(f"Placed {fw.placed_words(o)}", size=14,
                         color=th.on_surface_variant, rid="placed"))
    rows: list[View] = [Column(head, gap=dp(6), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))),
                        Column([fw.status_steps(ctx, o)], padding=(w.MARGIN, 0, w.MARGIN, 0))]
    rows.append(w.section(f"{name} · Order #{o['number']}", theme=th))
    rows += [_line_row(ctx, ln, editable=False) for ln in o["lines"]]
    rows += [_sum_row(ctx, "Subtotal", fs.money(o["subtotal"]), "order_subtotal"),
             _sum_row(ctx, "Delivery fee", fs.money(o["fee"]), "order_fee"),
             _sum_row(ctx, "Dasher tip", fs.money(o["tip"]), "order_tip"),
             _sum_row(ctx, "Total", fs.money(o["total"]), "order_total", bold=True)]
    rows.append(w.list_item(o["address_label"], subtitle=o["address"], theme=th,
                            overline="Delivering to" if live else "Delivered to",
                            rid="order_address", subtitle_lines=2,
                            leading=Icon("location_dot", size=18, box=24, color=th.primary,
                                         in_dump=False)))
    rows.append(w.list_item(o["payment"], overline="Paid with", theme=th, rid="order_payment",
                            leading=Icon("credit_card", size=18, box=24, color=th.primary,
                                         in_dump=False)))
    buttons: list[View] = []
    if o["status"] == "Preparing":
        buttons.append(w.button("Cancel order", ctx.show_dialog("cancel"), style="outlined",
                                rid="cancel_order", theme=th, flex=1))
    if not live:
        buttons.append(w.button("Reorder", _reorder(ctx, o), rid="reorder", theme=th, flex=1))
    share_text = (f"My {name} order is on the way, arriving at {eta}." if live
                  else f"My {name} order #{o['number']}.")
    buttons.append(w.button("Share", ctx.share(text=share_text, subject=f"{name} order"),
                            style="tonal", rid="share_order", theme=th, flex=1))
    rows.append(Row(buttons, gap=dp(12), padding=(w.MARGIN, dp(12), w.MARGIN, dp(24))))
    offset, on_scroll = ctx.scroll()
    body = Column([fw.bar(ctx, "Order details"),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="order_page",
                          bg=fw.WHITE)], bg=fw.WHITE)

    def cancel() -> None:
        o["status"] = "Cancelled"
        ctx.close_dialog()
        ctx.toast("Order cancelled")

    dlg = None
    if ctx.dialog == "cancel":
        dlg = w.dialog("Cancel this order?",
                       f"{name} has not started on it yet, so you won't be charged.",
                       [("Keep order", ctx.close_dialog), ("Cancel order", cancel)], theme=th)
    elif ctx.dialog == "new_cart":
        other = fs.restaurant(st, st["cart"]["restaurant"])

        def replace() -> None:
            ctx.close_dialog()
            _do_reorder(ctx, o)

        dlg = w.dialog("Start a new cart?",
                       f"Your cart has items from {other['name'] if other else 'another store'}."
                       f" Clear it to reorder from {name}.",
                       [("Cancel", ctx.close_dialog), ("New cart", replace)], theme=th)
    return Page(body, dialog=dlg)


def _reorder(ctx: Ctx, o: dict[str, Any]) -> Handler:
    def h() -> None:
        cart = ctx.store["cart"]
        if cart["lines"] and cart["restaurant"] != o["restaurant"]:
            ctx.show_dialog("new_cart")()
            return
        _do_reorder(ctx, o)
    return h


def _do_reorder(ctx: Ctx, o: dict[str, Any]) -> None:
    try:
        fs.reorder(ctx.store, o["id"])
    except ValueError as e:
        ctx.toast(str(e)[0].upper() + str(e)[1:])
        return
    ctx.push("cart")


# -- order history -------------------------------------------------------------------------------
def orders(ctx: Ctx) -> View | Page:
    """Orders: the ones in progress, then past orders, newest first."""
    th = ctx.theme
    st = ctx.store
    newest = sorted(st["orders"], key=lambda o: o["placed"], reverse=True)
    live = [o for o in newest if o["status"] in ("Preparing", "On the way")]
    past = [o for o in newest if o not in live]
    rows: list[View] = []
    if live:
        rows.append(w.section("In progress", theme=th))
        rows += [_order_row(ctx, o, f"{o['status']} · Arrives at {fw.eta_time(o)}")
                 for o in live]
    if past:
        rows.append(w.section("Completed", theme=th))
        rows += [_order_row(ctx, o, f"{fw.placed_words(o)} · {o['status']}") for o in past]
    if not rows:
        rows.append(Column([
            Icon("receipt", size=48, box=96, color=th.primary, in_dump=False),
            Text("No orders yet", size=20, weight="bold", align="center", rid="empty_text",
                 color=th.on_surface),
            Text("When you order, it shows here.", size=14, align="center",
                 color=th.on_surface_variant)], gap=dp(8), padding=(0, dp(64), 0, 0)))
    offset, on_scroll = ctx.scroll()
    return Page(Column([fw.bar(ctx, "Orders", back=False),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="order_list",
                               bg=fw.WHITE),
                        fw.nav(ctx, "orders")], bg=fw.WHITE))


def _order_row(ctx: Ctx, o: dict[str, Any], status: str) -> Row:
    th = ctx.theme
    r = fs.restaurant(ctx.store, o["restaurant"])
    n = sum(ln["qty"] for ln in o["lines"])
    name = r["name"] if r else ""
    return w.list_item(name, subtitle=f"{status}\n{n} item{'s' if n != 1 else ''} · "
                                      f"{fs.money(o['total'])}",
                       subtitle_lines=2, rid="order_row", theme=th,
                       desc=f"{name}, {status}",
                       leading=fw.picture(r, width=dp(56), height=dp(56)) if r else None,
                       on_click=ctx.go("order", order=o["id"]))


# -- account -------------------------------------------------------------------------------------
def account(ctx: Ctx) -> View | Page:
    """Account: the owner, the saved addresses and cards, and the saved stores (a tap opens
    one)."""
    th = ctx.theme
    st = ctx.store
    rows: list[View] = [Row([
        w.avatar(st["owner"], th.primary, size=56),
        Column([Text(st["owner"], size=22, weight="bold", color=th.on_surface,
                     rid="owner_name"),
                Text(f"Ordering in {st['city']}", size=14, color=th.on_surface_variant)],
               flex=1)], gap=dp(16), padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)))]
    rows.append(w.section("Saved stores", theme=th))
    saved = [fs.restaurant(st, rid) for rid in st["favorites"]]
    if saved:
        rows += [fw.restaurant_card(ctx, r) for r in saved if r is not None]
    else:
        rows.append(Text("Tap the heart on a store to save it.", size=14,
                         color=th.on_surface_variant, padding=(w.MARGIN, 0, w.MARGIN, dp(8)),
                         rid="no_saved"))
    rows.append(w.section("Addresses", theme=th))
    for label, glyph in (("Home", "home"), ("Work", "building")):
        rows.append(w.list_item(label, subtitle=st["addresses"][label], subtitle_lines=2,
                                theme=th, rid="saved_address",
                                leading=Icon(glyph, size=18, box=24, color=th.primary,
                                             in_dump=False)))
    rows.append(w.section("Payment methods", theme=th))
    rows += [w.list_item(c, theme=th, rid="saved_card",
                         leading=Icon("credit_card", size=18, box=24, color=th.primary,
                                      in_dump=False)) for c in st["cards"]]
    offset, on_scroll = ctx.scroll()
    return Page(Column([fw.bar(ctx, "Account", back=False),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="account_page",
                               bg=fw.WHITE),
                        fw.nav(ctx, "account")], bg=fw.WHITE))
