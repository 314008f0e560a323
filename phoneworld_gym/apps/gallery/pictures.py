"""Synthetic photos: small deterministic scenes drawn with PIL and saved as JPEG (or PNG for
screenshots), with EXIF-like metadata (when and where) in the file.

A scene is a function of a seeded generator: the same seed draws the same picture, byte for
byte, so the phone's ``files`` table (fingerprinted every step) is reproducible. Pictures are
320 x 240 at JPEG quality 70 (about 4-9 KB each), so a gallery of twenty stays far below the
200 KB a world's files may hold per app. The Camera app draws its shots with the same code.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageOps

WIDTH, HEIGHT = 320, 240
#: EXIF tags: ImageDescription (the place) and DateTimeOriginal lives in the Exif IFD; PIL
#: writes the 0th IFD directly, so the date goes in DateTime
TAG_DESCRIPTION, TAG_DATETIME = 0x010E, 0x0132

RGB = tuple[int, int, int]


def _jitter(rng: np.random.Generator, c: RGB, k: int = 18) -> RGB:
    r, g, b = (min(255, max(0, v + int(rng.integers(-k, k + 1)))) for v in c)
    return (r, g, b)


def _gradient(img: Image.Image, top: RGB, bottom: RGB, y1: int, y2: int) -> None:
    """Fill rows ``y1``..``y2`` with a vertical gradient (one numpy ramp, not a line per
    row: drawing a gallery is part of a reset for a new seed)."""
    n = max(1, y2 - y1)
    t = np.linspace(0.0, 1.0, n, dtype=np.float32)[:, None]
    ramp = (np.asarray(top, np.float32) * (1 - t) + np.asarray(bottom, np.float32) * t)
    band = np.repeat(ramp.astype(np.uint8)[:, None, :], img.width, axis=1)
    img.paste(Image.fromarray(band, "RGB"), (0, y1))


def _sky(img: Image.Image, rng: np.random.Generator, horizon: int) -> None:
    _gradient(img, _jitter(rng, (70, 130, 210)), _jitter(rng, (180, 215, 245)), 0, horizon)
    d = ImageDraw.Draw(img)
    for _ in range(int(rng.integers(1, 4))):  # clouds
        x, y = int(rng.integers(0, WIDTH - 60)), int(rng.integers(10, max(11, horizon - 40)))
        for dx in (0, 18, 36):
            d.ellipse([x + dx, y, x + dx + 34, y + 22], fill=(250, 250, 252))


def sea(rng: np.random.Generator) -> Image.Image:
    """Sky over a sea with a beach."""
    img = Image.new("RGB", (WIDTH, HEIGHT))
    horizon = int(rng.integers(100, 140))
    _sky(img, rng, horizon)
    _gradient(img, _jitter(rng, (30, 100, 160)), _jitter(rng, (20, 70, 120)), horizon, HEIGHT)
    d = ImageDraw.Draw(img)
    beach = int(rng.integers(190, 215))
    d.polygon([(0, beach), (WIDTH, beach + 15), (WIDTH, HEIGHT), (0, HEIGHT)],
              fill=_jitter(rng, (225, 200, 150)))
    for y in range(horizon + 8, beach, 14):  # wave lines
        d.line([(0, y), (WIDTH, y + 2)], fill=(140, 190, 220), width=1)
    return img


def hills(rng: np.random.Generator) -> Image.Image:
    """Green hills under a sky, a tree or two."""
    img = Image.new("RGB", (WIDTH, HEIGHT))
    _sky(img, rng, 150)
    d = ImageDraw.Draw(img)
    for k, base in enumerate((120, 150, 180)):
        pts = [(0, HEIGHT)]
        phase = float(rng.uniform(0, 6.28))
        for x in range(0, WIDTH + 20, 20):
            pts.append((x, base + int(18 * np.sin(x / 45 + phase))))
        pts.append((WIDTH, HEIGHT))
        d.polygon(pts, fill=_jitter(rng, (60 + 25 * k, 140 + 15 * k, 60), 10))
    for _ in range(int(rng.integers(1, 3))):
        x = int(rng.integers(30, WIDTH - 30))
        d.rectangle([x - 3, 160, x + 3, 195], fill=(90, 60, 30))
        d.ellipse([x - 18, 130, x + 18, 170], fill=(30, 100, 40))
    return img


def sunset(rng: np.random.Generator) -> Image.Image:
    """An orange sky, a low sun and a dark skyline."""
    img = Image.new("RGB", (WIDTH, HEIGHT))
    _gradient(img, _jitter(rng, (250, 120, 60)), _jitter(rng, (255, 210, 120)), 0, 170)
    d = ImageDraw.Draw(img)
    x = int(rng.integers(80, 240))
    d.ellipse([x - 26, 48, x + 26, 100], fill=(255, 240, 190))
    x = 0
    while x < WIDTH:  # buildings
        w, h = int(rng.integers(18, 40)), int(rng.integers(20, 75))
        d.rectangle([x, 170 - h, x + w, HEIGHT], fill=(40, 30, 50))
        x += w + int(rng.integers(0, 6))
    d.rectangle([0, 170, WIDTH, HEIGHT], fill=(40, 30, 50))
    return img


def cake(rng: np.random.Generator) -> Image.Image:
    """A birthday cake with lit candles on a table."""
    img = Image.new("RGB", (WIDTH, HEIGHT), _jitter(rng, (240, 225, 205)))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 170, WIDTH, HEIGHT], fill=_jitter(rng, (150, 100, 70)))
    d.ellipse([70, 175, 250, 205], fill=(250, 250, 250))  # plate
    icing = _jitter(rng, (245, 170, 200), 30)
    d.rectangle([95, 115, 225, 190], fill=_jitter(rng, (120, 70, 40)))
    d.rectangle([95, 108, 225, 128], fill=icing)
    d.ellipse([95, 98, 225, 120], fill=icing)
    n = int(rng.integers(3, 8))
    for i in range(n):
        cx = 105 + (110 * (i + 0.5)) / n
        d.rectangle([cx - 3, 75, cx + 3, 105], fill=(80, 160, 230))
        d.ellipse([cx - 5, 60, cx + 5, 76], fill=(255, 200, 60))
    return img


def dog(rng: np.random.Generator) -> Image.Image:
    """A dog's silhouette on a lawn."""
    img = Image.new("RGB", (WIDTH, HEIGHT))
    _sky(img, rng, 150)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 150, WIDTH, HEIGHT], fill=_jitter(rng, (90, 160, 70)))
    x, y = int(rng.integers(70, 200)), 150
    fur = _jitter(rng, (60, 45, 35), 25)
    d.ellipse([x, y - 10, x + 90, y + 30], fill=fur)  # body
    d.ellipse([x + 70, y - 40, x + 110, y], fill=fur)  # head
    d.polygon([(x + 74, y - 34), (x + 80, y - 56), (x + 90, y - 36)], fill=fur)  # ear
    d.rectangle([x + 100, y - 24, x + 122, y - 12], fill=fur)  # snout
    for lx in (x + 10, x + 25, x + 60, x + 75):
        d.rectangle([lx, y + 20, lx + 9, y + 55], fill=fur)
    d.line([(x, y), (x - 25, y - 25)], fill=fur, width=7)  # tail
    return img


