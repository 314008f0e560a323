"""The shared contract: actions, the action space, the Unicode text space, element parsing
from ``uiautomator dump`` XML, bounds, and the answer matchers."""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector.utils import batch_space, iterate

from phoneworld_gym.contract import (
    ACTION_TYPES,
    DIRECTIONS,
    MAX_TEXT,
    TARGETED,
    Action,
    ActionBatch,
    PhoneActionSpace,
    UnicodeText,
    action_space,
    parse_bounds,
    parse_ui_elements,
)
from phoneworld_gym.matchers import (
    DateMatch,
    ListMatch,
    NumberMatch,
    PhoneMatch,
    StringMatch,
    TimeMatch,
)

# -- Action validation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"action_type": "fly"}, ["unknown action_type", "fly"]),
        ({"action_type": "click"}, ["click", "needs a target"]),
        ({"action_type": "long_press"}, ["long_press", "needs a target"]),
        ({"action_type": "double_tap"}, ["double_tap", "needs a target"]),
        ({"action_type": "click", "index": 2, "x": 10, "y": 10}, ["either index or x, y"]),
        ({"action_type": "click", "x": 10}, ["x and y must be given together"]),
        ({"action_type": "click", "x": 1080, "y": 5}, ["x=1080", "off the screen"]),
        ({"action_type": "click", "x": -1, "y": 5}, ["x=-1", "off the screen"]),
        ({"action_type": "click", "x": 5, "y": 2400}, ["y=2400", "off the screen"]),
        ({"action_type": "click", "x": 5.5, "y": 2}, ["x must be an int"]),
        ({"action_type": "click", "index": 512}, ["index 512 outside"]),
        ({"action_type": "click", "index": True}, ["index must be an int"]),
        ({"action_type": "input_text"}, ["input_text needs text"]),
        ({"action_type": "input_text", "text": 5}, ["input_text", "text must be a str", "5"]),
        ({"action_type": "answer"}, ["answer needs text"]),
        ({"action_type": "input_text", "text": "a" * (MAX_TEXT + 1)}, ["longer than"]),
        ({"action_type": "scroll"}, ["scroll needs direction"]),
        ({"action_type": "scroll", "direction": "diagonal"}, ["direction", "diagonal"]),
        ({"action_type": "swipe", "direction": "UP"}, ["swipe", "direction", "UP"]),
        ({"action_type": "status"}, ["goal_status"]),
        ({"action_type": "status", "goal_status": "maybe"}, ["goal_status", "maybe"]),
        ({"action_type": "open_app"}, ["open_app needs app_name"]),
        ({"action_type": "open_app", "app_name": "   "}, ["open_app needs app_name"]),
        ({"action_type": "navigate_home", "index": 1}, ["takes no target"]),
        ({"action_type": "wait", "x": 1, "y": 1}, ["takes no target"]),
    ],
)
def test_invalid_action_raises_naming_the_problem(kwargs, words):
    with pytest.raises(ValueError) as ei:
        Action(**kwargs)
    msg = str(ei.value)
    for word in words:
        assert word in msg, f"{kwargs}: {msg!r} does not mention {word!r}"
    # the JSON route gives the same verdict, except where AndroidWorld's JSONAction converts
    # the value (a float x goes through int(), a text through str()): see test_json_converts
    if kwargs in ({"action_type": "click", "x": 5.5, "y": 2},
                  {"action_type": "input_text", "text": 5}):
        return
    with pytest.raises(ValueError):
        Action.from_json(kwargs)


def test_json_converts_values_as_androidworld_does():
    """AndroidWorld's JSONAction runs index through int(), keeps text as str(text), checks
    keycode's prefix, and its actuation truncates float x/y; ``unknown`` is an action type."""
    assert Action.from_json({"action_type": "click", "x": 5.9, "y": 2.0}) == \
        Action("click", x=5, y=2)
    assert Action.from_json({"action_type": "click", "index": "3"}) == Action("click", index=3)
    assert Action.from_json({"action_type": "input_text", "text": 5}).text == "5"
    assert Action.from_json({"action_type": "unknown"}).action_type == "unknown"
    assert Action.from_json({"action_type": "wait", "keycode": "KEYCODE_A"}) == Action("wait")
    with pytest.raises(ValueError, match="keycode"):
        Action.from_json({"action_type": "wait", "keycode": "A"})
    with pytest.raises(ValueError, match="x must be an int"):
        Action.from_json({"action_type": "click", "x": float("inf"), "y": 2})


