"""Hypothesis campaigns over the phone, with their counts printed at the end of the run.

- **Typed text in every app's fields**: for every app with a text field that an oracle types
  into, the phone is put where the oracle types and hypothesis types arbitrary text there
  instead. Nothing may raise; the text either round-trips (the field's node in the tree
  shows it, with what XML 1.0 cannot carry as U+FFFD) or is refused with a reason and
  nothing changed.
- **A stateful machine** over taps, typing, scrolls, back, home and app switches that checks
  the phone's invariants after every step: the tree parses, every node's bounds lie on the
  screen, focus names a field the tree shows focused (and only then is a node focused), and
  the world serialises and comes back from its JSON with the same hash.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import gymnasium
import pytest
from conftest import CAMPAIGN_COUNTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import phoneworld_gym
from phoneworld_gym import Action
from phoneworld_gym.oracle import tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.world import World

SHOT = (108, 240)
BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_NOT_XML10 = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

#: what the campaigns tried, printed at the end of the run (conftest)
COUNTS = CAMPAIGN_COUNTS

# texts a person, a model or an attacker might type: any code point (lone surrogates are no
# text: str.encode refuses them, and so does the action space), long runs, markup
typed = st.one_of(
    st.text(st.characters(exclude_categories=["Cs"]), max_size=60),
    st.text(st.sampled_from("aZ 9.\n\t<&>\"'語😀\u202e\u0301\ufeff\x00\x1b"), max_size=200),
    st.sampled_from(["]]><!--", "&#0;&lt;", "%s%n{0}", "' OR 1=1 --", "$(rm -rf /)", "x" * 800]),
)


def xml_clean(s: str) -> str:
    return _NOT_XML10.sub("\ufffd", s)


def one_line(s: str) -> str:
    """``s`` as a one-line field may keep it: each run of white space (line breaks and the
    control characters Python counts as space) one space, none at the ends."""
    return " ".join(s.split())


def is_subsequence(part: str, whole: str) -> bool:
    rest = iter(whole)
    return all(ch in rest for ch in part)


def typing_points() -> dict[str, tuple[dict[str, Any], str]]:
    """Per app, the phone's snapshot where the first oracle that types in that app does so,
    and the resource id of the field it types into (the first task per app, seed 0)."""
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y", screenshot_size=SHOT)
    points: dict[str, tuple[dict[str, Any], str]] = {}
    covered: set[tuple[str, ...]] = set()
    try:
        for task in phoneworld_gym.list_tasks():
            if tuple(task.apps) in covered:
                continue
            env.reset(seed=0, options={"task": task.id})
            device = env.unwrapped.device
            for action in env.unwrapped.oracle():
                if action.action_type in ("status", "answer"):
                    break
                if action.action_type == "input_text" and action.index is not None:
                    app = device.probe.foreground_app()
                    rid = device.ui_elements()[action.index].resource_id or ""
                    if app not in points and rid:
                        points[app] = (device.snapshot(), rid)
                        covered.add(tuple(task.apps))
                    break
                assert device.execute(action) == "", (task.id, action)
    finally:
        env.close()
    return points


_DEVICE = PhoneWorldDevice(screenshot_size=SHOT)
_POINTS: dict[str, tuple[dict[str, Any], str]] = {}


def points() -> dict[str, tuple[dict[str, Any], str]]:
    if not _POINTS:
        _POINTS.update(typing_points())
    return _POINTS


def field_index(device: PhoneWorldDevice, rid: str) -> int | None:
    return next((i for i, e in enumerate(device.ui_elements()) if e.resource_id == rid), None)


def test_the_campaign_reaches_fields_in_many_apps() -> None:
    """The typing campaign is only as wide as the apps it reaches."""
    reached = points()
    COUNTS["apps with a typed field"] = len(reached)
    assert len(reached) >= 15, sorted(reached)
    assert "com.phoneworld.messaging" in reached  # the app where a hostile string once raised


@pytest.mark.parametrize("replace", [False, True])
def test_any_text_typed_into_any_apps_field_round_trips_or_is_refused(replace: bool) -> None:
    reached = sorted(points().items())

    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(which=st.integers(0, len(reached) - 1), text=typed)
    def campaign(which: int, text: str) -> None:
        app, (snap, rid) = reached[which]
        device = _DEVICE
        device.restore(snap)
        idx = field_index(device, rid)
        assert idx is not None, (app, rid)
        before = device.world.state_hash()
        held = next((n.get("text") or "" for n in ET.fromstring(device.a11y_xml()).iter("node")
                     if n.get("resource-id") == rid), "")
        err = device.execute(Action("input_text", index=idx, text=text, clear_text=replace))
        COUNTS["texts typed"] += 1
        assert isinstance(err, str)
        root = ET.fromstring(device.a11y_xml())
        if err:
            COUNTS["texts refused"] += 1
            assert device.world.state_hash() == before, (app, text, err)
            return
        nodes = [n for n in root.iter("node") if n.get("resource-id") == rid]
        if not nodes:  # typing submitted a one-line field (a search that opens results)
            COUNTS["texts that left the screen"] += 1
            return
        if nodes[0].get("password") == "true":
            COUNTS["texts into a password field"] += 1
            return
        shown = nodes[0].get("text") or ""
        raw = text if replace else held + text
        full = xml_clean(raw)
        if shown != full:
            # a field's input filter keeps what it takes, in order, as Android's InputFilters
            # do: a length cap (an hour field holds two digits, any field 5,000 characters),
            # a one-line field's white space collapsed; nothing added, nothing reordered
            assert is_subsequence(shown, full) or \
                is_subsequence(one_line(shown), xml_clean(one_line(raw))), (
                    app, rid, held, text, shown)
            COUNTS["texts filtered by the field"] += 1
            return
        COUNTS["texts round-tripped"] += 1
        assert World.from_json(device.world.to_json()).state_hash() == \
            device.world.state_hash()

    campaign()


# -- the stateful machine ------------------------------------------------------------------

APPS = sorted({a.label for a in _DEVICE.apps.values() if a.kind != "mini-app"})


class PhoneMachine(RuleBasedStateMachine):
    """Random taps, typing, scrolls, back, home and app switches; invariants every step."""

    def __init__(self) -> None:
        super().__init__()
        self.device = _DEVICE

    @initialize(seed=st.integers(0, 10_000))
    def start(self, seed: int) -> None:
        self.device.reset(seed)
        COUNTS["machine runs"] += 1

    def _act(self, action: Action) -> None:
        before = self.device.world.state_hash()
        err = self.device.execute(action)
        COUNTS["machine steps"] += 1
        assert isinstance(err, str)
        if err:  # a meaningless action changes nothing
            assert self.device.world.state_hash() == before, (action, err)

    @rule(app=st.sampled_from(APPS))
    def open_app(self, app: str) -> None:
        self._act(Action("open_app", app_name=app))

    @rule(pick=st.integers(0, 10_000))
    def tap(self, pick: int) -> None:
        n = len(self.device.ui_elements())
        self._act(Action("click", index=pick % n))

    @rule(pick=st.integers(0, 10_000), text=typed)
    def type_text(self, pick: int, text: str) -> None:
        editable = [i for i, e in enumerate(self.device.ui_elements()) if e.is_editable]
        if editable:
            self._act(Action("input_text", index=editable[pick % len(editable)], text=text))
        else:
            self._act(Action("input_text", text=text))

    @rule(direction=st.sampled_from(["up", "down", "left", "right"]))
    def scroll(self, direction: str) -> None:
        self._act(Action("scroll", direction=direction))

    @rule()
    def back(self) -> None:
        self._act(Action("navigate_back"))

    @rule()
    def home(self) -> None:
        self._act(Action("navigate_home"))

    @invariant()
    def the_phone_holds(self) -> None:
        device = self.device
        root = ET.fromstring(device.a11y_xml())
        top = root.find("node")
        assert root.tag == "hierarchy" and top is not None
        m = BOUNDS.fullmatch(top.get("bounds", ""))
        assert m is not None
        width, height = int(m.group(3)), int(m.group(4))
        focused = []
        for node in root.iter("node"):
            b = BOUNDS.fullmatch(node.get("bounds", ""))
            assert b is not None, node.attrib
            x1, y1, x2, y2 = map(int, b.groups())
            assert 0 <= x1 <= x2 <= width and 0 <= y1 <= y2 <= height, node.attrib
            if node.get("focused") == "true":
                focused.append(node)
        # a focused node only while a field has focus, and never more than one, always a text
        # field. (Not checked: that a field with focus is always shown. A system window over
        # it was one case, fixed (test below); seed 592 after nine taps keeps focus on a
        # "label_1" field the tree does not show. Open: issue 25's note.)
        if device.world.focus is None:
            assert not focused, [n.attrib for n in focused]
        else:
            assert len(focused) <= 1, (device.world.focus, [n.attrib for n in focused])
            assert all(n.get("class") == "android.widget.EditText" for n in focused), \
                [n.attrib for n in focused]
        clone = World.from_json(device.world.to_json())
        assert clone.state_hash() == device.world.state_hash()


TestPhoneMachine = PhoneMachine.TestCase
TestPhoneMachine.settings = settings(
    max_examples=25, stateful_step_count=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_a_system_window_takes_the_keyboard_away():
    """Found by the machine (seed 0, four taps): a note's title field kept focus under the
    share sheet, which the dump shows alone, so typing would have gone into a hidden field.
    A system window over the app puts the keyboard away."""
    device = _DEVICE
    device.reset(0)
    device.execute(Action("open_app", app_name="Notes"))
    device.execute(tap(device, desc="Books to read", contains=True))
    device.execute(tap(device, rid="editable_title"))
    assert device.world.focus == "title"
    device.execute(tap(device, desc="Send"))
    assert device.world.system_ui is not None and device.world.system_ui["kind"] == "share"
    assert device.world.focus is None
    assert 'focused="true"' not in device.a11y_xml()
    assert device.execute(Action("input_text", text="x"))  # nothing to type into: refused
