"""Scenario tests for the Djinns of Naqala box: the Fabulous Cities and the Sultan's Whims
lying on them, claiming whims (all 16 condition kinds, with the real cards and thresholds
of ``content/whims.toml``), the djinns Qareen and Dalhan, and city scoring
(``plugins/whims``; docs/rules-notes.md, "Djinns of Naqala").

Unless a test says otherwise the position is a 2-player game on an otherwise empty 6×6
board, player 1 (seat 0) to pick. The five cities lie on b1, e2, c3, a5 and b6 — in board
order, so these are the five slots of the whims row — and the Great Lake on e5. The whims
row is ``ROW`` (one whim per city), the whims draw pile ``PILE``, the discard pile empty.
b3 and c3 hold a vizier each, so the move ``pick b3``, ``drop c3 Y`` ends on the city c3
(collecting 2 viziers, taking control of it); d1 and d2 hold a merchant each (so a move
stays possible). Whims a test hands to a player are taken out of the deck first.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping

import attrs
import pytest

from naqala.core.actions import parse_action
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.events import Event
from naqala.core.hookspecs import hookimpl
from naqala.core.serialize import state_to_json
from naqala.core.state import NOBODY, Decision, State, Turn, effect_counts, get_extra, set_extra
from naqala.plugins.base.effects import UsedPower
from naqala.plugins.base.merchandise import merchandise_types
from naqala.plugins.whims.cities import city_tiles
from naqala.plugins.whims.lake import lakes, lakeside_tiles
from naqala.testing.scenario import bid_order, board, deck, options, play, player, tokens, turn_of

SEED = 7
WHIMS = "whims"
CLAIMED = "whims.claimed"
FAKIR = "fakir"
#: the cities, in board order (= the order of the slots of the whims row)
CITIES = ("b1", "e2", "c3", "a5", "b6")
LAKE = "e5"
TILES = {
    "b1": "city-1",
    "e2": "city-2",
    "c3": "city-3",
    "a5": "city-4",
    "b6": "city-5",
    LAKE: "great-lake-1",
}
MEEPLES = {"b3": "Y", "c3": "Y", "d1": "G", "d2": "G"}
MOVE = ("pick b3", "drop c3 Y")
#: the whim on each city (b1, e2, c3, a5, b6)
ROW = ("explorer", "hamlets", "palatial", "caravan", "monopoly")
PILE = ("landowner", "pilgrimage", "mystic")
#: the tiles of a long move along row 4 and up column f (none a city, the lake or near b3)
ROUTE = ("b4", "c4", "d4", "e4", "f4", "f3", "f2", "f1")


# -- helpers -------------------------------------------------------------------------------


@functools.cache
def djinns_rules() -> Rules:
    """The rules of the base game with the Djinns of Naqala (built once, shared)."""
    return build_rules(["djinns"])


@functools.cache
def artisans_djinns_rules() -> Rules:
    return build_rules(["artisans", "djinns"])


class Recorder:
    """A plugin that writes down every event fired (name, player, tile name, what, count)."""

    NAME = "recorder"

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, int, str, int]] = []

    @hookimpl
    def naqala_event(self, rules: Rules, state: State, event: Event) -> State | None:
        self.seen.append((event.name, event.player, event.tile, event.what, event.count))
        return None

    def named(self, name: str) -> list[tuple[str, int, int, str, int]]:
        return [e for e in self.seen if e[0] == name]


def recording() -> tuple[Rules, Recorder]:
    recorder = Recorder()
    return build_rules(["djinns"], extra_plugins=[recorder]), recorder


def measure(rules: Rules, card: str) -> str:
    """What the whim's power tests against its threshold: ``held("yellow")``."""
    power = rules.power_of(rules.card_specs[card])
    assert isinstance(power, UsedPower) and power.spec.when is not None, card
    return str(power.spec.when).removesuffix(" >= param.at_least")


def counted_by(rules: Rules, card: str) -> str:
    """The count the whim's condition reads first (``held``, ``tiles_of``, ``near``…)."""
    found = re.search(r"([a-z_]+)\(", measure(rules, card))
    assert found is not None, card
    return found.group(1)


def subject(rules: Rules, card: str) -> str:
    """What the whim's count names (a colour, a tile kind, a value, a token), or ""."""
    found = re.search(r'\("([^"]*)"\)', measure(rules, card))
    return found.group(1) if found else ""


def whims_of(count: str) -> list[str]:
    """The whim cards of content whose condition reads the count ``count`` first."""
    rules = djinns_rules()
    return sorted(
        c.id for c in rules.content.cards if c.deck == WHIMS and counted_by(rules, c.id) == count
    )


def whims_of_all() -> list[str]:
    return sorted(c.id for c in djinns_rules().content.cards if c.deck == WHIMS)


def at_least(rules: Rules, card: str) -> int:
    return rules.card_specs[card].param("at_least")


def coins_of(rules: Rules, card: str) -> int:
    return rules.card_specs[card].param("coins")


def at(state: State, name: str) -> int:
    return state.geometry.parse(name)


def whim_row(rules: Rules, state: State) -> tuple[str, ...]:
    return state.decks[rules.deck_index[WHIMS]].row


