"""UI elements: what an accessibility tree (``uiautomator dump`` XML) holds, parsed into
AndroidWorld's ``UIElement`` form with their bounds (:func:`parse_ui_elements`)."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from typing import Any

from phoneworld_gym.display import SCREEN_HEIGHT, SCREEN_WIDTH


@dataclasses.dataclass(frozen=True)
class BoundingBox:
    """A box; pixels for ``bbox_pixels``, fractions of the screen for ``bbox``."""

    x_min: float
    x_max: float
    y_min: float
    y_max: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x_min + self.x_max) / 2.0, (self.y_min + self.y_max) / 2.0

    @property
    def width(self) -> float:
        return self.x_max - self.x_min

    @property
    def height(self) -> float:
        return self.y_max - self.y_min


@dataclasses.dataclass(frozen=True)
class UIElement:
    """One element of the screen, with AndroidWorld's ``representation_utils.UIElement``
    fields, in its order. From a dump, ``resource_name`` and ``resource_id`` both hold the
    node's ``resource-id`` (AndroidWorld's a11y forest fills the first, its XML reader the
    second); ``tooltip`` and ``metadata`` are never filled by a dump, as in AndroidWorld."""

    text: str | None = None
    content_description: str | None = None
    class_name: str | None = None
    bbox: BoundingBox | None = None
    bbox_pixels: BoundingBox | None = None
    hint_text: str | None = None
    is_checked: bool | None = None
    is_checkable: bool | None = None
    is_clickable: bool | None = None
    is_editable: bool | None = None
    is_enabled: bool | None = None
    is_focused: bool | None = None
    is_focusable: bool | None = None
    is_long_clickable: bool | None = None
    is_scrollable: bool | None = None
    is_selected: bool | None = None
    is_visible: bool | None = None
    package_name: str | None = None
    resource_name: str | None = None
    tooltip: str | None = None
    resource_id: str | None = None
    metadata: dict[str, Any] | None = None

    def describe(self) -> str:
        """A short label: text, hint, description, or the resource name."""
        for v in (self.text, self.hint_text, self.content_description):
            if v:
                return v
        if self.resource_id:
            return self.resource_id.rsplit("/", 1)[-1]
        return self.class_name or ""


_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_EDITABLE = ("EditText", "AutoCompleteTextView")


def parse_bounds(text: str) -> tuple[int, int, int, int]:
    """``"[x1,y1][x2,y2]"`` -> (x1, y1, x2, y2); ``ValueError`` if malformed."""
    m = _BOUNDS.fullmatch(text.strip())
    if not m:
        raise ValueError(f"malformed bounds {text!r}; expected '[x1,y1][x2,y2]'")
    x1, y1, x2, y2 = (int(g) for g in m.groups())
    return x1, y1, x2, y2


#: The element lists AndroidWorld builds: ``forest`` (its default, ``forest_to_ui_elements``
#: over the accessibility forest: leaves, nodes with a content description and scrollable
#: nodes) and ``xml_dump`` (``xml_dump_to_ui_elements``: every node but the root).
ELEMENT_MODES = ("forest", "xml_dump")


def parse_ui_elements(
    xml: str, screen_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
    mode: str = "forest",
) -> list[UIElement]:
    """Parse ``uiautomator dump`` XML into the indexed element list.

    ``mode="forest"`` (the default, and what every PhoneWorld index means) keeps
    AndroidWorld's default filter: leaves, nodes with a content description, and scrollable
    nodes, in document order, with its field values (empty strings are ``None``, ``bbox`` is
    normalised by ``screen_size``, ``is_visible`` is true unless the node says
    ``visible-to-user="false"``). ``mode="xml_dump"`` gives the list AndroidWorld's
    ``xml_dump_to_ui_elements`` gives for the same XML: every node but the root, ``bbox`` in
    pixels, strings as written, ``is_editable`` and ``hint_text`` unset. Works the same on real
    phones and on PhoneWorld.
    """
    from phoneworld_gym.ui.dump import indexed_nodes  # the one element filter

    if mode not in ELEMENT_MODES:
        raise ValueError(f"mode must be one of {ELEMENT_MODES}, got {mode!r}")
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as e:
        raise ValueError(f"accessibility XML is malformed: {e}") from None
    if mode == "xml_dump":
        return _xml_dump_elements(root)
    w, h = screen_size
    out: list[UIElement] = []

    def flag(n: ET.Element, k: str) -> bool:
        return n.get(k) == "true"

    for node, _ in indexed_nodes(root):
        desc = node.get("content-desc") or None
        x1, y1, x2, y2 = parse_bounds(node.get("bounds", "[0,0][0,0]"))
        cls = node.get("class") or None
        rid = node.get("resource-id") or None
        out.append(
            UIElement(
                text=node.get("text") or None,
                content_description=desc,
                class_name=cls,
                bbox=BoundingBox(x1 / w, x2 / w, y1 / h, y2 / h),
                bbox_pixels=BoundingBox(x1, x2, y1, y2),
                hint_text=node.get("hint") or None,
                is_checked=flag(node, "checked"),
                is_checkable=flag(node, "checkable"),
                is_clickable=flag(node, "clickable"),
                is_editable=bool(cls and cls.endswith(_EDITABLE)),
                is_enabled=flag(node, "enabled"),
                is_focused=flag(node, "focused"),
                is_focusable=flag(node, "focusable"),
                is_long_clickable=flag(node, "long-clickable"),
                is_scrollable=flag(node, "scrollable"),
                is_selected=flag(node, "selected"),
                is_visible=node.get("visible-to-user") != "false",
                package_name=node.get("package") or None,
                resource_name=rid,
                resource_id=rid,
            )
        )
    return out


def _xml_dump_elements(root: ET.Element) -> list[UIElement]:
    """AndroidWorld's ``xml_dump_to_ui_elements``: every node below the root, as written."""
    out: list[UIElement] = []
    for node in root.iter("node"):
        if node is root:
            continue
        bounds = node.get("bounds")
        box = None
        if bounds:
            x1, y1, x2, y2 = parse_bounds(bounds)
            box = BoundingBox(x1, x2, y1, y2)
        out.append(UIElement(
            text=node.get("text"), content_description=node.get("content-desc"),
            class_name=node.get("class"), bbox=box, bbox_pixels=box,
            is_checked=node.get("checked") == "true",
            is_checkable=node.get("checkable") == "true",
            is_clickable=node.get("clickable") == "true",
            is_enabled=node.get("enabled") == "true",
            is_focused=node.get("focused") == "true",
            is_focusable=node.get("focusable") == "true",
            is_long_clickable=node.get("long-clickable") == "true",
            is_scrollable=node.get("scrollable") == "true",
            is_selected=node.get("selected") == "true",
            package_name=node.get("package"), resource_id=node.get("resource-id"),
            is_visible=True,
        ))
    return out
