"""Bike screens: the stations with bikes, e-bikes and free docks (and the ride in progress),
a station's bikes (classic or e-bike) with Unlock, the ride with "End ride" at a station, the
receipt with "Share to chat", and past rides."""

from __future__ import annotations

from phoneworld_gym.app import Page
from phoneworld_gym.apps.bike import store as bk
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import mini_app_bar
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

WHITE = (255, 255, 255)


def header(ctx: Ctx, title: str, *, back: bool = True, actions: list[View] | None = None) -> Row:
    """The green CityBike bar, with the mini-program's close button."""
    return mini_app_bar(ctx, title, back=back, actions=actions or ())


def stations(ctx: Ctx) -> View:
    """Every station with its bikes and free docks; a banner for the ride in progress."""
    offset, on_scroll = ctx.scroll()
    ride = bk.active(ctx.store)
    rows: list[View] = []
    if ride is not None:
        rows.append(w.card([Text(f"Riding {ride['bike']} from {ride['start']}", size=16,
                                 weight="medium", color=ctx.theme.on_primary_container),
                            Text("Tap to end your ride", size=14,
                                 color=ctx.theme.on_primary_container)],
                           on_click=ctx.go("ride"), rid="active_ride", theme=ctx.theme,
                           desc=f"Active ride {ride['bike']}"))
    rows.append(Row([Icon("map", size=48, box=dp(96), color=ctx.theme.primary,
                          in_dump=False)], bg=ctx.theme.primary_container, in_dump=False))
    rows.append(w.section("Stations", theme=ctx.theme))
    for s in ctx.store["stations"]:
        n = len(s["bikes"])
        free = s["docks"] - n
        e = sum(bk.electric(b) for b in s["bikes"])
        rows.append(w.list_item(
            s["name"], subtitle=f"{n} bikes{f' ({e} e-bike)' if e else ''} · {free} free docks",
            rid="station",
            theme=ctx.theme, leading=Icon("bicycle", size=20, box=44, color=WHITE,
                                          bg=ctx.theme.primary if n else ctx.theme.outline,
                                          radius=dp(22)),
            on_click=ctx.go("station", station=s["id"]),
            desc=f"{s['name']}, {n} bikes, {free} free docks"))
    return Column([header(ctx, "CityBike", actions=[w.icon_button(
        "history", "My rides", ctx.go("rides"), rid="my_rides", theme=ctx.theme)]),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="station_list")],
        bg=ctx.theme.surface)


def station(ctx: Ctx) -> View:
    """One station: its bikes, each with Unlock (not while another ride is active)."""
    s = bk.station(ctx.store, int(ctx.args["station"]))
    riding = bk.active(ctx.store) is not None

    def unlock(bike: str) -> Handler:
        def h() -> None:
            bk.unlock(ctx.store, s["id"], bike)
            ctx.replace("ride")

        return h

    rows: list[View] = [Text(f"{len(s['bikes'])} bikes · {s['docks'] - len(s['bikes'])} free "
                             "docks", size=15, color=ctx.theme.on_surface_variant,
                             rid="availability", padding=(w.MARGIN, dp(12), w.MARGIN, dp(8)))]
    if riding:
        rows.append(Text("End your current ride before unlocking another bike", size=14,
                         color=ctx.theme.error, rid="ride_warning",
                         padding=(w.MARGIN, 0, w.MARGIN, dp(8))))
    for b in s["bikes"]:
        button = w.button("Unlock", None if riding else unlock(b), enabled=not riding,
                          rid="unlock", theme=ctx.theme)
        button.desc = f"Unlock {b}"
        kind = f"E-bike · battery {bk.battery(b)}%" if bk.electric(b) else \
            "Classic bike · battery n/a"
        rows.append(w.list_item(b, subtitle=kind, rid="bike", theme=ctx.theme,
                                leading=Icon("bolt" if bk.electric(b) else "bicycle", size=20,
                                             color=ctx.theme.primary),
                                trailing=button))
    if not s["bikes"]:
        rows.append(Text("No bikes here right now", size=16, align="center", rid="empty_text",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(32), 0, 0)))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, s["name"]),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="bike_list")],
                  bg=ctx.theme.surface)


