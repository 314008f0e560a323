"""Bill-payment screens: the bills (due first, with the total due), one bill with Pay (and a
confirmation), and the receipt with "Share to chat"."""

from __future__ import annotations

from phoneworld_gym.app import Page
from phoneworld_gym.apps.bills import store as bl
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import mini_app_bar
from phoneworld_gym.ui.view import Column, Icon, Row, Scroll, Text, View, dp

WHITE = (255, 255, 255)
GLYPHS = {b[0]: b[2] for b in bl.BILLERS}


def header(ctx: Ctx, title: str) -> Row:
    """The blue bar, with the mini-program's close button."""
    return mini_app_bar(ctx, title)


def bills(ctx: Ctx) -> View:
    """Every bill, due ones first, and the total still due."""
    due = [b for b in ctx.store["bills"] if b["status"] == "Due"]
    total = sum(b["amount"] for b in due)
    rows: list[View] = [w.card([Text("Total due", size=14, color=ctx.theme.on_primary_container),
                                Text(f"${total:.2f}", size=32, weight="bold",
                                     color=ctx.theme.on_primary_container, rid="total_due"),
                                Text(f"{len(due)} bills", size=14,
                                     color=ctx.theme.on_primary_container)],
                               theme=ctx.theme)]
    for b in sorted(ctx.store["bills"], key=lambda b: (b["status"] == "Paid", b["id"])):
        state = f"Due {b['due']}" if b["status"] == "Due" else "Paid"
        rows.append(w.list_item(
            f"{b['kind']} · {b['biller']}", subtitle=f"${b['amount']:.2f} · {state}",
            leading=Icon(GLYPHS.get(b["biller"], "receipt"), size=20, box=44, color=WHITE,
                         bg=ctx.theme.primary if b["status"] == "Due" else ctx.theme.outline,
                         radius=dp(22)),
            rid="bill", theme=ctx.theme, on_click=ctx.go("bill", bill=b["id"]),
            desc=f"{b['kind']}, {b['biller']}, ${b['amount']:.2f}, {state}"))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "Pay bills"),
                   Scroll([Column(rows, gap=dp(8), padding=(w.MARGIN, dp(12), w.MARGIN, 0))],
                          offset=offset, on_scroll=on_scroll, rid="bill_list")],
                  bg=ctx.theme.surface)


def bill(ctx: Ctx) -> Page:
    """One bill: amount, due date, account; Pay in full asks to confirm."""
    b = bl.bill(ctx.store, int(ctx.args["bill"]))
    kids: list[View] = [
        Text(b["biller"], size=22, weight="medium", color=ctx.theme.on_surface,
             rid="bill_biller"),
        Text(f"Account {b['account']}", size=14, color=ctx.theme.on_surface_variant,
             rid="bill_account"),
        Text(f"${b['amount']:.2f}", size=40, weight="bold", color=ctx.theme.primary,
             rid="bill_amount"),
        Text(f"Due {b['due']}" if b["status"] == "Due" else f"Paid on {b['paid_on']}",
             size=16, color=ctx.theme.on_surface, rid="bill_status"),
    ]
    if b["status"] == "Due":
        kids.append(w.button("Pay in full", ctx.show_dialog("pay"), rid="pay_bill",
                             theme=ctx.theme))
    else:
        kids.append(w.button("View receipt", ctx.go("receipt", bill=b["id"]),
                             rid="view_receipt", theme=ctx.theme, style="tonal"))

    def pay() -> None:
        bl.pay(ctx.store, b["id"], ctx.now)
        ctx.close_dialog()
        ctx.replace("receipt", bill=b["id"])

    dlg = None
    if ctx.dialog == "pay":
        dlg = w.dialog("Pay this bill?", f"${b['amount']:.2f} to {b['biller']} with Chat Pay",
                       [("Cancel", ctx.close_dialog), ("Pay", pay)], theme=ctx.theme)
    return Page(Column([header(ctx, b["kind"]),
                        Column(kids, gap=dp(12), padding=(w.MARGIN, dp(24), w.MARGIN, 0),
                               flex=1)], bg=ctx.theme.surface), dialog=dlg)


def receipt(ctx: Ctx) -> View:
    """A paid bill's receipt, with Share to chat."""
    b = bl.bill(ctx.store, int(ctx.args["bill"]))
    return Column([header(ctx, "Receipt"),
                   Column([Icon("circle_check", size=56, box=dp(96), color=ctx.theme.success,
                                in_dump=False),
                           Text("Payment complete" if b["status"] == "Paid" else "Not paid",
                                size=22, weight="medium", align="center",
                                color=ctx.theme.on_surface, rid="receipt_title"),
                           Text(bl.receipt(b), size=15, align="center",
                                color=ctx.theme.on_surface_variant, rid="receipt_text"),
                           w.button("Share to chat", ctx.share_to_host(text=bl.receipt(b)),
                                    rid="share_to_chat", theme=ctx.theme),
                           w.button("Done", lambda: ctx.reset_to("bills"), style="text",
                                    rid="done", theme=ctx.theme)],
                          gap=dp(16), padding=(w.MARGIN, dp(24), w.MARGIN, 0), flex=1)],
                  bg=ctx.theme.surface)
