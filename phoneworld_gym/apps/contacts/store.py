"""Contacts data: the model, a seeded generator, and the provider rows Android uses.

A contact is a dict: ``id``, ``first``, ``last``, ``phone``, ``email``, ``address``,
``company``, ``starred``. Screens change contacts through these functions; tasks read them
as the provider's rows and write them through the device's ``insert``/``update``/``delete``
(the :data:`WRITER` here), as they would on a real phone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import TableWriter
from phoneworld_gym.life import Life


def display_name(c: dict[str, Any]) -> str:
    return " ".join(p for p in (c.get("first", ""), c.get("last", "")) if p).strip()


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """The address book of the episode's life: everyone in it, sorted by name, about one in
    five a favourite."""
    people = sorted(life.people, key=lambda p: (p.first, p.last))
    contacts = []
    for i, p in enumerate(people):
        contacts.append({
            "id": i + 1, "first": p.first, "last": p.last, "phone": p.phone, "email": p.email,
            "address": p.home.one_line() if p.home is not None else "",
            "company": p.company, "starred": bool(rng.random() < 0.2),
        })
    return {"contacts": contacts, "next_id": len(contacts) + 1}


def sorted_contacts(store: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(store["contacts"], key=lambda c: (display_name(c).lower(), c["id"]))


def find(store: dict[str, Any], cid: int) -> dict[str, Any] | None:
    return next((c for c in store["contacts"] if c["id"] == cid), None)


def find_by_name(store: dict[str, Any], name: str) -> dict[str, Any] | None:
    key = " ".join(name.lower().split())
    return next((c for c in store["contacts"] if display_name(c).lower() == key), None)


def add(store: dict[str, Any], **fields: Any) -> dict[str, Any]:
    c = {"id": store["next_id"], "first": "", "last": "", "phone": "", "email": "",
         "address": "", "company": "", "starred": False}
    c.update(fields)
    store["contacts"].append(c)
    store["next_id"] += 1
    return c


def delete(store: dict[str, Any], cid: int) -> None:
    store["contacts"] = [c for c in store["contacts"] if c["id"] != cid]


def provider_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows with the columns of Android's contacts provider (one row per contact)."""
    return [{
        "_id": c["id"],
        "display_name": display_name(c),
        "number": c["phone"],
        "email": c["email"],
        "postal_address": c["address"],
        "company": c["company"],
        "starred": 1 if c["starred"] else 0,
    } for c in sorted_contacts(store)]


#: provider column -> store field (``display_name`` splits into first and last)
_COLUMNS = {"number": "phone", "email": "email", "postal_address": "address",
            "company": "company", "starred": "starred"}


def _fields(values: dict[str, Any]) -> dict[str, Any]:
    """Store fields from provider columns (``ValueError`` names an unknown column)."""
    out: dict[str, Any] = {}
    for col, v in values.items():
        if col == "display_name":
            first, _, last = " ".join(str(v).split()).partition(" ")
            out["first"], out["last"] = first, last
        elif col == "starred":
            out["starred"] = bool(int(v))
        elif col in _COLUMNS:
            out[_COLUMNS[col]] = str(v)
        else:
            raise ValueError(f"contacts has no writable column {col!r}; "
                             f"use display_name or {sorted(_COLUMNS)}")
    return out


def _insert(store: dict[str, Any], row: dict[str, Any]) -> int:
    if not str(row.get("display_name", "")).strip() and not str(row.get("number", "")).strip():
        raise ValueError("a contact needs a display_name or a number")
    return int(add(store, **_fields({k: v for k, v in row.items() if k != "_id"}))["id"])


def _update(store: dict[str, Any], row_id: Any, values: dict[str, Any]) -> None:
    c = find(store, int(row_id))
    if c is None:
        raise ValueError(f"no contact with _id {row_id!r}")
    c.update(_fields(values))


def _delete(store: dict[str, Any], row_id: Any) -> None:
    if find(store, int(row_id)) is None:
        raise ValueError(f"no contact with _id {row_id!r}")
    delete(store, int(row_id))


WRITER = TableWriter(insert=_insert, update=_update, delete=_delete)
