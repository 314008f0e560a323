"""Contacts screens: the list (search, favourites, A-Z sections), a contact, the editor."""

from __future__ import annotations

from phoneworld_gym.app import Page
from phoneworld_gym.apps.contacts import store as cs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Stack, Text, View, dp

TINTS = [(66, 133, 244), (219, 68, 55), (15, 157, 88), (171, 71, 188), (255, 112, 67),
         (0, 172, 193), (124, 179, 66), (92, 107, 192)]


def tint(cid: int) -> tuple[int, int, int]:
    return TINTS[cid % len(TINTS)]


def contact_row(ctx: Ctx, c: dict) -> View:
    name = cs.display_name(c) or c["phone"] or "(No name)"
    return w.list_item(name, leading=w.avatar(name, tint(c["id"])), rid="contact",
                       on_click=ctx.go("detail", id=c["id"]), theme=ctx.theme)


def main(ctx: Ctx) -> View:
    """The list: a search field, favourites, then everyone under letter headers."""
    query, on_query = ctx.field("search")
    offset, on_scroll = ctx.scroll()
    q = query.strip().lower()
    people = cs.sorted_contacts(ctx.store)
    rows: list[View] = []
    if q:
        hits = [c for c in people if q in cs.display_name(c).lower() or q in c["phone"]
                or q in c["email"].lower()]
        rows.append(w.section(f"{len(hits)} found" if hits else "No contacts found",
                              theme=ctx.theme))
        rows += [contact_row(ctx, c) for c in hits]
    else:
        fav = [c for c in people if c["starred"]]
        if fav:
            rows.append(w.section("Favorites", theme=ctx.theme))
            rows += [contact_row(ctx, c) for c in fav]
        letter = ""
        for c in people:
            first = (cs.display_name(c)[:1] or "#").upper()
            if first != letter:
                letter = first
                rows.append(Text(letter, size=14, weight="medium", color=ctx.theme.primary,
                                 padding=(w.MARGIN, dp(12), 0, dp(4)), rid="section_header"))
            rows.append(contact_row(ctx, c))
    rows.append(w.spacer(dp(88)))
    search = w.text_field("search", query, on_text=on_query, hint="Search contacts",
                          rid="search_bar", outlined=False)
    body = Column([
        Row([search], padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))),
        Stack([Scroll(rows, offset=offset, on_scroll=on_scroll, rid="contact_list"),
               w.fab("plus", "Create contact", ctx.go("edit", id=0), theme=ctx.theme)],
              flex=1, padding=(0, 0, w.MARGIN, w.MARGIN)),
    ], bg=ctx.theme.surface)
    return body


