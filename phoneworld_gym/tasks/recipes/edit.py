"""Recipes tasks that change something: save a recipe to the favourites, put a recipe's
ingredients for a number of servings on the shopping list (all of them, or all but one the
owner already has), tick an item off the shopping list, and a dish the app does not have
(infeasible)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, elements, find, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.recipes.common import (
    add_to_list,
    browse_to_recipe,
    by_id,
    list_rows,
    open_recipe,
    other_servings,
    recipes,
    search,
    to_tab,
)
from phoneworld_gym.validators import added, changed


@register_task
class RecipesSaveFavorite(Task):
    """Save a recipe to the favourites: exactly its row joins ``recipes/favorites``.

    Fewer goals: one per recipe of the catalogue (16)."""

    id = "RecipesSaveFavorite"
    apps = ("recipes",)
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 5
    may_change = ("recipes/favorites",)
    params_schema = {"recipe": str, "id": int}
    template = "Save the {recipe} recipe to my favourites in Recipes."
    paraphrases = {
        "train": ("Add {recipe} to my saved recipes.", "Favourite the recipe for {recipe}."),
        "test": ("I want to cook {recipe} again some day; keep it among my saved recipes.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = {int(r["_id"]) for r in probe.query("recipes/favorites")}
        r = choice(rng, [r for r in recipes(probe) if int(r["_id"]) not in saved])
        return {"recipe": r["name"], "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("recipes/favorites", {"_id": self.params["id"]}))

    def _save(self, device: Device, name: str, browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_recipe if browse else open_recipe)(device, name)
        yield tap(device, desc="Save to favourites")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._save(device, self.params["recipe"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipe through its cuisine chip on Discover instead of searching."""
        yield from self._save(device, self.params["recipe"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves another recipe of the same cuisine (or any other)."""
        rows = recipes(device.probe)
        me = by_id(rows)[self.params["id"]]
        saved = {int(r["_id"]) for r in device.probe.query("recipes/favorites")}
        others = [r for r in rows if r["_id"] != me["_id"] and int(r["_id"]) not in saved]
        same = [r for r in others if r["cuisine"] == me["cuisine"]]
        yield from self._save(device, (same or others)[0]["name"])
        yield Action("status", goal_status="complete")


def _off_list(probe: Probe) -> list[Any]:
    """Recipes none of whose ingredients are on the shopping list yet."""
    on = {int(r["recipe_id"]) for r in probe.query("recipes/shopping_list")}
    return [r for r in recipes(probe) if int(r["_id"]) not in on]


@register_task
class RecipesShopForServings(Task):
    """Put a recipe's ingredients for a number of servings on the shopping list: one unticked
    row per ingredient, with the quantity scaled from the recipe's servings."""

    id = "RecipesShopForServings"
    apps = ("recipes",)
    difficulty = "medium"
    tags = ("search", "stepper")
    optimal_steps = 7
    may_change = ("recipes/shopping_list",)
    params_schema = {"recipe": str, "id": int, "servings": int}
    template = "Add the ingredients of {recipe} for {servings} servings to my shopping list."
    paraphrases = {
        "train": ("I'm cooking {recipe} for {servings} people: put what I need on the Recipes "
                  "shopping list.",
                  "Shopping list: {recipe}, scaled to {servings} servings."),
        "test": ("Scale {recipe} to serve {servings} and send its ingredients to my shopping "
                 "list.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, _off_list(probe))
        return {"recipe": r["name"], "id": int(r["_id"]),
                "servings": other_servings(rng, int(r["servings"]))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        r = by_id(self.before("recipes/recipes"))[self.params["id"]]
        return self.expect(added("recipes/shopping_list",
                                 *list_rows(r, self.params["servings"])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from add_to_list(device, self.params["recipe"], self.params["servings"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipe through its cuisine chip on Discover instead of searching."""
        yield from add_to_list(device, self.params["recipe"], self.params["servings"],
                               browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds them for the recipe's own servings (not scaled)."""
        r = by_id(recipes(device.probe))[self.params["id"]]
        yield from add_to_list(device, self.params["recipe"], int(r["servings"]))
        yield Action("status", goal_status="complete")


@register_task
class RecipesShopExceptHave(Task):
    """Put a recipe's ingredients for a number of servings on the shopping list, except one
    the owner already has (added, then swiped off the list): one unticked, scaled row per
    other ingredient."""

    id = "RecipesShopExceptHave"
    apps = ("recipes",)
    difficulty = "hard"
    tags = ("search", "stepper", "swipe")
    split = "test"
    optimal_steps = 12
    may_change = ("recipes/shopping_list",)
    params_schema = {"recipe": str, "id": int, "servings": int, "item": str}
    template = ("Put the ingredients for {servings} servings of {recipe} on my shopping list, "
                "but not the {item}: I have that already.")
    paraphrases = {
        "test": ("I have {item} at home. Everything else {recipe} needs for {servings} people "
                 "should go on the Recipes shopping list.",
                 "Shopping list for {recipe} ({servings} servings), minus the {item}."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, _off_list(probe))
        item = choice(rng, [i["item"] for i in r["ingredients"]])
        return {"recipe": r["name"], "id": int(r["_id"]),
                "servings": other_servings(rng, int(r["servings"])), "item": item}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        r = by_id(self.before("recipes/recipes"))[self.params["id"]]
        return self.expect(added("recipes/shopping_list",
                                 *list_rows(r, self.params["servings"],
                                            skip=self.params["item"])))

    def _run(self, device: Device, item: str, browse: bool = False) -> Iterator[Action]:
        p = self.params
        yield from add_to_list(device, p["recipe"], p["servings"], browse)
        yield from to_tab(device, "Shopping list")
        yield from tap_item(device, item, p["recipe"], action="swipe")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["item"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipe through its cuisine chip on Discover instead of searching."""
        yield from self._run(device, self.params["item"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Leaves out another ingredient instead."""
        r = by_id(recipes(device.probe))[self.params["id"]]
        wrong = next(i["item"] for i in r["ingredients"] if i["item"] != self.params["item"])
        yield from self._run(device, wrong)
        yield Action("status", goal_status="complete")


def _shown_item(label: str, item: str) -> bool:
    """True when a shopping-list label ("2 cloves garlic", "8 basil leaves") names
    ``item`` (or its plural)."""
    forms = (item, item + "s", item + "es", item[:-1] + "ves")
    return any(label.endswith(" " + f) for f in forms)


def _item_index(device: Device, item: str, recipe: str) -> int | None:
    """The index of ``item``'s row under ``recipe``'s heading on the shopping list, when
    both show."""
    under = False
    for i, e in enumerate(elements(device)):
        rid = e.resource_id or ""
        if rid.endswith("/list_recipe"):
            under = e.text == recipe
        elif under and rid.endswith("/shopping_item") and _shown_item(e.text or "", item):
            return i
    return None


def tap_item(device: Device, item: str, recipe: str, *,
             action: str = "click") -> Iterator[Action]:
    """On the shopping list: scroll to ``recipe``'s ``item`` and tap it (or swipe it away
    with ``action`` "swipe")."""
    for _ in range(12):
        i = _item_index(device, item, recipe)
        if i is not None:
            yield (Action("click", index=i) if action == "click"
                   else Action("swipe", index=i, direction="right"))
            return
        yield Action("scroll", direction="down")
    raise OracleError(f"{item!r} of {recipe} never showed on the shopping list")


@register_task
class RecipesTickItem(Task):
    """Tick an item off the shopping list (the list holds one recipe's ingredients, set up
    first): that row's ``checked`` becomes 1 and nothing else changes."""

    id = "RecipesTickItem"
    apps = ("recipes",)
    difficulty = "easy"
    tags = ("checkbox",)
    optimal_steps = 4
    may_change = ("recipes/shopping_list",)
    params_schema = {"recipe": str, "item": str}
    template = "I just bought the {item} for {recipe}; tick it off my shopping list."
    paraphrases = {
        "train": ("Check off {item} ({recipe}) on the Recipes shopping list.",),
        "test": ("Mark the {item} for the {recipe} as got on my shopping list.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, _off_list(probe))
        return {"recipe": r["name"], "item": choice(rng, [i["item"] for i in r["ingredients"]])}

    def setup(self, device: Device) -> None:
        device.fixture("recipes", "add_to_list", recipe=self.params["recipe"])

    def _row(self, item: str) -> int:
        return next(int(r["_id"]) for r in self.before("recipes/shopping_list")
                    if r["recipe"] == self.params["recipe"] and r["item"] == item)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("recipes/shopping_list", self._row(self.params["item"]),
                                   checked=1))

    def _tick(self, device: Device, item: str) -> Iterator[Action]:
        yield from to_tab(device, "Shopping list")
        yield from tap_item(device, item, self.params["recipe"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._tick(device, self.params["item"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Ticks the recipe's next ingredient instead."""
        r = next(r for r in recipes(device.probe) if r["name"] == self.params["recipe"])
        items = [i["item"] for i in r["ingredients"]]
        k = items.index(self.params["item"])
        yield from self._tick(device, items[(k + 1) % len(items)])
        yield Action("status", goal_status="complete")


#: dishes the catalogue does not have
MISSING: tuple[str, ...] = (
    "Beef Wellington", "Lasagna", "Paella", "Pho", "Tiramisu", "Falafel Wraps", "Lamb Tagine",
    "Fish and Chips", "Chicken Caesar Salad", "Beef Stroganoff", "Bibimbap", "Moussaka",
    "Gazpacho", "Jambalaya", "Pierogi", "Ratatouille", "Banana Bread", "Clam Chowder",
    "Goulash", "Lemon Tart", "Tom Yum Soup", "Biryani", "Enchiladas", "Apple Crumble",
)


@register_task
class RecipesMissingDish(Task):
    """Infeasible by design: save a dish the app has no recipe for. Searching it finds
    nothing; the right end is ``status: infeasible`` with nothing changed."""

    id = "RecipesMissingDish"
    apps = ("recipes",)
    difficulty = "easy"
    tags = ("search", "infeasible")
    feasible = False
    optimal_steps = 3
    params_schema = {"dish": str}
    template = "Save the recipe for {dish} to my favourites in Recipes."
    paraphrases = {
        "train": ("Find {dish} in my recipe app and favourite it.",),
        "test": ("Bookmark the {dish} recipe from the Recipes app for later.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        names = {r["name"].lower() for r in recipes(probe)}
        return {"dish": choice(rng, [d for d in MISSING if d.lower() not in names])}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["dish"])
        if find(device, rid="recipe_row") is not None or \
                text_of(device, rid="empty_title") != "No recipes found":
            raise RuntimeError(f"the app has a recipe for {self.params['dish']!r}")
        yield Action("status", goal_status="infeasible")
