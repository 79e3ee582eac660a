"""The example house rules (plugins/house) are real, tested variants; REPLACES settles who
owns a stage; the tutorial docs/house-rules.md works as written.

Each house rule is loaded both ways: as a file (``--house-rules plugins/house/<file>.py``)
and as the installed plugin (``-x <name>``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

import attrs
import pytest
import tomli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from naqala.agents.greedy import GreedyAgent
from naqala.cli.app import app
from naqala.core.actions import Action
from naqala.core.agents import RandomAgent
from naqala.core.content import ContentError
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.plugins import PluginError, PluginInfo, resolve
from naqala.core.powers import Power
from naqala.core.record import RecordError, new_record, rules_for_record
from naqala.core.rng import Rng
from naqala.core.simulate import play_game
from naqala.core.stage import Stage
from naqala.core.state import NOBODY, Decision, State, Turn, evolve
from naqala.testing.scenario import base_rules, board, options, play, player, tokens, turn_of

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "plugins" / "house"
FILES = {
    "big-viziers": HOUSE / "big_viziers.toml",
    "generous-jafaar": HOUSE / "generous_jafaar.toml",
    "no-loops": HOUSE / "no_loops.toml",
    "rich-villages": HOUSE / "rich_villages.toml",
    "double-palms": ROOT / "plugins" / "examples" / "double_palms.py",
}
TUTORIAL = ROOT / "docs" / "house-rules.md"
#: how a house rule is loaded: the installed plugin (-x NAME) or the file (--house-rules)
HOW = ("plugin", "file")


def slow(examples: int) -> settings:
    """Hypothesis settings for tests that play games: no deadline, few examples."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def load(name: str, how: str) -> Rules:
    """Base rules plus one example house rule, loaded ``how``."""
    if how == "plugin":
        return build_rules([name])
    return build_rules(house_rules=[FILES[name]])


def unruled(state: State) -> State:
    """The state without its plugin list, to compare positions across rule sets."""
    return attrs.evolve(state, ruleset=())


def start(rules: Rules, meeples: dict[str, str], tiles: dict[str, str] | None = None) -> State:
    """Player 0 about to pick, on a board holding only ``meeples`` (and tile ids set by
    ``tiles``)."""
    state = board(rules, rules.new_game(2, 1), meeples, clear=True, tiles=tiles)
    return turn_of(rules, state, 0)


def lockstep(first: Rules, second: Rules, players: int, seed: int) -> Iterator[tuple[State, State]]:
    """The positions of one random game played under both rule sets with the same agents,
    which choose by index among the first rule set's options."""
    agents = [RandomAgent(seed * 31 + seat) for seat in range(players)]
    a, b = first.new_game(players, seed), second.new_game(players, seed)
    yield a, b
    while not a.is_over:
        choice = agents[a.decision.player].choose(first, a, first.legal_actions(a))
        a, b = first.apply(a, choice), second.apply(b, choice)
        yield a, b


# -- loading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", sorted(FILES))
def test_each_house_rule_loads_as_a_file_and_as_an_installed_plugin(name: str, how: str) -> None:
    """Both ways give the rule set base + the rule, registered after base."""
    rules = load(name, how)
    assert rules.ruleset == ("base", name)
    info = rules.plugins[-1]
    if how == "file":
        assert info.source == "house-rule"
        assert info.path == str(FILES[name].resolve())
        assert len(info.sha256) == 64
    else:
        assert info.source == "entry-point"
    assert info.version == "1.0" and info.description


def test_the_house_rules_are_installed_under_the_group_naqala_plugins() -> None:
    """pyproject.toml installs the example rules as plugins of their own names: the
    shipped house rules as their .toml files, the example of a code rule as its module."""
    installed = {ep.name: ep.value for ep in entry_points(group="naqala.plugins")}
    for name, path in FILES.items():
        if path.suffix == ".toml":
            assert installed[name] == f"naqala.plugins.house:{path.stem}"
        else:
            assert installed[name] == f"naqala.plugins.examples.{path.stem}"


def test_the_shipped_house_rules_are_toml_alone_and_play_natively() -> None:
    """plugins/house/ holds .toml files only (issue 37), each native on the kernel."""
    plan = pytest.importorskip("naqala.native.plan")
    assert {p.suffix for p in HOUSE.iterdir() if p.name != "__init__.py"} <= {".toml", ""}
    for path in sorted(HOUSE.glob("*.toml")):
        rules = build_rules(["artisans"], [path])
        assert plan.plan(rules, ["random", "random"]).reason is None, path.name


