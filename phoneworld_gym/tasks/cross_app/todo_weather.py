"""Cross-app tasks that carry information into and out of the To-do (Tasks) and Weather apps.

- Contacts -> Weather -> Messages: where a contact lives (their address in Contacts) picks
  the city whose forecast high for tomorrow is texted to them; checked on the common ``sms``
  table only.
- Calendar -> Tasks: an event's date becomes a to-do's due date.

Both read PhoneWorld-only tables (the forecast, the to-do lists), so they run on PhoneWorld.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, tap, text_of, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.calendar.common import (
    by_id,
    from_ms,
    open_event,
    open_event_by_day,
    upcoming,
)
from phoneworld_gym.tasks.contacts.common import browse_to_contact, open_contact
from phoneworld_gym.tasks.kit import pick_date, today
from phoneworld_gym.tasks.messages.common import SENT, send_to, texters
from phoneworld_gym.tasks.todo.common import my_tasks, open_list
from phoneworld_gym.tasks.weather.common import day_of, open_day, unit
from phoneworld_gym.validators import added, same_phone, same_text, states


def _city_of(address: str) -> str:
    """"963 Sunset Boulevard, Asheville, NC 28801" -> "Asheville"."""
    parts = [p.strip() for p in address.split(",")]
    return parts[1] if len(parts) >= 3 else ""


@register_task
class CrossAppTextHomeForecast(Task):
    """Text a contact tomorrow's forecast high for the town they live in: the town is only in
    their Contacts address, the high only in Weather. Exactly one sent message to their
    number is added, stating that high (in the unit the app shows)."""

    id = "CrossAppTextHomeForecast"
    apps = ("contacts", "weather", "messages")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write",)
    optimal_steps = 14
    may_change = ("sms",)
    params_schema = {"name": str, "number": str, "city": str, "date": str}
    template = "Text {name} tomorrow's forecast high for the town where they live."
    paraphrases = {
        "train": ("Look up where {name} lives, check tomorrow's high there and text it to "
                  "them.",
                  "Send {name} a message with tomorrow's maximum temperature in their home "
                  "town."),
        "test": ("{name} wonders how warm it gets at home tomorrow. Find their town in my "
                 "contacts and message them the high from my weather app.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = {r["name"] for r in probe.query("weather/cities")}
        rows = [c for c in texters(probe)
                if _city_of(c.get("postal_address") or "") in saved]
        if not rows:
            raise NoInstance("no contact lives in a saved weather city")
        c = rows[int(rng.integers(len(rows)))]
        return {"name": c["display_name"], "number": c["number"],
                "city": _city_of(c["postal_address"]),
                "date": (today(probe) + dt.timedelta(days=1)).isoformat()}

    def _value(self, device: Device, key: str) -> int:
        r = day_of(device.probe, self.params["city"], self.params["date"])
        return int(r[f"{key}_f"] if unit(self.before("weather/settings")) == "F"
                   else r[f"{key}_c"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("sms", {"address": same_phone(self.params["number"]),
                                         "body": states(self._value(device, "high"), kind="number",
                                                        others=[self._value(device, "low")]),
                                         "type": SENT}))

    def _text(self, device: Device, rid: str, alt: bool = False) -> Iterator[Action]:
        yield from (browse_to_contact if alt else open_contact)(device, self.params["name"])
        city = _city_of(text_of(device, rid="address_title") or "")
        if not city:
            raise OracleError("the contact shows no address")
        yield from open_day(device, city, dt.date.fromisoformat(self.params["date"]))
        value = text_of(device, rid=rid) or ""
        yield from send_to(device, self.params["name"], f"Tomorrow in {city}: high {value}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._text(device, "day_high")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._text(device, "day_high", alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts tomorrow's low instead."""
        yield from self._text(device, "day_low")
        yield Action("status", goal_status="complete")


@register_task
class CrossAppTodoForEvent(Task):
    """Add a to-do to prepare for a calendar event, due on the event's day: exactly one open
    task with that title joins My Tasks, due on the date Calendar shows."""

    id = "CrossAppTodoForEvent"
    apps = ("calendar", "todo")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker")
    optimal_steps = 14
    may_change = ("todo/tasks",)
    params_schema = {"event": str, "id": int, "title": str, "list_id": int}
    split = "test"
    template = 'Add a to-do "{title}" due on the day of my "{event}" event.'
    paraphrases = {
        "test": ('Check when "{event}" is in my calendar and create the task "{title}" due '
                 "that day.",
                 'Before "{event}" I need to get ready. Put "{title}" on my to-do list, due '
                 "the same day as the event."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = upcoming(probe)
        if not rows:
            raise NoInstance("no upcoming event")
        e = rows[int(rng.integers(len(rows)))]
        return {"event": e["title"], "id": int(e["_id"]),
                "title": f"Prepare for {e['title']}", "list_id": my_tasks(probe)}

    def _date(self) -> dt.date:
        return from_ms(by_id(self.before("calendar"))[self.params["id"]]["dtstart"]).date()

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("todo/tasks", {"title": same_text(self.params["title"]),
                                                "list_id": self.params["list_id"],
                                                "due": self._date().isoformat(), "done": 0}))

    def _add(self, device: Device, shift: int, alt: bool = False) -> Iterator[Action]:
        yield from (open_event_by_day if alt else open_event)(device, self.params["event"])
        when = (text_of(device, rid="event_when") or "").split("\n")[0]
        try:
            day = dt.datetime.strptime(when, "%A, %B %d, %Y").date()
        except ValueError:
            raise OracleError(f"cannot read the event's date from {when!r}") from None
        yield from open_list(device, "My Tasks")
        yield tap(device, desc="Create new task")
        yield type_into(device, self.params["title"], rid="task_title_edit")
        yield from pick_date(device, day + dt.timedelta(days=shift), "due_date")
        yield tap(device, text="Save", rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, 0)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the event from its day in the Month view instead of the Schedule list."""
        yield from self._add(device, 0, alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Due the day before the event."""
        yield from self._add(device, -1)
        yield Action("status", goal_status="complete")
