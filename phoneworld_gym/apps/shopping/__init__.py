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
