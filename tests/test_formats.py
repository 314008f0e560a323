"""Action formats of published phone agents (``phoneworld_gym.formats``): round trips for every
action type and screen size, the coordinate conventions and edge rounding of each model's own
code, direction semantics, malformed replies, a replayed oracle episode per format, and
``OpenAIAgent(format=...)`` against a scripted chat and a local OpenAI-compatible stub server."""

from __future__ import annotations

import json
import math
import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import gymnasium
import numpy as np
import pytest

import phoneworld_gym  # noqa: F401  (registers the envs)
from phoneworld_gym import formats
from phoneworld_gym.contract import ACTION_TYPES, Action, swipe_finger
from phoneworld_gym.formats import FORMATS, Screen, smart_resize
from phoneworld_gym.formats.base import ActionFormat, CoordinateFormat

SIZES = [(540, 1200), (1080, 2400), (720, 1600)]
NAMES = ["androidworld", "qwen", "qwen3vl", "uitars", "uitars1", "guiowl"]


def _points(w: int, h: int, n: int = 12) -> list[tuple[int, int]]:
    rng = np.random.default_rng(w * 7 + h)
    pts = [(0, 0), (w - 1, h - 1), (0, h - 1), (w - 1, 0), (w // 2, h // 2)]
    pts += [(int(rng.integers(w)), int(rng.integers(h))) for _ in range(n)]
    return pts


def _actions(w: int, h: int) -> list[Action]:
    """One or more actions of every action type on a w x h screen."""
    out: list[Action] = []
    for x, y in _points(w, h):
        out += [Action("click", x=x, y=y), Action("long_press", x=x, y=y),
                Action("double_tap", x=x, y=y)]
    mx, my = w // 2, h // 2
    out += [Action("swipe", x=mx, y=my, direction=d) for d in ("up", "down", "left", "right")]
    out += [Action("swipe", x=w // 5, y=h - 300, direction="up"),
            Action("swipe", direction="left")]
    out += [Action("scroll", direction=d) for d in ("up", "down", "left", "right")]
    out += [Action("scroll", x=w // 3, y=h // 3, direction="down")]
    out += [Action("input_text", text="hello"), Action("input_text", text="it's a \"q\" \\ n\nx"),
            Action("input_text", text="中文 😀", x=w // 2, y=h // 4, clear_text=False),
            Action("navigate_home"), Action("navigate_back"), Action("keyboard_enter"),
            Action("open_app", app_name="Contacts"), Action("open_app", app_name="Bob's app"),
            Action("wait"), Action("status", goal_status="complete"),
            Action("status", goal_status="infeasible"), Action("answer", text="42"),
            Action("answer", text="Line one\nit's 'quoted'")]
    return out


def _coords(name: str, **params: Any) -> CoordinateFormat:
    f = formats.get(name, **params)
    assert isinstance(f, CoordinateFormat)
    return f


def _same(got: Action, want: Action, tol: int) -> bool:
    if (got.x is None) != (want.x is None):
        return False
    if got.x is not None:
        assert want.x is not None and want.y is not None and got.y is not None
        if abs(got.x - want.x) > tol or abs(got.y - want.y) > tol:
            return False
        got = Action.from_json({**got.to_json(), "x": want.x, "y": want.y})
    # an unset clear_text and False mean the same (typing appends)
    a, b = got.to_json(), want.to_json()
    for d in (a, b):
        if d.get("clear_text") is False:
            del d["clear_text"]
    return a == b


# -- the registry --------------------------------------------------------------------------------
def test_registry_names_every_format_and_rejects_unknown_names() -> None:
    for name in NAMES + ["qwen2.5vl"]:
        assert name in FORMATS
        f = formats.get(name)
        assert isinstance(f, ActionFormat)
        assert f.system_prompt(Screen()).strip()
    assert formats.get("  Qwen ").name == "qwen"
    with pytest.raises(ValueError, match="unknown action format 'nope'.*androidworld.*uitars"):
        formats.get("nope")
    with pytest.raises(ValueError, match="does not take"):
        formats.get("uitars", colour="red")
    with pytest.raises(ValueError, match="version"):
        formats.get("uitars", version="2.0")
    f = formats.get("qwen")
    assert formats.get(f) is f


def test_formats_import_no_model_library() -> None:
    import subprocess
    import sys

    code = ("import sys; import phoneworld_gym.formats; "
            "bad = [m for m in ('torch', 'transformers', 'stable_baselines3') "
            "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


# -- the resize rule -----------------------------------------------------------------------------
def test_smart_resize_follows_the_published_rule() -> None:
    # within the bounds: each side rounded to the nearest multiple of the factor
    assert smart_resize(2400, 1080) == (2408, 1092)
    assert smart_resize(1200, 540) == (1204, 532)
    assert smart_resize(1600, 720) == (1596, 728)
    assert smart_resize(2400, 1080, factor=32) == (2400, 1088)
    # over max_pixels: scaled by sqrt and rounded down
    h, w = smart_resize(2400, 1080, max_pixels=1280 * 28 * 28)
    assert (h, w) == (1484, 672) and h * w <= 1280 * 28 * 28
    beta = math.sqrt(2400 * 1080 / (1280 * 28 * 28))
    assert h == math.floor(2400 / beta / 28) * 28 and w == math.floor(1080 / beta / 28) * 28
    # under min_pixels: scaled up and rounded up
    h, w = smart_resize(20, 10, min_pixels=56 * 56)
    assert h % 28 == 0 and w % 28 == 0 and h * w >= 56 * 56 and (h, w) == (84, 56)
    assert smart_resize(5, 5) == (56, 56)  # Qwen's one-factor minimum, then min_pixels
    with pytest.raises(ValueError, match="aspect ratio"):
        smart_resize(10_000, 20)
    with pytest.raises(ValueError, match="positive"):
        smart_resize(0, 20)


def test_each_format_states_its_coordinate_space() -> None:
    s = Screen(1080, 2400)
    assert _coords("qwen").space.extent(s) == (1092, 2408)
    assert _coords("guiowl").space.extent(s) == (1092, 2408)
    assert _coords("uitars").space.extent(s) == (1092, 2408)
    assert _coords("qwen3vl").space.extent(s) == (999, 999)
    assert _coords("uitars1").space.extent(s) == (1000, 1000)
    # the resized spaces follow the screenshot the model saw, not the device
    small = Screen(1080, 2400, 540, 1200)
    assert _coords("qwen").space.extent(small) == (532, 1204)
    assert _coords("qwen3vl", coordinates="resized").space.extent(s) == (1088, 2400)
    assert "1092x2408" in formats.get("qwen").system_prompt(s)
    assert "999x999" in formats.get("qwen3vl").system_prompt(s)


# -- round trips ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_action_type_round_trips(name: str, size: tuple[int, int]) -> None:
    f = formats.get(name)
    screen = Screen(*size)
    tol = f.tolerance(screen)
    assert tol <= 3
    seen = set()
    for action in _actions(*size):
        parts = f.steps(action, screen)
        assert parts, action
        for part in parts:
            text = f.format(part, screen)
            got = f.parse(text, screen)
            assert _same(got, part, tol), (name, action, part, text, got)
            seen.add(action.action_type)
    assert seen == set(ACTION_TYPES)


@pytest.mark.parametrize("name", ["qwen", "uitars", "guiowl"])
def test_resized_pixel_formats_round_trip_every_pixel(name: str) -> None:
    """On an axis where the resized image is at least as large as the screen (1080 -> 1092,
    2400 -> 2408, 720 -> 728) no pixel moves; where it is a little smaller (540 -> 532,
    1200 -> 1204 is larger, 1600 -> 1596 smaller), a pixel moves by at most one."""
    f = _coords(name)
    for w, h in SIZES:
        screen = Screen(w, h)
        ew, eh = f.space.extent(screen)
        for i in range(max(w, h)):
            x, y = i % w, h - 1 - i % h
            got = f.parse(f.format(Action("click", x=x, y=y), screen), screen)
            assert got.x is not None and got.y is not None
            assert abs(got.x - x) <= (0 if ew >= w else 1), (w, h, x)
            assert abs(got.y - y) <= (0 if eh >= h else 1), (w, h, y)
    assert f.tolerance(Screen(1080, 2400)) == 0


def test_relative_grids_move_a_point_by_at_most_their_step() -> None:
    for name, scale in (("qwen3vl", 999), ("uitars1", 1000)):
        f = formats.get(name)
        screen = Screen(1080, 2400)
        worst = 0
        for y in range(0, 2400, 7):
            got = f.parse(f.format(Action("click", x=y % 1080, y=y), screen), screen)
            assert got.x is not None and got.y is not None
            worst = max(worst, abs(got.y - y), abs(got.x - y % 1080))
        assert worst <= math.ceil(2400 / scale / 2)
        assert f.tolerance(screen) == math.ceil(2400 / scale)


def test_a_smaller_screenshot_maps_to_device_pixels() -> None:
    """The model saw a 540x1200 screenshot of the 1080x2400 device: its pixels are scaled by
    the resized image, and the action is in device pixels."""
    f = formats.get("qwen")
    screen = Screen(1080, 2400, 540, 1200)  # resized to 532x1204
    got = f.parse('<tool_call>{"name": "mobile_use", "arguments": {"action": "click", '
                  '"coordinate": [266, 602]}}</tool_call>', screen)
    assert (got.x, got.y) == (int(266 / 532 * 1080), int(602 / 1204 * 2400)) == (540, 1200)


# -- edges round the way each format's own code rounds ------------------------------------------
def _qwen_call(x: float, y: float, action: str = "click") -> str:
    return json.dumps({"name": "mobile_use",
                       "arguments": {"action": action, "coordinate": [x, y]}})


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_edges_round_as_the_published_parsers(size: tuple[int, int]) -> None:
    w, h = size
    screen = Screen(w, h)
    rh, rw = smart_resize(h, w)
    qwen, qwen3 = formats.get("qwen"), formats.get("qwen3vl")
    uitars, uitars1 = formats.get("uitars"), formats.get("uitars1")

    def clamp(v: int, n: int) -> int:
        return min(max(v, 0), n - 1)

    for mx, my in [(0, 0), (rw - 1, rh - 1), (rw, rh), (rw // 3, rh // 3)]:
        want = (clamp(int(mx / rw * w), w), clamp(int(my / rh * h), h))  # truncation
        got = qwen.parse(f"<tool_call>{_qwen_call(mx, my)}</tool_call>", screen)
        assert (got.x, got.y) == want
        got = uitars.parse(f"Action: click(start_box='({mx},{my})')", screen)
        assert (got.x, got.y) == want
    for m in (0, 1, 500, 998, 999):  # Qwen3-VL cookbook: round(x / 999 * W)
        got = qwen3.parse(f"<tool_call>{_qwen_call(m, m)}</tool_call>", screen)
        assert (got.x, got.y) == (clamp(round(m / 999 * w), w), clamp(round(m / 999 * h), h))
    for m in (0, 1, 999, 1000):  # UI-TARS-1.0 README: round(W * x / 1000)
        got = uitars1.parse(f"Action: click(start_box='({m},{m})')", screen)
        assert (got.x, got.y) == (clamp(round(w * m / 1000), w), clamp(round(h * m / 1000), h))
    # the model's far edge scales to W, one past the last pixel: clamped onto the screen
    assert qwen3.parse(f"<tool_call>{_qwen_call(999, 999)}</tool_call>", screen).x == w - 1
    # a point the device writes at its edges comes back at the edges
    for f in (qwen, qwen3, uitars, uitars1, formats.get("guiowl")):
        for x, y in ((0, 0), (w - 1, h - 1)):
            got = f.parse(f.format(Action("click", x=x, y=y), screen), screen)
            assert (got.x, got.y) == (x, y), f


def test_truncation_and_rounding_differ_where_they_should() -> None:
    """UI-TARS-1.0 rounds, UI-TARS-1.5 truncates: 999/1000 of 1080 is 1078.92."""
    screen = Screen(1080, 2400)
    assert formats.get("uitars1").parse("Action: click(start_box='(999,0)')", screen).x == 1079
    assert formats.get("uitars", version="1.0").parse(
        "Action: click(start_box='(999,0)')", screen).x == 1079
    # UI-TARS-1.5 on a 1092-wide resized image: 1091 -> int(1079.01) = 1079, 545 -> int(539.0)
    # and 546 -> int(540.0); a value whose scaled fraction is over .5 shows the truncation
    rw = 1092
    m = next(v for v in range(rw) if (v / rw * 1080) % 1 > 0.5)
    got = formats.get("uitars").parse(f"Action: click(start_box='({m},0)')", screen).x
    assert got == int(m / rw * 1080) == round(m / rw * 1080) - 1


def test_guiowl_uses_its_own_token_bounds() -> None:
    f = _coords("guiowl")
    big = Screen(1440, 3200, 2880, 6400)  # 18.4M pixels: over GUI-Owl's 12800 tokens
    w, h = f.space.extent(big)
    assert (h, w) == smart_resize(6400, 2880, min_pixels=784, max_pixels=12800 * 784)
    assert w * h <= 12800 * 784
    assert _coords("qwen").space.extent(big) == smart_resize(6400, 2880)[::-1]


# -- directions ----------------------------------------------------------------------------------
def test_qwen_swipes_are_finger_paths_and_scrolls_become_their_swipes() -> None:
    f = formats.get("qwen")
    screen = Screen(1092, 2408)  # resized == device: model pixels are device pixels
    # the contract's swipe is AndroidWorld's: a finger moving left is a swipe "right"
    for (x2, y2), d in (((500, 300), "up"), ((500, 1500), "down"), ((100, 1000), "right"),
                        ((900, 1000), "left"), ((900, 1300), "left")):
        call = json.dumps({"name": "mobile_use", "arguments": {
            "action": "swipe", "coordinate": [500, 1000], "coordinate2": [x2, y2]}})
        got = f.parse(f"<tool_call>{call}</tool_call>", screen)
        assert (got.action_type, got.x, got.y, got.direction) == ("swipe", 500, 1000, d)
    # scroll down (see what is below) is a finger moving up
    for scroll, finger in (("down", "up"), ("up", "down"), ("left", "right"),
                           ("right", "left")):
        (step,) = f.steps(Action("scroll", x=400, y=900, direction=scroll), screen)
        assert (step.action_type, step.direction, step.x, step.y) == (
            "swipe", swipe_finger(finger), 400, 900)
        args = json.loads(f.format(step, screen).split("\n")[1])["arguments"]
        (x0, y0), (x1, y1) = args["coordinate"], args["coordinate2"]
        moved = {"up": y1 < y0, "down": y1 > y0, "left": x1 < x0, "right": x1 > x0}
        assert moved[finger]


def test_uitars_scroll_is_content_direction_and_drag_is_a_finger_path() -> None:
    f = formats.get("uitars")
    screen = Screen(1092, 2408)
    got = f.parse("Thought: more below\nAction: scroll(start_box='(500,1000)', "
                  "direction='down')", screen)
    assert (got.action_type, got.direction, got.x, got.y) == ("scroll", "down", 500, 1000)
    got = f.parse("Action: drag(start_box='(800,1000)', end_box='(100,1000)')", screen)
    assert (got.action_type, got.direction, got.x) == ("swipe", "right", 800)  # finger left
    got = f.parse("Action: scroll(start_box='(500,2000)', end_box='(500,400)')", screen)
    assert (got.action_type, got.direction) == ("swipe", "up")  # UI-TARS-1.0's finger path
    got = f.parse("Action: swipe(start_point='<point>500 2000</point>', "
                  "end_point='<point>500 400</point>')", screen)
    assert (got.action_type, got.direction, got.y) == ("swipe", "up", 2000)


def test_scroll_and_its_swipe_do_the_same_on_phoneworld() -> None:
    """On a scrolling screen, a format's swipe for ``scroll down`` moves the content exactly as
    the scroll does (finger up = content down), and a swipe down moves it back."""
    env = gymnasium.make("PhoneWorld/All-v0")
    f = formats.get("qwen")
    obs, _ = env.reset(seed=0, options={"task": "ContactsEmailOf"})
    obs, *_ = env.step(Action("open_app", app_name="Contacts"))
    start = obs["a11y"]
    scrolled, *_ = env.step(Action("scroll", direction="down"))
    assert scrolled["a11y"] != start
    env.reset(seed=0, options={"task": "ContactsEmailOf"})
    obs, *_ = env.step(Action("open_app", app_name="Contacts"))
    screen = Screen.from_obs(obs)
    (step,) = f.steps(Action("scroll", direction="down"), screen)
    assert step.direction == "up"
    obs, _, _, _, info = env.step(f.parse(f.format(step, screen), screen))
    assert not info["action_error"] and obs["a11y"] == scrolled["a11y"]
    (back,) = f.steps(Action("scroll", direction="up"), screen)
    obs, _, _, _, info = env.step(f.parse(f.format(back, screen), screen))
    assert not info["action_error"] and obs["a11y"] == start
    env.close()


# -- what a format cannot say in one step ----------------------------------------------------
def test_steps_split_what_a_format_says_in_several_calls() -> None:
    screen = Screen()
    for name in ("qwen", "uitars", "guiowl"):
        f = formats.get(name)
        a = Action("input_text", x=100, y=200, text="hi", clear_text=True)
        assert f.steps(a, screen) == [Action("click", x=100, y=200),
                                      Action("input_text", text="hi")]
        with pytest.raises(ValueError, match="2 steps"):
            f.format(a, screen)
    two = formats.get("qwen").steps(Action("double_tap", x=5, y=6), screen)
    assert two == [Action("click", x=5, y=6)] * 2
    assert formats.get("uitars").steps(Action("double_tap", x=5, y=6), screen) == [
        Action("double_tap", x=5, y=6)]
    # an index needs the element list; with it, the element's centre
    with pytest.raises(ValueError, match="no element with index 3"):
        formats.get("qwen").steps(Action("click", index=3), screen)
    # a swipe with no room left on the screen cannot be written
    with pytest.raises(ValueError, match="no room"):
        formats.get("qwen").format(Action("swipe", x=0, y=100, direction="right"), screen)


def test_clearing_a_filled_field_is_refused_where_typing_appends() -> None:
    env = gymnasium.make("PhoneWorld/All-v0")
    obs, _ = env.reset(seed=0, options={"task": "ContactsEmailOf"})
    obs, *_ = env.step(Action("open_app", app_name="Contacts"))
    screen = Screen.from_obs(obs)
    field = next(i for i, e in enumerate(screen.elements) if e.is_editable)
    f = formats.get("qwen")
    cx, cy = screen.centre(field)
    assert f.steps(Action("input_text", index=field, text="a", clear_text=True), screen) == [
        Action("click", x=cx, y=cy), Action("input_text", text="a")]
    filled = Screen(screen.width, screen.height, elements=tuple(
        e if i != field else type(e)(**{**e.__dict__, "text": "old"})
        for i, e in enumerate(screen.elements)))
    with pytest.raises(ValueError, match="cannot clear"):
        f.steps(Action("input_text", index=field, text="a", clear_text=True), filled)
    env.close()


# -- malformed replies ---------------------------------------------------------------------------
BAD: dict[str, list[Any]] = {
    "androidworld": [
        "", "click the button", None, 42, "{}", '{"action_type": "fly"}',
        '{"action_type": "click"}', '{"action_type": "click", "x": 5000, "y": 1}',
        '{"action_type": "click", "index": 1, "x": 1, "y": 2}', '{"action_type": "open_app"}',
        '{"action_type": "input_text", "text": "\\ud800"}', "[" * 5000 + "]" * 5000,
        '{"action_type": "click", "x": "a", "y": 2}', '{"action_type": "status"}',
    ],
    "qwen": [
        "", "I will click the button.", None, "<tool_call></tool_call>", "<tool_call>{}",
        '<tool_call>{"name": "computer_use", "arguments": {"action": "click"}}</tool_call>',
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "fly"}}</tool_call>',
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "click"}}</tool_call>',
        '<tool_call>{"name": "mobile_use", "arguments": [1, 2]}</tool_call>',
        '<tool_call>{"name": "mobile_use", "arguments": "{not json"}</tool_call>',
        '<tool_call>{"name": "mobile_use"}</tool_call>',
        _qwen_call(-1, 5), _qwen_call(5000, 5), _qwen_call(1e400, 5),
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, "2"]}}',
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2, 3]}}',
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": "1,2"}}',
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [true, 2]}}',
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [NaN, 2]}}',
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1' + "0" * 500
        + ', 2]}}',
        '{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [5, 5]}}',
        '{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [5, 5], '
        '"coordinate2": [5, 5]}}',
        '{"name": "mobile_use", "arguments": {"action": "type"}}',
        '{"name": "mobile_use", "arguments": {"action": "type", "text": 5}}',
        '{"name": "mobile_use", "arguments": {"action": "open", "text": "  "}}',
        '{"name": "mobile_use", "arguments": {"action": "key", "text": "volume_up"}}',
        '{"name": "mobile_use", "arguments": {"action": "system_button", "button": "Menu"}}',
        '{"name": "mobile_use", "arguments": {"action": "terminate"}}',
        '{"name": "mobile_use", "arguments": {"action": "terminate", "status": "done"}}',
        '{"name": "mobile_use", "arguments": {"action": "answer", "text": "\\ud800"}}',
        "<tool_call>" * 3000, "<tool_call>" + "[" * 5000,
        '<tool_call>{"name": "mobile_use", "arguments": ' + "{" * 3000,
    ],
    "uitars": [
        "", "Thought: I am done", None, "Action:", "Action: click()",
        "Action: click(start_box='(1,2,3)')", "Action: click(start_box='(a,b)')",
        "Action: click(start_box='(-5,10)')", "Action: click(start_box='(99999,10)')",
        "Action: click(start_box='(" + "9" * 5000 + ",1)')", "Action: fly()",
        "Action: scroll(direction='diagonal')", "Action: scroll()", "Action: type(content='')",
        "Action: type()", "Action: open_app(app_name='')", "Action: import os",
        "Action: __import__('os').system('ls')", "Action: drag(start_box='(1,1)')",
        "Action: drag(start_box='(5,5)', end_box='(5,5)')", "Action: hotkey(key='ctrl c')",
        "Action: " + "(" * 5000, "Action: click(start_box=" + "'" * 3000 + ")",
        "Action: type(content='\ud800')",
    ],
}
BAD["qwen3vl"] = BAD["guiowl"] = BAD["qwen"]
BAD["uitars1"] = BAD["uitars"]


