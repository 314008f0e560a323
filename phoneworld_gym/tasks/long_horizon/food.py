"""Long-horizon tasks around Food, three apps each, the information carried from one app to
the next: a lunch plan in the Friends group becomes an order for everyone, its arrival time an
event in Calendar and a message back to the group; a colleague's texted team-lunch request
becomes an order to the office, an alarm at its arrival and a reply with the time. Food's and
Chat's tables are their own, so these run in PhoneWorld only."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, scroll_to, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import create_event, epoch_ms
from phoneworld_gym.tasks.chat.common import last_text, open_chat, opened, send_text
from phoneworld_gym.tasks.clock.common import add_alarm
from phoneworld_gym.tasks.food.common import (
    COUNT_WORDS,
    checkout,
    eta_shown,
    new_rows,
    order_dish,
    order_line,
    pick_line,
    requested,
)
from phoneworld_gym.tasks.kit import now_ms
from phoneworld_gym.tasks.messages.common import (
    INBOX,
    SENT,
    last_received,
    open_thread,
    texters,
    type_and_send,
)
from phoneworld_gym.validators import added, same_phone, same_text, states

FRIENDS = "Friends"
#: how many minutes before the episode's start a colleague's request arrives
ASKED_AGO = 6
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _new_order(task: Task, device: Device) -> Row | None:
    """The one order the agent placed (None unless exactly one)."""
    new = new_rows(task.before("food/orders"), device.probe.query("food/orders"))
    return new[0] if len(new) == 1 else None


@register_task
class LongHorizonFoodGroupLunch(Task):
    """Long-horizon, three apps (Chat, Food, Calendar): a friend in the Friends group asks
    the owner to order a dish for everyone coming to lunch at the owner's home (the message
    says how many); order that many to Home, put "Lunch delivery" in Calendar from the
    order's arrival time for 30 minutes, and tell the group when it arrives. Exactly: one
    order with that one line, one calendar event, one message from the owner in the group
    naming the arrival time.

    Fewer goals: the canonical goal names no detail on purpose; what varies with the seed
    (who asks, how many come, the dish and restaurant) is in the group chat the agent must
    read."""

    id = "LongHorizonFoodGroupLunch"
    apps = ("chat", "food", "calendar")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "options", "checkout", "date-picker", "multi-app")
    optimal_steps = 32
    max_steps = 70
    may_change = ("food/orders", "food/order_items", "calendar", "chat/messages",
                  "chat/chats")
    params_schema = {"chat_id": int, "host": str, "people": int, "restaurant": str,
                     "dish": str, "dish_id": int, "size": str, "extra": str, "qty": int}
    template = ("Read the lunch plan in my Friends chat and order the food it asks for on "
                'Food, to my home. Then add "Lunch delivery" to my calendar from the order\'s '
                "arrival time, 30 minutes long, and tell the group what time the food arrives.")
    constraints = (("my home", "my place"),)
    paraphrases = {
        "train": ("A friend set up lunch in the Friends group. Order what they asked for (one "
                  'each) to my home with Food, put a 30-minute "Lunch delivery" event in '
                  "Calendar at the delivery's arrival time, and let the group know the time.",),
        "test": ("Handle the Friends lunch: get the dish from the group chat for everyone "
                 'delivered to my place, block "Lunch delivery" in my calendar for half an '
                 "hour from when it's due, and post the arrival time in the chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        group = next(c for c in probe.query("chat/chats") if c["title"] == FRIENDS)
        members = str(group["members"]).split(", ")
        people = int(rng.integers(3, len(members) + 2))  # the owner and some friends
        line = pick_line(rng, probe, qty=(1, 1), with_extra=False)
        return {"chat_id": int(group["_id"]), "host": members[int(rng.integers(len(members)))],
                "people": people, **line, "qty": people}

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("chat", "receive", chat=FRIENDS, sender=p["host"], read=1,
                       minutes_ago=6, body="Lunch at yours today? We'd love to come over!")
        device.fixture("chat", "receive", chat=FRIENDS, sender=p["host"], read=1,
                       minutes_ago=4,
                       body=f"We'll be {WORDS[p['people']]} of us, you included. Could you "
                            f"order one {p['size'].lower()} {p['dish']} each from "
                            f"{p['restaurant']} on Food?")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        new = _new_order(self, device)
        eta = dt.datetime.fromisoformat(new["eta"]) if new else dt.datetime(1970, 1, 2)
        rid = next(int(r["_id"]) for r in self.before("food/restaurants")
                   if r["name"] == p["restaurant"])
        return self.expect(
            added("food/orders", {"restaurant_id": rid, "address_label": "Home",
                                  "status": "Preparing"}),
            added("food/order_items", order_line(p["dish_id"], p["size"], "", p["people"])),
            added("calendar", {"title": same_text("Lunch delivery"), "dtstart": epoch_ms(eta),
                               "dtend": epoch_ms(eta + dt.timedelta(minutes=30))}),
            *opened(self.before("chat/messages"), self.before("chat/chats"),  # type: ignore[arg-type]
                    p["chat_id"], [{"chat_id": p["chat_id"], "sender": "me", "type": "text",
                                    "body": states(new["eta_text"] if new else "00:00",
                                                   kind="time")}]))

    def _run(self, device: Device, fewer: int, browse: bool = False) -> Iterator[Action]:
        """The whole errand, the dish and head count read off the group chat (``fewer``
        dishes than people; ``browse`` picks the dish off its restaurant's menu)."""
        yield from open_chat(device, FRIENDS)
        text = last_text(device)
        m = re.search(r"We'll be (\w+) of us", text)
        if m is None or m.group(1) not in COUNT_WORDS:
            raise OracleError("the lunch request is not the newest message")
        each, size, dish, restaurant = requested(text, " on Food?")
        qty = each * COUNT_WORDS[m.group(1)] - fewer
        yield from order_dish(device, dish, restaurant, size, (), qty, browse)
        yield from checkout(device, address="Home")
        eta = eta_shown(device, self.start_time())
        yield from create_event(device, "Lunch delivery", eta.date(), eta.time(),
                                (eta + dt.timedelta(minutes=30)).time())
        yield from open_chat(device, FRIENDS)
        shown = f"{eta.hour % 12 or 12}:{eta.minute:02d} {'PM' if eta.hour >= 12 else 'AM'}"
        yield from send_text(device, f"Ordered! The food arrives at {shown}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Pick the dish off its restaurant's menu (from the home feed), not a search."""
        yield from self._run(device, 0, browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Orders one too few: the friends only, forgetting the owner."""
        yield from self._run(device, 1)
        yield Action("status", goal_status="complete")


@register_task
class LongHorizonFoodTeamLunch(Task):
    """Long-horizon, three apps (Messages, Food, Clock): a colleague texts a team-lunch
    request (how many of a dish from which restaurant, to the office); order it to Work, set
    an alarm labeled "Lunch is here" at its arrival time, and text the colleague back with
    that time. Exactly: one order with that one line, one alarm, one sent text naming the
    arrival time."""

    id = "LongHorizonFoodTeamLunch"
    apps = ("messages", "food", "clock")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "options", "checkout", "time-picker", "multi-app")
    split = "test"
    optimal_steps = 28
    max_steps = 64
    may_change = ("food/orders", "food/order_items", "alarms", "sms")
    params_schema = {"name": str, "number": str, "restaurant": str, "dish": str,
                     "dish_id": int, "size": str, "extra": str, "qty": int}
    template = ("{name} texted me about a team lunch. Order it on Food to my work address, set "
                'an alarm labeled "Lunch is here" for when the order arrives, and text {name} '
                "back with the arrival time.")
    constraints = (("work address", "office"),)
    paraphrases = {
        "test": ("Sort out the team lunch {name} asked for by SMS: place the order in the "
                 'Food app for delivery to the office, add a "Lunch is here" alarm at the '
                 "delivery time, then reply to {name} saying when it gets there.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = texters(probe, unread=False)
        who = c[int(rng.integers(len(c)))]
        line = pick_line(rng, probe, qty=(2, 4), with_extra=False)
        return {"name": str(who["display_name"]), "number": str(who["number"]), **line}

    def setup(self, device: Device) -> None:
        p = self.params
        device.insert("sms", {"address": p["number"], "type": INBOX, "read": 1,
                              "date": now_ms(device.probe, ASKED_AGO),
                              "body": f"Team lunch today! Can you order {WORDS[p['qty']]} "
                                      f"{p['size'].lower()} {p['dish']} from {p['restaurant']} "
                                      "to the office?"})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        new = _new_order(self, device)
        eta = dt.datetime.fromisoformat(new["eta"]) if new else dt.datetime(1970, 1, 2)
        rid = next(int(r["_id"]) for r in self.before("food/restaurants")
                   if r["name"] == p["restaurant"])
        return self.expect(
            added("food/orders", {"restaurant_id": rid, "address_label": "Work",
                                  "status": "Preparing"}),
            added("food/order_items", order_line(p["dish_id"], p["size"], "", p["qty"])),
            added("alarms", {"hour": eta.hour, "minutes": eta.minute, "enabled": 1,
                             "label": same_text("Lunch is here")}),
            added("sms", {"address": same_phone(p["number"]), "type": SENT,
                          "body": states(new["eta_text"] if new else "00:00", kind="time")}))

    def _run(self, device: Device, address: str, browse: bool = False) -> Iterator[Action]:
        p = self.params
        yield from open_thread(device, p["name"])
        qty, size, dish, restaurant = requested(last_received(device), " to the office?")
        yield from order_dish(device, dish, restaurant, size, (), qty, browse)
        yield from checkout(device, address=address)
        eta = eta_shown(device, self.start_time())
        yield from add_alarm(device, eta.hour, eta.minute)
        yield from scroll_to(device, rid="edit_label")
        yield type_into(device, "Lunch is here", rid="edit_label")
        yield from open_thread(device, p["name"])
        shown = f"{eta.hour % 12 or 12}:{eta.minute:02d} {'PM' if eta.hour >= 12 else 'AM'}"
        yield from type_and_send(device, f"Done, lunch arrives at {shown}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, "Work")
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Pick the dish off its restaurant's menu (from the home feed), not a search."""
        yield from self._run(device, "Work", browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the order goes to the owner's home."""
        yield from self._run(device, "Home")
        yield Action("status", goal_status="complete")
