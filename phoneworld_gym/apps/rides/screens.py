"""Ride screens, like Uber's or Lyft's: a map with "Where to?" and saved places, a search
with pickup and destination fields, the ride options with prices (one type unavailable), a
pickup time chosen with the date and time pickers, a confirmation step, the ride in progress
(share its status, cancel), Activity (upcoming scheduled rides and past trips), a receipt, a
scheduled ride (cancel it) and the account with saved places."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.rides import canvas
from phoneworld_gym.apps.rides import store as rs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls, pickers
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import (
    Column,
    Divider,
    Handler,
    Icon,
    Picture,
    Row,
    Scroll,
    Stack,
    Text,
    TextField,
    View,
    dp,
)

ACCENT = (39, 110, 241)
MUTED = (117, 117, 117)
GREEN = (5, 148, 79)
LIGHT = (243, 243, 243)
#: how far ahead a ride can be scheduled
MIN_AHEAD = dt.timedelta(minutes=15)
MAX_AHEAD = dt.timedelta(days=30)


def now(ctx: Ctx) -> dt.datetime:
    """The phone's running clock."""
    return ctx.time()


# -- shared pieces ---------------------------------------------------------------------------
def nav(ctx: Ctx, current: str) -> Row:
    return tab_nav(ctx, [("home", "Home", "main"), ("receipt", "Activity", "activity"),
                         ("circle_user", "Account", "account")], current)


def to_main(ctx: Ctx) -> bool:
    """Back from the Activity or Account tab returns to the Home tab, as in ride apps."""
    ctx.reset_to_root()
    return True


