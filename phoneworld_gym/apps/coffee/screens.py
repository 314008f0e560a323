"""Coffee screens: the menu, a drink with its size, milk and syrup (on the drinks that take
one), checkout with payment, the order
(with its number and "Share to chat"), and past orders."""

from __future__ import annotations

from phoneworld_gym.app import Page
from phoneworld_gym.apps.coffee import store as cf
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import mini_app_bar
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

CREAM = (250, 244, 236)
WHITE = (255, 255, 255)


def header(ctx: Ctx, title: str, *, back: bool = True, actions: list[View] | None = None) -> Row:
    """The brown brand bar every Coffee screen has."""
    return mini_app_bar(ctx, title, back=back, actions=actions or ())


def menu(ctx: Ctx) -> View:
    """The menu: every drink with its medium price; the receipt button lists past orders."""
    offset, on_scroll = ctx.scroll()
    rows: list[View] = [Column([
        Text("Bean There", size=24, weight="bold", color=ctx.theme.primary, rid="brand"),
        Text(f"Pickup at {ctx.store['shop']}", size=14, color=ctx.theme.on_surface_variant,
             rid="shop"),
    ], gap=dp(4), padding=(w.MARGIN, dp(16), w.MARGIN, dp(8)))]
    for d in ctx.store["menu"]:
        rows.append(w.list_item(
            d["name"], subtitle=d["about"], rid="drink", theme=ctx.theme,
            leading=Icon("mug_hot", size=22, box=48, color=WHITE, bg=ctx.theme.primary,
                         radius=dp(24)),
            trailing=Text(f"${d['price']:.2f}", size=16, weight="medium",
                          color=ctx.theme.primary, rid="drink_price"),
            on_click=ctx.go("drink", drink=d["id"]), desc=f"{d['name']}, ${d['price']:.2f}"))
    return Column([
        header(ctx, "Order coffee", actions=[w.icon_button(
            "receipt", "My orders", ctx.go("orders"), rid="my_orders", theme=ctx.theme)]),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="menu_list"),
    ], bg=CREAM)


def _chips(ctx: Ctx, key: str, options: tuple[tuple[str, float], ...], chosen: str) -> View:
    chips: list[View] = []
    for name, extra in options:
        label = name + (f" +${extra:.2f}" if extra > 0 else "")
        chip = w.chip(label, selected=name == chosen, on_click=ctx.setter(key, name),
                      rid=f"{key}_option", theme=ctx.theme)
        chip.desc = name
        chips.append(chip)
    return w.wrap_row(chips, 1080 - 2 * w.MARGIN)


def drink(ctx: Ctx) -> View:
    """One drink: size and milk chips (Medium, Whole milk to start), syrup chips (No syrup to
    start) when the drink takes one, the price, Checkout."""
    d = cf.drink(ctx.store, int(ctx.args["drink"]))
    size = ctx.state.get("size", "Medium")
    milk = ctx.state.get("milk", "Whole milk")
    syrup = ctx.state.get("syrup", "No syrup") if d["syrups"] else "No syrup"
    total = cf.price(ctx.store, d["id"], size, milk, syrup)
    syrups: list[View] = [
        Text("Syrup", size=16, weight="medium", color=ctx.theme.on_surface),
        _chips(ctx, "syrup", cf.SYRUPS, syrup)] if d["syrups"] else []
    body = Column([
        # a shorter picture where the syrups need the room
        Row([Icon("mug_hot", size=72, box=dp(72 if d["syrups"] else 140),
                  color=ctx.theme.primary, in_dump=False)],
            bg=ctx.theme.primary_container, in_dump=False),
        Column([Text(d["name"], size=24, weight="medium", color=ctx.theme.on_surface,
                     rid="drink_name"),
                Text(d["about"], size=14, color=ctx.theme.on_surface_variant)], gap=dp(4)),
        Text("Size", size=16, weight="medium", color=ctx.theme.on_surface),
        _chips(ctx, "size", cf.SIZES, size),
        Text("Milk", size=16, weight="medium", color=ctx.theme.on_surface),
        _chips(ctx, "milk", cf.MILKS, milk),
        *syrups,
    ], gap=dp(12), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)), flex=1)
    bottom = Row([Text(f"${total:.2f}", size=22, weight="bold", color=ctx.theme.primary,
                       flex=1, rid="total"),
                  w.button("Checkout", ctx.go("checkout", drink=d["id"], size=size, milk=milk,
                                            syrup=syrup),
                           rid="checkout", theme=ctx.theme, width=dp(160))],
                 padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)), bg=WHITE)
    return Column([header(ctx, d["name"]), body, bottom], bg=CREAM)


