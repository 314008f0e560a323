"""Pay Bills: a bill-payment mini-program inside Chat (utility bills due and paid, pay in
full with a confirmation, the receipt shared to a chat)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.bills import screens, store
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class BillsApp(App):
    """Pay the household's bills."""

    name = "bills"
    label = "Pay Bills"
    package = "com.phoneworld.chat"  # a mini-program has no package of its own
    kind = "mini-app"
    host = "chat"
    icon = "wallet"
    theme = Theme(primary=(21, 101, 192), on_primary=(255, 255, 255),
                  primary_container=(214, 228, 250), on_primary_container=(8, 45, 100),
                  surface=(248, 250, 253), surface_container=(235, 240, 248),
                  surface_high=(225, 232, 244), on_surface=(25, 28, 35),
                  on_surface_variant=(80, 88, 104), outline=(140, 148, 164),
                  outline_variant=(205, 212, 226))
    main_screen = "bills"
    screens = {"bills": screens.bills, "bill": screens.bill, "receipt": screens.receipt}
    providers = {"bills/bills": store.bill_rows}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
