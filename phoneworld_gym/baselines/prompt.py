"""Prompts for language-model agents, and the action text they are trained to emit.

One format is shared by every language-model path (a local causal LM, a local VLM, an
OpenAI-compatible endpoint, SFT and RL), so a model trained on one runs on the others:

- :func:`build_messages` gives chat messages: a system message with the action vocabulary, and
  a user message with the goal, the previous actions (with their errors) and the screen's
  numbered element list (plus the screenshot as an image part, if given).
- :func:`build_prompt` flattens those messages into one text for a causal LM without a chat
  template (:func:`messages_to_prompt`); the completion starts right after it.
- :func:`format_action` is the completion a model should emit: AndroidWorld ``JSONAction``
  JSON on one line. :func:`parse_action` finds the first valid action in a reply, tolerating
  prose, code fences and extra keys around it, and returns None when there is none.

``parse_action(format_action(a)) == a`` for every action of the contract.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from phoneworld_gym.contract import (
    ACTION_TYPES,
    Action,
    UIElement,
    parse_ui_elements,
)

#: How many previous actions a prompt shows (the most recent ones).
MAX_HISTORY = 8
#: The most characters of a reply :func:`parse_action` reads (longer replies are cut there).
MAX_REPLY = 20_000
#: The most characters of one element's text or description shown in a prompt.
MAX_LABEL = 120

SYSTEM = (
    "You operate an Android phone to achieve the user's goal. Each turn you see the goal, "
    "your previous actions and the screen's numbered UI elements, and you reply with ONE next "
    "action as a JSON object on one line. Action types:\n"
    '{"action_type": "click", "index": N} (also double_tap, long_press; or "x", "y" pixels)\n'
    '{"action_type": "input_text", "index": N, "text": "...", "clear_text": true}\n'
    '{"action_type": "scroll", "direction": "down"} (up/down/left/right; may take "index")\n'
    '{"action_type": "swipe", "direction": "left"}\n'
    '{"action_type": "open_app", "app_name": "Contacts"}\n'
    '{"action_type": "navigate_back"}, {"action_type": "navigate_home"}, '
    '{"action_type": "keyboard_enter"}, {"action_type": "wait"}\n'
    '{"action_type": "answer", "text": "..."} (ends the task with an answer to a question)\n'
    '{"action_type": "status", "goal_status": "complete"} (or "infeasible"; ends the task)'
)
INSTRUCTION = "Reply with the next action as one JSON object."
#: Role markers of the flat prompt (plain text, not special tokens).
ROLE_MARKERS = {"system": "<|system|>", "user": "<|user|>", "assistant": "<|assistant|>"}


@dataclasses.dataclass(frozen=True)
class Turn:
    """One previous step as a prompt shows it: the action taken (None when the model's reply
    held no valid action), the ``action_error`` the env reported, and the raw reply."""

    action: Action | None
    error: str = ""
    reply: str = ""


HistoryItem = Turn | Action | Mapping[str, Any] | tuple[Any, ...]


def as_turn(item: HistoryItem) -> Turn:
    """Normalise a history entry: a :class:`Turn`, an :class:`Action`, an AndroidWorld JSON
    dict, or a tuple ``(action, error)``; ``ValueError`` for anything else."""
    if isinstance(item, Turn):
        return item
    if isinstance(item, Action):
        return Turn(item)
    if isinstance(item, Mapping):
        return Turn(Action.from_json(item))
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str):
        action = item[0]
        return Turn(None if action is None else Action.from_any(action), item[1])
    raise ValueError(f"a history entry must be a Turn, an Action, an action dict or a tuple "
                     f"(action, error), got {type(item).__name__}: {str(item)[:80]!r}")


# -- the element list -----------------------------------------------------------------------
def _quote(text: str) -> str:
    """A label as a JSON string on one line, cut to :data:`MAX_LABEL` characters (so screen
    text can neither break the list's lines nor flood the prompt)."""
    if len(text) > MAX_LABEL:
        text = text[:MAX_LABEL] + "…"
    return json.dumps(text, ensure_ascii=False)


def format_element(index: int, e: UIElement) -> str:
    """One element: ``[3] Button text="Add to cart" clickable (42,1200,520,1305)``: index,
    class, text, hint, description (when it differs from the text), resource name, state flags
    and pixel bounds."""
    parts = [f"[{index}]", (e.class_name or "View").rsplit(".", 1)[-1]]
    if e.text:
        parts.append(f"text={_quote(e.text)}")
    if e.hint_text and e.hint_text != e.text:
        parts.append(f"hint={_quote(e.hint_text)}")
    if e.content_description and e.content_description != e.text:
        parts.append(f"desc={_quote(e.content_description)}")
    if e.resource_id:
        parts.append(f"id={e.resource_id.rsplit('/', 1)[-1]}")
    flags = [name for name, on in (("clickable", e.is_clickable), ("editable", e.is_editable),
                                   ("scrollable", e.is_scrollable), ("selected", e.is_selected),
                                   ("focused", e.is_focused)) if on]
    if e.is_checkable:
        flags.append("checked" if e.is_checked else "unchecked")
    if e.is_enabled is False:
        flags.append("disabled")
    parts += flags
    b = e.bbox_pixels
    if b is not None:
        parts.append(f"({int(b.x_min)},{int(b.y_min)},{int(b.x_max)},{int(b.y_max)})")
    return " ".join(parts)


def format_elements(elements: Sequence[UIElement] | str) -> str:
    """The numbered element list, one line each (``elements`` may be the a11y XML)."""
    if isinstance(elements, str):
        elements = parse_ui_elements(elements)
    if not elements:
        return "(no elements)"
    return "\n".join(format_element(i, e) for i, e in enumerate(elements))


def format_history(history: Sequence[HistoryItem], max_history: int = MAX_HISTORY) -> str:
    """The last ``max_history`` steps, numbered from the episode's first step, each with its
    action JSON and ``-> error: ...`` when the env reported one."""
    turns = [as_turn(h) for h in history]
    if not turns:
        return "(none)"
    start = max(0, len(turns) - max_history)
    lines = [f"({start} earlier actions not shown)"] if start else []
    for i, t in enumerate(turns[start:], start + 1):
        if t.action is None:
            text = f"(no valid action in reply {_quote(t.reply[:MAX_LABEL])})"
        else:
            text = format_action(t.action)
        if t.error:
            text += f" -> error: {t.error}"
        lines.append(f"{i}. {text}")
    return "\n".join(lines)


# -- messages and prompts -------------------------------------------------------------------
def image_data_url(screenshot: Any) -> str:
    """A screenshot (``uint8`` array ``(H, W, 3)`` or a PIL image) as a PNG data URL."""
    from PIL import Image

    if isinstance(screenshot, np.ndarray):
        if screenshot.dtype != np.uint8 or screenshot.ndim != 3 or screenshot.shape[2] != 3:
            raise ValueError(f"a screenshot must be a uint8 (H, W, 3) array, got "
                             f"{screenshot.dtype} {screenshot.shape}")
        screenshot = Image.fromarray(screenshot)
    if not isinstance(screenshot, Image.Image):
        raise ValueError(f"a screenshot must be an array or a PIL image, got "
                         f"{type(screenshot).__name__}")
    buf = io.BytesIO()
    screenshot.convert("RGB").save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def user_text(goal: str, elements: Sequence[UIElement] | str,
              history: Sequence[HistoryItem] = (), *, max_history: int = MAX_HISTORY) -> str:
    """The user message's text: goal, previous actions, screen elements, instruction."""
    if not isinstance(goal, str):
        raise ValueError(f"goal must be a str, got {type(goal).__name__}")
    return (f"Goal: {goal}\n\nPrevious actions:\n{format_history(history, max_history)}\n\n"
            f"Screen elements:\n{format_elements(elements)}\n\n{INSTRUCTION}")


def build_messages(goal: str, elements: Sequence[UIElement] | str,
                   history: Sequence[HistoryItem] = (), *, screenshot: Any = None,
                   max_history: int = MAX_HISTORY) -> list[dict[str, Any]]:
    """Chat messages (OpenAI format) for one step. With ``screenshot``, the user message's
    content is a list of parts: the image as a PNG data URL, then the text."""
    text = user_text(goal, elements, history, max_history=max_history)
    content: Any = text
    if screenshot is not None:
        content = [{"type": "image_url", "image_url": {"url": image_data_url(screenshot)}},
                   {"type": "text", "text": text}]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": content}]


def message_text(message: Mapping[str, Any]) -> str:
    """The text of a message: its content string, or its text parts joined (images dropped).
    ``ValueError`` for a message that is not ``{"role": ..., "content": ...}``."""
    if not isinstance(message, Mapping) or "content" not in message:
        raise ValueError(f"a message must be a dict with 'role' and 'content', got "
                         f"{str(message)[:80]!r}")
    content = message["content"]
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content
                         if isinstance(p, Mapping) and p.get("type") == "text"
                         and isinstance(p.get("text"), str))
    raise ValueError(f"message content must be a str or a list of parts, got "
                     f"{type(content).__name__}")


