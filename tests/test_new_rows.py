"""A row a task creates is compared on every column a user can set: the tables declare their
defaults and free columns (``device.COMMON_NEW_ROWS``, ``App.new_rows``), and typed text
compares the way a person reads it."""

from __future__ import annotations

import collections
from typing import Any

import pytest
from conftest import run_script

from phoneworld_gym import Action
from phoneworld_gym.contract import AgentReport
from phoneworld_gym.device import COMMON_NEW_ROWS, COMMON_TABLES, GIVEN
from phoneworld_gym.oracle import scroll_to, tap, type_into
from phoneworld_gym.task import all_tasks
from phoneworld_gym.tasks.miniapps.splitbill import split
from phoneworld_gym.tasks.shopping.common import open_tab
from phoneworld_gym.validators import (
    Diff,
    TableCheck,
    added,
    changed,
    exact,
    new_row_declaration,
    same_address,
    whole_row,
)


def _tables_tasks_add_to(env) -> dict[str, list[str]]:
    """Table -> the tasks whose verifier expects rows added to it, read off the checks each
    feasible state task's ``evaluate`` builds at seed 0 (over an empty difference)."""
    out: dict[str, list[str]] = collections.defaultdict(list)
    for tid, cls in all_tasks().items():
        if cls.answer_matcher is not None or not cls.feasible:
            continue
        env.reset(seed=0, options={"task": tid})
        task = env.unwrapped.task
        task.diff = Diff(task.baseline, task.baseline)
        checks: list[Any] = []
        task.expect = lambda *c, checks=checks: checks.extend(c) or 1.0
        task.evaluate(env.unwrapped.device, AgentReport(status="complete"))
        for c in checks:
            if isinstance(c, TableCheck) and c.adds:
                out[c.table].append(tid)
    return dict(out)


@pytest.fixture(scope="module")
def adders() -> dict[str, list[str]]:
    import gymnasium

    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        return _tables_tasks_add_to(env)
    finally:
        env.close()


def test_every_table_a_task_adds_rows_to_declares_its_new_rows(adders):
    assert len(adders) > 40, sorted(adders)  # the capture sees the checks
    missing = {t: ids for t, ids in adders.items() if new_row_declaration(t) is None}
    assert not missing, f"tables without a NewRow declaration (App.new_rows): {missing}"


def test_common_declarations_cover_android_columns():
    for table, decl in COMMON_NEW_ROWS.items():
        assert decl.columns == set(COMMON_TABLES[table]), table


def test_a_new_row_has_exactly_the_declared_columns(make_env, adders):
    """Each table's first adding task's oracle makes rows with every declared column and no
    other, so a new column forces a decision (settable with a default, or free)."""
    env = make_env(obs_mode="a11y")
    for table, ids in sorted(adders.items()):
        decl = new_row_declaration(table)
        assert decl is not None
        assert not (set(decl.defaults) & decl.free), table
        assert (decl.text | decl.address) <= decl.columns, table
        env.reset(seed=0, options={"task": ids[0]})
        reward, _ = run_script(env, env.unwrapped.oracle)
        assert reward == 1.0, (table, ids[0])
        rows = env.unwrapped.task.diff.table(table).added
        assert rows, (table, ids[0])
        for r in rows:
            assert set(r) == decl.columns, f"{table}: row has {sorted(r)}, declared " \
                                           f"{sorted(decl.columns)}"


def _until_status(env, script) -> None:
    """Step ``script`` up to (not including) its final status."""
    for action in script():
        if action.action_type == "status":
            return
        _, _, term, _, info = env.step(action)
        assert not term and not info["action_error"], info["action_error"]


def _finish(env) -> tuple[float, str]:
    _, reward, term, _, info = env.step(Action("status", goal_status="complete"))
    assert term
    return float(reward), env.unwrapped.task.failure