def detail(ctx: Ctx) -> View | Page:
    c = cs.find(ctx.store, ctx.args["id"])
    if c is None:  # deleted underneath us
        return Column([w.app_bar("Contact", on_back=ctx.pop, theme=ctx.theme),
                       w.text("This contact no longer exists.", padding=(w.MARGIN,) * 4)],
                      bg=ctx.theme.surface)
    name = cs.display_name(c) or c["phone"]

    def toggle_star() -> None:
        c["starred"] = not c["starred"]
        ctx.toast("Added to favorites" if c["starred"] else "Removed from favorites")

    def do_delete() -> None:
        cs.delete(ctx.store, c["id"])
        ctx.close_dialog()
        ctx.pop()
        ctx.toast("Contact deleted")

    actions = [
        w.icon_button("star", "Remove from favorites" if c["starred"] else "Add to favorites",
                      toggle_star, rid="star", theme=ctx.theme,
                      color=(244, 180, 0) if c["starred"] else None, selected=c["starred"]),
        w.icon_button("edit", "Edit contact", ctx.go("edit", id=c["id"]), rid="edit",
                      theme=ctx.theme),
        w.icon_button("trash", "Delete", ctx.show_dialog("delete"), rid="delete",
                      theme=ctx.theme),
    ]
    info: list[View] = []
    for icon, label, value, kind in (("phone", "Mobile", c["phone"], "phone"),
                                     ("mail", "Email", c["email"], "email"),
                                     ("location", "Home", c["address"], "address"),
                                     ("store", "Company", c["company"], "company")):
        if value:
            info.append(w.list_item(value, subtitle=label, subtitle_lines=1, title_lines=2,
                                    leading=Icon(icon, size=20, box=40,
                                                 color=ctx.theme.on_surface_variant),
                                    trailing=w.icon_button("copy", f"Copy {label.lower()}",
                                                           _copier(ctx, value),
                                                           rid=f"copy_{kind}", theme=ctx.theme),
                                    on_click=(ctx.open_uri(intents.uri_for("geo", value))
                                              if kind == "address" else None),
                                    rid=kind, theme=ctx.theme))
    header = Column([
        Row([View(flex=1, in_dump=False), w.avatar(name, tint(c["id"]), size=96),
             View(flex=1, in_dump=False)], in_dump=False),
        Text(name, size=28, align="center", rid="large_title"),
    ], gap=dp(16), padding=(0, dp(8), 0, dp(16)))
    # the quick actions are intents: whichever installed app handles tel:, sms: or mailto:
    def via(kind: str, value: str) -> Handler | None:
        return ctx.open_uri(intents.uri_for(kind, value)) if value else None

    quick = Row([w.button("Call", via("tel", c["phone"]), style="tonal", flex=1,
                          theme=ctx.theme, rid="call"),
                 w.button("Text", via("sms", c["phone"]), style="tonal", flex=1,
                          theme=ctx.theme, rid="text"),
                 w.button("Email", via("mailto", c["email"]), style="tonal", flex=1,
                          theme=ctx.theme, rid="email_action")],
                gap=dp(12), padding=(w.MARGIN, 0, w.MARGIN, dp(16)))
    details = w.card([w.text("Contact info", size=16, weight="medium", theme=ctx.theme),
                      *info], theme=ctx.theme, padding=dp(4))
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("", on_back=ctx.pop, actions=actions, theme=ctx.theme),
        Scroll([header, quick, Column([details], padding=(w.MARGIN, 0, w.MARGIN, 0))],
               offset=offset, on_scroll=on_scroll, cls="android.widget.ScrollView"),
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "delete":
        dlg = w.dialog("Delete contact?", f"{name} will be removed from your contacts.",
                       [("Cancel", ctx.close_dialog), ("Delete", do_delete)], theme=ctx.theme)
    return Page(body, dialog=dlg)


FIELDS = (("first", "First name"), ("last", "Last name"), ("company", "Company"),
          ("phone", "Phone"), ("email", "Email"), ("address", "Address"))


def edit(ctx: Ctx) -> View:
    """Create (id 0) or edit a contact. Nothing is saved until Save."""
    cid = ctx.args["id"]
    existing = cs.find(ctx.store, cid) if cid else None
    values = {}
    fields: list[View] = []
    for key, label in FIELDS:
        value, on_text = ctx.field(key, (existing or {}).get(key, ""))
        values[key] = value
        fields.append(w.text_field(key, value, on_text=on_text, label=label, rid=f"field_{key}"))

    def save() -> None:
        clean = {k: " ".join(v.split()) for k, v in values.items()}
        if not (clean["first"] or clean["last"] or clean["phone"]):
            ctx.toast("Enter a name or phone number")
            return
        if existing is not None:
            existing.update(clean)
            ctx.pop()
        else:
            c = cs.add(ctx.store, **clean)
            ctx.replace("detail", id=c["id"])
        ctx.toast("Contact saved")

    offset, on_scroll = ctx.scroll()
    return Column([
        w.app_bar("Edit contact" if existing else "Create contact", on_back=ctx.pop,
                  actions=[w.button("Save", save, rid="save", theme=ctx.theme)],
                  theme=ctx.theme),
        Scroll(fields, gap=dp(16), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)), cls="android.widget.ScrollView"),
    ], bg=ctx.theme.surface)


def _copier(ctx: Ctx, value: str) -> Handler:
    return lambda: ctx.copy(value)
