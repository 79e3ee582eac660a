"""The public testing kit ``naqala.testing``: scenario helpers, hypothesis strategies,
forced chance, move counts, and the pytest plugin with its fixtures."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import textwrap
import types
from collections import Counter
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, TypeVar

import attrs
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from naqala.core.actions import Action
from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import PluginError, installed_entry_points
from naqala.core.rng import Rng
from naqala.core.state import Decision, State
from naqala.plugins.base.common import refill
from naqala.testing import scenario as kit_scenario
from naqala.testing import strategies
from naqala.testing.boardfile import BoardFileError, perft
from naqala.testing.chance import ChanceError, fill_bag, next_draws, reseed, stack_deck
from naqala.testing.moves import board_file, count_moves
from naqala.testing.pytest_plugin import Play, RulesFactory
from naqala.testing.scenario import (
    DJINN_DECK,
    RESOURCE_DECK,
    base_rules,
    board,
    counts,
    deck,
    on_tile,
    options,
    play,
    player,
    turn_of,
)
from naqala.testing.strategies import (
    MAX_SEED,
    expansion_sets,
    games,
    legal_actions,
    player_counts,
    reached_states,
    rulesets,
    seeds,
)

pytest_plugins = ["pytester"]

PERFT = Path(__file__).parent / "perft"
EXPANSIONS = sorted(name for name in installed_entry_points() if name != "base")
T = TypeVar("T")
FAST = settings(max_examples=25, deadline=None, database=None)


def minimal(strategy: st.SearchStrategy[T], condition: Callable[[T], bool]) -> T:
    """``hypothesis.find`` without the example database, which keys saved examples by a
    digest of the condition that two lambdas can share (``lambda n: True``), and
    derandomized: with some seeds (``--hypothesis-seed=6``, or the seed a longer test run
    happens to reach) the shrinker stops at ``('big-viziers', 'solo')``."""
    return find(
        strategy,
        condition,
        settings=settings(database=None, max_examples=2000, derandomize=True),
    )


def meeple_totals(state: State) -> tuple[int, ...]:
    """Meeples per colour on the board, in the bag and in front of players."""
    return tuple(
        sum(tile[c] for tile in state.board.meeples)
        + state.bag[c]
        + sum(p.meeples[c] for p in state.players)
        for c in range(len(state.bag))
    )


def deck_cards(state: State, index: int) -> Counter[str]:
    deck = state.decks[index]
    return Counter((*deck.draw, *deck.row, *deck.discard))


# -- scenario helpers --------------------------------------------------------------------


def test_the_kit_scenario_exports_every_public_helper() -> None:
    """``__all__`` names every public function of the module, so star imports miss none."""
    public = {
        name
        for name, value in vars(kit_scenario).items()
        if callable(value)
        and not name.startswith("_")
        and getattr(value, "__module__", "") == kit_scenario.__name__
    }
    assert public == set(kit_scenario.__all__)
    for name in kit_scenario.__all__:
        assert getattr(kit_scenario, name).__doc__, f"{name} has no docstring"


def test_the_scenario_module_example_holds() -> None:
    """The example in the module docstring of ``naqala.testing.scenario``."""
    rules = base_rules()
    state = turn_of(rules, rules.new_game(4, seed=1), seat=0)
    state = board(rules, state, {"a1": "RR", "b1": "W", "c1": "R"}, clear=True)
    assert options(rules, state, "pick") == ["pick a1"]


# -- strategies --------------------------------------------------------------------------


@FAST
@given(expansion_sets())
def test_expansion_sets_are_sorted_sets_of_installed_plugins(names: tuple[str, ...]) -> None:
    assert list(names) == sorted(set(names))
    assert set(names) <= set(EXPANSIONS)
    assert "base" not in names
    rules = build_rules(names)
    assert set(rules.names) == {"base", *names}


#: the plugins that can all be played together: every one but the solo mode, which
#: refuses the boxes (CONFLICTS)
TOGETHER = [name for name in EXPANSIONS if name != "solo"]


def test_expansion_sets_reach_the_empty_set_and_every_plugin() -> None:
    assert minimal(expansion_sets(), lambda names: True) == ()
    biggest = minimal(expansion_sets(), lambda names: len(names) == len(TOGETHER))
    assert list(biggest) == TOGETHER
    assert minimal(expansion_sets(), lambda names: "solo" in names) == ("solo",)


def test_expansion_sets_shrink_plugin_by_plugin() -> None:
    """Every plugin that a condition does not need is shrunk away, whatever its place
    among the picks; a plugin's requirement stays, as the set could not be built without."""
    pair = minimal(expansion_sets(), lambda names: {"solo", "no-loops"} <= set(names))
    assert pair == ("no-loops", "solo")
    required = minimal(expansion_sets(), lambda names: "shared-artisan-majority" in names)
    assert required == ("artisans", "shared-artisan-majority")


