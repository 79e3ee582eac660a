"""A native ``VectorEnv`` moves its games on threads (``threads=``) and gives the same
numbers on any number of them: observations, masks, rewards, the seeds of the games dealt
again and the final observations, step by step. A number of threads it cannot take is
refused in one line."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("naqala.native._native")

from naqala.envs.vector import VectorEnv


def played(threads: int, opponents: str | None, expansions: tuple[str, ...]) -> list[Any]:
    """Everything a learner reads over 400 steps of 24 games (random legal actions)."""
    batch = VectorEnv(24, players=3, expansions=expansions, opponents=opponents, threads=threads)
    assert batch.engine_used == "native"
    rng = np.random.default_rng(11)
    observation, info = batch.reset(seed=40)
    seen: list[Any] = [observation["observation"], observation["action_mask"], info["seed"]]
    finals = np.zeros((24, batch.encoder.size), np.float32)
    for _ in range(400):
        keys = rng.random(observation["action_mask"].shape) * observation["action_mask"]
        observation, reward, done, _, info = batch.step(keys.argmax(axis=1))
        ended = batch.finals(0, finals)
        seen += [observation["observation"], observation["action_mask"], reward, done]
        seen += [info["seed"], info["player"], ended, finals.copy()]
    return seen


@pytest.mark.parametrize(
    ("opponents", "expansions"),
    [(None, ()), ("random", ()), ("random", ("artisans", "djinns"))],
)
def test_threads_change_nothing_but_the_speed(
    opponents: str | None, expansions: tuple[str, ...]
) -> None:
    one = played(1, opponents, expansions)
    for threads in (2, 0):
        other = played(threads, opponents, expansions)
        assert len(one) == len(other)
        for mine, theirs in zip(one, other, strict=True):
            np.testing.assert_array_equal(np.asarray(mine), np.asarray(theirs))
    assert any(np.asarray(step).any() for step in one[6::8]), "no game ended: a weak test"


@pytest.mark.parametrize("threads", [-1, 5000])
def test_a_number_of_threads_out_of_range_is_one_line(threads: int) -> None:
    with pytest.raises(ValueError, match=rf"^threads={threads}: 1 to 1024, or 0 for one per core$"):
        VectorEnv(2, players=2, threads=threads)
