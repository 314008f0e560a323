"""Expense tracker screens, like a money app (Monefy, Spendee): a month's entries by day with
the budget bar and its over-budget warning, the entry editor (amount, category sheet with
icons, note, date picker, delete with a confirmation), a monthly summary (a stacked bar and a
bar per category, drawn with views), a category's entries and the monthly budgets.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.expenses import store as es
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import pickers
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.sheets import bottom_sheet
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

RED = (186, 26, 26)
AMBER = (176, 96, 0)
TRACK = (226, 232, 240)
BAR_W = 1080 - 2 * w.MARGIN


def today(ctx: Ctx) -> dt.date:
    """The running clock's date."""
    return ctx.time().date()


def month_state(ctx: Ctx) -> str:
    return str(ctx.state.get("month", ctx.args.get("month", today(ctx).isoformat()[:7])))


def cat_icon(name: str, *, box: float = 40) -> View:
    color = es.COLORS[name]
    tint = tuple(int(c + (255 - c) * 0.82) for c in color)
    return Icon(es.ICONS[name], size=box * 0.45, box=box, radius=dp(box / 2), color=color,
                bg=tint, in_dump=False)  # type: ignore[arg-type]


def nav(ctx: Ctx, current: str) -> View:
    def to(screen: str) -> Handler:  # a tab keeps the month on show
        return lambda: ctx.reset_to(screen, month=month_state(ctx))

    return tab_nav(ctx, [("list", "Entries", "main"), ("chart_pie", "Summary", "summary"),
                         ("wallet", "Budgets", "budgets")], current, to=to)


def month_switcher(ctx: Ctx, month: str) -> View:
    """‹ <Month> <Year> › (the arrows stop at the months the app keeps, counted from the
    clock's month)."""
    th = ctx.theme
    prev, nxt = es.shift_month(month, -1), es.shift_month(month, 1)
    first, last = prev < es.first_month(today(ctx)), nxt > es.last_month(today(ctx))
    return Row([
        w.icon_button("chevron_left", "Previous month",
                      None if first else ctx.setter("month", prev), rid="prev_month", theme=th,
                      color=th.outline_variant if first else None),
        Text(es.month_label(month), size=18, weight="medium", align="center", flex=1,
             color=th.on_surface, rid="month_title"),
        w.icon_button("chevron_right", "Next month",
                      None if last else ctx.setter("month", nxt), rid="next_month", theme=th,
                      color=th.outline_variant if last else None),
    ], height=dp(56), padding=(dp(8), 0, dp(8), 0))


def budget_card(ctx: Ctx, month: str) -> View:
    """Spent this month, the budget bar and, when it is exceeded, the warning."""
    th = ctx.theme
    spent = es.total(es.in_month(ctx.store, month))
    budget = es.budget_of(ctx.store, month)
    kids: list[View] = [
        Text("Spent", size=14, color=th.on_surface_variant),
        Text(es.money(spent), size=32, weight="medium", color=th.on_surface, rid="month_total"),
    ]
    if budget is None:
        kids.append(Row([Text("No budget set for this month", size=14, flex=1,
                              color=th.on_surface_variant, rid="budget_text"),
                         w.button("Set budget", lambda: ctx.reset_to("budgets", month=month),
                                  style="text", rid="set_budget", theme=th)]))
    else:
        frac = min(1.0, spent / budget) if budget else 1.0
        over = es.over_by(ctx.store, month)
        color = RED if over else AMBER if frac >= 0.85 else th.primary
        kids.append(Row([View(width=max(dp(4), int((BAR_W - 2 * w.MARGIN) * frac)),
                              height=dp(8), radius=dp(4), bg=color, in_dump=False)],
                        height=dp(8), radius=dp(4), bg=TRACK, in_dump=False))
        kids.append(Text(f"{es.money(spent)} of {es.money(budget)} budget", size=14,
                         color=th.on_surface_variant, rid="budget_text"))
        if over:
            kids.append(Row([Icon("triangle_exclamation", size=16, box=24, color=RED,
                                  in_dump=False),
                             Text(f"Over budget by {es.money(over)}", size=14, weight="medium",
                                  color=RED, flex=1, rid="budget_warning")], gap=dp(8)))
        else:
            kids.append(Text(f"{es.money(budget - spent)} left", size=14, weight="medium",
                             color=th.primary, rid="budget_left"))
    return w.card(kids, theme=th, gap=dp(6))


