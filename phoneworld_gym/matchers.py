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
    def match(self, answer: str, expected: Any, goal: str = "") -> bool:
        """True when the agent's ``answer`` text means ``expected``, for the task whose goal
        is ``goal`` (its words may stand around the value)."""
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
    over under above below beyond max maximum minimum tops upwards near nearby
""".split())

ALTERNATIVES = frozenset("or either whether vs versus alternatively otherwise".split())

#: multi-word hedges whose words are harmless alone
HEDGE_PHRASES = ("not sure", "pretty sure", "fairly sure", "quite sure", "sort of", "kind of",
                 "at most", "up to", "give or take", "or so", "i'd say", "i would say",
                 "close to", "more than", "less than", "fewer than", "north of", "south of",
                 "just kidding")

#: characters that mark alternatives, doubt or bounds wherever they stand
EVASIVE_CHARS = {"?": "question mark", "/": "alternatives ('/')", "|": "alternatives ('|')",
                 "\\": "alternatives ('\\')", "~": "approximation ('~')",
                 "\u2248": "approximation", "+": "bound ('+')", "<": "bound ('<')",
                 ">": "bound ('>')", "\u2264": "bound", "\u2265": "bound", "\u00b1": "bound"}

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


def _evasion(text: str, chars: bool = True, allowed: str = "",
             hedges: frozenset[str] = HEDGES) -> str | None:
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
        if w in hedges:
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

# -- what else an answer may say -------------------------------------------------------------
#
# An answer is judged by everything it says besides its value. The value (in any common form
# of its kind) may stand with: the goal's own words (inflected: "spent" for "spend", "ships"
# for "shipped"), the value's descriptors (units, "AM", month names), and the small stated
# vocabulary of :data:`FILLER`. Any other word fails, so "I doubt it is 2", "close to 2",
# "2 max" and "2 lol jk" do not pay, while "You spent $62.64 at Chipotle in February 2026."
# does. Numbers the goal itself holds (a year, an order number) are context, not a second
# value. Hedges, negations and alternatives fail first (:func:`is_evasive`), unless the goal
# itself says them in that phrase ("which orders have not shipped" -> "ORD-1 has not shipped").

_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")

#: words any answer may hold around its value: articles, pronouns, forms of be/have,
#: prepositions, words that point or confirm. No hedge, bound or negation is here ("about",
#: "over", "max", "not" are not filler).
FILLER = frozenset("""
    the a an is it it's its that's here's there's was has have had been be are were am will
    this that these those here there
    of my your his her their our he she they them him i me we you i'm you're we're they're
    you've i've
    in on at to for from with by as
    answer value result
    currently current right now today
    just exactly only total altogether overall
    yes ok okay so well
    found shown shows showing displayed listed says say reads see
    status state order orders item items package
    email e-mail address name named called company employer phone number contact person
    works work working worked employed set marked final simply
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

#: a number's descriptors: currencies, units, what is counted
UNITS = frozenset("""
    usd dollar dollars buck bucks cent cents percent pct km kms kilometer kilometers kilometre
    kilometres mi mile miles m meter meters metre metres ft feet foot step steps kcal calorie
    calories cal cals bpm beat beats min mins minute minutes h hr hrs hour hours sec secs second
    seconds degree degrees deg c f celsius fahrenheit kg kgs kilogram kilograms lb lbs pound
    pounds g gram grams mb gb kb tb byte bytes star stars rating ratings review reviews time
    times people person night nights day days week weeks month months year years cost costs
    price priced spent
""".split())

#: a time's descriptors
TIME_WORDS = frozenset("am pm a m p noon midnight o'clock oclock at".split())

#: a date's descriptors
DATE_WORDS = frozenset("""
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday mon tue tues wed thu thur thurs fri sat sun st nd rd th of on
""".split())

PHONE_WORDS = frozenset("call text dial mobile cell home tel".split())

