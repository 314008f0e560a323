"""Calendar: a month grid, a week of hours, the schedule, days and events, served as
Android's ``calendar`` provider (CalendarContract.Events columns)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.calendar import screens, store
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class CalendarApp(App):
    name = "calendar"
    label = "Calendar"
    package = "com.phoneworld.calendar"
    icon = "calendar"
    aliases = ("agenda", "schedule")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249), surface_high=(236, 240, 247))
    main_screen = "main"
    screens = {"main": screens.main, "week": screens.week, "schedule": screens.schedule,
               "day": screens.day, "detail": screens.detail, "edit": screens.edit}
    providers = {"calendar": store.provider_rows}
    writers = {"calendar": store.WRITER}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
