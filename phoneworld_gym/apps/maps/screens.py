"""Maps screens: Explore (the map with a search bar and category chips), search with
suggestions and results, a place's bottom sheet, directions by mode, choosing a start or
destination, saved lists, recent searches, and "Your location" behind the location
permission."""

from __future__ import annotations

import functools
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.maps import canvas
from phoneworld_gym.apps.maps import store as ms
from phoneworld_gym.apps.maps import widgets as mw
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.controls import checkbox
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.view import (
    Column,
    Divider,
    Handler,
    Icon,
    Picture,
    Row,
    Scroll,
    Stack,
    Text,
    View,
    dp,
)

CHIPS = (("Coffee", "mug_hot", "Café"), ("Restaurants", "utensils", "Restaurant"),
         ("Pharmacies", "pills", "Pharmacy"))
OPEN_GREEN = (24, 128, 56)
CLOSED_RED = (197, 34, 31)


def _pins(ctx: Ctx, selected: str = "") -> tuple[canvas.Pin, ...]:
    saved = {s["place"] for s in ctx.store["saved"]}
    pins: list[canvas.Pin] = []
    for p in ctx.store["places"]:
        if p["kind"] == "business" and p["key"] != selected:
            pins.append((p["x"], p["y"], "saved" if p["key"] in saved else "pin"))
    return tuple(pins)


def _map(center: tuple[float, float], zoom: float, height: int,
         pins: tuple[canvas.Pin, ...] = (), route: tuple[tuple[float, float], ...] = (),
         flex: float = 0.0) -> Picture:
    # drawn only if the frame is drawn (a tree-only observation never needs the picture)
    img = functools.partial(canvas.draw, (round(center[0], 3), round(center[1], 3)), zoom,
                            (1080, height), pins, route)
    return Picture(img, height=None if flex else height, flex=flex, in_dump=False)


def nav(ctx: Ctx, current: str) -> Row:
    return tab_nav(ctx, [("compass", "Explore", "main"), ("bookmark", "Saved", "saved"),
                         ("history", "Recents", "recents")], current)


def _search_pill(ctx: Ctx) -> Row:
    return Row([Icon("location_dot", size=20, box=40, color=(234, 67, 53), in_dump=False),
                Text("Search here", size=16, color=ctx.theme.on_surface_variant, flex=1,
                     in_dump=False),
                Icon("microphone", size=18, box=40, color=ctx.theme.on_surface_variant,
                     in_dump=False)],
               height=dp(56), radius=dp(28), bg=(255, 255, 255), gap=dp(8),
               border=ctx.theme.outline_variant, border_width=2,
               padding=(dp(12), 0, dp(12), 0), on_click=ctx.go("search"), text="Search here",
               cls="android.widget.TextView", rid="search_bar")


def main(ctx: Ctx) -> View:
    """Explore: the whole town with its places, a search bar and category chips floating on
    top, "Your location" and Directions buttons at the bottom right."""
    chips = Row([w.chip(label, on_click=ctx.go("search", query=query), rid="category_chip",
                        theme=ctx.theme)
                 for label, _, query in CHIPS], gap=dp(8))
    for c in chips.children:
        c.bg = (255, 255, 255)
    overlay = Column([
        Column([_search_pill(ctx), chips], gap=dp(10), padding=(w.MARGIN, dp(12), w.MARGIN, 0)),
        View(flex=1, in_dump=False),
        Row([View(flex=1, in_dump=False),
             Column([mw.map_button("crosshairs", "Your location", ctx.go("location"),
                                   theme=ctx.theme, rid="my_location"),
                     mw.map_button("route", "Directions", ctx.go("directions", to="", frm="home"),
                                   theme=ctx.theme, rid="directions_fab", primary=True)],
                    gap=dp(16))], padding=(0, 0, w.MARGIN, w.MARGIN)),
    ])
    return Column([
        Stack([_map(EXPLORE_CENTER, EXPLORE_ZOOM, EXPLORE_H, _pins(ctx)), *_pin_targets(ctx),
               overlay], flex=1),
        nav(ctx, "main"),
    ], bg=ctx.theme.surface)


