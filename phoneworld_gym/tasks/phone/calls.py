"""Phone tasks that place calls or change the call log and the blocked numbers: call a
contact, dial a number, return a missed call, block a caller, delete a call history."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.life import random_phone
from phoneworld_gym.oracle import OracleError, find, tap, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.contacts.common import other_person
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.phone.common import (
    BLOCKED,
    MISSED,
    OUTGOING,
    call_contact,
    call_from_contacts,
    calls_with,
    dial,
    key,
    named,
    open_contact,
    to_main,
)
from phoneworld_gym.validators import added, removed, same_phone


@register_task
class PhoneCallContact(Task):
    """Call a contact: exactly one outgoing call (type 2) to their number is logged."""

    id = "PhoneCallContact"
    apps = ("phone",)
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 7
    may_change = ("call_log",)
    params_schema = {"name": str, "number": str}
    template = "Call {name}."
    paraphrases = {
        "train": ("Give {name} a call.", "Phone {name} for me."),
        "test": ("I need to speak to {name} right now; place a call to them.",
                 "Ring {name} on their mobile."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, named(probe))
        return {"name": c["display_name"], "number": c["number"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("call_log", {"number": same_phone(self.params["number"]),
                                              "type": OUTGOING}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from call_contact(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Call from the person's Call button in the Contacts app."""
        yield from call_from_contacts(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Calls someone else (the same first name when there is one)."""
        wrong = other_person(named(device.probe), self.params["name"])
        yield from call_contact(device, wrong["display_name"])
        yield Action("status", goal_status="complete")


@register_task
class PhoneDialNumber(Task):
    """Call a number nobody in the contacts has, typed on the keypad: one outgoing call to
    it is logged."""

    id = "PhoneDialNumber"
    apps = ("phone",)
    difficulty = "easy"
    tags = ("keypad",)
    optimal_steps = 6
    may_change = ("call_log",)
    params_schema = {"number": str}
    template = "Call {number}."
    paraphrases = {
        "train": ("Dial {number} and make the call.", "Place a call to {number}."),
        "test": ("There's a number I have to ring, {number}; it isn't saved anywhere.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {key(c["number"]) for c in probe.contacts()} | \
            {key(r["number"]) for r in probe.query("call_log")}
        while True:
            number = random_phone(rng)
            if key(number) not in taken:
                return {"number": number}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("call_log", {"number": same_phone(self.params["number"]),
                                              "type": OUTGOING}))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from dial(device, self.params["number"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """One digit off."""
        n = self.params["number"]
        yield from dial(device, n[:-1] + ("0" if n[-1] == "9" else str(int(n[-1]) + 1)))
        yield Action("status", goal_status="complete")


@register_task
class PhoneReturnMissedCall(Task):
    """Call back a contact whose call was missed: one outgoing call to their number is
    logged (the missed call stays in the log)."""

    id = "PhoneReturnMissedCall"
    apps = ("phone",)
    difficulty = "medium"
    tags = ("search",)
    optimal_steps = 5
    may_change = ("call_log",)
    params_schema = {"name": str, "number": str}
    template = "Return {name}'s missed call."
    paraphrases = {
        "train": ("I missed a call from {name}. Call them back.",
                  "Call {name} back, I didn't pick up earlier."),
        "test": ("{name} tried to reach me and I didn't pick up; get them on the line.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        log = probe.query("call_log")
        missed = {key(r["number"]) for r in log if r["type"] == MISSED}
        c = choice(rng, [c for c in named(probe) if key(c["number"]) in missed])
        return {"name": c["display_name"], "number": c["number"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("call_log", {"number": same_phone(self.params["number"]),
                                              "type": OUTGOING}))

    def _call_back(self, device: Device, name: str) -> Iterator[Action]:
        """Recents filtered by the name, then the call button of their newest call."""
        yield from to_main(device)
        yield type_into(device, name, rid="search_box")
        yield tap(device, desc=f"Call {name}")
        yield tap(device, desc="End call")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._call_back(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Call back from the person's Call button in the Contacts app, not Recents."""
        yield from call_from_contacts(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Calls back another caller from the log."""
        log = device.probe.query("call_log")
        in_log = {key(r["number"]) for r in log}
        pool = [c for c in named(device.probe) if key(c["number"]) in in_log]
        yield from self._call_back(device, other_person(pool, self.params["name"])["display_name"])
        yield Action("status", goal_status="complete")


@register_task
class PhoneBlockCaller(Task):
    """Block a stranger's number that called: it is added to the blocked numbers (the
    ``phone/blocked`` table, PhoneWorld-only); the call log is unchanged."""

    id = "PhoneBlockCaller"
    apps = ("phone",)
    difficulty = "medium"
    split = "test"
    tags = ("long-press",)
    optimal_steps = 5
    may_change = ("phone/blocked",)
    params_schema = {"number": str}
    template = "Block {number}."
    paraphrases = {
        "train": ("Stop calls from {number}: block that number.",
                  "Put {number} on my blocked list."),
        "test": ("{number} keeps ringing me with spam. Make sure it can't get through "
                 "anymore.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        known = {key(c["number"]) for c in probe.contacts()}
        blocked = {key(r["number"]) for r in probe.query("phone/blocked")}
        strangers = sorted({r["number"] for r in probe.query("call_log")
                            if key(r["number"]) not in known | blocked})
        if not strangers:
            raise NoInstance("no unknown caller to block")
        return {"number": strangers[int(rng.integers(len(strangers)))]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("phone/blocked",
                                 {"number": same_phone(self.params["number"])}))

    def _block(self, device: Device, number: str) -> Iterator[Action]:
        yield from to_main(device)
        yield type_into(device, key(number), rid="search_box")
        i = find(device, rid="call_log_row")
        if i is None:
            raise OracleError(f"no call from {number} in Recents")
        yield Action("long_press", index=i)
        yield tap(device, text="Block number")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._block(device, self.params["number"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Type the number into the Blocked numbers list (the overflow menu), not a
        long press on the call in Recents."""
        yield from to_main(device)
        yield tap(device, desc="More options", rid="overflow")
        yield tap(device, text="Blocked numbers")
        yield tap(device, text="Add a number", rid="add_blocked_number_title")
        yield type_into(device, self.params["number"], rid="blocked_number_field")
        yield tap(device, text="Block", cls="Button")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Blocks another stranger's number (or a contact's when there is none)."""
        known = {key(c["number"]) for c in device.probe.contacts()}
        blocked = {key(r["number"]) for r in device.probe.query("phone/blocked")}
        rows = device.probe.query("call_log")
        pool = [r["number"] for r in rows if key(r["number"]) not in blocked
                and key(r["number"]) != key(self.params["number"])]
        strangers = [n for n in pool if key(n) not in known]
        yield from self._block(device, (strangers or pool)[0])
        yield Action("status", goal_status="complete")


@register_task
class PhoneDeleteHistory(Task):
    """Delete every call with one contact from the call log: exactly their rows go."""

    id = "PhoneDeleteHistory"
    apps = ("phone",)
    difficulty = "medium"
    tags = ("dialog",)
    optimal_steps = 7
    split = "test"
    may_change = ("call_log",)
    params_schema = {"name": str, "number": str}
    template = "Delete my call history with {name}."
    paraphrases = {
        "test": ("Clear every call with {name} from my recent calls.",
                 "I don't want {name} to show up in my call log anymore; remove all those "
                 "calls.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        log = probe.query("call_log")
        c = choice(rng, [c for c in named(probe) if calls_with(log, c["number"])])
        return {"name": c["display_name"], "number": c["number"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        ids = [r["_id"] for r in calls_with(self.before("call_log"), self.params["number"])]
        return self.expect(removed("call_log", *ids))

    def _delete(self, device: Device, name: str) -> Iterator[Action]:
        yield from open_contact(device, name)
        yield tap(device, desc="Delete call history")
        yield tap(device, text="Delete", cls="Button")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._delete(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the history with someone else who has calls in the log."""
        log = device.probe.query("call_log")
        pool = [c for c in named(device.probe) if calls_with(log, c["number"])]
        yield from self._delete(device, other_person(pool, self.params["name"])["display_name"])
        yield Action("status", goal_status="complete")


