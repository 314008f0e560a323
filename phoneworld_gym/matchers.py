"""Typed answer matchers for information-retrieval tasks (string, number, date, time, list,
phone), hardened against answers that game them.

Every matcher first finds the value(s) it is looking for in the answer, then checks the rest
of the answer with :func:`is_evasive`: negations ("not X", "it isn't X", "X? no"), hedges
("maybe X", "X, I think", "X or Y", "either X or Y", "X/Y") and alternatives score 0. Each
matcher also insists on a single value: one number, one date, one time, one phone number,
exactly the expected list items, and for :class:`StringMatch` one candidate (see there).

A task whose values come from a known universe (all order statuses, all contact names) can
hand it over, either once on the matcher (``StringMatch(contains=True, candidates=STATUSES)``)
or per episode by returning ``Expected(value, candidates=...)`` from ``expected_answer``.

:func:`attacks` generates the adversarial answers the tests throw at every task.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Matcher(Protocol):
    def match(self, answer: str, expected: Any) -> bool:
        """True when the agent's ``answer`` text means ``expected``."""
        ...


@dataclass(frozen=True, init=False)
class Expected:
    """An expected answer together with the other values it could have been.

    ``candidates`` is the universe of possible values (the expected one may be among them);
    an answer that mentions any candidate other than ``value`` is rejected. ``str()`` gives
    the value's own text, so code that formats expected answers keeps working."""

    value: Any
    candidates: tuple[str, ...] = ()

    def __init__(self, value: Any, candidates: Iterable[str] = ()) -> None:
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "candidates", tuple(str(c) for c in candidates))

    def __str__(self) -> str:
        return answer_text(self.value)


def unwrap(expected: Any) -> tuple[Any, tuple[str, ...]]:
    """``(value, candidates)`` of an expected answer, plain or wrapped in :class:`Expected`."""
    if isinstance(expected, Expected):
        return expected.value, expected.candidates
    return expected, ()


def answer_text(expected: Any) -> str:
    """A right answer's text: lists joined with commas, dates and times in ISO form."""
    value, _ = unwrap(expected)
    if isinstance(value, (list, tuple)):
        return ", ".join(answer_text(v) for v in value)
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


# -- text helpers ----------------------------------------------------------------------------


def normalize(s: str) -> str:
    """Case-, accent-, punctuation- and space-insensitive form."""
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


def fold(s: str) -> str:
    """Lower case, accents stripped, curly quotes straightened; punctuation kept. Matchers
    search this form, so the spans they find line up with what :func:`is_evasive` checks."""
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    return s.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")


def digits(s: str) -> str:
    """The digits of ``s``, in order."""
    return "".join(ch for ch in s if ch.isdigit())


Span = tuple[int, int]


def phrase_spans(value: str, text: str) -> list[Span]:
    """Where ``value``'s words occur in ``text`` (both any case/accents/punctuation), as
    whole words in a row with only punctuation or space between them; ``text`` is expected
    folded (:func:`fold`). Non-overlapping, left to right."""
    words = normalize(value).split()
    if not words:
        return []
    # not right after an apostrophe that follows a letter: the "t" of "isn't" is no value
    pat = r"(?<!\w)(?<!\w')" + r"\W+".join(re.escape(w) for w in words) + r"(?!\w)"
    return [m.span() for m in re.finditer(pat, text)]


def _blank(text: str, spans: Iterable[Span]) -> str:
    """``text`` with each span replaced by one space."""
    out, pos = [], 0
    for a, b in sorted(spans):
        if a < pos:
            continue
        out += [text[pos:a], " "]
        pos = b
    out.append(text[pos:])
    return "".join(out)


# -- evasion ---------------------------------------------------------------------------------

NEGATIONS = frozenset("""
    not no never none nor neither nothing nobody nowhere nope nah cannot without except
    excluding false wrong incorrect untrue instead unknown isnt arent wasnt werent dont doesnt
    didnt cant couldnt wont wouldnt shouldnt hasnt havent hadnt aint
""".split())

