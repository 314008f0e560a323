"""Phone screens, like Google's Phone app: Favourites / Recents / Contacts tabs with a keypad
button, the keypad, a call's details, the in-call screen and the blocked numbers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.phone import store as ps
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.sheets import popup_menu
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

TINTS = [(66, 133, 244), (219, 68, 55), (15, 157, 88), (171, 71, 188), (255, 112, 67),
         (0, 172, 193), (124, 179, 66), (92, 107, 192)]
GREEN = (30, 142, 62)
RED = (217, 48, 37)
#: call type -> (glyph, words) of the little type icon in the log
KINDS = {ps.INCOMING: ("arrow_left", "Incoming call"), ps.OUTGOING: ("arrow_right",
                                                                        "Outgoing call"),
         ps.MISSED: ("phone_slash", "Missed call"), ps.REJECTED: ("phone_slash",
                                                                  "Declined call"),
         ps.BLOCKED: ("ban", "Blocked call")}
KEYS = (("1", "", "one"), ("2", "ABC", "two"), ("3", "DEF", "three"),
        ("4", "GHI", "four"), ("5", "JKL", "five"), ("6", "MNO", "six"),
        ("7", "PQRS", "seven"), ("8", "TUV", "eight"), ("9", "WXYZ", "nine"),
        ("*", "", "star"), ("0", "+", "zero"), ("#", "", "pound"))
TABS = (("star", "Favourites", "favourites"), ("history", "Recents", "recents"),
        ("contacts", "Contacts", "contacts"))


def tint(key: str) -> tuple[int, int, int]:
    return TINTS[sum(map(ord, key)) % len(TINTS)]


def people(ctx: Ctx) -> list[dict[str, Any]]:
    """Named contacts with a number, sorted by name (from the contacts provider)."""
    rows = [r for r in ctx.query("contacts") if r.get("number") and r.get("display_name")]
    return sorted(rows, key=lambda r: (r["display_name"].lower(), r["_id"]))


def names(ctx: Ctx) -> dict[str, str]:
    """Last ten digits -> the contact's name, as a dialer resolves a caller."""
    out: dict[str, str] = {}
    for r in people(ctx):
        out.setdefault(ps.digits_key(r["number"]), r["display_name"])
    return out


def who(ctx: Ctx, number: str, cached: str = "", book: dict[str, str] | None = None) -> str:
    """The name to show for a number: the contact's today, else the name logged, else the
    number itself. ``book`` is :func:`names` read once for a screen's many numbers."""
    book = names(ctx) if book is None else book
    return book.get(ps.digits_key(number)) or cached or number


def when(ms: int, now: str) -> str:
    """"10:05 AM" today, "Yesterday", "Thu" this week, "Mar 2" before."""
    t = ps.from_ms(ms)
    today = dt.datetime.fromisoformat(now).date()
    clock = t.strftime("%I:%M %p").lstrip("0")
    days = (today - t.date()).days
    if days == 0:
        return clock
    if days == 1:
        return f"Yesterday, {clock}"
    if days < 7:
        return f"{t.strftime('%a')}, {clock}"
    return f"{t.strftime('%b')} {t.day}, {clock}"


def duration_text(seconds: int) -> str:
    """"3 min 12 sec", "45 sec"."""
    m, s = divmod(int(seconds), 60)
    return f"{m} min {s} sec" if m else f"{s} sec"


def start_call(ctx: Ctx, number: str) -> Handler:
    """A handler that places a call to ``number`` (the in-call screen, which counts from the
    clock time of the tap)."""
    return lambda: ctx.push("call", number=number, started=ctx.now)


