"""Shopping: a department store with search, product pages, a cart, checkout and orders.

The catalogue (:mod:`.catalogue`) is fixed shop data; the shopper's cart, wishlist, orders,
addresses and cards are the app's store (:mod:`.store`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.shopping import screens, store
from phoneworld_gym.apps.shopping.screens_common import THEME


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

    def generate(self, rng: np.random.Generator) -> dict[str, Any]:
        return store.generate(rng)

    def notifications(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """A shipping update for each order on its way."""
        out = []
        for o in s["orders"]:
            if o["status"] == "Shipped":
                item = store.product_of(o["items"][0]).name
                out.append({"title": f"Your order {o['id']} has shipped",
                            "text": f"{item} is on its way.",
                            "screen": "order", "args": {"id": o["id"]}})
        return out
