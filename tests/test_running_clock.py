"""The phone's clock runs with the actions (``phoneworld_gym.contract.ACTION_SECONDS``): each
action moves it by its documented seconds, the status bar and the Clock's timer and
stopwatch show it, the same seed and actions give the same frames, and ``probe.now()``
reads it on the simulated phone and, over the Debian adb client, on the virtual adb phone
(``date``; ``sleep N`` moves it on)."""

from __future__ import annotations

import datetime as dt
import subprocess

import numpy as np
import pytest

from phoneworld_gym import Action
from phoneworld_gym.contract import ACTION_SECONDS, WAIT_SECONDS, action_seconds
from phoneworld_gym.device import NOW_COMMAND, DeviceError, parse_now
from phoneworld_gym.oracle import tap, text_of
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.tasks.clock.timer import shown_seconds
from phoneworld_gym.world import DEFAULT_CLOCK, World
from tests.conftest import HAVE_ADB

START = dt.datetime.fromisoformat(DEFAULT_CLOCK)


def seconds_since_start(device: PhoneWorldDevice) -> int:
    return int((dt.datetime.fromisoformat(device.probe.now()) - START).total_seconds())


@pytest.fixture
def device() -> PhoneWorldDevice:
    d = PhoneWorldDevice()
    d.reset(4)
    return d


def test_each_action_moves_the_clock_by_its_documented_seconds(device):
    assert device.probe.now() == DEFAULT_CLOCK == device.world.clock
    device.execute(Action("open_app", app_name="Notes"))
    assert seconds_since_start(device) == ACTION_SECONDS == 2
    device.execute(Action("wait"))
    assert seconds_since_start(device) == 2 + WAIT_SECONDS == 7
    device.execute(Action("navigate_back"))
    assert device.execute(Action("click", x=1070, y=1300))  # a tap on nothing: an error, and
    assert seconds_since_start(device) == 9  # nothing changes, the clock included
    device.execute(Action("answer", text="ten"))
    device.execute(Action("status", goal_status="complete"))
    assert seconds_since_start(device) == 9  # reports take no time
    assert action_seconds("input_text", "x" * 23) == 2 + 4  # a second per five characters


def test_the_clock_refuses_to_go_back():
    w = World()
    with pytest.raises(ValueError, match="does not go back"):
        w.advance(-1)
    w.advance(3600 * 14)
    assert w.clock == "2026-03-15T00:30:00"  # past midnight: the date moves too


def test_the_status_bar_shows_the_minute_the_actions_reach(device):
    """In Contacts, twelve waits take a minute (and opening it 2 s): the status bar changes
    from 10:30 to 10:31 and nothing else on the frame does; the same seed and actions give
    the same pixels."""
    device.execute(Action("open_app", app_name="Contacts"))
    first = device.screenshot().copy()
    for _ in range(12):
        device.execute(Action("wait"))
    assert device.world.clock == "2026-03-14T10:31:02"
    later = device.screenshot()
    moved = np.argwhere((first != later).any(axis=2))
    assert len(moved) > 0 and moved[:, 0].max() < 64  # only the status bar's rows
    again = PhoneWorldDevice()
    again.reset(4)
    again.execute(Action("open_app", app_name="Contacts"))
    for _ in range(12):
        again.execute(Action("wait"))
    assert np.array_equal(again.screenshot(), later)


def test_timer_counts_down_and_stopwatch_counts_up_on_screen(device):
    device.execute(Action("open_app", app_name="Clock"))
    device.execute(tap(device, rid="nav_timer"))
    device.execute(tap(device, desc="Start"))
    for _ in range(3):
        device.execute(Action("wait"))
    assert text_of(device, rid="timer_time_text") == "4:45"  # 300 - 15 s of waiting
    device.execute(tap(device, desc="Pause"))  # 2 s more
    row = {r["_id"]: r for r in device.probe.query("clock/timers")}["timer"]
    assert (row["state"], row["left"], row["since"]) == ("paused", 283, "")
    device.execute(Action("wait"))
    assert text_of(device, rid="timer_time_text") == "4:43"  # paused: it does not move

    device.execute(tap(device, rid="nav_stopwatch"))
    device.execute(tap(device, desc="Start"))
    device.execute(Action("wait"))
    device.execute(tap(device, rid="lap"))  # the lap tap itself takes 2 s: 7 s in
    device.execute(Action("wait"))
    assert shown_seconds(text_of(device, rid="stopwatch_time_text")) == 12
    assert text_of(device, rid="lap_total") == "0:07.00"


