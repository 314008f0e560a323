"""Notes: a Keep-like notes app (text notes and checklists, pin, search, share). Its tables
``notes/notes`` and ``notes/items`` are PhoneWorld-only: a real phone's notes app keeps its
data private. Text shared from another app becomes a new note."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.notes import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class NotesApp(App):
    name = "notes"
    label = "Notes"
    package = "com.phoneworld.notes"
    icon = "note_sticky"
    aliases = ("keep", "notepad", "my notes")
    theme = Theme(primary=(115, 92, 0), on_primary=(255, 255, 255),
                  primary_container=(255, 224, 130), on_primary_container=(38, 26, 0),
                  surface=(255, 255, 255), surface_container=(241, 243, 244),
                  surface_high=(232, 234, 237), outline_variant=(218, 220, 224))
    main_screen = "main"
    screens = {"main": screens.main, "search": screens.search, "edit": screens.edit}
    new_rows = {"notes/notes": new_row({"title": "", "body": "", "checklist": 0, "pinned": 0},
                                       text="title body"),
                "notes/items": new_row({"note_id": GIVEN, "text": GIVEN, "checked": 0},
                                       text="text")}
    providers = {"notes/notes": store.note_rows, "notes/items": store.item_rows}
    fixtures = {"add_note": store.add_note_fixture}
    share_targets = {"text/*": "edit"}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