#: the shipped rules made of numbers: each is its .toml alone (issue 37)
TOML_ONLY = (
    "big_viziers",
    "djinns_once_per_round",
    "generous_jafaar",
    "nekir_per_assassination",
    "rich_villages",
)


@pytest.mark.parametrize("stem", TOML_ONLY)
def test_a_shipped_toml_rule_is_one_file_installed_and_named_by_its_sha256(stem: str) -> None:
    """No Python wrapper: the entry point is the .toml, whose sha256 the record keeps,
    the same installed as given as a file."""
    path = HOUSE / f"{stem}.toml"
    assert not path.with_suffix(".py").exists()
    name = stem.replace("_", "-")
    installed = build_rules([name]).plugins[-1]
    as_file = build_rules([], [path]).plugins[-1]
    assert installed.name == as_file.name == name and installed.source == "entry-point"
    assert installed.sha256 == as_file.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    record = new_record(build_rules([name]), 5, 2, ["ai:random", "ai:random"])
    assert record.plugins[-1].sha256 == installed.sha256


def test_a_record_of_an_installed_toml_rule_replays_old_or_new_and_refuses_other_bytes() -> None:
    """A record made before the rules were one file names no sha256 and still loads; one
    naming other bytes is refused."""
    record = new_record(build_rules(["big-viziers"]), 5, 2, ["ai:random", "ai:random"])
    assert rules_for_record(record).ruleset == ("base", "big-viziers")
    old = attrs.evolve(record, plugins=[attrs.evolve(ref, sha256="") for ref in record.plugins])
    assert rules_for_record(old).ruleset == ("base", "big-viziers")
    other = attrs.evolve(
        record,
        plugins=[record.plugins[0], attrs.evolve(record.plugins[1], sha256="0" * 64)],
    )
    with pytest.raises(RecordError, match="do not match the record"):
        rules_for_record(other)


