"""Shopping tasks on past orders: cancel the Processing one, return a delivered item, and an
infeasible cancellation of an order that has already arrived.

Orders are read as ``shopping/orders`` rows (``_id`` "ORD-10234", ``status``, ``items`` with
``product_id``, ``name``, ``returned``, ...); the only state these tasks may change is that
table, one order at a time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import ORDERS, SHOP, open_order, products_by_id
from phoneworld_gym.validators import changed

#: the reasons the return form offers, as its chips read
RETURN_REASONS = ("Changed my mind", "Arrived damaged", "Wrong item sent", "Doesn't fit",
                  "Better price elsewhere")
#: departments whose products can fail to fit
WEARABLE = ("Clothing", "Shoes")


def _with_status(orders: list[Row], status: str) -> list[Row]:
    """The orders in ``status``, oldest first."""
    return [o for o in orders if o["status"] == status]


def _order(rows: list[Row], order_id: str) -> Row:
    """The order row ``order_id`` (``KeyError`` when there is none)."""
    for o in rows:
        if o["_id"] == order_id:
            return o
    raise KeyError(f"no order {order_id!r}")


@register_task
class ShoppingCancelOrder(Task):
    """Cancel the order that is still Processing (confirming the dialog): that order's status
    becomes Cancelled and nothing else changes."""

    id = "ShoppingCancelOrder"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("dialog",)
    optimal_steps = 8
    may_change = (ORDERS,)
    params_schema = {"order_id": str}
    template = "Cancel my order {order_id}, I don't need it anymore."
    paraphrases = {
        "train": (
            "Please cancel order {order_id}; I don't need it anymore.",
            "I don't need my order {order_id} anymore, cancel it.",
        ),
        "test": (
            "Could you cancel my order {order_id}? I no longer need it.",
            "I changed my mind about order {order_id}, so please cancel it.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        o = choice(rng, _with_status(probe.query(ORDERS), "Processing"))
        return {"order_id": o["_id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed(ORDERS, self.params["order_id"], status="Cancelled"))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._to_dialog(device)
        yield tap(device, text="Cancel order", cls="Button")
        yield Action("status", goal_status="complete")

    def _to_dialog(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield from scroll_to(device, rid="cancel_order")
        yield tap(device, rid="cancel_order")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Opens the dialog, then keeps the order."""
        yield from self._to_dialog(device)
        yield tap(device, text="Keep order", cls="Button")
        yield Action("status", goal_status="complete")


@register_task
class ShoppingCancelDeliveredOrder(Task):
    """Infeasible by design: the order has already been delivered and cannot be cancelled."""

    id = "ShoppingCancelDeliveredOrder"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("infeasible",)
    feasible = False
    split = "test"
    optimal_steps = 6
    params_schema = {"order_id": str}
    template = "Please cancel order {order_id}."
    paraphrases = {
        "test": (
            "Cancel my order {order_id}.",
            "Could you cancel order {order_id} for me?",
            "I'd like order {order_id} cancelled, please.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        o = choice(rng, _with_status(probe.query(ORDERS), "Delivered"))
        return {"order_id": o["_id"]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Cancels the Processing order instead, then claims success."""
        other = _with_status(self.before(ORDERS), "Processing")[0]
        yield from ShoppingCancelOrder({"order_id": other["_id"]})._to_dialog(device)
        yield tap(device, text="Cancel order", cls="Button")
        yield Action("status", goal_status="complete")


@register_task
class ShoppingReturnItem(Task):
    """Return one item of a delivered order with a given reason: that item is marked returned,
    the order becomes "Return requested" with the reason, and nothing else changes."""

    id = "ShoppingReturnItem"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("form",)
    optimal_steps = 10
    may_change = (ORDERS,)
    params_schema = {"order_id": str, "index": int, "name": str, "reason": str,
                     "reason_text": str}
    template = "Return {name} from order {order_id}. The reason: {reason_text}."
    paraphrases = {
        "train": (
            "Please return {name} from order {order_id} because {reason_text}.",
            "I want to return {name} from my order {order_id}; the reason is that {reason_text}.",
        ),
        "test": (
            ("Could you start a return for {name} in order {order_id}? I'm returning it because "
             "{reason_text}."),
            "Since {reason_text}, I'd like to send back {name} from order {order_id}.",
        ),
    }

    REASON_TEXT = {"Changed my mind": "I changed my mind", "Arrived damaged": "it arrived damaged",
                   "Wrong item sent": "they sent the wrong item", "Doesn't fit": "it doesn't fit",
                   "Better price elsewhere": "I found a better price elsewhere"}

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        o = choice(rng, _with_status(probe.query(ORDERS), "Delivered"))
        i = int(rng.integers(len(o["items"])))
        item = o["items"][i]
        wearable = products_by_id(probe)[item["product_id"]]["category"] in WEARABLE
        reason = choice(rng, [r for r in RETURN_REASONS if wearable or r != "Doesn't fit"])
        return {"order_id": o["_id"], "index": i, "name": item["name"], "reason": reason,
                "reason_text": cls.REASON_TEXT[reason]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        items = _order(self.before(ORDERS), p["order_id"])["items"]
        items[p["index"]]["returned"] = 1
        return self.expect(changed(ORDERS, p["order_id"], status="Return requested",
                                   return_reason=p["reason"], items=items))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._return(device, self.params["reason"])
        yield Action("status", goal_status="complete")

    def _return(self, device: Device, reason: str) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield from scroll_to(device, rid="return_items")
        yield tap(device, rid="return_items")
        yield from scroll_to(device, desc=self.params["name"], rid="return_item")
        yield tap(device, desc=self.params["name"], rid="return_item")
        yield from scroll_to(device, text=reason, rid="return_reason")
        yield tap(device, text=reason, rid="return_reason")
        yield from scroll_to(device, rid="submit_return")
        yield tap(device, rid="submit_return")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right item with the wrong reason."""
        rs = list(RETURN_REASONS)
        wrong = rs[(rs.index(self.params["reason"]) + 1) % len(rs)]
        yield from self._return(device, wrong)
        yield Action("status", goal_status="complete")
