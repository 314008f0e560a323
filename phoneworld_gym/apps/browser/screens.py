"""Browser screens (Chrome-like): the current tab (address bar with suggestions, the page,
the tab switcher button and the three-dot menu), the tab switcher, bookmarks, history, and a
Custom Tab for links opened from other apps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.browser import sites
from phoneworld_gym.apps.browser import store as bs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.system.chrome import STATUS_BAR_H
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import (
    Column,
    Divider,
    Handler,
    Icon,
    Image,
    Row,
    Scroll,
    Text,
    View,
    dp,
)


def _page_scroll(ctx: Ctx, views: list[View]) -> Scroll:
    offset, on_scroll = ctx.scroll("page")
    return Scroll([*views, w.spacer(dp(32))], gap=dp(4), offset=offset, on_scroll=on_scroll,
                  cls="android.webkit.WebView", rid="web_view", bg=(255, 255, 255))


def _main_state(ctx: Ctx) -> dict[str, Any]:
    """The tab screen's UI state (the page's drafts, scroll and dialog) at the stack's root."""
    root = next((a for a in ctx.activities() if a.screen_name == "main"), None)
    return root.state if root is not None else {}


def _fresh(ctx: Ctx) -> None:
    """A new page is showing: forget the old page's drafts, scroll and menu, put the keyboard
    away (as loading a page does) and name the page in the tab screen's arguments (so that
    each page is its own state of the screen, as a crawler or a recorder sees it)."""
    for activity in ctx.activities():
        if activity.screen_name == "main":
            t = bs.tab(ctx.store)
            activity.reload(tab=t["id"], url=bs.url_of(t))
    ctx.clear_focus()


def _nav(ctx: Ctx) -> sites.Nav:
    """Links in the current tab: a tap opens the page here, a long press shows the link
    menu (open in a new tab, preview, copy the address)."""
    def go(url: str) -> Handler:
        def h() -> None:
            bs.navigate(ctx.store, url)
            _fresh(ctx)

        return h

    def hold(url: str) -> Handler:
        return ctx.show_dialog("link", url=url)

    return sites.Nav(go, hold)


def _link_menu(ctx: Ctx) -> Column:
    """The long-press menu of a link: its address, then Open in new tab, Preview page and
    Copy link address."""
    url = str(ctx.state.get("_dialog_data", {}).get("url", ""))
    s = ctx.store

    def new_tab() -> None:
        ctx.close_dialog()
        bs.new_tab(s, url)
        _fresh(ctx)
        ctx.toast("Tab opened")

    def preview() -> None:
        ctx.close_dialog()
        ctx.push("link", uri=url, preview=True)

    def copy() -> None:
        ctx.close_dialog()
        ctx.copy(url)

    items: list[View] = [Text(bs.display(url), size=14, max_lines=2, rid="link_url",
                              color=ctx.theme.on_surface_variant,
                              padding=(dp(24), dp(8), dp(24), dp(8)))]
    for label, rid, handler in (("Open in new tab", "open_in_new_tab", new_tab),
                                ("Preview page", "preview_page", preview),
                                ("Copy link address", "copy_link", copy)):
        items.append(Text(label, size=16, color=ctx.theme.on_surface, on_click=handler,
                          rid=rid, height=dp(52), padding=(dp(24), dp(15), dp(24), 0),
                          cls="android.widget.TextView"))
    return Column(items, bg=ctx.theme.surface_high, radius=dp(28), width=1080 - 2 * dp(40),
                  padding=(0, dp(16), 0, dp(16)), cls="android.widget.FrameLayout",
                  rid="context_menu")