def set_whims(
    rules: Rules,
    state: State,
    *,
    row: Iterable[str] | None = None,
    draw: Iterable[str] | None = None,
    discard: Iterable[str] | None = None,
) -> State:
    """The whims deck with the given parts (the scenario kit's ``deck``)."""
    parts = {"row": row, "draw": draw, "discard": discard}
    return deck(rules, state, WHIMS, **{k: tuple(v) for k, v in parts.items() if v is not None})


def lay(rules: Rules, state: State, tiles: Mapping[str, str]) -> State:
    """Put tile ids on board places (swapping), keeping the cities and the lake in place
    (and the lake impassable)."""
    fixed = {**TILES, **tiles}
    state = board(rules, state, tiles=fixed)
    layout = attrs.evolve(state.layout, blocked=lakes(rules, state.layout))
    state = attrs.evolve(state, layout=layout)
    geo = state.geometry
    assert tuple(geo.name(t) for t in city_tiles(rules, state)) == CITIES
    assert {geo.name(t) for t in lakes(rules, state.layout)} == {LAKE}
    return state


def position(
    meeples: Mapping[str, str] = MEEPLES,
    *,
    tiles: Mapping[str, str] | None = None,
    row: Iterable[str] = ROW,
    pile: Iterable[str] = PILE,
    seat: int = 0,
    players: int = 2,
) -> tuple[Rules, State]:
    """The standard position (module docstring), changed by the arguments."""
    rules = djinns_rules()
    state = rules.new_game(players, SEED)
    state = board(rules, state, meeples, clear=True)
    state = lay(rules, state, tiles or {})
    state = set_whims(rules, state, row=row, draw=pile, discard=())
    return rules, turn_of(rules, state, seat)


def holding(rules: Rules, state: State, seat: int, *whims: str) -> State:
    """``seat`` also holds ``whims`` in hand, taken out of the whims deck if there."""
    deck = state.decks[rules.deck_index[WHIMS]]
    state = set_whims(
        rules,
        state,
        row=["" if c in whims else c for c in deck.row],
        draw=[c for c in deck.draw if c not in whims],
        discard=[c for c in deck.discard if c not in whims],
    )
    p = state.players[seat]
    whims_hand = rules.deck_index[WHIMS]
    return state.replace_player(
        seat, p.with_hand(whims_hand, tuple(sorted((*p.hand(whims_hand), *whims))))
    )


def own(rules: Rules, state: State, seat: int, tiles: Mapping[str, str]) -> State:
    """``seat`` controls the named places, on which the named tile ids are laid."""
    state = lay(rules, state, {name: t for name, t in tiles.items() if name not in TILES})
    return board(rules, state, owners=dict.fromkeys(tiles, seat))


def claims(rules: Rules, state: State) -> list[str]:
    return options(rules, state, "claim")


def tile_ids(rules: Rules, kind: str | None = None, value: str | None = None) -> list[str]:
    """Tile ids of content of a kind and/or a value (cities and the lake left out unless
    asked for by kind)."""
    return sorted(
        t
        for t, spec in rules.tile_specs.items()
        if (kind is None or spec.kind == kind)
        and (value is None or spec.value == value)
        and (kind is not None or spec.kind not in ("city", "great-lake"))
    )


#: places to own for counting tests: none a city, the lake, next to the lake, or b3
FREE = ("a1", "c1", "d1", "e1", "f1", "a2", "b2", "c2", "d2", "f2", "a3", "d3")


def claimed(state: State, seat: int) -> int:
    return get_extra(state.players[seat].extras, CLAIMED)


# -- the city tile action ------------------------------------------------------------------


def test_a_move_ending_on_a_city_puts_its_whim_into_the_movers_hand() -> None:
    """Ending a move on a Fabulous City takes the whim lying there into the mover's hand
    (``held``), leaves that slot empty (the others as they were) and fires
    ``whim-taken``."""
    rules, recorder = recording()
    _, state = position()
    assert state.players[0].hand(rules.deck_index[WHIMS]) == ()
    state = play(rules, state, *MOVE)
    assert state.players[0].hand(rules.deck_index[WHIMS]) == (ROW[2],)
    assert whim_row(rules, state) == (ROW[0], ROW[1], "", ROW[3], ROW[4])
    assert recorder.named("whim-taken") == [("whim-taken", 0, at(state, "c3"), ROW[2], 1)]


def test_a_city_without_a_whim_gives_nothing() -> None:
    """With no whim on the city, its tile action does nothing (no card, no event)."""
    rules, recorder = recording()
    row = (ROW[0], ROW[1], "", ROW[3], ROW[4])
    _, state = position(row=row)
    state = play(rules, state, *MOVE)
    assert state.players[0].hand(rules.deck_index[WHIMS]) == ()
    assert whim_row(rules, state) == row
    assert recorder.named("whim-taken") == []


def test_the_whim_is_taken_without_taking_control_of_the_city() -> None:
    """The tile action does not need control: a move that leaves a merchant on the city
    still takes its whim."""
    rules, state = position({**MEEPLES, "c3": "YG"})
    state = play(rules, state, *MOVE)
    assert state.board.owners[at(state, "c3")] == NOBODY
    assert state.players[0].hand(rules.deck_index[WHIMS]) == (ROW[2],)


