"""Parcel-tracking data: parcels on their way to the owner, each with a tracking timeline,
an expected day and a delivery option (home in a time window, or a pickup locker).

A parcel is ``{"id", "tracking", "sender", "item", "status", "day", "delivery",
"events": [[when, text]]}``; ``delivery`` is a home window ("Home, 9 AM - 12 PM") or
"Locker: <name>". Tasks read ``parcel/parcels``. Days and the timeline are generated around
the phone's start clock (``life.today``): a parcel in transit is expected two to five days
after it, the delivered one arrived the day before.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

SENDERS: tuple[tuple[str, str], ...] = (
    ("Northwind Books", "3 paperbacks"), ("Acme Outdoor", "Hiking boots"),
    ("Pixel Parts", "USB-C charger"), ("Green Thumb", "Herb seed kit"),
    ("Globex Home", "Desk lamp"), ("Soylent Kitchen", "Coffee grinder"),
    ("Hooli Store", "Wireless earbuds"), ("Wayne Apparel", "Rain jacket"),
)
WINDOWS: tuple[str, ...] = ("9 AM - 12 PM", "12 PM - 3 PM", "3 PM - 6 PM", "6 PM - 9 PM")
LOCKERS: tuple[str, ...] = ("Central Station locker", "City Library locker",
                            "Harbor Market locker")
#: the days a parcel in transit is expected, counted from the start day
DAYS_AHEAD: tuple[int, ...] = (2, 3, 4, 5)


def day_label(d: dt.date) -> str:
    """"Mon, Mar 16": how Parcel shows a day."""
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"


def moment(d: dt.date, hour: int, minute: int) -> str:
    """"Mar 11, 4:10 PM": a timeline entry's time."""
    t = dt.datetime.combine(d, dt.time(hour, minute))
    return f"{t.strftime('%b')} {t.day}, {t.strftime('%I:%M %p').lstrip('0')}"


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Three or four parcels in transit from different senders, plus one delivered."""
    today = life.today
    ago = {k: today - dt.timedelta(days=k) for k in (1, 2, 3)}
    idx = rng.choice(len(SENDERS), size=int(rng.integers(4, 6)), replace=False)
    parcels = []
    for k, i in enumerate(idx):
        sender, item = SENDERS[int(i)]
        delivered = k == len(idx) - 1
        day = day_label(ago[1] if delivered else today + dt.timedelta(
            days=DAYS_AHEAD[int(rng.integers(len(DAYS_AHEAD)))]))
        tracking = f"PW{int(rng.integers(10 ** 8, 10 ** 9))}"
        events = [[moment(ago[3], 16, 10), f"Label created by {sender}"],
                  [moment(ago[2], 8, 45), "Picked up by courier"]]
        if delivered:
            events.append([moment(ago[1], 14, 20), "Delivered to your door"])
        else:
            events.append([moment(ago[1], 23, 5), "Arrived at local depot"])
        parcels.append({"id": k + 1, "tracking": tracking, "sender": sender, "item": item,
                        "status": "Delivered" if delivered else "In transit", "day": day,
                        "delivery": f"Home, {WINDOWS[int(rng.integers(len(WINDOWS)))]}",
                        "events": events})
    return {"parcels": parcels}


def parcel(store: dict[str, Any], pid: int) -> dict[str, Any]:
    p = next((p for p in store["parcels"] if p["id"] == pid), None)
    if p is None:
        raise ValueError(f"no parcel with id {pid!r}")
    return p


def redirect(store: dict[str, Any], pid: int, delivery: str) -> None:
    """Change where or when a parcel in transit arrives (``ValueError`` for a delivered one
    or an option that does not exist)."""
    p = parcel(store, pid)
    if p["status"] != "In transit":
        raise ValueError(f"parcel {p['tracking']} is {p['status'].lower()}")
    options = {f"Home, {w}" for w in WINDOWS} | {f"Locker: {x}" for x in LOCKERS}
    if delivery not in options:
        raise ValueError(f"no delivery option {delivery!r}")
    p["delivery"] = delivery


def summary(p: dict[str, Any]) -> str:
    """What "Share to chat" sends."""
    return (f"Parcel {p['tracking']} from {p['sender']}: {p['status'].lower()}, "
            f"{p['day']}, {p['delivery']}")


def parcel_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": p["id"], **{k: p[k] for k in ("tracking", "sender", "item", "status",
                                                   "day", "delivery")}}
            for p in store["parcels"]]