def ride(ctx: Ctx) -> Page:
    """The ride in progress: End ride asks where the bike is docked."""
    r = bk.active(ctx.store)
    if r is None:
        return Page(Column([header(ctx, "Ride"), Text("No ride in progress", size=16,
                                                      rid="empty_text")],
                           bg=ctx.theme.surface))
    body = Column([
        header(ctx, "Ride in progress"),
        Column([Icon("bicycle", size=80, box=dp(160), color=ctx.theme.primary, in_dump=False),
                Text(r["bike"], size=32, weight="bold", align="center",
                     color=ctx.theme.on_surface, rid="ride_bike"),
                Text(f"From {r['start']}", size=16, align="center",
                     color=ctx.theme.on_surface_variant, rid="ride_start"),
                Text(f"${bk.UNLOCK_FEE:.2f} to unlock + ${bk.PER_MINUTE:.2f}/min", size=14,
                     align="center", color=ctx.theme.on_surface_variant)],
               gap=dp(12), padding=(w.MARGIN, dp(24), w.MARGIN, dp(24))),
        View(flex=1, in_dump=False),
        Row([w.button("End ride", ctx.show_dialog("end"), rid="end_ride", theme=ctx.theme,
                      flex=1)], padding=(w.MARGIN, dp(12), w.MARGIN, dp(16))),
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "end":
        def dock(sid: int) -> Handler:
            def h() -> None:
                done = bk.end(ctx.store, sid)
                ctx.close_dialog()
                ctx.replace("receipt", ride=done["id"])

            return h

        choices: list[View] = [
            w.list_item(s["name"], subtitle=f"{s['docks'] - len(s['bikes'])} free docks",
                        rid="dock_station", theme=ctx.theme, on_click=dock(s["id"]))
            for s in ctx.store["stations"] if len(s["bikes"]) < s["docks"]]
        dlg = w.dialog("Dock at which station?", "", [("Cancel", ctx.close_dialog)],
                       theme=ctx.theme, body=[Column(choices)])
    return Page(body, dialog=dlg)


def receipt(ctx: Ctx) -> View:
    """A finished ride: route, minutes, fare; Share to chat."""
    r = next((x for x in ctx.store["rides"] if x["id"] == int(ctx.args["ride"])), None)
    if r is None:
        return Column([header(ctx, "Receipt"), Text("Ride not found", size=16,
                                                    rid="empty_text")], bg=ctx.theme.surface)
    lines = [("Bike", r["bike"]), ("From", r["start"]), ("To", r["end"]),
             ("Time", f"{r['minutes']} min")]
    card = w.card([*(Row([Text(k, size=15, color=ctx.theme.on_surface_variant, width=dp(80)),
                          Text(v, size=15, color=ctx.theme.on_surface, flex=1,
                               rid=f"receipt_{k.lower()}")]) for k, v in lines),
                   Row([Text("Fare", size=18, weight="medium", color=ctx.theme.on_surface,
                             flex=1),
                        Text(f"${r['fare']:.2f}", size=18, weight="bold",
                             color=ctx.theme.primary, rid="receipt_fare")])],
                  theme=ctx.theme, elevated=True)
    return Column([header(ctx, "Ride receipt"),
                   Column([Text("Ride complete", size=22, weight="medium", align="center",
                                color=ctx.theme.primary, rid="receipt_title"), card,
                           w.button("Share to chat", ctx.share_to_host(text=bk.receipt(r)),
                                    rid="share_to_chat", theme=ctx.theme),
                           w.button("Done", lambda: ctx.reset_to("stations"), style="text",
                                    rid="done", theme=ctx.theme)],
                          gap=dp(16), padding=(w.MARGIN, dp(24), w.MARGIN, dp(16)), flex=1)],
                  bg=ctx.theme.surface)


def rides(ctx: Ctx) -> View:
    """Past rides, newest first; a finished one opens its receipt."""
    rows: list[View] = []
    for r in sorted(ctx.store["rides"], key=lambda r: -r["id"]):
        if r["status"] == "active":
            rows.append(w.list_item(f"{r['bike']} · riding", subtitle=f"From {r['start']}",
                                    rid="past_ride", theme=ctx.theme, on_click=ctx.go("ride")))
        else:
            rows.append(w.list_item(f"{r['start']} → {r['end']}",
                                    subtitle=f"{r['bike']} · {r['minutes']} min · "
                                             f"${r['fare']:.2f}",
                                    rid="past_ride", theme=ctx.theme,
                                    on_click=ctx.go("receipt", ride=r["id"])))
    if not rows:
        rows.append(Text("No rides yet", size=16, align="center", rid="empty_text",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0)))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "My rides"),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="ride_list")],
                  bg=ctx.theme.surface)
