"""Bank screens, like a modern mobile banking app (navy and teal): Home (total balance,
accounts, quick actions, recent activity), an account's page, Activity (search and filters by
account, category, date and amount, with the filtered total), a transaction's details, Pay &
transfer (the daily limit left), Send money (recipients from payees and Contacts, by name,
phone or email), the amount form, a transfer between own accounts, the review step, the
confirmation, Cards (freeze switches) and a card's details.

Nothing is written until the review's confirm button; a refused transfer (over the daily
limit, more than the account holds) shows why on the form and records nothing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from phoneworld_gym.app import Ctx, Page
from phoneworld_gym.apps.bank import store as bs
from phoneworld_gym.ui import controls
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.sheets import bottom_sheet
from phoneworld_gym.ui.view import (
    Color,
    Column,
    Divider,
    Handler,
    Icon,
    Row,
    Scroll,
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
#: date filter label -> (first, last) ISO dates
DATE_RANGES: dict[str, tuple[str, str]] = {
    "Last 7 days": ((bs.TODAY - dt.timedelta(days=6)).isoformat(), bs.TODAY.isoformat()),
    "March 2026": ("2026-03-01", "2026-03-31"),
    "February 2026": ("2026-02-01", "2026-02-28"),
    "January 2026": ("2026-01-01", "2026-01-31"),
    "December 2025": ("2025-12-01", "2025-12-31"),
}
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
        ctx.reset_to("home")
        return True
    return h


def nav(ctx: Ctx, here: str) -> View:
    """The bottom navigation (a tab is a root screen: switching clears the back stack)."""
    def go(screen: str) -> Handler:
        return lambda: ctx.reset_to(screen)
    return w.bottom_nav([(icon, label, screen == here, go(screen))
                         for icon, label, screen in TABS], theme=ctx.theme)


def short_date(iso: str) -> str:
    d = dt.date.fromisoformat(iso)
    return "Today" if d == bs.TODAY else f"{d.strftime('%b')} {d.day}"


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
    sub = short_date(t["date"])
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
        desc=f"{t['merchant']}, {bs.money(int(t['amount']), sign=True)}, {short_date(t['date'])}",
        cls="android.widget.LinearLayout")


def header(ctx: Ctx, title: str, *, back: bool = True, actions: list[View] | None = None) -> View:
    return w.app_bar(title, on_back=ctx.pop if back else None, theme=ctx.theme,
                     actions=actions or [])


def field_row(label: str, value: str, rid: str, th: w.Theme) -> View:
    return Row([Text(label, size=14, color=th.on_surface_variant, flex=1),
                Text(value, size=16, color=th.on_surface, max_lines=2, rid=rid,
                     align="right", width=dp(220))],
               padding=(w.MARGIN, dp(14), w.MARGIN, dp(14)))


# -- home ------------------------------------------------------------------------------------
def account_card(ctx: Ctx, a: dict[str, Any]) -> View:
    th = ctx.theme
    lines: list[View] = [
        Row([Icon(KIND_ICON[a["kind"]], size=18, box=36, color=TEAL, in_dump=False),
             Column([Text(a["name"], size=16, weight="medium", color=th.on_surface,
                          max_lines=1, rid="account_name"),
                     Text(bs.masked(a["last4"]), size=13, color=th.on_surface_variant)],
                    flex=1),
             Column([Text(bs.money(a["balance"]), size=18, weight="medium",
                          color=th.on_surface, align="right", rid="account_balance"),
                     Text("Balance owed" if a["kind"] == "credit" else "Available",
                          size=12, color=th.on_surface_variant, align="right")])],
            gap=dp(12)),
    ]
    if a["kind"] == "credit":
        lines.append(Text(f"Available credit {bs.money(a['credit_limit'] - a['balance'])} of "
                          f"{bs.money(a['credit_limit'])}", size=13,
                          color=th.on_surface_variant, rid="available_credit"))
    return w.card(lines, on_click=ctx.go("account", id=a["id"]), theme=th, elevated=True,
                  desc=f"{a['name']}, {bs.money(a['balance'])}", rid="account_card")


def quick_action(glyph: str, label: str, on_click: Handler, th: w.Theme) -> View:
    return Column([Row([View(flex=1, in_dump=False),
                        Icon(glyph, size=20, box=52, radius=dp(26), color=WHITE, bg=TEAL,
                             in_dump=False),
                        View(flex=1, in_dump=False)]),
                   Text(label, size=13, color=th.on_surface, align="center")],
                  gap=dp(6), flex=1, on_click=on_click, desc=label,
                  rid=f"action_{label.lower().replace(' ', '_')}",
                  cls="android.widget.Button")


def home(ctx: Ctx) -> View | Page:
    """Total balance on a navy banner, the accounts, quick actions, recent activity."""
    th = ctx.theme
    st = ctx.store
    first = str(st["profile"]["owner"]).split()[0]
    total = sum(bs.spendable(a) for a in st["accounts"])
    banner = Column([
        Text(f"Good morning, {first}", size=16, color=PALE),
        Text("Total in checking and savings", size=13, color=PALE),
        Text(bs.money(total), size=34, weight="medium", color=WHITE, rid="total_balance"),
    ], gap=dp(4), bg=NAVY, padding=(w.MARGIN + dp(4), dp(16), w.MARGIN, dp(24)))
    actions = Row([
        quick_action("paper_plane", "Send", ctx.go("send"), th),
        quick_action("arrow_right_arrow_left", "Transfer", ctx.go("transfer"), th),
        quick_action("credit_card", "Pay card", ctx.go("transfer", to=3), th),
        quick_action("snowflake", "Cards", lambda: ctx.reset_to("cards"), th),
    ], padding=(dp(8), dp(16), dp(8), dp(8)))
    recent = bs.newest_first(st["transactions"])[:5]
    rows: list[View] = [banner, actions, w.section("Accounts", theme=th)]
    rows += [Column([account_card(ctx, a)], padding=(w.MARGIN, dp(4), w.MARGIN, dp(4)))
             for a in st["accounts"]]
    rows.append(w.section("Recent activity", theme=th, action=w.button(
        "See all", lambda: ctx.reset_to("activity"), style="text", rid="see_all", theme=th)))
    rows += [txn_row(ctx, t) for t in recent]
    rows.append(w.spacer(dp(16)))
    offset, on_scroll = ctx.scroll()
    bar = Row([Icon("landmark", size=20, box=40, color=WHITE, in_dump=False),
               Text("Bank", size=22, weight="medium", color=WHITE, flex=1, rid="title"),
               w.icon_button("bell", "Notifications", ctx.go("activity"), color=WHITE,
                             theme=th, rid="menu_alerts")],
              gap=dp(8), height=dp(64), bg=NAVY, padding=(w.MARGIN, 0, dp(4), 0),
              rid="toolbar", cls="android.widget.LinearLayout")
    return Column([bar, Scroll(rows, offset=offset, on_scroll=on_scroll, rid="home_list"),
                   nav(ctx, "home")], bg=th.surface)


# -- an account ------------------------------------------------------------------------------
def account_screen(ctx: Ctx) -> View | Page:
    """An account: balance, number, credit limit, Send/Transfer, its transactions."""
    th = ctx.theme
    a = bs.account(ctx.store, ctx.args.get("id"))
    if a is None:
        return Column([header(ctx, "Account"), w.text("This account no longer exists.",
                                                      padding=(w.MARGIN,) * 4)], bg=th.surface)
    owed = a["kind"] == "credit"
    info: list[View] = [
        Text("Current balance" if owed else "Available balance", size=14, color=PALE),
        Text(bs.money(a["balance"]), size=34, weight="medium", color=WHITE,
             rid="account_balance"),
        Text(f"Account {bs.masked(a['last4'])}", size=14, color=PALE, rid="account_number"),
    ]
    if owed:
        info.append(Text(f"Credit limit {bs.money(a['credit_limit'])} · Available "
                         f"{bs.money(a['credit_limit'] - a['balance'])}", size=14, color=PALE,
                         rid="credit_line"))
    buttons: list[View] = []
    if owed:
        buttons.append(w.button("Pay card", ctx.go("transfer", to=a["id"]), rid="pay_card",
                                theme=th, flex=1))
    else:
        buttons += [w.button("Send", ctx.go("send", account=a["id"]), rid="send", theme=th,
                             flex=1),
                    w.button("Transfer", ctx.go("transfer", **{"from": a["id"]}), style="tonal",
                             rid="transfer", theme=th, flex=1)]
    txns = bs.newest_first([t for t in ctx.store["transactions"] if t["account_id"] == a["id"]])
    rows: list[View] = [
        Column(info, gap=dp(4), bg=NAVY, padding=(w.MARGIN + dp(4), dp(8), w.MARGIN, dp(24))),
        Row(buttons, gap=dp(12), padding=(w.MARGIN, dp(16), w.MARGIN, dp(8))),
        w.section("Transactions", theme=th, action=w.button(
            "Search", lambda: ctx.reset_to("activity", account=a["id"]), style="text",
            rid="search_account", theme=th)),
    ]
    rows += [txn_row(ctx, t, show_account=False) for t in txns[:30]]
    offset, on_scroll = ctx.scroll()
    bar = Row([w.icon_button("back", "Navigate up", ctx.pop, color=WHITE, theme=th),
               Text(a["name"], size=22, color=WHITE, flex=1, max_lines=1, rid="title")],
              gap=dp(4), height=dp(64), bg=NAVY, padding=(dp(4), 0, dp(4), 0), rid="toolbar",
              cls="android.widget.LinearLayout")
    return Column([bar, Scroll(rows, offset=offset, on_scroll=on_scroll, rid="account_list")],
                  bg=th.surface)


# -- activity --------------------------------------------------------------------------------
def filtered(ctx: Ctx, q: str, acct: Any) -> list[dict[str, Any]]:
    """The transactions matching the search text, the account ``acct`` (None: all) and the
    chosen filters, newest first."""
    s = ctx.state
    cat = s.get("f_category")
    days = DATE_RANGES.get(str(s.get("f_date", "")))
    size = AMOUNT_RANGES.get(str(s.get("f_amount", "")))
    ql = q.strip().lower()
    out = []
    for t in ctx.store["transactions"]:
        if acct is not None and t["account_id"] != acct:
            continue
        if cat and t["category"] != cat:
            continue
        if days and not days[0] <= t["date"] <= days[1]:
            continue
        if size and not size[0] <= abs(t["amount"]) <= size[1]:
            continue
        if ql and ql not in t["merchant"].lower() and ql not in t["memo"].lower():
            continue
        out.append(t)
    return bs.newest_first(out)


def filter_sheet(ctx: Ctx, which: str) -> View:
    """The bottom sheet of one filter: its choices, the chosen one checked."""
    st = ctx.store
    key = f"f_{which}"
    options: list[tuple[str, Any]]
    if which == "account":
        title = "Account"
        options = [("All accounts", None)] + [(acct_label(a), a["id"]) for a in st["accounts"]]
    elif which == "category":
        title = "Category"
        options = [("All categories", None)] + [(c, c) for c in bs.CATEGORIES]
    elif which == "date":
        title = "Date"
        options = [("All dates", None)] + [(k, k) for k in DATE_RANGES]
    else:
        title = "Amount"
        options = [("Any amount", None)] + [(k, k) for k in AMOUNT_RANGES]

    def pick(value: Any) -> Handler:
        def h() -> None:
            ctx.state[key] = value
            ctx.state.setdefault("_scroll", {})["main"] = 0
            ctx.close_dialog()
        return h

    chosen = ctx.state[key] if key in ctx.state else (ctx.args.get("account")
                                                       if which == "account" else None)

    def glyph(v: Any) -> str:
        if chosen == v:
            return "check"
        if which == "category" and v:
            return CATEGORY_ICON.get(str(v), "receipt")
        return {"account": "landmark", "date": "calendar", "amount": "money_bill"}.get(
            which, "receipt")

    items: list[Any] = [(glyph(v), label, pick(v)) for label, v in options]
    return bottom_sheet(f"Filter by {title.lower()}", items, theme=ctx.theme)


def activity(ctx: Ctx) -> View | Page:
    """Search and filter chips over every transaction, the matching total, the rows."""
    th = ctx.theme
    st = ctx.store
    # the screen's account argument (from an account page) is the filter until one is chosen
    shown_acct = ctx.state["f_account"] if "f_account" in ctx.state else ctx.args.get("account")
    query, on_query = ctx.field("q")
    rows_src = filtered(ctx, query, shown_acct)
    acct = bs.account(st, shown_acct)
    labels = {
        "account": acct_label(acct) if acct else "Account",
        "category": str(ctx.state.get("f_category") or "Category"),
        "date": str(ctx.state.get("f_date") or "Date"),
        "amount": str(ctx.state.get("f_amount") or "Amount"),
    }
    active = {"account": acct is not None, "category": bool(ctx.state.get("f_category")),
              "date": bool(ctx.state.get("f_date")), "amount": bool(ctx.state.get("f_amount"))}
    chips = [w.chip(labels[k], selected=active[k], on_click=ctx.show_dialog(k),
                    rid=f"filter_{k}", theme=th) for k in ("account", "category", "date",
                                                           "amount")]
    spent = -sum(t["amount"] for t in rows_src if t["amount"] < 0)
    received = sum(t["amount"] for t in rows_src if t["amount"] > 0)
    n = len(rows_src)
    summary = Row([
        Column([Text("Money out", size=12, color=th.on_surface_variant),
                Text(bs.money(spent), size=18, weight="medium", color=th.on_surface,
                     rid="total_spent")], flex=1),
        Column([Text("Money in", size=12, color=th.on_surface_variant),
                Text(bs.money(received), size=18, weight="medium", color=GREEN,
                     rid="total_received")], flex=1),
        Text(f"{n} transaction{'s' if n != 1 else ''}", size=13,
             color=th.on_surface_variant, rid="result_count"),
    ], gap=dp(8), padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)), bg=th.surface_container,
        radius=dp(12))
    rows: list[View] = [Column([summary], padding=(w.MARGIN, dp(4), w.MARGIN, dp(8)))]
    if rows_src:
        rows += [txn_row(ctx, t) for t in rows_src[:60]]
        if n > 60:
            rows.append(Text("Narrow the search to see older transactions", size=13,
                             color=th.on_surface_variant, align="center",
                             padding=(0, dp(12), 0, dp(12))))
    else:
        rows.append(Column([
            Icon("receipt", size=48, box=88, color=th.primary_container, in_dump=False),
            Text("No transactions found", size=18, color=th.on_surface, align="center",
                 rid="empty_title"),
            Text("Try another search or clear a filter", size=14,
                 color=th.on_surface_variant, align="center")],
            gap=dp(8), padding=(0, dp(40), 0, dp(24))))
    filters_on = any(active.values()) or bool(query.strip())

    def clear() -> None:
        for k in ("f_account", "f_category", "f_date", "f_amount"):
            ctx.state[k] = None
        ctx.state.setdefault("_fields", {})["q"] = ""

    chip_row: list[View] = list(chips)
    offset, on_scroll = ctx.scroll()
    search = w.text_field("q", query, on_text=on_query, hint="Search merchants or notes",
                          rid="search_src_text")
    top: list[View] = [w.app_bar("Activity", theme=th, actions=[
        w.button("Clear", clear, style="text", rid="clear_filters", theme=th,
                 enabled=filters_on)]),
        Column([search], padding=(w.MARGIN, 0, w.MARGIN, dp(8))),
        w.wrap_row(chip_row, 1080 - 2 * w.MARGIN)]
    top[-1].padding = (w.MARGIN, 0, w.MARGIN, dp(8))
    body = Column([*top, Scroll(rows, offset=offset, on_scroll=on_scroll, rid="txn_list"),
                   nav(ctx, "activity")], bg=th.surface)
    dlg = filter_sheet(ctx, ctx.dialog) if ctx.dialog in ("account", "category", "date",
                                                          "amount") else None
    return Page(body, dialog=dlg, on_back=back_home(ctx))


# -- a transaction ---------------------------------------------------------------------------
def transaction(ctx: Ctx) -> View | Page:
    """A transaction's details: amount, merchant, date, account, category, status, memo."""
    th = ctx.theme
    t = bs.txn_by_id(ctx.store, ctx.args.get("id"))
    if t is None:
        return Column([header(ctx, "Transaction"), w.text("This transaction no longer exists.",
                                                          padding=(w.MARGIN,) * 4)],
                      bg=th.surface)
    a = bs.account(ctx.store, t["account_id"])
    c = int(t["amount"])
    rows: list[View] = [
        Column([Text(t["merchant"], size=20, color=th.on_surface, align="center",
                     rid="txn_title"),
                Text(bs.money(c, sign=True), size=36, weight="medium",
                     color=GREEN if c > 0 else th.on_surface, align="center",
                     rid="txn_amount"),
                Text(t["status"], size=14, color=th.on_surface_variant, align="center",
                     rid="txn_status")],
               gap=dp(6), padding=(w.MARGIN, dp(24), w.MARGIN, dp(24))),
        Divider(),
        field_row("Date", long_date(t["date"]), "txn_date", th),
        field_row("Account", acct_label(a) if a else "", "txn_account", th),
        field_row("Category", t["category"], "txn_category", th),
    ]
    if t["counterparty"]:
        rows.append(field_row("Person", t["counterparty"], "txn_person", th))
    if t["memo"]:
        rows.append(field_row("Memo", t["memo"], "txn_memo", th))
    if t["ref"]:
        rows.append(field_row("Reference", t["ref"], "txn_ref", th))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "Transaction details"),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="txn_details")],
                  bg=th.surface)


