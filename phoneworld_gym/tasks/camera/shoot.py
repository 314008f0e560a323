"""Camera tasks: take photos (checked as new files in ``/sdcard/DCIM/Camera``: these run on a
real phone), change settings before shooting (the Camera's own table: PhoneWorld-only), read
the last shot's name and date (information retrieval over ``files``), and a slow-motion video
(on a phone whose camera films it; on one that does not, infeasible).

Every oracle opens the Camera and answers its permission dialog ("While using the app") when
it asks, as a person would on first use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import DateMatch, Expected, StringMatch
from phoneworld_gym.oracle import tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.camera.common import (
    FOLDER,
    is_shot,
    open_camera,
    open_settings,
    setting_is,
    shoot,
    shots,
    taken,
)
from phoneworld_gym.validators import expect

_TIMER_TEXT = {3: "3 seconds", 10: "10 seconds"}


@register_task
class CameraTakePhoto(Task):
    """Take one photo: exactly one new JPEG in the camera folder, nothing else changed."""

    id = "CameraTakePhoto"
    apps = ("camera",)
    difficulty = "easy"
    tags = ("files",)
    optimal_steps = 4
    may_change = ("files",)
    template = "Take a photo."
    paraphrases = {
        "train": ("Snap a picture with the camera.", "Use the camera to take one photo."),
        "test": ("Open the camera app and capture a single picture.",),
    }

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(expect("files", added=[{"_id": is_shot}]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_camera(device)
        yield from shoot(device)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Allow the camera only this time in the permission dialog (not while using it)."""
        yield from open_camera(device, once=True)
        yield from shoot(device)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Presses the shutter twice."""
        yield from open_camera(device)
        yield from shoot(device, 2)
        yield Action("status", goal_status="complete")


@register_task
class CameraTakePhotos(Task):
    """Take a number of photos: exactly that many new JPEGs in the camera folder.

    Fewer goals: the count is 2 to 5."""

    id = "CameraTakePhotos"
    apps = ("camera",)
    difficulty = "medium"
    tags = ("files", "count")
    optimal_steps = 8
    may_change = ("files",)
    params_schema = {"n": int}
    template = "Take {n} photos with the camera."
    paraphrases = {
        "train": ("Snap {n} pictures.", "I need {n} shots from the camera, please."),
        "test": ("Press the shutter so that exactly {n} new photos get saved.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"n": int(rng.integers(2, 6))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(expect("files", added=[{"_id": is_shot}] * int(self.params["n"])))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_camera(device)
        yield from shoot(device, int(self.params["n"]))
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Allow the camera only this time in the permission dialog (not while using it)."""
        yield from open_camera(device, once=True)
        yield from shoot(device, int(self.params["n"]))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One photo too few."""
        yield from open_camera(device)
        yield from shoot(device, int(self.params["n"]) - 1)
        yield Action("status", goal_status="complete")


@register_task
class CameraSetTimer(Task):
    """Set the self-timer (3 or 10 seconds) in the Camera's settings.

    Fewer goals: the Camera's timer has two durations."""

    id = "CameraSetTimer"
    apps = ("camera",)
    difficulty = "easy"
    tags = ("settings",)
    optimal_steps = 5
    may_change = ("camera/settings",)
    params_schema = {"seconds": int}
    template = "Set the camera's self-timer to {seconds} seconds."
    paraphrases = {
        "train": ("Turn on a {seconds}-second timer in the camera.",
                  "Make the camera count down {seconds} seconds before each photo."),
        "test": ("I want a {seconds} s countdown before the camera shoots. Set that up.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"seconds": (3, 10)[int(rng.integers(2))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(setting_is("timer", str(self.params["seconds"])))

    def _set(self, device: Device, seconds: int) -> Iterator[Action]:
        yield from open_camera(device)
        yield from open_settings(device)
        yield tap(device, text=_TIMER_TEXT[seconds], rid="timer_option")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, int(self.params["seconds"]))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Picks the other duration."""
        yield from self._set(device, 13 - int(self.params["seconds"]))
        yield Action("status", goal_status="complete")


@register_task
class CameraWidePhoto(Task):
    """Switch photos to 16:9 and take one: the aspect setting changed and one new photo."""

    id = "CameraWidePhoto"
    apps = ("camera",)
    difficulty = "medium"
    split = "test"
    tags = ("files", "settings")
    optimal_steps = 7
    may_change = ("files", "camera/settings")
    template = "Take a widescreen photo in the 16:9 format."
    paraphrases = {
        "test": ("Change the camera to 16:9 and snap one picture.",
                 "I need one photo with a 16:9 aspect ratio. Take it."),
    }

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(expect("files", added=[{"_id": is_shot}]),
                           setting_is("aspect", "16:9"))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_camera(device)
        yield from open_settings(device)
        yield tap(device, text="16:9", rid="aspect_option")
        yield Action("navigate_back")
        yield from shoot(device)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Takes the photo in the default 4:3."""
        yield from open_camera(device)
        yield from shoot(device)
        yield Action("status", goal_status="complete")


@register_task
class CameraPrivatePhoto(Task):
    """Turn off saving the location, set the self-timer, then take a photo: two settings rows
    changed and one new photo.

    Fewer goals: the Camera's timer has two durations."""

    id = "CameraPrivatePhoto"
    apps = ("camera",)
    difficulty = "hard"
    tags = ("files", "settings", "multi-step")
    optimal_steps = 8
    may_change = ("files", "camera/settings")
    params_schema = {"seconds": int}
    template = ("Stop the camera from saving where photos are taken, set its timer to "
                "{seconds} seconds, and then take a photo.")
    paraphrases = {
        "train": ("Turn off location in the camera settings, put the self-timer on {seconds} "
                  "seconds and snap a picture.",),
        "test": ("I don't want my location in photos anymore. Fix that in the camera, use a "
                 "{seconds}-second timer, and take one shot.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"seconds": (3, 10)[int(rng.integers(2))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        want = {"location": {"value": "false"}, "timer": {"value": str(self.params["seconds"])}}
        return self.expect(expect("files", added=[{"_id": is_shot}]),
                           expect("camera/settings", changed=want))

    def _do(self, device: Device, location_off: bool) -> Iterator[Action]:
        yield from open_camera(device)
        yield from open_settings(device)
        if location_off:
            yield tap(device, text="Save location")
        yield tap(device, text=_TIMER_TEXT[int(self.params["seconds"])], rid="timer_option")
        yield Action("navigate_back")
        yield from shoot(device)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._do(device, location_off=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sets the timer and shoots, but leaves the location on."""
        yield from self._do(device, location_off=False)
        yield Action("status", goal_status="complete")


def _last(rows: list[dict[str, Any]]) -> str:
    got = shots(rows)
    if not got:
        raise RuntimeError("no photo in the camera folder")
    return got[-1]


def _review(device: Device) -> Iterator[Action]:
    yield from open_camera(device)
    yield tap(device, desc="Open last photo")


@register_task
class CameraLastPhotoName(Task):
    """Read the file name of the newest photo in the camera folder (the Camera's review of
    its last shot shows it)."""

    id = "CameraLastPhotoName"
    apps = ("camera",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("files",)
    optimal_steps = 4
    answer_matcher = StringMatch(contains=True)
    template = "What is the file name of the last photo I took?"
    paraphrases = {
        "train": ("Tell me the name of the most recent picture's file.",
                  "Which file did my latest photo get saved as?"),
        "test": ("My newest camera shot: what's it called on disk?",),
    }

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("files")
        return Expected(_last(rows).rsplit("/", 1)[-1],
                        candidates=[p.rsplit("/", 1)[-1] for p in shots(rows)])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from _review(device)
        yield Action("answer", text=text_of(device, rid="photo_name") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Names the photo before it."""
        got = shots(self.before("files"))
        yield Action("answer", text=got[-2].rsplit("/", 1)[-1] if len(got) > 1 else "none")


@register_task
class CameraLastPhotoDate(Task):
    """Say on which date the newest photo was taken (its file name holds the time)."""

    id = "CameraLastPhotoDate"
    apps = ("camera",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("files",)
    optimal_steps = 4
    answer_matcher = DateMatch()
    template = "On what date did I take my most recent photo?"
    paraphrases = {
        "test": ("When was the last picture in my camera taken? Give the date.",
                 "What day is my latest photo from?"),
    }

    def expected_answer(self, device: Device) -> Any:
        return taken(_last(self.before("files"))).date()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from _review(device)
        name = text_of(device, rid="photo_name") or ""
        t = taken(name)
        yield Action("answer", text=f"{t.strftime('%B')} {t.day}, {t.year}")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Gives the date of the photo before it (or the day before)."""
        got = shots(self.before("files"))
        t = taken(got[-1])
        for p in reversed(got):
            if taken(p).date() != t.date():
                t = taken(p)
                break
        else:
            t = t.replace(day=max(1, t.day - 1))
        yield Action("answer", text=f"{t.strftime('%B')} {t.day}, {t.year}")


@register_task
class CameraSlowMotion(Task):
    """Infeasible by design: this phone's camera does not film slow motion (its modes are
    Photo and Video; about half the phones have a Slow motion mode, and setup makes this one
    a phone without it). :class:`CameraSlowMotionRecord` is its feasible twin, on a phone
    whose camera has the mode; which one it is shows only in the app (the mode strip).

    Fewer goals: the template has no params; the phone varies with the seed."""

    id = "CameraSlowMotion"
    apps = ("camera",)
    difficulty = "medium"
    tags: ClassVar[tuple[str, ...]] = ()
    feasible = False
    optimal_steps = 4
    template = "Record a slow-motion video with the camera."
    paraphrases = {
        "train": ("Switch the camera to slow motion and film a clip.",),
        "test": ("Capture a slo-mo video for me.",),
    }

    #: whether the phone's camera films slow motion (the twin's does)
    slow_motion = False

    def setup(self, device: Device) -> None:
        device.fixture("camera", "slow_motion", available=self.slow_motion)

    def oracle(self, device: Device) -> Iterator[Action]:
        """Looks at the modes (Photo, Video), finds no slow motion, and says so."""
        yield from open_camera(device)
        yield tap(device, rid="mode_video")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Records an ordinary video and claims it is slow motion."""
        yield from open_camera(device)
        yield tap(device, rid="mode_video")
        yield tap(device, desc="Start recording")
        yield tap(device, desc="Stop recording")
        yield Action("status", goal_status="complete")


def is_slow_motion(path: Any) -> bool:
    """A new slow-motion video in the camera folder (``VID_..._SLOMO.mp4``)."""
    p = str(path)
    name = p[len(FOLDER):] if p.startswith(FOLDER) else ""
    return bool(re.fullmatch(r"VID_\d{8}_\d{6}_SLOMO\.mp4", name))


@register_task
class CameraSlowMotionRecord(CameraSlowMotion):
    """The feasible twin of :class:`CameraSlowMotion`: its very wordings, on a phone whose
    camera has a Slow motion mode (setup makes it one), so exactly one slow-motion video is
    added to the camera folder (``VID_..._SLOMO.mp4``; an ordinary ``VID_`` video is not
    one). Without a twin "slow-motion", "slo-mo" and "video" were words no feasible goal
    used, and ``status infeasible`` on sight of them won the infeasible task blind; which one
    it is shows only in the app.

    Fewer goals: the template has no params; the phone varies with the seed."""

    id = "CameraSlowMotionRecord"
    tags = ("files",)
    feasible = True
    slow_motion = True
    optimal_steps = 6
    may_change = ("files",)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(expect("files", added=[{"_id": is_slow_motion}]))

    def _film(self, device: Device, mode: str, once: bool = False) -> Iterator[Action]:
        yield from open_camera(device, once)
        yield tap(device, rid=f"mode_{mode}")
        yield tap(device, desc="Start recording")
        yield tap(device, desc="Stop recording")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._film(device, "slow_motion")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Allow the camera only this time in the permission dialog."""
        yield from self._film(device, "slow_motion", once=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """An ordinary video (Video mode) instead of slow motion."""
        yield from self._film(device, "video")
        yield Action("status", goal_status="complete")
