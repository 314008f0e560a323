"""Pay Bills (bill-payment mini-program in Chat) tasks: pay a bill, pay one and share the
receipt into a chat, pay the largest due bill (read off the list), the amount of a bill
(information retrieval), paying part of a bill (infeasible: bills are paid in full) and its
feasible twin, a sum to spare that covers the bill."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import NumberMatch
from phoneworld_gym.oracle import OracleError, elements, scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import ShareResultTask, chats, open_mini, share_to
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import added, changed

LABEL = "Pay Bills"


def due(probe: Probe) -> list[Row]:
    return [r for r in probe.query("bills/bills") if r["status"] == "Due"]


def open_bill(device: Device, kind: str, biller: str) -> Iterator[Action]:
    yield from open_mini(device, LABEL)
    title = f"{kind} · {biller}"
    yield from scroll_to(device, text=title, rid="bill_title")
    yield tap(device, text=title, rid="bill_title")


def pay(device: Device, kind: str, biller: str) -> Iterator[Action]:
    """From anywhere: the bill, Pay in full, confirm."""
    yield from open_bill(device, kind, biller)
    yield tap(device, rid="pay_bill")
    yield tap(device, text="Pay", rid="button2")


def bill_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    b = choice(rng, due(probe))
    return {"kind": str(b["kind"]).lower(), "biller": b["biller"], "id": int(b["_id"])}


def paid(task: Task, bid: int) -> Any:
    """Bill ``bid`` became paid on the day the episode started."""
    return changed("bills/bills", bid, status="Paid", paid_on=task.start_day().isoformat())


def _other(device: Device, p: dict[str, Any]) -> Row:
    """Another bill still due (or, when there is none, any other bill)."""
    rows = device.probe.query("bills/bills")
    return next((r for r in rows if r["_id"] != p["id"] and r["status"] == "Due"),
                next(r for r in rows if r["_id"] != p["id"]))


@register_task
class BillsPay(Task):
    """Pay a bill that is due: exactly that bill becomes paid today.

    Fewer goals: the household has five billers, two to four of them due."""

    id = "BillsPay"
    apps = ("chat", "bills")
    category = "mini-app"
    difficulty = "easy"
    tags = ("payment", "dialog")
    optimal_steps = 7
    may_change = ("bills/bills",)
    params_schema = {"kind": str, "biller": str, "id": int}
    template = "Pay my {kind} bill from {biller} with Pay Bills in Chat."
    paraphrases = {
        "train": ("Settle the {biller} {kind} bill in Chat's Pay Bills.",),
        "test": ("The {kind} bill ({biller}) is due. Pay it in full through the bill "
                 "mini program.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return bill_params(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(paid(self, self.params["id"]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from pay(device, self.params["kind"].title(), self.params["biller"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Pays another bill."""
        other = _other(device, self.params)
        if other["status"] == "Due":
            yield from pay(device, other["kind"], other["biller"])
        yield Action("status", goal_status="complete")


@register_task
class BillsPayShare(ShareResultTask):
    """Pay a bill and share the receipt into a chat: the bill becomes paid, and one card
    from the owner in that chat names the biller."""

    id = "BillsPayShare"
    apps = ("chat", "bills")
    category = "mini-app"
    difficulty = "hard"
    tags = ("payment", "share")
    optimal_steps = 10
    may_change = ("bills/bills", "chat/messages")
    params_schema = {"kind": str, "biller": str, "id": int, "chat": str, "chat_id": int}
    template = "Pay the {kind} bill ({biller}) in Chat's Pay Bills and share the receipt with " \
               "{chat}."
    paraphrases = {
        "train": ("Settle my {biller} {kind} bill, then send the payment receipt to {chat} "
                  "on Chat.",),
        "test": ("{chat} should know the {kind} bill from {biller} is paid: pay it and post "
                 "the receipt in our chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, unread=None))
        return {**bill_params(rng, probe), "chat": c["title"], "chat_id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(paid(self, p["id"]), added("chat/messages", {
            "chat_id": p["chat_id"], "sender": "me", "type": "card",
            "body": lambda v: f"({p['biller']})" in str(v)}))

    def _run(self, device: Device, chat: str) -> Iterator[Action]:
        yield from pay(device, self.params["kind"].title(), self.params["biller"])
        yield from share_to(device, chat)


