"""Bank data: the owner's accounts, their transactions, cards and payees, and the rules a
transfer must pass.

The store is ``{"profile": {...}, "accounts": [...], "transactions": [...], "cards": [...],
"payees": [...], "next_txn": int, "next_payee": int, "next_ref": int}``. Money is kept in
integer cents (no float drift); the tables give dollars rounded to cents.

- An account is ``{id, name, kind, last4, balance, credit_limit}``: ``kind`` is "checking",
  "savings" or "credit"; a credit account's ``balance`` is what is owed.
- A transaction is ``{id, account_id, date, merchant, category, amount, kind, counterparty,
  memo, status, ref}``: ``amount`` is signed from the owner's side (a purchase or money sent is
  negative, a deposit or a card payment received is positive); ``kind`` is "purchase",
  "deposit", "transfer" (between own accounts), "sent", "received" or "payment".
- A card is ``{id, account_id, kind, name, last4, expiry, network, cvv, frozen}``.
- A payee is ``{id, name, phone, email}``: someone the owner has sent money to.

Sending money to people is capped by ``profile["daily_limit"]`` per day (what was sent today
counts), and no account may pay out more than it holds: :func:`check_send` and
:func:`check_transfer` say why a transfer is refused, and nothing is written then.

The history is generated around the phone's start clock (``life.today``, by default Saturday
2026-03-14): from the first of the month three months before it up to that day. What the
user does is dated by the running clock: the functions that need "today" take it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from phoneworld_gym.life import Life

#: how many whole months of history come before the current one
HISTORY_MONTHS = 3
CATEGORIES: tuple[str, ...] = (
    "Groceries", "Dining", "Transport", "Shopping", "Bills", "Entertainment", "Health",
    "Housing", "Income", "Transfers",
)
#: merchant -> (category, lowest, highest price in cents, visits per month (lo, hi))
MERCHANTS: dict[str, tuple[str, int, int, tuple[int, int]]] = {
    "Whole Foods Market": ("Groceries", 2400, 14800, (2, 4)),
    "Trader Joe's": ("Groceries", 1800, 9600, (1, 4)),
    "Safeway": ("Groceries", 1500, 8800, (0, 3)),
    "Starbucks": ("Dining", 450, 1490, (2, 6)),
    "Blue Bottle Coffee": ("Dining", 520, 1380, (0, 4)),
    "Chipotle": ("Dining", 1050, 2890, (1, 3)),
    "Sweetgreen": ("Dining", 1290, 2450, (0, 3)),
    "Olive Garden": ("Dining", 3800, 9200, (0, 1)),
    "Shell": ("Transport", 3200, 6800, (1, 3)),
    "Uber": ("Transport", 1100, 4800, (1, 4)),
    "Lyft": ("Transport", 950, 3900, (0, 2)),
    "Amazon": ("Shopping", 1299, 12999, (1, 4)),
    "Target": ("Shopping", 1850, 11200, (1, 3)),
    "Best Buy": ("Shopping", 2999, 34999, (0, 1)),
    "IKEA": ("Shopping", 2500, 21000, (0, 1)),
    "CVS Pharmacy": ("Health", 690, 4800, (0, 2)),
    "Walgreens": ("Health", 550, 3900, (0, 2)),
    "AMC Theatres": ("Entertainment", 1450, 4600, (0, 2)),
}
#: monthly bills: merchant -> (category, cents (fixed) or (lo, hi), day of month, on credit)
BILLS: dict[str, tuple[str, int | tuple[int, int], int, bool]] = {
    "Netflix": ("Entertainment", 1549, 9, True),
    "Spotify": ("Entertainment", 1199, 12, True),
    "City Power & Light": ("Bills", (6200, 14800), 18, False),
    "Spectrum Internet": ("Bills", 7999, 22, False),
    "Verizon Wireless": ("Bills", (6500, 9200), 25, False),
}
MEMOS: tuple[str, ...] = (
    "Dinner", "Concert tickets", "Groceries", "Taxi", "Pizza night", "Birthday gift",
    "Movie night", "Gas money", "Brunch", "Utilities share", "Coffee", "Book club",
)
LANDLORD = "Oakridge Property Mgmt"


def cents(dollars: float) -> int:
    return int(round(float(dollars) * 100))


def money(c: int, *, sign: bool = False) -> str:
    """"$1,234.56" (``sign``: "+$12.00" / "-$12.00")."""
    s = f"${abs(c) / 100:,.2f}"
    if c < 0:
        return f"-{s}"
    return f"+{s}" if sign and c > 0 else s


def parse_amount(text: str) -> int | None:
    """Cents from what a person types ("42.5", "$1,200", "19.99"); None when it is not an
    amount of money (letters, more than two decimals, zero or negative)."""
    t = text.strip().replace(",", "").removeprefix("$").strip()
    if not t or t.count(".") > 1 or not all(ch.isdigit() or ch == "." for ch in t):
        return None
    whole, _, frac = t.partition(".")
    if len(frac) > 2 or not (whole or frac):
        return None
    c = int(whole or "0") * 100 + int((frac + "00")[:2] or "0")
    return c if c > 0 else None


def _last4(rng: np.random.Generator) -> str:
    return f"{int(rng.integers(1000, 10000))}"


def _day(rng: np.random.Generator, first: dt.date, last: dt.date) -> dt.date:
    return first + dt.timedelta(days=int(rng.integers(0, (last - first).days + 1)))


def month_start(day: dt.date, back: int = 0) -> dt.date:
    """The first day of ``day``'s month, or of the month ``back`` months before it."""
    k = day.year * 12 + day.month - 1 - back
    return dt.date(k // 12, k % 12 + 1, 1)


def month_end(first: dt.date) -> dt.date:
    """The last day of the month that starts on ``first``."""
    return (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)


def history_start(today: dt.date) -> dt.date:
    """The first day of history: the 1st of the month :data:`HISTORY_MONTHS` before
    ``today``'s."""
    return month_start(today, HISTORY_MONTHS)


def _months(today: dt.date) -> list[tuple[dt.date, dt.date]]:
    """(first, last day with history) of each month from the first day of history to
    ``today``."""
    out = []
    d = history_start(today)
    while d <= today:
        last = month_end(d)
        out.append((d, min(last, today)))
        d = last + dt.timedelta(days=1)
    return out


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Checking, savings and a credit card with the history of the three months before
    ``life.today``'s and this month up to it, drawn from the life: paychecks from the owner's
    employer, rent, bills, purchases at everyday merchants, money sent to and received from
    the life's people, a monthly move into savings and card payments (none dated after
    today); a debit, a credit and a virtual card (one sometimes frozen); the people paid
    before as payees."""
    owner = life.owner
    today = life.today
    st: dict[str, Any] = {
        "profile": {"owner": owner.name, "daily_limit": int(rng.choice([100000, 150000,
                                                                         200000, 250000]))},
        "accounts": [], "transactions": [], "cards": [], "payees": [],
        "next_txn": 1, "next_payee": 1, "next_ref": 7001 + int(rng.integers(0, 900)),
    }
    limit = int(rng.choice([500000, 800000, 1000000]))
    for i, (name, kind, lo, hi) in enumerate((
            ("Everyday Checking", "checking", 180000, 650000),
            ("High-Yield Savings", "savings", 500000, 2500000),
            ("Rewards Visa", "credit", 30000, 250000))):
        st["accounts"].append({"id": i + 1, "name": name, "kind": kind, "last4": _last4(rng),
                               "balance": int(rng.integers(lo, hi)),
                               "credit_limit": limit if kind == "credit" else 0})
    people = list(life.people)
    order = [int(i) for i in rng.permutation(len(people))]
    friends = [people[i] for i in order[:6]]
    for p in friends[:int(rng.integers(4, 6))]:
        add_payee(st, p.name, p.phone, p.email)
    raw: list[dict[str, Any]] = []

    def txn(day: dt.date, account: int, merchant: str, category: str, amount: int,
            kind: str, counterparty: str = "", memo: str = "") -> None:
        raw.append({"account_id": account, "date": day.isoformat(), "merchant": merchant,
                    "category": category, "amount": amount, "kind": kind,
                    "counterparty": counterparty, "memo": memo})

    employer = owner.company or "Northwind"
    pay = int(rng.integers(210000, 340000))
    rent = int(rng.integers(140000, 220000))
    to_savings = int(rng.choice([25000, 50000, 75000]))
    merchants = list(MERCHANTS)
    for first, last in _months(today):
        for payday in (1, 15):
            d = first.replace(day=payday)
            if d <= last:
                txn(d, 1, f"Payroll {employer}", "Income", pay, "deposit")
        if first.day == 1:
            txn(first, 1, LANDLORD, "Housing", -rent, "purchase", memo="Rent")
        for name, (cat, price, day, credit) in BILLS.items():
            d = first.replace(day=day)
            if d <= last:
                c = price if isinstance(price, int) else int(rng.integers(*price))
                txn(d, 3 if credit else 1, name, cat, -c, "purchase")
        d = first.replace(day=2)
        if d <= last:
            txn(d, 1, "Transfer to High-Yield Savings", "Transfers", -to_savings, "transfer")
            txn(d, 2, "Transfer from Everyday Checking", "Transfers", to_savings, "transfer")
        d = first.replace(day=5)
        owed = int(rng.integers(40000, 160000))  # drawn even when the 5th is still to come
        if d <= last:
            txn(d, 1, "Payment to Rewards Visa", "Transfers", -owed, "payment")
            txn(d, 3, "Payment from Everyday Checking", "Transfers", owed, "payment")
        for m in merchants:
            cat, lo, hi, (vmin, vmax) = MERCHANTS[m]
            for _ in range(int(rng.integers(vmin, vmax + 1))):
                on_credit = bool(rng.random() < 0.55)
                txn(_day(rng, first, last), 3 if on_credit else 1, m, cat,
                    -int(rng.integers(lo, hi)), "purchase")
        for k in range(int(rng.integers(1, 4))):
            p = friends[int(rng.integers(len(friends)))]
            amount = int(rng.integers(8, 120)) * 100 + int(rng.choice([0, 0, 50, 25]))
            if k == 0 or rng.random() < 0.5:  # someone is paid every month
                txn(_day(rng, first, last), 1, f"Sent to {p.name}", "Transfers", -amount,
                    "sent", p.name, MEMOS[int(rng.integers(len(MEMOS)))])
            else:
                txn(_day(rng, first, last), 1, f"Received from {p.name}", "Transfers", amount,
                    "received", p.name, MEMOS[int(rng.integers(len(MEMOS)))])
    raw.sort(key=lambda t: (t["date"], t["account_id"], t["merchant"]))
    for t in raw:
        add_txn(st, **t)
    pending = today - dt.timedelta(days=1)
    for t in st["transactions"]:
        if t["date"] >= pending.isoformat() and t["kind"] == "purchase":
            t["status"] = "Pending"
    for i, (kind, name, acct) in enumerate((("debit", "Debit card", 1),
                                            ("credit", "Rewards Visa card", 3),
                                            ("virtual", "Virtual card", 3))):
        st["cards"].append({
            "id": i + 1, "account_id": acct, "kind": kind, "name": name,
            "last4": st["accounts"][2]["last4"] if kind == "credit" else _last4(rng),
            # good for one to four more years
            "expiry": f"{int(rng.integers(1, 13)):02d}/"
                      f"{int(rng.integers(today.year % 100 + 1, today.year % 100 + 5)):02d}",
            "network": "Visa", "cvv": f"{int(rng.integers(100, 1000))}",
            # the virtual card (for shopping online) is often kept frozen between uses
            "frozen": kind == "virtual" and bool(rng.random() < 0.5)})
    return st


# -- lookups ---------------------------------------------------------------------------------
def account(st: dict[str, Any], aid: Any) -> dict[str, Any] | None:
    return next((a for a in st["accounts"] if a["id"] == aid), None)


def card(st: dict[str, Any], cid: Any) -> dict[str, Any] | None:
    return next((c for c in st["cards"] if c["id"] == cid), None)


def txn_by_id(st: dict[str, Any], tid: Any) -> dict[str, Any] | None:
    return next((t for t in st["transactions"] if t["id"] == tid), None)


def payee(st: dict[str, Any], pid: Any) -> dict[str, Any] | None:
    return next((p for p in st["payees"] if p["id"] == pid), None)


def masked(last4: str) -> str:
    return f"••{last4}"


def full_number(c: dict[str, Any]) -> str:
    """The card's 16 digits (derived from its last four and id, grouped by four)."""
    head = f"4{(int(c['last4']) * 7919 + c['id'] * 104729) % 10**11:011d}"
    digits = head + c["last4"]
    return " ".join(digits[i:i + 4] for i in range(0, 16, 4))