@pytest.mark.parametrize("name", NAMES)
def test_malformed_replies_raise_a_clear_value_error(name: str) -> None:
    f = formats.get(name)
    screen = Screen(1080, 2400)
    for reply in BAD[name]:
        with pytest.raises(ValueError) as err:
            f.parse(reply, screen)
        assert str(err.value).strip(), reply


@pytest.mark.parametrize("name", NAMES)
def test_text_around_the_action_is_fine(name: str) -> None:
    f = formats.get(name)
    screen = Screen()
    text = f.format(Action("click", x=540, y=1200), screen)
    wrapped = f"Let me look. The button is there {{not json}}.\n{text}\nThat should do it."
    if name.startswith("uitars"):
        wrapped = f"Thought: Action: is a word here. {{x}}\n{text}"
    got = f.parse(wrapped, screen)
    assert got.action_type == "click" and got.x is not None and got.y is not None
    assert abs(got.x - 540) <= 3 and abs(got.y - 1200) <= 3


@pytest.mark.parametrize("name", NAMES)
def test_fuzzed_replies_only_ever_raise_value_error(name: str) -> None:
    """Cut, spliced and mutated replies: an Action or a ValueError, nothing else."""
    f = formats.get(name)
    screen = Screen(720, 1600)
    good = [f.format(p, screen) for a in _actions(720, 1600)[::3] for p in f.steps(a, screen)]
    rng = random.Random(1234)
    junk = ["{", "}", "[", "]", '"', "'", "\\", ",", ":", "(", ")", "\n", "<tool_call>",
            "</tool_call>", "Action: ", "null", "-1", "1e309", "\ud800", "😀", "NaN"]
    for _ in range(600):
        t = rng.choice(good)
        op = rng.randrange(4)
        i, j = sorted((rng.randrange(len(t) + 1), rng.randrange(len(t) + 1)))
        if op == 0:
            t = t[:i] + t[j:]
        elif op == 1:
            t = t[:i] + rng.choice(junk) + t[i:]
        elif op == 2:
            t = t[:i] + rng.choice(good) + t[j:]
        else:
            t = t[:i]
        try:
            assert isinstance(f.parse(t, screen), Action)
        except ValueError:
            pass