def test_expansion_sets_draw_and_shrink_a_made_up_world(monkeypatch: pytest.MonkeyPatch) -> None:
    """With plugins ``a`` (requiring ``b``), ``b``, ``c`` (refusing ``b``) and ``d``, no set
    holds ``c`` with ``b``, each holds what it requires, and each shrinks to what the
    condition needs."""
    needs = {"a": ("b",), "b": (), "c": (), "d": ()}
    refuses = {"a": frozenset[str](), "b": frozenset(), "c": frozenset({"b"}), "d": frozenset()}
    monkeypatch.setattr(strategies, "installed_entry_points", lambda: ["base", *needs])
    monkeypatch.setattr(strategies, "_requires", needs.__getitem__)
    monkeypatch.setattr(strategies, "_conflicts", refuses.__getitem__)
    drawn: set[tuple[str, ...]] = set()

    @settings(max_examples=300, deadline=None, database=None)  # 100 missed one in 300 runs
    @given(expansion_sets())
    def check(names: tuple[str, ...]) -> None:
        drawn.add(names)

    check()
    possible = {(), ("a", "b"), ("a", "b", "d"), ("b",), ("b", "d"), ("c",), ("c", "d"), ("d",)}
    assert drawn == possible
    assert minimal(expansion_sets(), lambda names: "c" in names) == ("c",)
    assert minimal(expansion_sets(), lambda names: {"b", "d"} <= set(names)) == ("b", "d")
    assert minimal(expansion_sets(), lambda names: "a" in names) == ("a", "b")
    assert minimal(expansion_sets(max_size=1), lambda names: len(names) > 1) == ("a", "b")


@FAST
@given(expansion_sets(min_size=2, max_size=3))
def test_expansion_sets_bound_the_drawn_plugins_not_those_they_require(
    names: tuple[str, ...],
) -> None:
    """``min_size`` and ``max_size`` bound the plugins drawn; what they require comes on top."""
    assert len(names) >= 2
    assert any(
        strategies._with_requirements(drawn) == names
        for size in (2, 3)
        for drawn in itertools.combinations(names, size)
    )


@FAST
@given(expansion_sets())
def test_expansion_sets_never_draw_plugins_that_conflict(names: tuple[str, ...]) -> None:
    assert not ("solo" in names and {"artisans", "djinns"} & set(names))


@FAST
@given(expansion_sets(EXPANSIONS[:1], min_size=1))
def test_expansion_sets_can_be_restricted(names: tuple[str, ...]) -> None:
    assert names == tuple(EXPANSIONS[:1])


def test_expansion_sets_reject_unknown_names_and_bad_sizes() -> None:
    with pytest.raises(ValueError, match="unknown expansion 'no-such-thing'"):
        expansion_sets(["no-such-thing"])
    with pytest.raises(ValueError, match="cannot draw between"):
        expansion_sets(EXPANSIONS[:1], min_size=2)


