"""Whether a text a person wrote (an SMS, a chat message, an email, a note) states a fact.

Tasks that ask the agent to tell someone something ("text Ava when the food arrives") check
the sent body with :func:`states`, never with a substring test::

    added("sms", {"address": same_phone(number),
                  "body": states(eta, kind="time", others=other_arrival_times)})

A body states a fact when the fact is in it, in any common form of its kind (times "10:55am"
= "10:55 AM", dates "March 21" = "3/21/2026", money "$42.50" = "42.50 dollars", addresses
"250 Maple St" = "250 Maple Street", text case and punctuation free), and it does not:

- negate or hedge it: the clause that carries the fact is judged as an answer would be
  ("it will NOT arrive at 10:55", "maybe 10:55", "10:55 or 11:10" fail), and so is a short
  aside beside it that takes it back (", I think", ", not sure", "Just kidding.");
- also state a competing value the task knows of (``others``: the other candidate locations,
  the other arrival times), affirmed or not.

Ordinary friendly phrasing around the fact passes: "Ordered! The food arrives at 10:55am, can't
wait!" and "Pickup is at 6:30. Let me know if you want a lift" state their times. Other
values the task does not name ("the party starts at 7, pickup at 6:30") are no competition.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from typing import Any

from phoneworld_gym.matchers import (
    _TOKEN,
    HEDGES,
    NEGATIONS,
    Span,
    _evasion,
    digits,
    find_dates,
    find_times,
    fold,
)

KINDS = ("text", "time", "date", "money", "number", "phone")

#: street and place abbreviations, folded to one form both ways ("St" = "Street")
ABBREVIATIONS = {
    "st": "street", "ave": "avenue", "av": "avenue", "rd": "road", "blvd": "boulevard",
    "dr": "drive", "ln": "lane", "ct": "court", "pl": "place", "sq": "square", "hwy": "highway",
    "pkwy": "parkway", "ter": "terrace", "apt": "apartment", "ste": "suite", "fl": "floor",
    "mt": "mount", "ft": "fort", "n": "north", "s": "south", "e": "east", "w": "west",
    "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest", "&": "and",
    "intl": "international", "univ": "university", "ctr": "center", "centre": "center",
}

#: hedges in the clause that carries a fact; friendlier than an answer's list: "if", "something",
#: "anyone else" are everyday words around a stated fact
_CLAUSE_HEDGES = HEDGES - {"if", "something", "anything", "someone", "somebody", "whatever",
                           "whichever", "else", "should", "could", "might", "may", "think",
                           "thought", "hopefully"} | {"doubt", "doubtful", "wonder"}
#: modal and belief words that hedge only right next to the fact ("might be 10:55",
#: "I think 10:55"): checked within two words of it
_NEAR_HEDGES = frozenset("should could might may think thought guess believe".split())
#: words that take the fact back from a separate aside (", I think", ". Just kidding")
_ASIDE_HEDGES = frozenset("""
    maybe perhaps probably possibly presumably likely unlikely guess think believe suppose
    unsure uncertain approximately approx roughly ish unless or either whether kidding jk
    joking nvm nevermind scratch wrong incorrect false mistake actually
""".split())
#: phrases and words that take a statement back wherever they stand
_TAKE_BACK = ("no idea", "not really", "just kidding", "never mind", "scratch that")
_RETRACT = frozenset("kidding jk joking nvm nevermind".split())
#: words an aside made of nothing but a negation holds ("Not.", "No, not really")
_BARE_NEGATION = NEGATIONS | frozenset("really at all it is it's its that's was actually just "
                                       "sorry never mind".split())

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+|(?<=[!?])(?=\S)")
_ASIDE_SPLIT = re.compile(r",|\s[-\u2013\u2014]\s|\(|\)")
_MONEY = re.compile(r"(?<![\w.,:/-])\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?"
                    r"(?![\d:/]|[.,]\d)")
_PHONE = re.compile(r"\+?\(?\d(?:[\d\s().\-]*\d)?\)?")
_FACT = "\x00"
_URL = re.compile(r"(?:https?://|www\.)\S+")


def _canon_words(text: str) -> list[tuple[str, int, int]]:
    """``text``'s words with their spans, each in one canonical form (abbreviations spelled
    out), so "250 Maple St." and "250 maple street" are the same words."""
    out = []
    for m in re.finditer(r"[^\W_]+|&", text):
        w = m.group()
        out.append((ABBREVIATIONS.get(w, w), m.start(), m.end()))
    return out


def _text_spans(value: str, text: str) -> list[Span]:
    """Where ``value``'s words occur in folded ``text`` as a run of whole words."""
    want = [w for w, _, _ in _canon_words(fold(value))]
    if not want:
        return []
    have = _canon_words(text)
    spans = []
    i = 0
    while i + len(want) <= len(have):
        if [w for w, _, _ in have[i:i + len(want)]] == want:
            spans.append((have[i][1], have[i + len(want) - 1][2]))
            i += len(want)
        else:
            i += 1
    return spans


