"""Shared pieces of the Camera tasks: shots are new rows of the common ``files`` table under
``/sdcard/DCIM/Camera`` (so a task that checks only them runs on a real phone), the Camera's
settings are its own ``camera/settings`` table, and the usual UI paths (the permission
dialog on first use, the shutter, the settings screen, the review of the last shot)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Row
from phoneworld_gym.oracle import find, tap
from phoneworld_gym.validators import Check, changed

FOLDER = "/sdcard/DCIM/Camera/"
_STAMP = re.compile(r"(?:IMG|PXL)_(\d{8})_(\d{6})")


def is_shot(path: Any) -> bool:
    """A new photo in the camera folder (a JPEG)."""
    p = str(path)
    return p.startswith(FOLDER) and p.lower().endswith((".jpg", ".jpeg")) and "/" not in \
        p[len(FOLDER):]


def shots(rows: list[Row]) -> list[str]:
    """Camera photos with a time in their name, oldest first (by name: the time)."""
    return sorted((str(r["_id"]) for r in rows
                   if is_shot(r["_id"]) and _STAMP.search(str(r["_id"]))),
                  key=lambda p: p.rsplit("/", 1)[-1])


def taken(path: str) -> dt.datetime:
    m = _STAMP.search(path.rsplit("/", 1)[-1])
    if m is None:
        raise ValueError(f"no time in the file name {path!r}")
    return dt.datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M%S")


def setting_is(key: str, value: str) -> Check:
    """The Camera's ``camera/settings`` row ``key`` changed to ``value`` (and no other row).

    PhoneWorld-only on purpose: a real phone's camera keeps its settings private, and a check
    left out there would make a settings task pass on a phone whatever was done."""
    return changed("camera/settings", key, value=value)


# -- UI paths ----------------------------------------------------------------------------------
def open_camera(device: Device, once: bool = False) -> Iterator[Action]:
    """Open the Camera on its viewfinder, allowing the camera while using the app (or, with
    ``once``, the second path, only this time) when the permission dialog asks."""
    yield Action("open_app", app_name="Camera")
    grant = "Only this time" if once else "While using the app"
    for _ in range(4):
        if find(device, text=grant) is not None:
            yield tap(device, text=grant)
            continue
        if find(device, rid="shutter_button") is not None \
                or find(device, rid="permission_text") is not None:
            return
        yield Action("navigate_back")


def shoot(device: Device, n: int = 1) -> Iterator[Action]:
    """Photo mode (when not in it), then the shutter ``n`` times."""
    if find(device, desc="Take photo") is None:
        yield tap(device, rid="mode_photo")
    for _ in range(n):
        yield tap(device, desc="Take photo")


def open_settings(device: Device) -> Iterator[Action]:
    yield tap(device, desc="Settings")
