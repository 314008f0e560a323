"""Music screens around playing: a playlist (or Liked Songs) with its menu, rename and
delete; naming a new playlist; Now playing (seek bar, like, shuffle, previous, play/pause,
next, repeat); and the queue (remove, clear, what plays after it)."""

from __future__ import annotations

from typing import Any

from phoneworld_gym.app import Page
from phoneworld_gym.apps.music import parts
from phoneworld_gym.apps.music import store as ms
from phoneworld_gym.apps.music.catalogue import SONGS, clock, total_label
from phoneworld_gym.apps.music.screens import _header, _play_row, _player, _top_bar
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.sheets import bottom_sheet
from phoneworld_gym.ui.view import Column, Handler, Icon, Row, Scroll, Text, View, dp

WHITE = (255, 255, 255)
_SEEK_THEME = w.Theme(primary=WHITE, primary_container=(83, 83, 83))
SEEK_STEP = 5  #: seconds per step of the seek bar


# -- a playlist ------------------------------------------------------------------------------
def playlist(ctx: Ctx) -> View | Page:
    """A playlist (``id`` 0: Liked Songs): cover, name, description, the song count and total
    length, download (Premium only), play and shuffle, its songs (each with the song sheet:
    remove, move up/down), and the playlist menu (rename, delete, share)."""
    th = ctx.theme
    st = ctx.store
    pid = int(ctx.args.get("id", 0))
    p = ms.playlist(st, pid) if pid else None
    if pid and p is None:
        return Page(Column([_top_bar(ctx), w.text("This playlist was deleted.", theme=th,
                                                  padding=(w.MARGIN,) * 4)], bg=th.surface))
    if p is None:
        name, desc, kind = "Liked Songs", "Songs you like, in one place", "liked"
        entries: list[tuple[int, int]] = [(0, i) for i in st["liked"]]
    else:
        name, desc, kind = p["name"], p["description"], "playlist"
        entries = [(e["id"], e["song_id"]) for e in p["entries"]]
    songs = [SONGS[sid] for _, sid in entries]
    total = sum(s["duration"] for s in songs)
    lines: list[View] = []
    if desc:
        lines.append(Text(desc, size=13, color=th.on_surface_variant, rid="header_description"))
    lines.append(Text(f"{len(songs)} songs • {total_label(total)}", size=13,
                      color=th.on_surface_variant, rid="playlist_total"))
    if p is not None and p.get("downloaded"):
        lines.append(Text("Downloaded • plays offline", size=13, weight="medium",
                          color=parts.GREEN, rid="downloaded_label"))
    rows = _header(ctx, name if p else "liked", name, lines,
                   glyph="music" if p else "heart")
    extra: list[View] = []
    if p is not None:
        extra.append(_download_button(ctx, p))
        extra.append(w.icon_button("more", "More options for playlist",
                                   ctx.show_dialog("menu"), rid="playlist_more", theme=th))
    playable = [s["id"] for s in songs if ms.available(st, s["id"])]
    rows.append(_play_row(ctx, playable[0] if playable else None, kind, pid, extra))
    for (eid, sid), s in zip(entries, songs):
        rows.append(parts.song_row(ctx, s, entry=eid, playlist=pid, extra=clock(s["duration"]),
                                   on_play=_player(ctx, sid, kind, pid)))
    if not songs:
        rows.append(Column([
            Text("Let's start building your playlist" if p else "Songs you like will appear "
                 "here", size=18, weight="bold", align="center", color=th.on_surface,
                 rid="empty_title"),
            Text("Find songs in Search and use Add to playlist" if p else
                 "Save songs by tapping the heart icon", size=14, align="center",
                 color=th.on_surface_variant)], gap=dp(8), padding=(w.MARGIN, dp(32),
                                                                     w.MARGIN, 0)))
    rows.append(w.spacer(dp(24)))
    offset, on_scroll = ctx.scroll()
    body = Column([_top_bar(ctx), Scroll(rows, offset=offset, on_scroll=on_scroll,
                                         rid="playlist_tracks")], bg=th.surface)
    dlg = parts.song_sheet(ctx)
    if p is not None and dlg is None:
        dlg = _playlist_dialog(ctx, p)
    return Page(body, dialog=dlg)


