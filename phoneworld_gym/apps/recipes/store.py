"""Recipes data: a fixed catalogue of recipes, the owner's favourites and a shopping list.

The catalogue (:data:`CATALOGUE`) is the same on every seed apart from the ratings, which a
seeded overlay draws (as a server's live ratings would differ). A recipe has an ``id``, a
``name``, a ``cuisine``, ``minutes``, the ``servings`` its quantities are written for,
``vegetarian`` and ``ingredients`` as ``(qty, unit, item)`` with ``unit`` one of
:data:`UNITS` ("" counts pieces), and ``steps``.

The store is ``{"ratings": {id: [stars, reviews]}, "favorites": [recipe ids, oldest first],
"shopping": [{id, item, qty, unit, recipe_id, checked}], "next_item": int}``. Tables
(PhoneWorld-only): the static ``recipes/recipes`` (``_id``, ``name``, ``cuisine``,
``minutes``, ``servings``, ``vegetarian``, ``rating``, ``ingredients`` as a list of
``{qty, unit, item}``, ``steps``), ``recipes/favorites`` (``_id`` = the recipe id, ``name``)
and ``recipes/shopping_list`` (``_id``, ``item``, ``qty`` (for the servings chosen when it
was added), ``unit``, ``recipe_id``, ``recipe``, ``checked``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

UNITS: tuple[str, ...] = ("g", "ml", "cup", "tbsp", "tsp", "clove", "can", "")
#: units whose quantities are shown as whole numbers (weights and volumes in metric)
METRIC: frozenset[str] = frozenset({"g", "ml"})
MIN_SERVINGS, MAX_SERVINGS = 1, 12
QUICK_MINUTES = 30

Ingredient = tuple[float, str, str]

#: (name, cuisine, minutes, servings, vegetarian, ingredients, steps)
CATALOGUE: tuple[tuple[str, str, int, int, bool, tuple[Ingredient, ...], tuple[str, ...]],
                 ...] = (
    ("Spaghetti Carbonara", "Italian", 25, 4, False,
     ((400, "g", "spaghetti"), (150, "g", "pancetta"), (4, "", "egg"),
      (80, "g", "pecorino"), (1, "tsp", "black pepper")),
     ("Boil the spaghetti in salted water until al dente.",
      "Fry the pancetta until crisp.",
      "Whisk the eggs with the grated pecorino and pepper.",
      "Toss the drained pasta with the pancetta off the heat, then stir in the egg mix.")),
    ("Margherita Pizza", "Italian", 45, 2, True,
     ((250, "g", "pizza dough"), (200, "ml", "tomato passata"), (125, "g", "mozzarella"),
      (1, "tbsp", "olive oil"), (8, "", "basil leaf")),
     ("Heat the oven to 250 °C with a tray inside.",
      "Stretch the dough into a thin round.",
      "Spread the passata, tear over the mozzarella and drizzle with oil.",
      "Bake for 8 to 10 minutes and scatter the basil.")),
    ("Mushroom Risotto", "Italian", 40, 4, True,
     ((300, "g", "arborio rice"), (250, "g", "mushrooms"), (1, "", "onion"),
      (1000, "ml", "vegetable stock"), (50, "g", "parmesan"), (2, "tbsp", "butter")),
     ("Soften the chopped onion in half the butter.",
      "Add the rice and stir for a minute.",
      "Add the stock a ladle at a time, stirring, for about 18 minutes.",
      "Fry the mushrooms separately and fold them in.",
      "Finish with the parmesan and the rest of the butter.")),
    ("Chicken Tacos", "Mexican", 25, 4, False,
     ((500, "g", "chicken thigh"), (8, "", "corn tortilla"), (1, "", "avocado"),
      (1, "", "lime"), (2, "tsp", "chili powder"), (0.5, "cup", "sour cream")),
     ("Season the chicken with the chili powder.",
      "Grill the chicken for 6 minutes a side, then slice.",
      "Warm the tortillas in a dry pan.",
      "Fill with chicken, avocado and sour cream; squeeze over the lime.")),
    ("Black Bean Quesadillas", "Mexican", 20, 2, True,
     ((1, "can", "black beans"), (4, "", "flour tortilla"), (100, "g", "cheddar"),
      (0.5, "cup", "salsa"), (1, "tsp", "cumin")),
     ("Mash the beans with the cumin.",
      "Spread over two tortillas, add cheese and salsa, cover with the others.",
      "Cook in a dry pan for 3 minutes a side and cut into wedges.")),
    ("Chana Masala", "Indian", 35, 4, True,
     ((2, "can", "chickpeas"), (1, "", "onion"), (3, "clove", "garlic"),
      (400, "ml", "chopped tomatoes"), (2, "tsp", "garam masala"), (1, "tbsp", "vegetable oil")),
     ("Fry the onion in the oil until golden.",
      "Add the garlic and garam masala for a minute.",
      "Add the tomatoes and chickpeas and simmer for 20 minutes.",
      "Season and serve with rice or naan.")),
    ("Butter Chicken", "Indian", 50, 4, False,
     ((600, "g", "chicken breast"), (150, "ml", "plain yogurt"), (3, "tbsp", "butter"),
      (400, "ml", "tomato passata"), (200, "ml", "cream"), (2, "tsp", "garam masala")),
     ("Marinate the chicken in the yogurt and half the spice for 20 minutes.",
      "Brown the chicken in the butter.",
      "Add the passata and the rest of the spice; simmer for 15 minutes.",
      "Stir in the cream and warm through.")),
    ("Pad Thai", "Thai", 30, 2, False,
     ((200, "g", "rice noodles"), (200, "g", "shrimp"), (2, "", "egg"),
      (3, "tbsp", "fish sauce"), (2, "tbsp", "tamarind paste"), (0.5, "cup", "peanuts")),
     ("Soak the noodles in warm water for 10 minutes.",
      "Stir-fry the shrimp, push aside and scramble the eggs.",
      "Add the noodles, fish sauce and tamarind and toss for 2 minutes.",
      "Top with the crushed peanuts.")),
    ("Green Curry with Tofu", "Thai", 30, 4, True,
     ((400, "g", "firm tofu"), (400, "ml", "coconut milk"), (3, "tbsp", "green curry paste"),
      (1, "", "red pepper"), (1, "cup", "green beans"), (1, "", "lime")),
     ("Fry the curry paste in a little coconut milk.",
      "Add the rest of the coconut milk, the pepper and the beans.",
      "Add the cubed tofu and simmer for 10 minutes.",
      "Finish with lime juice.")),
    ("Classic Cheeseburger", "American", 30, 4, False,
     ((500, "g", "ground beef"), (4, "", "burger bun"), (4, "", "cheddar slice"),
      (1, "", "tomato"), (4, "", "lettuce leaf"), (2, "tbsp", "ketchup")),
     ("Shape the beef into four patties and season.",
      "Grill for 4 minutes a side; add the cheese for the last minute.",
      "Toast the buns.",
      "Build with lettuce, tomato and ketchup.")),
    ("Buttermilk Pancakes", "American", 20, 4, True,
     ((1.5, "cup", "flour"), (1.25, "cup", "buttermilk"), (1, "", "egg"),
      (2, "tbsp", "sugar"), (1, "tsp", "baking powder"), (3, "tbsp", "melted butter")),
     ("Mix the dry ingredients.",
      "Whisk the buttermilk, egg and butter and stir into the dry mix.",
      "Cook ladles of batter in a hot pan until bubbles form, then flip.")),
    ("Greek Salad", "Mediterranean", 15, 2, True,
     ((2, "", "tomato"), (1, "", "cucumber"), (100, "g", "feta"),
      (0.5, "cup", "kalamata olives"), (2, "tbsp", "olive oil"), (1, "tsp", "oregano")),
     ("Chop the tomatoes and cucumber into chunks.",
      "Add the olives and the feta in one slab.",
      "Dress with the oil and oregano.")),
    ("Shakshuka", "Mediterranean", 30, 2, True,
     ((4, "", "egg"), (400, "ml", "chopped tomatoes"), (1, "", "red pepper"),
      (1, "", "onion"), (2, "clove", "garlic"), (1, "tsp", "paprika")),
     ("Soften the onion and pepper.",
      "Add the garlic, paprika and tomatoes and simmer for 10 minutes.",
      "Make four wells and crack in the eggs.",
      "Cover and cook until the whites set.")),
    ("Salmon Teriyaki", "Japanese", 25, 2, False,
     ((2, "", "salmon fillet"), (4, "tbsp", "soy sauce"), (2, "tbsp", "mirin"),
      (1, "tbsp", "honey"), (1, "cup", "rice"), (1, "tsp", "sesame seeds")),
     ("Cook the rice.",
      "Mix the soy sauce, mirin and honey.",
      "Pan-fry the salmon skin side down for 4 minutes, turn and add the sauce.",
      "Glaze for 2 minutes and sprinkle with sesame seeds.")),
    ("Vegetable Miso Soup", "Japanese", 15, 4, True,
     ((1000, "ml", "water"), (4, "tbsp", "miso paste"), (200, "g", "silken tofu"),
      (2, "", "spring onion"), (1, "tbsp", "dried wakame")),
     ("Heat the water without boiling.",
      "Whisk in the miso paste.",
      "Add the wakame and cubed tofu for 2 minutes.",
      "Serve with the sliced spring onions.")),
    ("French Onion Soup", "French", 70, 4, True,
     ((4, "", "onion"), (3, "tbsp", "butter"), (1000, "ml", "vegetable stock"),
      (4, "", "baguette slice"), (120, "g", "gruyere")),
     ("Slice the onions and cook slowly in the butter for 40 minutes.",
      "Add the stock and simmer for 15 minutes.",
      "Top bowls with the bread and cheese and grill until bubbling.")),
)
CUISINES: tuple[str, ...] = tuple(sorted({r[1] for r in CATALOGUE}))


def recipe(rid: int) -> dict[str, Any]:
    """Recipe ``rid`` (1-based) as a dict (``KeyError`` naming it when there is none)."""
    if not isinstance(rid, int) or not 1 <= rid <= len(CATALOGUE):
        raise KeyError(f"no recipe with id {rid!r}")
    name, cuisine, minutes, servings, veg, ingredients, steps = CATALOGUE[rid - 1]
    return {"id": rid, "name": name, "cuisine": cuisine, "minutes": minutes,
            "servings": servings, "vegetarian": veg,
            "ingredients": [{"qty": float(q), "unit": u, "item": i} for q, u, i in ingredients],
            "steps": list(steps)}


def all_recipes() -> list[dict[str, Any]]:
    return [recipe(i + 1) for i in range(len(CATALOGUE))]


def by_name(name: str) -> dict[str, Any] | None:
    return next((r for r in all_recipes() if r["name"].lower() == name.strip().lower()), None)


# -- quantities ------------------------------------------------------------------------------
_FRACTIONS: tuple[tuple[float, str], ...] = (
    (0.0, ""), (1 / 8, "⅛"), (1 / 4, "¼"), (1 / 3, "⅓"), (1 / 2, "½"), (2 / 3, "⅔"),
    (3 / 4, "¾"), (1.0, ""))


def scaled(qty: float, base: int, servings: int) -> float:
    """A quantity written for ``base`` servings, for ``servings`` (3 decimals)."""
    return round(qty * servings / base, 3)


def fmt_number(qty: float, unit: str) -> str:
    """How a quantity reads: whole grams and millilitres ("375"), kitchen measures and pieces
    as a whole number and the nearest common fraction ("1½", "⅔", "2")."""
    if unit in METRIC:
        return str(int(math.floor(qty + 0.5)))
    whole = int(math.floor(qty))
    frac = qty - whole
    value, glyph = min(_FRACTIONS, key=lambda f: abs(f[0] - frac))
    if value == 1.0:
        whole += 1
    if whole == 0 and not glyph:
        glyph = "⅛"  # never show a quantity as nothing
    return f"{whole if whole else ''}{glyph}"


def plural(word: str) -> str:
    if word.endswith(("o", "ch", "sh")):
        return word + "es"
    if word.endswith("f"):
        return word[:-1] + "ves"
    return word + "s"


def fmt_ingredient(qty: float, unit: str, item: str) -> str:
    """"375 g spaghetti", "1½ cups flour", "2 cloves garlic", "3 eggs", "1 onion"."""
    num = fmt_number(qty, unit)
    many = qty > 1 + 1e-9
    if unit == "":
        return f"{num} {plural(item) if many else item}"
    if unit in METRIC:
        return f"{num} {unit} {item}"
    return f"{num} {plural(unit) if many and unit in ('cup', 'clove', 'can') else unit} {item}"


# -- the store -------------------------------------------------------------------------------
def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Seeded ratings, zero to three favourites and, on most seeds, one recipe's ingredients on
    the shopping list (some already ticked off)."""
    st: dict[str, Any] = {"ratings": {}, "favorites": [], "shopping": [], "next_item": 1}
    for r in all_recipes():
        st["ratings"][str(r["id"])] = [round(float(rng.uniform(3.6, 4.9)), 1),
                                       int(rng.integers(40, 2400))]
    n = len(CATALOGUE)
    st["favorites"] = [int(i) + 1 for i in rng.choice(n, size=int(rng.integers(0, 4)),
                                                      replace=False)]
    if rng.random() < 0.75:
        r = recipe(int(rng.integers(n)) + 1)
        add_to_list(st, r, r["servings"])
        for it in st["shopping"]:
            it["checked"] = bool(rng.random() < 0.3)
    return st


