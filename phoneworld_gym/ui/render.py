"""Pixels from a laid-out view tree: a display list in screenshot pixels, painted with numpy,
and repainted incrementally from one frame to the next.

Layout is always in logical 1080 x 2400 pixels. :func:`display_list` walks the laid-out tree
once and turns every node into *ops* in screenshot pixels (every coordinate and font scaled by
``width / 1080``, so a 540 x 1200 screenshot is drawn directly, not downscaled). An op is a
plain tuple ``(kind, x1, y1, x2, y2, *params)``: the rectangle it may touch (already cut to
the scroll viewports above it) and everything that decides its pixels, so two equal tuples
paint equal pixels. The kinds:

- ``FILL``: a solid rectangle (backgrounds, dividers, strike-through and cursor lines);
- ``RRECT``: a rectangle with rounded corners, a fill and/or an outline;
- ``TEXT``: an anti-aliased text run or icon glyph (a cached coverage mask) in one colour;
- ``ELLIPSE``: a solid ellipse (round avatars);
- ``BLEND``: a translucent rectangle (the scrim under a dialog);
- ``PICTURE``: a ready-made picture scaled into a box (Overview thumbnails).

Every op is *local*: it changes only pixels inside its rectangle, and each pixel it writes is a
function of that pixel's old value, the op and the pixel's position. So painting the ops of a
list in order *restricted to any rectangle* gives exactly the pixels a full paint gives
there. :class:`FrameRenderer` uses that: it keeps the previous frame and its display list,
diffs the new list against the old one (ops are compared whole; an op that appears in one list
only damages its rectangle, except a fill that only moved or resized in its place among the
shared ops, which damages what it covers in one frame only; if the shared ops changed order,
everything is damaged), merges the damaged rectangles into bands that do not overlap
vertically and repaints only those, each from the last opaque op covering it and skipping
what later opaque ops cover. Each row of the new frame is written once: copied from the last
frame, or painted. :func:`render` (a fresh full paint) and the incremental frames therefore
agree pixel for pixel; ``tests/test_incremental.py`` checks it at every step of every oracle.

Drawing primitives are numpy slice assignments: rectangle fills copy a pre-filled row, corner
and ellipse masks are cached boolean arrays, and text is blended through its coverage mask
with one integer formula, ``(under * (255 - m) + colour * m + 127) // 255``. When the last op
under a text run (or a small rounded rectangle or ellipse) is a solid fill that covers it,
the usual case of a label on a card, it is drawn from a cached *sprite*: the same op painted
over that colour, so the pixels are the same, in a single copy. A band index of the display
list finds that op without scanning the list.
"""

from __future__ import annotations

import bisect
import colorsys
import functools
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import numpy as np
from PIL import Image as PILImage
from PIL import ImageDraw

from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH
from phoneworld_gym.ui.fonts import ICONS, icon_font, text_font
from phoneworld_gym.ui.view import (
    Color,
    Divider,
    Icon,
    Image,
    Picture,
    Scroll,
    Text,
    TextField,
    View,
    text_width,
)

__all__ = ["DisplayList", "FrameRenderer", "damage", "display_list", "paint", "render",
           "render_array"]

FILL, RRECT, TEXT, ELLIPSE, BLEND, PICTURE = range(6)
#: op kind -> name, for profiles and tests
KINDS = ("fill", "rrect", "text", "ellipse", "blend", "picture")

Op = tuple[Any, ...]
Rect = tuple[int, int, int, int]
RGB = tuple[int, int, int]


class _ByteLRU:
    """A least-recently-used cache bounded by the bytes of its values."""

    def __init__(self, max_bytes: int):
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.max_bytes = max_bytes
        self.bytes = 0

    def get(self, key: Hashable) -> Any:
        hit = self._items.get(key)
        if hit is None:
            return None
        self._items.move_to_end(key)
        return hit[0]

    def put(self, key: Hashable, value: Any, nbytes: int) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        self._items[key] = (value, nbytes)
        self.bytes += nbytes
        self.trim(keep=1)

    def trim(self, keep: int = 0) -> None:
        """Drop the least recently used values until the bytes fit (keeping ``keep``)."""
        while self.bytes > self.max_bytes and len(self._items) > keep:
            _, (_, n) = self._items.popitem(last=False)
            self.bytes -= n

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)


#: coverage masks of text runs and glyphs: (text, px, weight, anchor) -> (mask, dx, dy);
#: bound: 32 MiB (set_cache_limits), several screens' worth of text
_MASKS = _ByteLRU(32 << 20)
#: text runs blended over a known solid colour: (mask key, colour, backdrop) -> RGB pixels.
#: Replaying every task's oracle once at 1080 x 2400 draws about 40 MiB of them (a quarter
#: of that at 540 x 1200); a miss costs about 0.1 ms, a hit a few microseconds.
#: bound: 64 MiB (set_cache_limits)
_SPRITES = _ByteLRU(64 << 20)
#: pictures scaled to a box: (id(image), w, h) -> (image, RGB pixels); bound: 16 MiB (a
#: screen's photos and maps)
_PICTURES = _ByteLRU(16 << 20)
#: rounded rectangles split into fills and corner masks, relative to their top-left corner;
#: bound: 4 MiB (cards and buttons come in a few hundred sizes)
_SHAPES = _ByteLRU(4 << 20)
#: small rounded rectangles and ellipses painted over a known solid colour; bound: 16 MiB
_SHAPE_SPRITES = _ByteLRU(16 << 20)
#: the largest shape (pixels) drawn from a sprite; bigger ones are painted piece by piece
_SHAPE_SPRITE_MAX = 160_000
#: rows per band of the index that finds what lies under an op
_BAND = 64
#: draw text and small shapes over a known solid colour from cached sprites (the pixels are
#: the same as painting them over that colour; tests turn this off to check it)
SPRITES = True
#: (colour, backdrop) -> 256 blended colours; bound: emptied past 4,096 pairs (~4 MiB), while
#: a theme blends a few hundred
_BLEND_LUTS: dict[tuple[RGB, RGB], np.ndarray] = {}
_BLEND_LUTS_MAX = 4096
#: corner masks of rounded rectangles by (radius, border); bound: 4 MiB (a few dozen radii)
_CORNERS = _ByteLRU(4 << 20)
#: ellipse masks by size; bound: 4 MiB (avatars and dots come in a few sizes)
_ELLIPSES = _ByteLRU(4 << 20)


