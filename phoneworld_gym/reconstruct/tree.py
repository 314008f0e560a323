"""Recorded accessibility trees: parsing, screen identity and the nodes actions aim at.

A screen's identity is a structural signature of its ``uiautomator`` tree that ignores what
changes without the screen changing: the text typed into fields, digits (clocks, counters,
prices), focus, checked and selected states, bounds and the package. It hashes, in document
order, every *informative* node (one with a resource id, text, a content description, or one
that can be tapped, typed into, scrolled or checked): its class, resource id, those flags and
its text and description with runs of digits masked. Pure layout containers are left out, so
two trees that wrap the same content differently (a dialog window shown over a page, or the
same page inside another frame) have the same identity.

The informative nodes of one identity are the same list, so an action is recorded by its
node's position in that list (its *key*), which names the same node on every visit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import xml.etree.ElementTree as ET

_DIGITS = re.compile(r"\d+")
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
#: the identity of any screen outside the explored app (the launcher, another app)
OUTSIDE = "outside"

Box = tuple[int, int, int, int]


@dataclasses.dataclass(frozen=True)
class Node:
    """One ``node`` of a dump: its attributes, bounds and children (``path``: child indices
    from the hierarchy, ``"0/1/3"``)."""

    attrs: dict[str, str]
    bounds: Box
    children: tuple[Node, ...]
    path: str

    def flag(self, name: str) -> bool:
        return self.attrs.get(name) == "true"

    @property
    def cls(self) -> str:
        return self.attrs.get("class", "")

    @property
    def editable(self) -> bool:
        return "EditText" in self.cls

    @property
    def informative(self) -> bool:
        a = self.attrs
        return bool(a.get("resource-id") or a.get("text") or a.get("content-desc")
                    or self.flag("clickable") or self.flag("scrollable")
                    or self.flag("checkable") or self.flag("long-clickable") or self.editable)

    @property
    def centre(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2

    def walk(self) -> list[Node]:
        out: list[Node] = [self]
        for c in self.children:
            out += c.walk()
        return out

    def identity(self) -> tuple[str, ...]:
        """What of this node counts for the screen's identity (see the module docstring)."""
        a = self.attrs
        text = "" if self.editable else _DIGITS.sub("#", a.get("text", ""))
        flags = "".join("1" if self.flag(f) else "0"
                        for f in ("clickable", "long-clickable", "scrollable", "checkable"))
        return (self.cls, a.get("resource-id", ""), flags, text,
                _DIGITS.sub("#", a.get("content-desc", "")), a.get("hint", "") if self.editable
                else "")


def bounds(text: str) -> Box:
    """``"[x1,y1][x2,y2]"`` -> (x1, y1, x2, y2); (0, 0, 0, 0) when it does not parse."""
    m = _BOUNDS.fullmatch(text.strip())
    return (int(m[1]), int(m[2]), int(m[3]), int(m[4])) if m else (0, 0, 0, 0)


def _node(el: ET.Element, path: str) -> Node:
    kids = tuple(_node(k, f"{path}/{i}") for i, k in enumerate(el.findall("node")))
    return Node(dict(el.attrib), bounds(el.get("bounds", "")), kids, path)


def parse(xml: str) -> list[Node]:
    """The top-level nodes of a dump (``ValueError`` naming the problem when it is not one)."""
    try:
        root = ET.fromstring(xml.encode("utf-8") if xml.lstrip().startswith("<?xml") else xml)
    except ET.ParseError as e:
        raise ValueError(f"not a uiautomator dump ({e}): {xml[:120]!r}") from None
    tops = [root] if root.tag == "node" else root.findall("node")
    return [_node(el, str(i)) for i, el in enumerate(tops)]


def informative(xml: str) -> list[Node]:
    """The informative nodes of a dump, in document order (an action's key indexes this)."""
    return [n for top in parse(xml) for n in top.walk() if n.informative]


def package(xml: str) -> str:
    """The package the dump's first node belongs to ("" for an empty dump)."""
    tops = parse(xml)
    return tops[0].attrs.get("package", "") if tops else ""


def signature(xml: str) -> str:
    """The screen's identity: 16 hex digits (see the module docstring)."""
    h = hashlib.sha256()
    for n in informative(xml):
        h.update("\x1f".join(n.identity()).encode("utf-8"))
        h.update(b"\x1e")
    return h.hexdigest()[:16]


def target(nodes: list[Node], x: int, y: int, *, editable: bool = False) -> int | None:
    """The key of the node a tap at (x, y) lands on, as hit testing finds it: the last
    clickable (or, with ``editable``, text field) node in document order whose bounds hold
    the point; None when there is none."""
    hit = None
    for k, n in enumerate(nodes):
        b = n.bounds
        wants = n.editable if editable else (n.flag("clickable") and n.flag("enabled"))
        if wants and b[0] <= x < b[2] and b[1] <= y < b[3]:
            hit = k
    return hit


def element_index(xml: str, x: int, y: int, *, editable: bool = False) -> int | None:
    """The contract index (:func:`~phoneworld_gym.contract.parse_ui_elements`' numbering) of
    an element that says the tap (or, with ``editable``, the typing) at (x, y): a tap at its
    centre lands on the same node as one at (x, y) (:func:`target`), and, as an element
    action space's mask asks, it or an ancestor is clickable (for typing: it is a text
    field). The one centred at (x, y) if any, else the first in the list; None when there is
    none (then only the point can say the action)."""
    from phoneworld_gym.ui.dump import indexed_nodes

    nodes = informative(xml)
    want = target(nodes, x, y, editable=editable)
    if want is None:
        return None
    root = ET.fromstring(xml.encode("utf-8") if xml.lstrip().startswith("<?xml") else xml)
    parent = {child: node for node in root.iter() for child in node}
    first = None
    for i, (el, _) in enumerate(indexed_nodes(root)):
        if editable:
            ok = "EditText" in el.get("class", "")
        else:
            up: ET.Element | None = el
            ok = False
            while up is not None and up.tag == "node":
                if up.get("clickable") == "true":
                    ok = True
                    break
                up = parent.get(up)
        if not ok:
            continue
        x1, y1, x2, y2 = bounds(el.get("bounds", ""))
        cx, cy = int((x1 + x2) / 2), int((y1 + y2) / 2)
        if target(nodes, cx, cy, editable=editable) != want:
            continue
        if (cx, cy) == (x, y):
            return i
        first = i if first is None else first
    return first
