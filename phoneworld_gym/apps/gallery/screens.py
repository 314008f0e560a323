"""Gallery screens (Google Photos-like): the photo grid by date, search, albums (device
folders, the user's albums, favourites), an album, the photo viewer (info sheet, favourite,
share, add to album, move to trash) and the trash."""

from __future__ import annotations

import base64
import datetime as dt
import functools
import hashlib
from collections.abc import Callable
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.gallery import pictures
from phoneworld_gym.apps.gallery import store as gs
from phoneworld_gym.apps.gallery import widgets as gw
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import sheets
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import Column, Handler, Icon, Picture, Row, Scroll, Text, View, dp

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)

# -- reading the photos ----------------------------------------------------------------------
_PLACES: dict[str, str] = {}  # sha256 -> the EXIF place of a file without start metadata


def photos(ctx: Ctx) -> list[dict[str, Any]]:
    """Every picture in shared storage's media folders, newest first."""
    out = []
    for f in ctx.files("/sdcard/"):
        if not gs.is_media(f["path"]):
            continue
        place = ""
        if f["path"] not in ctx.store["meta"]:
            sha = f["sha256"]
            if sha not in _PLACES:
                if len(_PLACES) > 4096:  # a bound, not an LRU: entries are a few bytes
                    _PLACES.clear()
                _PLACES[sha] = pictures.exif_place(ctx.read_file(f["path"]))
            place = _PLACES[sha]
        out.append(gs.describe(ctx.store, f, place, ctx.now))
    return gs.newest_first(out)


def image(ctx: Ctx, p: dict[str, Any], kind: str = "thumb") -> Any:
    return gw.decoded(p["sha256"], kind, lambda: ctx.read_file(p["path"]))


def day_label(day: dt.date, today: dt.date) -> str:
    """"Today", "Sat, Mar 7" this year, "Sun, Dec 14, 2025" before."""
    if day == today:
        return "Today"
    if day == today - dt.timedelta(days=1):
        return "Yesterday"
    text = f"{day.strftime('%a')}, {day.strftime('%b')} {day.day}"
    return text if day.year == today.year else f"{text}, {day.year}"


def when(taken: str) -> str:
    """"Mar 7, 2026, 2:22 PM"."""
    t = dt.datetime.fromisoformat(taken)
    return f"{t.strftime('%b')} {t.day}, {t.year}, {t.strftime('%I:%M %p').lstrip('0')}"


def photo_desc(p: dict[str, Any]) -> str:
    """A thumbnail's content-desc, as Google Photos words it."""
    kind = "Screenshot" if p["folder"] == "Screenshots" else "Photo"
    where = f" in {p['place']}" if p["place"] else ""
    return f"{kind} taken on {when(p['taken'])}{where}"


def cells(ctx: Ctx, items: list[dict[str, Any]]) -> list[View]:
    """Grid cells: a tap opens the photo; a long press starts selecting (then taps add or
    remove photos from the selection)."""
    picked = ctx.state.get("selected")
    out: list[View] = []
    for p in items:
        toggle = _toggle(ctx, p["path"])
        out.append(gw.thumb(functools.partial(image, ctx, p), desc=photo_desc(p),
                            favorite=p["favorite"],
                            on_click=toggle if picked is not None
                            else ctx.go("viewer", path=p["path"]),
                            on_long_click=toggle,
                            picked=None if picked is None else p["path"] in picked))
    return out


def _toggle(ctx: Ctx, path: str) -> Handler:
    def h() -> None:
        picked = list(ctx.state.get("selected") or [])
        if path in picked:
            picked.remove(path)
        else:
            picked.append(path)
        if picked:
            ctx.state["selected"] = sorted(picked)
        else:  # the last one unticked: selection mode ends
            ctx.state.pop("selected", None)

    return h


def _end_selection(ctx: Ctx) -> None:
    ctx.state.pop("selected", None)


