"""Files screens (Files by Google-like): Browse (categories and internal storage), a folder or
category list (sort sheet, a file's action sheet, select mode by long press, rename, delete,
new folder dialogs), a file's preview and the folder picker of Move to / Copy to."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.files import store as fs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls, sheets
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

CATEGORIES: tuple[tuple[str, str, str, tuple[int, int, int]], ...] = (
    ("downloads", "Downloads", "download", (26, 115, 232)),
    ("images", "Images", "image", (217, 48, 37)),
    ("videos", "Videos", "film", (24, 128, 56)),
    ("audio", "Audio", "music", (161, 66, 244)),
    ("documents", "Documents", "file_lines", (0, 131, 143)),
)
#: a barely visible edge around list rows, so a row scrolled to a sliver still shows it
HAIRLINE = (238, 240, 243)


def hairline(row: Row) -> Row:
    row.border, row.border_width = HAIRLINE, 1
    return row


SORTS: tuple[tuple[str, str], ...] = (("name", "From A to Z"), ("name_desc", "From Z to A"),
                                      ("date", "Newest date first"),
                                      ("size", "Largest first"))


def base(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def parent(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[0]


def volume(path: str) -> tuple[str, str]:
    """(the root, the name) of the storage volume ``path`` is on: internal storage, or an SD
    card mounted at ``/storage/XXXX-XXXX``."""
    if path.startswith("/storage/"):
        return "/".join(path.split("/")[:3]), "SD card"
    return fs.ROOT, "Internal storage"


def pretty(folder: str) -> str:
    """"/sdcard/Download" -> "Internal storage › Download" ("SD card › Music" on a card)."""
    root, name = volume(folder)
    rest = folder.rstrip("/")[len(root):].strip("/")
    return " › ".join([name, *([p for p in rest.split("/")] if rest else [])])


def _exists(ctx: Ctx, path: str) -> bool:
    return any(f["path"] == path or f["path"].startswith(path + "/") for f in ctx.files(
        parent(path) + "/")) or path in ctx.store["folders"]


def _free(ctx: Ctx, path: str) -> str:
    """``path``, or "name (1).ext" and so on when something is there already."""
    if not _exists(ctx, path):
        return path
    stem, dot, ext = base(path).rpartition(".")
    if not dot:
        stem, ext = base(path), ""
    n = 1
    while True:
        cand = f"{parent(path)}/{stem} ({n}){dot}{ext}"
        if not _exists(ctx, cand):
            return cand
        n += 1


# -- operations (handlers call these) ------------------------------------------------------------
def rename(ctx: Ctx, path: str, new_name: str) -> str | None:
    """Rename a file or folder; returns the error to show, or None."""
    try:
        name = fs.check_name(new_name)
    except ValueError:
        return "Enter a valid name"
    dst = f"{parent(path)}/{name}"
    if dst == path:
        return None
    if not _exists(ctx, path):
        return "Nothing to rename"
    if _exists(ctx, dst):
        return f"\u201c{name}\u201d already exists"
    has_files = any(f["path"].startswith(path + "/") or f["path"] == path
                    for f in ctx.files(parent(path)))
    ctx.store["folders"] = _carried(ctx.store["folders"], path, dst, keep=False)
    if has_files:
        ctx.move_file(path, dst)
    return None


def _carried(pending: list[str], src: str, dst: str, *, keep: bool) -> list[str]:
    """Pending (empty) folders after ``src`` moves (``keep``: is copied) to ``dst``: those at
    or under ``src`` follow it."""
    def under(p: str) -> bool:
        return p == src or p.startswith(src + "/")

    moved = [dst + p[len(src):] for p in pending if under(p)]
    kept = pending if keep else [p for p in pending if not under(p)]
    return kept + [p for p in moved if p not in kept]


def delete(ctx: Ctx, paths: list[str]) -> None:
    for p in paths:
        ctx.store["folders"] = [f for f in ctx.store["folders"]
                                if f != p and not f.startswith(p + "/")]
        if any(f["path"] == p or f["path"].startswith(p + "/") for f in ctx.files(parent(p))):
            ctx.delete_file(p)


def transfer(ctx: Ctx, paths: list[str], dest: str, *, keep: bool) -> str:
    """Move (``keep``: copy) ``paths`` into folder ``dest``; returns the toast to show."""
    done = 0
    for p in paths:
        if not _exists(ctx, p):
            continue
        if parent(p) == dest.rstrip("/"):
            if not keep:
                continue
        if dest.rstrip("/") == p or dest.startswith(p + "/"):
            return "Can't move a folder into itself"
        dst = _free(ctx, f"{dest.rstrip('/')}/{base(p)}")
        has_files = any(f["path"].startswith(p + "/") or f["path"] == p
                        for f in ctx.files(parent(p)))
        ctx.store["folders"] = _carried(ctx.store["folders"], p, dst, keep=keep)
        if has_files:
            ctx.move_file(p, dst, keep=keep)
        done += 1
    fs.drop_filled(ctx.store, ctx.files())
    n = f"{done} item{'s' if done != 1 else ''}"
    if not done:
        return "Already in this folder"
    root, name = volume(dest)
    where = base(dest) if dest.rstrip("/") != root else name
    return f"{'Copied' if keep else 'Moved'} {n} to {where}"


# -- shared rows ------------------------------------------------------------------------------
def _leading(ctx: Ctx, icon: str, selected: bool) -> View:
    if selected:
        return Icon("check", size=20, box=40, color=ctx.theme.on_primary, bg=ctx.theme.primary,
                    radius=dp(20), in_dump=False)
    return Icon(icon, size=20, box=40, color=ctx.theme.primary, bg=ctx.theme.primary_container,
                radius=dp(12), in_dump=False)


def entry_row(ctx: Ctx, path: str, subtitle: str, icon: str, on_open: Handler,
              rid: str = "file") -> Row:
    """A folder or file row: tap opens (or toggles in select mode), long press selects, the
    trailing button opens the action sheet."""
    sel: list[str] = ctx.state.get("sel", [])
    selecting = bool(sel)
    chosen = path in sel
    name = base(path)

    def toggle() -> None:
        cur = list(ctx.state.get("sel", []))
        ctx.state["sel"] = [p for p in cur if p != path] if path in cur else cur + [path]

    more = w.icon_button("more", f"More options for {name}",
                         ctx.show_dialog("item", path=path), rid="more", theme=ctx.theme)
    # an empty standard folder (Alarms, Movies, ...) is the system's: nothing to act on
    fixed = parent(path) == fs.ROOT and name in fs.STANDARD and not _exists(ctx, path)
    return hairline(w.list_item(name, subtitle=subtitle, leading=_leading(ctx, icon, chosen),
                                trailing=None if selecting or fixed else more,
                                on_click=toggle if selecting and not fixed else on_open,
                                on_long_click=None if fixed else toggle, rid=rid,
                                desc=("Selected, " if chosen else "") + name,
                                theme=ctx.theme))


def file_row(ctx: Ctx, f: dict[str, Any]) -> Row:
    t = fs.modified(f["sha256"], ctx.time())
    return entry_row(ctx, f["path"], f"{fs.size_text(f['size'])}, {t.strftime('%b')} {t.day}",
                     fs.icon_of(f["path"]), ctx.go("preview", path=f["path"]))


def folder_row(ctx: Ctx, path: str, count: int) -> Row:
    return entry_row(ctx, path, f"{count} item{'s' if count != 1 else ''}" if count else "Empty",
                     "folder", ctx.go("folder", path=path), rid="folder")


# -- dialogs and sheets shared by the list screens and the preview ---------------------------------
def _dialogs(ctx: Ctx) -> View | None:
    """The dialog or sheet the screen shows, by name: item (a file's actions), sel (selection
    actions), sort, rename, delete, info, new_folder."""
    th = ctx.theme
    data = ctx.state.get("_dialog_data", {})
    kind = ctx.dialog
    if kind is None:
        return None
    paths: list[str] = data.get("paths") or ([data["path"]] if "path" in data else [])

    def then(fn: Callable[[], None]) -> Handler:
        def h() -> None:
            ctx.close_dialog()
            fn()

        return h

    def open_dialog(name: str, **d: Any) -> Handler:
        def h() -> None:
            ctx.close_dialog()
            if name == "rename":
                ctx.state.setdefault("_fields", {})["rename"] = base(d["path"])
            ctx.show_dialog(name, **d)()

        return h

    def pick(op: str, targets: list[str]) -> Handler:
        """Move or copy ``targets`` (the sheet's item, or the selection): pick a folder."""
        def h() -> None:
            ctx.close_dialog()
            ctx.state.pop("sel", None)
            if targets:
                ctx.push("pick_folder", op=op, paths=list(targets), start=parent(targets[0]))

        return h

    if kind == "item" and paths:
        p = paths[0]
        is_file = any(f["path"] == p for f in ctx.files(parent(p)))
        rows = []
        if is_file:
            rows.append(sheets.sheet_item("eye", "Open",
                                          then(lambda: ctx.push("preview", path=p)), theme=th))
            rows.append(sheets.sheet_item("share", "Share", then(ctx.share(
                path=p, mime=fs.mime_of(p), subject=base(p))), theme=th))
        rows += [sheets.sheet_item("pen", "Rename", open_dialog("rename", path=p), theme=th),
                 sheets.sheet_item("arrow_right", "Move to", pick("move", [p]), theme=th),
                 sheets.sheet_item("copy", "Copy to", pick("copy", [p]), theme=th)]
        if is_file:
            rows.append(sheets.sheet_item("circle_info", "File info",
                                          open_dialog("info", path=p), theme=th))
        rows.append(sheets.sheet_item("trash", "Delete", open_dialog("delete", paths=[p]),
                                      theme=th))
        return sheets.bottom_sheet(base(p), rows, theme=th)
    if kind == "sel":
        sel = ctx.state.get("sel", [])
        rows = []
        if len(sel) == 1:
            rows.append(sheets.sheet_item("pen", "Rename",
                                          open_dialog("rename", path=sel[0]), theme=th))
        rows += [sheets.sheet_item("arrow_right", "Move to", pick("move", sel), theme=th),
                 sheets.sheet_item("copy", "Copy to", pick("copy", sel), theme=th)]
        return sheets.bottom_sheet(f"{len(sel)} selected", rows, theme=th)
    if kind == "sort":
        order = ctx.state.get("sort", "name")
        return sheets.bottom_sheet("Sort by", [
            controls.radio_button(label, key == order, then(_sorter(ctx, key)),
                                  rid="sort_option", theme=th) for key, label in SORTS],
            theme=th)
    if kind == "rename" and paths:
        value, on_text = ctx.field("rename", base(paths[0]))

        def do_rename() -> None:
            err = rename(ctx, paths[0], value)
            if err:
                ctx.toast(err)
                return
            ctx.close_dialog()
            ctx.state.pop("sel", None)
            if ctx.entry["screen"] == "preview":
                ctx.entry["args"]["path"] = f"{parent(paths[0])}/{fs.check_name(value)}"

        return w.dialog("Rename", "", [("Cancel", ctx.close_dialog), ("OK", do_rename)],
                        theme=th, body=[w.text_field("rename", value, on_text=on_text,
                                                     label="Name", rid="rename_field",
                                                     on_submit=do_rename)])
    if kind == "delete" and paths:
        def do_delete() -> None:
            delete(ctx, paths)
            ctx.close_dialog()
            ctx.state.pop("sel", None)
            ctx.toast(f"Deleted {len(paths)} item{'s' if len(paths) != 1 else ''}")
            if ctx.entry["screen"] == "preview":
                ctx.pop()

        what = f"\u201c{base(paths[0])}\u201d" if len(paths) == 1 else f"{len(paths)} items"
        return w.dialog(f"Delete {what}?", "This will permanently delete it from this "
                        "device.", [("Cancel", ctx.close_dialog), ("Delete", do_delete)],
                        theme=th)
    if kind == "info" and paths:
        f = next((x for x in ctx.files(parent(paths[0])) if x["path"] == paths[0]), None)
        if f is None:
            return None
        t = fs.modified(f["sha256"], ctx.time())
        lines = [("Name", base(f["path"]), "info_name"),
                 ("Location", pretty(parent(f["path"])), "info_location"),
                 ("Size", f"{fs.size_text(f['size'])} ({f['size']:,} bytes)", "info_size"),
                 ("Modified", f"{t.strftime('%b')} {t.day}, {t.year}, "
                  f"{t.strftime('%I:%M %p').lstrip('0')}", "info_modified"),
                 ("Type", fs.mime_of(f["path"]), "info_type")]
        body: list[View] = [Column([Text(k, size=12, color=th.on_surface_variant),
                                    Text(v, size=16, color=th.on_surface, rid=rid)])
                            for k, v, rid in lines]
        return w.dialog("File info", "", [("Close", ctx.close_dialog)], theme=th, body=body)
    if kind == "new_folder":
        value, on_text = ctx.field("new_folder", "")
        folder = str(data.get("folder", fs.ROOT))

        def create() -> None:
            try:
                name = fs.check_name(value)
            except ValueError:
                ctx.toast("Enter a valid name")
                return
            path = f"{folder.rstrip('/')}/{name}"
            if _exists(ctx, path) or (folder == fs.ROOT and name in fs.STANDARD):
                ctx.toast(f"\u201c{name}\u201d already exists")
                return
            ctx.store["folders"].append(path)
            ctx.close_dialog()
            ctx.toast("Folder created")

        return w.dialog("New folder", "", [("Cancel", ctx.close_dialog), ("Create", create)],
                        theme=th, body=[w.text_field("new_folder", value, on_text=on_text,
                                                     label="Folder name", rid="folder_name",
                                                     on_submit=create)])
    return None


def _sorter(ctx: Ctx, key: str) -> Handler:
    def h() -> None:
        ctx.state["sort"] = key

    return h


def _list_screen(ctx: Ctx, title: str, subtitle: str, folders: dict[str, int],
                 files: list[dict[str, Any]], folder: str | None,
                 header: View | None = None) -> Page:
    th = ctx.theme
    order = ctx.state.get("sort", "name")
    sel: list[str] = ctx.state.get("sel", [])
    offset, on_scroll = ctx.scroll()
    rows: list[View] = [Text(subtitle, size=14, color=th.on_surface_variant, max_lines=1,
                             rid="breadcrumb", padding=(w.MARGIN, dp(4), w.MARGIN, dp(8)))]
    names = sorted(folders, key=str.lower, reverse=order == "name_desc")
    rows += [folder_row(ctx, f"{folder}/{n}", folders[n]) for n in names]
    rows += [file_row(ctx, f) for f in fs.sort_files(files, order)]
    if not folders and not files:
        rows.append(Column([Icon("folder_open", size=40, box=64, color=th.on_surface_variant,
                                 in_dump=False),
                            Text("No files here", size=16, align="center",
                                 color=th.on_surface_variant, rid="empty_text")],
                           gap=dp(12), padding=(0, dp(64), 0, 0)))
    rows.append(w.spacer(dp(48)))
    if sel:
        one_file = len(sel) == 1 and any(f["path"] == sel[0] for f in files)
        actions: list[View] = []
        if one_file:
            actions.append(w.icon_button("share", "Share", ctx.share(
                path=sel[0], mime=fs.mime_of(sel[0]), subject=base(sel[0])), rid="share",
                theme=th))
        actions += [w.icon_button("trash", "Delete", ctx.show_dialog("delete", paths=sel),
                                  rid="delete", theme=th),
                    w.icon_button("more", "More options", ctx.show_dialog("sel"),
                                  rid="selection_more", theme=th)]
        bar: View = w.app_bar(f"{len(sel)} selected", on_back=lambda: ctx.state.pop("sel", None),
                        actions=actions, theme=th, bg=th.surface_high)
        bar.children[0].desc = "Clear selection"
    else:
        actions = [w.icon_button("sort", "Sort", ctx.show_dialog("sort"), rid="sort",
                                 theme=th)]
        if folder is not None:
            actions.append(w.icon_button("circle_plus", "New folder",
                                         _new_folder(ctx, folder), rid="new_folder",
                                         theme=th))
        bar = header if header is not None else \
            w.app_bar(title, on_back=ctx.pop, actions=actions, theme=th)

    def back() -> bool:
        if ctx.state.get("sel"):
            ctx.state.pop("sel", None)
            return True
        return False

    body = Column([bar, Scroll(rows, offset=offset, on_scroll=on_scroll, rid="file_list")],
                  bg=th.surface)
    return Page(body, dialog=_dialogs(ctx), on_back=back)


def _new_folder(ctx: Ctx, folder: str) -> Handler:
    def h() -> None:
        ctx.state.setdefault("_fields", {})["new_folder"] = ""
        ctx.show_dialog("new_folder", folder=folder)()

    return h


# -- screens --------------------------------------------------------------------------------------
def main(ctx: Ctx) -> View:
    """Browse: category tiles, then the storage devices (internal storage, and the SD card
    when one is in) with how much is used."""
    th = ctx.theme
    files = ctx.files("/sdcard/")
    used = sum(f["size"] for f in files)
    tiles: list[View] = []
    for key, label, icon, color in CATEGORIES:
        n = sum(1 for f in files if f["path"].startswith(f"{fs.ROOT}/Download/")) \
            if key == "downloads" else sum(1 for f in files if fs.kind_of(f["path"]) == key)
        handler = ctx.go("folder", path=f"{fs.ROOT}/Download") if key == "downloads" \
            else ctx.go("category", kind=key)
        tiles.append(Row([Icon(icon, size=22, box=40, color=color, in_dump=False),
                          Column([Text(label, size=16, weight="medium", color=th.on_surface,
                                       max_lines=1, in_dump=False),
                                  Text(f"{n} item{'s' if n != 1 else ''}", size=12,
                                       color=th.on_surface_variant, in_dump=False)],
                                 flex=1)],
                         gap=dp(12), height=dp(72), padding=(dp(16), 0, dp(8), 0),
                         bg=th.surface_container, radius=dp(16), flex=1, on_click=handler,
                         text=label, desc=f"{label}, {n} items", rid="category",
                         cls="android.widget.LinearLayout"))
    grid: list[View] = []
    for i in range(0, len(tiles), 2):
        pair = tiles[i:i + 2] + ([View(flex=1, in_dump=False)] if len(tiles[i:i + 2]) < 2
                                 else [])
        grid.append(Row(pair, gap=dp(12)))
    storage = w.list_item("Internal storage", subtitle=f"{fs.size_text(used)} used",
                          leading=Icon("mobile", size=22, box=40, color=th.primary),
                          trailing=Icon("chevron_right", size=18, box=24,
                                        color=th.on_surface_variant),
                          on_click=ctx.go("folder", path=fs.ROOT), rid="internal_storage",
                          theme=th)
    devices: list[View] = [storage]
    card = fs.card_root(ctx.store)
    if card is not None:
        on_card = sum(f["size"] for f in ctx.files(card + "/"))
        devices.append(w.list_item("SD card", subtitle=f"{fs.size_text(on_card)} used",
                                   leading=Icon("sd_card", size=22, box=40, color=th.primary),
                                   trailing=Icon("chevron_right", size=18, box=24,
                                                 color=th.on_surface_variant),
                                   on_click=ctx.go("folder", path=card), rid="sd_card",
                                   theme=th))
    offset, on_scroll = ctx.scroll()
    return Column([
        Row([Text("Files", size=22, color=th.on_surface, flex=1, rid="title"),
             w.icon_button("search", "Search files", ctx.go("search"), rid="search",
                           theme=th)],
            height=dp(64), padding=(w.MARGIN, 0, dp(4), 0)),
        Scroll([w.section("Categories", theme=th),
                Column(grid, gap=dp(12), padding=(w.MARGIN, dp(4), w.MARGIN, dp(8))),
                w.section("Storage devices", theme=th), *devices],
               offset=offset, on_scroll=on_scroll, rid="browse"),
    ], bg=th.surface)


def folder(ctx: Ctx) -> Page:
    """One folder of shared storage: its subfolders, then its files."""
    path = str(ctx.args["path"]).rstrip("/")
    subs, direct = fs.listing(ctx.files(path + "/"), ctx.store["folders"], path)
    root, name = volume(path)
    title = name if path == root else base(path)
    return _list_screen(ctx, title, pretty(path), subs, direct, path)


def category(ctx: Ctx) -> Page:
    """Every file of a kind (images, videos, audio, documents) wherever it is."""
    kind = str(ctx.args["kind"])
    files = [f for f in ctx.files("/sdcard/") if fs.kind_of(f["path"]) == kind]
    label = next(lbl for k, lbl, _, _ in CATEGORIES if k == kind)
    return _list_screen(ctx, label, f"{len(files)} item{'s' if len(files) != 1 else ''}",
                        {}, files, None)


_PDF_TEXT = re.compile(rb"\((.*?)\) Tj")


def _preview_text(name: str, data: bytes) -> str:
    if data.startswith(b"%PDF"):
        return "\n".join(m.group(1).decode("latin-1") for m in _PDF_TEXT.finditer(data))
    if fs.mime_of(name).startswith("text/") or fs.ext(name) in ("json", "md"):
        return data.decode("utf-8", "replace")
    return ""


def preview(ctx: Ctx) -> View | Page:
    """A file opened: its text (documents) or a placeholder, with share, info and delete."""
    th = ctx.theme
    path = str(ctx.args["path"])
    f = next((x for x in ctx.files(parent(path) + "/") if x["path"] == path), None)
    if f is None:
        return Column([w.app_bar("", on_back=ctx.pop, theme=th),
                       w.text("This file no longer exists.", padding=(w.MARGIN,) * 4)],
                      bg=th.surface)
    name = base(path)
    text = _preview_text(name, ctx.read_file(path))
    content: View
    if text:
        content = Text(text, size=15, color=th.on_surface, rid="file_content",
                       padding=(w.MARGIN, dp(16), w.MARGIN, dp(16)))
    else:
        content = Column([Icon(fs.icon_of(name), size=56, box=96, color=th.primary,
                               in_dump=False),
                          Text(f"{name}\n{fs.size_text(f['size'])}", size=16, align="center",
                               color=th.on_surface_variant, rid="file_content")],
                         gap=dp(16), padding=(0, dp(96), 0, 0))
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar(name, on_back=ctx.pop, theme=th, actions=[
            w.icon_button("share", "Share", ctx.share(path=path, mime=fs.mime_of(name),
                                                      subject=name), rid="share", theme=th),
            w.icon_button("circle_info", "File info", ctx.show_dialog("info", path=path),
                          rid="info", theme=th),
            w.icon_button("trash", "Delete", ctx.show_dialog("delete", paths=[path]),
                          rid="delete", theme=th)]),
        Scroll([content], offset=offset, on_scroll=on_scroll, rid="preview",
               cls="android.widget.ScrollView", bg=th.surface_container),
    ], bg=th.surface)
    return Page(body, dialog=_dialogs(ctx))


