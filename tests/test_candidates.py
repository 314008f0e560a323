"""The answer candidates of constrained decoding: the values read off a screen's texts
(:func:`~phoneworld_gym.baselines.prompt.screen_values`), and that they let a constrained
agent answer every information-retrieval task whose answer can be read off one text."""

from __future__ import annotations

from typing import Any

import gymnasium
from hypothesis import given
from hypothesis import strategies as st

import phoneworld_gym  # noqa: F401  (registers the envs)
from phoneworld_gym.baselines.lm_agent import launcher_apps
from phoneworld_gym.baselines.prompt import (
    ANSWER_NUMBERS,
    MAX_LABEL,
    MAX_VALUES,
    candidate_actions,
    screen_values,
)
from phoneworld_gym.contract import Action, AgentReport, UIElement

#: Information-retrieval tasks whose answer is computed, not read off one text, so no answer
#: candidate can hold it; task -> why. (Each must stay out of reach: see the test.)
COMPUTED = {
    "RidesMonthSpend": "a sum of the month's fares over the rows of the trip list",
    "NotesUncheckedItems": "a list of the unchecked rows of a checklist, one row each",
    "ShoppingOpenOrders": "a list of the order numbers of the rows not yet delivered",
    "CalendarWhoIsInvited": "a list of the guests, one row each (reachable with one guest)",
}
SEEDS = (0, 1)


def _accepted(env: gymnasium.Env, answers: list[str]) -> list[str]:
    """The answers the task's verifier accepts in the env's current state: the very call
    ``env.step`` makes for an ``answer`` action (an answer does not touch the device, so
    asking for each one leaves the state as it was)."""
    u: Any = env.unwrapped
    return [a for a in answers
            if u.task.verify(u.task_device, AgentReport(status="complete", answer=a)) >= 1.0]


def test_some_answer_candidate_is_accepted_at_the_oracles_answer_screen() -> None:
    """For every information-retrieval task (seeds 0 and 1), on the screen where the oracle
    answers, some ``answer`` candidate scores success when stepped; the tasks of
    :data:`COMPUTED` are the only exceptions, and each of them really is out of reach on some
    seed (so the list cannot go stale)."""
    apps = launcher_apps()
    env = gymnasium.make("PhoneWorld/InfoRetrieval-v0", obs_mode="a11y")
    u: Any = env.unwrapped
    missed: dict[str, list[int]] = {}
    try:
        assert set(COMPUTED) <= set(u.task_ids)
        for task in u.task_ids:
            for seed in SEEDS:
                obs, _ = env.reset(seed=seed, options={"task": task})
                for action in u.oracle():
                    if action.action_type == "answer":
                        break
                    obs, _, term, trunc, _ = env.step(action)
                    assert not (term or trunc), (task, seed, action)
                else:
                    raise AssertionError(f"{task}: the oracle never answers")
                answers = [a.text for a in candidate_actions(obs["goal"], obs["a11y"], apps=apps)
                           if a.action_type == "answer"]
                ok = _accepted(env, answers)
                if not ok:
                    missed.setdefault(task, []).append(seed)
                    # the verifier is not simply refusing everything: the oracle's answer passes
                    step = action
                else:
                    step = Action("answer", text=ok[0])
                _, reward, term, _, info = env.step(step)
                assert term and info["success"] and reward == 1.0, (task, seed, step)
    finally:
        env.close()
    assert set(missed) <= set(COMPUTED), {t: s for t, s in missed.items() if t not in COMPUTED}
    assert set(COMPUTED) <= set(missed), f"reachable now, drop from COMPUTED: " \
        f"{sorted(set(COMPUTED) - set(missed))}"


# -- the values inside texts ---------------------------------------------------------------
def test_times() -> None:
    got = screen_values(["Wednesday: 10:00 AM – 8:00 PM", "Monday 6 AM–4 PM", "Departs 14:05",
                         "Pickup at 8:45 PM"])
    assert {"10:00 AM", "8:00 PM", "6 AM", "4 PM", "14:05", "8:45 PM"} <= set(got)
    assert "10:00" not in got and "00" not in got  # a 12-hour time stays whole


