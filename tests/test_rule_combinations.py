"""Property suite over combinations of installed plugins.

The plugins are found at run time (entry-point group ``naqala.plugins``, base excluded),
so expansions installed later are covered without touching this file. Every subset would
be 2^n rule sets (512 with nine plugins), so the suite plays a fixed sample that grows
with n squared, not 2^n: the base game alone, every plugin alone, every pair that has an
expansion (a plugin outside ``naqala.plugins.house``) in it, all expansions together, all
plugins together, and ``LARGER`` larger subsets drawn with a fixed seed (``SAMPLE_SEED``),
the same on every run and machine. For every subset of the sample, with every player
count its content allows:

(a) random play keeps every invariant of test_properties after every action;
(b) the same seed gives the same trajectory (actions and final state) twice;
(c) a state saved to JSON and read back is the same state, at random points of a game;
(d) the order plugins are registered in plays no part: ``Rules`` built directly from the
    same plugin infos in other orders — base first, and other plugins before base; the
    reverse order always, and orders drawn by hypothesis (all permutations would be too
    many) — offer the same options at every step and reach the same scores, or are
    refused with a PluginError that names a plugin.

Most examples play a limited number of actions; each subset plays one whole game per
property (the explicit ``FULL`` example). Random prefixes stop before the end game, where
the no-loops dead end (test_known_no_loops_dead_end) lives.

The combinations the rules refuse are listed with their reasons (``REFUSALS``): the
property tests play every other subset of the sample (``PLAYABLE``), so a wrong refusal
fails them instead of turning them into skips.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import random
import re
from collections.abc import Sequence
from importlib.metadata import entry_points

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_properties import play_checked

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import BASE, GROUP, PluginError, PluginInfo, resolve
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.simulate import agent_seed
from naqala.core.state import State

#: every installed plugin but base, found at run time, with the module it comes from
MODULES: dict[str, str] = {
    point.name: point.value for point in entry_points(group=GROUP) if point.name != BASE
}
PLUGINS: tuple[str, ...] = tuple(sorted(MODULES))
#: the house rules (``naqala.plugins.house.*``); every other plugin is an expansion or variant
HOUSE_RULES: frozenset[str] = frozenset(
    name for name, module in MODULES.items() if module.startswith("naqala.plugins.house")
)
EXPANSIONS: tuple[str, ...] = tuple(p for p in PLUGINS if p not in HOUSE_RULES)
#: how many subsets of three plugins or more the sample draws, and the seed it draws with
LARGER = 12
SAMPLE_SEED = 20_20


def sample_subsets(plugins: Sequence[str], expansions: Sequence[str]) -> list[tuple[str, ...]]:
    """The combinations the suite plays (module docstring): a fixed function of the
    installed plugins, so every run plays the same ones."""
    chosen: dict[tuple[str, ...], None] = {(): None}
    for name in plugins:
        chosen[(name,)] = None
    for pair in itertools.combinations(plugins, 2):
        if any(name in expansions for name in pair):
            chosen[pair] = None
    chosen[tuple(expansions)] = None
    chosen[tuple(plugins)] = None
    rng = random.Random(SAMPLE_SEED)
    larger = [
        subset
        for size in range(3, len(plugins))
        for subset in itertools.combinations(plugins, size)
        if subset not in chosen
    ]
    for subset in rng.sample(larger, min(LARGER, len(larger))):
        chosen[subset] = None
    return list(chosen)


SUBSETS: list[tuple[str, ...]] = sample_subsets(PLUGINS, EXPANSIONS)


def subset_id(subset: Sequence[str]) -> str:
    return "+".join(subset) or "base-only"


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: indexes the player counts a rule set allows (2-4 in the base game)
SEATS = st.integers(min_value=0, max_value=1000)
#: random prefixes stay well before the end game (a game lasts about 200-260 actions)
PREFIX = st.integers(min_value=0, max_value=120)
#: steps meaning "play the whole game"
FULL = 100_000
FULL_GAME = {"seed": 2024, "seat_pick": 1, "steps": FULL}


def slow(examples: int) -> settings:
    """Hypothesis settings for tests that play games: no deadline, few examples."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


@functools.cache
def cached_rules(subset: tuple[str, ...]) -> Rules:
    return build_rules(subset)


@attrs.frozen
class Refusal:
    """A combination the rules refuse on purpose: whenever every plugin of ``together`` is
    in a subset and none of ``unless``, building it fails with exactly ``message``."""

    together: frozenset[str]
    message: str
    unless: frozenset[str] = frozenset()

    def applies(self, subset: Sequence[str]) -> bool:
        return self.together <= set(subset) and not self.unless & set(subset)


