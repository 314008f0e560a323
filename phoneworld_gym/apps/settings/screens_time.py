"""Settings screens about time: System > Date & time (automatic time and time zone, the zone
list, the 24-hour format) and Sound & vibration > Do Not Disturb schedules (the "Sleeping"
schedule: on/off, days, start and end times through the Material time picker).

Date & time writes Android's keys (``global auto_time``, ``global auto_time_zone``,
``system time_12_24``), so tasks over them run on a phone; the zone and the schedules are the
app's own tables (see :mod:`.store`). Setting the date or the time by hand is not modelled:
the phone's clock runs from its start clock on its own, so with "Set time automatically" off
they are shown, not edited.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.settings import store as ss
from phoneworld_gym.apps.settings.screens import _header, _info, _on, _page, _settings, local_now
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls as c
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Divider, Handler, Row, Text, View, dp


def _h24(ctx: Ctx) -> bool:
    return ss.get(_settings(ctx), "system", "time_12_24") == "24"


# -- Date & time ---------------------------------------------------------------------------------
def date_time(ctx: Ctx) -> View:
    """Automatic time (the date and time greyed while on), automatic time zone and the zone
    (its list opens from the row), and the 24-hour switch."""
    t = ctx.theme
    s = _settings(ctx)
    auto_time = _on(ctx, "global", "auto_time")
    auto_zone = _on(ctx, "global", "auto_time_zone")
    h24 = _h24(ctx)
    now = local_now(ctx)
    _, city, name, offset = ss.zone(ctx.store["time_zone"])

    def toggle_auto_time() -> None:
        ss.put(s, "global", "auto_time", "0" if auto_time else "1")

    def toggle_auto_zone() -> None:
        ss.put(s, "global", "auto_time_zone", "0" if auto_zone else "1")
        if not auto_zone:  # back to what the network says
            ctx.store["time_zone"] = ss.NETWORK_ZONE

    def toggle_24() -> None:
        ss.put(s, "system", "time_12_24", "12" if h24 else "24")

    dim = (160, 156, 164)

    def shown(title: str, value: str, rid: str, enabled: bool) -> Row:
        """A preference row that is greyed out while the automatic setting is on."""
        return Row([Column([Text(title, size=18, color=t.on_surface if enabled else dim,
                                 rid="android:id/title"),
                            Text(value, size=14, color=t.on_surface_variant if enabled else dim,
                                 rid="android:id/summary")], flex=1, gap=dp(2),
                           cls="android.widget.RelativeLayout")],
                   padding=(dp(16), dp(16), dp(20), dp(16)), rid=rid, enabled=enabled,
                   cls="android.widget.LinearLayout")

    zone_row = shown("Time zone", f"{ss.gmt(offset)} {name}" + ("" if city == "UTC"
                                                                else f" ({city})"),
                     "time_zone", not auto_zone)
    # it opens either way (greyed while automatic): the list says how to choose by hand
    zone_row.on_click = ctx.go("time_zone")
    zone_row.enabled = True
    sample = ss.clock_text(13, 0, h24)
    rows: list[View] = [
        c.switch_row("Set time automatically", auto_time, toggle_auto_time,
                     summary="Use network-provided time" if auto_time else "Off",
                     rid="auto_time", theme=t),
        shown("Date", f"{now.strftime('%B')} {now.day}, {now.year}", "date", not auto_time),
        shown("Time", ss.clock_text(now.hour, now.minute, h24), "time", not auto_time),
        Divider(),
        _header(ctx, "Time zone"),
        c.switch_row("Set time zone automatically", auto_zone, toggle_auto_zone,
                     summary="Use network-provided time zone" if auto_zone else "Off",
                     rid="auto_time_zone", theme=t),
        zone_row,
        Divider(),
        _header(ctx, "Time format"),
        c.switch_row("Use 24-hour format", h24, toggle_24, summary=sample,
                     rid="time_format_24", theme=t),
    ]
    return _page(ctx, "Date & time", rows)


def time_zone(ctx: Ctx) -> View:
    """The zones to pick from: city, name and offset; a tap sets it and goes back. While the
    zone is set automatically the list is greyed out and says so."""
    t = ctx.theme
    current = ctx.store["time_zone"]
    auto = _on(ctx, "global", "auto_time_zone")

    def pick(tz: str) -> Handler:
        def h() -> None:
            ctx.store["time_zone"] = tz
            ctx.pop()

        return h

    rows: list[View] = []
    if auto:
        rows.append(Text('"Set time zone automatically" is on. Turn it off in Date & time to '
                         "choose a time zone.", size=14, color=t.on_surface_variant,
                         padding=(dp(16), dp(8), dp(16), dp(8)), rid="auto_zone_note"))
    dim = (160, 156, 164)
    for tz, city, name, offset in ss.ZONES:
        on = tz == current
        rows.append(Row([Column([Text(city, size=18, rid="android:id/title",
                                      color=dim if auto else t.primary if on else t.on_surface),
                                 Text(f"{name} · {ss.gmt(offset)}", size=14,
                                      color=dim if auto else t.on_surface_variant,
                                      rid="android:id/summary")],
                                flex=1, gap=dp(2), cls="android.widget.RelativeLayout")],
                        padding=(dp(16), dp(14), dp(20), dp(14)),
                        on_click=None if auto else pick(tz), enabled=not auto,
                        rid="zone_row", selected=on, cls="android.widget.LinearLayout"))
    return _page(ctx, "Select time zone", rows)


# -- Do Not Disturb schedules -------------------------------------------------------------------
def _schedule(ctx: Ctx, sid: str) -> dict[str, Any]:
    return next(z for z in ctx.store["zen_schedules"] if z["id"] == sid)


def schedule_summary(z: dict[str, Any], h24: bool) -> str:
    """"Every day, 10:00 PM – 7:00 AM next day"."""
    (sh, sm), (eh, em) = z["start"], z["end"]
    nxt = " next day" if (eh, em) <= (sh, sm) else ""
    return f"{ss.days_text(z['days'])}, {ss.clock_text(sh, sm, h24)} – " \
           f"{ss.clock_text(eh, em, h24)}{nxt}"


def zen_schedules(ctx: Ctx) -> View:
    """The schedules list: each row opens its schedule; its switch turns it on or off."""
    t = ctx.theme
    h24 = _h24(ctx)

    def toggle(z: dict[str, Any]) -> Handler:
        def h() -> None:
            z["enabled"] = not z["enabled"]

        return h

    rows: list[View] = [Text("Do Not Disturb can turn on automatically at certain times",
                             size=14, color=t.on_surface_variant,
                             padding=(dp(16), dp(8), dp(16), dp(8)))]
    for z in ctx.store["zen_schedules"]:
        body = Column([Text(z["name"], size=18, color=t.on_surface, rid="android:id/title"),
                       Text(schedule_summary(z, h24) if z["enabled"] else
                            f"Off · {schedule_summary(z, h24)}", size=14,
                            color=t.on_surface_variant, max_lines=2,
                            rid="android:id/summary")],
                      flex=1, gap=dp(2), padding=(dp(16), dp(16), dp(12), dp(16)),
                      on_click=ctx.go("zen_schedule", id=z["id"]), rid="schedule_row",
                      cls="android.widget.LinearLayout")
        rows.append(Row([body, View(width=2, height=dp(40), bg=t.outline_variant,
                                    in_dump=False),
                         Row([c.switch(bool(z["enabled"]), on_toggle=toggle(z),
                                       desc=f"{z['name']} schedule", theme=t)],
                             padding=(dp(16), 0, dp(20), 0))]))
    return _page(ctx, "Schedules", rows)


def zen_schedule(ctx: Ctx) -> View | Page:
    """One schedule: use it or not, its days (a dialog of checkboxes) and its start and end
    (the time picker, clock face first, keyboard on request). Each change is saved at once,
    as Settings does."""
    t = ctx.theme
    z = _schedule(ctx, ctx.args["id"])
    h24 = _h24(ctx)
    (sh, sm), (eh, em) = z["start"], z["end"]

    def toggle() -> None:
        z["enabled"] = not z["enabled"]

    def open_days() -> None:
        ctx.state["pick_days"] = list(z["days"])
        ctx.state["_dialog"] = "days"

    def open_time(which: str) -> Handler:
        def h() -> None:
            hh, mm = z[which]
            f = ctx.state.setdefault("_fields", {})
            f["hour"], f["minute"] = str(hh % 12 or 12), f"{mm:02d}"
            ctx.state.update(which=which, pm=hh >= 12, selecting="hour", picker_mode="clock",
                             time_error="", _dialog="time")

        return h

    nxt = " next day" if (eh, em) <= (sh, sm) else ""
    rows: list[View] = [
        c.switch_row("Use schedule", bool(z["enabled"]), toggle, rid="use_schedule",
                     theme=t),
        Divider(),
        _info(ctx, "Days", ss.days_text(z["days"]), rid="days", on_click=open_days),
        _info(ctx, "Start time", ss.clock_text(sh, sm, h24), rid="start_time",
              on_click=open_time("start")),
        _info(ctx, "End time", ss.clock_text(eh, em, h24) + nxt, rid="end_time",
              on_click=open_time("end")),
        Text("Do Not Disturb turns on at the start time and off at the end time on the days "
             "chosen.", size=14, color=t.on_surface_variant,
             padding=(dp(16), dp(16), dp(16), dp(8))),
    ]
    dlg: View | None = None
    if ctx.dialog == "days":
        dlg = _days_dialog(ctx, z)
    elif ctx.dialog == "time":
        dlg = _time_dialog(ctx, z)
    return Page(_page(ctx, z["name"], rows), dialog=dlg)


def _days_dialog(ctx: Ctx, z: dict[str, Any]) -> View:
    picked: list[int] = list(ctx.state.get("pick_days", z["days"]))

    def flip(d: int) -> Handler:
        def h() -> None:
            ctx.state["pick_days"] = sorted(set(picked) ^ {d})

        return h

    def done() -> None:
        if not picked:
            ctx.toast("Choose at least one day")
            return
        z["days"] = sorted(picked)
        ctx.close_dialog()

    boxes: list[View] = [c.checkbox(name, d in picked, flip(d), rid="day_checkbox",
                                    theme=ctx.theme) for d, name in ss.DAYS]
    return w.dialog("Days", "", [("Cancel", ctx.close_dialog), ("Done", done)],
                    theme=ctx.theme, body=[Column(boxes, rid="days_list")])


def _time_dialog(ctx: Ctx, z: dict[str, Any]) -> View:
    which = str(ctx.state.get("which", "start"))
    hour, on_hour = ctx.field("hour")
    minute, on_minute = ctx.field("minute")
    pm = bool(ctx.state.get("pm", False))
    title = "Start time" if which == "start" else "End time"

    def period(is_pm: bool) -> Handler:
        return ctx.setter("pm", is_pm)

    def ok() -> None:
        hm = c.parse_time(hour, minute, pm)
        if hm is None:
            ctx.state["time_error"] = "Enter a valid time"
            return
        z[which] = [hm[0], hm[1]]
        ctx.close_dialog()

    if ctx.state.get("picker_mode") == "text":
        return c.time_picker(hour, on_hour, minute, on_minute, pm, period, ok, ctx.close_dialog,
                             key="zen", title=title, error=str(ctx.state.get("time_error", "")),
                             on_clock_mode=ctx.setter("picker_mode", "clock"), theme=ctx.theme)

    def pick_hour(v: int) -> Handler:
        def h() -> None:
            on_hour(str(v))
            ctx.state["selecting"] = "minute"

        return h

    def pick_minute(v: int) -> Handler:
        return lambda: on_minute(f"{v:02d}")

    return c.time_picker_dial(hour, minute, pm, str(ctx.state.get("selecting", "hour")),
                              pick_hour, pick_minute, lambda m: ctx.setter("selecting", m),
                              period, ctx.setter("picker_mode", "text"), ok, ctx.close_dialog,
                              title=title, theme=ctx.theme)


SCREENS: dict[str, Callable[[Ctx], View | Page]] = {
    "date_time": date_time, "time_zone": time_zone, "zen_schedules": zen_schedules,
    "zen_schedule": zen_schedule,
}
