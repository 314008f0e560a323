"""PhoneWorld behind android_env (``PhoneWorldSimulator``, ``make_android_env``) and the
``AndroidEnvDevice`` that runs PhoneWorld's tasks over android_env, tested without an emulator:
android_env drives PhoneWorld through its own API, and AndroidEnvDevice drives that env."""

from __future__ import annotations

import shlex
import types
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

android_env = pytest.importorskip(
    "android_env", reason="android_env is not installed (pip install -e '.[real]' or '.[dev]')")

from android_env.components import action_type  # noqa: E402
from android_env.proto import adb_pb2, state_pb2, task_pb2  # noqa: E402

import phoneworld_gym  # noqa: E402
from phoneworld_gym import Action, PhoneEnv  # noqa: E402
from phoneworld_gym.contract import parse_ui_elements  # noqa: E402
from phoneworld_gym.device import Device, Unsupported  # noqa: E402
from phoneworld_gym.phone import PhoneWorldDevice  # noqa: E402
from phoneworld_gym.real_device.android_env_device import (  # noqa: E402
    AndroidEnvDevice,
    AndroidEnvPhoneEnv,
    parse_content_rows,
)
from phoneworld_gym.virtual.android_env_sim import (  # noqa: E402
    PhoneWorldAndroidEnv,
    TouchTracker,
    make_android_env,
)

TOUCH, LIFT = int(action_type.ActionType.TOUCH), int(action_type.ActionType.LIFT)
KEYPRESS = int(action_type.ActionType.KEYPRESS)
CONTACTS = "com.phoneworld.contacts"
LAUNCHER = "com.google.android.apps.nexuslauncher"
PHONE_TASKS = [t.id for t in phoneworld_gym.list_tasks(app="contacts")]
OK = adb_pb2.AdbResponse.Status.OK


@pytest.fixture
def aenv() -> Iterator[Any]:
    """A factory of android_env envs over PhoneWorld, closed after the test."""
    made: list[Any] = []

    def make(*args: Any, **kwargs: Any) -> PhoneWorldAndroidEnv:
        env = make_android_env(*args, **kwargs)
        made.append(env)
        return env

    yield make
    for env in made:
        env.close()


def step(env: Any, kind: int, pos: tuple[float, float] = (0.0, 0.0), keycode: int = 0) -> Any:
    """One android_env step with a finger (or a key)."""
    action = {"action_type": np.array(kind, dtype=np.int32),
              "touch_position": np.array(pos, dtype=np.float32)}
    if "keycode" in env.action_spec():
        action["keycode"] = np.array(keycode, dtype=np.int32)
    return env.step(action)


def centre(env: PhoneWorldAndroidEnv, label: str) -> tuple[float, float]:
    """The normalised centre of the element labelled ``label`` in PhoneWorld's tree."""
    el = next(e for e in parse_ui_elements(env.device.a11y_xml())
              if label in (e.text, e.content_description, e.hint_text))
    assert el.bbox is not None
    return el.bbox.center


def adb(env: Any, **request: Any) -> adb_pb2.AdbResponse:
    return env.execute_adb_call(adb_pb2.AdbRequest(**request))


# -- android_env drives PhoneWorld -----------------------------------------------------------
@pytest.mark.parametrize("size", [(1080, 2400), (270, 600)])
def test_android_env_taps_the_contacts_icon(aenv, size):
    """A full episode through android_env's own API: reset, TOUCH and LIFT on the Contacts
    icon found in PhoneWorld's tree; the pixels change and Contacts is in front. Touch
    positions are normalised, so the same spot is hit at every screenshot size."""
    env = aenv(screenshot_size=size)
    w, h = size
    assert env.observation_spec()["pixels"].shape == (h, w, 3)
    first = env.reset()
    assert first.first() and first.observation["pixels"].shape == (h, w, 3)
    assert env.device.probe.foreground_app() == LAUNCHER
    pos = centre(env, "Contacts")
    down = step(env, TOUCH, pos)
    assert env.device.probe.foreground_app() == LAUNCHER  # nothing happens until the lift
    up = step(env, LIFT, pos)
    assert down.mid() and up.mid() and up.reward == 0.0
    assert env.device.probe.foreground_app() == CONTACTS
    changed = (up.observation["pixels"] != first.observation["pixels"]).any(axis=2).mean()
    assert changed > 0.3, changed
    activity = adb(env, get_current_activity=adb_pb2.AdbRequest.GetCurrentActivity())
    assert activity.status == OK
    assert activity.get_current_activity.full_activity.startswith(CONTACTS + "/")
    assert env.reset().first() and env.device.probe.foreground_app() == LAUNCHER


