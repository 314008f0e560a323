"""An audit of the rewards that tries both ways: wrong episodes that must score 0 (false
positives) and right ones that must score 1 (false negatives), for every task.

Each probe plays a task's oracle up to its final report, then asks the task's own verifier
about the phone as it is, or as it would be after a small change, and compares the verdict
with what a careful person would say:

- **false-positive attacks** (must score 0): a sent text that mentions the fact without
  stating it (negated, hedged, one of several candidates, beside a competing value); a row the
  task creates or edits with one settable column changed; the work done twice (its new rows
  twice); the work undone (the changed tables back as they started); a right answer hedged,
  bounded, retracted or wrapped in random words;
- **false-negative probes** (must score 1): friendly texts that state the fact; the answer in
  natural sentences and other common formats; text typed in another case; a detour through
  another app before the work; opening every unread item and playing a song on the way.

The state-level probes change the rows the verifier reads (a view over the real probe), not
the phone, so one oracle run serves many probes; the detour and case probes replay the oracle
through ``env.step``. ``examples/audit.py --rewards`` prints the counts by category.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Row
from phoneworld_gym.matchers import (
    DateMatch,
    NumberMatch,
    PhoneMatch,
    TimeMatch,
    attacks,
    random_phrasings,
)
from phoneworld_gym.statements import false_statements, recorded, true_statements
from phoneworld_gym.task import Task, get_task


@dataclasses.dataclass(frozen=True)
class Probe:
    """One try: what was done, the score a careful person expects, and what the verifier
    gave (``failure`` is the verifier's reason when it gave 0)."""

    task: str
    category: str
    seed: int
    kind: str  #: "fp:text", "fp:row", "fp:twice", "fp:undone", "fp:answer", "fn:..."
    what: str
    want: float
    got: float
    failure: str = ""

    @property
    def wrong(self) -> bool:
        return self.got != self.want


# -- a view of the phone with some tables replaced ----------------------------------------------
class _ProbeView:
    """The device's probe, with ``tables`` in place of what the phone holds."""

    def __init__(self, probe: Any, tables: Mapping[str, list[Row]]):
        self._probe, self._tables = probe, tables

    def snapshot(self) -> Mapping[str, list[Row]]:
        return self._tables

    def query(self, table: str) -> list[Row]:
        if table in self._tables:
            return copy.deepcopy(self._tables[table])
        return cast(list[Row], self._probe.query(table))

    def contacts(self) -> list[Row]:
        return self.query("contacts")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._probe, name)


class _DeviceView:
    def __init__(self, device: Any, tables: Mapping[str, list[Row]]):
        self._device, self._view = device, _ProbeView(device.probe, tables)

    @property
    def probe(self) -> _ProbeView:
        return self._view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._device, name)


def _verdict(task: Task, device: Any, tables: Mapping[str, list[Row]] | None,
             report: AgentReport) -> tuple[float, str]:
    """The task's verdict on the phone (or on ``tables`` in its place); the task's baseline
    is left as it was."""
    dev = device if tables is None else _DeviceView(device, tables)
    score = float(task.verify(cast(Device, dev), report))
    return score, task.failure


def _report(final: Action) -> AgentReport:
    if final.action_type == "answer":
        return AgentReport(status="complete", answer=final.text)
    return AgentReport(status=final.goal_status)


# -- the rows a task's oracle made ------------------------------------------------------------
def _declared(table: str) -> Any:
    """The table's new-row declaration (settable columns and their defaults, free columns),
    or None when it has none."""
    try:
        from phoneworld_gym.device import COMMON_NEW_ROWS  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - older trees
        return None
    if table in COMMON_NEW_ROWS:
        return COMMON_NEW_ROWS[table]
    from phoneworld_gym.app import get_app

    app_name = table.split("/", 1)[0]
    try:
        app = get_app(app_name)
    except KeyError:
        return None
    return getattr(app, "new_rows", {}).get(table)


