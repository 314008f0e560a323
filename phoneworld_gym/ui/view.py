"""The view tree: nodes, layout and hit testing.

A screen is a function of the world that returns a tree of :class:`View` s. Layout assigns each
node absolute ``box`` coordinates in logical device pixels; the renderer, the accessibility dump
and hit testing all read that one laid-out tree, so what is drawn, what the tree says and what a
tap hits never disagree.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from PIL import Image as PILImage

from phoneworld_gym.ui.fonts import text_font

Box = tuple[int, int, int, int]  # x1, y1, x2, y2 (right/bottom exclusive)
Color = tuple[int, int, int] | tuple[int, int, int, int]
Handler = Callable[[], None]
SP = 2.625  # px per sp/dp


class Refused(Exception):
    """Raised by a click or long-click handler that cannot carry out the gesture (a rebuilt
    app's transition that was never observed): the input dispatcher answers the action with
    this message as its ``action_error``. The handler must raise before changing anything."""


def dp(v: float) -> int:
    """Density-independent pixels -> device pixels."""
    return int(round(v * SP))


@dataclasses.dataclass(eq=False)
class View:
    """A rectangle with optional background, accessibility attributes and handlers.

    Containers (``Column``, ``Row``, ``Stack``, ``Scroll``) arrange ``children``; leaves draw
    text, icons or images. Sizes are device pixels; ``None`` means "from content" (height) or
    "fill the parent" (width). ``flex`` shares leftover space in the parent's main axis.
    """

    children: list[View] = dataclasses.field(default_factory=list)
    # accessibility
    cls: str = "android.view.ViewGroup"
    text: str = ""
    desc: str = ""
    rid: str = ""
    hint: str = ""
    checkable: bool = False
    checked: bool = False
    selected: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    password: bool = False
    in_dump: bool = True
    # behaviour
    on_click: Handler | None = None
    on_long_click: Handler | None = None
    #: a horizontal swipe that starts on this view ("left" or "right"): swipe-to-dismiss rows
    on_swipe: Callable[[str], None] | None = None
    # layout
    width: int | None = None
    height: int | None = None
    flex: float = 0.0
    padding: tuple[int, int, int, int] = (0, 0, 0, 0)
    # style
    bg: Color | None = None
    radius: int = 0
    border: Color | None = None
    border_width: int = 0
    # set by layout
    box: Box = (0, 0, 0, 0)
    clip: Box | None = None  # visible part after scroll clipping; None = not visible
    _measured: tuple[int, int] | None = dataclasses.field(default=None, init=False, repr=False)
    #: set by :func:`retain`: the subtree is reused across frames, so a layout (or clip pass)
    #: at the box (clip) it already has is skipped
    _retained: bool = dataclasses.field(default=False, init=False, repr=False)
    _laid_box: Box | None = dataclasses.field(default=None, init=False, repr=False)
    _clip_key: tuple[Box, Box | None] | None = dataclasses.field(default=None, init=False,
                                                                 repr=False)
    #: a retained subtree's last XML: ((index, clip key, package, id package), the XML)
    _xml: tuple[tuple[Any, ...], str] | None = dataclasses.field(default=None, init=False,
                                                                 repr=False)

    # -- accessibility flags derived from handlers ------------------------------------------
    @property
    def clickable(self) -> bool:
        return self.on_click is not None and self.enabled

    @property
    def long_clickable(self) -> bool:
        return self.on_long_click is not None and self.enabled

    @property
    def scrollable(self) -> bool:
        return False

    # -- layout ------------------------------------------------------------------------------
    def measure(self, width: int) -> int:
        """Height this view wants at ``width`` (memoised: a tree is laid out once)."""
        if self.height is not None:
            return self.height
        cached = self._measured
        if cached is not None and cached[0] == width:
            return cached[1]
        pad = self.padding
        inner = width - pad[0] - pad[2]
        h = pad[1] + pad[3] + self.content_height(inner if inner > 0 else 0)
        self._measured = (width, h)
        return h

    def inner_width(self, width: int) -> int:
        inner = width - self.padding[0] - self.padding[2]
        return inner if inner > 0 else 0

    def content_height(self, inner_width: int) -> int:
        return sum(c.measure(inner_width) for c in self.children)

    def layout(self, x: int, y: int, w: int, h: int) -> None:
        """Place this view at (x, y, x + w, y + h) and lay out its children."""
        box = (x, y, x + w, y + h)
        if self._retained:
            if box == self._laid_box:
                return  # a retained subtree already laid out here: nothing can differ
            self._laid_box = box
        self.box = box
        self.layout_children()

    def layout_children(self) -> None:
        x1, y1, x2, y2 = self.inner_box()
        for c in self.children:
            c.layout(x1, y1, x2 - x1, y2 - y1)

    def inner_box(self) -> Box:
        x1, y1, x2, y2 = self.box
        pl, pt, pr, pb = self.padding
        left, top, right, bottom = x1 + pl, y1 + pt, x2 - pr, y2 - pb
        return left, top, (right if right > left else left), (bottom if bottom > top else top)

    # -- traversal ---------------------------------------------------------------------------
    def walk(self) -> Iterator[View]:
        """This node and every descendant, in document (drawing) order."""
        stack: list[View] = [self]
        pop, push = stack.pop, stack.extend
        while stack:
            v = pop()
            yield v
            if v.children:
                push(reversed(v.children))


class Column(View):
    """Children stacked top to bottom; ``flex`` children share the leftover height."""

    def __init__(self, children: Sequence[View] = (), *, gap: int = 0, **kw: object):
        super().__init__(children=list(children), **kw)  # type: ignore[arg-type]
        self.gap = gap

    def content_height(self, inner_width: int) -> int:
        hs = [c.measure(inner_width) for c in self.children]
        return sum(hs) + self.gap * max(0, len(hs) - 1)

    def layout_children(self) -> None:
        x1, y1, x2, y2 = self.inner_box()
        w = x2 - x1
        children = self.children
        fixed = [0 if c.flex else c.measure(w) for c in children]
        total_flex = sum(c.flex for c in children)
        gap = self.gap
        leftover = max(0, (y2 - y1) - sum(fixed) - gap * max(0, len(children) - 1))
        y = y1
        for c, h in zip(children, fixed):
            if c.flex:
                h = int(leftover * c.flex / total_flex)
            c.layout(x1, y, w, h)
            y += h + gap


class Row(View):
    """Children left to right, vertically centred; ``flex`` children share the leftover width.
    A child with neither ``width`` nor ``flex`` takes its natural width (text, icons)."""

    def __init__(self, children: Sequence[View] = (), *, gap: int = 0, **kw: object):
        super().__init__(children=list(children), **kw)  # type: ignore[arg-type]
        self.gap = gap
        self._ws: tuple[int, list[int]] | None = None

    def _widths(self, inner_width: int) -> list[int]:
        cached = self._ws  # measuring and laying out ask for the same width: once is enough
        if cached is not None and cached[0] == inner_width:
            return cached[1]
        children = self.children
        ws = [0 if c.flex else (c.width if c.width is not None else natural_width(c))
              for c in children]
        # a child with no intrinsic width (a field, an empty box) fills like flex=1
        flexes = [c.flex or (1.0 if w == 0 and c.width is None else 0.0)
                  for c, w in zip(children, ws)]
        total_flex = sum(flexes)
        leftover = max(0, inner_width - sum(ws) - self.gap * max(0, len(ws) - 1))
        out = [int(leftover * f / total_flex) if f else w for f, w in zip(flexes, ws)]
        self._ws = (inner_width, out)
        return out

    def content_height(self, inner_width: int) -> int:
        ws = self._widths(inner_width)
        return max((c.measure(w) for c, w in zip(self.children, ws)), default=0)

    def layout_children(self) -> None:
        x1, y1, x2, y2 = self.inner_box()
        ws = self._widths(x2 - x1)
        x = x1
        avail = y2 - y1
        gap = self.gap
        for c, w in zip(self.children, ws):
            h = min(c.measure(w), avail)
            c.layout(x, y1 + max(0, (avail - h) // 2), w, h)
            x += w + gap


class Stack(View):
    """Children drawn on top of each other; each fills the box unless it has a fixed size, in
    which case ``align`` places it ("center", "bottom_right", "bottom", "top_right")."""

    def __init__(self, children: Sequence[View] = (), *, align: str = "center", **kw: object):
        super().__init__(children=list(children), **kw)  # type: ignore[arg-type]
        self.align = align

    def content_height(self, inner_width: int) -> int:
        return max((c.measure(inner_width) for c in self.children), default=0)

    def layout_children(self) -> None:
        x1, y1, x2, y2 = self.inner_box()
        for c in self.children:
            w = c.width if c.width is not None else x2 - x1
            h = c.height if c.height is not None else (y2 - y1)
            a = getattr(c, "align_in_stack", self.align)
            if a == "bottom_right":
                c.layout(x2 - w, y2 - h, w, h)
            elif a == "bottom":
                c.layout(x1 + (x2 - x1 - w) // 2, y2 - h, w, h)
            elif a == "top_right":
                c.layout(x2 - w, y1, w, h)
            else:
                c.layout(x1 + (x2 - x1 - w) // 2, y1 + (y2 - y1 - h) // 2, w, h)


class Scroll(View):
    """A vertical scrolling container (``RecyclerView`` / ``ScrollView``).

    ``offset`` is how far the content is scrolled; ``on_scroll(new_offset)`` stores it. Children
    outside the viewport are clipped from the picture, the dump and hit testing.
    """

    def __init__(
        self,
        children: Sequence[View] = (),
        *,
        offset: int = 0,
        on_scroll: Callable[[int], None] | None = None,
        gap: int = 0,
        **kw: object,
    ):
        kw.setdefault("cls", "androidx.recyclerview.widget.RecyclerView")
        kw.setdefault("flex", 1.0)
        super().__init__(children=[Column(children, gap=gap)], **kw)  # type: ignore[arg-type]
        self.offset = offset
        self.on_scroll = on_scroll
        self.content_h = 0

    @property
    def scrollable(self) -> bool:
        return self.max_offset > 0

    @property
    def max_offset(self) -> int:
        x1, y1, x2, y2 = self.inner_box()
        return max(0, self.content_h - (y2 - y1))

    def layout_children(self) -> None:
        x1, y1, x2, y2 = self.inner_box()
        content = self.children[0]
        self.content_h = content.measure(x2 - x1)
        self.offset = max(0, min(self.offset, self.max_offset))
        content.layout(x1, y1 - self.offset, x2 - x1, self.content_h)

    def scroll_by(self, dy: int) -> bool:
        """Scroll content by ``dy`` px (positive reveals content below). False if it can't."""
        new = max(0, min(self.offset + dy, self.max_offset))
        if new == self.offset or self.on_scroll is None:
            return False
        self.on_scroll(new)
        return True


class Text(View):
    """A run of text, wrapped to the width, at most ``max_lines`` lines (ellipsised)."""

    def __init__(
        self,
        text: str,
        *,
        size: float = 16,
        weight: str = "regular",
        color: Color = (29, 27, 32),
        max_lines: int = 0,
        align: str = "left",
        line_height: float = 1.3,
        strike: bool = False,
        **kw: object,
    ):
        kw.setdefault("cls", "android.widget.TextView")
        super().__init__(text=text, **kw)  # type: ignore[arg-type]
        self.size_px = dp(size)
        self.weight = weight
        self.color = color
        self.max_lines = max_lines
        self.align = align
        self.line_px = int(self.size_px * line_height)
        self.strike = strike
        self.lines: list[str] = []
        self._natural: tuple[str, int] | None = None

    def display_text(self) -> str:
        return "•" * len(self.text) if self.password else self.text

    def natural_width(self) -> int:
        shown = self.display_text()
        cached = self._natural
        if cached is None or cached[0] != shown:
            longest = max((text_width(s, self.size_px, self.weight) for s in shown.split("\n")),
                          default=0)
            cached = self._natural = (shown, int(longest))
        return cached[1] + self.padding[0] + self.padding[2] + 1

    def content_height(self, inner_width: int) -> int:
        self.lines = wrap(self.display_text(), self.size_px, self.weight, inner_width,
                          self.max_lines)
        return self.line_px * max(1, len(self.lines))

    def layout_children(self) -> None:
        x1, y1, x2, _ = self.inner_box()
        self.lines = wrap(self.display_text(), self.size_px, self.weight, x2 - x1, self.max_lines)


class Icon(View):
    """A Font Awesome glyph in a square box (an ``ImageView``; give it a ``desc``)."""

    def __init__(self, name: str, *, size: float = 24, color: Color = (73, 69, 79),
                 box: float | None = None, **kw: object):
        kw.setdefault("cls", "android.widget.ImageView")
        side = dp(box if box is not None else size)
        kw.setdefault("width", side)
        kw.setdefault("height", side)
        super().__init__(**kw)  # type: ignore[arg-type]
        self.name = name
        self.glyph_px = dp(size)
        self.color = color


class Image(View):
    """A picture placeholder: a tinted panel with a large glyph (product photos, avatars).
    ``initials`` draws letters instead of the glyph (contact avatars)."""

    def __init__(self, *, tint: Color, glyph: str = "box", initials: str = "",
                 circle: bool = False, **kw: object):
        kw.setdefault("cls", "android.widget.ImageView")
        super().__init__(**kw)  # type: ignore[arg-type]
        self.tint = tint
        self.glyph = glyph
        self.initials = initials
        self.circle = circle


class Divider(View):
    """A 1 dp hairline."""

    def __init__(self, *, color: Color = (202, 196, 208), inset: int = 0, **kw: object):
        kw.setdefault("height", 3)
        kw.setdefault("in_dump", False)
        super().__init__(**kw)  # type: ignore[arg-type]
        self.color = color
        self.inset = inset


def natural_width(v: View) -> int:
    """Intrinsic width of a leaf; containers without a width fill (0 means 'unknown')."""
    if v.width is not None:
        return v.width
    if isinstance(v, Text):
        return v.natural_width()
    if isinstance(v, Row):
        return sum(natural_width(c) for c in v.children) + v.gap * max(0, len(v.children) - 1) \
            + v.padding[0] + v.padding[2]
    if v.children:
        return max(natural_width(c) for c in v.children) + v.padding[0] + v.padding[2]
    return 0


# bound: 16,384 widths, ~300 B each (~5 MiB); a frame measures a few hundred strings, so
# this holds dozens of screens, while typed and wrapped texts bring new ones every step
@functools.lru_cache(maxsize=1 << 14)
def text_width(s: str, px: int, weight: str = "regular") -> float:
    """Advance width of ``s`` in pixels (cached: font measurement dominates layout)."""
    return float(text_font(px, weight).getlength(s))


def wrap(text: str, px: int, weight: str, width: int, max_lines: int = 0) -> list[str]:
    """Greedy word wrap measured with the real font; long words break by character. Linear in
    the text's length: an unbroken run of 10,000 characters wraps in milliseconds."""
    return list(_wrap(text, px, weight, width, max_lines))


#: strings longer than this are never measured whole while wrapping: the longest prefix that
#: fits is searched for instead (a measurement costs the string's length, and each is cached)
_MEASURE_WHOLE = 256


# bound: 8,192 wrapped texts, ~350 B each (~3 MiB); a screen's texts wrap again on every frame
# that lays them out, and typed or per-world texts never come back after their episode
@functools.lru_cache(maxsize=1 << 13)
def _wrap(text: str, px: int, weight: str, width: int, max_lines: int) -> tuple[str, ...]:
    def measure(s: str) -> float:  # through text_width's cache
        return text_width(s, px, weight)

    def fitting(s: str) -> int:
        """The length of the longest prefix of ``s`` that fits the width: doubling, then
        bisecting, so it measures prefixes at most twice as long as the answer (a prefix
        never gets narrower as it grows)."""
        n = len(s)
        lo, hi = 0, 1  # s[:lo] fits; s[:hi] is next to try
        while hi < n and measure(s[:hi]) <= width:
            lo, hi = hi, hi * 2
        if hi >= n:
            if measure(s) <= width:
                return n
            hi = n
        while hi - lo > 1:  # s[:lo] fits, s[:hi] does not
            mid = (lo + hi) // 2
            if measure(s[:mid]) <= width:
                lo = mid
            else:
                hi = mid
        return lo

    def fits(s: str) -> bool:
        return measure(s) <= width if len(s) <= _MEASURE_WHOLE else fitting(s) == len(s)

    def lines() -> Iterator[str]:
        for para in text.split("\n"):
            line = ""
            for word in para.split(" "):
                cand = word if not line else f"{line} {word}"
                if not line and not word or fits(cand):
                    line = cand
                    continue
                if line:
                    yield line
                line = word
                # a word wider than the line breaks after the most characters that fit
                # (at least one)
                while len(line) > 1:
                    cut = fitting(line)
                    if cut == len(line):
                        break
                    cut = max(1, cut)
                    yield line[:cut]
                    line = line[cut:]
            yield line

    # with a line limit, stop one line past it: that line only says the text goes on
    out = list(itertools.islice(lines(), max_lines + 1) if max_lines else lines())
    if max_lines and len(out) > max_lines:
        last = out[max_lines - 1]
        while last and measure(last + "…") > width:
            last = last[:-1]
        out = out[: max_lines - 1] + [last.rstrip() + "…"]
    return tuple(out)


# -- visibility and hit testing -------------------------------------------------------------
def intersect(a: Box, b: Box) -> Box | None:
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    return (x1, y1, x2, y2) if x2 > x1 and y2 > y1 else None


def compute_clips(root: View, screen: Box) -> None:
    """Set each node's ``clip``: the part of it visible through every scroll viewport."""
    _clips(root, screen)


# Recursive helpers are module functions: a nested function that calls itself is a reference
# cycle (function -> cell -> function) that only the garbage collector frees, every frame.
def _clips(v: View, clip: Box | None) -> None:
    if v._retained:
        key = (v.box, clip)
        if key == v._clip_key:
            return  # a retained subtree whose box and viewport are unchanged
        v._clip_key = key
    if clip is None:
        v.clip = None
    else:
        b = v.box
        x1 = b[0] if b[0] > clip[0] else clip[0]
        y1 = b[1] if b[1] > clip[1] else clip[1]
        x2 = b[2] if b[2] < clip[2] else clip[2]
        y2 = b[3] if b[3] < clip[3] else clip[3]
        v.clip = (x1, y1, x2, y2) if x2 > x1 and y2 > y1 else None
    if isinstance(v, Scroll):
        clip = intersect(v.inner_box(), v.clip) if v.clip is not None else None
    for c in v.children:
        _clips(c, clip)


def retain(view: View) -> View:
    """Mark ``view`` as a subtree that is reused across frames (the status bar, the keyboard):
    laying it out (or computing its clips) again where it already is becomes a no-op. Nothing
    may change a retained subtree after it is first laid out."""
    view._retained = True
    return view


def hit_test(root: View, x: int, y: int, *, long: bool = False,
             swipe: bool = False) -> View | None:
    """The topmost, deepest clickable (or long-clickable, or swipeable) view whose visible
    part holds the point. Later siblings are on top, as drawn."""
    return _hit(root, x, y, long, swipe)


def _hit(v: View, x: int, y: int, long: bool, swipe: bool) -> View | None:
    c = v.clip
    if c is None or not (c[0] <= x < c[2] and c[1] <= y < c[3]):
        return None
    for child in reversed(v.children):
        hit = _hit(child, x, y, long, swipe)
        if hit is not None:
            return hit
    if swipe:
        wants = v.on_swipe is not None and v.enabled
    else:
        wants = v.long_clickable if long else v.clickable
    return v if wants else None


def find_scrollable(root: View, x: int | None = None, y: int | None = None) -> Scroll | None:
    """The innermost scrollable container under (x, y), or the largest on screen."""
    best: Scroll | None = None
    best_area = -1
    for v in root.walk():
        if not isinstance(v, Scroll) or v.clip is None or not v.scrollable:
            continue
        if x is not None and y is not None:
            if v.clip[0] <= x < v.clip[2] and v.clip[1] <= y < v.clip[3]:
                best = v  # later in document order = deeper
            continue
        area = (v.clip[2] - v.clip[0]) * (v.clip[3] - v.clip[1])
        if area > best_area:
            best, best_area = v, area
    return best


#: The most characters one text field holds. Every field here is single-line, and Android 13+
#: caps a single-line ``EditText`` that declares no length of its own at 5,000
#: (``TextView.MAX_LENGTH_FOR_SINGLE_LINE_EDIT_TEXT``): typing past it is cut off silently.
MAX_FIELD_LENGTH = 5000


class TextField(View):
    """An editable text field (``EditText``), a leaf. ``key`` names it for keyboard focus;
    ``on_text(new_value)`` stores what is typed; ``on_submit`` runs on the enter key.
    ``max_length`` is its length filter (Android's ``android:maxLength``), in characters."""

    def __init__(
        self,
        key: str,
        value: str,
        *,
        on_text: Callable[[str], None],
        on_submit: Handler | None = None,
        label: str = "",
        size: float = 16,
        outlined: bool = True,
        max_length: int = MAX_FIELD_LENGTH,
        **kw: object,
    ):
        kw.setdefault("cls", "android.widget.EditText")
        kw.setdefault("height", dp(56))
        kw.setdefault("focusable", True)
        super().__init__(text=value, **kw)  # type: ignore[arg-type]
        self.key = key
        self.on_text = on_text
        self.on_submit = on_submit
        self.label = label
        self.size_px = dp(size)
        self.outlined = outlined
        self.max_length = max_length
        if self.on_click is None:
            self.on_click = _noop  # focusing is done by the phone

    def insert(self, text: str, *, replace: bool = False) -> None:
        """Type ``text`` after what the field holds (in its place with ``replace``) and store
        the result through ``on_text``. Like Android's ``InputFilter.LengthFilter``, the part
        of ``text`` past ``max_length`` is dropped; what the field already holds stays."""
        room = self.max_length - (0 if replace else len(self.text))
        if len(text) > room:
            text = text[:max(0, room)]
        self.on_text(text if replace else self.text + text)


def _noop() -> None:
    return None


class Picture(View):
    """A ready-made picture (a PIL image) scaled into the box: Overview thumbnails, maps,
    photos. ``image`` may be a function that makes it: it is then called only when the
    picture is drawn (once), so a frame observed as a tree alone never draws its maps or
    decodes its photos. Such a function must give the same picture whenever it is called
    (draw it from the values the screen read, not from state read later)."""

    def __init__(self, image: PILImage.Image | Callable[[], PILImage.Image], **kw: object):
        kw.setdefault("cls", "android.widget.ImageView")
        super().__init__(**kw)  # type: ignore[arg-type]
        self._image = image

    @property
    def image(self) -> PILImage.Image:
        """The picture (made now if it was given as a function)."""
        img = self._image
        if not isinstance(img, PILImage.Image):
            img = self._image = img()
        return img
