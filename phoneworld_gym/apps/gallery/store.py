"""Gallery data: photos are real files in shared storage (``/sdcard/DCIM/Camera``,
``/sdcard/Pictures/Screenshots``, ``/sdcard/Download``); the app keeps what a media index keeps
about them, keyed by path, and the user's own organisation.

The store (plain JSON):

- ``meta``: path -> ``{"taken": ISO time, "place": "Austin, TX"}`` for the photos the episode
  starts with (EXIF-like; the same date and place are in each file's EXIF too). Files that
  appear later (a Camera shot, a pushed file) are described from their EXIF and file name.
- ``favorites``: paths marked with the heart.
- ``albums``: ``[{"name", "paths"}]``, the user's albums (references, as Google Photos keeps
  them; the device folders Camera, Screenshots and Downloads are albums by themselves).
- ``trash``: ``[{"path", "deleted", "taken", "place", "data"}]``: a photo moved to the trash
  is deleted from shared storage (the common ``files`` table shows it gone) and kept here,
  bytes included, so that it can be restored.
- ``filters``: the filters this phone's editor offers, four of :data:`pictures.FILTERS`
  drawn per seed (Gallery versions differ in their filters, as phones' editors do).
- ``edits``: path -> ``{"filter", "original"}``: a photo saved with a filter. The file in
  shared storage is replaced by the filtered picture (the ``files`` row's hash changes) and
  the original bytes (base64) are kept, so that a new filter applies to the original.

Tables: ``gallery/favorites``, ``gallery/albums``, ``gallery/trash``, ``gallery/edits``
(``_id`` the path, ``filter``: what the user changes), ``gallery/media`` (the start photos'
dates and places) and ``gallery/filters`` (``_id`` the filter's name, ``position`` in the
editor's strip); the last two never change in an episode.
"""

from __future__ import annotations

import base64
import datetime as dt
import functools
import hashlib
import re
from typing import Any

import numpy as np

from phoneworld_gym.apps.gallery import pictures
from phoneworld_gym.life import CITIES, Life

CAMERA = "/sdcard/DCIM/Camera/"
SCREENSHOTS = "/sdcard/Pictures/Screenshots/"
DOWNLOADS = "/sdcard/Download/"
#: device folders shown as albums: (album name, folder)
FOLDERS: tuple[tuple[str, str], ...] = (
    ("Camera", CAMERA), ("Screenshots", SCREENSHOTS), ("Downloads", DOWNLOADS))
MEDIA_ROOTS = ("/sdcard/DCIM/", "/sdcard/Pictures/", "/sdcard/Download/")
IMAGE_EXT = (".jpg", ".jpeg", ".png")
#: how many days before the phone's start day the start photos may be taken on (from the
#: first of November at the default clock, Saturday 2026-03-14, to the day before)
SPAN_DAYS = 133

_NAME_TIME = (
    re.compile(r"(?:IMG|PXL|VID)_(\d{8})_(\d{6})"),
    re.compile(r"Screenshot_(\d{8})-(\d{6})"),
)
_DOWNLOAD_NAMES = ("wallpaper_beach.jpg", "concert_poster.jpg", "recipe_card.jpg",
                   "hiking_map.jpg", "team_photo.jpg")


def epoch_ms(t: dt.datetime) -> int:
    return int(round(t.replace(tzinfo=dt.timezone.utc).timestamp() * 1000))


def place_of(city: str) -> str:
    """"Austin, TX" for a city of the life's list."""
    for c, state, _ in CITIES:
        if c == city:
            return f"{c}, {state}"
    raise ValueError(f"unknown city {city!r}")


def camera_name(t: dt.datetime) -> str:
    """A camera file name for a shot at ``t``: ``IMG_20260314_103000.jpg`` (at 10:30 on
    2026-03-14)."""
    return f"IMG_{t.strftime('%Y%m%d_%H%M%S')}.jpg"


