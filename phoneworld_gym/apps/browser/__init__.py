"""Browser (Chrome-like): tabs with back history, an address bar that takes URLs or search
words with suggestions from history and bookmarks, a handful of mock sites drawn as native
views (a search engine, a newspaper, recipes, a restaurant and a bookshop with hours, phone and
address, a newsletter and a contact form), bookmarks and history. Opens ``http:``/``https:``
links from other apps in a Custom Tab."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.browser import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class BrowserApp(App):
    name = "browser"
    label = "Chrome"
    package = "com.phoneworld.browser"
    icon = "globe"
    aliases = ("browser", "web browser", "internet")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(237, 242, 250), surface_high=(233, 238, 246))
    main_screen = "main"
    screens = {"main": screens.main, "tabs": screens.tabs, "bookmarks": screens.bookmarks,
               "history": screens.history, "link": screens.link}
    #: ``browser/pages`` is the sites' content (never changes). ``browser/history`` and
    #: ``browser/tabs`` are by-products of browsing, which no phone's provider exposes either:
    #: readable, but left out of the damage check so that reading a page is not a change.
    #: Bookmarks and submitted forms are the user's data and are compared.
    #: a bookmark is its page (the title is the page's); a form is what was typed into it
    new_rows = {"browser/bookmarks": new_row({"url": GIVEN}, free="_id title"),
                "browser/forms": new_row({"form": GIVEN, "site": GIVEN, "name": "", "email": "",
                                          "message": "", "frequency": ""},
                                         text="name email message")}
    providers = {"browser/bookmarks": store.bookmark_rows, "browser/forms": store.form_rows,
                 "browser/history": store.history_rows, "browser/tabs": store.tab_rows,
                 "browser/pages": store.page_rows}
    static_tables = frozenset({"browser/pages"})
    byproduct_tables = frozenset({"browser/history", "browser/tabs"})
    fixtures = {"bookmark": store.fixture_bookmark}
    intent_filters = {"http": "link", "https": "link"}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
