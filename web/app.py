"""The web server's HTTP side (starlette), put together: the routes of the pages, the
JSON API and the streams of changes (``naqala.web.endpoints``, ``naqala.web.streams``),
the headers every answer carries, and the server that runs the games' AI
(``naqala.web.server``).

Every answer that is not a page is JSON; every refusal is ``{"error": reason}`` with a
fitting status (400 malformed request, 403 not allowed to this seat, 404 unknown game or
seat, 409 refused by the rules, 413 too large, 415 not JSON, 422 a request the rules
cannot take, 503 too many games; 429, too many connections of one address, comes from
web/limits.py). Nothing changes on a refusal.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from naqala.web.endpoints import Endpoints
from naqala.web.games import Refused
from naqala.web.pages import message_page
from naqala.web.reading import MAX_REQUEST, MAX_UPLOAD
from naqala.web.server import Server
from naqala.web.store import Store
from naqala.web.streams import Streams

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "HEADERS",
    "MAX_REQUEST",
    "MAX_UPLOAD",
    "Server",
    "create_app",
    "host_name",
]

#: what a page of this server may load, from what the pages really use: scripts (and a
#: worker, to share one event stream between tabs) only from this server's static files
#: (no inline script or handler: nothing injected into a page, a player's name or a
#: plugin's text, can run), fetch and the event stream to this server, the data: icon;
#: inline style, which the pages and the SVG pictures use and which runs no code; nothing
#: else (no plugins, frames, fonts or other sites; forms post here only)
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "worker-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "style-src 'self' 'unsafe-inline'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
#: headers on every answer: the content policy; the seat's secret is in the address, so it
#: never leaves in a Referer; no framing by other sites
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


#: how long a browser keeps a static file named with its digest: a year (a new file has
#: a new name)
STATIC_CACHE = "public, max-age=31536000, immutable"
#: answers smaller than this many bytes are sent as they are
GZIP_FROM = 500

#: the address of a seat's game in the API: the game and the seat's secret
SEAT_API = "/api/games/{game}/{token}"


def create_app(
    store: Store,
    ai_delay: float = 0.4,
    allowed_hosts: Sequence[str] | None = None,
    stream_seconds: float = 60.0,
) -> Starlette:
    """The web application over ``store``. ``allowed_hosts`` (when given) are the only
    Host headers answered (a page of another site cannot reach a local server through a
    name of its own); ``stream_seconds`` is how long one event stream lasts before the
    browser opens a new one."""
    server = Server(store, ai_delay, stream_seconds)
    app = Starlette(
        routes=routes(server),
        middleware=middleware(allowed_hosts),
        exception_handlers=exception_handlers(),
        lifespan=lifespan(server),
    )
    app.state.server = server
    return app


def routes(server: Server) -> list[BaseRoute]:
    """Every address the server answers: the pages, the API of games and of a seat's
    game, the event streams and the static files (style and scripts: the content policy
    runs no inline script)."""
    pages = Endpoints(server)
    streams = Streams(server)
    return [
        Route("/", pages.lobby),
        Route("/play/{game}/{token}", pages.play_page),
        Route("/api/games", pages.new_game, methods=["POST"]),
        Route("/api/load", pages.load_game, methods=["POST"]),
        Route("/api/events", streams.followed_events),
        Route(SEAT_API, pages.state),
        Route(SEAT_API, pages.delete, methods=["DELETE"]),
        Route(SEAT_API + "/events", streams.events),
        Route(SEAT_API + "/act", pages.act, methods=["POST"]),
        Route(SEAT_API + "/click", pages.click, methods=["POST"]),
        Route(SEAT_API + "/undo", pages.undo, methods=["POST"]),
        Route(SEAT_API + "/autoplay", pages.autoplay, methods=["POST"]),
        Route(SEAT_API + "/record", pages.record),
        Mount("/static", StaticFiles(packages=[("naqala.web", "static")]), name="static"),
    ]


def middleware(allowed_hosts: Sequence[str] | None) -> list[Middleware]:
    """:data:`HEADERS` on every answer, and, when hosts are given, only their requests
    answered (outermost first: a refused host gets the headers too)."""
    layers = [Middleware(_Headers)]
    if allowed_hosts is not None:
        layers.append(Middleware(_Hosts, allowed=frozenset(allowed_hosts)))
    layers.append(Middleware(_Compressed))
    return layers


def exception_handlers() -> dict[Any, Callable[[Request, Exception], Any]]:
    """Every refusal answered in one line: ``{"error": reason}`` under ``/api/``, a short
    page elsewhere; an unexpected failure as 500 ``internal error``, no traceback."""

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        reason = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return _answer(request, status, str(reason))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return _answer(request, exc.status, exc.reason)

    return {HTTPException: http_error, Refused: refused}


def lifespan(server: Server) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]:
    """At start, the AI of every game it is the AI's turn in moves again; at the end
    the AI tasks stop (each saves its game)."""

    @contextlib.asynccontextmanager
    async def running(app: Starlette) -> AsyncIterator[None]:
        for game in list(server.store.games.values()):
            server.kick(game)
        yield
        await server.stop()

    return running


class _Headers:
    """Adds :data:`HEADERS` to every answer (plain ASGI, so event streams pass through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        # a static file named with its digest (``?v=``, as the pages name them) never
        # changes: the browser keeps it; anything else is asked for again
        lasting = scope["path"].startswith("/static/") and b"v=" in scope["query_string"]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if lasting and message["status"] == 200:
                    headers["Cache-Control"] = STATIC_CACHE
                for name, value in HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, sending)


class _Compressed:
    """Answers gzipped to a browser that accepts it (the seat's page JSON is about a
    seventh of its size so), but never an event stream, which must reach the page as
    each event is sent (older starlettes' gzip would hold it back)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzipped = GZipMiddleware(app, minimum_size=GZIP_FROM)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].endswith("/events"):
            await self.gzipped(scope, receive, send)
            return
        await self.app(scope, receive, send)


class _Hosts:
    """Answers only requests whose Host header names one of ``allowed`` (with any port;
    ``[::1]:8000`` names ``::1``); others get 400."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and host_name(Headers(scope=scope).get("host", "")) not in (
            self.allowed
        ):
            answer = JSONResponse({"error": "this server answers only to its own host name"}, 400)
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)


def host_name(header: str) -> str:
    """The host of a Host header, without its port or an IPv6 address's brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.split(":", 1)[0]


def _answer(request: Request, status: int, reason: str) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": reason}, status_code=status, headers=HEADERS)
    return HTMLResponse(message_page(status, reason), status_code=status, headers=HEADERS)