EXPLORE_CENTER, EXPLORE_ZOOM, EXPLORE_H = (0.0, 0.0), 250.0, 2001
_PIN_BOX = 96
#: parts of the Explore map covered by controls: the search bar and chips, the buttons
_COVERED = ((0, 0, 1080, 470), (1080 - 230, EXPLORE_H - 420, 1080, EXPLORE_H))


def _pin_targets(ctx: Ctx) -> list[View]:
    """Tappable pins on the Explore map, one layer each (a pin lies where the picture draws
    it; pins that would overlap another or a control are left to search)."""
    boxes: list[tuple[int, int, int, int]] = list(_COVERED)
    layers: list[View] = []
    for p in sorted((p for p in ctx.store["places"] if p["kind"] == "business"),
                    key=lambda p: p["key"]):
        x = int(540 + (p["x"] - EXPLORE_CENTER[0]) * EXPLORE_ZOOM) - _PIN_BOX // 2
        y = int(EXPLORE_H / 2 - (p["y"] - EXPLORE_CENTER[1]) * EXPLORE_ZOOM) - 30 - _PIN_BOX // 2
        box = (x, y, x + _PIN_BOX, y + _PIN_BOX)
        if x < 0 or y < 0 or box[2] > 1080 or box[3] > EXPLORE_H or any(
                box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                for b in boxes):
            continue
        boxes.append(box)
        target = View(width=_PIN_BOX, height=_PIN_BOX, on_click=ctx.go("place", key=p["key"]),
                      desc=p["name"], rid="map_pin", cls="android.widget.ImageView")
        layers.append(Column([View(height=y, in_dump=False),
                              Row([View(width=x, in_dump=False), target], height=_PIN_BOX)]))
    return layers


def _result_subtitle(ctx: Ctx, p: dict[str, Any]) -> str:
    if p["kind"] == "business":
        status = ms.open_now(p, ctx.now).split(" · ")[0]
        return f"{p['rating']:.1f} stars · {p['category']} · {p['address'].split(',')[0]}" + (
            f" · {status}" if status else "")
    return f"{p['category']} · {p['address']}"


def search(ctx: Ctx) -> View:
    """Search: suggestions while typing (recent searches when empty), results after enter or
    a category chip."""
    preset = str(ctx.args.get("query", ""))
    query, on_query = ctx.field("q", preset)
    submitted = ctx.state.get("submitted", preset)
    offset, on_scroll = ctx.scroll()
    s = ctx.store

    def open_place(p: dict[str, Any], q: str) -> Handler:
        def h() -> None:
            ms.remember(s, q or p["name"], p["key"])
            ctx.push("place", key=p["key"])

        return h

    def submit() -> None:
        ctx.state["submitted"] = query.strip()
        ctx.state.pop("_scroll", None)
        if query.strip():
            ms.remember(s, query.strip())

    rows: list[View] = []
    if submitted and submitted == query.strip():
        hits = ms.search(s, submitted)
        rows.append(w.section(f"Results for \u201c{submitted}\u201d" if hits else
                              f"No results for \u201c{submitted}\u201d", theme=ctx.theme))
        for p in hits:
            rows.append(w.list_item(p["name"], subtitle=_result_subtitle(ctx, p),
                                    subtitle_lines=2,
                                    leading=Icon(p["icon"], size=20, box=40,
                                                 color=ctx.theme.primary, in_dump=False),
                                    on_click=open_place(p, submitted), rid="result",
                                    theme=ctx.theme))
    elif query.strip():
        for p in ms.suggestions(s, query):
            rows.append(mw.suggestion_row(p["name"], p["address"], "location_dot",
                                          open_place(p, p["name"]), theme=ctx.theme))
        rows.append(mw.suggestion_row(f"Search for \u201c{query.strip()}\u201d", "", "search",
                                      submit, theme=ctx.theme, rid="search_for"))
    else:
        if s["recent"]:
            rows.append(w.section("Recent", theme=ctx.theme))
        for r in s["recent"]:
            rp = ms.place(s, r["place"]) if r["place"] else None
            if rp is not None:
                rows.append(mw.suggestion_row(r["query"], rp["address"], "history",
                                              open_place(rp, r["query"]), theme=ctx.theme,
                                              rid="recent"))
            else:
                rows.append(mw.suggestion_row(r["query"], "", "history",
                                              _searcher(ctx, r["query"]), theme=ctx.theme,
                                              rid="recent"))
    field = w.text_field("q", query, on_text=on_query, on_submit=submit, hint="Search here",
                         rid="search_field", outlined=False, flex=1)
    return Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=ctx.theme), field],
            gap=dp(4), padding=(dp(4), dp(8), w.MARGIN, dp(8)), rid="search_toolbar"),
        Divider(),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_list"),
    ], bg=ctx.theme.surface)