def selection_bar(ctx: Ctx) -> Row:
    """The contextual top bar while photos are selected: close, the count, share (one
    photo), delete."""
    picked = list(ctx.state.get("selected") or [])
    actions: list[View] = []
    if len(picked) == 1:
        mime = "image/png" if picked[0].endswith(".png") else "image/jpeg"
        actions.append(w.icon_button("share", "Share", ctx.share(path=picked[0], mime=mime),
                                     rid="share_selected", theme=ctx.theme))
    actions.append(w.icon_button("trash", "Delete", ctx.show_dialog("delete_selected"),
                                 rid="delete_selected", theme=ctx.theme))
    return Row([w.icon_button("close", "Cancel selection", lambda: _end_selection(ctx),
                              rid="cancel_selection", theme=ctx.theme),
                Text(f"{len(picked)} selected", size=20, color=ctx.theme.on_surface, flex=1,
                     rid="selection_count"),
                *actions], gap=dp(4), height=dp(64), padding=(dp(4), 0, dp(4), 0),
               bg=ctx.theme.surface_container, cls="android.widget.LinearLayout",
               rid="selection_bar")


def selectable(ctx: Ctx, header: View, rest: list[View],
               on_back: Callable[[], bool] | None = None) -> Page:
    """A grid screen: ``header`` (or the selection bar while selecting) over ``rest``; back
    ends a selection first; the "Move to trash" dialog for the selected photos."""
    picking = ctx.state.get("selected") is not None

    def back() -> bool:
        if picking:
            _end_selection(ctx)
            return True
        return on_back() if on_back is not None else False

    body = Column([selection_bar(ctx) if picking else header, *rest], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "delete_selected" and picking:
        picked = list(ctx.state["selected"])

        def move() -> None:
            have = {p["path"]: p for p in photos(ctx)}
            for path in picked:
                if path in have:
                    gs.to_trash(ctx.store, have[path], ctx.read_file(path), ctx.now)
                    ctx.delete_file(path)
            ctx.close_dialog()
            _end_selection(ctx)
            ctx.toast(f"Moved {len(picked)} item{'s' if len(picked) != 1 else ''} to trash")

        n = len(picked)
        dlg = w.dialog(f"Move {n} item{'s' if n != 1 else ''} to trash?",
                       "They will be deleted from your device. Items in the trash are "
                       "deleted forever after 60 days.",
                       [("Cancel", ctx.close_dialog), ("Move to trash", move)],
                       theme=ctx.theme)
    return Page(body, dialog=dlg, on_back=back)


def by_day(ctx: Ctx, items: list[dict[str, Any]]) -> list[View]:
    """Date headers (with the day's places) over grids of that day's photos."""
    today = dt.datetime.fromisoformat(ctx.now).date()
    out: list[View] = []
    days: dict[dt.date, list[dict[str, Any]]] = {}
    for p in items:
        days.setdefault(dt.datetime.fromisoformat(p["taken"]).date(), []).append(p)
    for day, group in days.items():
        where = sorted({p["place"] for p in group if p["place"]})
        head: list[View] = [Text(day_label(day, today), size=16, weight="medium",
                                 color=ctx.theme.on_surface, rid="date_header")]
        if where:
            head.append(Text(" · ".join(where), size=13, color=ctx.theme.on_surface_variant,
                             max_lines=1, rid="place_header"))
        out.append(Column(head, gap=dp(2), padding=(w.MARGIN, dp(16), w.MARGIN, dp(8))))
        out.append(gw.grid(cells(ctx, group)))
    return out


def _tab(ctx: Ctx, screen: str) -> Handler:
    return lambda: ctx.reset_to(screen)


def nav(ctx: Ctx, current: str) -> View:
    return tab_nav(ctx, [("image", "Photos", "main"), ("search", "Search", "search"),
                         ("images", "Library", "albums")], current)


def _back_to_photos(ctx: Ctx) -> Callable[[], bool]:
    def h() -> bool:
        ctx.reset_to_root()
        return True

    return h


def empty(text: str, ctx: Ctx) -> View:
    return Column([Icon("images", size=40, box=64, color=ctx.theme.on_surface_variant,
                        in_dump=False),
                   Text(text, size=16, align="center", color=ctx.theme.on_surface_variant,
                        rid="empty_text")], gap=dp(12), padding=(0, dp(64), 0, 0))


# -- Photos ----------------------------------------------------------------------------------
def main(ctx: Ctx) -> Page:
    """Every photo, newest first, under date headers."""
    offset, on_scroll = ctx.scroll()
    items = photos(ctx)
    rows = by_day(ctx, items) if items else [empty("No photos yet", ctx)]
    rows.append(w.spacer(dp(16)))
    header = Row([Text("Photos", size=22, weight="medium", color=ctx.theme.on_surface, flex=1,
                       rid="title"),
                  w.icon_button("search", "Search your photos", _tab(ctx, "search"),
                                rid="search", theme=ctx.theme)],
                 height=dp(64), padding=(w.MARGIN, 0, dp(4), 0))
    return selectable(ctx, header, [Scroll(rows, offset=offset, on_scroll=on_scroll,
                                           rid="photos_list"), nav(ctx, "main")])


# -- Search ----------------------------------------------------------------------------------
def month_label(taken: str) -> str:
    t = dt.datetime.fromisoformat(taken)
    return f"{t.strftime('%B')} {t.year}"


def matches(p: dict[str, Any], query: str) -> bool:
    """A photo matches a place ("austin"), a year ("2025"), a month ("march 2026", "dec"),
    or a day ("mar 7", "march 7, 2026") typed in the search field."""
    q = " ".join(query.lower().replace(",", " ").split())
    if not q:
        return False
    if q in p["place"].lower().replace(",", ""):
        return True
    t = dt.datetime.fromisoformat(p["taken"])
    forms = {f"{t.strftime('%B')} {t.year}", f"{t.strftime('%b')} {t.year}",
             t.strftime("%B"), t.strftime("%b"), f"{t.strftime('%B')} {t.day}",
             f"{t.strftime('%b')} {t.day}", f"{t.strftime('%B')} {t.day} {t.year}",
             f"{t.strftime('%b')} {t.day} {t.year}", t.date().isoformat(), str(t.year)}
    return q in {f.lower() for f in forms}


def suggestion_items(ctx: Ctx, items: list[dict[str, Any]], query: str
                     ) -> list[tuple[str, str, str, Handler]]:
    """Places and months whose name starts a word with what was typed (all when empty)."""
    q = query.strip().lower()
    out: list[tuple[str, str, str, Handler]] = []
    places: dict[str, int] = {}
    months: dict[str, int] = {}
    for p in items:
        if p["place"]:
            places[p["place"]] = places.get(p["place"], 0) + 1
        months[month_label(p["taken"])] = months.get(month_label(p["taken"]), 0) + 1

    def fits(name: str) -> bool:
        return not q or name.lower().startswith(q) or any(
            part.startswith(q) for part in name.lower().replace(",", "").split())

    for name, n in sorted(places.items()):
        if fits(name):
            out.append(("location_dot", name, f"{n} photo{'s' if n != 1 else ''}",
                        ctx.go("results", query=name)))
    order = sorted(months, key=lambda m: dt.datetime.strptime(m, "%B %Y"), reverse=True)
    for name in order:
        if fits(name):
            n = months[name]
            out.append(("calendar", name, f"{n} photo{'s' if n != 1 else ''}",
                        ctx.go("results", query=name)))
    return out


def search(ctx: Ctx) -> Page:
    """A search field; under it, suggestions (places, then months) narrowed as you type;
    enter searches for what was typed."""
    query, on_query = ctx.field("query")
    offset, on_scroll = ctx.scroll()
    items = photos(ctx)
    sugg = suggestion_items(ctx, items, query)

    def submit() -> None:
        if query.strip():
            ctx.push("results", query=query.strip())

    field = w.text_field("query", query, on_text=on_query, hint="Search your photos",
                         rid="search_bar", outlined=False, flex=1, on_submit=submit)
    rows: list[View] = []
    if sugg:
        rows.append(w.section("Places and dates" if not query.strip() else "Suggestions",
                              theme=ctx.theme))
        rows.append(gw.suggestions(sugg, theme=ctx.theme))
    else:
        rows.append(empty(f"No suggestions for \u201c{query.strip()}\u201d", ctx))
    body = Column([
        Row([field], padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_list"),
        nav(ctx, "search"),
    ], bg=ctx.theme.surface)
    return Page(body, on_back=_back_to_photos(ctx))


def results(ctx: Ctx) -> Page:
    """The photos matching a search, by day."""
    q = str(ctx.args.get("query", ""))
    offset, on_scroll = ctx.scroll()
    hits = [p for p in photos(ctx) if matches(p, q)]
    rows: list[View] = [Text(f"{len(hits)} result{'s' if len(hits) != 1 else ''}", size=14,
                             color=ctx.theme.on_surface_variant, rid="result_count",
                             padding=(w.MARGIN, dp(4), w.MARGIN, 0))]
    rows += by_day(ctx, hits) if hits else [empty("No photos found", ctx)]
    rows.append(w.spacer(dp(16)))
    return selectable(ctx, w.app_bar(q, on_back=ctx.pop, theme=ctx.theme),
                      [Scroll(rows, offset=offset, on_scroll=on_scroll, rid="results_list")])


# -- Library: albums, favourites, trash -------------------------------------------------------
def album_photos(ctx: Ctx, kind: str, name: str,
                 items: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The photos of a device folder, a user album or the favourites, newest first."""
    items = photos(ctx) if items is None else items
    if kind == "folder":
        return [p for p in items if p["folder"] == name]
    if kind == "favorites":
        return [p for p in items if p["favorite"]]
    paths = next((set(a["paths"]) for a in ctx.store["albums"] if a["name"] == name), set())
    return [p for p in items if p["path"] in paths]


def album_tile(ctx: Ctx, kind: str, name: str, items: list[dict[str, Any]]) -> View:
    inside = album_photos(ctx, kind, name, items)
    side = (1080 - 2 * w.MARGIN - dp(12)) // 2
    cover: View
    if inside:
        cover = Picture(functools.partial(image, ctx, inside[0]), width=side, height=side,
                        in_dump=False, radius=dp(12))
    else:
        cover = Icon("images", size=36, width=side, height=side, bg=ctx.theme.surface_high,
                     radius=dp(12), color=ctx.theme.on_surface_variant, in_dump=False)
    n = len(inside)
    return Column([cover,
                   Text(name, size=15, weight="medium", color=ctx.theme.on_surface,
                        max_lines=1, rid="album_name"),
                   Text(f"{n} item{'s' if n != 1 else ''}", size=13,
                        color=ctx.theme.on_surface_variant, rid="album_count")],
                  gap=dp(4), width=side, on_click=ctx.go("album", kind=kind, name=name),
                  desc=f"{name}, {n} item{'s' if n != 1 else ''}", rid="album",
                  cls="android.widget.LinearLayout")


def _pairs(tiles: list[View]) -> list[View]:
    rows: list[View] = []
    for i in range(0, len(tiles), 2):
        pair = tiles[i:i + 2]
        if len(pair) == 1:
            pair.append(View(width=pair[0].width, in_dump=False))
        rows.append(Row(pair, gap=dp(12), padding=(w.MARGIN, dp(6), w.MARGIN, dp(6))))
    return rows


def albums(ctx: Ctx) -> Page:
    """Library: Favourites and Trash buttons, the user's albums, the folders on the device."""
    offset, on_scroll = ctx.scroll()
    items = photos(ctx)
    shortcut = [w.button("Favorites", ctx.go("album", kind="favorites", name="Favorites"),
                         style="tonal", rid="favorites", theme=ctx.theme, flex=1),
                w.button("Trash", ctx.go("trash"), style="tonal", rid="trash",
                         theme=ctx.theme, flex=1)]
    rows: list[View] = [Row(shortcut, gap=dp(12), padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)))]
    rows.append(w.section("Albums", theme=ctx.theme))
    rows += _pairs([album_tile(ctx, "album", a["name"], items) for a in ctx.store["albums"]])
    rows.append(w.section("Photos on device", theme=ctx.theme))
    rows += _pairs([album_tile(ctx, "folder", name, items) for name, _ in gs.FOLDERS])
    rows.append(w.spacer(dp(16)))
    body = Column([
        Row([Text("Library", size=22, weight="medium", color=ctx.theme.on_surface, flex=1,
                  rid="title")], height=dp(64), padding=(w.MARGIN, 0, w.MARGIN, 0)),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="library_list"),
        nav(ctx, "albums"),
    ], bg=ctx.theme.surface)
    return Page(body, on_back=_back_to_photos(ctx))


