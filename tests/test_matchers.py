"""Answer matchers cannot be gamed: negations, hedges, alternatives and lists of candidates
score 0 for every matcher kind, and through the env for every information-retrieval task,
while sensible right answers (the bare value, a short sentence stating it) still pass."""

from __future__ import annotations

import datetime as dt
from typing import Any

import gymnasium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import phoneworld_gym
from phoneworld_gym import Action
from phoneworld_gym.matchers import (
    DateMatch,
    Expected,
    ListMatch,
    Matcher,
    NumberMatch,
    PhoneMatch,
    StringMatch,
    TimeMatch,
    answer_text,
    attacks,
    is_evasive,
    normalize,
)

STATUSES = ["Processing", "Shipped", "Delivered", "Cancelled", "Return requested"]
NAMES = ["Ava Chen", "Ava Patel", "Marcus Chen", "Zoë Müller", "Liam O'Brien"]
OTHER_STATUSES = [s for s in STATUSES if s != "Shipped"]
OTHER_NAMES = [n for n in NAMES if n != "Ava Chen"]

# -- right answers ---------------------------------------------------------------------------

#: (id, matcher, expected, right answers that must pass[, the goal they answer])
RIGHT: list[tuple[Any, ...]] = [
    ("status-contains", StringMatch(contains=True), "Shipped", [
        "Shipped", "shipped", "SHIPPED.", "The order status is Shipped.", "It's shipped",
        "It’s shipped!", "Status: Shipped", "Your order has been shipped.",
        "The status of my order is shipped", "It is currently Shipped",
    ]),
    ("status-candidates", StringMatch(contains=True, candidates=STATUSES), "Shipped", [
        "Shipped", "The order status is Shipped.", "Shipped · Arriving Mar 5 – Mar 7",
        "Order ORD-10255 has shipped", "It was shipped on March 2", "It's been shipped.",
    ]),
    ("status-per-episode", StringMatch(contains=True), Expected("Return requested", STATUSES), [
        "Return requested", "The status is 'Return requested'.", "return requested",
    ]),
    ("name-exact", StringMatch(), "Ava Chen",
     ["Ava Chen", "ava chen", "  AVA  CHEN ", "Ava Chen."]),
    ("name-accents", StringMatch(), "Zoë Müller", ["Zoe Muller", "ZOË MÜLLER", "zoe müller"]),
    ("name-contains", StringMatch(contains=True, candidates=NAMES), "Ava Chen", [
        "Ava Chen", "Her name is Ava Chen", "It's Ava Chen.", "That was sent to Ava Chen",
    ]),
    ("company", StringMatch(contains=True), "Acme Corp", [
        "Acme Corp", "She works at Acme Corp.", "Her company is ACME corp",
    ]),
    ("email", StringMatch(contains=True), "ava.chen@mail.com", [
        "ava.chen@mail.com", "Her email is ava.chen@mail.com",
        "Her email address is AVA.CHEN@MAIL.COM.", "It's ava.chen@mail.com",
    ]),
    ("email-exact", StringMatch(), "ava.chen@mail.com", ["ava.chen@mail.com", "Ava.Chen@Mail.com"]),
    ("phone", PhoneMatch(), "+1 415-555-0132", [
        "+1 415-555-0132", "415-555-0132", "(415) 555-0132", "4155550132", "14155550132",
        "+1 (415) 555-0132", "Her number is +1 415-555-0132.", "+1 415 555 0132",
        "Call 415.555.0132",
    ]),
    ("price", NumberMatch(tol=0.005), 23.99, [
        "23.99", "$23.99", "It's $23.99", "The price is $23.99.", "23.99 USD",
        "It costs $23.99 right now.", "$23.990",
    ]),
    ("count", NumberMatch(), 3, [
        "3", "There are 3 items in your cart.", "3.", "three", "You have three items.",
    ], "How many items are in my cart?"),
    ("count-favorites", NumberMatch(), 3, [
        "3", "You have 3 favorite contacts", "3 favorites",
    ], "How many favorite contacts do I have?"),
    # the review's natural sentences: the goal's own words (inflected) and its numbers
    ("spent-sentence", NumberMatch(tol=0.005), 62.64, [
        "You spent $62.64 at Chipotle in February 2026.", "$62.64", "62.64 dollars",
    ], "How much did I spend at Chipotle in February 2026?"),
    ("warmest-sentence", StringMatch(contains=True), "Sydney", [
        "Sydney will be the warmest.", "Sydney", "It will be warmest in Sydney tomorrow.",
    ], "Which of my saved cities will be warmest tomorrow?"),
    ("orders-sentence", ListMatch(), ["ORD-10267", "ORD-10268"], [
        "Orders ORD-10267, ORD-10268 are still on their way.", "ORD-10267 and ORD-10268",
    ], "Which of my orders are still on their way?"),
    ("eta-sentence", TimeMatch(), "10:55", [
        "Food comes at 10:55am", "10:55 AM", "It comes at 10:55.", "10:55:00",
    ], "When does my food come?"),
    ("negated-goal", StringMatch(contains=True), "ORD-10255", [
        "ORD-10255 has not shipped yet", "ORD-10255",
    ], "Which order has not shipped yet?"),
    ("big-count", NumberMatch(), 1250, ["1,250", "1250 ratings", "It has 1,250 customer ratings."],
     "How many customer ratings does it have?"),
    ("date", DateMatch(), dt.date(2026, 3, 3), [
        "2026-03-03", "3/3/2026", "03/03/2026", "March 3, 2026", "Mar 3, 2026", "Mar. 3, 2026",
        "Tue, Mar 3, 2026", "Tuesday, March 3, 2026", "3 March 2026", "March 3rd, 2026",
        "It was delivered on March 3, 2026", "You ordered it on Mar. 3, 2026.",
        "march 3 2026", "It was ordered on March 3, 2026 (3/3/2026).", "Mar 3, 2026, 6:09 AM",
        "March 3",
    ], "When did I order it, and when was it delivered?"),
    ("date-iso-expected", DateMatch(), "2026-03-03", ["March 3, 2026", "2026-03-03"]),
    ("time", TimeMatch(), "14:05", [
        "14:05", "2:05 PM", "2:05pm", "2:05 p.m.", "02:05 PM", "It's at 2:05 PM",
        "The alarm is set for 14:05.",
    ], "What time is my alarm set for?"),
    ("time-hour", TimeMatch(), dt.time(14, 0), ["2 PM", "2pm", "14:00", "at 2 p.m."]),
    ("list", ListMatch(), ["Voltra Pro Earbuds", "Lumen Desk Lamp"], [
        "Voltra Pro Earbuds, Lumen Desk Lamp", "Lumen Desk Lamp and Voltra Pro Earbuds",
        "voltra pro earbuds; lumen desk lamp", "Voltra Pro Earbuds\nLumen Desk Lamp",
        "Voltra Pro Earbuds & Lumen Desk Lamp",
    ]),
    ("list-item-with-and", ListMatch(), ["Salt and Pepper Mill", "Lumen Desk Lamp"], [
        "Salt and Pepper Mill, Lumen Desk Lamp", "Lumen Desk Lamp and Salt and Pepper Mill",
    ]),
    ("list-order-ids", ListMatch(), ["ORD-10255", "ORD-10256"], [
        "ORD-10256, ORD-10255", "ORD-10255 and ORD-10256", "ord-10255; ord-10256",
    ]),
    ("list-numbers", ListMatch(item=NumberMatch()), [12, 3.5], ["$3.50; 12", "12 and 3.5"]),
    ("list-empty", ListMatch(), [], ["", "None", "There are none."]),
]


