"""The field profile (``phoneworld_gym.virtual.field``): interstitial prompts, stale first
reads after an action, a per-seed theme; over adb through ``VirtualPhone(profile="field")``;
and the gap it opens for a plan that does not expect prompts."""

from __future__ import annotations

import importlib.util
import shutil
from typing import Any

import numpy as np
import pytest

from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.app import all_apps
from phoneworld_gym.contract import parse_bounds, parse_ui_elements
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system.intents import PERMISSION_PACKAGE
from phoneworld_gym.virtual.adb_server import VirtualPhone, free_port
from phoneworld_gym.virtual.field import (
    PROMPT_KINDS,
    PROMPT_SCREEN,
    FieldPhone,
    dismiss_index,
    make_device,
    prompt_showing,
)

HAVE_ADB = shutil.which("adb") is not None and importlib.util.find_spec("adbutils") is not None
CONTACTS = "com.phoneworld.contacts"


def field_seed(app: str, kind: str | None = None, *, shows: bool = True) -> int:
    """The first seed whose field phone gives ``app`` a prompt (of ``kind``), or none."""
    phone = FieldPhone()
    for seed in range(200):
        phone.prompts = {}
        phone.reset(seed)
        got = phone.prompts.get(app)
        if (got is not None) == shows and (kind is None or got == kind):
            return seed
    raise AssertionError(f"no seed below 200 for {app} {kind} shows={shows}")


def read(device: Any) -> str:
    """The current tree of a field phone (the first read after an action may be stale)."""
    device.a11y_xml()
    return str(device.a11y_xml())


def centre(xml: str, text: str) -> tuple[int, int]:
    """The centre of the element showing ``text``."""
    import xml.etree.ElementTree as ET

    for n in ET.fromstring(xml).iter("node"):
        if n.get("text") == text:
            x1, y1, x2, y2 = parse_bounds(n.get("bounds") or "")
            return (x1 + x2) // 2, (y1 + y2) // 2
    raise AssertionError(f"no {text!r} on screen")


# -- prompts ---------------------------------------------------------------------------------
def test_clean_phone_never_shows_prompts() -> None:
    """A clean phone opens every app straight onto its own screen, and the registered apps
    have no prompt screen (a field phone changes only its own copies)."""
    FieldPhone().reset(0)  # a field phone exists in the process
    phone = PhoneWorldDevice()
    assert all(PROMPT_SCREEN not in app.screens for app in all_apps().values())
    for seed in range(6):
        phone.reset(seed)
        for app in phone.apps.values():
            if app.host is not None:
                continue  # a mini-app opens inside its host, never by open_app
            assert phone.execute(Action("open_app", app_name=app.label)) == ""
            if phone.probe.foreground_app() == PERMISSION_PACKAGE:
                phone.home()  # a runtime permission dialog is the app's, on any phone
                continue
            xml = phone.a11y_xml()
            assert not prompt_showing(xml) and dismiss_index(xml) is None, (seed, app.name)
            phone.home()


def test_prompts_are_drawn_from_the_seed() -> None:
    """Some seeds give Contacts a prompt and others do not; the same seed gives the same."""
    with_prompt, without = field_seed("contacts"), field_seed("contacts", shows=False)
    phone = FieldPhone()
    phone.reset(without)
    phone.execute(Action("open_app", app_name="Contacts"))
    assert not prompt_showing(read(phone)) and phone.shown == []
    for _ in range(2):
        phone.reset(with_prompt)
        phone.execute(Action("open_app", app_name="Contacts"))
        assert prompt_showing(read(phone))
        assert phone.shown == [("contacts", phone.prompts["contacts"])]
    counts = {k: 0 for k in PROMPT_KINDS}
    for seed in range(40):
        phone.reset(seed)
        for kind in phone.prompts.values():
            counts[kind] += 1
    assert all(counts.values()), counts  # every kind turns up
    assert 0.2 < sum(counts.values()) / (40 * len(phone.apps)) < 0.5


