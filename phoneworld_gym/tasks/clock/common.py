"""Shared pieces of the Clock tasks: alarm rows (the common ``alarms`` table: ``hour``,
``minutes``, ``label``, ``enabled`` 0/1, ``days`` as comma-joined day codes ``MO,WE``), the
way the app writes a time, and the UI paths (the Alarm tab, the time picker)."""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Row
from phoneworld_gym.oracle import find, tap, text_of, type_into

LABELS = ("Dentist", "Yoga", "Team standup", "Call Mom", "Laundry", "Vitamins", "Water plants",
          "School pickup", "Meditate", "Take out trash", "Bake bread", "Piano practice")
DAY_NAMES = {"MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday",
             "FR": "Friday", "SA": "Saturday", "SU": "Sunday"}


def time_text(hour: int, minute: int) -> str:
    """12-hour clock text: ``7:05 AM``."""
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def unique_times(rows: list[Row]) -> list[Row]:
    """The alarms whose time no other alarm shares (a goal can name them by time)."""
    times = [(r["hour"], r["minutes"]) for r in rows]
    return [r for r in rows if times.count((r["hour"], r["minutes"])) == 1]


#: the Clock's tabs: key (as in ``nav_<key>``) -> the title the tab shows
TABS = {"alarm": "Alarm", "clock": "Clock", "timer": "Timer", "stopwatch": "Stopwatch"}


def to_alarms(device: Device) -> Iterator[Action]:
    """From anywhere: open Clock, close a time picker left open, go to the Alarm tab."""
    yield from to_tab(device, "alarm")


def to_tab(device: Device, tab: str) -> Iterator[Action]:
    """From anywhere: open Clock, close a time picker left open, go to tab ``tab`` (a key
    of :data:`TABS`)."""
    yield Action("open_app", app_name="Clock")
    for _ in range(4):
        if find(device, rid="material_timepicker_cancel_button") is not None:
            yield tap(device, rid="material_timepicker_cancel_button")
        elif find(device, rid="nav_alarm") is None:
            yield Action("navigate_back")
        else:
            break
    if text_of(device, rid="action_bar_title") != TABS[tab]:
        yield tap(device, rid=f"nav_{tab}")


def enter_time(device: Device, hour: int, minute: int) -> Iterator[Action]:
    """Set the open time picker to ``hour:minute`` (24-hour values) and press OK: on the
    clock face when the minute is on it (a multiple of five), else typed in the keyboard
    mode."""
    if minute % 5:
        yield tap(device, desc="Switch to text input mode for the time input.")
        yield type_into(device, str(hour % 12 or 12), rid="material_hour_text_input")
        yield type_into(device, f"{minute:02d}", rid="material_minute_text_input")
    else:
        yield tap(device, desc=f"{hour % 12 or 12} o'clock")
        yield tap(device, desc=f"{minute} minutes")
    period = "pm" if hour >= 12 else "am"
    yield tap(device, rid=f"material_clock_period_{period}_button")
    yield tap(device, rid="material_timepicker_ok_button")


def add_alarm(device: Device, hour: int, minute: int) -> Iterator[Action]:
    """A new alarm at ``hour:minute`` (it opens expanded)."""
    yield from to_alarms(device)
    yield tap(device, desc="Add alarm")
    yield from enter_time(device, hour, minute)
