"""Trajectory collection: rows hold what the episode showed and did, an interrupted or
killed collection resumes with nothing lost or doubled, damaged shards are found and
recollected, bad input is refused before anything is written, and mixing draws whole
episodes by ratio."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

from phoneworld_gym import Action, parse_ui_elements
from phoneworld_gym.baselines import collect as collect_mod
from phoneworld_gym.baselines.agents import HumanAgent, OracleAgent, RandomAgent
from phoneworld_gym.baselines.collect import agent_seed, collect, parse_seeds
from phoneworld_gym.baselines.data import (
    MANIFEST,
    SHARDS,
    load,
    load_by,
    manifest,
    mix,
)
from phoneworld_gym.wrappers import describe_elements

ENV = "PhoneWorld/Contacts-v0"
TASKS = ["ContactsStar", "ContactsAdd", "ContactsCountFavorites"]


class Recording:
    """An agent that remembers the actions it chose."""

    def __init__(self, inner: Any, log: list[Action]):
        self.inner, self.log, self.name = inner, log, inner.name

    def reset(self, goal: str) -> None:
        self.inner.reset(goal)

    def act(self, observation: dict[str, Any]) -> Action:
        action = self.inner.act(observation)
        self.log.append(action)
        return action


def episodes(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r["episode_id"], []).append(r)
    return out


@pytest.fixture(scope="module")
def full_random(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted random-agent collection: 3 tasks x 3 seeds."""
    out = tmp_path_factory.mktemp("full") / "random"
    report = collect(ENV, "random", TASKS, "0:3", out)
    assert report.new == 9 and report.skipped == 0 and not report.messages
    return out


def test_rows_are_the_episodes(tmp_path: Path) -> None:
    """Replaying each stored episode on a fresh env gives back every row: the goal and params
    of the reset, the tree and element list before each action, the very action the agent
    chose (parsed back from its JSON), the reward and the end; rewards sum to success."""
    chosen: dict[tuple[str, str, int], list[Action]] = {}
    agents = {"oracle": lambda env, t, s: Recording(OracleAgent(env), chosen.setdefault(
        ("oracle", t, s), [])),
        "random": lambda env, t, s: Recording(RandomAgent(seed=agent_seed(t, s)),
                                              chosen.setdefault(("random", t, s), []))}
    for factory in agents.values():
        report = collect(ENV, factory, TASKS, [0, 1], tmp_path)
        assert report.new == 6 and report.steps > 6 and report.steps_per_s > 0
    ds = load(tmp_path)
    env = gymnasium.make(ENV, obs_mode="a11y", disable_env_checker=True)
    eps = episodes(ds.to_list())
    assert len(eps) == 12
    outcomes = set()
    for rows in eps.values():
        first = rows[0]
        obs, info = env.reset(seed=first["seed"], options={"task": first["task"]})
        assert {r["goal"] for r in rows} == {obs["goal"]} == {info["goal"]}
        assert json.loads(first["params"]) == json.loads(json.dumps(info["params"]))
        assert first["category"] == info["category"] and first["source"] == "mock"
        assert first["env_id"] == ENV and first["template"] == info["template"]
        actions = [Action.from_json(r["action"]) for r in rows]
        assert actions == chosen[(first["agent"], first["task"], first["seed"])]
        assert [r["step"] for r in rows] == list(range(len(rows)))
        for r, action in zip(rows, actions):
            assert r["tree"] == obs["a11y"]
            assert r["elements"] == describe_elements(parse_ui_elements(obs["a11y"]))
            assert r["action_type"] == action.action_type
            obs, reward, term, trunc, info = env.step(action)
            assert (r["reward"], r["done"], r["terminated"], r["truncated"], r["action_error"]) \
                == (reward, term or trunc, term, trunc, info["action_error"])
        assert [r["done"] for r in rows] == [False] * (len(rows) - 1) + [True]
        assert sum(r["reward"] for r in rows) == float(rows[-1]["success"]) == float(
            info["success"])
        outcomes.add((first["agent"], rows[-1]["success"]))
    assert ("oracle", True) in outcomes and ("random", False) in outcomes
    assert {("oracle", False)} & outcomes == set()
    entries = manifest(tmp_path)
    assert sorted(e["episode_id"] for e in entries) == sorted(eps)
    assert all(e["rows"] == len(eps[e["episode_id"]]) for e in entries)
    split = load_by(tmp_path, "agent")
    assert set(split) == {"oracle", "random"}
    assert set(split["oracle"]["agent"]) == {"oracle"}


