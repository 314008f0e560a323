"""Pieces the Bank screens share: colours, the bottom navigation, dates and amounts as
shown, a transaction row, a label-value row."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from phoneworld_gym.apps.bank import store as bs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import (
    Color,
    Column,
    Icon,
    Row,
    Text,
    View,
    dp,
)

NAVY: Color = (15, 35, 68)
NAVY_2: Color = (28, 58, 102)
TEAL: Color = (0, 128, 128)
WHITE: Color = (255, 255, 255)
PALE: Color = (190, 208, 228)
GREEN: Color = (20, 122, 70)
RED: Color = (179, 38, 30)
TABS: tuple[tuple[str, str, str], ...] = (
    ("home", "Home", "home"), ("arrow_right_arrow_left", "Pay", "pay"),
    ("receipt", "Activity", "activity"), ("credit_card", "Cards", "cards"))
CATEGORY_ICON = {"Groceries": "basket_shopping", "Dining": "utensils", "Transport": "car",
                 "Shopping": "bag_shopping", "Bills": "bolt", "Entertainment": "film",
                 "Health": "pills", "Housing": "home", "Income": "money_bill",
                 "Transfers": "arrow_right_arrow_left"}
KIND_ICON = {"checking": "landmark", "savings": "piggy_bank", "credit": "credit_card"}


def date_ranges(today: dt.date) -> dict[str, tuple[str, str]]:
    """The date filter's choices on ``today`` (the clock's date): label -> (first, last) ISO
    dates: the last 7 days, then this month and the months of history before it ("March
    2026", "February 2026", ... at the default clock)."""
    out = {"Last 7 days": ((today - dt.timedelta(days=6)).isoformat(), today.isoformat())}
    for back in range(bs.HISTORY_MONTHS + 1):
        first = bs.month_start(today, back)
        out[f"{first.strftime('%B')} {first.year}"] = (first.isoformat(),
                                                      bs.month_end(first).isoformat())
    return out


#: amount filter label -> (lowest, highest) cents of the amount's size
AMOUNT_RANGES: dict[str, tuple[int, int]] = {
    "Under $25": (0, 2499), "$25 to $100": (2500, 10000), "$100 to $500": (10001, 50000),
    "Over $500": (50001, 10**12),
}
QUICK = (2000, 5000, 10000)


# -- shared pieces ---------------------------------------------------------------------------
def back_home(ctx: Ctx) -> Callable[[], bool]:
    """Back on the Pay, Activity and Cards tabs returns to Home (as bottom-navigation apps
    do) rather than leaving the app."""
    def h() -> bool:
        ctx.reset_to_root()
        return True
    return h


def nav(ctx: Ctx, here: str) -> View:
    """The bottom navigation (a tab is a root screen: switching clears the back stack)."""
    return tab_nav(ctx, TABS, here)


def today(ctx: Ctx) -> dt.date:
    """The running clock's date."""
    return ctx.time().date()


def short_date(iso: str, today: dt.date) -> str:
    """"Today" (``iso`` is ``today``, the clock's date) or "Mar 9"."""
    d = dt.date.fromisoformat(iso)
    return "Today" if d == today else f"{d.strftime('%b')} {d.day}"


def long_date(iso: str) -> str:
    d = dt.date.fromisoformat(iso)
    return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}, {d.year}"


def acct_label(a: dict[str, Any]) -> str:
    return f"{a['name']} {bs.masked(a['last4'])}"


def amount_text(t: dict[str, Any]) -> View:
    c = int(t["amount"])
    return Text(bs.money(c, sign=True), size=16, weight="medium",
                color=GREEN if c > 0 else (29, 27, 32), rid="txn_amount")


def txn_row(ctx: Ctx, t: dict[str, Any], *, show_account: bool = True) -> View:
    """A transaction: its category glyph, merchant, date (and account), the signed amount."""
    th = ctx.theme
    a = bs.account(ctx.store, t["account_id"])
    day = short_date(t["date"], today(ctx))
    sub = day
    if show_account and a is not None:
        sub += f" · {a['name']}"
    if t["status"] == "Pending":
        sub += " · Pending"
    glyph = CATEGORY_ICON.get(t["category"], "receipt")
    return Row([
        Icon(glyph, size=18, box=40, radius=dp(20), color=NAVY, bg=th.primary_container,
             in_dump=False),
        Column([Text(t["merchant"], size=16, color=th.on_surface, max_lines=1,
                     rid="txn_merchant"),
                Text(sub, size=13, color=th.on_surface_variant, max_lines=1, rid="txn_sub")],
               flex=1, gap=dp(2)),
        amount_text(t),
    ], gap=dp(16), height=dp(72), padding=(w.MARGIN, 0, w.MARGIN, 0),
        on_click=ctx.go("transaction", id=t["id"]), rid="txn_row",
        desc=f"{t['merchant']}, {bs.money(int(t['amount']), sign=True)}, {day}",
        cls="android.widget.LinearLayout")


def header(ctx: Ctx, title: str, *, back: bool = True, actions: list[View] | None = None) -> View:
    return w.app_bar(title, on_back=ctx.pop if back else None, theme=ctx.theme,
                     actions=actions or [])


def field_row(label: str, value: str, rid: str, th: w.Theme) -> View:
    return Row([Text(label, size=14, color=th.on_surface_variant, flex=1),
                Text(value, size=16, color=th.on_surface, max_lines=2, rid=rid,
                     align="right", width=dp(220))],
               padding=(w.MARGIN, dp(14), w.MARGIN, dp(14)))


