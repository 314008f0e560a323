"""What the Ray-backed classes share: importing Ray with a helpful error, and telling a worker
that died (or stopped answering) from an exception that the env itself raised."""

from __future__ import annotations

import re
from typing import Any

try:
    import ray
    from ray.exceptions import RayError, RayTaskError
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "phoneworld_gym.scale needs Ray: pip install 'phoneworld[ray]' (or 'ray>=2.9')"
    ) from e

__all__ = ["ray", "RayError", "RayTaskError", "describe_failure", "task_cause"]

#: How much of a failure's text a record or an info keeps.
MAX_REASON = 400


def describe_failure(error: BaseException) -> str:
    """One line saying why a worker's call gave no result: the exception type and the gist of
    its message (Ray's messages run to many lines of ids, addresses and traceback)."""
    text = _ANSI.sub("", str(error))
    cause = task_cause(error)
    if cause is not None and cause is not error:
        return describe_failure(cause)
    raised = _raised(text)
    if "ray.kill" in text:
        gist = "the worker was killed (ray.kill)"
    elif raised and getattr(error, "actor_init_failed", False):
        gist = f"the worker failed to start: {raised}"
    elif raised:
        gist = raised
    else:
        gist = re.sub(r"\s+", " ", text).strip() or "no message"
    line = f"{type(error).__name__}: {gist}"
    return line if len(line) <= MAX_REASON else line[: MAX_REASON - 3] + "..."


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _raised(text: str) -> str:
    """The ``Type: message`` that ends a traceback inside ``text`` ("" if there is none)."""
    lines = text.splitlines()
    last = max((k for k, line in enumerate(lines) if line.lstrip().startswith('File "')),
               default=None)
    if last is None:
        return ""
    tail = [line.strip() for line in lines[last + 1:] if line and not line.startswith(" ")]
    return " ".join(tail)


def task_cause(error: BaseException) -> BaseException | None:
    """The exception that the remote code itself raised, for a ``RayTaskError``; else None."""
    if isinstance(error, RayTaskError):
        cause: Any = getattr(error, "cause", None)
        if isinstance(cause, BaseException):
            return cause
        try:
            return error.as_instanceof_cause()
        except Exception:  # noqa: BLE001 - Ray could not rebuild it; keep the wrapper
            return error
    return None
