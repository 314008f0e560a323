"""Shopping: a department store with search, product pages, a cart, checkout and orders.

The catalogue (:mod:`.catalogue`) is fixed shop data priced anew each episode by a seeded
variant; the shopper's cart, wishlist, orders, addresses and cards are the app's store
(:mod:`.store`); tasks see both only as the tables and fixtures of :mod:`.tables`."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.shopping import screens, store, tables
from phoneworld_gym.apps.shopping.screens_common import THEME
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life


@register_app
class ShoppingApp(App):
    name = "shopping"
    label = "Shopping"
    package = "com.phoneworld.shopping"
    icon = "cart"
    aliases = ("shop", "store", "shopping app")
    theme = THEME
    main_screen = "home"
    screens = screens.SCREENS
    # realism (field profile): the storefront and search results come from the server
    network_screens = ("home", "search")
    promos = ({"title": "Free delivery weekend",
               "text": "Orders over $25 ship free until Sunday. Shop the deals now.",
               "action": "Shop deals"},
              {"title": "Get 10% off with Prime Card",
               "text": "Apply in two minutes and save on today's order.",
               "action": "Apply now"})
    #: a cart line is a product, its options and a count; an address is typed in (labelled
    #: Other unless named); an order is its lines, address and delivery (the card is the saved
    #: default unless changed); names, prices, totals, dates and status are the shop's
    new_rows = {"shopping/cart": new_row({"product_id": GIVEN, "options": {}, "qty": 1},
                                         free="_id name price position"),
                "shopping/wishlist": new_row({"_id": GIVEN}, free="name position"),
                "shopping/addresses": new_row({"label": "Other", "name": GIVEN, "street": GIVEN,
                                               "city": GIVEN, "state": GIVEN, "zip": GIVEN,
                                               "is_default": 0},
                                              text="label name city state zip",
                                              address="street"),
                "shopping/orders": new_row({"items": GIVEN, "address": GIVEN,
                                            "delivery": "Standard", "return_reason": ""},
                                           free="_id date status payment subtotal shipping "
                                                "total", address="address")}
    providers = tables.PROVIDERS
    static_tables = tables.STATIC_TABLES
    fixtures = tables.FIXTURES

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        """The shopper of the episode's life and a catalogue variant (see
        :func:`.store.generate`)."""
        return store.generate(rng, life)

    def notifications(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """A shipping update for each order on its way."""
        out = []
        for o in s["orders"]:
            if o["status"] == "Shipped":
                item = store.product_of(s, o["items"][0]).name
                out.append({"title": f"Your order {o['id']} has shipped",
                            "text": f"{item} is on its way.",
                            "screen": "order", "args": {"id": o["id"]}})
        return out
