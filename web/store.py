"""The games a server holds: making them (new or from an uploaded record), keeping each
one saved in the data directory (atomically, after every change) and resuming them
when the server starts again.

An uploaded record may use only the installed plugins and the house-rule files the
server was started with: a house rule of the record is matched to one of the server's
files by its sha256 (``naqala.core.record.match_house_rules``, as every command does),
never looked for at the path the record names. The server reads each file once, at start,
and runs those bytes for every game.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from naqala.core.agents import HUMAN, SeatError, canonical_seat
from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import (
    BASE,
    HouseRuleFile,
    PluginError,
    installed_entry_points,
    installed_names,
)
from naqala.core.record import (
    GameRecord,
    RecordError,
    new_record,
    record_from_json,
    record_to_json,
    replay,
    rules_for_record,
    save_record,
    write_atomically,
)
from naqala.core.session import with_canonical_seats
from naqala.core.state import State
from naqala.native.choice import AUTO, PYTHON, EngineError
from naqala.native.seated import table_engine
from naqala.web.games import GAME_ID, Game, Refused, new_game_id, new_token

#: the most players a game offered by the server seats
MAX_SEATS = 6


#: how a server is given a house-rule file an uploaded record needs
ASK_THE_SERVER = "it is not one of this server's house-rule files (naqala serve --house-rules PATH)"


def expansions_offered() -> list[str]:
    """The installed plugins a new game can add to the base game."""
    return sorted(name for name in installed_entry_points() if name != BASE)


class Store:
    """Every game on the server, by id, and the folder they are saved in."""

    def __init__(
        self,
        folder: Path,
        house_rules: Sequence[HouseRuleFile],
        max_games: int,
        engine: str = AUTO,
    ) -> None:
        self.folder = folder
        #: the engine asked for the AI seats' decisions (``naqala serve --engine``)
        self.engine = engine
        self._said: set[str] = set()
        # the seats' files hold their secrets: a new folder is readable by its owner only
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.house_rules = tuple(house_rules)
        self.max_games = max_games
        self.games: dict[str, Game] = {}
        self._players: list[str] | None = None

    def players_offered(self) -> list[str]:
        """The AI players a lobby lists: the installed ones and those the server's
        house-rule files add (each file with the base game; a file that does not build is
        left out here and reported when a game asks for it). Worked out once."""
        if self._players is None:
            names = set(build_rules().agents)
            for house in self.house_rules:
                try:
                    names |= set(build_rules([], [house.path]).agents)
                except (PluginError, ContentError):
                    continue
            self._players = sorted(names)
        return self._players

    # -- making games ----------------------------------------------------------------------

    def _room(self) -> None:
        if len(self.games) >= self.max_games:
            raise Refused(
                f"the server already holds {len(self.games)} games, its limit "
                "(naqala serve --max-games); delete a finished one first",
                503,
            )

    def create(
        self, seats: Sequence[str], expansions: Sequence[str], houses: Sequence[str], seed: int
    ) -> Game:
        """A new game; ``Refused`` (422) naming what is wrong with the request."""
        self._room()
        if not 1 <= len(seats) <= MAX_SEATS:  # the rules say which counts they allow
            raise Refused(f"a game needs 1 to {MAX_SEATS} seats, not {len(seats)}", 422)
        offered = expansions_offered()
        names = installed_names()  # the names offered and their aliases (``djinns``)
        for name in expansions:
            if names.get(name, BASE) == BASE:
                raise Refused(
                    f"unknown expansion {name!r}; this server offers {', '.join(offered)}", 422
                )
        files = {house.name: house for house in self.house_rules}
        paths = []
        for name in houses:
            if name not in files:
                known = ", ".join(files) or "none (naqala serve --house-rules FILE)"
                raise Refused(f"unknown house-rule file {name!r}; this server has {known}", 422)
            paths.append(files[name])
        try:
            rules = build_rules(list(expansions), paths)
            kinds = [canonical_seat(rules, seat) for seat in seats]  # the rules' players
            if HUMAN not in kinds:
                raise Refused("a game needs at least one human seat", 422)
            state = rules.new_game(len(kinds), seed)
            engine = self._engine(rules, kinds)
        except (SeatError, PluginError, ContentError, ValueError) as exc:
            raise Refused(str(exc), 422) from None
        record = new_record(rules, seed, len(kinds), kinds)
        return self._add(rules, record, [state], engine)

    def load(self, text: str) -> Game:
        """A game resumed from an uploaded record; ``Refused`` (422) if it is not one this
        server can play on exactly."""
        self._room()
        try:
            record = record_from_json(text, "the uploaded record")
            rules = self._rules(record)
            record = self._canonical(rules, record)
            states = replay(record, rules)
            engine = self._engine(rules, record.seats)
        except (RecordError, PluginError, ContentError, ValueError) as exc:
            raise Refused(str(exc), 422) from None
        return self._add(rules, record, states, engine)

    def _canonical(self, rules: Rules, record: GameRecord) -> GameRecord:
        record = with_canonical_seats(rules, record, "the uploaded record")
        if HUMAN not in record.seats:
            raise RecordError("the uploaded record: $.seats: no human seat to play")
        if not 1 <= len(record.seats) <= MAX_SEATS:
            raise RecordError(f"the uploaded record: $.seats: 1 to {MAX_SEATS} seats, please")
        return record

    def _rules(self, record: GameRecord) -> Rules:
        """The record's rules from installed plugins and the server's own house-rule files,
        matched by sha256 (the paths in the record are never read)."""
        return rules_for_record(record, self.house_rules, ASK_THE_SERVER, pool=True)

    def _engine(self, rules: Rules, seats: Sequence[str]) -> str:
        """The engine of a game's AI seats (``kernel.seated.table_engine``), auto's
        fallback said once on stderr; ``EngineError`` (a ``ValueError``) when native was
        asked for and cannot play them."""
        choice = table_engine(rules, seats, self.engine)
        if choice.fallback is not None and choice.fallback not in self._said:
            self._said.add(choice.fallback)
            print(f"naqala serve: {choice.fallback}", file=sys.stderr, flush=True)
        return choice.engine

    def _add(self, rules: Rules, record: GameRecord, states: list[State], engine: str) -> Game:
        game_id = new_game_id()
        while game_id in self.games:  # pragma: no cover - 64 random bits
            game_id = new_game_id()
        tokens = [new_token() if kind == HUMAN else None for kind in record.seats]
        game = Game(game_id, rules, record, states, tokens, engine=engine)
        self.games[game_id] = game
        self.save_seats(game)
        self.save(game)
        return game

    def delete(self, game: Game) -> None:
        self.games.pop(game.id, None)
        for path in self._paths(game.id):
            path.unlink(missing_ok=True)

    # -- the data directory ------------------------------------------------------------------

    def _paths(self, game_id: str) -> tuple[Path, Path]:
        return self.folder / f"{game_id}.record.json", self.folder / f"{game_id}.seats.json"

    def save(self, game: Game) -> None:
        """Save the game's record (atomically: a crash leaves the old or the new one)."""
        save_record(self._paths(game.id)[0], game.record)

    def save_seats(self, game: Game) -> None:
        """Save the seats' tokens and who is played for (they change rarely)."""
        data = {"tokens": list(game.tokens), "autoplay": sorted(game.autoplay)}
        write_atomically(self._paths(game.id)[1], (json.dumps(data) + "\n").encode("utf-8"))

    def resume(self) -> list[str]:
        """Load every game saved in the folder; returns a warning per game that could not be
        resumed (it is left on disk, untouched), and per game resumed stopped (its AI seats'
        engine, asked with ``--engine``, cannot play it: its pages say why)."""
        warnings = []
        for path in sorted(self.folder.glob("*.record.json")):
            game_id = path.name.removesuffix(".record.json")
            if not GAME_ID.match(game_id) or game_id in self.games:
                continue
            try:
                game = self.games[game_id] = self._resumed(game_id)
            except (OSError, ValueError, KeyError, TypeError, RecordError) as exc:
                warnings.append(f"{path}: not resumed: {exc}")
                continue
            if game.stopped is not None:
                warnings.append(f"{path}: resumed stopped: {game.stopped}")
        return warnings

    def _resumed(self, game_id: str) -> Game:
        record_path, seats_path = self._paths(game_id)
        record = record_from_json(record_path.read_text("utf-8"), str(record_path))
        rules = self._rules(record)
        record = self._canonical(rules, record)
        states = replay(record, rules)
        seats = json.loads(seats_path.read_text("utf-8"))
        tokens = [None if t is None else str(t) for t in seats["tokens"]]
        autoplay = [int(s) for s in seats["autoplay"]]
        if [t is not None for t in tokens] != [k == HUMAN for k in record.seats]:
            raise ValueError(f"{seats_path}: the tokens do not match the record's seats")
        try:
            engine, halted = self._engine(rules, record.seats), None
        except EngineError as exc:  # its players are told why, and the game kept as it is
            engine, halted = PYTHON, f"{exc} (naqala serve --engine {self.engine})"
        game = Game(game_id, rules, record, states, tokens, autoplay, engine)
        if halted is not None:
            game.halt(halted)
        return game


def record_text(game: Game) -> str:
    return record_to_json(game.record)
