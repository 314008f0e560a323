"""Split-the-bill data: splits of an amount among a chat group's members.

A split is ``{"id", "title", "total", "group", "people", "each"}``: ``people`` counts the
owner too, ``each`` is the total divided by the people, rounded up to the cent (so the payer
never falls short). Tasks read ``splitbill/splits``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

#: past splits: (title, a typical total; the seeded total is drawn around it)
_PAST: tuple[tuple[str, float], ...] = (("Groceries", 86.40), ("Taxi home", 31.50),
                                        ("Concert tickets", 180.00), ("Brunch", 64.20))


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """One past split (with a group of three): a title of :data:`_PAST` and a total drawn
    around its typical amount, so the share is not one of four values a guess could name."""
    title, typical = _PAST[int(rng.integers(len(_PAST)))]
    total = round(typical * float(rng.uniform(0.5, 1.5)), 2)
    store: dict[str, Any] = {"splits": [], "next_id": 1}
    make(store, title, total, "Roommates", 3)
    return store


def share_of(total: float, people: int) -> float:
    """Each person's share, rounded up to the cent."""
    return math.ceil(round(total * 100 / people, 6)) / 100


def parse_amount(text: str) -> float:
    """"$84.50" -> 84.5 (``ValueError`` naming the text when it is not a positive amount)."""
    clean = text.strip().replace("$", "").replace(",", "")
    try:
        value = float(clean)
    except ValueError:
        raise ValueError(f"not an amount: {text!r}") from None
    if not (0 < value < 100000) or round(value, 2) != value:
        raise ValueError(f"not an amount in dollars and cents: {text!r}")
    return value


def make(store: dict[str, Any], title: str, total: float, group: str,
         people: int) -> dict[str, Any]:
    if people < 2:
        raise ValueError(f"a split needs at least two people, got {people}")
    split = {"id": store["next_id"], "title": title.strip() or "Bill", "total": total,
             "group": group, "people": people, "each": share_of(total, people)}
    store["splits"].append(split)
    store["next_id"] += 1
    return split


def message(s: dict[str, Any]) -> str:
    """What "Share to chat" sends."""
    return (f"{s['title']}: ${s['total']:.2f} split {s['people']} ways, "
            f"${s['each']:.2f} each")


def split_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": s["id"], **{k: s[k] for k in ("title", "total", "group", "people",
                                                   "each")}} for s in store["splits"]]