def test_dropping_on_a_city_during_the_move_takes_no_whim() -> None:
    """Only the tile where the move ends acts: a city passed over (b1) keeps its whim, the
    city where the move ends (c3) gives its own."""
    rules, state = position({"a1": "YYYY", "c3": "Y", "d1": "G", "d2": "G"})
    state = play(rules, state, "pick a1", "drop b1 Y", "drop b2 Y", "drop c2 Y", "drop c3 Y")
    assert state.players[0].hand(rules.deck_index[WHIMS]) == (ROW[2],)
    assert whim_row(rules, state) == (ROW[0], ROW[1], "", ROW[3], ROW[4])


# -- clean-up ------------------------------------------------------------------------------


def test_clean_up_lays_a_whim_on_every_city_without_one() -> None:
    """At the end of the round each city without a whim gets the top whim of the draw pile,
    in board order; the whims still lying stay where they are."""
    rules, state = position(row=(ROW[0], "", ROW[2], "", ROW[4]))
    state = play(rules, state, *MOVE)  # takes ROW[2] from c3
    assert whim_row(rules, state) == (ROW[0], "", "", "", ROW[4])
    state = play(rules, state, "end")  # the last turn of the round
    assert state.round == 2
    assert whim_row(rules, state) == (ROW[0], PILE[0], PILE[1], PILE[2], ROW[4])
    assert state.decks[rules.deck_index[WHIMS]].draw == ()


def test_an_empty_pile_leaves_cities_bare_and_claimed_whims_never_return() -> None:
    """When the draw pile runs out the remaining cities stay without a whim: the claimed
    whims (the deck's discard pile) are never shuffled back."""
    rules, state = position(row=(ROW[0], "", ROW[2], "", ROW[4]), pile=PILE[:1])
    state = set_whims(rules, state, discard=("grand-vizier", "retinue"))
    state = play(rules, state, *MOVE, "end")
    assert state.round == 2
    deck = state.decks[rules.deck_index[WHIMS]]
    assert deck.row == (ROW[0], PILE[0], "", "", ROW[4])
    assert deck.draw == ()
    assert deck.discard == ("grand-vizier", "retinue")


def test_a_new_game_lays_a_whim_on_every_city() -> None:
    """Setup lays one whim on each of the five cities; the other whims form the pile."""
    rules = djinns_rules()
    state = rules.new_game(2, SEED)
    deck = state.decks[rules.deck_index[WHIMS]]
    assert len(city_tiles(rules, state)) == len(deck.row) == 5
    assert all(deck.row)
    assert len(deck.draw) == len(whims_of_all()) - 5


# -- claiming ------------------------------------------------------------------------------


def test_claiming_a_whim_pays_its_coins_and_lays_it_face_up() -> None:
    """``claim <whim>`` pays the card's ``coins``, takes it out of the hand onto the whims
    discard pile, adds one to the player's ``whims.claimed`` and fires ``whim-claimed``."""
    rules, recorder = recording()
    card = "grand-vizier"
    _, state = position()
    state = holding(rules, state, 0, card, "retinue")
    state = player(rules, state, 0, meeples="Y" * at_least(rules, card))
    coins = state.players[0].coins
    assert claims(rules, state) == [f"claim {card}"]
    state = play(rules, state, f"claim {card}")
    p = state.players[0]
    assert p.coins == coins + coins_of(rules, card)
    assert p.hand(rules.deck_index[WHIMS]) == ("retinue",)
    assert state.decks[rules.deck_index[WHIMS]].discard == (card,)
    assert claimed(state, 0) == 1
    assert effect_counts(state)[card] == 1
    assert recorder.named("whim-claimed") == [
        ("whim-claimed", 0, NOBODY, card, coins_of(rules, card))
    ]
    assert state.decision == Decision("pick", 0)  # the turn goes on


def test_a_whim_is_claimed_only_once() -> None:
    """Once claimed, the whim is no longer offered; claiming it again is illegal."""
    rules, state = position()
    card = "grand-vizier"
    state = holding(rules, state, 0, card)
    state = player(rules, state, 0, meeples="Y" * at_least(rules, card))
    state = play(rules, state, f"claim {card}")
    assert claims(rules, state) == []
    with pytest.raises(IllegalAction, match="you do not hold the whim Grand Vizier"):
        play(rules, state, f"claim {card}")
    assert claimed(state, 0) == 1


def test_several_whims_can_be_claimed_in_the_same_turn() -> None:
    """Every whim whose condition holds can be claimed, one after the other, in one turn."""
    rules, state = position()
    cards = ("grand-vizier", "retinue")
    state = holding(rules, state, 0, *cards)
    need = max(at_least(rules, "grand-vizier"), at_least(rules, "retinue"))
    state = player(rules, state, 0, meeples="Y" * need)
    coins = state.players[0].coins
    assert claims(rules, state) == [f"claim {c}" for c in cards]
    state = play(rules, state, *(f"claim {c}" for c in cards))
    assert state.players[0].hand(rules.deck_index[WHIMS]) == ()
    assert state.players[0].coins == coins + sum(coins_of(rules, c) for c in cards)
    assert sorted(state.decks[rules.deck_index[WHIMS]].discard) == sorted(cards)
    assert claimed(state, 0) == 2


