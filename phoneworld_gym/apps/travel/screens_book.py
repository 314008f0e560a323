"""Travel screens for a property and a booking, like Booking.com: the hotel (photo, stars,
score, address that opens Maps, facilities, the rooms with their price or "Sold out on your
dates"), the two booking steps (your details with the owner's name and email filled in, then
the final review with "Book now") and a booking (confirmation, dates, total, directions,
share, cancel)."""

from __future__ import annotations

from phoneworld_gym.app import Page
from phoneworld_gym.apps.travel import store as ts
from phoneworld_gym.apps.travel.catalogue import Hotel, Room
from phoneworld_gym.apps.travel.parts import (
    GREEN,
    RED,
    WHITE,
    guests_label,
    header,
    long_day,
    nights_label,
    perk,
    photo,
    rating_badge,
    save_button,
    stars,
    stay,
    stay_args,
    stay_label,
)
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.system import intents
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Icon, Row, Scroll, Text, View, dp

CHECK_IN_TIME = "from 3:00 PM"
CHECK_OUT_TIME = "until 11:00 AM"


def _missing(ctx: Ctx, what: str) -> Page:
    return Page(Column([header(ctx, what),
                        w.text(f"This {what.lower()} is no longer available.",
                               padding=(w.MARGIN,) * 4)], bg=ctx.theme.surface))


def address_row(ctx: Ctx, h: Hotel) -> Row:
    """The address with a pin; a tap opens it in a maps app (a ``geo:`` intent)."""
    th = ctx.theme
    return Row([Icon("location_dot", size=16, box=24, color=th.primary, in_dump=False),
                Text(h.address, size=14, color=th.primary, flex=1, max_lines=2,
                     in_dump=False)],
               gap=dp(6), on_click=ctx.open_uri(intents.uri_for("geo", h.address)),
               text=h.address, desc="Show on map", rid="hotel_address",
               padding=(0, dp(8), 0, dp(8)), cls="android.widget.TextView")


# -- hotel -------------------------------------------------------------------------------------
def room_card(ctx: Ctx, h: Hotel, r: Room) -> View:
    """A room: its name, how many it sleeps, price per night and for the stay, and Select
    (or why it cannot be booked)."""
    th = ctx.theme
    checkin, checkout, guests = stay(ctx)
    n = ts.nights(checkin, checkout)
    kids: list[View] = [
        Text(r.name, size=16, weight="bold", color=th.primary, rid="room_name"),
        Row([Icon("user", size=12, box=16, color=th.on_surface_variant, in_dump=False),
             Text(f"Sleeps {r.sleeps}", size=13, color=th.on_surface_variant,
                  rid="room_sleeps")], gap=dp(6)),
    ]
    if h.free_cancellation:
        kids.append(perk("Free cancellation before check-in", "room_free_cancellation"))
    else:
        kids.append(Text("Non-refundable", size=13, color=th.on_surface_variant,
                         rid="room_policy"))
    if h.breakfast:
        kids.append(perk("Breakfast included", "room_breakfast", "mug_hot"))
    if r.sleeps < guests:
        kids.append(Text(f"Not suitable for {guests_label(guests)}", size=14,
                         weight="medium", color=th.on_surface_variant, rid="too_small"))
    elif r.id not in {x.id for x in ts.free_rooms(h, checkin, checkout, guests)}:
        kids.append(Text("Sold out on your dates", size=14, weight="medium", color=RED,
                         rid="room_sold_out"))
    else:
        select = w.button("Select", ctx.go("details", hotel=h.id, room=r.id, checkin=checkin,
                                           checkout=checkout, guests=guests),
                          rid="select_room", theme=th, width=dp(120))
        select.desc = f"Select {r.name}"
        kids.append(Row([Column([
            Text(f"${r.price * n:,}", size=20, weight="bold", color=th.on_surface,
                 rid="room_total"),
            Text(f"${r.price} per night · {nights_label(n)}", size=13,
                 color=th.on_surface_variant, rid="room_price")], flex=1), select],
            gap=dp(8)))
    return w.card(kids, theme=th, elevated=True, gap=dp(6), desc=r.name, rid="room_card")