@pytest.mark.parametrize(
    "data, words",
    [
        ({"action_type": "click", "index": 1, "colour": "red"}, ["unknown action fields",
                                                                  "colour"]),
        ({"index": 1}, ["no action_type"]),
        ("{not json", ["not valid JSON"]),
        ("[1, 2]", ["must be a mapping"]),
    ],
)
def test_from_json_rejects_unknown_fields_and_bad_json(data, words):
    with pytest.raises(ValueError) as ei:
        Action.from_json(data)
    for word in words:
        assert word in str(ei.value)


def test_from_any_rejects_non_actions():
    for bad in (42, None, 3.5, ["click"]):
        with pytest.raises(ValueError):
            Action.from_any(bad)


VALID_ACTIONS = [
    Action("click", index=0),
    Action("click", x=0, y=0),
    Action("click", x=1079, y=2399),
    Action("double_tap", index=3),
    Action("double_tap", x=540, y=1200),
    Action("long_press", index=511),
    Action("long_press", x=10, y=20),
    Action("input_text", text="héllo 中文 😀 \u202e<&>\"", clear_text=True),
    Action("input_text", index=4, text="", clear_text=False),
    Action("input_text", x=100, y=200, text="x"),
    *[Action("scroll", direction=d) for d in DIRECTIONS],
    Action("scroll", index=2, direction="down"),
    Action("swipe", x=500, y=500, direction="left"),
    *[Action("swipe", direction=d) for d in DIRECTIONS],
    Action("navigate_home"),
    Action("navigate_back"),
    Action("keyboard_enter"),
    Action("open_app", app_name="Contacts"),
    Action("wait"),
    Action("status", goal_status="complete"),
    Action("status", goal_status="infeasible"),
    Action("answer", text="42"),
    Action("answer", text=""),
]


def test_valid_actions_cover_every_action_type():
    assert {a.action_type for a in VALID_ACTIONS} == set(ACTION_TYPES)


@pytest.mark.parametrize("action", VALID_ACTIONS, ids=lambda a: a.to_json_str())
def test_json_round_trip(action):
    data = action.to_json()
    assert data["action_type"] == action.action_type
    assert all(v is not None for v in data.values())
    assert Action.from_json(data) == action
    assert Action.from_json(action.to_json_str()) == action
    assert Action.from_any(action.to_json_str()) == action
    assert Action.from_any(action) is action


def test_numpy_ints_serialise_as_python_ints():
    a = Action("click", x=np.int64(5), y=np.int64(7))
    data = a.to_json()
    assert type(data["x"]) is int and type(data["y"]) is int
    assert Action.from_json(a.to_json_str()) == Action("click", x=5, y=7)


def test_float_integral_coordinates_are_accepted_from_json():
    assert Action.from_json({"action_type": "click", "x": 5.0, "y": 6.0}) == Action(
        "click", x=5, y=6)


@pytest.mark.filterwarnings("error:.*Casting input x:UserWarning")
def test_space_samples_decode():
    """Every draw from the numeric space is a valid action (a tap drawn with target 0 is
    addressed by index)."""
    space = action_space()
    space.seed(1234)
    decoded = set()
    for _ in range(200):
        sample = space.sample()
        assert space.contains(sample)
        t = ACTION_TYPES[int(sample["action_type"])]
        action = Action.from_space(sample)
        assert action.action_type == t
        target = int(sample["target"])
        if t in TARGETED:
            if target == 2:
                assert (action.x, action.y) == (int(sample["x"]), int(sample["y"]))
            else:
                assert action.index == int(sample["index"]) and action.x is None
        assert Action.from_any(sample) == action
        assert Action.from_json(action.to_json_str()) == action
        decoded.add(t)
    assert decoded == set(ACTION_TYPES), decoded


def test_from_space_decodes_fields():
    base = {"action_type": ACTION_TYPES.index("scroll"), "target": 2, "index": 7,
            "x": np.int64(10), "y": np.int64(20), "text": "hi", "direction": 1,
            "app_name": "Contacts", "goal_status": 1, "clear_text": 1}
    assert Action.from_space(base) == Action("scroll", x=10, y=20, direction="down")
    base.update(action_type=ACTION_TYPES.index("input_text"), target=1)
    assert Action.from_space(base) == Action("input_text", index=7, text="hi", clear_text=True)
    base.update(action_type=ACTION_TYPES.index("status"), target=0)
    assert Action.from_space(base) == Action("status", goal_status="infeasible")
    base.update(action_type=ACTION_TYPES.index("open_app"))
    assert Action.from_space(base) == Action("open_app", app_name="Contacts")
    with pytest.raises(ValueError, match="action_type"):
        Action.from_space({**base, "action_type": 99})


