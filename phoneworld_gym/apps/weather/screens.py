"""Weather screens, like Google's weather app: a city's current conditions with an hourly
strip, the 10-day forecast and a details grid; one day's details; the saved cities (search
with suggestions to add one, a button to remove one) and the units settings."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.weather import store as ws
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.sheets import search_suggestions
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

GLYPHS = {"Sunny": "sun", "Mostly sunny": "sun", "Partly cloudy": "cloud", "Cloudy": "cloud",
          "Showers": "umbrella", "Rain": "umbrella", "Thunderstorms": "bolt"}
SUN = (242, 153, 0)
RAIN = (26, 115, 232)


def glyph(cond: str, size: float = 22, box: int = 32) -> Icon:
    g = GLYPHS[cond]
    return Icon(g, size=size, box=box, color=SUN if g == "sun" else RAIN if g in
                ("umbrella", "bolt") else (120, 130, 140), in_dump=False)


def hour_label(h: int) -> str:
    return f"{(h - 1) % 12 + 1} {'AM' if h < 12 else 'PM'}"


def day_label(d: dict[str, Any], i: int) -> str:
    """"Today", "Tomorrow", then "Mon 16"."""
    if i == 0:
        return "Today"
    if i == 1:
        return "Tomorrow"
    day = dt.date.fromisoformat(d["date"])
    return f"{day.strftime('%a')} {day.day}"


def ten_days(ctx: Ctx, city: str, days: int = ws.DAYS) -> list[dict[str, Any]]:
    """``city``'s forecast as the service answered at the phone's start (from the store's
    first day)."""
    st = ctx.store
    return ws.forecast(city, days, ws.forecast_seed(st), ws.forecast_from(st))


def now_temp(ctx: Ctx, city: str) -> int:
    """``city``'s temperature at the hour the phone's clock shows (°C)."""
    st = ctx.store
    return ws.current(city, ws.forecast_seed(st), now=ctx.time(), first=ws.forecast_from(st))


def shown_city(ctx: Ctx) -> dict[str, Any]:
    c = ws.find(ctx.store, ctx.args.get("city", 0))
    return c if c is not None else ctx.store["cities"][0]


# -- main --------------------------------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """The city's name, temperature now, condition and high/low; the next hours; the 10-day
    forecast (a tap opens a day); humidity, wind, UV, sunrise and sunset."""
    th = ctx.theme
    st = ctx.store
    c = shown_city(ctx)
    days = ten_days(ctx, c["name"])
    today = days[0]
    offset, on_scroll = ctx.scroll()
    head = Column([
        Row([Icon("location_dot", size=16, box=24, color=th.on_surface_variant, in_dump=False)
             if c["home"] else View(width=0, in_dump=False),
             Text(c["name"], size=22, color=th.on_surface, rid="city_name")], gap=dp(4)),
        Text(c["region"], size=14, color=th.on_surface_variant, rid="city_region"),
        Row([Text(ws.temp(st, now_temp(ctx, c["name"])), size=72,
                  color=th.on_surface,
                  rid="current_temp"),
             View(flex=1, in_dump=False), glyph(today["condition"], size=64, box=120)]),
        Text(today["condition"], size=18, color=th.on_surface, rid="current_condition"),
        Text(f"High {ws.temp(st, today['high_c'])} · Low {ws.temp(st, today['low_c'])}",
             size=16, color=th.on_surface_variant, rid="today_high_low"),
    ], gap=dp(4), padding=(dp(8), dp(8), dp(8), dp(16)))
    hours = Row([Column([
        Text("Now" if k == 0 else hour_label(h), size=13, align="center",
             color=th.on_surface_variant, rid="hour_label"),
        Row([View(flex=1, in_dump=False), glyph(today["condition"], size=18, box=28),
             View(flex=1, in_dump=False)], in_dump=False),
        Text(ws.temp(st, t), size=15, align="center", color=th.on_surface, rid="hour_temp"),
    ], gap=dp(6), flex=1)
        for k, (h, t) in enumerate(ws.hourly(c["name"], seed=ws.forecast_seed(st),
                                             now=ctx.time(), first=ws.forecast_from(st)))],
        padding=(dp(8), dp(12), dp(8), dp(12)), rid="hourly_forecast")
    day_rows: list[View] = [Text("10-day forecast", size=14, weight="medium",
                                 color=th.on_surface_variant,
                                 padding=(dp(16), dp(12), 0, dp(4)))]
    for i, d in enumerate(days):
        day_rows.append(Row([
            Text(day_label(d, i), size=16, color=th.on_surface, width=dp(96), in_dump=False),
            glyph(d["condition"]),
            Text(f"{d['precip']}%" if d["precip"] >= 20 else "", size=13, color=RAIN,
                 width=dp(40), in_dump=False),
            View(flex=1, in_dump=False),
            Text(ws.temp(st, d["high_c"]), size=16, weight="medium", color=th.on_surface,
                 width=dp(44), align="right", in_dump=False),
            Text(ws.temp(st, d["low_c"]), size=16, color=th.on_surface_variant, width=dp(44),
                 align="right", in_dump=False),
        ], gap=dp(8), height=dp(52), padding=(dp(16), 0, dp(16), 0),
            on_click=ctx.go("day", city=c["id"], date=d["date"]),
            desc=f"{'Today' if i == 0 else d['day']}, {_long(d['date'])}: {d['condition']}, "
                 f"high {ws.temp(st, d['high_c'])}, low {ws.temp(st, d['low_c'])}",
            rid="daily_row", cls="android.widget.LinearLayout"))
    rows: list[View] = [
        head,
        w.card([hours], padding=0, theme=th),
        w.spacer(dp(12)),
        Column(day_rows, bg=th.surface_container, radius=dp(12), rid="daily_forecast",
               padding=(0, 0, 0, dp(8))),
        w.spacer(dp(12)),
        details_grid(ctx, today),
        w.spacer(dp(24)),
    ]
    bar = w.app_bar("Weather", theme=th, actions=[
        w.icon_button("list", "Manage cities", ctx.go("cities"), rid="manage_cities", theme=th),
        w.icon_button("gear", "Settings", ctx.go("settings"), rid="settings", theme=th),
    ])
    body = Column([bar, Scroll(rows, offset=offset, on_scroll=on_scroll,
                               padding=(w.MARGIN, 0, w.MARGIN, 0), rid="weather_scroll")],
                  bg=th.surface)
    return Page(body)


def _long(iso: str) -> str:
    d = dt.date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}"


def details_grid(ctx: Ctx, d: dict[str, Any]) -> View:
    """Two columns of tiles: humidity, wind, UV index, chance of rain, sunrise, sunset."""
    st = ctx.store
    th = ctx.theme
    tiles = [("Humidity", f"{d['humidity']}%", "humidity"),
             ("Wind", ws.wind(st, d["wind_kmh"]), "wind"),
             ("UV index", f"{d['uv']} ({_uv_word(d['uv'])})", "uv_index"),
             ("Chance of rain", f"{d['precip']}%", "precipitation"),
             ("Sunrise", d["sunrise"], "sunrise"),
             ("Sunset", d["sunset"], "sunset")]
    cells = [w.card([Text(label, size=13, color=th.on_surface_variant),
                     Text(value, size=20, color=th.on_surface, rid=rid)],
                    flex=1, theme=th, gap=dp(4)) for label, value, rid in tiles]
    return Column([Row(cells[i:i + 2], gap=dp(12)) for i in range(0, len(cells), 2)],
                  gap=dp(12), rid="details")


def _uv_word(uv: int) -> str:
    return "Low" if uv <= 2 else "Moderate" if uv <= 5 else "High" if uv <= 7 else "Very high"


# -- one day -----------------------------------------------------------------------------------
def day(ctx: Ctx) -> View | Page:
    """One day of a city's forecast: condition, high and low, and the details grid."""
    th = ctx.theme
    st = ctx.store
    c = shown_city(ctx)
    ten = ten_days(ctx, c["name"])
    days = {d["date"]: d for d in ten}
    d = days.get(str(ctx.args.get("date", "")), ten[0])
    offset, on_scroll = ctx.scroll()
    rows: list[View] = [
        Row([glyph(d["condition"], size=48, box=96),
             Column([Text(d["condition"], size=22, color=th.on_surface, rid="day_condition"),
                     Text(f"High {ws.temp(st, d['high_c'])} · Low {ws.temp(st, d['low_c'])}",
                          size=16, color=th.on_surface_variant, rid="day_high_low")],
                    gap=dp(4), flex=1)], gap=dp(12), padding=(0, dp(16), 0, dp(16))),
        Row([Text("High", size=14, color=th.on_surface_variant, flex=1),
             Text(ws.temp(st, d["high_c"]), size=20, color=th.on_surface, rid="day_high")]),
        Row([Text("Low", size=14, color=th.on_surface_variant, flex=1),
             Text(ws.temp(st, d["low_c"]), size=20, color=th.on_surface, rid="day_low")]),
        w.spacer(dp(8)),
        details_grid(ctx, d),
    ]
    body = Column([
        w.app_bar(f"{d['day']}, {_long(d['date'])}", subtitle=c["name"], on_back=ctx.pop,
                  theme=th),
        Scroll(rows, gap=dp(8), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, 0, w.MARGIN, dp(24)), rid="day_details"),
    ], bg=th.surface)
    return Page(body)


