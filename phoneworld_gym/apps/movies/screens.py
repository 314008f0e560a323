"""Movie-ticket screens: films, a film's showtimes, the seat map, the booked ticket (with
"Share to chat") and my tickets."""

from __future__ import annotations

from phoneworld_gym.app import Page
from phoneworld_gym.apps.movies import store as mv
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import mini_app_bar
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

WHITE = (255, 255, 255)
DARK = (24, 22, 34)
POSTERS = [(196, 69, 54), (48, 102, 190), (236, 164, 0), (90, 60, 140), (46, 139, 87)]
FREE, TAKEN, MINE = (150, 148, 172), (62, 60, 74), (229, 57, 53)


def header(ctx: Ctx, title: str, *, actions: list[View] | None = None) -> Row:
    """The dark cinema bar, with the mini-program's close button."""
    return mini_app_bar(ctx, title, actions=actions or (), bg=DARK)


def films(ctx: Ctx) -> View:
    """Now showing: every film with its genre, length and rating."""
    rows: list[View] = []
    for i, (title, genre, mins, rating) in enumerate(mv.FILMS):
        poster = Icon("film", size=26, width=dp(56), height=dp(80), color=WHITE,
                      bg=POSTERS[i % len(POSTERS)], radius=dp(6))
        rows.append(w.list_item(title, subtitle=f"{genre} · {mins // 60} h {mins % 60} min · "
                                f"{rating}", leading=poster, rid="film", theme=ctx.theme,
                                on_click=ctx.go("film", film=title), desc=title))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "Now showing", actions=[w.icon_button(
        "receipt", "My tickets", ctx.go("tickets"), rid="my_tickets", theme=ctx.theme)]),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="film_list")],
        bg=ctx.theme.surface)


def film(ctx: Ctx) -> View:
    """A film's showtimes, today and tomorrow, with the seats left."""
    title = str(ctx.args["film"])
    rows: list[View] = []
    for day in mv.DAYS:
        rows.append(w.section(day, theme=ctx.theme))
        chips: list[View] = []
        for s in ctx.store["shows"]:
            if s["film"] != title or s["day"] != day:
                continue
            left = len(mv.seat_names()) - len(mv.sold(ctx.store, s["id"]))
            chip = w.chip(f"{s['time']} · ${s['price']:.2f}", on_click=ctx.go("seats",
                                                                             show=s["id"]),
                          rid="showtime", theme=ctx.theme)
            chip.desc = f"{day} {s['time']}, {left} seats left"
            chips.append(chip)
        rows.append(Row([w.wrap_row(chips, 1080 - 2 * w.MARGIN)],
                        padding=(w.MARGIN, 0, w.MARGIN, dp(8))))
    return Column([header(ctx, title), Column(rows, flex=1)], bg=ctx.theme.surface)


def seat_cell(ctx: Ctx, name: str, state: str, on_click: Handler | None) -> View:
    color = {"free": FREE, "taken": TAKEN, "mine": MINE}[state]
    words = {"free": "available", "taken": "sold", "mine": "selected"}[state]
    return Text(name if state == "mine" else "", size=10, color=WHITE, align="center",
                bg=color, radius=dp(6), width=dp(38), height=dp(34), line_height=2.6,
                on_click=on_click, desc=f"Seat {name}, {words}", rid="seat",
                selected=state == "mine", cls="android.widget.CheckBox")


