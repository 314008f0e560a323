"""Gymnasium ids generated from the registries: one per app (samples that app's tasks), one per
task category, ``PhoneWorld/All-v0``, and one per task (``PhoneWorld/<TaskId>-v<N>``)."""

from __future__ import annotations

import gymnasium as gym

ENTRY_POINT = "phoneworld_gym.env:PhoneEnv"
CATEGORY_IDS = {"cross-app": "CrossApp", "information-retrieval": "InfoRetrieval",
                "mini-app": "MiniApp"}


def env_ids() -> dict[str, dict[str, object]]:
    """Every env id with the kwargs it passes to ``PhoneEnv``."""
    from phoneworld_gym.app import all_apps
    from phoneworld_gym.task import all_tasks

    tasks = all_tasks()
    ids: dict[str, dict[str, object]] = {"PhoneWorld/All-v0": {}}
    for app in all_apps().values():
        if any(tuple(t.apps) == (app.name,) for t in tasks.values()):
            ids[f"PhoneWorld/{app.label.replace(' ', '')}-v0"] = {"app": app.name}
    for cat, name in CATEGORY_IDS.items():
        if any(t.category == cat for t in tasks.values()):
            ids[f"PhoneWorld/{name}-v0"] = {"category": cat}
    for t in tasks.values():
        ids[t.env_id()] = {"tasks": t.id}
    return ids


def register_envs() -> None:
    """Register (idempotently) every PhoneWorld id with Gymnasium."""
    for env_id, kwargs in env_ids().items():
        if env_id in gym.registry:
            continue
        gym.register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs,
                     disable_env_checker=False)
