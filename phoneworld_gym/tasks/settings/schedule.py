"""Settings tasks about time: the Do Not Disturb "Sleeping" schedule, the 24-hour clock, and
a time zone picked by hand.

The 24-hour format is Android's ``settings system time_12_24``, so that task runs on a phone;
the schedule (an automatic zen rule) and the zone (``persist.sys.timezone``) live outside the
settings provider on Android, so they are the Settings app's tables here
(``settings_app/zen_schedules``, ``settings_app/time_zone``) and those tasks are
PhoneWorld-only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.settings.common import open_page
from phoneworld_gym.validators import changed

SCHEDULES = "settings_app/zen_schedules"
TIME_ZONE = "settings_app/time_zone"
#: day sets a goal may ask for: words -> java.util.Calendar day numbers (1 Sunday)
DAY_SETS: dict[str, tuple[int, ...]] = {
    "weekdays": (2, 3, 4, 5, 6),
    "Sunday to Thursday": (1, 2, 3, 4, 5),
    "every day except Saturday": (1, 2, 3, 4, 5, 6),
    "every day except Friday": (1, 2, 3, 4, 5, 7),
    "every day": (1, 2, 3, 4, 5, 6, 7),
}
DAY_NAMES = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
#: zones a goal may name: city -> tz id (as the Settings list offers them)
ZONES: dict[str, str] = {
    "Honolulu": "Pacific/Honolulu", "Anchorage": "America/Anchorage",
    "Los Angeles": "America/Los_Angeles", "Phoenix": "America/Phoenix",
    "Denver": "America/Denver", "Mexico City": "America/Mexico_City",
    "Chicago": "America/Chicago", "New York": "America/New_York",
    "Halifax": "America/Halifax", "Sao Paulo": "America/Sao_Paulo",
    "London": "Europe/London", "Madrid": "Europe/Madrid", "Paris": "Europe/Paris",
    "Berlin": "Europe/Berlin", "Athens": "Europe/Athens", "Nairobi": "Africa/Nairobi",
    "Dubai": "Asia/Dubai", "Kolkata": "Asia/Kolkata", "Shanghai": "Asia/Shanghai",
    "Singapore": "Asia/Singapore", "Seoul": "Asia/Seoul", "Tokyo": "Asia/Tokyo",
    "Sydney": "Australia/Sydney", "Auckland": "Pacific/Auckland",
}


def clock12(hour: int, minute: int) -> str:
    """"10:30 PM"."""
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def open_date_time(device: Device) -> Iterator[Action]:
    """Settings > System > Date & time."""
    yield from open_page(device, "System")
    yield tap(device, text="Date & time", rid="title")


def set_dial(device: Device, label: str, hour: int, minute: int, pm_now: bool) -> Iterator[Action]:
    """Open a time row, tap the hour and the minute on the clock face, the period if it
    differs from the one shown, OK."""
    yield tap(device, text=label, rid="title")
    yield tap(device, desc=f"{hour % 12 or 12} o'clock")
    yield tap(device, desc=f"{minute} minutes")
    if (hour >= 12) != pm_now:
        yield tap(device, text="PM" if hour >= 12 else "AM")
    yield tap(device, text="OK")


@register_task
class SettingsSleepSchedule(Task):
    """Set the Do Not Disturb "Sleeping" schedule's days, start and end, and turn it on: its
    ``settings_app/zen_schedules`` row changes to exactly those values (it starts as Pixel
    ships it: off, every day, 10:00 PM to 7:00 AM)."""

    id = "SettingsSleepSchedule"
    apps = ("settings",)
    difficulty = "hard"
    tags = ("time-picker", "dialog", "checkbox")
    optimal_steps = 17
    may_change = (SCHEDULES,)
    params_schema = {"start": str, "end": str, "days": str, "sh": int, "sm": int, "eh": int,
                     "em": int}
    template = ('Set my Do Not Disturb "Sleeping" schedule to run from {start} to {end} on '
                "{days}, and turn it on.")
    paraphrases = {
        "train": (
            'Turn on the "Sleeping" Do Not Disturb schedule for {days}, starting at {start} and '
            "ending at {end}.",
            "I want Do Not Disturb to come on automatically at {start} and go off at {end}, "
            '{days}. Use the "Sleeping" schedule.',
        ),
        "test": (
            'Configure the bedtime schedule called "Sleeping" in Do Not Disturb: {days}, '
            "{start} until {end}. Make sure it is enabled.",
            "Enable Do Not Disturb's \"Sleeping\" schedule ({start}-{end}, {days}).",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        days = sorted(DAY_SETS)[int(rng.integers(len(DAY_SETS)))]
        sh, sm = int(rng.integers(21, 24)), int(rng.choice([0, 30]))
        eh, em = int(rng.integers(5, 9)), int(rng.choice([0, 30]))
        return {"start": clock12(sh, sm), "end": clock12(eh, em), "days": days, "sh": sh,
                "sm": sm, "eh": eh, "em": em}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        days = ",".join(str(d) for d in DAY_SETS[p["days"]])
        return self.expect(changed(SCHEDULES, "sleeping", enabled=1, days=days,
                                   startHour=p["sh"], startMinute=p["sm"], endHour=p["eh"],
                                   endMinute=p["em"]))

    def _set(self, device: Device, end_pm: bool) -> Iterator[Action]:
        p = self.params
        yield from open_page(device, "Sound & vibration")
        yield from scroll_to(device, text="Do Not Disturb schedules", rid="title")
        yield tap(device, text="Do Not Disturb schedules", rid="title")
        yield tap(device, text="Sleeping", rid="title")
        yield tap(device, text="Days", rid="title")
        want = set(DAY_SETS[p["days"]])
        for i, name in enumerate(DAY_NAMES):
            if i + 1 not in want:  # every day starts checked
                yield tap(device, text=name, cls="CheckBox")
        yield tap(device, text="Done")
        yield from set_dial(device, "Start time", p["sh"], p["sm"], pm_now=True)
        yield from set_dial(device, "End time", p["eh"] + (12 if end_pm else 0), p["em"],
                            pm_now=False)
        yield tap(device, text="Use schedule", rid="title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, end_pm=False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The end time in the evening (7:00 PM for 7:00 AM)."""
        yield from self._set(device, end_pm=True)
        yield Action("status", goal_status="complete")


