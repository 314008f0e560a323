"""Clock data: alarms (served as the common ``alarms`` table with Android's columns), world
clock cities, the timer and the stopwatch.

An alarm is ``{"id", "hour" (0..23), "minutes", "label", "enabled" (bool), "days"}`` where
``days`` is a list of two-letter day codes in week order (``["MO", "WE"]``; empty for a
one-time alarm). The ``alarms`` rows carry ``days`` as the codes joined with commas
(``"MO,WE"``), ``enabled`` as 0/1, ordered by ``_id`` (a time change never reorders rows).

The timer and the stopwatch run on the phone's clock (which moves with every action, see
:data:`phoneworld_gym.contract.ACTION_SECONDS`): each keeps what it showed when it last started
or stopped (``left`` / ``elapsed`` seconds) and the clock time it started (``since``, empty
when it is not running), and a screen works out the digits from the clock. The timer's
``seconds`` is the length it was set to; after it runs out it counts on below zero ("Time's
up"), as Android's does. The stopwatch's ``splits`` are its total at each lap.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.app import TableWriter
from phoneworld_gym.life import Life

DAYS: tuple[str, ...] = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
#: one-letter chips, as the Clock app shows them, Sunday first
CHIPS: tuple[tuple[str, str, str], ...] = (
    ("SU", "S", "Sunday"), ("MO", "M", "Monday"), ("TU", "T", "Tuesday"),
    ("WE", "W", "Wednesday"), ("TH", "T", "Thursday"), ("FR", "F", "Friday"),
    ("SA", "S", "Saturday"))
DAY_NAMES = {code: name for code, _, name in CHIPS}

#: world clock cities: name -> (offset from the phone's zone in minutes, country). The
#: offsets are fixed, whatever the date: the ones of mid-March (North America already on
#: summer time, Europe still on standard time, Auckland and Sydney still on summer time),
#: not looked up per date in a time-zone database
CITIES: dict[str, tuple[int, str]] = {
    "Auckland": (780, "New Zealand"), "Berlin": (60, "Germany"), "Cairo": (120, "Egypt"),
    "Chicago": (-300, "United States"), "Dubai": (240, "United Arab Emirates"),
    "Hong Kong": (480, "China"), "Honolulu": (-600, "United States"),
    "London": (0, "United Kingdom"), "Los Angeles": (-420, "United States"),
    "Mexico City": (-360, "Mexico"), "Moscow": (180, "Russia"), "Mumbai": (330, "India"),
    "New York": (-240, "United States"), "Paris": (60, "France"),
    "São Paulo": (-180, "Brazil"), "Seoul": (540, "South Korea"),
    "Singapore": (480, "Singapore"), "Sydney": (660, "Australia"),
    "Tokyo": (540, "Japan"), "Toronto": (-240, "Canada"),
}
TIMER_DEFAULT = 300  # seconds


def days_text(days: list[str]) -> str:
    """How a card states its repeat days: Not scheduled / Every day / Weekdays / Mon, Wed."""
    ds = [d for d in DAYS if d in days]
    if not ds:
        return "Not scheduled"
    if len(ds) == 7:
        return "Every day"
    if ds == list(DAYS[:5]):
        return "Weekdays"
    if ds == ["SA", "SU"]:
        return "Weekends"
    return ", ".join(DAY_NAMES[d][:3] for d in ds)


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Four to six alarms at plausible times (a weekday wake-up, a weekend one, a gym or
    medicine reminder, a one-off about someone from the life), one or two world clocks."""
    friend = life.people[int(rng.integers(len(life.people)))].first if life.people else "Sam"
    wake_h, wake_m = int(rng.choice([5, 6, 6, 7, 7, 8])), int(rng.choice([0, 15, 30, 45]))
    pool: list[tuple[int, int, str, bool, list[str]]] = [
        (wake_h, wake_m, "Wake up", True, list(DAYS[:5])),
        (int(rng.choice([8, 9, 10])), int(rng.choice([0, 30])), "", bool(rng.random() < 0.6),
         ["SA", "SU"]),
        (int(rng.choice([5, 6, 17, 18])), int(rng.choice([0, 10, 20, 40, 50])), "Gym",
         bool(rng.random() < 0.7), ["MO", "WE", "FR"]),
        (int(rng.choice([20, 21, 22])), int(rng.choice([0, 15, 30, 45])), "Take medicine",
         True, list(DAYS)),
        (int(rng.integers(11, 20)), int(rng.choice([0, 5, 25, 35, 55])), f"Call {friend}",
         bool(rng.random() < 0.5), []),
        (int(rng.integers(12, 17)), int(rng.choice([0, 30])), "Pick up laundry", False,
         [DAYS[int(rng.integers(7))]]),
    ]
    keep = sorted(rng.choice(len(pool), size=int(rng.integers(4, 7)), replace=False))
    alarms = []
    for i, k in enumerate(keep):
        h, m, label, on, days = pool[int(k)]
        alarms.append({"id": i + 1, "hour": h, "minutes": m, "label": label, "enabled": on,
                       "days": days})
    names = sorted(CITIES)
    cities = sorted(str(c) for c in rng.choice(names, size=int(rng.integers(1, 3)),
                                                 replace=False))
    return {"alarms": alarms, "next_id": len(alarms) + 1, "cities": cities,
            "timer": new_timer(),
            "stopwatch": new_stopwatch()}


