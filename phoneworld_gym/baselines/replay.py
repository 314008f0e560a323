"""Replays of recorded episodes: an animated GIF and a self-contained HTML page per episode.

    phoneworld replay out/eval                      # every episode of a trajectory dataset
    phoneworld replay out/eval --episode ContactsStar-s3   # the episodes whose id starts so
    phoneworld replay out/eval/episodes/ContactsStar-s3-ab12cd34ef56.parquet

Each frame is the screen an action was taken on, with the action drawn where it acted: a ring
at a tap (a double ring for a long press or double tap), an arrow for a swipe or scroll (the
way the finger moved), the typed text in a box at the field, and a caption with the step's
number and action (an ``answer`` or ``status`` is written in the caption). The HTML page
holds every frame as an embedded image with the goal, the action's JSON, the action error if
the action meant nothing on that screen, the element tree on demand, and at the end the
verifier's reward, success and ``failure`` text. It needs no server and no network.

A dataset collected without screenshots has no frames to show: the replay says so (a
``ValueError``), rather than drawing blank phones.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, parse_ui_elements
from phoneworld_gym.ui.fonts import text_font

#: how far a swipe or scroll arrow reaches, as a share of the screen's height
ARROW = 0.22
MARK = (230, 40, 90)  # the colour actions are drawn in
HTML_WIDTH = 600  # frames in the HTML page are at most this wide

_BOUNDS = re.compile(r'bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"')


def screen_size(tree: str) -> tuple[int, int]:
    """The phone's screen size in pixels, from the tree's root bounds (PhoneWorld's size when
    the tree has none)."""
    m = _BOUNDS.search(tree or "")
    if m:
        x1, y1, x2, y2 = (int(v) for v in m.groups())
        if x2 > x1 and y2 > y1:
            return x2, y2
    return SCREEN_WIDTH, SCREEN_HEIGHT


def action_point(action: Mapping[str, Any], tree: str) -> tuple[float, float] | None:
    """Where on the screen (phone pixels) an action acted: its x, y, or the centre of the
    element its index names; None for actions with no place (or an index off the list)."""
    if action.get("x") is not None and action.get("y") is not None:
        return float(action["x"]), float(action["y"])
    index = action.get("index")
    if isinstance(index, int) and not isinstance(index, bool):
        elements = parse_ui_elements(tree)
        if 0 <= index < len(elements) and elements[index].bbox_pixels is not None:
            box = elements[index].bbox_pixels
            assert box is not None
            return box.center
    return None


def caption(action: Mapping[str, Any]) -> str:
    """A short line for an action: ``click [4]``, ``type 'milk' [2]``, ``answer '42'``."""
    t = str(action.get("action_type", "?"))
    where = ""
    if action.get("index") is not None:
        where = f" [{action['index']}]"
    elif action.get("x") is not None:
        where = f" ({action['x']}, {action['y']})"
    if t == "input_text":
        return f"type {str(action.get('text', ''))!r}{where}"
    if t == "answer":
        return f"answer {str(action.get('text', ''))!r}"
    if t == "status":
        return f"status {action.get('goal_status', '')}"
    if t in ("scroll", "swipe"):
        return f"{t} {action.get('direction', '')}{where}"
    if t == "open_app":
        return f"open {action.get('app_name', '')}"
    return t + where


def draw_action(frame: np.ndarray | Image.Image, action: Mapping[str, Any], tree: str,
                label: str | None = None) -> Image.Image:
    """The frame with ``action`` drawn on it (see the module docstring) and a caption band
    under it."""
    img = frame.copy() if isinstance(frame, Image.Image) else Image.fromarray(frame)
    img = img.convert("RGB")
    w, h = img.size
    sw, sh = screen_size(tree)
    sx, sy = w / sw, h / sh
    draw = ImageDraw.Draw(img)
    r = max(8, w // 24)
    line = max(3, w // 150)
    t = str(action.get("action_type", ""))
    point = action_point(action, tree)
    if t in ("scroll", "swipe"):
        cx, cy = (point[0] * sx, point[1] * sy) if point else (w / 2, h / 2)
        # the finger's path: a swipe goes the way it says; a scroll shows the content that
        # lies that way, so the finger moves the opposite way (AndroidWorld's convention)
        d = str(action.get("direction", "up"))
        dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}.get(d, (0, 0))
        if t == "scroll":
            dx, dy = -dx, -dy
        reach = ARROW * h
        x1, y1 = cx - dx * reach / 2, cy - dy * reach / 2
        x2, y2 = cx + dx * reach / 2, cy + dy * reach / 2
        draw.line((x1, y1, x2, y2), fill=MARK, width=line * 2)
        head = r * 1.4
        px, py = -dy, dx  # perpendicular
        draw.polygon([(x2 + dx * head * 0.6, y2 + dy * head * 0.6),
                      (x2 - dx * head * 0.6 + px * head * 0.7,
                       y2 - dy * head * 0.6 + py * head * 0.7),
                      (x2 - dx * head * 0.6 - px * head * 0.7,
                       y2 - dy * head * 0.6 - py * head * 0.7)], fill=MARK)
        draw.ellipse((x1 - r / 2, y1 - r / 2, x1 + r / 2, y1 + r / 2), fill=MARK)
    elif point is not None:
        cx, cy = point[0] * sx, point[1] * sy
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=MARK, width=line)
        draw.ellipse((cx - line, cy - line, cx + line, cy + line), fill=MARK)
        if t in ("long_press", "double_tap"):
            R = r * 1.6
            draw.ellipse((cx - R, cy - R, cx + R, cy + R), outline=MARK, width=line)
        if t == "input_text":
            size = max(12, w // 28)
            font = text_font(size)
            text = str(action.get("text", ""))
            shown = text if len(text) <= 40 else text[:39] + "\u2026"
            tw = font.getlength(shown)
            bx = min(max(4, cx - tw / 2 - 8), max(4, w - tw - 20))
            by = cy + r + 6 if cy + r + 6 + size + 12 < h else cy - r - size - 18
            draw.rounded_rectangle((bx, by, bx + tw + 16, by + size + 12), radius=6,
                                   fill=(255, 255, 255), outline=MARK, width=2)
            draw.text((bx + 8, by + 5), shown, font=font, fill=(20, 20, 20))
    band = max(28, h // 22)
    out = Image.new("RGB", (w, h + band), (250, 250, 250))
    out.paste(img, (0, 0))
    size = max(12, band // 2)
    font = text_font(size)
    text = label if label is not None else caption(action)
    while text and font.getlength(text) > w - 12:
        text = text[:-2] + "\u2026" if len(text) > 2 else ""
    ImageDraw.Draw(out).text((6, h + (band - size) // 2 - 1), text, font=font,
                             fill=(30, 30, 30))
    return out


# -- reading episodes -------------------------------------------------------------------------
def _png_bytes(value: Any) -> bytes | None:
    """The PNG bytes of a dataset ``screenshot`` cell (a dict with ``bytes``), or None."""
    if isinstance(value, Mapping):
        data = value.get("bytes")
        return bytes(data) if data else None
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return None


def read_episode(shard: str | Path) -> list[dict[str, Any]]:
    """The rows of one episode shard, in step order (``ValueError`` for an unreadable file)."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(str(shard))
    except Exception as e:  # pyarrow raises several types for a bad file
        raise ValueError(f"{shard}: not an episode shard ({type(e).__name__}: {e})") from None
    rows = table.to_pylist()
    if not rows or "action" not in rows[0]:
        raise ValueError(f"{shard}: not an episode shard (no rows or no action column)")
    return sorted(rows, key=lambda r: int(r.get("step", 0)))