# -- the action space's contains agrees with step ----------------------------------------------

#: malformed actions in every form step is given, with a word its ValueError names
MALFORMED = [
    ({"action_type": "fly"}, "unknown action_type"),
    ({"action_type": "click"}, "needs a target"),
    ({"action_type": "click", "x": 5000, "y": 10}, "off the screen"),
    ({"action_type": "scroll", "direction": "diagonal"}, "diagonal"),
    ({"action_type": "click", "index": 1, "colour": "red"}, "colour"),
    ({"index": 1}, "no action_type"),
    ("not json", "not valid JSON"),
    ('{"action_type": "status", "goal_status": "maybe"}', "maybe"),
    ("[1, 2]", "must be a mapping"),
    (42, "an action must be"),
    (None, "an action must be"),
    (["click"], "an action must be"),
    ({"action_type": 0, "target": 0}, "lacks the fields"),
]


def numeric(action_type: str, **fields) -> dict:
    """The numeric form of an action, every key of the space present."""
    sample = {"action_type": ACTION_TYPES.index(action_type), "target": 0, "index": 0,
              "x": np.int64(0), "y": np.int64(0), "text": "", "direction": 0, "app_name": "",
              "goal_status": 0, "clear_text": 0}
    sample.update(fields)
    return sample


def test_contains_accepts_every_form_step_accepts():
    space = action_space()
    assert isinstance(space, PhoneActionSpace) and isinstance(space, spaces.Dict)
    for action in VALID_ACTIONS:
        for form in (action, action.to_json(), action.to_json_str()):
            assert space.contains(form), form
            assert Action.from_any(form) == action
    for converted in ({"action_type": "click", "index": "3"},  # AndroidWorld's int()
                      {"action_type": "input_text", "text": 7},  # its str()
                      {"action_type": "unknown"}, {"action_type": "wait", "keycode": "KEYCODE_A"},
                      numeric("open_app", app_name="Contacts"),
                      numeric("click", target=1, index=np.int64(4))):
        assert space.contains(converted), converted
        Action.from_any(converted)
    space.seed(3)
    assert all(space.contains(space.sample()) for _ in range(50))
    # the numeric form alone is still the plain Dict's check
    assert spaces.Dict.contains(space, numeric("wait"))
    assert not spaces.Dict.contains(space, {"action_type": "wait"})


@pytest.mark.parametrize("bad, words", MALFORMED, ids=lambda x: str(x)[:40])
def test_contains_refuses_what_step_refuses(bad, words):
    assert not action_space().contains(bad)
    with pytest.raises(ValueError, match=words):
        Action.from_any(bad)


def test_a_batched_action_space_takes_one_action_per_sub_env_in_any_form():
    single = action_space()
    batch = batch_space(single, 3)
    assert isinstance(batch, ActionBatch) and batch.n == 3 and batch.single == single
    mixed = [Action("wait"), '{"action_type": "navigate_home"}',
             numeric("open_app", app_name="Contacts")]
    assert batch.contains(mixed) and batch.contains(tuple(mixed))
    assert batch.contains(np.array(mixed, dtype=object))
    assert [Action.from_any(a) for a in iterate(batch, mixed)] == [
        Action("wait"), Action("navigate_home"), Action("open_app", app_name="Contacts")]
    batch.seed(0)
    sample = batch.sample()  # the batched numeric form: a dict of arrays
    assert batch.contains(sample)
    rows = list(iterate(batch, sample))
    assert len(rows) == 3 and all(single.contains(r) for r in rows)
    assert [int(r["action_type"]) for r in rows] == list(sample["action_type"])
    assert not batch.contains(mixed[:2]) and not batch.contains([*mixed[:2], "not json"])
    assert not batch.contains('{"action_type": "wait"}') and not batch.contains(Action("wait"))
    with pytest.raises(ValueError, match="one per sub-env: 3, got 2"):
        iterate(batch, mixed[:2])
    with pytest.raises(ValueError, match="a sequence of 3 actions"):
        iterate(batch, json.dumps({"action_type": "wait"}))


