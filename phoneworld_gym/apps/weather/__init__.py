"""Weather: a Google-weather-like app (current conditions, hourly strip, 10-day forecast,
details, saved cities added through search suggestions, units). Its tables
``weather/cities``, ``weather/settings`` and the static ``weather/forecast`` are
PhoneWorld-only: a real phone's weather app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.weather import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class WeatherApp(App):
    name = "weather"
    label = "Weather"
    package = "com.phoneworld.weather"
    icon = "sun"
    aliases = ("forecast", "weather app")
    theme = Theme(primary=(11, 87, 208), on_primary=(255, 255, 255),
                  primary_container=(211, 227, 253), on_primary_container=(4, 30, 73),
                  surface=(247, 250, 255), surface_container=(232, 240, 252),
                  surface_high=(221, 231, 248), outline_variant=(196, 199, 197))
    main_screen = "main"
    screens = {"main": screens.main, "day": screens.day, "cities": screens.cities,
               "settings": screens.settings}
    # realism (field profile): forecasts come from the server
    network_screens = ("main", "day")
    promos = ({"title": "Go ad-free", "text": "Weather Premium: no ads, 15-day forecasts and "
               "severe-weather alerts.", "action": "Try free"},)
    new_rows = {"weather/cities": new_row({"name": GIVEN, "home": 0}, free="_id region",
                                          text="name")}
    providers = {"weather/cities": store.city_rows, "weather/settings": store.settings_rows,
                 "weather/forecast": store.forecast_rows}
    static_tables = frozenset({"weather/forecast"})
    fixtures = {"add_city": store.add_city_fixture, "set_units": store.set_units_fixture}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
