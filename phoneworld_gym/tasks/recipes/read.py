"""Recipes information-retrieval tasks: how much of an ingredient a recipe needs for a
number of servings (read off the rescaled ingredient list), and which recipe of a cuisine is
the quickest (the cuisine filter). Answers come from the static ``recipes/recipes`` rows;
reading changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.recipes.common import (
    browse_to_recipe,
    by_id,
    open_recipe,
    other_servings,
    recipes,
    scaled,
    set_servings,
    to_tab,
)

UNIT_WORDS = {"g": "grams", "ml": "millilitres"}


@register_task
class RecipesAmountFor(Task):
    """How many grams (or millilitres) of an ingredient a recipe needs for a number of
    servings other than its own: the answer is the scaled quantity (within half a unit, as
    the app rounds to whole grams)."""

    id = "RecipesAmountFor"
    apps = ("recipes",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("search", "stepper")
    optimal_steps = 7
    answer_matcher = NumberMatch(tol=0.51)
    params_schema = {"recipe": str, "id": int, "item": str, "unit": str, "servings": int}
    template = "How many {unit} of {item} do I need to make {recipe} for {servings} people?"
    paraphrases = {
        "train": ("Check Recipes: {recipe} for {servings} servings takes how many {unit} of "
                  "{item}?",),
        "test": ("I'm scaling {recipe} to {servings} portions. Tell me the amount of {item} "
                 "in {unit}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        pairs = [(r, i) for r in recipes(probe) for i in r["ingredients"]
                 if i["unit"] in UNIT_WORDS]
        r, i = choice(rng, pairs)
        return {"recipe": r["name"], "id": int(r["_id"]), "item": i["item"],
                "unit": UNIT_WORDS[i["unit"]], "servings": other_servings(rng, int(r["servings"]))}

    def expected_answer(self, device: Device) -> Any:
        r = by_id(self.before("recipes/recipes"))[self.params["id"]]
        i = next(i for i in r["ingredients"] if i["item"] == self.params["item"])
        return scaled(float(i["qty"]), int(r["servings"]), self.params["servings"])

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_recipe,
              ) -> Iterator[Action]:
        yield from via(device, self.params["recipe"])
        yield from set_servings(device, self.params["servings"])
        for e in elements(device):
            words = (e.text or "").split(" ")
            if (e.resource_id or "").endswith("/ingredient") and \
                    " ".join(words[2:]) == self.params["item"]:
                yield Action("answer", text=f"{words[0]} {self.params['unit']}")
                return
        raise OracleError(f"{self.params['item']} is not in the ingredients on screen")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the recipe through its cuisine chip on Discover instead of searching."""
        yield from self._play(device, browse_to_recipe)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The amount for the recipe's own servings (not scaled)."""
        r = by_id(recipes(device.probe))[self.params["id"]]
        i = next(i for i in r["ingredients"] if i["item"] == self.params["item"])
        yield Action("answer", text=f"{round(float(i['qty']))} {self.params['unit']}")


@register_task
class RecipesQuickestOfCuisine(Task):
    """Which recipe of a cuisine takes the fewest minutes (the cuisine filter lists them with
    their times). Fewer goals: one per cuisine whose quickest recipe is unique (the catalogue
    has eight cuisines)."""

    id = "RecipesQuickestOfCuisine"
    apps = ("recipes",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("filter",)
    optimal_steps = 3
    params_schema = {"cuisine": str}
    template = "Which {cuisine} recipe in my Recipes app is the quickest to make?"
    paraphrases = {
        "train": ("Name the {cuisine} recipe that takes the least time.",),
        "test": ("I'm in a hurry and fancy {cuisine} food. Which recipe from the app is "
                 "fastest?",),
    }
    answer_matcher = StringMatch()

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = recipes(probe)
        ok = []
        for c in sorted({r["cuisine"] for r in rows}):
            times = sorted(int(r["minutes"]) for r in rows if r["cuisine"] == c)
            if len(times) >= 2 and times[0] < times[1]:
                ok.append(c)
        return {"cuisine": choice(rng, ok)}

    def expected_answer(self, device: Device) -> Any:
        every = self.before("recipes/recipes")
        rows = [r for r in every if r["cuisine"] == self.params["cuisine"]]
        best = min(rows, key=lambda r: int(r["minutes"]))
        return Expected(best["name"], candidates=[r["name"] for r in every])

    def _times(self, device: Device) -> list[tuple[int, str]]:
        out = []
        names = [e.text for e in elements(device)
                 if (e.resource_id or "").endswith("/recipe_name")]
        metas = [e.text or "" for e in elements(device)
                 if (e.resource_id or "").endswith("/recipe_meta")]
        for name, meta in zip(names, metas, strict=True):
            minutes = int(meta.split(" · ")[1].split(" ")[0])
            out.append((minutes, str(name)))
        return out

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_tab(device, "Discover")
        yield from scroll_to(device, text=self.params["cuisine"], rid="filter_cuisine")
        yield tap(device, text=self.params["cuisine"], rid="filter_cuisine")
        if text_of(device, rid="results_count") is None:
            raise OracleError("no results")
        yield Action("answer", text=min(self._times(device))[1])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The slowest one instead."""
        rows = [r for r in recipes(device.probe) if r["cuisine"] == self.params["cuisine"]]
        yield Action("answer", text=max(rows, key=lambda r: int(r["minutes"]))["name"])