def _searcher(ctx: Ctx, q: str) -> Handler:
    def h() -> None:
        ctx.state.setdefault("_fields", {})["q"] = q
        ctx.state["submitted"] = q

    return h


def _place_from_args(ctx: Ctx) -> tuple[dict[str, Any] | None, str]:
    """The place this screen shows: ``key``, or the first hit for a ``geo:`` intent's query."""
    if "uri" in ctx.args:
        q = intents.uri_payload(ctx.args["uri"])
        exact = [p for p in ctx.store["places"] if ms.fold(p["address"]) == ms.fold(q)]
        hits = exact or ms.search(ctx.store, q)
        return (hits[0] if hits else None), q
    return ms.place(ctx.store, str(ctx.args.get("key", ""))), ""


def place(ctx: Ctx) -> View | Page:
    """A place: the map around it and a bottom sheet with its name, rating, status, the
    Directions / Call / Save / Share actions, address, hours and phone."""
    p, q = _place_from_args(ctx)
    back = mw.map_button("back", "Navigate up", ctx.pop, theme=ctx.theme, rid="back")
    if p is None:
        return Column([
            w.app_bar("Maps", on_back=ctx.pop, theme=ctx.theme),
            Column([Text(f"No results for \u201c{q}\u201d", size=18, rid="no_results"),
                    w.button("Search", ctx.go("search", query=q), rid="search_again",
                             theme=ctx.theme)],
                   gap=dp(16), padding=(w.MARGIN,) * 4),
        ], bg=ctx.theme.surface)
    s = ctx.store
    key = p["key"]
    status = ms.open_now(p, ctx.now)
    head: list[View] = [Text(p["name"], size=24, rid="place_name", max_lines=2)]
    if p["kind"] == "business":
        head.append(mw.stars(p["rating"], p["reviews"], theme=ctx.theme))
        head.append(Text(" · ".join(x for x in (p["category"], p["price"]) if x), size=14,
                         color=ctx.theme.on_surface_variant, rid="category"))
    else:
        head.append(Text(p["category"], size=14, color=ctx.theme.on_surface_variant,
                         rid="category"))
    if status:
        head.append(Text(status, size=14, weight="medium", rid="open_status",
                         color=OPEN_GREEN if status.startswith("Open") else CLOSED_RED))
    actions: list[View] = [
        w.button("Directions", ctx.go("directions", to=key, frm="home"), rid="directions",
                 theme=ctx.theme, height=dp(36)),
    ]
    if p["phone"]:
        actions.append(w.button("Call", ctx.open_uri(intents.uri_for("tel", p["phone"])),
                                style="tonal", rid="call", theme=ctx.theme, height=dp(36)))
    saved = any(ms.is_saved(s, key, lst) for lst in ms.LISTS)
    if p["kind"] in ("business", "pin", "home", "label"):
        actions.append(w.button("Saved" if saved else "Save", ctx.show_dialog("save"),
                                style="tonal", rid="save", theme=ctx.theme, height=dp(36)))
    actions.append(w.button("Share", ctx.share(text=f"{p['name']}\n{p['address']}",
                                               subject=p["name"]),
                            style="tonal", rid="share", theme=ctx.theme, height=dp(36)))
    info: list[View] = [
        w.list_item(p["address"], leading=Icon("location_dot", size=20, box=40,
                                               color=ctx.theme.primary, in_dump=False),
                    title_lines=2, rid="address", theme=ctx.theme,
                    trailing=w.icon_button("copy", "Copy address",
                                           lambda: ctx.copy(p["address"]),
                                           rid="copy_address", theme=ctx.theme)),
    ]
    if p["hours"]:
        info.append(Divider(inset=w.MARGIN))
        info.append(Row([Icon("clock", size=20, box=40, color=ctx.theme.primary,
                              in_dump=False),
                         Text("Hours", size=16, weight="medium", flex=1)],
                        gap=w.MARGIN, padding=(w.MARGIN, dp(8), w.MARGIN, 0)))
        for d, day in enumerate(ms.DAYS):
            info.append(Row([Text(day, size=15, width=dp(150), in_dump=False),
                             Text(ms.hours_text(p["hours"][d]), size=15, flex=1,
                                  in_dump=False)],
                            padding=(w.MARGIN + dp(56), dp(4), w.MARGIN, dp(4)),
                            text=f"{day} {ms.hours_text(p['hours'][d])}",
                            cls="android.widget.TextView", rid=f"hours_{day.lower()}"))
    if p["phone"]:
        info.append(Divider(inset=w.MARGIN))
        info.append(w.list_item(p["phone"], leading=Icon("phone", size=20, box=40,
                                                         color=ctx.theme.primary,
                                                         in_dump=False),
                                on_click=ctx.open_uri(intents.uri_for("tel", p["phone"])),
                                rid="phone", theme=ctx.theme))
    offset, on_scroll = ctx.scroll()
    sheet = mw.bottom_sheet([
        Scroll([Column(head, gap=dp(6), padding=(w.MARGIN, 0, w.MARGIN, dp(12))),
                Row(actions, gap=dp(8), padding=(w.MARGIN, 0, w.MARGIN, dp(12))),
                Divider(), *info, w.spacer(dp(24))],
               offset=offset, on_scroll=on_scroll, rid="place_sheet",
               cls="android.widget.ScrollView"),
    ], theme=ctx.theme)
    top = Stack([_map((p["x"], p["y"]), 330.0, 760,
                      (*_pins(ctx, key), (p["x"], p["y"], "selected"))),
                 Column([Row([back, View(flex=1, in_dump=False)]),
                         View(flex=1, in_dump=False)],
                        padding=(w.MARGIN, dp(12), 0, 0))],
                height=760)
    body = Column([top, sheet], bg=(238, 236, 230))
    dlg = None
    if ctx.dialog == "save":
        def toggler(lst: str) -> Handler:
            def h() -> None:
                now = ms.toggle_saved(s, key, lst)
                ctx.toast(f"Saved to {lst}" if now else f"Removed from {lst}")

            return h

        dlg = w.dialog("Save to list", "", [("Done", ctx.close_dialog)], theme=ctx.theme,
                       body=[checkbox(lst, ms.is_saved(s, key, lst), toggler(lst),
                                      rid=f"list_{lst.lower().replace(' ', '_')}",
                                      theme=ctx.theme)
                             for lst in ms.LISTS])
    return Page(body, dialog=dlg)