def messages_to_prompt(messages: Sequence[Mapping[str, Any]]) -> str:
    """Chat messages as one text for a causal LM without a chat template: each message after
    its role marker, ending with the assistant marker (the completion follows it)."""
    out = []
    for m in messages:
        role = m.get("role") if isinstance(m, Mapping) else None
        if role not in ROLE_MARKERS:
            raise ValueError(f"message role must be one of {sorted(ROLE_MARKERS)}, got {role!r}")
        out.append(f"{ROLE_MARKERS[role]}\n{message_text(m)}\n")
    return "".join(out) + ROLE_MARKERS["assistant"] + "\n"


def build_prompt(goal: str, elements: Sequence[UIElement] | str,
                 history: Sequence[HistoryItem] = (), *,
                 max_history: int = MAX_HISTORY) -> str:
    """The flat text prompt: ``messages_to_prompt(build_messages(...))`` without an image.
    The completion (:func:`format_action`) starts right after it."""
    return messages_to_prompt(build_messages(goal, elements, history, max_history=max_history))


# -- actions as text ------------------------------------------------------------------------
def format_action(action: Action) -> str:
    """The completion for ``action``: its AndroidWorld JSON on one line (fields in the
    contract's order, non-ASCII text kept as is)."""
    if not isinstance(action, Action):
        raise ValueError(f"format_action takes an Action, got {type(action).__name__}")
    return json.dumps(action.to_json(), ensure_ascii=False)


