"""Messages: SMS conversations, served as Android's ``sms`` provider (so tasks insert and read
messages the way they would on a real phone)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.messages import screens, store
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class MessagesApp(App):
    name = "messages"
    label = "Messages"
    package = "com.phoneworld.messaging"
    icon = "message"
    aliases = ("sms", "texts", "text messages")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249), surface_high=(233, 238, 246))
    main_screen = "main"
    screens = {"main": screens.main, "thread": screens.thread, "compose": screens.compose}
    providers = {"sms": store.provider_rows}
    writers = {"sms": store.WRITER}
    intent_filters = {"sms": "thread", "smsto": "thread"}
    share_targets = {"text/*": "compose"}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
