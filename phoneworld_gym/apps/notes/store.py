"""Notes data: text notes and checklists, pinned or not.

A note is a dict: ``id``, ``title``, ``body`` (text notes), ``items`` (checklists: a list of
``{id, text, checked}``; ``None`` for a text note), ``pinned``, ``color`` (an index into
the card palette) and ``edited`` (ms since the epoch). The app serves two tables of its own
(a real phone's notes app keeps its data private, so they are PhoneWorld-only):
``notes/notes`` (``_id``, ``title``, ``body``, ``checklist``, ``pinned``) and
``notes/items`` (``_id``, ``note_id``, ``text``, ``checked``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life
from phoneworld_gym.world import clock_at

GROCERIES = ("Milk", "Eggs", "Bread", "Bananas", "Coffee beans", "Spinach", "Tomatoes",
             "Greek yogurt", "Olive oil", "Rice", "Chicken thighs", "Cheddar", "Apples",
             "Pasta", "Garlic", "Onions", "Butter", "Orange juice")
PACKING = ("Passport", "Phone charger", "Sunglasses", "Toothbrush", "Swimsuit", "Rain jacket",
           "Headphones", "Travel adapter", "Sunscreen", "Book for the flight")
CHORES = ("Pay the electricity bill", "Book a dentist appointment", "Return library books",
          "Renew car insurance", "Fix the bathroom tap", "Take out the recycling",
          "Order printer ink", "Water the plants")
#: (what the note holds, title, how the body says it): facts an information-retrieval task
#: asks for; ``{v}`` is the seeded value
FACTS = (("home Wi-Fi password", "Home Wi-Fi", "Password: {v}"),
         ("gym locker code", "Gym", "Locker code {v}"),
         ("parking spot", "Parking", "Level {v}"),
         ("bike lock combination", "Bike lock", "Combination {v}"))
WORDS = ("maple", "falcon", "harbor", "cobalt", "juniper", "meadow", "copper", "willow")
IDEAS = ("a cookbook", "concert tickets", "a scarf", "a plant", "a board game",
         "noise-cancelling headphones", "a photo album", "a pottery class")
BOOKS = ("The Overstory", "Project Hail Mary", "Educated", "Circe", "The Midnight Library",
         "Klara and the Sun", "Piranesi", "Atomic Habits")
PALETTE = ((255, 255, 255), (250, 175, 168), (243, 159, 118), (255, 248, 184),
           (226, 246, 211), (180, 221, 211), (212, 228, 237), (211, 191, 219))


def epoch_ms(t: dt.datetime) -> int:
    return int(round(t.replace(tzinfo=dt.timezone.utc).timestamp() * 1000))


def fact_value(kind: str, rng: np.random.Generator) -> str:
    """A seeded value for a fact note (a password, a code, a spot)."""
    if kind == "home Wi-Fi password":
        return f"{WORDS[int(rng.integers(len(WORDS)))]}-{int(rng.integers(1000, 9999))}"
    if kind == "parking spot":
        return f"{int(rng.integers(1, 6))}, spot {'ABCD'[int(rng.integers(4))]}" \
               f"{int(rng.integers(10, 60))}"
    return f"{int(rng.integers(1000, 9999))}"


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Seven to nine notes: a shopping list, a packing or to-do list, two or three fact
    notes (a password, a code), gift ideas for someone from the life and a reading list;
    one or two pinned, some with a colour, edited over the month before the phone's start
    clock (``life.now``)."""
    people = list(life.people)
    st: dict[str, Any] = {"notes": [], "next_id": 1, "next_item": 1}

    def items_of(pool: tuple[str, ...], lo: int, hi: int) -> list[tuple[str, bool]]:
        n = int(rng.integers(lo, hi + 1))
        picks = [pool[int(i)] for i in rng.choice(len(pool), size=n, replace=False)]
        return [(p, bool(rng.random() < 0.3)) for p in picks]

    drafts: list[dict[str, Any]] = [
        {"title": "Shopping list", "items": items_of(GROCERIES, 4, 7)},
        {"title": "Packing list", "items": items_of(PACKING, 4, 6)} if rng.random() < 0.5
        else {"title": "To do", "items": items_of(CHORES, 3, 5)},
    ]
    for i in rng.choice(len(FACTS), size=int(rng.integers(2, 4)), replace=False):
        kind, title, form = FACTS[int(i)]
        drafts.append({"title": title, "body": form.format(v=fact_value(kind, rng))})
    giftee = people[int(rng.integers(len(people)))]
    ideas = [IDEAS[int(i)] for i in rng.choice(len(IDEAS), size=2, replace=False)]
    drafts.append({"title": f"Gift for {giftee.first}", "body": f"Maybe {ideas[0]} or "
                                                               f"{ideas[1]}"})
    books = [BOOKS[int(i)] for i in rng.choice(len(BOOKS), size=3, replace=False)]
    drafts.append({"title": "Books to read", "body": ", ".join(books)})
    if rng.random() < 0.6:
        p = people[int(rng.integers(len(people)))]
        if p.first == giftee.first:  # titles stay distinct
            p = next(q for q in people if q.first != giftee.first)
        drafts.append({"title": f"Call {p.first}", "body": f"About the weekend plans, "
                                                          f"{p.phone}"})
    order = [int(i) for i in rng.permutation(len(drafts))]
    pinned = set(order[:int(rng.integers(1, 3))])
    for k in order:
        d = drafts[k]
        edited = life.now - dt.timedelta(minutes=int(rng.integers(60, 60 * 24 * 30)))
        add_note(st, d["title"], d.get("body", ""), d.get("items"), pinned=k in pinned,
                 color=int(rng.integers(len(PALETTE))) if rng.random() < 0.4 else 0,
                 edited=epoch_ms(edited))
    return st


