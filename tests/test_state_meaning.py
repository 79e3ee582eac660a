"""A state file means what it says: it is checked against the rules it names before use.

Each test takes a real state, changes one thing no game could reach and loads it: the
loader refuses it with a message naming the JSON path (never a ``KeyError`` or an
``AssertionError`` later). Every state of every golden game passes the same checks.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from native_kit import assert_native_game_is_python, require_native
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core import build_rules
from naqala.core.actions import parse_action
from naqala.core.engine import Rules
from naqala.core.serialize import StateFormatError, state_from_data, state_to_data
from naqala.core.state import State
from naqala.core.validate import MAX_COINS, check_state
from naqala.native.bridge import NativeRules

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def one_game_per_set() -> list[Path]:
    """The first golden game of each expansion set."""
    chosen: dict[tuple[str, ...], Path] = {}
    for path in GOLDEN:
        game = json.loads(path.read_text(encoding="utf-8"))
        chosen.setdefault(tuple(game["expansions"]), path)
    return sorted(chosen.values())


SAMPLE = one_game_per_set()
Change = Callable[[dict[str, Any]], None]


def reached(
    expansions: list[str], players: int, actions: int, seed: int = 5
) -> tuple[Rules, State]:
    """A state after ``actions`` actions of a golden-like random game (first options)."""
    rules = build_rules(expansions)
    state = rules.new_game(players, seed)
    for _ in range(actions):
        state = rules.apply(state, rules.legal_actions(state)[-1])
    return rules, state


def refused(rules: Rules, state: State, change: Change) -> str:
    """The message the loader gives for ``state`` written out and changed by ``change``."""
    data = copy.deepcopy(state_to_data(rules, state))
    change(data)
    with pytest.raises(StateFormatError) as caught:
        state_from_data(data)
    return str(caught.value)


def at_drop() -> tuple[Rules, State]:
    """A base game waiting for a ``drop`` in the first turn."""
    rules, state = reached([], 3, 0)
    while state.decision.stage != "drop":
        state = rules.apply(state, rules.legal_actions(state)[0])
    return rules, state


# -- conservation ---------------------------------------------------------------------------


def test_two_hundred_viziers_on_a1_are_refused() -> None:
    rules, state = reached([], 3, 0)

    def viziers(data: dict[str, Any]) -> None:
        data["board"]["tiles"][0]["meeples"] += "Y" * 200

    message = refused(rules, state, viziers)
    assert "$.bag: " in message and "Vizier meeples" in message and "the rules have 16" in message
    assert "$.board.tiles[0].meeples: " in message, "the tile is named too"
    assert "Vizier meeples (Y) on one tile; the rules have 16 in all" in message


def test_a_meeple_on_the_chasm_is_refused() -> None:
    rules, state = reached(["artisans"], 2, 0)
    chasm = state.layout.tiles.index("chasm-1")

    def on_chasm(data: dict[str, Any]) -> None:
        data["board"]["tiles"][chasm]["meeples"] = "Y"
        data["bag"] = data["bag"].replace("Y", "", 1)

    assert f"$.board.tiles[{chasm}].meeples: 'chasm-1' holds no meeples" in refused(
        rules, state, on_chasm
    )


def test_ninety_nine_camels_are_refused() -> None:
    rules, state = reached([], 3, 0)
    message = refused(rules, state, lambda d: d["players"][1].update(camels=99))
    assert message.startswith("$.players[1].camels: 99 in supply")


def test_a_tile_held_by_a_non_player_is_refused_without_one() -> None:
    """Owner -2 (a non-player opponent's camel) needs rules that have one: the solo mode."""
    rules, state = reached([], 3, 0)
    message = refused(rules, state, lambda d: d["board"]["tiles"][3].update(owner=-2))
    assert "1 tiles held by a non-player opponent" in message and "0 camels" in message


def test_yazid_s_camels_are_counted_in_supply_and_on_his_tiles() -> None:
    rules, state = reached(["solo"], 1, 0)
    message = refused(rules, state, lambda d: d["board"]["tiles"][3].update(owner=-2))
    assert "$.extras.sultan.camels: 11 in supply and 1 on tiles; Yazid has 11" in message


def test_a_palace_pool_of_minus_four_is_refused() -> None:
    rules, state = reached([], 4, 0)
    message = refused(rules, state, lambda d: d["pool"].update(palace=-4))
    assert "$.pool.palace: -4 is negative" in message


@pytest.mark.parametrize(
    ("where", "change"),
    [
        (
            "$.players[0].hands.resources[0]: no resources card 'unicorn'",
            lambda d: d["players"][0]["hands"].update(resources=["unicorn"]),
        ),
        (
            "$.players[0].hands.djinns[0]: no djinns card 'nobody'",
            lambda d: d["players"][0]["hands"].update(djinns=["nobody"]),
        ),
        (
            "$.players[2].hands.resources[0]: no resources card 'jafaar'",
            lambda d: d["players"][2]["hands"].update(resources=["jafaar"]),
        ),
        (
            "$.decks.resources.row[0]: unknown card 'x'",
            lambda d: d["decks"]["resources"]["row"].__setitem__(0, "x"),
        ),
    ],
)
def test_unknown_and_misplaced_cards_are_refused(where: str, change: Change) -> None:
    rules, state = reached([], 3, 0)
    assert where in refused(rules, state, change)


def test_a_duplicated_card_is_refused() -> None:
    rules, state = reached([], 3, 0)

    def copy_djinn(data: dict[str, Any]) -> None:
        data["players"][0]["hands"]["djinns"] = [data["decks"]["djinns"]["row"][0]]

    assert "$.decks.djinns: 2 copies of" in refused(rules, state, copy_djinn)


def test_a_shortened_turn_track_is_refused() -> None:
    rules, state = reached([], 3, 0)
    message = refused(rules, state, lambda d: d.update(turn_track=d["turn_track"][:4]))
    assert "$.turn_track: 4 spots; the track of a 3-player game has 9" in message


def test_a_marker_on_two_spots_is_refused() -> None:
    rules, state = reached([], 3, 3)  # three bids made: markers on the turn track

    def twice(data: dict[str, Any]) -> None:
        placed = next(m for m in data["turn_track"] if m is not None)
        data["bid_track"][data["bid_track"].index(None)] = placed

    assert "is also on" in refused(rules, state, twice)


def test_a_tile_laid_twice_is_refused() -> None:
    """Each tile of the content is one piece: the same tile in two places is refused."""
    rules, state = reached([], 3, 0)
    twin = state.layout.tiles[0]
    message = refused(rules, state, lambda d: d["board"]["tiles"][7].update(tile=twin))
    assert f"$.board.tiles[7].tile: {twin!r} is already at a1" in message


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("aside.meeple.pink", "no colour 'pink'"),
        ("aside.camel", "set aside are only aside.meeple.<colour> and aside.card.<card>"),
    ],
)
def test_only_known_components_are_set_aside(key: str, reason: str) -> None:
    """What lies beside the board is counted with the rest: it must be something the rules
    have (a meeple of a colour they know, or a card)."""
    rules, state = reached(["solo"], 1, 0)
    message = refused(rules, state, lambda d: d["extras"].update({key: 1}))
    assert f"$.extras.{key}: {reason}" in message


