"""The ride app's map: a muted street grid with a park and a river, cars waiting nearby, and a
route drawn as a black line from the pickup dot to the drop-off square, the way ride apps
draw them. Drawn with PIL from coordinates in miles; pictures are cached by their
arguments."""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

LAND = (236, 238, 240)
ROAD = (255, 255, 255)
MAJOR = (250, 250, 250)
PARK = (205, 230, 205)
WATER = (170, 211, 240)
INK = (0, 0, 0)
CAR = (40, 40, 40)

Point = tuple[float, float]


# bound: 4 pictures of up to 1080 x ~1,300 px (~4 MiB each); a frame shows one map, drawn
# only for screenshots, and each world's home (the map's centre) is its own
@functools.lru_cache(maxsize=4)
def draw(size: tuple[int, int], center: Point, px_per_mile: float,
         route: tuple[Point, Point] | None = None, cars: tuple[Point, ...] = (),
         me: Point | None = None) -> Image.Image:
    """The map around ``center`` (miles) at ``px_per_mile``: ``route`` (pickup, drop-off)
    as an L-shaped grid route, ``cars`` as small car tops, ``me`` as a pulsing dot."""
    w, h = size
    img = Image.new("RGB", size, LAND)
    d = ImageDraw.Draw(img)

    def px(x: float, y: float) -> tuple[float, float]:
        return w / 2 + (x - center[0]) * px_per_mile, h / 2 - (y - center[1]) * px_per_mile

    x1, y1 = px(-3.2, 3.6)
    x2, y2 = px(-1.6, 2.4)
    d.rounded_rectangle((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)), radius=10,
                        fill=PARK)
    d.line([px(-7, -3.5), px(-2, -2.6), px(2, -3.4), px(7, -2.2)], fill=WATER,
           width=max(12, int(px_per_mile * 0.25)), joint="curve")
    step = 0.5
    k0 = int((center[0] - w / px_per_mile) / step) - 2
    k1 = int((center[0] + w / px_per_mile) / step) + 2
    for k in range(k0, k1):
        x, _ = px(k * step, 0)
        d.line([(x, 0), (x, h)], fill=MAJOR if k % 4 == 0 else ROAD,
               width=12 if k % 4 == 0 else 6)
    k0 = int((center[1] - h / px_per_mile) / step) - 2
    k1 = int((center[1] + h / px_per_mile) / step) + 2
    for k in range(k0, k1):
        _, y = px(0, k * step)
        d.line([(0, y), (w, y)], fill=MAJOR if k % 4 == 0 else ROAD,
               width=12 if k % 4 == 0 else 6)
    for cx, cy in cars:
        x, y = px(cx, cy)
        d.rounded_rectangle((x - 14, y - 26, x + 14, y + 26), radius=8, fill=CAR)
        d.rectangle((x - 10, y - 14, x + 10, y - 4), fill=(120, 120, 120))
    if route is not None:
        (ax, ay), (bx, by) = route
        pts = [px(ax, ay), px(bx, ay), px(bx, by)]
        d.line(pts, fill=INK, width=12, joint="curve")
        a, b = pts[0], pts[-1]
        d.ellipse((a[0] - 22, a[1] - 22, a[0] + 22, a[1] + 22), fill=INK)
        d.ellipse((a[0] - 9, a[1] - 9, a[0] + 9, a[1] + 9), fill=(255, 255, 255))
        d.rectangle((b[0] - 22, b[1] - 22, b[0] + 22, b[1] + 22), fill=INK)
        d.rectangle((b[0] - 8, b[1] - 8, b[0] + 8, b[1] + 8), fill=(255, 255, 255))
    if me is not None:
        x, y = px(*me)
        d.ellipse((x - 44, y - 44, x + 44, y + 44), fill=(200, 215, 245))
        d.ellipse((x - 18, y - 18, x + 18, y + 18), fill=(39, 110, 241),
                  outline=(255, 255, 255), width=6)
    return img
