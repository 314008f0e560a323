"""Chat data: conversations (one-to-one chats and groups) and their messages.

A chat is ``{"id", "title", "kind": "direct" | "group", "members": [names], "number"}``
(``number`` only for a direct chat). A message is ``{"id", "chat", "sender", "type", "body",
"address", "date", "read"}``: ``sender`` is ``"me"`` or a member's name, ``type`` is
``"text"``, ``"location"`` (``body`` the place's name, ``address`` its address), ``"photo"``
(``body`` the file's path in shared storage) or ``"card"`` (a result a mini-app shared into
the chat: ``body`` its text, ``address`` the mini-app's label); ``date`` is ms since the epoch
(UTC) and ``read`` 0/1 (the owner's own messages are read). Tasks read them as the
``chat/chats`` and ``chat/messages`` tables.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life, Person
from phoneworld_gym.world import clock_at

ME = "me"
TYPES = ("text", "location", "photo", "card")

#: one-to-one chats: lines alternating between them (first) and the owner
_DIRECT: tuple[tuple[str, ...], ...] = (
    ("Morning! Coffee later?", "Sure, 3pm at the usual place?", "Perfect, see you there"),
    ("Did you see the game last night?", "Missed it, was it good?",
     "Overtime win, unbelievable"),
    ("Can you send me that recipe?", "The lemon pasta one?", "Yes please!"),
    ("I'm at the bike station near the park", "On my way, 5 min"),
    ("Happy Saturday!", "You too! Any plans?", "Farmers market, then nothing at all"),
    ("Thanks for the book, loved it", "Told you! Want the sequel?", "Obviously"),
    ("Are you coming to the movie tonight?", "Which one again?", "The new space one, 8 pm"),
    ("Lunch tomorrow?", "Can't, dentist at noon", "Friday then"),
)
#: (group title, lines: (speaker index, text)); speaker -1 is the owner
_FAMILY: tuple[tuple[int, str], ...] = (
    (0, "Who's hosting Sunday lunch this week?"),
    (1, "We can do it at ours"),
    (-1, "I'll bring dessert"),
    (0, "Great, 1 pm then"),
)
_FRIENDS: tuple[tuple[int, str], ...] = (
    (0, "We haven't had dinner together in ages"),
    (1, "Agreed! Next week?"),
    (-1, "I'm free most evenings"),
    (2, "Let me look for a place and get back to you"),
)
#: places the owner can send as a location: (name, street, city) with the owner's city
PLACES: tuple[tuple[str, str], ...] = (
    ("Central Station", "1 Station Road"), ("City Library", "200 Park Avenue"),
    ("Riverside Park", "45 River Road"), ("Harbor Market", "12 Harbor Drive"),
    ("Luigi's Trattoria", "41 Mill Lane"), ("Green Leaf Cafe", "8 Willow Court"),
)


def epoch_ms(t: dt.datetime) -> int:
    """Milliseconds since the epoch of a naive (UTC) datetime."""
    return int(round(t.replace(tzinfo=dt.timezone.utc).timestamp() * 1000))


def from_ms(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.timezone.utc).replace(tzinfo=None)


def _pick_people(rng: np.random.Generator, pool: list[Person], n: int,
                 avoid: set[str]) -> list[Person]:
    free = [p for p in pool if p.name not in avoid]
    idx = rng.choice(len(free), size=min(n, len(free)), replace=False)
    return [free[int(i)] for i in idx]


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Five or six one-to-one chats with people from the life, a family group and a friends
    group, their newest messages less than a week before the phone's start clock
    (``life.now``); two or three chats end with unread messages."""
    people = list(life.people)
    store: dict[str, Any] = {"chats": [], "messages": [], "next_chat": 1, "next_id": 1,
                             "owner": life.owner.name, "city": life.owner.home.city
                             if life.owner.home else life.work.city}
    family = [p for p in people if p.relation == "family"]
    family = (family + _pick_people(rng, people, 3, {p.name for p in family}))[:3]
    friends = [p for p in people if p.relation == "friend" and p not in family]
    friends = (friends + _pick_people(rng, people, 4, {p.name for p in family + friends}))[:4]
    direct = _pick_people(rng, people, int(rng.integers(5, 7)), set())
    unread = set(int(i) for i in rng.choice(len(direct) + 2, size=int(rng.integers(2, 4)),
                                            replace=False))
    end = life.now - dt.timedelta(minutes=int(rng.integers(20, 90)))
    convs: list[tuple[str, str, list[Person], list[tuple[int, str]]]] = []
    for p in direct:
        said = _DIRECT[int(rng.integers(len(_DIRECT)))]
        convs.append(("direct", p.name, [p], [(0 if i % 2 == 0 else -1, t)
                                               for i, t in enumerate(said)]))
    surname = life.owner.last
    convs.append(("group", f"{surname} family", family, list(_FAMILY)))
    convs.append(("group", "Friends", friends, list(_FRIENDS)))
    for k, (kind, title, members, lines) in enumerate(convs):
        chat = new_chat(store, kind, title, [m.name for m in members],
                        members[0].phone if kind == "direct" else "")
        t = end - dt.timedelta(hours=int(rng.integers(0, 24 * 6)), minutes=7 * len(lines))
        for j, (who, text) in enumerate(lines):
            sender = ME if who < 0 else members[who % len(members)].name
            last = j == len(lines) - 1
            if k in unread and last and sender == ME:  # end unread chats with them
                sender = members[0].name
            read = 0 if (k in unread and last) else 1
            add(store, chat["id"], sender, "text", text, "", epoch_ms(t), read)
            t += dt.timedelta(minutes=int(rng.integers(1, 9)))
    return store