def checkout(ctx: Ctx) -> Page:
    """The order summary, the pickup shop and the total; Pay asks to confirm."""
    a = ctx.args
    d = cf.drink(ctx.store, int(a["drink"]))
    syrup = a.get("syrup", "No syrup")
    total = cf.price(ctx.store, d["id"], a["size"], a["milk"], syrup)
    lines = [("Drink", d["name"]), ("Size", a["size"]), ("Milk", a["milk"]),
             *([("Syrup", syrup)] if syrup != "No syrup" else []),
             ("Pickup", ctx.store["shop"]), ("Pay with", "Chat Pay")]
    rows: list[View] = [Row([Text(k, size=15, color=ctx.theme.on_surface_variant,
                                  width=dp(96)),
                             Text(v, size=15, color=ctx.theme.on_surface, flex=1,
                                  rid=f"summary_{k.lower().replace(' ', '_')}")])
                        for k, v in lines]
    rows.append(Row([Text("Total", size=18, weight="medium", color=ctx.theme.on_surface,
                          flex=1),
                     Text(f"${total:.2f}", size=18, weight="bold", color=ctx.theme.primary,
                          rid="checkout_total")]))
    body = Column([header(ctx, "Checkout"),
                   w.card(rows, theme=ctx.theme, elevated=True),
                   View(flex=1, in_dump=False),
                   Row([w.button(f"Pay ${total:.2f}", ctx.show_dialog("pay"), rid="pay",
                                 theme=ctx.theme, flex=1)],
                       padding=(w.MARGIN, dp(12), w.MARGIN, dp(16)))],
                  gap=dp(12), bg=CREAM)

    def pay() -> None:
        o = cf.place(ctx.store, d["id"], a["size"], a["milk"], ctx.now, syrup=syrup)
        ctx.close_dialog()
        ctx.replace("order", order=o["id"])

    dlg = None
    if ctx.dialog == "pay":
        dlg = w.dialog("Confirm payment", f"Pay ${total:.2f} to Bean There with Chat Pay?",
                       [("Cancel", ctx.close_dialog), ("Pay", pay)], theme=ctx.theme)
    return Page(body, dialog=dlg)


def order(ctx: Ctx) -> View:
    """One order: the number to listen for, what it is, its status, and Share to chat."""
    o = cf.order(ctx.store, int(ctx.args["order"]))
    if o is None:
        return Column([header(ctx, "Order"), Text("Order not found", size=16,
                                                  rid="empty_text")], bg=CREAM)
    text = cf.summary(o, ctx.store["shop"])
    body = Column([
        Text("Your order number", size=14, align="center", color=ctx.theme.on_surface_variant),
        Text(o["number"], size=48, weight="bold", align="center", color=ctx.theme.primary,
             rid="order_number"),
        Text(o["status"], size=16, align="center", color=ctx.theme.on_surface,
             rid="order_status"),
        w.card([Text(f"{o['size']} {o['drink']}", size=18, weight="medium",
                     color=ctx.theme.on_surface, rid="order_drink"),
                Text(o["milk"], size=15, color=ctx.theme.on_surface_variant, rid="order_milk"),
                *([Text(f"{o['syrup']} syrup", size=15, color=ctx.theme.on_surface_variant,
                        rid="order_syrup")] if o["syrup"] != "No syrup" else []),
                Text(f"${o['price']:.2f}", size=15, color=ctx.theme.on_surface,
                     rid="order_price"),
                Text(ctx.store["shop"], size=14, color=ctx.theme.on_surface_variant)],
               theme=ctx.theme, elevated=True),
        w.button("Share to chat", ctx.share_to_host(text=text), rid="share_to_chat",
                 theme=ctx.theme, icon="share"),
        w.button("Back to menu", lambda: ctx.reset_to("menu"), style="text",
                 rid="back_to_menu", theme=ctx.theme),
    ], gap=dp(16), padding=(w.MARGIN, dp(24), w.MARGIN, dp(16)), flex=1)
    return Column([header(ctx, "Order"), body], bg=CREAM)


def orders(ctx: Ctx) -> View:
    """Past orders, newest first."""
    rows: list[View] = []
    for o in sorted(ctx.store["orders"], key=lambda o: -o["id"]):
        rows.append(w.list_item(f"{o['number']} · {o['size']} {o['drink']}",
                                subtitle=f"{o['milk']}"
                                + (f", {o['syrup']} syrup" if o["syrup"] != "No syrup" else "")
                                + f" · ${o['price']:.2f} · {o['status']}",
                                rid="past_order", theme=ctx.theme,
                                on_click=_open(ctx, o["id"])))
    if not rows:
        rows.append(Text("No orders yet", size=16, align="center", rid="empty_text",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0)))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "My orders"),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="order_list")],
                  bg=CREAM)


def _open(ctx: Ctx, order_id: int) -> Handler:
    return ctx.go("order", order=order_id)