#: The key a named reply puts the element's name under (an extra key: parsers, ours and
#: AndroidWorld's, read the action from ``index`` and drop it).
NAME_KEY = "element"


def element_name(e: UIElement) -> str:
    """What a person would call an element: its text, else its description, else its hint,
    else its resource name, else its class (cut as the element list cuts labels)."""
    name = (e.text or e.content_description or e.hint_text
            or (e.resource_id or "").rsplit("/", 1)[-1]
            or (e.class_name or "View").rsplit(".", 1)[-1])
    name = " ".join(name.split())
    return name[:MAX_LABEL] + "…" if len(name) > MAX_LABEL else name


def format_reply(action: Action, elements: Sequence[UIElement] | str | None = None, *,
                 named: bool = False) -> str:
    """The completion a model writes for ``action``: :func:`format_action`, or with
    ``named`` the same JSON with the element's name (:func:`element_name`) before its index:
    ``{"action_type": "click", "element": "Wi-Fi", "index": 3}``.

    A named reply makes choosing an element a copy of words the goal or the screen holds
    (written first, then the index among the elements of that name), where a bare index
    asks the model to find the element and write its number. It parses to the same action
    (:func:`parse_action` ignores the extra key). ``ValueError`` if ``named`` and the index
    is not one of ``elements``."""
    if not named or action.index is None:
        return format_action(action)
    if isinstance(elements, str):
        elements = parse_ui_elements(elements)
    if elements is None or not 0 <= action.index < len(elements):
        raise ValueError(f"a named reply needs the screen's element {action.index}; the "
                         f"screen has {0 if elements is None else len(elements)} elements")
    obj = action.to_json()
    out = {"action_type": obj.pop("action_type"), NAME_KEY: element_name(elements[action.index])}
    out.update(obj)
    return json.dumps(out, ensure_ascii=False)


