"""Fonts: Roboto (Android's typeface, from the ``font-roboto`` package) and Font Awesome Free
icons (from ``fontawesomefree``). Both come from PyPI, so pictures match on every machine; when
either is missing, Pillow's built-in scalable font stands in."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

from PIL import ImageFont

FontT = ImageFont.FreeTypeFont | ImageFont.ImageFont

_WEIGHTS = {
    "regular": "Roboto-Regular.ttf",
    "medium": "Roboto-Medium.ttf",
    "bold": "Roboto-Bold.ttf",
}


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@functools.lru_cache(maxsize=1)  # bound: one answer (no arguments)
def _roboto_dir() -> Path | None:
    d = _package_dir("font_roboto")
    return d / "files" if d is not None and (d / "files").is_dir() else None


@functools.lru_cache(maxsize=1)  # bound: one answer (no arguments)
def _icon_font_path() -> Path | None:
    d = _package_dir("fontawesomefree")
    if d is None:
        return None
    p = d / "static" / "fontawesomefree" / "webfonts" / "fa-solid-900.ttf"
    return p if p.is_file() else None


# bound: 128 fonts. A FreeType face costs ~400 KiB of RSS (outside the Python heap); the apps
# use ~35 text sizes in 3 weights (55 seen in random play); a miss costs milliseconds
@functools.lru_cache(maxsize=128)
def text_font(px: int, weight: str = "regular") -> FontT:
    """Roboto at ``px`` pixels (em size)."""
    px = max(1, int(px))
    d = _roboto_dir()
    if d is not None:
        return ImageFont.truetype(str(d / _WEIGHTS.get(weight, _WEIGHTS["regular"])), px,
                                  layout_engine=ImageFont.Layout.BASIC)
    return ImageFont.load_default(size=px)


# bound: 64 icon fonts (~400 KiB each); icons come in fewer sizes than text
@functools.lru_cache(maxsize=64)
def icon_font(px: int) -> FontT | None:
    """Font Awesome solid at ``px`` pixels, or ``None`` if the package is missing."""
    p = _icon_font_path()
    return ImageFont.truetype(str(p), max(1, int(px)), layout_engine=ImageFont.Layout.BASIC) \
        if p is not None else None


def have_real_fonts() -> bool:
    """True when Roboto and the icon font are both installed."""
    return _roboto_dir() is not None and _icon_font_path() is not None


# Font Awesome Free 6 code points for the icons the apps use.
ICONS: dict[str, str] = {
    "search": "\uf002",
    "cart": "\uf07a",
    "heart": "\uf004",
    "star": "\uf005",
    "star_half": "\uf5c0",
    "user": "\uf007",
    "home": "\uf015",
    "back": "\uf060",
    "forward": "\uf061",
    "plus": "\u002b",
    "minus": "\uf068",
    "trash": "\uf1f8",
    "edit": "\uf304",
    "close": "\uf00d",
    "menu": "\uf0c9",
    "more": "\uf142",
    "phone": "\uf095",
    "mail": "\uf0e0",
    "location": "\uf3c5",
    "truck": "\uf0d1",
    "card": "\uf09d",
    "box": "\uf466",
    "chevron_right": "\uf054",
    "chevron_left": "\uf053",
    "chevron_down": "\uf078",
    "check": "\uf00c",
    "filter": "\uf0b0",
    "sort": "\uf0dc",
    "store": "\uf54e",
    "contacts": "\uf2b9",
    "bell": "\uf0f3",
    "wifi": "\uf1eb",
    "battery": "\uf240",
    "signal": "\uf012",
    "square": "\uf0c8",
    "circle": "\uf111",
    "triangle_left": "\uf04b",
    "receipt": "\uf543",
    "list": "\uf03a",
    "grid": "\uf00a",
    "tag": "\uf02b",
    "shirt": "\uf553",
    "laptop": "\uf109",
    "mobile": "\uf3cd",
    "couch": "\uf4b8",
    "book": "\uf02d",
    "futbol": "\uf1e3",
    "utensils": "\uf2e7",
    "spa": "\uf5bb",
    "gamepad": "\uf11b",
    "baby": "\uf77c",
    "paw": "\uf1b0",
    "car": "\uf1b9",
    "headphones": "\uf025",
    "gem": "\uf3a5",
    "shoe": "\uf54b",
    "camera": "\uf030",
    "undo": "\uf2ea",
    "copy": "\uf0c5",
    "share": "\uf1e0",
    "gear": "\uf013",
    "circle_user": "\uf2bd",
    "circle_check": "\uf058",
    "circle_xmark": "\uf057",
    "backspace": "\uf55a",
    "arrow_up": "\uf062",
    "turn_down_left": "\uf3be",
    "message": "\uf27a",
    "clock": "\uf017",
    "calendar": "\uf133",
    "globe": "\uf0ac",
    "keyboard": "\uf11c",
    "wallet": "\uf555",
    "percent": "%",
    "bolt": "\uf0e7",
    "gift": "\uf06b",
    "leaf": "\uf06c",
    "mug": "\uf0f4",
    "hammer": "\uf6e3",
    "pills": "\uf484",
    "music": "\uf001",
    # shopping (verified against fontawesomefree 6 metadata, solid set)
    "tv": "\uf26c",
    "dumbbell": "\uf44b",
    "bicycle": "\uf206",
    "basketball": "\uf434",
    "bone": "\uf5d7",
    "fish": "\uf578",
    "apple": "\uf5d1",
    "carrot": "\uf787",
    "lemon": "\uf094",
    "cookie": "\uf563",
    "mug_hot": "\uf7b6",
    "blender": "\uf517",
    "lightbulb": "\uf0eb",
    "bed": "\uf236",
    "chair": "\uf6c0",
    "puzzle": "\uf12e",
    "dice": "\uf522",
    "robot": "\uf544",
    "palette": "\uf53f",
    "bottle_droplet": "\ue4c4",
    "pump_soap": "\ue06b",
    "spray_can": "\uf5bd",
    "tablet": "\uf3fa",
    "socks": "\uf696",
    "glasses": "\uf530",
    "vest": "\ue085",
    "mitten": "\uf7b5",
    "campground": "\uf6bb",
    "hiking": "\uf6ec",
    "cat": "\uf6be",
    "dog": "\uf6d3",
    "bowl_food": "\ue4c6",
    "jar": "\ue516",
    "plug": "\uf1e6",
    "bag_shopping": "\uf290",
    "basket_shopping": "\uf291",
    "truck_fast": "\uf48b",
    "sliders": "\uf1de",
    "ban": "\uf05e",
    "fire": "\uf06d",
    "box_open": "\uf49e",
    "soap": "\ue06e",
    "wheat": "\ue2cd",
    "bread": "\uf7ec",
    "seedling": "\uf4d8",
    "umbrella": "\uf0e9",
    "volleyball": "\uf45f",
    "circle_info": "\uf05a",
    "brush": "\uf55d",
    "tags": "\uf02c",
    "folder": "\uf07b",
    "folder_open": "\uf07c",
    "file": "\uf15b",
    "file_lines": "\uf15c",
    "image": "\uf03e",
    "images": "\uf302",
    "note_sticky": "\uf249",
    "map": "\uf279",
    "map_pin": "\uf276",
    "location_dot": "\uf3c5",
    "route": "\uf4d7",
    "microphone": "\uf130",
    "bookmark": "\uf02e",
    "paperclip": "\uf0c6",
    "inbox": "\uf01c",
    "pen": "\uf304",
    "reply": "\uf3e5",
    "paper_plane": "\uf1d8",
    "square_check": "\uf14a",
    "thumbtack": "\uf08d",
    "video": "\uf03d",
    "film": "\uf008",
    "compass": "\uf14e",
    "person_walking": "\uf554",
    "bus": "\uf207",
    "phone_slash": "\uf3dd",
    "voicemail": "\uf897",
    "history": "\uf1da",
    "arrows_rotate": "\uf021",
    "user_plus": "\uf234",
    "at": "\uf1fa",
    "link": "\uf0c1",
    "download": "\uf019",
    "upload": "\uf093",
    "crosshairs": "\uf05b",
    "layer_group": "\uf5fd",
    "eye": "\uf06e",
    "phone_volume": "\uf2a0",
    "arrow_right": "\uf061",
    "arrow_left": "\uf060",
    "sd_card": "\uf7c2",
    "cloud": "\uf0c2",
    "tower": "\uf519",
    "keypad": "\uf1ec",
    "reply_all": "\uf122",
    "envelope_open": "\uf2b6",
    "box_archive": "\uf187",
    "bars": "\uf0c9",
    "circle_plus": "\uf055",
    "rotate_right": "\uf2f9",
    # everyday apps
    "chevron_up": "\uf077",
    "plane_departure": "\uf5b0",
    "hotel": "\uf594",
    "forward_step": "\uf051",
    "backward_step": "\uf048",
    "shuffle": "\uf074",
    "repeat": "\uf363",
    "lock_open": "\uf3c1",
    "snowflake": "\uf2dc",
    "chart_pie": "\uf200",
    "money_bill": "\uf0d6",
    "heart_pulse": "\uf21e",
    "person_running": "\uf70c",
    "shoe_prints": "\uf54b",
    "taxi": "\uf1ba",
    "cloud_sun": "\uf6c4",
    "cloud_rain": "\uf73d",
    "bowl_rice": "\ue2eb",
    "pizza_slice": "\uf818",
    "burger": "\uf805",
    "motorcycle": "\uf21c",
    "building": "\uf1ad",
    "suitcase": "\uf0f2",
    "landmark": "\uf66f",
    "arrow_right_arrow_left": "\uf0ec",
    "chart_line": "\uf201",
    "weight_scale": "\uf496",
    "list_ol": "\uf0cb",
    "bullhorn": "\uf0a1",
    "spinner": "\uf110",
    "circle_exclamation": "\uf06a",
    "triangle_exclamation": "\uf071",
    "xmark": "\uf00d",
    "credit_card": "\uf09d",
    "piggy_bank": "\uf4d3",
    "calendar_days": "\uf073",
    "ticket": "\uf145",
    "person_swimming": "\uf5c4",
    "person_biking": "\uf84a",
    "mountain_sun": "\ue52f",
    "scale_balanced": "\uf24e",
    "volume_high": "\uf028",
    "backward": "\uf04a",
    "kitchen_set": "\ue51a",
}
