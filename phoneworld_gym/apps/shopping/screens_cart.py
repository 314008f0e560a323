"""Buying screens: the cart, checkout, the new-address form and the order confirmation."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.apps.shopping.screens_common import (
    GREEN,
    THEME,
    M,
    check_row,
    empty_state,
    go_tab,
    header_card,
    labelled,
    qty_stepper,
    radio_row,
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


def short_date(iso: str) -> str:
    """"Tue, Mar 17"."""
    d = dt.date.fromisoformat(iso[:10])
    return d.strftime("%a, %b ") + str(d.day)


# -- cart
def cart_line(ctx: Ctx, i: int, it: dict[str, Any]) -> View:
    """One cart line: a tappable product summary, then quantity and Delete."""
    p = st.product_of(ctx.store, it)

    def set_q(n: int) -> Handler:
        return lambda: st.set_qty(ctx.store, i, n)

    def delete() -> None:
        st.remove(ctx.store, i)
        ctx.toast(f"Removed {p.name} from cart")

    info: list[View] = [Text(p.name, size=16, max_lines=2, color=THEME.on_surface,
                             rid="cart_item_name")]
    if it["options"]:
        info.append(Text(st.options_text(it["options"]), size=13,
                         color=THEME.on_surface_variant, rid="cart_item_options"))
    info.append(Text(cat.money(p.price), size=18, weight="medium", color=THEME.on_surface,
                     rid="cart_item_price"))
    info.append(Text("In stock" if p.in_stock else "Currently unavailable", size=13,
                     color=GREEN if p.in_stock else (186, 26, 26)))
    summary = Row([Image(tint=p.tint, glyph=p.glyph, width=dp(88), height=dp(88),
                         radius=dp(12), in_dump=False),
                   Column(info, gap=dp(2), flex=1)],
                  gap=M, on_click=ctx.go("product", id=p.id), rid="cart_item",
                  cls="android.widget.LinearLayout")
    controls = Row([qty_stepper(it["qty"], set_q(it["qty"] - 1), set_q(it["qty"] + 1)),
                    View(flex=1, in_dump=False),
                    w.button("Delete", delete, style="outlined", rid="remove_item", theme=THEME),
                    ], gap=dp(8))
    return Column([summary, controls], gap=dp(12), padding=(M, dp(12), M, dp(12)),
                  rid="cart_line")


def cart(ctx: Ctx) -> Page:
    """The cart: lines with quantity steppers, the subtotal and Proceed to checkout."""
    lines = ctx.store["cart"]
    n = st.cart_count(ctx.store)
    head = top_bar(ctx, "Cart", back=ctx.depth > 1)
    if not lines:
        return tab_page(ctx, "cart", [head, Column([empty_state(
            "cart", "Your cart is empty", "Items you add to your cart will show up here.",
            w.button("Start shopping", go_tab(ctx, "home"), rid="start_shopping",
                     theme=THEME))], flex=1)])
    total = st.cart_total(ctx.store)
    rows: list[View] = []
    for i, it in enumerate(lines):
        if i:
            rows.append(Divider(inset=M))
        rows.append(cart_line(ctx, i, it))
    if total < 35:
        note = f"Add {cat.money(35 - total)} more for FREE Standard delivery"
    else:
        note = "Your order qualifies for FREE Standard delivery"
    offset, on_scroll = ctx.scroll()
    footer = Column([
        Row([Text(f"Subtotal ({n} item{'s' if n != 1 else ''})", size=16,
                  color=THEME.on_surface, flex=1),
             Text(cat.money(total), size=20, weight="medium", color=THEME.on_surface,
                  rid="subtotal")]),
        Text(note, size=13, color=GREEN if total >= 35 else THEME.on_surface_variant),
        w.button("Proceed to checkout", ctx.go("checkout"), rid="checkout", theme=THEME,
                 height=dp(48)),
    ], gap=dp(8), padding=(M, dp(12), M, dp(12)), bg=THEME.surface_container)
    return tab_page(ctx, "cart", [head, Scroll(rows, offset=offset, on_scroll=on_scroll,
                                               rid="cart_list"), footer])


# -- checkout
def _checkout_items(ctx: Ctx) -> list[dict[str, Any]]:
    bn = ctx.args.get("buy_now")
    return [bn] if bn else list(ctx.store["cart"])


def checkout(ctx: Ctx) -> Page:
    """Checkout: address, delivery and payment choices, the summary and Place order. With
    ``buy_now={"product_id", "options", "qty"}`` only that item is ordered; otherwise the
    cart."""
    store, s = ctx.store, ctx.state
    items = _checkout_items(ctx)
    if not items:
        return Page(Column([top_bar(ctx, "Checkout"), empty_state(
            "cart", "Nothing to check out", "Your cart is empty.")], bg=THEME.surface))
    addr_id = s.get("address_id", store["default_address"])
    if st.find_address(store, addr_id) is None and store["addresses"]:
        addr_id = store["addresses"][0]["id"]
    delivery = s.get("delivery", "Standard")
    pay_id = s.get("payment_id", store["default_payment"])
    subtotal = st.items_subtotal(store, items)
    ship = st.shipping_cost(subtotal, delivery)

    def place() -> None:
        if st.find_address(store, addr_id) is None:
            ctx.toast("Add a shipping address")
            return
        if ctx.flaky("place_order"):  # field profile: the first attempt may time out
            return
        order = st.place_order(store, address_id=addr_id, delivery=delivery,
                               payment_id=pay_id, now=ctx.now,
                               items=items if ctx.args.get("buy_now") else None)
        ctx.replace("confirmation", order_id=order["id"])
        ctx.notify(f"Order {order['id']} placed", "We'll let you know when it ships.",
                   "order", id=order["id"])

    addr_rows: list[View] = [Text("Shipping address", size=18, weight="medium",
                                  color=THEME.on_surface)]
    for a in store["addresses"]:
        tag = "  (Default)" if a["id"] == store["default_address"] else ""
        r = radio_row(f"{a['name']} · {a['label']}{tag}", a["id"] == addr_id,
                      ctx.setter("address_id", a["id"]), subtitle=st.address_lines(a),
                      rid="address_option")
        r.padding = (0, dp(8), 0, dp(8))
        addr_rows.append(r)
    addr_rows.append(w.button("+ Add a new address", ctx.go("address_form", select=True),
                              style="text", rid="add_address", theme=THEME))
    del_rows: list[View] = [Text("Delivery", size=18, weight="medium", color=THEME.on_surface)]
    for name in st.DELIVERY:
        cost = st.shipping_cost(subtotal, name)
        first, last = st.arrival(ctx.now, name)
        r = radio_row(name, name == delivery, ctx.setter("delivery", name),
                      subtitle=f"Arrives {short_date(first)} – {short_date(last)}",
                      trailing=Text("FREE" if cost == 0 else cat.money(cost), size=16,
                                    weight="medium", color=GREEN if cost == 0 else
                                    THEME.on_surface),
                      rid="delivery_option")
        r.padding = (0, dp(8), 0, dp(8))
        del_rows.append(r)
    pay_rows: list[View] = [Text("Payment method", size=18, weight="medium",
                                 color=THEME.on_surface)]
    for pm in store["payments"]:
        r = radio_row(pm["label"], pm["id"] == pay_id, ctx.setter("payment_id", pm["id"]),
                      rid="payment_option")
        r.padding = (0, dp(8), 0, dp(8))
        pay_rows.append(r)
    summary: list[View] = [Text("Order summary", size=18, weight="medium",
                                color=THEME.on_surface)]
    for it in items:
        p = st.product_of(store, it)
        opt = f" ({', '.join(it['options'].values())})" if it["options"] else ""
        summary.append(Row([Text(f"{it['qty']} × {p.name}{opt}", size=14, max_lines=2,
                                 color=THEME.on_surface, flex=1, rid="summary_item"),
                            Text(cat.money(p.price * it["qty"]), size=14,
                                 color=THEME.on_surface)], gap=dp(12)))
    summary += [Divider(), labelled("Items", cat.money(subtotal), rid="summary_subtotal"),
                labelled("Delivery", "FREE" if ship == 0 else cat.money(ship),
                         rid="summary_shipping"),
                labelled("Order total", cat.money(subtotal + ship), bold=True,
                         rid="summary_total")]
    offset, on_scroll = ctx.scroll()
    content = Column([header_card(addr_rows, rid="address_section"),
                      header_card(del_rows, rid="delivery_section"),
                      header_card(pay_rows, rid="payment_section"),
                      header_card(summary, rid="summary_section")],
                     gap=dp(12), padding=(M, dp(8), M, dp(16)))
    footer = Row([Column([Text("Order total", size=13, color=THEME.on_surface_variant),
                          Text(cat.money(subtotal + ship), size=20, weight="medium",
                               color=THEME.on_surface, rid="order_total")], flex=1),
                  w.button("Place order", place, rid="place_order", theme=THEME,
                           height=dp(48))],
                 gap=M, padding=(M, dp(12), M, dp(12)), bg=THEME.surface_container)
    return Page(Column([top_bar(ctx, "Checkout"),
                        Scroll([content], offset=offset, on_scroll=on_scroll,
                               cls="android.widget.ScrollView", rid="checkout_scroll"),
                        footer], bg=THEME.surface_container))


# -- new address
FORM = (("name", "Full name"), ("street", "Street address"), ("city", "City"),
        ("state", "State"), ("zip", "ZIP code"))


def address_form(ctx: Ctx) -> Page:
    """A new shipping address. Arg ``select``: also choose it on the checkout underneath."""
    values: dict[str, str] = {}
    fields: list[View] = []
    for key, label in FORM:
        default = ctx.store["user"]["name"] if key == "name" else ""
        value, on_text = ctx.field(key, default)
        values[key] = value
        fields.append(w.text_field(key, value, on_text=on_text, label=label,
                                   rid=f"field_{key}"))
    make_default = bool(ctx.state.get("make_default", False))

    def toggle_default() -> None:
        ctx.state["make_default"] = not make_default

    def save() -> None:
        err = st.validate_address(values)
        if err:
            ctx.toast(err)
            return
        a = st.add_address(ctx.store, **values, make_default=make_default)
        # handed back to the checkout that asked for a new address
        ctx.pop({"address_id": a["id"]} if ctx.args.get("select") else None)
        ctx.toast("Address saved")

    offset, on_scroll = ctx.scroll()
    fields.append(check_row("Make this my default address", make_default, toggle_default,
                            rid="make_default"))
    fields.append(w.button("Save address", save, rid="save_address", theme=THEME,
                           height=dp(48)))
    return Page(Column([top_bar(ctx, "Add a new address"),
                        Scroll(fields, gap=dp(16), offset=offset, on_scroll=on_scroll,
                               padding=(M, dp(8), M, dp(16)),
                               cls="android.widget.ScrollView")], bg=THEME.surface))


# -- confirmation
def confirmation(ctx: Ctx) -> Page:
    """Order placed: the order number, delivery estimate and where to go next."""
    o = st.find_order(ctx.store, ctx.args["order_id"])
    assert o is not None, ctx.args
    first, last = st.arrival(o["date"], o["delivery"])

    def done() -> None:
        ctx.reset_to("home")

    def view_order() -> None:
        ctx.reset_to("account")
        ctx.push("orders")
        ctx.push("order", id=o["id"])

    n = sum(it["qty"] for it in o["items"])
    body = Column([
        top_bar(ctx, "Order placed", back=False, actions=[
            w.icon_button("close", "Close", done, rid="close",
                          theme=THEME)]),
        Column([
            Row([View(flex=1, in_dump=False),
                 Icon("circle_check", size=72, box=96, color=GREEN, in_dump=False),
                 View(flex=1, in_dump=False)], in_dump=False),
            Text("Thank you, your order has been placed", size=22, align="center",
                 color=THEME.on_surface, rid="confirmation_title"),
            Text(f"Order number {o['id']}", size=16, weight="medium", align="center",
                 color=THEME.primary, rid="order_number"),
            Text(f"{n} item{'s' if n != 1 else ''} · {cat.money(o['total'])} · "
                 f"{o['delivery']} delivery", size=14, align="center",
                 color=THEME.on_surface_variant),
            Text(f"Arriving {short_date(first)} – {short_date(last)}", size=16,
                 align="center", color=GREEN, rid="arrival"),
            Text(f"Shipping to {o['address']['name']}, {st.address_lines(o['address'])}",
                 size=14, align="center", color=THEME.on_surface_variant),
            w.button("View order", view_order, rid="view_order", theme=THEME,
                     height=dp(48)),
            w.button("Continue shopping", done, style="outlined",
                     rid="continue_shopping", theme=THEME, height=dp(48)),
        ], gap=dp(16), padding=(dp(24), dp(40), dp(24), dp(24))),
    ], bg=THEME.surface)
    def back() -> bool:
        done()
        return True

    return Page(body, on_back=back)
