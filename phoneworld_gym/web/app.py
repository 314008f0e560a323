"""What both pages share: the FastAPI app with errors as one JSON sentence, and the static
files (plain HTML, CSS and JavaScript in ``static/``; nothing to build)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

STATIC = Path(__file__).with_name("static")


class ApiError(Exception):
    """A request the app refuses: answered ``{"error": message}`` with ``status``."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def _validation_sentence(exc: RequestValidationError) -> str:
    """FastAPI's list of validation errors as one sentence naming each field."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "bad request: " + "; ".join(parts)


def new_app(title: str, page: str, lifespan: Callable[[FastAPI], Any] | None = None
            ) -> FastAPI:
    """A FastAPI app serving ``static/<page>`` at ``/`` and the static files under
    ``/static``; every error is answered as ``{"error": "..."}``."""
    app = FastAPI(title=title, docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_sentence(exc)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    html = (STATIC / page).read_text(encoding="utf-8")

    @app.get("/", response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return HTMLResponse(html)

    return app