def _perturb(v: Any) -> Any:
    """A value a user could have set instead of ``v`` (None when there is no obvious one)."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return 1 - v if v in (0, 1) else v + 1
    if isinstance(v, float):
        return round(v + 1.0, 2)
    if isinstance(v, str):
        if re.fullmatch(r"\+?[\d\s().\-]{7,}", v):  # a phone number: another number
            i = max(i for i, ch in enumerate(v) if ch.isdigit())
            return v[:i] + str((int(v[i]) + 1) % 10) + v[i + 1:]
        return "something else" if v.strip().lower() != "something else" else "another thing"
    if isinstance(v, list) and v:
        return v[:-1]
    return None


def _edit_wanted(checks: Sequence[Any], table: str, rid: Any, col: str) -> Any:
    """What the task's checks expect of column ``col`` of changed row ``rid`` (None when
    none names it)."""
    for c in checks:
        if getattr(c, "table", None) == table:
            cols = getattr(c, "edits", {}).get(rid, {})
            if col in cols:
                return cols[col]
    return None


def _open_columns(checks: Sequence[Any], table: str) -> set[str]:
    """Columns of ``table``'s new rows that the task's checks leave to the user (``ANY``)."""
    from phoneworld_gym.validators import ANY

    return {col for c in checks if getattr(c, "table", None) == table
            for pattern in getattr(c, "adds", ()) for col, want in pattern.items()
            if want is ANY}


def _open_edits(checks: Sequence[Any], table: str) -> set[tuple[Any, str]]:
    """(row id, column) of ``table``'s changed rows that the task's checks leave open
    (``ANY``: a file's new size and hash when the app rewrites it)."""
    from phoneworld_gym.validators import ANY

    return {(rid, col) for c in checks if getattr(c, "table", None) == table
            for rid, cols in getattr(c, "edits", {}).items() for col, want in cols.items()
            if want is ANY}


def _row_probes(task: Task, device: Any, report: AgentReport, checks: Sequence[Any] = ()
                ) -> Iterator[tuple[str, str, dict]]:
    """(kind, what, tables): the phone with one settable column of one new or edited row
    changed (not one the checks leave open); with the new rows twice; with the work undone."""
    assert task.diff is not None
    after = task.diff.after
    for name in task.diff.changed_tables():
        t = task.diff.table(name)
        if t.reordered and not (t.added or t.changed or t.removed):
            continue
        decl = _declared(name)
        free = set(getattr(decl, "free", {"_id"})) | _open_columns(checks, name) \
            if decl is not None else None
        rows = list(after[name])
        ids = [r.get("_id") for r in rows]
        for new in t.added:
            if free is None:
                continue  # an undeclared table: which columns are settable is unknown
            i = ids.index(new.get("_id"))
            for col, val in new.items():
                if col in free or col == "_id":
                    continue
                alt = _perturb(val)
                if alt is None:
                    continue
                changed = [dict(r) for r in rows]
                changed[i][col] = alt
                yield "fp:row", f"{name} new row {col}={alt!r:.40}", {**after_map(after),
                                                                      name: changed}
            twice = [*rows, {**new, "_id": f"{new.get('_id')}-again"}]
            yield "fp:twice", f"{name} new row added twice", {**after_map(after), name: twice}
        left_open = _open_edits(checks, name)
        for b, a in t.changed:
            i = ids.index(a.get("_id"))
            for col in sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k)):
                if (a.get("_id"), col) in left_open:
                    continue
                # a check that allows a range names the values just outside it
                want = _edit_wanted(checks, name, a.get("_id"), col)
                outside = getattr(want, "outside", None)
                for alt in (outside if outside is not None else [_perturb(a.get(col))]):
                    if alt is None or alt == b.get(col):
                        continue
                    changed = [dict(r) for r in rows]
                    changed[i][col] = alt
                    yield "fp:row", f"{name} row {a.get('_id')} {col}={alt!r:.40}", \
                        {**after_map(after), name: changed}
        yield "fp:undone", f"{name} back as it started", \
            {**after_map(after), name: list(task.diff.before.get(name, []))}


def after_map(after: Mapping[str, list[Row]]) -> dict[str, list[Row]]:
    """A plain copy of a snapshot's tables (the rows are read once)."""
    return {k: after[k] for k in after}


# -- written texts ------------------------------------------------------------------------------
def _text_probes(task: Task, device: Any, report: AgentReport, checks: list[Any]
                 ) -> Iterator[tuple[str, str, float, dict]]:
    """For every statement check the verifier built: the body the oracle wrote replaced by
    texts that do not state the fact (want 0) and by friendly ones that do (want 1)."""
    assert task.diff is not None
    after = task.diff.after
    for name in task.diff.changed_tables():
        rows = list(after[name])
        for new in task.diff.table(name).added:
            for col, val in new.items():
                if not isinstance(val, str):
                    continue
                for st in checks:
                    if val not in st.accepted or not st(val):
                        continue
                    said = st.fact_text(val)
                    if said is None:
                        continue
                    i = rows.index(new)
                    for want, texts in ((0.0, false_statements(said, st.other_texts())),
                                        (1.0, true_statements(said))):
                        for text in texts:
                            changed = [dict(r) for r in rows]
                            changed[i][col] = text
                            yield ("fp:text" if want == 0 else "fn:text"), \
                                f"{name}.{col} = {text!r:.60}", want, \
                                {**after_map(after), name: changed}


# -- answers ------------------------------------------------------------------------------------
_QUESTION_WORDS = frozenset("""
    what which who whom whose when where how does do did is are was were many much tell me
    please find look up check give can could would you i in my of the
""".split())


