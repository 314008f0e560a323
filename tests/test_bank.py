"""What is special about the Bank app: nothing is written before the review's confirm; a send
over the daily limit or a transfer over the balance is refused with a message and records
nothing; a confirmed send records one payment, moves the balance and makes a first-time
recipient a payee; transfers move both balances; the Activity total is the sum of the rows its
search and filters show; the freeze switch writes the card; recipients are found by name,
phone or email; fixtures refuse bad input without losing anything."""

from __future__ import annotations

import copy

import pytest

from phoneworld_gym.apps.bank import store as bs
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import elements, find, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice

TABLES = ("bank/accounts", "bank/transactions", "bank/cards", "bank/payees")


def _open(seed: int = 1) -> PhoneWorldDevice:
    d = PhoneWorldDevice(["bank", "contacts"])
    d.reset(seed=seed)
    assert d.execute(Action("open_app", app_name="Bank")) == ""
    return d


def _do(d: PhoneWorldDevice, a: Action) -> None:
    assert d.execute(a) == "", a


def _tables(d: PhoneWorldDevice) -> dict[str, list[dict]]:
    return {t: d.probe.query(t) for t in TABLES}


def _send_form(d: PhoneWorldDevice, name: str) -> None:
    _do(d, tap(d, desc="Send", rid="action_send"))
    _do(d, type_into(d, name, rid="search_src_text"))
    _do(d, tap(d, desc=name, rid="recipient_row"))


def _checking(d: PhoneWorldDevice) -> float:
    return float(d.probe.query("bank/accounts")[0]["balance"])


def test_parse_amount_accepts_money_and_refuses_the_rest() -> None:
    assert bs.parse_amount("42.5") == 4250
    assert bs.parse_amount("$1,200") == 120000
    assert bs.parse_amount(" 19.99 ") == 1999
    for bad in ("", "a", "1.234", "0", "-5", "1.2.3", "$"):
        assert bs.parse_amount(bad) is None, bad


def test_send_over_the_daily_limit_is_refused_with_a_message_and_records_nothing() -> None:
    d = _open()
    before = _tables(d)
    name = before["bank/payees"][0]["name"]
    limit = float(d.probe.query("bank/profile")[0]["daily_limit"])
    _send_form(d, name)
    _do(d, type_into(d, f"{limit + 0.01:.2f}", rid="amount_input"))
    _do(d, tap(d, rid="review_button"))
    err = text_of(d, rid="error_text") or ""
    assert "daily sending limit" in err and f"${limit:,.2f}" in err
    assert find(d, rid="confirm_button") is None  # still on the form: no review
    assert _tables(d) == before


def test_transfer_over_the_balance_is_refused_and_records_nothing() -> None:
    d = _open()
    before = _tables(d)
    have = _checking(d)
    _do(d, tap(d, desc="Transfer", rid="action_transfer"))
    _do(d, type_into(d, f"{have + 1:.2f}", rid="amount_input"))
    _do(d, tap(d, rid="review_button"))
    assert (text_of(d, rid="error_text") or "").startswith("Insufficient funds")
    assert _tables(d) == before


