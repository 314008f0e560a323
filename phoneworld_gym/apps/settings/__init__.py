"""Settings: the phone's own settings app. Its switches, sliders and choices read and write the
phone's settings (``settings get/put``), so tasks check them with ``probe.setting`` and run on
a real phone too; the per-app notification switches, the Do Not Disturb schedules and the time
zone are the app's own tables."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.settings import screens, screens_time, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class SettingsApp(App):
    name = "settings"
    label = "Settings"
    package = "com.android.settings"
    kind = "app"  # a system app, but the launcher lists it like any other
    icon = "gear"
    aliases = ("system settings", "android settings", "preferences")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(248, 249, 255),
                  surface_container=(237, 241, 250), surface_high=(225, 229, 240))
    main_screen = "main"
    screens = {**screens.SCREENS, **screens_time.SCREENS}
    new_rows = {"settings_app/notifications": new_row({"_id": GIVEN, "notifications": 0},
                                                      free="")}
    providers = {"settings_app/notifications": store.notification_rows,
                 "settings_app/zen_schedules": store.schedule_rows,
                 "settings_app/time_zone": store.time_zone_rows}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
