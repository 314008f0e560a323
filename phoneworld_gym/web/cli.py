"""The command line of the pages: ``phoneworld play --web`` and ``phoneworld judge``.

``phoneworld_gym.__main__`` calls :func:`add_arguments` to add the options and the
subcommand, and :func:`run` for a parsed command line that asks for a page. Errors are raised
as the caller's error class (``CliError``: one ``phoneworld: error:`` line and an exit
status), so that this module needs nothing from ``__main__``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: builds the caller's user error: (message, exit status) -> exception
ErrorClass = Callable[..., Exception]


def _default_judge() -> str:
    user = re.sub(r"[^A-Za-z0-9_.-]", "", os.environ.get("USER", ""))
    return user if user[:1].isalnum() else "judge"


def add_arguments(sub: Any) -> None:
    """Add ``--web`` and its options to the ``play`` subparser of ``sub`` (an argparse
    subparsers object), and the ``judge`` subcommand."""
    play = sub.choices["play"]
    g = play.add_argument_group("in a browser (--web; the task is then optional)")
    g.add_argument("--web", action="store_true",
                   help="play in a browser page instead of on stdin, and record the episodes")
    g.add_argument("--task", dest="web_task", metavar="TASK",
                   help="the task the page starts with (the same as the task argument)")
    g.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    g.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; anything else lets other "
                        "machines play the phone, with no authentication)")
    g.add_argument("--env-id", default="PhoneWorld/All-v0",
                   help="any env id, PhoneWorld or a device (PhoneWorld/Device-v0: the phone "
                        "$ANDROID_SERIAL names, else a virtual phone of its own)")
    g.add_argument("--record", metavar="DIR", default="out/human",
                   help="trajectory dataset folder for the finished episodes, source human "
                        "(default out/human)")
    g.add_argument("--no-record", action="store_true", help="record nothing")
    jp = sub.add_parser("judge", help="judge recorded episodes in a browser page",
                        description="Step through the episodes of a results folder (what "
                        "phoneworld eval or baselines.collect --screenshots writes) and mark "
                        "each a success or a failure with a reason; judgments are saved in "
                        "RESULTS_DIR/judgments/JUDGE.jsonl.")
    jp.add_argument("results_dir", metavar="RESULTS_DIR", help="a trajectory dataset folder")
    jp.add_argument("--judge", default=_default_judge(),
                    help="your name, which names your judgments file (default: $USER)")
    jp.add_argument("--port", type=int, default=8001, help="TCP port (default 8001)")
    jp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1)")
    jp.add_argument("--report", action="store_true",
                    help="no page: print the judgments' summary (success by category, "
                         "Cohen's kappa) and write RESULTS_DIR/judgments/report.md and "
                         "report.json")


def wants_page(a: argparse.Namespace) -> bool:
    """Whether the parsed command line is one :func:`run` carries out."""
    return a.cmd == "judge" or (a.cmd == "play" and bool(getattr(a, "web", False)))


def run(a: argparse.Namespace, error: ErrorClass) -> int:
    """Carry out ``play --web`` or ``judge``; user errors are raised as ``error(message)``."""
    if a.cmd == "judge" and a.report:
        return _report(a, error)
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        raise error(f"the pages need the web extra ({e.name} is missing): "
                    "pip install 'phoneworld[web]'") from None
    if not 0 <= a.port <= 65535:
        raise error(f"--port must be in 0..65535, got {a.port}")
    _check_port(a.host, a.port, error)
    if a.cmd == "judge":
        from phoneworld_gym.web.judge import make_judge_app

        try:
            app = make_judge_app(a.results_dir, judge=a.judge)
        except ValueError as e:
            raise error(str(e)) from None
        return serve(app, a.host, a.port, f"judging {a.results_dir} as {a.judge}")
    return _play(a, error)


def _play(a: argparse.Namespace, error: ErrorClass) -> int:
    from phoneworld_gym.registration import DEVICE_ENV_IDS
    from phoneworld_gym.web.play import make_play_app

    if a.task is not None and a.web_task is not None and a.task != a.web_task:
        raise error(f"two tasks given: {a.task!r} and --task {a.web_task!r}; give one")
    a.task = a.task or a.web_task

    kwargs: dict[str, Any] = {"screenshot_size": tuple(a.size)}
    if a.task is not None and a.env_id in DEVICE_ENV_IDS:
        kwargs["tasks"] = [a.task]  # spares the device env finding its phone-ready tasks
    record = None if a.no_record else a.record
    print(f"starting {a.env_id} ...", flush=True)
    try:
        app = make_play_app(a.env_id, task=a.task, seed=a.seed, record_dir=record,
                            env_kwargs=kwargs)
    except ValueError as e:
        raise error(str(e)) from None
    where = f"recording to {record}" if record else "not recording"
    return serve(app, a.host, a.port, f"playing {a.env_id}, {where}")


def _check_port(host: str, port: int, error: ErrorClass) -> None:
    """Fail with one line, before any work, when ``host:port`` cannot be listened on."""
    from phoneworld_gym.virtual.adb_server import is_loopback

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise error(f"cannot listen on {host}:{port}: {e.strerror or e}; pick another "
                    "--port") from None
    if not is_loopback(host):
        print(f"phoneworld: warning: serving on {host}:{port} with no authentication: anyone "
              "who can reach this address can use the page", file=sys.stderr)


def serve(app: Any, host: str, port: int, what: str) -> int:
    """Serve ``app`` until Ctrl-C."""
    import uvicorn

    shown = f"[{host}]" if ":" in host else host
    print(f"{what}: open http://{shown}:{port}/   (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0


def _report(a: argparse.Namespace, error: ErrorClass) -> int:
    """``judge --report``: the summary on stdout and in RESULTS_DIR/judgments/."""
    from phoneworld_gym.web.judging import JUDGMENTS, judgments_markdown, judgments_report

    try:
        report = judgments_report(a.results_dir)
    except ValueError as e:
        raise error(str(e)) from None
    text = judgments_markdown(report)
    folder = Path(a.results_dir) / JUDGMENTS
    if report["judges"]:
        (folder / "report.md").write_text(text)
        (folder / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(text, end="")
    return 0
