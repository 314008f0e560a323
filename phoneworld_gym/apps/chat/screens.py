"""Chat screens: the chat list with unread counts, contacts, Discover (the mini-program
launcher) and Me tabs; a conversation with text, photo, location and mini-program cards; the
photo and location pickers; and "Send to", the chat picker that receives shares (from the
share sheet and from mini-programs' "Share to chat")."""

from __future__ import annotations

import collections
import io
from typing import Any

from PIL import Image as PILImage

from phoneworld_gym.app import Page
from phoneworld_gym.apps.chat import store as cs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import (
    Column,
    Handler,
    Icon,
    Picture,
    Row,
    Scroll,
    Text,
    View,
    dp,
)

TINTS = [(66, 133, 244), (219, 68, 55), (15, 157, 88), (171, 71, 188), (255, 112, 67),
         (0, 172, 193), (124, 179, 66), (92, 107, 192)]
SENT_BUBBLE = (149, 236, 105)  # the green of a sent bubble
CHAT_BG = (237, 237, 237)
WHITE = (255, 255, 255)
BADGE = (250, 81, 81)
TABS = (("message", "Chats", "Chats"), ("contacts", "Contacts", "Contacts"),
        ("compass", "Discover", "Discover"), ("circle_user", "Me", "Me"))
PHOTO_FOLDERS = ("/sdcard/DCIM/", "/sdcard/Pictures/")

_THUMBS: collections.OrderedDict[str, PILImage.Image] = collections.OrderedDict()


def thumbnail(ctx: Ctx, path: str, sha: str) -> PILImage.Image:
    """A 240 px square of the picture at ``path`` (decoded once per content hash)."""
    hit = _THUMBS.get(sha)
    if hit is not None:
        _THUMBS.move_to_end(sha)
        return hit
    try:
        with PILImage.open(io.BytesIO(ctx.read_file(path))) as im:
            img = im.convert("RGB")
        side = min(img.size)
        x, y = (img.width - side) // 2, (img.height - side) // 2
        img = img.crop((x, y, x + side, y + side)).resize((240, 240))
    except Exception:  # a missing or broken file shows as a grey square, as in a real app
        img = PILImage.new("RGB", (240, 240), (150, 150, 150))
    _THUMBS[sha] = img
    while len(_THUMBS) > 64:
        _THUMBS.popitem(last=False)
    return img


def tint(key: str) -> tuple[int, int, int]:
    return TINTS[sum(map(ord, key)) % len(TINTS)]


def when(ms_value: int, now: str) -> str:
    """"10:05" today, "Yesterday", a weekday this week, "3/2" before (as a chat list shows)."""
    import datetime as dt

    t = cs.from_ms(ms_value)
    today = dt.datetime.fromisoformat(now).date()
    days = (today - t.date()).days
    if days == 0:
        return t.strftime("%H:%M")
    if days == 1:
        return "Yesterday"
    if 0 < days < 7:
        return t.strftime("%A")
    return f"{t.month}/{t.day}"


def count_badge(n: int, rid: str = "unread_count") -> Text:
    """A red pill with an unread count."""
    s = str(n) if n < 100 else "99+"
    return Text(s, size=11, weight="medium", color=WHITE, bg=BADGE, radius=dp(9),
                width=max(dp(18), dp(7) * len(s) + dp(8)), height=dp(18), align="center",
                line_height=1.45, rid=rid)


def chat_avatar(chat: dict[str, Any], size: float = 48) -> View:
    if chat["kind"] == "group":
        return Icon("contacts", size=size * 0.45, box=size, color=WHITE, bg=tint(chat["title"]),
                    radius=dp(6), in_dump=False)
    av = w.avatar(chat["title"], tint(chat["title"]), size=size)
    av.circle = False  # type: ignore[attr-defined]
    return av


