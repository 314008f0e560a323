"""Registry-driven: every wording of a task states what its verifier checks, and no goal names
an agent action in another sense.

A task's template and paraphrases are one goal told in different words, so each must carry
the same constraints: the conditions a task declares in ``Task.constraints`` (an account, a
delivery speed, "the end of my queue"), the same quoted strings and the same literal numbers.
A wording that drops one poses an easier or different task than the verifier scores; one that
adds one poses a harder task. And a goal never uses a word that names an agent action (or a
final status) in another sense: "answer them 'See you then!'" asks for a text message, which
an agent could read as the ``answer`` action.
"""

from __future__ import annotations

import re

import pytest
from conftest import TASK_IDS

from phoneworld_gym.contract import ACTION_TYPES, GOAL_STATUSES
from phoneworld_gym.task import get_task


def wordings(task_id: str) -> list[str]:
    """Every wording of a task: the template, then the train and test paraphrases."""
    t = get_task(task_id)
    return [t.template, *t.paraphrases.get("train", ()), *t.paraphrases.get("test", ())]


# -- constraints ---------------------------------------------------------------------------

def missing_constraints(task_id: str) -> list[str]:
    """'wording: lacks X' for every declared constraint a wording of the task does not state."""
    bad = []
    for entry in get_task(task_id).constraints:
        accepted = (entry,) if isinstance(entry, str) else entry
        for w in wordings(task_id):
            if not any(a.lower() in w.lower() for a in accepted):
                bad.append(f"{w!r} lacks {' / '.join(map(repr, accepted))}")
    return bad


@pytest.mark.parametrize("task_id", [t for t in TASK_IDS if get_task(t).constraints])
def test_constraints_are_phrases_or_alternatives(task_id):
    for entry in get_task(task_id).constraints:
        accepted = (entry,) if isinstance(entry, str) else entry
        assert isinstance(accepted, tuple) and accepted, f"{task_id}: {entry!r}"
        assert all(isinstance(a, str) and a.strip() for a in accepted), f"{task_id}: {entry!r}"


def test_every_wording_states_the_declared_constraints():
    bad = {t: m for t in TASK_IDS if (m := missing_constraints(t))}
    assert not bad, "wordings drop a checked condition:\n" + "\n".join(
        f"{t}: {line}" for t, lines in bad.items() for line in lines)


def test_the_constraint_check_finds_a_dropped_condition(monkeypatch):
    task = get_task("BankSendMoney")
    assert "checking" in task.constraints
    monkeypatch.setattr(task, "paraphrases", {"train": ('Pay {name} ${amount}: "{memo}".',)})
    assert missing_constraints("BankSendMoney") == [
        "'Pay {name} ${amount}: \"{memo}\".' lacks 'checking'"]


# -- quoted strings and numbers ------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”')
#: number words and phrases a paraphrase may use for a number the template writes in digits
#: ("one" is left out: it is as often a pronoun, "one of my favorites")
_NUMBER_WORDS = {
    "half an hour": "30", "half-hour": "30", "quarter of an hour": "15", "quarter-hour": "15",
    "twice": "2", "double": "2", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11",
    "twelve": "12", "fifteen": "15", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "sixty": "60",
}
_NUMBER = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len, reverse=True))
    + r")\b|(?<![\w.])(\d+(?:[.:]\d+)?)(?!st\b|nd\b|rd\b|th\b)", re.I)


def quoted(wording: str) -> set[str]:
    """The strings a wording quotes ("..." or “...”), case and spacing normalised."""
    return {" ".join((a or b).lower().split()) for a, b in _QUOTED.findall(wording)}


def numbers(wording: str) -> set[str]:
    """The literal numbers of a wording outside its placeholders, number words as digits
    ("half an hour" -> 30, "four-star" -> 4), ordinals ("the 1st") left out, "9:00" as 9."""
    found = set()
    for word, digits in _NUMBER.findall(_PLACEHOLDER.sub(" ", wording)):
        n = _NUMBER_WORDS[word.lower()] if word else digits
        found.add(n[:-3] if n.endswith(":00") else n)
    return found


def test_number_and_quote_extraction():
    assert numbers("a 30-minute event at 9:00 AM, two hours, since the 1st") == {"30", "9", "2"}
    assert numbers("half an hour before, on the 0 to 15 scale, {n} photos, ${tip:.0f}") == \
        {"30", "0", "15"}
    assert numbers("a four-star hotel, 16:9, 1:15 PM") == {"4", "16:9", "1:15"}
    assert quoted('Reply "On my way"  and “{message}” to {name}') == {"on my way", "{message}"}


@pytest.mark.parametrize("what", [quoted, numbers], ids=["quoted strings", "numbers"])
def test_every_wording_carries_the_templates_literals(what):
    bad = []
    for task_id in TASK_IDS:
        t = get_task(task_id)
        want = what(t.template)
        for w in wordings(task_id)[1:]:
            if what(w) != want:
                bad.append(f"{task_id}: {w!r} has {sorted(what(w))}, the template "
                           f"{sorted(want)}")
    assert not bad, "\n".join(bad)


# -- action words ----------------------------------------------------------------------------

def _word(name: str) -> re.Pattern[str]:
    parts = r"[\s_-]".join(map(re.escape, name.split("_")))
    return re.compile(rf"\b{parts}(?:s|es|d|ed|ing)?\b", re.I)


#: an action type or a final status named in a goal in another sense ("answer them", "the
#: order's status", "complete the task", "make the camera wait") can be read as that action
ACTION_WORDS = {name: _word(name) for name in (*ACTION_TYPES, *GOAL_STATUSES)}


def action_words(task_id: str, wording: str) -> list[str]:
    """The action names a wording uses; ``answer`` is fine in a task whose end is an answer."""
    answers = get_task(task_id).answer_matcher is not None
    return [m.group(0) for name, pat in ACTION_WORDS.items() for m in pat.finditer(wording)
            if not (name == "answer" and answers)]


def test_no_goal_names_an_action_in_another_sense():
    bad = [f"{t}: {w!r} says {words}" for t in TASK_IDS for w in wordings(t)
           if (words := action_words(t, w))]
    assert not bad, "\n".join(bad)


def test_the_action_word_check_finds_them():
    assert action_words("MessagesReplyUnread", 'Answer "{body}".') == ["Answer"]
    assert action_words("TodoComplete", 'Complete the task "{title}".') == ["Complete"]
    assert action_words("CameraSetTimer", "Make the camera wait 3 seconds.") == ["wait"]
    assert action_words("ShoppingOrderStatus", "What's the status of order 5?") == ["status"]
    assert action_words("ClockDeleteAlarm", "Open app Clock and long-press it") == [
        "long-press", "Open app"]
    # an answer task may ask for an answer; "completely" is another word
    assert action_words("ContactsLookupPhone", "Answer with the number.") == []
    assert action_words("ClockDeleteAlarm", "Get rid of it completely.") == []
