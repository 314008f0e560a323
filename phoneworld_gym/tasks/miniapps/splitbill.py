"""Split (split-the-bill mini-program in Chat) tasks: split an amount with a group, split
and post the result into the group's chat, each person's share of the last split
(information retrieval), and an uneven split (infeasible)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import elements, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import chats, open_mini, share_to
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import added, states

LABEL = "Split"
TITLES = ("Dinner", "Groceries", "Taxi", "Pizza night", "Concert tickets", "Cabin rental",
          "Brunch", "Birthday gift", "Bowling", "Picnic supplies")


def amount(rng: np.random.Generator) -> str:
    return f"{int(rng.integers(20, 400))}.{int(rng.choice([0, 20, 50, 75])):02d}"


def split(device: Device, title: str, total: str, group: str) -> Iterator[Action]:
    """From anywhere: Split, New split, the fields, the group, Split."""
    yield from open_mini(device, LABEL)
    yield tap(device, text="New split")
    yield type_into(device, title, rid="split_title")
    yield type_into(device, total, rid="split_amount")
    yield tap(device, desc=group, rid="group_option")
    yield tap(device, rid="do_split")


def group_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    g = choice(rng, chats(probe, kind="group", unread=None))
    return {"group": g["title"], "chat_id": int(g["_id"]),
            "title": TITLES[int(rng.integers(len(TITLES)))], "amount": amount(rng)}


@register_task
class SplitBill(Task):
    """Split an amount with a chat group: one split with that title, total and group is
    added."""

    id = "SplitBill"
    apps = ("chat", "splitbill")
    category = "mini-app"
    difficulty = "medium"
    tags = ("form",)
    optimal_steps = 9
    may_change = ("splitbill/splits",)
    params_schema = {"group": str, "chat_id": int, "title": str, "amount": str}
    template = 'In Chat\'s Split mini program, split ${amount} for "{title}" with the {group} ' \
               "group."
    paraphrases = {
        "train": ('Use Split in Chat to divide the ${amount} "{title}" bill among {group}.',
                  'Create a split called "{title}" of ${amount} with my {group} group.'),
        "test": ('We owe ${amount} for "{title}"; share it equally with {group} using the '
                 "split-the-bill mini program.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return group_params(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("splitbill/splits", {
            "title": p["title"], "total": float(p["amount"]), "group": p["group"]}))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from split(device, p["title"], p["amount"], p["group"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Types the amount with the cents dropped, plus one dollar."""
        p = self.params
        wrong = str(int(float(p["amount"])) + 1)
        yield from split(device, p["title"], wrong, p["group"])
        yield Action("status", goal_status="complete")


