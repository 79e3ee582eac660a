"""Property tests: random games keep every conservation law and never reach a dead end.

Games are played by uniform random agents whose seeds hypothesis draws, from random game
seeds and player counts 2-4. After every action the whole state is checked: meeples,
resource cards, djinns, camels and tokens are conserved, nothing is negative, score lines
add up, the pending decision has options in canonical order with round-tripping notation.
At a sample of decisions every option is tried, and each must lead to a state that still
has an option (or is over). The same invariants, as the state loader checks them for every
installed plugin's components (``naqala.testing.invariants``), hold in random games of every
expansion set and player count.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from naqala.core.actions import Action, parse_action
from naqala.core.agents import RandomAgent
from naqala.core.content import DECK_NAMES
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, NON_PLAYER, State, aside_cards, aside_meeples
from naqala.plugins.base.api import REACH, pieces_left
from naqala.testing.invariants import assert_invariants, checked_playout, mask_problems
from naqala.testing.scenario import DJINN_DECK, RESOURCE_DECK, base_rules
from naqala.testing.strategies import player_counts, rulesets

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=4)

#: stages where every option is tried at every decision (they are rare in random play);
#: at other stages every option is tried at every ``SAMPLE_EVERY``-th decision
COMMON_STAGES = frozenset({"bid", "pick", "drop"})
SAMPLE_EVERY = 6


@attrs.frozen
class Expected:
    """What the content says a game of this many players holds in total."""

    meeples: tuple[int, ...]  # per colour
    cards: Counter[str]  # resource cards per type
    djinns: Counter[str]
    held: Counter[str]  # cards of plugin decks (items…)
    tokens: tuple[int, ...]  # per token kind
    camels: int  # per player
    pieces: int  # other pieces to place per player (a tent), which take tiles too


def expected(rules: Rules, players: int) -> Expected:
    content = rules.content
    per_player = {pc.players: pc for pc in content.player_counts}[players]
    return Expected(
        meeples=tuple(c.count for c in content.colours),
        cards=Counter({c.id: c.count for c in content.deck("resources")}),
        djinns=Counter(d.id for d in content.deck("djinns")),
        held=Counter({c.id: c.count for c in content.cards if c.deck not in DECK_NAMES}),
        tokens=tuple(t.count for t in content.tokens),
        camels=per_player.camels,
        pieces=pieces_left(rules.new_game(players, 0).players[0]) - per_player.camels,
    )


def _deck_of(rules: Rules, card: str) -> str:
    spec = rules.card_specs.get(card)
    return spec.deck if spec else ""


def _where(state: State) -> str:
    return f"(round {state.round}, stage {state.decision.stage!r}, player {state.decision.player})"


def check_conservation(rules: Rules, state: State, want: Expected) -> None:
    """Meeples, cards, djinns, camels and tokens are all where they can be counted."""
    where = _where(state)
    colours = len(want.meeples)
    hand = state.turn.hand if state.turn is not None and state.turn.hand else (0,) * colours
    for c in range(colours):
        total = (
            sum(tile[c] for tile in state.board.meeples)
            + state.bag[c]
            + sum(p.meeples[c] for p in state.players)
            + hand[c]
            + aside_meeples(state, rules.colours[c].id)  # a solo opponent's, beside the board
        )
        assert total == want.meeples[c], f"{rules.letters[c]} meeples: {total} {where}"

    aside = Counter(aside_cards(state))
    # cards being chosen from (Sibittis's djinns, the Artisans' items, what opponents gave
    # up to a thief) count with the deck they came from
    revealed = state.turn.revealed if state.turn is not None else ()
    resources = state.decks[RESOURCE_DECK]
    cards = Counter(resources.draw + resources.row + resources.discard)
    cards.update({c: n for c, n in aside.items() if _deck_of(rules, c) == "resources"})
    cards.update(c for c in revealed if _deck_of(rules, c) == "resources")  # a green thief's
    for p in state.players:
        cards.update(p.cards)
    assert cards == want.cards, f"resource cards {cards} {where}"

    djinn_deck = state.decks[DJINN_DECK]
    djinns = Counter(djinn_deck.draw + djinn_deck.row + djinn_deck.discard)
    djinns.update({c: n for c, n in aside.items() if _deck_of(rules, c) == "djinns"})
    djinns.update(c for c in revealed if _deck_of(rules, c) == "djinns")  # Sibittis's choice
    for p in state.players:
        djinns.update(p.djinns)
    assert djinns == want.djinns, f"djinns {djinns} {where}"

    held: Counter[str] = Counter(c for c in revealed if _deck_of(rules, c) not in DECK_NAMES)
    held.update({c: n for c, n in aside.items() if _deck_of(rules, c) not in DECK_NAMES})
    for deck in state.decks[len(DECK_NAMES) :]:
        # a row laid out in fixed places (one whim per city) marks an empty place ""
        held.update(c for c in deck.draw + deck.row + deck.discard if c)
    for p in state.players:
        held.update(c for hand in p.hands[len(DECK_NAMES) :] for c in hand)
    assert held == want.held, f"plugin deck cards {held} {where}"

    for seat, p in enumerate(state.players):
        owned = sum(1 for owner in state.board.owners if owner == seat)
        placed_pieces = want.pieces - (pieces_left(p) - p.camels)
        assert p.camels + owned == want.camels + placed_pieces, f"player {seat} camels {where}"

    for k, count in enumerate(want.tokens):
        placed = sum(tile[k] for tile in state.board.tokens)
        assert state.pool[k] + placed == count, f"{rules.tokens[k].id} {where}"


def check_not_negative(state: State) -> None:
    """No supply, holding or count anywhere is negative."""
    where = _where(state)
    for p in state.players:
        assert p.coins >= 0, f"coins {p.coins} {where}"
        assert p.camels >= 0, f"camels {where}"
        assert min(p.meeples) >= 0, f"kept meeples {where}"
        assert all(v >= 0 for _, v in p.extras), f"player extras {where}"
    assert min(state.bag) >= 0, f"bag {state.bag} {where}"
    assert min(state.pool) >= 0, f"pool {state.pool} {where}"
    assert all(min(tile) >= 0 for tile in state.board.meeples), f"board meeples {where}"
    assert all(min(tile) >= 0 for tile in state.board.tokens), f"board tokens {where}"
    if state.turn is not None:
        assert all(n >= 0 for n in state.turn.hand), f"hand {where}"
        assert state.turn.taken >= 0 and REACH.of(state.turn) >= 0, f"turn {where}"
    n = len(state.players)
    assert all(o in (NOBODY, NON_PLAYER) or 0 <= o < n for o in state.board.owners), (
        f"owners {where}"
    )


def check_scores(rules: Rules, state: State) -> None:
    """Each player's score lines add up to their score in ``rules.scores``."""
    scores = rules.scores(state)
    assert len(scores) == len(state.players)
    for player, score in enumerate(scores):
        lines = rules.score_lines(state, player)
        assert all(isinstance(line.points, int) for line in lines)
        assert sum(line.points for line in lines) == score