def _suggestions(ctx: Ctx, typed: str, go: Callable[[str], Handler]) -> list[View]:
    """What the address bar suggests for ``typed``: a search for the words, then history
    and bookmarks whose title or address hold them."""
    q = typed.strip().lower()
    rows: list[View] = [w.list_item(typed.strip(), subtitle="Search with Findit",
                                    leading=Icon("search", size=20, box=40, in_dump=False,
                                                 color=ctx.theme.on_surface_variant),
                                    on_click=go(bs.resolve(typed)), rid="suggestion",
                                    theme=ctx.theme)]
    seen: set[str] = set()
    s = ctx.store
    for entry, icon in [(b, "star") for b in s["bookmarks"]] + [(h, "history")
                                                                for h in s["history"]]:
        url = entry["url"]
        if url in seen or not (q in entry["title"].lower() or q in url.lower()):
            continue
        seen.add(url)
        rows.append(w.list_item(entry["title"], subtitle=bs.display(url),
                                leading=Icon(icon, size=20, box=40, in_dump=False,
                                             color=ctx.theme.on_surface_variant),
                                on_click=go(url), rid="suggestion", theme=ctx.theme))
        if len(rows) >= 6:
            break
    return rows


def _menu(ctx: Ctx, url: str) -> Column:
    """Chrome's three-dot menu: forward, bookmark and share icons, then the menu items."""
    s = ctx.store
    t = bs.tab(s)
    can_forward = t["pos"] < len(t["stack"]) - 1
    marked = bs.bookmark_of(s, url) is not None
    web = url != bs.NEWTAB

    def do(fn: Handler) -> Handler:
        def h() -> None:
            ctx.close_dialog()
            fn()

        return h

    def forward() -> None:
        if bs.forward(s):
            _fresh(ctx)

    def star() -> None:
        now = bs.toggle_bookmark(s, url)
        ctx.toast("Bookmarked" if now else "Bookmark removed")

    def new_tab() -> None:
        bs.new_tab(s)
        _fresh(ctx)

    icons: list[View] = [
        Icon("arrow_right", size=20, box=48, desc="Forward", rid="button_forward",
             on_click=do(forward) if can_forward else None, enabled=can_forward,
             cls="android.widget.ImageButton",
             color=ctx.theme.on_surface if can_forward else (190, 190, 190)),
        Icon("star", size=20, box=48, desc="Edit bookmark" if marked else "Bookmark",
             rid="bookmark_this_page", on_click=do(star) if web else None, enabled=web,
             selected=marked, cls="android.widget.ImageButton",
             color=ctx.theme.primary if marked else ctx.theme.on_surface),
        Icon("share", size=20, box=48, desc="Share", rid="button_share",
             on_click=do(ctx.share(text=url, subject=bs.title_of(s, url))) if web else None,
             enabled=web, cls="android.widget.ImageButton", color=ctx.theme.on_surface),
    ]
    items: list[View] = [Row(icons, gap=dp(8), padding=(dp(8), 0, dp(8), 0),
                             rid="menu_icons")]
    for label, rid, handler in (("New tab", "new_tab_menu_id", new_tab),
                                ("History", "open_history_menu_id",
                                 lambda: ctx.push("history")),
                                ("Bookmarks", "all_bookmarks_menu_id",
                                 lambda: ctx.push("bookmarks"))):
        items.append(Text(label, size=16, color=ctx.theme.on_surface, on_click=do(handler),
                          rid=rid, height=dp(48), padding=(dp(16), dp(13), dp(16), 0),
                          cls="android.widget.TextView"))
    card = Column(items, bg=(255, 255, 255), radius=dp(8), padding=(0, dp(4), 0, dp(8)),
                  width=dp(240), rid="app_menu_list", cls="android.widget.ListView",
                  border=ctx.theme.outline_variant, border_width=2)
    holder = Column([card], width=dp(240) + dp(8),
                    padding=(0, STATUS_BAR_H + dp(8), dp(8), 0),
                    cls="android.widget.FrameLayout")
    holder.align_in_stack = "top_right"  # type: ignore[attr-defined]
    return holder