# -- pay & transfer hub ----------------------------------------------------------------------
def pay(ctx: Ctx) -> View | Page:
    """Send money, transfer, pay the card; the daily sending limit and what is left today;
    recent payees."""
    th = ctx.theme
    st = ctx.store
    limit = int(st["profile"]["daily_limit"])
    left = bs.remaining_today(st)
    items: list[View] = [
        w.list_item("Send money", subtitle="To a contact by name, phone or email",
                    leading=Icon("paper_plane", size=20, box=40, color=TEAL, in_dump=False),
                    on_click=ctx.go("send"), rid="send_money", desc="Send money", theme=th),
        w.list_item("Transfer between accounts", subtitle="Checking and savings",
                    leading=Icon("arrow_right_arrow_left", size=20, box=40, color=TEAL,
                                 in_dump=False),
                    on_click=ctx.go("transfer"), rid="transfer_money",
                    desc="Transfer between accounts", theme=th),
        w.list_item("Pay credit card", subtitle="From checking or savings",
                    leading=Icon("credit_card", size=20, box=40, color=TEAL, in_dump=False),
                    on_click=ctx.go("transfer", to=3), rid="pay_credit_card",
                    desc="Pay credit card", theme=th),
        Column([w.card([
            Text("Daily sending limit", size=14, color=th.on_surface_variant),
            Text(bs.money(limit), size=22, weight="medium", color=th.on_surface,
                 rid="daily_limit"),
            Text(f"{bs.money(left)} left today · {bs.money(limit - left)} sent today",
                 size=14, color=th.on_surface_variant, rid="limit_left"),
        ], theme=th, gap=dp(4))], padding=(w.MARGIN, dp(12), w.MARGIN, dp(4))),
        w.section("Recent payees", theme=th),
    ]
    for p in st["payees"]:
        items.append(w.list_item(p["name"], subtitle=p["phone"],
                                 leading=w.avatar(p["name"], TEAL),
                                 on_click=ctx.go("send_form", name=p["name"], phone=p["phone"],
                                                 email=p["email"]),
                                 rid="payee_row", desc=p["name"], theme=th))
    offset, on_scroll = ctx.scroll()
    return Page(Column([w.app_bar("Pay & transfer", theme=th),
                        Scroll(items, offset=offset, on_scroll=on_scroll, rid="pay_list"),
                        nav(ctx, "pay")], bg=th.surface), on_back=back_home(ctx))