def rating(st: dict[str, Any], rid: int) -> tuple[float, int]:
    stars, reviews = st["ratings"][str(rid)]
    return float(stars), int(reviews)


def is_favorite(st: dict[str, Any], rid: int) -> bool:
    return rid in st["favorites"]


def toggle_favorite(st: dict[str, Any], rid: int) -> bool:
    """Add or remove a favourite; True when it is one now."""
    if rid in st["favorites"]:
        st["favorites"].remove(rid)
        return False
    st["favorites"].append(rid)
    return True


def add_to_list(st: dict[str, Any], r: dict[str, Any], servings: int) -> int:
    """Put a recipe's ingredients for ``servings`` on the shopping list. An ingredient of the
    same recipe already there gets the new quantity (and is unticked) instead of a second
    line. Returns how many lines are new."""
    if not MIN_SERVINGS <= servings <= MAX_SERVINGS:
        raise ValueError(f"servings must be {MIN_SERVINGS}..{MAX_SERVINGS}, got {servings!r}")
    new = 0
    for ing in r["ingredients"]:
        qty = scaled(ing["qty"], r["servings"], servings)
        have = next((it for it in st["shopping"] if it["recipe_id"] == r["id"]
                     and it["item"] == ing["item"] and it["unit"] == ing["unit"]), None)
        if have is not None:
            have.update(qty=qty, checked=False)
            continue
        st["shopping"].append({"id": st["next_item"], "item": ing["item"], "qty": qty,
                               "unit": ing["unit"], "recipe_id": r["id"], "checked": False})
        st["next_item"] += 1
        new += 1
    return new