def hotel(ctx: Ctx) -> View | Page:
    """A property for the stay it was opened with: name, stars, score, address, perks,
    facilities and its rooms."""
    th = ctx.theme
    h = ts.cat(ctx.store).hotel(int(ctx.args.get("hotel", 0)))
    if h is None:
        return _missing(ctx, "Property")
    checkin, checkout, guests = stay(ctx)
    share = ctx.share(text=f"{h.name}\n{h.address}", subject=h.name)
    kids: list[View] = [
        photo(h, 1080 - 2 * w.MARGIN, dp(180)),
        stars(h.stars),
        Text(h.name, size=22, weight="bold", color=th.on_surface, rid="hotel_title"),
        address_row(ctx, h),
        rating_badge(h),
        Text(f"{h.distance:.1f} mi from downtown", size=14, color=th.on_surface_variant,
             rid="hotel_distance"),
        Text("Most popular facilities", size=16, weight="bold", color=th.on_surface),
        w.wrap_row([Text(f, size=13, color=th.on_surface, border=th.outline_variant,
                         border_width=2, radius=dp(6), padding=(dp(10), dp(6), dp(10), dp(6)),
                         rid="facility") for f in h.facilities], 1080 - 2 * w.MARGIN),
        Column([Text("Your stay", size=14, weight="bold", color=th.on_surface),
                Text(f"{stay_label(checkin, checkout)} · "
                     f"{nights_label(ts.nights(checkin, checkout))} · {guests_label(guests)}",
                     size=14, color=th.on_surface_variant, rid="hotel_stay")],
               gap=dp(2), bg=(235, 243, 255), radius=dp(8), padding=(dp(12),) * 4),
        Text("Choose your room", size=18, weight="bold", color=th.on_surface),
        *[room_card(ctx, h, r) for r in h.rooms],
    ]
    offset, on_scroll = ctx.scroll()
    body = Column([
        header(ctx, h.name, actions=[save_button(ctx, h, color=WHITE),
                                     w.icon_button("share", "Share", share, rid="share",
                                                   color=WHITE)]),
        Scroll(kids, gap=dp(10), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(12), w.MARGIN, dp(24)), rid="hotel_page"),
    ], bg=th.surface)
    return Page(body)


# -- the two booking steps ---------------------------------------------------------------------
def _booking_summary(ctx: Ctx, h: Hotel, r: Room) -> Column:
    th = ctx.theme
    checkin, checkout, guests = stay(ctx)
    n = ts.nights(checkin, checkout)
    return w.card([
        Text(h.name, size=16, weight="bold", color=th.on_surface, rid="summary_hotel"),
        Text(h.address, size=13, color=th.on_surface_variant, rid="summary_address"),
        Row([Column([Text("Check-in", size=12, color=th.on_surface_variant),
                     Text(long_day(checkin), size=14, weight="medium", color=th.on_surface,
                          rid="summary_checkin"),
                     Text(CHECK_IN_TIME, size=12, color=th.on_surface_variant)], flex=1),
             Column([Text("Check-out", size=12, color=th.on_surface_variant),
                     Text(long_day(checkout), size=14, weight="medium", color=th.on_surface,
                          rid="summary_checkout"),
                     Text(CHECK_OUT_TIME, size=12, color=th.on_surface_variant)], flex=1)],
            gap=dp(12)),
        Text(f"{r.name} · {nights_label(n)} · {guests_label(guests)}", size=14,
             color=th.on_surface, rid="summary_room"),
        Row([Text("Total price", size=16, weight="bold", color=th.on_surface, flex=1),
             Text(f"${r.price * n:,}", size=20, weight="bold", color=th.on_surface,
                  rid="summary_total")]),
    ], theme=th, elevated=True, gap=dp(6))


def _picked(ctx: Ctx) -> tuple[Hotel | None, Room | None]:
    c = ts.cat(ctx.store)
    h = c.hotel(int(ctx.args.get("hotel", 0)))
    r = c.room(int(ctx.args.get("room", 0)))
    return (h, r) if h is not None and r is not None and r.hotel_id == h.id else (None, None)