def spendable(a: dict[str, Any]) -> int:
    """What an account can pay out: a deposit account's balance (credit cards cannot send)."""
    return a["balance"] if a["kind"] != "credit" else 0


def sent_today(st: dict[str, Any], today: dt.date) -> int:
    """Cents sent to people on ``today`` (the clock's date; counts against the daily
    limit)."""
    return -sum(t["amount"] for t in st["transactions"]
                if t["kind"] == "sent" and t["date"] == today.isoformat())


def remaining_today(st: dict[str, Any], today: dt.date) -> int:
    return max(0, int(st["profile"]["daily_limit"]) - sent_today(st, today))


def newest_first(txns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(txns, key=lambda t: (t["date"], t["id"]), reverse=True)


# -- changes ---------------------------------------------------------------------------------
def add_txn(st: dict[str, Any], *, account_id: int, date: str, merchant: str, category: str,
            amount: int, kind: str, counterparty: str = "", memo: str = "",
            status: str = "Posted", ref: str = "") -> dict[str, Any]:
    t = {"id": st["next_txn"], "account_id": account_id, "date": date, "merchant": merchant,
         "category": category, "amount": int(amount), "kind": kind,
         "counterparty": counterparty, "memo": memo, "status": status, "ref": ref}
    st["next_txn"] += 1
    st["transactions"].append(t)
    return t


def add_payee(st: dict[str, Any], name: str, phone: str, email: str) -> dict[str, Any]:
    p = {"id": st["next_payee"], "name": name, "phone": phone, "email": email}
    st["next_payee"] += 1
    st["payees"].append(p)
    return p


def _ref(st: dict[str, Any]) -> str:
    r = f"PW{st['next_ref']:06d}"
    st["next_ref"] += 1
    return r


def check_send(st: dict[str, Any], from_id: int, amount: int | None, today: dt.date) -> str:
    """Why sending ``amount`` cents to a person from account ``from_id`` on ``today`` is
    refused ("" when it is allowed): no amount, a credit account, over the daily limit, not
    enough money."""
    a = account(st, from_id)
    if amount is None:
        return "Enter an amount"
    if a is None or a["kind"] == "credit":
        return "Choose a checking or savings account to send from"
    if amount > remaining_today(st, today):
        return (f"This exceeds your daily sending limit of "
                f"{money(int(st['profile']['daily_limit']))}. You can send up to "
                f"{money(remaining_today(st, today))} more today.")
    if amount > spendable(a):
        return (f"Insufficient funds: {a['name']} has {money(a['balance'])} available.")
    return ""


def check_transfer(st: dict[str, Any], from_id: int, to_id: int, amount: int | None) -> str:
    """Why moving ``amount`` cents between own accounts is refused ("" when allowed)."""
    src, dst = account(st, from_id), account(st, to_id)
    if amount is None:
        return "Enter an amount"
    if src is None or src["kind"] == "credit":
        return "Choose a checking or savings account to transfer from"
    if dst is None or dst["id"] == src["id"]:
        return "Choose a different account to transfer to"
    if amount > spendable(src):
        return f"Insufficient funds: {src['name']} has {money(src['balance'])} available."
    if dst["kind"] == "credit" and amount > dst["balance"]:
        return f"The payment is more than the card's balance of {money(dst['balance'])}."
    return ""


def send(st: dict[str, Any], from_id: int, name: str, phone: str, email: str, amount: int,
         memo: str, today: dt.date) -> dict[str, Any]:
    """Send money to a person on ``today`` (after :func:`check_send` allowed it): the account
    pays, one "sent" transaction is recorded and the person becomes a payee if they were not
    one."""
    why = check_send(st, from_id, amount, today)
    if why:
        raise ValueError(why)
    a = account(st, from_id)
    assert a is not None
    a["balance"] -= amount
    if not any(p["name"] == name for p in st["payees"]):
        add_payee(st, name, phone, email)
    return add_txn(st, account_id=from_id, date=today.isoformat(), merchant=f"Sent to {name}",
                   category="Transfers", amount=-amount, kind="sent", counterparty=name,
                   memo=memo, ref=_ref(st))


def transfer(st: dict[str, Any], from_id: int, to_id: int, amount: int, today: dt.date,
             memo: str = "") -> dict[str, Any]:
    """Move money between own accounts on ``today`` (a payment when the target is the credit
    card): both balances change and each account records its side."""
    why = check_transfer(st, from_id, to_id, amount)
    if why:
        raise ValueError(why)
    src, dst = account(st, from_id), account(st, to_id)
    assert src is not None and dst is not None
    src["balance"] -= amount
    pay = dst["kind"] == "credit"
    dst["balance"] += -amount if pay else amount
    kind = "payment" if pay else "transfer"
    ref = _ref(st)
    out = add_txn(st, account_id=from_id, date=today.isoformat(),
                  merchant=f"{'Payment' if pay else 'Transfer'} to {dst['name']}",
                  category="Transfers", amount=-amount, kind=kind, memo=memo, ref=ref)
    add_txn(st, account_id=to_id, date=today.isoformat(),
            merchant=f"{'Payment' if pay else 'Transfer'} from {src['name']}",
            category="Transfers", amount=amount, kind=kind, memo=memo, ref=ref)
    return out


# -- tables ----------------------------------------------------------------------------------
def _d(c: int) -> float:
    return round(c / 100, 2)


def account_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``bank/accounts``: ``_id``, ``name``, ``kind``, ``last4``, ``balance`` (dollars; owed
    on a credit card), ``credit_limit``, ``available`` (what can be spent or borrowed)."""
    return [{"_id": a["id"], "name": a["name"], "kind": a["kind"], "last4": a["last4"],
             "balance": _d(a["balance"]), "credit_limit": _d(a["credit_limit"]),
             "available": _d(a["credit_limit"] - a["balance"] if a["kind"] == "credit"
                             else a["balance"])}
            for a in sorted(st["accounts"], key=lambda a: a["id"])]


def transaction_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``bank/transactions``: ``_id``, ``account_id``, ``date`` (ISO), ``merchant``,
    ``category``, ``amount`` (signed dollars), ``kind``, ``counterparty``, ``memo``,
    ``status``, ``ref``."""
    return [{"_id": t["id"], "account_id": t["account_id"], "date": t["date"],
             "merchant": t["merchant"], "category": t["category"], "amount": _d(t["amount"]),
             "kind": t["kind"], "counterparty": t["counterparty"], "memo": t["memo"],
             "status": t["status"], "ref": t["ref"]}
            for t in sorted(st["transactions"], key=lambda t: t["id"])]


def card_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``bank/cards``: ``_id``, ``account_id``, ``kind``, ``name``, ``last4``, ``expiry``,
    ``network``, ``frozen`` (0/1)."""
    return [{"_id": c["id"], "account_id": c["account_id"], "kind": c["kind"],
             "name": c["name"], "last4": c["last4"], "expiry": c["expiry"],
             "network": c["network"], "frozen": int(c["frozen"])}
            for c in sorted(st["cards"], key=lambda c: c["id"])]


def payee_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``bank/payees``: ``_id``, ``name``, ``phone``, ``email``."""
    return [{"_id": p["id"], "name": p["name"], "phone": p["phone"], "email": p["email"]}
            for p in sorted(st["payees"], key=lambda p: p["id"])]


def profile_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``bank/profile`` (static): one row with ``owner`` and ``daily_limit`` (dollars)."""
    return [{"_id": 1, "owner": st["profile"]["owner"],
             "daily_limit": _d(int(st["profile"]["daily_limit"]))}]


# -- fixtures --------------------------------------------------------------------------------
def set_frozen_fixture(st: dict[str, Any], last4: Any = None,
                       frozen: Any = None) -> dict[str, Any]:
    """Setup routine: freeze or unfreeze the card ending in ``last4``. Returns its ``_id``,
    ``name`` and ``frozen``; a bad argument raises ``ValueError`` naming it."""
    if not isinstance(frozen, bool):
        raise ValueError(f"set_frozen: frozen must be true or false, got {frozen!r}")
    c = next((c for c in st["cards"] if isinstance(last4, str) and c["last4"] == last4), None)
    if c is None:
        raise ValueError(f"set_frozen: last4 must name a card "
                         f"({[c['last4'] for c in st['cards']]}), got {last4!r}")
    c["frozen"] = frozen
    return {"_id": c["id"], "name": c["name"], "frozen": int(frozen)}


def add_purchase_fixture(st: dict[str, Any], merchant: Any = None, amount: Any = None,
                         date: Any = None, account: Any = "Everyday Checking",
                         category: Any = "Shopping", today: Any = None) -> dict[str, Any]:
    """Setup routine: record a purchase of ``amount`` dollars at ``merchant`` on ``date`` (an
    ISO date within the bank's history: not before its first day, not after ``today``, the
    phone's ISO date as the task reads it off the clock, or without it not after the newest
    day the bank has a record of) from the account named ``account``; its balance pays.
    Returns the new row's ``_id`` and ``amount``; a bad argument raises ``ValueError`` naming
    it and changes nothing."""
    if not isinstance(merchant, str) or not merchant.strip():
        raise ValueError(f"add_purchase: merchant must be a non-empty string, got {merchant!r}")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)) or amount <= 0:
        raise ValueError(f"add_purchase: amount must be a positive number, got {amount!r}")
    try:
        day = dt.date.fromisoformat(date) if isinstance(date, str) else None
    except ValueError:
        day = None
    try:
        last = dt.date.fromisoformat(today) if isinstance(today, str) else None
    except ValueError:
        last = None
    if today is not None and last is None:
        raise ValueError(f"add_purchase: today must be an ISO date, got {today!r}")
    dates = sorted(str(t["date"]) for t in st["transactions"])
    if last is None and not dates:
        raise ValueError("add_purchase: the bank has no history; pass today, the phone's date")
    if last is None:  # the span of the bank's own records
        first, last = dt.date.fromisoformat(dates[0]), dt.date.fromisoformat(dates[-1])
    else:
        first = history_start(last)
    if day is None or not first <= day <= last:
        raise ValueError(f"add_purchase: date must be an ISO date between {first} and {last}, "
                         f"got {date!r}")
    a = next((a for a in st["accounts"] if a["name"] == account), None)
    if a is None:
        raise ValueError(f"add_purchase: account must name an account "
                         f"({[a['name'] for a in st['accounts']]}), got {account!r}")
    if category not in CATEGORIES:
        raise ValueError(f"add_purchase: category must be one of {CATEGORIES}, got {category!r}")
    c = cents(amount)
    a["balance"] += c if a["kind"] == "credit" else -c
    t = add_txn(st, account_id=a["id"], date=day.isoformat(), merchant=merchant.strip(),
                category=category, amount=-c, kind="purchase")
    return {"_id": t["id"], "amount": _d(-c)}
