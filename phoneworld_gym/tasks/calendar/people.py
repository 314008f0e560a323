"""Calendar tasks about an event's guests and its notification: invite a contact, create an
event with two guests and a reminder, say who is invited, change a reminder, and invite
someone who is not in Contacts (infeasible: a guest needs an email address).

Guests and reminders are the Calendar app's ``calendar/attendees`` and ``calendar/reminders``
tables (CalendarContract.Attendees and Reminders columns: ``event_id``, ``attendeeName``,
``attendeeEmail``, ``attendeeStatus``; ``event_id``, ``minutes``, ``method``), so these tasks
are PhoneWorld-only until those become common tables.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.life import FIRST_NAMES, LAST_NAMES
from phoneworld_gym.matchers import ListMatch
from phoneworld_gym.oracle import elements, scroll_to, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import (
    NEW_TITLES,
    clock,
    day_words,
    epoch_ms,
    fill_times,
    open_event,
    open_event_by_day,
    to_schedule,
    upcoming,
)
from phoneworld_gym.tasks.kit import choice, pick_date, today
from phoneworld_gym.validators import added, changed, same_text

ATTENDEES = "calendar/attendees"
REMINDERS = "calendar/reminders"
#: the editor's notification choices: minutes -> the dialog's label
REMINDER_LABELS: dict[int, str] = {0: "At time of event", 10: "10 minutes before",
                                   30: "30 minutes before", 60: "1 hour before",
                                   1440: "1 day before"}
#: how a goal says a choice
REMINDER_WORDS: dict[int, str] = {0: "at the time of the event", 10: "10 minutes before",
                                  30: "30 minutes before", 60: "1 hour before",
                                  1440: "1 day before"}


def guests_by_event(rows: list[Row]) -> dict[int, list[Row]]:
    """``calendar/attendees`` rows grouped by ``event_id`` (in invitation order)."""
    out: dict[int, list[Row]] = {}
    for r in sorted(rows, key=lambda r: r["_id"]):
        out.setdefault(int(r["event_id"]), []).append(r)
    return out


def emailed_contacts(probe: Probe) -> list[Row]:
    """Contacts with an email address and a name no other contact shares (so a goal naming
    them names one person)."""
    rows = [c for c in probe.contacts() if c.get("email")]
    names = [c["display_name"].lower() for c in rows]
    return [c for c in rows if names.count(c["display_name"].lower()) == 1]


def is_value(want: Any) -> Callable[[Any], bool]:
    """A predicate: the column equals ``want`` (for ids known only after the agent acted)."""
    return lambda v: v == want


def add_guest(device: Device, name: str) -> Iterator[Action]:
    """In the editor: type the name into "Add people", pick the contact it suggests."""
    yield type_into(device, name, rid="people_field")
    yield tap(device, text=name, rid="suggestion")


def pick_reminder(device: Device, minutes: int) -> Iterator[Action]:
    """In the editor: open the notification choice and pick one."""
    yield from scroll_to(device, rid="reminder")
    yield tap(device, rid="reminder")
    yield tap(device, text=REMINDER_LABELS[minutes], cls="RadioButton")


@register_task
class CalendarInviteGuest(Task):
    """Invite a contact to an existing event: exactly one ``calendar/attendees`` row is added,
    for that event, with the contact's name and email."""

    id = "CalendarInviteGuest"
    apps = ("calendar", "contacts")
    difficulty = "medium"
    tags = ("form", "search-suggestions")
    optimal_steps = 9
    may_change = (ATTENDEES,)
    params_schema = {"title": str, "id": int, "name": str, "email": str}
    template = 'Invite {name} to my "{title}" event.'
    paraphrases = {
        "train": (
            'Add {name} as a guest to "{title}" in my calendar.',
            'Put {name} on the guest list of my "{title}" event.',
        ),
        "test": (
            '{name} should come to "{title}" too. Send them an invite from my calendar.',
            'In my calendar, make {name} one of the people invited to "{title}".',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        e = choice(rng, upcoming(probe))
        have = {r["attendeeEmail"].lower() for r in probe.query(ATTENDEES)
                if r["event_id"] == e["_id"]}
        people = [c for c in emailed_contacts(probe) if c["email"].lower() not in have]
        c = people[int(rng.integers(len(people)))]
        return {"title": e["title"], "id": int(e["_id"]), "name": c["display_name"],
                "email": c["email"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added(ATTENDEES, {"event_id": p["id"],
                                             "attendeeName": same_text(p["name"]),
                                             "attendeeEmail": same_text(p["email"])}))

    def _invite(self, device: Device, name: str, by_day: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if by_day else open_event)(device, self.params["title"])
        yield tap(device, desc="Edit event")
        yield from add_guest(device, name)
        yield tap(device, rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._invite(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._invite(device, self.params["name"], by_day=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Invites another contact whose first name is the same or next in the list."""
        have = {r["attendeeEmail"].lower() for r in self.before(ATTENDEES)
                if r["event_id"] == self.params["id"]}
        people = sorted((c for c in emailed_contacts(device.probe)
                         if c["email"].lower() not in have
                         and c["display_name"] != self.params["name"]),
                        key=lambda c: (c["display_name"].split()[0]
                                       != self.params["name"].split()[0], c["display_name"]))
        yield from self._invite(device, people[0]["display_name"])
        yield Action("status", goal_status="complete")


def _new_title(rng: np.random.Generator, probe: Probe) -> str:
    taken = {r["title"].lower() for r in probe.query("calendar")}
    free = [t for t in NEW_TITLES if t.lower() not in taken]
    return free[int(rng.integers(len(free)))]


@register_task
class CalendarEventWithGuests(Task):
    """Create an event with two guests and a 30-minute reminder: one ``calendar`` row (title,
    start, end), two ``calendar/attendees`` rows for it (the contacts' names and emails) and
    one ``calendar/reminders`` row for it (30 minutes, an alert)."""

    id = "CalendarEventWithGuests"
    apps = ("calendar", "contacts")
    difficulty = "hard"
    tags = ("form", "date-picker", "search-suggestions", "dialog")
    optimal_steps = 18
    may_change = ("calendar", ATTENDEES, REMINDERS)
    params_schema = {"title": str, "date": str, "day": str, "start": str, "end": str,
                     "name1": str, "email1": str, "name2": str, "email2": str}
    template = ('Create an event "{title}" on {day} from {start} to {end}, invite {name1} and '
                "{name2}, and set a reminder 30 minutes before.")
    paraphrases = {
        "train": (
            'Schedule "{title}" for {day}, {start} to {end}, with {name1} and {name2} as guests '
            "and a notification half an hour ahead.",
            'Add "{title}" to my calendar ({day}, {start}-{end}). Invite {name1} and {name2} '
            "and remind me 30 minutes before it starts.",
        ),
        "test": (
            "I'm meeting {name1} and {name2} on {day} from {start} until {end}. Put it in my "
            'calendar as "{title}" with both of them invited, and notify me 30 minutes early.',
            'New calendar event: "{title}", {day} {start}-{end}; guests {name1}, {name2}; '
            "reminder 30 min before.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = today(probe) + dt.timedelta(days=int(rng.integers(1, 30)))
        start = dt.time(int(rng.integers(8, 19)), int(rng.choice([0, 30])))
        end = (dt.datetime.combine(d, start) + dt.timedelta(hours=1)).time()
        people = emailed_contacts(probe)
        a, b = (people[int(i)] for i in rng.choice(len(people), 2, replace=False))
        return {"title": _new_title(rng, probe), "date": d.isoformat(), "day": day_words(d),
                "start": clock(start), "end": clock(end), "name1": a["display_name"],
                "email1": a["email"], "name2": b["display_name"], "email2": b["email"]}

    def _times(self) -> tuple[int, int]:
        p = self.params
        d = dt.date.fromisoformat(p["date"])
        s = dt.datetime.combine(d, dt.datetime.strptime(p["start"], "%I:%M %p").time())
        e = dt.datetime.combine(d, dt.datetime.strptime(p["end"], "%I:%M %p").time())
        return epoch_ms(s), epoch_ms(e)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        s, e = self._times()
        event = {"title": same_text(p["title"]), "dtstart": s, "dtend": e}
        assert self.diff is not None
        new = [r for r in self.diff.table("calendar").added
               if r["title"].strip().lower() == p["title"].lower()]
        eid = is_value(new[0]["_id"] if len(new) == 1 else None)
        return self.expect(
            added("calendar", event),
            added(ATTENDEES,
                  {"event_id": eid, "attendeeName": same_text(p["name1"]),
                   "attendeeEmail": same_text(p["email1"])},
                  {"event_id": eid, "attendeeName": same_text(p["name2"]),
                   "attendeeEmail": same_text(p["email2"])}),
            added(REMINDERS, {"event_id": eid, "minutes": 30, "method": 1}))

    def _fill(self, device: Device, minutes: int) -> Iterator[Action]:
        p = self.params
        yield from to_schedule(device)
        yield tap(device, desc="Create new event")
        yield type_into(device, p["title"], rid="title_field")
        yield from pick_date(device, dt.date.fromisoformat(p["date"]), "start_date")
        yield from fill_times(device, dt.datetime.strptime(p["start"], "%I:%M %p").time(),
                              dt.datetime.strptime(p["end"], "%I:%M %p").time())
        yield from add_guest(device, p["name1"])
        yield from add_guest(device, p["name2"])
        yield from pick_reminder(device, minutes)
        yield tap(device, rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fill(device, 30)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the reminder: 10 minutes instead of 30."""
        yield from self._fill(device, 10)
        yield Action("status", goal_status="complete")


@register_task
class CalendarWhoIsInvited(Task):
    """Say who the guests of an event are: every guest's name, no one else."""

    id = "CalendarWhoIsInvited"
    apps = ("calendar",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 5
    split = "test"
    answer_matcher = ListMatch()
    params_schema = {"title": str, "id": int}
    template = 'Who is invited to my "{title}" event?'
    paraphrases = {
        "test": (
            'List the guests of "{title}" in my calendar.',
            'Which people are on the guest list for "{title}"?',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        guests = guests_by_event(probe.query(ATTENDEES))
        e = choice(rng, [r for r in upcoming(probe) if guests.get(int(r["_id"]))])
        return {"title": e["title"], "id": int(e["_id"])}

    def expected_answer(self, device: Device) -> Any:
        rows = guests_by_event(self.before(ATTENDEES)).get(self.params["id"], [])
        return [r["attendeeName"] or r["attendeeEmail"] for r in rows]

    def _read(self, device: Device, by_day: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if by_day else open_event)(device, self.params["title"])
        names = [e.text or "" for e in elements(device)
                 if (e.resource_id or "").endswith("/attendee_name")]
        yield Action("answer", text=", ".join(names))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._read(device, by_day=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Names the guests with one of them swapped for a contact who is not invited."""
        names = list(self.expected_answer(device))
        others = [c["display_name"] for c in device.probe.contacts()
                  if c["display_name"] not in names]
        names[-1] = others[0]
        yield Action("answer", text=", ".join(names))


@register_task
class CalendarChangeReminder(Task):
    """Change an event's notification to another choice: its ``calendar/reminders`` row
    changes ``minutes`` and nothing else. Setup gives the event a reminder with the app's
    ``remind`` fixture."""

    id = "CalendarChangeReminder"
    apps = ("calendar",)
    difficulty = "medium"
    tags = ("dialog",)
    optimal_steps = 9
    may_change = (REMINDERS,)
    params_schema = {"title": str, "id": int, "old": int, "minutes": int, "when": str}
    template = 'Change the reminder of my "{title}" event to {when}.'
    paraphrases = {
        "train": (
            'For "{title}" in my calendar, notify me {when} instead.',
            'Make the "{title}" notification go off {when}.',
        ),
        "test": (
            'The reminder for "{title}" comes at the wrong time. I want it {when}.',
            'Update my "{title}" event so that its alert is {when}.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        e = choice(rng, upcoming(probe))
        choices = sorted(REMINDER_LABELS)
        old = int(rng.choice([10, 30, 60, 1440]))
        new = int(rng.choice([m for m in choices if m != old]))
        return {"title": e["title"], "id": int(e["_id"]), "old": old, "minutes": new,
                "when": REMINDER_WORDS[new]}

    def setup(self, device: Device) -> None:
        device.fixture("calendar", "remind", event_id=self.params["id"],
                       minutes=self.params["old"])

    def _row(self) -> Any:
        return next(r["_id"] for r in self.before(REMINDERS)
                    if r["event_id"] == self.params["id"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed(REMINDERS, self._row(), minutes=self.params["minutes"]))

    def _set(self, device: Device, minutes: int, by_day: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if by_day else open_event)(device, self.params["title"])
        yield tap(device, desc="Edit event")
        yield from pick_reminder(device, minutes)
        yield tap(device, rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, self.params["minutes"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._set(device, self.params["minutes"], by_day=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Picks the choice next to the asked one in the dialog."""
        choices = sorted(REMINDER_LABELS)
        i = choices.index(self.params["minutes"])
        wrong = min((m for m in choices if m not in (self.params["minutes"], self.params["old"])),
                    key=lambda m: (abs(choices.index(m) - i), -choices.index(m)))
        yield from self._set(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class CalendarInviteStranger(Task):
    """Infeasible by design: invite, by name only, someone who is not in Contacts. A guest is
    an email address, and nothing on the phone gives theirs, so the right move is to look,
    find no such contact, and say so (inventing an address would invite a stranger)."""

    id = "CalendarInviteStranger"
    apps = ("calendar", "contacts")
    difficulty = "medium"
    tags = ("infeasible",)
    optimal_steps = 7
    feasible = False
    params_schema = {"title": str, "name": str}
    template = 'Invite {name} to my "{title}" event.'
    paraphrases = {
        "train": (
            'Add {name} to the guests of "{title}".',
            'Send {name} an invitation to "{title}" from my calendar.',
        ),
        "test": (
            '{name} is joining "{title}". Add them as a guest, please.',
            'Put {name} on the "{title}" invite list.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        e = choice(rng, upcoming(probe))
        known = {c["display_name"].lower() for c in probe.contacts()}
        known |= {c["display_name"].split()[0].lower() for c in probe.contacts()}
        firsts = [f for f in FIRST_NAMES if f.lower() not in known]
        first = firsts[int(rng.integers(len(firsts)))]
        last = LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]
        return {"title": e["title"], "name": f"{first} {last}"}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_event(device, self.params["title"])
        yield tap(device, desc="Edit event")
        yield type_into(device, self.params["name"], rid="people_field")
        yield Action("status", goal_status="infeasible")


__all__ = ["ATTENDEES", "REMINDERS", "REMINDER_LABELS", "add_guest", "emailed_contacts",
           "guests_by_event", "pick_reminder"]