def test_prompt_tree_pixels_and_taps_agree() -> None:
    """A rate prompt in Contacts: the tree names the app's package and shows the prompt, the
    pixels differ from the clean phone's Contacts exactly there, "Not now" tapped at its
    bounds leads back to the contact list, and no table changed."""
    seed = field_seed("contacts", "rate")
    field, clean = FieldPhone(theme=False), PhoneWorldDevice()
    for phone in (field, clean):
        phone.reset(seed)
    before = field.probe.snapshot()
    for phone in (field, clean):
        phone.execute(Action("open_app", app_name="Contacts"))
    xml = read(field)
    assert prompt_showing(xml) and 'text="Rate Contacts"' in xml
    assert f'package="{CONTACTS}"' in xml and field.probe.foreground_app() == CONTACTS
    assert 'resource-id="com.phoneworld.contacts:id/search_bar"' not in xml
    x, y = centre(xml, "Not now")
    shot, plain = field.screenshot(), clean.screenshot()
    assert shot.shape == plain.shape and (shot != plain).any()
    # the button is drawn where the tree puts it: its pixels differ from the contact list's
    assert (shot[y - 10:y + 10, x - 40:x + 40] != plain[y - 10:y + 10, x - 40:x + 40]).any()
    assert field.execute(Action("click", x=x, y=y)) == ""
    after = read(field)
    assert not prompt_showing(after)
    assert 'resource-id="com.phoneworld.contacts:id/search_bar"' in after
    assert after == clean.a11y_xml()  # the same screen the clean phone shows
    field.screenshot()  # the first screenshot after the tap is mid-transition
    assert np.array_equal(field.screenshot(), clean.screenshot())
    assert field.probe.snapshot() == before
    # the app was already in front this episode: no second prompt
    field.execute(Action("navigate_home"))
    field.execute(Action("open_app", app_name="Contacts"))
    assert not prompt_showing(read(field))


@pytest.mark.parametrize("how", ["Rate", "Got it", "Allow", "Don't allow", "back"])
def test_every_way_out_of_a_prompt_leaves_tables_alone(how: str) -> None:
    """Accepting, dismissing or pressing Back closes the prompt onto the app underneath and
    changes no table (damage checks stay clean)."""
    kind = {"Rate": "rate", "Got it": "whatsnew", "Allow": "notify", "Don't allow": "notify",
            "back": "notify"}[how]
    seed = field_seed("contacts", kind)
    phone = FieldPhone()
    phone.reset(seed)
    before = phone.probe.snapshot()
    phone.execute(Action("open_app", app_name="Contacts"))
    xml = read(phone)
    assert prompt_showing(xml)
    if how == "Rate":
        stars = [e for e in parse_ui_elements(xml) if e.content_description == "4 stars"]
        assert stars
        phone.execute(Action("click", index=parse_ui_elements(xml).index(stars[0])))
        xml = read(phone)
        assert phone.world.top() is not None and phone.world.top()["state"]["stars"] == 4
    if how == "back":
        phone.execute(Action("navigate_back"))
    else:
        phone.execute(Action("click", x=centre(xml, how)[0], y=centre(xml, how)[1]))
    after = read(phone)
    assert not prompt_showing(after) and "search_bar" in after
    assert phone.probe.foreground_app() == CONTACTS
    assert phone.probe.snapshot() == before


def test_a_prompt_follows_an_app_brought_forward_by_a_launcher_tap() -> None:
    """Not only open_app: tapping the app's launcher icon brings the prompt too."""
    seed = field_seed("settings")
    phone = FieldPhone()
    phone.reset(seed)
    home = read(phone)
    phone.execute(Action("click", x=centre(home, "Settings")[0], y=centre(home, "Settings")[1]))
    assert prompt_showing(read(phone))
    assert phone.probe.foreground_app() == phone.apps["settings"].package


