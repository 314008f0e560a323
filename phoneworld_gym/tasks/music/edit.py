"""Music tasks that change the library or the player: make a playlist of given songs, queue
a song, switch shuffle and repeat, take a song out of a playlist, move one to the top,
rename a playlist, download one for offline listening (on a Premium account); and two the
app cannot do (play a song that is not available in the region, download a playlist on the
free plan)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.music.common import (
    NEW_PLAYLISTS,
    add_to_playlist,
    create_playlist,
    now_playing,
    open_playlist,
    playlists,
    search,
    song_menu,
    songs,
    to_tab,
    tracks_of,
    unused_name,
)
from phoneworld_gym.validators import added, changed, expect, new_row_id, same_text


def _three_songs(rng: np.random.Generator, probe: Probe) -> list[dict[str, Any]]:
    """Three available songs by three different artists."""
    pool = songs(probe)
    picked: list[dict[str, Any]] = []
    for k in rng.permutation(len(pool)):
        s = pool[int(k)]
        if all(s["artist"] != p["artist"] for p in picked):
            picked.append(s)
        if len(picked) == 3:
            break
    return picked


@register_task
class MusicMakePlaylist(Task):
    """Make a new playlist holding three given songs: one ``music/playlists`` row with the
    name and three ``music/playlist_tracks`` rows in it (any order)."""

    id = "MusicMakePlaylist"
    apps = ("music",)
    difficulty = "hard"
    tags = ("form", "search", "sheet")
    optimal_steps = 22
    max_steps = 50
    may_change = ("music/playlists", "music/playlist_tracks")
    params_schema = {"name": str, "a": str, "b": str, "c": str, "a_id": int, "b_id": int,
                     "c_id": int, "a_artist": str, "b_artist": str, "c_artist": str}
    template = ('Make a playlist called "{name}" with "{a}" by {a_artist}, "{b}" by {b_artist} '
                'and "{c}" by {c_artist}.')
    paraphrases = {
        "train": ('Create a new playlist "{name}" and put these songs in it: "{a}" ({a_artist}), '
                  '"{b}" ({b_artist}), "{c}" ({c_artist}).',
                  'I want a playlist named "{name}" made of {a_artist}\'s "{a}", {b_artist}\'s '
                  '"{b}" and {c_artist}\'s "{c}".'),
        "test": ('Start a "{name}" playlist in Music with these tracks: "{a}" from {a_artist}, '
                 '"{b}" from {b_artist}, "{c}" from {c_artist}.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        a, b, c = _three_songs(rng, probe)
        p: dict[str, Any] = {"name": unused_name(rng, probe)}
        for key, s in (("a", a), ("b", b), ("c", c)):
            p[key], p[f"{key}_id"], p[f"{key}_artist"] = s["title"], int(s["_id"]), s["artist"]
        return p

    def evaluate(self, device: Device, report: AgentReport) -> float:
        fresh = new_row_id(self.before("music/playlists"), device.probe.query("music/playlists"))
        return self.expect(
            added("music/playlists", {"name": same_text(self.params["name"])}),
            added("music/playlist_tracks",
                  *({"playlist_id": fresh, "song_id": self.params[f"{k}_id"]}
                    for k in "abc")))

    def _make(self, device: Device, keys: str) -> Iterator[Action]:
        yield from create_playlist(device, self.params["name"])
        for k in keys:
            yield from add_to_playlist(device, self.params[k], self.params["name"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._make(device, "abc")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Forgets the third song."""
        yield from self._make(device, "ab")
        yield Action("status", goal_status="complete")


