"""Travel screens for finding a stay, like Booking.com: the start screen (the search box with
destination, dates through two date pickers and a guests stepper, recent searches; Saved and
Bookings tabs), the destination search with suggestions, the results (price per night and
for the stay, rating, distance, perks; sort sheet, save hearts) and the filters."""

from __future__ import annotations

import datetime as dt

from phoneworld_gym.app import Page
from phoneworld_gym.apps.travel import store as ts
from phoneworld_gym.apps.travel.catalogue import Hotel
from phoneworld_gym.apps.travel.parts import (
    GREEN,
    HEADER,
    RED,
    WHITE,
    YELLOW,
    guests_label,
    header,
    nights_label,
    perk,
    photo,
    rating_badge,
    save_button,
    short_day,
    stars,
    stay_label,
)
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls, pickers
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.sheets import bottom_sheet
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

TABS = ("search", "saved", "trips")


def today(ctx: Ctx) -> dt.date:
    """The phone's date (its running clock)."""
    return ctx.time().date()


# -- main: search, saved, bookings -------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """The bottom navigation's three tabs: Search, Saved and Bookings."""
    th = ctx.theme
    tab = str(ctx.state.get("tab", ctx.args.get("tab", "search")))
    if tab == "saved":
        body = saved_tab(ctx)
        title = "Saved"
    elif tab == "trips":
        body = trips_tab(ctx)
        title = "Bookings"
    else:
        body = search_tab(ctx)
        title = "Travel"
    nav = tab_nav(ctx, [("search", "Search", "search"), ("heart", "Saved", "saved"),
                        ("suitcase", "Bookings", "trips")], tab,
                  to=lambda key: ctx.setter("tab", key), theme=th)
    page = Column([header(ctx, title, back=False), body, nav], bg=th.surface)
    dlg = None
    if tab == "search" and ctx.dialog in ("checkin", "checkout"):
        dlg = date_dialog(ctx)
    elif tab == "search" and ctx.dialog == "guests":
        dlg = guests_sheet(ctx)
    return Page(page, dialog=dlg)


def _form_row(glyph: str, value: str, placeholder: str, on_click: Handler, rid: str,
              desc: str) -> Row:
    return Row([Icon(glyph, size=18, box=40, color=(40, 40, 40), in_dump=False),
                Text(value or placeholder, size=16, weight="medium" if value else "regular",
                     color=(26, 26, 26) if value else (110, 110, 110), max_lines=1, flex=1,
                     in_dump=False)],
               gap=dp(8), height=dp(56), padding=(dp(8), 0, dp(12), 0), bg=WHITE,
               on_click=on_click, text=value or placeholder, desc=desc, rid=rid,
               cls="android.widget.Button")


def _framed(row: Row) -> Row:
    """A hairline frame, so a row cut by the list's edge never shows blank."""
    row.border, row.border_width = (238, 238, 238), 2
    return row


def do_search(ctx: Ctx, city: str, checkin: str, checkout: str, guests: int,
              hotel: int = 0) -> Handler:
    """A handler that runs a search: records it, clears the filters, opens the results (a
    property picked as the destination first among its town's)."""
    def h() -> None:
        if not city:
            ctx.toast("Enter your destination to start searching")
            return
        ctx.store["form"] = {"city": city, "hotel": hotel, "checkin": checkin,
                             "checkout": checkout, "guests": guests}
        ts.record_search(ctx.store, city, checkin, checkout, guests)
        ctx.store["filters"] = ts.no_filters()
        ctx.store["sort"] = ts.SORTS[0]
        ctx.push("results", city=city, checkin=checkin, checkout=checkout, guests=guests,
                 pin=hotel)
    return h