def test_dates() -> None:
    got = screen_values(["Tuesday, March 24, 2026\n1:00 PM – 1:30 PM", "Expected Thu, Mar 19",
                         "Placed on February 10, 2026", "Mar 13, 11:05 PM",
                         "Modified 2026-03-08", "IMG_20260308_130304.jpg"])
    assert {"Tuesday, March 24, 2026", "1:00 PM", "Thu, Mar 19", "February 10, 2026",
            "Mar 13", "11:05 PM", "2026-03-08", "March 8, 2026"} <= set(got)
    assert "Mar 13, 11" not in got
    assert not any("2026" in v for v in screen_values(["IMG_20261399_000000.jpg"]))


def test_money() -> None:
    got = screen_values(["Add to cart · $14.50", "Total $66.04", "Large (+$2.50)", "$80.25"])
    assert {"$14.50", "14.50", "$66.04", "66.04", "$2.50", "2.50", "$80.25", "80.25"} <= set(got)


def test_numbers_with_and_without_units() -> None:
    got = screen_values(["(3.0 mi)", "3.4 kB (1,061 bytes)", "500 g shrimp", "4.6 (2,278)",
                         "Tomorrow 1:15 PM, 37 seats left", "After 30 seconds of inactivity"])
    assert {"3.0 mi", "3.0", "1,061 bytes", "1,061", "500 g", "500", "2,278", "37 seats", "37",
            "30 seconds"} <= set(got)
    assert "15" not in got and "1" not in got  # the parts of a time are no numbers


def test_codes_and_labelled_values_and_parts() -> None:
    got = screen_values(["A-347 · Small Latte", "ORD-10290 · February 10, 2026 · $203.98",
                         "Tracking PW173402487", "Status: Delivered", "Password: juniper-7760",
                         "Shipped · Arriving Sun, Mar 15 – Tue, Mar 17", "Delivered Wed, Mar 4"])
    assert {"A-347", "Small Latte", "ORD-10290", "February 10, 2026", "PW173402487",
            "Delivered", "juniper-7760", "Shipped", "Sun, Mar 15"} <= set(got)


def test_values_are_unique_short_and_capped() -> None:
    got = screen_values(["$5.00", "$5.00 · $5.00", "5.00", "x" * 200 + " · 7 mi"])
    assert got == ["$5.00", "5.00", "7 mi", "7"]  # each once; the 200 x's are too long
    assert screen_values(["x" * 1000 + " 7 mi"]) == []  # only a text's head is read
    many = screen_values([f"Item {i}: ${i}.99 · {i} km · ORD-{i:05d}" for i in range(1000)])
    assert len(many) == MAX_VALUES
    assert len(screen_values(["1 " * 100_000, "9:" * 100_000, "$" * 100_000])) <= MAX_VALUES
    assert screen_values([]) == [] and screen_values(["", "Settings"]) == []


@given(st.lists(st.text(max_size=300), max_size=30))
def test_any_texts_give_few_unique_short_values(texts: list[str]) -> None:
    got = screen_values(texts)
    assert len(got) == len(set(got)) <= MAX_VALUES
    assert all(v and len(v) <= MAX_LABEL for v in got)


def test_candidate_actions_offer_the_values_of_texts_and_descriptions() -> None:
    screen = [UIElement(text="Add to cart · $12.45", is_clickable=True),
              UIElement(text="1:15 PM · $9.00",
                        content_description="Tomorrow 1:15 PM, 37 seats left")]
    answers = [a.text for a in candidate_actions("How many seats are left?", screen)
               if a.action_type == "answer"]
    assert {"Add to cart · $12.45", "12.45", "$12.45", "1:15 PM", "37 seats", "37"} <= \
        set(answers)
    assert len(answers) == len(set(answers))
    # a hostile screen: 500 number texts add at most MAX_VALUES answers to the texts
    flood = [UIElement(text=f"{i}.5 mi") for i in range(500)]
    n = sum(a.action_type == "answer" for a in candidate_actions("Go", flood))
    assert n <= len(flood) + len(ANSWER_NUMBERS) + 2 + MAX_VALUES
