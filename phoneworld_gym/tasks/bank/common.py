"""Shared pieces of the Bank tasks: the rows of ``bank/accounts`` (``_id``, ``name``,
``kind``, ``last4``, ``balance``, ``credit_limit``, ``available``), ``bank/transactions``
(``_id``, ``account_id``, ``date``, ``merchant``, ``category``, ``amount`` signed dollars,
``kind``, ``counterparty``, ``memo``, ``status``, ``ref``), ``bank/cards``, ``bank/payees``
and the static ``bank/profile`` (``daily_limit``), and the usual UI paths (Home, Activity
with its filters, Send money, Transfer, Cards).

A real phone's banking app keeps its data private, so these tasks run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.tasks.kit import open_root

CHECKING, SAVINGS, CREDIT = 1, 2, 3
MEMOS: tuple[str, ...] = (
    "Dinner", "Concert tickets", "Groceries", "Taxi", "Pizza night", "Birthday gift",
    "Movie night", "Gas money", "Brunch", "Book club", "Coffee", "Parking",
)


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {int(r["_id"]): r for r in rows}


def dollars(v: float) -> str:
    """"42.50", "1,200.00": how an amount is typed and read."""
    return f"{v:,.2f}"


def cents(v: float) -> int:
    return int(round(float(v) * 100))


def contacts_to_pay(probe: Probe) -> list[Row]:
    """Contacts with a number and a full name that only they have."""
    rows = [c for c in probe.contacts() if c["display_name"] and c["number"]]
    names = [c["display_name"] for c in rows]
    return [c for c in rows if names.count(c["display_name"]) == 1]


def past_months(day: dt.date) -> dict[str, str]:
    """The full months of history before ``day``'s month (the three before it), oldest first:
    "YYYY-MM" -> the label of the Activity date filter ("February 2026")."""
    out: dict[str, str] = {}
    for back in (3, 2, 1):
        k = day.year * 12 + day.month - 1 - back
        first = dt.date(k // 12, k % 12 + 1, 1)
        out[first.isoformat()[:7]] = f"{first.strftime('%B')} {first.year}"
    return out


def daily_left(probe: Probe, day: dt.date) -> float:
    """What can still be sent to people on ``day``, the phone's date (dollars)."""
    limit = float(probe.query("bank/profile")[0]["daily_limit"])
    sent = -sum(float(t["amount"]) for t in probe.query("bank/transactions")
                if t["kind"] == "sent" and t["date"] == day.isoformat())
    return round(limit - sent, 2)


def spent_at(rows: list[Row], merchant: str, month: str) -> float:
    """Dollars spent at ``merchant`` in ``month`` ("YYYY-MM"), from transaction rows."""
    return round(-sum(float(t["amount"]) for t in rows if t["merchant"] == merchant
                      and str(t["date"]).startswith(month) and float(t["amount"]) < 0), 2)


def money_on_screen(text: str | None) -> float:
    """The dollars of a "$1,234.56" or "-$12.00" label."""
    if not text:
        raise OracleError("no amount on screen")
    m = re.search(r"-?\$?([\d,]+\.\d{2})", text)
    if m is None:
        raise OracleError(f"no amount in {text!r}")
    return float(m.group(1).replace(",", ""))


# -- UI paths --------------------------------------------------------------------------------
def to_home(device: Device) -> Iterator[Action]:
    """Open Bank and back out to Home."""
    yield from open_root(device, "Bank", "total_balance", tries=6, tab="nav_home",
                         tab_desc="Home", package="com.phoneworld.bank",
                         fail="Bank's Home never showed")


def search_activity(device: Device, text: str, month: str = "") -> Iterator[Action]:
    """From anywhere: Activity, ``text`` searched, the month filter (its label, "<Month>
    YYYY")."""
    yield from to_home(device)
    yield tap(device, desc="Activity", rid="nav_activity")
    yield type_into(device, text, rid="search_src_text")
    if month:
        yield tap(device, rid="filter_date")
        yield tap(device, text=month, rid="sheet_item_title")


def send_form(device: Device, name: str, via_pay: bool = False) -> Iterator[Action]:
    """From anywhere: Send money (Home's quick action, or with ``via_pay``, the second path,
    the Pay tab's "Send money"), the person searched by name and chosen."""
    yield from to_home(device)
    if via_pay:
        yield tap(device, desc="Pay", rid="nav_pay")
        yield tap(device, desc="Send money", rid="send_money")
    else:
        yield tap(device, desc="Send", rid="action_send")
    yield type_into(device, name, rid="search_src_text")
    yield tap(device, desc=name, rid="recipient_row")


def fill_amount(device: Device, amount: str, memo: str = "", account: str = "") -> Iterator[Action]:
    """On a send or transfer form: the amount, the From account chip (by its name), the memo,
    then Review."""
    yield type_into(device, amount, rid="amount_input")
    if account:
        yield tap(device, text=account, rid="from_account", contains=True)
    if memo:
        yield type_into(device, memo, rid="memo_input")
    yield from scroll_to(device, rid="review_button")
    yield tap(device, rid="review_button")


def confirm(device: Device) -> Iterator[Action]:
    """On the review: confirm, then Done on the confirmation."""
    if find(device, rid="confirm_button") is None:
        raise OracleError(f"the form refused: {text_of(device, rid='error_text')!r}")
    yield tap(device, rid="confirm_button")
    yield tap(device, rid="done_button")


def send_money(device: Device, name: str, amount: str, memo: str = "",
               account: str = "", via_pay: bool = False) -> Iterator[Action]:
    """From anywhere: send ``amount`` to ``name`` (with a memo, from an account) and confirm."""
    yield from send_form(device, name, via_pay)
    yield from fill_amount(device, amount, memo, account)
    yield from confirm(device)


def transfer(device: Device, src: str, dst: str, amount: str,
             from_account: bool = False) -> Iterator[Action]:
    """From anywhere: Transfer, the From and To accounts by name, the amount, confirm;
    ``from_account`` (the second path) starts from the From account's own page."""
    yield from to_home(device)
    if from_account:
        yield tap(device, desc=src, rid="account_card", contains=True)
        yield tap(device, rid="transfer")
    else:
        yield tap(device, desc="Transfer", rid="action_transfer")
    yield tap(device, text=src, rid="from_account", contains=True)
    yield tap(device, text=dst, rid="to_account", contains=True)
    yield from fill_amount(device, amount)
    yield from confirm(device)
