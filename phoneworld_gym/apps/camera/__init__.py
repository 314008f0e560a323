"""Camera: a Pixel Camera-like app. The shutter draws a synthetic photo and saves it into
``/sdcard/DCIM/Camera`` through shared storage, so the picture shows in the Gallery and in the
common ``files`` table. Video mode records ``VID_`` files; a Slow motion mode (240 fps) shows on
the phones whose camera films it (about half). The viewfinder asks for the camera permission
on first use."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.camera import screens, store
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class CameraApp(App):
    name = "camera"
    label = "Camera"
    package = "com.phoneworld.camera"
    icon = "camera"
    aliases = ("pixel camera",)
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249), surface_high=(233, 238, 246))
    main_screen = "main"
    screens = {"main": screens.main, "review": screens.review, "settings": screens.settings}
    providers = {"camera/settings": store.settings_rows}
    fixtures = {"slow_motion": store.fixture_slow_motion}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