# -- main: tabs --------------------------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """The search bar, the current tab (Recents by default), the keypad button and the
    navigation bar. A long press on a call offers copy, block and delete. The Recents badge
    counts the new missed calls; unlike a real dialer, looking at Recents does not clear
    ``new`` (every task that only reads the log would otherwise change ``call_log``)."""
    tab = ctx.state.get("tab", ctx.args.get("tab", "recents"))
    query, on_query = ctx.field("search")
    if tab == "favourites":
        content = favourites(ctx)
    elif tab == "contacts":
        content = contacts_tab(ctx, query)
    else:
        content = recents(ctx, query)
    missed = sum(1 for c in ctx.store["calls"] if c["new"] and c["type"] == ps.MISSED)
    search = w.text_field("search", query, on_text=on_query, hint="Search contacts",
                          rid="search_box", outlined=False, flex=1)
    top = Row([Icon("search", size=20, box=40, color=ctx.theme.on_surface_variant,
                    in_dump=False), search,
               w.icon_button("more", "More options", ctx.show_dialog("overflow"),
                             rid="overflow", theme=ctx.theme)],
              gap=dp(4), bg=ctx.theme.surface_high, radius=dp(28), height=dp(56),
              padding=(dp(12), 0, dp(4), 0), flex=1)
    keypad = Row([Icon("keypad", size=22, color=ctx.theme.on_primary_container,
                       in_dump=False)],
                 width=dp(56), height=dp(56), padding=(dp(14), 0, 0, 0),
                 bg=ctx.theme.primary_container, radius=dp(16), on_click=ctx.go("dial"),
                 desc="key pad", rid="dialpad_fab", cls="android.widget.ImageButton")
    nav = tab_nav(ctx, TABS, tab, to=lambda key: ctx.setter("tab", key),
                  badges={"Recents": str(missed)} if missed else None)
    body = Column([
        Row([top], padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))),
        content,
        # the keypad button docks above the navigation bar, clear of the list's buttons
        Row([View(flex=1, in_dump=False), keypad], padding=(0, dp(4), w.MARGIN, dp(12))),
        nav,
    ], bg=ctx.theme.surface)
    return Page(body, dialog=_main_dialog(ctx))


def _main_dialog(ctx: Ctx) -> View | None:
    data = ctx.state.get("_dialog_data", {})
    if ctx.dialog == "overflow":
        def blocked() -> None:
            ctx.close_dialog()
            ctx.push("blocked")

        def history() -> None:
            ctx.close_dialog()
            ctx.state["tab"] = "recents"

        return popup_menu([("Call history", history), ("Blocked numbers", blocked)],
                          theme=ctx.theme, anchor="top_right")
    if ctx.dialog == "call_menu":
        return call_menu(ctx, data)
    return None


def call_menu(ctx: Ctx, data: dict[str, Any]) -> View:
    """The long-press menu of a call: copy the number, block or unblock it, delete the
    call from the history."""
    number = str(data["number"])

    def copy() -> None:
        ctx.close_dialog()
        ctx.copy(number)

    def block() -> None:
        ctx.close_dialog()
        ps.block(ctx.store, number)
        ctx.toast(f"{number} blocked")

    def unblock() -> None:
        ctx.close_dialog()
        ps.unblock(ctx.store, number)
        ctx.toast(f"{number} unblocked")

    def delete() -> None:
        ctx.close_dialog()
        ps.delete_calls(ctx.store, [int(data["id"])])
        ctx.toast("Call deleted")

    blocked = ps.is_blocked(ctx.store, number)
    return popup_menu([("Copy number", copy),
                       ("Unblock number" if blocked else "Block number",
                        unblock if blocked else block),
                       ("Delete", delete)], header=str(data.get("who", number)),
                      theme=ctx.theme)


def recents(ctx: Ctx, query: str) -> View:
    """The call log, newest first, under Today / Yesterday / Older headers; missed calls
    in red. A tap opens the call's details, the phone button calls back."""
    offset, on_scroll = ctx.scroll("recents")
    q = query.strip().lower()
    qd = "".join(ch for ch in q if ch.isdigit())
    today = dt.datetime.fromisoformat(ctx.now).date()
    rows: list[View] = []
    header = ""
    book = names(ctx)
    for c in ps.calls_newest_first(ctx.store):
        name = who(ctx, c["number"], c["name"], book)
        if q and not (q in name.lower() or (qd and qd in ps.digits_key(c["number"]))):
            continue
        days = (today - ps.from_ms(c["date"]).date()).days
        h = "Today" if days == 0 else "Yesterday" if days == 1 else "Older"
        if h != header:
            header = h
            rows.append(Text(h, size=14, weight="medium", color=ctx.theme.on_surface_variant,
                             padding=(w.MARGIN, dp(16), 0, dp(4)), rid="call_log_header"))
        rows.append(call_row(ctx, c, name))
    if not rows:
        rows.append(Text("No results" if q else "Your call history is empty", size=16,
                         align="center", color=ctx.theme.on_surface_variant,
                         padding=(0, dp(48), 0, 0), rid="empty_text"))
    rows.append(w.spacer(dp(16)))
    return Scroll(rows, offset=offset, on_scroll=on_scroll, rid="call_log_list", gap=dp(3),
                  padding=(dp(8), 0, dp(8), 0))