def test_a_whim_is_claimed_after_the_move_that_fulfils_it() -> None:
    """The condition is checked at every decision of the turn: the move that brings the
    viziers makes the whim claimable at the next decision."""
    need = at_least(djinns_rules(), "grand-vizier")
    rules, state = position({**MEEPLES, "c3": "Y" * (need - 1)})  # the move collects `need`
    state = holding(rules, state, 0, "grand-vizier")
    assert claims(rules, state) == []
    state = play(rules, state, *MOVE)
    assert state.turn is not None and state.decision.player == 0
    assert claims(rules, state) == ["claim grand-vizier"]


def test_an_illegal_claim_raises_and_changes_nothing() -> None:
    """Typing ``claim`` for a whim whose condition does not hold raises IllegalAction;
    the state is as it was."""
    rules, state = position()
    card = "grand-vizier"
    state = holding(rules, state, 0, card)
    state = player(rules, state, 0, meeples="Y" * (at_least(rules, card) - 1))
    before = state_to_json(rules, state)
    legal = options(rules, state)
    short = at_least(rules, card) - 1
    unmet = rf"Grand Vizier is not fulfilled yet \(you have {short}\): Have at least"
    with pytest.raises(IllegalAction, match=unmet):
        play(rules, state, f"claim {card}")
    assert state_to_json(rules, state) == before
    assert state.players[0].hand(rules.deck_index[WHIMS]) == (card,)
    assert options(rules, state) == legal
    # one vizier more and the same action is legal
    state = player(rules, state, 0, meeples="Y" * at_least(rules, card))
    play(rules, state, f"claim {card}")


def test_no_claim_while_bidding() -> None:
    """Whims are claimed in your own turn only: not while bidding for turn order."""
    rules, state = position()
    card = "grand-vizier"
    state = holding(rules, state, 0, card)
    state = player(rules, state, 0, meeples="Y" * at_least(rules, card))
    assert claims(rules, state) == [f"claim {card}"]  # in the turn
    state = bid_order(rules, state, *range(len(state.markers)))
    assert state.decision.stage == "bid" and state.decision.player == 0
    assert claims(rules, state) == []
    with pytest.raises(IllegalAction, match="whims are claimed during your own turn"):
        play(rules, state, f"claim {card}")


def test_no_claim_in_another_players_turn() -> None:
    """In player 2's turn, player 1's fulfilled whim is not offered — not even at a
    decision of player 1's during that turn."""
    rules, state = position(seat=1)
    card = "grand-vizier"
    state = holding(rules, state, 0, card)
    state = player(rules, state, 0, meeples="Y" * at_least(rules, card))
    assert state.decision.player == 1
    assert claims(rules, state) == []
    with pytest.raises(IllegalAction):
        play(rules, state, f"claim {card}")
    # a decision of player 1 inside player 2's turn (turn marker is player 2's)
    asked = attrs.evolve(state, decision=Decision("pick", 0))
    assert claims(rules, asked) == []
    # the same decision in player 1's own turn offers it
    mine = state.markers.index(0)
    own_turn = attrs.evolve(asked, turn=Turn(marker=mine))
    assert claims(rules, own_turn) == [f"claim {card}"]


# -- one test per condition kind ------------------------------------------------------------


@pytest.mark.parametrize("card", whims_of("held"))
def test_kept_counts_the_meeples_of_the_colour_in_front_of_you(card: str) -> None:
    """``kept``: at least N meeples of the card's colour in front of you (other colours do
    not help)."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    letter = rules.colours[rules.colour_index[subject(rules, card)]].letter
    other = "G" if letter != "G" else "B"
    n = at_least(rules, card)
    state = player(rules, state, 0, meeples=letter * (n - 1) + other * 5)
    assert claims(rules, state) == []
    state = player(rules, state, 0, meeples=letter * n)
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("held_all"))
def test_kept_total_counts_all_meeples_in_front_of_you(card: str) -> None:
    """``kept-total``: at least N meeples of any colours in front of you."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    mixed = ("YWGBR" * n)[: n - 1]
    state = player(rules, state, 0, meeples=mixed)
    state = player(rules, state, 1, meeples="Y" * n)  # the opponent's do not count
    assert claims(rules, state) == []
    state = player(rules, state, 0, meeples=mixed + "R")
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("most_held"))
def test_most_kept_needs_strictly_more_than_every_opponent(card: str) -> None:
    """``most-kept``: more meeples of the colour than each other player — a tie with any
    opponent is not enough (3 players)."""
    rules, state = position(players=3)
    state = holding(rules, state, 0, card)
    letter = rules.colours[rules.colour_index[subject(rules, card)]].letter
    assert claims(rules, state) == []  # 0 against 0
    state = player(rules, state, 0, meeples=letter * 3)
    state = player(rules, state, 1, meeples=letter * 2)
    state = player(rules, state, 2, meeples=letter * 3)
    assert claims(rules, state) == []  # tied with player 3
    state = player(rules, state, 2, meeples=letter * 2 + "GGGG")
    assert claims(rules, state) == [f"claim {card}"]
    state = player(rules, state, 1, meeples=letter * 4)
    assert claims(rules, state) == []  # player 2 has more