#: irregular forms and their base, so a goal's "spend" allows an answer's "spent"
IRREGULAR = {
    "spent": "spend", "sent": "send", "paid": "pay", "bought": "buy", "went": "go",
    "gone": "go", "got": "get", "gotten": "get", "made": "make", "took": "take",
    "taken": "take", "ran": "run", "had": "have", "has": "have", "was": "be", "were": "be",
    "is": "be", "are": "be", "am": "be", "been": "be", "did": "do", "does": "do", "done": "do",
    "left": "leave", "told": "tell", "said": "say", "saw": "see", "seen": "see",
    "came": "come", "gave": "give", "given": "give", "wrote": "write", "written": "write",
    "met": "meet", "flew": "fly", "flown": "fly", "drove": "drive", "driven": "drive",
    "rode": "ride", "ridden": "ride", "ate": "eat", "eaten": "eat", "held": "hold",
    "kept": "keep", "won": "win", "lost": "lose", "began": "begin", "begun": "begin",
    "found": "find", "cost": "cost", "slept": "sleep", "heard": "hear", "built": "build",
    "bigger": "big", "biggest": "big", "hotter": "hot", "hottest": "hot",
}

#: number words an answer may give its value in ("two unread chats")
NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}


def stem(word: str) -> str:
    """A crude stem, the same for a word's common inflections ("ships", "shipped",
    "shipping" -> "ship"; "spent" -> "spend")."""
    w = word.lower().replace("'", "")
    w = IRREGULAR.get(w, w)
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    else:
        for suf in ("ing", "ed", "es", "s"):
            if len(w) > len(suf) + 2 and w.endswith(suf):
                w = w[:-len(suf)]
                break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


_EVASIVE_WORDS = NEGATIONS | HEDGES | ALTERNATIVES


@dataclass(frozen=True)
class _Goal:
    """What a goal lets an answer say: its words' stems, its numbers, and its phrases that
    hold a negation or hedge ("have not shipped")."""

    stems: frozenset[str]
    numbers: frozenset[str]
    phrases: tuple[str, ...]


_GOALS: dict[str, _Goal] = {}


def _goal(goal: str) -> _Goal:
    hit = _GOALS.get(goal)
    if hit is not None:
        return hit
    words = _TOKEN.findall(fold(goal))
    stems = frozenset(stem(w) for w in words if not any(ch.isdigit() for ch in w)
                      and w not in _EVASIVE_WORDS and not w.endswith("n't"))
    numbers = frozenset(_num_key(m.group()) for m in _NUMBER.finditer(fold(goal)))
    phrases = []
    for i, w in enumerate(words):
        if w in _EVASIVE_WORDS or w.endswith("n't"):
            for a, b in ((i - 1, i + 1), (i, i + 2), (i - 1, i + 2), (i - 2, i + 1)):
                if a >= 0 and b <= len(words) and b - a >= 2:
                    phrases.append(" ".join(words[a:b]))
    phrases.sort(key=len, reverse=True)
    out = _Goal(stems, numbers, tuple(dict.fromkeys(phrases)))
    if len(_GOALS) > 4096:
        _GOALS.clear()
    _GOALS[goal] = out
    return out


def _num_key(text: str) -> str:
    """A number's text without sign, thousands commas or trailing zeros ("1,250.50" ->
    "1250.5")."""
    t = text.lstrip("+-").replace(",", "")
    if "." in t:
        t = t.rstrip("0").rstrip(".")
    return t or "0"


def rest_is_fine(text: str, goal: str = "", words: Iterable[str] = (), allowed_chars: str = "",
                 chars: bool = True, digits_ok: bool = False) -> str | None:
    """Why the rest of an answer (folded, its value already blanked out) says something the
    answer may not, else None: evasion first (:func:`is_evasive`'s rules, the goal's own
    negated phrases aside), then every word must be filler, a descriptor in ``words``, or one
    of the goal's words; a token with digits must be one of the goal's numbers (or any, with
    ``digits_ok``)."""
    g = _goal(goal)
    for p in g.phrases:
        text = _blank(text, phrase_spans(p, text))
    why = _evasion(text, chars=chars, allowed=allowed_chars)
    if why:
        return why
    extra = frozenset(words)
    for w in _TOKEN.findall(text):
        if any(ch.isdigit() for ch in w):
            if digits_ok or _num_key(w) in g.numbers or w in g.numbers:
                continue
            return f"another number ({w!r})"
        if w in FILLER or w in extra or stem(w) in g.stems:
            continue
        return f"a word the answer may not hold ({w!r})"
    return None


CandidateSource = Sequence[str] | Callable[[Any], Iterable[str]]


