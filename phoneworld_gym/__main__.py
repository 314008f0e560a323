"""Command line: list tasks, look at a task's start screen, replay its oracle, or play it.

    python -m phoneworld_gym list [--app shopping] [--category cross-app] [--split test]
    python -m phoneworld_gym show ShoppingAddToCartOptions --seed 3 --out out/start.png
    python -m phoneworld_gym oracle ShoppingAddToCartOptions --seed 3 --out out/oracle.png
    python -m phoneworld_gym play ContactsStar --seed 0 --out out/play.png

``play`` reads one action per line: AndroidWorld JSON (``{"action_type": "click",
"index": 3}``) or a short form: ``click 3``, ``tap 540 1200``, ``long 3``, ``type 3 hello``,
``enter``, ``scroll down``, ``swipe up``, ``back``, ``home``, ``open Shopping``, ``wait``,
``answer 42``, ``done``, ``infeasible``. After each step it prints the numbered elements and
rewrites the screenshot at ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import gymnasium as gym

import phoneworld_gym
from phoneworld_gym.contract import Action, parse_ui_elements
from phoneworld_gym.env import PhoneEnv
from phoneworld_gym.viz import filmstrip


def parse_command(line: str) -> Action:
    """One line of ``play`` input -> an Action (``ValueError`` with the accepted forms)."""
    line = line.strip()
    if line.startswith("{"):
        return Action.from_json(line)
    word, _, rest = line.partition(" ")
    rest = rest.strip()
    args = rest.split()
    try:
        if word in ("click", "double", "long"):
            t = {"click": "click", "double": "double_tap", "long": "long_press"}[word]
            return Action(t, index=int(args[0]))
        if word == "tap":
            return Action("click", x=int(args[0]), y=int(args[1]))
        if word == "type":
            idx, _, text = rest.partition(" ")
            return Action("input_text", index=int(idx), text=text, clear_text=True)
        if word in ("scroll", "swipe"):
            return Action(word, direction=args[0])
        simple = {"enter": "keyboard_enter", "back": "navigate_back", "home": "navigate_home",
                  "wait": "wait"}
        if word in simple:
            return Action(simple[word])
        if word == "open":
            return Action("open_app", app_name=rest)
        if word == "answer":
            return Action("answer", text=rest)
        if word in ("done", "infeasible"):
            return Action("status", goal_status="complete" if word == "done" else "infeasible")
    except (IndexError, ValueError) as e:
        raise ValueError(f"cannot read {line!r}: {e}") from None
    raise ValueError(f"unknown command {word!r}; see python -m phoneworld_gym --help")


def describe(obs: dict[str, Any]) -> str:
    """The numbered element list an agent would index into."""
    rows = []
    for i, e in enumerate(parse_ui_elements(obs["a11y"])):
        flags = "".join(c for c, on in (("c", e.is_clickable), ("e", e.is_editable),
                                        ("s", e.is_scrollable), ("x", e.is_checked)) if on)
        rows.append(f"  {i:3d} [{flags:<3}] {e.describe()!r}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m phoneworld_gym", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("list", help="registered tasks")
    lp.add_argument("--app")
    lp.add_argument("--category")
    lp.add_argument("--split")
    for name in ("show", "oracle", "play"):
        sp = sub.add_parser(name)
        sp.add_argument("task")
        sp.add_argument("--seed", type=int, default=0)
        sp.add_argument("--out", default=f"out/{name}.png")
        sp.add_argument("--size", default="540x1200", help="screenshot WIDTHxHEIGHT")
    a = p.parse_args(argv)

    if a.cmd == "list":
        for t in phoneworld_gym.list_tasks(app=a.app, category=a.category, split=a.split):
            print(f"{t.env_id():45s} {t.category:22s} {t.difficulty:7s} {t.split:5s} "
                  f"{t.template}")
        return 0

    w, h = (int(v) for v in a.size.lower().split("x"))
    env = gym.make("PhoneWorld/All-v0", screenshot_size=(w, h))
    phone: PhoneEnv = env.unwrapped  # type: ignore[assignment]
    obs, info = env.reset(seed=a.seed, options={"task": a.task})
    print(f"goal: {obs['goal']}\nparams: {json.dumps(info['params'])}")
    frames, labels = [obs["screenshot"]], ["start"]
    if a.cmd == "show":
        print(describe(obs))
    elif a.cmd == "oracle":
        for action in phone.oracle():
            obs, reward, term, trunc, info = env.step(action)
            frames.append(obs["screenshot"])
            labels.append(f"{info['steps']}. {action.to_json_str()}")
            print(labels[-1] + (f"  [{info['action_error']}]" if info["action_error"] else ""))
            if term or trunc:
                break
        if not phone.done:
            obs, reward, term, trunc, info = env.step(Action("status", goal_status="complete"))
        print(f"reward {reward}, success {info['success']}, steps {info['steps']}")
    else:
        print(describe(obs))
        from PIL import Image

        Image.fromarray(obs["screenshot"]).save(a.out)
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                action = parse_command(line)
                obs, reward, term, trunc, info = env.step(action)
            except ValueError as e:
                print(f"! {e}")
                continue
            Image.fromarray(obs["screenshot"]).save(a.out)
            print(describe(obs))
            if info["action_error"]:
                print(f"! {info['action_error']}")
            if term or trunc:
                print(f"reward {reward}, success {info['success']}, steps {info['steps']}")
                return 0
        return 0
    filmstrip(frames, labels).save(a.out)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