@register_task
class SplitShareToGroup(Task):
    """Split an amount with a group and post the result into that group's chat: the split
    of :class:`SplitBill` plus one mini-program card in the group naming the title."""

    id = "SplitShareToGroup"
    apps = ("chat", "splitbill")
    category = "mini-app"
    difficulty = "hard"
    tags = ("form", "share")
    optimal_steps = 12
    may_change = ("splitbill/splits", "chat/messages")
    params_schema = {"group": str, "chat_id": int, "title": str, "amount": str}
    template = 'Split ${amount} for "{title}" with {group} in Chat\'s Split, and share the ' \
               "result in the {group} chat."
    paraphrases = {
        "train": ('Divide the "{title}" cost (${amount}) among {group} with Split and post '
                  "the shares to their group chat.",),
        "test": ('Tell {group} what everyone owes for "{title}": split ${amount} with them in '
                 "Split and send it to the group.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return group_params(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("splitbill/splits", {"title": p["title"], "total": float(p["amount"]),
                                       "group": p["group"]}),
            added("chat/messages", {"chat_id": p["chat_id"], "type": "card", "sender": "me",
                                    "body": states(p["title"])}))

    def _run(self, device: Device, chat: str) -> Iterator[Action]:
        p = self.params
        yield from split(device, p["title"], p["amount"], p["group"])
        yield from share_to(device, chat)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["group"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Posts it into another chat than the group's."""
        other = next(c["title"] for c in device.probe.query("chat/chats")
                     if c["title"] != self.params["group"])
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")


@register_task
class SplitLastShare(Task):
    """Read what each person paid in the newest split (its result screen shows it).

    Fewer goals: the template has no params; the split varies with the seed."""

    id = "SplitLastShare"
    apps = ("chat", "splitbill")
    category = "information-retrieval"
    difficulty = "easy"
    split = "test"
    optimal_steps = 5
    answer_matcher = NumberMatch()
    template = "In Chat's Split mini program, how much did each person pay in my latest split?"
    paraphrases = {
        "test": ("Open my most recent bill split in Split: what was the per-person share?",),
    }

    def expected_answer(self, device: Device) -> Any:
        return sorted(self.before("splitbill/splits"), key=lambda r: r["_id"])[-1]["each"]

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield tap(device, rid="split_title")
        yield Action("answer", text=(text_of(device, rid="each_amount") or "").lstrip("$"))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers the total instead of the share."""
        last = sorted(self.before("splitbill/splits"), key=lambda r: r["_id"])[-1]
        yield Action("answer", text=f"{last['total']:.2f}")


@register_task
class SplitUnevenInfeasible(Task):
    """Infeasible by design: Split divides equally; it cannot make one person pay a larger
    share."""

    id = "SplitUnevenInfeasible"
    apps = ("chat", "splitbill")
    category = "mini-app"
    difficulty = "medium"
    tags = ("infeasible",)
    feasible = False
    optimal_steps = 5
    params_schema = {"group": str, "chat_id": int, "title": str, "amount": str}
    template = 'Split ${amount} for "{title}" with {group} in Split so that I pay twice as ' \
               "much as everyone else."
    paraphrases = {
        "train": ('In Chat\'s Split, divide "{title}" (${amount}) with {group}, but give me a '
                  "double share.",),
        "test": ('Make a split of ${amount} for "{title}" with {group} where my part is 2x '
                 "the others'.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return group_params(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield tap(device, text="New split")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Makes an even split and claims success."""
        p = self.params
        yield from split(device, p["title"], p["amount"], p["group"])
        yield Action("status", goal_status="complete")


@register_task
class SplitRepeatLast(Task):
    """Split the newest past split's bill again, same title and total, with a chat group:
    one split with that title, total and group is added. The agent reads them off History.

    Fewer goals: the seeded history has one split and Chat has two groups; the title and
    total vary with the seed."""

    id = "SplitRepeatLast"
    apps = ("chat", "splitbill")
    category = "mini-app"
    difficulty = "medium"
    split = "test"
    tags = ("read-then-write", "form")
    optimal_steps = 9
    may_change = ("splitbill/splits",)
    params_schema = {"group": str}
    template = "In Split, split my last bill again (same name and total) with the {group} group."
    paraphrases = {
        "train": ("Repeat my most recent split in Chat's Split, this time with {group}.",),
        "test": ("Whatever I split last time in Split, do it once more — same title, same "
                 "amount — but with the {group} group.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"group": str(choice(rng, chats(probe, kind="group", unread=None))["title"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        last = sorted(self.before("splitbill/splits"), key=lambda r: r["_id"])[-1]
        return self.expect(added("splitbill/splits", {
            "title": last["title"], "total": last["total"], "group": self.params["group"]}))

    def _run(self, device: Device, extra: float) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        title = text_of(device, rid="split_title") or ""
        lines = [e.text or "" for e in elements(device)]
        total = next(float(t.split(" · ")[0].lstrip("$")) for t in lines
                     if t.startswith("$") and " people · " in t)
        yield tap(device, text="New split")
        yield type_into(device, title, rid="split_title")
        yield type_into(device, f"{total + extra:.2f}", rid="split_amount")
        yield tap(device, desc=self.params["group"], rid="group_option")
        yield tap(device, rid="do_split")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0.0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The total off by a dollar."""
        yield from self._run(device, 1.0)
        yield Action("status", goal_status="complete")
