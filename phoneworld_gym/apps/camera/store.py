"""Camera data: the settings a user changes (flash, timer, aspect ratio, grid lines, saving
the location), where the phone is (for the location saved into photos) and whether its camera
films slow motion (``slow_motion``, drawn per seed). Shots and videos themselves are files in
shared storage (``/sdcard/DCIM/Camera``: ``IMG_...jpg``, ``VID_...mp4`` and
``VID_..._SLOMO.mp4``), never in the store: the common ``files`` table shows each one.

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
    """Default settings (grid lines on for some owners), the owner's city as the place, and
    whether this phone's camera films slow motion (about half do: a high-frame-rate sensor
    mode some phones have, others not)."""
    settings = dict(DEFAULTS)
    settings["grid"] = bool(rng.random() < 0.3)
    home = life.owner.home
    place = ""
    if home is not None:
        state = next((s for c, s, _ in CITIES if c == home.city), "")
        place = f"{home.city}, {state}" if state else home.city
    return {"settings": settings, "place": place, "slow_motion": bool(rng.random() < 0.5)}


def video_path(existing: set[str], now: str, slow: bool = False) -> str:
    """The file a video started at ``now`` is saved to: ``VID_YYYYMMDD_HHMMSS.mp4``, with
    ``_SLOMO`` before the extension for slow motion (this camera marks it in the name), a
    second later for each one already there."""
    t = dt.datetime.fromisoformat(now)
    while True:
        path = f"{FOLDER}VID_{t.strftime('%Y%m%d_%H%M%S')}{'_SLOMO' if slow else ''}.mp4"
        if path not in existing:
            return path
        t += dt.timedelta(seconds=1)


def video_bytes(taken: str, place: str, slow: bool) -> bytes:
    """A tiny stand-in for an MP4 (its ``ftyp`` box, then the capture's frame rate, time and
    place as text): small enough for the fingerprinted ``files`` table."""
    meta = f"capture_fps={240 if slow else 30};playback_fps=30;taken={taken};place={place}"
    return b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + meta.encode()


def fixture_slow_motion(store: dict[str, Any], *, available: Any = None) -> bool:
    """Setup: whether this phone's camera films slow motion (its Slow motion mode shows only
    then). Returns it."""
    if not isinstance(available, bool):
        raise ValueError(f"slow_motion: available must be true or false, got {available!r}")
    store["slow_motion"] = available
    return available


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
