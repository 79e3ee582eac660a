"""Djinns of Naqala (``content/whims.toml``, ``plugins/whims/``): the fifth player and the
twelve-spot turn-order track, random games with the box (alone and with the Artisans) that
keep every invariant and are deterministic, the Sultan's Whims accounted for at every step,
and ``naqala simulate`` with both expansions.

Bidding positions are 5-player games on a board where every turn has a simple legal move
(pairs of viziers side by side in columns a, b, e, f), with the Great Lake on c6, away from
them; markers 0 to 4 belong to players 0 to 4."""

from __future__ import annotations

import json

import pytest
from test_properties import check_conservation, expected, play_checked
from test_whims_board import RULESETS, djinns_rules, full_rules
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.actions import Action
from naqala.core.agents import RandomAgent
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.simulate import agent_seed as seat_seed
from naqala.core.state import NOBODY, State, evolve, get_extra
from naqala.plugins.base.bidding import costs_in_play
from naqala.plugins.base.setup import SetupError, finish_layout
from naqala.testing.scenario import base_rules, bid_order, board, options, play, play_round, player

SEED = 5
WHIMS = "whims"
BASE_COSTS = (18, 12, 8, 5, 3, 1, 0, 0, 0)
FIVE_COSTS = (18, 12, 8, 5, 5, 3, 3, 1, 1, 0, 0, 0)
ALL_BIDS = ["bid 0", "bid 1", "bid 3", "bid 5", "bid 8", "bid 12", "bid 18"]


def start(*markers: int) -> tuple[Rules, State]:
    """A 5-player game (module docstring) whose markers bid in the given order."""
    rules = djinns_rules()
    state = rules.new_game(5, SEED)
    pairs = {f"{col}{row}": "Y" for col in "abef" for row in (1, 3, 5)}
    state = board(rules, state, pairs, clear=True, tiles={"c6": "great-lake-1"})
    state = evolve(state, layout=finish_layout(rules, state.layout))
    return rules, bid_order(rules, state, *markers)


def on_spots(state: State, *spots: int) -> list[int]:
    """Whose markers sit on these spots of the turn-order track."""
    return [state.turn_track[i] for i in spots]


# -- five players ---------------------------------------------------------------------------


def test_the_base_game_alone_refuses_five_players() -> None:
    """Five players need Djinns of Naqala: the base game alone refuses them, naming the
    allowed counts."""
    with pytest.raises(SetupError, match=r"not supported.*allowed: 2, 3, 4\)"):
        base_rules().new_game(5, SEED)


def test_with_djinns_five_players_are_allowed_and_six_are_not() -> None:
    """With Djinns of Naqala 2 to 5 players may play; 6 are refused, naming 2, 3, 4, 5."""
    with pytest.raises(SetupError, match=r"allowed: 2, 3, 4, 5\)"):
        djinns_rules().new_game(6, SEED)
    with pytest.raises(SetupError, match=r"allowed: 2, 3, 4, 5\)"):
        full_rules().new_game(6, SEED)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_five_players_get_8_camels_one_marker_and_a_12_spot_track(ruleset: str) -> None:
    """At 5 players each player has 50 coins, 8 camels and 1 turn marker; the 5 markers
    start on the 5 spots of the bid-order track in random order; the turn-order track has
    12 spots with the costs of the content table ``turn_order_costs_5``."""
    rules = RULESETS[ruleset]()
    table = rules.content.tables["turn_order_costs_5"]
    assert tuple(table) == FIVE_COSTS
    orders = set()
    for seed in range(8):
        state = rules.new_game(5, seed)
        assert [(p.coins, p.camels) for p in state.players] == [(50, 8)] * 5
        assert state.markers == (0, 1, 2, 3, 4)
        assert sorted(state.bid_track) == [0, 1, 2, 3, 4]
        assert state.turn_track == (NOBODY,) * 12
        assert costs_in_play(rules, state) == table
        assert state.decision.stage == "bid"
        orders.add(state.bid_track)
    assert len(orders) > 1, "the bid order should depend on the seed"


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_keep_the_base_9_spot_track(ruleset: str, players: int) -> None:
    """With Djinns of Naqala, 2 to 4 players bid on the base track: 9 spots costing 18, 12,
    8, 5, 3, 1, 0, 0, 0; camels and markers are those of the base game."""
    rules = RULESETS[ruleset]()
    state = rules.new_game(players, SEED)
    assert state.turn_track == (NOBODY,) * 9
    assert costs_in_play(rules, state) == BASE_COSTS
    assert [p.camels for p in state.players] == [11 if players == 2 else 8] * players
    assert len(state.markers) == (4 if players == 2 else players)


# -- bidding on the five-player track ------------------------------------------------------


def test_the_five_player_track_offers_each_cost_once() -> None:
    """The first bidder of a 5-player round may bid any cost of the track, each offered
    once: 0, 1, 3, 5, 8, 12, 18."""
    rules, s = start(0, 1, 2, 3, 4)
    assert options(rules, s) == ALL_BIDS