@pytest.mark.parametrize("right", RIGHT, ids=[r[0] for r in RIGHT])
def test_right_answers_pass(right: tuple[Any, ...]) -> None:
    name, matcher, expected, answers = right[:4]
    goal = right[4] if len(right) > 4 else ""
    failed = [a for a in answers if not matcher.match(a, expected, goal)]
    assert not failed, f"{name}: right answers rejected: {failed}"


# -- attacks ---------------------------------------------------------------------------------

#: (id, matcher, expected, right text, plausible wrong values)
ATTACKED: list[tuple[str, Matcher, Any, str, list[str]]] = [
    ("status-contains", StringMatch(contains=True), "Shipped", "Shipped", OTHER_STATUSES),
    ("status-candidates", StringMatch(contains=True, candidates=STATUSES), "Shipped",
     "Shipped", OTHER_STATUSES),
    ("status-per-episode", StringMatch(contains=True), Expected("Shipped", STATUSES),
     "Shipped", OTHER_STATUSES),
    ("status-exact", StringMatch(), "Shipped", "Shipped", OTHER_STATUSES),
    ("return-requested", StringMatch(contains=True), "Return requested", "Return requested",
     ["Processing", "Shipped", "Delivered", "Cancelled"]),
    ("name-exact", StringMatch(), "Ava Chen", "Ava Chen", OTHER_NAMES),
    ("name-contains", StringMatch(contains=True), "Ava Chen", "Ava Chen", OTHER_NAMES),
    ("name-candidates", StringMatch(contains=True, candidates=NAMES), "Ava Chen", "Ava Chen",
     OTHER_NAMES),
    ("email", StringMatch(contains=True), "ava.chen@mail.com", "ava.chen@mail.com",
     ["ava.patel@mail.com", "marcus.chen@post.net"]),
    ("email-exact", StringMatch(), "ava.chen@mail.com", "ava.chen@mail.com",
     ["ava.patel@mail.com", "marcus.chen@post.net"]),
    ("phone", PhoneMatch(), "+1 415-555-0132", "+1 415-555-0132",
     ["+1 415-555-0199", "(650) 555-0100"]),
    ("phone-bare", PhoneMatch(), "+1 415-555-0132", "415-555-0132", ["415-555-0199"]),
    ("price", NumberMatch(tol=0.005), 23.99, "$23.99", ["$24.99", "$19.99"]),
    ("price-bare", NumberMatch(tol=0.005), 23.99, "23.99", ["24.99"]),
    ("count", NumberMatch(), 3, "3", ["2", "4"]),
    ("date", DateMatch(), dt.date(2026, 3, 3), "March 3, 2026",
     ["March 4, 2026", "February 28, 2026"]),
    ("date-iso", DateMatch(), "2026-03-03", "2026-03-03", ["2026-03-04"]),
    ("date-us", DateMatch(), "2026-03-03", "3/3/2026", ["3/4/2026"]),
    ("time", TimeMatch(), "14:05", "14:05", ["15:05", "2:05 AM"]),
    ("time-12h", TimeMatch(), "14:05", "2:05 PM", ["3:05 PM"]),
    ("list", ListMatch(), ["Voltra Pro Earbuds", "Lumen Desk Lamp"],
     "Voltra Pro Earbuds, Lumen Desk Lamp", ["Aero Water Bottle", "Nimbus Pillow"]),
    ("list-ids", ListMatch(), ["ORD-10255", "ORD-10256"], "ORD-10255, ORD-10256",
     ["ORD-10257"]),
]


