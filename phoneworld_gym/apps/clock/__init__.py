"""Clock: alarms (the common ``alarms`` table, with a writer so tasks set them up with
``device.insert``), world clocks, a timer and a stopwatch."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.clock import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class ClockApp(App):
    name = "clock"
    label = "Clock"
    package = "com.google.android.deskclock"
    icon = "clock"
    aliases = ("alarm", "alarms", "deskclock", "timer", "stopwatch")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(248, 249, 255),
                  surface_container=(232, 237, 248), surface_high=(225, 229, 240))
    main_screen = "alarms"
    shows_seconds = True  # the timer and the stopwatch count seconds
    screens = screens.SCREENS
    #: a world clock is its city (the offset is the city's)
    new_rows = {"clock/cities": new_row({"_id": GIVEN}, free="offset_minutes")}
    providers = {"alarms": store.alarm_rows, "clock/cities": store.city_rows,
                 "clock/timers": store.timer_rows}
    writers = {"alarms": store.WRITER}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
