"""A finished (or partial) exploration folder, read back: screens, trees and the graph."""

from __future__ import annotations

import collections
import functools
import json
import os
from pathlib import Path
from typing import Any

from PIL import Image

from phoneworld_gym.reconstruct.explore import STATE, action_id
from phoneworld_gym.reconstruct.tree import OUTSIDE, Node, informative, parse


class Recording:
    """What :mod:`~phoneworld_gym.reconstruct.explore` wrote into ``folder``.

    Screens are named by their id (``s0`` is where the app opens); :meth:`next` answers a
    transition from the graph (the first outcome observed, if an action was seen to lead to
    two places)."""

    def __init__(self, folder: str | os.PathLike[str]):
        self.folder = Path(folder)
        path = self.folder / STATE
        if not path.exists():
            raise FileNotFoundError(f"{path} does not exist: explore the app into "
                                    f"{self.folder} first (phoneworld_gym.reconstruct.explore)")
        self.state: dict[str, Any] = json.loads(path.read_text())
        self.app: str = self.state["app"]
        self.package: str = self.state["package"]
        #: screen signature -> id, and back
        self.ids: dict[str, str] = {sig: s["id"] for sig, s in self.state["screens"].items()}
        self.sigs: dict[str, str] = {sid: sig for sig, sid in self.ids.items()}
        self.root: str = self.ids[self.state["root"]]
        #: (src id, action id) -> destination id (or OUTSIDE)
        self.edges: dict[tuple[str, str], str] = {}
        #: (src id, action id) -> the recorded action
        self.actions: dict[tuple[str, str], dict[str, Any]] = {}
        self.conflicts = 0
        for t in self.state["transitions"]:
            key = (self.ids[t["src"]], action_id(t["action"]))
            dst = OUTSIDE if t["dst"] == OUTSIDE else self.ids[t["dst"]]
            if key in self.edges and self.edges[key] != dst:
                self.conflicts += 1
                continue
            self.edges.setdefault(key, dst)
            self.actions.setdefault(key, t["action"])

    @property
    def screen_ids(self) -> list[str]:
        """Every recorded screen, in the order found."""
        return sorted(self.sigs, key=lambda s: int(s[1:]))

    def next(self, sid: str, action: str) -> str | None:
        """Where ``action`` (``click:3``, ``input:0``, ``back``) on screen ``sid`` led, or
        None when it was never observed."""
        return self.edges.get((sid, action))

    @functools.cache  # noqa: B019 - a recording lives as long as its app
    def xml(self, sid: str) -> str:
        return (self.folder / "screens" / f"{sid}.xml").read_text()

    @functools.cache  # noqa: B019
    def tree(self, sid: str) -> tuple[list[Node], dict[str, int]]:
        """(the top nodes, node path -> informative key) of a screen's tree."""
        xml = self.xml(sid)
        keys = {n.path: k for k, n in enumerate(informative(xml))}
        return parse(xml), keys

    @functools.cache  # noqa: B019
    def picture(self, sid: str) -> Image.Image:
        """The screen's screenshot as recorded."""
        with Image.open(self.folder / "screens" / f"{sid}.png") as img:
            return img.convert("RGB")

    def paths(self, start: str | None = None) -> dict[str, list[str]]:
        """Shortest action paths (action ids) from ``start`` (default: the root) to every
        screen reachable in the graph, breadth first."""
        start = start or self.root
        out: dict[str, list[str]] = {start: []}
        todo = collections.deque([start])
        by_src: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
        for (src, act), dst in sorted(self.edges.items(), key=lambda e: _order(e[0][1])):
            by_src[src].append((act, dst))
        while todo:
            sid = todo.popleft()
            for act, dst in by_src[sid]:
                if dst != OUTSIDE and dst not in out:
                    out[dst] = out[sid] + [act]
                    todo.append(dst)
        return out


def _order(action: str) -> tuple[int, int]:
    """Clicks first, then inputs, then Back; by key: a stable order for shortest paths."""
    kind, _, key = action.partition(":")
    return ({"click": 0, "input": 1, "back": 2}.get(kind, 3), int(key or -1))
