"""The map picture: land, a river, a park, the street grid, labels and pins, drawn with PIL
from the city's geometry (:mod:`phoneworld_gym.apps.maps.store`), so the same view is the same
picture. Pictures are cached: the renderer keys a picture by its object, so one view of the map
is one image for as long as it is cached."""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from phoneworld_gym.apps.maps import store as ms
from phoneworld_gym.ui.fonts import text_font

LAND = (248, 246, 241)
WATER = (156, 206, 248)
PARK = (196, 232, 194)
ROAD = (255, 255, 255)
ROAD_EDGE = (222, 219, 212)
MAJOR = (252, 222, 142)
MAJOR_EDGE = (232, 196, 110)
LABEL = (95, 99, 104)
PIN = (234, 67, 53)
PIN_SAVED = (240, 160, 40)
BLUE = (26, 115, 232)

Pin = tuple[float, float, str]  # x, y (miles), "pin" | "saved" | "selected" | "me"


# bound: 4 pictures of up to ~6 MB; a frame shows one map (drawn only for screenshots), and
# every pan, zoom or world's pins make a new one
@functools.lru_cache(maxsize=4)
def draw(center: tuple[float, float], px_per_mile: float, size: tuple[int, int],
         pins: tuple[Pin, ...] = (), route: tuple[tuple[float, float], ...] = ()
         ) -> Image.Image:
    """The map around ``center`` (miles) at ``px_per_mile``, ``size`` pixels, with ``pins``
    and an optional ``route`` polyline (miles)."""
    w, h = size
    img = Image.new("RGB", size, LAND)
    d = ImageDraw.Draw(img)

    def to_px(x: float, y: float) -> tuple[float, float]:
        return (w / 2 + (x - center[0]) * px_per_mile, h / 2 - (y - center[1]) * px_per_mile)

    # the park: a fixed block north-west of the centre
    x1, y1 = to_px(-1.35, 1.25)
    x2, y2 = to_px(-0.55, 0.55)
    d.rounded_rectangle((x1, y1, x2, y2), radius=12, fill=PARK)
    # the river: a band from the south-west to the east
    river = [to_px(-2.6, -1.9), to_px(-1.0, -1.45), to_px(0.6, -1.75), to_px(2.6, -1.2)]
    d.line(river, fill=WATER, width=max(10, int(px_per_mile * 0.16)), joint="curve")
    # the street grid, continued past the town's edge at the same spacing
    n = len(ms._EW)
    step = 2 * ms.HALF / n
    lo = int((min(center) - w / px_per_mile) / step) - 2
    hi = int((max(center) + w / px_per_mile) / step) + 2
    offs = [(-ms.HALF + (i + 0.5) * step, i) for i in range(lo, hi)]
    for edge in (True, False):
        for off, i in offs:
            major = i % 7 == 3
            width = (14 if major else 8) + (4 if edge else 0)
            color = (MAJOR_EDGE if major else ROAD_EDGE) if edge else (MAJOR if major else ROAD)
            for vertical in (False, True):
                if vertical:
                    x, _ = to_px(off, 0)
                    d.line([(x, 0), (x, h)], fill=color, width=width)
                else:
                    _, y = to_px(0, off)
                    d.line([(0, y), (w, y)], fill=color, width=width)
    # street names along some streets in view
    font = text_font(26, "regular")
    for i in range(n):
        off = -ms.HALF + (i + 0.5) * step
        _, y = to_px(0, off)
        if 40 < y < h - 40 and i % 3 == 0:
            x = w * (0.2 + 0.6 * ((i * 37) % 10) / 10)
            d.text((x, y), ms._EW[i], fill=LABEL, font=font, anchor="mm",
                   stroke_width=5, stroke_fill=ROAD)
        x, _ = to_px(off, 0)
        if 40 < x < w - 40 and i % 4 == 1:
            y = h * (0.25 + 0.5 * ((i * 53) % 10) / 10)
            label = Image.new("RGBA", (420, 48), (0, 0, 0, 0))
            ImageDraw.Draw(label).text((210, 24), ms._NS[i], fill=LABEL, font=font,
                                       anchor="mm", stroke_width=5, stroke_fill=ROAD)
            rot = label.rotate(90, expand=True)
            img.paste(rot, (int(x - 24), int(y - 210)), rot)
    if route:
        d.line([to_px(x, y) for x, y in route], fill=(255, 255, 255), width=22, joint="curve")
        d.line([to_px(x, y) for x, y in route], fill=BLUE, width=14, joint="curve")
    for x, y, kind in pins:
        px, py = to_px(x, y)
        if kind == "me":
            d.ellipse((px - 34, py - 34, px + 34, py + 34), fill=(26, 115, 232, 60),
                      outline=(180, 205, 245), width=4)
            d.ellipse((px - 17, py - 17, px + 17, py + 17), fill=BLUE, outline=(255, 255, 255),
                      width=5)
            continue
        color = {"saved": PIN_SAVED, "selected": PIN}.get(kind, PIN)
        r = 24 if kind == "selected" else 15
        d.ellipse((px - r, py - 2.6 * r, px + r, py - 0.6 * r), fill=color,
                  outline=(255, 255, 255), width=3)
        d.polygon([(px - 0.7 * r, py - 1.2 * r), (px + 0.7 * r, py - 1.2 * r), (px, py)],
                  fill=color)
        d.ellipse((px - 0.35 * r, py - 1.95 * r, px + 0.35 * r, py - 1.25 * r),
                  fill=(255, 255, 255))
    return img
