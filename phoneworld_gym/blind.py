"""Blind guessing: how much a policy that never looks at the phone scores.

A benchmark whose tasks a fixed guess wins measures luck, not skill. For each template this
plays three blind policies on seeded episodes, right after reset, through the task's own
``verify`` on the untouched phone:

- the **best constant answer** (information-retrieval tasks): the commonest expected answers
  over the seeds plus a few generic guesses (:data:`GENERIC_ANSWERS`), each scored on every
  seed; the one that wins most often is the template's figure;
- ``status infeasible`` as the first action;
- ``status complete`` as the first action.

``status infeasible`` wins every episode of an infeasible template by definition; what must
not happen is that the goal's words give it away. :func:`telltale_words` finds the words of an
infeasible template's wordings that no feasible wording uses ("ferry", "slow-motion"): a
policy that reads only the goal says ``infeasible`` exactly when one is there. Per category
(:func:`category_blind`) the "combined blind policy" reads the goal and nothing else: a
tell-tale word -> ``status infeasible``; a question -> the template's best constant answer;
anything else -> ``status complete``; its score is averaged the way the category env id
samples (each task equally). The constant policies (the same action on every goal of the
category) are reported beside it.

``examples/blind_guess.py`` runs every template on 100 seeds and writes the table into
``docs/TASKS.md``; ``tests/test_blind.py`` asserts the limits on a sample that fits CI.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, cast

from phoneworld_gym.contract import AgentReport
from phoneworld_gym.device import Device
from phoneworld_gym.matchers import answer_text, stem
from phoneworld_gym.task import Task, all_tasks, get_task

#: guesses every answer task is also scored on, whatever its answers look like
GENERIC_ANSWERS = ("0", "1", "2", "3", "none", "yes", "no")
#: how many of the commonest expected answers are tried as constant guesses
TOP_ANSWERS = 5
#: the limits the tests assert: per template, per category
TEMPLATE_LIMIT = 1 / 3
CATEGORY_LIMIT = 0.10


@dataclasses.dataclass(frozen=True)
class TemplateBlind:
    """The blind policies' wins on one template over ``seeds`` seeded episodes."""

    task: str
    category: str
    kind: str  #: "answer", "action" or "infeasible"
    seeds: int
    answer: str  #: the best constant answer ("" for tasks that take no answer)
    answer_wins: int
    infeasible_wins: int
    complete_wins: int
    telltale: tuple[str, ...]  #: words only infeasible wordings use (infeasible tasks)
    #: share of the task's wordings that hold a tell-tale word
    telltale_share: float
    #: every constant answer tried -> its wins
    tried: dict[str, int] = dataclasses.field(default_factory=dict)
    #: the word stems of the goals played (every wording, filled with each seed's params)
    goal_words: frozenset[str] = frozenset()

    @property
    def answer_rate(self) -> float:
        return self.answer_wins / self.seeds

    @property
    def complete_rate(self) -> float:
        return self.complete_wins / self.seeds

    @property
    def infeasible_rate(self) -> float:
        return self.infeasible_wins / self.seeds

    def blind_max(self) -> tuple[str, float]:
        """The best guess that is not the task's own right move: the constant answer and
        ``status complete`` on every template; ``status infeasible`` on feasible ones; on an
        infeasible template, ``status infeasible`` as far as its words give it away
        (:attr:`telltale_share`), since saying it there is right by design."""
        options = [(f"answer {self.answer!r}", self.answer_rate),
                   ("status complete", self.complete_rate)]
        if self.kind == "infeasible":
            options.append(("infeasible on a tell-tale word", self.telltale_share))
        else:
            options.append(("status infeasible", self.infeasible_rate))
        return max(options, key=lambda o: o[1])

    def reader_rate(self) -> float:
        """What the goal-reading blind policy wins on this template (see the module doc)."""
        if self.kind == "infeasible":
            return self.telltale_share
        return self.answer_rate if self.kind == "answer" else self.complete_rate


def _kind(cls: type[Task]) -> str:
    if not cls.feasible:
        return "infeasible"
    return "answer" if cls.answer_matcher is not None else "action"


_WORD = re.compile(r"[a-z][a-z0-9'-]*[a-z0-9]|[a-z]")


def wording_words(wording: str) -> set[str]:
    """The stems of a wording's own words (placeholders left out), the words that are the
    same on every seed: a guesser keys on those."""
    text = re.sub(r"\{[^}]*\}", " ", wording.lower())
    return {stem(w) for w in _WORD.findall(text)}


def _wordings(cls: type[Task]) -> tuple[str, ...]:
    return (cls.template, *cls.paraphrases.get("train", ()), *cls.paraphrases.get("test", ()))


