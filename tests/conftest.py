"""Shared helpers: run a task's oracle (or near miss) through an env."""

from __future__ import annotations

import collections
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium
import pytest
from hypothesis import settings

import phoneworld_gym
from phoneworld_gym import Action

# CI must be repeatable: the same examples on every run (locally, examples vary per run)
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

TASK_IDS = [t.id for t in phoneworld_gym.list_tasks()]
ENV_IDS = sorted(e for e in gymnasium.registry if e.startswith("PhoneWorld/"))


def run_script(env: gymnasium.Env, script: Callable[[], Iterator[Action]],
               on_step: Callable[[dict[str, Any]], None] | None = None
               ) -> tuple[float, dict[str, Any]]:
    """Step the actions a generator yields; claim completion if it stops without ending."""
    reward, info = 0.0, {}
    for action in script():
        _, reward, term, trunc, info = env.step(action)
        assert not info["action_error"], f"{action} -> {info['action_error']}"
        if on_step is not None:
            on_step(info)
        if term or trunc:
            return float(reward), info
    _, reward, term, trunc, info = env.step(Action("status", goal_status="complete"))
    return float(reward), info


@pytest.fixture
def make_env() -> Iterator[Callable[..., gymnasium.Env]]:
    envs: list[gymnasium.Env] = []

    def make(env_id: str = "PhoneWorld/All-v0", **kw: Any) -> gymnasium.Env:
        env = gymnasium.make(env_id, **kw)
        envs.append(env)
        return env

    yield make
    for e in envs:
        e.close()


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    """One virtual adb phone for the module, on a free loopback port (modules that mean a
    PhoneWorldDevice by ``phone`` define their own)."""
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    with VirtualPhone(port=free_port(), seed=0) as p:
        yield p


@pytest.fixture()
def fresh(phone: Any) -> Any:
    """The module's virtual phone, reset to seed 0 with empty scratch space."""
    with phone.lock:
        phone.device.reset(0)
        phone.storage.scratch.clear()
        phone.storage.made_dirs.clear()
    return phone


HAVE_ADB = shutil.which("adb") is not None and importlib.util.find_spec("adbutils") is not None


@pytest.fixture(scope="module")
def adb_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A private adb server (the real Debian client) on a free port, killed at the end."""
    if not HAVE_ADB:
        pytest.skip("needs the adb client and adbutils")
    from phoneworld_gym.virtual.adb_server import free_port

    port = free_port()
    home = tmp_path_factory.mktemp("adb-home")
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(port), "HOME": str(home),
           "ANDROID_USER_HOME": str(home / ".android"), "ANDROID_SDK_HOME": str(home)}
    subprocess.run(["adb", "-P", str(port), "start-server"], env=env, capture_output=True,
                   timeout=60, check=True)
    try:
        yield port
    finally:
        subprocess.run(["adb", "-P", str(port), "kill-server"], env=env, capture_output=True,
                       timeout=60, check=False)


def load_example(name: str) -> types.ModuleType:
    """The module of ``examples/<name>.py`` (examples are scripts, not a package)."""
    path = Path(__file__).resolve().parents[1] / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    try:
        spec.loader.exec_module(mod)
    finally:
        del sys.modules[spec.name]
    return mod


# -- campaign counts ------------------------------------------------------------------------
#: what the hypothesis campaigns tried (texts typed, machine steps ...), printed at the end
#: of the run; under xdist each worker sends its counts to the controller
CAMPAIGN_COUNTS: collections.Counter[str] = collections.Counter()


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["campaign_counts"] = json.dumps(dict(CAMPAIGN_COUNTS))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    counts = getattr(node, "workeroutput", {}).get("campaign_counts")
    if counts:
        CAMPAIGN_COUNTS.update(json.loads(counts))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if CAMPAIGN_COUNTS:
        terminalreporter.write_sep("-", "hypothesis campaigns")
        for key, n in sorted(CAMPAIGN_COUNTS.items()):
            terminalreporter.write_line(f"{key}: {n:,}")
