"""Fitness screens that change data: "Add activity" (type chips, the start day from the date
picker, the start time from the time picker, duration, distance, an optional route; Save
checks every field and writes nothing while one is wrong) and a goal's editor (a stepper and
a slider over the goal's scale; Save writes it, Back discards it)."""

from __future__ import annotations

import datetime as dt

from phoneworld_gym.app import Page
from phoneworld_gym.apps.fitness import store as fs
from phoneworld_gym.apps.fitness.screens import TEAL, clock_text
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls, pickers
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp


def _picker_row(ctx: Ctx, icon: str, label: str, value: str, rid: str, dialog: str) -> Row:
    """A form row that opens a picker dialog (a ``Button`` whose text is its value)."""
    th = ctx.theme
    return Row([Icon(icon, size=20, box=40, color=th.on_surface_variant, in_dump=False),
                Column([Text(label, size=12, color=th.on_surface_variant, in_dump=False),
                        Text(value, size=16, color=th.on_surface, in_dump=False)], flex=1)],
               gap=dp(12), height=dp(64), padding=(dp(4), 0, 0, 0), radius=dp(12),
               border=th.outline_variant, border_width=3, on_click=ctx.show_dialog(dialog),
               text=value, desc=label, rid=rid, cls="android.widget.Button")


def log(ctx: Ctx) -> View | Page:
    """Add an activity by hand."""
    th = ctx.theme
    now = dt.datetime.fromisoformat(ctx.now)
    kind = str(ctx.state.get("type", "walk"))
    day = dt.date.fromisoformat(str(ctx.state.get("date", now.date().isoformat())))
    hm = ctx.state.get("time", [max(0, now.hour - 1), 30 if now.minute >= 30 else 0])
    start = dt.datetime.combine(day, dt.time(int(hm[0]), int(hm[1])))
    duration, on_duration = ctx.field("duration")
    distance, on_distance = ctx.field("distance")
    route, on_route = ctx.field("route")
    error = str(ctx.state.get("error", ""))

    def save() -> None:
        msg, minutes, km = fs.check_entry(kind, start, duration, distance, now)
        if msg:
            ctx.state["error"] = msg
            return
        fs.add(ctx.store, kind, start, minutes, km, route.strip())
        ctx.pop()
        ctx.toast(f"{fs.LABELS[kind]} added")

    def set_type(k: str) -> Handler:
        def h() -> None:
            ctx.state["type"] = k
        return h

    chips = Row([w.chip(fs.LABELS[k], selected=k == kind, on_click=set_type(k),
                        rid="type_chip", theme=th) for k in fs.TYPES], gap=dp(8))
    date_text = f"{day.strftime('%a')}, {day.strftime('%b')} {day.day}, {day.year}"
    fields: list[View] = [
        Text("Activity", size=14, weight="medium", color=th.on_surface_variant), chips,
        _picker_row(ctx, "calendar", "Date", date_text, "start_date", "date"),
        _picker_row(ctx, "clock", "Start time", clock_text(start), "start_time", "time"),
        w.text_field("duration", duration, on_text=on_duration, label="Duration (min)",
                     rid="duration"),
        w.text_field("distance", distance, on_text=on_distance, label="Distance (km)",
                     rid="distance"),
        w.text_field("route", route, on_text=on_route, label="Route or note (optional)",
                     rid="route"),
    ]
    if error:
        fields.append(Text(error, size=13, color=th.error, rid="error_text"))
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Add activity", on_back=ctx.pop, theme=th,
                  actions=[w.button("Save", save, rid="save", theme=th)]),
        Scroll(fields, gap=dp(12), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(8), w.MARGIN, dp(24)), rid="log_form"),
    ], bg=th.surface)
    dlg = None
    if ctx.dialog == "date":
        dlg = _date_dialog(ctx, day, now.date())
    elif ctx.dialog == "time":
        dlg = _time_dialog(ctx, start)
    return Page(body, dialog=dlg)