def _as_date(v: Any) -> dt.date:
    if isinstance(v, dt.datetime):
        return v.date()
    if isinstance(v, dt.date):
        return v
    return dt.date.fromisoformat(str(v)[:10])


def _as_time(v: Any) -> tuple[int, int]:
    if isinstance(v, dt.datetime):
        return v.hour, v.minute
    if isinstance(v, dt.time):
        return v.hour, v.minute
    found = find_times(fold(str(v)))
    if len(found) != 1 or found[0][1] is None:
        raise ValueError(f"not one time of day: {v!r}")
    return found[0][1]


def _money_of(m: re.Match[str]) -> float:
    whole = m.group(1).replace(",", "")
    return float(f"{whole}.{m.group(2) or 0}")


def _finder(kind: str, value: Any, tol: float) -> Callable[[str], list[Span]]:
    """A function: the spans of folded text where ``value`` of ``kind`` is stated."""
    if kind == "time":
        want_t = _as_time(value)
        return lambda text: [s for s, t in find_times(text) if t == want_t]
    if kind == "date":
        want_d = _as_date(value)
        return lambda text: [s for s, d in find_dates(text, want_d.year) if d == want_d]
    if kind in ("money", "number"):
        want_n = float(value)
        return lambda text: [m.span() for m in _MONEY.finditer(text)
                             if abs(_money_of(m) - want_n) <= tol]
    if kind == "phone":
        want_p = digits(str(value))[-10:]
        return lambda text: [m.span() for m in _PHONE.finditer(text)
                             if len(digits(m.group())) >= 7
                             and digits(m.group())[-10:] == want_p]
    forms = sorted(_street_forms(value), key=len, reverse=True)

    def text_spans(text: str) -> list[Span]:
        out: list[Span] = []
        for f in forms:
            for s in _text_spans(f, text):
                if not any(a < s[1] and s[0] < b for a, b in out):
                    out.append(s)
        return out

    return text_spans


def _blank(text: str, spans: Iterable[Span], mark: str = _FACT) -> str:
    out, pos = [], 0
    for a, b in sorted(spans):
        if a < pos:
            continue
        out += [text[pos:a], f" {mark} "]
        pos = b
    out.append(text[pos:])
    return "".join(out)


def _clause_evasion(clause: str) -> str | None:
    """Why the clause that carries the fact (the fact marked by ``\\x00``) negates, hedges or
    offers an alternative to it: an answer's rules (:func:`matchers._evasion`, with the
    friendlier hedges of a text), then belief words by the fact and phrases that take it
    back."""
    why = _evasion(clause, allowed="+<>", hedges=_CLAUSE_HEDGES)
    if why:
        return why
    # "might be 10:55", "I think 10:55", "10:55 I guess": belief words right by the fact
    toks = re.findall(r"\x00|[^\W_]+(?:'[^\W_]+)*", clause)
    for i, w in enumerate(toks):
        if w == _FACT:
            near = toks[max(0, i - 5):i] + toks[i + 1:i + 3]
            hit = next((x for x in near if x in _NEAR_HEDGES), None)
            if hit:
                return f"hedge ({hit!r})"
    words = _TOKEN.findall(clause)
    joined = f" {' '.join(words)} "
    for p in _TAKE_BACK:
        if f" {p} " in joined:
            return f"hedge ({p!r})"
    hit = next((w for w in words if w in _RETRACT), None)
    return f"taken back ({hit!r})" if hit else None


