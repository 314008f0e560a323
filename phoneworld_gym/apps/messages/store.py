"""Messages data: SMS rows as Android's ``sms`` provider keeps them, threads by address.

A message is a dict with the provider's columns: ``id``, ``address`` (the other person's
number), ``body``, ``date`` (ms since the epoch, UTC), ``type`` (1 received, 2 sent) and
``read`` (0/1). A thread is every message with the same number (compared by its last ten
digits). Tasks read the rows as the ``sms`` table and write them through :data:`WRITER`, as
``content insert --uri content://sms`` would on a phone.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import numpy as np

from phoneworld_gym.app import TableWriter
from phoneworld_gym.life import Life, Person

INBOX, SENT = 1, 2

#: (received, answer) pairs a thread is made of, then a last line from them
_CHATS: tuple[tuple[str, ...], ...] = (
    ("Are we still on for Saturday?", "Yes! What time works for you?",
     "Let's say 11. I'll bring the snacks"),
    ("Did you get home okay?", "Yep, thanks for dinner!", "Anytime. Next one's on you 😄"),
    ("Can you send me the photos from the trip?", "Sure, uploading them tonight",
     "Thank you!! The lake ones are my favorite"),
    ("Running 10 minutes late, sorry", "No worries, I'll grab us a table"),
    ("Happy Friday! Any plans this weekend?", "Probably hiking if the weather holds",
     "Nice, let me know if you want company"),
    ("Do you still have my umbrella?", "I do, I'll drop it off tomorrow"),
    ("The package arrived, thanks so much", "Glad it got there in one piece!"),
    ("Quick question about the report", "Sure, what's up?",
     "Which numbers did you use for Q4?", "The ones from the shared sheet, tab 3"),
    ("Want to split a pizza tonight?", "Always. Pepperoni?", "Obviously"),
    ("Call me when you get a sec", "Will do after my meeting"),
    ("I left my charger at your place", "Found it, it's on the kitchen counter"),
    ("Tickets are booked for the concert!", "Amazing, how much do I owe you?", "$45, no rush"),
)
_LAST: tuple[str, ...] = (
    "See you at the station at 6", "Can you pick up milk on the way?",
    "Don't forget the book club on Thursday", "The plumber is coming at 9 tomorrow",
    "I'm outside", "Just landed, will call later", "Great job on the presentation today",
    "Is the blue jacket yours?", "Dinner at 7 still works for me",
    "Let me know when you're free to talk", "Thanks for the recommendation, loved it",
    "Remember to water the plants", "Parking is on the second level",
    "The meeting moved to room 4B", "Mom says hi",
)


def epoch_ms(t: dt.datetime) -> int:
    """Milliseconds since the epoch of a naive (UTC) or aware datetime."""
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone.utc)
    return int(round(t.timestamp() * 1000))


def from_ms(ms: int) -> dt.datetime:
    """The naive UTC datetime of an epoch-milliseconds value."""
    return dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.timezone.utc).replace(tzinfo=None)


def digits_key(number: str) -> str:
    """The last ten digits of a number: the same person's "+1 415-555-0132" and "4155550132"
    share one thread."""
    d = re.sub(r"\D", "", str(number))
    return d[-10:] if d else str(number).strip().lower()


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Five to seven threads with people from the life, two to six messages each, the newest
    within the two weeks before the phone's start clock (``life.now``); one or two threads
    end with unread messages."""
    people = list(life.people)
    n = int(rng.integers(5, 8))
    chosen = [people[int(i)] for i in rng.choice(len(people), size=n, replace=False)]
    unread_threads = set(int(i) for i in rng.choice(n, size=int(rng.integers(1, 3)),
                                                    replace=False))
    messages: list[dict[str, Any]] = []
    for k, p in enumerate(chosen):
        chat = list(_CHATS[int(rng.integers(len(_CHATS)))])
        if rng.random() < 0.6:
            chat.append(_LAST[int(rng.integers(len(_LAST)))])
        chat = chat[:6]
        # the thread's newest message: minutes to days ago
        end = life.now - dt.timedelta(minutes=int(rng.integers(15, 60 * 24 * 13)))
        t = end - dt.timedelta(minutes=7 * (len(chat) - 1))
        # the last line comes from them, so each thread ends with something received
        start_type = INBOX if len(chat) % 2 == 1 else SENT
        for j, body in enumerate(chat):
            typ = start_type if j % 2 == 0 else (SENT if start_type == INBOX else INBOX)
            last = j == len(chat) - 1
            unread = k in unread_threads and typ == INBOX and last
            messages.append(_msg(0, p, body, t, typ, 0 if unread else 1))
            t += dt.timedelta(minutes=int(rng.integers(1, 9)))
    messages.sort(key=lambda m: (m["date"], m["body"]))
    for i, m in enumerate(messages):
        m["id"] = i + 1
    return {"messages": messages, "next_id": len(messages) + 1}