@register_task
class PhonePlayRecording(Task):
    """Infeasible by design: the dialer records no calls, so there is no recording of the
    last call with a contact to play; the right move is to look and say so."""

    id = "PhonePlayRecording"
    apps = ("phone",)
    difficulty = "medium"
    tags = ("infeasible",)
    optimal_steps = 5
    feasible = False
    params_schema = {"name": str}
    template = "Play the recording of my last call with {name}."
    paraphrases = {
        "train": ("Open the call recording from my most recent call with {name}.",),
        "test": ("I recorded my last phone call with {name}; play it back for me.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        log = probe.query("call_log")
        talked = [c for c in named(probe)
                  if any(r["type"] != MISSED and r["type"] != BLOCKED
                         for r in calls_with(log, c["number"]))]
        return {"name": choice(rng, talked)["display_name"]}

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from open_contact(device, self.params["name"])
        yield Action("status", goal_status="infeasible")


@register_task
class PhoneBlockAndClear(Task):
    """Block a stranger who called and clear every call with them from the log: the number
    is added to ``phone/blocked`` and exactly its ``call_log`` rows are removed."""

    id = "PhoneBlockAndClear"
    apps = ("phone",)
    difficulty = "hard"
    tags = ("search", "dialog")
    optimal_steps = 7
    may_change = ("call_log", "phone/blocked")
    params_schema = {"number": str}
    template = "Block {number} and remove all of its calls from my call log."
    paraphrases = {
        "train": ("I never want to hear from {number} again: block it and wipe its calls "
                  "from Recents.",
                  "Delete every call with {number} from my history, and block that number."),
        "test": ("Get {number} out of my call history completely and make sure it can't "
                 "call me again.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return PhoneBlockCaller.generate_params(rng, probe)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        ids = [r["_id"] for r in calls_with(self.before("call_log"), self.params["number"])]
        return self.expect(removed("call_log", *ids),
                           added("phone/blocked", {"number": same_phone(self.params["number"])}))

    def _block_and_clear(self, device: Device, number: str, clear: bool) -> Iterator[Action]:
        yield from to_main(device)
        yield type_into(device, key(number), rid="search_box")
        i = find(device, rid="call_log_row")
        if i is None:
            raise OracleError(f"no call from {number} in Recents")
        yield Action("click", index=i)
        yield tap(device, rid="block_action")
        if clear:
            yield tap(device, desc="Delete call history")
            yield tap(device, text="Delete", cls="Button")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._block_and_clear(device, self.params["number"], True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Blocks the number but leaves its calls in the log."""
        yield from self._block_and_clear(device, self.params["number"], False)
        yield Action("status", goal_status="complete")
