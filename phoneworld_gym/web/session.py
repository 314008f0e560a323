"""One person's play session: an env, the episode being played, and its recording.

The episode is played by :func:`phoneworld_gym.baselines.collect.run_episode` itself, the
function every collection uses, so a person's episode becomes the same rows as an agent's
(observation before the action, the action as AndroidWorld JSON, reward, done, success,
``action_error``, the screenshot) and is committed with :class:`EpisodeStore` as source
``human``. ``run_episode`` asks an agent for each action; here the agent is a queue that the
web page fills, and the episode runs in a thread of its own that waits on it:

    page --POST action--> PlaySession.act --queue--> _WebAgent.act (inside run_episode)
    page <--state------- PlaySession.act <--wakes--- _Recorder.step (after env.step)

The env is touched only by that thread (one at a time), never by a request.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import queue
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH, Action, parse_ui_elements

#: how long a request waits for the phone to carry out one action or a reset (seconds)
STEP_TIMEOUT = 120.0


class SessionError(Exception):
    """A request that cannot be carried out now; ``status`` is its HTTP status code."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class _Abandoned(Exception):
    """Raised inside ``run_episode`` when the page resets before the episode ended."""


_ABANDON = object()


class _WebAgent:
    """The agent ``run_episode`` plays with: each action is the next one the page sent."""

    name = "human"

    def __init__(self, session: PlaySession) -> None:
        self._session = session
        self.actions: queue.Queue[Any] = queue.Queue()

    def reset(self, goal: str) -> None:
        """Nothing to forget: the person reads the goal on the page."""

    def act(self, observation: dict[str, Any]) -> Action:
        """Say the phone is ready, then wait for the page's next action."""
        self._session._ready()
        item = self.actions.get()
        if item is _ABANDON:
            raise _Abandoned
        return item


class _Recorder(gym.Wrapper):
    """Keeps what the last reset or step returned, for the page to show."""

    def __init__(self, env: gym.Env, session: PlaySession) -> None:
        super().__init__(env)
        self._session = session

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        self._session._observed(obs, 0.0, info)
        return obs, info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._session._observed(obs, float(reward), info)
        return obs, reward, terminated, truncated, info


@dataclasses.dataclass
class _Episode:
    """What the page shows of the episode being played."""

    task: str
    seed: int
    phase: str = "starting"  # starting, waiting (for an action), stepping, done, failed
    obs: dict[str, Any] | None = None
    info: dict[str, Any] = dataclasses.field(default_factory=dict)
    reward: float = 0.0
    #: the actions sent so far: AndroidWorld JSON and the error sentence of each
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    error: str = ""
    recorded: dict[str, Any] | None = None
    record_note: str = ""
    version: int = 0


def element_rows(tree: str) -> list[dict[str, Any]]:
    """The indexed elements of an accessibility tree, as JSON for the page's inspector."""
    rows = []
    for i, e in enumerate(parse_ui_elements(tree)):
        b = e.bbox_pixels
        flags = [name for name, on in (
            ("clickable", e.is_clickable), ("long-clickable", e.is_long_clickable),
            ("editable", e.is_editable), ("scrollable", e.is_scrollable),
            ("checkable", e.is_checkable), ("checked", e.is_checked),
            ("selected", e.is_selected), ("focused", e.is_focused),
            ("enabled", e.is_enabled)) if on]
        rows.append({"index": i, "label": e.describe(), "text": e.text,
                     "content_desc": e.content_description, "hint": e.hint_text,
                     "class": e.class_name, "resource_id": e.resource_id,
                     "package": e.package_name, "flags": flags,
                     "bounds": [int(b.x_min), int(b.y_min), int(b.x_max), int(b.y_max)]
                     if b else None})
    return rows


