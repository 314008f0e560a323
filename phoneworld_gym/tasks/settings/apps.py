"""Settings > Apps: per-app notification switches (the Settings app's own
``settings_app/notifications`` table, PhoneWorld only)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.settings.common import open_page
from phoneworld_gym.validators import added

#: apps every PhoneWorld phone has: label -> app name (the table's ``_id``)
APPS = {"Clock": "clock", "Contacts": "contacts", "Shopping": "shopping"}


@register_task
class SettingsMuteApp(Task):
    """Turn off all notifications of one app in Settings > Apps: one
    ``settings_app/notifications`` row (that app, ``notifications`` 0) is added.
    Fewer goals: three apps every phone has."""

    id = "SettingsMuteApp"
    apps = ("settings",)
    difficulty = "easy"
    tags = ("toggle",)
    optimal_steps = 7
    may_change = ("settings_app/notifications",)
    params_schema = {"app": str, "name": str}
    template = "Turn off notifications from the {app} app."
    paraphrases = {
        "train": ("Stop {app} from sending me notifications.",
                  "Block all {app} notifications in Settings."),
        "test": ("I'm tired of alerts from {app}. Silence that app's notifications.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        muted = {r["_id"] for r in probe.query("settings_app/notifications")}
        labels = [label for label, name in sorted(APPS.items()) if name not in muted]
        label = labels[int(rng.integers(len(labels)))]
        return {"app": label, "name": APPS[label]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("settings_app/notifications",
                                 {"_id": self.params["name"], "notifications": 0}))

    def _mute(self, device: Device, label: str) -> Iterator[Action]:
        yield from open_page(device, "Apps")
        yield from scroll_to(device, text=label, rid="title")
        yield tap(device, text=label, rid="title")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._mute(device, self.params["app"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Mutes the app listed after it instead."""
        labels = sorted(APPS)
        other = labels[(labels.index(self.params["app"]) + 1) % len(labels)]
        yield from self._mute(device, other)
        yield Action("status", goal_status="complete")
