"""Calendar: a month grid, a week of hours, the schedule, days and events, served as
Android's ``calendar`` provider (CalendarContract.Events columns); each event's guests and
notification as the app's ``calendar/attendees`` and ``calendar/reminders`` tables
(CalendarContract.Attendees and Reminders columns)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.calendar import screens, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class CalendarApp(App):
    name = "calendar"
    label = "Calendar"
    package = "com.phoneworld.calendar"
    icon = "calendar"
    aliases = ("agenda", "schedule")
    theme = Theme(primary=(11, 87, 208), primary_container=(211, 227, 253),
                  on_primary_container=(4, 30, 73), surface=(255, 255, 255),
                  surface_container=(240, 244, 249), surface_high=(236, 240, 247))
    main_screen = "main"
    screens = {"main": screens.main, "week": screens.week, "schedule": screens.schedule,
               "day": screens.day, "detail": screens.detail, "edit": screens.edit}
    #: a guest the user adds is invited (3: no answer yet); a reminder is a notification (1)
    new_rows = {"calendar/attendees": new_row({"event_id": GIVEN, "attendeeName": GIVEN,
                                               "attendeeEmail": "", "attendeeStatus": 3},
                                              text="attendeeName attendeeEmail"),
                "calendar/reminders": new_row({"event_id": GIVEN, "minutes": GIVEN, "method": 1})}
    providers = {"calendar": store.provider_rows, "calendar/attendees": store.attendee_rows,
                 "calendar/reminders": store.reminder_rows}
    writers = {"calendar": store.WRITER}
    fixtures = store.FIXTURES
    #: the start clock of the store generated last (the phone posts the start notifications
    #: of a world right after generating its stores: :meth:`notifications` reads it)
    _start: dt.datetime | None = None

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        self._start = life.now
        return store.generate(rng, life)

    def notifications(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """The reminder of the start day's next event that has one, as Google Calendar
        posts it (title, time span, place); a tap opens the event. The start is the clock
        the store was generated at."""
        if self._start is None:
            return []
        now = store.epoch_ms(self._start)
        for e in store.on_day(s, self._start.date()):
            if e["dtstart"] >= now and store.reminder_of(s, e["id"]) is not None:
                text = screens.span(e) + (f" at {e['location']}" if e["location"] else "")
                return [{"title": e["title"], "text": text, "screen": "detail",
                         "args": {"id": e["id"]}}]
        return []
