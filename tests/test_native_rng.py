"""Chance on both engines: the kernel's SplitMix64 draws are the Python generator's, bit
for bit, over many seeds and counters (``kernel/src/rng.rs`` has known values too)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_kit import require_native

from naqala.core.rng import Rng

seeds = st.integers(min_value=0, max_value=(1 << 64) - 1)
counters = st.integers(min_value=0, max_value=1 << 40)


@settings(max_examples=400, deadline=None)
@given(seeds, counters, st.integers(min_value=1, max_value=(1 << 64) - 1))
def test_below_is_the_same_draw(seed: int, counter: int, n: int) -> None:
    value, after = Rng(seed, counter).below(n)
    assert require_native().rng_below(seed, counter, n) == (value, after.counter)


@settings(max_examples=300, deadline=None)
@given(seeds, counters, st.integers(min_value=0, max_value=120))
def test_shuffle_is_the_same_permutation(seed: int, counter: int, n: int) -> None:
    order, after = Rng(seed, counter).shuffled(range(n))
    assert require_native().rng_shuffled(seed, counter, n) == (list(order), after.counter)


@settings(max_examples=300, deadline=None)
@given(seeds, counters, st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=9))
def test_weighted_choice_is_the_same_index(seed: int, counter: int, counts: list[int]) -> None:
    if sum(counts) == 0:
        with pytest.raises(ValueError):
            require_native().rng_choice_weighted(seed, counter, counts)
        return
    index, after = Rng(seed, counter).choice_weighted(counts)
    assert require_native().rng_choice_weighted(seed, counter, counts) == (index, after.counter)


def test_small_ranges_over_many_seeds() -> None:
    """Every seed of a range, drawing below each n of a bag's and a deck's sizes."""
    native = require_native()
    for seed in range(2000):
        for n in (1, 2, 3, 5, 7, 30, 54, 90):
            value, after = Rng(seed).below(n)
            assert native.rng_below(seed, 0, n) == (value, after.counter)


def test_below_zero_is_refused_on_both() -> None:
    with pytest.raises(ValueError):
        Rng(1).below(0)
    with pytest.raises(ValueError):
        require_native().rng_below(1, 0, 0)
