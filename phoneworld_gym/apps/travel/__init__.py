"""Travel: a Booking.com-like hotel app (search a city for dates and guests, results with
price per night, rating and distance, filters and sort, a hotel's rooms, some sold out on
some dates, a two-step booking, trips with cancel, saved hotels). Its tables are
PhoneWorld-only: a real phone's booking app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.travel import screens, screens_book, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class TravelApp(App):
    name = "travel"
    label = "Travel"
    package = "com.phoneworld.travel"
    icon = "hotel"
    aliases = ("booking", "booking.com", "hotels", "hotel app", "trips")
    theme = Theme(primary=(0, 108, 228), on_primary=(255, 255, 255),
                  primary_container=(217, 232, 252), on_primary_container=(0, 38, 92),
                  surface=(255, 255, 255), surface_container=(242, 245, 250),
                  surface_high=(235, 240, 247), on_surface=(26, 26, 26),
                  on_surface_variant=(89, 89, 89), outline=(134, 134, 134),
                  outline_variant=(214, 214, 214), error=(204, 0, 0))
    main_screen = "main"
    screens = {"main": screens.main, "destination": screens.destination,
               "results": screens.results, "filters": screens.filters,
               "hotel": screens_book.hotel, "details": screens_book.details,
               "review": screens_book.review, "booking": screens_book.booking}
    #: a booking is the room, the dates and the guests (2 unless changed); the guest name is
    #: filled in with the owner's; names, nights, price, status and confirmation follow
    new_rows = {"travel/bookings": new_row({"hotel_id": GIVEN, "room_id": GIVEN,
                                            "checkin": GIVEN, "checkout": GIVEN, "guests": 2},
                                           free="_id hotel city room nights guest_name total "
                                                "status confirmation", text="guest_name"),
                "travel/saved": new_row({"_id": GIVEN}, free="hotel city")}
    providers = {"travel/hotels": store.hotel_rows, "travel/rooms": store.room_rows,
                 "travel/bookings": store.booking_rows, "travel/saved": store.saved_rows,
                 "travel/searches": store.search_rows, "travel/account": store.account_rows}
    static_tables = frozenset({"travel/hotels", "travel/rooms", "travel/account"})
    byproduct_tables = frozenset({"travel/searches"})
    fixtures = {"book": store.book_fixture, "save": store.save_fixture}
    network_screens = ("results", "hotel")
    promos = ({"title": "Genius deal: 15% off",
               "text": "Save 15% or more on stays booked before the end of the month."},
              {"title": "Late escape deals",
               "text": "Find last-minute stays with free cancellation this weekend."})

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
