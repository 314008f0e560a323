"""Email tasks that change the ``email/messages`` table: star, send, reply, move to a label,
clean out a newsletter, and unsend (a scheduled message; a sent one is infeasible)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.oracle import OracleError, elements, find, tap, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.email.common import (
    BODIES,
    MAIL,
    SUBJECTS,
    compose,
    correspondents,
    first_from,
    mail,
    newest,
    open_result,
    received_from,
    search,
    to_inbox,
)
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.validators import changed, expect, one_of, same_text


def _to(email: str) -> Any:
    """A recipient list that is exactly ``email``."""
    return lambda v: [a.strip().lower() for a in str(v).split(",") if a.strip()] == [
        email.lower()]


@register_task
class EmailStar(Task):
    """Star a contact's newest message (from the list, without opening it)."""

    id = "EmailStar"
    apps = ("email",)
    difficulty = "easy"
    tags = ("search",)
    optimal_steps = 5
    may_change = (MAIL,)
    params_schema = {"name": str, "email": str, "id": int}
    template = "Star the latest email from {name}."
    paraphrases = {
        "train": ("Add a star to {name}'s most recent email.",
                  "Mark the newest message from {name} with a star."),
        "test": ("I want to find {name}'s last email again later: star it for me.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c, m = choice(rng, [(c, m) for c, m in correspondents(probe)
                          if not m["starred"]])
        return {"name": c["display_name"], "email": c["email"], "id": int(m["_id"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(expect(MAIL, changed={self.params["id"]: {"starred": 1}}))

    def _star(self, device: Device, name: str) -> Iterator[Action]:
        yield from search(device, name)
        subject = first_from(device, name)
        # the star of the row whose subject we just read: rows list sender, ..., star
        stars = [i for i, e in enumerate(elements(device))
                 if (e.resource_id or "").endswith("/star")]
        subjects = [i for i, e in enumerate(elements(device))
                    if (e.resource_id or "").endswith("/subject") and e.text == subject]
        yield Action("click", index=next(s for s in stars if s > subjects[0]))

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._star(device, self.params["name"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the contact's address, not their name, and star the message from its
        long-press menu rather than the row's star."""
        yield from search(device, self.params["email"])
        subject = first_from(device, self.params["name"])
        yield Action("long_press", index=find(device, text=subject, rid="subject"))
        yield tap(device, text="Star", rid="menu_item")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Stars someone else's newest message."""
        others = [c for c, m in correspondents(device.probe)
                  if c["email"] != self.params["email"] and not m["starred"]]
        yield from self._star(device, others[0]["display_name"])
        yield Action("status", goal_status="complete")


@register_task
class EmailSend(Task):
    """Write a new email to a contact (picked from the suggestions): one sent message to their
    address, with that subject and text."""

    id = "EmailSend"
    apps = ("email",)
    difficulty = "medium"
    tags = ("form",)
    optimal_steps = 8
    may_change = (MAIL,)
    params_schema = {"name": str, "email": str, "subject": str, "body": str}
    template = 'Email {name} with the subject "{subject}" saying "{body}".'
    paraphrases = {
        "train": ('Send {name} an email. Subject: "{subject}". Message: "{body}".',
                  'Write to {name} by email, subject "{subject}", text "{body}".'),
        "test": ('Could you drop {name} a quick email titled "{subject}"? Just say "{body}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        people = [c for c in probe.contacts() if c["email"] and c["display_name"]]
        c = choice(rng, people)
        return {"name": c["display_name"], "email": c["email"],  # type: ignore[index]
                "subject": str(choice(rng, list(SUBJECTS))), "body": str(choice(rng, list(BODIES)))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(expect(MAIL, added=[{
            "folder": "sent", "to": _to(p["email"]), "cc": "", "subject": same_text(p["subject"]),
            "body": same_text(p["body"])}]))

    def _send(self, device: Device, name: str, subject: str) -> Iterator[Action]:
        yield from to_inbox(device)
        yield tap(device, desc="Compose")
        yield from compose(device, name, subject, self.params["body"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._send(device, self.params["name"], self.params["subject"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right person, another subject."""
        other = next(s for s in SUBJECTS if s != self.params["subject"])
        yield from self._send(device, self.params["name"], other)
        yield Action("status", goal_status="complete")


@register_task
class EmailReply(Task):
    """Reply to a contact's newest message: one sent message to them whose subject is "Re:"
    the original's and whose text holds the reply (with or without the quote); opening the
    message marks it read, which is view state and not checked."""

    id = "EmailReply"
    apps = ("email",)
    difficulty = "hard"
    tags = ("search", "form")
    optimal_steps = 8
    may_change = (MAIL,)
    params_schema = {"name": str, "email": str, "id": int, "body": str}
    template = 'Reply to {name}\'s latest email saying "{body}".'
    paraphrases = {
        "train": ('Respond to the most recent email from {name} with "{body}".',
                  'Hit reply on {name}\'s newest email and write "{body}".'),
        "test": ('{name} emailed me recently. Respond to that email: "{body}".',),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c, m = choice(rng, correspondents(probe))
        return {"name": c["display_name"], "email": c["email"], "id": int(m["_id"]),
                "body": str(choice(rng, list(BODIES)))}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        rows = self.before(MAIL)
        orig = next(r for r in rows if r["_id"] == p["id"])
        # opening the message marks it read: view state, which the diff leaves out
        return self.expect(expect(MAIL, added=[{
            "folder": "sent", "to": _to(p["email"]),
            "subject": same_text(f"Re: {orig['subject']}"),
            "body": lambda v: " ".join(p["body"].split()).lower() in " ".join(
                str(v).split()).lower()}]))

    def _reply(self, device: Device, name: str, body: str,
               query: str = "") -> Iterator[Action]:
        yield from search(device, query or name)
        yield from open_result(device, first_from(device, name))
        yield tap(device, rid="reply")
        yield type_into(device, body, rid="body")
        yield tap(device, desc="Send")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._reply(device, self.params["name"], self.params["body"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the contact's address instead of their name."""
        yield from self._reply(device, self.params["name"], self.params["body"],
                               query=self.params["email"])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Replies with another text."""
        other = next(b for b in BODIES if b != self.params["body"])
        yield from self._reply(device, self.params["name"], other)
        yield Action("status", goal_status="complete")


LABELS = ("Work", "Receipts", "Travel")


@register_task
class EmailMoveToLabel(Task):
    """File a contact's newest message under a label: its folder becomes the label (opening
    it marks it read, which is view state and not checked)."""

    id = "EmailMoveToLabel"
    apps = ("email",)
    difficulty = "medium"
    tags = ("search",)
    optimal_steps = 7
    split = "test"
    may_change = (MAIL,)
    params_schema = {"name": str, "id": int, "subject": str, "label": str}
    template = 'Move the email "{subject}" from {name} to the {label} folder.'
    paraphrases = {
        "test": ('File {name}\'s email "{subject}" under the {label} label.',
                 'Put the message "{subject}" that {name} sent into {label}.',
                 'Label {name}\'s "{subject}" email as {label} and take it out of where it '
                 'is now.'),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        c, m = choice(rng, correspondents(probe))
        label = choice(rng, [lbl for lbl in LABELS if lbl != m["folder"]])
        return {"name": c["display_name"], "id": int(m["_id"]), "subject": m["subject"],
                "label": str(label)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(changed(MAIL, p["id"], folder=p["label"]))

    def _move(self, device: Device, label: str, by_subject: bool = False) -> Iterator[Action]:
        if by_subject:
            yield from search(device, self.params["subject"])
            yield from open_result(device, self.params["subject"])
        else:
            yield from search(device, self.params["name"])
            yield from open_result(device, first_from(device, self.params["name"]))
        yield tap(device, desc="Move to")
        yield tap(device, text=label, rid="menu_item")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._move(device, self.params["label"])
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Search the message's subject instead of the sender's name."""
        yield from self._move(device, self.params["label"], by_subject=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Archives it instead."""
        yield from self._move(device, "Archive")
        yield Action("status", goal_status="complete")


@register_task
class EmailTrashNewsletter(Task):
    """Delete every message a newsletter sent (three of them: the missing ones arrive at
    setup): each goes to Trash, nothing else changes.

    Fewer goals: the goal names one of the four newsletters the mailbox gets."""

    id = "EmailTrashNewsletter"
    apps = ("email",)
    difficulty = "hard"
    tags = ("search", "multi-step")
    optimal_steps = 10
    may_change = (MAIL,)
    params_schema = {"sender": str, "address": str}
    template = "Delete all the emails from {sender}."
    paraphrases = {
        "train": ("Get rid of every email {sender} has sent me.",
                  "Move all of {sender}'s emails to the trash."),
        "test": ("I'm tired of {sender}. Clear all their mail out of my mailbox.",),
    }
    NEWS = (("The Morning Brief", "news@morningbrief.com"),
            ("Trail Runner Weekly", "hello@trailrunner.io"),
            ("Cook Club", "recipes@cookclub.net"),
            ("City Library", "events@citylibrary.org"))
    ISSUES = ("Your weekly roundup", "Don't miss this week's picks", "Last call: spring edition")

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        sender, address = cls.NEWS[int(rng.integers(len(cls.NEWS)))]
        return {"sender": sender, "address": address}

    def setup(self, device: Device) -> None:
        have = len(received_from(mail(device.probe), self.params["address"]))
        for i, subject in enumerate(self.ISSUES[:3 - have]):
            device.fixture("email", "receive", sender=self.params["address"],
                           sender_name=self.params["sender"], subject=subject,
                           body=f"{subject}: stories, tips and more from {self.params['sender']}.",
                           minutes_ago=60 * (30 + 20 * i), read=1,
                           now=device.probe.now())

    def evaluate(self, device: Device, report: AgentReport) -> float:
        ids = [r["_id"] for r in received_from(self.before(MAIL), self.params["address"])]
        return self.expect(expect(MAIL, changed={i: {"folder": "trash"} for i in ids}))

    def _trash(self, device: Device, count: int) -> Iterator[Action]:
        yield from search(device, self.params["address"])
        for _ in range(count):
            yield Action("long_press", index=_first_row(device))
            yield tap(device, text="Delete", rid="menu_item")

    def oracle(self, device: Device) -> Iterator[Action]:
        n = len(received_from(self.before(MAIL), self.params["address"]))
        yield from self._trash(device, n)
        yield Action("status", goal_status="complete")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open each message and delete it from its own toolbar, not the long-press menu."""
        yield from search(device, self.params["address"])
        for _ in range(len(received_from(self.before(MAIL), self.params["address"]))):
            yield Action("click", index=_first_row(device))
            yield tap(device, desc="Delete", rid="delete")
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes all but the oldest."""
        n = len(received_from(self.before(MAIL), self.params["address"]))
        yield from self._trash(device, n - 1)
        yield Action("status", goal_status="complete")


def _first_row(device: Device) -> int:
    i = find(device, rid="conversation")
    if i is None:
        raise OracleError("no message listed")
    return i


@register_task
class EmailUnsend(Task):
    """Infeasible by design: the email left the phone days ago (it is in Sent), and a sent
    email cannot be called back; only mail still waiting in Scheduled can ("Cancel send").
    :class:`EmailUnsendScheduled` is its feasible twin, about a scheduled message; which one
    it is shows only in the app (the message's folder, and its Cancel send banner)."""

    id = "EmailUnsend"
    apps = ("email",)
    difficulty = "medium"
    tags: ClassVar[tuple[str, ...]] = ()
    feasible = False
    optimal_steps = 5
    params_schema = {"name": str, "subject": str, "id": int}
    template = 'Unsend the email "{subject}" I sent to {name}.'
    paraphrases = {
        "train": ('Recall my email "{subject}" to {name} so they never get it.',),
        "test": ('Take back the "{subject}" message I emailed {name}; they must not read it.',),
    }

    #: the folder the message is drawn from (the twin's: scheduled, not sent yet)
    folder = "sent"

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        names = {c["email"]: c["display_name"] for c in probe.contacts() if c["email"]}
        mine = [r for r in newest(mail(probe)) if r["folder"] == cls.folder
                and r["to"].split(",")[0].strip() in names]
        r = choice(rng, mine)
        return {"name": names[r["to"].split(",")[0].strip()],  # type: ignore[index]
                "subject": r["subject"], "id": int(r["_id"])}  # type: ignore[index]

    def _open(self, device: Device, subject: str, browse: bool = False) -> Iterator[Action]:
        """Search the subject and open the message (``browse``, the second path: the
        drawer's folder of the message, Sent or Scheduled, then the message)."""
        if browse:
            yield from to_inbox(device)
            yield tap(device, desc="Open navigation drawer")
            yield tap(device, text=self.folder.capitalize(), rid="drawer_item")
        else:
            yield from search(device, subject)
        yield from open_result(device, subject)

    def oracle(self, device: Device) -> Iterator[Action]:
        """Opens the message: it is in Sent, with no way to call it back."""
        yield from self._open(device, self.params["subject"])
        yield Action("status", goal_status="infeasible")

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the message from the drawer's Sent folder instead of a search."""
        yield from self._open(device, self.params["subject"], browse=True)
        yield Action("status", goal_status="infeasible")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Deletes the sent copy and claims it was unsent."""
        yield from self._open(device, self.params["subject"])
        yield tap(device, desc="Delete")
        yield Action("status", goal_status="complete")


@register_task
class EmailUnsendScheduled(EmailUnsend):
    """The feasible twin of :class:`EmailUnsend`: its very wordings, about a message sent
    with "Schedule send" that has not left yet, so its Cancel send turns it back into a draft
    (deleting it, which moves it to Trash, stops it too). Without a twin "unsend" and
    "recall" were words no feasible goal used, and ``status infeasible`` on sight of them won
    the infeasible task blind; which one it is shows only in the app."""

    id = "EmailUnsendScheduled"
    tags = ("search",)
    feasible = True
    folder = "scheduled"
    optimal_steps = 6
    may_change = (MAIL,)

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(changed(MAIL, self.params["id"], folder=one_of("drafts", "trash")))

    def _cancel(self, device: Device, subject: str, browse: bool = False) -> Iterator[Action]:
        yield from self._open(device, subject, browse)
        yield tap(device, text="Cancel send", rid="cancel_send")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._cancel(device, self.params["subject"])
        yield Action("status", goal_status="complete")

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the message from the drawer's Scheduled folder instead of a search."""
        yield from self._cancel(device, self.params["subject"], browse=True)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Cancels the other scheduled message instead."""
        other = next(r["subject"] for r in self.before(MAIL) if r["folder"] == "scheduled"
                     and r["_id"] != self.params["id"])
        yield from self._cancel(device, other)
        yield Action("status", goal_status="complete")
