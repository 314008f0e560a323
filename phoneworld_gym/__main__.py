"""Command line: list tasks, look at a task's start screen, replay its oracle, or play it.

    python -m phoneworld_gym list [--app Shopping] [--category cross-app] [--split test]
    python -m phoneworld_gym show ShoppingAddToCartOptions --seed 3 --out out/start.png
    python -m phoneworld_gym oracle ShoppingAddToCartOptions --seed 3 --out out/oracle.png
    python -m phoneworld_gym play ContactsStar --seed 0 --out out/play.png
    python -m phoneworld_gym play --web --task ShoppingWishlistAdd --port 8000
    python -m phoneworld_gym judge out/eval --judge alice
    python -m phoneworld_gym serve-adb --port 6520 --seed 0
    python -m phoneworld_gym serve-env --port 8000 --max-sessions 64
    python -m phoneworld_gym eval --agent oracle --split test --seeds 0:3 --out out/eval
    python -m phoneworld_gym replay out/eval --episode ContactsStar-s0
    python -m phoneworld_gym table --phoneworld out/eval --realphone out/phone

``play`` reads one action per line: AndroidWorld JSON (``{"action_type": "click",
"index": 3}``) or a short form: ``click 3``, ``tap 540 1200``, ``long 3``, ``type 3 hello``,
``enter``, ``scroll down``, ``swipe up``, ``back``, ``home``, ``open Shopping``, ``wait``,
``answer 42``, ``done``, ``infeasible``. After each step it prints the numbered elements and
rewrites the screenshot at ``--out``. ``play --web`` plays in a browser page instead and
records each finished episode (``--record``, default out/human); ``judge`` is a page for
marking recorded episodes a success or a failure (``phoneworld_gym.web``).

``eval`` plays an agent (``oracle``, ``random``, ``checkpoint:PATH``, ``openai:MODEL``) over a
selection of tasks and seeds with a progress bar, resumable, and writes the episodes, a
report and replays into ``--out`` (``phoneworld eval --help``;
:mod:`phoneworld_gym.baselines.evalrun`).
``replay`` writes an animated GIF and an HTML page of recorded episodes.

``serve-adb`` serves a phone over the adb protocol until Ctrl-C: ``adb connect
127.0.0.1:6520``, then ``adb shell``, ``adb exec-out screencap -p``, ``adb pull`` ... (see
docs/real-devices.md). It listens on loopback unless ``--host`` names another address.

Installed with pip, the same commands run as ``phoneworld list``, ``phoneworld show ...``.
A user error (an unknown task, app, category or split, an ``--out`` that cannot be written, a
seed that is not a number) prints one ``phoneworld: error:`` line and exits 2 before any work
starts; a ``list`` filter that matches nothing exits 1.
"""

from __future__ import annotations

import argparse
import difflib
import errno
import json
import os
import sys
from typing import Any, NoReturn

import gymnasium as gym

import phoneworld_gym
from phoneworld_gym.contract import Action, parse_ui_elements
from phoneworld_gym.env import PhoneEnv
from phoneworld_gym.task import CATEGORIES, SELECTION_TEXT, SELECTIONS, all_tasks
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


class CliError(Exception):
    """A user error: printed as one ``phoneworld: error:`` line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(" ".join(message.split()))
        self.code = code


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors raise :class:`CliError` instead of printing the
    usage and exiting, so that every error reads the same."""

    def error(self, message: str) -> NoReturn:
        """argparse's hook for a bad command line."""
        raise CliError(message, 2)