def _aside_evasion(aside: str) -> str | None:
    """Why an aside beside the fact (another comma part, another short sentence) takes it
    back: a hedge of the whole ("I think", "not sure", "or not", "jk") or a bare negation
    ("Not.", "No, not really")."""
    words = _TOKEN.findall(aside)
    if not words:
        return None
    joined = f" {' '.join(words)} "
    for p in ("not sure", "or not", "or so", "give or take", "i'd say", *_TAKE_BACK):
        if f" {p} " in joined:
            return f"aside ({p!r})"
    if len(words) <= 5:
        hit = next((w for w in words if w in _ASIDE_HEDGES), None)
        if hit:
            return f"aside ({hit!r})"
        if all(w in _BARE_NEGATION or w.endswith("n't") and w in {"isn't", "wasn't"}
               for w in words) and any(w in NEGATIONS or w.endswith("n't") for w in words):
            return f"aside ({' '.join(words)!r})"
    return None


def statement_failure(body: Any, fact: Any, kind: str = "text", others: Iterable[Any] = (),
                      tol: float = 0.005) -> str | None:
    """Why ``body`` does not state ``fact`` (see the module docstring), or None when it does.
    ``kind`` is one of :data:`KINDS`; a text fact may be a tuple of accepted forms (the full
    address and its street line); ``others`` are competing values of the same kind."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if not isinstance(body, str):
        return f"no text ({type(body).__name__})"
    text = fold(body)
    spans = _finder(kind, fact, tol)(text)
    if not spans:
        return f"does not state {fact!r}"
    # "10:55 a.m." keeps its last dot as the sentence's end
    spans = [(a, b - 1) if text[b - 1] == "." else (a, b) for a, b in spans]
    for o in others:
        if kind == "text":
            if _as_key(o) == _as_key(fact):
                continue
            o = _street_forms(o)
        found = [s for s in _finder(kind, o, tol)(text)
                 if not any(a <= s[0] and s[1] <= b for a, b in spans)]
        if found:
            return f"also states {o!r}"
    # a link is one word: its slashes and dots are no alternatives or sentence ends
    marked = _URL.sub(" link ", _blank(text, spans))
    for sentence in _SENTENCE_END.split(marked):
        parts = _ASIDE_SPLIT.split(sentence)
        has_fact = _FACT in sentence
        for part in parts:
            if _FACT in part:
                why = _clause_evasion(part)
                if why:
                    return f"{why} where it states {fact!r}"
                if sentence.rstrip().endswith("?"):
                    return f"asks rather than states {fact!r}"
            elif has_fact or len(_TOKEN.findall(sentence)) <= 5:
                why = _aside_evasion(part)
                if why:
                    return why
    return None


def _street_forms(v: Any) -> tuple[str, ...]:
    """A place and its street line ("17 Oak Avenue, Springfield" and "17 Oak Avenue"): a
    person texting where something is names the street, and naming a competing street alone
    still names it."""
    forms = tuple(str(x) for x in v) if isinstance(v, (tuple, list)) else (str(v),)
    heads = tuple(f.split(",")[0].strip() for f in forms
                  if "," in f and len(f.split(",")[0].split()) >= 2
                  and any(ch.isdigit() for ch in f.split(",")[0]))
    return tuple(dict.fromkeys(forms + heads))


def _as_key(v: Any) -> str:
    if isinstance(v, (tuple, list)):
        v = v[0] if v else ""
    return " ".join(w for w, _, _ in _canon_words(fold(str(v))))


#: while the audit records (:func:`recorded`), every statement check a verifier builds
_RECORDING: list[list[_States]] = []


class recorded:
    """A context manager that collects the statement checks built inside it, so the audit can
    find which written texts a task's verifier judges and try other texts in their place."""

    def __enter__(self) -> list[_States]:
        _RECORDING.append([])
        return _RECORDING[-1]

    def __exit__(self, *exc: object) -> None:
        _RECORDING.pop()


