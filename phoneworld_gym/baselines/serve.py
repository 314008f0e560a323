"""A minimal OpenAI-compatible HTTP server for a local model (standard library only).

    python -m phoneworld_gym.baselines.serve --model PATH --port 8000

serves ``GET /v1/models`` and non-streaming ``POST /v1/chat/completions`` for one local
model folder (a causal LM, or a VLM that reads ``image_url`` data-URL parts), so that
:class:`~phoneworld_gym.baselines.openai_agent.OpenAIAgent`, the judge, or any tool that
speaks the OpenAI API can use it. Requests are answered one at a time (generation holds a
lock). Messages become a prompt through the model's chat template, or, for a model without
one, through :func:`~phoneworld_gym.baselines.prompt.messages_to_prompt`, the same text
:class:`~phoneworld_gym.baselines.lm_agent.LMAgent` gives the model, so a model answers alike
over HTTP and in process. ``--port 0`` picks a free port; the first line printed says where
it serves. Not for exposure beyond localhost: there is no authentication.
"""

from __future__ import annotations

import argparse
import itertools
import json
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from phoneworld_gym.baselines.lm_agent import LocalModel

#: The largest request body read (a few screenshots as PNG data URLs fit).
MAX_BODY = 64 << 20
#: ``max_tokens`` when a request gives none.
DEFAULT_MAX_TOKENS = 256


class RequestError(ValueError):
    """A request the server refuses: the HTTP status, the message and the offending field."""

    def __init__(self, message: str, param: str | None = None, status: int = 400,
                 code: str | None = None):
        super().__init__(message)
        self.param, self.status, self.code = param, status, code


def _number(body: dict[str, Any], key: str, default: float, lo: float, hi: float) -> float:
    value = body.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise RequestError(f"{key} must be a number in [{lo}, {hi}], got {value!r}", key)
    return float(value)


def _int(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RequestError(f"{key} must be a positive integer, got {value!r}", key)
    return value


class ChatService:
    """What the handler calls: one model under one name, a lock around generation."""

    def __init__(self, lm: LocalModel, name: str):
        self.lm = lm
        self.name = name
        self.lock = threading.Lock()
        self.ids = itertools.count(1)

    def models(self) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": self.name, "object": "model",
                                            "created": 0, "owned_by": "phoneworld"}]}

    def chat(self, body: Any) -> dict[str, Any]:
        """Answer one ``/v1/chat/completions`` request body (``RequestError`` if bad)."""
        if not isinstance(body, dict):
            raise RequestError("the request body must be a JSON object")
        if body.get("model") != self.name:
            raise RequestError(f"model {body.get('model')!r} does not exist; this server "
                               f"serves {self.name!r}", "model", 404, "model_not_found")
        if body.get("stream"):
            raise RequestError("streaming is not supported", "stream")
        if body.get("n", 1) != 1:
            raise RequestError(f"n must be 1, got {body.get('n')!r}", "n")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise RequestError("messages must be a non-empty list", "messages")
        temperature = _number(body, "temperature", 1.0, 0.0, 2.0)
        max_tokens = (_int(body, "max_completion_tokens") or _int(body, "max_tokens")
                      or DEFAULT_MAX_TOKENS)
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RequestError(f"seed must be an integer, got {seed!r}", "seed")
        with self.lock:
            try:
                done = self.lm.generate(messages, max_new_tokens=max_tokens,
                                        temperature=temperature, seed=seed)
            except ValueError as e:  # a malformed message, an image for a text model, ...
                raise RequestError(str(e), "messages") from None
        stopped = self.lm.tokenizer.eos_token_id in done.token_ids
        return {
            "id": f"chatcmpl-{next(self.ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.name,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": done.text},
                         "finish_reason": "stop" if stopped else "length", "logprobs": None}],
            "usage": {"prompt_tokens": len(done.prompt_ids),
                      "completion_tokens": len(done.token_ids),
                      "total_tokens": len(done.prompt_ids) + len(done.token_ids)},
        }


class _Handler(BaseHTTPRequestHandler):
    service: ChatService
    quiet = True

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, e: RequestError) -> None:
        self._send(e.status, {"error": {"message": str(e), "type": "invalid_request_error",
                                        "param": e.param, "code": e.code}})

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self._send(200, self.service.models())
        else:
            self._error(RequestError(f"no route GET {self.path}", status=404))

    def do_POST(self) -> None:  # noqa: N802
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._error(RequestError(f"no route POST {self.path}", status=404))
            return
        try:
            size = int(self.headers.get("Content-Length") or 0)
            if not 0 < size <= MAX_BODY:
                raise RequestError(f"the body must be 1 to {MAX_BODY} bytes, got {size}",
                                   status=413 if size > MAX_BODY else 400)
            try:
                body = json.loads(self.rfile.read(size))
            except ValueError as e:
                raise RequestError(f"the body is not JSON: {e}") from None
            self._send(200, self.service.chat(body))
        except RequestError as e:
            self._error(e)

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(lm: LocalModel, name: str, host: str = "127.0.0.1", port: int = 0, *,
                quiet: bool = True) -> ThreadingHTTPServer:
    """An HTTP server for ``lm`` under ``name`` (call ``serve_forever``; port 0 picks one)."""
    handler = type("Handler", (_Handler,), {"service": ChatService(lm, name), "quiet": quiet})
    return ThreadingHTTPServer((host, port), handler)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Serve a local model over the OpenAI chat API.")
    p.add_argument("--model", required=True, help="a local model folder")
    p.add_argument("--name", help="the model id clients ask for (default: the folder name)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    p.add_argument("--device", default="cpu")
    p.add_argument("--lora", help="a saved LoRA adapter to apply")
    p.add_argument("--verbose", action="store_true", help="log every request")
    a = p.parse_args(argv)
    lm = LocalModel.load(a.model, device=a.device, lora=a.lora)
    name = a.name or Path(a.model).resolve().name
    server = make_server(lm, name, a.host, a.port, quiet=not a.verbose)
    port = server.server_address[1]
    print(f"serving {name} on http://{a.host}:{port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