def test_nothing_is_written_before_confirm_and_confirm_writes_one_payment() -> None:
    d = _open(seed=2)
    before = _tables(d)
    payees = {p["name"] for p in before["bank/payees"]}
    new = next(c for c in d.probe.contacts() if c["display_name"] not in payees)
    name = new["display_name"]
    _send_form(d, name)
    _do(d, type_into(d, "42.50", rid="amount_input"))
    _do(d, type_into(d, "Concert tickets", rid="memo_input"))
    _do(d, tap(d, rid="review_button"))
    assert text_of(d, rid="review_amount") == "$42.50"
    assert text_of(d, rid="review_to") == name
    assert _tables(d) == before  # the review step writes nothing
    _do(d, tap(d, rid="edit_button"))  # back to the form, still nothing
    assert _tables(d) == before and find(d, rid="amount_input") is not None
    _do(d, tap(d, rid="review_button"))
    _do(d, tap(d, rid="confirm_button"))
    assert text_of(d, rid="done_text") == f"You sent $42.50 to {name}"
    after = _tables(d)
    added = [t for t in after["bank/transactions"] if t not in before["bank/transactions"]]
    assert len(added) == 1
    t = added[0]
    assert (t["kind"], t["counterparty"], t["amount"], t["memo"], t["account_id"], t["date"]) == \
        ("sent", name, -42.5, "Concert tickets", 1, "2026-03-14")
    assert _checking(d) == pytest.approx(float(before["bank/accounts"][0]["balance"]) - 42.5)
    assert after["bank/accounts"][1:] == before["bank/accounts"][1:]
    assert [p["name"] for p in after["bank/payees"]] == \
        [p["name"] for p in before["bank/payees"]] + [name]
    assert after["bank/payees"][-1]["phone"] == new["number"]
    # what was sent today counts against the limit shown on the Pay tab
    _do(d, tap(d, rid="done_button"))
    _do(d, tap(d, desc="Pay", rid="nav_pay"))
    limit = float(d.probe.query("bank/profile")[0]["daily_limit"])
    sent_before = -sum(float(x["amount"]) for x in before["bank/transactions"]
                       if x["kind"] == "sent" and x["date"] == "2026-03-14")
    assert (text_of(d, rid="limit_left") or "").startswith(
        f"${limit - sent_before - 42.5:,.2f} left today")


def test_transfer_to_savings_and_a_card_payment_move_both_balances() -> None:
    d = _open(seed=3)
    acc = {a["_id"]: a for a in d.probe.query("bank/accounts")}
    n = len(d.probe.query("bank/transactions"))
    _do(d, tap(d, desc="Transfer", rid="action_transfer"))
    _do(d, tap(d, rid="quick_amount", text="$50"))
    assert text_of(d, rid="amount_input") == "50"
    _do(d, tap(d, rid="review_button"))
    _do(d, tap(d, rid="confirm_button"))
    now = {a["_id"]: a for a in d.probe.query("bank/accounts")}
    assert now[1]["balance"] == pytest.approx(acc[1]["balance"] - 50)
    assert now[2]["balance"] == pytest.approx(acc[2]["balance"] + 50)
    rows = d.probe.query("bank/transactions")[n:]
    assert [(r["account_id"], r["amount"], r["kind"]) for r in rows] == \
        [(1, -50.0, "transfer"), (2, 50.0, "transfer")]
    # paying the card lowers what it owes and raises what is available
    _do(d, tap(d, rid="done_button"))
    _do(d, tap(d, desc="Pay card", rid="action_pay_card"))
    _do(d, type_into(d, "100", rid="amount_input"))
    _do(d, tap(d, rid="review_button"))
    _do(d, tap(d, rid="confirm_button"))
    card = {a["_id"]: a for a in d.probe.query("bank/accounts")}[3]
    assert card["balance"] == pytest.approx(acc[3]["balance"] - 100)
    assert card["available"] == pytest.approx(acc[3]["available"] + 100)


def test_activity_total_is_the_sum_of_the_filtered_rows() -> None:
    d = _open(seed=4)
    rows = d.probe.query("bank/transactions")
    _do(d, tap(d, desc="Activity", rid="nav_activity"))
    _do(d, type_into(d, "Starbucks", rid="search_src_text"))
    _do(d, tap(d, rid="filter_date"))
    _do(d, tap(d, text="February 2026", rid="sheet_item_title"))
    want = [r for r in rows if r["merchant"] == "Starbucks" and r["date"].startswith("2026-02")]
    assert want, "seed 4 has Starbucks visits in February"
    shown = [e for e in elements(d) if (e.resource_id or "").endswith("/txn_merchant")]
    assert shown and all(e.text == "Starbucks" for e in shown)
    assert text_of(d, rid="result_count") == f"{len(want)} transaction" + \
        ("s" if len(want) != 1 else "")
    total = -sum(r["amount"] for r in want)
    assert text_of(d, rid="total_spent") == f"${total:,.2f}"
    # an amount filter narrows further; Clear brings every transaction back
    _do(d, tap(d, rid="filter_amount"))
    _do(d, tap(d, text="Under $25", rid="sheet_item_title"))
    small = [r for r in want if abs(r["amount"]) < 25]
    assert text_of(d, rid="total_spent") == f"${-sum(r['amount'] for r in small):,.2f}"
    _do(d, tap(d, rid="clear_filters"))
    assert text_of(d, rid="result_count") == f"{len(rows)} transactions"


