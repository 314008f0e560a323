"""Grounding examples: "tap the element called X" on the suite's own screens, for SFT.

A small model trained from scratch on a few tasks' demonstrations learns to replay the
demonstrations' most common taps rather than to read the goal (the learning check's
SettingsSwitch probe in docs/results.md: the same two taps for every goal). These examples
teach the one skill that is missing, on screens of every train task: the goal names an
element by its words, the reply is the click on that element. They are made from screens
alone (no env step, no verifier), so thousands cost seconds; they are mixed into the SFT
data as their own source (``"grounding"``).

    screens = oracle_screens(["SettingsSwitch", "ContactsStar"], seeds=range(4))
    extra = grounding_examples(screens, 1000, eos=tok.eos_token, seed=0)
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

import datasets

from phoneworld_gym.baselines.prompt import build_messages, format_reply, messages_to_prompt
from phoneworld_gym.baselines.sft import PromptText
from phoneworld_gym.contract import Action, UIElement, parse_ui_elements

#: How a grounding goal asks for the element (``{}``: its name).
WORDINGS = ("Tap {}.", "Open {}.", "Select {}.", "Click on {}.", "Go to {}.", "Tap on {}.",
            "Please tap {}.", "Choose {}.")
#: The longest element name a grounding goal quotes.
MAX_NAME = 40
_WORDS = re.compile(r"[A-Za-z]{2,}")


def oracle_screens(tasks: str | Sequence[str] | None = None, *, seeds: Iterable[int] = (0,),
                   split: str | None = "train") -> list[str]:
    """The accessibility trees (XML) of every screen the oracle meets on ``tasks`` (train
    tasks by default) for each of ``seeds``, each distinct tree once."""
    from phoneworld_gym.baselines.tiny import oracle_steps

    steps = oracle_steps(tasks, seeds=seeds, split=split)
    return list(dict.fromkeys(str(obs["a11y"]) for obs, _, _ in steps))


def _name(e: UIElement) -> str:
    return " ".join((e.text or e.content_description or "").split())


def targets(elements: Sequence[UIElement]) -> list[int]:
    """The elements a grounding goal may name: a name of 1-:data:`MAX_NAME` characters
    holding a word, that no other element on the screen shares."""
    names = [_name(e) for e in elements]
    return [i for i, n in enumerate(names)
            if 0 < len(n) <= MAX_NAME and _WORDS.search(n) and names.count(n) == 1]


def grounding_examples(trees: Sequence[str], n: int, *, eos: str, seed: int = 0,
                       prompt_text: PromptText = messages_to_prompt,
                       named: bool = False) -> datasets.Dataset:
    """``n`` prompt/completion examples (source ``"grounding"``, task ``"Grounding"``): a
    screen of ``trees``, a goal that names one of its :func:`targets` in one of
    :data:`WORDINGS`, no history, and the click on that element as the completion (named
    with ``named``, as :func:`~phoneworld_gym.baselines.sft.sft_examples` writes them).
    Seeded; ``ValueError`` when no screen has an element to name."""
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    rng = random.Random(seed)
    pool = []
    for tree in trees:
        elements = parse_ui_elements(tree)
        for i in targets(elements):
            pool.append((tree, elements, i))
    if not pool and n:
        raise ValueError("no screen has an element a grounding goal can name")
    prompts, completions = [], []
    for _ in range(n):
        tree, elements, i = pool[rng.randrange(len(pool))]
        goal = rng.choice(WORDINGS).format(_name(elements[i]))
        prompts.append(prompt_text(build_messages(goal, elements, [])))
        completions.append(format_reply(Action("click", index=i), elements, named=named) + eos)
    return datasets.Dataset.from_dict({"prompt": prompts, "completion": completions,
                                       "source": ["grounding"] * n, "task": ["Grounding"] * n})