def search_tab(ctx: Ctx) -> View:
    """The yellow-framed search box and the recent searches."""
    th = ctx.theme
    f = ctx.store["form"]
    n = ts.nights(f["checkin"], f["checkout"])
    pinned = ts.cat(ctx.store).hotel(int(f.get("hotel", 0)))
    box = Column([
        _form_row("search", pinned.name if pinned is not None else f["city"],
                  "Enter your destination", ctx.go("destination"), "destination",
                  "Destination"),
        _form_row("calendar", f"{stay_label(f['checkin'], f['checkout'])} ({nights_label(n)})",
                  "", ctx.show_dialog("checkin"), "dates", "Dates"),
        _form_row("user", f"{guests_label(f['guests'])} · 1 room", "",
                  ctx.show_dialog("guests"), "guests", "Guests"),
        Text("Search", size=16, weight="medium", color=WHITE, bg=th.primary, align="center",
             height=dp(48), padding=(0, dp(14), 0, 0), radius=dp(4),
             on_click=do_search(ctx, f["city"], f["checkin"], f["checkout"], f["guests"],
                                int(f.get("hotel", 0))),
             rid="search_button", cls="android.widget.Button"),
    ], gap=dp(4), bg=YELLOW, padding=(dp(4), dp(4), dp(4), dp(4)), radius=dp(8))
    rows: list[View] = [
        Column([box], bg=HEADER, padding=(w.MARGIN, dp(8), w.MARGIN, dp(20))),
    ]
    if ctx.store["searches"]:
        rows.append(w.section("Your recent searches", theme=th))
        for s in ctx.store["searches"]:
            label = (f"{stay_label(s['checkin'], s['checkout'])}, "
                     f"{guests_label(s['guests'])}")
            rows.append(_framed(w.list_item(
                s["city"], subtitle=label, theme=th, rid="recent_search",
                leading=Icon("history", size=18, box=40, color=th.on_surface_variant,
                             in_dump=False),
                desc=f"Search {s['city']}, {label}",
                on_click=do_search(ctx, s["city"], s["checkin"], s["checkout"],
                                   s["guests"]))))
    rows.append(Column([
        Text("Travel more, spend less", size=16, weight="bold", color=th.on_surface),
        Text("Sign in to see member prices on thousands of stays.", size=14,
             color=th.on_surface_variant),
    ], gap=dp(4), padding=(w.MARGIN,) * 4, bg=(235, 243, 255), radius=dp(8), in_dump=False))
    offset, on_scroll = ctx.scroll("search")
    return Scroll(rows, gap=dp(4), offset=offset, on_scroll=on_scroll, rid="search_page")


def date_dialog(ctx: Ctx) -> View:
    """Two date pickers in a row: check-in, then check-out (after check-in, 30 nights at
    most); OK on the second one changes the form."""
    th = ctx.theme
    f = ctx.store["form"]
    now = today(ctx)
    stage = ctx.dialog
    checkin = str(ctx.state.get("ci", f["checkin"]))
    # as a range picker does: check-out starts on the night after the chosen check-in
    default = (dt.date.fromisoformat(checkin) + dt.timedelta(days=1)).isoformat() \
        if stage == "checkout" else f["checkin"]
    picked = dt.date.fromisoformat(str(ctx.state.get("pick", default)))
    py, pm = ctx.state.get("pick_ym", (picked.year, picked.month))

    def on_pick(d: dt.date) -> Handler:
        return ctx.setter("pick", d.isoformat())

    def on_month(y: int, m: int) -> Handler:
        return ctx.setter("pick_ym", (y, m))

    def clear() -> None:
        for k in ("pick", "pick_ym", "ci"):
            ctx.state.pop(k, None)

    def ok() -> None:
        if picked < now:
            ctx.toast("Choose a date from today on")
            return
        if stage == "checkin":
            clear()
            ctx.state["ci"] = picked.isoformat()
            ctx.state["_dialog"] = "checkout"
            return
        nights = (picked - dt.date.fromisoformat(checkin)).days
        if nights < 1:
            ctx.toast("Check-out must be after check-in")
            return
        if nights > ts.MAX_NIGHTS:
            ctx.toast(f"Reservations longer than {ts.MAX_NIGHTS} nights are not possible")
            return
        ctx.store["form"] = {**f, "checkin": checkin, "checkout": picked.isoformat()}
        clear()
        ctx.close_dialog()

    def cancel() -> None:
        clear()
        ctx.close_dialog()

    return pickers.date_picker(year=py, month=pm, selected=picked, on_pick=on_pick,
                               on_month=on_month, on_ok=ok, on_cancel=cancel, today=now,
                               title="Check-in date" if stage == "checkin"
                               else "Check-out date", theme=th)