def check_options(rules: Rules, state: State) -> list[Action]:
    """The options are canonical (sorted, unique, round-tripping) and exist unless over."""
    options = rules.legal_actions(state)
    if state.is_over:
        assert options == [], "a finished game offers no options"
        assert state.decision.player == NOBODY
        return options
    assert options, f"no legal action {_where(state)}"
    assert 0 <= state.decision.player < len(state.players)
    keys = [a.sort_key() for a in options]
    assert keys == sorted(keys), f"options not in canonical order {_where(state)}"
    assert len(set(options)) == len(options), f"duplicate options {_where(state)}"
    for action in options:
        assert parse_action(str(action)) == action, f"notation of {action!r}"
    return options


def check_state(rules: Rules, state: State, want: Expected) -> list[Action]:
    check_conservation(rules, state, want)
    check_not_negative(state)
    check_scores(rules, state)
    assert not mask_problems(state), f"{mask_problems(state)} {_where(state)}"
    return check_options(rules, state)


def check_no_dead_ends(rules: Rules, state: State, options: list[Action], want: Expected) -> None:
    """Every option leads to a state that has an option of its own, or is over."""
    for action in options:
        child = rules.apply(state, action)
        check_conservation(rules, child, want)
        check_not_negative(child)
        assert not mask_problems(child), f"{action}: {mask_problems(child)} {_where(state)}"
        assert child.is_over or rules.legal_actions(child), (
            f"{action} leads to a dead end {_where(state)}"
        )


def play_checked(rules: Rules, players: int, seed: int, agent_seed: int, steps: int) -> State:
    """Play up to ``steps`` actions with random agents, checking everything on the way."""
    want = expected(rules, players)
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    for step in range(steps):
        options = check_state(rules, state, want)
        if state.is_over:
            break
        if state.decision.stage not in COMMON_STAGES or step % SAMPLE_EVERY == 0:
            check_no_dead_ends(rules, state, options, want)
        action = agents[state.decision.player].choose(rules, state, options)
        state = rules.apply(state, action)
    else:
        check_state(rules, state, want)
    return state


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=PLAYERS, seed=SEEDS, agent_seed=SEEDS)
def test_full_random_games_keep_every_invariant(players: int, seed: int, agent_seed: int) -> None:
    """A whole random game keeps every invariant after every action and ends properly."""
    rules = base_rules()
    state = play_checked(rules, players, seed, agent_seed, steps=10_000)
    assert state.is_over, "a random game did not end within 10 000 actions"
    assert rules.game_ends(state)
    assert rules.winners(state)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=PLAYERS,
    seed=SEEDS,
    agent_seed=SEEDS,
    steps=st.integers(min_value=0, max_value=250),
)
def test_random_prefixes_keep_every_invariant(
    players: int, seed: int, agent_seed: int, steps: int
) -> None:
    """Random play of random length keeps every invariant after every action."""
    play_checked(base_rules(), players, seed, agent_seed, steps)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=PLAYERS, seed=SEEDS, agent_seed=SEEDS, steps=st.integers(0, 250))
