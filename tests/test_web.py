"""The browser pages: play and record (``phoneworld play --web``) and judge
(``phoneworld judge``).

API paths go through FastAPI's TestClient. The browser tests drive the pages in headless
Chromium (Debian's ``chromium`` and ``chromium-driver``, which ``.ci/run`` installs) with
Selenium; they skip, saying why, only when those are missing. Each page is served by uvicorn
in a thread on a free loopback port. A screenshot of each page is saved under
``out/test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

import uvicorn  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from phoneworld_gym import Action  # noqa: E402
from phoneworld_gym.baselines.collect import collect  # noqa: E402
from phoneworld_gym.baselines.data import load, manifest  # noqa: E402
from phoneworld_gym.contract import parse_ui_elements  # noqa: E402
from phoneworld_gym.virtual.adb_server import free_port  # noqa: E402
from phoneworld_gym.web import make_judge_app, make_play_app  # noqa: E402
from phoneworld_gym.web.judging import (  # noqa: E402
    cohen_kappa,
    judgment_file,
    judgments_report,
    read_judgments,
    record_judgment,
)

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ARTIFACTS = Path(__file__).resolve().parents[1] / "out" / "test-artifacts"
SIZE = (540, 1200)
#: a short Shopping task: open the app, search, open the product, wishlist it, complete
SHOP_TASK = "ShoppingWishlistAdd"


# -- helpers ---------------------------------------------------------------------------------
def oracle_script(task: str, seed: int) -> list[tuple[Action, list[str]]]:
    """The oracle's actions for ``task`` at ``seed``, each with the element labels of the
    screen it was taken on (to check that the browser shows the same screen)."""
    env = gymnasium.make("PhoneWorld/All-v0", obs_mode="a11y")
    try:
        obs, _ = env.reset(seed=seed, options={"task": task})
        out = []
        for action in env.unwrapped.oracle():  # type: ignore[attr-defined]
            out.append((action, [e.describe() for e in parse_ui_elements(obs["a11y"])]))
            obs, _, term, trunc, info = env.step(action)
            if term or trunc:
                break
        assert info["success"], f"the oracle of {task} seed {seed} fails"
        return out
    finally:
        env.close()


@contextlib.contextmanager
def served(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on a free loopback port; its URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def play_api(client: TestClient) -> str:
    """A new play session's id."""
    r = client.post("/api/sessions")
    assert r.status_code == 200, r.text
    return str(r.json()["session"])


# -- the play page's API ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def play_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    record = tmp_path_factory.mktemp("human")
    app = make_play_app("PhoneWorld/All-v0", task=SHOP_TASK, record_dir=record,
                        env_kwargs={"screenshot_size": (270, 600)})
    with TestClient(app) as client:
        yield client, record


