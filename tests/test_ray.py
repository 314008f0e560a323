"""Scale with Ray: ``RayVectorEnv`` gives the trajectories a sync vector env gives and survives
a killed worker; ``DevicePool`` serves queued episode requests on two simulated phones and
goes on when one of them dies. One local Ray instance (2 CPUs, small object store) serves the
whole module."""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector.utils import concatenate, create_empty_array

import phoneworld_gym
from phoneworld_gym import Action
from phoneworld_gym.contract import ACTION_TYPES, action_space

ray = pytest.importorskip("ray")
# one xdist worker runs the whole module (make test passes --dist loadgroup), so its shared
# Ray instance and actors start once instead of once per worker
pytestmark = pytest.mark.xdist_group("ray")

from phoneworld_gym.scale import (  # noqa: E402 (after the importorskip)
    DevicePool,
    RayVectorEnv,
    collect_episodes,
    device_from_spec,
)

SEED = 7
SHOT = (108, 240)
CONTACTS_TASKS = ["ContactsStar", "ContactsAdd", "ContactsEditEmail", "ContactsDelete"]
#: actors reserve a quarter of a CPU each, so that the module's shared vector env and pool
#: and a test's own vector env or pool fit beside each other in the 2 CPUs
SMALL = {"num_cpus": 0.25}


def kill(actor: Any, timeout: float = 60.0) -> None:
    """``ray.kill(actor)`` and wait until it is dead: the kill travels through Ray's control
    store, and a call made right after it may still run on the live actor (on a busy runner
    it did, and the test saw no death)."""
    ray.kill(actor)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            ray.get(actor.describe.remote(), timeout=timeout)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            return
        time.sleep(0.05)
    raise AssertionError(f"actor still answers {timeout:.0f} s after ray.kill")


@pytest.fixture(scope="module", autouse=True)
def ray_session() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True, object_store_memory=100 * 1024 * 1024)
    # the agents and wrappers below travel to the workers by value (tests/ is not importable
    # there)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    ray.shutdown()


@pytest.fixture(scope="module")
def contacts_remote(ray_session: None) -> Iterator[RayVectorEnv]:
    """One ``RayVectorEnv("PhoneWorld/Contacts-v0", 2, obs_mode="a11y")`` for the tests that
    kill its workers: each starts from a seeded reset and counts replacements from where the
    previous test left them, so its actors start once, not once a test (on a busy two-core
    runner an actor takes tens of seconds to start)."""
    remote = RayVectorEnv("PhoneWorld/Contacts-v0", 2, obs_mode="a11y", **SMALL)
    yield remote
    remote.close()


@pytest.fixture(scope="module")
def _phones(ray_session: None) -> Iterator[list[DevicePool]]:
    kept: list[DevicePool] = []
    yield kept
    for pool in kept:
        pool.close()


@pytest.fixture
def two_phones(_phones: list[DevicePool]) -> Iterator[DevicePool]:
    """A ``DevicePool`` of two simulated phones (a11y) with both phones alive: the one the
    previous test used if it left both alive, else a new one (actors are slow to start on a
    busy runner, and a pool that served episodes serves the next ones the same)."""
    if not _phones:
        _phones.append(DevicePool(["phoneworld", "phoneworld"],
                                  env_kwargs={"obs_mode": "a11y"}, **SMALL))
    pool = _phones[0]
    yield pool
    if pool.dead or len(pool.devices) != 2:  # a phone died: the next test gets a new pool
        _phones.pop().close()


def numeric(action_type: str, /, **fields: Any) -> dict[str, Any]:
    """One action in the numeric form, with every key of the action space."""
    action: dict[str, Any] = {
        "action_type": ACTION_TYPES.index(action_type), "target": 0, "index": 0, "x": 0,
        "y": 0, "text": "", "direction": 0, "app_name": "", "goal_status": 0, "clear_text": 0,
    }
    action.update(fields)
    return action


