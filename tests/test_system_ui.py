"""System UI behaviour that tasks rely on: the soft keyboard, back, home, dialogs, toasts."""

from __future__ import annotations

from phoneworld_gym.contract import Action
from phoneworld_gym.oracle import find, tap
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.view import Icon, Text


def _key(device: PhoneWorldDevice, label: str) -> tuple[int, int]:
    """Centre of the keyboard key drawn with this label or icon (keys are not in the dump)."""
    for v in device.screen.root.walk():
        if not isinstance(v, (Text, Icon)) or v.on_click is None or v.clip is None:
            continue
        name = v.text if isinstance(v, Text) else v.name
        if name == label and v.box[1] > 1400:  # the keyboard sits above the navigation bar
            x1, y1, x2, y2 = v.clip
            return (x1 + x2) // 2, (y1 + y2) // 2
    raise AssertionError(f"no key {label!r} on screen")


def _search_text(device: PhoneWorldDevice) -> str:
    i = find(device, rid="search_bar")
    assert i is not None
    return device.ui_elements()[i].text or ""


def test_keys_type_letters_digits_and_symbols():
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    assert d.execute(tap(d, rid="search_bar")) == ""
    # shift capitalises one letter; ?123 shows digits and symbols; ABC comes back
    for label in ("arrow_up", "B", "e", "?123", "5", "@", "ABC", "x", "backspace", "y"):
        x, y = _key(d, label)
        assert d.execute(Action("click", x=x, y=y)) == "", label
    assert _search_text(d) == "Be5@y"


def test_enter_key_submits_the_text_typed_on_the_keyboard():
    d = PhoneWorldDevice(apps=["shopping"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Shopping"))
    assert d.execute(tap(d, rid="search_bar")) == ""
    for label in ("t", "e", "a", "turn_down_left"):  # the last is ENTER
        x, y = _key(d, label)
        assert d.execute(Action("click", x=x, y=y)) == "", label
    top = d.world.stacks["shopping"][-1]
    assert top["screen"] == "search" and top["args"]["query"] == "tea"
    assert d.world.focus is None  # the results screen has no focus yet


def test_back_hides_keyboard_first_then_leaves_screen():
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, desc="Create contact"))
    d.execute(tap(d, rid="field_first"))
    assert d.world.focus == "first"
    d.execute(Action("navigate_back"))
    assert d.world.focus is None and find(d, rid="field_first") is not None
    d.execute(Action("navigate_back"))
    assert find(d, rid="field_first") is None and find(d, rid="search_bar") is not None
    d.execute(Action("navigate_back"))
    assert d.probe.foreground_app() == "com.google.android.apps.nexuslauncher"


def test_dialog_is_modal_and_back_closes_it():
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, rid="contact_title"))
    d.execute(tap(d, desc="Delete"))
    assert find(d, text="Delete contact?") is not None
    assert find(d, desc="Edit contact") is None  # the screen under the dialog is not dumped
    before = d.world.stores["contacts"]["contacts"][:]
    d.execute(Action("navigate_back"))
    assert find(d, text="Delete contact?") is None and find(d, desc="Edit contact") is not None
    assert d.world.stores["contacts"]["contacts"] == before


def test_toast_shows_for_two_observations_then_goes():
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, rid="contact_title"))
    d.execute(tap(d, desc="Copy mobile"))
    assert d.world.toast is not None and d.world.clipboard.startswith("+1")
    d.execute(Action("wait"))
    assert d.world.toast is not None
    d.execute(Action("wait"))
    assert d.world.toast is None


def test_long_press_on_a_field_pastes_the_clipboard():
    d = PhoneWorldDevice(apps=["contacts"])
    d.reset(0)
    d.world.clipboard = "Xu"
    d.execute(Action("open_app", app_name="Contacts"))
    i = find(d, rid="search_bar")
    assert d.execute(Action("long_press", index=i)) == ""
    assert _search_text(d) == "Xu"