def test_a_second_bid_of_5_takes_the_front_5_spot_and_plays_first() -> None:
    """The two spots costing 5 are a queue: the second bid of 5 takes the front spot and
    pushes the first 5-bidder back, so the later bidder plays first. Once both are taken 5
    is no longer offered, and ``bid 5`` is refused because all spots costing 5 are taken.
    Play follows the track: the 5s, then the 3s (again latest first), then the 0."""
    rules, s = start(0, 1, 2, 3, 4)
    s = play(rules, s, "bid 5")
    assert on_spots(s, 3, 4) == [0, NOBODY]
    s = play(rules, s, "bid 5")
    assert on_spots(s, 3, 4) == [1, 0]
    assert [p.coins for p in s.players[:2]] == [45, 45]
    assert s.decision.player == 2
    assert options(rules, s) == ["bid 0", "bid 1", "bid 3", "bid 8", "bid 12", "bid 18"]
    with pytest.raises(IllegalAction, match="all spots costing 5 are taken"):
        play(rules, s, "bid 5")
    s = play(rules, s, "bid 3", "bid 3", "bid 0")
    assert on_spots(s, 5, 6) == [3, 2]
    assert [p.coins for p in s.players] == [45, 45, 47, 47, 50]
    _, order = play_round(rules, s)
    assert order == [1, 0, 3, 2, 4]


def test_three_zero_spots_then_the_pair_of_1s() -> None:
    """Five players share three 0 spots: after three bids of 0 the fourth bidder must pay
    at least 1; the two spots costing 1 queue like the zeros, and both play before them."""
    rules, s = start(0, 1, 2, 3, 4)
    s = play(rules, s, "bid 0", "bid 0", "bid 0")
    assert on_spots(s, 9, 10, 11) == [2, 1, 0]
    assert options(rules, s) == ALL_BIDS[1:]
    with pytest.raises(IllegalAction, match="must pay at least 1"):
        play(rules, s, "bid 0")
    s = play(rules, s, "bid 1")
    assert on_spots(s, 7, 8) == [3, NOBODY]
    s = play(rules, s, "bid 1")
    assert on_spots(s, 8) == [3], "player 4 took the front 1 spot and plays first"
    assert s.decision.player == 4
    _, order = play_round(rules, s)
    assert order == [4, 3, 2, 1, 0]


def test_bids_of_every_cost_play_from_the_dearest_down() -> None:
    """Turn order runs down the 12-spot track: 18, 12, 8, then the 5s, 3s, 1s and 0s."""
    rules, s = start(4, 3, 2, 1, 0)
    s = play(rules, s, "bid 1", "bid 12", "bid 0", "bid 18", "bid 5")
    assert [p.coins for p in s.players] == [45, 32, 50, 38, 49]
    _, order = play_round(rules, s)
    assert order == [1, 3, 0, 4, 2]


def test_kumarbi_steps_down_distinct_costs_on_the_five_player_track() -> None:
    """Kumarbi's Fakirs step the price down the distinct costs of the track (18, 12, 8, 5,
    3, 1, 0), not its spots: a spot costing 5 costs 3 with 1 Fakir, 1 with 2, 0 with 3.
    The marker still joins the queue of 5s at its front."""
    rules, s = start(0, 1, 2, 3, 4)
    s = play(rules, s, "bid 5")
    s = player(rules, s, 1, djinns=["kumarbi"], cards=["fakir"] * 3)
    kumarbi_5 = [str(a) for a in rules.legal_actions(s) if str(a).startswith("kumarbi 5 ")]
    assert kumarbi_5 == ["kumarbi 5 F", "kumarbi 5 FF", "kumarbi 5 FFF"]
    for fakirs, price in ((1, 3), (2, 1), (3, 0)):
        after = play(rules, s, f"kumarbi 5 {'F' * fakirs}")
        assert after.players[1].coins == 50 - price
        assert after.players[1].cards.count("fakir") == 3 - fakirs
        assert on_spots(after, 3, 4) == [1, 0]


# -- random games ---------------------------------------------------------------------------

CONFIGS = [
    pytest.param(ruleset, players, id=f"{ruleset}-{players}p")
    for ruleset in RULESETS
    for players in (2, 3, 4, 5)
]


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_random_games_keep_every_invariant(ruleset: str, players: int) -> None:
    """Whole random games with Djinns of Naqala keep every invariant after every action
    (meeples, cards, whims, djinns, camels and tokens conserved, nothing negative, scores
    adding up, no dead end) and reach the end."""
    rules = RULESETS[ruleset]()
    for seed in (1, 2):
        state = play_checked(rules, players, seed * 100 + players, seed, steps=10_000)
        assert state.is_over, "a random game did not end within 10 000 actions"
        assert rules.game_ends(state)
        assert rules.winners(state)


def random_game(
    rules: Rules, players: int, seed: int, agent_seed: int, *, claim_first: bool = False
) -> list[State]:
    """Every state of one random game, unchecked; with ``claim_first`` a player claims a
    whim whenever one is offered (random play rarely meets a whim's condition)."""
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    seen = [state]
    while not state.is_over:
        legal = rules.legal_actions(state)
        claims = [a for a in legal if a.kind == "claim"]
        if claim_first and claims:
            action = claims[0]
        else:
            action = agents[state.decision.player].choose(rules, state, legal)
        state = rules.apply(state, action)
        seen.append(state)
    return seen


