"""The Calendar's week view: seven day columns over an hour grid, an event block in its
start day's column at its start time, week stepping, and a tap opening the event."""

from __future__ import annotations

import datetime as dt

import pytest

from phoneworld_gym.apps.calendar import screens
from phoneworld_gym.apps.calendar import store as cs
from phoneworld_gym.contract import Action, UIElement
from phoneworld_gym.oracle import elements, tap, text_of
from phoneworld_gym.phone import PhoneWorldDevice

NOW = dt.datetime(2026, 3, 14, 10, 30)
SUNDAY = dt.date(2026, 3, 8)  # the week holding the frozen clock's Saturday


@pytest.fixture
def phone() -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps=["calendar", "contacts"], screenshot_size=(108, 240))
    d.reset(0)
    d.execute(Action("open_app", app_name="Calendar"))
    d.execute(tap(d, desc="Week"))
    return d


def rid_is(e: UIElement, name: str) -> bool:
    return (e.resource_id or "").rsplit("/", 1)[-1] == name


def headers(phone: PhoneWorldDevice) -> list[UIElement]:
    out = [e for e in elements(phone) if rid_is(e, "week_day_header")]
    return sorted(out, key=lambda e: e.bbox_pixels.x_min)  # type: ignore[union-attr]


def header_dates(phone: PhoneWorldDevice) -> list[dt.date]:
    """The dates the day headers name (their content-desc starts with the full date)."""
    out = []
    for e in headers(phone):
        desc = e.content_description or ""
        out.append(dt.datetime.strptime(", ".join(desc.split(", ")[:3]), "%A, %B %d, %Y").date())
    return out


def centre_x(e: UIElement) -> float:
    b = e.bbox_pixels
    assert b is not None
    return (b.x_min + b.x_max) / 2


def shown_events(phone: PhoneWorldDevice) -> dict[str, dt.date]:
    """Every event block of the grid (scrolled from top to bottom) -> the date of the column
    its centre lies in."""
    for _ in range(6):
        phone.execute(Action("scroll", direction="up"))
    cols = [(h.bbox_pixels, d) for h, d in zip(headers(phone), header_dates(phone))]
    seen: dict[str, dt.date] = {}
    for _ in range(8):
        for e in elements(phone):
            if rid_is(e, "week_event"):
                title = next((c.text for c in elements(phone) if rid_is(c, "event_title")
                              and c.bbox_pixels is not None and e.bbox_pixels is not None
                              and e.bbox_pixels.x_min <= centre_x(c) <= e.bbox_pixels.x_max
                              and e.bbox_pixels.y_min <= c.bbox_pixels.y_min
                              < e.bbox_pixels.y_max), None)
                if title is None:
                    continue  # a block cut by the viewport's edge, its title scrolled away
                assert title and (e.content_description or "").startswith(f"{title}, ")
                x = centre_x(e)
                day = [d for b, d in cols if b is not None and b.x_min <= x <= b.x_max]
                assert len(day) == 1, f"{title} is in no single day column"
                seen[title] = day[0]
        phone.execute(Action("scroll", direction="down"))
    return seen


def expected(phone: PhoneWorldDevice, sunday: dt.date) -> dict[str, dt.date]:
    out = {}
    for r in phone.probe.query("calendar"):
        d = cs.from_ms(r["dtstart"]).date()
        if sunday <= d < sunday + dt.timedelta(days=7):
            out[r["title"]] = d
    return out


def test_week_of_today_shows_exactly_its_events_in_their_columns(phone):
    assert header_dates(phone) == [SUNDAY + dt.timedelta(days=i) for i in range(7)]
    today = [e for e in headers(phone) if e.is_selected]
    assert len(today) == 1 and "March 14, 2026, today" in (today[0].content_description or "")
    want = expected(phone, SUNDAY)
    assert len(want) >= 3  # seed 0 has events on Thursday, Friday and twice on Saturday
    assert shown_events(phone) == want


