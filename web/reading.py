"""Reading a request of the web API: its body bounded before it is read, its JSON
object, and its fields checked, each refusal an HTTP error with a one-line reason (the
server answers it as ``{"error": reason}``)."""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

#: the largest JSON request (a new game, an action, a click)
MAX_REQUEST = 16 * 1024
#: the largest uploaded record (a long game with every expansion is ~20 KB)
MAX_UPLOAD = 1024 * 1024

__all__ = [
    "MAX_REQUEST",
    "MAX_UPLOAD",
    "field",
    "media_type",
    "read_body",
    "read_json",
    "refusal",
    "strings",
]


def refusal(status: int, reason: str) -> HTTPException:
    """The error a handler raises to refuse a request with ``status`` and ``reason``."""
    return HTTPException(status, reason)


def media_type(request: Request) -> str:
    """The request's Content-Type without its parameters, in lower case."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes before more is read."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise refusal(400, "the Content-Length header is not a number")
        if int(length) > limit:
            raise refusal(413, f"the request is {int(length):,} bytes; at most {limit:,}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise refusal(413, f"the request is larger than {limit:,} bytes")
    return bytes(body)


async def read_json(request: Request, limit: int = MAX_REQUEST) -> dict[str, Any]:
    """The request's JSON object. Only ``application/json`` is taken: a form on another
    site cannot send it without the browser asking this server first."""
    if media_type(request) != "application/json":
        raise refusal(415, "send JSON (Content-Type: application/json)")
    body = await read_body(request, limit)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise refusal(400, f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise refusal(400, "the request must be a JSON object")
    return data


def field(data: dict[str, Any], name: str, kind: type, default: Any = None) -> Any:
    """The field ``name`` of a request, of type ``kind`` (a JSON boolean is no number)."""
    value = data.get(name, default)
    if value is None and default is None and name not in data:
        raise refusal(400, f"the request needs {name!r}")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise refusal(400, f"{name!r} must be {kind.__name__}, not {json.dumps(value)[:40]}")
    return value


def strings(data: dict[str, Any], name: str) -> list[str]:
    """The field ``name`` as a short list of short strings (seats, expansions...)."""
    values = field(data, name, list, [])
    if len(values) > 32 or not all(isinstance(v, str) and len(v) <= 64 for v in values):
        raise refusal(400, f"{name!r} must be a short list of short strings")
    return [str(v) for v in values]
