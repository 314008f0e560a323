"""Fitness screens that show data, like Google Fit: Home (today's steps against the goal,
the week's active minutes, a seven-day step chart, recent activities), the Journal (week or
month, one period at a time, filtered by type, with the period's totals), an activity's page
(stats, share, delete behind a confirmation), personal records, the Profile (goals, records,
devices) and Connected devices (none: pairing a watch finds nothing).

The screens that change data (logging an activity, editing a goal) are in
:mod:`phoneworld_gym.apps.fitness.editors`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.fitness import store as fs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import pickers
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import Color, Column, Icon, Row, Scroll, Stack, Text, View, dp

TEAL: Color = (0, 137, 123)
TYPE_TINT: dict[str, Color] = {"walk": (0, 137, 123), "run": (26, 115, 232),
                               "ride": (227, 116, 0), "swim": (3, 155, 229)}


def today(ctx: Ctx) -> dt.date:
    return dt.datetime.fromisoformat(ctx.now).date()


def short_day(d: dt.date) -> str:
    """"Sat, Mar 7"."""
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"


def clock_text(t: dt.datetime) -> str:
    """"7:05 AM"."""
    return t.strftime("%I:%M %p").lstrip("0")


def period_label(first: dt.date, last: dt.date, kind: str) -> str:
    """"Mar 9 – 15" for a week (across months "Feb 23 – Mar 1"), "March 2026" for a month."""
    if kind == "month":
        return f"{first.strftime('%B')} {first.year}"
    if first.month == last.month:
        return f"{first.strftime('%b')} {first.day} – {last.day}"
    return f"{first.strftime('%b')} {first.day} – {last.strftime('%b')} {last.day}"


def nav(ctx: Ctx, current: str) -> Row:
    """The bottom navigation: Home, Journal, Profile."""
    return tab_nav(ctx, [("heart_pulse", "Home", "main"), ("list", "Journal", "journal"),
                         ("user", "Profile", "profile")], current)


def progress(frac: float, color: Color, track: Color, *, rid: str = "") -> Row:
    """A linear progress bar (``ProgressBar``), full past 100%."""
    f = max(0.0, min(1.0, frac))
    parts: list[View] = []
    if f > 0:
        parts.append(View(flex=f, height=dp(8), radius=dp(4), bg=color, in_dump=False))
    if f < 1:
        parts.append(View(flex=1 - f, height=dp(8), radius=dp(4), bg=track, in_dump=False))
    return Row(parts, height=dp(8), gap=dp(2) if 0 < f < 1 else 0,
               cls="android.widget.ProgressBar", rid=rid, desc=f"{round(f * 100)} percent")


def type_icon(kind: str, *, size: float = 22, box: float = 40) -> Icon:
    return Icon(fs.ICONS[kind], size=size, box=box, radius=dp(box / 2), color=(255, 255, 255),
                bg=TYPE_TINT[kind], in_dump=False)


def activity_row(ctx: Ctx, a: dict[str, Any]) -> Row:
    """A journal row: the type's icon, title, day, time and route, distance and duration;
    a tap opens the activity."""
    th = ctx.theme
    start = fs.start_of(a)
    sub = f"{short_day(start.date())} · {clock_text(start)}"
    if a["route"]:
        sub += f" · {a['route']}"
    name = fs.title(a).capitalize()
    return Row([
        type_icon(a["type"]),
        Column([Text(name, size=16, color=th.on_surface, max_lines=1, rid="activity_title"),
                Text(sub, size=13, color=th.on_surface_variant, max_lines=1,
                     rid="activity_when")], flex=1, gap=dp(2)),
        Column([Text(fs.km_text(a["distance"]), size=15, weight="medium", align="right",
                     color=th.on_surface, rid="activity_distance"),
                Text(fs.duration_text(a["duration"]), size=13, align="right",
                     color=th.on_surface_variant, rid="activity_duration")],
               gap=dp(2), width=dp(96)),
    ], gap=dp(16), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)),
        on_click=ctx.go("activity", id=a["id"]), rid="activity_row",
        desc=f"{name}, {short_day(start.date())}", cls="android.widget.LinearLayout")


# -- Home ---------------------------------------------------------------------------------------
def _step_chart(ctx: Ctx, now: dt.date) -> View:
    """The last seven days' steps as bars, the goal as the scale's top."""
    th = ctx.theme
    goal = int(ctx.store["goals"]["daily_steps"])
    days = [now - dt.timedelta(days=b) for b in range(6, -1, -1)]
    counts = [int(ctx.store["steps"].get(d.isoformat(), 0)) for d in days]
    top = max([goal, *counts])
    full = dp(96)
    cols: list[View] = []
    for d, n in zip(days, counts):
        h = max(dp(4), int(full * n / top))
        cols.append(Column([View(height=full - h, in_dump=False),
                            Row([View(flex=1, in_dump=False),
                                 View(width=dp(18), height=h, radius=dp(4),
                                      bg=th.primary if n >= goal else th.primary_container,
                                      in_dump=False),
                                 View(flex=1, in_dump=False)], in_dump=False),
                            Text(d.strftime("%a")[0], size=12, align="center",
                                 color=th.on_surface_variant, in_dump=False)],
                           flex=1, gap=dp(4), desc=f"{short_day(d)}: {n:,} steps",
                           rid="step_bar"))
    return Row(cols, gap=dp(4))


def main(ctx: Ctx) -> View | Page:
    """Home: today's steps against the daily goal, this week's active minutes against the
    weekly goal, the week's step chart, the three newest activities and "Add activity"."""
    th = ctx.theme
    now = today(ctx)
    st = ctx.store
    steps = int(st["steps"].get(now.isoformat(), 0))
    goal = int(st["goals"]["daily_steps"])
    minutes = fs.week_minutes(st, now)
    mgoal = int(st["goals"]["weekly_active_minutes"])
    first, last = fs.period("week", 0, now)
    week = fs.totals(fs.in_period(st, first, last))
    rings = w.card([
        Row([Icon("shoe_prints", size=18, box=28, color=th.primary, in_dump=False),
             Text("Steps today", size=14, color=th.on_surface_variant, flex=1)], gap=dp(8)),
        Row([Text(f"{steps:,}", size=36, weight="medium", color=th.primary, rid="steps_today"),
             Text(f"/ {goal:,}", size=16, color=th.on_surface_variant, rid="steps_goal",
                  padding=(0, dp(16), 0, 0))], gap=dp(8)),
        progress(steps / goal, th.primary, th.primary_container, rid="steps_progress"),
        w.spacer(dp(12)),
        Row([Icon("heart_pulse", size=18, box=28, color=TEAL, in_dump=False),
             Text("Active minutes this week", size=14, color=th.on_surface_variant, flex=1)],
            gap=dp(8)),
        Row([Text(f"{minutes}", size=36, weight="medium", color=TEAL, rid="week_minutes"),
             Text(f"/ {mgoal} min", size=16, color=th.on_surface_variant, rid="minutes_goal",
                  padding=(0, dp(16), 0, 0))], gap=dp(8)),
        progress(minutes / mgoal, TEAL, (204, 235, 231), rid="minutes_progress"),
    ], theme=th)
    stats = Row([_stat(ctx, fs.km_text(week["distance"]), "Distance", "week_distance"),
                 _stat(ctx, f"{week['calories']:,}", "Calories", "week_calories"),
                 _stat(ctx, str(week["count"]), "Activities", "week_count")], gap=dp(8))
    recent = fs.in_period(st, dt.date.min, now)[:3]
    def inset(v: View) -> Column:  # the right margin is the Stack's (it insets the FAB)
        return Column([v], padding=(w.MARGIN, 0, 0, 0))

    rows: list[View] = [
        inset(rings),
        w.section("This week", theme=th), inset(stats),
        w.section("Steps", theme=th), inset(_step_chart(ctx, now)),
        w.section("Recent activities", theme=th,
                  action=w.button("See all", lambda: ctx.reset_to("journal"),
                                  style="text", rid="see_all", theme=th)),
    ]
    if recent:
        rows += [activity_row(ctx, a) for a in recent]
    else:
        rows.append(Text("No activities yet. Tap + to add one.", size=14, align="center",
                         color=th.on_surface_variant, padding=(0, dp(24), 0, dp(24)),
                         rid="empty_text"))
    rows.append(w.spacer(dp(88)))
    offset, on_scroll = ctx.scroll()
    fab = w.fab("plus", "Add activity", ctx.go("log"), theme=th, rid="add_activity")
    body = Column([
        w.app_bar("Fitness", theme=th, actions=[
            w.icon_button("gem", "Personal records", ctx.go("records"), rid="menu_records",
                          theme=th)]),
        Stack([Scroll(rows, gap=dp(8), offset=offset, on_scroll=on_scroll,
                      rid="home_list"), fab],
              flex=1, padding=(0, 0, w.MARGIN, w.MARGIN)),
        nav(ctx, "main"),
    ], bg=th.surface)
    return Page(body)


