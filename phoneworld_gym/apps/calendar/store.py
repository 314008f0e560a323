"""Calendar data: events as Android's ``calendar`` (CalendarContract.Events) rows, with their
guests and notifications as CalendarContract.Attendees and CalendarContract.Reminders rows.

An event is a dict ``id``, ``title``, ``dtstart`` and ``dtend`` (ms since the epoch; the
phone's clock is UTC), ``location`` (the provider's ``eventLocation``) and ``description``.
Tasks read them as the ``calendar`` table and write them through :data:`WRITER`.

A guest is ``id``, ``event_id``, ``name``, ``email`` and ``status`` (Android's
``attendeeStatus``: 0 none, 1 accepted, 2 declined, 3 invited, 4 tentative); a reminder is
``id``, ``event_id``, ``minutes`` (before the start) and ``method`` (1, an alert). They are
the app's tables ``calendar/attendees`` and ``calendar/reminders``, with the provider's
column names. Deleting an event keeps its rows there, as Android's provider keeps an event an
app deletes (marked deleted, its guests kept so a sync adapter can tell them it is
cancelled) until a sync removes it: the app shows neither.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from phoneworld_gym.app import TableWriter
from phoneworld_gym.life import Life

#: what the editor accepts as a guest's address
EMAIL = re.compile(r"[^@\s,]+@[^@\s,]+\.[A-Za-z]{2,}")

#: where meals and coffees happen
PLACES: tuple[str, ...] = (
    "Blue Door Bistro", "Luigi's Trattoria", "Green Leaf Cafe", "Harbor Grill",
    "Sakura Sushi Bar", "The Corner Bakery", "Golden Dragon", "Casa Mariposa",
    "The Daily Grind", "Olive & Thyme",
)


def epoch_ms(t: dt.datetime) -> int:
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone.utc)
    return int(round(t.timestamp() * 1000))


def from_ms(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.timezone.utc).replace(tzinfo=None)


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """About fifteen events from three weeks before the phone's start day (``life.today``)
    to five weeks after: meals and coffee with people from the life at named places,
    meetings at work, visits to someone's home, appointments, the birthday parties of this
    month and the next. Titles are distinct."""
    today = life.today
    people = list(life.people)
    order = [people[int(i)] for i in rng.permutation(len(people))]
    work = life.work.one_line()
    events: list[dict[str, Any]] = []
    titles: set[str] = set()

    def add(title: str, day: int, hour: int, minute: int, minutes: int, location: str,
            description: str) -> None:
        if title in titles:
            return
        titles.add(title)
        start = dt.datetime.combine(today, dt.time(hour, minute)) + dt.timedelta(days=day)
        events.append({"id": 0, "title": title, "dtstart": epoch_ms(start),
                       "dtend": epoch_ms(start + dt.timedelta(minutes=minutes)),
                       "location": location, "description": description})

    def day() -> int:
        return int(rng.integers(-20, 36))

    places = list(PLACES)
    rng.shuffle(places)
    kinds = ("Dinner with", "Lunch with", "Coffee with", "Brunch with")
    for i, p in enumerate(order[:5]):
        kind = kinds[i % len(kinds)]
        hour = {"Dinner with": 19, "Lunch with": 12, "Coffee with": 9, "Brunch with": 11}[kind]
        add(f"{kind} {p.first}", day(), hour, int(rng.choice([0, 30])), 90 if i % 2 else 60,
            places[i], f"{kind.split()[0]} with {p.name}")
    for i, p in enumerate(order[5:8]):
        if p.home is not None:
            add(f"Visit {p.first} {p.last}", day(), 15 + i, 0, 120, p.home.one_line(),
                f"Stop by at {p.first}'s place")
    colleagues = [p for p in order if p.relation == "colleague"] or order[8:10]
    for i, p in enumerate(colleagues[:2]):
        add(f"1:1 with {p.first}", day(), 10 + 3 * i, 0, 30, work, "Weekly check-in")
    add("Team planning", day(), 14, 0, 60, work, "Quarterly roadmap review")
    add("Dentist appointment", day(), 8, 30, 45, "Oak Street Dental", "Regular cleaning")
    add("Yoga class", day(), 18, 0, 60, "Maple Yoga Studio", "Bring a mat")
    # parties for the birthdays of the start day's month and the next (in next year's
    # January when the start is in December)
    next_month = today.month % 12 + 1
    for p in order[10:13]:
        y, m, d = (int(x) for x in p.birthday.split("-"))
        if m in (today.month, next_month):
            year = today.year + (m < today.month)
            add(f"{p.first}'s birthday party", (dt.date(year, m, d) - today).days, 18, 30,
                180, p.home.one_line() if p.home else places[6], f"{p.name} turns {year - y}")
    # one event on the start day, later on (at 4 PM, or the next full hour after a late start)
    add(f"Call with {order[13].first}", 0, max(16, min(life.now.hour + 1, 23)), 0, 30, "",
        f"Phone call with {order[13].name}")
    events.sort(key=lambda e: (e["dtstart"], e["title"]))
    for i, e in enumerate(events):
        e["id"] = i + 1
    store: dict[str, Any] = {"events": events, "next_id": len(events) + 1, "attendees": [],
                             "next_attendee_id": 1, "reminders": [], "next_reminder_id": 1}
    _seed_guests(store, rng, life, order)
    return store


def _seed_guests(store: dict[str, Any], rng: np.random.Generator, life: Life,
                 order: list[Any]) -> None:
    """Guests from the life on the meetings and meals (the person an event is named after,
    colleagues at work meetings, a few friends at parties), and a notification on about one
    event in three, always on the start day's call (so the phone has an upcoming reminder
    unless it starts late in the evening)."""
    by_name = {p.name: p for p in order}
    colleagues = [p for p in order if p.relation == "colleague"] or order[8:12]
    for e in store["events"]:
        title, desc = e["title"], e["description"]
        guests: list[Any] = []
        if title.startswith(("Dinner with", "Lunch with", "Coffee with", "Brunch with")):
            guests.append(by_name.get(desc.split(" with ", 1)[-1]))
            if title.startswith("Dinner") and rng.random() < 0.5:
                guests.append(order[int(rng.integers(14, len(order)))])
        elif title.startswith("1:1 with"):
            guests.append(next((p for p in colleagues if p.first == title.split()[-1]), None))
        elif title == "Team planning":
            k = min(len(colleagues), int(rng.integers(2, 5)))
            guests += [colleagues[int(i)] for i in rng.choice(len(colleagues), k, replace=False)]
        elif title.endswith("birthday party"):
            guests.append(by_name.get(desc.split(" turns ")[0]))
            guests += [order[int(i)] for i in rng.choice(range(14, len(order)), 2,
                                                         replace=False)]
        for p in dict.fromkeys(g for g in guests if g is not None):
            invite(store, e["id"], p.name, p.email, status=int(rng.choice([1, 1, 3, 4])))
        if title.startswith("Call with") or rng.random() < 0.35:
            set_reminder(store, e["id"], int(rng.choice([10, 10, 30, 60, 1440]))
                         if not title.startswith("Call with") else 10)


def find(store: dict[str, Any], eid: int) -> dict[str, Any] | None:
    return next((e for e in store["events"] if e["id"] == eid), None)


def on_day(store: dict[str, Any], day: dt.date) -> list[dict[str, Any]]:
    """The events that start on ``day``, by start time."""
    return sorted((e for e in store["events"] if from_ms(e["dtstart"]).date() == day),
                  key=lambda e: (e["dtstart"], e["id"]))


def ordered(store: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(store["events"], key=lambda e: (e["dtstart"], e["id"]))


def add(store: dict[str, Any], *, dtstart: int, dtend: int | None = None,
        **fields: Any) -> dict[str, Any]:
    """A new event starting at ``dtstart`` (ms), an hour long unless ``dtend`` is given."""
    e = {"id": store["next_id"], "title": "", "dtstart": int(dtstart),
         "dtend": int(dtstart) + 3600_000 if dtend is None else int(dtend), "location": "",
         "description": ""}
    e.update(fields)
    store["events"].append(e)
    store["next_id"] += 1
    return e


def delete(store: dict[str, Any], eid: int) -> None:
    """Remove the event (its guests and reminders stay: see the module docstring)."""
    store["events"] = [e for e in store["events"] if e["id"] != eid]


# -- guests and notifications -----------------------------------------------------------------
#: Android's CalendarContract.Attendees statuses
STATUS_NONE, STATUS_ACCEPTED, STATUS_DECLINED, STATUS_INVITED, STATUS_TENTATIVE = 0, 1, 2, 3, 4
STATUS_WORDS = {STATUS_NONE: "", STATUS_ACCEPTED: "Going", STATUS_DECLINED: "Not going",
                STATUS_INVITED: "Awaiting response", STATUS_TENTATIVE: "Maybe"}
#: CalendarContract.Reminders.METHOD_ALERT
METHOD_ALERT = 1
#: the notification choices of the editor: minutes before the start (None: no notification)
REMINDER_CHOICES: tuple[tuple[int | None, str], ...] = (
    (None, "No notification"), (0, "At time of event"), (10, "10 minutes before"),
    (30, "30 minutes before"), (60, "1 hour before"), (1440, "1 day before"))


def reminder_label(minutes: int | None) -> str:
    """"30 minutes before" (or what another app set: "45 minutes before", "2 days before")."""
    for m, label in REMINDER_CHOICES:
        if m == minutes:
            return label
    assert minutes is not None
    if minutes % 1440 == 0:
        n, unit = minutes // 1440, "day"
    elif minutes % 60 == 0:
        n, unit = minutes // 60, "hour"
    else:
        n, unit = minutes, "minute"
    return f"{n} {unit}{'s' if n != 1 else ''} before"


def guests_of(store: dict[str, Any], eid: int) -> list[dict[str, Any]]:
    """The event's guests, in the order they were invited."""
    return sorted((a for a in store["attendees"] if a["event_id"] == eid), key=lambda a: a["id"])


