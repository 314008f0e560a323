"""Cross-app tasks that carry information into and out of Fitness.

- Calendar -> Fitness: a run planned in Calendar this morning (its time, length and the
  distance in its description) is logged in Fitness.
- Fitness -> Messages: this week's total distance, shared from the journal's summary through
  the share sheet, is texted to a contact; checked on the common ``sms`` table.
- Fitness -> Chat: a personal record, shared from its activity page into a friend's chat.

All read Fitness's own tables, so they run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.calendar.common import epoch_ms, open_event
from phoneworld_gym.tasks.chat.common import chats
from phoneworld_gym.tasks.fitness.common import (
    in_days,
    log_activity,
    to_journal,
    to_main,
    week_start,
)
from phoneworld_gym.tasks.kit import choice, now
from phoneworld_gym.tasks.messages.common import SENT, texters
from phoneworld_gym.validators import added, same_phone, states

#: planned runs setup puts in Calendar (none is seeded)
PLANNED_RUNS: tuple[str, ...] = ("Tempo run", "Easy run", "Interval session", "Long run",
                                 "Recovery run", "Hill repeats run")


def read_event(device: Device, title: str) -> Iterator[Action]:
    """Open the event titled ``title`` in Calendar (its start, end and notes are then on
    screen: see :func:`event_on_screen`)."""
    yield from open_event(device, title)


def event_on_screen(device: Device) -> tuple[dt.datetime, dt.datetime, str]:
    """(start, end, description) of the event open in Calendar: its day ("Saturday, March
    14, 2026") and "6:30 – 7:15 AM" (the start's AM/PM is the end's unless shown)."""
    when = text_of(device, rid="event_when") or ""
    day_line, _, span = when.partition("\n")
    day = dt.datetime.strptime(day_line.strip(), "%A, %B %d, %Y").date()
    a, _, b = (s.strip() for s in span.partition("–"))
    if not a or not b:
        raise OracleError(f"cannot read the event's times from {when!r}")
    end = dt.datetime.strptime(b, "%I:%M %p").time()
    if not a.endswith(("AM", "PM")):
        a += " " + b[-2:]
    begin = dt.datetime.strptime(a, "%I:%M %p").time()
    return (dt.datetime.combine(day, begin), dt.datetime.combine(day, end),
            text_of(device, rid="event_description") or "")


def km_in(text: str) -> str:
    """"8" from "Tempo run · 8 km"."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*km", text)
    if m is None:
        raise OracleError(f"no distance in {text!r}")
    return m.group(1)


def planned_params(rng: np.random.Generator, kind: str, titles: tuple[str, ...],
                   earliest: int, latest: int, kms: tuple[float, float],
                   day: dt.date) -> dict[str, Any]:
    """A workout planned on the morning of ``day``: title, start (whole quarter hours from
    ``earliest`` to ``latest`` o'clock), minutes and kilometres (see :func:`done_by` for
    making it done by the phone's time)."""
    start = dt.datetime.combine(day, dt.time(int(rng.integers(earliest, latest + 1)),
                                             int(rng.choice([0, 15, 30, 45]))))
    minutes = int(rng.integers(5, 14)) * 5
    km = f"{rng.uniform(*kms):.1f}".rstrip("0").rstrip(".")
    return {"event": titles[int(rng.integers(len(titles)))], "kind": kind,
            "start": start.isoformat(timespec="minutes"), "minutes": minutes, "km": km}


def done_by(plans: list[dict[str, Any]], t: dt.datetime) -> None:
    """Make the planned workouts ``plans`` (drawn on ``t``'s day) done by ``t``, the phone's
    time, as Fitness logs only what has happened: all move earlier by the same whole quarter
    hours (none when they all end by then) to end five minutes before ``t``. ``NoInstance``
    when that would take one before midnight: in the small hours no morning has passed."""
    limit = t - dt.timedelta(minutes=5)
    late = max(dt.datetime.fromisoformat(p["start"]) + dt.timedelta(minutes=p["minutes"])
               for p in plans) - limit
    if late <= dt.timedelta(0):
        return
    shift = dt.timedelta(minutes=15 * -(-late // dt.timedelta(minutes=15)))
    starts = [dt.datetime.fromisoformat(p["start"]) - shift for p in plans]
    if any(s.date() != t.date() for s in starts):
        raise NoInstance("too early in the day for workouts done this morning")
    for p, s in zip(plans, starts):
        p["start"] = s.isoformat(timespec="minutes")


def insert_planned(device: Device, p: dict[str, Any]) -> None:
    """Setup: the planned workout ``p`` as a calendar event with the distance in its notes."""
    s = dt.datetime.fromisoformat(p["start"])
    device.insert("calendar", {"title": p["event"], "dtstart": epoch_ms(s),
                               "dtend": epoch_ms(s + dt.timedelta(minutes=p["minutes"])),
                               "eventLocation": "", "description": f"Plan: {p['km']} km"})


def logged(p: dict[str, Any]) -> dict[str, Any]:
    """The ``fitness/activities`` row a logged plan ``p`` must add."""
    return {"type": p["kind"], "start": p["start"], "duration_min": p["minutes"],
            "distance_km": float(p["km"]), "source": "Manual"}


def log_planned(device: Device, title: str, kind: str, shift: int = 0) -> Iterator[Action]:
    """Read the event ``title`` in Calendar and log it in Fitness (``shift`` minutes late)."""
    yield from read_event(device, title)
    begin, end, notes = event_on_screen(device)
    minutes = int((end - begin).total_seconds() // 60)
    yield from log_activity(device, kind, begin + dt.timedelta(minutes=shift), minutes,
                            km_in(notes))


@register_task
class CrossAppFitnessLogPlannedRun(Task):
    """Log in Fitness the run planned in Calendar this morning: one manual run row is added
    with the event's start, its length in minutes and the distance its notes give.

    Fewer goals: the goal names only the event (six titles); its time, length and distance
    vary with the seed and are found in Calendar, which is the point of the task."""

    id = "CrossAppFitnessLogPlannedRun"
    apps = ("calendar", "fitness")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "time-picker", "form")
    optimal_steps = 15
    may_change = ("fitness/activities",)
    params_schema = {"event": str, "kind": str, "start": str, "minutes": int, "km": str}
    template = ('I did the "{event}" in my calendar this morning exactly as planned. Log it in '
                "Fitness with its start time, length and planned distance.")
    paraphrases = {
        "train": ('Copy this morning\'s "{event}" from Calendar into my fitness journal as a '
                  "run: same start, same duration, the distance from the event notes.",),
        "test": ('The "{event}" on today\'s calendar went to plan. Record that run in Fitness '
                 "using the event's times and the distance written in it.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        t = now(probe)
        p = planned_params(rng, "run", PLANNED_RUNS, 6, 8, (4.0, 12.0), t.date())
        done_by([p], t)
        return p

    def setup(self, device: Device) -> None:
        insert_planned(device, self.params)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("fitness/activities", logged(self.params)))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from log_planned(device, self.params["event"], "run")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right run logged fifteen minutes late."""
        yield from log_planned(device, self.params["event"], "run", shift=15)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppFitnessWeekToMessages(Task):
    """Text a contact this week's total distance from Fitness: one sent SMS to their number
    stating that total (kilometres, two decimals as the journal shows them)."""

    id = "CrossAppFitnessWeekToMessages"
    apps = ("fitness", "messages")
    category = "cross-app"
    difficulty = "medium"
    tags = ("share", "read-then-write")
    split = "test"
    optimal_steps = 8
    may_change = ("sms",)
    params_schema = {"name": str, "number": str}
    template = "Send {name} a text with the total distance I've covered in Fitness this week."
    paraphrases = {
        "test": ("{name} wants to know how many kilometres I've done so far this week. Share "
                 "it from my fitness app by SMS.",
                 "Message {name} my weekly distance total from Fitness (this week, all "
                 "activities)."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe))
        return {"name": c["display_name"], "number": c["number"]}

    def _total(self) -> float:
        day = self.start_day()
        rows = in_days(self.before("fitness/activities"), week_start(day), day)
        return round(sum(float(r["distance_km"]) for r in rows), 2)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("sms", {"address": same_phone(self.params["number"]),
                                         "body": states(self._total(), kind="number", tol=0.006),
                                         "type": SENT}))

    def _share(self, device: Device, back: int, name: str) -> Iterator[Action]:
        yield from to_journal(device, back=back)
        yield tap(device, desc="Share summary")
        yield tap(device, text="Messages", rid="sharesheet_target")
        yield type_into(device, name, rid="recipient_text_view")
        yield from scroll_to(device, text=name, rid="contact_title")
        yield tap(device, text=name, rid="contact_title")
        yield tap(device, desc="Send SMS")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._share(device, 0, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares last week's summary instead."""
        yield from self._share(device, 1, self.params["name"])
        yield Action("status", goal_status="complete")


@register_task
class CrossAppFitnessRecordToChat(Task):
    """Share a personal record with a friend on Chat: from Fitness's records, the longest
    activity of a type is opened and shared through the share sheet into their chat. One
    text from the owner is added to that chat, stating the record's distance."""

    id = "CrossAppFitnessRecordToChat"
    apps = ("fitness", "chat")
    category = "cross-app"
    difficulty = "medium"
    tags = ("share", "read-then-write")
    optimal_steps = 8
    may_change = ("chat/messages",)
    params_schema = {"kind": str, "name": str, "chat_id": int}
    template = "Share my longest {kind} ever with {name} on Chat."
    paraphrases = {
        "train": ("Send {name} a Chat message with my personal record for the longest {kind}.",
                  "Show off to {name} on Chat: share my longest {kind} from Fitness."),
        "test": ("{name} doubts how far I've gone. Find my all-time longest {kind} in my "
                 "fitness app and share it to our chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        kinds = ("walk", "run", "ride", "swim")
        return {"kind": kinds[int(rng.integers(len(kinds)))], "name": c["title"],
                "chat_id": int(c["_id"])}

    def _record(self) -> float:
        return max(float(r["distance_km"]) for r in self.before("fitness/activities")
                   if r["type"] == self.params["kind"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("chat/messages", {
            "chat_id": p["chat_id"], "sender": "me", "type": "text",
            "body": lambda v: f"{self._record():.2f} km" in str(v)}))

    def _share(self, device: Device, chat: str) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, desc="Personal records")
        yield tap(device, desc=f"Longest {self.params['kind']}", rid="record_row")
        yield tap(device, desc="Share activity")
        yield tap(device, text="Chat", rid="sharesheet_target")
        yield from scroll_to(device, text=chat, rid="target_chat_title")
        yield tap(device, text=chat, rid="target_chat_title")
        yield tap(device, text="Send", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._share(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares it into another chat."""
        other = next(c["title"] for c in chats(device.probe, unread=None)
                     if c["_id"] != self.params["chat_id"])
        yield from self._share(device, other)
        yield Action("status", goal_status="complete")
