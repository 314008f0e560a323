"""Bank screens that move money: Pay & transfer (the daily limit left), Send money
(recipients from payees and Contacts, by name, phone or email), the amount form, a
transfer between own accounts, the review step and the confirmation.

Nothing is written until the review's confirm button; a refused transfer (over the daily
limit, more than the account holds) shows why on the form and records nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.bank import store as bs
from phoneworld_gym.apps.bank.parts import (
    GREEN,
    NAVY_2,
    QUICK,
    RED,
    TEAL,
    WHITE,
    acct_label,
    back_home,
    field_row,
    header,
    nav,
    today,
)
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
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


# -- pay & transfer hub ----------------------------------------------------------------------
def pay(ctx: Ctx) -> View | Page:
    """Send money, transfer, pay the card; the daily sending limit and what is left today;
    recent payees."""
    th = ctx.theme
    st = ctx.store
    limit = int(st["profile"]["daily_limit"])
    left = bs.remaining_today(st, today(ctx))
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
            ctx.replace(ctx.screen_name, state={**keep, "_fields": fields},
                        **{**ctx.args, "amount": c})
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
        why = bs.check_send(st, src, c, today(ctx))
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
        Text(f"You can send {bs.money(bs.remaining_today(st, today(ctx)))} more today "
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
                            str(args["email"]), c, str(args.get("memo", "")), today(ctx))
            else:
                t = bs.transfer(st, int(args["account"]), int(args["to"]), c, today(ctx),
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
