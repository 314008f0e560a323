"""Settings tasks that flip a switch (Wi-Fi, mobile data, airplane mode, Bluetooth, Do Not
Disturb, Battery Saver, dark theme): exactly that key of the phone's settings changes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.settings.common import SETTINGS_TABLES, SWITCHES, open_page
from phoneworld_gym.validators import changed


def _toggle(device: Device, name: str) -> Iterator[Action]:
    page, title = SWITCHES[name][4], SWITCHES[name][5]
    yield from open_page(device, page)
    yield from scroll_to(device, text=title, rid="title")
    yield tap(device, text=title, rid="title")


@register_task
class SettingsSwitch(Task):
    """Turn one of the phone's switches on or off. Setup puts it in the other position with
    ``put_setting``; the verifier expects exactly that key to change to the asked value.
    Fewer goals: seven switches, each on or off (14 goals)."""

    id = "SettingsSwitch"
    apps = ("settings",)
    difficulty = "easy"
    tags = ("toggle",)
    optimal_steps = 4
    may_change = SETTINGS_TABLES
    params_schema = {"name": str, "state": str}
    template = "Turn {state} {name}."
    paraphrases = {
        "train": (
            "Please switch {state} {name} on my phone.",
            "Can you turn {state} {name} in Settings?",
        ),
        "test": (
            "I want {name} {state}. Change it in the settings, please.",
            "Go into Settings and make sure {name} is {state}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        names = sorted(SWITCHES)
        return {"name": names[int(rng.integers(len(names)))],
                "state": "on" if rng.random() < 0.5 else "off"}

    def setup(self, device: Device) -> None:
        ns, key, on, off, *_ = SWITCHES[self.params["name"]]
        device.put_setting(ns, key, off if self.params["state"] == "on" else on)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        ns, key, on, off, *_ = SWITCHES[self.params["name"]]
        return self.expect(changed(f"settings/{ns}", key,
                                   value=on if self.params["state"] == "on" else off))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from _toggle(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Flips the switch next to it in the list instead (Wi-Fi for mobile data, ...)."""
        names = sorted(SWITCHES)
        other = names[(names.index(self.params["name"]) + 1) % len(names)]
        yield from _toggle(device, other)
        yield Action("status", goal_status="complete")
