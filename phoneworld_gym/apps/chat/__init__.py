"""Chat: a WeChat/LINE-like super-app: chats and groups with the people of the life, text,
photos and locations, and a Discover tab that opens mini-programs inside it (see
:mod:`phoneworld_gym.app`, mini-apps)."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.chat import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class ChatApp(App):
    name = "chat"
    label = "Chat"
    package = "com.phoneworld.chat"
    icon = "message"
    aliases = ("wechat", "chat app")
    theme = Theme(primary=(7, 193, 96), on_primary=(255, 255, 255),
                  primary_container=(209, 242, 222), on_primary_container=(0, 82, 40),
                  surface=(247, 247, 247), surface_container=(237, 237, 237),
                  surface_high=(230, 230, 230), on_surface=(25, 25, 25),
                  on_surface_variant=(110, 110, 110), outline=(150, 150, 150),
                  outline_variant=(220, 220, 220))
    main_screen = "main"
    screens = {"main": screens.main, "chat": screens.chat, "photos": screens.photos,
               "location": screens.location, "share": screens.share}
    #: a message the user sends: text unless it is a card, photo or location; a card's
    #: address is the mini-app that made it, its chat title and time are the app's
    new_rows = {"chat/messages": new_row({"chat_id": GIVEN, "sender": "me", "type": "text",
                                          "body": GIVEN, "read": 1},
                                         free="_id chat address date")}
    providers = {"chat/chats": store.chat_rows, "chat/messages": store.message_rows}
    #: opening a chat marks its messages read, and its unread count (derived) drops to 0
    view_state = {"chat/messages": ("read",), "chat/chats": ("unread",)}
    share_targets = {"text/*": "share", "image/*": "share"}
    fixtures = {"receive": store.receive}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
