"""Reliability figures (issue 25), each printed as ``figure: value`` lines, then a summary
table (markdown): what was thrown at the env, the virtual adb phone and the collector, and
what came of it. ``docs/reliability.md`` holds the figures of the latest run.

- **actions**: mutated actions (from the oracle's valid actions over many tasks: wrong types,
  out-of-range indices and points, huge and odd texts, unknown action types, missing and
  unknown keys; as dicts, JSON text, ``Action`` objects and the numeric form) through
  ``env.step`` of ``PhoneWorld/All-v0``, alternately with ``invalid="raise"`` and
  ``invalid="noop"``; then a hand-written list of malformed actions through both. Counts what
  was accepted, refused in ``info`` (``invalid_action`` / ``action_error``), refused with a
  ``ValueError`` at the boundary, and crashes (any other exception). Also ``Action`` objects
  whose frozen fields were overwritten after construction ("smuggled").
- **adb**: connections of malformed adb packets against the virtual phone (bad magic, bad
  checksum, truncated, oversize, unknown commands, random bytes, floods, sync garbage) while
  one good client runs ``echo ok`` in a loop on its own connection.
- **injection**: shell-injection and path-escape strings through ``adb shell`` (quoted as one
  argument, and raw), ``adb push`` and ``adb pull`` (Debian's ``adb``; ``adbutils`` for the
  strings with NUL bytes, which no argv can carry), with a canary folder on the host whose
  contents and times are compared afterwards.
- **kills**: an env over the virtual phone (``phoneworld serve-adb`` in its own process, driven
  through an adb server by ``AdbDevice``), the phone's process SIGKILLed mid-episode: the step
  must end truncated with ``info["device_error"]``; a phone is started again on the port and
  the next reset must play the task.
- **collect**: ``python -m phoneworld_gym.baselines.collect`` SIGKILLed once some episodes are
  committed, one file it left damaged on purpose, then the same command again: nothing lost,
  nothing twice.

    python examples/reliability.py [actions] [adb] [injection] [kills] [collect] \\
        [--json out.json] [--actions 3000] [--adb-packets 3000] [--adb-connections 300] ...
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import hashlib
import json
import math
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

import phoneworld_gym  # noqa: F401 (registers the env ids)
from phoneworld_gym.contract import (
    ACTION_TYPES,
    MAX_APP_NAME,
    MAX_ELEMENTS,
    MAX_TEXT,
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Action,
)
from phoneworld_gym.virtual.adb_protocol import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_STLS,
    A_VERSION,
    A_WRTE,
    HEADER,
    MAX_CNXN_PAYLOAD,
    MAX_PAYLOAD,
    Packet,
    PacketReader,
)

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("actions", "adb", "injection", "kills", "collect")


class Figures(dict[str, Any]):
    """A section's figures, in order; each printed as ``figure: value`` when added."""

    def __init__(self, section: str, echo: bool = True) -> None:
        super().__init__()
        self.section, self.echo = section, echo

    def add(self, name: str, value: Any) -> Any:
        assert ":" not in name, name
        self[name] = value
        if self.echo:
            print(f"{name}: {value}", flush=True)
        return value

    def note(self, text: str) -> None:
        if self.echo:
            print(f"  {text}", flush=True)


def short(value: Any, limit: int = 120) -> str:
    """A repr cut to ``limit`` characters (a malformed value may be megabytes long)."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr raises
        text = f"<{type(value).__name__} with a failing repr>"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} chars)"


# =====================================================================================
# actions
# =====================================================================================
class BadRepr:
    """A value whose ``repr`` raises."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class BadInt:
    """A value whose ``int()`` and ``float()`` raise something other than ValueError."""

    def __int__(self) -> int:
        raise OverflowError("no int")

    def __float__(self) -> float:
        raise ZeroDivisionError("no float")

    def __index__(self) -> int:
        raise OverflowError("no index")


def nested(depth: int) -> list[Any]:
    """A list nested ``depth`` deep (its repr and JSON overflow the stack)."""
    root: list[Any] = []
    inner = root
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return root


#: values of a wrong type or out of every range, for any field
WRONG = [None, True, False, 1.5, -0.5, math.nan, math.inf, -math.inf, 10**30, -1, -(2**63),
         2**64, 10**400, "3", "three", "", " ", "-1", "1e3", "0x10", b"bytes", bytearray(b"x"),
         [1], [], {}, {"a": 1}, (1, 2), {1, 2}, np.int64(-1), np.float64(2.5), np.uint64(2**63),
         np.array([1, 2]), np.array(7.5), np.bool_(True), complex(1, 2), BadRepr(), BadInt(),
         object(), nested(50_000), "\ud800", "x" * (MAX_TEXT + 1)]
#: texts that are odd but may be in the space, and texts that are not
ODD_TEXTS = ["", " ", "\x00", "a\x00b", "\x1b[2J", "\u202eevil", "\ud800", "x\udfff", "\ufffe",
             "\U0010ffff" * 10, "😀" * 300, "👨‍👩‍👧" * 50, "e\u0301" * 400, "x" * MAX_TEXT,
             "x" * (MAX_TEXT + 1), "y" * 100_000, "\n" * 50, "\r\n\t\v\f", "<hierarchy/>",
             "]]></node>", "&amp;&lt;", "' OR 1=1 --", "%s%n%x", "$(reboot)", "`id`",
             "; rm -rf /", "مرحبا", "中文" * 200, "\u200b" * 1000, "A" * 1024 + "\ud800"]
INDICES = [-1, -100, MAX_ELEMENTS, MAX_ELEMENTS + 1, 10**6, 2**63, 10**100, 3.7, -0.5, "7",
           "-3", "1e2", math.nan]
POINTS = [(-1, 0), (0, -1), (SCREEN_WIDTH, 5), (5, SCREEN_HEIGHT), (10**9, 1), (math.nan, 1),
          (math.inf, -math.inf), (1079.5, 3), (-0.1, 5), ("5", "6"), (5, None), (None, 5),
          (True, False), (2**64, 2**64)]
UNKNOWN_TYPES = ["fly", "", " ", "CLICK", "click ", " click", "tap", "press", "input-text",
                 "status\x00", "🙂", "navigate_home;rm", "open_app\n", "Click", "scroll_down",
                 "type", "answer ", "none", "null", "__class__"]
FIELDS = ("action_type", "index", "x", "y", "text", "direction", "app_name", "goal_status",
          "clear_text")


def mutate(rng: random.Random, base: dict[str, Any]) -> tuple[dict[Any, Any], str]:
    """One to three mutations of a valid action's JSON dict; the dict and what was done."""
    d: dict[Any, Any] = dict(base)
    done = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        kind = rng.choice(("wrong-type", "index", "point", "huge-text", "odd-text",
                           "unknown-type", "missing-key", "extra-key", "other-type",
                           "both-targets", "bad-choice", "app-name"))
        done.append(kind)
        if kind == "wrong-type":
            d[rng.choice(FIELDS)] = rng.choice(WRONG)
        elif kind == "index":
            d.pop("x", None), d.pop("y", None)
            d["index"] = rng.choice(INDICES)
        elif kind == "point":
            d.pop("index", None)
            d["x"], d["y"] = rng.choice(POINTS)
        elif kind == "huge-text":
            d["text"] = rng.choice(("x", "😀", "\u0301", "ab")) * rng.choice(
                (MAX_TEXT + 1, 4096, 100_000, 1 << 20))
        elif kind == "odd-text":
            d["text"] = rng.choice(ODD_TEXTS)
        elif kind == "unknown-type":
            d["action_type"] = rng.choice(UNKNOWN_TYPES)
        elif kind == "missing-key":
            keys = list(d)
            if keys:
                del d[rng.choice(keys)]
        elif kind == "extra-key":
            d[rng.choice(("colour", "keycode", "idx", "Index", "element", "coords", 1, None,
                          "text ", "__proto__"))] = rng.choice(
                [1, "red", "KEYCODE_BACK", "BACK", None, [1, 2]])
        elif kind == "other-type":
            d["action_type"] = rng.choice(ACTION_TYPES)
        elif kind == "both-targets":
            d["index"], d["x"], d["y"] = rng.randrange(20), rng.randrange(1080), \
                rng.randrange(2400)
        elif kind == "bad-choice":
            field = rng.choice(("direction", "goal_status", "clear_text"))
            d[field] = rng.choice(["sideways", "UP", "", "done", "complete ", "false", "true",
                                   0, 1, "yes", None, ["up"], "infeasible", "down"])
        else:
            d["app_name"] = rng.choice(["", " ", "\t", "x" * (MAX_APP_NAME + 1), "\ud800",
                                        "NoSuchApp", "contacts", "Contacts\x00", "../Contacts",
                                        "C" * MAX_APP_NAME, 42, None])
    return d, "+".join(done)


