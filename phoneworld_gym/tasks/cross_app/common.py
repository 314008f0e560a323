"""Shared pieces of the Contacts + Shopping tasks: addresses as Contacts shows them (one
line) and as Shopping stores them (fields), the products a gift can be, and the gift orders
that setup makes with Shopping's ``ship_order_to`` fixture.

Shopping is read through its tables (``shopping/orders``, ``shopping/addresses``,
``shopping/account``, ``shopping/products``) and changed only through its fixtures.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from phoneworld_gym.contract import Action
from phoneworld_gym.device import Device, Probe, Row
from phoneworld_gym.matchers import normalize
from phoneworld_gym.oracle import OracleError, elements, find, scroll_to
from phoneworld_gym.tasks.contacts.common import same_name
from phoneworld_gym.tasks.kit import choice
from phoneworld_gym.tasks.shopping.common import open_order

ADDRESS_FIELDS = ("street", "city", "state", "zip")
_ADDRESS = re.compile(r"^\s*(?P<street>[^,]+),\s*(?P<city>[^,]+),\s*(?P<state>[A-Za-z]{2})\s+"
                      r"(?P<zip>\d{5})\s*$")


def split_address(text: str) -> dict[str, str] | None:
    """"12 Oak Avenue, Austin, TX 78701" -> street, city, state, zip (None if not that form)."""
    m = _ADDRESS.match(text or "")
    return {k: v.strip() for k, v in m.groupdict().items()} if m else None


def address_line(a: dict[str, Any]) -> str:
    """Address fields as one line: "12 Oak Avenue, Austin, TX 78701"."""
    return f"{a['street']}, {a['city']}, {a['state']} {a['zip']}"


def same_address(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same street, city, state and ZIP (case, accents and punctuation aside)."""
    return all(normalize(str(a.get(k, ""))) == normalize(str(b.get(k, "")))
               for k in ADDRESS_FIELDS)


def ships_to(name: str, address: dict[str, str]) -> Callable[[Any], bool]:
    """A predicate over an order's ``address`` column: this name at this address."""
    return lambda a: isinstance(a, dict) and same_address(a, address) \
        and same_name(str(a.get("name", "")), name)


def owner_name(probe: Probe) -> str:
    """The shopper's name (the ``shopping/account`` row)."""
    return str(probe.query("shopping/account")[0]["name"])


def contact_address(rows: list[Row], cid: int) -> dict[str, str]:
    """Contact ``cid``'s postal address as Shopping's fields."""
    row = next(r for r in rows if r["_id"] == cid)
    address = split_address(row["postal_address"])
    if address is None:
        raise ValueError(f"contact {cid} has no full postal address: {row['postal_address']!r}")
    return address


def simple_products(probe: Probe) -> list[Row]:
    """In-stock products without options whose names read well after "one" (no "The ...")."""
    return [p for p in probe.query("shopping/products")
            if p["in_stock"] and not p["options"] and not p["name"].startswith("The ")]


# -- gift orders ---------------------------------------------------------------------------
def gift_params(rng: np.random.Generator, probe: Probe,
                where: Callable[[Row], bool] | None = None) -> dict[str, Any]:
    """A delivered order and a contact (with a full postal address, not the shopper) that
    setup makes the order's recipient (:func:`make_gift`)."""
    me = owner_name(probe)
    people = [r for r in probe.contacts()
              if r["display_name"] and split_address(r["postal_address"]) is not None
              and not same_name(r["display_name"], me) and (where is None or where(r))]
    row = choice(rng, people)
    order = choice(rng, [o for o in probe.query("shopping/orders")
                         if o["status"] == "Delivered"])
    return {"order_id": order["_id"], "contact_id": int(row["_id"]),
            "recipient": row["display_name"]}


def make_gift(device: Device, params: dict[str, Any]) -> None:
    """Setup: the order went to the contact's home address, under their name."""
    rows = device.probe.contacts()
    name = next(r["display_name"] for r in rows if r["_id"] == params["contact_id"])
    device.fixture("shopping", "ship_order_to", order_id=params["order_id"],
                   name=name, **contact_address(rows, params["contact_id"]))


def read_recipient(device: Device, order_id: str) -> Iterator[Action]:
    """Open the order and scroll its shipping address into view (the name is the line above
    the address, see :func:`recipient_on_screen`)."""
    yield from open_order(device, order_id)
    yield from scroll_to(device, rid="order_address")


def recipient_on_screen(device: Device) -> str:
    """The recipient's name on an open order's page."""
    i = find(device, rid="order_address")
    if i is None or i == 0:
        raise OracleError("no shipping address on screen")
    return elements(device)[i - 1].text or ""
