"""Settings > Dark theme (``settings secure ui_night_mode`` = 2): every app is drawn dark, the
way Android's force-dark darkens apps, while the accessibility tree and photos stay as they
are."""

from __future__ import annotations

import numpy as np
import pytest

from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui import render as R


def _luma(frame: np.ndarray) -> float:
    return float(frame[..., :3].mean())


def test_night_color_inverts_lightness_and_keeps_brand_colours() -> None:
    white, black = R.night_color((255, 255, 255)), R.night_color((0, 0, 0))
    assert max(white) < 40 and min(black) > 200
    blue = (11, 87, 208)  # a saturated mid-tone: a filled button
    b = R.night_color(blue)
    assert b[2] > b[0] and b[2] > 150 and abs(b[2] - blue[2]) < 40
    # a tinted light surface becomes a near-neutral dark one
    lav = R.night_color((243, 237, 247))
    assert max(lav) < 50 and max(lav) - min(lav) < 12


@pytest.mark.parametrize("app", ["Messages", "Settings", "Contacts", "Shopping"])
def test_dark_theme_darkens_the_frame_and_leaves_the_tree(app: str) -> None:
    light, dark = PhoneWorldDevice(screenshot_size=(540, 1200)), \
        PhoneWorldDevice(screenshot_size=(540, 1200))
    for d in (light, dark):
        d.reset(0)
    dark.put_setting("secure", "ui_night_mode", "2")
    for d in (light, dark):
        d.execute(Action("open_app", app_name=app))
    assert dark.a11y_xml() == light.a11y_xml()
    assert _luma(light.screenshot()) > 150 and _luma(dark.screenshot()) < 90


def test_photos_are_left_as_they_are() -> None:
    light, dark = PhoneWorldDevice(), PhoneWorldDevice()
    for d in (light, dark):
        d.reset(0)
    dark.put_setting("secure", "ui_night_mode", "2")
    for d in (light, dark):
        d.execute(Action("open_app", app_name="Gallery"))
    pics = [v for v in light.screen.root.walk() if type(v).__name__ == "Picture"
            and v.clip is not None and v.clip[3] - v.clip[1] > 100]
    assert pics
    x1, y1, x2, y2 = pics[0].clip
    a, b = light.screenshot()[y1 + 4:y2 - 4, x1 + 4:x2 - 4], dark.screenshot()[y1 + 4:y2 - 4,
                                                                                 x1 + 4:x2 - 4]
    assert np.array_equal(a, b)
    assert not np.array_equal(light.screenshot(), dark.screenshot())


def test_the_settings_switch_turns_it_on_in_the_next_frame_and_off_again() -> None:
    d = PhoneWorldDevice(screenshot_size=(540, 1200))
    d.reset(0)
    d.execute(Action("open_app", app_name="Settings"))
    before = _luma(d.screenshot())
    d.execute(tap(d, text="Display"))
    for action in scroll_to(d, text="Dark theme"):
        d.execute(action)
    d.execute(tap(d, text="Dark theme"))
    assert d.probe.setting("secure", "ui_night_mode") == "2"
    assert _luma(d.screenshot()) < before - 60
    d.execute(tap(d, text="Dark theme"))
    assert d.probe.setting("secure", "ui_night_mode") == "1"
    assert _luma(d.screenshot()) > before - 20


def test_incremental_night_frames_equal_a_full_night_paint() -> None:
    d = PhoneWorldDevice(screenshot_size=(540, 1200))
    d.reset(1)
    d.put_setting("secure", "ui_night_mode", "2")
    for action in (Action("open_app", app_name="Contacts"), Action("scroll", direction="down"),
                   Action("navigate_home"), Action("open_app", app_name="Clock")):
        d.execute(action)
        shot = d.screenshot()
        dl = R.display_list(d.screen.root, (540, 1200))
        full = R.paint(dl if d.screen.dark else R.night_list(dl))  # home is dark already
        assert np.array_equal(shot, full), action


def test_an_app_with_its_own_dark_theme_is_left_alone_and_gets_dark_bars() -> None:
    """Music draws itself dark: the system's dark theme does not invert it, and the status and
    navigation bars are the dark variant on it either way."""
    light, dark = PhoneWorldDevice(screenshot_size=(540, 1200)), \
        PhoneWorldDevice(screenshot_size=(540, 1200))
    for d in (light, dark):
        d.reset(0)
    dark.put_setting("secure", "ui_night_mode", "2")
    for d in (light, dark):
        d.execute(Action("open_app", app_name="Music"))
    assert light.screen.dark and np.array_equal(light.screenshot(), dark.screenshot())
    bar = light.screenshot()[2:20, :, :]  # the status bar: white glyphs on a dark strip
    assert _luma(bar) < 90 and bar.max() > 200
