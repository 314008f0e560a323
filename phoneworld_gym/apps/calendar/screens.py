"""Calendar screens: the month grid (dots for events), the schedule, a day, an event, the
event editor with the date picker."""

from __future__ import annotations

import calendar as cal
import datetime as dt
import re
from typing import Any

from phoneworld_gym.app import Ctx, Page
from phoneworld_gym.apps.calendar import store as cs
from phoneworld_gym.ui import controls, pickers
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

DOT = (11, 87, 208)


def today(ctx: Ctx) -> dt.date:
    return dt.datetime.fromisoformat(ctx.now).date()


def clock(t: dt.datetime) -> str:
    """"7:30 PM"."""
    return t.strftime("%I:%M %p").lstrip("0")


def span(e: dict[str, Any]) -> str:
    """"7:00 – 8:30 PM" (both halves when the periods differ)."""
    a, b = cs.from_ms(e["dtstart"]), cs.from_ms(e["dtend"])
    if a.date() != b.date():
        return f"{clock(a)} – {b.strftime('%b')} {b.day}, {clock(b)}"
    return f"{clock(a)} – {clock(b)}"


def parse_time(s: str) -> tuple[int, int] | None:
    """(hour, minute) of "7:30 PM", "7:30pm", "7 pm", "19:30"; None if it is no time."""
    m = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?\s*([ap])?\.?\s*(?:m\.?)?\s*", s.lower())
    if not m:
        return None
    h, mi = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3):
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if m.group(3) == "p" else 0)
    elif m.group(2) is None:
        return None
    return (h, mi) if h < 24 and mi < 60 else None


def fab(ctx: Ctx, day: dt.date | None = None) -> Icon:
    args = {"id": 0, "date": day.isoformat()} if day else {"id": 0}
    return w.fab("plus", "Create new event", ctx.go("edit", **args), theme=ctx.theme,
                 rid="floating_action_button")


def view_tabs(ctx: Ctx, current: str) -> Row:
    def go(screen: str) -> Handler:
        return (lambda: None) if screen == current else (lambda: ctx.replace(screen))

    return pickers.tabs([("Month", current == "main", go("main")),
                         ("Schedule", current == "schedule", go("schedule"))],
                        theme=ctx.theme)


def event_row(ctx: Ctx, e: dict[str, Any], *, with_date: bool = False) -> Row:
    start = cs.from_ms(e["dtstart"])
    when = span(e)
    if with_date:
        when = f"{start.strftime('%a')}, {start.strftime('%b')} {start.day} · {when}"
    lines: list[View] = [Text(e["title"], size=16, weight="medium",
                              color=ctx.theme.on_primary_container, max_lines=1,
                              rid="event_title"),
                         Text(when, size=14, color=ctx.theme.on_primary_container, max_lines=1,
                              rid="event_time")]
    if e["location"]:
        lines.append(Text(e["location"], size=13, color=ctx.theme.on_primary_container,
                          max_lines=1, rid="event_location"))
    return Row([Column(lines, flex=1, gap=dp(2))],
               padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)), bg=ctx.theme.primary_container,
               radius=dp(12), on_click=ctx.go("detail", id=e["id"]), rid="event", flex=1,
               desc=f"{e['title']}, {when}", cls="android.widget.LinearLayout")


