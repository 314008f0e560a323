"""Parcel (parcel-tracking mini-program in Chat) tasks: send a parcel to a pickup locker,
change its home delivery window and share the tracking into a chat, send two parcels to one
locker, when a parcel is expected (information retrieval), and cancelling a parcel
(infeasible: the courier cannot)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import Expected, StringMatch
from phoneworld_gym.oracle import scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import ShareResultTask, chats, open_mini, share_to
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import changed, expect

LABEL = "Parcel"
WINDOWS = ("9 AM - 12 PM", "12 PM - 3 PM", "3 PM - 6 PM", "6 PM - 9 PM")
LOCKERS = ("Central Station locker", "City Library locker", "Harbor Market locker")


def moving(probe: Probe) -> list[Row]:
    return [r for r in probe.query("parcel/parcels") if r["status"] == "In transit"]


def open_parcel(device: Device, item: str, sender: str) -> Iterator[Action]:
    yield from open_mini(device, LABEL)
    title = f"{item} from {sender}"
    yield from scroll_to(device, text=title, rid="parcel_title")
    yield tap(device, text=title, rid="parcel_title")


def redirect(device: Device, item: str, sender: str, option: str) -> Iterator[Action]:
    """From anywhere: the parcel, Change delivery, the option, Confirm."""
    yield from open_parcel(device, item, sender)
    yield tap(device, text="Change delivery")
    yield from scroll_to(device, text=option)
    yield tap(device, text=option)
    yield tap(device, text="Confirm", rid="button2")


@register_task
class ParcelToLocker(Task):
    """Send a parcel in transit to a pickup locker: exactly that parcel's delivery becomes
    the locker."""

    id = "ParcelToLocker"
    apps = ("chat", "parcel")
    category = "mini-app"
    difficulty = "medium"
    tags = ("dialog",)
    optimal_steps = 8
    may_change = ("parcel/parcels",)
    params_schema = {"item": str, "sender": str, "id": int, "locker": str}
    template = "In Chat's Parcel, have my {item} from {sender} delivered to the {locker}."
    paraphrases = {
        "train": ("Redirect the {sender} parcel ({item}) to the {locker} using Parcel.",),
        "test": ("I won't be home for the {item} from {sender}; send it to the {locker} "
                 "instead.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = choice(rng, moving(probe))
        return {"item": p["item"], "sender": p["sender"], "id": int(p["_id"]),
                "locker": LOCKERS[int(rng.integers(len(LOCKERS)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(changed("parcel/parcels", p["id"],
                                   delivery=f"Locker: {p['locker']}"))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from redirect(device, p["item"], p["sender"], p["locker"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another locker."""
        p = self.params
        other = LOCKERS[(LOCKERS.index(p["locker"]) + 1) % len(LOCKERS)]
        yield from redirect(device, p["item"], p["sender"], other)
        yield Action("status", goal_status="complete")