def _map(ctx: Ctx, height: int, a: dict[str, Any] | None = None,
         b: dict[str, Any] | None = None) -> Picture:
    """The map: around the owner's home with cars nearby, or fitted to a route."""
    if a is not None and b is not None:
        span = max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]), 1.0)
        center = ((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2)
        zoom = min(1080 / (span * 1.5), height / (span * 1.6))
        img = functools.partial(canvas.draw, (1080, height),
                                (round(center[0], 2), round(center[1], 2)), round(zoom, 1),
                                route=((a["x"], a["y"]), (b["x"], b["y"])))
    else:
        home = rs.place(ctx.store, "home") or {"x": 0.0, "y": 0.0}
        c = (home["x"], home["y"])
        cars = ((c[0] - 0.6, c[1] + 0.4), (c[0] + 0.9, c[1] + 0.2), (c[0] + 0.3, c[1] - 0.7),
                (c[0] - 1.1, c[1] - 0.5))
        img = functools.partial(canvas.draw, (1080, height), c, 260.0, cars=cars, me=c)
    return Picture(img, height=height, in_dump=False)  # drawn only if the frame is


def _top_left(v: View) -> Column:
    """``v`` in the top left corner of a :class:`Stack` (over the map)."""
    return Column([Row([v, View(flex=1, in_dump=False)]), View(flex=1, in_dump=False)],
                  padding=(dp(12), dp(12), 0, 0))


def _round_back(ctx: Ctx) -> View:
    """The round white back button ride apps float over their map."""
    b = w.icon_button("back", "Navigate up", ctx.pop, theme=ctx.theme,
                      color=ctx.theme.on_surface)
    b.bg = (255, 255, 255)
    b.radius = dp(24)
    return b


def _glyph(kind: str) -> str:
    return {"home": "home", "work": "suitcase", "place": "location_dot",
            "address": "map_pin"}.get(kind, "location_dot")


def place_row(ctx: Ctx, p: dict[str, Any], on_click: Handler, rid: str = "place") -> Row:
    """A place: its glyph in a grey circle, its name and address."""
    lead = Icon(_glyph(p["kind"]), size=18, box=40, radius=dp(20), bg=LIGHT,
                color=ctx.theme.on_surface, in_dump=False)
    sub = p["address"] if p["kind"] != "address" else p["address"].split(", ", 1)[-1]
    return w.list_item(p["name"], subtitle=sub, leading=lead, on_click=on_click, rid=rid,
                       theme=ctx.theme, desc=p["name"])


def _route_line(ctx: Ctx, a: dict[str, Any], b: dict[str, Any]) -> Column:
    """Pickup dot over drop-off square, joined by a line, with both names."""
    th = ctx.theme

    def stop(glyph: str, title: str, sub: str, rid: str) -> Row:
        return Row([Icon(glyph, size=12, box=24, color=th.on_surface, in_dump=False),
                    Column([Text(title, size=16, color=th.on_surface, max_lines=1, rid=rid),
                            Text(sub, size=13, color=MUTED, max_lines=1)], flex=1)],
                   gap=dp(12))

    return Column([stop("circle", a["name"], a["address"], "pickup_name"),
                   Row([View(width=3, height=dp(16), bg=th.on_surface, in_dump=False)],
                       padding=(dp(11), 0, 0, 0), in_dump=False),
                   stop("square", b["name"], b["address"], "dropoff_name")], gap=dp(2))


def _missing(ctx: Ctx, title: str, message: str) -> Page:
    return Page(Column([w.app_bar(title, on_back=ctx.pop, theme=ctx.theme),
                        w.text(message, padding=(w.MARGIN,) * 4, theme=ctx.theme)],
                       bg=ctx.theme.surface))


# -- home ------------------------------------------------------------------------------------
def default_pickup(dropoff: str) -> str:
    """Rides start at Home, or at Work when going home."""
    return "work" if dropoff == "home" else "home"


def main(ctx: Ctx) -> View | Page:
    """The map with cars nearby, "Where to?", the saved places and recent destinations."""
    th = ctx.theme
    st = ctx.store
    offset, on_scroll = ctx.scroll()

    def ride_to(key: str) -> Handler:
        return ctx.go("choose", pickup=default_pickup(key), dropoff=key)

    where = Row([Icon("search", size=20, box=40, color=th.on_surface, in_dump=False),
                 Text("Where to?", size=20, weight="medium", color=th.on_surface, flex=1,
                      in_dump=False),
                 Row([Icon("clock", size=16, box=24, color=th.on_surface, in_dump=False),
                      Text("Now", size=14, weight="medium", color=th.on_surface,
                           in_dump=False)], gap=dp(4), bg=(255, 255, 255), radius=dp(18),
                     padding=(dp(12), dp(6), dp(12), dp(6)), in_dump=False)],
                gap=dp(8), height=dp(60), radius=dp(30), bg=LIGHT,
                padding=(dp(12), 0, dp(10), 0), on_click=ctx.go("search"), text="Where to?",
                cls="android.widget.TextView", rid="where_to")
    rows: list[View] = [Column([where], padding=(w.MARGIN, dp(16), w.MARGIN, dp(8)))]
    for key in ("home", "work"):
        p = rs.place(st, key)
        if p is not None:
            rows.append(place_row(ctx, p, ride_to(key), rid="saved_place"))
    seen: set[str] = {"home", "work"}
    recent: list[dict[str, Any]] = []
    for t in rs.past(st):
        p = rs.place(st, t["dropoff_key"])
        if p is not None and p["key"] not in seen:
            seen.add(p["key"])
            recent.append(p)
    if recent:
        rows.append(w.section("Recent", theme=th))
        rows += [place_row(ctx, p, ride_to(p["key"]), rid="recent_place") for p in recent[:3]]
    rows.append(Column([Row([Icon("calendar", size=20, box=40, color=th.on_surface,
                                  in_dump=False),
                     Column([Text("Plan ahead", size=16, weight="medium", color=th.on_surface),
                             Text("Schedule a ride up to 30 days in advance", size=13,
                                  color=MUTED)], flex=1)],
                    gap=dp(12), radius=dp(12), bg=LIGHT, padding=(dp(16),) * 4,
                    on_click=ctx.go("search"), rid="plan_ahead", desc="Plan ahead",
                    cls="android.widget.LinearLayout")],
                       padding=(w.MARGIN, dp(8), w.MARGIN, 0)))
    rows.append(w.spacer(dp(24)))
    body = Column([
        Stack([_map(ctx, dp(250)),
               _top_left(Text("Rides", size=22, weight="bold", color=th.on_surface,
                              bg=(255, 255, 255), radius=dp(18),
                              padding=(dp(14), dp(6), dp(14), dp(6)), rid="app_title"))]),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="home_list", gap=dp(4),
               padding=(0, 0, 0, 0)),
        nav(ctx, "main"),
    ], bg=th.surface)
    return Page(body)