@pytest.mark.parametrize("card", whims_of("tiles_of"))
def test_tiles_of_kind_counts_your_tiles_of_that_kind(card: str) -> None:
    """``tiles-of-kind``: control at least N tiles of the card's tile kind (other kinds
    and the opponent's tiles do not help)."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    kind = subject(rules, card)
    n = at_least(rules, card)
    mine = tile_ids(rules, kind=kind)[:n]
    other = next(t for t in tile_ids(rules) if rules.tile(t).kind != kind)
    state = own(rules, state, 0, {FREE[0]: other, **dict(zip(FREE[1:n], mine, strict=False))})
    state = own(rules, state, 1, {FREE[n]: mine[n - 1]})
    assert claims(rules, state) == []
    state = own(rules, state, 0, {FREE[n]: mine[n - 1]})
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("valued"))
def test_tiles_valued_counts_your_tiles_of_that_value(card: str) -> None:
    """``tiles-valued``: control at least N tiles of the card's value (blue or red), a
    city of that value included."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    value = subject(rules, card)
    n = at_least(rules, card)
    same = tile_ids(rules, value=value)[: n - 2]
    other = next(t for t in tile_ids(rules) if rules.tile(t).value not in ("", value))
    city = next(c for c in CITIES if rules.tile(state.layout.tiles[at(state, c)]).value == value)
    state = own(rules, state, 0, {FREE[0]: other, **dict(zip(FREE[1:], same, strict=False))})
    state = own(rules, state, 0, {city: state.layout.tiles[at(state, city)]})
    assert claims(rules, state) == []  # n - 1 of the value
    state = own(rules, state, 0, {FREE[n]: tile_ids(rules, value=value)[n - 1]})
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("tiles"))
def test_tiles_counts_all_your_tiles(card: str) -> None:
    """``tiles``: control at least N tiles of any kind."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    state = board(rules, state, owners=dict.fromkeys(FREE[: n - 1], 0))
    state = board(rules, state, owners=dict.fromkeys(FREE[n - 1 : n + 2], 1))
    assert claims(rules, state) == []
    state = board(rules, state, owners={FREE[n - 1]: 0})
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("tile_kinds"))
def test_tile_kinds_counts_the_different_kinds_you_control(card: str) -> None:
    """``tile-kinds``: control tiles of at least N different kinds (two of one kind count
    once)."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    kinds = ["village", "oasis", "sacred-place", "small-market", "large-market"]
    assert n <= len(kinds)
    firsts = [tile_ids(rules, kind=k)[0] for k in kinds[:n]]
    seconds = [tile_ids(rules, kind=k)[1] for k in kinds[: n - 1]]
    state = own(rules, state, 0, dict(zip(FREE, firsts[: n - 1] + seconds, strict=False)))
    assert claims(rules, state) == []
    state = own(rules, state, 0, {FREE[2 * n - 2]: firsts[n - 1]})
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("largest_group"))
def test_connected_tiles_needs_a_group_joined_edge_to_edge(card: str) -> None:
    """``connected-tiles``: at least N of your tiles in one group joined edge to edge; a
    tile touching only at a corner does not join, and two smaller groups do not add up."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    assert n == 3, "the places below are drawn for a group of 3"
    # f2-f3 and c1-c2 (two groups of 2) and e1 at f2's corner
    state = board(rules, state, owners=dict.fromkeys(("f2", "f3", "c1", "c2", "e1"), 0))
    assert claims(rules, state) == []
    state = board(rules, state, owners={"f4": 0})  # f2-f3-f4
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("largest_group"))
def test_connected_tiles_are_not_split_by_a_mountain_or_the_lake(card: str) -> None:
    """``connected-tiles``: terrain does not split a group — a mountain on the edge between
    two tiles (it stops meeples, not the join), nor the Great Lake beside them."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    assert at_least(rules, card) == 3, "the places below are drawn for a group of 3"
    # d4-d5-d6 run along the lake (e5); a mountain lies between d4 and d5
    d4, d5 = at(state, "d4"), at(state, "d5")
    layout = attrs.evolve(state.layout, walls=frozenset({(min(d4, d5), max(d4, d5))}))
    state = attrs.evolve(state, layout=layout)
    assert d5 not in state.geometry.neighbours[d4]  # a real mountain: no step across
    state = board(rules, state, owners=dict.fromkeys(("d4", "d5"), 0))
    assert claims(rules, state) == []
    state = board(rules, state, owners={"d6": 0})
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("owned"))
def test_tokens_on_tiles_counts_the_tokens_on_your_tiles(card: str) -> None:
    """``tokens-on-tiles``: at least N of the card's token on tiles you control (tokens on
    other tiles do not count)."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    token = subject(rules, card)
    n = at_least(rules, card)
    state = board(rules, state, owners={"a1": 0, "c1": 0, "f1": 1})
    state = tokens(rules, state, {"a1": {token: n - 2}, "c1": {token: 1}, "f1": {token: 2}})
    state = tokens(rules, state, {"d3": {token: 2}})  # nobody's tile
    assert claims(rules, state) == []
    state = tokens(rules, state, {"c1": {token: 1}})
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("merchandise_kinds"))
def test_merchandise_kinds_counts_different_merchandise_held(card: str) -> None:
    """``merchandise-kinds``: hold at least N different merchandise (doubles and Fakirs
    do not help)."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    kinds = sorted(merchandise_types(rules))
    cards = kinds[: n - 1] * 2 + [FAKIR] * 3
    state = player(rules, state, 0, cards=cards)
    assert claims(rules, state) == []
    state = player(rules, state, 0, cards=[*cards, kinds[n - 1]])
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("most_merchandise"))
def test_same_merchandise_counts_cards_of_one_merchandise(card: str) -> None:
    """``same-merchandise``: hold at least N cards of one merchandise (several kinds do not
    add up; Fakirs are no merchandise)."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    kinds = sorted(merchandise_types(rules))
    cards = [k for k in kinds[:3] for _ in range(n - 1)] + [FAKIR] * (n + 1)
    state = player(rules, state, 0, cards=cards)
    assert claims(rules, state) == []
    state = player(rules, state, 0, cards=[*cards, kinds[0]])
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("cards"))
def test_fakirs_counts_the_fakirs_held(card: str) -> None:
    """``fakirs``: hold at least N Fakir cards (merchandise does not help)."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    merchandise = sorted(merchandise_types(rules))[:3]
    state = player(rules, state, 0, cards=[FAKIR] * (n - 1) + merchandise)
    assert claims(rules, state) == []
    state = player(rules, state, 0, cards=[FAKIR] * n)
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("hand"))
def test_djinns_counts_the_djinns_you_have(card: str) -> None:
    """``djinns``: have at least N djinns."""
    rules, state = position()
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    passive = ["jafaar", "marid", "nekir", "shamhat", "haurvatat"]
    assert n <= len(passive)
    state = player(rules, state, 0, djinns=passive[: n - 1])
    state = player(rules, state, 1, djinns=passive[n - 1 :])
    assert claims(rules, state) == []
    state = player(rules, state, 0, djinns=passive[:n])
    assert claims(rules, state) == [f"claim {card}"]


