"""The review's examples, through ``env.step`` on the tasks they came from: wrong episodes
score 0 and right ones 1, as a person would judge them."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from phoneworld_gym import Action
from phoneworld_gym.env import PhoneEnv


def _episode(task_id: str, seed: int = 0, typed: Callable[[str], str] | None = None,
             answer: Callable[[str, PhoneEnv], str] | None = None) -> float:
    """The oracle's episode, with its typed texts rewritten by ``typed`` and its final answer
    by ``answer(right, env)``; the reward."""
    env = PhoneEnv(tasks=task_id, obs_mode="a11y", max_steps=500)
    try:
        env.reset(seed=seed)
        for a in env.oracle():
            if a.action_type == "input_text" and typed is not None:
                a = Action("input_text", index=a.index, text=typed(a.text or ""),
                           clear_text=a.clear_text)
            if a.action_type == "answer" and answer is not None:
                a = Action("answer", text=answer(a.text or "", env))
            _, reward, term, trunc, info = env.step(a)
            assert not info["action_error"], info["action_error"]
            if term or trunc:
                return float(reward)
    finally:
        env.close()
    raise AssertionError("the oracle gave no final report")


# -- texts a person sends ----------------------------------------------------------------------
def _food(body: Callable[[str], str]) -> Callable[[str], str]:
    return lambda t: body(t.split(" at ", 1)[1]) if t.startswith("Ordered!") else t


@pytest.mark.parametrize("body, want", [
    (lambda eta: f"Ordered! The food arrives at {eta}", 1.0),
    (lambda eta: f"Ordered! The food arrives at {eta}, can't wait!", 1.0),
    (lambda eta: f"Food comes at {eta.replace(' ', '').lower()}. Let me know if you want a lift",
     1.0),
    (lambda eta: f"The food will NOT arrive at {eta}", 0.0),
    (lambda eta: f"Maybe {eta}, not sure", 0.0),
    (lambda eta: f"Ordered! Arrives at {eta}... just kidding", 0.0),
])
def test_the_lunch_text(body: Callable[[str], str], want: float) -> None:
    assert _episode("LongHorizonFoodGroupLunch", typed=_food(body)) == want


def _locations(seed: int = 0) -> tuple[str, list[str]]:
    env = PhoneEnv(tasks="CrossAppTextEventLocation", obs_mode="a11y")
    try:
        env.reset(seed=seed)
        rows = env.task_device.probe.query("calendar")
        mine = next(r for r in rows if r["_id"] == env.task.params["id"])["eventLocation"]
        return mine, sorted({r["eventLocation"] for r in rows
                             if r["eventLocation"] and r["eventLocation"] != mine})
    finally:
        env.close()


ABBR = {"Avenue": "Ave", "Street": "St", "Road": "Rd"}


def test_the_location_text() -> None:
    where, others = _locations()
    assert len(others) >= 2
    street = where.split(",")[0]

    def said(body: str) -> Callable[[str], str]:
        return lambda t: body if t == where else t

    assert _episode("CrossAppTextEventLocation", typed=said(where)) == 1.0
    assert _episode("CrossAppTextEventLocation", typed=said(
        f"It's at {re.sub(r'Avenue|Street|Road', lambda m: ABBR[m.group()], street)}. "
        "Let me know if you want a lift")) == 1.0
    assert _episode("CrossAppTextEventLocation",
                    typed=said("; ".join([*others, where]))) == 0.0  # every location
    assert _episode("CrossAppTextEventLocation",
                    typed=said(f"Either {where} or {others[0]}, not sure")) == 0.0


def test_the_pickup_text_may_name_the_start_too() -> None:
    def also_start(t: str) -> str:
        return t + " The show itself starts 30 minutes later." if t.startswith("My ride") else t

    def hedged(t: str) -> str:
        return t.replace("picks me up at", "might pick me up at") \
            if t.startswith("My ride") else t

    assert _episode("LongHorizonEventRide", typed=also_start) == 1.0
    assert _episode("LongHorizonEventRide", typed=hedged) == 0.0


# -- answers ---------------------------------------------------------------------------------
@pytest.mark.parametrize("form", [
    "I doubt it is {}", "close to {}", "over {}", "{} max", "{}, four, five", "{} lol jk",
    "about {}", "{} or so",
])
def test_count_answers_that_do_not_say_it(form: str) -> None:
    assert _episode("ChatCountUnread", answer=lambda right, env: form.format(right)) == 0.0


@pytest.mark.parametrize("task_id, form", [
    ("ChatCountUnread", lambda right, env: f"You have {right} unread messages in Chat."),
    ("BankSpentAtMerchant", lambda right, env: re.sub(
        r"How much did I spend at (.*) in (.*)\?", rf"You spent {right} at \1 in \2.",
        env.task.goal)),
    ("WeatherWarmestOf", lambda right, env: f"{right} will be the warmest."),
    ("ShoppingOpenOrders", lambda right, env: f"Orders {right} are still on their way."),
    ("FoodOrderEta", lambda right, env: f"Food arrives at {right.replace(' ', '').lower()}"),
])
def test_natural_sentences_pass(task_id: str, form: Callable[[str, PhoneEnv], str]) -> None:
    assert _episode(task_id, answer=form) == 1.0


def test_a_second_candidate_fails() -> None:
    def both(right: str, env: PhoneEnv) -> str:
        cities = re.findall(r"[A-Z][a-z]+", env.task.goal.split(":", 1)[1])
        other = next(c for c in cities if c != right)
        return f"{right} or {other}"

    assert _episode("WeatherWarmestOf", answer=both) == 0.0
