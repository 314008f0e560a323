"""One seeded life: the phone owner and the people, places and dates around them.

Drawn once per episode seed and handed to every app's ``generate``, so that Contacts, Shopping
and the apps to come (Messages, Calendar, Email, ...) refer to the same people at the same
addresses. Everything comes from the generator passed in; nothing reads the clock or global
``random``. The word lists are public too: tasks use them to invent a name nobody has yet.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from typing import Any

import numpy as np

from phoneworld_gym.world import START

FIRST_NAMES: tuple[str, ...] = (
    "Ava", "Ben", "Chloe", "Daniel", "Emma", "Felix", "Grace", "Hugo", "Isla", "Jack", "Kara",
    "Liam", "Maya", "Noah", "Olivia", "Priya", "Quinn", "Rosa", "Sam", "Tara", "Umar", "Vera",
    "Wei", "Xavier", "Yara", "Zoe", "Aiko", "Bruno", "Carmen", "Dmitri", "Elena", "Farah",
    "Gabriel", "Hana", "Ivan", "Jonas", "Leila", "Mateo", "Nadia", "Oscar", "Amara", "Caleb",
    "Diego", "Esme", "Finn", "Gemma", "Harvey", "Ines", "Jasper", "Kenji", "Lucia", "Miles",
    "Nora", "Omar", "Paula", "Rafael", "Sofia", "Theo", "Uma", "Viktor",
)
LAST_NAMES: tuple[str, ...] = (
    "Anderson", "Brooks", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito",
    "Johnson", "Kim", "Lopez", "Martin", "Nguyen", "Okafor", "Patel", "Quinn", "Rossi", "Silva",
    "Tanaka", "Usman", "Varga", "Walker", "Xu", "Young", "Zimmer", "Bauer", "Costa", "Dubois",
    "Eriksen", "Novak", "Moreau", "Adeyemi", "Bergstrom", "Castillo", "Dawson", "Ellis",
    "Fontaine", "Grant", "Haddad", "Iyer", "Jensen", "Kowalski", "Larsen", "Mendes", "Nakamura",
    "Olsen", "Petrov", "Reyes", "Sato",
)
STREETS: tuple[str, ...] = (
    "Maple Street", "Oak Avenue", "Pine Road", "Cedar Lane", "Elm Street", "Birch Way",
    "Harbor Drive", "Hill Road", "Lake View", "Mill Lane", "Park Avenue", "River Road",
    "Station Road", "Sunset Boulevard", "Willow Court", "King Street", "Aspen Drive",
    "Beacon Street", "Chestnut Avenue", "Dogwood Lane", "Garden Terrace", "Highland Avenue",
    "Juniper Way", "Laurel Street", "Magnolia Drive", "Orchard Road", "Prospect Street",
    "Quarry Lane", "Spruce Court", "Valley Road",
)
#: (city, state, ZIP)
CITIES: tuple[tuple[str, str, str], ...] = (
    ("Springfield", "IL", "62701"), ("Portland", "OR", "97205"), ("Austin", "TX", "78701"),
    ("Madison", "WI", "53703"), ("Boulder", "CO", "80302"), ("Raleigh", "NC", "27601"),
    ("Salem", "MA", "01970"), ("Tucson", "AZ", "85701"), ("Albany", "NY", "12207"),
    ("Eugene", "OR", "97401"), ("Savannah", "GA", "31401"), ("Burlington", "VT", "05401"),
    ("Ann Arbor", "MI", "48104"), ("Santa Fe", "NM", "87501"), ("Duluth", "MN", "55802"),
    ("Asheville", "NC", "28801"),
)
COMPANIES: tuple[str, ...] = (
    "Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries", "Hooli",
    "Wayne Enterprises", "Cyberdyne", "Soylent", "Vandelay Imports", "Northwind", "Contoso",
)
EMAIL_DOMAINS: tuple[str, ...] = ("mail.com", "inbox.org", "post.net")
RELATIONS: tuple[str, ...] = ("family", "friend", "colleague", "neighbour", "service")


@dataclasses.dataclass(frozen=True)
class Address:
    """A postal address in the US style the apps show."""

    street: str  #: "12 Oak Avenue"
    city: str
    state: str
    zip: str

    def one_line(self) -> str:
        """"12 Oak Avenue, Austin, TX 78701"."""
        return f"{self.street}, {self.city}, {self.state} {self.zip}"

    def as_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Person:
    """Someone in the owner's life (or the owner)."""

    first: str
    last: str
    phone: str  #: "+1 415-555-0132"
    email: str
    home: Address | None
    company: str
    relation: str
    birthday: str  #: ISO date "1990-05-17"

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"


