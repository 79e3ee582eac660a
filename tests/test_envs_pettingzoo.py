"""naqala as a PettingZoo AEC environment and a Gymnasium single-agent environment
(extra ``naqala[pettingzoo]``)."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from naqala.envs.codec import codec_for  # noqa: E402
from naqala.envs.gym import NaqalaGym  # noqa: E402
from naqala.envs.pettingzoo import env, raw_env  # noqa: E402

EXPANSIONS = [(), ("artisans",), ("djinns",), ("artisans", "djinns")]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("expansions", EXPANSIONS, ids=lambda e: "+".join(e) or "base")
def test_pettingzoo_api_test_passes(expansions: tuple[str, ...]) -> None:
    api_test(env(players=3, expansions=expansions), num_cycles=20)


def random_game(
    game: Any, seed: int, rng: np.random.Generator
) -> tuple[list[int], dict[str, float]]:
    """Play one game with a random policy over the mask: the actions taken, and the
    reward each agent receives when its game is over."""
    game.reset(seed=seed)
    taken, final = [], {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        if terminated or truncated:
            final[agent] = reward
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert sorted(info["legal"]) == sorted(str(game.unwrapped.codec.decode(i)) for i in legal)
        action = int(rng.choice(legal))
        taken.append(action)
        game.step(action)
    return taken, final


def test_a_random_policy_never_meets_an_illegal_masked_action() -> None:
    """Many whole games of every expansion set: every masked action is accepted (the
    environment raises on an illegal one), and the game ends with rewards for all."""
    rng = np.random.default_rng(0)
    for expansions in EXPANSIONS:
        game = env(players=2 + len(expansions), expansions=expansions)
        for seed in range(2):
            _, rewards = random_game(game, seed, rng)
            assert sorted(rewards) == game.unwrapped.possible_agents
            assert sum(rewards.values()) == pytest.approx(1.0)


def test_seeded_resets_are_deterministic() -> None:
    one, two = env(players=3), env(players=3)
    assert random_game(one, 4, np.random.default_rng(1)) == random_game(
        two, 4, np.random.default_rng(1)
    )
    one.reset(seed=4)
    first = one.observe("player_1")["observation"]
    one.reset()  # the next seed: 5
    two.reset(seed=5)
    assert np.array_equal(
        one.observe("player_1")["observation"], two.observe("player_1")["observation"]
    )
    assert not np.array_equal(first, two.observe("player_1")["observation"])


def test_spaces_masks_and_an_illegal_action() -> None:
    game = raw_env(players=2, expansions=("djinns",))
    game.reset(seed=2)
    size = codec_for(game.rules).size
    assert game.action_space("player_0").n == size
    mover = game.agent_selection
    waiting = next(a for a in game.agents if a != mover)
    assert game.observe(mover)["action_mask"].sum() == len(game.rules.legal_actions(game.state))
    assert game.observe(waiting)["action_mask"].sum() == 0
    assert game.observation_space(mover).contains(game.observe(mover))
    illegal = int(np.flatnonzero(game.observe(mover)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal for"):
        game.step(illegal)


def test_render_gives_text_and_svg() -> None:
    text = raw_env(players=2, render_mode="ansi")
    text.reset(seed=1)
    assert "Round 1" in text.render()
    picture = raw_env(players=2, render_mode="svg")
    picture.reset(seed=1)
    assert picture.render().lstrip().startswith("<?xml")


def test_the_gymnasium_wrapper_plays_one_seat_against_naqala_players() -> None:
    one = NaqalaGym(players=3, opponents=("greedy", "random"), seat=1)
    rng = np.random.default_rng(3)
    observation, info = one.reset(seed=6)
    trace, done, reward = [], False, 0.0
    while not done:
        assert one.game.agent_selection == "player_1"
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        trace.append(action)
        observation, reward, done, _, info = one.step(action)
    assert reward in (0.0, 0.5, 1.0 / 3, 1.0) and len(info["scores"]) == 3
    again = NaqalaGym(players=3, opponents=("greedy", "random"), seat=1)
    observation, _ = again.reset(seed=6)
    for action in trace:  # the same seed and actions replay the same episode
        assert observation["action_mask"][action] == 1
        observation, last, done, _, _ = again.step(action)
    assert done and last == reward
    with pytest.raises(ValueError, match="unknown seat 'wizard'; seats are human, ai, ai:greedy"):
        NaqalaGym(players=2, opponents=("wizard",))


def test_margin_rewards_are_the_score_against_the_best_other() -> None:
    game = env(players=3, reward="margin")
    _, rewards = random_game(game, 8, np.random.default_rng(8))
    scores = game.unwrapped.rules.scores(game.unwrapped.state)
    for seat, score in enumerate(scores):
        best_other = max(s for other, s in enumerate(scores) if other != seat)
        assert rewards[f"player_{seat}"] == score - best_other


#: each box alone at one table, as the native engine plays it (solo: one seat)
BOXES = [((), 3), (("artisans",), 4), (("djinns",), 5), (("thieves",), 3), (("solo",), 1)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("expansions", "players"), BOXES, ids=[f"{'+'.join(e) or 'base'}-{p}p" for e, p in BOXES]
)
def test_pettingzoo_seed_test_and_api_test_pass_on_the_native_engine(
    expansions: tuple[str, ...], players: int
) -> None:
    """PettingZoo's own checks on the engine each box runs on (native when the kernel
    is built): the same seed gives the same observations, rewards and ends."""
    from pettingzoo.test import seed_test

    game = env(players=players, expansions=expansions)
    expected = "native" if _kernel_built() else "python"
    assert game.unwrapped.engine_used == expected
    api_test(game, num_cycles=30)
    seed_test(lambda: env(players=players, expansions=expansions), num_cycles=50)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("engine", "expansions", "players"),
    [
        ("python", (), 2),
        ("native", (), 2),
        ("native", ("artisans",), 2),
        ("native", ("djinns",), 2),
        ("native", ("thieves",), 2),
    ],
    ids=lambda v: (
        v if isinstance(v, str) else ("+".join(v) or "base") if isinstance(v, tuple) else f"{v}p"
    ),
)
def test_gymnasiums_check_env_passes_with_the_mask(
    engine: str, expansions: tuple[str, ...], players: int
) -> None:
    """``check_env`` steps sampled actions: the action space samples among the actions
    legal now (an explicit mask is used as given), so the checker plays legal games;
    per box (solo below)."""
    if engine == "native" and not _kernel_built():
        pytest.skip("the native engine is not built")
    from gymnasium.utils.env_checker import check_env

    one = NaqalaGym(players=players, expansions=expansions, engine=engine)
    assert one.game.engine_used == engine
    check_env(one, skip_render_check=True)
    observation, _ = one.reset(seed=4)
    for _ in range(30):
        action = int(one.action_space.sample())
        assert observation["action_mask"][action] == 1
        observation, *_ = one.step(action)
    assert one.action_space.sample(mask=np.eye(one.action_space.n, dtype=np.int8)[5]) == 5


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("engine", ["python", "native"])
def test_gymnasiums_checks_pass_on_a_solo_game(engine: str) -> None:
    """A solo game, the one seat against Sultan Yazid, through Gymnasium's checks.
    ``check_env`` itself cannot pass here, on either engine: its step-determinism check
    samples an action before it resets, and a solo game's first decision (the outbid)
    shares no action with the pick its earlier check leaves the game at. So every other
    check ``check_env`` runs is run, and the step determinism with an action drawn
    after the reset."""
    if engine == "native" and not _kernel_built():
        pytest.skip("the native engine is not built")
    from gymnasium.utils import env_checker, passive_env_checker

    one = NaqalaGym(players=1, expansions=("solo",), engine=engine)
    assert one.game.engine_used == engine
    env_checker.check_action_space(one.action_space)
    env_checker.check_observation_space(one.observation_space)
    env_checker.check_reset_return_type(one)
    env_checker.check_reset_seed_determinism(one)
    env_checker.check_reset_options(one)
    passive_env_checker.env_reset_passive_checker(one)
    passive_env_checker.env_step_passive_checker(one, one.action_space.sample())
    env_checker.check_returned_data_not_reused(one)
    steps = []
    for _ in range(2):
        one.reset(seed=123)
        one.action_space.seed(123)
        steps.append(one.step(one.action_space.sample()))
    assert env_checker.data_equivalence(steps[0], steps[1])
    one.reset(seed=5)
    done, reward = False, 0.0
    while not done:
        _, reward, done, _, info = one.step(int(one.action_space.sample()))
    assert reward in (0.0, 1.0) and "scores" in info  # won or lost against Yazid


def test_the_gymnasium_episode_is_the_same_on_both_engines() -> None:
    """The learner's observations, masks and reward against random and greedy players
    are the same whether the game steps natively or on the Python engine."""
    if not _kernel_built():
        pytest.skip("the native engine is not built")
    episodes = []
    for engine in ("python", "native"):
        one = NaqalaGym(players=3, opponents=("random", "greedy"), engine=engine)
        rng = np.random.default_rng(5)
        observation, _ = one.reset(seed=9)
        seen, done, reward = [], False, 0.0
        while not done:
            seen.append((observation["observation"].copy(), observation["action_mask"].copy()))
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, done, _, _ = one.step(action)
        episodes.append((seen, reward))
    (python, python_reward), (native, native_reward) = episodes
    assert len(python) == len(native) and python_reward == native_reward
    for (obs_a, mask_a), (obs_b, mask_b) in zip(python, native, strict=True):
        assert np.array_equal(obs_a, obs_b) and np.array_equal(mask_a, mask_b)


def _kernel_built() -> bool:
    from naqala import native as kernel

    return kernel.available()