def remove_item(st: dict[str, Any], iid: int) -> None:
    st["shopping"] = [it for it in st["shopping"] if it["id"] != iid]


def clear_checked(st: dict[str, Any]) -> int:
    before = len(st["shopping"])
    st["shopping"] = [it for it in st["shopping"] if not it["checked"]]
    return before - len(st["shopping"])


def matches(r: dict[str, Any], q: str) -> bool:
    """A search matches a recipe's name, cuisine or any ingredient (case-insensitive)."""
    q = q.strip().lower()
    if not q:
        return True
    return (q in r["name"].lower() or q in r["cuisine"].lower()
            or any(q in ing["item"].lower() for ing in r["ingredients"]))


def search(q: str, *, vegetarian: bool = False, quick: bool = False,
           cuisine: str = "") -> list[dict[str, Any]]:
    """The recipes a query and the filters keep, in catalogue order."""
    return [r for r in all_recipes() if matches(r, q)
            and (not vegetarian or r["vegetarian"])
            and (not quick or r["minutes"] < QUICK_MINUTES)
            and (not cuisine or r["cuisine"] == cuisine)]


# -- tables ----------------------------------------------------------------------------------
def recipe_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The static ``recipes/recipes`` table."""
    return [{"_id": r["id"], "name": r["name"], "cuisine": r["cuisine"],
             "minutes": r["minutes"], "servings": r["servings"],
             "vegetarian": int(r["vegetarian"]), "rating": rating(st, r["id"])[0],
             "ingredients": r["ingredients"], "steps": r["steps"]} for r in all_recipes()]


def favorite_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``recipes/favorites``: one row per favourite recipe, ``_id`` its recipe id."""
    return [{"_id": rid, "name": recipe(rid)["name"]} for rid in sorted(st["favorites"])]


