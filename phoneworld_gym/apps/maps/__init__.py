"""Maps: the owner's town on a map, places to search (businesses and the homes of the people
in the seeded life), a place's sheet with Call (a ``tel:`` intent), Save and Share, directions
by drive, transit, walk and bike, saved lists, and "Your location" behind the location
permission. Opens ``geo:`` URIs (an address tapped in Contacts)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.maps import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class MapsApp(App):
    name = "maps"
    label = "Maps"
    package = "com.phoneworld.maps"
    icon = "map"
    aliases = ("google maps", "map")
    theme = Theme(primary=(26, 115, 232), on_primary=(255, 255, 255),
                  primary_container=(210, 227, 252), on_primary_container=(4, 30, 73),
                  surface=(255, 255, 255), surface_container=(241, 243, 244),
                  surface_high=(236, 239, 241))
    main_screen = "main"
    screens = {"main": screens.main, "search": screens.search, "place": screens.place,
               "directions": screens.directions, "choose": screens.choose,
               "saved": screens.saved, "saved_list": screens.saved_list,
               "recents": screens.recents, "location": screens.location}
    #: ``maps/places`` never changes in an episode; ``maps/recent`` is a by-product of
    #: searching (like a browser's history): readable, but left out of the damage check so
    #: that looking something up is not a change. ``maps/saved`` is the user's data.
    new_rows = {"maps/saved": new_row({"list": GIVEN, "place": GIVEN}, free="_id name")}
    providers = {"maps/places": store.place_rows, "maps/saved": store.saved_rows,
                 "maps/recent": store.recent_rows}
    static_tables = frozenset({"maps/places"})
    byproduct_tables = frozenset({"maps/recent"})
    fixtures = {"save_place": store.fixture_save}
    intent_filters = {"geo": "place"}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
