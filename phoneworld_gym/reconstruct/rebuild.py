"""Turn a recording into a PhoneWorld app that registers like any other.

Each recorded screen becomes a screen of a :class:`RecordedApp`. It is served in one view
tree, so that the toolkit's one-tree rule still holds (what is drawn, dumped and hit is one
layout):

- the recorded screenshot, cropped to the app's part of the screen (between the status and
  navigation bars), is drawn as a :class:`~phoneworld_gym.ui.view.Picture` that is left out
  of the dump;
- over it lie views made from the recorded tree's nodes, each at its recorded bounds, with
  its recorded attributes, and never drawn (a plain view draws no text), so the dump is the
  recorded tree and a tap hits what it hit on the original;
- a recorded text field is a live :class:`~phoneworld_gym.ui.view.TextField`: typed text is
  shown in it (drawn over the picture), kept in the screen's draft and in the app's
  ``<name>/entered`` table.

Transitions come from the graph: a tap or a field's enter leads where the recording saw it
lead (a screen already on the back stack is returned to, another is opened on top; leaving
the app goes home); Back follows the recorded Back, else pops the screen. A tap, or long
press, that was never observed stays on the screen and answers the action with
``info["action_error"]`` ``"... was never observed ..."`` (the toolkit's
:class:`~phoneworld_gym.ui.view.Refused`, the one engine hook this package adds).

The app serves ``<name>/screen`` (one row: the screen shown, by id) and ``<name>/entered``
(one row per field typed into: ``_id`` ``<screen>:<key>``, ``value``), both view state, so
the generated tasks (:mod:`phoneworld_gym.reconstruct.tasks`) verify through the probe.
"""

from __future__ import annotations

import os
import re
from typing import Any, ClassVar

import numpy as np
from PIL import Image as PILImage

from phoneworld_gym.app import _APPS, App, Page, get_app, register_app
from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.life import Life
from phoneworld_gym.reconstruct.recording import Recording
from phoneworld_gym.reconstruct.tree import OUTSIDE, Box, Node
from phoneworld_gym.system.chrome import NAV_BAR_H, STATUS_BAR_H
from phoneworld_gym.ui.view import Picture, Refused, TextField, View

#: the part of the screen an app draws (between the status bar and the navigation bar)
APP_REGION: Box = (0, STATUS_BAR_H, SCREEN_WIDTH, SCREEN_HEIGHT - NAV_BAR_H)
NEVER_OBSERVED = "was never observed"


class Placed(View):
    """A recorded node: its children are laid out at their recorded bounds."""

    def __init__(self, rec_box: Box, *, scrolls: bool = False, **kw: Any):
        super().__init__(**kw)
        self.rec_box = rec_box
        self.scrolls = scrolls

    @property
    def scrollable(self) -> bool:
        return self.scrolls  # as recorded; scrolling itself was never explored

    def layout_children(self) -> None:
        for c in self.children:
            x1, y1, x2, y2 = getattr(c, "rec_box", self.box)
            c.layout(x1, y1, max(0, x2 - x1), max(0, y2 - y1))


class PlacedField(TextField):
    """A recorded text field, live."""

    rec_box: Box = (0, 0, 0, 0)


class PlacedPicture(Picture):
    """The recorded screenshot behind the recorded nodes."""

    rec_box: Box = APP_REGION


def _inside(b: Box, region: Box) -> bool:
    return b[0] >= region[0] and b[1] >= region[1] and b[2] <= region[2] and b[3] <= region[3]


def placed_nodes(tops: list[Node], region: Box = APP_REGION) -> list[Node]:
    """The nodes that make up the app's part of a recorded screen: each outermost node that
    lies inside ``region`` (or is a leaf, like a dialog's scrim); nodes around it (the
    window frames) are left to the compositor."""
    out: list[Node] = []
    for n in tops:
        if _inside(n.bounds, region) or not n.children:
            out.append(n)
        else:
            out += placed_nodes(list(n.children), region)
    return out


def _label(n: Node) -> str:
    a = n.attrs
    what = a.get("text") or a.get("content-desc") or a.get("resource-id", "").split("/")[-1]
    return f"{what!r}" if what else f"the {n.cls.rsplit('.', 1)[-1]} at {n.centre}"


