"""Long-horizon tasks through Fitness, each over three apps with information carried from
one to the next:

- Messages -> Fitness -> Messages -> Calendar: a friend asks how far a ride went and
  proposes the same route again; the distance, route and length come from Fitness.
- Calendar -> Fitness -> Chat: the two workouts planned this morning are logged from their
  events, then the week's active minutes (which now include them) go to a friend in Chat.

Both read Fitness's own tables, so they run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, elements, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import create_event, epoch_ms
from phoneworld_gym.tasks.chat.common import chats, open_chat, opened, send_text
from phoneworld_gym.tasks.cross_app.fitness_x import (
    PLANNED_RUNS,
    done_by,
    insert_planned,
    log_planned,
    logged,
    planned_params,
)
from phoneworld_gym.tasks.fitness.common import (
    activities,
    clock,
    day_words,
    distinct,
    in_days,
    minutes_of,
    number_in,
    short_day,
    start,
    to_journal,
    to_main,
    week_start,
    weeks_back,
)
from phoneworld_gym.tasks.kit import choice, now, now_ms, today
from phoneworld_gym.tasks.messages.common import (
    SENT,
    last_received,
    open_thread,
    texters,
    type_and_send,
)
from phoneworld_gym.validators import added, same_phone, same_text, states

PLANNED_SWIMS: tuple[str, ...] = ("Pool swim", "Swim laps", "Swim technique session",
                                  "Lap swimming")


def open_day_activity(device: Device, kind: str, day: dt.date) -> Iterator[Action]:
    """From anywhere: the journal's week of ``day`` filtered to ``kind``, then that day's
    activity."""
    yield from to_journal(device, back=weeks_back(day, today(device.probe)), kind=kind)
    tail = f", {short_day(day)}"
    row = next((e for e in elements(device) if (e.resource_id or "").endswith("/activity_row")
                and (e.content_description or "").endswith(tail)), None)
    if row is None:
        raise OracleError(f"no {kind} on {short_day(day)} in the journal")
    yield tap(device, desc=row.content_description, rid="activity_row")


def _past_day(words: str, until: dt.date) -> dt.date:
    """The day "Saturday, February 28" names: the latest one on or before ``until`` (the
    message gives no year, so the weekday picks it among this year's and last year's)."""
    for year in (until.year, until.year - 1):
        try:
            d = dt.datetime.strptime(f"{words} {year}", "%A, %B %d %Y").date()
        except ValueError:  # 29 February of a year without one
            continue
        if d <= until and d.strftime("%A, %B ") + str(d.day) == words:
            return d
    raise OracleError(f"no past day is {words!r}")


@register_task
class LongHorizonFitnessRideRecap(Task):
    """Long-horizon, three apps (Messages, Fitness, Calendar): a friend texts about a ride
    you did together, asking how far it was and proposing the same route next week. Reply
    with the ride's distance from Fitness and put "Ride with <first name>" in the calendar at
    the proposed time, lasting as long as the ride took, at the route's name. Exactly one
    sent SMS to them (stating the distance) and one event are added."""

    id = "LongHorizonFitnessRideRecap"
    apps = ("messages", "fitness", "calendar")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "multi-app")
    optimal_steps = 26
    max_steps = 60
    may_change = ("sms", "calendar")
    params_schema = {"name": str, "number": str, "first": str, "ride_id": int, "day": str,
                     "weekday": str, "date": str, "time": str}
    template = ("{name} texted me about our ride. Reply to their question by text with the "
                'distance from Fitness, then add "Ride with {first}" to my calendar at the time '
                "they propose, lasting as long as that ride took, with the route's name as the "
                "location.")
    paraphrases = {
        "train": ("Read {name}'s message about the ride we did, text back how far it was (see "
                  'Fitness), and schedule "Ride with {first}" when they suggest: same length '
                  "as that ride, location = its route.",),
        "test": ("{name} wants to repeat our ride. Reply in Messages with how many km it was, "
                 'then block the proposed slot in Calendar as "Ride with {first}", as long as '
                 "the original ride and located at its route.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        day = today(probe)
        rides = [r for r in distinct(activities(probe)) if r["type"] == "ride"
                 and r["route"] and 2 <= weeks_back(start(r).date(), day) <= 3]
        ride = choice(rng, rides)
        c = choice(rng, texters(probe))
        when = week_start(day) + dt.timedelta(days=7 + int(rng.integers(0, 7)))
        t = dt.time(int(rng.choice([7, 8, 9, 17, 18])), int(rng.choice([0, 15, 30, 45])))
        return {"name": c["display_name"], "number": c["number"],
                "first": c["display_name"].split()[0], "ride_id": int(ride["_id"]),
                "day": day_words(start(ride).date()), "weekday": when.strftime("%A"),
                "date": when.isoformat(), "time": clock(t)}

    def setup(self, device: Device) -> None:
        p = self.params
        device.insert("sms", {
            "address": p["number"],
            "body": f"Still thinking of our ride on {p['day']}! How far did we go in the "
                    f"end? Same route next {p['weekday']} at {p['time']}?",
            "date": now_ms(device.probe, 10), "type": 1, "read": 1})

    def _ride(self) -> dict[str, Any]:
        return next(r for r in self.before("fitness/activities")
                    if r["_id"] == self.params["ride_id"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p, ride = self.params, self._ride()
        s = dt.datetime.combine(dt.date.fromisoformat(p["date"]),
                                dt.datetime.strptime(p["time"], "%I:%M %p").time())
        return self.expect(
            added("sms", {"address": same_phone(p["number"]),
                          "body": states(float(ride["distance_km"]), kind="number", tol=0.006),
                          "type": SENT}),
            added("calendar", {
                "title": same_text(f"Ride with {p['first']}"), "dtstart": epoch_ms(s),
                "dtend": epoch_ms(s + dt.timedelta(minutes=int(ride["duration_min"]))),
                "eventLocation": str(ride["route"])}))

    def _run(self, device: Device, hour_long: bool) -> Iterator[Action]:
        p = self.params
        yield from open_thread(device, p["name"])
        text = last_received(device)
        m = re.search(r"ride on (\w+day, \w+ \d+)!.*next (\w+day) at (\d{1,2}:\d{2} [AP]M)", text)
        if m is None:
            raise OracleError(f"the newest message is not the ride question: {text!r}")
        ride_day = _past_day(m.group(1), self.start_day())
        yield from open_day_activity(device, "ride", ride_day)
        km = text_of(device, rid="stat_distance") or ""
        minutes = minutes_of(text_of(device, rid="stat_duration") or "")
        route = text_of(device, rid="detail_route") or ""
        yield from open_thread(device, p["name"])
        yield from type_and_send(device, f"It was {km}. {p['weekday']} works for me!")
        weekday, at = m.group(2), dt.datetime.strptime(m.group(3), "%I:%M %p").time()
        monday = week_start(self.start_day()) + dt.timedelta(days=7)
        day = next(monday + dt.timedelta(days=k) for k in range(7)
                   if (monday + dt.timedelta(days=k)).strftime("%A") == weekday)
        begin = dt.datetime.combine(day, at)
        length = 60 if hour_long and minutes != 60 else 90 if hour_long else minutes
        yield from create_event(device, f"Ride with {p['first']}", day, at,
                                (begin + dt.timedelta(minutes=length)).time(), location=route)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right, but the event lasts an hour instead of as long as the ride."""
        yield from self._run(device, True)
        yield Action("status", goal_status="complete")


