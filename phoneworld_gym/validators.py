"""Shared, declarative checks over probe rows: what a task's verifier states must hold.

A verifier compares the phone's tables at the end of an episode with the start state (both
read through the probe) and states the expected difference, table by table::

    self.expect(
        changed("contacts", cid, starred=1),          # this row, this column, nothing else
        added("shopping/cart", {"product_id": pid, "qty": 2}),
    )

Every check describes the *whole* difference of its table: ``changed`` fails when another
row changed too, ``added`` when a row was also removed. Tables that no check names must be
unchanged, over the whole phone (:meth:`Diff.unchanged_except`). Checks never call an app's
code: they read rows, as android_world's validators read a phone's content providers.

Expected values may be plain values (compared with ``==``) or predicates: :func:`same_text`,
:func:`same_phone`, :func:`one_of`, :func:`states` (a text a person wrote states a fact: see
:mod:`phoneworld_gym.statements`), or any ``callable(value) -> bool``. Free text is never
checked with a substring test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from phoneworld_gym.device import CLOCK_PATTERN, COMMON_NEW_ROWS, GIVEN, NewRow
from phoneworld_gym.matchers import digits, normalize
from phoneworld_gym.statements import states  # noqa: F401  (re-exported: what a person wrote)

Row = dict[str, Any]
Tables = Mapping[str, list[Row]]
#: a check returns why it failed, or None when it holds
Check = Callable[["Diff"], "str | None"]
Expected = Any


# -- value predicates ----------------------------------------------------------------------
class _Pred:
    """A value test with its description; ``outside`` (when given) lists values just past
    what it allows, which the reward audit sets in its place to check that they fail."""

    def __init__(self, fn: Callable[[Any], bool], text: str,
                 outside: tuple[Any, ...] | None = None):
        self.fn, self.text, self.outside = fn, text, outside

    def __call__(self, v: Any) -> bool:
        return bool(self.fn(v))

    def __repr__(self) -> str:
        return self.text


def describe(want: Expected) -> str:
    """How an expected value reads in a failure: a predicate (or a matcher object of ours) by
    what it asks, another function by its qualified name (``near.<lambda>``, never
    ``<function ... at 0x...>``: the same episode must give the same text in every process),
    containers item by item as Python writes them, anything else by its ``repr``."""
    if isinstance(want, _Pred):
        return want.text
    kind = type(want)
    if callable(want) and not isinstance(want, type) and kind.__repr__ is not object.__repr__ \
            and kind.__module__.startswith(("phoneworld_gym", "tasks")):
        return repr(want)  # a matcher of ours that says what it asks ("states text '...'")
    if callable(want):
        name = getattr(want, "__qualname__", None)
        if not isinstance(name, str):
            name = type(want).__qualname__
        return str(name).replace("<locals>.", "")
    if isinstance(want, dict):
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in want.items()) + "}"
    if isinstance(want, list):
        return "[" + ", ".join(describe(v) for v in want) + "]"
    if isinstance(want, tuple):
        inner = ", ".join(describe(v) for v in want)
        return f"({inner},)" if len(want) == 1 else f"({inner})"
    return repr(want)


def same_text(want: str) -> Callable[[Any], bool]:
    """Equal after case, accent, punctuation and space folding."""
    key = normalize(want)
    return _Pred(lambda v: isinstance(v, str) and normalize(v) == key, f"~{want!r}")


def same_phone(want: str) -> Callable[[Any], bool]:
    """A phone number with the same digits (a missing or extra country code 1 allowed)."""
    d = digits(want)

    def ok(v: Any) -> bool:
        got = digits(str(v))
        if not got or not d:
            return False
        if len(got) >= 10 and len(d) >= 10:
            return got[-10:] == d[-10:] and abs(len(got) - len(d)) <= 1
        return got == d

    return _Pred(ok, f"number~{want!r}")


def one_of(*values: Any) -> Callable[[Any], bool]:
    """Any of the given values."""
    return _Pred(lambda v: v in values, f"one of {values!r}")


def between(low: float, high: float) -> Callable[[Any], bool]:
    """A number from ``low`` to ``high``, both included (a text of one counts)."""
    def fits(v: Any) -> bool:
        try:
            return low <= float(v) <= high
        except (TypeError, ValueError):
            return False

    step = 1 if float(low).is_integer() and float(high).is_integer() else 0.01
    return _Pred(fits, f"between {low:g} and {high:g}", outside=(low - step, high + step))


def _is_clock_time(v: Any) -> bool:
    return isinstance(v, str) and CLOCK_PATTERN.fullmatch(v) is not None


#: a time of the phone's clock, ``YYYY-MM-DDTHH:MM:SS`` (when a timer started)
CLOCK_TIME: Callable[[Any], bool] = _Pred(_is_clock_time, "a clock time")


#: any value at all: for a settable column the goal leaves to the user (a split it does not
#: name), which a new row's check would otherwise hold to its default
ANY: Callable[[Any], bool] = _Pred(lambda v: True, "any")


def new_row_id(before: Iterable[Row], after: Iterable[Row]) -> Callable[[Any], bool]:
    """The id of the one row added to a table between ``before`` and ``after`` (a playlist
    made now): a row elsewhere that refers to it must hold exactly that id, not merely an id
    that did not exist at the start (a playlist that does not exist would pass that). No
    added row, or several, and nothing fits."""
    old = {_key(r) for r in before}
    new = [r.get("_id") for r in after if _key(r) not in old]
    if len(new) != 1:
        return _Pred(lambda v: False,
                     f"the new row's id (there is none: {len(new)} rows were added, not 1)")
    want = new[0]
    return _Pred(lambda v: bool(v == want), f"the new row's id {want!r}")


def exact(want: Any) -> Callable[[Any], bool]:
    """Exactly ``want`` (``==``): for a typed text column whose case or spacing matters (a
    code, a password), which would otherwise be compared with :func:`same_text`."""
    return _Pred(lambda v: bool(v == want), f"={want!r}")


#: street-type words and their postal abbreviations (USPS), so "250 Maple St" is "250 Maple
#: Street": people type either, and the apps keep what was typed
_ADDRESS_WORDS = {
    "street": "st", "avenue": "ave", "av": "ave", "road": "rd", "boulevard": "blvd",
    "drive": "dr", "lane": "ln", "court": "ct", "place": "pl", "terrace": "ter",
    "parkway": "pkwy", "highway": "hwy", "square": "sq", "circle": "cir", "trail": "trl",
    "alley": "aly", "apartment": "apt", "suite": "ste",
    "north": "n", "south": "s", "east": "e", "west": "w",
}


def address_key(text: str) -> str:
    """``text`` folded like :func:`same_text`, street-type words abbreviated."""
    return " ".join(_ADDRESS_WORDS.get(w, w) for w in normalize(text).split())


def same_address(want: str) -> Callable[[Any], bool]:
    """The same postal address: :func:`same_text`, with street types written either way
    (St/Street, Ave/Avenue, Rd/Road, Blvd/Boulevard, Dr/Drive, Ln/Lane...)."""
    key = address_key(want)
    return _Pred(lambda v: isinstance(v, str) and address_key(v) == key, f"address~{want!r}")


def same_address_fields(want: Mapping[str, Any]) -> Callable[[Any], bool]:
    """An address kept as fields (``{"street", "city", ...}``): the same fields, each the same
    as :func:`same_address` reads it (other values equal)."""
    def key(v: Any) -> Any:
        return address_key(v) if isinstance(v, str) else v

    keys = {k: key(v) for k, v in want.items()}
    return _Pred(lambda v: isinstance(v, Mapping) and {k: key(x) for k, x in v.items()} == keys,
                 f"address~{dict(want)!r}")


# -- what a new row holds ------------------------------------------------------------------
def new_row_declaration(table: str) -> NewRow | None:
    """How a new row of ``table`` is compared (:class:`~phoneworld_gym.device.NewRow`): a
    common table's from :data:`~phoneworld_gym.device.COMMON_NEW_ROWS`, an app table's from
    the ``new_rows`` of the app that serves it; None when nobody declared one."""
    if table in COMMON_NEW_ROWS:
        return COMMON_NEW_ROWS[table]
    from phoneworld_gym.app import all_apps  # apps serve their tables; the engine reads them

    for a in all_apps().values():
        if table in a.new_rows:
            return a.new_rows[table]
    return None


def _typed(decl: NewRow | None, col: str, want: Expected) -> Expected:
    """``want`` as a check of column ``col`` compares it: a plain string expected in a typed
    text or address column is compared the way a person reads it."""
    if decl is None:
        return want
    if col in decl.address and isinstance(want, Mapping):  # an address as its fields
        return same_address_fields(want)
    if not isinstance(want, str):
        return want
    if col in decl.address:
        return same_address(want)
    if col in decl.text:
        return same_text(want)
    return want


def whole_row(table: str, pattern: Mapping[str, Expected]) -> dict[str, Expected]:
    """The pattern a new row of ``table`` must fit: every settable column, as ``pattern`` names
    it or else at its default, typed text compared as a person reads it, plus the free columns
    ``pattern`` names. A table without a declaration keeps ``pattern`` as it is. Raises
    ``ValueError`` when ``pattern`` leaves out a column that has no default."""
    decl = new_row_declaration(table)
    if decl is None:
        return dict(pattern)
    out: dict[str, Expected] = {}
    for col, default in decl.defaults.items():
        if col in pattern:
            out[col] = _typed(decl, col, pattern[col])
        elif default is GIVEN:
            raise ValueError(f"a new row of {table} has no default {col!r}: the check must "
                             f"name it (it names {sorted(pattern)})")
        else:
            out[col] = default
    out.update({k: v for k, v in pattern.items() if k not in decl.defaults})
    return out


def _fits(value: Any, want: Expected) -> bool:
    if callable(want):
        return bool(want(value))
    return bool(value == want)


def row_fits(row: Row, want: Mapping[str, Expected]) -> bool:
    """True when every column named in ``want`` fits (other columns are not looked at)."""
    return all(k in row and _fits(row[k], v) for k, v in want.items())


# -- the difference of two snapshots -------------------------------------------------------
@dataclasses.dataclass
class TableDiff:
    """How one table changed: rows added, removed and changed (matched by ``_id``).

    ``view`` names the table's view-state columns to leave out (a message's ``read`` flag:
    see ``App.view_state``): a row whose only change is there is not ``changed`` but
    ``viewed``, and a changed row's after side shows those columns as they were, so checks
    that state what was done never see what was merely looked at. Added and removed rows are
    whole."""

    name: str
    before: list[Row]
    after: list[Row]
    view: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        b = {_key(r): r for r in self.before}
        a = {_key(r): r for r in self.after}
        self.added = [r for k, r in a.items() if k not in b]
        self.removed = [r for k, r in b.items() if k not in a]
        moved = [(b[k], a[k]) for k in b if k in a and a[k] != b[k]]
        #: rows whose only change is in view-state columns (before, after), left out of
        #: ``changed`` and of :attr:`empty`
        self.viewed = [(old, new) for old, new in moved if self._looked(old, new)]
        self.changed = [(old, self._unviewed(old, new)) for old, new in moved
                        if not self._looked(old, new)]
        #: the order of the rows that stayed changed (a list reordered)
        self.reordered = [_key(r) for r in self.before if _key(r) in a] != \
            [_key(r) for r in self.after if _key(r) in b]

    def _looked(self, old: Row, new: Row) -> bool:
        return bool(self.view) and all(old.get(k) == new.get(k)
                                       for k in set(old) | set(new) if k not in self.view)

    def _unviewed(self, old: Row, new: Row) -> Row:
        """``new`` with its view-state columns as they were in ``old``."""
        if not self.view:
            return new
        row = {k: v for k, v in new.items() if k not in self.view}
        row.update({k: old[k] for k in self.view if k in old})
        return row

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.reordered)

    def summary(self) -> str:
        parts = []
        if self.added:
            parts.append(f"{len(self.added)} added ({_ids(self.added)})")
        if self.removed:
            parts.append(f"{len(self.removed)} removed ({_ids(self.removed)})")
        if self.changed:
            cols = sorted({k for b, a in self.changed for k in set(a) | set(b)
                           if a.get(k) != b.get(k)})
            parts.append(f"{len(self.changed)} changed ({_ids([a for _, a in self.changed])}: "
                         f"{', '.join(cols)})")
        if self.reordered:
            parts.append("rows reordered")
        return f"{self.name}: " + "; ".join(parts) if parts else f"{self.name}: unchanged"


def _key(row: Row) -> Any:
    k = row.get("_id")
    return repr(k) if isinstance(k, (list, dict)) else k


def _ids(rows: list[Row]) -> str:
    ids = [str(r.get("_id")) for r in rows[:4]]
    return ", ".join(ids) + (" ..." if len(rows) > 4 else "")


class Diff:
    """The difference between the start state and now, over every table both snapshots hold
    (a table missing on one side counts as empty there). ``view`` maps a table to its
    view-state columns, whose changes it leaves out (:class:`TableDiff`); without it every
    column counts."""

    def __init__(self, before: Tables, after: Tables,
                 view: Mapping[str, Iterable[str]] | None = None):
        self.before, self.after = before, after
        self.view = {t: frozenset(cols) for t, cols in (view or {}).items()}
        self._tables: dict[str, TableDiff] = {}

    def table(self, name: str) -> TableDiff:
        if name not in self._tables:
            self._tables[name] = TableDiff(name, list(self.before.get(name, [])),
                                           list(self.after.get(name, [])),
                                           self.view.get(name, frozenset()))
        return self._tables[name]

    def changed_tables(self) -> list[str]:
        names = sorted(set(self.before) | set(self.after))
        same = getattr(self.before, "same", None)  # a PhoneWorld snapshot knows cheaply
        return [n for n in names
                if not (same is not None and same(self.after, n)) and not self.table(n).empty]

    def unchanged_except(self, allowed: Iterable[str] = ()) -> str | None:
        """Why the phone changed outside ``allowed`` tables, or None when it did not. A name
        ending in ``/*`` allows every table of an app (``shopping/*``)."""
        allow = set(allowed)
        prefixes = tuple(a[:-1] for a in allow if a.endswith("/*"))
        bad = [n for n in self.changed_tables() if n not in allow and not n.startswith(prefixes)]
        if not bad:
            return None
        return "changed outside the task: " + " | ".join(self.table(n).summary() for n in bad)


# -- checks ----------------------------------------------------------------------------------
def expect(table: str, *, added: Iterable[Mapping[str, Expected]] = (),
           removed: Iterable[Any] = (), changed: Mapping[Any, Mapping[str, Expected]] | None = None,
           ) -> Check:
    """The table's whole difference: exactly the rows ``added`` (each fitting one pattern),
    the ``removed`` ids gone, and for each ``changed`` id exactly those columns changed, to
    those values; nothing else added, removed, changed or reordered.

    Where the table declares what a new row holds (:func:`new_row_declaration`), an added
    row is compared on every settable column (:func:`whole_row`): those a pattern leaves out
    must hold their defaults. A plain string expected in a typed text column (there or in
    ``changed``) is compared with :func:`same_text`, in an address column with
    :func:`same_address`; :func:`exact` asks for the very string."""
    adds = [dict(a) for a in added]
    gone = set(removed)
    edits = {k: dict(v) for k, v in (changed or {}).items()}

    def check(d: Diff) -> str | None:
        return _table_check(d)

    def _table_check(d: Diff) -> str | None:
        t = d.table(table)
        decl = new_row_declaration(table)
        try:
            whole = [whole_row(table, a) for a in adds]
        except ValueError as e:
            return str(e)
        edits_typed = {rid: {k: _typed(decl, k, v) for k, v in cols.items()}
                       for rid, cols in edits.items()}
        left = list(t.added)
        for pat in whole:
            hit = next((r for r in left if row_fits(r, pat)), None)
            if hit is None:
                return f"{table}: no added row fits {describe(pat)} " \
                       f"({t.summary()}{_nearest(left, pat)})"
            left.remove(hit)
        if left:
            return f"{table}: unexpected rows added ({_ids(left)})"
        if {_key(r) for r in t.removed} != gone:
            return f"{table}: removed {_ids(t.removed) or 'nothing'}, expected {sorted(gone)}"
        by_id = {_key(a): (b, a) for b, a in t.changed}
        if set(by_id) != set(edits):
            return f"{table}: changed {sorted(map(str, by_id)) or 'nothing'}, " \
                   f"expected {sorted(map(str, edits))}"
        for rid, cols in edits_typed.items():
            b, a = by_id[rid]
            moved = {k for k in set(a) | set(b) if a.get(k) != b.get(k)}
            if not moved <= set(cols):
                return f"{table} row {rid}: columns {sorted(moved - set(cols))} changed too"
            if not row_fits(a, cols):
                return f"{table} row {rid}: expected {describe(cols)}, got " \
                       f"{ {k: a.get(k) for k in cols} }"
        if t.reordered:
            return f"{table}: rows were reordered"
        return None

    return TableCheck(table, check, adds, edits)


def _nearest(rows: list[Row], want: Mapping[str, Expected]) -> str:
    """Where the added row closest to ``want`` differs from it, to name the problem."""
    if not rows:
        return ""
    misses = [(sorted(k for k, v in want.items() if not (k in r and _fits(r[k], v))), r)
              for r in rows]
    bad, row = min(misses, key=lambda m: len(m[0]))
    return f"; the closest, {row.get('_id')}, has " + \
        ", ".join(f"{k}={row.get(k)!r}" for k in bad)


class TableCheck:
    """A check of one table's whole difference (``table`` names it; ``adds`` are the
    patterns of the rows it expects added, ``edits`` the columns it expects changed per row
    id, as the task wrote them)."""

    def __init__(self, table: str, fn: Callable[[Diff], str | None],
                 adds: Iterable[Mapping[str, Expected]] = (),
                 edits: Mapping[Any, Mapping[str, Expected]] | None = None):
        self.table, self._fn = table, fn
        self.adds = [dict(a) for a in adds]
        self.edits = {k: dict(v) for k, v in (edits or {}).items()}

    def __call__(self, diff: Diff) -> str | None:
        return self._fn(diff)

    def __repr__(self) -> str:
        return f"<check of {self.table}>"


def added(table: str, *rows: Mapping[str, Expected]) -> Check:
    """Exactly these rows were added to ``table`` and nothing else in it changed."""
    return expect(table, added=rows)


def removed(table: str, *ids: Any) -> Check:
    """Exactly the rows with these ids were removed from ``table``; the rest are as they were."""
    return expect(table, removed=ids)


def changed(table: str, row_id: Any, **to: Expected) -> Check:
    """Row ``row_id`` of ``table`` changed exactly these columns, to these values; no other
    row changed."""
    return expect(table, changed={row_id: to})


def unchanged(table: str) -> Check:
    """``table`` is exactly as it was."""
    return expect(table)


def run_checks(diff: Diff, checks: Iterable[Check]) -> str | None:
    """The first failure among ``checks``, or None when all hold."""
    for c in checks:
        why = c(diff)
        if why is not None:
            return why
    return None
