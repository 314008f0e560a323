"""Split-the-bill screens: past splits, a new split (what, how much, which chat group), and
the result with each person's share and "Share to chat"."""

from __future__ import annotations

from phoneworld_gym.apps.splitbill import store as sb
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import mini_app_bar
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

WHITE = (255, 255, 255)


def header(ctx: Ctx, title: str, *, back: bool = True) -> Row:
    """The indigo bar, with the mini-program's close button."""
    return mini_app_bar(ctx, title, back=back)


def home(ctx: Ctx) -> View:
    """Past splits, newest first, and New split."""
    rows: list[View] = []
    for s in sorted(ctx.store["splits"], key=lambda s: -s["id"]):
        rows.append(w.list_item(s["title"], subtitle=f"${s['total']:.2f} · {s['people']} people"
                                f" · ${s['each']:.2f} each", rid="split", theme=ctx.theme,
                                leading=Icon("receipt", size=20, color=ctx.theme.primary),
                                on_click=ctx.go("result", split=s["id"])))
    offset, on_scroll = ctx.scroll()
    return Column([
        header(ctx, "Split the bill"),
        Row([w.button("New split", ctx.go("new"), rid="new_split", theme=ctx.theme, flex=1,
                      icon="plus")], padding=(w.MARGIN, dp(16), w.MARGIN, dp(8))),
        w.section("History", theme=ctx.theme),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="split_list"),
    ], bg=ctx.theme.surface)


def new(ctx: Ctx) -> View:
    """What it was for, the amount, and the chat group to split with (its members and you)."""
    title, on_title = ctx.field("title")
    amount, on_amount = ctx.field("amount")
    groups = [r for r in ctx.query("chat/chats") if r.get("kind") == "group"]
    chosen = ctx.state.get("group")
    error = ctx.state.get("error", "")

    def pick(title_: str) -> Handler:
        def h() -> None:
            ctx.state["group"] = title_
            ctx.state.pop("error", None)

        return h

    chips: list[View] = []
    for g in groups:
        n = len([m for m in str(g["members"]).split(", ") if m]) + 1
        chip = w.chip(f"{g['title']} ({n})", selected=chosen == g["title"],
                      on_click=pick(g["title"]), rid="group_option", theme=ctx.theme)
        chip.desc = g["title"]
        chips.append(chip)

    def split() -> None:
        try:
            total = sb.parse_amount(amount)
        except ValueError:
            ctx.state["error"] = "Enter an amount like 84.50"
            return
        g = next((g for g in groups if g["title"] == chosen), None)
        if g is None:
            ctx.state["error"] = "Choose a group"
            return
        people = len([m for m in str(g["members"]).split(", ") if m]) + 1
        s = sb.make(ctx.store, title, total, g["title"], people)
        ctx.replace("result", split=s["id"])

    kids: list[View] = [
        w.text_field("title", title, on_text=on_title, label="What was it for?",
                     rid="split_title"),
        w.text_field("amount", amount, on_text=on_amount, label="Total amount ($)",
                     rid="split_amount"),
        Text("Split with", size=16, weight="medium", color=ctx.theme.on_surface),
        w.wrap_row(chips, 1080 - 2 * w.MARGIN) if chips else
        Text("No group chats to split with", size=14, color=ctx.theme.on_surface_variant,
             rid="empty_text"),
    ]
    if error:
        kids.append(Text(error, size=14, color=ctx.theme.error, rid="split_error"))
    kids.append(w.button("Split", split, rid="do_split", theme=ctx.theme))
    return Column([header(ctx, "New split"),
                   Column(kids, gap=dp(16), padding=(w.MARGIN, dp(16), w.MARGIN, dp(16)),
                          flex=1)], bg=ctx.theme.surface)


def result(ctx: Ctx) -> View:
    """A split: each person's share, and Share to chat."""
    s = next((x for x in ctx.store["splits"] if x["id"] == int(ctx.args["split"])), None)
    if s is None:
        return Column([header(ctx, "Split"), Text("Split not found", size=16,
                                                  rid="empty_text")], bg=ctx.theme.surface)
    return Column([
        header(ctx, s["title"]),
        Column([Text("Each person pays", size=14, align="center",
                     color=ctx.theme.on_surface_variant),
                Text(f"${s['each']:.2f}", size=48, weight="bold", align="center",
                     color=ctx.theme.primary, rid="each_amount"),
                w.card([Text(f"Total ${s['total']:.2f}", size=16, color=ctx.theme.on_surface,
                             rid="split_total"),
                        Text(f"{s['people']} people · {s['group']}", size=14,
                             color=ctx.theme.on_surface_variant, rid="split_people")],
                       theme=ctx.theme, elevated=True),
                w.button("Share to chat", ctx.share_to_host(text=sb.message(s)),
                         rid="share_to_chat", theme=ctx.theme),
                w.button("Done", lambda: ctx.reset_to("home"), style="text", rid="done",
                         theme=ctx.theme)],
               gap=dp(16), padding=(w.MARGIN, dp(24), w.MARGIN, dp(16)), flex=1),
    ], bg=ctx.theme.surface)
