"""Camera screens (Pixel Camera-like): the viewfinder (which needs the camera permission),
the review of the last shot, and the settings."""

from __future__ import annotations

import collections
import io
from typing import Any

from PIL import Image as PILImage

from phoneworld_gym.app import Page
from phoneworld_gym.apps.camera import scenes
from phoneworld_gym.apps.camera import store as cs
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.ui import controls as c
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Handler, Icon, Picture, Row, Stack, Text, View, dp

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
DIM = (200, 200, 200)
PANEL = (32, 33, 36)

#: decoded or drawn pictures: key -> PIL image (viewfinder scenes, last-shot thumbnails)
_CACHE: collections.OrderedDict[tuple[Any, ...], PILImage.Image] = collections.OrderedDict()


def _cached(key: tuple[Any, ...], make: Any) -> PILImage.Image:
    hit = _CACHE.get(key)
    if hit is None:
        hit = make()
        _CACHE[key] = hit
        while len(_CACHE) > 64:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return hit


def _decode(data: bytes) -> PILImage.Image:
    try:
        with PILImage.open(io.BytesIO(data)) as im:
            return im.convert("RGB")
    except Exception:  # not a picture: a grey tile, as a camera's thumbnail shows it
        return PILImage.new("RGB", (64, 64), (90, 90, 90))


def shots(ctx: Ctx) -> list[dict[str, Any]]:
    """Pictures in the camera folder, newest (by name, which is the time) last."""
    return [f for f in ctx.files(cs.FOLDER) if f["path"].lower().endswith((".jpg", ".jpeg"))]


def last_image(ctx: Ctx, f: dict[str, Any]) -> PILImage.Image:
    return _cached(("file", f["sha256"]), lambda: _decode(ctx.read_file(f["path"])))


def _lens(ctx: Ctx) -> str:
    return str(ctx.state.get("lens", "back"))


def _mode(ctx: Ctx) -> str:
    return str(ctx.state.get("mode", "photo"))


def take(ctx: Ctx) -> None:
    """The shutter: draw what the camera sees, save it as the next IMG_ file in DCIM."""
    existing = {f["path"] for f in ctx.files(cs.FOLDER)}
    s = ctx.store["settings"]
    img = scenes.view(len(existing), _lens(ctx), s["aspect"])
    path = cs.shot_path(existing, ctx.now)
    place = ctx.store["place"] if s["location"] else ""
    ctx.write_file(path, scenes.jpeg(img, taken=cs.taken_of(path), place=place))
    if s["timer"]:
        ctx.toast(f"Photo taken after the {s['timer']} s timer")


def _setting(ctx: Ctx, key: str, values: tuple[Any, ...]) -> Handler:
    def h() -> None:
        ctx.store["settings"][key] = cs.cycle(values, ctx.store["settings"][key])

    return h


def _grid_lines(height: int) -> View:
    line = (255, 255, 255, 150)
    rows = Column([View(flex=1, in_dump=False), View(height=2, bg=line, in_dump=False),
                   View(flex=1, in_dump=False), View(height=2, bg=line, in_dump=False),
                   View(flex=1, in_dump=False)], in_dump=False)
    cols = Row([View(flex=1, in_dump=False),
                View(width=2, height=height, bg=line, in_dump=False),
                View(flex=1, in_dump=False),
                View(width=2, height=height, bg=line, in_dump=False),
                View(flex=1, in_dump=False)], in_dump=False)
    return Stack([rows, cols], in_dump=False)


def _top_bar(ctx: Ctx) -> Row:
    s = ctx.store["settings"]
    timer = f"Timer {s['timer']} seconds" if s["timer"] else "Timer off"

    def btn(icon: str, desc: str, h: Handler, rid: str, on: bool) -> Icon:
        return Icon(icon, size=20, box=48, desc=desc, on_click=h, rid=rid,
                    color=(255, 214, 0) if on else WHITE, cls="android.widget.ImageButton")

    return Row([btn("bolt", f"Flash {s['flash']}", _setting(ctx, "flash", cs.FLASH), "flash",
                    s["flash"] != "off"),
                btn("clock", timer, _setting(ctx, "timer", cs.TIMERS), "timer",
                    bool(s["timer"])),
                btn("grid", "Grid lines on" if s["grid"] else "Grid lines off",
                    _setting(ctx, "grid", (False, True)), "grid", bool(s["grid"])),
                View(flex=1, in_dump=False),
                btn("gear", "Settings", ctx.go("settings"), "settings", False)],
               gap=dp(8), height=dp(64), padding=(dp(12), 0, dp(12), 0), bg=BLACK)


