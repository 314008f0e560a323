"""Contacts data: the model, a seeded generator, and the provider rows Android uses.

A contact is a dict: ``id``, ``first``, ``last``, ``phone``, ``email``, ``address``,
``company``, ``starred``. Tasks read and change contacts through these functions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

FIRST = ["Ava", "Ben", "Chloe", "Daniel", "Emma", "Felix", "Grace", "Hugo", "Isla", "Jack",
         "Kara", "Liam", "Maya", "Noah", "Olivia", "Priya", "Quinn", "Rosa", "Sam", "Tara",
         "Umar", "Vera", "Wei", "Xavier", "Yara", "Zoe", "Aiko", "Bruno", "Carmen", "Dmitri",
         "Elena", "Farah", "Gabriel", "Hana", "Ivan", "Jonas", "Leila", "Mateo", "Nadia", "Oscar"]
LAST = ["Anderson", "Brooks", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito",
        "Johnson", "Kim", "Lopez", "Martin", "Nguyen", "Okafor", "Patel", "Quinn", "Rossi",
        "Silva", "Tanaka", "Usman", "Varga", "Walker", "Xu", "Young", "Zimmer", "Bauer", "Costa",
        "Dubois", "Eriksen", "Novak", "Moreau"]
STREETS = ["Maple Street", "Oak Avenue", "Pine Road", "Cedar Lane", "Elm Street", "Birch Way",
           "Harbor Drive", "Hill Road", "Lake View", "Mill Lane", "Park Avenue", "River Road",
           "Station Road", "Sunset Boulevard", "Willow Court", "King Street"]
CITIES = [("Springfield", "IL", "62701"), ("Portland", "OR", "97205"), ("Austin", "TX", "78701"),
          ("Madison", "WI", "53703"), ("Boulder", "CO", "80302"), ("Raleigh", "NC", "27601"),
          ("Salem", "MA", "01970"), ("Tucson", "AZ", "85701"), ("Albany", "NY", "12207"),
          ("Eugene", "OR", "97401")]
COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries", "Hooli",
             "Wayne Enterprises", "Cyberdyne", "Soylent", "Vandelay Imports", ""]


def display_name(c: dict[str, Any]) -> str:
    return " ".join(p for p in (c.get("first", ""), c.get("last", "")) if p).strip()


def random_address(rng: np.random.Generator) -> str:
    street = STREETS[int(rng.integers(len(STREETS)))]
    city, state, zipc = CITIES[int(rng.integers(len(CITIES)))]
    return f"{int(rng.integers(1, 999))} {street}, {city}, {state} {zipc}"


def random_phone(rng: np.random.Generator) -> str:
    return f"+1 {int(rng.integers(201, 989))}-555-{int(rng.integers(1000, 9999)):04d}"


def generate(rng: np.random.Generator, n: int = 24) -> dict[str, Any]:
    """A seeded address book of ``n`` people with distinct names."""
    names: set[tuple[str, str]] = set()
    while len(names) < n:
        names.add((FIRST[int(rng.integers(len(FIRST)))], LAST[int(rng.integers(len(LAST)))]))
    contacts = []
    for i, (first, last) in enumerate(sorted(names, key=lambda p: (p[0], p[1]))):
        email_user = f"{first}.{last}".lower()
        contacts.append({
            "id": i + 1,
            "first": first,
            "last": last,
            "phone": random_phone(rng),
            "email": f"{email_user}@{['mail.com', 'inbox.org', 'post.net'][i % 3]}",
            "address": random_address(rng) if rng.random() < 0.75 else "",
            "company": COMPANIES[int(rng.integers(len(COMPANIES)))],
            "starred": bool(rng.random() < 0.2),
        })
    return {"contacts": contacts, "next_id": n + 1}


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