def _endpoint(ctx: Ctx, key: str) -> dict[str, Any] | None:
    return ms.place(ctx.store, key) if key else None


def _steps(a: dict[str, Any], b: dict[str, Any], miles: float) -> list[str]:
    """Turn-by-turn lines of the L-shaped route from ``a`` to ``b`` (east-west first)."""
    dx, dy = b["x"] - a["x"], b["y"] - a["y"]
    if max(abs(dx), abs(dy)) > 3 * ms.HALF:
        city = b["address"].split(", ")[1] if b["address"].count(",") >= 2 else b["name"]
        return [f"Head out of town toward {city}", f"Continue for {miles:.0f} mi",
                f"Arrive at {b['name']}"]
    out = []
    if abs(dx) >= 0.05:
        out.append(f"Head {'east' if dx > 0 else 'west'} for {abs(dx):.1f} mi")
    if abs(dy) >= 0.05:
        turn = "Head" if not out else ("Turn left" if (dx > 0) == (dy > 0) else "Turn right")
        out.append(f"{turn} and head {'north' if dy > 0 else 'south'} for {abs(dy):.1f} mi")
    out.append(f"Arrive at {b['name']}")
    return out


def directions(ctx: Ctx) -> View:
    """Directions between two places by drive, transit, walk or bike: the time on each mode's
    tab, the chosen mode's time and distance, the route on the map and its steps."""
    a = _endpoint(ctx, str(ctx.args.get("frm", "")))
    b = _endpoint(ctx, str(ctx.args.get("to", "")))
    mode = str(ctx.state.get("mode", "drive"))

    def field(label: str, p: dict[str, Any] | None, role: str, hint: str) -> Row:
        return Row([Icon("circle" if role == "frm" else "location_dot", size=14, box=32,
                         color=ctx.theme.primary if role == "frm" else (234, 67, 53),
                         in_dump=False),
                    Text(p["name"] if p else hint, size=16, flex=1, max_lines=1,
                         color=ctx.theme.on_surface if p else ctx.theme.on_surface_variant,
                         in_dump=False)],
                   gap=dp(8), height=dp(48), radius=dp(8), bg=ctx.theme.surface_container,
                   padding=(dp(12), 0, dp(12), 0), on_click=ctx.go("choose", role=role),
                   text=p["name"] if p else hint, desc=label, cls="android.widget.TextView",
                   rid=f"{role}_field")

    def swap() -> None:
        ctx.args["frm"], ctx.args["to"] = ctx.args.get("to", ""), ctx.args.get("frm", "")

    top = Row([
        w.icon_button("back", "Navigate up", ctx.pop, theme=ctx.theme),
        Column([field("Start", a, "frm", "Choose start"),
                field("Destination", b, "to", "Choose destination")], gap=dp(8), flex=1),
        w.icon_button("arrows_rotate", "Swap start and destination", swap, rid="swap",
                      theme=ctx.theme),
    ], gap=dp(4), padding=(dp(4), dp(8), dp(4), dp(8)))
    kids: list[View] = [top]
    miles = ms.distance((a["x"], a["y"]), (b["x"], b["y"])) if a and b else None
    tabs: list[View] = []
    for key, (label, icon, _, _) in ms.MODES.items():
        t = ms.duration_text(ms.minutes(miles, key)) if miles is not None else ""
        sel = key == mode
        tabs.append(Column([Icon(icon, size=18, box=28, in_dump=False,
                                 color=ctx.theme.on_primary_container if sel
                                 else ctx.theme.on_surface_variant),
                            Text(t or label, size=12, align="center", max_lines=1,
                                 in_dump=False, color=ctx.theme.on_surface)],
                           flex=1, radius=dp(16), padding=(0, dp(6), 0, dp(6)),
                           bg=ctx.theme.primary_container if sel else None,
                           on_click=ctx.setter("mode", key), selected=sel,
                           desc=f"{label}, {t}" if t else label, text=t,
                           cls="android.widget.LinearLayout", rid=f"mode_{key}"))
    kids.append(Row(tabs, gap=dp(4), padding=(dp(12), 0, dp(12), dp(8)), rid="modes"))
    if a is None or b is None:
        kids.append(Text("Choose a start and a destination", size=16,
                         color=ctx.theme.on_surface_variant, rid="empty",
                         padding=(w.MARGIN, dp(24), w.MARGIN, 0)))
        kids.append(View(flex=1, in_dump=False))
        return Column(kids, bg=ctx.theme.surface)
    assert miles is not None
    mins = ms.minutes(miles, mode)
    route = ((a["x"], a["y"]), (b["x"], a["y"]), (b["x"], b["y"]))
    cx, cy = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
    span = max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]), 0.3)
    zoom = min(420.0, 760.0 / span)
    kids.append(_map((cx, cy), round(zoom, 1), 700,
                     ((a["x"], a["y"], "me"), (b["x"], b["y"], "selected")), route))
    label = ms.MODES[mode][0]
    steps = _steps(a, b, miles)
    offset, on_scroll = ctx.scroll()
    kids.append(mw.bottom_sheet([Scroll([
        Row([Text(ms.duration_text(mins), size=22, weight="medium", color=OPEN_GREEN,
                  rid="route_time"),
             Text(f"({miles:.1f} mi)", size=18, color=ctx.theme.on_surface_variant,
                  rid="route_distance")], gap=dp(8), padding=(w.MARGIN, 0, w.MARGIN, 0)),
        Text(f"{label} · Fastest route" + (" · Walking is slower than driving"
                                          if mode == "walk" and mins > 30 else ""),
             size=14, color=ctx.theme.on_surface_variant, padding=(w.MARGIN, dp(4), w.MARGIN,
                                                                   dp(8))),
        Divider(),
        *[w.list_item(step, leading=Icon("arrow_right" if i < len(steps) - 1 else "map_pin",
                                         size=18, box=40, color=ctx.theme.on_surface_variant,
                                         in_dump=False), rid="step", theme=ctx.theme)
          for i, step in enumerate(steps)],
    ], offset=offset, on_scroll=on_scroll, rid="route_sheet")], theme=ctx.theme))
    return Column(kids, bg=(238, 236, 230))


