"""Cross-app tasks of the Gallery and the Camera: a photo travels through the share sheet into
an email (a Gallery photo found by place, or a new Camera shot), a photo's place travels into
a text message, and a contact's home town (from Contacts) picks the photo to favourite.

The email checks name the attachment by content (its SHA-256 equals the photo file's), so
attaching another photo, or the right one under another name, fails.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.oracle import OracleError, tap, text_of, type_into
from phoneworld_gym.task import NoInstance, Task, register_task
from phoneworld_gym.tasks.camera.common import is_shot, open_camera, shoot
from phoneworld_gym.tasks.contacts.common import browse_to_contact, open_contact
from phoneworld_gym.tasks.gallery.common import camera_photos, day_words, search, taken
from phoneworld_gym.tasks.kit import today
from phoneworld_gym.tasks.messages.common import send_to
from phoneworld_gym.validators import added, expect, same_phone


def _with_email(probe: Probe) -> list[Row]:
    return sorted((c for c in probe.contacts() if c.get("email") and c.get("display_name")),
                  key=lambda c: str(c["display_name"]))


def _sent_to(email: str) -> Any:
    want = email.strip().lower()
    return lambda v: [a.strip().lower() for a in str(v).split(",") if a.strip()] == [want]


def _attached(name: str | None, sha: Any) -> Any:
    """The attachments are exactly one file with this content (and name, when given);
    ``sha`` may be a callable giving the SHA-256 at check time."""
    def fits(v: Any) -> bool:
        want = sha() if callable(sha) else sha
        return isinstance(v, list) and len(v) == 1 and v[0].get("sha256") == want \
            and (name is None or v[0].get("name") == name)

    return fits


def _share_to_email(device: Device, email: str) -> Iterator[Action]:
    """From a photo on screen: Share, Email, the recipient, Send."""
    yield tap(device, rid="share")
    yield tap(device, desc="Email", rid="sharesheet_target")
    yield type_into(device, email, rid="to")
    yield tap(device, desc="Send")


@register_task
class GalleryEmailPhoto(Task):
    """Email the newest photo taken in a city to a contact, through the Gallery's share
    sheet: one sent message to that address with that photo attached."""

    id = "GalleryEmailPhoto"
    apps = ("gallery", "email")
    category = "cross-app"
    difficulty = "hard"
    tags = ("share", "files")
    optimal_steps = 9
    may_change = ("email/messages",)
    params_schema = {"city": str, "path": str, "sha256": str, "name": str, "email": str}
    template = "Email the latest photo I took in {city} to {name}."
    paraphrases = {
        "train": (
            "Send {name} my most recent {city} picture by email.",
            "Share my newest photo from {city} with {name} over email.",
        ),
        "test": (
            "{name} wants to see the last picture I took in {city}. Email it to them.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        media = {str(r["_id"]): str(r["place"]) for r in probe.query("gallery/media")}
        newest: dict[str, Row] = {}
        for r in camera_photos(probe):  # oldest first: the last one per city wins
            place = media.get(str(r["_id"]), "")
            if place:
                newest[place.split(",")[0]] = r
        if not newest:
            raise NoInstance("no photo has a place")
        city = sorted(newest)[int(rng.integers(len(newest)))]
        people = _with_email(probe)
        if not people:
            raise NoInstance("no contact has an email address")
        who = people[int(rng.integers(len(people)))]
        r = newest[city]
        return {"city": city, "path": str(r["_id"]), "sha256": str(r["sha256"]),
                "name": str(who["display_name"]), "email": str(who["email"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        p = self.params
        return self.expect(added("email/messages", {
            "folder": "sent", "to": _sent_to(p["email"]),
            "attachments": _attached(p["path"].rsplit("/", 1)[-1], p["sha256"])}))

    def _send(self, device: Device, nth: int) -> Iterator[Action]:
        yield from search(device, self.params["city"])
        yield tap(device, rid="photo", nth=nth)
        yield from _share_to_email(device, self.params["email"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._send(device, 0)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Emails the second newest photo from there (or, with one, the newest from another
        city)."""
        media = {str(r["_id"]): str(r["place"]) for r in device.probe.query("gallery/media")}
        here = [r for r in camera_photos(device.probe)
                if media.get(str(r["_id"]), "").startswith(self.params["city"] + ",")]
        if len(here) > 1:
            yield from self._send(device, 1)
        else:
            other = sorted({p.split(",")[0] for p in media.values()
                            if p and not p.startswith(self.params["city"] + ",")})[0]
            yield from search(device, other)
            yield tap(device, rid="photo")
            yield from _share_to_email(device, self.params["email"])
        yield Action("status", goal_status="complete")


