"""Input dispatch: what each contract action does to the simulated phone.

:class:`InputDispatcher` resolves an action's target (an element index or a point) on the
current frame and hands it to one small handler per action type (:attr:`HANDLERS`). It also
carries out the touch mechanics (tap, long press, scroll) and the soft keyboard's keys, and
ages the toast after each action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from phoneworld_gym.contract import Action, action_seconds, swipe_finger
from phoneworld_gym.host import InputHost
from phoneworld_gym.system import chrome, realism
from phoneworld_gym.ui.view import Refused, TextField, find_scrollable, hit_test
from phoneworld_gym.world import World

_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


class InputDispatcher:
    """Carries out actions on a :class:`~phoneworld_gym.phone.PhoneWorldDevice`."""

    def __init__(self, device: InputHost):
        self._device = device

    @property
    def world(self) -> World:
        return self._device.world

    # -- one step --------------------------------------------------------------------------
    def execute(self, action: Action) -> str:
        """Carry out one action. Returns an error sentence for a meaningless action (nothing
        changes then), else ``""``."""
        d = self._device
        d.reaching()
        clock = self.world.clock
        self.world.advance(action_seconds(action.action_type, action.text))
        shown_toast = self.world.toast
        before = self.world.top() if self.world.realism else None
        err = self.HANDLERS[action.action_type](self, action)
        if before is not None:  # a network screen shown before this action has loaded
            realism.settle(self.world, before)
            d.touched()
        if err:
            self.world.clock = clock  # a refused action changes nothing, the clock included
            return err
        w = self.world
        # a toast already showing ages by one step; one this action raised starts fresh (aged
        # before the frame is checked, so a step with a toast builds one frame, not two)
        if w.toast is not None and w.toast is shown_toast \
                and action.action_type not in ("status", "answer"):
            w.toast["ttl"] -= 1
            if w.toast["ttl"] <= 0:
                w.toast = None
        d.touched()
        # focus does not outlive its field (the screen changed under it), nor stay under a
        # system window (the share sheet, a chooser, the shade, a permission dialog): the
        # keyboard goes away and the dump shows that window alone
        if w.focus is not None and (self.focused_field() is None or w.system_ui is not None
                                    or w.shade or d.compositor.pending_permission() is not None):
            w.focus = None
            d.touched()
        return ""

    # -- targets ---------------------------------------------------------------------------
    def point(self, action: Action) -> tuple[int, int] | str:
        """The device pixel an action aims at (the centre of its element), or an error."""
        if action.index is not None:
            views = self._device.screen.element_views
            if action.index >= len(views):
                return (f"no element with index {action.index}; this screen has "
                        f"{len(views)} elements (0..{len(views) - 1})")
            clip = views[action.index].clip
            assert clip is not None
            return (clip[0] + clip[2]) // 2, (clip[1] + clip[3]) // 2
        assert action.x is not None and action.y is not None
        return int(action.x), int(action.y)

    def _optional_point(self, action: Action) -> tuple[int, int] | str | None:
        """:meth:`point` for actions whose target is optional (None when there is none)."""
        if action.index is None and action.x is None:
            return None
        return self.point(action)

    # -- handlers, one per action type -----------------------------------------------------
    def _click(self, a: Action) -> str:
        p = self.point(a)
        return p if isinstance(p, str) else self.tap(*p)

    def _double_tap(self, a: Action) -> str:
        p = self.point(a)
        if isinstance(p, str):
            return p
        err = self.tap(*p)
        if not err:
            self._device.touched()
            self.tap(*p)  # the first tap landed; a second that hits nothing is no error
        return err

    def _long_press(self, a: Action) -> str:
        p = self.point(a)
        return p if isinstance(p, str) else self.long_press(*p)

    def _input_text(self, a: Action) -> str:
        p = self._optional_point(a)
        if isinstance(p, str):
            return p
        if p is not None:
            hit = hit_test(self._device.screen.root, *p)
            if not isinstance(hit, TextField):
                return f"the element at {p} is not a text field"
            self.focus(hit.key)
            self._device.touched()
        f = self.focused_field()
        if f is None:
            return "no text field has focus; tap one first or give its index"
        assert a.text is not None
        f.insert(a.text, replace=bool(a.clear_text))
        # the submit handler comes from a frame built after typing: its closure (a draft
        # read when the screen was built) holds the text just typed
        self._device.touched()
        self.submit()
        return ""

    def edit(self, text: str, *, replace: bool = False) -> str:
        """Change the focused field's text without submitting it: what a key press or adb's
        ``input text`` does (the contract's ``input_text`` also presses enter)."""
        self._device.reaching()
        f = self.focused_field()
        if f is None:
            return "no text field has focus"
        f.insert(text, replace=replace)
        self._device.touched()
        return ""

    def _keyboard_enter(self, a: Action) -> str:
        if self.focused_field() is None:
            return "no text field has focus, so enter does nothing"
        self.submit()
        return ""

    def _scroll(self, a: Action) -> str:
        assert a.direction is not None
        p = self._optional_point(a)
        if isinstance(p, str):
            return p
        return self.scroll(a.direction) if p is None else self.scroll(a.direction, *p)

    def _swipe(self, a: Action) -> str:
        """A swipe, in AndroidWorld's meaning (:data:`~phoneworld_gym.contract.SWIPE_FINGER`:
        ``left`` moves the finger right): down from the status bar pulls the shade, up puts
        it away; elsewhere the content follows the finger (a swipe up scrolls down)."""
        assert a.direction is not None
        finger = swipe_finger(a.direction)
        start = self._optional_point(a)
        if isinstance(start, str):
            return start
        w = self.world
        if finger == "down" and start is not None \
                and start[1] < chrome.STATUS_BAR_H and not w.shade:
            w.shade = True  # pulled down from the status bar
            w.focus = None
            return ""
        if finger == "up" and w.shade:
            w.shade = False
            return ""
        if start is not None and finger in ("left", "right"):
            row = hit_test(self._device.screen.root, *start, swipe=True)
            if row is not None and row.on_swipe is not None:
                row.on_swipe(finger)  # swipe-to-dismiss, told the way the finger went
                return ""
        if finger == "up" and self._device.compositor.home_showing():
            self._device.compositor.open_drawer()  # a swipe up on home opens the app drawer
            return ""
        if start is None:
            return self.scroll(_OPPOSITE[finger])
        return self.scroll(_OPPOSITE[finger], *start)

    def _navigate_home(self, a: Action) -> str:
        self._device.home()
        return ""

    def _navigate_back(self, a: Action) -> str:
        self._device.back()
        return ""

    def _open_app(self, a: Action) -> str:
        assert a.app_name is not None
        return self._device.open_app(a.app_name)

    def _nothing(self, a: Action) -> str:
        """wait, status, answer, unknown: nothing happens on the phone."""
        return ""

    #: action type -> its handler
    HANDLERS: ClassVar[dict[str, Callable[[InputDispatcher, Action], str]]] = {
        "click": _click,
        "double_tap": _double_tap,
        "long_press": _long_press,
        "input_text": _input_text,
        "keyboard_enter": _keyboard_enter,
        "scroll": _scroll,
        "swipe": _swipe,
        "navigate_home": _navigate_home,
        "navigate_back": _navigate_back,
        "open_app": _open_app,
        "wait": _nothing,
        "status": _nothing,
        "answer": _nothing,
        "unknown": _nothing,
    }

    # -- touch -----------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> str:
        """A tap at device pixel (x, y): focus a text field, else click what is there."""
        hit = hit_test(self._device.screen.root, x, y)
        if hit is None:
            return f"nothing to tap at ({x}, {y})"
        if isinstance(hit, TextField):
            self.focus(hit.key)
            return ""
        if hit.on_click is not None:
            try:
                hit.on_click()
            except Refused as e:  # nothing changed: the handler says why
                return str(e)
        return ""

    def long_press(self, x: int, y: int) -> str:
        """A long press: the long-click handler there, else paste into a text field."""
        root = self._device.screen.root
        hit = hit_test(root, x, y, long=True)
        if hit is not None and hit.on_long_click is not None:
            try:
                hit.on_long_click()
            except Refused as e:
                return str(e)
            return ""
        field = hit_test(root, x, y)
        if isinstance(field, TextField):
            # the paste menu is folded into the long press: focus and paste the clipboard
            self.focus(field.key)
            if self.world.clipboard:
                field.insert(self.world.clipboard)
            return ""
        return f"nothing responds to a long press at ({x}, {y})"

    def scroll(self, direction: str, x: int | None = None, y: int | None = None,
               *, fraction: float = 0.6) -> str:
        """Scroll the container under (x, y) or the main one; ``down`` reveals content below."""
        if direction in ("left", "right"):
            return f"nothing scrolls {direction} on this screen"
        if direction == "down" and self._device.compositor.home_showing():
            self._device.compositor.open_drawer()  # scrolling the home screen opens the drawer
            return ""
        sc = find_scrollable(self._device.screen.root, x, y)
        if sc is None:
            return "nothing to scroll on this screen"
        vh = (sc.clip or sc.box)[3] - (sc.clip or sc.box)[1]
        dy = int(vh * fraction) * (1 if direction == "down" else -1)
        if not sc.scroll_by(dy):
            return f"already at the {'bottom' if direction == 'down' else 'top'}"
        return ""

    # -- keyboard --------------------------------------------------------------------------
    def focused_field(self) -> TextField | None:
        """The text field with keyboard focus on the current frame, if any."""
        return self._device.screen.text_field(self.world.focus)

    def focus(self, key: str) -> None:
        """Give keyboard focus to a field; the keyboard opens on letters, unshifted."""
        if self.world.focus != key:
            self.world.keyboard_layer = "letters"
            self.world.shift = False
        self.world.focus = key

    def submit(self) -> None:
        """The enter key: run the submit handler of the focused field on the current frame
        (which must be built after the last text change)."""
        f = self.focused_field()
        if f is not None and f.on_submit is not None:
            f.on_submit()

    def type_key(self, key: str) -> None:
        """A key of the soft keyboard: a character, or SHIFT, DEL, SYM, ABC, SPACE, ENTER."""
        f = self.focused_field()
        if f is None:
            return
        w = self.world
        if key == "SHIFT":
            w.shift = not w.shift
        elif key == "DEL":
            f.on_text(f.text[:-1])
        elif key == "ENTER":
            self.submit()
        elif key in ("SYM", "ABC"):
            w.keyboard_layer = "symbols" if key == "SYM" else "letters"
        else:
            ch = " " if key == "SPACE" else key.upper() if w.shift else key
            f.insert(ch)
            w.shift = False