def screenshot(rng: np.random.Generator) -> Image.Image:
    """A phone screenshot: a status bar, an app bar and a few list rows (160 x 356)."""
    bg = _jitter(rng, (250, 248, 252), 4)
    img = Image.new("RGB", (160, 356), bg)
    d = ImageDraw.Draw(img)
    accent = [(26, 115, 232), (15, 157, 88), (219, 68, 55), (103, 80, 164)][
        int(rng.integers(4))]
    d.rectangle([0, 0, 160, 10], fill=(235, 235, 240))
    d.rectangle([0, 10, 160, 40], fill=accent)
    for i in range(int(rng.integers(4, 8))):
        y = 50 + 34 * i
        d.ellipse([8, y, 30, y + 22], fill=_jitter(rng, accent, 60))
        d.rectangle([38, y + 3, 38 + int(rng.integers(50, 110)), y + 9], fill=(60, 60, 70))
        d.rectangle([38, y + 14, 38 + int(rng.integers(30, 90)), y + 18], fill=(150, 150, 160))
    return img


#: scene name -> drawer; Gallery and Camera both pick from these
SCENES: dict[str, Callable[[np.random.Generator], Image.Image]] = {
    "sea": sea, "hills": hills, "sunset": sunset, "cake": cake, "dog": dog,
}