# -- big viziers -----------------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize(
    ("viziers", "expected"),
    [
        (("YYY", "Y", "YYY"), (15, 0, 15)),  # a tie beats nobody
        (("YYYY", "Y", "", "YY"), (45, 15, 0, 30)),
        (("YY", "YY"), (0, 0)),
        (("Y", ""), (15, 0)),
    ],
)
def test_big_viziers_majority_bonus_is_15_per_opponent_with_fewer_viziers(
    how: str, viziers: tuple[str, ...], expected: tuple[int, ...]
) -> None:
    """The vizier-majority line pays 15 per opponent with strictly fewer viziers (10 in
    the base game); the vizier line itself stays at 1 VP per vizier."""
    rules = load("big-viziers", how)
    plain = base_rules()
    state = rules.new_game(len(viziers), 4)
    for seat, letters in enumerate(viziers):
        state = player(rules, state, seat, meeples=letters)
    for seat, bonus in enumerate(expected):
        lines = {line.category: line for line in rules.score_lines(state, seat)}
        base_lines = {line.category: line for line in plain.score_lines(state, seat)}
        assert lines["vizier-majority"].points == bonus
        assert base_lines["vizier-majority"].points == bonus // 15 * 10
        assert (
            lines["viziers"]
            == base_lines["viziers"]
            == ScoreLine("viziers", len(viziers[seat]), "base", f"{len(viziers[seat])} viziers")
        )


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_big_viziers_changes_nothing_but_the_majority_bonus(
    how: str, players: int, seed: int
) -> None:
    """A random game played under both rule sets offers the same options and reaches the
    same positions at every step; at the end every score line is the same except the
    vizier majority, worth 3/2 of the base game's."""
    rules = load("big-viziers", how)
    plain = base_rules()
    a = b = plain.new_game(players, seed)
    for a, b in lockstep(plain, rules, players, seed):
        assert plain.legal_actions(a) == rules.legal_actions(b)
        assert unruled(a) == unruled(b)
    assert a.is_over and b.is_over
    for seat in range(players):
        for old, new in zip(plain.score_lines(a, seat), rules.score_lines(b, seat), strict=True):
            if old.category == "vizier-majority":
                assert new == attrs.evolve(old, points=old.points * 3 // 2)
            else:
                assert new == old


# -- no loops --------------------------------------------------------------------------------

LOOP = ("pick a1", "drop b1 W", "drop b2 W", "drop a2 W", "drop a1 W", "drop b1 W")


@pytest.mark.parametrize("how", HOW)
def test_a_loop_legal_in_the_base_game_is_illegal_with_no_loops(how: str) -> None:
    """Five elders on a1 and nothing else: the base game's only move is the loop
    a1 b1 b2 a2 a1 b1 (the last elder lands on the one dropped on b1); without loops no
    move exists, so a1 is not offered and picking it is refused."""
    plain = base_rules()
    rules = load("no-loops", how)
    position = {"a1": "WWWWW"}
    state = start(plain, position)
    assert options(plain, state) == ["pick a1"]
    done = play(plain, state, *LOOP)
    assert done.decision.stage not in ("pick", "drop")
    assert done.turn is not None and done.turn.path == (1, 7, 6, 0, 1)

    state = start(rules, position)
    assert options(rules, state) == []
    with pytest.raises(IllegalAction):
        play(rules, state, LOOP[0])


@pytest.mark.parametrize("how", HOW)
def test_a_drop_entering_a_tile_twice_is_not_offered_and_is_refused_as_a_loop(how: str) -> None:
    """Six elders on a1, one on c3. After a1 → b1 → b2 → a2 the base game may step back
    onto a1 (then b1 ends the move on the elders dropped there); with the rule only a3 is
    offered, and ``drop a1 W`` is refused with the reason "no loops"."""
    plain = base_rules()
    rules = load("no-loops", how)
    position = {"a1": "WWWWWW", "c3": "W"}
    prefix = ("pick a1", "drop b1 W", "drop b2 W", "drop a2 W")
    before = play(plain, start(plain, position), *prefix)
    after = play(rules, start(rules, position), *prefix)
    assert options(plain, before) == ["drop a1 W", "drop a3 W"]
    assert options(rules, after) == ["drop a3 W"]
    with pytest.raises(IllegalAction, match="no loops") as refused:
        play(rules, after, "drop a1 W")
    assert "a1 was already entered" in str(refused.value)
    assert "no loops" in rules.explain(after, Action("drop", ("a1", "W")))
    # the base game completes the loop; the rule finishes the other way
    assert play(plain, before, "drop a1 W", "drop b1 W", "drop b2 W").decision.stage != "drop"
    assert play(rules, after, "drop a3 W", "drop b3 W", "drop c3 W").decision.stage != "drop"


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize(
    ("position", "prefix", "base_only"),
    [
        # the picks differ: a1's five elders can only loop; e5's viziers reach e3 either way
        ({"a1": "WWWWW", "e5": "YY", "e3": "Y"}, [], ["pick a1"]),
        # the drops differ: from b2, a2 and c2 only end through b1 again (a2 a1 b1, c2 c1 b1)
        (
            {"a1": "WWWWW", "c2": "W"},
            ["pick a1", "drop b1 W", "drop b2 W"],
            ["drop a2 W", "drop c2 W"],
        ),
        # the drops differ: from a2, stepping back onto the start a1
        (
            {"a1": "WWWWWW", "c3": "W"},
            ["pick a1", "drop b1 W", "drop b2 W", "drop a2 W"],
            ["drop a1 W"],
        ),
        # no loop can help: the same options
        ({"c3": "YWB", "d5": "B"}, ["pick c3"], []),
        ({"a1": "WWWW", "a3": "W"}, [], []),
    ],
)
def test_pick_and_drop_options_with_and_without_no_loops(
    how: str, position: dict[str, str], prefix: list[str], base_only: list[str]
) -> None:
    """After the same ``prefix`` of a move, the rule offers exactly the base game's options
    minus ``base_only``."""
    plain = base_rules()
    rules = load("no-loops", how)
    a = play(plain, start(plain, position), *prefix)
    b = play(rules, start(rules, position), *prefix)
    offered, base_offered = set(options(rules, b)), set(options(plain, a))
    assert offered <= base_offered
    assert sorted(base_offered - offered) == base_only


def enters(move: tuple[str, ...]) -> list[str]:
    """The tiles a move (pick, drops in notation) stands on, in order."""
    return [step.split()[1] for step in move]


def complete_moves(rules: Rules, state: State) -> set[tuple[str, ...]]:
    """Every complete move reachable through offered options from a pick decision; fails
    if some offered pick or drop leads to no complete move (a dead end)."""
    found: set[tuple[str, ...]] = set()

    def walk(here: State, done: tuple[str, ...]) -> None:
        offered = list(rules.legal_actions(here))
        if here.turn is not None and sum(here.turn.hand) == 1:
            # the last meeple: every offered drop ends the move (one is played to be sure)
            assert offered, f"{' '.join(done)} leads to a dead end"
            assert all(a.kind == "drop" for a in offered)
            assert rules.apply(here, offered[0]).decision.stage != "drop"
            found.update((*done, str(a)) for a in offered)
            return
        for action in offered:
            assert action.kind in ("pick", "drop"), f"{action} offered during a move"
            child = rules.apply(here, action)
            move = (*done, str(action))
            if child.decision.stage == "drop":
                before = len(found)
                walk(child, move)
                assert len(found) > before, f"{' '.join(move)} leads to a dead end"
            else:
                found.add(move)

    walk(state, ())
    return found


TILE_NAMES = [f"{col}{row}" for col in "abcdef" for row in range(1, 6)]
#: a few tiles of up to 5 meeples (loops need 4 in hand), at most 14 meeples in all
SPARSE_BOARDS = st.dictionaries(
    st.sampled_from(TILE_NAMES),
    st.text(alphabet="YWGBR", min_size=1, max_size=5),
    min_size=1,
    max_size=5,
).filter(lambda b: sum(len(v) for v in b.values()) <= 14)


@slow(25)
@given(position=SPARSE_BOARDS)
def test_no_loop_moves_are_the_base_moves_that_enter_no_tile_twice(
    position: dict[str, str],
) -> None:
    """On random sparse boards (where loops matter most), the complete moves offered by
    the rule are exactly the base game's complete moves that never enter a tile twice nor
    come back to their start — and no offered pick or drop is a dead end, under either."""
    plain = base_rules()
    rules = load("no-loops", "plugin")
    base_moves = complete_moves(plain, start(plain, position))
    moves = complete_moves(rules, start(rules, position))
    assert moves == {m for m in base_moves if len(set(enters(m))) == len(m)}


def random_prefix(rules: Rules, players: int, seed: int, steps: int) -> State:
    """The position after up to ``steps`` actions of random play."""
    agents = [RandomAgent(seed + seat) for seat in range(players)]
    state = rules.new_game(players, seed)
    for _ in range(steps):
        if state.is_over:
            break
        options = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
    return state


def finishes(rules: Rules, state: State) -> bool:
    """Whether offered drops can finish the move in progress (true when none is)."""
    if state.decision.stage != "drop":
        return True
    return any(finishes(rules, rules.apply(state, a)) for a in list(rules.legal_actions(state)))


@slow(15)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 150),
    walk_seed=st.integers(0, 2**32 - 1),
)
def test_no_loops_never_offers_a_pick_or_drop_without_a_complete_move(
    players: int, seed: int, steps: int, walk_seed: int
) -> None:
    """The no-dead-ends property on positions reached by random play: at the next pick,
    every offered pick, and then every offered drop along a random move, can be finished
    with offered drops. (Random play stops before the end game, where the flow's own dead
    end, test_no_loops_flow_never_starts_a_turn_without_a_legal_move, lives.)"""
    rules = load("no-loops", "plugin")
    state = random_prefix(rules, players, seed, steps)
    rng = Rng(walk_seed)
    while state.decision.stage not in ("pick", "drop") and not state.is_over:
        index, rng = rng.below(len(rules.legal_actions(state)))
        state = rules.apply(state, rules.legal_actions(state)[index])
    while state.decision.stage in ("pick", "drop"):
        offered = list(rules.legal_actions(state))
        assert offered, f"no option at {state.decision.stage}"
        for action in offered:
            assert finishes(rules, rules.apply(state, action)), f"{action} is a dead end"
        index, rng = rng.below(len(offered))
        state = rules.apply(state, offered[index])