# -- choose whom to pay ----------------------------------------------------------------------
def recipients(ctx: Ctx) -> list[dict[str, str]]:
    """Payees first, then contacts with a number or email who are not payees yet."""
    out = [{"name": p["name"], "phone": p["phone"], "email": p["email"], "payee": "1"}
           for p in ctx.store["payees"]]
    known = {p["name"] for p in out}
    for c in ctx.query("contacts"):
        name = str(c.get("display_name") or "")
        if name and name not in known and (c.get("number") or c.get("email")):
            out.append({"name": name, "phone": str(c.get("number") or ""),
                        "email": str(c.get("email") or ""), "payee": ""})
            known.add(name)
    return out


def send(ctx: Ctx) -> View | Page:
    """Whom to pay: a search over payees and contacts by name, phone or email."""
    th = ctx.theme
    query, on_query = ctx.field("q")
    q = query.strip().lower()
    qd = "".join(ch for ch in q if ch.isdigit())
    people = [r for r in recipients(ctx)
              if not q or q in r["name"].lower() or q in r["email"].lower()
              or (len(qd) >= 3 and qd in "".join(ch for ch in r["phone"] if ch.isdigit()))]
    acct = ctx.args.get("account")

    def row(r: dict[str, str]) -> View:
        args: dict[str, Any] = {"name": r["name"], "phone": r["phone"], "email": r["email"]}
        if acct is not None:
            args["account"] = acct
        return w.list_item(r["name"], subtitle=r["phone"] or r["email"],
                           leading=w.avatar(r["name"], TEAL if r["payee"] else NAVY_2),
                           on_click=ctx.go("send_form", **args), rid="recipient_row",
                           desc=r["name"], theme=th)

    rows: list[View] = []
    payees = [r for r in people if r["payee"]]
    others = [r for r in people if not r["payee"]]
    if payees:
        rows.append(w.section("Payees", theme=th))
        rows += [row(r) for r in payees]
    if others:
        rows.append(w.section("Contacts", theme=th))
        rows += [row(r) for r in others]
    if not people:
        rows.append(Text(f'No one matches "{query.strip()}"', size=14,
                         color=th.on_surface_variant, align="center",
                         padding=(0, dp(40), 0, 0), rid="empty_text"))
    offset, on_scroll = ctx.scroll()
    field = w.text_field("q", query, on_text=on_query, hint="Name, phone or email",
                         rid="search_src_text", outlined=True)
    return Column([header(ctx, "Send money"),
                   Column([field], padding=(w.MARGIN, dp(4), w.MARGIN, dp(8))),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="recipient_list")],
                  bg=th.surface)


