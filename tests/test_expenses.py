"""What is special about the Expenses app: a bad amount (or no category) is refused with a
message and no row; an entry that takes the month over its budget warns (toast, card and
Budgets tab); the summary's per-category totals and shares are the sums of the entries; delete
asks first (Cancel keeps the row); the editor's category sheet and date picker write what
they show; budgets are set, refused when bad and removed through their dialog; the data is
seeded from the life; bad fixture input is refused without losing anything."""

from __future__ import annotations

import copy
import datetime as dt

import pytest

from phoneworld_gym.apps.expenses import store as es
from phoneworld_gym.contract import Action
from phoneworld_gym.life import generate
from phoneworld_gym.oracle import elements, find, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice


def _open(seed: int = 1) -> PhoneWorldDevice:
    d = PhoneWorldDevice(["expenses"])
    d.reset(seed=seed)
    assert d.execute(Action("open_app", app_name="Expenses")) == ""
    return d


def _do(d: PhoneWorldDevice, a: Action) -> None:
    assert d.execute(a) == "", a


def _toast(d: PhoneWorldDevice) -> str:
    return str((d.world.toast or {}).get("text", ""))


def _spent(rows: list[dict], month: str, category: str = "") -> float:
    return round(sum(r["amount"] for r in rows if r["date"][:7] == month
                     and (not category or r["category"] == category)), 2)


@pytest.mark.parametrize(("typed", "why"), [
    ("abc", "Enter an amount like 12.50"), ("0", "more than $0"), ("-4", "more than $0"),
    ("12.345", "two decimals"), ("250000", "under $100,000.00"), ("", "Enter an amount"),
])
def test_a_bad_amount_is_refused_with_a_message_and_no_row(typed: str, why: str) -> None:
    d = _open()
    before = d.probe.query("expenses/entries")
    _do(d, tap(d, desc="Add expense"))
    _do(d, type_into(d, typed, rid="amount"))
    _do(d, tap(d, rid="category"))
    _do(d, tap(d, text="Dining", rid="sheet_item_title"))
    _do(d, tap(d, text="Save", rid="save"))
    assert why in (text_of(d, rid="error_text") or "")
    assert d.probe.query("expenses/entries") == before
    assert text_of(d, rid="title") == "Add expense"  # still in the editor, nothing lost
    _do(d, type_into(d, "$1,234.50", rid="amount"))
    _do(d, tap(d, text="Save", rid="save"))
    new = [r for r in d.probe.query("expenses/entries") if r not in before]
    assert [(r["amount"], r["category"], r["date"]) for r in new] == \
        [(1234.5, "Dining", "2026-03-14")]


def test_no_category_is_refused() -> None:
    d = _open()
    before = d.probe.query("expenses/entries")
    _do(d, tap(d, desc="Add expense"))
    _do(d, type_into(d, "12.00", rid="amount"))
    _do(d, tap(d, text="Save", rid="save"))
    assert text_of(d, rid="error_text") == "Choose a category"
    assert d.probe.query("expenses/entries") == before


def test_going_over_the_budget_warns_everywhere() -> None:
    d = _open(seed=3)
    d.fixture("expenses", "set_budget", month="2026-03", amount=5000)
    _do(d, Action("navigate_back"))
    _do(d, Action("open_app", app_name="Expenses"))
    rows = d.probe.query("expenses/entries")
    spent = _spent(rows, "2026-03")
    assert find(d, rid="budget_warning") is None
    assert text_of(d, rid="budget_left") == es.money(5000 - spent) + " left"
    over = round(spent + 4000 - 5000, 2)  # what the new entry leaves over the budget
    _do(d, tap(d, desc="Add expense"))
    _do(d, type_into(d, "4000", rid="amount"))
    _do(d, tap(d, rid="category"))
    _do(d, tap(d, text="Shopping", rid="sheet_item_title"))
    _do(d, type_into(d, "New laptop", rid="note"))
    _do(d, tap(d, text="Save", rid="save"))
    assert _toast(d) == f"Over your March 2026 budget by {es.money(over)}"
    assert text_of(d, rid="budget_warning") == f"Over budget by {es.money(over)}"
    assert text_of(d, rid="month_total") == es.money(spent + 4000)
    _do(d, tap(d, desc="Budgets", rid="nav_budgets"))
    assert f"Over budget by {es.money(over)}" in [e.text for e in elements(d)]