# -- timer and stopwatch -----------------------------------------------------------------------
def new_timer(seconds: int = TIMER_DEFAULT) -> dict[str, Any]:
    return {"seconds": seconds, "state": "reset", "left": seconds, "since": ""}


def new_stopwatch() -> dict[str, Any]:
    return {"state": "reset", "laps": 0, "elapsed": 0, "since": "", "splits": []}


def _ran(since: str, now: str) -> int:
    """Whole seconds from clock time ``since`` to ``now`` (0 when ``since`` is empty)."""
    if not since:
        return 0
    return int((dt.datetime.fromisoformat(now) - dt.datetime.fromisoformat(since))
               .total_seconds())


def timer_left(t: dict[str, Any], now: str) -> int:
    """Seconds the timer has left at ``now`` (below zero once it has run out)."""
    return int(t["left"]) - (_ran(t["since"], now) if t["state"] == "running" else 0)


def timer_start(t: dict[str, Any], now: str) -> None:
    t.update(state="running", since=now)


def timer_pause(t: dict[str, Any], now: str) -> None:
    t.update(state="paused", left=timer_left(t, now), since="")


def timer_reset(t: dict[str, Any]) -> None:
    """Back to the length it was set to, stopped."""
    t.update(state="reset", left=t["seconds"], since="")


def timer_add(t: dict[str, Any], seconds: int) -> None:
    """+1:00 / −1:00: a stopped timer's length changes (one minute to 99 hours); a started
    one gets a minute more to run."""
    if t["state"] == "reset":
        t["seconds"] = max(60, min(99 * 3600, int(t["seconds"]) + seconds))
        t["left"] = t["seconds"]
    else:
        t["left"] = int(t["left"]) + seconds


def stopwatch_elapsed(s: dict[str, Any], now: str) -> int:
    """Seconds the stopwatch shows at ``now``."""
    return int(s["elapsed"]) + (_ran(s["since"], now) if s["state"] == "running" else 0)


def stopwatch_start(s: dict[str, Any], now: str) -> None:
    s.update(state="running", since=now)


def stopwatch_pause(s: dict[str, Any], now: str) -> None:
    s.update(state="paused", elapsed=stopwatch_elapsed(s, now), since="")


def stopwatch_lap(s: dict[str, Any], now: str) -> None:
    s["splits"] = [*s["splits"], stopwatch_elapsed(s, now)]
    s["laps"] = len(s["splits"])


def stopwatch_reset(s: dict[str, Any]) -> None:
    s.update(new_stopwatch())


def duration_text(seconds: int) -> str:
    """``1:05:09``, ``5:09``, ``−0:12`` (below zero)."""
    sign = "−" if seconds < 0 else ""
    h, rem = divmod(abs(seconds), 3600)
    m, s = divmod(rem, 60)
    return sign + (f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}")