# -- saved cities ------------------------------------------------------------------------------
def cities(ctx: Ctx) -> View | Page:
    """A search field (suggestions of known cities under it: a tap saves that city) and the
    saved cities with their temperature now (a tap shows one; the cross removes one)."""
    th = ctx.theme
    st = ctx.store
    query, on_query = ctx.field("q")
    offset, on_scroll = ctx.scroll()

    def add(name: str) -> Handler:
        def h() -> None:
            if any(c["name"] == name for c in st["cities"]):
                return
            ws.add_city(st, name)
            on_query("")
            ctx.toast(f"{name} added")
        return h

    def remove(c: dict[str, Any]) -> Handler:
        def h() -> None:
            st["cities"] = [x for x in st["cities"] if x["id"] != c["id"]]
            ctx.toast(f"{c['name']} removed")
        return h

    rows: list[View] = []
    hits = ws.suggestions(st, query)
    if query.strip():
        if hits:
            rows.append(search_suggestions([(f"{h[0]}, {h[1]}", add(h[0])) for h in hits],
                                           glyph="location_dot", theme=th))
        else:
            rows.append(Text("No cities found", size=14, color=th.on_surface_variant,
                             padding=(dp(24), dp(16), 0, dp(16)), rid="no_results"))
    for c in st["cities"]:
        today = ten_days(ctx, c["name"], 1)[0]
        trailing: View = (Icon("location_dot", size=18, box=48, color=th.on_surface_variant,
                               desc="Home city", rid="home_marker") if c["home"] else
                          w.icon_button("close", f"Remove {c['name']}", remove(c),
                                        rid="remove_city", theme=th))
        rows.append(Row([
            Column([Text(c["name"], size=18, color=th.on_surface, rid="saved_city_name"),
                    Text(f"{today['condition']} · H {ws.temp(st, today['high_c'])} "
                         f"L {ws.temp(st, today['low_c'])}", size=14,
                         color=th.on_surface_variant, rid="saved_city_summary")],
                   gap=dp(2), flex=1, on_click=lambda cid=c["id"]: ctx.reset_to("main",
                                                                                city=cid),
                   desc=c["name"], rid="saved_city", cls="android.widget.LinearLayout"),
            Text(ws.temp(st, now_temp(ctx, c["name"])), size=28,
                 color=th.on_surface,
                 rid="saved_city_temp"),
            trailing,
        ], gap=dp(12), padding=(dp(16), dp(12), dp(4), dp(12)), bg=th.surface_container,
            radius=dp(16)))
    field = w.text_field("q", query, on_text=on_query, hint="Search for a city",
                         rid="city_search", flex=1)
    body = Column([
        w.app_bar("Manage cities", on_back=ctx.pop, theme=th),
        Row([field], padding=(w.MARGIN, 0, w.MARGIN, dp(8))),
        Scroll(rows, gap=dp(8), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, 0, w.MARGIN, dp(24)), rid="city_list"),
    ], bg=th.surface)
    return Page(body)