def _size(text: str) -> tuple[int, int]:
    """``--size``: "WIDTHxHEIGHT" -> (width, height), both positive."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        msg = f"expected WIDTHxHEIGHT such as 540x1200, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"width and height must be positive, got {text!r}")
    return w, h


def _arg_parser() -> argparse.ArgumentParser:
    """The parser for every subcommand (its errors raise :class:`CliError`)."""
    script = os.path.basename(sys.argv[0]) == "phoneworld"
    p = _Parser(prog="phoneworld" if script else "python -m phoneworld_gym", description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True,
                           metavar="{list,show,oracle,play,eval,replay,judge,serve-adb,"
                                   "serve-env,table}")
    lp = sub.add_parser("list", help="registered tasks")
    lp.add_argument("--app", help="an app's name or label, in any case: shopping or Shopping")
    lp.add_argument("--category", choices=CATEGORIES)
    lp.add_argument("--split", choices=SELECTIONS,
                    help="; ".join(f"{k}: {v}" for k, v in SELECTION_TEXT.items()))
    helps = {"show": "a task's start screen and its numbered elements",
             "oracle": "replay a task's oracle and write a filmstrip",
             "play": "play a task, one action per line on stdin"}
    for name, text in helps.items():
        sp = sub.add_parser(name, help=text)
        sp.add_argument("task", nargs="?" if name == "play" else None,
                        help="a task id such as ContactsStar (see the list command)")
        sp.add_argument("--seed", type=int, default=0)
        sp.add_argument("--out", help=f"image to write (default out/{name}.png)")
        sp.add_argument("--size", type=_size, default=(540, 1200),
                        help="screenshot WIDTHxHEIGHT (default 540x1200)")
    from phoneworld_gym.baselines import evalrun, replay

    ep = sub.add_parser("eval", help="evaluate an agent over tasks and seeds; report and replays",
                        description=evalrun.__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    evalrun.add_arguments(ep)
    rp = sub.add_parser("replay", help="GIF and HTML replays of recorded episodes",
                        description=replay.__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    replay.add_arguments(rp)
    from phoneworld_gym.baselines import table

    tp = sub.add_parser("table", help="one model's PhoneWorld, AndroidWorld and real-phone "
                        "success side by side", description=table.__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    table.add_arguments(tp)
    from phoneworld_gym.web import cli as web_cli

    web_cli.add_arguments(sub)  # play --web and judge
    from phoneworld_gym.envserver import cli as env_cli

    env_cli.add_arguments(sub)  # serve-env (OpenEnv)
    sp = sub.add_parser("serve-adb", help="serve a phone over adb (adb connect HOST:PORT)")
    sp.add_argument("--port", type=int, default=6520,
                    help="TCP port, 0 for a free one (default 6520; avoid 5555-5585, which "
                         "adb scans for emulators)")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--profile", choices=("clean", "field"), default="clean",
                    help="clean: the tidy PhoneWorld phone (default); field: a less tidy one, "
                         "as real phones are (seeded interstitial prompts, a stale first dump "
                         "after each action, a per-seed colour theme; docs/real-devices.md)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1; anything else lets other "
                         "machines control the phone, with no authentication)")
    return p


def serve_adb(port: int, seed: int, host: str, profile: str = "clean") -> int:
    """``serve-adb``: serve a phone of ``profile`` (``clean`` or ``field``) over adb until
    Ctrl-C."""
    from phoneworld_gym.virtual.adb_server import EMULATOR_PORTS, VirtualPhone, is_loopback

    if not 0 <= port <= 65535:
        raise CliError(f"--port must be in 0..65535, got {port}")
    if not is_loopback(host):
        print(f"phoneworld: warning: serving adb on {host}:{port} with no authentication: "
              "anyone who can reach this address controls the phone", file=sys.stderr)
    if port in EMULATOR_PORTS:
        print(f"phoneworld: warning: port {port} is in 5555-5585, which the adb server scans: "
              "it will also list the phone as an emulator", file=sys.stderr)
    phone = VirtualPhone(host=host, port=port, seed=seed, profile=profile)
    try:
        phone.start()
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise CliError(f"cannot listen on {host}:{port}: the port is in use; pick another "
                           "--port (0 picks a free one)") from None
        raise CliError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    kind = "" if profile == "clean" else f", {profile} profile"
    print(f"virtual adb phone (seed {seed}{kind}) on {phone.serial}; connect with: "
          f"adb connect {phone.serial}   (Ctrl-C stops)", flush=True)
    phone.serve_forever()
    return 0


def resolve_app(value: str) -> str:
    """An app's short name from its name or label in any case ("Shopping" -> "shopping");
    :class:`CliError` naming the installed apps when none matches."""
    apps = phoneworld_gym.list_apps()
    for app in apps:
        if value.strip().lower() in (app.name.lower(), app.label.lower()):
            return app.name
    have = ", ".join(f"{a.label} ({a.name})" for a in apps)
    raise CliError(f"unknown app {value!r}; installed apps: {have}")


def resolve_task(value: str) -> str:
    """``value`` if it is a registered task id, else :class:`CliError` with close matches."""
    tasks = all_tasks()
    if value in tasks:
        return value
    by_lower = {t.lower(): t for t in tasks}
    close = [by_lower[m] for m in difflib.get_close_matches(value.lower(), by_lower, n=3,
                                                              cutoff=0.6)]
    said = ", ".join(close[:-1]) + " or " + close[-1] if len(close) > 1 else "".join(close)
    hint = f"did you mean {said}?" if close else "see the list command for the task ids"
    raise CliError(f"unknown task {value!r}; {hint}")


def check_out(path: str) -> None:
    """Fail before any work when the image at ``path`` could not be written: a missing or
    unwritable folder, a folder in the way, or a file type Pillow cannot write."""
    from PIL import Image

    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        why = "is not a folder" if os.path.exists(parent) else "does not exist"
        raise CliError(f"--out {path!r}: folder {parent!r} {why}")
    if os.path.isdir(path):
        raise CliError(f"--out {path!r} is a folder; give a file name such as {path}/out.png")
    if not os.access(parent, os.W_OK | os.X_OK) or (
            os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CliError(f"--out {path!r}: not writable")
    ext = os.path.splitext(path)[1].lower()
    if Image.registered_extensions().get(ext) not in Image.SAVE:
        raise CliError(f"--out {path!r}: cannot write {ext or 'extension-less'!r} images; "
                       "use .png")


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); the exit status: 0 done,
    1 nothing matched, 2 a usage error. Errors print one ``phoneworld: error:`` line."""
    try:
        return _run(_arg_parser().parse_args(argv))
    except CliError as e:
        print(f"phoneworld: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``phoneworld list | head``): no traceback on the way out
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _run(a: argparse.Namespace) -> int:
    """Carry out one parsed command."""
    from phoneworld_gym.web import cli as web_cli

    if web_cli.wants_page(a):
        return web_cli.run(a, CliError)
    if a.cmd == "serve-env":
        from phoneworld_gym.envserver import cli as env_cli

        return env_cli.run(a, CliError)
    if a.cmd == "serve-adb":
        return serve_adb(a.port, a.seed, a.host, a.profile)
    if a.cmd == "eval":
        from phoneworld_gym.baselines import evalrun

        return evalrun.run_cli(a)
    if a.cmd == "replay":
        from phoneworld_gym.baselines import replay

        return replay.run_cli(a)
    if a.cmd == "table":
        from phoneworld_gym.baselines import table

        return table.run_cli(a)
    if a.cmd == "list":
        app = None if a.app is None else resolve_app(a.app)
        tasks = phoneworld_gym.list_tasks(app=app, category=a.category, split=a.split)
        if not tasks:
            given = " ".join(f"--{k} {v}" for k, v in
                             (("app", a.app), ("category", a.category), ("split", a.split))
                             if v is not None)
            raise CliError(f"no task matches {given}", 1)
        for t in tasks:
            print(f"{t.env_id():45s} {t.category:22s} {t.difficulty:7s} {t.split:5s} "
                  f"{t.template}")
        return 0

    if a.task is None:
        raise CliError(f"{a.cmd} needs a task id (or --web, to pick one in the page)")
    task_id = resolve_task(a.task)
    out = a.out
    if out is None:  # the default folder is made on demand; one the user names must exist
        out = f"out/{a.cmd}.png"
        try:
            os.makedirs(os.path.dirname(out), exist_ok=True)
        except OSError as e:
            raise CliError(f"cannot make the folder for {out!r}: {e.strerror}") from None
    check_out(out)

    env = gym.make("PhoneWorld/All-v0", screenshot_size=a.size)
    phone: PhoneEnv = env.unwrapped  # type: ignore[assignment]
    obs, info = env.reset(seed=a.seed, options={"task": task_id})
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

        Image.fromarray(obs["screenshot"]).save(out)
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                action = parse_command(line)
                obs, reward, term, trunc, info = env.step(action)
            except ValueError as e:
                print(f"! {e}")
                continue
            Image.fromarray(obs["screenshot"]).save(out)
            print(describe(obs))
            if info["action_error"]:
                print(f"! {info['action_error']}")
            if term or trunc:
                print(f"reward {reward}, success {info['success']}, steps {info['steps']}")
                return 0
        return 0
    filmstrip(frames, labels).save(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
