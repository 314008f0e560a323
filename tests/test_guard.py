"""The safety guard (``phoneworld_gym.real_device.guard``): each class of dangerous action is
refused, with a sentence and a record, and everything else is allowed, on hand-made screens of
real phone apps and on every PhoneWorld task's oracle. No adb needed."""

from __future__ import annotations

from typing import Any

import pytest

from phoneworld_gym import Action, PhoneEnv
from phoneworld_gym.contract import parse_ui_elements
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.real_device.guard import SafetyGuard, has_phrase, numbers_in
from phoneworld_gym.task import all_tasks, get_task

DIALER = "com.google.android.dialer"
MESSAGES = "com.google.android.apps.messaging"
SETTINGS = "com.android.settings"
SHOP = "com.example.shop"


#: apps where a tap may pay for something (the shop and the super-app's paying mini-apps)
PAYING_APPS = {"shopping", "bills", "coffee", "movies", "bike", "splitbill", "parcel", "bank",
               "food", "rides", "travel"}

def node(text: str = "", desc: str = "", rid: str = "", cls: str = "android.widget.TextView",
         bounds: tuple[int, int, int, int] = (0, 0, 100, 100), clickable: bool = True,
         focused: bool = False, pkg: str = "", kids: str = "") -> str:
    x1, y1, x2, y2 = bounds
    attrs = (f'index="0" text="{text}" resource-id="{rid}" class="{cls}" package="{pkg}" '
             f'content-desc="{desc}" checkable="false" checked="false" '
             f'clickable="{str(clickable).lower()}" enabled="true" focusable="true" '
             f'focused="{str(focused).lower()}" scrollable="false" long-clickable="false" '
             f'password="false" selected="false" bounds="[{x1},{y1}][{x2},{y2}]"')
    return f"<node {attrs}>{kids}</node>" if kids else f"<node {attrs} />"


def screen(pkg: str, *rows: dict[str, Any]) -> str:
    """A one-window dump: each row a node stacked 200 px below the previous one."""
    nodes = "".join(node(pkg=pkg, bounds=(0, 100 + 200 * i, 1080, 300 + 200 * i), **r)
                    for i, r in enumerate(rows))
    root = node(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), clickable=False,
                pkg=pkg, kids=nodes)
    return f"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">" \
           f"{root}</hierarchy>"


def tap(xml: str, label: str) -> Action:
    """A click on the element whose text or description is ``label``, by index."""
    for i, e in enumerate(parse_ui_elements(xml)):
        if label in (e.text, e.content_description):
            return Action("click", index=i)
    raise AssertionError(f"no {label!r}")


def test_numbers_and_phrases() -> None:
    assert numbers_in("call +1 (555) 010-0199 now, or 911") == ["15550100199", "911"]
    assert numbers_in("10:30 on Jan 5", 3) == []
    assert has_phrase("Pay $12.99", ["pay"]) == "pay"
    assert has_phrase("Payment methods", ["pay"]) is None
    assert has_phrase("PLACE   ORDER", ["place order"]) == "place order"
    assert has_phrase("place_order", ["place order"]) == "place order"
    g = SafetyGuard(allowed_numbers=["+1 555-010-0199", "911"])
    assert g.number_allowed("5550100199") and g.number_allowed("(555) 010 0199")
    assert g.number_allowed("911") and not g.number_allowed("112")
    assert g.number_allowed("010-0199")  # the same line dialled locally: 7+ digits match
    assert not g.number_allowed("10199")  # a shorter tail is another number


@pytest.mark.parametrize("label", ["Place order", "Buy now", "Pay $12.99", "Complete purchase",
                                   "Buy with Google Pay", "Confirm payment"])
def test_purchases_are_refused(label: str) -> None:
    g = SafetyGuard()
    xml = screen(SHOP, {"text": "Cart"}, {"text": label, "cls": "android.widget.Button"})
    why = g.check(tap(xml, label), xml)
    assert why.startswith("refused by the safety guard (purchase)") and label in why
    assert "not sent" in why
    # by coordinates too, and a button whose label is its description or resource id
    assert g.check(Action("click", x=540, y=400), xml)
    xml2 = screen(SHOP, {"desc": label, "cls": "android.widget.ImageButton"})
    assert g.check(Action("long_press", x=10, y=150), xml2)
    assert [r.rule for r in g.refusals] == ["purchase"] * 3
    assert g.refusals[0].action == {"action_type": "click", "index": 1}


