"""Display and Sound tasks: brightness and volume sliders, the screen timeout choice, and
questions about them. All through the phone's settings keys (``screen_brightness``,
``screen_off_timeout``, ``volume_*``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import elements, scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.settings.common import (
    SETTINGS_TABLES,
    TIMEOUTS,
    VOLUME_MAX,
    VOLUMES,
    brightness_raw,
    open_page,
    set_slider,
    value_of,
)
from phoneworld_gym.validators import changed, one_of


@register_task
class SettingsBrightness(Task):
    """Set the brightness slider to a percentage: ``screen_brightness`` (0..255) must end
    within one percent of it."""

    id = "SettingsBrightness"
    apps = ("settings",)
    difficulty = "medium"
    tags = ("slider",)
    optimal_steps = 4
    may_change = SETTINGS_TABLES
    params_schema = {"percent": int, "start": int}
    template = "Set the screen brightness to {percent}%."
    paraphrases = {
        "train": (
            "Change my display brightness to {percent} percent.",
            "Please put the brightness at {percent}%.",
        ),
        "test": (
            "The screen is too bright or too dim; adjust the brightness level to {percent}%.",
            "Could you make the brightness {percent}% in Display settings?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        percent = int(rng.integers(10, 91))
        start = int(rng.integers(0, 101))
        while abs(start - percent) < 10:
            start = int(rng.integers(0, 101))
        return {"percent": percent, "start": start}

    def setup(self, device: Device) -> None:
        device.put_setting("system", "screen_brightness", str(brightness_raw(self.params["start"])))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params["percent"]
        ok = {str(brightness_raw(q)) for q in (p - 1, p, p + 1)}
        return self.expect(changed("settings/system", "screen_brightness", value=one_of(*ok)))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, self.params["percent"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Slide all the way up first, then back down to the level (the end state counts)."""
        yield from self._set(device, self.params["percent"], overshoot=True)
        yield Action("status", goal_status="complete")

    def _set(self, device: Device, percent: int, overshoot: bool = False) -> Iterator[Action]:
        yield from open_page(device, "Display")
        if overshoot:  # all the way up first, then back down to the level
            yield from set_slider(device, "Brightness level", 100, 0, 100)
        yield from set_slider(device, "Brightness level", percent, 0, 100)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Five percent too bright."""
        yield from self._set(device, self.params["percent"] + 5)
        yield Action("status", goal_status="complete")


@register_task
class SettingsVolume(Task):
    """Set a volume slider (media, ring or alarm; 0..15) to a level: that ``volume_*`` key
    changes to it and nothing else does."""

    id = "SettingsVolume"
    apps = ("settings",)
    difficulty = "medium"
    tags = ("slider",)
    optimal_steps = 4
    may_change = SETTINGS_TABLES
    params_schema = {"stream": str, "level": int, "start": int}
    template = "Set the {stream} volume to {level} out of 15."
    paraphrases = {
        "train": (
            "Change my {stream} volume to level {level} of 15.",
            "Put the {stream} volume at {level} (the scale goes up to 15).",
        ),
        "test": (
            "In Sound settings, the {stream} volume should be {level} out of 15. Fix it.",
            "I'd like my {stream} volume at step {level} of 15, please.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        streams = sorted(VOLUMES)
        level = int(rng.integers(1, VOLUME_MAX + 1))
        start = int(rng.integers(0, VOLUME_MAX + 1))
        while abs(start - level) < 2:
            start = int(rng.integers(0, VOLUME_MAX + 1))
        return {"stream": streams[int(rng.integers(len(streams)))], "level": level,
                "start": start}

    def setup(self, device: Device) -> None:
        device.put_setting("system", VOLUMES[self.params["stream"]][0], str(self.params["start"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        key = VOLUMES[self.params["stream"]][0]
        return self.expect(changed("settings/system", key, value=str(self.params["level"])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, self.params["level"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Slide all the way up first, then back down to the level (the end state counts)."""
        yield from self._set(device, self.params["level"], overshoot=True)
        yield Action("status", goal_status="complete")

    def _set(self, device: Device, level: int, overshoot: bool = False) -> Iterator[Action]:
        yield from open_page(device, "Sound & vibration")
        slider = VOLUMES[self.params["stream"]][1]
        if overshoot:  # all the way up first, then back down to the level
            yield from set_slider(device, slider, VOLUME_MAX, 0, VOLUME_MAX)
        yield from set_slider(device, slider, level, 0, VOLUME_MAX)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One step off."""
        level = self.params["level"]
        yield from self._set(device, level - 1 if level == VOLUME_MAX else level + 1)
        yield Action("status", goal_status="complete")


def _timeout_dialog(device: Device) -> Iterator[Action]:
    yield from open_page(device, "Display")
    yield from scroll_to(device, text="Screen timeout", rid="title")
    yield tap(device, text="Screen timeout", rid="title")


@register_task
class SettingsScreenTimeout(Task):
    """Pick a screen timeout from the Display page's dialog: ``screen_off_timeout`` changes to
    that many milliseconds. Fewer goals: Android offers seven timeouts."""

    id = "SettingsScreenTimeout"
    apps = ("settings",)
    difficulty = "easy"
    tags = ("dialog",)
    optimal_steps = 5
    split = "test"
    may_change = SETTINGS_TABLES
    params_schema = {"label": str, "ms": int, "start": int}
    template = "Set my screen timeout to {label}."
    paraphrases = {
        "test": (
            "Make the screen turn off after {label} of inactivity.",
            "Change the display's sleep timer so it goes dark after {label}.",
            "I want the screen timeout at {label}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        values = sorted(TIMEOUTS)
        ms = values[int(rng.integers(len(values)))]
        start = ms
        while start == ms:
            start = values[int(rng.integers(len(values)))]
        return {"label": TIMEOUTS[ms], "ms": ms, "start": start}

    def setup(self, device: Device) -> None:
        device.put_setting("system", "screen_off_timeout", str(self.params["start"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed("settings/system", "screen_off_timeout",
                                   value=str(self.params["ms"])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._pick(device, self.params["label"])
        yield Action("status", goal_status="complete")

    def _pick(self, device: Device, label: str) -> Iterator[Action]:
        yield from _timeout_dialog(device)
        yield tap(device, text=label, cls="RadioButton")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The choice next to the asked one."""
        values = sorted(TIMEOUTS)
        i = values.index(self.params["ms"])
        other = values[i + 1] if i + 1 < len(values) else values[i - 1]
        yield from self._pick(device, TIMEOUTS[other])
        yield Action("status", goal_status="complete")


