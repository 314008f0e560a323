"""Fitness data: tracked and logged activities, two goals and the daily step counts.

The store is ``{"activities": [...], "goals": {...}, "steps": {...}, "profile": {...},
"next_id": int}``. An activity is ``{id, type, start, duration, distance, calories, route,
source}``: ``type`` one of :data:`TYPES`, ``start`` a local ISO minute
("2026-03-13T07:05"), ``duration`` whole minutes, ``distance`` kilometres (two decimals),
``calories`` kcal, ``route`` a name ("" for a manual entry without one) and ``source``
"Tracked" or "Manual". ``goals`` holds ``daily_steps`` and ``weekly_active_minutes``;
``steps`` maps the last 28 days (ISO dates) to a step count (read-only history).

Tables (PhoneWorld-only: a real phone's fitness app keeps its data private):
``fitness/activities`` (``_id``, ``type``, ``start``, ``duration_min``, ``distance_km``,
``calories``, ``route``, ``source``), ``fitness/goals`` (``_id``, ``goal``, ``target``) and
the static ``fitness/steps`` (``_id``, ``date``, ``steps``).

Weeks run Monday to Sunday. The history is generated around the phone's start clock
(``life.now``; by default Saturday 2026-03-14 10:30): five weeks up to that moment, the
steps of the 28 days up to that day. Screens and handlers count "today", "this week" and
"now" from the running clock (``ctx.time()``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life
from phoneworld_gym.world import START

TYPES: tuple[str, ...] = ("walk", "run", "ride", "swim")
LABELS = {"walk": "Walk", "run": "Run", "ride": "Ride", "swim": "Swim"}
ICONS = {"walk": "person_walking", "run": "person_running", "ride": "person_biking",
         "swim": "person_swimming"}
#: energy cost (MET) of each activity, for calories = MET x weight (kg) x hours
MET = {"walk": 3.8, "run": 9.8, "ride": 7.5, "swim": 7.0}
#: goal name -> (label, smallest, largest, step)
GOALS: dict[str, tuple[str, int, int, int]] = {
    "daily_steps": ("Daily steps", 2000, 20000, 500),
    "weekly_active_minutes": ("Weekly active minutes", 60, 900, 10),
}
HISTORY_DAYS = 35
MAX_DURATION = 1440
MAX_DISTANCE = 500.0


# -- generation -------------------------------------------------------------------------------
def _routes(life: Life) -> dict[str, list[str]]:
    """Route names per activity type, some from the owner's own streets and town."""
    home = life.owner.home
    street = home.street.split(" ", 1)[1] if home is not None and " " in home.street \
        else "Park"
    city = home.city if home is not None else "City"
    work = life.work.street.split(" ", 1)[1] if " " in life.work.street else life.work.street
    return {
        "walk": ["Lunch walk", f"{street} loop", "Dog walk", "Riverside stroll",
                 "Walk to the market"],
        "run": ["Riverside loop", "Park 5K", f"{street} hills", "Track intervals",
                "Reservoir run", "Lake trail"],
        "ride": ["Lakeshore ride", f"Commute to {work}", "Hill repeats", "Coffee ride",
                 "Greenway out-and-back"],
        "swim": [f"{city} Aquatic Center", "Community pool", "Lake swim"],
    }


def _one(rng: np.random.Generator, kind: str, day: dt.date, routes: dict[str, list[str]],
         weight: float) -> dict[str, Any]:
    """One seeded activity of ``kind`` on ``day`` (not yet numbered)."""
    if kind == "run":
        km = float(rng.uniform(4.0, 14.0))
        minutes = km * float(rng.uniform(4.9, 6.4))
        hours = (6, 7, 18) if day.weekday() < 5 else (8, 9)
    elif kind == "walk":
        km = float(rng.uniform(1.8, 6.5))
        minutes = km * float(rng.uniform(10.5, 13.0))
        hours = (12, 17, 19) if day.weekday() < 5 else (10, 15, 17)
    elif kind == "ride":
        km = float(rng.uniform(12.0, 48.0))
        minutes = km / float(rng.uniform(18.0, 26.0)) * 60
        hours = (7, 17) if day.weekday() < 5 else (8, 9)
    else:
        km = float(rng.uniform(0.8, 2.4))
        minutes = km * 10 * float(rng.uniform(2.1, 3.0))
        hours = (7, 19)
    hour = int(hours[int(rng.integers(len(hours)))])
    start = dt.datetime.combine(day, dt.time(hour, 5 * int(rng.integers(0, 12))))
    duration = max(5, int(round(minutes)))
    pool = routes[kind]
    return {"type": kind, "start": start.isoformat(timespec="minutes"), "duration": duration,
            "distance": round(km, 2), "calories": calories(kind, duration, weight),
            "route": pool[int(rng.integers(len(pool)))], "source": "Tracked"}


