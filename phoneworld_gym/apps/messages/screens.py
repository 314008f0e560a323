"""Messages screens: the conversation list (with search), a conversation, a new chat."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.messages import store as ms
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

TINTS = [(66, 133, 244), (219, 68, 55), (15, 157, 88), (171, 71, 188), (255, 112, 67),
         (0, 172, 193), (124, 179, 66), (92, 107, 192)]


def names(ctx: Ctx) -> dict[str, str]:
    """Thread key -> contact name, from the contacts provider (as a ContentResolver would)."""
    out: dict[str, str] = {}
    for r in ctx.query("contacts"):
        if r.get("number") and r.get("display_name"):
            out.setdefault(ms.digits_key(r["number"]), r["display_name"])
    return out


def when(ms_value: int, now: str, *, long: bool = False) -> str:
    """"10:05 AM" today, "Thu" this week, "Mar 2" before (the list); ``long`` adds the time."""
    t = ms.from_ms(ms_value)
    today = dt.datetime.fromisoformat(now).date()
    clock = t.strftime("%I:%M %p").lstrip("0")
    if t.date() == today:
        return clock
    if 0 < (today - t.date()).days < 7:
        return f"{t.strftime('%a')} {clock}" if long else t.strftime("%a")
    day = f"{t.strftime('%b')} {t.day}"
    return f"{day}, {clock}" if long else day


def tint(key: str) -> tuple[int, int, int]:
    return TINTS[sum(map(ord, key)) % len(TINTS)]


def thread_row(ctx: Ctx, t: dict[str, Any], who: str) -> Row:
    unread = t["unread"] > 0
    last = t["last"]
    snippet = ("You: " if last["type"] == ms.SENT else "") + last["body"]
    weight = "bold" if unread else "regular"

    def open_thread() -> None:
        ms.mark_read(ctx.store, t["key"])
        ctx.push("thread", key=t["key"], address=t["address"])

    ink = ctx.theme.on_surface if unread else ctx.theme.on_surface_variant
    body = Column([
        Row([Text(who, size=16, weight=weight, color=ctx.theme.on_surface, max_lines=1, flex=1,
                  rid="conversation_name"),
             Text(when(last["date"], ctx.now), size=12, weight=weight, color=ink,
                  rid="conversation_timestamp")], gap=dp(8)),
        Text(snippet, size=14, weight=weight, color=ink, max_lines=1,
             rid="conversation_snippet"),
    ], flex=1, gap=dp(2))
    kids: list[View] = [w.avatar(who, tint(t["key"]), size=48), body]
    if unread:
        kids.append(View(width=dp(8), height=dp(8), radius=dp(4), bg=ctx.theme.primary,
                         in_dump=False))
    return Row(kids, gap=dp(16), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)),
               height=dp(76), on_click=open_thread,
               on_long_click=ctx.show_dialog("delete", key=t["key"], who=who),
               desc=f"{who}, {'unread, ' if unread else ''}{last['body']}",
               cls="android.widget.LinearLayout", rid="conversation")


def main(ctx: Ctx) -> View | Page:
    """The conversation list, newest first; the search field filters by name, number and
    message text. A long press on a conversation offers to delete it."""
    query, on_query = ctx.field("search")
    offset, on_scroll = ctx.scroll()
    q = query.strip().lower()
    qd = "".join(ch for ch in q if ch.isdigit())
    qd = qd if len(qd) >= 3 else ""  # a number (or part of one) typed in
    who = names(ctx)
    rows: list[View] = []
    shown = 0
    for t in ms.threads(ctx.store):
        name = who.get(t["key"], t["address"])
        if q and not (q in name.lower() or qd and qd in ms.digits_key(t["address"])
                      or any(q in m["body"].lower()
                             for m in ms.thread_messages(ctx.store, t["key"]))):
            continue
        rows.append(thread_row(ctx, t, name))
        shown += 1
    if not shown:
        rows.append(Column([
            Icon("message", size=40, box=64, color=ctx.theme.on_surface_variant,
                 in_dump=False),
            Text("No results" if q else "No conversations yet", size=16, align="center",
                 color=ctx.theme.on_surface_variant, rid="empty_text"),
        ], gap=dp(12), padding=(0, dp(48), 0, 0)))
    rows.append(w.spacer(dp(96)))
    search = w.text_field("search", query, on_text=on_query, hint="Search conversations",
                          rid="search_bar", outlined=False, flex=1)
    body = Column([
        Row([Text("Messages", size=22, color=ctx.theme.on_surface, flex=1, rid="title")],
            height=dp(64), padding=(w.MARGIN, 0, w.MARGIN, 0)),
        Row([search], padding=(w.MARGIN, 0, w.MARGIN, dp(8))),
        Stack([Scroll(rows, offset=offset, on_scroll=on_scroll, rid="conversation_list"),
               _start_chat(ctx)], flex=1, padding=(0, 0, w.MARGIN, w.MARGIN)),
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "delete":
        data = ctx.state.get("_dialog_data", {})

        def do_delete() -> None:
            ms.delete_thread(ctx.store, data["key"])
            ctx.close_dialog()
            ctx.toast("Conversation deleted")

        dlg = w.dialog("Delete this conversation?",
                       f"Your conversation with {data.get('who', '')} will be deleted.",
                       [("Cancel", ctx.close_dialog), ("Delete", do_delete)], theme=ctx.theme)
    return Page(body, dialog=dlg)


def _start_chat(ctx: Ctx) -> View:
    """The extended FAB "Start chat"."""
    h = dp(56)
    fab = Row([Icon("message", size=20, color=ctx.theme.on_primary_container, in_dump=False),
               Text("Start chat", size=14, weight="medium",
                    color=ctx.theme.on_primary_container, in_dump=False)],
              gap=dp(12), height=h, width=dp(148), padding=(dp(18), 0, dp(18), 0),
              bg=ctx.theme.primary_container, radius=dp(16), on_click=ctx.go("compose"),
              desc="Start chat", rid="start_chat_fab", cls="android.widget.Button")
    fab.align_in_stack = "bottom_right"  # type: ignore[attr-defined]
    return fab


def thread(ctx: Ctx) -> View | Page:
    """One conversation: bubbles (received at the left, sent at the right, in the app's
    colour), a "Text message" field and a send button."""
    if "uri" in ctx.args:  # opened by an sms:/smsto: intent (a tapped number elsewhere)
        address = intents.uri_payload(ctx.args["uri"])
        key = ms.digits_key(address)
    else:
        key = ctx.args["key"]
        address = ctx.args["address"]
    name = names(ctx).get(key, "")
    msgs = ms.thread_messages(ctx.store, key)
    draft, on_draft = ctx.field("draft", str(ctx.args.get("draft", "")))
    offset, on_scroll = ctx.scroll()
    bubbles: list[View] = []
    day = None
    for m in msgs:
        d = ms.from_ms(m["date"]).date()
        if d != day:
            day = d
            bubbles.append(Text(when(m["date"], ctx.now, long=True), size=12, align="center",
                                color=ctx.theme.on_surface_variant, rid="message_date",
                                padding=(0, dp(12), 0, dp(4))))
        sent = m["type"] == ms.SENT
        bubble = Text(m["body"], size=16, color=ctx.theme.on_primary if sent
                      else ctx.theme.on_surface,
                      bg=ctx.theme.primary if sent else ctx.theme.surface_high,
                      radius=dp(20), padding=(dp(14), dp(10), dp(14), dp(10)),
                      rid="message_text", desc=("You said: " if sent else f"{name or address} "
                                                "said: ") + m["body"])
        width = min(dp(280), bubble.natural_width())
        bubble.width = width
        lane = [View(flex=1, in_dump=False), bubble] if sent else [bubble,
                                                                  View(flex=1, in_dump=False)]
        bubbles.append(Row(lane, padding=(w.MARGIN, dp(3), w.MARGIN, dp(3))))
    if not msgs:
        bubbles.append(Text(f"Send a message to {name or address}", size=14, align="center",
                            color=ctx.theme.on_surface_variant, padding=(0, dp(32), 0, 0)))
    bubbles.append(w.spacer(dp(8)))

    def send() -> None:
        body = draft.strip()
        if not body:
            return
        ms.send(ctx.store, address, body, ctx.now)
        ctx.state.setdefault("_fields", {})["draft"] = ""
        ctx.state.setdefault("_scroll", {})["main"] = 10 ** 7  # to the newest

    def do_delete() -> None:
        ms.delete_thread(ctx.store, key)
        ctx.close_dialog()
        ctx.pop()
        ctx.toast("Conversation deleted")

    field = w.text_field("draft", draft, on_text=on_draft, hint="Text message",
                         rid="compose_message_text", outlined=False, flex=1)
    send_btn = w.icon_button("arrow_up", "Send SMS", send if draft.strip() else None,
                             rid="send_message_button", theme=ctx.theme,
                             color=ctx.theme.on_primary if draft.strip()
                             else ctx.theme.outline)
    send_btn.bg = ctx.theme.primary if draft.strip() else ctx.theme.surface_high
    send_btn.radius = dp(24)
    bar = Row([field, send_btn], gap=dp(8), padding=(dp(12), dp(8), dp(12), dp(8)),
              bg=ctx.theme.surface)
    title = name or address
    body = Column([
        w.app_bar(title, subtitle=address if name else "", on_back=ctx.pop,
                  actions=[w.icon_button("phone", "Call",
                                         ctx.open_uri(intents.uri_for("tel", address)),
                                         rid="call", theme=ctx.theme),
                           w.icon_button("trash", "Delete conversation",
                                         ctx.show_dialog("delete"), rid="delete",
                                         theme=ctx.theme)],
                  theme=ctx.theme),
        Scroll(bubbles, offset=offset if "main" in ctx.state.get("_scroll", {}) else 10 ** 7,
               on_scroll=on_scroll,
               rid="messages_list"),
        bar,
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "delete":
        dlg = w.dialog("Delete this conversation?",
                       f"Your conversation with {title} will be deleted.",
                       [("Cancel", ctx.close_dialog), ("Delete", do_delete)], theme=ctx.theme)
    return Page(body, dialog=dlg)


def compose(ctx: Ctx) -> View:
    """A new conversation: type a name, number or email in "To" and pick a contact, or send
    to the number typed."""
    query, on_query = ctx.field("to")
    offset, on_scroll = ctx.scroll()
    #: text shared from another app (the share sheet): it becomes the new thread's draft
    shared = str((ctx.args.get("shared") or {}).get("text") or "")
    q = query.strip()
    people = [r for r in ctx.query("contacts") if r.get("number") and r.get("display_name")]
    people.sort(key=lambda r: r["display_name"].lower())
    if q:
        digits = ms.digits_key(q) if any(ch.isdigit() for ch in q) else ""
        people = [r for r in people if q.lower() in r["display_name"].lower()
                  or (digits and digits in ms.digits_key(r["number"]))]

    def opener(number: str) -> Handler:
        def h() -> None:
            key = ms.digits_key(number)
            ms.mark_read(ctx.store, key)
            if shared:
                ctx.replace("thread", key=key, address=number, draft=shared)
            else:
                ctx.replace("thread", key=key, address=number)

        return h

    rows: list[View] = []
    if q and sum(ch.isdigit() for ch in q) >= 3 and all(ch in "+0123456789-() ." for ch in q):
        rows.append(w.list_item(f"Send to {q}", leading=Icon("message", size=20, box=40,
                                                              color=ctx.theme.primary),
                                on_click=opener(q), rid="send_to_number", theme=ctx.theme))
    if people:
        rows.append(w.section("Contacts" if q else "All contacts", theme=ctx.theme))
    for r in people:
        rows.append(w.list_item(r["display_name"], subtitle=r["number"],
                                leading=w.avatar(r["display_name"],
                                                 tint(ms.digits_key(r["number"]))),
                                on_click=opener(r["number"]), rid="contact",
                                theme=ctx.theme))
    to = w.text_field("to", query, on_text=on_query, hint="Type name, phone number or email",
                      rid="recipient_text_view", outlined=False, flex=1)
    return Column([
        w.app_bar("New conversation", on_back=ctx.pop, theme=ctx.theme),
        Row([Text("To", size=16, color=ctx.theme.on_surface_variant), to], gap=dp(12),
            padding=(w.MARGIN, 0, w.MARGIN, dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="contact_list"),
    ], bg=ctx.theme.surface)
