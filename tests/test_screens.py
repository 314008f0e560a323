"""Registry-driven screen consistency: on every screen an oracle walks through, the dump, the
hit test and the pixels agree, and observing it does not change the world.

:func:`check_screen` and :func:`check_read_only` are shared with ``test_crawl.py``, which
applies them to every screen of every app."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import gymnasium
import numpy as np
import pytest
from conftest import TASK_IDS

from phoneworld_gym import Action
from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, parse_bounds
from phoneworld_gym.ui.view import hit_test

SIZE = (SCREEN_WIDTH, SCREEN_HEIGHT)  # full resolution: a crop is exactly the element


def check_read_only(device, where: str) -> None:
    """Building, dumping and drawing the current frame from scratch leaves the world as it
    was (call it right after an action or a restore, before anything observes)."""
    before = device.world.state_hash()
    device.invalidate()
    device.a11y_xml()
    device.ui_elements()
    device.screenshot()
    assert device.world.state_hash() == before, f"{where}: observing changed the world"


def check_screen(device, where: str) -> None:
    """Every consistency property of the device's current screen: the dump is well formed
    and on screen, the indexed elements and their views line up (same count, same bounds),
    a tap at a clickable element's centre hits its view, and something is drawn there."""
    xml = device.a11y_xml()
    # (d) well-formed
    root = ET.fromstring(xml)
    assert root.tag == "hierarchy"
    nodes = list(root.iter("node"))
    assert nodes, f"{where}: empty dump"
    # (a) bounds on screen and non-empty
    for n in nodes:
        x1, y1, x2, y2 = parse_bounds(n.get("bounds", ""))
        assert 0 <= x1 < x2 <= SCREEN_WIDTH and 0 <= y1 < y2 <= SCREEN_HEIGHT, (
            f"{where}: node {n.get('class')} {n.get('resource-id')!r} {n.get('text')!r} "
            f"has bounds {n.get('bounds')}")
    # the root's package is the foreground app's
    assert nodes[0].get("package") == device.probe.foreground_app(), where
    screen = device.screen
    elements = device.ui_elements()
    views = screen.element_views
    assert len(views) == len(elements), f"{where}: {len(views)} views, {len(elements)} elements"
    pixels = np.asarray(device.screenshot())
    assert pixels.shape == (SCREEN_HEIGHT, SCREEN_WIDTH, 3) and pixels.dtype == np.uint8
    for i, (el, view) in enumerate(zip(elements, views)):
        bb = el.bbox_pixels
        box = (int(bb.x_min), int(bb.y_min), int(bb.x_max), int(bb.y_max))
        label = f"{where}: element {i} {el.class_name} {el.describe()!r}"
        # (b) the element list and the view list are aligned ...
        assert view.clip == box, f"{label}: view clip {view.clip} != bounds {box}"
        assert view.cls == el.class_name, label
        assert bool(view.clickable) == bool(el.is_clickable), label
        if not el.is_clickable:
            continue
        # ... and a tap at the centre of a clickable element hits that very view
        cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
        hit = hit_test(screen.root, cx, cy)
        assert hit is view, (f"{label}: a tap at its centre ({cx}, {cy}) hits "
                             f"{getattr(hit, 'cls', None)} {getattr(hit, 'text', None)!r} "
                             f"{getattr(hit, 'desc', None)!r} at {getattr(hit, 'clip', None)}")
        # (c) something is drawn there
        crop = pixels[box[1]:box[3], box[0]:box[2]]
        assert crop.size and float(crop.std()) > 0, f"{label}: blank at {box}"


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_screens_are_consistent(task_id):
    env = gymnasium.make(f"PhoneWorld/{task_id}-v0", screenshot_size=SIZE)
    try:
        env.reset(seed=0)
        device = env.unwrapped.device
        checked: set[str] = set()

        def check(where: str) -> None:
            xml = device.a11y_xml()
            if xml not in checked:
                check_screen(device, where)
                checked.add(xml)

        check("start")
        steps = 0
        for steps, action in enumerate(env.unwrapped.oracle(), 1):
            _, _, term, trunc, info = env.step(action)
            assert not info["action_error"], f"{action} -> {info['action_error']}"
            if term or trunc:
                break
            check(f"after step {steps} {action.to_json_str()}")
        assert checked, task_id
    finally:
        env.close()


def test_home_screen_is_consistent_and_every_app_screen_too():
    """Outside the oracles: the launcher and each app's first screen, scrolled."""
    import phoneworld_gym

    env = gymnasium.make("PhoneWorld/All-v0", screenshot_size=SIZE)
    try:
        env.reset(seed=1)
        device = env.unwrapped.device
        device.execute(Action("navigate_home"))
        check_screen(device, "home")
        for app in phoneworld_gym.list_apps():
            if app.kind in ("system", "mini-app"):  # mini-apps open inside their host
                continue
            assert device.execute(Action("open_app", app_name=app.label)) == ""
            check_screen(device, f"{app.label} main")
            if device.execute(Action("scroll", direction="down")) == "":
                check_screen(device, f"{app.label} main scrolled")
            device.execute(Action("navigate_home"))
    finally:
        env.close()
