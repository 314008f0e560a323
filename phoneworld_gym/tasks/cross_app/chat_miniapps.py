"""Cross-app and long-horizon tasks around the Chat super-app and its mini-programs.

The agent carries information between apps: a contact's number goes from Contacts into a
chat; the coffee a friend asked for is ordered in Bean There and its number sent back; a
dinner plan from the Friends group goes into Calendar. The long-horizon ones chain three
apps: the plan also becomes a split deposit posted to the group with a confirmation, and a
coffee request becomes an order, a pickup alarm and a reply. Chat's tables are its own, so
these run in PhoneWorld only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.calendar.common import clock, create_event, day_words, epoch_ms
from phoneworld_gym.tasks.chat.common import (
    chats,
    last_text,
    open_chat,
    opened,
    send_text,
    share_to,
)
from phoneworld_gym.tasks.clock.common import add_alarm, time_text
from phoneworld_gym.tasks.kit import choice, today
from phoneworld_gym.tasks.miniapps.coffee import MILKS, SIZES, new_rows, order_drink
from phoneworld_gym.tasks.miniapps.splitbill import split
from phoneworld_gym.validators import ANY, added, one_of, same_text, states

RESTAURANTS: tuple[str, ...] = (
    "Blue Door Bistro", "Harbor Grill", "Sakura Sushi Bar", "Golden Dragon", "Casa Mariposa",
    "Olive & Thyme", "The Copper Pot", "Saffron House", "Little Lisbon", "Luigi's Trattoria",
)
FRIENDS = "Friends"


@register_task
class CrossAppCoffeeAsked(Task):
    """A friend asked in Chat for a coffee: order exactly that drink in Bean There and send
    them the order number (shared from the order or typed): one order with their options is
    added, and one message from the owner in their chat that contains its number."""

    id = "CrossAppCoffeeAsked"
    apps = ("chat", "coffee")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "payment", "share")
    optimal_steps = 16
    max_steps = 40
    may_change = ("coffee/orders", "chat/messages")
    params_schema = {"name": str, "chat_id": int, "drink": str, "size": str, "milk": str}
    template = "Order the coffee {name} asked me for in Chat and send them the order number."
    paraphrases = {
        "train": ("{name} wants a coffee (see our Chat). Get it from Bean There and tell them "
                  "the order number.",
                  "Check what drink {name} requested in Chat, order it in the coffee mini "
                  "program, and share the order with {name}."),
        "test": ("Do what {name} asked in our chat about coffee, then let them know which "
                 "order number to pick up.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        return {"name": c["title"], "chat_id": int(c["_id"]),
                "drink": str(choice(rng, probe.query("coffee/menu"))["name"]),
                "size": SIZES[int(rng.integers(3))], "milk": MILKS[int(rng.integers(4))]}

    def setup(self, device: Device) -> None:
        p = self.params
        milk = "no milk" if p["milk"] == "No milk" else p["milk"].lower()
        device.fixture("chat", "receive", chat=p["name"], sender=p["name"], read=1,
                       minutes_ago=3,
                       body=f"Could you order me a {p['size'].lower()} {p['drink']} with {milk} "
                            "from Bean There? I'll pay you back!")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        new = new_rows(self.before("coffee/orders"), device.probe.query("coffee/orders"))
        number = str(new[0]["number"]) if len(new) == 1 else "-"
        return self.expect(
            added("coffee/orders", {"drink": p["drink"], "size": p["size"], "milk": p["milk"]}),
            added("chat/messages", {"chat_id": p["chat_id"], "sender": "me",
                                    "type": one_of("text", "card"),  # typed or shared
                                    "body": states(number)}))

    def _run(self, device: Device, milk: str) -> Iterator[Action]:
        p = self.params
        yield from open_chat(device, p["name"])
        if p["drink"] not in last_text(device):
            raise RuntimeError("the request is not the newest message")
        yield from order_drink(device, p["drink"], p["size"], milk)
        yield from share_to(device, p["name"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["milk"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right drink with the wrong milk."""
        i = MILKS.index(self.params["milk"])
        yield from self._run(device, MILKS[(i + 1) % len(MILKS)])
        yield Action("status", goal_status="complete")


