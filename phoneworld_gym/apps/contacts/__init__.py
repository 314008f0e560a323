"""Contacts: an address book whose data the probe serves with Android's provider columns."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.contacts import screens, store
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class ContactsApp(App):
    name = "contacts"
    label = "Contacts"
    package = "com.phoneworld.contacts"
    icon = "contacts"
    aliases = ("phonebook", "address book")
    theme = Theme(primary=(26, 115, 232), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249))
    main_screen = "main"
    screens = {"main": screens.main, "detail": screens.detail, "edit": screens.edit}
    providers = {"contacts": store.provider_rows}
    writers = {"contacts": store.WRITER}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
