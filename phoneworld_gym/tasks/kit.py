"""The task kit: the helpers every app's tasks share, written once.

- :func:`choice` draws a parameter row; an empty pool raises
  :class:`~phoneworld_gym.task.NoInstance`, so ``reset`` draws the seed's next world.
- :func:`open_root` opens an app from anywhere and backs out to its root screen.
- :func:`pick_date` steps a Material date picker to a month and taps the day.
- :func:`now`, :func:`today` and :func:`now_ms` read the phone's clock (``probe.now()``):
  dates in goals and setups count from the device's time, never from a literal, so a task
  poses the same goal on a real phone on another day (and the simulated clock runs).

Like every task, the kit touches the phone only through the device (its actions, the
screen, the probe): it runs wherever the tasks that use it run.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, find, tap, text_of
from phoneworld_gym.task import NoInstance

T = TypeVar("T")


def choice(rng: np.random.Generator, rows: Sequence[T], what: str = "row") -> T:
    """One of ``rows``, drawn with ``rng``. No rows means this world cannot pose the task:
    :class:`NoInstance` (``what`` names the kind of row in its message)."""
    if not rows:
        raise NoInstance(f"no {what} in this world fits the task's needs")
    return rows[int(rng.integers(len(rows)))]


def now(probe: Probe) -> dt.datetime:
    """The phone's local time (``probe.now()``)."""
    return dt.datetime.fromisoformat(probe.now())


def today(probe: Probe) -> dt.date:
    """The phone's date."""
    return now(probe).date()


def now_ms(probe: Probe, minutes_ago: float = 0) -> int:
    """Milliseconds since 1970 of the phone's time ``minutes_ago`` before now, the form the
    common tables keep dates in (``sms``, ``call_log``, ``calendar``); the phone's local time
    is counted as UTC, as PhoneWorld's providers do."""
    t = now(probe).replace(tzinfo=dt.timezone.utc) - dt.timedelta(minutes=minutes_ago)
    return int(round(t.timestamp() * 1000))


def open_root(device: Device, app: str, root: str | Callable[[Device], bool], *,
              tries: int = 5, tab: str | None = None, tab_desc: str | None = None,
              package: str | None = None, fail: str | None = None) -> Iterator[Action]:
    """Open ``app`` (its launcher label) and back out to its root screen.

    ``root`` tells the root: the resource id of an element only the root shows, or a test of
    the screen. Up to ``tries`` times, while not at the root, it taps the bottom-bar ``tab``
    (a resource id, with ``tab_desc`` its content description) when it shows, which ends the
    walk, or else presses back; with ``package`` (the app's package) it opens the app again
    when back left it. When the root never showed, ``fail`` is the ``OracleError`` raised
    (without it the walk just ends)."""
    at_root = root if callable(root) else lambda d: find(d, rid=root) is not None
    yield Action("open_app", app_name=app)
    for _ in range(tries):
        if at_root(device):
            return
        if tab is not None and find(device, desc=tab_desc, rid=tab) is not None:
            yield tap(device, desc=tab_desc, rid=tab)
            return
        yield Action("navigate_back")
        if package is not None and device.probe.foreground_app() != package:
            yield Action("open_app", app_name=app)
    if fail is not None and not at_root(device):
        raise OracleError(fail)


def day_words(d: dt.date) -> str:
    """"Thursday, March 19": a day as goals name it (no year)."""
    return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}"


def short_day(d: dt.date) -> str:
    """"Thu, Mar 19": a day as list rows and chips show it."""
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"


def clock(t: dt.datetime | dt.time) -> str:
    """"7:05 PM": a time of day on a 12-hour clock."""
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def full_date(d: dt.date) -> str:
    """"Thursday, March 19, 2026": a date picker's day cell's content description."""
    return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}, {d.year}"


def pick_date(device: Device, day: dt.date, field: str | None = None) -> Iterator[Action]:
    """Tap the date ``field`` (a resource id; None when the picker is already open), step
    the picker's month to ``day``'s, tap the day, then OK."""
    if field is not None:
        yield tap(device, rid=field)
    want = day.year * 12 + day.month
    for _ in range(24):
        shown = dt.datetime.strptime(text_of(device, rid="month_title") or "", "%B %Y")
        have = shown.year * 12 + shown.month
        if have == want:
            break
        yield tap(device, desc="Next month" if want > have else "Previous month")
    yield tap(device, desc=full_date(day))
    yield tap(device, text="OK", rid="button1")