@register_task
class SettingsTimeoutUnavailable(Task):
    """Ask for a screen timeout Android does not offer: the right move is to look and report
    it infeasible, changing nothing. Fewer goals: four timeouts that are not offered."""

    id = "SettingsTimeoutUnavailable"
    apps = ("settings",)
    difficulty = "medium"
    feasible = False
    tags = ("dialog",)
    optimal_steps = 4
    params_schema = {"label": str}
    template = "Set my screen timeout to exactly {label}."
    constraints = (("exactly", "precisely"),)
    paraphrases = {
        "train": ("Change the screen timeout so that it is exactly {label}.",),
        "test": ("Make my screen go to sleep after precisely {label} of inactivity.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        labels = ("45 seconds", "3 minutes", "20 minutes", "1 hour")
        return {"label": labels[int(rng.integers(len(labels)))]}

    def setup(self, device: Device) -> None:
        device.put_setting("system", "screen_off_timeout", "30000")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from _timeout_dialog(device)
        yield Action("status", goal_status="infeasible")


@register_task
class SettingsTimeoutQuery(Task):
    """Read the screen timeout (answered as Settings words it: "2 minutes"). Fewer goals: one
    question; setup varies the answer over the seven timeouts."""

    id = "SettingsTimeoutQuery"
    apps = ("settings",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 3
    answer_matcher = StringMatch(contains=True)
    params_schema = {"ms": int}
    template = "What is my screen timeout?"
    paraphrases = {
        "train": ("How long does my screen stay on before it turns off?",),
        "test": ("After how much idle time does my phone's display go dark?",
                 "Check Settings and tell me the screen timeout."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        values = sorted(TIMEOUTS)
        return {"ms": values[int(rng.integers(len(values)))]}

    def setup(self, device: Device) -> None:
        device.put_setting("system", "screen_off_timeout", str(self.params["ms"]))

    def expected_answer(self, device: Device) -> Any:
        ms = int(value_of(self.before("settings/system"), "screen_off_timeout") or 0)
        return Expected(TIMEOUTS[ms], candidates=TIMEOUTS.values())

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_page(device, "Display")
        summary = next((e.text for e in elements(device)
                        if (e.text or "").startswith("After ")
                        and (e.text or "").endswith(" of inactivity")), "")
        assert summary
        yield Action("answer", text=summary[len("After "):-len(" of inactivity")])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The default (30 seconds) or, when that is right, one minute."""
        ms = self.params["ms"]
        yield Action("answer", text=TIMEOUTS[60000 if ms == 30000 else 30000])


@register_task
class SettingsAlarmVolumeQuery(Task):
    """Read the alarm volume level (0..15) off the Sound page. Fewer goals: one question;
    setup varies the answer over the sixteen levels."""

    id = "SettingsAlarmVolumeQuery"
    apps = ("settings",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 3
    split = "test"
    answer_matcher = NumberMatch()
    params_schema = {"level": int}
    template = "What is my alarm volume, on the 0 to 15 scale?"
    paraphrases = {
        "test": ("How loud is my alarm set? Give me the level on the 0 to 15 scale.",
                 "Tell me the alarm volume step (0-15) from Sound settings."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"level": int(rng.integers(0, VOLUME_MAX + 1))}

    def setup(self, device: Device) -> None:
        device.put_setting("system", "volume_alarm", str(self.params["level"]))

    def expected_answer(self, device: Device) -> Any:
        return int(value_of(self.before("settings/system"), "volume_alarm") or 0)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_page(device, "Sound & vibration")
        shown = text_of(device, rid="volume_alarm_value") or ""
        yield Action("answer", text=shown.split("/")[0].strip())

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The media volume's level (the first slider) when it differs, else one off."""
        level = self.params["level"]
        yield Action("answer", text=str(level + 1 if level < VOLUME_MAX else level - 1))
