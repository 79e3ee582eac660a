"""The reading ``movement.revisit`` (false: "no loops", the house rule ``no-loops``): a
meeple move may not enter a tile twice nor come back to its start. Both engines implement
it (plugins/base/movement.py, kernel/src/moves.rs); these scenarios run on each."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_kit import require_native

from naqala.core.content import ContentError
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.state import State
from naqala.native.support import code_plugins
from naqala.plugins.base.movement import REVISIT, revisits
from naqala.testing.perft import count_moves
from naqala.testing.scenario import base_rules, board, options, play, turn_of

#: the options of a position on one engine: (rules, state, actions played) -> notation
Options = Callable[[Rules, State, tuple[str, ...]], list[str]]


def python_options(rules: Rules, state: State, played: tuple[str, ...]) -> list[str]:
    return options(rules, play(rules, state, *played))


def native_options(rules: Rules, state: State, played: tuple[str, ...]) -> list[str]:
    from naqala.native.bridge import NativeRules

    require_native()
    native = NativeRules(rules).to_native(state)
    for text in played:
        native = native.apply(text)
    return list(native.legal_actions())


ENGINES = {"python": python_options, "native": native_options}


def no_loops() -> Rules:
    return build_rules(["no-loops"])


def start(rules: Rules, meeples: dict[str, str]) -> State:
    """Player 0 about to pick, on a board holding only ``meeples``."""
    return turn_of(rules, board(rules, rules.new_game(2, 1), meeples, clear=True), 0)


def test_no_loops_is_the_setting_alone() -> None:
    """The shipped rule sets the reading and has no code: it plays native."""
    rules = no_loops()
    assert not revisits(rules) and rules.content.typed_settings[REVISIT] is False
    assert revisits(base_rules())
    assert code_plugins(rules) == []


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_with_no_loops_a_hand_of_five_may_not_come_back_to_its_start(engine: str) -> None:
    """Five elders on a1 and nothing else: the base game's one move is the loop
    a1 b1 b2 a2 a1 b1; without revisits no move exists, so a1 is not offered."""
    listed = ENGINES[engine]
    plain, rules = base_rules(), no_loops()
    position = {"a1": "WWWWW"}
    assert listed(plain, start(plain, position), ()) == ["pick a1"]
    assert listed(rules, start(rules, position), ()) == []


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_with_no_loops_a_drop_may_not_enter_the_start_again(engine: str) -> None:
    """Six elders on a1, one on c3: after a1 b1 b2 a2 the base game may step back onto
    a1; without revisits only a3 is offered."""
    listed = ENGINES[engine]
    plain, rules = base_rules(), no_loops()
    position = {"a1": "WWWWWW", "c3": "W"}
    prefix = ("pick a1", "drop b1 W", "drop b2 W", "drop a2 W")
    assert listed(plain, start(plain, position), prefix) == ["drop a1 W", "drop a3 W"]
    assert listed(rules, start(rules, position), prefix) == ["drop a3 W"]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_with_no_loops_a_drop_may_not_enter_a_tile_of_the_path_again(engine: str) -> None:
    """Five elders on a1, one on c2: from b2 the base game ends through b1 again
    (a2 a1 b1 or c2 c1 b1); without revisits no drop there keeps a move, c2 and a2 go."""
    listed = ENGINES[engine]
    plain, rules = base_rules(), no_loops()
    position = {"a1": "WWWWW", "c2": "W", "e5": "W"}
    prefix = ("pick a1", "drop b1 W", "drop b2 W")
    base = listed(plain, start(plain, position), prefix)
    assert {"drop a2 W", "drop c2 W"} <= set(base)
    assert set(listed(rules, start(rules, position), prefix)) == set(base) - {
        "drop a2 W",
        "drop c2 W",
    }


def test_a_loop_is_refused_with_its_reason() -> None:
    rules = no_loops()
    state = play(rules, start(rules, {"a1": "WWWWWW", "c3": "W"}), "pick a1", "drop b1 W")
    state = play(rules, state, "drop b2 W", "drop a2 W")
    with pytest.raises(IllegalAction, match=r"no loops \(movement.revisit = false\)"):
        play(rules, state, "drop a1 W")


def moves_on(engine: str, rules: Rules, state: State) -> int:
    """Complete moves from a pick, by walking the engine's own legal options."""
    if engine == "python":

        def walk_python(here: State) -> int:
            if here.decision.stage not in ("pick", "drop"):
                return 1
            return sum(walk_python(rules.apply(here, a)) for a in rules.legal_actions(here))

        return walk_python(state)
    from naqala.native.bridge import NativeRules

    require_native()

    def walk_native(here: object) -> int:
        listed = here.legal_actions()  # type: ignore[attr-defined]
        if not listed or not listed[0].startswith(("pick", "drop")):
            return 1
        return sum(walk_native(here.apply(a)) for a in listed)  # type: ignore[attr-defined]

    return walk_native(NativeRules(rules).to_native(state))