def _stat(ctx: Ctx, value: str, label: str, rid: str) -> Column:
    th = ctx.theme
    return Column([Text(value, size=18, weight="medium", color=th.on_surface, align="center",
                        rid=rid, max_lines=1),
                   Text(label, size=12, color=th.on_surface_variant, align="center")],
                  flex=1, gap=dp(2), padding=(0, dp(12), 0, dp(12)), radius=dp(12),
                  bg=th.surface_container)


# -- Journal ------------------------------------------------------------------------------------
FILTERS: tuple[str, ...] = ("all", *fs.TYPES)


def journal(ctx: Ctx) -> View | Page:
    """The journal: Week / Month tabs, the period shown (arrows step back and forth, never
    past the current one), type chips, the period's totals and its activities, newest
    first."""
    th = ctx.theme
    kind = str(ctx.state.get("kind", "week"))
    back = int(ctx.state.get("back", 0))
    flt = str(ctx.state.get("filter", ctx.args.get("filter", "all")))
    first, last = fs.period(kind, back, today(ctx))
    rows_data = fs.in_period(ctx.store, first, last, flt)
    tot = fs.totals(rows_data)

    def set_kind(k: str) -> Any:
        def h() -> None:
            ctx.state["kind"] = k
            ctx.state["back"] = 0
        return h

    tabs = pickers.tabs([("Week", kind == "week", set_kind("week")),
                         ("Month", kind == "month", set_kind("month"))], theme=th,
                        rid="period_tabs")
    unit = "week" if kind == "week" else "month"
    stepper = Row([
        w.icon_button("chevron_left", f"Previous {unit}", ctx.setter("back", back + 1),
                      rid="prev_period", theme=th),
        Text(period_label(first, last, kind), size=16, weight="medium", align="center",
             color=th.on_surface, flex=1, rid="period_title"),
        w.icon_button("chevron_right", f"Next {unit}",
                      ctx.setter("back", back - 1) if back > 0 else None, rid="next_period",
                      theme=th, color=th.on_surface_variant if back > 0
                      else th.outline_variant),
    ], padding=(dp(4), 0, dp(4), 0))
    chips = Row([w.chip("All" if f == "all" else fs.LABELS[f], selected=f == flt,
                        on_click=ctx.setter("filter", f), rid="filter_chip", theme=th)
                 for f in FILTERS], gap=dp(8), padding=(w.MARGIN, 0, w.MARGIN, 0))
    summary = w.card([
        Text(f"{tot['count']} {'activity' if tot['count'] == 1 else 'activities'}", size=14,
             color=th.on_surface_variant, rid="summary_count"),
        Row([_figure(ctx, fs.km_text(tot["distance"]), "Distance", "summary_distance"),
             _figure(ctx, fs.duration_text(tot["minutes"]), "Active time", "summary_time"),
             _figure(ctx, f"{tot['calories']:,}", "Calories", "summary_calories")],
            gap=dp(8)),
    ], theme=th)
    rows: list[View] = [Column([summary], padding=(w.MARGIN, 0, w.MARGIN, 0))]
    if rows_data:
        rows += [activity_row(ctx, a) for a in rows_data]
    else:
        what = "activities" if flt == "all" else {"walk": "walks", "run": "runs",
                                                  "ride": "rides", "swim": "swims"}[flt]
        rows.append(Column([
            Icon("shoe_prints", size=40, box=72, color=th.primary_container, in_dump=False),
            Text(f"No {what} this {unit}", size=16, align="center", color=th.on_surface,
                 rid="empty_text"),
        ], gap=dp(8), padding=(0, dp(32), 0, dp(24))))
    rows.append(w.spacer(dp(24)))
    offset, on_scroll = ctx.scroll(f"{kind}{back}{flt}")
    share_text = (f"My {unit} in Fitness ({period_label(first, last, kind)}): "
                  f"{tot['count']} {'activity' if tot['count'] == 1 else 'activities'}, "
                  f"{fs.km_text(tot['distance'])}, {fs.duration_text(tot['minutes'])}")
    body = Column([
        w.app_bar("Journal", theme=th, actions=[
            w.icon_button("share", "Share summary", ctx.share(text=share_text),
                          rid="share_summary", theme=th)]),
        tabs, stepper, chips, w.spacer(dp(8)),
        Scroll(rows, gap=dp(4), offset=offset, on_scroll=on_scroll, flex=1,
               rid="journal_list"),
        nav(ctx, "journal"),
    ], bg=th.surface)
    return Page(body)


