"""Explore an app on any :class:`~phoneworld_gym.device.Device` and record what it shows.

The explorer goes breadth first over the screens it finds: on each screen it taps every
clickable element, types a sample input into every text field (the contract's
``input_text``: tap, type, enter) and presses Back, one action at a time. After an action
that changed the screen it presses Back to return; when Back does not come back to the
expected screen it re-launches the app (``device.reset(seed)`` then ``open_app``) and
replays the shortest known path to it. Screens are told apart by
:func:`~phoneworld_gym.reconstruct.tree.signature`.

Everything goes into a folder, saved after every action so that a killed run resumes where
it stopped (:meth:`Explorer.run` on the same folder continues)::

    state.json          the graph: screens, transitions, the queue, what was tried
    screens/<id>.xml    each screen's tree, as first seen
    screens/<id>.png    and its screenshot

Not explored: scrolling, long presses and swipes (a rebuild answers them as never observed).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device
from phoneworld_gym.reconstruct.tree import OUTSIDE, informative, package, signature

#: sample inputs by what a field's hint or id mentions; the last entry is the default
SAMPLE_INPUTS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("phone", "number", "tel"), "5550123"),
    (("mail",), "sam@example.com"),
    (("amount", "price", "age", "qty", "quantity"), "12"),
    ((), "Sam"),
)
STATE = "state.json"


def sample_input(hint: str) -> str:
    """The sample text typed into a field whose hint or resource id is ``hint``."""
    low = hint.lower()
    for words, text in SAMPLE_INPUTS:
        if not words or any(w in low for w in words):
            return text
    return SAMPLE_INPUTS[-1][1]


@dataclasses.dataclass(frozen=True)
class Budget:
    """When an exploration run stops (it can be resumed with a larger one)."""

    #: device actions in this run (re-launches and replays count)
    steps: int = 300
    #: wall-clock seconds for this run
    seconds: float = 300.0
    #: stop once the recording holds this many transitions (all runs together); None: no limit
    transitions: int | None = None


def screen_actions(xml: str) -> list[dict[str, Any]]:
    """What the explorer tries on a screen, in order: a tap on each clickable node, a sample
    input into each text field, then Back. Each is a dict with ``kind`` (``click``,
    ``input``, ``back``), the node's ``key`` and the point ``x``, ``y`` (and ``text``)."""
    out: list[dict[str, Any]] = []
    for k, n in enumerate(informative(xml)):
        x, y = n.centre
        if n.bounds[2] <= n.bounds[0] or n.bounds[3] <= n.bounds[1]:
            continue
        if n.editable:
            hint = n.attrs.get("hint", "") or n.attrs.get("resource-id", "")
            out.append({"kind": "input", "key": k, "x": x, "y": y, "text": sample_input(hint)})
        elif n.flag("clickable") and n.flag("enabled"):
            out.append({"kind": "click", "key": k, "x": x, "y": y})
    out.append({"kind": "back", "key": -1})
    return out


def action_id(a: dict[str, Any]) -> str:
    """A recorded action as a short string: ``click:3``, ``input:0``, ``back``."""
    return "back" if a["kind"] == "back" else f"{a['kind']}:{a['key']}"


def to_action(a: dict[str, Any]) -> Action:
    """The contract :class:`~phoneworld_gym.contract.Action` of a recorded action."""
    if a["kind"] == "back":
        return Action("navigate_back")
    if a["kind"] == "input":
        return Action("input_text", x=a["x"], y=a["y"], text=a["text"], clear_text=True)
    return Action("click", x=a["x"], y=a["y"])


