"""What is special about the Recipes app: the servings stepper rescales every ingredient (with
sensible fractions and plurals) and the shopping list gets the scaled quantities; adding a
recipe again updates its lines instead of doubling them; search matches names, ingredients
and cuisines and the filters keep only what they say; ticking, swiping and "Clear ticked"
change exactly the rows they should; a recipe shared into Notes carries the scaled list; bad
fixture input is refused without losing anything."""

from __future__ import annotations

import copy

import pytest

from phoneworld_gym.apps.recipes import store as rs
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice


def _open(apps: tuple[str, ...] = ("recipes",), seed: int = 1) -> PhoneWorldDevice:
    d = PhoneWorldDevice(list(apps))
    d.reset(seed=seed)
    assert d.execute(Action("open_app", app_name="Recipes")) == ""
    return d


def _do(d: PhoneWorldDevice, a: Action) -> None:
    assert d.execute(a) == "", a


def _texts(d: PhoneWorldDevice, rid: str) -> list[str]:
    return [e.text or "" for e in elements(d) if (e.resource_id or "").endswith("/" + rid)]


def _open_recipe(d: PhoneWorldDevice, name: str) -> None:
    _do(d, type_into(d, name, rid="search_src_text"))
    _do(d, tap(d, desc=name, rid="recipe_row"))


# -- quantities --------------------------------------------------------------------------------
@pytest.mark.parametrize(("qty", "unit", "shown"), [
    (0.5, "cup", "½"), (1.25, "cup", "1¼"), (1 / 3, "tsp", "⅓"), (2 / 3, "tbsp", "⅔"),
    (2.0, "", "2"), (0.97, "cup", "1"), (0.04, "tsp", "⅛"), (1.5, "", "1½"),
    (112.5, "g", "113"), (333.333, "ml", "333"), (1000, "ml", "1000"),
])
def test_quantities_read_as_kitchen_fractions_or_whole_metric(qty: float, unit: str,
                                                              shown: str) -> None:
    assert rs.fmt_number(qty, unit) == shown


@pytest.mark.parametrize(("qty", "unit", "item", "line"), [
    (1, "cup", "flour", "1 cup flour"), (1.5, "cup", "flour", "1½ cups flour"),
    (2, "clove", "garlic", "2 cloves garlic"), (1, "", "onion", "1 onion"),
    (3, "", "egg", "3 eggs"), (8, "", "basil leaf", "8 basil leaves"),
    (2, "", "tomato", "2 tomatoes"), (0.75, "tsp", "black pepper", "¾ tsp black pepper"),
    (375, "g", "spaghetti", "375 g spaghetti"),
])
def test_ingredient_lines_have_units_and_plurals(qty: float, unit: str, item: str,
                                                 line: str) -> None:
    assert rs.fmt_ingredient(qty, unit, item) == line


# -- the stepper -------------------------------------------------------------------------------
def test_stepper_rescales_every_ingredient_and_the_list_gets_those_quantities() -> None:
    d = _open()
    _open_recipe(d, "Spaghetti Carbonara")  # written for 4
    assert text_of(d, rid="servings_count") == "4"
    assert _texts(d, "ingredient") == ["400 g spaghetti", "150 g pancetta", "4 eggs",
                                       "80 g pecorino", "1 tsp black pepper"]
    _do(d, tap(d, desc="Decrease servings"))
    assert _texts(d, "ingredient") == ["300 g spaghetti", "113 g pancetta", "3 eggs",
                                       "60 g pecorino", "¾ tsp black pepper"]
    for _ in range(3):
        _do(d, tap(d, desc="Increase servings"))
    assert text_of(d, rid="servings_count") == "6"
    assert _texts(d, "ingredient") == ["600 g spaghetti", "225 g pancetta", "6 eggs",
                                       "120 g pecorino", "1½ tsp black pepper"]
    before = d.probe.query("recipes/shopping_list")
    for a in scroll_to(d, rid="add_to_list"):
        _do(d, a)
    _do(d, tap(d, rid="add_to_list"))
    new = [r for r in d.probe.query("recipes/shopping_list") if r not in before]
    assert {(r["item"], r["qty"], r["unit"]) for r in new} == {
        ("spaghetti", 600.0, "g"), ("pancetta", 225.0, "g"), ("egg", 6.0, ""),
        ("pecorino", 120.0, "g"), ("black pepper", 1.5, "tsp")}
    assert all(r["recipe"] == "Spaghetti Carbonara" and r["checked"] == 0 for r in new)