def call_row(ctx: Ctx, c: dict[str, Any], name: str) -> View:
    glyph, kind = KINDS[c["type"]]
    missed = c["type"] == ps.MISSED
    red = missed or c["type"] in (ps.REJECTED, ps.BLOCKED)
    stamp = when(c["date"], ctx.now)
    short = stamp.split(", ")[-1] if stamp.startswith("Yesterday") else stamp
    sub = Row([Icon(glyph, size=12, box=16, color=RED if red else ctx.theme.on_surface_variant,
                    in_dump=False),
               Text(f"Mobile · {short}" if name != c["number"] else short, size=14,
                    color=RED if missed else ctx.theme.on_surface_variant, max_lines=1,
                    flex=1, rid="call_log_subtitle")], gap=dp(6))
    body = Column([Text(name, size=16, color=RED if missed else ctx.theme.on_surface,
                        weight="medium" if c["new"] else "regular", max_lines=1,
                        rid="call_log_name"), sub], flex=1, gap=dp(2))
    call_back = w.icon_button("phone", f"Call {name}", start_call(ctx, c["number"]),
                              rid="call_back", theme=ctx.theme)
    return Row([w.avatar(name if name != c["number"] else "#", tint(ps.digits_key(c["number"]))),
                body, call_back],
               gap=dp(16), padding=(w.MARGIN, dp(8), dp(8), dp(8)), height=dp(72),
               bg=ctx.theme.surface_container, radius=dp(16),
               on_click=ctx.go("details", number=c["number"]),
               on_long_click=ctx.show_dialog("call_menu", id=c["id"], number=c["number"],
                                             who=name),
               desc=f"{kind}, {name}, {stamp}", cls="android.widget.LinearLayout",
               rid="call_log_row")


def favourites(ctx: Ctx) -> View:
    """Starred contacts as tiles (read-only here: starring is the Contacts app's business);
    a tap calls them."""
    offset, on_scroll = ctx.scroll("favourites")
    fav = [r for r in people(ctx) if r.get("starred")]
    tiles: list[View] = []
    for r in fav:
        name = r["display_name"]
        tiles.append(Column([
            Row([View(flex=1, in_dump=False), w.avatar(name, tint(ps.digits_key(r["number"])),
                                                       size=72),
                 View(flex=1, in_dump=False)], in_dump=False),
            Text(name, size=14, align="center", color=ctx.theme.on_surface, max_lines=1,
                 in_dump=False),
        ], gap=dp(8), flex=1, padding=(dp(4), dp(12), dp(4), dp(12)), text=name,
            desc=f"Call {name}", on_click=start_call(ctx, r["number"]),
            cls="android.widget.TextView", rid="favorite_tile"))
    rows: list[View] = []
    for i in range(0, len(tiles), 3):
        chunk = tiles[i:i + 3]
        chunk += [View(flex=1, in_dump=False) for _ in range(3 - len(chunk))]
        rows.append(Row(chunk, padding=(dp(8), 0, dp(8), 0)))
    if not rows:
        rows.append(Column([
            Icon("star", size=40, box=64, color=ctx.theme.on_surface_variant, in_dump=False),
            Text("No favourites yet", size=16, align="center",
                 color=ctx.theme.on_surface_variant, rid="empty_text"),
            Text("Star a contact in Contacts to see them here", size=14, align="center",
                 color=ctx.theme.on_surface_variant),
        ], gap=dp(8), padding=(0, dp(48), 0, 0)))
    rows.insert(0, w.section("Favourites", theme=ctx.theme))
    rows.append(w.spacer(dp(16)))
    return Scroll(rows, offset=offset, on_scroll=on_scroll, rid="favorites_list")