_CALENDAR_WORDS = frozenset("""
    monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december
""".split())


def echo(goal: str) -> str:
    """The goal's question turned into the words of a statement, as people answer: its last
    sentence without question words, names, lists and asides ("Which of Austin, Eugene or
    Albany will be warmest on Thursday?" -> "will be warmest on thursday")."""
    sentences = re.split(r"(?<=[.!?])\s+", goal.strip())
    last = next((x for x in reversed(sentences) if x.endswith("?")), sentences[-1])
    last = re.sub(r"\([^)]*\)|:.*$|\?", " ", last)
    words: list[str] = []
    for i, w in enumerate(re.findall(r"[\w'-]+", last)):
        if w.lower() in _QUESTION_WORDS and not words:
            continue  # leading question words
        name = w[:1].isupper() and i > 0 and w.lower() not in _CALENDAR_WORDS
        if name or w.lower() in ("or", "and") or any(ch.isdigit() for ch in w):
            continue
        words.append(w.lower())
    return " ".join(words)


def natural_answers(task: Task, right: str) -> list[str]:
    """The right answer as people write it: in sentences made of filler and the goal's own
    words, and in other common forms of its kind."""
    out = [right, f"It's {right}.", f"The answer is {right}.", f"{right}!", right.lower()]
    said = echo(task.goal)
    if said:
        out += [f"{right} {said}.", f"{said}: {right}"]
    m = task.answer_matcher
    if isinstance(m, TimeMatch):
        out += [right.replace(" ", "").lower(), f"At {right}"]
    if isinstance(m, NumberMatch):
        out += [f"{right} in total"]
    if isinstance(m, (DateMatch, PhoneMatch)):
        out += [f"It's {right}"]
    return list(dict.fromkeys(out))


_LISTED = re.compile(r"((?:[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*, )+[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*,? "
                     r"(?:or|and) [A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*)")


def listed_candidates(goal: str) -> list[str]:
    """Names the goal offers to choose from ("Which of Austin, Eugene or Albany ...")."""
    out: list[str] = []
    for m in _LISTED.finditer(goal):
        out += [p.strip() for p in re.split(r",\s*(?:or |and )?|\s(?:or|and)\s", m.group(1))
                if p.strip()]
    return out


def answer_probes(task: Task, right: str, seed: int) -> Iterator[tuple[str, str, float]]:
    """(kind, answer, want) for an answer task: natural forms of the right answer must pass;
    attacks built from it, random words around it, and the right answer beside another
    candidate the goal lists must fail."""
    for a in natural_answers(task, right):
        yield "fn:answer", a, 1.0
    others = [c for c in listed_candidates(task.goal) if c.lower() != right.lower()]
    for a in [*attacks(right, others[:2]), *random_phrasings(right, seed, 20, task.goal)]:
        yield "fp:answer", a, 0.0


# -- one task -----------------------------------------------------------------------------------
def _env(task_id: str) -> Any:
    from phoneworld_gym.env import PhoneEnv

    return PhoneEnv(tasks=task_id, obs_mode="a11y", max_steps=500)


def _labels() -> dict[str, str]:
    """Every name ``open_app`` takes -> the app's label in the launcher's drawer."""
    from phoneworld_gym.app import all_apps

    out: dict[str, str] = {}
    for app in all_apps().values():
        if app.kind == "mini-app":
            continue
        for name in (app.name, app.label, *app.aliases):
            out[name.lower()] = app.label
    return out


def through_launcher(env: Any, action: Action) -> bool:
    """Open the app of an ``open_app`` the way a person does from Home: the drawer's handle,
    then the app's icon. False (nothing done) when the app has no icon there."""
    from phoneworld_gym.oracle import find

    label = _labels().get(str(action.app_name).lower())
    if label is None:
        return False
    env.step(Action("navigate_home"))
    handle = find(env.task_device, desc="All apps")
    if handle is None:
        return False
    env.step(Action("click", index=handle))
    icon = find(env.task_device, text=label)
    if icon is None:
        return False
    env.step(Action("click", index=icon))
    return True


def _play(env: Any, seed: int, before: Sequence[Action] | Callable[[Any], Any] = (),
          typed: Any = None, launcher: bool = False, alt: bool = False
          ) -> tuple[Action | None, str]:
    """Reset, step ``before``, then the oracle up to its final report (``typed`` rewrites
    the text of every ``input_text``); return the final action, or None and why."""
    env.reset(seed=seed)
    if callable(before):
        before(env)
    else:
        for a in before:
            env.step(a)
    try:
        actions = env.task.oracle_alt(env.task_device) if alt else env.oracle()
        for a in actions:
            if a.action_type in ("status", "answer"):
                return a, ""
            if typed is not None and a.action_type == "input_text" and a.text:
                a = dataclasses.replace(a, text=typed(a.text))
            if launcher and a.action_type == "open_app" and through_launcher(env, a):
                continue
            _, _, term, trunc, info = env.step(a)
            if term or trunc:
                return None, "the episode ended early"
    except Exception as e:  # noqa: BLE001 - an oracle that cannot follow a variant is no verdict
        return None, f"{type(e).__name__}: {e}"
    return None, "the oracle gave no final report"