def test_key_events(aenv):
    """KEYPRESS with Android key codes: letters type, DEL deletes, BACK hides the keyboard,
    HOME goes home, APP_SWITCH opens Overview."""
    env = aenv()
    env.reset()
    step(env, TOUCH, centre(env, "Contacts"))
    step(env, LIFT)
    step(env, TOUCH, centre(env, "Search contacts"))
    step(env, LIFT)
    for code in (29, 41, 31, 67):  # a, m, c, DEL
        step(env, KEYPRESS, keycode=code)
    field = next(e for e in parse_ui_elements(env.device.a11y_xml()) if e.is_editable)
    assert field.text == "am" and field.is_focused
    step(env, KEYPRESS, keycode=4)  # BACK: the keyboard goes, the screen stays
    assert not any(e.is_focused for e in parse_ui_elements(env.device.a11y_xml()))
    assert env.device.probe.foreground_app() == CONTACTS
    step(env, KEYPRESS, keycode=3)  # HOME
    assert env.device.probe.foreground_app() == LAUNCHER
    step(env, KEYPRESS, keycode=187)  # APP_SWITCH: the Contacts card is in Overview
    assert env.device.world.foreground == "recents"
    assert any(e.text == "Contacts" or e.content_description == "Contacts"
               for e in parse_ui_elements(env.device.a11y_xml()))


def test_touch_tracker_turns_samples_into_gestures():
    t = TouchTracker(long_press_touches=3)
    assert t.feed(100, 500, True) is None and t.feed(0, 0, False).kind == "tap"
    t.feed(100, 500, True)
    assert t.feed(105, 503, True) is None  # within the slop: still a tap candidate
    lp = t.feed(102, 501, True)
    assert lp is not None and lp.kind == "long_press" and (lp.x, lp.y) == (100, 500)
    assert t.feed(0, 0, False) is None  # the long press already fired
    t.feed(500, 1500, True)
    t.feed(510, 1200, True)
    swipe = t.feed(515, 900, False)  # the lift's position is ignored
    assert swipe is not None and (swipe.kind, swipe.direction) == ("swipe", "up")
    assert (swipe.x, swipe.y) == (500, 1500)
    assert t.feed(10, 10, False) is None  # a lift with no finger down


def test_long_press_and_swipe_through_android_env(aenv):
    env = aenv()
    env.reset()
    step(env, TOUCH, centre(env, "Contacts"))
    step(env, LIFT)
    for _ in range(5):  # a still finger for five steps
        step(env, TOUCH, (0.5, 0.6))
    step(env, LIFT)
    step(env, TOUCH, (0.5, 0.7))
    step(env, TOUCH, (0.5, 0.5))
    step(env, TOUCH, (0.5, 0.3))
    step(env, LIFT)
    kinds = [a.action_type for a, _ in env.simulator.history]
    assert kinds == ["click", "long_press", "swipe"]
    swipe = env.simulator.history[-1][0]
    assert swipe.direction == "up" and swipe.y == int(0.7 * 2400)


