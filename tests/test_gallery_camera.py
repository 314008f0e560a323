"""What is special about the Gallery and the Camera: photos are real files in shared storage
(drawn deterministically, small), the camera permission is asked through the system dialog and
its answer is kept, a shot is one new file that the Gallery shows, sharing a photo lists the
apps that take images, deleting removes exactly that file, and thumbnails show the photo's
pixels (decoded once, then cached)."""

from __future__ import annotations

import base64
import datetime as dt
import io
from typing import Any

import numpy as np
import pytest
from PIL import Image

from phoneworld_gym.app import all_apps
from phoneworld_gym.apps.camera import scenes
from phoneworld_gym.apps.camera import store as camera_store
from phoneworld_gym.apps.gallery import pictures
from phoneworld_gym.apps.gallery import store as gallery_store
from phoneworld_gym.apps.gallery import widgets as gallery_widgets
from phoneworld_gym.apps.gallery.screens import matches
from phoneworld_gym.contract import Action
from phoneworld_gym.life import CITIES
from phoneworld_gym.oracle import find, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import intents

CAMERA = "/sdcard/DCIM/Camera/"


def _device(seed: int = 0) -> PhoneWorldDevice:
    d = PhoneWorldDevice()
    d.reset(seed)
    return d


def _files(d: PhoneWorldDevice) -> dict[str, str]:
    return {str(r["_id"]): str(r["sha256"]) for r in d.probe.query("files")}


def _data(d: PhoneWorldDevice, path: str) -> bytes:
    return base64.b64decode(next(r["data"] for r in d.world.system["files"]
                                 if r["_id"] == path))


def _shown(path: str) -> str:
    """How a photo's time reads in the Gallery ("Mar 2, 2026, 12:37 PM"), from its name."""
    t = dt.datetime.fromisoformat(gallery_store.taken_from_name(path))
    return f"{t.strftime('%b')} {t.day}, {t.year}, {t.strftime('%I:%M %p').lstrip('0')}"


def _ok(d: PhoneWorldDevice, action: Action) -> None:
    assert d.execute(action) == "", action


def _open_camera(d: PhoneWorldDevice, answer: str | None = "While using the app") -> None:
    _ok(d, Action("open_app", app_name="Camera"))
    if answer is not None:
        _ok(d, tap(d, text=answer))


def _element(d: PhoneWorldDevice, **kw: Any) -> Any:
    i = find(d, **kw)
    assert i is not None, kw
    return d.ui_elements()[i]


# -- the start photos --------------------------------------------------------------------------
def test_start_photos_are_small_deterministic_pictures_with_their_metadata() -> None:
    a, b, other = _device(3), _device(3), _device(4)
    files = {p: s for p, s in _files(a).items() if gallery_store.is_media(p)}
    assert 12 <= len(files) <= 20
    assert files == {p: s for p, s in _files(b).items() if gallery_store.is_media(p)}
    assert files != {p: s for p, s in _files(other).items() if gallery_store.is_media(p)}
    total = sum(int(r["size"]) for r in a.probe.query("files") if r["_id"] in files)
    assert total < 200_000, total
    meta = {r["_id"]: r for r in a.probe.query("gallery/media")}
    assert set(meta) == set(files)
    for path in files:
        data = _data(a, path)
        with Image.open(io.BytesIO(data)) as im:
            assert im.format == ("PNG" if path.endswith(".png") else "JPEG")
            if path.startswith(CAMERA):
                assert im.size == (pictures.WIDTH, pictures.HEIGHT)
        # the EXIF place is the media table's place, which comes from the life's cities
        assert pictures.exif_place(data) == meta[path]["place"]
        if path.startswith(CAMERA):
            assert meta[path]["place"].split(",")[0] in {c for c, _, _ in CITIES}


def test_bad_input_names_the_problem_and_changes_nothing() -> None:
    with pytest.raises(ValueError, match="unknown scene 'moon'"):
        pictures.draw("moon", 1)
    with pytest.raises(ValueError, match="lens"):
        scenes.view(0, lens="side")
    with pytest.raises(ValueError, match="aspect"):
        scenes.view(0, aspect="1:1")
    d = _device(0)
    store = d.world.stores["gallery"]
    before = repr(store)
    with pytest.raises(ValueError, match="no album 'Nope'"):
        gallery_store.add_to_album(store, "Nope", next(iter(store["meta"])))
    with pytest.raises(ValueError, match="no start photo"):
        d.fixture("gallery", "favorite", path="/sdcard/DCIM/Camera/none.jpg")
    with pytest.raises(ValueError, match="unknown city"):
        gallery_store.place_of("Atlantis")
    assert repr(store) == before


