"""Browser pages for people: play and record an episode, and judge recorded episodes.

    phoneworld play --web [--task ShoppingWishlistAdd] [--port 8000] [--record out/human]
    phoneworld judge out/eval [--judge alice] [--port 8001]

Both are FastAPI apps (:func:`make_play_app`, :func:`make_judge_app`) serving plain HTML and
JavaScript, on loopback unless told otherwise. They need the ``web`` extra
(``pip install 'phoneworld[web]'``: FastAPI and uvicorn) and the baselines' dataset code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["make_judge_app", "make_play_app"]


def make_play_app(*args: Any, **kwargs: Any) -> FastAPI:
    """The play page (see :func:`phoneworld_gym.web.play.make_play_app`)."""
    from phoneworld_gym.web.play import make_play_app as make

    return make(*args, **kwargs)


def make_judge_app(*args: Any, **kwargs: Any) -> FastAPI:
    """The judging page (see :func:`phoneworld_gym.web.judge.make_judge_app`)."""
    from phoneworld_gym.web.judge import make_judge_app as make

    return make(*args, **kwargs)