def test_every_option_of_a_reached_decision_has_a_continuation(
    players: int, seed: int, agent_seed: int, steps: int
) -> None:
    """At the decision reached after random play, every option is tried and none is a dead
    end — and neither is any option of the decision that follows it."""
    rules = base_rules()
    want = expected(rules, players)
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    for _ in range(steps):
        if state.is_over:
            break
        options = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
    options = check_state(rules, state, want)
    for action in options:
        child = rules.apply(state, action)
        check_no_dead_ends(rules, child, check_state(rules, child, want), want)


def test_new_games_conserve_everything_for_each_player_count() -> None:
    """The freshly set-up game already satisfies every invariant, for 2, 3 and 4 players."""
    rules = base_rules()
    for players in (2, 3, 4):
        want = expected(rules, players)
        state = rules.new_game(players, seed=players)
        options = check_state(rules, state, want)
        assert state.decision.stage == "bid"
        check_no_dead_ends(rules, state, options, want)
        assert want.meeples == (16, 20, 18, 18, 18)
        assert sum(want.cards.values()) == 54
        assert sum(want.djinns.values()) == 22


def test_the_checks_catch_a_broken_state() -> None:
    """The invariant checks are not vacuous: a vanished meeple, a duplicated card, a lost
    camel or a negative bank are each reported."""
    rules = base_rules()
    want = expected(rules, 3)
    state = rules.new_game(3, seed=11)
    check_conservation(rules, state, want)
    broken = [
        attrs.evolve(state, bag=(state.bag[0] - 1, *state.bag[1:])),
        state.replace_player(0, state.players[0].with_hand(RESOURCE_DECK, ("fakir",))),
        state.replace_player(1, attrs.evolve(state.players[1], camels=0)),
        attrs.evolve(state, pool=(state.pool[0] + 1, *state.pool[1:])),
    ]
    for bad in broken:
        with pytest.raises(AssertionError):
            check_conservation(rules, bad, want)
    with pytest.raises(AssertionError):
        check_not_negative(state.replace_player(2, attrs.evolve(state.players[2], coins=-1)))


# -- every expansion set: the invariants of naqala.testing.invariants ------------------------

#: the expansion sets of the boxes, each played to the end at its largest player count
BOXES = [(), ("artisans",), ("djinns",), ("artisans", "djinns")]


@pytest.mark.parametrize("expansions", BOXES, ids=lambda e: "+".join(("base", *e)))
def test_a_whole_game_of_every_box_keeps_the_invariants(expansions: tuple[str, ...]) -> None:
    """A random game of the most players each set allows keeps every component of every
    plugin in play accounted for, after every action, to the end."""
    from naqala.core.engine import build_rules

    rules = build_rules(expansions)
    players = max(pc.players for pc in rules.content.player_counts)
    state = checked_playout(rules, players, seed=len(expansions) + 7, agent_seed=3)
    assert state.is_over


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS, agent_seed=SEEDS, steps=st.integers(0, 300))
def test_random_play_keeps_the_invariants_of_every_expansion_set(
    data: st.DataObject, seed: int, agent_seed: int, steps: int
) -> None:
    """Any set of installed plugins (house rules included), any player count it allows:
    random play keeps the invariants after every action."""
    rules = data.draw(rulesets(), label="rules")
    players = data.draw(player_counts(rules), label="players")
    checked_playout(rules, players, seed, agent_seed, max_actions=steps)


def test_the_kit_invariants_catch_what_the_base_checks_catch() -> None:
    """``assert_invariants`` fails on each broken state the checks above catch."""
    rules = base_rules()
    state = rules.new_game(3, seed=11)
    assert_invariants(rules, state)
    broken = [
        attrs.evolve(state, bag=(state.bag[0] - 1, *state.bag[1:])),
        state.replace_player(0, state.players[0].with_hand(RESOURCE_DECK, ("fakir",))),
        state.replace_player(1, attrs.evolve(state.players[1], camels=0)),
        attrs.evolve(state, pool=(state.pool[0] + 1, *state.pool[1:])),
        state.replace_player(2, attrs.evolve(state.players[2], coins=-1)),
    ]
    for bad in broken:
        with pytest.raises(AssertionError, match="the state breaks its rules"):
            assert_invariants(rules, bad)
