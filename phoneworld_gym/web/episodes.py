"""Reading recorded episodes for people to look at: a trajectory dataset folder (see
:mod:`phoneworld_gym.baselines.data`), one episode and one step at a time."""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from phoneworld_gym.baselines.data import INFO, SHARDS, manifest
from phoneworld_gym.web.session import element_rows

#: shards kept in memory (an episode with screenshots is a few MB)
CACHE = 6


class EpisodeFolder:
    """The committed episodes of a trajectory dataset folder (``ValueError`` if it is not
    one). Episodes are known by their ``episode_id``; nothing outside the manifest is read."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        if not (self.root / INFO).exists():
            raise ValueError(f"{str(self.root)!r} is not a results folder: it has no {INFO} "
                             f"(make one with phoneworld eval, or python -m "
                             f"phoneworld_gym.baselines.collect ... --screenshots)")
        info = json.loads((self.root / INFO).read_text())
        #: whether the steps have screenshots
        self.screenshots = bool(info.get("screenshots"))
        self._cache: OrderedDict[str, pa.Table] = OrderedDict()
        self._categories: dict[str, str] = {}
        self._lock = threading.Lock()

    def entries(self) -> dict[str, dict[str, Any]]:
        """The manifest's entries by episode id (read afresh: a run may still be adding)."""
        return {e["episode_id"]: e for e in manifest(self.root)}

    def entry(self, episode_id: str) -> dict[str, Any]:
        """One manifest entry (``KeyError`` naming the id when it is not committed here)."""
        entries = self.entries()
        if episode_id not in entries:
            raise KeyError(f"no episode {episode_id!r} in {self.root}")
        return entries[episode_id]

    def _table(self, entry: dict[str, Any]) -> pa.Table:
        eid = entry["episode_id"]
        with self._lock:
            if eid in self._cache:
                self._cache.move_to_end(eid)
                return self._cache[eid]
        table = pq.read_table(self.root / SHARDS / entry["file"])
        with self._lock:
            self._cache[eid] = table
            while len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return table

    def _category(self, entry: dict[str, Any]) -> str:
        eid = entry["episode_id"]
        if eid not in self._categories:
            t = pq.read_table(self.root / SHARDS / entry["file"], columns=["category"])
            self._categories[eid] = str(t.column("category")[0].as_py()) if t.num_rows else "?"
        return self._categories[eid]

    def episodes(self) -> list[dict[str, Any]]:
        """A short description of every episode: id, task, category, seed, agent, source,
        env id, steps, and the verifier's result (``verifier_success`` None when the run
        stored none)."""
        return [self._describe(e) for e in self.entries().values()]

    def _describe(self, e: dict[str, Any]) -> dict[str, Any]:
        key = e["key"]
        return {"episode_id": e["episode_id"], "task": key["task"], "seed": key["seed"],
                "agent": key["agent"], "source": key["source"], "env_id": key["env_id"],
                "category": self._category(e), "steps": e["rows"],
                "verifier_success": e.get("success"), "verifier_reward": e.get("reward"),
                "failure": e.get("failure", "")}

    def episode(self, episode_id: str) -> dict[str, Any]:
        """One episode for the judging page: its description, goal and steps (each step's
        action as JSON, its error, reward, and the bounds of the element it targets)."""
        entry = self.entry(episode_id)
        t = self._table(entry)
        cols = {name: t.column(name).to_pylist() for name in
                ("step", "goal", "action", "action_error", "reward", "done", "success",
                 "tree", "params", "template")}
        steps = []
        for i in range(t.num_rows):
            action = json.loads(cols["action"][i])
            target = None
            if action.get("index") is not None:
                rows = element_rows(cols["tree"][i])
                if 0 <= action["index"] < len(rows):
                    target = rows[action["index"]]["bounds"]
            steps.append({"step": cols["step"][i], "action": action,
                          "action_error": cols["action_error"][i],
                          "reward": cols["reward"][i], "done": cols["done"][i],
                          "success": cols["success"][i], "target": target})
        params = cols["params"][0] if steps else ""
        return {**self._describe(entry), "goal": cols["goal"][0] if steps else "",
                "params": params, "success_statement": success_statement(params),
                "steps": steps, "screenshots": self.screenshots}

    def step_field(self, episode_id: str, step: int, field: str) -> Any:
        """One column of one step (``tree``, ``elements``, ``screenshot``); ``KeyError`` for a
        step the episode does not have."""
        entry = self.entry(episode_id)
        t = self._table(entry)
        if not 0 <= step < t.num_rows:
            raise KeyError(f"episode {episode_id!r} has steps 0..{t.num_rows - 1}, not {step}")
        if field not in t.column_names:
            raise KeyError(f"this folder's episodes have no {field!r}")
        return t.column(field)[step].as_py()


def success_statement(params: str) -> str:
    """What counts as success, for judges, when the episode's task states it (a real-phone
    task list's ``success``; ``baselines.protocol``), else ""."""
    try:
        data = json.loads(params) if params else {}
    except ValueError:
        return ""
    value = data.get("success") if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""
