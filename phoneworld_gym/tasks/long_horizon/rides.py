"""Long-horizon tasks through Rides: three or four apps, information carried from one to the
next.

- Calendar -> Rides -> Clock -> Messages: an event's place and start give a scheduled ride,
  the ride's pickup time an alarm ten minutes earlier, and a text tells a friend the pickup
  time.
- Messages -> Contacts -> Rides -> Messages: a friend's dinner invitation (the time) and
  their address in Contacts give a scheduled ride; then a reply in the thread.

Rides' tables are PhoneWorld-only, so these run on PhoneWorld.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, scroll_to, text_of, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.clock.common import add_alarm
from phoneworld_gym.tasks.contacts.common import open_contact
from phoneworld_gym.tasks.cross_app.rides_x import (
    add_event,
    address_place,
    event_on_screen,
    event_params,
    housed,
    landmark,
    read_event,
    scheduled_ride,
)
from phoneworld_gym.tasks.kit import now_ms, today
from phoneworld_gym.tasks.messages.common import (
    INBOX,
    SENT,
    last_received,
    open_thread,
    send_to,
    texters,
    type_and_send,
)
from phoneworld_gym.tasks.rides.common import available, book, by_key, clock, day_words
from phoneworld_gym.validators import added, same_phone, same_text, states


@register_task
class LongHorizonEventRide(Task):
    """Long-horizon, four apps (Calendar, Rides, Clock, Messages): read an event's place and
    start in Calendar, schedule a ride there from Home picking up a set number of minutes
    before, set an alarm labeled "Ride" ten minutes before the pickup, and text a friend the
    pickup time. Exactly: one scheduled ride, one alarm, one sent text to the friend."""

    id = "LongHorizonEventRide"
    apps = ("calendar", "rides", "clock", "messages")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "time-picker", "multi-app")
    optimal_steps = 32
    max_steps = 80
    may_change = ("rides/scheduled", "alarms", "sms")
    params_schema = {"event": str, "place": str, "dropoff_key": str, "start": str,
                     "lead": int, "type": str, "name": str, "number": str}
    template = ('Find my "{event}" event in Calendar. Schedule a ride (type {type}) from Home '
                "to its location, picking me up {lead} minutes before it starts; set an alarm "
                'labeled "Ride" 10 minutes before the pickup; and text {name} the pickup time.')
    constraints = ("from home",)
    paraphrases = {
        "train": ('Get me to "{event}": look it up in my calendar, reserve a {type} ride from '
                  "home there with pickup {lead} minutes before the start, add a \"Ride\" "
                  "alarm ten minutes ahead of the pickup, and let {name} know by SMS when I'm "
                  "picked up.",),
        "test": ('{name} wants to know when I leave for "{event}". Plan it: a scheduled {type} '
                 "ride from home to the event's place, pickup {lead} minutes before it "
                 'begins, an alarm called "Ride" 10 minutes earlier, then text {name} the '
                 "pickup time.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = event_params(rng, probe)
        c = texters(probe)[int(rng.integers(len(texters(probe))))]
        kinds = available(probe)
        return {**p, "type": kinds[int(rng.integers(len(kinds)))],
                "name": c["display_name"], "number": c["number"]}

    def setup(self, device: Device) -> None:
        add_event(device, self.params)

    def _pickup(self) -> dt.datetime:
        p = self.params
        return dt.datetime.fromisoformat(p["start"]) - dt.timedelta(minutes=int(p["lead"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        alarm = self._pickup() - dt.timedelta(minutes=10)
        return self.expect(
            added("rides/scheduled", scheduled_ride(p, p["type"])),
            added("alarms", {"hour": alarm.hour, "minutes": alarm.minute, "enabled": 1,
                             "label": same_text("Ride")}),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": states(self._pickup().time(), kind="time")}))

    def _run(self, device: Device, alarm_before: int) -> Iterator[Action]:
        p = self.params
        yield from read_event(device, p["event"])
        start, where = event_on_screen(device)
        pickup = start - dt.timedelta(minutes=int(p["lead"]))
        yield from book(device, by_key(device.probe, "home"), landmark(where), p["type"],
                        pickup)
        alarm = pickup - dt.timedelta(minutes=alarm_before)
        yield from add_alarm(device, alarm.hour, alarm.minute)
        yield from scroll_to(device, rid="edit_label")
        yield type_into(device, "Ride", rid="edit_label")
        yield from send_to(device, p["name"], f"My ride to {p['event']} picks me up at "
                                              f"{clock(pickup)} on {day_words(pickup)}.")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 10)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the alarm rings at the pickup time itself."""
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")


