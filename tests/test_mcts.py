"""The search player (agents/mcts.py, rollout.py) and hints (cli/hint.py).

The budget syntax, determinism for a seed and an iteration budget, fair play (two states
that differ only in what the seat cannot see get the same choice, from the search and
from the greedy player), only legal choices with every expansion set and house rule, the
value of a position, an obvious winning move taken, a game against random won, and the
``hint`` command of ``naqala play`` changing nothing.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from naqala.agents.mcts import (
    DEFAULT_BUDGET,
    DEFAULT_WORK,
    MAX_PLAYOUTS,
    MAX_SECONDS,
    Budget,
    MctsAgent,
    parse_budget,
)
from naqala.agents.meter import Meter
from naqala.agents.rollout import WIN_BONUS, value_of
from naqala.cli.hint import hint_lines
from naqala.cli.play import Session
from naqala.core import build_rules
from naqala.core.agents import RandomAgent, make_agent
from naqala.core.engine import Rules
from naqala.core.record import new_record
from naqala.core.simulate import play_game
from naqala.core.state import State, evolve
from naqala.core.views import determinize
from naqala.testing.scenario import board, player, turn_of
from naqala.testing.strategies import reached_states, seeds

SETS = [(), ("artisans",), ("djinns",), ("artisans", "djinns")]
RULES = {s: build_rules(list(s)) for s in SETS}


def test_the_budget_is_iterations_or_cpu_seconds() -> None:
    assert parse_budget("") == Budget(work=DEFAULT_WORK) == DEFAULT_BUDGET
    assert parse_budget("2000") == Budget(iterations=2000)
    assert parse_budget("1.5s") == Budget(seconds=1.5)
    assert parse_budget(".5s") == Budget(seconds=0.5)
    for bad in ("0", "-3", "fast", "0s", "1.5", "2000x"):
        with pytest.raises(ValueError, match="budget"):
            parse_budget(bad)


@pytest.mark.parametrize(
    "budget", ["999999999", str(MAX_PLAYOUTS + 1), "9" * 5000, "61s", "86400s", "9" * 400 + "s"]
)
def test_a_budget_beyond_the_bound_is_refused_saying_the_bound(budget: str) -> None:
    """From any source (a command line, a record, a lobby: all come through here) a
    seat cannot ask for a search that would not answer in the lifetime of a game."""
    with pytest.raises(ValueError, match=r"at most (5000 playouts|60 CPU seconds)") as caught:
        parse_budget(budget)
    assert len(str(caught.value)) < 200
    assert parse_budget(str(MAX_PLAYOUTS)).iterations == MAX_PLAYOUTS
    assert parse_budget(f"{MAX_SECONDS:g}s").seconds == MAX_SECONDS


def test_a_position_is_worth_the_margin_over_the_best_and_the_mean_of_the_others() -> None:
    assert value_of([100, 120, 130], 2) == 10 + 0.5 * 20
    assert value_of([100, 120, 130], 0) == -30 + 0.5 * -25
    assert value_of([50, 50], 0) == 0
    assert value_of([60, 50], 0, won=True) == 10 + 5 + WIN_BONUS


def turn_state(rules: Rules, players: int, seed: int) -> State:
    """A decision other than a bid with several options, after some random play."""
    state = rules.new_game(players, seed)
    agent = RandomAgent(seed)
    for _ in range(40):
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    while state.decision.stage != "pick":
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    return state


def test_the_search_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    rules = RULES[()]
    state = turn_state(rules, 3, 2)
    first = MctsAgent(7, Budget(iterations=30)).analyse(rules, state)  # a pick: all of it
    again = MctsAgent(7, Budget(iterations=30)).analyse(rules, state)
    assert first == again
    assert len(first) > 1
    assert len(first) <= sum(a.visits for a in first) <= 30
    other = MctsAgent(8, Budget(iterations=30)).analyse(rules, state)
    assert [a.reward for a in other] != [a.reward for a in first]  # other deals


def test_the_default_search_is_deterministic_for_a_seed() -> None:
    """The default budget stops on counted work, not on time: the same search again
    (from a fresh agent) spends the same work on the same playouts and chooses the same."""
    rules = RULES[()]
    state = turn_state(rules, 2, 3)
    agents = [MctsAgent(7), MctsAgent(7)]
    first, again = (agent.analyse(rules, state) for agent in agents)
    assert first == again
    assert agents[0].spent == agents[1].spent
    assert 0 < agents[0].spent.work <= DEFAULT_WORK + agents[0].spent.dearest


@pytest.mark.parametrize("work", [600, 2000, 5000])
def test_the_work_cap_is_kept(work: int) -> None:
    """No playout starts that the dearest so far would take past the cap, so a search
    spends at most the cap and one playout; the work counted is the rules' own calls (an
    outside meter counts the same), and a smaller cap buys fewer playouts."""
    rules = RULES[()]
    state = turn_state(rules, 2, 5)
    outside = Meter(rules)
    capped = MctsAgent(2, Budget(iterations=500, work=work))
    capped.analyse(outside.rules, state)
    spent = capped.spent
    assert spent.work == outside.work
    assert spent.work <= work + spent.dearest
    assert spent.playouts >= 1
    more = MctsAgent(2, Budget(iterations=500, work=work * 2))
    more.analyse(rules, state)
    assert more.spent.playouts > spent.playouts
    assert more.spent.work > spent.work


def test_the_same_game_is_played_again_by_fresh_agents() -> None:
    """Same seeds, same seats: the same actions (the first 60 of a game), from fresh
    agents each time."""
    rules = RULES[()]
    games: list[list[str]] = [[], []]
    for actions in games:
        agents = [make_agent(rules, "mcts:3", 4), make_agent(rules, "greedy", 5)]
        state = rules.new_game(2, 9)
        while len(actions) < 60:
            action = agents[state.decision.player].choose(rules, state, rules.legal_actions(state))
            actions.append(str(action))
            state = rules.apply(state, action)
    assert games[0] == games[1]


@pytest.mark.parametrize("expansions", SETS, ids=lambda s: "+".join(("base", *s)))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_a_choice_does_not_depend_on_what_the_seat_cannot_see(
    expansions: tuple[str, ...], data: st.DataObject
) -> None:
    """The same choice for two states that differ only in other players' hidden cards
    and coins, the draw piles' order and the generator."""
    rules = RULES[expansions]
    state = data.draw(reached_states(rules, max_actions=200).filter(lambda s: not s.is_over))
    seat = state.decision.player
    other = determinize(rules, state, seat, data.draw(seeds(), label="other deal"))
    other = evolve(other, players=tuple(evolve(p, coins=p.coins + 5) for p in other.players))
    other = other.replace_player(seat, state.players[seat])
    assert other != state or len(state.players) == 1
    for kind in ("mcts:4", "greedy"):
        choices = [
            make_agent(rules, kind, 3).choose(rules, s, rules.legal_actions(s))
            for s in (state, other)
        ]
        assert choices[0] == choices[1], kind


