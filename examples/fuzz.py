"""Soak test: random actions on the phone and random-agent episodes over every task, for a
time budget. Reports crashes, and meaningless actions that changed the world (there should be
none of either).

    python examples/fuzz.py --seconds 120
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
import traceback
import xml.etree.ElementTree as ET

import gymnasium as gym

import phoneworld_gym
from phoneworld_gym.baselines.agents import RandomAgent
from phoneworld_gym.contract import ACTION_TYPES, DIRECTIONS, Action
from phoneworld_gym.phone import PhoneWorldDevice

TEXTS = ["", "a", "hello world", "<&>\"'", "\x00\x1b\u202e", "😀中文", "x" * 300, "12345", "\n\t"]


def random_action(rnd: random.Random, n_elements: int) -> Action | None:
    t = rnd.choice(ACTION_TYPES)
    kw: dict = {}
    targeted = t in ("click", "double_tap", "long_press")
    if targeted or (t in ("input_text", "scroll", "swipe") and rnd.random() < 0.7):
        if rnd.random() < 0.8 and n_elements:
            kw["index"] = rnd.randrange(n_elements + 2)
        else:
            kw["x"], kw["y"] = rnd.randrange(1080), rnd.randrange(2400)
    if t in ("input_text", "answer"):
        kw["text"] = rnd.choice(TEXTS)
    if t == "input_text":
        kw["clear_text"] = rnd.random() < 0.5
    if t in ("scroll", "swipe"):
        kw["direction"] = rnd.choice(DIRECTIONS)
    if t == "open_app":
        kw["app_name"] = rnd.choice(["Shopping", "Contacts", "Nope", "contacts"])
    if t == "status":
        kw["goal_status"] = "complete"
    try:
        return Action(t, **kw)
    except ValueError:
        return None


def soak_device(seconds: float, rnd: random.Random) -> tuple[int, int]:
    d = PhoneWorldDevice(screenshot_size=(108, 240))
    t0, n, bad = time.time(), 0, 0
    while time.time() - t0 < seconds:
        d.reset(rnd.randrange(10**6))
        for app in rnd.sample(["Shopping", "Contacts"], k=rnd.randint(0, 2)):
            d.execute(Action("open_app", app_name=app))
        for _ in range(60):
            a = random_action(rnd, len(d.ui_elements()))
            if a is None:
                continue
            before = d.world.state_hash()
            try:
                err = d.execute(a)
                ET.fromstring(d.a11y_xml())
                d.screenshot()
            except Exception:
                traceback.print_exc()
                print("action:", a)
                bad += 1
                break
            n += 1
            if err and d.world.state_hash() != before:
                print("a meaningless action changed the world:", a, err)
                bad += 1
    return n, bad


def soak_episodes(seconds: float) -> tuple[int, int]:
    env = gym.make("PhoneWorld/All-v0", obs_mode="a11y", disable_env_checker=True)
    tasks = [t.id for t in phoneworld_gym.list_tasks()]
    t0, eps, bad = time.time(), 0, 0
    for i in itertools.count():
        if time.time() - t0 > seconds:
            break
        agent = RandomAgent(seed=i, stop_prob=0.02)
        obs, _ = env.reset(seed=i, options={"task": tasks[i % len(tasks)]})
        agent.reset(obs["goal"])
        try:
            while True:
                obs, _, term, trunc, _ = env.step(agent.act(obs))
                if term or trunc:
                    break
        except Exception:
            traceback.print_exc()
            bad += 1
        eps += 1
    return eps, bad


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=120.0, help="budget, split in two halves")
    p.add_argument("--seed", type=int, default=12345)
    a = p.parse_args()
    n, bad1 = soak_device(a.seconds / 2, random.Random(a.seed))
    print(f"device: {n} random actions, {bad1} problems")
    eps, bad2 = soak_episodes(a.seconds / 2)
    print(f"env: {eps} random-agent episodes over every task, {bad2} crashes")
    raise SystemExit(1 if bad1 or bad2 else 0)


if __name__ == "__main__":
    main()