def test_freeze_switch_writes_the_card_and_shows_it_frozen() -> None:
    d = _open()
    cards = d.probe.query("bank/cards")
    debit = cards[0]
    assert debit["kind"] == "debit" and debit["frozen"] == 0
    _do(d, tap(d, desc="Cards", rid="nav_cards"))
    _do(d, tap(d, desc=f"ending in {debit['last4']}", rid="card_face", contains=True))
    _do(d, tap(d, text="Freeze card", rid="title"))
    after = d.probe.query("bank/cards")
    assert after[0]["frozen"] == 1 and after[1:] == cards[1:]
    assert text_of(d, rid="detail_status") == "Frozen"
    assert find(d, desc=f"Debit card ending in {debit['last4']}, frozen") is not None
    _do(d, tap(d, text="Freeze card", rid="title"))
    assert d.probe.query("bank/cards") == cards


def test_recipients_are_found_by_name_phone_or_email() -> None:
    d = _open()
    c = next(c for c in d.probe.contacts() if c["number"] and c["email"])
    _do(d, tap(d, desc="Send", rid="action_send"))
    digits = "".join(ch for ch in c["number"] if ch.isdigit())[-7:]
    for q in (c["display_name"].split()[1], digits, c["email"]):
        _do(d, type_into(d, q, rid="search_src_text"))
        names = [e.content_description for e in elements(d)
                 if (e.resource_id or "").endswith("/recipient_row")]
        assert c["display_name"] in names, q
    _do(d, type_into(d, "Nobody Atall", rid="search_src_text"))
    assert text_of(d, rid="empty_text") == 'No one matches "Nobody Atall"'


def test_fixtures_check_their_arguments_and_change_nothing_when_refused() -> None:
    d = PhoneWorldDevice(["bank"])
    d.reset(seed=0)
    st = d.world.stores["bank"]
    keep = copy.deepcopy(st)
    for kw, word in (({"last4": "0000", "frozen": True}, "last4"),
                     ({"last4": st["cards"][0]["last4"], "frozen": "yes"}, "frozen")):
        with pytest.raises(ValueError, match=word):
            bs.set_frozen_fixture(st, **kw)
    for kw, word in (({"merchant": "", "amount": 5, "date": "2026-03-01"}, "merchant"),
                     ({"merchant": "Cafe", "amount": -5, "date": "2026-03-01"}, "amount"),
                     ({"merchant": "Cafe", "amount": 5, "date": "2026-04-01"}, "date"),
                     ({"merchant": "Cafe", "amount": 5, "date": "2026-03-01",
                       "account": "Brokerage"}, "account"),
                     ({"merchant": "Cafe", "amount": 5, "date": "2026-03-01",
                       "category": "Toys"}, "category")):
        with pytest.raises(ValueError, match=word):
            bs.add_purchase_fixture(st, **kw)
    assert st == keep
    got = d.fixture("bank", "add_purchase", merchant="Cafe Luna", amount=12.5, date="2026-03-10")
    row = [r for r in d.probe.query("bank/transactions") if r["_id"] == got["_id"]][0]
    assert (row["merchant"], row["amount"], row["date"]) == ("Cafe Luna", -12.5, "2026-03-10")
    assert d.probe.query("bank/accounts")[0]["balance"] == \
        pytest.approx(keep["accounts"][0]["balance"] / 100 - 12.5)


def test_back_closes_a_filter_sheet_then_returns_home_from_a_tab() -> None:
    d = _open(seed=5)
    _do(d, tap(d, desc="Activity", rid="nav_activity"))
    _do(d, tap(d, rid="filter_date"))
    assert text_of(d, rid="sheet_title") == "Filter by date"
    _do(d, Action("navigate_back"))
    assert find(d, rid="sheet_title") is None and find(d, rid="filter_date") is not None
    _do(d, Action("navigate_back"))
    assert find(d, rid="total_balance") is not None  # Home, not the launcher
    _do(d, Action("navigate_back"))
    assert d.probe.foreground_app() != "com.phoneworld.bank"