# -- forms -----------------------------------------------------------------------------------
def account_chips(ctx: Ctx, chosen: Any, key: str, *, credit: bool, exclude: Any = None,
                  rid: str) -> View:
    """One chip per account to choose from (credit accounts only when ``credit``)."""
    th = ctx.theme
    chips = [w.chip(f"{a['name']} {bs.masked(a['last4'])}", selected=a["id"] == chosen,
                    on_click=ctx.setter(key, a["id"]), rid=rid, theme=th)
             for a in ctx.store["accounts"]
             if (credit or a["kind"] != "credit") and a["id"] != exclude]
    return w.wrap_row(chips, 1080 - 2 * w.MARGIN)


def amount_block(ctx: Ctx, amount: str, on_amount: Callable[[str], None]) -> list[View]:
    """The amount field and the quick-amount chips (a chip reopens the form with that amount
    as its argument, keeping what else was filled in)."""
    th = ctx.theme

    def quick(c: int) -> Handler:
        def h() -> None:
            keep = {k: v for k, v in ctx.state.items() if k != "_fields"}
            fields = {k: v for k, v in ctx.state.get("_fields", {}).items() if k != "amount"}
            ctx.replace(ctx.screen_name, **{**ctx.args, "amount": c})
            ctx.world.stacks[ctx.host.name][-1]["state"].update(keep, _fields=fields)
        return h

    return [
        w.text_field("amount", amount, on_text=on_amount, label="Amount ($)",
                     rid="amount_input"),
        Row([w.chip(bs.money(c).removesuffix(".00"), on_click=quick(c), rid="quick_amount",
                    selected=bs.parse_amount(amount) == c, theme=th) for c in QUICK], gap=dp(8)),
    ]