def test_play_api_refuses_bad_requests_with_clear_errors(
        play_client: tuple[TestClient, Path]) -> None:
    client, _ = play_client
    sid = play_api(client)
    cases: list[tuple[str, str, Any, int, str]] = [
        ("post", f"/api/sessions/{sid}/act", {"action": {"action_type": "wait"}}, 409,
         "no episode yet"),
        ("post", "/api/sessions/nope/reset", {"task": SHOP_TASK}, 404, "no session 'nope'"),
        ("post", f"/api/sessions/{sid}/reset", {"task": "ShoppingWishlistAd"}, 422,
         "did you mean ShoppingWishlistAdd"),
        ("post", f"/api/sessions/{sid}/reset", {"task": SHOP_TASK, "seed": -1}, 422,
         "seed must be an int >= 0"),
        ("post", f"/api/sessions/{sid}/reset", {"seed": 0}, 422, "task: Field required"),
        ("get", f"/api/sessions/{sid}/screen.png", None, 404, "no screen yet"),
        ("get", "/api/nothing-here", None, 404, "Not Found"),
    ]
    for method, path, body, status, text in cases:
        r = getattr(client, method)(path, **({"json": body} if body is not None else {}))
        assert r.status_code == status, (path, body, r.text)
        assert text in r.json()["error"], (path, body, r.json())
    assert client.post(f"/api/sessions/{sid}/reset",
                       json={"task": SHOP_TASK, "seed": 0}).status_code == 200
    for body, text in [({"action": {"action_type": "tap"}}, "unknown action_type 'tap'"),
                       ({"action": {"action_type": "click", "x": 5000, "y": 1}},
                        "off the screen"),
                       ({"action": {"action_type": "click", "index": 1, "x": 1, "y": 1}},
                        "never both"),
                       ({"action": "click"}, "action: Input should be a valid dictionary"),
                       ({}, "action: Field required")]:
        r = client.post(f"/api/sessions/{sid}/act", json=body)
        assert r.status_code == 422 and text in r.json()["error"], (body, r.text)
    r = client.post(f"/api/sessions/{sid}/act", content=b"{not json",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "error" in r.json()
    # a meaningless action is a step with its error sentence, not a failure of the request
    r = client.post(f"/api/sessions/{sid}/act", json={"action": {"action_type": "keyboard_enter"}})
    assert r.status_code == 200 and "no text field has focus" in r.json()["action_error"]
    assert r.json()["log"][-1]["action_error"] == r.json()["action_error"]


def test_play_api_records_the_episode_as_played(play_client: tuple[TestClient, Path]) -> None:
    client, record = play_client
    sid = play_api(client)
    state = client.post(f"/api/sessions/{sid}/reset", json={"task": SHOP_TASK, "seed": 0}).json()
    assert state["phase"] == "waiting" and state["steps"] == 0 and state["goal"]
    assert state["elements"] and all(len(e["bounds"]) == 4 for e in state["elements"])
    png = client.get(f"/api/sessions/{sid}/screen.png")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    assert client.get(f"/api/sessions/{sid}/tree").text.startswith("<?xml") or \
        "<hierarchy" in client.get(f"/api/sessions/{sid}/tree").text
    sent = [a.to_json() for a, _ in oracle_script(SHOP_TASK, 0)]
    sent.append({"action_type": "status", "goal_status": "complete"})
    for i, action in enumerate(sent):
        state = client.post(f"/api/sessions/{sid}/act", json={"action": action}).json()
        assert state["steps"] == i + 1, state
        if state["done"]:
            break
    assert state["done"] and state["success"] is True and state["reward"] == 1.0, state
    assert state["recorded"]["rows"] == len(state["log"])
    r = client.post(f"/api/sessions/{sid}/act", json={"action": {"action_type": "wait"}})
    assert r.status_code == 409 and "the episode is over" in r.json()["error"]

    rows = load(record)
    done = [json.loads(a) for a in rows["action"]]
    assert done == [row["action"] for row in state["log"]] == sent[:len(done)]
    assert set(rows["source"]) == {"human"} and set(rows["agent"]) == {"human"}
    assert rows["step"] == list(range(len(done)))
    assert rows["success"][-1] is True and rows["reward"][-1] == 1.0 and rows["done"][-1]
    assert all(s is not None for s in rows["screenshot"])
    entry = manifest(record)[0]
    assert entry["key"]["source"] == "human" and entry["success"] is True

    # the same task and seed again: played, but said and left unrecorded (the key exists)
    state = client.post(f"/api/sessions/{sid}/reset", json={"task": SHOP_TASK, "seed": 0}).json()
    assert "already holds" in state["record_note"]
    state = client.post(f"/api/sessions/{sid}/act", json={
        "action": {"action_type": "status", "goal_status": "infeasible"}}).json()
    assert state["done"] and state["success"] is False and state["failure"]
    assert state["recorded"] is None and len(manifest(record)) == 1
    # an episode abandoned by a reset is not recorded
    client.post(f"/api/sessions/{sid}/reset", json={"task": SHOP_TASK, "seed": 1})
    client.post(f"/api/sessions/{sid}/act", json={"action": {"action_type": "navigate_home"}})
    client.post(f"/api/sessions/{sid}/reset", json={"task": SHOP_TASK, "seed": 2})
    assert len(manifest(record)) == 1


def test_play_sessions_share_envs_one_page_per_phone() -> None:
    made: list[gymnasium.Env] = []

    def factory() -> tuple[gymnasium.Env, None]:
        made.append(gymnasium.make("PhoneWorld/All-v0", tasks=["ContactsStar"],
                                   screenshot_size=(108, 240)))
        return made[-1], None

    app = make_play_app("PhoneWorld/All-v0", env_factory=factory, max_sessions=1)
    with TestClient(app) as client:
        first = play_api(client)
        assert client.post(f"/api/sessions/{first}/reset",
                           json={"task": "ContactsStar"}).status_code == 200
        second = play_api(client)  # one page at a time: it takes the first page's env
        r = client.post(f"/api/sessions/{first}/act", json={"action": {"action_type": "wait"}})
        assert r.status_code == 404 and "reload the page" in r.json()["error"]
        assert client.delete(f"/api/sessions/{second}").json() == {"closed": True}
        third = play_api(client)  # a reload: the env is kept for the next page
        assert client.post(f"/api/sessions/{third}/reset",
                           json={"task": "ContactsStar"}).json()["phase"] == "waiting"
        assert client.get("/api/config").json()["tasks"] == ["ContactsStar"]
    assert len(made) == 1


def test_play_app_refuses_a_record_folder_without_screenshots(tmp_path: Path) -> None:
    collect("PhoneWorld/All-v0", "oracle", ["ContactsStar"], [0], tmp_path / "plain")
    with pytest.raises(ValueError, match="without screenshots"):
        make_play_app(record_dir=tmp_path / "plain")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not a trajectory dataset"):
        make_play_app(record_dir=tmp_path / "other")
    with pytest.raises(ValueError, match="did you mean ShoppingWishlistAdd"):
        make_play_app(task="ShoppingWishlistAd")


# -- judgments -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder with three episodes and screenshots: two oracle successes and a
    random failure."""
    out = tmp_path_factory.mktemp("results") / "eval"
    collect("PhoneWorld/All-v0", "oracle", ["ContactsStar", "ShoppingCartCount"], [0], out,
            screenshots=True, screenshot_size=(270, 600))
    collect("PhoneWorld/All-v0", "random", ["ShoppingCartCount"], [0], out,
            screenshots=True, screenshot_size=(270, 600), max_steps=3)
    assert len(manifest(out)) == 3
    return out


def fresh(results: Path, tmp_path: Path) -> Path:
    """A copy of the results folder without judgments."""
    copy = tmp_path / "eval"
    shutil.copytree(results, copy, ignore=shutil.ignore_patterns("judgments"))
    return copy


def test_cohen_kappa_by_hand() -> None:
    a = [True, True, False, False, True, False]
    b = [True, False, False, False, True, True]
    p_o = 4 / 6
    p_e = (3 / 6) * (3 / 6) + (3 / 6) * (3 / 6)
    assert cohen_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e))
    assert cohen_kappa(a, a) == pytest.approx(1.0)
    assert cohen_kappa([True, False], [False, True]) == pytest.approx(-1.0)
    assert math.isnan(cohen_kappa([True, True], [True, True]))
    with pytest.raises(ValueError, match="same episodes"):
        cohen_kappa([True], [True, False])


def test_judgments_persist_last_wins_and_report(results: Path, tmp_path: Path) -> None:
    res = fresh(results, tmp_path)
    ids = [e["episode_id"] for e in manifest(res)]
    record_judgment(res, "alice", ids[0], False, "first thought")
    record_judgment(res, "alice", ids[0], True, "  changed my mind ")
    record_judgment(res, "alice", ids[2], False, "gave a wrong answer")
    with open(judgment_file(res, "alice"), "a") as f:
        f.write('{"episode_id": "torn')  # a crash mid-write
    record_judgment(res, "alice", ids[1], True)  # starts a line of its own
    record_judgment(res, "bob", ids[0], True)
    record_judgment(res, "bob", ids[1], False)
    record_judgment(res, "bob", ids[2], False)
    mine = read_judgments(res, "alice")
    assert {e: (j.success, j.reason) for e, j in mine.items()} == {
        ids[0]: (True, "changed my mind"), ids[1]: (True, ""),
        ids[2]: (False, "gave a wrong answer")}
    lines = judgment_file(res, "alice").read_text().splitlines()
    assert len(lines) == 5 and lines[3].startswith('{"episode_id": "torn')
    with pytest.raises(ValueError, match="judge's name"):
        record_judgment(res, "../evil", ids[0], True)
    report = judgments_report(res)
    # by hand: alice T T F, bob T F F -> p_o 2/3, p_e 2/3*1/3 + 1/3*2/3 = 4/9, kappa 0.4
    (pair,) = report["pairs"]
    assert pair["judges"] == ["alice", "bob"] and pair["n"] == 3
    assert pair["agreement"] == pytest.approx(2 / 3) and pair["kappa"] == pytest.approx(0.4)
    a = report["judges"]["alice"]
    assert (a["n"], a["success"]) == (3, 2)
    assert a["by_category"]["information-retrieval"]["n"] == 2
    assert a["agrees_with_verifier"] == {"n": 3, "agree": 3, "rate": 1.0}


def test_judge_api_bad_requests(results: Path, tmp_path: Path) -> None:
    res = fresh(results, tmp_path)
    eid = manifest(res)[0]["episode_id"]
    client = TestClient(make_judge_app(res, judge="alice"))
    for body, status, text in [
            ({"episode_id": eid, "judge": "alice", "success": "yes"}, 422, "success"),
            ({"episode_id": "nope", "judge": "alice", "success": True}, 404, "no episode"),
            ({"episode_id": eid, "judge": "a/b", "success": True}, 422, "judge's name"),
            ({"episode_id": eid, "success": True}, 422, "judge: Field required")]:
        r = client.post("/api/judgments", json=body)
        assert r.status_code == status and text in r.json()["error"], (body, r.text)
    assert client.get(f"/api/episodes/{eid}/steps/99/tree").status_code == 404
    assert client.get("/api/episodes/nope").status_code == 404
    ep = client.get(f"/api/episodes/{eid}").json()
    assert ep["goal"] and ep["steps"][0]["action"]["action_type"] == "open_app"
    assert client.get(f"/api/episodes/{eid}/steps/0/screen.png").content[:4] == b"\x89PNG"
    assert not (res / "judgments").exists()
    with pytest.raises(ValueError, match="not a results folder"):
        make_judge_app(tmp_path)


# -- in headless Chromium --------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        pytest.skip(f"needs {' and '.join(missing)} (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, script: str, timeout: float = 60) -> Any:
    """Wait until the JavaScript expression ``script`` is truthy; its value."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script(f"return {script}"))


def save_artifact(driver: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    driver.save_screenshot(str(path))
    print(f"saved {path}")
    return path


class PagePlayer:
    """Plays oracle actions on the play page as a person would: taps on the screenshot at
    the element's centre, the text box, the buttons."""

    def __init__(self, driver: Any) -> None:
        self.d = driver
        #: (action type, the device point aimed at or None, text or None) per step
        self.intended: list[tuple[str, tuple[float, float] | None, str | None]] = []

    def ready(self) -> dict[str, Any]:
        wait_for(self.d, "window.pw && pw.state && pw.state.phase && !pw.busy && "
                         "document.getElementById('screen').complete")
        return dict(self.d.execute_script("return pw.state"))

    def _step(self, before: int) -> None:
        wait_for(self.d, f"!pw.busy && pw.state.log.length > {before}")

    def tap(self, index: int, labels: list[str]) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        state = self.ready()
        el = state["elements"][index]
        assert el["label"] == labels[index], (index, el, labels[index])
        x1, y1, x2, y2 = el["bounds"]
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        img = self.d.find_element(By.ID, "screen")
        w, h = img.size["width"], img.size["height"]
        dx, dy = round(cx * w / 1080 - w / 2), round(cy * h / 2400 - h / 2)
        ActionChains(self.d).move_to_element_with_offset(img, dx, dy).click().perform()
        self._step(len(state["log"]))
        self.intended.append(("click", (cx, cy), None))

    def button(self, button_id: str, kind: str, text: str | None = None,
               field: str | None = None, select: str | None = None) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        state = self.ready()
        if field is not None:
            box = self.d.find_element(By.ID, field)
            box.clear()
            box.send_keys(text)
        if select is not None:
            Select(self.d.find_element(By.ID, "app-select")).select_by_visible_text(select)
        self.d.find_element(By.ID, button_id).click()
        self._step(len(state["log"]))
        self.intended.append((kind, None, text if text is not None else select))

    def play(self, script: list[tuple[Action, list[str]]]) -> dict[str, Any]:
        for action, labels in script:
            t = action.action_type
            if t == "open_app":
                self.button("open-btn", "open_app", select=action.app_name)
            elif t == "click":
                assert action.index is not None
                self.tap(action.index, labels)
            elif t == "input_text":  # tap the field, then type into it
                assert action.index is not None and action.clear_text
                self.tap(action.index, labels)
                self.button("type-btn", "input_text", text=action.text, field="type-text")
            elif t == "status":
                self.button(f"{action.goal_status}-btn", "status")
            elif t == "answer":
                self.button("answer-btn", "answer", text=action.text, field="answer-text")
            elif t == "scroll":
                self.button(f"scroll-{action.direction}-btn", "scroll")
            else:
                raise AssertionError(f"the test cannot play {action}")
        if not self.ready()["done"]:
            self.button("complete-btn", "status")
        return self.ready()

    def check_recording(self, state: dict[str, Any], record: Path) -> None:
        """The recorded episode equals, step for step, what the page did and what the test
        clicked."""
        rows = load(record)
        done = [json.loads(a) for a in rows["action"]]
        assert done == [r["action"] for r in state["log"]]
        assert len(done) == len(self.intended)
        for got, (kind, point, text) in zip(done, self.intended):
            assert got["action_type"] == kind, (got, kind)
            if point is not None:  # a tap lands within a CSS pixel of the element's centre
                assert abs(got["x"] - point[0]) <= 4 and abs(got["y"] - point[1]) <= 4, \
                    (got, point)
            if kind in ("input_text", "answer"):
                assert got["text"] == text and got.get("clear_text", True)
            if kind == "open_app":
                assert got["app_name"] == text
        assert not any(rows["action_error"]), rows["action_error"]
        assert set(rows["source"]) == {"human"} and rows["success"][-1] is True


def test_play_page_in_chromium_shopping_to_success(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    record = tmp_path / "human"
    script = oracle_script(SHOP_TASK, 0)
    app = make_play_app("PhoneWorld/All-v0", task=SHOP_TASK, record_dir=record,
                        env_kwargs={"screenshot_size": SIZE})
    with served(app) as url:
        browser.get(f"{url}/?task={SHOP_TASK}&seed=0")
        player = PagePlayer(browser)
        start = player.ready()
        assert start["task"] == SHOP_TASK and start["goal"]
        assert browser.find_element(By.ID, "goal").text == start["goal"]
        # hovering shows the element under the pointer
        img = browser.find_element(By.ID, "screen")
        assert img.size["height"] >= 480, img.size
        state = player.play(script)
        assert state["success"] is True
        verdict = wait_for(browser, "document.getElementById('verdict').innerText")
        assert verdict.startswith("Success"), verdict
        assert "Recorded" in browser.find_element(By.ID, "record").text
        save_artifact(browser, "play_shopping.png")
    player.check_recording(state, record)


def test_play_page_inspector_drag_and_hold(browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    app = make_play_app("PhoneWorld/All-v0", task="ContactsStar", record_dir=None,
                        env_kwargs={"screenshot_size": SIZE})
    with served(app) as url:
        browser.get(f"{url}/?task=ContactsStar&seed=0")
        state = PagePlayer(browser).ready()
        el = max(state["elements"], key=lambda e: len(e["label"] or ""))
        x1, y1, x2, y2 = el["bounds"]
        img = browser.find_element(By.ID, "screen")
        w, h = img.size["width"], img.size["height"]
        ActionChains(browser).move_to_element_with_offset(
            img, round((x1 + x2) / 2 * w / 1080 - w / 2),
            round((y1 + y2) / 2 * h / 2400 - h / 2)).perform()
        text = wait_for(browser, "document.getElementById('inspector').innerText.includes"
                                 f"({json.dumps(el['label'])}) && "
                                 "document.getElementById('inspector').innerText")
        assert "index" in text and str(el["index"]) in text
        # a drag is a swipe from where it started, the way the finger moved; a hold is a
        # long press
        ActionChains(browser).move_to_element_with_offset(img, 0, h // 4).click_and_hold() \
            .move_by_offset(0, -h // 3).release().perform()
        wait_for(browser, "!pw.busy && pw.state.log.length === 1")
        ActionChains(browser).move_to_element_with_offset(img, 0, 0).click_and_hold() \
            .pause(0.9).release().perform()
        log = wait_for(browser, "!pw.busy && pw.state.log.length === 2 && pw.state.log")
    swipe, hold = (row["action"] for row in log)
    assert swipe["action_type"] == "swipe" and swipe["direction"] == "up", swipe
    assert abs(swipe["y"] - 2400 * 3 / 4) <= 8 and abs(swipe["x"] - 540) <= 8, swipe
    assert hold["action_type"] == "long_press" and abs(hold["y"] - 1200) <= 8, hold


def test_play_page_on_the_virtual_adb_phone(browser: Any, adb_port: int,
                                            tmp_path: Path) -> None:
    record = tmp_path / "human-device"
    script = oracle_script("ContactsStar", 0)
    app = make_play_app("PhoneWorld/Device-v0", task="ContactsStar", record_dir=record,
                        env_kwargs={"port": adb_port, "tasks": ["ContactsStar"],
                                    "screenshot_size": SIZE})
    with served(app) as url:
        browser.get(f"{url}/?task=ContactsStar&seed=0")
        player = PagePlayer(browser)
        assert player.ready()["task"] == "ContactsStar"
        state = player.play(script)
        assert state["success"] is True, state
        verdict = wait_for(browser, "document.getElementById('verdict').innerText")
        assert verdict.startswith("Success"), verdict
        save_artifact(browser, "play_adb_phone.png")
    player.check_recording(state, record)
    assert set(load(record)["env_id"]) == {"PhoneWorld/Device-v0"}


def judge_in_page(driver: Any, labels: dict[str, tuple[bool, str]]) -> None:
    """Judge each episode in ``labels`` (episode id -> (success, reason)) on the page."""
    from selenium.webdriver.common.by import By

    for eid, (success, reason) in labels.items():
        driver.find_element(By.CSS_SELECTOR, f'#episodes .ep[data-id="{eid}"]').click()
        wait_for(driver, f"jg.episode && jg.episode.episode_id === {json.dumps(eid)}")
        box = driver.find_element(By.ID, "reason")
        box.clear()
        box.send_keys(reason)
        driver.find_element(By.ID, "success-btn" if success else "failure-btn").click()
        mark = "success" if success else "failure"
        wait_for(driver, f"document.querySelector('#episodes .ep[data-id=\"{eid}\"]')"
                         f".dataset.mark === '{mark}'")


def page_marks(driver: Any) -> dict[str, str]:
    return dict(driver.execute_script(
        "const m = {}; document.querySelectorAll('#episodes .ep')"
        ".forEach((e) => { m[e.dataset.id] = e.dataset.mark; }); return m;"))


def test_judge_page_in_chromium_persists_and_gives_kappa(browser: Any, results: Path,
                                                         tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    res = fresh(results, tmp_path)
    ids = [e["episode_id"] for e in manifest(res)]
    alice = {ids[0]: (True, "starred the contact"), ids[1]: (True, "right count"),
             ids[2]: (False, "never answered")}
    bob = {ids[0]: (True, "done"), ids[1]: (False, "not sure the count is right"),
           ids[2]: (False, "no answer")}
    with served(make_judge_app(res, judge="alice")) as url:
        browser.get(f"{url}/?judge=alice")
        wait_for(browser, "window.jg && jg.episode && document.querySelectorAll"
                          "('#episodes .ep').length === 3")
        # step through an episode: the step counter and the drawn action follow
        browser.find_element(By.CSS_SELECTOR, f'#episodes .ep[data-id="{ids[0]}"]').click()
        wait_for(browser, f"jg.episode.episode_id === {json.dumps(ids[0])}")
        browser.find_element(By.ID, "next-btn").click()
        assert browser.find_element(By.ID, "step-label").text.startswith("step 2 of")
        assert "input_text" in browser.find_element(By.ID, "action").text
        assert browser.find_elements(By.CSS_SELECTOR, "#overlay rect")
        judge_in_page(browser, alice)
        browser.refresh()
        wait_for(browser, "window.jg && jg.episode && document.querySelectorAll"
                          "('#episodes .ep').length === 3")
        want = {e: "success" if s else "failure" for e, (s, _) in alice.items()}
        assert page_marks(browser) == want
        browser.find_element(By.CSS_SELECTOR, f'#episodes .ep[data-id="{ids[2]}"]').click()
        wait_for(browser, f"jg.episode.episode_id === {json.dumps(ids[2])} && "
                          "document.getElementById('reason').value === 'never answered'")
        save_artifact(browser, "judge.png")
        # a second judge on the same page
        name = browser.find_element(By.ID, "judge-name")
        name.clear()
        name.send_keys("bob")
        browser.execute_script("document.getElementById('judge-name')"
                               ".dispatchEvent(new Event('change'))")
        wait_for(browser, "Object.values(document.querySelectorAll('#episodes .ep'))"
                          ".every((e) => e.dataset.mark === '')")
        judge_in_page(browser, bob)
        browser.find_element(By.ID, "summary-btn").click()
        kappa = wait_for(browser, "document.querySelector('#summary-body .pair') && "
                                  "document.querySelector('#summary-body .pair').dataset.kappa")
    # by hand: alice T T F, bob T F F: p_o = 2/3; p_e = 2/3*1/3 + 1/3*2/3 = 4/9;
    # kappa = (2/3 - 4/9) / (1 - 4/9) = 0.4
    p_o, p_e = 2 / 3, (2 / 3) * (1 / 3) + (1 / 3) * (2 / 3)
    assert float(kappa) == pytest.approx((p_o - p_e) / (1 - p_e)) == pytest.approx(0.4)
    on_disk = {j: read_judgments(res, j) for j in ("alice", "bob")}
    assert {e: (x.success, x.reason) for e, x in on_disk["alice"].items()} == alice
    assert {e: (x.success, x.reason) for e, x in on_disk["bob"].items()} == bob


def test_cli_judge_report_and_play_errors(results: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from phoneworld_gym.__main__ import main

    res = fresh(results, tmp_path)
    ids = [e["episode_id"] for e in manifest(res)]
    for eid, a, b in zip(ids, (True, True, False), (True, False, False)):
        record_judgment(res, "alice", eid, a)
        record_judgment(res, "bob", eid, b)
    assert main(["judge", str(res), "--report"]) == 0
    out = capsys.readouterr().out
    assert "Cohen's kappa 0.400" in out and "| information-retrieval |" in out
    assert json.loads((res / "judgments" / "report.json").read_text())["pairs"][0]["kappa"] \
        == pytest.approx(0.4)
    for argv, text in [(["play"], "needs a task id"),
                       (["play", "--web", "--port", "70000"], "--port must be"),
                       (["judge", str(tmp_path / "none")], "not a results folder"),
                       (["play", "ContactsStar", "--web", "--task", "ContactsUnstar",
                         "--port", "0"], "two tasks given")]:
        assert main(argv) == 2, argv
        assert text in capsys.readouterr().err, argv