def test_an_alarm_the_goal_does_not_say_repeats_must_not_repeat(make_env):
    env = make_env(obs_mode="a11y")
    env.reset(seed=0, options={"task": "ClockAddAlarm"})
    assert "repeat" not in env.unwrapped.task.goal.lower()
    before = {r["_id"] for r in env.unwrapped.task.before("alarms")}
    _until_status(env, env.unwrapped.oracle)
    device = env.unwrapped.device
    new = [r for r in device.probe.query("alarms") if r["_id"] not in before]
    assert len(new) == 1 and new[0]["days"] == ""
    device.update("alarms", new[0]["_id"], {"days": "MO,TU,WE,TH,FR"})  # repeats on weekdays
    reward, why = _finish(env)
    assert reward == 0.0 and "days='MO,TU,WE,TH,FR'" in why, why


def test_a_split_title_typed_in_lower_case_scores_one(make_env):
    env = make_env(obs_mode="a11y")
    _, info = env.reset(seed=0, options={"task": "SplitBill"})
    params = {**info["params"], "title": "Picnic supplies"}
    env.reset(seed=0, options={"task": "SplitBill", "params": params})
    device = env.unwrapped.device
    _until_status(env, lambda: split(device, "picnic supplies", params["amount"],
                                     params["group"]))
    assert _finish(env)[0] == 1.0
    env.reset(seed=0, options={"task": "SplitBill", "params": params})
    _until_status(env, lambda: split(device, "Picnic supply", params["amount"],
                                     params["group"]))
    reward, why = _finish(env)
    assert reward == 0.0 and "title='Picnic supply'" in why, why


def test_a_street_typed_abbreviated_scores_one(make_env):
    """The goal says "250 Maple Street"; the user types "250 Maple St" in Shopping's new
    address form: the saved address and the order's address both fit."""
    env = make_env(obs_mode="a11y")
    _, info = env.reset(seed=0, options={"task": "ShoppingCheckoutNewAddress"})
    params = {**info["params"], "street": "250 Maple Street"}

    def checkout(street: str, zipc: str):
        yield from open_tab(device, "cart")
        yield tap(device, rid="checkout")
        yield from scroll_to(device, rid="add_address")
        yield tap(device, rid="add_address")
        yield type_into(device, street, rid="field_street")
        yield type_into(device, params["city"], rid="field_city")
        yield type_into(device, params["state"].lower(), rid="field_state")
        yield type_into(device, zipc, rid="field_zip")
        yield from scroll_to(device, rid="save_address")
        yield tap(device, rid="save_address")
        yield tap(device, rid="place_order")

    z = params["zip"]
    typo = z[:-1] + ("0" if z[-1] != "0" else "1")
    for street, zipc, want in (("250 Maple St", z, 1.0), ("250 maple street", z, 1.0),
                               ("250 Maple St", typo, 0.0), ("205 Maple St", z, 0.0)):
        env.reset(seed=0, options={"task": "ShoppingCheckoutNewAddress", "params": params})
        assert "250 Maple Street" in env.unwrapped.task.goal
        device = env.unwrapped.device
        _until_status(env, lambda street=street, zipc=zipc: checkout(street, zipc))
        reward, why = _finish(env)
        assert reward == want, (street, zipc, why)


def _other(v: Any) -> Any:
    """A different value of the same kind (a flag flipped, a number added to a text)."""
    if isinstance(v, bool) or v in (0, 1) and isinstance(v, int):
        return 1 - int(v)
    if isinstance(v, (int, float)):
        return v + 1
    if isinstance(v, str):
        return f"{v} 7" if v else "7"
    if isinstance(v, dict):
        return {**v, "extra": 1}
    if isinstance(v, list):
        return [*v, "extra"]
    raise TypeError(v)


