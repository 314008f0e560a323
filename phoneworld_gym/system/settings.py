"""The phone's settings provider: ``world.settings[namespace][key]``, strings, with the keys
Android uses, and what the phone itself reports (battery, model, Android version).

The system layer owns it: the status bar (:mod:`phoneworld_gym.system.chrome`) derives its
icons from it, and the Settings app shows and changes it through these functions. The phone
starts with no settings written; a key that is missing reads as Android's default from
:data:`DEFAULTS` (what ``settings get`` shows on a fresh phone is up to the phone; tasks set
the starting values they rely on with ``device.put_setting`` at setup). The Settings app
writes a key only when the user changes it.
"""

from __future__ import annotations

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
    ("global", "auto_time"): "1",  # Set time automatically
    ("global", "auto_time_zone"): "1",  # Set time zone automatically
    ("system", "time_12_24"): "12",  # "12" or "24" (unset: the locale's, 12 in en-US)
}

#: what the phone reports about itself (the status bar's battery, About phone)
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