@pytest.mark.parametrize("how", HOW)
def test_no_loops_flow_never_starts_a_turn_without_a_legal_move(how: str) -> None:
    """Player 0 ends a turn; player 1's turn starts on a board where only a loop could
    move (five elders on a1). The turn must not wait at a pick with no options: like the
    base game without a legal move, it goes on (trigger B) and the game can end."""
    rules = load("no-loops", how)
    state = board(rules, rules.new_game(3, 1), {"a1": "WWWWW"}, clear=True)
    first, second = state.markers.index(0), state.markers.index(1)
    turn_track = (second,) + (NOBODY,) * (len(state.turn_track) - 1)
    bid_track = (first,) + (NOBODY,) * (len(state.bid_track) - 1)
    state = attrs.evolve(
        state,
        turn_track=turn_track,
        bid_track=bid_track,
        turn=Turn(marker=first),
        decision=Decision("sell", 0),
    )
    after = play(rules, state, "end")
    assert after.decision.player == 1
    assert after.is_over or rules.legal_actions(after), (
        f"player 1 waits at {after.decision.stage!r} with no legal option"
    )


@pytest.mark.parametrize("how", HOW)
def test_the_greedy_ai_plays_only_offered_options_under_no_loops(how: str) -> None:
    """Six elders on a1, one on c3: some base moves loop; the greedy AI must still choose
    one of the options offered by the rule."""
    rules = load("no-loops", how)
    state = start(rules, {"a1": "WWWWWW", "c3": "W"})
    offered = rules.legal_actions(state)
    assert GreedyAgent().choose(rules, state, offered) in offered