def _msg(mid: int, p: Person, body: str, t: dt.datetime, typ: int, read: int) -> dict[str, Any]:
    return {"id": mid, "address": p.phone, "body": body, "date": epoch_ms(t), "type": typ,
            "read": read}


def threads(store: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per conversation, newest first: ``key``, ``address``, ``last`` (its newest
    message), ``unread`` (count of unread received messages), ``count``."""
    by: dict[str, dict[str, Any]] = {}
    for m in store["messages"]:
        k = digits_key(m["address"])
        t = by.setdefault(k, {"key": k, "address": m["address"], "last": m, "unread": 0,
                              "count": 0})
        t["count"] += 1
        if (m["date"], m["id"]) >= (t["last"]["date"], t["last"]["id"]):
            t["last"] = m
        if m["type"] == INBOX and not m["read"]:
            t["unread"] += 1
    return sorted(by.values(), key=lambda t: (-t["last"]["date"], -t["last"]["id"]))


def thread_messages(store: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return sorted((m for m in store["messages"] if digits_key(m["address"]) == key),
                  key=lambda m: (m["date"], m["id"]))


def add(store: dict[str, Any], address: str, body: str, date: int, typ: int,
        read: int) -> dict[str, Any]:
    m = {"id": store["next_id"], "address": address, "body": body, "date": int(date),
         "type": int(typ), "read": int(read)}
    store["messages"].append(m)
    store["next_id"] += 1
    return m


def send(store: dict[str, Any], address: str, body: str, now: str) -> dict[str, Any]:
    """A sent message (type 2, read) dated at the phone's clock."""
    return add(store, address, body, epoch_ms(dt.datetime.fromisoformat(now)), SENT, 1)


def mark_read(store: dict[str, Any], key: str) -> None:
    for m in store["messages"]:
        if digits_key(m["address"]) == key and not m["read"]:
            m["read"] = 1


def delete_thread(store: dict[str, Any], key: str) -> None:
    store["messages"] = [m for m in store["messages"] if digits_key(m["address"]) != key]


def provider_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows with the columns of Android's ``sms`` provider, by ``_id``."""
    return [{"_id": m["id"], "address": m["address"], "body": m["body"], "date": m["date"],
             "type": m["type"], "read": m["read"]}
            for m in sorted(store["messages"], key=lambda m: m["id"])]


def _clean(values: dict[str, Any], partial: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for col, v in values.items():
        if col in ("address", "body"):
            out[col] = str(v)
        elif col in ("date", "type", "read"):
            try:
                out[col] = int(v)
            except (TypeError, ValueError):
                raise ValueError(f"sms column {col!r} must be an integer, got {v!r}") from None
        else:
            raise ValueError(f"sms has no writable column {col!r}; "
                             "use address, body, date, type, read")
    if "type" in out and out["type"] not in (INBOX, SENT):
        raise ValueError(f"sms type must be 1 (inbox) or 2 (sent), got {out['type']}")
    if "read" in out and out["read"] not in (0, 1):
        raise ValueError(f"sms read must be 0 or 1, got {out['read']}")
    if not partial and not out.get("address", "").strip():
        raise ValueError("an sms row needs an address")
    return out


def _default_date() -> int:
    # the phone's insert (phoneworld_gym.sim_access) dates a row by its clock before it gets here
    raise ValueError("an sms row needs a date (ms since the epoch)")


def _insert(store: dict[str, Any], row: dict[str, Any]) -> int:
    c = _clean({k: v for k, v in row.items() if k != "_id"}, partial=False)
    m = add(store, c["address"], c.get("body", ""),
            c["date"] if "date" in c else _default_date(), c.get("type", INBOX),
            c.get("read", 0))
    return int(m["id"])


def _find(store: dict[str, Any], row_id: Any) -> dict[str, Any]:
    try:
        key = int(row_id)
    except (TypeError, ValueError):
        raise ValueError(f"no sms row with _id {row_id!r}") from None
    m = next((m for m in store["messages"] if m["id"] == key), None)
    if m is None:
        raise ValueError(f"no sms row with _id {row_id!r}")
    return m


def _update(store: dict[str, Any], row_id: Any, values: dict[str, Any]) -> None:
    m = _find(store, row_id)
    m.update(_clean(values, partial=True))


def _delete(store: dict[str, Any], row_id: Any) -> None:
    m = _find(store, row_id)
    store["messages"] = [x for x in store["messages"] if x is not m]


WRITER = TableWriter(insert=_insert, update=_update, delete=_delete)