def test_a_timer_that_ran_out_says_so_and_counts_below_zero(device):
    device.execute(Action("open_app", app_name="Clock"))
    device.execute(tap(device, rid="nav_timer"))
    for _ in range(4):
        device.execute(tap(device, rid="timer_minus_one"))
    assert text_of(device, rid="timer_time_text") == "1:00"
    device.execute(tap(device, desc="Start"))
    for _ in range(13):
        device.execute(Action("wait"))
    assert text_of(device, rid="timer_time_text") == "−0:05"
    assert text_of(device, rid="state") == "Time's up"


@pytest.mark.parametrize("out, want", [
    ("2026-03-14T10:30:05\n", "2026-03-14T10:30:05"),
    ("\r\n2027-01-02T00:00:59\r\n", "2027-01-02T00:00:59"),
])
def test_parse_now_reads_the_time_date_prints(out, want):
    assert parse_now(out) == want


@pytest.mark.parametrize("out", ["", "date: bad format", "Sat Mar 14 10:30:00 UTC 2026"])
def test_parse_now_refuses_output_without_a_time(out):
    with pytest.raises(DeviceError, match="printed no time"):
        parse_now(out)


def test_the_virtual_phone_answers_date_and_sleep_from_its_clock(fresh):
    def shell(command: str) -> str:
        return fresh.shell(command)[0].decode()

    assert shell(NOW_COMMAND).strip() == DEFAULT_CLOCK
    assert shell("date +%s").strip() == str(int(START.replace(tzinfo=dt.timezone.utc)
                                                  .timestamp()))
    assert shell("sleep 30; date +%H:%M:%S").strip() == "10:30:30"
    assert "invalid number" in shell("sleep 100000")
    assert shell(NOW_COMMAND).strip() == "2026-03-14T10:30:30"  # the refused sleep took none


@pytest.mark.skipif(not HAVE_ADB, reason="needs the adb client and adbutils")
def test_adb_probe_now_over_the_real_adb_client(fresh, adb_port):
    from phoneworld_gym.real_device.adb_device import AdbDevice

    dev = AdbDevice(fresh.serial, port=adb_port)
    dev.reset(0)  # its keys over adb (home, back) take their seconds
    assert dev.probe.now() == fresh.device.world.clock
    dev.execute(Action("open_app", app_name="Clock"))
    dev.execute(Action("wait"))
    assert dev.probe.now() == fresh.device.world.clock
    assert seconds_since_start(fresh.device) >= ACTION_SECONDS + WAIT_SECONDS
    out = subprocess.run(["adb", "-P", str(adb_port), "-s", fresh.serial, "shell",
                          NOW_COMMAND], capture_output=True, text=True, timeout=60).stdout
    assert parse_now(out) == dev.probe.now()


def test_a_call_lasts_as_long_as_the_steps_it_took(device):
    """The in-call timer counts from the tap that placed the call; ending it logs the call
    dated at that tap and as long as it lasted (three waits and the end tap: 17 s)."""
    device.execute(Action("open_app", app_name="Phone"))
    device.execute(tap(device, desc="key pad"))
    device.execute(Action("input_text", index=next(
        i for i, e in enumerate(device.ui_elements()) if e.is_editable), text="5550123"))
    device.execute(tap(device, desc="dial"))
    placed = device.probe.now()
    for _ in range(3):
        device.execute(Action("wait"))
    assert text_of(device, rid="contactgrid_bottom_timer") == "0:15"
    device.execute(tap(device, desc="End call"))
    row = max(device.probe.query("call_log"), key=lambda r: r["_id"])
    assert row["number"] == "5550123" and row["type"] == 2 and row["duration"] == 17
    placed_ms = int(dt.datetime.fromisoformat(placed).replace(tzinfo=dt.timezone.utc)
                    .timestamp() * 1000)
    assert row["date"] == placed_ms
