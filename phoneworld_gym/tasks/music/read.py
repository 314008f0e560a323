"""Music information-retrieval tasks: how many songs a playlist has, how long it plays, and
which album a song is on. The right answer comes from the start state's tables (reading
changes nothing but the byproduct recent searches)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch, StringMatch
from phoneworld_gym.oracle import OracleError, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.music.common import (
    by_id,
    open_playlist,
    playlists,
    song_menu,
    songs,
    tracks_of,
)


def _playlist_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    p = choice(rng, playlists(probe))
    return {"name": p["name"], "id": int(p["_id"])}


def _minutes(label: str) -> float:
    """Minutes in a total like "24 min 23 sec" or "1 hr 4 min"."""
    h = re.search(r"(\d+) hr", label)
    m = re.search(r"(\d+) min", label)
    s = re.search(r"(\d+) sec", label)
    if m is None and h is None:
        raise OracleError(f"no length in {label!r}")
    return (int(h.group(1)) * 60 if h else 0) + (int(m.group(1)) if m else 0) + \
        (int(s.group(1)) / 60 if s else 0)


@register_task
class MusicPlaylistSongCount(Task):
    """Count the songs of a playlist (the unavailable ones count too: they are in it)."""

    id = "MusicPlaylistSongCount"
    apps = ("music",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("count",)
    optimal_steps = 4
    answer_matcher = NumberMatch()
    params_schema = {"name": str, "id": int}
    template = 'How many songs are in my playlist "{name}"?'
    paraphrases = {
        "train": ('Count the tracks in the "{name}" playlist in Music.',
                  'What is the number of songs on my "{name}" playlist?'),
        "test": ('Open my music library and tell me how many songs "{name}" holds.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return _playlist_params(rng, probe)

    def expected_answer(self, device: Device) -> Any:
        return len(tracks_of(self.before("music/playlist_tracks"), self.params["id"]))

    def _read(self, device: Device, filtered: bool = False) -> Iterator[Action]:
        yield from open_playlist(device, self.params["name"], filtered)
        total = text_of(device, rid="playlist_total") or ""
        m = re.match(r"(\d+) songs", total)
        if m is None:
            raise OracleError(f"no song count in {total!r}")
        yield Action("answer", text=m.group(1))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the playlist through the library's Playlists filter chip."""
        yield from self._read(device, filtered=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One too many."""
        yield Action("answer", text=str(self.expected_answer(device) + 1))


@register_task
class MusicPlaylistLength(Task):
    """How long a playlist plays, to the nearest minute (the sum of its songs' lengths)."""

    id = "MusicPlaylistLength"
    apps = ("music",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("arithmetic",)
    optimal_steps = 4
    split = "test"
    answer_matcher = NumberMatch(tol=0.5)
    params_schema = {"name": str, "id": int}
    template = 'How many minutes long is my playlist "{name}", to the nearest minute?'
    constraints = ("minute",)
    paraphrases = {
        "test": ('If I play "{name}" from start to end, about how many minutes will it take? '
                 'Round to a whole minute.',
                 'Give me the total running time of the "{name}" playlist in minutes.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return _playlist_params(rng, probe)

    def expected_answer(self, device: Device) -> Any:
        length = by_id(songs(device.probe, available=None))
        secs = sum(length[r["song_id"]]["duration"]
                   for r in tracks_of(self.before("music/playlist_tracks"), self.params["id"]))
        return int(secs / 60 + 0.5)

    def _read(self, device: Device, filtered: bool = False) -> Iterator[Action]:
        yield from open_playlist(device, self.params["name"], filtered)
        total = (text_of(device, rid="playlist_total") or "").split(" • ")[-1]
        yield Action("answer", text=f"{int(_minutes(total) + 0.5)} minutes")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._read(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Reach the playlist through the library's Playlists filter chip."""
        yield from self._read(device, filtered=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Leaves the last song out of the sum."""
        length = by_id(songs(device.probe, available=None))
        rows = tracks_of(self.before("music/playlist_tracks"), self.params["id"])
        secs = sum(length[r["song_id"]]["duration"] for r in rows[:-1])
        yield Action("answer", text=f"{int(secs / 60 + 0.5)} minutes")


@register_task
class MusicSongAlbum(Task):
    """Name the album a song is on (found through the song's "Go to album")."""

    id = "MusicSongAlbum"
    apps = ("music",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("search", "sheet")
    optimal_steps = 6
    answer_matcher = StringMatch(contains=True, candidates=lambda v: ALBUM_TITLES)
    params_schema = {"title": str, "artist": str, "id": int}
    template = 'Which album is the song "{title}" by {artist} on?'
    paraphrases = {
        "train": ('On what album did {artist} release "{title}"?',
                  'Find "{title}" ({artist}) in Music and tell me its album.'),
        "test": ('I like "{title}" by {artist}. What record is it from?',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        s = choice(rng, songs(probe, available=None))
        return {"title": s["title"], "artist": s["artist"], "id": int(s["_id"])}

    def expected_answer(self, device: Device) -> Any:
        return by_id(songs(device.probe, available=None))[self.params["id"]]["album"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from song_menu(device, self.params["title"])
        yield tap(device, text="Go to album", rid="sheet_item_title")
        yield Action("answer", text=text_of(device, rid="header_title") or "")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the artist instead of the title, then the song's "Go to album"."""
        yield from song_menu(device, self.params["title"], self.params["artist"])
        yield tap(device, text="Go to album", rid="sheet_item_title")
        yield Action("answer", text=text_of(device, rid="header_title") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another album of the same artist (or any other album)."""
        me = by_id(songs(device.probe, available=None))[self.params["id"]]
        others = [r["title"] for r in device.probe.query("music/albums")
                  if r["_id"] != me["album_id"]]
        same = [r["title"] for r in device.probe.query("music/albums")
                if r["_id"] != me["album_id"] and r["artist"] == me["artist"]]
        yield Action("answer", text=(same or others)[0])


#: every album title of the catalogue (the same on every phone): the candidates an answer is
#: checked against
ALBUM_TITLES: tuple[str, ...] = (
    "Afterglow City", "Signal Lost", "Paper Satellites", "Honey & Ash", "Blue Room Sessions",
    "Dust on the Dashboard", "Thermals", "Night Shift EP", "Hollow Oak", "Map Legend",
    "Smoke Rings", "Confetti Mind", "Polaroid", "Rust & Thunder", "Quiet Architecture",
    "Corazón de Neón",
)
