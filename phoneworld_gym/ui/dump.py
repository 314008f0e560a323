"""The accessibility tree as ``uiautomator dump`` XML, from the laid-out view tree."""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET

from phoneworld_gym.ui.view import View

_BAD_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# bound: 16,384 texts, ~140 B each (~2 MiB); a dump repeats most of its texts every frame
@functools.lru_cache(maxsize=1 << 14)
def xml_attr(value: str) -> str:
    """Escape text for an XML attribute; characters XML 1.0 cannot hold become U+FFFD.
    Memoised: a pure function of the text, and most texts of a dump (ids, labels, the empty
    string) come back in every frame."""
    value = _BAD_XML_CHARS.sub("\ufffd", value)
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
        .replace("\t", "&#9;")
    )


def _b(v: bool) -> str:
    return "true" if v else "false"


def dump_children(v: View) -> list[View]:
    """The children of ``v`` that appear in the dump (visible and ``in_dump``)."""
    return [c for c in v.children if c.in_dump and c.clip is not None]


def dump_nodes(root: View) -> list[View]:
    """The views that appear in the dump, in document order (visible, ``in_dump``)."""
    out: list[View] = []
    _dump_nodes(root, out)
    return out


# Recursive helpers are module functions: a nested function that calls itself is a reference
# cycle (function -> cell -> function) that only the garbage collector frees, every frame.
def _dump_nodes(v: View, out: list[View]) -> None:
    if not v.in_dump or v.clip is None:
        return
    out.append(v)
    for c in v.children:
        _dump_nodes(c, out)


# -- the element filter -------------------------------------------------------------------
# AndroidWorld numbers the nodes of a dump that are leaves, carry a content description, or
# scroll. The XML side (contract.parse_ui_elements, oracle.fully_visible) and the view side
# (Screen.element_views, against which a tap by index is resolved) both go through
# is_indexed, so an index names the same element in the list and on the screen.
def is_indexed(has_children: bool, desc: str | None, scrollable: bool) -> bool:
    """AndroidWorld's element filter: is a dumped node one of the indexed UI elements?"""
    return not has_children or bool(desc) or scrollable


def indexed_views(root: View) -> list[View]:
    """The views behind the indexed elements of ``root``'s dump, index for index."""
    return [v for v in dump_nodes(root)
            if is_indexed(bool(dump_children(v)), v.desc, v.scrollable)]


def indexed_nodes(hierarchy: ET.Element) -> list[tuple[ET.Element, ET.Element | None]]:
    """The indexed ``node`` elements of a parsed dump (its ``hierarchy`` element, or a lone
    ``node``), in document order, each with its innermost scrolling ancestor (``None``
    outside any scrolling container)."""
    out: list[tuple[ET.Element, ET.Element | None]] = []
    for top in [hierarchy] if hierarchy.tag == "node" else hierarchy.findall("node"):
        _indexed_nodes(top, None, out)
    return out


def _indexed_nodes(node: ET.Element, scroller: ET.Element | None,
                   out: list[tuple[ET.Element, ET.Element | None]]) -> None:
    kids = node.findall("node")
    scrollable = node.get("scrollable") == "true"
    if is_indexed(bool(kids), node.get("content-desc"), scrollable):
        out.append((node, scroller))
    inner = node if scrollable else scroller
    for k in kids:
        _indexed_nodes(k, inner, out)


def to_xml(root: View, package: str, id_package: str | None = None) -> str:
    """Serialise ``root`` the way ``uiautomator dump`` does. ``package`` is the foreground app;
    resource ids are qualified with ``id_package`` (default: ``package``)."""
    id_pkg = id_package or package
    parts: list[str] = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
                        '<hierarchy rotation="0">']

    _xml_visit(root, 0, parts, package, id_pkg)
    parts.append("</hierarchy>")
    return "".join(parts)


def _xml_visit(v: View, index: int, parts: list[str], package: str, id_pkg: str) -> None:
    if not v.in_dump or v.clip is None:
        return
    if v._retained:  # a subtree kept across frames: its XML too, while it lies still
        key = (index, v._clip_key, package, id_pkg)
        kept = v._xml
        if kept is not None and kept[0] == key:
            parts.append(kept[1])
            return
        start = len(parts)
        _xml_node(v, index, parts, package, id_pkg)
        v._xml = (key, "".join(parts[start:]))
        return
    _xml_node(v, index, parts, package, id_pkg)


def _xml_node(v: View, index: int, parts: list[str], package: str, id_pkg: str) -> None:
    assert v.clip is not None
    x1, y1, x2, y2 = v.clip
    rid = v.rid if (not v.rid or ":" in v.rid) else f"{id_pkg}:id/{v.rid}"
    text = "\u2022" * len(v.text) if v.password else v.text
    clickable = v.clickable
    attrs = (
        f'index="{index}" text="{xml_attr(text)}" resource-id="{xml_attr(rid)}" '
        f'class="{v.cls}" package="{package}" content-desc="{xml_attr(v.desc)}" '
        f'checkable="{_b(v.checkable)}" checked="{_b(v.checked)}" '
        f'clickable="{_b(clickable)}" enabled="{_b(v.enabled)}" '
        f'focusable="{_b(v.focusable or clickable)}" focused="{_b(v.focused)}" '
        f'scrollable="{_b(v.scrollable)}" long-clickable="{_b(v.long_clickable)}" '
        f'password="{_b(v.password)}" selected="{_b(v.selected)}" '
        f'bounds="[{x1},{y1}][{x2},{y2}]"'
    )
    if v.hint:
        attrs += f' hint="{xml_attr(v.hint)}"'
    kids = dump_children(v)
    if not kids:
        parts.append(f"<node {attrs} />")
        return
    parts.append(f"<node {attrs}>")
    for i, c in enumerate(kids):
        _xml_visit(c, i, parts, package, id_pkg)
    parts.append("</node>")