# -- bounds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "change"),
    [
        ("$.round: rounds are counted from 1", lambda d: d.update(round=0)),
        ("$.players[0].coins", lambda d: d["players"][0].update(coins=MAX_COINS + 1)),
        ("$.players[1].coins", lambda d: d["players"][1].update(coins=10**5000)),
        (
            "$.extras.effects.jafaar: -1 is not between 0 and 1000000",
            lambda d: d["extras"].update({"effects.jafaar": -1}),
        ),
        (
            "$.players[0].extras.round-used:x: -2 is not between 0 and 1000000",
            lambda d: d["players"][0]["extras"].update({"round-used:x": -2}),
        ),
    ],
)
def test_out_of_bounds_numbers_are_refused(where: str, change: Change) -> None:
    rules, state = reached([], 3, 0)
    assert where in refused(rules, state, change)


def test_a_seven_player_state_is_refused() -> None:
    rules, state = reached([], 3, 0)

    def crowd(data: dict[str, Any]) -> None:
        data["players"] += [copy.deepcopy(data["players"][0]) for _ in range(4)]

    assert "$.players: 7 players; these rules allow 2, 3, 4" in refused(rules, state, crowd)


# -- the decision fits the turn ------------------------------------------------------------------


@pytest.mark.parametrize("stage", ["drop", "kill", "pick"])
def test_a_turn_decision_without_a_turn_is_refused(stage: str) -> None:
    rules, state = at_drop()

    def no_turn(data: dict[str, Any]) -> None:
        data["decision"]["stage"] = stage
        data["turn"] = None

    message = refused(rules, state, no_turn)
    assert (
        f"$.turn: the decision {stage!r} belongs to a turn, but no turn is in progress" in message
    )


def test_a_drop_with_an_empty_hand_is_refused() -> None:
    rules, state = at_drop()

    def empty(data: dict[str, Any]) -> None:
        start = next(t for t in data["board"]["tiles"] if t["at"] == data["turn"]["start"])
        start["meeples"] += data["turn"]["hand"]  # put them down: every meeple is still there
        data["turn"]["hand"] = None

    assert "$.turn.hand: 'drop' needs meeples picked up" in refused(rules, state, empty)