@register_task
class LongHorizonFitnessMorningWorkouts(Task):
    """Long-horizon, three apps (Calendar, Fitness, Chat): this morning's planned run and swim
    are in Calendar (times, lengths, distances in the notes). Log both in Fitness, then tell
    a friend in Chat this week's active minutes, which then include both. Exactly: two
    manual activities and one text from the owner in their chat stating that total."""

    id = "LongHorizonFitnessMorningWorkouts"
    apps = ("calendar", "fitness", "chat")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "time-picker", "form", "multi-app")
    optimal_steps = 34
    max_steps = 80
    may_change = ("fitness/activities", "chat/messages", "chat/chats")
    params_schema = {"run": dict, "swim": dict, "run_event": str, "swim_event": str,
                     "name": str, "chat_id": int}
    template = ('Log this morning\'s "{run_event}" and "{swim_event}" from my calendar in '
                "Fitness exactly as planned (times, lengths, distances from the notes), then "
                "tell {name} on Chat how many active minutes I have this week.")
    paraphrases = {
        "test": ('Both workouts on today\'s calendar, "{run_event}" and "{swim_event}", '
                 "happened as planned: put them in my fitness journal, then message {name} "
                 "in Chat my active-minute total for the week.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        t = now(probe)
        run = planned_params(rng, "run", PLANNED_RUNS, 6, 6, (4.0, 10.0), t.date())
        swim = planned_params(rng, "swim", PLANNED_SWIMS, 8, 8, (0.8, 2.4), t.date())
        done_by([run, swim], t)
        return {"run": run, "swim": swim, "run_event": run["event"],
                "swim_event": swim["event"], "name": c["title"], "chat_id": int(c["_id"])}

    def setup(self, device: Device) -> None:
        insert_planned(device, self.params["run"])
        insert_planned(device, self.params["swim"])

    def _total(self) -> int:
        day = self.start_day()
        rows = in_days(self.before("fitness/activities"), week_start(day), day)
        return sum(int(r["duration_min"]) for r in rows) + \
            self.params["run"]["minutes"] + self.params["swim"]["minutes"]

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("fitness/activities", logged(p["run"]), logged(p["swim"])),
            *opened(self.before("chat/messages"), self.before("chat/chats"),  # type: ignore[arg-type]
                    p["chat_id"], [{"chat_id": p["chat_id"], "sender": "me", "type": "text",
                                    "body": states(self._total(), kind="number", tol=0.5)}]))

    def _run(self, device: Device, stale: bool) -> Iterator[Action]:
        p = self.params
        yield from log_planned(device, p["run"]["event"], "run")
        minutes = ""
        if stale:
            yield from to_main(device)
            minutes = text_of(device, rid="week_minutes") or ""
        yield from log_planned(device, p["swim"]["event"], "swim")
        if not stale:
            yield from to_main(device)
            minutes = text_of(device, rid="week_minutes") or ""
        yield from open_chat(device, p["name"])
        yield from send_text(device, f"{int(number_in(minutes))} active minutes this week so far")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Both logged, but the total sent was read before the swim was logged."""
        yield from self._run(device, True)
        yield Action("status", goal_status="complete")
