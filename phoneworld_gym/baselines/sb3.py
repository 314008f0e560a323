"""PhoneWorld for classic RL libraries (Stable-Baselines3, sb3-contrib, torchrl, tianshou,
CleanRL-style code).

:class:`ElementActions` turns any PhoneWorld env (or any env with the contract's ``a11y`` and
``goal`` observations) into what every SB3 algorithm accepts: a ``Discrete`` action space over
the elements of the current screen, an observation of fixed-size ``Box`` arrays only (no
``Text`` spaces), and ``action_masks()`` in sb3-contrib's ``MaskablePPO`` protocol::

    import gymnasium, phoneworld_gym
    from phoneworld_gym.baselines.sb3 import ElementActions
    from sb3_contrib import MaskablePPO

    env = ElementActions(gymnasium.make("PhoneWorld/ShoppingCartCount-v0", obs_mode="a11y"))
    model = MaskablePPO("MultiInputPolicy", env).learn(10_000)

**Action space** ``Discrete(n)``, with ``M = max_elements``, ``V = max_values`` and
``A = len(apps)``, laid out in blocks (:meth:`ElementActions.describe_action` names any index):

==========================  =====================================================================
index                       action
==========================  =====================================================================
``i`` in ``[0, M)``          click element ``i``
``M + v*M + i``              type goal value ``v`` (``v < V``) into element ``i`` (tap, clear, type,
                             enter: ``input_text`` with ``clear_text=True``)
``M + V*M + i``              answer with element ``i``'s text (ends the episode)
``(V+2)*M + 0 .. 5``         scroll down, scroll up, back, home, status complete, status infeasible
``(V+2)*M + 6 + k``          open app ``apps[k]``
==========================  =====================================================================

Elements are numbered as the contract numbers them (:func:`phoneworld_gym.parse_ui_elements`);
the first ``M`` are addressable. The goal's values are the task's string params that appear
in the goal, else its quoted or capitalised spans (:func:`goal_values`).

**Masks** (``action_masks()``): click ``i`` when element ``i`` exists and a tap on it lands on
something clickable (the element or one of its ancestors is clickable, as Android delivers the
tap to the clickable row); type when the element is editable and value ``v`` exists; answer when
the element has text; scroll when something on screen scrolls; back, home, complete, infeasible
and open-app always.

**The mask in the observation** (``mask_key``): libraries that read the mask from the
observation rather than calling ``action_masks()`` get it there, declared in the observation
space as ``Box(0, 1, (n,), bool)``: ``mask_key="action_mask"`` for torchrl (its ``ActionMask``
transform and ``MaskedCategorical`` read that key), ``mask_key="mask"`` for tianshou (its
policies read ``batch.obs.mask``). ``action_masks()`` works either way (docs/thirdparty_rl.md).

**A masked-out action** is a recorded no-op (the default, ``invalid="noop"``): the step is spent
(the inner env gets ``wait``, so the step budget still ends a looping agent), and
``info["invalid_action"]`` says why, so algorithms without masks (PPO, A2C, DQN) train on it
too. With ``invalid="raise"`` it is a ``ValueError`` and nothing happens. An index outside the
space (or not an int) is always a ``ValueError``.

**Observation** (a ``Dict`` of ``Box`` arrays, every value in its bounds):

- ``elements``: ``float32 (M * F,)``, flat because SB3 wants 1-D vectors (reshape to
  ``(M, F)``, ``F = n_features``: row ``i`` is element ``i``, zeros past the last one): per
  element :data:`ELEMENT_FEATURES` (present, flags, normalised bounds, class one-hot, goal
  overlap), one goal-value match per value, then hashed bags of its text tokens (text,
  description, hint) and of its resource-id tokens.
- ``goal``: ``float32 (goal_dim,)``, the hashed bag of the goal's tokens.
- ``screenshot`` (with ``screenshot="rgb"`` or ``"gray"``): ``uint8 (H, W, 3 or 1)``, the
  screen scaled to ``screenshot_size``; make the env with that ``screenshot_size`` so the
  phone draws it small and nothing is scaled here.
- ``<mask_key>`` (with ``mask_key`` set): ``bool (n,)``, the same array ``action_masks()``
  returns.

Tokens are hashed with CRC32 (stable across processes, unlike ``hash``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from PIL import Image

from phoneworld_gym.baselines.sb3_layout import (  # noqa: F401 (part of this module's API)
    _FLAGS,
    CLASSES,
    ELEMENT_FEATURES,
    FIXED_ACTIONS,
)
from phoneworld_gym.contract import MAX_TEXT, Action, UIElement, parse_ui_elements
from phoneworld_gym.ui.dump import indexed_nodes

if TYPE_CHECKING:  # the policy half, loaded lazily by __getattr__ below
    from phoneworld_gym.baselines.sb3_policy import (  # noqa: F401
        ElementPolicy,
        ElementsExtractor,
        PointerHead,
    )

_TOKEN = re.compile(r"[a-z0-9]+")
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
_CAPITAL = re.compile(r"[A-Z][\w&'’.-]*(?:\s+(?:&\s+)?[A-Z][\w&'’.-]*)*")


def tokens(text: str | None) -> list[str]:
    """Lower-case alphanumeric tokens of ``text`` (none for None)."""
    return _TOKEN.findall(text.lower()) if text else []


def hash_bag(words: Sequence[str], dim: int) -> np.ndarray:
    """A ``float32`` bag of ``words`` hashed (CRC32) into ``dim`` buckets, each 0 or 1."""
    out = np.zeros(dim, dtype=np.float32)
    for w in words:
        out[zlib.crc32(w.encode("utf-8")) % dim] = 1.0
    return out


def goal_values(goal: str, params: Mapping[str, Any] | None = None,
                max_values: int = 2) -> list[str]:
    """The strings an agent may type, at most ``max_values``, in the order the goal says them.

    The task's string params that appear in the goal (a span that holds another one is
    dropped: ``"the Green Tea"`` gives way to ``"Green Tea"``); without such params, the goal's
    quoted spans, then its capitalised spans (a sentence's first word is not one): ``Turn off
    Do Not Disturb.`` -> ``["Do Not Disturb"]``.
    """
    spans: list[tuple[int, int, str]] = []
    for v in (params or {}).values():
        if isinstance(v, str) and v.strip() and v in goal:
            start = goal.index(v)
            spans.append((start, start + len(v), v))
    spans = [s for s in spans
             if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in spans)]
    if not spans:
        spans = [(m.start(), m.end(), m.group(1) or m.group(2)) for m in _QUOTED.finditer(goal)]
        for m in _CAPITAL.finditer(goal):
            text = m.group().rstrip(".'’")
            text = re.sub(r"['’]s$", "", text)
            if _sentence_start(goal, m.start()):
                text = text.split(" ", 1)[1] if " " in text else ""
            if text and not any(a <= m.start() < b for a, b, _ in spans):
                spans.append((m.start(), m.end(), text))
    out: list[str] = []
    for _, _, text in sorted(spans):
        if text not in out:
            out.append(text)
    return out[:max_values]


def _sentence_start(text: str, i: int) -> bool:
    """Whether position ``i`` of ``text`` starts a sentence."""
    before = text[:i].rstrip()
    return not before or before[-1] in ".?!"


def tree_flags(xml: str) -> list[tuple[bool, bool, bool]]:
    """For each indexed element of the dump: whether a tap on it reaches a clickable node (the
    element or an ancestor is clickable: Android hands the tap up to the row); whether its
    parent holds a checkable node besides it (a switch on the same row); and whether that
    node is checked (an alarm's time row says whether the alarm is on)."""
    root = ET.fromstring(xml)
    parent = {child: node for node in root.iter() for child in node}
    out = []
    for node, _ in indexed_nodes(root):
        n: ET.Element | None = node
        hit = False
        while n is not None and n.tag == "node":
            if n.get("clickable") == "true":
                hit = True
                break
            n = parent.get(n)
        up = parent.get(node)
        mates = [k for k in up.iter("node") if k is not node and k.get("checkable") == "true"] \
            if up is not None else []
        out.append((hit, bool(mates), any(k.get("checked") == "true" for k in mates)))
    return out


class ElementActions(gym.Wrapper[Any, Any, Any, Any],
                     gym.utils.RecordConstructorArgs):
    """A ``Discrete`` element action space and ``Box`` observations over a PhoneWorld env
    (see the module docstring for the layout, the masks and the features).

    Args:
        env: a PhoneWorld env (any ``obs_mode`` with ``a11y``; with ``screenshot`` set, one
            with the screenshot too).
        max_elements: how many elements are addressable and observed (``M``).
        max_values: how many goal values can be typed (``V``).
        apps: app names the open-app actions launch; default: the apps of the env's tasks.
        screenshot: None (no screenshot), ``"rgb"`` or ``"gray"``.
        screenshot_size: (width, height) of the observed screenshot (>= 36 each, as SB3's
            CNN needs).
        text_dim, id_dim, goal_dim: hash buckets for element text, resource ids and the goal.
        invalid: ``"noop"`` (a masked-out action spends a step doing nothing) or ``"raise"``.
        mask_key: None (the default: the mask only through ``action_masks()``), or the
            observation key that also carries it: ``"action_mask"`` (torchrl), ``"mask"``
            (tianshou).
    """

    def __init__(self, env: gym.Env[Any, Any], max_elements: int = 48, max_values: int = 2,
                 apps: Sequence[str] | None = None, screenshot: str | None = None,
                 screenshot_size: tuple[int, int] = (54, 120), text_dim: int = 64,
                 id_dim: int = 32, goal_dim: int = 64, invalid: str = "noop",
                 mask_key: str | None = None):
        gym.utils.RecordConstructorArgs.__init__(
            self, max_elements=max_elements, max_values=max_values, apps=apps,
            screenshot=screenshot, screenshot_size=screenshot_size, text_dim=text_dim,
            id_dim=id_dim, goal_dim=goal_dim, invalid=invalid, mask_key=mask_key)
        gym.Wrapper.__init__(self, env)
        self._check_args(env, max_elements, max_values, screenshot, screenshot_size,
                         (text_dim, id_dim, goal_dim), invalid, mask_key)
        self.max_elements = max_elements
        self.max_values = max_values
        self.apps = tuple(apps) if apps is not None else _task_apps(env)
        self.screenshot = screenshot
        self.screenshot_size = (int(screenshot_size[0]), int(screenshot_size[1]))
        self.text_dim, self.id_dim, self.goal_dim = text_dim, id_dim, goal_dim
        self.invalid = invalid
        self.mask_key = mask_key
        m = max_elements
        self._type0 = m
        self._answer0 = m + max_values * m
        self._fixed0 = self._answer0 + m
        self._app0 = self._fixed0 + len(FIXED_ACTIONS)
        #: how many actions the space has
        self.n_actions = self._app0 + len(self.apps)
        self.action_space = gym.spaces.Discrete(self.n_actions)
        self.n_features = len(ELEMENT_FEATURES) + max_values + text_dim + id_dim
        fields: dict[str, gym.spaces.Space[Any]] = {
            "elements": gym.spaces.Box(0.0, 1.0, (m * self.n_features,), np.float32),
            "goal": gym.spaces.Box(0.0, 1.0, (goal_dim,), np.float32),
        }
        if screenshot is not None:
            w, h = self.screenshot_size
            fields["screenshot"] = gym.spaces.Box(0, 255, (h, w, 3 if screenshot == "rgb" else 1),
                                                  np.uint8)
        if mask_key is not None:
            fields[mask_key] = gym.spaces.Box(0, 1, (self.n_actions,), np.bool_)
        self.observation_space = gym.spaces.Dict(fields)
        self._elements: list[UIElement] = []
        self._mask = np.zeros(self.n_actions, dtype=np.bool_)
        self._values: list[str] = []
        self._goal = ""

    @staticmethod
    def _check_args(env: gym.Env[Any, Any], max_elements: int, max_values: int,
                    screenshot: str | None, size: tuple[int, int], dims: tuple[int, ...],
                    invalid: str, mask_key: str | None) -> None:
        """``ValueError`` naming the first bad argument."""
        spaces = getattr(env.observation_space, "spaces", {})
        if "a11y" not in spaces or "goal" not in spaces:
            raise ValueError("ElementActions needs the a11y and goal observations "
                             f"(obs_mode 'all' or 'a11y'); the env observes {sorted(spaces)}")
        for name, v in (("max_elements", max_elements), ("max_values", max_values)):
            if isinstance(v, bool) or not isinstance(v, int) or v < (1 if name == "max_elements"
                                                                     else 0):
                raise ValueError(f"{name} must be a positive int (max_values may be 0), got {v!r}")
        if screenshot not in (None, "rgb", "gray"):
            raise ValueError(f"screenshot must be None, 'rgb' or 'gray', got {screenshot!r}")
        if screenshot is not None and "screenshot" not in spaces:
            raise ValueError("screenshot= needs the env's screenshot (obs_mode 'all')")
        if screenshot is not None and (len(size) != 2 or min(size) < 36):
            raise ValueError(f"screenshot_size must be (width, height), each >= 36 (SB3's CNN "
                             f"needs 36 x 36), got {size!r}")
        if any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in dims):
            raise ValueError(f"text_dim, id_dim and goal_dim must be positive ints, got {dims}")
        if invalid not in ("noop", "raise"):
            raise ValueError(f"invalid must be 'noop' or 'raise', got {invalid!r}")
        if mask_key is not None and (not isinstance(mask_key, str) or not mask_key
                                     or mask_key in ("elements", "goal", "screenshot")):
            raise ValueError("mask_key must be None or a new observation key such as "
                             f"'action_mask' (torchrl) or 'mask' (tianshou), got {mask_key!r}")

    # -- gymnasium API -------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._goal = str(obs["goal"])
        self._values = goal_values(self._goal, info.get("params"), self.max_values)
        return self._observe(obs), {**info, "values": list(self._values)}

    def set_goal(self, goal: str, params: Mapping[str, Any] | None = None) -> list[str]:
        """Read ``goal`` as :meth:`reset` does (its typeable values from ``params`` or its
        spans) without touching the env: for an agent that plays an env someone else steps.
        Returns the values."""
        if not isinstance(goal, str):
            raise ValueError(f"goal must be a string, got {type(goal).__name__}")
        self._goal = goal
        self._values = goal_values(goal, params, self.max_values)
        return list(self._values)

    def encode_observation(self, obs: Mapping[str, Any]) -> tuple[dict[str, np.ndarray],
                                                                   np.ndarray]:
        """The wrapper's observation and action mask for an observation of the wrapped env
        (after :meth:`set_goal`), without stepping it."""
        return self._observe(obs), self.action_masks()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        a = self._check_action(action)
        why = "" if self._mask[a] else self._why_masked(a)
        if why and self.invalid == "raise":
            raise ValueError(f"action {a} ({self.describe_action(a)}) is masked out now: {why}")
        act = Action("wait") if why else self.decode(a)
        obs, reward, terminated, truncated, info = self.env.step(act)
        # the same keys as reset's info (the env's schema plus the goal's typeable values)
        info = {**info, "action": act.to_json(), "invalid_action": why,
                "values": list(self._values)}
        return self._observe(obs), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The actions that are meaningful on the current screen (a copy; sb3-contrib's
        ``MaskablePPO`` calls this)."""
        return self._mask.copy()

    # -- the action space ----------------------------------------------------------------
    def decode(self, a: int) -> Action:
        """The contract action for index ``a`` on the current screen (``ValueError`` when it
        names an element or value that is not there)."""
        a = self._check_action(a)
        m = self.max_elements
        if a < self._type0:
            self._element(a)
            return Action("click", index=a)
        if a < self._answer0:
            v, i = divmod(a - self._type0, m)
            self._element(i)
            if v >= len(self._values):
                raise ValueError(f"action {a} types goal value {v}, but the goal has "
                                 f"{len(self._values)}: {self._values}")
            return Action("input_text", index=i, text=self._values[v], clear_text=True)
        if a < self._fixed0:
            text = self._element(a - self._answer0).text
            if not text:
                raise ValueError(f"action {a} answers with element {a - self._answer0}'s "
                                 "text, but it has none")
            return Action("answer", text=text[:MAX_TEXT])
        if a < self._app0:
            return _FIXED[FIXED_ACTIONS[a - self._fixed0]]
        return Action("open_app", app_name=self.apps[a - self._app0])

    def encode(self, action: Action) -> int | None:
        """The index that does ``action`` on the current screen, or None when the space cannot
        say it (a point tap, text that is not a goal value, an answer no element shows)."""
        t = action.action_type
        m = self.max_elements
        n = min(len(self._elements), m)
        if t == "click" and action.index is not None and action.index < n:
            return int(action.index)
        if t == "input_text" and action.index is not None and action.index < n \
                and action.text in self._values:
            return self._type0 + self._values.index(action.text) * m + int(action.index)
        if t == "answer":
            hits = [i for i, e in enumerate(self._elements[:n]) if e.text == action.text]
            return self._answer0 + hits[0] if hits else None
        if t == "scroll" and action.index is None and action.direction in ("down", "up"):
            return self._fixed0 + FIXED_ACTIONS.index(f"scroll {action.direction}")
        if t == "status":
            return self._fixed0 + FIXED_ACTIONS.index(str(action.goal_status))
        names = {"navigate_back": "back", "navigate_home": "home"}
        if t in names:
            return self._fixed0 + FIXED_ACTIONS.index(names[t])
        if t == "open_app" and action.app_name in self.apps:
            return self._app0 + self.apps.index(action.app_name)
        return None

    def describe_action(self, a: int) -> str:
        """A name for index ``a``: ``"click 3"``, ``"type value 0 into 5"``, ``"open Shopping"``."""
        a = self._check_action(a)
        m = self.max_elements
        if a < self._type0:
            return f"click {a}"
        if a < self._answer0:
            v, i = divmod(a - self._type0, m)
            return f"type value {v} into {i}"
        if a < self._fixed0:
            return f"answer with the text of {a - self._answer0}"
        if a < self._app0:
            return FIXED_ACTIONS[a - self._fixed0]
        return f"open {self.apps[a - self._app0]}"

    def policy_kwargs(self, embed: int = 64) -> dict[str, Any]:
        """``policy_kwargs`` for :class:`ElementPolicy` on this wrapper's spaces."""
        return {"features_extractor_kwargs": {"max_elements": self.max_elements,
                                              "max_values": self.max_values, "embed": embed}}

    @property
    def elements(self) -> list[UIElement]:
        """The current screen's elements (all of them, addressable or not)."""
        return list(self._elements)

    @property
    def values(self) -> list[str]:
        """This episode's goal values (what the type actions type)."""
        return list(self._values)

    def _check_action(self, action: Any) -> int:
        """``action`` as an int in the space, else ``ValueError`` naming it."""
        if isinstance(action, np.ndarray) and action.size == 1 \
                and np.issubdtype(action.dtype, np.integer):
            action = action.reshape(()).item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an ElementActions action is an int in [0, {self.n_actions}), "
                             f"got {action!r:.60} ({type(action).__name__})")
        if not 0 <= int(action) < int(self.n_actions):
            raise ValueError(f"action {int(action)} is outside Discrete({self.n_actions}): "
                             f"valid indices are 0 .. {self.n_actions - 1}")
        return int(action)

    def _element(self, i: int) -> UIElement:
        if i >= len(self._elements):
            raise ValueError(f"no element {i} on screen: it has {len(self._elements)}")
        return self._elements[i]

    def _why_masked(self, a: int) -> str:
        """Why action ``a`` means nothing now (``""`` when it does)."""
        try:
            self.decode(a)
        except ValueError as e:
            return str(e)
        if a < self._type0:
            return f"element {a} is not clickable (nor is any element around it)"
        if a < self._answer0:
            return f"element {(a - self._type0) % self.max_elements} is not editable"
        return "nothing on screen scrolls"

    # -- observation ---------------------------------------------------------------------
    def _observe(self, obs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        xml = str(obs["a11y"])
        self._elements = parse_ui_elements(xml)
        flags = tree_flags(xml)
        goal_tokens = set(tokens(self._goal))
        m = self.max_elements
        feats = np.zeros((m, self.n_features), dtype=np.float32)
        mask = np.zeros(self.n_actions, dtype=np.bool_)
        for i, e in enumerate(self._elements[:m]):
            feats[i] = self._features(e, flags[i], goal_tokens)
            mask[i] = flags[i][0]
            if e.is_editable:
                for v in range(len(self._values)):
                    mask[self._type0 + v * m + i] = True
            mask[self._answer0 + i] = bool(e.text)
        scrolls = any(e.is_scrollable for e in self._elements)
        mask[self._fixed0:self._fixed0 + 2] = scrolls
        mask[self._fixed0 + 2:] = True
        self._mask = mask
        out = {"elements": feats.reshape(-1), "goal": hash_bag(sorted(goal_tokens), self.goal_dim)}
        if self.screenshot is not None:
            out["screenshot"] = self._small_screenshot(np.asarray(obs["screenshot"]))
        if self.mask_key is not None:
            out[self.mask_key] = mask.copy()
        return out

    def _features(self, e: UIElement, tree: tuple[bool, bool, bool],
                  goal_tokens: set[str]) -> np.ndarray:
        """One element's feature row (see :data:`ELEMENT_FEATURES`)."""
        flags = (tree[0], e.is_clickable, e.is_editable, e.is_checkable, e.is_checked,
                 e.is_selected, e.is_scrollable, e.is_focused, e.is_enabled)
        b = e.bbox
        box = (b.x_min, b.y_min, b.x_max, b.y_max) if b is not None else (0.0, 0.0, 0.0, 0.0)
        short = (e.class_name or "").rsplit(".", 1)[-1]
        klass = [float(short == c) for c in CLASSES[:-1]]
        klass.append(float(short not in CLASSES[:-1]))
        words = tokens(e.text) + tokens(e.content_description) + tokens(e.hint_text)
        mine = set(words)
        cover = len(mine & goal_tokens) / len(mine) if mine else 0.0
        recall = len(mine & goal_tokens) / len(goal_tokens) if goal_tokens else 0.0
        label = (e.text or e.content_description or "").strip().lower()
        in_goal = bool(label) and label in self._goal.lower()
        values = [0.0] * self.max_values
        for v, value in enumerate(self._values):
            values[v] = float(bool(label) and value.lower() in label)
        rid = tokens((e.resource_id or "").rsplit("/", 1)[-1].replace("_", " "))
        head = np.array([1.0, *(float(bool(f)) for f in flags), *box, *klass,
                         float(bool(e.text)), cover, recall, float(in_goal),
                         float(tree[1]), float(tree[2]), *values],
                        dtype=np.float32)
        return np.concatenate([np.clip(head, 0.0, 1.0), hash_bag(words, self.text_dim),
                               hash_bag(rid, self.id_dim)])

    def _small_screenshot(self, shot: np.ndarray) -> np.ndarray:
        """The screenshot at ``screenshot_size``, RGB or gray (``(H, W, 1)``)."""
        w, h = self.screenshot_size
        img = Image.fromarray(shot)
        if img.size != (w, h):
            img = img.resize((w, h), Image.Resampling.BILINEAR)
        if self.screenshot == "gray":
            return np.asarray(img.convert("L"), dtype=np.uint8)[:, :, None].copy()
        return np.array(img.convert("RGB"), dtype=np.uint8)


_FIXED = {
    "scroll down": Action("scroll", direction="down"),
    "scroll up": Action("scroll", direction="up"),
    "back": Action("navigate_back"),
    "home": Action("navigate_home"),
    "complete": Action("status", goal_status="complete"),
    "infeasible": Action("status", goal_status="infeasible"),
}


def _task_apps(env: gym.Env[Any, Any]) -> tuple[str, ...]:
    """The launcher labels of the apps the env's tasks use (sorted), or () for an env
    without a task list."""
    from phoneworld_gym.app import all_apps
    from phoneworld_gym.task import get_task

    ids = getattr(env.unwrapped, "task_ids", None) or ()
    apps = all_apps()
    names = {a for tid in ids for a in get_task(tid).apps}
    return tuple(sorted(apps[n].label for n in names if n in apps))


# -- the policy half (torch, SB3, sb3-contrib) loads on first use -------------------------------
_POLICY_NAMES = ("ElementsExtractor", "PointerHead", "ElementPolicy")


def __getattr__(name: str) -> Any:
    """``ElementPolicy``, ``ElementsExtractor`` and ``PointerHead`` come from
    :mod:`phoneworld_gym.baselines.sb3_policy`, imported only when asked for, so that the
    wrapper imports without torch or Stable-Baselines3."""
    if name in _POLICY_NAMES:
        from phoneworld_gym.baselines import sb3_policy

        return getattr(sb3_policy, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