def choose(ctx: Ctx) -> View:
    """Pick the start or destination of the directions below: Home, Work, a saved place, or
    a search."""
    role = str(ctx.args.get("role", "to"))
    query, on_query = ctx.field("q")
    s = ctx.store
    offset, on_scroll = ctx.scroll()

    def pick(key: str) -> Handler:
        def h() -> None:
            below = ctx.below
            ctx.pop(args={role: key} if below is not None
                    and below.screen_name == "directions" else None)

        return h

    rows: list[View] = []
    if query.strip():
        for p in ms.search(s, query)[:12]:
            rows.append(mw.suggestion_row(p["name"], p["address"], p["icon"],
                                          pick(p["key"]), theme=ctx.theme, rid="result"))
    else:
        for key in ("home", "work"):
            lp = ms.place(s, key)
            if lp is not None:
                rows.append(mw.suggestion_row(lp["name"], lp["address"], lp["icon"], pick(key),
                                              theme=ctx.theme, rid=f"choose_{key}"))
        shown: set[str] = set()
        for sv in s["saved"]:
            sp = ms.place(s, sv["place"])
            if sp is not None and sp["key"] not in shown:
                shown.add(sp["key"])
                rows.append(mw.suggestion_row(sp["name"], sp["address"], "bookmark",
                                              pick(sp["key"]), theme=ctx.theme, rid="saved"))
    field = w.text_field("q", query, on_text=on_query,
                         hint="Choose start" if role == "frm" else "Choose destination",
                         rid="search_field", outlined=False, flex=1)
    return Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=ctx.theme), field],
            gap=dp(4), padding=(dp(4), dp(8), w.MARGIN, dp(8))),
        Divider(),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="choose_list"),
    ], bg=ctx.theme.surface)


