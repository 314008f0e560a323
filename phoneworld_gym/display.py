"""The phone's display, which every backend's coordinates refer to: a 1080 x 2400 portrait
screen at a Pixel 6's density."""

from __future__ import annotations

#: logical device pixels; actions, bounds and screenshots (before resizing) use them
SCREEN_WIDTH = 1080
SCREEN_HEIGHT = 2400
DENSITY = 2.625  # px per dp on a Pixel 6 class phone
