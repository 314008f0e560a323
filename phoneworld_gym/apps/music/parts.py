"""Pieces every Music screen shares: cover art, a song row (greyed when the song is not
available in the region), the song's "more" sheet with its follow-up "Add to playlist" sheet,
the mini player and the bottom navigation."""

from __future__ import annotations

import zlib
from typing import Any

from phoneworld_gym.apps.music import store as ms
from phoneworld_gym.apps.music.catalogue import ALBUMS, ARTIST_BY_ID, SONGS
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.scaffold import tab_nav
from phoneworld_gym.ui.sheets import bottom_sheet
from phoneworld_gym.ui.view import Column, Handler, Image, Row, Text, View, dp

GREEN = (30, 215, 96)
DIM = (110, 110, 110)
UNAVAILABLE = "This song isn't available in your country or region"
_TINTS = ((196, 64, 87), (58, 109, 196), (232, 150, 45), (70, 160, 110), (140, 82, 200),
          (40, 150, 170), (210, 92, 50), (120, 130, 60), (180, 70, 150), (80, 90, 120))


def tint(key: str) -> tuple[int, int, int]:
    """A stable cover colour for an album, playlist or artist name."""
    return _TINTS[zlib.crc32(key.encode()) % len(_TINTS)]


def art(key: str, size: float, *, glyph: str = "music", circle: bool = False) -> Image:
    """Cover art: a tinted square (an artist: a circle) with a glyph."""
    return Image(tint=tint(key), glyph=glyph, circle=circle, width=dp(size), height=dp(size),
                 radius=dp(4), in_dump=False)


def song_art(song: dict[str, Any], size: float) -> Image:
    return art(ALBUMS[song["album_id"]]["title"], size)


def song_row(ctx: Ctx, song: dict[str, Any], *, on_play: Handler, lead: View | None = None,
             entry: int = 0, playlist: int = 0, extra: str = "") -> Row:
    """A song: cover (or track number), title, artist (greyed and not playable when it is
    unavailable here; the current song's title in green) and the "More options" button that
    opens the song sheet. ``entry``/``playlist`` name the playlist entry the row shows."""
    th = ctx.theme
    ok = ms.available(ctx.store, song["id"])
    current = ctx.store["player"]["song_id"] == song["id"]
    color = GREEN if current and ok else th.on_surface if ok else DIM
    sub = ms.artist_name(song) + (f" • {extra}" if extra else "")
    lines: list[View] = [Text(song["title"], size=16, color=color, max_lines=1,
                              rid="song_title"),
                         Text(sub if ok else f"{sub} • Unavailable", size=13,
                              color=th.on_surface_variant if ok else DIM, max_lines=1,
                              rid="song_artist")]

    def tap() -> None:
        if not ms.available(ctx.store, song["id"]):
            ctx.toast(UNAVAILABLE)
            return
        on_play()

    more = w.icon_button("more", f"More options for {song['title']}",
                         ctx.show_dialog("song", song=song["id"], entry=entry,
                                         playlist=playlist),
                         rid="song_more", theme=th)
    return Row([lead if lead is not None else song_art(song, 48),
                Column(lines, flex=1, gap=dp(2)), more],
               gap=dp(12), padding=(w.MARGIN, dp(6), dp(4), dp(6)), on_click=tap,
               desc=song["title"], rid="song_row",
               cls="android.widget.LinearLayout")


def pill(label: str, on_click: Handler, *, rid: str, icon: str = "") -> View:
    """Spotify's green play pill / outlined secondary button."""
    return w.button(label, on_click, rid=rid, theme=_GREEN_THEME, icon=icon)


_GREEN_THEME = w.Theme(primary=GREEN, on_primary=(0, 0, 0))


def song_sheet(ctx: Ctx) -> View | None:
    """The dialog this screen shows, if it is one of the song's sheets: "song" (its actions)
    or "add" (pick a playlist to add it to)."""
    data = ctx.state.get("_dialog_data") or {}
    if ctx.dialog == "song":
        return _actions_sheet(ctx, int(data["song"]), int(data.get("entry", 0)),
                              int(data.get("playlist", 0)))
    if ctx.dialog == "add":
        return _add_sheet(ctx, int(data["song"]))
    return None


