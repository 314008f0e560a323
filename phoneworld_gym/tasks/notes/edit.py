"""Notes tasks that change notes: write a note, make a checklist, pin, delete, tick an item
off, and set a reminder the app does not have (infeasible)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice, now
from phoneworld_gym.tasks.notes.common import (
    LIST_ITEMS,
    LIST_TITLES,
    NEW_NOTES,
    browse_to_note,
    editor_option,
    items_of,
    note_option,
    open_note,
    titled,
    to_main,
    unused_title,
)
from phoneworld_gym.validators import added, changed, expect, new_row_id, same_text


@register_task
class NotesCreate(Task):
    """Write a new text note: exactly one note with that title and text is added."""

    id = "NotesCreate"
    apps = ("notes",)
    difficulty = "easy"
    tags = ("form",)
    optimal_steps = 5
    may_change = ("notes/notes",)
    params_schema = {"title": str, "body": str}
    template = 'Create a note titled "{title}" that says "{body}".'
    paraphrases = {
        "train": ('Make a new note, "{title}", with the text "{body}".',
                  'Jot down "{body}" in a note called "{title}".'),
        "test": ('I need to remember this: "{body}". Put it in a note and name it '
                 '"{title}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        title = unused_title(rng, probe, tuple(t for t, _ in NEW_NOTES))
        body = NEW_NOTES[int(rng.integers(len(NEW_NOTES)))][1]
        return {"title": title, "body": body}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("notes/notes", {"title": same_text(p["title"]),
                                                 "body": same_text(p["body"]),
                                                 "checklist": 0, "pinned": 0}))

    def _write(self, device: Device, title: str, body: str) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, desc="New note")
        yield type_into(device, title, rid="editable_title")
        yield type_into(device, body, rid="edit_note_text")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._write(device, self.params["title"], self.params["body"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right title with another text."""
        wrong = next(b for _, b in NEW_NOTES if b != self.params["body"])
        yield from self._write(device, self.params["title"], wrong)
        yield Action("status", goal_status="complete")