def feasible_vocabulary(results: Iterable[TemplateBlind] = ()) -> set[str]:
    """Every word stem some feasible task's wording uses, and every word of the feasible
    goals in ``results`` (a day name a feasible goal fills in is no tell-tale)."""
    vocab: set[str] = set()
    for cls in all_tasks().values():
        if cls.feasible:
            for w in _wordings(cls):
                vocab |= wording_words(w)
    for r in results:
        if r.kind != "infeasible":
            vocab |= r.goal_words
    return vocab


def with_telltales(results: dict[str, TemplateBlind]) -> dict[str, TemplateBlind]:
    """``results`` with the infeasible templates' tell-tale words found against the
    vocabulary of every feasible wording and every feasible goal played."""
    vocab = feasible_vocabulary(results.values())
    out = {}
    for tid, r in results.items():
        words, share = telltale_words(tid, vocab)
        out[tid] = dataclasses.replace(r, telltale=words, telltale_share=share)
    return out


def telltale_words(task_id: str, vocab: set[str] | None = None) -> tuple[tuple[str, ...], float]:
    """(the tell-tale word stems of an infeasible task's wordings, the share of its wordings
    that hold one). Feasible tasks have none."""
    cls = get_task(task_id)
    if cls.feasible:
        return (), 0.0
    vocab = feasible_vocabulary() if vocab is None else vocab
    words = [wording_words(w) - vocab for w in _wordings(cls)]
    found = sorted(set().union(*words))
    return tuple(found), sum(1 for w in words if w) / len(words)


def _report(status: str, answer: str | None = None) -> AgentReport:
    return AgentReport(status=status, answer=answer)


def template_blind(task_id: str, seeds: Sequence[int] | range,
                   vocab: set[str] | None = None) -> TemplateBlind:
    """Play the three blind policies on ``task_id`` for each seed, right after
    ``PhoneEnv.reset(seed=...)``. Its tell-tale words are found against ``vocab`` (default:
    the feasible wordings); :func:`with_telltales` finds them again once the feasible goals
    are known.

    The two status policies go through ``task.verify`` on the untouched phone. Answers are
    scored through the task's matcher against the seed's expected answer and goal, which is
    what ``verify`` does on an untouched phone once it has found no damage; the first
    candidate is also played through ``verify`` on every seed to hold the two paths equal.
    """
    from phoneworld_gym.env import PhoneEnv

    cls = get_task(task_id)
    kind = _kind(cls)
    env = PhoneEnv(tasks=task_id, obs_mode="a11y")
    infeasible_wins = complete_wins = 0
    episodes: list[tuple[Any, str]] = []
    goal_words: set[str] = set()
    try:
        for seed in seeds:
            env.reset(seed=seed)
            task = env.task
            assert task is not None
            device = cast(Device, env.task_device)
            for wording in _wordings(cls):
                goal_words |= {stem(w) for w in _WORD.findall(
                    wording.format(**task.params).lower())}
            infeasible_wins += task.verify(device, _report("infeasible")) >= 1.0
            complete_wins += task.verify(device, _report("complete")) >= 1.0
            if kind == "answer":
                want = task.expected_answer(device)
                ok = task.verify(device, _report("complete", GENERIC_ANSWERS[0])) >= 1.0
                assert cls.answer_matcher is not None
                if ok != cls.answer_matcher.match(GENERIC_ANSWERS[0], want, task.goal):
                    raise AssertionError(f"{task_id} seed {seed}: verify and the matcher "
                                         f"disagree on {GENERIC_ANSWERS[0]!r}")
                episodes.append((want, task.goal))
    finally:
        env.close()
    best, best_wins = "", 0
    tried: dict[str, int] = {}
    if kind == "answer":
        assert cls.answer_matcher is not None
        texts = Counter(answer_text(want) for want, _ in episodes)
        candidates = [t for t, _ in texts.most_common(TOP_ANSWERS)]
        candidates += [g for g in GENERIC_ANSWERS if g not in candidates]
        for cand in candidates:
            wins = sum(cls.answer_matcher.match(cand, want, goal) for want, goal in episodes)
            tried[cand] = wins
            if wins > best_wins:
                best, best_wins = cand, wins
    words, share = telltale_words(task_id, vocab)
    return TemplateBlind(task_id, cls.category, kind, len(seeds), best, best_wins,
                         int(infeasible_wins), int(complete_wins), words, share, tried,
                         frozenset(goal_words))


@dataclasses.dataclass(frozen=True)
class CategoryBlind:
    """Blind policies on a category env id, which samples each of its tasks equally."""

    env_id: str
    tasks: int
    reader: float  #: the goal-reading combined blind policy (see the module doc)
    infeasible: float  #: ``status infeasible`` on every goal
    complete: float  #: ``status complete`` on every goal
    answer: str  #: the best single answer for every goal of the category
    answer_rate: float

    def constant_max(self) -> tuple[str, float]:
        """The best constant policy (the same action on every goal)."""
        return max([("status infeasible", self.infeasible), ("status complete", self.complete),
                    (f"answer {self.answer!r}", self.answer_rate)], key=lambda o: o[1])