class _States:
    def __init__(self, fact: Any, kind: str, others: tuple[Any, ...], tol: float):
        self.fact, self.kind, self.others, self.tol = fact, kind, others, tol
        statement_failure("", fact, kind, others, tol)  # a bad kind or fact fails here
        #: while recorded: the texts this check accepted (the audit replaces those)
        self.accepted: list[str] = []
        self._recording = bool(_RECORDING)
        if _RECORDING:
            _RECORDING[-1].append(self)

    def fact_text(self, body: str) -> str | None:
        """How ``body`` (a text that states the fact) words it: "10:55am", "250 Maple St"."""
        text = fold(body)
        spans = _finder(self.kind, self.fact, self.tol)(text)
        return text[spans[0][0]:spans[0][1]] if spans else None

    def other_texts(self) -> list[str]:
        """The competing values written as a person would."""
        out = []
        for o in self.others:
            if self.kind == "text" and _as_key(o) == _as_key(self.fact):
                continue
            if self.kind == "time":
                h, m = _as_time(o)
                out.append(f"{(h % 12) or 12}:{m:02d} {'PM' if h >= 12 else 'AM'}")
            elif self.kind == "date":
                out.append(_as_date(o).strftime("%B %d").replace(" 0", " "))
            elif self.kind == "money":
                out.append(f"${float(o):.2f}")
            elif isinstance(o, (tuple, list)):
                out.append(str(o[0]))
            else:
                out.append(str(o))
        return out

    def __call__(self, body: Any) -> bool:
        ok = statement_failure(body, self.fact, self.kind, self.others, self.tol) is None
        if ok and self._recording:
            self.accepted.append(body)
        return ok

    def why(self, body: Any) -> str | None:
        return statement_failure(body, self.fact, self.kind, self.others, self.tol)

    def __repr__(self) -> str:
        extra = f", not {list(self.others)!r}" if self.others else ""
        return f"states {self.kind} {self.fact!r}{extra}"


def states(fact: Any, kind: str | None = None, others: Iterable[Any] = (),
           tol: float = 0.005) -> Callable[[Any], bool]:
    """A column predicate for :mod:`phoneworld_gym.validators`: the written text states
    ``fact`` (see the module docstring). ``kind`` defaults from the fact's type (a time, a
    date, a float as money, an int as a number, else text)."""
    if kind is None:
        if isinstance(fact, dt.datetime):
            kind = "time"
        elif isinstance(fact, dt.time):
            kind = "time"
        elif isinstance(fact, dt.date):
            kind = "date"
        elif isinstance(fact, bool):
            kind = "text"
        elif isinstance(fact, float):
            kind = "money"
        elif isinstance(fact, int):
            kind = "number"
        else:
            kind = "text"
    return _States(fact, kind, tuple(others), tol)


# -- both ways: what must fail and what must pass ------------------------------------------------


def false_statements(fact_text: str, others: Iterable[str] = ()) -> list[str]:
    """Texts that mention ``fact_text`` but do not state it: negated, hedged, offered as one
    of several, taken back, or beside a competing value. None may satisfy :func:`states`;
    the audit sends them through the env for every task that checks a written text."""
    x = fact_text
    out = [
        f"It will NOT be {x}.", f"Not {x}.", f"It isn't {x}", f"{x}? No.", f"Definitely not {x}",
        f"Maybe {x}", f"Probably {x}.", f"{x}, I think", f"I'm not sure, {x}?", f"{x} I guess",
        f"It might be {x}", f"Is it {x}?", f"{x}... or not", f"{x}. Just kidding.",
        f"{x}, not sure", f"Perhaps {x}, perhaps not", f"I doubt it's {x}",
        f"It could be {x} or something else", f"{x}? Not really.",
    ]
    for o in others:
        out += [f"Either {x} or {o}, not sure", f"{x} or {o}", f"{o} or {x}", f"{x}, {o}",
                f"{x} / {o}", f"It's {x}. Actually {o}.", f"{o}. Well, {x}"]
    others = list(others)
    if others:
        out.append("Options: " + ", ".join([*others[:3], x]))
    return list(dict.fromkeys(out))


def true_statements(fact_text: str) -> list[str]:
    """Friendly texts that state ``fact_text``: each must satisfy :func:`states`."""
    x = fact_text
    return [x, f"{x}!", f"It's {x}.", f"Hi! It's {x}, can't wait!",
            f"{x}. Let me know if you want a lift", f"Just so you know: {x} :)",
            f"Hey, {x}. See you there!", f"Quick update - {x}. No worries if you're late"]
