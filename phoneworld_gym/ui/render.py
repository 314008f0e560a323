"""Pixels from a laid-out view tree, drawn with Pillow at any screenshot size.

Layout is always in logical 1080 x 2400 pixels; drawing scales every coordinate and font by
``width / 1080``, so a 540 x 1200 screenshot is drawn directly (crisp text, half the work)
rather than downscaled.
"""

from __future__ import annotations

import functools

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
)


class Canvas:
    """A drawing surface with a logical -> pixel transform."""

    def __init__(self, img: PILImage.Image, scale: float, ox: float = 0.0, oy: float = 0.0):
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.s = scale
        self.ox, self.oy = ox, oy

    def px(self, x: float, y: float) -> tuple[int, int]:
        return int(round((x - self.ox) * self.s)), int(round((y - self.oy) * self.s))

    def rect(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        x1, y1 = self.px(box[0], box[1])
        x2, y2 = self.px(box[2], box[3])
        return x1, y1, max(x1, x2 - 1), max(y1, y2 - 1)


@functools.lru_cache(maxsize=8192)
def _mask(text: str, px: int, weight: str, anchor: str) -> tuple[PILImage.Image, int, int]:
    """Coverage mask of a text run (``weight="icon"`` for the icon font) and its offset from
    the anchor point. Rasterising once and pasting after is what keeps frames cheap."""
    font = icon_font(px) if weight == "icon" else text_font(px, weight)
    assert font is not None
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    mask = PILImage.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    return mask, int(left), int(top)


def _text(c: Canvas, pos: tuple[int, int], text: str, px: int, weight: str, anchor: str,
          color: Color) -> None:
    mask, dx, dy = _mask(text, px, weight, anchor)
    c.img.paste(color[:3], (pos[0] + dx, pos[1] + dy), mask)


def render(root: View, size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
           background: Color = (255, 255, 255)) -> PILImage.Image:
    """Draw the laid-out tree into a new RGB image of ``size`` (width, height)."""
    img = PILImage.new("RGB", size, background[:3])
    canvas = Canvas(img, size[0] / SCREEN_WIDTH)
    _draw(canvas, root)
    return img


def _draw(c: Canvas, v: View) -> None:
    if v.clip is None:
        return
    _draw_self(c, v)
    if isinstance(v, Scroll):
        _draw_scroll_children(c, v)
        return
    for child in v.children:
        _draw(c, child)


def _draw_scroll_children(c: Canvas, v: Scroll) -> None:
    """Children go on a layer the size of the viewport, so partly visible rows are cut."""
    vx1, vy1, vx2, vy2 = v.clip or v.box
    lx1, ly1 = c.px(vx1, vy1)
    lx2, ly2 = c.px(vx2, vy2)
    if lx2 <= lx1 or ly2 <= ly1:
        return
    layer = c.img.crop((lx1, ly1, lx2, ly2))
    sub = Canvas(layer, c.s, vx1, vy1)
    for child in v.children:
        _draw(sub, child)
    c.img.paste(layer, (lx1, ly1))


def _draw_self(c: Canvas, v: View) -> None:
    s = c.s
    if v.bg is not None and len(v.bg) == 4 and not v.radius:
        # translucent fill (dialog scrim): blend the region below with the colour
        r = c.rect(v.box)
        box = (r[0], r[1], r[2] + 1, r[3] + 1)
        under = c.img.crop(box)
        tint = PILImage.new("RGB", under.size, v.bg[:3])
        c.img.paste(PILImage.blend(under, tint, v.bg[3] / 255.0), box[:2])
    elif v.bg is not None or v.border is not None:
        r = c.rect(v.box)
        rad = int(v.radius * s)
        width = max(1, int(round(v.border_width * s))) if v.border is not None else 0
        fill = v.bg[:3] if v.bg is not None else None
        outline = v.border[:3] if v.border is not None else None
        if rad:
            c.draw.rounded_rectangle(r, radius=rad, fill=fill, outline=outline, width=width)
        else:
            c.draw.rectangle(r, fill=fill, outline=outline, width=width)
    if isinstance(v, Text):
        _draw_text(c, v)
    elif isinstance(v, Icon):
        _draw_glyph(c, v.box, v.name, v.glyph_px, v.color)
    elif isinstance(v, Image):
        _draw_image(c, v)
    elif isinstance(v, TextField):
        _draw_field(c, v)
    elif isinstance(v, Picture):
        x1, y1, x2, y2 = c.rect(v.box)
        pic = v.image.resize((x2 - x1 + 1, y2 - y1 + 1), PILImage.Resampling.BILINEAR)
        c.img.paste(pic, (x1, y1))
    elif isinstance(v, Divider):
        x1, y1, x2, _ = v.box
        a = c.px(x1 + v.inset, y1)
        b = c.px(x2, y1)
        c.draw.line([a, b], fill=v.color[:3], width=max(1, int(round(3 * s))))


def _draw_text(c: Canvas, v: Text) -> None:
    if not v.lines:
        return
    font = text_font(int(round(v.size_px * c.s)), v.weight)
    x1, y1, x2, _ = v.inner_box()
    for i, line in enumerate(v.lines):
        cy = y1 + i * v.line_px + v.line_px / 2
        if v.align == "center":
            pos, anchor = c.px((x1 + x2) / 2, cy), "mm"
        elif v.align == "right":
            pos, anchor = c.px(x2, cy), "rm"
        else:
            pos, anchor = c.px(x1, cy), "lm"
        _text(c, pos, line, int(round(v.size_px * c.s)), v.weight, anchor, v.color)
        if v.strike:
            w = font.getlength(line)
            left = pos[0] - (w / 2 if anchor == "mm" else w if anchor == "rm" else 0)
            c.draw.line([(left, pos[1]), (left + w, pos[1])], fill=v.color[:3],
                        width=max(1, int(2 * c.s)))


def _draw_glyph(c: Canvas, box: tuple[int, int, int, int], name: str, px: int,
                color: Color) -> None:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    font = icon_font(int(round(px * c.s)))
    glyph = ICONS.get(name, "?")
    if font is None:  # no icon font: a plain dot keeps the picture honest
        r = px * c.s / 3
        x, y = c.px(cx, cy)
        c.draw.ellipse((x - r, y - r, x + r, y + r), fill=color[:3])
        return
    _text(c, c.px(cx, cy), glyph, int(round(px * c.s)), "icon", "mm", color)


def _shade(color: Color, f: float) -> tuple[int, int, int]:
    return (int(color[0] * f), int(color[1] * f), int(color[2] * f))


def _draw_image(c: Canvas, v: Image) -> None:
    r = c.rect(v.box)
    if v.circle:
        c.draw.ellipse(r, fill=v.tint[:3])
    else:
        c.draw.rounded_rectangle(r, radius=int(v.radius * c.s), fill=v.tint[:3])
    w, h = v.box[2] - v.box[0], v.box[3] - v.box[1]
    side = min(w, h)
    if v.initials:
        font = text_font(int(round(side * 0.42 * c.s)), "medium")
        cx, cy = (v.box[0] + v.box[2]) / 2, (v.box[1] + v.box[3]) / 2
        c.draw.text(c.px(cx, cy), v.initials, font=font, fill=(255, 255, 255), anchor="mm")
    else:
        _draw_glyph(c, v.box, v.glyph, int(side * 0.45), _shade(v.tint, 0.55))


def _draw_field(c: Canvas, v: TextField) -> None:
    x1, y1, x2, y2 = v.box
    s = c.s
    accent = (103, 80, 164) if v.focused else (121, 116, 126)
    if v.outlined:
        c.draw.rounded_rectangle(c.rect(v.box), radius=int(10 * s), fill=(255, 255, 255),
                                 outline=accent, width=max(1, int((5 if v.focused else 3) * s)))
    else:
        c.draw.rounded_rectangle(c.rect(v.box), radius=int(60 * s), fill=(236, 230, 240))
    pad = 42 + (0 if v.outlined else 0)
    shown = ("•" * len(v.text)) if v.password else v.text
    font = text_font(int(round(v.size_px * s)))
    cy = (y1 + y2) / 2
    if v.label and (v.text or v.focused) and v.outlined:
        # floating label on the border
        lf = text_font(int(round(v.size_px * 0.75 * s)))
        lw = lf.getlength(v.label) / s
        c.draw.rectangle(c.rect((x1 + pad - 10, y1 - 12, int(x1 + pad + lw + 10), y1 + 12)),
                         fill=(255, 255, 255))
        c.draw.text(c.px(x1 + pad, y1), v.label, font=lf, fill=accent, anchor="lm")
    if shown:
        avail = (x2 - x1 - 2 * pad) * s
        if font.getlength(shown) > avail:
            # like a real field, the end stays visible: the longest suffix that fits
            lo, hi = 1, len(shown)
            while lo < hi:
                mid = (lo + hi) // 2
                if font.getlength(shown[mid:]) > avail:
                    lo = mid + 1
                else:
                    hi = mid
            shown = shown[lo:]
        c.draw.text(c.px(x1 + pad, cy), shown, font=font, fill=(29, 27, 32), anchor="lm")
    else:
        placeholder = v.hint or v.label
        if placeholder:
            c.draw.text(c.px(x1 + pad, cy), placeholder, font=font, fill=(121, 116, 126),
                        anchor="lm")
    if v.focused:
        tx = x1 + pad + (font.getlength(shown) / s if shown else 0) + 4
        c.draw.line([c.px(tx, cy - v.size_px * 0.6), c.px(tx, cy + v.size_px * 0.6)],
                    fill=(103, 80, 164), width=max(1, int(4 * s)))
