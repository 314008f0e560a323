"""The shared transient surfaces and gestures (phoneworld_gym.ui.sheets) through real actions:
a swipe that starts on a row dismisses it, one elsewhere scrolls; a bottom sheet is the dialog
window a11y dumps; a popup menu's rows act; suggestions search."""

from __future__ import annotations

import pytest

from phoneworld_gym.app import Page, get_app
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui import sheets
from phoneworld_gym.ui import widgets as w


@pytest.fixture
def device(monkeypatch):
    """Contacts with a test strip on its list: a swipeable row, a sheet and a menu."""
    contacts = type(get_app("contacts"))
    screens = dict(contacts.screens)
    inner = screens["main"]

    def main(ctx):
        out = inner(ctx)
        body = out.body if isinstance(out, Page) else out
        log = ctx.state.setdefault("log", [])

        def note(what):
            return lambda: log.append(what)

        row = w.list_item("Swipe me", rid="swipe_row", theme=ctx.theme)
        body.children.insert(0, sheets.swipe_to_dismiss(row, note("dismissed"), ("left",)))
        body.children.insert(1, w.button("More", ctx.show_dialog("sheet"), rid="open_sheet"))
        body.children.insert(2, w.button("Menu", ctx.show_dialog("menu"), rid="open_menu"))
        dialog = None
        if ctx.dialog == "sheet":
            dialog = sheets.bottom_sheet("Options", [("share", "Share", note("share")),
                                                     ("trash", "Delete", note("delete"))],
                                         theme=ctx.theme)
        elif ctx.dialog == "menu":
            dialog = sheets.popup_menu([("Copy number", note("copy")),
                                        ("Block", note("block"))], header="+1 555 0100",
                                       theme=ctx.theme)
        return Page(body, dialog=dialog)

    screens["main"] = main
    monkeypatch.setattr(contacts, "screens", screens)
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    return d


def _log(d: PhoneWorldDevice) -> list[str]:
    return d.world.stacks["contacts"][-1]["state"].get("log", [])


def _centre(d: PhoneWorldDevice, text: str) -> tuple[int, int]:
    i = find(d, text=text)
    assert i is not None, text
    b = d.ui_elements()[i].bbox_pixels
    assert b is not None
    return int(b.x_min + b.x_max) // 2, int(b.y_min + b.y_max) // 2


def test_swipe_on_a_row_dismisses_it_and_only_in_its_directions(device):
    x, y = _centre(device, "Swipe me")
    # AndroidWorld's swipe "left" moves the finger right: not a dismiss direction for this row
    device.execute(Action("swipe", direction="left", x=x, y=y))
    assert _log(device) == []
    assert device.execute(Action("swipe", direction="right", x=x, y=y)) == ""  # finger left
    assert _log(device) == ["dismissed"]


def test_bottom_sheet_is_the_dumped_window_and_its_rows_act(device):
    assert device.execute(tap(device, rid="open_sheet")) == ""
    els = device.ui_elements()
    assert [e.text for e in els if e.resource_id.endswith("sheet_item_title")] == ["Share",
                                                                                   "Delete"]
    assert find(device, rid="search_bar") is None  # the list below is not in the dump
    assert device.execute(tap(device, text="Delete")) == ""
    assert _log(device) == ["delete"]
    device.execute(Action("navigate_back"))  # back closes the sheet
    assert find(device, rid="sheet_title") is None


def test_popup_menu_rows_and_header(device):
    device.execute(tap(device, rid="open_menu"))
    els = device.ui_elements()
    assert [e.text for e in els if e.resource_id.endswith("/title")] == ["Copy number", "Block"]
    assert any(e.text == "+1 555 0100" for e in els)
    assert device.execute(tap(device, text="Block")) == ""
    assert _log(device) == ["block"]
    with pytest.raises(ValueError, match="anchor"):
        sheets.popup_menu([], anchor="left")
