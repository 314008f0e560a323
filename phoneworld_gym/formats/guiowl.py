"""GUI-Owl / Mobile-Agent-v3's actions: Qwen's ``mobile_use`` call, as its AndroidWorld runner
(``Mobile-Agent-v3/android_world_v3``, agent ``gui_owl``) reads it.

A reply is the reasoning in ``<thinking>`` tags, one ``<tool_call>`` and a one-line summary in
``<conclusion>`` tags (which the runner keeps as the step's history)::

    <thinking>
    The search field is at the top.
    </thinking>
    <tool_call>
    {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 180]}}
    </tool_call>
    <conclusion>
    Tapped the search field.
    </conclusion>

Actions are Qwen's (click, long_press, swipe, type, answer, system_button, wait, terminate;
its parser also reads ``open``/``open_app`` with ``text`` and turns ``tap`` into ``click``).

**Coordinates** (``src_format="abs_resized"`` in the runner): absolute pixels of the
screenshot resized by its own ``smart_resize`` with factor 28 (patch 14 x merge 2),
``min_pixels = 1 x 784`` and ``max_pixels = 12800 x 784`` (1 to 12800 tokens); both ways it
truncates, ``int(x / resized_w * W)`` and ``int(x / W * resized_w)``. Its resize also caps the
long side (irrelevant at phone sizes) and lacks the one-factor minimum of Qwen's, which no
phone screen reaches. Everything else is as :mod:`phoneworld_gym.formats.qwen` describes.
"""

from __future__ import annotations

from typing import ClassVar

from phoneworld_gym.contract import Action
from phoneworld_gym.formats.base import Screen
from phoneworld_gym.formats.qwen import QwenFormat


class GuiOwlFormat(QwenFormat):
    """GUI-Owl's ``mobile_use`` calls with ``<thinking>``/``<conclusion>`` around them."""

    name: ClassVar[str] = "guiowl"
    convention: ClassVar[str] = "pixels of the smart-resized image (factor 28, <= 12800 tokens)"

    def __init__(self, *, factor: int = 28, min_pixels: int = 784,
                 max_pixels: int = 12800 * 784, rounding: str = "int"):
        super().__init__("resized", factor=factor, min_pixels=min_pixels,
                         max_pixels=max_pixels, rounding=rounding)

    def write(self, action: Action, screen: Screen) -> str:
        call = super().write(action, screen)
        return (f"<thinking>\nNext: {action.action_type}.\n</thinking>\n{call}\n"
                f"<conclusion>\n{action.action_type}\n</conclusion>")

    def system_prompt(self, screen: Screen | None = None) -> str:
        return super().system_prompt(screen) + (
            "\nWrite your reasoning first, inside <thinking></thinking> tags, before the "
            "call; after the call, sum up the step in one sentence inside "
            "<conclusion></conclusion> tags.")