def test_interrupted_collection_resumes(tmp_path: Path, full_random: Path) -> None:
    """An agent that raises in the fifth episode stops the collection with four episodes
    committed; a rerun adds the other five, and the result equals an uninterrupted run."""
    count = itertools.count()

    def flaky(env: Any, task: str, seed: int) -> RandomAgent:
        agent = RandomAgent(seed=agent_seed(task, seed))
        if next(count) == 4:
            def broken(obs: dict[str, Any]) -> Action:
                raise RuntimeError("interrupted")
            agent.act = broken  # type: ignore[method-assign]
        return agent

    with pytest.raises(RuntimeError, match="interrupted"):
        collect(ENV, flaky, TASKS, "0:3", tmp_path, agent_name="random")
    assert len(manifest(tmp_path)) == 4
    assert not (tmp_path / ".lock").exists()
    again = collect(ENV, "random", TASKS, "0:3", tmp_path)
    assert (again.new, again.skipped) == (5, 4)
    assert [e["key"] for e in manifest(tmp_path)] == [e["key"] for e in manifest(full_random)]
    assert load(tmp_path).to_list() == load(full_random).to_list()
    done = collect(ENV, "random", TASKS, "0:3", tmp_path)
    assert (done.new, done.skipped) == (0, 9)


KILLER = textwrap.dedent("""
    import io, os, sys
    import pyarrow.parquet as pq
    from phoneworld_gym.baselines import data
    from phoneworld_gym.baselines.collect import collect

    written = [0]
    real_write = pq.write_table

    def write_half_then_die(table, where, **kw):
        written[0] += 1
        if written[0] < 4:
            return real_write(table, where, **kw)
        buf = io.BytesIO()
        real_write(table, buf, **kw)
        with open(where, "wb") as f:
            f.write(buf.getvalue()[: len(buf.getvalue()) // 2])
        os.kill(os.getpid(), 9)

    data.pq.write_table = write_half_then_die
    collect(sys.argv[1], "random", sys.argv[2].split(","), "0:3", sys.argv[3])
""")


