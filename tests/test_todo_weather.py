"""What is special about the To-do (Tasks) and Weather apps: swipe-to-delete removes exactly
the swiped task, sorting and the editor write what they show, the unit switch converts every
temperature on screen consistently, a city added through the search suggestions lands in
``weather/cities``, the forecast is a function of city and day, and bad fixture input is
refused without losing anything."""

from __future__ import annotations

import copy
import re

import pytest

from phoneworld_gym.apps.todo import store as ts
from phoneworld_gym.apps.weather import store as ws
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import elements, find, scroll_to, tap, text_of, type_into
from phoneworld_gym.phone import PhoneWorldDevice


def _open(apps: list[str], label: str, seed: int = 1) -> PhoneWorldDevice:
    d = PhoneWorldDevice(apps)
    d.reset(seed=seed)
    assert d.execute(Action("open_app", app_name=label)) == ""
    return d


def _do(d: PhoneWorldDevice, a: Action) -> None:
    assert d.execute(a) == "", a


# -- To-do -------------------------------------------------------------------------------------
def test_swipe_removes_exactly_the_swiped_task() -> None:
    d = _open(["todo"], "Tasks")
    before = d.probe.query("todo/tasks")
    rows = [e for e in elements(d) if (e.resource_id or "").endswith("/task_row")]
    target = rows[1].content_description
    i = find(d, desc=target, rid="task_row")
    _do(d, Action("swipe", index=i, direction="right"))
    after = d.probe.query("todo/tasks")
    gone = [r for r in before if r not in after]
    assert [r["title"] for r in gone] == [target]
    assert len(after) == len(before) - 1
    assert find(d, desc=target, rid="task_row") is None
    # a vertical swipe on a row scrolls (here there is nothing to scroll); it deletes nothing
    i = find(d, rid="task_row")
    d.execute(Action("swipe", index=i, direction="up"))
    assert d.probe.query("todo/tasks") == after


def test_sort_by_priority_orders_the_list_and_is_saved() -> None:
    d = _open(["todo"], "Tasks", seed=2)
    _do(d, tap(d, desc="Sort"))
    _do(d, tap(d, text="Priority", rid="sheet_item_title"))
    lists = d.probe.query("todo/lists")
    assert lists[0]["sort"] == "priority" and all(r["sort"] == "my order" for r in lists[1:])
    shown = [e.content_description for e in elements(d)
             if (e.resource_id or "").endswith("/task_row")]
    prio = {r["title"]: r["priority"] for r in d.probe.query("todo/tasks")}
    assert len(shown) >= 3
    assert [prio[t] for t in shown] == sorted((prio[t] for t in shown), reverse=True)


def test_new_task_with_date_picker_and_priority_is_saved_as_shown() -> None:
    d = _open(["todo"], "Tasks")
    _do(d, tap(d, desc="Create new task"))
    _do(d, type_into(d, "Renew passport", rid="task_title_edit"))
    _do(d, tap(d, rid="due_date"))
    _do(d, tap(d, desc="Next month"))
    _do(d, tap(d, desc="Thursday, April 2, 2026"))
    _do(d, tap(d, text="OK", rid="button1"))
    assert text_of(d, rid="due_date") == "Thu, Apr 2, 2026"
    _do(d, tap(d, text="High", rid="priority_option"))
    _do(d, tap(d, text="Save", rid="save"))
    new = [r for r in d.probe.query("todo/tasks") if r["title"] == "Renew passport"]
    assert len(new) == 1
    assert (new[0]["due"], new[0]["priority"], new[0]["done"], new[0]["list_id"]) == \
        ("2026-04-02", 3, 0, 1)


def test_leaving_the_editor_without_saving_changes_nothing_and_delete_removes_one() -> None:
    d = _open(["todo"], "Tasks")
    before = d.probe.query("todo/tasks")
    title = before[0]["title"]
    _do(d, tap(d, desc=title, rid="task_row"))
    _do(d, type_into(d, "Something else", rid="task_title_edit"))
    _do(d, Action("navigate_back"))  # the keyboard
    _do(d, Action("navigate_back"))
    assert d.probe.query("todo/tasks") == before
    _do(d, tap(d, desc=title, rid="task_row"))
    _do(d, tap(d, desc="Delete task"))
    assert d.probe.query("todo/tasks") == before[1:]


