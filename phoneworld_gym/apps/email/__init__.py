"""Email: a Gmail-like mail app whose mailbox comes from the episode's life.

Its mail is served as the app's own ``email/messages`` table (Gmail keeps its store private on
a real phone, so tasks over it are PhoneWorld-only). It receives ``mailto:`` intents (Contacts'
Email button) and shares of any type (a file shared from Files or Gallery becomes an
attachment, shared text the body), and attaches files from shared storage.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.email import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class EmailApp(App):
    name = "email"
    label = "Email"
    package = "com.phoneworld.email"
    icon = "mail"
    aliases = ("gmail", "mail", "e-mail")
    theme = Theme(primary=(11, 87, 208), primary_container=(194, 231, 255),
                  on_primary_container=(0, 29, 53), surface=(255, 255, 255),
                  surface_container=(246, 248, 252), surface_high=(234, 241, 251))
    main_screen = "main"
    screens = {"main": screens.main, "search": screens.search, "message": screens.message,
               "compose": screens.compose, "pick_file": screens.pick_file}
    #: a message the user sends: to, cc, attachments and the star are set; the subject and
    #: body start quoted or filled in when replying, forwarding or sharing, so they are
    #: compared only when a check names them; sender, time and read mark are the app's
    new_rows = {"email/messages": new_row({"folder": "sent", "to": GIVEN, "cc": "",
                                           "attachments": [], "starred": 0},
                                          free="_id from subject body date read",
                                          text="subject body")}
    providers = {"email/messages": store.provider_rows}
    #: opening a message marks it read
    view_state = {"email/messages": ("read",)}
    fixtures = {"receive": store.fixture_receive}
    intent_filters = {"mailto": "compose"}
    share_targets = {"*/*": "compose"}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)

    def notifications(self, store_: dict[str, Any]) -> list[dict[str, Any]]:
        """The newest unread inbox message, as Gmail posts it."""
        unread = [m for m in store.in_folder(store_, store.INBOX) if not m["read"]]
        if not unread:
            return []
        m = unread[0]
        return [{"title": m["from_name"] or m["from"], "text": m["subject"],
                 "screen": "message", "args": {"id": m["id"]}}]
