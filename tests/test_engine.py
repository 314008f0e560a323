"""The phone's engine: input dispatch, the frame, the element filter and app discovery."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from phoneworld_gym import app as app_module
from phoneworld_gym.app import App, register_app
from phoneworld_gym.contract import Action
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.life import Life
from phoneworld_gym.oracle import find
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.view import Column, Icon, Text, View
from phoneworld_gym.ui.widgets import text_field


def _note_screen(ctx: Ctx) -> View:
    """One field whose submit handler keeps the draft *as the field was built*: the value in
    the closure, not a fresh read of the screen state."""
    draft, on_text = ctx.field("note")

    def submit() -> None:
        ctx.store["submitted"].append(draft)

    return Column([Text("Notes", rid="title"),
                   text_field("note", draft, on_text=on_text, on_submit=submit,
                              rid="note_field", hint="Note")])


class _NoteApp(App):
    name = "enginetestnotes"
    label = "Engine Notes"
    package = "com.phoneworld.enginetestnotes"
    screens = {"main": _note_screen}

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return {"submitted": []}


@pytest.fixture
def note_device() -> Iterator[PhoneWorldDevice]:
    """A phone with only the test app installed (registered for this test alone)."""
    register_app(_NoteApp)
    try:
        d = PhoneWorldDevice(apps=[_NoteApp.name])
        d.reset(0)
        assert d.execute(Action("open_app", app_name=_NoteApp.label)) == ""
        yield d
    finally:
        app_module._APPS.pop(_NoteApp.name, None)


def _submitted(d: PhoneWorldDevice) -> list[str]:
    return list(d.world.stores[_NoteApp.name]["submitted"])


def test_input_text_submits_what_was_typed(note_device: PhoneWorldDevice) -> None:
    d = note_device
    i = find(d, rid="note_field")
    assert d.execute(Action("input_text", index=i, text="buy milk")) == ""
    assert _submitted(d) == ["buy milk"]
    # appending (clear_text=False) submits the whole new text
    assert d.execute(Action("input_text", index=i, text=" and eggs", clear_text=False)) == ""
    assert _submitted(d) == ["buy milk", "buy milk and eggs"]


def test_enter_key_of_the_soft_keyboard_submits_what_was_typed(
        note_device: PhoneWorldDevice) -> None:
    d = note_device
    assert d.execute(Action("click", index=find(d, rid="note_field"))) == ""

    def key(label: str) -> None:
        for v in d.screen.root.walk():
            shown = v.text if isinstance(v, Text) else v.name if isinstance(v, Icon) else None
            if shown == label and v.on_click is not None and v.clip is not None \
                    and v.box[1] > 1400:
                x1, y1, x2, y2 = v.clip
                assert d.execute(Action("click", x=(x1 + x2) // 2, y=(y1 + y2) // 2)) == ""
                return
        raise AssertionError(f"no key {label!r}")

    for k in ("h", "i", "turn_down_left"):  # the last is ENTER
        key(k)
    assert _submitted(d) == ["hi"]
    # keyboard_enter submits the field's current text too
    d.world.stores[_NoteApp.name]["submitted"].clear()
    assert d.execute(Action("keyboard_enter")) == ""
    assert _submitted(d) == ["hi"]


def _shopping_results(query: str) -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=["shopping"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Shopping"))
    assert d.execute(Action("input_text", index=find(d, rid="search_bar"), text=query)) == ""
    return d


def test_shopping_search_and_price_filter_submit_the_typed_text() -> None:
    """The apps' submit handlers read the draft they were built with (no re-reading)."""
    d = _shopping_results("coffee")
    top = d.world.stacks["shopping"][-1]
    assert top["screen"] == "search" and top["args"]["query"] == "coffee"
    assert d.execute(Action("click", index=find(d, rid="filter_price"))) == ""
    assert d.execute(Action("input_text", index=find(d, rid="min_price"), text="$5")) == ""
    assert d.execute(Action("input_text", index=find(d, rid="max_price"), text="20")) == ""
    state = d.world.stacks["shopping"][-1]["state"]
    assert (state.get("min_price"), state.get("max_price")) == (5.0, 20.0)
    assert "_dialog" not in state  # applied and closed
    # a new query typed into the results' own search field replaces the old one
    assert d.execute(Action("input_text", index=find(d, rid="search_bar"), text="tea",
                                     clear_text=True)) == ""
    assert d.world.stacks["shopping"][-1]["state"]["query"] == "tea"