def test_open_app_resumes_where_the_user_left():
    d = PhoneWorldDevice()
    d.reset(0)
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, rid="contact_title"))
    d.execute(Action("navigate_home"))
    d.execute(Action("open_app", app_name="contacts"))
    assert find(d, desc="Edit contact") is not None


def test_overview_lists_recent_apps_and_resumes_them():
    d = PhoneWorldDevice()
    d.reset(0)
    overview = Action("click", x=900, y=2337)  # the right third of the navigation bar
    assert d.execute(overview) == ""
    assert find(d, text="No recent items") is not None
    d.execute(Action("open_app", app_name="Shopping"))
    d.execute(Action("open_app", app_name="Contacts"))
    d.execute(tap(d, rid="contact_title"))
    d.execute(overview)
    cards = [e.content_description for e in d.ui_elements() if e.resource_id and
             e.resource_id.endswith("/snapshot")]
    assert cards == ["Contacts", "Shopping"]
    assert d.screenshot()[200:900, 50:300].std() > 10  # thumbnails are drawn
    d.execute(Action("navigate_back"))  # back leaves Overview for the last app, as it was
    assert find(d, desc="Edit contact") is not None
    d.execute(overview)
    d.execute(tap(d, desc="Shopping"))
    assert d.probe.foreground_app() == "com.phoneworld.shopping"
    d.execute(overview)
    d.execute(tap(d, rid="clear_all"))
    assert d.world.stacks == {} and d.world.recents == []
    assert d.probe.foreground_app() == "com.google.android.apps.nexuslauncher"


def test_notification_shade_opens_from_the_status_bar_and_its_card_opens_the_app():
    d = PhoneWorldDevice(apps=["contacts", "shopping"])
    d.reset(0)
    notes = d.world.notifications
    assert notes and notes[0]["app"] == "shopping"  # a shipped order posts an update
    order_id = notes[0]["args"]["id"]
    assert d.execute(Action("swipe", direction="down", x=540, y=20)) == ""
    assert d.probe.foreground_app() == "com.android.systemui"
    assert find(d, text=notes[0]["title"]) is not None
    d.execute(Action("navigate_back"))  # back closes the shade
    assert d.probe.foreground_app() == "com.google.android.apps.nexuslauncher"
    d.execute(Action("swipe", direction="down", x=540, y=20))
    d.execute(tap(d, text=f"Your order {order_id} has shipped"))
    assert d.probe.foreground_app() == "com.phoneworld.shopping"
    assert find(d, text=f"Order {order_id}") is not None and d.world.notifications == []
    d.execute(Action("swipe", direction="down", x=540, y=20))
    assert find(d, text="No notifications") is not None
    d.execute(Action("swipe", direction="up", x=540, y=1200))  # swiping up puts it away
    assert d.probe.foreground_app() == "com.phoneworld.shopping"


def test_clear_all_notifications():
    d = PhoneWorldDevice()
    d.reset(0)
    d.execute(Action("swipe", direction="down", x=300, y=10))
    d.execute(tap(d, text="Clear all"))
    assert d.world.notifications == [] and not d.world.shade


def test_placing_an_order_posts_a_notification_that_opens_it():
    import gymnasium

    env = gymnasium.make("PhoneWorld/ShoppingBuyExpress-v0", obs_mode="a11y")
    env.reset(seed=0)
    d = env.unwrapped.device
    before = len(d.world.notifications)
    for action in env.unwrapped.oracle():
        env.step(action)
    new = d.world.notifications[before:]
    assert len(new) == 1 and new[0]["title"].endswith("placed")
    order_id = new[0]["args"]["id"]
    d.execute(Action("navigate_home"))
    d.execute(Action("swipe", direction="down", x=540, y=20))
    d.execute(tap(d, text=new[0]["title"]))
    assert find(d, text=f"Order {order_id}") is not None


def test_real_fonts_are_installed():
    """Pictures are only identical across machines with the packaged fonts."""
    from phoneworld_gym.ui.fonts import have_real_fonts

    assert have_real_fonts()