@register_task
class NotesChecklist(Task):
    """Make a checklist of three items: one checklist note with that title and exactly its
    three unchecked items are added."""

    id = "NotesChecklist"
    apps = ("notes",)
    difficulty = "medium"
    split = "test"
    tags = ("form",)
    optimal_steps = 7
    may_change = ("notes/notes", "notes/items")
    params_schema = {"title": str, "a": str, "b": str, "c": str}
    template = 'Make a checklist called "{title}" with {a}, {b} and {c}.'
    paraphrases = {
        "train": ('Start a new list named "{title}": {a}, {b}, {c}.',
                  'Create a to-do list "{title}" with the items {a}, {b} and {c}.'),
        "test": ('I have to get {a}, {b} and {c}. Put them on a checklist titled '
                 '"{title}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        a, b, c = (LIST_ITEMS[int(i)] for i in rng.choice(len(LIST_ITEMS), size=3,
                                                          replace=False))
        return {"title": unused_title(rng, probe, LIST_TITLES), "a": a, "b": b, "c": c}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        new = new_row_id(self.before("notes/notes"), device.probe.query("notes/notes"))
        return self.expect(
            added("notes/notes", {"title": same_text(p["title"]), "checklist": 1,
                                  "pinned": 0}),
            expect("notes/items", added=[{"note_id": new, "text": same_text(p[k]),
                                          "checked": 0} for k in ("a", "b", "c")]))

    def _make(self, device: Device, title: str, items: list[str]) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, desc="New list")
        yield type_into(device, title, rid="editable_title")
        for it in items:
            yield type_into(device, it, rid="add_item_text_view")

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from self._make(device, p["title"], [p["a"], p["b"], p["c"]])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Forgets the last item."""
        p = self.params
        yield from self._make(device, p["title"], [p["a"], p["b"]])
        yield Action("status", goal_status="complete")


@register_task
class NotesPin(Task):
    """Pin a note: its ``pinned`` becomes 1 and nothing else changes."""

    id = "NotesPin"
    apps = ("notes",)
    difficulty = "easy"
    tags = ("long-press", "search")
    optimal_steps = 6
    may_change = ("notes/notes",)
    params_schema = {"title": str, "id": int}
    template = 'Pin my note "{title}".'
    paraphrases = {
        "train": ('Pin "{title}" to the top of my notes.',
                  'Keep the "{title}" note pinned.'),
        "test": ('I want "{title}" to stay above all my other notes; make that happen.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, [r for r in titled(probe) if not r["pinned"]])
        return {"title": r["title"], "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("notes/notes", self.params["id"], pinned=1))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from note_option(device, self.params["title"], "Pin")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the note from the grid and use the editor's pin button, not a long press."""
        yield from browse_to_note(device, self.params["title"])
        yield tap(device, desc="Pin", rid="menu_pin")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Pins another note."""
        wrong = next(r["title"] for r in titled(device.probe)
                     if not r["pinned"] and r["_id"] != self.params["id"])
        yield from note_option(device, wrong, "Pin")
        yield Action("status", goal_status="complete")


@register_task
class NotesDelete(Task):
    """Delete a note: it goes, and with a checklist its items go too."""

    id = "NotesDelete"
    apps = ("notes",)
    difficulty = "easy"
    tags = ("long-press", "search")
    optimal_steps = 6
    may_change = ("notes/notes", "notes/items")
    params_schema = {"title": str, "id": int}
    template = 'Delete the note "{title}".'
    paraphrases = {
        "train": ('Remove my "{title}" note.', 'Throw away the note called "{title}".'),
        "test": ('I no longer need "{title}" in my notes; get rid of it.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, titled(probe))
        return {"title": r["title"], "id": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        items = [r["_id"] for r in items_of(self.before("notes/items"), self.params["id"])]
        return self.expect(expect("notes/notes", removed=[self.params["id"]]),
                           expect("notes/items", removed=items))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from note_option(device, self.params["title"], "Delete")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the note from the grid and delete it from the editor's More options menu."""
        yield from editor_option(device, self.params["title"], "Delete")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes another note."""
        wrong = next(r["title"] for r in titled(device.probe) if r["_id"] != self.params["id"])
        yield from note_option(device, wrong, "Delete")
        yield Action("status", goal_status="complete")


@register_task
class NotesCheckItem(Task):
    """Tick an item off a checklist: that item's ``checked`` becomes 1, nothing else.

    Fewer goals: the seeded checklists are a shopping list and a packing or to-do list,
    with four to seven items each, so about thirty distinct items exist over all seeds."""

    id = "NotesCheckItem"
    apps = ("notes",)
    difficulty = "medium"
    tags = ("search", "checkbox")
    optimal_steps = 6
    split = "test"
    may_change = ("notes/items",)
    params_schema = {"title": str, "item": str, "id": int}
    template = 'Tick off "{item}" on my "{title}" list.'
    paraphrases = {
        "test": ('I\'ve taken care of "{item}". Check it off in "{title}".',
                 'Mark "{item}" as done on the "{title}" checklist.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        items = probe.query("notes/items")
        lists = [r for r in titled(probe) if r["checklist"]]
        pool = [(n, i) for n in lists for i in items_of(items, n["_id"]) if not i["checked"]]
        n, i = pool[int(rng.integers(len(pool)))]
        return {"title": n["title"], "item": i["text"], "id": int(i["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("notes/items", self.params["id"], checked=1))

    def _tick(self, device: Device, item: str, browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_note if browse else open_note)(device, self.params["title"])
        yield tap(device, text=item, rid="list_item_checkbox")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._tick(device, self.params["item"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the note by scrolling the grid instead of searching."""
        yield from self._tick(device, self.params["item"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Ticks the item next to it."""
        items = device.probe.query("notes/items")
        note = next(r["note_id"] for r in items if r["_id"] == self.params["id"])
        wrong = next(r["text"] for r in items_of(items, note)
                     if not r["checked"] and r["_id"] != self.params["id"])
        yield from self._tick(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class NotesSetReminder(Task):
    """Infeasible by design: this notes app has no reminders, so a note cannot remind the
    owner at a time; the right move is to look and say so."""

    id = "NotesSetReminder"
    apps = ("notes",)
    difficulty = "medium"
    tags = ("infeasible",)
    optimal_steps = 5
    feasible = False
    params_schema = {"title": str, "time": str}
    template = 'Set a reminder on my note "{title}" for {time} today.'
    paraphrases = {
        "train": ('Have the "{title}" note remind me at {time} today.',),
        "test": ('At {time} today I want my phone to alert me about the "{title}" note.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, titled(probe))
        hour = 12 + int(rng.integers(1, 10))
        minute = 0 if rng.random() < 0.5 else 30
        # "today" means later today: a time already gone (a late start) becomes one of the
        # quarter hours left, picked by the drawn one (in the last quarter hour none is)
        t0 = now(probe)
        at = t0.replace(hour=hour, minute=minute, second=0)
        if at <= t0 + dt.timedelta(minutes=10):
            left = [q for q in (t0.replace(hour=h, minute=m, second=0) for h in range(24)
                                for m in (0, 15, 30, 45)) if q > t0 + dt.timedelta(minutes=10)]
            at = left[(hour * 2 + minute // 30) % len(left)] if left else at
        return {"title": r["title"], "time": at.strftime("%I:%M %p").lstrip("0").lower()}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_note(device, self.params["title"])
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the note by scrolling the grid and look at its editor: no reminder there."""
        yield from browse_to_note(device, self.params["title"])
        yield tap(device, rid="menu_more")
        yield Action("status", goal_status="infeasible")


@register_task
class NotesAddToList(Task):
    """Add two items to a checklist and tick off one that was there: exactly two unchecked
    items with those texts join that note, and the named item's ``checked`` becomes 1."""

    id = "NotesAddToList"
    apps = ("notes",)
    difficulty = "hard"
    tags = ("search", "checkbox", "form")
    optimal_steps = 8
    may_change = ("notes/items",)
    params_schema = {"title": str, "a": str, "b": str, "done": str, "note_id": int,
                     "done_id": int}
    template = 'Add {a} and {b} to my "{title}" list, then tick off "{done}".'
    paraphrases = {
        "train": ('On the "{title}" checklist, check "{done}" and add {a} and {b}.',
                  'Put {a} and {b} on "{title}" and mark "{done}" as done.'),
        "test": ('I\'ve dealt with "{done}", but I still need {a} and {b}. Update my '
                 '"{title}" list.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        items = probe.query("notes/items")
        pool = [(n, i) for n in titled(probe) if n["checklist"]
                for i in items_of(items, n["_id"]) if not i["checked"]]
        n, done = pool[int(rng.integers(len(pool)))]
        have = {i["text"].lower() for i in items_of(items, n["_id"])}
        free = [t for t in LIST_ITEMS if t.lower() not in have]
        a, b = (free[int(k)] for k in rng.choice(len(free), size=2, replace=False))
        return {"title": n["title"], "a": a, "b": b, "done": done["text"],
                "note_id": int(n["_id"]), "done_id": int(done["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(expect("notes/items", added=[
            {"note_id": p["note_id"], "text": same_text(p[k]), "checked": 0} for k in "ab"],
            changed={p["done_id"]: {"checked": 1}}))

    def _update(self, device: Device, add: list[str], tick: bool,
                browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_note if browse else open_note)(device, self.params["title"])
        if tick:
            yield tap(device, text=self.params["done"], rid="list_item_checkbox")
        for it in add:
            yield type_into(device, it, rid="add_item_text_view")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._update(device, [self.params["a"], self.params["b"]], True)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the note by scrolling the grid instead of searching."""
        yield from self._update(device, [self.params["a"], self.params["b"]], True, browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds both items but forgets to tick the done one off."""
        yield from self._update(device, [self.params["a"], self.params["b"]], False)
        yield Action("status", goal_status="complete")
