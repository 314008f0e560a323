"""The Travel app's hotel catalogue: six hotels in each city of the shared life's towns, each
with two or three room types, a price per night, and the nights each room is sold out.

The catalogue is a pure function of a variant number (drawn from the episode's generator and
kept in the store) and of its first night (the phone's date when the data was generated,
also kept in the store), cached, so the store stays small and the world's fingerprint cheap.
It never changes during an episode, so its tables are static. Sold-out nights cluster on two
"busy" nights per city (a convention in town), so a whole hotel can be sold out on some dates.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools

import numpy as np

from phoneworld_gym.life import CITIES

#: how far ahead rooms can be booked (and sold-out nights are drawn)
HORIZON_DAYS = 90

BRANDS: tuple[str, ...] = (
    "Maple Inn", "Grand Plaza", "Cedar Lodge", "Harborview Hotel", "Parkside Suites",
    "The Linden", "Nomad House", "Bluebird Motel", "Copper Key Hotel", "Willow Court",
    "Summit Hotel", "Lantern House",
)
SUFFIXES: tuple[str, ...] = ("", "Downtown", "Old Town", "Riverside", "Central", "Airport")
STREETS: tuple[str, ...] = (
    "Main Street", "Market Street", "Elm Street", "River Road", "Station Avenue",
    "Lincoln Avenue", "Park Boulevard", "College Street", "Harbor Drive", "Union Square",
)
FACILITIES: tuple[str, ...] = (
    "Free WiFi", "Parking", "Swimming pool", "Fitness centre", "Airport shuttle",
    "Pet friendly", "Restaurant", "Spa", "24-hour front desk", "Bar",
)
#: (room type, guests it sleeps, price factor)
ROOM_TYPES: tuple[tuple[str, int, float], ...] = (
    ("Standard Double Room", 2, 1.0), ("Deluxe King Room", 2, 1.3),
    ("Family Suite", 4, 1.65),
)
#: each city's star ratings (shuffled among its hotels): always two 4-star hotels
STARS: tuple[int, ...] = (2, 3, 3, 4, 4, 5)
BASE_PRICE: dict[int, tuple[int, int]] = {2: (55, 90), 3: (85, 145), 4: (135, 225),
                                          5: (240, 420)}


@dataclasses.dataclass(frozen=True)
class Room:
    """A room type of a hotel; ``sold_out`` holds the ISO nights it has no room left."""

    id: int
    hotel_id: int
    name: str
    sleeps: int
    price: int  #: per night, US dollars
    sold_out: tuple[str, ...]

    def free(self, checkin: dt.date, checkout: dt.date) -> bool:
        """True when every night from ``checkin`` to the night before ``checkout`` has a room."""
        nights = {(checkin + dt.timedelta(days=i)).isoformat()
                  for i in range((checkout - checkin).days)}
        return not nights & set(self.sold_out)


@dataclasses.dataclass(frozen=True)
class Hotel:
    """A property: stars, guest rating, distance from downtown, perks and its rooms."""

    id: int
    name: str
    city: str
    state: str
    address: str
    stars: int
    rating: float
    reviews: int
    distance: float  #: miles from downtown
    free_cancellation: bool
    breakfast: bool
    facilities: tuple[str, ...]
    rooms: tuple[Room, ...]


@dataclasses.dataclass(frozen=True)
class Catalogue:
    hotels: tuple[Hotel, ...]

    def hotel(self, hid: int) -> Hotel | None:
        return next((h for h in self.hotels if h.id == hid), None)

    def room(self, rid: int) -> Room | None:
        return next((r for h in self.hotels for r in h.rooms if r.id == rid), None)

    def in_city(self, city: str) -> list[Hotel]:
        return [h for h in self.hotels if h.city.lower() == city.strip().lower()]

    def cities(self) -> list[str]:
        return sorted({h.city for h in self.hotels})


def _nights(rng: np.random.Generator, n: int, first: dt.date) -> set[str]:
    """``n`` nights drawn from the ``HORIZON_DAYS`` starting at ``first`` (ISO dates)."""
    return {(first + dt.timedelta(days=int(d))).isoformat()
            for d in rng.integers(0, HORIZON_DAYS, size=n)}


# bound: 8 catalogues, ~150 KiB each: each world draws its own variant, and only the
# worlds in play read theirs (a miss rebuilds one in milliseconds)
@functools.lru_cache(maxsize=8)
def catalogue(variant: int, first: dt.date) -> Catalogue:
    """The hotels of catalogue ``variant``, selling the nights from ``first`` on (the same
    variant always gives the same hotels; its sold-out nights count from ``first``)."""
    rng = np.random.default_rng(variant)
    hotels: list[Hotel] = []
    room_id = 1
    for ci, (city, state, zipc) in enumerate(CITIES):
        busy = _nights(rng, 2, first)
        brands = rng.choice(len(BRANDS), size=len(STARS), replace=False)
        stars = [STARS[int(i)] for i in rng.permutation(len(STARS))]
        for k in range(len(STARS)):
            hid = ci * 10 + k + 1
            suffix = SUFFIXES[int(rng.integers(len(SUFFIXES)))]
            name = " ".join(p for p in (BRANDS[int(brands[k])], city, suffix) if p)
            lo, hi = BASE_PRICE[stars[k]]
            base = int(rng.integers(lo, hi))
            kinds = ROOM_TYPES if rng.random() < 0.6 else ROOM_TYPES[:2]
            rooms = []
            for kind, sleeps, factor in kinds:
                sold = _nights(rng, int(rng.integers(1, 5)), first)
                sold |= {d for d in sorted(busy) if rng.random() < 0.75}
                rooms.append(Room(room_id, hid, kind, sleeps, int(round(base * factor)),
                                  tuple(sorted(sold))))
                room_id += 1
            n_fac = int(rng.integers(3, 7))
            facilities = tuple(FACILITIES[int(i)] for i in
                               sorted(rng.choice(len(FACILITIES), size=n_fac, replace=False)))
            street = STREETS[int(rng.integers(len(STREETS)))]
            hotels.append(Hotel(
                id=hid, name=name, city=city, state=state,
                address=f"{int(rng.integers(10, 990))} {street}, {city}, {state} {zipc}",
                stars=stars[k], rating=round(float(rng.uniform(6.6, 9.7)), 1),
                reviews=int(rng.integers(40, 4200)),
                distance=round(float(rng.uniform(0.2, 7.5)), 1),
                free_cancellation=bool(rng.random() < 0.6), breakfast=bool(rng.random() < 0.45),
                facilities=facilities, rooms=tuple(rooms)))
    return Catalogue(tuple(hotels))


def rating_word(score: float) -> str:
    """Booking-style words for a guest score out of 10."""
    if score >= 9.0:
        return "Wonderful"
    if score >= 8.5:
        return "Excellent"
    if score >= 8.0:
        return "Very good"
    if score >= 7.0:
        return "Good"
    return "Pleasant"
