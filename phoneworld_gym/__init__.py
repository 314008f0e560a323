"""PhoneWorld: a simulated phone full of mock apps, as Gymnasium environments.

    import gymnasium, phoneworld_gym
    env = gymnasium.make("PhoneWorld/Shopping-v0")
"""

from __future__ import annotations

import dataclasses

from phoneworld_gym.contract import (  # noqa: E402
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Action,
    AgentReport,
    UIElement,
    parse_ui_elements,
)
from phoneworld_gym.device import Device, Probe  # noqa: E402
from phoneworld_gym.env import PhoneEnv  # noqa: E402
from phoneworld_gym.registration import register_envs  # noqa: E402
from phoneworld_gym.task import Task, register_task  # noqa: E402

__version__ = "0.1.0"


@dataclasses.dataclass(frozen=True)
class AppInfo:
    """An installed app: ``name`` (short id), ``label``, ``package``, ``kind``."""

    name: str
    label: str
    package: str
    kind: str


def list_apps() -> list[AppInfo]:
    """The launcher (a system app) and every registered app."""
    from phoneworld_gym.app import all_apps
    from phoneworld_gym.system import launcher

    out = [AppInfo("launcher", "Home", launcher.PACKAGE, "system")]
    out += [AppInfo(a.name, a.label, a.package, a.kind) for a in all_apps().values()]
    return out


def list_tasks(app: str | None = None, category: str | None = None,
               split: str | None = None, involving: str | None = None) -> list[type[Task]]:
    """Registered task classes (each has ``.id``, ``.apps``, ``.category``, ``.difficulty``,
    ``.split``, ``.template``, ``.templates(split)``, ``.env_id()``), filtered.

    ``app`` (a name or label in any case: "Shopping" or "shopping") keeps the tasks played in
    that app alone, exactly what ``PhoneWorld/<App>-v0`` samples; ``involving`` keeps every
    task that uses the app (cross-app ones included). ``split`` is one of
    ``task.SELECTIONS``: ``train`` (train templates), ``test`` (held-out templates only) or
    ``test_wordings`` (train templates that have held-out wordings). An unknown app, category
    or split raises ``ValueError``; filters that match nothing give ``[]``."""
    from phoneworld_gym.env import resolve_app_name, select_tasks
    from phoneworld_gym.task import CATEGORIES, all_tasks, check_selection

    check_selection(split)
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; categories: {', '.join(CATEGORIES)}")
    if app is not None:
        app = resolve_app_name(app)
    if involving is not None:
        involving = resolve_app_name(involving)
    tasks = all_tasks()
    try:
        ids = select_tasks(app=app, category=category, split=split)
    except ValueError:  # the filters are valid (checked above) but match nothing
        return []
    return [tasks[t] for t in ids if involving is None or involving in tasks[t].apps]


register_envs()

__all__ = [
    "SCREEN_WIDTH", "SCREEN_HEIGHT", "Action", "AgentReport", "UIElement", "parse_ui_elements",
    "Device", "Probe", "PhoneEnv", "Task", "register_task", "list_apps", "list_tasks", "AppInfo",
]