class RecordedApp(App):
    """An app served from a :class:`~phoneworld_gym.reconstruct.recording.Recording` (see
    the module docstring). Made by :func:`install`; one subclass per recording."""

    recording: ClassVar[Recording]

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return {"at": self.main_screen, "entered": {}}

    def __reduce__(self) -> Any:
        return (get_app, (self.name,))  # the instance registered under this name

    # -- screens ---------------------------------------------------------------------------
    def page(self, ctx: Ctx, sid: str) -> Page:
        """Screen ``sid`` as a page (see the module docstring)."""
        rec = self.recording
        tops, keys = rec.tree(sid)
        nodes = placed_nodes(tops)
        pic = rec.picture(sid)

        def crop() -> PILImage.Image:
            sx, sy = pic.width / SCREEN_WIDTH, pic.height / SCREEN_HEIGHT
            x1, y1, x2, y2 = APP_REGION
            return pic.crop((round(x1 * sx), round(y1 * sy), round(x2 * sx), round(y2 * sy)))

        backdrop = PlacedPicture(crop, in_dump=False)
        if len(nodes) == 1 and nodes[0].bounds == APP_REGION:
            body = self._view(ctx, sid, nodes[0], keys)
            assert isinstance(body, Placed)
            body.children.insert(0, backdrop)
        else:
            body = Placed(APP_REGION, children=[backdrop] + [self._view(ctx, sid, n, keys)
                                                             for n in nodes])
        return Page(body, on_back=lambda: self._back(ctx, sid))

    def _view(self, ctx: Ctx, sid: str, n: Node, keys: dict[str, int]) -> View:
        a = n.attrs
        k = keys.get(n.path, -1)
        common: dict[str, Any] = dict(
            cls=n.cls or "android.view.View", desc=a.get("content-desc", ""),
            rid=a.get("resource-id", ""), hint=a.get("hint", ""),
            checkable=n.flag("checkable"), checked=n.flag("checked"),
            selected=n.flag("selected"), enabled=a.get("enabled", "true") == "true",
            focusable=n.flag("focusable"), password=n.flag("password"))
        if n.editable and not n.children:
            fkey = f"{sid}:{k}"
            value, on_text = ctx.field(fkey, "")
            store = ctx.store

            def typed(v: str) -> None:
                on_text(v)
                store.setdefault("entered", {})[fkey] = v

            field = PlacedField(fkey, value, on_text=typed, outlined=False,
                                on_submit=lambda: self._go(ctx, sid, f"input:{k}", None),
                                **common)
            field.rec_box = n.bounds
            return field
        view = Placed(n.bounds, scrolls=n.flag("scrollable"), text=a.get("text", ""),
                      children=[self._view(ctx, sid, c, keys) for c in n.children], **common)
        if n.flag("clickable"):
            view.on_click = lambda: self._go(ctx, sid, f"click:{k}", n)
        if n.flag("long-clickable"):
            view.on_long_click = lambda: self._refuse(sid, "a long press on", n)
        return view

    # -- transitions -----------------------------------------------------------------------
    def _refuse(self, sid: str, what: str, n: Node) -> None:
        raise Refused(f"{what} {_label(n)} on screen {sid} of {self.label} {NEVER_OBSERVED} "
                      "when the app was explored, so the rebuilt app stays where it is")

    def _go(self, ctx: Ctx, sid: str, action: str, n: Node | None) -> None:
        """Follow the recorded ``action`` from ``sid``; refuse a tap never observed (a
        field's enter never observed does nothing)."""
        dst = self.recording.next(sid, action)
        if dst is None:
            if n is not None:
                self._refuse(sid, "a tap on", n)
            return
        self._navigate(ctx, dst)

    def _back(self, ctx: Ctx, sid: str) -> bool:
        """The recorded Back; a Back never observed pops the screen. False: leave the app
        (the phone does it)."""
        dst = self.recording.next(sid, "back")
        stack = ctx.world.stacks.get(self.name, [])
        if dst is None:
            if len(stack) <= 1:
                return False
            ctx.pop()
            ctx.store["at"] = ctx.world.stacks[self.name][-1]["screen"]
            return True
        if dst == OUTSIDE:
            ctx.store["at"] = self.main_screen
            ctx.reset_to(self.main_screen)
            return False
        self._navigate(ctx, dst)
        return True

    def _navigate(self, ctx: Ctx, dst: str) -> None:
        """Show screen ``dst``: back down the stack to it, else open it on top; OUTSIDE
        goes home (the rebuilt app knows nothing of other apps)."""
        if dst == OUTSIDE:
            ctx.reset_to(self.main_screen)
            ctx.store["at"] = self.main_screen
            ctx.pop()
            return
        names = [e["screen"] for e in ctx.world.stacks.get(self.name, [])]
        if names and names[-1] == dst:
            return
        if dst in names:
            while ctx.world.stacks[self.name][-1]["screen"] != dst:
                ctx.pop()
        else:
            ctx.push(dst)
        ctx.store["at"] = dst