def _figure(ctx: Ctx, value: str, label: str, rid: str) -> Column:
    th = ctx.theme
    return Column([Text(value, size=17, weight="medium", color=th.on_surface, rid=rid,
                        max_lines=1),
                   Text(label, size=12, color=th.on_surface_variant)], flex=1, gap=dp(2))


# -- one activity ---------------------------------------------------------------------------------
def activity(ctx: Ctx) -> View | Page:
    """An activity: type, day and time, route, distance, duration, pace or speed, calories,
    where it came from; share, and delete after a confirmation."""
    th = ctx.theme
    a = fs.find(ctx.store, ctx.args.get("id"))
    if a is None:
        return Page(Column([w.app_bar("Activity", on_back=ctx.pop, theme=th),
                            w.text("This activity was deleted.", padding=(w.MARGIN,) * 4,
                                   theme=th, rid="empty_text")], bg=th.surface))
    start = fs.start_of(a)
    name = fs.title(a).capitalize()
    when = f"{start.strftime('%A')}, {start.strftime('%B')} {start.day}, {start.year}"

    def delete() -> None:
        fs.delete(ctx.store, a["id"])
        ctx.close_dialog()
        ctx.pop()
        ctx.toast("Activity deleted")

    pace_label = "Avg speed" if a["type"] == "ride" else "Avg pace"
    share_text = (f"{name} on {short_day(start.date())}: {fs.km_text(a['distance'])} in "
                  f"{fs.duration_text(a['duration'])}")
    head = Column([
        Row([type_icon(a["type"], size=28, box=56),
             Column([Text(name, size=24, color=th.on_surface, rid="detail_title"),
                     Text(f"{when} · {clock_text(start)}", size=14,
                          color=th.on_surface_variant, rid="detail_when")], flex=1,
                    gap=dp(2))], gap=dp(16)),
    ] + ([Row([Icon("route", size=16, box=24, color=th.on_surface_variant, in_dump=False),
               Text(a["route"], size=14, color=th.on_surface_variant, rid="detail_route",
                    flex=1)], gap=dp(8))] if a["route"] else []), gap=dp(12))
    grid = Column([
        Row([_tile(ctx, "Distance", fs.km_text(a["distance"]), "stat_distance"),
             _tile(ctx, "Duration", fs.duration_text(a["duration"]), "stat_duration")],
            gap=dp(8)),
        Row([_tile(ctx, pace_label, fs.pace_text(a), "stat_pace"),
             _tile(ctx, "Calories", f"{a['calories']:,} Cal", "stat_calories")], gap=dp(8)),
    ], gap=dp(8))
    source = "Tracked with Fitness" if a["source"] == "Tracked" else "Added manually"
    body = Column([
        w.app_bar(fs.LABELS[a["type"]], on_back=ctx.pop, theme=th, actions=[
            w.icon_button("share", "Share activity", ctx.share(text=share_text),
                          rid="share_activity", theme=th),
            w.icon_button("trash", "Delete activity", ctx.show_dialog("delete"),
                          rid="delete_activity", theme=th)]),
        Scroll([head, grid, Text(source, size=13, color=th.on_surface_variant,
                                 rid="detail_source")],
               gap=dp(20), padding=(w.MARGIN, dp(8), w.MARGIN, dp(24)), rid="detail"),
    ], bg=th.surface)
    dlg = None
    if ctx.dialog == "delete":
        dlg = w.dialog("Delete this activity?",
                       "It will be removed from your journal, goals and records.",
                       [("Cancel", ctx.close_dialog), ("Delete", delete)], theme=th)
    return Page(body, dialog=dlg)