def long_move(rules: Rules, drops: int) -> tuple[State, tuple[str, ...]]:
    """The standard position changed so that ``drops`` viziers picked on a4 are dropped
    one on each tile of ``ROUTE``; the last tile holds a vizier."""
    end = ROUTE[drops - 1]
    _, state = position({"a4": "Y" * drops, end: "Y", "d1": "G", "d2": "G"})
    return state, ("pick a4", *(f"drop {t} Y" for t in ROUTE[:drops]))


@pytest.mark.parametrize("card", whims_of("path"))
def test_path_length_counts_the_tiles_dropped_on_this_turn(card: str) -> None:
    """``path-length``: in this turn's move, meeples were dropped on at least N tiles; not
    before the move (one tile short is not enough)."""
    rules = djinns_rules()
    n = at_least(rules, card)
    assert n <= len(ROUTE)
    short, move = long_move(rules, n - 1)
    short = holding(rules, short, 0, card)
    short = play(rules, short, *move)
    assert short.turn is not None and len(short.turn.path) == n - 1
    assert short.decision.player == 0
    assert claims(rules, short) == []
    state, move = long_move(rules, n)
    state = holding(rules, state, 0, card)
    assert claims(rules, state) == []  # before the move
    state = play(rules, state, *move)
    assert state.turn is not None and len(state.turn.path) == n
    assert claims(rules, state) == [f"claim {card}"]


@pytest.mark.parametrize("card", whims_of("collected"))
def test_collected_counts_the_meeples_collected_at_the_end_of_the_move(card: str) -> None:
    """``collected``: at the end of this turn's move at least N meeples were collected
    (one short is not enough)."""
    rules = djinns_rules()
    n = at_least(rules, card)
    for waiting, offered in ((n - 2, False), (n - 1, True)):
        _, state = position({**MEEPLES, "c3": "Y" * waiting})
        state = holding(rules, state, 0, card)
        assert claims(rules, state) == []
        state = play(rules, state, *MOVE)  # collects waiting + 1 viziers
        assert state.turn is not None and state.turn.taken == waiting + 1
        assert state.decision.player == 0
        assert claims(rules, state) == ([f"claim {card}"] if offered else [])


@pytest.mark.parametrize("card", whims_of("near"))
def test_lakeside_counts_your_tiles_next_to_the_lake_diagonals_included(card: str) -> None:
    """``lakeside``: control at least N tiles next to the Great Lake; with the default
    ``lake_diagonals = 1`` a tile at its corner is next to it too."""
    rules, state = position()
    assert rules.content.setting("lake_diagonals") == 1
    state = holding(rules, state, 0, card)
    n = at_least(rules, card)
    assert n == 2, "the places below are drawn for 2 lakeside tiles"
    assert {state.geometry.name(t) for t in lakeside_tiles(rules, state.layout)} == {
        "d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"
    }  # fmt: skip
    state = board(rules, state, owners={"e4": 0, "e3": 0, "c5": 0, "f6": 1})
    assert claims(rules, state) == []  # e3 and c5 are two steps away
    state = board(rules, state, owners={"d6": 0})  # at the lake's corner
    assert claims(rules, state) == [f"claim {card}"]


# -- the content -----------------------------------------------------------------------------


#: the counts that name something, and where that name must exist
SUBJECTS = {
    "held": "colour",
    "most_held": "colour",
    "tiles_of": "tile kind",
    "valued": "value",
    "owned": "token",
    "cards": "card",
    "hand": "deck",
    "near": "tile kind",
}


