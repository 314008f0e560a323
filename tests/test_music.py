"""What is special about the Music app: a song unavailable in the region is greyed and will
not play or queue, Next takes the queue before the album, the repeat button cycles off / all /
one, the seek bar sets the position it is tapped at, playlists refuse a name in use and a song
twice, removing and moving songs renumber the playlist, and bad fixture input is refused
without changing anything. Everything is driven through UI actions on a PhoneWorldDevice and
checked on the app's tables and screen."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from phoneworld_gym.apps.music import store as ms
from phoneworld_gym.apps.music.catalogue import SONGS, clock
from phoneworld_gym.contract import Action
from phoneworld_gym.life import generate as make_life
from phoneworld_gym.oracle import elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.controls import slider_x


def _open(seed: int = 0, apps: tuple[str, ...] = ("music",)) -> PhoneWorldDevice:
    d = PhoneWorldDevice(list(apps))
    d.reset(seed=seed)
    assert d.execute(Action("open_app", app_name="Music")) == ""
    return d


def _do(d: PhoneWorldDevice, a: Action) -> None:
    assert d.execute(a) == "", a


def _steps(d: PhoneWorldDevice, actions: object) -> None:
    for a in actions:  # type: ignore[attr-defined]
        _do(d, a)


def _search(d: PhoneWorldDevice, query: str) -> None:
    _do(d, tap(d, desc="Search", rid="nav_search"))
    _do(d, type_into(d, query, rid="search_src_text"))


def _player(d: PhoneWorldDevice) -> dict[str, object]:
    return d.probe.query("music/player")[0]


def _toast(d: PhoneWorldDevice) -> str:
    return str((d.world.toast or {}).get("text", ""))


def test_an_unavailable_song_is_greyed_and_neither_plays_nor_queues() -> None:
    d = _open(seed=3)
    song = next(r for r in d.probe.query("music/songs") if not r["available"])
    before = (d.probe.query("music/player"), d.probe.query("music/queue"))
    _search(d, song["title"])
    i = find(d, desc=song["title"], rid="song_row")
    assert i is not None
    assert any(e.text and e.text.endswith("Unavailable") for e in elements(d)
               if (e.resource_id or "").endswith("/song_artist"))
    _do(d, Action("click", index=i))
    assert _toast(d) == "This song isn't available in your country or region"
    _do(d, tap(d, desc=f"More options for {song['title']}"))
    labels = [e.text for e in elements(d) if (e.resource_id or "").endswith("/sheet_item_title")]
    assert "Add to queue" not in labels and "Play next" not in labels
    assert "Add to playlist" in labels
    assert text_of(d, rid="unavailable_note") == "This song isn't available in your country " \
        "or region"
    assert (d.probe.query("music/player"), d.probe.query("music/queue")) == before


def test_next_plays_the_queue_first_then_continues_the_album() -> None:
    d = _open(seed=1)
    st = d.world.stores["music"]
    st["queue"] = []
    album = next(a for a in d.probe.query("music/albums")
                 if all(r["available"] for r in d.probe.query("music/songs")
                        if r["album_id"] == a["_id"]))
    tracks = [r for r in d.probe.query("music/songs") if r["album_id"] == album["_id"]]
    queued = next(r for r in d.probe.query("music/songs")
                  if r["available"] and r["album_id"] != album["_id"])
    st["player"]["shuffle"] = False
    st["player"]["repeat"] = "off"
    # queue a song from search, then play the album's first track from the album page
    _search(d, queued["title"])
    _do(d, tap(d, desc=f"More options for {queued['title']}"))
    _do(d, tap(d, text="Add to queue", rid="sheet_item_title"))
    assert [r["song_id"] for r in d.probe.query("music/queue")] == [queued["_id"]]
    _search(d, album["title"])
    _do(d, tap(d, desc=album["title"], rid="album_result"))
    _do(d, tap(d, desc=tracks[0]["title"], rid="song_row"))
    assert text_of(d, rid="track_title") == tracks[0]["title"]
    assert text_of(d, rid="playing_from") == album["title"]
    _do(d, tap(d, desc="Next"))
    assert _player(d)["song_id"] == queued["_id"]
    assert d.probe.query("music/queue") == []
    _do(d, tap(d, desc="Next"))
    # the queue is spent: the album goes on after the track it was on
    assert _player(d)["song_id"] == tracks[0]["_id"]
    _do(d, tap(d, desc="Next"))
    assert _player(d)["song_id"] == tracks[1]["_id"]
    assert text_of(d, rid="track_title") == tracks[1]["title"]


def test_repeat_cycles_off_all_one_and_shuffle_toggles() -> None:
    d = _open(seed=2)
    st = d.world.stores["music"]
    st["player"].update(repeat="off", shuffle=False)
    _do(d, tap(d, rid="mini_player"))
    seen = []
    for desc in ("Enable repeat", "Enable repeat one", "Disable repeat"):
        _do(d, tap(d, desc=desc))
        seen.append(_player(d)["repeat"])
    assert seen == ["all", "one", "off"]
    _do(d, tap(d, desc="Enable shuffle"))
    assert _player(d)["shuffle"] == 1
    assert find(d, desc="Disable shuffle") is not None
    e = elements(d)[find(d, rid="shuffle")]
    assert e.is_selected


def test_the_seek_bar_sets_the_position_under_the_finger() -> None:
    d = _open(seed=4)
    _do(d, tap(d, rid="mini_player"))
    song = SONGS[int(_player(d)["song_id"])]
    bar = elements(d)[find(d, desc="Playback position")]
    b = bar.bbox_pixels
    steps = song["duration"] // 5
    x = slider_x(30, b.x_min, b.x_max, 0, steps)
    _do(d, Action("click", x=x, y=(b.y_min + b.y_max) // 2))
    assert _player(d)["position"] == 150
    assert text_of(d, rid="elapsed") == clock(150) == "2:30"
    assert text_of(d, rid="duration") == clock(song["duration"])


def test_a_new_playlist_gets_the_song_it_came_from_and_refuses_a_name_in_use() -> None:
    d = _open(seed=5)
    taken = d.probe.query("music/playlists")[0]["name"]
    song = next(r for r in d.probe.query("music/songs") if r["available"])
    _search(d, song["title"])
    _do(d, tap(d, desc=f"More options for {song['title']}"))
    _do(d, tap(d, text="Add to playlist", rid="sheet_item_title"))
    _do(d, tap(d, text="New playlist", rid="sheet_item_title"))
    before = d.probe.query("music/playlists")
    _do(d, type_into(d, taken.upper(), rid="playlist_name"))
    assert text_of(d, rid="error_text") == f"You already have a playlist called {taken.upper()}"
    assert d.probe.query("music/playlists") == before
    _do(d, type_into(d, "Test Drive", rid="playlist_name"))
    new = [r for r in d.probe.query("music/playlists") if r not in before]
    assert [r["name"] for r in new] == ["Test Drive"]
    rows = [r for r in d.probe.query("music/playlist_tracks") if r["playlist_id"] == new[0]["_id"]]
    assert [(r["song_id"], r["position"]) for r in rows] == [(song["_id"], 1)]
    assert text_of(d, rid="header_title") == "Test Drive"
    assert text_of(d, rid="playlist_total").startswith("1 songs")


def test_a_song_is_not_added_twice_to_a_playlist() -> None:
    d = _open(seed=6)
    p = d.probe.query("music/playlists")[0]
    entry = next(r for r in d.probe.query("music/playlist_tracks")
                 if r["playlist_id"] == p["_id"])
    before = d.probe.query("music/playlist_tracks")
    _search(d, entry["title"])
    _do(d, tap(d, desc=f"More options for {entry['title']}"))
    _do(d, tap(d, text="Add to playlist", rid="sheet_item_title"))
    _do(d, tap(d, desc=p["name"], rid="target_playlist"))
    assert _toast(d) == f"Already in {p['name']}"
    assert d.probe.query("music/playlist_tracks") == before


def test_remove_and_move_renumber_the_playlist() -> None:
    d = _open(seed=7)
    p = max(d.probe.query("music/playlists"),
            key=lambda p: sum(r["playlist_id"] == p["_id"]
                              for r in d.probe.query("music/playlist_tracks")))

    def order() -> list[tuple[int, int]]:
        rows = sorted((r for r in d.probe.query("music/playlist_tracks")
                       if r["playlist_id"] == p["_id"]), key=lambda r: r["position"])
        assert [r["position"] for r in rows] == list(range(1, len(rows) + 1))
        return [(r["_id"], r["song_id"]) for r in rows]

    start = order()
    _do(d, tap(d, desc="Your Library", rid="nav_your_library"))
    _steps(d, scroll_to(d, desc=p["name"], rid="library_item"))
    _do(d, tap(d, desc=p["name"], rid="library_item"))
    second = SONGS[start[1][1]]["title"]
    _do(d, tap(d, desc=f"More options for {second}"))
    _do(d, tap(d, text="Remove from this playlist", rid="sheet_item_title"))
    assert order() == [start[0], *start[2:]]
    third = SONGS[start[2][1]]["title"]
    _do(d, tap(d, desc=f"More options for {third}"))
    _do(d, tap(d, text="Move up", rid="sheet_item_title"))
    assert order() == [start[2], start[0], *start[3:]]
    shown = [e.content_description for e in elements(d)
             if (e.resource_id or "").endswith("/song_row")]
    assert shown[:2] == [third, SONGS[start[0][1]]["title"]]


def test_rename_refuses_an_empty_name_and_saves_a_new_one() -> None:
    d = _open(seed=8)
    p = d.probe.query("music/playlists")[-1]
    _do(d, tap(d, desc="Your Library", rid="nav_your_library"))
    _steps(d, scroll_to(d, desc=p["name"], rid="library_item"))
    _do(d, tap(d, desc=p["name"], rid="library_item"))
    _do(d, tap(d, desc="More options for playlist"))
    _do(d, tap(d, text="Rename", rid="sheet_item_title"))
    _do(d, type_into(d, "   ", rid="rename_field"))
    assert _toast(d) == "Enter a name"
    assert d.probe.query("music/playlists")[-1] == p
    _do(d, type_into(d, "Renamed Mix", rid="rename_field"))
    assert d.probe.query("music/playlists")[-1]["name"] == "Renamed Mix"
    assert text_of(d, rid="header_title") == "Renamed Mix"


def test_the_library_follows_the_seed_and_the_life() -> None:
    lib = []
    for seed in range(3):
        life = make_life(seed)
        st = ms.generate(np.random.default_rng(seed), life)
        mix = st["playlists"][-1]["name"]
        assert mix.startswith("Mix for ") and mix[8:] in {p.first for p in life.people}
        assert all(len(p["entries"]) >= 4 for p in st["playlists"])
        assert 4 <= len(st["unavailable"]) <= 6
        lib.append((tuple(p["name"] for p in st["playlists"]), tuple(st["liked"])))
    assert len(set(lib)) == 3


def test_fixtures_reject_bad_input_and_change_nothing() -> None:
    d = _open(seed=9)
    st = d.world.stores["music"]
    snapshot = copy.deepcopy(st)
    bad = [({"shuffle": "yes"}, "shuffle"), ({"repeat": "twice"}, "repeat"),
           ({"song": "No Such Song"}, "No Such Song"), ({"playing": 1}, "playing")]
    for kw, word in bad:
        with pytest.raises(ValueError, match=word):
            ms.set_player_fixture(st, **kw)
    gone = SONGS[st["unavailable"][0]]["title"]
    with pytest.raises(ValueError, match="unavailable"):
        ms.set_player_fixture(st, song=gone)
    taken = st["playlists"][0]["name"]
    for kw, word in (({"name": ""}, "name"), ({"name": taken}, "exists"),
                     ({"name": "X", "songs": "Updraft"}, "songs"),
                     ({"name": "X", "songs": ["Updraft", "Nope"]}, "Nope")):
        with pytest.raises(ValueError, match=word):
            ms.add_playlist_fixture(st, **kw)
    assert st == snapshot
    out = d.fixture("music", "add_playlist", name="Fixture Mix", songs=["Updraft", "Latitude"])
    rows = [r for r in d.probe.query("music/playlist_tracks") if r["playlist_id"] == out["_id"]]
    assert [r["title"] for r in rows] == ["Updraft", "Latitude"]


def test_the_queue_screen_removes_one_song_and_clears_the_rest() -> None:
    d = _open(seed=10)
    st = d.world.stores["music"]
    st["queue"] = []
    for sid in [r["_id"] for r in d.probe.query("music/songs") if r["available"]][:3]:
        ms.enqueue(st, sid)
    queued = d.probe.query("music/queue")
    _do(d, tap(d, rid="mini_player"))
    _do(d, tap(d, desc="Queue"))
    assert [e.text for e in elements(d) if (e.resource_id or "").endswith("/queue_title")] \
        == [r["title"] for r in queued]
    _do(d, tap(d, desc=f"Remove {queued[1]['title']} from queue"))
    left = d.probe.query("music/queue")
    assert [(r["_id"], r["position"]) for r in left] == [(queued[0]["_id"], 1),
                                                         (queued[2]["_id"], 2)]
    _do(d, tap(d, text="Clear queue", rid="clear_queue"))
    assert d.probe.query("music/queue") == []
    assert text_of(d, rid="empty_queue", nth=0).startswith("Your queue is empty")
