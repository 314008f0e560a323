"""Music data: the owner's library (playlists, liked songs), the play queue, the player and
recent searches, over the fixed catalogue of :mod:`.catalogue`.

The store is ``{"unavailable": [song ids], "playlists": [...], "liked": [song ids, newest
first], "queue": [{id, song_id}], "player": {...}, "searches": [...], "plan", "next_playlist",
"next_entry", "next_queue"}``. A playlist is ``{id, name, description, downloaded, entries:
[{id, song_id}]}``; ``plan`` is the account's, ``"premium"`` or ``"free"`` (drawn per seed):
only Premium downloads playlists for offline listening, as on a streaming app. The player
is ``{song_id, playing, shuffle, repeat ("off" / "all" / "one"), position (seconds),
context_type ("album" / "playlist" / "liked" / "artist" / ""), context_id}``.

Tables (PhoneWorld-only: a real phone's music app keeps its library private):
``music/songs``, ``music/albums``, ``music/artists`` (static: the catalogue; a song's
``available`` is 0 where it is not licensed in the owner's region), ``music/account``
(static: one row, the ``plan``, "Premium" or "Free"), ``music/playlists`` (``_id``,
``name``, ``description``, ``downloaded`` 0/1), ``music/playlist_tracks`` (``_id``,
``playlist_id``, ``song_id``, ``title``, ``artist``, ``position`` from 1), ``music/queue`` (``_id``,
``song_id``, ``title``, ``artist``, ``position`` from 1), ``music/player`` (one row),
``music/liked`` (``_id`` = ``song_id``, ``title``, ``artist``) and the byproduct
``music/searches``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.apps.music.catalogue import ALBUMS, ARTIST_BY_ID, CATALOGUE, SONGS
from phoneworld_gym.life import Life

REPEATS: tuple[str, ...] = ("off", "all", "one")
#: the account plans: only Premium downloads music for offline listening
PLANS: tuple[str, ...] = ("premium", "free")
PLAYLIST_NAMES: tuple[str, ...] = (
    "Morning Run", "Chill Evenings", "Road Trip", "Focus Flow", "Sunday Cooking",
    "Party Starters", "Rainy Day", "Throwbacks", "Gym Hype", "Late Night Drive",
)
SEARCHES: tuple[str, ...] = ("jazz", "ruby vance", "thermals", "acoustic", "copperline",
                             "night", "mira")


def generate(rng: np.random.Generator, life: Life) -> dict[str, Any]:
    """Three to four playlists (one named for a friend from the life), a handful of liked
    songs, a short queue, a paused player and a few recent searches; four to six songs of the
    catalogue are unavailable in the owner's region. About half the owners have Premium
    (downloads for offline listening), and half of those have one playlist downloaded
    already; the others have the free plan, which streams only (a task that needs one plan
    sets it with the ``set_plan`` fixture)."""
    ids = [s["id"] for s in CATALOGUE["songs"]]
    unavailable = sorted(int(i) for i in rng.choice(ids, size=int(rng.integers(4, 7)),
                                                    replace=False))
    st: dict[str, Any] = {"unavailable": unavailable, "playlists": [], "liked": [],
                          "queue": [], "searches": [], "next_playlist": 1, "next_entry": 1,
                          "next_queue": 1}
    ok = [i for i in ids if i not in unavailable]
    names = [PLAYLIST_NAMES[int(i)] for i in rng.choice(len(PLAYLIST_NAMES),
                                                        size=int(rng.integers(2, 4)),
                                                        replace=False)]
    friend = life.people[int(rng.integers(len(life.people)))]
    names.append(f"Mix for {friend.first}")
    for name in names:
        p = add_playlist(st, name)
        picks = [int(i) for i in rng.choice(ids, size=int(rng.integers(4, 11)), replace=False)]
        for sid in picks:
            add_entry(st, p, sid)
    st["playlists"][-1]["description"] = f"Songs {friend.first} would love"
    st["liked"] = [int(i) for i in rng.choice(ok, size=int(rng.integers(5, 11)), replace=False)]
    for sid in rng.choice(ok, size=int(rng.integers(0, 4)), replace=False):
        enqueue(st, int(sid))
    first = st["playlists"][0]
    current = next((e["song_id"] for e in first["entries"] if e["song_id"] not in unavailable),
                   ok[0])
    st["player"] = {"song_id": current, "playing": False, "shuffle": bool(rng.random() < 0.4),
                    "repeat": REPEATS[int(rng.integers(3))],
                    "position": int(rng.integers(0, SONGS[current]["duration"] // 2)),
                    "context_type": "playlist", "context_id": first["id"]}
    st["searches"] = [SEARCHES[int(i)] for i in rng.choice(len(SEARCHES),
                                                           size=int(rng.integers(2, 5)),
                                                           replace=False)]
    # drawn last, so the library above is the same whatever the plan
    st["plan"] = PLANS[int(rng.integers(2))]
    if st["plan"] == "premium" and rng.random() < 0.5:
        st["playlists"][int(rng.integers(len(st["playlists"])))]["downloaded"] = True
    return st


# -- reading ---------------------------------------------------------------------------------
def available(st: dict[str, Any], song_id: int) -> bool:
    return song_id not in st["unavailable"]


def artist_name(song: dict[str, Any]) -> str:
    return str(ARTIST_BY_ID[song["artist_id"]]["name"])


def playlist(st: dict[str, Any], pid: Any) -> dict[str, Any] | None:
    return next((p for p in st["playlists"] if p["id"] == pid), None)


def album_songs(album_id: int) -> list[dict[str, Any]]:
    return [s for s in CATALOGUE["songs"] if s["album_id"] == album_id]


def artist_albums(artist_id: int) -> list[dict[str, Any]]:
    return sorted((a for a in CATALOGUE["albums"] if a["artist_id"] == artist_id),
                  key=lambda a: -a["year"])


def popular(artist_id: int, n: int = 5) -> list[dict[str, Any]]:
    """The artist's most played songs, most played first."""
    return sorted((s for s in CATALOGUE["songs"] if s["artist_id"] == artist_id),
                  key=lambda s: -s["plays"])[:n]


