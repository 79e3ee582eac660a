"""naqala as the OpenSpiel game ``python_naqala`` (extra ``naqala[openspiel]``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from naqala.core.views import determinize  # noqa: E402
from naqala.envs import openspiel  # noqa: E402
from naqala.envs.codec import codec_for  # noqa: E402


def test_the_game_is_registered_with_its_type_and_sizes() -> None:
    game = pyspiel.load_game("python_naqala", {"players": 3, "expansions": "artisans,djinns"})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 3
    assert game.num_distinct_actions() == codec_for(game.rules).size
    assert game.max_chance_outcomes() == openspiel.DEALS
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == openspiel.DEALS
    assert state.observation_tensor(0) == [0.0] * game.encoder.size  # nothing dealt yet
    state.apply_action(7)
    assert state.game_state == game.rules.new_game(3, 7)
    assert len(state.information_state_tensor(0)) == game.encoder.size
    assert len(state.observation_tensor(2)) == game.encoder.size
    assert state.information_state_string(1) == state.observation_string(1)
    variant = pyspiel.load_game("python_naqala", {"house_rules": "no-loops,big-viziers"})
    assert {"no-loops", "big-viziers"} <= set(variant.rules.ruleset)


def test_bad_parameters_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="players=7: these rules allow 2, 3, 4"):
        openspiel.NaqalaGame({"players": 7})
    with pytest.raises(ValueError, match="reward='gold'"):
        openspiel.NaqalaGame({"reward": "gold"})
    with pytest.raises(ValueError, match="deals=0: give at least 1"):
        openspiel.NaqalaGame({"deals": 0})


def test_ismcts_plays_complete_games_against_random_bots() -> None:
    """OpenSpiel's own ISMCTS bot (resampling through the determinization) finishes a
    two-player game against OpenSpiel's random bot, in both seats; rewards are shared."""
    game = pyspiel.load_game("python_naqala", {"players": 2, "seed": 3})
    for seat in (0, 1):
        bots = {
            seat: ismcts.ISMCTSBot(
                game,
                openspiel.CurrentScores(),
                uct_c=2.0,
                max_simulations=3,
                random_state=np.random.RandomState(seat),
            ),
            1 - seat: uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(9)),
        }
        state = game.new_initial_state()
        state.apply_action(seat)  # the deal
        while not state.is_terminal():
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("expansions", "engine"),
    [
        ("artisans", "python"),
        ("", "python"),
        ("", "native"),
        ("artisans", "native"),
        ("djinns", "native"),
        ("thieves", "python"),
        ("thieves", "native"),
    ],
    ids=lambda v: v or "base",
)
def test_information_states_equal_when_only_hidden_parts_differ(
    expansions: str, engine: str
) -> None:
    """The project's hidden-information check on each engine: a determinization for seat
    0 (the others' hidden cards and the piles dealt again) changes nothing seat 0 sees,
    and resampling deals states the mover cannot tell apart."""
    if engine == "native":
        pytest.importorskip("naqala.native._native")
    params = {"players": 3, "expansions": expansions, "engine": engine}
    game = pyspiel.load_game("python_naqala", params)
    assert game.engine == engine
    state = game.new_initial_state()
    state.apply_action(0)
    for action in range(60):
        state.apply_action(state.legal_actions()[action % len(state.legal_actions())])
    other = state.clone()
    other._state = openspiel._Position(
        game.load(determinize(game.rules, state.game_state, 0, 5)), game
    )
    assert other.game_state != state.game_state
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    assert other.observation_tensor(0) == state.observation_tensor(0)
    assert any(
        other.information_state_string(p) != state.information_state_string(p) for p in (1, 2)
    )
    mover = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(mover, sampler) for _ in range(3)]
    for sampled in samples:
        assert sampled.information_state_string(mover) == state.information_state_string(mover)
        assert sampled.observation_tensor(mover) == state.observation_tensor(mover)
        assert sampled.legal_actions() == state.legal_actions()  # the mover's own options
    assert len({s.game_state for s in samples}) > 1  # each sample deals anew


def test_same_seed_same_game_in_openspiel() -> None:
    """Deal ``k`` is the game of seed ``seed + k``; the same deal and actions give the same
    game in two game objects."""
    first = pyspiel.load_game("python_naqala", {"players": 2, "seed": 11})
    second = pyspiel.load_game("python_naqala", {"players": 2, "seed": 11})
    a, b = first.new_initial_state(), second.new_initial_state()
    a.clone()
    a.apply_action(4)
    b.apply_action(4)
    for step in range(40):
        assert a.legal_actions() == b.legal_actions()
        choice = a.legal_actions()[step % len(a.legal_actions())]
        a.apply_action(choice)
        b.apply_action(choice)
    assert a.game_state == b.game_state
    dealt = first.new_initial_state()
    dealt.apply_action(1)
    assert dealt.game_state == first.rules.new_game(2, 12)