# -- settings ----------------------------------------------------------------------------------
def settings(ctx: Ctx) -> View | Page:
    """Units: temperature (°C or °F) and wind speed (km/h or mph), as radio groups."""
    th = ctx.theme
    st = ctx.store
    temps = {"C": "Celsius (°C)", "F": "Fahrenheit (°F)"}
    winds = {"km/h": "Kilometers per hour (km/h)", "mph": "Miles per hour (mph)"}

    def set_temp(label: str) -> Handler:
        def h() -> None:
            st["temp_unit"] = next(k for k, v in temps.items() if v == label)
        return h

    def set_wind(label: str) -> Handler:
        def h() -> None:
            st["wind_unit"] = next(k for k, v in winds.items() if v == label)
        return h

    body = Column([
        w.app_bar("Settings", on_back=ctx.pop, theme=th),
        Scroll([
            Text("Temperature", size=14, weight="medium", color=th.primary,
                 padding=(w.MARGIN, dp(16), 0, dp(4))),
            controls.radio_group(list(temps.values()), temps[st["temp_unit"]], set_temp,
                                 rid="temperature_unit", theme=th),
            Text("Wind speed", size=14, weight="medium", color=th.primary,
                 padding=(w.MARGIN, dp(16), 0, dp(4))),
            controls.radio_group(list(winds.values()), winds[st["wind_unit"]], set_wind,
                                 rid="wind_unit", theme=th),
        ], rid="settings_list"),
    ], bg=th.surface)
    return Page(body)