# -- the start photos ------------------------------------------------------------------------
# bound: 128 lives' plans, ~8 KiB each (~1 MiB), as many as the phone's kept start worlds
@functools.lru_cache(maxsize=128)
def _plan(seed: int, home: str, places: tuple[str, ...], today: dt.date
          ) -> tuple[dict[str, Any], ...]:
    """Every start photo of a life: path, taken, place, scene, picture seed, album hint,
    taken on the :data:`SPAN_DAYS` days before ``today`` (the phone's start day).

    A function of the life alone (its seed, places and start day), so :func:`generate` and
    :func:`files` (called with different generators) describe the same photos."""
    rng = np.random.default_rng(int.from_bytes(
        hashlib.sha256(f"{seed}/gallery".encode()).digest()[:4], "little"))
    out: list[dict[str, Any]] = []
    span = SPAN_DAYS
    first_day = today - dt.timedelta(days=span)
    days = sorted({first_day + dt.timedelta(days=int(d))
                   for d in rng.choice(span, size=int(rng.integers(7, 10)), replace=False)})
    away = [p for p in places if p != home] or list(places)
    trip = away[int(rng.integers(len(away)))]
    # every place gets a day (in a shuffled order), the home and the trip a few more
    order = [places[int(i)] for i in rng.permutation(len(places))]
    for k, day in enumerate(days):
        place = order[k] if k < len(order) else (
            trip if k % 3 == 1 else home if k % 3 == 0 else
            places[int(rng.integers(len(places)))])
        scenes = list(pictures.SCENES)
        scene = scenes[int(rng.integers(len(scenes)))]
        t = dt.datetime.combine(day, dt.time(int(rng.integers(8, 19)), int(rng.integers(60)),
                                             int(rng.integers(60))))
        for _ in range(int(rng.integers(1, 3))):
            out.append({"path": CAMERA + camera_name(t), "taken": t.isoformat(),
                        "place": place, "scene": scene, "seed": int(rng.integers(1 << 30)),
                        "trip": place == trip and place != home})
            t += dt.timedelta(minutes=int(rng.integers(1, 40)), seconds=int(rng.integers(60)))
    # one to seven screenshots: how many is an answer (GalleryCountScreenshots), so it must
    # not be a number a guess names often
    for _ in range(int(rng.integers(1, 8))):
        day = first_day + dt.timedelta(days=int(rng.integers(span)))
        t = dt.datetime.combine(day, dt.time(int(rng.integers(7, 23)), int(rng.integers(60)),
                                             int(rng.integers(60))))
        out.append({"path": SCREENSHOTS + f"Screenshot_{t.strftime('%Y%m%d-%H%M%S')}.png",
                    "taken": t.isoformat(), "place": "", "scene": "screenshot",
                    "seed": int(rng.integers(1 << 30)), "trip": False})
    names = list(_DOWNLOAD_NAMES)
    for i in rng.choice(len(names), size=int(rng.integers(1, 3)), replace=False):
        day = first_day + dt.timedelta(days=int(rng.integers(span)))
        t = dt.datetime.combine(day, dt.time(int(rng.integers(7, 23)), int(rng.integers(60))))
        out.append({"path": DOWNLOADS + names[int(i)], "taken": t.isoformat(), "place": "",
                    "scene": ("sea", "sunset", "cake", "hills", "dog")[int(i)],
                    "seed": int(rng.integers(1 << 30)), "trip": False})
    return tuple(out)


def places(life: Life) -> tuple[str, ...]:
    """The places photos are taken in: the owner's home, work and some friends' cities."""
    seen: list[str] = []
    homes = [life.owner.home, life.work] + [p.home for p in life.people]
    for a in homes:
        if a is not None and place_of(a.city) not in seen:
            seen.append(place_of(a.city))
    return tuple(seen[:4])


def plan(life: Life) -> tuple[dict[str, Any], ...]:
    home = life.owner.home
    assert home is not None
    return _plan(life.seed, place_of(home.city), places(life), life.today)


# bound: 8 lives' photos, ~85 KiB each: a life generated again (the same seed) is most often
# served by the phone's kept start worlds, which hold these bytes already
@functools.lru_cache(maxsize=8)
def _files(seed: int, home: str, where: tuple[str, ...], today: dt.date) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for p in _plan(seed, home, where, today):
        img = pictures.draw(p["scene"], p["seed"])
        fmt = "PNG" if p["path"].endswith(".png") else "JPEG"
        out[p["path"]] = pictures.encode(img, taken=p["taken"], place=p["place"], fmt=fmt)
    return out