def stepper(label: str, value: int, lo: int, hi: int, key: str, ctx: Ctx) -> Row:
    """A "label  (-) n (+)" row; the buttons are disabled at the ends."""
    th = ctx.theme
    minus = w.icon_button("minus", f"Decrease {label.lower()}",
                          ctx.setter(key, value - 1) if value > lo else None,
                          rid=f"{key}_minus", theme=th,
                          color=th.primary if value > lo else th.outline_variant)
    plus = w.icon_button("plus", f"Increase {label.lower()}",
                         ctx.setter(key, value + 1) if value < hi else None,
                         rid=f"{key}_plus", theme=th,
                         color=th.primary if value < hi else th.outline_variant)
    return Row([Text(label, size=16, color=th.on_surface, flex=1),
                Row([minus, Text(str(value), size=16, weight="medium", align="center",
                                 width=dp(40), color=th.on_surface, rid=f"{key}_count"),
                     plus], border=th.outline_variant, border_width=3, radius=dp(8))],
               height=dp(64), padding=(dp(24), 0, dp(24), 0))


def guests_sheet(ctx: Ctx) -> View:
    """The guests sheet: an adults stepper (1 to 8) and Apply."""
    th = ctx.theme
    n = int(ctx.state.get("adults", ctx.store["form"]["guests"]))

    def apply() -> None:
        ctx.store["form"] = {**ctx.store["form"], "guests": n}
        ctx.state.pop("adults", None)
        ctx.close_dialog()

    return bottom_sheet("Select rooms and guests", [
        stepper("Adults", n, 1, ts.MAX_GUESTS, "adults", ctx),
        Row([w.button("Apply", apply, rid="apply_guests", theme=th, flex=1)],
            padding=(dp(24), dp(8), dp(24), 0)),
    ], theme=th)


def saved_tab(ctx: Ctx) -> View:
    """The saved hotels (a tap opens one for the form's dates; the heart unsaves)."""
    th = ctx.theme
    c = ts.cat(ctx.store)
    hotels = [h for h in (c.hotel(i) for i in ctx.store["saved"]) if h is not None]
    if not hotels:
        return empty(ctx, "heart", "No saved properties yet",
                     "Tap the heart on a property to save it for later.")
    rows: list[View] = [Text(f"{len(hotels)} saved propert{'ies' if len(hotels) != 1 else 'y'}",
                             size=14, color=th.on_surface_variant, rid="saved_count",
                             padding=(w.MARGIN, dp(12), 0, dp(4)))]
    for h in hotels:
        rows.append(Row([
            photo(h, dp(72), dp(72)),
            Column([Text(h.name, size=16, weight="medium", color=th.on_surface, max_lines=2,
                         rid="saved_name"),
                    stars(h.stars),
                    Text(h.city, size=14, color=th.on_surface_variant, rid="saved_city"),
                    rating_badge(h)], gap=dp(4), flex=1),
            save_button(ctx, h)], gap=dp(12), padding=(dp(12), dp(8), dp(4), dp(8)),
            border=th.outline_variant, border_width=2, radius=dp(8),
            on_click=ctx.go("hotel", hotel=h.id), desc=h.name, rid="saved_hotel",
            cls="android.widget.LinearLayout"))
    offset, on_scroll = ctx.scroll("saved")
    return Scroll(rows, gap=dp(8), offset=offset, on_scroll=on_scroll, rid="saved_list",
                  padding=(dp(8), 0, dp(8), dp(16)))


def empty(ctx: Ctx, glyph: str, title: str, text: str) -> Column:
    th = ctx.theme
    return Column([
        Row([View(flex=1, in_dump=False),
             Icon(glyph, size=48, box=96, color=th.primary, in_dump=False),
             View(flex=1, in_dump=False)], in_dump=False),
        Text(title, size=20, weight="medium", align="center", color=th.on_surface,
             rid="empty_title"),
        Text(text, size=14, align="center", color=th.on_surface_variant),
    ], gap=dp(8), padding=(dp(32), dp(64), dp(32), 0), flex=1)