def test_task_proto_adb_steps_reach_phoneworld(aenv):
    """A task proto's reset steps (start_activity) run through PhoneWorld's adb; android_env's
    adb calls are served or fail with ADB_ERROR and a message."""
    proto = task_pb2.Task(id="open_contacts", reset_steps=[task_pb2.SetupStep(
        adb_request=adb_pb2.AdbRequest(start_activity=adb_pb2.AdbRequest.StartActivity(
            full_activity=f"{CONTACTS}/.MainActivity")))])
    env = aenv(task_proto=proto)
    env.reset()
    assert env.device.probe.foreground_app() == CONTACTS
    assert adb(env, press_button=adb_pb2.AdbRequest.PressButton(
        button=adb_pb2.AdbRequest.PressButton.Button.HOME)).status == OK
    assert env.device.probe.foreground_app() == LAUNCHER
    icon = next(e for e in parse_ui_elements(env.device.a11y_xml())
                if e.text == "Contacts" or e.content_description == "Contacts")
    x, y = icon.bbox_pixels.center
    assert adb(env, tap=adb_pb2.AdbRequest.Tap(x=int(x), y=int(y))).status == OK
    assert env.device.probe.foreground_app() == CONTACTS
    assert adb(env, force_stop=adb_pb2.AdbRequest.ForceStop(package_name=CONTACTS)).status == OK
    assert env.device.probe.foreground_app() == LAUNCHER
    put = adb_pb2.AdbRequest.SettingsRequest(
        name_space=adb_pb2.AdbRequest.SettingsRequest.Namespace.SYSTEM,
        put=adb_pb2.AdbRequest.SettingsRequest.Put(key="screen_brightness", value="77"))
    assert adb(env, settings=put).status == OK
    assert env.device.probe.setting("system", "screen_brightness") == "77"
    listed = adb(env, package_manager=adb_pb2.AdbRequest.PackageManagerRequest(
        list=adb_pb2.AdbRequest.PackageManagerRequest.List(
            packages=adb_pb2.AdbRequest.PackageManagerRequest.List.Packages())))
    assert CONTACTS in listed.package_manager.list.items
    assert adb(env, get_orientation=adb_pb2.AdbRequest.GetOrientationRequest()).status == OK
    for bad in ({"start_activity": adb_pb2.AdbRequest.StartActivity(full_activity="no.such/.A")},
                {"install_apk": adb_pb2.AdbRequest.InstallApk(
                    blob=adb_pb2.AdbRequest.InstallApk.Blob(contents=b"apk"))},
                {"generic": adb_pb2.AdbRequest.GenericRequest(args=["shell", "reboot"])}):
        response = adb(env, **bad)
        assert response.status != OK and response.error_message, bad


def test_save_and_load_state(aenv):
    env = aenv()
    env.reset()
    assert env.save_state(state_pb2.SaveStateRequest(args={"snapshot_name": "home"})).status \
        == state_pb2.SaveStateResponse.Status.OK
    step(env, TOUCH, centre(env, "Contacts"))
    step(env, LIFT)
    assert env.device.probe.foreground_app() == CONTACTS
    loaded = env.load_state(state_pb2.LoadStateRequest(args={"snapshot_name": "home"}))
    assert loaded.status == state_pb2.LoadStateResponse.Status.OK
    assert env.device.probe.foreground_app() == LAUNCHER
    assert env.load_state(state_pb2.LoadStateRequest(args={"snapshot_name": "x"})).status \
        == state_pb2.LoadStateResponse.Status.NOT_FOUND


def test_a_phoneworld_task_gives_the_reward(aenv):
    """With a task attached, the goal is a task extra and the verifier ends the episode with
    reward 1 when the task is done (the same episode as PhoneEnv's first at that seed)."""
    env = aenv("ContactsStar", seed=4)
    device = AndroidEnvDevice(env)
    device.reset(4)
    ref = PhoneEnv("ContactsStar", obs_mode="a11y")
    _, info = ref.reset(seed=4)
    assert env.task_extras()["goal"] == info["goal"] == env.goal
    assert env.task is not None
    rewards = []
    for action in env.task.oracle(device):
        if action.action_type in ("status", "answer"):
            break
        device.execute(action)
        assert device.last_timestep is not None
        rewards.append(device.last_timestep.reward)
    assert device.last_timestep is not None and device.last_timestep.last()
    assert device.last_timestep.reward == 1.0 and sum(r or 0.0 for r in rewards) == 1.0
    assert float(env.task_extras()["score"]) == 1.0
    with pytest.raises(phoneworld_gym.device.DeviceError, match="ended its episode"):
        device.execute(Action("navigate_home"))


