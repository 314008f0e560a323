"""Email screens (Gmail-like): the mail list of a folder with its navigation drawer, search
with suggestions, a message, compose (contact suggestions, Cc, attachments), and the file
picker for attachments from shared storage."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.email import store as es
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import sheets
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

TINTS = [(66, 133, 244), (219, 68, 55), (15, 157, 88), (171, 71, 188), (255, 112, 67),
         (0, 172, 193), (124, 179, 66), (92, 107, 192)]
STAR = (244, 180, 0)
#: a barely visible edge around list rows, so a row scrolled to a sliver still shows it
HAIRLINE = (238, 240, 243)


def hairline(row: Row) -> Row:
    row.border, row.border_width = HAIRLINE, 1
    return row
DRAWER: tuple[tuple[str, str, str], ...] = (
    ("inbox", "Inbox", "inbox"), ("starred", "Starred", "star"), ("sent", "Sent", "paper_plane"),
    ("scheduled", "Scheduled", "clock"), ("drafts", "Drafts", "file_lines"),
    ("archive", "Archive", "box_archive"),
    ("trash", "Trash", "trash"))


def tint(key: str) -> tuple[int, int, int]:
    return TINTS[sum(map(ord, key)) % len(TINTS)]


def when(ms_value: int, now: str, *, long: bool = False) -> str:
    """"10:05 AM" today, "Mar 2" before (``long``: "Mar 2, 2026, 9:14 AM")."""
    t = es.from_ms(ms_value)
    today = dt.datetime.fromisoformat(now).date()
    clock = t.strftime("%I:%M %p").lstrip("0")
    day = f"{t.strftime('%b')} {t.day}"
    if long:
        return f"{day}, {t.year}, {clock}"
    return clock if t.date() == today else day


def _who(m: dict[str, Any], folder: str) -> str:
    mine = (es.SENT, es.SCHEDULED, es.DRAFTS)
    if folder in mine or m["folder"] in mine:
        first = m["to"].split(",")[0].strip()
        return ("To: " + first) if first else "(no recipient)"
    return m["from_name"] or m["from"]


def _snippet(body: str) -> str:
    return " ".join(body.split())


def _open(ctx: Ctx, m: dict[str, Any]) -> Handler:
    def h() -> None:
        if m["folder"] == es.DRAFTS:
            ctx.push("compose", draft_id=m["id"])
            return
        m["read"] = 1
        ctx.push("message", id=m["id"])

    return h


def _toggle_star(ctx: Ctx, m: dict[str, Any]) -> Handler:
    def h() -> None:
        m["starred"] = 0 if m["starred"] else 1

    return h


def mail_row(ctx: Ctx, m: dict[str, Any], folder: str) -> Row:
    """One conversation row: avatar, sender (bold when unread), time, subject, snippet, star."""
    th = ctx.theme
    unread = not m["read"]
    weight = "bold" if unread else "regular"
    who = _who(m, folder)
    subject = m["subject"] or "(no subject)"
    clip = [Icon("paperclip", size=14, color=th.on_surface_variant, in_dump=False)] \
        if m["attachments"] else []
    body = Column([
        Row([Text(who, size=16, weight=weight, color=th.on_surface, max_lines=1, flex=1,
                  rid="sender"),
             *clip,
             Text(when(m["date"], ctx.now), size=12, weight=weight,
                  color=th.on_surface if unread else th.on_surface_variant, rid="date")],
            gap=dp(8)),
        Text(subject, size=14, weight=weight, color=th.on_surface, max_lines=1, rid="subject"),
        Text(_snippet(m["body"]), size=14, color=th.on_surface_variant, max_lines=1,
             rid="snippet"),
    ], flex=1, gap=dp(2))
    star = w.icon_button("star", "Unstar" if m["starred"] else "Star", _toggle_star(ctx, m),
                         rid="star", theme=ctx.theme, size=20,
                         color=STAR if m["starred"] else th.outline_variant,
                         selected=bool(m["starred"]))
    return Row([w.avatar(m["from_name"] or m["from"], tint(m["from"])), body, star],
               gap=dp(12), padding=(w.MARGIN, dp(8), dp(4), dp(8)), on_click=_open(ctx, m),
               on_long_click=ctx.show_dialog("menu", id=m["id"]),
               desc=f"{'Unread, ' if unread else ''}{who}, {subject}",
               cls="android.widget.LinearLayout", rid="conversation", border=HAIRLINE,
               border_width=1)


def _empty(ctx: Ctx, text: str) -> Column:
    return Column([Icon("inbox", size=40, box=64, color=ctx.theme.on_surface_variant,
                        in_dump=False),
                   Text(text, size=16, align="center", color=ctx.theme.on_surface_variant,
                        rid="empty_text")], gap=dp(12), padding=(0, dp(64), 0, 0))


def _menu(ctx: Ctx) -> View | None:
    """The long-press menu of a row: star, read/unread, archive, delete."""
    m = es.find(ctx.store, ctx.state.get("_dialog_data", {}).get("id", -1))
    if m is None:
        return None

    def act(fn: Any) -> Handler:
        def h() -> None:
            fn()
            ctx.close_dialog()

        return h

    def set_(key: str, value: Any) -> Any:
        return lambda: m.__setitem__(key, value)

    items = [("Unstar" if m["starred"] else "Star", "star",
              act(set_("starred", 0 if m["starred"] else 1))),
             ("Mark as unread" if m["read"] else "Mark as read", "envelope_open",
              act(set_("read", 0 if m["read"] else 1)))]
    if m["folder"] not in (es.ARCHIVE, es.SCHEDULED):
        items.append(("Archive", "box_archive", act(lambda: es.move(ctx.store, m["id"],
                                                                    es.ARCHIVE))))
    items.append(("Delete forever" if m["folder"] == es.TRASH else "Delete", "trash",
                  act(lambda: es.delete(ctx.store, m["id"]))))
    return sheets.action_menu(m["subject"] or "(no subject)", items, theme=ctx.theme)


def _drawer(ctx: Ctx, folder: str) -> View:
    def pick(f: str) -> Handler:
        def h() -> None:
            ctx.state["folder"] = f
            ctx.state.setdefault("_scroll", {})["main"] = 0
            ctx.close_dialog()

        return h

    def unread(f: str) -> str:
        n = sum(1 for m in ctx.store["messages"] if m["folder"] == f and not m["read"])
        return str(n) if n and f not in (es.SENT, es.SCHEDULED, es.DRAFTS, es.TRASH) else ""

    items: list[View] = [sheets.drawer_item(label, icon, folder == f, pick(f), count=unread(f),
                                        theme=ctx.theme) for f, label, icon in DRAWER]
    items.append(Text("Labels", size=14, weight="medium", color=ctx.theme.on_surface_variant,
                      padding=(dp(16), dp(16), 0, dp(8)), rid="labels_header"))
    items += [sheets.drawer_item(lbl, "tag", folder == lbl, pick(lbl), count=unread(lbl),
                             theme=ctx.theme) for lbl in es.LABELS]
    return sheets.navigation_drawer("Email", items, ctx.close_dialog, theme=ctx.theme)


def _compose_fab(ctx: Ctx) -> View:
    fab = Row([Icon("pen", size=20, color=ctx.theme.on_primary_container, in_dump=False),
               Text("Compose", size=14, weight="medium", color=ctx.theme.on_primary_container,
                    in_dump=False)],
              gap=dp(12), height=dp(56), width=dp(140), padding=(dp(18), 0, dp(18), 0),
              bg=ctx.theme.primary_container, radius=dp(16), on_click=ctx.go("compose"),
              desc="Compose", text="Compose", rid="compose_button", cls="android.widget.Button")
    return fab


def main(ctx: Ctx) -> View | Page:
    """The mail list of the folder picked in the drawer (Inbox at first)."""
    folder = ctx.state.get("folder", es.INBOX)
    offset, on_scroll = ctx.scroll()
    msgs = es.in_folder(ctx.store, folder)
    rows: list[View] = [Text(es.folder_title(folder), size=14, weight="medium",
                             color=ctx.theme.on_surface_variant, rid="folder_title",
                             padding=(w.MARGIN, dp(8), 0, dp(4)))]
    rows += [mail_row(ctx, m, folder) for m in msgs]
    if not msgs:
        rows.append(_empty(ctx, f"Nothing in {es.folder_title(folder)}"))
    rows.append(w.spacer(dp(16)))
    th = ctx.theme
    me = ctx.store.get("me_name", "")
    search = Row([
        w.icon_button("menu", "Open navigation drawer", ctx.show_dialog("drawer"),
                      rid="drawer_button", theme=th),
        Text("Search in mail", size=16, color=th.on_surface_variant, flex=1, max_lines=1,
             on_click=ctx.go("search"), rid="open_search", cls="android.widget.TextView",
             padding=(0, dp(14), 0, dp(14))),
        Column([w.avatar(me, (15, 157, 88), size=32)], padding=(0, 0, dp(8), 0),
               desc=f"Account {ctx.store.get('me', '')}", rid="account"),
    ], gap=dp(4), height=dp(56), bg=th.surface_high, radius=dp(28), padding=(dp(4), 0, dp(4), 0),
        flex=1)
    body = Column([
        Row([search], padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="thread_list"),
        Row([View(flex=1, in_dump=False), _compose_fab(ctx)],
            padding=(w.MARGIN, dp(8), w.MARGIN, w.MARGIN)),
    ], bg=th.surface)
    dlg = _drawer(ctx, folder) if ctx.dialog == "drawer" else \
        _menu(ctx) if ctx.dialog == "menu" else None
    return Page(body, dialog=dlg)


# -- search ----------------------------------------------------------------------------------
def _suggestions(ctx: Ctx, q: str) -> list[tuple[str, str]]:
    """(icon, text) suggestions for a partial query: people, then subjects (at most 8)."""
    ql = q.lower()
    people: dict[str, str] = {}
    subjects: list[str] = []
    for m in es.newest_first(ctx.store["messages"]):
        if m["folder"] == es.TRASH:
            continue
        if m["from_name"] and m["from"] != ctx.store["me"] and \
                (ql in m["from_name"].lower() or ql in m["from"].lower()):
            people.setdefault(m["from_name"], m["from"])
        if ql in m["subject"].lower() and m["subject"] not in subjects:
            subjects.append(m["subject"])
    out = [("user", n) for n in sorted(people)] + [("search", s) for s in subjects]
    return out[:8]


def search(ctx: Ctx) -> View | Page:
    """A search field with suggestions while typing; results once submitted."""
    query, on_query = ctx.field("q")
    submitted = ctx.state.get("submitted")
    offset, on_scroll = ctx.scroll()

    def submit_text(text: str) -> Handler:
        def h() -> None:
            ctx.state.setdefault("_fields", {})["q"] = text
            ctx.state["submitted"] = text
            ctx.clear_focus()

        return h

    def submit() -> None:
        submit_text(query)()

    field = w.text_field("q", query, on_text=on_query, on_submit=submit,
                         hint="Search in mail", rid="search_bar", outlined=False, flex=1)
    rows: list[View] = []
    if submitted is not None and submitted == query and query.strip():
        hits = es.search(ctx.store, query)
        rows.append(w.section(f"{len(hits)} result{'s' if len(hits) != 1 else ''}",
                              theme=ctx.theme))
        rows += [mail_row(ctx, m, "search") for m in hits]
        if not hits:
            rows.append(_empty(ctx, "No results"))
    elif query.strip():
        for icon, text in _suggestions(ctx, query.strip()):
            rows.append(hairline(w.list_item(text, leading=Icon(
                icon, size=20, box=40, color=ctx.theme.on_surface_variant),
                on_click=submit_text(text), rid="suggestion", theme=ctx.theme)))
    rows.append(w.spacer(dp(32)))
    body = Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=ctx.theme), field],
            gap=dp(4), padding=(dp(4), dp(8), w.MARGIN, dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_results"),
    ], bg=ctx.theme.surface)
    return Page(body, dialog=_menu(ctx) if ctx.dialog == "menu" else None)


# -- a message ---------------------------------------------------------------------------------
def _save_attachment(ctx: Ctx, a: dict[str, Any]) -> Handler:
    def h() -> None:
        taken = {f["path"] for f in ctx.files("/sdcard/Download/")}
        stem, dot, ext = a["name"].rpartition(".")
        if not dot:
            stem, ext = a["name"], ""
        path, n = f"/sdcard/Download/{a['name']}", 1
        while path in taken:
            path = f"/sdcard/Download/{stem} ({n}){dot}{ext}"
            n += 1
        ctx.write_file(path, es.attachment_bytes(a))
        ctx.toast(f"Saved to Downloads: {path.rsplit('/', 1)[-1]}")

    return h


def size_text(n: int) -> str:
    return f"{n} B" if n < 1000 else f"{n / 1000:.1f} kB" if n < 1_000_000 \
        else f"{n / 1_000_000:.1f} MB"


def attachment_card(ctx: Ctx, a: dict[str, Any], trailing: View) -> Row:
    icon = "image" if a["mime"].startswith("image/") else "file_lines"
    return Row([Icon(icon, size=22, box=40, color=ctx.theme.primary, in_dump=False),
                Column([Text(a["name"], size=14, weight="medium", color=ctx.theme.on_surface,
                             max_lines=1, rid="attachment_name"),
                        Text(size_text(a["size"]), size=12,
                             color=ctx.theme.on_surface_variant)], flex=1),
                trailing],
               gap=dp(8), padding=(dp(12), dp(4), dp(4), dp(4)), radius=dp(12),
               border=ctx.theme.outline_variant, border_width=3, rid="attachment",
               cls="android.widget.LinearLayout")


def message(ctx: Ctx) -> View | Page:
    """A message: subject with its folder and star, sender, body, attachments (each can be
    saved to Downloads), then Reply, Reply all and Forward."""
    m = es.find(ctx.store, ctx.args["id"])
    th = ctx.theme
    if m is None:
        return Column([w.app_bar("", on_back=ctx.pop, theme=th),
                       w.text("This message was deleted.", padding=(w.MARGIN,) * 4)],
                      bg=th.surface)

    def archive() -> None:
        es.move(ctx.store, m["id"], es.ARCHIVE)
        ctx.pop()
        ctx.toast("Archived")

    def delete() -> None:
        was_trash = m["folder"] == es.TRASH
        es.delete(ctx.store, m["id"])
        ctx.pop()
        ctx.toast("Deleted forever" if was_trash else "Moved to Trash")

    def unread() -> None:
        m["read"] = 0
        ctx.pop()

    def move_to(folder: str) -> Handler:
        def h() -> None:
            es.move(ctx.store, m["id"], folder)
            ctx.close_dialog()
            ctx.pop()
            ctx.toast(f"Moved to {es.folder_title(folder)}")

        return h

    me = ctx.store["me"]
    actions = [w.icon_button("box_archive", "Archive", archive, rid="archive", theme=th),
               w.icon_button("trash", "Delete", delete, rid="delete", theme=th),
               w.icon_button("envelope_open", "Mark as unread", unread, rid="mark_unread",
                             theme=th),
               w.icon_button("folder", "Move to", ctx.show_dialog("move"), rid="move",
                             theme=th)]
    if m["folder"] == es.SCHEDULED:  # it has not left yet: only Cancel send or Delete
        actions = actions[1:2]
    recipients = ", ".join("me" if a.strip() == me else a.strip()
                           for a in (m["to"] + ("," + m["cc"] if m["cc"] else "")).split(",")
                           if a.strip())
    head = Column([
        Row([Text(m["subject"] or "(no subject)", size=22, color=th.on_surface, flex=1,
                  rid="subject_title"),
             w.icon_button("star", "Unstar" if m["starred"] else "Star",
                           _toggle_star(ctx, m), rid="star", theme=th,
                           color=STAR if m["starred"] else th.outline,
                           selected=bool(m["starred"]))],
            gap=dp(8)),
        Row([Text(es.folder_title(m["folder"]), size=12, color=th.on_surface_variant,
                  bg=th.surface_high, radius=dp(4), padding=(dp(6), dp(2), dp(6), dp(2)),
                  rid="folder_chip"), View(flex=1, in_dump=False)]),
    ], gap=dp(8), padding=(w.MARGIN, dp(8), dp(4), dp(8)))
    sender = Row([w.avatar(m["from_name"] or m["from"], tint(m["from"])),
                  Column([Row([Text(m["from_name"] or m["from"], size=16, weight="medium",
                                    color=th.on_surface, max_lines=1, flex=1, rid="sender"),
                               Text(when(m["date"], ctx.now, long=True), size=12,
                                    color=th.on_surface_variant, rid="date")], gap=dp(8)),
                          Text(m["from"], size=12, color=th.on_surface_variant, max_lines=1,
                               rid="sender_address"),
                          Text(f"to {recipients}", size=12, color=th.on_surface_variant,
                               max_lines=2, rid="recipients")], flex=1)],
                 gap=dp(12), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)))
    parts: list[View] = [head, sender]
    if m["folder"] == es.SCHEDULED:
        parts.append(_scheduled_card(ctx, m))
    parts.append(Text(m["body"], size=16, color=th.on_surface, rid="body",
                      padding=(w.MARGIN, dp(8), w.MARGIN, dp(16))))
    for a in m["attachments"]:
        parts.append(Column([attachment_card(
            ctx, a, w.icon_button("download", f"Download {a['name']}", _save_attachment(ctx, a),
                                  rid="download", theme=th))],
            padding=(w.MARGIN, dp(4), w.MARGIN, dp(4))))
    others = [a.strip() for a in (m["to"] + "," + m["cc"]).split(",")
              if a.strip() and a.strip() != me and a.strip() != m["from"]]
    reply_to = m["from"] if m["from"] != me else m["to"]
    re_subject = m["subject"] if m["subject"].lower().startswith("re:") else \
        f"Re: {m['subject']}"
    quoted = f"\n\nOn {when(m['date'], ctx.now, long=True)}, {m['from_name'] or m['from']} " \
             f"wrote:\n> " + "\n> ".join(m["body"].splitlines())
    fwd_subject = m["subject"] if m["subject"].lower().startswith("fwd:") else \
        f"Fwd: {m['subject']}"
    fwd_body = (f"\n\n---------- Forwarded message ---------\nFrom: {m['from_name']} "
                f"<{m['from']}>\nDate: {when(m['date'], ctx.now, long=True)}\n"
                f"Subject: {m['subject']}\nTo: {m['to']}\n\n{m['body']}")
    buttons = Row([
        w.button("Reply", ctx.go("compose", to=reply_to, subject=re_subject, body=quoted,
                                 mode="reply"), style="outlined", flex=1, theme=th,
                 rid="reply"),
        w.button("Reply all", ctx.go("compose", to=reply_to, cc=", ".join(others),
                                     subject=re_subject, body=quoted, mode="reply"),
                 style="outlined", flex=1, theme=th, rid="reply_all"),
        w.button("Forward", ctx.go("compose", subject=fwd_subject, body=fwd_body,
                                   attachments=[dict(a) for a in m["attachments"]],
                                   mode="forward"), style="outlined", flex=1, theme=th,
                 rid="forward"),
    ], gap=dp(8), padding=(w.MARGIN, dp(16), w.MARGIN, dp(24)))
    parts.append(buttons)
    offset, on_scroll = ctx.scroll()
    body = Column([w.app_bar("", on_back=ctx.pop, actions=actions, theme=th),
                   Scroll(parts, offset=offset, on_scroll=on_scroll,
                          cls="android.widget.ScrollView", rid="message_scroll")], bg=th.surface)
    dlg = None
    if ctx.dialog == "move":
        dests = [f for f in (es.INBOX, es.ARCHIVE, *es.LABELS, es.TRASH) if f != m["folder"]]
        dlg = sheets.action_menu("Move to", [
            (es.folder_title(f), "tag" if f in es.LABELS else "folder", move_to(f))
            for f in dests], theme=th)
    return Page(body, dialog=dlg)


def _scheduled_card(ctx: Ctx, m: dict[str, Any]) -> View:
    """Gmail's banner on a scheduled message: when it will be sent, and Cancel send (the
    message goes back to Drafts and is never sent)."""
    th = ctx.theme

    def cancel() -> None:
        es.cancel_send(ctx.store, m["id"])
        ctx.pop()
        ctx.toast("Sending cancelled. Message reverted to draft.")

    return Column([Row([
        Icon("clock", size=20, box=40, color=th.primary, in_dump=False),
        Text(f"Send scheduled for {when(m['date'], ctx.now, long=True)}", size=14,
             color=th.on_surface, flex=1, rid="scheduled_for"),
        w.button("Cancel send", cancel, style="text", theme=th, rid="cancel_send")],
        gap=dp(8), padding=(dp(12), dp(4), dp(4), dp(4)), bg=th.surface_container,
        radius=dp(12))], padding=(w.MARGIN, dp(4), w.MARGIN, dp(4)))


# -- compose ---------------------------------------------------------------------------------
def _initial_attachments(ctx: Ctx) -> list[dict[str, Any]]:
    """What compose opens with: a draft's attachments, a forward's, or a shared file."""
    draft = es.find(ctx.store, ctx.args["draft_id"]) if ctx.args.get("draft_id") else None
    if draft is not None:
        return [dict(a) for a in draft["attachments"]]
    out = [dict(a) for a in ctx.args.get("attachments", [])]
    shared = ctx.args.get("shared") or {}
    path = shared.get("path")
    if path:
        try:
            data = ctx.read_file(str(path))
        except KeyError:
            return out
        out.append(es.attachment(str(path).rsplit("/", 1)[-1], data,
                                 str(shared.get("mime") or "")))
    return out


def attachments_of(ctx: Ctx) -> list[dict[str, Any]]:
    return ctx.state["atts"] if "atts" in ctx.state else _initial_attachments(ctx)


def _defaults(ctx: Ctx) -> dict[str, str]:
    a = ctx.args
    draft = es.find(ctx.store, a["draft_id"]) if a.get("draft_id") else None
    if draft is not None:
        return {k: draft[k] for k in ("to", "cc", "subject", "body")}
    shared = a.get("shared") or {}
    to = intents.uri_payload(a["uri"]) if a.get("uri") else str(a.get("to", ""))
    return {"to": to + ", " if to and not to.endswith(", ") else to,
            "cc": str(a.get("cc", "")),
            "subject": str(a.get("subject") or shared.get("subject") or ""),
            "body": str(a.get("body") or shared.get("text") or "")}


def _contact_suggestions(ctx: Ctx, token: str) -> list[tuple[str, str]]:
    t = token.strip().lower()
    if not t:
        return []
    out = [(r["display_name"], r["email"]) for r in ctx.query("contacts")
           if r.get("email") and (t in r["display_name"].lower() or t in r["email"].lower())]
    return sorted(out)[:5]


def compose(ctx: Ctx) -> View | Page:
    """A new message (or a reply, forward, draft, mailto: or a share from another app)."""
    th = ctx.theme
    d = _defaults(ctx)
    to, on_to = ctx.field("to", d["to"])
    cc, on_cc = ctx.field("cc", d["cc"])
    subject, on_subject = ctx.field("subject", d["subject"])
    body, on_body = ctx.field("body", d["body"])
    atts = attachments_of(ctx)
    draft_id = ctx.args.get("draft_id")

    def send() -> None:
        try:
            es.send(ctx.store, to=to, cc=cc, subject=subject, body=body, attachments=atts,
                    now=ctx.now, draft_id=draft_id)
        except ValueError as e:
            ctx.toast(str(e)[:1].upper() + str(e)[1:])
            return
        ctx.pop()
        ctx.toast("Sent")

    def back() -> bool:
        edited = (to, cc, subject, body) != (d["to"], d["cc"], d["subject"], d["body"]) \
            or "atts" in ctx.state
        if edited and (to.strip(", ") or subject.strip() or body.strip() or atts):
            es.save_draft(ctx.store, to=to.strip().rstrip(","), cc=cc, subject=subject,
                          body=body, attachments=atts, now=ctx.now, draft_id=draft_id)
            ctx.toast("Draft saved")
        ctx.pop()
        return True

    def remove(i: int) -> Handler:
        def h() -> None:
            ctx.state["atts"] = [a for j, a in enumerate(atts) if j != i]

        return h

    def complete(email: str) -> Handler:
        def h() -> None:
            head = to.rsplit(",", 1)[0] + ", " if "," in to else ""
            ctx.state.setdefault("_fields", {})["to"] = f"{head}{email}, ".lstrip(", ")
            ctx.clear_focus()

        return h

    def line(label: str, field: View) -> Row:
        return Row([Text(label, size=16, color=th.on_surface_variant, width=dp(64)), field],
                   gap=dp(8), padding=(w.MARGIN, 0, w.MARGIN, 0))

    token = to.rsplit(",", 1)[-1]
    rows: list[View] = [
        line("From", Text(ctx.store["me"], size=16, color=th.on_surface, flex=1, max_lines=1,
                          rid="from", padding=(0, dp(16), 0, dp(16)))),
        line("To", w.text_field("to", to, on_text=on_to, hint="", rid="to", outlined=False,
                                desc="To", flex=1)),
    ]
    for name, email in _contact_suggestions(ctx, token):
        rows.append(hairline(w.list_item(name, subtitle=email,
                                         leading=w.avatar(name, tint(email)),
                                         on_click=complete(email), rid="contact_suggestion",
                                         theme=th)))
    rows += [
        line("Cc", w.text_field("cc", cc, on_text=on_cc, hint="", rid="cc", outlined=False,
                                desc="Cc", flex=1)),
        Column([w.text_field("subject", subject, on_text=on_subject, hint="Subject",
                             rid="subject", outlined=False)], padding=(w.MARGIN, 0, w.MARGIN, 0)),
    ]
    for i, a in enumerate(atts):
        rows.append(Column([attachment_card(ctx, a, w.icon_button(
            "close", f"Remove {a['name']}", remove(i), rid="remove_attachment", theme=th))],
            padding=(w.MARGIN, dp(4), w.MARGIN, dp(4))))
    body_field = w.text_field("body", body, on_text=on_body, hint="Compose email", rid="body",
                              outlined=False)
    body_field.height = dp(160)
    rows += [Column([body_field], padding=(w.MARGIN, 0, w.MARGIN, 0)), w.spacer(dp(24))]
    offset, on_scroll = ctx.scroll()
    title = {"reply": "Reply", "forward": "Forward"}.get(str(ctx.args.get("mode", "")),
                                                          "Compose")
    return Page(Column([
        w.app_bar(title, on_back=lambda: None if back() else None, theme=th, actions=[
            w.icon_button("paperclip", "Attach file", ctx.go("pick_file"), rid="attach",
                          theme=th),
            w.icon_button("paper_plane", "Send", send, rid="send", theme=th,
                          color=th.primary)]),
        Scroll(rows, gap=dp(2), offset=offset, on_scroll=on_scroll,
               cls="android.widget.ScrollView", rid="compose_scroll"),
    ], bg=th.surface), on_back=back)


def pick_file(ctx: Ctx) -> View:
    """Choose a file from shared storage to attach (folders as sections)."""
    th = ctx.theme
    offset, on_scroll = ctx.scroll()

    def attach(path: str) -> Handler:
        def h() -> None:
            below = ctx.below
            ctx.pop()
            if below is None or below.screen_name != "compose":
                return
            try:
                data = ctx.read_file(path)
            except KeyError:
                ctx.toast("File not found")
                return
            current = attachments_of(below)
            below.state["atts"] = current + [es.attachment(path.rsplit("/", 1)[-1], data)]

        return h

    rows: list[View] = []
    folder = None
    first = ("/sdcard/Download", "/sdcard/Documents")  # where attachments usually come from

    def order(f: dict[str, Any]) -> tuple[int, str]:
        parent = f["path"].rsplit("/", 1)[0]
        return (first.index(parent) if parent in first else len(first), f["path"])

    for f in sorted(ctx.files("/sdcard/"), key=order):
        parent = f["path"].rsplit("/", 1)[0]
        if parent != folder:
            folder = parent
            rows.append(w.section(" › ".join(["Internal storage",
                                               *parent.split("/")[2:]]), theme=th))
        name = f["path"].rsplit("/", 1)[-1]
        icon = "image" if es.mime_of(name).startswith("image/") else "file_lines"
        row = w.list_item(name, subtitle=size_text(f["size"]),
                          leading=Icon(icon, size=20, box=40, color=th.primary),
                          on_click=attach(f["path"]), rid="file", theme=th)
        row.bg, row.radius = th.surface, dp(16)  # rounded rows on a tinted list, as Files has
        rows.append(Column([row], padding=(dp(12), dp(2), dp(12), dp(2))))
    if not rows:
        rows.append(_empty(ctx, "No files on this phone"))
    rows.append(w.spacer(dp(32)))
    return Column([w.app_bar("Attach file", on_back=ctx.pop, theme=th,
                             bg=th.surface_container),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="file_list")],
                  bg=th.surface_container)