def test_completed_section_counts_and_unfolds() -> None:
    d = _open(["todo"], "Tasks")
    title = text_of(d, rid="task_title")
    open_before = len([e for e in elements(d) if (e.resource_id or "").endswith("/task_row")])
    _do(d, tap(d, desc=f"Mark complete: {title}"))
    done = [r for r in d.probe.query("todo/tasks") if r["list_id"] == 1 and r["done"]]
    header = text_of(d, rid="completed_header")
    assert header == f"Completed ({len(done)})"
    rows = [e for e in elements(d) if (e.resource_id or "").endswith("/task_row")]
    assert len(rows) == open_before - 1
    _do(d, tap(d, rid="completed_header"))
    rows = [e.content_description for e in elements(d)
            if (e.resource_id or "").endswith("/task_row")]
    assert title in rows


def test_todo_fixture_rejects_bad_input_and_changes_nothing() -> None:
    d = PhoneWorldDevice(["todo"])
    d.reset(seed=0)
    st = d.world.stores["todo"]
    keep = copy.deepcopy(st)
    bad = [({"title": ""}, "title"), ({"title": "X", "list": "Nope"}, "list"),
           ({"title": "X", "due": "next week"}, "due"), ({"title": "X", "priority": 5},
                                                          "priority"),
           ({"title": "X", "starred": "yes"}, "starred"), ({"title": "X", "notes": 3}, "notes")]
    for kw, name in bad:
        with pytest.raises(ValueError, match=name):
            ts.add_task_fixture(st, **kw)
        assert st == keep
    out = ts.add_task_fixture(st, title="Buy stamps", list="Work", due="2026-03-20")
    row = [r for r in ts.task_rows(st) if r["_id"] == out["_id"]][0]
    assert (row["title"], row["list_id"], row["due"]) == ("Buy stamps", 3, "2026-03-20")


def test_todo_store_is_seeded_from_the_life() -> None:
    d = PhoneWorldDevice(["todo", "contacts"])
    d.reset(seed=4)
    firsts = {c["display_name"].split()[0] for c in d.probe.contacts()}
    titles = [r["title"] for r in d.probe.query("todo/tasks")]
    call = [t for t in titles if t.startswith("Call ")]
    gift = [t for t in titles if t.startswith("Buy gift for ")]
    assert call and call[0][5:] in firsts
    assert gift and gift[0][len("Buy gift for "):].split("'s")[0] in firsts
    assert len(set(titles)) == len(titles)


# -- Weather -----------------------------------------------------------------------------------
def _temps(d: PhoneWorldDevice) -> list[int]:
    """Every temperature on screen, texts and content-descs, in document order."""
    out: list[int] = []
    for e in elements(d):
        for s in (e.text or "", e.content_description or ""):
            out += [int(m) for m in re.findall(r"(-?\d+)°", s)]
    return out


def test_unit_switch_converts_every_shown_temperature() -> None:
    d = _open(["weather"], "Weather", seed=3)
    ws.set_units_fixture(d.world.stores["weather"], temp_unit="C", wind_unit="km/h")
    d.invalidate()
    celsius = _temps(d)
    assert len(celsius) >= 20
    for a in scroll_to(d, rid="wind"):
        _do(d, a)
    wind_c = text_of(d, rid="wind")
    _do(d, tap(d, desc="Settings"))
    _do(d, tap(d, text="Fahrenheit (°F)", rid="temperature_unit_option"))
    _do(d, tap(d, text="Miles per hour (mph)", rid="wind_unit_option"))
    assert d.probe.query("weather/settings") == [{"_id": 1, "temp_unit": "F",
                                                  "wind_unit": "mph"}]
    _do(d, Action("navigate_back"))
    kmh = int((wind_c or "").split()[0])
    assert (wind_c or "").endswith(" km/h")
    assert text_of(d, rid="wind") == f"{ws.kmh_to_mph(kmh)} mph"
    while find(d, rid="current_temp") is None:
        _do(d, Action("scroll", direction="up"))
    fahrenheit = _temps(d)
    assert fahrenheit == [ws.to_f(c) for c in celsius]


def test_city_added_through_suggestions_is_saved() -> None:
    d = _open(["weather"], "Weather", seed=0)
    before = d.probe.query("weather/cities")
    assert all(r["name"] != "Tokyo" for r in before)
    _do(d, tap(d, desc="Manage cities"))
    _do(d, type_into(d, "tok", rid="city_search"))
    offered = [e.text for e in elements(d) if (e.resource_id or "").endswith("/suggestion")]
    assert "Tokyo, Japan" in offered
    assert all("tok" in (t or "").lower() for t in offered)
    _do(d, tap(d, text="Tokyo, Japan", rid="suggestion"))
    after = d.probe.query("weather/cities")
    assert after[:len(before)] == before
    assert [{k: r[k] for k in ("name", "region", "home")} for r in after[len(before):]] == \
        [{"name": "Tokyo", "region": "Japan", "home": 0}]
    assert find(d, desc="Tokyo", rid="saved_city") is not None
    _do(d, type_into(d, "tok", rid="city_search"))  # a saved city is not offered again
    assert find(d, text="Tokyo, Japan", rid="suggestion") is None


