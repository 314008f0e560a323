"""Parcel: a parcel-tracking mini-program inside Chat (parcels in transit, a tracking
timeline, delivery windows and pickup lockers, share the tracking to a chat)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.parcel import screens, store
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class ParcelApp(App):
    """Track parcels and change their delivery."""

    name = "parcel"
    label = "Parcel"
    package = "com.phoneworld.chat"  # a mini-program has no package of its own
    kind = "mini-app"
    host = "chat"
    icon = "truck_fast"
    theme = Theme(primary=(255, 204, 0), on_primary=(33, 33, 33),
                  primary_container=(255, 240, 179), on_primary_container=(60, 45, 0),
                  surface=(252, 250, 244), surface_container=(245, 240, 225),
                  surface_high=(238, 232, 214), on_surface=(33, 33, 33),
                  on_surface_variant=(95, 90, 75), outline=(150, 140, 110),
                  outline_variant=(220, 212, 190))
    main_screen = "parcels"
    screens = {"parcels": screens.parcels, "parcel": screens.parcel,
               "delivery": screens.delivery}
    providers = {"parcel/parcels": store.parcel_rows}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
