"""AndroidWorld's ``JSONAction``: the contract's own action text.

Coordinates: ``x``/``y`` are device pixels of the logical screen (1080 x 2400 on PhoneWorld),
integers, unchanged by the screenshot's size; ``index`` addresses the screen's element list.
Nothing is rescaled, so a round trip is exact. ``scroll`` names the way the content moves into
view (``down`` shows what is below; the finger moves up); ``swipe`` is AndroidWorld's: ``up``
and ``down`` name the finger's way, ``left`` and ``right`` the opposite of it (``swipe left``
drags from the left edge rightwards, as AndroidWorld's actuation does).
"""

from __future__ import annotations

from typing import ClassVar

from phoneworld_gym.contract import Action
from phoneworld_gym.formats.base import ActionFormat, Screen, json_objects, require_text

SYSTEM_PROMPT = (
    "You control an Android phone to reach the user's goal, one action per turn. Each turn "
    "shows the goal, what you did so far and the current screen (its numbered elements, and a "
    "screenshot when there is one). Answer with a single JSON object on one line naming the "
    "next action:\n"
    '{"action_type": "click", "index": 4}  (or "x", "y" in screen pixels; also '
    '"double_tap", "long_press")\n'
    '{"action_type": "input_text", "index": 2, "text": "hello", "clear_text": true}  '
    "(taps the field, types, presses enter)\n"
    '{"action_type": "scroll", "direction": "down"}  (down shows what is below; may take '
    '"index")\n'
    '{"action_type": "swipe", "direction": "up"}  (up/down: the finger\'s direction; '
    'left/right: the opposite of it)\n'
    '{"action_type": "open_app", "app_name": "Messages"}\n'
    '{"action_type": "navigate_back"}, {"action_type": "navigate_home"}, '
    '{"action_type": "keyboard_enter"}, {"action_type": "wait"}\n'
    '{"action_type": "answer", "text": "42"}  (ends the task with the answer to a question)\n'
    '{"action_type": "status", "goal_status": "complete"}  (or "infeasible"; ends the task)'
)


class AndroidWorldFormat(ActionFormat):
    """AndroidWorld ``JSONAction`` JSON, read with :meth:`Action.from_json` (the first JSON
    object with an ``action_type`` in the reply, so prose or code fences around it are fine)
    and written with :meth:`Action.to_json_str`."""

    name: ClassVar[str] = "androidworld"
    convention: ClassVar[str] = "device pixels (x, y) or an element index; no rescaling"

    def parse(self, text: str, screen: Screen | None = None) -> Action:
        reply = require_text(text)
        stripped = reply.strip()
        if stripped.startswith("{"):
            try:
                return Action.from_json(stripped)
            except ValueError:
                pass  # perhaps JSON followed by prose: look for the object below
        for obj in json_objects(reply):
            if "action_type" in obj:
                return Action.from_json(obj)
        raise ValueError(f"no JSON object with an action_type in the reply {reply[:80]!r}")

    def write(self, action: Action, screen: Screen) -> str:
        return action.to_json_str()

    def steps(self, action: Action, screen: Screen | None = None) -> list[Action]:
        if not isinstance(action, Action):
            raise ValueError(f"steps takes an Action, got {type(action).__name__}")
        return [action]

    def system_prompt(self, screen: Screen | None = None) -> str:
        return SYSTEM_PROMPT
