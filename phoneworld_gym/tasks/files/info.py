"""Files information-retrieval tasks: a file's size, and how many files a folder holds. The
answers come from the start state's ``files`` rows, so they run on a real phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import elements, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.files.common import (
    DOWNLOAD,
    FILES,
    content,
    item_menu,
    new_file,
    open_folder,
)


def _at_end(els: list[Any]) -> bool:
    """True when the end of the file list is on screen: the last row ends well above the
    list's bottom edge (the list ends with blank space), or nothing scrolls."""
    box = next((e.bbox_pixels for e in els if (e.resource_id or "").endswith("/file_list")),
               None)
    if box is None or not any(e.is_scrollable for e in els):
        return True
    rows = [e.bbox_pixels for e in els if (e.resource_id or "").endswith("_title")]
    return not rows or max(r.y_max for r in rows) + 150 < box.y_max


@register_task
class FilesSizeOf(Task):
    """Tell a download's exact size in bytes (File info shows it)."""

    id = "FilesSizeOf"
    apps = ("files",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 5
    answer_matcher = NumberMatch()
    params_schema = {"name": str, "size": int}
    template = "How many bytes is the file {name} in my Downloads?"
    constraints = ("byte",)
    paraphrases = {
        "train": ("What's the exact size of {name} in Downloads, in bytes?",
                  "Tell me the file size of {name} (Download folder) in bytes."),
        "test": ("I need to know how big {name} is, down to the byte. It's in Downloads.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"name": new_file(rng), "size": int(rng.integers(300, 9000))}

    def setup(self, device: Device) -> None:
        p = self.params
        device.push_file(f"{DOWNLOAD}/{p['name']}", content(p["name"], p["size"]))

    def expected_answer(self, device: Device) -> Any:
        path = f"{DOWNLOAD}/{self.params['name']}"
        return next(r["size"] for r in self.before(FILES) if r["_id"] == path)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD)
        yield from item_menu(device, self.params["name"])
        yield tap(device, text="File info", rid="sheet_item_title")
        shown = text_of(device, rid="info_size") or ""
        m = re.search(r"\(([\d,]+) bytes\)", shown)
        yield Action("answer", text=f"{m.group(1) if m else shown} bytes")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach Download through Internal storage instead of the Downloads shortcut."""
        yield from open_folder(device, DOWNLOAD, by_storage=True)
        yield from item_menu(device, self.params["name"])
        yield tap(device, text="File info", rid="sheet_item_title")
        shown = text_of(device, rid="info_size") or ""
        m = re.search(r"\(([\d,]+) bytes\)", shown)
        yield Action("answer", text=f"{m.group(1) if m else shown} bytes")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers with the size in kB as shown in the list, taken as a number of bytes."""
        size = self.params["size"]
        yield Action("answer", text=f"{size // 1000 if size >= 1000 else size + 1} bytes")


@register_task
class FilesCountDownloads(Task):
    """Count the files directly in the Download folder (subfolders are not files). Setup
    pushes zero to four more (a drawn number): the seeded folders alone held six files on
    41% of the seeds.

    Fewer goals: the template has no params to fill; the count varies with the seed."""

    id = "FilesCountDownloads"
    apps = ("files",)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 4  # a longer folder takes a scroll
    answer_matcher = NumberMatch()
    template = "How many files are in my Download folder?"
    params_schema = {"extra": list}
    paraphrases = {
        "test": ("Count the files sitting in Downloads and tell me the number.",
                 "What's the number of files in the phone's Download folder?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        names: list[str] = []
        for _ in range(int(rng.integers(0, 5))):
            name = new_file(rng)
            if name not in names:
                names.append(name)
        return {"extra": names}

    def setup(self, device: Device) -> None:
        for name in self.params["extra"]:
            device.push_file(f"{DOWNLOAD}/{name}", content(name))

    def expected_answer(self, device: Device) -> Any:
        return sum(1 for r in self.before(FILES) if str(r["_id"]).startswith(DOWNLOAD + "/")
                   and "/" not in str(r["_id"])[len(DOWNLOAD) + 1:])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD)
        seen: set[str] = set()
        for _ in range(20):
            els = elements(device)
            seen |= {e.text or "" for e in els if (e.resource_id or "").endswith("/file_title")}
            if _at_end(els):
                break
            yield Action("scroll", direction="down")
        yield Action("answer", text=str(len(seen)))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Counts the subfolders too (or is off by one)."""
        yield Action("answer", text=str(len(
            {str(r["_id"])[len(DOWNLOAD) + 1:].split("/")[0] for r in self.before(FILES)
             if str(r["_id"]).startswith(DOWNLOAD + "/")}) + 1))