def json_text(rng: random.Random, d: dict[str, Any]) -> str:
    """``d`` as JSON text, sometimes damaged the way model output is; a value JSON cannot
    hold makes the text of its repr (still text for the env to refuse)."""
    try:
        text = json.dumps(d, ensure_ascii=rng.random() < 0.5)
    except (TypeError, ValueError, RecursionError, OverflowError):
        text = "{" + ", ".join(f'"{short(k, 30)}": {short(v, 60)}' for k, v in d.items()) + "}"
    damage = rng.randrange(12)
    if damage == 0:
        text = text[: rng.randrange(len(text) + 1)]
    elif damage == 1:
        text = text + rng.choice(("}", " garbage", "\x00", ",", "\n{}"))
    elif damage == 2:
        text = text.replace('"', "'")
    elif damage == 3:
        text = "\ufeff" + text
    elif damage == 4:
        text = "```json\n" + text + "\n```"
    elif damage == 5:
        text = '{"action_type": "wait", ' + text[1:] if text.startswith("{") else text
    return text


def action_object(d: dict[str, Any]) -> Action:
    """``Action(**d)`` over the known fields (the constructor validates)."""
    kw = {k: v for k, v in d.items() if k in FIELDS}
    kw.setdefault("action_type", None)
    return Action(**kw)


def numeric_mutation(rng: random.Random, space: Any) -> dict[str, Any]:
    """A numeric-form space sample with one to three fields replaced or removed."""
    sample = dict(space.sample())
    for _ in range(rng.randrange(1, 4)):
        key = rng.choice(list(sample) + ["colour"])
        if rng.random() < 0.2 and key in sample:
            del sample[key]
        else:
            sample[key] = rng.choice(WRONG + [np.int64(-1), np.int64(13), np.int64(512),
                                              np.array(2400), np.array(-1), "\ud800"])
    return sample


def smuggled(rng: random.Random, base: Action) -> Action:
    """A valid ``Action`` whose frozen fields were overwritten after construction (what a
    tampered pickle or ``object.__setattr__`` gives): nothing validated the new values."""
    field = rng.choice(FIELDS)
    value = rng.choice(WRONG + UNKNOWN_TYPES[:5] + [-1, 10**6, "sideways", "done"])
    object.__setattr__(base, field, value)
    return base


def malformed_actions() -> list[tuple[str, Any]]:
    """Hand-written actions outside the space, one per kind (each must be refused)."""
    num0: dict[str, Any] = {"action_type": ACTION_TYPES.index("click"), "target": 1, "index": 0,
                            "x": np.array(0), "y": np.array(0), "text": "", "direction": 0,
                            "app_name": "", "goal_status": 0, "clear_text": 0}

    def num(**kw: Any) -> dict[str, Any]:
        return {**num0, **kw}

    def drop(d: dict[str, Any], key: str) -> dict[str, Any]:
        return {k: v for k, v in d.items() if k != key}

    click = {"action_type": "click", "index": 0}
    cases: list[tuple[str, Any]] = [
        # action_type
        ("type-missing", {"index": 1}), ("type-none", {"action_type": None}),
        ("empty-dict", {}), ("type-int-negative", num(action_type=-1)),
        ("type-int-too-big", num(action_type=len(ACTION_TYPES))),
        ("type-huge-int", {"action_type": 2**80}), ("type-float", {"action_type": 3.0}),
        ("type-np-float", {"action_type": np.float64(6)}),
        ("type-array", {"action_type": np.array([1, 2])}),
        ("type-list", {"action_type": ["click"]}), ("type-bytes", {"action_type": b"wait"}),
        ("type-unknown", {"action_type": "fly"}), ("type-upper", {"action_type": "CLICK"}),
        ("type-padded", {"action_type": " click"}), ("type-empty", {"action_type": ""}),
        ("type-nul", {"action_type": "wait\x00"}), ("type-surrogate", {"action_type": "\ud800"}),
        ("type-bool", {"action_type": True}), ("type-dict", {"action_type": {"a": 1}}),
        ("type-object", {"action_type": object()}),
        # targets
        ("click-no-target", {"action_type": "click"}),
        ("long-press-no-target", {"action_type": "long_press"}),
        ("double-tap-no-target", {"action_type": "double_tap"}),
        ("index-negative", {"action_type": "click", "index": -1}),
        ("index-512", {"action_type": "click", "index": MAX_ELEMENTS}),
        ("index-huge", {"action_type": "click", "index": 10**5000}),
        ("index-words", {"action_type": "click", "index": "three"}),
        ("index-nan", {"action_type": "click", "index": math.nan}),
        ("index-inf", {"action_type": "click", "index": math.inf}),
        ("index-list", {"action_type": "click", "index": [1]}),
        ("index-bad-int", {"action_type": "click", "index": BadInt()}),
        ("index-and-point", {"action_type": "click", "index": 1, "x": 5, "y": 5}),
        ("x-without-y", {"action_type": "click", "x": 5}),
        ("y-without-x", {"action_type": "click", "y": 5}),
        ("x-negative", {"action_type": "click", "x": -1, "y": 5}),
        ("y-negative", {"action_type": "click", "x": 5, "y": -1}),
        ("x-1080", {"action_type": "click", "x": SCREEN_WIDTH, "y": 5}),
        ("y-2400", {"action_type": "click", "x": 5, "y": SCREEN_HEIGHT}),
        ("x-inf", {"action_type": "click", "x": math.inf, "y": 5}),
        ("y-nan", {"action_type": "click", "x": 5, "y": math.nan}),
        ("x-huge-float", {"action_type": "click", "x": 1e300, "y": 0}),
        ("x-str", {"action_type": "double_tap", "x": "five", "y": 1}),
        ("x-bytes", {"action_type": "long_press", "x": b"5", "y": 1}),
        ("x-complex", {"action_type": "click", "x": complex(1, 1), "y": 1}),
        ("wait-with-index", {"action_type": "wait", "index": 1}),
        ("home-with-point", {"action_type": "navigate_home", "x": 1, "y": 1}),
        ("status-with-index", {"action_type": "status", "goal_status": "complete", "index": 0}),
        ("open-app-with-index", {"action_type": "open_app", "app_name": "Contacts", "index": 0}),
        # text
        ("input-no-text", {"action_type": "input_text"}),
        ("answer-no-text", {"action_type": "answer"}),
        ("text-1025", {"action_type": "input_text", "text": "x" * (MAX_TEXT + 1)}),
        ("text-1mb", {"action_type": "answer", "text": "y" * (1 << 20)}),
        ("text-surrogate", {"action_type": "input_text", "text": "ok \ud800"}),
        ("text-low-surrogate", {"action_type": "answer", "text": "\udfff"}),
        ("text-bytes", {"action_type": "input_text", "text": b"abc"}),
        ("text-list", {"action_type": "input_text", "text": ["a"]}),
        ("text-dict", {"action_type": "answer", "text": {"a": "b"}}),
        ("text-deep", {"action_type": "input_text", "text": nested(100_000)}),
        ("text-bool-unused", {"action_type": "wait", "text": b"x"}),
        ("text-emoji-1025", {"action_type": "answer", "text": "😀" * (MAX_TEXT + 1)}),
        # app names
        ("app-missing", {"action_type": "open_app"}),
        ("app-empty", {"action_type": "open_app", "app_name": ""}),
        ("app-blank", {"action_type": "open_app", "app_name": " \t"}),
        ("app-129", {"action_type": "open_app", "app_name": "C" * (MAX_APP_NAME + 1)}),
        ("app-1mb", {"action_type": "open_app", "app_name": "A" * (1 << 20)}),
        ("app-int", {"action_type": "open_app", "app_name": 3}),
        ("app-surrogate", {"action_type": "open_app", "app_name": "\udfff"}),
        ("app-bad-repr", {"action_type": "open_app", "app_name": BadRepr()}),
        # choices
        ("scroll-no-direction", {"action_type": "scroll"}),
        ("swipe-no-direction", {"action_type": "swipe"}),
        ("direction-unknown", {"action_type": "scroll", "direction": "sideways"}),
        ("direction-upper", {"action_type": "swipe", "direction": "UP"}),
        ("direction-int", {"action_type": "scroll", "direction": 1}),
        ("direction-list", {"action_type": "scroll", "direction": ["up"]}),
        ("status-no-goal", {"action_type": "status"}),
        ("status-done", {"action_type": "status", "goal_status": "done"}),
        ("status-int", {"action_type": "status", "goal_status": 0}),
        ("clear-str", {"action_type": "input_text", "text": "a", "clear_text": "false"}),
        ("clear-int", {"action_type": "input_text", "text": "a", "clear_text": 0}),
        ("clear-none-str", {"action_type": "input_text", "text": "a", "clear_text": "None"}),
        # keys
        ("unknown-field", {"action_type": "wait", "colour": "red"}),
        ("non-str-key", {"action_type": "wait", 1: 2}),
        ("none-key", {**click, None: 1}),
        ("keycode-bad", {"action_type": "wait", "keycode": "BACK"}),
        ("keycode-int", {"action_type": "wait", "keycode": 4}),
        ("capital-field", {"action_type": "click", "Index": 1}),
        # JSON text
        ("json-malformed", "{not json"), ("json-empty", ""), ("json-space", "   "),
        ("json-truncated", '{"action_type": "click", "index": '),
        ("json-null", "null"), ("json-list", "[1, 2]"), ("json-string", '"click"'),
        ("json-number", "42"), ("json-true", "true"),
        ("json-deep-list", "[" * 100_000 + "]" * 100_000),
        ("json-deep-object", '{"a":' * 50_000 + "1" + "}" * 50_000),
        ("json-long-int", '{"action_type": "click", "index": 1' + "0" * 5000 + "}"),
        ("json-1e999", '{"action_type": "click", "x": 1e999, "y": 1}'),
        ("json-nan", '{"action_type": "click", "x": NaN, "y": 1}'),
        ("json-type-null", '{"action_type": null}'),
        ("json-surrogate", '{"action_type": "input_text", "text": "\\ud800"}'),
        ("json-single-quotes", "{'action_type': 'wait'}"),
        ("json-trailing-garbage", '{"action_type": "wait"} x'),
        ("json-two-objects", '{"action_type": "wait"}{"action_type": "wait"}'),
        ("json-markdown-fence", '```json\n{"action_type": "wait"}\n```'),
        ("json-nul", '{"action_type": "wait"}\x00'),
        ("json-bom", '\ufeff{"action_type": "wait"}'),
        # the numeric form
        ("num-missing-key", drop(num(), "direction")),
        ("num-only-type", {"action_type": np.int64(0)}),
        ("num-unknown-key", {**num(), "colour": 1}),
        ("num-index-negative", num(index=-1)),
        ("num-index-512", num(index=MAX_ELEMENTS)),
        ("num-target-3", num(target=3)),
        ("num-x-1080", num(target=2, x=np.array(SCREEN_WIDTH))),
        ("num-x-float", num(target=2, x=5.5)),
        ("num-text-none", num(action_type=ACTION_TYPES.index("input_text"), text=None)),
        ("num-text-1025", num(action_type=ACTION_TYPES.index("answer"), text="x" * 1025)),
        ("num-direction-4", num(action_type=ACTION_TYPES.index("scroll"), direction=4)),
        ("num-clear-2", num(action_type=ACTION_TYPES.index("input_text"), clear_text=2)),
        ("num-app-surrogate", num(action_type=ACTION_TYPES.index("open_app"),
                                  app_name="\ud800")),
        # not an action at all
        ("not-int", 42), ("not-none", None), ("not-bytes", b'{"action_type": "wait"}'),
        ("not-list", ["click"]), ("not-tuple", ("click", 1)), ("not-float", math.nan),
        ("not-set", {"wait"}), ("not-object", object()), ("not-class", Action),
        ("not-array", np.array([0, 1])),
    ]
    return cases