# -- the main screen ----------------------------------------------------------------------------
def main(ctx: Ctx) -> View:
    """The four tabs (Chats, Contacts, Discover, Me) under a title bar, unread total on the
    Chats tab."""
    tab = str(ctx.args.get("tab", "Chats"))
    total = sum(cs.unread(ctx.store, c["id"]) for c in ctx.store["chats"])
    nav = tab_nav(ctx, TABS, tab, to=lambda label: _tab(ctx, label),
                  badges={"Chats": str(total)} if total else None)
    title = "Chat" if tab == "Chats" else tab
    if tab == "Chats" and total:
        title = f"Chat ({total})"
    body = {"Chats": _chats_tab, "Contacts": _contacts_tab, "Discover": _discover_tab,
            "Me": _me_tab}[tab](ctx)
    bar = Row([Text(title, size=18, weight="medium", color=ctx.theme.on_surface, flex=1,
                    align="center", rid="title")],
              height=dp(56), bg=ctx.theme.surface_container, padding=(w.MARGIN, 0, w.MARGIN, 0),
              cls="android.widget.LinearLayout", rid="toolbar")
    return Column([bar, body, nav], bg=ctx.theme.surface)


def _tab(ctx: Ctx, label: str) -> Handler:
    """A bottom-navigation destination (the tab is the activity's argument, so back stacks
    and resumes keep it)."""
    return lambda: ctx.replace("main", tab=label)


def open_chat(ctx: Ctx, chat_id: int) -> Handler:
    def h() -> None:
        cs.mark_read(ctx.store, chat_id)
        ctx.push("chat", chat=chat_id)

    return h


def _chats_tab(ctx: Ctx) -> View:
    offset, on_scroll = ctx.scroll("chats")
    rows: list[View] = []
    for c in cs.ordered(ctx.store):
        last = cs.last(ctx.store, c["id"])
        n = cs.unread(ctx.store, c["id"])
        snip = ""
        if last is not None:
            snip = cs.snippet(last)
            if c["kind"] == "group" and last["sender"] != cs.ME:
                snip = f"{last['sender'].split()[0]}: {snip}"
        right: list[View] = [Text(when(last["date"], ctx.now) if last else "", size=12,
                                  color=ctx.theme.on_surface_variant, rid="chat_time")]
        if n:
            right.append(Row([View(flex=1, in_dump=False), count_badge(n)]))
        rows.append(Row([
            chat_avatar(c),
            Column([Text(c["title"], size=16, color=ctx.theme.on_surface, max_lines=1,
                         rid="chat_title"),
                    Text(snip, size=14, color=ctx.theme.on_surface_variant, max_lines=1,
                         rid="chat_snippet")], flex=1, gap=dp(4)),
            Column(right, gap=dp(6)),
        ], gap=dp(12), height=dp(72), padding=(w.MARGIN, dp(10), w.MARGIN, dp(10)),
            on_click=open_chat(ctx, c["id"]), rid="chat_row",
            desc=f"{c['title']}, {f'{n} unread, ' if n else ''}{snip}",
            cls="android.widget.LinearLayout"))
    if not rows:
        rows.append(Text("No chats yet", size=16, align="center", rid="empty_text",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0)))
    return Scroll(rows, offset=offset, on_scroll=on_scroll, rid="chat_list", bg=WHITE)


def _contacts_tab(ctx: Ctx) -> View:
    offset, on_scroll = ctx.scroll("contacts")
    people = sorted((r for r in ctx.query("contacts")
                     if r.get("display_name") and r.get("number")),
                    key=lambda r: r["display_name"].lower())
    rows: list[View] = [w.list_item(
        "Group chats", leading=Icon("contacts", size=20, box=40, color=WHITE,
                                    bg=ctx.theme.primary, radius=dp(6)),
        theme=ctx.theme, rid="groups", on_click=_tab(ctx, "Chats"))]
    for r in people:
        rows.append(w.list_item(r["display_name"], leading=w.avatar(
            r["display_name"], tint(r["display_name"])), rid="contact", theme=ctx.theme,
            on_click=_open_person(ctx, r["display_name"], r["number"])))
    return Scroll(rows, offset=offset, on_scroll=on_scroll, rid="contact_list", bg=WHITE)