def main(ctx: Ctx) -> Page:
    """The current tab: toolbar (home, address bar, tabs, menu), suggestions while the
    address is being edited, else the page."""
    s = ctx.store
    t = bs.tab(s)
    url = bs.url_of(t)
    nav = _nav(ctx)
    go = nav.go
    shown = bs.display(url)
    typed, on_typed = ctx.field("omni", shown)

    def submit() -> None:
        if typed.strip():
            go(bs.resolve(typed))()

    def home() -> None:
        bs.navigate(s, bs.NEWTAB)
        _fresh(ctx)

    secure = url.startswith("https://")
    omni = Row([Icon("circle_info" if secure else "search", size=14, box=28, in_dump=False,
                     color=ctx.theme.on_surface_variant),
                w.text_field("omni", typed, on_text=on_typed, on_submit=submit,
                             hint="Search or type URL", rid="url_bar", outlined=False,
                             flex=1)],
               flex=1, radius=dp(24), bg=ctx.theme.surface_container, height=dp(48),
               padding=(dp(8), 0, dp(8), 0))
    count = len(s["tabs"])
    tabs_button = Text(str(count) if count < 100 else ":D", size=12, weight="bold",
                       align="center", color=ctx.theme.on_surface, width=dp(22),
                       height=dp(22), border=ctx.theme.on_surface, border_width=5,
                       radius=dp(4), padding=(0, dp(3), 0, 0), in_dump=False)
    toolbar = Row([
        w.icon_button("home", "Home", home, rid="home_button", theme=ctx.theme),
        omni,
        Row([tabs_button], width=dp(48), height=dp(48), padding=(dp(13), 0, 0, 0),
            on_click=ctx.go("tabs"), desc=f"Switch or close tabs, {count} open",
            rid="tab_switcher_button", cls="android.widget.ImageButton"),
        w.icon_button("more", "More options", ctx.show_dialog("menu"), rid="menu_button",
                      theme=ctx.theme),
    ], gap=dp(2), height=dp(64), padding=(dp(4), dp(8), dp(4), dp(8)), bg=ctx.theme.surface,
        rid="toolbar")
    editing = typed != shown and typed.strip() != ""
    if editing:
        offset, on_scroll = ctx.scroll("suggest")
        content: View = Scroll(_suggestions(ctx, typed, go), offset=offset,
                               on_scroll=on_scroll, rid="omnibox_suggestions")
    else:
        content = _page_scroll(ctx, sites.render(ctx, url, nav))

    def on_back() -> bool:
        if bs.back(s):
            _fresh(ctx)
            return True
        return False

    body = Column([toolbar, Divider(), content], bg=ctx.theme.surface)
    dialog = _menu(ctx, url) if ctx.dialog == "menu" else \
        _link_menu(ctx) if ctx.dialog == "link" else None
    return Page(body, dialog=dialog, on_back=on_back)


def tabs(ctx: Ctx) -> View:
    """The tab switcher: a grid of open tabs (tap to switch, X to close) and a new tab
    button."""
    s = ctx.store

    def switch(tid: int) -> Handler:
        def h() -> None:
            s["current"] = tid
            _fresh(ctx)
            ctx.pop()

        return h

    def close(tid: int) -> Handler:
        def h() -> None:
            bs.close_tab(s, tid)
            _fresh(ctx)

        return h

    def new_tab() -> None:
        bs.new_tab(s)
        _fresh(ctx)
        ctx.pop()

    cards: list[View] = []
    for t in s["tabs"]:
        url = bs.url_of(t)
        title = bs.title_of(s, url)
        current = t["id"] == s["current"]
        cards.append(Column([
            Row([Text(title, size=13, max_lines=1, flex=1, color=ctx.theme.on_surface,
                      rid="tab_title"),
                 Icon("close", size=14, box=40, desc=f"Close {title} tab", rid="close_tab",
                      on_click=close(t["id"]), cls="android.widget.ImageButton",
                      color=ctx.theme.on_surface_variant)],
                padding=(dp(10), 0, 0, 0)),
            Image(tint=(232, 240, 254) if url != bs.NEWTAB else (245, 245, 245),
                  glyph="globe", height=dp(150), in_dump=False),
        ], flex=1, radius=dp(12), bg=ctx.theme.surface_container,
            border=ctx.theme.primary if current else None, border_width=6 if current else 0,
            on_click=switch(t["id"]), desc=title, selected=current,
            cls="android.widget.FrameLayout", rid="tab_card"))
    rows: list[View] = []
    for i in range(0, len(cards), 2):
        pair = cards[i:i + 2]
        if len(pair) == 1:
            pair.append(View(flex=1, in_dump=False))
        rows.append(Row(pair, gap=dp(12)))
    n = len(s["tabs"])
    offset, on_scroll = ctx.scroll()
    return Column([
        Row([w.icon_button("plus", "New tab", new_tab, rid="new_tab_button", theme=ctx.theme),
             Text(f"{n} tab{'s' if n != 1 else ''}", size=18, align="center", flex=1,
                  rid="tab_count"),
             w.icon_button("close", "Done", ctx.pop, rid="done", theme=ctx.theme)],
            height=dp(64), padding=(dp(4), 0, dp(4), 0)),
        Scroll(rows, gap=dp(12), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(8), w.MARGIN, dp(8)), rid="tab_list_recycler_view"),
    ], bg=ctx.theme.surface)