_SOLO = "plugin 'solo' cannot be played with"
#: every refusal the installed plugins make, with its reason; any other refusal fails
REFUSALS: tuple[Refusal, ...] = (
    Refusal(
        frozenset({"shared-artisan-majority"}),
        "plugin 'shared-artisan-majority' requires 'artisans', which is not enabled",
        unless=frozenset({"artisans"}),
    ),
    Refusal(
        frozenset({"solo", "artisans"}),
        f"{_SOLO} 'artisans': the solo sheet's dice address the 5×6 base board, not the "
        "Artisans' 6×6",
    ),
    Refusal(
        frozenset({"solo", "whims"}),
        f"{_SOLO} 'whims': the solo sheet's dice address the 5×6 base board, not the 6×7 "
        "one of the Djinns of Naqala box",
    ),
    Refusal(
        frozenset({"solo", "thieves"}),
        f"{_SOLO} 'thieves': the Thieves act on opponents, and the solo sheet says nothing "
        "of thieves against Sultan Yazid",
    ),
)


def refusals(subset: Sequence[str]) -> list[str]:
    """The messages the rules may refuse ``subset`` with (empty: it must build)."""
    return [r.message for r in REFUSALS if r.applies(subset)]


#: the subsets of the sample the rules accept: the property tests play each of them (a
#: wrong refusal fails there and in test_every_combination_builds_or_is_refused_clearly,
#: instead of turning the property tests into skips)
PLAYABLE: list[tuple[str, ...]] = [s for s in SUBSETS if not refusals(s)]


def player_counts(rules: Rules) -> tuple[int, ...]:
    """The player counts the rules allow: 2 and up, or 1 alone with the solo mode."""
    return tuple(pc.players for pc in rules.content.player_counts)


def players_for(rules: Rules, seat_pick: int) -> int:
    counts = player_counts(rules)
    return counts[seat_pick % len(counts)]


def unruled(state: State) -> State:
    """The position without the plugin list (which records registration order)."""
    return attrs.evolve(state, ruleset=())


# -- every combination is usable -------------------------------------------------------------


def test_the_installed_plugins_are_found() -> None:
    """The example house rules and the expansions are installed, and the sample holds
    each plugin alone, each pair with an expansion and all together, and stays small."""
    assert {"big-viziers", "no-loops", "rich-villages"} <= HOUSE_RULES
    assert {"artisans", "whims", "thieves"} <= set(EXPANSIONS)
    assert len(set(SUBSETS)) == len(SUBSETS)
    assert all((name,) in SUBSETS for name in PLUGINS)
    assert ("artisans", "thieves") in SUBSETS and tuple(PLUGINS) in SUBSETS
    n = len(PLUGINS)
    assert len(SUBSETS) <= 3 + n + n * (n - 1) // 2 + LARGER


def test_the_sample_is_the_same_on_every_run() -> None:
    """The sample is a function of the plugin names alone (no hash, no clock)."""
    assert sample_subsets(PLUGINS, EXPANSIONS) == SUBSETS
    assert sample_subsets(list(PLUGINS), list(EXPANSIONS)) == SUBSETS


def test_every_listed_refusal_is_met_in_the_sample() -> None:
    """Each refusal of ``REFUSALS`` is the only one for some subset of the sample, and
    most of the sample plays: the list holds no stale entry that hides a playable set."""
    for refusal in REFUSALS:
        assert any(refusals(s) == [refusal.message] for s in SUBSETS), refusal
    assert len(PLAYABLE) > len(SUBSETS) // 2


@pytest.mark.parametrize("subset", SUBSETS, ids=subset_id)
def test_every_combination_builds_or_is_refused_clearly(subset: tuple[str, ...]) -> None:
    """Base + a subset is refused with one of the reasons ``REFUSALS`` lists for it, or
    builds, base first, with every player count from 2 up set up properly."""
    expected = refusals(subset)
    if expected:
        with pytest.raises(PluginError) as refused:
            cached_rules(subset)
        assert str(refused.value) in expected
        return
    rules = cached_rules(subset)
    assert rules.names[0] == BASE
    assert sorted(rules.names[1:]) == sorted(subset)
    counts = player_counts(rules)
    assert counts and (min(counts) == 2 or counts == (1,))
    for players in counts:
        assert len(rules.new_game(players, players).players) == players


# -- (a) invariants --------------------------------------------------------------------------


