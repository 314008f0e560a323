"""Settings screens, Pixel style: the top-level list, Network & internet, Connected devices,
Apps (per-app notifications), Display, Sound & vibration, Battery, System and About phone.

Switches, sliders and the timeout choice read and write the phone's settings
(``ctx.settings``) through :mod:`.store`; nothing is written while a screen is built.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from phoneworld_gym.app import Page, all_apps
from phoneworld_gym.apps.settings import store as ss
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls as c
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Divider, Handler, Icon, Row, Scroll, Text, View, dp

#: the top-level entries: screen, title, summary, icon, icon tint
CATEGORIES: tuple[tuple[str, str, str, str, tuple[int, int, int]], ...] = (
    ("network", "Network & internet", "Mobile, Wi-Fi, hotspot", "wifi", (52, 120, 246)),
    ("connected", "Connected devices", "Bluetooth, pairing", "tablet", (0, 150, 136)),
    ("apps", "Apps", "Notifications, default apps", "grid", (232, 113, 10)),
    ("battery", "Battery", f"{ss.BATTERY_LEVEL}%", "battery_half", (46, 160, 67)),
    ("sound", "Sound & vibration", "Volume, vibration, Do Not Disturb", "volume",
     (140, 80, 200)),
    ("display", "Display", "Dark theme, font size, brightness", "sun", (234, 67, 53)),
    ("system", "System", "Languages, gestures, time, backup", "circle_info", (96, 108, 120)),
    ("about", "About phone", ss.MODEL, "mobile_screen", (66, 133, 244)),
)


def _settings(ctx: Ctx) -> dict[str, dict[str, str]]:
    return ctx.settings


def _on(ctx: Ctx, ns: str, key: str, on: str = "1") -> bool:
    return ss.get(_settings(ctx), ns, key) == on


def _toggler(ctx: Ctx, ns: str, key: str, on: str = "1", off: str = "0") -> Handler:
    def h() -> None:
        ss.put(_settings(ctx), ns, key, off if _on(ctx, ns, key, on) else on)

    return h


def _page(ctx: Ctx, title: str, rows: list[View]) -> Column:
    """A sub-screen: the app bar with Navigate up, then a scrolling list."""
    offset, on_scroll = ctx.scroll()
    return Column([
        w.app_bar(title, on_back=ctx.pop, theme=ctx.theme),
        Scroll([*rows, w.spacer(dp(24))], offset=offset, on_scroll=on_scroll,
               rid="recycler_view"),
    ], bg=ctx.theme.surface)


def _info(ctx: Ctx, title: str, value: str, *, rid: str = "", icon: str = "",
          on_click: Handler | None = None) -> Row:
    """A read-only preference: title and summary (``android:id/title`` / ``summary``)."""
    lines: list[View] = [Text(title, size=18, color=ctx.theme.on_surface, max_lines=2,
                              rid="android:id/title")]
    if value:
        lines.append(Text(value, size=14, color=ctx.theme.on_surface_variant, max_lines=3,
                          rid="android:id/summary"))
    kids: list[View] = []
    if icon:
        kids.append(Icon(icon, size=22, box=40, color=ctx.theme.on_surface_variant,
                         in_dump=False))
    kids.append(Column(lines, flex=1, gap=dp(2), cls="android.widget.RelativeLayout"))
    return Row(kids, gap=dp(16), padding=(dp(12) if icon else dp(16), dp(16), dp(20), dp(16)),
               rid=rid, on_click=on_click, cls="android.widget.LinearLayout")


def _header(ctx: Ctx, title: str) -> Text:
    return Text(title, size=14, weight="medium", color=ctx.theme.primary,
                padding=(dp(16), dp(16), dp(16), dp(4)), rid="category_title")


# -- the top-level list ----------------------------------------------------------------------------
def main(ctx: Ctx) -> View:
    """The top-level list: the title, a search bar, one entry per category."""
    rows: list[View] = []
    for screen, title, summary, icon, tint in CATEGORIES:
        lead = Icon(icon, size=20, box=40, color=(255, 255, 255), bg=tint, radius=dp(20),
                    in_dump=False)
        rows.append(w.list_item(title, subtitle=summary, leading=lead, on_click=ctx.go(screen),
                                rid="dashboard_tile", theme=ctx.theme))
    offset, on_scroll = ctx.scroll()
    header = Column([
        Text("Settings", size=36, color=ctx.theme.on_surface, rid="homepage_title",
             padding=(dp(24), dp(40), dp(24), dp(16))),
        Row([Icon("search", size=20, box=40, color=ctx.theme.on_surface_variant,
                  in_dump=False),
             Text("Search Settings", size=16, color=ctx.theme.on_surface_variant, flex=1)],
            gap=dp(8), height=dp(56), radius=dp(28), bg=ctx.theme.surface_high,
            padding=(dp(12), 0, dp(16), 0), rid="search_action_bar",
            cls="android.widget.LinearLayout"),
    ], padding=(dp(16), 0, dp(16), dp(12)))
    return Column([Scroll([header, *rows, w.spacer(dp(24))], offset=offset,
                          on_scroll=on_scroll, rid="recycler_view")],
                  bg=ctx.theme.surface)


# -- Network & internet ----------------------------------------------------------------------------
def network(ctx: Ctx) -> View:
    """Wi-Fi, mobile data and airplane mode switches (``global`` keys)."""
    t = ctx.theme
    airplane = _on(ctx, "global", "airplane_mode_on")
    wifi = _on(ctx, "global", "wifi_on")
    rows: list[View] = [
        c.switch_row("Wi-Fi", wifi, _toggler(ctx, "global", "wifi_on"),
                     summary="Home-5G" if wifi and not airplane else "Off", icon="wifi",
                     rid="wifi", theme=t),
        c.switch_row("Mobile data", _on(ctx, "global", "mobile_data"),
                     _toggler(ctx, "global", "mobile_data"),
                     summary="Airplane mode is on" if airplane else "PhoneWorld Mobile",
                     icon="signal", rid="mobile_data", theme=t),
        c.switch_row("Airplane mode", airplane, _toggler(ctx, "global", "airplane_mode_on"),
                     icon="plane", rid="airplane_mode", theme=t),
        _info(ctx, "Hotspot & tethering", "Off", icon="share"),
        _info(ctx, "Data Saver", "Off", icon="circle_half"),
    ]
    return _page(ctx, "Network & internet", rows)


# -- Connected devices -----------------------------------------------------------------------------
DEVICES = ("Pixel Buds Pro", "Car audio")


def connected(ctx: Ctx) -> View:
    """The Bluetooth switch and the devices paired before."""
    t = ctx.theme
    bt = _on(ctx, "global", "bluetooth_on")
    rows: list[View] = [
        c.switch_row("Bluetooth", bt, _toggler(ctx, "global", "bluetooth_on"),
                     summary="On" if bt else "Off", icon="headphones", rid="bluetooth",
                     theme=t),
        _header(ctx, "Previously connected devices"),
        *[_info(ctx, d, "Saved" if bt else "Bluetooth is off", icon="headphones" if i == 0
                else "car") for i, d in enumerate(DEVICES)],
        _info(ctx, "Connection preferences", "Bluetooth, Android Auto, NFC", icon="gear"),
    ]
    return _page(ctx, "Connected devices", rows)


# -- Apps: notifications ---------------------------------------------------------------------------
def _apps(ctx: Ctx) -> list[tuple[str, str]]:
    """(name, label) of the installed apps other than Settings, by label."""
    registry = all_apps()
    out = [(n, registry[n].label) for n in ctx.installed() if n in registry and n != ctx.app.name]
    return sorted(out, key=lambda p: p[1].lower())


def apps(ctx: Ctx) -> View:
    """A notifications switch per installed app (``settings_app/notifications``)."""
    t = ctx.theme
    blocked = ctx.store["blocked"]

    def toggle(name: str) -> Handler:
        def h() -> None:
            if name in blocked:
                blocked.remove(name)
            else:
                blocked.append(name)
                blocked.sort()

        return h

    rows: list[View] = [_header(ctx, "App notifications")]
    for name, label in _apps(ctx):
        on = name not in blocked
        rows.append(c.switch_row(label, on, toggle(name),
                                 summary="All notifications" if on else "Off", rid="app_row",
                                 theme=t))
    rows.append(_info(ctx, "Default apps", "Assistant, browser and SMS"))
    return _page(ctx, "Apps", rows)


# -- Display ---------------------------------------------------------------------------------------
def display(ctx: Ctx) -> View | Page:
    """Brightness slider, screen timeout (a radio-button dialog), dark theme switch."""
    t = ctx.theme
    s = _settings(ctx)
    pct = ss.brightness_percent(ss.get_int(s, "system", "screen_brightness"))
    timeout = ss.get_int(s, "system", "screen_off_timeout")

    def set_brightness(p: int) -> None:
        ss.put(s, "system", "screen_brightness", ss.brightness_raw(p))

    def choose(label: str) -> Handler:
        def h() -> None:
            ms = next(v for v, lab in ss.TIMEOUTS if lab == label)
            ss.put(s, "system", "screen_off_timeout", ms)
            ctx.close_dialog()

        return h

    rows: list[View] = [
        _header(ctx, "Brightness"),
        Column([Row([Text("Brightness level", size=18, color=t.on_surface, flex=1,
                          rid="android:id/title"),
                     Text(f"{pct}%", size=14, color=t.on_surface_variant,
                          rid="brightness_value")]),
                c.slider(pct, 0, 100, set_brightness, desc="Brightness level",
                         rid="brightness_slider", theme=t)],
               gap=dp(4), padding=(dp(16), dp(8), dp(16), dp(8))),
        Divider(),
        _header(ctx, "Lock display"),
        _info(ctx, "Screen timeout", f"After {ss.timeout_label(timeout)} of inactivity",
              rid="screen_timeout", on_click=ctx.show_dialog("timeout")),
        _header(ctx, "Appearance"),
        c.switch_row("Dark theme", _on(ctx, "secure", "ui_night_mode", "2"),
                     _toggler(ctx, "secure", "ui_night_mode", on="2", off="1"),
                     summary="Will never turn on automatically", rid="dark_ui_mode", theme=t),
        _info(ctx, "Font size", "Default"),
    ]
    dlg = None
    if ctx.dialog == "timeout":
        current = ss.timeout_label(timeout)
        dlg = w.dialog("Screen timeout", "", [("Cancel", ctx.close_dialog)], theme=t,
                       body=[c.radio_group([lab for _, lab in ss.TIMEOUTS], current, choose,
                                           rid="timeout", theme=t)])
    return Page(_page(ctx, "Display", rows), dialog=dlg)


# -- Sound & vibration -----------------------------------------------------------------------------
def _volume(ctx: Ctx, key: str, label: str) -> View:
    s = _settings(ctx)
    level = max(0, min(ss.VOLUME_MAX, ss.get_int(s, "system", key)))

    def set_level(v: int) -> None:
        ss.put(s, "system", key, v)

    return Column([
        Row([Text(label, size=18, color=ctx.theme.on_surface, flex=1, rid="android:id/title"),
             Text(f"{level} / {ss.VOLUME_MAX}", size=14, color=ctx.theme.on_surface_variant,
                  rid=f"{key}_value")]),
        c.slider(level, 0, ss.VOLUME_MAX, set_level, desc=label, rid=f"{key}_slider",
                 theme=ctx.theme),
    ], gap=dp(4), padding=(dp(16), dp(8), dp(16), dp(8)))


def sound(ctx: Ctx) -> View:
    """Volume sliders, the Do Not Disturb switch and the entry to its schedules."""
    t = ctx.theme
    zen = _on(ctx, "global", "zen_mode")
    rows: list[View] = [_volume(ctx, k, label) for k, label in ss.VOLUMES]
    rows += [
        Divider(),
        c.switch_row("Do Not Disturb", zen, _toggler(ctx, "global", "zen_mode"),
                     summary="On" if zen else "Off", icon="bell_slash", rid="zen_mode",
                     theme=t),
        _info(ctx, "Do Not Disturb schedules", _schedules_summary(ctx), icon="calendar_days",
              rid="zen_schedules", on_click=ctx.go("zen_schedules")),
        _info(ctx, "Phone ringtone", "Copycat", icon="music"),
        _info(ctx, "Vibration & haptics", "On", icon="mobile"),
    ]
    return _page(ctx, "Sound & vibration", rows)


def _schedules_summary(ctx: Ctx) -> str:
    """"Sleeping: On" for each schedule, as the entry's summary."""
    return ", ".join(f"{z['name']}: {'On' if z['enabled'] else 'Off'}"
                     for z in ctx.store["zen_schedules"])