# -- rich villages ---------------------------------------------------------------------------


def end_move_on(rules: Rules, tile: str, placed: dict[str, dict[str, int]] | None = None) -> State:
    """Player 0 moves a vizier from a1 onto b1 (tile ``tile``, holding a vizier, and the
    tokens ``placed``): the two viziers are collected, a camel goes on b1, then b1's tile
    action."""
    state = start(rules, {"a1": "Y", "b1": "Y"}, tiles={"b1": tile})
    state = tokens(rules, state, placed)
    return play(rules, state, "pick a1", "drop b1 Y")


@pytest.mark.parametrize("how", HOW)
def test_rich_village_pays_2_coins_and_still_places_its_palace(how: str) -> None:
    """The same move ending on a village, with and without the rule: the only difference
    is the 2 coins; the palace is placed either way."""
    rules = load("rich-villages", how)
    plain = base_rules()
    rich, usual = end_move_on(rules, "village-1"), end_move_on(plain, "village-1")
    palace = rules.token_index["palace"]
    for state in (rich, usual):
        assert state.board.tokens[1][palace] == 1
        assert state.decision.stage == "sell"
    assert rich.players[0].coins == usual.players[0].coins + 2
    assert unruled(player(rules, rich, 0, coins=usual.players[0].coins)) == unruled(usual)
    assert options(rules, rich) == options(plain, usual)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("tile", ["oasis-1", "small-market-1", "large-market-1", "sacred-place-1"])
def test_rich_villages_leaves_the_other_tiles_unchanged(how: str, tile: str) -> None:
    """A move ending on any other tile gives the same position and options as the base."""
    rules = load("rich-villages", how)
    plain = base_rules()
    rich, usual = end_move_on(rules, tile), end_move_on(plain, tile)
    assert unruled(rich) == unruled(usual)
    assert options(rules, rich) == options(plain, usual)
    for name, stage in plain.stages.items():
        assert type(rules.stages[name]) is type(stage), name  # the village's stays too


# -- the command line ------------------------------------------------------------------------


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_play_with_the_no_loops_file_runs_to_the_end() -> None:
    """naqala play --seats ai,ai:random --seed 3 --house-rules plugins/house/no_loops.toml"""
    code, output = invoke(
        "play", "--seats", "ai,ai:random", "--seed", "3", "--house-rules", str(FILES["no-loops"])
    )
    assert code == 0, output
    assert "plugins base, no-loops" in output
    assert re.search(r"P[12] (wins|and P[12] share the win) with \d+ points", output)


def test_play_with_the_no_loops_file_and_random_ais_runs_to_the_end() -> None:
    """The same command with two random AIs (which only play offered options)."""
    code, output = invoke(
        "play",
        "--seats",
        "ai:random,ai:random",
        "--seed",
        "3",
        "--house-rules",
        str(FILES["no-loops"]),
    )
    assert code == 0, output
    assert "plugins base, no-loops" in output
    assert re.search(r"P[12] (wins|and P[12] share the win) with \d+ points", output)


def test_simulate_with_the_installed_double_palms() -> None:
    """naqala simulate -x double-palms --games 3 --json: its code keeps the games on the
    Python engine, which auto says on stderr (without the extension, the suite asks for
    the Python engine itself: tests/conftest.py)."""
    result = CliRunner().invoke(app, ["simulate", "-x", "double-palms", "--games", "3", "--json"])
    assert result.exit_code == 0, result.output
    if result.stderr:
        assert result.stderr.startswith("naqala: playing on the Python engine: plugin 'double-")
    summary = json.loads(result.stdout)
    assert summary["games"] == 3
    assert summary["plugins"] == ["base", "double-palms"]
    assert sum(summary["wins_by_seat"]) == pytest.approx(3)


# -- REPLACES --------------------------------------------------------------------------------


def stage_plugin(name: str, replaces: tuple[str, ...] = (), key: str = "tax") -> object:
    """A plugin object offering stage ``key`` (a fresh ``Stage``)."""

    class Offer:
        NAME = name
        REPLACES = replaces

        def __init__(self) -> None:
            self.stage = Stage()

        @hookimpl
        def naqala_stages(self) -> dict[str, Stage]:
            return {key: self.stage}

    return Offer()


def infos(*plugins: object) -> list[PluginInfo]:
    """Base and ``plugins``, as ``resolve`` describes them (base first)."""
    return resolve(extra=plugins)


