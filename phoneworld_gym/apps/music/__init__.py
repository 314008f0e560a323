"""Music: a Spotify-like streaming app in the dark (Home, Search, Your Library; albums,
artists, playlists with rename, reorder and delete, Liked Songs, the queue and Now playing
with a seek bar, shuffle and repeat; playlists download for offline listening on the
Premium plan, which about half the owners have). Some songs of the catalogue are not
available in the owner's region: they are greyed and will not play. Its tables
(``music/playlists``, ``music/playlist_tracks``, ``music/queue``, ``music/player``,
``music/liked``; the static catalogue ``music/songs``, ``music/albums``, ``music/artists``
and the plan ``music/account``; the byproduct ``music/searches``) are PhoneWorld-only: a
real phone's music app keeps its library private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.music import screens, screens_play, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class MusicApp(App):
    name = "music"
    label = "Music"
    package = "com.phoneworld.music"
    icon = "headphones"
    aliases = ("spotify", "music app", "youtube music")
    theme = Theme(primary=(30, 215, 96), on_primary=(0, 0, 0),
                  primary_container=(41, 65, 50), on_primary_container=(30, 215, 96),
                  surface=(18, 18, 18), surface_container=(33, 33, 33),
                  surface_high=(42, 42, 42), on_surface=(255, 255, 255),
                  on_surface_variant=(179, 179, 179), outline=(124, 124, 124),
                  outline_variant=(72, 72, 72), error=(241, 94, 108),
                  success=(30, 215, 96))
    main_screen = "main"
    screens = {"main": screens.main, "search": screens.search, "library": screens.library,
               "album": screens.album, "artist": screens.artist,
               "playlist": screens_play.playlist, "new_playlist": screens_play.new_playlist,
               "now_playing": screens_play.now_playing, "queue": screens_play.queue}
    #: a liked, listed or queued song is the song (its title, artist and place follow)
    new_rows = {"music/liked": new_row({"song_id": GIVEN}, free="_id title artist"),
                "music/playlists": new_row({"name": GIVEN, "description": "",
                                            "downloaded": 0}, text="name description"),
                "music/playlist_tracks": new_row({"playlist_id": GIVEN, "song_id": GIVEN},
                                                 free="_id title artist position"),
                "music/queue": new_row({"song_id": GIVEN}, free="_id title artist position")}
    providers = {"music/songs": store.song_rows, "music/albums": store.album_rows,
                 "music/account": store.account_rows,
                 "music/artists": store.artist_rows, "music/playlists": store.playlist_rows,
                 "music/playlist_tracks": store.playlist_track_rows,
                 "music/queue": store.queue_rows, "music/player": store.player_rows,
                 "music/liked": store.liked_rows, "music/searches": store.search_rows}
    static_tables = frozenset({"music/songs", "music/albums", "music/artists",
                               "music/account"})
    byproduct_tables = frozenset({"music/searches"})
    #: what is playing and where it is: playing a song to hear it. Shuffle and repeat are
    #: switches the user sets, and the queue is a list the user makes, so they stay state
    view_state = {"music/player": ("song_id", "title", "artist", "playing", "position",
                                   "context_type", "context_id")}
    fixtures = {"set_player": store.set_player_fixture, "set_plan": store.set_plan_fixture,
                "add_playlist": store.add_playlist_fixture}
    network_screens = ("search", "artist")
    promos = ({"title": "Try Premium for $0", "text": "Ad-free music and unlimited skips. "
               "$10.99 a month after the first month. Cancel anytime."},)

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