def _modes(ctx: Ctx) -> Row:
    """The mode strip: Photo and Video, and Slow motion first on a camera that films it.
    While recording, the strip is not offered (as on a phone)."""
    recording = bool(ctx.state.get("recording"))

    def tab(label: str, mode: str) -> Text:
        on = _mode(ctx) == mode
        return Text(label, size=15, weight="medium", color=BLACK if on else WHITE,
                    bg=(220, 226, 235) if on else None, radius=dp(18), height=dp(36),
                    align="center", width=dp(120) if mode == "slow_motion" else dp(88),
                    padding=(0, dp(8), 0, 0),
                    on_click=None if recording else ctx.setter("mode", mode), selected=on,
                    desc=label, rid=f"mode_{mode}", cls="android.widget.TextView")

    tabs = [tab("Photo", "photo"), tab("Video", "video")]
    if ctx.store.get("slow_motion"):
        tabs.insert(0, tab("Slow motion", "slow_motion"))
    return Row([View(flex=1, in_dump=False), *tabs, View(flex=1, in_dump=False)], gap=dp(12),
               height=dp(56), bg=BLACK, cls="android.widget.HorizontalScrollView",
               rid="mode_tabs")


def _record(ctx: Ctx) -> Handler:
    """The video shutter: starts recording, and a second tap stops it and saves the video
    (``VID_...mp4``; ``VID_..._SLOMO.mp4`` at 240 fps in Slow motion)."""
    def h() -> None:
        if not ctx.state.get("recording"):
            ctx.state["recording"] = True
            return
        ctx.state["recording"] = False
        slow = _mode(ctx) == "slow_motion"
        existing = {f["path"] for f in ctx.files(cs.FOLDER)}
        path = cs.video_path(existing, ctx.now, slow)
        place = ctx.store["place"] if ctx.store["settings"]["location"] else ""
        ctx.write_file(path, cs.video_bytes(ctx.now, place, slow))
        ctx.toast("Slow motion video saved" if slow else "Video saved")

    return h