HEDGES = frozenset("""
    maybe perhaps probably probable possibly possible presumably likely unlikely might may
    could should guess guessing guessed think thinking thought believe suppose supposedly
    assume assuming seems seem seemingly appears apparently unsure uncertain unclear
    approximately approx roughly around about almost nearly estimate estimated somewhere
    something someone somebody anything whatever whichever else than least between etc
    hopefully if unless depends depending ish
""".split())

ALTERNATIVES = frozenset("or either whether vs versus alternatively otherwise".split())

#: multi-word hedges whose words are harmless alone
HEDGE_PHRASES = ("not sure", "pretty sure", "fairly sure", "quite sure", "sort of", "kind of",
                 "at most", "up to", "give or take", "or so", "i'd say", "i would say")

#: characters that mark alternatives, doubt or bounds wherever they stand
EVASIVE_CHARS = {"?": "question mark", "/": "alternatives ('/')", "|": "alternatives ('|')",
                 "\\": "alternatives ('\\')", "~": "approximation ('~')",
                 "\u2248": "approximation", "+": "bound ('+')", "<": "bound ('<')",
                 ">": "bound ('>')", "\u2264": "bound", "\u2265": "bound", "\u00b1": "bound"}

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


def _evasion(text: str, chars: bool = True, allowed: str = "") -> str | None:
    """Why folded ``text`` (the answer with its value blanked out) is evasive, else None;
    characters in ``allowed`` do not count."""
    if chars:
        for ch, why in EVASIVE_CHARS.items():
            if ch in text and ch not in allowed:
                return why
    words = _WORD.findall(text)
    for w in words:
        if w in NEGATIONS or w.endswith("n't"):
            return f"negation ({w!r})"
        if w in ALTERNATIVES:
            return f"alternatives ({w!r})"
        if w in HEDGES:
            return f"hedge ({w!r})"
    joined = f" {' '.join(words)} "
    for p in HEDGE_PHRASES:
        if f" {p} " in joined:
            return f"hedge ({p!r})"
    return None


def is_evasive(answer: str, *values: str, spans: Iterable[Span] = (),
               chars: bool = True) -> str | None:
    """Why ``answer`` negates, hedges or offers alternatives, else None.

    The words of each of ``values`` (the value the answer is meant to give) are blanked out
    first, once each, so a value that itself holds such a word ("Not Another Co") is
    no evidence; so are ``spans`` of :func:`fold` ``(answer)``, for matchers that located the
    value themselves. ``chars=False`` skips the punctuation checks (``?``, ``/``, ``+``...);
    a character that one of ``values`` holds ("Yahoo?") is no evidence either."""
    text = fold(answer)
    text = _blank(text, spans)
    for v in values:
        found = phrase_spans(v, text)
        if found:
            text = _blank(text, found[:1])
    return _evasion(text, chars=chars, allowed="".join(fold(v) for v in values))


# -- matchers --------------------------------------------------------------------------------

#: words a short sentence around a string answer may hold ("The order status is Shipped.",
#: "Her email is ava.chen@mail.com"); anything else next to the value fails without candidates
FILLER = frozenset("""
    the a an is it it's its that's here's there's was has have had been be are were am this
    that here there
    status state current currently right now at the moment order orders item items package
    of my your his her their our he she they them him i me we you says say shows show
    showing listed marked as answer value email e-mail address name named called company
    employer phone number contact person works work working worked employed by for on in to
    with just yes ok okay which set reads final result simply exactly found shown displayed
    see sure so
""".split())

#: more words a sentence may hold when the candidates are known (so no other value can hide
#: among them): when and how a value came about ("Shipped · Arriving Mar 5 – Mar 7")
CONTEXT = frozenset("""
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday mon tue tues wed thu thur thurs fri sat sun st nd rd th arriving arrives
    arrive arrival expected due since today yesterday tomorrow ago day days placed ordered
    last updated via sent addressed recipient gift
""".split())

_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")

CandidateSource = Sequence[str] | Callable[[Any], Iterable[str]]


