"""Weather tasks: read a day's high or sunset, save a city found through the search
suggestions, remove one, change the units, and a forecast further ahead than the app shows
(infeasible)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, NumberMatch, StringMatch, TimeMatch
from phoneworld_gym.oracle import OracleError, elements, find, scroll_to, tap, text_of
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.weather.common import (
    KNOWN,
    add_city,
    day_of,
    long_day,
    open_city,
    open_day,
    to_main,
    unit,
)
from phoneworld_gym.validators import added, changed, removed

TEMP_LABELS = {"C": "Celsius (°C)", "F": "Fahrenheit (°F)"}
WIND_LABELS = {"km/h": "Kilometers per hour (km/h)", "mph": "Miles per hour (mph)"}


def _weekday(rng: np.random.Generator, day: dt.date) -> dt.date:
    """A day 3 to 6 days after ``day`` (the phone's date): the 10-day forecast from ``day``
    shows those weekdays once (the first three come back as days 7 to 9), and none is
    "Today" or "Tomorrow"."""
    return day + dt.timedelta(days=int(rng.integers(3, 7)))


@register_task
class WeatherHighOn(Task):
    """Read a saved city's high on a weekday (in the unit the app shows)."""

    id = "WeatherHighOn"
    apps = ("weather",)
    category = "information-retrieval"
    difficulty = "easy"
    tags = ("scroll",)
    optimal_steps = 5
    answer_matcher = NumberMatch()
    params_schema = {"city": str, "day": str, "date": str}
    template = "What's the high on {day} in {city}?"
    paraphrases = {
        "train": ("How warm will it get in {city} on {day}?",
                  "Check the weather: what is {city}'s high temperature on {day}?"),
        "test": ("I'm heading to {city} on {day}. What maximum temperature does the forecast "
                 "give?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, probe.query("weather/cities"))
        d = _weekday(rng, today(probe))
        return {"city": c["name"], "day": d.strftime("%A"), "date": d.isoformat()}

    def expected_answer(self, device: Device) -> Any:
        r = day_of(device.probe, self.params["city"], self.params["date"])
        return r["high_f"] if unit(self.before("weather/settings")) == "F" else r["high_c"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_day(device, self.params["city"],
                            dt.date.fromisoformat(self.params["date"]))
        high = text_of(device, rid="day_high")
        if not high:
            raise OracleError("the day shows no high")
        yield Action("answer", text=high)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The low instead of the high."""
        r = day_of(device.probe, self.params["city"], self.params["date"])
        low = r["low_f"] if unit(self.before("weather/settings")) == "F" else r["low_c"]
        yield Action("answer", text=f"{low}°")


@register_task
class WeatherSunset(Task):
    """Read when the sun sets in a saved city on a weekday."""

    id = "WeatherSunset"
    apps = ("weather",)
    category = "information-retrieval"
    difficulty = "medium"
    tags = ("scroll",)
    optimal_steps = 5
    answer_matcher = TimeMatch()
    params_schema = {"city": str, "day": str, "date": str}
    template = "What time does the sun set in {city} on {day}?"
    paraphrases = {
        "test": ("When is sunset on {day} in {city}, according to my weather app?",
                 "Until what time is there daylight in {city} on {day}?"),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, probe.query("weather/cities"))
        d = _weekday(rng, today(probe))
        return {"city": c["name"], "day": d.strftime("%A"), "date": d.isoformat()}

    def expected_answer(self, device: Device) -> Any:
        r = day_of(device.probe, self.params["city"], self.params["date"])
        return dt.datetime.strptime(r["sunset"], "%I:%M %p").time()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_day(device, self.params["city"],
                            dt.date.fromisoformat(self.params["date"]))
        yield Action("answer", text=text_of(device, rid="sunset") or "")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The sunrise instead."""
        r = day_of(device.probe, self.params["city"], self.params["date"])
        yield Action("answer", text=r["sunrise"])


@register_task
class WeatherAddCity(Task):
    """Save a city through the search: exactly one row with that city joins
    ``weather/cities`` (not as home)."""

    id = "WeatherAddCity"
    apps = ("weather",)
    difficulty = "easy"
    tags = ("search", "suggestions")
    optimal_steps = 5
    may_change = ("weather/cities",)
    params_schema = {"city": str, "region": str}
    template = "Add {city} ({region}) to my cities in the Weather app."
    paraphrases = {
        "train": ("Save {city}, {region} in Weather.",
                  "I want to follow the weather in {city}, {region} too; add it to my saved "
                  "cities."),
        "test": ("Could Weather also show me {city} ({region}) from now on?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        saved = {r["name"] for r in probe.query("weather/cities")}
        free = [k for k in KNOWN if k[0] not in saved]
        city, region = free[int(rng.integers(len(free)))]
        return {"city": city, "region": region}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("weather/cities", {"name": self.params["city"], "home": 0}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from add_city(device, self.params["city"], self.params["region"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves another city of the same region, or any other unsaved city."""
        saved = {r["name"] for r in device.probe.query("weather/cities")}
        free = [k for k in KNOWN if k[0] not in saved and k[0] != self.params["city"]]
        same = [k for k in free if k[1] == self.params["region"]]
        city, region = (same or free)[0]
        yield from add_city(device, city, region)
        yield Action("status", goal_status="complete")


@register_task
class WeatherRemoveCity(Task):
    """Remove a saved city (never the home city): exactly that row of ``weather/cities``
    goes."""

    id = "WeatherRemoveCity"
    apps = ("weather",)
    difficulty = "easy"
    optimal_steps = 4
    may_change = ("weather/cities",)
    params_schema = {"city": str, "id": int}
    template = "Remove {city} from my weather cities."
    paraphrases = {
        "train": ("I no longer need the forecast for {city}; delete it from Weather.",
                  "Take {city} off the list of saved cities."),
        "test": ("Stop showing me {city} in the weather app.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, [r for r in probe.query("weather/cities") if not r["home"]])
        return {"city": c["name"], "id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(removed("weather/cities", self.params["id"]))

    def _remove(self, device: Device, city: str) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, desc="Manage cities")
        yield tap(device, desc=f"Remove {city}", rid="remove_city")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._remove(device, self.params["city"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Removes another saved city (the home city when it is the only other one: its
        button does not exist, so this removes nothing)."""
        others = [r["name"] for r in device.probe.query("weather/cities")
                  if not r["home"] and r["_id"] != self.params["id"]]
        if others:
            yield from self._remove(device, others[0])
        else:
            yield from to_main(device)
        yield Action("status", goal_status="complete")


@register_task
class WeatherUnits(Task):
    """Switch both units (temperature and wind speed) to the other system: the one
    ``weather/settings`` row changes to exactly those units.

    Fewer goals: the goal depends only on which units the phone starts with (two systems)."""

    id = "WeatherUnits"
    apps = ("weather",)
    difficulty = "medium"
    tags = ("settings", "radio")
    optimal_steps = 5
    may_change = ("weather/settings",)
    params_schema = {"temp": str, "wind": str}
    template = "Show the weather in {temp} with wind speeds in {wind}."
    paraphrases = {
        "train": ("Change the Weather units to {temp} and {wind}.",
                  "Set temperatures to {temp} and wind to {wind} in my weather app."),
        "test": ("I'd rather read {temp} and {wind} in the forecast. Fix the app's settings.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        now = unit(probe.query("weather/settings"))
        temp = "F" if now == "C" else "C"
        wind = "mph" if temp == "F" else "km/h"
        return {"temp": TEMP_LABELS[temp], "wind": WIND_LABELS[wind].split(" (")[0].lower()}

    def _target(self) -> tuple[str, str]:
        temp = next(k for k, v in TEMP_LABELS.items() if v == self.params["temp"])
        wind = next(k for k, v in WIND_LABELS.items()
                    if v.lower().startswith(self.params["wind"]))
        return temp, wind

    def evaluate(self, device: Device, report: AgentReport) -> float:
        temp, wind = self._target()
        return self.expect(changed("weather/settings", 1, temp_unit=temp, wind_unit=wind))

    def _set(self, device: Device, temp: str, wind: str) -> Iterator[Action]:
        yield from to_main(device)
        yield tap(device, desc="Settings")
        yield tap(device, text=TEMP_LABELS[temp], rid="temperature_unit_option")
        yield tap(device, text=WIND_LABELS[wind], rid="wind_unit_option")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._set(device, *self._target())
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Switches the temperature but sets the wind to the unit it had."""
        temp, wind = self._target()
        yield from self._set(device, temp, "km/h" if wind == "mph" else "mph")
        yield Action("status", goal_status="complete")


@register_task
class WeatherFarForecast(Task):
    """Infeasible by design: the app forecasts ten days; a day weeks ahead has no forecast,
    and the right move is to look and say so."""

    id = "WeatherFarForecast"
    apps = ("weather",)
    difficulty = "medium"
    tags = ("infeasible",)
    optimal_steps = 4
    feasible = False
    params_schema = {"city": str, "date": str}
    template = "What will the high be in {city} on {date}?"
    paraphrases = {
        "train": ("Check the forecast for {city} on {date}.",),
        "test": ("Tell me how hot {city} will be on {date}, from my weather app.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, probe.query("weather/cities"))
        d = today(probe) + dt.timedelta(days=int(rng.integers(16, 60)))
        return {"city": c["name"], "date": f"{d.strftime('%B')} {d.day}"}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_city(device, self.params["city"])
        yield Action("status", goal_status="infeasible")


@register_task
class WeatherWarmestOf(Task):
    """Compare three saved cities: which one has the highest high on a weekday (the three
    highs differ at the top, so one city is right)."""

    id = "WeatherWarmestOf"
    apps = ("weather",)
    category = "information-retrieval"
    difficulty = "hard"
    tags = ("compare", "scroll")
    optimal_steps = 10
    answer_matcher = StringMatch(contains=True)
    params_schema = {"a": str, "b": str, "c": str, "day": str, "date": str}
    template = "Which will be warmest on {day}: {a}, {b} or {c}?"
    paraphrases = {
        "train": ("Of {a}, {b} and {c}, which city has the highest high on {day}?",
                  "Compare {day}'s highs in {a}, {b} and {c} and name the warmest city."),
        "test": ("I can travel to {a}, {b} or {c} on {day}. Where will it be the hottest?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        names = [r["name"] for r in probe.query("weather/cities")]
        if len(names) < 3:
            raise NoInstance("fewer than three saved cities")
        for _ in range(50):
            trio = [names[int(i)] for i in rng.choice(len(names), size=3, replace=False)]
            d = _weekday(rng, today(probe))
            highs = sorted((day_of(probe, n, d.isoformat())["high_c"] for n in trio),
                           reverse=True)
            if highs[0] != highs[1]:
                return {"a": trio[0], "b": trio[1], "c": trio[2], "day": d.strftime("%A"),
                        "date": d.isoformat()}
        raise NoInstance("no three saved cities with one warmest")

    def _highs(self, device: Device) -> dict[str, int]:
        return {n: int(day_of(device.probe, n, self.params["date"])["high_c"])
                for n in (self.params[k] for k in "abc")}

    def expected_answer(self, device: Device) -> Any:
        highs = self._highs(device)
        best = max(highs, key=lambda n: highs[n])
        return Expected(best, candidates=sorted(highs))

    def oracle(self, device: Device) -> Iterator[Action]:
        day = dt.date.fromisoformat(self.params["date"])
        seen: dict[str, int] = {}
        for k in "abc":
            city = self.params[k]
            yield from open_city(device, city)
            yield from scroll_to(device, desc=long_day(day), rid="daily_row", contains=True)
            i = find(device, desc=long_day(day), rid="daily_row", contains=True)
            desc = elements(device)[i].content_description or "" if i is not None else ""
            m = re.search(r"high (-?\d+)°", desc)
            if m is None:
                raise OracleError(f"no high in {desc!r}")
            seen[city] = int(m.group(1))
        yield Action("answer", text=max(seen, key=lambda n: seen[n]))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The city with the second highest high."""
        highs = self._highs(device)
        yield Action("answer", text=sorted(highs, key=lambda n: -highs[n])[1])