@dataclasses.dataclass
class StepOutcome:
    """What one step of a (possibly malformed) action came to."""

    kind: str  # "accepted", "invalid_action", "action_error", "ValueError", "crash"
    changed: bool | None = None  # whether a refused action changed the phone (when checked)
    error: str = ""


def collect_valid_actions(env: Any, tasks: list[str], seed: int) -> list[Action]:
    """Every action of the oracle's episodes of ``tasks``."""
    out: list[Action] = []
    for task in tasks:
        env.reset(seed=seed, options={"task": task})
        for action in env.unwrapped.oracle():
            out.append(action)
            *_, term, trunc, _ = env.step(action)
            if term or trunc:
                break
    return out


class Stepper:
    """Steps actions through an env, resetting to a random task when an episode ends, and
    classifies each step."""

    def __init__(self, env: Any, tasks: list[str], rng: random.Random,
                 check_every: int) -> None:
        self.env, self.tasks, self.rng = env, tasks, rng
        self.check_every = max(1, check_every)
        #: steps taken, steps refused (ValueError, invalid_action, action_error), and refused
        #: steps around which the world hash was compared
        self.stepped = self.refused = self.checked = 0
        self.reset()

    def reset(self) -> None:
        self.env.reset(seed=self.rng.randrange(1000), options={"task": self.rng.choice(self.tasks)})

    def fingerprint(self, deep: bool) -> tuple[Any, ...]:
        u = self.env.unwrapped
        return (u.steps, u.device.a11y_xml(), u.device.world.state_hash() if deep else None)

    def step(self, action: Any) -> StepOutcome:
        self.stepped += 1
        deep = self.stepped % self.check_every == 0
        before = self.fingerprint(deep)
        try:
            _, _, term, trunc, info = self.env.step(action)
        except ValueError as e:  # refused at the boundary: nothing may have changed
            self.refused += 1
            self.checked += deep
            return StepOutcome("ValueError", self.fingerprint(deep) != before, str(e)[:200])
        except Exception as e:  # a crash: reported with the action
            self.reset()
            return StepOutcome("crash", None, f"{type(e).__name__}: {str(e)[:200]} <- "
                               f"{short(action)}\n{traceback.format_exc(limit=-3)}")
        if term or trunc:
            self.reset()
            return StepOutcome("accepted" if not info["invalid_action"] else "invalid_action")
        if info["invalid_action"] or info["action_error"]:
            # a refused or meaningless action: the step is spent, nothing else may change
            self.refused += 1
            self.checked += deep
            changed = before[1:] != self.fingerprint(deep)[1:]
            kind = "invalid_action" if info["invalid_action"] else "action_error"
            return StepOutcome(kind, changed)
        return StepOutcome("accepted")


