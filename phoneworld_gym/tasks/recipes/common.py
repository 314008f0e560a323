"""Shared pieces of the Recipes tasks: the rows of the static ``recipes/recipes`` (``_id``,
``name``, ``cuisine``, ``minutes``, ``servings``, ``vegetarian``, ``rating``, ``ingredients``
as ``{qty, unit, item}``, ``steps``), ``recipes/favorites`` (``_id`` = recipe id, ``name``)
and ``recipes/shopping_list`` (``_id``, ``item``, ``qty``, ``unit``, ``recipe_id``,
``recipe``, ``checked``), and the UI paths (Discover's search, a recipe's servings stepper,
the bottom tabs).

A real phone's recipe app keeps its data private, so these tasks run on PhoneWorld only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.tasks.kit import choice, open_root

LABEL = "Recipes"


def recipes(probe: Probe) -> list[Row]:
    return probe.query("recipes/recipes")


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {int(r["_id"]): r for r in rows}


def scaled(qty: float, base: int, servings: int) -> float:
    """A quantity written for ``base`` servings, for ``servings``."""
    return qty * servings / base


def other_servings(rng: np.random.Generator, base: int) -> int:
    """A number of servings other than the recipe's own, one to three away from it."""
    return choice(rng, [n for n in range(max(1, base - 3), base + 4) if n != base])


def about(want: float, tol: float = 0.01) -> Callable[[Any], bool]:
    """A predicate for a quantity within ``tol`` of ``want``."""
    return lambda v: isinstance(v, (int, float)) and abs(float(v) - want) <= tol


def list_rows(recipe: Row, servings: int, *, skip: str = "") -> list[dict[str, Any]]:
    """The ``recipes/shopping_list`` rows a recipe's ingredients for ``servings`` add
    (unticked), leaving out the ingredient ``skip``."""
    return [{"item": i["item"], "unit": i["unit"], "recipe_id": int(recipe["_id"]),
             "qty": about(scaled(float(i["qty"]), int(recipe["servings"]), servings)),
             "checked": 0} for i in recipe["ingredients"] if i["item"] != skip]


def to_tab(device: Device, tab: str) -> Iterator[Action]:
    """Open Recipes and the bottom tab ``tab`` (Discover, Saved, Shopping list)."""
    rid = "nav_" + tab.lower().replace(" ", "_")
    yield from open_root(device, LABEL, lambda d: find(d, desc=tab, rid=rid) is not None,
                         tries=6, fail=f"the {tab} tab never showed")
    i = find(device, desc=tab, rid=rid)
    if i is not None and not _selected(device, i):
        yield Action("click", index=i)


def _selected(device: Device, i: int) -> bool:
    from phoneworld_gym.oracle import elements

    return bool(elements(device)[i].is_selected)


def search(device: Device, query: str) -> Iterator[Action]:
    """From anywhere: Discover with ``query`` typed into the search field."""
    yield from to_tab(device, "Discover")
    yield type_into(device, query, rid="search_src_text")


def open_recipe(device: Device, name: str) -> Iterator[Action]:
    """Search a recipe by name and open it."""
    yield from search(device, name)
    yield tap(device, desc=name, rid="recipe_row")


def browse_to_recipe(device: Device, name: str) -> Iterator[Action]:
    """The second path to a recipe: Discover's chip for its cuisine, then down the filtered
    list to it (no search)."""
    cuisine = next(r["cuisine"] for r in recipes(device.probe) if r["name"] == name)
    yield from to_tab(device, "Discover")
    yield from scroll_to(device, text=cuisine, rid="filter_cuisine")
    yield tap(device, text=cuisine, rid="filter_cuisine")
    yield from scroll_to(device, desc=name, rid="recipe_row")
    yield tap(device, desc=name, rid="recipe_row")


def set_servings(device: Device, servings: int) -> Iterator[Action]:
    """On a recipe: step the servings to ``servings``."""
    for _ in range(16):
        have = int(text_of(device, rid="servings_count") or 0)
        if have == servings:
            return
        yield tap(device, desc="Increase servings" if servings > have else "Decrease servings")
    raise OracleError(f"could not set {servings} servings")


def add_to_list(device: Device, name: str, servings: int,
                browse: bool = False) -> Iterator[Action]:
    """Open a recipe, set the servings and add its ingredients to the shopping list."""
    yield from (browse_to_recipe if browse else open_recipe)(device, name)
    yield from set_servings(device, servings)
    yield from scroll_to(device, rid="add_to_list")
    yield tap(device, rid="add_to_list")