@dataclasses.dataclass(frozen=True)
class Life:
    """The owner and the people of one episode. ``people`` excludes the owner and have
    distinct full names (and names different from the owner's)."""

    seed: int
    owner: Person
    work: Address
    people: tuple[Person, ...]
    #: the moment the phone starts at (its clock at reset, local time): apps generate their
    #: history and plans around it, never around a written date
    now: dt.datetime = START

    @property
    def today(self) -> dt.date:
        """The date of :attr:`now`."""
        return self.now.date()

    def person(self, name: str) -> Person:
        """The person called ``name`` (``KeyError`` if nobody is)."""
        for p in self.people:
            if p.name == name:
                return p
        raise KeyError(f"nobody called {name!r} in this life")


def life_seed(seed: int) -> int:
    """The generator seed of the life of an episode seed (stable across processes)."""
    return int.from_bytes(hashlib.sha256(f"{seed}_life".encode()).digest()[:4], "little")


def _pick(rng: np.random.Generator, seq: tuple[Any, ...] | list[Any]) -> Any:
    return seq[int(rng.integers(len(seq)))]


def random_address(rng: np.random.Generator) -> Address:
    """A street number on a street in a city of :data:`CITIES`."""
    city, state, zipc = _pick(rng, CITIES)
    return Address(f"{int(rng.integers(1, 999))} {_pick(rng, STREETS)}", city, state, zipc)


def random_phone(rng: np.random.Generator) -> str:
    """A US number in the 555 range: "+1 415-555-0132"."""
    return f"+1 {int(rng.integers(201, 989))}-555-{int(rng.integers(1000, 9999)):04d}"


def _person(rng: np.random.Generator, first: str, last: str, i: int,
            with_home: bool) -> Person:
    year = int(rng.integers(1950, 2006))
    month, day = int(rng.integers(1, 13)), int(rng.integers(1, 29))
    return Person(
        first=first, last=last, phone=random_phone(rng),
        email=f"{first}.{last}".lower() + "@" + EMAIL_DOMAINS[i % len(EMAIL_DOMAINS)],
        home=random_address(rng) if with_home else None,
        company=_pick(rng, COMPANIES) if rng.random() < 0.85 else "",
        relation=_pick(rng, RELATIONS), birthday=f"{year:04d}-{month:02d}-{day:02d}")


def generate(seed: int, n_people: int = 24, now: dt.datetime | None = None) -> Life:
    """The life of episode seed ``seed``: an owner with a home and a work address, and
    ``n_people`` others, three in four of whom have a home address on file, seen at ``now``
    (the phone's start clock; :data:`phoneworld_gym.world.START` by default)."""
    rng = np.random.default_rng(life_seed(seed))
    owner_first, owner_last = _pick(rng, FIRST_NAMES), _pick(rng, LAST_NAMES)
    owner = _person(rng, owner_first, owner_last, 0, with_home=True)
    names: set[tuple[str, str]] = {(owner_first, owner_last)}
    order: list[tuple[str, str]] = []
    while len(order) < n_people:
        pair = (_pick(rng, FIRST_NAMES), _pick(rng, LAST_NAMES))
        if pair not in names:
            names.add(pair)
            order.append(pair)
    people = tuple(_person(rng, f, last, i + 1, with_home=bool(rng.random() < 0.75))
                   for i, (f, last) in enumerate(order))
    # work is in the owner's town (another street), as for most people: rides, deliveries
    # and directions between home and work stay local
    w = random_address(rng)
    home = owner.home
    work = w if home is None else Address(w.street, home.city, home.state, home.zip)
    life = Life(seed=int(seed), owner=owner, work=work, people=people)
    return life if now is None else dataclasses.replace(life, now=now)
