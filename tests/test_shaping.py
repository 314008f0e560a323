"""The shaped GRPO reward (phoneworld_gym.baselines.shaping): success 1.0, a failure capped
partial credit from screen progress along the oracle's path and the oracle's state change
reproduced, none of it after damage."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import gymnasium as gym
import pytest

from phoneworld_gym import Action
from phoneworld_gym.baselines.grpo import Episode
from phoneworld_gym.baselines.sampler import EnvSource, TaskSampler, close_env, make_source_env
from phoneworld_gym.baselines.shaping import (
    CAP,
    SCREEN_WEIGHT,
    Changes,
    ShapedReward,
    attach_final_state,
    build_reference,
    final_state,
    same_screen,
    screen_path,
    screen_progress,
    screen_signature,
    state_progress,
)

TASKS = ["ContactsStar", "ClockDisableAlarm", "SettingsSwitch", "MessagesDeleteThread",
         "ClockEarliestAlarm", "ContactsCountFavorites"]
SEED = 1003
DONE = Action("status", goal_status="complete")
GIVE_UP = Action("status", goal_status="infeasible")
Script = Callable[[Any], Iterable[Action]]


@pytest.fixture(scope="module")
def envs() -> Iterator[dict[str, gym.Env]]:
    made = {
        "mock": make_source_env(EnvSource("mock", "PhoneWorld/All-v0", tasks=TASKS), "train"),
        "field": make_source_env(EnvSource("field", "PhoneWorld/Device-v0", tasks=TASKS,
                                           profile="field", transport="direct"), "train"),
    }
    yield made
    for env in made.values():
        close_env(env)


@pytest.fixture
def shaped(envs: dict[str, gym.Env]) -> ShapedReward:
    return ShapedReward(lambda source: envs[source])


def play(env: gym.Env, source: str, task: str, seed: int, script: Script,
         end: Action | None = DONE, record_state: bool = True) -> Episode:
    """An episode as the GRPO loop records it: ``script(env)`` (read lazily, so an oracle
    reads the live screen) stepped until the episode ends; ``end`` if it has not."""
    obs, _ = env.reset(seed=seed, options={"task": task})
    screens = [str(obs["a11y"])]
    reward, success, over = 0.0, False, False
    for action in script(env):
        obs, reward, term, trunc, info = env.step(action)
        screens.append(str(obs["a11y"]))
        if term or trunc:
            success, over = bool(info["success"]), True
            break
    if not over and end is not None:
        obs, reward, _, _, info = env.step(end)
        screens.append(str(obs["a11y"]))
        success = bool(info["success"])
    ep = Episode(source, task, seed, steps=[], success=success, env_reward=float(reward),
                 screens=screens)
    if record_state:
        attach_final_state(ep, env)
    return ep


def oracle(env: gym.Env) -> Iterator[Action]:
    return env.unwrapped.oracle()  # type: ignore[attr-defined, no-any-return]


def moves(env: gym.Env) -> Iterator[Action]:
    """The oracle's actions without its final status or answer."""
    return itertools.takewhile(lambda a: a.action_type not in ("status", "answer"), oracle(env))


def first(k: int) -> Script:
    """The oracle's first ``k`` actions."""
    return lambda env: itertools.islice(moves(env), k)


def nothing(env: gym.Env) -> Iterable[Action]:
    return []


def oracle_length(env: gym.Env, task: str, seed: int) -> int:
    """How many actions the oracle takes before its final status or answer."""
    env.reset(seed=seed, options={"task": task})
    n = 0
    for a in moves(env):
        env.step(a)
        n += 1
    return n


