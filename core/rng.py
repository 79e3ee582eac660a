"""A seeded, counter-based random generator that lives inside the game state.

Python's ``random`` module may change its algorithms between versions, so replayable draws
use this small generator instead: value *i* of seed *s* is SplitMix64 of ``s + i·γ``. The
generator is an immutable value; every draw returns the value and the advanced generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import attrs

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

#: the seeds of a game: what the generator's 64-bit arithmetic (and the native kernel's
#: ``u64``) holds; every place a seed comes in (an option, a state file, a record, the web)
#: checks it here, so every command accepts the same seeds and refuses the rest alike
MAX_SEED = _MASK
#: how a seed outside ``0 … MAX_SEED`` is refused, everywhere
SEED_RULE = f"a seed is a whole number from 0 to 2**64-1 ({MAX_SEED})"

T = TypeVar("T")


class SeedError(ValueError):
    """A seed outside ``0 … MAX_SEED``; the message says where it came from and why."""


def seed_problem(seed: int) -> str | None:
    """Why ``seed`` is no seed of a game (``None`` if it is one); a huge number is told by
    its size, not written out (Python refuses to print integers of thousands of digits)."""
    if 0 <= seed <= MAX_SEED:
        return None
    shown = str(seed) if abs(seed) < 10**30 else f"a number of {seed.bit_length():,} bits"
    return f"{SEED_RULE}, not {shown}"


def check_seed(seed: int, where: str = "seed") -> int:
    """``seed`` itself if it is a seed of a game, else ``SeedError`` naming ``where`` (an
    option, a JSON path)."""
    problem = seed_problem(seed)
    if problem is not None:
        raise SeedError(f"{where}: {problem}")
    return seed


def check_seeds(first: int, games: int, where: str = "--seed") -> int:
    """``first`` if games ``first … first + games − 1`` all have seeds of a game (a study
    plays game ``i`` with seed ``first + i``), else ``SeedError`` naming ``where``."""
    check_seed(first, where)
    last = first + max(games, 1) - 1
    if seed_problem(last) is not None:
        raise SeedError(
            f"{where}: {SEED_RULE}; {games:,} games from seed {first} would reach {last}"
        )
    return first


def _splitmix64(x: int) -> int:
    z = (x + _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@attrs.frozen(slots=True)
class Rng:
    """Seed and number of values drawn so far; the whole generator state."""

    seed: int
    counter: int = 0

    def next64(self) -> tuple[int, Rng]:
        """The next 64-bit value and the advanced generator."""
        value = _splitmix64((self.seed + self.counter * _GAMMA) & _MASK)
        return value, Rng(self.seed, self.counter + 1)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = ((1 << 64) // n) * n
        seed, counter = self.seed, self.counter
        while True:  # ``next64`` unrolled: one generator object per draw, not per value
            z = (seed + counter * _GAMMA + _GAMMA) & _MASK  # SplitMix64, inline
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            value = z ^ (z >> 31)
            counter += 1
            if value < limit:
                return value % n, Rng(seed, counter)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher–Yates shuffle of ``items``."""
        out = list(items)
        seed, counter = self.seed, self.counter
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = ((1 << 64) // n) * n
            while True:  # ``below(n)`` unrolled
                value = _splitmix64((seed + counter * _GAMMA) & _MASK)
                counter += 1
                if value < limit:
                    break
            j = value % n
            out[i], out[j] = out[j], out[i]
        return tuple(out), Rng(seed, counter)

    def choice_weighted(self, counts: Sequence[int]) -> tuple[int, Rng]:
        """An index drawn with probability proportional to ``counts`` (e.g. a meeple bag)."""
        total = sum(counts)
        pick, rng = self.below(total)
        for index, count in enumerate(counts):
            if pick < count:
                return index, rng
            pick -= count
        raise AssertionError("unreachable: pick < total")
