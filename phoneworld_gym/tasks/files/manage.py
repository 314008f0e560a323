"""Files tasks that change the common ``files`` table: rename, move, copy, delete, a new
folder to move into, and a move to the SD card (with the card in; without it, infeasible).
Each pushes the file it is about at setup, so they run on a real phone (the SD card ones
put the card in or take it out with a Files fixture: PhoneWorld-only)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import elements, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.files.common import (
    DOCUMENTS,
    DOWNLOAD,
    FILES,
    FOLDERS,
    NEW_STEMS,
    content,
    item_menu,
    new_file,
    open_folder,
    pick_destination,
    select_item,
    selection_action,
    sha,
    to_browse,
)
from phoneworld_gym.tasks.kit import today
from phoneworld_gym.validators import expect


class _OneFile(Task):
    """A task about one file pushed into Downloads at setup (``params["name"]``)."""

    may_change: ClassVar[tuple[str, ...]] = (FILES,)

    def setup(self, device: Device) -> None:
        device.push_file(f"{DOWNLOAD}/{self.params['name']}", content(self.params["name"]))

    def _digest(self) -> str:
        return sha(content(self.params["name"]))


@register_task
class FilesRename(_OneFile):
    """Rename a downloaded file: the old path is gone, the new one holds the same bytes."""

    id = "FilesRename"
    apps = ("files",)
    difficulty = "easy"
    split = "test"
    tags = ("form",)
    optimal_steps = 6
    params_schema = {"name": str, "new_name": str}
    template = 'Rename the file {name} in my Downloads to "{new_name}".'
    paraphrases = {
        "train": ('In Downloads, change the name of {name} to "{new_name}".',
                  'Give {name} (in the Download folder) the new name "{new_name}".'),
        "test": ('The download {name} has a useless name. Call it "{new_name}" instead.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        name = new_file(rng)
        stem = NEW_STEMS[int(rng.integers(len(NEW_STEMS)))].format(
            last_year=today(probe).year - 1)
        return {"name": name, "new_name": f"{stem}.{name.rsplit('.', 1)[1]}"}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(expect(FILES, removed=[f"{DOWNLOAD}/{p['name']}"],
                                  added=[{"_id": f"{DOWNLOAD}/{p['new_name']}",
                                          "sha256": self._digest()}]))

    def _rename(self, device: Device, new: str, alt: bool = False) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD, by_storage=alt)
        if alt:
            yield from selection_action(device, self.params["name"], "Rename")
        else:
            yield from item_menu(device, self.params["name"])
            yield tap(device, text="Rename", rid="sheet_item_title")
        yield type_into(device, new, rid="rename_field")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._rename(device, self.params["new_name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach Download through Internal storage and rename from select mode (long press)."""
        yield from self._rename(device, self.params["new_name"], alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Drops the extension."""
        yield from self._rename(device, self.params["new_name"].rsplit(".", 1)[0])
        yield Action("status", goal_status="complete")


class _Transfer(_OneFile):
    """Move or copy the pushed file from Downloads into Documents."""

    def _transfer(self, device: Device, verb: str, alt: bool = False) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD, by_storage=alt)
        if alt:
            yield from selection_action(device, self.params["name"], verb)
        else:
            yield from item_menu(device, self.params["name"])
            yield tap(device, text=verb, rid="sheet_item_title")
        yield from pick_destination(device, DOCUMENTS)


@register_task
class FilesMoveToDocuments(_Transfer):
    """Move a download into Documents: gone from Download, the same bytes in Documents."""

    id = "FilesMoveToDocuments"
    apps = ("files",)
    difficulty = "medium"
    optimal_steps = 8
    params_schema = {"name": str}
    template = "Move {name} from Downloads to the Documents folder."
    paraphrases = {
        "train": ("Put the file {name} into Documents; it shouldn't stay in Downloads.",
                  "Relocate {name} out of my Download folder into Documents."),
        "test": ("I want {name} kept with my documents, not in Downloads. Please move it.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"name": new_file(rng)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        n = self.params["name"]
        return self.expect(expect(FILES, removed=[f"{DOWNLOAD}/{n}"],
                                  added=[{"_id": f"{DOCUMENTS}/{n}", "sha256": self._digest()}]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._transfer(device, "Move to")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach Download through Internal storage and move from select mode (long press)."""
        yield from self._transfer(device, "Move to", alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Copies it (the original stays in Downloads)."""
        yield from self._transfer(device, "Copy to")
        yield Action("status", goal_status="complete")


@register_task
class FilesCopyToDocuments(_Transfer):
    """Copy a download into Documents: the original stays, the same bytes appear in
    Documents."""

    id = "FilesCopyToDocuments"
    apps = ("files",)
    difficulty = "medium"
    optimal_steps = 8
    split = "test"
    params_schema = {"name": str}
    template = "Make a copy of {name} from Downloads in my Documents folder."
    paraphrases = {
        "test": ("Copy {name} into Documents, but keep the one in Downloads too.",
                 "I'd like {name} in both Downloads and Documents. Duplicate it there."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"name": new_file(rng)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        n = self.params["name"]
        return self.expect(expect(FILES, added=[{"_id": f"{DOCUMENTS}/{n}",
                                                 "sha256": self._digest()}]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._transfer(device, "Copy to")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach Download through Internal storage and copy from select mode (long press)."""
        yield from self._transfer(device, "Copy to", alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Moves it (nothing left in Downloads)."""
        yield from self._transfer(device, "Move to")
        yield Action("status", goal_status="complete")


@register_task
class FilesDelete(_OneFile):
    """Delete one of two downloads with almost the same name: only that row is removed."""

    id = "FilesDelete"
    apps = ("files",)
    difficulty = "easy"
    optimal_steps = 6
    params_schema = {"name": str, "twin": str}
    template = "Delete {name} from my Downloads."
    paraphrases = {
        "train": ("Remove the file {name} in the Download folder.",
                  "Get rid of {name} in Downloads."),
        "test": ("I don't need {name} anymore; delete it from my phone's downloads.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        name = new_file(rng)
        stem, ext = name.rsplit(".", 1)
        base, num = stem.rsplit("_", 1)
        twin = f"{base}_{num[:2]}{num[3]}{num[2]}.{ext}" if num[2] != num[3] else \
            f"{base}_{int(num) + 1}.{ext}"
        return {"name": name, "twin": twin}

    def setup(self, device: Device) -> None:
        super().setup(device)
        device.push_file(f"{DOWNLOAD}/{self.params['twin']}", content(self.params["twin"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(expect(FILES, removed=[f"{DOWNLOAD}/{self.params['name']}"]))

    def _delete(self, device: Device, name: str) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD)
        yield from item_menu(device, name)
        yield tap(device, text="Delete", rid="sheet_item_title")
        yield tap(device, text="Delete", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach Download through Internal storage, long-press the file and delete it with
        the selection bar's Delete."""
        yield from open_folder(device, DOWNLOAD, by_storage=True)
        yield from select_item(device, self.params["name"])
        yield tap(device, desc="Delete", rid="delete")
        yield tap(device, text="Delete", rid="button2")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the look-alike."""
        yield from self._delete(device, self.params["twin"])
        yield Action("status", goal_status="complete")


@register_task
class FilesNewFolderMove(_OneFile):
    """Make a folder in Documents and move a download into it: the file's new path is
    Documents/<folder>/<name> (the folder itself is implied by the file, so the ``files``
    table shows exactly that move)."""

    id = "FilesNewFolderMove"
    apps = ("files",)
    difficulty = "hard"
    tags = ("form", "multi-step")
    optimal_steps = 16
    params_schema = {"name": str, "folder": str}
    template = 'Create a folder called "{folder}" in Documents and move {name} from ' \
               'Downloads into it.'
    paraphrases = {
        "train": ('Make a new "{folder}" folder inside Documents, then put {name} (now in '
                  'Downloads) in it.',
                  'Organise {name}: it belongs in a new Documents subfolder named "{folder}".'),
        "test": ('I want a "{folder}" folder under Documents holding {name}, which is in my '
                 'Downloads right now.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"name": new_file(rng), "folder": FOLDERS[int(rng.integers(len(FOLDERS)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(expect(FILES, removed=[f"{DOWNLOAD}/{p['name']}"], added=[
            {"_id": f"{DOCUMENTS}/{p['folder']}/{p['name']}", "sha256": self._digest()}]))

    def _make_and_move(self, device: Device, folder: str) -> Iterator[Action]:
        yield from open_folder(device, DOCUMENTS)
        yield tap(device, desc="New folder")
        yield type_into(device, folder, rid="folder_name")
        yield from open_folder(device, DOWNLOAD)
        yield from item_menu(device, self.params["name"])
        yield tap(device, text="Move to", rid="sheet_item_title")
        yield from pick_destination(device, f"{DOCUMENTS}/{folder}" if folder else DOCUMENTS)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._make_and_move(device, self.params["folder"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Moves the file into Documents itself, without the new folder."""
        yield from open_folder(device, DOWNLOAD)
        yield from item_menu(device, self.params["name"])
        yield tap(device, text="Move to", rid="sheet_item_title")
        yield from pick_destination(device, DOCUMENTS)
        yield Action("status", goal_status="complete")


@register_task
class FilesMoveToSdCard(_OneFile):
    """Infeasible by design: the phone has no SD card in (setup takes out the one about half
    the phones have), so Files lists internal storage only and a download cannot be moved to
    a card; the right end is ``infeasible`` with nothing moved. :class:`FilesMoveToSdCardIn`
    is its feasible twin, with the card in; which one it is shows only in the app."""

    id = "FilesMoveToSdCard"
    apps = ("files",)
    difficulty = "medium"
    tags: ClassVar[tuple[str, ...]] = ()
    feasible = False
    optimal_steps = 2
    may_change: ClassVar[tuple[str, ...]] = ()
    params_schema = {"name": str}
    template = "Move {name} from Downloads to my SD card."
    paraphrases = {
        "train": ("Free up phone storage by moving {name} onto the SD card.",),
        "test": ("Put {name} on the external SD card and take it off the phone's storage.",),
    }

    #: whether the SD card is in (the twin's) or out
    card_in = False

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"name": new_file(rng)}

    def setup(self, device: Device) -> None:
        super().setup(device)
        device.fixture("files", "sd_card", inserted=self.card_in)

    def _move(self, device: Device, dest: str, keep: bool = False) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD)
        yield from item_menu(device, self.params["name"])
        yield tap(device, text="Copy to" if keep else "Move to", rid="sheet_item_title")
        yield from pick_destination(device, dest)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_browse(device)  # Storage devices: internal storage only
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Moves it to Documents and claims it is on the SD card."""
        yield from self._move(device, DOCUMENTS)
        yield Action("status", goal_status="complete")


@register_task
class FilesMoveToSdCardIn(FilesMoveToSdCard):
    """The feasible twin of :class:`FilesMoveToSdCard`: its very wordings, on a phone with an
    SD card in (setup puts in the one the phone may lack), so the download is moved onto the
    card (any folder of it): gone from Downloads, the same bytes under the card's
    ``/storage/XXXX-XXXX``. Without a twin "SD", "external" and "onto" were words no feasible
    goal used, and ``status infeasible`` on sight of them won the infeasible task blind;
    which one it is shows only in the app (Storage devices, the Move to picker)."""

    id = "FilesMoveToSdCardIn"
    tags = ("form",)
    feasible = True
    card_in = True
    optimal_steps = 7
    may_change = (FILES,)

    def _card(self, device: Device) -> str:
        return str(next(r["path"] for r in device.probe.query("files/volumes")
                        if r["removable"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        card, name = self._card(device) + "/", self.params["name"]

        def on_card(path: Any) -> bool:  # in any folder of the card
            return str(path).startswith(card) and str(path).endswith("/" + name)

        return self.expect(expect(FILES, removed=[f"{DOWNLOAD}/{name}"],
                                  added=[{"_id": on_card, "sha256": self._digest()}]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._move(device, self._card(device))
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Select the file by a long press and move it from the selection's menu."""
        yield from open_folder(device, DOWNLOAD)
        yield from selection_action(device, self.params["name"], "Move to")
        yield from pick_destination(device, self._card(device))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Copies it to the card, leaving it on the phone's storage."""
        yield from self._move(device, self._card(device), keep=True)
        yield Action("status", goal_status="complete")


@register_task
class FilesDeleteLargest(Task):
    """Delete the largest file directly in Downloads: only that row is removed. Setup pushes
    two files, one of them larger than anything there (so the largest is unique) and one
    just smaller (the likely mix-up).

    Fewer goals: the goal names no file; which file is the largest changes with the seed."""

    id = "FilesDeleteLargest"
    apps = ("files",)
    difficulty = "hard"
    tags = ("sort",)
    optimal_steps = 8
    may_change = (FILES,)
    params_schema = {"name": str, "size": int, "runner_up": str}
    template = "Delete the largest file in my Download folder."
    paraphrases = {
        "train": ("Free some space: remove whichever file in Downloads is the biggest.",
                  "Find the biggest file in my downloads and delete it."),
        "test": ("My Download folder is getting full. Get rid of its single largest file.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        here = [int(r["size"]) for r in probe.query(FILES)
                if str(r["_id"]).startswith(DOWNLOAD + "/")
                and "/" not in str(r["_id"])[len(DOWNLOAD) + 1:]]
        name = new_file(rng)
        runner_up = new_file(rng)
        while runner_up == name:
            runner_up = new_file(rng)
        return {"name": name, "size": max(here, default=0) + int(rng.integers(600, 4000)),
                "runner_up": runner_up}

    def setup(self, device: Device) -> None:
        p = self.params
        device.push_file(f"{DOWNLOAD}/{p['name']}", content(p["name"], p["size"]))
        device.push_file(f"{DOWNLOAD}/{p['runner_up']}",
                         content(p["runner_up"], p["size"] - 300))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        rows = [r for r in self.before(FILES) if str(r["_id"]).startswith(DOWNLOAD + "/")
                and "/" not in str(r["_id"])[len(DOWNLOAD) + 1:]]
        largest = max(rows, key=lambda r: int(r["size"]))
        return self.expect(expect(FILES, removed=[largest["_id"]]))

    def _delete_nth_largest(self, device: Device, nth: int) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD)
        yield tap(device, desc="Sort")
        yield tap(device, text="Largest first", rid="sort_option")
        names = [e.text or "" for e in elements(device)
                 if (e.resource_id or "").endswith("/file_title")]
        yield from item_menu(device, names[nth])
        yield tap(device, text="Delete", rid="sheet_item_title")
        yield tap(device, text="Delete", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete_nth_largest(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the second largest."""
        yield from self._delete_nth_largest(device, 1)
        yield Action("status", goal_status="complete")