def _screen_fn(sid: str) -> Any:
    def screen(ctx: Ctx) -> Page:
        app = ctx.app
        assert isinstance(app, RecordedApp)
        return app.page(ctx, sid)

    screen.__qualname__ = f"recorded_screen_{sid}"
    return screen


def app_name_for(label: str) -> str:
    """The default name of a rebuilt app: ``"Clock"`` -> ``"clock_rebuilt"``."""
    return re.sub(r"\W+", "_", label.strip().lower()).strip("_") + "_rebuilt"


def make_app(folder: str | os.PathLike[str], name: str | None = None,
             label: str | None = None) -> type[RecordedApp]:
    """The app class of the recording in ``folder`` (not registered: see :func:`install`)."""
    rec = Recording(folder)
    name = name or app_name_for(rec.app)
    label = label or f"{rec.app} Rebuilt"

    def providers_for(n: str) -> dict[str, Any]:
        return {f"{n}/screen": lambda store: [{"_id": 0, "screen": store["at"]}],
                f"{n}/entered": lambda store: [{"_id": k, "value": v} for k, v in
                                               sorted(store.get("entered", {}).items())]}

    attrs: dict[str, Any] = {
        "name": name, "label": label, "package": f"{rec.package}.rebuilt",
        "recording": rec, "main_screen": rec.root, "icon": "box",
        "screens": {sid: _screen_fn(sid) for sid in rec.screen_ids},
        "providers": providers_for(name),
        "view_state": {f"{name}/screen": ("screen",), f"{name}/entered": ("value",)},
    }
    return type(f"Rebuilt_{name}", (RecordedApp,), attrs)


def install(folder: str | os.PathLike[str], name: str | None = None,
            label: str | None = None, *, tasks: bool = True) -> RecordedApp:
    """Register the app rebuilt from ``folder`` (and, with ``tasks``, its generated tasks and
    their env ids): ``open_app``, ``PhoneEnv(app=...)`` and ``gymnasium.make`` then work on
    it like on any app. Returns the registered instance."""
    from phoneworld_gym.reconstruct.tasks import register_generated
    from phoneworld_gym.registration import register_envs

    cls = make_app(folder, name, label)
    register_app(cls)
    app = get_app(cls.name)
    assert isinstance(app, RecordedApp)
    if tasks:
        register_generated(app)
    register_envs()
    return app


def uninstall(name: str) -> None:
    """Remove a rebuilt app, its generated tasks and their env ids from the registries (tests
    and notebooks that install a rebuild for a while)."""
    import gymnasium

    from phoneworld_gym import task as task_module

    app = _APPS.get(name)
    if not isinstance(app, RecordedApp):
        raise ValueError(f"{name!r} is not an installed rebuilt app")
    for tid, t in list(task_module._TASKS.items()):
        if tuple(t.apps) == (name,):
            del task_module._TASKS[tid]
            gymnasium.registry.pop(t.env_id(), None)
    gymnasium.registry.pop(f"PhoneWorld/{app.label.replace(' ', '')}-v0", None)
    del _APPS[name]