def context_songs(st: dict[str, Any], kind: str, cid: Any) -> list[int]:
    """The song ids a context plays in order (an album's tracks, a playlist's entries, the
    liked songs, an artist's popular songs)."""
    if kind == "album":
        return [s["id"] for s in album_songs(int(cid))]
    if kind == "playlist":
        p = playlist(st, cid)
        return [e["song_id"] for e in p["entries"]] if p else []
    if kind == "liked":
        return list(st["liked"])
    if kind == "artist":
        return [s["id"] for s in popular(int(cid))]
    return []


def context_label(st: dict[str, Any], kind: str, cid: Any) -> str:
    """What the player says it is playing from: an album's or playlist's name."""
    if kind == "album" and cid in ALBUMS:
        return str(ALBUMS[cid]["title"])
    if kind == "playlist":
        p = playlist(st, cid)
        return str(p["name"]) if p else ""
    if kind == "liked":
        return "Liked Songs"
    if kind == "artist" and cid in ARTIST_BY_ID:
        return str(ARTIST_BY_ID[cid]["name"])
    return ""


def shuffled(ids: list[int]) -> list[int]:
    """A fixed shuffle order of a context (the same every time: no wall-clock randomness)."""
    return sorted(ids, key=lambda i: (i * 2654435761) % 1000003)


def up_next(st: dict[str, Any], n: int = 5) -> list[int]:
    """The next songs of the current context after the current one (shuffle order when
    shuffle is on), skipping unavailable songs."""
    pl = st["player"]
    order = context_songs(st, pl["context_type"], pl["context_id"])
    if pl["shuffle"]:
        order = shuffled(order)
    order = [i for i in order if available(st, i)]
    if pl["song_id"] in order:
        k = order.index(pl["song_id"])
        after = order[k + 1:]
        if pl["repeat"] == "all":
            after += order[:k]
    else:
        after = order
    return after[:n]


