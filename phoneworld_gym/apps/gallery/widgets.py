"""Gallery's own compositions of toolkit views: a photo grid of real thumbnails, the lines of
its Details sheet (shown in ``ui.sheets.bottom_sheet``), a search-suggestion list with glyphs
and place names, and the decoded-picture cache.

Pictures are decoded from the file bytes in shared storage; decoding a JPEG and scaling it
costs about a millisecond, so the decoded images live in a module-level LRU keyed by the
file's SHA-256 (content, not path: a moved file keeps its entry, a replaced one gets a new
one). The renderer caches scaled pixels by image identity, so handing it the same PIL object
frame after frame also saves it from scaling again.
"""

from __future__ import annotations

import collections
import io
from collections.abc import Callable, Sequence

from PIL import Image as PILImage

from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Picture, Row, Text, View, dp

THUMB = 256
#: decoded pictures: (sha256, kind) -> PIL image; kind "thumb" (square) or "full"
_CACHE: collections.OrderedDict[tuple[str, str], PILImage.Image] = collections.OrderedDict()
#: bound: 256 pictures and 24 MiB of pixels, least recently used out first. A world's grid
#: needs ~30 thumbnails (~6 MiB); every world has photos of its own, which never come back
CACHE_SIZE = 256
CACHE_BYTES = 24 << 20
_BYTES = [0]
#: how many decodes the cache saved and how many it made (for measurements and tests)
STATS = {"hits": 0, "decodes": 0}
_BROKEN = PILImage.new("RGB", (THUMB, THUMB), (120, 120, 120))


def decoded(sha: str, kind: str, data: Callable[[], bytes]) -> PILImage.Image:
    """The picture with content hash ``sha``: ``"full"`` (as stored) or ``"thumb"`` (the
    centre square, 256 px); ``data()`` gives the bytes on a miss. A file that is not a
    picture shows as a grey square."""
    key = (sha, kind)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        STATS["hits"] += 1
        return hit
    STATS["decodes"] += 1
    try:
        with PILImage.open(io.BytesIO(data())) as im:
            img = im.convert("RGB")
    except Exception:  # not a picture: what a gallery shows for a broken file
        img = _BROKEN
    if kind == "thumb":
        side = min(img.size)
        x, y = (img.width - side) // 2, (img.height - side) // 2
        img = img.crop((x, y, x + side, y + side)).resize((THUMB, THUMB),
                                                          PILImage.Resampling.BILINEAR)
    _CACHE[key] = img
    _BYTES[0] += _nbytes(img)
    while len(_CACHE) > 1 and (len(_CACHE) > CACHE_SIZE or _BYTES[0] > CACHE_BYTES):
        _BYTES[0] -= _nbytes(_CACHE.popitem(last=False)[1])
    return img


def _nbytes(img: PILImage.Image) -> int:
    return img.width * img.height * len(img.getbands())


def clear_cache() -> None:
    """Forget every decoded picture (tests measure the cost of a cold frame with it)."""
    _CACHE.clear()
    _BYTES[0] = 0


def grid(cells: Sequence[View], cols: int = 4, gap: int = dp(2)) -> Column:
    """Square cells, ``cols`` to a row (the last row padded)."""
    side = (1080 - gap * (cols - 1)) // cols
    rows: list[View] = []
    for i in range(0, len(cells), cols):
        chunk = list(cells[i:i + cols])
        for c in chunk:
            c.width = c.width or side
            c.height = c.height or side
        chunk += [View(width=side, height=side, in_dump=False)
                  for _ in range(cols - len(chunk))]
        rows.append(Row(chunk, gap=gap))
    return Column(rows, gap=gap, cls="androidx.recyclerview.widget.RecyclerView",
                  rid="photo_grid")


def thumb(image: PILImage.Image | Callable[[], PILImage.Image], *, desc: str,
          on_click: Handler | None, favorite: bool = False,
          rid: str = "photo", on_long_click: Handler | None = None,
          picked: bool | None = None) -> View:
    """One grid cell: the picture (an ``ImageView`` with a content-desc), a small heart on
    favourites. While photos are being selected (``picked`` not None) it is checkable, with
    a tick (selected) or an empty circle in its corner."""
    pic = Picture(image, desc=desc, on_click=on_click, on_long_click=on_long_click, rid=rid,
                  checkable=picked is not None, checked=bool(picked), selected=bool(picked))
    marks: list[View] = []
    if picked is not None:
        marks.append(Icon("circle_check" if picked else "circle", size=18, box=26,
                          color=(26, 115, 232) if picked else (255, 255, 255),
                          bg=(255, 255, 255) if picked else None, radius=dp(13),
                          in_dump=False))
    if favorite:
        marks.append(Icon("heart", size=14, box=22, color=(255, 255, 255), in_dump=False))
    if marks:
        pic.children = [Column([Row(marks, gap=dp(4), padding=(dp(6), dp(6), 0, 0),
                                    in_dump=False), View(flex=1, in_dump=False)],
                               in_dump=False)]
    return pic


def detail_row(icon: str, title: str, subtitle: str, *, rid: str,
               theme: w.Theme = w.DEFAULT_THEME) -> Row:
    """An info sheet line: an icon, a value and what it is."""
    return Row([Icon(icon, size=22, box=40, color=theme.on_surface_variant, in_dump=False),
                Column([Text(title, size=16, color=theme.on_surface, max_lines=2, rid=rid),
                        Text(subtitle, size=14, color=theme.on_surface_variant, max_lines=2)],
                       flex=1, gap=dp(2))],
               gap=dp(16), padding=(dp(24), dp(10), dp(24), dp(10)),
               cls="android.widget.LinearLayout")


def suggestions(items: Sequence[tuple[str, str, str, Handler]], *,
                theme: w.Theme = w.DEFAULT_THEME) -> Column:
    """Search suggestions under a search field, as a ``ListView`` of rows: (icon, text,
    secondary text, handler) each."""
    rows: list[View] = []
    for icon, label, sub, h in items:
        rows.append(w.list_item(label, subtitle=sub,
                                leading=Icon(icon, size=20, box=40,
                                             color=theme.on_surface_variant),
                                on_click=h, rid="suggestion", theme=theme, desc=label))
    return Column(rows, cls="android.widget.ListView", rid="suggestions")