def entry_row(ctx: Ctx, e: dict[str, Any]) -> View:
    th = ctx.theme
    title = e["note"] or e["category"]
    return Row([cat_icon(e["category"]),
                Column([Text(title, size=16, color=th.on_surface, max_lines=1,
                             rid="entry_note"),
                        Text(e["category"], size=13, color=th.on_surface_variant,
                             rid="entry_category")], flex=1),
                Text(es.money(e["amount"]), size=16, weight="medium", color=th.on_surface,
                     rid="entry_amount")],
               gap=dp(16), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)),
               on_click=ctx.go("edit", id=e["id"]), rid="entry_row",
               desc=f"{title}, {es.money(e['amount'])}, {_day(e['date'])}",
               cls="android.widget.LinearLayout")


def _day(iso: str) -> str:
    d = dt.date.fromisoformat(iso)
    return f"{d.strftime('%a')}, {d.strftime('%b')} {d.day}"


def entries_by_day(ctx: Ctx, entries: list[dict[str, Any]]) -> list[View]:
    th = ctx.theme
    rows: list[View] = []
    day = ""
    for e in entries:
        if e["date"] != day:
            day = e["date"]
            spent = es.total([x for x in entries if x["date"] == day])
            rows.append(Row([Text(_day(day), size=14, weight="medium", color=th.primary,
                                  flex=1, rid="day_header"),
                             Text(es.money(spent), size=13, color=th.on_surface_variant)],
                            padding=(w.MARGIN, dp(12), w.MARGIN, dp(2))))
        rows.append(entry_row(ctx, e))
    return rows


# -- entries ---------------------------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """The month's switcher, budget card and entries by day, and the add button."""
    th = ctx.theme
    month = month_state(ctx)
    entries = es.in_month(ctx.store, month)
    offset, on_scroll = ctx.scroll(month)
    rows: list[View] = [Column([budget_card(ctx, month)], padding=(w.MARGIN, 0, w.MARGIN, 0))]
    if entries:
        rows += entries_by_day(ctx, entries)
    else:
        rows.append(Column([
            Icon("receipt", size=48, box=88, color=th.primary_container, in_dump=False),
            Text("No expenses this month", size=18, align="center", color=th.on_surface,
                 rid="empty_title"),
            Text("Tap + to add one", size=14, align="center", color=th.on_surface_variant)],
            gap=dp(8), padding=(0, dp(40), 0, 0)))
    rows.append(w.spacer(dp(96)))
    body = Column([
        w.app_bar("Expenses", theme=th),
        month_switcher(ctx, month),
        # the list spans the width; only the button keeps its margin from the edges
        Stack([Scroll(rows, offset=offset, on_scroll=on_scroll, rid="entry_list"),
               Stack([w.fab("plus", "Add expense", ctx.go("edit", id=0, month=month),
                            theme=th, rid="add_expense")],
                     padding=(0, 0, w.MARGIN, w.MARGIN))], flex=1),
        nav(ctx, "main"),
    ], bg=th.surface)
    return Page(body)


