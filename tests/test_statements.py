"""What a person writes is judged by what it states: the review's examples, friendly texts that
must pass, and the ways of mentioning a fact without stating it that must fail."""

from __future__ import annotations

import datetime as dt

import pytest

from phoneworld_gym.statements import (
    false_statements,
    statement_failure,
    states,
    true_statements,
)
from phoneworld_gym.validators import Diff, added

ETA = dt.time(10, 55)
LOCATIONS = ["250 Maple Street", "17 Oak Avenue, Springfield", "Central Park Pavilion"]


@pytest.mark.parametrize("body", [
    "Ordered! The food arrives at 10:55am, can't wait!",
    "Food comes at 10:55 AM",
    "ETA 10:55 a.m.",
    "The food arrives at 10:55. Let me know if you want a lift",
    "Dinner starts at 7:00 PM and the food lands at 10:55 AM",  # a time the task never names
    "See you at 10:55! No worries if you're late",
])
def test_friendly_texts_state_the_time(body: str) -> None:
    assert statement_failure(body, ETA, "time", others=[dt.time(11, 10)]) is None


@pytest.mark.parametrize("body, why", [
    ("The food will NOT arrive at 10:55 AM", "negation"),
    ("Either 10:55 or 11:10, not sure", "also states"),
    ("It arrives at 10:55 AM or 11:10 AM", "also states"),
    ("10:55 AM, I think", "aside"),
    ("It might be 10:55", "hedge"),
    ("Is it 10:55?", "question mark"),
    ("Arrives 10:55. Just kidding.", "aside"),
    ("About 10:55", "hedge"),
    ("It arrives at 11:10", "does not state"),
])
def test_texts_that_do_not_state_the_time(body: str, why: str) -> None:
    got = statement_failure(body, ETA, "time", others=[dt.time(11, 10)])
    assert got is not None and why in got, got


def test_places_normalise_and_compete() -> None:
    ok = states("250 Maple Street", others=LOCATIONS)
    assert ok("It's at 250 Maple St.")
    assert ok("the party is at 250 maple street!")
    # listing every location in the calendar, or a second one, is no statement of this one
    assert not ok("Locations: 250 Maple Street, 17 Oak Ave, Central Park Pavilion")
    assert not ok("250 Maple Street or 17 Oak Avenue")
    assert not ok("Either 250 Maple Street or Central Park Pavilion, not sure")
    assert not ok("It's not at 250 Maple Street")


def test_money_numbers_dates_phones() -> None:
    assert states(42.5, kind="money")("Your share is $42.50, thanks!")
    assert states(42.5, kind="money")("I paid 42.50 dollars")
    assert not states(42.5, kind="money")("$1,042.50")
    assert not states(42.5, kind="money", others=[40.0])("$42.50 or $40")
    assert not states(30, kind="number")("Leave at 5:30")  # a time's minutes are no count
    assert states(12, kind="number")("It's a 12 minute walk")
    d = dt.date(2026, 3, 21)
    assert states(d)("The concert is on March 21! Can't wait")
    assert states(d)("See you 3/21/2026")
    assert not states(d)("The concert is on March 22")
    assert not states(d)("Maybe March 21")
    assert states("+1 415-555-0132", kind="phone")("Her number is (415) 555-0132")
    assert not states("+1 415-555-0132", kind="phone")("Her number is 415-555-0199")


def test_links_are_no_alternatives() -> None:
    assert states("Flash Forward")("Flash Forward by Ruby Vance: https://music.app/track/67")


@pytest.mark.parametrize("fact, kind, text, others", [
    (ETA, "time", "10:55 AM", ["11:10 AM", "9:40 AM"]),
    ("250 Maple Street", "text", "250 Maple Street", ["17 Oak Avenue", "Central Park"]),
    (42.5, "money", "$42.50", ["$40.00"]),
    (dt.date(2026, 3, 21), "date", "March 21", ["March 22"]),
])
def test_both_ways(fact: object, kind: str, text: str, others: list[str]) -> None:
    other_values = [dt.datetime.strptime(o, "%I:%M %p").time() if kind == "time" else
                    float(o.strip("$")) if kind == "money" else o for o in others]
    if kind == "date":
        other_values = [dt.date(2026, 3, 22)]
    check = states(fact, kind=kind, others=other_values)
    passed = [t for t in false_statements(text, others) if check(t)]
    refused = [t for t in true_statements(text) if not check(t)]
    assert not passed, f"false statements that pass: {passed}"
    assert not refused, f"true statements refused: {refused}"


def test_bad_input_is_a_clear_no() -> None:
    check = states("250 Maple Street")
    assert not check(None) and not check(42) and not check("")
    assert not check("x" * 100_000)
    with pytest.raises(ValueError, match="kind"):
        states("x", kind="colour")
    with pytest.raises(ValueError, match="time"):
        states("soon", kind="time")


def test_a_validator_reports_the_statement() -> None:
    before = {"sms": [{"_id": 1, "address": "1", "body": "hi", "type": 1}]}
    after = {"sms": [*before["sms"], {"_id": 2, "address": "2", "type": 2, "read": 1,
                                      "body": "Maybe 250 Maple Street"}]}
    want = {"address": "2", "type": 2, "body": states("250 Maple Street")}
    why = added("sms", want)(Diff(before, after))
    assert why is not None and "states text '250 Maple Street'" in why
    after["sms"][1]["body"] = "It's at 250 Maple St, see you!"
    assert added("sms", want)(Diff(before, after)) is None