def contacts_tab(ctx: Ctx, query: str) -> View:
    """Everyone with a number, under letter headers; a tap opens their call details."""
    offset, on_scroll = ctx.scroll("contacts")
    q = query.strip().lower()
    qd = "".join(ch for ch in q if ch.isdigit())
    rows: list[View] = []
    letter = ""
    for r in people(ctx):
        name = r["display_name"]
        if q and not (q in name.lower() or (qd and qd in ps.digits_key(r["number"]))):
            continue
        first = name[:1].upper()
        if first != letter and not q:
            letter = first
            rows.append(Text(letter, size=14, weight="medium", color=ctx.theme.primary,
                             padding=(w.MARGIN, dp(12), 0, dp(4)), rid="section_header"))
        rows.append(w.list_item(name, leading=w.avatar(name, tint(ps.digits_key(r["number"]))),
                                on_click=ctx.go("details", number=r["number"]),
                                rid="contact", theme=ctx.theme))
    if not rows:
        rows.append(Text("No contacts found" if q else "No contacts", size=16, align="center",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0),
                         rid="empty_text"))
    rows.append(w.spacer(dp(16)))
    return Scroll(rows, offset=offset, on_scroll=on_scroll, rid="contact_list")


# -- the keypad --------------------------------------------------------------------------------
def keypad(on_key: Any, theme: w.Theme, *, compact: bool = False) -> Column:
    """The 4 x 3 dial pad: each key a ``DialpadKeyButton`` with the digit as its
    content-desc and Android's ids (``one`` .. ``nine``, ``star``, ``zero``, ``pound``)."""
    rows: list[View] = []
    h = dp(64 if compact else 76)
    for i in range(0, 12, 3):
        cells: list[View] = []
        for digit, letters, rid in KEYS[i:i + 3]:
            kids: list[View] = [Text(digit, size=28 if not compact else 24, align="center",
                                     color=theme.on_surface, in_dump=False)]
            if not compact:
                kids.append(Text(letters or " ", size=11, align="center",
                                 color=theme.on_surface_variant, in_dump=False))
            cells.append(Column(kids, flex=1, height=h, on_click=on_key(digit), desc=digit,
                                rid=rid, padding=(0, dp(8), 0, 0),
                                cls="android.widget.FrameLayout"))
        rows.append(Row(cells, gap=dp(8)))
    return Column(rows, gap=dp(4), padding=(dp(32), 0, dp(32), 0), rid="dialpad_view")