def test_every_whim_card_is_complete() -> None:
    """There are 22 whims, each its own kind; each has a power, ``at_least`` and ``coins``
    (a positive multiple of 5), a condition that reads one of the counts below and, where
    that count names something, a name that exists; every count is used."""
    rules = djinns_rules()
    whims = [c for c in rules.content.cards if c.deck == WHIMS]
    assert len(whims) == 22
    assert len({c.id for c in whims}) == 22
    known = {
        "colour": rules.colour_index.keys(),
        "tile kind": {t.kind for t in rules.tile_specs.values()},
        "value": {"blue", "red"},
        "token": rules.token_index.keys(),
        "card": {FAKIR},
        "deck": {"djinns"},
    }
    for spec in whims:
        assert spec.kind == spec.id and isinstance(rules.power_of(spec), UsedPower), spec.id
        assert spec.param("at_least") >= 1, spec.id
        coins = spec.param("coins")
        assert coins > 0 and coins % 5 == 0, spec.id
        assert spec.name and spec.text, spec.id
        wanted = SUBJECTS.get(counted_by(rules, spec.id))
        if wanted is None:
            assert subject(rules, spec.id) == "", spec.id
        else:
            assert subject(rules, spec.id) in known[wanted], spec.id
    assert {counted_by(rules, c.id) for c in whims} == {
        "held", "held_all", "most_held", "tiles_of", "valued", "tiles", "tile_kinds",
        "largest_group", "owned", "merchandise_kinds", "most_merchandise", "cards", "hand",
        "path", "collected", "near",
    }  # fmt: skip


# -- Qareen ----------------------------------------------------------------------------------


def whims_points(rules: Rules, state: State, seat: int) -> int:
    return sum(line.points for line in rules.score_lines(state, seat) if line.category == "whims")


@pytest.mark.parametrize("fulfilled", [0, 1, 4])
def test_qareen_scores_per_whim_fulfilled(fulfilled: int) -> None:
    """Qareen: each whim its owner has fulfilled scores ``params.per_whim`` VP more, in the
    category ``whims``; none fulfilled, nothing."""
    rules, state = position()
    per_whim = rules.card_specs["qareen"].param("per_whim")
    state = player(rules, state, 0, djinns=["qareen"])
    p = state.players[0]
    state = state.replace_player(0, attrs.evolve(p, extras=set_extra(p.extras, CLAIMED, fulfilled)))
    assert whims_points(rules, state, 0) == fulfilled * per_whim


def test_qareen_counts_a_claim_and_only_its_owners() -> None:
    """Claiming a whim raises Qareen's owner's score by ``per_whim``; a player without
    Qareen scores nothing for their whims."""
    rules, state = position()
    per_whim = rules.card_specs["qareen"].param("per_whim")
    card = "grand-vizier"
    state = holding(rules, state, 0, card)
    state = player(rules, state, 0, meeples="Y" * at_least(rules, card))
    state = player(rules, state, 1, djinns=["qareen"])
    p1 = state.players[1]
    state = state.replace_player(1, attrs.evolve(p1, extras=set_extra(p1.extras, CLAIMED, 2)))
    state = play(rules, state, f"claim {card}")
    assert whims_points(rules, state, 0) == 0  # player 1 has no Qareen
    assert whims_points(rules, state, 1) == 2 * per_whim
    state = player(rules, state, 0, djinns=["qareen"])
    assert whims_points(rules, state, 0) == per_whim


# -- Dalhan ----------------------------------------------------------------------------------


def test_dalhan_offers_the_cities_that_have_a_whim() -> None:
    """Dalhan (an elder or a Fakir): its options name each city with a whim lying on it,
    and no other."""
    row = (ROW[0], "", ROW[2], "", ROW[4])
    rules, state = position(row=row)
    state = player(rules, state, 0, djinns=["dalhan"], meeples="W", cards=[FAKIR])
    assert options(rules, state, "dalhan") == [
        f"dalhan {city} {pay}" for city in ("b1", "b6", "c3") for pay in ("E", "F")
    ]


def test_dalhan_is_not_offered_when_no_city_has_a_whim() -> None:
    """With every city bare, Dalhan has nothing to take and is not offered."""
    rules, state = position(row=("",) * 5)
    state = player(rules, state, 0, djinns=["dalhan"], meeples="W", cards=[FAKIR])
    assert options(rules, state, "dalhan") == []


def test_dalhan_needs_an_elder_or_a_fakir() -> None:
    """Dalhan costs one elder or one Fakir: with neither it is not offered."""
    rules, state = position()
    state = player(rules, state, 0, djinns=["dalhan"], meeples="YY", cards=["fish"])
    assert options(rules, state, "dalhan") == []


def test_dalhan_takes_a_whim_from_any_city_paid_with_an_elder() -> None:
    """Using Dalhan with an elder: the elder goes, the whim on the named city comes into the
    hand (its slot empty) — from any city, not only where the move ends — and Dalhan
    is used up for the turn."""
    rules, state = position()
    state = player(rules, state, 0, djinns=["dalhan"], meeples="WW")
    state = play(rules, state, "dalhan b6 E")
    p = state.players[0]
    assert p.meeples[rules.letters.index("W")] == 1
    assert p.hand(rules.deck_index[WHIMS]) == (ROW[4],)
    assert whim_row(rules, state) == (*ROW[:4], "")
    assert effect_counts(state)["dalhan"] == 1
    assert options(rules, state, "dalhan") == []  # once per turn, though an elder is left
    assert state.decision == Decision("pick", 0)


