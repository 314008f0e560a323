"""Incremental frames are exact: at every step of every task's oracle (and of random action
sequences), the frame the phone repainted from the previous one equals, pixel for pixel, a
full paint of the same world on a fresh phone; the frame it reused for an unchanged world is
the one a rebuild gives; screenshots handed out are never written again; the caches behind
reset and snapshot change nothing that can be observed."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import phoneworld_gym
from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.contract import DIRECTIONS
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui import render as R
from phoneworld_gym.world import World

TASK_IDS = [t.id for t in phoneworld_gym.list_tasks()]
SIZES = [(1080, 2400), (540, 1200)]
APP_LABELS = [a.label for a in phoneworld_gym.list_apps() if a.kind != "system"]


def phone(env: PhoneEnv) -> PhoneWorldDevice:
    """The env's PhoneWorld device."""
    assert isinstance(env.device, PhoneWorldDevice)
    return env.device


def full_paint(device: PhoneWorldDevice) -> np.ndarray:
    """A from-scratch frame of ``device``'s world: a fresh phone restored from its snapshot,
    drawn by a full paint."""
    fresh = PhoneWorldDevice(screenshot_size=device.screenshot_size)
    fresh.restore(device.snapshot())
    dl = R.display_list(fresh.screen.root, fresh.screenshot_size)
    if fresh.world.settings["secure"].get("ui_night_mode") == "2" and not fresh.screen.dark:
        dl = R.night_list(dl)
    frame = R.paint(dl)
    assert fresh.a11y_xml() == device.a11y_xml(), "the cached frame is not the world's frame"
    return frame