# -- UnicodeText ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "", "plain", "😀🎉👨‍👩‍👧", "中文字符", "עברית \u202e مرحبا", "\x00\x1b\x7f\t\n\r",
    "<>&\"'", "\U0010ffff",
])
def test_unicode_text_admits_any_string(text):
    space = UnicodeText(64)
    assert space.contains(text)
    assert text in space


def test_unicode_text_rejects_non_str_and_too_long():
    space = UnicodeText(8, min_length=1)
    for bad in (None, 5, b"bytes", ["a"], np.array(["a"])):
        assert not space.contains(bad)
    assert not space.contains("x" * 9)
    assert not space.contains("")
    assert space.contains("x" * 8)


def test_unicode_text_samples_are_members_and_seeded():
    a, b = UnicodeText(50, seed=3), UnicodeText(50, seed=3)
    xs = [a.sample() for _ in range(20)]
    assert xs == [b.sample() for _ in range(20)]
    assert all(a.contains(x) for x in xs)
    assert len(set(xs)) > 1
    assert UnicodeText(50) == UnicodeText(50) and UnicodeText(50) != UnicodeText(51)


# -- parse_ui_elements ------------------------------------------------------------------------

_ATTRS = ('checkable="false" checked="false" clickable="{clickable}" enabled="true" '
          'focusable="{clickable}" focused="{focused}" scrollable="{scrollable}" '
          'long-clickable="{long}" password="{password}" selected="false"')


def node(cls, bounds, *, text="", desc="", rid="", clickable=False, focused=False,
         scrollable=False, long=False, password=False, hint=None, children=None, index=0,
         extra=""):
    attrs = _ATTRS.format(clickable=str(clickable).lower(), focused=str(focused).lower(),
                          scrollable=str(scrollable).lower(), long=str(long).lower(),
                          password=str(password).lower())
    head = (f'<node index="{index}" text="{text}" resource-id="{rid}" class="{cls}" '
            f'package="com.example.mail" content-desc="{desc}" {attrs} {extra}'
            f'bounds="{bounds}"' + (f' hint="{hint}"' if hint else ""))
    if children is None:
        return head + " />"
    return head + ">\n  " + "\n  ".join(children) + "\n</node>"


DUMP = ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
        '<hierarchy rotation="0">\n'
        + node("android.widget.FrameLayout", "[0,0][1080,2400]", children=[
            node("android.widget.LinearLayout", "[0,0][1080,2400]", children=[
                node("android.widget.TextView", "[42,100][500,200]", text="Inbox &amp; more",
                     rid="com.example.mail:id/title"),
                node("android.widget.LinearLayout", "[900,100][1040,200]", desc="Compose",
                     clickable=True, index=1, children=[
                         node("android.widget.ImageView", "[930,120][1010,180]"),
                     ]),
                node("androidx.recyclerview.widget.RecyclerView", "[0,300][1080,1800]",
                     scrollable=True, rid="com.example.mail:id/list", index=2, children=[
                         node("android.widget.LinearLayout", "[0,300][1080,500]",
                              clickable=True, long=True, children=[
                                  node("android.widget.TextView", "[42,320][1000,400]",
                                       text="Alice"),
                                  node("android.widget.TextView", "[42,400][1000,480]",
                                       text="Lunch tomorrow?", index=1),
                              ]),
                     ]),
                node("android.widget.EditText", "[0,1800][1080,1950]", hint="Search mail",
                     clickable=True, focused=True, rid="com.example.mail:id/search",
                     index=3),
                node("android.widget.EditText", "[0,1950][1080,2100]", text="••••",
                     password=True, clickable=True, index=4),
                node("android.widget.CheckBox", "[0,2100][540,2250]", text="Remember",
                     clickable=True, index=5,
                     extra='checkable="true" checked="true" selected="true" ')
                .replace('checkable="false" checked="false" ', "", 1)
                .replace('selected="false" ', "", 1),
                node("android.widget.LinearLayout", "[540,2100][1080,2250]", children=[]),
            ]),
        ])
        + "\n</hierarchy>")


