"""The real-phone protocol (phoneworld_gym.baselines.protocol): task lists are checked field by
field, the starter list is complete, and a list plays end to end on the virtual adb phone, is
judged by a scripted judge and by two people, and the report and the one table count right."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("adbutils")
pytest.importorskip("datasets")
pytest.importorskip("yaml")

from phoneworld_gym.baselines import protocol, table  # noqa: E402
from phoneworld_gym.baselines.evalrun import EvalSpec  # noqa: E402
from phoneworld_gym.contract import Action, parse_ui_elements  # noqa: E402
from phoneworld_gym.task import CATEGORIES  # noqa: E402

#: tasks that refer to apps on the virtual phone
LIST = """\
tasks:
  - id: contacts-star
    app: Contacts
    package: com.phoneworld.contacts
    category: app
    start: app
    instruction: Star Amara Okafor in Contacts.
    success: Amara Okafor is among the favourites (her page offers to remove her from them).
    max_steps: 6
  - id: settings-airplane-on
    app: Settings
    package: com.android.settings
    app_version: 14
    category: app
    start: home
    instruction: Turn on Airplane mode in Settings.
    success: The Airplane mode switch in Network & internet is on.
    max_steps: 8
  - id: contacts-amara-number
    app: Contacts
    package: com.phoneworld.contacts
    category: information-retrieval
    start: app
    instruction: What is Amara Okafor's mobile number?
    success: The answer is her mobile number as her contact page shows it.
    max_steps: 6
  - id: clock-alarm
    app: Clock
    package: com.google.android.deskclock
    category: app
    start: home
    instruction: Set an alarm for 6:45 in the morning.
    success: An alarm for 6:45 AM exists and is on.
    max_steps: 6
"""

#: the scripted agent's plan per instruction: tap the element with this text or description,
#: flip the switch of this row, answer with the text next to a label, or give up
PLANS: dict[str, list[tuple[str, str]]] = {
    "Star Amara Okafor in Contacts.": [("tap", "Amara Okafor"), ("tap", "Add to favorites"),
                                      ("done", "")],
    "Turn on Airplane mode in Settings.": [("tap", "Settings"), ("tap", "Network & internet"),
                                           ("switch", "Airplane mode"), ("done", "")],
    "What is Amara Okafor's mobile number?": [("tap", "Amara Okafor"), ("answer", "Mobile")],
    "Set an alarm for 6:45 in the morning.": [("give_up", "")],
}


class ScriptedAgent:
    """Does the plan of its goal through the UI, reading the accessibility tree."""

    def reset(self, goal: str) -> None:
        self.plan = list(PLANS[goal])

    def act(self, obs: dict[str, Any]) -> Action:
        kind, text = self.plan.pop(0)
        els = parse_ui_elements(obs["a11y"])
        if kind == "done":
            return Action(action_type="status", goal_status="complete")
        if kind == "give_up":
            return Action(action_type="status", goal_status="infeasible")
        at = next(i for i, e in enumerate(els) if text in (e.text, e.content_description))
        if kind == "tap":
            return Action(action_type="click", index=at)
        if kind == "switch":
            return Action(action_type="click",
                          index=next(i for i in range(at, len(els)) if els[i].is_checkable))
        # the value is the element before its label ("+1 ...", then "Mobile")
        return Action(action_type="answer", text=str(els[at - 1].text))


def scripted_judge(ep: protocol.ListedEpisode) -> tuple[bool, str]:
    """Judges from the last screen and the agent's answer, as a person reading it would."""
    last = parse_ui_elements(ep.record.screens[-1])
    if ep.status == "infeasible":
        return False, "the agent gave up"
    if ep.task.id == "contacts-star":
        ok = any(e.content_description == "Remove from favorites" for e in last)
        return ok, "starred" if ok else "not starred"
    if ep.task.id == "settings-airplane-on":
        at = next((i for i, e in enumerate(last) if e.text == "Airplane mode"), None)
        switch = None if at is None else next((e for e in last[at:] if e.is_checkable), None)
        return bool(switch and switch.is_checked), "switch state"
    if ep.task.id == "contacts-amara-number":
        return ep.answer == "+1 892-555-3828", f"answered {ep.answer!r}"
    return False, "unknown task"