def batch(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-slot numeric actions batched as a vector env's action space has them."""
    space = action_space()
    return concatenate(space, actions, create_empty_array(space, len(actions)))


def assert_same(a: Any, b: Any, where: str) -> None:
    """Equal values, recursively, arrays by content and dtype."""
    assert type(a) is type(b), (where, type(a), type(b))
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k}]")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, where
        if a.dtype == object:
            for i, (x, y) in enumerate(zip(a, b)):
                assert_same(x, y, f"{where}[{i}]")
        else:
            assert np.array_equal(a, b), where
    else:
        assert a == b, where


HOME, CONTACTS, WAIT = numeric("navigate_home"), numeric("open_app", app_name="Contacts"), \
    numeric("wait")
DONE, ANSWER = numeric("status", goal_status=0), numeric("answer", text="42")
#: with max_steps=3: slot 0 terminates at steps 2 and 5, slot 1 is truncated at steps 3 and 7,
#: and each is autoreset at the step after
SCRIPT = [[CONTACTS, HOME], [DONE, WAIT], [WAIT, WAIT], [WAIT, WAIT], [ANSWER, CONTACTS],
          [WAIT, WAIT], [WAIT, WAIT], [CONTACTS, WAIT]]


@pytest.mark.parametrize("env_id, kwargs", [
    ("PhoneWorld/Contacts-v0", {"obs_mode": "all", "screenshot_size": SHOT}),
    ("PhoneWorld/All-v0", {"obs_mode": "a11y"}),
])
def test_same_trajectories_as_sync(env_id, kwargs):
    """Reset and eight scripted steps, with episodes ending (status, answer, step budget) and
    autoresetting: observations (pixels and text), rewards, flags and infos are equal."""
    sync = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", max_steps=3,
                              **kwargs)
    remote = RayVectorEnv(env_id, 2, max_steps=3, **SMALL, **kwargs)
    try:
        assert remote.single_observation_space == sync.single_observation_space
        assert remote.single_action_space == sync.single_action_space
        assert remote.observation_space == sync.observation_space
        assert remote.action_space == sync.action_space
        assert remote.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
        assert_same(remote.reset(seed=SEED), sync.reset(seed=SEED), "reset")
        ends = []
        for n, step in enumerate(SCRIPT):
            got, want = remote.step(batch(step)), sync.step(batch(step))
            assert_same(got, want, f"step {n}")
            ends.append((got[2] | got[3]).tolist())
        assert ends[1] == [True, False] and ends[2] == [False, True] and ends[4][0]
        assert ends[6] == [False, True]
        mask = {"reset_mask": np.array([False, True])}  # reset one slot alone
        assert_same(remote.reset(options=dict(mask)), sync.reset(options=dict(mask)), "mask")
        step = batch([WAIT, WAIT])
        assert_same(remote.step(step), sync.step(step), "after the masked reset")
        assert_same(remote.reset(seed=SEED + 1), sync.reset(seed=SEED + 1), "second reset")
    finally:
        remote.close()
        sync.close()


def test_killed_worker_truncates_its_slot_and_is_replaced(contacts_remote):
    """``ray.kill`` of one worker mid-episode: that slot's episode ends truncated with
    ``worker_error``, a replacement is reset at the next step, and the other slot's trajectory
    is exactly the sync env's."""
    sync = gymnasium.make_vec("PhoneWorld/Contacts-v0", num_envs=2, vectorization_mode="sync",
                              obs_mode="a11y")
    remote = contacts_remote
    r0, r1 = remote.restarts
    try:
        obs, info = remote.reset(seed=SEED)
        sync.reset(seed=SEED)
        step = [Action("open_app", app_name="Contacts"), Action("wait")]
        remote.step(step)  # per-slot actions work as well as a batch
        sync.step(batch([CONTACTS, WAIT]))
        task_before = info["task"][1]
        kill(remote.workers[1])
        obs, reward, term, trunc, info = remote.step(batch([WAIT, WAIT]))
        want = sync.step(batch([WAIT, WAIT]))
        assert trunc.tolist() == [False, True] and term.tolist() == [False, False]
        assert reward[1] == 0.0 and info["_worker_error"].tolist() == [False, True]
        assert "killed" in info["worker_error"][1] and info["task"][1] == task_before
        assert obs["a11y"][0] == want[0]["a11y"][0] and want[3].tolist() == [False, False]
        assert remote.restarts == [r0, r1 + 1] and "killed" in remote.last_worker_error[1]
        for _ in range(3):  # the replacement autoresets, then both slots go on
            obs, reward, term, trunc, info = remote.step(batch([WAIT, WAIT]))
            want = sync.step(batch([WAIT, WAIT]))
            assert obs["a11y"][0] == want[0]["a11y"][0] and info["task"][0] == want[4]["task"][0]
            assert not trunc.any() and "worker_error" not in info
            assert obs["goal"][1] and "<hierarchy" in obs["a11y"][1]
        assert remote.restarts == [r0, r1 + 1]
    finally:
        sync.close()


