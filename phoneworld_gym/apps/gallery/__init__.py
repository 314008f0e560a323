"""Gallery: a Google Photos-like app over the pictures in shared storage (``/sdcard/DCIM``,
``/sdcard/Pictures``, ``/sdcard/Download``). Deleting a photo deletes its file, so the common
``files`` table (which a real phone serves over adb too) shows it; favourites, albums and the
trash are the app's own tables. Its editor applies one of the filters this phone's Gallery
offers (four, drawn per seed) and saves the photo over its file."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.gallery import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class GalleryApp(App):
    name = "gallery"
    label = "Gallery"
    package = "com.phoneworld.gallery"
    icon = "images"
    aliases = ("photos", "google photos", "pictures")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249), surface_high=(233, 238, 246))
    main_screen = "main"
    screens = {"main": screens.main, "search": screens.search, "results": screens.results,
               "albums": screens.albums, "album": screens.album, "trash": screens.trash,
               "viewer": screens.viewer, "edit": screens.edit}
    #: a favourite or a trashed photo is its path (when and where it was taken are the photo's)
    new_rows = {"gallery/favorites": new_row({"_id": GIVEN}, free=""),
                "gallery/trash": new_row({"_id": GIVEN}, free="deleted taken place"),
                #: a photo saved with a filter: the photo and the filter are the user's
                "gallery/edits": new_row({"_id": GIVEN, "filter": GIVEN}, free="")}
    providers = {"gallery/favorites": store.favorite_rows, "gallery/albums": store.album_rows,
                 "gallery/trash": store.trash_rows, "gallery/media": store.media_rows,
                 "gallery/edits": store.edit_rows, "gallery/filters": store.filter_rows}
    static_tables = frozenset({"gallery/media", "gallery/filters"})
    fixtures = {"favorite": store.fixture_favorite}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)

    def files(self, rng: np.random.Generator, life: Life) -> dict[str, bytes]:
        return store.files(life)