def _download_button(ctx: Ctx, p: dict[str, Any]) -> View:
    """The download toggle under a playlist's header: on Premium it downloads the playlist
    for offline listening (green when it is) or asks before removing the download; on the
    free plan it explains that downloads need Premium."""
    th = ctx.theme
    on = bool(p.get("downloaded"))

    def tap() -> None:
        if ctx.store.get("plan") != "premium":
            ctx.show_dialog("premium")()
        elif on:
            ctx.show_dialog("undownload")()
        else:
            ms.set_downloaded(ctx.store, p, True)
            ctx.toast(f"Downloaded {p['name']}")

    return w.icon_button("download", "Remove download" if on else "Download", tap,
                         rid="download_button", theme=th,
                         color=parts.GREEN if on else th.on_surface_variant, selected=on)


def _playlist_dialog(ctx: Ctx, p: dict[str, Any]) -> View | None:
    th = ctx.theme
    st = ctx.store
    if ctx.dialog == "menu":
        text = f"{p['name']}: https://music.phoneworld.app/playlist/{p['id']}"
        return bottom_sheet(p["name"], [
            ("edit", "Rename", ctx.show_dialog("rename")),
            ("trash", "Delete playlist", ctx.show_dialog("delete")),
            ("share", "Share", ctx.share(text=text, subject=p["name"])),
        ], theme=th)
    if ctx.dialog == "rename":
        name, on_name = ctx.field("rename", p["name"])

        def save() -> None:
            n = name.strip()
            if not n:
                ctx.toast("Enter a name")
                return
            if any(q["name"].lower() == n.lower() and q is not p for q in st["playlists"]):
                ctx.toast(f"You already have a playlist called {n}")
                return
            p["name"] = n
            ctx.close_dialog()

        field = w.text_field("rename", name, on_text=on_name, on_submit=save,
                             rid="rename_field", label="Playlist name")
        return w.dialog("Edit playlist name", "", [("Cancel", ctx.close_dialog),
                                                   ("Save", save)], theme=th, body=[field])
    if ctx.dialog == "premium":
        return w.dialog("Download with Premium",
                        "Your plan is Music Free, which streams only. Listening offline is a "
                        "Premium feature: upgrade at music.phoneworld.app/premium to download "
                        "playlists.", [("Got it", ctx.close_dialog)], theme=th)
    if ctx.dialog == "undownload":
        def undownload() -> None:
            ms.set_downloaded(st, p, False)
            ctx.close_dialog()
            ctx.toast(f"Removed {p['name']} from downloads")

        return w.dialog("Remove from downloads?", "You won't be able to play this playlist "
                        "offline.", [("Cancel", ctx.close_dialog), ("Remove", undownload)],
                        theme=th)
    if ctx.dialog == "delete":
        def delete() -> None:
            ms.delete_playlist(st, p["id"])
            ctx.close_dialog()
            ctx.pop()
            ctx.toast(f"Deleted {p['name']}")

        return w.dialog("Delete playlist?", f"This will delete {p['name']} from Your Library.",
                        [("Cancel", ctx.close_dialog), ("Delete", delete)], theme=th)
    return None


def new_playlist(ctx: Ctx) -> View | Page:
    """"Give your playlist a name": Create makes it (with the song it was started from, if
    any) and opens it; a name in use already is refused with a message."""
    th = ctx.theme
    st = ctx.store
    default = f"My playlist #{len(st['playlists']) + 1}"
    name, on_name = ctx.field("name", default)
    err = str(ctx.state.get("error", ""))
    sid = ctx.args.get("song")

    def create() -> None:
        n = name.strip()
        if not n:
            ctx.state["error"] = "Enter a name for your playlist"
            return
        if any(q["name"].lower() == n.lower() for q in st["playlists"]):
            ctx.state["error"] = f"You already have a playlist called {n}"
            return
        p = ms.add_playlist(st, n)
        if isinstance(sid, int) and sid in SONGS:
            ms.add_entry(st, p, sid)
            ctx.toast(f"Added to {n}")
        ctx.replace("playlist", id=p["id"])

    kids: list[View] = [
        Text("Give your playlist a name", size=24, weight="bold", align="center",
             color=th.on_surface, rid="new_playlist_title"),
        w.text_field("name", name, on_text=on_name, on_submit=create, rid="playlist_name",
                     label="Playlist name"),
    ]
    if err:
        kids.append(Text(err, size=13, color=th.error, align="center", rid="error_text"))
    kids.append(Row([View(flex=1, in_dump=False),
                     w.button("Cancel", ctx.pop, style="outlined", rid="cancel", theme=th),
                     parts.pill("Create", create, rid="create"),
                     View(flex=1, in_dump=False)], gap=dp(16)))
    body = Column([_top_bar(ctx), Column(kids, gap=dp(24), padding=(dp(32), dp(120), dp(32), 0),
                                         flex=1)], bg=th.surface)
    return Page(body)


