"""Cross-app tasks that carry information between Files, Email, Contacts and Shopping.

A download goes out as an attachment through the share sheet (Files -> Email, the recipient's
address from Contacts); an attachment comes in and is saved into shared storage (Email ->
Files); the receipt email of the latest Shopping order is forwarded (Shopping -> Email).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import tap, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.email.common import (
    MAIL,
    newest,
    open_result,
    search,
)
from phoneworld_gym.tasks.files.common import (
    DOWNLOAD,
    FILES,
    content,
    item_menu,
    new_file,
    open_folder,
    sha,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import expect, same_text


def _people(probe: Probe) -> list[Row]:
    return sorted((c for c in probe.contacts() if c["email"] and c["display_name"]),
                  key=lambda c: c["display_name"])


def _only(email: str) -> Any:
    """A recipient list that is exactly ``email``."""
    return lambda v: [a.strip().lower() for a in str(v).split(",") if a.strip()] == [
        email.lower()]


@register_task
class EmailShareDownload(Task):
    """Email a download to a contact: share it from Files into Email (or attach it in Email).
    Done when one message went to exactly that address carrying exactly that file (same name
    and bytes); the file stays where it was."""

    id = "EmailShareDownload"
    apps = ("files", "email", "contacts")
    category = "cross-app"
    difficulty = "hard"
    tags = ("share",)
    optimal_steps = 9
    may_change = (MAIL,)
    params_schema = {"file": str, "name": str, "email": str}
    template = "Email the file {file} from my Downloads to {name}."
    paraphrases = {
        "train": ("Send {name} the download {file} as an email attachment.",
                  "Share {file} (it's in Downloads) with {name} by email."),
        "test": ("{name} needs {file}, which I downloaded. Mail it to them.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, _people(probe))
        return {"file": new_file(rng), "name": c["display_name"], "email": c["email"]}

    def setup(self, device: Device) -> None:
        device.push_file(f"{DOWNLOAD}/{self.params['file']}", content(self.params["file"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        data = content(p["file"])
        want = [{"name": p["file"], "size": len(data), "sha256": sha(data)}]
        return self.expect(expect(MAIL, added=[{"folder": "sent", "to": _only(p["email"]),
                                                "attachments": want}]))

    def _share(self, device: Device, name: str) -> Iterator[Action]:
        yield from open_folder(device, DOWNLOAD)
        yield from item_menu(device, self.params["file"])
        yield tap(device, text="Share", rid="sheet_item_title")
        yield tap(device, desc="Email", rid="sharesheet_target")
        yield from compose_to(device, name)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._share(device, self.params["name"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Sends it to someone else."""
        other = next(c for c in _people(device.probe) if c["email"] != self.params["email"])
        yield from self._share(device, other["display_name"])
        yield Action("status", goal_status="complete")


def compose_to(device: Device, name: str) -> Iterator[Action]:
    """In an open compose screen: pick ``name`` from the To suggestions and send."""
    yield type_into(device, name, rid="to")
    yield tap(device, rid="contact_suggestion_title")
    yield tap(device, desc="Send")