def preset_amount(ctx: Ctx) -> str:
    """The amount the form was opened with ("" when none), as a person would type it."""
    c = ctx.args.get("amount")
    if not isinstance(c, int) or c <= 0:
        return ""
    return f"{c // 100}" if c % 100 == 0 else f"{c / 100:.2f}"


def send_form(ctx: Ctx) -> View | Page:
    """How much to send a person, from which account, what for; Review checks the daily limit
    and the balance and shows why it refuses."""
    th = ctx.theme
    st = ctx.store
    name, phone, email = (str(ctx.args.get(k, "")) for k in ("name", "phone", "email"))
    amount, on_amount = ctx.field("amount", preset_amount(ctx))
    memo, on_memo = ctx.field("memo")
    src = int(ctx.state.get("from", ctx.args.get("account") or 1))
    src_acct = bs.account(st, src)
    if src_acct is None or src_acct["kind"] == "credit":
        src = 1
    err = str(ctx.state.get("error", ""))

    def review() -> None:
        c = bs.parse_amount(amount)
        why = bs.check_send(st, src, c)
        if why:
            ctx.state["error"] = why
            return
        ctx.state["error"] = ""
        ctx.push("review", mode="send", name=name, phone=phone, email=email, amount=c,
                 account=src, memo=memo.strip())

    kids: list[View] = [
        Row([w.avatar(name, TEAL, size=48),
             Column([Text(name, size=20, color=th.on_surface, max_lines=1, rid="recipient_name"),
                     Text(phone or email, size=14, color=th.on_surface_variant, max_lines=1,
                          rid="recipient_detail")], flex=1)], gap=dp(16)),
        *amount_block(ctx, amount, on_amount),
        Text("From", size=14, weight="medium", color=th.on_surface_variant),
        account_chips(ctx, src, "from", credit=False, rid="from_account"),
        w.text_field("memo", memo, on_text=on_memo, label="What's it for? (optional)",
                     rid="memo_input"),
        Text(f"You can send {bs.money(bs.remaining_today(st))} more today "
             f"(daily limit {bs.money(int(st['profile']['daily_limit']))})", size=13,
             color=th.on_surface_variant, rid="limit_hint"),
    ]
    if err:
        kids.append(Row([Icon("circle_exclamation", size=18, box=24, color=RED, in_dump=False),
                         Text(err, size=14, color=RED, flex=1, rid="error_text")], gap=dp(8)))
    # Review stays disabled until the field holds an amount of money
    kids.append(w.button("Review", review, rid="review_button", theme=th, height=dp(48),
                         enabled=bs.parse_amount(amount) is not None))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "Send money"),
                   Scroll(kids, gap=dp(12), offset=offset, on_scroll=on_scroll,
                          padding=(w.MARGIN, dp(8), w.MARGIN, dp(24)), rid="send_form")],
                  bg=th.surface)