# -- Battery ---------------------------------------------------------------------------------------
def battery(ctx: Ctx) -> View:
    """The charge level and the Battery Saver switch."""
    t = ctx.theme
    saver = _on(ctx, "global", "low_power")
    level = Column([
        Text(f"{ss.BATTERY_LEVEL}%", size=44, color=t.on_surface, rid="battery_percent"),
        Text("About 1 day, 4 hr left" if not saver else "About 1 day, 9 hr left", size=14,
             color=t.on_surface_variant, rid="battery_remaining"),
        Row([View(flex=ss.BATTERY_LEVEL, height=dp(12), radius=dp(6), bg=t.primary,
                  in_dump=False),
             View(flex=100 - ss.BATTERY_LEVEL, height=dp(12), radius=dp(6),
                  bg=t.surface_high, in_dump=False)], gap=dp(4), in_dump=False),
    ], gap=dp(8), padding=(dp(16), dp(16), dp(16), dp(16)))
    rows: list[View] = [
        level,
        c.switch_row("Battery Saver", saver, _toggler(ctx, "global", "low_power"),
                     summary="On" if saver else "Off", icon="leaf", rid="battery_saver",
                     theme=t),
        _info(ctx, "Adaptive Battery", "On", icon="battery"),
    ]
    return _page(ctx, "Battery", rows)