def episodes_in(folder: str | Path, prefix: str | None = None
                ) -> list[tuple[Path, dict[str, Any]]]:
    """``(shard path, manifest entry)`` of the committed episodes of a dataset folder whose
    episode id starts with ``prefix`` (all when None), in the manifest's order."""
    from phoneworld_gym.baselines.data import SHARDS, manifest

    root = Path(folder)
    if not (root / "manifest.jsonl").exists():
        raise ValueError(f"{root}: no manifest.jsonl; give a trajectory dataset folder (from "
                         f"phoneworld eval or baselines.collect) or one episode's .parquet")
    out = []
    for entry in manifest(root):
        file = Path(str(entry["file"]))
        episode_id = file.name.removesuffix(".parquet")
        if prefix is None or episode_id.startswith(prefix):
            out.append((root / SHARDS / file.name if not (root / file).exists() else root / file,
                        entry))
    return out


# -- writing replays --------------------------------------------------------------------------
def frames_of(rows: Sequence[Mapping[str, Any]]) -> list[Image.Image]:
    """Each step's screenshot with its action drawn (``ValueError`` without screenshots)."""
    frames = []
    for row in rows:
        png = _png_bytes(row.get("screenshot"))
        if png is None:
            raise ValueError(f"episode {row.get('episode_id')}: step {row.get('step')} has no "
                             f"screenshot (collected without screenshots); nothing to replay")
        action = json.loads(str(row["action"]))
        label = f"{int(row['step']) + 1}. {caption(action)}"
        frames.append(draw_action(Image.open(io.BytesIO(png)), action, str(row.get("tree", "")),
                                  label))
    return frames


