"""Bean There (coffee mini-program in Chat) tasks: order a drink, order and share the order
number into a chat, read the last order's number (information retrieval), a syrup on a
drink that takes none (infeasible) and its feasible twin, a syrup on a drink that takes one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import Expected, StringMatch
from phoneworld_gym.oracle import scroll_to, tap, text_of
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.chat.common import ShareResultTask, chats, open_mini, share_to
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import added, expect

SIZES = ("Small", "Medium", "Large")
MILKS = ("Whole milk", "Oat milk", "Almond milk", "No milk")
LABEL = "Bean There"


def order_drink(device: Device, drink: str, size: str, milk: str,
                syrup: str = "No syrup") -> Iterator[Action]:
    """From anywhere: Bean There, the drink, its size, milk and syrup, checkout and pay."""
    yield from open_mini(device, LABEL)
    yield from scroll_to(device, text=drink, rid="drink_title")
    yield tap(device, text=drink, rid="drink_title")
    if size != "Medium":
        yield tap(device, desc=size, rid="size_option")
    if milk != "Whole milk":
        yield tap(device, desc=milk, rid="milk_option")
    if syrup != "No syrup":
        yield tap(device, desc=syrup, rid="syrup_option")
    yield tap(device, text="Checkout")
    yield tap(device, rid="pay")
    yield tap(device, text="Pay", rid="button2")


def new_rows(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = {r["_id"] for r in before}
    return [r for r in after if r["_id"] not in ids]


@register_task
class CoffeeOrder(Task):
    """Order a drink in a size with a milk: exactly one order with those options is added
    (status Preparing)."""

    id = "CoffeeOrder"
    apps = ("chat", "coffee")
    category = "mini-app"
    difficulty = "medium"
    tags = ("form", "payment")
    optimal_steps = 10
    may_change = ("coffee/orders",)
    params_schema = {"drink": str, "size": str, "milk": str}
    template = "Use the Bean There mini program in Chat to order a {size} {drink} with {milk}."
    paraphrases = {
        "train": ("Order me a {size} {drink} ({milk}) from Bean There inside Chat.",
                  "Get a {drink}, size {size}, made with {milk}, through Chat's Bean There "
                  "mini program."),
        "test": ("I'd like a {drink} — {size}, {milk}. Order it from the coffee mini program "
                 "in Chat and pay.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        menu = probe.query("coffee/menu")
        return {"drink": str(choice(rng, menu)["name"]),
                "size": SIZES[int(rng.integers(3))], "milk": MILKS[int(rng.integers(4))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("coffee/orders", {"drink": p["drink"], "size": p["size"],
                                                   "milk": p["milk"],
                                                   "status": "Preparing"}))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from order_drink(device, p["drink"], p["size"], p["milk"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right drink in the next size up (or down from Large)."""
        p = self.params
        i = SIZES.index(p["size"])
        yield from order_drink(device, p["drink"], SIZES[i + 1 if i < 2 else 1], p["milk"])
        yield Action("status", goal_status="complete")


