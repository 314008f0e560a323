"""Parcel screens: my parcels, one parcel's tracking timeline (with "Share to chat"), and
the delivery options (a home time window or a pickup locker)."""

from __future__ import annotations

import dataclasses

from phoneworld_gym.app import Page
from phoneworld_gym.apps.parcel import store as pc
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import mini_app_bar
from phoneworld_gym.ui.view import Column, Icon, Row, Scroll, Text, View, dp

WHITE = (255, 255, 255)
INK = (33, 33, 33)


def header(ctx: Ctx, title: str) -> Row:
    """The yellow courier bar, with the mini-program's close button."""
    return mini_app_bar(ctx, title, fg=INK)


def parcels(ctx: Ctx) -> View:
    """Parcels in transit first, then delivered ones."""
    rows: list[View] = []
    for p in sorted(ctx.store["parcels"], key=lambda p: (p["status"] == "Delivered", p["id"])):
        rows.append(w.list_item(
            f"{p['item']} from {p['sender']}", subtitle=f"{p['status']} · {p['day']}",
            leading=Icon("box" if p["status"] == "Delivered" else "truck_fast", size=20,
                         box=44, color=INK, bg=ctx.theme.primary_container, radius=dp(22)),
            rid="parcel", theme=ctx.theme, on_click=ctx.go("parcel", parcel=p["id"]),
            desc=f"{p['item']} from {p['sender']}, {p['status']}, {p['day']}"))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "My parcels"),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="parcel_list")],
                  bg=ctx.theme.surface)


def parcel(ctx: Ctx) -> View:
    """One parcel: status, expected day, delivery option, the tracking timeline."""
    p = pc.parcel(ctx.store, int(ctx.args["parcel"]))
    moving = p["status"] == "In transit"
    timeline: list[View] = [Row([Icon("circle_check", size=16, color=ctx.theme.outline,
                                      in_dump=False),
                                 Column([Text(text, size=15, color=ctx.theme.on_surface),
                                         Text(when, size=12,
                                              color=ctx.theme.on_surface_variant)], flex=1)],
                                gap=dp(12)) for when, text in reversed(p["events"])]
    kids: list[View] = [
        Text(p["status"], size=24, weight="bold", color=ctx.theme.on_surface,
             rid="parcel_status"),
        Text(("Expected " if moving else "Delivered ") + p["day"], size=16,
             color=ctx.theme.on_surface, rid="parcel_day"),
        Text(p["delivery"], size=15, color=ctx.theme.on_surface_variant,
             rid="parcel_delivery"),
        Text(f"Tracking {p['tracking']}", size=13, color=ctx.theme.on_surface_variant,
             rid="parcel_tracking"),
    ]
    if moving:
        kids.append(w.button("Change delivery", ctx.go("delivery", parcel=p["id"]),
                             rid="change_delivery", theme=ctx.theme, style="tonal"))
    kids.append(w.button("Share to chat", ctx.share_to_host(text=pc.summary(p)),
                         rid="share_to_chat", theme=ctx.theme))
    kids.append(w.section("Tracking", theme=ctx.theme))
    kids.extend(timeline)
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, p["item"]),
                   Scroll([Column(kids, gap=dp(12), padding=(w.MARGIN, dp(16), w.MARGIN,
                                                             dp(16)))],
                          offset=offset, on_scroll=on_scroll, rid="parcel_detail")],
                  bg=ctx.theme.surface)


def delivery(ctx: Ctx) -> Page:
    """Delivery options: a home time window on the expected day, or a pickup locker; a tap
    asks to confirm."""
    p = pc.parcel(ctx.store, int(ctx.args["parcel"]))
    rows: list[View] = [w.section(f"Home delivery, {p['day']}", theme=ctx.theme)]
    for win in pc.WINDOWS:
        choice = f"Home, {win}"
        rows.append(w.list_item(win, rid="window", theme=ctx.theme,
                                trailing=Icon("check", size=18, color=ctx.theme.on_surface)
                                if p["delivery"] == choice else None,
                                on_click=ctx.show_dialog("confirm", choice=choice)))
    rows.append(w.section("Pick up from a locker", theme=ctx.theme))
    for locker in pc.LOCKERS:
        choice = f"Locker: {locker}"
        rows.append(w.list_item(locker, rid="locker", theme=ctx.theme,
                                trailing=Icon("check", size=18, color=ctx.theme.on_surface)
                                if p["delivery"] == choice else None,
                                on_click=ctx.show_dialog("confirm", choice=choice)))
    dlg = None
    if ctx.dialog == "confirm":
        choice = str(ctx.state["_dialog_data"]["choice"])

        def ok() -> None:
            pc.redirect(ctx.store, p["id"], choice)
            ctx.close_dialog()
            ctx.pop()
            ctx.toast("Delivery updated")

        ink = dataclasses.replace(ctx.theme, primary=(120, 90, 0))  # yellow text is unreadable
        dlg = w.dialog("Change delivery?", f"{p['item']}: {choice}",
                       [("Cancel", ctx.close_dialog), ("Confirm", ok)], theme=ink)
    offset, on_scroll = ctx.scroll()
    return Page(Column([header(ctx, "Delivery options"),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="option_list")],
                       bg=ctx.theme.surface), dialog=dlg)


