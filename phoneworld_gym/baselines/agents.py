"""Agents share one interface: ``reset(goal)`` then ``act(observation) -> Action``.

- :class:`RandomAgent`: a floor that acts on what is on screen (taps what is clickable, types
  words of the goal into fields, scrolls what scrolls, goes back, opens apps), and avoids
  repeating an action that just changed nothing on the same screen.
- :class:`SpaceSampleAgent`: ``env.action_space.sample()``, the floor below the floor; most of
  its actions are meaningless on screen.
- :class:`OracleAgent`: replays the task's oracle through the UI; the upper bound and the
  expert behind demonstrations (``phoneworld_gym.baselines.collect``).
- :class:`HumanAgent`: a person typing actions (for ``source="human"`` trajectories).

``python -m phoneworld_gym.baselines.agents`` measures the share of meaningless actions
(``info["action_error"]``) of the random agent and of raw space samples over every task.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from phoneworld_gym.contract import Action, UIElement, parse_ui_elements


class Agent(Protocol):
    """What every baseline implements."""

    name: str

    def reset(self, goal: str) -> None:
        """Start a new episode with this instruction."""
        ...

    def act(self, observation: dict[str, Any]) -> Action:
        """The next action for the current observation."""
        ...


def default_app_names() -> tuple[str, ...]:
    """The labels of PhoneWorld's installed apps (what ``open_app`` accepts)."""
    import phoneworld_gym

    return tuple(a.label for a in phoneworld_gym.list_apps() if a.kind == "app")


def goal_words(goal: str) -> tuple[str, ...]:
    """Words (longer than two letters) and pairs of neighbouring words from the goal: what a
    random agent types, so that its typing is plausible (a fairer floor than noise)."""
    words = [w.strip(".,?!:;\"'()") for w in goal.split()]
    words = [w for w in words if len(w) > 2]
    pairs = [f"{a} {b}" for a, b in zip(words, words[1:])]
    return tuple(dict.fromkeys(words + pairs))


def reachable(xml: str, flag: str = "clickable") -> list[bool]:
    """For each indexed element (``parse_ui_elements``' order), whether it or an ancestor has
    ``flag`` (``clickable`` or ``long-clickable``): a tap on a text leaf inside a clickable row
    clicks the row, on a phone as here, and the leaf is how an index-based agent reaches it."""
    from phoneworld_gym.ui.dump import indexed_nodes  # the one element filter

    try:
        root = ET.fromstring(xml)
    except ET.ParseError as e:
        raise ValueError(f"accessibility XML is malformed: {e}") from None
    parent = {child: node for node in root.iter() for child in node}
    out = []
    for node, _ in indexed_nodes(root):
        hit: ET.Element | None = node
        while hit is not None and hit.get(flag) != "true":
            hit = parent.get(hit)
        out.append(hit is not None)
    return out


