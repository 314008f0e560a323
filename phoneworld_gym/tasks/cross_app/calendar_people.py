"""Cross-app tasks between an event's guests (Calendar) and Messages: the agent reads who is
invited and where the event is in Calendar, then texts each guest the place.

The guests are the Calendar app's ``calendar/attendees`` table (PhoneWorld-only); the texts
are the common ``sms`` table.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import elements, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import by_id, open_event, open_event_by_day, upcoming
from phoneworld_gym.tasks.calendar.people import ATTENDEES, emailed_contacts, guests_by_event
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.messages.common import SENT, send_to
from phoneworld_gym.validators import added, same_phone, states


@register_task
class CrossAppTextGuestsLocation(Task):
    """Text every guest of an event where it takes place: exactly one sent message to each
    guest's number (found in Contacts by their email), each containing the event's location.
    The event has two guests; when it has one, setup invites a second contact with the
    Calendar app's ``invite`` fixture."""

    id = "CrossAppTextGuestsLocation"
    apps = ("calendar", "contacts", "messages")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write",)
    optimal_steps = 18
    may_change = ("sms",)
    params_schema = {"title": str, "id": int, "name1": str, "number1": str, "name2": str,
                     "number2": str, "invite_email": str}
    template = 'Text each guest of my "{title}" event where it takes place.'
    paraphrases = {
        "train": (
            'Send everyone invited to "{title}" a message with its location.',
            'Look up who is coming to "{title}" in my calendar and text each of them the '
            "place.",
        ),
        "test": (
            'The guests of "{title}" don\'t know where to go. Message every one of them the '
            "location from my calendar.",
            'Everyone on the "{title}" guest list should get a text saying where it is.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        guests = guests_by_event(probe.query(ATTENDEES))
        book = {c["email"].lower(): c for c in emailed_contacts(probe) if c.get("number")}

        def known(eid: int) -> bool:
            return all(g["attendeeEmail"].lower() in book for g in guests.get(eid, []))

        pool = [r for r in upcoming(probe, where="eventLocation")
                if len(guests.get(int(r["_id"]), [])) in (1, 2) and known(int(r["_id"]))]
        e = choice(rng, pool)
        people = [book[g["attendeeEmail"].lower()] for g in guests[int(e["_id"])]]
        invite = ""
        if len(people) == 1:
            have = {people[0]["email"].lower()}
            others = sorted((c for k, c in book.items() if k not in have),
                            key=lambda c: c["display_name"])
            extra = others[int(rng.integers(len(others)))]
            people.append(extra)
            invite = extra["email"]
        a, b = people
        return {"title": e["title"], "id": int(e["_id"]), "name1": a["display_name"],
                "number1": a["number"], "name2": b["display_name"], "number2": b["number"],
                "invite_email": invite}

    def setup(self, device: Device) -> None:
        p = self.params
        if p["invite_email"]:
            device.fixture("calendar", "invite", event_id=p["id"], name=p["name2"],
                           email=p["invite_email"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        events = self.before("calendar")
        here = by_id(events)[p["id"]]["eventLocation"]
        where = states(here, others=[e["eventLocation"] for e in events
                                     if e["eventLocation"] and e["_id"] != p["id"]])
        return self.expect(added("sms",
                                 {"address": same_phone(p["number1"]), "body": where,
                                  "type": SENT},
                                 {"address": same_phone(p["number2"]), "body": where,
                                  "type": SENT}))

    def _text(self, device: Device, everyone: bool, by_day: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if by_day else open_event)(device, self.params["title"])
        where = text_of(device, rid="event_location") or ""
        names = [e.text or "" for e in elements(device)
                 if (e.resource_id or "").endswith("/attendee_name")]
        for name in names if everyone else names[:1]:
            yield from send_to(device, name, where)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._text(device, everyone=True)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._text(device, everyone=True, by_day=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts the first guest only."""
        yield from self._text(device, everyone=False)
        yield Action("status", goal_status="complete")