def details(ctx: Ctx) -> View | Page:
    """Step 1 of 2, "Enter your details": the guest's full name and email (the owner's,
    filled in); Next checks them."""
    th = ctx.theme
    h, r = _picked(ctx)
    if h is None or r is None:
        return _missing(ctx, "Room")
    name, on_name = ctx.field("name", ctx.store["guest"]["name"])
    email, on_email = ctx.field("email", ctx.store["guest"]["email"])
    err = str(ctx.state.get("error", ""))

    def nxt() -> None:
        if not name.strip():
            ctx.state["error"] = "Enter the full name of the guest"
            return
        if "@" not in email or "." not in email.split("@")[-1]:
            ctx.state["error"] = "Enter a valid email address"
            return
        ctx.state.pop("error", None)
        ctx.push("review", hotel=h.id, room=r.id, guest_name=name.strip(),
                 email=email.strip(), **stay_args(ctx))

    kids: list[View] = [
        _booking_summary(ctx, h, r),
        Text("Enter your details", size=18, weight="bold", color=th.on_surface),
        w.text_field("name", name, on_text=on_name, label="Full name", rid="guest_name"),
        w.text_field("email", email, on_text=on_email, label="Email address",
                     rid="guest_email"),
        Text("Your confirmation will be sent to this email.", size=13,
             color=th.on_surface_variant),
    ]
    if err:
        kids.append(Text(err, size=14, color=th.error, rid="error_text"))
    offset, on_scroll = ctx.scroll()
    return Page(Column([
        header(ctx, "Your details", subtitle="Step 1 of 2"),
        Scroll(kids, gap=dp(12), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(12), w.MARGIN, dp(24)), rid="details_page"),
        Row([w.button("Next: Final step", nxt, rid="next_step", theme=th, flex=1,
                      height=dp(48))], padding=(w.MARGIN, dp(8), w.MARGIN, dp(12)),
            bg=th.surface_container),
    ], bg=th.surface))


def review(ctx: Ctx) -> View | Page:
    """Step 2 of 2, "Review your booking": everything once more, the cancellation policy,
    and Book now (refused if the room sold out meanwhile)."""
    th = ctx.theme
    h, r = _picked(ctx)
    if h is None or r is None:
        return _missing(ctx, "Room")
    checkin, checkout, guests = stay(ctx)
    guest = str(ctx.args.get("guest_name", ctx.store["guest"]["name"]))

    def book() -> None:
        if r not in ts.free_rooms(h, checkin, checkout, guests):
            ctx.toast("Sorry, this room just sold out for your dates")
            return
        b = ts.add_booking(ctx.store, h, r, checkin, checkout, guests, guest)
        ctx.reset_to("main", tab="trips")
        ctx.push("booking", id=b["id"], new=True)

    policy = ("Free cancellation before check-in" if h.free_cancellation else
              "Non-refundable: you'll pay the full price if you cancel")
    kids: list[View] = [
        _booking_summary(ctx, h, r),
        w.card([Text("Guest", size=12, color=th.on_surface_variant),
                Text(guest, size=16, weight="medium", color=th.on_surface, rid="review_guest"),
                Text(str(ctx.args.get("email", "")), size=14, color=th.on_surface_variant,
                     rid="review_email")], theme=th, elevated=True, gap=dp(4)),
        Text(policy, size=14, weight="medium",
             color=GREEN if h.free_cancellation else th.on_surface_variant,
             rid="review_policy"),
        Text("By tapping Book now you agree to the property's house rules and our booking "
             "terms.", size=12, color=th.on_surface_variant),
    ]
    offset, on_scroll = ctx.scroll()
    return Page(Column([
        header(ctx, "Final step", subtitle="Step 2 of 2 · Review your booking"),
        Scroll(kids, gap=dp(12), offset=offset, on_scroll=on_scroll,
               padding=(w.MARGIN, dp(12), w.MARGIN, dp(24)), rid="review_page"),
        Row([w.button("Book now", book, rid="book_now", theme=th, flex=1, height=dp(48))],
            padding=(w.MARGIN, dp(8), w.MARGIN, dp(12)), bg=th.surface_container),
    ], bg=th.surface))