def transfer(ctx: Ctx) -> View | Page:
    """Move money between own accounts or pay the credit card: from, to, amount, Review."""
    th = ctx.theme
    st = ctx.store
    amount, on_amount = ctx.field("amount", preset_amount(ctx))
    memo, on_memo = ctx.field("memo")
    src = int(ctx.state.get("from", ctx.args.get("from") or 1))
    default_to = ctx.args.get("to") or (2 if src == 1 else 1)
    dst = int(ctx.state.get("to", default_to))
    err = str(ctx.state.get("error", ""))

    def review() -> None:
        c = bs.parse_amount(amount)
        why = bs.check_transfer(st, src, dst, c)
        if why:
            ctx.state["error"] = why
            return
        ctx.state["error"] = ""
        ctx.push("review", mode="transfer", amount=c, account=src, to=dst, memo=memo.strip())

    kids: list[View] = [
        Text("From", size=14, weight="medium", color=th.on_surface_variant),
        account_chips(ctx, src, "from", credit=False, rid="from_account"),
        Text("To", size=14, weight="medium", color=th.on_surface_variant),
        account_chips(ctx, dst, "to", credit=True, exclude=src, rid="to_account"),
        *amount_block(ctx, amount, on_amount),
        w.text_field("memo", memo, on_text=on_memo, label="Memo (optional)", rid="memo_input"),
    ]
    a = bs.account(st, src)
    if a is not None:
        kids.append(Text(f"Available in {a['name']}: {bs.money(bs.spendable(a))}", size=13,
                         color=th.on_surface_variant, rid="available_hint"))
    if err:
        kids.append(Row([Icon("circle_exclamation", size=18, box=24, color=RED, in_dump=False),
                         Text(err, size=14, color=RED, flex=1, rid="error_text")], gap=dp(8)))
    # Review stays disabled until the field holds an amount of money
    kids.append(w.button("Review", review, rid="review_button", theme=th, height=dp(48),
                         enabled=bs.parse_amount(amount) is not None))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "Transfer"),
                   Scroll(kids, gap=dp(12), offset=offset, on_scroll=on_scroll,
                          padding=(w.MARGIN, dp(8), w.MARGIN, dp(24)), rid="transfer_form")],
                  bg=th.surface)