_INVITE = re.compile(r"on (\w+, \w+ \d+) at (\d{1,2}:\d{2} [AP]M)")


def _next_on(start: dt.date, day: str, time: str) -> dt.datetime:
    """"Tuesday, March 17" and "7:30 PM" as the first such moment on or after ``start`` (the
    text gives no year: this year's day, or next year's when this year's has passed)."""
    for year in (start.year, start.year + 1):
        try:
            at = dt.datetime.strptime(f"{day} {year} {time}", "%A, %B %d %Y %I:%M %p")
        except ValueError:  # a weekday that does not fall on that day this year
            continue
        if at.date() >= start:
            return at
    raise OracleError(f"no coming {day!r} at {time!r}")


@register_task
class LongHorizonDinnerRide(Task):
    """Long-horizon, three apps (Messages, Contacts, Rides): a friend's text invites the
    owner to dinner at a day and time; their address is in Contacts; schedule a ride there
    from Home picking up 30 minutes before, then reply "See you then!" in their thread.
    Exactly: one scheduled ride and one sent text to the friend."""

    id = "LongHorizonDinnerRide"
    apps = ("messages", "contacts", "rides")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "time-picker", "multi-app")
    split = "test"
    optimal_steps = 25
    max_steps = 70
    may_change = ("rides/scheduled", "sms")
    params_schema = {"name": str, "number": str, "dropoff_key": str, "at": str, "type": str}
    template = ("{name} invited me over in a text. Schedule a ride (type {type}) from Home to "
                "their address from my contacts, picking me up 30 minutes before the time "
                'they said, then reply "See you then!" to their message.')
    constraints = ("from home",)
    paraphrases = {
        "test": ('Read {name}\'s dinner invitation in Messages, find where they live in '
                 "Contacts, book a {type} ride from home in advance so the pickup is half an "
                 'hour before dinner, and reply to them "See you then!".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        numbers = {c["display_name"]: c["number"] for c in texters(probe)}
        pairs = [(c, p) for c, p in housed(probe) if c["display_name"] in numbers]
        if not pairs:
            raise NoInstance("no texter lives at a house Rides knows")
        c, p = pairs[int(rng.integers(len(pairs)))]
        day = today(probe) + dt.timedelta(days=int(rng.integers(1, 10)))
        at = dt.datetime.combine(day, dt.time(int(rng.integers(18, 21)),
                                              int(rng.choice([0, 30]))))
        kinds = available(probe)
        return {"name": c["display_name"], "number": numbers[c["display_name"]],
                "dropoff_key": p["key"], "at": at.isoformat(timespec="minutes"),
                "type": kinds[int(rng.integers(len(kinds)))]}

    def setup(self, device: Device) -> None:
        at = dt.datetime.fromisoformat(self.params["at"])
        device.insert("sms", {"address": self.params["number"],
                              "body": f"Dinner at my place on {day_words(at)} at {clock(at)}? "
                                      "Come hungry!",
                              "date": now_ms(device.probe, minutes_ago=25),
                              "type": INBOX, "read": 1})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        pickup = dt.datetime.fromisoformat(p["at"]) - dt.timedelta(minutes=30)
        return self.expect(
            added("rides/scheduled", {"pickup_key": "home", "dropoff_key": p["dropoff_key"],
                                      "type": p["type"], "status": "scheduled",
                                      "pickup_at": pickup.isoformat(timespec="minutes")}),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": same_text("See you then!")}))

    def _run(self, device: Device, before: int) -> Iterator[Action]:
        p = self.params
        yield from open_thread(device, p["name"])
        m = _INVITE.search(last_received(device))
        if m is None:
            raise OracleError("the invitation is not the newest message")
        at = _next_on(self.start_day(), m.group(1), m.group(2))
        yield from open_contact(device, p["name"])
        address = text_of(device, rid="address_title") or ""
        if not address:
            raise OracleError(f"{p['name']} shows no address")
        yield from book(device, by_key(device.probe, "home"), address_place(address),
                        p["type"], at - dt.timedelta(minutes=before))
        yield from open_thread(device, p["name"])
        yield from type_and_send(device, "See you then!")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 30)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Picked up at the dinner time itself."""
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")