# -- a booking ---------------------------------------------------------------------------------
def booking(ctx: Ctx) -> View | Page:
    """A booking: the confirmation banner after booking, its number, the stay, the total,
    Directions and Share, and Cancel booking (a confirmation dialog) while it is upcoming."""
    th = ctx.theme
    b = ts.find_booking(ctx.store, ctx.args.get("id"))
    c = ts.cat(ctx.store)
    h = c.hotel(b["hotel_id"]) if b is not None else None
    r = c.room(b["room_id"]) if b is not None else None
    if b is None or h is None or r is None:
        return _missing(ctx, "Booking")
    upcoming = ts.is_upcoming(b, ctx.time().date())
    cancelled = b["status"] == "cancelled"
    status = "Cancelled" if cancelled else "Confirmed" if upcoming else "Completed"
    kids: list[View] = []
    if ctx.args.get("new") and not cancelled:
        kids.append(Row([Icon("circle_check", size=22, box=32, color=GREEN, in_dump=False),
                         Text(f"Your booking in {h.city} is confirmed.", size=16,
                              weight="medium", color=GREEN, flex=1, rid="confirmed_banner")],
                        gap=dp(8), bg=(232, 245, 233), radius=dp(8), padding=(dp(12),) * 4))
    kids += [
        photo(h, 1080 - 2 * w.MARGIN, dp(140)),
        Text(h.name, size=22, weight="bold", color=th.on_surface, rid="booking_hotel"),
        address_row(ctx, h),
        Text(status, size=14, weight="bold", rid="booking_status",
             color=RED if cancelled else GREEN if upcoming else th.on_surface_variant),
        w.card([
            Row([Column([Text("Check-in", size=12, color=th.on_surface_variant),
                         Text(long_day(b["checkin"]), size=14, weight="medium",
                              color=th.on_surface, rid="booking_checkin"),
                         Text(CHECK_IN_TIME, size=12, color=th.on_surface_variant)], flex=1),
                 Column([Text("Check-out", size=12, color=th.on_surface_variant),
                         Text(long_day(b["checkout"]), size=14, weight="medium",
                              color=th.on_surface, rid="booking_checkout"),
                         Text(CHECK_OUT_TIME, size=12, color=th.on_surface_variant)],
                        flex=1)], gap=dp(12)),
            Text(f"{r.name} · {nights_label(ts.nights(b['checkin'], b['checkout']))} · "
                 f"{guests_label(b['guests'])}", size=14, color=th.on_surface,
                 rid="booking_room"),
            Text(f"Guest: {b['guest_name']}", size=14, color=th.on_surface,
                 rid="booking_guest"),
            Text(f"Confirmation number: {b['confirmation']}", size=14, color=th.on_surface,
                 rid="booking_confirmation"),
            Row([Text("Total price", size=16, weight="bold", color=th.on_surface, flex=1),
                 Text(f"${b['total']:,}", size=20, weight="bold", color=th.on_surface,
                      rid="booking_total")]),
        ], theme=th, elevated=True, gap=dp(6)),
    ]
    share = ctx.share(text=f"I'm staying at {h.name}, {h.address}, "
                           f"{stay_label(b['checkin'], b['checkout'])}.",
                      subject=f"My stay at {h.name}")
    kids.append(Row([w.button("Directions", ctx.open_uri(intents.uri_for("geo", h.address)),
                              style="outlined", rid="directions", theme=th, flex=1),
                     w.button("Share", share, style="outlined", rid="share_booking", theme=th,
                              flex=1)], gap=dp(8)))
    if upcoming and not cancelled:
        kids.append(w.button("Cancel booking", ctx.show_dialog("cancel"), style="text",
                             rid="cancel_booking", theme=th))
    offset, on_scroll = ctx.scroll()
    body = Column([header(ctx, "Booking details"),
                   Scroll(kids, gap=dp(10), offset=offset, on_scroll=on_scroll,
                          padding=(w.MARGIN, dp(12), w.MARGIN, dp(24)), rid="booking_page")],
                  bg=th.surface)
    dlg = None
    if ctx.dialog == "cancel":
        def cancel() -> None:
            b["status"] = "cancelled"
            ctx.close_dialog()
            ctx.toast("Booking cancelled")

        fee = ("You won't be charged: this booking has free cancellation."
               if h.free_cancellation else
               f"This booking is non-refundable: you'll still be charged ${b['total']:,}.")
        dlg = w.dialog("Cancel this booking?", f"{h.name}, "
                       f"{stay_label(b['checkin'], b['checkout'])}. {fee}",
                       [("Keep booking", ctx.close_dialog), ("Cancel booking", cancel)],
                       theme=th)
    return Page(body, dialog=dlg)