# -- review and confirmation -----------------------------------------------------------------
def review(ctx: Ctx) -> View | Page:
    """The review step: every detail of the transfer and the button that makes it; the
    checks run again there (nothing is written when they refuse)."""
    th = ctx.theme
    st = ctx.store
    args = ctx.args
    mode = str(args.get("mode", "send"))
    c = int(args.get("amount", 0))
    src = bs.account(st, args.get("account"))
    dst = bs.account(st, args.get("to")) if mode == "transfer" else None
    err = str(ctx.state.get("error", ""))
    to_text = str(args.get("name", "")) if mode == "send" else (acct_label(dst) if dst else "")

    def confirm() -> None:
        try:
            if mode == "send":
                t = bs.send(st, int(args["account"]), str(args["name"]), str(args["phone"]),
                            str(args["email"]), c, str(args.get("memo", "")))
            else:
                t = bs.transfer(st, int(args["account"]), int(args["to"]), c,
                                str(args.get("memo", "")))
        except ValueError as e:
            ctx.state["error"] = str(e)
            return
        ctx.replace("done", mode=mode, amount=c, to=to_text, ref=t["ref"])

    rows: list[View] = [
        Column([Text("You're sending" if mode == "send" else "You're moving", size=16,
                     color=th.on_surface_variant, align="center"),
                Text(bs.money(c), size=40, weight="medium", color=th.on_surface,
                     align="center", rid="review_amount")],
               gap=dp(4), padding=(0, dp(24), 0, dp(16))),
        Divider(),
        field_row("To", to_text, "review_to", th),
    ]
    if mode == "send":
        rows.append(field_row("Phone or email", str(args.get("phone") or args.get("email")),
                              "review_contact", th))
    rows += [field_row("From", acct_label(src) if src else "", "review_from", th),
             field_row("Memo", str(args.get("memo") or "None"), "review_memo", th),
             field_row("Arrives", "Instantly" if mode == "send" else "Today", "review_when",
                       th),
             Divider()]
    if err:
        rows.append(Row([Icon("circle_exclamation", size=18, box=24, color=RED, in_dump=False),
                         Text(err, size=14, color=RED, flex=1, rid="error_text")], gap=dp(8),
                        padding=(w.MARGIN, dp(12), w.MARGIN, 0)))
    label = f"Send {bs.money(c)}" if mode == "send" else f"Transfer {bs.money(c)}"
    rows += [Column([w.button(label, confirm, rid="confirm_button", theme=th, height=dp(48)),
                     w.button("Edit", ctx.pop, style="outlined", rid="edit_button", theme=th,
                              height=dp(48))],
                    gap=dp(12), padding=(w.MARGIN, dp(24), w.MARGIN, dp(24)))]
    return Column([header(ctx, "Review"), Scroll(rows, rid="review_details")], bg=th.surface)


def done(ctx: Ctx) -> View | Page:
    """The confirmation: what was sent or moved, the reference, Done."""
    th = ctx.theme
    args = ctx.args
    c = int(args.get("amount", 0))
    what = (f"You sent {bs.money(c)} to {args.get('to', '')}" if args.get("mode") == "send"
            else f"You moved {bs.money(c)} to {args.get('to', '')}")
    body = Column([
        View(flex=1, in_dump=False),
        Row([View(flex=1, in_dump=False),
             Icon("check", size=44, box=96, radius=dp(48), color=WHITE, bg=GREEN,
                  in_dump=False),
             View(flex=1, in_dump=False)]),
        Text("Done!", size=28, weight="medium", color=th.on_surface, align="center",
             rid="done_title"),
        Text(what, size=18, color=th.on_surface, align="center", rid="done_text"),
        Text(f"Reference {args.get('ref', '')}", size=14, color=th.on_surface_variant,
             align="center", rid="done_ref"),
        View(flex=1, in_dump=False),
        w.button("Done", lambda: ctx.reset_to("home"), rid="done_button", theme=th,
                 height=dp(48)),
    ], gap=dp(16), padding=(w.MARGIN, dp(24), w.MARGIN, dp(32)), bg=th.surface)
    def back() -> bool:
        ctx.reset_to("home")
        return True

    return Page(body, on_back=back)