def test_summary_totals_and_shares_are_the_sums_of_the_entries() -> None:
    d = _open(seed=5)
    _do(d, tap(d, desc="Summary", rid="nav_summary"))
    _do(d, tap(d, desc="Previous month"))
    assert text_of(d, rid="month_title") == "February 2026"
    rows = d.probe.query("expenses/entries")
    total = _spent(rows, "2026-02")
    assert text_of(d, rid="summary_total") == es.money(total)
    shown = [e.content_description or "" for e in elements(d)
             if (e.resource_id or "").endswith("/summary_row")]
    cats = [s.split(", ")[0] for s in shown]
    assert len(cats) >= 4
    for s in shown:
        cat, amount, share = s.split(", ")
        assert amount == es.money(_spent(rows, "2026-02", cat))
        assert share == f"{round(100 * _spent(rows, '2026-02', cat) / total)}%"
    amounts = [_spent(rows, "2026-02", c) for c in cats]
    assert amounts == sorted(amounts, reverse=True)
    # a category row opens its entries
    _do(d, tap(d, desc=shown[0], rid="summary_row"))
    assert text_of(d, rid="category_total") == es.money(amounts[0])
    mine = sorted((r for r in rows if r["date"][:7] == "2026-02" and r["category"] == cats[0]),
                  key=lambda r: (r["date"], r["_id"]), reverse=True)
    want = [f"{r['note'] or cats[0]}, {es.money(r['amount'])}, "
            f"{dt.date.fromisoformat(r['date']).strftime('%a, %b')} "
            f"{dt.date.fromisoformat(r['date']).day}" for r in mine]
    listed = [e.content_description for e in elements(d)
              if (e.resource_id or "").endswith("/entry_row")]
    assert listed and listed == want[:len(listed)]


def test_delete_asks_first_and_cancel_keeps_the_row() -> None:
    d = _open(seed=2)
    rows = d.probe.query("expenses/entries")
    _do(d, tap(d, rid="entry_row"))
    shown = text_of(d, rid="note") or ""
    target = next(r for r in sorted(rows, key=lambda r: (r["date"], r["_id"]), reverse=True)
                  if r["note"] == shown)
    _do(d, tap(d, desc="Delete expense"))
    assert text_of(d, rid="alertTitle") == "Delete this expense?"
    _do(d, tap(d, text="Cancel"))
    assert d.probe.query("expenses/entries") == rows
    _do(d, tap(d, desc="Delete expense"))
    _do(d, tap(d, text="Delete", rid="button2"))
    after = d.probe.query("expenses/entries")
    assert [r for r in rows if r not in after] == [target]
    assert _toast(d) == "Expense deleted"


def test_editor_writes_the_category_and_date_it_shows() -> None:
    d = _open(seed=4)
    rows = d.probe.query("expenses/entries")
    _do(d, tap(d, rid="entry_row"))
    note = text_of(d, rid="note") or ""
    target = next(r for r in sorted(rows, key=lambda r: (r["date"], r["_id"]), reverse=True)
                  if r["note"] == note)
    _do(d, tap(d, rid="category"))
    _do(d, tap(d, text="Health", rid="sheet_item_title"))
    _do(d, tap(d, rid="date"))
    _do(d, tap(d, desc="Previous month"))
    _do(d, tap(d, desc="Tuesday, February 10, 2026"))
    _do(d, tap(d, text="OK", rid="button1"))
    assert text_of(d, rid="date") == "Tuesday, February 10, 2026"
    _do(d, tap(d, text="Save", rid="save"))
    after = {r["_id"]: r for r in d.probe.query("expenses/entries")}
    assert after[target["_id"]] == {**target, "category": "Health", "date": "2026-02-10"}
    assert all(after[r["_id"]] == r for r in rows if r["_id"] != target["_id"])