# -- an oracle episode through each format -------------------------------------------------------
E2E_TASKS = ["CalendarWhereIs", "MessagesSendText", "RecipesShopExceptHave", "PhoneBlockCaller"]


def _transcript(task: str, seed: int, f: ActionFormat) -> tuple[list[str], set[str]]:
    """The oracle's episode as the replies a model speaking ``f`` would write."""
    env = gymnasium.make("PhoneWorld/All-v0")
    obs, _ = env.reset(seed=seed, options={"task": task})
    texts: list[str] = []
    kinds: set[str] = set()
    for action in env.unwrapped.oracle():  # type: ignore[attr-defined]
        screen = Screen.from_obs(obs)
        kinds.add(action.action_type)
        texts += [f.format(p, screen) for p in f.steps(action, screen)]
        obs, _, term, trunc, info = env.step(action)
        if term or trunc:
            break
    assert info["success"], (task, "the oracle itself failed")
    env.close()
    return texts, kinds


@pytest.mark.parametrize("name", NAMES)
def test_oracle_episodes_replayed_through_each_format_succeed(name: str) -> None:
    f = formats.get(name)
    kinds: set[str] = set()
    for task in E2E_TASKS:
        texts, k = _transcript(task, 0, f)
        kinds |= k
        env = gymnasium.make("PhoneWorld/All-v0")
        obs, _ = env.reset(seed=0, options={"task": task})
        for text in texts:
            obs, _, term, trunc, info = env.step(f.parse(text, Screen.from_obs(obs)))
            assert not info["action_error"], (task, text, info["action_error"])
            if term or trunc:
                break
        assert term and info["success"], (name, task)
        env.close()
    assert {"click", "input_text", "scroll", "swipe", "long_press", "open_app",
            "navigate_back", "answer", "status"} <= kinds


