"""Cross-app tasks with Music: a song a friend recommends in Chat goes into a playlist, a song
texted by a contact goes into the queue, and a song is shared from Music to a contact by
text message (through the share sheet).

Each reads or checks a Music table (``music/playlist_tracks``, ``music/queue``,
``music/songs``), which only PhoneWorld serves, so they run on PhoneWorld only; the texted
recommendation is set up with the common ``sms`` verb and the shared song checked on ``sms``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import chats, last_text, open_chat
from phoneworld_gym.tasks.kit import choice, now_ms
from phoneworld_gym.tasks.messages.common import (
    INBOX,
    SENT,
    last_received,
    open_thread,
    texters,
    thread_from_contacts,
)
from phoneworld_gym.tasks.music.common import (
    add_to_playlist,
    playlists,
    song_menu,
    songs,
    tracks_of,
)
from phoneworld_gym.validators import added, same_phone, states

#: how long before the task starts a texted recommendation arrived
ARRIVED_MINUTES_AGO = 18


def quoted(text: str) -> str:
    """The first title in double quotes in a message ("" when there is none)."""
    m = re.search(r'"([^"]+)"', text)
    return m.group(1) if m else ""


@register_task
class CrossAppChatSongToPlaylist(Task):
    """A friend recommends a song in Chat; add it to a named playlist: one
    ``music/playlist_tracks`` row for that song at the end of that playlist."""

    id = "CrossAppChatSongToPlaylist"
    apps = ("chat", "music")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search", "sheet")
    optimal_steps = 9
    max_steps = 30
    may_change = ("music/playlist_tracks",)
    params_schema = {"name": str, "title": str, "artist": str, "song_id": int,
                     "playlist": str, "pid": int}
    template = 'Add the song {name} recommended to me in Chat to my playlist "{playlist}".'
    paraphrases = {
        "train": ('{name} sent me a song tip on Chat. Put that song in "{playlist}".',
                  'Find the track {name} suggested in our chat and add it to the "{playlist}" '
                  "playlist in Music."),
        "test": ('Whatever song {name} told me about in Chat should end up in my "{playlist}" '
                 "playlist.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct", unread=False))
        p = choice(rng, playlists(probe))
        have = {r["song_id"] for r in tracks_of(probe.query("music/playlist_tracks"),
                                                int(p["_id"]))}
        s = choice(rng, [r for r in songs(probe) if r["_id"] not in have])
        return {"name": c["title"], "title": s["title"], "artist": s["artist"],
                "song_id": int(s["_id"]), "playlist": p["name"], "pid": int(p["_id"])}

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("chat", "receive", chat=p["name"], sender=p["name"], read=1,
                       minutes_ago=4, now=device.probe.now(),
                       body=f'You have to hear "{p["title"]}" by {p["artist"]}, it\'s so good')

    def evaluate(self, device: Device, report: AgentReport) -> float:
        n = len(tracks_of(self.before("music/playlist_tracks"), self.params["pid"]))
        return self.expect(added("music/playlist_tracks", {
            "playlist_id": self.params["pid"], "song_id": self.params["song_id"],
            "position": n + 1}))

    def _run(self, device: Device, playlist: str) -> Iterator[Action]:
        yield from open_chat(device, self.params["name"])
        title = quoted(last_text(device))
        if not title:
            raise OracleError("the newest message names no song")
        yield from add_to_playlist(device, title, playlist)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["playlist"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Adds it to another playlist."""
        other = next(p["name"] for p in playlists(device.probe)
                     if p["_id"] != self.params["pid"])
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppTextedSongToQueue(Task):
    """A contact texts a song recommendation; queue it in Music: one ``music/queue`` row for
    that song after the songs queued already."""

    id = "CrossAppTextedSongToQueue"
    apps = ("messages", "music")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search", "sheet")
    optimal_steps = 8
    max_steps = 25
    split = "test"
    may_change = ("music/queue",)
    params_schema = {"name": str, "number": str, "title": str, "artist": str, "song_id": int}
    template = "Add the song {name} texted me about to the end of my music queue."
    constraints = (("the end of", "after what"),)
    paraphrases = {
        "test": ("{name} recommended a track by text message. Put it at the end of my music "
                 "queue.",
                 "Check my messages from {name} for a song and line it up in Music after what "
                 "is already queued."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe, unread=False))
        queued = {r["song_id"] for r in probe.query("music/queue")}
        s = choice(rng, [r for r in songs(probe) if r["_id"] not in queued])
        return {"name": c["display_name"], "number": c["number"], "title": s["title"],
                "artist": s["artist"], "song_id": int(s["_id"])}

    def setup(self, device: Device) -> None:
        p = self.params
        device.insert("sms", {"address": p["number"], "type": INBOX, "read": 1,
                              "date": now_ms(device.probe, ARRIVED_MINUTES_AGO),
                              "body": f'Listen to "{p["title"]}" by {p["artist"]}, you\'ll '
                                      "love it"})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        n = len(self.before("music/queue"))
        return self.expect(added("music/queue", {"song_id": self.params["song_id"],
                                                 "position": n + 1}))

    def _queue(self, device: Device, title: str) -> Iterator[Action]:
        yield from song_menu(device, title)
        yield tap(device, text="Add to queue", rid="sheet_item_title")

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_thread,
              ) -> Iterator[Action]:
        yield from via(device, self.params["name"])
        title = quoted(last_received(device))
        if not title:
            raise OracleError("the newest text names no song")
        yield from self._queue(device, title)
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Read the text in the conversation reached from the person's Text button in Contacts."""
        yield from self._play(device, thread_from_contacts)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Queues another song by the same artist (or any other song)."""
        pool = [r for r in songs(device.probe) if r["_id"] != self.params["song_id"]]
        same = [r for r in pool if r["artist"] == self.params["artist"]]
        yield from self._queue(device, (same or pool)[0]["title"])
        yield Action("status", goal_status="complete")


@register_task
class CrossAppShareSongByText(Task):
    """Share a song from Music to a contact through the share sheet and Messages: one sent
    ``sms`` row to their number whose body names the song."""

    id = "CrossAppShareSongByText"
    apps = ("music", "messages")
    category = "cross-app"
    difficulty = "medium"
    tags = ("share", "search", "sheet")
    optimal_steps = 10
    max_steps = 25
    may_change = ("sms",)
    params_schema = {"title": str, "artist": str, "name": str, "number": str}
    template = 'Share the song "{title}" by {artist} with {name} by text message.'
    paraphrases = {
        "train": ('Send {name} a link to {artist}\'s "{title}" from Music, as a text.',
                  'Use Share in Music to text "{title}" ({artist}) to {name}.'),
        "test": ('{name} should hear "{title}" by {artist}. Pass it on from the music app in '
                 "a message.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        s = choice(rng, songs(probe))
        c = choice(rng, texters(probe, unread=False))
        return {"title": s["title"], "artist": s["artist"], "name": c["display_name"],
                "number": c["number"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("sms", {"address": same_phone(self.params["number"]),
                                         "body": states(self.params["title"]),
                                         "type": SENT}))

    def _share(self, device: Device, to: str, alt: bool = False) -> Iterator[Action]:
        from phoneworld_gym.oracle import scroll_to

        yield from song_menu(device, self.params["title"], self.params["artist"] if alt else "")
        yield tap(device, text="Share", rid="sheet_item_title")
        yield tap(device, desc="Messages")
        yield type_into(device, to, rid="recipient_text_view")
        yield from scroll_to(device, text=to, rid="contact_title")
        yield tap(device, text=to, rid="contact_title")
        yield tap(device, desc="Send SMS")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._share(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the song by searching its artist instead of its title."""
        yield from self._share(device, self.params["name"], alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares it with someone else."""
        from phoneworld_gym.tasks.contacts.common import same_name

        other = next(r["display_name"] for r in texters(device.probe, unread=False)
                     if not same_name(r["display_name"], self.params["name"]))
        yield from self._share(device, other)
        yield Action("status", goal_status="complete")