def _tree_key(xml: str) -> str:
    """A short digest of the screen's tree: equal trees are the same screen."""
    return hashlib.blake2b(xml.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


class RandomAgent:
    """Acts at random among what the current screen offers.

    Each step it declares completion with probability ``stop_prob``; otherwise it picks a kind
    of action by weight among the kinds the screen allows (a tap needs a clickable element
    or one inside a clickable container, typing an editable one, a scroll a scrollable one,
    enter a focused field) and then a target at random: tap such an element, type a word or
    two of the goal into a field (clearing it half of the time), scroll a scrollable element
    up or down, long-press, go back, go home, open an app. When an action left the tree
    unchanged, it is not tried again on that screen (it would be a no-op again). Needs the
    ``a11y`` observation.

    Args:
        seed: seeds the agent's generator (one agent per episode, seeded from the episode,
            makes its actions reproducible).
        stop_prob: probability of ``status: complete`` at each step.
        app_names: what ``open_app`` picks from (default: PhoneWorld's installed apps).
    """

    name = "random"

    #: relative weights of the kinds of action (renormalised over those the screen allows)
    WEIGHTS: dict[str, float] = {
        "click": 0.45, "input_text": 0.15, "scroll": 0.12, "long_press": 0.03,
        "keyboard_enter": 0.03, "navigate_back": 0.10, "navigate_home": 0.04, "open_app": 0.08,
    }
    #: tries to draw an action not known to be a no-op on this screen
    TRIES = 8

    def __init__(self, seed: int = 0, stop_prob: float = 0.05,
                 app_names: Sequence[str] | None = None):
        if not 0.0 <= stop_prob <= 1.0:
            raise ValueError(f"stop_prob must be in [0, 1], got {stop_prob!r}")
        self.rng = np.random.default_rng(seed)
        self.stop_prob = stop_prob
        self.app_names = tuple(app_names) if app_names is not None else default_app_names()
        if not self.app_names:
            raise ValueError("app_names is empty; give at least one app label")
        self.words: tuple[str, ...] = ("hello", "test", "blue", "42", "Maple Street")
        self._dead: set[tuple[str, str]] = set()
        self._last: tuple[str, str] | None = None

    def reset(self, goal: str) -> None:
        """Borrow the goal's words for typing; forget the previous episode's no-ops."""
        self.words = goal_words(goal) or ("hello", "test", "blue", "42", "Maple Street")
        self._dead.clear()
        self._last = None

    def act(self, observation: dict[str, Any]) -> Action:
        """A random action among those the screen allows (see the class docstring)."""
        if "a11y" not in observation:
            raise ValueError("RandomAgent needs the a11y observation (obs_mode 'all' or 'a11y')")
        xml = observation["a11y"]
        key = _tree_key(xml)
        if self._last is not None and self._last[0] == key:
            self._dead.add(self._last)  # the last action changed nothing on this screen
        if self.rng.random() < self.stop_prob:
            self._last = None
            return Action("status", goal_status="complete")
        elements = parse_ui_elements(xml)
        taps, presses = reachable(xml), reachable(xml, "long-clickable")
        for _ in range(self.TRIES):
            action = self._draw(elements, taps, presses)
            if (key, action.to_json_str()) not in self._dead:
                break
        self._last = (key, action.to_json_str())
        return action

    # -- drawing ---------------------------------------------------------------------------
    def _pick(self, items: Sequence[Any]) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def _draw(self, elements: list[UIElement], taps: list[bool], presses: list[bool]
              ) -> Action:
        """One action drawn by kind, then target (``taps``/``presses``: which elements a tap
        or a long press reaches, see :func:`reachable`)."""
        targets = {
            "click": [i for i, e in enumerate(elements) if taps[i] or e.is_editable],
            "input_text": [i for i, e in enumerate(elements) if e.is_editable],
            "scroll": [i for i, e in enumerate(elements) if e.is_scrollable],
            "long_press": [i for i, e in enumerate(elements) if presses[i]],
            "keyboard_enter": [i for i, e in enumerate(elements)
                               if e.is_editable and e.is_focused],
        }
        kinds = [k for k in self.WEIGHTS if targets.get(k, True)]
        weights = np.array([self.WEIGHTS[k] for k in kinds])
        kind = kinds[int(self.rng.choice(len(kinds), p=weights / weights.sum()))]
        if kind in ("click", "long_press"):
            return Action(kind, index=int(self._pick(targets[kind])))
        if kind == "input_text":
            return Action("input_text", index=int(self._pick(targets[kind])),
                          text=str(self._pick(self.words)),
                          clear_text=bool(self.rng.random() < 0.5))
        if kind == "scroll":
            # a screen starts at the top: down is the direction that usually does something
            direction = "down" if self.rng.random() < 0.7 else "up"
            return Action("scroll", index=int(self._pick(targets[kind])), direction=direction)
        if kind == "open_app":
            return Action("open_app", app_name=str(self._pick(self.app_names)))
        return Action(kind)


class SpaceSampleAgent:
    """Raw samples of the env's action space (``env.action_space.sample()``), whatever the
    screen shows: the reference point for how much acting on elements helps."""

    name = "space-sample"

    def __init__(self, env: Any, seed: int | None = None):
        self.space = copy.deepcopy(env.action_space)  # its own generator, not the env's
        if seed is not None:
            self.space.seed(seed)

    def reset(self, goal: str) -> None:
        """Nothing to remember."""

    def act(self, observation: dict[str, Any]) -> Action:
        """One sample, decoded into an :class:`Action`."""
        return Action.from_any(self.space.sample())


class OracleAgent:
    """Replays the task's oracle: the upper bound, and the source of SFT demonstrations.

    It reads the live device through the env (the oracle looks at the screen as the episode
    advances), so it needs the env, not only observations; after the oracle's last action it
    claims completion. ``reset`` must follow the env's reset: the goal it is given must be
    the env's current goal, or the plan would be for another episode."""

    name = "oracle"

    def __init__(self, env: Any):
        if not hasattr(getattr(env, "unwrapped", None), "oracle"):
            raise ValueError(f"OracleAgent needs a PhoneWorld env (one with .unwrapped.oracle())"
                             f", got {type(env).__name__}")
        self.env = env
        self._plan: Iterator[Action] | None = None

    def reset(self, goal: str) -> None:
        """Start the current task's oracle (call after ``env.reset``)."""
        current = self.env.unwrapped.goal
        if goal != current:
            raise ValueError(f"OracleAgent.reset got the goal {goal[:80]!r} but the env's task "
                             f"is {current[:80]!r}: reset the env first, then the agent")
        self._plan = self.env.unwrapped.oracle()

    def act(self, observation: dict[str, Any]) -> Action:
        """The oracle's next action (``status: complete`` once it has no more)."""
        if self._plan is None:
            raise RuntimeError("call reset() before act()")
        return next(self._plan, Action("status", goal_status="complete"))


class HumanAgent:
    """A person at the keyboard (``source="human"`` trajectories): each step shows the numbered
    element list and reads one action, as AndroidWorld JSON or in short form::

        click 3 | long 3 | double 3 | type 2 hello world | clear 2 new text | scroll down
        scroll 4 up | swipe left | back | home | enter | wait | open Contacts | done
        infeasible | answer 42

    A line that is not an action is answered with why, and read again. ``read`` and ``write``
    default to ``input`` and ``print``; the end of input (``EOFError``) stops the episode (a
    collection keeps the episodes already finished)."""

    name = "human"
    HELP = ("actions: click N, long N, double N, type N TEXT, clear N TEXT, scroll [N] DIR, "
            "swipe DIR, back, home, enter, wait, open APP, done, infeasible, answer TEXT, "
            "or AndroidWorld JSON")

    def __init__(self, read: Any = input, write: Any = print):
        self.read, self.write = read, write

    def reset(self, goal: str) -> None:
        """Show the goal."""
        self.write(f"goal: {goal}\n{self.HELP}")

    def act(self, observation: dict[str, Any]) -> Action:
        """Show the screen's elements and read actions until one parses."""
        from phoneworld_gym.wrappers import describe_elements

        if "a11y" in observation:
            self.write(describe_elements(parse_ui_elements(observation["a11y"])))
        while True:
            line = self.read("action> ").strip()
            try:
                return parse_command(line)
            except ValueError as e:
                self.write(f"not an action: {e}")


_SIMPLE = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter",
           "wait": "wait"}
