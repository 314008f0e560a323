"""CinemaGo (movie-ticket mini-program in Chat) tasks: buy given seats for a showtime, buy
and share the ticket into a chat, count the seats left (information retrieval), and a day
that is not on sale (infeasible)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import elements, scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import ShareResultTask, chats, open_mini, share_to
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import added

LABEL = "CinemaGo"
ROWS, COLS = "ABCDEF", 8


def free_pair(rng: np.random.Generator, show: Row) -> list[str] | None:
    """Two free seats side by side at a showtime, or None."""
    taken = set(str(show["taken"]).split(", "))
    pairs = [[f"{r}{c}", f"{r}{c + 1}"] for r in ROWS for c in range(1, COLS)
             if f"{r}{c}" not in taken and f"{r}{c + 1}" not in taken]
    return pairs[int(rng.integers(len(pairs)))] if pairs else None


def show_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    shows = probe.query("movies/showtimes")
    while True:
        s = choice(rng, shows)
        seats = free_pair(rng, s)
        if seats:
            return {"film": s["film"], "day": s["day"], "time": s["time"],
                    "seats": " and ".join(seats)}


def to_show(device: Device, film: str, day: str, time: str) -> Iterator[Action]:
    """From anywhere: CinemaGo, the film, the showtime's seat map."""
    yield from open_mini(device, LABEL)
    yield from scroll_to(device, text=film, rid="film_title")
    yield tap(device, text=film, rid="film_title")
    yield tap(device, desc=f"{day} {time}", contains=True, rid="showtime")


def buy(device: Device, film: str, day: str, time: str, seats: list[str]) -> Iterator[Action]:
    yield from to_show(device, film, day, time)
    for seat in seats:
        yield tap(device, desc=f"Seat {seat}, available", rid="seat")
    yield tap(device, rid="buy")
    yield tap(device, text="Buy", rid="button2")


def booking(p: dict[str, Any]) -> dict[str, Any]:
    return {"film": p["film"], "day": p["day"], "time": p["time"],
            "seats": p["seats"].replace(" and ", ", ")}


def shifted(seats: str) -> list[str]:
    """The pair one seat to the right (or left at the row's end)."""
    a, b = seats.split(" and ")
    c = int(b[1:])
    return [f"{a[0]}{c}", f"{a[0]}{c + 1}"] if c < COLS else [f"{a[0]}{c - 2}", f"{a[0]}{c - 1}"]


