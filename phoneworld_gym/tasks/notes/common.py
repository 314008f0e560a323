"""Shared pieces of the Notes tasks: the rows of ``notes/notes`` (``_id``, ``title``,
``body``, ``checklist``, ``pinned``) and ``notes/items`` (``_id``, ``note_id``, ``text``,
``checked``), and the usual UI paths (the grid, search, a note's options sheet).

A real phone's notes app keeps its data private, so these tasks run on PhoneWorld only.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, elements, fully_visible, tap, type_into
from phoneworld_gym.tasks.kit import open_root

#: titles and texts a task asks to write (none is a seeded note's title)
NEW_NOTES: tuple[tuple[str, str], ...] = (
    ("Plumber", "Tuesday between 9 and 11"), ("Dinner party", "Bring dessert and wine"),
    ("Car service", "Oil change due in April"), ("Birthday", "Order the cake on Friday"),
    ("Garden", "Plant tomatoes after the last frost"), ("Flight", "Check in opens at 6 pm"),
    ("Yoga", "Thursday class moved to 7"), ("Recipe", "Double the garlic next time"),
    ("Podcast", "Episode 42 about sleep"), ("Landlord", "Ask about the broken window"),
    ("Vet", "Rabies shot due next month"), ("Budget", "Groceries under 400 this month"),
    ("Movie night", "Vote on Friday's film"), ("Tax return", "Find last year's receipts"),
    ("Running", "5k on Sunday morning"), ("Library", "Return two books by the 20th"),
)
LIST_ITEMS: tuple[str, ...] = (
    "Batteries", "Light bulbs", "Stamps", "Tape", "Candles", "Dish soap", "Sponges",
    "Paper towels", "Trash bags", "Hand soap", "Matches", "Glue", "Envelopes", "Notebook",
)
LIST_TITLES: tuple[str, ...] = ("Hardware store", "Errands", "Weekend", "Office supplies",
                                "House", "Saturday")


def titled(probe: Probe) -> list[Row]:
    """Notes whose title no other note shares (a task names a note by its title)."""
    rows = probe.query("notes/notes")
    count: dict[str, int] = {}
    for r in rows:
        count[r["title"].lower()] = count.get(r["title"].lower(), 0) + 1
    return [r for r in rows if r["title"] and count[r["title"].lower()] == 1]


def items_of(rows: list[Row], note_id: int) -> list[Row]:
    """A checklist's items, in order."""
    return sorted((r for r in rows if r["note_id"] == note_id), key=lambda r: int(r["_id"]))


def unused_title(rng: np.random.Generator, probe: Probe,
                 pool: tuple[str, ...]) -> str:
    taken = {r["title"].lower() for r in probe.query("notes/notes")}
    free = [t for t in pool if t.lower() not in taken]
    return free[int(rng.integers(len(free)))]


def to_main(device: Device) -> Iterator[Action]:
    """Open Notes and back out to the grid."""
    yield from open_root(device, "Notes", "open_search_bar")


def card(device: Device, title: str) -> int:
    """The index of the card of the note titled ``title`` on screen."""
    for i, e in enumerate(elements(device)):
        if (e.resource_id or "").endswith("/browse_note_interior_content") and \
                (e.content_description or "") in (title, f"{title}, pinned"):
            return i
    raise OracleError(f"no card titled {title!r} on screen")


def search(device: Device, title: str) -> Iterator[Action]:
    """From anywhere: the grid, search, the title typed (results show its card)."""
    yield from to_main(device)
    yield tap(device, rid="open_search_bar")
    yield type_into(device, title, rid="search_src_text")


def open_note(device: Device, title: str) -> Iterator[Action]:
    """Search a note by title and open it."""
    yield from search(device, title)
    yield Action("click", index=card(device, title))


def note_option(device: Device, title: str, option: str) -> Iterator[Action]:
    """Search a note, long-press its card and pick ``option`` in its sheet."""
    yield from search(device, title)
    yield Action("long_press", index=card(device, title))
    yield tap(device, text=option, rid="sheet_item_title")


def browse_to_note(device: Device, title: str) -> Iterator[Action]:
    """The second path: open Notes and scroll the grid down to the note's card, without
    searching, then open it."""
    yield from to_main(device)
    for _ in range(30):
        i = next((i for i, e in enumerate(elements(device))
                  if (e.resource_id or "").endswith("/browse_note_interior_content")
                  and (e.content_description or "") in (title, f"{title}, pinned")), None)
        if i is not None and fully_visible(device, i):
            yield Action("click", index=i)
            return
        before = device.a11y_xml()
        yield Action("scroll", direction="down")
        if device.a11y_xml() == before:
            break
    raise OracleError(f"scrolled the notes but found no card titled {title!r}")


def editor_option(device: Device, title: str, option: str) -> Iterator[Action]:
    """The second path to a note's option: open the note from the grid, then its editor's
    More options menu (not a long press on the card)."""
    yield from browse_to_note(device, title)
    yield tap(device, rid="menu_more")
    yield tap(device, text=option, rid="sheet_item_title")

