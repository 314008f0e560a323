"""Movie-ticket data: films with showtimes (each with seats already sold) and bookings.

A showtime is ``{"id", "film", "day", "time", "price", "taken": [seat]}``; seats are named
row letter + number ("C4") in a 6 x 8 hall. A booking is ``{"id", "code", "film", "show",
"day", "time", "seats": [seat], "total"}``. Tasks read ``movies/bookings`` (and the static
``movies/showtimes``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.life import Life

ROWS = "ABCDEF"
COLS = 8
#: (title, genre, minutes, rating)
FILMS: tuple[tuple[str, str, int, str], ...] = (
    ("Starfall", "Sci-fi", 128, "PG-13"), ("The Quiet Harbor", "Drama", 112, "PG"),
    ("Laugh Track", "Comedy", 97, "PG-13"), ("Midnight Express Lane", "Thriller", 121, "R"),
    ("Paper Dragons", "Animation", 94, "G"),
)
TIMES = ("1:15 PM", "4:30 PM", "7:00 PM", "9:45 PM")
DAYS = ("Today", "Tomorrow")


def seat_names() -> list[str]:
    return [f"{r}{c}" for r in ROWS for c in range(1, COLS + 1)]


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Three showtimes a day per film (of four slots), each with 6-30 seats sold."""
    shows: list[dict[str, Any]] = []
    names = seat_names()
    for film, *_ in FILMS:
        for day in DAYS:
            for time in sorted(rng.choice(len(TIMES), size=3, replace=False)):
                taken = sorted(str(names[int(i)]) for i in rng.choice(
                    len(names), size=int(rng.integers(6, 31)), replace=False))
                shows.append({"id": len(shows) + 1, "film": film, "day": day,
                              "time": TIMES[int(time)], "taken": taken,
                              "price": 12.50 if TIMES[int(time)] != "1:15 PM" else 9.00})
    return {"shows": shows, "bookings": [], "next_id": 1,
            "next_code": int(rng.integers(1000, 9000))}


def show(store: dict[str, Any], sid: int) -> dict[str, Any]:
    s = next((s for s in store["shows"] if s["id"] == sid), None)
    if s is None:
        raise ValueError(f"no showtime with id {sid!r}")
    return s


def sold(store: dict[str, Any], sid: int) -> set[str]:
    """Seats no longer free at a showtime: sold before, or booked by the owner."""
    out = set(show(store, sid)["taken"])
    for b in store["bookings"]:
        if b["show"] == sid:
            out.update(b["seats"])
    return out


def book(store: dict[str, Any], sid: int, seats: list[str]) -> dict[str, Any]:
    """Buy tickets for ``seats`` (``ValueError`` for none, an unknown or a sold seat)."""
    if not seats:
        raise ValueError("choose at least one seat")
    names = set(seat_names())
    bad = [x for x in seats if x not in names]
    if bad:
        raise ValueError(f"no seats {bad} in this hall")
    gone = sorted(set(seats) & sold(store, sid))
    if gone:
        raise ValueError(f"seats {gone} are already sold")
    s = show(store, sid)
    order = sorted(seats, key=lambda x: (x[0], int(x[1:])))
    b = {"id": store["next_id"], "code": f"CG{store['next_code']}", "film": s["film"],
         "show": sid, "day": s["day"], "time": s["time"], "seats": order,
         "total": round(s["price"] * len(order), 2)}
    store["bookings"].append(b)
    store["next_id"] += 1
    store["next_code"] += 7
    return b


def summary(b: dict[str, Any]) -> str:
    """What "Share to chat" sends."""
    return (f"{b['film']}, {b['day'].lower()} {b['time']}: seats {', '.join(b['seats'])} "
            f"(booking {b['code']})")


def booking_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": b["id"], "code": b["code"], "film": b["film"], "day": b["day"],
             "time": b["time"], "seats": ", ".join(b["seats"]), "count": len(b["seats"]),
             "total": b["total"]} for b in store["bookings"]]


def show_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": s["id"], "film": s["film"], "day": s["day"], "time": s["time"],
             "price": s["price"], "sold": len(s["taken"]), "taken": ", ".join(s["taken"])}
            for s in store["shows"]]
