"""The play page: a person plays a task in the browser and the episode is recorded.

    from phoneworld_gym.web import make_play_app
    app = make_play_app("PhoneWorld/All-v0", task="ShoppingWishlistAdd", record_dir="out/human")
    # uvicorn.run(app, host="127.0.0.1", port=8000), or: phoneworld play --web

The page shows the phone's screenshot; a click taps, a drag swipes, a held press is a long
press; a text box types into the focused field; buttons go back, home, press enter, scroll,
open an app, and end the episode (complete, infeasible, or answer with text). Hovering shows
the element under the pointer (its index and tree attributes). At the end the page shows the
verifier's verdict and ``failure`` text, and the episode is in ``record_dir`` as a trajectory
dataset episode of source ``human`` (see :mod:`phoneworld_gym.web.session`).

API (JSON; errors are ``{"error": "..."}`` with a 4xx status):

- ``GET /api/config``: env id, tasks, default task and seed, app names, record folder.
- ``POST /api/sessions``: a new session (its own env): ``{"session": ID}``.
- ``POST /api/sessions/ID/reset`` ``{"task": ..., "seed": 0}``: a new episode; its state.
- ``POST /api/sessions/ID/act`` ``{"action": {AndroidWorld JSON}}``: one step; the state.
- ``GET /api/sessions/ID/state``, ``/screen.png``, ``/tree``; ``DELETE /api/sessions/ID``.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import gymnasium as gym
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field

from phoneworld_gym.contract import SCREEN_HEIGHT, SCREEN_WIDTH
from phoneworld_gym.web.app import ApiError, new_app
from phoneworld_gym.web.session import PlaySession, SessionError

#: an env factory: () -> (env, what to call to close what it started, or None)
EnvFactory = Callable[[], tuple[gym.Env, Callable[[], None] | None]]


class ResetBody(BaseModel):
    """``POST .../reset``: the task and seed of the new episode."""

    task: str = Field(max_length=200)
    seed: int = 0


class ActBody(BaseModel):
    """``POST .../act``: one action as AndroidWorld JSON."""

    action: dict[str, Any]


def default_env_factory(env_id: str, env_kwargs: Mapping[str, Any]) -> EnvFactory:
    """Envs made as a collection makes them (screenshot and tree); a device env's own
    virtual phone is stopped with the session."""
    from phoneworld_gym.baselines.collect import make_env

    def make() -> tuple[gym.Env, Callable[[], None] | None]:
        env = make_env(env_id, screenshots=True, **dict(env_kwargs))
        close = getattr(getattr(env.unwrapped, "device", None), "close", None)
        own = "device" not in env_kwargs and callable(close)
        return env, (close if own else None)

    return make


def make_play_app(env_id: str = "PhoneWorld/All-v0", *, task: str | None = None,
                  seed: int = 0, record_dir: str | Path | None = None,
                  env_kwargs: Mapping[str, Any] | None = None,
                  env_factory: EnvFactory | None = None, agent: str = "human",
                  max_sessions: int | None = None) -> FastAPI:
    """The play page's app (see the module docstring).

    Args:
        env_id: any registered id, PhoneWorld or a device (``PhoneWorld/Device-v0``).
        task, seed: what the page offers first (default: the env's first task, seed 0).
        record_dir: the trajectory dataset folder every finished episode goes to (made if
            needed; one made without screenshots is refused), or None to record nothing.
        env_kwargs: passed to ``gymnasium.make`` (``screenshot_size``, ``serial``, ``port``,
            ``tasks``, ``max_steps``, ``split`` ...).
        env_factory: makes each session's env instead (tests pass one).
        agent: the agent name recorded (``human`` or ``human:<name>``).
        max_sessions: pages playing at once, each with its own env (default 4; 1 for a device
            id, which has one phone); a new page beyond that takes the oldest page's env.
            A closed page's env is kept for the next page.
    """
    from phoneworld_gym.registration import DEVICE_ENV_IDS

    kwargs = dict(env_kwargs or {})
    factory = env_factory or default_env_factory(env_id, kwargs)
    if max_sessions is None:
        max_sessions = 1 if env_id in DEVICE_ENV_IDS else 4
    if record_dir is not None:
        _check_record_dir(Path(record_dir))
    # one env made now: it checks the id and kwargs before the server starts, lists the
    # tasks, and serves the first page
    first_env, first_close = factory()
    tasks = list(getattr(first_env.unwrapped, "task_ids", []))
    if task is not None and task not in tasks:
        first_env.close()
        if first_close is not None:
            first_close()
        import difflib

        close = difflib.get_close_matches(task, tasks, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else \
            "; see phoneworld list for the task ids"
        raise ValueError(f"task {task!r} is not played by {env_id}{hint}")
    spare: list[tuple[gym.Env, Callable[[], None] | None]] = [(first_env, first_close)]
    sessions: OrderedDict[str, PlaySession] = OrderedDict()
    lock = threading.Lock()

    def new_session(pair: tuple[gym.Env, Callable[[], None] | None] | None) -> PlaySession:
        env, close = pair if pair is not None else factory()
        return PlaySession(env, env_id=env_id, record_dir=record_dir, agent=agent,
                           split=kwargs.get("split"), max_steps=kwargs.get("max_steps"),
                           on_close=close)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        close_all()

    def close_all() -> None:
        with lock:
            for s in sessions.values():
                s.close()
            sessions.clear()
            for env, close in spare:
                env.close()
                if close is not None:
                    close()
            spare.clear()

    app = new_app("PhoneWorld: play", "play.html", lifespan=lifespan)
    app.state.close_all = close_all

    def session(sid: str) -> PlaySession:
        with lock:
            s = sessions.get(sid)
        if s is None:
            raise ApiError(f"no session {sid!r} (it ended, or another page took the phone); "
                           "reload the page", 404)
        return s

    def call(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except SessionError as e:
            raise ApiError(str(e), e.status) from None

    @app.get("/api/config")
    def config() -> dict[str, Any]:
        import phoneworld_gym

        apps = sorted(a.label for a in phoneworld_gym.list_apps() if a.name != "launcher")
        return {"env_id": env_id, "tasks": tasks, "task": task or (tasks[0] if tasks else None),
                "seed": seed, "apps": apps, "screen": [SCREEN_WIDTH, SCREEN_HEIGHT],
                "record_dir": str(record_dir) if record_dir is not None else None,
                "agent": agent}

    def retire(s: PlaySession) -> None:
        """A session's env goes back to the pool for the next page (a reload then needs no
        new env, and a device env no new phone)."""
        pair = s.release()
        with lock:
            spare.append(pair)

    @app.post("/api/sessions")
    def create() -> dict[str, str]:
        with lock:
            old = [sessions.popitem(last=False)[1]
                   for _ in range(max(0, len(sessions) - max_sessions + 1))]
        for o in old:
            retire(o)
        with lock:
            pair = spare.pop() if spare else None
        s = new_session(pair)
        sid = secrets.token_urlsafe(12)
        with lock:
            sessions[sid] = s
        return {"session": sid}

    @app.delete("/api/sessions/{sid}")
    def delete(sid: str) -> dict[str, bool]:
        with lock:
            s = sessions.pop(sid, None)
        if s is None:
            raise ApiError(f"no session {sid!r}", 404)
        retire(s)
        return {"closed": True}

    @app.post("/api/sessions/{sid}/reset")
    def reset(sid: str, body: ResetBody) -> dict[str, Any]:
        s = session(sid)
        return call(lambda: s.reset(body.task, body.seed))

    @app.post("/api/sessions/{sid}/act")
    def act(sid: str, body: ActBody) -> dict[str, Any]:
        s = session(sid)
        return call(lambda: s.act(body.action))

    @app.get("/api/sessions/{sid}/state")
    def state(sid: str) -> dict[str, Any]:
        return session(sid).state()

    @app.get("/api/sessions/{sid}/screen.png")
    def screen(sid: str) -> Response:
        s = session(sid)
        data = call(s.screenshot_png)
        return Response(data, media_type="image/png", headers={"Cache-Control": "no-store"})

    @app.get("/api/sessions/{sid}/tree")
    def tree(sid: str) -> PlainTextResponse:
        s = session(sid)
        return PlainTextResponse(call(s.tree), media_type="application/xml")

    return app


def _check_record_dir(path: Path) -> None:
    """``ValueError`` now, not at the first episode's end, when ``path`` cannot take human
    episodes with screenshots."""
    import json

    from phoneworld_gym.baselines.data import INFO

    if path.exists() and not path.is_dir():
        raise ValueError(f"record folder {str(path)!r} is a file")
    info = path / INFO
    if info.exists():
        try:
            shots = json.loads(info.read_text()).get("screenshots")
        except ValueError as e:
            raise ValueError(f"{info} is not valid JSON ({e})") from None
        if not shots:
            raise ValueError(f"record folder {str(path)!r} holds episodes without screenshots;"
                             f" a played episode has them: record into another folder")
    elif path.is_dir() and any(path.iterdir()):
        raise ValueError(f"record folder {str(path)!r} is not empty and not a trajectory "
                         f"dataset (no {INFO}); use a new or empty folder")