def _controls(ctx: Ctx, can_shoot: bool) -> Row:
    files = shots(ctx)
    side = dp(56)
    thumb: View
    if files:
        thumb = Picture(last_image(ctx, files[-1]), width=side, height=side, radius=side // 2,
                        desc="Open last photo", on_click=ctx.go("review"), rid="thumbnail")
    else:
        thumb = View(width=side, height=side, radius=side // 2, bg=PANEL, in_dump=False)
    shutter: View
    if not can_shoot:
        shutter = View(width=dp(80), height=dp(80), in_dump=False)
    elif _mode(ctx) in ("video", "slow_motion"):
        recording = bool(ctx.state.get("recording"))
        dot = View(width=dp(28), height=dp(28), radius=dp(6) if recording else dp(14),
                   bg=(234, 67, 53), in_dump=False)
        shutter = Stack([dot], width=dp(80), height=dp(80), radius=dp(40), bg=WHITE,
                        desc="Stop recording" if recording else "Start recording",
                        rid="shutter_button", cls="android.widget.ImageButton",
                        on_click=_record(ctx))
    else:
        shutter = Stack([View(width=dp(64), height=dp(64), radius=dp(32), bg=WHITE,
                              border=BLACK, border_width=5, in_dump=False)],
                        width=dp(80), height=dp(80), radius=dp(40), bg=WHITE,
                        desc="Take photo", rid="shutter_button",
                        cls="android.widget.ImageButton", on_click=lambda: take(ctx))
    other = "front" if _lens(ctx) == "back" else "back"
    switch = Icon("arrows_rotate", size=22, box=56, bg=PANEL, radius=dp(28), color=WHITE,
                  desc=f"Switch to {other} camera", rid="camera_switch",
                  on_click=ctx.setter("lens", other), cls="android.widget.ImageButton")
    return Row([View(flex=1, in_dump=False), thumb, View(flex=1, in_dump=False), shutter,
                View(flex=1, in_dump=False), switch, View(flex=1, in_dump=False)],
               height=dp(120), bg=BLACK)


def main(ctx: Ctx) -> Page:
    """The viewfinder. It needs the camera permission: until it is answered the system's
    dialog covers it; when denied it says so and offers no shutter."""
    answer = ctx.permission("camera")
    s = ctx.store["settings"]
    if answer == "denied":
        body = Column([
            View(flex=1, in_dump=False),
            Row([View(flex=1, in_dump=False),
                 Icon("camera", size=40, box=72, color=DIM, in_dump=False),
                 View(flex=1, in_dump=False)], in_dump=False),
            Text("Camera permission needed", size=20, color=WHITE, align="center",
                 rid="permission_text"),
            Text("Camera can't take photos without access to the camera. Allow it in "
                 "Settings > Apps > Camera > Permissions.", size=14, color=DIM,
                 align="center", rid="permission_hint", padding=(dp(32), 0, dp(32), 0)),
            View(flex=1, in_dump=False),
        ], gap=dp(12), bg=BLACK)
        return Page(body, permission="camera")
    w_px = 1080
    aw, ah = scenes.SIZES[s["aspect"]]
    h_px = w_px * ah // aw
    if answer is None:  # the camera is not open until the user answers
        finder: View = View(width=w_px, height=h_px, bg=BLACK, in_dump=False)
    else:
        n = len(shots(ctx))
        img = _cached(("view", n, _lens(ctx), s["aspect"]),
                      lambda: scenes.view(n, _lens(ctx), s["aspect"]))
        layers: list[View] = [Picture(img, desc="Viewfinder", rid="viewfinder")]
        if s["grid"]:
            layers.append(_grid_lines(h_px))
        if ctx.state.get("recording"):
            slow = _mode(ctx) == "slow_motion"
            layers.append(Column([Row([
                View(flex=1, in_dump=False),
                Row([View(width=dp(10), height=dp(10), radius=dp(5), bg=(234, 67, 53),
                          in_dump=False),
                     Text("REC 240 fps" if slow else "REC", size=13, weight="medium",
                          color=WHITE, rid="recording_badge")],
                    gap=dp(6), padding=(dp(10), dp(4), dp(10), dp(4)), radius=dp(12),
                    bg=(0, 0, 0)),
                View(flex=1, in_dump=False)], padding=(0, dp(12), 0, 0))]))
        finder = Stack(layers, width=w_px, height=h_px)
    body = Column([_top_bar(ctx), finder, View(flex=1, bg=BLACK, in_dump=False),
                   _modes(ctx), _controls(ctx, answer is not None)], bg=BLACK)
    return Page(body, permission="camera")


def review(ctx: Ctx) -> Page:
    """The last shot, full screen: its time, Share and Delete."""
    files = shots(ctx)
    if not files:
        return Page(Column([w.app_bar("", on_back=ctx.pop, theme=ctx.theme),
                            Text("No photos yet", size=16, align="center", rid="empty_text",
                                 color=ctx.theme.on_surface_variant,
                                 padding=(0, dp(64), 0, 0))], bg=ctx.theme.surface))
    f = files[-1]
    path = f["path"]
    img = last_image(ctx, f)
    name = path.rsplit("/", 1)[-1]
    top = Row([Icon("back", size=22, box=48, desc="Navigate up", on_click=ctx.pop,
                    color=WHITE, cls="android.widget.ImageButton"),
               Text(name, size=16, color=WHITE, max_lines=1, flex=1, rid="photo_name")],
              gap=dp(4), height=dp(64), padding=(dp(4), 0, dp(4), 0), bg=BLACK)
    pic = Picture(img, width=1080, height=1080 * img.height // max(1, img.width),
                  desc=f"Photo {name}", rid="photo_view")

    def delete() -> None:
        ctx.delete_file(path)
        ctx.close_dialog()
        ctx.pop()
        ctx.toast("Deleted")

    def action(icon: str, label: str, h: Handler, rid: str) -> View:
        return Column([Row([View(flex=1, in_dump=False),
                            Icon(icon, size=22, box=32, color=WHITE, in_dump=False),
                            View(flex=1, in_dump=False)], in_dump=False),
                       Text(label, size=12, color=WHITE, align="center", in_dump=False)],
                      gap=dp(4), flex=1, on_click=h, desc=label, text=label, rid=rid,
                      cls="android.widget.Button", padding=(0, dp(8), 0, dp(8)))

    body = Column([top, View(flex=1, bg=BLACK, in_dump=False), pic,
                   View(flex=1, bg=BLACK, in_dump=False),
                   Row([action("share", "Share", ctx.share(path=path, mime="image/jpeg"),
                               "share"),
                        action("trash", "Delete", ctx.show_dialog("delete"), "delete")],
                       height=dp(72), bg=BLACK)], bg=BLACK)
    dlg = None
    if ctx.dialog == "delete":
        dlg = w.dialog("Delete this photo?", f"{name} will be permanently deleted.",
                       [("Cancel", ctx.close_dialog), ("Delete", delete)], theme=ctx.theme)
    return Page(body, dialog=dlg)


def settings(ctx: Ctx) -> View:
    """Camera settings: aspect ratio, timer, grid lines, saving the location."""
    s = ctx.store["settings"]

    def put(key: str, value: Any) -> Handler:
        def h() -> None:
            s[key] = value

        return h

    timer_label = {0: "Off", 3: "3 seconds", 10: "10 seconds"}
    rows: list[View] = [
        w.section("Photo aspect ratio", theme=ctx.theme),
        c.radio_group(["4:3", "16:9"], s["aspect"], lambda a: put("aspect", a),
                      rid="aspect", theme=ctx.theme),
        w.section("Timer", theme=ctx.theme),
        c.radio_group(list(timer_label.values()), timer_label[int(s["timer"])],
                      lambda label: put("timer", next(k for k, v in timer_label.items()
                                                       if v == label)),
                      rid="timer", theme=ctx.theme),
        c.switch_row("Grid lines", bool(s["grid"]), put("grid", not s["grid"]),
                     summary="Show a 3 × 3 grid in the viewfinder", rid="grid_row",
                     theme=ctx.theme),
        c.switch_row("Save location", bool(s["location"]), put("location", not s["location"]),
                     summary="Add where photos are taken to their details",
                     rid="location_row", theme=ctx.theme),
    ]
    return Column([w.app_bar("Camera settings", on_back=ctx.pop, theme=ctx.theme),
                   Column(rows, flex=1)], bg=ctx.theme.surface)
