"""No free wins by guessing: blind policies (the best constant answer, ``status infeasible``
first, ``status complete`` first) stay under the limits on every template and category.

CI plays a fixed sample that fits its time (every answer template on 15 seeds, every other
template on 2: a status first wins a feasible action task only if its goal already holds,
which no seed may allow); ``examples/blind_guess.py`` plays every template on 100 seeds.
"""

from __future__ import annotations

import pytest

from phoneworld_gym.blind import (
    CATEGORY_LIMIT,
    GENERIC_ANSWERS,
    TEMPLATE_LIMIT,
    TemplateBlind,
    blind_markdown,
    category_blind,
    category_envs,
    feasible_vocabulary,
    split_blind_section,
    telltale_words,
    template_blind,
    with_blind_section,
    with_telltales,
)
from phoneworld_gym.registration import CATEGORY_IDS
from phoneworld_gym.task import all_tasks

ANSWER_SEEDS = range(15)
OTHER_SEEDS = range(2)

#: templates still over the limit on the CI sample, not fixed yet (docs/TASKS.md, "Blind
#: guessing", has their figures over 100 seeds); the test fails when one is fixed and not
#: removed here, or when a new one appears. The infeasible ones: their wordings hold a word
#: no feasible goal uses (a feasible twin with that word, as RidesBookOnlyType,
#: FoodOrderNow, BillsPayToward, CoffeeSyrup, BikeRideEbike, EmailUnsendScheduled,
#: CameraSlowMotionRecord, FilesMoveToSdCardIn, GalleryApplyFilterOffered and
#: MusicDownloadPlaylistPremium are, is the fix).
#: BrowserRecipeCount and SettingsTimeoutQuery: one answer is right on 6 of these 15
#: seeds, on 32 and 19 of 100 (the sweep), so under the limit there;
#: FitnessSyncWatch and SplitUnevenInfeasible: over 100 seeds feasible goals fill in their
#: words ("Double", a Food size), on the two seeds played here they do not.
KNOWN_OVER: frozenset[str] = frozenset({
    "FitnessSyncWatch", "SplitUnevenInfeasible", "BrowserRecipeCount", "SettingsTimeoutQuery",
})
#: category env ids whose goal-reading policy is still over 10% on the CI sample (the
#: templates above are why)
KNOWN_CATEGORY_OVER: frozenset[str] = frozenset({"PhoneWorld/InfoRetrieval-v0"})


@pytest.fixture(scope="module")
def sample() -> dict[str, TemplateBlind]:
    vocab = feasible_vocabulary()
    return with_telltales({
        tid: template_blind(tid, ANSWER_SEEDS if cls.answer_matcher else OTHER_SEEDS, vocab)
        for tid, cls in all_tasks().items()})


def test_no_template_is_won_by_a_blind_guess(sample):
    over = {t: r.blind_max() for t, r in sample.items() if r.blind_max()[1] > TEMPLATE_LIMIT}
    new = {t: v for t, v in over.items() if t not in KNOWN_OVER}
    assert not new, f"blind guesses win over 1/3 of seeds: {new}"
    fixed = KNOWN_OVER - set(over)
    assert not fixed, f"no longer over the limit, remove from KNOWN_OVER: {sorted(fixed)}"


def test_no_category_is_won_by_the_goal_reading_policy(sample):
    envs = category_envs()
    ids = ["PhoneWorld/All-v0", *(f"PhoneWorld/{n}-v0" for n in CATEGORY_IDS.values())]
    over = {}
    for env_id in ids:
        c = category_blind(env_id, envs[env_id], sample)
        if c.reader > CATEGORY_LIMIT:
            over[env_id] = round(c.reader, 3)
    new = {e: v for e, v in over.items() if e not in KNOWN_CATEGORY_OVER}
    assert not new, f"the goal-reading blind policy wins over 10%: {new}"
    assert not KNOWN_CATEGORY_OVER - set(over), "remove fixed ids from KNOWN_CATEGORY_OVER"


def test_a_status_first_never_wins_a_feasible_task(sample):
    # a feasible goal that already holds, or a task that takes a shrug as done
    won = {t: (r.infeasible_wins, r.complete_wins) for t, r in sample.items()
           if r.kind != "infeasible" and (r.infeasible_wins or r.complete_wins)}
    assert not won, won
    # and `status infeasible` is the right move on every infeasible template
    assert all(r.infeasible_wins == r.seeds for r in sample.values() if r.kind == "infeasible")


def test_best_constant_answer_is_the_commonest_right_answer():
    # a template whose answer is drawn from a handful of values: the commonest wins most,
    # and the count is what verify says on each seed
    r = template_blind("ChatCountUnread", range(6))
    assert r.kind == "answer" and r.answer and set(GENERIC_ANSWERS) <= set(r.tried)
    assert r.answer_wins == max(r.tried.values()) and 0 < r.answer_wins <= 6
    assert r.infeasible_wins == 0 and r.complete_wins == 0


def test_telltale_words_are_words_no_feasible_goal_uses(sample):
    vocab = feasible_vocabulary(sample.values())
    assert vocab > feasible_vocabulary()  # the goals add the words their params fill in
    for tid, r in sample.items():
        if r.kind != "infeasible":
            assert r.telltale == () and r.telltale_share == 0.0
            assert r.goal_words <= vocab
        assert not set(r.telltale) & vocab and 0.0 <= r.telltale_share <= 1.0
        assert (r.telltale_share > 0) == bool(r.telltale), tid
        assert (r.telltale, r.telltale_share) == telltale_words(tid, vocab)
    # a wording's own word that no feasible goal holds is one ("import" until a twin has it;
    # "syrup" and "unsend" were ones until CoffeeSyrup and EmailUnsendScheduled); one a
    # feasible goal fills in is not ("Ferry Terminal", a drop-off of Rides)
    words, share = telltale_words("FitnessSyncWatch", vocab)
    assert "import" in words and share > 0
    assert not telltale_words("CoffeeSyrupInfeasible", vocab)[0]
    assert not telltale_words("EmailUnsend", vocab)[0]
    assert "ferry" in vocab and "ferry" not in telltale_words("MapsFerryDirections", vocab)[0]


def test_blind_section_replaces_itself_and_leaves_the_catalogue(sample):
    few = {t: sample[t] for t in list(sample)[:3]}
    section = blind_markdown(few, {}, 15)
    doc = "# Task catalogue\n\n| a |\n"
    once = with_blind_section(doc, section)
    twice = with_blind_section(once, section)
    assert once == twice and split_blind_section(once) == (doc, section)
    for t in few:
        assert f"| {t} |" in section
