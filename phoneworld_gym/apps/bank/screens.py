"""Bank screens that show money, like a modern mobile banking app (navy and teal): Home
(total balance, accounts, quick actions, recent activity), an account's page, Activity
(search and filters by account, category, date and amount, with the filtered total), a
transaction's details, Cards (freeze switches) and a card's details. The screens that move
money are in :mod:`screens_pay`."""

from __future__ import annotations

from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.bank import store as bs
from phoneworld_gym.apps.bank.parts import (
    AMOUNT_RANGES,
    CATEGORY_ICON,
    GREEN,
    KIND_ICON,
    NAVY,
    PALE,
    TEAL,
    WHITE,
    acct_label,
    back_home,
    date_ranges,
    field_row,
    header,
    long_date,
    nav,
    today,
    txn_row,
)
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.sheets import bottom_sheet
from phoneworld_gym.ui.view import (
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
    days = date_ranges(today(ctx)).get(str(s.get("f_date", "")))
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
        options = [("All dates", None)] + [(k, k) for k in date_ranges(today(ctx))]
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