def _open_here(ctx: Ctx, url: str) -> Handler:
    """Open ``url`` in the current tab and go back to it."""
    def h() -> None:
        bs.navigate(ctx.store, url)
        _fresh(ctx)
        ctx.reset_to("main")

    return h


def bookmarks(ctx: Ctx) -> View:
    """Mobile bookmarks: tap to open, the trash button to delete."""
    s = ctx.store

    def delete(bid: int, title: str) -> Handler:
        def h() -> None:
            s["bookmarks"] = [b for b in s["bookmarks"] if b["id"] != bid]
            ctx.toast(f"Deleted {title}")

        return h

    rows: list[View] = [w.section("Mobile bookmarks", theme=ctx.theme)]
    for b in s["bookmarks"]:
        rows.append(w.list_item(b["title"], subtitle=bs.display(b["url"]),
                                leading=Icon("star", size=18, box=40, in_dump=False,
                                             color=ctx.theme.primary),
                                trailing=w.icon_button("trash", f"Delete bookmark {b['title']}",
                                                       delete(b["id"], b["title"]),
                                                       rid="delete_bookmark", theme=ctx.theme),
                                on_click=_open_here(ctx, b["url"]), rid="bookmark",
                                theme=ctx.theme))
    if not s["bookmarks"]:
        rows.append(Text("No bookmarks yet", size=15, color=ctx.theme.on_surface_variant,
                         rid="empty", padding=(w.MARGIN, dp(16), w.MARGIN, 0)))
    offset, on_scroll = ctx.scroll()
    return Column([w.app_bar("Bookmarks", on_back=ctx.pop, theme=ctx.theme),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="bookmark_items")],
                  bg=ctx.theme.surface)


def history(ctx: Ctx) -> Page:
    """History, newest first: tap to open, X to remove one, "Clear browsing data" (with a
    confirmation) to remove all."""
    s = ctx.store

    def remove(hid: int) -> Handler:
        def h() -> None:
            s["history"] = [x for x in s["history"] if x["id"] != hid]

        return h

    def clear() -> None:
        s["history"] = []
        ctx.close_dialog()
        ctx.toast("Browsing history cleared")

    rows: list[View] = [Text("Clear browsing data\u2026", size=16, color=ctx.theme.primary,
                             on_click=ctx.show_dialog("clear") if s["history"] else None,
                             enabled=bool(s["history"]), rid="clear_browsing_data_button",
                             padding=(w.MARGIN, dp(14), w.MARGIN, dp(14)),
                             cls="android.widget.Button")]
    if s["history"]:
        rows.append(w.section("Today", theme=ctx.theme))
    for h in s["history"]:
        rows.append(w.list_item(h["title"], subtitle=bs.host_of(h["url"]),
                                leading=Icon("globe", size=18, box=40, in_dump=False,
                                             color=ctx.theme.on_surface_variant),
                                trailing=w.icon_button("close", f"Remove {h['title']}",
                                                       remove(h["id"]), rid="remove",
                                                       theme=ctx.theme),
                                on_click=_open_here(ctx, h["url"]), rid="history_item",
                                theme=ctx.theme))
    if not s["history"]:
        rows.append(Text("Pages you've visited appear here", size=15, rid="empty",
                         color=ctx.theme.on_surface_variant,
                         padding=(w.MARGIN, dp(16), w.MARGIN, 0)))
    offset, on_scroll = ctx.scroll()
    body = Column([w.app_bar("History", on_back=ctx.pop, theme=ctx.theme),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="history_list")],
                  bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "clear":
        dlg = w.dialog("Clear browsing history?",
                       "This clears your history from this device.",
                       [("Cancel", ctx.close_dialog), ("Clear data", clear)], theme=ctx.theme)
    return Page(body, dialog=dlg)


