"""Notes information-retrieval tasks: a fact kept in a note, and what is left on a
checklist. The right answer comes from the start state's tables (reading changes nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, ListMatch, StringMatch
from phoneworld_gym.oracle import OracleError, elements, text_of
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.notes.common import (
    browse_to_note,
    card,
    items_of,
    open_note,
    search,
    titled,
)

#: note title -> (what the owner calls the fact, the words before the value in the note)
FACTS: dict[str, tuple[str, str]] = {
    "Home Wi-Fi": ("home Wi-Fi password", "Password: "),
    "Gym": ("gym locker code", "Locker code "),
    "Parking": ("parking spot", ""),
    "Bike lock": ("bike lock combination", "Combination "),
}


def _value(body: str, prefix: str) -> str:
    return body[len(prefix):] if prefix and body.startswith(prefix) else body


@register_task
class NotesFactLookup(Task):
    """Read a fact the owner keeps in a note (a password, a code, where the car is).

    Fewer goals: four kinds of fact note exist; their values vary with the seed."""

    id = "NotesFactLookup"
    apps = ("notes",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 4
    answer_matcher = StringMatch(contains=True)
    params_schema = {"what": str, "title": str}
    template = "What is my {what}? It's in my notes."
    paraphrases = {
        "train": ("Look up my {what} in my notes.", "Find the {what} I wrote down in a note."),
        "test": ("I saved my {what} somewhere in Notes. What is it?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        facts = [r for r in titled(probe) if r["title"] in FACTS]
        if not facts:
            raise NoInstance("no fact note to ask about")
        r = facts[int(rng.integers(len(facts)))]
        return {"what": FACTS[r["title"]][0], "title": r["title"]}

    def _answers(self) -> dict[str, str]:
        return {r["title"]: _value(r["body"], FACTS[r["title"]][1])
                for r in self.before("notes/notes") if r["title"] in FACTS}

    def expected_answer(self, device: Device) -> Any:
        every = self._answers()
        return Expected(every[self.params["title"]], candidates=sorted(every.values()))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["title"])
        i = card(device, self.params["title"])
        text = [e.text for e in elements(device)[i:]
                if (e.resource_id or "").endswith("/index_note_text_description")]
        if not text:
            raise OracleError("the note's card shows no text")
        yield Action("answer", text=_value(text[0] or "", FACTS[self.params["title"]][1]))

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the note from the grid and read its whole text, not the search card."""
        yield from browse_to_note(device, self.params["title"])
        body = text_of(device, rid="edit_note_text") or ""
        yield Action("answer", text=_value(body, FACTS[self.params["title"]][1]))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Gives another note's fact (or a changed digit when there is none)."""
        every = self._answers()
        right = every[self.params["title"]]
        others = [v for t, v in every.items() if t != self.params["title"]]
        yield Action("answer", text=others[0] if others else right[:-1] +
                     ("0" if right[-1] != "0" else "1"))


def _unchecked(device: Device) -> list[str]:
    """The unticked items of the checklist on screen."""
    return [e.text or "" for e in elements(device)
            if (e.resource_id or "").endswith("/list_item_checkbox") and not e.is_checked]


@register_task
class NotesUncheckedItems(Task):
    """List what is still unchecked on a checklist (every unchecked item, no checked one).

    Fewer goals: the seeded checklists are a shopping list and a packing or to-do list."""

    id = "NotesUncheckedItems"
    apps = ("notes",)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 5
    answer_matcher = ListMatch()
    params_schema = {"title": str, "id": int}
    template = 'What is still unchecked on my "{title}" list?'
    paraphrases = {
        "test": ('Which items on "{title}" haven\'t I ticked off yet?',
                 'Read me the open items of my "{title}" checklist.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        items = probe.query("notes/items")
        lists = [r for r in titled(probe) if r["checklist"]
                 and any(not i["checked"] for i in items_of(items, r["_id"]))]
        if not lists:
            raise NoInstance("no checklist with open items")
        r = lists[int(rng.integers(len(lists)))]
        return {"title": r["title"], "id": int(r["_id"])}

    def _open(self) -> list[str]:
        return [i["text"] for i in items_of(self.before("notes/items"), self.params["id"])
                if not i["checked"]]

    def expected_answer(self, device: Device) -> Any:
        return self._open()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_note(device, self.params["title"])
        yield Action("answer", text=", ".join(_unchecked(device)))

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the checklist by scrolling the grid instead of searching."""
        yield from browse_to_note(device, self.params["title"])
        yield Action("answer", text=", ".join(_unchecked(device)))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Lists every item, the checked ones too (or leaves the last one out)."""
        every = [i["text"] for i in items_of(self.before("notes/items"), self.params["id"])]
        open_items = self._open()
        wrong = every if every != open_items else open_items[:-1] or ["Nothing"]
        yield Action("answer", text=", ".join(wrong))
