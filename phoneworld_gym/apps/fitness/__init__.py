"""Fitness: a Google Fit-like activity tracker (today's steps and the week's active minutes
against goals, a journal of walks, runs, rides and swims by week or month with totals and a
type filter, activity pages with share and delete, manual logging with date and time
pickers, goals edited with a stepper or slider, personal records, and no watch to pair).
Its tables ``fitness/activities``, ``fitness/goals`` and the static ``fitness/steps`` are
PhoneWorld-only: a real phone's fitness app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.fitness import editors, screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class FitnessApp(App):
    name = "fitness"
    label = "Fitness"
    package = "com.phoneworld.fitness"
    icon = "heart_pulse"
    aliases = ("fit", "google fit", "activity tracker", "workouts")
    theme = Theme(primary=(26, 115, 232), on_primary=(255, 255, 255),
                  primary_container=(210, 227, 252), on_primary_container=(4, 30, 73),
                  surface=(255, 255, 255), surface_container=(241, 244, 249),
                  surface_high=(232, 237, 245), outline_variant=(200, 203, 208))
    main_screen = "main"
    screens = {"main": screens.main, "journal": screens.journal, "activity": screens.activity,
               "records": screens.records, "profile": screens.profile,
               "devices": screens.devices, "log": editors.log, "goal": editors.goal}
    #: an activity logged by hand (calories are worked out from it)
    new_rows = {"fitness/activities": new_row({"type": GIVEN, "start": GIVEN,
                                               "duration_min": GIVEN, "distance_km": GIVEN,
                                               "route": "", "source": "Manual"},
                                              free="_id calories", text="route")}
    providers = {"fitness/activities": store.activity_rows, "fitness/goals": store.goal_rows,
                 "fitness/steps": store.step_rows}
    static_tables = frozenset({"fitness/steps"})
    fixtures = {"add_activity": store.add_activity_fixture, "set_goal": store.set_goal_fixture}
    network_screens = ("records", "devices")
    promos = ({"title": "Try Fitness Premium free",
               "text": "Guided workouts, training plans and deeper insights. Free for one "
                       "month, then $4.99/month."},
              {"title": "Join this month's Step Challenge",
               "text": "Walk 250,000 steps this month and earn the Stride badge."})

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