def album(ctx: Ctx) -> Page:
    """One album's photos, newest first."""
    kind, name = str(ctx.args["kind"]), str(ctx.args["name"])
    offset, on_scroll = ctx.scroll()
    inside = album_photos(ctx, kind, name)
    n = len(inside)
    rows: list[View] = [gw.grid(cells(ctx, inside))] if inside else [
        empty("No favorites yet" if kind == "favorites" else "No photos in this album", ctx)]
    rows.append(w.spacer(dp(16)))
    return selectable(ctx, w.app_bar(name, subtitle=f"{n} item{'s' if n != 1 else ''}",
                                     on_back=ctx.pop, theme=ctx.theme),
                      [Scroll(rows, offset=offset, on_scroll=on_scroll, rid="album_list")])


def trash(ctx: Ctx) -> Page:
    """Photos moved to the trash; tap one to restore it or delete it forever."""
    offset, on_scroll = ctx.scroll()
    entries = sorted(ctx.store["trash"], key=lambda t: (t["deleted"], t["path"]),
                     reverse=True)
    grid_cells: list[View] = []
    for t in entries:
        data = t["data"]
        sha = hashlib.sha256(data.encode("ascii")).hexdigest()
        img = gw.decoded(sha, "thumb", lambda d=data: base64.b64decode(d))  # type: ignore[misc]
        grid_cells.append(gw.thumb(img, desc=f"Deleted photo taken on {when(t['taken'])}",
                                   on_click=ctx.show_dialog("item", path=t["path"]),
                                   rid="trash_item"))
    rows: list[View] = [Text("Items are deleted forever after 60 days.", size=14,
                             color=ctx.theme.on_surface_variant,
                             padding=(w.MARGIN, dp(8), w.MARGIN, dp(12)))]
    rows += [gw.grid(grid_cells)] if grid_cells else [empty("No items in trash", ctx)]
    actions = [w.icon_button("trash", "Empty trash", ctx.show_dialog("empty"), rid="empty",
                             theme=ctx.theme)] if entries else []
    body = Column([w.app_bar("Trash", on_back=ctx.pop, actions=actions, theme=ctx.theme),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="trash_list")],
                  bg=ctx.theme.surface)
    dlg = None
    data = ctx.state.get("_dialog_data", {})
    if ctx.dialog == "item":
        path = str(data.get("path", ""))

        def restore() -> None:
            ctx.write_file(path, gs.from_trash(ctx.store, path))
            ctx.close_dialog()
            ctx.toast("Restored")

        def forever() -> None:
            gs.from_trash(ctx.store, path)
            ctx.close_dialog()
            ctx.toast("Deleted forever")

        dlg = w.dialog("Restore this item?", path.rsplit("/", 1)[-1],
                       [("Delete", forever), ("Restore", restore)], theme=ctx.theme)
    elif ctx.dialog == "empty":
        def empty_all() -> None:
            ctx.store["trash"] = []
            ctx.close_dialog()

        dlg = w.dialog("Empty trash?", "All items in the trash will be permanently deleted.",
                       [("Cancel", ctx.close_dialog), ("Empty trash", empty_all)],
                       theme=ctx.theme)
    return Page(body, dialog=dlg)