def png_bytes(frame: np.ndarray) -> bytes:
    """A screenshot as PNG bytes."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.asarray(frame, dtype=np.uint8)).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


class PlaySession:
    """A person playing ``env`` through the page; every finished episode goes to
    ``record_dir`` (a trajectory dataset folder, made if needed) unless it is None.

    Args:
        env: an env made with ``obs_mode="all"`` (the page shows the screenshot).
        env_id: the id stored with the recording (``PhoneWorld/All-v0``, a device id, ...).
        record_dir: the dataset folder, or None to record nothing.
        agent: the agent name stored with the rows (``human``, or ``human:<name>``).
        split, max_steps: stored in the episode key, as a collection with them would.
        on_close: called by :meth:`close` (e.g. to stop a virtual phone the env made).
    """

    def __init__(self, env: gym.Env, *, env_id: str, record_dir: str | Path | None = None,
                 agent: str = "human", split: str | None = None, max_steps: int | None = None,
                 on_close: Callable[[], None] | None = None) -> None:
        self.env = _Recorder(env, self)
        self.env_id = env_id
        self.record_dir = Path(record_dir) if record_dir is not None else None
        self.agent = agent
        self.split, self.max_steps = split, max_steps
        self._on_close = on_close
        self._cond = threading.Condition()
        self._lock = threading.Lock()  # one reset or action at a time
        self._episode: _Episode | None = None
        self._agent: _WebAgent | None = None
        self._thread: threading.Thread | None = None
        self._png: tuple[int, bytes] | None = None

    @property
    def task_ids(self) -> Sequence[str]:
        """The tasks this env plays."""
        return list(getattr(self.env.unwrapped, "task_ids", []))

    # -- called by the episode's thread ----------------------------------------------------
    def _observed(self, obs: dict[str, Any], reward: float, info: dict[str, Any]) -> None:
        with self._cond:
            ep = self._episode
            if ep is not None:
                ep.obs, ep.reward, ep.info = obs, reward, dict(info)

    def _ready(self) -> None:
        self._set_phase("waiting")

    def _set_phase(self, phase: str, **changes: Any) -> None:
        with self._cond:
            ep = self._episode
            if ep is not None:
                for k, v in changes.items():
                    setattr(ep, k, v)
                ep.phase = phase
                ep.version += 1
            self._cond.notify_all()

    def _play(self, episode: _Episode, agent: _WebAgent) -> None:
        """The episode's thread: play it to the end, then commit it."""
        from phoneworld_gym.baselines.collect import EpisodeFailed, run_episode
        from phoneworld_gym.baselines.data import EpisodeKey, EpisodeStore

        key = EpisodeKey("human", self.agent, self.env_id, episode.task, episode.seed,
                         self.split, self.max_steps)
        try:
            rows, summary = run_episode(self.env, agent, key, screenshots=True)
        except _Abandoned:
            return
        except EpisodeFailed as e:
            self._set_phase("failed", error=f"the device failed: {e}; nothing was recorded")
            return
        except Exception as e:  # a bad reset (no instance for this seed ...), a device error
            self._set_phase("failed", error=f"{type(e).__name__}: {e}")
            return
        recorded, note = None, episode.record_note
        if self.record_dir is not None and not note:
            try:
                with EpisodeStore(self.record_dir, screenshots=True) as store:
                    if store.has(key):
                        note = (f"not recorded: {self.record_dir} already holds this task and "
                                f"seed from {self.agent}")
                    else:
                        entry = store.commit(key, rows, summary)
                        recorded = {"dir": str(self.record_dir), "episode_id": key.episode_id,
                                    "file": f"episodes/{entry['file']}", "rows": entry["rows"]}
            except (OSError, ValueError, RuntimeError) as e:
                note = f"not recorded: {e}"
        self._set_phase("done", recorded=recorded, record_note=note)

    # -- called by requests ----------------------------------------------------------------
    def reset(self, task: str, seed: int) -> dict[str, Any]:
        """Start a new episode of ``task`` at ``seed`` (the one being played is dropped
        unrecorded); the page's state once the phone is ready."""
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise SessionError(f"seed must be an int >= 0, got {seed!r}", 422)
        tasks = self.task_ids
        if task not in tasks:
            close = difflib.get_close_matches(str(task), tasks, n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(close)}?" if close else \
                f" ({len(tasks)} tasks: {', '.join(tasks[:5])}{' ...' if len(tasks) > 5 else ''})"
            raise SessionError(f"task {task!r} is not played by {self.env_id}{hint}", 422)
        with self._lock:
            self._stop()
            episode = _Episode(task, seed)
            episode.record_note = self._already_recorded(task, seed)
            agent = _WebAgent(self)
            with self._cond:
                self._episode, self._agent = episode, agent
            self._thread = threading.Thread(target=self._play, args=(episode, agent),
                                            name=f"play-{task}-{seed}", daemon=True)
            self._thread.start()
            self._wait(episode, 0)
            if episode.phase == "failed":
                raise SessionError(f"cannot start {task} at seed {seed}: {episode.error}", 422)
            return self.state()

    def act(self, action: Any) -> dict[str, Any]:
        """Carry out one action (an :class:`Action` or AndroidWorld JSON); the new state.
        ``SessionError`` when no episode waits for an action (409) or the action is not one
        (422)."""
        try:
            act = Action.from_any(action)
        except ValueError as e:
            raise SessionError(f"not an action: {e}", 422) from None
        with self._lock:
            ep, agent = self._episode, self._agent
            if ep is None or agent is None:
                raise SessionError("no episode yet: pick a task and press Reset")
            if ep.phase in ("done", "failed"):
                raise SessionError("the episode is over; press Reset to play again")
            if ep.phase != "waiting":
                raise SessionError(f"the phone is busy ({ep.phase}); try again")
            with self._cond:
                ep.phase = "stepping"
                version = ep.version
                ep.log.append({"action": act.to_json(), "action_error": ""})
            agent.actions.put(act)
            self._wait(ep, version)
            with self._cond:
                ep.log[-1]["action_error"] = str(ep.info.get("action_error", ""))
            return self.state()

    def _wait(self, ep: _Episode, version: int) -> None:
        with self._cond:
            if not self._cond.wait_for(lambda: ep.version > version and ep.phase != "stepping",
                                       timeout=STEP_TIMEOUT):
                raise SessionError(f"the phone did not answer within {STEP_TIMEOUT:.0f} s", 504)

    def _already_recorded(self, task: str, seed: int) -> str:
        """Why this episode will not be recorded ("" when it will)."""
        if self.record_dir is None:
            return "not recorded (no record folder)"
        from phoneworld_gym.baselines.data import INFO, EpisodeKey, manifest

        if not (self.record_dir / INFO).exists():
            return ""
        key = EpisodeKey("human", self.agent, self.env_id, task, seed, self.split,
                         self.max_steps)
        if any(EpisodeKey.from_dict(e["key"]) == key for e in manifest(self.record_dir)):
            return (f"not recorded: {self.record_dir} already holds {task} seed {seed} from "
                    f"{self.agent}; pick another seed to record")
        return ""

    def _stop(self) -> None:
        """Drop the episode being played (its thread ends without committing)."""
        thread, agent = self._thread, self._agent
        if thread is not None and thread.is_alive() and agent is not None:
            agent.actions.put(_ABANDON)
            thread.join(STEP_TIMEOUT)
        self._thread = None

    def release(self) -> tuple[gym.Env, Callable[[], None] | None]:
        """Drop the episode and hand back the env (and its ``on_close``) for another
        session; this session is not used afterwards."""
        with self._lock:
            self._stop()
            with self._cond:
                self._episode, self._agent = None, None
            return self.env.env, self._on_close

    def close(self) -> None:
        """Drop the episode and close the env (and what ``on_close`` stops)."""
        with self._lock:
            self._stop()
            self.env.close()
            if self._on_close is not None:
                self._on_close()

    # -- what the page shows ---------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The page's view of the session as JSON."""
        with self._cond:
            ep = self._episode
            if ep is None:
                return {"phase": "idle", "tasks": len(self.task_ids)}
            obs, info = ep.obs or {}, ep.info
            over = ep.phase in ("done", "failed")
            try:
                budget = getattr(self.env.unwrapped, "step_budget", None)
            except AssertionError:  # no task yet (the first reset is under way)
                budget = None
            return {
                "phase": ep.phase, "task": ep.task, "seed": ep.seed,
                "goal": obs.get("goal", ""), "category": info.get("category"),
                "params": info.get("params"), "steps": int(info.get("steps", 0)),
                "step_budget": budget,
                "action_error": str(info.get("action_error", "")),
                "log": [dict(row) for row in ep.log],
                "elements": element_rows(obs["a11y"]) if "a11y" in obs else [],
                "screen": [SCREEN_WIDTH, SCREEN_HEIGHT], "version": ep.version,
                "done": over,
                "reward": ep.reward if ep.phase == "done" else None,
                "success": bool(info.get("success")) if ep.phase == "done" else None,
                "failure": str(info.get("failure", "")) if over else "",
                "error": ep.error, "recorded": ep.recorded, "record_note": ep.record_note,
            }

    def screenshot_png(self) -> bytes:
        """The current screenshot as PNG (``SessionError`` 404 before the first reset)."""
        with self._cond:
            ep = self._episode
            frame = ep.obs.get("screenshot") if ep is not None and ep.obs else None
            version = ep.version if ep is not None else -1
        if frame is None:
            raise SessionError("no screen yet: pick a task and press Reset", 404)
        cached = self._png
        if cached is not None and cached[0] == version:
            return cached[1]
        data = png_bytes(frame)
        self._png = (version, data)
        return data

    def tree(self) -> str:
        """The current accessibility tree (uiautomator XML)."""
        with self._cond:
            ep = self._episode
            if ep is None or not ep.obs:
                raise SessionError("no screen yet: pick a task and press Reset", 404)
            return str(ep.obs.get("a11y", ""))
