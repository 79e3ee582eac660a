"""The learning interfaces pickle (subprocess vector environments need it): the
PettingZoo and Gymnasium environments as their rules, settings and the steps of the game
under way, replayed on the other side; OpenSpiel's game and states as its name and
parameters and naqala's state JSON. Each round trip plays on to the same end."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from naqala.envs.gym import NaqalaGym  # noqa: E402
from naqala.envs.pettingzoo import env, raw_env  # noqa: E402

ENGINES = ("python", "native")


def engine_or_skip(engine: str) -> str:
    from naqala.native import available

    if engine == "native" and not available():
        pytest.skip("the native engine is not installed")
    return engine


def first_legal(mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


def play_aec(game: Any, steps: int | None = None) -> list[Any]:
    """Step ``game`` (up to ``steps`` agents' turns) by each agent's first legal action;
    what each turn saw: the observation, reward and info."""
    seen = []
    for _ in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        seen.append((observation["observation"].tolist(), reward, info))
        game.step(None if terminated or truncated else first_legal(observation["action_mask"]))
        if steps is not None and len(seen) == steps:
            break
    return seen


@pytest.mark.parametrize("engine", ENGINES)
def test_a_pettingzoo_game_pickled_mid_game_plays_on_the_same(engine: str) -> None:
    game = raw_env(players=3, expansions=("artisans",), engine=engine_or_skip(engine))
    game.reset(seed=4)
    play_aec(game, 40)
    again = pickle.loads(pickle.dumps(game))
    assert again is not game and again.engine_used == game.engine_used == engine
    assert again.state == game.state and again.agent_selection == game.agent_selection
    assert play_aec(again) == play_aec(game)
    assert again.rewards == game.rewards and not again.agents and not game.agents
    again.reset()  # the next seed, as the original's next reset deals
    game.reset()
    assert again.seed_used == game.seed_used == 5


def test_the_wrapped_pettingzoo_environment_pickles_before_and_after_reset() -> None:
    game = env(players=2)
    fresh = pickle.loads(pickle.dumps(game))
    game.reset(seed=9)
    fresh.reset(seed=9)
    play_aec(game, 7)
    again = pickle.loads(pickle.dumps(game))
    assert play_aec(again) == play_aec(game) == play_aec(fresh)[7:]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_gymnasium_environment_pickles_with_its_opponents(engine: str) -> None:
    learner = NaqalaGym(players=3, opponents=("greedy", "random"), engine=engine_or_skip(engine))
    learner.reset(seed=2)
    for _ in range(12):
        learner.step(first_legal(learner.action_masks()))
    again = pickle.loads(pickle.dumps(learner))
    assert again.kinds == learner.kinds and again.seat == learner.seat
    assert (again.action_masks() == learner.action_masks()).all()
    done = False
    while not done:
        action = first_legal(learner.action_masks())
        mine = learner.step(action)
        theirs = again.step(action)
        assert (mine[0]["observation"] == theirs[0]["observation"]).all()
        assert mine[1:] == theirs[1:]
        done = mine[2]
    assert learner.game.state == again.game.state


def test_action_masks_are_the_learners_legal_actions_as_booleans() -> None:
    learner = NaqalaGym(players=2, opponents=("random",))
    assert learner.action_masks().dtype == bool and not learner.action_masks().any()
    observation, _ = learner.reset(seed=1)
    done = False
    while not done:
        masks = learner.action_masks()
        assert masks.dtype == bool and masks.shape == (learner.game.codec.size,)
        assert (masks == observation["action_mask"].astype(bool)).all() and masks.any()
        observation, _, done, _, _ = learner.step(first_legal(masks))
    assert not learner.action_masks().any()  # the game is over: nothing is legal


def test_gymnasiums_async_vector_env_runs_pickled_environments() -> None:
    """Spawned workers get their environments by pickle: a fresh one's constructor, and
    an environment that played an episode, whose unseeded reset deals the next seed."""
    under_way = NaqalaGym(players=2, opponents=("greedy",))
    under_way.reset(seed=8)
    under_way.step(first_legal(under_way.action_masks()))
    makers = [
        functools.partial(NaqalaGym, players=2, opponents=("greedy",)),
        functools.partial(pickle.loads, pickle.dumps(under_way)),
    ]
    twins = [NaqalaGym(players=2, opponents=("greedy",)), pickle.loads(pickle.dumps(under_way))]
    twins[0].reset(seed=3)
    twins[1].reset()  # seed 9
    vector = gymnasium.vector.AsyncVectorEnv(makers, context="spawn")
    try:
        observations, _ = vector.reset(seed=[3, None], options=None)
        for _ in range(6):
            actions = [first_legal(row) for row in observations["action_mask"]]
            observations, rewards, *_ = vector.step(np.array(actions))
            for row, (twin, action) in enumerate(zip(twins, actions, strict=True)):
                expected, reward, *_ = twin.step(action)
                assert (observations["observation"][row] == expected["observation"]).all()
                assert rewards[row] == reward
    finally:
        vector.close()


def test_openspiel_games_and_states_pickle_and_play_on_the_same() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import naqala.envs.openspiel  # noqa: F401 - registers python_naqala

    game = pyspiel.load_game("python_naqala", {"players": 3, "expansions": "artisans"})
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.rules.ruleset == game.rules.ruleset
    state = game.new_initial_state()
    state.apply_action(2)  # the deal
    for _ in range(30):
        state.apply_action(state.legal_actions()[-1])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.serialize() == state.serialize()
    while not state.is_terminal():
        action = state.legal_actions()[-1]
        assert copy.legal_actions()[-1] == action
        state.apply_action(action)
        copy.apply_action(action)
    assert copy.is_terminal() and copy.returns() == state.returns()