def _open_person(ctx: Ctx, name: str, number: str) -> Handler:
    def h() -> None:
        chat = cs.direct_chat(ctx.store, name)
        if chat is not None:
            cs.mark_read(ctx.store, chat["id"])
            ctx.push("chat", chat=chat["id"])
        else:
            ctx.push("chat", person=name, number=number)

    return h


def _discover_tab(ctx: Ctx) -> View:
    rows: list[View] = [w.section("Mini programs", theme=ctx.theme)]
    for app in ctx.mini_apps():
        color = app.theme.primary
        rows.append(w.list_item(
            app.label, subtitle=(type(app).__doc__ or "").strip().split("\n")[0].rstrip("."),
            leading=Icon(app.icon, size=22, box=44, color=WHITE, bg=color, radius=dp(12)),
            trailing=Icon("chevron_right", size=18, color=ctx.theme.outline, in_dump=False),
            on_click=_mini_opener(ctx, app.name), rid="mini_program", desc=app.label,
            theme=ctx.theme))
    if len(rows) == 1:
        rows.append(Text("No mini programs yet", size=16, align="center", rid="empty_text",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(32), 0, 0)))
    offset, on_scroll = ctx.scroll("discover")
    return Scroll(rows, offset=offset, on_scroll=on_scroll, rid="mini_programs", bg=WHITE)


def _mini_opener(ctx: Ctx, name: str) -> Handler:
    return lambda: ctx.open_mini_app(name)


def _me_tab(ctx: Ctx) -> View:
    owner = str(ctx.store.get("owner", ""))
    handle = "chat_" + owner.lower().replace(" ", "_")
    card = Row([w.avatar(owner, tint(owner), size=64),
                Column([Text(owner, size=20, weight="medium", color=ctx.theme.on_surface,
                             rid="profile_name"),
                        Text(f"Chat ID: {handle}", size=14, color=ctx.theme.on_surface_variant,
                             rid="profile_id")], gap=dp(4), flex=1)],
               gap=dp(16), padding=(dp(24), dp(32), dp(24), dp(32)), bg=WHITE)
    sent = sum(1 for m in ctx.store["messages"] if m["sender"] == cs.ME)
    stats = w.list_item("Messages sent", trailing=Text(str(sent), size=16,
                                                       color=ctx.theme.on_surface_variant,
                                                       rid="sent_count"), theme=ctx.theme)
    return Column([card, w.spacer(dp(8)), stats, View(flex=1, in_dump=False)], flex=1)


# -- a conversation --------------------------------------------------------------------------------
def _bubble(ctx: Ctx, m: dict[str, Any], group: bool) -> View:
    """One message; a long press offers Copy and Forward."""
    mine = m["sender"] == cs.ME
    who = "You" if mine else m["sender"]
    content: View
    if m["type"] == "location":
        content = Column([
            Text(m["body"], size=16, weight="medium", color=ctx.theme.on_surface, max_lines=1),
            Text(m["address"], size=13, color=ctx.theme.on_surface_variant, max_lines=2),
            Row([Icon("location_dot", size=26, box=72, color=(219, 68, 55), in_dump=False)],
                bg=(222, 235, 222), radius=dp(6), in_dump=False),
        ], gap=dp(4), width=dp(240), bg=WHITE, radius=dp(8),
            padding=(dp(12), dp(10), dp(12), dp(10)), rid="location_card",
            desc=f"{who} shared a location: {m['body']}, {m['address']}",
            cls="android.widget.FrameLayout")
    elif m["type"] == "photo":
        sha = next((f["sha256"] for f in ctx.files(m["body"]) if f["path"] == m["body"]), "")
        content = Picture(thumbnail(ctx, m["body"], sha or m["body"]), width=dp(150),
                          height=dp(150), rid="photo_message",
                          desc=f"{who} sent a photo: {m['body'].rsplit('/', 1)[-1]}")
    elif m["type"] == "card":
        content = Column([
            Text(m["body"], size=15, color=ctx.theme.on_surface, max_lines=4),
            Row([Icon("compass", size=12, color=ctx.theme.outline, in_dump=False),
                 Text(f"{m['address']} · Mini program", size=11,
                      color=ctx.theme.outline)], gap=dp(4)),
        ], gap=dp(8), width=dp(240), bg=WHITE, radius=dp(8),
            padding=(dp(12), dp(10), dp(12), dp(10)), rid="mini_card",
            desc=f"{who} shared from {m['address']}: {m['body']}",
            cls="android.widget.FrameLayout")
    else:
        content = Text(m["body"], size=16, color=ctx.theme.on_surface,
                       bg=SENT_BUBBLE if mine else WHITE, radius=dp(6),
                       padding=(dp(12), dp(9), dp(12), dp(9)), rid="message_text",
                       desc=f"{who} said: {m['body']}")
        content.width = min(dp(260), content.natural_width())
    content.on_long_click = ctx.show_dialog("message", id=m["id"])
    av = chat_avatar({"kind": "direct", "title": "Me" if mine else m["sender"]}, 40)
    col_kids: list[View] = []
    if group and not mine:
        col_kids.append(Text(m["sender"], size=12, color=ctx.theme.on_surface_variant,
                             rid="sender_name"))
    col_kids.append(content)
    col = Column(col_kids, gap=dp(2))
    lane = ([View(flex=1, in_dump=False), col, av] if mine
            else [av, col, View(flex=1, in_dump=False)])
    return Row(lane, gap=dp(8), padding=(dp(12), dp(6), dp(12), dp(6)))