def reminder_of(store: dict[str, Any], eid: int) -> dict[str, Any] | None:
    """The event's first (earliest-created) reminder, or None."""
    rs = sorted((r for r in store["reminders"] if r["event_id"] == eid), key=lambda r: r["id"])
    return rs[0] if rs else None


def _event(store: dict[str, Any], eid: Any) -> dict[str, Any]:
    try:
        e = find(store, int(eid))
    except (TypeError, ValueError):
        e = None
    if e is None:
        raise ValueError(f"no calendar event with id {eid!r}")
    return e


def invite(store: dict[str, Any], eid: int, name: str, email: str,
           status: int = STATUS_INVITED) -> dict[str, Any]:
    """Add a guest to an event (``ValueError`` for a missing event, a malformed email, or a
    guest already invited)."""
    e = _event(store, eid)
    email = str(email).strip()
    if not EMAIL.fullmatch(email):
        raise ValueError(f"a guest needs an email address like name@example.com, got {email!r}")
    if any(a["email"].lower() == email.lower() for a in guests_of(store, e["id"])):
        raise ValueError(f"{email} is already a guest of {e['title']!r}")
    if status not in STATUS_WORDS:
        raise ValueError(f"attendee status must be one of {sorted(STATUS_WORDS)}, got {status!r}")
    a = {"id": store["next_attendee_id"], "event_id": e["id"], "name": " ".join(str(name).split()),
         "email": email, "status": int(status)}
    store["attendees"].append(a)
    store["next_attendee_id"] += 1
    return a


