"""``SafetyGuard``: a policy checked before each action reaches a real phone.

An agent on a real phone can spend money, call or text anyone, and wipe the phone. The guard
looks at each :class:`~phoneworld_gym.contract.Action` and the screen it acts on (the
``uiautomator dump`` the action's index refers to) and refuses the dangerous ones. A refused
action is never sent: :meth:`SafetyGuard.check` returns the refusal sentence, which
:class:`~phoneworld_gym.real_device.adb_device.AdbDevice` returns from ``execute`` (so it
shows as ``info["action_error"]``), and the guard keeps it in :attr:`SafetyGuard.refusals`.

The policy, rule by rule (every list is a constructor argument; see ``docs/real-devices.md``):

``calls``
    No call or SMS to a number outside :attr:`~SafetyGuard.allowed_numbers` (empty by
    default: no number at all). A *number* is a run of digits, optionally with ``+``, spaces,
    dashes, dots or parentheses between them; it is allowed when its digits equal an allowed
    number's, or one ends with the other and the shorter has at least 7 digits (so
    ``+1 555-010-0199`` matches ``5550100199``). Refused:

    - ``input_text`` in a dialer or messaging app (by package) when the typed text holds a
      number of 3+ digits (911 too), or the screen shows one (7+ digits in any text, 3+ in a
      field), outside the list: the contract's typing ends with ENTER, which may dial or send;
    - a tap (``click``, ``double_tap``, ``long_press``) on a call or send control (a node
      under the finger whose text, description or resource id has the word ``call``,
      ``dial``, ``send`` ...) in a dialer, messaging or contacts app while the screen shows
      such a number; and in a dialer, a tap on any node that shows one (a recent-calls row);
    - ``open_app`` whose name holds such a number (``"tel:911"``).

``purchase``
    No purchases: a tap whose finger lands on a node labelled with one of
    :attr:`~SafetyGuard.purchase_words` (``Place order``, ``Buy now``, ``Pay`` ...; whole
    words, any case, in any app). Only labels a control could carry count (at most
    :data:`MAX_CONTROL_LABEL` characters): a conversation whose preview says "could you pay
    me back" is not a pay button.

``destructive``
    No uninstalling, factory reset or data wipes: a tap on a node labelled with one of
    :attr:`~SafetyGuard.destructive_words` (``Uninstall``, ``Factory reset``, ``Erase all
    data``, ``Clear storage`` ...), in any app.

``settings``
    When :attr:`~SafetyGuard.allowed_settings` is given, a tap inside a settings app must land
    on a node whose label contains one of those words (or a navigation control such as
    ``Navigate up``); other settings are off limits. ``None`` (the default) leaves settings to
    the other rules.

``apps``
    When :attr:`~SafetyGuard.allowed_apps` is given, ``open_app`` may only open those apps
    (by the name the agent gives, or the package it resolves to).

Scrolling, swiping, Back, Home, Enter and waiting are always allowed. The guard sees what the
dump shows; it cannot see a purchase behind an unlabelled icon, and a determined agent can
find routes it does not know (a web page's own dialer link, say). It is a seat belt, not a
sandbox: use a phone with no payment methods and no SIM for unattended runs.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import Any

from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, Action, parse_ui_elements

DIALER_PACKAGES: tuple[str, ...] = (
    "com.google.android.dialer", "com.android.dialer", "com.samsung.android.dialer",
    "com.android.phone", "com.android.server.telecom", "com.android.incallui",
)
MESSAGING_PACKAGES: tuple[str, ...] = (
    "com.google.android.apps.messaging", "com.android.mms", "com.android.messaging",
    "com.samsung.android.messaging", "org.thoughtcrime.securesms", "com.whatsapp",
    "org.telegram.messenger", "com.phoneworld.messaging",
)
CONTACTS_PACKAGES: tuple[str, ...] = (
    "com.google.android.contacts", "com.android.contacts", "com.samsung.android.contacts",
    "com.samsung.android.app.contacts", "com.phoneworld.contacts",
)
SETTINGS_PACKAGES: tuple[str, ...] = (
    "com.android.settings", "com.android.settings.intelligence",
    "com.samsung.android.settings",
)
#: the longest label a button or menu item carries; longer text (a message preview, a
#: description) is read, not pressed, as far as the purchase rule goes
MAX_CONTROL_LABEL = 60
PURCHASE_WORDS: tuple[str, ...] = (
    "place order", "place your order", "buy", "buy now", "pay", "pay now", "purchase",
    "complete purchase", "confirm purchase", "confirm payment", "1-click",
)
DESTRUCTIVE_WORDS: tuple[str, ...] = (
    "uninstall", "factory reset", "factory data reset", "erase all data", "erase everything",
    "reset phone", "delete all data", "wipe", "clear storage", "clear data",
    "remove account",
)
#: words of a control that places a call or sends a message
CALL_WORDS: tuple[str, ...] = (
    "call", "dial", "send", "voice call", "video call", "send sms", "send message", "sms",
)
#: resource-id words of a message body field (typing there does not choose a recipient)
BODY_FIELD_WORDS: tuple[str, ...] = ("message", "body", "compose")
#: labels that only navigate (allowed in a settings app even with ``allowed_settings``)
NAVIGATION_WORDS: tuple[str, ...] = ("navigate up", "back", "search settings", "search",
                                     "more options")
TAPS = frozenset({"click", "double_tap", "long_press"})

_NUMBER = re.compile(r"\+?\d(?:[\s().\-]*\d)+")
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


def digits_of(text: str) -> str:
    """The digits of a phone number (``"+1 (555) 010-0199"`` -> ``"15550100199"``)."""
    return re.sub(r"\D", "", text)


def numbers_in(text: str, min_digits: int = 3) -> list[str]:
    """The digit strings of the phone-number-like runs in ``text`` with at least
    ``min_digits`` digits."""
    out = []
    for m in _NUMBER.finditer(text or ""):
        d = digits_of(m.group())
        if len(d) >= min_digits:
            out.append(d)
    return out


def _normal(text: str | None) -> str:
    return " ".join((text or "").lower().replace("_", " ").split())


def has_phrase(label: str | None, phrases: Iterable[str]) -> str | None:
    """The first of ``phrases`` found in ``label`` as whole words (any case), else None."""
    text = _normal(label)
    if not text:
        return None
    for p in phrases:
        want = _normal(p)
        if want and re.search(rf"(?<![a-z0-9]){re.escape(want)}(?![a-z0-9])", text):
            return p
    return None


@dataclasses.dataclass(frozen=True)
class Refusal:
    """One refused action: the rule, the sentence returned, and the action itself."""

    rule: str
    reason: str
    action: dict[str, Any]


@dataclasses.dataclass
class _Node:
    text: str
    desc: str
    rid: str
    cls: str
    package: str
    bounds: tuple[int, int, int, int]
    focused: bool
    #: clickable, or a leaf: a control whose resource id names what it does
    control: bool

    @property
    def labels(self) -> list[str]:
        """Text, description, and (for a control) the resource id's name."""
        rid = self.rid.rsplit("/", 1)[-1] if self.control else ""
        return [v for v in (self.text, self.desc, rid) if v]

    @property
    def editable(self) -> bool:
        return self.cls.endswith(("EditText", "AutoCompleteTextView"))

    def contains(self, x: int, y: int) -> bool:
        x1, y1, x2, y2 = self.bounds
        return x1 <= x < x2 and y1 <= y < y2