def files(life: Life) -> dict[str, bytes]:
    """The start photos' bytes by path (cached per life: drawing them takes ~0.1 s)."""
    home = life.owner.home
    assert home is not None
    return dict(_files(life.seed, place_of(home.city), places(life), life.today))


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Metadata of the start photos, one or two favourites, two user albums (a trip to
    another city and the best shots of the season in the middle of the photos' months) and
    the four filters the editor offers."""
    items = plan(life)
    meta = {p["path"]: {"taken": p["taken"], "place": p["place"]} for p in items}
    camera = [p for p in items if p["path"].startswith(CAMERA)]
    fav = sorted(camera[int(i)]["path"] for i in rng.choice(
        len(camera), size=int(rng.integers(1, 3)), replace=False))
    trip = [p for p in camera if p["trip"]]
    albums = []
    if trip:
        albums.append({"name": f"{trip[0]['place'].split(',')[0]} trip",
                       "paths": [p["path"] for p in trip]})
    best = sorted(camera[int(i)]["path"] for i in rng.choice(
        len(camera), size=min(3, len(camera)), replace=False))
    middle = life.today - dt.timedelta(days=SPAN_DAYS // 2)
    season = ("winter", "spring", "summer", "fall")[middle.month % 12 // 3]
    albums.append({"name": f"Best of {season}", "paths": best})
    # drawn last, so the photos and albums above are the same whatever the filters
    names = list(pictures.FILTERS)
    offered = sorted(int(i) for i in rng.choice(len(names), size=4, replace=False))
    return {"meta": meta, "favorites": fav, "albums": albums, "trash": [],
            "filters": [names[i] for i in offered], "edits": {}}


# -- what the screens show -----------------------------------------------------------------
def is_media(path: str) -> bool:
    return path.lower().endswith(IMAGE_EXT) and path.startswith(MEDIA_ROOTS)


def taken_from_name(path: str) -> str:
    """The ISO time a camera or screenshot file name encodes ("" when none)."""
    name = path.rsplit("/", 1)[-1]
    for pat in _NAME_TIME:
        m = pat.search(name)
        if m:
            try:
                return dt.datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M%S").isoformat()
            except ValueError:
                return ""
    return ""


def describe(store: dict[str, Any], f: dict[str, Any], exif_place: str, now: str
             ) -> dict[str, Any]:
    """One photo as the screens show it: ``path``, ``name``, ``folder``, ``taken`` (ISO),
    ``place``, ``size``, ``sha256``, ``favorite``."""
    path = f["path"]
    meta = store["meta"].get(path, {})
    taken = meta.get("taken") or taken_from_name(path) or now
    return {"path": path, "name": path.rsplit("/", 1)[-1],
            "folder": folder_album(path), "taken": taken,
            "place": meta.get("place", exif_place), "size": int(f["size"]),
            "sha256": f["sha256"], "favorite": path in store["favorites"]}


def folder_album(path: str) -> str:
    for name, folder in FOLDERS:
        if path.startswith(folder):
            return name
    return path.rsplit("/", 2)[-2] if path.count("/") >= 3 else ""


def newest_first(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=lambda p: (p["taken"], p["path"]), reverse=True)


def toggle_favorite(store: dict[str, Any], path: str) -> bool:
    """Heart or un-heart a photo; True when it is now a favourite."""
    if path in store["favorites"]:
        store["favorites"].remove(path)
        return False
    store["favorites"].append(path)
    store["favorites"].sort()
    return True


def add_to_album(store: dict[str, Any], name: str, path: str) -> None:
    """Add a photo to a user album (``ValueError`` for an unknown album)."""
    for a in store["albums"]:
        if a["name"] == name:
            if path not in a["paths"]:
                a["paths"].append(path)
            return
    raise ValueError(f"no album {name!r}")


def to_trash(store: dict[str, Any], photo: dict[str, Any], data: bytes, now: str) -> None:
    """Keep a deleted photo (bytes, date, place) in the trash."""
    store["trash"] = [t for t in store["trash"] if t["path"] != photo["path"]]
    store["trash"].append({"path": photo["path"], "deleted": now, "taken": photo["taken"],
                           "place": photo["place"],
                           "data": base64.b64encode(data).decode("ascii")})


def from_trash(store: dict[str, Any], path: str) -> bytes:
    """Take a photo out of the trash; its bytes (``KeyError`` when it is not there)."""
    for t in store["trash"]:
        if t["path"] == path:
            store["trash"].remove(t)
            return base64.b64decode(t["data"])
    raise KeyError(f"{path!r} is not in the trash")


def save_edit(store: dict[str, Any], path: str, name: str, original: bytes) -> None:
    """Remember that ``path`` was saved with the filter ``name`` (``ValueError`` for a
    filter this editor does not offer), keeping the first original's bytes."""
    if name not in store["filters"]:
        raise ValueError(f"no filter {name!r} here; filters: {store['filters']}")
    kept = store["edits"].get(path, {}).get("original") or \
        base64.b64encode(original).decode("ascii")
    store["edits"][path] = {"filter": name, "original": kept}


def original_bytes(store: dict[str, Any], path: str) -> bytes | None:
    """The bytes of ``path`` before any filter was saved on it (None when unedited)."""
    e = store["edits"].get(path)
    return base64.b64decode(e["original"]) if e else None


# -- tables --------------------------------------------------------------------------------
def favorite_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": p} for p in sorted(store["favorites"])]


def album_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": a["name"], "paths": sorted(a["paths"])} for a in store["albums"]]


def trash_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"_id": t["path"], "deleted": t["deleted"], "taken": t["taken"],
             "place": t["place"]} for t in sorted(store["trash"], key=lambda t: t["path"])]


def edit_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``gallery/edits``: the photos saved with a filter, by path."""
    return [{"_id": p, "filter": e["filter"]} for p, e in sorted(store["edits"].items())]


def filter_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """``gallery/filters`` (static): the filters the editor offers, in its strip's order."""
    return [{"_id": n, "position": k} for k, n in enumerate(store["filters"], start=1)]


def media_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """The start photos' dates (``taken`` in ms since the epoch, as MediaStore's
    ``datetaken``) and places."""
    return [{"_id": p, "taken": epoch_ms(dt.datetime.fromisoformat(m["taken"])),
             "place": m["place"]} for p, m in sorted(store["meta"].items())]


# -- fixtures ------------------------------------------------------------------------------
def fixture_favorite(store: dict[str, Any], *, path: str) -> str:
    """Mark ``path`` a favourite (it must be a start photo)."""
    if path not in store["meta"]:
        raise ValueError(f"favorite: no start photo {path!r}")
    if path not in store["favorites"]:
        store["favorites"].append(path)
        store["favorites"].sort()
    return path
