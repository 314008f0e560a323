"""Notes screens, like Google Keep: the notes grid (pinned first), search with suggestions,
and the editor of a note or checklist. Notes save as they are typed (as Keep does); a new
note that stays empty is discarded when closed."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.notes import store as ns
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.sheets import bottom_sheet, search_suggestions, swipe_to_dismiss
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

GAP = dp(8)


# -- cards -------------------------------------------------------------------------------------
def card(ctx: Ctx, n: dict[str, Any]) -> View:
    """A note's card: its title, then the text (or the unchecked items and a count of the
    checked ones). A tap opens it, a long press opens its options, a swipe sideways deletes
    it."""
    kids: list[View] = []
    if n["title"]:
        kids.append(Text(n["title"], size=16, weight="medium", color=ctx.theme.on_surface,
                         max_lines=2, rid="index_note_title"))
    if n["items"] is None:
        if n["body"]:
            kids.append(Text(n["body"], size=14, color=ctx.theme.on_surface, max_lines=8,
                             rid="index_note_text_description"))
    else:
        open_items = [i for i in n["items"] if not i["checked"]]
        for i in open_items[:6]:
            kids.append(Row([View(width=dp(14), height=dp(14), radius=dp(2),
                                  border=ctx.theme.on_surface_variant, border_width=4,
                                  in_dump=False),
                             Text(i["text"], size=14, color=ctx.theme.on_surface, max_lines=1,
                                  flex=1, rid="index_list_item")], gap=dp(8)))
        more = len(open_items) - 6
        done = len(n["items"]) - len(open_items)
        extra = [f"+{more} more"] if more > 0 else []
        extra += [f"+ {done} checked item{'s' if done != 1 else ''}"] if done else []
        for e in extra:
            kids.append(Text(e, size=13, color=ctx.theme.on_surface_variant,
                             rid="index_list_more"))
    if not kids:
        kids.append(Text("Empty note", size=14, color=ctx.theme.on_surface_variant))
    bg = ns.PALETTE[n["color"] % len(ns.PALETTE)]
    label = n["title"] or (n["body"][:30] if n["items"] is None else "List")
    def dismiss() -> None:
        ns.delete(ctx.store, n["id"])
        ctx.toast("Note deleted")

    view = Column(kids, gap=dp(6), padding=(dp(14), dp(12), dp(14), dp(14)), bg=bg,
                  radius=dp(12), border=ctx.theme.outline_variant if n["color"] == 0 else None,
                  border_width=3, on_click=ctx.go("edit", id=n["id"]),
                  on_long_click=ctx.show_dialog("options", id=n["id"]),
                  desc=f"{label}{', pinned' if n['pinned'] else ''}",
                  cls="android.widget.FrameLayout", rid="browse_note_interior_content")
    return swipe_to_dismiss(view, dismiss)


def grid(ctx: Ctx, notes: list[dict[str, Any]]) -> View:
    """Two columns of cards, each card going to the shorter column (Keep's staggered
    grid)."""
    cols: list[list[View]] = [[], []]
    heights = [0, 0]
    width = (1080 - 2 * w.MARGIN - GAP) // 2
    for n in notes:
        c = card(ctx, n)
        k = 0 if heights[0] <= heights[1] else 1
        cols[k].append(c)
        heights[k] += c.measure(width) + GAP
    return Row([Column(cols[0], gap=GAP, flex=1), Column(cols[1], gap=GAP, flex=1)],
               gap=GAP, padding=(w.MARGIN, 0, w.MARGIN, 0))


def options_sheet(ctx: Ctx, nid: int, *, leave: bool = False) -> View | None:
    """The bottom sheet of a note: pin or unpin, make a copy, send, delete. ``leave``
    closes the editor after a delete."""
    n = ns.find(ctx.store, nid)
    if n is None:
        return None

    def pin() -> None:
        ctx.close_dialog()
        n["pinned"] = not n["pinned"]
        ctx.toast("Note pinned" if n["pinned"] else "Note unpinned")

    def copy() -> None:
        ctx.close_dialog()
        items = [(i["text"], i["checked"]) for i in n["items"]] if n["items"] is not None \
            else None
        ns.add_note(ctx.store, n["title"], n["body"], items, color=n["color"],
                    edited=ns.epoch_ms(dt.datetime.fromisoformat(ctx.now)))
        ctx.toast("Copy made")

    def send() -> None:
        ctx.close_dialog()
        ctx.share(text=ns.as_text(n), subject=n["title"])()

    def delete() -> None:
        ctx.close_dialog()
        ns.delete(ctx.store, nid)
        if leave:
            ctx.pop()
        ctx.toast("Note deleted")

    return bottom_sheet(n["title"] or "Note", [
        ("thumbtack", "Unpin" if n["pinned"] else "Pin", pin),
        ("copy", "Make a copy", copy),
        ("share", "Send", send),
        ("trash", "Delete", delete),
    ], theme=ctx.theme)


# -- main --------------------------------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """The search bar, pinned notes, the others, and the bottom bar (new list, new note)."""
    offset, on_scroll = ctx.scroll()
    notes = ns.ordered(ctx.store)
    pinned = [n for n in notes if n["pinned"]]
    others = [n for n in notes if not n["pinned"]]
    rows: list[View] = []
    if pinned:
        rows.append(Text("PINNED", size=12, weight="medium", color=ctx.theme.on_surface_variant,
                         padding=(dp(24), dp(8), 0, dp(8)), rid="pinned_header"))
        rows.append(grid(ctx, pinned))
    if others:
        if pinned:
            rows.append(Text("OTHERS", size=12, weight="medium",
                             color=ctx.theme.on_surface_variant,
                             padding=(dp(24), dp(16), 0, dp(8)), rid="others_header"))
        rows.append(grid(ctx, others))
    if not notes:
        rows.append(Column([
            Icon("lightbulb", size=56, box=96, color=ctx.theme.on_surface_variant,
                 in_dump=False),
            Text("Notes you add appear here", size=16, align="center",
                 color=ctx.theme.on_surface_variant, rid="empty_text"),
        ], gap=dp(12), padding=(0, dp(96), 0, 0)))
    rows.append(w.spacer(dp(96)))
    search = Row([Icon("search", size=20, box=40, color=ctx.theme.on_surface_variant,
                       in_dump=False),
                  Text("Search your notes", size=16, color=ctx.theme.on_surface_variant,
                       flex=1, in_dump=False)],
                 gap=dp(8), height=dp(48), radius=dp(24), bg=ctx.theme.surface_high,
                 padding=(dp(12), 0, dp(16), 0), flex=1, on_click=ctx.go("search"),
                 text="Search your notes", rid="open_search_bar",
                 cls="android.widget.TextView")
    new_note = w.fab("plus", "New note", ctx.go("edit", id=0), theme=ctx.theme,
                     rid="new_note_button")
    bottom = Row([w.icon_button("square_check", "New list", ctx.go("edit", id=0, kind="list"),
                                rid="new_list_button", theme=ctx.theme),
                  w.icon_button("pen", "New text note", ctx.go("edit", id=0),
                                rid="new_text_note_button", theme=ctx.theme),
                  View(flex=1, in_dump=False)],
                 height=dp(80), padding=(dp(8), 0, dp(16), 0), bg=ctx.theme.surface_container,
                 rid="bottom_app_bar")
    body = Column([
        Row([search], padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))),
        Stack([Scroll(rows, offset=offset, on_scroll=on_scroll, rid="notes_list"), new_note],
              flex=1, padding=(0, 0, w.MARGIN, w.MARGIN)),
        bottom,
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "options":
        dlg = options_sheet(ctx, int(ctx.state.get("_dialog_data", {}).get("id", 0)))
    return Page(body, dialog=dlg)


# -- search ------------------------------------------------------------------------------------
def search(ctx: Ctx) -> View | Page:
    """A search field; while typing, the titles that match are suggested under it (a tap
    opens that note); below, every note whose title, text or items match."""
    query, on_query = ctx.field("q")
    offset, on_scroll = ctx.scroll()
    q = query.strip().lower()
    submitted = bool(ctx.state.get("submitted")) and ctx.state.get("submitted_q") == query

    def on_text(v: str) -> None:
        on_query(v)
        ctx.state["submitted"] = False

    def submit() -> None:
        ctx.state["submitted"] = True
        ctx.state["submitted_q"] = query

    hits = [n for n in ns.ordered(ctx.store) if q and ns.matches(n, q)]
    rows: list[View] = []
    if q and not submitted:
        titles = [n for n in hits if n["title"] and q in n["title"].lower()][:5]
        if titles:
            rows.append(search_suggestions([(n["title"], ctx.go("edit", id=n["id"]))
                                            for n in titles], theme=ctx.theme))
    if q:
        rows.append(Text(f"{len(hits)} result{'s' if len(hits) != 1 else ''}" if hits
                         else "No matching notes", size=14, color=ctx.theme.on_surface_variant,
                         padding=(dp(24), dp(12), 0, dp(8)), rid="results_header"))
        if hits:
            rows.append(grid(ctx, hits))
    else:
        rows.append(Text("Search by title, text or list item", size=14, align="center",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0),
                         rid="empty_text"))
    rows.append(w.spacer(dp(24)))
    field = w.text_field("q", query, on_text=on_text, on_submit=submit,
                         hint="Search your notes", rid="search_src_text", outlined=False,
                         flex=1)
    body = Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=ctx.theme), field],
            gap=dp(4), height=dp(64), padding=(dp(4), 0, w.MARGIN, 0)),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_results"),
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "options":
        dlg = options_sheet(ctx, int(ctx.state.get("_dialog_data", {}).get("id", 0)))
    return Page(body, dialog=dlg)


# -- the editor --------------------------------------------------------------------------------
def edit(ctx: Ctx) -> Page:
    """A note or a checklist (``id`` 0 makes a new one, ``kind`` "list" a checklist; a share
    from another app arrives as ``shared`` and fills the new note). What is typed is saved
    at once; closing a note that is empty deletes it."""
    nid = ctx.state.get("id") or ctx.args.get("id", 0)
    n = ns.find(ctx.store, nid) if nid else None
    if nid and n is None:  # deleted underneath us
        return Page(Column([w.app_bar("Note", on_back=ctx.pop, theme=ctx.theme),
                            w.text("This note no longer exists.", padding=(w.MARGIN,) * 4)],
                           bg=ctx.theme.surface))
    shared = ctx.args.get("shared") or {}
    is_list = n["items"] is not None if n is not None else ctx.args.get("kind") == "list"
    title_draft, on_title_draft = ctx.field("title", str(shared.get("subject") or ""))
    body_draft, on_body_draft = ctx.field("body", str(shared.get("text") or ""))
    new_item, on_new_item = ctx.field("new_item")

    def note() -> dict[str, Any]:
        """This note, made on the first change of a new one."""
        cur = ns.find(ctx.store, ctx.state.get("id") or ctx.args.get("id", 0))
        if cur is None:
            cur = ns.add_note(ctx.store, title_draft, "" if is_list else body_draft,
                              [] if is_list else None,
                              edited=ns.epoch_ms(dt.datetime.fromisoformat(ctx.now)))
            ctx.state["id"] = cur["id"]
        return cur

    def setter(col: str, draft: Any) -> Any:
        def h(v: str) -> None:
            draft(v)
            cur = note()
            cur[col] = v
            ns.touch(cur, ctx.now)
        return h

    def close() -> bool:
        cur = ns.find(ctx.store, ctx.state.get("id") or ctx.args.get("id", 0))
        if cur is None and (title_draft.strip() or body_draft.strip()):
            cur = note()  # a shared text nobody edited is kept when the note is closed
        if cur is not None and ns.is_empty(cur):
            ns.delete(ctx.store, cur["id"])
            ctx.toast("Empty note discarded")
        ctx.pop()
        return True

    def add_item() -> None:
        text = new_item.strip()
        if not text:
            return
        cur = note()
        ns.add_item(ctx.store, cur, text)
        ns.touch(cur, ctx.now)
        on_new_item("")
        ctx.state.setdefault("_scroll", {})["main"] = 10 ** 7  # the field stays in view

    title = n["title"] if n is not None else title_draft
    kids: list[View] = [w.text_field("title", title, on_text=setter("title", on_title_draft),
                                     hint="Title", rid="editable_title", outlined=False)]
    if not is_list:
        body = n["body"] if n is not None else body_draft
        kids.append(w.text_field("body", body, on_text=setter("body", on_body_draft),
                                 hint="Note", rid="edit_note_text", outlined=False))
    else:
        for it in (n["items"] if n is not None else []):
            assert n is not None
            kids.append(_item_row(ctx, n, it))
        kids.append(Row([Icon("plus", size=18, box=40, color=ctx.theme.on_surface_variant,
                              in_dump=False),
                         w.text_field("new_item", new_item, on_text=on_new_item,
                                      on_submit=add_item, hint="List item",
                                      rid="add_item_text_view", outlined=False, flex=1)],
                        gap=dp(4)))
    if n is not None:
        edited = dt.datetime.fromtimestamp(n["edited"] / 1000, tz=dt.timezone.utc)
        stamp = edited.strftime("%I:%M %p").lstrip("0") if edited.date() == \
            dt.datetime.fromisoformat(ctx.now).date() else f"{edited.strftime('%b')} {edited.day}"
        kids.append(Text(f"Edited {stamp}", size=12, align="center",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(16), 0, 0),
                         rid="edited_time"))
    actions: list[View] = []
    if n is not None:
        actions = [
            w.icon_button("thumbtack", "Unpin" if n["pinned"] else "Pin", _pin(ctx, n),
                          rid="menu_pin", theme=ctx.theme, selected=n["pinned"],
                          color=ctx.theme.primary if n["pinned"] else None),
            w.icon_button("share", "Send", ctx.share(text=ns.as_text(n), subject=n["title"]),
                          rid="menu_send", theme=ctx.theme),
            w.icon_button("more", "More options", ctx.show_dialog("options", id=n["id"]),
                          rid="menu_more", theme=ctx.theme),
        ]
    offset, on_scroll = ctx.scroll()
    bg = ns.PALETTE[n["color"] % len(ns.PALETTE)] if n is not None else (255, 255, 255)
    body_view = Column([
        w.app_bar("", on_back=lambda: None if close() else None, actions=actions,
                  theme=ctx.theme, bg=bg),
        Scroll(kids, gap=dp(8), offset=offset, on_scroll=on_scroll,
               padding=(dp(8), dp(8), dp(8), dp(8)), rid="editor_list"),
    ], bg=bg)
    dlg = None
    if ctx.dialog == "options" and n is not None:
        dlg = options_sheet(ctx, n["id"], leave=True)
    return Page(body_view, dialog=dlg, on_back=close)


def _pin(ctx: Ctx, n: dict[str, Any]) -> Handler:
    def h() -> None:
        n["pinned"] = not n["pinned"]
        ctx.toast("Note pinned" if n["pinned"] else "Note unpinned")
    return h


def _item_row(ctx: Ctx, n: dict[str, Any], it: dict[str, Any]) -> View:
    """A checklist item: its checkbox (text and state) and a button that removes it."""
    def toggle() -> None:
        it["checked"] = not it["checked"]
        ns.touch(n, ctx.now)

    def remove() -> None:
        n["items"] = [x for x in n["items"] if x["id"] != it["id"]]
        ns.touch(n, ctx.now)

    box = controls.checkbox(it["text"], it["checked"], toggle, rid="list_item_checkbox",
                            theme=ctx.theme)
    box.flex = 1
    return Row([box, w.icon_button("close", f"Delete {it['text']}", remove,
                                   rid="list_item_delete", theme=ctx.theme)], gap=dp(4))
