"""What the camera sees: small synthetic scenes drawn deterministically with PIL.

The back camera looks at one of a few everyday scenes (a street, a park, a desk, a kitchen
window); the front camera at the owner (a head-and-shoulders silhouette). Which scene and its
details come from the shot number, so the viewfinder changes after every photo and the same
world always shows, and saves, the same picture.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw

#: picture sizes by aspect ratio setting
SIZES: dict[str, tuple[int, int]] = {"4:3": (320, 240), "16:9": (320, 180)}
TAG_DESCRIPTION, TAG_DATETIME = 0x010E, 0x0132


def _vary(rng: np.random.Generator, c: tuple[int, int, int], k: int = 20
          ) -> tuple[int, int, int]:
    r, g, b = (min(max(v + int(rng.integers(-k, k + 1)), 0), 255) for v in c)
    return (r, g, b)


def street(rng: np.random.Generator, w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), _vary(rng, (150, 190, 230)))
    d = ImageDraw.Draw(img)
    road = int(h * 0.7)
    x = 0
    while x < w:
        bw, bh = int(rng.integers(30, 60)), int(rng.integers(h // 4, int(h * 0.6)))
        col = _vary(rng, (170, 120, 90), 40)
        d.rectangle([x, road - bh, x + bw, road], fill=col)
        for wy in range(road - bh + 8, road - 10, 16):  # windows
            for wx in range(x + 6, x + bw - 8, 12):
                d.rectangle([wx, wy, wx + 6, wy + 8], fill=(250, 230, 150))
        x += bw + int(rng.integers(2, 8))
    d.rectangle([0, road, w, h], fill=(80, 80, 85))
    for lx in range(10, w, 40):
        d.rectangle([lx, road + (h - road) // 2 - 2, lx + 20, road + (h - road) // 2 + 2],
                    fill=(240, 240, 240))
    return img


def park(rng: np.random.Generator, w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), _vary(rng, (135, 195, 240)))
    d = ImageDraw.Draw(img)
    ground = int(h * 0.6)
    d.rectangle([0, ground, w, h], fill=_vary(rng, (95, 170, 75)))
    d.ellipse([w - 70, 15, w - 30, 55], fill=(255, 235, 120))
    for _ in range(int(rng.integers(2, 5))):
        x = int(rng.integers(20, w - 20))
        d.rectangle([x - 4, ground - 35, x + 4, ground + 5], fill=(100, 70, 40))
        d.ellipse([x - 24, ground - 75, x + 24, ground - 25], fill=_vary(rng, (40, 120, 50)))
    bx = int(rng.integers(40, w - 100))  # a bench
    d.rectangle([bx, ground + 20, bx + 70, ground + 28], fill=(120, 80, 50))
    d.rectangle([bx + 5, ground + 28, bx + 10, ground + 45], fill=(60, 60, 60))
    d.rectangle([bx + 60, ground + 28, bx + 65, ground + 45], fill=(60, 60, 60))
    return img


def desk(rng: np.random.Generator, w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), _vary(rng, (225, 220, 210)))
    d = ImageDraw.Draw(img)
    top = int(h * 0.55)
    d.rectangle([0, top, w, h], fill=_vary(rng, (160, 115, 75)))
    lx = int(rng.integers(30, 120))  # a laptop
    d.rectangle([lx, top - 70, lx + 110, top - 5], fill=(50, 50, 60))
    d.rectangle([lx + 6, top - 64, lx + 104, top - 11], fill=_vary(rng, (90, 140, 210), 40))
    d.polygon([(lx - 10, top + 12), (lx + 120, top + 12), (lx + 110, top - 5), (lx, top - 5)],
              fill=(120, 120, 130))
    mx = int(rng.integers(lx + 140, w - 30)) if lx + 140 < w - 30 else w - 40  # a mug
    d.rectangle([mx, top - 30, mx + 26, top + 4], fill=_vary(rng, (200, 60, 60), 50))
    d.ellipse([mx + 20, top - 24, mx + 36, top - 8], outline=(200, 60, 60), width=4)
    return img


def window(rng: np.random.Generator, w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), _vary(rng, (240, 235, 220)))
    d = ImageDraw.Draw(img)
    x1, y1, x2, y2 = w // 5, h // 8, w * 4 // 5, h * 5 // 8
    d.rectangle([x1, y1, x2, y2], fill=_vary(rng, (140, 200, 245)))
    d.rectangle([x1, (y1 + y2) // 2 + 10, x2, y2], fill=_vary(rng, (90, 160, 90)))
    d.rectangle([x1 - 6, y1 - 6, x2 + 6, y2 + 6], outline=(255, 255, 255), width=8)
    d.line([((x1 + x2) // 2, y1), ((x1 + x2) // 2, y2)], fill=(255, 255, 255), width=6)
    d.rectangle([0, y2 + 20, w, h], fill=_vary(rng, (190, 190, 195)))
    for i in range(int(rng.integers(1, 4))):  # plant pots on the sill
        px = x1 + 20 + 55 * i
        d.rectangle([px, y2 - 2, px + 28, y2 + 22], fill=(190, 100, 60))
        d.ellipse([px - 8, y2 - 32, px + 36, y2 + 2], fill=_vary(rng, (50, 140, 60)))
    return img


def selfie(rng: np.random.Generator, w: int, h: int) -> Image.Image:
    img = Image.new("RGB", (w, h), _vary(rng, (200, 215, 230), 30))
    d = ImageDraw.Draw(img)
    cx = w // 2 + int(rng.integers(-20, 21))
    skin = _vary(rng, (200, 150, 120), 40)
    d.ellipse([cx - 80, h - 60, cx + 80, h + 80], fill=_vary(rng, (60, 90, 150), 50))
    d.rectangle([cx - 14, h - 80, cx + 14, h - 50], fill=skin)
    d.ellipse([cx - 42, h // 2 - 75, cx + 42, h // 2 + 25], fill=skin)
    d.chord([cx - 46, h // 2 - 82, cx + 46, h // 2 - 10], 180, 360,
            fill=_vary(rng, (60, 40, 30), 30))
    return img


#: back camera scenes, in the order shots cycle through them
BACK: tuple[Callable[[np.random.Generator, int, int], Image.Image], ...] = (
    street, park, desk, window)


def view(shot: int, lens: str = "back", aspect: str = "4:3") -> Image.Image:
    """What the camera sees before shot number ``shot`` (``ValueError`` for a bad lens or
    aspect)."""
    if aspect not in SIZES:
        raise ValueError(f"aspect must be one of {sorted(SIZES)}, got {aspect!r}")
    if lens not in ("back", "front"):
        raise ValueError(f"lens must be 'back' or 'front', got {lens!r}")
    w, h = SIZES[aspect]
    rng = np.random.default_rng([int(shot), 1 if lens == "front" else 0])
    draw = selfie if lens == "front" else BACK[int(shot) % len(BACK)]
    return draw(rng, w, h)


def jpeg(img: Image.Image, *, taken: str, place: str = "") -> bytes:
    """JPEG bytes (quality 70) with the date and, when location is saved, the place in EXIF."""
    exif = Image.Exif()
    exif[TAG_DATETIME] = taken.replace("-", ":").replace("T", " ")[:19]
    if place:
        exif[TAG_DESCRIPTION] = place
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=70, exif=exif.tobytes(), optimize=True)
    return buf.getvalue()