# -- System and About ------------------------------------------------------------------------------
def system(ctx: Ctx) -> View:
    """Languages, Date & time (with the current date, time and offset), keyboard, backup."""
    now = local_now(ctx)
    _, _, _, offset = ss.zone(ctx.store["time_zone"])
    h24 = ss.get(_settings(ctx), "system", "time_12_24") == "24"
    rows: list[View] = [
        _info(ctx, "Languages", "English (United States)", icon="language", rid="languages"),
        _info(ctx, "Date & time", f"{now.strftime('%A, %B')} {now.day}, {now.year}, "
              f"{ss.clock_text(now.hour, now.minute, h24)} · {ss.gmt(offset)}", icon="clock",
              rid="date_time", on_click=ctx.go("date_time")),
        _info(ctx, "Keyboard", "Gboard", icon="keyboard"),
        _info(ctx, "Backup", "On", icon="shield"),
    ]
    return _page(ctx, "System", rows)


def local_now(ctx: Ctx) -> dt.datetime:
    """The phone's clock (UTC) in the chosen time zone."""
    _, _, _, offset = ss.zone(ctx.store["time_zone"])
    return dt.datetime.fromisoformat(ctx.now) + dt.timedelta(minutes=offset)


def about(ctx: Ctx) -> View:
    """Device name, the phone number, model, Android version and build."""
    rows: list[View] = [
        _info(ctx, "Device name", ss.MODEL, rid="device_name"),
        _info(ctx, "Phone number", ctx.store["phone_number"], rid="phone_number"),
        _info(ctx, "Model", ss.MODEL, rid="model"),
        _info(ctx, "Android version", ss.ANDROID_VERSION, rid="android_version"),
        _info(ctx, "Build number", "PW1A.260314.001", rid="build_number"),
    ]
    return _page(ctx, "About phone", rows)


SCREENS: dict[str, Callable[[Ctx], View | Page]] = {
    "main": main, "network": network, "connected": connected, "apps": apps,
    "display": display, "sound": sound, "battery": battery, "system": system, "about": about,
}