@pytest.mark.parametrize(
    "expansions", [("artisans", "djinns"), ("no-loops",)], ids=lambda s: "+".join(("base", *s))
)
def test_the_search_plays_whole_games_with_expansions_and_house_rules(
    expansions: tuple[str, ...],
) -> None:
    """Both boxes together (every kind of component) and a house rule that forbids some
    moves; every set's decisions are also searched by the fairness test above."""
    rules = RULES.get(expansions) or build_rules(list(expansions))
    agents = [make_agent(rules, "mcts:3", 1), make_agent(rules, "greedy", 2)]
    final, _ = play_game(rules, 2, 5, agents)
    assert final.is_over


def test_a_seconds_budget_stops_in_time() -> None:
    rules = RULES[()]
    state = turn_state(rules, 2, 4)
    found = MctsAgent(1, parse_budget("0.05s")).analyse(rules, state)
    assert sum(a.visits for a in found) >= 1


def test_a_hint_lists_three_options_with_reasons_and_changes_nothing() -> None:
    rules = RULES[()]
    state = turn_state(rules, 3, 6)
    lines = hint_lines(rules, state, seed=1, iterations=40)
    assert len(lines) == 3
    assert all(line.startswith(f"{n}. pick ") for n, line in enumerate(lines, start=1))
    assert all("expected score" in line for line in lines)
    options = {str(a) for a in rules.legal_actions(state)}
    assert all(line.split()[1] + " " + line.split()[2] in options for line in lines)
    assert hint_lines(rules, state, seed=1, iterations=40) == lines