def category_envs() -> dict[str, list[str]]:
    """Each category or app env id (``PhoneWorld/<Category>-v0``, ``PhoneWorld/<App>-v0``,
    ``PhoneWorld/All-v0``) -> the task ids it samples, from the registration."""
    from phoneworld_gym.env import select_tasks
    from phoneworld_gym.registration import env_ids

    out = {}
    for env_id, kwargs in env_ids().items():
        if "tasks" in kwargs:
            continue
        out[env_id] = select_tasks(**cast(dict[str, Any], kwargs))
    return out


def category_blind(env_id: str, task_ids: Sequence[str],
                   results: dict[str, TemplateBlind]) -> CategoryBlind:
    """The blind policies' expected win rate on an env id that samples ``task_ids``
    equally, from the per-template results (each task's rate is over its own seeds)."""
    rows = [results[t] for t in task_ids]
    n = len(rows)
    # one answer for every goal: the generic guesses were tried on every answer template;
    # a template's own commonest answers count where they were tried (elsewhere 0, so this
    # is a lower bound for them)
    pool = {c for r in rows for c in r.tried}
    rate = {c: sum(r.tried.get(c, 0) / r.seeds for r in rows) / n for c in pool}
    best_answer = max(sorted(rate), key=lambda c: rate[c], default="")
    return CategoryBlind(env_id, n,
                         reader=sum(r.reader_rate() for r in rows) / n,
                         infeasible=sum(r.infeasible_rate for r in rows) / n,
                         complete=sum(r.complete_rate for r in rows) / n,
                         answer=best_answer, answer_rate=rate.get(best_answer, 0.0))


#: the heading of the section ``examples/blind_guess.py`` keeps at the end of docs/TASKS.md
BLIND_HEADING = "## Blind guessing"


def split_blind_section(doc: str) -> tuple[str, str]:
    """(the catalogue, the blind-guessing section or "") of docs/TASKS.md: the section is
    last, so the catalogue (``examples/catalogue.py``) and the sweep each rewrite only their
    own part."""
    at = doc.find("\n" + BLIND_HEADING + "\n")
    return (doc, "") if at < 0 else (doc[:at].rstrip("\n") + "\n", doc[at + 1:])


def with_blind_section(doc: str, section: str) -> str:
    """``doc`` with its blind-guessing section replaced by ``section`` (or added)."""
    catalogue, _ = split_blind_section(doc)
    return catalogue.rstrip("\n") + "\n\n" + section.strip("\n") + "\n"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def blind_markdown(results: dict[str, TemplateBlind], categories: dict[str, CategoryBlind],
                   seeds: int) -> str:
    """The blind-guessing section of docs/TASKS.md."""
    over = sum(r.blind_max()[1] > TEMPLATE_LIMIT for r in results.values())
    lines = [BLIND_HEADING, "",
             f"Generated by `python examples/blind_guess.py` ({seeds} seeds per template; "
             "`phoneworld_gym/blind.py` says how). A blind policy never looks at the phone: "
             "the best constant answer, `status infeasible` first, `status complete` first. "
             "On an infeasible template `status infeasible` is the right move, so there the "
             "figure is the share of its wordings holding a word no feasible wording uses "
             f"(a tell-tale). Limits: {_pct(TEMPLATE_LIMIT)} per template, "
             f"{_pct(CATEGORY_LIMIT)} per category for the goal-reading policy (tell-tale -> "
             "infeasible, question -> the template's best constant answer, else complete). "
             "The best constant policy per env id is shown beside it: always `status "
             "infeasible` wins the env id's share of infeasible tasks, which is over 10% "
             "wherever more than one task in ten is infeasible. "
             f"{over} of {len(results)} templates are over the limit.", "",
             "| env id | goal-reading policy | best constant policy | its win rate |",
             "|---|---:|---|---:|"]
    for c in categories.values():
        policy, rate = c.constant_max()
        lines.append(f"| `{c.env_id}` | {_pct(c.reader)} | {policy} | {_pct(rate)} |")
    lines += ["", "Per template, the best blind policy (ties: the first listed):", "",
              "| task | kind | best blind policy | wins | tell-tale words |",
              "|---|---|---|---:|---|"]
    for r in sorted(results.values(), key=lambda r: (-r.blind_max()[1], r.task)):
        policy, rate = r.blind_max()
        words = ", ".join(r.telltale)
        lines.append(f"| {r.task} | {r.kind} | {policy.replace('|', '/')} | {_pct(rate)} "
                     f"| {words} |")
    return "\n".join(lines) + "\n"
