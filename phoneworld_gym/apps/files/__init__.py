"""Files: a Files by Google-like browser of shared storage (``/sdcard``).

It reads and changes the phone's common ``files`` table (``Ctx.files/read_file/write_file/
move_file/delete_file``), so tasks over its files verify on a real phone too. Its own state is
the empty folders made with "New folder" (``files/folders``) and whether an SD card is in
(``files/volumes``; see :mod:`.store`). A file is
shared with the system share sheet; the starting documents come from :meth:`FilesApp.files`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.files import screens, store
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class FilesApp(App):
    name = "files"
    label = "Files"
    package = "com.phoneworld.files"
    icon = "folder"
    aliases = ("file manager", "my files", "documents")
    theme = Theme(primary=(26, 115, 232), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249), surface_high=(233, 238, 246))
    main_screen = "main"
    screens = {"main": screens.main, "folder": screens.folder, "category": screens.category,
               "preview": screens.preview, "pick_folder": screens.pick_folder,
               "search": screens.search}
    providers = {"files/folders": store.provider_rows, "files/volumes": store.volume_rows}
    static_tables = frozenset({"files/volumes"})
    fixtures = {"sd_card": store.fixture_sd_card}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)

    def files(self, rng: np.random.Generator, life: Life) -> dict[str, bytes]:
        return store.starting_files(rng, life)
