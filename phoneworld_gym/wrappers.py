"""Observation wrappers for language-model and vision-language agents.

- :class:`ElementList` adds ``elements``: the numbered element list as text, the form
  AndroidWorld-style agents read (index, class, text or description, state flags, bounds).
- :class:`SetOfMarks` draws each element's index and box on the screenshot, so a VLM can
  answer with ``{"action_type": "click", "index": N}``.

Both work on any backend: they read only the contract's ``a11y`` XML and ``screenshot``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image, ImageDraw

from phoneworld_gym.contract import MAX_XML, SCREEN_WIDTH, UIElement, UnicodeText, parse_ui_elements
from phoneworld_gym.ui.fonts import text_font


def describe_elements(elements: list[UIElement]) -> str:
    """One line per element: ``[3] Button "Add to cart" clickable (42,1200,520,1305)``."""
    lines = []
    for i, e in enumerate(elements):
        cls = (e.class_name or "View").rsplit(".", 1)[-1]
        label = e.describe()
        flags = [name for name, on in (("clickable", e.is_clickable), ("editable", e.is_editable),
                                       ("scrollable", e.is_scrollable),
                                       ("checked", e.is_checked), ("selected", e.is_selected),
                                       ("focused", e.is_focused)) if on]
        b = e.bbox_pixels
        box = f"({int(b.x_min)},{int(b.y_min)},{int(b.x_max)},{int(b.y_max)})" if b else ""
        lines.append(f"[{i}] {cls} {label!r} {' '.join(flags)} {box}".replace("  ", " "))
    return "\n".join(lines)


class ElementList(gym.ObservationWrapper[dict[str, Any], dict[str, Any], dict[str, Any]],
                  gym.utils.RecordConstructorArgs):
    """Adds ``elements`` (text) to the observation; needs the ``a11y`` observation."""

    def __init__(self, env: gym.Env[dict[str, Any], dict[str, Any]]):
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.ObservationWrapper.__init__(self, env)
        spaces = dict(env.observation_space.spaces)  # type: ignore[attr-defined]
        if "a11y" not in spaces:
            raise ValueError("ElementList needs the a11y observation (obs_mode 'all' or 'a11y')")
        spaces["elements"] = UnicodeText(MAX_XML)
        self.observation_space = gym.spaces.Dict(spaces)

    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        return {**observation,
                "elements": describe_elements(parse_ui_elements(observation["a11y"]))}


_MARK = (230, 40, 90)


class SetOfMarks(gym.ObservationWrapper[dict[str, Any], dict[str, Any], dict[str, Any]],
                 gym.utils.RecordConstructorArgs):
    """Draws the index and outline of every element (or only the ``clickable_only`` ones) on
    the screenshot. Needs both the screenshot and the tree (obs_mode ``all``)."""

    def __init__(self, env: gym.Env[dict[str, Any], dict[str, Any]],
                 clickable_only: bool = False):
        gym.utils.RecordConstructorArgs.__init__(self, clickable_only=clickable_only)
        gym.ObservationWrapper.__init__(self, env)
        spaces = env.observation_space.spaces  # type: ignore[attr-defined]
        if "a11y" not in spaces or "screenshot" not in spaces:
            raise ValueError("SetOfMarks needs obs_mode 'all' (screenshot and a11y)")
        self.clickable_only = clickable_only

    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        shot = observation["screenshot"]
        img = Image.fromarray(shot)
        s = img.width / SCREEN_WIDTH
        draw = ImageDraw.Draw(img)
        font = text_font(max(8, int(34 * s)), "bold")
        for i, e in enumerate(parse_ui_elements(observation["a11y"])):
            b = e.bbox_pixels
            if b is None or (self.clickable_only and not (e.is_clickable or e.is_editable)):
                continue
            if b.width <= 0 or b.height <= 0 or b.width * b.height > 0.5 * 1080 * 2400:
                continue  # the full-screen containers would only cover everything
            box = (b.x_min * s, b.y_min * s, b.x_max * s - 1, b.y_max * s - 1)
            draw.rectangle(box, outline=_MARK, width=max(1, int(3 * s)))
            label = str(i)
            w = font.getlength(label) + 6 * s
            draw.rectangle((box[0], box[1], box[0] + w, box[1] + 40 * s), fill=_MARK)
            draw.text((box[0] + 3 * s, box[1] + 2 * s), label, font=font, fill=(255, 255, 255))
        return {**observation, "screenshot": np.asarray(img, dtype=np.uint8)}
