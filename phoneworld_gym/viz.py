"""Pictures of episodes: a filmstrip of frames with the action under each."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from phoneworld_gym.ui.fonts import text_font


def filmstrip(frames: Sequence[np.ndarray], labels: Sequence[str],
              per_row: int = 6) -> Image.Image:
    """Frames side by side (rows of ``per_row``) with a caption of up to three lines under
    each."""
    if not frames:
        raise ValueError("filmstrip needs at least one frame")
    h, w = frames[0].shape[:2]
    cap = 64
    rows = (len(frames) + per_row - 1) // per_row
    cols = min(per_row, len(frames))
    sheet = Image.new("RGB", (cols * (w + 12) + 12, rows * (h + cap + 12) + 12),
                      (245, 245, 245))
    draw = ImageDraw.Draw(sheet)
    font = text_font(16)
    for i, (f, label) in enumerate(zip(frames, labels)):
        x = 12 + (i % per_row) * (w + 12)
        y = 12 + (i // per_row) * (h + cap + 12)
        sheet.paste(Image.fromarray(f), (x, y))
        draw.rectangle((x - 1, y - 1, x + w, y + h), outline=(180, 180, 180))
        line, lines = "", []
        for word in label.split():
            if font.getlength(f"{line} {word}") > w and line:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(line)
        for j, ln in enumerate(lines[:3]):
            draw.text((x, y + h + 4 + j * 19), ln, font=font, fill=(40, 40, 40))
    return sheet