def trips_tab(ctx: Ctx) -> View:
    """Bookings: Upcoming, Past and Cancelled tabs of booking cards."""
    th = ctx.theme
    kind = str(ctx.state.get("trips", "upcoming"))
    tabs = pickers.tabs([(label, kind == k, ctx.setter("trips", k)) for k, label in
                         (("upcoming", "Upcoming"), ("past", "Past"),
                          ("cancelled", "Cancelled"))], theme=th, rid="trip_tabs")
    bookings = ts.trips(ctx.store, kind, today(ctx))
    if not bookings:
        msg = {"upcoming": ("No trips yet", "Where to next? Your upcoming stays show here."),
               "past": ("No past trips", "Stays you have completed show here."),
               "cancelled": ("No cancelled trips", "Bookings you cancel show here.")}[kind]
        return Column([tabs, empty(ctx, "suitcase", *msg)], flex=1)
    c = ts.cat(ctx.store)
    rows: list[View] = []
    for b in bookings:
        h = c.hotel(b["hotel_id"])
        if h is None:
            continue
        status = {"cancelled": ("Cancelled", RED)}.get(
            b["status"] if kind == "cancelled" else "",
            ("Confirmed", GREEN) if kind == "upcoming" else ("Completed", th.on_surface_variant))
        rows.append(w.card([
            Row([photo(h, dp(56), dp(56)),
                 Column([Text(h.name, size=16, weight="medium", color=th.on_surface,
                              max_lines=2, rid="trip_hotel"),
                         Text(f"{stay_label(b['checkin'], b['checkout'])} · {h.city}",
                              size=14, color=th.on_surface_variant, rid="trip_dates"),
                         Text(status[0], size=13, weight="medium", color=status[1],
                              rid="trip_status")], gap=dp(2), flex=1)], gap=dp(12)),
        ], on_click=ctx.go("booking", id=b["id"]), desc=f"{h.name}, "
           f"{stay_label(b['checkin'], b['checkout'])}", rid="trip_card", theme=th,
            elevated=True))
    offset, on_scroll = ctx.scroll(f"trips_{kind}")
    return Column([tabs, Scroll(rows, gap=dp(8), offset=offset, on_scroll=on_scroll,
                                padding=(w.MARGIN, dp(12), w.MARGIN, dp(12)),
                                rid="trip_list")], flex=1)


# -- destination -------------------------------------------------------------------------------
def suggestion(label: str, on_click: Handler, th: w.Theme, glyph: str = "location_dot") -> Row:
    """A destination suggestion (a pin and "City, ST", or a property and its town), as the
    system's suggestion rows are dumped, with a hairline frame so a row cut by the list's
    edge never shows blank."""
    return Row([Icon(glyph, size=18, box=24, color=th.on_surface_variant,
                     in_dump=False),
                Text(label, size=16, color=th.on_surface, max_lines=1, flex=1, in_dump=False)],
               gap=dp(20), height=dp(56), padding=(dp(24), 0, dp(24), 0), on_click=on_click,
               text=label, rid="suggestion", cls="android.widget.TextView",
               border=(238, 238, 238), border_width=2)


def destination(ctx: Ctx) -> View | Page:
    """Type a destination or a property's name; the towns with stays that match show as
    suggestions (all of them, as "Popular destinations", before anything is typed), then
    the matching properties (from three letters on)."""
    th = ctx.theme
    q, on_q = ctx.field("q")
    c = ts.cat(ctx.store)
    states = {h.city: h.state for h in c.hotels}
    needle = q.strip().lower()
    cities = [x for x in c.cities() if needle in x.lower()]
    props = [h for h in c.hotels if len(needle) >= 3 and needle in h.name.lower()]

    def choose(city: str, hotel: int = 0) -> Handler:
        def h() -> None:
            ctx.store["form"] = {**ctx.store["form"], "city": city, "hotel": hotel}
            ctx.pop()
        return h

    field = w.text_field("q", q, on_text=on_q, hint="Destination or property name",
                         rid="destination_input", outlined=False, flex=1)
    rows: list[View] = []
    if cities or props:
        if not q.strip():
            rows.append(w.section("Popular destinations", theme=th))
        rows += [suggestion(f"{x}, {states[x]}", choose(x), th) for x in cities]
        rows += [suggestion(f"{h.name}, {h.city}", choose(h.city, h.id), th, "hotel")
                 for h in props]
    else:
        rows.append(Text(f'We couldn\'t find "{q.strip()}". Check the spelling or try '
                         "another destination.", size=15, color=th.on_surface_variant,
                         rid="no_destination", padding=(dp(24), dp(24), dp(24), 0)))
    offset, on_scroll = ctx.scroll()
    return Page(Column([
        Row([w.icon_button("back", "Navigate up", ctx.pop, theme=th), field], gap=dp(4),
            height=dp(64), padding=(dp(4), 0, w.MARGIN, 0), bg=th.surface_container),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="destination_list"),
    ], bg=th.surface))