def calories(kind: str, minutes: int, weight: float) -> int:
    """Energy of ``minutes`` of ``kind`` for someone of ``weight`` kg (MET formula)."""
    return int(round(MET[kind] * weight * minutes / 60))


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Five weeks of history up to the phone's start (``life.now``): runs, walks, a ride or
    two and a swim most weeks (at least one run this month before today, a ride last week and
    one in the two weeks before, one of each type), goals and daily steps."""
    now, today = life.now, life.today
    weight = float(round(rng.uniform(58, 88)))
    routes = _routes(life)
    acts: list[dict[str, Any]] = []
    for back in range(HISTORY_DAYS, -1, -1):
        day = today - dt.timedelta(days=back)
        plan: list[str] = []
        if rng.random() < 0.38:
            plan.append("run")
        if rng.random() < 0.45:
            plan.append("walk")
        if rng.random() < (0.45 if day.weekday() >= 5 else 0.12):
            plan.append("ride")
        if rng.random() < 0.12:
            plan.append("swim")
        for kind in plan[:2]:
            acts.append(_one(rng, kind, day, routes, weight))
    last_monday = today - dt.timedelta(days=today.weekday() + 7)
    needs = [("run", today.replace(day=1), today - dt.timedelta(days=1)),
             ("ride", last_monday, last_monday + dt.timedelta(days=6)),
             ("ride", last_monday - dt.timedelta(days=14), last_monday - dt.timedelta(days=1)),
             ("walk", today - dt.timedelta(days=20), today - dt.timedelta(days=1)),
             ("swim", today - dt.timedelta(days=20), today - dt.timedelta(days=1))]
    for kind, lo, hi in needs:
        if hi < lo:  # the 1st of a month: this month's run is one done this morning
            lo = hi = today
        if not any(a["type"] == kind and lo <= day_of(a) <= hi and end_of(a) <= now
                   for a in acts):
            span = (hi - lo).days
            a = _one(rng, kind, lo + dt.timedelta(days=int(rng.integers(span + 1))), routes,
                     weight)
            if end_of(a) > now:  # today's: moved to end by now (dropped when it cannot)
                t = now - dt.timedelta(minutes=int(a["duration"]) + 5)
                t -= dt.timedelta(minutes=t.minute % 5, seconds=t.second,
                                  microseconds=t.microsecond)
                if t.date() == today:
                    a["start"] = t.isoformat(timespec="minutes")
            acts.append(a)
    acts = [a for a in acts if end_of(a) <= now]
    acts.sort(key=lambda a: a["start"])
    for i, a in enumerate(acts, start=1):
        a["id"] = i
    steps = {(today - dt.timedelta(days=b)).isoformat(): int(rng.integers(2500, 14500))
             for b in range(27, 0, -1)}
    steps[today.isoformat()] = int(rng.integers(1800, 6200))
    owner = life.owner
    return {"activities": acts, "next_id": len(acts) + 1,
            "goals": {"daily_steps": int(rng.choice([6000, 7000, 7500, 8000, 10000])),
                      "weekly_active_minutes": int(rng.choice([120, 150, 180]))},
            "steps": steps,
            "profile": {"name": f"{owner.first} {owner.last}", "weight": weight,
                        "height": int(rng.integers(158, 192))}}


# -- reading ----------------------------------------------------------------------------------
def start_of(a: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(a["start"])


def day_of(a: dict[str, Any]) -> dt.date:
    return start_of(a).date()


def end_of(a: dict[str, Any]) -> dt.datetime:
    return start_of(a) + dt.timedelta(minutes=int(a["duration"]))


def find(st: dict[str, Any], aid: Any) -> dict[str, Any] | None:
    return next((a for a in st["activities"] if a["id"] == aid), None)


def title(a: dict[str, Any]) -> str:
    """"Morning run", "Afternoon walk", "Evening ride", as Fit names a session."""
    h = start_of(a).hour
    part = "Morning" if h < 12 else "Afternoon" if h < 17 else "Evening"
    return f"{part} {a['type']}"


def week_start(d: dt.date) -> dt.date:
    """The Monday of ``d``'s week."""
    return d - dt.timedelta(days=d.weekday())


