"""``PhoneEnv``: one Gymnasium env class for every backend.

It samples (or is told) a task at each reset, resets the device, sets the task up, and steps
contract actions through the device. Reward is the verifier's score when the episode ends: the
agent says ``status`` or ``answer`` (terminated) or the step budget runs out (truncated).

A device that fails during a step (a :class:`~phoneworld_gym.device.DeviceError` other than
:class:`~phoneworld_gym.device.Unsupported`: an adb phone unplugged, say) ends the episode
truncated with reward 0, ``info["device_error"]`` saying why and the last observation; the env
stays usable, and the next ``reset`` reconnects or raises the device's error.

``info`` has one schema, :data:`INFO_SCHEMA`: ``reset`` and every ``step`` (a normal one, an
invalid action, a device failure, the one that truncates) give exactly its keys, with values of
its types, so vector envs and collectors that merge reset and step infos see one key set.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator, Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np

from phoneworld_gym.access import TaskDevice
from phoneworld_gym.contract import (
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Action,
    AgentReport,
    action_space,
    observation_space,
)
from phoneworld_gym.device import Device, DeviceError, Probe, Unsupported
from phoneworld_gym.task import (
    CATEGORIES,
    NoInstance,
    Task,
    all_tasks,
    check_selection,
    get_task,
)

#: The keys of ``info``, each with its type and meaning. ``reset`` and every ``step`` give
#: exactly these keys (reset with the neutral values: no action, no error, 0 steps).
INFO_SCHEMA: dict[str, tuple[type, str]] = {
    "task": (str, "the task id (``ContactsAdd``)"),
    "params": (dict, "the task's parameters (a copy)"),
    "goal": (str, "the goal text (also ``obs['goal']``)"),
    "template": (str, "the goal wording this episode got (``Task.templates``)"),
    "category": (str, "the task's category (``cross-app``, ``information-retrieval``, ...)"),
    "success": (bool, "the verifier scored 1.0 (only at the end of an episode; else False)"),
    "steps": (int, "steps taken in this episode (0 after reset)"),
    "action": (dict, "the step's action as AndroidWorld JSON (``Action.to_json()``); {} after "
                     "reset and for an invalid action (nothing was done)"),
    "invalid_action": (str, "'' unless the step's action was outside the space and the env "
                            "was made with ``invalid='noop'``: then the ``ValueError``'s "
                            "sentence (the step was spent doing nothing)"),
    "action_error": (str, "'' unless the action did nothing or failed: a sentence for an "
                          "action that is meaningless on screen (a tap on nothing, an unknown "
                          "app), an invalid one (``invalid='noop'``), or a device failure"),
    "failure": (str, "at the end of an episode, why the verifier scored 0; else ''"),
    "device_error": (str, "why the device failed (the episode ended truncated); else ''"),
}

#: How many worlds ``reset`` draws from its seed when a task cannot be posed in one
#: (``NoInstance``) before it gives up with that error.
WORLD_DRAWS = 8


def task_seed(seed: int, task_id: str) -> int:
    """Per-task parameter seed (AndroidWorld style: sha256 of seed and name)."""
    return int.from_bytes(hashlib.sha256(f"{seed}_{task_id}".encode()).digest()[:4], "little")


def resolve_app_name(app: str) -> str:
    """An installed app's short name from its name or label in any case ("Shopping" ->
    "shopping"); ``ValueError`` naming the installed apps when none matches."""
    from phoneworld_gym.app import all_apps

    apps = {name: a.label for name, a in all_apps().items()} | {"launcher": "Home"}
    want = app.strip().lower()
    for name, label in apps.items():
        if want in (name.lower(), label.lower()):
            return name
    have = ", ".join(sorted(apps))
    raise ValueError(f"unknown app {app!r}; installed apps: {have}")


def select_tasks(tasks: str | Sequence[str] | None = None, *, app: str | None = None,
                 category: str | None = None, split: str | None = None) -> list[str]:
    """Task ids from explicit ids or from filters over the registry (sorted).

    ``app`` (a name or label in any case) selects the tasks played in that app alone (as
    ``phoneworld_gym.list_tasks(app=)`` does); cross-app tasks are selected with
    ``category="cross-app"`` (``phoneworld_gym.list_tasks(involving=...)`` lists every task
    that uses the app). ``split`` is a selection (``task.SELECTIONS``): ``train``, ``test``
    (held-out templates only) or ``test_wordings`` (train templates, held-out wordings).
    Explicit ``tasks`` are kept as given; ``split`` then only picks their wordings."""
    registry = all_tasks()
    check_selection(split)
    if tasks is not None:
        ids = [tasks] if isinstance(tasks, str) else list(tasks)
        if not ids:
            raise ValueError("tasks is empty; give at least one task id (or None for all)")
        for t in ids:
            if not isinstance(t, str):
                raise ValueError(f"task ids are strings, got {t!r}")
            get_task(t)
        return ids
    if app is not None:
        app = resolve_app_name(app)
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; categories: {', '.join(CATEGORIES)}")
    ids = [tid for tid, cls in registry.items()
           if (app is None or tuple(cls.apps) == (app,))
           and (category is None or cls.category == category)
           and cls.in_selection(split)]
    if not ids:
        raise ValueError(f"no task matches app={app!r} category={category!r} split={split!r}")
    return ids


def _frame(pixels: np.ndarray) -> np.ndarray:
    """A device's screenshot as an observation: as it is when the device hands over a
    read-only, C-contiguous ``uint8`` array (it promises never to write to it again), else a
    private copy (see ``PhoneEnv._obs``)."""
    if pixels.dtype == np.uint8 and not pixels.flags.writeable and pixels.flags.c_contiguous:
        return pixels
    return np.array(pixels, dtype=np.uint8, order="C")


class PhoneEnv(gym.Env[dict[str, Any], dict[str, Any]]):
    """A phone with a task.

    Args:
        tasks: one task id or several to sample from (default: filtered registry).
        app, category, split: registry filters when ``tasks`` is not given (``app``: the
            tasks played in that app alone). ``split`` also picks the goal wordings: None ->
            each task's canonical template; "train"/"test" -> a seeded pick among that
            split's wordings (``Task.templates``).
        device: any :class:`~phoneworld_gym.device.Device` (default: a new PhoneWorld phone).
        render_mode: ``"rgb_array"`` or None.
        screenshot_size: (width, height) of the screenshot; actions stay in 1080 x 2400.
        obs_mode: ``"all"``, ``"pixels"`` (no tree) or ``"a11y"`` (no screenshot).
        max_steps: overrides each task's step budget (a positive int).
        common_only: serve tasks only the verbs and probes a real phone has (used to find
            out which tasks run on phones; see :func:`phoneworld_gym.readiness.phone_ready`).
        invalid: what ``step`` does with an action outside the space (one that
            ``action_space.contains`` refuses): ``"raise"`` (the default) raises the
            ``ValueError`` naming the field and changes nothing; ``"noop"`` spends the step
            doing nothing and reports the sentence in ``info["invalid_action"]`` and
            ``info["action_error"]`` (for agents whose output is parsed, e.g. language models).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(
        self,
        tasks: str | Sequence[str] | None = None,
        *,
        app: str | None = None,
        category: str | None = None,
        split: str | None = None,
        device: Device | None = None,
        render_mode: str | None = None,
        screenshot_size: tuple[int, int] = (SCREEN_WIDTH, SCREEN_HEIGHT),
        obs_mode: str = "all",
        max_steps: int | None = None,
        common_only: bool = False,
        invalid: str = "raise",
    ):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.task_ids = select_tasks(tasks, app=app, category=category, split=split)
        #: which goal wordings episodes use (see ``Task.templates``)
        self.split = split
        if device is None:
            from phoneworld_gym.phone import PhoneWorldDevice

            device = PhoneWorldDevice(screenshot_size=tuple(screenshot_size))  # type: ignore[arg-type]
        self.device = device
        self.render_mode = render_mode
        self.obs_mode = obs_mode
        self.screenshot_size = tuple(getattr(device, "screenshot_size", screenshot_size))
        self.observation_space = observation_space(self.screenshot_size, obs_mode)  # type: ignore[arg-type]
        self.action_space = action_space()
        if max_steps is not None and (isinstance(max_steps, bool)
                                      or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive int or None, got {max_steps!r}")
        self.max_steps_override = max_steps
        self.common_only = bool(common_only)
        if invalid not in ("raise", "noop"):
            raise ValueError(f"invalid must be 'raise' or 'noop', got {invalid!r}")
        self.invalid = invalid
        self.task: Task | None = None
        #: what the current task sees of the device (set at reset)
        self.task_device = TaskDevice(self.device, common_only=self.common_only)
        self.steps = 0
        self.done = False
        self._last_error = ""
        #: the last step's action as JSON ({} after reset or for an invalid action)
        self._last_action: dict[str, Any] = {}
        #: why the last step's action was invalid ("" when it was not; ``invalid="noop"``)
        self._invalid = ""
        #: why the device failed this episode ("" while it works)
        self._device_error = ""
        self._last_obs: dict[str, Any] | None = None

    # -- gymnasium API -------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be a dict, got {type(options).__name__}")
        options = dict(options or {})
        unknown = set(options) - {"task", "params"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: task, params")
        if "task" in options:
            task_id = options["task"]
            if not isinstance(task_id, str):
                raise ValueError(f"options['task'] must be a task id string, got {task_id!r}")
            get_task(task_id)
            if task_id not in self.task_ids:
                raise ValueError(f"task {task_id!r} is not one of this env's tasks "
                                 f"({len(self.task_ids)}: {', '.join(self.task_ids[:8])}"
                                 f"{' ...' if len(self.task_ids) > 8 else ''}); make the env "
                                 f"with tasks={task_id!r} or use PhoneWorld/All-v0")
        else:
            task_id = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        cls = get_task(task_id)
        given = options.get("params")
        for draw in range(WORLD_DRAWS):
            episode_seed = int(self.np_random.integers(2**31 - 1))
            self.device.reset(episode_seed)
            self.task_device = TaskDevice(self.device, common_only=self.common_only)
            rng = np.random.default_rng(task_seed(episode_seed, task_id))
            try:
                params = cls.check_params(given if given is not None else
                                          cls.generate_params(rng, cast(Probe,
                                                                        self.task_device.probe)))
                break
            except NoInstance as e:  # this world cannot pose the task: the seed's next world
                if draw == WORLD_DRAWS - 1:
                    raise NoInstance(f"{task_id}: none of the {WORLD_DRAWS} worlds drawn from "
                                     f"this seed can pose the task (last: {e})") from e
        wordings = cls.templates(self.split) or (cls.template,)
        pick = np.random.default_rng(task_seed(episode_seed, task_id + "/wording"))
        task = cls(params, wordings[int(pick.integers(len(wordings)))])
        try:
            task.goal  # noqa: B018 (the template must be fillable from the params)
        except (KeyError, IndexError) as e:
            raise ValueError(f"params for {task_id} lack {e}; the template is "
                             f"{cls.template!r}, got params {sorted(params)}") from None
        self.task = task
        self.task.start(cast(Device, self.task_device))
        self.steps = 0
        self.done = False
        self._last_error = ""
        self._last_action = {}
        self._invalid = ""
        self._device_error = ""
        return self._obs(), self._info(success=False)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.task is None:
            raise RuntimeError("call reset() before step()")
        if self.done:
            raise RuntimeError("the episode is over; call reset() to start a new one")
        try:
            act: Action | None = Action.from_any(action)
            self._invalid = ""
        except ValueError as e:
            if self.invalid == "raise":
                raise
            act, self._invalid = None, str(e)
        self._last_action = act.to_json() if act is not None else {}
        steps = self.steps
        try:
            return self._step(act)
        except Unsupported:
            raise  # the task asked for something this device lacks: not a device failure
        except DeviceError as e:
            self.steps = steps + 1
            return self._device_failed(e)

    def _step(self, act: Action | None
              ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """One step of ``act`` (None: an invalid action, a spent step that does nothing)."""
        assert self.task is not None
        error = f"invalid action: {self._invalid}" if act is None else ""
        if act is not None and act.action_type not in ("status", "answer"):
            error = self.device.execute(act)
        self.steps += 1
        self._last_error = error
        terminated = act is not None and act.action_type in ("status", "answer")
        truncated = not terminated and self.steps >= self.step_budget
        reward = 0.0
        success = False
        if terminated or truncated:
            report = AgentReport(
                status=(act.goal_status if act.action_type == "status"
                        else "complete" if act.action_type == "answer" else None)
                if act is not None else None,
                answer=act.text if act is not None and act.action_type == "answer" else None,
            )
            reward = float(self.task.verify(cast(Device, self.task_device), report))
            success = reward >= 1.0
            self.done = True
        return self._obs(), reward, terminated, truncated, self._info(success=success)

    def _device_failed(self, e: DeviceError
                       ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The device failed mid-step: the episode ends truncated with reward 0, the last
        observation, and ``info["device_error"]`` (also ``action_error``) saying why."""
        reason = str(e) or type(e).__name__
        self.done = True
        self._device_error = reason
        self._last_error = f"the device failed: {reason}"
        obs = copy.deepcopy(self._last_obs) if self._last_obs is not None else \
            self.observation_space.sample()
        obs["goal"] = self.goal
        self._last_obs = obs
        return obs, 0.0, False, True, self._info(success=False)

    def render(self) -> np.ndarray | None:  # type: ignore[override]
        """The screenshot (``render_mode="rgb_array"``): the device's read-only frame, without
        a copy (see :meth:`_obs` for who owns it); copy it to draw on it."""
        if self.render_mode == "rgb_array":
            return _frame(self.device.screenshot())
        return None

    # -- extras --------------------------------------------------------------------------
    @property
    def step_budget(self) -> int:
        assert self.task is not None
        return self.max_steps_override or type(self.task).step_budget()

    @property
    def goal(self) -> str:
        return self.task.goal if self.task is not None else ""

    def oracle(self) -> Iterator[Action]:
        """The current task's oracle, reading the live screen as the episode advances."""
        if self.task is None:
            raise RuntimeError("call reset() before oracle()")
        return self.task.oracle(cast(Device, self.task_device))

    def _obs(self) -> dict[str, Any]:
        """The observation. Only what ``obs_mode`` keeps is produced: without ``screenshot``
        nothing is drawn, without ``a11y`` no XML is written.

        **Who owns the screenshot.** A device returns a read-only, C-contiguous ``uint8``
        array when it will never write to it again (PhoneWorld does: each changed frame is a
        new array, an unchanged frame is the same array again). Such an array is passed on
        without a copy, so a screenshot in an observation is usually read-only; it is copied
        only when it is the very array the previous observation got (an unchanged screen),
        because every observation must own its data (users keep them; Gymnasium's
        ``check_env`` asserts it). Anything else a device returns (a writable array, a view
        into a buffer it reuses) is copied. To draw on a screenshot, copy it first
        (``np.array(obs["screenshot"])``).
        """
        obs: dict[str, Any] = {}
        if self.obs_mode in ("all", "pixels"):
            shot = self.device.screenshot()
            last = getattr(self, "_last_shot", None)
            obs["screenshot"] = _frame(shot) if shot is not last else np.array(shot)
            self._last_shot = shot
        if self.obs_mode in ("all", "a11y"):
            obs["a11y"] = self.device.a11y_xml()
        obs["goal"] = self.goal
        self._last_obs = obs
        return obs

    def _info(self, *, success: bool) -> dict[str, Any]:
        """``info``: the keys of :data:`INFO_SCHEMA`, in its order."""
        assert self.task is not None
        return {
            "task": type(self.task).id,
            "params": copy.deepcopy(self.task.params),
            "goal": self.goal,
            "template": self.task.wording,
            "category": type(self.task).category,
            "success": success,
            "steps": self.steps,
            "action": dict(self._last_action),
            "invalid_action": self._invalid,
            "action_error": self._last_error,
            #: why the verifier scored 0 (set when the episode ends), else ""
            "failure": (f"the device failed: {self._device_error}" if self._device_error
                        else self.task.failure if self.done else ""),
            #: why the device failed (the episode ended truncated), else ""
            "device_error": self._device_error,
        }