def write_gif(rows: Sequence[Mapping[str, Any]], path: str | Path, *, width: int = 360,
              ms_per_step: int = 900) -> Path:
    """An animated GIF with one frame per step (each ``ms_per_step`` long; the last held
    three times as long), scaled to ``width`` pixels."""
    frames = frames_of(rows)
    scaled = [f.resize((width, round(f.height * width / f.width)), Image.Resampling.LANCZOS)
              for f in frames]
    durations = [ms_per_step] * len(scaled)
    durations[-1] = ms_per_step * 3
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    scaled[0].save(path, save_all=True, append_images=scaled[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return path


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body{{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;
background:#f4f5f7;color:#1d1f23}}
h1{{font-size:20px;margin:0 0 4px}} .meta{{color:#555;margin-bottom:16px}}
.goal{{background:#fff;border-left:4px solid #3766d6;padding:10px 14px;margin:12px 0 20px;
font-size:17px}}
.steps{{display:flex;flex-wrap:wrap;gap:18px}}
.step{{background:#fff;border-radius:10px;padding:10px;width:300px;
box-shadow:0 1px 3px rgba(0,0,0,.12)}}
.step img{{width:300px;border-radius:6px;display:block}}
.step code{{font-size:12px;word-break:break-all}} .err{{color:#b3261e;font-size:13px}}
details pre{{max-height:320px;overflow:auto;font-size:11px;background:#f7f7f7;padding:6px}}
.end{{margin-top:22px;background:#fff;padding:12px 16px;border-radius:10px;font-size:16px}}
.ok{{color:#137333;font-weight:600}} .bad{{color:#b3261e;font-weight:600}}
</style></head><body>
<h1>{title}</h1>
<div class="meta">{meta}</div>
<div class="goal"><b>Goal:</b> {goal}</div>
<div class="steps">
{steps}
</div>
<div class="end" id="result">{result}</div>
</body></html>
"""


def write_html(rows: Sequence[Mapping[str, Any]], path: str | Path,
               result: Mapping[str, Any] | None = None) -> Path:
    """A self-contained HTML page of the episode (see the module docstring). ``result`` is
    the manifest's summary (reward, success, failure) when known; else the last row's."""
    frames = frames_of(rows)
    first, last = rows[0], rows[-1]
    esc = html.escape
    parts = []
    for row, frame in zip(rows, frames):
        if frame.width > HTML_WIDTH:  # the page shows 300 px; twice that stays sharp
            frame = frame.resize((HTML_WIDTH, round(frame.height * HTML_WIDTH / frame.width)),
                                 Image.Resampling.LANCZOS)
        buf = io.BytesIO()
        frame.save(buf, format="JPEG", quality=85)  # a tenth of a PNG of a resampled frame
        data = base64.b64encode(buf.getvalue()).decode()
        error = str(row.get("action_error") or "")
        parts.append(
            f'<div class="step" id="step-{int(row["step"])}">'
            f'<img alt="step {int(row["step"]) + 1}" src="data:image/jpeg;base64,{data}">'
            f'<div><code>{esc(str(row["action"]))}</code></div>'
            + (f'<div class="err">{esc(error)}</div>' if error else "")
            + f'<details><summary>tree</summary><pre>{esc(str(row.get("tree", "")))}</pre>'
            f'</details></div>')
    res = dict(result or {})
    success = bool(res.get("success", last.get("success", False)))
    reward = float(res.get("reward", last.get("reward", 0.0)))
    failure = str(res.get("failure", "") or "")
    verdict = '<span class="ok">success</span>' if success else '<span class="bad">failure</span>'
    ending = ("ended by the agent" if last.get("terminated") else
              "cut at the step budget" if last.get("truncated") else "not finished")
    result_html = (f"{verdict} &middot; reward {reward:g} &middot; {len(rows)} steps, "
                   f"{ending}" + (f"<div>{esc(failure)}</div>" if failure else ""))
    meta = (f"{esc(str(first.get('task', '')))} &middot; seed {esc(str(first.get('seed', '')))}"
            f" &middot; {esc(str(first.get('env_id', '')))} &middot; agent "
            f"{esc(str(first.get('agent', '')))} ({esc(str(first.get('source', '')))})")
    page = _PAGE.format(title=esc(str(first.get("episode_id", "episode"))), meta=meta,
                        goal=esc(str(first.get("goal", ""))), steps="\n".join(parts),
                        result=result_html)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


def replay(source: str | Path, out_dir: str | Path | None = None, *,
           episode: str | None = None, gif: bool = True, html_page: bool = True
           ) -> list[Path]:
    """Write the replays of a dataset folder's episodes (or of one ``.parquet`` shard) into
    ``out_dir`` (default: ``<folder>/replays``): ``<episode id>.gif`` and ``.html``. Returns
    the paths written."""
    src = Path(source)
    if src.is_file():
        shards: list[tuple[Path, dict[str, Any]]] = [(src, {})]
        default_out = src.parent.parent / "replays" if src.parent.name == "episodes" \
            else src.parent / "replays"
    elif src.is_dir():
        shards = episodes_in(src, episode)
        default_out = src / "replays"
        if not shards:
            which = f" whose id starts with {episode!r}" if episode else ""
            raise ValueError(f"{src}: no committed episode{which}")
    else:
        raise ValueError(f"{src}: no such file or folder")
    out = Path(out_dir) if out_dir is not None else default_out
    written = []
    for shard, entry in shards:
        rows = read_episode(shard)
        name = str(rows[0].get("episode_id") or shard.stem)
        if gif:
            written.append(write_gif(rows, out / f"{name}.gif"))
        if html_page:
            written.append(write_html(rows, out / f"{name}.html", entry or None))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``phoneworld replay``: see the module docstring."""
    p = argparse.ArgumentParser(prog="phoneworld replay", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return run_cli(p.parse_args(argv))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``replay`` command's arguments."""
    p.add_argument("source", help="a trajectory dataset folder, or one episode's .parquet")
    p.add_argument("--episode", default=None,
                   help="only the episodes whose id starts with this (e.g. ContactsStar-s3)")
    p.add_argument("--out", default=None, help="folder for the replays (default "
                                                 "SOURCE/replays)")
    p.add_argument("--no-gif", action="store_true", help="HTML pages only")


def run_cli(a: argparse.Namespace) -> int:
    """Carry out a parsed ``replay`` command; errors are one line on stderr, exit 2."""
    try:
        paths = replay(a.source, a.out, episode=a.episode, gif=not a.no_gif)
    except ValueError as e:
        print(f"phoneworld: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