# -- month ----------------------------------------------------------------------------------
def main(ctx: Ctx) -> View:
    """The month grid: a dot per event under the day number; a day opens its agenda."""
    now = today(ctx)
    year, month = ctx.state.get("ym", (now.year, now.month))
    py, pm = pickers.shift_month(year, month, -1)
    ny, nm = pickers.shift_month(year, month, 1)
    counts: dict[dt.date, int] = {}
    for e in ctx.store["events"]:
        d = cs.from_ms(e["dtstart"]).date()
        counts[d] = counts.get(d, 0) + 1
    cell_w = (1080 - 2 * dp(8)) // 7
    head = Row([Text(d, size=12, align="center", width=cell_w, in_dump=False,
                     color=ctx.theme.on_surface_variant) for d in pickers.WEEKDAY_INITIALS])
    weeks: list[View] = [head]
    for days in cal.Calendar(firstweekday=6).monthdatescalendar(year, month):
        cells: list[View] = []
        for d in days:
            inside = d.month == month
            n = counts.get(d, 0)
            is_today = d == now
            num = Text(str(d.day), size=13, weight="medium" if is_today else "regular",
                       align="center", width=dp(28), height=dp(28), radius=dp(14),
                       padding=(0, dp(5), 0, 0),
                       bg=ctx.theme.primary if is_today else None,
                       color=ctx.theme.on_primary if is_today else (
                           ctx.theme.on_surface if inside else ctx.theme.outline),
                       in_dump=False)
            dots: list[View] = [View(width=dp(6), height=dp(6), radius=dp(3), bg=DOT,
                                     in_dump=False) for _ in range(min(n, 3))]
            desc = pickers.full_date(d) + (f", {n} event{'s' if n != 1 else ''}" if n else
                                           ", no events")
            cells.append(Column([
                Row([View(flex=1, in_dump=False), num, View(flex=1, in_dump=False)],
                    in_dump=False),
                Row([View(flex=1, in_dump=False), *dots, View(flex=1, in_dump=False)],
                    gap=dp(3), height=dp(10), in_dump=False),
            ], gap=dp(6), width=cell_w, height=dp(72), padding=(0, dp(6), 0, 0),
                on_click=ctx.go("day", date=d.isoformat()), desc=desc, rid="day_cell",
                cls="android.view.View", selected=is_today))
        weeks.append(Row(cells))
    bar = w.app_bar(f"{cal.month_name[month]} {year}", theme=ctx.theme, actions=[
        w.icon_button("calendar", "Jump to today", ctx.setter("ym", (now.year, now.month)),
                      rid="today", theme=ctx.theme),
        w.icon_button("chevron_left", "Previous month", ctx.setter("ym", (py, pm)),
                      rid="prev_month", theme=ctx.theme),
        w.icon_button("chevron_right", "Next month", ctx.setter("ym", (ny, nm)),
                      rid="next_month", theme=ctx.theme),
    ])
    return Column([
        bar, view_tabs(ctx, "main"),
        Stack([Column([Column(weeks, padding=(dp(8), dp(8), dp(8), 0), rid="month_grid")],
                      flex=1),
               fab(ctx)], flex=1, padding=(0, 0, w.MARGIN, w.MARGIN)),
    ], bg=ctx.theme.surface)


# -- schedule -------------------------------------------------------------------------------
def schedule(ctx: Ctx) -> View:
    """Every event from today on, grouped by day."""
    now = today(ctx)
    offset, on_scroll = ctx.scroll()
    rows: list[View] = []
    day = None
    for e in cs.ordered(ctx.store):
        d = cs.from_ms(e["dtstart"]).date()
        if d < now:
            continue
        if d != day:
            day = d
            rows.append(Text(f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}"
                             + (" · Today" if d == now else ""), size=14, weight="medium",
                             color=ctx.theme.primary if d == now else ctx.theme.on_surface_variant,
                             padding=(0, dp(16), 0, dp(4)), rid="day_header"))
        rows.append(event_row(ctx, e))
    if not rows:
        rows.append(Text("Nothing planned", size=16, align="center",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0)))
    rows.append(w.spacer(dp(96)))
    return Column([
        w.app_bar("Schedule", theme=ctx.theme),
        view_tabs(ctx, "schedule"),
        Stack([Scroll(rows, offset=offset, on_scroll=on_scroll, rid="schedule_list", gap=dp(8),
                      padding=(w.MARGIN, 0, 0, 0)), fab(ctx)],
              flex=1, padding=(0, 0, w.MARGIN, w.MARGIN)),
    ], bg=ctx.theme.surface)


# -- a day ----------------------------------------------------------------------------------
def day(ctx: Ctx) -> View:
    """One day's agenda, with arrows to the day before and after."""
    d = dt.date.fromisoformat(ctx.state.get("date", ctx.args["date"]))
    events = cs.on_day(ctx.store, d)
    offset, on_scroll = ctx.scroll()
    rows: list[View] = []
    for e in events:
        rows.append(event_row(ctx, e))
    if not events:
        rows.append(Text("No events", size=16, align="center", rid="empty_text",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0)))
    rows.append(w.spacer(dp(96)))
    prev, nxt = d - dt.timedelta(days=1), d + dt.timedelta(days=1)
    return Column([
        w.app_bar(f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}", on_back=ctx.pop,
                  subtitle=str(d.year), theme=ctx.theme, actions=[
                      w.icon_button("chevron_left", "Previous day",
                                    ctx.setter("date", prev.isoformat()), rid="prev_day",
                                    theme=ctx.theme),
                      w.icon_button("chevron_right", "Next day",
                                    ctx.setter("date", nxt.isoformat()), rid="next_day",
                                    theme=ctx.theme)]),
        Stack([Scroll(rows, offset=offset, on_scroll=on_scroll, rid="day_list", gap=dp(8),
                      padding=(w.MARGIN, 0, 0, 0)),
               fab(ctx, d)], flex=1, padding=(0, dp(8), w.MARGIN, w.MARGIN)),
    ], bg=ctx.theme.surface)