@register_task
class CoffeeOrderShare(ShareResultTask):
    """Order a drink and share the order into a chat: one order is added, and one
    mini-program card from the owner in that chat that names the new order's number."""

    id = "CoffeeOrderShare"
    apps = ("chat", "coffee")
    category = "mini-app"
    difficulty = "hard"
    tags = ("form", "payment", "share")
    optimal_steps = 12
    may_change = ("coffee/orders", "chat/messages")
    params_schema = {"drink": str, "size": str, "chat": str, "chat_id": int}
    template = ("Order a {size} {drink} with whole milk in Bean There (in Chat), then share "
                "the order to my chat with {chat}.")
    constraints = ("whole milk",)
    paraphrases = {
        "train": ("Buy a {size} {drink} (whole milk) from the Bean There mini program and "
                  "send the order to {chat} with Share to chat.",),
        "test": ("Grab me a {size} {drink} with regular whole milk via Chat's coffee mini "
                 "program, and let {chat} see the order by sharing it to our chat.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, chats(probe, unread=None))
        return {"drink": str(choice(rng, probe.query("coffee/menu"))["name"]),
                "size": SIZES[int(rng.integers(3))], "chat": c["title"],
                "chat_id": int(c["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        new = new_rows(self.before("coffee/orders"), device.probe.query("coffee/orders"))
        number = new[0]["number"] if len(new) == 1 else "\x00"
        return self.expect(
            added("coffee/orders", {"drink": p["drink"], "size": p["size"],
                                    "milk": "Whole milk"}),
            expect("chat/messages", added=[{
                "chat_id": p["chat_id"], "sender": "me", "type": "card",
                "body": lambda v: number in str(v) and p["drink"] in str(v)}]))

    def _run(self, device: Device, chat: str) -> Iterator[Action]:
        p = self.params
        yield from order_drink(device, p["drink"], p["size"], "Whole milk")
        yield from share_to(device, chat)


@register_task
class CoffeeLastOrderNumber(Task):
    """Read the number of the newest past order (My orders lists them newest first).

    Fewer goals: the template has no params; the number varies with the seed."""

    id = "CoffeeLastOrderNumber"
    apps = ("chat", "coffee")
    category = "information-retrieval"
    difficulty = "easy"
    optimal_steps = 5
    answer_matcher = StringMatch(contains=True)
    template = "What was the order number of my last Bean There coffee order?"
    paraphrases = {
        "test": ("Look up my most recent order in Chat's Bean There mini program: what number "
                 "did it have?",),
    }

    def expected_answer(self, device: Device) -> Any:
        rows = sorted(self.before("coffee/orders"), key=lambda r: r["_id"])
        return Expected(rows[-1]["number"], candidates=[r["number"] for r in rows])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield tap(device, desc="My orders")
        title = text_of(device, rid="past_order_title") or ""
        yield Action("answer", text=title.split(" · ")[0])

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Answers the order before it (or a number one higher when there is only one)."""
        rows = sorted(self.before("coffee/orders"), key=lambda r: r["_id"])
        if len(rows) > 1:
            wrong = rows[-2]["number"]
        else:
            wrong = f"A-{int(rows[-1]['number'].split('-')[1]) + 1}"
        yield Action("answer", text=wrong)


@register_task
class CoffeeSyrupInfeasible(Task):
    """Infeasible by design: the drink is one of those Bean There offers no syrup on (its
    page has size and milk only), so it cannot be ordered with one; the right move is to
    look and say so. :class:`CoffeeSyrup` is its feasible twin."""

    id = "CoffeeSyrupInfeasible"
    apps = ("chat", "coffee")
    category = "mini-app"
    difficulty = "medium"
    tags: ClassVar[tuple[str, ...]] = ("infeasible",)
    feasible = False
    optimal_steps = 5
    params_schema = {"drink": str, "syrup": str}
    template = "Order a {drink} with a shot of {syrup} syrup from Bean There in Chat."
    paraphrases = {
        "train": ("In Chat's Bean There, get me a {drink} with {syrup} syrup added.",),
        "test": ("Could you order a {syrup}-syrup {drink} from the coffee mini program?",),
    }

    #: whether the drink asked for takes a syrup (the twin's)
    takes_syrup = False

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        menu = [d for d in probe.query("coffee/menu") if bool(d["syrups"]) == cls.takes_syrup]
        return {"drink": str(choice(rng, menu)["name"]),
                "syrup": ("caramel", "vanilla", "hazelnut")[int(rng.integers(3))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect()

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield from scroll_to(device, text=self.params["drink"], rid="drink_title")
        yield tap(device, text=self.params["drink"], rid="drink_title")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Orders the plain drink and claims success."""
        yield from order_drink(device, self.params["drink"], "Medium", "Whole milk")
        yield Action("status", goal_status="complete")


@register_task
class CoffeeSyrup(CoffeeSyrupInfeasible):
    """The feasible twin of :class:`CoffeeSyrupInfeasible`: its very wordings, for a drink
    that takes a syrup, so exactly one order of it with that syrup (Medium, whole milk) is
    added. Without a twin "syrup" was a word no feasible goal used, and ``status
    infeasible`` on sight of it won the infeasible task blind; which one it is shows only in
    the app (whether the drink's page has syrups)."""

    id = "CoffeeSyrup"
    tags = ("form", "payment")
    feasible = True
    takes_syrup = True
    optimal_steps = 9
    may_change = ("coffee/orders",)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("coffee/orders", {"drink": p["drink"],
                                                   "syrup": p["syrup"].title(),
                                                   "status": "Preparing"}))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from order_drink(device, p["drink"], "Medium", "Whole milk", p["syrup"].title())
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Another of the three syrups."""
        p = self.params
        syrups = ["Caramel", "Vanilla", "Hazelnut"]
        other = syrups[(syrups.index(p["syrup"].title()) + 1) % 3]
        yield from order_drink(device, p["drink"], "Medium", "Whole milk", other)
        yield Action("status", goal_status="complete")


@register_task
class CoffeeReorder(Task):
    """Order the newest past order again: one order with its drink, size and milk is added.
    The agent finds them in My orders.

    Fewer goals: the template has no params; the drink varies with the seed."""

    id = "CoffeeReorder"
    apps = ("chat", "coffee")
    category = "mini-app"
    difficulty = "medium"
    tags = ("read-then-write", "payment")
    optimal_steps = 14
    may_change = ("coffee/orders",)
    template = "Reorder my last Bean There drink in Chat, same size and milk."
    paraphrases = {
        "train": ("Get me the same coffee as my last Bean There order (size and milk too).",),
        "test": ("I want exactly what I had last time from the coffee mini program. Order "
                 "it again.",),
    }

    def _last(self) -> dict[str, Any]:
        return sorted(self.before("coffee/orders"), key=lambda r: r["_id"])[-1]

    def evaluate(self, device: Device, report: AgentReport) -> float:
        last = self._last()
        return self.expect(added("coffee/orders", {"drink": last["drink"], "size": last["size"],
                                                   "milk": last["milk"],
                                                   "status": "Preparing"}))

    def _run(self, device: Device, bigger: bool) -> Iterator[Action]:
        yield from open_mini(device, LABEL)
        yield tap(device, desc="My orders")
        yield tap(device, rid="past_order_title")
        size, _, drink = (text_of(device, rid="order_drink") or "").partition(" ")
        milk = text_of(device, rid="order_milk") or ""
        if bigger:
            size = SIZES[(SIZES.index(size) + 1) % 3]
        yield Action("navigate_back")
        yield Action("navigate_back")
        yield from order_drink_here(device, drink, size, milk)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._run(device, False)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The same drink in another size."""
        yield from self._run(device, True)
        yield Action("status", goal_status="complete")


def order_drink_here(device: Device, drink: str, size: str, milk: str) -> Iterator[Action]:
    """On Bean There's menu: the drink, its size and milk, checkout and pay."""
    yield from scroll_to(device, text=drink, rid="drink_title")
    yield tap(device, text=drink, rid="drink_title")
    if size != "Medium":
        yield tap(device, desc=size, rid="size_option")
    if milk != "Whole milk":
        yield tap(device, desc=milk, rid="milk_option")
    yield tap(device, text="Checkout")
    yield tap(device, rid="pay")
    yield tap(device, text="Pay", rid="button2")
