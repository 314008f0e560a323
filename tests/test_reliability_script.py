"""examples/reliability.py (the figures of docs/reliability.md), each section with tiny
numbers: what it counts holds (no crash, the good client never fails, the host untouched,
every kill survived, nothing lost or doubled)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import HAVE_ADB, load_example

needs_adb = pytest.mark.skipif(not HAVE_ADB, reason="needs the adb client (apt-get install "
                                                    "adb) and adbutils")


@pytest.fixture(scope="module")
def rel():
    return load_example("reliability")


def test_actions_never_crash_and_refusals_change_nothing(rel) -> None:
    f = rel.actions_figures(n=50, tasks=2, smuggle=4, echo=False)
    assert f["mutated actions tried"] == 50 and f["crashes"] == 0
    outcomes = ("accepted (in the space, did something)",
                "refused in info (invalid_action, invalid='noop')",
                "refused in info (action_error, in the space but did nothing)",
                "raised ValueError at env.step", "raised ValueError at the Action constructor")
    assert sum(f[k] for k in outcomes) == 50
    assert f["raised ValueError at env.step"] and f["refused in info (invalid_action, "
                                                    "invalid='noop')"]
    assert f["refused steps that changed the phone"] == 0
    kinds = f["hand-written malformed kinds"]
    assert kinds >= 100
    assert f["hand-written refused with ValueError (invalid='raise')"] == kinds
    assert f["hand-written refused in info['invalid_action'] (invalid='noop')"] == kinds
    assert f["hand-written crashes"] == f["hand-written not refused"] == 0
    assert f["hand-written refusals that changed the phone"] == 0
    # Action objects changed after construction (frozen fields overwritten) are checked
    # again: refused, or carried out where the change left a valid action; never a crash
    assert f["smuggled Action objects tried"] == 4
    assert f["smuggled crashes"] == 0
    assert f["smuggled refused (ValueError or invalid_action)"] + \
        f["smuggled still valid (carried out or action_error)"] == 4
    assert f["envs still solving a task afterwards"] == "2 of 2"


def test_adb_fuzz_leaves_the_good_client_alone(rel, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "figures.json"
    assert rel.main(["adb", "--adb-packets", "20", "--adb-connections", "5",
                     "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "malformed packets built: 20\n" in text and "good-client commands failed: 0\n" in text
    assert "| adb | fuzz connections | 5 |" in text  # the summary table
    f = json.loads(out.read_text())["figures"]["adb"]
    assert f["fuzz connections"] == 5 and f["malformed packets built"] == 20
    # every packet went out, except those after a malformed header the phone hung up on (how
    # many depends on how fast it hangs up); a well-formed connection is never cut short
    assert f["malformed packets sent"] + \
        f["packets unsent, the phone had hung up on a malformed header"] == 20
    assert f["packets unsent on another connection kind"] == 0
    assert f["malformed packets sent"] >= 5
    assert f["good-client echo ok commands OK"] >= 1 and f["good-client commands failed"] == 0
    assert f["a new client after the fuzz runs echo"] is True and f["server still running"]
    assert f["of those, hung up by the phone"] == \
        f["connections with a malformed header (the phone must hang up)"]


@needs_adb
def test_injection_leaves_the_host_untouched(rel) -> None:
    f = rel.injection_figures(limit=10, echo=False)
    assert f["injection strings"] == 10 and f["tries (strings x shell quoted, shell raw, "
                                                "push, pull)"] == 40
    assert f["shell, quoted"] == "arrived verbatim 10"
    assert f["host data seen through the phone (canary token, /etc/passwd)"] == 0
    assert f["host canary entries changed (content, mode, mtime)"] == 0
    assert f["host files created (the run's marker in their name)"] == 0
    assert f["phone files outside /sdcard and /data/local/tmp"] == 0
    assert f["host untouched"] is True


@needs_adb
def test_a_killed_phone_truncates_the_episode_and_a_new_one_recovers(rel) -> None:
    f = rel.kills_figures(kills=1, echo=False)
    assert f["steps that ended truncated with info['device_error']"] == 1
    assert f["recovered (the task solved after a new phone started)"] == 1
    assert f["survived"] == "1 of 1"


def test_a_killed_collection_resumes_without_loss_or_duplicates(rel) -> None:
    f = rel.collect_figures(tasks=("ContactsStar", "ContactsCountFavorites"), seeds=3,
                            kill_after=1, echo=False)
    assert f["episodes expected"] == 6 and f["rerun exit status"] == 0
    assert f["episodes after resume"] == 6
    assert f["lost"] == 0 and f["duplicates"] == 0 and f["unexpected episodes"] == 0
    assert f["rows loaded"] == f["rows the manifest lists"]
    assert f["leftover .tmp or lock files"] == 0
