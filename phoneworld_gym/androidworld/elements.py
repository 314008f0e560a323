"""UI elements across the border: PhoneWorld's :class:`~phoneworld_gym.contract.UIElement`
and AndroidWorld's ``representation_utils.UIElement`` have the same fields; these copy one into
the other, and write an element list as ``uiautomator`` XML whose indices are the list's."""

from __future__ import annotations

import dataclasses
from typing import Any
from xml.sax.saxutils import quoteattr

from phoneworld_gym.contract import BoundingBox, UIElement

_FIELDS = tuple(f.name for f in dataclasses.fields(UIElement))


def _box(box: Any, cls: Any) -> Any:
    if box is None:
        return None
    return cls(box.x_min, box.x_max, box.y_min, box.y_max)


def to_androidworld_element(element: UIElement) -> Any:
    """The AndroidWorld ``UIElement`` with the same field values (imports AndroidWorld)."""
    from android_world.env import representation_utils as ru

    values = {f: getattr(element, f) for f in _FIELDS}
    values["bbox"] = _box(element.bbox, ru.BoundingBox)
    values["bbox_pixels"] = _box(element.bbox_pixels, ru.BoundingBox)
    if values["metadata"] is not None:
        values["metadata"] = dict(values["metadata"])
    return ru.UIElement(**values)


def from_androidworld_element(element: Any) -> UIElement:
    """A PhoneWorld ``UIElement`` from an AndroidWorld one (any object with its fields)."""
    values = {f: getattr(element, f, None) for f in _FIELDS}
    values["bbox"] = _box(values["bbox"], BoundingBox)
    values["bbox_pixels"] = _box(values["bbox_pixels"], BoundingBox)
    return UIElement(**values)


def _attr(value: Any) -> str:
    return "true" if value else "false"


def elements_to_xml(elements: list[Any], package: str = "") -> str:
    """``uiautomator dump`` XML with one leaf node per element, in order, so that
    :func:`~phoneworld_gym.contract.parse_ui_elements` gives the same list back: index ``i``
    of the XML is element ``i`` (how a PhoneWorld agent reads an AndroidWorld screen).
    Elements without pixel bounds get ``[0,0][0,0]``."""
    nodes = []
    for i, e in enumerate(elements):
        b = getattr(e, "bbox_pixels", None)
        bounds = ("[0,0][0,0]" if b is None else
                  f"[{int(b.x_min)},{int(b.y_min)}][{int(b.x_max)},{int(b.y_max)}]")
        cls = getattr(e, "class_name", None) or ""
        if getattr(e, "is_editable", None) and not cls.endswith(("EditText",
                                                                 "AutoCompleteTextView")):
            cls = "android.widget.EditText"  # what parse_ui_elements reads as editable
        rid = getattr(e, "resource_id", None) or getattr(e, "resource_name", None) or ""
        attrs = {
            "index": str(i), "text": getattr(e, "text", None) or "",
            "resource-id": rid, "class": cls,
            "package": getattr(e, "package_name", None) or package,
            "content-desc": getattr(e, "content_description", None) or "",
            "hint": getattr(e, "hint_text", None) or "",
            "checkable": _attr(getattr(e, "is_checkable", None)),
            "checked": _attr(getattr(e, "is_checked", None)),
            "clickable": _attr(getattr(e, "is_clickable", None)),
            "enabled": _attr(getattr(e, "is_enabled", None)),
            "focusable": _attr(getattr(e, "is_focusable", None)),
            "focused": _attr(getattr(e, "is_focused", None)),
            "scrollable": _attr(getattr(e, "is_scrollable", None)),
            "long-clickable": _attr(getattr(e, "is_long_clickable", None)),
            "password": "false",
            "selected": _attr(getattr(e, "is_selected", None)),
            "visible-to-user": "false" if getattr(e, "is_visible", True) is False else "true",
            "bounds": bounds,
        }
        nodes.append("<node " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
                     + " />")
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
            f"<hierarchy rotation=\"0\">{''.join(nodes)}</hierarchy>")
