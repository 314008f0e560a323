"""Bank tasks the bank refuses by design: sending more than the daily sending limit allows,
and paying someone who is neither a payee nor a contact. The right end is status
"infeasible" with nothing changed (the form shows why and records nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import LAST_NAMES
from phoneworld_gym.oracle import OracleError, find, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.bank.common import (
    CHECKING,
    by_id,
    contacts_to_pay,
    daily_left,
    dollars,
    fill_amount,
    send_form,
    send_money,
    to_home,
)
from phoneworld_gym.tasks.kit import choice, today


@register_task
class BankSendOverLimit(Task):
    """Send a contact more than the daily sending limit leaves for today: the bank refuses
    ("This exceeds your daily sending limit ...") and records nothing."""

    id = "BankSendOverLimit"
    apps = ("bank",)
    difficulty = "medium"
    tags = ("infeasible", "form")
    optimal_steps = 7
    feasible = False
    params_schema = {"name": str, "amount": str}
    template = "Send ${amount} to {name} from my checking account today."
    paraphrases = {
        "train": ("Pay {name} ${amount} today out of checking.",
                  "Use my bank app to transfer ${amount} to {name} right now."),
        "test": ("{name} needs ${amount} from me today. Send it from checking.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, contacts_to_pay(probe))
        over = daily_left(probe, today(probe)) + int(rng.integers(1, 30)) * 50
        return {"name": c["display_name"], "amount": dollars(over)}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from send_form(device, self.params["name"])
        yield from fill_amount(device, self.params["amount"])
        if find(device, rid="error_text") is None:
            raise OracleError("the bank accepted an amount over the daily limit")
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Start from the Pay tab's "Send money" instead of Home's quick action."""
        yield from send_form(device, self.params["name"], via_pay=True)
        yield from fill_amount(device, self.params["amount"])
        if find(device, rid="error_text") is None:
            raise OracleError("the bank accepted an amount over the daily limit")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends what the limit (or the balance) still allows and claims it is done."""
        have = float(by_id(device.probe.query("bank/accounts"))[CHECKING]["balance"])
        most = min(daily_left(device.probe, self.start_day()), have)
        yield from send_money(device, self.params["name"], dollars(most))
        yield Action("status", goal_status="complete")


@register_task
class BankSendUnknownPerson(Task):
    """Send money to someone who is neither a payee nor a contact: nobody matches the search,
    so there is no one to pay."""

    id = "BankSendUnknownPerson"
    apps = ("bank",)
    difficulty = "easy"
    tags = ("infeasible", "search")
    split = "test"
    optimal_steps = 4
    feasible = False
    params_schema = {"name": str, "amount": str, "near": str}
    template = "Send ${amount} to {name} with my bank app."
    paraphrases = {
        "test": ("Pay {name} back ${amount} through the bank.",
                 "Bank transfer: ${amount} to my contact {name}."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        known = {c["display_name"] for c in probe.contacts()} | \
            {p["name"] for p in probe.query("bank/payees")}
        firsts = {n.split()[0] for n in known}
        # a first name someone has (the easy mix-up) with a surname nobody has with it
        first = choice(rng, sorted(firsts))
        lasts = [x for x in LAST_NAMES if f"{first} {x}" not in known]
        name = f"{first} {choice(rng, lasts)}"
        near = sorted(n for n in known if n.split()[0] == first)[0]
        return {"name": name, "amount": dollars(int(rng.integers(10, 200))), "near": near}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from to_home(device)
        yield tap(device, desc="Send", rid="action_send")
        yield type_into(device, self.params["name"], rid="search_src_text")
        if text_of(device, rid="empty_text") is None:
            raise OracleError(f"someone matches {self.params['name']!r}")
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Pays the contact with the same first name instead and claims it is done."""
        yield from send_money(device, self.params["near"], self.params["amount"])
        yield Action("status", goal_status="complete")