@pytest.mark.parametrize("subset", PLAYABLE, ids=subset_id)
@slow(3)
@example(agent_seed=7, **FULL_GAME)
@given(seed=SEEDS, agent_seed=SEEDS, seat_pick=SEATS, steps=PREFIX)
def test_random_play_keeps_every_invariant(
    subset: tuple[str, ...], seed: int, agent_seed: int, seat_pick: int, steps: int
) -> None:
    """Conservation, no negatives, score lines adding up, canonical options, and no
    option leading to a dead end — after every action (test_properties' checks)."""
    rules = cached_rules(subset)
    state = play_checked(rules, players_for(rules, seat_pick), seed, agent_seed, steps)
    if steps == FULL:  # a lone player may lose (the solo mode): nobody wins then
        assert state.is_over and (rules.winners(state) or len(state.players) == 1)


def test_known_no_loops_dead_end() -> None:
    """A whole random 4-player game under no-loops (seed 137) that reaches the dead end."""
    rules = cached_rules(("no-loops",))
    state = play_checked(rules, 4, 137, 959, FULL)
    assert state.is_over


def test_known_green_theft_with_whims() -> None:
    """A 5-player game with the Thieves and the Whims box (seed 193) that reaches a green
    theft where an opponent chooses while cards already given up lie face up."""
    rules = cached_rules(("thieves", "whims"))
    play_checked(rules, players_for(rules, 3), 193, 759, 64)


# -- (b) determinism -------------------------------------------------------------------------