def seeded_games(game: Any, games: int, read: bool) -> list[list[int]]:
    """The histories of ``games`` games of random play (numpy, seed 7), every deal and
    action drawn by that generator; with ``read``, every observation and information
    state of every seat is read at every step, as a learner would."""
    draw = np.random.RandomState(7)
    histories = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if read:
                for seat in range(game.num_players()):
                    state.observation_tensor(seat)
                    state.information_state_tensor(seat)
                    state.observation_string(seat)
            state.apply_action(int(draw.choice(state.legal_actions())))
        histories.append(state.history())
    return histories


def test_reading_observations_changes_no_game() -> None:
    """The same seeded run gives the same games whether it reads observations or not
    (OpenSpiel makes a new state to size every tensor it is asked for: that once dealt a
    game and moved the next deal on)."""
    params = {"players": 2, "seed": 3}
    quiet = seeded_games(pyspiel.load_game("python_naqala", params), 2, read=False)
    reading = seeded_games(pyspiel.load_game("python_naqala", params), 2, read=True)
    assert reading == quiet


@pytest.mark.parametrize(
    ("expansions", "engine"),
    [
        ("", "python"),
        ("", "native"),
        ("artisans", "native"),
        ("djinns", "native"),
        ("thieves", "native"),
    ],
    ids=lambda v: v or "base",
)
def test_states_serialize_and_openspiels_random_sim_test_passes(
    expansions: str, engine: str
) -> None:
    """A state comes back exactly from its serialization (OpenSpiel's, and our own
    state JSON), and OpenSpiel's random simulation test passes with serialization on,
    on each engine (every box the kernel plays runs native)."""
    if engine == "native":
        pytest.importorskip("naqala.native._native")
    params = {"players": 3, "expansions": expansions, "engine": engine}
    game = pyspiel.load_game("python_naqala", params)
    assert game.engine == engine
    state = game.new_initial_state()
    assert game.deserialize_state(state.serialize()).is_chance_node()
    state.apply_action(2)
    for step in range(50):
        state.apply_action(state.legal_actions()[step % len(state.legal_actions())])
    again, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert back.game_state == state.game_state and back.history() == state.history()
    assert back.game.engine == engine
    assert str(again) == str(game)
    assert game.deserialize_state(state.serialize()).game_state == state.game_state
    with pytest.raises(ValueError, match="not a naqala state of this game"):
        game.deserialize_state('{"version": 2}')
    pyspiel.random_sim_test(
        pyspiel.load_game("python_naqala", {**params, "players": 2}),
        num_sims=2,
        serialize=True,
        verbose=False,
    )


def test_the_engine_is_native_where_the_rules_run_there() -> None:
    """``engine=auto`` plays the base game and every box the kernel plays natively, and
    rules with code the kernel lacks on Python; asking for the native engine there says
    why not."""
    pytest.importorskip("naqala.native._native")
    assert pyspiel.load_game("python_naqala", {"players": 2}).engine == "native"
    for box in ("artisans", "djinns", "thieves"):
        params = {"players": 2, "expansions": box}
        assert pyspiel.load_game("python_naqala", params).engine == "native"
    house = pyspiel.load_game("python_naqala", {"players": 2, "house_rules": "double-palms"})
    assert house.engine == "python"
    with pytest.raises(ValueError, match=r"cannot run natively: .*plugin 'double-palms'"):
        openspiel.NaqalaGame({"house_rules": "double-palms", "engine": "native"})


def test_the_evaluators_give_rewards_from_naqala() -> None:
    """``RandomPlayouts`` plays to the end inside naqala (the same seed, the same value);
    ``CurrentScores`` gives the rewards as the scores stand."""
    game = pyspiel.load_game("python_naqala", {"players": 2, "seed": 5})
    state = game.new_initial_state()
    state.apply_action(0)
    values = openspiel.RandomPlayouts(2, seed=4).evaluate(state)
    assert values.sum() == pytest.approx(1.0) and len(values) == 2
    assert list(openspiel.RandomPlayouts(2, seed=4).evaluate(state)) == list(values)
    assert list(openspiel.CurrentScores().evaluate(state)) == [0.5, 0.5]  # 50 coins each
    margin = pyspiel.load_game("python_naqala", {"players": 2, "seed": 5, "reward": "margin"})
    assert margin.min_utility() == -openspiel.MARGIN_BOUND


@pytest.mark.parametrize("expansions", ["", "artisans,djinns,thieves"])
def test_the_kernel_writes_each_information_state_string_as_python_does(expansions: str) -> None:
    """On the native engine the information state string is written by the kernel from
    its own state (no Python state made): the same text as the Python engine's, seat by
    seat, move by move, hidden cards and all."""
    pytest.importorskip("naqala.native._native")
    games = {
        engine: pyspiel.load_game(
            "python_naqala", {"players": 3, "expansions": expansions, "engine": engine}
        )
        for engine in ("native", "python")
    }
    states = {engine: game.new_initial_state() for engine, game in games.items()}
    rng = random.Random(4)
    for _ in range(250):
        native, python = states["native"], states["python"]
        if python.is_terminal():
            break
        if not python.is_chance_node():
            for seat in range(3):
                assert native.information_state_string(seat) == (
                    python.information_state_string(seat)
                )
        action = rng.choice(python.legal_actions())
        native.apply_action(action)
        python.apply_action(action)
