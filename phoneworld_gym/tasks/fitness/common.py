"""Shared pieces of the Fitness tasks: the rows of ``fitness/activities`` (``_id``, ``type``,
``start``, ``duration_min``, ``distance_km``, ``calories``, ``route``, ``source``) and
``fitness/goals`` (``_id``, ``goal``, ``target``), how the app names things on screen
("Morning run", "Sat, Mar 7") and the usual UI paths (the journal on a given week or month
and type, an activity's page, "Add activity" with its date and time pickers, a goal's
slider).

A real phone's fitness app keeps its data private, so these tasks run on PhoneWorld only.
Weeks run Monday to Sunday, counted from the phone's date (``probe.now()``: by default
Saturday 2026-03-14 10:30): a goal's "this week" and "last week" are the episode's start
day's (``Task.start_day()``); the UI paths count the journal's periods from the phone's
date when they tap.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Generator, Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of, type_into
from phoneworld_gym.tasks.kit import clock, day_words, open_root, pick_date, short_day, today  # noqa: F401 (day_words, clock: re-exported)
from phoneworld_gym.tasks.settings.common import set_slider

LABELS = {"walk": "Walk", "run": "Run", "ride": "Ride", "swim": "Swim"}
#: goal -> (_id in fitness/goals, label, smallest, largest, step), as the app's editor shows
GOALS = {"daily_steps": (1, "Daily steps", 2000, 20000, 500),
         "weekly_active_minutes": (2, "Weekly active minutes", 60, 900, 10)}


def start(r: Row) -> dt.datetime:
    return dt.datetime.fromisoformat(str(r["start"]))


def title(r: Row) -> str:
    """"Morning run": how the journal names an activity (by the hour it started)."""
    h = start(r).hour
    part = "Morning" if h < 12 else "Afternoon" if h < 17 else "Evening"
    return f"{part} {r['type']}"





def week_start(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


def weeks_back(d: dt.date, now: dt.date) -> int:
    """How many weeks before ``now``'s week ``d``'s week is."""
    return (week_start(now) - week_start(d)).days // 7


def last_week(now: dt.date) -> tuple[dt.date, dt.date]:
    """The Monday and the Sunday of the week before ``now``'s."""
    first = week_start(now) - dt.timedelta(days=7)
    return first, first + dt.timedelta(days=6)


def this_month(now: dt.date) -> tuple[dt.date, dt.date]:
    """The first of ``now``'s month and ``now``."""
    return now.replace(day=1), now


def in_days(rows: list[Row], first: dt.date, last: dt.date, kind: str = "all") -> list[Row]:
    return [r for r in rows if first <= start(r).date() <= last
            and (kind == "all" or r["type"] == kind)]


def distinct(rows: list[Row]) -> list[Row]:
    """Activities no other one shares a type and a day with (a goal names one by both)."""
    seen: dict[tuple[str, dt.date], int] = {}
    for r in rows:
        k = (str(r["type"]), start(r).date())
        seen[k] = seen.get(k, 0) + 1
    return [r for r in rows if seen[(str(r["type"]), start(r).date())] == 1]


def number_in(text: str) -> float:
    """The first number in a figure on screen ("12.96 km" -> 12.96)."""
    m = re.search(r"\d[\d,]*(?:\.\d+)?", text)
    if m is None:
        raise OracleError(f"no number in {text!r}")
    return float(m.group().replace(",", ""))


def minutes_of(text: str) -> int:
    """"1 h 05 min" -> 65, "44 min" -> 44."""
    m = re.fullmatch(r"\s*(?:(\d+)\s*h\s*)?(\d+)\s*min\s*", text)
    if m is None:
        raise OracleError(f"not a duration: {text!r}")
    return int(m.group(1) or 0) * 60 + int(m.group(2))


# -- UI paths --------------------------------------------------------------------------------------
def to_main(device: Device) -> Iterator[Action]:
    """Open Fitness and back out to Home."""
    yield from open_root(device, "Fitness", "add_activity", tries=6, tab="nav_home",
                         tab_desc="Home", package="com.phoneworld.fitness",
                         fail="Fitness's Home never showed")