# -- OpenAIAgent(format=...) -------------------------------------------------------------------
class ScriptedChat:
    """A 'model' that replies with a fixed script and keeps the messages it was sent."""

    def __init__(self, replies: list[str]):
        self.replies = list(replies)
        self.seen: list[list[dict[str, Any]]] = []

    def complete(self, messages: list[dict[str, Any]]) -> str:
        self.seen.append(messages)
        return self.replies.pop(0) if self.replies else "I am not sure."


def _play(agent: Any, task: str, seed: int, limit: int = 40) -> dict[str, Any]:
    env = gymnasium.make("PhoneWorld/All-v0")
    obs, info = env.reset(seed=seed, options={"task": task})
    agent.reset(env.unwrapped.goal)  # type: ignore[attr-defined]
    for _ in range(limit):
        obs, _, term, trunc, info = env.step(agent.act(obs))
        agent.observe(info)
        if term or trunc:
            break
    env.close()
    return dict(info)


@pytest.mark.parametrize("name", ["qwen", "uitars", "guiowl", "qwen3vl"])
def test_openai_agent_speaks_a_format_through_an_injected_chat(name: str) -> None:
    from phoneworld_gym.baselines.openai_agent import OpenAIAgent

    texts, _ = _transcript("MessagesSendText", 5, formats.get(name))
    chat = ScriptedChat(["Thought: hmm, nothing to do here"] + texts)
    agent = OpenAIAgent(format=name, chat=chat)
    assert agent.screenshots
    info = _play(agent, "MessagesSendText", 5)
    assert info["success"]
    assert agent.stats == {"steps": len(texts) + 1, "unparsable": 1}
    system, user = chat.seen[-1]
    assert system["content"] == formats.get(name).system_prompt(Screen(1080, 2400))
    assert user["content"][0]["image_url"]["url"].startswith("data:image/png;base64,")
    history = chat.seen[2][1]["content"][1]["text"]
    assert "Step 1: (a reply with no valid action)" in history
    assert f"Step 2: {texts[0]}" in history
    assert "Step 1:" not in user["content"][1]["text"]  # past max_history