@register_task
class EmailSaveAttachment(Task):
    """Save the attachment of a contact's newest email into Downloads: one file appears
    there with the attachment's name and bytes; the mailbox stays as it was (the message
    arrives already read)."""

    id = "EmailSaveAttachment"
    apps = ("email", "files")
    category = "cross-app"
    difficulty = "medium"
    optimal_steps = 6
    may_change = (FILES,)
    params_schema = {"name": str, "email": str, "subject": str, "attachment": str}
    template = "Save the attachment from {name}'s latest email to my Downloads."
    constraints = (("downloads", "download folder"),)
    paraphrases = {
        "train": ("Download the file attached to {name}'s newest email into my Downloads.",
                  "Get the attachment in {name}'s most recent email into my Download folder."),
        "test": ("{name} just emailed me a file. Put it in my phone's Downloads.",),
    }
    SUBJECTS = ("The file you asked for", "Here it is", "Document for Monday", "As promised")

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c = choice(rng, _people(probe))
        return {"name": c["display_name"], "email": c["email"],
                "subject": cls.SUBJECTS[int(rng.integers(len(cls.SUBJECTS)))],
                "attachment": new_file(rng)}

    def _text(self) -> str:
        return content(self.params["attachment"]).decode()

    def setup(self, device: Device) -> None:
        p = self.params
        device.fixture("email", "receive", sender=p["email"], sender_name=p["name"],
                       subject=p["subject"], body="Hi! The file is attached.", minutes_ago=3,
                       read=1, attachments=[{"name": p["attachment"], "text": self._text()}])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        data = self._text().encode()
        return self.expect(expect(FILES, added=[{"_id": f"{DOWNLOAD}/{p['attachment']}",
                                                 "size": len(data), "sha256": sha(data)}]))

    def oracle(self, device: Device) -> Iterator[Action]:
        p = self.params
        yield from search(device, p["email"])
        yield from open_result(device, p["subject"])
        yield tap(device, desc=f"Download {p['attachment']}")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves the attachment of another message instead (or none when there is none)."""
        rows = [r for r in newest(device.probe.query(MAIL)) if r["attachments"]
                and r["from"] != self.params["email"]]
        if rows:
            yield from search(device, rows[0]["subject"])
            yield from open_result(device, rows[0]["subject"])
            yield tap(device, desc=f"Download {rows[0]['attachments'][0]['name']}")
        yield Action("status", goal_status="complete")


@register_task
class EmailForwardLatestOrder(Task):
    """Forward the email about the newest Shopping order to a contact. Two order emails are in
    the inbox (the newest order's and the one before it); which order is the newest is seen in
    Shopping's orders. Done when one message went to exactly that contact, its subject the
    forwarded newest order's."""

    id = "EmailForwardLatestOrder"
    apps = ("shopping", "email", "contacts")
    category = "cross-app"
    difficulty = "hard"
    tags = ("search",)
    optimal_steps = 10
    may_change = (MAIL,)
    params_schema = {"order": str, "older": str, "name": str, "email": str}
    template = "Forward the email about my latest Shopping order to {name}."
    paraphrases = {
        "train": ("Send {name} the order email for the most recent thing I ordered in "
                  "Shopping (forward it).",
                  "Find the email for my newest Shopping order and forward it to {name}."),
        "test": ("{name} wants to see my last Shopping order. Forward them its email.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        orders = sorted(probe.query("shopping/orders"), key=lambda o: (o["date"], o["_id"]))
        if len(orders) < 2:
            raise NoInstance("needs two Shopping orders")
        c = choice(rng, _people(probe))
        return {"order": orders[-1]["_id"], "older": orders[-2]["_id"],
                "name": c["display_name"], "email": c["email"]}

    @staticmethod
    def subject(order: str) -> str:
        return f"Your Shopping order {order}"

    def setup(self, device: Device) -> None:
        orders = {o["_id"]: o for o in device.probe.query("shopping/orders")}
        for oid, ago in ((self.params["older"], 60 * 24 * 5), (self.params["order"], 80)):
            o = orders[oid]
            items = "\n".join(f"- {i['name']} x{i['qty']}" for i in o["items"])
            device.fixture("email", "receive", sender="orders@shopping.example",
                           sender_name="Shopping", subject=self.subject(oid),
                           body=f"Thanks for your order {oid}!\n\n{items}\n\nTotal: "
                                f"${o['total']:.2f}\nStatus: {o['status']}",
                           minutes_ago=ago, read=1)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(expect(MAIL, added=[{
            "folder": "sent", "to": _only(p["email"]),
            "subject": same_text(f"Fwd: {self.subject(p['order'])}")}]))

    def _forward(self, device: Device, order: str) -> Iterator[Action]:
        yield Action("open_app", app_name="Shopping")  # a person checks the newest order
        yield from search(device, order)
        yield from open_result(device, self.subject(order))
        yield tap(device, rid="forward")
        yield from compose_to(device, self.params["name"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._forward(device, self.params["order"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Forwards the older order's email."""
        yield from self._forward(device, self.params["older"])
        yield Action("status", goal_status="complete")

