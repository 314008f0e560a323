"""Clock screens, Pixel style, with a bottom navigation bar: Alarm (cards with an on/off
switch that expand to repeat days, a label and Delete; the Material time picker to add or
change one), Clock (the local time and world clocks, Add city), Timer and Stopwatch (their
digits count on the phone's clock, which moves on with every action: see :mod:`.store`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.clock import store as cs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls as c
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

TABS = (("alarm", "Alarm", "alarms"), ("clock", "Clock", "clock"),
        ("hourglass", "Timer", "timer"), ("stopwatch", "Stopwatch", "stopwatch"))


def _frame(ctx: Ctx, tab: str, body: Sequence[View], fab: View | None = None,
           dialog: View | None = None) -> Page:
    offset, on_scroll = ctx.scroll()
    content: list[View] = [Scroll([*body, w.spacer(dp(16))], offset=offset,
                                  on_scroll=on_scroll, rid="recycler_view")]
    if fab is not None:  # below the list, not over it: nothing it would hide stays tappable
        content.append(fab)
    nav = tab_nav(ctx, TABS, tab)
    top = Row([Text({"alarms": "Alarm", "clock": "Clock", "timer": "Timer",
                     "stopwatch": "Stopwatch"}[tab], size=22, color=ctx.theme.on_surface,
                    flex=1, rid="action_bar_title")],
              height=dp(64), padding=(dp(16), 0, dp(16), 0), rid="toolbar",
              cls="android.widget.LinearLayout")
    body_view = Column([top, Column(content, flex=1), nav], bg=ctx.theme.surface)
    return Page(body_view, dialog=dialog)


def _center_fab(icon: str, desc: str, on_click: Handler, ctx: Ctx, *, rid: str = "fab",
                wide: bool = False) -> View:
    f = Icon(icon, size=26, box=96 if wide else 72, desc=desc, rid=rid, on_click=on_click,
             cls="android.widget.ImageButton", color=ctx.theme.on_primary_container,
             bg=ctx.theme.primary_container, radius=dp(24))
    holder = Row([View(flex=1, in_dump=False), f, View(flex=1, in_dump=False)],
                 height=dp(104), padding=(0, dp(8), 0, dp(8)))
    return holder


# -- Alarm ------------------------------------------------------------------------------------
def _open_picker(ctx: Ctx, aid: int, hour: int, minute: int) -> Handler:
    def h() -> None:
        ctx.state["_dialog"] = "time"
        ctx.state["_dialog_data"] = {"id": aid}
        ctx.state["_fields"] = {"hour": str(hour % 12 or 12), "minute": f"{minute:02d}"}
        ctx.state["pm"] = hour >= 12
        ctx.state["selecting"] = "hour"
        ctx.state["picker_mode"] = "clock"
        ctx.state.pop("time_error", None)

    return h


def _from_now(now: dt.datetime, hour: int, minute: int) -> str:
    mins = (hour * 60 + minute - now.hour * 60 - now.minute) % (24 * 60) or 24 * 60
    h, m = divmod(mins, 60)
    parts = []
    if h:
        parts.append(f"{h} hour{'s' if h != 1 else ''}")
    if m:
        parts.append(f"{m} minute{'s' if m != 1 else ''}")
    return " and ".join(parts)


def _picker(ctx: Ctx) -> View:
    """The time picker: the clock face first, as on a Pixel; its keyboard button switches to
    typing the hour and minute."""
    data: dict[str, Any] = ctx.state.get("_dialog_data", {})
    aid = int(data.get("id", 0))
    hour, on_hour = ctx.field("hour")
    minute, on_minute = ctx.field("minute")
    pm = bool(ctx.state.get("pm", False))

    def period(is_pm: bool) -> Handler:
        return ctx.setter("pm", is_pm)

    def ok() -> None:
        t = c.parse_time(hour, minute, pm)
        if t is None:
            ctx.state["time_error"] = "Enter a valid time"
            return
        store = ctx.store
        a = cs.find(store, aid) if aid else None
        if a is None:
            a = cs.add(store, t[0], t[1])
        else:
            a.update(hour=t[0], minutes=t[1], enabled=True)
        ctx.state["expanded"] = a["id"]
        ctx.close_dialog()
        ctx.toast(f"Alarm set for {_from_now(dt.datetime.fromisoformat(ctx.now), *t)} "
                  "from now")

    if ctx.state.get("picker_mode") == "text":
        return c.time_picker(hour, on_hour, minute, on_minute, pm, period, ok,
                             ctx.close_dialog, key="time", title="Enter time",
                             error=str(ctx.state.get("time_error", "")),
                             on_clock_mode=ctx.setter("picker_mode", "clock"), theme=ctx.theme)

    def pick_hour(v: int) -> Handler:
        def h() -> None:
            on_hour(str(v))
            ctx.state["selecting"] = "minute"  # the face moves on to the minutes

        return h

    def pick_minute(v: int) -> Handler:
        return lambda: on_minute(f"{v:02d}")

    return c.time_picker_dial(hour, minute, pm, str(ctx.state.get("selecting", "hour")),
                              pick_hour, pick_minute, lambda m: ctx.setter("selecting", m),
                              period, ctx.setter("picker_mode", "text"), ok, ctx.close_dialog,
                              title="Select time", theme=ctx.theme)


def _alarm_card(ctx: Ctx, a: dict[str, Any], expanded: bool) -> View:
    t = ctx.theme
    aid = a["id"]

    def toggle() -> None:
        a["enabled"] = not a["enabled"]
        if a["enabled"]:
            left = _from_now(dt.datetime.fromisoformat(ctx.now), a["hour"], a["minutes"])
            ctx.toast(f"Alarm set for {left} from now")

    def day(code: str) -> Handler:
        def h() -> None:
            days = set(a["days"])
            days ^= {code}
            a["days"] = [d for d in cs.DAYS if d in days]

        return h

    def on_label(v: str) -> None:
        a["label"] = v

    def remove() -> None:
        cs.delete(ctx.store, aid)
        ctx.state.pop("expanded", None)
        ctx.toast("Alarm deleted")

    time_color = t.on_surface if a["enabled"] else t.on_surface_variant
    summary = " · ".join(p for p in (a["label"], cs.days_text(a["days"])) if p)
    head = Row([
        Text(c.time_text(a["hour"], a["minutes"]), size=44, color=time_color, rid="digital_clock",
             on_click=_open_picker(ctx, aid, a["hour"], a["minutes"]),
             cls="android.widget.TextView"),
        View(flex=1, in_dump=False),
        c.switch(a["enabled"], on_toggle=toggle, rid="onoff",
                 desc=f"{c.time_text(a['hour'], a['minutes'])} alarm", theme=t),
    ])
    kids: list[View] = [head]
    if not expanded:
        kids.append(Row([Text(summary, size=14, color=t.on_surface_variant, flex=1,
                              rid="summary", max_lines=1, on_click=ctx.setter("expanded", aid),
                              padding=(0, dp(12), 0, dp(12))),
                         w.icon_button("chevron_down", "Expand alarm",
                                       ctx.setter("expanded", aid), rid="arrow", theme=t)]))
    else:
        chips: list[View] = []
        for code, letter, name in cs.CHIPS:
            on = code in a["days"]
            chips.append(Text(letter, size=14, weight="medium", align="center",
                              color=t.on_primary if on else t.on_surface, width=dp(40),
                              height=dp(40), radius=dp(20), padding=(0, dp(11), 0, 0),
                              bg=t.primary if on else None, border=None if on else t.outline,
                              border_width=3, desc=name, checkable=True, checked=on,
                              on_click=day(code), rid="day_button",
                              cls="android.widget.CheckBox"))
        label = a["label"]
        kids += [
            Row(chips, gap=dp(6)),
            Text(cs.days_text(a["days"]) if a["days"] else "Not scheduled", size=14,
                 color=t.on_surface_variant, rid="repeat_days"),
            w.text_field(f"label_{aid}", label, on_text=on_label, hint="Add label",
                         rid="edit_label", outlined=False),
            Row([w.button("Delete", remove, style="text", icon="trash", theme=t,
                          rid="delete"),
                 View(flex=1, in_dump=False),
                 w.icon_button("chevron_down", "Collapse alarm", ctx.setter("expanded", 0),
                               rid="arrow", theme=t, selected=True)]),
        ]
    return w.card(kids, theme=t, rid="alarm_card", gap=dp(4), padding=dp(16))


def alarms(ctx: Ctx) -> Page:
    expanded = int(ctx.state.get("expanded", 0))
    cards: list[View] = [_alarm_card(ctx, a, a["id"] == expanded)
                         for a in cs.sorted_alarms(ctx.store)]
    if not cards:
        cards = [Text("No alarms", size=16, color=ctx.theme.on_surface_variant, align="center",
                      rid="alarms_empty_view", padding=(0, dp(48), 0, 0))]
    body = [Column(cards, gap=dp(12), padding=(dp(12), 0, dp(12), 0))]
    now = dt.datetime.fromisoformat(ctx.now)
    fab = _center_fab("plus", "Add alarm", _open_picker(ctx, 0, now.hour, now.minute), ctx)
    return _frame(ctx, "alarms", body, fab, _picker(ctx) if ctx.dialog == "time" else None)


# -- Clock (world clock) ----------------------------------------------------------------------
def _city_time(now: dt.datetime, offset: int) -> tuple[str, str]:
    t = now + dt.timedelta(minutes=offset)
    hrs = offset / 60
    n = f"{abs(hrs):g}"
    rel = "Same time" if not offset else f"{n} hr{'s' if abs(hrs) != 1 else ''} " + \
        ("ahead" if offset > 0 else "behind")
    day = "Today" if t.date() == now.date() else ("Tomorrow" if t.date() > now.date()
                                                  else "Yesterday")
    return c.time_text(t.hour, t.minute), f"{day}, {rel}"


def clock(ctx: Ctx) -> Page:
    t = ctx.theme
    now = dt.datetime.fromisoformat(ctx.now)

    def remove(city: str) -> Handler:
        def h() -> None:
            ctx.store["cities"] = [x for x in ctx.store["cities"] if x != city]

        return h

    body: list[View] = [Column([
        Text(c.time_text(now.hour, now.minute), size=64, color=t.on_surface, align="center",
             rid="digital_clock"),
        Text(f"{now.strftime('%a, %b')} {now.day}", size=16, color=t.on_surface_variant,
             align="center", rid="date"),
    ], gap=dp(4), padding=(0, dp(24), 0, dp(24)))]
    for city in ctx.store["cities"]:
        time, rel = _city_time(now, cs.CITIES[city][0])
        body.append(w.card([Row([
            Column([Text(city, size=18, color=t.on_surface, rid="city_name"),
                    Text(rel, size=14, color=t.on_surface_variant, rid="city_day")],
                   flex=1),
            Text(time, size=32, color=t.on_surface, rid="city_time"),
            w.icon_button("close", f"Remove {city}", remove(city), rid="remove_city", theme=t),
        ], gap=dp(8))], theme=t, rid="city_card"))
    body = [Column(body, gap=dp(12), padding=(dp(12), 0, dp(12), 0))]
    fab = _center_fab("earth", "Add city", ctx.go("cities"), ctx, rid="fab")
    return _frame(ctx, "clock", body, fab)


def cities(ctx: Ctx) -> View:
    """Pick cities for the world clock (search by name or country): a checkbox per city,
    checked when it is shown; a tap adds or removes it."""
    t = ctx.theme
    query, on_query = ctx.field("search")
    q = query.strip().lower()

    def toggle(city: str) -> Handler:
        def h() -> None:
            shown = ctx.store["cities"]
            if city in shown:
                shown.remove(city)
            else:
                shown.append(city)

        return h

    rows: list[View] = []
    now = dt.datetime.fromisoformat(ctx.now)
    for city in sorted(cs.CITIES):
        offset, country = cs.CITIES[city]
        if q and q not in city.lower() and q not in country.lower():
            continue
        box = c.checkbox(city, city in ctx.store["cities"], toggle(city), rid="city", theme=t)
        box.flex = 1
        rows.append(Row([
            box,
            Text(_city_time(now, offset)[0], size=14, color=t.on_surface_variant,
                 rid="city_time"),
        ], gap=dp(8), padding=(dp(8), dp(4), dp(16), dp(4)), rid="city_row",
            cls="android.widget.LinearLayout"))
    if not rows:
        rows.append(Text("No matching cities", size=16, color=t.on_surface_variant,
                         padding=(dp(16), dp(24), dp(16), 0), rid="empty"))
    offset, on_scroll = ctx.scroll()
    return Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=t, color=t.on_surface),
             w.text_field("search", query, on_text=on_query, hint="Search for a city",
                          rid="search_src_text", outlined=False, flex=1)],
            gap=dp(4), padding=(dp(4), dp(8), dp(16), dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="city_list"),
    ], bg=t.surface)


# -- Timer and Stopwatch ------------------------------------------------------------------------
def _big(ctx: Ctx, text: str, state: str, rid: str, label: str | None = None) -> View:
    return Column([
        Stack([Text(text, size=64, color=ctx.theme.on_surface, align="center", rid=rid,
                    padding=(0, dp(90), 0, 0))],
              width=dp(300), height=dp(300), radius=dp(150),
              border=ctx.theme.primary if state == "running" else ctx.theme.outline_variant,
              border_width=dp(6)),
        Text(label or {"running": "Running", "paused": "Paused", "reset": ""}[state] or " ",
             size=16,
             color=ctx.theme.on_surface_variant, align="center", rid="state"),
    ], gap=dp(16), padding=(dp(46), dp(32), dp(46), 0))


def _controls(ctx: Ctx, state: str, start: Handler, pause: Handler,
              side: list[tuple[str, Handler, str]]) -> View:
    running = state == "running"
    main = _center_fab("pause" if running else "play", "Pause" if running else "Start",
                       pause if running else start, ctx, rid="fab", wide=True)
    buttons: list[View] = [w.button(label, h, style="tonal", rid=rid, theme=ctx.theme)
                           for label, h, rid in side]
    row = Row([View(flex=1, in_dump=False), *buttons, View(flex=1, in_dump=False)], gap=dp(16),
              padding=(0, dp(24), 0, 0))
    return Column([row, main])


def timer(ctx: Ctx) -> Page:
    tm = ctx.store["timer"]
    state = tm["state"]
    left = cs.timer_left(tm, ctx.now)
    side = [("+1:00", lambda: cs.timer_add(tm, 60), "timer_plus_one")]
    if state == "reset":
        side = [("−1:00", lambda: cs.timer_add(tm, -60), "timer_minus_one"), *side]
    else:
        side = [("Reset", lambda: cs.timer_reset(tm), "reset"), *side]
    label = "Time's up" if state == "running" and left <= 0 else None
    body = [_big(ctx, cs.duration_text(left), state, "timer_time_text", label),
            _controls(ctx, state, lambda: cs.timer_start(tm, ctx.now),
                      lambda: cs.timer_pause(tm, ctx.now), side)]
    return _frame(ctx, "timer", body)


def _hundredths(seconds: int) -> str:
    """The stopwatch's digits: ``m:ss.00`` (the phone's clock counts whole seconds)."""
    return f"{cs.duration_text(seconds)}.00"


def stopwatch(ctx: Ctx) -> Page:
    sw = ctx.store["stopwatch"]
    state = sw["state"]
    side: list[tuple[str, Handler, str]] = []
    if state == "running":
        side = [("Lap", lambda: cs.stopwatch_lap(sw, ctx.now), "lap")]
    elif state == "paused":
        side = [("Reset", lambda: cs.stopwatch_reset(sw), "reset")]
    splits = [int(x) for x in sw["splits"]]
    laps: list[View] = [
        Row([Text(f"Lap {i + 1}", size=16, color=ctx.theme.on_surface, flex=1),
             Text(_hundredths(total - (splits[i - 1] if i else 0)), size=16,
                  color=ctx.theme.on_surface_variant, rid="lap_time"),
             Text(_hundredths(total), size=16, color=ctx.theme.on_surface_variant,
                  rid="lap_total")],
            gap=dp(16), padding=(dp(32), dp(8), dp(32), dp(8)), rid="lap")
        for i, total in reversed(list(enumerate(splits)))]
    body = [_big(ctx, _hundredths(cs.stopwatch_elapsed(sw, ctx.now)), state,
                 "stopwatch_time_text"),
            _controls(ctx, state, lambda: cs.stopwatch_start(sw, ctx.now),
                      lambda: cs.stopwatch_pause(sw, ctx.now), side), *laps]
    return _frame(ctx, "stopwatch", body)


SCREENS: dict[str, Callable[[Ctx], View | Page]] = {
    "alarms": alarms, "clock": clock, "cities": cities, "timer": timer, "stopwatch": stopwatch,
}