class _Screen:
    """The nodes of one dump, for hit tests and scans."""

    def __init__(self, xml: str | None, screen_size: tuple[int, int]):
        self.xml = xml
        self.screen_size = screen_size
        self.nodes: list[_Node] = []
        if not xml:
            return
        try:
            root = ET.fromstring(xml)
        except ET.ParseError:
            return
        for n in root.iter("node"):
            m = _BOUNDS.fullmatch((n.get("bounds") or "").strip())
            if not m:
                continue
            x1, y1, x2, y2 = (int(g) for g in m.groups())
            self.nodes.append(_Node(n.get("text") or "", n.get("content-desc") or "",
                                    n.get("resource-id") or "", n.get("class") or "",
                                    n.get("package") or "", (x1, y1, x2, y2),
                                    n.get("focused") == "true",
                                    n.get("clickable") == "true" or not n.findall("node")))

    @property
    def package(self) -> str:
        """The package of the window in front (the first node's)."""
        return next((n.package for n in self.nodes if n.package), "")

    def point(self, action: Action) -> tuple[int, int] | None:
        """The device pixel an action targets (an index's element centre), if any."""
        if action.x is not None and action.y is not None:
            return int(action.x), int(action.y)
        if action.index is not None and self.xml:
            try:
                elements = parse_ui_elements(self.xml, self.screen_size)
            except ValueError:
                return None
            if action.index < len(elements):
                box = elements[action.index].bbox_pixels
                if box is not None:
                    cx, cy = box.center
                    return int(cx), int(cy)
        return None

    def under(self, point: tuple[int, int] | None) -> list[_Node]:
        """Every node whose bounds hold ``point`` (outermost first)."""
        if point is None:
            return []
        return [n for n in self.nodes if n.contains(*point)]

    def field_at(self, action: Action) -> _Node | None:
        """The text field an ``input_text`` types into: the targeted one, else the focused."""
        if action.index is not None or action.x is not None:
            hits = [n for n in self.under(self.point(action)) if n.editable]
            return hits[-1] if hits else None
        return next((n for n in self.nodes if n.focused and n.editable), None)


