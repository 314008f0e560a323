"""Music screens, like Spotify's: Home (quick picks, jump back in, new releases), Search
(recent searches, genres, results), Your Library (playlists, albums, artists), an album, an
artist, a playlist (Liked Songs is one too) with rename and delete, a new playlist, Now
playing (seek bar, like, shuffle, repeat) and the queue."""

from __future__ import annotations

from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.music import parts
from phoneworld_gym.apps.music import store as ms
from phoneworld_gym.apps.music.catalogue import (
    ALBUMS,
    ARTIST_BY_ID,
    CATALOGUE,
    SONGS,
    clock,
    total_label,
)
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

GENRES = sorted({a["genre"] for a in CATALOGUE["artists"]})


def _page(ctx: Ctx, body: View) -> Page:
    return Page(body, dialog=parts.song_sheet(ctx))


def _tile(ctx: Ctx, label: str, key: str, on_click: Handler, glyph: str = "music") -> View:
    """A Home quick-pick tile: cover on the left, the name."""
    return Row([parts.art(key, 56, glyph=glyph),
                Text(label, size=13, weight="medium", color=ctx.theme.on_surface, max_lines=2,
                     flex=1, in_dump=False)],
               gap=dp(8), flex=1, height=dp(56), bg=ctx.theme.surface_high, radius=dp(4),
               on_click=on_click, text=label, desc=label, rid="quick_pick",
               cls="android.widget.Button")


def _card(ctx: Ctx, title: str, sub: str, key: str, on_click: Handler, rid: str) -> View:
    """An album card: cover, title, one line under it."""
    return Column([parts.art(key, 104),
                   Text(title, size=13, weight="medium", color=ctx.theme.on_surface,
                        max_lines=1, rid=f"{rid}_title"),
                   Text(sub, size=12, color=ctx.theme.on_surface_variant, max_lines=1)],
                  gap=dp(4), flex=1, on_click=on_click, desc=title, rid=rid,
                  cls="android.widget.LinearLayout")


# -- Home ------------------------------------------------------------------------------------
def main(ctx: Ctx) -> View | Page:
    """Home: a greeting, six quick picks (Liked Songs, playlists, albums), "Jump back in" and
    "New releases"."""
    th = ctx.theme
    st = ctx.store
    hour = int(ctx.now[11:13])
    greet = "Good morning" if hour < 12 else "Good afternoon" if hour < 18 else "Good evening"
    picks: list[View] = [_tile(ctx, "Liked Songs", "liked", ctx.go("playlist", id=0), "heart")]
    picks += [_tile(ctx, p["name"], p["name"], ctx.go("playlist", id=p["id"]))
              for p in st["playlists"][:3]]
    recent = [ALBUMS[SONGS[i]["album_id"]] for i in st["liked"]]
    seen: list[dict[str, Any]] = []
    for a in recent:
        if a not in seen:
            seen.append(a)
    for a in seen[:6 - len(picks)]:
        picks.append(_tile(ctx, a["title"], a["title"], ctx.go("album", id=a["id"])))
    grid = [Row(picks[i:i + 2], gap=dp(8)) for i in range(0, len(picks), 2)]
    jump = [_card(ctx, a["title"], ARTIST_BY_ID[a["artist_id"]]["name"], a["title"],
                  ctx.go("album", id=a["id"]), "album_card") for a in seen[:3]]
    new = sorted(CATALOGUE["albums"], key=lambda a: (-a["year"], a["id"]))[:3]
    fresh = [_card(ctx, a["title"], parts.album_line(a).split(" • ", 1)[1], a["title"],
                   ctx.go("album", id=a["id"]), "album_card") for a in new]
    offset, on_scroll = ctx.scroll()
    rows: list[View] = [
        Row([Text(greet, size=24, weight="bold", color=th.on_surface, flex=1, rid="greeting"),
             w.icon_button("history", "Recent searches", lambda: ctx.reset_to("search"),
                           theme=th, color=th.on_surface)],
            padding=(w.MARGIN, dp(12), dp(4), dp(8))),
        Column(grid, gap=dp(8), padding=(w.MARGIN, 0, w.MARGIN, 0)),
        w.section("Jump back in", theme=th),
        Row(jump, gap=dp(12), padding=(w.MARGIN, 0, w.MARGIN, 0)),
        w.section("New releases", theme=th),
        Row(fresh, gap=dp(12), padding=(w.MARGIN, 0, w.MARGIN, dp(16))),
    ]
    return _page(ctx, parts.chrome(ctx, "main", Scroll(rows, offset=offset,
                                                        on_scroll=on_scroll, rid="home_feed")))


