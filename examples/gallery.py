"""Render a gallery of PhoneWorld screens to one PNG (the README's picture).

    python examples/gallery.py --out docs/screens.png
    python examples/gallery.py --tour system --out docs/system_apps.png
    python examples/gallery.py --tour everyday --out docs/everyday_apps.png
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from PIL import Image

from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, scroll_to, tap, type_into
from phoneworld_gym.phone import PhoneWorldDevice


def tour(d: PhoneWorldDevice) -> Iterator[str]:
    """Drive the phone through a few screens, yielding after each one worth a picture."""
    yield "home screen"
    d.execute(Action("open_app", app_name="Shopping"))
    yield "Shopping: home"
    d.execute(type_into(d, "jacket", rid="search_bar"))
    yield "search results"
    d.execute(tap(d, rid="product_name"))
    for a in scroll_to(d, rid="option_size"):
        d.execute(a)
    yield "product page"
    while find(d, rid="nav_cart") is None:
        d.execute(Action("navigate_back"))
    d.execute(tap(d, rid="nav_cart"))
    yield "cart"
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, rid="contact_title"))
    yield "Contacts: a contact"
    for app in ("Messages", "Calendar", "Clock", "Settings"):
        d.execute(Action("open_app", app_name=app))
        yield app


def system_tour(d: PhoneWorldDevice) -> Iterator[str]:
    """The phone's own apps and the plumbing between them (the system-apps picture)."""
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, rid="contact_title"))
    d.execute(tap(d, rid="call"))  # a tel: intent: the dialer opens with the number
    yield "Phone: the keypad a contact's Call opened"
    d.execute(Action("open_app", app_name="Email"))
    yield "Email: inbox"
    d.execute(Action("open_app", app_name="Gallery"))
    yield "Gallery: photos by date"
    d.execute(tap(d, rid="photo", nth=1))
    d.execute(tap(d, desc="Share"))
    yield "the share sheet over a photo"
    d.execute(Action("navigate_home"))
    d.execute(Action("open_app", app_name="Maps"))
    d.execute(tap(d, rid="map_pin"))
    yield "Maps: a place"
    d.execute(Action("open_app", app_name="Notes"))
    yield "Notes"
    d.execute(Action("open_app", app_name="Chat"))
    d.execute(tap(d, rid="nav_discover"))
    d.execute(tap(d, text="Bean There"))
    yield "Chat: the Bean There mini-app"


def everyday_tour(d: PhoneWorldDevice) -> Iterator[str]:
    """The app drawer, the everyday apps' first screens, and the dark theme."""
    d.execute(tap(d, desc="All apps"))
    yield "the app drawer"
    d.execute(Action("navigate_home"))
    for app in ("Food", "Rides", "Bank", "Travel", "Music", "Recipes", "Expenses", "Fitness"):
        d.execute(Action("open_app", app_name=app))
        yield app
    d.put_setting("secure", "ui_night_mode", "2")
    d.execute(Action("open_app", app_name="Messages"))
    yield "Messages with Settings > Dark theme on"


TOURS = {"apps": tour, "system": system_tour, "everyday": everyday_tour}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default="docs/screens.png")
    p.add_argument("--width", type=int, default=300)
    p.add_argument("--tour", choices=sorted(TOURS), default="apps",
                   help="apps: the README's tour; system: the phone's own apps and plumbing; "
                        "everyday: the drawer, the everyday apps and the dark theme")
    args = p.parse_args()
    w, h = args.width, args.width * 2400 // 1080
    d = PhoneWorldDevice(screenshot_size=(w, h))
    d.reset(0)
    shots = [Image.fromarray(d.screenshot()) for _ in TOURS[args.tour](d)]
    gap = 16
    sheet = Image.new("RGB", (len(shots) * (w + gap) + gap, h + 2 * gap), (236, 236, 240))
    for i, s in enumerate(shots):
        sheet.paste(s, (gap + i * (w + gap), gap))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.out, optimize=True)
    print(f"wrote {args.out} ({len(shots)} screens at {w}x{h})")


if __name__ == "__main__":
    main()
