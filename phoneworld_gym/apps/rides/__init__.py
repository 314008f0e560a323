"""Rides: a ride-hailing app like Uber or Lyft. Pick a pickup and a destination (Home, Work,
the city's landmarks, any address of the people in the seeded life), compare ride types with
their prices (one without drivers nearby), ride now or schedule for later with the date and
time pickers, confirm, follow the ride (share its status, cancel it), and read past trips'
receipts and upcoming scheduled rides (cancel them). Its tables are PhoneWorld-only: a real
ride app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.rides import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class RidesApp(App):
    name = "rides"
    label = "Rides"
    package = "com.phoneworld.rides"
    icon = "taxi"
    aliases = ("ride", "uber", "lyft", "taxi", "ride hailing")
    theme = Theme(primary=(0, 0, 0), on_primary=(255, 255, 255),
                  primary_container=(218, 218, 218), on_primary_container=(0, 0, 0),
                  surface=(255, 255, 255), surface_container=(246, 246, 246),
                  surface_high=(244, 244, 244), on_surface=(0, 0, 0),
                  on_surface_variant=(84, 84, 84), outline=(117, 117, 117),
                  outline_variant=(226, 226, 226))
    main_screen = "main"
    screens = {"main": screens.main, "search": screens.search, "choose": screens.choose,
               "confirm": screens.confirm, "trip": screens.trip, "activity": screens.activity,
               "receipt": screens.receipt, "ride": screens.ride, "account": screens.account}
    #: the places and the rate card never change in an episode; trips and scheduled rides
    #: are the rider's data
    #: a ride is where from, where to and the type (Economy unless changed), and when for a
    #: scheduled one; names, prices, driver and status are the app's
    new_rows = {"rides/scheduled": new_row({"pickup_key": GIVEN, "dropoff_key": GIVEN,
                                            "type": "Economy", "pickup_at": GIVEN},
                                           free="_id pickup dropoff estimate status"),
                "rides/trips": new_row({"pickup_key": GIVEN, "dropoff_key": GIVEN,
                                        "type": "Economy", "tip": 0.0},
                                       free="_id pickup dropoff start miles minutes fare fee "
                                            "total status driver car plate eta")}
    providers = {"rides/places": store.place_rows, "rides/types": store.type_rows,
                 "rides/trips": store.trip_rows, "rides/scheduled": store.scheduled_rows}
    static_tables = frozenset({"rides/places", "rides/types"})
    fixtures = {"schedule_ride": store.schedule_fixture}
    #: prices and drivers come from the server
    network_screens = ("choose", "trip")
    promos = ({"title": "50% off your next 2 rides",
               "text": "Ride for less this weekend: half price on your next two Economy "
                       "trips, up to $10 each."},
              {"title": "Try Green", "text": "Electric and hybrid rides at a small premium. "
                                             "Choose Green on your next trip."})

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