@pytest.mark.parametrize("label", ["Add to cart", "Payment methods", "Display", "Buyer reviews",
                                   "Order history", "Checkout"])
def test_shopping_without_buying_is_allowed(label: str) -> None:
    g = SafetyGuard()
    xml = screen(SHOP, {"text": label})
    assert g.check(tap(xml, label), xml) == ""
    assert g.refusals == []


@pytest.mark.parametrize("label", ["Uninstall", "Erase all data (factory reset)", "Clear storage",
                                   "Reset phone", "Remove account"])
def test_uninstall_reset_and_wipes_are_refused(label: str) -> None:
    g = SafetyGuard()
    xml = screen(SETTINGS, {"text": "App info"}, {"text": label})
    assert "(destructive)" in g.check(tap(xml, label), xml)
    # a launcher's long-press menu too: the rule holds in every app
    xml = screen("com.google.android.apps.nexuslauncher", {"text": label})
    assert "(destructive)" in g.check(tap(xml, label), xml)


def test_settings_allow_list() -> None:
    g = SafetyGuard(allowed_settings=("Wi-Fi", "Display", "Dark theme"))
    xml = screen(SETTINGS, {"desc": "Navigate up"}, {"text": "Wi-Fi"},
                 {"text": "Dark theme", "kids": node(text="", pkg=SETTINGS,
                                                      bounds=(900, 500, 1000, 600))},
                 {"text": "Developer options"}, {"text": "Security"})
    assert g.check(tap(xml, "Wi-Fi"), xml) == ""
    assert g.check(tap(xml, "Navigate up"), xml) == ""
    assert g.check(Action("click", x=950, y=550), xml) == ""  # the switch in the allowed row
    for label in ("Developer options", "Security"):
        why = g.check(tap(xml, label), xml)
        assert "(settings)" in why and label in why
    for a in (Action("scroll", direction="down"), Action("navigate_back"),
              Action("input_text", text="wifi", x=540, y=200)):
        assert g.check(a, xml) == ""
    # without an allow-list, settings are left to the other rules
    assert SafetyGuard().check(tap(xml, "Developer options"), xml) == ""
    # and the allow-list is about settings apps only
    other = screen(SHOP, {"text": "Security"})
    assert g.check(tap(other, "Security"), other) == ""


def test_calls_and_sms_to_unlisted_numbers_are_refused() -> None:
    g = SafetyGuard(allowed_numbers=["+1 555-010-0199"])
    digits = {"rid": f"{DIALER}:id/digits", "cls": "android.widget.EditText", "focused": True}
    dialer = screen(DIALER, digits, {"desc": "dial", "rid": f"{DIALER}:id/dialpad_fab"})
    # typing a number into the dialer
    assert "(calls)" in g.check(Action("input_text", text="911"), dialer)
    assert "(calls)" in g.check(Action("input_text", text="(555) 123-4567", index=0), dialer)
    assert g.check(Action("input_text", text="555 010 0199"), dialer) == ""
    # the dial button while the digits field holds an unlisted number, then a listed one
    full = screen(DIALER, {**digits, "text": "112"}, {"desc": "dial"})
    assert "(calls)" in g.check(tap(full, "dial"), full)
    ok = screen(DIALER, {**digits, "text": "+15550100199"}, {"desc": "dial"})
    assert g.check(tap(ok, "dial"), ok) == ""
    # a recent-calls row that shows an unlisted number
    recents = screen(DIALER, {"text": "555-867-5309", "desc": "Call back"})
    assert "(calls)" in g.check(tap(recents, "555-867-5309"), recents)
    # messaging: the recipient field, and typing a body in a conversation with a stranger
    to = {"rid": f"{MESSAGES}:id/recipient_text_view", "cls": "android.widget.EditText",
          "focused": True}
    compose = screen(MESSAGES, to)
    assert "(calls)" in g.check(Action("input_text", text="+44 7700 900123"), compose)
    assert g.check(Action("input_text", text="+1 555 010 0199"), compose) == ""
    body = {"rid": f"{MESSAGES}:id/compose_message_text", "cls": "android.widget.EditText",
            "focused": True}
    stranger = screen(MESSAGES, {"text": "(555) 867-5309"}, body)
    assert "(calls)" in g.check(Action("input_text", text="hi"), stranger)
    friend = screen(MESSAGES, {"text": "+1 555-010-0199"}, body)
    assert g.check(Action("input_text", text="room 1234 at 5pm"), friend) == ""
    # open_app with a number in it
    assert "(calls)" in g.check(Action("open_app", app_name="tel:911"), None)
    assert g.check(Action("open_app", app_name="Phone"), None) == ""
    assert {r.rule for r in g.refusals} == {"calls"}