# -- the viewer --------------------------------------------------------------------------------
def viewer(ctx: Ctx) -> Page:
    """One photo on black: its date and place above, the heart and the info button at the top,
    Share, Edit, Add to album and Delete below."""
    path = str(ctx.args["path"])
    found = next((p for p in photos(ctx) if p["path"] == path), None)
    if found is None:
        return Page(Column([w.app_bar("", on_back=ctx.pop, theme=ctx.theme),
                            empty("This photo was deleted", ctx)], bg=ctx.theme.surface))
    p = found
    img = image(ctx, p, "full")
    fav = p["favorite"]
    light = (230, 230, 230)

    def heart() -> None:
        on = gs.toggle_favorite(ctx.store, path)
        ctx.toast("Added to Favorites" if on else "Removed from Favorites")

    top = Row([
        Icon("back", size=22, box=48, desc="Navigate up", on_click=ctx.pop, color=WHITE,
             cls="android.widget.ImageButton"),
        Column([Text(when(p["taken"]), size=16, color=WHITE, max_lines=1, rid="photo_date"),
                Text(p["place"] or p["folder"], size=13, color=light, max_lines=1,
                     rid="photo_place")], flex=1, gap=dp(2)),
        Icon("heart", size=22, box=48, desc="Remove from favorites" if fav else "Favorite",
             on_click=heart, color=(242, 85, 96) if fav else WHITE, selected=fav,
             cls="android.widget.ImageButton", rid="favorite"),
        Icon("circle_info", size=22, box=48, desc="Info", on_click=ctx.show_dialog("info"),
             color=WHITE, cls="android.widget.ImageButton", rid="info"),
    ], gap=dp(4), height=dp(64), padding=(dp(4), 0, dp(4), 0), bg=BLACK)
    side = 1080
    pic = Picture(img, width=side, height=side * img.height // max(1, img.width),
                  desc=photo_desc(p), rid="photo_view")
    stage = Column([View(flex=1, in_dump=False), pic, View(flex=1, in_dump=False)], flex=1,
                   bg=BLACK)

    def action(icon: str, label: str, h: Handler, rid: str) -> View:
        return Column([Row([View(flex=1, in_dump=False),
                            Icon(icon, size=22, box=32, color=WHITE, in_dump=False),
                            View(flex=1, in_dump=False)], in_dump=False),
                       Text(label, size=12, color=WHITE, align="center", in_dump=False)],
                      gap=dp(4), flex=1, on_click=h, desc=label, text=label, rid=rid,
                      cls="android.widget.Button", padding=(0, dp(8), 0, dp(8)))

    mime = "image/png" if path.endswith(".png") else "image/jpeg"
    bottom = Row([action("share", "Share", ctx.share(path=path, mime=mime), "share"),
                  action("sliders", "Edit", ctx.go("edit", path=path), "edit"),
                  action("plus", "Add to album", ctx.show_dialog("album"), "add_to_album"),
                  action("trash", "Delete", ctx.show_dialog("delete"), "delete")],
                 height=dp(72), bg=BLACK)
    body = Column([top, stage, bottom], bg=BLACK)
    return Page(body, dialog=_viewer_dialog(ctx, p))