# -- the shaped reward on real tasks ------------------------------------------------------------
@pytest.mark.parametrize("source", ["mock", "field"])
@pytest.mark.parametrize("task", ["ContactsStar", "ClockDisableAlarm", "SettingsSwitch"])
def test_oracle_one_nothing_zero_half_between(envs: dict[str, gym.Env], shaped: ShapedReward,
                                              source: str, task: str) -> None:
    env = envs[source]
    full = play(env, source, task, SEED, oracle)
    assert full.success and shaped(full) == 1.0
    idle = play(env, source, task, SEED, nothing)
    assert not idle.success and shaped(idle) == 0.0
    n = oracle_length(env, task, SEED)
    assert n >= 2
    half, less = play(env, source, task, SEED, first(n // 2)), \
        play(env, source, task, SEED, first(n // 2 - 1))
    assert not half.success and not less.success
    assert 0.0 < shaped(half) < 1.0
    assert shaped(half) > shaped(less)
    # a failure never reaches the cap through screens alone: the state half is missing
    assert shaped(half) <= CAP * SCREEN_WEIGHT


@pytest.mark.parametrize("source", ["mock", "field"])
def test_more_of_the_oracle_scores_more(envs: dict[str, gym.Env], shaped: ShapedReward,
                                        source: str) -> None:
    env = envs[source]
    n = oracle_length(env, "ContactsStar", SEED)
    scores = [shaped(play(env, source, "ContactsStar", SEED, first(k))) for k in range(n)]
    assert scores[0] == 0.0
    assert all(b > a for a, b in zip(scores, scores[1:])), scores
    assert scores[-1] < 1.0


@pytest.mark.parametrize("task", ["ContactsStar", "ClockDisableAlarm", "MessagesDeleteThread"])
def test_the_state_change_done_earns_state_credit(envs: dict[str, gym.Env],
                                                  shaped: ShapedReward, task: str) -> None:
    """Every change of the oracle made, then a give-up: the verifier says 0, the shaped
    reward gives full screen and state credit (the cap), above any shorter attempt."""
    env = envs["mock"]
    ep = play(env, "mock", task, SEED, moves, end=GIVE_UP)
    assert not ep.success and ep.env_reward == 0.0
    s = shaped.score(ep)
    assert (s.screen, s.state, s.damage) == (1.0, 1.0, ())
    assert s.reward == pytest.approx(CAP)
    n = oracle_length(env, task, SEED)
    assert shaped(play(env, "mock", task, SEED, first(n - 1))) < s.reward


def other_contact_star(env: gym.Env) -> Iterator[Action]:
    """Star a second contact (one not starred, not the task's) with the task's own oracle."""
    base = env.unwrapped
    task = base.task  # type: ignore[attr-defined]
    other = next(r for r in task.before("contacts")
                 if not r["starred"] and r["_id"] != task.params["id"])
    twin = type(task)({"name": other["display_name"], "id": int(other["_id"])})
    return itertools.takewhile(lambda a: a.action_type != "status",
                               twin.oracle(base.task_device))  # type: ignore[attr-defined]


def test_damage_gets_no_state_credit(envs: dict[str, gym.Env], shaped: ShapedReward) -> None:
    env = envs["mock"]
    right = play(env, "mock", "ContactsStar", SEED, moves, end=GIVE_UP)
    both = play(env, "mock", "ContactsStar", SEED,
                lambda e: itertools.chain(moves(e), other_contact_star(e)))
    assert not both.success
    s = shaped.score(both)
    assert s.damage and "starred" in s.damage[0]
    assert s.state == 0.0 and s.screen == 1.0
    assert s.reward < shaped(right) == pytest.approx(CAP)
    # the near miss (only someone else starred) is no better than doing nothing in state
    wrong = play(env, "mock", "ContactsStar", SEED, other_contact_star)
    sw = shaped.score(wrong)
    assert sw.damage and sw.state == 0.0 and sw.reward <= CAP * SCREEN_WEIGHT


@pytest.mark.parametrize("source", ["mock", "field"])
@pytest.mark.parametrize("task,wrong", [("ClockEarliestAlarm", "11:59 PM"),
                                        ("ContactsCountFavorites", "97")])
def test_a_wrong_answer_scores_below_one(envs: dict[str, gym.Env], shaped: ShapedReward,
                                         source: str, task: str, wrong: str) -> None:
    env = envs[source]
    ep = play(env, source, task, SEED, moves, end=Action("answer", text=wrong))
    assert not ep.success
    s = shaped.score(ep)
    assert 0.0 <= s.reward < 1.0
    assert s.reward <= CAP * SCREEN_WEIGHT
    if s.reference is not None and s.reference.success:  # the right screen was reached
        assert s.screen == 1.0 and s.reward == pytest.approx(CAP * SCREEN_WEIGHT)
    idle = play(env, source, task, SEED, nothing, end=Action("answer", text=wrong))
    assert shaped(idle) == 0.0


def test_information_retrieval_damage_is_not_credited(envs: dict[str, gym.Env],
                                                      shaped: ShapedReward) -> None:
    """On a task that changes nothing, an episode that changed the phone gets no state
    credit and reports the damage."""
    env = envs["mock"]

    def star_someone(e: gym.Env) -> Iterator[Action]:
        task = e.unwrapped.task  # type: ignore[attr-defined]
        row = next(r for r in task.before("contacts") if not r["starred"])
        from phoneworld_gym.task import get_task

        star = get_task("ContactsStar")({"name": row["display_name"], "id": int(row["_id"])})
        yield from itertools.takewhile(lambda a: a.action_type != "status",
                                       star.oracle(e.unwrapped.task_device))  # type: ignore[attr-defined]

    ep = play(env, "mock", "ContactsCountFavorites", SEED, star_someone,
              end=Action("answer", text="97"))
    s = shaped.score(ep)
    assert s.damage and s.state == 0.0 and s.reward <= CAP * SCREEN_WEIGHT


def test_reference_is_cached_per_instance(envs: dict[str, gym.Env]) -> None:
    env = envs["mock"]
    reward = ShapedReward(lambda source: env)
    eps = [play(env, "mock", "ContactsStar", SEED, first(k)) for k in (0, 1, 2)]
    scores = [reward(ep) for ep in eps]
    assert reward.builds == 1
    assert [reward(ep) for ep in eps] == scores and reward.builds == 1
    reward(play(env, "mock", "ContactsStar", SEED + 1, first(1)))
    assert reward.builds == 2
    again = ShapedReward(lambda source: env)  # deterministic: a fresh reward agrees
    assert [again(ep) for ep in eps] == scores


def test_cache_size_bounds_the_references(envs: dict[str, gym.Env]) -> None:
    env = envs["mock"]
    reward = ShapedReward(lambda source: env, cache_size=1)
    a = play(env, "mock", "ClockDisableAlarm", SEED, nothing)
    b = play(env, "mock", "ClockDisableAlarm", SEED + 1, nothing)
    reward(a), reward(b), reward(a)
    assert reward.builds == 3


def test_without_an_end_state_screens_alone(envs: dict[str, gym.Env],
                                            shaped: ShapedReward) -> None:
    env = envs["mock"]
    ep = play(env, "mock", "ContactsStar", SEED, moves, end=GIVE_UP, record_state=False)
    assert getattr(ep, "final_state", None) is None  # no end state recorded
    s = shaped.score(ep)
    assert s.state is None and s.screen == 1.0
    assert s.reward == pytest.approx(CAP * SCREEN_WEIGHT)


def test_a_failed_oracle_gives_screens_only(envs: dict[str, gym.Env],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the oracle does not solve the instance, its state change is not trusted."""
    from phoneworld_gym.task import get_task

    cls = get_task("ClockDisableAlarm")
    env = envs["mock"]
    ep = play(env, "mock", "ClockDisableAlarm", SEED, moves, end=GIVE_UP)

    def broken(self: Any, device: Any) -> Iterator[Action]:
        yield Action("open_app", app_name="Clock")
        yield DONE

    monkeypatch.setattr(cls, "oracle", broken)
    ref = build_reference(env, "ClockDisableAlarm", SEED)
    assert not ref.success and not ref.state_known and "failed" in ref.error
    s = ShapedReward(lambda source: env).score(ep)
    assert s.state is None and s.reward == pytest.approx(CAP * SCREEN_WEIGHT)


def test_reference_records_the_oracle_and_its_second_path(envs: dict[str, gym.Env]) -> None:
    env = envs["mock"]
    ref = build_reference(env, "ContactsStar", SEED)
    assert ref.success and ref.state_known
    assert len(ref.paths) == 2  # search, and browsing the list (oracle_alt)
    assert ref.paths[0][-1].package == "com.phoneworld.contacts"
    assert ref.changes is not None and list(ref.changes.cells) == [
        ("contacts", env.unwrapped.task.params["id"], "starred")]  # type: ignore[attr-defined]
    only = build_reference(env, "ContactsStar", SEED, alt=False)
    assert len(only.paths) == 1 and only.paths[0] == ref.paths[0]


def test_final_state_after_a_capped_episode(envs: dict[str, gym.Env]) -> None:
    """An episode cut by the loop's step cap (the env never ended it) still has an end
    state: read from the phone."""
    env = envs["mock"]
    ep = play(env, "mock", "ClockDisableAlarm", SEED, moves, end=None)
    assert not env.unwrapped.done  # type: ignore[attr-defined]
    got = ep.final_state  # type: ignore[attr-defined]
    assert isinstance(got, Changes) and got.units == 1
    assert [c[2] for c in got.cells] == ["enabled"]


def test_final_state_is_none_without_a_probe() -> None:
    class Bare:
        unwrapped = None

    assert final_state(Bare()) is None

    class Broken:
        class unwrapped:  # noqa: N801
            done = False

            class task:  # noqa: N801
                baseline: dict[str, Any] = {}
                diff = None

                @staticmethod
                def ignored_view(device: Any) -> dict[str, Any]:
                    return {}

            class task_device:  # noqa: N801
                class probe:  # noqa: N801
                    @staticmethod
                    def snapshot() -> Any:
                        raise NotImplementedError("no probe on this phone")

    assert final_state(Broken()) is None


# -- the sources a reward reads -----------------------------------------------------------------
def test_reward_from_a_sampler_and_from_sources() -> None:
    src = EnvSource("mock", "PhoneWorld/All-v0", tasks=["ClockDisableAlarm"])
    sampler = TaskSampler([src], seed=0, seeds=[SEED])
    try:
        env = sampler.env("mock")
        ep = play(env, "mock", "ClockDisableAlarm", SEED, first(1))
        from_sampler = ShapedReward(sampler)
        own = ShapedReward({"mock": src})
        try:
            assert from_sampler(ep) == own(ep) > 0.0
            with pytest.raises(ValueError, match="no env source 'nowhere'"):
                own.reference("nowhere", "ClockDisableAlarm", SEED)
        finally:
            own.close()
    finally:
        sampler.close()


@pytest.mark.parametrize("kwargs,match", [({"cap": 1.0}, "cap"), ({"cap": -0.1}, "cap"),
                                          ({"screen_weight": 1.5}, "screen_weight"),
                                          ({"similarity": 0.0}, "similarity"),
                                          ({"cache_size": 0}, "cache_size")])
def test_bad_settings(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ShapedReward(lambda s: None, **kwargs)


def test_bad_envs() -> None:
    with pytest.raises(ValueError, match="TaskSampler"):
        ShapedReward(42)


# -- screens ------------------------------------------------------------------------------------
def node(rid: str = "", text: str = "", pkg: str = "com.app", kids: str = "") -> str:
    return (f'<node text="{text}" resource-id="{pkg}:id/{rid}" package="{pkg}" '
            f'bounds="[0,0][1,1]">{kids}</node>' if rid else
            f'<node text="{text}" resource-id="" package="{pkg}" bounds="[0,0][1,1]">'
            f'{kids}</node>')


def tree(*rids: str, pkg: str = "com.app", text: str = "") -> str:
    return "<hierarchy>" + node(kids="".join(node(r, text, pkg) for r in rids), pkg=pkg) + \
        "</hierarchy>"


def test_signature_ignores_text_and_counts() -> None:
    a = screen_signature(tree("title", "row", "row", text="Alice"))
    b = screen_signature(tree("title", "row", text="Bob"))
    assert a == b and a is not None
    assert a.package == "com.app" and a.ids == frozenset({"title", "row"})
    assert screen_signature(tree("title", pkg="com.other")) != a
    assert screen_signature("<hierarchy><node") is None
    assert screen_signature("<hierarchy/>") is None


def test_same_screen_by_overlap() -> None:
    a = screen_signature(tree("a", "b", "c", "d", "e"))
    b = screen_signature(tree("a", "b", "c", "d"))  # one id fewer (a header scrolled away)
    c = screen_signature(tree("a", "x", "y", "z"))
    assert same_screen(a, b) and not same_screen(a, c)
    assert not same_screen(a, screen_signature(tree("a", "b", "c", "d", "e", pkg="com.x")))
    assert not same_screen(a, None)
    assert same_screen(a, b, similarity=0.8) and not same_screen(a, b, similarity=0.9)


def test_screen_progress_in_order() -> None:
    home, lst, detail, edit = tree("home"), tree("list"), tree("detail"), tree("edit")
    path = screen_path([home, home, lst, lst, detail, edit])
    assert [sorted(s.ids) for s in path] == [["list"], ["detail"], ["edit"]]
    assert screen_progress([home], path) == 0.0
    assert screen_progress([home, lst], path) == pytest.approx(1 / 3)
    assert screen_progress([home, lst, tree("other"), detail], path) == pytest.approx(2 / 3)
    assert screen_progress([home, detail, edit], path) == 0.0  # out of order: nothing
    assert screen_progress([home, lst, detail, edit, home], path) == 1.0
    assert screen_progress([home, lst], []) == 0.0


def test_staying_on_a_screen_does_not_walk_similar_screens() -> None:
    home = tree("home")
    full, fewer = tree("a", "b", "c", "d", "e"), tree("a", "b", "c", "d")
    path = screen_path([home, full, fewer])
    assert len(path) == 2
    assert screen_progress([home, full, full, full], path) == 0.5
    assert screen_progress([home, full, fewer], path) == 1.0


# -- state --------------------------------------------------------------------------------------
def snap(**tables: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    return {k.replace("__", "/"): v for k, v in tables.items()}


BEFORE = snap(alarms=[{"_id": 1, "hour": 6, "minutes": 0, "label": "", "enabled": 1,
                       "days": ""},
                      {"_id": 2, "hour": 7, "minutes": 30, "label": "Gym", "enabled": 1,
                       "days": ""}],
              sms=[{"_id": 1, "address": "555", "body": "hi", "date": 1, "type": 1,
                    "read": 0}],
              shopping__cart=[{"_id": "a", "qty": 1}, {"_id": "b", "qty": 2}])


def after(**edits: Any) -> dict[str, list[dict[str, Any]]]:
    import copy

    out = copy.deepcopy(BEFORE)
    for name, fn in edits.items():
        fn(out[name.replace("__", "/")])
    return out


def changes(state: dict[str, list[dict[str, Any]]]) -> Changes:
    return Changes.between(BEFORE, state, {"sms": ("read",)})


def test_changed_cells_count_at_the_right_value() -> None:
    want = changes(after(alarms=lambda t: t[0].update(enabled=0, label="Up")))
    assert want.units == 2
    assert state_progress(want, want).progress == 1.0
    half = changes(after(alarms=lambda t: t[0].update(enabled=0)))
    assert state_progress(half, want) == state_progress(half, want)
    assert state_progress(half, want).progress == 0.5 and not state_progress(half, want).damage
    wrong = changes(after(alarms=lambda t: t[0].update(label="Down")))  # the cell, wrong value
    s = state_progress(wrong, want)
    assert s.progress == 0.0 and not s.damage
    folded = changes(after(alarms=lambda t: t[0].update(enabled=0, label="up.")))
    assert state_progress(folded, want).progress == 1.0  # text read as a person reads it


def test_damage_is_any_change_the_oracle_did_not_touch() -> None:
    want = changes(after(alarms=lambda t: t[0].update(enabled=0)))
    other_row = changes(after(alarms=lambda t: (t[0].update(enabled=0),
                                                t[1].update(enabled=0))))
    s = state_progress(other_row, want)
    assert s.progress == 1.0 and s.damage == ("alarms: row 2 column 'enabled' changed",)
    other_table = changes(after(alarms=lambda t: t[0].update(enabled=0),
                                shopping__cart=lambda t: t.pop()))
    assert state_progress(other_table, want).damage == ("shopping/cart: row 'b' removed",)
    reordered = changes(after(alarms=lambda t: t[0].update(enabled=0),
                              shopping__cart=lambda t: t.reverse()))
    assert state_progress(reordered, want).damage == ("shopping/cart: rows reordered",)
    looked = changes(after(alarms=lambda t: t[0].update(enabled=0),
                           sms=lambda t: t[0].update(read=1)))  # view state: not damage
    assert looked == want and not state_progress(looked, want).damage


def test_added_rows_credit_the_share_of_columns() -> None:
    new = {"_id": 3, "hour": 8, "minutes": 15, "label": "Meds", "enabled": 1, "days": ""}
    want = changes(after(alarms=lambda t: t.append(dict(new))))
    assert want.units == 1
    same_other_id = changes(after(alarms=lambda t: t.append({**new, "_id": 9})))
    assert state_progress(same_other_id, want).progress == 1.0
    wrong_minutes = changes(after(alarms=lambda t: t.append({**new, "_id": 9, "minutes": 0})))
    s = state_progress(wrong_minutes, want)
    assert s.progress == pytest.approx(4 / 5) and not s.damage  # 4 of hour..days
    two = changes(after(alarms=lambda t: t.extend([{**new, "_id": 9}, {**new, "_id": 10}])))
    s = state_progress(two, want)
    assert s.progress == 1.0 and s.damage == ("alarms: 2 rows added, the oracle added 1",)


def test_removed_rows_and_reorders() -> None:
    want = changes(after(shopping__cart=lambda t: t.pop(0)))
    assert state_progress(want, want).progress == 1.0
    assert state_progress(changes(after()), want).progress == 0.0
    wrong = changes(after(shopping__cart=lambda t: t.pop()))
    s = state_progress(wrong, want)
    assert s.progress == 0.0 and s.damage == ("shopping/cart: row 'b' removed",)
    order = changes(after(shopping__cart=lambda t: t.reverse()))
    assert order.reordered == {"shopping/cart": ("b", "a")}
    assert state_progress(order, order).progress == 1.0


def test_no_change_wanted() -> None:
    nothing_wanted = changes(after())
    assert nothing_wanted.empty
    assert state_progress(nothing_wanted, nothing_wanted).progress == 1.0
    some = changes(after(alarms=lambda t: t[1].update(enabled=0)))
    s = state_progress(some, nothing_wanted)
    assert s.progress == 0.0 and s.damage
