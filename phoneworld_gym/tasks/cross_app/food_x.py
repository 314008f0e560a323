"""Cross-app tasks around Food: a restaurant's address carried into a text (Messages), the
delivery's arrival time into Calendar and, through the share sheet, into a Chat, and a
friend's request in Chat turned into an order.
Food's tables are its own, so these run in PhoneWorld only."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import create_event, epoch_ms
from phoneworld_gym.tasks.chat.common import chats, last_text, open_chat
from phoneworld_gym.tasks.food.common import (
    browse_to_restaurant,
    checkout,
    eta_shown,
    live_order,
    open_live_order,
    open_restaurant,
    order_dish,
    order_line,
    pick_line,
    requested,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.messages.common import SENT, send_to, texters
from phoneworld_gym.validators import added, same_phone, same_text, states


def street_of(address: str) -> str:
    """"402 King Street" of "402 King Street, Tucson, AZ 85701"."""
    return address.split(",")[0].strip()


@register_task
class CrossAppFoodAddressToSms(Task):
    """Text a contact a restaurant's address read in Food: one sent SMS to their number that
    names the restaurant's street address."""

    id = "CrossAppFoodAddressToSms"
    apps = ("food", "messages")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search")
    optimal_steps = 11
    may_change = ("sms",)
    params_schema = {"name": str, "number": str, "restaurant": str, "address": str}
    template = "Text {name} the address of {restaurant} from the Food app."
    constraints = ("address",)
    paraphrases = {
        "train": ("Look up where {restaurant} is in Food and send the address to {name} by "
                  "SMS.",),
        "test": ("{name} is meeting me at {restaurant}. Message them its street address; the "
                 "delivery app lists it.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, texters(probe, unread=False))
        r = choice(rng, probe.query("food/restaurants"))
        return {"name": str(c["display_name"]), "number": str(c["number"]),
                "restaurant": str(r["name"]), "address": str(r["address"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        others = [r["address"] for r in self.before("food/restaurants")
                  if r["name"] != p["restaurant"]]
        return self.expect(added("sms", {
            "address": same_phone(p["number"]), "type": SENT,
            "body": states((p["address"], street_of(p["address"])), others=others)}))

    def _run(self, device: Device, restaurant: str, alt: bool = False) -> Iterator[Action]:
        yield from (browse_to_restaurant if alt else open_restaurant)(device, restaurant)
        address = text_of(device, rid="restaurant_address")
        if not address:
            raise OracleError("the restaurant shows no address")
        yield from send_to(device, self.params["name"], f"{restaurant}: {address}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["restaurant"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the restaurant from the home feed's list instead of searching."""
        yield from self._run(device, self.params["restaurant"], alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends the address of another restaurant."""
        other = next(r["name"] for r in device.probe.query("food/restaurants")
                     if street_of(r["address"]) != street_of(self.params["address"]))
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppFoodEtaToCalendar(Task):
    """Put the delivery on its way into Calendar: one event "Food delivery" today from its
    estimated arrival, fifteen minutes long."""

    id = "CrossAppFoodEtaToCalendar"
    apps = ("food", "calendar")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "date-picker")
    split = "test"
    optimal_steps = 13
    may_change = ("calendar",)
    template = ('Add my food delivery to my calendar: an event "Food delivery" starting when '
                'the order is expected to arrive, 15 minutes long.')
    paraphrases = {
        "test": ('Block a quarter of an hour in Calendar, titled "Food delivery", beginning at '
                 'the arrival time the Food app gives for my order on its way.',),
    }

    def _eta(self) -> dt.datetime:
        return dt.datetime.fromisoformat(live_order(self.before("food/orders"))["eta"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        eta = self._eta()
        return self.expect(added("calendar", {
            "title": same_text("Food delivery"), "dtstart": epoch_ms(eta),
            "dtend": epoch_ms(eta + dt.timedelta(minutes=15))}))

    def _run(self, device: Device, shift: int, alt: bool = False) -> Iterator[Action]:
        yield from open_live_order(device, from_shade=alt)
        t = eta_shown(device, self.start_time()) + dt.timedelta(minutes=shift)
        yield from create_event(device, "Food delivery", t.date(), t.time(),
                                (t + dt.timedelta(minutes=15)).time())

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the order from its delivery notification in the shade, not Food's Home."""
        yield from self._run(device, 0, alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The event ten minutes before the arrival time."""
        yield from self._run(device, -10)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppFoodChatRequest(Task):
    """A friend asks in Chat for a dish: order exactly that (size, quantity one) from that
    restaurant to the owner's home with the default tip and card: one order and its line."""

    id = "CrossAppFoodChatRequest"
    apps = ("chat", "food")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "options", "checkout")
    optimal_steps = 14
    max_steps = 40
    may_change = ("food/orders", "food/order_items")
    params_schema = {"name": str, "restaurant": str, "dish": str, "dish_id": int, "size": str,
                     "extra": str, "qty": int}
    template = "{name} asked me in Chat to order some food. Order it on Food, to my home."
    constraints = (("my home", "my place"),)
    paraphrases = {
        "train": ("Check what {name} wants to eat (see our chat) and get it delivered to my "
                  "place with the Food app.",),
        "test": ("Do what {name} asked for in Chat: the dish they named, from that "
                 "restaurant, sent to my home address.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        line = pick_line(rng, probe, qty=(1, 1), with_extra=False)
        return {"name": str(c["title"]), **line}

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("chat", "receive", chat=p["name"], sender=p["name"], read=1,
                       minutes_ago=3,
                       body=f"Lunch at yours? Could you order me a {p['size'].lower()} "
                            f"{p['dish']} from {p['restaurant']} on Food? I'll pay you back!")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        rid = next(int(r["_id"]) for r in self.before("food/restaurants")
                   if r["name"] == p["restaurant"])
        return self.expect(
            added("food/orders", {"restaurant_id": rid, "address_label": "Home",
                                  "status": "Preparing"}),
            added("food/order_items", order_line(p["dish_id"], p["size"], "", 1)))

    def _run(self, device: Device, size: str | None, browse: bool = False) -> Iterator[Action]:
        """Order what the chat's newest message asks for (in ``size`` when given; ``browse``
        finds the dish on its restaurant's menu rather than by search)."""
        yield from open_chat(device, self.params["name"])
        _, asked, dish, restaurant = requested(last_text(device), " on Food?")
        yield from order_dish(device, dish, restaurant, size or asked, browse=browse)
        yield from checkout(device, address="Home")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, None)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Pick the dish off its restaurant's menu (from the home feed), not a search."""
        yield from self._run(device, None, browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right dish in another size."""
        sizes = [o["name"] for o in device.probe.query("food/options")
                 if o["dish_id"] == self.params["dish_id"] and o["kind"] == "size"]
        yield from self._run(device, next(s for s in sizes if s != self.params["size"]))
        yield Action("status", goal_status="complete")


@register_task
class CrossAppFoodShareEta(Task):
    """Tell a friend in Chat when the delivery on its way arrives (the order page's Share,
    or typed): one message from the owner in their chat naming the arrival time."""

    id = "CrossAppFoodShareEta"
    apps = ("food", "chat")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "share")
    optimal_steps = 7
    may_change = ("chat/messages",)
    params_schema = {"name": str, "chat_id": int}
    template = "Let {name} know in Chat what time my food delivery arrives."
    paraphrases = {
        "train": ("Send {name} a Chat message with the arrival time of my Food order.",
                  "Share my food order's ETA with {name} on Chat."),
        "test": ("{name} is coming over for the food I ordered; tell them over Chat when it "
                 "will be here.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        return {"name": str(c["title"]), "chat_id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        eta = str(live_order(self.before("food/orders"))["eta_text"])
        return self.expect(added("chat/messages", {
            "chat_id": self.params["chat_id"], "sender": "me",
            "body": states(eta, kind="time")}))

    def _run(self, device: Device, name: str, alt: bool = False) -> Iterator[Action]:
        from phoneworld_gym.oracle import scroll_to

        yield from open_live_order(device, from_shade=alt)
        yield tap(device, rid="share_order")
        yield tap(device, desc="Chat")
        yield from scroll_to(device, text=name, rid="target_chat_title")
        yield tap(device, text=name, rid="target_chat_title")
        yield tap(device, text="Send", rid="button2")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the order from its delivery notification in the shade, not Food's Home."""
        yield from self._run(device, self.params["name"], alt=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares the time with someone else."""
        other = next(c["title"] for c in chats(device.probe, kind="direct")
                     if c["_id"] != self.params["chat_id"])
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")