@register_task
class BillsAmountDue(Task):
    """Read how much a bill is.

    Fewer goals: the household has five billers; the amounts vary with the seed."""

    id = "BillsAmountDue"
    apps = ("chat", "bills")
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 5
    answer_matcher = NumberMatch()
    params_schema = {"kind": str, "biller": str, "id": int}
    template = "How much is my {kind} bill from {biller} in Pay Bills?"
    paraphrases = {
        "train": ("What does the {biller} {kind} bill come to in Chat's Pay Bills?",),
        "test": ("Look up the amount of the {biller} {kind} bill in Chat's bill mini "
                 "program.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return bill_params(rng, probe)

    def expected_answer(self, device: Device) -> Any:
        return next(r["amount"] for r in self.before("bills/bills")
                    if r["_id"] == self.params["id"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_bill(device, self.params["kind"].title(), self.params["biller"])
        yield Action("answer", text=(text_of(device, rid="bill_amount") or "").lstrip("$"))

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The total due instead of the bill."""
        rows = self.before("bills/bills")
        total = sum(r["amount"] for r in rows if r["status"] == "Due")
        mine = next(r["amount"] for r in rows if r["_id"] == self.params["id"])
        yield Action("answer", text=f"{total if total != mine else mine + 1:.2f}")


@register_task
class BillsPartialInfeasible(Task):
    """Infeasible by design: Pay Bills pays a bill in full; it cannot pay part of one."""

    id = "BillsPartialInfeasible"
    apps = ("chat", "bills")
    category = "mini-app"
    difficulty = "medium"
    tags = ("infeasible",)
    feasible = False
    optimal_steps = 5
    params_schema = {"kind": str, "biller": str, "id": int, "amount": int}
    template = "Pay only ${amount} of my {kind} bill from {biller} in Pay Bills."
    paraphrases = {
        "train": ("Make a partial payment of ${amount} toward the {biller} {kind} bill.",),
        "test": ("I can only spare ${amount} for the {kind} bill ({biller}) right now; pay "
                 "just that.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {**bill_params(rng, probe), "amount": int(rng.integers(5, 20))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_bill(device, self.params["kind"].title(), self.params["biller"])
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Pays it in full and claims success."""
        yield from pay(device, self.params["kind"].title(), self.params["biller"])
        yield Action("status", goal_status="complete")


@register_task
class BillsPayToward(BillsPay):
    """The feasible twin of :class:`BillsPartialInfeasible`: its vocabulary ("spare",
    "toward", "partial payment") for a sum that covers the bill, so the bill is paid in full.
    Without a twin those were words no feasible goal used, and ``status infeasible`` on sight
    of them won the infeasible task blind."""

    id = "BillsPayToward"
    difficulty = "medium"
    params_schema = {"kind": str, "biller": str, "id": int, "amount": int}
    template = ("I can spare ${amount} toward my {kind} bill from {biller}. That covers it, so "
                "pay it in full in Pay Bills, not as a partial payment.")
    constraints = ("in full",)
    paraphrases = {
        "train": ("Put the ${amount} I can spare toward the {biller} {kind} bill: it is enough, "
                  "so skip the partial payment and pay it in full in Chat's Pay Bills.",),
        "test": ("I have ${amount} to spare this week, more than the {kind} bill ({biller}) "
                 "comes to. Rather than a partial payment toward it, pay it in full in the "
                 "bill mini program.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        p = bill_params(rng, probe)
        owed = next(float(r["amount"]) for r in due(probe) if r["_id"] == p["id"])
        return {**p, "amount": math.ceil(owed) + int(rng.integers(0, 25))}


def _due_on_screen(device: Device) -> list[tuple[float, str, str]]:
    """(amount, kind, biller) of every due bill in Pay Bills' list, read off the screen (the
    five bills fit on one screen)."""
    out = []
    for e in elements(device):
        desc = e.content_description or ""
        if (e.resource_id or "").endswith("/bill") and ", Due " in desc:
            kind, biller, amount, _state = desc.split(", ", 3)
            out.append((float(amount.lstrip("$")), kind, biller))
    if not out:
        raise OracleError("no due bill on Pay Bills' screen")
    return out


@register_task
class BillsPayLargestDue(Task):
    """Pay the largest of the bills still due, found by reading the list: exactly that bill
    becomes paid today. No params: which bill it is depends on the seed's amounts."""

    id = "BillsPayLargestDue"
    apps = ("chat", "bills")
    category = "mini-app"
    difficulty = "medium"
    tags = ("payment", "dialog", "compare")
    optimal_steps = 7
    may_change = ("bills/bills",)
    template = "In Chat's Pay Bills, pay whichever of my due bills is the largest."
    paraphrases = {
        "train": ("Pay the biggest unpaid bill in the Pay Bills mini program.",),
        "test": ("Of the bills I still owe in Pay Bills, settle the one with the highest "
                 "amount.",),
    }

    def _largest(self) -> list[int]:
        """The ids of the due bill(s) with the highest amount at the start."""
        rows = [r for r in self.before("bills/bills") if r["status"] == "Due"]
        top = max(float(r["amount"]) for r in rows)
        return [int(r["_id"]) for r in rows if float(r["amount"]) == top]

    def evaluate(self, device: Device, report: AgentReport) -> float:
        scores = [self.expect(paid(self, i)) for i in self._largest()]
        return max(scores)

    def _pay_by(self, device: Device, pick: Any) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        seen = _due_on_screen(device)
        _amount, kind, biller = pick(seen)
        title = f"{kind} · {biller}"
        yield tap(device, text=title, rid="bill_title")
        yield tap(device, rid="pay_bill")
        yield tap(device, text="Pay", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._pay_by(device, max)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Pays the smallest due bill instead."""
        yield from self._pay_by(device, min)
        yield Action("status", goal_status="complete")
