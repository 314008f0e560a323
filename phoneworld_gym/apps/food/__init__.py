"""Food: a DoorDash-like delivery app. Restaurants of the owner's city with ratings, delivery
times and fees (one closed until the evening, some dishes sold out), menus whose dishes open
an options sheet (size, extras, quantity), a cart for one restaurant at a time, checkout
(deliver to the owner's home or work, Dasher tip, card), order tracking (status steps,
estimated arrival, cancel while preparing), order history with reorder, and saved stores.

Tables (PhoneWorld-only: a delivery app keeps its data private): ``food/restaurants``,
``food/menu`` and ``food/options`` (static), ``food/cart``, ``food/orders``,
``food/order_items`` and ``food/favorites``; the fixture ``add_to_cart`` fills the cart for a
task's setup."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.food import screens, screens_order, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class FoodApp(App):
    """Order food for delivery."""

    name = "food"
    label = "Food"
    package = "com.phoneworld.food"
    icon = "burger"
    aliases = ("food delivery", "doordash", "uber eats", "delivery")
    theme = Theme(primary=(235, 23, 0), on_primary=(255, 255, 255),
                  primary_container=(255, 228, 222), on_primary_container=(85, 10, 0),
                  surface=(255, 255, 255), surface_container=(243, 242, 241),
                  surface_high=(234, 232, 231), on_surface=(25, 25, 25),
                  on_surface_variant=(96, 96, 96), outline=(140, 140, 140),
                  outline_variant=(222, 219, 218), error=(196, 30, 20))
    main_screen = "main"
    screens = {"main": screens.main, "search": screens.search,
               "restaurant": screens.restaurant, "cart": screens_order.cart,
               "checkout": screens_order.checkout, "order": screens_order.order,
               "orders": screens_order.orders, "account": screens_order.account}
    #: a line is a dish, its size, extras and count (name and price are the menu's); an
    #: order is the restaurant, the address and the tip; the card starts as the first saved
    #: one (drawn per episode, so compared only when named), and the totals, number, times
    #: and status are the app's
    new_rows = {"food/cart": new_row({"dish_id": GIVEN, "size": GIVEN, "extras": "",
                                      "quantity": 1},
                                     free="_id restaurant_id name unit_price"),
                "food/order_items": new_row({"dish_id": GIVEN, "size": GIVEN, "extras": "",
                                             "quantity": 1},
                                            free="_id order_id name unit_price"),
                "food/orders": new_row({"restaurant_id": GIVEN, "address_label": GIVEN,
                                        "tip": 3.0},
                                       free="_id number restaurant subtotal delivery_fee total "
                                            "address payment status placed eta eta_text"),
                "food/favorites": new_row({"_id": GIVEN}, free="name")}
    providers = {"food/restaurants": store.restaurant_rows, "food/menu": store.menu_rows,
                 "food/options": store.option_rows,
                 "food/cart": store.cart_rows, "food/orders": store.order_rows,
                 "food/order_items": store.order_item_rows,
                 "food/favorites": store.favorite_rows}
    static_tables = frozenset({"food/restaurants", "food/menu", "food/options"})
    fixtures = {"add_to_cart": store.add_to_cart_fixture}
    network_screens = ("main", "restaurant", "order")
    promos = ({"title": "$0 delivery fees for a month",
               "text": "Join FoodPass and pay $0 delivery fees on orders over $15. Try it free "
                       "for 30 days, cancel anytime."},
              {"title": "20% off lunch today",
               "text": "Order before 2 PM and save 20% on your order at Burger Barn and Golden "
                       "Wok."})

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)

    def notifications(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """The order on its way, as a delivery app posts it."""
        out = []
        for o in s["orders"]:
            if o["status"] == "On the way":
                r = store.restaurant(s, o["restaurant"])
                eta = store.clock(store.dt.datetime.fromisoformat(o["eta"]))
                out.append({"title": "Your order is on the way",
                            "text": f"{r['name'] if r else 'Your food'} arrives at {eta}.",
                            "screen": "order", "args": {"order": o["id"]}})
        return out
