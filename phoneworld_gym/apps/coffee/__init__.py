"""Bean There: a coffee-ordering mini-program inside Chat (menu, size and milk, pay, order
number, share to a chat)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.coffee import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class CoffeeApp(App):
    """Order a drink for pickup."""

    name = "coffee"
    label = "Bean There"
    package = "com.phoneworld.chat"  # a mini-program has no package of its own
    kind = "mini-app"
    host = "chat"
    icon = "mug_hot"
    theme = Theme(primary=(111, 78, 55), on_primary=(255, 255, 255),
                  primary_container=(240, 225, 205), on_primary_container=(60, 35, 15),
                  surface=(250, 244, 236), surface_container=(243, 233, 220),
                  surface_high=(236, 224, 208), on_surface=(40, 30, 22),
                  on_surface_variant=(110, 95, 80), outline=(150, 130, 110),
                  outline_variant=(220, 205, 190))
    main_screen = "menu"
    screens = {"menu": screens.menu, "drink": screens.drink, "checkout": screens.checkout,
               "order": screens.order, "orders": screens.orders}
    #: an order starts as a Medium with whole milk and no syrup; its number, price, status
    #: and time are the shop's
    new_rows = {"coffee/orders": new_row({"drink": GIVEN, "size": "Medium", "milk": "Whole milk",
                                          "syrup": "No syrup"},
                                         free="_id number price status date")}
    providers = {"coffee/orders": store.order_rows, "coffee/menu": store.menu_rows}
    static_tables = frozenset({"coffee/menu"})

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