# -- cards -----------------------------------------------------------------------------------
def card_face(ctx: Ctx, c: dict[str, Any], *, show: bool = False,
              on_click: Handler | None = None) -> View:
    """A payment card as drawn in the app: navy (grey when frozen), name, number, expiry."""
    frozen = bool(c["frozen"])
    number = bs.full_number(c) if show else f"•••• •••• •••• {c['last4']}"
    kids: list[View] = [
        Row([Text(c["name"], size=16, weight="medium", color=WHITE, flex=1, rid="card_name"),
             Text("FROZEN" if frozen else c["network"].upper(), size=14, weight="bold",
                  color=PALE if frozen else WHITE, rid="card_state")]),
        View(flex=1, in_dump=False),
        Text(number, size=20, color=WHITE, rid="card_number"),
        Row([Text(str(ctx.store["profile"]["owner"]).upper(), size=13, color=PALE, flex=1,
                  max_lines=1),
             Text(f"EXP {c['expiry']}" if show else "EXP ••/••", size=13, color=PALE,
                  rid="card_expiry")]),
    ]
    return Column(kids, gap=dp(6), height=dp(190), radius=dp(16),
                  bg=(110, 118, 130) if frozen else NAVY,
                  padding=(dp(20), dp(18), dp(20), dp(18)), on_click=on_click,
                  desc=f"{c['name']} ending in {c['last4']}{', frozen' if frozen else ''}",
                  rid="card_face", cls="android.widget.FrameLayout")


def toggle_freeze(ctx: Ctx, c: dict[str, Any]) -> Handler:
    def h() -> None:
        c["frozen"] = not c["frozen"]
        ctx.toast(f"{c['name']} {'frozen' if c['frozen'] else 'unfrozen'}")
    return h


def freeze_row(ctx: Ctx, c: dict[str, Any]) -> View:
    return controls.switch_row(
        "Freeze card", bool(c["frozen"]), toggle_freeze(ctx, c),
        summary="New purchases are blocked" if c["frozen"] else "Temporarily block purchases",
        icon="snowflake", rid="freeze_switch", theme=ctx.theme)


def cards(ctx: Ctx) -> View | Page:
    """Every card with a freeze switch under it; a tap on a card opens its details."""
    th = ctx.theme
    rows: list[View] = []
    for c in ctx.store["cards"]:
        a = bs.account(ctx.store, c["account_id"])
        rows.append(Column([
            card_face(ctx, c, on_click=ctx.go("card", id=c["id"])),
            Text(f"{c['kind'].capitalize()} · linked to {acct_label(a) if a else ''}", size=13,
                 color=th.on_surface_variant, rid="card_link"),
            freeze_row(ctx, c),
        ], gap=dp(4), padding=(w.MARGIN, dp(12), w.MARGIN, dp(4))))
    offset, on_scroll = ctx.scroll()
    return Page(Column([w.app_bar("Cards", theme=th),
                        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="card_list"),
                        nav(ctx, "cards")], bg=th.surface), on_back=back_home(ctx))


def card_screen(ctx: Ctx) -> View | Page:
    """A card: its face, Show details (number, expiry, CVV), the freeze switch, the account it
    draws on."""
    th = ctx.theme
    c = bs.card(ctx.store, ctx.args.get("id"))
    if c is None:
        return Column([header(ctx, "Card"), w.text("This card no longer exists.",
                                                   padding=(w.MARGIN,) * 4)], bg=th.surface)
    show = bool(ctx.state.get("show"))
    a = bs.account(ctx.store, c["account_id"])
    rows: list[View] = [
        Column([card_face(ctx, c, show=show)], padding=(w.MARGIN, dp(12), w.MARGIN, dp(8))),
        Row([w.button("Hide details" if show else "Show details",
                      ctx.setter("show", not show), style="tonal", rid="show_details",
                      theme=th, flex=1)], padding=(w.MARGIN, dp(4), w.MARGIN, dp(4))),
        freeze_row(ctx, c),
        Divider(),
        field_row("Card number", bs.full_number(c) if show else f"Ending in {c['last4']}",
                  "detail_number", th),
        field_row("Expires", c["expiry"] if show else "••/••", "detail_expiry", th),
        field_row("Security code", c["cvv"] if show else "•••", "detail_cvv", th),
        field_row("Network", c["network"], "detail_network", th),
        field_row("Linked account", acct_label(a) if a else "", "detail_account", th),
        field_row("Status", "Frozen" if c["frozen"] else "Active", "detail_status", th),
    ]
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, c["name"]),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="card_details")],
                  bg=th.surface)
