"""Email data: messages in folders, drawn from the episode's life, and the changes the screens
make to them.

A message is a dict: ``id``, ``folder`` (one of :data:`FOLDERS` or a label of :data:`LABELS`),
``from`` (address), ``from_name``, ``to`` and ``cc`` (comma-separated addresses), ``subject``,
``body``, ``date`` (ms since the epoch, UTC, as Android's providers keep dates; a scheduled
message's is when it will leave), ``read`` and
``starred`` (0/1) and ``attachments`` (a list of ``{name, mime, size, sha256, data}`` with the
bytes in base64). Tasks read them as the ``email/messages`` table (attachments without their
bytes) and add mail at setup through the :func:`fixture_receive` fixture. Gmail's own store is
private on a real phone, so this table is PhoneWorld-only.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
from typing import Any

import numpy as np

from phoneworld_gym.life import Life, Person
from phoneworld_gym.world import clock_at

INBOX, SENT, DRAFTS, ARCHIVE, TRASH = "inbox", "sent", "drafts", "archive", "trash"
#: mail the owner sent with "Schedule send": it leaves at its ``date`` (later), and until
#: then "Cancel send" turns it back into a draft, as Gmail's Scheduled folder does
SCHEDULED = "scheduled"
#: system folders in drawer order (Starred is a view over every folder but Trash)
FOLDERS: tuple[str, ...] = (INBOX, SENT, SCHEDULED, DRAFTS, ARCHIVE, TRASH)
#: user labels, shown under "Labels" in the drawer; a message filed under one lives there
LABELS: tuple[str, ...] = ("Work", "Receipts", "Travel")
MAX_ATTACHMENT = 64 * 1024


def epoch_ms(t: dt.datetime) -> int:
    """Milliseconds since the epoch of a naive UTC datetime."""
    return int(round(t.replace(tzinfo=dt.timezone.utc).timestamp() * 1000))


def from_ms(ms: int) -> dt.datetime:
    """The naive UTC datetime of an epoch-milliseconds value."""
    return dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.timezone.utc).replace(tzinfo=None)


def attachment(name: str, data: bytes, mime: str = "") -> dict[str, Any]:
    """An attachment record (bytes kept in base64); ``ValueError`` when too big or unnamed."""
    if not name or "/" in name:
        raise ValueError(f"an attachment needs a file name without '/', got {name!r}")
    if not isinstance(data, (bytes, bytearray)) or len(data) > MAX_ATTACHMENT:
        raise ValueError(f"attachment data must be bytes of at most {MAX_ATTACHMENT} bytes")
    return {"name": name, "mime": mime or mime_of(name), "size": len(data),
            "sha256": hashlib.sha256(bytes(data)).hexdigest(),
            "data": base64.b64encode(bytes(data)).decode("ascii")}


def attachment_bytes(a: dict[str, Any]) -> bytes:
    return base64.b64decode(a["data"])


_MIMES = {"pdf": "application/pdf", "txt": "text/plain", "csv": "text/csv",
          "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "m4a": "audio/mp4",
          "mp3": "audio/mpeg", "mp4": "video/mp4", "ics": "text/calendar"}


def mime_of(name: str) -> str:
    """The MIME type a file name's extension suggests."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return _MIMES.get(ext, "application/octet-stream")


# -- the seeded mailbox ----------------------------------------------------------------------
_PERSONAL: tuple[tuple[str, str], ...] = (
    ("Photos from the weekend", "Hi! I finally sorted the photos from Saturday. The ones by the "
     "lake came out great. Want me to send the whole album?"),
    ("Dinner on Friday?", "Are you free for dinner on Friday? I found a new Thai place near the "
     "station that everyone keeps talking about."),
    ("Book recommendation", "I just finished the novel you lent me. Loved it! Do you have "
     "anything else by the same author?"),
    ("Moving day help", "We're moving next Saturday. Could you lend a hand in the morning? "
     "Pizza is on us."),
    ("Happy birthday!", "Happy birthday! Hope you have a wonderful day. Let's celebrate soon."),
    ("Quick question", "Do you still have the number of the plumber you used last year? Our "
     "kitchen sink is leaking again."),
    ("Hiking trip plan", "Here's the plan for the hike: meet at the trailhead at 8, bring water "
     "and snacks. It's about 12 km round trip."),
    ("Thank you!", "Thanks again for the lovely gift. It was so thoughtful of you."),
)
_WORK: tuple[tuple[str, str], ...] = (
    ("Q1 report draft", "Attached is the draft of the Q1 report. Please review section 3 before "
     "Wednesday."),
    ("Project sync notes", "Notes from today's sync: the launch moves to April, design review "
     "on Thursday, and we need a new owner for the FAQ page."),
    ("Budget approval", "The budget for the offsite has been approved. Please book the venue "
     "by the end of the week."),
    ("Slides for Monday", "Could you send me your slides for Monday's all-hands by Sunday "
     "evening?"),
)
_MEETING_TOPICS: tuple[str, ...] = ("Project sync", "Design review", "Coffee chat",
                                    "Planning session", "Quarterly check-in")