# -- the permission dialog ---------------------------------------------------------------------
def test_denying_the_camera_shows_the_fallback_and_the_answer_is_kept() -> None:
    d = _device(0)
    _open_camera(d, answer=None)
    assert d.screen.package == intents.PERMISSION_PACKAGE
    assert text_of(d, rid="permission_message") == \
        "Allow Camera to take pictures and record video?"
    assert find(d, desc="Take photo") is None  # the dialog covers the viewfinder
    _ok(d, tap(d, text="Don't allow"))
    assert d.world.permissions["camera"]["camera"] == "denied"
    assert text_of(d, rid="permission_text") == "Camera permission needed"
    assert find(d, desc="Take photo") is None and find(d, desc="Viewfinder") is None
    # reopening does not ask again and still shows no shutter
    _ok(d, Action("navigate_home"))
    _ok(d, Action("open_app", app_name="Camera"))
    assert find(d, text="While using the app") is None
    assert text_of(d, rid="permission_text") == "Camera permission needed"


@pytest.mark.parametrize("answer,stored", [("While using the app", "granted"),
                                           ("Only this time", "once")])
def test_allowing_the_camera_opens_the_viewfinder_and_is_kept(answer: str, stored: str) -> None:
    d = _device(1)
    _open_camera(d, answer=answer)
    assert d.world.permissions["camera"]["camera"] == stored
    assert d.screen.package == all_apps()["camera"].package
    assert find(d, desc="Viewfinder") is not None and find(d, desc="Take photo") is not None
    _ok(d, Action("navigate_home"))
    _ok(d, Action("open_app", app_name="Camera"))
    assert find(d, text="While using the app") is None
    assert find(d, desc="Take photo") is not None


# -- a shot --------------------------------------------------------------------------------------
def _shot_now(d: Any) -> str:
    """The name a shot taken now gets: the phone's clock, to the second."""
    return CAMERA + "IMG_" + d.probe.now().replace("-", "").replace(":", "").replace(
        "T", "_") + ".jpg"


def test_a_shot_is_one_new_dcim_file_that_the_gallery_shows() -> None:
    d = _device(2)
    before = _files(d)
    _open_camera(d)
    seen = scenes.view(len([p for p in before if p.startswith(CAMERA)]))
    _ok(d, tap(d, desc="Take photo"))
    after = _files(d)
    new = sorted(set(after) - set(before))
    assert new == [_shot_now(d)] and new[0].startswith(CAMERA + "IMG_20260314_1030")
    assert {p: after[p] for p in before} == before  # nothing else touched
    data = _data(d, new[0])
    with Image.open(io.BytesIO(data)) as im:
        shot = np.asarray(im.convert("RGB"), dtype=np.float32)
    # the file is the scene the viewfinder showed (JPEG noise aside)
    assert float(np.abs(shot - np.asarray(seen, dtype=np.float32)).mean()) < 4.0
    home = d.world.stores["camera"]["place"]
    assert pictures.exif_place(data) == home
    # a second shot gets the name of its own second (the clock moved with the tap)
    _ok(d, tap(d, desc="Take photo"))
    assert _shot_now(d) in _files(d) and _shot_now(d) != new[0]
    # the Gallery shows the new photo under Today, with the place from its EXIF
    _ok(d, Action("open_app", app_name="Gallery"))
    assert text_of(d, rid="date_header") == "Today"
    _element(d, desc=f"Photo taken on Mar 14, 2026, 10:30 AM in {home}")


def test_settings_change_the_shot_and_their_table() -> None:
    d = _device(0)
    _open_camera(d)
    _ok(d, tap(d, desc="Settings"))
    _ok(d, tap(d, text="16:9", rid="aspect_option"))
    _ok(d, tap(d, text="Save location"))
    _ok(d, Action("navigate_back"))
    _ok(d, tap(d, desc="Take photo"))
    rows = {r["_id"]: r["value"] for r in d.probe.query("camera/settings")}
    assert rows["aspect"] == "16:9" and rows["location"] == "false"
    path = _shot_now(d)
    data = _data(d, path)
    with Image.open(io.BytesIO(data)) as im:
        assert im.size == scenes.SIZES["16:9"]
    assert pictures.exif_place(data) == ""
    assert camera_store.cycle(camera_store.TIMERS, 10) == 0