# -- the player ------------------------------------------------------------------------------
def play(st: dict[str, Any], song_id: int, kind: str = "", cid: Any = 0) -> bool:
    """Start ``song_id`` from its start in a context; False (nothing changes) when the song
    is unavailable in the region."""
    if song_id not in SONGS:
        raise ValueError(f"no song with id {song_id!r}")
    if not available(st, song_id):
        return False
    st["player"].update(song_id=song_id, playing=True, position=0, context_type=kind,
                        context_id=cid)
    return True


def skip_next(st: dict[str, Any]) -> None:
    """Next: the first queued song (it leaves the queue), else the next song of the context;
    at the end of a context without repeat, playback stops on the last song."""
    pl = st["player"]
    if st["queue"]:
        entry = st["queue"].pop(0)
        pl.update(song_id=entry["song_id"], position=0, playing=True)
        return
    nxt = up_next(st, 1)
    if nxt:
        pl.update(song_id=nxt[0], position=0, playing=True)
    else:
        pl.update(position=0, playing=False)


def skip_previous(st: dict[str, Any]) -> None:
    """Previous: back to the start of the song after its first three seconds, else the song
    before it in the context."""
    pl = st["player"]
    if pl["position"] > 3:
        pl["position"] = 0
        return
    order = context_songs(st, pl["context_type"], pl["context_id"])
    if pl["shuffle"]:
        order = shuffled(order)
    order = [i for i in order if available(st, i)]
    if pl["song_id"] in order and order.index(pl["song_id"]) > 0:
        pl["song_id"] = order[order.index(pl["song_id"]) - 1]
    pl["position"] = 0


def cycle_repeat(st: dict[str, Any]) -> None:
    pl = st["player"]
    pl["repeat"] = REPEATS[(REPEATS.index(pl["repeat"]) + 1) % len(REPEATS)]


# -- library ---------------------------------------------------------------------------------
def toggle_like(st: dict[str, Any], song_id: int) -> bool:
    """Like or unlike a song; True when it is liked now (newest first)."""
    if song_id in st["liked"]:
        st["liked"].remove(song_id)
        return False
    st["liked"].insert(0, song_id)
    return True


def enqueue(st: dict[str, Any], song_id: int, *, first: bool = False) -> dict[str, Any]:
    """Add a song to the end of the queue (``first``: play it next)."""
    entry = {"id": st["next_queue"], "song_id": song_id}
    st["next_queue"] += 1
    if first:
        st["queue"].insert(0, entry)
    else:
        st["queue"].append(entry)
    return entry


def dequeue(st: dict[str, Any], entry_id: int) -> None:
    st["queue"] = [e for e in st["queue"] if e["id"] != entry_id]


def add_playlist(st: dict[str, Any], name: str, description: str = "") -> dict[str, Any]:
    p = {"id": st["next_playlist"], "name": name, "description": description,
         "downloaded": False, "entries": []}
    st["next_playlist"] += 1
    st["playlists"].append(p)
    return p


def add_entry(st: dict[str, Any], p: dict[str, Any], song_id: int) -> bool:
    """Append a song to a playlist; False when it is already there (nothing changes)."""
    if any(e["song_id"] == song_id for e in p["entries"]):
        return False
    p["entries"].append({"id": st["next_entry"], "song_id": song_id})
    st["next_entry"] += 1
    return True


def remove_entry(p: dict[str, Any], entry_id: int) -> None:
    p["entries"] = [e for e in p["entries"] if e["id"] != entry_id]


def move_entry(p: dict[str, Any], entry_id: int, delta: int) -> None:
    """Move an entry up (-1) or down (+1) one place."""
    es = p["entries"]
    k = next(i for i, e in enumerate(es) if e["id"] == entry_id)
    j = k + delta
    if 0 <= j < len(es):
        es[k], es[j] = es[j], es[k]


def set_downloaded(st: dict[str, Any], p: dict[str, Any], on: bool) -> bool:
    """Download a playlist for offline listening (or remove the download); False (nothing
    changes) on the free plan, which cannot download."""
    if st.get("plan") != "premium":
        return False
    p["downloaded"] = bool(on)
    return True