def chat(ctx: Ctx) -> View | Page:
    """One chat: bubbles (the owner's in green at the right), location cards, photos and
    mini-program cards; a "+" panel (Photos, Location) under the message field."""
    chat_id = ctx.args.get("chat")
    c = cs.get_chat(ctx.store, chat_id) if chat_id is not None else None
    title = c["title"] if c else str(ctx.args.get("person", ""))
    group = bool(c and c["kind"] == "group")
    msgs = cs.messages(ctx.store, c["id"]) if c else []
    draft, on_draft = ctx.field("draft")
    offset, on_scroll = ctx.scroll()
    rows: list[View] = []
    day = None
    for m in msgs:
        d = cs.from_ms(m["date"]).date()
        if d != day:
            day = d
            rows.append(Text(when(m["date"], ctx.now), size=12, align="center",
                             color=ctx.theme.on_surface_variant, rid="message_date",
                             padding=(0, dp(10), 0, dp(4))))
        rows.append(_bubble(ctx, m, group))
    if not msgs:
        rows.append(Text(f"Say hi to {title}", size=14, align="center",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(32), 0, 0),
                         rid="empty_text"))
    rows.append(w.spacer(dp(8)))

    def ensure() -> int:
        """This chat's id, making the one-to-one chat on the first message."""
        if c is not None:
            return int(c["id"])
        made = cs.new_chat(ctx.store, "direct", title, [title],
                           str(ctx.args.get("number", "")))
        ctx.entry["args"] = {"chat": made["id"]}
        return int(made["id"])

    def send() -> None:
        body = draft.strip()
        if not body:
            return
        cs.send(ctx.store, ensure(), "text", body, ctx.now)
        ctx.state.setdefault("_fields", {})["draft"] = ""
        ctx.state.setdefault("_scroll", {})["main"] = 10 ** 7

    def attach(screen: str) -> Handler:
        def h() -> None:
            ctx.close_dialog()
            ctx.push(screen, chat=ensure())

        return h

    more = ctx.dialog == "more"
    field = w.text_field("draft", draft, on_text=on_draft, hint="Message", rid="chat_input",
                         outlined=False, flex=1)
    action: View
    if draft.strip():
        action = w.button("Send", send, rid="send", theme=ctx.theme, width=dp(72))
    else:
        action = w.icon_button("circle_plus", "More options",
                               ctx.close_dialog if more else ctx.show_dialog("more"),
                               rid="more", theme=ctx.theme,
                               color=ctx.theme.on_surface, selected=more)
    bar: list[View] = [Row([field, action], gap=dp(8), padding=(dp(8), dp(8), dp(8), dp(8)),
                           bg=ctx.theme.surface_container)]
    if more:
        tiles = [("image", "Photos", attach("photos")),
                 ("location_dot", "Location", attach("location"))]
        bar.append(Row([Column([
            Icon(glyph, size=26, box=64, color=ctx.theme.on_surface, bg=WHITE, radius=dp(14),
                 in_dump=False),
            Text(label, size=12, align="center", color=ctx.theme.on_surface_variant,
                 in_dump=False)], gap=dp(6), width=dp(76), on_click=h, desc=label,
            rid=f"attach_{label.lower()}", cls="android.widget.LinearLayout")
            for glyph, label, h in tiles], gap=dp(16), padding=(dp(20), dp(12), dp(20), dp(20)),
            bg=ctx.theme.surface_container, rid="more_panel"))
    members = f" ({len(c['members']) + 1})" if group and c else ""
    body = Column([
        w.app_bar(title + members, on_back=ctx.pop, theme=ctx.theme,
                  bg=ctx.theme.surface_container),
        Scroll(rows, offset=offset if "main" in ctx.state.get("_scroll", {}) else 10 ** 7,
               on_scroll=on_scroll, rid="message_list", bg=CHAT_BG),
        *bar,
    ], bg=CHAT_BG)

    dlg = None
    if ctx.dialog == "message":
        dlg = _message_menu(ctx)
    return Page(body, dialog=dlg)