# -- sharing -----------------------------------------------------------------------------------
def test_sharing_a_photo_lists_the_apps_that_take_images_and_attaches_it() -> None:
    d = _device(0)
    path = sorted(p for p in _files(d) if p.startswith(CAMERA))[-1]
    _ok(d, Action("open_app", app_name="Gallery"))
    _ok(d, tap(d, desc=f"taken on {_shown(path)}", contains=True))  # the newest camera photo
    _ok(d, tap(d, rid="share"))
    assert d.screen.package == intents.RESOLVER_PACKAGE
    assert text_of(d, rid="content_preview_text") == path.rsplit("/", 1)[-1]
    listed = [e.text for e in d.ui_elements()
              if (e.resource_id or "").endswith("/sharesheet_target")]
    want = [a.label for a, _ in intents.share_targets("image/jpeg", list(all_apps().values()),
                                                      exclude="gallery")]
    assert listed == want and "Email" in listed
    assert "Messages" not in listed  # Messages takes text only
    _ok(d, tap(d, desc="Email", rid="sharesheet_target"))
    assert d.world.foreground == "email"
    email = next(c["email"] for c in d.probe.contacts() if c["email"])
    _ok(d, type_into(d, email, rid="to"))
    _ok(d, tap(d, desc="Send"))
    sent = [m for m in d.probe.query("email/messages") if m["folder"] == "sent"
            and m["attachments"]]
    assert [a["sha256"] for a in sent[-1]["attachments"]] == [_files(d)[path]]


# -- deleting ---------------------------------------------------------------------------------
def test_deleting_removes_exactly_that_file_and_restoring_brings_it_back() -> None:
    d = _device(1)
    before = _files(d)
    _ok(d, Action("open_app", app_name="Gallery"))
    desc = _element(d, rid="photo").content_description
    _ok(d, tap(d, rid="photo"))
    when = text_of(d, rid="photo_date")
    _ok(d, tap(d, rid="delete"))
    assert text_of(d, rid="alertTitle") == "Move to trash?"
    _ok(d, tap(d, text="Cancel"))
    assert _files(d) == before
    _ok(d, tap(d, rid="delete"))
    _ok(d, tap(d, text="Move to trash"))
    after = _files(d)
    gone = sorted(set(before) - set(after))
    assert len(gone) == 1 and set(after) - set(before) == set()
    assert {p: before[p] for p in after} == after
    assert [r["_id"] for r in d.probe.query("gallery/trash")] == gone
    assert find(d, desc=desc) is None  # no longer in the grid
    assert when is not None
    # Library > Trash > the item > Restore: the same bytes come back
    _ok(d, tap(d, rid="nav_library"))
    _ok(d, tap(d, rid="trash"))
    _ok(d, tap(d, rid="trash_item"))
    _ok(d, tap(d, text="Restore"))
    assert _files(d) == before and d.probe.query("gallery/trash") == []


def test_favourites_and_albums_are_the_gallery_tables() -> None:
    d = _device(2)
    favs = {r["_id"] for r in d.probe.query("gallery/favorites")}
    _ok(d, Action("open_app", app_name="Gallery"))
    _ok(d, tap(d, desc="Search your photos"))
    _ok(d, type_into(d, "2025", rid="search_bar"))  # the winter's photos
    _ok(d, tap(d, rid="photo"))
    when = text_of(d, rid="photo_date")
    heart = _element(d, rid="favorite").content_description
    _ok(d, tap(d, rid="favorite"))
    now = {r["_id"] for r in d.probe.query("gallery/favorites")}
    (toggled,) = now ^ favs
    assert _shown(toggled) == when  # the photo on screen, named by its file
    assert (heart == "Favorite") == (toggled in now)
    album = next(a for a in d.probe.query("gallery/albums") if toggled not in a["paths"])
    _ok(d, tap(d, rid="add_to_album"))
    _ok(d, tap(d, text=album["_id"], rid="album_choice_title"))
    grown = next(a for a in d.probe.query("gallery/albums") if a["_id"] == album["_id"])
    assert grown["paths"] == sorted([*album["paths"], toggled])


def test_search_matches_places_months_and_days() -> None:
    p = {"place": "Tucson, AZ", "taken": "2026-03-02T12:37:24"}
    assert matches(p, "tucson") and matches(p, "Tucson, AZ") and matches(p, "az")
    assert matches(p, "March 2026") and matches(p, "mar 2") and matches(p, "March 2, 2026")
    assert matches(p, "2026-03-02") and matches(p, "march") and matches(p, "2026")
    assert not matches(p, "Austin") and not matches(p, "March 3") and not matches(p, "")
    assert not matches(p, "february 2026") and not matches(p, "2025")


