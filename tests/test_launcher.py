"""The launcher: the home screen's workspace, the all-apps drawer, and every launcher app
opening from an icon tap (registry-driven: a new app is checked without new test code)."""

from __future__ import annotations

import pytest

from phoneworld_gym.app import all_apps
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, scroll_to, tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import intents, launcher

LAUNCHER_APPS = sorted(a.label for a in all_apps().values()
                       if a.kind not in ("system", "mini-app"))


def _labels(device: PhoneWorldDevice, rid: str) -> list[str]:
    """Labels of the app icons under the container ``rid``, in reading order."""
    root = device.screen.root
    box = next(v for v in root.walk() if v.rid == rid)
    return [v.desc for v in box.walk() if v.cls == "android.widget.TextView" and v.desc
            and v.clip is not None and v.clip[3] > v.clip[1]]


@pytest.fixture
def d() -> PhoneWorldDevice:
    device = PhoneWorldDevice()
    device.reset(0)
    return device


def test_home_shows_the_first_slots_in_home_order_and_a_handle(d: PhoneWorldDevice) -> None:
    shown = _labels(d, "workspace")
    tiles = [(label, "box", (0, 0, 0)) for label in LAUNCHER_APPS]
    expected = [t[0] for t in launcher.home_order(tiles)][:launcher.HOME_SLOTS]
    assert shown == expected
    assert shown[:4] == ["Phone", "Messages", "Chrome", "Camera"]
    assert find(d, desc="All apps") is not None


@pytest.mark.parametrize("how", ["handle", "swipe", "scroll"])
def test_the_drawer_lists_every_launcher_app_alphabetically(d: PhoneWorldDevice,
                                                            how: str) -> None:
    if how == "handle":
        assert d.execute(tap(d, desc="All apps")) == ""
    elif how == "swipe":
        assert d.execute(Action("swipe", direction="up", x=540, y=1800)) == ""
    else:
        assert d.execute(Action("scroll", direction="down")) == ""
    assert d.probe.foreground_app() == launcher.PACKAGE
    assert find(d, rid="search_box") is not None
    seen: list[str] = []
    for _ in range(10):
        seen += [x for x in _labels(d, "apps_list_view") if x not in seen]
        if d.execute(Action("scroll", direction="down")) != "":
            break
    assert seen == sorted(LAUNCHER_APPS, key=str.lower)


def test_drawer_search_filters_by_label_and_says_when_nothing_matches(
        d: PhoneWorldDevice) -> None:
    d.execute(Action("swipe", direction="up"))
    d.execute(tap(d, rid="search_box"))
    assert d.execute(Action("input_text", text="ma")) == ""
    assert _labels(d, "apps_list_view") == sorted(
        (x for x in LAUNCHER_APPS if "ma" in x.lower()), key=str.lower)
    assert "Maps" in _labels(d, "apps_list_view") and "Email" in _labels(d, "apps_list_view")
    d.execute(Action("input_text", text="zzq", clear_text=True))
    assert find(d, rid="apps_list_view") is None
    empty = find(d, rid="empty")
    assert empty is not None and "No apps found" in d.ui_elements()[empty].text


def test_back_and_home_close_the_drawer_and_an_app_opened_there_backs_out_to_home(
        d: PhoneWorldDevice) -> None:
    d.execute(tap(d, desc="All apps"))
    d.execute(Action("navigate_back"))
    assert find(d, desc="All apps") is not None and find(d, rid="search_box") is None
    d.execute(tap(d, desc="All apps"))
    d.execute(Action("navigate_home"))
    assert find(d, desc="All apps") is not None
    d.execute(tap(d, desc="All apps"))
    d.execute(tap(d, desc="Clock"))
    assert d.probe.foreground_app() == all_apps()["clock"].package
    for _ in range(5):
        if d.probe.foreground_app() == launcher.PACKAGE:
            break
        d.execute(Action("navigate_back"))
    assert find(d, desc="All apps") is not None, "back from an app lands on home, not the drawer"


@pytest.mark.parametrize("label", LAUNCHER_APPS)
def test_every_launcher_app_opens_from_its_icon(label: str) -> None:
    """From home if its icon is there, else from the drawer, scrolled to it: the app's main
    screen comes to the front under the app's package."""
    d = PhoneWorldDevice()
    d.reset(0)
    app = next(a for a in all_apps().values() if a.label == label)
    if find(d, desc=label) is None:
        assert d.execute(tap(d, desc="All apps")) == ""
        for action in scroll_to(d, desc=label):
            assert d.execute(action) == ""
    assert d.execute(tap(d, desc=label)) == ""
    assert d.world.foreground == app.name
    # the app's package, or the permission controller over it (Camera asks first)
    assert d.probe.foreground_app() in (app.package, intents.PERMISSION_PACKAGE)
    assert d.world.stacks[app.name][-1]["screen"] == app.main_screen