def _plan_params(rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
    group = next(c for c in probe.query("chat/chats") if c["title"] == FRIENDS)
    members = str(group["members"]).split(", ")
    d = today(probe) + dt.timedelta(days=int(rng.integers(2, 25)))
    t = dt.time(int(rng.integers(18, 21)), int(rng.choice([0, 30])))
    return {"chat_id": int(group["_id"]), "host": members[int(rng.integers(len(members)))],
            "place": RESTAURANTS[int(rng.integers(len(RESTAURANTS)))], "date": d.isoformat(),
            "time": clock(t), "deposit": f"{int(rng.integers(4, 13)) * 10}.00"}


def _post_plan(device: Device, p: dict[str, Any]) -> None:
    day = day_words(dt.date.fromisoformat(p["date"]))
    device.fixture("chat", "receive", chat=FRIENDS, sender=p["host"], read=1, minutes_ago=4,
                   body=f"Found a place! Dinner at {p['place']} on {day} at {p['time']}.")
    device.fixture("chat", "receive", chat=FRIENDS, sender=p["host"], read=1, minutes_ago=3,
                   body=f"I paid the ${p['deposit']} deposit for the table, let's split it.")


def _start(p: dict[str, Any]) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(p["date"]),
                               dt.datetime.strptime(p["time"], "%I:%M %p").time())


def _dinner_event(p: dict[str, Any], s: dt.datetime) -> dict[str, Any]:
    return {"title": same_text("Dinner with friends"), "dtstart": epoch_ms(s),
            "dtend": epoch_ms(s + dt.timedelta(hours=2)), "eventLocation": p["place"]}


