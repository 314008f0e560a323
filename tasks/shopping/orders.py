"""Shopping tasks on past orders: cancel the Processing one, return a delivered item, and an
infeasible cancellation of an order that has already arrived."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.apps.shopping import catalogue as cat
from phoneworld_gym.apps.shopping import store as st
from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import scroll_to, tap
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.shopping.common import SHOP, choice, open_order, orders_same_except


def _with_status(probe: Probe, status: str) -> list[dict[str, Any]]:
    return [o for o in probe.app_store(SHOP)["orders"] if o["status"] == status]


@register_task
class ShoppingCancelOrder(Task):
    """Cancel the order that is still Processing (confirming the dialog)."""

    id = "ShoppingCancelOrder"
    apps = (SHOP,)
    difficulty = "medium"
    tags = ("dialog",)
    optimal_steps = 7
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
        return {"order_id": choice(rng, _with_status(probe, "Processing"))["id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before, after = self.store_before(SHOP), device.probe.app_store(SHOP)
        oid = self.params["order_id"]
        want = st.find_order(before, oid)
        got = st.find_order(after, oid)
        ok = (want is not None and got == dict(want, status="Cancelled")
              and len(after["orders"]) == len(before["orders"])
              and orders_same_except(before["orders"], after["orders"], changed=oid)
              and self.unchanged(device, allow={SHOP: {"orders"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._to_dialog(device)
        yield tap(device, text="Cancel order", cls="Button")

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
    optimal_steps = 5
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
        return {"order_id": choice(rng, _with_status(probe, "Delivered"))["id"]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_order(device, self.params["order_id"])
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Cancels the Processing order instead, then claims success."""
        other = next(o for o in self.store_before(SHOP)["orders"] if o["status"] == "Processing")
        yield from ShoppingCancelOrder({"order_id": other["id"]}).oracle(device)
        yield Action("status", goal_status="complete")


@register_task
class ShoppingReturnItem(Task):
    """Return one item of a delivered order with a given reason."""

    id = "ShoppingReturnItem"
    apps = (SHOP,)
    difficulty = "hard"
    tags = ("form",)
    optimal_steps = 9
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
        o = choice(rng, _with_status(probe, "Delivered"))
        i = int(rng.integers(len(o["items"])))
        wearable = cat.product(o["items"][i]["product_id"]).category in ("Clothing", "Shoes")
        reason = choice(rng, [r for r in st.RETURN_REASONS if wearable or r != "Doesn't fit"])
        return {"order_id": o["id"], "index": i,
                "name": cat.product(o["items"][i]["product_id"]).name,
                "reason": reason, "reason_text": cls.REASON_TEXT[reason]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        before, after = self.store_before(SHOP), device.probe.app_store(SHOP)
        oid = self.params["order_id"]
        want = st.find_order(before, oid)
        assert want is not None
        want["items"][self.params["index"]]["returned"] = True
        want.update(status="Return requested", return_reason=self.params["reason"])
        ok = (st.find_order(after, oid) == want
              and len(after["orders"]) == len(before["orders"])
              and orders_same_except(before["orders"], after["orders"], changed=oid)
              and self.unchanged(device, allow={SHOP: {"orders"}}))
        return 1.0 if ok else 0.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._return(device, self.params["reason"])

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
        rs = list(st.RETURN_REASONS)
        wrong = rs[(rs.index(self.params["reason"]) + 1) % len(rs)]
        yield from self._return(device, wrong)
        yield Action("status", goal_status="complete")