class Explorer:
    """Breadth-first exploration of the app ``app_name`` (its launcher label) on ``device``,
    recorded into ``folder`` (see the module docstring)."""

    def __init__(self, device: Device, app_name: str, folder: str | os.PathLike[str], *,
                 seed: int = 0):
        self.device = device
        self.app_name = app_name
        self.folder = Path(folder)
        self.seed = seed
        self.state: dict[str, Any] = self._load()
        self.current: str | None = None  # where the device is (unknown after a resume)
        self.steps = 0

    # -- persistence -----------------------------------------------------------------------
    def _load(self) -> dict[str, Any]:
        path = self.folder / STATE
        if path.exists():
            state: dict[str, Any] = json.loads(path.read_text())
            if state.get("app") != self.app_name:
                raise ValueError(f"{path} records {state.get('app')!r}, not {self.app_name!r}; "
                                 "use another folder")
            return state
        return {"app": self.app_name, "package": None, "seed": self.seed, "root": None,
                "screens": {}, "transitions": [], "queue": [], "tried": {}, "steps": 0,
                "done": False}

    def save(self) -> None:
        """Write ``state.json`` atomically (a kill leaves the last complete state)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / (STATE + ".tmp")
        tmp.write_text(json.dumps(self.state, indent=1, sort_keys=True))
        os.replace(tmp, self.folder / STATE)

    # -- device ----------------------------------------------------------------------------
    def _act(self, action: Action) -> str:
        self.steps += 1
        self.state["steps"] += 1
        return self.device.execute(action)

    def _observe(self) -> tuple[str, str]:
        """(signature, xml) of the screen now; :data:`OUTSIDE` outside the app."""
        xml = self.device.a11y_xml()
        pkg = self.state["package"]
        if pkg is None or package(xml) != pkg:
            self.current = OUTSIDE
            return OUTSIDE, xml
        sig = signature(xml)
        self.current = sig
        return sig, xml

    def _launch(self) -> str:
        """Re-launch the app from a clean start; the signature of its first screen."""
        self.device.reset(self.seed)
        err = self._act(Action("open_app", app_name=self.app_name))
        if err:
            raise RuntimeError(f"cannot open {self.app_name!r} on the device: {err}")
        if self.state["package"] is None:
            self.state["package"] = package(self.device.a11y_xml())
        sig, _ = self._observe()
        return sig

    def _record(self, sig: str, xml: str, path: list[dict[str, Any]]) -> None:
        """Keep a new screen: its tree, screenshot and the path that reaches it."""
        sid = f"s{len(self.state['screens'])}"
        shots = self.folder / "screens"
        shots.mkdir(parents=True, exist_ok=True)
        (shots / f"{sid}.xml").write_text(xml)
        Image.fromarray(np.asarray(self.device.screenshot())).save(shots / f"{sid}.png")
        self.state["screens"][sig] = {"id": sid, "path": path}
        self.state["queue"].append(sig)

    def _goto(self, sig: str) -> bool:
        """Bring the device to screen ``sig``: Back once, else re-launch and replay."""
        if self.current == sig:
            return True
        if self.current not in (None, OUTSIDE):
            # Back to get there, not recorded: what is recorded stays the breadth-first order
            # whatever the device showed, so a resumed run records what one run would have
            self._act(Action("navigate_back"))
            if self._observe()[0] == sig:
                return True
        now = self._launch()
        for a in self.state["screens"][sig]["path"]:
            if now == sig:
                break
            self._act(to_action(a))
            now, _ = self._observe()
        self._hide_keyboard()
        return self.current == sig and now == sig

    def _hide_keyboard(self) -> None:
        """Back once when a text field holds focus (so taps reach the screen, not the
        keyboard); focus is not part of a screen's identity."""
        if self.current not in (None, OUTSIDE) and 'focused="true"' in self.device.a11y_xml():
            before = self.current
            self._act(Action("navigate_back"))
            now, _ = self._observe()
            if now != before:  # Back did more than close the keyboard
                self.current = now

    def _transition(self, src: str, a: dict[str, Any]) -> str:
        """Carry out ``a`` on screen ``src``, record the transition (and a new screen)."""
        err = self._act(to_action(a))
        dst, xml = self._observe()
        if dst == OUTSIDE:
            self.current = OUTSIDE
        if dst != OUTSIDE and dst not in self.state["screens"]:
            self._record(dst, xml, self.state["screens"][src]["path"] + [a])
        tried = self.state["tried"].setdefault(src, [])
        if action_id(a) not in tried:
            tried.append(action_id(a))
            self.state["transitions"].append({"src": src, "action": a, "dst": dst,
                                              "error": err})
        if dst != OUTSIDE:
            self._hide_keyboard()
        return dst

    # -- the run ---------------------------------------------------------------------------
    def run(self, budget: Budget = Budget()) -> dict[str, Any]:
        """Explore until every found screen is done or the budget is spent; the state."""
        start = time.monotonic()
        self.steps = 0
        st = self.state
        if st["root"] is None:
            root = self._launch()
            if root == OUTSIDE:
                raise RuntimeError(f"{self.app_name!r} opened no screen of its own")
            st["root"] = root
            self._record(root, self.device.a11y_xml(), [])
            self.save()
        while st["queue"]:
            if self.steps >= budget.steps or time.monotonic() - start >= budget.seconds:
                break
            if budget.transitions is not None and len(st["transitions"]) >= budget.transitions:
                break
            sig = st["queue"][0]
            tried = set(st["tried"].get(sig, []))
            xml = (self.folder / "screens" / f"{st['screens'][sig]['id']}.xml").read_text()
            todo = [a for a in screen_actions(xml) if action_id(a) not in tried]
            if not todo:
                st["queue"].pop(0)
                self.save()
                continue
            if not self._goto(sig):
                # not reachable again the way it was found (the app's state moved on)
                st["screens"][sig]["unreachable"] = True
                st["tried"][sig] = [action_id(a) for a in screen_actions(xml)]
                st["queue"].pop(0)
                self.save()
                continue
            self._transition(sig, todo[0])
            self.save()
        st["done"] = not st["queue"]
        self.save()
        return st


def explore(device: Device, app_name: str, folder: str | os.PathLike[str], *, seed: int = 0,
            budget: Budget = Budget()) -> dict[str, Any]:
    """Explore (or resume exploring) ``app_name`` on ``device`` into ``folder``."""
    return Explorer(device, app_name, folder, seed=seed).run(budget)