def dial(ctx: Ctx) -> View:
    """The keypad: the number typed so far (also typeable as text), the contact it belongs
    to, the keys, the green call button and backspace. A ``tel:`` intent prefills it."""
    start = intents.uri_payload(ctx.args["uri"]) if "uri" in ctx.args else ""
    digits, on_digits = ctx.field("digits", start)

    def key(d: str) -> Handler:
        return lambda: on_digits(digits + d)

    def backspace() -> None:
        on_digits(digits[:-1])

    def call() -> None:
        number = digits.strip()
        if not any(ch.isdigit() for ch in number):
            ctx.toast("Enter a number to call")
            return
        ctx.push("call", number=number, started=ctx.now)

    name = names(ctx).get(ps.digits_key(digits), "") if len(
        [ch for ch in digits if ch.isdigit()]) >= 7 else ""
    field = w.text_field("digits", digits, on_text=on_digits, hint="Enter a number",
                         rid="digits", outlined=False, flex=1)
    field.size_px = dp(28)  # type: ignore[attr-defined]
    call_btn = Row([Icon("phone", size=26, color=(255, 255, 255), in_dump=False)],
                   width=dp(72), height=dp(56), radius=dp(28), bg=GREEN,
                   padding=(dp(23), 0, 0, 0), on_click=call, desc="dial",
                   rid="dialpad_voice_call_button", cls="android.widget.ImageButton")
    back_btn = w.icon_button("backspace", "backspace", backspace if digits else None,
                             rid="deleteButton", theme=ctx.theme)
    return Column([
        w.app_bar("", on_back=ctx.pop, theme=ctx.theme),
        View(flex=1, in_dump=False),
        Row([field], padding=(dp(32), 0, dp(32), 0), height=dp(72)),
        Text(name or " ", size=14, align="center", color=ctx.theme.on_surface_variant,
             rid="digits_contact_name", in_dump=bool(name)),
        w.spacer(dp(16)),
        keypad(key, ctx.theme),
        Row([View(width=dp(56), in_dump=False), View(flex=1, in_dump=False), call_btn,
             View(flex=1, in_dump=False), back_btn, View(width=dp(8), in_dump=False)],
            padding=(dp(32), dp(12), dp(32), dp(24))),
    ], bg=ctx.theme.surface)


# -- a call ------------------------------------------------------------------------------------
def call(ctx: Ctx) -> Page:
    """The in-call screen: who, the time since the call was placed (the phone's clock runs
    with the actions), mute / keypad / speaker toggles and the red end button. Ending the call
    logs one outgoing call, dated when it was placed and as long as it lasted, and goes back
    to where the call was placed. Back does not hang up."""
    number = str(ctx.args["number"])
    started = str(ctx.args.get("started") or ctx.now)
    elapsed = max(0, int((ctx.time() - dt.datetime.fromisoformat(started)).total_seconds()))
    name = names(ctx).get(ps.digits_key(number), "")
    muted, speaker, pad = (bool(ctx.state.get(k)) for k in ("mute", "speaker", "pad"))
    tones = str(ctx.state.get("tones", ""))

    def toggle(k: str) -> Handler:
        return lambda: ctx.state.__setitem__(k, not ctx.state.get(k))

    def tone(d: str) -> Handler:
        return lambda: ctx.state.__setitem__("tones", tones + d)

    def end() -> None:
        lasted = int((ctx.time() - dt.datetime.fromisoformat(started)).total_seconds())
        ps.place_call(ctx.store, number, name, started, max(0, lasted))
        ctx.pop()
        ctx.toast("Call ended")

    def control(glyph: str, label: str, on: bool, handler: Handler, rid: str) -> View:
        return Column([
            Row([View(flex=1, in_dump=False),
                 Icon(glyph, size=24, box=64, radius=dp(32),
                      color=ctx.theme.on_primary if on else ctx.theme.on_surface,
                      bg=ctx.theme.primary if on else ctx.theme.surface_high, in_dump=False),
                 View(flex=1, in_dump=False)], in_dump=False),
            Text(label, size=14, align="center", color=ctx.theme.on_surface, in_dump=False),
        ], gap=dp(8), flex=1, on_click=handler, desc=label, rid=rid, checkable=True,
            checked=on, cls="android.widget.ToggleButton")

    head = Column([
        Text(name or number, size=32, align="center", color=ctx.theme.on_surface,
             max_lines=1, rid="contactgrid_contact_name"),
        Text(f"Mobile {number}" if name else "Calling", size=16, align="center",
             color=ctx.theme.on_surface_variant, rid="contactgrid_bottom_text"),
        Text(f"{elapsed // 60}:{elapsed % 60:02d}", size=16, align="center",
             color=ctx.theme.on_surface_variant, rid="contactgrid_bottom_timer"),
    ], gap=dp(8), padding=(w.MARGIN, dp(48), w.MARGIN, 0))
    middle: View
    if pad:
        middle = Column([Text(tones or " ", size=24, align="center",
                              color=ctx.theme.on_surface, rid="dtmf_digits"),
                         keypad(tone, ctx.theme, compact=True)], gap=dp(8))
    else:
        middle = Row([w.avatar(name or "#", tint(ps.digits_key(number)), size=120)],
                     padding=(dp(143), dp(24), 0, 0), in_dump=False)
    controls = Row([control("microphone", "Mute", muted, toggle("mute"), "incall_mute"),
                    control("keypad", "Keypad", pad, toggle("pad"), "incall_keypad"),
                    control("phone_volume", "Speaker", speaker, toggle("speaker"),
                            "incall_speaker")], padding=(dp(24), 0, dp(24), 0))
    end_btn = Row([Icon("phone_slash", size=26, color=(255, 255, 255), in_dump=False)],
                  width=dp(88), height=dp(64), radius=dp(32), bg=RED,
                  padding=(dp(31), 0, 0, 0), on_click=end, desc="End call",
                  rid="incall_end_call", cls="android.widget.ImageButton")
    body = Column([
        head, View(flex=1, in_dump=False), middle, View(flex=1, in_dump=False), controls,
        Row([View(flex=1, in_dump=False), end_btn, View(flex=1, in_dump=False)],
            padding=(0, dp(32), 0, dp(32))),
    ], bg=ctx.theme.surface_container)
    return Page(body, on_back=lambda: True)