# -- the editor ------------------------------------------------------------------------------
def edit(ctx: Ctx) -> View | Page:
    """An entry's editor (``id`` 0: a new one, dated today or the 1st of the month shown).
    Save checks the amount; Delete asks first."""
    th = ctx.theme
    eid = int(ctx.args.get("id", 0))
    e = es.find(ctx.store, eid) if eid else None
    if eid and e is None:
        return Page(Column([w.app_bar("Expense", on_back=ctx.pop, theme=th),
                            w.text("This expense no longer exists.", padding=(w.MARGIN,) * 4)],
                           bg=th.surface))
    month = str(ctx.args.get("month", today(ctx).isoformat()[:7]))
    default_day = today(ctx).isoformat() if month == today(ctx).isoformat()[:7] \
        else f"{month}-01"
    base: dict[str, Any] = e if e is not None else {"amount": None, "category": "",
                                                    "note": "", "date": default_day}
    amount, on_amount = ctx.field("amount", "" if base["amount"] is None
                                  else f"{base['amount']:.2f}")
    note, on_note = ctx.field("note", str(base["note"]))
    category = str(ctx.state.get("category", base["category"]))
    date = str(ctx.state.get("date", base["date"]))
    error = str(ctx.state.get("error", ""))

    def save() -> None:
        try:
            value = es.parse_amount(amount)
        except ValueError as err:
            ctx.state["error"] = str(err)
            return
        if not category:
            ctx.state["error"] = "Choose a category"
            return
        was_over = es.over_by(ctx.store, es.month_of(date)) > 0
        if e is None:
            es.add_entry(ctx.store, value, category, note, date)
        else:
            e.update(amount=value, category=category, note=note.strip(), date=date)
        over = es.over_by(ctx.store, es.month_of(date))
        if over and not was_over:
            ctx.toast(f"Over your {es.month_label(es.month_of(date))} budget by "
                      f"{es.money(over)}")
        else:
            ctx.toast("Expense saved")
        ctx.pop()

    def delete() -> None:
        if e is not None:
            es.delete(ctx.store, e["id"])
            ctx.toast("Expense deleted")
        ctx.close_dialog()
        ctx.pop()

    cat_row = Row([cat_icon(category) if category else
                   Icon("tags", size=20, box=40, color=th.on_surface_variant, in_dump=False),
                   Column([Text("Category", size=13, color=th.on_surface_variant),
                           Text(category or "Choose a category", size=16,
                                color=th.on_surface if category else th.on_surface_variant)],
                          flex=1, in_dump=False),
                   Icon("chevron_down", size=16, box=32, color=th.on_surface_variant,
                        in_dump=False)],
                  gap=dp(16), height=dp(64), on_click=ctx.show_dialog("category"),
                  text=category or "Choose a category", desc="Category", rid="category",
                  cls="android.widget.Button")
    date_text = pickers.full_date(dt.date.fromisoformat(date))
    date_row = Row([Icon("calendar", size=20, box=40, color=th.on_surface_variant,
                         in_dump=False),
                    Column([Text("Date", size=13, color=th.on_surface_variant),
                            Text(date_text, size=16, color=th.on_surface)], flex=1,
                           in_dump=False)],
                   gap=dp(16), height=dp(64), on_click=ctx.show_dialog("date"),
                   text=date_text, desc="Date", rid="date", cls="android.widget.Button")
    fields: list[View] = [
        w.text_field("amount", amount, on_text=on_amount, label="Amount ($)", rid="amount"),
    ]
    if error:
        fields.append(Text(error, size=13, color=th.error, rid="error_text"))
    fields += [cat_row, w.text_field("note", note, on_text=on_note, label="Note", rid="note"),
               date_row]
    actions: list[View] = []
    if e is not None:
        actions.append(w.icon_button("trash", "Delete expense", ctx.show_dialog("delete"),
                                     rid="delete", theme=th))
    actions.append(w.button("Save", save, rid="save", theme=th))
    body = Column([
        w.app_bar("Edit expense" if e is not None else "Add expense", on_back=ctx.pop,
                  theme=th, actions=actions),
        Column(fields, gap=dp(12), padding=(w.MARGIN, dp(8), w.MARGIN, 0)),
    ], bg=th.surface)
    dlg: View | None = None
    if ctx.dialog == "category":
        def pick(name: str) -> Handler:
            def h() -> None:
                ctx.state["category"] = name
                ctx.close_dialog()
            return h
        dlg = bottom_sheet("Category", [(es.ICONS[n] if n != category else "check", n, pick(n))
                                        for n in es.NAMES], theme=th)
    elif ctx.dialog == "delete":
        dlg = w.dialog("Delete this expense?",
                       f"{(e or {}).get('note') or category}, "
                       f"{es.money(float((e or {}).get('amount') or 0))} will be removed.",
                       [("Cancel", ctx.close_dialog), ("Delete", delete)], theme=th)
    elif ctx.dialog == "date":
        dlg = _date_dialog(ctx, date)
    return Page(body, dialog=dlg)