def pick_folder(ctx: Ctx) -> View:
    """Move to / Copy to: browse folders from where the items are, then "Move here". With an
    SD card in, chips at the top switch between the storage devices (internal, SD card)."""
    th = ctx.theme
    op = str(ctx.args["op"])
    paths = list(ctx.args["paths"])
    cur = str(ctx.state.get("cur", ctx.args.get("start", fs.ROOT))).rstrip("/")
    card = fs.card_root(ctx.store)
    subs, _ = fs.listing(ctx.files(cur + "/"), ctx.store["folders"], cur)
    offset, on_scroll = ctx.scroll()

    def into(p: str) -> Handler:
        def h() -> None:
            ctx.state["cur"] = p
            ctx.state.setdefault("_scroll", {})["main"] = 0

        return h

    def here() -> None:
        msg = transfer(ctx, paths, cur, keep=op == "copy")
        ctx.pop()
        ctx.toast(msg)

    rows: list[View] = []
    root = volume(cur)[0]
    if card is not None:  # which storage device: internal or the SD card
        rows.append(Row([w.chip(name, selected=root == path, on_click=into(path), theme=th,
                                rid="volume")
                         for path, name in ((fs.ROOT, "Internal storage"), (card, "SD card"))],
                        gap=dp(8), padding=(w.MARGIN, dp(8), w.MARGIN, dp(4))))
    rows.append(Text(pretty(cur), size=14, color=th.on_surface_variant, max_lines=1,
                     rid="breadcrumb", padding=(w.MARGIN, dp(4), w.MARGIN, dp(8))))
    if cur != root:
        rows.append(hairline(w.list_item("Up", leading=Icon("arrow_up", size=20, box=40,
                                                            color=th.on_surface_variant),
                                         on_click=into(parent(cur)), rid="up", theme=th)))
    for n in sorted(subs, key=str.lower):
        p = f"{cur}/{n}"
        moving = p in paths
        rows.append(hairline(w.list_item(n, leading=Icon("folder", size=20, box=40,
                                                         color=th.primary),
                                         on_click=None if moving else into(p), rid="folder",
                                         theme=th)))
    if not subs:
        rows.append(Text("No folders here", size=14, align="center",
                         color=th.on_surface_variant, rid="empty_text",
                         padding=(0, dp(48), 0, 0)))
    rows.append(w.spacer(dp(24)))
    verb = "Copy" if op == "copy" else "Move"
    bar = Row([View(flex=1, in_dump=False),
               w.button("Cancel", ctx.pop, style="text", theme=th, rid="cancel"),
               w.button(f"{verb} here", here, theme=th, rid="confirm")],
              gap=dp(8), padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)), bg=th.surface_container)
    count = len(paths)
    return Column([
        w.app_bar(f"{verb} {count} item{'s' if count != 1 else ''} to", on_back=ctx.pop, theme=th),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="folder_list"),
        bar,
    ], bg=th.surface)


def search(ctx: Ctx) -> Page:
    """Search files by name anywhere in storage (results act like any file list)."""
    th = ctx.theme
    query, on_query = ctx.field("q")
    q = query.strip().lower()
    hits = [f for f in ctx.files("/sdcard/") if q and q in base(f["path"]).lower()]
    field = w.text_field("q", query, on_text=on_query, hint="Search files", rid="search_bar",
                         outlined=False, flex=1)
    header = Row([w.icon_button("back", "Navigate up", ctx.pop, theme=th), field],
                 gap=dp(4), padding=(dp(4), dp(8), w.MARGIN, dp(8)))
    summary = (f"{len(hits)} result{'s' if len(hits) != 1 else ''}" if q
               else "Type a file name")
    return _list_screen(ctx, "Search", summary, {}, hits, None, header=header)