def test_next_and_previous_week_change_dates_and_events(phone):
    phone.execute(tap(phone, desc="Next week"))
    nxt = SUNDAY + dt.timedelta(days=7)
    assert header_dates(phone)[0] == nxt and header_dates(phone)[-1] == dt.date(2026, 3, 21)
    assert text_of(phone, rid="title") == "Mar 15 – 21, 2026"
    assert shown_events(phone) == expected(phone, nxt)
    for _ in range(2):
        phone.execute(tap(phone, desc="Previous week"))
    prev = SUNDAY - dt.timedelta(days=7)
    assert header_dates(phone)[0] == prev
    assert text_of(phone, rid="title") == "Mar 1 – 7, 2026"
    assert shown_events(phone) == expected(phone, prev)
    phone.execute(tap(phone, desc="Jump to today"))
    assert header_dates(phone)[0] == SUNDAY


def test_tapping_an_event_opens_its_detail(phone):
    title = min(expected(phone, SUNDAY))
    blocks = [e for e in elements(phone) if rid_is(e, "week_event")
              and (e.content_description or "").startswith(f"{title}, ")]
    while not blocks:
        phone.execute(Action("scroll", direction="down"))
        blocks = [e for e in elements(phone) if rid_is(e, "week_event")
                  and (e.content_description or "").startswith(f"{title}, ")]
    phone.execute(tap(phone, desc=blocks[0].content_description))
    assert text_of(phone, rid="event_title") == title
    row = next(r for r in phone.probe.query("calendar") if r["title"] == title)
    assert screens.span({"dtstart": row["dtstart"], "dtend": row["dtend"]}) in (
        text_of(phone, rid="event_when") or "")


def test_overlapping_events_sit_side_by_side(phone):
    start = cs.epoch_ms(dt.datetime(2026, 3, 10, 8, 0))
    for title in ("Standup A", "Standup B"):
        phone.insert("calendar", {"title": title, "dtstart": start, "dtend": start + 3600_000})
    phone.execute(tap(phone, desc="Month"))
    phone.execute(tap(phone, desc="Week"))
    shown = shown_events(phone)
    assert shown["Standup A"] == shown["Standup B"] == dt.date(2026, 3, 10)
    for _ in range(6):
        phone.execute(Action("scroll", direction="up"))
    boxes = [e.bbox_pixels for e in elements(phone) if rid_is(e, "week_event")
             and (e.content_description or "").startswith("Standup")]
    assert len(boxes) == 2 and boxes[0] is not None and boxes[1] is not None
    assert boxes[0].y_min == boxes[1].y_min
    assert boxes[0].x_max <= boxes[1].x_min or boxes[1].x_max <= boxes[0].x_min


def test_block_spans_its_time_and_lanes_never_overlap():
    e = {"dtstart": cs.epoch_ms(dt.datetime(2026, 3, 9, 9, 30)),
         "dtend": cs.epoch_ms(dt.datetime(2026, 3, 9, 11, 0))}
    assert screens.block_span(e, dt.date(2026, 3, 9)) == (int(9.5 * screens.HOUR_H),
                                                         11 * screens.HOUR_H)
    late = {"dtstart": cs.epoch_ms(dt.datetime(2026, 3, 9, 23, 0)),
            "dtend": cs.epoch_ms(dt.datetime(2026, 3, 10, 1, 0))}
    assert screens.block_span(late, dt.date(2026, 3, 9))[1] == 24 * screens.HOUR_H
    spans = [(0, 10, {"id": 1}), (5, 15, {"id": 2}), (10, 20, {"id": 3}), (12, 30, {"id": 4}),
             (20, 25, {"id": 5})]
    lanes = screens.lanes(spans)
    # 4 starts while 2 (until 15) and 3 (until 20) still run: a third lane; 5 reuses the first
    assert [[s[2]["id"] for s in lane] for lane in lanes] == [[1, 3, 5], [2], [4]]