def _message_menu(ctx: Ctx) -> View:
    """The long-press menu of a message: Copy (text) and Forward (to another chat)."""
    mid = ctx.state["_dialog_data"]["id"]
    m = next(x for x in ctx.store["messages"] if x["id"] == mid)
    shared: dict[str, Any] = {"text": m["body"], "subject": "", "path": None,
                              "mime": "text/plain"}
    if m["type"] == "photo":
        shared.update(text="", path=m["body"], mime="image/jpeg")
    elif m["type"] == "location":
        shared["location"] = m["address"]
    elif m["type"] == "card":
        shared.update(mini=m["address"], mini_label=m["address"])

    def forward() -> None:
        ctx.close_dialog()
        ctx.push("share", shared=shared)

    def copy() -> None:
        ctx.close_dialog()
        ctx.copy(m["body"])

    items: list[View] = []
    if m["type"] != "photo":
        items.append(w.list_item("Copy", leading=Icon("copy", size=20), on_click=copy,
                                 rid="menu_copy", theme=ctx.theme))
    items.append(w.list_item("Forward", leading=Icon("share", size=20), on_click=forward,
                             rid="menu_forward", theme=ctx.theme))
    return Column(items, bg=ctx.theme.surface_high, radius=dp(16), width=1080 - 2 * dp(64),
                  padding=(0, dp(8), 0, dp(8)), cls="android.widget.FrameLayout",
                  rid="message_menu")


def photos(ctx: Ctx) -> View:
    """The phone's pictures: the camera's (DCIM) first, then Pictures, each by name, newest
    first; a tap sends one."""
    files = []
    for folder in PHOTO_FOLDERS:
        found = [f for f in ctx.files(folder)
                 if f["path"].lower().endswith((".jpg", ".jpeg", ".png"))]
        files += sorted(found, key=lambda f: f["path"].rsplit("/", 1)[-1], reverse=True)
    chat_id = int(ctx.args["chat"])

    def sender(path: str) -> Handler:
        def h() -> None:
            cs.send(ctx.store, chat_id, "photo", path, ctx.now)
            ctx.pop()

        return h

    side = (1080 - dp(2) * 3) // 4
    cells: list[View] = [Picture(thumbnail(ctx, f["path"], f["sha256"]), width=side,
                                 height=side, on_click=sender(f["path"]), rid="photo",
                                 desc=f["path"].rsplit("/", 1)[-1]) for f in files]
    grid: list[View] = []
    for i in range(0, len(cells), 4):
        chunk = cells[i:i + 4] + [View(width=side, height=side, in_dump=False)
                                  for _ in range(4 - len(cells[i:i + 4]))]
        grid.append(Row(chunk, gap=dp(2)))
    if not grid:
        grid.append(Text("No photos on this phone", size=16, align="center",
                         color=ctx.theme.on_surface_variant, rid="empty_text",
                         padding=(0, dp(48), 0, 0)))
    offset, on_scroll = ctx.scroll()
    return Column([w.app_bar("Send a photo", on_back=ctx.pop, theme=ctx.theme),
                   Scroll(grid, offset=offset, on_scroll=on_scroll, gap=dp(2),
                          rid="photo_grid")], bg=ctx.theme.surface)