@pytest.mark.parametrize("name, matcher, expected, right, others", ATTACKED,
                         ids=[a[0] for a in ATTACKED])
def test_attacks_fail(name: str, matcher: Matcher, expected: Any, right: str,
                      others: list[str]) -> None:
    assert matcher.match(right, expected), f"{name}: the right answer {right!r} fails"
    tried = attacks(right, others)
    assert len(tried) >= 50
    gamed = [a for a in tried if matcher.match(a, expected)]
    assert not gamed, f"{name}: {len(gamed)}/{len(tried)} attacks scored: {gamed}"


def test_attack_count() -> None:
    """Over all matcher kinds, many attacks are tried (and every one fails, see above)."""
    total = sum(len(attacks(right, others)) for _, _, _, right, others in ATTACKED)
    print(f"attacks tried over {len(ATTACKED)} matcher set-ups: {total}")
    assert total >= 1000
    kinds = {type(m).__name__ for _, m, *_ in ATTACKED}
    assert kinds == {"StringMatch", "NumberMatch", "DateMatch", "TimeMatch", "ListMatch",
                     "PhoneMatch"}


def test_attacks_shape() -> None:
    out = attacks("Shipped", OTHER_STATUSES)
    assert len(out) == len(set(out))
    assert "not Shipped" in out
    assert "Shipped or something else entirely" in out
    assert "Shipped Processing Delivered Cancelled Return requested" in out
    assert "Processing Shipped Delivered Cancelled Return requested" in out
    assert all("Shipped" in a for a in out)
    assert len(attacks("Shipped", [])) < len(out)


