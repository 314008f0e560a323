"""Gallery tasks that change something: delete a photo, delete the screenshots, delete the
photos of a place, favourite a photo, add one to an album, and save one with a filter the
editor offers (and with one it does not: infeasible).

Deletions are stated over the common ``files`` table (the photo's file is gone, nothing else),
plus the Gallery's trash where the phone serves it; the first two read nothing else, so they
run on a real phone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.gallery.common import (
    MEDIA,
    SCREENSHOTS,
    browse_to_photo,
    camera_photos,
    clock,
    day_words,
    delete_open_photo,
    open_photo,
    photos,
    search,
    taken,
    to_photos,
    trashed,
    unique_minute,
)
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.validators import ANY, added, changed, removed


def _when(params: dict[str, Any]) -> dt.datetime:
    t = taken(params["path"])
    assert t is not None
    return t


def _neighbour(rows: list[dict[str, Any]], path: str) -> str:
    """Another camera photo, the closest in time (the likely mix-up)."""
    paths = [str(r["_id"]) for r in rows]
    i = paths.index(path)
    return paths[i - 1] if i > 0 else paths[i + 1]


@register_task
class GalleryDeletePhoto(Task):
    """Move one photo, named by when it was taken, to the trash: exactly its file is removed
    from shared storage."""

    id = "GalleryDeletePhoto"
    apps = ("gallery",)
    difficulty = "easy"
    tags = ("files",)
    optimal_steps = 7
    may_change = ("files", "gallery/trash")
    params_schema = {"path": str, "day": str, "time": str}
    template = "Delete the photo I took on {day} at {time}."
    paraphrases = {
        "train": (
            "Please remove the picture from {day} at {time} from my gallery.",
            "Trash the photo taken on {day}, {time}.",
        ),
        "test": (
            "I don't want the {time} photo from {day} anymore. Get rid of it.",
            "Find the picture I shot at {time} on {day} and delete it.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = camera_photos(probe)
        r = choice(rng, unique_minute(rows) if len(rows) > 1 else [])
        t = taken(str(r["_id"]))
        assert t is not None
        return {"path": str(r["_id"]), "day": day_words(t, today(probe).year), "time": clock(t)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        assert self.diff is not None
        return self.expect(removed("files", self.params["path"]),
                           *trashed(self.diff, self.params["path"]))

    def _delete(self, device: Device, path: str, browse: bool = False) -> Iterator[Action]:
        t = taken(path)
        assert t is not None
        if browse:
            yield from browse_to_photo(device, t)
        else:
            yield from open_photo(device, t, self.start_day().year)
        yield from delete_open_photo(device)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["path"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the photo by scrolling the Photos grid instead of searching its day."""
        yield from self._delete(device, self.params["path"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the photo taken just before or after it."""
        yield from self._delete(device, _neighbour(photos(self.before("files")),
                                                   self.params["path"]))
        yield Action("status", goal_status="complete")


@register_task
class GalleryDeleteScreenshots(Task):
    """Delete every screenshot (the Screenshots album): exactly their files are removed.

    Fewer goals: the template has no params; which screenshots exist varies with the seed."""

    id = "GalleryDeleteScreenshots"
    apps = ("gallery",)
    difficulty = "medium"
    tags = ("files", "multi-item")
    optimal_steps = 25
    may_change = ("files", "gallery/trash")
    template = "Delete all of my screenshots from the gallery."
    paraphrases = {
        "train": (
            "Clear out every screenshot on my phone.",
            "Remove all the screenshots in my photos.",
        ),
        "test": (
            "My screenshots are clutter: trash each one of them.",
            "Go through the Screenshots album and delete everything in it.",
        ),
    }

    def evaluate(self, device: Device, report: AgentReport) -> float:
        assert self.diff is not None
        shots = [str(r["_id"]) for r in photos(self.before("files"), SCREENSHOTS)]
        return self.expect(removed("files", *shots), *trashed(self.diff, *shots))

    def _delete(self, device: Device, keep: int) -> Iterator[Action]:
        yield from to_photos(device)
        yield tap(device, rid="nav_library")
        yield from scroll_to(device, desc="Screenshots,", contains=True)
        yield tap(device, desc="Screenshots,", contains=True)
        # how many there are now (the oracle also runs after other tasks' changes)
        for _ in range(len(photos(device.probe.query("files"), SCREENSHOTS)) - keep):
            yield tap(device, rid="photo")
            yield from delete_open_photo(device)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, keep=0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Stops one screenshot short."""
        yield from self._delete(device, keep=1)
        yield Action("status", goal_status="complete")


def _media(probe: Probe) -> dict[str, dict[str, Any]]:
    return {str(r["_id"]): r for r in probe.query("gallery/media")}


@register_task
class GalleryDeleteDay(Task):
    """Delete the photos of one day (one or two, all taken in one city; found by searching
    the day): exactly their files are removed."""

    id = "GalleryDeleteDay"
    apps = ("gallery",)
    difficulty = "medium"
    tags = ("files", "multi-item", "search")
    optimal_steps = 10
    may_change = ("files", "gallery/trash")
    params_schema = {"city": str, "day": str, "paths": list}
    template = "Delete the photos I took in {city} on {day}."
    paraphrases = {
        "train": (
            "Remove my pictures from {city} taken on {day}.",
            "Trash the {day} photos from {city}.",
        ),
        "test": (
            "On {day} I took some photos in {city}. Please delete all of them.",
            "Search my gallery for {day} and delete the {city} pictures you find.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        media = _media(probe)
        days: dict[str, list[str]] = {}
        for r in probe.query("files"):
            t = taken(str(r["_id"]))
            if t is not None and str(r["_id"]).startswith(MEDIA):
                days.setdefault(t.date().isoformat(), []).append(str(r["_id"]))
        fits = []
        for d, paths in sorted(days.items()):
            places = {str(media.get(p, {}).get("place", "")) for p in paths}
            if len(places) == 1 and "" not in places:
                fits.append((d, places.pop(), sorted(paths)))
        if not fits:
            raise NoInstance("no day whose photos all have one place")
        d, place, paths = fits[int(rng.integers(len(fits)))]
        t = taken(paths[0])
        assert t is not None
        return {"city": place.split(",")[0], "day": day_words(t, today(probe).year), "paths": paths}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        assert self.diff is not None
        paths = [str(p) for p in self.params["paths"]]
        return self.expect(removed("files", *paths), *trashed(self.diff, *paths))

    def _delete(self, device: Device, keep: int) -> Iterator[Action]:
        yield from search(device, self.params["day"])
        for _ in range(len(self.params["paths"]) - keep):
            yield tap(device, rid="photo")
            yield from delete_open_photo(device)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, keep=0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes one photo fewer (with one photo that day: deletes it, then also the
        photo taken next in the gallery)."""
        if len(self.params["paths"]) > 1:
            yield from self._delete(device, keep=1)
        else:
            yield from self._delete(device, keep=0)
            other = _neighbour(photos(self.before("files")), self.params["paths"][0])
            t = taken(other)
            assert t is not None
            yield from open_photo(device, t, self.start_day().year)
            yield from delete_open_photo(device)
        yield Action("status", goal_status="complete")


@register_task
class GalleryFavoritePhoto(Task):
    """Heart a photo that is not a favourite yet: one row added to ``gallery/favorites``."""

    id = "GalleryFavoritePhoto"
    apps = ("gallery",)
    difficulty = "easy"
    optimal_steps = 6
    may_change = ("gallery/favorites",)
    params_schema = {"path": str, "day": str, "time": str}
    template = "Add the photo from {day} at {time} to my favorites."
    paraphrases = {
        "train": (
            "Mark the picture I took on {day} at {time} as a favorite.",
            "Heart the {time} photo from {day}.",
        ),
        "test": (
            "I love the shot from {day} at {time}; put it in Favorites.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        favs = {str(r["_id"]) for r in probe.query("gallery/favorites")}
        rows = [r for r in unique_minute(camera_photos(probe)) if str(r["_id"]) not in favs]
        r = choice(rng, rows)
        t = taken(str(r["_id"]))
        assert t is not None
        return {"path": str(r["_id"]), "day": day_words(t, today(probe).year), "time": clock(t)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("gallery/favorites", {"_id": self.params["path"]}))

    def _heart(self, device: Device, path: str, browse: bool = False) -> Iterator[Action]:
        t = taken(path)
        assert t is not None
        if browse:
            yield from browse_to_photo(device, t)
        else:
            yield from open_photo(device, t, self.start_day().year)
        yield tap(device, desc="Favorite")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._heart(device, self.params["path"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the photo by scrolling the Photos grid instead of searching its day."""
        yield from self._heart(device, self.params["path"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Hearts the neighbouring photo (when that one is a favourite already, un-hearts
        it)."""
        other = _neighbour(photos(self.before("files")), self.params["path"])
        t = taken(other)
        assert t is not None
        yield from open_photo(device, t, self.start_day().year)
        yield tap(device, rid="favorite")
        yield Action("status", goal_status="complete")


@register_task
class GalleryAddToAlbum(Task):
    """Add a photo to one of the user's albums that does not hold it: that album's row gains
    exactly its path."""

    id = "GalleryAddToAlbum"
    apps = ("gallery",)
    difficulty = "medium"
    split = "test"
    optimal_steps = 7
    may_change = ("gallery/albums",)
    params_schema = {"path": str, "day": str, "time": str, "album": str}
    template = "Add the photo I took on {day} at {time} to my \"{album}\" album."
    paraphrases = {
        "test": (
            'Put the {day} photo from {time} into the album called "{album}".',
            "My album \"{album}\" is missing the picture from {day} at {time}. Add it.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        albums = probe.query("gallery/albums")
        rows = unique_minute(camera_photos(probe))
        pairs = [(str(r["_id"]), str(a["_id"])) for r in rows for a in albums
                 if str(r["_id"]) not in a["paths"]]
        if not pairs:
            raise NoInstance("every photo is in every album")
        path, album = pairs[int(rng.integers(len(pairs)))]
        t = taken(path)
        assert t is not None
        return {"path": path, "day": day_words(t, today(probe).year), "time": clock(t),
                "album": album}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        album = self.params["album"]
        before = next(a for a in self.before("gallery/albums") if a["_id"] == album)
        want = sorted([*before["paths"], self.params["path"]])
        return self.expect(changed("gallery/albums", album, paths=want))

    def _add(self, device: Device, album: str, browse: bool = False) -> Iterator[Action]:
        if browse:
            yield from browse_to_photo(device, _when(self.params))
        else:
            yield from open_photo(device, _when(self.params), self.start_day().year)
        yield tap(device, rid="add_to_album")
        yield tap(device, text=album, rid="album_choice_title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._add(device, self.params["album"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the photo by scrolling the Photos grid instead of searching its day."""
        yield from self._add(device, self.params["album"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds it to the other album (or, with one album, opens the sheet and leaves)."""
        others = [str(a["_id"]) for a in self.before("gallery/albums")
                  if a["_id"] != self.params["album"]]
        if others:
            yield from self._add(device, others[0])
        else:
            yield from open_photo(device, _when(self.params), self.start_day().year)
        yield Action("status", goal_status="complete")


@register_task
class GalleryApplyFilter(Task):
    """Infeasible by design: the Gallery's editor offers four filters (which four is drawn
    per seed) and the one asked for is not among them; the right end is ``infeasible`` with
    nothing changed. :class:`GalleryApplyFilterOffered` is its feasible twin, with a filter
    the editor offers; the names come from the same eight, so which one it is shows only in
    the app (the editor's strip)."""

    id = "GalleryApplyFilter"
    apps = ("gallery",)
    difficulty = "easy"
    tags: ClassVar[tuple[str, ...]] = ()
    feasible = False
    optimal_steps = 6
    params_schema = {"path": str, "day": str, "time": str, "filter": str}
    template = "Apply the {filter} filter to the photo I took on {day} at {time}."
    paraphrases = {
        "train": (
            "Edit the {day} photo from {time} with the {filter} filter and save it.",
        ),
        "test": (
            "Make the picture from {day}, {time} look nicer using the {filter} filter.",
        ),
    }
    #: every filter name a gallery editor may have; the phone's Gallery offers four
    FILTERS = ("Vivid", "West", "Palma", "Metro", "Eiffel", "Blush", "Modena", "Reel")
    #: whether the filter asked for is one the editor offers (the twin's)
    offered = False

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        r = choice(rng, unique_minute(camera_photos(probe)))
        t = taken(str(r["_id"]))
        assert t is not None
        here = {str(f["_id"]) for f in probe.query("gallery/filters")}
        names = [f for f in cls.FILTERS if (f in here) == cls.offered]
        return {"path": str(r["_id"]), "day": day_words(t, today(probe).year), "time": clock(t),
                "filter": names[int(rng.integers(len(names)))]}

    def _edit(self, device: Device, browse: bool = False) -> Iterator[Action]:
        if browse:
            yield from browse_to_photo(device, _when(self.params))
        else:
            yield from open_photo(device, _when(self.params), self.start_day().year)
        yield tap(device, rid="edit")

    def oracle(self, device: Device) -> Iterator[Action]:
        """Opens the photo's editor, finds no such filter in its strip, and says so."""
        yield from self._edit(device)
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the photo by scrolling the Photos grid instead of searching its day."""
        yield from self._edit(device, browse=True)
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves the photo with the first filter the editor has and claims success."""
        yield from self._edit(device)
        first = str(self.before("gallery/filters")[0]["_id"])
        yield tap(device, desc=first, rid="filter_option")
        yield tap(device, rid="save")
        yield Action("status", goal_status="complete")


@register_task
class GalleryApplyFilterOffered(GalleryApplyFilter):
    """The feasible twin of :class:`GalleryApplyFilter`: its very wordings, with a filter
    the editor offers, so the photo is saved with it (a ``gallery/edits`` row for it, and
    its file replaced: same path, new bytes). Without a twin "apply", "edit" and "nicer"
    were words no feasible goal used, and ``status infeasible`` on sight of them won the
    infeasible task blind; which one it is shows only in the app."""

    id = "GalleryApplyFilterOffered"
    tags = ("form",)
    feasible = True
    offered = True
    optimal_steps = 8
    may_change = ("gallery/edits", "files")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        # the photo's file is rewritten (its size and hash are the app's to compute); the
        # filter saved is the edit's
        return self.expect(
            added("gallery/edits", {"_id": p["path"], "filter": p["filter"]}),
            changed("files", p["path"], size=ANY, sha256=ANY))

    def _apply(self, device: Device, name: str, browse: bool = False) -> Iterator[Action]:
        yield from self._edit(device, browse)
        yield tap(device, desc=name, rid="filter_option")
        yield tap(device, rid="save")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._apply(device, self.params["filter"])
        yield Action("status", goal_status="complete")

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the photo by scrolling the Photos grid instead of searching its day."""
        yield from self._apply(device, self.params["filter"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another of the editor's filters (the next one in its strip)."""
        names = [str(r["_id"]) for r in self.before("gallery/filters")]
        other = names[(names.index(self.params["filter"]) + 1) % len(names)]
        yield from self._apply(device, other)
        yield Action("status", goal_status="complete")