def random_actions(rules: Rules, players: int, seed: int, agent_seed: int) -> list[Action]:
    """The actions of one random game."""
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    chosen = []
    while not state.is_over:
        legal = rules.legal_actions(state)
        action = agents[state.decision.player].choose(rules, state, legal)
        chosen.append(action)
        state = rules.apply(state, action)
    return chosen


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_games_are_deterministic_and_states_round_trip_through_json(
    ruleset: str, players: int
) -> None:
    """The same seed and the same actions give the very same final state, with rules built
    afresh; the state JSON of any position (whims on the cities, whims held, the lake)
    reads back to the same state and the same text."""
    rules = RULESETS[ruleset]()
    expansions = ruleset.split("+")
    actions = random_actions(rules, players, 7 + players, 3)
    first = play(rules, rules.new_game(players, 7 + players), *map(str, actions))
    fresh = build_rules(expansions)
    again = play(fresh, fresh.new_game(players, 7 + players), *map(str, actions))
    assert first.is_over
    assert again == first
    states = random_game(rules, players, 7 + players, 3)
    assert states[-1] == first
    whims = rules.deck_index[WHIMS]
    with_empty_slot = 0
    for index, state in enumerate(states):
        empty_slot = "" in state.decks[whims].row
        if index % 20 and index != len(states) - 1 and not (empty_slot and index % 4 == 0):
            continue
        with_empty_slot += empty_slot
        text = state_to_json(rules, state)
        back_rules, back = state_from_json(text)
        assert back == state
        assert back_rules.ruleset == rules.ruleset
        assert state_to_json(back_rules, back) == text
    assert with_empty_slot, "no state with a city whose whim was taken was written"


def whims_in_deck(rules: Rules, state: State) -> int:
    deck = state.decks[rules.deck_index[WHIMS]]
    return len(deck.draw) + sum(1 for card in deck.row if card != "") + len(deck.discard)


def whims_held(rules: Rules, state: State) -> int:
    return sum(1 for p in state.players for card in p.hand(rules.deck_index[WHIMS]))


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_the_22_whims_are_always_accounted_for(ruleset: str, players: int) -> None:
    """At every step of a random game the whims in the deck (draw pile, the cities' slots
    that hold one, the claimed ones face up) and in players' hands number 22, and the
    players' fulfilled-whims counters add up to the face-up pile."""
    rules = RULESETS[ruleset]()
    want = expected(rules, players)
    assert sum(n for card, n in want.held.items() if rules.card_specs[card].deck == WHIMS) == 22
    claims = taken = 0
    for seed in range(21, 27):
        for state in random_game(rules, players, seed + players, seed, claim_first=True):
            assert whims_in_deck(rules, state) + whims_held(rules, state) == 22
            claimed = sum(get_extra(p.extras, "whims.claimed") for p in state.players)
            assert claimed == len(state.decks[rules.deck_index[WHIMS]].discard)
            check_conservation(rules, state, want)
            taken += whims_held(rules, state)
        claims += claimed
    assert taken, "no whim was ever taken from a city"
    assert claims, "no whim was claimed in these games"


# -- the command line -----------------------------------------------------------------------

runner = CliRunner()


def test_simulate_five_players_with_artisans_and_djinns() -> None:
    """``naqala simulate -x artisans -x djinns --players 5 --games 2 --seed 1`` plays two
    5-player games to the end; with ``--json`` its summary names both plugins."""
    args = ["simulate", "-x", "artisans", "-x", "djinns", "--players", "5"]
    args += ["--games", "2", "--seed", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    assert "base, artisans, djinns" in result.stdout
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    summary = json.loads(result.stdout)
    assert summary["plugins"] == ["base", "artisans", "djinns"]
    assert summary["games"] == 2
    assert summary["players"] == 5
    assert len(summary["wins_by_seat"]) == 5


def test_simulate_counts_the_whims_fulfilled() -> None:
    """``simulate --json`` reports ``card_effects``: for every whim (and item), how often
    it changed a game; a claimed whim counts once, so the whims' total is the number of
    claims in those games (ten random 4-player games claim some)."""
    args = ["simulate", "-x", "djinns", "--players", "4", "--games", "10", "--seed", "1"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    effects = json.loads(result.stdout)["card_effects"]
    whims = [c.id for c in djinns_rules().content.cards if c.deck == WHIMS]
    assert sorted(effects) == sorted(whims)
    claims = 0
    for seed in range(1, 11):
        rules = djinns_rules()
        agents = [RandomAgent(seat_seed(seed, seat)) for seat in range(4)]
        state = rules.new_game(4, seed)
        while not state.is_over:
            options = rules.legal_actions(state)
            action = agents[state.decision.player].choose(rules, state, options)
            claims += action.kind == "claim"
            state = rules.apply(state, action)
    assert claims > 0
    assert sum(effects.values()) == claims
    plain = runner.invoke(app, args)
    assert "card effects: " in plain.stdout