# -- transition delays -----------------------------------------------------------------------
def test_first_read_after_an_action_is_the_previous_frame() -> None:
    """The first dump and the first screenshot after a screen-changing action show the frame
    from before it; the next ones are current; a ``wait`` changes nothing."""
    phone = FieldPhone(prompt_prob=0.0)
    phone.reset(3)
    home_xml, home_px = phone.a11y_xml(), phone.screenshot()
    assert phone.execute(Action("open_app", app_name="Contacts")) == ""
    assert phone.a11y_xml() == home_xml  # mid-transition
    current = phone.a11y_xml()
    assert current != home_xml and "search_bar" in current
    assert phone.a11y_xml() == current
    assert np.array_equal(phone.screenshot(), home_px)
    now_px = phone.screenshot()
    assert not np.array_equal(now_px, home_px)
    phone.execute(Action("wait"))
    assert phone.a11y_xml() == current and np.array_equal(phone.screenshot(), now_px)
    # indices act on the current frame even while the dump is stale
    phone.execute(Action("navigate_home"))
    assert phone.probe.foreground_app() != CONTACTS
    # without delays, reads are current at once
    quick = FieldPhone(prompt_prob=0.0, delays=False)
    quick.reset(3)
    quick.execute(Action("open_app", app_name="Contacts"))
    assert quick.a11y_xml() == current


def test_snapshot_and_restore_keep_which_apps_were_seen() -> None:
    """A restored episode does not show a prompt twice, nor lose one not yet shown."""
    seed = field_seed("contacts")
    phone = FieldPhone()
    phone.reset(seed)
    start = phone.snapshot()
    phone.execute(Action("open_app", app_name="Contacts"))
    assert prompt_showing(read(phone))
    read(phone)
    phone.execute(Action("navigate_back"))
    seen = phone.snapshot()
    phone.restore(start)
    phone.execute(Action("open_app", app_name="Contacts"))
    assert prompt_showing(read(phone))
    phone.restore(seen)
    phone.execute(Action("open_app", app_name="Contacts"))
    assert not prompt_showing(read(phone))


# -- the theme -------------------------------------------------------------------------------
def test_theme_changes_pixels_per_seed_but_not_the_tree() -> None:
    """Each seed tints the pixels its own way; the tree and the untinted pixels are the
    clean phone's."""
    shots = []
    for seed in (field_seed("contacts", shows=False), 2):
        field, clean = FieldPhone(prompt_prob=0.0), PhoneWorldDevice()
        field.reset(seed)
        clean.reset(seed)
        assert field.a11y_xml() == clean.a11y_xml()
        raw, plain, tinted = field.raw_screenshot(), clean.screenshot(), field.screenshot()
        assert np.array_equal(raw, plain)
        assert tinted.shape == plain.shape and tinted.dtype == np.uint8
        diff = np.abs(tinted.astype(int) - plain.astype(int))
        assert diff.mean() > 1.0 and diff.mean() < 40.0, (seed, field.theme)  # mild
        shots.append(tinted)
    assert not np.array_equal(shots[0], shots[1])
    off = FieldPhone(prompt_prob=0.0, theme=False)
    off.reset(2)
    clean = PhoneWorldDevice()
    clean.reset(2)
    assert np.array_equal(off.screenshot(), clean.screenshot())


# -- over adb --------------------------------------------------------------------------------
def test_virtual_phone_profiles() -> None:
    """``VirtualPhone(profile=)`` builds the phone; bad combinations are refused; the CLI
    takes ``--profile``."""
    from phoneworld_gym.__main__ import _arg_parser

    phone = VirtualPhone(seed=5, profile="field")
    assert isinstance(phone.device, FieldPhone) and phone.device.seed == 5
    assert phone.props["ro.phoneworld.profile"] == "field"
    assert type(VirtualPhone(seed=5).device) is PhoneWorldDevice
    with pytest.raises(ValueError, match="profile"):
        VirtualPhone(profile="tidy")
    with pytest.raises(ValueError, match="FieldPhone"):
        VirtualPhone(device=PhoneWorldDevice(), profile="field")
    assert VirtualPhone(device=FieldPhone()).profile == "field"
    assert type(make_device("clean")) is PhoneWorldDevice
    a = _arg_parser().parse_args(["serve-adb", "--profile", "field", "--port", "0"])
    assert a.profile == "field"
    assert _arg_parser().parse_args(["serve-adb"]).profile == "clean"