# -- the editor --------------------------------------------------------------------------------
_FILTERED: dict[tuple[str, str, str], Any] = {}  # (sha256, kind, filter) -> filtered picture


def _filtered(ctx: Ctx, p: dict[str, Any], kind: str, name: str) -> Any:
    """The photo's original (before any saved filter) as ``kind`` with the filter ``name``
    ("" for none), cached by the file's hash."""
    key = (p["sha256"], kind, name)
    hit = _FILTERED.get(key)
    if hit is None:
        original = gs.original_bytes(ctx.store, p["path"])
        if original is None:
            base = image(ctx, p, kind)
        else:
            sha = hashlib.sha256(original).hexdigest()
            base = gw.decoded(sha, kind, lambda: original)
        hit = pictures.apply_filter(base, name) if name else base
        if len(_FILTERED) > 256:
            _FILTERED.clear()
        _FILTERED[key] = hit
    return hit


def edit(ctx: Ctx) -> Page:
    """The photo editor (Google Photos-like): the photo with the chosen filter, the strip of
    filters this Gallery offers (None first), Cancel and Save. Save replaces the photo's file
    with the filtered picture (same name, date and place) and keeps the original."""
    path = str(ctx.args["path"])
    p = next((q for q in photos(ctx) if q["path"] == path), None)
    th = ctx.theme
    if p is None:
        return Page(Column([w.app_bar("", on_back=ctx.pop, theme=th),
                            empty("This photo was deleted", ctx)], bg=th.surface))
    current = ctx.store["edits"].get(path, {}).get("filter", "")
    chosen = str(ctx.state.get("filter", current))
    light = (200, 200, 200)

    def save() -> None:
        if chosen == current:
            ctx.pop()
            return
        original = gs.original_bytes(ctx.store, path) or ctx.read_file(path)
        with_filter = _filtered(ctx, p, "full", chosen)
        fmt = "PNG" if path.lower().endswith(".png") else "JPEG"
        data = pictures.encode(with_filter, taken=p["taken"], place=p["place"], fmt=fmt)
        if chosen:
            gs.save_edit(ctx.store, path, chosen, original)
        else:  # back to the original
            ctx.store["edits"].pop(path, None)
            data = original
        ctx.write_file(path, data)
        ctx.pop()
        ctx.toast("Saved")

    top = Row([
        Text("Cancel", size=15, weight="medium", color=WHITE, on_click=ctx.pop, desc="Cancel",
             rid="cancel", cls="android.widget.Button", padding=(dp(12), dp(12), dp(12),
                                                                 dp(12))),
        View(flex=1, in_dump=False),
        w.button("Save", save, theme=th, rid="save", enabled=chosen != current),
    ], height=dp(64), padding=(dp(4), 0, w.MARGIN, 0), bg=BLACK)
    img = _filtered(ctx, p, "full", chosen)
    pic = Picture(img, width=1080, height=1080 * img.height // max(1, img.width),
                  desc=f"{photo_desc(p)}, {chosen or 'no'} filter", rid="edit_preview")

    def tile(name: str) -> View:
        on = name == chosen
        thumb = Picture(_filtered(ctx, p, "thumb", name), width=dp(64), height=dp(64),
                        radius=dp(8), in_dump=False)
        return Column([Column([thumb], padding=(dp(3),) * 4, radius=dp(10),
                              bg=th.primary if on else BLACK, in_dump=False),
                       Text(name or "None", size=12, align="center",
                            color=WHITE if on else light, in_dump=False)],
                      gap=dp(6), width=dp(76), on_click=ctx.setter("filter", name),
                      desc=name or "None", text=name or "None", selected=on,
                      rid="filter_option", cls="android.widget.Button")

    strip = Row([View(flex=1, in_dump=False), *[tile(n) for n in ["", *ctx.store["filters"]]],
                 View(flex=1, in_dump=False)], gap=dp(4), padding=(0, dp(8), 0, dp(8)),
                rid="filter_strip", cls="android.widget.HorizontalScrollView")
    tabs = Row([View(flex=1, in_dump=False),
                Text("Filters", size=14, weight="medium", color=WHITE, rid="tab_filters",
                     padding=(dp(12), dp(6), dp(12), dp(6)), radius=dp(16),
                     bg=(60, 64, 67)),
                View(flex=1, in_dump=False)], padding=(0, dp(4), 0, dp(12)))
    body = Column([top, View(flex=1, bg=BLACK, in_dump=False), pic,
                   View(flex=1, bg=BLACK, in_dump=False), strip, tabs], bg=BLACK)
    return Page(body)


