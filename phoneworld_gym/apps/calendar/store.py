"""Calendar data: events as Android's ``calendar`` (CalendarContract.Events) rows.

An event is a dict ``id``, ``title``, ``dtstart`` and ``dtend`` (ms since the epoch; the
phone's clock is UTC), ``location`` (the provider's ``eventLocation``) and ``description``.
Tasks read them as the ``calendar`` table and write them through :data:`WRITER`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.app import TableWriter
from phoneworld_gym.life import Life

NOW = dt.datetime(2026, 3, 14, 10, 30)

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
    """About fifteen events from three weeks before the clock's day to five weeks after:
    meals and coffee with people from the life at named places, meetings at work, visits to
    someone's home, appointments. Titles are distinct."""
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
        start = dt.datetime(2026, 3, 14, hour, minute) + dt.timedelta(days=day)
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
    for p in order[10:13]:
        y, m, d = (int(x) for x in p.birthday.split("-"))
        if m in (3, 4):
            add(f"{p.first}'s birthday party", (dt.date(2026, m, d) - NOW.date()).days, 18, 30,
                180, p.home.one_line() if p.home else places[6], f"{p.name} turns {2026 - y}")
    # one event on the clock's own day, later on
    add(f"Call with {order[13].first}", 0, 16, 0, 30, "", f"Phone call with {order[13].name}")
    events.sort(key=lambda e: (e["dtstart"], e["title"]))
    for i, e in enumerate(events):
        e["id"] = i + 1
    return {"events": events, "next_id": len(events) + 1}


def find(store: dict[str, Any], eid: int) -> dict[str, Any] | None:
    return next((e for e in store["events"] if e["id"] == eid), None)


def on_day(store: dict[str, Any], day: dt.date) -> list[dict[str, Any]]:
    """The events that start on ``day``, by start time."""
    return sorted((e for e in store["events"] if from_ms(e["dtstart"]).date() == day),
                  key=lambda e: (e["dtstart"], e["id"]))


def ordered(store: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(store["events"], key=lambda e: (e["dtstart"], e["id"]))


def add(store: dict[str, Any], **fields: Any) -> dict[str, Any]:
    e = {"id": store["next_id"], "title": "", "dtstart": epoch_ms(NOW),
         "dtend": epoch_ms(NOW + dt.timedelta(hours=1)), "location": "", "description": ""}
    e.update(fields)
    store["events"].append(e)
    store["next_id"] += 1
    return e


def delete(store: dict[str, Any], eid: int) -> None:
    store["events"] = [e for e in store["events"] if e["id"] != eid]


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
