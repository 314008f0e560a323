"""Calendar tasks: create, move, relocate and delete events, delete one that does not exist
(infeasible), and read when and where an event is. All over the ``calendar`` table's
CalendarContract columns, so they run on a real phone too."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import DateMatch, Expected, StringMatch, TimeMatch
from phoneworld_gym.oracle import elements, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import (
    NEW_PLACES,
    NEW_TITLES,
    by_id,
    clock,
    create_event,
    day_words,
    epoch_ms,
    fill_times,
    from_ms,
    open_event,
    open_event_by_day,
    other_event,
    to_schedule,
    upcoming,
)
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.validators import added, changed, removed, same_text

HOUR = 3600_000


def _new_title(rng: np.random.Generator, probe: Probe) -> str:
    taken = {r["title"].lower() for r in probe.query("calendar")}
    free = [t for t in NEW_TITLES if t.lower() not in taken]
    return free[int(rng.integers(len(free)))]


@register_task
class CalendarAddEvent(Task):
    """Create an event with a title on a given day from a start to an end time: exactly one
    ``calendar`` row is added with that title, ``dtstart`` and ``dtend`` (location and
    description free)."""

    id = "CalendarAddEvent"
    apps = ("calendar",)
    difficulty = "medium"
    tags = ("form", "date-picker")
    optimal_steps = 12
    may_change = ("calendar",)
    params_schema = {"title": str, "date": str, "day": str, "start": str, "end": str}
    template = 'Add an event called "{title}" to my calendar on {day} from {start} to {end}.'
    paraphrases = {
        "train": (
            'Put "{title}" in my calendar for {day}, {start} to {end}.',
            'Schedule "{title}" on {day} between {start} and {end}.',
        ),
        "test": (
            'I have "{title}" coming up on {day}. It runs from {start} until {end}; please '
            "add it to the calendar.",
            'Create a calendar entry named "{title}" ({day}, {start}-{end}).',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        d = today(probe) + dt.timedelta(days=int(rng.integers(1, 45)))
        h = int(rng.integers(8, 20))
        m = int(rng.choice([0, 15, 30, 45]))
        start = dt.time(h, m)
        end_dt = dt.datetime.combine(d, start) + dt.timedelta(minutes=int(rng.choice([30, 60,
                                                                                      90, 120])))
        return {"title": _new_title(rng, probe), "date": d.isoformat(), "day": day_words(d),
                "start": clock(start), "end": clock(end_dt.time())}

    def _times(self) -> tuple[int, int]:
        p = self.params
        d = dt.date.fromisoformat(p["date"])
        s = dt.datetime.combine(d, dt.datetime.strptime(p["start"], "%I:%M %p").time())
        e = dt.datetime.combine(d, dt.datetime.strptime(p["end"], "%I:%M %p").time())
        return epoch_ms(s), epoch_ms(e)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        s, e = self._times()
        return self.expect(added("calendar", {"title": same_text(self.params["title"]),
                                              "dtstart": s, "dtend": e}))

    def _fill(self, device: Device, day: dt.date) -> Iterator[Action]:
        p = self.params
        yield from create_event(device, p["title"], day,
                                dt.datetime.strptime(p["start"], "%I:%M %p").time(),
                                dt.datetime.strptime(p["end"], "%I:%M %p").time())

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._fill(device, dt.date.fromisoformat(self.params["date"]))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right event one day late."""
        yield from self._fill(device, dt.date.fromisoformat(self.params["date"])
                              + dt.timedelta(days=1))
        yield Action("status", goal_status="complete")


