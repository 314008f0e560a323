"""Bill-payment data: the household's utility bills, each due or paid.

A bill is ``{"id", "biller", "account", "amount", "due", "status", "paid_on"}``; ``status``
is "Due" or "Paid" (``paid_on`` the clock's date when paid through the app). The bills
are generated around the phone's start clock (``life.today``; by default Saturday 2026-03-14):
due in the next two weeks, the paid ones paid twelve days ago. Tasks read ``bills/bills``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

#: (biller, kind, glyph, low, high) of a monthly bill in dollars
BILLERS: tuple[tuple[str, str, str, int, int], ...] = (
    ("City Power", "Electricity", "bolt", 45, 140), ("Clearwater", "Water", "bottle_droplet",
                                                     20, 60),
    ("FastNet", "Internet", "wifi", 40, 90), ("Mobile One", "Phone", "mobile", 25, 80),
    ("Metro Gas", "Gas", "fire", 30, 110),
)
#: the days from today a bill may be due on
DUE_IN = (4, 6, 8, 11, 14)
#: how many days ago the bills already paid were paid
PAID_AGO = 12


def day_label(d: dt.date) -> str:
    """"Mar 18": how a due date is shown."""
    return f"{d.strftime('%b')} {d.day}"


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Five bills with seeded amounts and due dates (in the two weeks after ``life.today``),
    one or two already paid."""
    today = life.today
    paid = set(int(i) for i in rng.choice(len(BILLERS), size=int(rng.integers(1, 3)),
                                          replace=False))
    bills = []
    for i, (biller, kind, _, lo, hi) in enumerate(BILLERS):
        bills.append({"id": i + 1, "biller": biller, "kind": kind,
                      "account": f"{int(rng.integers(10 ** 7, 10 ** 8))}",
                      "amount": round(float(rng.integers(lo * 100, hi * 100)) / 100, 2),
                      "due": day_label(today + dt.timedelta(
                          days=DUE_IN[int(rng.integers(len(DUE_IN)))])),
                      "status": "Paid" if i in paid else "Due",
                      "paid_on": (today - dt.timedelta(days=PAID_AGO)).isoformat()
                      if i in paid else ""})
    return {"bills": bills}


def bill(store: dict[str, Any], bid: int) -> dict[str, Any]:
    b = next((b for b in store["bills"] if b["id"] == bid), None)
    if b is None:
        raise ValueError(f"no bill with id {bid!r}")
    return b


def pay(store: dict[str, Any], bid: int, today: str) -> dict[str, Any]:
    """Pay a bill in full on ``today`` (the clock's ISO date or date-time; ``ValueError`` when
    it is already paid)."""
    b = bill(store, bid)
    if b["status"] == "Paid":
        raise ValueError(f"the {b['biller']} bill is already paid")
    b["status"], b["paid_on"] = "Paid", today[:10]
    return b


def receipt(b: dict[str, Any]) -> str:
    """What "Share to chat" sends."""
    return f"Paid the {b['kind'].lower()} bill ({b['biller']}): ${b['amount']:.2f}"


def bill_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": b["id"], **{k: b[k] for k in ("biller", "kind", "account", "amount", "due",
                                                   "status", "paid_on")}}
            for b in store["bills"]]
