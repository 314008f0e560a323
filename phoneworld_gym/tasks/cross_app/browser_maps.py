"""Cross-app tasks with Maps and Chrome: an address carried from Contacts through Maps'
Share into a text, a place's phone number from Maps into a new contact, a walking time from
Maps into a text, a place's address from Maps as a calendar event's location, and a link
texted by a friend bookmarked in Chrome.

``CrossAppShareHomeAddress`` reads and checks only common tables (``contacts``, ``sms``), so it
runs on a real phone; the others read what Maps and Chrome serve (``maps/places``,
``browser/pages``, ``browser/bookmarks``), which only PhoneWorld has.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.matchers import normalize
from phoneworld_gym.oracle import scroll_to, tap, text_of, type_into
from phoneworld_gym.task import Task, register_task
from phoneworld_gym.tasks.browser.common import bookmark_here, of_kind, open_url
from phoneworld_gym.tasks.calendar.common import clock, create_event, day_words, epoch_ms
from phoneworld_gym.tasks.contacts.common import (
    browse_to_contact,
    open_contact,
    same_name,
    to_list,
)
from phoneworld_gym.tasks.kit import choice, now_ms, today
from phoneworld_gym.tasks.maps.common import (
    browse_to_place,
    businesses,
    by_key,
    grid_miles,
    home,
    open_place,
    places,
    walk_minutes,
)
from phoneworld_gym.tasks.messages.common import (
    INBOX,
    SENT,
    last_received,
    open_thread,
    send_to,
    texters,
    thread_from_contacts,
)
from phoneworld_gym.validators import added, same_phone, same_text, states


@register_task
class CrossAppShareHomeAddress(Task):
    """Open a contact's home address in Maps (the address row of their contact card opens
    Maps through a ``geo:`` intent), then Share it from Maps to Messages, to another contact:
    one sent ``sms`` row to that person whose body holds the address. Runs on a phone: its
    params come from ``contacts`` and ``sms`` and it checks ``sms`` only."""

    id = "CrossAppShareHomeAddress"
    apps = ("contacts", "maps", "messages")
    category = "cross-app"
    difficulty = "hard"
    tags = ("intent", "share", "read-then-write")
    optimal_steps = 10
    max_steps = 30
    may_change = ("sms",)
    params_schema = {"whose": str, "whose_id": int, "to": str, "to_number": str}
    template = ("Open {whose}'s home address in Maps from my contacts and share it with {to} "
                "by text message.")
    paraphrases = {
        "train": ("Find {whose}'s address in Contacts, show it in Maps, then use Share to text "
                  "it to {to}.",
                  "Text {to} the location of {whose}'s home, shared from Maps."),
        "test": ("{to} needs to know where {whose} lives. Pull up the address on the map and "
                 "send it to {to} in a text.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = [r for r in probe.contacts() if r["display_name"] and r["postal_address"]]
        a = choice(rng, rows)
        b = choice(rng, [r for r in texters(probe, unread=False)
                        if not same_name(r["display_name"], a["display_name"])])
        return {"whose": a["display_name"], "whose_id": int(a["_id"]), "to": b["display_name"],
                "to_number": b["number"]}

    def _address(self) -> str:
        return next(r["postal_address"] for r in self.before("contacts")
                    if r["_id"] == self.params["whose_id"])

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("sms", {"address": same_phone(self.params["to_number"]),
                                         "body": states(self._address()), "type": SENT}))

    def _share(self, device: Device, to: str, browse: bool = False) -> Iterator[Action]:
        yield from (browse_to_contact if browse else open_contact)(device, self.params["whose"])
        yield from scroll_to(device, rid="address_title")
        yield tap(device, rid="address_title")  # geo: -> Maps
        yield tap(device, rid="share")
        yield tap(device, desc="Messages")
        yield type_into(device, to, rid="recipient_text_view")
        yield from scroll_to(device, text=to, rid="contact_title")
        yield tap(device, text=to, rid="contact_title")
        yield tap(device, desc="Send SMS")
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._share(device, self.params["to"])

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._share(device, self.params["to"], browse=True)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Shares it with someone else."""
        other = next(r["display_name"] for r in texters(device.probe, unread=False)
                     if not same_name(r["display_name"], self.params["to"])
                     and not same_name(r["display_name"], self.params["whose"]))
        yield from self._share(device, other)


