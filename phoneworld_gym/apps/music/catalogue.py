"""The music catalogue: invented artists, their albums and songs (title, track number,
duration, genre). It is the same on every phone (a streaming service's catalogue); what
varies with the seed is which songs are unavailable in the owner's region, and the owner's
library (playlists, liked songs, queue, player)."""

from __future__ import annotations

from typing import Any

import numpy as np

#: (artist, genre, [(album, year, [song titles])])
ARTISTS: tuple[tuple[str, str, tuple[tuple[str, int, tuple[str, ...]], ...]], ...] = (
    ("Neon Harbor", "Synth-pop", (
        ("Afterglow City", 2024, ("Streetlight Static", "Pastel Skyline", "Night Bus Romance",
                                  "Chrome Hearts Club", "Harborfront", "Glow Until Dawn")),
        ("Signal Lost", 2021, ("Radio Silence", "Low Battery Love", "Tidal Frequencies",
                               "Electric Lullaby", "Last Train Out")),
    )),
    ("The Velvet Lanterns", "Indie rock", (
        ("Paper Satellites", 2023, ("Cardboard Rockets", "Kite Strings", "Orbit Your Porch",
                                    "Lantern Parade", "Houses of Glass", "Slow Comet")),
    )),
    ("Mira Solace", "R&B", (
        ("Honey & Ash", 2025, ("Golden Hour Call", "Soft Spoken", "Velvet Rain",
                               "Say It Slower", "Candlelight Receipts", "Undertow")),
        ("Blue Room Sessions", 2020, ("Blue Room", "Midnight Tea", "Gravity of You",
                                      "Closer Than Close")),
    )),
    ("Copperline", "Country", (
        ("Dust on the Dashboard", 2022, ("Gravel Road Gospel", "Two-Lane Heart",
                                         "Porch Light Waiting", "Dusty Boots Waltz",
                                         "County Fair Fireworks", "Wheat Field Goodbye")),
    )),
    ("DJ Kestrel", "Electronic", (
        ("Thermals", 2024, ("Updraft", "Feather Drop", "Cloudline", "Migration",
                            "Hover Mode", "Tailwind")),
        ("Night Shift EP", 2019, ("Graveyard Shift", "Neon Overtime", "Clocking Out")),
    )),
    ("Juniper & the Owls", "Folk", (
        ("Hollow Oak", 2021, ("Acorn Song", "River Without a Name", "Owl at the Window",
                              "Smoke from the Chimney", "Winter Orchard")),
    )),
    ("Atlas Rhymes", "Hip-hop", (
        ("Map Legend", 2023, ("Compass Rose", "Latitude", "Block by Block", "Topography",
                              "Sea Level Dreams", "Borderlines", "Atlas Shrugs Back")),
    )),
    ("Sable Quartet", "Jazz", (
        ("Smoke Rings", 2018, ("Blue Vesper", "Walking the Bassline", "Rooftop Standards",
                               "Three A.M. Waltz", "Brass Lantern")),
    )),
    ("Ruby Vance", "Pop", (
        ("Confetti Mind", 2025, ("Sugar Rush Hour", "Text Me Back", "Glitter on the Floor",
                                 "Main Character", "Rollercoaster Summer", "Heartbeat Emoji")),
        ("Polaroid", 2022, ("Instant Film", "Flash Forward", "Sepia Kiss", "Shake It Dry")),
    )),
    ("Iron Meadow", "Rock", (
        ("Rust & Thunder", 2020, ("Engine Howl", "Barbed Wire Sky", "Thunder in the Valley",
                                  "Gasoline Prayer", "Hammer Down")),
    )),
    ("Lumen Choir", "Ambient", (
        ("Quiet Architecture", 2023, ("Vaulted Ceiling", "Morning Nave", "Stained Light",
                                      "Echo Chamber Hymn")),
    )),
    ("Paloma Reyes", "Latin", (
        ("Corazón de Neón", 2024, ("Bailando Sola", "Luna de Papel", "Fuego Lento",
                                   "Mar Abierto", "Calle Siete")),
    )),
)


def build() -> dict[str, list[dict[str, Any]]]:
    """The catalogue as ``artists``, ``albums`` and ``songs`` lists (ids count from 1). The
    durations come from a fixed generator, so every phone has the same catalogue."""
    rng = np.random.default_rng(20260314)
    artists: list[dict[str, Any]] = []
    albums: list[dict[str, Any]] = []
    songs: list[dict[str, Any]] = []
    for name, genre, discs in ARTISTS:
        artist_id = len(artists) + 1
        artists.append({"id": artist_id, "name": name, "genre": genre,
                        "listeners": int(rng.integers(40, 2400)) * 1000})
        for title, year, tracks in discs:
            album_id = len(albums) + 1
            albums.append({"id": album_id, "title": title, "artist_id": artist_id,
                           "year": year, "genre": genre})
            for n, song in enumerate(tracks, start=1):
                songs.append({"id": len(songs) + 1, "title": song, "artist_id": artist_id,
                              "album_id": album_id, "track": n, "genre": genre,
                              "duration": int(rng.integers(128, 331)),
                              "plays": int(rng.integers(20, 9000)) * 1000})
    return {"artists": artists, "albums": albums, "songs": songs}


CATALOGUE = build()
SONGS: dict[int, dict[str, Any]] = {s["id"]: s for s in CATALOGUE["songs"]}
ALBUMS: dict[int, dict[str, Any]] = {a["id"]: a for a in CATALOGUE["albums"]}
ARTIST_BY_ID: dict[int, dict[str, Any]] = {a["id"]: a for a in CATALOGUE["artists"]}


def clock(seconds: int) -> str:
    """``"3:07"``: a duration as a player shows it."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def total_label(seconds: int) -> str:
    """``"1 hr 4 min"`` or ``"23 min 5 sec"``: a list's total length, as Spotify writes it."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h} hr {m} min"
    return f"{m} min {s} sec"