def test_truncation_scores_with_the_verifier(aenv):
    env = aenv("ContactsStar", max_steps=3)
    env.reset()
    steps = [step(env, LIFT) for _ in range(4)]
    assert [s.last() for s in steps] == [False, False, False, True]
    assert all(s.reward == 0.0 for s in steps)
    assert "contacts: changed nothing" in str(env.task_extras()["failure"])


# -- AndroidEnvDevice over that env ----------------------------------------------------------
def pair(aenv: Any, seed: int = 3) -> tuple[PhoneWorldDevice, AndroidEnvDevice]:
    """The same fresh world twice: PhoneWorld directly, and behind android_env."""
    direct = PhoneWorldDevice()
    direct.reset(seed)
    device = AndroidEnvDevice(aenv())
    device.reset(seed)
    return direct, device


def test_android_env_device_has_the_device_verbs(aenv):
    _, device = pair(aenv)
    assert isinstance(device, Device) and device.kind == "android_env"
    assert device.phoneworld and device.screen_size == (1080, 2400)


def test_contract_actions_have_the_same_effect(aenv):
    """Each action changes the world behind android_env as it changes PhoneWorld directly
    (same state hash, same accessibility tree; an error only where PhoneWorld gives one)."""
    direct, device = pair(aenv)
    behind = device.env.device
    actions = [
        Action("open_app", app_name="Contacts"),
        Action("input_text", index=0, text="a b"),
        Action("input_text", index=0, text="Ben", clear_text=True),
        Action("keyboard_enter"),
        Action("navigate_back"),
        Action("scroll", direction="down"),
        Action("swipe", direction="down"),
        Action("click", index=3),
        Action("navigate_back"),
        Action("long_press", index=3),
        Action("navigate_home"),
        Action("swipe", x=540, y=10, direction="down"),  # the notification shade
        Action("navigate_back"),
        Action("double_tap", index=0),
        Action("click", index=400),
        Action("input_text", text="x"),
        Action("open_app", app_name="No Such App"),
        Action("open_app", app_name="com.phoneworld.shopping"),
        Action("wait"),
    ]
    for action in actions:
        want = direct.execute(action)
        got = device.execute(action)
        # errors found before acting are PhoneWorld's; a gesture's outcome is not reported
        assert not got or want, (action, got)
        if "index" in want or action.action_type == "input_text":
            assert got == want, action
        assert device.a11y_xml() == direct.a11y_xml(), action
        # the same world, but for the clock: through android_env a typed text is a tap and
        # then keys, which take their own seconds (phoneworld_gym.contract.ACTION_SECONDS)
        assert behind.world.now() >= direct.world.now(), action
        clock = behind.world.clock
        behind.world.clock = direct.world.clock
        try:
            assert behind.world.state_hash() == direct.world.state_hash(), action
        finally:
            behind.world.clock = clock
        assert device.probe.foreground_app() == direct.probe.foreground_app()
    assert np.array_equal(device.screenshot(), direct.screenshot())