_TAPS = {"click": "click", "tap": "click", "long": "long_press", "double": "double_tap"}


def parse_command(line: str) -> Action:
    """One line of :class:`HumanAgent` input -> an :class:`Action` (``ValueError`` saying
    what is wrong)."""
    if line.startswith("{"):
        return Action.from_json(line)
    verb, _, rest = line.partition(" ")
    verb, rest = verb.lower(), rest.strip()
    if not verb:
        raise ValueError(f"empty line; {HumanAgent.HELP}")
    if verb in _SIMPLE and not rest:
        return Action(_SIMPLE[verb])
    if verb in ("done", "complete", "infeasible") and not rest:
        return Action("status", goal_status="infeasible" if verb == "infeasible" else "complete")
    if verb == "answer" and rest:
        return Action("answer", text=rest)
    if verb == "open" and rest:
        return Action("open_app", app_name=rest)
    words = rest.split()
    if verb in _TAPS and len(words) == 1 and words[0].isdigit():
        return Action(_TAPS[verb], index=int(words[0]))
    if verb in ("type", "clear") and len(words) >= 2 and words[0].isdigit():
        return Action("input_text", index=int(words[0]), text=rest.split(None, 1)[1],
                      clear_text=verb == "clear")
    if verb in ("scroll", "swipe") and words and words[-1] in ("up", "down", "left", "right"):
        if len(words) == 1:
            return Action(verb, direction=words[0])
        if verb == "scroll" and len(words) == 2 and words[0].isdigit():
            return Action("scroll", index=int(words[0]), direction=words[1])
    raise ValueError(f"{line!r}; {HumanAgent.HELP}")


# -- measuring meaningless actions -----------------------------------------------------------
def meaningless_share(env: Any, make_agent: Any, tasks: Sequence[str],
                      seeds: Sequence[int]) -> tuple[int, int]:
    """(meaningless actions, actions) of ``make_agent(env, episode)`` agents over every task
    x seed: an action counts as meaningless when the env reports ``info["action_error"]``."""
    bad = total = 0
    episode = 0
    for task in tasks:
        for seed in seeds:
            obs, _ = env.reset(seed=seed, options={"task": task})
            agent = make_agent(env, episode)
            agent.reset(obs["goal"])
            episode += 1
            while True:
                obs, _, term, trunc, info = env.step(agent.act(obs))
                total += 1
                bad += bool(info["action_error"])
                if term or trunc:
                    break
    return bad, total


def main(argv: Sequence[str] | None = None) -> None:
    """Print the meaningless-action shares of the random agent and of raw space samples."""
    import gymnasium as gym

    import phoneworld_gym

    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=2, help="seeds per task")
    p.add_argument("--stride", type=int, default=1, help="every n-th task only (quicker)")
    args = p.parse_args(argv)
    env = gym.make("PhoneWorld/All-v0", obs_mode="a11y")
    tasks = [t.id for t in phoneworld_gym.list_tasks()][::max(1, args.stride)]
    seeds = list(range(args.seeds))
    for label, make in (("random agent (on elements)", lambda e, i: RandomAgent(seed=i)),
                        ("raw action_space.sample()", lambda e, i: SpaceSampleAgent(e, i))):
        bad, total = meaningless_share(env, make, tasks, seeds)
        print(f"{label}: {bad}/{total} actions meaningless ({100.0 * bad / total:.1f}%) over "
              f"{len(tasks)} tasks x {len(seeds)} seeds")
    env.close()


if __name__ == "__main__":
    main()