def test_every_action_type_has_a_handler() -> None:
    from phoneworld_gym.contract import ACTION_TYPES
    from phoneworld_gym.input import InputDispatcher

    # plus AndroidWorld's "unknown", a no-op accepted from JSON and not in the action space
    assert set(InputDispatcher.HANDLERS) == set(ACTION_TYPES) | {"unknown"}


# -- the element filter --------------------------------------------------------------------
def test_the_element_filter_keeps_leaves_described_and_scrolling_nodes() -> None:
    from phoneworld_gym.ui.dump import is_indexed

    assert is_indexed(False, None, False)  # a leaf
    assert is_indexed(True, "Delete", False)  # a described container
    assert is_indexed(True, None, True)  # a scrolling container
    assert not is_indexed(True, "", False)  # a plain container


def test_views_elements_and_fully_visible_use_one_filter() -> None:
    """A tree with every case: a described row, hidden children (a leaf in the dump), a
    scrolling list cut by its edge. The element list, the views behind it and
    ``fully_visible`` agree index for index."""
    from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, parse_ui_elements
    from phoneworld_gym.oracle import fully_visible
    from phoneworld_gym.screen import Screen
    from phoneworld_gym.ui.dump import indexed_views
    from phoneworld_gym.ui.view import Row, Scroll, compute_clips

    rows = [Row([Text(f"item {i}")], height=300, desc=f"row {i}" if i % 2 else "",
                on_click=lambda: None) for i in range(10)]
    root = Column([
        Row([Text("hidden", in_dump=False), Icon("bell", in_dump=False)], height=100,
            rid="looks_like_a_leaf"),
        Scroll(rows, rid="list"),
    ])
    root.layout(0, 0, SCREEN_WIDTH, SCREEN_HEIGHT)
    compute_clips(root, (0, 0, SCREEN_WIDTH, SCREEN_HEIGHT))
    screen = Screen(root, "com.example")
    views, elements = indexed_views(root), parse_ui_elements(screen.xml)
    assert views == screen.element_views and len(views) == len(elements)
    for v, e in zip(views, elements):
        b = e.bbox_pixels
        assert v.clip == (b.x_min, b.y_min, b.x_max, b.y_max)
    assert any(e.resource_id == "com.example:id/looks_like_a_leaf" for e in elements)
    assert any(e.is_scrollable for e in elements)

    class _Xml:  # the one verb fully_visible reads
        def a11y_xml(self) -> str:
            return screen.xml

    lst = next(v for v in views if v.scrollable)
    assert lst.clip is not None
    in_list = {id(v) for v in lst.walk()} - {id(lst)}
    cut = 0
    for i, v in enumerate(views):
        assert v.clip is not None
        whole = id(v) not in in_list or lst.clip[1] < v.clip[1] and v.clip[3] < lst.clip[3]
        assert fully_visible(_Xml(), i) == whole, (i, v.clip)
        cut += not whole
    assert cut  # the list's last row on screen is cut by its bottom edge


# -- app discovery -------------------------------------------------------------------------
def test_discovery_fails_loudly_on_a_folder_that_is_not_an_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import phoneworld_gym.apps as pkg

    (tmp_path / "__pycache__").mkdir()  # stray caches are fine
    (tmp_path / "emptyapp").mkdir()
    (tmp_path / "emptyapp" / "__init__.py").write_text("")
    monkeypatch.setattr(pkg, "__path__", [str(tmp_path)])
    monkeypatch.setattr(app_module, "_discovered", True)  # put back after the test
    monkeypatch.delitem(sys.modules, f"{pkg.__name__}.emptyapp", raising=False)
    app_module._discover()  # a package folder and __pycache__: fine
    (tmp_path / "halfdone").mkdir()  # an app folder someone forgot __init__.py in
    with pytest.raises(ImportError, match="halfdone"):
        app_module._discover()
    sys.modules.pop(f"{pkg.__name__}.emptyapp", None)