@register_task
class CrossAppSavePlaceNumber(Task):
    """Read a business's phone number in Maps and save it as a new contact under the
    business's name: one ``contacts`` row is added with that name and number."""

    id = "CrossAppSavePlaceNumber"
    apps = ("maps", "contacts")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "search")
    optimal_steps = 10
    max_steps = 30
    may_change = ("contacts",)
    params_schema = {"place": str, "key": str}
    template = "Find {place} in Maps and save its phone number as a new contact named {place}."
    paraphrases = {
        "train": ("Add {place} to my contacts with the phone number Maps shows for it.",
                  "Look up {place}'s number in Maps and create a contact called {place} "
                  "with it."),
        "test": ("I call {place} a lot. Put their number from Maps into my contacts under "
                 "the name {place}.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        taken = {normalize(r["display_name"]) for r in probe.contacts()}
        row = choice(rng, [r for r in businesses(probe) if normalize(r["name"]) not in taken])
        return {"place": row["name"], "key": row["_id"]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        phone = by_key(places(device.probe), self.params["key"])["phone"]
        return self.expect(added("contacts", {"display_name": same_text(self.params["place"]),
                                              "number": same_phone(phone)}))

    def _save(self, device: Device, number: str) -> Iterator[Action]:
        yield from to_list(device)
        yield tap(device, desc="Create contact")
        yield type_into(device, self.params["place"], rid="field_first")
        yield type_into(device, number, rid="field_phone")
        yield tap(device, rid="save")
        yield Action("status", goal_status="complete")

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        yield from via(device, self.params["place"])
        yield from scroll_to(device, rid="phone_title")
        number = text_of(device, rid="phone_title") or ""
        yield from self._save(device, number)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its map pin or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Saves the number of another business of the same kind under the name."""
        rows = businesses(device.probe)
        me = by_key(rows, self.params["key"])
        same = [r for r in rows if r["_id"] != me["_id"] and r["category"] == me["category"]]
        other = (same or [r for r in rows if r["_id"] != me["_id"]])[0]
        yield from self._save(device, other["phone"])


@register_task
class CrossAppTextWalkTime(Task):
    """Find in Maps how many minutes the walk from home to a place takes, and text that to a
    contact: one sent ``sms`` row to them whose only number is the walking time in minutes
    (places over an hour's walk away are not asked about)."""

    id = "CrossAppTextWalkTime"
    apps = ("maps", "messages")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "directions")
    optimal_steps = 13
    max_steps = 35
    may_change = ("sms",)
    params_schema = {"name": str, "number": str, "place": str, "key": str}
    template = ("Text {name} how many minutes it takes me to walk from home to {place}, "
                "according to Maps.")
    constraints = ("minutes",)
    paraphrases = {
        "test": ("{name} asked how long my walk from home to {place} is. Check Maps and text "
                 "them the number of minutes.",
                 "Send {name} a message with the walking time in minutes from my home to "
                 "{place} (use Maps)."),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        rows = places(probe)
        me = home(rows)
        place = choice(rng, [r for r in businesses(probe) if walk_minutes(me, r) < 60])
        person = choice(rng, texters(probe, unread=False))
        return {"name": person["display_name"], "number": person["number"],
                "place": place["name"], "key": place["_id"]}

    def _minutes(self, device: Device) -> int:
        rows = places(device.probe)
        return walk_minutes(home(rows), by_key(rows, self.params["key"]))

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("sms", {"address": same_phone(self.params["number"]),
                                         "body": states(self._minutes(device), kind="number"),
                                         "type": SENT}))

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        yield from via(device, self.params["place"])
        yield tap(device, rid="directions")
        yield tap(device, rid="mode_walk")
        walk = text_of(device, rid="route_time") or ""
        yield from send_to(device, self.params["name"],
                           f"It takes me {walk} to walk from home to {self.params['place']}")
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its map pin or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts the driving time instead (a different number)."""
        rows = places(device.probe)
        miles = grid_miles(home(rows), by_key(rows, self.params["key"]))
        drive = max(1, int(round(miles / 24 * 60 + 2)))
        walk = self._minutes(device)
        yield from send_to(device, self.params["name"],
                           f"It takes me {drive if drive != walk else walk + 1} min")
        yield Action("status", goal_status="complete")


@register_task
class CrossAppBookmarkTextedLink(Task):
    """A friend texted a Fork & Spoon recipe link (setup adds the received, already read
    ``sms``); the agent reads it in Messages and bookmarks that page in Chrome: one
    ``browser/bookmarks`` row for its address."""

    id = "CrossAppBookmarkTextedLink"
    apps = ("messages", "browser")
    category = "cross-app"
    difficulty = "medium"
    tags = ("read-then-write", "link")
    optimal_steps = 7
    max_steps = 25
    may_change = ("browser/bookmarks",)
    params_schema = {"name": str, "number": str, "url": str, "dish": str}
    template = "{name} texted me a link to a recipe. Bookmark that recipe in Chrome."
    paraphrases = {
        "train": ("Open the recipe link {name} sent me by text and bookmark it in Chrome.",
                  "Save the recipe {name} texted me the link to as a Chrome bookmark."),
        "test": ("There's a recipe link in my messages from {name}. I want it in my browser "
                 "bookmarks.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        person = choice(rng, texters(probe, unread=False))
        marked = {b["url"] for b in probe.query("browser/bookmarks")}
        recipe = choice(rng, [r for r in of_kind(probe, "recipe") if r["_id"] not in marked])
        return {"name": person["display_name"], "number": person["number"],
                "url": recipe["_id"], "dish": recipe["dish"]}

    def setup(self, device: Device) -> None:
        link = self.params["url"].replace("https://", "https://www.")
        # texted 35 minutes before the task starts
        device.insert("sms", {"address": self.params["number"],
                              "body": f"Made this last night, so good! {link}",
                              "date": now_ms(device.probe, 35), "type": INBOX, "read": 1})

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("browser/bookmarks", {"url": self.params["url"]}))

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_thread,
              ) -> Iterator[Action]:
        yield from via(device, self.params["name"])
        text = last_received(device)
        m = re.search(r"https?://\S+", text)
        yield from open_url(device, m.group(0) if m else "")
        yield from bookmark_here(device)
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Read the text in the conversation reached from the person's Text button in Contacts."""
        yield from self._play(device, thread_from_contacts)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Bookmarks another recipe of the site."""
        other = next(r for r in of_kind(device.probe, "recipe")
                     if r["_id"] != self.params["url"])
        yield from open_url(device, other["_id"])
        yield from bookmark_here(device)
        yield Action("status", goal_status="complete")


@register_task
class CrossAppEventAtPlace(Task):
    """Read a business's address in Maps and put it as the location of a new calendar event:
    one ``calendar`` row with the title, times and an ``eventLocation`` holding that address
    (the place's name may come with it)."""

    id = "CrossAppEventAtPlace"
    apps = ("maps", "calendar")
    category = "cross-app"
    difficulty = "hard"
    tags = ("read-then-write", "form", "date-picker")
    optimal_steps = 17
    max_steps = 40
    may_change = ("calendar",)
    params_schema = {"title": str, "place": str, "key": str, "date": str, "day": str,
                     "start": str, "end": str}
    template = ('Add "{title}" to my calendar on {day} from {start} to {end}, with the address '
                "of {place} from Maps as the location.")
    constraints = ("address",)
    paraphrases = {
        "train": ('Schedule "{title}" for {day}, {start} to {end}. Set the location to '
                  "{place}'s address as Maps shows it.",
                  "Look up {place} in Maps and create a calendar event \"{title}\" there on "
                  "{day} from {start} until {end}, with its address as the location."),
        "test": ('I\'m meeting at {place} on {day} from {start} to {end}. Put "{title}" in my '
                 "calendar with the address from Maps.",),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        place = choice(rng, businesses(probe))
        person = choice(rng, [r for r in probe.contacts() if r["display_name"]])
        day = today(probe) + dt.timedelta(days=int(rng.integers(1, 30)))
        start = dt.time(int(rng.integers(9, 19)), int(rng.choice([0, 30])))
        end = (dt.datetime.combine(day, start) + dt.timedelta(hours=1)).time()
        what = ("Coffee", "Lunch", "Catch-up", "Meeting")[int(rng.integers(4))]
        return {"title": f"{what} with {person['display_name'].split()[0]}",
                "place": place["name"], "key": place["_id"], "date": day.isoformat(),
                "day": day_words(day), "start": clock(start), "end": clock(end)}

    def _times(self) -> tuple[dt.date, dt.time, dt.time]:
        p = self.params
        return (dt.date.fromisoformat(p["date"]), dt.datetime.strptime(p["start"], "%I:%M %p")
                .time(), dt.datetime.strptime(p["end"], "%I:%M %p").time())

    def evaluate(self, device: Device, report: AgentReport) -> float:
        day, start, end = self._times()
        address = by_key(places(device.probe), self.params["key"])["address"]
        return self.expect(added("calendar", {
            "title": same_text(self.params["title"]),
            "dtstart": epoch_ms(dt.datetime.combine(day, start)),
            "dtend": epoch_ms(dt.datetime.combine(day, end)),
            "eventLocation": states((address, address.split(",")[0]))}))

    def _add(self, device: Device, address: str) -> Iterator[Action]:
        day, start, end = self._times()
        yield from create_event(device, self.params["title"], day, start, end, location=address)
        yield Action("status", goal_status="complete")

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_place,
              ) -> Iterator[Action]:
        yield from via(device, self.params["place"])
        address = text_of(device, rid="address_title") or ""
        yield from self._add(device, address)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Open the place from its map pin or a search of its category, not its name."""
        yield from self._play(device, browse_to_place)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Uses the address of another business of the same kind."""
        rows = businesses(device.probe)
        me = by_key(rows, self.params["key"])
        same = [r for r in rows if r["_id"] != me["_id"] and r["category"] == me["category"]]
        other = (same or [r for r in rows if r["_id"] != me["_id"]])[0]
        yield from self._add(device, other["address"])
