"""Shared pieces of the Settings tasks: the switches and their Android keys, the screen
timeout choices, and the UI paths (open a Settings page, tap a slider at a value).

Everything is read and written as the phone's settings (``probe.setting``, ``put_setting``,
the ``settings/<namespace>`` tables), so these tasks run on a real phone too.
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Row
from phoneworld_gym.oracle import elements, find, scroll_to, tap
from phoneworld_gym.tasks.kit import open_root

SETTINGS_TABLES = ("settings/system", "settings/secure", "settings/global")

#: switch name (as a goal says it) -> (namespace, key, value when on, value when off,
#: Settings page, the switch row's title)
SWITCHES: dict[str, tuple[str, str, str, str, str, str]] = {
    "Wi-Fi": ("global", "wifi_on", "1", "0", "Network & internet", "Wi-Fi"),
    "mobile data": ("global", "mobile_data", "1", "0", "Network & internet", "Mobile data"),
    "airplane mode": ("global", "airplane_mode_on", "1", "0", "Network & internet",
                      "Airplane mode"),
    "Bluetooth": ("global", "bluetooth_on", "1", "0", "Connected devices", "Bluetooth"),
    "Do Not Disturb": ("global", "zen_mode", "1", "0", "Sound & vibration", "Do Not Disturb"),
    "Battery Saver": ("global", "low_power", "1", "0", "Battery", "Battery Saver"),
    "dark theme": ("secure", "ui_night_mode", "2", "1", "Display", "Dark theme"),
}

#: Android's screen timeout choices on a Pixel: milliseconds -> how the dialog says it
TIMEOUTS: dict[int, str] = {15000: "15 seconds", 30000: "30 seconds", 60000: "1 minute",
                            120000: "2 minutes", 300000: "5 minutes", 600000: "10 minutes",
                            1800000: "30 minutes"}

#: volume streams: goal word -> (system key, the slider's content-desc)
VOLUMES: dict[str, tuple[str, str]] = {
    "media": ("volume_music", "Media volume"),
    "ring": ("volume_ring", "Ring & notification volume"),
    "alarm": ("volume_alarm", "Alarm volume"),
}
VOLUME_MAX = 15


def value_of(rows: list[Row], key: str) -> str | None:
    """A key's value in ``settings/<namespace>`` rows."""
    return next((str(r["value"]) for r in rows if r["_id"] == key), None)


def brightness_raw(percent: int) -> int:
    """Settings' brightness percent -> ``screen_brightness`` (0..255, linear)."""
    return max(0, min(255, round(percent * 255 / 100)))


def open_page(device: Device, page: str) -> Iterator[Action]:
    """From anywhere: open Settings, go back to its top-level list, open ``page``."""
    yield from open_root(device, "Settings", "homepage_title", tries=4)
    yield from scroll_to(device, text=page, rid="dashboard_tile_title")
    yield tap(device, text=page, rid="dashboard_tile_title")


def set_slider(device: Device, desc: str, value: int, lo: int, hi: int) -> Iterator[Action]:
    """Tap the slider named ``desc`` where it takes ``value``: a slider's width is cut into
    ``hi - lo + 1`` equal bins, the first at its left edge (``phoneworld_gym.ui.controls``)."""
    yield from scroll_to(device, desc=desc, cls="SeekBar")
    i = find(device, desc=desc, cls="SeekBar")
    assert i is not None
    b = elements(device)[i].bbox_pixels
    assert b is not None
    x1, x2 = int(b.x_min), int(b.x_max)
    seg = max(1, (x2 - x1) // (hi - lo + 1))
    yield Action("click", x=x1 + (value - lo) * seg + seg // 2, y=int((b.y_min + b.y_max) / 2))
