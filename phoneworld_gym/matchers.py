"""Typed answer matchers for information-retrieval tasks (string, number, date, time, list)."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Any, Protocol


class Matcher(Protocol):
    def match(self, answer: str, expected: Any) -> bool:
        """True when the agent's ``answer`` text means ``expected``."""
        ...


def normalize(s: str) -> str:
    """Case-, accent-, punctuation- and space-insensitive form."""
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


class StringMatch:
    """Equal after :func:`normalize`; ``contains=True`` accepts an answer that contains it."""

    def __init__(self, contains: bool = False):
        self.contains = contains

    def match(self, answer: str, expected: Any) -> bool:
        a, e = normalize(answer), normalize(str(expected))
        if not e:
            return not a
        return a == e or (self.contains and f" {e} " in f" {a} ")


_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+")


class NumberMatch:
    """The answer holds exactly one number, within ``tol`` of the expected one."""

    def __init__(self, tol: float = 1e-6):
        self.tol = tol

    def match(self, answer: str, expected: Any) -> bool:
        nums = _NUMBER.findall(answer)
        if len(nums) != 1:
            return False
        try:
            v = float(nums[0].replace(",", ""))
        except ValueError:
            return False
        return abs(v - float(expected)) <= self.tol


class DateMatch:
    """Dates in ISO (2026-03-14), US (3/14/2026) or words (March 14, 2026 / 14 March 2026)."""

    FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y",
               "%B %d %Y", "%A, %B %d, %Y")

    def match(self, answer: str, expected: Any) -> bool:
        want = expected if isinstance(expected, dt.date) else dt.date.fromisoformat(str(expected))
        text = " ".join(answer.replace(".", "").split())
        for f in self.FORMATS:
            try:
                return dt.datetime.strptime(text, f).date() == want
            except ValueError:
                continue
        return False


class TimeMatch:
    """Times like 14:05, 2:05 PM, 2:05pm."""

    def match(self, answer: str, expected: Any) -> bool:
        want = expected if isinstance(expected, dt.time) else dt.time.fromisoformat(str(expected))
        text = answer.strip().upper().replace(" ", "")
        for f in ("%H:%M", "%I:%M%p", "%I%p"):
            try:
                got = dt.datetime.strptime(text, f).time()
                return (got.hour, got.minute) == (want.hour, want.minute)
            except ValueError:
                continue
        return False


class ListMatch:
    """Comma/semicolon/newline/'and'-separated items, compared as sets (or in order)."""

    def __init__(self, ordered: bool = False, item: Matcher | None = None):
        self.ordered = ordered
        self.item = item or StringMatch()

    def match(self, answer: str, expected: Any) -> bool:
        parts = [p for p in re.split(r"[,;\n]|\band\b", answer) if p.strip()]
        want = [str(e) for e in expected]
        if len(parts) != len(want):
            return False
        if self.ordered:
            return all(self.item.match(p, e) for p, e in zip(parts, want))
        left = list(want)
        for p in parts:
            hit = next((e for e in left if self.item.match(p, e)), None)
            if hit is None:
                return False
            left.remove(hit)
        return True


def digits(s: str) -> str:
    return "".join(ch for ch in s if ch.isdigit())


class PhoneMatch:
    """Same digits, allowing a missing or extra leading country code 1."""

    def match(self, answer: str, expected: Any) -> bool:
        a, e = digits(answer), digits(str(expected))
        if not a or not e:
            return False
        if len(a) >= 10 and len(e) >= 10:
            return a[-10:] == e[-10:] and abs(len(a) - len(e)) <= 1
        return a == e