# -- search ----------------------------------------------------------------------------------
def search(ctx: Ctx) -> View | Page:
    """Pickup and destination fields; the places matching what was typed in the active one
    (saved and popular places when it is empty). Picking both opens the ride options."""
    th = ctx.theme
    st = ctx.store
    state = ctx.state
    pick_key = str(state.get("pickup", ctx.args.get("pickup", "home")))
    drop_key = str(state.get("dropoff", ctx.args.get("dropoff", "")))
    active = str(state.get("active", "dropoff"))
    pick, drop = rs.place(st, pick_key), rs.place(st, drop_key)
    drafts: dict[str, str] = state.get("_fields", {})

    def typed(field: str) -> Any:
        def on_text(v: str) -> None:
            state.setdefault("_fields", {})[field] = v
            state["active"] = field
        return on_text

    def choose(p: dict[str, Any]) -> Handler:
        def h() -> None:
            state[active] = p["key"]
            state.setdefault("_fields", {}).pop(active, None)
            a = rs.place(st, state.get("pickup", pick_key))
            b = rs.place(st, state.get("dropoff", drop_key))
            if a is not None and b is not None and a is b:
                ctx.toast("Pickup and destination must be different")
                return
            state["active"] = "dropoff"
            if a is not None and b is not None:
                ctx.push("choose", pickup=a["key"], dropoff=b["key"])
        return h

    query = str(drafts.get(active, ""))
    rows: list[View] = []
    if query.strip():
        hits = rs.search(st, query)
        if hits:
            rows += [place_row(ctx, p, choose(p), rid="place_result") for p in hits[:12]]
        else:
            rows.append(Text(f"No results for \u201c{query.strip()}\u201d", size=15,
                             color=MUTED, padding=(w.MARGIN, dp(24), w.MARGIN, 0),
                             rid="no_results"))
    else:
        rows.append(w.section("Saved places", theme=th))
        rows += [place_row(ctx, p, choose(p), rid="place_result")
                 for p in st["places"] if p["kind"] in ("home", "work")]
        rows.append(w.section("Popular destinations", theme=th))
        rows += [place_row(ctx, p, choose(p), rid="place_result")
                 for p in st["places"] if p["kind"] == "place"]
    pick_value = str(drafts.get("pickup", pick["name"] if pick else ""))
    drop_value = str(drafts.get("dropoff", drop["name"] if drop else ""))
    fields = Column([
        TextField("pickup", pick_value, on_text=typed("pickup"), hint="Pickup location",
                  rid="pickup_text", outlined=False, bg=LIGHT, radius=dp(8),
                  height=dp(48), desc="Pickup location"),
        TextField("dropoff", drop_value, on_text=typed("dropoff"), hint="Where to?",
                  rid="dropoff_text", outlined=False, bg=LIGHT, radius=dp(8),
                  height=dp(48), desc="Where to?"),
    ], gap=dp(8), flex=1)
    marks = Column([Icon("circle", size=9, box=dp(16), color=th.on_surface, in_dump=False),
                    Row([View(width=4, height=dp(28), bg=th.on_surface, in_dump=False)],
                        padding=(dp(8) - 2, 0, 0, 0), in_dump=False),
                    Icon("square", size=9, box=dp(16), color=th.on_surface, in_dump=False)],
                   gap=dp(2), padding=(0, dp(16), 0, 0), width=dp(16), in_dump=False)
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Plan your ride", on_back=ctx.pop, theme=th),
        Row([marks, fields], gap=dp(12), padding=(w.MARGIN, 0, w.MARGIN, dp(12))),
        Divider(),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_results"),
    ], bg=th.surface)
    return Page(body)


# -- ride options ----------------------------------------------------------------------------
def _route(ctx: Ctx) -> tuple[dict[str, Any], dict[str, Any]] | None:
    a = rs.place(ctx.store, ctx.args.get("pickup"))
    b = rs.place(ctx.store, ctx.args.get("dropoff"))
    return (a, b) if a is not None and b is not None else None


def _schedule_dialog(ctx: Ctx) -> View | None:
    """The pickup date (date picker), then the pickup time (time picker, keyboard mode)."""
    th = ctx.theme
    state = ctx.state
    today = now(ctx).date()
    current = state.get("at")
    shown = dt.datetime.fromisoformat(current) if current else now(ctx) + dt.timedelta(hours=1)

    def clear() -> None:
        for k in ("pick_day", "pick_ym", "error", "pm"):
            state.pop(k, None)
        state.get("_fields", {}).pop("hour", None)
        state.get("_fields", {}).pop("minute", None)
        ctx.close_dialog()

    if ctx.dialog == "date":
        py, pm = state.get("pick_ym", (shown.year, shown.month))
        picked = dt.date.fromisoformat(state.get("pick_day", shown.date().isoformat()))

        def to_time() -> None:
            state["pick_day"] = picked.isoformat()
            state["_dialog"] = "time"

        return pickers.date_picker(
            year=py, month=pm, selected=picked,
            on_pick=lambda d: ctx.setter("pick_day", d.isoformat()),
            on_month=lambda y, m: ctx.setter("pick_ym", (y, m)), on_ok=to_time,
            on_cancel=clear, today=today, title="Pickup date", theme=th)
    if ctx.dialog == "time":
        hour, on_hour = ctx.field("hour", str(shown.hour % 12 or 12))
        minute, on_minute = ctx.field("minute", f"{shown.minute:02d}")
        pm = bool(state.get("pm", shown.hour >= 12))

        def ok() -> None:
            hm = controls.parse_time(hour, minute, pm)
            if hm is None:
                state["error"] = "Enter a valid time"
                return
            day = dt.date.fromisoformat(state.get("pick_day", shown.date().isoformat()))
            at = dt.datetime.combine(day, dt.time(*hm))
            if at < now(ctx) + MIN_AHEAD:
                state["error"] = "Pick a time at least 15 minutes from now"
                return
            if at > now(ctx) + MAX_AHEAD:
                state["error"] = "Rides can be scheduled up to 30 days ahead"
                return
            state["at"] = at.isoformat(timespec="minutes")
            clear()

        return controls.time_picker(hour, on_hour, minute, on_minute, pm,
                                    lambda v: ctx.setter("pm", v), ok, clear,
                                    key="pickup", title="Pickup time",
                                    error=str(state.get("error", "")), theme=th)
    return None