def check_frame(device: PhoneWorldDevice, shot: np.ndarray, where: str) -> None:
    expected = full_paint(device)
    if not np.array_equal(shot, expected):
        bad = np.argwhere(np.any(shot != expected, axis=2))
        raise AssertionError(f"{where}: {len(bad)} pixels differ from a full paint, first at "
                             f"(row, col) {bad[:3].tolist()}; repaint {device._renderer.last}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_frames_equal_full_paints(task_id: str, size: tuple[int, int]) -> None:
    env = PhoneEnv(tasks=task_id, screenshot_size=size)
    for seed in (0, 1):
        obs, _ = env.reset(seed=seed)
        check_frame(phone(env), obs["screenshot"], f"{task_id} seed {seed} reset")
        plan = env.oracle()
        for step in range(100):
            action = next(plan, Action("status", goal_status="complete"))
            obs, _, term, trunc, _ = env.step(action)
            check_frame(phone(env), obs["screenshot"],
                        f"{task_id} seed {seed} step {step} ({action.action_type})")
            if term or trunc:
                break


def random_actions(rng: np.random.Generator, device: PhoneWorldDevice,
                   steps: int) -> Iterator[Action]:
    """Plausible actions: taps on elements, typing into fields, scrolls, the system buttons,
    the shade, Overview and opening apps."""
    for _ in range(steps):
        elements = device.ui_elements()
        kind = rng.choice(["tap", "tap", "tap", "type", "scroll", "back", "home", "open",
                           "shade", "overview", "long", "enter"])
        if kind == "tap" and elements:
            yield Action("click", index=int(rng.integers(len(elements))))
        elif kind == "type":
            fields = [i for i, e in enumerate(elements) if e.is_editable]
            if fields:
                yield Action("input_text", index=int(rng.choice(fields)),
                             text=str(rng.choice(["a", "Polo", "Aiko", "555 0100", "zz"])),
                             clear_text=bool(rng.integers(2)))
        elif kind == "scroll":
            yield Action("scroll", direction=str(rng.choice(DIRECTIONS[:2])))
        elif kind == "back":
            yield Action("navigate_back")
        elif kind == "home":
            yield Action("navigate_home")
        elif kind == "open":
            yield Action("open_app", app_name=str(rng.choice(APP_LABELS)))
        elif kind == "shade":
            yield Action("swipe", direction=str(rng.choice(["down", "up"])), x=540, y=20)
        elif kind == "overview":
            device.overview()
            yield Action("wait")
        elif kind == "long" and elements:
            yield Action("long_press", index=int(rng.integers(len(elements))))
        elif kind == "enter":
            yield Action("keyboard_enter")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seed", range(4))
def test_random_action_frames_equal_full_paints(seed: int, size: tuple[int, int]) -> None:
    device = PhoneWorldDevice(screenshot_size=size)
    device.reset(seed)
    rng = np.random.default_rng(seed)
    check_frame(device, device.screenshot(), f"seed {seed} start")
    for step, action in enumerate(random_actions(rng, device, 40)):
        device.execute(action)
        check_frame(device, device.screenshot(), f"seed {seed} step {step} {action}")


def test_dialog_scrim_overview_and_keyboard_frames_are_exact() -> None:
    """The translucent scrim, Overview's pictures and the keyboard opening and closing."""
    device = PhoneWorldDevice(screenshot_size=(540, 1200))
    device.reset(3)
    steps: list[Any] = [
        Action("open_app", app_name="Contacts"),
        lambda: device.overview(),
        lambda: device.overview(),
        Action("open_app", app_name="Shopping"),
        lambda: device.overview(),
        Action("navigate_back"),
        Action("swipe", direction="down", x=540, y=20),
        Action("swipe", direction="up", x=540, y=600),
    ]
    for i, step in enumerate(steps):
        if callable(step):
            step()
            device.invalidate()
        else:
            device.execute(step)
        check_frame(device, device.screenshot(), f"step {i}")
    # a dialog (Shopping's sort) and a focused field with the keyboard
    device.execute(Action("open_app", app_name="Shopping"))
    for desc in ("Search products",):
        hits = [i for i, e in enumerate(device.ui_elements()) if desc in (e.text or "")
                or desc in (e.content_description or "")]
        if hits:
            device.execute(Action("click", index=hits[0]))
            check_frame(device, device.screenshot(), f"tap {desc}")
            device.execute(Action("input_text", text="shirt"))
            check_frame(device, device.screenshot(), "typed")
    sort = [i for i, e in enumerate(device.ui_elements()) if (e.text or "").startswith("Sort")]
    if sort:
        device.execute(Action("click", index=sort[0]))
        check_frame(device, device.screenshot(), "sort dialog")
        device.execute(Action("navigate_back"))
        check_frame(device, device.screenshot(), "dialog closed")


# -- painting is local: any rectangle repaints exactly ---------------------------------------
def random_ops(rng: np.random.Generator, w: int, h: int, n: int) -> list[R.Op]:
    """A random display list over a w x h frame: every kind of op, overlapping and clipped."""
    ops: list[R.Op] = [(R.FILL, 0, 0, w, h, (255, 255, 255))]

    def color() -> tuple[int, int, int]:
        return tuple(int(c) for c in rng.integers(0, 256, 3))  # type: ignore[return-value]

    for _ in range(n):
        x1, y1 = int(rng.integers(-20, w)), int(rng.integers(-20, h))
        x2, y2 = x1 + int(rng.integers(1, w // 2)), y1 + int(rng.integers(1, h // 3))
        clip = (int(rng.integers(0, w // 4)), int(rng.integers(0, h // 4)),
                int(rng.integers(w // 2, w + 1)), int(rng.integers(h // 2, h + 1)))
        area = (max(x1, clip[0]), max(y1, clip[1]), min(x2, clip[2]), min(y2, clip[3]))
        if area[2] <= area[0] or area[3] <= area[1]:
            continue
        kind = int(rng.integers(6))
        if kind == 0:
            ops.append((R.FILL, *area, color()))
        elif kind == 1:
            fill = color() if rng.integers(3) else None
            outline = color() if rng.integers(2) or fill is None else None
            ops.append((R.RRECT, *area, x1, y1, x2, y2, int(rng.integers(0, 60)), fill,
                        outline, int(rng.integers(1, 8))))
        elif kind == 2:
            run = str(rng.choice(["Hello", "Soleil Polo", "\uf005", "$45.99", "Wy"]))
            weight = "icon" if run == "\uf005" else "regular"
            px = int(rng.integers(8, 60))
            mask, dx, dy = R.glyph_mask(run, px, weight, "lm")
            mx, my = x1 + dx, y1 + dy
            a = (max(mx, clip[0]), max(my, clip[1]), min(mx + mask.shape[1], clip[2]),
                 min(my + mask.shape[0], clip[3]))
            if a[2] > a[0] and a[3] > a[1]:
                ops.append((R.TEXT, *a, mx, my, (run, px, weight, "lm"), color()))
        elif kind == 3:
            ops.append((R.ELLIPSE, *area, x1, y1, x2, y2, color()))
        elif kind == 4:
            ops.append((R.BLEND, *area, color(), int(rng.integers(1, 255))))
        else:
            ops.append((R.FILL, *area, color()))
    return ops


@pytest.mark.parametrize("seed", range(12))
def test_painting_any_rectangles_equals_a_full_paint(seed: int) -> None:
    rng = np.random.default_rng(seed)
    w, h = 320, 480
    old = R.DisplayList(random_ops(rng, w, h, 40), {}, (w, h))
    new = R.DisplayList(random_ops(rng, w, h, 40), {}, (w, h))
    full = R.paint(new)
    # repaint the old frame in random rectangles that together cover all it, in any order
    frame = R.paint(old)
    rects = [(0, 0, w, h // 3), (0, h // 3, w // 2, h), (w // 2, h // 3, w, 2 * h // 3),
             (w // 2, 2 * h // 3, w, h)]
    rng.shuffle(rects)  # type: ignore[arg-type]
    R.paint(new, frame, [tuple(r) for r in rects])  # type: ignore[misc]
    assert np.array_equal(frame, full)


@pytest.mark.parametrize("seed", range(12))
def test_incremental_renderer_equals_full_paints_over_random_edits(seed: int) -> None:
    """A sequence of display lists, each an edit of the last (ops added, removed, moved,
    recoloured, reordered), through one FrameRenderer."""
    rng = np.random.default_rng(100 + seed)
    w, h = 240, 360
    renderer = R.FrameRenderer((w, h))
    ops = random_ops(rng, w, h, 30)
    for _ in range(15):
        edit = int(rng.integers(4))
        ops = list(ops)
        if edit == 0 and len(ops) > 2:
            del ops[int(rng.integers(1, len(ops)))]
        elif edit == 1:
            ops[1:1] = random_ops(rng, w, h, 3)[1:]
        elif edit == 2 and len(ops) > 3:
            i, j = sorted(int(x) for x in rng.choice(range(1, len(ops)), 2, replace=False))
            ops[i], ops[j] = ops[j], ops[i]
        elif len(ops) > 1:
            i = int(rng.integers(1, len(ops)))
            if ops[i][0] == R.FILL:  # a fill that moved (the keyboard pairing)
                x1, y1, x2, y2 = ops[i][1:5]
                ops[i] = (R.FILL, x1, y1, x2, max(y1 + 1, y2 - int(rng.integers(0, 40))),
                          ops[i][5])
        dl = R.DisplayList(ops, {}, (w, h))
        frame = renderer.frame_of(dl)
        assert np.array_equal(frame, R.paint(dl)), renderer.last


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sprites_paint_what_blending_paints(size: tuple[int, int],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Text and small shapes drawn from sprites over a known backdrop equal the same ops
    blended and painted piece by piece."""
    frames = []
    for task_id in TASK_IDS[::6]:
        env = PhoneEnv(tasks=task_id, obs_mode="a11y", screenshot_size=size)
        env.reset(seed=2)
        frames.append(R.display_list(phone(env).screen.root, size))
        for action in env.oracle():
            env.step(action)
            frames.append(R.display_list(phone(env).screen.root, size))
    for dl in frames:
        with_sprites = R.paint(dl)
        monkeypatch.setattr(R, "SPRITES", False)
        without = R.paint(dl)
        monkeypatch.setattr(R, "SPRITES", True)
        assert np.array_equal(with_sprites, without)


def test_damage_of_equal_and_reordered_lists() -> None:
    a = (R.FILL, 0, 0, 10, 10, (1, 2, 3))
    b = (R.FILL, 5, 5, 20, 20, (4, 5, 6))
    assert R.damage([a, b], [a, b], 100, 100) == []
    assert R.damage([a, b], [b, a], 100, 100) is None  # the shared ops changed order
    c = (R.FILL, 50, 50, 60, 60, (7, 8, 9))
    assert R.damage([a, b], [a, b, c], 100, 100) == [(50, 50, 60, 60)]
    # a fill of one colour that only grew damages what it newly covers
    grown = (R.FILL, 5, 5, 20, 30, (4, 5, 6))
    assert R.damage([a, b], [a, grown], 100, 100) == [(5, 20, 20, 30)]


# -- ownership and caches ---------------------------------------------------------------------
def test_screenshots_are_read_only_and_never_written_again() -> None:
    env = PhoneEnv(tasks="ShoppingAddToCartOptions", screenshot_size=(540, 1200))
    obs, _ = env.reset(seed=0)
    kept = [(obs["screenshot"], obs["screenshot"].copy())]
    for action in env.oracle():
        obs, *_ = env.step(action)
        kept.append((obs["screenshot"], obs["screenshot"].copy()))
    shots = [k[0] for k in kept]
    for shot, copy_ in kept:
        assert np.array_equal(shot, copy_), "a screenshot handed out was changed later"
    for a, b in zip(shots, shots[1:]):
        assert not np.shares_memory(a, b), "two observations share their pixels"
    frame = phone(env).screenshot()
    assert not frame.flags.writeable
    with pytest.raises(ValueError):
        frame[0, 0, 0] = 1


def test_an_unchanged_world_reuses_its_frame_and_a_replaced_dict_does_not() -> None:
    device = PhoneWorldDevice(screenshot_size=(540, 1200))
    device.reset(0)
    device.execute(Action("open_app", app_name="Contacts"))
    screen, shot = device.screen, device.screenshot()
    device.touched()
    assert device.screen is screen and device.screenshot() is shot  # nothing changed
    # an equal but different dict: handlers of the old frame would write into the old one
    stack = device.world.stacks["contacts"]
    stack[-1] = copy.deepcopy(stack[-1])
    device.touched()
    rebuilt = device.screen
    assert rebuilt is not screen
    device.world.toast = {"text": "hello", "ttl": 2}
    device.touched()
    assert device.screen is not rebuilt and "hello" not in device.a11y_xml()
    check_frame(device, device.screenshot(), "toast")
    # the foreground app's store is in the fingerprint
    again = device.screen
    device.world.stores["contacts"]["contacts"][0]["first"] = "Aaabel"
    device.touched()
    assert device.screen is not again and "Aaabel" in device.a11y_xml()
    # invalidate() (what the device verbs call) always rebuilds
    same = device.screen
    device.invalidate()
    assert device.screen is not same


def test_a_mini_apps_store_is_in_its_hosts_fingerprint() -> None:
    """A mini-app lives on its host's back stack, so with the host in front an action may
    change either store: both are fingerprinted."""
    device = PhoneWorldDevice()
    device.reset(0)
    device.execute(Action("open_app", app_name="Chat"))
    hosted = {n for n, a in device.apps.items() if a.host == "chat"}
    assert hosted and set(device._scope()) == {"chat", *hosted}
    screen = device.screen
    device.world.stores[sorted(hosted)[0]]["_probe"] = 1
    device.touched()
    assert device.screen is not screen


def test_a_device_verb_on_a_background_app_shows_in_the_foreground_frame() -> None:
    """Messages in front shows contacts' names from Contacts' store; a contact inserted
    through the device's write verb (a store outside the action scope) is on the next frame."""
    device = PhoneWorldDevice()
    device.reset(0)
    number = "+1 415-555-0199"
    device.insert("sms", {"address": number, "body": "Are we still on for Friday?",
                          "date": 1773484200000, "type": 1, "read": 0})
    device.execute(Action("open_app", app_name="Messages"))
    assert number in device.a11y_xml() and "Quincy" not in device.a11y_xml()
    device.insert("contacts", {"display_name": "Quincy Newcontact", "number": number})
    assert "Quincy Newcontact" in device.a11y_xml()


def test_reset_from_the_start_world_cache_is_a_fresh_world() -> None:
    device = PhoneWorldDevice()
    device.reset(5)
    first = device.world.to_json()
    device.world.stores["contacts"]["contacts"].clear()  # change the world in place ...
    device.world.clock = "2030-01-01T00:00:00"
    device.invalidate()  # ... and say so, as code outside actions and verbs must
    device.reset(5)
    assert device.world.to_json() == first
    other = PhoneWorldDevice()
    other.reset(5)
    assert other.world.to_json() == first
    assert other.world.stores["contacts"] is not device.world.stores["contacts"]
    assert device._generate(5).to_json() == first  # the cache holds what generation gives


def test_snapshot_restore_and_hash_match_the_deep_copy_forms() -> None:
    env = PhoneEnv(tasks="ContactsStar")
    env.reset(seed=1)
    for action in env.oracle():
        env.step(action)
        w = phone(env).world
        reference = copy.deepcopy(dataclasses.asdict(w))
        assert w.snapshot() == reference
        assert w.to_json() == json.dumps(reference, sort_keys=True, ensure_ascii=False,
                                         separators=(",", ":"))
        snap = w.snapshot()
        other = World()
        other.restore(snap)
        assert other.state_hash() == w.state_hash()
        snap["stores"]["contacts"]["contacts"].clear()  # a snapshot shares nothing
        assert other.state_hash() == w.state_hash()


def test_a_device_with_frames_pickles_without_them() -> None:
    device = PhoneWorldDevice(screenshot_size=(108, 240))
    device.reset(0)
    device.execute(Action("open_app", app_name="Shopping"))
    shot = device.screenshot()
    clone = pickle.loads(pickle.dumps(device))
    assert np.array_equal(clone.screenshot(), shot)
    assert clone.a11y_xml() == device.a11y_xml()


@pytest.mark.parametrize("mode", ["a11y", "pixels"])
def test_what_obs_mode_drops_is_never_made(mode: str) -> None:
    env = PhoneEnv(tasks="ContactsStar", obs_mode=mode, screenshot_size=(108, 240))
    env.reset(seed=0)
    for action in env.oracle():
        env.step(action)
        device = phone(env)
        if mode == "a11y":
            assert device._renderer._frame is None, "a screenshot was drawn in a11y mode"
        else:
            assert device.screen._xml is None, "the tree was dumped in pixels mode"
