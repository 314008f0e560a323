"""Shared pieces of the Files tasks: names and contents of the files a task pushes, rows of the
common ``files`` table (``_id`` the path, ``size``, ``sha256``) and the usual UI paths.

Setup pushes the files a task needs (``device.push_file``, ``adb push`` on a phone) and
verification reads the ``files`` table, so these tasks run on a real phone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Row
from phoneworld_gym.oracle import find, scroll_to, tap
from phoneworld_gym.tasks.kit import open_root

FILES = "files"
DOWNLOAD = "/sdcard/Download"
DOCUMENTS = "/sdcard/Documents"

STEMS: tuple[str, ...] = (
    "invoice", "scan", "statement", "ticket", "itinerary", "contract", "report", "notes",
    "recipe", "warranty", "payslip", "agenda", "floor_plan", "syllabus",
)
EXTS: tuple[str, ...] = ("pdf", "txt", "csv")
#: new names for a renamed file (``{last_year}``: the year before the phone's)
NEW_STEMS: tuple[str, ...] = (
    "taxes_{last_year}", "car_insurance", "trip_plan", "gym_schedule", "school_forms",
    "apartment_lease", "medical_bill", "wedding_rsvp", "reading_list", "job_offer",
)
FOLDERS: tuple[str, ...] = ("Taxes", "Travel", "Work", "Receipts", "Health", "Home",
                            "School", "Projects")


def new_file(rng: np.random.Generator) -> str:
    """A file name nobody else has: a stem, a four-digit number, an extension."""
    return (f"{STEMS[int(rng.integers(len(STEMS)))]}_{int(rng.integers(1000, 9999))}"
            f".{EXTS[int(rng.integers(len(EXTS)))]}")


def content(name: str, size: int = 0) -> bytes:
    """The bytes a task pushes for ``name``: text derived from the name (``size`` pads it to
    that many bytes)."""
    seed = hashlib.sha256(name.encode()).hexdigest()
    text = f"{name}\nreference {seed[:12]}\n"
    if size:
        filler = "".join(f"line {i}: {seed[i % 40:i % 40 + 16]}\n" for i in range(size // 20 + 2))
        text = (text + filler)[:size]
    return text.encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def row(rows: list[Row], path: str) -> Row:
    return next(r for r in rows if r["_id"] == path)


def to_browse(device: Device) -> Iterator[Action]:
    """Open Files and back out to Browse."""
    yield from open_root(device, "Files", "internal_storage_title", tries=6)


def open_folder(device: Device, folder: str, by_storage: bool = False) -> Iterator[Action]:
    """From anywhere: Browse -> Internal storage -> each folder of ``folder`` (Downloads
    through its Browse shortcut unless ``by_storage``, the second path)."""
    yield from to_browse(device)
    if folder == DOWNLOAD and not by_storage:
        yield tap(device, text="Downloads", rid="category")
        return
    yield tap(device, rid="internal_storage_title")
    for part in folder[len("/sdcard/"):].split("/"):
        yield from scroll_to(device, text=part, rid="folder_title")
        yield tap(device, text=part, rid="folder_title")


def item_menu(device: Device, name: str) -> Iterator[Action]:
    """Open the action sheet of ``name`` in the folder on screen."""
    yield from scroll_to(device, desc=f"More options for {name}")
    yield tap(device, desc=f"More options for {name}")


def select_item(device: Device, name: str) -> Iterator[Action]:
    """Long-press ``name``'s row in the folder on screen: select mode, with it selected."""
    yield from scroll_to(device, text=name, rid="file_title")
    yield Action("long_press", index=find(device, text=name, rid="file_title"))


def selection_action(device: Device, name: str, option: str) -> Iterator[Action]:
    """The second path to an item's action: select it by long press, then the selection
    bar's More options and ``option``."""
    yield from select_item(device, name)
    yield tap(device, rid="selection_more")
    yield tap(device, text=option, rid="sheet_item_title")


def pick_destination(device: Device, folder: str) -> Iterator[Action]:
    """In the Move/Copy picker (which starts in the items' folder): go up to the top of its
    storage device, or for a folder on the SD card (``/storage/XXXX-XXXX/...``) switch to
    the card with its chip; then down into ``folder``, and confirm."""
    on_card = folder.startswith("/storage/")
    if on_card:
        yield tap(device, text="SD card", rid="volume")
    else:
        for _ in range(6):
            if find(device, rid="up_title") is None:
                break
            yield tap(device, rid="up_title")
    root = "/".join(folder.split("/")[:3]) if on_card else "/sdcard"
    rest = folder[len(root):].strip("/")
    for part in rest.split("/") if rest else []:
        yield from scroll_to(device, text=part, rid="folder_title")
        yield tap(device, text=part, rid="folder_title")
    yield tap(device, rid="confirm")