@pytest.mark.parametrize("task_id,table", [
    ("ClockAddAlarm", "alarms"), ("TodoAdd", "todo/tasks"), ("NotesCreate", "notes/notes"),
    ("CoffeeOrder", "coffee/orders"), ("SplitBill", "splitbill/splits"),
    ("ContactsAdd", "contacts"), ("ExpensesLog", "expenses/entries"),
    ("RidesSchedule", "rides/scheduled"), ("ShoppingAddToCartOptions", "shopping/cart"),
])
def test_each_settable_column_of_a_new_row_is_compared(make_env, task_id, table):
    """The oracle's end state scores 1; the same state with any one settable column of the
    new row changed (named by the goal or not) scores 0."""
    env = make_env(obs_mode="a11y")
    env.reset(seed=0, options={"task": task_id})
    task, device = env.unwrapped.task, env.unwrapped.device
    _until_status(env, env.unwrapped.oracle)
    after = {t: [dict(r) for r in rows] for t, rows in device.probe.snapshot().items()}
    report = AgentReport(status="complete")
    task.diff = Diff(task.baseline, after)
    assert task.evaluate(device, report) == 1.0, task.failure
    new = task.diff.table(table).added
    assert len(new) == 1
    decl = new_row_declaration(table)
    assert decl is not None
    for col in decl.defaults:
        rows = [dict(r, **{col: _other(r[col])}) if r["_id"] == new[0]["_id"] else r
                for r in after[table]]
        task.diff = Diff(task.baseline, {**after, table: rows})
        assert task.evaluate(device, report) == 0.0, f"{table}.{col} changed still scored 1"
        assert col in task.failure, task.failure


def test_whole_row_fills_defaults_and_requires_the_rest():
    pat = whole_row("alarms", {"hour": 7, "minutes": 30})
    assert pat["days"] == "" and pat["enabled"] == 1 and pat["label"] == ""
    with pytest.raises(ValueError, match="'minutes'"):
        whole_row("alarms", {"hour": 7})
    assert COMMON_NEW_ROWS["alarms"].defaults["hour"] is GIVEN
    assert whole_row("no/such_table", {"a": 1}) == {"a": 1}  # undeclared: as written


def test_text_and_address_columns_fold_but_other_columns_do_not():
    before: dict[str, list[dict[str, Any]]] = {"contacts": []}
    row = {"_id": 9, "display_name": "  ada LOVELACE ", "number": "+1 555-0100",
           "email": "", "postal_address": "250 Maple St., Albany, NY", "company": "",
           "starred": 0}
    d = Diff(before, {"contacts": [row]})
    ok = added("contacts", {"display_name": "Ada Lovelace", "number": "+1 555-0100",
                            "postal_address": "250 Maple Street, Albany, NY"})
    assert ok(d) is None
    # the number is not typed text: its spacing counts (same_phone is the task's choice)
    assert added("contacts", {"display_name": "Ada Lovelace", "number": "+15550100",
                              "postal_address": "250 Maple Street, Albany, NY"})(d)
    assert added("contacts", {"display_name": "Ada Lovelace", "number": "+1 555-0100",
                              "postal_address": "250 Maple Avenue, Albany, NY"})(d)
    assert added("contacts", {"display_name": exact("Ada Lovelace"), "number": "+1 555-0100",
                              "postal_address": "250 Maple Street, Albany, NY"})(d)
    assert same_address("12 Oak Blvd")("12 oak boulevard")
    assert not same_address("12 Oak Blvd")("12 Oak Drive")


def test_an_edited_text_column_folds_too():
    row = {"_id": 1, "list_id": 1, "title": "Buy milk", "notes": "", "due": "", "priority": 0,
           "starred": 0, "done": 0}
    d = Diff({"todo/tasks": [row]}, {"todo/tasks": [dict(row, title="buy  MILK")]})
    assert changed("todo/tasks", 1, title="Buy milk")(d) is None
    assert changed("todo/tasks", 1, title="Buy milk.")(d) is None  # punctuation folds
    assert changed("todo/tasks", 1, title="Buy oat milk")(d)
    assert changed("todo/tasks", 1, title=exact("Buy milk"))(d)
