"""Expenses: an expense tracker (entries with amount, category, note and date; a monthly
summary by category drawn as bars; a budget per month with a warning when it is exceeded).
Its tables ``expenses/entries`` and ``expenses/budgets`` are PhoneWorld-only: a real phone's
money app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.expenses import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class ExpensesApp(App):
    name = "expenses"
    label = "Expenses"
    package = "com.phoneworld.expenses"
    icon = "chart_pie"
    aliases = ("expense tracker", "budget app", "spending")
    theme = Theme(primary=(0, 105, 92), on_primary=(255, 255, 255),
                  primary_container=(178, 223, 219), on_primary_container=(0, 55, 48),
                  surface=(250, 253, 252), surface_container=(236, 244, 242),
                  surface_high=(226, 238, 235), outline_variant=(190, 201, 198))
    main_screen = "main"
    screens = {"main": screens.main, "edit": screens.edit, "summary": screens.summary,
               "category": screens.category, "budgets": screens.budgets}
    new_rows = {"expenses/entries": new_row({"amount": GIVEN, "category": GIVEN, "note": "",
                                             "date": GIVEN}, text="note"),
                "expenses/budgets": new_row({"month": GIVEN, "amount": GIVEN})}
    providers = {"expenses/entries": store.entry_rows, "expenses/budgets": store.budget_rows}
    fixtures = {"add_entry": store.add_entry_fixture, "set_budget": store.set_budget_fixture}
    network_screens = ("summary",)
    promos = ({"title": "Go Pro",
               "text": "Sync across devices and export to spreadsheets. 7 days free."},)

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
