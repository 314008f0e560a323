"""Cross-app tasks that carry information between Messages and Calendar.

The agent reads something in one app and uses it in the other: an event's location goes into
a text, a dinner someone texted about becomes an event. Both use only the common ``sms`` and
``calendar`` tables, so they run on a real phone too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import (
    by_id,
    clock,
    create_event,
    day_words,
    epoch_ms,
    open_event,
    open_event_by_day,
    other_event,
    upcoming,
)
from phoneworld_gym.tasks.kit import choice, now_ms, today
from phoneworld_gym.tasks.messages.common import (
    SENT,
    last_received,
    open_thread,
    send_to,
    texters,
    thread_from_contacts,
)
from phoneworld_gym.validators import added, same_phone, same_text, states

RESTAURANTS: tuple[str, ...] = (
    "Blue Door Bistro", "Luigi's Trattoria", "Harbor Grill", "Sakura Sushi Bar",
    "Golden Dragon", "Casa Mariposa", "Olive & Thyme", "The Copper Pot", "Saffron House",
    "Little Lisbon",
)


@register_task
class CrossAppTextEventLocation(Task):
    """Text a contact where an event is: the location lives only in Calendar. Exactly one
    sent message to their number is added, and it contains the event's location."""

    id = "CrossAppTextEventLocation"
    apps = ("calendar", "messages")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write",)
    optimal_steps = 11
    may_change = ("sms",)
    params_schema = {"name": str, "number": str, "title": str, "id": int}
    template = 'Text {name} the location of my "{title}" event.'
    paraphrases = {
        "train": (
            'Send {name} a message with the address of "{title}" from my calendar.',
            'Look up where "{title}" is in my calendar and text it to {name}.',
        ),
        "test": (
            '{name} wants to know where "{title}" takes place. Could you text them the '
            "location from my calendar?",
            'Message {name} the place of the "{title}" event.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        e = choice(rng, upcoming(probe, where="eventLocation"))
        c = choice(rng, texters(probe))
        return {"name": c["display_name"], "number": c["number"], "title": e["title"],
                "id": int(e["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        events = self.before("calendar")
        where = by_id(events)[self.params["id"]]["eventLocation"]
        others = [e["eventLocation"] for e in events
                  if e["eventLocation"] and e["_id"] != self.params["id"]]
        return self.expect(added("sms", {"address": same_phone(self.params["number"]),
                                         "body": states(where, others=others), "type": SENT}))

    def _send(self, device: Device, title: str, by_day: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if by_day else open_event)(device, title)
        where = text_of(device, rid="event_location") or ""
        yield from send_to(device, self.params["name"], where)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._send(device, self.params["title"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._send(device, self.params["title"], by_day=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts the location of the event next to it in time."""
        rows = [r for r in self.before("calendar")
                if r["title"] in {u["title"] for u in upcoming(device.probe)}]
        wrong = other_event(rows, self.params["id"], key="eventLocation")["title"]
        yield from self._send(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppEventFromText(Task):
    """Someone texted a dinner invitation (place, day and time); put it in the calendar.
    Exactly one event is added: the asked title, starting at the time they said, two hours
    long, at the restaurant they named."""

    id = "CrossAppEventFromText"
    apps = ("messages", "calendar")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker")
    optimal_steps = 15
    max_steps = 40
    may_change = ("calendar",)
    params_schema = {"name": str, "number": str, "first": str, "place": str, "date": str,
                     "time": str}
    template = ('Add the dinner {name} texted me about to my calendar as "Dinner with {first}", '
                "two hours long, with the restaurant as the location.")
    paraphrases = {
        "train": (
            '{name} invited me to dinner by text. Create a two-hour event "Dinner with {first}" '
            "at the time and restaurant they mentioned.",
            'Put the dinner from {name}\'s text in my calendar: title it "Dinner with {first}", '
            "make it last 2 hours and set the restaurant as its location.",
        ),
        "test": (
            'Check what {name} texted about dinner and save it in my calendar ("Dinner with '
            '{first}", 2 hours, location = the restaurant).',
            'I\'m going to the dinner {name} messaged me about. Block two hours for it in my '
            'calendar, called "Dinner with {first}", at that restaurant.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe))
        d = today(probe) + dt.timedelta(days=int(rng.integers(2, 30)))
        t = dt.time(int(rng.integers(18, 21)), int(rng.choice([0, 30])))
        return {"name": c["display_name"], "number": c["number"],
                "first": c["display_name"].split()[0],
                "place": RESTAURANTS[int(rng.integers(len(RESTAURANTS)))],
                "date": d.isoformat(), "time": clock(t)}

    def setup(self, device: Device) -> None:
        p = self.params
        d = dt.date.fromisoformat(p["date"])
        device.insert("sms", {
            "address": p["number"],
            "body": f"Dinner at {p['place']} on {day_words(d)} at {p['time']}? My treat!",
            "date": now_ms(device.probe, minutes_ago=5), "type": 1, "read": 1})

    def _start(self) -> dt.datetime:
        return dt.datetime.combine(dt.date.fromisoformat(self.params["date"]),
                                   dt.datetime.strptime(self.params["time"], "%I:%M %p").time())

    def evaluate(self, device: Device, report: AgentReport) -> float:
        s = self._start()
        return self.expect(added("calendar", {
            "title": same_text(f"Dinner with {self.params['first']}"),
            "dtstart": epoch_ms(s), "dtend": epoch_ms(s + dt.timedelta(hours=2)),
            "eventLocation": self.params["place"]}))

    def _add(self, device: Device, late: bool, alt: bool = False) -> Iterator[Action]:
        p = self.params
        yield from (thread_from_contacts if alt else open_thread)(device, p["name"])
        if p["place"] not in last_received(device):
            raise RuntimeError("the invitation is not the newest message")
        s = self._start() + dt.timedelta(hours=1 if late else 0)
        yield from create_event(device, f"Dinner with {p['first']}", s.date(), s.time(),
                                (s + dt.timedelta(hours=2)).time(), location=p["place"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, False)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Read the invitation in the conversation reached from their Text button in Contacts."""
        yield from self._add(device, False, alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right dinner an hour late."""
        yield from self._add(device, True)
        yield Action("status", goal_status="complete")