@register_task
class SettingsClockFormat(Task):
    """Switch the clock between 24-hour and 12-hour time: ``settings system time_12_24``
    becomes "24" or "12" (setup puts the other). Runs on a phone.
    Fewer goals: two formats."""

    id = "SettingsClockFormat"
    apps = ("settings",)
    difficulty = "easy"
    tags = ("toggle",)
    optimal_steps = 5
    may_change = ("settings/system",)
    params_schema = {"format": str}
    template = "Make my phone show the time in {format} format."
    paraphrases = {
        "train": (
            "Switch the clock to {format} time.",
            "Use the {format} clock on this phone.",
        ),
        "test": (
            "I prefer {format} time; change the phone's time format.",
            "Set the time format in Settings to {format}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"format": "24-hour" if rng.random() < 0.7 else "12-hour"}

    def _want(self) -> str:
        return "24" if self.params["format"] == "24-hour" else "12"

    def setup(self, device: Device) -> None:
        device.put_setting("system", "time_12_24", "12" if self._want() == "24" else "24")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("settings/system", "time_12_24", value=self._want()))

    def _flip(self, device: Device, title: str) -> Iterator[Action]:
        yield from open_date_time(device)
        yield tap(device, text=title, rid="title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._flip(device, "Use 24-hour format")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Flips "Set time automatically", the other switch on the page."""
        yield from self._flip(device, "Set time automatically")
        yield Action("status", goal_status="complete")


@register_task
class SettingsManualTimeZone(Task):
    """Stop the automatic time zone and pick one: ``settings global auto_time_zone`` becomes
    "0" (setup puts "1") and the ``settings_app/time_zone`` row becomes the city's tz id."""

    id = "SettingsManualTimeZone"
    apps = ("settings",)
    difficulty = "medium"
    tags = ("toggle", "list")
    optimal_steps = 10
    split = "test"
    may_change = ("settings/global", TIME_ZONE)
    params_schema = {"city": str, "tz": str}
    template = "Turn off automatic time zone and set the phone to {city} time."
    constraints = (("automatic", "by hand"),)
    paraphrases = {
        "test": (
            "I'm travelling: stop setting the time zone automatically and choose {city}.",
            "Set my time zone by hand to {city} (not from the network).",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        cities = sorted(ZONES)
        city = cities[int(rng.integers(len(cities)))]
        return {"city": city, "tz": ZONES[city]}

    def setup(self, device: Device) -> None:
        device.put_setting("global", "auto_time_zone", "1")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("settings/global", "auto_time_zone", value="0"),
                           changed(TIME_ZONE, "persist.sys.timezone", value=self.params["tz"]))

    def _pick(self, device: Device, city: str) -> Iterator[Action]:
        yield from open_date_time(device)
        yield tap(device, text="Set time zone automatically", rid="title")
        yield tap(device, text="Time zone", rid="title")
        yield from scroll_to(device, text=city, rid="title")
        yield tap(device, text=city, rid="title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._pick(device, self.params["city"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Picks the city listed next to it (a neighbouring zone)."""
        cities = list(ZONES)
        i = cities.index(self.params["city"])
        yield from self._pick(device, cities[i + 1] if i + 1 < len(cities) else cities[i - 1])
        yield Action("status", goal_status="complete")
