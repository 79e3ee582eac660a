"""The web server's HTTP side (starlette): pages, the JSON API, the stream of changes
(server-sent events) and the task that lets AI seats move by themselves.

Every answer that is not a page is JSON; every refusal is ``{"error": reason}`` with a
fitting status (400 malformed request, 403 not allowed to this seat, 404 unknown game or
seat, 409 refused by the rules, 413 too large, 415 not JSON, 422 a request the rules
cannot take, 503 too many games; 429, too many connections of one address, comes from
web/limits.py). Nothing changes on a refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from naqala.core.record import record_to_json
from naqala.web.games import GAME_ID, TOKEN, Game, Refused, option_entry
from naqala.web.pages import game_page, lobby_page, message_page
from naqala.web.store import SEED_RULE, Store, expansions_offered, seed_problem

#: the largest JSON request (a new game, an action, a click)
MAX_REQUEST = 16 * 1024
#: the largest uploaded record (a long game with every expansion is ~20 KB)
MAX_UPLOAD = 1024 * 1024
#: the most game pages one shared event stream follows (a browser's tabs)
MAX_FOLLOWED = 64
#: a game page's API address, as a shared stream names it: the game and the seat's secret
FOLLOWED = re.compile(r"^/api/games/([0-9a-f]{16})/([A-Za-z0-9_-]{22})$")
#: seconds between two saves of a game while its AI seats play (a person's change is
#: saved at once, and so is the game when the AI stops or the server does)
SAVE_EVERY = 1.0
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


class Server:
    """The store of games and what runs on them: one lock per game (every read and change
    of a game holds it), the AI task per game, and the events pages wait on."""

    def __init__(self, store: Store, ai_delay: float, stream_seconds: float) -> None:
        self.store = store
        self.ai_delay = ai_delay
        self.stream_seconds = stream_seconds
        self.locks: dict[str, asyncio.Lock] = {}
        self.events: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def lock(self, game: Game) -> asyncio.Lock:
        return self.locks.setdefault(game.id, asyncio.Lock())

    def event(self, game: Game) -> asyncio.Event:
        return self.events.setdefault(game.id, asyncio.Event())

    def save(self, game: Game) -> None:
        if game.id in self.store.games:
            try:
                self.store.save(game)
            except OSError as exc:
                warn(f"game {game.id}: not saved: {exc.strerror or exc}")

    def changed(self, game: Game, save: bool = True) -> None:
        """Save the game (unless told not to) and wake up its pages and its AI."""
        if save:
            self.save(game)
        event = self.events.pop(game.id, None)
        if event is not None:
            event.set()
        self.kick(game)

    def kick(self, game: Game) -> None:
        """Start the game's AI task unless it runs (it stops when a person must decide)."""
        task = self.tasks.get(game.id)
        if game.next_player() is not None and (task is None or task.done()):
            self.tasks[game.id] = asyncio.create_task(self._ai(game))

    async def _ai(self, game: Game) -> None:
        """AI seats (and seats played for) move one decision at a time, with a pause before
        each so that people can follow. The game is saved at most every
        :data:`SAVE_EVERY` seconds while the AI plays, and when it stops."""
        loop = asyncio.get_running_loop()
        saved = loop.time()
        try:
            while game.id in self.store.games and game.next_player() is not None:
                await asyncio.sleep(self.ai_delay)
                async with self.lock(game):
                    nxt = game.next_player()
                    if nxt is None or game.id not in self.store.games:
                        return
                    _, agent = nxt
                    state = game.state
                    options = game.rules.legal_actions(state)
                    action = await anyio.to_thread.run_sync(
                        agent.choose, game.rules, state, options
                    )
                    game.play(action)
                due = loop.time() - saved >= SAVE_EVERY
                if due:
                    saved = loop.time()
                self.changed(game, save=due)
        except Exception as exc:  # a broken AI stops itself, never the server
            warn(f"game {game.id}: the AI stopped: {type(exc).__name__}: {exc}")
        finally:
            self.save(game)

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task


def warn(line: str) -> None:
    print(f"naqala serve: warning: {line}", file=sys.stderr, flush=True)