def test_a_stage_offered_twice_without_replaces_is_refused_naming_both() -> None:
    one, two = stage_plugin("one"), stage_plugin("two")
    for order in ((one, two), (two, one)):
        with pytest.raises(PluginError, match="REPLACES") as refused:
            build_rules(extra_plugins=order)
        message = str(refused.value)
        assert "'tax'" in message and "'one'" in message and "'two'" in message


def test_a_stage_replaced_by_two_plugins_is_refused_naming_both() -> None:
    one, two = stage_plugin("one", ("tax",)), stage_plugin("two", ("tax",))
    with pytest.raises(PluginError, match="'tax'") as refused:
        build_rules(extra_plugins=[one, two])
    assert "'one'" in str(refused.value) and "'two'" in str(refused.value)
    # replacing a base stage twice: double-palms and a second oasis rule

    class Oasis:
        NAME = "oasis-too"
        REPLACES = ("tile:oasis",)

        @hookimpl
        def naqala_tile_actions(self) -> dict[str, Stage]:
            return {"oasis": Stage()}

    with pytest.raises(PluginError, match="'tile:oasis'") as refused:
        build_rules(["double-palms"], extra_plugins=[Oasis()])
    assert "'double-palms'" in str(refused.value) and "'oasis-too'" in str(refused.value)


def test_the_plugin_listing_a_stage_in_replaces_wins_in_any_registration_order() -> None:
    """Whichever order the two plugins (and base) are registered in, the stage is the one
    of the plugin that lists it in REPLACES."""
    plain, winner = stage_plugin("plain"), stage_plugin("winner", ("tax",))
    base, first, second = infos(plain, winner)
    assert (first.name, second.name) == ("plain", "winner")
    for order in (
        [base, first, second],
        [base, second, first],
        [first, base, second],
        [second, first, base],
    ):
        rules = Rules(order)
        assert rules.stages["tax"] is winner.stage  # type: ignore[attr-defined]
        assert rules.stages["tax"].name == "tax"


@pytest.mark.parametrize("how", HOW)
def test_house_rules_replace_base_stages_whether_registered_before_or_after_base(
    how: str,
) -> None:
    """double-palms owns tile:oasis, before or after base."""
    for name, keys, cls in (("double-palms", ("tile:oasis",), ("DoublePalms",)),):
        base, rule = load(name, how).plugins
        for order in ([base, rule], [rule, base]):
            rules = Rules(order)
            assert tuple(type(rules.stages[k]).__name__ for k in keys) == cls


def test_a_djinn_power_is_replaced_by_the_plugin_listing_it() -> None:
    """REPLACES works for card powers too (``djinns:<kind>``); without it, an error."""

    class Quiet(Power):
        pass

    class NewBaal:
        NAME = "new-baal"
        REPLACES = ("djinns:baal",)
        power = Quiet()

        @hookimpl
        def naqala_card_powers(self) -> dict[str, Power]:
            return {"djinns:baal": self.power}

    plugin = NewBaal()
    base, rule = infos(plugin)
    for order in ([base, rule], [rule, base]):
        rules = Rules(order)
        assert rules.powers["djinns", "baal"] is plugin.power and plugin.power.kind == "baal"

    class OldBaal:
        NAME = "old-baal"

        @hookimpl
        def naqala_card_powers(self) -> dict[str, Power]:
            return {"djinns:baal": Power()}

    with pytest.raises(PluginError, match=r"card kind 'djinns:baal'.*'base'.*'old-baal'"):
        build_rules(extra_plugins=[OldBaal()])


def content_plugin(name: str, path: Path) -> object:
    class Content:
        NAME = name

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [path]

    return Content()


def test_a_djinn_id_in_two_plugins_content_is_refused_naming_both_files(tmp_path: Path) -> None:
    """Two plugins shipping a djinn with the same id: the error names both files."""
    djinn = '[[djinn]]\nid = "zephyr"\nname = "Zephyr"\nvp = 5\nkind = "baal"\n'
    first, second = tmp_path / "first.toml", tmp_path / "second.toml"
    first.write_text(djinn, encoding="utf-8")
    second.write_text(djinn, encoding="utf-8")
    alone = build_rules(extra_plugins=[content_plugin("first", first)])
    assert alone.card_specs["zephyr"].deck == "djinns"
    with pytest.raises(ContentError, match="'zephyr'") as refused:
        build_rules(
            extra_plugins=[content_plugin("first", first), content_plugin("second", second)]
        )
    assert str(first) in str(refused.value) and str(second) in str(refused.value)
    # and a plugin reusing a base djinn's id names the base content file
    clash = tmp_path / "clash.toml"
    clash.write_text(djinn.replace("zephyr", "baal"), encoding="utf-8")
    with pytest.raises(ContentError, match="'baal'") as refused:
        build_rules(extra_plugins=[content_plugin("clash", clash)])
    assert str(clash) in str(refused.value) and "base.toml" in str(refused.value)