def trajectory(rules: Rules, players: int, seed: int, steps: int) -> tuple[str, State]:
    """sha256 of the actions' notation and the final state JSON of a random game (agents
    seeded from the game seed, as ``naqala simulate`` does), and the final state."""
    agents = [RandomAgent(agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    notation: list[str] = []
    for _ in range(steps):
        if state.is_over:
            break
        options = rules.legal_actions(state)
        if not options:  # the no-loops dead end: still deterministic, and checked in (a)
            notation.append("<dead end>")
            break
        action = agents[state.decision.player].choose(rules, state, options)
        notation.append(str(action))
        state = rules.apply(state, action)
    text = "\n".join(notation) + "\n" + state_to_json(rules, state)
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), state


@pytest.mark.parametrize("subset", PLAYABLE, ids=subset_id)
@slow(3)
@example(**FULL_GAME)
@given(seed=SEEDS, seat_pick=SEATS, steps=PREFIX)
def test_the_same_seed_gives_the_same_trajectory(
    subset: tuple[str, ...], seed: int, seat_pick: int, steps: int
) -> None:
    """Two games from the same seed, each with freshly built rules, hash the same."""
    first, second = build_rules(subset), build_rules(subset)
    players = players_for(first, seat_pick)
    one, end = trajectory(first, players, seed, steps)
    two, _ = trajectory(second, players, seed, steps)
    assert one == two
    if steps == FULL:
        assert end.is_over


# -- (c) save and load -----------------------------------------------------------------------


@pytest.mark.parametrize("subset", PLAYABLE, ids=subset_id)
@slow(3)
@example(agent_seed=7, every=9, **FULL_GAME)
@given(seed=SEEDS, agent_seed=SEEDS, seat_pick=SEATS, steps=PREFIX, every=st.integers(1, 15))
def test_saved_states_load_back_equal(
    subset: tuple[str, ...], seed: int, agent_seed: int, seat_pick: int, steps: int, every: int
) -> None:
    """Every ``every``-th position of a random game, and the last, round-trips through
    state JSON: with the rules given, and (at the last) rebuilt from the names it records."""
    rules = cached_rules(subset)
    players = players_for(rules, seat_pick)
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    for step in range(steps):
        if step % every == 0:
            assert state_from_json(state_to_json(rules, state), rules)[1] == state
        if state.is_over:
            break
        options = rules.legal_actions(state)
        if not options:  # the no-loops dead end (see test_known_no_loops_dead_end)
            break
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
    text = state_to_json(rules, state)
    assert state_from_json(text, rules)[1] == state
    rebuilt, again = state_from_json(text)
    assert rebuilt.ruleset == rules.ruleset
    assert again == state
    assert state_to_json(rebuilt, again) == text


# -- (d) plugin order ------------------------------------------------------------------------


@functools.cache
def infos_of(subset: tuple[str, ...]) -> tuple[PluginInfo, ...]:
    """The plugin infos of base + ``subset``, in the order ``resolve`` gives (base first)."""
    return tuple(resolve(subset))


def reordered(
    subset: tuple[str, ...], permutation: Sequence[int], base_at: int
) -> tuple[PluginInfo, ...]:
    """The subset's plugin infos with the others in ``permutation`` order and base
    inserted at position ``base_at``."""
    infos = infos_of(subset)
    others = [infos[1:][i] for i in permutation]
    return (*others[:base_at], infos[0], *others[base_at:])


def orderings(
    subset: tuple[str, ...], base_first: bool
) -> st.SearchStrategy[tuple[PluginInfo, ...]]:
    """Orders of the subset's plugins, base first or not: drawn by hypothesis, since the
    number of permutations grows too fast to try them all (7 plugins: 5,040)."""
    count = len(subset)
    positions = st.just(0) if base_first else st.integers(1, max(count, 1))
    return st.builds(reordered, st.just(subset), st.permutations(range(count)), positions)


def order_to_try(
    subset: tuple[str, ...], data: st.DataObject | None, base_first: bool
) -> tuple[PluginInfo, ...]:
    """Without hypothesis data (the whole-game example): the other plugins reversed, base
    first or last; with it: an order drawn by hypothesis."""
    if data is None:
        count = len(subset)
        return reordered(subset, range(count - 1, -1, -1), 0 if base_first else count)
    return data.draw(orderings(subset, base_first), label="order")


def order_id(order: Sequence[PluginInfo]) -> str:
    return ",".join(info.name for info in order)


def play_in_lockstep(
    reference: Rules,
    others: dict[str, Rules],
    players: int,
    seed: int,
    agent_seed: int,
    steps: int,
) -> None:
    """Play one random game under every rule set at once (the reference's agents choose):
    the same options at every step, the same positions, and the same scores."""
    agents = [RandomAgent(agent_seed + seat) for seat in range(players)]
    state = reference.new_game(players, seed)
    states = {name: rules.new_game(players, seed) for name, rules in others.items()}
    for step in range(steps + 1):
        options = reference.legal_actions(state)
        for name, rules in others.items():
            where = f"order {name}, step {step} ({state.decision.stage!r})"
            assert rules.legal_actions(states[name]) == options, f"options differ: {where}"
            assert unruled(states[name]) == unruled(state), f"positions differ: {where}"
            assert rules.scores(states[name]) == reference.scores(state), f"scores: {where}"
        if state.is_over or not options or step == steps:
            break
        action = agents[state.decision.player].choose(reference, state, options)
        state = reference.apply(state, action)
        states = {name: others[name].apply(s, action) for name, s in states.items()}
    if steps == FULL:
        assert state.is_over


MULTI = [subset for subset in PLAYABLE if len(subset) >= 2]


@pytest.mark.parametrize("subset", MULTI, ids=subset_id)
@slow(3)
@example(agent_seed=7, permutation=None, **FULL_GAME)
@given(seed=SEEDS, agent_seed=SEEDS, seat_pick=SEATS, steps=PREFIX, permutation=st.data())
def test_plugin_order_plays_no_part_with_base_first(
    subset: tuple[str, ...],
    seed: int,
    agent_seed: int,
    seat_pick: int,
    steps: int,
    permutation: st.DataObject | None,
) -> None:
    """Rules built from the same plugins in another order that keeps base first (the
    reverse in the whole-game example, drawn ones otherwise) play the same game as the
    order ``resolve`` chooses."""
    reference = cached_rules(subset)
    order = order_to_try(subset, permutation, base_first=True)
    others = {order_id(order): Rules(order)}
    play_in_lockstep(reference, others, players_for(reference, seat_pick), seed, agent_seed, steps)


#: plugin orders (names, in registration order) that the engine is expected to refuse,
#: with a pattern of the PluginError's message; none today
REJECTED: dict[tuple[str, ...], str] = {}


@pytest.mark.parametrize("subset", [s for s in PLAYABLE if s], ids=subset_id)
@slow(2)
@example(agent_seed=7, permutation=None, **FULL_GAME)
@given(seed=SEEDS, agent_seed=SEEDS, seat_pick=SEATS, steps=PREFIX, permutation=st.data())
def test_plugin_order_plays_no_part_with_plugins_before_base(
    subset: tuple[str, ...],
    seed: int,
    agent_seed: int,
    seat_pick: int,
    steps: int,
    permutation: st.DataObject | None,
) -> None:
    """Rules built with other plugins registered before base (base last and the others
    reversed in the whole-game example, drawn orders otherwise) either play the same game
    as the canonical order, or are refused with a PluginError naming a plugin; which one
    is asserted (``REJECTED`` lists the orders to be refused)."""
    reference = cached_rules(subset)
    order = order_to_try(subset, permutation, base_first=False)
    names = tuple(info.name for info in order)
    may_refuse = names in REJECTED
    try:
        rules = Rules(order)
    except PluginError as exc:
        assert may_refuse, f"order {order_id(order)} refused: {exc}"
        assert any(name in str(exc) for name in names), f"unclear refusal: {exc}"
        if names in REJECTED:
            assert re.search(REJECTED[names], str(exc)), str(exc)
        return
    assert names not in REJECTED, f"order {order_id(order)} should have been refused"
    play_in_lockstep(
        reference,
        {order_id(order): rules},
        players_for(reference, seat_pick),
        seed,
        agent_seed,
        steps,
    )