def test_openai_agent_default_format_is_unchanged() -> None:
    from phoneworld_gym.baselines.openai_agent import OpenAIAgent
    from phoneworld_gym.baselines.prompt import SYSTEM

    texts, _ = _transcript("MessagesSendText", 5, formats.get("androidworld"))
    chat = ScriptedChat(texts)
    agent = OpenAIAgent(chat=chat)
    assert not agent.screenshots and agent.native
    assert _play(agent, "MessagesSendText", 5)["success"]
    assert chat.seen[0][0]["content"] == SYSTEM
    with pytest.raises(ValueError, match="needs base_url and model"):
        OpenAIAgent()
    with pytest.raises(ValueError, match="needs screenshots=True"):
        OpenAIAgent(format="qwen", chat=chat, screenshots=False)
    with pytest.raises(ValueError, match="unknown action format"):
        OpenAIAgent(format="gpt", chat=chat)


@pytest.fixture
def stub_server() -> Iterator[tuple[str, list[str], list[dict[str, Any]]]]:
    """A local OpenAI-compatible server on loopback that answers chat completions from a
    script (set the list it yields), recording the requests."""
    script: list[str] = []
    requests: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            requests.append(body)
            if not self.path.endswith("/chat/completions"):
                self.send_error(404)
                return
            text = script.pop(0) if script else "no idea"
            out = json.dumps({"id": "x", "object": "chat.completion", "created": 0,
                              "model": body.get("model", "stub"),
                              "choices": [{"index": 0, "finish_reason": "stop",
                                           "message": {"role": "assistant", "content": text}}],
                              "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                        "total_tokens": 2}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", script, requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("name", ["qwen", "uitars"])
def test_a_scripted_model_solves_a_task_through_a_local_stub_server(
        name: str, stub_server: tuple[str, list[str], list[dict[str, Any]]]) -> None:
    pytest.importorskip("openai")
    from phoneworld_gym.baselines.openai_agent import OpenAIAgent

    url, script, requests = stub_server
    texts, _ = _transcript("CalendarWhereIs", 2, formats.get(name))
    script.extend(texts)
    agent = OpenAIAgent(url, "stub-model", format=name)
    assert _play(agent, "CalendarWhereIs", 2)["success"]
    assert len(requests) == len(texts) and requests[0]["model"] == "stub-model"
    assert requests[0]["max_tokens"] == 512
    assert requests[0]["messages"][0]["content"].startswith(
        formats.get(name).system_prompt(Screen())[:40])