def choose(ctx: Ctx) -> View | Page:
    """The ride options between two places: each type with its seats, how soon a driver can
    come, the drop-off (or pickup) time and the price; a type without drivers nearby is
    greyed out. The pickup time chip schedules the ride for later."""
    th = ctx.theme
    st = ctx.store
    r = _route(ctx)
    if r is None:
        return _missing(ctx, "Choose a ride", "This route is no longer available.")
    a, b = r
    miles, minutes = rs.route(a, b)
    at = ctx.state.get("at")
    available = [t["name"] for t in st["types"] if t["available"]]
    chosen = str(ctx.state.get("type", available[0] if available else ""))
    offset, on_scroll = ctx.scroll()
    rows: list[View] = []
    for t in st["types"]:
        price = rs.upfront(st, t["name"], miles, minutes)
        if t["available"]:
            if at:
                when = f"Pickup {rs.clock(dt.datetime.fromisoformat(at))}"
            else:
                arrive = now(ctx) + dt.timedelta(minutes=t["pickup_min"] + minutes)
                when = f"{t['pickup_min']} min away · Drop-off {rs.clock(arrive)}"
            sub, price_text, color = when, rs.money(price), th.on_surface
        else:
            sub, price_text, color = "No drivers nearby", "Unavailable", MUTED
        sel = t["name"] == chosen and bool(t["available"])
        rows.append(Row([
            Icon(t["glyph"], size=26, box=56, radius=dp(12), bg=LIGHT,
                 color=GREEN if t["glyph"] == "leaf" and t["available"] else color,
                 in_dump=False),
            Column([Row([Text(t["name"], size=17, weight="medium", color=color,
                              rid="ride_name"),
                         Icon("user", size=11, box=18, color=MUTED, in_dump=False),
                         Text(str(t["seats"]), size=13, color=MUTED, in_dump=False)],
                        gap=dp(4)),
                    Text(sub, size=13, color=MUTED, max_lines=1, rid="ride_eta"),
                    Text(t["blurb"], size=13, color=MUTED, max_lines=1)], flex=1),
            Text(price_text, size=17, weight="medium", color=color, rid="ride_price"),
        ], gap=dp(12), padding=(dp(12), dp(10), dp(16), dp(10)), radius=dp(12),
            border=th.on_surface if sel else None, border_width=6,
            on_click=ctx.setter("type", t["name"]) if t["available"] else None,
            enabled=bool(t["available"]), selected=sel, desc=t["name"], rid="ride_option",
            cls="android.widget.LinearLayout"))
    when_text = rs.when_label(dt.datetime.fromisoformat(at)) if at else "Pickup now"
    chips: list[View] = [
        Row([Icon("clock", size=16, box=24, color=th.on_surface, in_dump=False),
             Text(when_text, size=14, weight="medium", color=th.on_surface, in_dump=False),
             Icon("chevron_down", size=12, box=20, color=th.on_surface, in_dump=False)],
            gap=dp(6), height=dp(40), radius=dp(20), bg=LIGHT,
            padding=(dp(12), 0, dp(12), 0), on_click=ctx.show_dialog("date"),
            text=when_text, desc="Pickup time", rid="when_chip",
            cls="android.widget.Button")]
    if at:
        chips.append(w.icon_button("close", "Pick up now", ctx.setter("at", None),
                                   rid="clear_time", theme=th))
    header = Column([
        Row(chips, gap=dp(4)),
        Row([Column([_route_line(ctx, a, b)], flex=1),
             Text(f"{miles:.1f} mi · {minutes} min", size=13, color=MUTED, rid="trip_length")],
            gap=dp(8), on_click=ctx.go("search", pickup=a["key"], dropoff=b["key"]),
            desc="Change route", rid="route_summary", cls="android.widget.LinearLayout"),
    ], gap=dp(8), padding=(w.MARGIN, dp(8), w.MARGIN, dp(4)))
    ok = chosen in available
    label = f"{'Schedule' if at else 'Choose'} {chosen}" if ok else "Choose a ride"
    body = Column([
        Stack([_map(ctx, dp(200), a, b),
               _top_left(_round_back(ctx))]),
        header,
        Divider(),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="ride_options", gap=dp(4),
               padding=(dp(8), dp(4), dp(8), dp(8))),
        Row([w.button(label, ctx.go("confirm", pickup=a["key"], dropoff=b["key"],
                                    type=chosen, at=at or ""),
                      rid="choose_button", theme=th, enabled=ok, flex=1, height=dp(56))],
            padding=(w.MARGIN, dp(8), w.MARGIN, dp(12))),
    ], bg=th.surface)
    return Page(body, dialog=_schedule_dialog(ctx))