def test_meeples_in_hand_before_the_pick_are_refused() -> None:
    rules, state = at_drop()

    def back_to_pick(data: dict[str, Any]) -> None:
        data["decision"]["stage"] = "pick"
        data["turn"].update(start=None, path=[])  # the hand still holds the meeples

    assert "$.turn.hand: nothing is in hand before the meeples are picked up" in refused(
        rules, state, back_to_pick
    )


@pytest.mark.parametrize("target", ["zz", "z9", "p9", "p0"])
def test_a_kill_target_that_is_no_tile_and_no_player_is_refused(target: str) -> None:
    """Later kills of a turn go where the first went: a tile or a player (``p1``…); any
    other target used to crash the assassins' stage."""
    rules, state = at_drop()
    message = refused(rules, state, lambda d: d["turn"].update(target=target))
    assert f"$.turn.target: {target!r} is neither a tile of the board nor a player" in message


def test_a_bid_during_a_turn_and_a_turn_of_another_player_are_refused() -> None:
    rules, state = at_drop()
    assert "$.turn: no turn is in progress during 'bid'" in refused(
        rules, state, lambda d: d["decision"].update(stage="bid")
    )
    other = (state.decision.player + 1) % 3
    assert "$.decision.player: the turn in progress is player" in refused(
        rules, state, lambda d: d["decision"].update(player=other)
    )


def test_an_unknown_stage_to_resume_is_refused() -> None:
    rules, state = at_drop()
    message = refused(rules, state, lambda d: d["turn"].update(resume="nowhere"))
    assert "$.turn.resume: unknown stage 'nowhere'" in message


def test_an_unknown_stage_waiting_for_a_step_is_refused() -> None:
    """A stage that entered a step (``turn.callers``) is returned to afterwards: an unknown
    one used to stop the game after the step, inside the flow."""
    rules, state = at_drop()
    message = refused(rules, state, lambda d: d["turn"].update(callers=["nowhere"]))
    assert "$.turn.callers[0]: unknown stage 'nowhere'" in message


def test_the_cli_says_one_line_instead_of_an_assertion_error(tmp_path: Path) -> None:
    rules, state = at_drop()
    data = state_to_data(rules, state)
    data["turn"] = None
    path = tmp_path / "no-turn.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["actions", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"naqala: {path}: not a naqala state: ")
    assert "$.turn: the decision 'drop' belongs to a turn" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert not isinstance(result.exception, AssertionError)


# -- plugins' own components -------------------------------------------------------------------


def test_a_moved_mountain_or_a_filled_chasm_is_refused() -> None:
    """Walls and impassable tiles follow from where the tiles lie (the plugins say which):
    a state file cannot change them (a wall between tiles that do not touch used to be
    taken as it was written)."""
    rules, state = reached(["artisans"], 2, 0)
    message = refused(rules, state, lambda d: d["board"]["walls"][0].__setitem__(1, "a1"))
    assert "$.board.walls: the tiles laid out here put walls at [[" in message
    message = refused(rules, state, lambda d: d["board"].update(blocked=[]))
    chasm = state.geometry.name(state.layout.tiles.index("chasm-1"))
    assert f"$.board.blocked: the tiles laid out here make [{chasm!r}] impassable" in message


def test_a_second_tent_is_refused() -> None:
    rules, state = reached(["artisans"], 2, 0)
    message = refused(rules, state, lambda d: d["players"][0]["extras"].update({"piece.tent": 2}))
    assert "$.players[0].extras.piece.tent: the player's one tent: 2 to place" in message


def test_a_pitched_tent_counts_as_the_camel_it_replaces() -> None:
    """A tent on an owned tile stands for a camel: the camel is back in supply."""
    rules = build_rules(["artisans"])
    for path in GOLDEN:
        game = json.loads(path.read_text(encoding="utf-8"))
        if game["expansions"] != ["artisans"]:
            continue
        state = rules.new_game(game["players"], game["seed"])
        for text in game["actions"]:
            state = rules.apply(state, parse_action(text))
            if text.startswith("tent "):
                assert check_state(rules, state) == []
                return
    pytest.fail("no golden Artisans game pitches a tent")  # pragma: no cover


def at_gather() -> tuple[Rules, State]:
    """An Artisans game in which the Enchanting Flute is gathering meeples (a random game
    of seed 1 gets there)."""
    rules = build_rules(["artisans"])
    state, chooser = rules.new_game(3, 1), random.Random(1)
    while state.decision.stage != "gather":
        state = rules.apply(state, chooser.choice(rules.legal_actions(state)))
    return rules, state


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("flute.tile", 99, "99 is no tile of the board"),
        ("flute.left", 0, "no meeple left to gather"),
    ],
)
def test_the_flute_gathers_onto_a_tile_of_the_board(key: str, value: int, reason: str) -> None:
    """A Flute tile off the board used to crash the gathering's options."""
    rules, state = at_gather()
    assert f"$.extras.{key}: {reason}" in refused(
        rules, state, lambda d: d["extras"].update({key: value})
    )