def test_probe_and_write_verbs_match_phoneworld(aenv):
    direct, device = pair(aenv, seed=5)
    assert device.probe.contacts() == direct.probe.contacts()
    for table in device.probe.tables():
        assert device.probe.query(table) == direct.probe.query(table), table
    row = {"display_name": "Zed Quux", "number": "+1 555-555-0100", "email": "z@q.org",
           "postal_address": "1 Main St, Springfield", "company": "Q, Inc.", "starred": 1}
    assert device.insert("contacts", row) == direct.insert("contacts", row)
    device.update("contacts", 2, {"starred": 1, "email": "two@x.org"})
    direct.update("contacts", 2, {"starred": 1, "email": "two@x.org"})
    device.delete("contacts", 3)
    direct.delete("contacts", 3)
    device.put_setting("secure", "location_mode", "0")
    direct.put_setting("secure", "location_mode", "0")
    device.push_file("/sdcard/Download/a.txt", b"hello")
    direct.push_file("/sdcard/Download/a.txt", b"hello")
    assert device.probe.snapshot() == {t: direct.probe.query(t) for t in device.probe.tables()}
    assert device.env.device.world.state_hash() == direct.world.state_hash()
    assert device.probe.setting("secure", "location_mode") == "0"
    assert device.probe.setting("secure", "nope") is None
    with pytest.raises(ValueError):
        device.delete("contacts", 999)
    with pytest.raises(Unsupported):
        device.probe.query("sms")
    with pytest.raises(Unsupported):
        device.insert("sms", {"address": "1", "body": "hi"})
    with pytest.raises(Unsupported):
        device.fixture("shopping", "add_to_cart")


@pytest.mark.parametrize("task_id", PHONE_TASKS)
def test_oracle_solves_phone_tasks_through_android_env(aenv, task_id):
    """PhoneEnv over AndroidEnvDevice over android_env over PhoneWorld: the oracle solves
    every phone-ready task, with the observations and world PhoneEnv has directly."""
    env = AndroidEnvPhoneEnv(task_id, device=AndroidEnvDevice(aenv()), obs_mode="a11y")
    ref = PhoneEnv(task_id, obs_mode="a11y")
    obs, info = env.reset(seed=11)
    ref_obs, ref_info = ref.reset(seed=11)
    assert info["goal"] == ref_info["goal"] and obs["a11y"] == ref_obs["a11y"]
    for action in ref.oracle():
        ref_obs, ref_reward, *_ = ref.step(action)
        obs, reward, term, trunc, info = env.step(action)
        assert not info["action_error"], (action, info["action_error"])
        assert obs["a11y"] == ref_obs["a11y"], action
        if term or trunc:
            break
    assert reward == ref_reward == 1.0, info["failure"]
    env.close()


def test_gym_id(make_env):
    env = make_env("PhoneWorld/AndroidEnv-v0", tasks="ContactsStar", obs_mode="a11y",
                   screenshot_size=(270, 600))
    obs, info = env.reset(seed=0)
    assert env.unwrapped.device.kind == "android_env"
    assert env.observation_space["a11y"].contains(obs["a11y"])
    for action in env.unwrapped.oracle():
        obs, reward, term, trunc, info = env.step(action)
        if term or trunc:
            break
    assert reward == 1.0 and info["success"]
    assert env.unwrapped.render() is None
    shot = env.unwrapped.device.screenshot()
    assert shot.shape == (600, 270, 3) and shot.dtype == np.uint8