def to_journal(device: Device, *, month: bool = False, back: int = 0,
               kind: str = "all") -> Iterator[Action]:
    """From anywhere: the journal on the week (or month) ``back`` periods ago, filtered to
    ``kind``."""
    yield from to_main(device)
    yield tap(device, desc="Journal", rid="nav_journal")
    if month:
        yield tap(device, desc="Month", rid="tab_month")
    unit = "month" if month else "week"
    for _ in range(back):
        yield tap(device, desc=f"Previous {unit}", rid="prev_period")
    if kind != "all":
        yield tap(device, text=LABELS[kind], rid="filter_chip")


def journal_figures(device: Device,
                    rid: str = "activity_distance") -> Generator[Action, None, list[str]]:
    """The texts of ``rid`` on every row of the journal period shown, scrolling down until
    as many rows were read as the period's summary counts."""
    want = int(number_in(text_of(device, rid="summary_count") or "0"))
    seen: dict[str, str] = {}
    for _ in range(6):
        els = elements(device)
        whens = [e for e in els if (e.resource_id or "").endswith("/activity_when")]
        for v in (e for e in els if (e.resource_id or "").endswith(f"/{rid}")):
            y = v.bbox_pixels.center[1] if v.bbox_pixels else -1.0
            near = [t for t in whens if t.bbox_pixels and abs(t.bbox_pixels.center[1] - y) < 60]
            if near:  # a row whose label scrolled out of view is read after the scroll
                seen[near[0].text or ""] = v.text or ""
        if len(seen) >= want:
            return list(seen.values())
        yield Action("scroll", direction="down")
    raise OracleError(f"read {len(seen)} of {want} journal rows")


def open_activity(device: Device, r: Row, filtered: bool = True) -> Iterator[Action]:
    """From anywhere: the journal on the activity's week and type (every type, unfiltered,
    on the second path), then its page."""
    back = weeks_back(start(r).date(), today(device.probe))
    yield from to_journal(device, back=back, kind=str(r["type"]) if filtered else "all")
    desc = f"{title(r).capitalize()}, {short_day(start(r).date())}"
    yield from scroll_to(device, desc=desc, rid="activity_row")
    yield tap(device, desc=desc, rid="activity_row")


def pick_time(device: Device, t: dt.time) -> Iterator[Action]:
    """In "Add activity": the time picker (keyboard mode), hour, minute, AM/PM, OK."""
    yield tap(device, rid="start_time")
    yield type_into(device, str(t.hour % 12 or 12), rid="material_hour_text_input")
    yield type_into(device, f"{t.minute:02d}", rid="material_minute_text_input")
    yield tap(device, rid=f"material_clock_period_{'pm' if t.hour >= 12 else 'am'}_button")
    yield tap(device, rid="material_timepicker_ok_button")


def log_activity(device: Device, kind: str, when: dt.datetime, minutes: int,
                 km: str = "") -> Iterator[Action]:
    """From anywhere: "Add activity" filled in (type, day when not today, start time,
    duration, distance when given) and saved."""
    yield from to_main(device)
    yield tap(device, desc="Add activity", rid="add_activity")
    if kind != "walk":
        yield tap(device, text=LABELS[kind], rid="type_chip")
    if when.date() != today(device.probe):  # the form opens on the phone's date
        yield from pick_date(device, when.date(), "start_date")
    yield from pick_time(device, when.time())
    yield type_into(device, str(minutes), rid="duration")
    if km:
        yield type_into(device, km, rid="distance")
    yield tap(device, text="Save", rid="save")


def set_goal(device: Device, goal: str, value: int) -> Iterator[Action]:
    """From anywhere: Profile, the goal's editor, its slider tapped at ``value``, Save."""
    _, label, lo, hi, step = GOALS[goal]
    yield from to_main(device)
    yield tap(device, desc="Profile", rid="nav_profile")
    yield tap(device, desc=f"{label} goal")
    yield from set_slider(device, f"{label} goal", (value - lo) // step, 0, (hi - lo) // step)
    if number_in(text_of(device, rid="goal_value") or "") != value:
        raise OracleError(f"the slider shows {text_of(device, rid='goal_value')}, not {value}")
    yield tap(device, text="Save", rid="save")


def goal_target(rows: list[Row], goal: str) -> int:
    return int(next(r["target"] for r in rows if r["goal"] == goal))


def activities(probe: Probe) -> list[Row]:
    return probe.query("fitness/activities")