def test_realistic_dump_filter_and_order():
    els = parse_ui_elements(DUMP)
    got = [(e.class_name.rsplit(".", 1)[-1], e.text or e.content_description or "")
           for e in els]
    assert got == [
        ("TextView", "Inbox & more"),
        ("LinearLayout", "Compose"),
        ("ImageView", ""),
        ("RecyclerView", ""),
        ("TextView", "Alice"),
        ("TextView", "Lunch tomorrow?"),
        ("EditText", ""),
        ("EditText", "••••"),
        ("CheckBox", "Remember"),
        ("LinearLayout", ""),  # a container without children is a leaf
    ]


def test_realistic_dump_fields():
    els = parse_ui_elements(DUMP)
    title, compose, icon, lst, alice, _, search, password, check, _ = els
    assert title.bbox_pixels.x_min == 42 and title.bbox_pixels.x_max == 500
    assert title.bbox_pixels.y_min == 100 and title.bbox_pixels.y_max == 200
    assert title.bbox.x_min == pytest.approx(42 / 1080)
    assert title.bbox.x_max == pytest.approx(500 / 1080)
    assert title.bbox.y_min == pytest.approx(100 / 2400)
    assert title.bbox.y_max == pytest.approx(200 / 2400)
    assert title.resource_id == "com.example.mail:id/title"
    assert title.package_name == "com.example.mail"
    assert title.is_clickable is False and title.is_editable is False
    assert title.content_description is None and title.hint_text is None
    assert compose.content_description == "Compose" and compose.is_clickable is True
    assert compose.bbox_pixels.center == (970.0, 150.0)
    assert compose.bbox_pixels.width == 140 and compose.bbox_pixels.height == 100
    assert icon.text is None and icon.is_clickable is False
    assert lst.is_scrollable is True and lst.is_clickable is False
    assert alice.is_scrollable is False
    assert search.is_editable is True and search.is_focused is True
    assert search.hint_text == "Search mail" and search.describe() == "Search mail"
    assert search.is_clickable and search.is_focusable
    assert password.is_editable is True and password.text == "••••"
    assert check.is_checkable and check.is_checked and check.is_selected
    assert check.is_editable is False
    assert all(e.is_enabled for e in els)
    # normalised boxes stay inside the unit square
    for e in els:
        assert 0 <= e.bbox.x_min <= e.bbox.x_max <= 1
        assert 0 <= e.bbox.y_min <= e.bbox.y_max <= 1


def test_screen_size_scales_normalised_bbox():
    els = parse_ui_elements(DUMP, screen_size=(540, 1200))
    assert els[0].bbox.x_max == pytest.approx(500 / 540)
    assert els[0].bbox_pixels.x_max == 500


def test_autocomplete_is_editable():
    xml = ("<hierarchy>" + node("android.widget.AutoCompleteTextView", "[0,0][10,10]")
           + "</hierarchy>")
    (e,) = parse_ui_elements(xml)
    assert e.is_editable is True


@pytest.mark.parametrize("xml", [
    "", "not xml", "<hierarchy><node bounds='[0,0][1,1]'></hierarchy>",
    "<hierarchy>" + node("A", "[0,0][1,1]") + "</hierarchy><extra/>",
    '<hierarchy><node text="a & b" bounds="[0,0][1,1]" /></hierarchy>',
])
def test_malformed_xml_raises_value_error(xml):
    with pytest.raises(ValueError, match="malformed"):
        parse_ui_elements(xml)


@pytest.mark.parametrize("bounds", ["", "[0,0][10]", "0,0,10,10", "[a,0][10,10]",
                                    "[0,0][10,10]x", "[0.5,0][10,10]"])
def test_malformed_bounds_raise_value_error(bounds):
    with pytest.raises(ValueError, match="malformed bounds"):
        parse_bounds(bounds)
    xml = f'<hierarchy><node class="A" bounds="{bounds}" /></hierarchy>'
    with pytest.raises(ValueError, match="malformed bounds"):
        parse_ui_elements(xml)


def test_parse_bounds():
    assert parse_bounds("[0,63][1080,2337]") == (0, 63, 1080, 2337)
    assert parse_bounds(" [-5,0][3,4] ") == (-5, 0, 3, 4)


# -- matchers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("answer, expected, ok", [
    ("Acme Corp", "acme corp", True),
    ("  ACME, corp. ", "Acme Corp", True),
    ("Café Zoë", "cafe zoe", True),
    ("Acme", "Acme Corp", False),
    ("Acme Corporation", "Acme Corp", False),
    ("", "", True),
    ("something", "", False),
])
def test_string_match(answer, expected, ok):
    assert StringMatch().match(answer, expected) is ok