def _tile(ctx: Ctx, label: str, value: str, rid: str) -> Column:
    th = ctx.theme
    return Column([Text(label, size=13, color=th.on_surface_variant),
                   Text(value, size=22, weight="medium", color=th.on_surface, rid=rid,
                        max_lines=1)],
                  flex=1, gap=dp(4), padding=(dp(16), dp(14), dp(16), dp(14)),
                  radius=dp(16), bg=th.surface_container)


# -- records --------------------------------------------------------------------------------------
def records(ctx: Ctx) -> View | Page:
    """Personal records (all time); a tap opens the activity that holds one."""
    th = ctx.theme
    rows: list[View] = []
    for label, a, value in fs.records(ctx.store):
        sub = short_day(fs.day_of(a)) + f", {fs.day_of(a).year}" if a else "No activity yet"
        lead = Icon("gem", size=20, box=40, radius=dp(20), color=(255, 255, 255),
                    bg=TYPE_TINT[a["type"]] if a else th.outline_variant, in_dump=False)
        rows.append(Row([
            lead,
            Column([Text(label, size=16, color=th.on_surface, rid="record_label"),
                    Text(sub, size=13, color=th.on_surface_variant, rid="record_date")],
                   flex=1, gap=dp(2)),
            Text(value, size=16, weight="medium", color=th.primary, rid="record_value"),
        ], gap=dp(16), padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)),
            on_click=ctx.go("activity", id=a["id"]) if a else None, desc=label,
            rid="record_row", cls="android.widget.LinearLayout"))
    offset, on_scroll = ctx.scroll()
    body = Column([w.app_bar("Personal records", on_back=ctx.pop, theme=th),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="records_list")],
                  bg=th.surface)
    return Page(body)


