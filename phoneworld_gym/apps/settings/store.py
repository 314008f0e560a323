"""Settings data: the phone's settings (``world.settings[namespace][key]``, strings, with the
keys Android uses; the provider, its defaults and :func:`get`/:func:`put` are the system
layer's, :mod:`phoneworld_gym.system.settings`, re-exported here) and the app's own per-app
notification switches. The screens write a key only when the user changes it.

The app's own store holds the apps whose notifications the user turned off; the probe reads
it as ``settings_app/notifications`` (the ``settings/`` prefix names the phone's settings
namespaces, so the app's own table cannot use it). It also holds what Android keeps outside
the settings provider: the Do Not Disturb schedules (Android's automatic zen rules, with
``ScheduleInfo``'s fields: days as ``java.util.Calendar`` numbers, 1 Sunday .. 7 Saturday,
start and end hour and minute), served as ``settings_app/zen_schedules``, and the time zone
(the ``persist.sys.timezone`` property), served as ``settings_app/time_zone``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.life import Life

# the phone's settings provider and what the phone reports belong to the system layer (the
# status bar reads them too); the screens reach them through this module
from phoneworld_gym.system.settings import (  # noqa: F401  (re-exported)
    ANDROID_VERSION,
    BATTERY_LEVEL,
    DEFAULTS,
    MODEL,
    get,
    get_int,
    put,
)

#: the time zones the manual list offers: (tz id, city, name, UTC offset in minutes). The
#: names and offsets are fixed, whatever the date: each zone's standard or summer time as in
#: mid-March (North America on summer time, Europe not yet), not looked up per date in a
#: time-zone database
ZONES: tuple[tuple[str, str, str, int], ...] = (
    ("Pacific/Honolulu", "Honolulu", "Hawaii-Aleutian Standard Time", -600),
    ("America/Anchorage", "Anchorage", "Alaska Daylight Time", -480),
    ("America/Los_Angeles", "Los Angeles", "Pacific Daylight Time", -420),
    ("America/Phoenix", "Phoenix", "Mountain Standard Time", -420),
    ("America/Denver", "Denver", "Mountain Daylight Time", -360),
    ("America/Mexico_City", "Mexico City", "Central Standard Time", -360),
    ("America/Chicago", "Chicago", "Central Daylight Time", -300),
    ("America/New_York", "New York", "Eastern Daylight Time", -240),
    ("America/Halifax", "Halifax", "Atlantic Daylight Time", -180),
    ("America/Sao_Paulo", "Sao Paulo", "Brasilia Standard Time", -180),
    ("Etc/UTC", "UTC", "Coordinated Universal Time", 0),
    ("Europe/London", "London", "Greenwich Mean Time", 0),
    ("Europe/Madrid", "Madrid", "Central European Standard Time", 60),
    ("Europe/Paris", "Paris", "Central European Standard Time", 60),
    ("Europe/Berlin", "Berlin", "Central European Standard Time", 60),
    ("Europe/Athens", "Athens", "Eastern European Standard Time", 120),
    ("Africa/Nairobi", "Nairobi", "East Africa Time", 180),
    ("Asia/Dubai", "Dubai", "Gulf Standard Time", 240),
    ("Asia/Kolkata", "Kolkata", "India Standard Time", 330),
    ("Asia/Shanghai", "Shanghai", "China Standard Time", 480),
    ("Asia/Singapore", "Singapore", "Singapore Standard Time", 480),
    ("Asia/Seoul", "Seoul", "Korean Standard Time", 540),
    ("Asia/Tokyo", "Tokyo", "Japan Standard Time", 540),
    ("Australia/Sydney", "Sydney", "Australian Eastern Daylight Time", 660),
    ("Pacific/Auckland", "Auckland", "New Zealand Daylight Time", 780),
)
#: the zone the mobile network reports (what automatic time zone sets)
NETWORK_ZONE = "Etc/UTC"
#: java.util.Calendar day numbers, Sunday first, with their names
DAYS: tuple[tuple[int, str], ...] = ((1, "Sunday"), (2, "Monday"), (3, "Tuesday"),
                                     (4, "Wednesday"), (5, "Thursday"), (6, "Friday"),
                                     (7, "Saturday"))

#: the screen timeout choices: milliseconds -> label, in the order the dialog lists them
TIMEOUTS: tuple[tuple[int, str], ...] = (
    (15000, "15 seconds"), (30000, "30 seconds"), (60000, "1 minute"), (120000, "2 minutes"),
    (300000, "5 minutes"), (600000, "10 minutes"), (1800000, "30 minutes"))

#: the volume streams the Sound screen shows: key -> label
VOLUMES: tuple[tuple[str, str], ...] = (("volume_music", "Media volume"),
                                        ("volume_ring", "Ring & notification volume"),
                                        ("volume_alarm", "Alarm volume"))
VOLUME_MAX = 15


def brightness_percent(raw: int) -> int:
    """0..255 -> the percent the slider shows."""
    return max(0, min(100, round(raw * 100 / 255)))


def brightness_raw(percent: int) -> int:
    """The slider's percent -> 0..255 (``screen_brightness``)."""
    return max(0, min(255, round(percent * 255 / 100)))