@register_task
class CrossAppDinnerPlanToCalendar(Task):
    """The Friends group agreed on a dinner (place, day, time): add it to Calendar as
    "Dinner with friends", two hours, at the restaurant.

    Fewer goals: the goal names no detail on purpose; what varies with the seed (the place,
    day and time) is in the group chat the agent must read."""

    id = "CrossAppDinnerPlanToCalendar"
    apps = ("chat", "calendar")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker")
    split = "test"
    optimal_steps = 15
    max_steps = 40
    may_change = ("calendar", "chat/messages", "chat/chats")
    params_schema = {"chat_id": int, "host": str, "place": str, "date": str, "time": str,
                     "deposit": str}
    template = ('Put the dinner planned in my Friends group chat into my calendar as "Dinner '
                'with friends", two hours long, with the restaurant as the location.')
    paraphrases = {
        "test": ('My friends settled on a dinner in our Chat group. Block 2 hours in Calendar '
                 'for it, titled "Dinner with friends", located at the restaurant they chose.',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return _plan_params(rng, probe)

    def setup(self, device: Device) -> None:
        _post_plan(device, self.params)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("calendar", _dinner_event(p, _start(p))),
                           *opened(self.before("chat/messages"),  # type: ignore[arg-type]
                                   self.before("chat/chats"), p["chat_id"]))

    def _run(self, device: Device, shift: int) -> Iterator[Action]:
        p = self.params
        yield from open_chat(device, FRIENDS)
        s = _start(p) + dt.timedelta(days=shift)
        yield from create_event(device, "Dinner with friends", s.date(), s.time(),
                                (s + dt.timedelta(hours=2)).time(), location=p["place"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right dinner a day late."""
        yield from self._run(device, 1)
        yield Action("status", goal_status="complete")


@register_task
class LongHorizonDinnerPlan(Task):
    """Long-horizon, three apps (Chat, Calendar, Split): read the dinner plan and the deposit
    in the Friends group, add the dinner to Calendar, split the deposit with the group in
    Split and post the split into the group, then tell the group it is in the calendar.
    Exactly: one calendar event, one split, and two messages from the owner in the group
    (the split's card and the text)."""

    id = "LongHorizonDinnerPlan"
    apps = ("chat", "calendar", "splitbill")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "date-picker", "share", "multi-app")
    optimal_steps = 34
    max_steps = 80
    may_change = ("calendar", "splitbill/splits", "chat/messages", "chat/chats")
    params_schema = {"chat_id": int, "host": str, "place": str, "date": str, "time": str,
                     "deposit": str}
    template = ('Read the dinner plan in my Friends chat. Add it to my calendar as "Dinner with '
                'friends" (2 hours, at the restaurant), split the table deposit {host} paid '
                'with the Friends group in Split and share the split in the Friends chat, then '
                'write "Added to my calendar" there.')
    paraphrases = {
        "train": ('Handle the Friends dinner: calendar event "Dinner with friends" for two '
                  'hours at the restaurant from the chat, an even split of {host}\'s deposit '
                  'with the group (shared to the group chat), and a message "Added to my '
                  'calendar" in the group.',),
        "test": ('{host} organised dinner in the Friends group. Put it in Calendar ("Dinner '
                 'with friends", 2 h, restaurant as location), use Split to divide the deposit '
                 'among the Friends group and post it there, and reply "Added to my '
                 'calendar".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return _plan_params(rng, probe)

    def setup(self, device: Device) -> None:
        _post_plan(device, self.params)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(
            added("calendar", _dinner_event(p, _start(p))),
            added("splitbill/splits", {"total": float(p["deposit"]), "group": FRIENDS,
                                       "title": ANY}),  # the goal leaves the title open
            *opened(self.before("chat/messages"), self.before("chat/chats"),  # type: ignore[arg-type]
                    p["chat_id"], [
                        {"chat_id": p["chat_id"], "sender": "me", "type": "card",
                         "body": states(float(p["deposit"]), kind="money")},
                        {"chat_id": p["chat_id"], "sender": "me", "type": "text",
                         "body": same_text("Added to my calendar")}]))

    def _run(self, device: Device, deposit: str) -> Iterator[Action]:
        p = self.params
        yield from open_chat(device, FRIENDS)
        if p["deposit"] not in last_text(device):
            raise RuntimeError("the deposit message is not the newest")
        s = _start(p)
        yield from create_event(device, "Dinner with friends", s.date(), s.time(),
                                (s + dt.timedelta(hours=2)).time(), location=p["place"])
        yield from split(device, "Table deposit", deposit, FRIENDS)
        yield from share_to(device, FRIENDS)
        yield from open_chat(device, FRIENDS)
        yield from send_text(device, "Added to my calendar")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["deposit"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Everything right but the deposit split is ten dollars off."""
        wrong = f"{float(self.params['deposit']) + 10:.2f}"
        yield from self._run(device, wrong)
        yield Action("status", goal_status="complete")


@register_task
class LongHorizonCoffeeRun(Task):
    """Long-horizon, three apps (Chat, Bean There, Clock): a friend asks in Chat for a
    coffee by a time; order exactly that drink, share the order with them, set a "Coffee
    pickup" alarm fifteen minutes before their time, and reply "On my way". Exactly: one
    order, one alarm, and two messages from the owner in their chat (the order's card, which
    names its number, and the reply)."""

    id = "LongHorizonCoffeeRun"
    apps = ("chat", "coffee", "clock")
    category = "long-horizon"
    difficulty = "hard"
    tags = ("read-then-write", "payment", "share", "time-picker", "multi-app")
    optimal_steps = 31
    max_steps = 70
    may_change = ("coffee/orders", "chat/messages", "alarms")
    params_schema = {"name": str, "chat_id": int, "drink": str, "size": str, "milk": str,
                     "hour": int, "minute": int}
    template = ("{name} asked me for a coffee in Chat. Order exactly what they want in Bean "
                'There and share the order with them, set an alarm labeled "Coffee pickup" 15 '
                'minutes before the time they need it, then reply "On my way".')
    paraphrases = {
        "test": ("Handle {name}'s coffee request from our chat: buy that drink in the coffee "
                 'mini program, send them the order, add a "Coffee pickup" alarm a quarter of '
                 'an hour ahead of when they want it, and reply "On my way".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, kind="direct"))
        return {"name": c["title"], "chat_id": int(c["_id"]),
                "drink": str(choice(rng, probe.query("coffee/menu"))["name"]),
                "size": SIZES[int(rng.integers(3))], "milk": MILKS[int(rng.integers(4))],
                "hour": int(rng.integers(11, 17)), "minute": int(rng.choice([0, 15, 30, 45]))}

    def _when(self) -> tuple[int, int]:
        """The alarm's time: fifteen minutes before theirs."""
        total = self.params["hour"] * 60 + self.params["minute"] - 15
        return total // 60, total % 60

    def setup(self, device: Device) -> None:
        p = self.params
        milk = "no milk" if p["milk"] == "No milk" else p["milk"].lower()
        device.fixture("chat", "receive", chat=p["name"], sender=p["name"], read=1,
                       minutes_ago=2,
                       body=f"Could you bring me a {p['size'].lower()} {p['drink']} with {milk} "
                            f"from Bean There by {time_text(p['hour'], p['minute'])}?")

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        new = new_rows(self.before("coffee/orders"), device.probe.query("coffee/orders"))
        number = str(new[0]["number"]) if len(new) == 1 else "-"
        hour, minute = self._when()
        return self.expect(
            added("coffee/orders", {"drink": p["drink"], "size": p["size"], "milk": p["milk"]}),
            added("alarms", {"hour": hour, "minutes": minute, "enabled": 1,
                             "label": same_text("Coffee pickup")}),
            added("chat/messages",
                  {"chat_id": p["chat_id"], "sender": "me", "type": "card",
                   "body": states(number)},
                  {"chat_id": p["chat_id"], "sender": "me", "type": "text",
                   "body": same_text("On my way")}))

    def _run(self, device: Device, late: bool) -> Iterator[Action]:
        from phoneworld_gym.oracle import scroll_to, type_into

        p = self.params
        yield from open_chat(device, p["name"])
        if p["drink"] not in last_text(device):
            raise RuntimeError("the request is not the newest message")
        yield from order_drink(device, p["drink"], p["size"], p["milk"])
        yield from share_to(device, p["name"])
        hour, minute = self._when()
        if late:
            hour, minute = p["hour"], p["minute"]
        yield from add_alarm(device, hour, minute)
        yield from scroll_to(device, rid="edit_label")
        yield type_into(device, "Coffee pickup", rid="edit_label")
        yield from open_chat(device, p["name"])
        yield from send_text(device, "On my way")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The alarm at their time instead of fifteen minutes before."""
        yield from self._run(device, True)
        yield Action("status", goal_status="complete")


def _digits(text: str) -> str:
    return "".join(ch for ch in str(text) if ch.isdigit())


@register_task
class CrossAppNumberToChat(Task):
    """Look a contact's number up in Contacts and send it to someone in Chat: one text from
    the owner in that chat whose digits contain the number's last ten digits."""

    id = "CrossAppNumberToChat"
    apps = ("contacts", "chat")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search")
    optimal_steps = 8
    may_change = ("chat/messages",)
    params_schema = {"name": str, "number": str, "target": str, "chat_id": int}
    template = "Find {name}'s phone number in Contacts and send it to {target} in Chat."
    paraphrases = {
        "train": ("{target} needs {name}'s number. Look it up in my contacts and message it "
                  "to them on Chat.",),
        "test": ("Pass {name}'s phone number from my address book on to {target} over Chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        target = choice(rng, chats(probe, kind="direct"))
        c = choice(rng, [r for r in probe.contacts() if r["display_name"] and r["number"]
                         and r["display_name"] != target["title"]])
        return {"name": c["display_name"], "number": c["number"], "target": target["title"],
                "chat_id": int(target["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("chat/messages", {
            "chat_id": p["chat_id"], "sender": "me", "type": "text",
            "body": states(p["number"], kind="phone")}))

    def _run(self, device: Device, name: str, browse: bool = False) -> Iterator[Action]:
        from phoneworld_gym.oracle import text_of
        from phoneworld_gym.tasks.contacts.common import browse_to_contact, open_contact

        yield from (browse_to_contact if browse else open_contact)(device, name)
        number = text_of(device, rid="phone_title") or ""
        yield from open_chat(device, self.params["target"])
        yield from send_text(device, f"{name}: {number}")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._run(device, self.params["name"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends another contact's number."""
        other = next(r["display_name"] for r in device.probe.contacts()
                     if r["display_name"] and r["number"]
                     and r["display_name"] not in (self.params["name"], self.params["target"])
                     and _digits(r["number"])[-10:] != _digits(self.params["number"])[-10:])
        yield from self._run(device, other)
        yield Action("status", goal_status="complete")