# -- results -----------------------------------------------------------------------------------
def hotel_card(ctx: Ctx, h: Hotel, checkin: str, checkout: str, guests: int) -> View:
    """A result: photo, name, stars, score, distance, perks, and the price for the stay and
    per night (or "Sold out on your dates")."""
    th = ctx.theme
    price = ts.from_price(h, checkin, checkout, guests)
    n = ts.nights(checkin, checkout)
    info: list[View] = [
        Row([Text(h.name, size=16, weight="bold", color=th.on_surface, max_lines=2, flex=1,
                  rid="hotel_name"), save_button(ctx, h)], gap=dp(4)),
        stars(h.stars),
        rating_badge(h),
        Text(f"{h.distance:.1f} mi from downtown", size=13, color=th.on_surface_variant,
             rid="hotel_distance"),
    ]
    if h.free_cancellation:
        info.append(perk("Free cancellation", "free_cancellation"))
    if h.breakfast:
        info.append(perk("Breakfast included", "breakfast", "mug_hot"))
    if not ts.fits(h, guests):
        info.append(Text(f"No rooms for {guests_label(guests)}", size=14, weight="medium",
                         color=RED, rid="sold_out"))
    elif price is None:
        info.append(Text("Sold out on your dates", size=14, weight="medium", color=RED,
                         rid="sold_out"))
    else:
        info += [
            Text(f"{nights_label(n)}, {guests_label(guests)}", size=12,
                 color=th.on_surface_variant, align="right"),
            Text(f"${price * n:,}", size=20, weight="bold", color=th.on_surface, align="right",
                 rid="stay_price"),
            Text(f"${price} per night", size=13, color=th.on_surface_variant, align="right",
                 rid="night_price"),
        ]
    return Row([photo(h, dp(104), dp(150)), Column(info, gap=dp(3), flex=1)], gap=dp(12),
               padding=(dp(12), dp(12), dp(4), dp(12)), border=th.outline_variant,
               border_width=2, radius=dp(8),
               on_click=ctx.go("hotel", hotel=h.id, checkin=checkin, checkout=checkout,
                               guests=guests),
               desc=h.name, rid="hotel_card", cls="android.widget.LinearLayout")


def results(ctx: Ctx) -> View | Page:
    """The hotels of a search: the search summary (a tap goes back to change it), Sort and
    Filter, the count and the cards."""
    th = ctx.theme
    city = str(ctx.args.get("city", ctx.store["form"]["city"]))
    checkin, checkout = str(ctx.args["checkin"]), str(ctx.args["checkout"])
    guests = int(ctx.args["guests"])
    hotels = ts.results(ctx.store, city, checkin, checkout, guests)
    pin = int(ctx.args.get("pin", 0))
    hotels = [h for h in hotels if h.id == pin] + [h for h in hotels if h.id != pin]
    summary = Row([
        w.icon_button("back", "Navigate up", ctx.pop, color=(26, 26, 26)),
        Column([Text(city, size=16, weight="bold", color=(26, 26, 26), max_lines=1,
                     rid="results_city"),
                Text(f"{short_day(checkin)} - {short_day(checkout)} · {guests_label(guests)}",
                     size=13, color=(60, 60, 60), max_lines=1, rid="results_stay")],
               flex=1, on_click=ctx.pop, desc="Edit search", rid="search_summary",
               cls="android.widget.LinearLayout"),
    ], bg=WHITE, radius=dp(6), border=YELLOW, border_width=8, height=dp(60),
        padding=(0, 0, dp(8), 0))
    nf = ts.active_filters(ctx.store)
    tools = Row([
        Row([Icon("sort", size=16, box=24, color=th.primary, in_dump=False),
             Text("Sort", size=14, weight="medium", color=th.primary, in_dump=False)],
            gap=dp(6), flex=1, height=dp(48), padding=(dp(40), 0, 0, 0),
            on_click=ctx.show_dialog("sort"), text="Sort", rid="sort_button",
            cls="android.widget.Button"),
        Row([Icon("sliders", size=16, box=24, color=th.primary, in_dump=False),
             Text(f"Filter ({nf})" if nf else "Filter", size=14, weight="medium",
                  color=th.primary, in_dump=False)],
            gap=dp(6), flex=1, height=dp(48), padding=(dp(40), 0, 0, 0),
            on_click=ctx.go("filters", city=city, checkin=checkin, checkout=checkout,
                            guests=guests, pin=pin),
            text=f"Filter ({nf})" if nf else "Filter", rid="filter_button",
            cls="android.widget.Button"),
    ], bg=th.surface, border=th.outline_variant, border_width=2)
    rows: list[View] = [Text(f"{len(hotels)} propert{'ies' if len(hotels) != 1 else 'y'}"
                             f" · Sorted by {ctx.store['sort'].lower()}", size=13,
                             color=th.on_surface_variant, rid="results_count",
                             padding=(w.MARGIN, dp(12), w.MARGIN, dp(4)))]
    rows += [hotel_card(ctx, h, checkin, checkout, guests) for h in hotels]
    if not hotels:
        rows.append(Text("No properties match your filters. Try removing some.", size=15,
                         color=th.on_surface_variant, rid="no_results",
                         padding=(w.MARGIN, dp(24), w.MARGIN, 0)))
    offset, on_scroll = ctx.scroll()
    body = Column([
        Column([summary], bg=HEADER, padding=(dp(8), dp(8), dp(8), dp(8))),
        tools,
        Scroll(rows, gap=dp(8), offset=offset, on_scroll=on_scroll, rid="results_list",
               padding=(dp(8), 0, dp(8), dp(16))),
    ], bg=th.surface)
    return Page(body, dialog=sort_sheet(ctx) if ctx.dialog == "sort" else None)