def timeout_label(ms: int) -> str:
    for v, label in TIMEOUTS:
        if v == ms:
            return label
    secs = ms // 1000
    return f"{secs // 60} minutes" if secs >= 60 and secs % 60 == 0 else f"{secs} seconds"


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Nothing blocked; the owner's number for About phone; Pixel's "Sleeping" schedule as it
    comes (off, every night 10:00 PM to 7:00 AM); the network's time zone."""
    return {"blocked": [], "phone_number": life.owner.phone,
            "zen_schedules": [{"id": "sleeping", "name": "Sleeping", "enabled": False,
                               "days": [d for d, _ in DAYS], "start": [22, 0], "end": [7, 0]}],
            "time_zone": NETWORK_ZONE}


def notification_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per app whose notifications are off (``_id`` the app's name)."""
    return [{"_id": name, "notifications": 0} for name in sorted(store["blocked"])]


def schedule_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per Do Not Disturb schedule: ``_id``, ``name``, ``enabled`` (0/1), ``days``
    (Calendar day numbers, ascending, comma-separated: "2,3,4,5,6" is Monday to Friday),
    ``startHour``, ``startMinute``, ``endHour``, ``endMinute`` (an end not after the start
    is on the next day)."""
    return [{"_id": z["id"], "name": z["name"], "enabled": int(bool(z["enabled"])),
             "days": ",".join(str(d) for d in sorted(z["days"])),
             "startHour": z["start"][0], "startMinute": z["start"][1],
             "endHour": z["end"][0], "endMinute": z["end"][1]} for z in store["zen_schedules"]]


def time_zone_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """The phone's time zone as one row (``_id`` ``persist.sys.timezone``, ``value`` a tz id)."""
    return [{"_id": "persist.sys.timezone", "value": store["time_zone"]}]


def zone(tz: str) -> tuple[str, str, str, int]:
    """The :data:`ZONES` entry of a tz id (``ValueError`` naming it when unknown)."""
    for z in ZONES:
        if z[0] == tz:
            return z
    raise ValueError(f"unknown time zone {tz!r}; have {[z[0] for z in ZONES]}")


def gmt(offset: int) -> str:
    """"GMT-07:00"."""
    sign = "-" if offset < 0 else "+"
    h, m = divmod(abs(offset), 60)
    return f"GMT{sign}{h:02d}:{m:02d}"


def clock_text(hour: int, minute: int, h24: bool) -> str:
    """"22:30" on a 24-hour phone, "10:30 PM" on a 12-hour one."""
    if h24:
        return f"{hour:02d}:{minute:02d}"
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def days_text(days: list[int]) -> str:
    """How a schedule's days read: "Every day", "Mon-Fri" style short names otherwise."""
    ds = sorted(set(days))
    if len(ds) == 7:
        return "Every day"
    if not ds:
        return "None"
    return ", ".join(name[:3] for d, name in DAYS if d in ds)