@dataclasses.dataclass
class SafetyGuard:
    """The safety policy (see the module docstring for each rule).

    Args:
        allowed_numbers: phone numbers the agent may call or text (any formatting).
        purchase_words: labels of buttons that buy or pay.
        destructive_words: labels of buttons that uninstall, reset or wipe.
        allowed_settings: words of the settings the agent may change (None: no allow-list).
        allowed_apps: app names or packages ``open_app`` may open (None: any app).
        dialer_packages, messaging_packages, contacts_packages, settings_packages: which apps
            count as what.
        call_words: labels (or resource-id words) of controls that call or send.
    """

    allowed_numbers: Sequence[str] = ()
    purchase_words: Sequence[str] = PURCHASE_WORDS
    destructive_words: Sequence[str] = DESTRUCTIVE_WORDS
    allowed_settings: Sequence[str] | None = None
    allowed_apps: Sequence[str] | None = None
    dialer_packages: Sequence[str] = DIALER_PACKAGES
    messaging_packages: Sequence[str] = MESSAGING_PACKAGES
    contacts_packages: Sequence[str] = CONTACTS_PACKAGES
    settings_packages: Sequence[str] = SETTINGS_PACKAGES
    call_words: Sequence[str] = CALL_WORDS
    #: every refusal so far, oldest first
    refusals: list[Refusal] = dataclasses.field(default_factory=list)

    # -- numbers -----------------------------------------------------------------------
    def number_allowed(self, number: str) -> bool:
        """Whether a number (any formatting) is on the allow-list."""
        d = digits_of(number)
        for allowed in self.allowed_numbers:
            a = digits_of(allowed)
            if not a:
                continue
            if d == a:
                return True
            short = min(len(a), len(d))
            if short >= 7 and (d.endswith(a) or a.endswith(d)):
                return True
        return False

    def _bad_numbers(self, numbers: Iterable[str]) -> list[str]:
        return [n for n in numbers if not self.number_allowed(n)]

    def _screen_numbers(self, screen: _Screen) -> list[str]:
        """Numbers the screen shows: 7+ digits in any text (a phone number, not a post code
        or a year), 3+ in a text field (what was dialled)."""
        out: list[str] = []
        for n in screen.nodes:
            out += numbers_in(n.text, 3 if n.editable else 7)
            out += numbers_in(n.desc, 7)
        return out

    # -- the check -----------------------------------------------------------------------
    def check(self, action: Action, xml: str | None = None, *, package: str | None = None,
              screen_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT)) -> str:
        """``""`` when ``action`` may be sent, else the refusal sentence (also recorded in
        :attr:`refusals`).

        ``xml`` is the dump the action acts on (its index refers to it); ``package`` is the
        package an ``open_app`` resolves to, when the caller knows it; ``screen_size`` the
        dump's coordinate frame."""
        found = self._verdict(action, _Screen(xml, screen_size), package)
        if found is None:
            return ""
        rule, detail = found
        reason = f"refused by the safety guard ({rule}): {detail}; the action was not sent"
        self.refusals.append(Refusal(rule, reason, action.to_json()))
        return reason

    def _verdict(self, a: Action, screen: _Screen,
                 package: str | None) -> tuple[str, str] | None:
        t = a.action_type
        if t == "open_app":
            return self._open_app(a.app_name or "", package)
        if t in TAPS or (t == "input_text" and (a.index is not None or a.x is not None)):
            found = self._tap(screen, screen.point(a))
            if found is not None:
                return found
        if t == "input_text":
            return self._typing(a, screen)
        return None

    def _open_app(self, name: str, package: str | None) -> tuple[str, str] | None:
        bad = self._bad_numbers(numbers_in(name, 3))
        if bad:
            return "calls", f"open_app {name!r} names the number {bad[0]}, which is not on " \
                            "the allowed numbers"
        if self.allowed_apps is not None:
            allowed = {_normal(x) for x in self.allowed_apps}
            if _normal(name) not in allowed and _normal(package) not in allowed:
                return "apps", f"{name!r} is not among the allowed apps " \
                               f"({', '.join(self.allowed_apps) or 'none'})"
        return None

    def _tap(self, screen: _Screen, point: tuple[int, int] | None) -> tuple[str, str] | None:
        nodes = screen.under(point)
        pkg = screen.package
        for n in reversed(nodes):  # innermost first
            for label in n.labels:
                # a control's label, not a message or a description that mentions paying
                word = has_phrase(label, self.purchase_words) \
                    if len(label) <= MAX_CONTROL_LABEL else None
                if word:
                    return "purchase", f"a tap on {label!r} looks like a purchase " \
                                       f"({word!r} is a purchase word)"
                word = has_phrase(label, self.destructive_words)
                if word:
                    return "destructive", f"a tap on {label!r} could uninstall, reset or " \
                                          f"wipe ({word!r})"
        if pkg in self.dialer_packages:
            for n in nodes:
                bad = self._bad_numbers(numbers_in(n.text, 3) + numbers_in(n.desc, 3))
                if bad:
                    return "calls", f"a tap on {n.text or n.desc!r} in the dialer could call " \
                                    f"{bad[0]}, which is not on the allowed numbers"
        comms = (*self.dialer_packages, *self.messaging_packages, *self.contacts_packages)
        if pkg in comms:
            control = next((label for n in nodes for label in n.labels
                            if has_phrase(label, self.call_words)), None)
            if control is not None:
                bad = self._bad_numbers(self._screen_numbers(screen))
                if bad:
                    return "calls", f"a tap on {control!r} could call or text {bad[0]}, " \
                                    "which is not on the allowed numbers"
        if self.allowed_settings is not None and pkg in self.settings_packages and nodes:
            words = (*self.allowed_settings, *NAVIGATION_WORDS)
            if not any(has_phrase(label, words) or _contains_any(label, self.allowed_settings)
                       for n in nodes for label in n.labels):
                shown = next((lb for n in reversed(nodes) for lb in n.labels), "?")
                return "settings", f"a tap on {shown!r} in Settings is outside the allowed " \
                                   f"settings ({', '.join(self.allowed_settings) or 'none'})"
        return None

    def _typing(self, a: Action, screen: _Screen) -> tuple[str, str] | None:
        pkg = screen.package
        if pkg not in (*self.dialer_packages, *self.messaging_packages):
            return None
        field = screen.field_at(a)
        body = field is not None and pkg in self.messaging_packages and \
            has_phrase(field.rid.rsplit("/", 1)[-1], BODY_FIELD_WORDS) is not None
        typed = [] if body else numbers_in(a.text or "", 3)
        bad = self._bad_numbers(typed + self._screen_numbers(screen))
        if bad:
            where = "the dialer" if pkg in self.dialer_packages else "a messaging app"
            return "calls", f"typing into {where} could call or text {bad[0]}, which is not " \
                            "on the allowed numbers"
        return None


def _contains_any(label: str, words: Iterable[str]) -> bool:
    text = _normal(label)
    return any(_normal(w) and _normal(w) in text for w in words)