def test_budget_dialog_sets_refuses_and_removes() -> None:
    d = _open(seed=6)
    _do(d, tap(d, desc="Budgets", rid="nav_budgets"))
    before = d.probe.query("expenses/budgets")
    assert "2026-04" not in {r["month"] for r in before}
    _do(d, tap(d, desc="Budget for April 2026"))
    _do(d, type_into(d, "lots", rid="budget_input"))
    _do(d, tap(d, text="Save"))
    assert "Enter an amount" in (text_of(d, rid="error_text") or "")
    assert d.probe.query("expenses/budgets") == before
    _do(d, type_into(d, "1750", rid="budget_input"))
    _do(d, tap(d, text="Save"))
    new = [r for r in d.probe.query("expenses/budgets") if r not in before]
    assert [(r["month"], r["amount"]) for r in new] == [("2026-04", 1750.0)]
    _do(d, tap(d, desc="Budget for April 2026"))
    _do(d, tap(d, text="Remove"))
    assert d.probe.query("expenses/budgets") == before


def test_generated_data_follows_the_life_and_varies_with_the_seed() -> None:
    d = PhoneWorldDevice(["expenses"])
    seen = set()
    for seed in range(4):
        d.reset(seed=seed)
        rows = d.probe.query("expenses/entries")
        firsts = {p.first for p in generate(seed).people}
        dinners = [r["note"] for r in rows if r["note"].startswith("Dinner with ")]
        assert len(dinners) == 3 and all(n.split()[-1] in firsts for n in dinners)
        assert all("2026-01-01" <= r["date"] <= "2026-03-14" for r in rows)
        assert {r["category"] for r in rows} <= set(es.NAMES)
        seen.add(tuple(r["amount"] for r in rows))
    assert len(seen) == 4


def test_the_month_switcher_shows_that_months_entries() -> None:
    d = _open(seed=7)
    _do(d, tap(d, desc="Previous month"))
    _do(d, tap(d, desc="Previous month"))
    assert text_of(d, rid="month_title") == "January 2026"
    rows = d.probe.query("expenses/entries")
    assert text_of(d, rid="month_total") == es.money(_spent(rows, "2026-01"))
    newest = max((r for r in rows if r["date"][:7] == "2026-01"),
                 key=lambda r: (r["date"], r["_id"]))
    day = dt.date.fromisoformat(newest["date"])
    assert text_of(d, rid="day_header") == f"{day.strftime('%a')}, {day.strftime('%b')} {day.day}"
    i = find(d, desc="Previous month")  # nothing before January 2026
    assert i is not None and not elements(d)[i].is_clickable


@pytest.mark.parametrize(("name", "args", "bad"), [
    ("add_entry", {"amount": 0, "category": "Dining", "date": "2026-03-01"}, "amount"),
    ("add_entry", {"amount": 5.555, "category": "Dining", "date": "2026-03-01"}, "amount"),
    ("add_entry", {"amount": 5.5, "category": "Food", "date": "2026-03-01"}, "category"),
    ("add_entry", {"amount": 5.5, "category": "Dining", "date": "March 1"}, "date"),
    ("add_entry", {"amount": 5.5, "category": "Dining", "note": 7, "date": "2026-03-01"},
     "note"),
    ("set_budget", {"month": "2026-13", "amount": 100}, "month"),
    ("set_budget", {"month": "2026-04", "amount": -5}, "amount"),
])
def test_bad_fixture_input_is_refused_and_changes_nothing(name: str, args: dict,
                                                          bad: str) -> None:
    d = PhoneWorldDevice(["expenses"])
    d.reset(seed=8)
    before = copy.deepcopy(d.probe.snapshot())
    with pytest.raises(ValueError, match=bad):
        d.fixture("expenses", name, **args)
    assert d.probe.snapshot() == before