_FIELDS = frozenset(f.name for f in dataclasses.fields(Action))
_INT = re.compile(r"\s*-?\d+\s*")
_DECODER = json.JSONDecoder()


def _action_from_dict(obj: dict[str, Any]) -> Action | None:
    """An action from a decoded object, tolerating extra keys (``"reason"``), integers given
    as strings and ``"true"``/``"false"`` for ``clear_text``; None if it is still invalid."""
    if obj.get("action_type") not in ACTION_TYPES:
        return None
    clean = {k: v for k, v in obj.items() if k in _FIELDS and v is not None}
    for k in ("index", "x", "y"):
        if isinstance(clean.get(k), str) and _INT.fullmatch(clean[k]):
            clean[k] = int(clean[k])
    if isinstance(clean.get("clear_text"), str) and clean["clear_text"].lower() in (
            "true", "false"):
        clean["clear_text"] = clean["clear_text"].lower() == "true"
    try:
        return Action.from_json(clean)
    except ValueError:
        return None


def parse_action(text: str) -> Action | None:
    """The first valid action in a model's reply, or None.

    Every ``{`` of the reply (its first :data:`MAX_REPLY` characters) is tried as the start of
    a JSON object, so prose, code fences and wrappers such as ``{"action": {...}}`` around the
    action do not matter; an object that is not a valid action is skipped.
    """
    if not isinstance(text, str):
        return None
    text = text[:MAX_REPLY]
    for m in re.finditer(r"\{", text):
        try:
            obj, _ = _DECODER.raw_decode(text, m.start())
        except (ValueError, RecursionError):
            continue
        if isinstance(obj, dict):
            action = _action_from_dict(obj)
            if action is not None:
                return action
    return None


# -- constrained decoding -------------------------------------------------------------------
#: Numbers a constrained answer may give besides the screen's texts (counts, mostly).
ANSWER_NUMBERS = tuple(str(n) for n in range(0, 31))
#: Actions that take no element.
_PLAIN = (Action("navigate_back"), Action("navigate_home"), Action("keyboard_enter"),
          Action("wait"), Action("scroll", direction="down"), Action("scroll", direction="up"),
          Action("status", goal_status="complete"), Action("status", goal_status="infeasible"))


#: The most values :func:`screen_values` takes from one screen, so that a screen full of
#: numbers (or a hostile one) cannot flood the candidates.
MAX_VALUES = 60

_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
          r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_WEEKDAY = (r"(?:Mon(?:day)?|Tue(?:s(?:day)?)?|Wed(?:nesday)?|Thu(?:r(?:s(?:day)?)?)?"
            r"|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)\.?,? ")
_NUM = r"\d[\d,]*(?:\.\d+)?"
_AMPM = r"[AaPp]\.?[Mm]\b\.?"
#: The kinds of value :func:`screen_values` finds inside a text, each a regex whose whole
#: match is the value.
VALUE_PATTERNS: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    rf"(?<![\w:.])\d{{1,2}}(?::\d{{2}})? ?{_AMPM}",                       # 8:00 PM, 4 PM
    rf"(?<![\w:.])\d{{1,2}}:\d{{2}}(?![\w:])(?! ?{_AMPM})",               # 14:05
    rf"\b(?:{_WEEKDAY})?{_MONTH} \d{{1,2}}(?:, \d{{4}})?(?![\d:])",       # Mar 8, 2026
    r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])",                             # 2026-03-08
    rf"[$€£]{_NUM}",                                                     # $80.25
    r"(?<![\w-])[A-Z]{1,5}-?\d{2,}(?![\w-])",                             # A-347, ORD-10290
    rf"(?<![\w.,:/$€£-]){_NUM} (?!{_AMPM})[A-Za-z]+",                     # 3.0 mi, 1,061 bytes
    rf"(?<![\w.,:/$€£-]){_NUM}(?![\w:/-]|[.,]\d)",                        # 37, 2,278
))
#: "Label: value": the value (a few words) is a candidate ("Status: Delivered").
_LABELLED = re.compile(r"^[A-Z][\w ]{0,24}: (.{1,40})$")
#: What screens put between the parts of one text ("A-347 · Small Latte").
_SEPARATOR = re.compile(r" [·•|] |\n")
#: A few words before a date ("Delivered Wed, Mar 4", "Expected Thu, Mar 19").
_DATED = re.compile(rf"^([A-Z][a-z]+(?: [a-z]+){{0,2}}) (?:{_WEEKDAY})?{_MONTH} \d")
#: A run of digits in a file name that reads as a date (IMG_20260201_130304.jpg).
_COMPACT_DATE = re.compile(r"(?<!\d)(20\d{2})(\d{2})(\d{2})(?!\d)")


