"""Shared pieces of the Music tasks: the rows of ``music/songs`` (``_id``, ``title``,
``artist``, ``album``, ``album_id``, ``duration``, ``plays``, ``available``, ...),
``music/playlists`` (``_id``, ``name``, ``description``), ``music/playlist_tracks``
(``_id``, ``playlist_id``, ``song_id``, ``position``), ``music/queue`` (``_id``,
``song_id``, ``position``), ``music/player`` (one row) and ``music/liked``, and the usual UI
paths (the tabs, search, a song's "More options" sheet, a playlist).

A real phone's music app keeps its library private, so these tasks run on PhoneWorld only.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import elements, find, scroll_to, tap, type_into
from phoneworld_gym.tasks.kit import open_root

#: names a task asks to give a new playlist (none is seeded)
NEW_PLAYLISTS: tuple[str, ...] = (
    "Weekend Vibes", "Study Session", "Beach Day", "Dinner Party", "Workout Mix",
    "Coffee Shop", "Summer Nights", "Good Mood", "Wind Down", "Cleaning Day",
    "Sing Along", "Deep Focus", "Sunset Drive", "Brunch Beats", "Slow Dance",
    "Night Owl", "Feel Good Friday", "Jam Session", "Lazy Sunday", "Power Hour",
)


def songs(probe: Probe, *, available: bool | None = True) -> list[Row]:
    """Catalogue songs (``available`` True / False: only those that play / do not play in
    the owner's region; None: all)."""
    return [r for r in probe.query("music/songs")
            if available is None or bool(r["available"]) == available]


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {int(r["_id"]): r for r in rows}


def playlists(probe: Probe) -> list[Row]:
    return probe.query("music/playlists")


def tracks_of(rows: list[Row], pid: int) -> list[Row]:
    """A playlist's entries in order."""
    return sorted((r for r in rows if r["playlist_id"] == pid), key=lambda r: r["position"])


def unused_name(rng: np.random.Generator, probe: Probe) -> str:
    taken = {p["name"].lower() for p in playlists(probe)}
    free = [n for n in NEW_PLAYLISTS if n.lower() not in taken]
    return free[int(rng.integers(len(free)))]


# -- UI paths --------------------------------------------------------------------------------
def to_tab(device: Device, tab: str) -> Iterator[Action]:
    """Open Music, back out to a screen with the navigation bar, then the tab ``tab`` ("Home",
    "Search" or "Your Library")."""
    rid = f"nav_{tab.lower().replace(' ', '_')}"
    yield from open_root(device, "Music", lambda d: find(d, desc=tab, rid=rid) is not None,
                         tries=6, package="com.phoneworld.music",
                         fail="the Music tabs never showed")
    i = find(device, desc=tab, rid=rid)
    if i is None or not elements(device)[i].is_selected:
        yield tap(device, desc=tab, rid=rid)


def search(device: Device, query: str) -> Iterator[Action]:
    """From anywhere: the Search tab with ``query`` typed and entered."""
    yield from to_tab(device, "Search")
    yield type_into(device, query, rid="search_src_text")


def song_menu(device: Device, title: str, artist: str = "") -> Iterator[Action]:
    """Search a song by title (or, the second path, by its ``artist``: the artist's songs
    are listed) and open its "More options" sheet."""
    yield from search(device, artist or title)
    yield from scroll_to(device, desc=f"More options for {title}")
    yield tap(device, desc=f"More options for {title}")


def add_to_playlist(device: Device, title: str, playlist: str) -> Iterator[Action]:
    """Search a song and add it to the playlist named ``playlist`` from its sheet."""
    yield from song_menu(device, title)
    yield tap(device, text="Add to playlist", rid="sheet_item_title")
    yield tap(device, desc=playlist, rid="target_playlist")


def open_playlist(device: Device, name: str, filtered: bool = False) -> Iterator[Action]:
    """From anywhere: Your Library, then the playlist ``name`` (or "Liked Songs");
    ``filtered`` (the second path) first narrows the library with its Playlists chip."""
    yield from to_tab(device, "Your Library")
    if filtered:
        yield tap(device, text="Playlists", rid="filter_chip")
    yield from scroll_to(device, desc=name, rid="library_item")
    yield tap(device, desc=name, rid="library_item")


def create_playlist(device: Device, name: str) -> Iterator[Action]:
    """From anywhere: Your Library's +, the name, Create (the new, empty playlist opens)."""
    yield from to_tab(device, "Your Library")
    yield tap(device, desc="Create playlist")
    yield type_into(device, name, rid="playlist_name")


def now_playing(device: Device) -> Iterator[Action]:
    """From anywhere: Home, then the mini player (Now playing opens)."""
    yield from to_tab(device, "Home")
    yield tap(device, rid="mini_player")