@register_task
class MusicQueueSong(Task):
    """Add a song to the end of the queue: one ``music/queue`` row for it, after the songs
    queued already."""

    id = "MusicQueueSong"
    apps = ("music",)
    difficulty = "easy"
    tags = ("search", "sheet")
    optimal_steps = 6
    may_change = ("music/queue",)
    params_schema = {"title": str, "artist": str, "id": int}
    template = 'Add "{title}" by {artist} to the end of my queue.'
    constraints = (("the end of", "after what"),)
    paraphrases = {
        "train": ('Queue up "{title}" by {artist} after what is already in my queue.',
                  'Put {artist}\'s "{title}" at the end of my play queue.'),
        "test": ('After what is lined up now, I want to hear "{title}" ({artist}). Queue it.',
                 'I want to listen to "{title}" by {artist} once the songs lined up now are '
                 'done: add it to the end of my queue.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        queued = {r["song_id"] for r in probe.query("music/queue")}
        s = choice(rng, [r for r in songs(probe) if r["_id"] not in queued])
        return {"title": s["title"], "artist": s["artist"], "id": int(s["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        n = len(self.before("music/queue"))
        return self.expect(added("music/queue", {"song_id": self.params["id"],
                                                 "position": n + 1}))

    def _queue(self, device: Device, title: str, artist: str = "") -> Iterator[Action]:
        yield from song_menu(device, title, artist)
        yield tap(device, text="Add to queue", rid="sheet_item_title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._queue(device, self.params["title"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the artist instead of the title and queue the song from their list."""
        yield from self._queue(device, self.params["title"], self.params["artist"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Queues another song by the same artist (or any other song)."""
        pool = [r for r in songs(device.probe) if r["_id"] != self.params["id"]]
        same = [r for r in pool if r["artist"] == self.params["artist"]]
        yield from self._queue(device, (same or pool)[0]["title"])
        yield Action("status", goal_status="complete")


@register_task
class MusicShuffleRepeat(Task):
    """Turn shuffle on and set repeat to all songs or to the current song, on Now playing.
    Setup turns both off. Fewer goals: the player has one shuffle switch and two repeat
    modes to ask for."""

    id = "MusicShuffleRepeat"
    apps = ("music",)
    difficulty = "easy"
    tags = ("toggle", "player")
    optimal_steps = 6
    may_change = ("music/player",)
    params_schema = {"mode": str}
    template = "Turn on shuffle and set repeat to {mode} in Music."
    constraints = (("shuffle", "random order"),)
    paraphrases = {
        "train": ("In the music player, switch shuffle on and repeat to {mode}.",
                  "Shuffle my music, and make it repeat {mode}."),
        "test": ("I want my songs in random order and the repeat button on {mode}. Set "
                 "that up in the player.",),
    }

    MODES = {"all songs": "all", "the current song": "one"}

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"mode": ("all songs", "the current song")[int(rng.integers(2))]}

    def setup(self, device: Device) -> None:
        device.fixture("music", "set_player", shuffle=False, repeat="off")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("music/player", 1, shuffle=1,
                                   repeat=self.MODES[self.params["mode"]]))

    def _set(self, device: Device, taps: int) -> Iterator[Action]:
        yield from now_playing(device)
        yield tap(device, desc="Enable shuffle")
        for _ in range(taps):
            yield tap(device, rid="repeat")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, 1 if self.MODES[self.params["mode"]] == "all" else 2)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The other repeat mode."""
        yield from self._set(device, 2 if self.MODES[self.params["mode"]] == "all" else 1)
        yield Action("status", goal_status="complete")


def _playlist_song(rng: np.random.Generator, probe: Probe, *,
                   at_least: int = 1) -> dict[str, Any]:
    """A playlist entry at position ``at_least`` or later (of a song that appears once)."""
    names = {int(p["_id"]): p["name"] for p in playlists(probe)}
    rows = [r for r in probe.query("music/playlist_tracks") if r["position"] >= at_least]
    r = choice(rng, rows)
    return {"name": names[int(r["playlist_id"])], "pid": int(r["playlist_id"]),
            "title": r["title"], "entry": int(r["_id"])}


@register_task
class MusicRemoveFromPlaylist(Task):
    """Take a song out of a playlist: its ``music/playlist_tracks`` row goes and the songs
    after it move up one place."""

    id = "MusicRemoveFromPlaylist"
    apps = ("music",)
    difficulty = "medium"
    tags = ("sheet", "scroll")
    optimal_steps = 7
    may_change = ("music/playlist_tracks",)
    params_schema = {"name": str, "pid": int, "title": str, "entry": int}
    template = 'Remove "{title}" from my playlist "{name}".'
    paraphrases = {
        "train": ('Take "{title}" off the "{name}" playlist.',
                  'I\'m tired of "{title}". Delete it from "{name}".'),
        "test": ('"{name}" should no longer include "{title}". Fix the playlist.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return _playlist_song(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        rows = tracks_of(self.before("music/playlist_tracks"), self.params["pid"])
        me = next(r for r in rows if r["_id"] == self.params["entry"])
        later = {r["_id"]: {"position": r["position"] - 1} for r in rows
                 if r["position"] > me["position"]}
        return self.expect(expect("music/playlist_tracks", removed=[self.params["entry"]],
                                  changed=later))

    def _remove(self, device: Device, title: str, filtered: bool = False) -> Iterator[Action]:
        yield from open_playlist(device, self.params["name"], filtered)
        yield from scroll_to(device, desc=f"More options for {title}")
        yield tap(device, desc=f"More options for {title}")
        yield tap(device, text="Remove from this playlist", rid="sheet_item_title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._remove(device, self.params["title"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the playlist through the library's Playlists filter chip."""
        yield from self._remove(device, self.params["title"], filtered=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Removes the song next to it."""
        rows = tracks_of(device.probe.query("music/playlist_tracks"), self.params["pid"])
        k = next(i for i, r in enumerate(rows) if r["_id"] == self.params["entry"])
        other = rows[k + 1] if k + 1 < len(rows) else rows[k - 1]
        yield from self._remove(device, other["title"])
        yield Action("status", goal_status="complete")


@register_task
class MusicMoveToTop(Task):
    """Move a song to the top of a playlist with "Move up" (its sheet, once per place): its
    position becomes 1 and the songs above it each move down one place."""

    id = "MusicMoveToTop"
    apps = ("music",)
    difficulty = "medium"
    tags = ("sheet", "reorder")
    optimal_steps = 10
    max_steps = 25
    may_change = ("music/playlist_tracks",)
    params_schema = {"name": str, "pid": int, "title": str, "entry": int}
    template = 'Move "{title}" to the top of my playlist "{name}".'
    paraphrases = {
        "train": ('Make "{title}" the first song of "{name}".',
                  'Reorder "{name}" so that it starts with "{title}".'),
        "test": ('When I play "{name}" I want "{title}" to come first. Rearrange it.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in probe.query("music/playlist_tracks") if 2 <= r["position"] <= 4]
        names = {int(p["_id"]): p["name"] for p in playlists(probe)}
        r = choice(rng, rows)
        return {"name": names[int(r["playlist_id"])], "pid": int(r["playlist_id"]),
                "title": r["title"], "entry": int(r["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        rows = tracks_of(self.before("music/playlist_tracks"), self.params["pid"])
        me = next(r for r in rows if r["_id"] == self.params["entry"])
        above = {r["_id"]: {"position": r["position"] + 1} for r in rows
                 if r["position"] < me["position"]}
        return self.expect(expect("music/playlist_tracks",
                                  changed={me["_id"]: {"position": 1}, **above}))

    def _move(self, device: Device, ups: int, filtered: bool = False) -> Iterator[Action]:
        yield from open_playlist(device, self.params["name"], filtered)
        for _ in range(ups):
            yield from scroll_to(device, desc=f"More options for {self.params['title']}")
            yield tap(device, desc=f"More options for {self.params['title']}")
            yield tap(device, text="Move up", rid="sheet_item_title")

    def _place(self, device: Device) -> int:
        """Where the song is now (the oracle reads the phone as it is, before acting)."""
        rows = tracks_of(device.probe.query("music/playlist_tracks"), self.params["pid"])
        return int(next(r["position"] for r in rows if r["_id"] == self.params["entry"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._move(device, self._place(device) - 1)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the playlist through the library's Playlists filter chip."""
        yield from self._move(device, self._place(device) - 1, filtered=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One place short of the top."""
        yield from self._move(device, self._place(device) - 2)
        yield Action("status", goal_status="complete")


@register_task
class MusicRenamePlaylist(Task):
    """Rename a playlist from its menu: its ``music/playlists`` row gets the new name."""

    id = "MusicRenamePlaylist"
    apps = ("music",)
    difficulty = "easy"
    tags = ("dialog", "form")
    optimal_steps = 7
    split = "test"
    may_change = ("music/playlists",)
    params_schema = {"old": str, "new": str, "id": int}
    template = 'Rename my playlist "{old}" to "{new}".'
    paraphrases = {
        "test": ('Change the name of the "{old}" playlist; call it "{new}" from now on.',
                 'My "{old}" playlist needs a new title: "{new}".'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = choice(rng, playlists(probe))
        return {"old": p["name"], "new": unused_name(rng, probe), "id": int(p["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("music/playlists", self.params["id"],
                                   name=same_text(self.params["new"])))

    def _rename(self, device: Device, name: str, filtered: bool = False) -> Iterator[Action]:
        yield from open_playlist(device, self.params["old"], filtered)
        yield tap(device, desc="More options for playlist")
        yield tap(device, text="Rename", rid="sheet_item_title")
        yield type_into(device, name, rid="rename_field")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._rename(device, self.params["new"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the playlist through the library's Playlists filter chip."""
        yield from self._rename(device, self.params["new"], filtered=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """A name one word short (or another name)."""
        words = self.params["new"].split()
        short = " ".join(words[:-1]) if len(words) > 1 else NEW_PLAYLISTS[0]
        yield from self._rename(device, short)
        yield Action("status", goal_status="complete")


@register_task
class MusicPlayUnavailable(Task):
    """Infeasible by design: the song is not available in the owner's region (greyed, "This
    song isn't available in your country or region"); the right move is to try and say so."""

    id = "MusicPlayUnavailable"
    apps = ("music",)
    difficulty = "medium"
    tags = ("infeasible", "search")
    optimal_steps = 5
    feasible = False
    #: the goal is playing: a substitute started instead is a wrong move, not looking
    checks_view = ("music/player",)
    params_schema = {"title": str, "artist": str}
    template = 'Play "{title}" by {artist}.'
    paraphrases = {
        "train": ('Put on {artist}\'s "{title}".',),
        "test": ('I need to hear "{title}" by {artist} right now. Start it in Music.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        s = choice(rng, songs(probe, available=False))
        return {"title": s["title"], "artist": s["artist"]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["title"])
        yield from scroll_to(device, desc=self.params["title"], rid="song_row")
        yield tap(device, desc=self.params["title"], rid="song_row")
        yield Action("status", goal_status="infeasible")


@register_task
class MusicDownloadPlaylist(Task):
    """Infeasible by design: the owner's plan is Music Free, which streams only (a
    playlist's Download button says offline listening is a Premium feature, upgraded on the
    web, not in the app). The plan is drawn per seed; setup puts the account on the free plan
    (``set_plan``). :class:`MusicDownloadPlaylistPremium` is its feasible twin, on a Premium
    account; which one it is shows only in the app."""

    id = "MusicDownloadPlaylist"
    apps = ("music",)
    difficulty = "easy"
    tags: ClassVar[tuple[str, ...]] = ("infeasible",)
    optimal_steps = 5
    feasible = False
    params_schema = {"name": str, "id": int}
    template = 'Download my playlist "{name}" so I can listen to it offline.'
    paraphrases = {
        "train": ('Save "{name}" to the phone for offline listening.',),
        "test": ('I\'ll be on a plane with no internet. Make "{name}" available offline.',),
    }

    #: the account plan the task is posed on (the twin's is Premium): the plan is drawn per
    #: seed, and setup puts the account on this one
    plan = "free"

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [p for p in playlists(probe) if not p["downloaded"]]
        p = choice(rng, rows)
        return {"name": p["name"], "id": int(p["_id"])}

    def setup(self, device: Device) -> None:
        device.fixture("music", "set_plan", plan=self.plan)

    def _download(self, device: Device, name: str, filtered: bool = False
                  ) -> Iterator[Action]:
        yield from open_playlist(device, name, filtered)
        yield tap(device, desc="Download", rid="download_button")

    def oracle(self, device: Device) -> Iterator[Action]:
        """Taps Download, reads that downloads need Premium, and says so."""
        yield from self._download(device, self.params["name"])
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the playlist through the library's Playlists filter chip."""
        yield from self._download(device, self.params["name"], filtered=True)
        yield Action("status", goal_status="infeasible")


@register_task
class MusicDownloadPlaylistPremium(MusicDownloadPlaylist):
    """The feasible twin of :class:`MusicDownloadPlaylist`: its very wordings, on an account
    with Premium, so the playlist's Download button downloads it (its ``music/playlists``
    row gets ``downloaded`` 1). Without a twin "offline" was a word no feasible goal used,
    and ``status infeasible`` on sight of it won the infeasible task blind; which one it is
    shows only in the app (the plan, seen when Download is tapped)."""

    id = "MusicDownloadPlaylistPremium"
    tags = ("toggle",)
    feasible = True
    plan = "premium"
    optimal_steps = 5
    may_change = ("music/playlists",)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("music/playlists", self.params["id"], downloaded=1))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._download(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the playlist through the library's Playlists filter chip."""
        yield from self._download(device, self.params["name"], filtered=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Downloads another playlist of the library instead."""
        other = next(p["name"] for p in self.before("music/playlists")
                     if not p["downloaded"] and p["name"] != self.params["name"])
        yield from self._download(device, other)
        yield Action("status", goal_status="complete")


@register_task
class MusicLikePlaying(Task):
    """Like the song that is playing: its row joins ``music/liked``. Setup puts a song that
    is not liked yet on the player (paused). Fewer goals: the goal names no song, the
    screen shows it (the song itself varies with the seed)."""

    id = "MusicLikePlaying"
    apps = ("music",)
    difficulty = "easy"
    tags = ("player", "toggle")
    optimal_steps = 4
    may_change = ("music/liked",)
    #: the goal names the song by the player ("the one playing"): starting another one
    #: changes which song is meant, so the player is part of the task, not looking
    checks_view = ("music/player",)
    params_schema = {"title": str, "id": int}
    template = "Like the song that is playing in Music right now."
    paraphrases = {
        "train": ("Add the current song to my Liked Songs.",
                  "Save the track that's on in the music player to my likes."),
        "test": ("Whatever is playing at the moment, I love it. Mark it with a heart.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        liked = {r["_id"] for r in probe.query("music/liked")}
        s = choice(rng, [r for r in songs(probe) if r["_id"] not in liked])
        return {"title": s["title"], "id": int(s["_id"])}

    def setup(self, device: Device) -> None:
        device.fixture("music", "set_player", song=self.params["title"], playing=True)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("music/liked", {"_id": self.params["id"],
                                                 "song_id": self.params["id"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from now_playing(device)
        yield tap(device, desc="Add to Liked Songs", rid="like")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Read the playing song off the mini player, then like it from its search result's
        sheet instead of the Now Playing heart."""
        yield from to_tab(device, "Home")
        title = text_of(device, rid="mini_title") or ""
        yield from song_menu(device, title)
        yield tap(device, text="Add to Liked Songs", rid="sheet_item_title")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Likes the song in the queue after it (skipping to it first)."""
        yield from now_playing(device)
        yield tap(device, desc="Next")
        yield tap(device, rid="like")
        yield Action("status", goal_status="complete")