@register_task
class MoviesBuySeats(Task):
    """Buy two given seats for a showtime: one booking for that film, day, time and those
    seats is added."""

    id = "MoviesBuySeats"
    apps = ("chat", "movies")
    category = "mini-app"
    difficulty = "medium"
    tags = ("seat-map", "payment")
    optimal_steps = 10
    may_change = ("movies/bookings",)
    params_schema = {"film": str, "day": str, "time": str, "seats": str}
    template = "In Chat's CinemaGo, buy tickets for {film} ({day}, {time}), seats {seats}."
    paraphrases = {
        "train": ("Book seats {seats} for the {time} showing of {film} {day} with CinemaGo.",
                  "Get me {film} tickets, {day} at {time}: seats {seats}."),
        "test": ("I want to see {film} at {time} {day}. Reserve and pay for seats {seats} in "
                 "the movie mini program.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return show_params(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("movies/bookings", booking(self.params)))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from buy(device, p["film"], p["day"], p["time"], p["seats"].split(" and "))
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The pair next to the asked one, when free; else the asked seats another day."""
        p = self.params
        show = next(s for s in device.probe.query("movies/showtimes")
                    if (s["film"], s["day"], s["time"]) == (p["film"], p["day"], p["time"]))
        wrong = shifted(p["seats"])
        if set(wrong) & set(str(show["taken"]).split(", ")):
            wrong = [p["seats"].split(" and ")[0]]  # only one of the two
        yield from buy(device, p["film"], p["day"], p["time"], wrong)
        yield Action("status", goal_status="complete")


@register_task
class MoviesBuyShare(ShareResultTask):
    """Buy two seats and share the ticket into a chat: the booking of
    :class:`MoviesBuySeats` plus one mini-program card in that chat naming the film."""

    id = "MoviesBuyShare"
    apps = ("chat", "movies")
    category = "mini-app"
    difficulty = "hard"
    tags = ("seat-map", "payment", "share")
    split = "test"
    optimal_steps = 13
    may_change = ("movies/bookings", "chat/messages")
    params_schema = {"film": str, "day": str, "time": str, "seats": str, "chat": str,
                     "chat_id": int}
    template = ("Buy {film} tickets for {day} at {time} (seats {seats}) in CinemaGo and share "
                "them with {chat} in Chat.")
    paraphrases = {
        "test": ("Grab seats {seats} for {film}, {day} {time}, then send the ticket to my "
                 "{chat} chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, unread=None))
        return {**show_params(rng, probe), "chat": c["title"], "chat_id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("movies/bookings", booking(p)),
            added("chat/messages", {"chat_id": p["chat_id"], "sender": "me", "type": "card",
                                    "body": lambda v: str(v).startswith(p["film"])}))

    def _run(self, device: Device, chat: str) -> Iterator[Action]:
        p = self.params
        yield from buy(device, p["film"], p["day"], p["time"], p["seats"].split(" and "))
        yield from share_to(device, chat)


@register_task
class MoviesSeatsLeft(Task):
    """Read how many seats are still free at a showtime (the showtime button says so)."""

    id = "MoviesSeatsLeft"
    apps = ("chat", "movies")
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 5
    answer_matcher = NumberMatch()
    params_schema = {"film": str, "day": str, "time": str}
    template = "How many seats are left for {film} {day} at {time} in CinemaGo?"
    paraphrases = {
        "train": ("Check CinemaGo in Chat: how many free seats does the {time} {film} "
                  "showing {day} have?",),
        "test": ("Is the {day} {time} screening of {film} nearly full? Tell me the number of "
                 "seats still available.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        s = choice(rng, probe.query("movies/showtimes"))
        return {"film": s["film"], "day": s["day"], "time": s["time"]}

    def _row(self, device: Device) -> Row:
        """The showtime's row (a static table: the same at the start and the end)."""
        p = self.params
        return next(s for s in device.probe.query("movies/showtimes")
                    if (s["film"], s["day"], s["time"]) == (p["film"], p["day"], p["time"]))

    def expected_answer(self, device: Device) -> Any:
        return len(ROWS) * COLS - int(self._row(device)["sold"])

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from open_mini(device, LABEL)
        yield from scroll_to(device, text=p["film"], rid="film_title")
        yield tap(device, text=p["film"], rid="film_title")
        want = f"{p['day']} {p['time']}, "
        desc = next(e.content_description or "" for e in elements(device)
                    if (e.content_description or "").startswith(want))
        yield Action("answer", text=desc[len(want):].split(" ")[0])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers the seats sold instead."""
        yield Action("answer", text=str(self._row(device)["sold"]))


@register_task
class MoviesNextWeekInfeasible(Task):
    """Infeasible by design: CinemaGo sells today's and tomorrow's showings only."""

    id = "MoviesNextWeekInfeasible"
    apps = ("chat", "movies")
    category = "mini-app"
    difficulty = "medium"
    tags = ("infeasible",)
    feasible = False
    optimal_steps = 5
    params_schema = {"film": str, "time": str}
    template = "Buy two tickets for {film} next Saturday at {time} in CinemaGo."
    paraphrases = {
        "train": ("Book {film} for a week from now, {time}, two seats, with CinemaGo.",),
        "test": ("Reserve two seats for {film} on Saturday next week ({time}).",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        s = choice(rng, probe.query("movies/showtimes"))
        return {"film": s["film"], "time": s["time"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield from scroll_to(device, text=self.params["film"], rid="film_title")
        yield tap(device, text=self.params["film"], rid="film_title")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Buys two seats tomorrow instead and claims success."""
        p = self.params
        show = next(s for s in device.probe.query("movies/showtimes")
                    if s["film"] == p["film"] and s["day"] == "Tomorrow")
        taken = set(str(show["taken"]).split(", "))
        seats = [x for x in (f"{r}{c}" for r in ROWS for c in range(1, COLS + 1))
                 if x not in taken][:2]
        yield from buy(device, p["film"], "Tomorrow", show["time"], seats)
        yield Action("status", goal_status="complete")


@register_task
class MoviesMatineeSeat(Task):
    """Buy one ticket for a film's cheaper 1:15 PM showing on a day, any free seat in a given
    row: one booking at that showing with a single seat in that row is added."""

    id = "MoviesMatineeSeat"
    apps = ("chat", "movies")
    category = "mini-app"
    difficulty = "medium"
    tags = ("seat-map", "payment")
    optimal_steps = 9
    may_change = ("movies/bookings",)
    params_schema = {"film": str, "day": str, "row": str}
    template = "Buy one ticket for the 1:15 PM matinee of {film} {day} in CinemaGo, any seat " \
               "in row {row}."
    constraints = (("one ticket", "a single"), "row {row}")
    paraphrases = {
        "train": ("Get me a single seat in row {row} for {film}'s 1:15 PM show {day}.",),
        "test": ("A single cheap matinee ticket (1:15 PM) for {film} {day}, please — sit me "
                 "somewhere in row {row}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        while True:
            shows = [s for s in probe.query("movies/showtimes") if s["time"] == "1:15 PM"]
            s = choice(rng, shows)
            row = ROWS[int(rng.integers(len(ROWS)))]
            taken = set(str(s["taken"]).split(", "))
            if any(f"{row}{c}" not in taken for c in range(1, COLS + 1)):
                return {"film": s["film"], "day": s["day"], "row": row}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("movies/bookings", {
            "film": p["film"], "day": p["day"], "time": "1:15 PM", "count": 1,
            "seats": lambda v: str(v).startswith(p["row"])}))

    def _run(self, device: Device, time: str, row: str) -> Iterator[Action]:
        p = self.params
        yield from to_show(device, p["film"], p["day"], time)
        seat = next(e.content_description for e in elements(device)
                    if (e.content_description or "").startswith(f"Seat {row}")
                    and (e.content_description or "").endswith("available"))
        yield tap(device, desc=seat, rid="seat")
        yield tap(device, rid="buy")
        yield tap(device, text="Buy", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, "1:15 PM", self.params["row"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right row at another (full-price) showing that day."""
        p = self.params
        other = next(s for s in device.probe.query("movies/showtimes")
                     if s["film"] == p["film"] and s["day"] == p["day"]
                     and s["time"] != "1:15 PM")
        yield from self._run(device, other["time"], p["row"])
        yield Action("status", goal_status="complete")