def delete_playlist(st: dict[str, Any], pid: int) -> None:
    st["playlists"] = [p for p in st["playlists"] if p["id"] != pid]
    pl = st["player"]
    if pl["context_type"] == "playlist" and pl["context_id"] == pid:
        pl.update(context_type="", context_id=0)


def remember_search(st: dict[str, Any], query: str) -> None:
    q = query.strip()
    if q:
        st["searches"] = [q] + [s for s in st["searches"] if s.lower() != q.lower()][:7]


def search(query: str) -> dict[str, list[dict[str, Any]]]:
    """Songs (title, artist, album or genre match), artists and albums matching ``query``."""
    q = query.strip().lower()
    if not q:
        return {"songs": [], "artists": [], "albums": []}
    songs = [s for s in CATALOGUE["songs"] if q in s["title"].lower()
             or q in artist_name(s).lower() or q in ALBUMS[s["album_id"]]["title"].lower()
             or q == s["genre"].lower()]
    artists = [a for a in CATALOGUE["artists"] if q in a["name"].lower()
               or q == a["genre"].lower()]
    albums = [a for a in CATALOGUE["albums"] if q in a["title"].lower()
              or q in ARTIST_BY_ID[a["artist_id"]]["name"].lower()]
    return {"songs": sorted(songs, key=lambda s: -s["plays"]), "artists": artists,
            "albums": albums}


def share_text(song: dict[str, Any]) -> str:
    return (f"{song['title']} by {artist_name(song)} on Music: "
            f"https://music.phoneworld.app/track/{song['id']}")


# -- tables ----------------------------------------------------------------------------------
def song_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/songs`` (static): the catalogue with each song's availability here."""
    return [{"_id": s["id"], "title": s["title"], "artist": artist_name(s),
             "artist_id": s["artist_id"], "album": ALBUMS[s["album_id"]]["title"],
             "album_id": s["album_id"], "track": s["track"], "duration": s["duration"],
             "genre": s["genre"], "plays": s["plays"], "available": int(available(st, s["id"]))}
            for s in CATALOGUE["songs"]]


def album_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/albums`` (static)."""
    return [{"_id": a["id"], "title": a["title"], "artist": ARTIST_BY_ID[a["artist_id"]]["name"],
             "artist_id": a["artist_id"], "year": a["year"], "genre": a["genre"],
             "tracks": len(album_songs(a["id"]))} for a in CATALOGUE["albums"]]


def artist_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/artists`` (static)."""
    return [{"_id": a["id"], "name": a["name"], "genre": a["genre"],
             "listeners": a["listeners"]} for a in CATALOGUE["artists"]]


def playlist_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/playlists``: name, description and whether it is downloaded for offline
    listening (the tracks are in ``music/playlist_tracks``)."""
    return [{"_id": p["id"], "name": p["name"], "description": p["description"],
             "downloaded": int(bool(p.get("downloaded")))}
            for p in sorted(st["playlists"], key=lambda p: p["id"])]


def account_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/account`` (static): the owner's plan, "Premium" or "Free"."""
    return [{"_id": 1, "plan": str(st.get("plan", "free")).title()}]


def playlist_track_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/playlist_tracks``: one row per entry, ``position`` its place in the list."""
    rows = []
    for p in st["playlists"]:
        for k, e in enumerate(p["entries"], start=1):
            s = SONGS[e["song_id"]]
            rows.append({"_id": e["id"], "playlist_id": p["id"], "song_id": s["id"],
                         "title": s["title"], "artist": artist_name(s), "position": k})
    return sorted(rows, key=lambda r: r["_id"])


def queue_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/queue``: the songs queued to play next, ``position`` 1 first."""
    rows = [{"_id": e["id"], "song_id": e["song_id"], "title": SONGS[e["song_id"]]["title"],
             "artist": artist_name(SONGS[e["song_id"]]), "position": k}
            for k, e in enumerate(st["queue"], start=1)]
    return sorted(rows, key=lambda r: r["_id"])