def test_adb_device_sees_through_the_stale_dump(adb_port: int) -> None:
    """Over adb, a field phone's first dump after ``input`` is stale; ``AdbDevice`` with
    retries (dump until two agree; its default on a field phone, read from
    ``ro.phoneworld.profile``) gets the current tree, without them the stale one. Its
    reset reaches the field phone and draws the prompts from the seed."""
    from phoneworld_gym.real_device.adb_device import AdbDevice

    seed = field_seed("contacts")
    with VirtualPhone(port=free_port(), seed=0, profile="field") as phone:
        field = phone.device
        assert isinstance(field, FieldPhone)
        careful = AdbDevice(phone.serial, port=adb_port, guard=False, dump_retries=3)
        hasty = AdbDevice(phone.serial, port=adb_port, guard=False, dump_retries=0)
        default = AdbDevice(phone.serial, port=adb_port, guard=False)
        try:
            assert careful.shell("getprop ro.phoneworld.profile").strip() == "field"
            careful.reset(seed)
            assert field.seed == seed and "contacts" in field.prompts
            home = careful.a11y_xml()
            assert careful.execute(Action("open_app", app_name="Contacts")) == ""
            xml = careful.a11y_xml()
            assert xml != home and prompt_showing(xml)
            assert careful.probe.foreground_app() == CONTACTS
            i = dismiss_index(xml)
            assert i is not None
            assert careful.execute(Action("click", index=i)) == ""
            assert "search_bar" in careful.a11y_xml()
            # a field phone gets a real phone's retries by default; with none, the stale
            # dump comes through
            assert default.dump_retries == 3
            hasty.a11y_xml()
            hasty.execute(Action("navigate_home"))
            stale = hasty.a11y_xml()
            assert "search_bar" in stale
            assert "search_bar" not in field.a11y_xml()
        finally:
            careful.close()
            hasty.close()
            default.close()


# -- the gap ---------------------------------------------------------------------------------
def _play(env: PhoneEnv, task: str, seed: int, careful: bool) -> tuple[bool, bool]:
    """(success, met a prompt) for the oracle, optionally closing prompts first."""
    env.reset(seed=seed, options={"task": task})
    plan = env.oracle()
    device = env.device
    for _ in range(60):
        i = dismiss_index(device.a11y_xml()) if careful else None
        try:
            action = Action("click", index=i) if i is not None else \
                next(plan, Action("status", goal_status="complete"))
        except Exception:  # the plan met a screen it did not expect
            return False, bool(getattr(device, "shown", []))
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            return bool(info["success"]), bool(getattr(device, "shown", []))
    return False, bool(getattr(device, "shown", []))


def test_the_gap_is_real_and_surmountable() -> None:
    """On a field phone a prompt defeats the prompt-unaware oracle of some episode that the
    clean phone's oracle solves, and closing the prompt first solves it again."""
    tasks = ["ContactsCountFavorites", "ContactsStar", "ContactsLookupPhone"]
    clean = PhoneEnv(tasks=tasks, obs_mode="a11y")
    field = PhoneEnv(tasks=tasks, device=FieldPhone(), obs_mode="a11y")
    found = None
    prompted = 0
    for task in tasks:
        for seed in range(8):
            ok, met = _play(field, task, seed, careful=False)
            prompted += met
            if met and not ok:
                found = (task, seed)
                break
        if found:
            break
    assert found is not None, "no prompt defeated the oracle"
    assert prompted >= 1
    task, seed = found
    assert _play(clean, task, seed, careful=False) == (True, False)
    assert _play(field, task, seed, careful=True) == (True, True)