def test_killed_collection_resumes(tmp_path: Path, full_random: Path) -> None:
    """A process killed while writing its fourth shard leaves three episodes, a half-written
    shard and its lock; the rerun removes both with a message and ends equal to an
    uninterrupted run."""
    out = tmp_path / "killed"
    script = tmp_path / "killer.py"
    script.write_text(KILLER)
    proc = subprocess.run([sys.executable, str(script), ENV, ",".join(TASKS), str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    assert len(manifest(out)) == 3
    assert len(list((out / SHARDS).glob("*.tmp"))) == 1 and (out / ".lock").exists()
    assert len(load(out)) == sum(e["rows"] for e in manifest(out))  # the .tmp is never read
    report = collect(ENV, "random", TASKS, "0:3", out)
    text = "\n".join(report.messages)
    assert "half-written shard" in text and "stale lock" in text, text
    assert (report.new, report.skipped) == (6, 3)
    assert load(out).to_list() == load(full_random).to_list()
    assert not list((out / SHARDS).glob("*.tmp"))


def test_damaged_shards_are_recollected(tmp_path: Path, full_random: Path) -> None:
    """A truncated shard, a shard with a flipped byte, a shard the manifest lost, a torn
    manifest line and a stray .tmp: load refuses the damage, naming it; a rerun removes each
    with a message and recollects exactly those episodes."""
    out = tmp_path / "copy"
    shutil.copytree(full_random, out)
    entries = manifest(out)
    truncated, flipped, lost = (out / SHARDS / entries[i]["file"] for i in (0, 4, 8))
    truncated.write_bytes(truncated.read_bytes()[:-100])
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0xFF
    flipped.write_bytes(bytes(data))
    lines = (out / MANIFEST).read_text().splitlines()
    lost_line = next(i for i, line in enumerate(lines) if lost.name in line)
    lines[lost_line] = lines[lost_line][:40]  # a torn record
    (out / MANIFEST).write_text("\n".join(lines) + "\n")
    (out / SHARDS / "stray.parquet.tmp").write_bytes(b"PAR1 half")
    with pytest.raises(ValueError, match=truncated.name):
        load(out)
    report = collect(ENV, "random", TASKS, "0:3", out)
    text = "\n".join(report.messages)
    assert truncated.name in text and "truncated" in text, text
    assert flipped.name in text and "SHA-256" in text, text
    assert lost.name in text and "does not list" in text, text
    assert "unreadable" in text and "stray.parquet.tmp" in text, text
    assert (report.new, report.skipped) == (3, 6)
    assert load(out).to_list() == load(full_random).to_list()
    # a last record without its newline is rewritten before the next one is appended
    (out / MANIFEST).write_text((out / MANIFEST).read_text().rstrip("\n"))
    more = collect(ENV, "random", TASKS[:1], "0:4", out)
    assert (more.new, more.skipped, more.messages) == (1, 3, [])
    assert len(manifest(out)) == 10 and len((out / MANIFEST).read_text().splitlines()) == 10


def test_bad_input_is_refused_and_loses_nothing(tmp_path: Path, full_random: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "kept"
    shutil.copytree(full_random, out)
    before = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    cases: list[tuple[dict[str, Any], str]] = [
        (dict(env_id="PhoneWorld/Contact-v0"), "unknown env id.*PhoneWorld/Contacts-v0"),
        (dict(seeds="0:"), "bad seeds spec"),
        (dict(seeds="a:b"), "bad seeds spec"),
        (dict(seeds="5:2"), "empty range"),
        (dict(seeds=[1.5]), "seeds must be ints"),
        (dict(seeds=[-2]), ">= 0"),
        (dict(agent_factory="smart"), "unknown agent 'smart'"),
        (dict(agent_factory=RandomAgent), r"takes \(env, task, seed\)"),
        (dict(source="sim"), "source must be one of"),
        (dict(tasks=["ShoppingCartCount"]), "not played by PhoneWorld/Contacts-v0"),
        (dict(obs_mode="pixels"), "obs_mode"),
        (dict(screenshots=True), "collected with screenshots=False"),
    ]
    for change, message in cases:
        args: dict[str, Any] = dict(env_id=ENV, agent_factory="random", tasks=TASKS,
                                    seeds="0:3", out_dir=out)
        args.update(change)
        with pytest.raises(ValueError, match=message):
            collect(**args)
    assert {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    for spec in ("", "1:2:3", True, None):
        with pytest.raises(ValueError):
            parse_seeds(spec)  # type: ignore[arg-type]
    assert parse_seeds("0:3") == [0, 1, 2] and parse_seeds("4,1,4") == [4, 1]
    assert parse_seeds(7) == [7] and parse_seeds(range(2)) == [0, 1]
    # a live collection's lock keeps a second one out
    (out / ".lock").write_text(f"{os.getpid()} {socket.gethostname()}")
    with pytest.raises(RuntimeError, match="another collection"):
        collect(ENV, "random", TASKS, "0:3", out)
    (out / ".lock").unlink()
    with pytest.raises(ValueError, match="not a trajectory collection"):
        load(tmp_path / "nothing")
    # a folder of something else is never written to (nor cleaned up)
    other = tmp_path / "mine"
    (other / SHARDS).mkdir(parents=True)
    (other / SHARDS / "own.parquet").write_bytes(b"mine")
    with pytest.raises(ValueError, match="not empty and not a trajectory collection"):
        collect(ENV, "random", TASKS, "0:3", other)
    assert sorted(p.name for p in other.rglob("*")) == [SHARDS, "own.parquet"]
    with pytest.raises(SystemExit) as e:
        collect_mod.main(["--env", "PhoneWorld/Nope-v0", "--out", str(tmp_path / "x")])
    assert e.value.code == 2 and "unknown env id" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_cli_and_screenshots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI collects with screenshots; each stored PNG is the screen before the step."""
    code = collect_mod.main(["--env", ENV, "--agent", "oracle", "--seeds", "3",
                             "--tasks", "ContactsStar", "--screenshots",
                             "--screenshot-size", "108x240", "--out", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "1 new episodes (1 successful" in out, out
    ds = load(tmp_path)
    env = gymnasium.make(ENV, screenshot_size=(108, 240), disable_env_checker=True)
    obs, _ = env.reset(seed=3, options={"task": "ContactsStar"})
    for row in ds:
        image = np.asarray(row["screenshot"])
        assert image.shape == (240, 108, 3)
        assert np.array_equal(image, obs["screenshot"])
        obs, *_ = env.step(Action.from_json(row["action"]))
    assert ds[len(ds) - 1]["success"]


def test_human_source(tmp_path: Path) -> None:
    """A person (here: lines typed from the oracle's plan) plays through HumanAgent; the rows
    say source human; the end of input stops the collection and keeps the finished episode."""
    ref = gymnasium.make(ENV, obs_mode="a11y", disable_env_checker=True)
    obs, _ = ref.reset(seed=0, options={"task": "ContactsStar"})
    oracle = OracleAgent(ref)
    oracle.reset(obs["goal"])
    typed = []
    while True:
        action = oracle.act(obs)
        typed.append(action.to_json_str())
        obs, _, term, trunc, _ = ref.step(action)
        if term or trunc:
            break
    lines = iter(["what now?", *typed])

    def person(prompt: str) -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    factory = lambda env, task, seed: HumanAgent(read=person, write=lambda text: None)  # noqa: E731
    with pytest.raises(EOFError):
        collect(ENV, factory, ["ContactsStar"], [0, 1], tmp_path, source="human")
    rows = load(tmp_path).to_list()
    assert [r["action"] for r in rows] == typed
    assert {r["source"] for r in rows} == {"human"} and {r["agent"] for r in rows} == {"human"}
    assert rows[-1]["success"] and {r["seed"] for r in rows} == {0}


def test_cli_stops_cleanly_at_the_end_of_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """--agent human: the end of input stops the CLI with a message, keeping the episode that
    was finished (status 130, no traceback)."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("hello\ndone\n"))
    code = collect_mod.main(["--env", ENV, "--agent", "human", "--tasks", "ContactsStar",
                             "--seeds", "0:2", "--out", str(tmp_path)])
    assert code == 130
    assert "stopped (end of input)" in capsys.readouterr().err
    rows = load(tmp_path).to_list()
    assert [(r["source"], r["seed"], r["action"]) for r in rows] == [
        ("human", 0, '{"action_type": "status", "goal_status": "complete"}')]


def test_collect_on_the_virtual_adb_phone(tmp_path: Path, adb_port: int,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """PhoneWorld/Device-v0 (its own virtual phone, driven through a real adb server) gives
    source="device" rows, the same goal and first screen as PhoneWorld for the seed."""
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)
    report = collect("PhoneWorld/Device-v0", "oracle", ["ContactsStar"], [0], tmp_path,
                     port=adb_port)  # source: "device" for a device id
    assert (report.new, report.successes, report.failed) == (1, 1, [])
    rows = load(tmp_path).to_list()
    ref = gymnasium.make(ENV, obs_mode="a11y", disable_env_checker=True)
    obs, _ = ref.reset(seed=0, options={"task": "ContactsStar"})
    assert {r["source"] for r in rows} == {"device"}
    assert {r["env_id"] for r in rows} == {"PhoneWorld/Device-v0"}
    assert rows[0]["goal"] == obs["goal"] and rows[0]["tree"] == obs["a11y"]
    assert sum(r["reward"] for r in rows) == 1.0 and rows[-1]["success"]
    assert Action.from_json(rows[-1]["action"]) == Action("status", goal_status="complete")


def test_mix_draws_whole_episodes_by_ratio(tmp_path: Path, full_random: Path) -> None:
    oracle_dir = tmp_path / "oracle"
    collect(ENV, "oracle", TASKS, "0:4", oracle_dir)  # 12 episodes
    sources = {"oracle": load(oracle_dir), "random": load(full_random)}  # 12 and 9
    src_rows = {s: episodes(d.to_list()) for s, d in sources.items()}
    m = mix(sources, {"oracle": 3, "random": 1}, seed=0)
    got = episodes(m.to_list())
    # as many as fit 3:1 without repeating: 12 oracle + 4 random
    assert sorted(r[0]["agent"] for r in got.values()) == ["oracle"] * 12 + ["random"] * 4
    order = [r["episode_id"] for r in m.to_list()]
    assert order == sorted(order, key=list(dict.fromkeys(order)).index)  # each whole
    for e, rows in got.items():
        assert rows == src_rows[rows[0]["agent"]][e]  # whole, in step order, unchanged
    assert mix(sources, {"oracle": 3, "random": 1}, seed=0).to_list() == m.to_list()
    assert list(dict.fromkeys(mix(sources, {"oracle": 3, "random": 1}, seed=1)
                              ["episode_id"])) != list(dict.fromkeys(order))
    with pytest.raises(ValueError, match="random needs 10, has 9"):
        mix(sources, {"oracle": 1, "random": 1}, n_episodes=20)
    up = episodes(mix(sources, {"oracle": 1, "random": 1}, n_episodes=20, replace=True)
                  .to_list())
    ids = sorted(up)
    assert len(ids) == 20 and sum("#r1" in e for e in ids) == 1
    assert sorted(r[0]["agent"] for r in up.values()) == ["oracle"] * 10 + ["random"] * 10
    with pytest.raises(ValueError, match="same sources"):
        mix(sources, {"oracle": 1})
    with pytest.raises(ValueError, match="finite number >= 0"):
        mix(sources, {"oracle": 1, "random": -1})
    with pytest.raises(ValueError, match="in both"):
        mix({"a": sources["oracle"], "b": sources["oracle"]}, {"a": 1, "b": 1})