def actions_figures(n: int = 3000, tasks: int = 60, seed: int = 0, check_every: int = 10,
                    smuggle: int = 300, echo: bool = True) -> Figures:
    """Mutated and hand-written malformed actions through ``env.step`` (see the module
    docstring)."""
    import gymnasium

    f = Figures("actions", echo)
    t0 = time.monotonic()
    rng = random.Random(seed)
    strict: Any = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    lenient: Any = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y", invalid="noop")
    ids = list(strict.unwrapped.task_ids)
    pool = ids[:: max(1, len(ids) // max(1, tasks))][:tasks]
    valid = collect_valid_actions(strict, pool, seed)
    f.add("oracle tasks sampled", len(pool))
    f.add("valid oracle actions mutated from", len(valid))
    bases = [a.to_json() for a in valid]
    steppers = [Stepper(strict, pool, rng, check_every), Stepper(lenient, pool, rng, check_every)]
    counts = dict.fromkeys(("accepted", "invalid_action", "action_error", "ValueError",
                            "constructor ValueError", "crash"), 0)
    by_form: dict[str, int] = {}
    changed = 0
    crashes: list[str] = []
    space = strict.action_space
    space.seed(seed)
    for i in range(n):
        form = ("dict", "json", "object", "numeric")[i % 4]
        by_form[form] = by_form.get(form, 0) + 1
        stepper = steppers[(i // 4) % 2]
        try:
            if form == "numeric":
                action: Any = numeric_mutation(rng, space)
            else:
                d, _ = mutate(rng, rng.choice(bases))
                action = d if form == "dict" else json_text(rng, d) if form == "json" \
                    else action_object(d)
        except ValueError:  # the Action constructor refused it: the boundary did its job
            counts["constructor ValueError"] += 1
            continue
        except Exception as e:
            counts["crash"] += 1
            crashes.append(f"building an Action: {type(e).__name__}: {e}")
            continue
        out = stepper.step(action)
        counts[out.kind] += 1
        changed += bool(out.changed)
        if out.kind == "crash":
            crashes.append(out.error)
    f.add("mutated actions tried", n)
    f.add("mutated actions by form", ", ".join(f"{k} {v}" for k, v in by_form.items()))
    f.add("accepted (in the space, did something)", counts["accepted"])
    f.add("refused in info (invalid_action, invalid='noop')", counts["invalid_action"])
    f.add("refused in info (action_error, in the space but did nothing)",
          counts["action_error"])
    f.add("raised ValueError at env.step", counts["ValueError"])
    f.add("raised ValueError at the Action constructor", counts["constructor ValueError"])
    f.add("crashes", counts["crash"])
    for text in crashes[:5]:
        f.note(text)
    checked = sum(s.checked for s in steppers)
    f.add("refused steps checked for changes (screen and step count)",
          sum(s.refused for s in steppers))
    f.add("refused steps whose world hash was also compared", checked)
    f.add("refused steps that changed the phone", changed)

    # hand-written malformed actions, through both envs
    cases = malformed_actions()
    kinds = len({name for name, _ in cases})
    refused_strict = refused_lenient = accepted = hand_crash = hand_changed = 0
    hand_crashes: list[str] = []
    for name, action in cases:
        for k, stepper in enumerate(steppers):
            out = stepper.step(action)
            hand_changed += bool(out.changed)
            if out.kind == "crash":
                hand_crash += 1
                hand_crashes.append(f"{name}: {out.error}")
            elif k == 0 and out.kind == "ValueError":
                refused_strict += 1
            elif k == 1 and out.kind == "invalid_action":
                refused_lenient += 1
            else:
                accepted += 1
                mode = "raise" if k == 0 else "noop"
                hand_crashes.append(f"{name} was not refused (invalid={mode!r}): {out.kind}")
    f.add("hand-written malformed kinds", kinds)
    f.add("hand-written refused with ValueError (invalid='raise')", refused_strict)
    f.add("hand-written refused in info['invalid_action'] (invalid='noop')", refused_lenient)
    f.add("hand-written not refused", accepted)
    f.add("hand-written crashes", hand_crash)
    f.add("hand-written refusals that changed the phone", hand_changed)
    for text in hand_crashes[:5]:
        f.note(text)

    # Action objects changed after construction (frozen fields overwritten)
    smug = dict.fromkeys(("accepted", "invalid_action", "action_error", "ValueError", "crash"),
                         0)
    smug_crashes: list[str] = []
    for i in range(smuggle):
        stepper = steppers[i % 2]
        action = smuggled(rng, Action.from_json(rng.choice(bases)))
        out = stepper.step(action)
        smug[out.kind] += 1
        if out.kind == "crash":
            smug_crashes.append(out.error.split("\n")[0])
    f.add("smuggled Action objects tried", smuggle)
    f.add("smuggled refused (ValueError or invalid_action)", smug["ValueError"] +
          smug["invalid_action"])
    # a change that leaves the action in the space (index 0 -> 2) is a valid action
    f.add("smuggled still valid (carried out or action_error)", smug["accepted"] +
          smug["action_error"])
    f.add("smuggled crashes", smug["crash"])
    for text in sorted(set(smug_crashes), key=smug_crashes.index)[:5]:
        f.note(text)

    # both envs still play a task to success
    ok = 0
    for env in (strict, lenient):
        env.reset(seed=1, options={"task": pool[0]})
        reward: Any = 0.0
        for a in env.unwrapped.oracle():
            _, reward, term, trunc, _ = env.step(a)
            if term or trunc:
                break
        else:
            _, reward, *_ = env.step(Action("status", goal_status="complete"))
        ok += reward == 1.0
    f.add("envs still solving a task afterwards", f"{ok} of 2")
    strict.close()
    lenient.close()
    f.add("seconds", round(time.monotonic() - t0, 1))
    return f


# =====================================================================================
# adb: the wire
# =====================================================================================
def packet(command: int, arg0: int, arg1: int, data: bytes = b"") -> bytes:
    return Packet(command, arg0, arg1, data).encode()


def raw_header(command: int, arg0: int, arg1: int, length: int, check: int,
               magic: int) -> bytes:
    return HEADER.pack(command & 0xFFFFFFFF, arg0 & 0xFFFFFFFF, arg1 & 0xFFFFFFFF,
                       length & 0xFFFFFFFF, check & 0xFFFFFFFF, magic & 0xFFFFFFFF)


CNXN = packet(A_CNXN, A_VERSION, 4096, b"host::\0")


class WireClient:
    """A minimal adb host on one TCP connection: CNXN, then ``shell:`` streams one at a
    time (the project's own packet code; no adb server in between)."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = PacketReader()
        self.pending: list[Packet] = []
        self.local = 0
        self.sock.sendall(packet(A_CNXN, A_VERSION, 1 << 18, b"host::features=cmd\0"))
        first = self.read()
        if first.command != A_CNXN or not first.data.startswith(b"device::"):
            raise ConnectionError(f"no CNXN from the phone: {first!r}")

    def read(self) -> Packet:
        while not self.pending:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the phone closed the connection")
            self.pending += self.reader.feed(data)
        return self.pending.pop(0)

    def shell(self, command: str) -> bytes:
        self.local += 1
        me = self.local
        self.sock.sendall(packet(A_OPEN, me, 0, f"shell:{command}\0".encode()))
        out = b""
        while True:
            p = self.read()
            if p.arg1 != me:
                continue
            if p.command == A_WRTE:
                out += p.data
                self.sock.sendall(packet(A_OKAY, me, p.arg0))
            elif p.command == A_CLSE:
                if p.arg0:
                    self.sock.sendall(packet(A_CLSE, me, p.arg0))
                return out

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def fuzz_connection(rng: random.Random, budget: int) -> tuple[str, list[bytes]]:
    """One connection's worth of malformed or hostile packets (about ``budget`` of them)."""
    kind = rng.choice(("random-bytes", "bad-magic", "bad-checksum", "truncated-header",
                       "truncated-payload", "oversize", "oversize-cnxn", "unknown-command",
                       "random-valid-magic", "sync-garbage", "wrte-flood", "open-flood",
                       "bad-services", "before-cnxn", "auth-stls", "odd-cnxn"))
    n = max(1, budget)
    out: list[bytes] = []
    if kind == "random-bytes":
        out = [rng.randbytes(rng.randrange(1, 300)) for _ in range(n)]
    elif kind == "bad-magic":
        out = [CNXN] + [raw_header(rng.choice((A_OPEN, A_WRTE, A_CNXN)), 1, 1, 0, 0,
                                   rng.getrandbits(32)) for _ in range(n - 1)]
    elif kind == "bad-checksum":  # adb >= 1.0.1 ignores data_check: these are served
        body = b"shell:echo fuzz\0"
        out = [CNXN] + [raw_header(A_OPEN, 100 + k, 0, len(body), rng.getrandbits(32),
                                   A_OPEN ^ 0xFFFFFFFF) + body for k in range(n - 1)]
    elif kind == "truncated-header":
        out = [CNXN, packet(A_OPEN, 1, 0, b"shell:\0")[: rng.randrange(1, 24)]]
    elif kind == "truncated-payload":
        p = packet(A_OPEN, 1, 0, b"shell:echo " + b"x" * 200 + b"\0")
        out = [CNXN, p[: rng.randrange(24, len(p))]]
    elif kind == "oversize":
        out = [CNXN] + [raw_header(A_WRTE, 1, 1, MAX_PAYLOAD + 1 + rng.randrange(1 << 30), 0,
                                   A_WRTE ^ 0xFFFFFFFF) for _ in range(n - 1)]
    elif kind == "oversize-cnxn":
        out = [raw_header(A_CNXN, A_VERSION, 4096, MAX_CNXN_PAYLOAD + 1, 0,
                          A_CNXN ^ 0xFFFFFFFF) + b"h" * (MAX_CNXN_PAYLOAD + 1)]
    elif kind == "unknown-command":
        out = [CNXN]
        for _ in range(n - 1):
            c = rng.getrandbits(32)
            out.append(raw_header(c, 0, 0, 0, 0, c ^ 0xFFFFFFFF))
    elif kind == "random-valid-magic":
        out = [CNXN]
        for _ in range(n - 1):
            c = rng.choice((A_OPEN, A_OKAY, A_WRTE, A_CLSE, A_AUTH, A_STLS, A_CNXN))
            data = rng.randbytes(rng.randrange(0, 64))
            if c == A_OPEN and rng.random() < 0.5:
                data = rng.choice((b"shell:\0", b"sync:\0", b"exec:ls\0", b"root:\0"))
            out.append(packet(c, rng.getrandbits(32), rng.getrandbits(32), data))
    elif kind == "sync-garbage":
        me = rng.randrange(1, 1000)
        out = [CNXN, packet(A_OPEN, me, 0, b"sync:\0")]
        frames = [b"STAT" + (5000).to_bytes(4, "little"), b"SEND" + (2000).to_bytes(4, "little")
                  + b"/sdcard/x", b"RECV\xff\xff\xff\xff", b"DATA\x00\x00\x10\x00",
                  b"LIST\x03\x00\x00\x00/..", b"XXXX\x00\x00\x00\x00", b"SEND\x0a\x00\x00\x00"
                  b"/sdcard/a,DATA\xff\xff\xff\x7f", b"QUIT\x00\x00\x00\x00"]
        for _ in range(n - 2):
            data = rng.choice(frames) if rng.random() < 0.7 else rng.randbytes(rng.randrange(1, 90))
            out.append(packet(A_WRTE, me, 1, data))
    elif kind == "wrte-flood":
        out = [CNXN, packet(A_OPEN, 5, 0, b"shell:\0")] + \
            [packet(A_WRTE, 5, 1, b"x" * 10) for _ in range(max(0, n - 2))]
    elif kind == "open-flood":
        out = [CNXN] + [packet(A_OPEN, 1 + k, 0, b"shell:\0") for k in range(n - 1)]
    elif kind == "bad-services":
        names = [b"shell,v2,raw:echo x\0", b"reboot:\0", b"tcp:5037\0", b"jdwp:1\0",
                 b"remount:\0", b"local:/dev/socket/x\0", b"dev:/dev/block/sda\0",
                 b"framebuffer:\0", b"sync:extra\0", b"exec:\0", b"shell" + b"\xff" * 40 + b"\0",
                 b"\0", b":\0", b"shell:" + b"A" * 60_000 + b"\0", b"usb:\0", b"tcpip:5555\0"]
        out = [CNXN] + [packet(A_OPEN, 10 + k, 0, rng.choice(names)) for k in range(n - 1)]
    elif kind == "before-cnxn":
        out = [packet(rng.choice((A_OPEN, A_WRTE, A_OKAY, A_CLSE)), 1, 1,
                      b"shell:echo early\0") for _ in range(n)]
    elif kind == "auth-stls":
        out = [CNXN] + [packet(rng.choice((A_AUTH, A_STLS)), rng.randrange(4),
                               rng.getrandbits(32), rng.randbytes(rng.randrange(0, 256)))
                        for _ in range(n - 1)]
    else:  # odd-cnxn: maxdata 0, 1, 2**32-1; versions of nothing; repeated
        out = [packet(A_CNXN, rng.getrandbits(32), rng.choice((0, 1, 0xFFFFFFFF)),
                      rng.randbytes(rng.randrange(0, 100))) for _ in range(n)]
    if len(out) < n:  # kinds that end early (a truncated header) come after ignored packets
        out = [packet(A_OKAY, rng.getrandbits(32), rng.getrandbits(32))
               for _ in range(n - len(out))] + out
    return kind, out[:n]


#: connection kinds whose header is malformed (bad magic, unknown command, a length over the
#: limit, random bytes): the phone closes the connection when it reads one
MUST_CLOSE = frozenset({"random-bytes", "bad-magic", "oversize", "oversize-cnxn",
                        "unknown-command"})


def hung_up(s: socket.socket, timeout: float = 10.0) -> bool:
    """Whether the peer closes ``s`` within ``timeout`` (what it sends first is read and
    dropped)."""
    s.settimeout(timeout)
    try:
        while s.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:  # reset: closed as well
        return True
    return True


def rss_mib(pid: int | None = None) -> float:
    import psutil

    return round(psutil.Process(pid).memory_info().rss / 2**20, 1)


def adb_figures(packets: int = 3000, connections: int = 300, seed: int = 0,
                echo: bool = True) -> Figures:
    """Fuzzed connections against the virtual phone while a good client works."""
    import psutil

    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    f = Figures("adb", echo)
    t0 = time.monotonic()
    rng = random.Random(seed)
    me = psutil.Process()
    with VirtualPhone(port=free_port(), seed=0) as phone:
        WireClient(phone.port).shell("echo warm")  # first command: lazy imports, caches
        gc.collect()
        rss_before, fds_before, threads_before = rss_mib(), me.num_fds(), me.num_threads()
        stats_before = dict(phone.stats)
        stop = threading.Event()
        good = {"ok": 0, "failed": 0}
        failures: list[str] = []

        def steady() -> None:
            client: WireClient | None = None
            while not stop.is_set():
                try:
                    if client is None:
                        client = WireClient(phone.port)
                    out = client.shell("echo ok")
                    if out == b"ok\n":
                        good["ok"] += 1
                    else:
                        good["failed"] += 1
                        failures.append(f"echo ok -> {out[:80]!r}")
                except OSError as e:
                    good["failed"] += 1
                    failures.append(f"{type(e).__name__}: {e}")
                    if client is not None:
                        client.close()
                    client = None
                    time.sleep(0.05)
            if client is not None:
                client.close()

        worker = threading.Thread(target=steady, name="good-client", daemon=True)
        worker.start()
        sent = attempted = must_close = closed_by_phone = 0
        after_hangup = {"must": 0, "other": 0}  # packets a hung-up phone no longer took
        kinds: dict[str, int] = {}
        for k in range(connections):
            # what a connection's kind leaves unsent (a truncated header ends it) goes to the
            # next ones, so that about ``packets`` are sent in all
            budget = max(1, (packets - attempted) // (connections - k))
            kind, chunks = fuzz_connection(rng, budget)
            kinds[kind] = kinds.get(kind, 0) + 1
            attempted += len(chunks)
            try:
                s = socket.create_connection(("127.0.0.1", phone.port), timeout=10)
            except OSError as e:
                failures.append(f"fuzzer could not connect: {e}")
                continue
            with s:
                for i, c in enumerate(chunks):
                    try:
                        s.sendall(c)
                    except OSError:  # the phone hung up already (a malformed header before)
                        after_hangup["must" if kind in MUST_CLOSE else "other"] += \
                            len(chunks) - i
                        break
                    sent += 1
                if kind in MUST_CLOSE:  # the phone must hang up on these: wait for it
                    must_close += 1
                    closed_by_phone += hung_up(s)
                elif rng.random() < 0.3:  # an abrupt close (RST) instead of a FIN
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 (1).to_bytes(4, "little") + (0).to_bytes(4, "little"))
        while good["ok"] < 20 and not good["failed"] and worker.is_alive():
            time.sleep(0.05)  # at least a few commands, even with a tiny fuzz
        stop.set()
        worker.join(timeout=60)
        after_ok = False
        try:
            fresh = WireClient(phone.port)
            after_ok = fresh.shell("echo after") == b"after\n"
            fresh.close()
        except OSError as e:
            failures.append(f"fresh client after the fuzz: {e}")
        time.sleep(0.5)  # let the server finish closing the fuzzer's connections
        gc.collect()
        stats = {k: phone.stats[k] - stats_before.get(k, 0) for k in phone.stats}
        f.add("fuzz connections", connections)
        f.add("malformed packets built", attempted)
        f.add("malformed packets sent", sent)
        f.add("packets unsent, the phone had hung up on a malformed header",
              after_hangup["must"])
        f.add("packets unsent on another connection kind", after_hangup["other"])
        f.add("connection kinds", len(kinds))
        f.add("connections with a malformed header (the phone must hang up)", must_close)
        f.add("of those, hung up by the phone", closed_by_phone)
        f.add("connections the phone counted as closed for a malformed packet",
              stats["protocol_errors"])
        f.add("good-client echo ok commands OK", good["ok"])
        f.add("good-client commands failed", good["failed"])
        for text in failures[:5]:
            f.note(text)
        f.add("a new client after the fuzz runs echo", after_ok)
        f.add("server still running", phone.running)
        f.add("server RSS before (MiB, in-process)", rss_before)
        f.add("server RSS after (MiB, in-process)", rss_mib())
        f.add("open file descriptors before", fds_before)
        f.add("open file descriptors after", me.num_fds())
        f.add("threads before", threads_before)
        f.add("threads after", me.num_threads())
    f.add("seconds", round(time.monotonic() - t0, 1))
    return f


# =====================================================================================
# a private adb server (Debian's adb), shared by injection and kills
# =====================================================================================
@dataclasses.dataclass
class AdbServer:
    port: int
    env: dict[str, str]
    home: Path

    def __call__(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["adb", "-P", str(self.port), *args], capture_output=True,
                              stdin=subprocess.DEVNULL, env=self.env, timeout=timeout,
                              check=False)


@contextlib.contextmanager
def adb_server() -> Iterator[AdbServer]:
    """An adb server on a free port with its own key folder, killed at the end."""
    from phoneworld_gym.virtual.adb_server import free_port

    if shutil.which("adb") is None:
        raise RuntimeError("these figures need the adb client (apt-get install adb)")
    port = free_port()
    home = Path(tempfile.mkdtemp(prefix="reliability-adb-"))
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(port), "HOME": str(home),
           "ANDROID_USER_HOME": str(home / ".android"), "ANDROID_SDK_HOME": str(home)}
    server = AdbServer(port, env, home)
    server("start-server")
    try:
        yield server
    finally:
        server("kill-server")
        shutil.rmtree(home, ignore_errors=True)


# =====================================================================================
# injection
# =====================================================================================
#: seconds a raw ``adb shell`` may take before it counts as waiting for input
HANG_S = 20.0


def injection_strings(canary: Path, marker: str) -> list[str]:
    """Shell-injection and path-escape strings aimed at the host (and the canary folder)."""
    c = str(canary)
    secret = f"{c}/secret.txt"
    touch = f"{c}/{marker}"
    rel = "../" * 12 + c.lstrip("/")
    out = [
        # command separators and substitutions
        "; rm -rf /", f"; rm -rf {c}", f"&& rm -rf {c}", f"|| rm -rf {c}", f"| rm -rf {c}",
        f"& rm -rf {c}", f"$(rm -rf {c})", f"`rm -rf {c}`", f"$(touch {touch})",
        f"`touch {touch}`", f"; touch {touch}", f"\ntouch {touch}", f"\rtouch {touch}",
        f"x\x00; touch {touch}", f"> {touch}", f">> {touch}", f"2> {touch}",
        f"echo pwned > {touch}", f"< {secret}", f"$(cat {secret})", f"`cat {secret}`",
        f"; cat {secret}", f"$(< {secret})", f"${{IFS}}cat${{IFS}}{secret}",
        f"$(printf 'touch {touch}' | sh)", f"eval 'touch {touch}'", f"exec touch {touch}",
        f"sh -c 'touch {touch}'", f"/bin/sh -c 'touch {touch}'", f"busybox touch {touch}",
        f"toybox touch {touch}", f"python3 -c 'open(\"{touch}\",\"w\")'",
        f"{{touch,{touch}}}", f"a;touch${{IFS}}{touch}", f"$'\\x3b'touch {touch}",
        f"ln -s {c} /sdcard/c; echo x > /sdcard/c/{marker}",
        f"ln -s {secret} /sdcard/s; cat /sdcard/s", f"cp {secret} /sdcard/stolen",
        f"mv {secret} /sdcard/moved", f"chmod 000 {c}", f"touch -d 2000-01-01 {secret}",
        f"dd if=/dev/zero of={secret}", f"tee {touch}", f"truncate -s 0 {secret}",
        "$(id)", "`id`", "$((1+1))", "${HOME}", "$PATH", "\\`id\\`", "$(reboot)", "`reboot`",
        "'; reboot; '", '"; reboot; "', "a'b\"c", "\\", "\\\\", "'", '"', "`", "$", "$(", "${",
        ")", "((", "&", "&&", "||", ";", ";;", "|", "!", "#", "~", "*", "?", "[", "{a,b}",
        "\n", "\r", "\t", "\x00", "a\x00b", "\x1b[2J\x1b[H", "\u202e", "😀 ☃ ñ", "%s%n%x",
        "-rf", "--help", "-n", "-e \\x41",
        # host files read through the phone
        "cat /etc/passwd", "cat /etc/shadow", "cat /proc/self/environ", "cat /proc/self/cmdline",
        "cat /proc/1/root/etc/passwd", "ls /home", f"ls {c}", "cat ~/.android/adbkey",
        "cat $HOME/.ssh/id_rsa", "env", "set",
        # path escapes
        "../../etc/passwd", "../" * 20 + "etc/passwd", "/sdcard/../../etc/passwd",
        f"/sdcard/{rel}/secret.txt", f"/sdcard/{rel}/{marker}", "....//....//etc/passwd",
        "..\\..\\etc\\passwd", "%2e%2e%2fetc%2fpasswd", "/sdcard/%00../../etc/passwd",
        "/sdcard/\x00/../../etc/passwd", "/proc/self/root/etc/passwd", "/proc/1/root",
        "/dev/../etc/passwd", "//etc/passwd", "/./././etc/passwd", "~/.ssh/id_rsa",
        "~root/.bashrc", "$HOME/.android/adbkey", secret, c, touch, f"{c}/../{marker}",
        f"/data/local/tmp/{rel}/{marker}", f"/storage/emulated/0/{rel}/{marker}",
        f"/mnt/sdcard/{rel}/{marker}", f"/storage/self/primary/{rel}/secret.txt",
        "/sdcard/" + "a" * 255, "/sdcard/" + "a" * 256, "/sdcard/" + "b/" * 600 + "f",
        "/sdcard/" + "x" * 5000, "/" * 2000, "/sdcard/.", "/sdcard/..", "/sdcard/...",
        "/sdcard/ ", "/sdcard/\n", "/sdcard/😀", "/sdcard/\u202egnp.exe", "/sdcard/*",
        "/sdcard/?", "/sdcard/-rf", "/sdcard/$(id)", "/sdcard/`id`", "/sdcard/;reboot",
        f"/sdcard/Download/{marker}", "/dev/null", "/dev/zero", "/dev/urandom", "/proc/kmsg",
        "/system/bin/sh", "/data/data", "/", "", ".", "..",
    ]
    return list(dict.fromkeys(out))


def tree_state(root: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every entry under ``root`` (itself included): mode, size, mtime and a digest."""
    state = {}
    for path in [root, *sorted(root.rglob("*"))]:
        st = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() and \
            not path.is_symlink() else ""
        state[str(path)] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
    return state


def marker_files(marker: str, roots: list[Path]) -> list[str]:
    """Host files whose name holds ``marker`` (one level under each root; the canary and the
    work folder are searched whole)."""
    found = []
    for root in roots:
        if not root.is_dir():
            continue
        try:
            entries = list(root.rglob(f"*{marker}*")) if "reliability" in root.name else \
                [p for p in root.iterdir() if marker in p.name]
        except OSError:
            continue
        found += [str(p) for p in entries]
    return found


def injection_figures(limit: int = 0, seed: int = 0, echo: bool = True) -> Figures:
    """Hostile strings through adb shell, push and pull; the host's canary must be untouched
    (see the module docstring). ``limit`` > 0 tries only the first ``limit`` strings."""
    import adbutils

    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    f = Figures("injection", echo)
    t0 = time.monotonic()
    marker = f"pwinj{random.Random(seed).getrandbits(40):x}"
    work = Path(tempfile.mkdtemp(prefix="reliability-injection-"))
    canary = work / "canary"
    (canary / "sub").mkdir(parents=True)
    token = f"CANARY-{marker}-{os.getpid()}"
    (canary / "secret.txt").write_text(token + "\n")
    (canary / "sub" / "keep.bin").write_bytes(os.urandom(256))
    os.utime(canary / "secret.txt", (1_600_000_000, 1_600_000_000))
    strings = injection_strings(canary, marker)
    if limit:
        strings = strings[:limit]
    host_passwd = Path("/etc/passwd").read_bytes() if Path("/etc/passwd").exists() else b""
    local = work / "payload.txt"
    local.write_bytes(b"payload\n")
    # a symlink into the canary (to a file without the token: adb pushes what a link points
    # to, and the host's own files pushed on purpose are no leak)
    (canary / "linked.txt").write_bytes(b"linked\n")
    link = work / "link-into-canary"
    link.symlink_to(canary / "linked.txt")
    pulls = work / "pulls"
    pulls.mkdir()
    before = tree_state(canary)
    counts: dict[str, dict[str, int]] = {}
    leaks: list[str] = []
    odd: list[str] = []
    hung: list[str] = []
    stored: list[str] = []

    def tally(channel: str, outcome: str) -> None:
        counts.setdefault(channel, {})
        counts[channel][outcome] = counts[channel].get(outcome, 0) + 1

    def leaked(data: bytes, what: str) -> None:
        if token.encode() in data or (host_passwd and host_passwd.strip() and
                                      host_passwd.strip() in data) or b"root:x:0:0" in data:
            leaks.append(what)

    with VirtualPhone(port=free_port(), seed=0) as phone, adb_server() as adb:
        out = adb("connect", phone.serial).stdout.decode()
        if "connected" not in out:
            raise RuntimeError(f"adb connect {phone.serial}: {out}")
        dev = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(phone.serial)

        def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
            return adb("-s", phone.serial, *args, timeout=timeout)

        # 1. as one quoted argument: must arrive as data, verbatim
        for s in strings:
            if "\0" in s:  # no argv carries a NUL: adbutils sends the bytes as they are
                try:
                    got = dev.shell(f"echo x{shlex.quote(s)}", encoding=None)
                    tally("shell, quoted", "refused (NUL)" if b"x" + s.encode() not in got
                          else "arrived verbatim")
                    leaked(got, f"shell quoted {short(s)}")
                except adbutils.AdbError:
                    tally("shell, quoted", "refused (NUL)")
                continue
            proc = run("shell", f"echo x{shlex.quote(s)}")
            got = proc.stdout
            leaked(got, f"shell quoted {short(s)}")
            want = ("x" + s + "\n").encode("utf-8", "surrogateescape")
            if got == want or got.replace(b"\r\n", b"\n") == want:
                tally("shell, quoted", "arrived verbatim")
            elif proc.returncode != 0 or b"too long" in got + proc.stderr or not got:
                tally("shell, quoted", "refused")
                odd.append(f"quoted {short(s, 60)} refused: "
                           f"{short((got + proc.stderr).strip()[:100], 110)}")
            else:
                tally("shell, quoted", "altered")
                odd.append(f"quoted {short(s, 60)} echoed {short(got, 80)}")
        # 2. raw: the phone's shell parses it (it may run phone commands; never the host's)
        for s in strings:
            try:
                got = dev.shell(s, encoding=None, timeout=HANG_S) if "\0" in s else \
                    run("shell", s, timeout=HANG_S).stdout
            except (subprocess.TimeoutExpired, TimeoutError, adbutils.AdbTimeout):
                # a blank command is an interactive prompt (adbd runs ``sh -c`` instead)
                tally("shell, raw", "no answer (an interactive prompt)")
                hung.append(short(s, 40))
                continue
            except (adbutils.AdbError, OSError, ValueError) as e:
                got = str(e).encode()
            leaked(got, f"shell raw {short(s)}")
            words = (b"not found", b"syntax error", b"substitution", b"denied", b"Read-only",
                     b"No such file", b"Invalid", b"not supported", b"usage", b"Usage",
                     b"unexpected", b"too long", b"Illegal", b"can't", b"error", b"unknown")
            tally("shell, raw", "refused or failed on the phone" if any(w in got for w in words)
                  else "ran on the phone")
        with phone.lock:  # what the raw commands did to the phone is the phone's business
            phone.device.reset(0)
            phone.storage.scratch.clear()
            phone.storage.made_dirs.clear()
        # 3. push to the string as the phone path (a symlink pushed too, a few times)
        for k, s in enumerate(strings):
            src = link if k % 10 == 0 else local
            if "\0" in s:
                try:
                    dev.sync.push(src.read_bytes(), s)
                    tally("push", "stored on the phone")
                except (adbutils.AdbError, OSError, ValueError):
                    tally("push", "refused")
                continue
            proc = run("push", str(src), s)
            tally("push", "stored on the phone" if proc.returncode == 0 else "refused")
            if proc.returncode == 0:
                stored.append(short(s, 40))
            leaked(proc.stdout + proc.stderr, f"push {short(s)}")
        # 4. pull the string as the phone path
        for k, s in enumerate(strings):
            dest = pulls / f"{k:04d}"
            if "\0" in s:
                try:
                    data = dev.sync.read_bytes(s)
                    tally("pull", "pulled phone data")
                    leaked(data, f"pull {short(s)}")
                except (adbutils.AdbError, OSError, ValueError):
                    tally("pull", "refused")
                continue
            proc = run("pull", s, str(dest))
            if proc.returncode == 0:
                tally("pull", "pulled phone data")
                for p in [dest, *dest.rglob("*")] if dest.is_dir() else [dest]:
                    if p.is_file():
                        leaked(p.read_bytes(), f"pull {short(s)}")
            else:
                tally("pull", "refused")
            leaked(proc.stdout + proc.stderr, f"pull {short(s)}")
        # where the phone put what it stored
        with phone.lock:
            paths = [str(r["_id"]) for r in phone.device.probe.query("files")]
            paths += list(phone.storage.scratch) + list(phone.storage.made_dirs)
        outside = [p for p in paths if not (p.startswith("/sdcard/") or
                                            p.startswith("/data/local/tmp/"))]
        with contextlib.suppress(Exception):
            run("disconnect", phone.serial)
    after = tree_state(canary)
    touched = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    roots = [work, Path.cwd(), Path.cwd().parent, Path(tempfile.gettempdir()), Path.home(),
             Path("/"), ROOT]
    stray = sorted(set(marker_files(marker, roots)))
    tries = sum(sum(v.values()) for v in counts.values())
    f.add("injection strings", len(strings))
    f.add("tries (strings x shell quoted, shell raw, push, pull)", tries)
    for channel, outcomes in counts.items():
        f.add(f"{channel}", ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    refused = sum(v for c in counts.values() for k, v in c.items() if k.startswith("refused"))
    f.add("refused", refused)
    f.add("harmless (ran or stored on the phone only)", tries - refused)
    for text in odd[:5]:
        f.note(text)
    if stored:
        f.note("pushes stored: " + ", ".join(stored[:8]) + (" ..." if len(stored) > 8 else ""))
    if hung:
        f.note("no answer in {} s to the raw command(s) {}".format(HANG_S, ", ".join(hung)))
    f.add("host data seen through the phone (canary token, /etc/passwd)", len(leaks))
    for text in leaks[:5]:
        f.note(text)
    f.add("host canary entries changed (content, mode, mtime)", len(touched))
    f.add("host files created (the run's marker in their name)", len(stray))
    for text in (touched + stray)[:5]:
        f.note(text)
    f.add("phone files outside /sdcard and /data/local/tmp", len(outside))
    f.add("host untouched", not touched and not stray and not leaks)
    shutil.rmtree(work, ignore_errors=True)
    f.add("seconds", round(time.monotonic() - t0, 1))
    return f


# =====================================================================================
# kills
# =====================================================================================
def start_phone_process(port: int, seed: int = 0, timeout: float = 300.0
                        ) -> subprocess.Popen[bytes]:
    """``phoneworld serve-adb`` in its own process, once it answers ``echo``."""
    proc = subprocess.Popen([sys.executable, "-m", "phoneworld_gym", "serve-adb", "--port",
                             str(port), "--seed", str(seed)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=ROOT)
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"serve-adb exited with {proc.returncode}: "
                               f"{proc.stderr.read().decode()[-500:] if proc.stderr else ''}")
        try:
            client = WireClient(port, timeout=10)
            ok = client.shell("echo up") == b"up\n"
            client.close()
            if ok:
                return proc
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"serve-adb did not answer on port {port} in {timeout} s")
        time.sleep(0.2)


def kills_figures(kills: int = 5, task: str = "ContactsStar", echo: bool = True) -> Figures:
    """Kill the phone's process mid-episode ``kills`` times (see the module docstring)."""
    from phoneworld_gym import PhoneEnv
    from phoneworld_gym.real_device.adb_device import AdbDevice
    from phoneworld_gym.virtual.adb_server import free_port

    f = Figures("kills", echo)
    t0 = time.monotonic()
    port = free_port()
    serial = f"127.0.0.1:{port}"
    truncated_ok = recovered = first_reset = 0
    details: list[str] = []
    step_s: list[float] = []
    with adb_server() as adb:
        phone = start_phone_process(port)
        try:
            for k in range(kills):
                dev = AdbDevice(serial, port=adb.port, reconnect_timeout=3.0, guard=False)
                env = PhoneEnv(tasks=task, device=dev, obs_mode="a11y")
                env.reset(seed=k)
                actions = env.oracle()
                for _ in range(2):
                    env.step(next(actions))
                phone.send_signal(signal.SIGKILL)
                phone.wait(timeout=30)
                t = time.monotonic()
                _, reward, term, trunc, info = env.step(Action("navigate_back"))
                step_s.append(time.monotonic() - t)
                ok = trunc and not term and reward == 0.0 and bool(info["device_error"])
                truncated_ok += ok
                if k == 0:
                    details.append(f"kill 1: device_error {info['device_error'][:150]!r}")
                if not ok:
                    details.append(f"kill {k + 1}: truncated={trunc} terminated={term} "
                                   f"device_error={info['device_error']!r}")
                phone = start_phone_process(port)
                resets = 0
                reward = 0.0
                for attempt in range(3):
                    resets += 1
                    try:
                        env.reset(seed=k)
                    except Exception as e:  # the device says why; one more reset may do
                        details.append(f"kill {k + 1}: reset {attempt + 1} after the restart: "
                                       f"{type(e).__name__}: {str(e)[:160]}")
                        continue
                    for a in env.oracle():
                        _, reward, term, trunc, info = env.step(a)
                        if term or trunc:
                            break
                    else:
                        _, reward, *_ = env.step(Action("status", goal_status="complete"))
                    break
                recovered += reward == 1.0
                first_reset += reward == 1.0 and resets == 1
                env.close()
                dev.close()
        finally:
            phone.kill()
            phone.wait(timeout=30)
    f.add("phone process kills (SIGKILL mid-episode)", kills)
    f.add("steps that ended truncated with info['device_error']", truncated_ok)
    f.add("slowest step to notice the kill (s)", round(max(step_s), 2) if step_s else None)
    f.add("recovered (the task solved after a new phone started)", recovered)
    f.add("recovered at the first reset", first_reset)
    f.add("survived", f"{min(truncated_ok, recovered)} of {kills}")
    for text in details[:6]:
        f.note(text)
    f.add("seconds", round(time.monotonic() - t0, 1))
    return f


# =====================================================================================
# collect
# =====================================================================================
def collect_figures(env_id: str = "PhoneWorld/Contacts-v0",
                    tasks: tuple[str, ...] = ("ContactsStar", "ContactsAdd",
                                              "ContactsCountFavorites"),
                    seeds: int = 10, kill_after: int = 0, echo: bool = True) -> Figures:
    """Kill a collection mid-way, damage a file it left, run it again (see the module
    docstring). ``kill_after`` episodes committed before the kill (0: a third)."""
    from phoneworld_gym.baselines.data import (
        LOCK,
        MANIFEST,
        SHARDS,
        EpisodeKey,
        check_shard,
        load,
    )

    f = Figures("collect", echo)
    t0 = time.monotonic()
    out = Path(tempfile.mkdtemp(prefix="reliability-collect-")) / "data"
    expected_keys = [EpisodeKey("mock", "random", env_id, t, s) for t in tasks
                     for s in range(seeds)]
    expected = len(expected_keys)
    kill_after = kill_after or max(1, expected // 3)
    cmd = [sys.executable, "-m", "phoneworld_gym.baselines.collect", "--env", env_id,
           "--agent", "random", "--tasks", ",".join(tasks), "--seeds", f"0:{seeds}",
           "--out", str(out), "--quiet"]
    f.add("command", " ".join(["python", *cmd[1:-2], "OUT", "--quiet"]))

    def committed() -> int:
        path = out / MANIFEST
        return len(path.read_bytes().splitlines()) if path.exists() else 0

    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    killed = mid_write = False
    shards = out / SHARDS
    while proc.poll() is None:
        done = committed()
        if done >= kill_after:
            # aim for the moment a shard is being written (its .tmp exists); after three
            # more episodes without catching one, kill between two episodes
            mid_write = shards.is_dir() and any(n.endswith(".tmp") for n in os.listdir(shards))
            if mid_write or done >= kill_after + 3:
                proc.send_signal(signal.SIGKILL)
                killed = True
                break
            time.sleep(0.0005)
        else:
            time.sleep(0.01)
    proc.wait(timeout=60)
    f.add("episodes expected", expected)
    f.add("killed mid-way (SIGKILL)", killed)
    f.add("killed while a shard was being written", mid_write)
    f.add("episodes committed before the kill", committed())
    tmp = sorted(shards.glob("*.tmp")) if shards.is_dir() else []
    damaged = ""
    if tmp:  # a half-written shard: cut it shorter still
        tmp[0].write_bytes(tmp[0].read_bytes()[: tmp[0].stat().st_size // 2])
        damaged = f"half-written {tmp[0].name} truncated to half"
    else:
        lines = (out / MANIFEST).read_text().splitlines() if (out / MANIFEST).exists() else []
        if lines:  # no write was under way: tear the last committed shard instead
            last = shards / json.loads(lines[-1])["file"]
            last.write_bytes(last.read_bytes()[: last.stat().st_size // 2])
            damaged = f"last committed shard {last.name} truncated to half"
    f.add("file damaged after the kill", damaged or "none (nothing written yet)")
    f.add("stale lock left by the kill", (out / LOCK).exists())
    rerun = subprocess.run(cmd[:-1], capture_output=True, text=True, cwd=ROOT, timeout=3600)
    f.add("rerun exit status", rerun.returncode)
    recovered = [ln.strip() for ln in rerun.stdout.splitlines() if "recovered:" in ln]
    f.add("recovery messages", len(recovered))
    for text in recovered[:4]:
        f.note(text[:160])
    raw_keys = []
    for line in (out / MANIFEST).read_text().splitlines():
        with contextlib.suppress(ValueError, KeyError, TypeError):
            raw_keys.append(EpisodeKey.from_dict(json.loads(line)["key"]))
    entries = {EpisodeKey.from_dict(json.loads(ln)["key"]): json.loads(ln)
               for ln in (out / MANIFEST).read_text().splitlines() if ln.strip()}
    intact = {k for k, e in entries.items() if not check_shard(out, e)}
    listed_files = {e["file"] for e in entries.values()}
    files = sorted(p.name for p in shards.iterdir())
    ds = load(out)
    ids = [r for r in ds["episode_id"]]
    per_episode = {i: ids.count(i) for i in set(ids)}
    rows_expected = sum(e["rows"] for e in entries.values())
    duplicates = (len(raw_keys) - len(set(raw_keys))) + \
        len([p for p in files if p not in listed_files]) + \
        sum(1 for k, e in entries.items() if per_episode.get(e["episode_id"], 0) != e["rows"])
    lost = len([k for k in expected_keys if k not in intact])
    f.add("episodes after resume", len(intact))
    f.add("rows loaded", len(ids))
    f.add("rows the manifest lists", rows_expected)
    f.add("duplicates", duplicates)
    f.add("lost", lost)
    f.add("unexpected episodes", len(set(entries) - set(expected_keys)))
    f.add("leftover .tmp or lock files", len([p for p in files if p.endswith(".tmp")]) +
          (out / LOCK).exists())
    shutil.rmtree(out.parent, ignore_errors=True)
    f.add("seconds", round(time.monotonic() - t0, 1))
    return f


# =====================================================================================
def summary(results: dict[str, Figures]) -> str:
    """The figures as one markdown table."""
    lines = ["| section | figure | value |", "|---|---|---:|"]
    for section, figures in results.items():
        for name, value in figures.items():
            lines.append(f"| {section} | {name} | {str(value).replace('|', '/')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="sections: " + ", ".join(SECTIONS))
    p.add_argument("sections", nargs="*", help="which sections (all by default)")
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--actions", type=int, default=3000, help="mutated actions")
    p.add_argument("--action-tasks", type=int, default=60,
                   help="tasks whose oracle actions are mutated")
    p.add_argument("--smuggled", type=int, default=300,
                   help="Action objects with fields overwritten after construction")
    p.add_argument("--check-every", type=int, default=10,
                   help="compare the world hash around every Nth refused action")
    p.add_argument("--adb-packets", type=int, default=3000)
    p.add_argument("--adb-connections", type=int, default=300)
    p.add_argument("--injection", type=int, default=0,
                   help="try only the first N injection strings (0: all)")
    p.add_argument("--kills", type=int, default=5)
    p.add_argument("--kill-task", default="ContactsStar")
    p.add_argument("--collect-seeds", type=int, default=10,
                   help="seeds per task of the collection (3 tasks)")
    a = p.parse_args(argv)
    sections = a.sections or list(SECTIONS)
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        p.error(f"unknown sections {unknown}; known: {', '.join(SECTIONS)}")
    runs: dict[str, Callable[[], Figures]] = {
        "actions": lambda: actions_figures(a.actions, a.action_tasks, a.seed, a.check_every,
                                           a.smuggled),
        "adb": lambda: adb_figures(a.adb_packets, a.adb_connections, a.seed),
        "injection": lambda: injection_figures(a.injection, a.seed),
        "kills": lambda: kills_figures(a.kills, a.kill_task),
        "collect": lambda: collect_figures(seeds=a.collect_seeds),
    }
    results: dict[str, Figures] = {}
    for name in SECTIONS:
        if name in sections:
            print(f"## {name}", flush=True)
            results[name] = runs[name]()
            print(flush=True)
    print(summary(results))
    if a.json is not None:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"),
                                      "argv": sys.argv[1:] if argv is None else argv,
                                      "figures": results}, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