def _date_dialog(ctx: Ctx, day: dt.date, now: dt.date) -> View:
    py, pm = ctx.state.get("pick_ym", (day.year, day.month))
    picked = dt.date.fromisoformat(str(ctx.state.get("pick_day", day.isoformat())))

    def ok() -> None:
        ctx.state["date"] = picked.isoformat()
        ctx.state.pop("error", None)
        cancel()

    def cancel() -> None:
        ctx.state.pop("pick_day", None)
        ctx.state.pop("pick_ym", None)
        ctx.close_dialog()

    return pickers.date_picker(year=int(py), month=int(pm), selected=picked,
                               on_pick=lambda d: ctx.setter("pick_day", d.isoformat()),
                               on_month=lambda y, m: ctx.setter("pick_ym", (y, m)),
                               on_ok=ok, on_cancel=cancel, today=now, title="Activity date",
                               theme=ctx.theme)


def _time_dialog(ctx: Ctx, start: dt.datetime) -> View:
    """The time picker in keyboard mode, opened on the start time shown."""
    hour, on_hour = ctx.field("tp_hour", str(start.hour % 12 or 12))
    minute, on_minute = ctx.field("tp_minute", f"{start.minute:02d}")
    pm = bool(ctx.state.get("tp_pm", start.hour >= 12))

    def ok() -> None:
        hm = controls.parse_time(hour, minute, pm)
        if hm is None:
            ctx.state["tp_error"] = "Enter a valid time"
            return
        ctx.state["time"] = list(hm)
        ctx.state.pop("tp_error", None)
        ctx.state.pop("error", None)
        ctx.close_dialog()

    return controls.time_picker(hour, on_hour, minute, on_minute, pm,
                                lambda p: ctx.setter("tp_pm", p), ok, ctx.close_dialog,
                                key="tp", title="Start time",
                                error=str(ctx.state.get("tp_error", "")), theme=ctx.theme)


def goal(ctx: Ctx) -> View | Page:
    """A goal's editor: the value, − and + (one step each), a slider over the whole scale,
    Save."""
    th = ctx.theme
    name = str(ctx.args.get("goal", "daily_steps"))
    if name not in fs.GOALS:
        name = "daily_steps"
    label, lo, hi, step = fs.GOALS[name]
    value = int(ctx.state.get("value", ctx.store["goals"][name]))
    unit = "steps a day" if name == "daily_steps" else "minutes a week"
    color = th.primary if name == "daily_steps" else TEAL

    def put(v: int) -> None:
        ctx.state["value"] = fs.snap_goal(name, v)

    def save() -> None:
        ctx.store["goals"][name] = value
        ctx.pop()
        ctx.toast("Goal saved")

    stepper = Row([
        w.icon_button("minus", "Decrease", (lambda: put(value - step)) if value > lo else None,
                      rid="decrease", theme=th),
        Column([Text(f"{value:,}", size=44, weight="medium", align="center", color=color,
                     rid="goal_value"),
                Text(unit, size=14, align="center", color=th.on_surface_variant)], flex=1),
        w.icon_button("plus", "Increase", (lambda: put(value + step)) if value < hi else None,
                      rid="increase", theme=th),
    ], gap=dp(8))
    n = (hi - lo) // step
    slider = controls.slider((value - lo) // step, 0, n, lambda i: put(lo + i * step),
                             desc=f"{label} goal", rid="goal_slider", theme=th)
    scale = Row([Text(f"{lo:,}", size=12, color=th.on_surface_variant, flex=1),
                 Text(f"{hi:,}", size=12, color=th.on_surface_variant)])
    tip = ("Walking 10,000 steps is about 8 km." if name == "daily_steps" else
           "Health bodies recommend 150 minutes of moderate activity a week.")
    body = Column([
        w.app_bar(label, on_back=ctx.pop, theme=th,
                  actions=[w.button("Save", save, rid="save", theme=th)]),
        Scroll([stepper, slider, scale,
                Text(tip, size=14, color=th.on_surface_variant, rid="goal_tip")],
               gap=dp(16), padding=(w.MARGIN, dp(24), w.MARGIN, dp(24)), rid="goal_form"),
    ], bg=th.surface)
    return Page(body)