def _date_dialog(ctx: Ctx, date: str) -> View:
    shown = dt.date.fromisoformat(date)
    py, pm = ctx.state.get("pick_ym", (shown.year, shown.month))
    picked = ctx.state.get("pick_day", date)

    def on_pick(d: dt.date) -> Handler:
        return ctx.setter("pick_day", d.isoformat())

    def on_month(y: int, m: int) -> Handler:
        return ctx.setter("pick_ym", (y, m))

    def done(keep: bool) -> Handler:
        def h() -> None:
            if keep:
                ctx.state["date"] = ctx.state.get("pick_day", date)
            ctx.state.pop("pick_day", None)
            ctx.state.pop("pick_ym", None)
            ctx.close_dialog()
        return h

    return pickers.date_picker(year=py, month=pm, selected=dt.date.fromisoformat(picked),
                               on_pick=on_pick, on_month=on_month, on_ok=done(True),
                               on_cancel=done(False), today=today(ctx), title="Date",
                               theme=ctx.theme)


# -- summary ---------------------------------------------------------------------------------
def summary(ctx: Ctx) -> View | Page:
    """The month's total, a stacked bar of the categories' shares and one row per category
    (icon, name, bar, amount, share); a row opens that category's entries."""
    th = ctx.theme
    month = month_state(ctx)
    sums = es.by_category(ctx.store, month)
    spent = es.total(es.in_month(ctx.store, month))
    offset, on_scroll = ctx.scroll(month)
    rows: list[View] = []
    if sums:
        inner = BAR_W - 2 * w.MARGIN
        segs = [View(width=max(dp(2), int(inner * v / spent)), height=dp(20),
                     bg=es.COLORS[c], in_dump=False) for c, v in sums]
        rows.append(w.card([Text("Total spent", size=14, color=th.on_surface_variant),
                            Text(es.money(spent), size=30, weight="medium",
                                 color=th.on_surface, rid="summary_total"),
                            Row(segs, height=dp(20), radius=dp(6), in_dump=False,
                                rid="stacked_bar")], theme=th))
        top = sums[0][1]
        for c, v in sums:
            share = round(100 * v / spent)
            bar = Row([View(width=max(dp(4), int(dp(200) * v / top)), height=dp(8),
                            radius=dp(4), bg=es.COLORS[c], in_dump=False)],
                      width=dp(200), in_dump=False)
            rows.append(Row([cat_icon(c),
                             Column([Text(c, size=16, color=th.on_surface,
                                          rid="summary_category"), bar], gap=dp(6), flex=1),
                             Column([Text(es.money(v), size=16, weight="medium",
                                          color=th.on_surface, align="right",
                                          rid="summary_amount"),
                                     Text(f"{share}%", size=13, color=th.on_surface_variant,
                                          align="right", rid="summary_share")])],
                            gap=dp(16), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)),
                            on_click=ctx.go("category", month=month, category=c),
                            desc=f"{c}, {es.money(v)}, {share}%", rid="summary_row",
                            cls="android.widget.LinearLayout"))
    else:
        rows.append(Text("No expenses this month", size=16, align="center",
                         color=th.on_surface_variant, padding=(0, dp(48), 0, 0),
                         rid="empty_title"))
    body = Column([
        w.app_bar("Summary", theme=th),
        month_switcher(ctx, month),
        Scroll(rows, gap=dp(4), offset=offset, on_scroll=on_scroll, rid="summary_list",
               padding=(w.MARGIN, 0, w.MARGIN, 0), flex=1),
        nav(ctx, "summary"),
    ], bg=th.surface)
    return Page(body)