# -- Search ----------------------------------------------------------------------------------
def search(ctx: Ctx) -> View | Page:
    """The search field; empty, it lists recent searches and genres to browse; with a query,
    songs, artists and albums. Enter records the query in the recent searches."""
    th = ctx.theme
    st = ctx.store
    query, on_query = ctx.field("q")

    def submit() -> None:
        ms.remember_search(st, query)

    def run(q: str) -> Handler:
        def h() -> None:
            on_query(q)
            ms.remember_search(st, q)
        return h

    field = w.text_field("q", query, on_text=on_query, on_submit=submit, rid="search_src_text",
                         hint="What do you want to listen to?", outlined=False, flex=1)
    rows: list[View] = []
    hits = ms.search(query)
    if not query.strip():
        if st["searches"]:
            rows.append(w.section("Recent searches", theme=th))
            for q in st["searches"]:
                rows.append(Row([Icon("history", size=18, box=40, color=th.on_surface_variant,
                                      in_dump=False),
                                 Text(q, size=16, color=th.on_surface, flex=1, in_dump=False)],
                                gap=dp(12), height=dp(56), padding=(w.MARGIN, 0, w.MARGIN, 0),
                                on_click=run(q), text=q, rid="recent_search",
                                cls="android.widget.TextView"))
        rows.append(w.section("Browse all", theme=th))
        tiles = [Text(g, size=16, weight="bold", color=(255, 255, 255), bg=parts.tint(g),
                      radius=dp(8), height=dp(72), padding=(dp(12), dp(12), dp(12), 0),
                      flex=1, on_click=run(g), rid="genre_tile",
                      cls="android.widget.Button") for g in GENRES]
        rows.append(Column([Row(tiles[i:i + 2], gap=dp(12)) for i in range(0, len(tiles), 2)],
                           gap=dp(12), padding=(w.MARGIN, 0, w.MARGIN, dp(16))))
    elif not any(hits.values()):
        rows.append(Text(f'No results found for "{query.strip()}"', size=16, align="center",
                         color=th.on_surface, padding=(w.MARGIN, dp(48), w.MARGIN, 0),
                         rid="empty_text"))
    else:
        for a in hits["artists"][:3]:
            rows.append(w.list_item(a["name"], subtitle="Artist", theme=th, rid="artist_result",
                                    desc=a["name"],
                                    leading=parts.art(a["name"], 48, glyph="user", circle=True),
                                    on_click=ctx.go("artist", id=a["id"])))
        for a in hits["albums"][:3]:
            rows.append(w.list_item(a["title"], subtitle=parts.album_line(a), theme=th,
                                    rid="album_result", desc=a["title"],
                                    leading=parts.art(a["title"], 48),
                                    on_click=ctx.go("album", id=a["id"])))
        if hits["songs"]:
            rows.append(w.section("Songs", theme=th))
        for s in hits["songs"]:
            rows.append(parts.song_row(ctx, s, extra="Song", on_play=_player(
                ctx, s["id"], "album", s["album_id"])))
    offset, on_scroll = ctx.scroll()
    body = parts.chrome(ctx, "search", Column([
        Text("Search", size=24, weight="bold", color=th.on_surface,
             padding=(w.MARGIN, dp(12), w.MARGIN, dp(8))),
        Row([field], padding=(w.MARGIN, 0, w.MARGIN, dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="search_results"),
    ], flex=1))
    return _page(ctx, body)


def _player(ctx: Ctx, sid: int, kind: str, cid: Any) -> Handler:
    """A handler that plays ``sid`` from a context and opens Now playing."""
    def h() -> None:
        if ms.play(ctx.store, sid, kind, cid):
            ctx.push("now_playing")
        else:
            ctx.toast(parts.UNAVAILABLE)
    return h


# -- Your Library ----------------------------------------------------------------------------
def library(ctx: Ctx) -> View | Page:
    """Filter chips (Playlists, Albums, Artists), then Liked Songs, the playlists and the
    saved artists and albums; + creates a playlist."""
    th = ctx.theme
    st = ctx.store
    kind = str(ctx.state.get("filter", ""))
    chips = [w.chip(label, selected=kind == label, rid="filter_chip", theme=th,
                    on_click=ctx.setter("filter", "" if kind == label else label))
             for label in ("Playlists", "Albums", "Artists")]
    rows: list[View] = []
    if kind in ("", "Playlists"):
        rows.append(w.list_item("Liked Songs", subtitle=f"Playlist • {len(st['liked'])} songs",
                                desc="Liked Songs",
                                leading=parts.art("liked", 56, glyph="heart"), theme=th,
                                rid="library_item", on_click=ctx.go("playlist", id=0)))
        for p in st["playlists"]:
            rows.append(w.list_item(p["name"], subtitle=f"Playlist • {len(p['entries'])} songs",
                                    desc=p["name"],
                                    leading=parts.art(p["name"], 56), theme=th,
                                    rid="library_item", on_click=ctx.go("playlist", id=p["id"])))
    liked_albums = sorted({SONGS[i]["album_id"] for i in st["liked"]})
    if kind in ("", "Albums"):
        for aid in liked_albums:
            a = ALBUMS[aid]
            rows.append(w.list_item(a["title"], subtitle=parts.album_line(a), theme=th,
                                    leading=parts.art(a["title"], 56), rid="library_item",
                                    desc=a["title"],
                                    on_click=ctx.go("album", id=aid)))
    if kind in ("", "Artists"):
        for arid in sorted({ALBUMS[aid]["artist_id"] for aid in liked_albums}):
            a = ARTIST_BY_ID[arid]
            rows.append(w.list_item(a["name"], subtitle="Artist", theme=th, rid="library_item",
                                    desc=a["name"],
                                    leading=parts.art(a["name"], 56, glyph="user", circle=True),
                                    on_click=ctx.go("artist", id=arid)))
    offset, on_scroll = ctx.scroll(kind or "all")
    head = Row([Icon("circle_user", size=28, box=40, color=parts.GREEN, in_dump=False),
                Text("Your Library", size=22, weight="bold", color=th.on_surface, flex=1),
                w.icon_button("search", "Search", lambda: ctx.reset_to("search"), theme=th,
                              color=th.on_surface),
                w.icon_button("plus", "Create playlist", ctx.go("new_playlist"),
                              rid="create_playlist", theme=th, color=th.on_surface)],
               gap=dp(8), height=dp(64), padding=(w.MARGIN, 0, dp(4), 0))
    body = parts.chrome(ctx, "library", Column([
        head, Row(chips, gap=dp(8), padding=(w.MARGIN, 0, w.MARGIN, dp(8))),
        Scroll(rows, offset=offset, on_scroll=on_scroll, rid="library_list"),
    ], flex=1))
    return _page(ctx, body)


# -- an album and an artist ------------------------------------------------------------------
def _header(ctx: Ctx, key: str, title: str, lines: list[View], *, glyph: str = "music",
            circle: bool = False) -> list[View]:
    th = ctx.theme
    return [Row([View(flex=1, in_dump=False), parts.art(key, 200, glyph=glyph, circle=circle),
                 View(flex=1, in_dump=False)], padding=(0, dp(8), 0, dp(16)), in_dump=False),
            Text(title, size=24, weight="bold", color=th.on_surface, rid="header_title",
                 padding=(w.MARGIN, 0, w.MARGIN, dp(4))),
            Column(lines, gap=dp(4), padding=(w.MARGIN, 0, w.MARGIN, dp(8)))]


def _top_bar(ctx: Ctx, actions: list[View] | None = None) -> Row:
    return Row([w.icon_button("back", "Navigate up", ctx.pop, theme=ctx.theme,
                              color=ctx.theme.on_surface), View(flex=1, in_dump=False),
                *(actions or [])], height=dp(56), padding=(dp(4), 0, dp(4), 0))


def _play_row(ctx: Ctx, first: int | None, kind: str, cid: Any, extra: list[View]) -> Row:
    """The row under a header: its own buttons, then Shuffle and the green Play button."""
    th = ctx.theme
    pl = ctx.store["player"]
    playing_here = pl["context_type"] == kind and pl["context_id"] == cid and pl["playing"]

    def play() -> None:
        if playing_here:
            pl["playing"] = False
        elif first is not None:
            ms.play(ctx.store, first, kind, cid)

    shuffle = w.icon_button("shuffle", "Shuffle off" if pl["shuffle"] else "Shuffle on",
                            lambda: pl.update(shuffle=not pl["shuffle"]), rid="header_shuffle",
                            theme=th, color=parts.GREEN if pl["shuffle"] else
                            th.on_surface_variant, selected=bool(pl["shuffle"]))
    big = Icon("pause" if playing_here else "play", size=22, box=56, radius=dp(28),
               bg=parts.GREEN, color=(0, 0, 0), desc="Pause" if playing_here else "Play",
               rid="play_button", on_click=play if first is not None else None,
               cls="android.widget.ImageButton")
    return Row([*extra, View(flex=1, in_dump=False), shuffle, big], gap=dp(8),
               padding=(dp(4), 0, w.MARGIN, dp(8)))


def album(ctx: Ctx) -> View | Page:
    """An album: cover, title, artist (a tap opens the artist), year, play, the tracks with
    their numbers and lengths, and the total."""
    th = ctx.theme
    a = ALBUMS.get(int(ctx.args.get("id", 0)))
    if a is None:
        return Page(Column([_top_bar(ctx), w.text("Album not found", theme=th)], bg=th.surface))
    songs = ms.album_songs(a["id"])
    artist = ARTIST_BY_ID[a["artist_id"]]
    playable = [s["id"] for s in songs if ms.available(ctx.store, s["id"])]
    lines: list[View] = [
        Row([parts.art(artist["name"], 24, glyph="user", circle=True),
             Text(artist["name"], size=14, weight="bold", color=th.on_surface,
                  rid="header_artist")], gap=dp(8),
            on_click=ctx.go("artist", id=artist["id"]), desc=artist["name"],
            rid="artist_link", cls="android.widget.LinearLayout"),
        Text(f"Album • {a['year']} • {a['genre']}", size=13, color=th.on_surface_variant,
             rid="header_meta")]
    rows = _header(ctx, a["title"], a["title"], lines)
    rows.append(_play_row(ctx, playable[0] if playable else None, "album", a["id"], []))
    for s in songs:
        num = Text(str(s["track"]), size=15, color=th.on_surface_variant, width=dp(24),
                   align="center", in_dump=False)
        rows.append(parts.song_row(ctx, s, lead=num, extra=clock(s["duration"]),
                                   on_play=_player(ctx, s["id"], "album", a["id"])))
    total = sum(s["duration"] for s in songs)
    rows.append(Text(f"{len(songs)} songs • {total_label(total)}", size=13,
                     color=th.on_surface_variant, padding=(w.MARGIN, dp(12), w.MARGIN, dp(24)),
                     rid="album_total"))
    offset, on_scroll = ctx.scroll()
    return _page(ctx, Column([_top_bar(ctx), Scroll(rows, offset=offset, on_scroll=on_scroll,
                                                    rid="album_tracks")], bg=th.surface))


def artist(ctx: Ctx) -> View | Page:
    """An artist: monthly listeners, Popular (the five most played songs with their plays)
    and the discography."""
    th = ctx.theme
    a = ARTIST_BY_ID.get(int(ctx.args.get("id", 0)))
    if a is None:
        return Page(Column([_top_bar(ctx), w.text("Artist not found", theme=th)],
                           bg=th.surface))
    top = ms.popular(a["id"])
    lines: list[View] = [Text(f"{a['listeners']:,} monthly listeners", size=13,
                              color=th.on_surface_variant, rid="listeners")]
    rows = _header(ctx, a["name"], a["name"], lines, glyph="user", circle=True)
    playable = [s["id"] for s in top if ms.available(ctx.store, s["id"])]
    rows.append(_play_row(ctx, playable[0] if playable else None, "artist", a["id"], []))
    rows.append(w.section("Popular", theme=th))
    for k, s in enumerate(top, start=1):
        num = Text(str(k), size=15, color=th.on_surface_variant, width=dp(24), align="center",
                   in_dump=False)
        rows.append(parts.song_row(ctx, s, lead=num, extra=f"{s['plays']:,} plays",
                                   on_play=_player(ctx, s["id"], "artist", a["id"])))
    rows.append(w.section("Discography", theme=th))
    for al in ms.artist_albums(a["id"]):
        rows.append(w.list_item(al["title"], subtitle=f"{al['year']} • Album", theme=th,
                                leading=parts.art(al["title"], 64), rid="discography_item",
                                desc=al["title"],
                                on_click=ctx.go("album", id=al["id"])))
    rows.append(w.spacer(dp(24)))
    offset, on_scroll = ctx.scroll()
    return _page(ctx, Column([_top_bar(ctx), Scroll(rows, offset=offset, on_scroll=on_scroll,
                                                    rid="artist_page")], bg=th.surface))
