"""The status bar shows what the phone's settings say: the plane replaces the signal bars in
airplane mode, the Wi-Fi glyph goes when Wi-Fi is off, Do Not Disturb adds its glyph. Changed
through the Settings app's own switches, the bar's pixels match a fresh phone whose setting
was put with ``settings put``, switching back restores them exactly, and none of the bar is in
the app's accessibility dump (it belongs to ``com.android.systemui``)."""

from __future__ import annotations

import numpy as np
import pytest

from phoneworld_gym import Action
from phoneworld_gym.oracle import tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import chrome
from phoneworld_gym.system.chrome import StatusIcons
from phoneworld_gym.ui.view import Icon, View

SIZE = (540, 1200)
SCALE = SIZE[0] / 1080
BAR_H = round(chrome.STATUS_BAR_H * SCALE)
BASE = {"airplane_mode_on": "0", "wifi_on": "1", "zen_mode": "0", "low_power": "0"}


def _phone(**settings: str) -> PhoneWorldDevice:
    d = PhoneWorldDevice(screenshot_size=SIZE)
    d.reset(3)
    for key, value in {**BASE, **settings}.items():
        d.put_setting("global", key, value)
    return d


def _do(d: PhoneWorldDevice, action: Action) -> None:
    assert d.execute(action) == "", action


def _open(d: PhoneWorldDevice, page: str) -> None:
    _do(d, Action("open_app", app_name="Settings"))
    _do(d, tap(d, text=page, rid="dashboard_tile_title"))


def _bar(d: PhoneWorldDevice) -> np.ndarray:
    return d.screenshot()[:BAR_H].copy()


def _icons(d: PhoneWorldDevice) -> dict[str, tuple[int, int, int, int]]:
    """The status bar's glyphs and their boxes, scaled to the screenshot."""
    def walk(v: View) -> list[View]:
        return [v, *(x for c in v.children for x in walk(c))]

    main = d.screen.root.children[0]
    bar = main.children[0]
    assert isinstance(bar, View) and bar.box[3] == chrome.STATUS_BAR_H
    return {v.name: tuple(round(c * SCALE) for c in v.box)  # type: ignore[misc]
            for v in walk(bar) if isinstance(v, Icon)}


def _crop(img: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    return img[box[1]:box[3], box[0]:box[2]]


def _ink(img: np.ndarray) -> int:
    """How many pixels are drawn darker than the light bar's background."""
    return int((img.min(axis=2) < 128).sum())


def test_defaults_and_every_setting_read_from_the_settings_dict():
    assert StatusIcons.from_settings({}) == StatusIcons(airplane=False, wifi=True, dnd=False,
                                                        saver=False, battery=87)
    got = StatusIcons.from_settings({"global": {"airplane_mode_on": "1", "zen_mode": "2",
                                                "low_power": "1"}})
    assert got == StatusIcons(airplane=True, wifi=False, dnd=True, saver=True)
    assert not StatusIcons.from_settings({"global": {"wifi_on": "0"}}).wifi


def test_airplane_switch_puts_the_plane_where_the_signal_was_and_back_exactly():
    d = _phone()
    _open(d, "Network & internet")
    before, icons = _bar(d), _icons(d)
    assert "signal" in icons and "plane" not in icons and "wifi" in icons
    xml_before = d.a11y_xml()

    _do(d, tap(d, text="Airplane mode", rid="title"))
    assert d.probe.setting("global", "airplane_mode_on") == "1"
    on, on_icons = _bar(d), _icons(d)
    assert "plane" in on_icons and "signal" not in on_icons and "wifi" not in on_icons
    sig, plane = icons["signal"], on_icons["plane"]
    # Wi-Fi is cut off too, so the plane, right-aligned, stands in the slot next to the battery
    assert plane == icons["wifi"] and plane[2] < on_icons["battery"][0]
    assert _ink(_crop(on, plane)) > 20
    for glyph in ("signal", "wifi"):  # its pixels are neither the bars' nor the Wi-Fi's
        assert not np.array_equal(_crop(on, plane), _crop(before, icons[glyph]))
    # the clock and everything left of the system icons is unchanged
    left = (0, 0, sig[0] - 2, BAR_H)
    assert np.array_equal(_crop(on, left), _crop(before, left))

    fresh = _phone(airplane_mode_on="1")
    _open(fresh, "Network & internet")
    assert np.array_equal(_bar(fresh), on)

    _do(d, tap(d, text="Airplane mode", rid="title"))
    assert d.probe.setting("global", "airplane_mode_on") == "0"
    assert np.array_equal(_bar(d), before)
    assert d.a11y_xml() == xml_before  # the bar's icons never enter the app's dump


def test_wifi_switch_removes_the_wifi_glyph():
    d = _phone()
    _open(d, "Network & internet")
    before, icons = _bar(d), _icons(d)
    _do(d, tap(d, text="Wi-Fi", rid="title"))
    assert d.probe.setting("global", "wifi_on") == "0"
    off, off_icons = _bar(d), _icons(d)
    assert "wifi" not in off_icons and off_icons["signal"] != icons["signal"]
    right = (icons["signal"][0], 0, SIZE[0], BAR_H)
    assert _ink(_crop(off, right)) < _ink(_crop(before, right)) - 20
    fresh = _phone(wifi_on="0")
    _open(fresh, "Network & internet")
    assert np.array_equal(_bar(fresh), off)
    _do(d, tap(d, text="Wi-Fi", rid="title"))
    assert np.array_equal(_bar(d), before)


def test_do_not_disturb_adds_its_glyph_and_saver_tints_the_battery():
    d = _phone()
    _open(d, "Sound & vibration")
    before = _bar(d)
    _do(d, tap(d, text="Do Not Disturb", rid="title"))
    assert d.probe.setting("global", "zen_mode") == "1"
    assert "bell_slash" in _icons(d)
    assert _ink(_bar(d)) > _ink(before) + 20

    s = _phone()
    _open(s, "Battery")
    plain = _bar(s)
    _do(s, tap(s, text="Battery Saver", rid="title"))
    tinted = _bar(s)
    box = _icons(s)["battery"]
    assert not np.array_equal(_crop(tinted, box), _crop(plain, box))
    # amber: red well above blue where the battery is drawn
    px = _crop(tinted, box).reshape(-1, 3).astype(int)
    assert ((px[:, 0] - px[:, 2]) > 100).sum() > 20


def test_home_screen_frame_follows_a_setting_put_while_it_is_shown():
    d = _phone()
    home = d.screenshot().copy()
    d.put_setting("global", "airplane_mode_on", "1")
    assert not np.array_equal(d.screenshot()[:BAR_H], home[:BAR_H])
    assert np.array_equal(d.screenshot()[BAR_H:], home[BAR_H:])
    d.put_setting("global", "airplane_mode_on", "0")
    assert np.array_equal(d.screenshot(), home)


@pytest.mark.parametrize("key", ["airplane_mode_on", "wifi_on"])
def test_default_bar_is_unchanged_by_writing_the_default_value(key):
    plain = PhoneWorldDevice(screenshot_size=SIZE)
    plain.reset(3)
    d = _phone(**{key: BASE[key]})
    assert np.array_equal(plain.screenshot(), d.screenshot())