# -- Now playing -----------------------------------------------------------------------------
def now_playing(ctx: Ctx) -> View | Page:
    """The full player: where it plays from, the cover, title and artist with Like, the seek
    bar (5-second steps) with elapsed and total time, shuffle, previous, play/pause, next,
    repeat (off, all, one), Share and the queue."""
    th = ctx.theme
    st = ctx.store
    pl = st["player"]
    song = SONGS[pl["song_id"]]
    liked = song["id"] in st["liked"]
    source = ms.context_label(st, pl["context_type"], pl["context_id"])
    kind = {"album": "ALBUM", "playlist": "PLAYLIST", "liked": "PLAYLIST",
            "artist": "ARTIST"}.get(pl["context_type"], "")

    def seek(step: int) -> None:
        pl["position"] = min(song["duration"], step * SEEK_STEP)

    def like() -> None:
        now = ms.toggle_like(st, song["id"])
        ctx.toast("Added to Liked Songs" if now else "Removed from Liked Songs")

    def shuffle() -> None:
        pl["shuffle"] = not pl["shuffle"]

    def toggle() -> None:
        pl["playing"] = not pl["playing"]

    top = Row([w.icon_button("chevron_down", "Close", ctx.pop, theme=th, color=th.on_surface),
               Column([Text(f"PLAYING FROM {kind}" if kind else "NOW PLAYING", size=11,
                            weight="medium", color=th.on_surface_variant, align="center"),
                       Text(source, size=13, weight="bold", color=th.on_surface,
                            align="center", max_lines=1, rid="playing_from")], flex=1),
               w.icon_button("more", f"More options for {song['title']}",
                             ctx.show_dialog("song", song=song["id"]), theme=th,
                             color=th.on_surface)],
              height=dp(64), padding=(dp(4), 0, dp(4), 0))
    cover = Row([View(flex=1, in_dump=False), parts.song_art(song, 328),
                 View(flex=1, in_dump=False)], padding=(0, dp(24), 0, dp(40)), in_dump=False)
    title = Row([Column([Text(song["title"], size=22, weight="bold", color=th.on_surface,
                              max_lines=1, rid="track_title"),
                         Text(ms.artist_name(song), size=16, color=th.on_surface_variant,
                              max_lines=1, rid="track_artist")], flex=1),
                 w.icon_button("heart", "Remove from Liked Songs" if liked else
                               "Add to Liked Songs", like, rid="like", theme=th, size=24,
                               color=parts.GREEN if liked else th.on_surface, selected=liked)],
                padding=(dp(24), 0, dp(16), 0))
    steps = song["duration"] // SEEK_STEP
    bar = controls.slider(min(steps, pl["position"] // SEEK_STEP), 0, steps, seek,
                          desc="Playback position", rid="seek_bar", theme=_SEEK_THEME)
    times = Row([Text(clock(pl["position"]), size=12, color=th.on_surface_variant,
                      rid="elapsed", flex=1),
                 Text(clock(song["duration"]), size=12, color=th.on_surface_variant,
                      rid="duration")], padding=(dp(24), 0, dp(24), 0))
    rep = pl["repeat"]
    rep_desc = {"off": "Enable repeat", "all": "Enable repeat one", "one": "Disable repeat"}[rep]
    rep_icon: View = w.icon_button("repeat", rep_desc, lambda: ms.cycle_repeat(st),
                                   rid="repeat", theme=th, selected=rep != "off",
                                   color=parts.GREEN if rep != "off" else th.on_surface)
    if rep == "one":
        rep_icon = Row([rep_icon, Text("1", size=11, weight="bold", color=parts.GREEN,
                                       in_dump=False)], gap=0)
    ctrl = Row([
        w.icon_button("shuffle", "Disable shuffle" if pl["shuffle"] else "Enable shuffle",
                      shuffle, rid="shuffle", theme=th, selected=bool(pl["shuffle"]),
                      color=parts.GREEN if pl["shuffle"] else th.on_surface),
        View(flex=1, in_dump=False),
        w.icon_button("backward_step", "Previous", lambda: ms.skip_previous(st),
                      rid="previous", theme=th, size=28, color=th.on_surface),
        Icon("pause" if pl["playing"] else "play", size=28, box=68, radius=dp(34), bg=WHITE,
             color=(0, 0, 0), desc="Pause" if pl["playing"] else "Play", rid="play_pause",
             on_click=toggle, cls="android.widget.ImageButton"),
        w.icon_button("forward_step", "Next", lambda: ms.skip_next(st), rid="next", theme=th,
                      size=28, color=th.on_surface),
        View(flex=1, in_dump=False),
        rep_icon,
    ], padding=(dp(16), dp(8), dp(16), dp(8)))
    bottom = Row([w.icon_button("share", "Share", ctx.share(text=ms.share_text(song),
                                                            subject=song["title"]),
                                rid="share", theme=th, color=th.on_surface),
                  View(flex=1, in_dump=False),
                  w.icon_button("list", "Queue", ctx.go("queue"), rid="open_queue", theme=th,
                                color=th.on_surface)], padding=(dp(16), 0, dp(16), 0))
    body = Column([top, cover, title, Column([bar], padding=(dp(16), dp(8), dp(16), 0)), times,
                   ctrl, bottom, View(flex=1, in_dump=False)],
                  bg=(43, 30, 38))
    return Page(body, dialog=parts.song_sheet(ctx))


# -- the queue -------------------------------------------------------------------------------
def queue(ctx: Ctx) -> View | Page:
    """Now playing, "Next in queue" (each removable; Clear queue), and "Next from" the
    context."""
    th = ctx.theme
    st = ctx.store
    pl = st["player"]
    now = SONGS[pl["song_id"]]

    def remove(eid: int, title: str) -> Handler:
        def h() -> None:
            ms.dequeue(st, eid)
            ctx.toast(f"Removed {title} from queue")
        return h

    def clear() -> None:
        st["queue"] = []

    def jump(sid: int) -> Handler:
        def h() -> None:
            ms.play(st, sid, pl["context_type"], pl["context_id"])
        return h

    rows: list[View] = [w.section("Now playing", theme=th),
                        parts.song_row(ctx, now, on_play=lambda: None)]
    if st["queue"]:
        rows.append(w.section("Next in queue", theme=th, action=w.button(
            "Clear queue", clear, style="text", rid="clear_queue", theme=parts._GREEN_THEME)))
        for e in st["queue"]:
            s = SONGS[e["song_id"]]
            rows.append(Row([parts.song_art(s, 48),
                             Column([Text(s["title"], size=16, color=th.on_surface,
                                          max_lines=1, rid="queue_title"),
                                     Text(ms.artist_name(s), size=13,
                                          color=th.on_surface_variant, max_lines=1)], flex=1),
                             w.icon_button("close", f"Remove {s['title']} from queue",
                                           remove(e["id"], s["title"]), rid="queue_remove",
                                           theme=th)],
                            gap=dp(12), padding=(w.MARGIN, dp(6), dp(4), dp(6)),
                            desc=s["title"], rid="queue_row"))
    else:
        rows.append(Text("Your queue is empty. Songs you add with Add to queue play next.",
                         size=14, color=th.on_surface_variant, rid="empty_queue",
                         padding=(w.MARGIN, dp(16), w.MARGIN, dp(8))))
    nxt = ms.up_next(st, 6)
    label = ms.context_label(st, pl["context_type"], pl["context_id"])
    if nxt:
        rows.append(w.section(f"Next from: {label}" if label else "Next up", theme=th))
        for sid in nxt:
            rows.append(parts.song_row(ctx, SONGS[sid], on_play=jump(sid)))
    rows.append(w.spacer(dp(24)))
    offset, on_scroll = ctx.scroll()
    body = Column([w.app_bar("Queue", on_back=ctx.pop, theme=th),
                   Scroll(rows, offset=offset, on_scroll=on_scroll, rid="queue_list")],
                  bg=th.surface)
    return Page(body, dialog=parts.song_sheet(ctx))