# -- confirmation ----------------------------------------------------------------------------
def confirm(ctx: Ctx) -> View | Page:
    """The confirmation step: route, ride type, pickup time, payment and fare; Confirm
    requests the ride now, Reserve schedules it."""
    th = ctx.theme
    st = ctx.store
    r = _route(ctx)
    kind = str(ctx.args.get("type", ""))
    t = rs.ride_type(st, kind)
    if r is None or t is None:
        return _missing(ctx, "Confirm", "This ride can no longer be booked.")
    a, b = r
    at_s = str(ctx.args.get("at") or "")
    at = dt.datetime.fromisoformat(at_s) if at_s else None
    miles, minutes = rs.route(a, b)
    price = rs.upfront(st, kind, miles, minutes)

    def book() -> None:
        if not t["available"]:
            ctx.toast(f"No {kind} drivers nearby")
            return
        if at is None:
            trip = rs.book_now(st, a, b, kind, now(ctx))
            ctx.reset_to("main")
            ctx.push("trip", id=trip["id"])
        else:
            ride = rs.add_scheduled(st, a, b, kind, at)
            ctx.reset_to("main")
            ctx.push("ride", id=ride["id"])
            ctx.toast(f"Ride scheduled for {rs.when_label(at)}")

    def line(glyph: str, title: str, value: str, rid: str) -> Row:
        return Row([Icon(glyph, size=18, box=40, color=th.on_surface, in_dump=False),
                    Text(title, size=15, color=MUTED, flex=1),
                    Text(value, size=15, weight="medium", color=th.on_surface, rid=rid)],
                   gap=dp(12), height=dp(52))

    details = Column([
        _route_line(ctx, a, b),
        Divider(),
        line(t["glyph"], "Ride", f"{kind} · {t['seats']} seats", "confirm_type"),
        line("clock", "Pickup", rs.when_label(at) if at else
             f"Now · {t['pickup_min']} min away", "confirm_when"),
        line("route", "Trip", f"{miles:.1f} mi · {minutes} min", "confirm_length"),
        line("credit_card", "Payment", st["card"], "confirm_payment"),
        line("receipt", "Estimated price" if at else "Price", rs.money(price), "confirm_fare"),
    ], gap=dp(6), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)))
    note = ("Your driver will be on the way as soon as you confirm." if at is None else
            "We'll find you a driver before your pickup time. Free cancellation up to 60 "
            "minutes before.")
    label = f"{'Confirm' if at is None else 'Reserve'} {kind}"
    body = Column([
        w.app_bar("Confirm your ride", on_back=ctx.pop, theme=th),
        _map(ctx, dp(150), a, b),
        Scroll([details, Text(note, size=13, color=MUTED, padding=(w.MARGIN, 0, w.MARGIN, 0),
                              rid="confirm_note")], rid="confirm_details"),
        Row([w.button(label, book, rid="confirm_button", theme=th, flex=1, height=dp(56),
                      enabled=bool(t["available"]))],
            padding=(w.MARGIN, dp(8), w.MARGIN, dp(12))),
    ], bg=th.surface)
    return Page(body)