def add_note(st: dict[str, Any], title: str, body: str = "",
             items: list[tuple[str, bool]] | None = None, *, pinned: bool = False,
             color: int = 0, edited: int) -> dict[str, Any]:
    """A new note (a checklist when ``items`` is a list) at the end of the store, last
    edited at ``edited`` (ms since the epoch)."""
    note: dict[str, Any] = {"id": st["next_id"], "title": title, "body": body if items is None
                            else "", "items": None, "pinned": bool(pinned), "color": color,
                            "edited": int(edited)}
    st["next_id"] += 1
    if items is not None:
        note["items"] = []
        for text, checked in items:
            add_item(st, note, text, checked)
    st["notes"].append(note)
    return note


def add_item(st: dict[str, Any], note: dict[str, Any], text: str,
             checked: bool = False) -> dict[str, Any]:
    item = {"id": st["next_item"], "text": text, "checked": bool(checked)}
    st["next_item"] += 1
    note["items"].append(item)
    return item


def find(st: dict[str, Any], nid: Any) -> dict[str, Any] | None:
    return next((n for n in st["notes"] if n["id"] == nid), None)


def delete(st: dict[str, Any], nid: int) -> None:
    st["notes"] = [n for n in st["notes"] if n["id"] != nid]


def touch(note: dict[str, Any], now: str) -> None:
    note["edited"] = epoch_ms(dt.datetime.fromisoformat(now))


def is_empty(note: dict[str, Any]) -> bool:
    return not (note["title"].strip() or note["body"].strip() or note["items"])


def ordered(st: dict[str, Any]) -> list[dict[str, Any]]:
    """Pinned notes first, then the others, each newest edit first."""
    return sorted(st["notes"], key=lambda n: (not n["pinned"], -n["edited"], -n["id"]))


def matches(note: dict[str, Any], q: str) -> bool:
    """True when the (lower-case) query is in the title, the text or an item."""
    return q in note["title"].lower() or q in note["body"].lower() or any(
        q in i["text"].lower() for i in note["items"] or [])


def as_text(note: dict[str, Any]) -> str:
    """What a share sends: the text, or one line per item ("[x] Milk")."""
    if note["items"] is None:
        return str(note["body"])
    return "\n".join(f"[{'x' if i['checked'] else ' '}] {i['text']}" for i in note["items"])


def note_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``notes/notes`` table, by ``_id``."""
    return [{"_id": n["id"], "title": n["title"], "body": n["body"],
             "checklist": int(n["items"] is not None), "pinned": int(n["pinned"])}
            for n in sorted(st["notes"], key=lambda n: n["id"])]


def item_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``notes/items`` table (checklist items), by ``_id``."""
    rows = [{"_id": i["id"], "note_id": n["id"], "text": i["text"], "checked": int(i["checked"])}
            for n in st["notes"] for i in n["items"] or []]
    return sorted(rows, key=lambda r: r["_id"])


def add_note_fixture(st: dict[str, Any], title: Any = None, body: Any = "", items: Any = None,
                     pinned: Any = False, now: Any = None) -> dict[str, Any]:
    """Setup routine: add a note (``items``: a list of item texts, or of [text, checked]
    pairs, makes a checklist), edited at ``now`` (the phone's time, ISO, as ``probe.now()``
    reads it; without it the start clock of the world generated last). Returns its
    ``title`` and ``_id``."""
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"add_note: title must be a non-empty string, got {title!r}")
    if not isinstance(body, str):
        raise ValueError(f"add_note: body must be a string, got {body!r}")
    if not isinstance(pinned, bool):
        raise ValueError(f"add_note: pinned must be true or false, got {pinned!r}")
    parsed: list[tuple[str, bool]] | None = None
    if items is not None:
        if not isinstance(items, list):
            raise ValueError(f"add_note: items must be a list, got {items!r}")
        parsed = []
        for it in items:
            if isinstance(it, str):
                parsed.append((it, False))
            elif isinstance(it, (list, tuple)) and len(it) == 2 and isinstance(it[0], str) \
                    and isinstance(it[1], bool):
                parsed.append((it[0], it[1]))
            else:
                raise ValueError(f"add_note: an item must be a text or [text, checked], "
                                 f"got {it!r}")
    at = clock_at(now)  # the phone's time: the device's fixture verb passes it
    note = add_note(st, title.strip(), body, parsed, pinned=pinned, edited=epoch_ms(at))
    return {"title": note["title"], "_id": note["id"]}