POSITIONS = [
    {"a1": "WWWWW", "c2": "W", "e5": "W"},
    {"c3": "YWBB", "b2": "B", "d4": "Y", "a1": "W"},
    {"b2": "WWYY", "c3": "W", "d2": "Y", "b4": "BB"},
]


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("position", POSITIONS, ids=range(len(POSITIONS)))
def test_perft_under_no_loops_is_the_listing_count_on_both_engines(
    engine: str, position: dict[str, str]
) -> None:
    """The moves each engine offers, walked to the end, are the perft listing's count
    under the setting: fewer than the base game's where a loop helped, never more."""
    rules, plain = no_loops(), base_rules()
    state = start(rules, position)
    geo, meeples = state.geometry, state.board.meeples
    strict, _ = count_moves(geo, meeples, revisit=False)
    loose, _ = count_moves(geo, meeples)
    assert strict <= loose
    assert moves_on(engine, rules, state) == strict
    assert moves_on(engine, plain, start(plain, position)) == loose


def test_perft_under_no_loops_counts_fewer_moves_where_loops_helped() -> None:
    state = start(base_rules(), POSITIONS[0])
    strict, _ = count_moves(state.geometry, state.board.meeples, revisit=False)
    loose, _ = count_moves(state.geometry, state.board.meeples)
    assert strict < loose


@pytest.mark.parametrize(
    ("value", "words"),
    [("0", "expected a boolean, got an integer"), ('"off"', "expected a boolean, got a string")],
)
def test_a_revisit_that_is_no_boolean_is_refused_in_one_line(
    tmp_path: Path, value: str, words: str
) -> None:
    path = tmp_path / "loops.toml"
    path.write_text(f'[house-rule]\nname = "loops"\n[settings]\nmovement.revisit = {value}\n')
    with pytest.raises(ContentError) as refused:
        build_rules(house_rules=[path])
    assert f"settings.{REVISIT}: {words}" in str(refused.value)


def self_avoiding_base_moves(rules: Rules, state: State) -> int:
    """The base game's complete moves whose tiles (the start and every drop) are all
    different: what "no loops" must leave, found without the setting's search."""

    def walk(here: State, seen: tuple[str, ...]) -> int:
        if here.decision.stage not in ("pick", "drop"):
            return 1
        total = 0
        for action in rules.legal_actions(here):
            tile = action.args[0]
            if tile not in seen:
                total += walk(rules.apply(here, action), (*seen, tile))
        return total

    return walk(state, ())


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_no_loops_offers_exactly_the_base_moves_that_enter_no_tile_twice(
    data: st.DataObject,
) -> None:
    """On drawn boards of up to five meeples a tile, the moves the setting offers,
    walked to the end, are the base game's moves filtered to those entering no tile
    twice nor coming back to the start."""
    plain, rules = base_rules(), no_loops()
    names = plain.new_game(2, 1).geometry.names
    tiles = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=5, unique=True))
    position = {t: data.draw(st.text("WYB", min_size=1, max_size=5), label=t) for t in tiles}
    expected = self_avoiding_base_moves(plain, start(plain, position))
    assert moves_on("python", rules, start(rules, position)) == expected