def cache_sizes() -> dict[str, int]:
    """Bytes held by the renderer's caches (for the benchmark's memory figures)."""
    return {"masks": _MASKS.bytes, "sprites": _SPRITES.bytes, "pictures": _PICTURES.bytes,
            "shapes": _SHAPES.bytes, "shape sprites": _SHAPE_SPRITES.bytes,
            "ellipses": _ELLIPSES.bytes, "corners": _CORNERS.bytes}


def set_cache_limits(masks: int | None = None, sprites: int | None = None) -> None:
    """Bound the process-wide caches of text masks and text sprites (bytes; defaults 32 and
    64 MiB). Smaller limits trade memory for time (a miss re-rasterises or re-blends a run);
    the pixels are the same either way."""
    for cache, limit in ((_MASKS, masks), (_SPRITES, sprites)):
        if limit is not None:
            cache.max_bytes = int(limit)
            cache.trim()


def glyph_mask(text: str, px: int, weight: str, anchor: str) -> tuple[np.ndarray, int, int]:
    """Coverage mask (uint8, rows x columns) of a text run (``weight="icon"`` for the icon
    font) and its offset from the anchor point. Rasterised once, reused by every frame."""
    key = (text, px, weight, anchor)
    hit = _MASKS.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    font = icon_font(px) if weight == "icon" else text_font(px, weight)
    assert font is not None
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    left, top = int(left), int(top)
    mask = PILImage.new("L", (max(1, int(right) - left), max(1, int(bottom) - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    arr = np.asarray(mask, dtype=np.uint8)
    out = (arr, left, top)
    _MASKS.put(key, out, arr.nbytes + 200)
    return out


def _blend_lut(color: RGB, bg: RGB) -> np.ndarray:
    """``lut[m]``: ``color`` over ``bg`` at coverage ``m`` (the one blending formula)."""
    lut = _BLEND_LUTS.get((color, bg))
    if lut is None:
        if len(_BLEND_LUTS) >= _BLEND_LUTS_MAX:
            _BLEND_LUTS.clear()
        m = np.arange(256, dtype=np.uint32)[:, None]
        lut = ((np.array(bg, np.uint32) * (255 - m) + np.array(color, np.uint32) * m + 127)
               // 255).astype(np.uint8)
        _BLEND_LUTS[(color, bg)] = lut
    return lut


def _sprite(mask_key: tuple[Any, ...], mask: np.ndarray, color: RGB, bg: RGB) -> np.ndarray:
    key = (mask_key, color, bg)
    hit = _SPRITES.get(key)
    if hit is None:
        hit = np.take(_blend_lut(color, bg), mask, axis=0)
        _SPRITES.put(key, hit, hit.nbytes + 200)
    return hit  # type: ignore[no-any-return]


def _corner(r: int, bw: int) -> np.ndarray:
    """The top-left corner (r x r) of a rounded rectangle: 0 outside, 1 fill, 2 outline.
    A pixel is inside when its centre is within ``r`` of the corner circle's centre; it is
    outline when it is also further than ``r - bw``."""
    hit = _CORNERS.get((r, bw))
    if hit is None:
        c = np.arange(r, dtype=np.float64) + 0.5
        dx = r - c[None, :]
        dy = r - c[:, None]
        d = np.sqrt(dx * dx + dy * dy)
        inside = d <= r
        hit = inside.astype(np.uint8)
        if bw:
            hit[inside & (d > r - bw)] = 2
        _CORNERS.put((r, bw), hit, hit.nbytes + 100)
    return hit  # type: ignore[no-any-return]


def _ellipse_mask(w: int, h: int) -> np.ndarray:
    hit = _ELLIPSES.get((w, h))
    if hit is None:
        ys = (np.arange(h, dtype=np.float64) + 0.5 - h / 2) / (h / 2)
        xs = (np.arange(w, dtype=np.float64) + 0.5 - w / 2) / (w / 2)
        hit = (xs[None, :] ** 2 + ys[:, None] ** 2) <= 1.0
        _ELLIPSES.put((w, h), hit, hit.nbytes + 100)
    return hit  # type: ignore[no-any-return]


def _rrect_pieces(w: int, h: int, r: int, fill: RGB | None, outline: RGB | None,
                  bw: int) -> list[tuple[Any, ...]]:
    """A rounded rectangle of size w x h at (0, 0) as fills ``(FILL, x1, y1, x2, y2, colour)``
    and corner masks ``(None, x, y, bool mask, colour)``."""
    key = (w, h, r, fill, outline, bw)
    hit = _SHAPES.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    out: list[tuple[Any, ...]] = []
    r = max(0, min(r, w // 2, h // 2))
    if outline is None:
        bw = 0

    def f(x1: int, y1: int, x2: int, y2: int, col: RGB | None) -> None:
        if col is not None and x2 > x1 and y2 > y1:
            out.append((FILL, x1, y1, x2, y2, col))

    # the straight parts: top and bottom bands between the corners, then the middle band
    tb = min(bw, r)  # outline rows inside the corner bands
    f(r, 0, w - r, tb, outline)
    f(r, tb, w - r, r, fill)
    f(r, h - r, w - r, h - tb, fill)
    f(r, h - tb, w - r, h, outline)
    top_out = max(r, min(bw, h - r))  # a border wider than the radius continues below
    bot_out = min(h - r, max(h - bw, top_out))
    f(0, r, w, top_out, outline)
    f(0, bot_out, w, h - r, outline)
    f(0, top_out, min(bw, w), bot_out, outline)
    f(max(w - bw, min(bw, w)), top_out, w, bot_out, outline)
    f(min(bw, w), top_out, max(w - bw, min(bw, w)), bot_out, fill)
    if r:
        code = _corner(r, bw)
        for x, y, cc in ((0, 0, code), (w - r, 0, code[:, ::-1]), (0, h - r, code[::-1, :]),
                         (w - r, h - r, code[::-1, ::-1])):
            for value, col in ((1, fill), (2, outline)):
                if col is None:
                    continue
                m = np.ascontiguousarray(cc == value)
                if m.any():
                    out.append((None, x, y, m, col))
    _SHAPES.put(key, out, 200 + sum(p[3].nbytes for p in out if p[0] is None))
    return out


#: insets of solid rectangles inside corners and ellipses; bound: emptied past 8,192 shapes
#: (~1 MiB of small tuples)
_INSETS: dict[tuple[Any, ...], tuple[int, int]] = {}
_INSETS_MAX = 8192


def _put_inset(key: tuple[Any, ...], value: tuple[int, int]) -> tuple[int, int]:
    if len(_INSETS) >= _INSETS_MAX:
        _INSETS.clear()
    _INSETS[key] = value
    return value


def _corner_inset(r: int, bw: int) -> int:
    """The smallest ``k`` such that the corner's pixels at least ``k`` from both edges are all
    fill: a rounded rectangle inset by ``k`` on every side is solid."""
    key = ("corner", r, bw)
    hit = _INSETS.get(key)
    if hit is None:
        code = _corner(r, bw)
        k = max(bw, 0)
        while k < r and not (code[k:, k:] == 1).all():
            k += 1
        hit = _put_inset(key, (k, k))
    return hit[0]


def _ellipse_inset(w: int, h: int) -> tuple[int, int]:
    """Insets (x, y) of a rectangle inside the ellipse mask of w x h."""
    key = ("ellipse", w, h)
    hit = _INSETS.get(key)
    if hit is None:
        mask = _ellipse_mask(w, h)
        kx, ky = int(w * 0.1465), int(h * 0.1465)  # 1 - 1/sqrt(2), rounded down
        while kx < w // 2 and ky < h // 2 and not mask[ky:h - ky, kx:w - kx].all():
            kx, ky = kx + 1, ky + 1
        hit = _put_inset(key, (kx, ky))
    return hit


def _inside(op: Op) -> list[Rect]:
    """Rectangles inside a rounded rectangle's outline and corners (cut to its clip)."""
    _, ax1, ay1, ax2, ay2, x1, y1, x2, y2, r, fill, outline, bw = op
    r = max(0, min(r, (x2 - x1) // 2, (y2 - y1) // 2))
    b = bw if outline is not None else 0
    rb = max(r, b)
    k = _corner_inset(r, b) if r else b
    out = []
    for sx1, sy1, sx2, sy2 in ((x1 + b, y1 + rb, x2 - b, y2 - rb),
                               (x1 + rb, y1 + b, x2 - rb, y2 - b),
                               (x1 + k, y1 + k, x2 - k, y2 - k)):
        sx1, sy1 = max(sx1, ax1), max(sy1, ay1)
        sx2, sy2 = min(sx2, ax2), min(sy2, ay2)
        if sx2 > sx1 and sy2 > sy1:
            out.append((sx1, sy1, sx2, sy2))
    return out


def _solid(op: Op) -> list[tuple[int, int, int, int, RGB]]:
    """Rectangles an op covers with one opaque colour (for occlusion and text backdrops)."""
    kind = op[0]
    if kind == FILL:
        return [(op[1], op[2], op[3], op[4], op[5])]
    if kind == RRECT and op[10] is not None:
        return [(*r, op[10]) for r in _inside(op)]
    if kind == ELLIPSE:
        _, ax1, ay1, ax2, ay2, x1, y1, x2, y2, fill = op
        kx, ky = _ellipse_inset(x2 - x1, y2 - y1)
        sx1, sy1 = max(x1 + kx, ax1), max(y1 + ky, ay1)
        sx2, sy2 = min(x2 - kx, ax2), min(y2 - ky, ay2)
        return [(sx1, sy1, sx2, sy2, fill)] if sx2 > sx1 and sy2 > sy1 else []
    return []


def _holes(op: Op) -> list[Rect]:
    """Rectangles inside an op's rectangle that it leaves untouched (an outline's inside)."""
    if op[0] == RRECT and op[10] is None:
        return _inside(op)
    return []


# bound: 4,096 colours (~100 B each); themes use a few dozen
@functools.lru_cache(maxsize=4096)
def night_color(c: RGB) -> RGB:
    """A colour under the dark theme, the way Android's force-dark darkens apps that bring no
    dark theme of their own: lightness is inverted (white surfaces become near-black, dark
    text near-white) within [0.07, 0.90], hue and saturation kept; saturated mid-tones (brand
    colours, filled buttons) only lose a little lightness."""
    h, lum, sat = colorsys.rgb_to_hls(c[0] / 255, c[1] / 255, c[2] / 255)
    if sat > 0.45 and 0.25 < lum < 0.7:
        lum2, sat2 = max(0.25, lum - 0.06), sat
    else:
        lum2 = 0.07 + (1.0 - lum) * 0.83
        # tinted light surfaces become near-neutral dark ones; pale text stays a little tinted
        sat2 = sat * 0.3 if lum2 < 0.35 else sat * 0.6 if lum2 > 0.8 else sat
    r, g, b = colorsys.hls_to_rgb(h, lum2, sat2)
    return int(round(r * 255)), int(round(g * 255)), int(round(b * 255))


def night_list(dl: DisplayList) -> DisplayList:
    """``dl`` with every drawn colour through :func:`night_color`; pictures (photos,
    thumbnails) are left as they are, as the dark theme leaves images alone."""
    nc = night_color
    ops: list[Op] = []
    for op in dl.ops:
        k = op[0]
        if k == FILL:
            op = (*op[:5], nc(op[5]))
        elif k == TEXT:
            op = (*op[:8], nc(op[8]))
        elif k == RRECT:
            fill, outline = op[10], op[11]
            op = (*op[:10], None if fill is None else nc(fill),
                  None if outline is None else nc(outline), op[12])
        elif k == ELLIPSE:
            op = (*op[:9], nc(op[9]))
        elif k == BLEND:
            op = (*op[:5], nc(op[5]), op[6])
        ops.append(op)
    return DisplayList(ops, dl.pictures, dl.size)


class DisplayList:
    """The ops of one frame, in painting order, and the pictures they name."""

    __slots__ = ("ops", "pictures", "size")

    def __init__(self, ops: list[Op], pictures: dict[int, PILImage.Image],
                 size: tuple[int, int]):
        self.ops = ops
        self.pictures = pictures
        self.size = size


def display_list(root: View, size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
                 background: Color = (255, 255, 255)) -> DisplayList:
    """The ops that draw the laid-out tree at ``size`` (width, height), in painting order:
    first the background, then each visible node (its background, then its own content, then
    its children)."""
    W, H = size
    s = W / SCREEN_WIDTH
    bg = (int(background[0]), int(background[1]), int(background[2]))
    ops: list[Op] = [(FILL, 0, 0, W, H, bg)]
    pictures: dict[int, PILImage.Image] = {}
    append = ops.append

    def px(v: float) -> int:
        return int(round(v * s))

    def emit(kind: int, x1: int, y1: int, x2: int, y2: int, clip: Rect, *params: Any) -> None:
        ax1 = x1 if x1 > clip[0] else clip[0]
        ay1 = y1 if y1 > clip[1] else clip[1]
        ax2 = x2 if x2 < clip[2] else clip[2]
        ay2 = y2 if y2 < clip[3] else clip[3]
        if ax2 > ax1 and ay2 > ay1:
            append((kind, ax1, ay1, ax2, ay2, *params))

    def rect(box: tuple[int, int, int, int]) -> Rect:
        x1, y1 = px(box[0]), px(box[1])
        x2, y2 = px(box[2]), px(box[3])
        return x1, y1, (x2 if x2 > x1 else x1 + 1), (y2 if y2 > y1 else y1 + 1)

    def text(pos: tuple[int, int], run: str, size_px: int, weight: str, anchor: str,
             color: Color, clip: Rect) -> None:
        if not run:
            return
        mask, dx, dy = glyph_mask(run, size_px, weight, anchor)
        x, y = pos[0] + dx, pos[1] + dy
        emit(TEXT, x, y, x + mask.shape[1], y + mask.shape[0], clip, x, y,
             (run, size_px, weight, anchor), (int(color[0]), int(color[1]), int(color[2])))

    def box_shape(r: Rect, radius: int, fill: RGB | None, outline: RGB | None, bw: int,
                  clip: Rect) -> None:
        if not radius and outline is None:
            if fill is not None:
                emit(FILL, *r, clip, fill)
            return
        emit(RRECT, *r, clip, *r, radius, fill, outline, bw)

    def glyph(box: tuple[int, int, int, int], name: str, size_px: int, color: Color,
              clip: Rect) -> None:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        p = int(round(size_px * s))
        if icon_font(p) is None:  # no icon font: a plain dot keeps the picture honest
            rad = size_px * s / 3
            x, y = px(cx), px(cy)
            e = (int(round(x - rad)), int(round(y - rad)), int(round(x + rad)) + 1,
                 int(round(y + rad)) + 1)
            emit(ELLIPSE, *e, clip, *e, _rgb(color))
            return
        text((px(cx), px(cy)), ICONS.get(name, "?"), p, "icon", "mm", color, clip)

    def draw(v: View, clip: Rect) -> Rect | None:
        """Emit ``v``'s own ops; the clip for its children (None: they are not drawn)."""
        if v.clip is None:
            return None
        bgc, border = v.bg, v.border
        if bgc is not None and len(bgc) == 4 and not v.radius:
            emit(BLEND, *rect(v.box), clip, _rgb(bgc), int(bgc[3]))
        elif bgc is not None or border is not None:
            bw = max(1, int(round(v.border_width * s))) if border is not None else 0
            box_shape(rect(v.box), int(v.radius * s), _rgb(bgc) if bgc is not None else None,
                      _rgb(border) if border is not None else None, bw, clip)
        if isinstance(v, Text):
            if v.lines:
                size_px = int(round(v.size_px * s))
                x1, y1, x2, _ = v.inner_box()
                for i, line in enumerate(v.lines):
                    cy = y1 + i * v.line_px + v.line_px / 2
                    if v.align == "center":
                        pos, anchor = (px((x1 + x2) / 2), px(cy)), "mm"
                    elif v.align == "right":
                        pos, anchor = (px(x2), px(cy)), "rm"
                    else:
                        pos, anchor = (px(x1), px(cy)), "lm"
                    text(pos, line, size_px, v.weight, anchor, v.color, clip)
                    if v.strike and line:
                        w = text_width(line, size_px, v.weight)
                        left = pos[0] - (w / 2 if anchor == "mm" else w if anchor == "rm" else 0)
                        lw = max(1, int(2 * s))
                        top = pos[1] - lw // 2
                        emit(FILL, int(round(left)), top, int(round(left + w)), top + lw, clip,
                             _rgb(v.color))
        elif isinstance(v, Icon):
            glyph(v.box, v.name, v.glyph_px, v.color, clip)
        elif isinstance(v, Image):
            r = rect(v.box)
            if v.circle:
                emit(ELLIPSE, *r, clip, *r, _rgb(v.tint))
            else:
                box_shape(r, int(v.radius * s), _rgb(v.tint), None, 0, clip)
            w, h = v.box[2] - v.box[0], v.box[3] - v.box[1]
            side = min(w, h)
            if v.initials:
                cx, cy = (v.box[0] + v.box[2]) / 2, (v.box[1] + v.box[3]) / 2
                text((px(cx), px(cy)), v.initials, int(round(side * 0.42 * s)), "medium", "mm",
                     (255, 255, 255), clip)
            else:
                t = v.tint
                glyph(v.box, v.glyph, int(side * 0.45),
                      (int(t[0] * 0.55), int(t[1] * 0.55), int(t[2] * 0.55)), clip)
        elif isinstance(v, TextField):
            _field(v, clip)
        elif isinstance(v, Picture):
            r = rect(v.box)
            pictures[id(v.image)] = v.image
            emit(PICTURE, *r, clip, *r, id(v.image))
        elif isinstance(v, Divider):
            x1, y1, x2, _ = v.box
            lw = max(1, int(round(3 * s)))
            top = px(y1) - lw // 2  # centred on the divider's top edge, as a drawn line is
            emit(FILL, px(x1 + v.inset), top, px(x2), top + lw, clip, _rgb(v.color))
        if isinstance(v, Scroll):
            vx1, vy1, vx2, vy2 = v.clip
            inner = (max(clip[0], px(vx1)), max(clip[1], px(vy1)), min(clip[2], px(vx2)),
                     min(clip[3], px(vy2)))
            if inner[2] <= inner[0] or inner[3] <= inner[1]:
                return None
            clip = inner
        return clip

    def _field(v: TextField, clip: Rect) -> None:
        x1, y1, x2, y2 = v.box
        accent = (103, 80, 164) if v.focused else (121, 116, 126)
        if v.outlined:
            box_shape(rect(v.box), int(10 * s), (255, 255, 255), accent,
                      max(1, int((5 if v.focused else 3) * s)), clip)
        else:
            box_shape(rect(v.box), int(60 * s), (236, 230, 240), None, 0, clip)
        pad = 42
        shown = ("•" * len(v.text)) if v.password else v.text
        size_px = int(round(v.size_px * s))
        cy = (y1 + y2) / 2
        if v.label and (v.text or v.focused) and v.outlined:
            # floating label on the border
            lpx = int(round(v.size_px * 0.75 * s))
            lw = text_width(v.label, lpx) / s
            box_shape(rect((x1 + pad - 10, y1 - 12, int(x1 + pad + lw + 10), y1 + 12)), 0,
                      (255, 255, 255), None, 0, clip)
            text((px(x1 + pad), px(y1)), v.label, lpx, "regular", "lm", accent, clip)
        if shown:
            avail = (x2 - x1 - 2 * pad) * s
            if text_width(shown, size_px) > avail:
                # like a real field, the end stays visible: the longest suffix that fits
                lo, hi = 1, len(shown)
                while lo < hi:
                    mid = (lo + hi) // 2
                    if text_width(shown[mid:], size_px) > avail:
                        lo = mid + 1
                    else:
                        hi = mid
                shown = shown[lo:]
            text((px(x1 + pad), px(cy)), shown, size_px, "regular", "lm", (29, 27, 32), clip)
        else:
            placeholder = v.hint or v.label
            if placeholder:
                text((px(x1 + pad), px(cy)), placeholder, size_px, "regular", "lm",
                     (121, 116, 126), clip)
        if v.focused:
            tx = x1 + pad + (text_width(shown, size_px) / s if shown else 0) + 4
            lw = max(1, int(4 * s))
            left = px(tx) - lw // 2
            emit(FILL, left, px(cy - v.size_px * 0.6), left + lw, px(cy + v.size_px * 0.6) + 1,
                 clip, (103, 80, 164))

    # depth first, children in order, without recursion (a recursive closure is a reference
    # cycle that only the garbage collector frees, every frame)
    stack: list[tuple[View, Rect]] = [(root, (0, 0, W, H))]
    pop = stack.pop
    while stack:
        v, clip = pop()
        inner = draw(v, clip)
        if inner is not None and v.children:
            stack += [(c, inner) for c in reversed(v.children)]
    return DisplayList(ops, pictures, (W, H))


def _rgb(c: Color) -> RGB:
    return (int(c[0]), int(c[1]), int(c[2]))


# -- painting ----------------------------------------------------------------------------------
class _Painter:
    """Paints ops of one display list into a frame, restricted to rectangles."""

    def __init__(self, frame: np.ndarray, dl: DisplayList):
        self.frame = frame
        self.dl = dl
        self.ops = dl.ops
        self._rows: dict[RGB, np.ndarray] = {}
        self._blend_rows: dict[tuple[RGB, int], np.ndarray] = {}
        self._backdrops: dict[int, RGB | None] = {}
        self._bands: list[list[int]] | None = None
        self.painted = 0

    def row(self, color: RGB) -> np.ndarray:
        """A frame-wide row of one colour (assigning a slice of it fills at memcpy speed)."""
        r = self._rows.get(color)
        if r is None:
            r = self._rows[color] = np.empty((self.frame.shape[1], 3), np.uint8)
            r[:] = color
        return r

    def blend_row(self, color: RGB, alpha: int) -> np.ndarray:
        """A frame-wide row of ``color * alpha + 127`` (uint16), the constant part of a
        translucent fill."""
        key = (color, alpha)
        r = self._blend_rows.get(key)
        if r is None:
            r = self._blend_rows[key] = np.empty((self.frame.shape[1], 3), np.uint16)
            r[:] = tuple(c * alpha + 127 for c in color)
        return r

    def region(self, rect: Rect) -> None:
        """Repaint ``rect`` from the last op that covers it with one opaque colour."""
        rx1, ry1, rx2, ry2 = rect
        ops = self.ops
        start = 0
        for i in range(len(ops) - 1, -1, -1):
            op = ops[i]
            if op[0] not in (FILL, RRECT, ELLIPSE) or op[1] > rx1 or op[2] > ry1 or op[3] < rx2 \
                    or op[4] < ry2:
                continue
            if any(s[0] <= rx1 and s[1] <= ry1 and s[2] >= rx2 and s[3] >= ry2
                   for s in _solid(op)):
                start = i
                break
        todo = []
        for i in range(start, len(ops)):
            op = ops[i]
            x1 = op[1] if op[1] > rx1 else rx1
            x2 = op[3] if op[3] < rx2 else rx2
            if x2 <= x1:
                continue
            y1 = op[2] if op[2] > ry1 else ry1
            y2 = op[4] if op[4] < ry2 else ry2
            if y2 <= y1:
                continue
            todo.append((i, op, x1, y1, x2, y2))
        # occlusion: a large op that later opaque ones cover entirely is not painted, and of
        # a large fill only the parts they leave uncovered are
        big = max(4096, (rx2 - rx1) * (ry2 - ry1) // 32)
        covers: list[Rect] = []
        keep = []
        for item in reversed(todo):
            i, op, x1, y1, x2, y2 = item
            if (x2 - x1) * (y2 - y1) >= big and covers:
                if any(c[0] <= x1 and c[1] <= y1 and c[2] >= x2 and c[3] >= y2 for c in covers):
                    continue
                if op[0] == FILL:
                    pieces = [(x1, y1, x2, y2)]
                    for c in covers:
                        pieces = [q for p in pieces for q in _minus(p, c)]
                        if len(pieces) > 12:
                            break
                    else:
                        keep += [(i, op, *p) for p in pieces]
                        covers.append((x1, y1, x2, y2))
                        continue
            if (x2 - x1) * (y2 - y1) >= big and op[0] in (FILL, RRECT, ELLIPSE):
                covers += [c[:4] for c in _solid(op) if (c[2] - c[0]) * (c[3] - c[1]) >= big]
            keep.append(item)
        for i, op, x1, y1, x2, y2 in reversed(keep):
            self.painted += 1
            self.paint(i, op, x1, y1, x2, y2)

    def bands(self) -> list[list[int]]:
        """For each band of :data:`_BAND` rows, the indices of the ops that touch it (in
        painting order): where to look for what lies under an op."""
        if self._bands is None:
            last = (self.frame.shape[0] - 1) // _BAND
            bands: list[list[int]] = [[] for _ in range(last + 1)]
            for i, op in enumerate(self.ops):
                for b in range(max(0, op[2] // _BAND), min(last, (op[4] - 1) // _BAND) + 1):
                    bands[b].append(i)
            self._bands = bands
        return self._bands

    def backdrop(self, i: int) -> RGB | None:
        """The one colour under op ``i``'s whole rectangle, if the last op below it that
        touches it is a solid fill that covers it (an outline around it does not count)."""
        if i in self._backdrops:
            return self._backdrops[i]
        if not SPRITES:
            return None
        ops = self.ops
        x1, y1, x2, y2 = ops[i][1], ops[i][2], ops[i][3], ops[i][4]
        best = -1
        bands = self.bands()
        for b in range(y1 // _BAND, min(len(bands) - 1, (y2 - 1) // _BAND) + 1):
            band = bands[b]
            k = bisect.bisect_left(band, i) - 1
            while k >= 0 and band[k] > best:
                o = ops[band[k]]
                if o[1] >= x2 or o[3] <= x1 or o[2] >= y2 or o[4] <= y1 or (
                        o[0] == RRECT and o[10] is None and any(
                            h[0] <= x1 and h[1] <= y1 and h[2] >= x2 and h[3] >= y2
                            for h in _holes(o))):
                    k -= 1  # not under the op, or an outline around it: look below
                    continue
                best = band[k]
                break
        found: RGB | None = None
        if best >= 0:
            for sr in _solid(ops[best]):
                if sr[0] <= x1 and sr[1] <= y1 and sr[2] >= x2 and sr[3] >= y2:
                    found = sr[4]
                    break
        self._backdrops[i] = found
        return found

    def paint(self, i: int, op: Op, x1: int, y1: int, x2: int, y2: int) -> None:
        kind = op[0]
        frame = self.frame
        if kind == FILL:
            frame[y1:y2, x1:x2] = self.row(op[5])[x1:x2]
        elif kind == TEXT:
            mx, my, key, color = op[5], op[6], op[7], op[8]
            bg = self.backdrop(i)
            if bg is not None:
                sprite = _SPRITES.get((key, color, bg))
                if sprite is None:
                    sprite = _sprite(key, glyph_mask(*key)[0], color, bg)
                frame[y1:y2, x1:x2] = sprite[y1 - my:y2 - my, x1 - mx:x2 - mx]
            else:
                mask = glyph_mask(*key)[0]
                m = mask[y1 - my:y2 - my, x1 - mx:x2 - mx, None].astype(np.uint16)
                under = frame[y1:y2, x1:x2]
                out = under * (255 - m)
                out += np.array(color, np.uint16) * m
                out += 127
                out //= 255
                under[...] = out
        elif kind == RRECT:
            _, _, _, _, _, bx1, by1, bx2, by2, r, fill, outline, bw = op
            w, h = bx2 - bx1, by2 - by1
            if w * h <= _SHAPE_SPRITE_MAX:
                bg = self.backdrop(i)
                if bg is not None:
                    sprite = _shape_sprite((RRECT, w, h, r, fill, outline, bw), bg)
                    frame[y1:y2, x1:x2] = sprite[y1 - by1:y2 - by1, x1 - bx1:x2 - bx1]
                    return
            for piece in _rrect_pieces(w, h, r, fill, outline, bw):
                if piece[0] == FILL:
                    px1, py1 = max(piece[1] + bx1, x1), max(piece[2] + by1, y1)
                    px2, py2 = min(piece[3] + bx1, x2), min(piece[4] + by1, y2)
                    if px2 > px1 and py2 > py1:
                        frame[py1:py2, px1:px2] = self.row(piece[5])[px1:px2]
                else:
                    mask = piece[3]
                    ox, oy = piece[1] + bx1, piece[2] + by1
                    px1, py1 = max(ox, x1), max(oy, y1)
                    px2 = min(ox + mask.shape[1], x2)
                    py2 = min(oy + mask.shape[0], y2)
                    if px2 > px1 and py2 > py1:
                        np.copyto(frame[py1:py2, px1:px2], np.array(piece[4], np.uint8),
                                  where=mask[py1 - oy:py2 - oy, px1 - ox:px2 - ox, None])
        elif kind == ELLIPSE:
            bx1, by1, bx2, by2, color = op[5], op[6], op[7], op[8], op[9]
            if (bx2 - bx1) * (by2 - by1) <= _SHAPE_SPRITE_MAX:
                bg = self.backdrop(i)
                if bg is not None:
                    sprite = _shape_sprite((ELLIPSE, bx2 - bx1, by2 - by1, color), bg)
                    frame[y1:y2, x1:x2] = sprite[y1 - by1:y2 - by1, x1 - bx1:x2 - bx1]
                    return
            mask = _ellipse_mask(bx2 - bx1, by2 - by1)
            np.copyto(frame[y1:y2, x1:x2], np.array(color, np.uint8),
                      where=mask[y1 - by1:y2 - by1, x1 - bx1:x2 - bx1, None])
        elif kind == BLEND:
            color, alpha = op[5], op[6]
            out = frame[y1:y2, x1:x2].astype(np.uint16)
            out *= 255 - alpha
            out += self.blend_row(color, alpha)[x1:x2]
            out //= 255
            frame[y1:y2, x1:x2] = out
        elif kind == PICTURE:
            bx1, by1, bx2, by2, key = op[5], op[6], op[7], op[8], op[9]
            pic = _picture(self.dl.pictures[key], bx2 - bx1, by2 - by1)
            frame[y1:y2, x1:x2] = pic[y1 - by1:y2 - by1, x1 - bx1:x2 - bx1]


def _shape_sprite(shape: tuple[Any, ...], bg: RGB) -> np.ndarray:
    """A rounded rectangle ``(RRECT, w, h, r, fill, outline, bw)`` or an ellipse
    ``(ELLIPSE, w, h, colour)`` painted over ``bg``, as the pieces paint it."""
    key = (shape, bg)
    hit = _SHAPE_SPRITES.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    w, h = shape[1], shape[2]
    patch = np.empty((h, w, 3), np.uint8)
    patch[...] = bg
    if shape[0] == RRECT:
        for piece in _rrect_pieces(w, h, *shape[3:]):
            if piece[0] == FILL:
                patch[piece[2]:piece[4], piece[1]:piece[3]] = piece[5]
            else:
                mask = piece[3]
                np.copyto(patch[piece[2]:piece[2] + mask.shape[0],
                                piece[1]:piece[1] + mask.shape[1]],
                          np.array(piece[4], np.uint8), where=mask[..., None])
    else:
        np.copyto(patch, np.array(shape[3], np.uint8), where=_ellipse_mask(w, h)[..., None])
    _SHAPE_SPRITES.put(key, patch, patch.nbytes + 200)
    return patch


def _picture(image: PILImage.Image, w: int, h: int) -> np.ndarray:
    key = (id(image), w, h)
    hit = _PICTURES.get(key)
    if hit is None or hit[0] is not image:
        arr = np.asarray(image.convert("RGB").resize((w, h), PILImage.Resampling.BILINEAR),
                         dtype=np.uint8)
        hit = (image, arr)
        _PICTURES.put(key, hit, arr.nbytes + 200)
    return hit[1]  # type: ignore[no-any-return]


def paint(dl: DisplayList, frame: np.ndarray | None = None,
          rects: list[Rect] | None = None) -> np.ndarray:
    """Paint ``dl`` into ``frame`` (a new array when None) inside ``rects`` (the whole frame
    when None). Returns the frame."""
    w, h = dl.size
    if frame is None:
        frame = np.empty((h, w, 3), np.uint8)
    painter = _Painter(frame, dl)
    for r in rects if rects is not None else [(0, 0, w, h)]:
        painter.region(r)
    return frame


def render_array(root: View, size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
                 background: Color = (255, 255, 255)) -> np.ndarray:
    """A full paint of the laid-out tree: a new ``uint8`` array (height, width, 3)."""
    return paint(display_list(root, size, background))


def render(root: View, size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
           background: Color = (255, 255, 255)) -> PILImage.Image:
    """Draw the laid-out tree into a new RGB image of ``size`` (width, height)."""
    return PILImage.fromarray(render_array(root, size, background))


# -- incremental frames ------------------------------------------------------------------------
def _merge(rects: list[Rect], width: int, height: int, slack: int) -> list[Rect]:
    """Damaged rectangles merged into bands that do not overlap vertically: rectangles whose
    rows come within ``slack`` of each other share one band (its bounding box)."""
    if not rects:
        return []
    rects.sort(key=lambda r: r[1])
    out: list[list[int]] = []
    for x1, y1, x2, y2 in rects:
        if out and y1 <= out[-1][3] + slack:
            b = out[-1]
            b[0], b[2], b[3] = min(b[0], x1), max(b[2], x2), max(b[3], y2)
        else:
            out.append([x1, y1, x2, y2])
    return [(max(0, a), max(0, b), min(width, c), min(height, d)) for a, b, c, d in out]


def damage(old: list[Op], new: list[Op], width: int, height: int) -> list[Rect] | None:
    """The rectangles where frames drawn from ``old`` and ``new`` can differ: ``[]`` when the
    lists are equal, ``None`` when everything must be repainted (the shared ops changed
    order), else the merged rectangles of the ops found in one list only."""
    if old == new:
        return []
    o_keys: list[Any] = old
    n_keys: list[Any] = new
    so, sn = set(old), set(new)
    if len(so) != len(old) or len(sn) != len(new):
        # the same op twice: number the copies so each is matched once
        o_keys, n_keys = _numbered(old), _numbered(new)
        so, sn = set(o_keys), set(n_keys)
    common = so & sn
    if [k for k in o_keys if k in common] != [k for k in n_keys if k in common]:
        return None
    gone = _slotted(o_keys, common, o_keys is not old)
    came = _slotted(n_keys, common, n_keys is not new)
    changed: list[Rect] = []
    # A fill that only moved or changed size (the body above a keyboard that opened) damages
    # what it covers in one frame only: in its slot between the shared ops, the fills of one
    # colour sequence are paired one to one, and each pair paints the same colour where
    # both cover. Everything else that differs damages its whole rectangle.
    for slot in gone.keys() | came.keys():
        a, b = gone.get(slot, []), came.get(slot, [])
        fa = [op for op in a if op[0] == FILL]
        fb = [op for op in b if op[0] == FILL]
        if fa and len(fa) == len(fb) and [op[5] for op in fa] == [op[5] for op in fb]:
            for p, q in zip(fa, fb):
                changed += _minus(p[1:5], q[1:5]) + _minus(q[1:5], p[1:5])
            a = [op for op in a if op[0] != FILL]
            b = [op for op in b if op[0] != FILL]
        changed += [op[1:5] for op in a] + [op[1:5] for op in b]
    return _merge(changed, width, height, max(8, height // 64))


def _slotted(keys: list[Any], common: set[Any], numbered: bool) -> dict[int, list[Op]]:
    """The ops of ``keys`` not in ``common``, grouped by how many common ops precede them."""
    out: dict[int, list[Op]] = {}
    slot = 0
    for k in keys:
        if k in common:
            slot += 1
        else:
            out.setdefault(slot, []).append(k[0] if numbered else k)
    return out


def _minus(a: Rect, b: Rect) -> list[Rect]:
    """``a`` without ``b``, as up to four rectangles."""
    ix1, iy1 = max(a[0], b[0]), max(a[1], b[1])
    ix2, iy2 = min(a[2], b[2]), min(a[3], b[3])
    if ix2 <= ix1 or iy2 <= iy1:
        return [a]
    out = []
    if a[1] < iy1:
        out.append((a[0], a[1], a[2], iy1))
    if iy2 < a[3]:
        out.append((a[0], iy2, a[2], a[3]))
    if a[0] < ix1:
        out.append((a[0], iy1, ix1, iy2))
    if ix2 < a[2]:
        out.append((ix2, iy1, a[2], iy2))
    return out


def _numbered(ops: list[Op]) -> list[tuple[Op, int]]:
    seen: dict[Op, int] = {}
    out = []
    for op in ops:
        k = seen.get(op, 0)
        seen[op] = k + 1
        out.append((op, k))
    return out


class FrameRenderer:
    """Frames of one screen size, each repainted from the previous one where it changed.

    :meth:`frame` returns a read-only ``uint8`` array (height, width, 3). **Ownership**: a
    returned array is never written again: when the next frame differs, it is a new array
    (a copy of the last one with the damaged bands repainted); when nothing changed, the same
    array is returned again. Callers may keep frames without copying; to change one, copy it.
    """

    def __init__(self, size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
                 background: Color = (255, 255, 255)):
        self.size = (int(size[0]), int(size[1]))
        self.background = background
        self._dl: DisplayList | None = None
        self._frame: np.ndarray | None = None
        #: the last frame's repaint: ``"full"``, ``"none"`` or ``"partial"``, the damaged
        #: fraction of the frame and the number of ops painted
        self.last: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_dl"] = state["_frame"] = None
        return state

    def reset(self) -> None:
        """Forget the previous frame (the next one is painted in full)."""
        self._dl = self._frame = None

    def current(self) -> tuple[DisplayList, np.ndarray] | None:
        """The last frame and the display list it shows (None before the first)."""
        if self._dl is None or self._frame is None:
            return None
        return self._dl, self._frame

    def adopt(self, dl: DisplayList, pixels: np.ndarray) -> np.ndarray:
        """Show again a frame this renderer painted before (``pixels``, from ``dl``) without
        painting it: the same array when it is still the last frame, else a read-only copy
        (a new array, as a repaint would give; pixels are a function of the display list, so
        they are what a repaint would paint)."""
        if self._dl is dl and self._frame is not None:
            self.last = {"repaint": "none", "damaged": 0.0, "ops": 0}
            return self._frame
        if pixels.shape != (self.size[1], self.size[0], 3):
            raise ValueError(f"a {pixels.shape} frame cannot be adopted by a {self.size} "
                             "renderer")
        frame = np.array(pixels)
        frame.flags.writeable = False
        self._dl, self._frame = dl, frame
        self.last = {"repaint": "copy", "damaged": 0.0, "ops": 0}
        return frame

    def frame(self, root: View, *, night: bool = False) -> np.ndarray:
        """The frame of a laid-out tree (see the class docstring for ownership); ``night``
        draws it with the system's dark theme (:func:`night_list`)."""
        dl = display_list(root, self.size, self.background)
        return self.frame_of(night_list(dl) if night else dl)

    def frame_of(self, dl: DisplayList) -> np.ndarray:
        """The frame of a display list of this renderer's size."""
        w, h = self.size
        prev, prev_dl = self._frame, self._dl
        rects = None if prev is None or prev_dl is None else damage(prev_dl.ops, dl.ops, w, h)
        if rects == []:
            assert prev is not None
            self.last = {"repaint": "none", "damaged": 0.0, "ops": 0}
            self._dl = dl
            return prev
        if rects is None:
            frame = np.empty((h, w, 3), np.uint8)
            painter = _Painter(frame, dl)
            painter.region((0, 0, w, h))
            self.last = {"repaint": "full", "damaged": 1.0, "ops": painter.painted}
        else:
            assert prev is not None
            # a band across most of the width is repainted across all of it: painting a
            # background costs no more than copying it, and every row of the new frame is
            # then written once (copied from the last frame, or painted)
            rects = [(0, r[1], w, r[3]) if 2 * (r[2] - r[0]) >= w else r for r in rects]
            frame = np.empty_like(prev)
            y = 0
            for r in rects:  # vertically disjoint, top to bottom
                if r[0] == 0 and r[2] == w:
                    if r[1] > y:
                        frame[y:r[1]] = prev[y:r[1]]
                    y = r[3]
            if y < h:
                frame[y:] = prev[y:]
            painter = _Painter(frame, dl)
            for r in rects:
                painter.region(r)
            area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects)
            self.last = {"repaint": "partial", "damaged": area / (w * h),
                         "ops": painter.painted}
        frame.flags.writeable = False
        self._dl, self._frame = dl, frame
        return frame
