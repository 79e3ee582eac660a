"""The seeded generator (uniform draws, permutations, a pure value pinned to SplitMix64)
and the action notation (parse/format symmetry, natural order, clear errors)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from naqala.core.actions import (
    Action,
    NotationError,
    format_action,
    natural_key,
    parse_action,
    sorted_actions,
)
from naqala.core.rng import Rng

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
COUNTERS = st.integers(min_value=0, max_value=10**6)

# -- Rng --------------------------------------------------------------------------------------


def test_first_values_match_the_splitmix64_reference() -> None:
    """Seed 0 gives the published SplitMix64 sequence, so draws never depend on the Python
    version or platform (saved games and records replay everywhere)."""
    rng = Rng(0)
    values = []
    for _ in range(3):
        value, rng = rng.next64()
        values.append(value)
    assert values == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert rng == Rng(0, 3)


#: Rng(2024).shuffled(range(10)), checked against an independent SplitMix64 + Fisher-Yates
PINNED_SHUFFLE = (9, 0, 6, 3, 4, 2, 5, 7, 8, 1)


def test_shuffle_of_a_fixed_seed_is_pinned() -> None:
    """A golden shuffle: changing the draw or shuffle algorithm would silently change every
    seeded game, so this must be a deliberate change."""
    shuffled, rng = Rng(2024).shuffled(range(10))
    assert shuffled == PINNED_SHUFFLE
    assert rng == Rng(2024, 9)


@given(seed=SEEDS, counter=COUNTERS, n=st.integers(min_value=1, max_value=10**9))
def test_below_is_in_range_and_advances(seed: int, counter: int, n: int) -> None:
    """below(n) is in [0, n) and returns a generator that has drawn at least once more."""
    value, rng = Rng(seed, counter).below(n)
    assert 0 <= value < n
    assert rng.seed == seed and rng.counter > counter


@given(seed=SEEDS, counter=COUNTERS)
def test_the_generator_is_a_pure_value(seed: int, counter: int) -> None:
    """The same seed and counter always give the same draw, and drawing never changes the
    generator it was drawn from."""
    rng = Rng(seed, counter)
    first = rng.next64()
    assert rng == Rng(seed, counter)
    assert rng.next64() == first
    assert Rng(seed, counter).next64() == first
    assert rng.below(6) == Rng(seed, counter).below(6)
    assert hash(rng) == hash(Rng(seed, counter))


def test_below_is_uniform() -> None:
    """60 000 draws of below(6): each face within 4% of its expected count, and a
    chi-square statistic well under the 0.1% critical value (20.5 for 5 d.o.f.)."""
    rng = Rng(12345)
    draws = 60_000
    counts: Counter[int] = Counter()
    for _ in range(draws):
        value, rng = rng.below(6)
        counts[value] += 1
    expected = draws / 6
    assert set(counts) == set(range(6))
    assert all(abs(c - expected) < 0.04 * expected for c in counts.values())
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5


def test_below_needs_a_positive_bound() -> None:
    """below(0) and below(-1) are errors, not silent zeros."""
    for n in (0, -1):
        with pytest.raises(ValueError, match="n >= 1"):
            Rng(1).below(n)


@given(seed=SEEDS, items=st.lists(st.integers(), max_size=40))
def test_shuffles_are_permutations(seed: int, items: list[int]) -> None:
    """A shuffle holds exactly the items it was given, and is reproducible."""
    shuffled, _ = Rng(seed).shuffled(items)
    assert sorted(shuffled) == sorted(items)
    assert Rng(seed).shuffled(items) == (shuffled, Rng(seed).shuffled(items)[1])


def test_shuffles_reach_every_order() -> None:
    """All 24 orders of 4 items appear, each roughly equally often."""
    orders: Counter[tuple[int, ...]] = Counter()
    rng = Rng(7)
    for _ in range(24_000):
        shuffled, rng = rng.shuffled(range(4))
        orders[shuffled] += 1
    assert len(orders) == 24
    assert all(800 < n < 1200 for n in orders.values())


@given(seed=SEEDS, counts=st.lists(st.integers(min_value=0, max_value=20), min_size=1, max_size=6))
def test_weighted_choice_never_picks_an_empty_colour(seed: int, counts: list[int]) -> None:
    """choice_weighted (drawing from a meeple bag) only returns indices with a positive
    count, and refuses an empty bag."""
    if sum(counts) == 0:
        with pytest.raises(ValueError):
            Rng(seed).choice_weighted(counts)
        return
    index, _ = Rng(seed).choice_weighted(counts)
    assert counts[index] > 0


def test_weighted_choice_follows_the_weights() -> None:
    """Drawing from counts (1, 0, 3) gives index 2 about three times as often as 0."""
    rng = Rng(99)
    seen: Counter[int] = Counter()
    for _ in range(8000):
        index, rng = rng.choice_weighted((1, 0, 3))
        seen[index] += 1
    assert seen[1] == 0
    assert 2.7 < seen[2] / seen[0] < 3.3


# -- Actions ----------------------------------------------------------------------------------

TOKEN = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-.:'@",
    min_size=1,
    max_size=8,
)


@given(kind=TOKEN, args=st.lists(TOKEN, max_size=4))
def test_notation_round_trips(kind: str, args: list[str]) -> None:
    """parse_action(format_action(a)) == a for every action, and str() is the notation."""
    action = Action(kind, tuple(args))
    text = format_action(action)
    assert str(action) == text
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bid 12", Action("bid", ("12",))),
        ("  drop   c3 W ", Action("drop", ("c3", "W"))),
        ("pick\ta1", Action("pick", ("a1",))),
        ("sell fish+ivory+wheat", Action("sell", ("fish+ivory+wheat",))),
        ("kill p2 Y", Action("kill", ("p2", "Y"))),
        ("end", Action("end")),
    ],
)
def test_parse_examples(text: str, action: Action) -> None:
    """Examples of the notation; any run of whitespace separates tokens."""
    assert parse_action(text) == action


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_notation_is_an_error(text: str) -> None:
    """Nothing to parse is a NotationError saying the action is empty."""
    with pytest.raises(NotationError, match="empty"):
        parse_action(text)


@pytest.mark.parametrize("text", ["bid $5", "drop c3 W!", "pick (a1)", "sell fish,ivory", "é"])
def test_bad_tokens_are_an_error(text: str) -> None:
    """A token with characters outside the notation's alphabet is a NotationError quoting
    the token."""
    with pytest.raises(NotationError, match="bad token"):
        parse_action(text)


def test_bad_tokens_are_refused_when_building_actions_too() -> None:
    """Action() itself refuses tokens that could not be written and read back."""
    with pytest.raises(NotationError):
        Action("bid", ("5 6",))
    with pytest.raises(NotationError):
        Action("")
    with pytest.raises(NotationError):
        Action("bid", ("",))


def test_notation_error_is_a_value_error() -> None:
    """Callers catching ValueError also catch notation errors."""
    assert issubclass(NotationError, ValueError)


def test_natural_sort_order() -> None:
    """Numbers inside arguments compare as numbers: bid 5 before bid 12, a9 before a10;
    actions sort by kind first; duplicates are removed."""
    texts = ["bid 12", "drop a10 W", "bid 5", "bid 0", "drop a9 W", "bid 5", "drop a9 B", "end"]
    ordered = sorted_actions([parse_action(t) for t in texts])
    assert [str(a) for a in ordered] == [
        "bid 0",
        "bid 5",
        "bid 12",
        "drop a9 B",
        "drop a9 W",
        "drop a10 W",
        "end",
    ]


@given(st.lists(st.builds(Action, TOKEN, st.lists(TOKEN, max_size=3)), max_size=20))
def test_sorted_actions_is_canonical(actions: list[Action]) -> None:
    """sorted_actions is sorted by sort_key, unique, and does not depend on input order."""
    ordered = sorted_actions(actions)
    keys = [a.sort_key() for a in ordered]
    assert keys == sorted(keys)
    assert len(set(ordered)) == len(ordered) == len(set(actions))
    assert sorted_actions(list(reversed(actions))) == ordered


def _sign(a: object, b: object) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


@given(
    st.builds(Action, TOKEN, st.lists(TOKEN, max_size=3)),
    st.builds(Action, TOKEN, st.lists(TOKEN, max_size=3)),
)
def test_the_string_sort_key_orders_like_the_natural_order(a: Action, b: Action) -> None:
    """``sort_key`` (one string, fast to compare) orders any two actions exactly as the
    natural order of nested tuples does: kind, then arguments, numbers as numbers."""
    assert _sign(a.sort_key(), b.sort_key()) == _sign(natural_key(a), natural_key(b))


def test_the_string_sort_key_on_tricky_cases() -> None:
    texts = [
        "bid 9",
        "bid 10",
        "bid 0",
        "drop a10 W",
        "drop a9 W",
        "drop a9",
        "drop",
        "dropx",
        "sell fakir+oil",
        "sell fakir",
        "x a1b",
        "x a1",
        "x a",
        "x 1a",
        "x 02",
        "x 3",
    ]
    actions = [parse_action(t) for t in texts]
    assert sorted(actions, key=Action.sort_key) == sorted(actions, key=natural_key)
