"""Realism switches (phoneworld_gym.system.realism): off on the clean phone; in the field
profile, loading placeholders, promos and transient errors that leave tables as a person's
actions left them."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest

from phoneworld_gym.app import all_apps
from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.system import realism
from phoneworld_gym.virtual.field import FieldPhone


class _Settled(FieldPhone):
    """The field phone with its stale first dump read away after each action (the stale
    dumps are tested in test_field.py; here the question is what the current frame shows)."""

    def execute(self, action: Action) -> str:
        err = super().execute(action)
        self.a11y_xml()
        return err


def _field(seed: int) -> FieldPhone:
    d = _Settled(prompt_prob=0.0)  # the interstitial prompts are tested in test_field.py
    d.reset(seed)
    return d


def _schedule(seed: int) -> SimpleNamespace:
    """A stand-in world with the field profile's realism state for ``seed`` (the schedule
    depends on nothing else)."""
    world = SimpleNamespace(realism={})
    realism.enable(world, seed)
    return world


def _seed_where(pred: Callable[[SimpleNamespace], bool]) -> int:
    for seed in range(200):
        if pred(_schedule(seed)):
            return seed
    raise AssertionError("no seed in 0..199 draws this")


def _texts(d: PhoneWorldDevice) -> list[str]:
    return [e.text for e in d.ui_elements() if e.text]


def test_clean_phone_has_no_realism() -> None:
    d = PhoneWorldDevice()
    d.reset(3)
    assert d.world.realism == {}
    d.execute(Action("open_app", app_name="Weather"))
    assert find(d, desc="Loading") is None and find(d, rid="promo_title") is None


def test_a_network_screen_loads_after_one_action_whatever_it_is() -> None:
    d = _field(0)
    assert d.execute(Action("open_app", app_name="Weather")) == ""
    # first frame: the placeholder under the app's own package, no content
    spinner = find(d, desc="Loading")
    assert spinner is not None
    assert d.ui_elements()[spinner].class_name == "android.widget.ProgressBar"
    assert d.probe.foreground_app() == d.apps["weather"].package
    clean = PhoneWorldDevice()
    clean.reset(0)
    clean.execute(Action("open_app", app_name="Weather"))
    city = clean.ui_elements()[0].text or _texts(clean)[0]
    assert city not in _texts(d) or city == "Weather"
    # a wait: the content is there, the same as on the clean phone
    assert d.execute(Action("wait")) == ""
    assert find(d, desc="Loading") is None
    if find(d, rid="promo_title") is not None:
        d.execute(tap(d, text="No thanks"))
    assert _texts(d) == _texts(clean)


PROMO_APPS = sorted(a.name for a in all_apps().values() if a.promos)


@pytest.mark.parametrize("name", PROMO_APPS)
@pytest.mark.parametrize("how", ["No thanks", "Close", "back"])
def test_a_promo_shows_on_its_schedule_and_any_dismissal_keeps_tables(name: str,
                                                                      how: str) -> None:
    """Every app that declares promos: the promo opens over its main screen on the seeded
    schedule, and "No thanks", the close button or Back dismiss it for the episode, leaving
    the app in front and every table as it was."""
    app = all_apps()[name]
    seed = _seed_where(lambda w: realism.promo_due(w, app, app.main_screen) is not None)
    d = _field(seed)
    before = d.probe.snapshot()
    assert d.execute(Action("open_app", app_name=app.label)) == ""
    d.execute(Action("wait"))  # a network main screen loads
    i = find(d, rid="promo_title")
    assert i is not None
    assert d.ui_elements()[i].text in {p["title"] for p in app.promos}
    if how == "back":
        d.execute(Action("navigate_back"))
    elif how == "Close":
        d.execute(tap(d, desc="Close", rid="promo_close"))
    else:
        d.execute(tap(d, text="No thanks"))
    assert find(d, rid="promo_title") is None
    assert d.world.foreground == name, how  # back closed the promo, not the app
    d.execute(Action("navigate_home"))
    d.execute(Action("open_app", app_name=app.label))
    d.execute(Action("wait"))
    assert find(d, rid="promo_title") is None, "a dismissed promo stays dismissed"
    assert d.probe.snapshot() == before


def test_promo_schedule_is_seeded_and_spread() -> None:
    shopping = all_apps()["shopping"]
    shows = [realism.promo_due(_schedule(s), shopping, "home") is not None for s in range(100)]
    assert shows == [realism.promo_due(_schedule(s), shopping, "home") is not None
                     for s in range(100)]
    assert 30 < sum(shows) < 70  # PROMO_PROB = 0.5
    assert realism.promo_due(_schedule(next(s for s in range(100) if shows[s])), shopping,
                             "cart") is None, "promos show over the main screen only"


@pytest.mark.parametrize("fails", [True, False])
def test_a_flaky_request_fails_once_with_a_toast_and_changes_nothing(fails: bool) -> None:
    """Shopping's Place order in the field profile: where the schedule says so, the first
    tap shows the error toast and records no order; the next tap places it."""
    def first_fails(w: SimpleNamespace) -> bool:
        return realism.draw(w, "fail/shopping/place_order") < realism.FAIL_PROB

    seed = _seed_where(first_fails if fails else (lambda d: not first_fails(d)))
    d = _field(seed)
    product = next(p for p in d.probe.query("shopping/products")
                   if p["in_stock"] and not p["options"])
    d.fixture("shopping", "add_to_cart", lines=[{"product_id": product["_id"], "qty": 1}])
    d.execute(Action("open_app", app_name="Shopping"))
    d.execute(Action("wait"))
    if find(d, rid="promo_title") is not None:
        d.execute(tap(d, text="No thanks"))
    d.execute(tap(d, text="Cart"))
    d.execute(tap(d, rid="checkout"))
    start = {o["_id"] for o in d.probe.query("shopping/orders")}
    cart = sorted(line["product_id"] for line in d.probe.query("shopping/cart"))
    assert product["_id"] in cart
    orders = len(start)
    d.execute(tap(d, rid="place_order"))
    if fails:
        assert realism.ERROR_TOAST in _texts(d) or d.world.toast["text"] == realism.ERROR_TOAST
        assert len(d.probe.query("shopping/orders")) == orders
        assert find(d, rid="place_order") is not None  # still on checkout
        d.execute(tap(d, rid="place_order"))
    assert len(d.probe.query("shopping/orders")) == orders + 1
    new = [o for o in d.probe.query("shopping/orders") if o["_id"] not in start]
    assert sorted(i["product_id"] for i in new[0]["items"]) == cart
