"""Phone data: the call log (Android's ``CallLog.Calls`` columns) and the blocked numbers.

A call is a dict with the provider's columns: ``id``, ``number``, ``name`` (the contact name
cached when the call happened, "" for strangers), ``date`` (ms since the epoch, UTC),
``duration`` (seconds), ``type`` (1 incoming, 2 outgoing, 3 missed, 5 rejected, 6 blocked)
and ``new`` (1 for a missed call not looked at yet). Tasks read the rows as the common
``call_log`` table and write them through :data:`WRITER`, as ``content insert --uri
content://call_log/calls`` would on a phone. Blocked numbers are the app's own table
``phone/blocked`` (``_id``, ``number``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import numpy as np

from phoneworld_gym.app import TableWriter
from phoneworld_gym.life import Life, random_phone

INCOMING, OUTGOING, MISSED, REJECTED, BLOCKED = 1, 2, 3, 5, 6
TYPES = (INCOMING, OUTGOING, MISSED, REJECTED, BLOCKED)


def epoch_ms(t: dt.datetime) -> int:
    """Milliseconds since the epoch of a naive (UTC) datetime."""
    return int(round(t.replace(tzinfo=dt.timezone.utc).timestamp() * 1000))


def from_ms(ms: int) -> dt.datetime:
    """The naive UTC datetime of an epoch-milliseconds value."""
    return dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.timezone.utc).replace(tzinfo=None)


def digits_key(number: str) -> str:
    """The last ten digits of a number: "+1 415-555-0132" and "4155550132" are one caller."""
    d = re.sub(r"\D", "", str(number))
    return d[-10:] if d else str(number).strip()


def _when(rng: np.random.Generator, now: dt.datetime, days_back: int) -> dt.datetime:
    """A plausible moment ``days_back`` days before ``now``, between 8:00 and 21:59 (and
    before ``now`` on the day itself: earlier than 8:00 when the day starts before then)."""
    day = (now - dt.timedelta(days=days_back)).date()
    last = now.hour * 60 + now.minute - 5 if days_back == 0 else 22 * 60
    first = max(0, min(8 * 60, last - 1))
    minute = int(rng.integers(first, max(first + 1, last)))
    return dt.datetime.combine(day, dt.time(minute // 60, minute % 60, int(rng.integers(60))))


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Two weeks of calls up to the phone's start clock (``life.now``): six to nine people
    from the life call or are called one to four times each (some missed), two or three
    strangers call (mostly missed), and one spam number is already blocked, its last call
    logged as blocked."""
    now = life.now
    people = list(life.people)
    n = int(rng.integers(6, 10))
    chosen = [people[int(i)] for i in rng.choice(len(people), size=n, replace=False)]
    calls: list[dict[str, Any]] = []
    for p in chosen:
        for _ in range(int(rng.integers(1, 5))):
            typ = int(rng.choice([INCOMING, OUTGOING, MISSED], p=[0.4, 0.4, 0.2]))
            calls.append(_call(rng, now, p.phone, p.name, typ))
    if not any(c["type"] == MISSED for c in calls):  # someone you know always slipped through
        calls[int(rng.integers(len(calls)))].update(type=MISSED, duration=0)
    taken = {digits_key(p.phone) for p in people} | {digits_key(life.owner.phone)}
    strangers: list[str] = []
    while len(strangers) < int(rng.integers(2, 4)) + 1:
        number = random_phone(rng)
        if digits_key(number) not in taken:
            taken.add(digits_key(number))
            strangers.append(number)
    spam = strangers.pop()
    for number in strangers:
        calls.append(_call(rng, now, number, "", MISSED if rng.random() < 0.7 else INCOMING))
    calls.append(_call(rng, now, spam, "", BLOCKED))
    calls.sort(key=lambda c: c["date"])
    for i, c in enumerate(calls):
        c["id"] = i + 1
        # a missed call of the last two days is still new (the badge on Recents)
        c["new"] = int(c["type"] == MISSED and now - from_ms(c["date"]) < dt.timedelta(days=2))
    return {"calls": calls, "next_id": len(calls) + 1,
            "blocked": [{"id": 1, "number": spam}], "next_blocked": 2}


def _call(rng: np.random.Generator, now: dt.datetime, number: str, name: str,
          typ: int) -> dict[str, Any]:
    t = _when(rng, now, int(rng.integers(0, 14)))
    duration = int(rng.integers(20, 1500)) if typ in (INCOMING, OUTGOING) else 0
    return {"id": 0, "number": number, "name": name, "date": epoch_ms(t),
            "duration": duration, "type": typ, "new": 0}