class StubChat:
    """A judge model's stand-in: passes every episode, and keeps what it was shown."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def complete(self, messages: Any) -> str:
        self.seen.append(messages)
        return '{"success": true, "reason": "looks done"}'


def _spec(**kw: Any) -> EvalSpec:
    ids = ("contacts-star", "settings-airplane-on", "contacts-amara-number", "clock-alarm")
    return EvalSpec(**{"agent": "scripted", "env_id": "PhoneWorld/Device-v0", "tasks": ids,
                       "seeds": (0,), **kw})


# -- the loader -------------------------------------------------------------------------------
def test_starter_list_is_complete_and_valid() -> None:
    tasks = protocol.load_task_list(protocol.STARTER_LIST)
    assert len(tasks) >= 150
    assert {t.category for t in tasks} == set(CATEGORIES)
    assert len({t.id for t in tasks}) == len(tasks)
    assert len({t.instruction for t in tasks}) == len(tasks)
    for t in tasks:
        assert t.success.strip() and t.instruction.strip() and 1 <= t.max_steps <= 200


def test_starter_list_ships_with_the_package() -> None:
    cfg = (Path(__file__).parents[1] / "setup.cfg").read_text()
    assert "tasklists/*.yaml" in cfg


@pytest.mark.parametrize(("change", "wanted"), [
    ({"category": "apps"}, "field 'category': unknown category 'apps'"),
    ({"instruction": None}, "field 'instruction': missing"),
    ({"start": "lock screen"}, "field 'start': 'lock screen'"),
    ({"max_steps": 0}, "field 'max_steps': must be an int from 1 to 200"),
    ({"package": "Settings"}, "field 'package': 'Settings' is not an Android package"),
    ({"id": "a b"}, "field 'id': 'a b'"),
    ({"colour": "red"}, "field 'colour': unknown field"),
])
def test_loader_names_file_entry_and_field(tmp_path: Path, change: dict[str, Any],
                                           wanted: str) -> None:
    entry = {"id": "t1", "app": "Settings", "package": "com.android.settings",
             "category": "app", "start": "home", "instruction": "Do it.",
             "success": "It is done.", "max_steps": 5, **change}
    path = tmp_path / "list.jsonl"
    path.write_text(json.dumps(entry) + "\n")
    with pytest.raises(protocol.TaskListError) as e:
        protocol.load_task_list(path)
    assert f"{path}: line 1" in str(e.value) and wanted in str(e.value)


def test_loader_finds_duplicates_and_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text(LIST + LIST.split("tasks:\n", 1)[1].replace("category: information-retrieval",
                                                                 "category: nope"))
    with pytest.raises(protocol.TaskListError) as e:
        protocol.load_task_list(path)
    text = str(e.value)
    assert "entry 5 (id 'contacts-star'): field 'id': duplicate id 'contacts-star' (first at " \
           "entry 1)" in text
    assert "entry 7 (id 'contacts-amara-number'): field 'category': unknown category 'nope'" \
        in text
    assert len(e.value.problems) == 5  # four duplicates and the category


# -- end to end on the virtual adb phone ------------------------------------------------------
def test_list_plays_on_the_virtual_phone_and_is_judged(tmp_path: Path) -> None:
    from phoneworld_gym.web.judging import record_judgment

    path = tmp_path / "list.yaml"
    path.write_text(LIST)
    tasks = protocol.load_task_list(path)
    out = tmp_path / "realphone"
    from phoneworld_gym.baselines.judge import Judge

    chat = StubChat()
    judge = Judge(chat, screenshots=True)
    doc = protocol.run_task_list(tasks, out, _spec(), list_path=path, progress=False,
                                 agent_factory=lambda env, task, seed, attempt: ScriptedAgent(),
                                 judges={"scripted": scripted_judge,
                                         "model": protocol.model_judge(judge)})
    assert doc["episodes"] == 4 and not doc["failed"]
    assert all(e["result"] == protocol.UNVERIFIED for e in doc["episodes_list"])
    s = doc["scripted"]["scripted"]
    assert (s["by_category"]["app"]["successes"], s["by_category"]["app"]["n"]) == (2, 3)
    assert (s["by_category"]["information-retrieval"]["successes"],
            s["by_category"]["information-retrieval"]["n"]) == (1, 1)
    assert (s["overall"]["successes"], s["overall"]["n"]) == (3, 4)
    assert doc["judges"] == {} and doc["judged_by_people"] == 0  # never mixed with people's
    # the model judge read the success statement and the last screen the agent saw
    assert doc["scripted"]["model"]["overall"]["successes"] == 4 and len(chat.seen) == 4
    users = [m[1]["content"] for m in chat.seen]
    assert all(u[0]["type"] == "image_url" for u in users)
    assert any("What counts as success: Amara Okafor is among the favourites" in u[1]["text"]
               for u in users)
    # the judging page shows each listed episode's success statement beside its goal
    from fastapi.testclient import TestClient

    from phoneworld_gym.web import make_judge_app

    with TestClient(make_judge_app(out, judge="ana")) as client:
        star = next(e for e in doc["episodes_list"] if e["task"] == "contacts-star")
        page = client.get(f"/api/episodes/{star['episode_id']}").json()
        assert page["success_statement"].startswith("Amara Okafor is among the favourites")
    md = (out / "report.md").read_text()
    assert "unverified: judge these episodes" in md and "Scripted judges" in md
    assert "| category | model | scripted |" in md
    assert "| app | 100.0% [43.9, 100.0] (3/3) | 66.7% [20.8, 93.9] (2/3) |" in md

    # two people judge: they disagree on the airplane episode; the table follows them
    ids = {e["task"]: e["episode_id"] for e in doc["episodes_list"]}
    truth = {"contacts-star": True, "settings-airplane-on": True,
             "contacts-amara-number": True, "clock-alarm": False}
    for task, ok in truth.items():
        record_judgment(out, "ana", ids[task], ok)
        record_judgment(out, "ben", ids[task], ok and task != "settings-airplane-on")
    doc = protocol.write_report(out)
    assert doc["judges"]["ana"]["overall"]["successes"] == 3
    assert doc["judges"]["ben"]["overall"]["successes"] == 2
    # 1-1 on the airplane episode is a failure: 2 of 4
    assert (doc["people"]["overall"]["successes"], doc["people"]["overall"]["n"]) == (2, 4)
    (pair,) = doc["agreement"]
    assert pair["n"] == 4 and pair["agreement"] == 0.75
    assert pair["kappa"] == pytest.approx(0.5)
    md = (out / "report.md").read_text()
    assert "ana and ben: 4 episodes judged by both, agreement 75.0%, Cohen's kappa 0.500" in md

    # the one table: PhoneWorld (a stand-in report), AndroidWorld (its small JSON), real phone
    pw = tmp_path / "pw"
    pw.mkdir()
    (pw / "report.json").write_text(json.dumps({
        "split": "test", "agent": "scripted", "overall": {"n": 10, "successes": 7},
        "by_category": {}}))
    aw = tmp_path / "aw"
    aw.mkdir()
    (aw / table.ANDROIDWORLD_FILE).write_text(json.dumps({
        "model": "scripted", "episodes": [{"task": "ContactsAddContact", "success": 1.0},
                                          {"task": "ExpenseDeleteSingle", "success": 0.0},
                                          {"task": "SimpleSmsSend", "success": True}]}))
    rows = table.model_table(phoneworld=pw, androidworld=aw, realphone=out)
    got = {r["benchmark"]: (r["successes"], r["n"]) for r in rows}
    assert got["PhoneWorld (test split)"] == (7, 10)
    assert got["AndroidWorld"] == (2, 3)
    assert got["Real phone (people, 2 judges)"] == (2, 4)
    assert got["Real phone (scripted judge scripted)"] == (3, 4)
    assert got["Real phone (scripted judge model)"] == (4, 4)
    text = table.markdown(rows)
    assert "| AndroidWorld | 66.7% | [20.8, 93.9] | 2/3 |" in text


def test_eval_cli_records_a_list_with_a_scripted_judge(tmp_path: Path) -> None:
    from phoneworld_gym.__main__ import main

    path = tmp_path / "list.yaml"
    path.write_text(LIST)
    out = tmp_path / "cli"
    argv = ["eval", "--task-list", str(path), "--env", "PhoneWorld/Device-v0", "--agent",
            "random", "--max-steps", "2", "--no-progress", "--no-screenshots",
            "--judge-with", "test_protocol:scripted_judge", "--out", str(out)]
    assert main(argv) == 0
    doc = json.loads((out / "report.json").read_text())
    assert doc["episodes"] == 4 and doc["tasks"] == 4
    assert doc["scripted"]["test_protocol.scripted_judge"]["overall"]["n"] == 4
    assert main(argv) == 0  # a rerun records nothing new and judges nothing twice
    lines = (out / protocol.SCRIPTED / "test_protocol.scripted_judge.jsonl").read_text()
    assert len(lines.splitlines()) == 4
    assert main(["eval", "--task-list", str(path), "--agent", "random", "--out",
                 str(tmp_path / "x")]) == 2  # not a phone env
    assert main(["table", "--realphone", str(out)]) == 0
