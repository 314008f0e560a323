"""The OpenEnv server (``phoneworld serve-env``, ``phoneworld_gym.envserver``): 32 concurrent
clients reach the in-process rewards, a screenshot arrives pixel-exact, a killed client frees
its session, an idle one times out, and malformed requests get errors while the server keeps
serving."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("openenv.core")
websockets_sync = pytest.importorskip("websockets.sync.client")

import phoneworld_gym  # noqa: E402
from phoneworld_gym.contract import Action  # noqa: E402
from phoneworld_gym.envserver import (  # noqa: E402
    PhoneWorldClient,
    PhoneWorldGymClient,
    ServerError,
    create_app,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_SESSIONS = 40
SMALL = (108, 240)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _active(url: str) -> int:
    return int(_get(f"{url}/sessions")["active"])


def _wait_active(url: str, want: int, timeout: float = 20.0) -> int:
    deadline = time.monotonic() + timeout
    while True:
        n = _active(url)
        if n == want or time.monotonic() > deadline:
            return n
        time.sleep(0.1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``phoneworld serve-env`` in its own process (a11y observations by default)."""
    port = _free_port()
    log_path = tmp_path_factory.mktemp("serve-env") / "log.txt"
    log = open(log_path, "wb")  # a file, not a pipe nobody reads (a full pipe stalls it)
    proc = subprocess.Popen(
        [sys.executable, "-m", "phoneworld_gym", "serve-env", "--port", str(port),
         "--max-sessions", str(MAX_SESSIONS), "--obs-mode", "a11y", "--screenshot-size",
         f"{SMALL[0]}x{SMALL[1]}", "--idle-timeout", "0"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if _get(f"{url}/health")["status"] == "healthy":
                break
        except (OSError, ValueError):
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"serve-env did not start: {log_path.read_text()}")
        time.sleep(0.2)
    yield url
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()
    assert "Traceback" not in log_path.read_text(), log_path.read_text()[-3000:]


def _episodes(n: int) -> list[tuple[str, int, list[Action], float, bool, int, str]]:
    """``n`` (task, seed, actions, reward, success, steps, final a11y) played in-process by
    the oracle; every fourth gives up halfway (status complete), so some rewards are 0."""
    tasks = sorted((t for t in phoneworld_gym.list_tasks() if t.optimal_steps <= 6),
                   key=lambda t: t.id)
    picked = [tasks[i * len(tasks) // n] for i in range(n)]
    env = gym.make("PhoneWorld/All-v0", obs_mode="a11y")
    out = []
    for i, t in enumerate(picked):
        env.reset(seed=i, options={"task": t.id})
        actions: list[Action] = []
        done = False
        for a in env.unwrapped.oracle():  # type: ignore[attr-defined]
            if i % 4 == 3 and len(actions) >= t.optimal_steps // 2:
                break
            actions.append(a)
            obs, reward, term, trunc, info = env.step(a)
            if term or trunc:
                done = True
                break
        if not done:
            a = Action("status", goal_status="complete")
            actions.append(a)
            obs, reward, term, trunc, info = env.step(a)
        out.append((t.id, i, actions, float(reward), bool(info["success"]), info["steps"],
                    obs["a11y"]))
    env.close()
    return out


def test_32_concurrent_clients_reach_the_in_process_rewards(server: str) -> None:
    episodes = _episodes(32)
    rewards = [e[3] for e in episodes]
    assert 0.0 in rewards and 1.0 in rewards, rewards
    results: list[Any] = [None] * len(episodes)
    start = threading.Barrier(len(episodes))

    def play(k: int) -> None:
        task, seed, actions, *_ = episodes[k]
        try:
            with PhoneWorldGymClient(server) as env:
                start.wait(30)
                obs, info = env.reset(seed=seed, options={"task": task})
                assert info["task"] == task and "screenshot" not in obs
                for a in actions:
                    obs, reward, term, trunc, info = env.step(a)
                results[k] = (reward, info["success"], info["steps"], obs["a11y"], term or trunc)
        except BaseException as e:  # noqa: BLE001 (reported below, per client)
            results[k] = e

    threads = [threading.Thread(target=play, args=(k,)) for k in range(len(episodes))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    for (task, seed, _, reward, success, steps, a11y), got in zip(episodes, results):
        assert not isinstance(got, BaseException), f"{task} seed {seed}: {got!r}"
        assert got == (reward, success, steps, a11y, True), f"{task} seed {seed}"
    assert _wait_active(server, 0) == 0


def test_screenshot_decodes_to_the_in_process_pixels(server: str) -> None:
    env = gym.make("PhoneWorld/All-v0", screenshot_size=SMALL)
    want, _ = env.reset(seed=5, options={"task": "ContactsStar"})
    with PhoneWorldGymClient(server) as remote:
        got, info = remote.reset(seed=5, options={"task": "ContactsStar", "obs_mode": "all",
                                                  "screenshot_size": list(SMALL)})
        assert got["screenshot"].dtype == np.uint8
        np.testing.assert_array_equal(got["screenshot"], want["screenshot"])
        assert got["a11y"] == want["a11y"] and got["goal"] == want["goal"]
        a = next(iter(env.unwrapped.oracle()))  # type: ignore[attr-defined]
        # a screen that changes, then ones that may not (the server reuses an unchanged PNG)
        for step in (a.to_json(), {"action_type": "wait"}, {"action_type": "wait"},
                     {"action_type": "navigate_back"}):
            want, *_ = env.step(step)
            got, *_ = remote.step(step)
            np.testing.assert_array_equal(got["screenshot"], want["screenshot"])
        state = remote.state()
        assert (state.task, state.seed, state.step_count) == ("ContactsStar", 5, 4)
    env.close()


CLIENT = """
import sys, time
from phoneworld_gym.envserver import PhoneWorldGymClient
env = PhoneWorldGymClient(sys.argv[1])
env.reset(seed=0, options={"task": "ContactsStar"})
env.step({"action_type": "scroll", "direction": "down"})
print("ready", flush=True)
time.sleep(120)
"""


def test_a_killed_or_vanished_client_frees_its_session(server: str) -> None:
    assert _wait_active(server, 0) == 0
    proc = subprocess.Popen([sys.executable, "-c", CLIENT, server], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready"
        assert _active(server) == 1
        proc.kill()  # mid-episode, no close message
        proc.wait(10)
        assert _wait_active(server, 0) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # a connection dropped without OpenEnv's close message (a client that crashes in-process)
    with websockets_sync.connect(f"{server.replace('http', 'ws')}/ws") as ws:
        ws.send(json.dumps({"type": "reset", "data": {"seed": 1}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "observation"
        assert _active(server) == 1
        ws.socket.shutdown(socket.SHUT_RDWR)  # the TCP connection goes, no close frame
        assert _wait_active(server, 0) == 0


def _ask(ws: Any, message: Any) -> dict[str, Any]:
    ws.send(message if isinstance(message, str) else json.dumps(message))
    return dict(json.loads(ws.recv(timeout=30)))


def test_malformed_requests_get_errors_and_the_server_keeps_serving(server: str) -> None:
    ws_url = f"{server.replace('http', 'ws')}/ws"
    with websockets_sync.connect(ws_url, max_size=None) as ws:
        bad = [("{not json", "INVALID_JSON", "Invalid JSON"),
               ({"type": "dance"}, "UNKNOWN_TYPE", "dance"),
               ({"type": "step", "data": {"action_type": "wait"}}, "EXECUTION_ERROR",
                "reset the session first"),
               ({"type": "reset", "data": {"task": "NoSuchTask"}}, "EXECUTION_ERROR",
                "NoSuchTask"),
               ({"type": "reset", "data": {"env_id": "CartPole-v1"}}, "EXECUTION_ERROR",
                "PhoneWorld id"),
               ({"type": "reset", "data": {"colour": "red"}}, "EXECUTION_ERROR", "colour")]
        for message, code, text in bad:
            r = _ask(ws, message)
            assert r["type"] == "error" and r["data"]["code"] == code, r
            assert text in json.dumps(r["data"]), r
        assert _ask(ws, {"type": "reset", "data": {"seed": 3, "task": "ContactsStar"}}
                    )["type"] == "observation"
        for action, text in [({"action_type": "fly"}, "unknown action_type 'fly'"),
                             ({"action_type": "click"}, "needs a target"),
                             ({"action_type": "click", "index": 1, "x": 5, "y": 5}, "never both"),
                             ({"action_type": "input_text", "index": 0, "text": "x" * 100_000},
                              "longer than"),
                             ({"index": 2}, "action_type")]:
            r = _ask(ws, {"type": "step", "data": action})
            assert r["type"] == "error" and r["data"]["code"] == "VALIDATION_ERROR", r
            assert text in json.dumps(r["data"]), (text, str(r)[:300])
        # valid in the space but meaningless on screen: the env's no-op with action_error
        r = _ask(ws, {"type": "step", "data": {"action_type": "open_app", "app_name": "Nope"}})
        assert r["type"] == "observation", r
        assert r["data"]["observation"]["info"]["action_error"]
        assert r["data"]["observation"]["info"]["steps"] == 1
        # a message over the server's limit closes that connection only
        ws.send(json.dumps({"type": "step", "data": {"action_type": "wait",
                                                      "pad": "x" * (2 << 20)}}))
        with pytest.raises(Exception, match="1009|too big|closed"):
            ws.recv(timeout=30)
    with PhoneWorldGymClient(server) as env:  # still serving
        obs, info = env.reset(seed=0, options={"task": "ContactsStar"})
        with pytest.raises(ServerError, match="reset the session first|episode is over") as e:
            env.step({"action_type": "status", "goal_status": "infeasible"})
            env.step({"action_type": "wait"})
        assert e.value.code == "EXECUTION_ERROR"
    # the stateless HTTP routes: errors with a status, never a 500
    for path, body, status in [("/step", b"{not json", 422), ("/step", b"{}", 422),
                               ("/step", json.dumps({"action": {"action_type": "fly"}}).encode(),
                                422),
                               ("/step", json.dumps({"action": {"action_type": "wait"}}).encode(),
                                400),
                               ("/reset", json.dumps({"task": "NoSuchTask"}).encode(), 400)]:
        req = urllib.request.Request(f"{server}{path}", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as http:
            urllib.request.urlopen(req, timeout=30)
        assert http.value.code == status, (path, body[:40], http.value.read()[:300])
    # a body declared over the limit is refused from its headers, before it is read (sending
    # the 2 MB after the refusal would race the server closing the connection)
    from http.client import HTTPConnection
    from urllib.parse import urlsplit

    where = urlsplit(server)
    conn = HTTPConnection(where.hostname, where.port, timeout=30)
    try:
        conn.putrequest("POST", "/reset")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(2 << 20))
        conn.endheaders()
        reply = conn.getresponse()
        assert reply.status == 413, reply.read()[:300]
        assert b"over the server's limit" in reply.read()
    finally:
        conn.close()
    assert _get(f"{server}/health")["status"] == "healthy"
    assert _wait_active(server, 0) == 0


def test_a_full_pool_refuses_with_capacity_reached(server: str) -> None:
    assert _wait_active(server, 0) == 0
    ws_url = f"{server.replace('http', 'ws')}/ws"
    with contextlib.ExitStack() as held:
        for _ in range(MAX_SESSIONS):
            held.enter_context(websockets_sync.connect(ws_url))
        assert _wait_active(server, MAX_SESSIONS) == MAX_SESSIONS
        with websockets_sync.connect(ws_url) as extra:
            r = json.loads(extra.recv(timeout=30))
        assert r["data"]["code"] == "CAPACITY_REACHED", r
        assert str(MAX_SESSIONS) in r["data"]["message"]
    assert _wait_active(server, 0) == 0


def test_an_idle_session_is_freed_after_the_timeout() -> None:
    from fastapi.testclient import TestClient

    app = create_app(max_sessions=2, idle_timeout_s=0.5)
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        ws.send_json({"type": "reset", "data": {"seed": 0, "obs_mode": "a11y"}})
        assert ws.receive_json()["type"] == "observation"
        assert http.get("/sessions").json() == {"active": 1, "max": 2}
        deadline = time.monotonic() + 15  # OpenEnv's reaper looks every 5 s at most
        while http.get("/sessions").json()["active"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert http.get("/sessions").json()["active"] == 0
        ws.send_json({"type": "step", "data": {"action_type": "wait"}})
        r = ws.receive_json()
        assert r["type"] == "error" and "connect again" in r["data"]["message"]


def test_the_async_client_speaks_openenv() -> None:
    """``PhoneWorldClient`` is an OpenEnv ``EnvClient``: payloads and results round-trip."""
    from openenv.core.env_client import EnvClient

    c = PhoneWorldClient("http://127.0.0.1:1")
    assert isinstance(c, EnvClient)
    assert c._step_payload(Action("click", index=2)) == {"action_type": "click", "index": 2}
    assert c._step_payload('{"action_type": "scroll", "direction": "down"}') == {
        "action_type": "scroll", "direction": "down"}
    with pytest.raises(ValueError, match="fly"):
        c._step_payload({"action_type": "fly"})
    r = c._parse_result({"observation": {"goal": "g", "a11y": "<hierarchy/>", "info": {}},
                         "reward": 1.0, "done": True})
    assert r.done and r.reward == 1.0 and r.observation.goal == "g"
