"""Camera data: the settings a user changes (flash, timer, aspect ratio, grid lines, saving
the location) and where the phone is (for the location saved into photos). Shots themselves
are files in shared storage (``/sdcard/DCIM/Camera``), never in the store: the common
``files`` table shows each one.

Table: ``camera/settings``, one row per setting (``_id`` the key, ``value`` as text).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import CITIES, Life

FOLDER = "/sdcard/DCIM/Camera/"
FLASH = ("off", "auto", "on")
TIMERS = (0, 3, 10)
ASPECTS = ("4:3", "16:9")
DEFAULTS: dict[str, Any] = {"flash": "off", "timer": 0, "aspect": "4:3", "grid": False,
                            "location": True}


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Default settings (grid lines on for some owners) and the owner's city as the place."""
    settings = dict(DEFAULTS)
    settings["grid"] = bool(rng.random() < 0.3)
    home = life.owner.home
    place = ""
    if home is not None:
        state = next((s for c, s, _ in CITIES if c == home.city), "")
        place = f"{home.city}, {state}" if state else home.city
    return {"settings": settings, "place": place}


def shot_path(existing: set[str], now: str) -> str:
    """The file a shot at ``now`` is saved to: ``IMG_YYYYMMDD_HHMMSS.jpg``, a second later
    for each shot already there (the phone's clock does not move within an episode)."""
    t = dt.datetime.fromisoformat(now)
    while True:
        path = f"{FOLDER}IMG_{t.strftime('%Y%m%d_%H%M%S')}.jpg"
        if path not in existing:
            return path
        t += dt.timedelta(seconds=1)


def taken_of(path: str) -> str:
    """The ISO time a camera file name encodes."""
    stem = path.rsplit("/", 1)[-1][4:19]
    return dt.datetime.strptime(stem, "%Y%m%d_%H%M%S").isoformat()


def cycle(values: tuple[Any, ...], current: Any) -> Any:
    """The next value of a setting that a button steps through."""
    i = values.index(current) if current in values else -1
    return values[(i + 1) % len(values)]


def settings_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": k, "value": str(v).lower() if isinstance(v, bool) else str(v)}
            for k, v in sorted(store["settings"].items())]