def _tint(img: Image.Image, color: RGB, amount: float) -> Image.Image:
    return Image.blend(img, Image.new("RGB", img.size, color), amount)


def _vivid(img: Image.Image) -> Image.Image:
    return ImageEnhance.Contrast(ImageEnhance.Color(img).enhance(1.7)).enhance(1.15)


def _west(img: Image.Image) -> Image.Image:
    return _tint(ImageEnhance.Color(img).enhance(0.7), (214, 160, 96), 0.22)


def _palma(img: Image.Image) -> Image.Image:
    return _tint(ImageEnhance.Brightness(img).enhance(1.12), (255, 214, 170), 0.15)


def _metro(img: Image.Image) -> Image.Image:
    return _tint(ImageEnhance.Color(img).enhance(0.55), (90, 130, 170), 0.18)


def _eiffel(img: Image.Image) -> Image.Image:
    return ImageEnhance.Contrast(ImageOps.grayscale(img).convert("RGB")).enhance(1.3)


def _blush(img: Image.Image) -> Image.Image:
    return _tint(img, (255, 150, 180), 0.2)


def _modena(img: Image.Image) -> Image.Image:
    return _tint(ImageEnhance.Contrast(img).enhance(0.75), (236, 214, 180), 0.2)


def _reel(img: Image.Image) -> Image.Image:
    return ImageEnhance.Contrast(_tint(img, (40, 150, 150), 0.2)).enhance(1.2)


#: the photo filters a gallery editor may offer (Google Photos' names), in the order of its
#: strip; which of them this phone's Gallery offers is drawn per seed (see ``store``)
FILTERS: dict[str, Callable[[Image.Image], Image.Image]] = {
    "Vivid": _vivid, "West": _west, "Palma": _palma, "Metro": _metro, "Eiffel": _eiffel,
    "Blush": _blush, "Modena": _modena, "Reel": _reel,
}


def apply_filter(img: Image.Image, name: str) -> Image.Image:
    """``img`` with the filter ``name`` (``ValueError`` for an unknown one)."""
    if name not in FILTERS:
        raise ValueError(f"unknown filter {name!r}; filters: {sorted(FILTERS)}")
    return FILTERS[name](img.convert("RGB"))


def encode(img: Image.Image, *, taken: str = "", place: str = "", fmt: str = "JPEG") -> bytes:
    """The file bytes of ``img``: JPEG quality 70 (or PNG), with the date (``taken``, ISO)
    and the place written into EXIF as a camera would."""
    exif = Image.Exif()
    if taken:
        exif[TAG_DATETIME] = taken.replace("-", ":").replace("T", " ")[:19]
    if place:
        exif[TAG_DESCRIPTION] = place
    buf = io.BytesIO()
    if fmt == "PNG":
        img.save(buf, format="PNG", compress_level=1)  # fast: made at every new seed
    else:
        img.save(buf, format="JPEG", quality=70, exif=exif.tobytes())
    return buf.getvalue()


def draw(scene: str, seed: int) -> Image.Image:
    """Scene ``scene`` drawn from ``seed`` (``ValueError`` for an unknown scene)."""
    if scene == "screenshot":
        return screenshot(np.random.default_rng(seed))
    if scene not in SCENES:
        raise ValueError(f"unknown scene {scene!r}; scenes: {sorted(SCENES)} and 'screenshot'")
    return SCENES[scene](np.random.default_rng(seed))


def exif_place(data: bytes) -> str:
    """The place a photo's EXIF names ("" when none or not an image)."""
    try:
        with Image.open(io.BytesIO(data)) as im:
            return str(im.getexif().get(TAG_DESCRIPTION, "") or "")
    except Exception:  # a file that is not a picture has no place
        return ""