# -- the ride in progress --------------------------------------------------------------------
def trip(ctx: Ctx) -> View | Page:
    """A requested ride: the driver, car and plate, the drop-off time; share the trip status
    (share sheet) or cancel the ride (with a confirmation dialog)."""
    th = ctx.theme
    st = ctx.store
    t = rs.trip(st, ctx.args.get("id"))
    if t is None:
        return _missing(ctx, "Your ride", "This ride no longer exists.")
    a, b = rs.place(st, t["pickup_key"]), rs.place(st, t["dropoff_key"])
    active = t["status"] == "active"
    typ = rs.ride_type(st, t["type"])
    wait = typ["pickup_min"] if typ else 5

    def cancel() -> None:
        t.update(status="canceled", fare=0.0, fee=0.0, tip=0.0, total=0.0)
        ctx.close_dialog()
        ctx.toast("Your ride was canceled")

    share = (f"I'm riding to {t['dropoff']} in a {t['car']} ({t['plate']}), driver "
             f"{t['driver']}. ETA {t['eta']}.")
    status = (f"{t['driver'].split()[0]} is {wait} min away" if active
              else "This ride was canceled" if t["status"] == "canceled" else "Ride completed")
    driver = Row([
        w.avatar(t["driver"], (60, 60, 60), size=52),
        Column([Text(t["driver"], size=17, weight="medium", color=th.on_surface,
                     rid="driver_name"),
                Row([Icon("star", size=12, box=18, color=th.on_surface, in_dump=False),
                     Text(t["stars"], size=13, color=MUTED)], gap=dp(2)),
                Text(t["car"], size=14, color=MUTED, rid="car_model")], flex=1, gap=dp(2)),
        Text(t["plate"], size=18, weight="bold", color=th.on_surface, bg=LIGHT, radius=dp(6),
             padding=(dp(10), dp(6), dp(10), dp(6)), rid="car_plate"),
    ], gap=dp(12))
    kids: list[View] = [
        Text(status, size=22, weight="medium", color=th.on_surface, rid="trip_status"),
        driver, Divider()]
    if a is not None and b is not None:
        kids.append(_route_line(ctx, a, b))
    kids.append(Row([Text("Drop-off by", size=15, color=MUTED, flex=1),
                     Text(t["eta"] if active else "—", size=15, weight="medium",
                          color=th.on_surface, rid="trip_eta")], height=dp(40)))
    kids.append(Row([Text(f"{t['type']} · {st['card']}", size=15, color=MUTED, flex=1),
                     Text(rs.money(t["total"]), size=15, weight="medium",
                          color=th.on_surface, rid="trip_fare")], height=dp(40)))
    if active:
        kids.append(Row([
            w.button("Share trip status", ctx.share(text=share, subject="My ride"),
                     rid="share_trip", style="tonal", theme=th, flex=1, icon="share"),
            w.button("Cancel ride", ctx.show_dialog("cancel"), rid="cancel_trip",
                     style="outlined", theme=th, flex=1)], gap=dp(12)))
    offset, on_scroll = ctx.scroll()
    body = Column([
        Stack([_map(ctx, dp(230), a, b) if a and b else _map(ctx, dp(230)),
               _top_left(_round_back(ctx))]),
        Scroll(kids, offset=offset, on_scroll=on_scroll, gap=dp(12),
               padding=(w.MARGIN, dp(16), w.MARGIN, dp(16)), rid="trip_details"),
    ], bg=th.surface)
    dlg = None
    if ctx.dialog == "cancel" and active:
        dlg = w.dialog("Cancel this ride?", f"{t['driver']} is already on the way.",
                       [("Keep ride", ctx.close_dialog), ("Cancel ride", cancel)], theme=th)
    return Page(body, dialog=dlg)


# -- activity --------------------------------------------------------------------------------
def activity(ctx: Ctx) -> View | Page:
    """Upcoming (rides in progress and scheduled rides) and Past (trips, newest first)."""
    th = ctx.theme
    st = ctx.store
    tab = str(ctx.args.get("tab", "upcoming"))
    offset, on_scroll = ctx.scroll(tab)
    rows: list[View] = []
    if tab == "upcoming":
        live = [t for t in rs.past(st) if t["status"] == "active"]
        for t in live:
            rows.append(w.list_item(
                f"Ride to {t['dropoff']}", subtitle=f"In progress · drop-off by {t['eta']}",
                leading=Icon("taxi", size=18, box=40, radius=dp(20), bg=LIGHT,
                             color=th.on_surface, in_dump=False),
                on_click=ctx.go("trip", id=t["id"]), rid="live_trip", theme=th,
                desc=f"Ride to {t['dropoff']}"))
        for s in rs.upcoming(st):
            when = dt.datetime.fromisoformat(s["pickup_at"])
            rows.append(w.list_item(
                rs.when_label(when), subtitle=f"From {s['pickup']} to {s['dropoff']}",
                overline=f"{s['type']} · est. {rs.money(s['estimate'])}",
                leading=Icon("calendar", size=18, box=40, radius=dp(20), bg=LIGHT,
                             color=th.on_surface, in_dump=False),
                on_click=ctx.go("ride", id=s["id"]), rid="scheduled_ride", theme=th,
                desc=f"Scheduled ride to {s['dropoff']}"))
        if not rows:
            rows.append(Column([
                Icon("calendar", size=48, box=96, color=(200, 200, 200), in_dump=False),
                Text("No upcoming rides", size=18, align="center", color=th.on_surface,
                     rid="empty_title"),
                Text("Rides you schedule show up here", size=14, align="center",
                     color=MUTED)], gap=dp(8), padding=(0, dp(64), 0, 0)))
    else:
        for t in rs.past(st):
            if t["status"] == "active":
                continue
            start = dt.datetime.fromisoformat(t["start"])
            right = "Canceled" if t["status"] == "canceled" else rs.money(t["total"])
            rows.append(w.list_item(
                t["dropoff"], subtitle=f"{rs.when_label(start)} · {t['type']}",
                leading=Icon("car", size=18, box=40, radius=dp(20), bg=LIGHT,
                             color=th.on_surface, in_dump=False),
                trailing=Text(right, size=15, weight="medium", rid="trip_total",
                              color=MUTED if t["status"] == "canceled" else th.on_surface),
                on_click=ctx.go("receipt", id=t["id"]), rid="past_trip", theme=th,
                desc=f"Trip to {t['dropoff']}, {rs.day_label(start)}"))
        if not rows:
            rows.append(Text("No trips yet", size=18, align="center", color=th.on_surface,
                             padding=(0, dp(64), 0, 0), rid="empty_title"))
    body = Column([
        w.app_bar("Activity", theme=th),
        pickers.tabs([("Upcoming", tab == "upcoming", lambda: ctx.replace("activity")),
                      ("Past", tab == "past", lambda: ctx.replace("activity", tab="past"))],
                     theme=th),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="activity_list"),
        nav(ctx, "activity"),
    ], bg=th.surface)
    return Page(body, on_back=lambda: to_main(ctx))