# -- an Android contacts provider (no emulator: canned adb answers) ---------------------------
class FakeAndroid:
    """Stands in for an AndroidEnv over an Android emulator: adb answers as Android's
    contacts provider does (contacts + data rows), and records each command line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.contacts = [{"_id": 1, "display_name": "Ann Lee", "starred": 1},
                         {"_id": 2, "display_name": "Bo, Jr", "starred": 0}]
        self.data = [(1, "vnd.android.cursor.item/phone_v2", "+1 555-0101"),
                     (1, "vnd.android.cursor.item/email_v2", "ann@x.org"),
                     (1, "vnd.android.cursor.item/name", "Ann Lee"),
                     (2, "vnd.android.cursor.item/organization", "Acme, Inc.")]
        self.raw: list[int] = [1, 2]

    def action_spec(self) -> dict[str, Any]:
        return {"action_type": None, "touch_position": None}

    def observation_spec(self) -> dict[str, Any]:
        return {"pixels": types.SimpleNamespace(shape=(2400, 1080, 3))}

    def execute_adb_call(self, request: adb_pb2.AdbRequest) -> adb_pb2.AdbResponse:
        line = " ".join(request.generic.args[1:])
        self.lines.append(line)
        return adb_pb2.AdbResponse(status=OK, generic=adb_pb2.AdbResponse.GenericResponse(
            output=self.answer(shlex.split(line)).encode()))

    def answer(self, words: list[str]) -> str:
        if words[:1] == ["getprop"]:
            return "Google\n"
        if words[:2] == ["content", "query"]:
            uri = words[words.index("--uri") + 1]
            if uri.endswith("/contacts"):
                rows = [f"_id={c['_id']}, display_name={c['display_name']}, "
                        f"starred={c['starred']}" for c in self.contacts]
            elif uri.endswith("/raw_contacts"):
                rows = [f"_id={r}" for r in self.raw]
            else:
                rows = [f"contact_id={c}, mimetype={m}, data1={v}" for c, m, v in self.data]
            return "".join(f"Row: {i} {r}\n" for i, r in enumerate(rows)) or "No result found.\n"
        if words[:2] == ["content", "insert"] and words[3].endswith("/raw_contacts"):
            self.raw.append(max(self.raw) + 1)
            self.contacts.append({"_id": self.raw[-1], "display_name": "", "starred": 0})
        elif words[:2] == ["content", "insert"]:
            binds = dict(b.split(":", 2)[0::2] for b in words[5::2])
            self.data.append((int(binds["raw_contact_id"]), binds["mimetype"], binds["data1"]))
            if binds["mimetype"].endswith("/name"):
                self.contacts[-1]["display_name"] = binds["data1"]
        return ""


def test_contacts_on_an_android_provider():
    fake = FakeAndroid()
    device = AndroidEnvDevice(fake)  # type: ignore[arg-type]
    assert not device.phoneworld
    assert device.probe.contacts() == [
        {"_id": 1, "display_name": "Ann Lee", "number": "+1 555-0101", "email": "ann@x.org",
         "postal_address": "", "company": "", "starred": 1},
        {"_id": 2, "display_name": "Bo, Jr", "number": "", "email": "", "postal_address": "",
         "company": "Acme, Inc.", "starred": 0}]
    new = device.insert("contacts", {"display_name": "Cy Do", "number": "+1 555-0103"})
    assert new == 3
    inserts = [ln for ln in fake.lines if ln.startswith("content insert")]
    assert "raw_contacts" in inserts[0] and len(inserts) == 3
    assert "--bind mimetype:s:vnd.android.cursor.item/phone_v2" in inserts[2]
    assert "'data1:s:+1 555-0103'" in inserts[2]  # quoted for the device's shell
    assert device.probe.contacts()[-1]["number"] == "+1 555-0103"
    with pytest.raises(Unsupported, match="starred"):
        device.update("contacts", 1, {"email": "new@x.org"})


def test_parse_content_rows():
    text = ("Row: 0 _id=4, display_name=Ng, Ann, number=NULL\n"
            "Row: 1 _id=5, display_name=Li, number=+1 2\n")
    assert parse_content_rows(text, ("_id", "display_name", "number")) == [
        {"_id": 4, "display_name": "Ng, Ann", "number": None},
        {"_id": 5, "display_name": "Li", "number": "+1 2"}]
    assert parse_content_rows("No result found.\n") == []
    with pytest.raises(phoneworld_gym.device.DeviceError):
        parse_content_rows("Error while accessing provider:x\n")


def test_reward_rules_are_documented_for_answer_tasks(aenv):
    """android_env cannot answer: an information-retrieval task never scores through it."""
    env = aenv("ContactsLookupPhone", max_steps=2)
    env.reset()
    last = [step(env, LIFT) for _ in range(3)][-1]
    assert last.last() and last.reward == 0.0
    assert "answer" in str(env.task_extras()["failure"])