@register_task
class CalendarMoveEvent(Task):
    """Move an event to a later start on the same day, keeping its length: that row's
    ``dtstart`` and ``dtend`` both shift, nothing else changes."""

    id = "CalendarMoveEvent"
    apps = ("calendar",)
    difficulty = "medium"
    split = "test"
    tags = ("form",)
    optimal_steps = 9
    may_change = ("calendar",)
    params_schema = {"title": str, "id": int, "start": str}
    template = 'Move my "{title}" event to {start} on the same day, keeping its length.'
    paraphrases = {
        "train": (
            'Push "{title}" back so it starts at {start} that day; it should last as long as '
            "before.",
            'Reschedule "{title}" to begin at {start} (same day, same duration).',
        ),
        "test": (
            '"{title}" has to start at {start} instead. Same day, and keep how long it is.',
            'Could you shift my "{title}" event so it begins at {start}? Keep the date and '
            "the length.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in upcoming(probe)
                if from_ms(r["dtend"]).date() == from_ms(r["dtstart"]).date()
                and from_ms(r["dtend"]).hour < 21]
        r = choice(rng, rows)
        s = from_ms(r["dtstart"])
        dur = int(r["dtend"]) - int(r["dtstart"])
        room = [k for k in range(1, 7)
                if (s + dt.timedelta(hours=k, milliseconds=dur)).date() == s.date()]
        new = s + dt.timedelta(hours=room[int(rng.integers(len(room)))])
        return {"title": r["title"], "id": int(r["_id"]), "start": clock(new)}

    def _new(self) -> tuple[int, int]:
        r = by_id(self.before("calendar"))[self.params["id"]]
        s = from_ms(r["dtstart"])
        t = dt.datetime.strptime(self.params["start"], "%I:%M %p").time()
        new = epoch_ms(dt.datetime.combine(s.date(), t))
        return new, new + int(r["dtend"]) - int(r["dtstart"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        s, e = self._new()
        return self.expect(changed("calendar", self.params["id"], dtstart=s, dtend=e))

    def _move(self, device: Device, longer: bool, by_day: bool = False) -> Iterator[Action]:
        """Open the event's editor, read its times, type the new start and the end that
        keeps the length (``longer``: half an hour more)."""
        yield from (open_event_by_day if by_day else open_event)(device, self.params["title"])
        yield tap(device, desc="Edit event")
        fmt = "%I:%M %p"
        a = dt.datetime.strptime(text_of(device, rid="start_time") or "", fmt)
        b = dt.datetime.strptime(text_of(device, rid="end_time") or "", fmt)
        start = dt.datetime.strptime(self.params["start"], fmt)
        end = start + (b - a) + dt.timedelta(minutes=30 if longer else 0)
        yield from fill_times(device, start.time(), end.time())
        yield tap(device, rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._move(device, False)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._move(device, False, by_day=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Moves the start but makes the event half an hour longer."""
        yield from self._move(device, True)
        yield Action("status", goal_status="complete")


@register_task
class CalendarSetLocation(Task):
    """Change where an event happens: that row's ``eventLocation`` becomes the new place."""

    id = "CalendarSetLocation"
    apps = ("calendar",)
    difficulty = "easy"
    tags = ("form",)
    optimal_steps = 8
    may_change = ("calendar",)
    params_schema = {"title": str, "id": int, "place": str}
    template = 'Change the location of my "{title}" event to {place}.'
    paraphrases = {
        "train": (
            'Set the place of "{title}" to {place}.',
            '"{title}" is now at {place}; update the event.',
        ),
        "test": (
            'We moved "{title}" to {place}. Can you fix the location in my calendar?',
            'Update my calendar so "{title}" takes place at {place}.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, upcoming(probe))
        places = [p for p in NEW_PLACES if p != r["eventLocation"]]
        return {"title": r["title"], "id": int(r["_id"]),
                "place": places[int(rng.integers(len(places)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("calendar", self.params["id"],
                                   eventLocation=self.params["place"]))

    def _set(self, device: Device, title: str, by_day: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if by_day else open_event)(device, title)
        yield tap(device, desc="Edit event")
        yield type_into(device, self.params["place"], rid="location_field")
        yield tap(device, rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, self.params["title"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._set(device, self.params["title"], by_day=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sets the place on the neighbouring event."""
        rows = [r for r in self.before("calendar")
                if r["title"] in {u["title"] for u in upcoming(device.probe)}]
        yield from self._set(device, other_event(rows, self.params["id"])["title"])
        yield Action("status", goal_status="complete")


@register_task
class CalendarDeleteEvent(Task):
    """Delete one event: exactly its row is removed."""

    id = "CalendarDeleteEvent"
    apps = ("calendar",)
    difficulty = "easy"
    tags = ("dialog",)
    optimal_steps = 7
    split = "test"
    may_change = ("calendar",)
    params_schema = {"title": str, "id": int}
    template = 'Delete the "{title}" event from my calendar.'
    paraphrases = {
        "test": (
            '"{title}" is cancelled; remove it from my calendar.',
            'Please take "{title}" off my schedule.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, upcoming(probe))
        return {"title": r["title"], "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("calendar", self.params["id"]))

    def _delete(self, device: Device, title: str, by_day: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if by_day else open_event)(device, title)
        yield tap(device, desc="Delete event")
        yield tap(device, text="Delete", cls="Button")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["title"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._delete(device, self.params["title"], by_day=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the neighbouring event."""
        rows = [r for r in self.before("calendar")
                if r["title"] in {u["title"] for u in upcoming(device.probe)}]
        yield from self._delete(device, other_event(rows, self.params["id"])["title"])
        yield Action("status", goal_status="complete")


@register_task
class CalendarDeleteMissing(Task):
    """Infeasible by design: no event has that title, so the right move is to look through
    the schedule, find none, and say so (changing nothing)."""

    id = "CalendarDeleteMissing"
    apps = ("calendar",)
    difficulty = "medium"
    tags = ("infeasible",)
    optimal_steps = 3
    feasible = False
    params_schema = {"title": str}
    template = 'Delete my "{title}" event.'
    paraphrases = {
        "train": (
            'Remove "{title}" from my calendar.',
            'Cancel the "{title}" event in my calendar.',
        ),
        "test": (
            'I no longer need the "{title}" entry in my calendar. Please delete it.',
            'Take the event "{title}" out of my calendar.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"title": _new_title(rng, probe)}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_schedule(device)
        yield Action("status", goal_status="infeasible")


@register_task
class CalendarWhenIs(Task):
    """Read the date of an upcoming event (one date; the weekday and the time may come
    with it)."""

    id = "CalendarWhenIs"
    apps = ("calendar",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 5
    answer_matcher = DateMatch()
    params_schema = {"title": str, "id": int}
    template = 'When is my "{title}" event?'
    paraphrases = {
        "train": (
            'What date is "{title}" on?',
            'On which day do I have "{title}"?',
        ),
        "test": (
            'Look in my calendar and tell me the date of "{title}".',
            'I need the date for "{title}". When is it?',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, upcoming(probe))
        return {"title": r["title"], "id": int(r["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return from_ms(by_id(self.before("calendar"))[self.params["id"]]["dtstart"]).date()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_event(device, self.params["title"])
        when = (text_of(device, rid="event_when") or "").split("\n")[0]
        yield Action("answer", text=when)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """A day off."""
        d = self.expected_answer(device) + dt.timedelta(days=1)
        yield Action("answer", text=f"{d.strftime('%B')} {d.day}, {d.year}")


@register_task
class CalendarStartTime(Task):
    """Read when an event starts (one time: giving the end too is two times and fails)."""

    id = "CalendarStartTime"
    apps = ("calendar",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    split = "test"
    answer_matcher = TimeMatch()
    params_schema = {"title": str, "id": int}
    template = 'What time does "{title}" start?'
    paraphrases = {
        "test": (
            'When does my "{title}" event begin? Just the start time.',
            'Tell me the start time of "{title}" in my calendar.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, upcoming(probe))
        return {"title": r["title"], "id": int(r["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return from_ms(by_id(self.before("calendar"))[self.params["id"]]["dtstart"]).time()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_schedule(device)
        yield from scroll_to(device, text=self.params["title"], rid="event_title")
        yield Action("answer", text=self._row_time(device).split(" – ")[0])

    def _row_time(self, device: Device) -> str:
        els = elements(device)
        for i, e in enumerate(els):
            if (e.resource_id or "").endswith("/event_title") and e.text == self.params["title"]:
                nxt = next(x for x in els[i + 1:] if (x.resource_id or "").endswith("/event_time"))
                return nxt.text or ""
        return ""

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers the end time."""
        r = by_id(self.before("calendar"))[self.params["id"]]
        yield Action("answer", text=clock(from_ms(r["dtend"])))


@register_task
class CalendarWhereIs(Task):
    """Read where an upcoming event takes place (the answer may be the place alone or a
    sentence stating it; naming another event's place fails)."""

    id = "CalendarWhereIs"
    apps = ("calendar",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 6
    answer_matcher = StringMatch(contains=True)
    params_schema = {"title": str, "id": int}
    template = 'Where is my "{title}" event?'
    paraphrases = {
        "train": (
            'What is the location of "{title}"?',
            'Where does "{title}" take place?',
        ),
        "test": (
            'I need to know where to go for "{title}". What location does my calendar say?',
            'Look up the place of the "{title}" event for me.',
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, upcoming(probe, where="eventLocation"))
        return {"title": r["title"], "id": int(r["_id"])}

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("calendar")
        return Expected(by_id(rows)[self.params["id"]]["eventLocation"],
                        candidates=sorted({r["eventLocation"] for r in rows
                                           if r["eventLocation"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_event(device, self.params["title"])
        yield Action("answer", text=text_of(device, rid="event_location") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from open_event_by_day(device, self.params["title"])
        yield Action("answer", text=text_of(device, rid="event_location") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The place of the event next to it in time."""
        rows = self.before("calendar")
        yield Action("answer", text=other_event(rows, self.params["id"],
                                                key="eventLocation")["eventLocation"])