@register_task
class CameraEmailPhoto(Task):
    """Take a photo and email it to a contact: one new photo file, and one sent message to
    that address whose only attachment has that file's content."""

    id = "CameraEmailPhoto"
    apps = ("camera", "email")
    category = "cross-app"
    difficulty = "hard"
    tags = ("share", "files")
    optimal_steps = 9
    may_change = ("files", "email/messages")
    params_schema = {"name": str, "email": str}
    template = "Take a photo and email it to {name}."
    paraphrases = {
        "train": (
            "Snap a picture with the camera and send it to {name} by email.",
            "Use the camera, then email the new photo to {name}.",
        ),
        "test": (
            "{name} asked for a fresh picture: shoot one and mail it over.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        people = _with_email(probe)
        if not people:
            raise NoInstance("no contact has an email address")
        who = people[int(rng.integers(len(people)))]
        return {"name": str(who["display_name"]), "email": str(who["email"])}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        assert self.diff is not None
        new = self.diff.table("files").added

        def sha() -> Any:
            return new[0]["sha256"] if len(new) == 1 else None

        return self.expect(expect("files", added=[{"_id": is_shot}]),
                           added("email/messages", {"folder": "sent",
                                                    "to": _sent_to(self.params["email"]),
                                                    "attachments": _attached(None, sha)}))

    def _send(self, device: Device, shots: int) -> Iterator[Action]:
        yield from open_camera(device)
        yield from shoot(device, shots)
        yield tap(device, desc="Open last photo")
        yield from _share_to_email(device, self.params["email"])

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._send(device, 1)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Emails the last photo that was already there, without taking a new one."""
        yield from self._send(device, 0)
        yield Action("status", goal_status="complete")


@register_task
class GalleryTextPlace(Task):
    """Text a contact the city where the photos of a day were taken (read in the Gallery):
    one sent SMS to their number whose body names the city."""

    id = "GalleryTextPlace"
    apps = ("gallery", "messages")
    category = "cross-app"
    difficulty = "medium"
    tags = ("messages",)
    optimal_steps = 10
    may_change = ("sms",)
    params_schema = {"day": str, "date": str, "name": str, "number": str}
    template = "Text {name} the name of the city where I took photos on {day}."
    paraphrases = {
        "test": (
            "Where were my {day} pictures taken? Send the city to {name} in a message.",
            "Look up the place of my photos from {day} and SMS it to {name}.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        media = {str(r["_id"]): str(r["place"]) for r in probe.query("gallery/media")}
        days: dict[str, set[str]] = {}
        for r in camera_photos(probe):
            t = taken(str(r["_id"]))
            assert t is not None
            days.setdefault(t.date().isoformat(), set()).add(media.get(str(r["_id"]), ""))
        fits = sorted(d for d, ps in days.items() if len(ps) == 1 and "" not in ps)
        people = sorted((c for c in probe.contacts() if c.get("number")
                         and c.get("display_name")), key=lambda c: str(c["display_name"]))
        if not fits or not people:
            raise NoInstance("no day with one known place, or nobody to text")
        d = fits[int(rng.integers(len(fits)))]
        who = people[int(rng.integers(len(people)))]
        t = taken(f"IMG_{d.replace('-', '')}_000000.jpg")
        assert t is not None
        return {"day": day_words(t, today(probe).year), "date": d, "name": str(who["display_name"]),
                "number": str(who["number"])}

    def _city(self, device: Device) -> str:
        """The city of the day's photos (``gallery/media`` never changes in an episode)."""
        media = {str(r["_id"]): str(r["place"]) for r in device.probe.query("gallery/media")}
        places = {media.get(str(r["_id"]), "") for r in camera_photos_rows(self.before("files"))
                  if str(taken(str(r["_id"])))[:10] == self.params["date"]}
        (place,) = places
        return place.split(",")[0]

    def evaluate(self, device: Device, report: AgentReport) -> float:
        city = self._city(device).lower()
        return self.expect(added("sms", {"address": same_phone(self.params["number"]),
                                         "type": 2,
                                         "body": lambda b: city in str(b).lower()}))

    def _text(self, device: Device, body: str) -> Iterator[Action]:
        yield from send_to(device, self.params["name"], body)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from search(device, self.params["day"])
        place = text_of(device, rid="place_header")
        if not place:
            raise OracleError(f"no place shown for {self.params['day']}")
        yield from self._text(device, place.split(",")[0])
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Texts the place of another day's photos."""
        right = self._city(device)
        others = sorted({str(r["place"]).split(",")[0] for r in device.probe.query("gallery/media")
                         if r["place"] and not str(r["place"]).startswith(right)})
        yield from self._text(device, others[0] if others else "Nowhere")
        yield Action("status", goal_status="complete")


def camera_photos_rows(rows: list[Row]) -> list[Row]:
    """Camera-folder photos of a ``files`` snapshot."""
    return [r for r in rows if is_shot(r["_id"])]


def _city_of(address: str) -> str:
    """The city of a contact's one-line address ("12 Oak Avenue, Austin, TX 78701")."""
    parts = [p.strip() for p in str(address).split(",")]
    return parts[1] if len(parts) >= 3 else ""


@register_task
class GalleryFavoriteContactCity(Task):
    """Favourite the newest photo taken in a contact's home city: the city is read in
    Contacts (their address), the photo found in the Gallery by searching it; one row added
    to ``gallery/favorites``."""

    id = "GalleryFavoriteContactCity"
    apps = ("contacts", "gallery")
    category = "cross-app"
    difficulty = "medium"
    tags = ("search",)
    optimal_steps = 9
    may_change = ("gallery/favorites",)
    params_schema = {"name": str, "city": str, "path": str}
    template = "Add my most recent photo from {name}'s home town to my favorites."
    paraphrases = {
        "train": (
            "Find where {name} lives, then heart the newest picture I took in that city.",
            "Favorite the latest photo I have from the city {name} lives in.",
        ),
        "test": (
            "My last picture from {name}'s city should be a favorite. Please mark it.",
        ),
    }

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        media = {str(r["_id"]): str(r["place"]) for r in probe.query("gallery/media")}
        favs = {str(r["_id"]) for r in probe.query("gallery/favorites")}
        newest: dict[str, str] = {}
        for r in camera_photos(probe):  # oldest first: the last one per city wins
            place = media.get(str(r["_id"]), "")
            if place:
                newest[place.split(",")[0]] = str(r["_id"])
        fits = [(str(c["display_name"]), _city_of(c["postal_address"]))
                for c in probe.contacts()
                if c.get("display_name") and _city_of(c.get("postal_address") or "") in newest
                and newest[_city_of(c["postal_address"])] not in favs]
        if not fits:
            raise NoInstance("no contact lives in a city with an unfavourited newest photo")
        name, city = sorted(fits)[int(rng.integers(len(fits)))]
        return {"name": name, "city": city, "path": newest[city]}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        return self.expect(added("gallery/favorites", {"_id": self.params["path"]}))

    def _heart(self, device: Device, city: str) -> Iterator[Action]:
        yield from search(device, city)
        yield tap(device, rid="photo")
        yield tap(device, rid="favorite")

    def _play(self, device: Device,
              via: Callable[[Device, str], Iterator[Action]] = open_contact,
              ) -> Iterator[Action]:
        yield from via(device, self.params["name"])
        city = _city_of(text_of(device, rid="address_title") or "")
        if not city:
            raise OracleError(f"no address shown for {self.params['name']}")
        yield from self._heart(device, city)
        yield Action("status", goal_status="complete")

    def oracle(self, device: Device) -> Iterator[Action]:
        yield from self._play(device)

    has_alt_oracle = True

    def oracle_alt(self, device: Device) -> Iterator[Action]:
        """Find the contact by scrolling the list in Contacts instead of searching."""
        yield from self._play(device, browse_to_contact)

    def near_miss(self, device: Device) -> Iterator[Action]:
        """Hearts the newest photo of another city (the owner's own, say)."""
        media = {str(r["_id"]): str(r["place"]) for r in device.probe.query("gallery/media")}
        others = sorted({p.split(",")[0] for p in media.values()
                         if p and not p.startswith(self.params["city"])})
        yield from open_contact(device, self.params["name"])
        yield from self._heart(device, others[0])
        yield Action("status", goal_status="complete")