def test_expansion_sets_bring_required_plugins_along(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin that ``REQUIRES`` another brings it, so every drawn set can be built."""
    needs = {"a": ("b",), "b": ("c",), "c": (), "d": ()}
    monkeypatch.setattr(strategies, "_requires", lambda name: needs[name])
    assert strategies._with_requirements(["a"]) == ("a", "b", "c")
    assert strategies._with_requirements(["d", "c"]) == ("c", "d")


@FAST
@given(rulesets())
def test_rulesets_build_the_rules_of_drawn_sets(rules: Rules) -> None:
    assert rules.ruleset[0] == "base"
    assert rules is strategies._built(tuple(sorted(rules.names[1:])))  # built once


@FAST
@given(seeds())
def test_seeds_are_32_bit(seed: int) -> None:
    assert 0 <= seed <= MAX_SEED == 2**32 - 1


@FAST
@given(player_counts(base_rules()))
def test_player_counts_are_the_counts_of_the_content(players: int) -> None:
    assert players in {pc.players for pc in base_rules().content.player_counts}


def test_player_counts_can_be_restricted_and_are_checked() -> None:
    assert minimal(player_counts(base_rules(), [3, 4]), lambda n: True) == 3
    assert minimal(player_counts(base_rules, 2), lambda n: True) == 2

    @given(player_counts(base_rules(), 9))
    def draw_nine(players: int) -> None:
        pass

    with pytest.raises(ValueError, match=r"player counts \[9\] are not all supported"):
        draw_nine()


@FAST
@given(games(base_rules()))
def test_games_are_new_games_of_drawn_seed_and_count(game: tuple[Rules, State]) -> None:
    rules, state = game
    assert rules is base_rules()
    assert state.round == 1 and state.turn is None
    assert len(state.players) in {2, 3, 4}
    assert state == rules.new_game(len(state.players), state.rng.seed)


def test_games_call_a_rules_factory_once() -> None:
    calls: list[int] = []

    def factory() -> Rules:
        calls.append(1)
        return base_rules()

    strategy = games(factory, players=3)
    assert calls == []  # nothing is built before the first draw

    @FAST
    @given(strategy)
    def check(game: tuple[Rules, State]) -> None:
        assert len(game[1].players) == 3

    check()
    assert calls == [1]


@FAST
@given(games(rulesets(EXPANSIONS), players=2))
def test_games_draw_the_rules_from_a_strategy(game: tuple[Rules, State]) -> None:
    rules, state = game
    assert state.ruleset == rules.ruleset
    assert len(state.players) == 2


@FAST
@given(reached_states(base_rules(), max_actions=0, players=2))
def test_reached_states_with_no_actions_are_new_games(state: State) -> None:
    assert state == base_rules().new_game(2, state.rng.seed)


@FAST
@given(reached_states(base_rules(), max_actions=300))
def test_reached_states_are_positions_of_real_play(state: State) -> None:
    """Meeples stay conserved (a turn's hand counted) and the decision has options."""
    rules = base_rules()
    hand = (
        state.turn.hand if state.turn is not None and state.turn.hand else (0,) * len(rules.letters)
    )
    totals = tuple(t + h for t, h in zip(meeple_totals(state), hand, strict=True))
    assert totals == tuple(c.count for c in rules.content.colours)
    assert state.is_over or rules.legal_actions(state)


def test_reached_states_go_past_the_first_round() -> None:
    later = minimal(reached_states(base_rules(), max_actions=300), lambda s: s.round >= 2)
    assert later.round >= 2


def test_strategies_are_deterministic_given_the_draws() -> None:
    """Two derandomized runs make the same draws, so they must give the same states."""

    def collect() -> list[tuple[State, Action]]:
        seen: list[tuple[State, Action]] = []

        @settings(max_examples=15, derandomize=True, database=None, deadline=None)
        @given(st.data())
        def run(data: st.DataObject) -> None:
            state = data.draw(reached_states(base_rules, max_actions=80))
            state = data.draw(st.just(state).filter(lambda s: not s.is_over))
            seen.append((state, data.draw(legal_actions(base_rules(), state))))

        run()
        return seen

    first = collect()
    assert first and first == collect()


@FAST
@given(st.data())
def test_legal_actions_draw_a_legal_action(data: st.DataObject) -> None:
    rules = base_rules()
    state = data.draw(reached_states(rules, max_actions=60).filter(lambda s: not s.is_over))
    action = data.draw(legal_actions(rules, state))
    assert action in rules.legal_actions(state)
    rules.apply(state, action)


def test_legal_actions_of_a_finished_game_is_an_error() -> None:
    rules = base_rules()
    over = attrs.evolve(rules.new_game(2, 1), decision=Decision("over"))
    with pytest.raises(ValueError, match="the game is over"):
        legal_actions(rules, over)


def test_reached_states_reject_a_negative_length() -> None:
    with pytest.raises(ValueError, match="max_actions"):
        reached_states(base_rules(), max_actions=-1)


# -- forced chance: decks ----------------------------------------------------------------


def test_stack_deck_puts_the_cards_on_top_and_keeps_the_deck() -> None:
    rules = base_rules()
    state = rules.new_game(4, 1)
    res = state.decks[RESOURCE_DECK]
    top = [res.draw[5], res.draw[0]]
    after = stack_deck(rules, state, "resources", top)
    assert list(after.decks[RESOURCE_DECK].draw[:2]) == top
    rest = list(res.draw)
    rest.remove(top[0])
    rest.remove(top[1])
    assert list(after.decks[RESOURCE_DECK].draw[2:]) == rest
    assert after.decks[RESOURCE_DECK].row == res.row
    assert deck_cards(after, RESOURCE_DECK) == deck_cards(state, RESOURCE_DECK)
    assert after.decks[DJINN_DECK] == state.decks[DJINN_DECK]


def test_stack_deck_takes_from_the_discards_then_the_row() -> None:
    rules = base_rules()
    state = rules.new_game(2, 3)
    state = deck(
        rules, state, "djinns", draw=("jafaar",), row=("marid", "nekir"), discard=("leta",)
    )
    after = stack_deck(rules, state, "djinns", ["nekir", "leta"])
    djinns = after.decks[DJINN_DECK]
    assert djinns.draw == ("nekir", "leta", "jafaar")
    assert djinns.discard == ()
    assert djinns.row == ("marid",)
    assert deck_cards(after, DJINN_DECK) == deck_cards(state, DJINN_DECK)


def test_stack_deck_refuses_cards_the_deck_does_not_hold() -> None:
    rules = base_rules()
    state = rules.new_game(2, 3)
    state = deck(rules, state, "djinns", draw=("jafaar",), row=("marid",), discard=())
    state = player(rules, state, 0, djinns=["leta"])
    with pytest.raises(ChanceError, match="cannot stack 1 'leta' on the djinns deck"):
        stack_deck(rules, state, "djinns", ["leta"])
    with pytest.raises(ChanceError, match=r"cannot stack 2 'marid'.* hold 1"):
        stack_deck(rules, state, "djinns", ["marid", "marid"])
    with pytest.raises(ChanceError, match="no deck called 'spells'"):
        stack_deck(rules, state, "spells", ["leta"])


def test_a_stacked_deck_is_what_the_engine_draws() -> None:
    """The engine's refill of the face-up row and Sloar's draw take the stacked cards."""
    rules = base_rules()
    state = rules.new_game(2, 5)
    res = state.decks[RESOURCE_DECK]
    wanted = [res.draw[-1], res.draw[-2]]
    stacked = stack_deck(rules, state, "resources", wanted)
    emptied = attrs.evolve(stacked.decks[RESOURCE_DECK], row=())
    refilled, _ = refill(emptied, 2, stacked.rng)
    assert list(refilled.row) == wanted

    state = turn_of(rules, state, 0)
    state = player(rules, state, 0, djinns=["sloar"], cards=["fakir"])
    ivory = stack_deck(rules, state, "resources", ["ivory"])
    assert play(rules, ivory, "sloar F").players[0].cards == ("ivory",)


# -- forced chance: the bag --------------------------------------------------------------


def cleared(rules: Rules) -> State:
    """A 2-player game at seat 0's pick with every meeple in the bag but two on a1/b1."""
    state = turn_of(rules, rules.new_game(2, 7), 0)
    return board(rules, state, {"a1": "Y", "b1": "Y"}, clear=True)


def test_fill_bag_moves_the_rest_to_the_holding_tile() -> None:
    rules = base_rules()
    state = cleared(rules)
    after = fill_bag(rules, state, "RRW", holding="f5")
    assert after.bag == counts(rules, "RRW")
    assert meeple_totals(after) == meeple_totals(state)
    moved = tuple(b - a for a, b in zip(after.bag, state.bag, strict=True))
    assert after.board.meeples[after.geometry.parse("f5")] == moved
    assert attrs.evolve(after, board=state.board, bag=state.bag) == state


def test_fill_bag_takes_what_the_bag_lacks_from_the_holding_tile() -> None:
    rules = base_rules()
    state = board(rules, rules.new_game(2, 7), {"a1": "RRB"}, clear=True)
    state = fill_bag(rules, state, "", holding="f5")  # the bag now empty, f5 holds it all
    assert not any(state.bag)
    state = board(rules, state, {"a1": ""})  # a1's RRB back in the bag
    again = fill_bag(rules, state, "RRBWW", holding="f5")
    assert again.bag == counts(rules, "RRBWW")
    assert meeple_totals(again) == meeple_totals(state)


def test_fill_bag_errors() -> None:
    rules = base_rules()
    state = rules.new_game(2, 7)  # every meeple on the board, three to a tile
    tile = on_tile(rules, state, "a1")
    with pytest.raises(ChanceError, match="the bag cannot hold 'RRRR'"):
        fill_bag(rules, state, "RRRR", holding="a1")
    assert fill_bag(rules, state, tile, holding="a1").bag == counts(rules, tile)
    with pytest.raises(ChanceError, match="not meeple colour letters"):
        fill_bag(rules, state, "RX", holding="a1")
    with pytest.raises(ChanceError, match="tile z9 is off the"):
        fill_bag(rules, state, "", holding="z9")
    geo = state.geometry
    blocked = attrs.evolve(state.layout, blocked=frozenset({geo.parse("a1")}))
    with pytest.raises(ChanceError, match="impassable"):
        fill_bag(rules, attrs.evolve(state, layout=blocked), "", holding="a1")


def test_a_filled_bag_is_what_the_engine_draws() -> None:
    """Anun-Nak puts three meeples drawn from the bag on an empty tile: with a bag of three
    blue meeples they are certainly blue."""
    rules = base_rules()
    state = fill_bag(rules, cleared(rules), "BBB", holding="f5")
    state = player(rules, state, 0, djinns=["anun-nak"], cards=["fakir"])
    after = play(rules, state, "anun-nak c3 F")
    assert on_tile(rules, after, "c3") == "BBB"
    assert not any(after.bag)


# -- forced chance: the generator --------------------------------------------------------


def test_next_draws_reveal_the_generator_without_advancing_it() -> None:
    rules = base_rules()
    state = rules.new_game(3, 11)
    values = next_draws(state, 3)
    assert values == next_draws(state, 3) == next_draws(state.rng, 3)
    rng = state.rng
    for value in values:
        drawn, rng = rng.next64()
        assert drawn == value
    assert next_draws(state, 0) == []
    with pytest.raises(ValueError):
        next_draws(state, -1)
    assert state.rng.below(6)[0] == values[0] % 6  # below() uses the raw value


def test_reseed_replaces_only_the_generator() -> None:
    rules = base_rules()
    state = rules.new_game(3, 11)
    again = reseed(state, 42, counter=5)
    assert again.rng == Rng(42, 5)
    assert next_draws(again, 1) == [Rng(42, 5).next64()[0]]
    assert attrs.evolve(again, rng=state.rng) == state


# -- move counts -------------------------------------------------------------------------


def as_text(data: dict[str, Any]) -> str:
    """A board file without walls written as board text."""
    cols = data["cols"]
    words = [
        "#" if i in data.get("impassable", []) else (m or ".")
        for i, m in enumerate(data["meeples"])
    ]
    return "\n".join(" ".join(words[r * cols : (r + 1) * cols]) for r in range(data["rows"]))


@pytest.mark.parametrize(
    "path", sorted(p.name for p in PERFT.glob("*.json") if p.name != "expected.json")
)
def test_count_moves_agrees_with_the_board_file_route(path: str) -> None:
    expected = json.loads((PERFT / "expected.json").read_text(encoding="utf-8"))[path]
    data = json.loads((PERFT / path).read_text(encoding="utf-8"))
    assert count_moves(data) == perft(PERFT / path) == expected
    if not data.get("walls"):
        text = as_text(data)
        assert board_file(text)["meeples"] == data["meeples"]
        assert count_moves(text) == expected


def test_count_moves_of_board_text() -> None:
    """The example of the module docstring: only the elder on a2 can move (onto a1)."""
    assert count_moves("YW . R\nW # Y") == {"moves": 1, "paths": 1}
    indented = """
        YW . R
        W  # Y
    """
    assert count_moves(indented) == {"moves": 1, "paths": 1}
    assert board_file(indented)["impassable"] == [4]


def test_board_text_errors() -> None:
    with pytest.raises(BoardFileError, match="row 2 has 2 tiles, the first row has 3"):
        board_file("Y . R\nW Y")
    with pytest.raises(BoardFileError, match="row 1, column 2: 'x'"):
        board_file("Y x")
    with pytest.raises(BoardFileError, match="no rows"):
        board_file("  \n ")
    with pytest.raises(BoardFileError, match="expected an integer from 1 to 26"):
        count_moves(" ".join(["."] * 27))


# -- the pytest plugin -------------------------------------------------------------------


def test_the_plugin_is_registered_through_pytest11(pytestconfig: pytest.Config) -> None:
    points = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert points.get("naqala") == "naqala.testing.pytest_plugin"
    assert pytestconfig.pluginmanager.has_plugin("naqala")


def test_naqala_rules(naqala_rules: Rules) -> None:
    assert naqala_rules.ruleset == ("base",)
    assert naqala_rules is base_rules()


def test_naqala_game(naqala_game: State, naqala_rules: Rules) -> None:
    assert len(naqala_game.players) == 4
    assert naqala_game == naqala_rules.new_game(4, 1)


def test_naqala_play(naqala_play: Play, naqala_game: State, naqala_rules: Rules) -> None:
    first = options(naqala_rules, naqala_game)[0]
    assert naqala_play(naqala_game, first) == play(naqala_rules, naqala_game, first)
    assert naqala_play(naqala_game) is naqala_game


def test_naqala_rules_factory(naqala_rules_factory: RulesFactory, tmp_path: Path) -> None:
    assert naqala_rules_factory().ruleset == ("base",)
    assert naqala_rules_factory(EXPANSIONS[:1]).ruleset == ("base", *EXPANSIONS[:1])
    extra = types.ModuleType("tiny_object_plugin")
    extra.NAME = "tiny-object"  # type: ignore[attr-defined]
    house = tmp_path / "tiny_house.py"
    house.write_text('NAME = "tiny-house"\n', encoding="utf-8")
    rules = naqala_rules_factory(extra_plugins=[extra], house_rules=[str(house)])
    assert rules.ruleset == ("base", "tiny-object", "tiny-house")
    with pytest.raises(PluginError, match="unknown expansion"):
        naqala_rules_factory(["no-such-thing"])


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 3))
def test_fixtures_work_in_hypothesis_tests(naqala_game: State, seat: int) -> None:
    """Session-scoped fixtures raise no function-scoped-fixture health check."""
    assert 0 <= seat < len(naqala_game.players)