def audit_task(task_id: str, seeds: range = range(1), replays: bool = True,
               looking: bool = True) -> list[Probe]:
    """Every probe of one task on each seed (see the module docstring); ``replays`` plays
    the variants that take another path, ``looking`` among them the one that first opens
    every unread item and plays a song (the slowest)."""
    cls = get_task(task_id)
    out: list[Probe] = []
    env = _env(task_id)
    try:
        for seed in seeds:
            final, why = _play(env, seed)
            if final is None:
                out.append(Probe(task_id, cls.category, seed, "fn:oracle", why, 1.0, 0.0, why))
                continue
            task, device = env.task, env.task_device
            report = _report(final)

            def add(kind: str, what: str, want: float, got: float, failure: str,
                    seed: int = seed) -> None:
                out.append(Probe(task_id, cls.category, seed, kind, what, want, got, failure))

            table_checks: list[Any] = []
            expect = task.expect

            def spy(*checks: Any, expect: Any = expect, seen: list[Any] = table_checks
                    ) -> float:
                seen.extend(checks)
                return float(expect(*checks))

            task.expect = spy  # type: ignore[method-assign]
            with recorded() as checks:
                got, failure = _verdict(task, device, None, report)
            task.expect = expect  # type: ignore[method-assign]
            add("fn:oracle", "the oracle's episode", 1.0, got, failure)
            if got != 1.0:
                continue
            if cls.answer_matcher is not None and final.text is not None:
                for kind, text, want in answer_probes(task, final.text, seed):
                    g, f = _verdict(task, device, None, AgentReport("complete", text))
                    add(kind, text, want, g, f)
            else:
                task.verify(cast(Device, device), report)  # refresh the diff
                for kind, what, want, tables in _text_probes(task, device, report, checks):
                    g, f = _verdict(task, device, tables, report)
                    add(kind, what, want, g, f)
                task.verify(cast(Device, device), report)
                for kind, what, tables in list(_row_probes(task, device, report,
                                                           table_checks)):
                    g, f = _verdict(task, device, tables, report)
                    add(kind, what, 0.0, g, f)
            if replays:
                for kind, what, before, typed, way in _replay_variants(cls, looking):
                    fin, why = _play(env, seed, before, typed, **way)
                    if fin is None and kind == "fn:alt":
                        add(kind, what, 1.0, 0.0, f"the second path failed: {why}")
                        continue
                    if fin is None:  # the oracle cannot follow this variant: no verdict
                        add("skip:" + kind[3:], what, 1.0, 1.0, why)
                        continue
                    _, r, *_ = env.step(fin)
                    add(kind, what, 1.0, float(r), env.task.failure)
    finally:
        env.close()
    return out


def _replay_variants(cls: type[Task], looking: bool = True
                     ) -> Iterator[tuple[str, str, Any, Any, dict[str, bool]]]:
    """(kind, what, actions before the oracle (or a function of the env that acts), a rewrite
    of typed text, how to play) that a right episode may take."""
    if looking:
        from phoneworld_gym.audit import look_around, view_apps

        yield ("fn:looking", "open every unread item and play a song first",
               lambda env: look_around(env, skip=view_apps(cls)), None, {})
    others = [a for a in ("clock", "calculator", "weather", "notes") if a not in cls.apps]
    if others:
        yield ("fn:detour", f"open {others[0]} first, then home",
               [Action("open_app", app_name=others[0]), Action("navigate_home")], None, {})
    yield "fn:launcher", "every app opened from the drawer, not open_app", [], None, \
        {"launcher": True}
    if cls.has_alt_oracle:
        yield "fn:alt", "the second oracle path", [], None, {"alt": True}
    if cls.answer_matcher is None and not getattr(cls, "exact_text", False):
        yield "fn:case", "typed text in lower case", [], str.lower, {}


def summary(probes: list[Probe]) -> dict[str, dict[str, int]]:
    """Per category: tries and wrong verdicts, false positives and negatives apart."""
    out: dict[str, dict[str, int]] = {}
    for p in probes:
        row = out.setdefault(p.category, {"fp_tried": 0, "fp": 0, "fn_tried": 0, "fn": 0})
        if p.kind.startswith("skip:"):
            continue
        side = "fp" if p.kind.startswith("fp") else "fn"
        row[f"{side}_tried"] += 1
        row[side] += int(p.wrong)
    return out