# -- an event -------------------------------------------------------------------------------
def detail(ctx: Ctx) -> View | Page:
    e = cs.find(ctx.store, ctx.args["id"])
    if e is None:
        return Column([w.app_bar("Event", on_back=ctx.pop, theme=ctx.theme),
                       w.text("This event no longer exists.", padding=(w.MARGIN,) * 4)],
                      bg=ctx.theme.surface)
    start = cs.from_ms(e["dtstart"])

    def do_delete() -> None:
        cs.delete(ctx.store, e["id"])
        ctx.close_dialog()
        ctx.pop()
        ctx.toast("Event deleted")

    def info(icon: str, value: str, rid: str) -> Row:
        return Row([Icon(icon, size=20, box=40, color=ctx.theme.on_surface_variant,
                         in_dump=False),
                    Text(value, size=16, color=ctx.theme.on_surface, flex=1, rid=rid)],
                   gap=dp(16), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)))

    rows: list[View] = [
        Row([View(width=dp(16), height=dp(16), radius=dp(4), bg=DOT, in_dump=False),
             Text(e["title"], size=24, color=ctx.theme.on_surface, flex=1, rid="event_title")],
            gap=dp(24), padding=(dp(28), dp(8), w.MARGIN, dp(16))),
        info("clock", f"{start.strftime('%A')}, {start.strftime('%B')} {start.day}, "
             f"{start.year}\n{span(e)}", "event_when"),
    ]
    if e["location"]:
        rows.append(info("location", e["location"], "event_location"))
    if e["description"]:
        rows.append(info("list", e["description"], "event_description"))
    body = Column([
        w.app_bar("", on_back=ctx.pop, theme=ctx.theme, actions=[
            w.icon_button("edit", "Edit event", ctx.go("edit", id=e["id"]), rid="edit",
                          theme=ctx.theme),
            w.icon_button("trash", "Delete event", ctx.show_dialog("delete"), rid="delete",
                          theme=ctx.theme)]),
        Scroll(rows, cls="android.widget.ScrollView"),
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "delete":
        dlg = w.dialog("Delete this event?", e["title"],
                       [("Cancel", ctx.close_dialog), ("Delete", do_delete)], theme=ctx.theme)
    return Page(body, dialog=dlg)


# -- the editor -----------------------------------------------------------------------------
def edit(ctx: Ctx) -> View | Page:
    """Create (id 0) or edit an event. The date opens the date picker; times are typed
    ("7:30 PM" or "19:30"). Nothing is saved until Save."""
    eid = ctx.args["id"]
    existing = cs.find(ctx.store, eid) if eid else None
    if existing is not None:
        s0, e0 = cs.from_ms(existing["dtstart"]), cs.from_ms(existing["dtend"])
    else:
        base = dt.date.fromisoformat(ctx.args.get("date") or today(ctx).isoformat())
        hour = dt.datetime.fromisoformat(ctx.now).hour + 1
        s0 = dt.datetime.combine(base, dt.time(min(hour, 23)))
        e0 = s0 + dt.timedelta(hours=1)
    day = dt.date.fromisoformat(ctx.state.get("date", s0.date().isoformat()))
    title, on_title = ctx.field("title", existing["title"] if existing else "")
    start_s, on_start = ctx.field("start", clock(s0))
    end_s, on_end = ctx.field("end", clock(e0))
    loc, on_loc = ctx.field("location", existing["location"] if existing else "")
    desc, on_desc = ctx.field("description", existing["description"] if existing else "")

    def save() -> None:
        if not title.strip():
            ctx.toast("Add a title")
            return
        a, b = parse_time(start_s), parse_time(end_s)
        if a is None or b is None:
            ctx.toast("Enter times like 7:30 PM")
            return
        start = dt.datetime.combine(day, dt.time(*a))
        end = dt.datetime.combine(day, dt.time(*b))
        if end < start:
            ctx.toast("The end time is before the start time")
            return
        fields = {"title": " ".join(title.split()), "dtstart": cs.epoch_ms(start),
                  "dtend": cs.epoch_ms(end), "location": " ".join(loc.split()),
                  "description": desc.strip()}
        if existing is not None:
            existing.update(fields)
            ctx.pop()
        else:
            e = cs.add(ctx.store, **fields)
            ctx.replace("detail", id=e["id"])
        ctx.toast("Event saved")

    def open_picker() -> None:
        ctx.state["pick_day"] = day.isoformat()
        ctx.state["pick_ym"] = (day.year, day.month)
        ctx.state["_dialog"] = "date"

    def open_clock(which: str, current: str) -> Handler:
        def h() -> None:
            hm = parse_time(current) or (s0.hour, s0.minute)
            f = ctx.state.setdefault("_fields", {})
            f["tp_hour"], f["tp_minute"] = str(hm[0] % 12 or 12), f"{hm[1]:02d}"
            ctx.state.update(tp_which=which, tp_pm=hm[0] >= 12, tp_error="", _dialog="time")

        return h

    date_row = Row([Icon("calendar", size=20, box=40, color=ctx.theme.on_surface_variant,
                         in_dump=False),
                    Text(f"{day.strftime('%a')}, {day.strftime('%b')} {day.day}, {day.year}",
                         size=16, color=ctx.theme.on_surface, flex=1, in_dump=False)],
                   gap=dp(12), height=dp(56), padding=(dp(8), 0, dp(8), 0),
                   border=ctx.theme.outline, border_width=3, radius=dp(4),
                   on_click=open_picker, rid="start_date",
                   desc=f"Date, {pickers.full_date(day)}", cls="android.widget.Button")
    fields: list[View] = [
        w.text_field("title", title, on_text=on_title, label="Add title", rid="title_field"),
        date_row,
        Row([w.text_field("start", start_s, on_text=on_start, label="Start time",
                          rid="start_time", flex=1),
             w.icon_button("clock", "Pick start time", open_clock("start", start_s),
                           rid="pick_start_time", theme=ctx.theme),
             w.text_field("end", end_s, on_text=on_end, label="End time", rid="end_time",
                          flex=1),
             w.icon_button("clock", "Pick end time", open_clock("end", end_s),
                           rid="pick_end_time", theme=ctx.theme)], gap=dp(4)),
        w.text_field("location", loc, on_text=on_loc, label="Add location",
                     rid="location_field"),
        w.text_field("description", desc, on_text=on_desc, label="Add description",
                     rid="description_field"),
    ]
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Edit event" if existing else "New event", on_back=ctx.pop, theme=ctx.theme,
                  actions=[w.button("Save", save, rid="save", theme=ctx.theme),
                           View(width=dp(8), in_dump=False)]),
        Scroll(fields, gap=dp(16), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)), cls="android.widget.ScrollView"),
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "date":
        py, pm = ctx.state.get("pick_ym", (day.year, day.month))
        pick = dt.date.fromisoformat(ctx.state.get("pick_day", day.isoformat()))

        def on_pick(d: dt.date) -> Handler:
            return ctx.setter("pick_day", d.isoformat())

        def on_month(y: int, m: int) -> Handler:
            return ctx.setter("pick_ym", (y, m))

        def ok() -> None:
            ctx.state["date"] = ctx.state.get("pick_day", day.isoformat())
            ctx.close_dialog()

        dlg = pickers.date_picker(year=py, month=pm, selected=pick, on_pick=on_pick,
                                  on_month=on_month, on_ok=ok, on_cancel=ctx.close_dialog,
                                  today=today(ctx), theme=ctx.theme)
    if ctx.dialog == "time":
        tp_hour, on_hour = ctx.field("tp_hour")
        tp_minute, on_minute = ctx.field("tp_minute")
        pm = bool(ctx.state.get("tp_pm"))
        which = ctx.state.get("tp_which", "start")

        def period(is_pm: bool) -> Handler:
            return ctx.setter("tp_pm", is_pm)

        def time_ok() -> None:
            hm = controls.parse_time(tp_hour, tp_minute, pm)
            if hm is None:
                ctx.state["tp_error"] = "Enter a valid time"
                return
            ctx.state.setdefault("_fields", {})[which] = controls.time_text(*hm)
            ctx.close_dialog()

        dlg = controls.time_picker(tp_hour, on_hour, tp_minute, on_minute, pm, period, time_ok,
                                   ctx.close_dialog, key="tp",
                                   title="Start time" if which == "start" else "End time",
                                   error=ctx.state.get("tp_error", ""), theme=ctx.theme)
    return Page(body, dialog=dlg)
