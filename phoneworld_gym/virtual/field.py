"""The field profile: a PhoneWorld phone that is less tidy, the way real phones are.

A policy trained on the clean phone meets three kinds of untidiness here, each drawn from
the episode seed (``reset(seed)``), so an episode is as reproducible as on the clean phone:

- **Interstitial prompts.** With probability :data:`PROMPT_PROB` per app and episode, the
  first time the app comes to the front (``open_app``, a launcher icon, a notification, an
  intent from another app: anything that leaves it in front after an action), a full-screen
  prompt opens on top of it, one of :data:`PROMPT_KINDS`:

  ======== =============================================== ===========================
  kind     title                                           buttons
  ======== =============================================== ===========================
  rate     "Rate Shopping" (five stars)                    "Not now", "Rate"
  whatsnew "What's new in Contacts"                        "Got it"
  notify   "Allow Contacts to send you notifications?"     "Don't allow", "Allow"
  ======== =============================================== ===========================

  It is a real screen of the app (:data:`PROMPT_SCREEN`, pushed on the app's own back
  stack), so the tree, the pixels and the taps agree, and its package is **the app's own**
  (as an in-app rating or "what's new" sheet is on a phone): ``probe.foreground_app()``
  still names the app. Every button and Back close it and leave the app's screen underneath;
  none of them changes a table (the star rating is screen state only, a notification
  permission is not recorded), so damage checks stay clean. The prompt is added to *this*
  device's copies of the apps only: the global app registry, and so every clean phone, never
  sees it.
- **Transition delays.** After an action (:meth:`FieldPhone.execute`) that changes the
  screen, the first :meth:`~FieldPhone.a11y_xml` returns the frame from before the action, as
  a ``uiautomator dump`` taken mid-transition does; the next one is current. The same holds,
  independently, for the first :meth:`~FieldPhone.screenshot` (once screenshots have been
  taken in the episode). Taps and element indices always act on the current frame.
  :class:`~phoneworld_gym.real_device.adb_device.AdbDevice` sees through it when it dumps
  until two consecutive dumps agree (``dump_retries`` >= 2: the real-phone default of 3; the
  virtual phone's default is 0, so pass it for the field profile). A ``wait`` action
  changes nothing, so the observation after it is current.
- **A per-seed theme.** Screenshots go through a mild colour transform drawn from the seed,
  as displays, night-light settings and vendor skins differ: a colour cast (a gain per R, G
  and B channel within 1 +- :data:`MAX_CAST`), a gamma within 1 +- :data:`MAX_GAMMA`, a
  contrast factor about mid-grey within 1 +- :data:`MAX_CONTRAST` and a brightness shift of
  up to +-:data:`MAX_BRIGHTNESS` levels, clipped to 0..255 (:class:`Theme`). Only pixels
  change: layout, bounds, text and the tree are exactly those of the clean phone, so nothing
  that reads the tree can tell. There is no font scaling (it would move layouts).

Use it directly (``PhoneEnv(device=FieldPhone())``) or over adb
(``VirtualPhone(profile="field")``, ``phoneworld serve-adb --profile field``).
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

import numpy as np

from phoneworld_gym.app import App
from phoneworld_gym.contract import Action, parse_ui_elements
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.phone import PhoneWorldDevice, Screen, app_seed
from phoneworld_gym.system import realism
from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Icon, Row, Text, View, dp
from phoneworld_gym.world import LAUNCHER, RECENTS

__all__ = ["DISMISS_LABELS", "PROFILES", "PROMPT_KINDS", "PROMPT_PROB", "PROMPT_SCREEN",
           "FieldPhone", "Theme", "dismiss_index", "make_device", "prompt_showing"]

#: the device profiles of :class:`~phoneworld_gym.virtual.adb_server.VirtualPhone`
PROFILES = ("clean", "field")
#: the probability that an app shows a prompt the first time it comes to the front
PROMPT_PROB = 0.35
#: the kinds of prompt, drawn uniformly for each app that shows one
PROMPT_KINDS = ("rate", "whatsnew", "notify")
#: the screen name of the prompt in each app's copy on a field phone
PROMPT_SCREEN = "_field_prompt"
#: the labels of the buttons that close a prompt without accepting it
DISMISS_LABELS = ("Not now", "Got it", "Don't allow")
#: theme bounds: per-channel gain deviation (a colour cast), gamma deviation, contrast
#: factor deviation, brightness in levels (of 255)
MAX_CAST = 0.06
MAX_GAMMA = 0.08
MAX_CONTRAST = 0.08
MAX_BRIGHTNESS = 12.0


# -- the prompt screen -----------------------------------------------------------------------
def _close(ctx: Ctx, toast: str = "") -> None:
    """Close the prompt (it is the top of the app's stack), with an optional toast."""
    stack = ctx.world.stacks.get(ctx.app.name) or []
    if stack and stack[-1]["screen"] == PROMPT_SCREEN and len(stack) > 1:
        stack.pop()
        ctx.world.focus = None
    if toast:
        ctx.toast(toast)


def prompt_screen(ctx: Ctx) -> View:
    """The interstitial of kind ``ctx.args["kind"]`` over the app (see the module docstring)."""
    kind = str(ctx.args.get("kind", "whatsnew"))
    label = ctx.app.label
    theme = ctx.theme
    buttons: list[View] = [View(flex=1, in_dump=False)]
    extra: list[View] = []
    if kind == "rate":
        title = f"Rate {label}"
        message = f"Enjoying {label}? Tap a star to rate it. It only takes a moment."
        stars = int(ctx.state.get("stars", 0))
        extra.append(Row([Icon("star", size=32, box=56,
                               desc=f"{i + 1} star{'s' if i else ''}", rid="rating_star",
                               on_click=ctx.setter("stars", i + 1),
                               cls="android.widget.ImageButton",
                               color=theme.primary if i < stars else theme.outline)
                          for i in range(5)], gap=dp(4), rid="rating_bar"))
        buttons += [w.button("Not now", lambda: _close(ctx), style="text", theme=theme,
                             rid="prompt_dismiss"),
                    w.button("Rate", lambda: _close(ctx, "Thanks for your feedback"),
                             theme=theme, rid="prompt_accept")]
    elif kind == "notify":
        title = f"Allow {label} to send you notifications?"
        message = "You can change this at any time in Settings."
        buttons += [w.button("Don't allow", lambda: _close(ctx), style="text", theme=theme,
                             rid="prompt_dismiss"),
                    w.button("Allow", lambda: _close(ctx), theme=theme, rid="prompt_accept")]
    else:
        title = f"What's new in {label}"
        message = (f"{label} has a fresh look, faster search and a few fixes. "
                   "Everything you had is where you left it.")
        buttons.append(w.button("Got it", lambda: _close(ctx), theme=theme,
                                rid="prompt_dismiss"))
    kids: list[View] = [
        View(height=dp(96), in_dump=False),
        Row([Icon(ctx.app.icon, size=40, box=72, color=theme.on_primary_container,
                  bg=theme.primary_container, radius=dp(36))]),
        Text(title, size=24, color=theme.on_surface, rid="prompt_title"),
        Text(message, size=16, color=theme.on_surface_variant, rid="prompt_message"),
        *extra,
        View(flex=1, in_dump=False),
        Row(buttons, gap=dp(8)),
    ]
    return Column(kids, gap=dp(20), padding=(dp(24), dp(24), dp(24), dp(24)),
                  bg=theme.surface, rid="prompt", cls="android.widget.FrameLayout")


def _with_prompt(app: App) -> App:
    """A copy of ``app`` whose screens include the prompt (the registered app is untouched)."""
    out = copy.copy(app)
    out.screens = {**type(app).screens, **app.screens, PROMPT_SCREEN: prompt_screen}  # type: ignore[misc]
    return out


# -- reading a prompt off a screen -----------------------------------------------------------
def prompt_showing(xml: str) -> bool:
    """Whether the dump shows a field prompt (its ``prompt_title`` node)."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return False
    return any((n.get("resource-id") or "").endswith("/prompt_title") for n in root.iter("node"))


def dismiss_index(xml: str) -> int | None:
    """The index of a button that closes a prompt without accepting it ("Not now", "Got it",
    "Don't allow", see :data:`DISMISS_LABELS`), or None when the screen shows none."""
    for i, e in enumerate(parse_ui_elements(xml)):
        if e.text in DISMISS_LABELS and e.is_clickable:
            return i
    return None


# -- the theme -------------------------------------------------------------------------------
class Theme:
    """A seeded, mild colour transform of screenshots (see the module docstring).

    Drawn from ``seed``: ``gains`` (a colour cast: one gain per R, G, B channel), ``gamma``,
    ``contrast`` (about mid-grey) and ``brightness`` (levels added). Each output channel is
    a function of the same input channel only, so the transform is three 256-entry lookup
    tables (:attr:`lut`); :meth:`apply` maps an (H, W, 3) ``uint8`` array to a new read-only
    one of the same shape."""

    def __init__(self, seed: int):
        rng = np.random.default_rng(app_seed(int(seed), "field/theme"))
        self.gains = tuple(float(g) for g in 1.0 + rng.uniform(-MAX_CAST, MAX_CAST, 3))
        self.gamma = float(1.0 + rng.uniform(-MAX_GAMMA, MAX_GAMMA))
        self.contrast = float(1.0 + rng.uniform(-MAX_CONTRAST, MAX_CONTRAST))
        self.brightness = float(rng.uniform(-MAX_BRIGHTNESS, MAX_BRIGHTNESS))
        x = np.arange(256, dtype=np.float64)
        curve = 255.0 * (x / 255.0) ** self.gamma
        rows = [(curve * g - 128.0) * self.contrast + 128.0 + self.brightness
                for g in self.gains]
        self.lut = np.clip(np.rint(np.stack(rows)), 0, 255).astype(np.uint8)

    def __repr__(self) -> str:
        gains = ", ".join(f"{g:.3f}" for g in self.gains)
        return (f"Theme(gains=({gains}), gamma={self.gamma:.3f}, "
                f"contrast={self.contrast:.3f}, brightness={self.brightness:+.1f})")

    def apply(self, pixels: np.ndarray) -> np.ndarray:
        """The transformed copy of ``pixels`` (read-only, ``uint8``)."""
        src = np.asarray(pixels, dtype=np.uint8)
        out = np.empty_like(src)
        for c in range(3):
            out[..., c] = self.lut[c][src[..., c]]
        out.flags.writeable = False
        return out


# -- the phone -------------------------------------------------------------------------------
class FieldPhone(PhoneWorldDevice):
    """A PhoneWorld phone with the field profile (see the module docstring).

    Arguments are those of :class:`~phoneworld_gym.phone.PhoneWorldDevice`, plus
    ``prompt_prob`` (the chance of a prompt per app and episode), ``delays`` (stale first
    reads after an action) and ``theme`` (the per-seed colour transform), each to turn one
    kind of untidiness off or tune it."""

    kind = "phoneworld-field"

    def __init__(self, apps: Sequence[str] | None = None,
                 screenshot_size: tuple[int, int] = (1080, 2400), *,
                 prompt_prob: float = PROMPT_PROB, delays: bool = True, theme: bool = True):
        super().__init__(apps, screenshot_size)
        if not 0.0 <= prompt_prob <= 1.0:
            raise ValueError(f"prompt_prob must be in [0, 1], got {prompt_prob}")
        self.apps = {name: _with_prompt(app) for name, app in self.apps.items()}
        self.prompt_prob = float(prompt_prob)
        self.delays = bool(delays)
        self.use_theme = bool(theme)
        self.seed = 0
        #: app name -> the prompt kind it shows this episode (apps without one are absent)
        self.prompts: dict[str, str] = {}
        #: apps that have come to the front this episode
        self.seen: set[str] = set()
        #: the prompts shown this episode, in order: (app, kind)
        self.shown: list[tuple[str, str]] = []
        self.theme = Theme(0)
        self._clear_transition()
        self._shots_taken = False
        self._themed: tuple[np.ndarray, np.ndarray] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_before"] = None
        state["_stale_xml"] = state["_stale_px"] = False
        state["_before_px"] = None
        state["_themed"] = None
        return state

    # -- lifecycle ---------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """The clean phone's reset, then this episode's prompts and theme from ``seed``."""
        super().reset(seed)
        self.seed = int(seed)
        realism.enable(self.world, self.seed)  # loading placeholders, promos, transient errors
        self.prompts = {}
        for name in sorted(self.apps):
            rng = np.random.default_rng(app_seed(self.seed, f"field/prompt/{name}"))
            shows = rng.random() < self.prompt_prob
            kind = PROMPT_KINDS[int(rng.integers(len(PROMPT_KINDS)))]
            if shows:
                self.prompts[name] = kind
        self.seen = set()
        self.shown = []
        self.theme = Theme(self.seed)
        self._clear_transition()
        self._shots_taken = False
        self._themed = None

    def snapshot(self) -> dict[str, Any]:
        """The world's snapshot plus which apps have been in front (so a restored episode
        does not show a prompt twice)."""
        snap = super().snapshot()
        snap["_field"] = {"seen": sorted(self.seen), "shown": [list(s) for s in self.shown]}
        return snap

    def restore(self, snap: dict[str, Any]) -> None:
        snap = dict(snap)
        field = snap.pop("_field", None)
        super().restore(snap)
        if isinstance(field, dict):
            self.seen = set(field.get("seen", []))
            self.shown = [(str(a), str(k)) for a, k in field.get("shown", [])]
        self._clear_transition()

    # -- prompts -----------------------------------------------------------------------
    def _maybe_prompt(self) -> None:
        """Show the foreground app's prompt if it has just come to the front for the first
        time this episode and the seed gave it one."""
        world = self.world
        name = world.foreground
        if name in (LAUNCHER, RECENTS) or name not in self.apps or name in self.seen:
            return
        stack = world.stacks.get(name)
        if not stack:
            return
        self.seen.add(name)
        kind = self.prompts.get(name)
        if kind is None:
            return
        stack.append({"screen": PROMPT_SCREEN, "args": {"kind": kind}, "state": {}})
        world.focus = None
        self.shown.append((name, kind))
        self.invalidate()

    def open_app(self, name: str) -> str:
        """The clean phone's ``open_app``; the app may then show its prompt."""
        err = super().open_app(name)
        if not err:
            self._maybe_prompt()
        return err

    # -- actions and transitions -------------------------------------------------------
    def _clear_transition(self) -> None:
        self._before: Screen | None = None
        self._before_px: np.ndarray | None = None
        self._stale_xml = False
        self._stale_px = False

    def execute(self, action: Action) -> str:
        """Carry out one action (the clean phone's), show a prompt if an app came to the
        front, and leave the frame from before the action for the next reads to return once
        (see the module docstring)."""
        before = self.screen if self.delays else None
        before_px = PhoneWorldDevice.screenshot(self) if self.delays and self._shots_taken \
            else None
        err = super().execute(action)
        self._maybe_prompt()
        if self.delays and not err and action.action_type not in ("wait", "status", "answer"):
            self._before, self._before_px = before, before_px
            self._stale_xml = True
            self._stale_px = before_px is not None
        return err

    def a11y_xml(self) -> str:
        """The tree; the first read after a screen-changing action is the previous frame."""
        current = super().a11y_xml()
        if self._stale_xml:
            self._stale_xml = False
            before = self._before
            if before is not None and before.xml != current:
                return before.xml
        return current

    def screenshot(self) -> np.ndarray:
        """The frame's pixels through this seed's theme; the first screenshot after a
        screen-changing action is the previous frame (see the module docstring)."""
        self._shots_taken = True
        raw = super().screenshot()
        if self._stale_px:
            self._stale_px = False
            if self._before_px is not None and self._before_px is not raw:
                raw = self._before_px
        return self._themed_of(raw)

    def _themed_of(self, raw: np.ndarray) -> np.ndarray:
        """``raw`` through the theme, the last result reused for the same array."""
        if not self.use_theme:
            return raw
        cached = self._themed
        if cached is not None and cached[0] is raw:
            return cached[1]
        out = self.theme.apply(raw)
        self._themed = (raw, out)
        return out

    def raw_screenshot(self) -> np.ndarray:
        """The current frame's pixels without the theme and without any delay (for tests
        and comparisons with the clean phone)."""
        return PhoneWorldDevice.screenshot(self)


def make_device(profile: str = "clean", **kwargs: Any) -> PhoneWorldDevice:
    """A phone of ``profile`` (one of :data:`PROFILES`) with the device's ``kwargs``."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
    if profile == "field":
        return FieldPhone(**kwargs)
    return PhoneWorldDevice(**kwargs)
