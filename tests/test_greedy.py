"""The fast greedy player (agents/greedy.py) and its move ends (agents/move_ends.py).

The move ends are exactly the distinct (start, end, colour) ends the exhaustive walk
finds, each with a legal plan; the player plays whole games of every expansion set and
house rule, is deterministic, picks a move as good as the exhaustive search's in almost
every position, and beats random players.
"""

from __future__ import annotations

import pytest

from naqala.agents.greedy import GreedyAgent
from naqala.agents.greedy_full import distinct_moves, follow
from naqala.agents.move_ends import move_ends
from naqala.core import build_rules
from naqala.core.agents import RandomAgent, SeatError, canonical_seat, make_agent
from naqala.core.engine import Rules
from naqala.core.simulate import play_game
from naqala.core.state import State

SETS = [(), ("artisans",), ("djinns",), ("artisans", "djinns"), ("no-loops",)]


def picks(rules: Rules, players: int, seed: int, every: int = 5) -> list[State]:
    """Every ``every``-th pick decision of a random game."""
    found = []
    state = rules.new_game(players, seed)
    agent = RandomAgent(seed)
    count = 0
    while not state.is_over:
        if state.decision.stage == "pick":
            count += 1
            if count % every == 0:
                found.append(state)
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    return found


def ends_of(rules: Rules, state: State) -> set[tuple[str, str, str]]:
    geo = state.geometry
    return {
        (geo.names[e.start], geo.names[e.end], rules.letters[e.colour])
        for e in move_ends(geo, state.board.meeples, rules.letters)
    }


@pytest.mark.parametrize("expansions", SETS[:4], ids=lambda s: "+".join(("base", *s)))
def test_move_ends_are_the_exhaustive_walks_ends_each_with_a_legal_plan(
    expansions: tuple[str, ...],
) -> None:
    rules = build_rules(list(expansions))
    for state in picks(rules, 3, 7, every=6)[:4]:
        walked = {
            (plan[0].args[0], plan[-1].args[0], plan[-1].args[1])
            for plan in distinct_moves(rules, state)
        }
        assert ends_of(rules, state) == walked
        for end in move_ends(state.geometry, state.board.meeples, rules.letters):
            after = follow(rules, state, end.plan)  # building the plan makes taken exact
            assert after is not None and after.turn is not None
            assert (after.turn.here, after.turn.colour, after.turn.taken) == (
                end.end,
                end.colour,
                end.taken,
            )


@pytest.mark.parametrize("expansions", SETS, ids=lambda s: "+".join(("base", *s)))
def test_greedy_plays_whole_games_of_every_set_and_is_deterministic(
    expansions: tuple[str, ...],
) -> None:
    rules = build_rules(list(expansions))
    seen = []
    for _ in range(2):
        actions: list[str] = []
        agents = [make_agent(rules, "greedy", 1), make_agent(rules, "random", 2)]
        final, _count = play_game(
            rules, 2, 4, agents, on_action=lambda s, a, out=actions: out.append(str(a))
        )
        assert final.is_over
        seen.append(actions)
    assert seen[0] == seen[1]


def test_greedy_picks_as_well_as_the_exhaustive_search_almost_always() -> None:
    """At picks of random 4-player games, the fast player's move is worth (by the same
    judgement: the score after the best next decision of the turn) as much as the best
    of every move end in at least 90% of positions."""
    rules = build_rules([])
    agent = GreedyAgent()
    equal = total = 0
    for seed in (1, 2):
        for state in picks(rules, 4, seed, every=3):
            player = state.decision.player
            best = max(
                agent.settled(rules, follow(rules, state, e.plan), player)  # type: ignore[arg-type]
                for e in move_ends(state.geometry, state.board.meeples, rules.letters)
            )
            total += 1
            equal += agent.plan_move(rules, state, player)[0] == best
    assert total >= 20 and equal >= 0.9 * total


def test_greedy_finishes_a_move_it_did_not_start() -> None:
    """Handed a drop decision in the middle of a move, it completes a legal move."""
    rules = build_rules([])
    state = rules.new_game(2, 3)
    while state.decision.stage != "pick":
        state = rules.apply(state, rules.legal_actions(state)[0])
    state = rules.apply(state, rules.legal_actions(state)[0])  # a pick
    agent = GreedyAgent()
    player = state.decision.player
    while state.decision.stage == "drop":
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    assert state.decision.player == player or state.is_over


def test_greedy_beats_random_players() -> None:
    rules = build_rules([])
    agents = [
        make_agent(rules, "greedy", 0),
        make_agent(rules, "random", 1),
        make_agent(rules, "random", 2),
    ]
    final, _ = play_game(rules, 3, 9, agents)
    assert rules.winners(final) == (0,)


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("random", True),
        ("greedy", True),
        ("greedy-full", True),
        ("greedy:3", False),
        ("genius", False),
    ],
)
def test_agent_names_are_resolved_in_one_place(name: str, known: bool) -> None:
    rules = build_rules()
    if known:
        assert canonical_seat(rules, name) == f"ai:{name}"
    else:
        with pytest.raises(SeatError, match=f"seat '{name}'"):
            make_agent(rules, name, 0)