def receipt(ctx: Ctx) -> View | Page:
    """A past trip's receipt: total, fare breakdown, route with times, driver, payment."""
    th = ctx.theme
    st = ctx.store
    t = rs.trip(st, ctx.args.get("id"))
    if t is None:
        return _missing(ctx, "Receipt", "This trip no longer exists.")
    start = dt.datetime.fromisoformat(t["start"])
    canceled = t["status"] == "canceled"

    def money_row(label: str, v: float, rid: str, bold: bool = False) -> Row:
        return Row([Text(label, size=16 if bold else 15, weight="bold" if bold else "regular",
                         color=th.on_surface, flex=1),
                    Text(rs.money(v), size=16 if bold else 15,
                         weight="bold" if bold else "regular", color=th.on_surface, rid=rid)],
                   height=dp(40))

    kids: list[View] = [
        Text(f"{rs.day_label(start)}, {start.year} · {rs.clock(start)}", size=14, color=MUTED,
             rid="receipt_date"),
        Text("Ride canceled" if canceled else f"Thanks for riding, {st['rider']}", size=24,
             weight="medium", color=th.on_surface, rid="receipt_title"),
        money_row("Total", t["total"], "receipt_total", bold=True),
        Divider(),
        money_row("Trip fare", t["fare"], "receipt_fare"),
        money_row("Booking fee", t["fee"], "receipt_fee"),
        money_row("Tip", t["tip"], "receipt_tip"),
        Divider(),
    ]
    a, b = rs.place(st, t["pickup_key"]), rs.place(st, t["dropoff_key"])
    if a is not None and b is not None:
        kids.append(_route_line(ctx, a, b))
    kids += [
        Row([Text(f"{t['type']} · {t['miles']:.1f} mi · {t['minutes']} min", size=14,
                  color=MUTED, flex=1, rid="receipt_trip")]),
        Row([w.avatar(t["driver"], (60, 60, 60), size=40),
             Column([Text(f"You rode with {t['driver']}", size=15, color=th.on_surface,
                          rid="receipt_driver"),
                     Text(f"{t['car']} · {t['plate']}", size=13, color=MUTED)], flex=1)],
            gap=dp(12)),
        Row([Icon("credit_card", size=18, box=40, color=th.on_surface, in_dump=False),
             Text(st["card"], size=15, color=th.on_surface, flex=1)], gap=dp(8)),
    ]
    if t["status"] == "completed" and not t["tip"]:
        kids += tip_section(ctx, t)
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Receipt", on_back=ctx.pop, theme=th),
        Scroll(kids, offset=offset, on_scroll=on_scroll, gap=dp(8),
               padding=(w.MARGIN, dp(8), w.MARGIN, dp(24)), rid="receipt"),
    ], bg=th.surface)
    return Page(body)


def tip_section(ctx: Ctx, t: dict[str, Any]) -> list[View]:
    """"Add a tip": amount chips and a button that adds the chosen one to the trip (one tip
    per trip, charged to the card)."""
    th = ctx.theme
    amount = int(ctx.state.get("tip", 0))

    def add() -> None:
        t["tip"] = float(amount)
        t["total"] = round(t["fare"] + t["fee"] + t["tip"], 2)
        ctx.state.pop("tip", None)
        ctx.toast(f"Thanks! Your ${amount} tip goes to {t['driver'].split()[0]}")

    chips = [w.chip(f"${v}", selected=v == amount, on_click=ctx.setter("tip", v),
                    rid="tip_amount", theme=th) for v in rs.TIPS]
    return [Divider(),
            Text(f"Add a tip for {t['driver'].split()[0]}", size=16, weight="medium",
                 color=th.on_surface, rid="tip_title"),
            Row(chips, gap=dp(8)),
            Row([w.button(f"Add ${amount} tip" if amount else "Choose an amount", add,
                          rid="add_tip", theme=th, enabled=bool(amount), flex=1)])]