def calls_newest_first(store: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(store["calls"], key=lambda c: (-c["date"], -c["id"]))


def add_call(store: dict[str, Any], number: str, name: str, date: int, duration: int,
             typ: int, new: int = 0) -> dict[str, Any]:
    c = {"id": store["next_id"], "number": number, "name": name, "date": int(date),
         "duration": int(duration), "type": int(typ), "new": int(new)}
    store["calls"].append(c)
    store["next_id"] += 1
    return c


def place_call(store: dict[str, Any], number: str, name: str, now: str,
               duration: int) -> dict[str, Any]:
    """The outgoing row a finished call leaves, dated when it was placed (``now``: the phone's
    clock then) and ``duration`` seconds long."""
    return add_call(store, number, name, epoch_ms(dt.datetime.fromisoformat(now)), duration,
                    OUTGOING)


def delete_calls(store: dict[str, Any], ids: list[int]) -> None:
    gone = set(ids)
    store["calls"] = [c for c in store["calls"] if c["id"] not in gone]


def mark_seen(store: dict[str, Any]) -> None:
    """Looking at Recents acknowledges the new missed calls (``new`` -> 0)."""
    for c in store["calls"]:
        c["new"] = 0


def is_blocked(store: dict[str, Any], number: str) -> bool:
    k = digits_key(number)
    return any(digits_key(b["number"]) == k for b in store["blocked"])


def block(store: dict[str, Any], number: str) -> bool:
    """Block ``number`` (False when it was blocked already or has no digits)."""
    if not re.sub(r"\D", "", number) or is_blocked(store, number):
        return False
    store["blocked"].append({"id": store["next_blocked"], "number": number.strip()})
    store["next_blocked"] += 1
    return True


def unblock(store: dict[str, Any], number: str) -> None:
    k = digits_key(number)
    store["blocked"] = [b for b in store["blocked"] if digits_key(b["number"]) != k]


def provider_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows with the columns of Android's ``call_log`` provider, by ``_id``."""
    return [{"_id": c["id"], "number": c["number"], "name": c["name"], "date": c["date"],
             "duration": c["duration"], "type": c["type"], "new": c["new"]}
            for c in sorted(store["calls"], key=lambda c: c["id"])]


def blocked_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """The app's ``phone/blocked`` table: ``_id``, ``number``."""
    return [{"_id": b["id"], "number": b["number"]}
            for b in sorted(store["blocked"], key=lambda b: b["id"])]


_INT_COLS = ("date", "duration", "type", "new")


def _clean(values: dict[str, Any], partial: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for col, v in values.items():
        if col in ("number", "name"):
            out[col] = "" if v is None else str(v)
        elif col in _INT_COLS:
            try:
                out[col] = int(v)
            except (TypeError, ValueError):
                raise ValueError(f"call_log column {col!r} must be an integer, "
                                 f"got {v!r}") from None
        else:
            raise ValueError(f"call_log has no writable column {col!r}; use number, name, "
                             "date, duration, type, new")
    if "type" in out and out["type"] not in TYPES:
        raise ValueError(f"call_log type must be one of {TYPES} (1 incoming, 2 outgoing, "
                         f"3 missed, 5 rejected, 6 blocked), got {out['type']}")
    if "new" in out and out["new"] not in (0, 1):
        raise ValueError(f"call_log new must be 0 or 1, got {out['new']}")
    if "duration" in out and out["duration"] < 0:
        raise ValueError(f"call_log duration must be >= 0 seconds, got {out['duration']}")
    if not partial and not out.get("number", "").strip():
        raise ValueError("a call_log row needs a number")
    return out


def _insert(store: dict[str, Any], row: dict[str, Any]) -> int:
    c = _clean({k: v for k, v in row.items() if k != "_id"}, partial=False)
    typ = c.get("type", INCOMING)
    new = c.get("new", int(typ == MISSED))
    if "date" not in c:  # the phone's insert (sim_access) dates a row by its clock first
        raise ValueError("a call_log row needs a date (ms since the epoch)")
    date = c["date"]
    made = add_call(store, c["number"], c.get("name", ""), date, c.get("duration", 0), typ,
                    new)
    return int(made["id"])


def _find(store: dict[str, Any], row_id: Any) -> dict[str, Any]:
    try:
        key = int(row_id)
    except (TypeError, ValueError):
        raise ValueError(f"no call_log row with _id {row_id!r}") from None
    c = next((c for c in store["calls"] if c["id"] == key), None)
    if c is None:
        raise ValueError(f"no call_log row with _id {row_id!r}")
    return c


def _update(store: dict[str, Any], row_id: Any, values: dict[str, Any]) -> None:
    c = _find(store, row_id)
    c.update(_clean(values, partial=True))


def _delete(store: dict[str, Any], row_id: Any) -> None:
    c = _find(store, row_id)
    store["calls"] = [x for x in store["calls"] if x is not c]


WRITER = TableWriter(insert=_insert, update=_update, delete=_delete)
