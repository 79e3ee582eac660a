"""Setting up a new base game: board, meeples, decks, coins, camels, turn markers."""

from __future__ import annotations

import math
from typing import cast

from naqala.core.content import DJINNS, RESOURCES, ContentError
from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import NOBODY, Board, Decision, Deck, Layout, PlayerState, State, add_at
from naqala.plugins.base.bidding import turn_order_costs
from naqala.plugins.base.lying import fill_places
from naqala.plugins.base.variants import deal_start_cards


class SetupError(ValueError):
    """A game that cannot be set up as asked (e.g. an unsupported player count)."""


#: how often a layout with a cut-off tile is laid again before giving up
LAYOUT_ATTEMPTS = 1000


def board_shape(rules: Rules) -> tuple[int, int]:
    """Rows and columns of the board for the tiles in play: content table
    ``board_<number of tiles>`` (30 tiles make 5×6, 36 make 6×6, 42 make 6×7), so each
    set of expansions gets its board without any plugin knowing the others. Without such
    a table the shape is derived (``derived_shape``); a ``ContentError`` says why if none
    can be."""
    count = len(rules.tile_specs)
    key = f"board_{count}"
    shape = rules.content.tables.get(key)
    if shape is None:
        derived = derived_shape(count)
        if derived is None:
            raise ContentError(
                [
                    f"content: tables.{key}: no board shape for {count} tiles: no plugin "
                    f"sets tables.{key} = [rows, cols] and {count} tiles make no board of "
                    f"at least {MIN_ROWS} rows with at most {MAX_EXTRA_COLUMNS} more "
                    "columns than rows"
                ]
            )
        return derived
    if len(shape) != 2 or shape[0] * shape[1] != count:
        raise ContentError(
            [f"content: tables.{key} = {list(shape)} is not [rows, cols] for {count} tiles"]
        )
    return shape[0], shape[1]


#: a derived board is at least this tall and at most this much wider than tall, like the
#: boards of the boxes (5×6, 6×6, 6×7)
MIN_ROWS = 3
MAX_EXTRA_COLUMNS = 2


def derived_shape(count: int) -> tuple[int, int] | None:
    """The squarest board of ``count`` tiles that looks like a Five Tribes board (35
    tiles → 5×7), or None (a prime number of tiles has none)."""
    rows = math.isqrt(count)
    while rows >= MIN_ROWS:
        cols, left = divmod(count, rows)
        if not left and cols - rows <= MAX_EXTRA_COLUMNS:
            return rows, cols
        rows -= 1
    return None


def random_layout(rules: Rules, rng: Rng) -> tuple[Layout, Rng]:
    """All tiles shuffled into the board of ``board_shape``."""
    rows, cols = board_shape(rules)
    shuffled, rng = rng.shuffled(list(rules.tile_specs))
    return Layout(rows=rows, cols=cols, tiles=shuffled), rng


def lay_out(rules: Rules, players: int, rng: Rng) -> tuple[Layout, Rng]:
    """Ask the layout provider for a board, with its impassable tiles and walls, and lay it
    again while some tile cannot be reached from the others (impassable tiles and
    mountains can shut a tile or a pocket of tiles in)."""
    for _ in range(LAYOUT_ATTEMPTS):
        found = rules.provide("naqala_board_layout", rules=rules, players=players, rng=rng)
        if found is None:  # pragma: no cover - the base plugin always answers
            raise SetupError("no plugin lays out the board")
        layout, rng = found
        layout = finish_layout(rules, layout)
        if layout.geometry.is_connected():
            return layout, rng
    raise SetupError("no layout without a cut-off tile was found")  # pragma: no cover


def finish_layout(rules: Rules, layout: Layout) -> Layout:
    """Add the impassable tiles and walls that plugins declare for this layout."""
    return rules.with_terrain(layout)


#: the settings giving the face-up row of the two decks every game has; a deck a plugin
#: adds reads ``<deck>_row`` (no row if unset)
ROW_SETTINGS = {RESOURCES: "resource_row", DJINNS: "djinn_row"}


def deck_row(rules: Rules, deck: str) -> int:
    """How many cards of ``deck`` lie face up at the start."""
    if deck in ROW_SETTINGS:
        return rules.content.setting(ROW_SETTINGS[deck])
    return rules.content.settings.get(f"{deck}_row", 0)


def new_game(rules: Rules, players: int, seed: int) -> State:
    """The base game's setup, driven by the content numbers (rulebook "Setting up")."""
    counts = {pc.players: pc for pc in rules.content.player_counts}
    if players not in counts:
        allowed = ", ".join(str(n) for n in sorted(counts))
        noun = "player" if players == 1 else "players"
        alone = " (one seat plays the solo mode: -x solo)" if players == 1 else ""
        raise SetupError(
            f"a game of {players} {noun} is not supported with these rules "
            f"(allowed: {allowed}){alone}"
        )
    per_player = counts[players]
    layout, rng = lay_out(rules, players, Rng(seed))

    bag = tuple(c.count for c in rules.colours)
    empty = (0,) * len(bag)
    per_tile = rules.content.setting("meeples_per_tile")
    meeples: list[tuple[int, ...]] = []
    for index, tile_id in enumerate(layout.tiles):
        here = empty
        if index not in layout.blocked and rules.tile(tile_id).holds_meeples:
            for _ in range(per_tile):
                colour, rng = rng.choice_weighted(bag)
                bag = add_at(bag, colour, -1)
                here = add_at(here, colour, 1)
        meeples.append(here)
    no_tokens = (0,) * len(rules.tokens)
    board = Board(
        meeples=tuple(meeples),
        owners=(NOBODY,) * len(layout.tiles),
        tokens=(no_tokens,) * len(layout.tiles),
    )

    decks: list[Deck] = []
    hands: list[tuple[tuple[str, ...], ...]] = []  # by deck, then by player
    for name in rules.deck_names:  # resources, djinns, then the decks plugins add
        pile, rng = rng.shuffled([c.id for c in rules.content.deck(name) for _ in range(c.count)])
        pile, dealt = deal_start_cards(rules, name, pile, players)  # `start.cards`
        hands.append(dealt)
        face_up = deck_row(rules, name)
        decks.append(Deck(draw=pile[face_up:], row=pile[:face_up]))

    markers = tuple(p for p in range(players) for _ in range(per_player.markers))
    bid_track, rng = rng.shuffled(range(len(markers)))
    turn_track = (NOBODY,) * len(turn_order_costs(rules, players))
    coins = rules.content.setting("starting_coins")
    state = State(
        ruleset=rules.ruleset,
        layout=layout,
        board=board,
        players=tuple(
            PlayerState(
                coins=coins,
                camels=per_player.camels,
                meeples=empty,
                hands=tuple(by_deck[player] for by_deck in hands),
            )
            for player in range(players)
        ),
        bag=bag,
        pool=tuple(t.count for t in rules.tokens),
        decks=tuple(decks),
        markers=markers,
        bid_track=bid_track,
        turn_track=turn_track,
        decision=Decision("setup", NOBODY),
        rng=rng,
    )
    state = fill_places(rules, state)  # the rows lying on tiles, before any plugin's say
    for adjust in rules.hook.naqala_adjust_new_game.get_hookimpls():
        changed = cast(State | None, adjust.function(rules=rules, state=state))
        if changed is not None:
            state = changed
    return state
