"""Split: a split-the-bill mini-program inside Chat (an amount split among a chat group's
members, the share posted back into a chat)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.splitbill import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class SplitBillApp(App):
    """Split a bill with a group."""

    name = "splitbill"
    label = "Split"
    package = "com.phoneworld.chat"  # a mini-program has no package of its own
    kind = "mini-app"
    host = "chat"
    icon = "receipt"
    theme = Theme(primary=(63, 81, 181), on_primary=(255, 255, 255),
                  primary_container=(220, 224, 250), on_primary_container=(20, 30, 90),
                  surface=(248, 248, 253), surface_container=(236, 238, 250),
                  surface_high=(226, 229, 246), on_surface=(25, 27, 40),
                  on_surface_variant=(85, 88, 110), outline=(130, 134, 160),
                  outline_variant=(205, 208, 225))
    main_screen = "home"
    screens = {"home": screens.home, "new": screens.new, "result": screens.result}
    #: a split is a title ("Bill" when left empty), a total and a group; the head count
    #: and each share follow from them
    new_rows = {"splitbill/splits": new_row({"title": "Bill", "total": GIVEN, "group": GIVEN},
                                            free="_id people each", text="title")}
    providers = {"splitbill/splits": store.split_rows}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