def period(kind: str, offset: int, today: dt.date) -> tuple[dt.date, dt.date]:
    """First and last day of the week (``kind`` "week") or month ("month") ``offset``
    periods before the one ``today`` is in."""
    if kind == "week":
        first = week_start(today) - dt.timedelta(days=7 * offset)
        return first, first + dt.timedelta(days=6)
    y, m = today.year, today.month - offset
    while m < 1:
        y, m = y - 1, m + 12
    first = dt.date(y, m, 1)
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return first, nxt - dt.timedelta(days=1)


def in_period(st: dict[str, Any], first: dt.date, last: dt.date,
              kind: str = "all") -> list[dict[str, Any]]:
    """Activities between ``first`` and ``last`` (inclusive) of type ``kind`` ("all": any),
    newest first."""
    rows = [a for a in st["activities"] if first <= day_of(a) <= last
            and (kind == "all" or a["type"] == kind)]
    return sorted(rows, key=lambda a: (a["start"], a["id"]), reverse=True)


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Count, distance (km), minutes and calories of ``rows``."""
    return {"count": len(rows), "distance": round(sum(a["distance"] for a in rows), 2),
            "minutes": sum(int(a["duration"]) for a in rows),
            "calories": sum(int(a["calories"]) for a in rows)}


def records(st: dict[str, Any]) -> list[tuple[str, dict[str, Any] | None, str]]:
    """Personal records: (label, activity or None, value text): the longest walk, run, ride
    and swim, the longest session and the most calories burned in one."""
    out: list[tuple[str, dict[str, Any] | None, str]] = []
    acts = st["activities"]
    for kind in TYPES:
        rows = [a for a in acts if a["type"] == kind]
        best = max(rows, key=lambda a: (a["distance"], -a["id"])) if rows else None
        out.append((f"Longest {kind}", best, km_text(best["distance"]) if best else "—"))
    longest = max(acts, key=lambda a: (a["duration"], -a["id"])) if acts else None
    out.append(("Longest session", longest, duration_text(longest["duration"]) if longest
                else "—"))
    burn = max(acts, key=lambda a: (a["calories"], -a["id"])) if acts else None
    out.append(("Most calories", burn, f"{burn['calories']:,} Cal" if burn else "—"))
    return out


def km_text(km: float) -> str:
    return f"{km:.2f} km"


def duration_text(minutes: int) -> str:
    """"45 min", "1 h 05 min"."""
    h, m = divmod(int(minutes), 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"


def pace_text(a: dict[str, Any]) -> str:
    """Pace for walks and runs ("5:42 /km"), speed for rides ("21.3 km/h"), pace per 100 m
    for swims ("2:35 /100 m")."""
    km, minutes = float(a["distance"]), int(a["duration"])
    if km <= 0:
        return "—"
    if a["type"] == "ride":
        return f"{km / (minutes / 60):.1f} km/h"
    per = minutes / (km * 10) if a["type"] == "swim" else minutes / km
    mm, ss = divmod(int(round(per * 60)), 60)
    return f"{mm}:{ss:02d} /100 m" if a["type"] == "swim" else f"{mm}:{ss:02d} /km"


def week_minutes(st: dict[str, Any], today: dt.date) -> int:
    """Active minutes in ``today``'s week (Monday to Sunday: none come after now)."""
    first, last = period("week", 0, today)
    return totals(in_period(st, first, last))["minutes"]


# -- writing ----------------------------------------------------------------------------------
def add(st: dict[str, Any], kind: str, start: dt.datetime, duration: int, distance: float,
        route: str = "", source: str = "Manual") -> dict[str, Any]:
    """A new activity (calories from the profile's weight)."""
    a = {"id": st["next_id"], "type": kind, "start": start.isoformat(timespec="minutes"),
         "duration": int(duration), "distance": round(float(distance), 2),
         "calories": calories(kind, int(duration), float(st["profile"]["weight"])),
         "route": route, "source": source}
    st["next_id"] += 1
    st["activities"].append(a)
    return a


def delete(st: dict[str, Any], aid: int) -> None:
    st["activities"] = [a for a in st["activities"] if a["id"] != aid]


