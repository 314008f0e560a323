"""Helpers for oracles: find elements on the live screen and build the actions a person would.

They read only the accessibility XML and emit contract actions, so an oracle written with them
runs on any backend. Functions that may need several steps are generators: use
``yield from scroll_to(...)``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

from phoneworld_gym.contract import Action, UIElement, parse_bounds, parse_ui_elements
from phoneworld_gym.device import Device
from phoneworld_gym.ui.dump import indexed_nodes


class OracleError(RuntimeError):
    """The oracle could not find what it needed on screen (a bug in the task or the app)."""


def elements(device: Device) -> list[UIElement]:
    return parse_ui_elements(device.a11y_xml())


def _matches(e: UIElement, text: str | None, desc: str | None, rid: str | None,
             contains: bool, cls: str | None) -> bool:
    def eq(have: str | None, want: str) -> bool:
        if have is None:
            return False
        return want.lower() in have.lower() if contains else have == want

    if text is not None and not eq(e.text, text):
        return False
    if desc is not None and not eq(e.content_description, desc):
        return False
    if rid is not None and not (e.resource_id or "").endswith(f"/{rid}"):
        return False
    if cls is not None and not (e.class_name or "").endswith(cls):
        return False
    return True


def find(device: Device, *, text: str | None = None, desc: str | None = None,
         rid: str | None = None, cls: str | None = None, contains: bool = False,
         nth: int = 0) -> int | None:
    """Index of the ``nth`` element matching every given criterion, or None."""
    hits = [i for i, e in enumerate(elements(device))
            if _matches(e, text, desc, rid, contains, cls)]
    return hits[nth] if len(hits) > nth else None


def _describe(**kw: object) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in kw.items() if v is not None)


def tap(device: Device, *, text: str | None = None, desc: str | None = None,
        rid: str | None = None, cls: str | None = None, contains: bool = False,
        nth: int = 0) -> Action:
    """A click on the matching element; ``OracleError`` if it is not on screen."""
    i = find(device, text=text, desc=desc, rid=rid, cls=cls, contains=contains, nth=nth)
    if i is None:
        raise OracleError(f"no element with {_describe(text=text, desc=desc, rid=rid, cls=cls)} "
                          "on screen")
    return Action("click", index=i)


def type_into(device: Device, value: str, *, clear: bool = True, text: str | None = None,
              desc: str | None = None, rid: str | None = None, cls: str | None = None,
              nth: int = 0) -> Action:
    """``input_text`` into the matching field (tap, clear, type, enter)."""
    i = find(device, text=text, desc=desc, rid=rid, cls=cls, nth=nth)
    if i is None:
        raise OracleError(f"no field with {_describe(text=text, desc=desc, rid=rid)} on screen")
    return Action("input_text", index=i, text=value, clear_text=clear)


def scroll_to(device: Device, *, text: str | None = None, desc: str | None = None,
              rid: str | None = None, cls: str | None = None, contains: bool = False,
              direction: str = "down", max_scrolls: int = 30) -> Iterator[Action]:
    """Scroll until a matching element is wholly inside its scrolling container (yields the
    scrolls; yields nothing when it is already in view)."""
    for _ in range(max_scrolls):
        i = find(device, text=text, desc=desc, rid=rid, cls=cls, contains=contains)
        if i is not None and fully_visible(device, i):
            return
        before = device.a11y_xml()
        yield Action("scroll", direction=direction)
        if device.a11y_xml() == before:
            break
    raise OracleError(f"scrolled {direction} but found no "
                      f"{_describe(text=text, desc=desc, rid=rid, cls=cls)} in full view")


def fully_visible(device: Device, index: int) -> bool:
    """True when element ``index`` is not cut by the edge of a scrolling ancestor.

    A clipped node's bounds end exactly at its container's edge, so an element touching the
    edge of its scrolling ancestor counts as cut."""
    node, scroller = indexed_nodes(ET.fromstring(device.a11y_xml()))[index]
    if scroller is None:
        return True
    _, top, _, bottom = parse_bounds(scroller.get("bounds", "[0,0][0,0]"))
    _, y1, _, y2 = parse_bounds(node.get("bounds", "[0,0][0,0]"))
    return top < y1 and y2 < bottom


def text_of(device: Device, *, rid: str, nth: int = 0) -> str | None:
    """The text of the ``nth`` element with this resource id (reading the screen)."""
    hits = [e for e in elements(device) if (e.resource_id or "").endswith(f"/{rid}")]
    return hits[nth].text if len(hits) > nth else None
