"""Recipes: a cooking app (search by name, ingredient or cuisine with filters, recipes whose
ingredients rescale with the servings, cook mode, favourites, a shopping list). Its tables
``recipes/recipes`` (static), ``recipes/favorites`` and ``recipes/shopping_list`` are
PhoneWorld-only: a real phone's recipe app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.recipes import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class RecipesApp(App):
    name = "recipes"
    label = "Recipes"
    package = "com.phoneworld.recipes"
    icon = "kitchen_set"
    aliases = ("cookbook", "recipe app", "cooking")
    theme = Theme(primary=(46, 125, 50), on_primary=(255, 255, 255),
                  primary_container=(200, 230, 201), on_primary_container=(12, 57, 16),
                  surface=(252, 253, 247), surface_container=(240, 244, 232),
                  surface_high=(232, 238, 224), outline_variant=(196, 200, 188))
    main_screen = "main"
    screens = {"main": screens.main, "recipe": screens.recipe, "steps": screens.steps,
               "favorites": screens.favorites, "shopping": screens.shopping}
    #: a favourite is its recipe; a shopping line is an ingredient of a recipe, unticked
    new_rows = {"recipes/favorites": new_row({"_id": GIVEN}, free="name"),
                "recipes/shopping_list": new_row({"item": GIVEN, "qty": GIVEN, "unit": GIVEN,
                                                  "recipe_id": GIVEN, "checked": 0},
                                                 free="_id recipe")}
    providers = {"recipes/recipes": store.recipe_rows, "recipes/favorites": store.favorite_rows,
                 "recipes/shopping_list": store.shopping_rows}
    static_tables = frozenset({"recipes/recipes"})
    fixtures = {"add_to_list": store.add_to_list_fixture, "favorite": store.favorite_fixture}
    network_screens = ("main", "recipe")
    promos = ({"title": "Try Recipes Premium",
               "text": "Weekly meal plans and 2,000 chef recipes. Your first month is free."},)

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