def category(ctx: Ctx) -> View | Page:
    """One category's entries in a month, with their total."""
    th = ctx.theme
    month = str(ctx.args.get("month", today(ctx).isoformat()[:7]))
    name = str(ctx.args.get("category", "Other"))
    entries = es.in_month(ctx.store, month, name)
    offset, on_scroll = ctx.scroll()
    rows: list[View] = [Row([cat_icon(name, box=48),
                             Column([Text(f"{len(entries)} expense"
                                          f"{'s' if len(entries) != 1 else ''}", size=14,
                                          color=th.on_surface_variant),
                                     Text(es.money(es.total(entries)), size=26,
                                          weight="medium", color=th.on_surface,
                                          rid="category_total")], flex=1)],
                            gap=dp(16), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)))]
    rows += entries_by_day(ctx, entries)
    body = Column([
        w.app_bar(name, on_back=ctx.pop, theme=th, subtitle=es.month_label(month)),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="category_list", flex=1),
    ], bg=th.surface)
    return Page(body)


# -- budgets ---------------------------------------------------------------------------------
def budgets(ctx: Ctx) -> View | Page:
    """Each month the app keeps up to the next one: its budget and spending (a red line when
    over); a tap edits the budget in a dialog."""
    th = ctx.theme
    now = today(ctx).isoformat()[:7]
    months = []
    m = es.first_month(today(ctx))
    while m <= es.shift_month(now, 1):
        months.append(m)
        m = es.shift_month(m, 1)
    rows: list[View] = []
    for m in reversed(months):
        b = es.budget_of(ctx.store, m)
        spent = es.total(es.in_month(ctx.store, m))
        over = es.over_by(ctx.store, m)
        sub = (f"{es.money(spent)} spent of {es.money(b)}" if b is not None
               else f"{es.money(spent)} spent · No budget")
        rows.append(Row([
            Icon("wallet", size=18, box=40, radius=dp(20), color=th.on_primary_container,
                 bg=th.primary_container, in_dump=False),
            Column([Text(es.month_label(m), size=16, color=th.on_surface, rid="budget_month"),
                    Text(sub, size=13, color=th.on_surface_variant),
                    *([Text(f"Over budget by {es.money(over)}", size=13, weight="medium",
                            color=RED, rid="budget_warning")] if over else [])], flex=1),
            Text(es.money(b) if b is not None else "Set", size=16, weight="medium",
                 color=th.on_surface if b is not None else th.primary, rid="budget_amount"),
        ], gap=dp(16), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)),
            on_click=ctx.show_dialog("budget", month=m), rid="budget_row",
            desc=f"Budget for {es.month_label(m)}", cls="android.widget.LinearLayout"))
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("Monthly budgets", theme=th),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="budget_list", flex=1),
        nav(ctx, "budgets"),
    ], bg=th.surface)
    dlg = _budget_dialog(ctx) if ctx.dialog == "budget" else None
    return Page(body, dialog=dlg)


def _budget_dialog(ctx: Ctx) -> View:
    th = ctx.theme
    month = str(ctx.state.get("_dialog_data", {}).get("month", ""))
    b = es.budget_of(ctx.store, month)
    value, on_value = ctx.field(f"budget_{month}", "" if b is None else f"{b:.2f}")
    error = str(ctx.state.get("budget_error", ""))

    def save() -> None:
        try:
            amount = es.parse_amount(value)
        except ValueError as err:
            ctx.state["budget_error"] = str(err)
            return
        es.set_budget(ctx.store, month, amount)
        ctx.state.pop("budget_error", None)
        ctx.close_dialog()
        over = es.over_by(ctx.store, month)
        ctx.toast(f"Already over this budget by {es.money(over)}" if over else "Budget saved")

    def cancel() -> None:
        ctx.state.pop("budget_error", None)
        ctx.close_dialog()

    def remove() -> None:
        es.remove_budget(ctx.store, month)
        cancel()

    body: list[View] = [w.text_field(f"budget_{month}", value, on_text=on_value,
                                     label="Budget ($)", rid="budget_input")]
    if error:
        body.append(Text(error, size=13, color=th.error, rid="error_text"))
    buttons: list[tuple[str, Handler]] = [("Cancel", cancel), ("Save", save)]
    if b is not None:
        buttons.insert(0, ("Remove", remove))
    return w.dialog(f"Budget for {es.month_label(month)}", "", buttons, theme=th, body=body)
