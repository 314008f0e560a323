"""Bike data: docking stations with bikes, and rides.

A station is ``{"id", "name", "bikes": [bike ids], "docks"}``; an e-bike's id starts "E-"
(two or three stations start with one, last in their list), a classic bike's "B-"; a ride
is ``{"id", "bike", "start", "end", "minutes", "fare", "status"}`` with ``status``
"active" (riding, ``end`` "") or "done". The clock is frozen, so a ride's time is the
map's riding time between the two stations (:func:`minutes_between`); the fare is an unlock
fee plus a price per minute. Tasks read ``bike/stations`` (with the count of ``ebikes``) and
``bike/rides``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.life import Life

NAMES: tuple[str, ...] = ("Central Station", "City Library", "Riverside Park", "Harbor Market",
                          "University Gate", "Old Town Square", "Museum Hill")
#: position of each station along a line through town (km): riding time follows distance
KM: tuple[float, ...] = (0.0, 1.1, 2.4, 3.0, 4.3, 5.2, 6.8)
UNLOCK_FEE = 1.00
PER_MINUTE = 0.15
MINUTES_PER_KM = 4


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Seven stations with 0-6 bikes each (at least four with bikes), one or two past rides,
    and an e-bike among the bikes of two or three stations that have two or more."""
    stations: list[dict[str, Any]] = []
    serial = int(rng.integers(1000, 8000))
    for i, name in enumerate(NAMES):
        n = int(rng.integers(0, 7)) if i % 2 else int(rng.integers(2, 7))
        bikes = [f"B-{serial + 13 * k}" for k in range(n)]
        serial += 13 * n + 7
        stations.append({"id": i + 1, "name": name, "bikes": bikes, "docks": 10})
    store: dict[str, Any] = {"stations": stations, "rides": [], "next_id": 1}
    for _ in range(int(rng.integers(1, 3))):
        a, b = (int(x) + 1 for x in rng.choice(len(NAMES), size=2, replace=False))
        mins = minutes_between(a, b)
        store["rides"].append({"id": store["next_id"], "bike": f"B-{int(rng.integers(1000, 9999))}",
                               "start": NAMES[a - 1], "end": NAMES[b - 1], "minutes": mins,
                               "fare": fare(mins), "status": "done"})
        store["next_id"] += 1
    roomy = [s for s in stations if len(s["bikes"]) >= 2]
    for i in rng.choice(len(roomy), size=min(len(roomy), int(rng.integers(2, 4))),
                        replace=False):
        bikes = roomy[int(i)]["bikes"]
        bikes[-1] = "E-" + bikes[-1][2:]
    return store


def electric(bike: str) -> bool:
    return bike.startswith("E-")


def battery(bike: str) -> int:
    """An e-bike's charge in percent (fixed by its number)."""
    return 35 + int(bike[2:]) % 60


def minutes_between(a: int, b: int) -> int:
    """Riding minutes between stations ``a`` and ``b`` (ids), at least 3."""
    return max(3, round(abs(KM[a - 1] - KM[b - 1]) * MINUTES_PER_KM))


def fare(minutes: int) -> float:
    return round(UNLOCK_FEE + PER_MINUTE * minutes, 2)


def station(store: dict[str, Any], sid: int) -> dict[str, Any]:
    s = next((s for s in store["stations"] if s["id"] == sid), None)
    if s is None:
        raise ValueError(f"no station with id {sid!r}")
    return s


def active(store: dict[str, Any]) -> dict[str, Any] | None:
    return next((r for r in store["rides"] if r["status"] == "active"), None)


def unlock(store: dict[str, Any], sid: int, bike: str) -> dict[str, Any]:
    """Take ``bike`` from station ``sid``: a ride starts (``ValueError`` when one is already
    active or the bike is not there)."""
    if active(store) is not None:
        raise ValueError("a ride is already active")
    s = station(store, sid)
    if bike not in s["bikes"]:
        raise ValueError(f"bike {bike!r} is not at {s['name']}")
    s["bikes"].remove(bike)
    ride = {"id": store["next_id"], "bike": bike, "start": s["name"], "end": "", "minutes": 0,
            "fare": 0.0, "status": "active"}
    store["rides"].append(ride)
    store["next_id"] += 1
    return ride


def end(store: dict[str, Any], sid: int) -> dict[str, Any]:
    """Dock the active ride's bike at station ``sid``: the ride is done, with its fare."""
    ride = active(store)
    if ride is None:
        raise ValueError("no active ride")
    s = station(store, sid)
    if len(s["bikes"]) >= s["docks"]:
        raise ValueError(f"{s['name']} has no free dock")
    start = next(x for x in store["stations"] if x["name"] == ride["start"])
    s["bikes"].append(ride["bike"])
    ride.update(end=s["name"], minutes=minutes_between(start["id"], sid), status="done")
    ride["fare"] = fare(ride["minutes"])
    return ride


def receipt(r: dict[str, Any]) -> str:
    """What "Share to chat" sends."""
    return (f"Bike ride {r['bike']}: {r['start']} to {r['end']}, {r['minutes']} min, "
            f"${r['fare']:.2f}")


def station_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": s["id"], "name": s["name"], "bikes": len(s["bikes"]),
             "ebikes": sum(electric(b) for b in s["bikes"]),
             "free_docks": s["docks"] - len(s["bikes"])} for s in store["stations"]]


def ride_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": r["id"], **{k: r[k] for k in ("bike", "start", "end", "minutes", "fare",
                                                   "status")}} for r in store["rides"]]