def test_dalhan_paid_with_a_fakir() -> None:
    """Using Dalhan with a Fakir: the Fakir goes to the discard pile."""
    rules, state = position()
    state = player(rules, state, 0, djinns=["dalhan"], cards=[FAKIR, "fish"])
    state = play(rules, state, "dalhan a5 F")
    assert state.players[0].cards == ("fish",)
    assert state.players[0].hand(rules.deck_index[WHIMS]) == (ROW[3],)
    assert FAKIR in state.decks[0].discard


def test_dalhan_only_in_your_own_turn() -> None:
    """Dalhan is used in its owner's turn: not while bidding, not in another's turn."""
    rules, state = position(seat=1)
    state = player(rules, state, 0, djinns=["dalhan"], meeples="W")
    assert options(rules, state, "dalhan") == []
    state = bid_order(rules, state, *range(len(state.markers)))
    assert state.decision.player == 0
    assert options(rules, state, "dalhan") == []


# -- city scoring ----------------------------------------------------------------------------


def category(rules: Rules, state: State, seat: int, name: str) -> int:
    return sum(line.points for line in rules.score_lines(state, seat) if line.category == name)


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 5), (2, 20), (3, 45), (4, 80), (5, 125)])
def test_owning_n_cities_scores_city_vp_times_n_squared(n: int, points: int) -> None:
    """Owning n cities scores ``city_vp``·n² in the category ``cities``: 5, 20, 45, 80, 125;
    the opponent's cities do not count."""
    rules, state = position()
    assert rules.content.setting("city_vp") * n * n == points
    state = board(rules, state, owners=dict.fromkeys(CITIES[:n], 0))
    state = board(rules, state, owners=dict.fromkeys(CITIES[n:], 1))
    assert category(rules, state, 0, "cities") == points
    assert category(rules, state, 1, "cities") == rules.content.setting("city_vp") * (5 - n) ** 2


def test_cities_add_nothing_to_the_tiles_line() -> None:
    """A city's own tile value is 0: the ``tiles`` line counts only the other tiles."""
    rules, state = position()
    village = tile_ids(rules, kind="village")[0]
    state = own(rules, state, 0, {"a1": village})
    tiles = category(rules, state, 0, "tiles")
    assert tiles == rules.tile(village).vp > 0
    state = board(rules, state, owners=dict.fromkeys(CITIES[:3], 0))
    assert category(rules, state, 0, "tiles") == tiles
    assert category(rules, state, 0, "cities") == 45


def test_a_tent_on_a_city_still_owns_it() -> None:
    """With the Artisans, pitching your tent on a city you took (instead of the camel)
    keeps it yours: the city still scores."""
    rules = artisans_djinns_rules()
    state = rules.new_game(2, SEED)
    city = "a3"  # next to a4, in this game's layout
    assert rules.tile(state.layout.tiles[at(state, city)]).kind == "city"
    state = board(rules, state, {"a4": "Y", city: "Y", "g6": "G", "f6": "G"}, clear=True)
    state = turn_of(rules, state, 0)
    state = play(rules, state, "pick a4", f"drop {city} Y")
    tile = at(state, city)
    assert state.board.owners[tile] == 0
    city_vp = rules.content.setting("city_vp")
    assert category(rules, state, 0, "cities") == city_vp
    camels = state.players[0].camels
    assert f"tent {city}" in options(rules, state, "tent")
    state = play(rules, state, f"tent {city}")
    assert state.board.tokens[tile][rules.token_index["tent"]] == 1
    assert state.players[0].camels == camels + 1
    assert category(rules, state, 0, "cities") == city_vp


def test_a_refused_claim_says_why() -> None:
    """A claim typed by a person is refused with the reason: no such whim, a whim not in
    your hand, or no whim named."""
    rules, state = position()
    state = holding(rules, state, 0, "grand-vizier")
    assert rules.explain(state, parse_action("claim sultans-tea")) == (
        "there is no whim 'sultans-tea'"
    )
    assert rules.explain(state, parse_action("claim mystic")) == "you do not hold the whim Mystic"
    assert rules.explain(state, parse_action("claim")).startswith("name the whim")


def test_the_rules_notes_list_every_whim_with_its_count_and_coins() -> None:
    """docs/rules-notes.md lists the 22 designed whims as the content defines them: name,
    the count its condition reads, threshold and coins (a changed card must change the
    notes too)."""
    from pathlib import Path

    notes = (Path(__file__).resolve().parent.parent / "docs" / "rules-notes.md").read_text(
        encoding="utf-8"
    )
    table = notes.split("### The 22 Sultan's Whims", 1)[1]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[2].isdigit():
            rows[cells[0]] = (cells[1], int(cells[2]))
    rules = build_rules(["djinns"])
    whims = [c for c in rules.content.cards if c.deck == "whims"]
    assert sorted(rows) == sorted(c.name for c in whims)
    for card in whims:
        condition, coins = rows[card.name]
        counted = counted_by(rules, card.id)
        assert f"(`{counted}`)" in condition, card.id
        assert str(card.param("at_least")) in condition or counted == "most_held", card.id
        assert coins == card.param("coins"), card.id