def _viewer_dialog(ctx: Ctx, p: dict[str, Any]) -> View | None:
    path = p["path"]
    if ctx.dialog == "info":
        size_kb = f"{p['size'] / 1024:.1f} KB"
        t = dt.datetime.fromisoformat(p["taken"])
        when_line = f"{t.strftime('%a')}, {t.strftime('%b')} {t.day}, {t.year}"
        kids: list[View] = [
            gw.detail_row("calendar", when_line, t.strftime("%I:%M %p").lstrip("0"),
                          rid="info_date", theme=ctx.theme),
            gw.detail_row("location_dot", p["place"] or "No location",
                          "Location" if p["place"] else "", rid="info_place",
                          theme=ctx.theme),
            gw.detail_row("image", p["name"], f"{size_kb} · {pictures.WIDTH} × "
                          f"{pictures.HEIGHT}" if path.endswith(".jpg") else size_kb,
                          rid="info_file", theme=ctx.theme),
            gw.detail_row("folder", path.rsplit("/", 1)[0], "On your device",
                          rid="info_path", theme=ctx.theme),
        ]
        return sheets.bottom_sheet("Details", kids, theme=ctx.theme, rid="info_sheet")
    if ctx.dialog == "delete":
        def move() -> None:
            gs.to_trash(ctx.store, p, ctx.read_file(path), ctx.now)
            ctx.delete_file(path)
            ctx.close_dialog()
            ctx.pop()
            ctx.toast("Moved to trash")

        return w.dialog("Move to trash?",
                        "This item will be deleted from your device. Items in the trash are "
                        "deleted forever after 60 days.",
                        [("Cancel", ctx.close_dialog), ("Move to trash", move)],
                        theme=ctx.theme)
    if ctx.dialog == "album":
        def adder(name: str) -> Handler:
            def h() -> None:
                gs.add_to_album(ctx.store, name, path)
                ctx.close_dialog()
                ctx.toast(f"Added to {name}")

            return h

        rows = [w.list_item(a["name"], subtitle=f"{len(a['paths'])} items",
                            leading=Icon("images", size=20, box=40,
                                         color=ctx.theme.on_surface_variant),
                            on_click=adder(a["name"]), rid="album_choice", theme=ctx.theme)
                for a in ctx.store["albums"]]
        return sheets.bottom_sheet("Add to album", rows, theme=ctx.theme, rid="album_sheet")
    return None