def shopping_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``recipes/shopping_list``, by ``_id``."""
    return [{"_id": it["id"], "item": it["item"], "qty": it["qty"], "unit": it["unit"],
             "recipe_id": it["recipe_id"], "recipe": recipe(it["recipe_id"])["name"],
             "checked": int(it["checked"])}
            for it in sorted(st["shopping"], key=lambda it: it["id"])]


# -- fixtures --------------------------------------------------------------------------------
def _recipe_arg(fixture: str, name: Any) -> dict[str, Any]:
    r = by_name(name) if isinstance(name, str) else None
    if r is None:
        raise ValueError(f"{fixture}: recipe must name a recipe of the catalogue, got {name!r}")
    return r


def add_to_list_fixture(st: dict[str, Any], recipe: Any = None,  # noqa: A002
                        servings: Any = None, checked: Any = ()) -> dict[str, Any]:
    """Setup routine: put ``recipe``'s ingredients for ``servings`` (default: the recipe's
    own) on the shopping list, ticking the items named in ``checked``. Returns the recipe's
    ``_id`` and the ``items`` added. A bad argument raises ``ValueError`` naming it and
    changes nothing."""
    r = _recipe_arg("add_to_list", recipe)
    n = r["servings"] if servings is None else servings
    if not isinstance(n, int) or isinstance(n, bool) or not MIN_SERVINGS <= n <= MAX_SERVINGS:
        raise ValueError(f"add_to_list: servings must be an int {MIN_SERVINGS}..{MAX_SERVINGS},"
                         f" got {servings!r}")
    items = {ing["item"] for ing in r["ingredients"]}
    if isinstance(checked, str) or not all(isinstance(c, str) and c in items for c in checked):
        raise ValueError(f"add_to_list: checked must list ingredients of {r['name']} "
                         f"({sorted(items)}), got {checked!r}")
    add_to_list(st, r, n)
    for it in st["shopping"]:
        if it["recipe_id"] == r["id"]:
            it["checked"] = it["item"] in checked
    return {"_id": r["id"], "items": sorted(items)}


def favorite_fixture(st: dict[str, Any], recipe: Any = None) -> dict[str, Any]:  # noqa: A002
    """Setup routine: make ``recipe`` a favourite (idempotent). Returns its ``_id``."""
    r = _recipe_arg("favorite", recipe)
    if r["id"] not in st["favorites"]:
        st["favorites"].append(r["id"])
    return {"_id": r["id"]}
