"""The pages and the JSON API of the web server, one method per route: each finds the
game and seat a request names, reads what it sends (``naqala.web.reading``) and does the
one thing asked under the game's lock. The routes themselves are laid out by
``naqala.web.app``."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from naqala.core.record import record_to_json
from naqala.core.rng import SEED_RULE, seed_problem
from naqala.core.structured import json_type
from naqala.web.games import GAME_ID, TOKEN, Game, option_entry
from naqala.web.lobby import offers
from naqala.web.pages import game_page, lobby_page
from naqala.web.reading import (
    MAX_UPLOAD,
    field,
    media_type,
    read_body,
    read_json,
    refusal,
    strings,
)
from naqala.web.server import Server
from naqala.web.store import expansions_offered

__all__ = ["Endpoints", "seat_of_request"]

#: a change to a game asked by a seat: the game, the seat and the request's JSON object;
#: what it returns is added to the answer
Change = Callable[[Game, int, dict[str, Any]], Any]


def seat_of_request(server: Server, request: Request) -> tuple[Game, int]:
    """The game and the seat a request's address names (404 if either is unknown)."""
    game_id = request.path_params["game"]
    token = request.path_params["token"]
    game = server.store.games.get(game_id) if GAME_ID.match(game_id) else None
    if game is None:
        raise refusal(404, f"no game {game_id[:20]!r} on this server")
    found = game.seat_of(token) if TOKEN.match(token) else None
    if found is None:
        raise refusal(404, "no seat of this game has that link (ask for your own link)")
    return game, found


def links(game: Game) -> dict[str, Any]:
    """The answer to a new or uploaded game: each human seat's label and link."""
    seats = [
        {
            "seat": number,
            "label": game.who(number),
            "url": f"/play/{game.id}/{game.tokens[number]}",
        }
        for number in game.human_seats()
    ]
    return {"game": game.id, "seats": seats}


#: a digest a page sends: what ``web.updates.digest`` writes
DIGEST = re.compile(r"[0-9a-f]{16}")


def page_for(request: Request, game: Game, number: int) -> dict[str, Any]:
    """The seat's page: whole, or light (``web.updates``) when the request asks for an
    update with ``?light=1``, naming with ``svg`` and ``cards`` the digests of the
    picture and the catalogue the page holds (a malformed digest counts as none)."""
    query = request.query_params
    if query.get("light") != "1":
        return game.page(number)
    picture, cards = query.get("svg", ""), query.get("cards", "")
    return game.update(
        number,
        picture if DIGEST.fullmatch(picture) else "",
        cards if DIGEST.fullmatch(cards) else "",
    )


class Endpoints:
    """The handlers of the pages and the API over one :class:`Server`."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.store = server.store

    # -- pages ---------------------------------------------------------------------------

    async def lobby(self, request: Request) -> Response:
        houses = [house.name for house in self.store.house_rules]
        offered = offers(expansions_offered())
        return HTMLResponse(lobby_page(offered, houses, self.store.players_offered()))

    async def play_page(self, request: Request) -> Response:
        game, number = seat_of_request(self.server, request)
        return HTMLResponse(game_page(game.id, request.path_params["token"], number))

    # -- games ---------------------------------------------------------------------------

    async def new_game(self, request: Request) -> Response:
        data = await read_json(request)
        seats = strings(data, "seats")
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise refusal(400, f"'seed': {SEED_RULE}, or null, not {json_type(seed)}")
        if problem := seed_problem(seed):  # the words of every command and file
            raise refusal(400, f"'seed': {problem}")
        game = self.store.create(
            seats, strings(data, "expansions"), strings(data, "house_rules"), seed
        )
        self.server.kick(game)
        return JSONResponse(links(game), status_code=201)

    async def load_game(self, request: Request) -> Response:
        if media_type(request) != "application/json":
            raise refusal(415, "send the record as JSON (Content-Type: application/json)")
        body = await read_body(request, MAX_UPLOAD)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise refusal(422, f"the uploaded record is not UTF-8 text: {exc.reason}") from None
        game = self.store.load(text)
        self.server.kick(game)
        return JSONResponse(links(game), status_code=201)

    # -- a seat's game -------------------------------------------------------------------

    async def state(self, request: Request) -> Response:
        game, number = seat_of_request(self.server, request)
        async with self.server.lock(game):
            return JSONResponse(page_for(request, game, number))

    async def changing(self, request: Request, change: Change) -> Response:
        """Make ``change`` under the game's lock and answer with its result and the seat's
        page; the game is saved and its pages woken only if it changed."""
        game, number = seat_of_request(self.server, request)
        data = await read_json(request)
        async with self.server.lock(game):
            before = game.version
            result = change(game, number, data)
            page = page_for(request, game, number)
        if game.version != before:
            self.server.changed(game)
        return JSONResponse({**(result or {}), "page": page})

    async def act(self, request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> dict[str, Any]:
            return {"played": [str(game.act(number, field(data, "action", str)))]}

        return await self.changing(request, change)

    async def click(self, request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> dict[str, Any]:
            target = field(data, "target", str)
            if not 0 < len(target) <= 64:
                raise refusal(400, "'target' must be 1 to 64 characters")
            named = game.click(number, target)
            if len(named) == 1:
                return {"played": [str(named[0])]}
            state = game.state
            return {"choices": [option_entry(game.rules, state, a) for a in named]}

        return await self.changing(request, change)

    async def undo(self, request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> None:
            game.undo(number)

        return await self.changing(request, change)

    async def autoplay(self, request: Request) -> Response:
        def change(game: Game, number: int, data: dict[str, Any]) -> None:
            game.set_autoplay(number, field(data, "on", bool))
            self.store.save_seats(game)

        return await self.changing(request, change)

    async def record(self, request: Request) -> Response:
        game, number = seat_of_request(self.server, request)
        async with self.server.lock(game):
            people = game.human_seats()
            if not game.state.is_over and people != [number]:
                raise refusal(
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

    async def delete(self, request: Request) -> Response:
        game, number = seat_of_request(self.server, request)
        async with self.server.lock(game):
            # a game that cannot continue never will be over: any of its people may go
            if not game.state.is_over and game.stopped is None and game.human_seats() != [number]:
                raise refusal(
                    403,
                    "a game with other people in it is deleted only once it is over "
                    "(or cannot continue)",
                )
            self.store.delete(game)
        self.server.changed(game)
        return JSONResponse({"deleted": game.id})