class StringMatch:
    """Equal after :func:`normalize` (never evasive, see :func:`is_evasive`).

    ``contains=True`` also accepts a short sentence that states the value, once, as its only
    candidate: only filler words (:data:`FILLER`: "The order status is Shipped.", "Her email
    is ava.chen@mail.com") may stand next to it, so listing several values, or the value and
    something else entirely, cannot win.

    ``candidates`` (the values it could have been: all statuses, all companies in the address
    book; a sequence, a callable of the expected value, or carried per episode by
    :class:`Expected`) make that check exact and a little more lenient: an answer that
    mentions another candidate fails even when it is made of filler words or contains the
    expected value ("Acme Corp International" for "Acme Corp"), and the sentence may also
    hold dates and, when no candidate has a digit, numbers (:data:`CONTEXT`: "Shipped ·
    Arriving Mar 5 – Mar 7", "Order ORD-10255 has shipped"). Candidates only matter with
    ``contains=True``; without it the answer must equal the value.
    """

    def __init__(self, contains: bool = False, candidates: CandidateSource | None = None):
        self.contains = contains
        self.candidates = candidates

    def _universe(self, value: Any, carried: Sequence[str]) -> list[str]:
        found: list[str] = list(carried)
        if callable(self.candidates):
            found += [str(c) for c in self.candidates(value)]
        elif self.candidates is not None:
            found += [str(c) for c in self.candidates]
        return found

    def match(self, answer: str, expected: Any) -> bool:
        value, carried = unwrap(expected)
        a, e = normalize(answer), normalize(str(value))
        if not e:
            return not a
        if is_evasive(answer, str(value)):
            return False
        if a == e:
            return True
        if not self.contains:
            return False
        text = fold(answer)
        spans = phrase_spans(str(value), text)
        if not spans:
            return False
        universe = self._universe(value, carried)
        for c in universe:
            if normalize(c) in ("", e):
                continue
            for s in phrase_spans(c, text):
                if not any(x <= s[0] and s[1] <= y for x, y in spans):
                    return False
        allowed = FILLER | CONTEXT if universe else FILLER
        numbers = bool(universe) and not any(ch.isdigit() for v in (str(value), *universe)
                                             for ch in v)
        rest = _TOKEN.findall(_blank(text, spans[:1]))
        return all(w in allowed or (numbers and any(ch.isdigit() for ch in w)) for w in rest)


_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+")


class NumberMatch:
    """The answer holds exactly one number, within ``tol`` of the expected one, and is not
    evasive ("about 3", "not 3", "3?" fail)."""

    def __init__(self, tol: float = 1e-6):
        self.tol = tol

    def match(self, answer: str, expected: Any) -> bool:
        value, _ = unwrap(expected)
        text = fold(answer)
        nums = list(_NUMBER.finditer(text))
        if len(nums) != 1:
            return False
        if is_evasive(answer, spans=[nums[0].span()]):
            return False
        try:
            v = float(nums[0].group().replace(",", ""))
        except ValueError:
            return False
        return abs(v - float(value)) <= self.tol


_MONTHS = {m: i + 1 for i, m in enumerate(
    ("january february march april may june july august september october november "
     "december").split())}
_MONTH_RE = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
_DAY_RE = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+"
_DATE = re.compile(
    r"(?<![\w/-])(?:"
    r"(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})"
    r"|(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>\d{4})"
    rf"|(?:{_DAY_RE})?(?P<wm>{_MONTH_RE})\.?\s+(?P<wd>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<wy>\d{{4}})"
    rf"|(?:{_DAY_RE})?(?P<dd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm>{_MONTH_RE})\.?,?\s+"
    r"(?P<dy>\d{4})"
    r")(?![\w/-])")


def _month(word: str) -> int:
    """1..12 for a month name or its abbreviation (3 letters or more), else 0."""
    w = word.rstrip(".")
    return next((n for name, n in _MONTHS.items() if len(w) >= 3 and name.startswith(w)), 0)


