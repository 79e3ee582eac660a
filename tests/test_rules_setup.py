"""Setting up the base game (content facts §1.1-1.5): every test starts from
``rules.new_game(players, seed)`` and checks one part of the rulebook's "Setting up"."""

from __future__ import annotations

from collections import Counter

import pytest

from naqala.core.state import NOBODY, State
from naqala.plugins.base.setup import SetupError
from naqala.testing.scenario import DJINN_DECK, RESOURCE_DECK, base_rules

PLAYER_COUNTS = (2, 3, 4)
SEEDS = (0, 1, 2, 3, 4, 5, 6, 7)


def new_game(players: int, seed: int = 11) -> State:
    return base_rules().new_game(players, seed)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_board_is_thirty_tiles_twelve_blue_and_eighteen_red_valued(players: int) -> None:
    """ "30 tiles, 5 rows x 6 columns": 12 blue-valued (5 villages worth 5; 7 sacred
    places worth 6, 6, 6, 6, 10, 12, 15) and 18 red-valued (6 oases worth 8, 8 small
    markets worth 6, 4 large markets worth 4); each tile is used exactly once."""
    rules = base_rules()
    layout = new_game(players).layout
    assert (layout.rows, layout.cols) == (5, 6)
    assert len(layout.tiles) == 30
    assert sorted(layout.tiles) == sorted(rules.tile_specs)
    specs = [rules.tile(t) for t in layout.tiles]
    blue = sorted(s.vp for s in specs if s.value == "blue")
    red = sorted(s.vp for s in specs if s.value == "red")
    assert blue == sorted([5] * 5 + [6, 6, 6, 6, 10, 12, 15])
    assert red == sorted([8] * 6 + [6] * 8 + [4] * 4)
    assert Counter(s.kind for s in specs) == {
        "village": 5,
        "sacred-place": 7,
        "oasis": 6,
        "small-market": 8,
        "large-market": 4,
    }
    assert not layout.blocked and not layout.walls


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_three_meeples_on_every_tile_ninety_in_all(players: int) -> None:
    """ "Place 3 meeples drawn at random from the bag on each tile": all 90 meeples
    (16 yellow, 20 white, 18 green, 18 blue, 18 red) end up on the board; the bag is
    empty and nobody holds a meeple yet."""
    rules = base_rules()
    state = new_game(players)
    assert all(sum(tile) == 3 for tile in state.board.meeples)
    on_board = [sum(tile[c] for tile in state.board.meeples) for c in range(len(rules.letters))]
    assert dict(zip(rules.letters, on_board, strict=True)) == {
        "Y": 16,
        "W": 20,
        "G": 18,
        "B": 18,
        "R": 18,
    }
    assert sum(on_board) == 90
    assert state.bag == (0, 0, 0, 0, 0)
    assert all(not any(p.meeples) for p in state.players)
    assert state.board.owners == (NOBODY,) * 30


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_nine_resource_cards_and_three_djinns_face_up(players: int) -> None:
    """ "54 resource cards (36 merchandise + 18 Fakirs), shuffled; 9 dealt face up in a row.
    22 Djinns, shuffled; 3 dealt face up." Nothing is discarded yet."""
    rules = base_rules()
    decks = new_game(players).decks
    resources, djinns = decks[RESOURCE_DECK], decks[DJINN_DECK]
    assert len(resources.row) == 9
    assert len(resources.row) + len(resources.draw) == 54
    assert Counter(resources.row + resources.draw) == {
        "ivory": 2,
        "jewels": 2,
        "gold": 2,
        "papyrus": 4,
        "silk": 4,
        "spice": 4,
        "fish": 6,
        "wheat": 6,
        "pottery": 6,
        "fakir": 18,
    }
    assert len(djinns.row) == 3
    assert len(djinns.row) + len(djinns.draw) == 22
    assert sorted(djinns.row + djinns.draw) == sorted(d.id for d in rules.content.deck("djinns"))
    assert len(set(djinns.row + djinns.draw)) == 22
    assert resources.discard == () and djinns.discard == ()


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_bank_holds_twelve_palm_trees_and_ten_palaces(players: int) -> None:
    """ "12 palm trees and 10 palaces" go to the bank; no tile holds any yet."""
    rules = base_rules()
    state = new_game(players)
    bank = dict(zip((t.id for t in rules.tokens), state.pool, strict=True))
    assert bank == {"palm-tree": 12, "palace": 10}
    assert all(not any(tokens) for tokens in state.board.tokens)


@pytest.mark.parametrize(
    ("players", "camels", "markers"),
    [(2, 11, (0, 0, 1, 1)), (3, 8, (0, 1, 2)), (4, 8, (0, 1, 2, 3))],
)
def test_each_player_gets_fifty_coins_camels_and_turn_markers(
    players: int, camels: int, markers: tuple[int, ...]
) -> None:
    """ "Each player takes 50 coins and the camels of one colour with its turn marker: 8
    camels; at 2 players 11 camels and two turn markers each." """
    state = new_game(players)
    assert len(state.players) == players
    for p in state.players:
        assert p.coins == 50
        assert p.camels == camels
        assert p.cards == () and p.djinns == ()
    assert state.markers == markers


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_turn_markers_start_on_the_bid_track_in_random_order(players: int) -> None:
    """ "Place the turn markers at random on the Bid Order Track"; the Turn Order Track
    (18, 12, 8, 5, 3, 1, 0, 0, 0) is empty and the first marker's owner bids first."""
    orders = set()
    for seed in SEEDS:
        state = new_game(players, seed)
        assert sorted(state.bid_track) == list(range(len(state.markers)))
        assert state.turn_track == (NOBODY,) * 9
        assert state.decision.stage == "bid"
        assert state.decision.player == state.markers[state.bid_track[0]]
        assert state.round == 1
        orders.add(state.bid_track)
    assert len(orders) > 1, "the bid order should depend on the seed"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_same_seed_gives_the_same_setup(players: int) -> None:
    """The setup is random but fully determined by the seed: the same seed gives the very
    same game (layout, meeples, decks, bid order, random generator)."""
    assert new_game(players, 42) == new_game(players, 42)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_different_seeds_give_different_setups(players: int) -> None:
    """Different seeds shuffle the tiles, draw the meeples and shuffle the decks
    differently."""
    one, two = new_game(players, 1), new_game(players, 2)
    assert one.layout.tiles != two.layout.tiles
    assert one.board.meeples != two.board.meeples
    assert one.decks[RESOURCE_DECK] != two.decks[RESOURCE_DECK]
    assert one.decks[DJINN_DECK] != two.decks[DJINN_DECK]


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_unsupported_player_counts_are_refused_clearly(players: int) -> None:
    """The base game is for 2 to 4 players (5 needs Whims of the Sultan): other counts are
    refused with an error that names the allowed counts."""
    with pytest.raises(SetupError, match=r"not supported.*allowed: 2, 3, 4"):
        base_rules().new_game(players, 1)