def new_chat(store: dict[str, Any], kind: str, title: str, members: list[str],
             number: str = "") -> dict[str, Any]:
    """Add a chat (``ValueError`` for a bad kind or no members)."""
    if kind not in ("direct", "group"):
        raise ValueError(f"chat kind must be 'direct' or 'group', got {kind!r}")
    if not members or not all(isinstance(m, str) and m for m in members):
        raise ValueError(f"a chat needs member names, got {members!r}")
    chat = {"id": store["next_chat"], "title": str(title), "kind": kind,
            "members": list(members), "number": str(number)}
    store["chats"].append(chat)
    store["next_chat"] += 1
    return chat


def add(store: dict[str, Any], chat: int, sender: str, typ: str, body: str, address: str,
        date: int, read: int) -> dict[str, Any]:
    """Append a message (``ValueError`` naming a bad type or chat)."""
    if typ not in TYPES:
        raise ValueError(f"message type must be one of {TYPES}, got {typ!r}")
    if get_chat(store, chat) is None:
        raise ValueError(f"no chat with id {chat!r}")
    m = {"id": store["next_id"], "chat": int(chat), "sender": str(sender), "type": typ,
         "body": str(body), "address": str(address), "date": int(date), "read": int(read)}
    store["messages"].append(m)
    store["next_id"] += 1
    return m


def send(store: dict[str, Any], chat: int, typ: str, body: str, now: str,
         address: str = "") -> dict[str, Any]:
    """A message from the owner, dated at the phone's clock."""
    return add(store, chat, ME, typ, body, address,
               epoch_ms(dt.datetime.fromisoformat(now)), 1)


def get_chat(store: dict[str, Any], chat: int) -> dict[str, Any] | None:
    return next((c for c in store["chats"] if c["id"] == chat), None)


def direct_chat(store: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The one-to-one chat with ``name``, if there is one."""
    return next((c for c in store["chats"] if c["kind"] == "direct"
                 and c["members"] == [name]), None)


def messages(store: dict[str, Any], chat: int) -> list[dict[str, Any]]:
    return sorted((m for m in store["messages"] if m["chat"] == chat),
                  key=lambda m: (m["date"], m["id"]))


def unread(store: dict[str, Any], chat: int) -> int:
    return sum(1 for m in store["messages"] if m["chat"] == chat and not m["read"])


def last(store: dict[str, Any], chat: int) -> dict[str, Any] | None:
    msgs = messages(store, chat)
    return msgs[-1] if msgs else None


def ordered(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Chats with their newest message first (chats without messages last)."""
    def key(c: dict[str, Any]) -> tuple[int, int]:
        m = last(store, c["id"])
        return (-(m["date"] if m else 0), -(m["id"] if m else 0))

    return sorted(store["chats"], key=key)


def mark_read(store: dict[str, Any], chat: int) -> None:
    for m in store["messages"]:
        if m["chat"] == chat:
            m["read"] = 1


def snippet(m: dict[str, Any]) -> str:
    """How a message reads in the chat list: "[Location] Central Station"."""
    if m["type"] == "location":
        return f"[Location] {m['body']}"
    if m["type"] == "photo":
        return "[Photo]"
    if m["type"] == "card":
        return f"[{m['address'] or 'Mini program'}] {m['body']}"
    return str(m["body"])


# -- tables --------------------------------------------------------------------------------
def chat_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``chat/chats``: one row per chat with its members (comma-separated) and unread count."""
    return [{"_id": c["id"], "title": c["title"], "kind": c["kind"],
             "members": ", ".join(c["members"]), "number": c["number"],
             "unread": unread(store, c["id"])} for c in store["chats"]]


def message_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``chat/messages``: every message with its chat's title."""
    titles = {c["id"]: c["title"] for c in store["chats"]}
    return [{"_id": m["id"], "chat_id": m["chat"], "chat": titles.get(m["chat"], ""),
             "sender": m["sender"], "type": m["type"], "body": m["body"],
             "address": m["address"], "date": m["date"], "read": m["read"]}
            for m in sorted(store["messages"], key=lambda m: m["id"])]


# -- fixtures --------------------------------------------------------------------------------
def receive(store: dict[str, Any], *, chat: str, sender: str, body: str,
            minutes_ago: int = 5, typ: str = "text", address: str = "",
            read: int = 0, now: str | None = None) -> dict[str, Any]:
    """Fixture: a message from ``sender`` arrives in the chat titled ``chat`` (a direct chat
    with ``sender`` is made if ``chat`` is their name and none exists), ``minutes_ago``
    before ``now`` (the phone's time, ISO, as ``probe.now()`` reads it; without it the start
    clock of the world generated last). Returns its row."""
    target = next((c for c in store["chats"] if c["title"] == chat), None)
    if target is None:
        if chat != sender:
            raise ValueError(f"no chat titled {chat!r}")
        target = new_chat(store, "direct", sender, [sender])
    if sender != ME and sender not in target["members"]:
        raise ValueError(f"{sender!r} is not a member of {chat!r}: {target['members']}")
    if not isinstance(minutes_ago, int) or minutes_ago < 0:
        raise ValueError(f"minutes_ago must be a non-negative int, got {minutes_ago!r}")
    at = clock_at(now)  # the phone's time: the device's fixture verb passes it
    when = epoch_ms(at - dt.timedelta(minutes=minutes_ago))
    m = add(store, target["id"], sender, typ, body, address, when, read)
    return {"_id": m["id"], "chat_id": target["id"], "chat": target["title"]}
