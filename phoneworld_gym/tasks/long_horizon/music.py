"""Long-horizon tasks around Music, three apps each, the information carried from one app to
the next:

- Chat + Messages + Music: two friends recommend a song each (one in Chat, one by text); a new
  playlist gets both songs and is shared back by text.
- Calendar + Music + Messages: a concert in the calendar names the artist; a warm-up playlist
  gets that artist's three most popular songs, and a friend is texted the concert's date.

Both check Music's own tables, so they run on PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import epoch_ms, open_event, open_event_by_day
from phoneworld_gym.tasks.chat.common import chats, last_text, open_chat
from phoneworld_gym.tasks.contacts.common import same_name
from phoneworld_gym.tasks.cross_app.music_x import ARRIVED_MINUTES_AGO, quoted
from phoneworld_gym.tasks.kit import choice, now_ms, today
from phoneworld_gym.tasks.messages.common import (
    INBOX,
    SENT,
    last_received,
    open_thread,
    send_to,
    texters,
)
from phoneworld_gym.tasks.music.common import (
    add_to_playlist,
    create_playlist,
    open_playlist,
    search,
    songs,
    unused_name,
)
from phoneworld_gym.validators import added, new_row_id, same_phone, same_text, states


@register_task
class LongHorizonFriendsMixtape(Task):
    """Long-horizon, three apps (Chat, Messages, Music): read the song one friend recommends
    in Chat and the one another friend texts, make a playlist of both and share it with the
    texting friend by text message. Exactly: one playlist with the two songs, and one sent
    text to that friend naming the playlist."""

    id = "LongHorizonFriendsMixtape"
    apps = ("chat", "messages", "music")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "share", "multi-app", "sheet")
    optimal_steps = 30
    max_steps = 70
    may_change = ("music/playlists", "music/playlist_tracks", "sms")
    params_schema = {"a": str, "b": str, "number": str, "name": str, "song_a": str,
                     "artist_a": str, "id_a": int, "song_b": str, "artist_b": str, "id_b": int}
    template = ('{a} recommended a song to me in Chat and {b} texted me one. Make a playlist '
                'called "{name}" with both songs, then share the playlist with {b} by text '
                'message.')
    paraphrases = {
        "train": ('Collect the song tips from {a} (Chat) and {b} (text message) in a new '
                  'playlist "{name}" and send that playlist to {b} as a text.',),
        "test": ('Songs were suggested to me: one by {a} on Chat, one by {b} over SMS. Put '
                 'both on a fresh "{name}" playlist and text it to {b} using Share.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct", unread=False))
        t = choice(rng, [r for r in texters(probe, unread=False)
                         if not same_name(r["display_name"], c["title"])])
        pool = songs(probe)
        i, j = (int(k) for k in rng.choice(len(pool), size=2, replace=False))
        return {"a": c["title"], "b": t["display_name"], "number": t["number"],
                "name": unused_name(rng, probe),
                "song_a": pool[i]["title"], "artist_a": pool[i]["artist"],
                "id_a": int(pool[i]["_id"]), "song_b": pool[j]["title"],
                "artist_b": pool[j]["artist"], "id_b": int(pool[j]["_id"])}

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("chat", "receive", chat=p["a"], sender=p["a"], read=1, minutes_ago=20,
                       body=f'Have you heard "{p["song_a"]}" by {p["artist_a"]}? On repeat here')
        device.insert("sms", {"address": p["number"], "type": INBOX, "read": 1,
                              "date": now_ms(device.probe, ARRIVED_MINUTES_AGO),
                              "body": f'Song of the week: "{p["song_b"]}" by {p["artist_b"]}'})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        fresh = new_row_id(self.before("music/playlists"),
                           device.probe.query("music/playlists"))
        return self.expect(
            added("music/playlists", {"name": same_text(p["name"])}),
            added("music/playlist_tracks", {"playlist_id": fresh, "song_id": p["id_a"]},
                  {"playlist_id": fresh, "song_id": p["id_b"]}),
            added("sms", {"address": same_phone(p["number"]), "body": states(p["name"]),
                          "type": SENT}))

    def _run(self, device: Device, both: bool) -> Iterator[Action]:
        p = self.params
        yield from open_chat(device, p["a"])
        first = quoted(last_text(device))
        yield from open_thread(device, p["b"])
        second = quoted(last_received(device))
        if not (first and second):
            raise OracleError("a recommendation names no song")
        yield from create_playlist(device, p["name"])
        for title in (first, second) if both else (first,):
            yield from add_to_playlist(device, title, p["name"])
        yield from open_playlist(device, p["name"])
        yield tap(device, desc="More options for playlist")
        yield tap(device, text="Share", rid="sheet_item_title")
        yield tap(device, desc="Messages")
        yield type_into(device, p["b"], rid="recipient_text_view")
        yield from scroll_to(device, text=p["b"], rid="contact_title")
        yield tap(device, text=p["b"], rid="contact_title")
        yield tap(device, desc="Send SMS")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything but the texted song."""
        yield from self._run(device, False)
        yield Action("status", goal_status="complete")


