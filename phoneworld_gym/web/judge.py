"""The judging page: a person steps through recorded episodes and marks each a success or a
failure, with a reason.

    from phoneworld_gym.web import make_judge_app
    app = make_judge_app("out/eval", judge="alice")     # or: phoneworld judge out/eval

Each step shows the screen before the action with the action drawn on it (tap point, swipe
arrow, typed text), the goal, the action's error, the tree on demand, and at the end the
verifier's result when the run stored one. Judgments go to ``RESULTS_DIR/judgments/<judge>
.jsonl`` (:mod:`phoneworld_gym.web.judging`); the summary gives each judge's success by
category with Wilson intervals and, with two judges, Cohen's kappa.

API (JSON; errors are ``{"error": "..."}`` with a 4xx status):

- ``GET /api/config``; ``GET /api/episodes?judge=NAME`` (each with NAME's judgment);
- ``GET /api/episodes/ID``; ``GET /api/episodes/ID/steps/N/screen.png``, ``.../tree``,
  ``.../elements``;
- ``POST /api/judgments`` ``{"episode_id", "judge", "success": bool, "reason"}``;
- ``GET /api/summary``: :func:`~phoneworld_gym.web.judging.judgments_report` and its Markdown.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from fastapi import FastAPI
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field, StrictBool

from phoneworld_gym.web.app import ApiError, new_app
from phoneworld_gym.web.episodes import EpisodeFolder
from phoneworld_gym.web.judging import (
    MAX_REASON,
    check_judge,
    judgments_markdown,
    judgments_report,
    read_judgments,
    record_judgment,
)


class JudgmentBody(BaseModel):
    """``POST /api/judgments``: one judgment."""

    episode_id: str = Field(max_length=300)
    judge: str = Field(max_length=64)
    success: StrictBool
    reason: str = Field(default="", max_length=MAX_REASON)


def make_judge_app(results_dir: str | os.PathLike[str], *, judge: str = "judge") -> FastAPI:
    """The judging page's app over ``results_dir`` (a trajectory dataset folder;
    ``ValueError`` if it is not one). ``judge`` is the name the page starts with; each
    person can put their own in the page."""
    folder = EpisodeFolder(results_dir)
    check_judge(judge)
    app = new_app("PhoneWorld: judge", "judge.html")

    def name(value: str) -> str:
        try:
            return check_judge(value)
        except ValueError as e:
            raise ApiError(str(e)) from None

    def found(fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except KeyError as e:
            raise ApiError(str(e.args[0]) if e.args else "not found", 404) from None

    @app.get("/api/config")
    def config() -> dict[str, Any]:
        return {"results_dir": str(results_dir), "judge": judge,
                "screenshots": folder.screenshots}

    @app.get("/api/episodes")
    def episodes(judge: str = judge) -> list[dict[str, Any]]:
        mine = read_judgments(results_dir, name(judge))
        return [{**e, "judgment": dataclasses.asdict(mine[e["episode_id"]])
                 if e["episode_id"] in mine else None} for e in folder.episodes()]

    @app.get("/api/episodes/{episode_id}")
    def episode(episode_id: str) -> dict[str, Any]:
        return found(folder.episode, episode_id)

    @app.get("/api/episodes/{episode_id}/steps/{step}/screen.png")
    def screen(episode_id: str, step: int) -> Response:
        if not folder.screenshots:
            raise ApiError(f"{results_dir} was recorded without screenshots", 404)
        cell = found(folder.step_field, episode_id, step, "screenshot")
        return Response(cell["bytes"], media_type="image/png",
                        headers={"Cache-Control": "max-age=3600"})

    @app.get("/api/episodes/{episode_id}/steps/{step}/tree")
    def tree(episode_id: str, step: int) -> PlainTextResponse:
        return PlainTextResponse(found(folder.step_field, episode_id, step, "tree"),
                                 media_type="application/xml")

    @app.get("/api/episodes/{episode_id}/steps/{step}/elements")
    def elements(episode_id: str, step: int) -> PlainTextResponse:
        return PlainTextResponse(found(folder.step_field, episode_id, step, "elements"))

    @app.post("/api/judgments")
    def judge_one(body: JudgmentBody) -> dict[str, Any]:
        found(folder.entry, body.episode_id)
        try:
            j = record_judgment(results_dir, name(body.judge), body.episode_id, body.success,
                                body.reason)
        except ValueError as e:
            raise ApiError(str(e)) from None
        return dataclasses.asdict(j)

    @app.get("/api/summary")
    def summary() -> dict[str, Any]:
        report = judgments_report(results_dir)
        return {"report": report, "markdown": judgments_markdown(report)}

    return app
