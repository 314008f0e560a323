"""Every screen of every app, reached by crawling its UI from the start screen.

From each app's start screen the crawl taps every element, types into every text field,
long-presses where something responds and scrolls, restoring a world snapshot between
branches. A state that shows something new (a screen or dialog with a set of tappable
resource ids not seen before: another order with a Return button, the bottom of a page) is
always expanded; other new states (another product, another scroll position) are expanded up
to a budget, the least expanded screen first. Each expanded state gets ``test_screens``'
consistency and read-only checks, and every screen an app declares must be reached.

A mini-app is crawled from its host's start screen: UI actions in the host find the way into
it (a breadth-first search), then its own screens are crawled; a host's crawl stops at the
mini-apps it opens.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_screens import SIZE, check_read_only, check_screen

from phoneworld_gym.app import App, all_apps, split_screen
from phoneworld_gym.contract import Action
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.view import TextField, hit_test

SEEDS = (0, 1)
#: expansions per app and seed of states that show nothing new
BUDGET = 20


def _actions(device: PhoneWorldDevice) -> Iterator[Action]:
    """What the crawl tries on a screen: a tap on each element (once per view that the tap
    lands on: a text label inside a list row taps the row), typing into each text field, a
    long press where one responds, and a scroll."""
    root = device.screen.root
    tapped: set[int] = set()
    pressed: set[int] = set()
    for i, view in enumerate(device.screen.element_views):
        assert view.clip is not None
        x, y = (view.clip[0] + view.clip[2]) // 2, (view.clip[1] + view.clip[3]) // 2
        hit = hit_test(root, x, y)
        if hit is not None and id(hit) not in tapped:
            tapped.add(id(hit))
            editable = isinstance(hit, TextField)
            yield Action("input_text", index=i, text="a") if editable else Action("click", index=i)
        hit = hit_test(root, x, y, long=True)
        if hit is not None and id(hit) not in pressed:
            pressed.add(id(hit))
            yield Action("long_press", index=i)
    yield Action("scroll", direction="down")


def _keys(device: PhoneWorldDevice, app: App) -> tuple[str, str] | None:
    """(screen and dialog, the whole activity) of a state in ``app`` (a mini-app: on its
    host's stack); None elsewhere."""
    w = device.world
    host = app.host or app.name
    if w.foreground != host or w.shade or not w.stacks.get(host):
        return None
    entry = w.stacks[host][-1]
    mini, local = split_screen(entry["screen"])
    if mini != (app.name if app.host else None):
        return None  # another app's screen (a mini-app over its host)
    dialog = entry["state"].get("_dialog")
    screen = local + (f" [{dialog}]" if dialog else "")
    activity = json.dumps([entry["screen"], entry["args"], dialog,
                           entry["state"].get("_scroll"), w.permissions.get(host, {})],
                          sort_keys=True, default=str)
    return screen, activity


def _shape(device: PhoneWorldDevice, screen: str) -> tuple[str, frozenset[str]]:
    """A screen with the resource ids of what can be tapped on it: another order with a
    Return button, or the bottom of a page scrolled into view, is a new shape."""
    return screen, frozenset(e.resource_id or "" for e in device.ui_elements()
                             if e.is_clickable or e.is_editable)


def crawl(app: App, seed: int, budget: int = BUDGET) -> collections.Counter[str]:
    """Crawl ``app`` from its start screen; return how often each screen was expanded."""
    device = PhoneWorldDevice(screenshot_size=SIZE)
    device.reset(seed)
    if app.host is not None:
        err = device.execute(Action("open_app", app_name=app.label))
        assert "opens inside" in err, f"{app.name}: open_app of a mini-app gave {err!r}"
        _enter_mini_app(device, app)
    else:
        assert device.execute(Action("open_app", app_name=app.label)) == ""
    start = _keys(device, app)
    assert start is not None
    # states of a new shape, expanded first and all; then the others, by screen: the least
    # expanded screen goes next, up to the budget
    fresh: collections.deque[tuple[str, dict[str, Any]]] = collections.deque(
        [(start[0], device.snapshot())])
    known: dict[str, collections.deque[dict[str, Any]]] = collections.defaultdict(
        collections.deque)
    seen_shapes, seen_activities = {_shape(device, start[0])}, {start[1]}
    expanded: collections.Counter[str] = collections.Counter()

    def pop() -> tuple[str, dict[str, Any]]:
        if fresh:
            return fresh.popleft()
        screen = min((s for s in known if known[s]), key=lambda s: expanded[s])
        extra[0] += 1
        return screen, known[screen].popleft()

    extra = [0]
    while fresh or (extra[0] < budget and any(known.values())):
        screen, snap = pop()
        device.restore(snap)
        where = f"{app.name} seed {seed} on {screen}"
        check_read_only(device, where)
        check_screen(device, where)
        expanded[screen] += 1
        for action in list(_actions(device)):
            device.restore(snap)
            if device.execute(action):
                continue  # meaningless here: nothing changed
            keys = _keys(device, app)
            if keys is None or keys[1] in seen_activities:
                continue  # left the app, or been here
            seen_activities.add(keys[1])
            shape = _shape(device, keys[0])
            if shape not in seen_shapes:
                seen_shapes.add(shape)
                fresh.append((keys[0], device.snapshot()))
            else:
                known[keys[0]].append(device.snapshot())
    return expanded


def _enter_mini_app(device: PhoneWorldDevice, app: App, depth: int = 4) -> None:
    """Open ``app``'s host and reach the mini-app by UI actions (breadth first, at most
    ``depth`` actions from the host's start screen); fail when it cannot be reached."""
    host = all_apps()[str(app.host)]
    assert device.execute(Action("open_app", app_name=host.label)) == ""
    layer = [device.snapshot()]
    seen: set[str] = set()
    for _ in range(depth):
        nxt = []
        for snap in layer:
            device.restore(snap)
            for action in list(_actions(device)):
                device.restore(snap)
                if device.execute(action):
                    continue
                if _keys(device, app) is not None:
                    return
                w = device.world
                if w.foreground != host.name or w.shade:
                    continue
                key = json.dumps([w.stacks[host.name], w.system_ui], sort_keys=True,
                                 default=str)
                if key not in seen:
                    seen.add(key)
                    nxt.append(device.snapshot())
        layer = nxt
    raise AssertionError(f"{app.name}: not reached from {host.name}'s start screen "
                         f"within {depth} actions")


@pytest.mark.parametrize("name", sorted(all_apps()))
def test_crawl_reaches_every_screen_and_each_is_consistent(name: str) -> None:
    app = all_apps()[name]
    reached: collections.Counter[str] = collections.Counter()
    for seed in SEEDS:
        reached.update(crawl(app, seed))
    screens = {s.split(" [")[0] for s in reached}
    missing = sorted(set(app.screens) - screens)
    assert not missing, f"{name}: the crawl never reached {missing}; reached {dict(reached)}"