_NEWSLETTERS: tuple[tuple[str, str, str, str], ...] = (
    ("The Morning Brief", "news@morningbrief.com", "Your Saturday briefing",
     "Today's top stories: city council approves the new bike lanes, a heat wave is expected "
     "next week, and the local team wins again."),
    ("Trail Runner Weekly", "hello@trailrunner.io", "5 trails to try this spring",
     "Spring is here! We picked five trails for every level, from easy loops to a summit "
     "challenge."),
    ("Cook Club", "recipes@cookclub.net", "This week: one-pot dinners",
     "Three one-pot recipes that take under 30 minutes: lemon orzo, chickpea curry and a "
     "smoky bean chili."),
    ("City Library", "events@citylibrary.org", "Events this month at your library",
     "Author talk on the 20th, kids' story time every Saturday, and the used book sale is "
     "back."),
)
_RECEIPTS: tuple[tuple[str, str, str], ...] = (
    ("Corner Bakery", "receipts@cornerbakery.com", "Sourdough loaf, 2 croissants"),
    ("City Transit", "no-reply@citytransit.gov", "Monthly pass, March"),
    ("Bloom Florist", "orders@bloomflorist.com", "Spring bouquet, delivery"),
    ("Stream+", "billing@streamplus.tv", "Premium plan, monthly"),
    ("Green Grocer", "receipts@greengrocer.com", "Weekly vegetable box"),
)
#: what the owner writes to friends: (subject, body after "Hi <first>, "), for the sent and
#: the scheduled mail alike (so a subject does not tell which of the two a message is)
_OUTGOING: tuple[tuple[str, str], ...] = (
    ("Re: catching up", "great to hear from you! Let's talk this week."),
    ("Saturday brunch", "are we still on for brunch on Saturday at 11? I booked a table."),
    ("The photos you asked for", "here are the photos from the party. The group shot is my "
     "favourite."),
    ("Borrowed books", "I still have your two books. Can I drop them off on Sunday?"),
    ("Happy housewarming!", "congratulations on the new place! Can't wait to see it."),
    ("Trip itinerary", "I put the trip plan together: we leave Friday at 6 and drive back "
     "on Monday."),
    ("Concert on Thursday", "I got us two tickets for Thursday. Doors open at 7!"),
    ("Recipe from last night", "here is the curry you liked: onions, garlic, chickpeas and "
     "coconut milk, 30 minutes."),
    ("Running club", "want to join the running club on Wednesdays? We meet at the park at "
     "7 AM."),
    ("Gift for Mom", "I found a nice scarf for Mom's birthday. Want to chip in?"),
)
_PLACES: tuple[str, ...] = ("Blue Bottle Coffee", "Conference room 4B", "Riverside Park cafe",
                            "Main Street Library, room 2")


def _text(note: str) -> bytes:
    return note.encode("utf-8")