def screen_values(texts: Sequence[str], limit: int = MAX_VALUES) -> list[str]:
    """The values inside a screen's ``texts`` a question may ask for, in screen order, each
    once, at most ``limit`` of them and none longer than :data:`MAX_LABEL`: the parts of a
    text made of parts ("Shipped · Arriving Mar 5" -> "Shipped"), the value after a label
    ("Password: juniper-7760"), times, dates (also a file name's ``20260201`` as
    "February 1, 2026"), money with and without its sign ("$80.25", "80.25"), codes
    ("ORD-10290"), numbers with the word after them ("1,061 bytes") and bare numbers."""
    out: dict[str, None] = {}

    def add(value: str) -> bool:
        value = value.strip(" .,;:()")
        if value and len(value) <= MAX_LABEL and value not in out:
            out[value] = None
        return len(out) >= limit

    for text in texts:
        text = text[:4 * MAX_LABEL]  # no value sits deeper in a text an agent reads
        parts = [p for p in _SEPARATOR.split(text) if p.strip()]
        found = list(parts) if len(parts) > 1 else []
        for part in parts:
            m = _LABELLED.match(part.strip())
            if m:
                found.append(m.group(1))
        for pattern in VALUE_PATTERNS:
            for m in pattern.finditer(text):
                found.append(m.group())
                if m.group()[0] in "$€£":
                    found.append(m.group()[1:])
        for part in parts:  # a state before a date: "Delivered Wed, Mar 4" -> "Delivered"
            m = _DATED.match(part.strip())
            if m:
                found.append(m.group(1))
        for m in _COMPACT_DATE.finditer(text):
            try:
                d = datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            except ValueError:
                continue
            found.append(f"{d:%B} {d.day}, {d.year}")
        for value in found:
            if add(value):
                return list(out)
    return list(out)


def candidate_actions(goal: str, elements: Sequence[UIElement] | str, *,
                      apps: Sequence[str] = (), typed: Sequence[str] = (),
                      answers: Sequence[str] = ANSWER_NUMBERS) -> list[Action]:
    """Every action a constrained agent may choose on this screen, each once.

    ``click`` and ``long_press`` on every element; ``input_text`` of each of ``typed`` (the
    strings the agent may type: by default the goal's quoted and capitalised spans) into every
    editable element; ``answer`` with each element's text, each goal span and each of
    ``answers``; ``open_app`` for each of ``apps``; and the actions that take no element
    (back, home, enter, wait, scroll up/down, complete, infeasible). Constrained decoding
    (``LMAgent(constrained=True)``) lets the model write only one of these, so a small model
    cannot emit a malformed action; which one it writes is still the model's choice.
    """
    from phoneworld_gym.baselines.sb3 import goal_values

    if not isinstance(goal, str):
        raise ValueError(f"goal must be a str, got {type(goal).__name__}")
    if isinstance(elements, str):
        elements = parse_ui_elements(elements)
    spans = list(typed) if typed else goal_values(goal, max_values=4)
    out: dict[str, Action] = {}

    def add(action: Action) -> None:
        out.setdefault(format_action(action), action)

    for i, e in enumerate(elements):
        add(Action("click", index=i))
        add(Action("long_press", index=i))
        if e.is_editable:
            for text in spans:
                add(Action("input_text", index=i, text=text, clear_text=True))
    for a in _PLAIN:
        add(a)
    for name in apps:
        add(Action("open_app", app_name=name))
    shown = [t for e in elements for t in (e.text, e.content_description) if t]
    texts = [e.text for e in elements if e.text] + spans + list(answers) + screen_values(shown)
    for text in texts:
        if text.strip() and len(text) <= MAX_LABEL:
            add(Action("answer", text=text))
    return list(out.values())