EXTERNAL_TEST = """
from naqala.testing.scenario import options

def test_rules(naqala_rules):
    assert naqala_rules.ruleset == ("base",)

def test_factory(naqala_rules_factory):
    assert naqala_rules_factory().ruleset == ("base",)

def test_game(naqala_game):
    assert len(naqala_game.players) == 4

def test_play(naqala_play, naqala_rules, naqala_game):
    after = naqala_play(naqala_game, options(naqala_rules, naqala_game)[0])
    assert after != naqala_game
"""


def test_an_external_project_gets_the_fixtures(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test file outside this project, with no conftest, finds the fixtures: the plugin
    comes from the installed naqala's pytest11 entry point (autoloaded, as by default)."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    pytester.makepyfile(test_external=EXTERNAL_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)
    blocked = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:naqala")
    blocked.assert_outcomes(errors=4)
    blocked.stdout.fnmatch_lines(["*fixture 'naqala_rules' not found*"])


DOCS = Path(__file__).resolve().parent.parent / "docs" / "testing.md"


def doc_examples() -> dict[str, str]:
    """The complete test files of docs/testing.md: Python blocks whose first line is
    ``# file: NAME``."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n# file: (\S+)\n(.*?)```", text, flags=re.DOTALL)
    return dict(blocks)


def test_the_examples_of_the_testing_docs_pass(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every example test file of docs/testing.md runs as written, fixtures from the
    installed plugin."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    examples = doc_examples()
    assert len(examples) >= 4
    for name, code in examples.items():
        pytester.makepyfile(**{name.removesuffix(".py"): code})
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=sum(code.count("\ndef test_") for code in examples.values()))


def test_the_kit_needs_neither_pytest_nor_hypothesis_but_where_it_says() -> None:
    """The scenario, chance and move helpers import without pytest and hypothesis (only
    the plugin and the strategies need them)."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["pytest"] = sys.modules["hypothesis"] = None
        import naqala.testing, naqala.testing.scenario, naqala.testing.chance
        import naqala.testing.moves, naqala.testing.invariants
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
