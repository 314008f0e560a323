"""``phoneworld eval`` and ``phoneworld replay``: workers do not change results, a killed run
resumes to the same report with nothing doubled, the report says what it evaluated, pass@k
is the unbiased estimate, and a replay shows each step with its action drawn."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_formats import stub_server  # noqa: F401 (a fixture: a local OpenAI-compatible stub)

from phoneworld_gym.__main__ import main as cli
from phoneworld_gym.baselines.evalrun import pass_at_k

ROOT = Path(__file__).resolve().parent.parent
#: short Contacts tasks: a train one, a held-out one
TASKS = "ContactsStar,ContactsUnstar"


def report(folder: Path) -> dict:
    return json.loads((folder / "report.json").read_text())


def manifest_keys(folder: Path) -> list[str]:
    return [json.dumps(json.loads(line)["key"], sort_keys=True)
            for line in (folder / "manifest.jsonl").read_text().splitlines() if line.strip()]


def test_two_workers_give_the_results_of_one(tmp_path: Path) -> None:
    args = ["eval", "--agent", "random", "--tasks", TASKS, "--seeds", "0:4", "--no-progress",
            "--no-replays", "--max-steps", "6"]
    assert cli(args + ["--out", str(tmp_path / "one")]) == 0
    assert cli(args + ["--out", str(tmp_path / "two"), "--workers", "2"]) == 0
    one, two = report(tmp_path / "one"), report(tmp_path / "two")
    assert one["finished"] == one["planned"] == 8
    assert one["episodes"] == two["episodes"]  # task, seed, success, steps, failure, ids
    assert one == two
    # every step of every episode is the same too (the shards hold the same actions)
    from phoneworld_gym.baselines.data import load

    a = load(tmp_path / "one").sort(["episode_id", "step"])
    b = load(tmp_path / "two").sort(["episode_id", "step"])
    assert a["action"] == b["action"] and a["episode_id"] == b["episode_id"]


def test_report_says_what_it_evaluated(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    out = tmp_path / "e"
    assert cli(["eval", "--agent", "oracle", "--split", "test", "--app", "Contacts",
                "--category", "app", "--seeds", "0:2", "--no-progress", "--out", str(out)]) == 0
    doc = report(out)
    assert doc["split"] == "test" and doc["tasks"] == ["ContactsDelete", "ContactsUnstar"]
    assert doc["overall"]["successes"] == doc["overall"]["n"] == 4  # the oracle solves them
    assert doc["by_category"]["app"]["n"] == 4
    md = (out / "report.md").read_text()
    assert "held-out templates (never trained on)" in md
    assert "2 tasks x 2 seeds (0, 1) = 4 episodes; 4 finished" in md
    assert "| ContactsUnstar | app | 100.0% [34.2, 100.0] (2/2) | 5.0 |" in md
    # each episode links its replay, and the replay is there
    for ep in doc["episodes"]:
        assert f"[replay]({ep['replay']})" in md
        page = (out / ep["replay"]).read_text()
        assert "success" in page and ep["episode_id"] in page
    said = capsys.readouterr().out
    assert "success 100.0% [51.0, 100.0] (4/4)" in said


def test_a_killed_run_resumes_to_the_same_report(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "phoneworld_gym", "eval", "--agent", "oracle", "--tasks",
            TASKS, "--seeds", "0:8", "--no-progress", "--no-replays"]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(args + ["--out", str(whole)], check=True, env=env, cwd=ROOT,
                   capture_output=True, timeout=600)
    proc = subprocess.Popen(args + ["--out", str(cut)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    killed_at = 0
    while time.time() < deadline and proc.poll() is None:
        lines = (cut / "manifest.jsonl").read_text().count("\n") \
            if (cut / "manifest.jsonl").exists() else 0
        if lines >= 3:
            proc.send_signal(signal.SIGKILL)
            killed_at = lines
            break
        time.sleep(0.05)
    proc.wait(timeout=60)
    assert 3 <= killed_at < 16, "the run ended before it could be killed"
    assert not (cut / "report.json").exists()
    done = subprocess.run(args + ["--out", str(cut)], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert report(cut) == report(whole)
    keys = manifest_keys(cut)
    assert len(keys) == len(set(keys)) == 16  # nothing doubled, nothing lost


def test_attempts_give_pass_at_k(tmp_path: Path) -> None:
    assert pass_at_k(5, 2, 2) == pytest.approx(1 - 3 / 10)
    assert pass_at_k(3, 0, 3) == 0.0 and pass_at_k(3, 1, 3) == 1.0
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)
    out = tmp_path / "p"
    assert cli(["eval", "--agent", "random", "--tasks", "ContactsStar", "--seeds", "0:3",
                "--attempts", "3", "--max-steps", "4", "--no-progress", "--no-replays",
                "--out", str(out)]) == 0
    doc = report(out)
    assert doc["planned"] == doc["finished"] == 9
    eps = doc["episodes"]
    # the attempts are different draws of the random agent on the same instance
    firsts = {}
    for e in eps:
        firsts.setdefault(e["seed"], set()).add(e["episode_id"])
    assert all(len(v) == 3 for v in firsts.values())
    from phoneworld_gym.baselines.data import load

    ds = load(out)
    per = {}
    for eid, act in zip(ds["episode_id"], ds["action"]):
        per.setdefault(eid, []).append(act)
    assert len({tuple(v) for v in per.values()}) > 3
    # pass@k from the episodes, by hand
    by_inst: dict[int, list[bool]] = {}
    for e in eps:
        by_inst.setdefault(e["seed"], []).append(e["success"])
    want3 = sum(any(v) for v in by_inst.values()) / 3
    assert doc["pass_at_k"]["pass@3"]["value"] == pytest.approx(want3)
    want1 = sum(sum(v) for v in by_inst.values()) / 9
    assert doc["pass_at_k"]["pass@1"]["value"] == pytest.approx(want1)


@pytest.mark.parametrize("argv, words", [
    (["eval", "--agent", "gpt"], "unknown agent 'gpt'"),
    (["eval", "--agent", "checkpoint:/no/such/model"], "no model folder"),
    (["eval", "--agent", "openai:m"], "needs --base-url"),
    (["eval", "--agent", "oracle", "--split", "heldout"], "invalid choice"),
    (["eval", "--agent", "oracle", "--app", "Shoping"], "unknown app 'Shoping'"),
    (["eval", "--agent", "oracle", "--tasks", "NoSuchTask"], "NoSuchTask"),
    (["eval", "--agent", "oracle", "--env", "PhoneWorld/Shopping-v0", "--tasks",
      "ContactsStar"], "plays none of the selected tasks (ContactsStar)"),
    (["eval", "--agent", "oracle", "--seeds", "5:2"], "empty range"),
    (["eval", "--agent", "oracle", "--attempts", "0"], "--attempts must be >= 1"),
    (["replay", "/no/such/folder"], "no such file or folder"),
])
def test_user_errors_are_one_line(argv: list[str], words: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("phoneworld: error:") and "\n" not in err and words in err, err


def test_replay_draws_each_step(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert cli(["eval", "--agent", "oracle", "--tasks", "ContactsStar", "--seeds", "3",
                "--no-progress", "--no-replays", "--out", str(out)]) == 0
    assert cli(["replay", str(out)]) == 0
    (gif,) = list((out / "replays").glob("*.gif"))
    (page,) = list((out / "replays").glob("*.html"))
    from phoneworld_gym.baselines.data import load
    from phoneworld_gym.baselines.replay import draw_action

    ds = load(out)
    steps = ds.num_rows
    img = Image.open(gif)
    assert img.n_frames == steps
    # the first tap on an element: its ring is drawn where the element is
    row = next(ds[i] for i in range(steps)
               if json.loads(ds[i]["action"])["action_type"] == "click")
    action = json.loads(row["action"])
    frame = np.asarray(row["screenshot"].convert("RGB"))
    drawn = np.asarray(draw_action(frame, action, row["tree"]))
    from phoneworld_gym.baselines.replay import action_point, screen_size

    point = action_point(action, row["tree"])
    assert point is not None
    sw, _ = screen_size(row["tree"])
    scale = frame.shape[1] / sw
    x, y = int(point[0] * scale), int(point[1] * scale)
    changed = np.abs(drawn[:frame.shape[0]].astype(int) - frame.astype(int)).sum(axis=2) > 60
    ys, xs = np.nonzero(changed)
    assert len(xs) > 50 and abs(np.median(xs) - x) < 40 and abs(np.median(ys) - y) < 40
    assert drawn.shape[0] > frame.shape[0]  # the caption band
    text = page.read_text()
    assert text.count('<div class="step"') == steps
    import html

    assert html.escape(row["goal"]) in text
    assert "reward 1" in text and "success" in text


def test_replay_page_opens_in_chromium(tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    out = tmp_path / "r"
    assert cli(["eval", "--agent", "oracle", "--tasks", "ContactsStar", "--seeds", "1",
                "--no-progress", "--out", str(out)]) == 0
    (page,) = list((out / "replays").glob("*.html"))
    shot = tmp_path / "page.png"
    subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,900",
                    f"--screenshot={shot}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    img = np.asarray(Image.open(io.BytesIO(shot.read_bytes())).convert("RGB"))
    # the page drew its frames: many colours, not a blank or an error page
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 200


def test_eval_on_the_virtual_adb_phone(tmp_path: Path) -> None:
    """A device id plays on a phone: here the virtual adb phone Device-v0 starts for itself."""
    out = tmp_path / "d"
    assert cli(["eval", "--agent", "oracle", "--env", "PhoneWorld/Device-v0", "--tasks",
                "SettingsSwitch", "--seeds", "0:2", "--no-progress", "--no-replays",
                "--out", str(out)]) == 0
    doc = report(out)
    assert doc["env_id"] == "PhoneWorld/Device-v0"
    assert doc["overall"]["successes"] == 2
    line = json.loads((out / "manifest.jsonl").read_text().splitlines()[0])
    assert line["key"]["source"] == "device"


def test_eval_an_endpoint_model_in_its_own_action_format(
        tmp_path: Path, stub_server: tuple[str, list[str], list[dict]]  # noqa: F811
) -> None:
    """``--agent openai:MODEL --format qwen``: a scripted "model" that speaks Qwen's
    mobile_use calls, served by a local OpenAI-compatible stub, solves a task through eval."""
    pytest.importorskip("openai")
    from test_formats import _transcript

    from phoneworld_gym import formats

    url, script, asked = stub_server
    script.extend(_transcript("CalendarWhereIs", 2, formats.get("qwen"))[0])
    out = tmp_path / "q"
    assert cli(["eval", "--agent", "openai:stub-qwen", "--format", "qwen", "--base-url", url,
                "--tasks", "CalendarWhereIs", "--seeds", "2", "--no-progress", "--no-replays",
                "--out", str(out)]) == 0
    doc = report(out)
    assert doc["overall"]["successes"] == 1 and doc["agent_key"] == "openai:stub-qwen|qwen"
    assert asked[0]["model"] == "stub-qwen"
    # the model saw the screenshot (Qwen's format points at pixels)
    user = asked[0]["messages"][-1]["content"]
    assert any(part.get("type") == "image_url" for part in user if isinstance(part, dict))


def test_a_checkpoint_in_a_native_format(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``checkpoint:PATH --format F``: the format's prompt and parser around a local model.
    These formats point at the screenshot, so a text-only model is refused with a clear
    error, and constrained decoding (which writes AndroidWorld JSON) is refused up front."""
    pytest.importorskip("torch")
    from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus

    base = build_tiny(tmp_path / "tiny", list(oracle_corpus(["ContactsStar"], seeds=range(1))),
                      vocab=600, init_std=0.1)
    args = ["eval", "--agent", f"checkpoint:{base}", "--format", "qwen", "--tasks",
            "ContactsStar", "--seeds", "0", "--no-progress", "--out", str(tmp_path / "o")]
    assert cli(args) == 2
    assert "add --decoding free" in capsys.readouterr().err
    assert cli(args + ["--decoding", "free"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("phoneworld: error:") and "reads text only" in err, err