# -- the tutorial ----------------------------------------------------------------------------

BLOCK = re.compile(r"^```\w*\n(# file: (?P<name>[\w.]+)\n.*?)^```$", re.M | re.S)


def tutorial_files() -> dict[str, str]:
    """The complete files of docs/house-rules.md: fenced blocks whose first line is
    ``# file: NAME``."""
    text = TUTORIAL.read_text(encoding="utf-8")
    return {m["name"]: m[1] for m in BLOCK.finditer(text)}


@pytest.fixture
def tutorial(tmp_path: Path) -> Path:
    """A folder holding every complete file of the tutorial."""
    for name, text in tutorial_files().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def tutorial_rules() -> list[str]:
    return sorted(
        name for name in tutorial_files() if name.endswith(".py") and not name.startswith("test_")
    )


def import_file(path: Path, module_name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tutorial_marks_its_complete_files() -> None:
    assert set(tutorial_files()) == {
        "wise_elders.py",
        "wise_elders.toml",
        "shady_oases.py",
        "camel_drivers.py",
        "sultans_tax.py",
        "caravan_pay.py",
        "test_camel_drivers.py",
        "pyproject.toml",
    }


@pytest.mark.parametrize("name", tutorial_rules())
def test_each_tutorial_house_rule_loads_and_plays(tutorial: Path, name: str) -> None:
    """Each house rule of the tutorial loads as a file and plays whole random games."""
    rules = build_rules(house_rules=[tutorial / name])
    module = rules.plugins[-1].module
    assert rules.ruleset == ("base", module.NAME)
    for players in (2, 3, 4):
        state, actions = play_game(rules, players, seed=players)
        assert state.is_over and actions > 0


def test_the_tutorial_house_rules_play_together(tutorial: Path) -> None:
    rules = build_rules(house_rules=[tutorial / name for name in tutorial_rules()])
    assert rules.ruleset == (
        "base",
        "camel-drivers",
        "caravan-pay",
        "shady-oases",
        "sultans-tax",
        "wise-elders",
    )
    state, _ = play_game(rules, 3, seed=9)
    assert state.is_over


def test_the_tutorial_wise_elders_score_3_each(tutorial: Path) -> None:
    rules = build_rules(house_rules=[tutorial / "wise_elders.py"])
    state = player(rules, rules.new_game(2, 1), 0, meeples="WWY")
    lines = {line.category: line.points for line in rules.score_lines(state, 0)}
    base = {line.category: line.points for line in base_rules().score_lines(state, 0)}
    assert (lines["elders"], base["elders"]) == (6, 4)
    assert {k: v for k, v in lines.items() if k != "elders"} == {
        k: v for k, v in base.items() if k != "elders"
    }


def test_the_tutorial_wise_elders_keep_shamhats_promise(tutorial: Path) -> None:
    """Shamhat follows the setting (5 instead of 3), so content check warns of nothing;
    the setting alone breaks the card's text, and content check says so (issue 37)."""
    rules = build_rules(house_rules=[tutorial / "wise_elders.py"])
    assert rules.content.card("shamhat").params["elder_vp"] == 5
    state = player(rules, rules.new_game(2, 1), 0, meeples="WWY", djinns=["shamhat"])
    shamhat = [line for line in rules.score_lines(state, 0) if line.source == "shamhat"]
    assert [line.points for line in shamhat] == [2 * 2]
    runner = CliRunner()
    quiet = runner.invoke(app, ["content", "check", str(tutorial / "wise_elders.toml")])
    assert quiet.exit_code == 0 and "warning" not in quiet.stdout, quiet.stdout
    alone = tutorial / "setting_alone.toml"
    alone.write_text("[settings]\nelder_vp = 6\n", encoding="utf-8")
    loud = runner.invoke(app, ["content", "check", str(alone)])
    assert loud.exit_code == 0
    assert "warning: djinn 'shamhat'" in loud.stdout and "a penalty of 2 VP" in loud.stdout
    base = runner.invoke(
        app, ["content", "check", "-x", "whims", str(tutorial / "wise_elders.toml")]
    )
    assert "warning" not in base.stdout


def test_the_tutorial_shady_oasis_pays_for_the_palm_trees_already_there(tutorial: Path) -> None:
    """Two palm trees on the oasis: 2 coins, then a third tree is planted."""
    rules = build_rules(house_rules=[tutorial / "shady_oases.py"])
    palms = {"b1": {"palm-tree": 2}}
    shady = end_move_on(rules, "oasis-1", placed=palms)
    usual = end_move_on(base_rules(), "oasis-1", placed=palms)
    assert shady.board.tokens[1][rules.token_index["palm-tree"]] == 3
    assert shady.players[0].coins == usual.players[0].coins + 2
    assert unruled(player(rules, shady, 0, coins=usual.players[0].coins)) == unruled(usual)


def test_the_tutorial_shows_the_error_of_a_replacement_without_replaces(tutorial: Path) -> None:
    """Without its REPLACES line, shady oases is refused with the message the tutorial
    quotes."""
    source = (tutorial / "shady_oases.py").read_text(encoding="utf-8")
    assert 'REPLACES = ("tile:oasis",)\n' in source
    bare = tutorial / "bare_oases.py"
    bare.write_text(source.replace('REPLACES = ("tile:oasis",)\n', ""), encoding="utf-8")
    with pytest.raises(PluginError) as refused:
        build_rules(house_rules=[bare])
    assert f"naqala: {refused.value}\n" in TUTORIAL.read_text(encoding="utf-8")


def test_the_tutorial_flow_rules_both_apply_in_either_order(tutorial: Path) -> None:
    """The Sultan's tax and the caravan's pay, given in either order: both apply (a player
    with 5 coins ends the turn with 5) and whole games score the same."""
    files = [tutorial / "sultans_tax.py", tutorial / "caravan_pay.py"]
    seen = []
    for order in (files, files[::-1]):
        rules = build_rules(house_rules=order)
        start = turn_of(rules, rules.new_game(2, 3), 0)
        for coins in (5, 0):
            at_sale = evolve(player(rules, start, 0, coins=coins), decision=Decision("sell", 0))
            seen.append(play(rules, at_sale, "end").players[0].coins)
        state, _ = play_game(rules, 3, seed=5)
        seen.append(rules.scores(state))
    assert seen[0] == 5
    assert seen[:3] == seen[3:]


def test_the_tutorial_flow_rules_as_providers_are_refused_naming_both(tutorial: Path) -> None:
    """Written as providers (a plain hookimpl) the two rules would override each other:
    refused, naming both."""
    for name in ("sultans_tax.py", "caravan_pay.py"):
        source = (tutorial / name).read_text(encoding="utf-8")
        (tutorial / f"provided_{name}").write_text(
            source.replace("@hookimpl(wrapper=True)", "@hookimpl")
            .replace("((yield))", "(BaseFlow())")
            .replace("import current, gain_coins", "import BaseFlow, current, gain_coins"),
            encoding="utf-8",
        )
    with pytest.raises(PluginError, match="'caravan-pay' and 'sultans-tax'"):
        build_rules(
            house_rules=[tutorial / "provided_sultans_tax.py", tutorial / "provided_caravan_pay.py"]
        )


def test_the_tutorial_tests_pass(tutorial: Path) -> None:
    """The tutorial's test file, run beside the rule it tests."""
    module = import_file(tutorial / "test_camel_drivers.py", "tutorial_test_camel_drivers")
    tests: list[Callable[[], None]] = [
        getattr(module, name) for name in dir(module) if name.startswith("test_")
    ]
    assert len(tests) == 2
    for test in tests:
        test()


def test_the_tutorial_package_installs_the_rule_as_a_plugin(
    tutorial: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tutorial's pyproject.toml, installed (as its entry-point metadata beside the
    module), makes the rule available by name like any expansion."""
    project = tomli.loads((tutorial / "pyproject.toml").read_text(encoding="utf-8"))
    points = project["project"]["entry-points"]["naqala.plugins"]
    assert project["tool"]["setuptools"]["py-modules"] == ["camel_drivers"]
    dist = tutorial / "naqala_camel_drivers-1.0.dist-info"
    dist.mkdir()
    dist.joinpath("METADATA").write_text(
        "Metadata-Version: 2.1\nName: naqala-camel-drivers\nVersion: 1.0\n", encoding="utf-8"
    )
    lines = "".join(f"{name} = {value}\n" for name, value in points.items())
    dist.joinpath("entry_points.txt").write_text(f"[naqala.plugins]\n{lines}", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tutorial))
    try:
        rules = build_rules(["camel-drivers"])
        assert rules.ruleset == ("base", "camel-drivers")
        assert rules.plugins[-1].source == "entry-point"
        assert play_game(rules, 2, seed=1)[0].is_over
    finally:
        sys.modules.pop("camel_drivers", None)