def check_entry(kind: str, start: dt.datetime | None, duration: str, distance: str,
                now: dt.datetime) -> tuple[str, int, float]:
    """Validate a manual entry at the phone's time ``now``: ("", minutes, km) or (the error
    to show, 0, 0)."""
    if kind not in TYPES:
        return "Choose an activity type", 0, 0.0
    if start is None:
        return "Choose a start time", 0, 0.0
    if start > now:
        return "You can't log an activity that hasn't happened yet", 0, 0.0
    d = duration.strip()
    if not d.isdigit() or not 1 <= int(d) <= MAX_DURATION:
        return f"Enter a duration in minutes (1 to {MAX_DURATION})", 0, 0.0
    if start + dt.timedelta(minutes=int(d)) > now:
        return "The activity can't end after now", 0, 0.0
    text = distance.strip().replace(",", ".").removesuffix("km").strip()
    try:
        km = float(text) if text else 0.0
    except ValueError:
        return "Enter the distance in kilometres, like 5.2", 0, 0.0
    if not 0 <= km <= MAX_DISTANCE or km != km:
        return f"Enter a distance from 0 to {MAX_DISTANCE:.0f} km", 0, 0.0
    return "", int(d), km


def snap_goal(goal: str, value: int) -> int:
    """``value`` clamped to the goal's range and rounded to its step."""
    _, lo, hi, step = GOALS[goal]
    return max(lo, min(hi, lo + round((value - lo) / step) * step))


# -- tables -----------------------------------------------------------------------------------
def activity_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``fitness/activities`` table, by ``_id``."""
    return [{"_id": a["id"], "type": a["type"], "start": a["start"],
             "duration_min": a["duration"], "distance_km": a["distance"],
             "calories": a["calories"], "route": a["route"], "source": a["source"]}
            for a in sorted(st["activities"], key=lambda a: a["id"])]


def goal_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``fitness/goals`` table: one row per goal."""
    return [{"_id": i, "goal": g, "target": int(st["goals"][g])}
            for i, g in enumerate(GOALS, start=1)]


def step_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The static ``fitness/steps`` table: steps per day, oldest first."""
    return [{"_id": i, "date": d, "steps": n}
            for i, (d, n) in enumerate(sorted(st["steps"].items()), start=1)]


# -- fixtures ---------------------------------------------------------------------------------
def add_activity_fixture(st: dict[str, Any], type: Any = None,  # noqa: A002
                         start: Any = None, duration: Any = None, distance: Any = 0.0,
                         route: Any = "", now: Any = None) -> dict[str, Any]:
    """Setup routine: add a tracked activity that ended by ``now`` (the phone's time as an
    ISO date-time: a task passes ``probe.now()``; when left out, the default start clock
    :data:`phoneworld_gym.world.START`, as a fixture sees only the store). Returns its
    ``_id``; a bad argument raises ``ValueError`` naming it and changes nothing."""
    if type not in TYPES:
        raise ValueError(f"add_activity: type must be one of {TYPES}, got {type!r}")
    try:
        when = dt.datetime.fromisoformat(start) if isinstance(start, str) else None
    except ValueError:
        when = None
    if when is None:
        raise ValueError(f"add_activity: start must be an ISO date-time, got {start!r}")
    if not isinstance(duration, int) or isinstance(duration, bool) \
            or not 1 <= duration <= MAX_DURATION:
        raise ValueError(f"add_activity: duration must be 1..{MAX_DURATION} minutes, "
                         f"got {duration!r}")
    try:
        until = START if now is None else dt.datetime.fromisoformat(now)
    except (TypeError, ValueError):
        raise ValueError(f"add_activity: now must be an ISO date-time, got {now!r}") from None
    if when + dt.timedelta(minutes=duration) > until:
        raise ValueError(f"add_activity: start {start!r} + duration ends after now "
                         f"({until.isoformat()})")
    if not isinstance(distance, (int, float)) or isinstance(distance, bool) \
            or not 0 <= distance <= MAX_DISTANCE:
        raise ValueError(f"add_activity: distance must be 0..{MAX_DISTANCE} km, "
                         f"got {distance!r}")
    if not isinstance(route, str):
        raise ValueError(f"add_activity: route must be a string, got {route!r}")
    a = add(st, type, when, duration, float(distance), route, source="Tracked")
    return {"_id": a["id"]}


def set_goal_fixture(st: dict[str, Any], goal: Any = None, target: Any = None) -> dict[str, Any]:
    """Setup routine: set a goal to a value on its scale. A bad argument raises
    ``ValueError`` naming it and changes nothing."""
    if goal not in GOALS:
        raise ValueError(f"set_goal: goal must be one of {list(GOALS)}, got {goal!r}")
    if not isinstance(target, int) or isinstance(target, bool) \
            or snap_goal(goal, target) != target:
        _, lo, hi, step = GOALS[goal]
        raise ValueError(f"set_goal: target must be {lo}..{hi} in steps of {step}, "
                         f"got {target!r}")
    st["goals"][goal] = target
    return {"goal": goal, "target": target}