def test_string_match_contains():
    m = StringMatch(contains=True)
    assert m.match("She works at Acme Corp.", "Acme Corp")
    assert not m.match("She works at Acme Corporation", "Acme Corp")
    # every StringMatch takes a sentence made of filler and the goal's words; not other words
    assert StringMatch().match("She works at Acme Corp.", "Acme Corp")
    assert not StringMatch().match("She maybe works at Acme Corp.", "Acme Corp")


@pytest.mark.parametrize("answer, expected, ok", [
    ("$1,299.99", 1299.99, True),
    ("It costs $1,299.99.", "1299.99", True),
    ("1299.99", 1299.99, True),
    ("3", 3, True),
    ("-2.5", -2.5, True),
    ("$1,299.98", 1299.99, False),
    ("1,300", 1299.99, False),
    ("between 3 and 4", 3, False),
    ("three", 3, True),  # a number word is the number
    ("three or four", 3, False),
    ("", 0, False),
])
def test_number_match(answer, expected, ok):
    assert NumberMatch().match(answer, expected) is ok


def test_number_match_tolerance():
    assert NumberMatch(tol=0.01).match("$1,300.00", 1299.995)
    assert not NumberMatch(tol=0.001).match("$1,300.00", 1299.99)


@pytest.mark.parametrize("answer", [
    "2026-03-14", "3/14/2026", "03/14/2026", "March 14, 2026", "Mar 14, 2026",
    "Mar. 14, 2026", "14 March 2026", "14 Mar 2026", "March 14 2026",
    "Saturday, March 14, 2026", "  march   14,  2026 ",
])
def test_date_match_formats(answer):
    assert DateMatch().match(answer, "2026-03-14")
    assert DateMatch().match(answer, dt.date(2026, 3, 14))


@pytest.mark.parametrize("answer", [
    "2026-03-15", "3/15/2026", "March 14, 2025", "14/3/2026", "tomorrow", "", "March 2026",
])
def test_date_match_rejects(answer):
    assert not DateMatch().match(answer, "2026-03-14")


@pytest.mark.parametrize("answer, ok", [
    ("2:05 PM", True), ("2:05pm", True), ("02:05 p.m.".replace(".", ""), True),
    ("14:05", True), (" 14:05 ", True),
    ("2:05 AM", False), ("2:06 PM", False), ("14:50", False), ("2 PM", False), ("", False),
])
def test_time_match(answer, ok):
    assert TimeMatch().match(answer, "14:05") is ok
    assert TimeMatch().match(answer, dt.time(14, 5)) is ok


def test_time_match_hour_only():
    assert TimeMatch().match("2 PM", "14:00")
    assert not TimeMatch().match("2 AM", "14:00")


@pytest.mark.parametrize("answer, ok", [
    ("Alice, Bob and Carol", True),
    ("carol; alice\nbob", True),
    ("Bob, Alice, Carol", True),
    ("Alice, Bob", False),
    ("Alice, Bob, Carol, Dave", False),
    ("Alice, Bob, Dave", False),
    ("Alice, Alice, Bob", False),
    ("", False),
])
def test_list_match_unordered(answer, ok):
    assert ListMatch().match(answer, ["Alice", "Bob", "Carol"]) is ok


def test_list_match_ordered_and_typed_items():
    m = ListMatch(ordered=True)
    assert m.match("Alice, Bob, Carol", ["Alice", "Bob", "Carol"])
    assert not m.match("Bob, Alice, Carol", ["Alice", "Bob", "Carol"])
    nums = ListMatch(item=NumberMatch())
    assert nums.match("$3.50; 12", [12, 3.5])
    assert not nums.match("$3.50; 13", [12, 3.5])
    assert ListMatch().match("", [])


@pytest.mark.parametrize("answer, expected, ok", [
    ("+1 (555) 555-0123", "555-555-0123", True),
    ("5555550123", "+1 555 555 0123", True),
    ("555.555.0123", "(555) 555-0123", True),
    ("555-555-0124", "555-555-0123", False),
    ("+44 555 555 0123", "555-555-0123", False),
    ("", "555-555-0123", False),
    ("no number", "555-555-0123", False),
    ("0123", "0123", True),
    ("0124", "0123", False),
])
def test_phone_match(answer, expected, ok):
    assert PhoneMatch().match(answer, expected) is ok
