"""Settings data: the phone's settings (``world.settings[namespace][key]``, strings, with the
keys Android uses) and the app's own per-app notification switches.

The phone starts with no settings written; a key that is missing reads as Android's default
from :data:`DEFAULTS` (what ``settings get`` shows on a fresh phone is up to the phone; tasks
set the starting values they rely on with ``device.put_setting`` at setup). The screens write
a key only when the user changes it.

The app's own store holds the apps whose notifications the user turned off; the probe reads
it as ``settings_app/notifications`` (the ``settings/`` prefix names the phone's settings
namespaces, so the app's own table cannot use it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.life import Life

#: (namespace, key) -> Android's default value, for a key the phone has not written yet
DEFAULTS: dict[tuple[str, str], str] = {
    ("global", "airplane_mode_on"): "0",
    ("global", "wifi_on"): "1",
    ("global", "bluetooth_on"): "1",
    ("global", "mobile_data"): "1",
    ("global", "zen_mode"): "0",  # 0 off, 1 priority only (Do Not Disturb on)
    ("global", "low_power"): "0",  # Battery Saver
    ("system", "screen_brightness"): "102",  # 0..255
    ("system", "screen_off_timeout"): "30000",  # ms
    ("system", "volume_music"): "5",  # 0..15
    ("system", "volume_ring"): "5",
    ("system", "volume_alarm"): "6",
    ("secure", "ui_night_mode"): "1",  # 1 light, 2 dark
}

#: the screen timeout choices: milliseconds -> label, in the order the dialog lists them
TIMEOUTS: tuple[tuple[int, str], ...] = (
    (15000, "15 seconds"), (30000, "30 seconds"), (60000, "1 minute"), (120000, "2 minutes"),
    (300000, "5 minutes"), (600000, "10 minutes"), (1800000, "30 minutes"))

#: the volume streams the Sound screen shows: key -> label
VOLUMES: tuple[tuple[str, str], ...] = (("volume_music", "Media volume"),
                                        ("volume_ring", "Ring & notification volume"),
                                        ("volume_alarm", "Alarm volume"))
VOLUME_MAX = 15
BATTERY_LEVEL = 87
ANDROID_VERSION = "14"
MODEL = "PhoneWorld"


def get(settings: dict[str, dict[str, str]], ns: str, key: str) -> str:
    """The value of a setting, or its default when the phone has none."""
    v = settings.get(ns, {}).get(key)
    return v if v is not None else DEFAULTS.get((ns, key), "")


def get_int(settings: dict[str, dict[str, str]], ns: str, key: str) -> int:
    try:
        return int(float(get(settings, ns, key)))
    except ValueError:
        return int(DEFAULTS.get((ns, key), "0"))


def put(settings: dict[str, dict[str, str]], ns: str, key: str, value: str | int) -> None:
    settings.setdefault(ns, {})[key] = str(value)


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
    """Nothing blocked; the owner's number for About phone."""
    return {"blocked": [], "phone_number": life.owner.phone}


def notification_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per app whose notifications are off (``_id`` the app's name)."""
    return [{"_id": name, "notifications": 0} for name in sorted(store["blocked"])]