# -- profile and devices --------------------------------------------------------------------------
def profile(ctx: Ctx) -> View | Page:
    """The profile: who, their goals (a tap edits one), records and connected devices."""
    th = ctx.theme
    p = ctx.store["profile"]
    goals = ctx.store["goals"]
    head = Row([w.avatar(p["name"], th.primary, size=56),
                Column([Text(p["name"], size=20, color=th.on_surface, rid="profile_name"),
                        Text(f"{p['weight']:.0f} kg · {p['height']} cm", size=14,
                             color=th.on_surface_variant, rid="profile_body")], flex=1,
                       gap=dp(2))], gap=dp(16), padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)))
    goal_rows: list[View] = [
        w.list_item("Daily steps", subtitle=f"{goals['daily_steps']:,} steps",
                    leading=Icon("shoe_prints", size=20, box=40, color=th.primary,
                                 in_dump=False),
                    on_click=ctx.go("goal", goal="daily_steps"),
                    rid="goal_steps", desc="Daily steps goal", theme=th),
        w.list_item("Weekly active minutes",
                    subtitle=f"{goals['weekly_active_minutes']} min",
                    leading=Icon("heart_pulse", size=20, box=40, color=TEAL, in_dump=False),
                    on_click=ctx.go("goal", goal="weekly_active_minutes"),
                    rid="goal_minutes",
                    desc="Weekly active minutes goal", theme=th),
    ]
    more: list[View] = [
        w.list_item("Personal records", subtitle="Your longest and biggest sessions",
                    leading=Icon("gem", size=20, box=40, color=th.on_surface_variant,
                                 in_dump=False),
                    on_click=ctx.go("records"),
                    rid="open_records", desc="Personal records", theme=th),
        w.list_item("Connected apps & devices", subtitle="Watches and other trackers",
                    leading=Icon("mobile", size=20, box=40, color=th.on_surface_variant,
                                 in_dump=False),
                    on_click=ctx.go("devices"),
                    rid="open_devices", desc="Connected apps & devices", theme=th),
    ]
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Profile", theme=th),
        Scroll([head, w.section("Goals", theme=th), *goal_rows,
                w.section("More", theme=th), *more], offset=offset, on_scroll=on_scroll,
               flex=1, rid="profile_list"),
        nav(ctx, "profile"),
    ], bg=th.surface)
    return Page(body)


def devices(ctx: Ctx) -> View | Page:
    """Connected apps & devices: nothing is paired, and looking for a watch finds none."""
    th = ctx.theme
    searched = bool(ctx.state.get("searched"))
    kids: list[View] = [
        Icon("mobile", size=48, box=96, color=th.primary_container, in_dump=False),
        Text("No devices connected", size=20, align="center", color=th.on_surface,
             rid="devices_title"),
        Text("Activities are tracked with this phone. Pair a watch to sync its workouts.",
             size=14, align="center", color=th.on_surface_variant),
        Row([View(flex=1, in_dump=False),
             w.button("Pair a watch", ctx.setter("searched", True), rid="pair_watch",
                      theme=th, style="tonal"),
             View(flex=1, in_dump=False)]),
    ]
    if searched:
        kids.append(Text("No watches found nearby. Make sure your watch is on, charged and "
                         "in pairing mode.", size=14, align="center", color=th.error,
                         rid="pair_result"))
    body = Column([w.app_bar("Connected apps & devices", on_back=ctx.pop, theme=th),
                   Column(kids, gap=dp(16), padding=(dp(32), dp(48), dp(32), 0))],
                  bg=th.surface)
    return Page(body)
