"""Cross-app tasks that carry information out of Phone and Notes: text the person whose call
was just missed (Phone -> Messages, only common tables, so it runs on a real phone), save a
stranger's number from the call log in a note (Phone -> Notes), send a note to a contact
through the share sheet (Notes -> Messages), and write tomorrow's events into a note
(Calendar -> Notes)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import random_phone
from phoneworld_gym.matchers import normalize
from phoneworld_gym.oracle import OracleError, elements, find, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.contacts.common import other_person
from phoneworld_gym.tasks.kit import choice, now_ms, today
from phoneworld_gym.tasks.messages.common import SENT, texters
from phoneworld_gym.tasks.notes.common import open_note, titled
from phoneworld_gym.tasks.notes.common import to_main as notes_main
from phoneworld_gym.tasks.phone.common import MISSED, key
from phoneworld_gym.tasks.phone.common import to_main as phone_main
from phoneworld_gym.validators import added, same_phone, same_text, states

#: replies a task asks to text someone whose call was missed
REPLIES: tuple[str, ...] = (
    "Sorry I missed your call, I'll ring you back soon", "Can't talk right now, text me?",
    "In a meeting, call you at lunch", "Missed you! What's up?",
    "Driving, will call back in 20 minutes", "Sorry, my phone was on silent",
    "Just saw your call, is everything okay?", "Can I call you tonight instead?",
    "At the gym, back in an hour", "Busy until 5, talk then?",
    "Was in the shower, calling you in 10", "Sorry! Call you after dinner",
    "On a train with bad signal, text me", "Saw the missed call, free after 3",
    "In a lecture, will call at the break", "Putting the kids to bed, ring you later",
    "Missed your call, what time works tomorrow?", "Sorry, phone was in my bag",
    "Cooking right now, call you in half an hour", "At the doctor's, will call after",
    "Just got your call, give me 5 minutes", "Can we talk tomorrow morning?",
)
#: titles of the note a stranger's number goes into
NUMBER_TITLES: tuple[str, ...] = ("Missed call", "Unknown caller", "Call back",
                                  "Number to check", "Who called?", "Ring back later")


def missed_call(device: Device, number: str, name: str, minutes_ago: int) -> None:
    """Log a missed call from ``number`` a few minutes before the clock, after every seeded
    call (a common verb: ``content insert --uri content://call_log/calls`` on a phone)."""
    device.insert("call_log", {"number": number, "name": name, "type": MISSED, "new": 1,
                               "duration": 0, "date": now_ms(device.probe, minutes_ago)})


def newest_call_number(device: Device) -> Iterator[Action]:
    """Open Phone and the newest call's details (the number is then on screen)."""
    yield from phone_main(device)
    i = find(device, rid="call_log_row")
    if i is None:
        raise OracleError("no call in Recents")
    yield Action("click", index=i)


def number_on_screen(device: Device) -> str:
    """The number a call's details show (a stranger's number is its title)."""
    for rid in ("phone_number", "contact_name"):
        text = text_of(device, rid=rid) or ""
        m = re.search(r"\+?[\d][\d\s().-]{6,}\d", text)
        if m:
            return m.group()
    raise OracleError("no number on the call details")


@register_task
class CrossAppTextMissedCaller(Task):
    """Text whoever's call was just missed (the newest call in the log, from a contact):
    one sent message to their number with the text is added; the call log is untouched.
    The name is not in the goal: it has to be read off the call log."""

    id = "CrossAppTextMissedCaller"
    apps = ("phone", "messages")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "intent")
    optimal_steps = 6
    may_change = ("sms",)
    params_schema = {"name": str, "number": str, "body": str}
    template = 'I just missed a call. Text whoever it was: "{body}".'
    paraphrases = {
        "train": ('Reply by text to the call I missed a moment ago: "{body}".',
                  'Someone just called and I didn\'t pick up. Send them a text saying '
                  '"{body}".'),
        "test": ('Check who tried to phone me last and message them "{body}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe))
        return {"name": c["display_name"], "number": c["number"],
                "body": REPLIES[int(rng.integers(len(REPLIES)))]}

    def setup(self, device: Device) -> None:
        missed_call(device, self.params["number"], self.params["name"], 2)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("sms", {"address": same_phone(p["number"]),
                                         "body": same_text(p["body"]), "type": SENT}))

    def _text(self, device: Device, nth: int) -> Iterator[Action]:
        """The ``nth`` newest call's details, Message (an sms: intent), type, send."""
        yield from phone_main(device)
        i = find(device, rid="call_log_row", nth=nth)
        if i is None:
            raise OracleError(f"no call {nth} in Recents")
        yield Action("click", index=i)
        yield tap(device, rid="message_action")
        yield type_into(device, self.params["body"], rid="compose_message_text")
        yield tap(device, desc="Send SMS")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._text(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts the caller of an older call instead (the next one down the list that is
        someone else)."""
        yield from phone_main(device)
        rows = [e.content_description or "" for e in elements(device)
                if (e.resource_id or "").endswith("/call_log_row")]
        nth = next(k for k, d in enumerate(rows) if self.params["name"] not in d)
        yield from self._text(device, nth)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppNoteMissedNumber(Task):
    """Save a stranger's number, from the call just missed, in a new note: one text note
    with that title whose text holds the number's digits is added.

    Fewer goals: the goal names only the note's title (six of them); the number varies with
    the seed and must be read off the call log."""

    id = "CrossAppNoteMissedNumber"
    apps = ("phone", "notes")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write",)
    optimal_steps = 7
    may_change = ("notes/notes",)
    params_schema = {"number": str, "title": str}
    template = 'I just missed a call from a number I don\'t know. Save that number in a new ' \
               'note titled "{title}".'
    paraphrases = {
        "train": ('Write the number of the call I just missed into a note called "{title}".',
                  'Make a note "{title}" with the phone number that just called me.'),
        "test": ('Some unknown number rang a minute ago. Keep it in my notes under '
                 '"{title}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {key(c["number"]) for c in probe.contacts()} | \
            {key(r["number"]) for r in probe.query("call_log")}
        while True:
            number = random_phone(rng)
            if key(number) not in taken:
                break
        titles = {r["title"].lower() for r in probe.query("notes/notes")}
        free = [t for t in NUMBER_TITLES if t.lower() not in titles]
        return {"number": number, "title": free[int(rng.integers(len(free)))]}

    def setup(self, device: Device) -> None:
        missed_call(device, self.params["number"], "", 3)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("notes/notes", {
            "title": same_text(self.params["title"]),
            "body": states(self.params["number"], kind="phone"), "checklist": 0, "pinned": 0}))

    def _save(self, device: Device, number: str) -> Iterator[Action]:
        yield from notes_main(device)
        yield tap(device, desc="New note")
        yield type_into(device, self.params["title"], rid="editable_title")
        yield type_into(device, number, rid="edit_note_text")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from newest_call_number(device)
        yield from self._save(device, number_on_screen(device))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Copies the number with its last two digits swapped."""
        yield from newest_call_number(device)
        n = number_on_screen(device)
        wrong = n[:-2] + n[-1] + n[-2] if n[-1] != n[-2] else n[:-1] + \
            ("0" if n[-1] != "0" else "1")
        yield from self._save(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppShareNoteByText(Task):
    """Send a text note to a contact through the share sheet: one sent message to their
    number whose text is the note's is added; the note is unchanged."""

    id = "CrossAppShareNoteByText"
    apps = ("notes", "messages")
    category = "cross-app"
    difficulty = "hard"
    tags = ("share-sheet",)
    optimal_steps = 10
    split = "test"
    may_change = ("sms",)
    params_schema = {"title": str, "body": str, "name": str, "number": str}
    template = 'Text my "{title}" note to {name}.'
    paraphrases = {
        "test": ('Share the note "{title}" with {name} as a text message.',
                 '{name} should get what my "{title}" note says; send it to them by SMS.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        notes = [r for r in titled(probe) if not r["checklist"] and r["body"].strip()]
        n = notes[int(rng.integers(len(notes)))]
        c = choice(rng, texters(probe))
        return {"title": n["title"], "body": n["body"], "name": c["display_name"],
                "number": c["number"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("sms", {"address": same_phone(p["number"]),
                                         "body": same_text(p["body"]), "type": SENT}))

    def _share(self, device: Device, name: str) -> Iterator[Action]:
        yield from open_note(device, self.params["title"])
        yield tap(device, desc="Send")
        yield tap(device, text="Messages", rid="sharesheet_target")
        yield type_into(device, name, rid="recipient_text_view")
        yield tap(device, text=name, rid="contact_title")
        yield tap(device, desc="Send SMS")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._share(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends it to someone else (the same first name when there is one)."""
        wrong = other_person(texters(device.probe), self.params["name"])["display_name"]
        yield from self._share(device, wrong)
        yield Action("status", goal_status="complete")


#: titles of the note tomorrow's plan goes into (``{weekday}``: tomorrow's, "Sunday" when
#: the phone's day is a Saturday)
PLAN_TITLES: tuple[str, ...] = ("Tomorrow", "Plans for tomorrow", "{weekday}",
                                "{weekday} plans", "Day plan")
#: events setup adds to tomorrow (none is seeded), and where they are
PLAN_EVENTS: tuple[str, ...] = ("Brunch with friends", "Dentist", "Farmers market",
                                "Piano lesson", "Bike repair", "Yoga class", "Car wash",
                                "Pottery class", "Tennis", "Swimming lesson")


def _day_ms(day: dt.date, hour: int) -> int:
    return int(dt.datetime(day.year, day.month, day.day, hour,
                           tzinfo=dt.timezone.utc).timestamp() * 1000)


@register_task
class CrossAppNoteTomorrowEvents(Task):
    """Write tomorrow's events into a new note: one text note with that title whose text
    names every event of tomorrow and none of another day is added. Setup adds two events to
    tomorrow through the ``calendar`` provider; the day may hold seeded ones too.

    Fewer goals: the goal names only the note's title (five of them); the events vary with
    the seed and must be read off the calendar."""

    id = "CrossAppNoteTomorrowEvents"
    apps = ("calendar", "notes")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write",)
    optimal_steps = 7
    may_change = ("notes/notes",)
    params_schema = {"title": str, "first": str, "second": str, "hour": int}
    template = 'Make a note titled "{title}" listing all my events tomorrow, separated by ' \
               'commas.'
    constraints = ("comma",)
    paraphrases = {
        "train": ('Write the names of tomorrow\'s calendar events into a new note "{title}", '
                  'comma separated.',
                  'Check my calendar for tomorrow and put every event in a note called '
                  '"{title}" (commas between them).'),
        "test": ('I want tomorrow\'s schedule in my notes: a note "{title}" with each '
                 'event\'s name, separated by commas.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {r["title"].lower() for r in probe.query("calendar")}
        free = [t for t in PLAN_EVENTS if t.lower() not in taken]
        first, second = (free[int(i)] for i in rng.choice(len(free), size=2, replace=False))
        notes = {r["title"].lower() for r in probe.query("notes/notes")}
        weekday = (today(probe) + dt.timedelta(days=1)).strftime("%A")
        titles = [t for t in (t.format(weekday=weekday) for t in PLAN_TITLES)
                  if t.lower() not in notes]
        return {"title": titles[int(rng.integers(len(titles)))], "first": first,
                "second": second, "hour": int(rng.integers(8, 12))}

    def setup(self, device: Device) -> None:
        p = self.params
        tomorrow = today(device.probe) + dt.timedelta(days=1)
        for title, hour in ((p["first"], p["hour"]), (p["second"], p["hour"] + 5)):
            device.insert("calendar", {"title": title, "dtstart": _day_ms(tomorrow, hour),
                                       "dtend": _day_ms(tomorrow, hour + 1),
                                       "eventLocation": "", "description": ""})

    def _titles(self) -> tuple[list[str], list[str]]:
        """(tomorrow's event titles, the other days' titles) at the start."""
        rows = self.before("calendar")
        tomorrow = self.start_day() + dt.timedelta(days=1)
        start, end = _day_ms(tomorrow, 0), _day_ms(tomorrow + dt.timedelta(days=1), 0)
        mine = [r["title"] for r in rows if start <= int(r["dtstart"]) < end]
        others = [r["title"] for r in rows if not start <= int(r["dtstart"]) < end]
        return mine, others

    def evaluate(self, device: Device, report: AgentReport) -> float:
        mine, others = self._titles()
        want = [normalize(t) for t in mine]
        bad = [normalize(t) for t in others
               if not any(normalize(t) in m for m in want)]

        def lists_them(v: Any) -> bool:
            parts = [normalize(x) for x in str(v).split(",") if x.strip()]
            return sorted(parts) == sorted(want) and not any(b in parts for b in bad)

        return self.expect(added("notes/notes", {"title": same_text(self.params["title"]),
                                                 "body": lists_them, "checklist": 0,
                                                 "pinned": 0}))

    def _write(self, device: Device, events: list[str]) -> Iterator[Action]:
        yield from notes_main(device)
        yield tap(device, desc="New note")
        yield type_into(device, self.params["title"], rid="editable_title")
        yield type_into(device, ", ".join(events), rid="edit_note_text")

    def _read(self, device: Device) -> Iterator[Action]:
        yield Action("open_app", app_name="Calendar")
        tomorrow = self.start_day() + dt.timedelta(days=1)
        yield tap(device, desc=f"{tomorrow.strftime('%A')}, {tomorrow.strftime('%B')} "
                               f"{tomorrow.day}, {tomorrow.year}", rid="day_cell",
                  contains=True)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)
        events = [e.text or "" for e in elements(device)
                  if (e.resource_id or "").endswith("/event_title")]
        yield from self._write(device, events)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Lists every event of tomorrow but the last one."""
        yield from self._read(device)
        events = [e.text or "" for e in elements(device)
                  if (e.resource_id or "").endswith("/event_title")]
        yield from self._write(device, events[:-1])
        yield Action("status", goal_status="complete")