def sort_sheet(ctx: Ctx) -> View:
    """Sort by: top picks, price, rating or distance (the current one checked)."""
    def pick(sort: str) -> Handler:
        def h() -> None:
            ctx.store["sort"] = sort
            ctx.close_dialog()
        return h

    glyphs = dict(zip(ts.SORTS, ("star", "tag", "heart", "location_dot")))
    return bottom_sheet("Sort by", [("check" if ctx.store["sort"] == s else glyphs[s], s,
                                     pick(s)) for s in ts.SORTS], theme=ctx.theme)


# -- filters -----------------------------------------------------------------------------------
def filters(ctx: Ctx) -> View | Page:
    """Filter by budget per night, star rating, free cancellation and breakfast; the button
    shows how many properties match and goes back to them."""
    th = ctx.theme
    f = ctx.store["filters"]
    city = str(ctx.args["city"])
    checkin, checkout = str(ctx.args["checkin"]), str(ctx.args["checkout"])
    guests = int(ctx.args["guests"])
    count = len(ts.results(ctx.store, city, checkin, checkout, guests))

    def set_price(label: str) -> Handler:
        def h() -> None:
            f["price"] = "" if f["price"] == label else label
        return h

    def set_star(n: int) -> Handler:
        def h() -> None:
            f["stars"] = sorted(set(f["stars"]) ^ {n})
        return h

    def flip(key: str) -> Handler:
        def h() -> None:
            f[key] = not f[key]
        return h

    def reset() -> None:
        ctx.store["filters"] = ts.no_filters()

    width = 1080 - 2 * w.MARGIN
    kids: list[View] = [
        Text("Your budget (per night)", size=16, weight="bold", color=th.on_surface),
        w.wrap_row([w.chip(label, selected=f["price"] == label, on_click=set_price(label),
                           rid="price_chip", theme=th) for label in ts.PRICE_BUCKETS], width),
        Text("Property rating", size=16, weight="bold", color=th.on_surface),
        w.wrap_row([w.chip(f"{n} stars", selected=n in f["stars"], on_click=set_star(n),
                           rid="star_chip", theme=th) for n in (2, 3, 4, 5)], width),
        Text("Popular filters", size=16, weight="bold", color=th.on_surface),
        controls.switch_row("Free cancellation", f["free_cancellation"],
                            flip("free_cancellation"), rid="filter_free_cancellation",
                            theme=th),
        controls.switch_row("Breakfast included", f["breakfast"], flip("breakfast"),
                            rid="filter_breakfast", theme=th),
    ]
    offset, on_scroll = ctx.scroll()
    label = f"Show {count} propert{'ies' if count != 1 else 'y'}"
    body = Column([
        header(ctx, "Filter by", actions=[
            Text("Reset", size=15, weight="medium", color=WHITE, on_click=reset,
                 rid="reset_filters", cls="android.widget.Button",
                 padding=(dp(12), dp(14), dp(12), dp(14)), enabled=bool(
                     ts.active_filters(ctx.store)))]),
        Scroll(kids, gap=dp(12), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(16), w.MARGIN, dp(16)), rid="filter_list"),
        Row([w.button(label, ctx.pop, rid="show_results", theme=th, flex=1,
                      height=dp(48))], padding=(w.MARGIN, dp(8), w.MARGIN, dp(12)),
            bg=th.surface_container),
    ], bg=th.surface)
    return Page(body)