# -- thumbnails ---------------------------------------------------------------------------------
def _pixels(d: PhoneWorldDevice, elem: Any) -> np.ndarray:
    b = elem.bbox_pixels
    shot = np.asarray(d.screenshot(), dtype=np.float32)
    return shot[int(b.y_min):int(b.y_max), int(b.x_min):int(b.x_max)]


def _expected_thumb(data: bytes, w: int, h: int) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as im:
        img = im.convert("RGB")
    side = min(img.size)
    x, y = (img.width - side) // 2, (img.height - side) // 2
    img = img.crop((x, y, x + side, y + side)).resize((w, h), Image.Resampling.BILINEAR)
    return np.asarray(img, dtype=np.float32)


def test_thumbnails_show_the_photos_pixels_and_are_decoded_once() -> None:
    d = _device(0)
    _ok(d, Action("open_app", app_name="Gallery"))
    thumbs = [e for e in d.ui_elements() if (e.resource_id or "").endswith("/photo")]
    assert len(thumbs) >= 2
    media = {p: _data(d, p) for p in _files(d)
             if gallery_store.is_media(p) and gallery_store.taken_from_name(p)}
    checked = 0
    for e in thumbs[:4]:
        named = [p for p in media if f"taken on {_shown(p)}" in e.content_description]
        if len(named) != 1:
            continue  # a download: its name holds no time
        (path,) = named
        checked += 1
        crop = _pixels(d, e)
        h, w = crop.shape[:2]
        right = float(np.abs(crop - _expected_thumb(media[path], w, h)).mean())
        assert right < 6.0, (path, right)
        # every other picture is far off: the thumbnail shows this photo, not a placeholder
        others = [float(np.abs(crop - _expected_thumb(data, w, h)).mean())
                  for p, data in media.items() if p != path]
        assert min(others) > right + 8.0, (path, right, min(others))
    assert checked >= 2
    # decoded once: further frames of the same photos decode nothing
    gallery_widgets.clear_cache()
    start = gallery_widgets.STATS["decodes"]
    _ok(d, Action("scroll", direction="down"))  # a new frame: the photos it shows decoded
    d.screenshot()
    made = gallery_widgets.STATS["decodes"]
    shown = [e for e in d.ui_elements() if (e.resource_id or "").endswith("/photo")]
    total = sum(1 for p in _files(d) if gallery_store.is_media(p))
    # only the cells on screen are drawn, so only their photos are decoded
    assert 0 < made - start == len({e.content_description for e in shown}) < total
    _ok(d, Action("scroll", direction="up"))
    _ok(d, Action("scroll", direction="down"))
    d.screenshot()
    assert gallery_widgets.STATS["decodes"] == made


def test_long_press_selects_photos_and_deletes_exactly_those() -> None:
    d = _device(0)
    before = _files(d)
    _ok(d, Action("open_app", app_name="Gallery"))
    first, third = _element(d, rid="photo"), _element(d, rid="photo", nth=2)
    _ok(d, Action("long_press", index=find(d, rid="photo")))
    assert text_of(d, rid="selection_count") == "1 selected"
    assert _element(d, rid="photo").is_checked
    _ok(d, tap(d, rid="photo", nth=2))  # in selection mode a tap selects
    _ok(d, tap(d, rid="photo", nth=1))
    _ok(d, tap(d, rid="photo", nth=1))  # ... and a second tap unselects
    assert text_of(d, rid="selection_count") == "2 selected"
    # back ends the selection without deleting; select again and delete
    _ok(d, Action("navigate_back"))
    assert find(d, rid="selection_bar") is None and d.world.foreground == "gallery"
    _ok(d, Action("long_press", index=find(d, rid="photo")))
    _ok(d, tap(d, rid="photo", nth=2))
    _ok(d, tap(d, desc="Delete"))
    assert text_of(d, rid="alertTitle") == "Move 2 items to trash?"
    _ok(d, tap(d, text="Move to trash"))
    gone = sorted(set(before) - set(_files(d)))
    assert len(gone) == 2 and set(_files(d)) <= set(before)
    assert sorted(f"taken on {_shown(p)}" in first.content_description
                  or f"taken on {_shown(p)}" in third.content_description for p in gone) \
        == [True, True]
    assert sorted(r["_id"] for r in d.probe.query("gallery/trash")) == gone