def test_home_city_cannot_be_removed_others_can() -> None:
    d = _open(["weather"], "Weather", seed=0)
    rows = d.probe.query("weather/cities")
    home = [r for r in rows if r["home"]]
    assert len(home) == 1 and rows[0] == home[0]
    _do(d, tap(d, desc="Manage cities"))
    assert find(d, desc=f"Remove {home[0]['name']}") is None
    other = rows[1]
    _do(d, tap(d, desc=f"Remove {other['name']}", rid="remove_city"))
    assert d.probe.query("weather/cities") == [r for r in rows if r["_id"] != other["_id"]]


def test_forecast_is_a_function_of_seed_city_and_day() -> None:
    a = ws.forecast("Austin", seed=3)
    assert a == ws.forecast("Austin", seed=3)
    assert len(a) == 10 and [r["date"] for r in a][0] == "2026-03-14"
    assert all(r["low_c"] < r["high_c"] and r["high_f"] == ws.to_f(r["high_c"]) for r in a)
    assert len({(r["high_c"], r["condition"]) for r in a}) > 3  # the days differ
    assert a != ws.forecast("Duluth", seed=3) and a != ws.forecast("Austin", seed=4)


def test_forecasts_do_not_follow_real_climate() -> None:
    # a model knows Miami is warmer than Duluth in March; the drawn forecasts must not
    # let it answer without the app: over seeds, each is the warmer one about half the time
    def mean_high(city: str, seed: int) -> float:
        return sum(r["high_c"] for r in ws.forecast(city, seed=seed)) / ws.DAYS

    miami_warmer = sum(mean_high("Miami", s) > mean_high("Duluth", s) for s in range(200))
    assert 60 <= miami_warmer <= 140, miami_warmer
    levels = {ws._level("Tucson", s) for s in range(200)}
    assert min(levels) == ws.LEVELS[0] and max(levels) == ws.LEVELS[1]
    d1, d2 = PhoneWorldDevice(["weather"]), PhoneWorldDevice(["weather"])
    d1.reset(seed=0)
    d2.reset(seed=5)
    f1 = {(r["city"], r["date"]): r for r in d1.probe.query("weather/forecast")}
    f2 = {(r["city"], r["date"]): r for r in d2.probe.query("weather/forecast")}
    assert f1.keys() == f2.keys() and f1 != f2  # drawn per episode
    d2.reset(seed=0)
    assert d2.probe.query("weather/forecast") == d1.probe.query("weather/forecast")


def test_home_city_is_the_owners_town() -> None:
    from phoneworld_gym.life import generate

    for seed in (0, 7):
        d = PhoneWorldDevice(["weather"])
        d.reset(seed=seed)
        owner = generate(seed).owner
        assert owner.home is not None
        assert d.probe.query("weather/cities")[0]["name"] == owner.home.city


def test_weather_fixtures_reject_bad_input_and_change_nothing() -> None:
    d = PhoneWorldDevice(["weather"])
    d.reset(seed=0)
    st = d.world.stores["weather"]
    keep = copy.deepcopy(st)
    with pytest.raises(ValueError, match="name"):
        ws.add_city_fixture(st, name="Atlantis")
    with pytest.raises(ValueError, match="already saved"):
        ws.add_city_fixture(st, name=st["cities"][0]["name"])
    with pytest.raises(ValueError, match="temp_unit"):
        ws.set_units_fixture(st, temp_unit="K")
    with pytest.raises(ValueError, match="wind_unit"):
        ws.set_units_fixture(st, temp_unit="C", wind_unit="knots")
    assert st == keep


def test_warmest_of_is_not_won_by_knowing_the_climate() -> None:
    # naming the city with the warmest real March (the catalogue's reference high) used to
    # win WeatherWarmestOf 45 times in 60 without opening Weather; chance is 1 in 3
    from phoneworld_gym.contract import AgentReport
    from phoneworld_gym.env import PhoneEnv

    env = PhoneEnv(tasks="WeatherWarmestOf", obs_mode="a11y")
    wins = 0
    for seed in range(30):
        env.reset(seed=seed)
        task = env.task
        assert task is not None
        trio = [task.params[k] for k in "abc"]
        guess = max(trio, key=lambda c: ws.city_info(c)[2])
        wins += task.verify(env.task_device, AgentReport(status="complete", answer=guess)) == 1
    assert wins <= 15, f"the real climate names the warmest city {wins} times in 30"
