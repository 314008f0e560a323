"""Calendar screens: the month grid (dots for events), the week (an hour grid with a coloured
block per event), the schedule, a day, an event (its guests and notification), the event
editor with the date picker, guests chosen from Contacts (search suggestions, input chips)
and a notification choice."""

from __future__ import annotations

import calendar as cal
import datetime as dt
import re
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.calendar import store as cs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls, pickers, sheets
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Color, Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

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
                         ("Week", current == "week", go("week")),
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


# -- a week ---------------------------------------------------------------------------------
#: one hour of the week grid, in device pixels
HOUR_H = dp(48)
#: width of the hour labels left of the grid
GUTTER_W = dp(44)
#: the shortest block drawn, so a 15-minute event keeps a tappable, readable title
MIN_BLOCK_H = dp(22)
#: event block colours (Google Calendar's Peacock, Tomato, Sage, Grape, Tangerine, Graphite)
BLOCK_COLORS = ((3, 155, 229), (213, 0, 0), (51, 182, 121), (142, 36, 170), (244, 81, 30),
                (97, 97, 97))
#: the week grid scrolls to this hour until the user scrolls it
FIRST_HOUR = 8


def week_start(d: dt.date) -> dt.date:
    """The Sunday on or before ``d`` (weeks start on Sunday, as in the month grid)."""
    return d - dt.timedelta(days=(d.weekday() + 1) % 7)


def block_span(e: dict[str, Any], day: dt.date) -> tuple[int, int]:
    """(top, bottom) pixels of an event's block in ``day``'s column, clamped to the day (an
    event running past midnight is drawn to the bottom of its first day)."""
    a, b = cs.from_ms(e["dtstart"]), cs.from_ms(e["dtend"])
    midnight = dt.datetime.combine(day, dt.time())
    top = int((a - midnight).total_seconds() / 3600 * HOUR_H)
    bottom = min(int((b - midnight).total_seconds() / 3600 * HOUR_H), 24 * HOUR_H)
    return top, min(max(bottom, top + MIN_BLOCK_H), 24 * HOUR_H)


def lanes(spans: list[tuple[int, int, dict[str, Any]]]) -> list[list[tuple[int, int, dict]]]:
    """Greedy side-by-side lanes so overlapping events are drawn next to each other, never on
    top of each other; ``spans`` are sorted by top."""
    out: list[list[tuple[int, int, dict[str, Any]]]] = []
    for sp in spans:
        for lane in out:
            if lane[-1][1] <= sp[0]:
                lane.append(sp)
                break
        else:
            out.append([sp])
    return out