VENUES: tuple[str, ...] = ("City Arena", "The Paramount", "Riverside Amphitheater",
                           "Blue Note Hall", "Union Ballroom", "Harbor Pavilion")
PLAYLIST = "Concert warm-up"


@register_task
class LongHorizonConcertWarmup(Task):
    """Long-horizon, three apps (Calendar, Music, Messages): the live show in the calendar
    names an artist; make the playlist "Concert warm-up" of that artist's three most popular
    songs (their page's Popular list) and text a friend the concert's date. Exactly: one
    playlist with those three songs, one sent text to the friend stating the date."""

    id = "LongHorizonConcertWarmup"
    apps = ("calendar", "music", "messages")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "multi-app", "sheet", "search")
    optimal_steps = 29
    max_steps = 60
    may_change = ("music/playlists", "music/playlist_tracks", "sms")
    params_schema = {"artist": str, "venue": str, "date": str, "event": str, "name": str,
                     "number": str}
    template = ('Look up which artist I am seeing live according to my calendar. Make a '
                f'playlist called "{PLAYLIST}" with that artist\'s three most popular songs, '
                'then text {name} the date of the concert.')
    paraphrases = {
        "test": ('My calendar has a live show coming up. Build a "Concert warm-up" playlist '
                 'from the top three popular tracks of whoever is playing, and let {name} know '
                 'by text on which day the concert is.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        artists = sorted({r["artist"] for r in songs(probe, available=None)})
        artist = artists[int(rng.integers(len(artists)))]
        venue = VENUES[int(rng.integers(len(VENUES)))]
        day = today(probe) + dt.timedelta(days=int(rng.integers(3, 25)))
        c = choice(rng, texters(probe, unread=False))
        return {"artist": artist, "venue": venue, "date": day.isoformat(),
                "event": f"{artist} live at {venue}", "name": c["display_name"],
                "number": c["number"]}

    def setup(self, device: Device) -> None:
        p = self.params
        day = dt.date.fromisoformat(p["date"])
        start = dt.datetime.combine(day, dt.time(20, 0))
        device.insert("calendar", {"title": p["event"], "dtstart": epoch_ms(start),
                                   "dtend": epoch_ms(start + dt.timedelta(hours=3)),
                                   "eventLocation": p["venue"], "description": "Tickets in email"})

    def _top(self, device: Device) -> list[int]:
        mine = [r for r in songs(device.probe, available=None)
                if r["artist"] == self.params["artist"]]
        return [int(r["_id"]) for r in sorted(mine, key=lambda r: -r["plays"])[:3]]

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        fresh = new_row_id(self.before("music/playlists"),
                           device.probe.query("music/playlists"))
        return self.expect(
            added("music/playlists", {"name": same_text(PLAYLIST)}),
            added("music/playlist_tracks",
                  *({"playlist_id": fresh, "song_id": i} for i in self._top(device))),
            added("sms", {"address": same_phone(p["number"]),
                          "body": states(dt.date.fromisoformat(p["date"]), kind="date"),
                          "type": SENT}))

    def _run(self, device: Device, shift: int, alt: bool = False) -> Iterator[Action]:
        p = self.params
        yield from (open_event_by_day if alt else open_event)(device, p["event"])
        title = text_of(device, rid="event_title") or ""
        artist = title.split(" live at ")[0]
        when = (text_of(device, rid="event_when") or "").split("\n")[0]
        try:
            day = dt.datetime.strptime(when, "%A, %B %d, %Y").date()
        except ValueError:
            raise OracleError(f"cannot read the concert's date from {when!r}") from None
        yield from create_playlist(device, PLAYLIST)
        yield from search(device, artist)
        yield tap(device, desc=artist, rid="artist_result")
        yield from scroll_to(device, text="Popular")
        popular = [e.content_description for e in elements(device)
                   if (e.resource_id or "").endswith("/song_row")][:3]
        for song in popular:
            yield from scroll_to(device, desc=f"More options for {song}")
            yield tap(device, desc=f"More options for {song}")
            yield tap(device, text="Add to playlist", rid="sheet_item_title")
            yield tap(device, desc=PLAYLIST, rid="target_playlist")
        day += dt.timedelta(days=shift)
        yield from send_to(device, p["name"],
                           f"The {artist} concert is on {day.strftime('%A, %B')} {day.day}!")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the concert from its day in the Month view instead of the Schedule list."""
        yield from self._run(device, 0, alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the date texted is a day late."""
        yield from self._run(device, 1)
        yield Action("status", goal_status="complete")
