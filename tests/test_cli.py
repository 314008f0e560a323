"""The command line: list, oracle and play, run as a user would (``python -m phoneworld_gym``
and the ``phoneworld`` console script), and its user errors: one line, no traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from phoneworld_gym.__main__ import main, parse_command
from phoneworld_gym.contract import Action

PY_M = [sys.executable, "-m", "phoneworld_gym"]


def script() -> list[str]:
    """The ``phoneworld`` console script of this interpreter's environment."""
    beside = Path(sys.executable).parent / "phoneworld"
    found = str(beside) if beside.is_file() else shutil.which("phoneworld")
    if found is None:
        pytest.fail("no phoneworld console script: reinstall with pip install -e .")
    return [found]


def cli(cmd: list[str], *args: str, stdin: str = "",
        cwd: str | Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line ``cmd`` with ``args``; the finished process, whatever its status."""
    return subprocess.run([*cmd, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def assert_user_error(proc: subprocess.CompletedProcess[str], code: int, *named: str) -> str:
    """``proc`` failed with ``code`` and one ``phoneworld: error:`` line naming ``named``."""
    lines = proc.stderr.splitlines()
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(lines) == 1 and lines[0].startswith("phoneworld: error: "), proc.stderr
    for word in named:
        assert word in lines[0], lines[0]
    return lines[0]


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


@pytest.fixture(params=["python -m", "script"])
def cmd(request: pytest.FixtureRequest) -> list[str]:
    """Both ways in: ``python -m phoneworld_gym`` and the ``phoneworld`` console script."""
    return PY_M if request.param == "python -m" else script()


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


@pytest.mark.parametrize("app", ["Shopping", "shopping", "SHOPPING"])
def test_list_takes_an_apps_label_or_name_in_any_case(cmd, app):
    proc = cli(cmd, "list", "--app", app)
    assert proc.returncode == 0 and proc.stderr == ""
    ids = [ln.split()[0] for ln in proc.stdout.splitlines()]
    assert "PhoneWorld/ShoppingAddToCartOptions-v0" in ids
    assert not any("/Contacts" in i for i in ids)  # Contacts-only tasks are left out


USER_ERRORS = [  # (arguments, exit status, what the message names)
    (["show", "ContactStar"], 2, ["'ContactStar'", "ContactsStar"]),  # suggests the close match
    (["oracle", "Zzzz"], 2, ["'Zzzz'"]),
    (["list", "--app", "Shoping"], 2, ["'Shoping'", "Shopping", "Contacts"]),
    (["list", "--category", "crossapp"], 2, ["'crossapp'", "cross-app"]),
    (["list", "--split", "dev"], 2, ["'dev'", "test"]),
    (["show", "ContactsStar", "--seed", "three"], 2, ["'three'"]),
    (["show", "ContactsStar", "--size", "big"], 2, ["'big'"]),
    (["oracle", "ContactsStar", "--out", "/no/such/folder/o.png"], 2, ["/no/such/folder"]),
    (["play", "ContactsStar", "--out", "/etc/hostname/p.png"], 2, ["/etc/hostname"]),
    (["show", "ContactsStar", "--out", "/tmp/s.nosuchimage"], 2, [".nosuchimage"]),
    (["fly"], 2, ["'fly'"]),
    (["list", "--app", "Settings", "--category", "mini-app"], 1, ["mini-app"]),  # none
    (["list", "--app", "Home"], 1, ["Home"]),  # the launcher is installed and has no task
]


@pytest.mark.parametrize("args,code,named", USER_ERRORS, ids=[" ".join(a[0]) for a in USER_ERRORS])
def test_user_errors_are_one_line_without_traceback(args, code, named):
    proc = cli(PY_M, *args)
    assert_user_error(proc, code, *named)
    assert proc.stdout == ""


@pytest.mark.parametrize("args,code,named", [USER_ERRORS[i] for i in (0, 2, 5, 7, 11)])
def test_the_console_script_reports_errors_the_same_way(args, code, named):
    assert_user_error(cli(script(), *args), code, *named)


def test_out_into_a_missing_folder_fails_before_the_replay(cmd, tmp_path):
    png = tmp_path / "missing" / "o.png"
    proc = cli(cmd, "oracle", "ShoppingCheckoutWithCard", "--out", str(png))
    assert_user_error(proc, 2, str(png.parent), "does not exist")
    assert proc.stdout == ""  # no goal printed: the env was never reset, nothing was played
    assert not png.parent.exists()


def test_out_into_an_unwritable_folder_fails(tmp_path, capsys, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if os.geteuid() == 0:  # root writes everywhere: let the folder read as locked all the same
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != locked
                            and real_access(p, mode))
    assert main(["show", "ContactsStar", "--out", str(locked / "s.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("phoneworld: error: ") and "not writable" in err
    assert str(locked) in err and not (locked / "s.png").exists()


def test_main_returns_the_exit_status(capsys):
    assert main(["list", "--app", "nope"]) == 2
    assert main(["list", "--app", "Settings", "--category", "mini-app"]) == 1
    assert main(["list", "--app", "contacts", "--split", "test"]) == 0
    out, err = capsys.readouterr()
    assert "PhoneWorld/ContactsDelete-v0" in out
    assert err.count("phoneworld: error: ") == 2 and "'nope'" in err


def test_the_default_out_folder_is_made_on_demand(tmp_path):
    proc = cli(script(), "show", "ContactsStar", "--size", "108x240", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "show.png").is_file()
