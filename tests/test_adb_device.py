"""``AdbDevice``: PhoneWorld's tasks over adb, against the virtual adb phone.

The tests that need adb skip when the ``adb`` client or ``adbutils`` is missing (CI installs
both). They run a private adb server on a free port (with its own key folder), connect it to a
``VirtualPhone`` and kill the server at the end. The rest (parsers, the real-phone contacts
path against a fake Android provider, the env's handling of a failing device) need neither.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.contract import parse_ui_elements
from phoneworld_gym.device import COMMON_TABLES, DeviceError, Unsupported
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.real_device.adb_device import (
    AdbDevice,
    DeviceLost,
    PhoneIdentity,
    input_text_command,
    is_plain_text,
    phone_tasks,
    to_contract,
    to_phone,
)
from phoneworld_gym.real_device.adb_probe import (
    AdbProbe,
    parse_focus,
    parse_rows,
    parse_settings,
)
from phoneworld_gym.real_device.guard import SafetyGuard
from phoneworld_gym.registration import DEVICE_ENV_IDS
from phoneworld_gym.sim_access import PhoneWorldProbe
from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port

HAVE_ADB = shutil.which("adb") is not None and importlib.util.find_spec("adbutils") is not None
needs_adb = pytest.mark.skipif(not HAVE_ADB, reason="needs the adb client (apt-get install adb) "
                                                    "and adbutils (pip install adbutils)")
SEEDS = (0, 1)
CONTACTS = "com.phoneworld.contacts"


# -- fixtures --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def phone() -> Iterator[VirtualPhone]:
    with VirtualPhone(port=free_port(), seed=0) as p:
        yield p


@pytest.fixture(scope="module")
def device(phone: VirtualPhone, adb_port: int) -> AdbDevice:
    """The virtual phone over adb, with the default safety guard."""
    return AdbDevice(phone.serial, port=adb_port)


@pytest.fixture(scope="module")
def bare(phone: VirtualPhone, adb_port: int) -> AdbDevice:
    """The same phone without the guard: the oracles of tasks that text a number (which the
    guard refuses, see tests/test_guard.py) play as on PhoneWorld."""
    return AdbDevice(phone.serial, port=adb_port, guard=False)


def play(env: PhoneEnv, seed: int, script: Callable[[PhoneEnv], Iterator[Action]]
         ) -> dict[str, Any]:
    """One episode: reset with ``seed``, step the script's actions (claiming completion if
    it stops without ending); what the episode came to."""
    _, info = env.reset(seed=seed)
    start = dict(task=info["task"], params=info["params"], goal=info["goal"])
    reward, errors = 0.0, []
    for action in script(env):
        _, reward, term, trunc, info = env.step(action)
        if info["action_error"]:
            errors.append(info["action_error"])
        if term or trunc:
            break
    else:
        _, reward, *_, info = env.step(Action("status", goal_status="complete"))
    failure = re.sub(r" at 0x[0-9a-f]+", "", info["failure"])  # a validator's repr
    return dict(**start, reward=reward, steps=info["steps"], failure=failure,
                errors=errors, device_error=info["device_error"])


def oracle(env: PhoneEnv) -> Iterator[Action]:
    return env.oracle()


def near_miss(env: PhoneEnv) -> Iterator[Action]:
    assert env.task is not None
    return env.task.near_miss(env.device)


# -- the phone-ready tasks, end to end over adb ------------------------------------------------
@needs_adb
def test_phone_ready_tasks_are_solved_over_adb_as_on_phoneworld(bare: AdbDevice) -> None:
    """Every phone-ready task's oracle, setup and verification over adb, scores what the same
    episode scores on PhoneWorld directly (params, goal, steps and reward equal), for two
    seeds."""
    device = bare
    tasks = phone_tasks()
    assert len(tasks) >= 12, tasks
    solved = 0
    for task_id in tasks:
        for seed in SEEDS:
            over_adb = play(PhoneEnv(tasks=task_id, device=device, obs_mode="a11y"), seed,
                            oracle)
            direct = play(PhoneEnv(tasks=task_id, obs_mode="a11y"), seed, oracle)
            assert over_adb == direct, (task_id, seed)
            assert over_adb["reward"] == 1.0 and not over_adb["errors"], (task_id, over_adb)
            solved += 1
    assert solved == 2 * len(tasks)


@needs_adb
def test_near_misses_score_zero_over_adb_as_on_phoneworld(bare: AdbDevice) -> None:
    """Verification over adb judges a near miss as PhoneWorld does, with the same reasons
    (that near misses score 0 at all is tests/test_tasks.py's business)."""
    device = bare
    zeros = 0
    for task_id in phone_tasks():
        over_adb = play(PhoneEnv(tasks=task_id, device=device, obs_mode="a11y"), 0, near_miss)
        direct = play(PhoneEnv(tasks=task_id, obs_mode="a11y"), 0, near_miss)
        assert over_adb == direct, task_id
        zeros += over_adb["reward"] == 0.0
    assert zeros >= 12


# -- observations ------------------------------------------------------------------------------
@needs_adb
def test_observations_are_the_phones(device: AdbDevice, phone: VirtualPhone) -> None:
    device.reset(4)
    device.execute(Action("open_app", app_name="Contacts"))
    with phone.lock:
        xml, pixels = phone.device.a11y_xml(), np.array(phone.device.screenshot())
    assert device.a11y_xml() == xml
    assert np.array_equal(device.screenshot(), pixels)
    assert device.probe.foreground_app() == CONTACTS == phone.device.probe.foreground_app()
    small = AdbDevice(phone.serial, port=device.port, screenshot_size=(270, 600),
                      dump_retries=3, dump_max_age=0.0)
    assert small.screenshot().shape == (600, 270, 3)
    assert small.a11y_xml() == xml  # dumped until two dumps agree (here: at once)
    assert device.dump_retries == 0 and small.dump_retries == 3
    # the dump goes to scratch space, never into the phone's files
    assert not any("window_dump" in r["_id"] for r in device.probe.query("files"))


@needs_adb
def test_device_env_id(phone: VirtualPhone, adb_port: int,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """PhoneWorld/Device-v0 is a PhoneEnv over an AdbDevice with the phone-ready tasks, the
    same spaces and the same observations and info as PhoneWorld for the same seed."""
    assert "PhoneWorld/Device-v0" in DEVICE_ENV_IDS
    env = gymnasium.make("PhoneWorld/Device-v0", serial=phone.serial, port=adb_port,
                         obs_mode="a11y")
    ref = PhoneEnv(tasks=phone_tasks(), obs_mode="a11y")
    u = env.unwrapped
    assert isinstance(u, PhoneEnv) and isinstance(u.device, AdbDevice)
    assert u.task_ids == phone_tasks()
    assert isinstance(u.device.guard, SafetyGuard)
    assert env.observation_space == ref.observation_space
    assert env.action_space == ref.action_space
    for action in (None, Action("open_app", app_name="Contacts"), Action("scroll",
                                                                         direction="down")):
        if action is None:
            (obs, info), (obs2, info2) = env.reset(seed=3), ref.reset(seed=3)
        else:
            obs, *_, info = env.step(action)
            obs2, *_, info2 = ref.step(action)
        assert obs == obs2 and info == info2
    env.close()
    shots = gymnasium.make("PhoneWorld/Device-v0", serial=phone.serial, port=adb_port,
                           tasks="ContactsStar", screenshot_size=(108, 240))
    obs, _ = shots.reset(seed=0)
    assert obs["screenshot"].shape == (240, 108, 3) and shots.observation_space.contains(obs)
    # no serial: the env serves its own virtual phone, over the same adb path, and stops it
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)
    own = gymnasium.make("PhoneWorld/Device-v0", port=adb_port, tasks="ContactsStar",
                         obs_mode="a11y")
    dev = own.unwrapped.device
    assert dev.virtual and dev.serial != phone.serial and dev.serial.startswith("127.0.0.1:")
    assert play(own.unwrapped, 0, oracle)["reward"] == 1.0
    dev.close()
    with pytest.raises(DeviceLost):
        dev.shell("echo gone")


# -- typing ----------------------------------------------------------------------------------
HOSTILE = [
    "; reboot", "$(rm -rf /)", "`id`", "x && rm -rf / || true; exit 1", "it's \"quoted\" 'twice'",
    "line1\nline2", "tab\there \\back\\slash", "100% %s sure", "$HOME ${PATH} $?", "-n --help",
    "  spaced  out  ", "emoji 😀👍🏽 family 👨‍👩‍👧", "مرحبا بالعالم", "שלום עולם", "中文 русский ñ",
    "<b>&amp;</b>",
]


@needs_adb
def test_hostile_text_arrives_verbatim_and_runs_nothing(device: AdbDevice,
                                                        phone: VirtualPhone) -> None:
    device.reset(0)
    assert device.execute(Action("open_app", app_name="Contacts")) == ""
    with phone.lock:
        before = phone.device.probe.snapshot()
    routes = set()
    for text in HOSTILE:
        els = parse_ui_elements(device.a11y_xml())
        bar = next(i for i, e in enumerate(els) if (e.resource_id or "").endswith("/search_bar"))
        assert device.execute(Action("input_text", index=bar, text=text, clear_text=True)) == ""
        field = parse_ui_elements(device.a11y_xml())[bar]
        assert field.text == text, (text, field.text)
        routes.add(is_plain_text(text))
    assert routes == {True, False}  # both the `input text` and the IME routes were taken
    # appending (clear_text=False) keeps what is there
    device.execute(Action("input_text", text=" + more ✓"))
    assert parse_ui_elements(device.a11y_xml())[bar].text == HOSTILE[-1] + " + more ✓"
    with phone.lock:
        assert phone.device.probe.snapshot() == before  # typing changed no data
    assert device.shell("echo still here") == "still here\n"


def test_plain_text_is_quoted_for_the_shell() -> None:
    for text in ("a'b c", "; reboot", "$(id)", "`x`", "a\\b", "\"q\""):
        assert is_plain_text(text)
        words = shlex.split(input_text_command(text))
        assert words == ["input", "text", text.replace(" ", "%s")]
    for text in ("100%", "é", "a\nb", "😀", ""):
        assert is_plain_text(text) == (text == "")


# -- the guard on the device -------------------------------------------------------------------
@needs_adb
def test_refused_actions_are_not_sent(device: AdbDevice, phone: VirtualPhone) -> None:
    """The Contacts detail's Call button, with the contact's number on screen: refused,
    nothing sent, the refusal recorded and returned as the step's action_error."""
    env = PhoneEnv(tasks="ContactsStar", device=device, obs_mode="a11y")
    env.reset(seed=0)
    assert device.guard is not None
    device.guard.refusals.clear()
    env.step(Action("open_app", app_name="Contacts"))
    els = parse_ui_elements(device.a11y_xml())
    first = next(i for i, e in enumerate(els) if (e.resource_id or "").endswith("/contact_title"))
    env.step(Action("click", index=first))
    xml = device.a11y_xml()
    call = next(i for i, e in enumerate(parse_ui_elements(xml)) if e.text == "Call")
    with phone.lock:
        frame = phone.device.a11y_xml()
    obs, reward, term, trunc, info = env.step(Action("click", index=call))
    assert info["action_error"].startswith("refused by the safety guard (calls)")
    assert obs["a11y"] == frame  # the tap never reached the phone (it would show a toast)
    assert [r.rule for r in device.guard.refusals] == ["calls"]
    assert not (term or trunc)


# -- tables and write verbs mirror PhoneWorld ---------------------------------------------------
WRITES: list[tuple[Any, ...]] = [
    ("insert", "sms", {"address": "+1 555 0100", "body": "hi, there=1\n'q' \"x\" 😀 $(reboot)",
                       "date": 1_700_000_000_000, "type": 1, "read": 0}),
    ("insert", "sms", {"address": "5550199", "body": "no read column"}),
    ("insert", "calendar", {"title": "Dentist, maybe", "dtstart": 1_700_000_000_000,
                            "dtend": 1_700_003_600_000, "eventLocation": "Main St, 1",
                            "description": "bring x-rays"}),
    ("insert", "alarms", {"hour": 7, "minutes": 30, "label": "Wake, early", "enabled": 1,
                          "days": "MO,TU,WE"}),
    ("insert", "contacts", {"display_name": "Zoë O'Brien", "number": "+1 (555) 010-0199",
                            "email": "zoe@example.com", "postal_address": "1 Main St, Springfield",
                            "company": "A, B & Co.", "starred": 1}),
    ("update", "sms", 1, {"read": 1, "body": "edited"}),
    ("update", "contacts", 1, {"starred": 1, "company": "Initech"}),
    ("delete", "sms", 2),
    ("delete", "contacts", 2),
    ("put_setting", "system", "screen_brightness", "77"),
    ("put_setting", "secure", "odd.key-1", "a=b, c"),
    ("push_file", "/sdcard/Download/notes one.txt", b"hello\n"),
    ("push_file", "/sdcard/Pictures/trip/p.bin", bytes(range(256))),
]
BAD_WRITES: list[tuple[Any, ...]] = [
    ("insert", "sms", {"nope": 1}),
    ("update", "sms", 999, {"read": 1}),
    ("delete", "contacts", 999),
    ("insert", "files", {"size": 1}),
    ("put_setting", "nope", "k", "v"),
    ("put_setting", "system", "bad key!", "v"),
    ("push_file", "/etc/passwd", b"x"),
    ("push_file", "/sdcard/../etc/x", b"x"),
]


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", fn())
    except (ValueError, Unsupported) as e:
        return (type(e).__name__, str(e))


@needs_adb
def test_tables_and_write_verbs_mirror_phoneworld(device: AdbDevice) -> None:
    twin = PhoneWorldDevice()
    twin.reset(5)
    device.reset(5)

    def common(d: Any) -> dict[str, Any]:
        return {t: d.probe.query(t) for t in COMMON_TABLES}

    assert sorted(device.probe.tables()) == sorted(COMMON_TABLES)
    assert device.probe.snapshot() == common(twin)
    for verb, *args in WRITES + BAD_WRITES:
        got = _outcome(lambda verb=verb, args=args: getattr(device, verb)(*args))
        want = _outcome(lambda verb=verb, args=args: getattr(twin, verb)(*args))
        if (verb, *args) in BAD_WRITES:  # the same refusal (the app's wording may differ)
            assert got[0] == want[0] != "ok" and got[1], (verb, args, got)
        else:
            assert got == want, (verb, args)
        assert device.probe.snapshot() == common(twin), (verb, args)
    assert device.probe.setting("secure", "odd.key-1") == "a=b, c"
    assert device.probe.setting("global", "unset") is None
    files = {r["_id"]: r for r in device.probe.query("files")}
    assert files["/sdcard/Pictures/trip/p.bin"]["sha256"] == \
        hashlib.sha256(bytes(range(256))).hexdigest()
    # what only PhoneWorld has
    with pytest.raises(Unsupported):
        device.probe.query("shopping/cart")
    with pytest.raises(Unsupported):
        device.insert("shopping/cart", {"product": 1})
    with pytest.raises(Unsupported):
        device.fixture("shopping", "add_to_cart", lines=[])


# -- losing the phone --------------------------------------------------------------------------
@needs_adb
def test_killing_the_phone_ends_the_episode_with_a_reason(adb_port: int) -> None:
    port = free_port()
    phone = VirtualPhone(port=port, seed=0).start()
    try:
        dev = AdbDevice(phone.serial, port=adb_port, reconnect_timeout=3.0)
        env = PhoneEnv(tasks="ContactsStar", device=dev, obs_mode="a11y")
        obs, _ = env.reset(seed=0)
        actions = env.oracle()
        for _ in range(2):
            obs, *_ = env.step(next(actions))
        phone.stop()
        t0 = time.monotonic()
        obs2, reward, term, trunc, info = env.step(Action("navigate_back"))
        assert time.monotonic() - t0 < 15
        assert trunc and not term and reward == 0.0 and not info["success"]
        assert phone.serial in info["device_error"] and "lost the phone" in info["device_error"]
        assert info["action_error"].startswith("the device failed")
        assert info["failure"].startswith("the device failed") and info["steps"] == 3
        assert obs2 == obs and env.observation_space.contains(obs2)  # the last observation
        with pytest.raises(RuntimeError, match="episode is over"):
            env.step(Action("wait"))
        t0 = time.monotonic()
        with pytest.raises(DeviceLost, match=f"lost the phone {phone.serial}"):
            env.reset(seed=0)
        assert time.monotonic() - t0 < 15
        # the phone comes back on the same port: the next reset reconnects
        phone = VirtualPhone(port=port, seed=0).start()
        result = play(env, 0, oracle)
        assert result["reward"] == 1.0 and not result["device_error"]
    finally:
        phone.stop()


@needs_adb
def test_a_dropped_connection_is_reconnected_once(device: AdbDevice, phone: VirtualPhone) -> None:
    device.reset(0)
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(device.port)}
    subprocess.run(["adb", "-P", str(device.port), "disconnect", phone.serial], env=env,
                   capture_output=True, timeout=30, check=True)
    assert device.shell("echo back") == "back\n"  # reconnected behind the scenes