def seats(ctx: Ctx) -> Page:
    """The hall: tap free seats to select them (tap again to release), then Buy."""
    s = mv.show(ctx.store, int(ctx.args["show"]))
    chosen: list[str] = list(ctx.args.get("chosen", []))
    gone = mv.sold(ctx.store, s["id"])

    def toggle(name: str) -> Handler:
        def h() -> None:
            picked = [x for x in chosen if x != name] + ([] if name in chosen else [name])
            ctx.replace("seats", show=s["id"], chosen=picked)  # the selection is the activity

        return h

    grid: list[View] = [Row([View(flex=1, in_dump=False),
                             Text("SCREEN", size=12, weight="medium", color=(200, 200, 210),
                                  align="center", width=dp(240), bg=(90, 88, 110),
                                  radius=dp(4), in_dump=False),
                             View(flex=1, in_dump=False)], padding=(0, dp(8), 0, dp(16)))]
    for r in mv.ROWS:
        cells: list[View] = [Text(r, size=12, color=(200, 200, 210), width=dp(16),
                                  in_dump=False)]
        for c in range(1, mv.COLS + 1):
            name = f"{r}{c}"
            state = "taken" if name in gone else "mine" if name in chosen else "free"
            cells.append(seat_cell(ctx, name, state, None if state == "taken"
                                   else toggle(name)))
        grid.append(Row([View(flex=1, in_dump=False), *cells, View(flex=1, in_dump=False)],
                        gap=dp(6)))
    total = s["price"] * len(chosen)
    label = f"Buy {len(chosen)} ticket{'s' if len(chosen) != 1 else ''} · ${total:.2f}"

    def buy() -> None:
        b = mv.book(ctx.store, s["id"], chosen)
        ctx.close_dialog()
        ctx.replace("ticket", booking=b["id"])

    body = Column([
        header(ctx, s["film"]),
        Text(f"{s['day']} · {s['time']} · ${s['price']:.2f} per seat", size=14,
             color=ctx.theme.on_surface_variant, rid="show_info",
             padding=(w.MARGIN, dp(8), w.MARGIN, 0)),
        Row([Column(grid, gap=dp(8), padding=(0, dp(8), 0, dp(16)), bg=DARK, radius=dp(16),
                    flex=1)], padding=(dp(8), 0, dp(8), 0)),
        Text("Selected: " + (", ".join(sorted(chosen, key=lambda x: (x[0], int(x[1:]))))
                             or "none"), size=15, color=ctx.theme.on_surface,
             rid="selected_seats", padding=(w.MARGIN, 0, w.MARGIN, 0)),
        View(flex=1, in_dump=False),
        Row([w.button(label, ctx.show_dialog("buy") if chosen else None, enabled=bool(chosen),
                      rid="buy", theme=ctx.theme, flex=1)],
            padding=(w.MARGIN, dp(8), w.MARGIN, dp(16))),
    ], gap=dp(8), bg=ctx.theme.surface)
    dlg = None
    if ctx.dialog == "buy":
        dlg = w.dialog("Confirm purchase", f"{label} for {s['film']}, {s['day'].lower()} "
                       f"{s['time']}?", [("Cancel", ctx.close_dialog), ("Buy", buy)],
                       theme=ctx.theme)
    return Page(body, dialog=dlg)


def ticket(ctx: Ctx) -> View:
    """A booking: the code to show at the door, film, time, seats; Share to chat."""
    b = next((x for x in ctx.store["bookings"] if x["id"] == int(ctx.args["booking"])), None)
    if b is None:
        return Column([header(ctx, "Ticket"), Text("Booking not found", size=16,
                                                   rid="empty_text")], bg=ctx.theme.surface)
    card = w.card([Text(b["film"], size=20, weight="medium", color=ctx.theme.on_surface,
                        rid="ticket_film"),
                   Text(f"{b['day']} · {b['time']}", size=15,
                        color=ctx.theme.on_surface_variant, rid="ticket_time"),
                   Text("Seats " + ", ".join(b["seats"]), size=15, color=ctx.theme.on_surface,
                        rid="ticket_seats"),
                   Text(f"Total ${b['total']:.2f}", size=15, color=ctx.theme.on_surface,
                        rid="ticket_total"),
                   Text(b["code"], size=32, weight="bold", align="center",
                        color=ctx.theme.primary, rid="booking_code")],
                  theme=ctx.theme, elevated=True)
    return Column([header(ctx, "Your ticket"),
                   Column([card,
                           w.button("Share to chat", ctx.share_to_host(text=mv.summary(b)),
                                    rid="share_to_chat", theme=ctx.theme),
                           w.button("Done", lambda: ctx.reset_to("films"), style="text",
                                    rid="done", theme=ctx.theme)],
                          gap=dp(16), padding=(w.MARGIN, dp(24), w.MARGIN, dp(16)), flex=1)],
                  bg=ctx.theme.surface)


def tickets(ctx: Ctx) -> View:
    """My tickets, newest first."""
    rows: list[View] = [w.list_item(f"{b['film']} · {b['code']}",
                                    subtitle=f"{b['day']} {b['time']} · seats "
                                             f"{', '.join(b['seats'])}",
                                    rid="booking", theme=ctx.theme,
                                    on_click=ctx.go("ticket", booking=b["id"]))
                        for b in sorted(ctx.store["bookings"], key=lambda b: -b["id"])]
    if not rows:
        rows.append(Text("No tickets yet", size=16, align="center", rid="empty_text",
                         color=ctx.theme.on_surface_variant, padding=(0, dp(48), 0, 0)))
    offset, on_scroll = ctx.scroll()
    return Column([header(ctx, "My tickets"),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="ticket_list")],
                  bg=ctx.theme.surface)