def link(ctx: Ctx) -> Page:
    """A Custom Tab: a link opened from another app (``http:``/``https:`` intents), with its
    own back history, a close button and "Open in Chrome"."""
    first = bs.canonical(intents.uri_payload(str(ctx.args.get("uri", "https://findit.com"))))
    stack: list[str] = ctx.state.get("stack") or [first]
    url = stack[-1]
    s = ctx.store

    def go(target: str) -> Handler:
        def h() -> None:
            target_c = bs.canonical(target)
            ctx.state["stack"] = [*stack, target_c]
            ctx.state.pop("_fields", None)
            ctx.state.pop("_scroll", None)
            bs.visit(s, target_c)

        return h

    def open_in_browser() -> None:
        bs.new_tab(s, url)
        ctx.reset_to("main")

    def star() -> None:
        ctx.close_dialog()
        now = bs.toggle_bookmark(s, url)
        ctx.toast("Bookmarked" if now else "Bookmark removed")

    def close() -> None:
        """Close the Custom Tab: back to the app whose link opened it (a link's tab lives in
        its caller's task on Android), or to Chrome for a preview."""
        caller = ctx.previous_app()
        ctx.pop()
        if not ctx.args.get("preview") and caller is not None:
            ctx.start_app(caller)  # open, so it comes to the front as it was

    def on_back() -> bool:
        if len(stack) > 1:
            ctx.state["stack"] = stack[:-1]
            ctx.state.pop("_fields", None)
            ctx.state.pop("_scroll", None)
            return True
        close()
        return True

    title = bs.title_of(s, url)
    toolbar = Row([
        w.icon_button("close", "Close tab", close, rid="close_button", theme=ctx.theme),
        Column([Text(title, size=16, max_lines=1, rid="title_bar"),
                Text(bs.host_of(url), size=12, max_lines=1, rid="url_bar",
                     color=ctx.theme.on_surface_variant)], flex=1),
        w.icon_button("more", "More options", ctx.show_dialog("menu"), rid="menu_button",
                      theme=ctx.theme),
    ], height=dp(64), padding=(dp(4), 0, dp(4), 0), gap=dp(4), bg=ctx.theme.surface_container,
        rid="custom_tab_toolbar")
    dlg = None
    if ctx.dialog == "menu":
        marked = bs.bookmark_of(s, url) is not None
        items: list[View] = [
            Text(label, size=16, color=ctx.theme.on_surface, on_click=handler, rid=rid,
                 height=dp(48), padding=(dp(16), dp(13), dp(16), 0),
                 cls="android.widget.TextView")
            for label, rid, handler in (
                ("Open in Chrome", "open_in_browser", open_in_browser),
                ("Edit bookmark" if marked else "Bookmark", "bookmark_this_page", star))]
        card = Column(items, bg=(255, 255, 255), radius=dp(8), padding=(0, dp(4), 0, dp(4)),
                      width=dp(220), rid="app_menu_list", cls="android.widget.ListView",
                      border=ctx.theme.outline_variant, border_width=2)
        dlg = Column([card], width=dp(228), padding=(0, STATUS_BAR_H + dp(8), dp(8), 0),
                     cls="android.widget.FrameLayout")
        dlg.align_in_stack = "top_right"  # type: ignore[attr-defined]
    body = Column([toolbar, _page_scroll(ctx, sites.render(ctx, url, sites.Nav(go)))],
                  bg=ctx.theme.surface)
    return Page(body, dialog=dlg, on_back=on_back)