def saved(ctx: Ctx) -> View:
    """Saved: the lists with how many places each holds."""
    rows: list[View] = [w.section("Your lists", theme=ctx.theme)]
    for lst in ms.LISTS:
        n = len(ms.saved_in(ctx.store, lst))
        rows.append(w.list_item(lst, subtitle=f"Private · {n} place{'s' if n != 1 else ''}",
                                leading=Icon("heart" if lst == "Favorites" else "bookmark",
                                             size=20, box=40,
                                             color=ctx.theme.primary, in_dump=False),
                                on_click=ctx.go("saved_list", list=lst),
                                rid=f"list_{lst.lower().replace(' ', '_')}", theme=ctx.theme))
    return Column([w.app_bar("Saved", theme=ctx.theme), Scroll(rows), nav(ctx, "saved")],
                  bg=ctx.theme.surface)


def saved_list(ctx: Ctx) -> View:
    """The places in one saved list, each with a button that takes it off the list."""
    lst = str(ctx.args.get("list", ms.LISTS[0]))
    s = ctx.store
    rows: list[View] = []
    for sv in ms.saved_in(s, lst):
        p = ms.place(s, sv["place"])
        if p is None:
            continue

        def remove(key: str = p["key"], name: str = p["name"]) -> None:
            ms.toggle_saved(s, key, lst)
            ctx.toast(f"Removed {name} from {lst}")

        rows.append(w.list_item(p["name"], subtitle=_result_subtitle(ctx, p),
                                leading=Icon(p["icon"], size=20, box=40,
                                             color=ctx.theme.primary, in_dump=False),
                                trailing=w.icon_button("close", f"Remove {p['name']}", remove,
                                                       rid="remove", theme=ctx.theme),
                                on_click=ctx.go("place", key=p["key"]), rid="saved_place",
                                theme=ctx.theme))
    if not rows:
        rows.append(Text("No places yet. Tap Save on a place to add it here.", size=15,
                         color=ctx.theme.on_surface_variant, rid="empty",
                         padding=(w.MARGIN, dp(24), w.MARGIN, 0)))
    offset, on_scroll = ctx.scroll()
    return Column([w.app_bar(lst, on_back=ctx.pop, theme=ctx.theme),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="saved_list")],
                  bg=ctx.theme.surface)