def test_stepper_stops_at_one_and_twelve_servings() -> None:
    d = _open()
    _open_recipe(d, "Greek Salad")  # written for 2
    _do(d, tap(d, desc="Decrease servings"))
    assert text_of(d, rid="servings_count") == "1"
    i = find(d, desc="Decrease servings")
    assert i is not None and not elements(d)[i].is_clickable
    for _ in range(11):
        _do(d, tap(d, desc="Increase servings"))
    assert text_of(d, rid="servings_count") == "12"
    i = find(d, desc="Increase servings")
    assert i is not None and not elements(d)[i].is_clickable
    assert _texts(d, "ingredient")[0] == "12 tomatoes"


def test_adding_a_recipe_again_updates_its_lines_instead_of_doubling_them() -> None:
    d = _open(seed=3)
    _open_recipe(d, "Pad Thai")
    _do(d, tap(d, rid="add_to_list"))
    first = [r for r in d.probe.query("recipes/shopping_list") if r["recipe"] == "Pad Thai"]
    assert len(first) == 6
    _do(d, tap(d, desc="Increase servings"))
    _do(d, tap(d, desc="Increase servings"))  # 4 servings: twice the recipe
    _do(d, tap(d, rid="add_to_list"))
    again = [r for r in d.probe.query("recipes/shopping_list") if r["recipe"] == "Pad Thai"]
    assert [r["_id"] for r in again] == [r["_id"] for r in first]
    assert [r["qty"] for r in again] == [2 * r["qty"] for r in first]


# -- search and filters ------------------------------------------------------------------------
def test_search_matches_ingredients_and_cuisines_and_filters_keep_what_they_say() -> None:
    d = _open()
    _do(d, type_into(d, "chickpeas", rid="search_src_text"))
    assert _texts(d, "recipe_name") == ["Chana Masala"]
    _do(d, type_into(d, "thai", rid="search_src_text"))
    assert _texts(d, "recipe_name") == ["Pad Thai", "Green Curry with Tofu"]
    _do(d, type_into(d, "", rid="search_src_text"))
    _do(d, tap(d, rid="filter_vegetarian"))
    _do(d, tap(d, rid="filter_quick"))
    shown = set(_texts(d, "recipe_name"))
    _do(d, Action("scroll", direction="down"))  # the last rows may sit under the keyboard
    shown |= set(_texts(d, "recipe_name"))
    want = [r["name"] for r in rs.all_recipes() if r["vegetarian"] and r["minutes"] < 30]
    assert want and sorted(shown) == sorted(want)
    assert text_of(d, rid="results_count") == f"{len(want)} recipes"
    _do(d, type_into(d, "beef", rid="search_src_text"))
    assert text_of(d, rid="empty_title") == "No recipes found"


# -- favourites and the shopping list ----------------------------------------------------------
def test_heart_saves_and_unsaves_and_the_saved_tab_lists_it() -> None:
    d = _open(seed=0)
    before = d.probe.query("recipes/favorites")
    name = next(r["name"] for r in rs.all_recipes()
                if r["id"] not in {f["_id"] for f in before})
    _open_recipe(d, name)
    _do(d, tap(d, desc="Save to favourites"))
    rid = rs.by_name(name)["id"]  # type: ignore[index]
    assert [r for r in d.probe.query("recipes/favorites") if r not in before] == \
        [{"_id": rid, "name": name}]
    _do(d, tap(d, desc="Remove from favourites"))
    assert d.probe.query("recipes/favorites") == before
    _do(d, tap(d, desc="Save to favourites"))
    _do(d, Action("navigate_back"))
    _do(d, tap(d, desc="Saved", rid="nav_saved"))
    assert _texts(d, "recipe_name")[0] == name  # most recently saved first