# -- details of a number -----------------------------------------------------------------------
def details(ctx: Ctx) -> View | Page:
    """Who a number is, Call / Message / Block, and every call with it (type, time,
    duration). The bin in the app bar deletes this history."""
    number = str(ctx.args["number"])
    k = ps.digits_key(number)
    calls = [c for c in ps.calls_newest_first(ctx.store) if ps.digits_key(c["number"]) == k]
    cached = next((c["name"] for c in calls if c["name"]), "")
    name = who(ctx, number, cached)
    blocked = ps.is_blocked(ctx.store, number)

    def toggle_block() -> None:
        if blocked:
            ps.unblock(ctx.store, number)
            ctx.toast(f"{number} unblocked")
        else:
            ps.block(ctx.store, number)
            ctx.toast(f"{number} blocked")

    def delete_all() -> None:
        ps.delete_calls(ctx.store, [c["id"] for c in calls])
        ctx.close_dialog()
        ctx.pop()
        ctx.toast("Call history deleted")

    actions = Row([
        w.button("Call", start_call(ctx, number), style="tonal", flex=1, theme=ctx.theme,
                 rid="call_action"),
        w.button("Message", ctx.open_uri(intents.uri_for("sms", number)), style="tonal",
                 flex=1, theme=ctx.theme, rid="message_action"),
        w.button("Unblock" if blocked else "Block", toggle_block, style="tonal", flex=1,
                 theme=ctx.theme, rid="block_action"),
    ], gap=dp(12), padding=(w.MARGIN, 0, w.MARGIN, dp(16)))
    history: list[View] = [w.section("Call history", theme=ctx.theme)]
    for c in calls:
        glyph, kind = KINDS[c["type"]]
        red = c["type"] in (ps.MISSED, ps.REJECTED, ps.BLOCKED)
        extra = f" · {duration_text(c['duration'])}" if c["duration"] else ""
        history.append(w.list_item(kind, subtitle=f"{when(c['date'], ctx.now)}{extra}",
                                   leading=Icon(glyph, size=18, box=40,
                                                color=RED if red
                                                else ctx.theme.on_surface_variant),
                                   rid="call_detail", theme=ctx.theme,
                                   desc=f"{kind}, {when(c['date'], ctx.now)}{extra}"))
    if not calls:
        history.append(Text("No calls with this number yet", size=14,
                            color=ctx.theme.on_surface_variant, padding=(w.MARGIN, 0, 0, 0),
                            rid="empty_text"))
    header = Column([
        Row([View(flex=1, in_dump=False), w.avatar(name if name != number else "#",
                                                   tint(k), size=96),
             View(flex=1, in_dump=False)], in_dump=False),
        Text(name, size=28, align="center", rid="contact_name", max_lines=2),
        Text(f"Mobile {number}" if name != number else "Unknown number", size=16,
             align="center", color=ctx.theme.on_surface_variant, rid="phone_number"),
    ], gap=dp(8), padding=(0, dp(8), 0, dp(16)))
    if blocked:
        header.children.append(Text("Blocked", size=14, align="center", color=RED,
                                    rid="blocked_label"))
    offset, on_scroll = ctx.scroll()
    body = Column([
        w.app_bar("", on_back=ctx.pop, theme=ctx.theme, actions=[
            w.icon_button("trash", "Delete call history", ctx.show_dialog("delete"),
                          rid="delete_history", theme=ctx.theme) if calls else
            View(width=dp(48), in_dump=False)]),
        Scroll([header, actions, *history, w.spacer(dp(24))], offset=offset,
               on_scroll=on_scroll, rid="details_list"),
    ], bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "delete":
        dlg = w.dialog("Delete call history?",
                       f"All {len(calls)} calls with {name} will be removed from Recents.",
                       [("Cancel", ctx.close_dialog), ("Delete", delete_all)],
                       theme=ctx.theme)
    return Page(body, dialog=dlg)


# -- blocked numbers ---------------------------------------------------------------------------
def blocked(ctx: Ctx) -> View | Page:
    """Blocked numbers: add one (a dialog with a number field) or unblock one (the X)."""
    typed, on_typed = ctx.field("new_number")
    rows: list[View] = [
        Text("You won't receive calls or texts from blocked numbers.", size=14,
             color=ctx.theme.on_surface_variant, padding=(w.MARGIN, dp(8), w.MARGIN, dp(8))),
        w.list_item("Add a number", leading=Icon("plus", size=20, box=40,
                                                 color=ctx.theme.primary),
                    on_click=ctx.show_dialog("add"), rid="add_blocked_number",
                    theme=ctx.theme),
    ]
    book = names(ctx)
    for b in sorted(ctx.store["blocked"], key=lambda b: b["id"]):
        label = who(ctx, b["number"], book=book)

        def unblock(number: str = b["number"]) -> None:
            ps.unblock(ctx.store, number)
            ctx.toast(f"{number} unblocked")

        rows.append(w.list_item(label, subtitle=b["number"] if label != b["number"] else "",
                                leading=Icon("ban", size=20, box=40, color=RED),
                                trailing=w.icon_button("close", f"Unblock {b['number']}",
                                                       unblock, rid="unblock",
                                                       theme=ctx.theme),
                                rid="blocked_number", theme=ctx.theme))
    offset, on_scroll = ctx.scroll()
    body = Column([w.app_bar("Blocked numbers", on_back=ctx.pop, theme=ctx.theme),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="blocked_list")],
                  bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "add":
        def add() -> None:
            number = typed.strip()
            if not any(ch.isdigit() for ch in number):
                ctx.toast("Enter a phone number")
                return
            if not ps.block(ctx.store, number):
                ctx.toast(f"{number} is already blocked")
            else:
                ctx.toast(f"{number} blocked")
            ctx.state.setdefault("_fields", {})["new_number"] = ""
            ctx.close_dialog()

        field = w.text_field("new_number", typed, on_text=on_typed, label="Phone number",
                             rid="blocked_number_field")
        dlg = w.dialog("Block a number", "", [("Cancel", ctx.close_dialog), ("Block", add)],
                       body=[field], theme=ctx.theme)
    return Page(body, dialog=dlg)