# -- a scheduled ride ------------------------------------------------------------------------
def ride(ctx: Ctx) -> View | Page:
    """A scheduled ride: pickup date and time, route, type and estimated fare; Cancel ride
    (confirmed in a dialog)."""
    th = ctx.theme
    st = ctx.store
    s = rs.scheduled(st, ctx.args.get("id"))
    if s is None:
        return _missing(ctx, "Scheduled ride", "This ride no longer exists.")
    when = dt.datetime.fromisoformat(s["pickup_at"])
    canceled = s["status"] == "canceled"

    def cancel() -> None:
        s["status"] = "canceled"
        ctx.close_dialog()
        ctx.toast("Scheduled ride canceled")
        ctx.pop()

    kids: list[View] = [
        Text("Canceled" if canceled else "Reserved", size=14, weight="medium",
             color=MUTED if canceled else GREEN, rid="ride_status"),
        Text(f"{rs.day_label(when)}, {when.year}", size=24, weight="medium",
             color=th.on_surface, rid="ride_date"),
        Text(f"Pickup at {rs.clock(when)}", size=18, color=th.on_surface, rid="ride_time"),
        Divider(),
    ]
    a, b = rs.place(st, s["pickup_key"]), rs.place(st, s["dropoff_key"])
    if a is not None and b is not None:
        kids.append(_route_line(ctx, a, b))
    kids += [
        Row([Text("Ride", size=15, color=MUTED, flex=1),
             Text(s["type"], size=15, weight="medium", color=th.on_surface,
                  rid="ride_type")], height=dp(40)),
        Row([Text("Estimated fare", size=15, color=MUTED, flex=1),
             Text(rs.money(s["estimate"]), size=15, weight="medium", color=th.on_surface,
                  rid="ride_estimate")], height=dp(40)),
        Row([Text("Payment", size=15, color=MUTED, flex=1),
             Text(st["card"], size=15, color=th.on_surface)], height=dp(40)),
    ]
    if not canceled:
        kids.append(Row([w.button("Cancel ride", ctx.show_dialog("cancel"), style="outlined",
                                  rid="cancel_ride", theme=th, flex=1)]))
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Scheduled ride", on_back=ctx.pop, theme=th),
        Scroll(kids, offset=offset, on_scroll=on_scroll, gap=dp(8),
               padding=(w.MARGIN, dp(8), w.MARGIN, dp(24)), rid="ride_details"),
    ], bg=th.surface)
    dlg = None
    if ctx.dialog == "cancel" and not canceled:
        dlg = w.dialog("Cancel scheduled ride?",
                       f"Your {rs.when_label(when)} ride to {s['dropoff']} will be canceled.",
                       [("Keep ride", ctx.close_dialog), ("Cancel ride", cancel)], theme=th)
    return Page(body, dialog=dlg)


# -- account ---------------------------------------------------------------------------------
def account(ctx: Ctx) -> View | Page:
    """The rider's name and rating, saved places (a tap plans a ride there) and payment."""
    th = ctx.theme
    st = ctx.store
    rows: list[View] = [
        Row([Column([Text(st["rider"], size=28, weight="bold", color=th.on_surface,
                          rid="rider_name"),
                     Row([Icon("star", size=12, box=18, color=th.on_surface, in_dump=False),
                          Text("4.92", size=14, color=MUTED)], gap=dp(2))], flex=1),
             w.avatar(st["rider"], (60, 60, 60), size=56)],
            padding=(w.MARGIN, dp(16), w.MARGIN, dp(16))),
        w.section("Saved places", theme=th),
    ]
    for key in ("home", "work"):
        p = rs.place(st, key)
        if p is not None:
            rows.append(place_row(ctx, p, ctx.go("choose", pickup=default_pickup(key),
                                                 dropoff=key), rid="account_place"))
    rows += [w.section("Payment", theme=th),
             w.list_item(st["card"], subtitle="Default payment method",
                         leading=Icon("credit_card", size=18, box=40, color=th.on_surface,
                                      in_dump=False), rid="payment_card", theme=th)]
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Account", theme=th),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="account_list"),
        nav(ctx, "account"),
    ], bg=th.surface)
    return Page(body, on_back=lambda: to_main(ctx))