def _actions_sheet(ctx: Ctx, sid: int, entry: int, pid: int) -> View:
    th = ctx.theme
    st = ctx.store
    song = SONGS[sid]
    ok = ms.available(st, sid)
    liked = sid in st["liked"]

    def close(fn: Any, message: str = "") -> Handler:
        def h() -> None:
            ctx.close_dialog()
            fn()
            if message:
                ctx.toast(message)
        return h

    def like() -> None:
        now = ms.toggle_like(st, sid)
        ctx.toast("Added to Liked Songs" if now else "Removed from Liked Songs")

    def queue(first: bool) -> Handler:
        def h() -> None:
            ctx.close_dialog()
            if not ms.available(st, sid):
                ctx.toast(UNAVAILABLE)
                return
            ms.enqueue(st, sid, first=first)
            ctx.toast("Playing next" if first else "Added to queue")
        return h

    header = Row([song_art(song, 48),
                  Column([Text(song["title"], size=16, weight="medium", color=th.on_surface,
                               max_lines=1, rid="sheet_song_title"),
                          Text(ms.artist_name(song), size=13, color=th.on_surface_variant,
                               max_lines=1, rid="sheet_song_artist")], flex=1)],
                 gap=dp(12), padding=(dp(24), dp(4), dp(24), dp(12)))
    items: list[Any] = [header]
    if not ok:
        items.append(Text(UNAVAILABLE, size=13, color=DIM, padding=(dp(24), 0, dp(24), dp(8)),
                          rid="unavailable_note"))
    items.append(("heart", "Remove from Liked Songs" if liked else "Add to Liked Songs", like))
    items.append(("circle_plus", "Add to playlist", ctx.show_dialog("add", song=sid)))
    if pid and entry:
        p = ms.playlist(st, pid)
        if p is not None:
            items.append(("minus", "Remove from this playlist",
                          close(lambda: ms.remove_entry(p, entry), "Removed from playlist")))
            items.append(("arrow_up", "Move up", close(lambda: ms.move_entry(p, entry, -1))))
            items.append(("chevron_down", "Move down",
                          close(lambda: ms.move_entry(p, entry, 1))))
    if ok:
        items.append(("forward_step", "Play next", queue(True)))
        items.append(("list", "Add to queue", queue(False)))
    items.append(("music", "Go to album", close(lambda: ctx.push("album",
                                                                 id=song["album_id"]))))
    items.append(("user", "Go to artist", close(lambda: ctx.push("artist",
                                                                 id=song["artist_id"]))))
    items.append(("share", "Share", ctx.share(text=ms.share_text(song),
                                               subject=song["title"])))
    return bottom_sheet("", items, theme=th)


def _add_sheet(ctx: Ctx, sid: int) -> View:
    """"Add to playlist": New playlist (named next, with the song in it) or one of the
    playlists (a playlist that has the song already says so)."""
    st = ctx.store
    th = ctx.theme

    def to(p: dict[str, Any]) -> Handler:
        def h() -> None:
            ctx.close_dialog()
            if ms.add_entry(st, p, sid):
                ctx.toast(f"Added to {p['name']}")
            else:
                ctx.toast(f"Already in {p['name']}")
        return h

    def new() -> None:
        ctx.close_dialog()
        ctx.push("new_playlist", song=sid)

    items: list[Any] = [("plus", "New playlist", new)]
    for p in st["playlists"]:
        items.append(Row([art(p["name"], 40),
                          Column([Text(p["name"], size=16, color=th.on_surface, max_lines=1,
                                       rid="target_playlist_name"),
                                  Text(f"{len(p['entries'])} songs", size=13,
                                       color=th.on_surface_variant)], flex=1)],
                         gap=dp(16), padding=(dp(24), dp(6), dp(24), dp(6)), on_click=to(p),
                         desc=p["name"], rid="target_playlist",
                         cls="android.widget.LinearLayout"))
    return bottom_sheet("Add to playlist", items, theme=th)


def mini_player(ctx: Ctx) -> View:
    """The bar above the navigation: the current song, Like and Play/Pause; a tap opens
    Now playing."""
    th = ctx.theme
    st = ctx.store
    pl = st["player"]
    song = SONGS[pl["song_id"]]

    def toggle() -> None:
        pl["playing"] = not pl["playing"]

    frac = pl["position"] / max(1, song["duration"])
    bar = Row([View(flex=max(0.001, frac), height=dp(2), bg=(255, 255, 255), in_dump=False),
               View(flex=max(0.001, 1 - frac), height=dp(2), bg=(90, 90, 90), in_dump=False)],
              in_dump=False)
    body = Row([song_art(song, 40),
                Column([Text(song["title"], size=14, weight="medium", color=th.on_surface,
                             max_lines=1, rid="mini_title"),
                        Text(ms.artist_name(song), size=13, color=th.on_surface_variant,
                             max_lines=1, rid="mini_artist")], flex=1),
                w.icon_button("pause" if pl["playing"] else "play",
                              "Pause" if pl["playing"] else "Play", toggle, rid="mini_play",
                              theme=th, color=th.on_surface)],
               gap=dp(10), padding=(dp(8), dp(4), dp(4), dp(4)), on_click=ctx.go("now_playing"),
               desc=f"Now playing: {song['title']}", rid="mini_player",
               cls="android.widget.LinearLayout")
    return Column([body, Row([bar], padding=(dp(8), 0, dp(8), 0), in_dump=False)],
                  bg=(60, 42, 52), radius=dp(8), padding=(0, 0, 0, dp(2)), flex=1)


def nav(ctx: Ctx, current: str) -> View:
    """Home, Search, Your Library."""
    return tab_nav(ctx, [("home", "Home", "main"), ("search", "Search", "search"),
                         ("layer_group", "Your Library", "library")], current)


def chrome(ctx: Ctx, current: str, content: View) -> Column:
    """A top-level tab: its content, the mini player and the navigation bar."""
    return Column([content, Row([mini_player(ctx)], padding=(dp(8), dp(4), dp(8), dp(4))),
                   nav(ctx, current)], bg=ctx.theme.surface)


def album_line(album: dict[str, Any]) -> str:
    return f"Album • {ARTIST_BY_ID[album['artist_id']]['name']} • {album['year']}"
