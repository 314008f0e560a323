"""Realism switches: the untidiness of real apps, off on the clean phone and on in the
``field`` profile (:class:`phoneworld_gym.virtual.field.FieldPhone`).

A policy trained only on tidy screens meets, on a person's phone, content that is still
loading, promotional pop-ups that must be dismissed and requests that fail once and work when
tried again. Any app opts in by declaration or by one call:

- **Loading placeholders** (``App.network_screens``): the first frame of such a screen after it
  opens shows a progress spinner and grey placeholder rows (a ``ProgressBar`` with
  content-desc "Loading" in the dump) under the app's package; the content appears after the
  next action, whatever it is (a ``wait`` will do, as on a phone where one waits for a list).
- **Promotional pop-ups** (``App.promos``): on a seeded schedule (each app with promos shows
  one with probability :data:`PROMO_PROB` per episode, the first time its main screen is in
  front), a dialog over the main screen with the promo's title and text, "No thanks" and a
  close button. Any of them, or Back, dismisses it for the episode; nothing in a table
  changes, so verifiers read the world as on the clean phone.
- **Transient errors** (``ctx.flaky(op)`` in a handler): with probability :data:`FAIL_PROB`
  per operation and episode, the first attempt at ``op`` fails: the handler shows
  :data:`ERROR_TOAST` and changes nothing; the next attempt works.

Everything is drawn from the episode seed (:func:`draw`), so an episode replays exactly. The
state lives in ``world.realism`` (plain JSON: ``{"on", "seed", "dismissed", "failed"}``), an
empty dict on the clean phone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from phoneworld_gym.ui import widgets as w
from phoneworld_gym.ui.view import Column, Icon, Row, Text, View, dp
from phoneworld_gym.ui.widgets import Theme

#: the probability that an app with promos shows one in an episode
PROMO_PROB = 0.5
#: the probability that the first attempt at a flaky operation fails in an episode
FAIL_PROB = 0.35
#: what a failed request says
ERROR_TOAST = "Something went wrong. Check your connection and try again."
#: the stack-entry state key that marks a network screen's content as loaded
LOADED = "_loaded"


def enable(world: Any, seed: int) -> None:
    """Turn the switches on for this episode (the field profile's reset calls it)."""
    world.realism = {"on": True, "seed": int(seed), "dismissed": [], "failed": []}


def is_on(world: Any) -> bool:
    return bool(world.realism.get("on"))


def draw(world: Any, what: str) -> float:
    """A number in [0, 1) fixed by the episode seed and ``what``: the same episode draws the
    same schedule on every run and in every process."""
    digest = hashlib.sha256(f"{world.realism.get('seed', 0)}/{what}".encode()).digest()
    return int.from_bytes(digest[:8], "little") / 2.0 ** 64


# -- loading placeholders ----------------------------------------------------------------
def loading(world: Any, app: Any, screen: str, entry: dict[str, Any]) -> bool:
    """Whether the activity ``entry`` (a network screen of ``app``) still shows its
    placeholder: until one action has run with it on top."""
    return is_on(world) and screen in app.network_screens and not entry["state"].get(LOADED)


def settle(world: Any, before: dict[str, Any] | None) -> None:
    """After an action: the activity that was on top before it, if still on top, has loaded
    (a screen opened by this action still shows its placeholder for one frame)."""
    if not is_on(world) or before is None:
        return
    if world.top() is before:
        before["state"][LOADED] = True


def placeholder(theme: Theme, label: str) -> Column:
    """The loading frame: the app's bar, a spinner and grey rows where the content will be."""
    grey = (226, 226, 230)
    rows: list[View] = []
    for i in range(6):
        rows.append(Row([
            View(width=dp(48), height=dp(48), bg=grey, radius=dp(24), in_dump=False),
            Column([View(height=dp(14), bg=grey, radius=dp(4), in_dump=False,
                         width=dp(200 - 24 * (i % 3))),
                    View(height=dp(12), bg=grey, radius=dp(4), in_dump=False,
                         width=dp(140 - 16 * (i % 2)))], gap=dp(10), flex=1, in_dump=False),
        ], gap=dp(16), padding=(dp(16), dp(12), dp(16), dp(12)), in_dump=False))
    spinner = Row([View(flex=1, in_dump=False),
                   Icon("spinner", size=28, box=48, color=theme.primary,
                        cls="android.widget.ProgressBar", desc="Loading", rid="progress"),
                   View(flex=1, in_dump=False)], padding=(0, dp(16), 0, dp(8)))
    return Column([w.app_bar(label, theme=theme), spinner, *rows, View(flex=1)],
                  bg=(255, 255, 255), flex=1)


# -- promotional pop-ups -----------------------------------------------------------------
def promo_due(world: Any, app: Any, screen: str) -> dict[str, str] | None:
    """The promo ``app`` shows over ``screen`` now, or None."""
    if not is_on(world) or not app.promos or screen != app.main_screen \
            or app.name in world.realism.get("dismissed", []):
        return None
    if draw(world, f"promo/{app.name}") >= PROMO_PROB:
        return None
    pick = int(draw(world, f"promo-pick/{app.name}") * len(app.promos))
    return dict(app.promos[min(pick, len(app.promos) - 1)])


def dismiss_promo(world: Any, app: str) -> Callable[[], None]:
    def h() -> None:
        world.realism["dismissed"] = [*world.realism.get("dismissed", []), app]

    return h


def promo_dialog(promo: dict[str, str], theme: Theme, on_dismiss: Callable[[], None]) -> View:
    """A promotional dialog: a close button, a badge, the title, the text, "No thanks" and
    the call to action (which, like most such buttons, only dismisses here)."""
    close = w.icon_button("close", "Close", on_dismiss, color=(73, 69, 79), rid="promo_close")
    badge = Row([View(flex=1, in_dump=False),
                 Icon("bullhorn", size=30, box=64, color=(255, 255, 255), bg=theme.primary,
                      radius=dp(32), in_dump=False),
                 View(flex=1, in_dump=False)], in_dump=False)
    body = Column([
        Row([View(flex=1, in_dump=False), close]),
        badge,
        Text(promo["title"], size=22, weight="medium", align="center", rid="promo_title",
             color=(29, 27, 32)),
        Text(promo["text"], size=15, align="center", color=(73, 69, 79), rid="promo_text"),
        Row([w.button("No thanks", on_dismiss, style="text", theme=theme, rid="promo_dismiss"),
             w.button(promo.get("action", "Learn more"), on_dismiss, theme=theme,
                      rid="promo_action")], gap=dp(8), padding=(0, dp(8), 0, 0)),
    ], gap=dp(12), padding=(dp(20), dp(8), dp(20), dp(20)), bg=(255, 255, 255),
        radius=dp(28), rid="promo", cls="android.widget.FrameLayout", flex=1)
    return Column([View(flex=1, in_dump=False), Row([body], padding=(dp(28), 0, dp(28), 0)),
                   View(flex=1, in_dump=False)], cls="android.widget.FrameLayout")


# -- transient errors --------------------------------------------------------------------
def fails(world: Any, app: str, op: str) -> bool:
    """Whether this attempt at ``op`` fails; records a failure, so the next attempt works.
    Call it only from a handler (it writes)."""
    if not is_on(world):
        return False
    key = f"{app}/{op}"
    if key in world.realism.get("failed", []) or draw(world, f"fail/{key}") >= FAIL_PROB:
        return False
    world.realism["failed"] = [*world.realism.get("failed", []), key]
    return True