def week_block(ctx: Ctx, e: dict[str, Any], height: int) -> Column:
    """One event in the grid: its title on its colour; a tap opens the event."""
    start = cs.from_ms(e["dtstart"])
    line_h = dp(15)
    title = Text(e["title"], size=11, weight="medium", color=(255, 255, 255),
                 max_lines=max(1, (height - dp(4)) // line_h), rid="event_title")
    return Column([title], height=height, radius=dp(4), padding=(dp(3), dp(2), dp(2), 0),
                  bg=BLOCK_COLORS[e["id"] % len(BLOCK_COLORS)],
                  on_click=ctx.go("detail", id=e["id"]), rid="week_event",
                  desc=f"{e['title']}, {start.strftime('%A')}, {start.strftime('%B')} "
                       f"{start.day}, {span(e)}", cls="android.widget.LinearLayout")


def week_column(ctx: Ctx, d: dt.date, line: Color) -> Row:
    """A day's column: a left rule, then its events in side-by-side lanes."""
    spans = [(*block_span(e, d), e) for e in cs.on_day(ctx.store, d)]
    cols: list[View] = []
    for lane in lanes(sorted(spans, key=lambda s: (s[0], s[2]["id"]))):
        parts: list[View] = []
        y = 0
        for top, bottom, e in lane:
            if top > y:
                parts.append(View(height=top - y, in_dump=False))
            parts.append(week_block(ctx, e, bottom - top))
            y = bottom
        cols.append(Column(parts, flex=1, height=24 * HOUR_H, padding=(0, 0, dp(1), 0)))
    if not cols:
        cols.append(View(flex=1, in_dump=False))
    # a Row centres its children vertically: every part is the grid's full height
    return Row([View(width=2, height=24 * HOUR_H, bg=line, in_dump=False), *cols], flex=1,
               height=24 * HOUR_H, padding=(0, 0, dp(1), 0), rid="week_day_column",
               desc=pickers.full_date(d))


def week_header(ctx: Ctx, days: list[dt.date], now: dt.date) -> Row:
    """Weekday and date per column, today's date on the primary colour; a tap opens the
    day."""
    cells: list[View] = [View(width=GUTTER_W, in_dump=False)]
    for d in days:
        is_today = d == now
        n = len(cs.on_day(ctx.store, d))
        num = Text(str(d.day), size=16, weight="medium" if is_today else "regular",
                   align="center", width=dp(32), height=dp(32), radius=dp(16),
                   padding=(0, dp(5), 0, 0), bg=ctx.theme.primary if is_today else None,
                   color=ctx.theme.on_primary if is_today else ctx.theme.on_surface,
                   in_dump=False)
        cells.append(Column([
            Text(d.strftime("%a").upper(), size=11, align="center", in_dump=False,
                 color=ctx.theme.primary if is_today else ctx.theme.on_surface_variant),
            Row([View(flex=1, in_dump=False), num, View(flex=1, in_dump=False)],
                in_dump=False),
        ], gap=dp(2), flex=1, padding=(0, dp(6), 0, dp(6)),
            on_click=ctx.go("day", date=d.isoformat()), rid="week_day_header",
            desc=pickers.full_date(d) + (", today" if is_today else "")
            + (f", {n} event{'s' if n != 1 else ''}" if n else ", no events"),
            cls="android.view.View", selected=is_today))
    return Row(cells, rid="week_header")


def hour_label(h: int) -> str:
    """"8 AM" ... ("" for midnight, as the grid's top needs none)."""
    return "" if h == 0 else dt.time(h).strftime("%I %p").lstrip("0")


def week(ctx: Ctx) -> View:
    """Seven day columns (Sunday first) over a scrollable hour grid, each event a coloured
    block from its start to its end; arrows step a week."""
    now = today(ctx)
    start = dt.date.fromisoformat(ctx.state.get("week", week_start(now).isoformat()))
    days = [start + dt.timedelta(days=i) for i in range(7)]
    line = ctx.theme.outline_variant
    _, on_scroll = ctx.scroll("week")
    offset = int(ctx.state.get("_scroll", {}).get("week", FIRST_HOUR * HOUR_H))
    labels = Column([Text(hour_label(h), size=10, align="right", height=HOUR_H,
                          padding=(0, 0, dp(6), 0), color=ctx.theme.on_surface_variant,
                          in_dump=False) for h in range(24)], width=GUTTER_W, in_dump=False)
    rules = Column([Column([View(height=2, bg=line, in_dump=False),
                            View(height=HOUR_H - 2, in_dump=False)], in_dump=False)
                    for _ in range(24)], in_dump=False)
    # containers stay in the dump: a view left out takes its subtree (the events) with it
    grid = Row([labels, Stack([rules, Row([week_column(ctx, d, line) for d in days])],
                              flex=1)])
    end = days[-1]
    title = (f"{start.strftime('%b')} {start.day} – {end.day}, {end.year}"
             if start.month == end.month else
             f"{start.strftime('%b')} {start.day} – {end.strftime('%b')} {end.day}, {end.year}")
    prev, nxt = start - dt.timedelta(days=7), start + dt.timedelta(days=7)
    bar = w.app_bar(title, theme=ctx.theme, actions=[
        w.icon_button("calendar", "Jump to today", ctx.setter("week", week_start(now).isoformat()),
                      rid="today", theme=ctx.theme),
        w.icon_button("chevron_left", "Previous week", ctx.setter("week", prev.isoformat()),
                      rid="prev_week", theme=ctx.theme),
        w.icon_button("chevron_right", "Next week", ctx.setter("week", nxt.isoformat()),
                      rid="next_week", theme=ctx.theme),
    ])
    return Column([
        bar, view_tabs(ctx, "week"), week_header(ctx, days, now),
        View(height=2, bg=line, in_dump=False),
        Stack([Scroll([grid], offset=offset, on_scroll=on_scroll, rid="week_grid"),
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
    """One event: title, when, where, its guests (name, address, response) and its
    notification, the description; Edit and Delete (with a confirmation) in the bar."""
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
    guests = cs.guests_of(ctx.store, e["id"])
    if guests:
        rows.append(info("user_plus", f"{len(guests)} guest{'s' if len(guests) != 1 else ''}",
                         "guest_count"))
        rows += [guest_row(ctx, a) for a in guests]
    reminder = cs.reminder_of(ctx.store, e["id"])
    if reminder is not None:
        rows.append(info("bell", cs.reminder_label(int(reminder["minutes"])), "event_reminder"))
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


def guest_row(ctx: Ctx, a: dict[str, Any]) -> Row:
    """A guest of the event screen: initials, name (or address) and response."""
    label = a["name"] or a["email"]
    lines: list[View] = [Text(label, size=16, color=ctx.theme.on_surface, max_lines=1,
                              rid="attendee_name")]
    sub = " · ".join(x for x in (a["email"] if a["name"] else "",
                                 cs.STATUS_WORDS.get(a["status"], "")) if x)
    if sub:
        lines.append(Text(sub, size=13, color=ctx.theme.on_surface_variant, max_lines=1,
                          rid="attendee_status"))
    return Row([w.avatar(label, _tint(a["email"]), size=32),
                Column(lines, flex=1, gap=dp(2))],
               gap=dp(16), padding=(w.MARGIN + dp(4), dp(6), w.MARGIN, dp(6)), rid="attendee",
               desc=f"{label}, {cs.STATUS_WORDS.get(a['status'], '') or 'guest'}")


def _tint(key: str) -> tuple[int, int, int]:
    """A stable avatar colour for a guest."""
    return BLOCK_COLORS[sum(map(ord, key)) % len(BLOCK_COLORS)]


def guest_chip(ctx: Ctx, label: str, email: str, on_remove: Handler) -> Row:
    """An input chip for a guest in the editor: initials, the name, and a remove button."""
    return Row([w.avatar(label, _tint(email), size=24),
                Text(label, size=14, weight="medium", color=ctx.theme.on_surface, max_lines=1,
                     rid="chip_text"),
                Icon("close", size=16, box=32, color=ctx.theme.on_surface_variant,
                     desc=f"Remove {label}", on_click=on_remove, rid="chip_remove",
                     cls="android.widget.ImageButton")],
               gap=dp(6), height=dp(36), padding=(dp(4), 0, dp(2), 0), radius=dp(8),
               border=ctx.theme.outline_variant, border_width=3, rid="guest_chip",
               cls="com.google.android.material.chip.Chip")


def people_suggestions(ctx: Ctx, token: str, taken: set[str]) -> list[tuple[str, str]]:
    """(name, email) of the contacts with an email whose name or address holds ``token``,
    leaving out guests already added (at most five, by name)."""
    t = " ".join(token.lower().split())
    if not t:
        return []
    out = [(r["display_name"], r["email"]) for r in ctx.query("contacts")
           if r.get("email") and r["email"].lower() not in taken
           and (t in r["display_name"].lower() or t in r["email"].lower())]
    return sorted(out)[:5]


# -- the editor -----------------------------------------------------------------------------
def edit(ctx: Ctx) -> View | Page:
    """Create (id 0) or edit an event. The date opens the date picker; times are typed
    ("7:30 PM" or "19:30"); "Add people" suggests contacts (a tap makes a chip, its x
    removes it; a typed address is a guest too); the bell row picks the notification.
    Nothing is saved until Save."""
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
    people, on_people = ctx.field("people")
    if "guests" in ctx.state:
        guests: list[dict[str, str]] = ctx.state["guests"]
    else:
        guests = [{"name": a["name"], "email": a["email"]}
                  for a in cs.guests_of(ctx.store, eid)] if existing else []
    taken = {g["email"].lower() for g in guests}
    r0 = cs.reminder_of(ctx.store, eid) if existing else None
    reminder0 = None if r0 is None else int(r0["minutes"])
    reminder = ctx.state["reminder"] if "reminder" in ctx.state else reminder0

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
        fields: dict[str, Any] = {
            "title": " ".join(title.split()), "dtstart": cs.epoch_ms(start),
            "dtend": cs.epoch_ms(end), "location": " ".join(loc.split()),
            "description": desc.strip()}
        if existing is not None:
            existing.update(fields)
            target = existing
        else:
            target = cs.add(ctx.store, **fields)
        save_guests(target["id"])
        if reminder != reminder0:
            cs.set_reminder(ctx.store, target["id"], reminder)
        if existing is not None:
            ctx.pop()
        else:
            ctx.replace("detail", id=target["id"])
        ctx.toast("Event saved")

    def save_guests(target: int) -> None:
        """Uninvite the guests removed, invite the ones added (keeping the others' rows)."""
        keep = {g["email"].lower() for g in guests}
        have = cs.guests_of(ctx.store, target)
        for a in have:
            if a["email"].lower() not in keep:
                cs.uninvite(ctx.store, a["id"])
        old = {a["email"].lower() for a in have}
        for g in guests:
            if g["email"].lower() not in old:
                cs.invite(ctx.store, target, g["name"], g["email"])

    def add_guest(name: str, email: str) -> Handler:
        def h() -> None:
            ctx.state["guests"] = [*guests, {"name": name, "email": email}]
            ctx.state.setdefault("_fields", {})["people"] = ""
            ctx.clear_focus()

        return h

    def remove_guest(email: str) -> Handler:
        def h() -> None:
            ctx.state["guests"] = [g for g in guests if g["email"].lower() != email.lower()]

        return h

    def submit_people() -> None:
        """Enter in "Add people": an email address becomes a guest (named after the contact
        that has it); anything else waits for a suggestion to be picked."""
        typed = people.strip()
        if not cs.EMAIL.fullmatch(typed):
            return
        if typed.lower() in taken:
            ctx.toast("Already added")
            return
        name = next((r["display_name"] for r in ctx.query("contacts")
                     if (r.get("email") or "").lower() == typed.lower()), "")
        add_guest(name, typed)()

    def choose_reminder(label: str) -> Handler:
        def h() -> None:
            ctx.state["reminder"] = next(m for m, lab in cs.REMINDER_CHOICES if lab == label)
            ctx.close_dialog()

        return h

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
        w.text_field("people", people, on_text=on_people, label="Add people",
                     on_submit=submit_people, rid="people_field"),
    ]
    found = people_suggestions(ctx, people, taken)
    if found:
        names = [n for n, _ in found]
        fields.append(sheets.search_suggestions(
            [(n if names.count(n) == 1 else f"{n} ({e})", add_guest(n, e)) for n, e in found],
            glyph="user", theme=ctx.theme))
    if guests:
        chips = [guest_chip(ctx, g["name"] or g["email"], g["email"], remove_guest(g["email"]))
                 for g in guests]
        fields.append(w.wrap_row(chips, 1080 - 2 * w.MARGIN))
    label = cs.reminder_label(reminder) if reminder is not None else "Add notification"
    fields += [
        w.text_field("location", loc, on_text=on_loc, label="Add location",
                     rid="location_field"),
        Row([Icon("bell", size=20, box=40, color=ctx.theme.on_surface_variant, in_dump=False),
             Text(label, size=16, color=ctx.theme.on_surface, flex=1, in_dump=False)],
            gap=dp(12), height=dp(56), padding=(dp(8), 0, dp(8), 0),
            border=ctx.theme.outline, border_width=3, radius=dp(4),
            on_click=ctx.show_dialog("reminder"), rid="reminder", desc=f"Notification, {label}",
            cls="android.widget.Button"),
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
    if ctx.dialog == "reminder":
        current = cs.reminder_label(reminder) if reminder is not None else "No notification"
        dlg = w.dialog("Notification", "", [("Cancel", ctx.close_dialog)], theme=ctx.theme,
                       body=[controls.radio_group([lab for _, lab in cs.REMINDER_CHOICES],
                                                  current, choose_reminder,
                                                  rid="reminder_choice", theme=ctx.theme)])
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