def uninvite(store: dict[str, Any], attendee_id: int) -> None:
    store["attendees"] = [a for a in store["attendees"] if a["id"] != attendee_id]


def set_reminder(store: dict[str, Any], eid: int, minutes: int | None) -> dict[str, Any] | None:
    """Give the event one notification ``minutes`` before it (None: no notification). An
    existing reminder is changed in place (its row keeps its id); extra ones go."""
    e = _event(store, eid)
    if minutes is not None and (not isinstance(minutes, int) or isinstance(minutes, bool)
                                or not 0 <= minutes <= 4 * 7 * 1440):
        raise ValueError(f"reminder minutes must be an int from 0 to 40320 (4 weeks), "
                         f"got {minutes!r}")
    first = reminder_of(store, e["id"])
    store["reminders"] = [r for r in store["reminders"]
                          if r["event_id"] != e["id"] or (r is first and minutes is not None)]
    if minutes is None:
        return None
    if first is not None:
        first["minutes"] = minutes
        first["method"] = METHOD_ALERT
        return first
    r = {"id": store["next_reminder_id"], "event_id": e["id"], "minutes": minutes,
         "method": METHOD_ALERT}
    store["reminders"].append(r)
    store["next_reminder_id"] += 1
    return r


def attendee_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows with CalendarContract.Attendees' columns, by ``_id``."""
    return [{"_id": a["id"], "event_id": a["event_id"], "attendeeName": a["name"],
             "attendeeEmail": a["email"], "attendeeStatus": a["status"]}
            for a in sorted(store["attendees"], key=lambda a: a["id"])]