def sorted_alarms(store: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(store["alarms"], key=lambda a: (a["hour"], a["minutes"], a["id"]))


def find(store: dict[str, Any], aid: int) -> dict[str, Any] | None:
    return next((a for a in store["alarms"] if a["id"] == aid), None)


def add(store: dict[str, Any], hour: int, minutes: int, label: str = "", enabled: bool = True,
        days: list[str] | None = None) -> dict[str, Any]:
    a = {"id": store["next_id"], "hour": hour, "minutes": minutes, "label": label,
         "enabled": enabled, "days": [d for d in DAYS if d in (days or [])]}
    store["alarms"].append(a)
    store["next_id"] += 1
    return a


def delete(store: dict[str, Any], aid: int) -> None:
    store["alarms"] = [a for a in store["alarms"] if a["id"] != aid]


# -- tables --------------------------------------------------------------------------------
def alarm_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``alarms`` rows (Android columns), by ``_id``."""
    return [{"_id": a["id"], "hour": a["hour"], "minutes": a["minutes"], "label": a["label"],
             "enabled": 1 if a["enabled"] else 0, "days": ",".join(a["days"])}
            for a in sorted(store["alarms"], key=lambda a: a["id"])]


def city_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": c, "offset_minutes": CITIES[c][0]} for c in store["cities"]]


def timer_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """The timer (``seconds``: its length; ``left``: seconds left when it last started or
    stopped) and the stopwatch (``seconds``: its total when it last stopped; ``laps``), each
    with its ``state`` and the clock time it started (``since``, empty when not running)."""
    t, s = store["timer"], store["stopwatch"]
    return [{"_id": "timer", "seconds": t["seconds"], "state": t["state"], "left": t["left"],
             "since": t["since"]},
            {"_id": "stopwatch", "seconds": s["elapsed"], "state": s["state"],
             "laps": s["laps"], "since": s["since"]}]


def _days(v: Any) -> list[str]:
    if isinstance(v, (list, tuple)):
        parts = [str(x) for x in v]
    else:
        parts = [p for p in str(v).replace(" ", "").split(",") if p]
    parts = [p.upper() for p in parts]
    bad = [p for p in parts if p not in DAYS]
    if bad:
        raise ValueError(f"alarms: days must be codes from {DAYS} joined by commas, got {v!r}")
    return [d for d in DAYS if d in parts]


def _fields(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for col, v in values.items():
        if col == "hour":
            if not (isinstance(v, int) and 0 <= v <= 23):
                raise ValueError(f"alarms: hour must be an int 0..23, got {v!r}")
            out["hour"] = int(v)
        elif col == "minutes":
            if not (isinstance(v, int) and 0 <= v <= 59):
                raise ValueError(f"alarms: minutes must be an int 0..59, got {v!r}")
            out["minutes"] = int(v)
        elif col == "label":
            out["label"] = str(v)
        elif col == "enabled":
            out["enabled"] = bool(int(v))
        elif col == "days":
            out["days"] = _days(v)
        else:
            raise ValueError(f"alarms has no writable column {col!r}")
    return out


def _insert(store: dict[str, Any], row: dict[str, Any]) -> int:
    f = _fields({k: v for k, v in row.items() if k != "_id"})
    if "hour" not in f or "minutes" not in f:
        raise ValueError("an alarm needs hour and minutes")
    return int(add(store, f["hour"], f["minutes"], f.get("label", ""), f.get("enabled", True),
                   f.get("days", []))["id"])


def _update(store: dict[str, Any], row_id: Any, values: dict[str, Any]) -> None:
    a = find(store, int(row_id))
    if a is None:
        raise ValueError(f"no alarms row with _id {row_id!r}")
    a.update(_fields(values))


def _delete(store: dict[str, Any], row_id: Any) -> None:
    if find(store, int(row_id)) is None:
        raise ValueError(f"no alarms row with _id {row_id!r}")
    delete(store, int(row_id))


WRITER = TableWriter(insert=_insert, update=_update, delete=_delete)
