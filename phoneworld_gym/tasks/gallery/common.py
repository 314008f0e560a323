"""Shared pieces of the Gallery tasks: photos as rows of the common ``files`` table (paths
under ``/sdcard/DCIM``, ``/sdcard/Pictures``, ``/sdcard/Download``, their time in the file
name as cameras write it: ``IMG_20260302_123724.jpg``), the Gallery's own tables
(``gallery/favorites``, ``gallery/albums``, ``gallery/trash``, ``gallery/media`` with each start
photo's date and place), and the usual UI paths.

A task that reads only ``files`` runs on a real phone: the file name gives the date and time
a gallery shows, and deleting a photo removes its file.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import clock, open_root  # noqa: F401 (clock: re-exported)
from phoneworld_gym.validators import Check, Diff, added

CAMERA = "/sdcard/DCIM/Camera/"
SCREENSHOTS = "/sdcard/Pictures/Screenshots/"
MEDIA = ("/sdcard/DCIM/", "/sdcard/Pictures/", "/sdcard/Download/")
_STAMP = (re.compile(r"(?:IMG|PXL)_(\d{8})_(\d{6})"), re.compile(r"Screenshot_(\d{8})-(\d{6})"))


def taken(path: str) -> dt.datetime | None:
    """When a photo was taken, from its file name (None when the name has no time)."""
    name = path.rsplit("/", 1)[-1]
    for pat in _STAMP:
        m = pat.search(name)
        if m:
            return dt.datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M%S")
    return None


def photos(rows: list[Row], folder: str = CAMERA) -> list[Row]:
    """``files`` rows of pictures with a time in their name under ``folder``, oldest first."""
    out = [r for r in rows if str(r["_id"]).startswith(folder)
           and str(r["_id"]).lower().endswith((".jpg", ".jpeg", ".png"))
           and taken(str(r["_id"])) is not None]
    return sorted(out, key=lambda r: str(r["_id"]).rsplit("/", 1)[-1])


def camera_photos(probe: Probe) -> list[Row]:
    return photos(probe.query("files"))


def day_words(t: dt.datetime | dt.date, year: int) -> str:
    """"March 2" in ``year`` (the phone's year: ``today(probe).year``, or
    ``self.start_day().year`` after the start), "December 22, 2025" in another year."""
    d = t.date() if isinstance(t, dt.datetime) else t
    text = f"{d.strftime('%B')} {d.day}"
    return text if d.year == year else f"{text}, {d.year}"



def shown(t: dt.datetime) -> str:
    """How the Gallery writes a photo's time in its content-desc: "Mar 2, 2026, 12:37 PM"."""
    return f"{t.strftime('%b')} {t.day}, {t.year}, {clock(t)}"


def unique_minute(rows: list[Row]) -> list[Row]:
    """Photos no other photo shares the day and minute with (so "the photo I took on March 2
    at 12:37 PM" names one)."""
    keys = [(taken(str(r["_id"])) or dt.datetime.min).strftime("%Y%m%d%H%M") for r in rows]
    return [r for r, k in zip(rows, keys) if keys.count(k) == 1]


def served(diff: Diff, table: str, check: Check) -> list[Check]:
    """``[check]`` where the phone serves ``table`` (PhoneWorld's Gallery keeps its trash in a
    table; a real phone's gallery app keeps it private), else no check."""
    return [check] if table in diff.after or table in diff.before else []


def trashed(diff: Diff, *paths: str) -> list[Check]:
    """The photos went to the Gallery's trash (where that is readable)."""
    return served(diff, "gallery/trash", added("gallery/trash", *({"_id": p} for p in paths)))


# -- UI paths ----------------------------------------------------------------------------------
def to_photos(device: Device) -> Iterator[Action]:
    """Open the Gallery on its Photos tab."""
    yield from open_root(device, "Gallery", "photos_list", tab="nav_photos")


def open_photo(device: Device, when: dt.datetime, year: int) -> Iterator[Action]:
    """From anywhere: search the photos of ``when``'s day (written as in a goal of ``year``,
    the phone's year), then open the one taken at ``when`` (to the minute)."""
    yield from search(device, day_words(when, year))
    yield from scroll_to(device, desc=f"taken on {shown(when)}", contains=True)
    yield tap(device, desc=f"taken on {shown(when)}", contains=True)


def browse_to_photo(device: Device, when: dt.datetime) -> Iterator[Action]:
    """The second path to a photo: down the Photos grid to the one taken at ``when`` (no
    search), then open it."""
    yield from to_photos(device)
    yield from scroll_to(device, desc=f"taken on {shown(when)}", contains=True)
    yield tap(device, desc=f"taken on {shown(when)}", contains=True)


def delete_open_photo(device: Device) -> Iterator[Action]:
    """In the viewer: Delete, then confirm "Move to trash"."""
    yield tap(device, rid="delete")
    yield tap(device, text="Move to trash")


def search(device: Device, query: str) -> Iterator[Action]:
    """Search the photos for ``query`` (a place or a date) and open the results."""
    yield from to_photos(device)
    yield tap(device, rid="nav_search")
    yield type_into(device, query, rid="search_bar")