def reminder_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows with CalendarContract.Reminders' columns, by ``_id``."""
    return [{"_id": r["id"], "event_id": r["event_id"], "minutes": r["minutes"],
             "method": r["method"]} for r in sorted(store["reminders"], key=lambda r: r["id"])]


def fixture_invite(store: dict[str, Any], *, event_id: int, name: str, email: str,
                   status: int = STATUS_INVITED) -> int:
    """Setup: add a guest to an event; returns the attendee row's ``_id``."""
    return int(invite(store, event_id, name, email, status)["id"])


def fixture_remind(store: dict[str, Any], *, event_id: int, minutes: int | None) -> int | None:
    """Setup: give an event one notification (None removes it); returns the reminder row's
    ``_id`` (None when removed)."""
    r = set_reminder(store, event_id, minutes)
    return None if r is None else int(r["id"])


FIXTURES: dict[str, Callable[..., Any]] = {"invite": fixture_invite, "remind": fixture_remind}


def provider_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows with CalendarContract.Events' columns, by ``_id``."""
    return [{"_id": e["id"], "title": e["title"], "dtstart": e["dtstart"], "dtend": e["dtend"],
             "eventLocation": e["location"], "description": e["description"]}
            for e in sorted(store["events"], key=lambda e: e["id"])]


_COLUMNS = {"title": "title", "dtstart": "dtstart", "dtend": "dtend",
            "eventLocation": "location", "description": "description"}


def _fields(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for col, v in values.items():
        if col not in _COLUMNS:
            raise ValueError(f"calendar has no writable column {col!r}; use {sorted(_COLUMNS)}")
        if col in ("dtstart", "dtend"):
            try:
                out[col] = int(v)
            except (TypeError, ValueError):
                raise ValueError(f"calendar {col} must be ms since the epoch, got {v!r}") \
                    from None
        else:
            out[_COLUMNS[col]] = str(v)
    return out


def _insert(store: dict[str, Any], row: dict[str, Any]) -> int:
    f = _fields({k: v for k, v in row.items() if k != "_id"})
    if not f.get("title", "").strip():
        raise ValueError("a calendar event needs a title")
    if "dtstart" not in f:
        raise ValueError("a calendar event needs a dtstart")
    f.setdefault("dtend", f["dtstart"] + 3600_000)
    if f["dtend"] < f["dtstart"]:
        raise ValueError("dtend is before dtstart")
    return int(add(store, **f)["id"])


def _find(store: dict[str, Any], row_id: Any) -> dict[str, Any]:
    try:
        e = find(store, int(row_id))
    except (TypeError, ValueError):
        e = None
    if e is None:
        raise ValueError(f"no calendar row with _id {row_id!r}")
    return e


def _update(store: dict[str, Any], row_id: Any, values: dict[str, Any]) -> None:
    _find(store, row_id).update(_fields(values))


def _delete(store: dict[str, Any], row_id: Any) -> None:
    delete(store, _find(store, row_id)["id"])


WRITER = TableWriter(insert=_insert, update=_update, delete=_delete)
