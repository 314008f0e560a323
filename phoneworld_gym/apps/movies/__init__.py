"""CinemaGo: a movie-ticket mini-program inside Chat (films, showtimes, a seat map, tickets
with a booking code, share to a chat)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.movies import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class MoviesApp(App):
    """Buy movie tickets and pick seats."""

    name = "movies"
    label = "CinemaGo"
    package = "com.phoneworld.chat"  # a mini-program has no package of its own
    kind = "mini-app"
    host = "chat"
    icon = "film"
    theme = Theme(primary=(229, 57, 53), on_primary=(255, 255, 255),
                  primary_container=(255, 218, 214), on_primary_container=(90, 10, 10),
                  surface=(250, 248, 250), surface_container=(240, 236, 240),
                  surface_high=(232, 228, 232), on_surface=(28, 27, 31),
                  on_surface_variant=(90, 86, 96), outline=(140, 136, 146),
                  outline_variant=(210, 206, 214))
    main_screen = "films"
    screens = {"films": screens.films, "film": screens.film, "seats": screens.seats,
               "ticket": screens.ticket, "tickets": screens.tickets}
    #: a booking is the showing and the seats; its code, count and price follow
    new_rows = {"movies/bookings": new_row({"film": GIVEN, "day": GIVEN, "time": GIVEN,
                                            "seats": GIVEN}, free="_id code count total")}
    providers = {"movies/bookings": store.booking_rows, "movies/showtimes": store.show_rows}
    static_tables = frozenset({"movies/showtimes"})

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
