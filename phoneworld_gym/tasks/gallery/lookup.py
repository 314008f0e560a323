"""Gallery information-retrieval tasks: where photos were taken, how many were taken in a
city, how many screenshots there are. The answer comes from the start state's tables (the
places from ``gallery/media``, which never changes within an episode; the photos that exist
from ``files``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch
from phoneworld_gym.oracle import OracleError, scroll_to, tap, text_of
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.gallery.common import (
    SCREENSHOTS,
    camera_photos,
    day_words,
    photos,
    search,
    taken,
    to_photos,
)
from phoneworld_gym.tasks.kit import today


def _places(device: Device) -> dict[str, str]:
    """Start photo path -> its place (empty for screenshots and downloads)."""
    return {str(r["_id"]): str(r["place"]) for r in device.probe.query("gallery/media")}


def _count_in(device: Device, files: list[dict[str, Any]], city: str) -> int:
    where = _places(device)
    return sum(1 for r in photos(files) if where.get(str(r["_id"]), "").split(",")[0] == city)


@register_task
class GalleryCountPlace(Task):
    """Count the photos taken in a city (its search results). The count is drawn first
    (among the cities' counts), then a city with it, so no count a guess names wins often.

    Fewer goals: the life's cities are sixteen, and a seed's photos come from up to four of
    them."""

    id = "GalleryCountPlace"
    apps = ("gallery",)
    category = "information-retrieval"
    difficulty = "medium"
    optimal_steps = 4
    answer_matcher = NumberMatch()
    params_schema = {"city": str}
    template = "How many photos did I take in {city}?"
    paraphrases = {
        "test": (
            "Count my pictures from {city}.",
            "In my gallery, what's the number of photos taken in {city}?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        media = {str(r["_id"]): str(r["place"]) for r in probe.query("gallery/media")}
        counts: dict[str, int] = {}
        for r in camera_photos(probe):
            if media.get(str(r["_id"])):
                city = media[str(r["_id"])].split(",")[0]
                counts[city] = counts.get(city, 0) + 1
        if not counts:
            raise NoInstance("no photo has a place")
        n = sorted(set(counts.values()))[int(rng.integers(len(set(counts.values()))))]
        cities = sorted(c for c, k in counts.items() if k == n)
        return {"city": cities[int(rng.integers(len(cities)))]}

    def expected_answer(self, device: Device) -> Any:
        return _count_in(device, self.before("files"), self.params["city"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["city"])
        count = text_of(device, rid="result_count") or ""
        yield Action("answer", text=count.split()[0])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Counts the days with photos there instead of the photos (or one too many)."""
        right = _count_in(device, self.before("files"), self.params["city"])
        where = _places(device)
        days = {str(taken(str(r["_id"]))).split()[0] for r in photos(self.before("files"))
                if where.get(str(r["_id"]), "").split(",")[0] == self.params["city"]}
        yield Action("answer", text=str(len(days) if len(days) != right else right + 1))


@register_task
class GalleryPlaceOfDay(Task):
    """Say where the photos of a day were taken (each day's photos share a place)."""

    id = "GalleryPlaceOfDay"
    apps = ("gallery",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 4
    answer_matcher = StringMatch(contains=True)
    params_schema = {"day": str, "date": str}
    template = "Where was I when I took photos on {day}?"
    paraphrases = {
        "train": (
            "Which city are my {day} photos from?",
            "Look at my pictures from {day}: where were they taken?",
        ),
        "test": (
            "I took some pictures on {day}. In which town was that?",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        media = {str(r["_id"]): str(r["place"]) for r in probe.query("gallery/media")}
        days: dict[str, set[str]] = {}
        for r in camera_photos(probe):
            t = taken(str(r["_id"]))
            assert t is not None
            days.setdefault(t.date().isoformat(), set()).add(media.get(str(r["_id"]), ""))
        fits = sorted(d for d, ps in days.items() if len(ps) == 1 and "" not in ps)
        if not fits:
            raise NoInstance("no day with photos from one known place")
        d = fits[int(rng.integers(len(fits)))]
        t = taken(f"IMG_{d.replace('-', '')}_000000.jpg")
        assert t is not None
        return {"day": day_words(t, today(probe).year), "date": d}

    def expected_answer(self, device: Device) -> Any:
        where = _places(device)
        places = {where.get(str(r["_id"]), "") for r in photos(self.before("files"))
                  if str(taken(str(r["_id"])))[:10] == self.params["date"]}
        (place,) = places
        return Expected(place, candidates=sorted({p for p in where.values() if p}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["day"])
        place = text_of(device, rid="place_header")
        if not place:
            raise OracleError(f"no place shown for {self.params['day']}")
        yield Action("answer", text=place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Names the place of another day's photos."""
        right = str(self.expected_answer(device))
        others = sorted({p for p in _places(device).values() if p and p != right})
        yield Action("answer", text=others[0] if others else "Nowhere")


@register_task
class GalleryCountScreenshots(Task):
    """Count the screenshots (the Screenshots album says how many items it has).

    Fewer goals: the template has no params; the count varies with the seed."""

    id = "GalleryCountScreenshots"
    apps = ("gallery",)
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 3
    answer_matcher = NumberMatch()
    template = "How many screenshots do I have?"
    paraphrases = {
        "train": (
            "Count the screenshots on my phone.",
            "What's the number of screenshots in my gallery?",
        ),
        "test": (
            "Tell me how many screen captures are saved in my photos.",
        ),
    }

    def expected_answer(self, device: Device) -> Any:
        return len(photos(self.before("files"), SCREENSHOTS))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_photos(device)
        yield tap(device, rid="nav_library")
        yield from scroll_to(device, desc="Screenshots,", contains=True)
        count = text_of(device, rid="album_count", nth=self._tile(device)) or ""
        yield Action("answer", text=count.split()[0])

    @staticmethod
    def _tile(device: Device) -> int:
        names = []
        i = 0
        while True:
            name = text_of(device, rid="album_name", nth=i)
            if name is None:
                break
            names.append(name)
            i += 1
        if "Screenshots" not in names:
            raise OracleError("no Screenshots album on screen")
        return names.index("Screenshots")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Counts every picture outside the camera folder (screenshots and downloads)."""
        n = len(photos(self.before("files"), SCREENSHOTS))
        yield Action("answer", text=str(n + 1))