class StringMatch:
    """The value (case, accents and punctuation aside), alone or in a sentence that says
    nothing else (see :func:`rest_is_fine`: "The order status is Shipped.", "Sydney will be
    the warmest." for a goal that asks which city will be warmest).

    ``candidates`` (the values it could have been: all statuses, all companies in the address
    book; a sequence, a callable of the expected value, or carried per episode by
    :class:`Expected`) make the check exact: an answer that mentions another candidate fails
    even when it contains the expected value ("Acme Corp International" for "Acme Corp"), and
    the sentence may also hold dates and, when no candidate has a digit, numbers
    (:data:`CONTEXT`: "Shipped · Arriving Mar 5 – Mar 7", "Order ORD-10255 has shipped").
    ``contains`` is kept for older callers; every StringMatch accepts such sentences.
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

    def match(self, answer: str, expected: Any, goal: str = "") -> bool:
        value, carried = unwrap(expected)
        a, e = normalize(answer), normalize(str(value))
        if not e:
            return not a
        if a == e:
            return not _evasion(_blank(fold(answer), phrase_spans(str(value), fold(answer))),
                                allowed=fold(str(value)))
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
        numbers = bool(universe) and not any(ch.isdigit() for v in (str(value), *universe)
                                             for ch in v)
        return rest_is_fine(_blank(text, spans[:1]), goal, CONTEXT if universe else (),
                            allowed_chars=fold(str(value)), digits_ok=numbers) is None


_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+")
_NUMBER_WORD = re.compile(r"(?<![\w'])(" + "|".join(NUMBER_WORDS) + r")(?![\w'])")


class NumberMatch:
    """One number within ``tol`` of the expected one (digits or a word up to twenty: "two"),
    alone or in a sentence that says nothing else (:func:`rest_is_fine`; units are
    descriptors). Numbers the goal holds are context ("... at Chipotle in February 2026");
    "about 3", "not 3", "3?", "3 max" and "3, four" fail."""

    def __init__(self, tol: float = 1e-6):
        self.tol = tol

    def match(self, answer: str, expected: Any, goal: str = "") -> bool:
        value, _ = unwrap(expected)
        text = fold(answer)
        g = _goal(goal)
        nums = list(_NUMBER.finditer(text))
        words = [m for m in _NUMBER_WORD.finditer(text)]
        if nums and words and all(m.group() == "one" for m in words):
            words = []  # "the one at ..." beside a number is a pronoun
        found = [(m.span(), m.group()) for m in nums] + [(m.span(), str(NUMBER_WORDS[m.group()]))
                                                           for m in words]
        own = [f for f in found if _num_key(f[1]) not in g.numbers]
        if not own:  # the value is itself one of the goal's numbers
            own = found[:1]
        if len(own) != 1:
            return False
        try:
            v = float(own[0][1].replace(",", ""))
        except ValueError:
            return False
        if abs(v - float(value)) > self.tol:
            return False
        rest = _blank(text, [s for s, _ in found])
        return rest_is_fine(rest, goal, UNITS, allowed_chars="$%°€£.,:") is None


_MONTHS = {m: i + 1 for i, m in enumerate(
    ("january february march april may june july august september october november "
     "december").split())}
_MONTH_RE = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
             r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])")
_DAY_RE = (r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?"
           r"|sat(?:urday)?|sun(?:day)?)(?![a-z])\.?,?\s+")
_DATE = re.compile(
    r"(?<![\w/-])(?:"
    r"(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})"
    r"|(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>\d{4})"
    rf"|(?:{_DAY_RE})?(?P<wm>{_MONTH_RE})\.?\s+(?P<wd>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<wy>\d{{4}}))?"
    rf"|(?:{_DAY_RE})?(?P<dd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm>{_MONTH_RE})\.?(?:,?\s+"
    r"(?P<dy>\d{4}))?"
    r")(?![\w/-])")


def _month(word: str) -> int:
    """1..12 for a month name or its abbreviation (3 letters or more), else 0."""
    w = word.rstrip(".")
    return next((n for name, n in _MONTHS.items() if len(w) >= 3 and name.startswith(w)), 0)


def _date_of(m: re.Match[str], year: int = 0) -> dt.date | None:
    """The date a :data:`_DATE` match names (``year`` where it names none), or None when it
    is no real date."""
    g = m.groupdict()
    try:
        if g["iy"]:
            return dt.date(int(g["iy"]), int(g["im"]), int(g["id"]))
        if g["uy"]:
            return dt.date(int(g["uy"]), int(g["um"]), int(g["ud"]))
        if g["wm"]:
            return dt.date(int(g["wy"] or year), _month(g["wm"]), int(g["wd"]))
        return dt.date(int(g["dy"] or year), _month(g["dm"]), int(g["dd"]))
    except ValueError:
        return None


def find_dates(text: str, year: int) -> list[tuple[Span, dt.date | None]]:
    """Every date folded ``text`` names (``year`` for those that name none)."""
    return [(m.span(), _date_of(m, year)) for m in _DATE.finditer(text)]


class DateMatch:
    """One date, in ISO (2026-03-14), US (3/14/2026) or words (March 14, 2026 / Sat, Mar. 14 /
    14 March 2026; a missing year is the expected one's), alone or in a sentence that says
    nothing else ("It was delivered on March 3, 2026"); dates the goal names are context; a
    second date, another number or an evasive answer fails."""

    def match(self, answer: str, expected: Any, goal: str = "") -> bool:
        value, _ = unwrap(expected)
        if isinstance(value, dt.datetime):
            want = value.date()
        elif isinstance(value, dt.date):
            want = value
        else:
            want = dt.date.fromisoformat(str(value)[:10])
        text = fold(answer)
        found = find_dates(text, want.year)
        in_goal = {d for _, d in find_dates(fold(goal), want.year)} if goal else set()
        own = [d for _, d in found if d not in in_goal] or [d for _, d in found][:1]
        if not own or any(d != want for d in own):
            return False
        # a time of day on that date ("Mar 6, 2026, 6:09 AM") describes it
        rest = _blank(text, [s for s, _ in found] + [s for s, _ in find_times(text)])
        return rest_is_fine(rest, goal, DATE_WORDS | TIME_WORDS) is None


_TIME = re.compile(
    r"(?<![\w:.])(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>[ap])\.?\s?m\.?(?![a-z])"
    r"|(?<![\w:.])(?P<h24>\d{1,2}):(?P<m24>\d{2})(?::\d{2})?(?![\w:])"
    r"|(?<![\w])(?P<word>noon|midnight)(?![\w])")


def _time_of(m: re.Match[str]) -> tuple[int, int] | None:
    """``(hour, minute)`` a :data:`_TIME` match names, or None when it is no real time."""
    g = m.groupdict()
    if g["word"]:
        return (12, 0) if g["word"] == "noon" else (0, 0)
    if g["ap"]:
        h, mi = int(g["h"]), int(g["m"] or 0)
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if g["ap"] == "p" else 0)
    else:
        h, mi = int(g["h24"]), int(g["m24"])
    return (h, mi) if h < 24 and mi < 60 else None


def find_times(text: str) -> list[tuple[Span, tuple[int, int] | None]]:
    """Every time of day folded ``text`` names, as ``(span, (hour, minute))``."""
    return [(m.span(), _time_of(m)) for m in _TIME.finditer(text)]


class TimeMatch:
    """One time, like 14:05, 14:05:00, 2:05 PM, 2:05pm, 2 p.m., noon, alone or in a sentence
    that says nothing else; times the goal names are context; a second time, another number
    or an evasive answer fails."""

    def match(self, answer: str, expected: Any, goal: str = "") -> bool:
        value, _ = unwrap(expected)
        want = value if isinstance(value, dt.time) else dt.time.fromisoformat(str(value))
        text = fold(answer)
        found = find_times(text)
        in_goal = {t for _, t in find_times(fold(goal))} if goal else set()
        own = [t for _, t in found if t not in in_goal] or [t for _, t in found][:1]
        if not own or any(t != (want.hour, want.minute) for t in own):
            return False
        # the day it falls on ("Mar 6, 2026, 6:09 AM") describes it
        rest = _blank(text, [s for s, _ in found] + [s for s, _ in find_dates(text, 2000)])
        return rest_is_fine(rest, goal, TIME_WORDS | DATE_WORDS) is None


#: what an answer for an empty list may say
_EMPTY = frozenset("none no nothing zero 0 there are is aren isn t it s empty any orders items"
                   .split())


class ListMatch:
    """Comma/semicolon/newline/'&'/'and'-separated items, compared as sets (or in order), each
    with ``item`` (default :class:`StringMatch`, which lets an item stand in a sentence made
    of the goal's words: "Orders ORD-1, ORD-2 are still on their way."). Extra or missing
    items fail, and so do negations, hedges and alternatives ("A or B") anywhere in the
    answer. An expected item that itself holds a comma or "and" ("Salt and Pepper Mill") is
    kept in one piece."""

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

    def match(self, answer: str, expected: Any, goal: str = "") -> bool:
        value, _ = unwrap(expected)
        want = [answer_text(e) for e in value]
        if not want:
            return set(normalize(answer).split()) <= _EMPTY
        text = fold(answer)
        for w in want:
            text = _blank(text, phrase_spans(w, text)[:1])
        for p in _goal(goal).phrases:
            text = _blank(text, phrase_spans(p, text))
        if _evasion(text, chars=False):
            return False
        parts = self._parts(fold(answer), want)
        if len(parts) != len(want):
            return False
        if self.ordered:
            return all(self.item.match(p, e, goal) for p, e in zip(parts, value))
        left = list(value)
        for p in parts:
            hit = next((i for i, e in enumerate(left) if self.item.match(p, e, goal)), None)
            if hit is None:
                return False
            left.pop(hit)
        return True


_PHONE = re.compile(r"\+?\(?\d(?:[\d\s().\-]*\d)?\)?")


class PhoneMatch:
    """One phone number with the same digits, allowing a missing or extra leading country
    code 1, alone or in a sentence that says nothing else; a second number or an evasive
    answer fails."""

    def match(self, answer: str, expected: Any, goal: str = "") -> bool:
        value, _ = unwrap(expected)
        text = fold(answer)
        g = _goal(goal)
        every = list(_PHONE.finditer(text))
        # numbers the goal holds (an order number) are context, not a second phone number
        found = [m for m in every if _num_key(digits(m.group())) not in g.numbers]
        if len(found) != 1:
            return False
        a, e = digits(found[0].group()), digits(str(value))
        if not a or not e:
            return False
        if rest_is_fine(_blank(text, [m.span() for m in every]), goal, PHONE_WORDS) is not None:
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
        # bounds, closeness, retractions and extra values the filler rule must refuse
        f"I doubt it is {x}", f"close to {x}", f"over {x}", f"under {x}", f"{x} max",
        f"at least {x}", f"more than {x}", f"less than {x}", f"{x} tops",
        f"{x}-ish", f"nearly {x}", f"{x} or so", f"{x} give or take", f"{x} lol jk",
        f"{x} jk", f"{x}, four, five", f"{x} and 7", f"{x} plus or minus one",
        f"{x}, don't quote me", f"{x} at the very least", f"roughly {x}", f"{x} (a guess)",
        f"{x}, probably more", f"{x} or more", f"{x} or fewer", f"somewhere near {x}",
        f"{x} would be my guess", f"no more than {x}", f"{x} give or take a few",
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


#: everyday words that are neither filler nor a descriptor: wrapped around a right value they
#: make an answer that says something else, which must not score
NOISE = tuple("""
    banana window purple doubt close over under max lol jk honestly weird random guessing
    somewhere basically kinda sorta literally whatever pizza weekend blue forgot wait hmm
    idk tbh probably definitely huge tiny fast slow bright cold warm happy sad friend maybe
    nearly almost roughly beyond below above less more least most plus minus extra
    another different other wrong right-ish again twice half double triple seven nine
""".split())


def random_phrasings(expected_text: str, seed: int = 0, n: int = 20, goal: str = ""
                     ) -> list[str]:
    """``n`` answers that wrap the right value in 1-3 random :data:`NOISE` words (none of the
    goal's own words), before, after or around it. None may score."""
    import random

    g = _goal(goal)
    words = [w for w in NOISE if stem(w) not in g.stems and w not in FILLER]
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randint(1, 3)
        picked = [rng.choice(words) for _ in range(k)]
        cut = rng.randint(0, k)
        out.append(" ".join([*picked[:cut], expected_text, *picked[cut:]]))
    return list(dict.fromkeys(out))
