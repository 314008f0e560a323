"""``phoneworld serve-env``: serve PhoneWorld sessions over OpenEnv until Ctrl-C.

``phoneworld_gym.__main__`` calls :func:`add_arguments` to add the subcommand and :func:`run`
for a parsed ``serve-env`` command line; errors are raised as the caller's error class.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from collections.abc import Callable
from typing import Any

#: builds the caller's user error: (message, exit status) -> exception
ErrorClass = Callable[..., Exception]


def _size(text: str) -> tuple[int, int]:
    """``--screenshot-size``: "WIDTHxHEIGHT" -> (width, height), both positive."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT such as 540x1200, got {text!r}") from None
    if not (0 < w <= 4096 and 0 < h <= 4096):
        raise argparse.ArgumentTypeError(f"width and height must be in 1..4096, got {text!r}")
    return w, h


def add_arguments(sub: Any) -> None:
    """Add the ``serve-env`` subcommand to ``sub`` (an argparse subparsers object)."""
    sp = sub.add_parser("serve-env", help="serve PhoneWorld envs over OpenEnv (reset/step/state)",
                        description="Serve many PhoneWorld sessions behind OpenEnv's protocol: "
                        "connect with phoneworld_gym.envserver.PhoneWorldClient (or any OpenEnv "
                        "client) at ws://HOST:PORT/ws. See docs/openenv.md.")
    sp.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1; anything else lets other "
                         "machines drive the phones, with no authentication)")
    sp.add_argument("--max-sessions", type=int, default=64,
                    help="most concurrent sessions; a connection beyond it is refused with "
                         "CAPACITY_REACHED (default 64)")
    sp.add_argument("--idle-timeout", type=float, default=600.0,
                    help="seconds a session may sit idle before its env is freed; 0 never "
                         "(default 600)")
    sp.add_argument("--env-id", default="PhoneWorld/All-v0",
                    help="env a reset plays when it names none (default PhoneWorld/All-v0; "
                         "PhoneWorld/Device-v0 plays over adb)")
    sp.add_argument("--screenshot-size", type=_size, default=(540, 1200),
                    help="default screenshot WIDTHxHEIGHT (default 540x1200)")
    sp.add_argument("--obs-mode", choices=("all", "pixels", "a11y"), default="all",
                    help="default observation: all, pixels (no tree) or a11y (no screenshot)")


def run(a: argparse.Namespace, error: ErrorClass) -> int:
    """Serve until Ctrl-C; bad options raise ``error(message)`` before anything starts."""
    from phoneworld_gym.envserver.app import create_app, serve
    from phoneworld_gym.envserver.environment import ServerConfig, check_env_id

    if not 0 <= a.port <= 65535:
        raise error(f"--port must be in 0..65535, got {a.port}")
    if a.max_sessions < 1:
        raise error(f"--max-sessions must be at least 1, got {a.max_sessions}")
    if a.idle_timeout < 0:
        raise error(f"--idle-timeout must be 0 (never) or positive, got {a.idle_timeout}")
    try:
        check_env_id(a.env_id)
    except ValueError as e:
        raise error(str(e)) from None
    try:  # fail now, with one line, rather than inside uvicorn's startup
        with socket.create_server((a.host, a.port)):
            pass
    except OSError as e:
        why = "the port is in use" if e.errno == errno.EADDRINUSE else (e.strerror or str(e))
        raise error(f"cannot listen on {a.host}:{a.port}: {why}") from None
    if a.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"phoneworld: warning: serving envs on {a.host}:{a.port} with no "
              "authentication", file=sys.stderr)
    config = ServerConfig(env_id=a.env_id, screenshot_size=a.screenshot_size,
                          obs_mode=a.obs_mode)
    app = create_app(config, max_sessions=a.max_sessions,
                     idle_timeout_s=a.idle_timeout or None)
    print(f"PhoneWorld OpenEnv server on http://{a.host}:{a.port} (ws://{a.host}:{a.port}/ws), "
          f"up to {a.max_sessions} sessions; Ctrl-C stops", flush=True)
    serve(app, host=a.host, port=a.port)
    return 0