def _msg(folder: str, sender: str, sender_name: str, to: str, subject: str, body: str,
         when: dt.datetime, read: int, starred: int = 0, cc: str = "",
         attachments: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": 0, "folder": folder, "from": sender, "from_name": sender_name, "to": to,
            "cc": cc, "subject": subject, "body": body, "date": epoch_ms(when), "read": read,
            "starred": starred, "attachments": attachments or []}


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """A mailbox of about thirty messages dated before the phone's start clock
    (``life.now``): personal mail from people in the life, work mail and meeting invitations
    from colleagues, newsletters and receipts; a few sent, two scheduled to send later (the
    only ones that can still be called back), a draft, archived and trashed messages. About
    a third of the inbox is unread, a few are starred, some carry small attachments."""
    now = life.now

    def _ago(rng: np.random.Generator, lo_min: int, hi_min: int) -> dt.datetime:
        return now - dt.timedelta(minutes=int(rng.integers(lo_min, hi_min)))

    me = life.owner
    people = list(life.people)
    order = [people[int(i)] for i in rng.permutation(len(people))]
    friends = order[:8]
    colleagues = [p for p in order[8:] if p.relation == "colleague" or p.company][:4]
    msgs: list[dict[str, Any]] = []
    for k, p in enumerate(friends):
        subject, body = _PERSONAL[(k + int(rng.integers(len(_PERSONAL)))) % len(_PERSONAL)]
        atts = []
        if subject == "Photos from the weekend" or rng.random() < 0.15:
            atts = [attachment(f"notes_{p.first.lower()}.txt",
                               _text(f"From {p.name}: {subject}\n{body}\n"))]
        msgs.append(_msg(INBOX, p.email, p.name, me.email, subject,
                         f"Hi {me.first},\n\n{body}\n\n{p.first}",
                         _ago(rng, 30, 60 * 24 * 20), int(rng.random() < 0.6),
                         int(rng.random() < 0.2), attachments=atts))
    for k, p in enumerate(colleagues):
        subject, body = _WORK[k % len(_WORK)]
        atts = []
        if subject == "Q1 report draft":
            atts = [attachment("Q1_report_draft.txt", _text(
                f"Q1 report (draft) by {p.name}\nRevenue: {int(rng.integers(80, 160))}k\n"
                f"Costs: {int(rng.integers(40, 90))}k\n"))]
        msgs.append(_msg(INBOX if k % 3 else "Work", p.email, p.name, me.email, subject,
                         f"Hi {me.first},\n\n{body}\n\nBest,\n{p.first}",
                         _ago(rng, 60, 60 * 24 * 25), int(rng.random() < 0.7),
                         cc=colleagues[(k + 1) % len(colleagues)].email
                         if len(colleagues) > 1 else "", attachments=atts))
    for p in colleagues[:2]:
        topic = _MEETING_TOPICS[int(rng.integers(len(_MEETING_TOPICS)))]
        day = now.date() + dt.timedelta(days=int(rng.integers(1, 8)))
        hour = int(rng.integers(9, 17))
        place = _PLACES[int(rng.integers(len(_PLACES)))]
        when_text = f"{day.strftime('%a %b')} {day.day}, {hour % 12 or 12}:00 " \
                    f"{'PM' if hour >= 12 else 'AM'}"
        msgs.append(_msg(INBOX, p.email, p.name, me.email,
                         f"Invitation: {topic} @ {when_text}",
                         f"{p.name} has invited you to {topic}.\n\nWhen: {when_text}\n"
                         f"Where: {place}\n\nGoing? Yes - Maybe - No",
                         _ago(rng, 20, 60 * 24 * 3), int(rng.random() < 0.4)))
    for name, addr, subject, body in _NEWSLETTERS:
        if rng.random() < 0.8:
            msgs.append(_msg(INBOX, addr, name, me.email, subject, body,
                             _ago(rng, 60, 60 * 24 * 10), int(rng.random() < 0.5)))
    for name, addr, what in _RECEIPTS:
        if rng.random() < 0.7:
            total = f"${int(rng.integers(4, 90))}.{int(rng.integers(0, 100)):02d}"
            msgs.append(_msg("Receipts" if rng.random() < 0.5 else INBOX, addr, name, me.email,
                             f"Your receipt from {name}",
                             f"Thanks for your purchase!\n\n{what}\nTotal: {total}\n\n"
                             f"Questions? Reply to this email.",
                             _ago(rng, 60 * 24, 60 * 24 * 30), 1))
    # what the owner wrote: drawn from a generator of its own, so the rest of the mailbox is
    # the same as before scheduled mail existed
    out = np.random.default_rng(int.from_bytes(hashlib.sha256(
        f"{life.seed}/email/outgoing".encode()).digest()[:4], "little"))
    lines = [_OUTGOING[int(i)] for i in out.permutation(len(_OUTGOING))]
    for p in friends[:3]:
        subject, body = lines.pop()
        msgs.append(_msg(SENT, me.email, me.name, p.email, subject,
                         f"Hi {p.first}, {body}\n\n{me.first}",
                         _ago(rng, 60 * 24, 60 * 24 * 15), 1))
    # two sent with "Schedule send", leaving this afternoon or evening or tomorrow morning
    # (the slots still at least half an hour ahead of a late start)
    for p in friends[4:6]:
        subject, body = lines.pop()
        slots = [t for t in [now.replace(hour=h, minute=0, second=0) for h in range(13, 22)]
                 + [now.replace(hour=h, minute=0, second=0) + dt.timedelta(days=1)
                    for h in range(7, 11)] if t >= now + dt.timedelta(minutes=30)]
        at = slots[int(out.integers(len(slots)))]
        msgs.append(_msg(SCHEDULED, me.email, me.name, p.email, subject,
                         f"Hi {p.first}, {body}\n\n{me.first}", at, 1))
    msgs.append(_msg(DRAFTS, me.email, me.name, friends[3].email, "Weekend plans",
                     "Hi, what do you think about", _ago(rng, 60, 60 * 24 * 2), 1))
    msgs.append(_msg(ARCHIVE, "team@travelnow.com", "TravelNow", me.email,
                     "Your trip to Lisbon is confirmed",
                     "Booking TN-48213: 2 nights, check-in Apr 3. Have a great trip!",
                     _ago(rng, 60 * 24 * 20, 60 * 24 * 40), 1))
    msgs.append(_msg(TRASH, "deals@megamart.com", "MegaMart", me.email, "Flash sale: 70% off",
                     "Today only! Huge discounts on everything.",
                     _ago(rng, 60 * 24 * 2, 60 * 24 * 9), 1))
    msgs.sort(key=lambda m: (m["date"], m["subject"]))
    for i, m in enumerate(msgs):
        m["id"] = i + 1
    return {"messages": msgs, "next_id": len(msgs) + 1, "me": me.email, "me_name": me.name}