@pytest.mark.parametrize("answer", [
    "not Shipped", "it isn't Shipped", "Shipped? no", "never Shipped", "no Shipped",
    "maybe Shipped", "probably Shipped", "Shipped or Delivered", "either Shipped or Delivered",
    "Shipped, I think", "I'm not sure, Shipped", "Shipped/Delivered",
    "Processing Shipped Delivered Cancelled Return requested",
])
def test_review_examples(answer: str) -> None:
    """The answers from the review, against the order-status matcher as tasks use it today."""
    assert not StringMatch(contains=True).match(answer, "Shipped")
    assert not StringMatch(contains=True, candidates=STATUSES).match(answer, "Shipped")


@pytest.mark.parametrize("answer, evasive", [
    ("Shipped", False), ("The order status is Shipped.", False), ("It's $23.99", False),
    ("not Shipped", True), ("It isn’t Shipped", True), ("Shipped?", True),
    ("Shipped/Delivered", True), ("either", True), ("X, I think", True), ("nope", True),
    ("I'm pretty sure", True), ("give or take", True), ("dont know", True),
])
def test_is_evasive(answer: str, evasive: bool) -> None:
    assert (is_evasive(answer) is not None) is evasive


def test_value_words_are_no_evidence() -> None:
    """A value that itself holds a negation, hedge or '?' still matches when stated."""
    assert StringMatch().match("Not Another Co", "Not Another Co")
    assert StringMatch(contains=True).match("She works at Maybe Labs", "Maybe Labs")
    assert StringMatch().match("Jeopardy?", "Jeopardy?")
    assert not StringMatch(contains=True).match("not Not Another Co", "Not Another Co")
    assert not StringMatch(contains=True).match("Maybe Labs or Acme", "Maybe Labs")


def test_candidates_forms() -> None:
    """Candidates as a sequence, a callable of the expected value, or per episode."""
    by_callable = StringMatch(contains=True, candidates=lambda value: STATUSES)
    per_episode = StringMatch(contains=True)
    for m, e in ((by_callable, "Shipped"), (per_episode, Expected("Shipped", STATUSES))):
        assert m.match("Shipped, arriving Friday", e)
        assert not m.match("Shipped, then Delivered", e)
        assert not m.match("Shipped Delivered", e)
    # values outside the candidates (another episode's) still fail
    assert not per_episode.match("Stark Industries Umbrella Labs",
                                 Expected("Stark Industries", ["Stark Industries", "Initech"]))
    # numbers are context only when no value holds a digit
    ids = StringMatch(contains=True, candidates=["ORD-1", "ORD-2"])
    assert ids.match("It's ORD-1", "ORD-1")
    assert not ids.match("ORD-1 ORD-3", "ORD-1")
    # a candidate that holds the expected value is another value
    m = StringMatch(contains=True, candidates=["Acme Corp", "Acme Corp International"])
    assert m.match("Acme Corp International", "Acme Corp International")
    assert not m.match("Acme Corp International", "Acme Corp")
    assert str(Expected("Shipped", STATUSES)) == "Shipped"
    assert answer_text(Expected([dt.date(2026, 3, 3), "a"])) == "2026-03-03, a"


def test_single_value_rules() -> None:
    assert not NumberMatch().match("3 or 4", 3)
    assert not DateMatch().match("March 3, 2026 and March 4, 2026", "2026-03-03")
    assert not TimeMatch().match("14:05, 15:05", "14:05")
    assert not PhoneMatch().match("415-555-0132, 415-555-0199", "+1 415-555-0132")
    assert not ListMatch().match("Alice, Bob, Carol or Dave", ["Alice", "Bob", "Carol"])
    # the review's: a second date or a bare second time is a second value; the project's own
    # answer_text for 20:00 is a right answer
    assert not DateMatch().match("2026-03-14, 15 March", "2026-03-14")
    assert not TimeMatch().match("14:05, 1430", "14:05")
    assert TimeMatch().match(answer_text(dt.time(20, 0)), dt.time(20, 0))
    assert answer_text(dt.time(20, 0)) == "20:00:00"


# -- hypothesis: random strings of words -----------------------------------------------------