def test_call_button_in_contacts_with_a_number_on_screen() -> None:
    """PhoneWorld's own Contacts: the detail screen's Call button is refused (the number is
    on screen), and allowed once the number is on the allow-list."""
    d = PhoneWorldDevice()
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    first = next(i for i, e in enumerate(d.ui_elements())
                 if (e.resource_id or "").endswith("/contact_title"))
    d.execute(Action("click", index=first))
    xml = d.a11y_xml()
    call = tap(xml, "Call")
    why = SafetyGuard().check(call, xml)
    assert "(calls)" in why and "'Call'" in why
    number = d.probe.contacts()[0]["number"]
    shown = [r for r in d.probe.contacts() if r["number"] and r["number"] in xml]
    assert shown, number
    assert SafetyGuard(allowed_numbers=[shown[0]["number"]]).check(call, xml) == ""


def test_apps_allow_list() -> None:
    g = SafetyGuard(allowed_apps=["Contacts", "com.android.chrome"])
    assert g.check(Action("open_app", app_name="contacts"), None) == ""
    assert g.check(Action("open_app", app_name="Browser"), None, package="com.android.chrome") \
        == ""
    why = g.check(Action("open_app", app_name="Shopping"), None, package="com.example.shop")
    assert "(apps)" in why and "Shopping" in why
    assert SafetyGuard().check(Action("open_app", app_name="Shopping"), None) == ""


def test_navigation_is_always_allowed() -> None:
    g = SafetyGuard(allowed_settings=(), allowed_apps=())
    xml = screen(SETTINGS, {"text": "Factory reset"}, {"text": "Pay now"})
    for a in (Action("scroll", direction="down", index=0), Action("swipe", direction="up"),
              Action("navigate_back"), Action("navigate_home"), Action("keyboard_enter"),
              Action("wait"), Action("status", goal_status="complete"),
              Action("answer", text="Pay now")):
        assert g.check(a, xml) == "", a
    assert g.refusals == []


def test_every_oracle_passes_the_guard_except_purchases_and_texts() -> None:
    """Over every registered task's oracle (seed 0), the default guard refuses only the taps
    that place orders (in tasks that use Shopping) and texting numbers (in tasks that use
    Messages), and nothing else."""
    refused: dict[str, set[str]] = {}
    for task_id in all_tasks():
        env = PhoneEnv(tasks=task_id, obs_mode="a11y")
        env.reset(seed=0)
        g = SafetyGuard()
        for a in env.oracle():
            g.check(a, env.device.a11y_xml())
            *_, term, trunc, _ = env.step(a)
            if term or trunc:
                break
        env.close()
        if g.refusals:
            refused[task_id] = {r.rule for r in g.refusals}
    assert any("purchase" in rules for rules in refused.values()), \
        "no oracle places an order any more: pick another purchase example"
    for task_id, rules in refused.items():
        apps = get_task(task_id).apps
        assert rules <= {"purchase", "calls"}, (task_id, rules)
        # the guard is cautious in apps that take payments: opening "Pay Bills" is refused too
        assert "purchase" not in rules or set(apps) & PAYING_APPS, (task_id, rules)
        assert "calls" not in rules or "messages" in apps, (task_id, rules)


def test_a_message_that_mentions_paying_is_not_a_pay_button() -> None:
    """The purchase rule reads controls' labels: a long conversation preview that asks to be
    paid back is tapped through; a short "Pay" button in the same screen is refused."""
    g = SafetyGuard()
    preview = ("Kenji, I did our grocery run on Saturday, $115.62 in total. Your half is $57.81, "
               "could you pay me back by Sunday?")
    xml = screen("com.google.android.apps.messaging", {"text": preview})
    assert g.check(tap(xml, preview), xml) == ""
    xml = screen("com.google.android.apps.messaging", {"text": "Pay"})
    why = g.check(tap(xml, "Pay"), xml)
    assert "refused by the safety guard (purchase)" in why