def test_reset_replaces_a_dead_worker_and_keeps_the_seed(contacts_remote):
    """A worker that is dead when ``reset`` is called is replaced and reset with the same seed:
    the observations are the sync env's."""
    sync = gymnasium.make_vec("PhoneWorld/Contacts-v0", num_envs=2, vectorization_mode="sync",
                              obs_mode="a11y")
    remote = contacts_remote
    r0, r1 = remote.restarts
    try:
        kill(remote.workers[0])
        assert_same(remote.reset(seed=SEED), sync.reset(seed=SEED), "reset")
        assert remote.restarts == [r0 + 1, r1]
        with pytest.raises(ValueError, match="index"):  # an env's own error propagates
            remote.step([Action("click", index=10_000), Action("wait")])
    finally:
        sync.close()


class StallOnce(gymnasium.Wrapper):
    """Sleeps through the first ``long_press`` that any worker sees (a marker file says who
    was first), as a phone that stops answering would."""

    def __init__(self, env: gymnasium.Env, marker: str):
        super().__init__(env)
        self.marker = marker

    def step(self, action: Any) -> Any:
        if Action.from_any(action).action_type == "long_press" and _first(self.marker):
            time.sleep(60)
        return self.env.step(action)


def _first(marker: str) -> bool:
    """True for the first caller across processes (creates ``marker``)."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
        return True
    except FileExistsError:
        return False


def test_step_timeout_counts_a_silent_worker_as_dead(tmp_path):
    marker = str(tmp_path / "stalled")
    remote = RayVectorEnv("PhoneWorld/Contacts-v0", 2, obs_mode="a11y", step_timeout=3.0,
                          wrappers=[lambda env: StallOnce(env, marker)], **SMALL)
    try:
        remote.reset(seed=SEED)
        press = Action("long_press", x=540, y=1200)
        start = time.monotonic()
        _, _, _, trunc, info = remote.step([press, Action("wait")])
        assert time.monotonic() - start < 30
        assert trunc.tolist() == [True, False]
        assert info["worker_error"][0].startswith("TimeoutError")
        _, _, _, trunc, _ = remote.step([press, press])  # replaced, reset; nobody stalls now
        assert not trunc.any() and remote.restarts == [1, 0]
    finally:
        remote.close()


def test_collect_episodes_cuts_whole_episodes(contacts_remote):
    """A trainer's view: whole episodes, each with its task, actions and final info; the same
    episodes from a RayVectorEnv as from a sync vector env."""
    def policy(observations: list[dict], infos: list[dict]) -> list[Any]:
        return [DONE if info["steps"] >= 1 + slot else WAIT for slot, info in enumerate(infos)]

    sync = gymnasium.make_vec("PhoneWorld/Contacts-v0", num_envs=2, vectorization_mode="sync",
                              obs_mode="a11y")
    try:
        episodes = collect_episodes(contacts_remote, policy, 5, seed=SEED,
                                    keep_observations=True)
        expected = collect_episodes(sync, policy, 5, seed=SEED)
    finally:
        sync.close()
    assert len(episodes) == 5 and {e.slot for e in episodes} == {0, 1}
    for e, x in zip(episodes, expected, strict=True):
        assert len(e.actions) == e.slot + 2 == len(e.rewards) == len(e.observations) - 1
        assert e.terminated and not e.truncated and e.worker_error == ""
        assert e.final_info["task"] == e.first_info["task"]
        assert e.final_info["steps"] == len(e.actions)
        assert (e.slot, e.first_info, e.final_info, e.rewards) == (
            x.slot, x.first_info, x.final_info, x.rewards)


# -- DevicePool ------------------------------------------------------------------------------


class StallingOracle:
    """The oracle, except that the first episode any worker plays on ``task`` stops after one
    step and hangs (until its worker is killed)."""

    name = "stalling-oracle"

    def __init__(self, env: Any, task: str, marker: str):
        from phoneworld_gym.baselines.agents import OracleAgent

        self.inner = OracleAgent(env)
        self.env = env
        self.stall = env.unwrapped.task is not None and type(env.unwrapped.task).id == task \
            and _first(marker)
        self.steps = 0

    def reset(self, goal: str) -> None:
        self.inner.reset(goal)

    def act(self, observation: dict[str, Any]) -> Action:
        self.steps += 1
        if self.stall and self.steps == 2:
            time.sleep(60)
        return self.inner.act(observation)


def test_pool_serves_concurrent_requests_on_two_phones(two_phones):
    """Four oracle episodes of four Contacts tasks, two phones: all succeed, both phones play,
    and the records carry what a trainer needs."""
    pool = two_phones
    assert pool.devices == ["device0", "device1"] and not pool.dead
    assert {d["kind"] for d in pool.info.values()} == {"phoneworld"}
    records = pool.run(CONTACTS_TASKS, seeds=[1, 2, 3, 4])
    with pytest.raises(KeyError, match="NoSuchTask"):  # refused before anything runs
        pool.run(["ContactsStar", "NoSuchTask"])
    with pytest.raises(ValueError, match="seeds"):
        pool.run(CONTACTS_TASKS, seeds=[1, 2])
    assert [r.index for r in records] == [0, 1, 2, 3]
    assert [(r.task, r.seed) for r in records] == list(zip(CONTACTS_TASKS, [1, 2, 3, 4]))
    assert all(r.success and r.reward == 1.0 and r.terminated for r in records), records
    assert {r.device for r in records} == {"device0", "device1"}
    tasks = {t.id: t for t in phoneworld_gym.list_tasks(app="contacts")}
    for r in records:
        assert r.steps == tasks[r.task].optimal_steps == len(r.actions)
        assert r.actions[-1] == {"action_type": "status", "goal_status": "complete"}
        assert r.goal and r.params and r.worker_error == "" and r.attempts == 1
    # the same seed gives the same episode on any phone
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    _, info = env.reset(seed=3, options={"task": "ContactsEditEmail"})
    assert info["params"] == records[2].params


def test_pool_goes_on_when_a_phone_dies_mid_episode(tmp_path, two_phones):
    """One phone hangs mid-episode and its actor is killed: that episode is reported
    truncated with the reason, the other three complete on the other phone, and the pool
    keeps serving with the phone that is left."""
    marker = str(tmp_path / "stalled")

    def agent(env: Any) -> StallingOracle:
        return StallingOracle(env, "ContactsStar", marker)

    pool = two_phones
    records = []
    for record in pool.imap_unordered(CONTACTS_TASKS, [1, 2, 3, 4], agent):
        records.append(record)
        if len(records) == 3:  # the others are done: the hanging phone is the one left
            [(hung, (index, task))] = pool.running.items()
            assert task == "ContactsStar"
            ray.kill(pool.actor(hung))
    by_task = {r.task: r for r in records}
    dead = by_task.pop("ContactsStar")
    assert dead.truncated and not dead.success and dead.device == hung
    assert "killed" in dead.worker_error and dead.failure == dead.worker_error
    assert all(r.success and r.device != hung for r in by_task.values())
    assert pool.devices == [d for d in ("device0", "device1") if d != hung]
    assert hung in pool.dead
    again = pool.run(["ContactsUnstar", "ContactsStar"], 5)
    assert all(r.success for r in again)


def test_pool_requeues_and_times_out(tmp_path):
    """With ``episode_timeout`` a hung phone counts as dead; with ``requeue`` its request is
    played again on another phone. A device that cannot be built is left out at start."""
    marker = str(tmp_path / "stalled")

    def agent(env: Any) -> StallingOracle:
        return StallingOracle(env, "ContactsAdd", marker)

    def broken() -> Any:
        raise OSError("no such phone")

    with DevicePool(["phoneworld", "phoneworld", broken], env_kwargs={"obs_mode": "a11y"},
                    requeue=True, episode_timeout=5.0, **SMALL) as pool:
        assert pool.devices == ["device0", "device1"]
        assert "no such phone" in pool.dead["device2"]
        records = pool.run(CONTACTS_TASKS, 1, agent)
        assert all(r.success for r in records), records
        assert [r.attempts for r in records] == [1, 2, 1, 1]
        assert len(pool.devices) == 1
        assert any("TimeoutError" in why for why in pool.dead.values())


def test_device_specs():
    assert device_from_spec("phoneworld").kind == "phoneworld"
    assert device_from_spec("phoneworld:108x240").screenshot().shape == (240, 108, 3)
    with pytest.raises(ValueError, match="WxH"):
        device_from_spec("phoneworld:big")
    with pytest.raises(ValueError):
        device_from_spec("")
    with pytest.raises(ValueError, match="distinct"):
        DevicePool(["phoneworld"], names=["a", "b"])


def test_pool_over_two_virtual_adb_phones_serves_four_requests(adb_port):
    """The device pool as it runs on real phones: two virtual adb phones (each a server the
    Debian adb client talks to), each owned by one actor through ``AdbDevice``; four requests
    queue for the two phones and every episode is verified through the phones' providers."""
    adb = pytest.importorskip("phoneworld_gym.real_device.adb_device")
    from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

    phones = [VirtualPhone(port=free_port(), seed=0).start() for _ in range(2)]
    try:
        specs = [functools.partial(adb.AdbDevice, p.serial, port=adb_port) for p in phones]
        with DevicePool(specs, env_kwargs={"obs_mode": "a11y"}, **SMALL) as pool:
            assert {d["kind"] for d in pool.info.values()} == {"adb"}
            records = pool.run(CONTACTS_TASKS, seeds=[1, 2, 3, 4])
    finally:
        for p in phones:
            p.stop()
    assert [(r.task, r.seed) for r in records] == list(zip(CONTACTS_TASKS, [1, 2, 3, 4]))
    assert all(r.success and r.terminated and r.worker_error == "" for r in records), records
    assert {r.device for r in records} == {"device0", "device1"}
    # the phones played the same episodes the simulated phone plays for those seeds
    tasks = {t.id: t for t in phoneworld_gym.list_tasks(app="contacts")}
    assert all(r.steps == tasks[r.task].optimal_steps for r in records)


def test_eval_in_ray_workers_gives_the_results_of_one_process(tmp_path):
    """``phoneworld eval --ray``: the episodes played by Ray actors are those one process
    plays."""
    from phoneworld_gym.baselines.evalrun import EvalSpec, run_eval

    spec = EvalSpec(agent="random", tasks=("ContactsStar", "ContactsUnstar"), seeds=(0, 1),
                    max_steps=5, screenshots=False)
    one = run_eval(spec, tmp_path / "one", progress=False)
    two = run_eval(spec, tmp_path / "ray", workers=2, use_ray=True, progress=False,
                   ray_cpus=0.25)
    assert one["finished"] == two["finished"] == 4
    assert one["episodes"] == two["episodes"]