def recents(ctx: Ctx) -> View:
    """Recent searches, newest first; a tap searches again."""
    rows: list[View] = []
    for r in ctx.store["recent"]:
        p = ms.place(ctx.store, r["place"]) if r["place"] else None
        rows.append(mw.suggestion_row(r["query"], p["address"] if p else "", "history",
                                      ctx.go("place", key=p["key"]) if p
                                      else ctx.go("search", query=r["query"]),
                                      theme=ctx.theme, rid="recent"))
    if not rows:
        rows.append(Text("No recent searches", size=15, color=ctx.theme.on_surface_variant,
                         rid="empty", padding=(w.MARGIN, dp(24), w.MARGIN, 0)))
    return Column([w.app_bar("Recents", theme=ctx.theme), Scroll(rows), nav(ctx, "recents")],
                  bg=ctx.theme.surface)


def location(ctx: Ctx) -> Page:
    """Your location: needs the location permission; the map around you with a blue dot and
    the nearest address, or, when denied, why it cannot show it and a way to search."""
    answer = ctx.permission("location")
    home = ms.place(ctx.store, "home")
    assert home is not None
    header = w.app_bar("Your location", on_back=ctx.pop, theme=ctx.theme)
    if answer == "denied":
        body: View = Column([
            header,
            Column([Icon("location_dot", size=40, box=72, color=ctx.theme.on_surface_variant),
                    Text("Maps can't show where you are", size=20, align="center",
                         rid="permission_title"),
                    Text("Location permission is off for Maps. You can still search for "
                         "places and get directions from an address.", size=15,
                         align="center", color=ctx.theme.on_surface_variant,
                         rid="permission_explained"),
                    Row([View(flex=1, in_dump=False),
                         w.button("Search places", lambda: ctx.replace("search"),
                                  rid="search_instead", theme=ctx.theme),
                         View(flex=1, in_dump=False)])],
                   gap=dp(16), padding=(dp(32), dp(48), dp(32), 0)),
        ], bg=ctx.theme.surface)
        return Page(body, permission="location")
    granted = answer in ("granted", "once")
    me = (home["x"], home["y"])
    pins = (*_pins(ctx), (me[0], me[1], "me")) if granted else _pins(ctx)
    card: list[View] = []
    if granted:
        card = [mw.bottom_sheet([
            Column([Text("You are here", size=20, rid="location_title"),
                    Text(f"Near {home['address']}", size=15, rid="location_address",
                         color=ctx.theme.on_surface_variant),
                    Row([w.button("Directions from here",
                                  ctx.go("directions", frm="home", to=""),
                                  rid="directions_from_here", theme=ctx.theme)])],
                   gap=dp(8), padding=(w.MARGIN, 0, w.MARGIN, dp(24)))],
            theme=ctx.theme, flex=0.0)]
    body = Column([header, _map(me, 330.0, 1500, pins), *card, View(flex=1, in_dump=False)],
                  bg=ctx.theme.surface)
    return Page(body, permission="location")
