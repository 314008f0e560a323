"""CityBike: a bike-rental mini-program inside Chat (stations, unlock, end the ride at a
station, fare, share the receipt to a chat)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.bike import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class BikeApp(App):
    """Rent a bike at a station."""

    name = "bike"
    label = "CityBike"
    package = "com.phoneworld.chat"  # a mini-program has no package of its own
    kind = "mini-app"
    host = "chat"
    icon = "bicycle"
    theme = Theme(primary=(0, 150, 136), on_primary=(255, 255, 255),
                  primary_container=(200, 236, 230), on_primary_container=(0, 70, 62),
                  surface=(246, 250, 249), surface_container=(232, 242, 240),
                  surface_high=(222, 236, 233), on_surface=(20, 35, 33),
                  on_surface_variant=(80, 100, 97), outline=(140, 160, 156),
                  outline_variant=(200, 215, 212))
    main_screen = "stations"
    screens = {"stations": screens.stations, "station": screens.station, "ride": screens.ride,
               "receipt": screens.receipt, "rides": screens.rides}
    #: a ride is where it started and ended; the bike, time and fare are the system's
    new_rows = {"bike/rides": new_row({"start": GIVEN, "end": GIVEN, "status": GIVEN},
                                      free="_id bike minutes fare")}
    providers = {"bike/stations": store.station_rows, "bike/rides": store.ride_rows}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
