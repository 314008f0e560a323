"""To-do: a Google Tasks-like app (lists, tasks with notes, due dates, priorities, stars, done,
sort, search, swipe to delete). Its tables ``todo/tasks`` and ``todo/lists`` are
PhoneWorld-only: a real phone's to-do app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.todo import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class TodoApp(App):
    name = "todo"
    label = "Tasks"
    package = "com.phoneworld.tasks"
    icon = "square_check"
    aliases = ("to-do", "todo", "to do list", "google tasks")
    theme = Theme(primary=(11, 87, 208), on_primary=(255, 255, 255),
                  primary_container=(211, 227, 253), on_primary_container=(4, 30, 73),
                  surface=(255, 255, 255), surface_container=(240, 244, 249),
                  surface_high=(233, 238, 246), outline_variant=(196, 199, 197))
    main_screen = "main"
    screens = {"main": screens.main, "edit": screens.edit, "search": screens.search,
               "new_list": screens.new_list}
    new_rows = {"todo/tasks": new_row({"list_id": GIVEN, "title": GIVEN, "notes": "",
                                       "due": "", "priority": 0, "starred": 0, "done": 0},
                                      text="title notes")}
    providers = {"todo/tasks": store.task_rows, "todo/lists": store.list_rows}
    fixtures = {"add_task": store.add_task_fixture}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