words = st.lists(st.from_regex(r"[A-Za-zÀ-ÖØ-öø-ÿ]{1,10}", fullmatch=True), min_size=1, max_size=4)


@settings(deadline=None)
@given(expected=words, other=words)
def test_random_strings_cannot_be_gamed(expected: list[str], other: list[str]) -> None:
    e, o = " ".join(expected), " ".join(other)
    for m in (StringMatch(), StringMatch(contains=True),
              StringMatch(contains=True, candidates=[e, o])):
        assert m.match(e, e)
        assert not m.match("not " + e, e)
        if normalize(o) != normalize(e):
            assert not m.match(e + " or " + o, e)


# -- every information-retrieval task, through the env ---------------------------------------

IR_TASKS = [t.id for t in phoneworld_gym.list_tasks(category="information-retrieval")]
SEEDS = (0, 1, 2)
#: seeds whose right answers (besides the attacked ones') serve as plausible wrong values
OTHER_SEEDS = (3, 4, 5)


def _oracle_answer(env: gymnasium.Env, task_id: str, seed: int) -> tuple[list[Action], str]:
    """The oracle's actions before its answer, and the answer's text. An oracle that yields
    no answer gives the formatted expected answer, and no actions (answered at once)."""
    env.reset(seed=seed, options={"task": task_id})
    prefix: list[Action] = []
    for action in env.unwrapped.oracle():  # type: ignore[attr-defined]
        if action.action_type == "answer":
            return prefix, action.text or ""
        _, _, term, trunc, _ = env.step(action)
        assert not (term or trunc), f"{task_id}: the oracle ended the episode before answering"
        prefix.append(action)
    env.reset(seed=seed, options={"task": task_id})
    u = env.unwrapped
    return [], answer_text(u.task.expected_answer(u.device))  # type: ignore[attr-defined]


def _near_miss_answer(env: gymnasium.Env, task_id: str, seed: int) -> str | None:
    """The text a task's near miss answers with, when it answers right away."""
    env.reset(seed=seed, options={"task": task_id})
    u = env.unwrapped
    first = next(iter(u.task.near_miss(u.device)), None)  # type: ignore[attr-defined]
    return first.text if first is not None and first.action_type == "answer" else None


def _score(env: gymnasium.Env, task_id: str, seed: int, prefix: list[Action], text: str
           ) -> float:
    env.reset(seed=seed, options={"task": task_id})
    for action in prefix:
        env.step(action)
    _, reward, term, _, _ = env.step(Action("answer", text=text))
    assert term, f"{task_id}: answering did not end the episode"
    return float(reward)


@pytest.mark.parametrize("task_id", IR_TASKS)
def test_task_answers_cannot_be_gamed(task_id: str, record_property: Any) -> None:
    """Through the env, after the oracle's own steps: the oracle's answer scores 1, and every
    attack built from it and other episodes' answers (plus the near miss's) scores 0."""
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        runs = {seed: _oracle_answer(env, task_id, seed) for seed in SEEDS}
        pool = [text for _, text in runs.values()]
        pool += [_oracle_answer(env, task_id, seed)[1] for seed in OTHER_SEEDS]
        pool += [t for seed in SEEDS if (t := _near_miss_answer(env, task_id, seed))]
        tried, gamed = 0, []
        for seed, (prefix, right) in runs.items():
            assert _score(env, task_id, seed, prefix, right) == 1.0, \
                f"{task_id} seed {seed}: the right answer {right!r} does not score"
            others = list(dict.fromkeys(t for t in pool if normalize(t) != normalize(right)))
            # one wrong value keeps the episode count (and the time) down, the matcher tests
            # above use more; the whole pool at once is thrown in as well
            universe = [*others[:1], right, *others[1:]]
            extra = [" ".join(universe), ", ".join(universe)] if others else []
            for attack in [*attacks(right, others[:1]), *extra]:
                tried += 1
                if _score(env, task_id, seed, prefix, attack) != 0.0:
                    gamed.append((seed, attack))
    finally:
        env.close()
    record_property("attacks", tried)
    print(f"{task_id}: {tried} attacks tried, {len(gamed)} scored")
    assert tried >= 100
    assert not gamed, f"{task_id}: {len(gamed)}/{tried} attacks scored, e.g. {gamed[:10]}"
