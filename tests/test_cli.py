"""The command line: list, oracle and play, run as a user would."""

from __future__ import annotations

import subprocess
import sys

import pytest

from phoneworld_gym.__main__ import parse_command
from phoneworld_gym.contract import Action


def run(*args: str, stdin: str = "") -> str:
    out = subprocess.run([sys.executable, "-m", "phoneworld_gym", *args], input=stdin,
                         capture_output=True, text=True, timeout=120, check=True)
    return out.stdout


@pytest.mark.parametrize("line,action", [
    ("click 3", Action("click", index=3)),
    ("tap 540 1200", Action("click", x=540, y=1200)),
    ("long 2", Action("long_press", index=2)),
    ("type 0 hello world", Action("input_text", index=0, text="hello world", clear_text=True)),
    ("scroll down", Action("scroll", direction="down")),
    ("open Shopping", Action("open_app", app_name="Shopping")),
    ("answer 42", Action("answer", text="42")),
    ("infeasible", Action("status", goal_status="infeasible")),
    ('{"action_type": "navigate_back"}', Action("navigate_back")),
])
def test_play_commands_parse(line, action):
    assert parse_command(line) == action


@pytest.mark.parametrize("line", ["fly", "click", "tap 5", "scroll sideways", "click x"])
def test_bad_play_commands_raise_value_error(line):
    with pytest.raises(ValueError):
        parse_command(line)


def test_list_filters_by_category():
    out = run("list", "--category", "cross-app")
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert lines and all("cross-app" in ln for ln in lines)


def test_oracle_replays_and_writes_a_filmstrip(tmp_path):
    png = tmp_path / "o.png"
    out = run("oracle", "ContactsStar", "--seed", "2", "--out", str(png), "--size", "216x480")
    assert "reward 1.0, success True" in out and png.stat().st_size > 1000


def test_play_reads_actions_from_stdin_and_survives_bad_lines(tmp_path):
    png = tmp_path / "p.png"
    out = run("play", "ContactsCountFavorites", "--out", str(png), "--size", "108x240",
              stdin="open Contacts\nnonsense\nclick 300\nclick 999\nanswer 0\n")
    assert "! unknown command 'nonsense'" in out
    assert "! no element with index 300" in out
    assert "index 999 outside" in out
    assert "success" in out and png.exists()