def test_the_flute_s_counters_are_set_only_while_it_gathers() -> None:
    rules, state = reached(["artisans"], 2, 0)
    message = refused(rules, state, lambda d: d["extras"].update({"flute.left": 2}))
    assert "$.extras.flute.left: set, but the Enchanting Flute is not played" in message


def test_a_whims_row_without_a_place_per_city_is_refused() -> None:
    rules, state = reached(["djinns"], 3, 0)

    def fewer_places(data: dict[str, Any]) -> None:
        whims = data["decks"]["whims"]
        whims["discard"].append(whims["row"].pop())

    message = refused(rules, state, fewer_places)
    assert "$.decks.whims.row: 4 places for the 5 city tiles" in message


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("sultan.white", 7, "7 is not a face of the 6-sided die"),
        ("sultan.black", 9, "9 is not a face of the 6-sided die"),
        ("sultan.target.1", 31, "31 is not a tile of the board, counted from 1"),
        ("sultan.rolled", 2, "2 is not a round played so far"),
        ("sultan.outbid", 5, "5 is not a round played so far"),
        ("sultan.after", 2, "2 is not 0 or 1"),
        ("sultan.lost", 9, "9 is no reason to lose"),
    ],
)
def test_yazid_s_dice_targets_and_rounds_are_values_they_can_take(
    key: str, value: int, reason: str
) -> None:
    """A die shows one of its faces, a target is a tile of the board, a round counter a
    round already played (a target of 99 used to crash the board's notes)."""
    rules, state = reached(["solo"], 1, 0)
    message = refused(rules, state, lambda d: d["extras"].update({key: value}))
    assert f"$.extras.{key}: {reason}" in message


# -- no false alarms ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAMPLE, ids=[p.stem for p in SAMPLE])
def test_every_state_of_a_golden_game_of_each_set_is_sound(path: Path) -> None:
    """No state a real game reaches is refused, with every expansion set
    (one golden game each); every 10th is also written out and read back through the
    checking loader."""
    game = json.loads(path.read_text(encoding="utf-8"))
    rules = build_rules(game["expansions"])
    state = rules.new_game(game["players"], game["seed"])
    for step, text in enumerate([*game["actions"], None]):
        assert check_state(rules, state) == [], f"after {step} actions"
        if step % 10 == 0:
            assert state_from_data(state_to_data(rules, state), rules)[1] == state
        if text is None:
            break
        state = rules.apply(state, parse_action(text))
    assert state.is_over


def test_a_number_of_five_thousand_digits_is_refused_in_one_line(tmp_path: Path) -> None:
    rules, state = reached([], 3, 0)
    text = json.dumps(state_to_data(rules, state)).replace('"round": 1', '"round": 1' + "0" * 5000)
    path = tmp_path / "huge.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["actions", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"naqala: {path}: not a naqala state: not JSON")
    assert len(result.stderr.splitlines()) == 1


DRY_WELLS = Path(__file__).parent / "data" / "dry-wells.toml"


def states_with_a_meeple_on_a_dry_well(rules: Rules, seed: int) -> list[State]:
    """The states of a random game in which some dry well holds a meeple."""
    state = rules.new_game(2, seed)
    wells = [i for i, tile in enumerate(state.layout.tiles) if tile.startswith("dry-well")]
    assert len(wells) == 5 and not any(any(state.board.meeples[i]) for i in wells)
    choose, found = random.Random(seed), []
    while rules.legal_actions(state):
        state = rules.apply(state, choose.choice(rules.legal_actions(state)))
        if any(any(state.board.meeples[i]) for i in wells):
            found.append(state)
    assert found, "the game never dropped a meeple on a dry well"
    return found


def test_a_meeple_dropped_on_a_tile_dealt_none_at_set_up_is_a_legal_state() -> None:
    """``holds_meeples = false`` deals a tile no meeples; a move may still end on it, and
    the state after passes the checks (before, the engine refused its own game)."""
    rules = build_rules(house_rules=[DRY_WELLS])
    for state in states_with_a_meeple_on_a_dry_well(rules, 3):
        assert check_state(rules, state) == []


def test_the_kernel_loads_a_meeple_on_a_dry_well_and_plays_the_same_game() -> None:
    require_native()
    rules = build_rules(house_rules=[DRY_WELLS])
    bridge = NativeRules(rules)
    for state in states_with_a_meeple_on_a_dry_well(rules, 4)[:20]:
        bridge.to_native(state)  # the kernel's meaning check accepts it
    assert_native_game_is_python(rules, bridge, 2, 4)