def test_no_adb_server_and_no_phone_give_clear_errors(tmp_path: Path) -> None:
    if not HAVE_ADB:
        pytest.skip("needs the adb client and adbutils")
    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path)}
    try:
        with pytest.raises(DeviceError, match="no phone is ready"):
            AdbDevice(port=port)  # starts its own adb server, which has no phone
        with pytest.raises(DeviceLost, match="cannot connect to the phone 127.0.0.1:1"):
            AdbDevice("127.0.0.1:1", port=port, reconnect_timeout=1.0)
    finally:
        subprocess.run(["adb", "-P", str(port), "kill-server"], env=env, capture_output=True,
                       timeout=30, check=False)


# -- PhoneEnv with a failing device (no adb needed) ---------------------------------------------
class FlakyDevice(PhoneWorldDevice):
    """A PhoneWorld phone whose ``where`` verb (``execute``, ``a11y_xml``, ``reset`` or the
    probe's ``snapshot``) fails once ``fail`` is set."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where
        self.fail = False
        if where == "probe":
            self.probe = FlakyProbe(self)

    def maybe_fail(self, verb: str) -> None:
        if self.fail and verb == self.where:
            raise DeviceError("cable pulled")

    def execute(self, action: Action) -> str:
        self.maybe_fail("execute")
        return super().execute(action)

    def a11y_xml(self) -> str:
        self.maybe_fail("a11y_xml")
        return super().a11y_xml()

    def reset(self, seed: int) -> None:
        self.maybe_fail("reset")
        super().reset(seed)


class FlakyProbe(PhoneWorldProbe):
    def snapshot(self) -> dict[str, Any]:
        self._device.maybe_fail("probe")
        return super().snapshot()


@pytest.mark.parametrize("where", ["execute", "a11y_xml", "probe"])
def test_env_truncates_when_the_device_fails(where: str) -> None:
    """Acting, observing or verifying: the episode ends truncated with the reason and the
    last observation, and the env plays the next episode."""
    dev = FlakyDevice(where)
    env = PhoneEnv(tasks="ContactsStar", device=dev, obs_mode="a11y")
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(Action("open_app", app_name="Contacts"))
    dev.fail = True
    last = Action("status", goal_status="complete") if where == "probe" else \
        Action("navigate_back")
    obs2, reward, term, trunc, info = env.step(last)
    assert trunc and not term and reward == 0.0 and not info["success"]
    assert info["device_error"] == "cable pulled" and "cable pulled" in info["action_error"]
    assert info["steps"] == 2 and obs2 == obs and env.observation_space.contains(obs2)
    dev.fail = False
    result = play(env, 0, oracle)  # the env is usable again
    assert result["reward"] == 1.0 and result["device_error"] == ""


def test_env_reset_raises_the_device_error() -> None:
    dev = FlakyDevice("reset")
    env = PhoneEnv(tasks="ContactsStar", device=dev, obs_mode="a11y")
    dev.fail = True
    with pytest.raises(DeviceError, match="cable pulled"):
        env.reset(seed=0)


def test_unsupported_is_not_a_device_failure() -> None:
    class NoTyping(PhoneWorldDevice):
        def execute(self, action: Action) -> str:
            raise Unsupported("no such verb here")

    env = PhoneEnv(tasks="ContactsStar", device=NoTyping(), obs_mode="a11y")
    env.reset(seed=0)
    with pytest.raises(Unsupported):
        env.step(Action("wait"))


# -- parsers and the real-phone contacts path (no adb needed) -----------------------------------
def test_content_rows_are_split_at_known_columns_and_typed() -> None:
    out = ("Row: 0 _id=3, display_name=Ada, Countess, number=NULL, starred=1\n"
           "Row: 1 _id=4, display_name=Bob, number=+1 555, starred=0, extra=x\n"
           "Row: 2 _id=5, display_name=Two\nlines, number=, starred=0\n")
    cols = ("_id", "display_name", "number", "starred")
    assert parse_rows(out, cols, "contacts") == [
        {"_id": 3, "display_name": "Ada, Countess", "number": None, "starred": 1},
        {"_id": 4, "display_name": "Bob", "number": "+1 555", "starred": "0, extra=x"},
        {"_id": 5, "display_name": "Two\nlines", "number": "", "starred": 0},
    ]
    assert parse_rows("No result found.\n", cols, "contacts") == []
    with pytest.raises(Unsupported):
        parse_rows("Error while accessing provider:sms\njava.lang.SecurityException: "
                   "Permission Denial: reading\n", cols, "sms")
    with pytest.raises(DeviceError, match="column"):
        parse_rows("Error while accessing provider:x\njava.lang.IllegalArgumentException: "
                   "Invalid column number\n", cols, "contacts")
    assert parse_settings("b=2\na=x=y\n\nnot a line\n") == [{"_id": "a", "value": "x=y"},
                                                          {"_id": "b", "value": "2"}]


def test_focus_is_read_from_dumpsys_window() -> None:
    app = "  mCurrentFocus=Window{9f2c1e5 u0 com.android.chrome/org.chromium.chrome.Main}\n"
    assert parse_focus(app) == "com.android.chrome"
    assert parse_focus("  mCurrentFocus=Window{1a2b u0 NotificationShade}\n") == \
        "com.android.systemui"
    assert parse_focus("  mCurrentFocus=null\n  mFocusedApp=ActivityRecord{4f1d u0 "
                       "com.google.android.dialer/.Main t12}\n") == "com.google.android.dialer"
    assert parse_focus("nothing here") is None


def test_a_phone_of_another_size_maps_onto_the_contract_frame() -> None:
    size = (1440, 3120)
    assert to_phone(540, 1200, size) == (720, 1560)
    assert to_phone(1079, 2399, size) == (1439, 3119)
    xml = '<node bounds="[0,0][1440,3120]" /><node bounds="[720,1560][1440,1690]" />'
    assert to_contract(xml, size) == \
        '<node bounds="[0,0][1080,2400]" /><node bounds="[540,1200][1080,1300]" />'
    assert to_contract(xml, (1080, 2400)) == xml


class FakeAndroid:
    """A phone whose providers answer as Android's do: the contacts provider has no flat
    columns (it is read by joining ``data`` rows), ``sms`` refuses the shell user, there is no
    alarms provider. Commands arrive as the probe sends them (quoted for a shell)."""

    NAME = "vnd.android.cursor.item/name"

    def __init__(self) -> None:
        self.contacts: dict[int, dict[str, Any]] = {}
        self.raws: dict[int, int] = {}  # raw contact -> contact
        self.data: dict[int, dict[str, Any]] = {}
        self.commands: list[str] = []
        self.settings = {"system": {"font_scale": "1.0"}, "secure": {}, "global": {}}

    def add(self, name: str, **cols: str) -> int:
        cid = raw = max(self.contacts, default=0) + 1
        self.contacts[cid] = {"_id": cid, "display_name": name, "starred": 0}
        self.raws[raw] = cid
        self._data(raw, self.NAME, name)
        mimes = {"number": "vnd.android.cursor.item/phone_v2",
                 "email": "vnd.android.cursor.item/email_v2"}
        for col, value in cols.items():
            self._data(raw, mimes[col], value)
        return cid

    def _data(self, raw: int, mime: str, value: str) -> None:
        did = max(self.data, default=0) + 1
        self.data[did] = {"_id": did, "raw_contact_id": raw, "contact_id": self.raws[raw],
                          "mimetype": mime, "data1": value}
        if mime == self.NAME:
            self.contacts[self.raws[raw]]["display_name"] = value

    @staticmethod
    def _print(rows: list[dict[str, Any]], projection: list[str] | None) -> str:
        if not rows:
            return "No result found.\n"
        return "".join(f"Row: {n} " + ", ".join(f"{c}={r[c]}" for c in projection or r) + "\n"
                       for n, r in enumerate(rows))

    def shell(self, command: str) -> str:
        self.commands.append(command)
        if command.startswith("dumpsys window"):
            return "  mCurrentFocus=Window{1 u0 com.google.android.contacts/.Main}\n"
        argv = shlex.split(command)
        if argv[:2] == ["settings", "list"]:
            return "".join(f"{k}={v}\n" for k, v in self.settings[argv[2]].items())
        if argv[0] == "sha256sum":
            return "".join(f"{'0' * 64}  {p}\n" for p in argv[1:])
        assert argv[0] == "content", command
        opts: dict[str, Any] = {"--bind": []}
        for k in range(2, len(argv), 2):
            if argv[k] == "--bind":
                opts["--bind"].append(argv[k + 1])
            else:
                opts[argv[k]] = argv[k + 1]
        uri, verb = opts["--uri"], argv[1]
        table = uri.rsplit("/", 1)[-1]
        if table == "sms":
            return ("Error while accessing provider:sms\njava.lang.SecurityException: "
                    "Permission Denial: opening provider\n")
        if table == "alarms":
            return "Error while accessing provider:com.android.deskclock\nCould not find " \
                   "provider\n"
        if table in ("events", "calls"):
            return "No result found.\n"
        binds = {b.split(":", 2)[0]: b.split(":", 2)[2] for b in opts["--bind"]}
        where = int(opts["--where"].split("=")[1]) if "--where" in opts else None
        rows = {"contacts": self.contacts, "data": self.data,
                "raw_contacts": {r: {"_id": r, "contact_id": c} for r, c in self.raws.items()}
                }[table]
        if verb == "query":
            proj = opts["--projection"].split(":") if "--projection" in opts else None
            have = set(next(iter(rows.values()))) if rows else set(proj or ())
            if proj and not set(proj) <= have:
                bad = sorted(set(proj) - have)[0]
                return ("Error while accessing provider:com.android.contacts\n"
                        f"java.lang.IllegalArgumentException: Invalid column {bad}\n")
            return self._print(list(rows.values()), proj)
        if verb == "insert" and table == "raw_contacts":
            raw = max(self.raws, default=0) + 1
            cid = max(self.contacts, default=0) + 1
            self.raws[raw] = cid
            self.contacts[cid] = {"_id": cid, "display_name": "", "starred": 0}
        elif verb == "insert" and table == "data":
            self._data(int(binds["raw_contact_id"]), binds["mimetype"], binds["data1"])
        elif verb == "update" and table == "contacts":
            assert where is not None
            self.contacts[where]["starred"] = int(binds["starred"])
        elif verb == "update" and table == "data":
            assert where is not None
            row = self.data[where]
            row["data1"] = binds["data1"]
            if row["mimetype"] == self.NAME:
                self.contacts[row["contact_id"]]["display_name"] = binds["data1"]
        elif verb == "delete" and table == "contacts":
            assert where is not None
            del self.contacts[where]
            self.data = {k: d for k, d in self.data.items() if d["contact_id"] != where}
            self.raws = {r: c for r, c in self.raws.items() if c != where}
        else:
            raise AssertionError(command)
        return ""

    def list_dir(self, path: str) -> list[tuple[str, int, int]]:
        tree = {"/sdcard/": [("DCIM", 0o40771, 0), ("Android", 0o40771, 0),
                             ("a.txt", 0o100660, 3)],
                "/sdcard/DCIM/": [("p.jpg", 0o100660, 9)],
                "/sdcard/Android/": [("data", 0o40771, 0)]}
        return tree.get(path, [])

    def push(self, path: str, data: bytes) -> None:
        raise AssertionError("not used")


def test_android_contacts_provider_is_read_and_written_through_data_rows() -> None:
    fake = FakeAndroid()
    ada = fake.add("Ada Lovelace", number="+44 20 7946 0000", email="ada@example.org")
    bob = fake.add("Bob, Jr.")
    probe = AdbProbe(fake)
    assert probe.contacts() == [
        {"_id": ada, "display_name": "Ada Lovelace", "number": "+44 20 7946 0000",
         "email": "ada@example.org", "postal_address": "", "company": "", "starred": 0},
        {"_id": bob, "display_name": "Bob, Jr.", "number": "", "email": "",
         "postal_address": "", "company": "", "starred": 0},
    ]
    assert probe.tables() == ["contacts", "calendar", "call_log", "files", "settings/system",
                              "settings/secure", "settings/global"]
    assert set(probe.unserved) == {"sms", "alarms"}
    with pytest.raises(Unsupported, match="Permission Denial"):
        probe.query("sms")
    with pytest.raises(Unsupported):
        probe.insert("sms", {"body": "x"})
    assert probe.query("files") == [{"_id": "/sdcard/DCIM/p.jpg", "size": 9, "sha256": "0" * 64},
                                    {"_id": "/sdcard/a.txt", "size": 3, "sha256": "0" * 64}]
    assert probe.foreground_app() == "com.google.android.contacts"
    new = probe.insert("contacts", {"display_name": "Cy O'Neil", "number": "555 0100",
                                    "company": "Acme, Inc.", "starred": 1})
    probe.update("contacts", ada, {"number": "+44 20 7946 0001", "company": "Babbage & Co",
                                   "starred": 1})
    probe.delete("contacts", bob)
    rows = {r["_id"]: r for r in probe.contacts()}
    assert set(rows) == {ada, new}
    assert rows[new] == {"_id": new, "display_name": "Cy O'Neil", "number": "555 0100",
                         "email": "", "postal_address": "", "company": "Acme, Inc.",
                         "starred": 1}
    assert rows[ada]["number"] == "+44 20 7946 0001" and rows[ada]["company"] == "Babbage & Co"
    assert rows[ada]["starred"] == 1
    with pytest.raises(ValueError, match="no contacts row"):
        probe.update("contacts", 999, {"starred": 0})
    # every value travelled quoted: no command line carries an unquoted apostrophe
    for command in fake.commands:
        shlex.split(command)



def test_a_dump_is_retaken_until_two_agree() -> None:
    """Mid-transition dumps differ: the device dumps again until two consecutive ones agree,
    at most ``dump_retries`` more times, keeps the last good one when a dump fails, and says
    so when none works."""
    def device_with(dumps: list[str | None], retries: int) -> tuple[AdbDevice, list[int]]:
        d = AdbDevice.__new__(AdbDevice)  # no connection: only the dump loop is exercised
        d._dirty, d._xml, d._xml_time, d.dump_max_age = True, None, 0.0, 1.0
        d._dump_retries, d._facts = retries, {"virtual": False, "size": (1080, 2400)}
        calls = [0]

        def dump_once() -> str | None:
            calls[0] += 1
            return dumps[min(calls[0], len(dumps)) - 1]

        d._dump_once = dump_once  # type: ignore[method-assign]
        return d, calls

    a, b, c = (f"<hierarchy>{x}</hierarchy>" for x in "abc")
    d, calls = device_with([a, b, b, c], 3)
    assert d.a11y_xml() == b and calls[0] == 3
    assert d.a11y_xml() == b and calls[0] == 3  # reused: no action since, young enough
    d, calls = device_with([a, b, c, a, b], 3)
    assert d.a11y_xml() == a and calls[0] == 4  # never settled: the last one
    d, calls = device_with([None, a, a], 0)
    assert d.a11y_xml() == a  # a failed dump is taken again even with no retries
    d, calls = device_with([a, None], 1)
    assert d.a11y_xml() == a
    d, _ = device_with([None], 2)
    with pytest.raises(DeviceError, match="no hierarchy"):
        d.a11y_xml()


# -- the virtual phone's two additions (no network: VirtualPhone.shell) -------------------------
def test_setprop_phoneworld_reset_rebuilds_the_world_of_the_seed() -> None:
    phone = VirtualPhone(seed=0)
    phone.shell("am start -n com.phoneworld.contacts/.MainActivity; "
                "content delete --uri content://com.android.contacts/contacts --where _id=1")
    out, code = phone.shell("setprop phoneworld.reset 7; getprop ro.phoneworld.seed")
    assert (out, code) == (b"7\n", 0)
    twin = PhoneWorldDevice()
    twin.reset(7)
    assert phone.device.probe.snapshot() == twin.probe.snapshot()
    assert phone.device.a11y_xml() == twin.a11y_xml()  # home screen, as after any reset
    for bad in ("-1", "x", str(2**63), ""):
        out, code = phone.shell(f"setprop phoneworld.reset '{bad}'")
        assert code == 1 and b"Failed to set property" in out, bad
    out, code = phone.shell("setprop ro.product.model Pixel")
    assert code == 1 and b"not permitted" in out


def test_adbkeyboard_broadcast_types_any_text_into_the_focused_field() -> None:
    import base64

    phone = VirtualPhone(seed=0)
    text = "héllo 😀 مرحبا\nשלום; $(reboot) 'q'"
    b64 = base64.b64encode(text.encode()).decode()
    out, code = phone.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {b64}")  # no focus yet
    assert code == 0 and b"Broadcast completed: result=0" in out
    phone.shell("am start -n com.phoneworld.contacts/.MainActivity")
    els = parse_ui_elements(phone.device.a11y_xml())
    bar = next(i for i, e in enumerate(els) if (e.resource_id or "").endswith("/search_bar"))
    phone.device.execute(Action("click", index=bar))
    out, code = phone.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {b64}")
    assert code == 0 and out.startswith(b"Broadcasting: Intent { act=ADB_INPUT_B64")
    assert parse_ui_elements(phone.device.a11y_xml())[bar].text == text
    phone.shell("am broadcast -a ADB_INPUT_TEXT --es msg ' plain'")
    assert parse_ui_elements(phone.device.a11y_xml())[bar].text == text + " plain"
    out, code = phone.shell("am broadcast -a ADB_INPUT_B64 --es msg '%%%'")
    assert code == 1 and b"not base64" in out
    out, code = phone.shell("am broadcast -a SOMETHING_ELSE")
    assert code == 0 and parse_ui_elements(phone.device.a11y_xml())[bar].text == text + " plain"


# -- the phone's identity: a restarted or different phone ends the episode ------------------------
def test_phone_identity_is_read_from_getprop_and_the_boot_id() -> None:
    boot = "0f2d6b1e-3c4a-4e5f-9a8b-7c6d5e4f3a2b"
    pixel = PhoneIdentity.parse(f"R58M123ABC\ngoogle/oriole/oriole:14/UQ1A/1:user/release-keys\n"
                                f"{boot}\n")
    assert pixel == PhoneIdentity("R58M123ABC", "google/oriole/oriole:14/UQ1A/1:user/"
                                  "release-keys", boot)
    # a phone whose shell may not read the boot id: compared by serial and build only
    locked = PhoneIdentity.parse("R58M123ABC\ngoogle/oriole/oriole:14/UQ1A/1:user/release-keys\n"
                                 "cat: /proc/sys/kernel/random/boot_id: Permission denied\n")
    assert locked.boot_id == "" and locked.change(pixel) == "" and pixel.change(locked) == ""
    rebooted = PhoneIdentity(pixel.serialno, pixel.fingerprint, "1" * 8 + boot[8:])
    assert pixel.change(pixel) == ""
    assert pixel.change(rebooted) == ("it restarted (boot id 0f2d6b1e... is now 11111111...), "
                                      "so its state is not the episode's")
    other = PhoneIdentity("emulator-5554", "google/sdk_gphone64/emu:14/U/1:userdebug/dev-keys",
                          boot)
    assert pixel.change(other) == (
        "another phone answers there now (serial number emulator-5554, build "
        "google/sdk_gphone64/emu:14/U/1:userdebug/dev-keys; it was R58M123ABC, build "
        "google/oriole/oriole:14/UQ1A/1:user/release-keys)")


@needs_adb
def test_a_restarted_phone_ends_the_episode_and_the_next_reset_plays_on(adb_port: int) -> None:
    """The virtual phone restarts on the same port mid-episode (same serial, new boot id):
    the step that reconnects to it ends the episode truncated, saying the phone changed; the
    next reset plays a whole episode on the restarted phone."""
    port = free_port()
    phone = VirtualPhone(port=port, seed=0).start()
    try:
        dev = AdbDevice(phone.serial, port=adb_port, reconnect_timeout=5.0)
        assert dev.identity == PhoneIdentity(f"phoneworld-{port}",
                                             phone.props["ro.build.fingerprint"], phone.boot_id)
        env = PhoneEnv(tasks="ContactsStar", device=dev, obs_mode="a11y")
        obs, _ = env.reset(seed=0)
        obs, *_ = env.step(next(env.oracle()))
        before = phone.boot_id
        phone.stop()
        phone = VirtualPhone(port=port, seed=0).start()
        assert phone.boot_id != before
        obs2, reward, term, trunc, info = env.step(Action("navigate_back"))
        assert trunc and not term and reward == 0.0 and not info["success"]
        assert info["device_error"] == (
            f"the phone {phone.serial} changed: it restarted (boot id {before[:8]}... is now "
            f"{phone.boot_id[:8]}...), so its state is not the episode's")
        assert info["action_error"] == f"the device failed: {info['device_error']}"
        assert obs2 == obs and info["steps"] == 2
        assert dev.identity is not None and dev.identity.boot_id == phone.boot_id
        result = play(env, 0, oracle)
        assert result["reward"] == 1.0 and not result["device_error"] and not result["errors"]
        assert dev.check_identity() == PhoneIdentity(f"phoneworld-{port}",
                                                     phone.props["ro.build.fingerprint"],
                                                     phone.boot_id)
    finally:
        phone.stop()


@needs_adb
def test_a_phone_the_adb_server_reconnected_by_itself_is_noticed(adb_port: int) -> None:
    """The adb server reconnects a network phone on its own: a phone restarted between two
    steps then answers without any command failing. The identity check after a pause still
    sees the new boot id, before the verifier reads the restarted phone's (seed-fresh)
    contacts and scores them."""
    port = free_port()
    phone = VirtualPhone(port=port, seed=0).start()
    try:
        dev = AdbDevice(phone.serial, port=adb_port, reconnect_timeout=5.0,
                        identity_check_after=0.2)
        env = PhoneEnv(tasks="ContactsStar", device=dev, obs_mode="a11y")
        result = play(env, 0, oracle)  # the identity holds across a whole episode
        assert result["reward"] == 1.0 and not result["device_error"]
        env.reset(seed=0)
        for action in env.oracle():  # the star is set; only the verdict is left
            if action.action_type in ("status", "answer"):
                break
            *_, term, trunc, _ = env.step(action)
            assert not (term or trunc)
        phone.stop()
        phone = VirtualPhone(port=port, seed=0).start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
                phone.stats["connections"] and
                {d.serial: d.state for d in dev._client.list()}.get(phone.serial) == "device"):
            time.sleep(0.05)
        assert phone.stats["connections"] == 1, "the adb server did not reconnect the phone"
        time.sleep(0.3)  # past identity_check_after
        attaches: list[int] = []
        attach = dev._attach

        def counted() -> None:
            attaches.append(1)
            attach()

        dev._attach = counted  # type: ignore[method-assign]
        _, reward, term, trunc, info = env.step(Action("status", goal_status="complete"))
        assert trunc and not term and reward == 0.0
        assert info["device_error"].startswith(f"the phone {phone.serial} changed: it "
                                               "restarted (boot id ")
        assert attaches == []  # no command failed: the check found it
        assert play(env, 0, oracle)["reward"] == 1.0
    finally:
        phone.stop()
