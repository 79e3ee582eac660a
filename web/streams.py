"""The streams of changes (server-sent events) that game pages follow: one game page's
own stream, and the one stream a browser's tabs share. Each lasts ``stream_seconds`` and
then the browser opens a new one; a quiet stream says it is still there every 15 s."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from naqala.web.endpoints import seat_of_request
from naqala.web.games import Game
from naqala.web.reading import refusal
from naqala.web.server import Server

#: the most game pages one shared event stream follows (a browser's tabs)
MAX_FOLLOWED = 64
#: a game page's API address, as a shared stream names it: the game and the seat's secret
FOLLOWED = re.compile(r"^/api/games/([0-9a-f]{16})/([A-Za-z0-9_-]{22})$")

__all__ = ["FOLLOWED", "MAX_FOLLOWED", "Streams"]


class Streams:
    """The event-stream handlers over one :class:`Server`."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.store = server.store

    async def events(self, request: Request) -> Response:
        """A game page's stream: ``data: <version>`` at each change of its game."""
        game, _ = seat_of_request(self.server, request)
        server, store = self.server, self.store

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

    async def followed_events(self, request: Request) -> Response:
        """One stream for every game page a browser shows (``?follow=`` their API
        addresses, comma-separated): a browser opens at most six connections to a host,
        so its tabs share this one (``static/stream-worker.js``) instead of a stream
        each. Each message is ``{"api": address, "version": n}``, or ``"gone": true``
        for a game deleted or unknown."""
        followed, gone = self._followed(request)
        server, store = self.server, self.store

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

    def _followed(self, request: Request) -> tuple[dict[str, Game], list[str]]:
        """The game pages ``?follow=`` names that this server has (by address), and the
        addresses of those it has not (deleted games, unknown seats)."""
        names = [name for name in request.query_params.get("follow", "").split(",") if name]
        if not 0 < len(names) <= MAX_FOLLOWED:
            raise refusal(400, f"'follow' must name 1 to {MAX_FOLLOWED} game pages")
        followed: dict[str, Game] = {}
        gone: list[str] = []
        for name in names:
            found = FOLLOWED.match(name)
            if found is None:
                raise refusal(400, f"'follow' names {name[:60]!r}, not a game page's address")
            game = self.store.games.get(found[1])
            if game is None or game.seat_of(found[2]) is None:
                gone.append(name)
            else:
                followed[name] = game
        return followed, gone