def player_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/player``: one row, the current song and the playback switches."""
    pl = st["player"]
    s = SONGS[pl["song_id"]]
    return [{"_id": 1, "song_id": s["id"], "title": s["title"], "artist": artist_name(s),
             "playing": int(pl["playing"]), "shuffle": int(pl["shuffle"]),
             "repeat": pl["repeat"], "position": int(pl["position"]),
             "context_type": pl["context_type"], "context_id": pl["context_id"]}]


def liked_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/liked``: the liked songs, by song id."""
    return sorted(({"_id": i, "song_id": i, "title": SONGS[i]["title"],
                    "artist": artist_name(SONGS[i])} for i in st["liked"]),
                  key=lambda r: r["_id"])


def search_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """``music/searches`` (byproduct): recent searches, newest first."""
    return [{"_id": k, "query": q} for k, q in enumerate(st["searches"], start=1)]


# -- fixtures --------------------------------------------------------------------------------
def _song_by_title(title: Any, what: str) -> dict[str, Any]:
    hit = next((s for s in CATALOGUE["songs"] if isinstance(title, str)
                and s["title"].lower() == title.strip().lower()), None)
    if hit is None:
        raise ValueError(f"{what}: no song titled {title!r} in the catalogue")
    return hit


def set_player_fixture(st: dict[str, Any], shuffle: Any = None, repeat: Any = None,
                       playing: Any = None, song: Any = None) -> dict[str, Any]:
    """Setup routine: set the player's switches (each optional) and its song (a title).
    A bad argument raises ``ValueError`` naming it and changes nothing."""
    for name, v in (("shuffle", shuffle), ("playing", playing)):
        if v is not None and not isinstance(v, bool):
            raise ValueError(f"set_player: {name} must be true or false, got {v!r}")
    if repeat is not None and repeat not in REPEATS:
        raise ValueError(f"set_player: repeat must be one of {REPEATS}, got {repeat!r}")
    s = _song_by_title(song, "set_player") if song is not None else None
    if s is not None and not available(st, s["id"]):
        raise ValueError(f"set_player: song {song!r} is unavailable in this region")
    pl = st["player"]
    if shuffle is not None:
        pl["shuffle"] = shuffle
    if repeat is not None:
        pl["repeat"] = repeat
    if playing is not None:
        pl["playing"] = playing
    if s is not None:
        pl.update(song_id=s["id"], position=0, context_type="album",
                  context_id=s["album_id"])
    return player_rows(st)[0]


def set_plan_fixture(st: dict[str, Any], plan: Any = None) -> dict[str, Any]:
    """Setup routine: put the account on ``plan`` ("premium" or "free"; on the free plan
    nothing stays downloaded). Returns the ``music/account`` row; a bad argument raises
    ``ValueError`` naming it and changes nothing."""
    if plan not in PLANS:
        raise ValueError(f"set_plan: plan must be one of {PLANS}, got {plan!r}")
    st["plan"] = plan
    if plan == "free":
        for p in st["playlists"]:
            p["downloaded"] = False
    return account_rows(st)[0]


def add_playlist_fixture(st: dict[str, Any], name: Any = None,
                         songs: Any = ()) -> dict[str, Any]:
    """Setup routine: a new playlist ``name`` holding the songs titled in ``songs``.
    Returns its ``_id`` and ``name``; a bad argument raises ``ValueError`` naming it and
    changes nothing."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"add_playlist: name must be a non-empty string, got {name!r}")
    if any(p["name"].lower() == name.strip().lower() for p in st["playlists"]):
        raise ValueError(f"add_playlist: a playlist named {name!r} exists already")
    if not isinstance(songs, (list, tuple)):
        raise ValueError(f"add_playlist: songs must be a list of titles, got {songs!r}")
    found = [_song_by_title(t, "add_playlist") for t in songs]
    p = add_playlist(st, name.strip())
    for s in found:
        add_entry(st, p, s["id"])
    return {"_id": p["id"], "name": p["name"]}