@register_task
class ParcelWindowShare(ShareResultTask):
    """Change a parcel's home delivery window and share its tracking into a chat: the
    parcel's delivery becomes that window, and one card from the owner in the chat names the
    tracking number and the new window."""

    id = "ParcelWindowShare"
    apps = ("chat", "parcel")
    category = "mini-app"
    difficulty = "hard"
    tags = ("dialog", "share")
    split = "test"
    optimal_steps = 11
    may_change = ("parcel/parcels", "chat/messages")
    params_schema = {"item": str, "sender": str, "id": int, "tracking": str, "window": str,
                     "chat": str, "chat_id": int}
    template = ("Move the delivery of my {item} from {sender} to {window} in Parcel, then share "
                "the tracking with {chat} in Chat.")
    paraphrases = {
        "test": ("Have the {sender} parcel ({item}) come between {window} and send its "
                 "tracking to my {chat} chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = choice(rng, moving(probe))
        windows = [w for w in WINDOWS if f"Home, {w}" != p["delivery"]]
        c = choice(rng, chats(probe, unread=None))
        return {"item": p["item"], "sender": p["sender"], "id": int(p["_id"]),
                "tracking": p["tracking"], "window": windows[int(rng.integers(len(windows)))],
                "chat": c["title"], "chat_id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            changed("parcel/parcels", p["id"], delivery=f"Home, {p['window']}"),
            expect("chat/messages", added=[{
                "chat_id": p["chat_id"], "sender": "me", "type": "card",
                "body": lambda v: p["tracking"] in str(v) and p["window"] in str(v)}]))

    def _run(self, device: Device, chat: str) -> Iterator[Action]:
        p = self.params
        yield from redirect(device, p["item"], p["sender"], p["window"])
        yield from share_to(device, chat)


@register_task
class ParcelExpectedDay(Task):
    """Read the day a parcel in transit is expected.

    Fewer goals: eight senders ship one item each; the day varies with the seed."""

    id = "ParcelExpectedDay"
    apps = ("chat", "parcel")
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 5
    answer_matcher = StringMatch(contains=True)
    params_schema = {"item": str, "sender": str, "id": int}
    template = "When is my {item} from {sender} expected to arrive, according to Parcel?"
    paraphrases = {
        "train": ("Check Parcel in Chat: which day does the {item} from {sender} come?",),
        "test": ("What delivery day does the tracking show for the {item} I ordered from "
                 "{sender}?",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = choice(rng, moving(probe))
        return {"item": p["item"], "sender": p["sender"], "id": int(p["_id"])}

    def expected_answer(self, device: Device) -> Any:
        rows = self.before("parcel/parcels")
        day = next(r["day"] for r in rows if r["_id"] == self.params["id"])
        return Expected(day, candidates=sorted({r["day"] for r in rows}))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from open_parcel(device, p["item"], p["sender"])
        yield Action("answer", text=(text_of(device, rid="parcel_day") or "")
                     .removeprefix("Expected "))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another parcel's day (or the day after)."""
        rows = self.before("parcel/parcels")
        day = next(r["day"] for r in rows if r["_id"] == self.params["id"])
        later = self.start_day() + dt.timedelta(days=6)  # after every expected day
        other = next((r["day"] for r in rows if r["day"] != day),
                     f"{later.strftime('%a')}, {later.strftime('%b')} {later.day}")
        yield Action("answer", text=other)


@register_task
class ParcelCancelInfeasible(Task):
    """Infeasible by design: Parcel tracks deliveries and changes where and when they
    arrive; it cannot cancel a parcel or refund it.

    Fewer goals: eight senders ship one item each."""

    id = "ParcelCancelInfeasible"
    apps = ("chat", "parcel")
    category = "mini-app"
    difficulty = "medium"
    tags = ("infeasible",)
    feasible = False
    optimal_steps = 5
    params_schema = {"item": str, "sender": str}
    template = "Cancel my {item} from {sender} in Parcel and get a refund."
    paraphrases = {
        "train": ("Use Chat's Parcel to cancel the {sender} delivery of my {item} and refund "
                  "me.",),
        "test": ("I don't want the {item} anymore — stop the {sender} parcel and refund it.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = choice(rng, moving(probe))
        return {"item": p["item"], "sender": p["sender"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_parcel(device, self.params["item"], self.params["sender"])
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends it to a locker instead and claims success."""
        yield from redirect(device, self.params["item"], self.params["sender"], LOCKERS[0])
        yield Action("status", goal_status="complete")


@register_task
class ParcelTwoToLocker(Task):
    """Send two parcels in transit to the same pickup locker: exactly those two parcels'
    delivery becomes the locker."""

    id = "ParcelTwoToLocker"
    apps = ("chat", "parcel")
    category = "mini-app"
    difficulty = "hard"
    tags = ("dialog", "multi-item")
    optimal_steps = 18
    may_change = ("parcel/parcels",)
    params_schema = {"item": str, "sender": str, "id": int, "item2": str, "sender2": str,
                     "id2": int, "locker": str}
    template = ("In Chat's Parcel, have both my {item} from {sender} and my {item2} from "
                "{sender2} delivered to the {locker}.")
    paraphrases = {
        "train": ("Redirect both parcels to the {locker} in Parcel: the {item} ({sender}) and "
                  "the {item2} ({sender2}).",),
        "test": ("I'll pick up the {sender} and {sender2} deliveries ({item}, {item2}) at "
                 "the {locker}; set that up in Parcel.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = moving(probe)
        i, j = (int(k) for k in rng.choice(len(rows), size=2, replace=False))
        a, b = rows[i], rows[j]
        return {"item": a["item"], "sender": a["sender"], "id": int(a["_id"]),
                "item2": b["item"], "sender2": b["sender"], "id2": int(b["_id"]),
                "locker": LOCKERS[int(rng.integers(len(LOCKERS)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        locker = f"Locker: {p['locker']}"
        return self.expect(expect("parcel/parcels", changed={p["id"]: {"delivery": locker},
                                                             p["id2"]: {"delivery": locker}}))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from redirect(device, p["item"], p["sender"], p["locker"])
        yield from redirect(device, p["item2"], p["sender2"], p["locker"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The first parcel only."""
        p = self.params
        yield from redirect(device, p["item"], p["sender"], p["locker"])
        yield Action("status", goal_status="complete")
