"""Vector envs by content: an async vector env (shared memory on, Gymnasium's default) returns
the same observations as a sync one, the accessibility XML and goal text included, for every
registered PhoneWorld id; and the shared-memory handlers of ``UnicodeText`` round-trip any
valid Unicode text."""

from __future__ import annotations

import copy
import multiprocessing as mp
import pickle
import re
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector.utils import (
    concatenate,
    create_empty_array,
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

import phoneworld_gym  # noqa: F401 (registers the PhoneWorld ids)
from phoneworld_gym.contract import (
    ACTION_TYPES,
    MAX_TEXT,
    Action,
    SharedTexts,
    UnicodeText,
    action_space,
    observation_space,
    parse_ui_elements,
)

ENV_IDS = sorted(e for e in gymnasium.registry if e.startswith("PhoneWorld/"))
NUM_ENVS = 2
SEED = 7
SHOT = (108, 240)
NON_ASCII = "héllo 中文 😀 עברית \u202e ñ"


def numeric(action_type: str, /, **fields: Any) -> dict[str, Any]:
    """One action in the numeric form, with every key of the action space."""
    action: dict[str, Any] = {
        "action_type": ACTION_TYPES.index(action_type), "target": 0, "index": 0, "x": 0,
        "y": 0, "text": "", "direction": 0, "app_name": "", "goal_status": 0, "clear_text": 0,
    }
    action.update(fields)
    return action


STEPS = [numeric("navigate_home"), numeric("open_app", app_name="Contacts"), numeric("wait")]


def batch(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """One numeric action per sub-env, batched as the vector env's action space has it."""
    space = action_space()
    return concatenate(space, actions, create_empty_array(space, len(actions)))


def make(env_id: str, mode: str, **kwargs: Any) -> gymnasium.vector.VectorEnv:
    return gymnasium.make_vec(env_id, num_envs=NUM_ENVS, vectorization_mode=mode, **kwargs)


def rollout(envs: gymnasium.vector.VectorEnv,
            steps: list[dict[str, Any]] = STEPS) -> Iterator[tuple[Any, ...]]:
    """Reset at ``SEED``, then step each action in every sub-env; yields what each call gave
    (the observation first)."""
    obs, _ = envs.reset(seed=SEED)
    yield (obs,)
    for action in steps:
        obs, reward, term, trunc, info = envs.step(batch([action] * NUM_ENVS))
        yield obs, reward.tolist(), term.tolist(), trunc.tolist(), info["action_error"]


def check_texts(obs: dict[str, Any]) -> None:
    """The text fields are real text: one per sub-env, non-empty, no NUL padding."""
    for key in ("a11y", "goal"):
        if key not in obs:
            continue
        texts = obs[key]
        assert isinstance(texts, tuple) and len(texts) == NUM_ENVS, (key, type(texts))
        for text in texts:
            assert isinstance(text, str) and text and "\x00" not in text, (key, text[:40])
            if key == "a11y":
                assert "<hierarchy" in text


def assert_same(sync: Any, asyn: Any, where: str) -> None:
    """Observations (and what came with them) equal between a sync and an async env."""
    assert type(sync) is type(asyn), where
    if isinstance(sync, dict):
        assert sync.keys() == asyn.keys(), where
        for k in sync:
            assert_same(sync[k], asyn[k], f"{where}[{k}]")
    elif isinstance(sync, (tuple, list)):
        assert len(sync) == len(asyn), where
        for i, (x, y) in enumerate(zip(sync, asyn)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(sync, np.ndarray):
        assert sync.dtype == asyn.dtype and np.array_equal(sync, asyn), where
    else:
        assert sync == asyn, where


def compare(env_id: str, steps: list[dict[str, Any]] = STEPS,
            async_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """Run the same seed and actions through a sync and an async vector env of ``env_id``
    (``kwargs`` go to both envs, ``async_kwargs`` to ``AsyncVectorEnv`` alone)."""
    sync = make(env_id, "sync", **kwargs)
    asyn = make(env_id, "async", vector_kwargs=async_kwargs, **kwargs)
    try:
        for n, (a, b) in enumerate(zip(rollout(sync, steps), rollout(asyn, steps),
                                       strict=True)):
            check_texts(a[0])
            check_texts(b[0])
            assert_same(a, b, f"{env_id} call {n}")
    finally:
        sync.close()
        asyn.close()


# -- every id, sync vs async ------------------------------------------------------------------


def test_every_phoneworld_id_is_covered():
    assert "PhoneWorld/All-v0" in ENV_IDS and "PhoneWorld/Shopping-v0" in ENV_IDS
    assert len(ENV_IDS) > 10


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_async_matches_sync(env_id):
    """Reset and three steps (home, open Contacts, wait) give equal observations; the async
    env is built with make_vec's defaults (shared memory on, copies handed out)."""
    compare(env_id, obs_mode="a11y")


def test_async_matches_sync_with_screenshots():
    compare("PhoneWorld/Shopping-v0", obs_mode="all", screenshot_size=SHOT)


def test_async_matches_sync_for_non_ascii_typed_text():
    """Text typed into the Contacts search bar comes back through shared memory intact."""
    probe = gymnasium.make("PhoneWorld/Contacts-v0", obs_mode="a11y")
    try:
        indices = []
        for seed in (SEED, SEED + 1):  # make_vec's reset(seed=SEED) seeds sub-env i with SEED+i
            probe.reset(seed=seed)
            obs, *_ = probe.step(numeric("open_app", app_name="Contacts"))
            elements = parse_ui_elements(obs["a11y"])
            indices.append(next(i for i, e in enumerate(elements)
                                if (e.resource_id or "").endswith("search_bar")))
    finally:
        probe.close()
    typed = [numeric("input_text", target=1, index=i, text=NON_ASCII) for i in indices]
    sync, asyn = make("PhoneWorld/Contacts-v0", "sync", obs_mode="a11y"), make(
        "PhoneWorld/Contacts-v0", "async", obs_mode="a11y")
    try:
        seen = []
        for envs in (sync, asyn):
            envs.reset(seed=SEED)
            envs.step(batch([numeric("open_app", app_name="Contacts")] * NUM_ENVS))
            obs, *_, info = envs.step(batch(typed))
            assert list(info["action_error"]) == ["", ""]
            seen.append(obs)
        assert_same(seen[0], seen[1], "typed")
        assert all(NON_ASCII.replace("\u202e", "") in x.replace("\u202e", "")
                   for x in seen[1]["a11y"])
    finally:
        sync.close()
        asyn.close()


def test_async_without_shared_memory_matches_too():
    compare("PhoneWorld/Contacts-v0", obs_mode="a11y", async_kwargs={"shared_memory": False})


def test_async_in_spawned_workers():
    """Workers that import PhoneWorld afresh (spawn) write text that the parent reads."""
    compare("PhoneWorld/Contacts-v0", obs_mode="a11y", async_kwargs={"context": "spawn"})


def test_async_without_copy_hands_out_live_views():
    """With copy=False the env returns its shared buffer, as it does for a Box: the text view
    then shows the latest observation, and equals the tuple a sync env returns."""
    sync = make("PhoneWorld/Contacts-v0", "sync", obs_mode="a11y")
    asyn = make("PhoneWorld/Contacts-v0", "async", obs_mode="a11y",
                vector_kwargs={"copy": False})
    try:
        s0, _ = sync.reset(seed=SEED)
        a0, _ = asyn.reset(seed=SEED)
        assert isinstance(a0["a11y"], SharedTexts) and a0["a11y"] == s0["a11y"]
        assert a0["goal"] == s0["goal"]
        frozen = copy.deepcopy(a0)
        assert isinstance(frozen["a11y"], tuple) and frozen["a11y"] == s0["a11y"]
        action = batch([numeric("open_app", app_name="Contacts")] * NUM_ENVS)
        s1, *_ = sync.step(action)
        a1, *_ = asyn.step(action)
        assert a1["a11y"] == s1["a11y"] and a0["a11y"] == s1["a11y"]  # a0 is live
        assert s1["a11y"] != s0["a11y"] and frozen["a11y"] == s0["a11y"]
    finally:
        sync.close()
        asyn.close()


# -- actions in every form --------------------------------------------------------------------

CONTACTS, CLOCK, HOME = ("com.phoneworld.contacts", "com.google.android.deskclock",
                         "com.google.android.apps.nexuslauncher")


def foreground(a11y: str) -> str:
    """The package the screen shows (the first node's)."""
    return re.search(r'package="([^"]+)"', a11y).group(1)  # type: ignore[union-attr]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_batch_takes_json_text_dicts_and_actions(mode):
    """One action per sub-env in any form ``step`` takes, as a list or tuple: each sub-env
    does its own (the screen shows the app it opened)."""
    envs = gymnasium.make_vec("PhoneWorld/ContactsStar-v0", num_envs=3, vectorization_mode=mode,
                              obs_mode="a11y")
    try:
        obs, _ = envs.reset(seed=SEED)
        assert [foreground(x) for x in obs["a11y"]] == [HOME] * 3
        batches = [
            (['{"action_type": "open_app", "app_name": "Contacts"}',
              {"action_type": "open_app", "app_name": "Clock"},
              Action("wait")], [CONTACTS, CLOCK, HOME]),
            ((Action("navigate_home"), '{"action_type": "open_app", "app_name": "Clock"}',
              numeric("open_app", app_name="Contacts")), [HOME, CLOCK, CONTACTS]),
        ]
        assert envs.action_space.contains(batches[0][0])
        for actions, apps in batches:
            obs, _, _, _, info = envs.step(actions)
            assert [foreground(x) for x in obs["a11y"]] == apps
            assert list(info["action_error"]) == ["", "", ""]
            assert list(info["invalid_action"]) == ["", "", ""]
        assert list(info["action"]["action_type"]) == ["navigate_home", "open_app", "open_app"]
        with pytest.raises(ValueError, match="one per sub-env: 3, got 2"):
            envs.step([Action("wait")] * 2)
    finally:
        envs.close()


def test_a_batch_with_an_invalid_action_reports_it_in_that_slot():
    """With ``invalid="noop"`` a malformed action in one slot is that slot's spent step; the
    others act."""
    envs = gymnasium.make_vec("PhoneWorld/ContactsStar-v0", num_envs=2,
                              vectorization_mode="sync", obs_mode="a11y", invalid="noop")
    try:
        envs.reset(seed=SEED)
        actions = ['{"action_type": "open_app", "app_name": "Contacts"', Action(
            "open_app", app_name="Contacts")]
        assert not envs.action_space.contains(actions)
        obs, _, _, _, info = envs.step(actions)
        assert [foreground(x) for x in obs["a11y"]] == [HOME, CONTACTS]
        assert "not valid JSON" in info["invalid_action"][0] and info["invalid_action"][1] == ""
        assert info["steps"].tolist() == [1, 1]
    finally:
        envs.close()


# -- the shared-memory handlers ---------------------------------------------------------------

TEXTS = ["", "plain", NON_ASCII, "😀" * 8, "\x00 inside\x00", "\ufeff\ufffe\uffff", "\U0010ffff",
         "<&>\"'", "x" * 32]


def test_unicode_text_round_trips_through_shared_memory():
    space = UnicodeText(32)
    memory = create_shared_memory(space, n=len(TEXTS), ctx=mp)
    view = read_from_shared_memory(space, memory, n=len(TEXTS))
    assert isinstance(view, SharedTexts) and len(view) == len(TEXTS)
    assert tuple(view) == ("",) * len(TEXTS)  # a fresh buffer holds empty strings, not NULs
    for i, text in enumerate(TEXTS):
        write_to_shared_memory(space, i, text, memory)
    assert tuple(view) == tuple(TEXTS)  # the view read before the writes sees them
    write_to_shared_memory(space, 3, "short", memory)  # a shorter text leaves no tail behind
    assert view[3] == "short" and view[-1] == TEXTS[-1] and view[2:4] == (NON_ASCII, "short")
    with pytest.raises(IndexError):
        view[len(TEXTS)]
    with pytest.raises(ValueError):
        write_to_shared_memory(space, 0, "x" * 33, memory)
    assert view[0] == ""  # the refused text wrote nothing


def test_a_shared_text_row_costs_its_length_and_a_corrupt_row_is_an_error():
    space = UnicodeText(1 << 20)
    memory = create_shared_memory(space, n=1, ctx=mp)
    view = read_from_shared_memory(space, memory, n=1)
    codes = np.frombuffer(memory.get_obj(), dtype=np.int32)
    codes[5:] = 7  # garbage past the string: a row is read only to its stated length
    write_to_shared_memory(space, 0, NON_ASCII, memory)
    assert view[0] == NON_ASCII and codes[0] == len(NON_ASCII)
    assert (codes[1 + len(NON_ASCII):] == 7).all()  # the write did not touch the rest
    codes[0] = (1 << 20) + 1  # a length the row cannot hold
    with pytest.raises(ValueError, match="claims"):
        view[0]


def test_shared_texts_copy_as_tuples():
    space = UnicodeText(32)
    memory = create_shared_memory(space, n=2, ctx=mp)
    view = read_from_shared_memory(space, memory, n=2)
    write_to_shared_memory(space, 0, NON_ASCII, memory)
    for snapshot in (copy.copy(view), copy.deepcopy(view), pickle.loads(pickle.dumps(view))):
        assert snapshot == (NON_ASCII, "") and type(snapshot) is tuple
    snapshot = copy.deepcopy(view)
    write_to_shared_memory(space, 0, "changed", memory)
    assert snapshot == (NON_ASCII, "") and view == ("changed", "")
    assert view != ["changed", ""] and view != "changed"  # equal to tuples only
    assert "changed" in repr(view)
    with pytest.raises(TypeError):
        hash(view)


def test_observation_dict_round_trips_through_shared_memory():
    space = observation_space(SHOT, "all")
    memory = create_shared_memory(space, n=2, ctx=mp)
    view = read_from_shared_memory(space, memory, n=2)
    shot = np.arange(SHOT[0] * SHOT[1] * 3, dtype=np.uint8).reshape(SHOT[1], SHOT[0], 3)
    obs = [{"screenshot": shot, "a11y": "<hierarchy>é</hierarchy>", "goal": NON_ASCII},
           {"screenshot": shot[::-1].copy(), "a11y": "<hierarchy/>", "goal": "x" * MAX_TEXT}]
    for i, o in enumerate(obs):
        write_to_shared_memory(space, i, o, memory)
    got = copy.deepcopy(view)
    assert got["a11y"] == tuple(o["a11y"] for o in obs)
    assert got["goal"] == tuple(o["goal"] for o in obs)
    assert np.array_equal(got["screenshot"], np.stack([o["screenshot"] for o in obs]))
    assert space.contains({k: v[1] for k, v in got.items()})
