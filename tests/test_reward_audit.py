"""The reward audit that tries both ways, over every task: wrong episodes (texts that do not
state the fact, rows with a settable column changed, work done twice or undone, hedged and
random-word answers) score 0; right ones (friendly texts, natural answers, a detour first,
typed text in lower case) score 1."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import TASK_IDS

from phoneworld_gym.reward_audit import audit_task, echo, natural_answers, summary
from phoneworld_gym.task import get_task


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_rewards_hold_both_ways(task_id: str, record_property: Any) -> None:
    # looking on the way (every unread item opened first) is the slow probe: every fifth task
    # here, every task in `examples/audit.py --rewards` and tests/test_view_state.py's sample
    probes = audit_task(task_id, range(1), looking=TASK_IDS.index(task_id) % 5 == 0)
    record_property("probes", len(probes))
    assert any(p.kind == "fn:oracle" and p.got == 1.0 for p in probes), \
        f"{task_id}: the oracle does not score"
    wrong = [p for p in probes if p.wrong]
    assert not wrong, f"{task_id}: {len(wrong)}/{len(probes)} verdicts wrong, e.g. " + \
        "; ".join(f"{p.kind} {p.what!r} -> {p.got} ({p.failure[:100]})" for p in wrong[:5])


def test_the_audit_tries_both_ways() -> None:
    """The probes of a text task and an answer task cover both sides, and a verifier that
    accepts anything would be caught (the summary counts its false positives)."""
    probes = audit_task("CrossAppTextEventLocation", range(1), replays=False)
    kinds = {p.kind for p in probes}
    assert {"fp:text", "fn:text", "fp:row", "fp:twice", "fp:undone"} <= kinds
    answers = audit_task("ClockEarliestAlarm", range(1), replays=False)
    assert {"fp:answer", "fn:answer"} <= {p.kind for p in answers}
    lax = [p.__class__(**{**p.__dict__, "got": 1.0}) for p in probes]
    table = summary(lax)["cross-app"]
    assert table["fp"] == table["fp_tried"] > 20 and table["fn"] == 0


def test_natural_answers_read_like_people() -> None:
    assert echo("Which of Austin, Eugene or Albany will be warmest on Thursday?") == \
        "will be warmest on thursday"
    cls = get_task("ClockEarliestAlarm")
    task = cls({k: "x" for k in cls.params_schema} if cls.params_schema else {})
    forms = natural_answers(task, "6:30 AM")
    assert "6:30am" in forms and "At 6:30 AM" in forms