def test_hint_at_the_prompt_shows_the_options_and_changes_nothing() -> None:
    """``hint`` typed at a human seat of ``naqala play`` prints numbered suggestions; the
    state, the record and the AI seat are as before (the game goes on identically)."""
    rules = RULES[()]
    seats = ["human", "ai:greedy"]

    def session(typed: list[str]) -> Session:
        record = new_record(rules, 3, 2, seats)
        queue = list(typed)

        def ask(prompt: str) -> str:
            if not queue:
                raise EOFError
            return queue.pop(0)

        console = Console(file=io.StringIO(), width=300)
        return Session(rules, rules.new_game(2, 3), record, console, ask)

    plain = session(["1", "1"])
    plain.run()
    hinted = session(["hint", "1", "hint", "1"])
    hinted.run()
    assert hinted.record.actions == plain.record.actions
    assert hinted.state == plain.state
    out = hinted.console.file.getvalue()  # type: ignore[attr-defined]
    assert "1. bid" in out and "best move on the board is worth about" in out


@pytest.mark.parametrize("expansions", SETS, ids=lambda s: "+".join(("base", *s)))
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_the_search_answers_the_decision_it_was_asked(
    expansions: tuple[str, ...], data: st.DataObject
) -> None:
    """Every option the search reports is an option of the root decision, even when
    that decision offers a single move (a djinn's power alongside a lone pick, say), and
    its choice is a legal action."""
    rules = RULES[expansions]
    state = data.draw(reached_states(rules, max_actions=300).filter(lambda s: not s.is_over))
    options = rules.legal_actions(state)
    found = MctsAgent(3, Budget(iterations=3)).analyse(rules, state)
    assert found and all(item.move[0] in options for item in found)
    assert MctsAgent(3, Budget(iterations=3)).choose(rules, state, options) in options


def test_it_takes_the_move_that_wins_the_game() -> None:
    """The last two meeples on the board, two elders side by side: ending on the 15-point
    sacred place wins the game, ending on the oasis (8 points and a palm tree) loses it,
    as the opponent is 17 points ahead in coins. The search ends on the sacred place."""
    rules = RULES[()]
    state = turn_of(rules, rules.new_game(2, 3), seat=0)
    state = board(
        rules,
        state,
        {"a1": "W", "b1": "W"},
        clear=True,
        tiles={"a1": "oasis-1", "b1": "sacred-place-7"},
    )
    state = player(rules, state, 1, coins=state.players[0].coins + 17)
    agents = [MctsAgent(1, Budget(iterations=8)), make_agent(rules, "greedy", 2)]
    choice = agents[0].choose(rules, state, rules.legal_actions(state))
    assert str(choice) == "pick a1"
    while not state.is_over:
        seat = state.decision.player
        state = rules.apply(state, agents[seat].choose(rules, state, rules.legal_actions(state)))
    assert rules.winners(state) == (0,)


def test_it_beats_the_random_player() -> None:
    rules = RULES[()]
    final, _ = play_game(
        rules, 2, 11, [make_agent(rules, "random", 6), make_agent(rules, "mcts:1", 7)]
    )
    assert rules.winners(final) == (1,)