def test_tick_swipe_and_clear_ticked_change_exactly_their_rows() -> None:
    d = _open(seed=2)
    d.fixture("recipes", "add_to_list", recipe="Chicken Tacos", servings=4)
    _do(d, tap(d, desc="Shopping list", rid="nav_shopping_list"))
    rows = [r for r in d.probe.query("recipes/shopping_list") if r["recipe"] == "Chicken Tacos"]
    for a in scroll_to(d, text="1 avocado", rid="shopping_item"):
        _do(d, a)
    _do(d, tap(d, text="1 avocado", rid="shopping_item"))
    after = {r["_id"]: r for r in d.probe.query("recipes/shopping_list")}
    avocado = next(r for r in rows if r["item"] == "avocado")
    assert after[avocado["_id"]]["checked"] == 1
    assert sum(1 for r in after.values() if r["checked"]) == \
        1 + sum(1 for r in d.probe.query("recipes/shopping_list")
                if r["checked"] and r["recipe"] != "Chicken Tacos")
    i = find(d, text="1 lime", rid="shopping_item")
    assert i is not None
    _do(d, Action("swipe", index=i, direction="right"))
    lime = next(r for r in rows if r["item"] == "lime")
    assert lime["_id"] not in {r["_id"] for r in d.probe.query("recipes/shopping_list")}
    ticked = {r["_id"] for r in d.probe.query("recipes/shopping_list") if r["checked"]}
    left = {r["_id"] for r in d.probe.query("recipes/shopping_list") if not r["checked"]}
    _do(d, tap(d, text="Clear ticked", rid="clear_checked"))
    assert {r["_id"] for r in d.probe.query("recipes/shopping_list")} == left
    assert ticked and not (ticked & left)


def test_cook_mode_steps_through_and_done_returns() -> None:
    d = _open()
    _open_recipe(d, "Greek Salad")
    for a in scroll_to(d, rid="start_cooking"):
        _do(d, a)
    _do(d, tap(d, rid="start_cooking"))
    assert text_of(d, rid="step_counter") == "Step 1 of 3"
    _do(d, tap(d, rid="next"))
    _do(d, tap(d, rid="next"))
    assert text_of(d, rid="step_counter") == "Step 3 of 3"
    assert text_of(d, rid="step_body") == "Dress with the oil and oregano."
    _do(d, tap(d, rid="previous"))
    assert text_of(d, rid="step_counter") == "Step 2 of 3"
    _do(d, tap(d, rid="next"))
    _do(d, tap(d, rid="done"))
    assert text_of(d, rid="recipe_name") == "Greek Salad"


def test_share_sends_the_scaled_list_into_a_new_note() -> None:
    d = _open(("recipes", "notes"))
    _open_recipe(d, "Chana Masala")
    _do(d, tap(d, desc="Increase servings"))
    _do(d, tap(d, desc="Increase servings"))  # 6 servings
    before = d.probe.query("notes/notes")
    _do(d, tap(d, desc="Share ingredients"))
    _do(d, tap(d, text="Notes", rid="sharesheet_target"))
    _do(d, Action("navigate_back"))
    new = [r for r in d.probe.query("notes/notes") if r not in before]
    assert len(new) == 1 and new[0]["title"] == "Chana Masala"
    assert new[0]["body"].splitlines() == [
        "Chana Masala (6 servings)", "- 3 cans chickpeas", "- 1½ onions", "- 4½ cloves garlic",
        "- 600 ml chopped tomatoes", "- 3 tsp garam masala", "- 1½ tbsp vegetable oil"]


# -- data and fixtures ----------------------------------------------------------------------------
def test_generated_data_varies_with_the_seed() -> None:
    d = PhoneWorldDevice(["recipes"])
    seen = set()
    for seed in range(6):
        d.reset(seed=seed)
        rows = d.probe.query("recipes/recipes")
        assert [r["name"] for r in rows] == [r["name"] for r in rs.all_recipes()]
        seen.add((tuple(r["rating"] for r in rows),
                  tuple(r["_id"] for r in d.probe.query("recipes/favorites"))))
    assert len(seen) == 6


@pytest.mark.parametrize(("args", "bad"), [
    ({"recipe": "Beef Wellington"}, "recipe"),
    ({"recipe": "Pad Thai", "servings": 0}, "servings"),
    ({"recipe": "Pad Thai", "servings": "4"}, "servings"),
    ({"recipe": "Pad Thai", "checked": ["avocado"]}, "checked"),
    ({"recipe": "Pad Thai", "checked": "egg"}, "checked"),
])
def test_bad_fixture_input_is_refused_and_changes_nothing(args: dict, bad: str) -> None:
    d = PhoneWorldDevice(["recipes"])
    d.reset(seed=4)
    before = copy.deepcopy(d.probe.snapshot())
    with pytest.raises(ValueError, match=bad):
        d.fixture("recipes", "add_to_list", **args)
    with pytest.raises(ValueError, match="recipe"):
        d.fixture("recipes", "favorite", recipe=42)
    assert d.probe.snapshot() == before
