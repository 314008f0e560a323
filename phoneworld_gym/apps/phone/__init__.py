"""Phone: the dialer. Serves Android's ``call_log`` provider (so tasks insert and read calls
the way they would on a real phone), opens ``tel:`` links on its keypad, and keeps the
blocked numbers in its own table ``phone/blocked``."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.phone import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


def _block_fixture(st: dict[str, Any], number: Any = None) -> str:
    """Block ``number`` (a setup routine for tasks): returns it; ``ValueError`` when it is
    not a phone number or is blocked already."""
    if not isinstance(number, str) or sum(ch.isdigit() for ch in number) < 3:
        raise ValueError(f"block: number must be a phone number string, got {number!r}")
    if not store.block(st, number):
        raise ValueError(f"block: {number!r} is blocked already")
    return number


@register_app
class PhoneApp(App):
    name = "phone"
    label = "Phone"
    package = "com.phoneworld.dialer"
    icon = "phone"
    aliases = ("dialer", "calls", "call log")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249), surface_high=(233, 238, 246))
    main_screen = "main"
    shows_seconds = True  # the in-call timer counts seconds
    screens = {"main": screens.main, "dial": screens.dial, "call": screens.call,
               "details": screens.details, "blocked": screens.blocked}
    new_rows = {"phone/blocked": new_row({"number": GIVEN})}
    providers = {"call_log": store.provider_rows, "phone/blocked": store.blocked_rows}
    writers = {"call_log": store.WRITER}
    fixtures = {"block": _block_fixture}
    intent_filters = {"tel": "dial"}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
