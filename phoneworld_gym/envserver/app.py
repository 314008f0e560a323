"""The server: OpenEnv's ``HTTPEnvServer`` over :class:`PhoneWorldEnvironment`, plus a pool
report and the limits that keep one bad client from hurting the others.

**Sessions.** Each WebSocket connection to ``/ws`` (what OpenEnv's ``EnvClient`` opens) is a
session with its own env, made lazily at its first reset. The pool holds at most
``max_sessions``; a connection beyond that is refused with OpenEnv's ``CAPACITY_REACHED``
error, naming the count (nobody's running episode is evicted under them: a trainer that
wants more rollouts than the cap can wait and retry). A session ends, and its env is freed,
when the client sends ``close``, when its connection drops (a killed client included), or
when it has been idle longer than ``idle_timeout_s`` (OpenEnv's reaper).

**Bad requests** get an error message and the session stays usable: bad JSON
(``INVALID_JSON``), an unknown message type (``UNKNOWN_TYPE``), an action the contract
refuses (``VALIDATION_ERROR`` with the contract's sentence), a step before reset or after the
end, an unknown task or env id (``EXECUTION_ERROR``). A WebSocket message or HTTP body larger
than ``max_message_bytes`` closes that connection (WebSocket code 1009) or gets HTTP 413.

Besides OpenEnv's routes (``/ws``, ``/reset``, ``/step``, ``/state``, ``/schema``,
``/metadata``, ``/health``), ``GET /sessions`` reports ``{"active": n, "max": m}``.
"""

from __future__ import annotations

import functools
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from openenv.core.env_server.http_server import HTTPEnvServer
from openenv.core.env_server.types import ConcurrencyConfig
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response
from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.utils import ClientDisconnected

from phoneworld_gym.envserver.environment import PhoneWorldEnvironment, ServerConfig
from phoneworld_gym.envserver.models import PhoneAction, PhoneObservation

#: actions are small: 1 MiB leaves room for the longest text the contract accepts
MAX_MESSAGE_BYTES = 1 << 20


class _BodyLimit(BaseHTTPMiddleware):
    """HTTP 413 for a request body declared larger than the limit."""

    def __init__(self, app: Any, limit: int):
        super().__init__(app)
        self.limit = limit

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > self.limit):
            return JSONResponse({"detail": f"request body of {size} bytes is over the "
                                           f"server's limit of {self.limit} bytes"},
                                status_code=413)
        return await call_next(request)


class _QuietDisconnect:
    """Swallow a WebSocket client's disconnect after its session has ended.

    OpenEnv's ``/ws`` handler closes the socket in its ``finally``, which raises again when
    the client has already gone (every ``close``, every killed client); the session is freed
    by then, so the traceback uvicorn would log for each one says nothing.
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except (WebSocketDisconnect, ClientDisconnected):
            pass


def create_app(config: ServerConfig | None = None, max_sessions: int = 64,
               idle_timeout_s: float | None = 600.0,
               max_message_bytes: int = MAX_MESSAGE_BYTES) -> FastAPI:
    """The FastAPI app serving PhoneWorld sessions (see the module docstring).

    ``idle_timeout_s`` None keeps idle sessions until they disconnect. Serve it with
    :func:`serve`, or with uvicorn passing ``ws_max_size=max_message_bytes``.
    """
    if max_sessions < 1:
        raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
    server = HTTPEnvServer(
        functools.partial(PhoneWorldEnvironment, config or ServerConfig()),
        PhoneAction, PhoneObservation,
        concurrency_config=ConcurrencyConfig(max_concurrent_envs=max_sessions,
                                             session_timeout=idle_timeout_s))
    app = FastAPI(title="PhoneWorld OpenEnv server",
                  description="PhoneWorld envs behind OpenEnv's reset/step/state protocol")
    server.register_routes(app)
    app.state.env_server = server
    app.add_middleware(_BodyLimit, limit=max_message_bytes)
    app.add_middleware(_QuietDisconnect)

    @app.get("/sessions", tags=["Health"], summary="Sessions in the pool")
    async def sessions() -> dict[str, int]:
        """How many sessions hold an env, and the cap."""
        status = server.get_capacity_status()
        return {"active": status.active_sessions, "max": status.max_sessions}

    async def bad_request(request: Request, exc: Exception) -> JSONResponse:
        # the stateless HTTP /reset and /step run the env too: its ValueError (an unknown
        # task) or RuntimeError (a step with no episode) is the client's mistake, not a 500
        return JSONResponse({"detail": str(exc)}, status_code=400)

    app.add_exception_handler(ValueError, bad_request)
    app.add_exception_handler(RuntimeError, bad_request)
    return app


def serve(app: FastAPI, host: str = "127.0.0.1", port: int = 8000,
          max_message_bytes: int = MAX_MESSAGE_BYTES, log_level: str = "warning") -> None:
    """Serve ``app`` with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, ws_max_size=max_message_bytes,
                log_level=log_level)