def _date_of(m: re.Match[str]) -> dt.date | None:
    """The date a :data:`_DATE` match names, or None when it is no real date."""
    g = m.groupdict()
    try:
        if g["iy"]:
            return dt.date(int(g["iy"]), int(g["im"]), int(g["id"]))
        if g["uy"]:
            return dt.date(int(g["uy"]), int(g["um"]), int(g["ud"]))
        if g["wy"]:
            return dt.date(int(g["wy"]), _month(g["wm"]), int(g["wd"]))
        return dt.date(int(g["dy"]), _month(g["dm"]), int(g["dd"]))
    except ValueError:
        return None


class DateMatch:
    """One date, in ISO (2026-03-14), US (3/14/2026) or words (March 14, 2026 / Sat, Mar. 14,
    2026 / 14 March 2026), alone or in a sentence ("It was delivered on March 3, 2026"); two
    different dates or an evasive answer fail."""

    def match(self, answer: str, expected: Any) -> bool:
        value, _ = unwrap(expected)
        if isinstance(value, dt.datetime):
            want = value.date()
        elif isinstance(value, dt.date):
            want = value
        else:
            want = dt.date.fromisoformat(str(value)[:10])
        text = fold(answer)
        found = list(_DATE.finditer(text))
        if not found:
            return False
        if any(_date_of(m) != want for m in found):
            return False
        return is_evasive(answer, spans=[m.span() for m in found]) is None


_TIME = re.compile(
    r"(?<![\w:.])(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>[ap])\.?\s?m\.?(?![a-z])"
    r"|(?<![\w:.])(?P<h24>\d{1,2}):(?P<m24>\d{2})(?![\w:])")


def _time_of(m: re.Match[str]) -> tuple[int, int] | None:
    """``(hour, minute)`` a :data:`_TIME` match names, or None when it is no real time."""
    g = m.groupdict()
    if g["ap"]:
        h, mi = int(g["h"]), int(g["m"] or 0)
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if g["ap"] == "p" else 0)
    else:
        h, mi = int(g["h24"]), int(g["m24"])
    return (h, mi) if h < 24 and mi < 60 else None


class TimeMatch:
    """One time, like 14:05, 2:05 PM, 2:05pm, 2 p.m., alone or in a sentence; two different
    times or an evasive answer fail."""

    def match(self, answer: str, expected: Any) -> bool:
        value, _ = unwrap(expected)
        want = value if isinstance(value, dt.time) else dt.time.fromisoformat(str(value))
        text = fold(answer)
        found = list(_TIME.finditer(text))
        if not found:
            return False
        if any(_time_of(m) != (want.hour, want.minute) for m in found):
            return False
        return is_evasive(answer, spans=[m.span() for m in found]) is None


#: what an answer for an empty list may say
_EMPTY = frozenset("none no nothing zero 0 there are is aren isn t it s empty any orders items"
                   .split())


class ListMatch:
    """Comma/semicolon/newline/'&'/'and'-separated items, compared as sets (or in order), each
    with ``item`` (default :class:`StringMatch`). Extra or missing items fail, and so do
    negations, hedges and alternatives ("A or B") anywhere in the answer. An expected item
    that itself holds a comma or "and" ("Salt and Pepper Mill") is kept in one piece."""

    def __init__(self, ordered: bool = False, item: Matcher | None = None):
        self.ordered = ordered
        self.item = item or StringMatch()

    def _parts(self, text: str, want: list[str]) -> list[str]:
        """Split folded ``text`` into items, expected items kept whole."""
        keep: list[str] = []
        for w in sorted(want, key=len, reverse=True):
            for a, b in phrase_spans(w, text):
                keep.append(text[a:b])
                text = text[:a] + f"\x00{chr(0xE000 + len(keep) - 1)}\x00" + text[b:]
                break
        parts = [p.strip() for p in re.split(r"[,;\n&]|\band\b", text)]
        return [re.sub("\x00(.)\x00", lambda m: keep[ord(m.group(1)) - 0xE000], p)
                for p in parts if p]

    def match(self, answer: str, expected: Any) -> bool:
        value, _ = unwrap(expected)
        want = [answer_text(e) for e in value]
        if not want:
            return set(normalize(answer).split()) <= _EMPTY
        if is_evasive(answer, *want, chars=False):
            return False
        parts = self._parts(fold(answer), want)
        if len(parts) != len(want):
            return False
        if self.ordered:
            return all(self.item.match(p, e) for p, e in zip(parts, value))
        left = list(value)
        for p in parts:
            hit = next((i for i, e in enumerate(left) if self.item.match(p, e)), None)
            if hit is None:
                return False
            left.pop(hit)
        return True


