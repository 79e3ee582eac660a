"""The Gymnasium vector adapter (``naqala.envs.gymvector.NaqalaVectorEnv``): it is a
``gymnasium.vector.VectorEnv`` with batched spaces, and it steps exactly as Gymnasium's
own ``SyncVectorEnv`` over the single-agent environment (``NaqalaGym``) in same-step
autoreset mode — observations, masks, rewards, ends and final observations — on both
engines; Gymnasium's episode statistics wrapper reads its mode and counts its games."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from naqala.envs.gym import NaqalaGym  # noqa: E402
from naqala.envs.gymvector import NaqalaVectorEnv  # noqa: E402


def engines() -> list[str]:
    from naqala import native as kernel

    return ["python", "native"] if kernel.available() else ["python"]


def test_the_adapter_is_a_gymnasium_vector_env_with_batched_spaces() -> None:
    envs = NaqalaVectorEnv(3, players=2)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    single = NaqalaGym(players=2)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == gymnasium.spaces.Discrete(single.action_space.n)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([single.action_space.n] * 3)
    observation, info = envs.reset(seed=4)
    assert envs.observation_space.contains(observation)
    assert list(info["seed"]) == [4, 5, 6]
    assert observation["action_mask"].sum(axis=1).min() >= 1  # every learner can act
    with pytest.raises(ValueError, match="count up by one"):
        envs.reset(seed=[1, 5, 6])
    with pytest.raises(ValueError, match="random opponents"):
        NaqalaVectorEnv(2, players=1, expansions=("solo",))


def test_stepping_before_reset_and_an_illegal_action_are_refused() -> None:
    envs = NaqalaVectorEnv(2, players=2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        envs.step(np.zeros(2, np.int64))
    observation, _ = envs.reset(seed=0)
    legal = observation["action_mask"].argmax(axis=1)
    illegal = int(np.flatnonzero(observation["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=f"game 1: action {illegal} is not legal now"):
        envs.step(np.array([legal[0], illegal]))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("engine", engines())
@pytest.mark.parametrize("expansions", [(), ("artisans",)], ids=lambda e: "+".join(e) or "base")
def test_the_adapter_steps_as_gymnasiums_sync_vector_env_over_naqala_gym(
    engine: str, expansions: tuple[str, ...]
) -> None:
    """Gymnasium's reference vectorisation of the single-agent environment and the
    adapter give the same rows at every step until each game's end (the reference then
    deals the next seed of that environment, the batch the batch's next seed): the same
    observations and masks, rewards, terminations and final observations."""
    count, seed = 3, 30
    ours = NaqalaVectorEnv(count, players=2, expansions=expansions, engine=engine)
    assert ours.engine_used == engine
    reference = SyncVectorEnv(
        [lambda: NaqalaGym(players=2, expansions=expansions, engine=engine) for _ in range(count)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    (mine, _), (theirs, _) = ours.reset(seed=seed), reference.reset(seed=seed)
    live = np.ones(count, bool)  # rows still in their first game on both sides
    rng = np.random.default_rng(3)
    ended = 0
    while live.any():
        for key in ("observation", "action_mask"):
            assert np.array_equal(mine[key][live], theirs[key][live])
        keys = rng.random(mine["action_mask"].shape) * mine["action_mask"]
        actions = keys.argmax(axis=1)
        # rows past their first game play on in each, on their own legal actions
        actions[~live] = theirs["action_mask"][~live].argmax(axis=1)
        mine_actions = actions.copy()
        mine_actions[~live] = mine["action_mask"][~live].argmax(axis=1)
        mine, my_reward, my_end, my_cut, my_info = ours.step(mine_actions)
        theirs, reward, end, cut, info = reference.step(actions)
        assert not my_cut.any() and not cut.any()
        assert np.array_equal(my_end[live], end[live])
        assert np.array_equal(my_reward[live], reward[live])
        for i in np.flatnonzero(live & end):
            assert my_info["_final_obs"][i] and info["_final_obs"][i]
            for key in ("observation", "action_mask"):
                assert np.array_equal(my_info["final_obs"][i][key], info["final_obs"][i][key])
            ended += 1
        live &= ~end
    assert ended == count


@pytest.mark.parametrize("engine", engines())
def test_gymnasiums_episode_statistics_count_the_adapters_games(engine: str) -> None:
    """``RecordEpisodeStatistics`` reads the same-step mode from the metadata and
    reports each finished game's return (the learner's win reward) and length."""
    envs = RecordEpisodeStatistics(NaqalaVectorEnv(4, players=2, engine=engine))
    observation, _ = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    returns: list[float] = []
    while len(returns) < 6:
        keys = rng.random(observation["action_mask"].shape) * observation["action_mask"]
        observation, reward, _, _, info = envs.step(keys.argmax(axis=1))
        if "episode" in info:
            done = info["_episode"]
            returns += list(info["episode"]["r"][done])
            assert np.array_equal(info["episode"]["r"][done], reward[done])
            assert (info["episode"]["l"][done] > 10).all()
    assert set(returns) <= {0.0, 0.5, 1.0}
