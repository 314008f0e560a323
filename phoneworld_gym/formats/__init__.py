"""Action formats of published phone agents: read a model's reply as a PhoneWorld action, and
write an action the way the model would.

Each format has ``parse(text, screen) -> Action``, ``format(action, screen) -> str``,
``steps(action, screen)`` (an action as the format can say it, when it needs several steps),
``system_prompt(screen)`` and its coordinate convention in its module's docstring:

=================  =========================================================================
``androidworld``   AndroidWorld ``JSONAction`` JSON: device pixels or element indices.
``qwen``           Qwen2.5-VL ``mobile_use`` calls: pixels of the smart-resized image (28).
``qwen2.5vl``      the same as ``qwen``.
``qwen3vl``        Qwen3-VL ``mobile_use`` calls: a 0..999 grid.
``uitars``         UI-TARS-1.5 ``Thought:/Action:``: pixels of the smart-resized image.
``uitars1``        UI-TARS-1.0: a 0..1000 grid.
``guiowl``         GUI-Owl / Mobile-Agent-v3: ``mobile_use`` calls, resized pixels.
=================  =========================================================================

``get(name, **params)`` builds one (``params`` go to its constructor, e.g.
``get("qwen", max_pixels=1280 * 28 * 28)``). Nothing here imports torch or a model library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from phoneworld_gym.formats.androidworld import AndroidWorldFormat
from phoneworld_gym.formats.base import (
    ActionFormat,
    CoordinateSpace,
    Relative,
    ResizedPixels,
    Screen,
    smart_resize,
)
from phoneworld_gym.formats.guiowl import GuiOwlFormat
from phoneworld_gym.formats.qwen import Qwen3Format, QwenFormat
from phoneworld_gym.formats.uitars import UITars1Format, UITarsFormat

_MAKERS: dict[str, Callable[..., ActionFormat]] = {
    "androidworld": AndroidWorldFormat,
    "qwen": QwenFormat,
    "qwen2.5vl": QwenFormat,
    "qwen3vl": Qwen3Format,
    "uitars": UITarsFormat,
    "uitars1": UITars1Format,
    "guiowl": GuiOwlFormat,
}
#: The names :func:`get` knows.
FORMATS: tuple[str, ...] = tuple(_MAKERS)


def get(name: str | ActionFormat, **params: Any) -> ActionFormat:
    """The format called ``name`` (one of :data:`FORMATS`, any case), built with ``params``;
    an :class:`ActionFormat` is returned as it is. ``ValueError`` names the known formats."""
    if isinstance(name, ActionFormat):
        if params:
            raise ValueError("parameters go with a format's name, not with a built format")
        return name
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _MAKERS:
        raise ValueError(f"unknown action format {name!r}; known formats: {', '.join(FORMATS)}")
    try:
        return _MAKERS[key](**params)
    except TypeError as e:  # a parameter the format does not take
        raise ValueError(f"format {key!r} does not take those parameters: {e}") from None


__all__ = ["FORMATS", "ActionFormat", "AndroidWorldFormat", "CoordinateSpace", "GuiOwlFormat",
           "Qwen3Format", "QwenFormat", "Relative", "ResizedPixels", "Screen", "UITars1Format",
           "UITarsFormat", "get", "smart_resize"]