def _error(status: int, reason: str) -> HTTPException:
    return HTTPException(status, reason)


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes before more is read."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise _error(400, "the Content-Length header is not a number")
        if int(length) > limit:
            raise _error(413, f"the request is {int(length):,} bytes; at most {limit:,}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _error(413, f"the request is larger than {limit:,} bytes")
    return bytes(body)


async def read_json(request: Request, limit: int = MAX_REQUEST) -> dict[str, Any]:
    """The request's JSON object. Only ``application/json`` is taken: a form on another
    site cannot send it without the browser asking this server first."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise _error(415, "send JSON (Content-Type: application/json)")
    body = await read_body(request, limit)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _error(400, f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _error(400, "the request must be a JSON object")
    return data


def _field(data: dict[str, Any], name: str, kind: type, default: Any = None) -> Any:
    value = data.get(name, default)
    if value is None and default is None and name not in data:
        raise _error(400, f"the request needs {name!r}")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _error(400, f"{name!r} must be {kind.__name__}, not {json.dumps(value)[:40]}")
    return value


def _strings(data: dict[str, Any], name: str) -> list[str]:
    values = _field(data, name, list, [])
    if len(values) > 32 or not all(isinstance(v, str) and len(v) <= 64 for v in values):
        raise _error(400, f"{name!r} must be a short list of short strings")
    return [str(v) for v in values]


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

    async def seat(request: Request) -> tuple[Game, int]:
        game_id = request.path_params["game"]
        token = request.path_params["token"]
        game = store.games.get(game_id) if GAME_ID.match(game_id) else None
        if game is None:
            raise _error(404, f"no game {game_id[:20]!r} on this server")
        found = game.seat_of(token) if TOKEN.match(token) else None
        if found is None:
            raise _error(404, "no seat of this game has that link (ask for your own link)")
        return game, found

    async def lobby(request: Request) -> Response:
        houses = [house.name for house in store.house_rules]
        return HTMLResponse(lobby_page(expansions_offered(), houses, store.players_offered()))

    async def play_page(request: Request) -> Response:
        game, number = await seat(request)
        return HTMLResponse(game_page(game.id, request.path_params["token"], number))

    def links(game: Game) -> dict[str, Any]:
        seats = [
            {
                "seat": number,
                "label": game.who(number),
                "url": f"/play/{game.id}/{game.tokens[number]}",
            }
            for number in game.human_seats()
        ]
        return {"game": game.id, "seats": seats}

    async def new_game(request: Request) -> Response:
        data = await read_json(request)
        seats = _strings(data, "seats")
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed_problem(seed):
            raise _error(400, f"'seed' must be {SEED_RULE}, or null")
        game = store.create(
            seats, _strings(data, "expansions"), _strings(data, "house_rules"), seed
        )
        server.kick(game)
        return JSONResponse(links(game), status_code=201)

    async def load_game(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise _error(415, "send the record as JSON (Content-Type: application/json)")
        body = await read_body(request, MAX_UPLOAD)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _error(422, f"the uploaded record is not UTF-8 text: {exc.reason}") from None
        game = store.load(text)
        server.kick(game)
        return JSONResponse(links(game), status_code=201)

    async def state(request: Request) -> Response:
        game, number = await seat(request)
        async with server.lock(game):
            return JSONResponse(game.page(number))

    async def changing(
        request: Request, change: Callable[[Game, int, dict[str, Any]], Any]
    ) -> Response:
        game, number = await seat(request)
        data = await read_json(request)
        async with server.lock(game):
            before = game.version
            result = change(game, number, data)
            page = game.page(number)
        if game.version != before:
            server.changed(game)
        return JSONResponse({**(result or {}), "page": page})

    async def act(request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> dict[str, Any]:
            return {"played": [str(game.act(number, _field(data, "action", str)))]}

        return await changing(request, change)

    async def click(request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> dict[str, Any]:
            target = _field(data, "target", str)
            if not 0 < len(target) <= 64:
                raise _error(400, "'target' must be 1 to 64 characters")
            named = game.click(number, target)
            if len(named) == 1:
                return {"played": [str(named[0])]}
            state = game.state
            return {"choices": [option_entry(game.rules, state, a) for a in named]}

        return await changing(request, change)

    async def undo(request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> None:
            game.undo(number)

        return await changing(request, change)

    async def autoplay(request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> None:
            game.set_autoplay(number, _field(data, "on", bool))
            store.save_seats(game)

        return await changing(request, change)

    async def record(request: Request) -> Response:
        game, number = await seat(request)
        async with server.lock(game):
            people = game.human_seats()
            if not game.state.is_over and people != [number]:
                raise _error(
                    403,
                    "a game with other people in it is saved only once it is over: its "
                    "record holds the seed, which tells every hidden card and coin",
                )
            text = record_to_json(game.record)
        name = f"naqala-{game.id}-{len(game.record.actions)}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def delete(request: Request) -> Response:
        game, number = await seat(request)
        async with server.lock(game):
            if not game.state.is_over and game.human_seats() != [number]:
                raise _error(403, "a game with other people in it is deleted only once it is over")
            store.delete(game)
        server.changed(game)
        return JSONResponse({"deleted": game.id})

    async def events(request: Request) -> Response:
        game, _ = await seat(request)

        async def stream() -> AsyncIterator[str]:
            loop = asyncio.get_running_loop()
            end = loop.time() + server.stream_seconds
            sent = -1
            yield "retry: 1000\n\n"
            while loop.time() < end and game.id in store.games:
                event = server.event(game)
                if game.version != sent:
                    sent = game.version
                    yield f"data: {sent}\n\n"
                    continue
                try:
                    await asyncio.wait_for(event.wait(), timeout=min(15.0, end - loop.time()))
                except TimeoutError:
                    yield ": still here\n\n"
            if game.id not in store.games:
                yield "event: gone\ndata: deleted\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def followed_events(request: Request) -> Response:
        """One stream for every game page a browser shows (``?follow=`` their API
        addresses, comma-separated): a browser opens at most six connections to a host,
        so its tabs share this one (``static/stream-worker.js``) instead of a stream
        each. Each message is ``{"api": address, "version": n}``, or ``"gone": true``
        for a game deleted or unknown."""
        names = [name for name in request.query_params.get("follow", "").split(",") if name]
        if not 0 < len(names) <= MAX_FOLLOWED:
            raise _error(400, f"'follow' must name 1 to {MAX_FOLLOWED} game pages")
        followed: dict[str, Game] = {}
        gone: list[str] = []
        for name in names:
            found = FOLLOWED.match(name)
            if found is None:
                raise _error(400, f"'follow' names {name[:60]!r}, not a game page's address")
            game = store.games.get(found[1])
            if game is None or game.seat_of(found[2]) is None:
                gone.append(name)
            else:
                followed[name] = game

        def news(api: str, **fields: Any) -> str:
            return f"data: {json.dumps({'api': api, **fields})}\n\n"

        async def stream() -> AsyncIterator[str]:
            loop = asyncio.get_running_loop()
            end = loop.time() + server.stream_seconds
            sent = dict.fromkeys(followed, -1)
            yield "retry: 1000\n\n"
            for api in gone:
                yield news(api, gone=True)
            while followed and loop.time() < end:
                # the events are taken before the versions are read: no change is missed
                events = {server.event(game) for game in followed.values()}
                changed = False
                for api, game in list(followed.items()):
                    if game.id not in store.games:
                        del followed[api]
                        changed = True
                        yield news(api, gone=True)
                    elif game.version != sent[api]:
                        sent[api] = game.version
                        changed = True
                        yield news(api, version=game.version)
                if changed:
                    continue
                waits = [asyncio.ensure_future(event.wait()) for event in events]
                done, pending = await asyncio.wait(
                    waits, timeout=min(15.0, end - loop.time()), return_when="FIRST_COMPLETED"
                )
                for wait in pending:
                    wait.cancel()
                if not done:
                    yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        reason = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return _answer(request, status, str(reason))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return _answer(request, exc.status, exc.reason)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for game in list(store.games.values()):
            server.kick(game)
        yield
        await server.stop()

    api = "/api/games/{game}/{token}"
    routes = [
        Route("/", lobby),
        Route("/play/{game}/{token}", play_page),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/load", load_game, methods=["POST"]),
        Route("/api/events", followed_events),
        Route(api, state),
        Route(api, delete, methods=["DELETE"]),
        Route(api + "/events", events),
        Route(api + "/act", act, methods=["POST"]),
        Route(api + "/click", click, methods=["POST"]),
        Route(api + "/undo", undo, methods=["POST"]),
        Route(api + "/autoplay", autoplay, methods=["POST"]),
        Route(api + "/record", record),
        Mount("/static", StaticFiles(packages=[("naqala.web", "static")]), name="static"),
    ]
    middleware = [Middleware(_Headers)]
    if allowed_hosts is not None:
        middleware.append(Middleware(_Hosts, allowed=frozenset(allowed_hosts)))
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Refused: refused},
        lifespan=lifespan,
    )
    app.state.server = server
    return app


class _Headers:
    """Adds :data:`HEADERS` to every answer (plain ASGI, so event streams pass through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, sending)


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


__all__ = ["MAX_REQUEST", "MAX_UPLOAD", "Server", "create_app"]