def places(ctx: Ctx) -> list[tuple[str, str]]:
    """(name, address) of the places the location picker lists, in the owner's city."""
    city = str(ctx.store.get("city", ""))
    return [(name, f"{street}, {city}") for name, street in cs.PLACES]


def location(ctx: Ctx) -> View:
    """Send a location: nearby places in the owner's city; a tap sends it as a card."""
    chat_id = int(ctx.args["chat"])

    def sender(name: str, address: str) -> Handler:
        def h() -> None:
            cs.send(ctx.store, chat_id, "location", name, ctx.now, address=address)
            ctx.pop()

        return h

    rows: list[View] = [Row([Icon("map", size=64, box=dp(160), color=(219, 68, 55),
                                  in_dump=False)], bg=(222, 235, 222), in_dump=False),
                        w.section("Nearby", theme=ctx.theme)]
    for name, address in places(ctx):
        rows.append(w.list_item(name, subtitle=address, rid="place", theme=ctx.theme,
                                leading=Icon("location_dot", size=20, color=ctx.theme.primary),
                                on_click=sender(name, address)))
    offset, on_scroll = ctx.scroll()
    return Column([w.app_bar("Send location", on_back=ctx.pop, theme=ctx.theme),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="place_list")],
                  bg=ctx.theme.surface)


def share(ctx: Ctx) -> Page:
    """"Send to": pick the chat that gets what was shared (text, a photo, or a mini-program's
    result), confirm, and return to where the share came from."""
    shared = dict(ctx.args.get("shared") or {})
    offset, on_scroll = ctx.scroll()
    rows: list[View] = [w.section("Recent chats", theme=ctx.theme)]
    for c in cs.ordered(ctx.store):
        rows.append(w.list_item(c["title"], leading=chat_avatar(c, 40), rid="target_chat",
                                theme=ctx.theme,
                                on_click=ctx.show_dialog("send", chat=c["id"])))
    dlg = None
    if ctx.dialog == "send":
        target = cs.get_chat(ctx.store, ctx.state["_dialog_data"]["chat"])
        preview = (f"[Photo] {str(shared.get('path')).rsplit('/', 1)[-1]}"
                   if shared.get("path") else str(shared.get("text") or ""))

        def do_send() -> None:
            assert target is not None
            if shared.get("path"):
                cs.send(ctx.store, target["id"], "photo", str(shared["path"]), ctx.now)
            elif shared.get("location"):
                cs.send(ctx.store, target["id"], "location", str(shared.get("text") or ""),
                        ctx.now, address=str(shared["location"]))
            elif shared.get("mini"):
                cs.send(ctx.store, target["id"], "card", str(shared.get("text") or ""),
                        ctx.now, address=str(shared.get("mini_label") or shared["mini"]))
            else:
                cs.send(ctx.store, target["id"], "text", str(shared.get("text") or ""),
                        ctx.now)
            ctx.close_dialog()
            ctx.pop()
            ctx.toast("Sent")

        dlg = w.dialog(f"Send to {target['title'] if target else ''}?", preview,
                       [("Cancel", ctx.close_dialog), ("Send", do_send)], theme=ctx.theme)
    body = Column([w.app_bar("Send to", on_back=ctx.pop, theme=ctx.theme),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="target_list")],
                  bg=ctx.theme.surface)
    return Page(body, dialog=dlg)