_PHONE = re.compile(r"\+?\(?\d(?:[\d\s().\-]*\d)?\)?")


class PhoneMatch:
    """One phone number with the same digits, allowing a missing or extra leading country
    code 1; a second number or an evasive answer fails."""

    def match(self, answer: str, expected: Any) -> bool:
        value, _ = unwrap(expected)
        text = fold(answer)
        found = list(_PHONE.finditer(text))
        if len(found) != 1:
            return False
        a, e = digits(found[0].group()), digits(str(value))
        if not a or not e:
            return False
        if is_evasive(answer, spans=[found[0].span()]):
            return False
        if len(a) >= 10 and len(e) >= 10:
            return a[-10:] == e[-10:] and abs(len(a) - len(e)) <= 1
        return a == e


# -- attacks ---------------------------------------------------------------------------------


def attacks(expected_text: str, others: Sequence[str]) -> list[str]:
    """Adversarial answers built around the right one: negations, hedges, alternatives and
    lists of candidates. None of them may score; a registry test throws them at every
    information-retrieval task. ``others`` are plausible wrong values (other statuses, other
    names); without any, only the attacks that need none are made."""
    x = expected_text
    out = [
        # negations
        f"not {x}", f"Not {x}.", f"It isn't {x}", f"It is not {x}.", f"It's not {x}",
        f"It’s not {x}", f"It wasn't {x}", f"{x}? No.", f"{x}? no", f"never {x}", f"no {x}",
        f"No, {x}", f"Definitely not {x}", f"Anything but {x}", f"{x} is wrong",
        f"{x} - NOT", f"It doesn't say {x}", f"{x}: false", f"Nope, not {x}",
        f"I can't say it's {x}", f"Without a doubt not {x}", f"{x}, NOT!",
        # hedges
        f"maybe {x}", f"Maybe {x}?", f"probably {x}", f"perhaps {x}", f"possibly {x}",
        f"likely {x}", f"{x}, I think", f"{x} I guess", f"I'm not sure, {x}",
        f"I believe it's {x}", f"It might be {x}", f"It could be {x}", f"It may be {x}",
        f"{x}?", f"{x} probably", f"{x} or something else entirely", f"{x} or something",
        f"{x}, or maybe not", f"{x} or not", f"Pretty sure it's {x}", f"{x}, sort of",
        f"I think it's {x} but I'm unsure", f"~{x}", f"{x} (approximately)",
        f"It seems to be {x}", f"Hmm, {x} perhaps", f"Either {x} or something else",
        f"{x}, unless it's something else", f"{x}... or not",
    ]
    for o in others:
        out += [
            f"{x} or {o}", f"{o} or {x}", f"either {x} or {o}", f"Either {o} or {x}.",
            f"{x}/{o}", f"{o}/{x}", f"{x} / {o}", f"{x} and/or {o}", f"{x} (or {o})",
            f"{x} vs {o}", f"{x}, not {o}", f"{o}, not {x}", f"neither {x} nor {o}",
            f"{x}, maybe {o}", f"{x} | {o}", f"{x}? {o}?", f"{x} {o}", f"{o} {x}",
            f"{x}, {o}", f"{o}, {x}", f"{x} and {o}", f"{x}; {o}", f"{x}\n{o}",
            f"It's {x} or {o}", f"Whether {x} or {o}", f"{x} unless {o}",
        ]
    if others:
        # every candidate at once, the right one in each place ("Processing Shipped Delivered
        # Cancelled Return requested")
        for i in range(len(others) + 1):
            cands = [*others[:i], x, *others[i:]]
            out += [" ".join(cands), ", ".join(cands), "\n".join(cands), " / ".join(cands),
                    " or ".join(cands), "; ".join(cands), f"One of: {', '.join(cands)}"]
    return list(dict.fromkeys(out))