# -- queries ---------------------------------------------------------------------------------
def newest_first(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(msgs, key=lambda m: (-m["date"], -m["id"]))


def in_folder(store: dict[str, Any], folder: str) -> list[dict[str, Any]]:
    """Messages of a folder or label, newest first; ``starred`` is every starred message
    outside Trash."""
    if folder == "starred":
        return newest_first([m for m in store["messages"] if m["starred"]
                             and m["folder"] != TRASH])
    return newest_first([m for m in store["messages"] if m["folder"] == folder])


def find(store: dict[str, Any], mid: int) -> dict[str, Any] | None:
    return next((m for m in store["messages"] if m["id"] == mid), None)


def search(store: dict[str, Any], query: str) -> list[dict[str, Any]]:
    """Messages outside Trash whose sender, recipients, subject or body holds every word of
    ``query`` (case-insensitive), newest first."""
    words = query.lower().split()
    out = []
    for m in store["messages"]:
        hay = " ".join(str(m[k]) for k in ("from", "from_name", "to", "cc", "subject",
                                           "body")).lower()
        if m["folder"] != TRASH and words and all(w in hay for w in words):
            out.append(m)
    return newest_first(out)


def folder_title(folder: str) -> str:
    return folder if folder in LABELS else folder.capitalize()


# -- changes ---------------------------------------------------------------------------------
def _addresses(text: str) -> str:
    """A recipient list cleaned to "a@b.c, d@e.f" (``ValueError`` names a bad address)."""
    out = []
    for part in text.replace(";", ",").split(","):
        a = part.strip()
        if not a:
            continue
        if "@" not in a or " " in a or a.startswith("@") or a.endswith("@"):
            raise ValueError(f"not an email address: {a!r}")
        out.append(a)
    return ", ".join(out)


def add(store: dict[str, Any], *, date: int, **fields: Any) -> dict[str, Any]:
    """A new message dated ``date`` (ms since the epoch)."""
    m = {"id": store["next_id"], "folder": INBOX, "from": "", "from_name": "", "to": "",
         "cc": "", "subject": "", "body": "", "date": int(date), "read": 1, "starred": 0,
         "attachments": []}
    m.update(fields)
    store["messages"].append(m)
    store["next_id"] += 1
    return m


def send(store: dict[str, Any], *, to: str, cc: str, subject: str, body: str,
         attachments: list[dict[str, Any]], now: str, draft_id: int | None = None
         ) -> dict[str, Any]:
    """Send a message (a sent draft keeps its id and moves to Sent). ``ValueError`` when there
    is no recipient or an address is malformed."""
    to_clean, cc_clean = _addresses(to), _addresses(cc)
    if not to_clean:
        raise ValueError("add at least one recipient")
    fields = {"folder": SENT, "from": store["me"], "from_name": store["me_name"],
              "to": to_clean, "cc": cc_clean, "subject": subject.strip(), "body": body,
              "date": epoch_ms(dt.datetime.fromisoformat(now)), "read": 1,
              "attachments": [dict(a) for a in attachments]}
    draft = find(store, draft_id) if draft_id else None
    if draft is not None:
        draft.update(fields)
        return draft
    return add(store, starred=0, **fields)


def save_draft(store: dict[str, Any], *, to: str, cc: str, subject: str, body: str,
               attachments: list[dict[str, Any]], now: str, draft_id: int | None = None
               ) -> dict[str, Any]:
    """Keep an unsent message in Drafts (recipients as typed)."""
    fields = {"folder": DRAFTS, "from": store["me"], "from_name": store["me_name"],
              "to": to.strip(), "cc": cc.strip(), "subject": subject.strip(), "body": body,
              "date": epoch_ms(dt.datetime.fromisoformat(now)), "read": 1,
              "attachments": [dict(a) for a in attachments]}
    draft = find(store, draft_id) if draft_id else None
    if draft is not None:
        draft.update(fields)
        return draft
    return add(store, starred=0, **fields)


def move(store: dict[str, Any], mid: int, folder: str) -> None:
    if folder not in FOLDERS + LABELS:
        raise ValueError(f"no folder {folder!r}; folders: {FOLDERS + LABELS}")
    m = find(store, mid)
    if m is None:
        raise ValueError(f"no message {mid}")
    m["folder"] = folder


def cancel_send(store: dict[str, Any], mid: int) -> None:
    """Cancel a scheduled message: it goes back to Drafts and is never sent (``ValueError``
    for a message that is not scheduled: sent mail cannot be called back)."""
    m = find(store, mid)
    if m is None or m["folder"] != SCHEDULED:
        raise ValueError(f"message {mid} is not scheduled")
    m["folder"] = DRAFTS


def delete(store: dict[str, Any], mid: int) -> None:
    """Move to Trash; a message already in Trash is deleted for good."""
    m = find(store, mid)
    if m is None:
        raise ValueError(f"no message {mid}")
    if m["folder"] == TRASH:
        store["messages"] = [x for x in store["messages"] if x["id"] != mid]
    else:
        m["folder"] = TRASH


# -- the outside view --------------------------------------------------------------------------
def provider_rows(store: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``email/messages`` table: one row per message by ``_id``; attachments as
    ``{name, size, sha256}``."""
    return [{"_id": m["id"], "folder": m["folder"], "from": m["from"], "to": m["to"],
             "cc": m["cc"], "subject": m["subject"], "body": m["body"], "date": m["date"],
             "read": m["read"], "starred": m["starred"],
             "attachments": [{"name": a["name"], "size": a["size"], "sha256": a["sha256"]}
                             for a in m["attachments"]]}
            for m in sorted(store["messages"], key=lambda m: m["id"])]


def fixture_receive(store: dict[str, Any], *, sender: str, sender_name: str, subject: str,
                    body: str, minutes_ago: int = 5, folder: str = INBOX, read: int = 0,
                    attachments: list[dict[str, str]] | tuple[()] = (),
                    now: str | None = None) -> dict[str, Any]:
    """Setup: a message arrives ``minutes_ago`` before ``now`` (the phone's time, ISO, as
    ``probe.now()`` reads it; without it the start clock of the world generated last)
    (``attachments``: ``[{name, text}]``). Returns its row."""
    if "@" not in str(sender):
        raise ValueError(f"sender must be an email address, got {sender!r}")
    if not isinstance(minutes_ago, int) or minutes_ago < 0:
        raise ValueError(f"minutes_ago must be a non-negative int, got {minutes_ago!r}")
    if folder not in FOLDERS + LABELS:
        raise ValueError(f"no folder {folder!r}; folders: {FOLDERS + LABELS}")
    atts = []
    for a in attachments:
        if not isinstance(a, dict) or set(a) != {"name", "text"}:
            raise ValueError(f"an attachment is {{name, text}}, got {a!r}")
        atts.append(attachment(str(a["name"]), str(a["text"]).encode("utf-8")))
    m = add(store, folder=folder, **{"from": sender}, from_name=str(sender_name),
            to=store["me"], subject=str(subject), body=str(body),
            date=epoch_ms(_clock(now) - dt.timedelta(minutes=minutes_ago)), read=int(bool(read)),
            attachments=atts)
    return next(r for r in provider_rows(store) if r["_id"] == m["id"])


def _clock(now: str | None) -> dt.datetime:
    """The phone's time ``now`` (ISO; the device's fixture verb passes it)."""
    return clock_at(now)


def person_line(p: Person) -> str:
    return f"{p.name} <{p.email}>"
